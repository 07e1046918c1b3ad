//! The contact experiments (issue 6): a box on a slope, a stack of boxes, a stiff arm pressed on a box. The
//! examples print `figure` lines from these runs; `tests/contact_experiments.rs` asserts them.

use flinch::contact::ContactWorld;
use flinch::contact::collision::{Collider, Shape};
use flinch::dynamics::{Body, ContactOptions, JointDrive, World};
use nalgebra::{Point3, UnitQuaternion, Vector3};

/// h = 1/60 s, the game step of the issue.
pub const CONTACT_STEP: f64 = 1.0 / 60.0;
/// Edge length of the boxes (m) and their mass (kg).
pub const BOX_EDGE: f64 = 0.2;
pub const BOX_MASS: f64 = 1.0;
const G: f64 = 9.81;

/// What a box-on-slope run measured.
#[derive(Debug, Clone)]
pub struct SlopeRun {
    /// Displacement of the box along the slope over the run (m).
    pub travel: f64,
    /// Measured acceleration down the slope between 1 s and the end (m/s²), from the velocities.
    pub accel: f64,
    /// Coulomb's `g (sin θ − μ cos θ)` (m/s²; ≤ 0 means the box stays).
    pub analytic_accel: f64,
    /// Deepest penetration after any step's post-stabilization (m).
    pub max_penetration: f64,
    /// Deepest penetration after the first second (m): settled, without the landing transient.
    pub settled_penetration: f64,
    /// Most contacts in a step.
    pub max_contacts: usize,
    /// Velocity-LCP residual, worst over the run.
    pub max_residual: f64,
    /// Median wall time of a step (µs), detection included.
    pub median_step_us: f64,
}

/// The median of `times` (sorted in place; 0 when empty).
fn median(times: &mut [f64]) -> f64 {
    times.sort_by(f64::total_cmp);
    times.get(times.len() / 2).copied().unwrap_or(0.0)
}

/// A 0.2 m, 1 kg box released at rest on a plane inclined by `angle` (rad) about z, friction `mu`, for
/// `seconds` at [`CONTACT_STEP`].
pub fn box_on_slope(angle: f64, mu: f64, seconds: f64) -> SlopeRun {
    box_on_slope_with(angle, mu, seconds, ContactOptions::default())
}

/// [`box_on_slope`] with the given contact options (e.g. penalty contact).
pub fn box_on_slope_with(angle: f64, mu: f64, seconds: f64, options: ContactOptions) -> SlopeRun {
    let tilt = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), angle);
    let up = tilt * Vector3::y();
    let down = tilt * -Vector3::x(); // down the slope for angle > 0
    let centre = up * (BOX_EDGE / 2.0);
    let mut world = World::new();
    let b = world.add_body(Body::cuboid(BOX_MASS, Vector3::repeat(BOX_EDGE)).at(centre, tilt));
    let colliders = vec![
        Collider::new(
            Some(b),
            Shape::Cuboid {
                half_extents: Vector3::repeat(BOX_EDGE / 2.0),
            },
        ),
        Collider::new(
            None,
            Shape::HalfSpace {
                point: Point3::origin(),
                normal: up,
            },
        ),
    ];
    let mut cw = ContactWorld::new(world, colliders);
    cw.friction = mu;
    cw.world
        .set_contact_options(options)
        .expect("contact options");
    let steps = (seconds / CONTACT_STEP).round() as usize;
    let start = cw.world.body(b).position;
    let (mut max_penetration, mut max_contacts, mut max_residual) = (0.0f64, 0, 0.0f64);
    let mut v_at_1s = 0.0;
    let mut times = Vec::with_capacity(steps);
    let mut settled_penetration = 0.0f64;
    for k in 0..steps {
        let t0 = std::time::Instant::now();
        let report = cw.step(CONTACT_STEP).expect("slope step");
        times.push(t0.elapsed().as_secs_f64() * 1e6);
        if (k + 1) as f64 * CONTACT_STEP > 1.0 {
            settled_penetration = settled_penetration.max(report.contacts.max_penetration);
        }
        max_penetration = max_penetration.max(report.contacts.max_penetration);
        max_contacts = max_contacts.max(report.contacts.contacts);
        max_residual = max_residual.max(report.contacts.residual);
        if (k + 1) as f64 * CONTACT_STEP == 1.0 || k + 1 == 60 {
            v_at_1s = cw.world.body(b).velocity.fixed_rows::<3>(3).dot(&down);
        }
    }
    let body = cw.world.body(b);
    let v_end = body.velocity.fixed_rows::<3>(3).dot(&down);
    let t_end = steps as f64 * CONTACT_STEP;
    SlopeRun {
        travel: (body.position - start).dot(&down),
        accel: (v_end - v_at_1s) / (t_end - 1.0),
        analytic_accel: G * (angle.sin() - mu * angle.cos()),
        max_penetration,
        settled_penetration,
        max_contacts,
        max_residual,
        median_step_us: median(&mut times),
    }
}

