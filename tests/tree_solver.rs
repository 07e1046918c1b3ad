//! The O(n) tree solver against the dense LU oracle on random trees and forests, plus its error paths.

mod common;

use common::Lcg;
use flinch::dynamics::{
    BlockSystem, ConstraintBlock, Coupling, DenseSolver, SaddlePointSolver, SolveError, TreeSolver,
};
use nalgebra::{Matrix6, Vector6};

fn rand_mat(rng: &mut Lcg, scale: f64) -> Matrix6<f64> {
    Matrix6::from_fn(|_, _| scale * (2.0 * rng.next_f64() - 1.0))
}

fn rand_vec(rng: &mut Lcg) -> Vector6<f64> {
    Vector6::from_fn(|_, _| 2.0 * rng.next_f64() - 1.0)
}

/// Rows `from..from + rows` of `q`, moved to the top of a zero block.
fn rows_of(q: &Matrix6<f64>, from: usize, rows: usize) -> Matrix6<f64> {
    let mut j = Matrix6::zeros();
    for i in 0..rows {
        j.set_row(i, &q.row(from + i));
    }
    j
}

/// A random forest of `n` bodies: random parents (about 1 in 20 bodies starts a new tree), joints of 3 … 6
/// rows (sometimes split into two constraints on the same pair, sometimes with body_a/body_b swapped), world
/// attachments on each root and on a few other bodies, drive couplings on most joints, SPD-ish body blocks with
/// a non-symmetric perturbation. World rows of a non-root body plus its joint rows never exceed 6, and the root
/// of each tree has the most world rows, so the tree solver must accept every system made here.
fn random_system(rng: &mut Lcg, n: usize) -> BlockSystem {
    let mut sys = BlockSystem::default();
    let mut root_rows = vec![0usize; n];
    let mut root_of = vec![0usize; n];
    for i in 0..n {
        let b = rand_mat(rng, 1.0);
        let mass = 0.5 + 5.0 * rng.next_f64();
        sys.diag
            .push(b * b.transpose() * 0.5 + Matrix6::identity() * mass + rand_mat(rng, 0.1));
        // Rows of one well-conditioned matrix per body: the world rows and the body's own joint rows together
        // are independent.
        let q = Matrix6::identity() * 2.0 + rand_mat(rng, 0.5);
        let new_root = i == 0 || rng.below(20) == 0;
        let world_rows = if new_root {
            root_of[i] = i;
            root_rows[i] = [0, 3, 6, 2][rng.below(4)];
            root_rows[i]
        } else {
            let p = rng.below(i);
            root_of[i] = root_of[p];
            let r = 3 + rng.below(4);
            let cap = root_rows[root_of[i]].min(6 - r);
            let w = if cap > 0 && rng.below(6) == 0 {
                1 + rng.below(cap)
            } else {
                0
            };
            let jp = rows_of(&rand_mat(rng, 1.0), 0, 6);
            // Split the joint into two constraints sometimes.
            let split = if r > 3 && rng.below(3) == 0 {
                1 + rng.below(r - 1)
            } else {
                r
            };
            for (from, rows) in [(0, split), (split, r - split)] {
                if rows == 0 {
                    continue;
                }
                let (jc, jpp) = (rows_of(&q, w + from, rows), rows_of(&jp, from, rows));
                let swap = rng.below(2) == 0;
                sys.constraints.push(ConstraintBlock {
                    rows,
                    body_a: if swap { p } else { i },
                    body_b: Some(if swap { i } else { p }),
                    ja: if swap { jpp } else { jc },
                    jb: if swap { jc } else { jpp },
                });
            }
            if rng.below(10) < 7 {
                let (cp, pc) = (rand_mat(rng, 0.3), rand_mat(rng, 0.3));
                let swap = rng.below(2) == 0;
                sys.couplings.push(if swap {
                    Coupling {
                        i: p,
                        j: i,
                        a_ij: pc,
                        a_ji: cp,
                    }
                } else {
                    Coupling {
                        i,
                        j: p,
                        a_ij: cp,
                        a_ji: pc,
                    }
                });
            }
            w
        };
        if world_rows > 0 {
            sys.constraints.push(ConstraintBlock {
                rows: world_rows,
                body_a: i,
                body_b: None,
                ja: rows_of(&q, 0, world_rows),
                jb: Matrix6::zeros(),
            });
        }
    }
    // Shuffle the constraint order so λ offsets do not follow the tree.
    for k in (1..sys.constraints.len()).rev() {
        sys.constraints.swap(k, rng.below(k + 1));
    }
    sys
}

