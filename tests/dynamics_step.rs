//! Properties of the linearly implicit step: drives track a consistent target trajectory, prescribed bodies
//! follow exactly, joints hold under post-stabilization, the allocation-free dense LU agrees with the oracle.

use flinch::dynamics::{
    Body, DenseLuSolver, DenseSolver, DriveId, ForceFrame, JointDrive, SaddlePointSolver,
    Stabilization, UserForce, World,
};
use flinch::math::rotation::rotation_distance;
use nalgebra::{UnitQuaternion, Vector3, Vector6};

const LINKS: usize = 4;
const H: f64 = 1e-3;

/// A horizontal chain of `LINKS` cylinders of length `link` along +x on ball joints, the first to the world at
/// the origin.
fn ball_chain(w: &mut World, link: f64) {
    for i in 0..LINKS {
        w.add_body(Body::cylinder_x(0.5, link, 0.04).at(
            Vector3::new(link * (0.5 + i as f64), 0.0, 0.0),
            UnitQuaternion::identity(),
        ));
    }
    w.add_ball_joint(0, None, Vector3::zeros());
    for i in 1..LINKS {
        w.add_ball_joint(i, Some(i - 1), Vector3::new(link * i as f64, 0.0, 0.0));
    }
}

/// A horizontal 4-link chain on ball joints with one 3-axis drive per joint (the first to the world).
fn driven_chain(k: f64, d: f64) -> (World, Vec<DriveId>) {
    let mut w = World::new();
    // No gravity: the reference motion is driven by the feedforward alone and stays moderate (|ω| of a few rad/s).
    w.set_gravity(Vector3::zeros());
    ball_chain(&mut w, 0.2);
    let mut ids = Vec::new();
    for i in 0..LINKS {
        let parent = if i == 0 { None } else { Some(i - 1) };
        let drive = JointDrive::new(
            w.bodies(),
            i,
            parent,
            Vector3::repeat(k),
            Vector3::repeat(d),
        );
        ids.push(w.add_drive(drive));
    }
    (w, ids)
}

fn feedforward(i: usize, t: f64) -> Vector3<f64> {
    let s = i as f64;
    Vector3::new(
        0.002 * (3.0 * t + s).sin(),
        0.005 * (2.0 * t - s).cos(),
        0.05 + 0.03 * (4.0 * t + s).sin(),
    )
}

/// Runs the reference (pure feedforward) chain and records per step the relative rotations and velocities at the
/// step's end, and the absolute orientations.
type Record = (
    Vec<Vec<(UnitQuaternion<f64>, Vector3<f64>)>>,
    Vec<Vec<UnitQuaternion<f64>>>,
);

fn reference(steps: usize) -> Record {
    let (mut w, ids) = driven_chain(0.0, 0.0);
    let mut rel = Vec::new();
    let mut abs = Vec::new();
    for s in 0..steps {
        let t = s as f64 * H;
        for (i, id) in ids.iter().enumerate() {
            let d = w.drive_mut(*id);
            let (q, v) = (d.target_rotation, d.target_velocity);
            d.set_target(q, v, feedforward(i, t));
        }
        w.step(H).unwrap();
        rel.push(
            ids.iter()
                .map(|id| {
                    let d = w.drive(*id);
                    let q = d.relative_rotation(w.bodies());
                    let (qp, wp) = d
                        .parent
                        .map_or((UnitQuaternion::identity(), Vector3::zeros()), |p| {
                            (w.body(p).orientation, w.body(p).omega())
                        });
                    (q, qp.inverse() * (w.body(d.child).omega() - wp))
                })
                .collect(),
        );
        abs.push(w.bodies().iter().map(|b| b.orientation).collect());
    }
    (rel, abs)
}

/// Largest orientation deviation (rad) of a stiffly driven chain from the reference, with drive targets taken
/// at the end of each step (`lag = 0`) or at its start (`lag = 1`).
fn tracking_deviation(steps: usize, lag: usize) -> f64 {
    let (rel, abs) = reference(steps);
    // ω_n ≈ 60 rad/s on the outer links: stiff relative to the motion, far from the explicit limit of 2/h.
    let (mut w, ids) = driven_chain(400.0, 20.0);
    let mut worst: f64 = 0.0;
    for s in 0..steps {
        let t = s as f64 * H;
        for (i, id) in ids.iter().enumerate() {
            let (q, v) = if s < lag {
                (UnitQuaternion::identity(), Vector3::zeros())
            } else {
                rel[s - lag][i]
            };
            w.drive_mut(*id).set_target(q, v, feedforward(i, t));
        }
        w.step(H).unwrap();
        for (b, q) in w.bodies().iter().zip(&abs[s]) {
            worst = worst.max(rotation_distance(&b.orientation, q));
        }
    }
    worst
}

