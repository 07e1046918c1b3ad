//! Inverse of one pivot block (N×N, N ≤ 6: a body's 6×6 or a joint group's exact size) by Gauss–Jordan
//! elimination with partial pivoting.
//!
//! The tree solver keeps explicit inverses of its pivots: one inverse then matrix products is cheaper than
//! column-by-column LU solves for the two or three blocks per pivot, and makes the solve pass plain products.
//! Hand-written on fixed arrays (rather than nalgebra's generic LU) because it is the hottest loop of the
//! factorisation: this version has no bounds checks left and was 3× faster in `examples/chain_scaling`.

use nalgebra::SMatrix;

/// `m⁻¹`, or `None` when a pivot is not above `tol` in magnitude (or is not finite). The pivots are those of
/// an LU with partial pivoting, so `tol` is an absolute threshold on them.
pub(super) fn invert<const N: usize>(m: &SMatrix<f64, N, N>, tol: f64) -> Option<SMatrix<f64, N, N>> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Matrix3, Matrix6};

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
    }
}
