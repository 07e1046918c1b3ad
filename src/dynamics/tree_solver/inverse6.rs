//! Inverse of one pivot block (N×N, N ≤ 6: a body's 6×6 or a joint group's exact size) by Gauss–Jordan
//! elimination with partial pivoting.
//!
//! The tree solver keeps explicit inverses of its pivots: one inverse then matrix products is cheaper than
//! column-by-column LU solves for the two or three blocks per pivot, and makes the solve pass plain products.
//! Hand-written on fixed arrays (rather than nalgebra's generic LU) because it is the hottest loop of the
//! factorisation: this version has no bounds checks left and was 3× faster in `examples/chain_scaling`.

use nalgebra::{Matrix3, Matrix6, SMatrix};

use super::exact::{block, mul};

/// `m⁻¹`, or `None` when a pivot is not above `tol` in magnitude (or is not finite). The pivots are those of
/// an LU with partial pivoting, so `tol` is an absolute threshold on them.
pub(super) fn invert<const N: usize>(
    m: &SMatrix<f64, N, N>,
    tol: f64,
) -> Option<SMatrix<f64, N, N>> {
    // In place (Numerical Recipes' `gaussj` with row pivoting): column k of the eliminated matrix is only e_k,
    // so it stores column k of the inverse instead; the row exchanges are undone as column exchanges at the end.
    // Half the work of carrying a separate identity, with the same pivots.
    let mut a = [[0.0f64; N]; N];
    for (i, ar) in a.iter_mut().enumerate() {
        for (j, e) in ar.iter_mut().enumerate() {
            *e = m[(i, j)];
        }
    }
    let mut perm = [0usize; N];
    for k in 0..N {
        let mut p = k;
        for i in k + 1..N {
            if a[i][k].abs() > a[p][k].abs() {
                p = i;
            }
        }
        let d = a[p][k];
        if !(d.abs() > tol && d.is_finite()) {
            return None;
        }
        a.swap(k, p);
        perm[k] = p;
        let r = 1.0 / d;
        a[k][k] = 1.0;
        for e in a[k].iter_mut() {
            *e *= r;
        }
        let ak = a[k];
        for (i, ar) in a.iter_mut().enumerate() {
            let l = ar[k];
            if i == k || l == 0.0 {
                continue;
            }
            ar[k] = 0.0;
            for j in 0..N {
                ar[j] -= l * ak[j];
            }
        }
    }
    for k in (0..N).rev() {
        let p = perm[k];
        if p != k {
            for ar in a.iter_mut() {
                ar.swap(k, p);
            }
        }
    }
    Some(SMatrix::from_fn(|i, j| a[i][j]))
}

/// Below this `|det| / max|entry|³`, a 3×3 block is too close to singular for the closed form: the pivoting
/// elimination takes it (and decides with [`invert`]'s threshold whether it is singular).
const CLOSED_FORM_MIN_DET: f64 = 1e-9;

/// `m⁻¹` of a 3×3 block by its adjugate, when its determinant is comfortably non-zero relative to its scale.
// Inlined: three calls per front, whose 3×3 arguments and results otherwise go through memory.
#[inline(always)]
fn closed_form3(m: &Matrix3<f64>) -> Option<Matrix3<f64>> {
    let scale = amax(m.as_slice());
    let c0 = m.column(1).cross(&m.column(2));
    let c1 = m.column(2).cross(&m.column(0));
    let c2 = m.column(0).cross(&m.column(1));
    let det = m.column(0).dot(&c0);
    if !(det.abs() > CLOSED_FORM_MIN_DET * scale * scale * scale && det.is_finite()) {
        return None;
    }
    // The rows of the inverse are the cross products of the columns over the determinant.
    Some(Matrix3::from_rows(&[c0.transpose(), c1.transpose(), c2.transpose()]) / det)
}

/// `max |x_i|` with four independent running maxima instead of nalgebra's `amax` fold: the same value
/// (`f64::max` is exact and order-free; NaNs aside, which the callers reject by their own tests), but the fold is
/// one long dependency chain of NaN-aware blends, which was ~30 % of a front's time for a 6×6 pivot.
#[inline(always)]
pub(super) fn amax(x: &[f64]) -> f64 {
    let mut m = [0.0f64; 4];
    for c in x.chunks(4) {
        for (mi, v) in m.iter_mut().zip(c) {
            *mi = mi.max(v.abs());
        }
    }
    m[0].max(m[1]).max(m[2].max(m[3]))
}

