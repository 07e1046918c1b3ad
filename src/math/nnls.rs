//! Non-negative least squares (Lawson & Hanson 1974, ch. 23): `min ‖A·x − b‖²` subject to `x ≥ 0`, by the
//! active-set method, in reused buffers ([`Nnls`]). Used to spread a wrench over friction-pyramid edges, where
//! every column is one edge (`control::ground::spread_wrench`: the inverse dynamics' ground reaction and the
//! balanced root's plan, every step).
//!
//! The arithmetic is nalgebra's, operation for operation, so that the results are the same to the bit as the
//! first, allocating version (`A·x`, `Aᵀ·r` and `Sᵀ·b` as nalgebra's `gemv`: one column after the other; the
//! normal matrix `SᵀS` of the passive columns as nalgebra's `gemm`, which hands matrices larger than 5×5 to
//! `matrixmultiply`: each entry a sequential sum over the rows, fused multiply-adds where that crate's kernel
//! uses them; nalgebra's own Cholesky factorisation and solves on the reused storage). Only the rare fallback
//! (a normal matrix Cholesky rejects: LU) and problems of more than 256 rows (`matrixmultiply` splits those sums)
//! take nalgebra's allocating path.

use std::sync::OnceLock;

use nalgebra::{DMatrix, DMatrixView, DVector, DVectorView};

/// Rows above which `matrixmultiply` splits the sums of a product into blocks (its `kc`): larger problems take
/// nalgebra's allocating path, which then sums the way that crate does.
const MAX_SUMMED_ROWS: usize = 256;

/// Solves `min ‖a·x − b‖², x ≥ 0`. `a` must have full column rank on every subset of columns the method visits
/// (append `√ε·I` rows to regularise). Stops after `3·ncols` outer iterations (the method terminates far earlier
/// in exact arithmetic; the cap only guards against cycling in round-off). Allocates its buffers: a caller that
/// solves every step keeps an [`Nnls`] and calls [`Nnls::solve`].
pub fn nnls(a: &DMatrix<f64>, b: &DVector<f64>) -> DVector<f64> {
    let mut ws = Nnls::default();
    DVector::from_column_slice(ws.solve(a.as_slice(), a.nrows(), a.ncols(), b.as_slice()))
}

/// The buffers of an NNLS solve, sized by the largest problem seen and reused: a solve of a problem no larger
/// than an earlier one allocates nothing (the Cholesky fallback aside, see the module's notes).
#[derive(Debug, Clone, Default)]
pub struct Nnls {
    /// The problem's matrix (column-major) and right-hand side, for callers that build them here
    /// ([`Nnls::problem`]).
    a: Vec<f64>,
    b: Vec<f64>,
    x: Vec<f64>,
    z: Vec<f64>,
    passive: Vec<bool>,
    ax: Vec<f64>,
    residual: Vec<f64>,
    gradient: Vec<f64>,
    cols: Vec<usize>,
    /// The passive columns (rows × passive, column-major), their normal matrix, its factor and the right-hand
    /// side (then the solution) on them.
    sub: Vec<f64>,
    normal: Vec<f64>,
    factor: Vec<f64>,
    rhs: Vec<f64>,
}

/// `y = m·v` (`m` rows × cols, column-major) as nalgebra's `gemv` computes it: `y = m₀·v₀`, then `y += mⱼ·vⱼ`
/// column after column.
fn gemv(m: &[f64], rows: usize, cols: usize, v: &[f64], y: &mut [f64]) {
    if cols == 0 {
        y[..rows].fill(0.0);
        return;
    }
    for (yi, mi) in y[..rows].iter_mut().zip(&m[..rows]) {
        *yi = mi * v[0];
    }
    for j in 1..cols {
        let col = &m[j * rows..(j + 1) * rows];
        for (yi, mi) in y[..rows].iter_mut().zip(col) {
            *yi += mi * v[j];
        }
    }
}

/// `yⱼ = mⱼ · v` for every column `j` of `m` (rows × cols, column-major): nalgebra's `mᵀ · v` (the transpose,
/// then `gemv`), one sequential sum per column.
fn gemv_transposed(m: &[f64], rows: usize, cols: usize, v: &[f64], y: &mut [f64]) {
    for (j, yj) in y[..cols].iter_mut().enumerate() {
        let col = &m[j * rows..(j + 1) * rows];
        *yj = match col.split_first() {
            None => 0.0,
            Some((first, rest)) => {
                let mut sum = first * v[0];
                for (mi, vi) in rest.iter().zip(&v[1..rows]) {
                    sum += mi * vi;
                }
                sum
            }
        };
    }
}

