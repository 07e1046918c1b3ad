//! The block-sparse saddle-point system every step solves, and the dense reference solver.
//!
//! ```text
//! [ A   −Jᵀ ] [ x ]   [ a ]
//! [ J    0  ] [ λ ] = [ b ]
//! ```
//!
//! `A` is 6n×6n with one 6×6 block per body on the diagonal (the mass matrix M, or the implicit M̃ of Cline
//! eq. 2.53) plus off-diagonal blocks for coupled body pairs (joint drives couple parent and child). `A` may be
//! non-symmetric. `J` has one block row per constraint, touching one body (attached to the world) or two. Twists
//! are angular first, `(ω; v)`, in world-aligned CoM frames. Cline's sign convention (eq. 2.45): constraint
//! wrenches are `Jᵀλ`.
//!
//! The dynamics step uses `A = M̃, x = v(t+h), a = M v(t) + h f̃, b = 0` (or `−α g` with Baumgarte);
//! post-stabilization uses `A = M, x = dp, a = 0, b = −g(p)`.

use nalgebra::{DMatrix, DVector, Matrix6, Vector6};

/// One constraint's block row: `rows` (1 … 6) rows of `J`, touching `body_a` and optionally `body_b`.
/// Only the first `rows` rows of `ja` / `jb` are used; the rest must be zero.
#[derive(Debug, Clone, PartialEq)]
pub struct ConstraintBlock {
    /// Number of scalar rows (1 … 6).
    pub rows: usize,
    /// First body.
    pub body_a: usize,
    /// Second body, `None` when the constraint attaches `body_a` to the world.
    pub body_b: Option<usize>,
    /// Jacobian block for `body_a` (first `rows` rows used).
    pub ja: Matrix6<f64>,
    /// Jacobian block for `body_b` (first `rows` rows used; ignored without `body_b`).
    pub jb: Matrix6<f64>,
}

/// Off-diagonal blocks of `A` between two distinct bodies: `A[i][j]` and `A[j][i]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Coupling {
    /// First body.
    pub i: usize,
    /// Second body (≠ i).
    pub j: usize,
    /// Block `A[i][j]` (row block i, column block j).
    pub a_ij: Matrix6<f64>,
    /// Block `A[j][i]`.
    pub a_ji: Matrix6<f64>,
}

/// The whole system's matrix (the right-hand sides are passed to the solver separately).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BlockSystem {
    /// Diagonal blocks `A[i][i]`, one per body.
    pub diag: Vec<Matrix6<f64>>,
    /// Off-diagonal blocks between body pairs (each unordered pair at most once).
    pub couplings: Vec<Coupling>,
    /// Constraint block rows, in λ order.
    pub constraints: Vec<ConstraintBlock>,
}

impl BlockSystem {
    /// Number of bodies.
    pub fn bodies(&self) -> usize {
        self.diag.len()
    }

    /// Total number of constraint rows (length of λ).
    pub fn constraint_rows(&self) -> usize {
        self.constraints.iter().map(|c| c.rows).sum()
    }

    /// `A x` (all blocks) for a twist vector `x`, written into `out`.
    pub fn mul_a(&self, x: &[Vector6<f64>], out: &mut [Vector6<f64>]) {
        for (i, o) in out.iter_mut().enumerate() {
            *o = self.diag[i] * x[i];
        }
        for c in &self.couplings {
            out[c.i] += c.a_ij * x[c.j];
            out[c.j] += c.a_ji * x[c.i];
        }
    }

    /// `J x`: constraint-space image of a twist vector, written into `out` (length [`Self::constraint_rows`]).
    pub fn mul_j(&self, x: &[Vector6<f64>], out: &mut [f64]) {
        let mut off = 0;
        for c in &self.constraints {
            let mut r = c.ja * x[c.body_a];
            if let Some(b) = c.body_b {
                r += c.jb * x[b];
            }
            out[off..off + c.rows].copy_from_slice(&r.as_slice()[..c.rows]);
            off += c.rows;
        }
    }

