//! A complementary basis (for every i, exactly one of w_i and z_i basic) factored through its z block alone.
//!
//! In pair order the basis matrix has column e_i for a basic w_i and −M e_i for a basic z_i. With Z the pairs
//! whose z is basic and W the others, rows and columns ordered (Z, W) make it block lower triangular:
//!
//! ```text
//! B̃ = [ −M_ZZ  0 ]        B̃⁻¹ = [ −G          0 ]     G = M_ZZ⁻¹
//!     [ −M_WZ  I ]              [ −M_WZ G     I ]
//! ```
//!
//! so a warm start's check x = B⁻¹q needs an LU of the k×k block M_ZZ (k = |Z|, the basic z) instead of the
//! n×n basis, and B⁻¹ costs k³ + n·k² instead of n³. On the 8-contact friction pyramid (n = 48) k is 16–27
//! (median 20): measured, the LU's instructions fell 8× and the inverse's 4× (`docs/contact.md`, "The z block").

use nalgebra::{DMatrix, DVector};

use super::super::{abs_max, all_finite, column_of, pair_of, zeroed_matrix, zeroed_vector};
use super::{BasisInverse, lu_factor, lu_inverse, lu_solve};

/// The LU factors of a complementary basis' z block, with the maps between pairs and basis positions.
#[derive(Debug, Clone, Default)]
pub(crate) struct ComplementaryBasis {
    /// The pairs whose z is basic, in the block's row and column order (ascending).
    active: Vec<usize>,
    /// Basis position of pair i's basic variable.
    pos: Vec<usize>,
    /// Whether pair i's z is the basic one.
    is_z: Vec<bool>,
    /// The LU factors of M_ZZ and their row swaps ([`lu_factor`]).
    lu: DMatrix<f64>,
    perm: Vec<(usize, usize)>,
    /// The block's solution and the w values in pair order (scratch of [`Self::solve`]).
    y: DVector<f64>,
    w: Vec<f64>,
}

impl ComplementaryBasis {
    /// Room for bases of n pairs, so that factoring, solving and inverting allocate nothing later.
    pub fn reserve(&mut self, n: usize) {
        self.active.reserve(n.saturating_sub(self.active.len()));
        self.pos.reserve(n.saturating_sub(self.pos.len()));
        self.is_z.reserve(n.saturating_sub(self.is_z.len()));
        self.perm.reserve(n.saturating_sub(self.perm.len()));
        let (rows, cols) = self.lu.shape();
        let mut data: Vec<f64> = std::mem::take(&mut self.lu).data.into();
        data.reserve((n * n).saturating_sub(data.len()));
        self.lu = DMatrix::from_vec(rows, cols, data);
        self.w.reserve(n.saturating_sub(self.w.len()));
        let mut y: Vec<f64> = std::mem::take(&mut self.y).data.into();
        y.reserve(n.saturating_sub(y.len()));
        self.y = DVector::from_vec(y);
    }

    /// Factors the basis `basis` (variable per position: w_i is i, z_i is n + i) of the n×n LCP matrix `m`
    /// through its z block. `false` when the sizes differ or the basis is not complementary. A singular block
    /// shows in [`Self::solve`].
    // Inlined into Lemke's baseline and AVX2 copies (`math::dispatch`).
    #[inline(always)]
    pub fn factor(&mut self, m: &DMatrix<f64>, basis: &[usize]) -> bool {
        let n = basis.len();
        if m.nrows() != n || m.ncols() != n {
            return false;
        }
        self.pos.clear();
        self.pos.resize(n, usize::MAX);
        self.w.clear();
        self.w.resize(n, 0.0);
        for (r, &var) in basis.iter().enumerate() {
            if var >= 2 * n || self.pos[pair_of(var, n)] != usize::MAX {
                return false;
            }
            self.pos[pair_of(var, n)] = r;
        }
        self.is_z.clear();
        self.is_z.extend(self.pos.iter().map(|&r| basis[r] >= n));
        self.active.clear();
        self.active.extend((0..n).filter(|&i| self.is_z[i]));
        let k = self.active.len();
        if self.lu.shape() != (k, k) {
            zeroed_matrix(&mut self.lu, k, k);
        }
        for (b, &j) in self.active.iter().enumerate() {
            let col = column_of(m, j);
            for (dst, &i) in self.lu.as_mut_slice()[b * k..(b + 1) * k]
                .iter_mut()
                .zip(&self.active)
            {
                *dst = col[i];
            }
        }
        lu_factor(&mut self.lu, &mut self.perm);
        true
    }

