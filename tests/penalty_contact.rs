//! Penalty contact (`ContactSolver::Penalty`, docs/contact.md "Penalty contact") through the public API: the
//! step solves the linearly implicit equation with the contact's gradients (cross blocks between two bodies
//! included), conserves momentum between bodies, holds a box on the ground with the penetration its stiffness
//! predicts, needs no LCP, and refuses free bodies and bad options.

use flinch::contact::ContactWorld;
use flinch::contact::collision::{Collider, Shape};
use flinch::dynamics::{
    Body, ContactError, ContactOptions, ContactOther, ContactPoint, ContactSolver, Force,
    PenaltyContact, PenaltyOptions, World,
};
use nalgebra::{Matrix3, Point3, UnitQuaternion, Vector3, Vector6};

fn penalty_options(p: PenaltyOptions) -> ContactOptions {
    ContactOptions {
        solver: ContactSolver::Penalty(p),
        ..ContactOptions::default()
    }
}

/// Two free boxes in zero gravity, overlapping 2 cm at an off-centre point and approaching each other.
fn two_boxes() -> (World, ContactPoint) {
    let mut world = World::new();
    world.set_gravity(Vector3::zeros());
    let mut a = Body::cuboid(2.0, Vector3::new(0.4, 0.3, 0.5)).at(
        Vector3::new(0.0, 0.0, 0.0),
        UnitQuaternion::from_euler_angles(0.1, 0.2, 0.3),
    );
    a.velocity = Vector6::new(0.0, 0.0, 0.0, 0.3, 0.4, 0.1);
    let mut b = Body::cuboid(0.7, Vector3::new(0.2, 0.2, 0.2)).at(
        Vector3::new(0.05, 0.33, -0.02),
        UnitQuaternion::from_euler_angles(-0.2, 0.1, 0.0),
    );
    b.velocity = Vector6::new(0.0, 0.0, 0.0, -0.1, -0.2, 0.3);
    let ia = world.add_body(a);
    let ib = world.add_body(b);
    let point = Vector3::new(0.08, 0.15, 0.05);
    let contact = ContactPoint {
        body: ia,
        other: ContactOther::Body(ib),
        point,
        other_point: point - Vector3::y() * 0.02,
        normal: -Vector3::y(),
        friction: 0.4,
        restitution: 0.0,
    };
    (world, contact)
}

/// The step solves `M (v' − v) = h (F + ∂F/∂p·h v' + ∂F/∂v·(v' − v))` over both bodies, cross blocks included
/// (they reach the solve through the Woodbury correction, not the block system), in both friction regimes.
#[test]
fn the_step_solves_the_linearly_implicit_equation_with_cross_blocks() {
    for (friction, joint_mass) in [(0.05, false), (50.0, false), (0.05, true), (50.0, true)] {
        let (mut world, mut contact) = two_boxes();
        contact.friction = friction;
        let h = 1.0 / 60.0;
        let opts = PenaltyOptions {
            joint_mass,
            ..PenaltyOptions::default()
        };
        world.set_contact_options(penalty_options(opts)).unwrap();
        let before: Vec<Body> = world.bodies().to_vec();
        // Without joints W is M⁻¹, so the joint-mass gains are the free ones (plus the 1e-6 regulariser of an
        // immovable body); with joint_mass every block goes through the Woodbury correction.
        let force = if joint_mass {
            let k_inv = [(0, contact.point), (1, contact.other_point)]
                .iter()
                .map(|&(i, p)| {
                    let b = &before[i];
                    let rx = b.position - p; // [r]ₓᵀ = [−r]ₓ
                    let r = rx.cross_matrix();
                    r * b.inertia_world().try_inverse().unwrap() * r.transpose()
                        + Matrix3::identity() / b.mass
                })
                .sum::<Matrix3<f64>>()
                * (1.0 + 1e-6);
            PenaltyContact::with_inverse_mass(&contact, &before, h, &opts, &k_inv).unwrap()
        } else {
            PenaltyContact::new(&contact, &before, h, &opts).unwrap()
        };
        let e = force.eval(&before);
        assert!(e.wrench[0].norm() > 1.0, "the contact pushes");
        world.set_contacts(&[contact], &[]).unwrap();
        world.step(h).unwrap();
        let after = world.bodies();
        for i in 0..2 {
            let dv = after[i].velocity - before[i].velocity;
            let mut rhs = e.wrench[i];
            for j in 0..2 {
                rhs += e.dp[i][j] * (after[j].velocity * h)
                    + e.dv[i][j] * (after[j].velocity - before[j].velocity);
            }
            let residual = before[i].mass_matrix() * dv - rhs * h;
            let scale = (rhs * h).norm();
            println!(
                "μ {friction}: body {i} residual {:e} of {scale:e}",
                residual.norm()
            );
            assert!(residual.norm() < 1e-10 * scale.max(1e-3), "{residual}");
        }
        // The impulse reported is the one applied: h·F linearised at t + h, equal and opposite on both bodies.
        let imp = world.contact_impulses()[0];
        let p_a = after[0].mass * (after[0].velocity - before[0].velocity).fixed_rows::<3>(3);
        assert!(
            (p_a - imp.impulse).norm() < 1e-10,
            "{p_a} vs {}",
            imp.impulse
        );
        // No sign or cone check here: the spring pushes the 2 cm overlap (70× the resting depth) apart within
        // the step, so the force linearised to t + h may pull (the damper against the fast separation) and leave
        // the cone (the cap μ f_n holds at t): docs/contact.md. Steady sliding is on the cone: the slope test.
        println!(
            "μ {friction}: impulse normal {:.4}, friction {:.4} N·s",
            imp.normal,
            imp.friction.norm()
        );
    }
}

