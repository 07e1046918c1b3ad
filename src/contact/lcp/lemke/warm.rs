//! Lemke's warm start (`LemkeOptions::warm_start`): the last complementary basis or the active set of the
//! incoming z taken as they are when still feasible (one LU solve), else Lemke pivoting from the last basis, with
//! the cold start of the parent module as the fallback. See `docs/contact.md`, "Warm start" and "Pivoting from
//! the last basis".

use nalgebra::{DMatrix, DVector};

use super::super::basis::ComplementaryBasis;
use super::super::{LcpError, LcpReport, abs_max, all_finite, column_of, pair_of, zeroed_vector};
use super::{Lemke, complement, first_row};

impl Lemke {
    /// The basis the next warm start tries first (the last complementary basis; empty when there is none).
    pub fn warm_basis(&self) -> &[usize] {
        &self.last_basis
    }

    /// Sets [`Lemke::warm_basis`] (restoring a state snapshot). Anything but a complementary basis (n entries, one
    /// of `i` and `n + i` for every `i`) is dropped, so a corrupt snapshot costs a cold start, never a panic; a basis
    /// of another size than the next problem's is simply not used.
    pub fn set_warm_basis(&mut self, basis: &[usize]) {
        self.last_basis.clear();
        let n = basis.len();
        // `seen` is kept between calls: the contact step sets a basis per independent part every step.
        self.seen.clear();
        self.seen.resize(n, false);
        for &b in basis {
            if b >= 2 * n || std::mem::replace(&mut self.seen[pair_of(b, n)], true) {
                return;
            }
        }
        self.last_basis.extend_from_slice(basis);
    }

    /// The warm start of a solve (`warm_start` set, a usable incoming z, n > 0): the last basis or the guess as
    /// they are, else the walk from the last basis. `Ok(Some(report))`: z holds the solution. `Ok(None)`: the cold
    /// start must run (the report keeps the pivots and factorisations spent here, the covering vector is the cold
    /// start's again, z is zero).
    // Inlined into Lemke's baseline and AVX2 copies (`math::dispatch`).
    #[inline(always)]
    pub(super) fn solve_warm(
        &mut self,
        m: &DMatrix<f64>,
        q: &DVector<f64>,
        z: &mut DVector<f64>,
    ) -> Result<Option<LcpReport>, LcpError> {
        let n = q.len();
        // The guess is tried on a copy (a miss must leave z for the cold start), kept between solves.
        let mut guess = std::mem::take(&mut self.guess);
        if guess.len() != n {
            zeroed_vector(&mut guess, n);
        }
        guess.copy_from(z);
        let hit = self
            .try_warm(m, q, &mut guess)
            .map(|hit| hit || self.try_flip(m, q, &mut guess));
        if matches!(hit, Ok(true)) {
            z.copy_from(&guess);
        }
        self.guess = guess;
        if hit? {
            self.last_basis.clone_from(&self.basis);
            return Ok(Some(self.report.clone()));
        }
        if self.last_basis.len() != n {
            return Ok(None);
        }
        let before = self.report.clone();
        match self.warm_walk(m, q, z) {
            Ok(()) => {
                self.last_basis.clone_from(&self.basis);
                self.report.warm_started = true;
                Ok(Some(self.report.clone()))
            }
            Err(_) => {
                let (pivots, refactorisations) = (self.report.pivots, self.report.refactorisations);
                self.report = LcpReport {
                    pivots,
                    refactorisations,
                    ..before
                };
                self.covering(n)?;
                z.as_mut_slice().fill(0.0);
                Ok(None)
            }
        }
    }

