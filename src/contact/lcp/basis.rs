//! The explicit basis inverse B⁻¹ of a pivoting method, updated in O(n²) per column exchange (Cline §4.8.1).
//!
//! Replacing column r of B by c is a rank-one change, B' = B + (c − B e_r) e_rᵀ, so Sherman–Morrison (Cline eq.
//! 4.21) gives B'⁻¹ from B⁻¹ with one outer product. With u = B⁻¹c it simplifies to the product-form (eta)
//! update used by the simplex method:
//!
//! ```text
//! B'⁻¹ = B⁻¹ − (u − e_r) (e_rᵀ B⁻¹) / u_r
//! ```
//!
//! i.e. row r is divided by the pivot u_r and u_i/u_r times it is subtracted from every other row. Round-off grows
//! with every update, so the owner refactorises (a fresh LU inverse, O(n³)) every k updates or when its own
//! residual check says the inverse has drifted.

use nalgebra::linalg::{gauss_step, gauss_step_swap};
use nalgebra::{DMatrix, Dim, Dyn, Matrix, StorageMut};

use super::{abs_max, fill_identity, zeroed_matrix};

mod complementary;
pub(crate) use complementary::ComplementaryBasis;

/// An n×n basis inverse with in-place O(n²) column-exchange updates and O(n³) refactorisation.
#[derive(Debug, Clone, Default)]
pub struct BasisInverse {
    inv: DMatrix<f64>,
    row: Vec<f64>,
    updates: usize,
    /// Buffers of a refactorisation (the LU factors, the row swaps, the fresh inverse), kept so that it does not
    /// allocate once the largest basis has been seen.
    work: DMatrix<f64>,
    perm: Vec<(usize, usize)>,
    fresh: DMatrix<f64>,
    /// The inverse's solutions as rows, and the identity's row order after the swaps ([`lu_inverse`]).
    scratch: DMatrix<f64>,
    order: Vec<usize>,
    /// An inverse from a complementary basis' z block: the w pairs, and the gathered block M_WZ
    /// (`basis/complementary.rs`).
    w_pairs: Vec<usize>,
    gathered: Vec<f64>,
}

impl BasisInverse {
    /// The inverse of the n×n identity (the all-slack basis of a cold Lemke start).
    pub fn identity(n: usize) -> Self {
        Self {
            inv: DMatrix::identity(n, n),
            row: vec![0.0; n],
            ..Self::default()
        }
    }

    /// Resets to the n×n identity, reusing the buffers (they grow only beyond the largest size seen).
    pub fn reset_identity(&mut self, n: usize) {
        if self.inv.nrows() != n {
            zeroed_matrix(&mut self.inv, n, n);
            self.row.resize(n, 0.0);
        }
        fill_identity(&mut self.inv);
        self.updates = 0;
    }

    /// Gives the inverse and the refactorisation's buffers room for n×n bases (contents and shapes unchanged), so
    /// that resets, refactorisations and inverses of bases up to that size allocate nothing later. An inverse
    /// swaps its result with the current one, so both must have the room.
    pub(crate) fn reserve(&mut self, n: usize) {
        self.order.reserve(n.saturating_sub(self.order.len()));
        for m in [
            &mut self.inv,
            &mut self.fresh,
            &mut self.work,
            &mut self.scratch,
        ] {
            let (rows, cols) = m.shape();
            let mut data: Vec<f64> = std::mem::take(m).data.into();
            data.reserve((n * n).saturating_sub(data.len()));
            *m = DMatrix::from_vec(rows, cols, data);
        }
        self.row.reserve(n.saturating_sub(self.row.len()));
        self.perm.reserve(n);
        self.w_pairs.reserve(n.saturating_sub(self.w_pairs.len()));
        self.gathered
            .reserve((n * n).saturating_sub(self.gathered.len()));
    }

    /// A fresh inverse of `b` by LU with partial pivoting; `None` if `b` is not square, singular, or the inverse is
    /// not finite.
    pub fn from_matrix(b: &DMatrix<f64>) -> Option<Self> {
        let mut s = Self::identity(b.nrows());
        s.refactor(b).then_some(s)
    }