/// Between two free bodies the contact is internal: linear momentum is conserved over many steps.
#[test]
fn momentum_is_conserved_between_bodies() {
    let (mut world, contact) = two_boxes();
    world
        .set_contact_options(penalty_options(PenaltyOptions::default()))
        .unwrap();
    let momentum = |w: &World| -> Vector3<f64> {
        w.bodies()
            .iter()
            .map(|b| b.velocity.fixed_rows::<3>(3) * b.mass)
            .sum()
    };
    let p0 = momentum(&world);
    // Points carried by the bodies: the same body-local witness points every step.
    let la = world.body(0).point_local(&contact.point);
    let lb = world.body(1).point_local(&contact.other_point);
    for _ in 0..60 {
        let c = ContactPoint {
            point: world.body(0).point_world(&la),
            other_point: world.body(1).point_world(&lb),
            ..contact
        };
        world.set_contacts(&[c], &[]).unwrap();
        let r = world.step(1.0 / 60.0).unwrap();
        assert_eq!(r.contacts.lcp_size, 0, "no LCP");
    }
    let p1 = momentum(&world);
    println!("momentum {p0} → {p1}");
    assert!((p1 - p0).norm() < 1e-12);
    // And they were pushed apart: the overlap is gone.
    let gap = -Vector3::y().dot(&(world.body(0).point_world(&la) - world.body(1).point_world(&lb)));
    assert!(gap > 0.0, "still overlapping: {gap}");
}

