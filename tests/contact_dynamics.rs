//! Contacts in the step through the public API: momentum exchange with a free projectile, restitution, the
//! friction cone, PGS against Lemke, push-only post-stabilization with joints, and refused input.

mod common;

use flinch::contact::ContactWorld;
use flinch::contact::collision::{Collider, Shape};
use flinch::dynamics::{
    Body, ContactError, ContactOptions, ContactOther, ContactPoint, ContactSolver, World,
};
use nalgebra::{UnitQuaternion, Vector3, Vector6};

fn ball(velocity: Vector3<f64>, position: Vector3<f64>) -> Body {
    let mut b = Body::new(
        0.45,
        nalgebra::Matrix3::identity() * (0.4 * 0.45 * 0.11 * 0.11),
        position,
        UnitQuaternion::identity(),
    );
    b.velocity = Vector6::new(0.0, 0.0, 0.0, velocity.x, velocity.y, velocity.z);
    b
}

/// A free box in zero gravity hit off-centre by a free ball: total linear momentum is conserved, the normal
/// relative velocity after the hit is −e times the one before, and friction stays inside the cone.
#[test]
fn a_free_ball_exchanges_momentum_through_the_contact() {
    for e in [0.0, 0.5, 1.0] {
        let mut world = World::new();
        world.set_gravity(Vector3::zeros());
        let b = world.add_body(
            Body::cuboid(2.0, Vector3::new(0.4, 0.4, 0.4))
                .at(Vector3::zeros(), UnitQuaternion::identity()),
        );
        let point = Vector3::new(-0.2, 0.1, 0.05); // on the box's −x face, off the CoM
        let v_ball = Vector3::new(12.0, -3.0, 1.0);
        let projectile = ball(v_ball, point - Vector3::new(0.11, 0.0, 0.0));
        let contact = ContactPoint {
            body: b,
            other: ContactOther::Free(0),
            point,
            other_point: point,
            normal: Vector3::x(),
            friction: 0.3,
            restitution: e,
        };
        world.set_contacts(&[contact], &[projectile]).unwrap();
        world.step(1e-3).unwrap();
        let after_ball = world.free_bodies()[0]
            .velocity
            .fixed_rows::<3>(3)
            .into_owned();
        let body = world.body(b);
        let p_before = 0.45 * v_ball;
        let p_after = 0.45 * after_ball + body.mass * body.velocity.fixed_rows::<3>(3);
        assert!(
            (p_after - p_before).norm() < 1e-9,
            "e {e}: momentum {p_before} → {p_after}"
        );
        // The contact Jacobian is taken at the start of the step, where the box's CoM was at the origin.
        let box_point_v = body.velocity.fixed_rows::<3>(3) + body.omega().cross(&point);
        let rel_after = (box_point_v - after_ball).dot(&Vector3::x());
        let rel_before = -v_ball.x;
        println!("e {e}: relative normal velocity {rel_before} → {rel_after}");
        assert!(
            (rel_after + e * rel_before).abs() < 1e-6,
            "e {e}: {rel_after}"
        );
        let imp = world.contact_impulses()[0];
        assert!(imp.normal > 0.0);
        let tangential = imp.friction.norm();
        assert!(
            tangential <= 0.3 * imp.normal * (1.0 + 1e-9),
            "{tangential} > μ λ_n"
        );
        assert!(imp.friction.dot(&Vector3::x()).abs() < 1e-12);
    }
}

fn box_on_ground(solver: ContactSolver, height: f64) -> (World, ContactPoint, Vec<ContactPoint>) {
    let mut world = World::new();
    let b = world.add_body(
        Body::cuboid(1.0, Vector3::repeat(0.2))
            .at(Vector3::new(0.0, height, 0.0), UnitQuaternion::identity()),
    );
    world
        .set_contact_options(ContactOptions {
            solver,
            ..ContactOptions::default()
        })
        .unwrap();
    let corner = |x: f64, z: f64| ContactPoint {
        body: b,
        other: ContactOther::Static,
        point: Vector3::new(x, height - 0.1, z),
        other_point: Vector3::new(x, 0.0, z),
        normal: Vector3::y(),
        friction: 0.5,
        restitution: 0.0,
    };
    let corners = vec![
        corner(-0.1, -0.1),
        corner(0.1, -0.1),
        corner(-0.1, 0.1),
        corner(0.1, 0.1),
    ];
    (world, corners[0], corners)
}