    /// Replaces the inverse by a fresh LU inverse of `b` (same size as before or not). Returns false, leaving the
    /// old inverse in place, if `b` is not square, singular, or its inverse is not finite.
    // Inlined into Lemke's baseline and AVX2 copies (`math::dispatch`).
    #[inline(always)]
    pub fn refactor(&mut self, b: &DMatrix<f64>) -> bool {
        if !b.is_square() {
            return false;
        }
        let n = b.nrows();
        if self.work.shape() != (n, n) {
            zeroed_matrix(&mut self.work, n, n);
        }
        if self.fresh.shape() != (n, n) {
            zeroed_matrix(&mut self.fresh, n, n);
        }
        self.work.as_mut_slice().copy_from_slice(b.as_slice());
        lu_factor(&mut self.work, &mut self.perm);
        if self.scratch.shape() != (n, n) {
            zeroed_matrix(&mut self.scratch, n, n);
        }
        if !lu_inverse(
            &self.work,
            &self.perm,
            &mut self.scratch,
            &mut self.order,
            &mut self.fresh,
        ) || !super::all_finite(self.fresh.as_slice())
        {
            return false;
        }
        std::mem::swap(&mut self.inv, &mut self.fresh);
        self.row.resize(n, 0.0);
        self.updates = 0;
        true
    }

    /// Size n.
    pub fn dim(&self) -> usize {
        self.inv.nrows()
    }

    /// The current B⁻¹.
    pub fn inverse(&self) -> &DMatrix<f64> {
        &self.inv
    }

    /// Column-exchange updates applied since the last refactorisation (or reset).
    pub fn updates(&self) -> usize {
        self.updates
    }

    /// `u = B⁻¹ c` and the row-wise round-off scale `s_i = Σ_j |B⁻¹_ij| (|c_j| + ‖c‖∞)`, which the ε guard
    /// compares `u_i` against. The `‖c‖∞` term is there because the inputs carry their own round-off: an entry of
    /// M = J W Jᵀ that is exactly 0 in exact arithmetic comes out as ~1e-16 relative to the matrix, and
    /// Σ_j|B⁻¹_ij c_j| alone would call it significant. `c`, `u`, `s` have length n.
    // Inlined into Lemke's baseline and AVX2 copies (`math::dispatch`).
    #[inline(always)]
    pub fn apply(&self, c: &[f64], u: &mut [f64], s: &mut [f64]) {
        let n = self.dim();
        // Slices of exactly n entries: the loops below then compile without bounds checks, vectorised (the
        // same operations per entry in the same order as indexed loops, so the same bits).
        let (u, s) = (&mut u[..n], &mut s[..n]);
        u.fill(0.0);
        s.fill(0.0);
        if n == 0 {
            return;
        }
        let cmax = abs_max(c);
        // Column-major: walk the columns of B⁻¹ once, accumulating B⁻¹c and the |B⁻¹|-weighted scale, four
        // columns per pass where their c_j are all non-zero (u_i and s_i then stay in registers over the four;
        // each still receives the columns' terms in column order, so the same bits as one column per pass).
        let inv = self.inv.as_slice();
        let blocked = (n / 4) * 4;
        for (block, cs) in inv[..blocked * n]
            .chunks_exact(4 * n)
            .zip(c[..blocked].chunks_exact(4))
        {
            if cs.iter().all(|&cj| cj != 0.0) {
                let (b01, b23) = block.split_at(2 * n);
                let (b0, b1) = b01.split_at(n);
                let (b2, b3) = b23.split_at(n);
                let w: [f64; 4] = std::array::from_fn(|t| cs[t].abs() + cmax);
                let terms = b0.iter().zip(b1).zip(b2).zip(b3);
                for ((ui, si), (((x0, x1), x2), x3)) in u.iter_mut().zip(s.iter_mut()).zip(terms) {
                    let (mut uu, mut ss) = (*ui, *si);
                    for (t, &b) in [*x0, *x1, *x2, *x3].iter().enumerate() {
                        uu += b * cs[t];
                        ss += b.abs() * w[t];
                    }
                    (*ui, *si) = (uu, ss);
                }
            } else {
                for (col, &cj) in block.chunks_exact(n).zip(cs) {
                    add_column(col, cj, cmax, u, s);
                }
            }
        }
        for (col, &cj) in inv[blocked * n..].chunks_exact(n).zip(&c[blocked..]) {
            add_column(col, cj, cmax, u, s);
        }
    }

