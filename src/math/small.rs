//! Product kernels for small fixed-size matrices (the tree solver's fronts, the joint drives' 3×3 blocks), and the
//! products with a cross-product matrix `[s]×` as cross products.

use nalgebra::{Matrix3, SMatrix, Vector3};

/// `x·y` for small fixed sizes, as column-major multiply-adds with constant bounds. nalgebra's product of these
/// odd shapes (6×3·3×6, 3×6·6×3, …) is a generic, out-of-line loop whose overhead was most of a front's
/// instructions; with constant bounds the compiler unrolls and vectorises this one in place.
#[inline(always)]
pub(crate) fn mul<const A: usize, const B: usize, const C: usize>(
    x: &SMatrix<f64, A, B>,
    y: &SMatrix<f64, B, C>,
) -> SMatrix<f64, A, C> {
    let mut out = SMatrix::<f64, A, C>::zeros();
    let (xs, ys) = (x.as_slice(), y.as_slice());
    let o = out.as_mut_slice();
    for j in 0..C {
        // The first term is stored rather than added to zero: `0 + a` is an addition the compiler must keep (it
        // turns −0 into +0), one per output entry; the sums are otherwise the same, in the same order.
        let y0j = ys[j * B];
        for i in 0..A {
            o[i + j * A] = xs[i] * y0j;
        }
        for k in 1..B {
            let ykj = ys[k + j * B];
            for i in 0..A {
                o[i + j * A] += xs[i + k * A] * ykj;
            }
        }
    }
    out
}

/// `[s]×·X`: each column of `X` crossed by `s` from the left, two products per entry instead of the three of a
/// product with the matrix `[s]×` (whose third is a product with its zero).
#[inline(always)]
pub(crate) fn cross_mul<const C: usize>(
    s: &Vector3<f64>,
    x: &SMatrix<f64, 3, C>,
) -> SMatrix<f64, 3, C> {
    let mut out = SMatrix::<f64, 3, C>::zeros();
    for j in 0..C {
        out[(0, j)] = s[1] * x[(2, j)] - s[2] * x[(1, j)];
        out[(1, j)] = s[2] * x[(0, j)] - s[0] * x[(2, j)];
        out[(2, j)] = s[0] * x[(1, j)] - s[1] * x[(0, j)];
    }
    out
}

/// `X·[s]×`, by the columns of `X`: `[s]×`'s columns are `(0, s₂, −s₁)`, `(−s₂, 0, s₀)`, `(s₁, −s₀, 0)`.
#[inline(always)]
pub(crate) fn mul_cross(x: &Matrix3<f64>, s: &Vector3<f64>) -> Matrix3<f64> {
    let mut out = Matrix3::zeros();
    for i in 0..3 {
        out[(i, 0)] = s[2] * x[(i, 1)] - s[1] * x[(i, 2)];
        out[(i, 1)] = s[0] * x[(i, 2)] - s[2] * x[(i, 0)];
        out[(i, 2)] = s[1] * x[(i, 0)] - s[0] * x[(i, 1)];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::spatial::cross_matrix;

    #[test]
    fn cross_products_are_products_with_the_cross_matrix() {
        let s = Vector3::new(0.3, -1.7, 2.2);
        let x = Matrix3::from_fn(|i, j| (i as f64 + 1.3) * (j as f64 - 0.6) + 0.1 * (i * j) as f64);
        assert!((cross_mul(&s, &x) - cross_matrix(&s) * x).norm() <= 1e-14);
        assert!((mul_cross(&x, &s) - x * cross_matrix(&s)).norm() <= 1e-14);
        let v = SMatrix::<f64, 3, 1>::new(0.5, -0.25, 4.0);
        assert!((cross_mul(&s, &v) - s.cross(&v)).norm() <= 1e-14);
    }
}