#[test]
fn driven_chain_on_its_target_trajectory_stays_on_it() {
    let on_time = tracking_deviation(500, 0);
    let late = tracking_deviation(500, 1);
    println!("tracking deviation: targets at t+h {on_time:.3e} rad, targets at t {late:.3e} rad");
    assert!(on_time < 1e-4, "targets at t+h: deviation {on_time} rad");
    assert!(
        late > 10.0 * on_time,
        "targets at t should lag: {late} vs {on_time}"
    );
}

#[test]
fn prescribed_body_follows_its_trajectory_exactly() {
    let mut w = World::new();
    let root = w.add_body(Body::cuboid(5.0, Vector3::new(0.3, 0.2, 0.2)));
    let arm = w.add_body(
        Body::cylinder_x(1.0, 0.4, 0.03)
            .at(Vector3::new(0.35, 0.0, 0.0), UnitQuaternion::identity()),
    );
    w.add_ball_joint(arm, Some(root), Vector3::new(0.15, 0.0, 0.0));
    let traj = |t: f64| {
        (
            Vector3::new(0.5 * t, 0.1 * (3.0 * t).sin(), 0.0),
            UnitQuaternion::from_scaled_axis(Vector3::new(0.3 * t, 0.8 * (2.0 * t).sin(), 0.0)),
        )
    };
    w.add_prescribed(root, Box::new(traj));
    let mut worst: f64 = 0.0;
    for _ in 0..2000 {
        w.step(H).unwrap();
        let (x, q) = traj(w.time());
        let b = w.body(root);
        worst = worst
            .max((b.position - x).norm())
            .max(rotation_distance(&b.orientation, &q));
    }
    assert!(
        worst < 1e-9,
        "prescribed body left its trajectory by {worst}"
    );
}

#[test]
fn joints_hold_under_post_stabilization_with_a_push() {
    let mut w = World::new();
    let a = w.add_body(
        Body::cuboid(1.0, Vector3::new(0.2, 0.1, 0.1))
            .at(Vector3::new(0.1, 0.0, 0.0), UnitQuaternion::identity()),
    );
    let b = w.add_body(
        Body::cuboid(1.0, Vector3::new(0.2, 0.1, 0.1))
            .at(Vector3::new(0.3, 0.0, 0.0), UnitQuaternion::identity()),
    );
    let c = w.add_body(
        Body::cuboid(1.0, Vector3::new(0.2, 0.1, 0.1))
            .at(Vector3::new(0.5, 0.0, 0.0), UnitQuaternion::identity()),
    );
    let d = w.add_body(
        Body::cuboid(1.0, Vector3::new(0.2, 0.1, 0.1))
            .at(Vector3::new(0.7, 0.0, 0.0), UnitQuaternion::identity()),
    );
    w.add_hinge(a, None, Vector3::zeros(), Vector3::z());
    w.add_universal(
        b,
        Some(a),
        Vector3::new(0.2, 0.0, 0.0),
        Vector3::y(),
        Vector3::z(),
    );
    w.add_ball_joint(c, Some(b), Vector3::new(0.4, 0.0, 0.0));
    w.add_fixed(d, Some(c), Vector3::new(0.6, 0.0, 0.0));
    let push = w.add_user_force(UserForce {
        body: d,
        point: Vector3::new(0.1, 0.0, 0.0),
        force: Vector3::new(0.0, 5.0, 20.0),
        torque: Vector3::zeros(),
        frame: ForceFrame::World,
    });
    w.set_stabilization(Stabilization::PostStab {
        max_iters: 3,
        tol: 1e-10,
    });
    let mut worst: f64 = 0.0;
    for s in 0..3000 {
        if s == 100 {
            w.user_force_mut(push).force = Vector3::zeros();
        }
        let r = w.step(H).unwrap();
        worst = worst.max(r.constraint_error);
    }
    assert!(worst < 1e-8, "constraint error {worst}");
    // The fixed joint really welds: c and d keep their relative rotation.
    let rel = w.body(c).orientation.inverse() * w.body(d).orientation;
    assert!(rel.angle() < 1e-8);
    // The hinge keeps a's z axis on the world z axis; the motion was not trivial.
    assert!((w.body(a).orientation * Vector3::z() - Vector3::z()).norm() < 1e-8);
    assert!(w.body(a).orientation.angle() > 0.1);
}

