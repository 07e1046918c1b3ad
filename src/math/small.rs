//! A product kernel for small fixed-size matrices (the tree solver's fronts, the joint drives' 3×3 blocks).

use nalgebra::SMatrix;

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