/// Whether `matrixmultiply`, to which nalgebra hands products larger than 5×5, sums with fused multiply-adds on
/// this CPU (its AVX2 + FMA kernel, or NEON): found once by a product whose rounding tells.
fn product_is_fused() -> bool {
    static FUSED: OnceLock<bool> = OnceLock::new();
    *FUSED.get_or_init(|| {
        let e = 2f64.powi(-30);
        let mut a = DMatrix::<f64>::zeros(6, 6);
        let mut b = DMatrix::<f64>::zeros(6, 6);
        a[(0, 0)] = 1.0;
        a[(0, 1)] = 1.0 + e;
        b[(0, 0)] = -1.0;
        b[(1, 0)] = 1.0 - e;
        // −1 + (1 − 2⁻⁶⁰): fused −2⁻⁶⁰, else the product rounds to 1 and the sum is 0.
        (a * b)[(0, 0)] != 0.0
    })
}

/// The normal matrix `sᵀs` (`s` rows × k, column-major) into `out` (k × k), summed as nalgebra's `sᵀ * s`:
/// through `matrixmultiply` beyond 5×5 (from +0, in row order, fused where its kernel is), else `gemv`.
fn gram(s: &[f64], rows: usize, k: usize, out: &mut [f64]) {
    let big = k > 5 && rows > 5;
    if big && product_is_fused() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `matrixmultiply` only fuses with the CPU's FMA (checked by its kernel's selection).
        unsafe {
            gram_fma(s, rows, k, out)
        }
        #[cfg(not(target_arch = "x86_64"))]
        gram_summed(s, rows, k, out, f64::mul_add);
    } else if big {
        gram_summed(s, rows, k, out, |a, b, c| a * b + c);
    } else {
        for j in 0..k {
            let col = &s[j * rows..(j + 1) * rows];
            gemv_transposed(s, rows, k, col, &mut out[j * k..(j + 1) * k]);
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "fma")]
unsafe fn gram_fma(s: &[f64], rows: usize, k: usize, out: &mut [f64]) {
    gram_summed(s, rows, k, out, f64::mul_add);
}

#[inline(always)]
fn gram_summed(
    s: &[f64],
    rows: usize,
    k: usize,
    out: &mut [f64],
    madd: impl Fn(f64, f64, f64) -> f64,
) {
    for j in 0..k {
        let cj = &s[j * rows..(j + 1) * rows];
        for i in 0..k {
            let ci = &s[i * rows..(i + 1) * rows];
            let mut sum = 0.0;
            for (a, b) in ci.iter().zip(cj) {
                sum = madd(*a, *b, sum);
            }
            out[j * k + i] = sum;
        }
    }
}

impl Nnls {
    /// The problem's matrix (`rows × cols`, column-major) and right-hand side (`rows`), zeroed, to be filled and
    /// then solved by [`Nnls::solve_problem`].
    pub fn problem(&mut self, rows: usize, cols: usize) -> (&mut [f64], &mut [f64]) {
        self.a.clear();
        self.a.resize(rows * cols, 0.0);
        self.b.clear();
        self.b.resize(rows, 0.0);
        (&mut self.a, &mut self.b)
    }

    /// Solves the problem [`Nnls::problem`] set up; the solution, one entry per column.
    pub fn solve_problem(&mut self) -> &[f64] {
        let a = std::mem::take(&mut self.a);
        let b = std::mem::take(&mut self.b);
        let rows = b.len();
        let cols = a.len().checked_div(rows).unwrap_or(0);
        self.solve(&a, rows, cols, &b);
        self.a = a;
        self.b = b;
        &self.x
    }