/// A box resting on its four bottom corners settles at the penetration its stiffness predicts
/// (`m g = Σ k_i δ`), and the contact impulses carry its weight.
#[test]
fn a_resting_box_settles_at_the_predicted_depth() {
    for (period_steps, joint_mass) in [(1.0, false), (2.0, false), (4.0, false), (2.0, true)] {
        let mut world = World::new();
        let b = world.add_body(
            Body::cuboid(1.0, Vector3::repeat(0.2))
                .at(Vector3::new(0.0, 0.1, 0.0), UnitQuaternion::identity()),
        );
        let opts = PenaltyOptions {
            period_steps,
            joint_mass,
            ..PenaltyOptions::default()
        };
        world.set_contact_options(penalty_options(opts)).unwrap();
        let h = 1.0 / 60.0;
        let corners: Vec<Vector3<f64>> = [(-0.1, -0.1), (0.1, -0.1), (-0.1, 0.1), (0.1, 0.1)]
            .iter()
            .map(|&(x, z)| Vector3::new(x, -0.1, z))
            .collect();
        let contacts = |w: &World| -> Vec<ContactPoint> {
            corners
                .iter()
                .map(|c| {
                    let p = w.body(b).point_world(c);
                    ContactPoint {
                        body: b,
                        other: ContactOther::Static,
                        point: p,
                        other_point: Vector3::new(p.x, 0.0, p.z),
                        normal: Vector3::y(),
                        friction: 0.5,
                        restitution: 0.0,
                    }
                })
                .collect()
        };
        let mut stiffness = 0.0;
        for _ in 0..300 {
            let set = contacts(&world);
            stiffness = set
                .iter()
                .map(|c| {
                    PenaltyContact::new(c, world.bodies(), h, &opts)
                        .unwrap()
                        .stiffness
                })
                .sum::<f64>();
            world.set_contacts(&set, &[]).unwrap();
            world.step(h).unwrap();
        }
        let depth = -(world.body(b).position.y - 0.1);
        let predicted = 9.81 / stiffness;
        let carried: f64 = world.contact_impulses().iter().map(|i| i.normal).sum();
        println!(
            "N = {period_steps}: depth {:.4} mm, predicted {:.4} mm, Σ impulses {carried:.6} N·s",
            depth * 1e3,
            predicted * 1e3
        );
        // Joint mass: W = M⁻¹ for a free box, up to the 1e-6 regulariser.
        assert!((depth - predicted).abs() < 1e-5 * predicted);
        assert!((carried - 9.81 * h).abs() < 1e-9);
        assert!(world.body(b).velocity.norm() < 1e-9);
        // k = m_n (2π/(N h))² per corner: a cube's corner has m_n = m/4 (1/m + |r×n|²/I = 4/m), so the four
        // corners together are as stiff as the whole mass on one spring and the depth is g (N h / 2π)².
        let k_expected = 1.0 * (std::f64::consts::TAU / (period_steps * h)).powi(2);
        assert!((stiffness - k_expected).abs() < 1e-9 * k_expected);
        let _ = joint_mass;
    }
}

/// Free others do not fit the implicit system: refused when set, and switching to penalty with one set is
/// refused too; bad options are refused.
#[test]
fn free_bodies_and_bad_options_are_refused() {
    let mut world = World::new();
    let b = world.add_body(Body::cuboid(1.0, Vector3::repeat(0.2)));
    let ball = Body::new(
        0.45,
        Matrix3::identity() * 1e-3,
        Vector3::new(0.0, 0.2, 0.0),
        UnitQuaternion::identity(),
    );
    let contact = ContactPoint {
        body: b,
        other: ContactOther::Free(0),
        point: Vector3::new(0.0, 0.1, 0.0),
        other_point: Vector3::new(0.0, 0.09, 0.0),
        normal: -Vector3::y(),
        friction: 0.5,
        restitution: 0.0,
    };
    world
        .set_contacts(&[contact], std::slice::from_ref(&ball))
        .unwrap();
    assert!(matches!(
        world.set_contact_options(penalty_options(PenaltyOptions::default())),
        Err(ContactError::Invalid { contact: 0, .. })
    ));
    world.step(1e-3).unwrap();
    world
        .set_contact_options(penalty_options(PenaltyOptions::default()))
        .unwrap();
    assert!(matches!(
        world.set_contacts(&[contact], &[ball]),
        Err(ContactError::Invalid { contact: 0, .. })
    ));
    for bad in [
        PenaltyOptions {
            period_steps: 0.0,
            ..PenaltyOptions::default()
        },
        PenaltyOptions {
            damping_ratio: -1.0,
            ..PenaltyOptions::default()
        },
        PenaltyOptions {
            friction_damping: f64::NAN,
            ..PenaltyOptions::default()
        },
    ] {
        assert!(matches!(
            world.set_contact_options(penalty_options(bad)),
            Err(ContactError::Options(_))
        ));
    }
}

