//! The default solver: the O(n) [`TreeSolver`], falling back to the allocation-free dense LU for structures the
//! tree solver does not take (loops, loops closed through the world). See docs/tree_solver.md.

use nalgebra::{Matrix6, Vector6};

use super::dense_lu::DenseLuSolver;
use super::system::{BlockSystem, SaddlePointSolver, SolveError};
use super::tree_solver::TreeSolver;

/// Tree solver first; on [`SolveError::Structure`] the dense LU takes the system (and keeps it while the
/// structure stays unsupported). Singular systems are reported, not retried.
#[derive(Debug, Default)]
pub struct AutoSolver {
    tree: TreeSolver,
    dense: DenseLuSolver,
    using_dense: bool,
}

impl AutoSolver {
    /// A solver that has factored nothing yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether the last factorisation fell back to the dense path.
    pub fn using_dense(&self) -> bool {
        self.using_dense
    }
}

impl SaddlePointSolver for AutoSolver {
    fn factor(&mut self, sys: &BlockSystem) -> Result<(), SolveError> {
        match self.tree.factor(sys) {
            Ok(()) => {
                self.using_dense = false;
                Ok(())
            }
            Err(SolveError::Structure(_)) => {
                self.using_dense = true;
                self.dense.factor(sys)
            }
            Err(e) => Err(e),
        }
    }

    fn solve(&mut self, a: &[Vector6<f64>], b: &[f64], x: &mut [Vector6<f64>], lambda: &mut [f64]) {
        if self.using_dense {
            self.dense.solve(a, b, x, lambda);
        } else {
            self.tree.solve(a, b, x, lambda);
        }
    }

    fn inverse_blocks(&mut self, bodies: &[usize], out: &mut [Matrix6<f64>]) -> bool {
        !self.using_dense && self.tree.inverse_blocks(bodies, out)
    }

    fn solve_response(
        &mut self,
        a: &[Vector6<f64>],
        sources: &[usize],
        x: &mut [Vector6<f64>],
        lambda: &mut [f64],
    ) {
        if self.using_dense {
            self.dense.solve_response(a, sources, x, lambda);
        } else {
            self.tree.solve_response(a, sources, x, lambda);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dynamics::{ConstraintBlock, DenseSolver};

    /// Three bodies in a ring of ball joints (a loop): the tree solver refuses, the dense path solves it.
    #[test]
    fn loops_fall_back_to_dense_and_match_the_oracle() {
        let ball = |a: usize, b: usize| {
            let (mut ja, mut jb) = (Matrix6::zeros(), Matrix6::zeros());
            for r in 0..3 {
                ja[(r, 3 + r)] = 1.0;
                jb[(r, 3 + r)] = -1.0;
                ja[(r, (r + 1) % 3)] = 0.1 * (a + 1) as f64;
            }
            ConstraintBlock {
                rows: 3,
                body_a: a,
                body_b: Some(b),
                ja,
                jb,
            }
        };
        let sys = BlockSystem {
            diag: (0..3)
                .map(|i| Matrix6::identity() * (1.0 + i as f64))
                .collect(),
            couplings: Vec::new(),
            constraints: vec![ball(0, 1), ball(1, 2)],
        };
        let mut looped = sys.clone();
        looped.constraints.push({
            let mut c = ball(2, 0);
            c.rows = 2; // two rows keep the loop solvable (3 bodies, 8 rows ≤ 18 DOF, independent rows)
            c.ja.fixed_rows_mut::<4>(2).fill(0.0);
            c.jb.fixed_rows_mut::<4>(2).fill(0.0);
            c
        });
        let a: Vec<Vector6<f64>> = (0..3).map(|i| Vector6::repeat(1.0 + i as f64)).collect();
        for (system, dense_expected) in [(&sys, false), (&looped, true)] {
            let m = system.constraint_rows();
            let b: Vec<f64> = (0..m).map(|r| 0.01 * r as f64).collect();
            let (mut x, mut l) = (vec![Vector6::zeros(); 3], vec![0.0; m]);
            let mut auto = AutoSolver::new();
            auto.factor(system).unwrap();
            assert_eq!(auto.using_dense(), dense_expected);
            auto.solve(&a, &b, &mut x, &mut l);
            let (mut xo, mut lo) = (vec![Vector6::zeros(); 3], vec![0.0; m]);
            let mut oracle = DenseSolver::default();
            oracle.factor(system).unwrap();
            oracle.solve(&a, &b, &mut xo, &mut lo);
            for (u, v) in x.iter().zip(&xo) {
                assert!((u - v).norm() <= 1e-9 * v.norm().max(1.0));
            }
        }
    }
}