    /// The largest |entry| of the factored basis matrix (1 for a unit column), `m` being the matrix factored. A
    /// separate pass: the warm check needs it only when a basic value is negative (for the round-off floor).
    // Inlined into Lemke's baseline and AVX2 copies (`math::dispatch`).
    #[inline(always)]
    pub fn basis_max(&self, m: &DMatrix<f64>) -> f64 {
        // A basis with fewer basic z than pairs has a unit (w) column.
        let unit = if self.active.len() < self.pos.len() {
            1.0
        } else {
            0.0
        };
        self.active
            .iter()
            .map(|&j| abs_max(column_of(m, j)))
            .fold(unit, |a, c| if c > a { c } else { a })
    }

    /// x = B⁻¹q in basis order (`x[r]`: the value of the variable at position r): z_Z = −M_ZZ⁻¹ q_Z, then
    /// w_i = q_i + Σ_j M_ij z_j. False if the z block is singular (or the sizes are not the factored basis').
    // Inlined into Lemke's baseline and AVX2 copies (`math::dispatch`).
    #[inline(always)]
    pub fn solve(&mut self, m: &DMatrix<f64>, q: &DVector<f64>, x: &mut [f64]) -> bool {
        if q.len() != self.pos.len() || x.len() < q.len() || m.nrows() != q.len() {
            return false;
        }
        let k = self.active.len();
        zeroed_vector(&mut self.y, k);
        for (a, &i) in self.active.iter().enumerate() {
            self.y[a] = q[i];
        }
        if k > 0 && !lu_solve(&self.lu, &self.perm, &mut self.y) {
            return false;
        }
        // w = q + M_·Z z_Z in pair order over all rows (branch-free and vectorised; the z rows' sums are thrown
        // away), then every value to its basis position. Each w_i adds the same terms in the same order as a
        // loop over the w rows alone, so the same bits.
        let n = q.len();
        let w = &mut self.w[..n];
        w.copy_from_slice(q.as_slice());
        for (a, &j) in self.active.iter().enumerate() {
            let zj = -self.y[a];
            for (wi, &mij) in w.iter_mut().zip(column_of(m, j)) {
                *wi += mij * zj;
            }
        }
        for ((&r, &z), &wi) in self.pos.iter().zip(&self.is_z).zip(w.iter()) {
            if !z {
                x[r] = wi;
            }
        }
        for (a, &j) in self.active.iter().enumerate() {
            x[self.pos[j]] = -self.y[a];
        }
        true
    }
}