    /// Column-exchange update: column r of B is replaced by a column c with `u = B⁻¹ c` (from [`Self::apply`]).
    /// O(n²). Returns false (and changes nothing) if `r` is out of range or `u_r` is zero or not finite; the caller
    /// never pivots on such an entry (the ε guard), so false means a caller bug, not a numerical event.
    // Inlined into Lemke's baseline and AVX2 copies (`math::dispatch`).
    #[inline(always)]
    pub fn replace_column(&mut self, r: usize, u: &[f64]) -> bool {
        let n = self.dim();
        if r >= n || u.len() != n || u[r] == 0.0 || !u[r].is_finite() {
            return false;
        }
        let inv_p = 1.0 / u[r];
        for j in 0..n {
            self.row[j] = self.inv[(r, j)] * inv_p;
        }
        for (col, &rj) in self.inv.as_mut_slice().chunks_exact_mut(n).zip(&self.row) {
            if rj != 0.0 {
                for (x, ui) in col.iter_mut().zip(u) {
                    *x -= ui * rj;
                }
            }
            col[r] = rj;
        }
        self.updates += 1;
        true
    }

    /// max |B⁻¹_updated − inv(b)| / max |inv(b)| against a fresh LU inverse of `b` (O(n³), for tests and
    /// diagnostics). `f64::INFINITY` if `b` cannot be inverted or has another size.
    pub fn drift(&self, b: &DMatrix<f64>) -> f64 {
        let Some(fresh) = Self::from_matrix(b) else {
            return f64::INFINITY;
        };
        if fresh.dim() != self.dim() {
            return f64::INFINITY;
        }
        let scale = fresh.inv.amax().max(f64::MIN_POSITIVE);
        (&self.inv - &fresh.inv).amax() / scale
    }
}

/// One column of [`BasisInverse::apply`]: `u += col·c_j` (skipped for `c_j = 0`) and `s += |col|·(|c_j| + cmax)`.
fn add_column(col: &[f64], cj: f64, cmax: f64, u: &mut [f64], s: &mut [f64]) {
    let w = cj.abs() + cmax;
    if cj == 0.0 {
        for (si, b) in s.iter_mut().zip(col) {
            *si += b.abs() * w;
        }
    } else {
        for ((ui, si), &b) in u.iter_mut().zip(s.iter_mut()).zip(col) {
            *ui += b * cj;
            *si += b.abs() * w;
        }
    }
}

/// LU factorisation with partial pivoting of `a` in place, recording the row swaps in `perm`: the arithmetic of
/// nalgebra's `LU::new` step for step (the same pivots, the same Gauss steps), so results are bit-identical to
/// `a.lu()`, without its allocations (the owned copy and the permutation sequence).
// Inlined into Lemke's baseline and AVX2 copies (`math::dispatch`).
#[inline(always)]
pub(crate) fn lu_factor(a: &mut DMatrix<f64>, perm: &mut Vec<(usize, usize)>) {
    perm.clear();
    perm.reserve(a.nrows().min(a.ncols()));
    for i in 0..a.nrows().min(a.ncols()) {
        let piv = a.view_range(i.., i).icamax() + i;
        let diag = a[(piv, i)];
        if diag == 0.0 {
            // No non-zero entry in this column: the solve reports the matrix singular.
            continue;
        }
        if piv != i {
            perm.push((i, piv));
            a.columns_range_mut(..i).swap_rows(i, piv);
            gauss_step_swap(a, diag, i, piv);
        } else {
            gauss_step(a, diag, i);
        }
    }
}