/// A joint group's `N×N` pivot inverse: the closed form for 3×3 (ball joints), else (and for nearly singular
/// blocks) [`invert`] with the threshold `rel_tol · max|m|` (computed only then).
// Inlined into the solver's baseline and AVX2 copies (`math::dispatch`).
#[inline(always)]
pub(super) fn invert_small<const N: usize>(
    m: &SMatrix<f64, N, N>,
    rel_tol: f64,
) -> Option<SMatrix<f64, N, N>> {
    if N == 3 {
        let m3 = Matrix3::from_fn(|i, j| m[(i, j)]);
        if let Some(inv) = closed_form3(&m3) {
            return Some(SMatrix::from_fn(|i, j| inv[(i, j)]));
        }
    }
    invert(m, rel_tol * amax(m.as_slice()))
}

/// The inverse of a prescribed root's rows `J = [[0, I], [D, 0]]` (position rows on the linear velocity, orientation
/// rows `D` on the angular one: `Prescribed::evaluate`) as `[[0, D⁻¹], [I, 0]]`, when `J` has exactly that form and
/// `D` inverts in closed form; `None` otherwise (the caller then takes the general elimination).
pub(super) fn invert_anti_diagonal(j: &Matrix6<f64>) -> Option<Matrix6<f64>> {
    // Branch-free like `ball::axis`: every entry that must be ±0 (an identity entry minus one) OR-ed by its bits.
    let mut bits = 0u64;
    for c in 0..6 {
        for r in 0..6 {
            let must_vanish = match (r < 3, c < 3) {
                // The lower left block is `D`.
                (false, true) => continue,
                (true, false) if r + 3 == c => j[(r, c)] - 1.0,
                _ => j[(r, c)],
            };
            bits |= must_vanish.to_bits() << 1;
        }
    }
    if bits != 0 {
        return None;
    }
    let d_inv = closed_form3(&block::<6, 6, 3, 3>(j, 3, 0))?;
    let mut inv = Matrix6::zeros();
    inv.fixed_view_mut::<3, 3>(0, 3).copy_from(&d_inv);
    for i in 0..3 {
        inv[(3 + i, i)] = 1.0;
    }
    Some(inv)
}