/// A box on a 35° slope (μ = 0.5, atan μ = 26.6°) with detected contacts slides on the friction cone: the friction
/// impulses are μ times the normal ones, and its acceleration is Coulomb's `g (sin θ − μ cos θ)` within 1 %.
#[test]
fn a_sliding_box_is_on_the_friction_cone() {
    let angle = 35f64.to_radians();
    let tilt = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), angle);
    let up = tilt * Vector3::y();
    let down = tilt * -Vector3::x();
    let mut world = World::new();
    let b = world.add_body(Body::cuboid(1.0, Vector3::repeat(0.2)).at(up * 0.1, tilt));
    world
        .set_contact_options(penalty_options(PenaltyOptions::default()))
        .unwrap();
    let colliders = vec![
        Collider::new(
            Some(b),
            Shape::Cuboid {
                half_extents: Vector3::repeat(0.1),
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
    cw.friction = 0.5;
    let h = 1.0 / 60.0;
    let mut v1 = 0.0;
    for k in 0..180 {
        cw.step(h).unwrap();
        if k == 59 {
            v1 = cw.world.body(b).velocity.fixed_rows::<3>(3).dot(&down);
        }
    }
    let imp = cw.world.contact_impulses();
    let normal: f64 = imp.iter().map(|i| i.normal).sum();
    let friction: Vector3<f64> = imp.iter().map(|i| i.friction).sum();
    let v2 = cw.world.body(b).velocity.fixed_rows::<3>(3).dot(&down);
    let accel = (v2 - v1) / 2.0;
    let coulomb = 9.81 * (angle.sin() - 0.5 * angle.cos());
    println!(
        "normal {normal:.6}, friction {:.6} N·s; accel {accel:.5} (Coulomb {coulomb:.5}) m/s²",
        friction.norm()
    );
    assert!((friction.norm() - 0.5 * normal).abs() < 1e-6 * normal);
    assert!(friction.dot(&down) < 0.0, "friction opposes the slide");
    assert!((accel - coulomb).abs() < 0.01 * coulomb);
}

/// A box dropped flat on the ground at 1 m/s (no gravity, so the rebound is the contact's alone): it penetrates
/// for up to a step before its springs act, and the implicit spring–damper sends it back with a fraction of the
/// approach speed that grows with the stiffness (docs/contact.md, "Known limits").
#[test]
fn a_landing_box_rebounds_more_with_stiffer_springs() {
    let mut rebound = Vec::new();
    for period_steps in [1.0, 2.0, 4.0, 16.0] {
        let mut world = World::new();
        world.set_gravity(Vector3::zeros());
        let mut body = Body::cuboid(1.0, Vector3::repeat(0.2))
            .at(Vector3::new(0.0, 0.105, 0.0), UnitQuaternion::identity());
        body.velocity[4] = -1.0;
        let b = world.add_body(body);
        world
            .set_contact_options(penalty_options(PenaltyOptions {
                period_steps,
                ..PenaltyOptions::default()
            }))
            .unwrap();
        let mut max_up: f64 = 0.0;
        for _ in 0..120 {
            let set: Vec<ContactPoint> = [(-0.1, -0.1), (0.1, -0.1), (-0.1, 0.1), (0.1, 0.1)]
                .iter()
                .map(|&(x, z)| {
                    let p = world.body(b).point_world(&Vector3::new(x, -0.1, z));
                    ContactPoint {
                        body: b,
                        other: ContactOther::Static,
                        point: p,
                        other_point: Vector3::new(p.x, 0.0, p.z),
                        normal: Vector3::y(),
                        friction: 0.5,
                        restitution: 0.0,
                    }
                })
                .collect();
            world.set_contacts(&set, &[]).unwrap();
            world.step(1.0 / 60.0).unwrap();
            max_up = max_up.max(world.body(b).velocity[4]);
        }
        println!("N = {period_steps}: rebound {max_up:.3} m/s of 1 m/s");
        rebound.push(max_up);
    }
    assert!(rebound.windows(2).all(|w| w[0] >= w[1]), "{rebound:?}");
    assert!(rebound[0] < 1.0 && rebound[3] < 0.2, "{rebound:?}");
}
