//! The dynamics experiments (Cline 2002 §5.2.1 and two of our own), shared by the examples and the tests.

use flinch::dynamics::{Body, Integrator, JointDrive, PositionUpdate, Stabilization, World};
use nalgebra::{UnitQuaternion, Vector3};

/// Six-link chain (Cline §5.2.1): link length (m).
pub const CHAIN_LINK_LENGTH: f64 = 0.1;
/// Six-link chain: link mass (kg).
pub const CHAIN_LINK_MASS: f64 = 0.1;
/// Six-link chain: link radius (m), solid cylinders.
pub const CHAIN_LINK_RADIUS: f64 = 0.01;
/// Six-link chain: time step (s).
pub const CHAIN_STEP: f64 = 1e-3;

/// A horizontal chain of `links` solid cylinders along +x, the first on a ball joint to the world at the origin,
/// consecutive links on ball joints, gravity −y.
pub fn chain_world(links: usize, length: f64, mass: f64, radius: f64) -> World {
    let mut w = World::new();
    for i in 0..links {
        let x = (i as f64 + 0.5) * length;
        w.add_body(
            Body::cylinder_x(mass, length, radius)
                .at(Vector3::new(x, 0.0, 0.0), UnitQuaternion::identity()),
        );
    }
    w.add_ball_joint(0, None, Vector3::zeros());
    for i in 1..links {
        w.add_ball_joint(i, Some(i - 1), Vector3::new(i as f64 * length, 0.0, 0.0));
    }
    w
}

/// One run of the six-link chain.
pub struct ChainRun {
    /// Largest joint separation (m) after each step.
    pub gaps: Vec<f64>,
    /// Jaggedness of the gap curve: mean `|gap_k − gap_{k−1}|` over the mean gap (≈ 0 for a smooth curve,
    /// ≈ 1 or more when the error is over-corrected every step; 0 when the mean gap is below 1 nm).
    pub jitter: f64,
    /// Sign changes of the step-to-step gap increment `gap_k − gap_{k−1}` (increments under 1 nm ignored): a
    /// smooth drift curve has a few, an over-corrected one alternates nearly every step.
    pub slope_sign_changes: usize,
}

/// The six-link chain under `stab` for `steps` steps, positions moved as `update` says
/// ([`PositionUpdate::ThesisExplicitEuler`] reproduces the thesis' experiment).
pub fn six_link_chain(
    stab: Stabilization,
    update: PositionUpdate,
    steps: usize,
) -> Result<ChainRun, String> {
    let mut w = chain_world(6, CHAIN_LINK_LENGTH, CHAIN_LINK_MASS, CHAIN_LINK_RADIUS);
    w.set_stabilization(stab);
    w.set_position_update(update);
    let mut gaps = Vec::with_capacity(steps);
    for _ in 0..steps {
        let r = w.step(CHAIN_STEP).map_err(|e| e.to_string())?;
        gaps.push(r.max_separation);
    }
    let mean = gaps.iter().sum::<f64>() / steps as f64;
    let dmean = gaps.windows(2).map(|p| (p[1] - p[0]).abs()).sum::<f64>() / steps as f64;
    let jitter = if mean > 1e-9 { dmean / mean } else { 0.0 };
    let mut slope_sign_changes = 0;
    let mut last_sign = 0.0;
    for p in gaps.windows(2) {
        let d = p[1] - p[0];
        if d.abs() > 1e-9 {
            if d.signum() == -last_sign {
                slope_sign_changes += 1;
            }
            last_sign = d.signum();
        }
    }
    Ok(ChainRun {
        gaps,
        jitter,
        slope_sign_changes,
    })
}

/// Stiff drive: hinge rod length (m).
pub const ROD_LENGTH: f64 = 0.5;
/// Stiff drive: rod mass (kg).
pub const ROD_MASS: f64 = 1.0;
/// Stiff drive: damping ratio of the drive.
pub const DRIVE_ZETA: f64 = 0.1;
/// Stiff drive: target hinge angle (rad); the rod starts at 0.
pub const DRIVE_TARGET: f64 = 0.5;
/// Stiff drive: time step (s).
pub const DRIVE_STEP: f64 = 1.0 / 60.0;

/// One stiff-drive run: per step, the hinge angle error (rad) and the kinetic energy (J).
pub struct DriveRun {
    /// Angle − target (rad), wrapped to (−π, π]; infinite once the state blew up.
    pub error: Vec<f64>,
    /// Kinetic energy (J) after each step.
    pub kinetic: Vec<f64>,
}