impl BasisInverse {
    /// Replaces the inverse by B⁻¹ of the basis `basis` has just factored, from its z block (module
    /// documentation). Returns false, leaving the old inverse in place, if the block is singular or the inverse
    /// is not finite.
    // Inlined into Lemke's baseline and AVX2 copies (`math::dispatch`).
    #[inline(always)]
    pub(crate) fn invert_complementary(
        &mut self,
        basis: &ComplementaryBasis,
        m: &DMatrix<f64>,
    ) -> bool {
        let (n, k) = (basis.pos.len(), basis.active.len());
        for w in [&mut self.scratch, &mut self.work] {
            if w.shape() != (k, k) {
                zeroed_matrix(w, k, k);
            }
        }
        // G = M_ZZ⁻¹ into `work`.
        if k > 0
            && !lu_inverse(
                &basis.lu,
                &basis.perm,
                &mut self.scratch,
                &mut self.order,
                &mut self.work,
            )
        {
            return false;
        }
        // Every entry of a z column is written below; only the w columns (e_i) need their zeros.
        if self.fresh.shape() != (n, n) {
            zeroed_matrix(&mut self.fresh, n, n);
        }
        // Only the w rows of B⁻¹'s z columns need the product −M_WZ G (its z rows are −G): M_WZ is gathered once
        // into contiguous columns, so the sums skip the k z rows of every column of M (on the 8-contact pyramid
        // about 20 of 48).
        let nw = n - k;
        self.w_pairs.clear();
        self.w_pairs.extend((0..n).filter(|&i| !basis.is_z[i]));
        self.gathered.clear();
        for &l in &basis.active {
            let col = column_of(m, l);
            self.gathered.extend(self.w_pairs.iter().map(|&i| col[i]));
        }
        // `row` keeps n entries (the column-exchange updates use it); the products use its first nw.
        self.row.clear();
        self.row.resize(n, 0.0);
        let (mwz, g) = (&self.gathered, self.work.as_slice());
        let column = |a: usize| &mwz[a * nw..(a + 1) * nw];
        let blocked = (k / 4) * 4;
        for (b, &j) in basis.active.iter().enumerate() {
            // Column j of B⁻¹: −G's column b on the z rows, −(M_WZ G)'s on the w rows. Four columns of M_WZ go
            // in one pass (the running sums stay in registers; each entry still adds the terms in the order of
            // `active`, so the same bits as one column per pass).
            let row = &mut self.row[..nw];
            row.fill(0.0);
            let gb = &g[b * k..(b + 1) * k];
            for (a0, gs) in (0..blocked).step_by(4).zip(gb[..blocked].chunks_exact(4)) {
                let terms = column(a0)
                    .iter()
                    .zip(column(a0 + 1))
                    .zip(column(a0 + 2))
                    .zip(column(a0 + 3));
                for (acc, (((m0, m1), m2), m3)) in row.iter_mut().zip(terms) {
                    *acc = *acc + m0 * gs[0] + m1 * gs[1] + m2 * gs[2] + m3 * gs[3];
                }
            }
            for (a, &gab) in gb.iter().enumerate().skip(blocked) {
                for (acc, mil) in row.iter_mut().zip(column(a)) {
                    *acc += mil * gab;
                }
            }
            let col = &mut self.fresh.as_mut_slice()[j * n..(j + 1) * n];
            for (&i, acc) in self.w_pairs.iter().zip(row.iter()) {
                col[basis.pos[i]] = -acc;
            }
            for (&gab, &i) in gb.iter().zip(&basis.active) {
                col[basis.pos[i]] = -gab;
            }
        }
        for (i, (&r, col)) in basis
            .pos
            .iter()
            .zip(self.fresh.as_mut_slice().chunks_exact_mut(n))
            .enumerate()
        {
            if !basis.is_z[i] {
                col.fill(0.0);
                col[r] = 1.0;
            }
        }
        if !all_finite(self.fresh.as_slice()) {
            return false;
        }
        std::mem::swap(&mut self.inv, &mut self.fresh);
        self.updates = 0;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rng(state: &mut u64) -> f64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        (*state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }

    /// The full n×n basis matrix (column r: e_i for w_i, −M e_i for z_i).
    fn full(m: &DMatrix<f64>, basis: &[usize]) -> DMatrix<f64> {
        let n = basis.len();
        DMatrix::from_fn(n, n, |i, r| match basis[r] {
            v if v < n => f64::from(u8::from(i == v)),
            v => -m[(i, v - n)],
        })
    }

    #[test]
    fn z_block_solve_and_inverse_match_the_full_basis() {
        let mut seed = 0x51_7cc1_b727_220a;
        let mut c = ComplementaryBasis::default();
        let mut bi = BasisInverse::default();
        let mut worst: f64 = 0.0;
        // Runs of one size (48 three times, 7 three times) reuse an inverse's buffer of that shape, so entries a
        // basis does not write would show the previous basis' values.
        for (trial, n) in [1, 5, 12, 48, 48, 48, 30, 7, 7, 7].into_iter().enumerate() {
            // Diagonally weighted so the z blocks are well conditioned, as a Delassus block is.
            let m = DMatrix::from_fn(n, n, |i, j| rng(&mut seed) + if i == j { 4.0 } else { 0.0 });
            let q = DVector::from_fn(n, |_, _| rng(&mut seed));
            // Every kind of basis: all w, all z, mixed; positions shuffled by a rotation.
            let mut basis: Vec<usize> = (0..n)
                .map(|i| match trial % 3 {
                    0 if n > 1 => i + n * usize::from(rng(&mut seed) > 0.0),
                    1 => i + n * usize::from(trial > 3),
                    _ => i + n * usize::from(i % 3 != 0),
                })
                .collect();
            basis.rotate_left(trial % n.max(1));
            let b = full(&m, &basis);
            assert!(c.factor(&m, &basis), "complementary");
            assert_eq!(c.basis_max(&m), b.amax(), "n = {n}");
            let mut x = vec![0.0; n];
            assert!(c.solve(&m, &q, &mut x));
            let exact = b.clone().lu().solve(&q).expect("regular");
            let scale = exact.amax().max(1.0);
            worst = worst.max((DVector::from_vec(x) - &exact).amax() / scale);
            assert!(bi.invert_complementary(&c, &m));
            let inv = b.clone().try_inverse().expect("regular");
            worst = worst.max((bi.inverse() - &inv).amax() / inv.amax());
            assert_eq!(bi.updates(), 0);
        }
        assert!(worst < 1e-12, "worst relative difference {worst:e}");
    }

    #[test]
    fn non_complementary_bases_and_singular_blocks_are_refused() {
        let m = DMatrix::from_row_slice(2, 2, &[1.0, 1.0, 1.0, 1.0]);
        let mut c = ComplementaryBasis::default();
        // w_0 and z_0 together, a variable out of range, a size that is not m's.
        assert!(!c.factor(&m, &[0, 2]));
        assert!(!c.factor(&m, &[0, 4]));
        assert!(!c.factor(&m, &[0]));
        // Both z basic: M itself, singular.
        assert!(c.factor(&m, &[2, 3]));
        let mut x = vec![0.0; 2];
        let q = DVector::from_vec(vec![-1.0, -1.0]);
        assert!(!c.solve(&m, &q, &mut x));
        let mut bi = BasisInverse::identity(2);
        assert!(!bi.invert_complementary(&c, &m));
        assert_eq!(
            bi.inverse(),
            &DMatrix::identity(2, 2),
            "the old inverse stays"
        );
    }
}