    /// Solves `min ‖a·x − b‖², x ≥ 0` (`a` `rows × cols`, column-major; `b` `rows`) as [`nnls`] does, to the bit;
    /// the solution, one entry per column.
    pub fn solve(&mut self, a: &[f64], rows: usize, cols: usize, b: &[f64]) -> &[f64] {
        assert_eq!(a.len(), rows * cols, "nnls: a is not rows × cols");
        assert_eq!(b.len(), rows, "nnls: b does not have the rows of a");
        if rows > MAX_SUMMED_ROWS {
            let x = allocating(
                &DMatrix::from_column_slice(rows, cols, a),
                &DVector::from_column_slice(b),
            );
            self.x.clear();
            self.x.extend_from_slice(x.as_slice());
            return &self.x;
        }
        let n = cols;
        reset(&mut self.x, n);
        self.passive.clear();
        self.passive.resize(n, false);
        reset(&mut self.ax, rows);
        reset(&mut self.residual, rows);
        reset(&mut self.gradient, n);
        let scale = DMatrixView::from_slice(a, rows, cols).amax().max(1e-300)
            * DVectorView::from_slice(b, rows).amax().max(1e-300);
        let tol = 1e-12 * scale * (rows as f64);
        for _ in 0..3 * n.max(1) {
            gemv(a, rows, cols, &self.x, &mut self.ax);
            for ((r, bi), axi) in self.residual.iter_mut().zip(b).zip(&self.ax) {
                *r = bi - axi;
            }
            gemv_transposed(a, rows, cols, &self.residual, &mut self.gradient);
            let (w, passive) = (&self.gradient, &self.passive);
            let Some(j) = (0..n)
                .filter(|&j| !passive[j] && w[j] > tol)
                .max_by(|&i, &j| w[i].total_cmp(&w[j]))
            else {
                break;
            };
            self.passive[j] = true;
            // Inner loop: solve on the passive set; step back into the feasible region while some value goes ≤ 0.
            for _ in 0..n {
                self.solve_on(a, rows, cols, b);
                let (x, z) = (&mut self.x, &self.z);
                let Some(alpha) = step_back(&self.passive, x, z) else {
                    x.copy_from_slice(z);
                    break;
                };
                for (xi, zi) in x.iter_mut().zip(z) {
                    *xi += (zi - *xi) * alpha;
                }
                for (xi, passive) in x.iter_mut().zip(&mut self.passive) {
                    if *passive && *xi <= 1e-14 * scale.sqrt().max(1.0) {
                        *passive = false;
                        *xi = 0.0;
                    }
                }
            }
        }
        &self.x
    }

    /// The unconstrained least-squares solution on the passive columns (zero elsewhere), into `z`.
    fn solve_on(&mut self, a: &[f64], rows: usize, cols: usize, b: &[f64]) {
        self.cols.clear();
        self.cols.extend((0..cols).filter(|&j| self.passive[j]));
        reset(&mut self.z, cols);
        let k = self.cols.len();
        if k == 0 {
            return;
        }
        self.sub.clear();
        for &j in &self.cols {
            self.sub.extend_from_slice(&a[j * rows..(j + 1) * rows]);
        }
        reset(&mut self.normal, k * k);
        gram(&self.sub, rows, k, &mut self.normal);
        reset(&mut self.rhs, k);
        gemv_transposed(&self.sub, rows, k, b, &mut self.rhs);
        let mut factor = std::mem::take(&mut self.factor);
        factor.clear();
        factor.extend_from_slice(&self.normal);
        let rhs = std::mem::take(&mut self.rhs);
        let mut rhs = DVector::from_vec(rhs);
        match DMatrix::from_vec(k, k, factor).cholesky() {
            Some(c) => {
                c.solve_mut(&mut rhs);
                self.factor = c.unpack_dirty().data.into();
            }
            None => {
                // Rare (the regularised normal matrix is positive definite): nalgebra's LU, allocating.
                let normal = DMatrix::from_column_slice(k, k, &self.normal);
                rhs = normal.lu().solve(&rhs).unwrap_or_else(|| DVector::zeros(k));
            }
        }
        for (i, &j) in self.cols.iter().enumerate() {
            self.z[j] = rhs[i];
        }
        self.rhs = rhs.data.into();
    }
}

/// How far from `x` toward the passive set's solution `z` the inner loop may go before a passive value reaches
/// zero, or `None` when every passive value of `z` is positive (take `z`).
fn step_back(passive: &[bool], x: &[f64], z: &[f64]) -> Option<f64> {
    let mut alpha = 1.0_f64;
    let mut blocked = false;
    for i in 0..x.len() {
        if passive[i] && z[i] <= 0.0 {
            blocked = true;
            let denom = x[i] - z[i];
            alpha = if denom > 0.0 {
                alpha.min(x[i] / denom)
            } else {
                0.0
            };
        }
    }
    blocked.then_some(alpha)
}

/// `v` as `len` zeros, in its own storage.
fn reset(v: &mut Vec<f64>, len: usize) {
    v.clear();
    v.resize(len, 0.0);
}