/// What a box-stack run measured.
#[derive(Debug, Clone)]
pub struct StackRun {
    /// Largest displacement of any box from its start over the run (m).
    pub max_drift: f64,
    /// Deepest penetration after any step (m).
    pub max_penetration: f64,
    /// Deepest penetration after the first second (m): settled, without the landing transient.
    pub settled_penetration: f64,
    /// Largest displacement of any box between 1 s and the end (m).
    pub settled_drift: f64,
    /// Most contacts in a step.
    pub max_contacts: usize,
    /// Median and worst wall time of a step (µs), detection included.
    pub median_step_us: f64,
    pub worst_step_us: f64,
}

/// `n` boxes of 0.2 m stacked on the ground (each exactly on the one below), μ = 0.5, `seconds` at
/// [`CONTACT_STEP`].
pub fn box_stack(n: usize, seconds: f64) -> StackRun {
    box_stack_with(n, seconds, ContactOptions::default())
}

/// [`box_stack`] with the given contact options (e.g. penalty contact).
pub fn box_stack_with(n: usize, seconds: f64, options: ContactOptions) -> StackRun {
    let mut world = World::new();
    let mut colliders = vec![Collider::new(None, Shape::ground(0.0))];
    for i in 0..n {
        let centre = Vector3::new(0.0, BOX_EDGE * (i as f64 + 0.5), 0.0);
        let b = world.add_body(
            Body::cuboid(BOX_MASS, Vector3::repeat(BOX_EDGE))
                .at(centre, UnitQuaternion::identity()),
        );
        colliders.push(Collider::new(
            Some(b),
            Shape::Cuboid {
                half_extents: Vector3::repeat(BOX_EDGE / 2.0),
            },
        ));
    }
    let mut cw = ContactWorld::new(world, colliders);
    cw.world
        .set_contact_options(options)
        .expect("contact options");
    let starts: Vec<Vector3<f64>> = cw.world.bodies().iter().map(|b| b.position).collect();
    let steps = (seconds / CONTACT_STEP).round() as usize;
    let (mut max_drift, mut max_penetration, mut max_contacts) = (0.0f64, 0.0f64, 0);
    let (mut settled_penetration, mut settled_drift) = (0.0f64, 0.0f64);
    let mut at_1s = starts.clone();
    let mut times = Vec::with_capacity(steps);
    for k in 0..steps {
        let t0 = std::time::Instant::now();
        let report = cw.step(CONTACT_STEP).expect("stack step");
        times.push(t0.elapsed().as_secs_f64() * 1e6);
        max_penetration = max_penetration.max(report.contacts.max_penetration);
        max_contacts = max_contacts.max(report.contacts.contacts);
        for (b, s) in cw.world.bodies().iter().zip(&starts) {
            max_drift = max_drift.max((b.position - s).norm());
        }
        let settled = (k + 1) as f64 * CONTACT_STEP > 1.0;
        if k + 1 == (1.0 / CONTACT_STEP).round() as usize {
            at_1s = cw.world.bodies().iter().map(|b| b.position).collect();
        } else if settled {
            settled_penetration = settled_penetration.max(report.contacts.max_penetration);
            for (b, s) in cw.world.bodies().iter().zip(&at_1s) {
                settled_drift = settled_drift.max((b.position - s).norm());
            }
        }
    }
    times.sort_by(f64::total_cmp);
    StackRun {
        max_drift,
        max_penetration,
        settled_penetration,
        settled_drift,
        max_contacts,
        median_step_us: times[times.len() / 2],
        worst_step_us: *times.last().unwrap_or(&0.0),
    }
}

/// What a stiff-contact run measured.
#[derive(Debug, Clone)]
pub struct StiffRun {
    /// Largest CoM speed of any arm body over the run (m/s): the swing down before the impact.
    pub max_speed: f64,
    /// Largest CoM speed after the first second, while the arm is pressed on the box (m/s).
    pub pressed_max_speed: f64,
    /// Deepest penetration after any step (m).
    pub max_penetration: f64,
    /// Deepest penetration after the first second (m), pressed.
    pub settled_penetration: f64,
    /// Largest normal impulse of a contact in a step (N·s).
    pub max_normal_impulse: f64,
    /// Steps with contacts.
    pub contact_steps: usize,
    /// How far the forearm's CoM moved between 1 s and the end, pressed on the box (m).
    pub pressed_slide: f64,
    /// Median wall time of a step (µs), detection included.
    pub median_step_us: f64,
}

