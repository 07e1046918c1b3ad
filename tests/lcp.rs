//! LCP solvers (`flinch::contact::lcp`): Lemke on random PSD / copositive-plus problems and on the degenerate
//! contact sets of a box resting on its face, cycling, basis-update drift, PGS agreement, and bad input.

#[path = "support/lcp_scene.rs"]
mod lcp_scene;

use flinch::contact::lcp::{
    LcpError, LcpSolver, Lemke, LemkeOptions, Pgs, PgsOptions, RowBound, TieBreak,
    complementarity_residual,
};
use lcp_scene::{Rng, planted_q, psd_matrix, resting_boxes};
use nalgebra::{DMatrix, DVector};

fn lemke() -> Lemke {
    Lemke::new(LemkeOptions::default())
}

/// Numerical rank: singular values above 1e-9 of the largest.
fn rank(m: &DMatrix<f64>) -> usize {
    let s = m.clone().svd(false, false).singular_values;
    let top = s.max();
    s.iter().filter(|&&v| v > 1e-9 * top).count()
}

#[test]
fn random_psd_and_copositive_plus_lcps_n_1_to_60() {
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let (mut worst, mut rays, mut solved, mut max_pivot_ratio): (f64, usize, usize, f64) =
        (0.0, 0, 0, 0.0);
    let mut solver = lemke();
    for n in 1..=60 {
        for case in 0..6 {
            let (m, q) = match case {
                // Positive definite: solvable for every q.
                0 => (psd_matrix(&mut rng, n, n + 2, false), rng.vector(n)),
                // Positive definite plus skew (non-symmetric, P-matrix): every q.
                1 => (psd_matrix(&mut rng, n, n + 2, true), rng.vector(n)),
                // Rank-deficient PSD, feasible by construction.
                2 => {
                    let m = psd_matrix(&mut rng, n, n.div_ceil(2), false);
                    let q = planted_q(&mut rng, &m);
                    (m, q)
                }
                3 => {
                    let m = psd_matrix(&mut rng, n, 1, false);
                    let q = planted_q(&mut rng, &m);
                    (m, q)
                }
                // Rank-deficient PSD plus skew: copositive-plus, feasible by construction.
                4 => {
                    let m = psd_matrix(&mut rng, n, n.div_ceil(3), true);
                    let q = planted_q(&mut rng, &m);
                    (m, q)
                }
                _ => {
                    let m = psd_matrix(&mut rng, n, 0, true);
                    let q = planted_q(&mut rng, &m);
                    (m, q)
                }
            };
            let mut z = DVector::zeros(n);
            match solver.solve(&m, &q, &mut z) {
                Ok(r) => {
                    solved += 1;
                    assert_eq!(r.residual, complementarity_residual(&m, &q, &z));
                    worst = worst.max(r.residual);
                    max_pivot_ratio = max_pivot_ratio.max(r.pivots as f64 / n as f64);
                }
                Err(LcpError::RayTermination { .. }) => rays += 1,
                Err(e) => panic!("n = {n} case {case}: {e}"),
            }
        }
    }
    println!(
        "random LCPs: {solved} solved, {rays} ray terminations (all feasible), max residual {worst:.2e}, max pivots/n {max_pivot_ratio:.2}"
    );
    assert_eq!(rays, 0);
    assert!(worst <= 1e-9, "max residual {worst:e}");
}

#[test]
fn box_face_on_the_ground_normals_and_friction_pyramid() {
    let mut rng = Rng(0xb0c5_0000_0000_0017);
    let mut solver = lemke();
    for per_box in [4, 8, 16] {
        let (mut worst_n, mut worst_p, mut piv_n, mut piv_p): (f64, f64, usize, usize) =
            (0.0, 0.0, 0, 0);
        for trial in 0..40 {
            let mut c = resting_boxes(&mut rng, 1, per_box);
            if trial % 2 == 0 {
                // Exactly at rest, no yaw spin: every contact sees the same q, the most degenerate case.
                c.v.fill(0.0);
                c.v[4] = -9.81 / 120.0;
            }
            let (m, q) = c.normal();
            assert_eq!(rank(&m), 3, "normals of a face span 3 dimensions");
            let mut z = DVector::zeros(per_box);
            let r = solver.solve(&m, &q, &mut z).unwrap();
            assert!(r.residual <= 1e-9, "{per_box} normals: {r:?}");
            // No cycling: a handful of pivots beyond the three independent contacts.
            assert!(r.pivots <= 2 * per_box + 2, "{per_box} normals: {r:?}");
            worst_n = worst_n.max(r.residual);
            piv_n = piv_n.max(r.pivots);

            let (m, q) = c.pyramid();
            let size = q.len();
            let mut z = DVector::zeros(size);
            let r = solver.solve(&m, &q, &mut z).unwrap();
            assert!(r.residual <= 1e-9, "{per_box} pyramid: {r:?}");
            assert!(r.pivots <= 2 * size + 2, "{per_box} pyramid: {r:?}");
            // The box must stop falling: every normal velocity is ≥ 0 and the total normal impulse holds it.
            let w = &m * &z + &q;
            assert!(w.rows(0, per_box).iter().all(|&v| v >= -1e-9));
            worst_p = worst_p.max(r.residual);
            piv_p = piv_p.max(r.pivots);
        }
        println!(
            "box with {per_box} contacts: normals max residual {worst_n:.2e}, max pivots {piv_n}; pyramid ({} vars) max residual {worst_p:.2e}, max pivots {piv_p}",
            6 * per_box
        );
    }
}