/// A body's 6×6 pivot inverse by 3×3 blocks `[[A, B], [C, D]]` (angular, linear): `A⁻¹` and the inverse of the
/// Schur complement `S = D − C A⁻¹ B` in closed form, then
/// `[[A⁻¹ + A⁻¹B S⁻¹ C A⁻¹, −A⁻¹B S⁻¹], [−S⁻¹C A⁻¹, S⁻¹]]`. Body pivots are mass-like (the angular block holds
/// the rotational inertia, the linear one the mass, plus the children's positive updates), so block elimination
/// without pivoting is stable here, and branch-free 3×3 products are several times faster than the pivoting
/// elimination. When `A` or `S` is nearly singular, [`invert`] decides, with the threshold `rel_tol · max|m|`
/// (computed only then: the closed forms test their own scale).
pub(super) fn invert_body(m: &Matrix6<f64>, rel_tol: f64) -> Option<Matrix6<f64>> {
    let a: Matrix3<f64> = block::<6, 6, 3, 3>(m, 0, 0);
    let b: Matrix3<f64> = block::<6, 6, 3, 3>(m, 0, 3);
    let c: Matrix3<f64> = block::<6, 6, 3, 3>(m, 3, 0);
    let d: Matrix3<f64> = block::<6, 6, 3, 3>(m, 3, 3);
    if b.iter().chain(c.iter()).all(|x| *x == 0.0) {
        // A leaf's pivot (its own `M̃`, no children's updates) is block diagonal: the general form's products
        // with `B` and `C` are zeros, so `[[A⁻¹, 0], [0, D⁻¹]]` has the same non-zero entries (`D − 0 = D`,
        // `A⁻¹ + 0 = A⁻¹`), only the signs of some zeros may differ. Five 3×3 products fewer.
        if let (Some(ai), Some(di)) = (closed_form3(&a), closed_form3(&d)) {
            let mut inv = Matrix6::zeros();
            inv.fixed_view_mut::<3, 3>(0, 0).copy_from(&ai);
            inv.fixed_view_mut::<3, 3>(3, 3).copy_from(&di);
            return Some(inv);
        }
    }
    let fast = closed_form3(&a).and_then(|ai| {
        let aib = mul(&ai, &b);
        let cai = mul(&c, &ai);
        let si = closed_form3(&(d - mul(&c, &aib)))?;
        let aib_si = mul(&aib, &si);
        let si_cai = mul(&si, &cai);
        let mut inv = Matrix6::zeros();
        inv.fixed_view_mut::<3, 3>(0, 0)
            .copy_from(&(ai + mul(&aib_si, &cai)));
        inv.fixed_view_mut::<3, 3>(0, 3).copy_from(&(-aib_si));
        inv.fixed_view_mut::<3, 3>(3, 0).copy_from(&(-si_cai));
        inv.fixed_view_mut::<3, 3>(3, 3).copy_from(&si);
        Some(inv)
    });
    fast.or_else(|| invert(m, rel_tol * amax(m.as_slice())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverts_a_prescribed_roots_rows_by_their_blocks() {
        let d = Matrix3::new(0.9, -0.2, 0.1, 0.25, 1.1, -0.3, -0.05, 0.4, 0.95);
        let mut j = Matrix6::zeros();
        j.fixed_view_mut::<3, 3>(0, 3)
            .copy_from(&Matrix3::identity());
        j.fixed_view_mut::<3, 3>(3, 0).copy_from(&d);
        let inv = invert_anti_diagonal(&j).expect("prescribed rows");
        assert!((inv * j - Matrix6::identity()).amax() < 1e-15);
        assert!((inv - invert(&j, 1e-14).expect("regular")).amax() < 1e-15);
        // Any other entry, a scaled identity or a singular D: not this form (the general elimination decides).
        for (r, c) in [(0, 0), (1, 5), (4, 4), (2, 1)] {
            let mut other = j;
            other[(r, c)] += 1e-300;
            assert!(invert_anti_diagonal(&other).is_none(), "entry ({r}, {c})");
        }
        let mut scaled = j;
        scaled[(1, 4)] += f64::EPSILON;
        assert!(invert_anti_diagonal(&scaled).is_none());
        let mut singular = j;
        singular.fixed_view_mut::<3, 3>(3, 0).fill(0.0);
        assert!(invert_anti_diagonal(&singular).is_none());
    }

    #[test]
    fn inverts_a_pivoting_matrix_and_rejects_singular_ones() {
        // A zero diagonal forces row exchanges.
        let a = Matrix6::from_fn(|r, c| {
            if r == c {
                0.0
            } else {
                1.0 / (1.0 + (r + 2 * c) as f64) + (r == 5) as u8 as f64
            }
        });
        let inv = invert(&a, 1e-14).expect("regular");
        assert!((a * inv - Matrix6::identity()).norm() < 1e-12);
        assert!((inv * a - Matrix6::identity()).norm() < 1e-12);
        let mut s = a;
        let r0 = s.row(0).into_owned();
        s.set_row(3, &(r0 * 2.0));
        assert!(invert(&s, 1e-12).is_none());
        assert!(invert(&Matrix6::repeat(f64::NAN), 0.0).is_none());
        assert!(invert(&Matrix6::zeros(), 0.0).is_none());
        // The exact-size joint pivots use the same code.
        let b = Matrix3::new(0.0, 2.0, 1.0, 1.0, 0.0, 3.0, 4.0, 1.0, 0.0);
        let inv = invert(&b, 1e-14).expect("regular 3×3");
        assert!((b * inv - Matrix3::identity()).norm() < 1e-12);
        // The closed forms agree with the pivoting elimination; nearly singular blocks fall back to it.
        let closed = invert_small(&b, 1e-14).expect("closed form");
        assert!((closed - inv).norm() < 1e-12);
        let body = Matrix6::from_fn(|r, c| {
            if r == c {
                [0.02, 0.03, 0.025, 5.0, 5.0, 5.0][r]
            } else {
                0.001 * ((r * 7 + c * 3) % 5) as f64
            }
        });
        let fast = invert_body(&body, 1e-14).expect("body pivot");
        let slow = invert(&body, 1e-14).expect("body pivot");
        assert!((fast - slow).norm() <= 1e-10 * slow.norm());
        assert!((body * fast - Matrix6::identity()).norm() < 1e-12);
        // A singular angular block (a massless body) goes to the pivoting path, which rejects it.
        let mut massless = body;
        massless.fixed_view_mut::<3, 3>(0, 0).fill(0.0);
        massless.fixed_view_mut::<3, 3>(0, 3).fill(0.0);
        assert!(invert_body(&massless, 1e-12).is_none());
        // A zero A with a regular matrix: the fallback still inverts it.
        let mut swapped = Matrix6::zeros();
        swapped
            .fixed_view_mut::<3, 3>(0, 3)
            .copy_from(&Matrix3::identity());
        swapped
            .fixed_view_mut::<3, 3>(3, 0)
            .copy_from(&(Matrix3::identity() * 2.0));
        let inv = invert_body(&swapped, 1e-12).expect("regular");
        assert!((swapped * inv - Matrix6::identity()).norm() < 1e-12);
    }
}