/// Lemke and PGS both hold a box at rest on the ground; the normal impulses carry its weight over the step.
#[test]
fn lemke_and_pgs_hold_a_resting_box() {
    for solver in [
        ContactSolver::Lemke,
        ContactSolver::Pgs {
            max_sweeps: 200,
            tolerance: 1e-12,
        },
    ] {
        let (mut world, _, corners) = box_on_ground(solver, 0.1);
        for _ in 0..120 {
            let points: Vec<ContactPoint> = corners
                .iter()
                .map(|c| ContactPoint {
                    point: world
                        .body(0)
                        .point_world(&Vector3::new(c.point.x, -0.1, c.point.z)),
                    ..*c
                })
                .collect();
            world.set_contacts(&points, &[]).unwrap();
            let r = world.step(1.0 / 60.0).unwrap();
            assert_eq!(r.contacts.contacts, 4);
        }
        let weight = world
            .contact_impulses()
            .iter()
            .map(|i| i.normal)
            .sum::<f64>();
        println!(
            "{solver:?}: Σλ_n {weight} N·s, height {}",
            world.body(0).position.y
        );
        assert!((weight - 9.81 / 60.0).abs() < 1e-6);
        assert!((world.body(0).position.y - 0.1).abs() < 1e-9);
    }
}

/// Post-stabilization pushes a box 5 mm into the ground back out in the same step, to the contact skin above it
/// (`ContactOptions::position_skin`, default 1e-6 m; with 0, to contact exactly), and never pulls one that hovers
/// 0.5 mm above the ground (within the contact tolerance) down.
#[test]
fn post_stabilization_pushes_apart_and_never_pulls() {
    for skin in [ContactOptions::default().position_skin, 0.0] {
        let (mut deep, _, corners) = box_on_ground(ContactSolver::Lemke, 0.095);
        deep.set_contact_options(ContactOptions {
            position_skin: skin,
            ..ContactOptions::default()
        })
        .unwrap();
        deep.set_gravity(Vector3::zeros());
        deep.set_contacts(&corners, &[]).unwrap();
        let r = deep.step(1.0 / 60.0).unwrap();
        println!(
            "5 mm deep, skin {skin:e} m: after {} m, {:?}",
            deep.body(0).position.y,
            r.contacts
        );
        assert!(r.contacts.max_penetration < 1e-12);
        assert!(r.contacts.projections >= 1);
        assert!((deep.body(0).position.y - (0.1 + skin)).abs() < 1e-9);
    }
    assert_eq!(ContactOptions::default().position_skin, 1e-6);
    // A box above the ground moving up slowly: the contact must not hold it down.
    let (mut hover, _, corners) = box_on_ground(ContactSolver::Lemke, 0.1005);
    hover.set_gravity(Vector3::zeros());
    hover.body_mut(0).velocity[4] = 0.01;
    hover.set_contacts(&corners, &[]).unwrap();
    hover.step(1.0 / 60.0).unwrap();
    assert!(hover.contact_impulses().iter().all(|i| i.normal == 0.0));
    assert!((hover.body(0).position.y - (0.1005 + 0.01 / 60.0)).abs() < 1e-12);
}