#[test]
fn several_boxes_pyramid() {
    let mut rng = Rng(77);
    let mut solver = lemke();
    let c = resting_boxes(&mut rng, 4, 4);
    let (m, q) = c.pyramid();
    let mut z = DVector::zeros(q.len());
    let r = solver.solve(&m, &q, &mut z).unwrap();
    assert!(r.residual <= 1e-9, "{r:?}");
}

/// An LCP instance.
struct Lcp {
    m: DMatrix<f64>,
    q: DVector<f64>,
}

/// A degenerate LCP on which the plain minimum-ratio test (lowest row index among tied rows) cycles. Not a
/// literature instance: found by a seeded search over small integer LCPs (entries −3…3, q in {−2, −1, 0}); the
/// ties (three equal q entries) make every early pivot degenerate.
fn cycling_example() -> Lcp {
    Lcp {
        m: DMatrix::from_row_slice(
            4,
            4,
            &[
                1.0, 0.0, -3.0, 3.0, 0.0, 1.0, 3.0, 2.0, 1.0, 3.0, -2.0, -3.0, 3.0, 0.0, 0.0, 3.0,
            ],
        ),
        q: DVector::from_vec(vec![-1.0, -2.0, -2.0, -2.0]),
    }
}

#[test]
fn lexicographic_rule_breaks_a_cycle_the_plain_rule_falls_into() {
    let Lcp { m, q } = cycling_example();
    let n = q.len();
    let mut plain = Lemke::new(LemkeOptions {
        tie_break: TieBreak::FirstIndex,
        max_pivots: Some(1000),
        ..LemkeOptions::default()
    });
    let mut z = DVector::zeros(n);
    assert!(matches!(
        plain.solve(&m, &q, &mut z),
        Err(LcpError::IterationLimit { limit: 1000 })
    ));
    let r = lemke().solve(&m, &q, &mut z).unwrap();
    assert!(r.residual <= 1e-12 && r.pivots <= 2 * n + 2, "{r:?}");
}

#[test]
fn basis_inverse_updates_stay_within_1e_10_of_a_fresh_inverse() {
    let mut rng = Rng(0xd21f);
    let mut most = 0;
    for _ in 0..10 {
        let m = psd_matrix(&mut rng, 60, 62, true);
        // q = −M z* with z* > 0: every z ends basic, so at least 60 pivots.
        let zs = DVector::from_fn(60, |_, _| rng.range(0.5, 1.5));
        let q = -(&m * zs);
        let mut solver = Lemke::new(LemkeOptions {
            refactor_every: Some(usize::MAX),
            refactor_tol: f64::INFINITY,
            ..LemkeOptions::default()
        });
        let mut z = DVector::zeros(60);
        let r = solver.solve(&m, &q, &mut z).unwrap();
        assert_eq!(r.refactorisations, 0);
        assert_eq!(solver.updates_since_refactor(), r.pivots);
        let drift = solver.update_drift(&m);
        assert!(drift <= 1e-10, "drift {drift:e} after {} pivots", r.pivots);
        most = most.max(r.pivots);
    }
    assert!(most >= 60, "the test must exercise many pivots");
}