/// Hinge angle error (rad) after each step of the stiff-drive system: a base body welded to the world, a rod
/// on a z hinge at the base, driven towards [`DRIVE_TARGET`] with natural frequency `wn` (rad/s) about the
/// hinge, no gravity. Stops early (returning what it has, last entry infinite) when the state blows up.
pub fn stiff_drive(wn: f64, integrator: Integrator, steps: usize) -> DriveRun {
    let mut w = World::new();
    w.set_gravity(Vector3::zeros());
    w.set_integrator(integrator);
    let base = w.add_body(Body::cuboid(2.0, Vector3::new(0.2, 0.2, 0.2)));
    let rod = w.add_body(Body::cylinder_x(ROD_MASS, ROD_LENGTH, 0.02).at(
        Vector3::new(0.1 + ROD_LENGTH / 2.0, 0.0, 0.0),
        UnitQuaternion::identity(),
    ));
    w.add_fixed(base, None, Vector3::zeros());
    w.add_hinge(rod, Some(base), Vector3::new(0.1, 0.0, 0.0), Vector3::z());
    // Inertia about the hinge: I_zz(CoM) + m·(L/2)².
    let i_hinge = w.body(rod).inertia_body[(2, 2)] + ROD_MASS * (ROD_LENGTH / 2.0).powi(2);
    let k = wn * wn * i_hinge;
    let d = 2.0 * DRIVE_ZETA * wn * i_hinge;
    let mut drive = JointDrive::new(
        w.bodies(),
        rod,
        Some(base),
        Vector3::repeat(k),
        Vector3::repeat(d),
    );
    drive.target_rotation = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), DRIVE_TARGET);
    w.add_drive(drive);
    let mut err = Vec::with_capacity(steps);
    let mut kinetic = Vec::with_capacity(steps);
    for _ in 0..steps {
        if w.step(DRIVE_STEP).is_err() {
            err.push(f64::INFINITY);
            break;
        }
        kinetic.push(w.kinetic_energy());
        let q = w.body(base).orientation.inverse() * w.body(rod).orientation;
        let angle = 2.0 * q.k.atan2(q.w);
        let e = angle - DRIVE_TARGET;
        if !e.is_finite() || e.abs() > 1e3 {
            err.push(f64::INFINITY);
            break;
        }
        err.push(e);
    }
    DriveRun {
        error: err,
        kinetic,
    }
}

/// Whether the stiff drive stays bounded: finite, and its error over the last 60 steps no larger than the
/// initial error.
pub fn stiff_drive_stable(wn: f64, integrator: Integrator) -> bool {
    let steps = 600;
    let e = stiff_drive(wn, integrator, steps).error;
    e.len() == steps && e[steps - 60..].iter().all(|x| x.abs() <= DRIVE_TARGET)
}

/// Largest stable natural frequency (rad/s) in `[lo, hi]` by bisection on a log scale (`hi` when `hi` is
/// stable: then the figure is a lower bound).
pub fn max_stable_wn(integrator: Integrator, lo: f64, hi: f64) -> f64 {
    if stiff_drive_stable(hi, integrator) {
        return hi;
    }
    let (mut lo, mut hi) = (lo, hi);
    while hi / lo > 1.01 {
        let mid = (lo * hi).sqrt();
        if stiff_drive_stable(mid, integrator) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// Pendulum: link length (m), mass (kg) and radius (m).
pub const PENDULUM_LINK: (f64, f64, f64) = (0.3, 1.0, 0.02);

/// Energy of the undamped 3-link pendulum (post-stabilized, h = 1 ms) after each step, relative to its initial
/// energy, as a fraction of the energy scale `Σ m g · depth of CoM when hanging` (J/J).
pub fn pendulum_energy(steps: usize) -> Result<Vec<f64>, String> {
    let (l, m, r) = PENDULUM_LINK;
    let mut w = chain_world(3, l, m, r);
    w.set_stabilization(Stabilization::PostStab {
        max_iters: 3,
        tol: 1e-10,
    });
    let scale = 9.81 * m * l * (0.5 + 1.5 + 2.5);
    let e0 = w.kinetic_energy() + w.potential_energy();
    let mut out = Vec::with_capacity(steps);
    for _ in 0..steps {
        w.step(1e-3).map_err(|e| e.to_string())?;
        out.push((w.kinetic_energy() + w.potential_energy() - e0) / scale);
    }
    Ok(out)
}
