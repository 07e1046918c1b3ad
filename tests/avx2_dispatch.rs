//! The step's kernels run as AVX2 copies where the CPU has AVX2 (`flinch::math::dispatch`). Both copies must give
//! the same results bit for bit, so that a state hash, a bake or a network replay does not depend on the CPU.
//! This file is its own test binary: switching the copies off is process-wide.

mod common;

use common::feet_contacts;
use flinch::control::{Character, CharacterConfig};
use flinch::dynamics::{ContactOptions, ContactSolver, PenaltyOptions};
use flinch::io::{ImportOptions, load_embedded_walk};
use flinch::math::dispatch;
use nalgebra::Vector3;

/// The state hash after every step of the embedded walk: free of contacts, then pressing its feet through the
/// given contact solver, and its left forearm pushed every 50 steps.
fn hashes(solver: Option<ContactSolver>) -> Vec<u64> {
    let imported = load_embedded_walk(&ImportOptions::default()).unwrap();
    let mut c = Character::from_imported(imported, &CharacterConfig::default()).unwrap();
    if let Some(solver) = solver {
        c.set_contact_options(ContactOptions {
            solver,
            ..ContactOptions::default()
        })
        .unwrap();
    }
    let h = c.step_size();
    (0..300)
        .map(|step| {
            if solver.is_some() {
                let contacts = feet_contacts(&c);
                c.set_contacts(&contacts, &[]).unwrap();
            }
            if step % 50 == 25 {
                let arm = c.body_of_bone("LeftForeArm").unwrap();
                let at = c.world().bodies()[arm].position;
                c.apply_impulse("LeftForeArm", at, Vector3::new(3.0, 0.0, 1.0))
                    .unwrap();
            }
            c.step(h).unwrap();
            c.state_hash()
        })
        .collect()
}

#[test]
fn avx2_copies_give_the_baseline_results_bit_for_bit() {
    // What the CPU offers (false off x86-64): `avx2()` with the copies switched on.
    dispatch::set_avx2(true);
    let avx2 = dispatch::avx2();
    if !avx2 {
        eprintln!("this CPU has no AVX2: both runs take the baseline code");
    }
    for solver in [
        None,
        Some(ContactSolver::Lemke),
        Some(ContactSolver::Penalty(PenaltyOptions::default())),
        Some(ContactSolver::Pgs {
            max_sweeps: 50,
            tolerance: 1e-6,
        }),
    ] {
        dispatch::set_avx2(true);
        let fast = hashes(solver);
        dispatch::set_avx2(false);
        assert!(!dispatch::avx2());
        let baseline = hashes(solver);
        dispatch::set_avx2(true);
        assert_eq!(dispatch::avx2(), avx2);
        let first = fast.iter().zip(&baseline).position(|(a, b)| a != b);
        assert_eq!(first, None, "{solver:?}: the copies part at step {first:?}");
    }
}