#[test]
fn pgs_agrees_with_lemke_on_well_conditioned_normal_problems() {
    let mut rng = Rng(42);
    let mut pgs = Pgs::new(PgsOptions {
        max_iterations: 2000,
        tolerance: 1e-13,
        ..PgsOptions::default()
    });
    let mut lem = lemke();
    for n in [1, 3, 8, 20, 40] {
        let mut m = psd_matrix(&mut rng, n, n, false);
        for i in 0..n {
            m[(i, i)] += n as f64;
        }
        let q = rng.vector(n);
        let (mut zl, mut zp) = (DVector::zeros(n), DVector::zeros(n));
        lem.solve(&m, &q, &mut zl).unwrap();
        let r = pgs.solve(&m, &q, &mut zp).unwrap();
        assert!(r.converged, "{r:?}");
        assert!(
            (&zl - &zp).amax() <= 1e-6,
            "n = {n}: {:e}",
            (&zl - &zp).amax()
        );
    }
    // A resting box (normals only, singular M): z is not unique, the velocity M z + q is.
    let c = resting_boxes(&mut rng, 1, 4);
    let (m, q) = c.normal();
    let (mut zl, mut zp) = (DVector::zeros(4), DVector::zeros(4));
    lem.solve(&m, &q, &mut zl).unwrap();
    pgs.solve(&m, &q, &mut zp).unwrap();
    let (wl, wp) = (&m * &zl + &q, &m * &zp + &q);
    assert!((&wl - &wp).amax() <= 1e-6, "{wl} vs {wp}");
}

#[test]
fn pgs_boxed_friction_stops_a_sliding_box_within_the_cone() {
    let mut rng = Rng(9);
    let c = resting_boxes(&mut rng, 1, 4);
    let lcp_scene::Boxed { m, q, bounds } = c.boxed();
    let mut pgs = Pgs::new(PgsOptions {
        bounds: bounds.clone(),
        max_iterations: 500,
        ..PgsOptions::default()
    });
    let mut z = DVector::zeros(q.len());
    let r = pgs.solve(&m, &q, &mut z).unwrap();
    assert!(r.residual <= 1e-6, "{r:?}");
    for (i, b) in bounds.iter().enumerate() {
        if let RowBound::Friction { normal, mu } = *b {
            assert!(z[i].abs() <= mu * z[normal] + 1e-12);
        }
    }
}

#[test]
fn warm_start_reuses_the_last_basis_or_the_active_set() {
    let mut rng = Rng(5);
    let c = resting_boxes(&mut rng, 1, 8);
    let (m, q) = c.pyramid();
    // Coherence: one solver, step after step. The first solve is cold (nothing to start from), the next one,
    // with a slightly different q, starts from the basis the first ended in and needs no pivot.
    let mut warm = Lemke::new(LemkeOptions {
        warm_start: true,
        ..LemkeOptions::default()
    });
    let mut z = DVector::zeros(q.len());
    let first = warm.solve(&m, &q, &mut z).unwrap();
    assert!(!first.warm_started && first.pivots > 0, "{first:?}");
    let q2 = &q * 1.01;
    let next = warm.solve(&m, &q2, &mut z).unwrap();
    assert!(
        next.warm_started && next.pivots == 0 && next.residual <= 1e-9,
        "{next:?}"
    );

    // The active set of an incoming z, on a fresh solver (a nondegenerate problem: degenerate solutions can have
    // a singular active set, and then the cold start runs).
    let m = psd_matrix(&mut rng, 20, 22, false);
    let q = rng.vector(20);
    let mut z = DVector::zeros(20);
    lemke().solve(&m, &q, &mut z).unwrap();
    let mut fresh = Lemke::new(LemkeOptions {
        warm_start: true,
        ..LemkeOptions::default()
    });
    let mut zw = z.clone();
    let again = fresh.solve(&m, &q, &mut zw).unwrap();
    assert!(
        again.warm_started && again.pivots == 0 && again.residual <= 1e-9,
        "{again:?}"
    );
    assert!((&zw - &z).amax() <= 1e-9);

    // A wrong guess falls back to the cold start.
    let mut fresh = Lemke::new(LemkeOptions {
        warm_start: true,
        ..LemkeOptions::default()
    });
    let mut bad = DVector::from_element(20, 1.0);
    let r = fresh.solve(&m, &q, &mut bad).unwrap();
    assert!(!r.warm_started && r.residual <= 1e-9, "{r:?}");
}

