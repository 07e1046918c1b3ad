//! Projected Gauss–Seidel (with over-relaxation): the iterative LCP / boxed-LCP solver of game engines.
//!
//! One sweep visits the rows in order and sets
//!
//! ```text
//! z_i ← clamp(z_i − ω (M z + q)_i / M_ii, lo_i, hi_i)
//! ```
//!
//! with the newest values of the other rows (Gauss–Seidel). The default bounds are [0, ∞) (the plain LCP). A
//! [`RowBound::Friction`] row is boxed by ±μ times the *current* z of its normal row, the "boxed LCP" form of
//! friction games use (two tangent rows per contact instead of the pyramid's m directions and λ row). PGS
//! converges for symmetric positive definite M with 0 < ω < 2 and is the usual choice when an approximate answer
//! in fixed time beats an exact one; it needs M_ii > 0 (rows with M_ii ≤ 0 are left at their projected start)
//! and it cannot handle the zero-diagonal λ rows of the Anitescu–Potra pyramid: use [`super::Lemke`] there.

use nalgebra::{DMatrix, DVector};

use super::{
    LcpError, LcpReport, LcpSolver, begin_solve, boxed_residual_in, complementarity_residual_in,
    zeroed_matrix,
};

/// Bounds of one PGS row.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RowBound {
    /// 0 ≤ z_i (the plain LCP row).
    NonNegative,
    /// lo ≤ z_i ≤ hi (lo may be −∞, hi may be +∞; a row with lo > hi is held at lo).
    Box {
        /// Lower bound.
        lo: f64,
        /// Upper bound.
        hi: f64,
    },
    /// −μ z_normal ≤ z_i ≤ μ z_normal: a friction row tied to normal row `normal`.
    Friction {
        /// Index of the normal row.
        normal: usize,
        /// Friction coefficient μ ≥ 0.
        mu: f64,
    },
}

/// Settings of [`Pgs`].
#[derive(Debug, Clone, PartialEq)]
pub struct PgsOptions {
    /// Sweep limit. Default 200.
    pub max_iterations: usize,
    /// Stop when the largest change of a sweep is at most `tolerance · max(1, max|z|)`. Default 1e-10.
    pub tolerance: f64,
    /// Over-relaxation factor ω in (0, 2); 1 is plain Gauss–Seidel. Default 1.
    pub sor: f64,
    /// Start from the incoming z (clamped to its bounds) instead of 0.
    pub warm_start: bool,
    /// Per-row bounds; empty: every row [`RowBound::NonNegative`]. Otherwise one per row.
    pub bounds: Vec<RowBound>,
}

impl Default for PgsOptions {
    fn default() -> Self {
        Self {
            max_iterations: 200,
            tolerance: 1e-10,
            sor: 1.0,
            warm_start: false,
            bounds: Vec::new(),
        }
    }
}

/// Projected Gauss–Seidel / SOR. Reaching the sweep limit is not an error: the last iterate is returned with
/// `converged = false` and its residual, as a fixed-budget solver should.
#[derive(Debug, Clone, Default)]
pub struct Pgs {
    /// Settings.
    pub options: PgsOptions,
    inv_diag: Vec<f64>,
    mt: DMatrix<f64>,
    /// Buffers of the residual: the bounds at the solution and `M z + q`.
    lo: Vec<f64>,
    hi: Vec<f64>,
    w: DVector<f64>,
}

impl Pgs {
    /// A solver with the given settings.
    pub fn new(options: PgsOptions) -> Self {
        Self {
            options,
            ..Self::default()
        }
    }

    fn check(&self, n: usize) -> Result<(), LcpError> {
        let o = &self.options;
        if !(o.sor > 0.0 && o.sor < 2.0) {
            return Err(LcpError::InvalidOption {
                what: "PGS over-relaxation factor must lie in (0, 2)",
            });
        }
        if !o.bounds.is_empty() && o.bounds.len() != n {
            return Err(LcpError::InvalidOption {
                what: "PGS bounds: one per row, or none",
            });
        }
        for b in &o.bounds {
            let ok = match *b {
                RowBound::NonNegative => true,
                RowBound::Box { lo, hi } => !lo.is_nan() && !hi.is_nan(),
                RowBound::Friction { normal, mu } => normal < n && mu.is_finite() && mu >= 0.0,
            };
            if !ok {
                return Err(LcpError::InvalidOption {
                    what: "PGS bound: NaN box, friction μ not finite ≥ 0, or normal row out of range",
                });
            }
        }
        Ok(())
    }

    /// The bounds of row i at the current z.
    fn bound(&self, i: usize, z: &DVector<f64>) -> (f64, f64) {
        match self
            .options
            .bounds
            .get(i)
            .copied()
            .unwrap_or(RowBound::NonNegative)
        {
            RowBound::NonNegative => (0.0, f64::INFINITY),
            RowBound::Box { lo, hi } => (lo, hi.max(lo)),
            RowBound::Friction { normal, mu } => {
                let f = mu * z[normal].max(0.0);
                (-f, f)
            }
        }
    }
}

