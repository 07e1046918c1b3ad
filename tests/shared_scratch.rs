//! Worlds of one structure can step in one shared scratch (`World::exchange_scratch`): every result must be bit
//! for bit the one the world computes in its own buffers, however different the states of the worlds that used
//! the scratch before it, and a world of another structure or with a solver of its own must never take it.

mod common;

use std::sync::Arc;

use common::feet_contacts;
use flinch::control::{Character, CharacterConfig, PreparedClip};
use flinch::dynamics::{Body, DenseSolver, JointDrive, StepScratch, World};
use flinch::io::{ImportOptions, load_embedded_walk};
use nalgebra::{UnitQuaternion, Vector3};

/// Four walkers of one prepared clip in different situations: one plain, one 0.7 s ahead in its clip, one pushed
/// now and then (each push adds a user force: its body's gradients turn full 6×6, a new structure in the middle
/// of the run), one pressing its feet on the ground through LCP contacts every step.
fn crowd(prepared: &Arc<PreparedClip>) -> Vec<Character> {
    let mut crowd: Vec<Character> = (0..4)
        .map(|_| Character::from_prepared(Arc::clone(prepared)))
        .collect();
    let h = crowd[1].step_size();
    for _ in 0..84 {
        crowd[1].step(h).unwrap();
    }
    crowd
}

/// Steps the crowd `steps` times, the characters one after another, each between two exchanges with `scratch`
/// when given; returns every character's state hash after every step, and how many exchanges took place.
fn run(
    crowd: &mut [Character],
    mut scratch: Option<&mut StepScratch>,
    steps: usize,
) -> (Vec<u64>, usize) {
    let h = crowd[0].step_size();
    let mut hashes = Vec::new();
    let mut exchanged = 0;
    for step in 0..steps {
        for (i, c) in crowd.iter_mut().enumerate() {
            if i == 2 && step % 40 == 10 {
                c.apply_impulse(
                    "Spine",
                    c.world().bodies()[0].position,
                    Vector3::new(6.0, 0.0, 2.0),
                )
                .unwrap();
            }
            if i == 3 {
                let contacts = feet_contacts(c);
                assert_eq!(contacts.len(), 2, "the walk has both feet");
                c.set_contacts(&contacts, &[]).unwrap();
            }
            if let Some(s) = scratch.as_deref_mut() {
                exchanged += usize::from(c.exchange_scratch(s));
            }
            c.step(h).unwrap();
            if let Some(s) = scratch.as_deref_mut() {
                exchanged += usize::from(c.exchange_scratch(s));
            }
            hashes.push(c.state_hash());
        }
    }
    (hashes, exchanged)
}

#[test]
fn a_shared_scratch_gives_bit_identical_steps() {
    let imported = load_embedded_walk(&ImportOptions::default()).unwrap();
    let prepared =
        Arc::new(PreparedClip::from_imported(imported, &CharacterConfig::default()).unwrap());
    let steps = 240;
    let (own, _) = run(&mut crowd(&prepared), None, steps);
    let mut scratch = StepScratch::default();
    let (shared, exchanged) = run(&mut crowd(&prepared), Some(&mut scratch), steps);
    println!("{exchanged} exchanges in {} character steps", steps * 4);
    // Most steps share: the pushed character leaves the shared structure at its first push.
    assert!(exchanged > 2 * steps * 2, "only {exchanged} exchanges");
    assert!(
        exchanged < 2 * steps * 4,
        "the pushed character's new structure was shared"
    );
    assert_eq!(own.len(), shared.len());
    for (k, (a, b)) in own.iter().zip(&shared).enumerate() {
        assert_eq!(a, b, "character {} differs after step {}", k % 4, k / 4);
    }
    // The situations did differ: the four characters' states are not copies of each other.
    let last = &own[own.len() - 4..];
    assert!(
        last.iter()
            .enumerate()
            .all(|(i, a)| last[i + 1..].iter().all(|b| a != b))
    );
}

/// A two-link pendulum on ball joints with drives: a small world of its own structure.
fn pendulum(solver: Option<DenseSolver>) -> World {
    let mut w = World::new();
    if let Some(s) = solver {
        w.set_solver(Box::new(s));
    }
    for i in 0..2 {
        w.add_body(Body::cylinder_x(0.5, 0.2, 0.04).at(
            Vector3::new(0.1 + 0.2 * i as f64, 0.0, 0.0),
            UnitQuaternion::identity(),
        ));
    }
    w.add_ball_joint(0, None, Vector3::zeros());
    w.add_ball_joint(1, Some(0), Vector3::new(0.2, 0.0, 0.0));
    for (i, parent) in [(0, None), (1, Some(0))] {
        let drive = JointDrive::new(
            w.bodies(),
            i,
            parent,
            Vector3::repeat(5.0),
            Vector3::repeat(0.5),
        );
        w.add_drive(drive);
    }
    w
}

#[test]
fn another_structure_or_solver_never_takes_the_scratch() {
    let imported = load_embedded_walk(&ImportOptions::default()).unwrap();
    let mut walker = Character::from_imported(imported, &CharacterConfig::default()).unwrap();
    let h = walker.step_size();
    // A world not sized yet (never stepped) neither seeds a blank scratch nor exchanges with it.
    let mut scratch = StepScratch::default();
    assert!(!pendulum(None).exchange_scratch(&mut scratch));
    walker.step(h).unwrap();
    assert!(
        walker.exchange_scratch(&mut scratch),
        "a blank scratch takes the walker's sizes"
    );
    assert!(walker.exchange_scratch(&mut scratch));

    let mut small = pendulum(None);
    small.step(1e-3).unwrap();
    assert!(
        !small.exchange_scratch(&mut scratch),
        "the pendulum took the walker's scratch"
    );
    let reference = {
        let mut w = pendulum(None);
        w.step(1e-3).unwrap();
        for _ in 0..50 {
            w.step(1e-3).unwrap();
        }
        w.state_hash()
    };
    for _ in 0..50 {
        small.exchange_scratch(&mut scratch);
        small.step(1e-3).unwrap();
        small.exchange_scratch(&mut scratch);
    }
    assert_eq!(small.state_hash(), reference);
    // The walker still finds its structure in the scratch.
    assert!(walker.exchange_scratch(&mut scratch));
    assert!(walker.exchange_scratch(&mut scratch));

    // A world with a solver of its own keeps it, even against a scratch of its structure.
    let mut custom = pendulum(Some(DenseSolver::default()));
    custom.step(1e-3).unwrap();
    let mut pendulum_scratch = StepScratch::default();
    let mut plain = pendulum(None);
    plain.step(1e-3).unwrap();
    assert!(plain.exchange_scratch(&mut pendulum_scratch));
    assert!(plain.exchange_scratch(&mut pendulum_scratch));
    assert!(!custom.exchange_scratch(&mut pendulum_scratch));
}
