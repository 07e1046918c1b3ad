//! Benchmark worlds: driven chains of any length and a 20-body humanoid with a prescribed pelvis. Shared by the
//! `chain_scaling` example and the `humanoid_step` benchmark.

use std::f64::consts::TAU;
use std::time::Instant;

use flinch::dynamics::{Body, DriveId, JointDrive, World};
use nalgebra::{UnitQuaternion, Vector3};

/// A world with its drives and the target pattern that moves them.
pub struct DrivenWorld {
    /// The world (gravity, default post-stabilization, default `AutoSolver`).
    pub world: World,
    /// One drive per joint, in joint order.
    pub drives: Vec<DriveId>,
    /// Rest relative rotation of each drive (child in parent frame) the targets oscillate about.
    rest: Vec<UnitQuaternion<f64>>,
}

/// Target amplitude (rad) and frequency (Hz) of the drives' oscillation.
const TARGET_AMPLITUDE: f64 = 0.3;
const TARGET_HZ: f64 = 1.0;

impl DrivenWorld {
    fn new(world: World) -> Self {
        DrivenWorld {
            world,
            drives: Vec::new(),
            rest: Vec::new(),
        }
    }

    /// Adds a drive on the joint between `child` and `parent` holding their current relative rotation.
    fn drive(&mut self, child: usize, parent: Option<usize>, k: f64, d: f64) {
        let drive = JointDrive::new(
            self.world.bodies(),
            child,
            parent,
            Vector3::repeat(k),
            Vector3::repeat(d),
        );
        self.rest.push(drive.target_rotation);
        self.drives.push(self.world.add_drive(drive));
    }

    /// Sets every drive's target for time `t` (the end of the coming step): a rotation of
    /// `TARGET_AMPLITUDE·sin(2π f t + φ_k)` about a per-joint axis, with its angular velocity.
    pub fn set_targets(&mut self, t: f64) {
        for (k, (&id, rest)) in self.drives.iter().zip(&self.rest).enumerate() {
            let phase = 0.7 * k as f64;
            let axis = Vector3::new(1.0, 0.5 * ((k % 3) as f64 - 1.0), 0.3).normalize();
            let w = TAU * TARGET_HZ;
            let angle = TARGET_AMPLITUDE * (w * t + phase).sin();
            let rate = TARGET_AMPLITUDE * w * (w * t + phase).cos();
            let q = UnitQuaternion::from_scaled_axis(axis * angle);
            // Parent-frame angular velocity of q(t)·rest with q about a fixed axis: rate·axis.
            self.world
                .drive_mut(id)
                .set_target(q * rest, axis * rate, Vector3::zeros());
        }
    }

    /// Sets the targets for `t + h` and steps; panics if the step fails (a benchmark world must not).
    pub fn step(&mut self, h: f64) -> flinch::dynamics::StepReport {
        let t = self.world.time() + h;
        self.set_targets(t);
        self.world
            .step(h)
            .unwrap_or_else(|e| panic!("benchmark world failed: {e}"))
    }
}

/// A chain of `n` bodies (0.1 m, 1 kg cuboids) hanging from the world at the origin along a slightly tilted
/// −y, ball joints, a drive (K = 50 N·m/rad, D = 2 N·m·s/rad) on every joint including the first.
pub fn driven_chain(n: usize) -> DrivenWorld {
    let len = 0.1;
    let dir = Vector3::new(0.2, -1.0, 0.1).normalize();
    let rot = UnitQuaternion::rotation_between(&Vector3::x(), &dir).unwrap_or_default();
    let mut dw = DrivenWorld::new(World::new());
    let mut parent = None;
    for i in 0..n {
        let anchor = dir * (i as f64 * len);
        let b = dw.world.add_body(
            Body::cuboid(1.0, Vector3::new(len, 0.03, 0.03)).at(anchor + dir * (len / 2.0), rot),
        );
        dw.world.add_ball_joint(b, parent, anchor);
        dw.drive(b, parent, 50.0, 2.0);
        parent = Some(b);
    }
    dw
}