/// The quick walk: the last basis {z0, z1, w2} has one negative basic value (z1) when pair 1 turns, and with pair
/// 1 flipped ({z0, w1, w2}) it is feasible, which is where the walk from the last basis ends in two pivots. The
/// warm start answers with that basis through the quick walk, without a guarded pivot, and the cold start's z.
#[test]
fn warm_start_walks_quickly_to_the_flipped_pair() {
    let m = DMatrix::from_row_slice(3, 3, &[2.0, 0.5, 0.0, 0.5, 2.0, 0.5, 0.0, 0.5, 2.0]);
    let mut warm = Lemke::new(LemkeOptions {
        warm_start: true,
        ..LemkeOptions::default()
    });
    let mut z = DVector::zeros(3);
    let first = warm
        .solve(&m, &DVector::from_vec(vec![-1.0, -1.0, 1.0]), &mut z)
        .unwrap();
    assert!(!first.quick && first.pivots > 0, "{first:?}");
    let mut last = warm.warm_basis().to_vec();
    last.sort_unstable();
    assert_eq!(last, [2, 3, 4], "z0, z1 and w2");
    // In the last basis: M_ZZ z = −q_Z gives z1 = −0.453; flipped, z0 = 0.5, w1 = 0.85, w2 = 1.
    let q = DVector::from_vec(vec![-1.0, 0.6, 1.0]);
    let r = warm.solve(&m, &q, &mut z).unwrap();
    assert!(r.warm_started && r.quick && r.pivots == 0, "{r:?}");
    let mut zc = DVector::zeros(3);
    lemke().solve(&m, &q, &mut zc).unwrap();
    assert!((&z - &zc).amax() <= 1e-15, "{z} against {zc}");
    assert!((z[0] - 0.5).abs() <= 1e-15 && z[1] == 0.0 && z[2] == 0.0);
    let mut next = warm.warm_basis().to_vec();
    next.sort_unstable();
    assert_eq!(next, [1, 2, 3], "z0, w1 and w2");
}

/// Pivoting from the last basis: two resting boxes (16 contacts, a 96-variable degenerate pyramid) whose velocity
/// drifts step after step, so the last basis is often no longer feasible. The warm solver must solve every step
/// as accurately as a cold one, and (the point of it) with far fewer pivots: it walks from the last basis instead
/// of restarting from the slacks.
#[test]
fn warm_pivoting_from_the_last_basis_follows_a_changing_problem() {
    let mut rng = Rng(0x77a2);
    let mut c = resting_boxes(&mut rng, 2, 8);
    let mut warm = Lemke::new(LemkeOptions {
        warm_start: true,
        ..LemkeOptions::default()
    });
    let mut cold = lemke();
    let (mut warm_pivots, mut cold_pivots, mut walks) = (0, 0, 0);
    for step in 0..60 {
        // The velocity drifts by up to 2 % of its size each step (a box slowing down and turning).
        let drift = rng.vector(c.v.len()) * (0.02 * c.v.amax());
        c.v += drift;
        let (m, q) = c.pyramid();
        let mut z = DVector::zeros(q.len());
        let r = warm.solve(&m, &q, &mut z).unwrap();
        assert!(r.residual <= 1e-9, "step {step}: {r:?}");
        assert!(complementarity_residual(&m, &q, &z) <= 1e-9);
        let mut zc = DVector::zeros(q.len());
        let rc = cold.solve(&m, &q, &mut zc).unwrap();
        assert!(rc.residual <= 1e-9, "step {step}: {rc:?}");
        if step > 0 {
            warm_pivots += r.pivots;
            cold_pivots += rc.pivots;
            walks += usize::from(r.warm_started && (r.pivots > 0 || r.quick));
        }
    }
    assert!(
        walks >= 5,
        "the last basis was feasible almost every step: {walks} walks"
    );
    assert!(
        3 * warm_pivots <= cold_pivots,
        "warm {warm_pivots} pivots, cold {cold_pivots}"
    );
}

/// The warm walk on every problem class Lemke is exact for: sequences of positive semidefinite problems (with and
/// without a skew part, full rank and rank-deficient), each a small drift of the one before, solved by one warm
/// solver. Every solve must succeed as the cold start does (a failed walk falls back to it), to the same accuracy.
#[test]
fn warm_walks_solve_drifting_copositive_plus_sequences() {
    let mut rng = Rng(0x3a11_0000_0000_0042);
    let (mut worst, mut walks, mut solves, mut quick) = (0.0_f64, 0, 0, 0);
    for n in 2..=40_usize {
        for (rank, skew) in [
            (n + 2, false),
            (n + 2, true),
            (n.div_ceil(2), false),
            (n.div_ceil(3), true),
        ] {
            let base = psd_matrix(&mut rng, n, rank, skew);
            let mut warm = Lemke::new(LemkeOptions {
                warm_start: true,
                ..LemkeOptions::default()
            });
            for step in 0..6 {
                // A positive semidefinite drift keeps the class; a planted q keeps the problem feasible.
                let m = &base + psd_matrix(&mut rng, n, rank.min(3), skew) * (0.02 * step as f64);
                let q = planted_q(&mut rng, &m);
                let mut z = DVector::zeros(n);
                let r = warm.solve(&m, &q, &mut z).unwrap_or_else(|e| {
                    panic!("n = {n}, rank {rank}, skew {skew}, step {step}: {e}")
                });
                assert_eq!(r.residual, complementarity_residual(&m, &q, &z));
                worst = worst.max(r.residual);
                solves += 1;
                walks += usize::from(r.warm_started && (r.pivots > 0 || r.quick));
                quick += usize::from(r.quick);
            }
        }
    }
    println!(
        "{solves} warm solves, {walks} walks from the last basis ({quick} quick), max residual {worst:.2e}"
    );
    assert!(walks > solves / 4, "{walks} walks in {solves} solves");
    // The quick walk answers a share of them, each checked like a warm hit (235 of 775 when written: these drifts
    // are large, and the rest went on to the guarded walk); every answer still meets the residual bound above.
    assert!(5 * quick > walks, "{quick} quick walks in {walks}");
    assert!(worst <= 1e-9, "max residual {worst:e}");
}

