//! The tree solver against the dense reference.
use super::*;
use crate::dynamics::system::{ConstraintBlock, Coupling, DenseSolver};

#[test]
fn pair_indices_are_distinct() {
    let all = [
        pair(0, 1),
        pair(0, 2),
        pair(0, 3),
        pair(1, 2),
        pair(1, 3),
        pair(2, 3),
    ];
    for (k, p) in all.iter().enumerate() {
        assert_eq!(*p, k);
    }
}

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