    /// The warm start: first the basis the previous solve of the same size ended in (coherence between steps),
    /// then the active set of the incoming z. `Ok(true)`: z holds the solution.
    // Inlined into Lemke's baseline and AVX2 copies (`math::dispatch`).
    #[inline(always)]
    fn try_warm(
        &mut self,
        m: &DMatrix<f64>,
        q: &DVector<f64>,
        z: &mut DVector<f64>,
    ) -> Result<bool, LcpError> {
        let n = q.len();
        let last = self.last_basis.len() == n;
        // Values at round-off level are not "active": their columns may be dependent on the others.
        self.guess_basis.clear();
        let zmax = abs_max(z.as_slice());
        if zmax > 0.0 {
            self.guess_basis
                .extend((0..n).map(|i| if z[i] > 1e-12 * zmax { n + i } else { i }));
        }
        let repeats_last = last && self.last_basis == self.guess_basis;
        let guess = !self.guess_basis.is_empty() && !repeats_last;
        // The candidates in order: the last basis, then the guess when it differs.
        self.last_factored = false;
        self.last_x.clear();
        for candidate in 0..2 {
            if candidate == 0 && last {
                self.basis.clone_from(&self.last_basis);
            } else if candidate == 1 && guess {
                self.basis.clone_from(&self.guess_basis);
            } else {
                continue;
            }
            // An LU solve of the z block only, not an inverse: a hit needs no B⁻¹. A refused candidate may leave
            // the block half written: only a factored candidate 0 counts as factored.
            self.last_factored = false;
            let mut block = std::mem::take(&mut self.complementary);
            let factored = block.factor(m, &self.basis);
            let hit = factored && {
                self.report.refactorisations += 1;
                self.last_factored = candidate == 0;
                self.check_factored(&mut block, m, q, z, candidate == 0)
            };
            self.complementary = block;
            if hit {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Whether the basis in `self.basis`, factored in `block`, solves the LCP: x = B⁻¹q feasible up to the
    /// round-off of the solve (a floor that only a negative value needs: a hit usually has none) and a backward
    /// error within `refactor_tol` (which rejects a near-singular candidate). If so, z holds the solution. With
    /// `keep`, finite basic values are copied to `last_x` (the flip candidate starts from them).
    // Inlined into Lemke's baseline and AVX2 copies (`math::dispatch`).
    #[inline(always)]
    fn check_factored(
        &mut self,
        block: &mut ComplementaryBasis,
        m: &DMatrix<f64>,
        q: &DVector<f64>,
        z: &mut DVector<f64>,
        keep: bool,
    ) -> bool {
        let n = q.len();
        if !block.solve(m, q, &mut self.x) || !all_finite(&self.x) {
            return false;
        }
        let x = &self.x[..n];
        if keep {
            self.last_x.extend_from_slice(x);
        }
        let feasible = x.iter().all(|&v| v >= 0.0) || {
            let scale = abs_max(q.as_slice()) + block.basis_max(m) * abs_max(x);
            let floor = self.options.pivot_tol * scale;
            x.iter().all(|&v| v >= -floor)
        };
        if feasible && self.backward_error(m, q) <= self.options.refactor_tol {
            self.report.residual = self.extract(m, q, z);
            self.report.warm_started = true;
            return true;
        }
        false
    }

    /// The warm start's third candidate: the last basis with the pair of its most negative basic value flipped
    /// (w_t ↔ z_t). That is where Lemke's walk from the last basis ends when it takes two pivots (z0 enters at
    /// row t, the complement of the variable that left enters, z0 leaves), which is the most common walk (on
    /// the 8-contact step 40 % of the velocity parts' walks and 57 % of the position LCP's): one z-block LU
    /// instead of the walk's B₀⁻¹ and pivots. `Ok(true)`: z holds the solution.
    // Inlined into Lemke's baseline and AVX2 copies (`math::dispatch`).
    #[inline(always)]
    fn try_flip(&mut self, m: &DMatrix<f64>, q: &DVector<f64>, z: &mut DVector<f64>) -> bool {
        let n = q.len();
        if self.last_x.len() != n {
            return false;
        }
        // The walk's first row (d = B₀·1, so the violation per unit of z0 is −x_i).
        let x = &self.last_x;
        let (t, worst) = first_row(n, self.options.tie_tol, |i| -x[i]);
        if worst <= 0.0 {
            return false;
        }
        self.basis.clone_from(&self.last_basis);
        self.basis[t] = complement(self.basis[t], n);
        let mut block = std::mem::take(&mut self.flipped);
        let hit = block.factor(m, &self.basis) && {
            self.report.refactorisations += 1;
            self.check_factored(&mut block, m, q, z, false)
        };
        self.flipped = block;
        self.report.flipped = hit;
        hit
    }

    /// Lemke from the last complementary basis B₀ instead of the slacks: the LCP seen in that basis (its
    /// principal pivot transform) with the covering vector 1, i.e. d = B₀·1 in the original tableau, so that
    /// B₀⁻¹d = 1 and z0 lifts every basic value at once. The lexicographic rule then compares rows of B⁻¹B₀
    /// (B₀ is the identity of the transformed problem), which keeps the path free of cycles exactly as a cold
    /// start. When the contacts changed little since the last step this ends in a few pivots where the cold
    /// start takes 2n/3; when it fails (ray, singular basis, its pivot limit) the caller runs the cold start.
    // Inlined into Lemke's baseline and AVX2 copies (`math::dispatch`).
    #[inline(always)]
    fn warm_walk(
        &mut self,
        m: &DMatrix<f64>,
        q: &DVector<f64>,
        z: &mut DVector<f64>,
    ) -> Result<(), LcpError> {
        let n = q.len();
        self.basis.clone_from(&self.last_basis);
        self.start.clone_from(&self.last_basis);
        // d = B₀·1: the sum of the basis columns (e_i for w_i, −M e_i for z_i).
        self.d.clear();
        self.d.resize(n, 0.0);
        for &var in &self.start {
            if var < n {
                self.d[var] += 1.0;
            } else {
                for (d, v) in self.d.iter_mut().zip(column_of(m, var - n)) {
                    *d -= v;
                }
            }
        }
        // B₀⁻¹ from the z block the warm start's check factored, when it left it.
        let inverted = self.last_factored && self.binv.invert_complementary(&self.complementary, m);
        if !inverted {
            self.refactor(m)?;
        }
        self.basic_values(q);
        let x = &self.x;
        let (t, worst) = first_row(n, self.options.tie_tol, |i| -x[i]);
        if worst <= 0.0 {
            // Feasible after all (the LU check rejected it on its backward error): pivot nothing.
            self.report.residual = self.extract(m, q, z);
            return Ok(());
        }
        // A warm path that wanders is not worth finishing: the cold start's typical length bounds it.
        let limit = self.options.max_pivots.unwrap_or(n + 10);
        self.walk(m, q, z, t, limit)
    }
}

/// (B⁻¹ B₀)_ik where B₀'s column k is the tableau column of `var`: e_var for w, −M e_j for z_j.
pub(super) fn start_entry(
    binv: &DMatrix<f64>,
    m: &DMatrix<f64>,
    d: &[f64],
    i: usize,
    var: usize,
) -> f64 {
    let n = binv.nrows();
    if var < n {
        binv[(i, var)]
    } else if var < 2 * n {
        -(0..n).map(|j| binv[(i, j)] * m[(j, var - n)]).sum::<f64>()
    } else {
        -(0..n).map(|j| binv[(i, j)] * d[j]).sum::<f64>()
    }
}