    /// `Jᵀ λ` added into `out` (one wrench per body).
    pub fn add_jt(&self, lambda: &[f64], out: &mut [Vector6<f64>]) {
        let mut off = 0;
        for c in &self.constraints {
            let mut l = Vector6::zeros();
            l.as_mut_slice()[..c.rows].copy_from_slice(&lambda[off..off + c.rows]);
            out[c.body_a] += c.ja.transpose() * l;
            if let Some(b) = c.body_b {
                out[b] += c.jb.transpose() * l;
            }
            off += c.rows;
        }
    }

    /// The full matrix, dense: `(6n + m)²` (test oracle and fallback for graphs with loops).
    pub fn to_dense(&self) -> DMatrix<f64> {
        let n6 = 6 * self.bodies();
        let m = self.constraint_rows();
        let mut k = DMatrix::zeros(n6 + m, n6 + m);
        for (i, d) in self.diag.iter().enumerate() {
            k.view_mut((6 * i, 6 * i), (6, 6)).copy_from(d);
        }
        for c in &self.couplings {
            k.view_mut((6 * c.i, 6 * c.j), (6, 6)).copy_from(&c.a_ij);
            k.view_mut((6 * c.j, 6 * c.i), (6, 6)).copy_from(&c.a_ji);
        }
        let mut off = n6;
        for c in &self.constraints {
            let mut put = |body: usize, jac: &Matrix6<f64>| {
                let rows = jac.rows(0, c.rows);
                k.view_mut((off, 6 * body), (c.rows, 6)).copy_from(&rows);
                k.view_mut((6 * body, off), (6, c.rows))
                    .copy_from(&(-rows.transpose()));
            };
            put(c.body_a, &c.ja);
            if let Some(b) = c.body_b {
                put(b, &c.jb);
            }
            off += c.rows;
        }
        k
    }
}

/// Why a system could not be solved.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SolveError {
    /// The matrix (or a pivot block) is singular: redundant constraints or a massless body.
    #[error("singular system: {0}")]
    Singular(String),
    /// The structure does not fit the solver (e.g. loops for the tree solver).
    #[error("unsupported structure: {0}")]
    Structure(String),
}

/// A solver for [`BlockSystem`]s: factor once, then solve for any number of right-hand sides.
pub trait SaddlePointSolver {
    /// Factors the system's matrix. Call again whenever the blocks change.
    fn factor(&mut self, sys: &BlockSystem) -> Result<(), SolveError>;
    /// Solves for `(x, λ)` with right-hand sides `a` (per body) and `b` (per constraint row), using the last
    /// factorisation.
    fn solve(&mut self, a: &[Vector6<f64>], b: &[f64], x: &mut [Vector6<f64>], lambda: &mut [f64]);

    /// The 6×6 blocks `W_ij` of the inverse of the last factored matrix between the bodies `bodies` (the
    /// velocity response of body `i` to a unit wrench on body `j` with the constraints holding: column `k` of
    /// `W_ij` is `x_i` of the solve with `a = e_k` on body `j`, `b = 0`), written row-major into `out`
    /// (`out[r·n + c]` for `bodies[r]`, `bodies[c]`, `n = bodies.len()`). Returns `false`, leaving `out` as it
    /// was, when the solver has nothing faster than one [`Self::solve`] per column (the default); the caller then
    /// solves column by column.
    fn inverse_blocks(&mut self, _bodies: &[usize], _out: &mut [Matrix6<f64>]) -> bool {
        false
    }

    /// [`Self::solve`] with `b = 0` and a momentum right-hand side `a` that is zero outside the bodies `sources`
    /// (the response to wrenches on a few bodies, such as contact impulses). A solver may skip the bodies that
    /// the wrenches cannot move; the default solves in full (allocating the zero `b`).
    fn solve_response(
        &mut self,
        a: &[Vector6<f64>],
        _sources: &[usize],
        x: &mut [Vector6<f64>],
        lambda: &mut [f64],
    ) {
        let zero = vec![0.0; lambda.len()];
        self.solve(a, &zero, x, lambda);
    }
}