impl LcpSolver for Pgs {
    fn solve(
        &mut self,
        m: &DMatrix<f64>,
        q: &DVector<f64>,
        z: &mut DVector<f64>,
    ) -> Result<LcpReport, LcpError> {
        let n = q.len();
        let warm = begin_solve(m, q, z, |n| self.check(n))? && self.options.warm_start;
        if !warm {
            z.as_mut_slice().fill(0.0);
        }
        // Column-major storage makes rows strided; one O(n²) transpose per solve costs about one sweep.
        if self.mt.shape() != (n, n) {
            zeroed_matrix(&mut self.mt, n, n);
        }
        m.transpose_to(&mut self.mt);
        self.inv_diag.clear();
        // A non-positive diagonal cannot be relaxed on: 0 marks the row as frozen.
        self.inv_diag.extend((0..n).map(|i| {
            if m[(i, i)] > 0.0 {
                1.0 / m[(i, i)]
            } else {
                0.0
            }
        }));
        for i in 0..n {
            let (lo, hi) = self.bound(i, z);
            z[i] = z[i].max(lo).min(hi);
        }
        let omega = self.options.sor;
        let mut report = LcpReport {
            warm_started: warm,
            ..LcpReport::default()
        };
        for _ in 0..self.options.max_iterations {
            report.iterations += 1;
            let mut change: f64 = 0.0;
            let mut size: f64 = 1.0;
            for i in 0..n {
                let (lo, hi) = self.bound(i, z);
                // Row i of M is column i of the stored transpose: contiguous in memory.
                let wi = self.mt.column(i).dot(z) + q[i];
                let new = (z[i] - omega * wi * self.inv_diag[i]).max(lo).min(hi);
                change = change.max((new - z[i]).abs());
                z[i] = new;
                size = size.max(new.abs());
            }
            if !change.is_finite() {
                break;
            }
            if change <= self.options.tolerance * size {
                report.converged = true;
                break;
            }
        }
        if z.iter().any(|v| !v.is_finite()) {
            // Divergence (ω too large for an indefinite M, say): return a finite z and an honest residual.
            z.as_mut_slice().fill(0.0);
            report.converged = false;
        }
        report.residual = if self.options.bounds.is_empty() {
            complementarity_residual_in(m, q, z, &mut self.w)
        } else {
            self.lo.clear();
            self.hi.clear();
            for i in 0..n {
                let (lo, hi) = self.bound(i, z);
                self.lo.push(lo);
                self.hi.push(hi);
            }
            boxed_residual_in(m, q, z, &self.lo, &self.hi, &mut self.w)
        };
        Ok(report)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_a_small_lcp_and_a_friction_box() {
        let m = DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 1.0, 2.0]);
        let q = DVector::from_vec(vec![-1.0, 1.0]);
        let mut z = DVector::zeros(2);
        let r = Pgs::default().solve(&m, &q, &mut z).unwrap();
        assert!(r.converged && r.residual < 1e-9, "{r:?}");
        assert!((z[0] - 0.5).abs() < 1e-9 && z[1] == 0.0);

        // Normal row 0 pushes (z_n = 1); tangent row 1 wants −2 but is boxed by μ z_n = 0.5.
        let m = DMatrix::from_row_slice(2, 2, &[1.0, 0.0, 0.0, 1.0]);
        let q = DVector::from_vec(vec![-1.0, 2.0]);
        let mut pgs = Pgs::new(PgsOptions {
            bounds: vec![
                RowBound::NonNegative,
                RowBound::Friction { normal: 0, mu: 0.5 },
            ],
            ..PgsOptions::default()
        });
        let mut z = DVector::zeros(2);
        let r = pgs.solve(&m, &q, &mut z).unwrap();
        assert!(r.converged && r.residual < 1e-12, "{r:?}");
        assert_eq!(z.as_slice(), &[1.0, -0.5]);
    }

    #[test]
    fn bad_options_and_zero_diagonals_do_not_panic() {
        let m = DMatrix::from_row_slice(2, 2, &[0.0, 0.0, 0.0, 1.0]);
        let q = DVector::from_vec(vec![-1.0, -1.0]);
        let mut z = DVector::zeros(2);
        let r = Pgs::default().solve(&m, &q, &mut z).unwrap();
        assert!(r.converged && z[0] == 0.0 && (z[1] - 1.0).abs() < 1e-12);
        let mut bad = Pgs::new(PgsOptions {
            sor: 2.5,
            ..PgsOptions::default()
        });
        assert!(matches!(
            bad.solve(&m, &q, &mut z),
            Err(LcpError::InvalidOption { .. })
        ));
        let mut bad = Pgs::new(PgsOptions {
            bounds: vec![
                RowBound::Friction { normal: 7, mu: 1.0 },
                RowBound::NonNegative,
            ],
            ..PgsOptions::default()
        });
        assert!(matches!(
            bad.solve(&m, &q, &mut z),
            Err(LcpError::InvalidOption { .. })
        ));
    }
}
