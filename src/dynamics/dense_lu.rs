//! A dense LU solver for [`BlockSystem`]s that reuses its buffers: after the first factorisation of a given size
//! it never allocates. O((6n + m)³): for small systems, tests, and allocation-free runs before a sparse solver is
//! plugged in. The allocating [`super::DenseSolver`] stays the reference oracle.

use nalgebra::{DMatrix, Vector6};

use super::system::{BlockSystem, SaddlePointSolver, SolveError};

/// Dense LU with partial pivoting, in place in a reused matrix.
#[derive(Debug, Default, Clone)]
pub struct DenseLuSolver {
    lu: DMatrix<f64>,
    perm: Vec<usize>,
    rhs: Vec<f64>,
    bodies: usize,
}

impl DenseLuSolver {
    /// An empty solver; buffers are sized on the first [`SaddlePointSolver::factor`].
    pub fn new() -> Self {
        Self::default()
    }

    fn fill(&mut self, sys: &BlockSystem) {
        let n6 = 6 * sys.bodies();
        let n = n6 + sys.constraint_rows();
        if self.lu.nrows() != n {
            self.lu = DMatrix::zeros(n, n);
            self.perm = vec![0; n];
            self.rhs = vec![0.0; n];
        } else {
            self.lu.fill(0.0);
        }
        let k = &mut self.lu;
        for (i, d) in sys.diag.iter().enumerate() {
            k.view_mut((6 * i, 6 * i), (6, 6)).copy_from(d);
        }
        for c in &sys.couplings {
            k.view_mut((6 * c.i, 6 * c.j), (6, 6)).copy_from(&c.a_ij);
            k.view_mut((6 * c.j, 6 * c.i), (6, 6)).copy_from(&c.a_ji);
        }
        let mut off = n6;
        for c in &sys.constraints {
            for (body, jac) in [(Some(c.body_a), &c.ja), (c.body_b, &c.jb)] {
                let Some(body) = body else { continue };
                for r in 0..c.rows {
                    for col in 0..6 {
                        k[(off + r, 6 * body + col)] = jac[(r, col)];
                        k[(6 * body + col, off + r)] = -jac[(r, col)];
                    }
                }
            }
            off += c.rows;
        }
        self.bodies = sys.bodies();
    }
}

impl SaddlePointSolver for DenseLuSolver {
    fn factor(&mut self, sys: &BlockSystem) -> Result<(), SolveError> {
        self.fill(sys);
        let n = self.lu.nrows();
        let scale = self.lu.amax().max(f64::MIN_POSITIVE);
        for col in 0..n {
            // Partial pivoting: the largest entry of the column at or below the diagonal.
            let mut p = col;
            let mut best = self.lu[(col, col)].abs();
            for r in col + 1..n {
                let v = self.lu[(r, col)].abs();
                if v > best {
                    best = v;
                    p = r;
                }
            }
            if best <= 1e-14 * scale {
                return Err(SolveError::Singular(format!(
                    "dense LU: zero pivot in column {col} of {n}"
                )));
            }
            self.perm[col] = p;
            if p != col {
                self.lu.swap_rows(col, p);
            }
            let piv = self.lu[(col, col)];
            for r in col + 1..n {
                let l = self.lu[(r, col)] / piv;
                self.lu[(r, col)] = l;
                if l != 0.0 {
                    for c2 in col + 1..n {
                        let u = self.lu[(col, c2)];
                        self.lu[(r, c2)] -= l * u;
                    }
                }
            }
        }
        Ok(())
    }

    fn solve(&mut self, a: &[Vector6<f64>], b: &[f64], x: &mut [Vector6<f64>], lambda: &mut [f64]) {
        let n = self.lu.nrows();
        let n6 = 6 * self.bodies;
        if n != n6 + b.len() {
            return;
        }
        for (i, ai) in a.iter().enumerate() {
            self.rhs[6 * i..6 * i + 6].copy_from_slice(ai.as_slice());
        }
        self.rhs[n6..].copy_from_slice(b);
        for col in 0..n {
            self.rhs.swap(col, self.perm[col]);
        }
        for r in 0..n {
            let mut s = self.rhs[r];
            for c in 0..r {
                s -= self.lu[(r, c)] * self.rhs[c];
            }
            self.rhs[r] = s;
        }
        for r in (0..n).rev() {
            let mut s = self.rhs[r];
            for c in r + 1..n {
                s -= self.lu[(r, c)] * self.rhs[c];
            }
            self.rhs[r] = s / self.lu[(r, r)];
        }
        for (i, xi) in x.iter_mut().enumerate() {
            xi.copy_from_slice(&self.rhs[6 * i..6 * i + 6]);
        }
        lambda.copy_from_slice(&self.rhs[n6..]);
    }
}