#[test]
fn in_place_dense_lu_agrees_with_the_dense_oracle() {
    let mut w = World::new();
    for i in 0..3 {
        let mut b = Body::cuboid(1.0 + i as f64, Vector3::new(0.3, 0.1, 0.2)).at(
            Vector3::new(0.3 * i as f64, 0.0, 0.0),
            UnitQuaternion::from_scaled_axis(Vector3::new(0.1, 0.2 * i as f64, 0.0)),
        );
        b.velocity = Vector6::new(0.1, -0.2, 0.3, 0.4, 0.5, -0.6) * (i as f64 + 1.0);
        w.add_body(b);
    }
    w.add_hinge(0, None, Vector3::zeros(), Vector3::y());
    w.add_ball_joint(1, Some(0), Vector3::new(0.15, 0.0, 0.0));
    w.add_universal(
        2,
        Some(1),
        Vector3::new(0.45, 0.0, 0.0),
        Vector3::x(),
        Vector3::y(),
    );
    let drive = JointDrive::new(
        w.bodies(),
        2,
        Some(1),
        Vector3::new(100.0, 200.0, 300.0),
        Vector3::repeat(5.0),
    );
    w.add_drive(drive);
    let mut dense = w;
    let mut lu = {
        // Same world, other solver: rebuild identically.
        let mut w2 = World::with_solver(Box::new(DenseSolver::default()));
        for b in dense.bodies() {
            w2.add_body(b.clone());
        }
        w2.add_hinge(0, None, Vector3::zeros(), Vector3::y());
        w2.add_ball_joint(1, Some(0), Vector3::new(0.15, 0.0, 0.0));
        w2.add_universal(
            2,
            Some(1),
            Vector3::new(0.45, 0.0, 0.0),
            Vector3::x(),
            Vector3::y(),
        );
        w2.add_drive(JointDrive::new(
            w2.bodies(),
            2,
            Some(1),
            Vector3::new(100.0, 200.0, 300.0),
            Vector3::repeat(5.0),
        ));
        w2
    };
    for _ in 0..200 {
        dense.step(0.01).unwrap();
        lu.step(0.01).unwrap();
    }
    for (a, b) in dense.bodies().iter().zip(lu.bodies()) {
        assert!((a.velocity - b.velocity).norm() < 1e-9);
        assert!((a.position - b.position).norm() < 1e-9);
    }
    // The solver itself is usable standalone.
    let _: &dyn SaddlePointSolver = &DenseLuSolver::new();
}

#[test]
fn free_body_conserves_momentum_and_falls_exactly() {
    let mut w = World::new();
    let mut b = Body::cuboid(2.0, Vector3::new(0.1, 0.4, 0.9));
    b.velocity = Vector6::new(0.0, 0.0, 3.0, 1.0, 2.0, 0.0);
    w.add_body(b);
    for _ in 0..1000 {
        w.step(H).unwrap();
    }
    let b = w.body(0);
    // Symplectic Euler on a constant force: y = v0 t − g t (t + h) / 2.
    let t = 1.0;
    let y = 2.0 * t - 9.81 * t * (t + H) / 2.0;
    assert!(
        (b.position - Vector3::new(1.0, y, 0.0)).norm() < 1e-9,
        "{}",
        b.position
    );
    // Spin about a principal axis stays a spin about it (gyroscopic term zero there).
    assert!((b.omega() - Vector3::new(0.0, 0.0, 3.0)).norm() < 1e-9);
}

/// A chain spinning fast enough that a step leaves its anchors ≈ 1e-4 m apart (the chord of a rotation leaves the
/// tangent `J·v = 0`): one projection plus the placement on the anchors ends at round-off, where projections alone
/// took three to reach the 1e-10 tolerance (their second-order remainder contracts by ≈ 1/300 per pass).
#[test]
fn one_projection_lands_a_spinning_chain_on_its_anchors() {
    let mut w = World::new();
    w.set_gravity(Vector3::zeros());
    ball_chain(&mut w, 0.3);
    // Every link turns about its own y axis at a different rate: the anchors' chords differ link to link.
    for i in 0..LINKS {
        let b = w.body_mut(i);
        b.velocity = Vector6::new(0.0, 3.0 + 2.0 * i as f64, 1.0, 0.0, 0.0, 0.0);
    }
    let h = 1.0 / 120.0;
    let mut worst_before: f64 = 0.0;
    for _ in 0..60 {
        let r = w.step(h).unwrap();
        let p = r.post_stab.expect("post-stabilization is the default");
        worst_before = worst_before.max(p.error_before);
        assert!(p.error_before < 1e-3, "error before {:e}", p.error_before);
        assert!(p.iterations <= 1, "{} projections", p.iterations);
        assert!(
            r.max_separation < 1e-14,
            "anchor gap {:e} m",
            r.max_separation
        );
    }
    // The motion was not trivial: the steps left millimetre-scale work to post-stabilization.
    assert!(worst_before > 1e-5, "error before {worst_before:e}");
}
