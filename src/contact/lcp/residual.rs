//! Accuracy measures for LCP solutions.

use nalgebra::{DMatrix, DVector};

/// The complementarity residual of `z` for the LCP (M, q):
///
/// ```text
/// max over i of max(−z_i, −w_i, |z_i · w_i|),   w = M z + q
/// ```
///
/// It is 0 exactly at a solution; the first two terms measure infeasibility, the third complementarity. It is
/// absolute (not scaled by ‖q‖): contact LCPs are solved in SI units where impulses and velocities are O(1), and a
/// fixed threshold is what the tests and the step loop want. Returns 0 for n = 0 and `f64::INFINITY` on
/// mismatched shapes or non-finite values, so it never panics and never reports a bad `z` as good.
pub fn complementarity_residual(m: &DMatrix<f64>, q: &DVector<f64>, z: &DVector<f64>) -> f64 {
    complementarity_residual_in(m, q, z, &mut DVector::zeros(q.len()))
}

/// [`complementarity_residual`] with `w` as the buffer of `M z + q` (resized as needed, so a solver that keeps it
/// does not allocate per solve).
// Inlined into Lemke's baseline and AVX2 copies (`math::dispatch`).
#[inline(always)]
pub(crate) fn complementarity_residual_in(
    m: &DMatrix<f64>,
    q: &DVector<f64>,
    z: &DVector<f64>,
    w: &mut DVector<f64>,
) -> f64 {
    let n = q.len();
    if m.nrows() != n || m.ncols() != n || z.len() != n {
        return f64::INFINITY;
    }
    let w = slack(m, q, z, w);
    let mut r: f64 = 0.0;
    for i in 0..n {
        let term = (-z[i]).max(-w[i]).max((z[i] * w[i]).abs());
        if !term.is_finite() {
            return f64::INFINITY;
        }
        r = r.max(term);
    }
    r
}

/// The natural-map residual of `z` for the boxed LCP (mixed complementarity problem) `lo ≤ z ≤ hi` with
/// `w = M z + q` ≥ 0 where `z_i = lo_i`, ≤ 0 where `z_i = hi_i`, = 0 in between:
///
/// ```text
/// max over i of |z_i − clamp(z_i − w_i, lo_i, hi_i)|
/// ```
///
/// It is 0 exactly at a solution. With `lo = 0, hi = ∞` it is the natural residual max |min(z_i, w_i)| of the
/// plain LCP, a different (first-order) measure from [`complementarity_residual`]. Friction bounds that depend
/// on a normal row's z are passed already evaluated. `f64::INFINITY` on mismatched shapes or non-finite values.
pub fn boxed_residual(
    m: &DMatrix<f64>,
    q: &DVector<f64>,
    z: &DVector<f64>,
    lo: &[f64],
    hi: &[f64],
) -> f64 {
    boxed_residual_in(m, q, z, lo, hi, &mut DVector::zeros(q.len()))
}

/// [`boxed_residual`] with `w` as the buffer of `M z + q` (see [`complementarity_residual_in`]).
pub(crate) fn boxed_residual_in(
    m: &DMatrix<f64>,
    q: &DVector<f64>,
    z: &DVector<f64>,
    lo: &[f64],
    hi: &[f64],
    w: &mut DVector<f64>,
) -> f64 {
    let n = q.len();
    if m.nrows() != n || m.ncols() != n || z.len() != n || lo.len() != n || hi.len() != n {
        return f64::INFINITY;
    }
    let w = slack(m, q, z, w);
    let mut r: f64 = 0.0;
    for i in 0..n {
        // max/min rather than f64::clamp: clamp panics when lo > hi, and a caller's bad bounds must not panic.
        let proj = (z[i] - w[i]).max(lo[i]).min(hi[i]);
        let term = (z[i] - proj).abs();
        if !term.is_finite() {
            return f64::INFINITY;
        }
        r = r.max(term);
    }
    r
}

/// `w = M z + q` into the buffer (the same gemm and sum as `m * z + q`, so the figures do not move).
fn slack<'w>(
    m: &DMatrix<f64>,
    q: &DVector<f64>,
    z: &DVector<f64>,
    w: &'w mut DVector<f64>,
) -> &'w DVector<f64> {
    let n = q.len();
    if w.len() != n {
        super::zeroed_vector(w, n);
    }
    let ws = w.as_mut_slice();
    ws.fill(0.0);
    // Column by column (M is column-major), skipping the columns of z_j = 0: a contact solution has most of its
    // z at zero (the 48-variable pyramid of 8 contacts about 20 basic), and such a column only adds ±0, so the
    // values are those of the full product (a zero's sign aside), at half the cost.
    for (col, &zj) in m.as_slice().chunks_exact(n.max(1)).zip(z.as_slice()) {
        if zj != 0.0 {
            for (wi, mij) in ws.iter_mut().zip(col) {
                *wi += mij * zj;
            }
        }
    }
    for (wi, qi) in ws.iter_mut().zip(q.as_slice()) {
        *wi += qi;
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_at_a_solution_positive_off_it() {
        let m = DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 1.0, 2.0]);
        let q = DVector::from_vec(vec![-1.0, 1.0]);
        // z = (0.5, 0): w = (0, 1.5).
        let z = DVector::from_vec(vec![0.5, 0.0]);
        assert_eq!(complementarity_residual(&m, &q, &z), 0.0);
        assert_eq!(
            boxed_residual(&m, &q, &z, &[0.0; 2], &[f64::INFINITY; 2]),
            0.0
        );
        let bad = DVector::from_vec(vec![0.0, 0.0]);
        assert_eq!(complementarity_residual(&m, &q, &bad), 1.0);
        let neg = DVector::from_vec(vec![-0.5, 0.0]);
        assert!(complementarity_residual(&m, &q, &neg) >= 0.5);
    }

    #[test]
    fn bad_shapes_and_nan_are_infinite() {
        let m = DMatrix::<f64>::identity(2, 2);
        let q = DVector::from_vec(vec![1.0, 1.0]);
        assert_eq!(
            complementarity_residual(&m, &q, &DVector::zeros(3)),
            f64::INFINITY
        );
        let nan = DVector::from_vec(vec![f64::NAN, 0.0]);
        assert_eq!(complementarity_residual(&m, &q, &nan), f64::INFINITY);
        assert_eq!(
            boxed_residual(&m, &q, &nan, &[0.0; 2], &[1.0; 2]),
            f64::INFINITY
        );
        assert_eq!(
            complementarity_residual(
                &DMatrix::zeros(0, 0),
                &DVector::zeros(0),
                &DVector::zeros(0)
            ),
            0.0
        );
    }
}