#[test]
fn trivial_and_infeasible_problems() {
    let mut s = lemke();
    // q ≥ 0: z = 0 without a pivot (Cline E5 a).
    let m = DMatrix::from_row_slice(2, 2, &[1.0, 2.0, 3.0, 4.0]);
    let mut z = DVector::from_element(2, 7.0);
    let r = s
        .solve(&m, &DVector::from_vec(vec![1.0, 0.0]), &mut z)
        .unwrap();
    assert_eq!((r.pivots, z.amax()), (0, 0.0));
    // A zero row with a negative q: w_0 = −1 whatever z is.
    for n in [1, 3] {
        let mut m = DMatrix::<f64>::identity(n, n);
        m[(0, 0)] = 0.0;
        let mut q = DVector::from_element(n, -1.0);
        q[0] = -1.0;
        let mut z = DVector::zeros(n);
        let e = s.solve(&m, &q, &mut z).unwrap_err();
        assert!(matches!(e, LcpError::RayTermination { .. }), "{e}");
        assert!(e.to_string().contains("ray termination"));
        assert!(z.iter().all(|v| v.is_finite()));
    }
    // n = 0.
    let r = s
        .solve(
            &DMatrix::zeros(0, 0),
            &DVector::zeros(0),
            &mut DVector::zeros(0),
        )
        .unwrap();
    assert_eq!(r.residual, 0.0);
}

#[test]
fn bad_input_is_an_error_never_a_panic() {
    let mut rng = Rng(3);
    let solvers: [&mut dyn LcpSolver; 2] = [&mut lemke(), &mut Pgs::default()];
    for s in solvers {
        let mut z = DVector::zeros(2);
        let mut m = DMatrix::<f64>::identity(2, 2);
        let q = DVector::from_vec(vec![-1.0, 1.0]);
        assert!(matches!(
            s.solve(&m, &DVector::zeros(3), &mut z),
            Err(LcpError::Dimension { .. })
        ));
        assert!(matches!(
            s.solve(&DMatrix::zeros(2, 3), &q, &mut z),
            Err(LcpError::Dimension { .. })
        ));
        m[(1, 0)] = f64::NAN;
        assert!(matches!(
            s.solve(&m, &q, &mut z),
            Err(LcpError::NonFinite { what: "M" })
        ));
        let inf = DVector::from_vec(vec![f64::INFINITY, 1.0]);
        assert!(matches!(
            s.solve(&DMatrix::identity(2, 2), &inf, &mut z),
            Err(LcpError::NonFinite { what: "q" })
        ));
        // Arbitrary (indefinite, badly scaled) matrices: Ok or Err, a finite z, no panic.
        for n in 1..25 {
            let scale = 10f64.powi(rng.range(-8.0, 8.0) as i32);
            let m = rng.matrix(n, n) * scale;
            let q = rng.vector(n);
            let mut z = DVector::from_element(n, f64::NAN);
            let _ = s.solve(&m, &q, &mut z);
            assert!(z.iter().all(|v| v.is_finite()));
        }
    }
    let mut bad_cover = Lemke::new(LemkeOptions {
        covering: Some(DVector::from_vec(vec![1.0, 0.0])),
        ..LemkeOptions::default()
    });
    let r = bad_cover.solve(
        &DMatrix::identity(2, 2),
        &DVector::from_vec(vec![-1.0, 1.0]),
        &mut DVector::zeros(2),
    );
    assert!(matches!(r, Err(LcpError::InvalidOption { .. })));
}