/// Default drive gains of the humanoid test world (N·m/rad, N·m·s/rad); the stiff arm uses `scale` times these.
pub const ARM_STIFFNESS: f64 = 300.0;
pub const ARM_DAMPING: f64 = 10.0;

/// A two-link arm (upper arm on a ball joint to the world at the shoulder, forearm on a ball joint at the
/// elbow, capsules of 0.3 m × 0.05 m, 2 kg and 1.5 kg), raised 0.4 rad above a static box, whose drives
/// (stiffness `scale`× the default) swing it down and press it 0.6 rad into the box; `seconds` at
/// [`CONTACT_STEP`], gravity on.
pub fn stiff_contact(scale: f64, seconds: f64) -> StiffRun {
    stiff_contact_with(scale, seconds, ContactOptions::default())
}

/// [`stiff_contact`] with the given contact options (e.g. penalty contact).
pub fn stiff_contact_with(scale: f64, seconds: f64, options: ContactOptions) -> StiffRun {
    let len = 0.3;
    let radius = 0.05;
    let shoulder = Vector3::new(0.0, 1.0, 0.0);
    // The arm starts raised by 0.4 rad and swings down onto the box under its drives.
    let up = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), 0.4);
    let along = |x: f64| shoulder + up * Vector3::new(x, 0.0, 0.0);
    let mut world = World::new();
    let upper = world.add_body(Body::cylinder_x(2.0, len, radius).at(along(len / 2.0), up));
    let fore = world.add_body(Body::cylinder_x(1.5, len, radius).at(along(1.5 * len), up));
    world.add_ball_joint(upper, None, shoulder);
    world.add_ball_joint(fore, Some(upper), along(len));
    let down = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), -0.6);
    for (child, parent) in [(upper, None), (fore, Some(upper))] {
        let mut drive = JointDrive::new(
            world.bodies(),
            child,
            parent,
            Vector3::repeat(ARM_STIFFNESS * scale),
            Vector3::repeat(ARM_DAMPING * scale),
        );
        drive.target_rotation = if parent.is_none() {
            down
        } else {
            UnitQuaternion::identity()
        };
        world.add_drive(drive);
    }
    // The box top is just under the horizontal forearm: the drives press the forearm into it.
    let top = shoulder.y - radius;
    let box_half = Vector3::new(0.15, 0.2, 0.3);
    let capsule = |b| {
        Collider::new(
            Some(b),
            Shape::Capsule {
                a: Point3::new(-len / 2.0, 0.0, 0.0),
                b: Point3::new(len / 2.0, 0.0, 0.0),
                radius,
            },
        )
    };
    let colliders = vec![
        capsule(upper),
        capsule(fore),
        Collider::new(
            None,
            Shape::Cuboid {
                half_extents: box_half,
            },
        )
        .with_pose(nalgebra::Isometry3::translation(
            shoulder.x + 1.5 * len,
            top - box_half.y,
            0.0,
        )),
    ];
    let mut cw = ContactWorld::new(world, colliders);
    cw.filter.exclude(upper, fore);
    cw.world
        .set_contact_options(options)
        .expect("contact options");
    let steps = (seconds / CONTACT_STEP).round() as usize;
    let mut run = StiffRun {
        max_speed: 0.0,
        pressed_max_speed: 0.0,
        max_penetration: 0.0,
        settled_penetration: 0.0,
        max_normal_impulse: 0.0,
        contact_steps: 0,
        pressed_slide: 0.0,
        median_step_us: 0.0,
    };
    let mut times = Vec::with_capacity(steps);
    let mut fore_at_1s = cw.world.body(fore).position;
    for k in 0..steps {
        let t0 = std::time::Instant::now();
        let report = cw.step(CONTACT_STEP).expect("stiff contact step");
        times.push(t0.elapsed().as_secs_f64() * 1e6);
        if k + 1 == (1.0 / CONTACT_STEP).round() as usize {
            fore_at_1s = cw.world.body(fore).position;
        }
        run.max_penetration = run.max_penetration.max(report.contacts.max_penetration);
        run.contact_steps += usize::from(report.contacts.contacts > 0);
        for i in cw.world.contact_impulses() {
            run.max_normal_impulse = run.max_normal_impulse.max(i.normal);
        }
        for b in cw.world.bodies() {
            let speed = b.velocity.fixed_rows::<3>(3).norm();
            run.max_speed = run.max_speed.max(speed);
            if (k + 1) as f64 * CONTACT_STEP > 1.0 {
                run.pressed_max_speed = run.pressed_max_speed.max(speed);
                run.settled_penetration =
                    run.settled_penetration.max(report.contacts.max_penetration);
            }
        }
    }
    run.pressed_slide = (cw.world.body(fore).position - fore_at_1s).norm();
    run.median_step_us = median(&mut times);
    run
}