/// The inverse of `A` from the factors of [`lu_factor`] into `out` (n×n), with `w` (n×n) as scratch: the columns
/// of [`lu_solve`] of the identity, bit for bit (every entry receives the same updates in the same order), but
/// computed as rows. Column k of the identity is solved as row k of `w` (`w[(k, r)]` = entry r of that
/// solution), so each elimination update `x_r −= x_c·L_rc` runs over all right-hand sides at once on contiguous
/// memory (vectorised) instead of over the short tail of one column. The solution for `e_k` is column `idx[k]`
/// of the inverse (`idx`: the row order the swaps leave), and it is zero above row k, so the forward pass of row
/// c only touches the solutions `k ≤ c`. False when `A` is singular.
// Inlined into Lemke's baseline and AVX2 copies (`math::dispatch`).
#[inline(always)]
fn lu_inverse(
    lu: &DMatrix<f64>,
    perm: &[(usize, usize)],
    w: &mut DMatrix<f64>,
    idx: &mut Vec<usize>,
    out: &mut DMatrix<f64>,
) -> bool {
    let n = lu.nrows();
    if (0..n).any(|i| lu[(i, i)] == 0.0) {
        return false;
    }
    idx.clear();
    idx.extend(0..n);
    for &(i, p) in perm {
        idx.swap(i, p);
    }
    // `w` is stored transposed (column r of the storage holds entry r of every solution).
    fill_identity(w);
    let a = lu.as_slice();
    let ws = w.as_mut_slice();
    // L y = e_k (unit diagonal): y_r −= y_c L_rc for r > c; y_c is zero for the solutions k > c.
    for c in 0..n {
        let (head, tail) = ws.split_at_mut((c + 1) * n);
        let yc = &head[c * n..=c * n + c];
        for (r, yr) in tail.chunks_exact_mut(n).enumerate() {
            let l = a[c * n + c + 1 + r];
            for (y, x) in yr[..=c].iter_mut().zip(yc) {
                *y += -x * l;
            }
        }
    }
    // U x = y from the last row up: x_c = y_c / U_cc, then y_r −= x_c U_rc for r < c.
    for c in (0..n).rev() {
        let d = a[c * n + c];
        let (head, tail) = ws.split_at_mut(c * n);
        let xc = &mut tail[..n];
        for v in xc.iter_mut() {
            *v /= d;
        }
        let xc = &tail[..n];
        for (r, yr) in head.chunks_exact_mut(n).enumerate() {
            let u = a[c * n + r];
            for (y, x) in yr.iter_mut().zip(xc) {
                *y += -x * u;
            }
        }
    }
    let os = out.as_mut_slice();
    for (k, &j) in idx.iter().enumerate() {
        // Column j of the inverse is row k of `w`.
        for (r, o) in os[j * n..(j + 1) * n].iter_mut().enumerate() {
            *o = ws[r * n + k];
        }
    }
    true
}