/// Pelvis forward speed (m/s), bob amplitude (m) and bob frequency (Hz) of the humanoid's prescribed root.
const PELVIS_SPEED: f64 = 1.2;
const PELVIS_BOB: f64 = 0.02;
const PELVIS_BOB_HZ: f64 = 2.0;

/// A 20-body humanoid: the pelvis PRESCRIBED along a walking trajectory (the mocap root), spine → neck → head,
/// two 4-body arms from the spine and two 4-body legs from the pelvis; ball joints, and a drive (K = 300 N·m/rad,
/// D = 10 N·m·s/rad) on each of the 19 joints.
pub fn humanoid() -> DrivenWorld {
    let mut dw = DrivenWorld::new(World::new());
    let pelvis_at = Vector3::new(0.0, 1.0, 0.0);
    let pelvis = dw.world.add_body(
        Body::cuboid(10.0, Vector3::new(0.3, 0.2, 0.2)).at(pelvis_at, UnitQuaternion::identity()),
    );
    dw.world.add_prescribed(
        pelvis,
        Box::new(move |t: f64| {
            let bob = PELVIS_BOB * (TAU * PELVIS_BOB_HZ * t).sin();
            let yaw = 0.1 * (TAU * 0.5 * t).sin();
            (
                pelvis_at + Vector3::new(0.0, bob, PELVIS_SPEED * t),
                UnitQuaternion::from_axis_angle(&Vector3::y_axis(), yaw),
            )
        }),
    );
    let spine = limb(
        &mut dw,
        pelvis,
        Vector3::new(0.0, 1.1, 0.0),
        Vector3::y(),
        1,
        0.3,
        12.0,
    );
    limb(
        &mut dw,
        spine,
        Vector3::new(0.0, 1.4, 0.0),
        Vector3::y(),
        2,
        0.12,
        3.0,
    );
    for side in [-1.0, 1.0] {
        limb(
            &mut dw,
            spine,
            Vector3::new(0.2 * side, 1.35, 0.0),
            Vector3::x() * side,
            4,
            0.15,
            1.5,
        );
        limb(
            &mut dw,
            pelvis,
            Vector3::new(0.1 * side, 0.9, 0.0),
            -Vector3::y(),
            4,
            0.22,
            4.0,
        );
    }
    assert_eq!(dw.world.bodies().len(), 20, "humanoid shape");
    dw
}

/// `n` cuboids of `len` (m) and `mass` (kg) along the axis-aligned `dir` from `start`, each on a driven ball
/// joint to the previous one (the first to `from`). Returns the last body.
fn limb(
    dw: &mut DrivenWorld,
    from: usize,
    start: Vector3<f64>,
    dir: Vector3<f64>,
    n: usize,
    len: f64,
    mass: f64,
) -> usize {
    let size = dir.abs() * len + (Vector3::repeat(1.0) - dir.abs()) * 0.08;
    let mut parent = from;
    for i in 0..n {
        let anchor = start + dir * (i as f64 * len);
        let b = dw.world.add_body(
            Body::cuboid(mass, size).at(anchor + dir * (len / 2.0), UnitQuaternion::identity()),
        );
        dw.world.add_ball_joint(b, Some(parent), anchor);
        dw.drive(b, Some(parent), 300.0, 10.0);
        parent = b;
    }
    parent
}

/// Per-step wall times (µs) of `steps` steps of `h` after `warmup` untimed ones (target setting not timed).
pub fn step_times_us(dw: &mut DrivenWorld, h: f64, warmup: usize, steps: usize) -> Vec<f64> {
    for _ in 0..warmup {
        dw.step(h);
    }
    (0..steps)
        .map(|_| {
            let t = dw.world.time() + h;
            dw.set_targets(t);
            let t0 = Instant::now();
            let r = dw.world.step(h);
            let us = t0.elapsed().as_secs_f64() * 1e6;
            if let Err(e) = r {
                panic!("benchmark world failed: {e}");
            }
            us
        })
        .collect()
}

/// The `p`-quantile (0 ≤ p ≤ 1) of `samples` (sorted in place).
pub fn quantile(samples: &mut [f64], p: f64) -> f64 {
    samples.sort_by(f64::total_cmp);
    let i = ((samples.len() - 1) as f64 * p).round() as usize;
    samples[i]
}