/// A two-link chain on a ball joint 10 cm above a ground plane, released horizontal: it swings down, strikes
/// the plane and comes to rest on it, with joints and contacts (capsules against the plane, detected by
/// `ContactWorld`) holding together throughout.
#[test]
fn joints_and_contacts_hold_together() {
    let mut world = World::new();
    let a = world.add_body(
        Body::cylinder_x(1.0, 0.4, 0.03)
            .at(Vector3::new(0.2, 0.1, 0.0), UnitQuaternion::identity()),
    );
    let b = world.add_body(
        Body::cylinder_x(1.0, 0.4, 0.03)
            .at(Vector3::new(0.6, 0.1, 0.0), UnitQuaternion::identity()),
    );
    world.add_ball_joint(a, None, Vector3::new(0.0, 0.1, 0.0));
    world.add_ball_joint(b, Some(a), Vector3::new(0.4, 0.1, 0.0));
    let mut cw = ContactWorld::new(
        world,
        vec![
            common::link_capsule(a),
            common::link_capsule(b),
            Collider::new(None, Shape::ground(0.0)),
        ],
    );
    cw.filter.exclude(a, b);
    cw.friction = 0.8;
    let (mut worst_gap, mut worst_pen, mut touched) = (0.0f64, 0.0f64, 0);
    for _ in 0..600 {
        let r = cw.step(1.0 / 120.0).unwrap();
        worst_gap = worst_gap.max(r.max_separation);
        worst_pen = worst_pen.max(r.contacts.max_penetration);
        touched += usize::from(r.contacts.contacts > 0);
    }
    println!(
        "chain on the ground: joint gap {worst_gap:.3e} m, penetration {worst_pen:.3e} m, {touched} steps in contact"
    );
    assert!(worst_gap < 1e-9);
    assert!(worst_pen < 1e-7);
    assert!(touched > 300);
    let body = cw.world.body(b);
    let lowest = body.position.y - 0.03 - 0.2 * body.rotation().column(0).y.abs();
    let speed = body.velocity.norm();
    println!("chain at rest: lowest point y = {lowest:.3e} m, twist {speed:.3e}");
    assert!(
        lowest.abs() < 1e-6,
        "the chain rests on the plane: {lowest}"
    );
    assert!(speed < 1e-3, "{speed}");
}

/// Bad contacts are refused with the contact's index, never a panic.
#[test]
fn bad_contacts_are_refused() {
    let (mut world, good, _) = box_on_ground(ContactSolver::Lemke, 0.1);
    let cases: Vec<(ContactPoint, Vec<Body>)> = vec![
        (ContactPoint { body: 3, ..good }, vec![]),
        (
            ContactPoint {
                other: ContactOther::Body(0),
                ..good
            },
            vec![],
        ),
        (
            ContactPoint {
                other: ContactOther::Free(1),
                ..good
            },
            vec![ball(Vector3::zeros(), Vector3::zeros())],
        ),
        (
            ContactPoint {
                normal: Vector3::new(0.0, 2.0, 0.0),
                ..good
            },
            vec![],
        ),
        (
            ContactPoint {
                point: Vector3::new(f64::NAN, 0.0, 0.0),
                ..good
            },
            vec![],
        ),
        (
            ContactPoint {
                friction: -1.0,
                ..good
            },
            vec![],
        ),
        (
            ContactPoint {
                restitution: 1.5,
                ..good
            },
            vec![],
        ),
        (
            ContactPoint {
                other: ContactOther::Free(0),
                ..good
            },
            vec![Body {
                mass: 0.0,
                ..ball(Vector3::zeros(), Vector3::zeros())
            }],
        ),
    ];
    for (c, free) in cases {
        let err = world.set_contacts(&[good, c], &free).unwrap_err();
        println!("{err}");
        match err {
            ContactError::Body { contact, .. } | ContactError::Free { contact, .. } => {
                assert_eq!(contact, 1)
            }
            ContactError::Invalid { contact, .. } => assert!(contact <= 1),
            ContactError::Options(_) => panic!("not an options error"),
        }
    }
    for m in [2, 3, 5] {
        assert!(
            world
                .set_contact_options(ContactOptions {
                    friction_directions: m,
                    ..ContactOptions::default()
                })
                .is_err()
        );
    }
    for skin in [-1e-9, f64::NAN, f64::INFINITY] {
        let err = world.set_contact_options(ContactOptions {
            position_skin: skin,
            ..ContactOptions::default()
        });
        assert!(
            matches!(err, Err(ContactError::Options(m)) if m.contains("position_skin")),
            "skin {skin}: {err:?}"
        );
    }
}
