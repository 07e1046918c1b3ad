//! Linear complementarity problem (LCP) solvers: find z with
//!
//! ```text
//! z ≥ 0,   w = M z + q ≥ 0,   zᵀ w = 0
//! ```
//!
//! for a dense n×n `M` (for contacts M = J M̃⁻¹ Jᵀ, symmetric positive semidefinite and often singular because
//! contacts are redundant, or the non-symmetric friction-pyramid matrix of [`pyramid`]).
//!
//! - [`Lemke`]: complementary pivoting with an artificial variable (Cline §2.7.1), the lexicographic ratio test
//!   against cycling, the ε guard of §4.8.3, O(n²) basis-inverse updates (§4.8.1) and periodic refactorisation.
//!   Exact up to round-off; finds a solution of every feasible LCP with a copositive-plus `M` (which includes all
//!   positive semidefinite `M`, symmetric or not) and reports ray termination otherwise.
//! - [`Pgs`]: projected Gauss–Seidel / SOR with optional boxed and friction (μ·z_normal) bounds, the iterative
//!   solver games use. Needs positive diagonal entries; approximate.
//! - [`complementarity_residual`]: the accuracy measure both report and the tests check.
//!
//! The design, the rejected alternatives and the measured figures are in `docs/contact.md`.

mod basis;
mod lemke;
mod pgs;
pub mod pyramid;
mod ratio;
mod residual;

pub use basis::BasisInverse;
pub use lemke::{Lemke, LemkeOptions, TieBreak};
pub use pgs::{Pgs, PgsOptions, RowBound};
pub use residual::{boxed_residual, complementarity_residual};
pub(crate) use residual::{boxed_residual_in, complementarity_residual_in};

use nalgebra::{DMatrix, DVector};

/// A solver for the LCP `z ≥ 0, w = M z + q ≥ 0, zᵀw = 0` (or, for [`Pgs`] with bounds, its boxed variant).
pub trait LcpSolver {
    /// Solves for `z`. On entry `z` may hold a warm start (used only if the solver is configured to); it is resized
    /// to `q.len()` if needed. On `Ok`, `z` holds the solution and the report says how accurate it is; on `Err`,
    /// `z`'s content is unspecified (but finite).
    fn solve(
        &mut self,
        m: &DMatrix<f64>,
        q: &DVector<f64>,
        z: &mut DVector<f64>,
    ) -> Result<LcpReport, LcpError>;
}

/// What a solve did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LcpReport {
    /// Lemke: complementary pivots taken (including the initial pivot of the artificial variable). PGS: 0.
    pub pivots: usize,
    /// Lemke: fresh O(n³) factorisations: refactorisations of B⁻¹ and the LU solves of warm-start attempts (the
    /// initial identity basis does not count). PGS: 0.
    pub refactorisations: usize,
    /// PGS: full sweeps over the rows. Lemke: 0.
    pub iterations: usize,
    /// [`complementarity_residual`] of the returned `z` (for PGS with bounds, [`boxed_residual`]).
    pub residual: f64,
    /// The warm start was used (Lemke: its basis was accepted; PGS: the incoming `z` was the first iterate).
    pub warm_started: bool,
    /// Lemke: the warm start's answer came from the quick walk, the walk from the last basis in product form
    /// checked with one LU (`docs/contact.md`, "The quick walk"); its pivots are not counted. PGS: false.
    pub quick: bool,
    /// PGS: the tolerance was met before the sweep limit. Lemke: always true on `Ok`.
    pub converged: bool,
}

/// Why a solve failed. Never a panic: every input, however bad, ends in `Ok` or one of these.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LcpError {
    /// `M` is not square or its size differs from `q`'s.
    #[error("LCP dimensions: M is {rows}×{cols}, q has {q} entries")]
    Dimension {
        /// Rows of M.
        rows: usize,
        /// Columns of M.
        cols: usize,
        /// Entries of q.
        q: usize,
    },
    /// `M` or `q` holds a NaN or an infinity.
    #[error("LCP input is not finite ({what})")]
    NonFinite {
        /// `"M"` or `"q"`.
        what: &'static str,
    },
    /// Lemke: the entering column has no entry above the ε guard, so the ray of the artificial variable is
    /// unbounded. For a copositive-plus M this proves the LCP infeasible (no z ≥ 0 with Mz + q ≥ 0); for other
    /// matrices it means Lemke cannot solve it.
    #[error(
        "Lemke ray termination after {pivots} pivots: the entering variable {entering} is unblocked (the LCP is infeasible if M is copositive-plus)"
    )]
    RayTermination {
        /// Pivots taken before the ray.
        pivots: usize,
        /// The unblocked entering variable, e.g. `z3` or `w0`.
        entering: String,
    },
    /// Lemke: the pivot limit was reached (cycling or a problem too large for the limit).
    #[error("Lemke stopped at the pivot limit {limit} without a solution")]
    IterationLimit {
        /// The limit that was reached.
        limit: usize,
    },
    /// A solver option is unusable (e.g. a covering vector that is not positive or has the wrong length).
    #[error("invalid LCP solver option: {what}")]
    InvalidOption {
        /// Which option and why.
        what: &'static str,
    },
    /// Lemke: a refactorisation found the basis numerically singular (the pivots the ε guard accepted were too
    /// small for the problem's conditioning).
    #[error("Lemke basis became numerically singular after {pivots} pivots")]
    SingularBasis {
        /// Pivots taken.
        pivots: usize,
    },
    /// Lemke: the solution's complementarity residual is too large for its scale (round-off blown up in a nearly
    /// singular basis); it is not returned.
    #[error(
        "Lemke's solution is inaccurate: complementarity residual {residual:e} above {bound:e}"
    )]
    Inaccurate {
        /// The residual of the refused solution.
        residual: f64,
        /// The largest residual accepted for its scale.
        bound: f64,
    },
}

