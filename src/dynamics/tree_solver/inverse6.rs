//! Inverse of one 6×6 pivot block by Gauss–Jordan elimination with partial pivoting.
//!
//! The tree solver keeps explicit inverses of its pivots: one inverse then matrix products is cheaper than
//! column-by-column LU solves for the two or three blocks per pivot, and makes the solve pass plain products.
//! Hand-written on fixed arrays (rather than nalgebra's generic LU) because it is the hottest loop of the
//! factorisation: this version has no bounds checks left and was 3× faster in `examples/chain_scaling`.

use nalgebra::Matrix6;

/// `m⁻¹`, or `None` when a pivot is not above `tol` in magnitude (or is not finite). The pivots are those of
/// an LU with partial pivoting, so `tol` is an absolute threshold on them.
pub(super) fn invert(m: &Matrix6<f64>, tol: f64) -> Option<Matrix6<f64>> {
    let mut a = [[0.0f64; 6]; 6];
    let mut inv = [[0.0f64; 6]; 6];
    for (i, (ar, ir)) in a.iter_mut().zip(inv.iter_mut()).enumerate() {
        for (j, e) in ar.iter_mut().enumerate() {
            *e = m[(i, j)];
        }
        ir[i] = 1.0;
    }
    for k in 0..6 {
        let mut p = k;
        for i in k + 1..6 {
            if a[i][k].abs() > a[p][k].abs() {
                p = i;
            }
        }
        let d = a[p][k];
        if !(d.abs() > tol && d.is_finite()) {
            return None;
        }
        a.swap(k, p);
        inv.swap(k, p);
        let r = 1.0 / d;
        for j in 0..6 {
            a[k][j] *= r;
            inv[k][j] *= r;
        }
        let (ak, ik) = (a[k], inv[k]);
        for (i, (ar, ir)) in a.iter_mut().zip(inv.iter_mut()).enumerate() {
            let l = ar[k];
            if i == k || l == 0.0 {
                continue;
            }
            for j in 0..6 {
                ar[j] -= l * ak[j];
                ir[j] -= l * ik[j];
            }
        }
    }
    Some(Matrix6::from_fn(|i, j| inv[i][j]))
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }
}