/// Solves `A x = b` in place with the factors of [`lu_factor`] (nalgebra's `LU::solve_mut`); false when `A` is
/// singular (`b` then holds garbage).
// Inlined into Lemke's baseline and AVX2 copies (`math::dispatch`).
#[inline(always)]
pub(crate) fn lu_solve<C: Dim, S: StorageMut<f64, Dyn, C>>(
    lu: &DMatrix<f64>,
    perm: &[(usize, usize)],
    b: &mut Matrix<f64, Dyn, C, S>,
) -> bool {
    for &(i, p) in perm {
        b.swap_rows(i, p);
    }
    let _ = lu.solve_lower_triangular_with_diag_mut(b, 1.0);
    lu.solve_upper_triangular_mut(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small xorshift generator: deterministic and dependency-free.
    fn rng(state: &mut u64) -> f64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        (*state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }

    #[test]
    fn column_exchanges_track_a_fresh_inverse() {
        let n = 30;
        let mut seed = 0x9e37_79b9_7f4a_7c15;
        let mut b = DMatrix::<f64>::identity(n, n);
        let mut bi = BasisInverse::identity(n);
        let (mut u, mut s) = (vec![0.0; n], vec![0.0; n]);
        let mut worst: f64 = 0.0;
        for k in 0..400 {
            let c: Vec<f64> = (0..n).map(|_| rng(&mut seed)).collect();
            bi.apply(&c, &mut u, &mut s);
            // Pivot on the largest |u_i| in a rotating window, as a ratio test would pick a well-sized entry.
            let r = (0..n)
                .filter(|i| (i + k) % 3 == 0)
                .max_by(|&a, &b| u[a].abs().total_cmp(&u[b].abs()))
                .unwrap();
            assert!(bi.replace_column(r, &u));
            b.set_column(r, &nalgebra::DVector::from_vec(c));
            worst = worst.max(bi.drift(&b));
        }
        assert_eq!(bi.updates(), 400);
        assert!(worst < 1e-10, "drift {worst:e}");
    }

    /// The buffered LU (factor, solve, inverse) is nalgebra's `LU` step for step: bit-identical results, the same
    /// verdict on singular matrices, and no new storage when a smaller problem follows a larger one.
    #[test]
    fn buffered_lu_is_nalgebras_bit_for_bit() {
        let mut seed = 0x2545_f491_4f6c_dd1d;
        let mut bi = BasisInverse::default();
        let (mut work, mut perm) = (DMatrix::zeros(0, 0), Vec::new());
        for n in [7, 3, 12, 5, 48, 12] {
            let mut b = DMatrix::from_fn(n, n, |_, _| rng(&mut seed));
            // A zero and a repeated column make partial pivoting swap and skip.
            b[(0, 0)] = 0.0;
            let q = nalgebra::DVector::from_fn(n, |_, _| rng(&mut seed));
            super::zeroed_matrix(&mut work, n, n);
            work.copy_from(&b);
            lu_factor(&mut work, &mut perm);
            let mut x = q.clone();
            assert!(lu_solve(&work, &perm, &mut x));
            assert_eq!(x, b.clone().lu().solve(&q).unwrap(), "n = {n}");
            assert!(bi.refactor(&b));
            assert_eq!(bi.inverse(), &b.clone().lu().try_inverse().unwrap());
            let ptr = bi.inverse().as_ptr();
            bi.reset_identity(2);
            bi.reset_identity(n);
            assert_eq!(bi.inverse().as_ptr(), ptr);
            assert_eq!(bi.inverse(), &DMatrix::identity(n, n));
            let mut singular = b.clone();
            let c = singular.column(1).clone_owned();
            singular.set_column(2, &c);
            work.copy_from(&singular);
            lu_factor(&mut work, &mut perm);
            let mut x = q.clone();
            assert_eq!(
                lu_solve(&work, &perm, &mut x),
                singular.clone().lu().solve(&q).is_some()
            );
        }
        // A matrix that shrinks keeps its storage: growing back to the largest size seen does not reallocate.
        let mut m = DMatrix::zeros(10, 10);
        let ptr = m.as_ptr();
        super::zeroed_matrix(&mut m, 3, 4);
        super::zeroed_matrix(&mut m, 10, 10);
        assert_eq!(m.as_ptr(), ptr);
        assert!(m.iter().all(|&v| v == 0.0));
    }

    #[test]
    fn rejects_bad_pivots_and_singular_matrices() {
        let mut bi = BasisInverse::identity(2);
        assert!(!bi.replace_column(0, &[0.0, 1.0]));
        assert!(!bi.replace_column(5, &[1.0, 1.0]));
        assert!(!bi.replace_column(0, &[f64::NAN, 1.0]));
        assert!(BasisInverse::from_matrix(&DMatrix::zeros(2, 2)).is_none());
        assert!(BasisInverse::from_matrix(&DMatrix::zeros(2, 3)).is_none());
        assert_eq!(bi.drift(&DMatrix::zeros(2, 2)), f64::INFINITY);
    }
}