/// The common start of every solve: checks the problem (and the solver's own `prepare` for size `n`), zeroing
/// `z` on any error, and tells whether the incoming `z` can serve as a warm start (right size, finite); when it
/// cannot, `z` is reset to zeros of the right size.
// Inlined into the solvers' baseline and AVX2 copies (`math::dispatch`).
#[inline(always)]
pub(crate) fn begin_solve(
    m: &DMatrix<f64>,
    q: &DVector<f64>,
    z: &mut DVector<f64>,
    prepare: impl FnOnce(usize) -> Result<(), LcpError>,
) -> Result<bool, LcpError> {
    let n = q.len();
    let usable = z.len() == n && z.iter().all(|v| v.is_finite());
    if !usable {
        zeroed_vector(z, n);
    }
    if let Err(e) = validate(m, q).and_then(|()| prepare(n)) {
        z.as_mut_slice().fill(0.0);
        return Err(e);
    }
    Ok(usable)
}

/// Column `j` of `m` as a slice of its column-major storage. nalgebra's `column(j).iter()` is a general strided
/// iterator, which the compiler does not reduce to a plain walk: in the pivot loops it cost several instructions
/// and a dependency chain per entry.
#[inline]
pub(crate) fn column_of(m: &DMatrix<f64>, j: usize) -> &[f64] {
    let n = m.nrows();
    &m.as_slice()[j * n..(j + 1) * n]
}

/// Sets `m` to the identity (ones on its main diagonal) on its storage: nalgebra's `fill_with_identity` walks the
/// same strided iterator as `column(j).iter()`.
pub(crate) fn fill_identity(m: &mut DMatrix<f64>) {
    let (rows, cols) = m.shape();
    let s = m.as_mut_slice();
    s.fill(0.0);
    for i in 0..rows.min(cols) {
        s[i * rows + i] = 1.0;
    }
}

/// Resizes `m` to `rows × cols` of zeros, keeping its storage's capacity: a problem that shrinks and grows again
/// between steps (contacts come and go) reallocates only when it outgrows every earlier one. `DMatrix`'s own
/// resizing shrinks its buffer to fit, and a fresh `DMatrix::zeros` allocates every time.
pub(crate) fn zeroed_matrix(m: &mut DMatrix<f64>, rows: usize, cols: usize) {
    let mut data: Vec<f64> = std::mem::take(m).data.into();
    data.clear();
    data.resize(rows * cols, 0.0);
    *m = DMatrix::from_vec(rows, cols, data);
}

/// [`zeroed_matrix`] for a vector: `v` becomes `n` zeros, reallocating only beyond its largest earlier size.
pub(crate) fn zeroed_vector(v: &mut DVector<f64>, n: usize) {
    let mut data: Vec<f64> = std::mem::take(v).data.into();
    data.clear();
    data.resize(n, 0.0);
    *v = DVector::from_vec(data);
}

/// Checks shapes and finiteness; every solver calls it first.
pub(crate) fn validate(m: &DMatrix<f64>, q: &DVector<f64>) -> Result<(), LcpError> {
    if m.nrows() != m.ncols() || m.nrows() != q.len() {
        return Err(LcpError::Dimension {
            rows: m.nrows(),
            cols: m.ncols(),
            q: q.len(),
        });
    }
    if !all_finite(m.as_slice()) {
        return Err(LcpError::NonFinite { what: "M" });
    }
    if !all_finite(q.as_slice()) {
        return Err(LcpError::NonFinite { what: "q" });
    }
    Ok(())
}

/// Whether every value is finite (an infinity or NaN has all exponent bits set). One branch-free pass of
/// integer operations, which the compiler vectorises, where an early-exit `any(!is_finite)` tests entry by entry
/// (every solve checks its whole matrix: 2 304 entries for 8 contacts). The exponent field plus one unit of it
/// carries into the sign bit exactly when the field is all ones, and 64-bit adds, ANDs and ORs are plain SSE2
/// (a 64-bit compare is not, and kept the loop scalar: 10.5 k instructions of the 8-contact step).
pub(crate) fn all_finite(values: &[f64]) -> bool {
    const EXPONENT: u64 = 0x7ff0_0000_0000_0000;
    const EXPONENT_UNIT: u64 = 0x0010_0000_0000_0000;
    let carried = values.iter().fold(0u64, |acc, v| {
        acc | ((v.to_bits() & EXPONENT) + EXPONENT_UNIT)
    });
    carried >> 63 == 0
}

