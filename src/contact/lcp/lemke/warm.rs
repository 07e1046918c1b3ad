//! Lemke's warm start (`LemkeOptions::warm_start`): the last complementary basis, the active set of the incoming
//! z, or the end of a quick (product-form, unguarded) walk from the last basis, taken when feasible (one LU solve
//! each), else Lemke's guarded pivoting from the last basis, with the cold start of the parent module as the
//! fallback. See `docs/contact.md`, "Warm start", "Pivoting from the last basis" and "The quick walk".

use nalgebra::{DMatrix, DVector};

use super::super::basis::ComplementaryBasis;
use super::super::{LcpError, LcpReport, abs_max, all_finite, column_of, pair_of, zeroed_vector};
use super::{Lemke, column, complement, first_row};

/// The most pivots a quick walk (`try_quick_walk`) takes before it leaves the problem to the guarded walk.
pub(super) const QUICK_PIVOTS: usize = 8;

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
            .map(|hit| hit || self.try_quick_walk(m, q, &mut guess));
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
            // An LU solve of the z block only, not an inverse: a hit needs no B⁻¹. The last basis is factored
            // into `complementary`, whose factors the walks reuse (B₀⁻¹); the guess into the scratch block. A
            // refused candidate may leave its block half written: only a factored candidate 0 counts as factored.
            let first = candidate == 0;
            let mut block = std::mem::take(if first {
                &mut self.complementary
            } else {
                &mut self.checked
            });
            let factored = block.factor(m, &self.basis);
            let hit = factored && {
                self.report.refactorisations += 1;
                self.last_factored |= first;
                self.check_factored(&mut block, m, q, z, first)
            };
            if first {
                self.complementary = block;
            } else {
                self.checked = block;
            }
            if hit {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Whether the basis in `self.basis`, factored in `block`, solves the LCP: x = B⁻¹q feasible up to the
    /// round-off of the solve (a floor that only a negative value needs: a hit usually has none) and a backward
    /// error within `refactor_tol` (which rejects a near-singular candidate). If so, z holds the solution. With
    /// `keep`, finite basic values are copied to `last_x` (the quick walk starts from them).
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

    /// The warm start's third candidate: Lemke's walk from the last basis B₀, run cheaply and checked. The walk
    /// is the one `warm_walk` takes (z0 enters at the most negative row of B₀⁻¹q with covering B₀·1, then the
    /// complement of each leaving variable), but B⁻¹ is kept in product form: B₀⁻¹ through the z-block factors
    /// candidate 0 left, one update column per pivot, no explicit inverse and no ε guard (a plain ratio test,
    /// ties to z0's row). Its end basis is then checked like every candidate (one z-block LU, feasibility,
    /// backward error), so an unguarded pivot can cost a miss, never a wrong answer; a miss leaves the guarded
    /// walk to run. Walks are 2–5 pivots on the contact step; a quick walk costs an LU solve per pivot and the
    /// check, against the walk's explicit B₀⁻¹ and O(n²) pivots. `Ok(true)`: z holds the solution.
    // Inlined into Lemke's baseline and AVX2 copies (`math::dispatch`).
    #[inline(always)]
    fn try_quick_walk(&mut self, m: &DMatrix<f64>, q: &DVector<f64>, z: &mut DVector<f64>) -> bool {
        let n = q.len();
        if self.last_x.len() != n || !self.last_factored {
            return false;
        }
        let (t, worst) = first_row(n, self.options.tie_tol, |i| -self.last_x[i]);
        if worst <= 0.0 {
            return false;
        }
        let z0 = 2 * n;
        // z0 enters at row t: its transformed column is −1, so every value rises by `worst`.
        self.basis.clone_from(&self.last_basis);
        let x = &mut self.xs[..n];
        for (xi, &li) in x.iter_mut().zip(&self.last_x) {
            *xi = li + worst;
        }
        x[t] = worst;
        self.etas.clear();
        self.etas.resize(n, -1.0);
        self.eta_rows.clear();
        self.eta_rows.push(t);
        let mut leaving = std::mem::replace(&mut self.basis[t], z0);
        if self.rhs.len() != n {
            zeroed_vector(&mut self.rhs, n);
        }
        while leaving != z0 {
            if self.eta_rows.len() == QUICK_PIVOTS {
                return false;
            }
            let entering = complement(leaving, n);
            // ā = B⁻¹·column(entering): B₀⁻¹ through the z block, then the updates in order.
            column(entering, m, &self.d, self.rhs.as_mut_slice());
            if !self.complementary.solve(m, &self.rhs, &mut self.u) {
                return false;
            }
            let u = &mut self.u[..n];
            for (k, &r) in self.eta_rows.iter().enumerate() {
                let eta = &self.etas[k * n..(k + 1) * n];
                let ur = u[r] / eta[r];
                for (ui, &ei) in u.iter_mut().zip(eta) {
                    *ui -= ei * ur;
                }
                u[r] = ur;
            }
            // The plain ratio test: the smallest x_i/u_i over u_i clearly positive, ties to z0's row.
            let floor = 1e-12 * abs_max(u);
            let mut best: Option<(usize, f64)> = None;
            for (i, (&ui, &xi)) in u.iter().zip(self.xs.iter()).enumerate() {
                if ui <= floor {
                    continue;
                }
                let ratio = xi.max(0.0) / ui;
                let better = match best {
                    None => true,
                    Some((b, rb)) => {
                        ratio < rb * (1.0 - 1e-9)
                            || (ratio <= rb * (1.0 + 1e-9) && self.basis[i] == z0)
                                && self.basis[b] != z0
                    }
                };
                if better {
                    best = Some((i, ratio));
                }
            }
            let Some((r, theta)) = best else {
                return false;
            };
            let x = &mut self.xs[..n];
            for (xi, &ui) in x.iter_mut().zip(u.iter()) {
                *xi -= theta * ui;
            }
            x[r] = theta;
            self.etas.extend_from_slice(u);
            self.eta_rows.push(r);
            leaving = std::mem::replace(&mut self.basis[r], entering);
        }
        let mut block = std::mem::take(&mut self.checked);
        let hit = block.factor(m, &self.basis) && {
            self.report.refactorisations += 1;
            self.check_factored(&mut block, m, q, z, false)
        };
        self.checked = block;
        self.report.quick = hit;
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
