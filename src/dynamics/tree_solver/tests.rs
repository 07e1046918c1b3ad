//! The tree solver against the dense reference.
use super::*;
use crate::dynamics::system::{ConstraintBlock, Coupling, DenseSolver};
use nalgebra::{Matrix3, Vector3};

#[test]
fn coupled_chain_with_world_group_matches_dense() {
    // 0 (root, 2 world rows) — 1 — 2, drive couplings on both joints, two 4-row joints, and a 2-row world
    // attachment on body 2 (2 + 4 ≤ 6).
    let m = |s: f64| Matrix6::from_fn(|r, c| s * ((r * 7 + c * 3) % 5) as f64 - s);
    let diag: Vec<_> = (0..3)
        .map(|i| Matrix6::identity() * (3.0 + i as f64) + m(0.05))
        .collect();
    let j = |seed: f64| {
        Matrix6::from_fn(|r, c| {
            if r == c {
                2.0
            } else {
                seed * ((r + 2 * c) % 3) as f64
            }
        })
    };
    let con = |rows, a, b, s| ConstraintBlock {
        rows,
        body_a: a,
        body_b: b,
        ja: Matrix6::from_fn(|r, c| if r < rows { j(s)[(r, c)] } else { 0.0 }),
        jb: Matrix6::from_fn(|r, c| if r < rows { -j(0.3 * s)[(c, r)] } else { 0.0 }),
    };
    let sys = BlockSystem {
        diag,
        couplings: vec![
            Coupling {
                i: 0,
                j: 1,
                a_ij: m(0.1),
                a_ji: m(-0.2),
            },
            Coupling {
                i: 2,
                j: 1,
                a_ij: m(0.15),
                a_ji: m(0.1),
            },
        ],
        constraints: vec![
            con(4, 1, Some(0), 0.2),
            con(2, 0, None, 0.1),
            con(4, 2, Some(1), -0.1),
            {
                let mut c = con(2, 2, None, 0.4);
                // Body 2's joint rows are diagonally dominant in columns 0 … 3: world rows on 4, 5 stay independent.
                c.ja = Matrix6::zeros();
                c.ja[(0, 5)] = 1.0;
                c.ja[(1, 4)] = 1.0;
                c
            },
        ],
    };
    let a: Vec<Vector6<f64>> = (0..3)
        .map(|i| Vector6::from_fn(|r, _| (r + i) as f64 - 2.0))
        .collect();
    let b: Vec<f64> = (0..sys.constraint_rows()).map(|r| 0.1 * r as f64).collect();
    let run = |s: &mut dyn SaddlePointSolver| {
        s.factor(&sys).expect("factor");
        let mut x = vec![Vector6::zeros(); 3];
        let mut l = vec![0.0; b.len()];
        s.solve(&a, &b, &mut x, &mut l);
        (x, l)
    };
    let (xd, ld) = run(&mut DenseSolver::default());
    let (xt, lt) = run(&mut TreeSolver::new());
    for i in 0..3 {
        assert!(
            (xd[i] - xt[i]).norm() <= 1e-10 * xd[i].norm().max(1.0),
            "x[{i}]"
        );
    }
    for (d, t) in ld.iter().zip(&lt) {
        assert!((d - t).abs() <= 1e-10 * d.abs().max(1.0));
    }
}

#[test]
fn ball_joint_fronts_match_dense_and_the_general_path() {
    // A root with 6 world rows and a chain of four bodies on ball joints (rows `[[s_c]×ᵀ, I]` on the child,
    // `[[s_p]×, −I]` on the parent, as `Anchors::evaluate` writes them), every joint with an angular drive
    // coupling but one without: the exact fronts take the ball path. The same rows with a 1e-300 entry off the
    // identity's diagonal (negligible in every product) take the general path.
    let n = 5;
    let m = |s: f64| Matrix6::from_fn(|r, c| s * ((r * 7 + c * 3) % 5) as f64 - s);
    let corner = |s: f64| {
        let mut c = Matrix6::zeros();
        c.fixed_view_mut::<3, 3>(0, 0)
            .copy_from(&Matrix3::from_fn(|r, k| s * (1.0 + (r + 2 * k) as f64)));
        c
    };
    let system = |perturb: f64| {
        let diag: Vec<_> = (0..n)
            .map(|i| Matrix6::identity() * (2.0 + i as f64) + m(0.03))
            .collect();
        let mut constraints = vec![ConstraintBlock {
            rows: 6,
            body_a: 0,
            body_b: None,
            ja: Matrix6::identity(),
            jb: Matrix6::zeros(),
        }];
        let mut couplings = Vec::new();
        for c in 1..n {
            let (s_c, s_p) = (
                Vector3::new(0.1 * c as f64, -0.2, 0.05),
                Vector3::new(-0.05, 0.3, 0.1 * c as f64),
            );
            let (mut ja, mut jb) = (Matrix6::zeros(), Matrix6::zeros());
            ja.fixed_view_mut::<3, 3>(0, 0)
                .copy_from(&crate::math::spatial::cross_matrix(&s_c).transpose());
            ja.fixed_view_mut::<3, 3>(0, 3)
                .copy_from(&Matrix3::identity());
            ja[(0, 4)] = perturb;
            jb.fixed_view_mut::<3, 3>(0, 0)
                .copy_from(&crate::math::spatial::cross_matrix(&s_p));
            jb.fixed_view_mut::<3, 3>(0, 3)
                .copy_from(&(-Matrix3::identity()));
            constraints.push(ConstraintBlock {
                rows: 3,
                body_a: c,
                body_b: Some(c - 1),
                ja,
                jb,
            });
            if c != 2 {
                couplings.push(Coupling {
                    i: c,
                    j: c - 1,
                    a_ij: corner(-0.02 * c as f64),
                    a_ji: corner(0.015),
                });
            }
        }
        BlockSystem {
            diag,
            couplings,
            constraints,
        }
    };
    let a: Vec<Vector6<f64>> = (0..n)
        .map(|i| Vector6::from_fn(|r, _| (r + i) as f64 - 2.0))
        .collect();
    let run = |s: &mut dyn SaddlePointSolver, sys: &BlockSystem| {
        let b: Vec<f64> = (0..sys.constraint_rows()).map(|r| 0.1 * r as f64).collect();
        s.factor(sys).expect("factor");
        let mut x = vec![Vector6::zeros(); n];
        let mut l = vec![0.0; b.len()];
        s.solve(&a, &b, &mut x, &mut l);
        (x, l)
    };
    let ball = system(0.0);
    let (xd, ld) = run(&mut DenseSolver::default(), &ball);
    let (xt, lt) = run(&mut TreeSolver::new(), &ball);
    let (xg, lg) = run(&mut TreeSolver::new(), &system(1e-300));
    for i in 0..n {
        assert!(
            (xd[i] - xt[i]).norm() <= 1e-10 * xd[i].norm().max(1.0),
            "x[{i}]"
        );
        assert!(
            (xg[i] - xt[i]).norm() <= 1e-13 * xg[i].norm().max(1.0),
            "x[{i}]"
        );
    }
    for ((d, t), g) in ld.iter().zip(&lt).zip(&lg) {
        assert!((d - t).abs() <= 1e-10 * d.abs().max(1.0));
        assert!((g - t).abs() <= 1e-13 * g.abs().max(1.0));
    }
}