/// The pair of tableau variable `var` < 2n (w_i is i, z_i is n + i): `var % n` without the division (an integer
/// division is tens of cycles, and the basis maps take one per variable).
#[inline(always)]
pub(crate) fn pair_of(var: usize, n: usize) -> usize {
    if var >= n { var - n } else { var }
}

/// The largest |value| (0 for none; NaN entries are passed over, as `f64::max` passes them over). Four
/// independent running maxima with plain comparisons, which the compiler turns into packed max instructions: a
/// fold with `f64::max` is one serial chain of compare-and-blend per entry (its NaN rule), and those chains were
/// ≈ 6 % of the 8-contact step's time (the warm check's basis scale, `q`'s and `z`'s norms, `apply`'s column
/// norm). For finite values the result is the same number as the fold's, whatever the order.
// Inlined into Lemke's baseline and AVX2 copies (`math::dispatch`).
#[inline(always)]
pub(crate) fn abs_max(values: &[f64]) -> f64 {
    let larger = |a: f64, b: f64| if b > a { b } else { a };
    let mut lanes = [0.0_f64; 4];
    let mut chunks = values.chunks_exact(4);
    for chunk in &mut chunks {
        for (lane, v) in lanes.iter_mut().zip(chunk) {
            *lane = larger(*lane, v.abs());
        }
    }
    for (lane, v) in lanes.iter_mut().zip(chunks.remainder()) {
        *lane = larger(*lane, v.abs());
    }
    larger(larger(lanes[0], lanes[1]), larger(lanes[2], lanes[3]))
}

#[cfg(test)]
mod tests {
    use super::{abs_max, all_finite, column_of, fill_identity};
    use nalgebra::DMatrix;

    /// The slice helpers agree with nalgebra's own views on square and rectangular matrices that held other
    /// values before.
    #[test]
    fn slice_helpers_match_nalgebra() {
        for (rows, cols) in [(4, 4), (2, 3), (3, 2)] {
            let mut m = DMatrix::from_fn(rows, cols, |i, j| 1.5 + i as f64 - 2.0 * j as f64);
            for j in 0..cols {
                let want: Vec<f64> = m.column(j).iter().copied().collect();
                assert_eq!(column_of(&m, j), &want[..]);
            }
            fill_identity(&mut m);
            assert_eq!(m, DMatrix::identity(rows, cols));
        }
    }

    /// Every finite value passes, whatever its sign or size; every infinity and NaN (any sign, any payload) is
    /// caught, alone or among finite values, at any position of the vectorised loop.
    #[test]
    fn all_finite_separates_finite_values_from_infinities_and_nans() {
        let finite = [
            0.0,
            -0.0,
            1.0,
            -3.5e300,
            f64::MAX,
            f64::MIN,
            f64::MIN_POSITIVE,
            f64::from_bits(1),
            -f64::from_bits(0x000f_ffff_ffff_ffff),
            f64::EPSILON,
        ];
        assert!(all_finite(&finite));
        assert!(all_finite(&[]));
        let special = [
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            -f64::NAN,
            f64::from_bits(0x7ff0_0000_0000_0001),
            f64::from_bits(0xfff8_dead_beef_0000),
        ];
        for bad in special {
            for at in 0..finite.len() {
                let mut values = finite.to_vec();
                values.insert(at, bad);
                assert!(!all_finite(&values), "{bad:e} at {at}");
            }
        }
    }

    /// `abs_max` is the `f64::max` fold of the absolute values, bit for bit, for every length (the four lanes and
    /// the remainder) and wherever the largest entry sits; NaN entries are passed over as the fold passes them.
    #[test]
    fn abs_max_is_the_max_fold_of_absolute_values() {
        let fold = |v: &[f64]| v.iter().fold(0.0_f64, |a, x| a.max(x.abs()));
        assert_eq!(abs_max(&[]), 0.0);
        assert_eq!(abs_max(&[-0.0]).to_bits(), 0.0_f64.to_bits());
        for n in 1..=11 {
            for at in 0..n {
                let mut v: Vec<f64> = (0..n).map(|i| (i as f64 - 4.5) * 0.25).collect();
                v[at] = if at % 2 == 0 { -7.0 } else { 7.0 };
                assert_eq!(
                    abs_max(&v).to_bits(),
                    fold(&v).to_bits(),
                    "n = {n}, at {at}"
                );
                v[(at + 1) % n] = f64::NAN;
                if n > 1 {
                    assert_eq!(abs_max(&v), 7.0, "NaN passed over: n = {n}, at {at}");
                }
            }
        }
    }
}