struct Solution {
    x: Vec<Vector6<f64>>,
    lambda: Vec<f64>,
}

fn solve_with(
    solver: &mut dyn SaddlePointSolver,
    sys: &BlockSystem,
    a: &[Vector6<f64>],
    b: &[f64],
) -> Result<Solution, SolveError> {
    solver.factor(sys)?;
    let mut s = Solution {
        x: vec![Vector6::zeros(); sys.bodies()],
        lambda: vec![0.0; sys.constraint_rows()],
    };
    solver.solve(a, b, &mut s.x, &mut s.lambda);
    Ok(s)
}

fn flat(s: &Solution) -> Vec<f64> {
    s.x.iter()
        .flat_map(|v| v.iter().copied())
        .chain(s.lambda.iter().copied())
        .collect()
}

fn norm(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

/// ‖(A x − Jᵀλ − a, J x − b)‖ / ‖(a, b)‖.
fn relative_residual(sys: &BlockSystem, s: &Solution, a: &[Vector6<f64>], b: &[f64]) -> f64 {
    let mut top = vec![Vector6::zeros(); sys.bodies()];
    sys.mul_a(&s.x, &mut top);
    let neg: Vec<f64> = s.lambda.iter().map(|l| -l).collect();
    sys.add_jt(&neg, &mut top);
    let mut jx = vec![0.0; b.len()];
    sys.mul_j(&s.x, &mut jx);
    let r: Vec<f64> = top
        .iter()
        .zip(a)
        .flat_map(|(t, ai)| (t - ai).iter().copied().collect::<Vec<_>>())
        .chain(jx.iter().zip(b).map(|(j, bi)| j - bi))
        .collect();
    let rhs: Vec<f64> = a
        .iter()
        .flat_map(|v| v.iter().copied())
        .chain(b.iter().copied())
        .collect();
    norm(&r) / norm(&rhs)
}

fn random_rhs(rng: &mut Lcg, sys: &BlockSystem) -> (Vec<Vector6<f64>>, Vec<f64>) {
    let a = (0..sys.bodies()).map(|_| rand_vec(rng)).collect();
    let b = (0..sys.constraint_rows())
        .map(|_| rng.next_f64() - 0.5)
        .collect();
    (a, b)
}

#[test]
fn random_trees_agree_with_dense_lu() {
    let mut rng = Lcg(0x5eed_7ee5);
    let sizes: Vec<usize> = (1..=40).chain([60, 80, 100, 150, 200]).collect();
    let (mut worst_diff, mut worst_res, mut systems) = (0.0f64, 0.0f64, 0);
    let mut tree = TreeSolver::new();
    for &n in &sizes {
        for _ in 0..if n <= 40 { 4 } else { 1 } {
            let sys = random_system(&mut rng, n);
            let (a, b) = random_rhs(&mut rng, &sys);
            let dense = solve_with(&mut DenseSolver::default(), &sys, &a, &b).expect("dense solve");
            let t =
                solve_with(&mut tree, &sys, &a, &b).unwrap_or_else(|e| panic!("{n} bodies: {e}"));
            let (fd, ft) = (flat(&dense), flat(&t));
            let diff: Vec<f64> = fd.iter().zip(&ft).map(|(d, t)| d - t).collect();
            let rel = norm(&diff) / norm(&fd);
            let res = relative_residual(&sys, &t, &a, &b);
            assert!(
                rel <= 1e-9,
                "{n} bodies: tree vs dense relative difference {rel:e}"
            );
            assert!(res <= 1e-10, "{n} bodies: relative KKT residual {res:e}");
            worst_diff = worst_diff.max(rel);
            worst_res = worst_res.max(res);
            systems += 1;
        }
    }
    println!(
        "figure tree_vs_dense_max_rel_diff {worst_diff:e} ratio ({systems} random systems, 1 … 200 bodies)"
    );
    println!("figure tree_kkt_max_rel_residual {worst_res:e} ratio");
}

/// Drive couplings are angular only (zero outside the 3×3 corner), which the tree solver's exact-size fronts
/// exploit; and the contact code asks for blocks of the inverse (`inverse_blocks`, one pass along root paths).
/// Both against the dense oracle on random forests whose couplings are made angular on every other joint.
#[test]
fn angular_couplings_and_inverse_blocks_agree_with_dense_lu() {
    let mut rng = Lcg(0xb10c_5eed);
    let mut worst: f64 = 0.0;
    for n in [1, 2, 3, 7, 19, 40] {
        let mut sys = random_system(&mut rng, n);
        for c in sys.couplings.iter_mut().step_by(2) {
            for m in [&mut c.a_ij, &mut c.a_ji] {
                let corner = m.fixed_view::<3, 3>(0, 0).into_owned();
                m.fill(0.0);
                m.fixed_view_mut::<3, 3>(0, 0).copy_from(&corner);
            }
        }
        let (a, b) = random_rhs(&mut rng, &sys);
        let dense = solve_with(&mut DenseSolver::default(), &sys, &a, &b).expect("dense");
        let mut tree = TreeSolver::new();
        let t = solve_with(&mut tree, &sys, &a, &b).expect("tree");
        let (fd, ft) = (flat(&dense), flat(&t));
        let diff: Vec<f64> = fd.iter().zip(&ft).map(|(d, t)| d - t).collect();
        assert!(norm(&diff) <= 1e-9 * norm(&fd), "{n} bodies: solve");
        // Blocks between a few bodies (repeats and all of a small system included).
        let picks: Vec<usize> = (0..n.min(4)).map(|_| rng.below(n)).collect();
        let err = inverse_blocks_against_dense(&mut tree, &sys, &picks);
        assert!(err <= 1e-9, "{n} bodies: inverse blocks {err:e}");
        worst = worst.max(err);
    }
    println!("figure inverse_blocks_max_rel_diff {worst:e} ratio");
}

/// A character's joints are ball joints (rows `[[s]×ᵀ, I]` on the child, `[[s]×, −I]` on the parent), which the
/// tree solver eliminates in their null space (`ball.rs`) instead of by the body pivot. Random trees of them
/// under a 6-row world-constrained root, with angular drive couplings on most joints, none on some, a full one on
/// a few and a joint written parent-first on a few (those two take the general front): solve and inverse blocks
/// against the dense oracle, then again with every coupling full (the fronts analysed as ball fronts grow their
/// room and take the general path) and once more as first, with one solver.
#[test]
fn ball_joint_trees_and_inverse_blocks_agree_with_dense_lu() {
    let mut rng = Lcg(0xba11_f00d);
    let mut worst: f64 = 0.0;
    for n in [2, 3, 8, 19, 40] {
        let mut sys = BlockSystem::default();
        for i in 0..n {
            let b = rand_mat(&mut rng, 1.0);
            let mass = 0.5 + 5.0 * rng.next_f64();
            sys.diag.push(
                b * b.transpose() * 0.5 + Matrix6::identity() * mass + rand_mat(&mut rng, 0.1),
            );
            if i == 0 {
                sys.constraints.push(ConstraintBlock {
                    rows: 6,
                    body_a: 0,
                    body_b: None,
                    ja: Matrix6::identity() * 2.0 + rand_mat(&mut rng, 0.5),
                    jb: Matrix6::zeros(),
                });
                continue;
            }
            let p = rng.below(i);
            let mut s = || [0.0; 3].map(|_| 0.4 * (rng.next_f64() - 0.5));
            let (jc, jp) = ball(s(), s());
            let parent_first = rng.below(6) == 0;
            sys.constraints.push(ConstraintBlock {
                rows: 3,
                body_a: if parent_first { p } else { i },
                body_b: Some(if parent_first { i } else { p }),
                ja: if parent_first { jp } else { jc },
                jb: if parent_first { jc } else { jp },
            });
            let kind = rng.below(8);
            if kind == 0 {
                continue;
            }
            let (mut cp, mut pc) = (rand_mat(&mut rng, 0.3), rand_mat(&mut rng, 0.3));
            if kind > 1 {
                for m in [&mut cp, &mut pc] {
                    let corner = m.fixed_view::<3, 3>(0, 0).into_owned();
                    m.fill(0.0);
                    m.fixed_view_mut::<3, 3>(0, 0).copy_from(&corner);
                }
            }
            sys.couplings.push(Coupling {
                i,
                j: p,
                a_ij: cp,
                a_ji: pc,
            });
        }
        // The same structure with every coupling full, then as before: the fronts analysed as ball fronts take
        // the general path and grow their pool room, then go back (one solver throughout).
        let mut full = sys.clone();
        for c in full.couplings.iter_mut() {
            c.a_ij += rand_mat(&mut rng, 0.01);
            c.a_ji += rand_mat(&mut rng, 0.01);
        }
        let (a, b) = random_rhs(&mut rng, &sys);
        let mut tree = TreeSolver::new();
        for (round, sys) in [&sys, &full, &sys].into_iter().enumerate() {
            let dense = solve_with(&mut DenseSolver::default(), sys, &a, &b).expect("dense");
            let t = solve_with(&mut tree, sys, &a, &b).expect("tree");
            let (fd, ft) = (flat(&dense), flat(&t));
            let diff: Vec<f64> = fd.iter().zip(&ft).map(|(d, t)| d - t).collect();
            let rel = norm(&diff) / norm(&fd);
            assert!(rel <= 1e-11, "{n} bodies, round {round}: solve {rel:e}");
            let picks: Vec<usize> = (0..n.min(4)).map(|_| rng.below(n)).collect();
            let err = inverse_blocks_against_dense(&mut tree, sys, &picks);
            assert!(
                err <= 1e-11,
                "{n} bodies, round {round}: inverse blocks {err:e}"
            );
            worst = worst.max(err).max(rel);
        }
    }
    println!("figure ball_trees_vs_dense_max_rel_diff {worst:e} ratio");
}

/// The response solve (`b = 0`, wrenches on a few bodies; the contact impulses' final solve) substitutes only the
/// fronts the wrenches reach: on random forests (padded, exact and square-root fronts, several trees) it equals
/// the full solve with `b = 0` bit for bit, and the dense oracle to round-off.
#[test]
fn response_solves_equal_the_full_solve_with_zero_b() {
    let mut rng = Lcg(0x5e5_90e5);
    let mut worst: f64 = 0.0;
    for n in [1, 2, 5, 19, 40, 120] {
        let sys = random_system(&mut rng, n);
        let sources: Vec<usize> = (0..1 + rng.below(3)).map(|_| rng.below(n)).collect();
        let mut a = vec![Vector6::zeros(); n];
        for &s in &sources {
            a[s] = rand_vec(&mut rng);
        }
        let zero_b = vec![0.0; sys.constraint_rows()];
        let mut tree = TreeSolver::new();
        let full = solve_with(&mut tree, &sys, &a, &zero_b).expect("tree");
        // Stale values in the outputs must not leak into the response.
        let mut response = Solution {
            x: vec![Vector6::repeat(7.0); n],
            lambda: vec![-3.0; zero_b.len()],
        };
        tree.solve_response(&a, &sources, &mut response.x, &mut response.lambda);
        assert_eq!(
            flat(&response),
            flat(&full),
            "{n} bodies, sources {sources:?}"
        );
        let dense = solve_with(&mut DenseSolver::default(), &sys, &a, &zero_b).expect("dense");
        let (fd, fr) = (flat(&dense), flat(&response));
        let diff: Vec<f64> = fd.iter().zip(&fr).map(|(d, r)| d - r).collect();
        let rel = norm(&diff) / norm(&fd);
        assert!(rel <= 1e-9, "{n} bodies: response against dense {rel:e}");
        worst = worst.max(rel);
    }
    println!("figure response_vs_dense_max_rel_diff {worst:e} ratio");
}

/// A front sized for the angular couplings its structure was analysed with grows when the same structure later
/// brings full couplings (and keeps that room when they turn angular again): each factorisation of one solver
/// agrees with the dense oracle, solve and inverse blocks alike.
#[test]
fn couplings_that_turn_full_after_the_analysis_still_agree_with_dense_lu() {
    let mut rng = Lcg(0x9a0_1f00d);
    for n in [2, 5, 19, 40] {
        let full = random_system(&mut rng, n);
        let mut angular = full.clone();
        for c in angular.couplings.iter_mut() {
            for m in [&mut c.a_ij, &mut c.a_ji] {
                let corner = m.fixed_view::<3, 3>(0, 0).into_owned();
                m.fill(0.0);
                m.fixed_view_mut::<3, 3>(0, 0).copy_from(&corner);
            }
        }
        let (a, b) = random_rhs(&mut rng, &full);
        let picks: Vec<usize> = (0..n.min(3)).map(|_| rng.below(n)).collect();
        let mut tree = TreeSolver::new();
        for (round, sys) in [&angular, &full, &angular, &full].into_iter().enumerate() {
            let dense = solve_with(&mut DenseSolver::default(), sys, &a, &b).expect("dense");
            let t = solve_with(&mut tree, sys, &a, &b).expect("tree");
            let (fd, ft) = (flat(&dense), flat(&t));
            let diff: Vec<f64> = fd.iter().zip(&ft).map(|(d, t)| d - t).collect();
            assert!(
                norm(&diff) <= 1e-9 * norm(&fd),
                "{n} bodies, round {round}: solve"
            );
            let err = inverse_blocks_against_dense(&mut tree, sys, &picks);
            assert!(
                err <= 1e-9,
                "{n} bodies, round {round}: inverse blocks {err:e}"
            );
        }
    }
}

/// The largest relative difference between the tree solver's inverse blocks `W[i][j]` between the bodies
/// `picks` (its factorisation of `sys` current) and the dense oracle's columns of `A⁻¹`.
fn inverse_blocks_against_dense(tree: &mut TreeSolver, sys: &BlockSystem, picks: &[usize]) -> f64 {
    let n = sys.bodies();
    let mut blocks = vec![Matrix6::zeros(); picks.len() * picks.len()];
    assert!(tree.inverse_blocks(picks, &mut blocks));
    let mut dense_solver = DenseSolver::default();
    dense_solver.factor(sys).unwrap();
    let zero_b = vec![0.0; sys.constraint_rows()];
    let mut worst: f64 = 0.0;
    for (c, &bj) in picks.iter().enumerate() {
        for k in 0..6 {
            let mut e = vec![Vector6::zeros(); n];
            e[bj][k] = 1.0;
            let mut x = vec![Vector6::zeros(); n];
            let mut l = vec![0.0; zero_b.len()];
            dense_solver.solve(&e, &zero_b, &mut x, &mut l);
            for (r, &bi) in picks.iter().enumerate() {
                let mine = blocks[r * picks.len() + c].column(k).into_owned();
                worst = worst.max((mine - x[bi]).norm() / x[bi].norm().max(1e-3));
            }
        }
    }
    worst
}

/// A ball-joint Jacobian pair for an anchor at `s_a` from body a's CoM and `s_b` from body b's CoM.
fn ball(s_a: [f64; 3], s_b: [f64; 3]) -> (Matrix6<f64>, Matrix6<f64>) {
    let mut ja = Matrix6::zeros();
    let mut jb = Matrix6::zeros();
    let cross = |s: [f64; 3]| nalgebra::Vector3::from(s).cross_matrix();
    ja.view_mut((0, 0), (3, 3)).copy_from(&(-cross(s_a)));
    ja.view_mut((0, 3), (3, 3))
        .copy_from(&nalgebra::Matrix3::identity());
    jb.view_mut((0, 0), (3, 3)).copy_from(&cross(s_b));
    jb.view_mut((0, 3), (3, 3))
        .copy_from(&(-nalgebra::Matrix3::identity()));
    (ja, jb)
}

fn joint(a: usize, b: Option<usize>) -> ConstraintBlock {
    let (ja, jb) = ball([0.1, 0.2, 0.0], [0.0, -0.3, 0.1]);
    ConstraintBlock {
        rows: 3,
        body_a: a,
        body_b: b,
        ja,
        jb,
    }
}

fn bodies(n: usize) -> Vec<Matrix6<f64>> {
    (0..n)
        .map(|i| Matrix6::identity() * (1.0 + i as f64))
        .collect()
}

fn structure_err(sys: &BlockSystem) -> String {
    match TreeSolver::new().factor(sys) {
        Err(SolveError::Structure(m)) => m,
        other => panic!("expected a structure error, got {other:?}"),
    }
}

#[test]
fn loops_and_foreign_couplings_are_structure_errors() {
    let tri = BlockSystem {
        diag: bodies(3),
        couplings: vec![],
        constraints: vec![joint(0, Some(1)), joint(1, Some(2)), joint(2, Some(0))],
    };
    assert!(structure_err(&tri).contains("loop"));
    // The dense path still solves it (the documented fallback).
    DenseSolver::default().factor(&tri).expect("dense fallback");

    let chain = BlockSystem {
        diag: bodies(3),
        couplings: vec![Coupling {
            i: 0,
            j: 2,
            a_ij: Matrix6::identity(),
            a_ji: Matrix6::identity(),
        }],
        constraints: vec![joint(0, Some(1)), joint(1, Some(2))],
    };
    assert!(structure_err(&chain).contains("coupling 0"));

    // Two pairs joined by 9 rows, and a non-root body fixed to the world and to its parent (loop via world).
    let heavy = BlockSystem {
        diag: bodies(2),
        couplings: vec![],
        constraints: vec![joint(0, Some(1)), joint(1, Some(0)), joint(0, Some(1))],
    };
    assert!(structure_err(&heavy).contains("9 constraint rows"));
    let mut weld = joint(1, None);
    weld.rows = 6;
    weld.ja = Matrix6::identity();
    // Body 0 with 3 + 6 world rows: certainly redundant.
    let nine_world = BlockSystem {
        diag: bodies(2),
        couplings: vec![],
        constraints: vec![
            joint(0, None),
            joint(0, Some(1)),
            ConstraintBlock {
                body_a: 0,
                ..weld.clone()
            },
        ],
    };
    assert!(matches!(
        TreeSolver::new().factor(&nine_world),
        Err(SolveError::Singular(_))
    ));
    // Both bodies welded to the world and joined: a loop closed through the world.
    let two_world = BlockSystem {
        diag: bodies(2),
        couplings: vec![],
        constraints: vec![
            weld.clone(),
            joint(0, Some(1)),
            ConstraintBlock {
                body_a: 0,
                ..weld.clone()
            },
        ],
    };
    assert!(structure_err(&two_world).contains("world"));
}

#[test]
fn bad_indices_are_structure_errors_without_panic() {
    let mut sys = BlockSystem {
        diag: bodies(2),
        couplings: vec![],
        constraints: vec![joint(0, Some(5))],
    };
    assert!(structure_err(&sys).contains("constraint 0"));
    sys.constraints = vec![joint(1, Some(1))];
    assert!(structure_err(&sys).contains("body_b 1"));
    sys.constraints = vec![ConstraintBlock {
        rows: 7,
        ..joint(0, Some(1))
    }];
    assert!(structure_err(&sys).contains("7 rows"));
    sys.constraints = vec![joint(0, Some(1))];
    sys.couplings = vec![Coupling {
        i: 0,
        j: 9,
        a_ij: Matrix6::zeros(),
        a_ji: Matrix6::zeros(),
    }];
    assert!(structure_err(&sys).contains("coupling 0"));
}

#[test]
fn redundant_constraints_are_singular_errors() {
    // The same ball joint twice between two bodies.
    let dup = BlockSystem {
        diag: bodies(3),
        couplings: vec![],
        constraints: vec![joint(0, Some(1)), joint(1, Some(2)), joint(1, Some(2))],
    };
    match TreeSolver::new().factor(&dup) {
        Err(SolveError::Singular(m)) => assert!(m.contains("redundant"), "{m}"),
        other => panic!("expected singular, got {other:?}"),
    }
    // The same world attachment twice on the root.
    let dup_world = BlockSystem {
        diag: bodies(2),
        couplings: vec![],
        constraints: vec![joint(0, None), joint(0, Some(1)), joint(0, None)],
    };
    assert!(matches!(
        TreeSolver::new().factor(&dup_world),
        Err(SolveError::Singular(_))
    ));
    // A massless body.
    let mut massless = dup_world.clone();
    massless.constraints.truncate(2);
    massless.diag[1] = Matrix6::zeros();
    assert!(matches!(
        TreeSolver::new().factor(&massless),
        Err(SolveError::Singular(_))
    ));
    // The same on a ball front (the joint written child first, as a character's are), and a body with mass but
    // no rotational inertia: its rotation about the anchor's axis is free, so the ball front's `D` is singular.
    let (ja, jb) = ball([0.1, 0.2, 0.0], [0.0, -0.3, 0.1]);
    let child_first = ConstraintBlock {
        rows: 3,
        body_a: 1,
        body_b: Some(0),
        ja,
        jb,
    };
    let mut ball_massless = BlockSystem {
        diag: bodies(2),
        couplings: vec![],
        constraints: vec![joint(0, None), joint(0, None), child_first],
    };
    // The root held by six world rows: the anchor's and its rotation's.
    ball_massless.constraints[1].ja = rows_of(&Matrix6::identity(), 0, 3);
    assert!(TreeSolver::new().factor(&ball_massless).is_ok());
    for mass in [0.0, 1.0] {
        let mut sys = ball_massless.clone();
        sys.diag[1] = Matrix6::zeros();
        for d in 3..6 {
            sys.diag[1][(d, d)] = mass;
        }
        match TreeSolver::new().factor(&sys) {
            Err(SolveError::Singular(m)) => assert!(m.contains("body 1"), "{m}"),
            other => panic!("expected singular, got {other:?}"),
        }
    }
}

#[test]
fn failed_factor_leaves_no_stale_solution() {
    let mut rng = Lcg(42);
    let good = random_system(&mut rng, 5);
    let mut solver = TreeSolver::new();
    solver.factor(&good).expect("factor");
    let bad = BlockSystem {
        diag: bodies(5),
        couplings: vec![],
        constraints: vec![joint(0, Some(0))],
    };
    assert!(solver.factor(&bad).is_err());
    let mut x = vec![Vector6::zeros(); 5];
    let mut lambda = vec![0.0; 3];
    solver.solve(&[Vector6::zeros(); 5], &[0.0; 3], &mut x, &mut lambda);
    assert!(x.iter().all(|v| v.iter().all(|e| e.is_nan())) && lambda.iter().all(|l| l.is_nan()));
}

#[test]
fn free_bodies_and_structure_changes() {
    let mut rng = Lcg(7);
    let mut solver = TreeSolver::new();
    // Free bodies only: x_i = A_i⁻¹ a_i.
    let free = BlockSystem {
        diag: (0..4)
            .map(|_| Matrix6::identity() * 2.0 + rand_mat(&mut rng, 0.3))
            .collect(),
        ..Default::default()
    };
    let a: Vec<Vector6<f64>> = (0..4).map(|_| rand_vec(&mut rng)).collect();
    let s = solve_with(&mut solver, &free, &a, &[]).expect("free bodies");
    for ((d, x), ai) in free.diag.iter().zip(&s.x).zip(&a) {
        assert!((d * x - ai).norm() < 1e-12);
    }
    // Alternate structures (and sizes) on one solver: each factor re-analyses when needed.
    for n in [3, 17, 3, 60, 1] {
        let sys = random_system(&mut rng, n);
        let (a, b) = random_rhs(&mut rng, &sys);
        let t = solve_with(&mut solver, &sys, &a, &b).expect("tree");
        let d = solve_with(&mut DenseSolver::default(), &sys, &a, &b).expect("dense");
        let (fd, ft) = (flat(&d), flat(&t));
        let diff: Vec<f64> = fd.iter().zip(&ft).map(|(d, t)| d - t).collect();
        assert!(
            norm(&diff) <= 1e-9 * norm(&fd),
            "{n} bodies after a structure change"
        );
    }
}

#[test]
fn root_is_the_world_attached_body() {
    // A chain 0-1-2-3-4 attached to the world at body 3 by 6 rows: only rooting at body 3 works.
    let mut weld = joint(3, None);
    weld.rows = 6;
    weld.ja = Matrix6::identity();
    let sys = BlockSystem {
        diag: bodies(5),
        couplings: vec![Coupling {
            i: 3,
            j: 2,
            a_ij: Matrix6::identity() * -0.2,
            a_ji: Matrix6::identity() * 0.1,
        }],
        constraints: vec![
            joint(0, Some(1)),
            joint(2, Some(1)),
            joint(2, Some(3)),
            joint(4, Some(3)),
            weld,
        ],
    };
    let mut rng = Lcg(3);
    let (a, b) = random_rhs(&mut rng, &sys);
    let t = solve_with(&mut TreeSolver::new(), &sys, &a, &b).expect("tree");
    assert!(relative_residual(&sys, &t, &a, &b) < 1e-12);
    // The weld (λ rows 12 … 17) prescribes body 3's twist exactly.
    assert!((t.x[3] - Vector6::from_column_slice(&b[12..18])).norm() < 1e-12);
}