/// Dense LU of the whole system: O((6n + m)³). The test oracle, and the path for graphs with loops.
#[derive(Debug, Default)]
pub struct DenseSolver {
    lu: Option<nalgebra::LU<f64, nalgebra::Dyn, nalgebra::Dyn>>,
    bodies: usize,
}

impl SaddlePointSolver for DenseSolver {
    fn factor(&mut self, sys: &BlockSystem) -> Result<(), SolveError> {
        let lu = sys.to_dense().lu();
        if !lu.is_invertible() {
            return Err(SolveError::Singular("dense LU found a zero pivot".into()));
        }
        self.bodies = sys.bodies();
        self.lu = Some(lu);
        Ok(())
    }

    fn solve(&mut self, a: &[Vector6<f64>], b: &[f64], x: &mut [Vector6<f64>], lambda: &mut [f64]) {
        let Some(lu) = &self.lu else { return };
        let n6 = 6 * self.bodies;
        let mut rhs = DVector::zeros(n6 + b.len());
        for (i, ai) in a.iter().enumerate() {
            rhs.rows_mut(6 * i, 6).copy_from(ai);
        }
        rhs.rows_mut(n6, b.len()).copy_from_slice(b);
        if let Some(sol) = lu.solve(&rhs) {
            for (i, xi) in x.iter_mut().enumerate() {
                *xi = sol.fixed_rows::<6>(6 * i).into_owned();
            }
            lambda.copy_from_slice(sol.rows(n6, b.len()).as_slice());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dense_solution_satisfies_both_block_rows() {
        // Two bodies, a ball joint between them (3 rows) and one attaching body 0 to the world (3 rows).
        let mut diag = vec![Matrix6::identity() * 2.0, Matrix6::identity() * 3.0];
        diag[0][(0, 1)] = 0.1; // a little non-symmetry
        let mut ja = Matrix6::zeros();
        let mut jb = Matrix6::zeros();
        for r in 0..3 {
            ja[(r, 3 + r)] = 1.0;
            jb[(r, 3 + r)] = -1.0;
            ja[(r, r)] = 0.2;
        }
        let sys = BlockSystem {
            diag,
            couplings: vec![Coupling {
                i: 0,
                j: 1,
                a_ij: Matrix6::identity() * 0.3,
                a_ji: Matrix6::identity() * 0.1,
            }],
            constraints: vec![
                ConstraintBlock {
                    rows: 3,
                    body_a: 0,
                    body_b: Some(1),
                    ja,
                    jb,
                },
                ConstraintBlock {
                    rows: 3,
                    body_a: 0,
                    body_b: None,
                    ja,
                    jb: Matrix6::zeros(),
                },
            ],
        };
        let a = vec![
            Vector6::new(1.0, 2.0, 3.0, 4.0, 5.0, 6.0),
            Vector6::new(-1.0, 0.5, 0.0, 2.0, -3.0, 1.0),
        ];
        let b = [0.1, 0.2, 0.3, -0.1, 0.0, 0.4];
        let mut solver = DenseSolver::default();
        solver.factor(&sys).unwrap();
        let mut x = vec![Vector6::zeros(); 2];
        let mut lambda = vec![0.0; 6];
        solver.solve(&a, &b, &mut x, &mut lambda);
        // A x − Jᵀλ = a
        let mut ax = vec![Vector6::zeros(); 2];
        sys.mul_a(&x, &mut ax);
        let neg: Vec<f64> = lambda.iter().map(|l| -l).collect();
        sys.add_jt(&neg, &mut ax);
        for i in 0..2 {
            assert!((ax[i] - a[i]).norm() < 1e-12);
        }
        // J x = b
        let mut jx = [0.0; 6];
        sys.mul_j(&x, &mut jx);
        for r in 0..6 {
            assert!((jx[r] - b[r]).abs() < 1e-12);
        }
    }
}