/// The first version of [`nnls`], on nalgebra's allocating operations: for problems beyond
/// [`MAX_SUMMED_ROWS`] and as the tests' reference.
fn allocating(a: &DMatrix<f64>, b: &DVector<f64>) -> DVector<f64> {
    let n = a.ncols();
    let mut x = DVector::zeros(n);
    let mut passive = vec![false; n];
    let scale = a.abs().max().max(1e-300) * b.amax().max(1e-300);
    let tol = 1e-12 * scale * (a.nrows() as f64);
    for _ in 0..3 * n.max(1) {
        let w = a.transpose() * (b - a * &x);
        let Some(j) = (0..n)
            .filter(|&j| !passive[j] && w[j] > tol)
            .max_by(|&i, &j| w[i].total_cmp(&w[j]))
        else {
            break;
        };
        passive[j] = true;
        for _ in 0..n {
            let z = allocating_solve_on(a, b, &passive);
            let Some(alpha) = step_back(&passive, x.as_slice(), z.as_slice()) else {
                x = z;
                break;
            };
            x += (z - &x) * alpha;
            for i in 0..n {
                if passive[i] && x[i] <= 1e-14 * scale.sqrt().max(1.0) {
                    passive[i] = false;
                    x[i] = 0.0;
                }
            }
        }
    }
    x
}

fn allocating_solve_on(a: &DMatrix<f64>, b: &DVector<f64>, passive: &[bool]) -> DVector<f64> {
    let cols: Vec<usize> = (0..a.ncols()).filter(|&j| passive[j]).collect();
    let mut z = DVector::zeros(a.ncols());
    if cols.is_empty() {
        return z;
    }
    let sub = a.select_columns(&cols);
    let normal = sub.transpose() * &sub;
    let rhs = sub.transpose() * b;
    let sol = match normal.clone().cholesky() {
        Some(c) => c.solve(&rhs),
        None => normal
            .lu()
            .solve(&rhs)
            .unwrap_or_else(|| DVector::zeros(cols.len())),
    };
    for (i, &j) in cols.iter().enumerate() {
        z[j] = sol[i];
    }
    z
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rng(mut seed: u64) -> impl FnMut() -> f64 {
        move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
        }
    }

    /// Brute force over all column subsets: the NNLS optimum is the best feasible unconstrained solution on some
    /// subset.
    fn brute(a: &DMatrix<f64>, b: &DVector<f64>) -> f64 {
        let n = a.ncols();
        let mut best = b.norm_squared();
        for mask in 1..(1u32 << n) {
            let passive: Vec<bool> = (0..n).map(|j| mask & (1 << j) != 0).collect();
            let z = allocating_solve_on(a, b, &passive);
            if z.iter().all(|&v| v >= -1e-12) {
                best = best.min((a * z - b).norm_squared());
            }
        }
        best
    }

    #[test]
    fn matches_brute_force_on_random_problems() {
        let mut rnd = rng(12345);
        for _ in 0..200 {
            let (m, n) = (6, 7);
            let a = DMatrix::from_fn(m, n, |_, _| rnd());
            let b = DVector::from_fn(m, |_, _| rnd() * 3.0);
            let x = nnls(&a, &b);
            assert!(x.iter().all(|&v| v >= 0.0), "{x}");
            let got = (&a * &x - &b).norm_squared();
            let want = brute(&a, &b);
            assert!(got <= want + 1e-9 * (1.0 + want), "nnls {got} brute {want}");
        }
    }

    #[test]
    fn exact_feasible_solution_is_found() {
        let a = DMatrix::from_row_slice(3, 3, &[1.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0]);
        let want = DVector::from_vec(vec![0.5, 2.0, 1.0]);
        let x = nnls(&a, &(&a * &want));
        assert!((x - want).norm() < 1e-12);
    }

    /// The reused buffers give nalgebra's allocating arithmetic to the bit, on problems shaped like the ground
    /// reaction's (6 wrench rows and a regularising diagonal under 4 edges per point, up to 12 points: normal
    /// matrices on both sides of nalgebra's 5×5 switch to `matrixmultiply`), one workspace for all of them.
    #[test]
    fn reused_buffers_match_the_allocating_version_to_the_bit() {
        let mut rnd = rng(777);
        let mut ws = Nnls::default();
        let mut bigger = 0;
        for trial in 0..400 {
            let n = 4 * (1 + trial % 12);
            let m = 6 + n;
            let a = DMatrix::from_fn(m, n, |r, c| {
                if r < 6 {
                    rnd() * if r < 3 { 1.0 } else { 0.3 }
                } else if r - 6 == c {
                    1e-3
                } else {
                    0.0
                }
            });
            let b = DVector::from_fn(m, |r, _| if r < 6 { rnd() * 700.0 } else { 0.0 });
            let want = allocating(&a, &b);
            let got = ws.solve(a.as_slice(), m, n, b.as_slice());
            bigger += usize::from(want.iter().filter(|&&v| v > 0.0).count() > 5);
            let same = want
                .iter()
                .zip(got)
                .all(|(w, g)| w.to_bits() == g.to_bits());
            assert!(same, "trial {trial}: {want} against {got:?}");
        }
        assert!(bigger > 0, "no problem took matrixmultiply's path");
    }
}
