//! The velocity LCP split into independent parts (`src/contact/dynamics/split.rs`): contacts on bodies that `W`
//! does not couple are solved as separate LCPs. Two chains in one world (two trees, so `W` is exactly zero between
//! them) must move as each moves alone, where its LCP is solved whole.

mod common;

use flinch::contact::ContactWorld;
use flinch::contact::collision::{Collider, Shape};
use flinch::dynamics::{Body, World};
use nalgebra::{UnitQuaternion, Vector3};

const H: f64 = 1.0 / 120.0;

/// Adds a two-link chain on ball joints (its first link pinned at (0, `lift`, `z`), both links 0.4 m along x, `lift` m above
/// the ground, the second link turned down by `tilt` rad) and returns the colliders of its links.
fn add_chain(world: &mut World, z: f64, lift: f64, tilt: f64) -> Vec<Collider> {
    let turn = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), -tilt);
    let a = world.add_body(
        Body::cylinder_x(1.0, 0.4, 0.03).at(Vector3::new(0.2, lift, z), UnitQuaternion::identity()),
    );
    let elbow = Vector3::new(0.4, lift, z);
    let b = world.add_body(
        Body::cylinder_x(1.5, 0.4, 0.03).at(elbow + turn * Vector3::new(0.2, 0.0, 0.0), turn),
    );
    world.add_ball_joint(a, None, Vector3::new(0.0, lift, z));
    world.add_ball_joint(b, Some(a), elbow);
    vec![common::link_capsule(a), common::link_capsule(b)]
}

/// A contact world of the given chains `(z, lift, tilt)` on a ground plane, links of one chain not colliding.
fn chains(specs: &[(f64, f64, f64)]) -> ContactWorld {
    let mut world = World::new();
    let mut colliders = Vec::new();
    for &(z, lift, tilt) in specs {
        colliders.extend(add_chain(&mut world, z, lift, tilt));
    }
    colliders.push(Collider::new(None, Shape::ground(0.0)));
    let mut cw = ContactWorld::new(world, colliders);
    for c in 0..specs.len() {
        cw.filter.exclude(2 * c, 2 * c + 1);
    }
    cw.friction = 0.8;
    cw
}

#[test]
fn independent_chains_move_as_each_alone() {
    let specs = [(0.0, 0.1, 0.3), (1.0, 0.12, -0.2)];
    let mut both = chains(&specs);
    let mut alone: Vec<ContactWorld> = specs.iter().map(|s| chains(&[*s])).collect();
    let (mut worst, mut split_steps, mut touching) = (0.0f64, 0, [0usize; 2]);
    for _ in 0..480 {
        let r = both.step(H).unwrap();
        let counts: Vec<usize> = alone
            .iter_mut()
            .map(|w| w.step(H).unwrap().contacts.contacts)
            .collect();
        for (t, &n) in touching.iter_mut().zip(&counts) {
            *t += usize::from(n > 0);
        }
        // Both chains touching: the whole LCP is two independent parts.
        if counts.iter().all(|&n| n > 0) {
            split_steps += 1;
            assert_eq!(r.contacts.contacts, counts.iter().sum::<usize>());
            assert!(r.contacts.residual < 1e-9, "{}", r.contacts.residual);
            assert!(!r.contacts.fell_back);
        }
        for (c, w) in alone.iter().enumerate() {
            for k in 0..2 {
                let (x, y) = (both.world.body(2 * c + k), w.world.body(k));
                worst = worst
                    .max((x.position - y.position).norm())
                    .max((x.velocity - y.velocity).norm() * H);
            }
        }
    }
    println!(
        "two chains in one world against each alone: {split_steps} split steps, steps in contact {touching:?}, \
         largest difference {worst:.3e} m"
    );
    assert!(split_steps > 300, "{split_steps}");
    assert!(worst < 1e-9, "{worst}");
}
