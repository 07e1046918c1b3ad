//! Lemke's complementary pivoting method (Cline §2.7.1, §4.8; Murty 1988 ch. 2).
//!
//! Tableau `w − M z − d z0 = q` over 2n + 1 variables: w_i (index i, column e_i), z_i (index n + i, column
//! −M e_i) and the artificial z0 (index 2n, column −d, d the covering vector, 1 by default). The basis holds n
//! of them, at most one of each pair {w_i, z_i}, with x = B⁻¹q ≥ 0.
//!
//! 1. q ≥ 0: z = 0 solves it.
//! 2. Otherwise z0 enters at the value max_i(−q_i/d_i) and the most violated w_t leaves (ties: the largest t,
//!    which makes the starting rows lexicographically positive).
//! 3. The complement of the variable that left enters; the lexicographic ratio test with the ε guard
//!    ([`super::ratio`]) picks the row that leaves. No blocking row: ray termination. z0 leaves: solved.
//!
//! B⁻¹ is kept explicitly and updated in O(n²) per pivot ([`BasisInverse`]); it is refactorised every
//! `refactor_every` (default max(50, n)) pivots and whenever the basic solution's backward error
//! |B x − q|_i / (|q_i| + Σ_k|B_ik x_k| + ‖q‖∞)
//! exceeds `refactor_tol` (checked every pivot, O(n²)).

use crate::math::dispatch::with_avx2;
use nalgebra::{DMatrix, DVector};

use super::basis::{BasisInverse, ComplementaryBasis};
use super::ratio::Ratio;

mod warm;
pub use super::ratio::TieBreak;
use super::{
    LcpError, LcpReport, LcpSolver, abs_max, begin_solve, column_of, complementarity_residual_in,
    zeroed_matrix, zeroed_vector,
};
use warm::start_entry;

/// Settings of [`Lemke`].
#[derive(Debug, Clone, PartialEq)]
pub struct LemkeOptions {
    /// Covering vector d (all entries > 0); `None`: all ones.
    pub covering: Option<DVector<f64>>,
    /// ε guard (Cline §4.8.3), relative: u_i = (B⁻¹c)_i blocks only if u_i > ε·Σ_j|B⁻¹_ij|(|c_j| + ‖c‖∞), and a
    /// basic value x_i ≤ ε·Σ_j|B⁻¹_ij|(|q_j| + ‖q‖∞) counts as 0. Default 1e-11 (≈ 5·10⁴ machine epsilons).
    pub pivot_tol: f64,
    /// Ratios within this relative distance of the minimum are tied (go to the lexicographic levels). Default
    /// 1e-9: on box-on-ground friction pyramids 1e-12 gave 16 ray terminations in 500 solves, 1e-11 one, 1e-10 to
    /// 1e-6 none (`docs/contact.md`).
    pub tie_tol: f64,
    /// Tie-breaking rule. Keep [`TieBreak::Lexicographic`]; the other exists to show cycling.
    pub tie_break: TieBreak,
    /// Refactorise B⁻¹ after this many O(n²) updates; `None` (default): max(50, n), so the O(n³)
    /// refactorisation amortises to O(n²) per pivot like the updates (a fixed 50 made refactorisation dominate
    /// the 384-variable pyramid, `docs/contact.md`). `Some(usize::MAX)`: only on drift.
    pub refactor_every: Option<usize>,
    /// Refactorise when the basic solution's backward error (module documentation) exceeds this. Default 1e-11. `f64::INFINITY`
    /// with `refactor_every = Some(usize::MAX)` disables refactorisation (for testing the updates).
    pub refactor_tol: f64,
    /// Pivot limit; `None`: 20·(n + 1) + 100. Lemke needs about n to 2n pivots on contact problems.
    pub max_pivots: Option<usize>,
    /// Warm start. Try the basis the previous solve of the same size ended in, then the active set of the
    /// incoming z (basis {z_i : z_i > 10⁻¹²·max z} ∪ {w_i : otherwise}), then the basis a quick walk from the last
    /// basis ends in (product form, no ε guard, checked like the others). The first that is nonsingular with
    /// a feasible solution B⁻¹q ≥ 0 (one LU solve each) is the answer, with 0 pivots (coherent resting contact
    /// from step to step). Otherwise Lemke pivots from the last basis (the covering vector B·1, so the
    /// artificial variable starts every row at once: a few pivots when the contacts changed a little), and only
    /// if that fails the cold start runs. Cost of a miss: one to three LU factorisations of the k×k z block (k
    /// basic z) and an inverse assembled from it (`basis/complementary.rs`).
    pub warm_start: bool,
}

impl Default for LemkeOptions {
    fn default() -> Self {
        Self {
            covering: None,
            pivot_tol: 1e-11,
            tie_tol: 1e-9,
            tie_break: TieBreak::Lexicographic,
            refactor_every: None,
            refactor_tol: 1e-11,
            max_pivots: None,
            warm_start: false,
        }
    }
}

/// The relative complementarity residual above which [`Lemke`] refuses its own solution ([`LcpError::Inaccurate`]).
/// Accurate solutions of the contact pyramids read 10⁻¹¹ and below, the blown-up ones 10⁻³.
const ACCEPT_TOL: f64 = 1e-6;

/// Basis-inverse updates after a refactorisation (or a fresh inverse) before the walk checks the backward error
/// after each pivot: a typical warm walk is 2–5 pivots long, the check was ≈ a third of a pivot's work, and the
/// first updates of a fresh inverse do not drift measurably (the end-of-walk residual check still covers them).
/// At 4 the check ran on 763 of the 2 623 pivots of the step benchmark and never refactorised there; at 8 that
/// benchmark gives the same bits, and the example figures move by round-off at most (`docs/performance.md`,
/// eighteenth pass).
const FRESH_UPDATES: usize = 8;

/// Lemke's method with buffers reused across solves. See the module documentation.
#[derive(Debug, Clone, Default)]
pub struct Lemke {
    /// Settings.
    pub options: LemkeOptions,
    basis: Vec<usize>,
    binv: BasisInverse,
    d: Vec<f64>,
    x: Vec<f64>,
    xs: Vec<f64>,
    u: Vec<f64>,
    us: Vec<f64>,
    c: Vec<f64>,
    tied: Vec<usize>,
    last_basis: Vec<usize>,
    /// The basis a pivoting run started from (B₀ of the lexicographic rule); empty for the cold start's slacks.
    start: Vec<usize>,
    /// `complementary` holds the factors of `last_basis`'s z block (left by the warm start's first check).
    last_factored: bool,
    /// A warm start's complementary bases, factored through their z block.
    complementary: ComplementaryBasis,
    /// The other candidates' bases (the guess, the quick walk's end), factored through their z block.
    checked: ComplementaryBasis,
    /// The basic values of `last_basis` when the warm start's first check solved for them (else empty).
    last_x: Vec<f64>,
    /// The quick walk's basis-update columns (`QUICK_PIVOTS` of length n), their pivot rows, and its right-hand
    /// side buffer.
    etas: Vec<f64>,
    eta_rows: Vec<usize>,
    rhs: DVector<f64>,
    report: LcpReport,
    /// Buffers, kept so that a solve allocates nothing once the largest problem has been seen: the basis matrix
    /// of a refactorisation, the active-set guess of a warm start, copies of z, and `M z + q` of the residual.
    bmat: DMatrix<f64>,
    guess_basis: Vec<usize>,
    guess: DVector<f64>,
    fresh: DVector<f64>,
    w: DVector<f64>,
    /// The pairs [`Lemke::set_warm_basis`] has seen.
    seen: Vec<bool>,
    /// The largest size the buffers have been given room for.
    reserved: Reserved,
}

/// The largest problem size a solver's buffers have room for. A clone starts again from 0: cloned buffers keep
/// only their contents, not their spare capacity.
#[derive(Debug, Default)]
struct Reserved(usize);

impl Clone for Reserved {
    fn clone(&self) -> Self {
        Reserved(0)
    }
}

impl Lemke {
    /// A solver with the given settings.
    pub fn new(options: LemkeOptions) -> Self {
        Self {
            options,
            ..Self::default()
        }
    }

    /// max |B⁻¹ − inv(B)| / max |inv(B)| for the basis the last cold solve ended in, against a fresh LU inverse
    /// (O(n³); diagnostics and tests of the O(n²) updates; a warm hit keeps no B⁻¹, so the figure is then
    /// meaningless). `f64::INFINITY` if that basis cannot be inverted.
    pub fn update_drift(&self, m: &DMatrix<f64>) -> f64 {
        match self.basis_matrix(m) {
            Some(b) => self.binv.drift(&b),
            None => f64::INFINITY,
        }
    }

    /// O(n²) updates applied since the last refactorisation in the last solve.
    pub fn updates_since_refactor(&self) -> usize {
        self.binv.updates()
    }

    fn basis_matrix(&self, m: &DMatrix<f64>) -> Option<DMatrix<f64>> {
        let n = self.basis.len();
        if m.nrows() != n || m.ncols() != n || self.d.len() != n {
            return None;
        }
        let mut b = DMatrix::zeros(n, n);
        for (r, &var) in self.basis.iter().enumerate() {
            column(var, m, &self.d, b.column_mut(r).as_mut_slice());
        }
        Some(b)
    }

    /// The basis matrix into `bmat`; false when the sizes do not match (where `basis_matrix` gives `None`).
    fn fill_basis_matrix(&mut self, m: &DMatrix<f64>) -> bool {
        let n = self.basis.len();
        if m.nrows() != n || m.ncols() != n || self.d.len() != n {
            return false;
        }
        if self.bmat.shape() != (n, n) {
            zeroed_matrix(&mut self.bmat, n, n);
        }
        // Every entry is written: `column` fills whole columns.
        for (r, &var) in self.basis.iter().enumerate() {
            column(var, m, &self.d, self.bmat.column_mut(r).as_mut_slice());
        }
        true
    }

    // Inlined into Lemke's baseline and AVX2 copies (`math::dispatch`).
    #[inline(always)]
    fn refactor(&mut self, m: &DMatrix<f64>) -> Result<(), LcpError> {
        let ok = self.fill_basis_matrix(m) && self.binv.refactor(&self.bmat);
        if !ok {
            return Err(LcpError::SingularBasis {
                pivots: self.report.pivots,
            });
        }
        self.report.refactorisations += 1;
        Ok(())
    }

    /// x = B⁻¹q and its round-off scale.
    // Inlined into Lemke's baseline and AVX2 copies (`math::dispatch`).
    #[inline(always)]
    fn basic_values(&mut self, q: &DVector<f64>) {
        self.binv.apply(q.as_slice(), &mut self.x, &mut self.xs);
    }

    /// Backward error of x: max_i |(B x − q)_i| / (|q_i| + Σ_k |B_ik x_k| + ‖q‖∞). O(n · basic z columns).
    /// The ‖q‖∞ term matters: in a degenerate basis some rows hold only round-off (all their terms ~1e-17), and
    /// a purely row-relative error there is O(1) without meaning anything; it triggered a needless O(n³)
    /// refactorisation at the last pivot of every pyramid solve.
    // Inlined into Lemke's baseline and AVX2 copies (`math::dispatch`).
    #[inline(always)]
    fn backward_error(&mut self, m: &DMatrix<f64>, q: &DVector<f64>) -> f64 {
        let n = q.len();
        // u and us are free between pivots: use them as the residual and its scale.
        let (u, us) = (&mut self.u[..n], &mut self.us[..n]);
        for ((ui, si), &qi) in u.iter_mut().zip(us.iter_mut()).zip(q.as_slice()) {
            *ui = -qi;
            *si = qi.abs();
        }
        // The dense columns (basic z and z0) four per pass, the unit columns of the basic w last. This is not the
        // basis order, so the sums round differently, but the error is only compared with `refactor_tol`: only
        // a value within round-off of the tolerance could decide otherwise (the step benchmark's fingerprints
        // are unchanged).
        let mut pending: [(&[f64], f64); 4] = [(&[], 0.0); 4];
        let mut filled = 0;
        for (r, &var) in self.basis.iter().enumerate() {
            let xr = self.x[r];
            if var < n {
                continue;
            }
            pending[filled] = if var < 2 * n {
                (column_of(m, var - n), xr)
            } else {
                (&self.d[..n], xr)
            };
            filled += 1;
            if filled == 4 {
                let [(c0, x0), (c1, x1), (c2, x2), (c3, x3)] = pending;
                let cols = c0.iter().zip(c1).zip(c2).zip(c3);
                for ((ui, si), (((a, b), c), d)) in u.iter_mut().zip(us.iter_mut()).zip(cols) {
                    let t = [-a * x0, -b * x1, -c * x2, -d * x3];
                    *ui = *ui + t[0] + t[1] + t[2] + t[3];
                    *si = *si + t[0].abs() + t[1].abs() + t[2].abs() + t[3].abs();
                }
                filled = 0;
            }
        }
        for &(col, xr) in &pending[..filled] {
            for ((ui, si), ci) in u.iter_mut().zip(us.iter_mut()).zip(col) {
                let t = -ci * xr;
                *ui += t;
                *si += t.abs();
            }
        }
        for (r, &var) in self.basis.iter().enumerate() {
            if var < n {
                u[var] += self.x[r];
                us[var] += self.x[r].abs();
            }
        }
        let qmax = abs_max(q.as_slice());
        u.iter()
            .zip(us.iter())
            .map(|(ui, si)| {
                let scale = si + qmax;
                if scale > 0.0 { ui.abs() / scale } else { 0.0 }
            })
            .fold(0.0, f64::max)
    }

    /// z from the basic values (round-off negatives clamped to 0) and its residual.
    // Inlined into Lemke's baseline and AVX2 copies (`math::dispatch`).
    #[inline(always)]
    fn extract(&mut self, m: &DMatrix<f64>, q: &DVector<f64>, z: &mut DVector<f64>) -> f64 {
        let n = q.len();
        z.as_mut_slice().fill(0.0);
        for (r, &var) in self.basis.iter().enumerate() {
            if (n..2 * n).contains(&var) {
                z[var - n] = self.x[r].max(0.0);
            }
        }
        complementarity_residual_in(m, q, z, &mut self.w)
    }

    /// Refuses a solution whose complementarity residual is not small against its own scale,
    /// `ACCEPT_TOL·(‖q‖∞ + ‖M‖∞‖z‖∞)·max(1, ‖z‖∞)`: on a nearly singular problem (collinear contacts, redundant
    /// normals) the ε guard can still let a walk end in a basis whose solution is round-off blown up to 10⁸ with a
    /// residual of 10¹⁴. Such a z must not reach the bodies: the caller falls back (contacts: PGS).
    // Inlined into Lemke's baseline and AVX2 copies (`math::dispatch`).
    #[inline(always)]
    fn accept(&self, m: &DMatrix<f64>, q: &DVector<f64>, z: &DVector<f64>) -> Result<(), LcpError> {
        let (zmax, qmax) = (abs_max(z.as_slice()), abs_max(q.as_slice()));
        let residual = self.report.residual;
        // The bound without its ‖M‖∞ term settles the usual case (residuals of 10⁻¹⁵) without the O(n²) max.
        let scale = zmax.max(1.0);
        if residual <= ACCEPT_TOL * qmax * scale {
            return Ok(());
        }
        let bound = ACCEPT_TOL * (qmax + abs_max(m.as_slice()) * zmax) * scale;
        if residual <= bound {
            Ok(())
        } else {
            Err(LcpError::Inaccurate { residual, bound })
        }
    }

    fn setup(&mut self, n: usize) -> Result<(), LcpError> {
        for v in [
            &mut self.x,
            &mut self.xs,
            &mut self.u,
            &mut self.us,
            &mut self.c,
        ] {
            v.clear();
            v.resize(n, 0.0);
        }
        self.tied.clear();
        self.start.clear();
        // Room for the largest problem once, not at every solve (the reserving code was ≈ 100 instruction-cache
        // misses per 8-contact step): capacities only grow, so a size seen before needs none.
        if n > self.reserved.0 {
            // The ratio test's tied rows number at most n: reserved here, so a solve never grows them (a later,
            // more degenerate solve of a size seen before would otherwise allocate).
            self.tied.reserve(n);
            // The warm walk's starting basis too (a first walk after the largest problem must not allocate).
            self.start.reserve(n);
            self.binv.reserve(n);
            self.complementary.reserve(n);
            self.checked.reserve(n);
            self.last_x.reserve(n);
            self.etas.reserve(n * warm::QUICK_PIVOTS);
            self.eta_rows.reserve(warm::QUICK_PIVOTS);
            self.reserved.0 = n;
        }
        self.covering(n)?;
        self.report = LcpReport {
            converged: true,
            ..LcpReport::default()
        };
        Ok(())
    }

    /// The covering vector of a cold start into `d`.
    fn covering(&mut self, n: usize) -> Result<(), LcpError> {
        self.d.clear();
        match &self.options.covering {
            None => self.d.resize(n, 1.0),
            Some(d) if d.len() == n && d.iter().all(|v| v.is_finite() && *v > 0.0) => {
                self.d.extend(d.iter().copied())
            }
            Some(_) => {
                return Err(LcpError::InvalidOption {
                    what: "covering vector d must have n finite entries > 0",
                });
            }
        }
        Ok(())
    }

    // Inlined into Lemke's baseline and AVX2 copies (`math::dispatch`).
    #[inline(always)]
    fn cold(
        &mut self,
        m: &DMatrix<f64>,
        q: &DVector<f64>,
        z: &mut DVector<f64>,
    ) -> Result<(), LcpError> {
        let n = q.len();
        self.basis.clear();
        self.basis.extend(0..n);
        self.start.clear();
        self.binv.reset_identity(n);
        self.basic_values(q);
        if q.iter().all(|&v| v >= 0.0) {
            z.as_mut_slice().fill(0.0);
            self.report.residual = complementarity_residual_in(m, q, z, &mut self.w);
            return Ok(());
        }
        let limit = self.options.max_pivots.unwrap_or(20 * (n + 1) + 100);
        let d = &self.d;
        let (t, _) = first_row(n, self.options.tie_tol, |i| -q[i] / d[i]);
        self.walk(m, q, z, t, limit)
    }

    /// The complementary pivots from the basis in `self.basis` (inverse in `self.binv`, values in `self.x`): z0
    /// enters at row `t`, then the complement of each leaving variable enters until z0 leaves.
    // Inlined into Lemke's baseline and AVX2 copies (`math::dispatch`).
    #[inline(always)]
    fn walk(
        &mut self,
        m: &DMatrix<f64>,
        q: &DVector<f64>,
        z: &mut DVector<f64>,
        t: usize,
        limit: usize,
    ) -> Result<(), LcpError> {
        let n = q.len();
        let (eps, tie) = (self.options.pivot_tol, self.options.tie_tol);
        let refactor_every = self.options.refactor_every.unwrap_or(n.max(50));
        let z0 = 2 * n;
        let pivots0 = self.report.pivots;
        let mut entering = z0;
        let mut row = t;
        loop {
            column(entering, m, &self.d, &mut self.c);
            self.binv.apply(&self.c, &mut self.u, &mut self.us);
            if entering != z0 || self.report.pivots > pivots0 {
                let ratio = Ratio {
                    x: &self.x,
                    xs: &self.xs,
                    u: &self.u,
                    us: &self.us,
                    eps,
                    tie,
                    artificial_row: self.basis.iter().position(|&v| v == z0),
                };
                let binv = self.binv.inverse();
                let (start, d) = (&self.start, &self.d);
                // (B⁻¹B₀)_ik: B⁻¹'s own entries on a cold start, else row i of B⁻¹ times B₀'s column k.
                let lex = |i: usize, k: usize| match start.get(k) {
                    None => binv[(i, k)],
                    Some(&var) => start_entry(binv, m, d, i, var),
                };
                let lex_scale = |i: usize| {
                    if start.is_empty() {
                        binv.row(i).amax()
                    } else {
                        (0..n).map(|k| lex(i, k).abs()).fold(0.0, f64::max)
                    }
                };
                match ratio.leaving_row(self.options.tie_break, lex, lex_scale, &mut self.tied) {
                    Some(r) => row = r,
                    None => {
                        return Err(LcpError::RayTermination {
                            pivots: self.report.pivots,
                            entering: name(entering, n),
                        });
                    }
                }
            }
            if !self.binv.replace_column(row, &self.u) {
                return Err(LcpError::SingularBasis {
                    pivots: self.report.pivots,
                });
            }
            let leaving = std::mem::replace(&mut self.basis[row], entering);
            self.report.pivots += 1;
            self.basic_values(q);
            // The first updates after a fresh inverse do not drift measurably (within 1e-10 after 60+ pivots,
            // `docs/contact.md`), so their O(n·k) check is skipped; the residual check at the end covers them.
            let updates = self.binv.updates();
            if updates >= refactor_every
                || (updates >= FRESH_UPDATES
                    && self.backward_error(m, q) > self.options.refactor_tol)
            {
                self.refactor(m)?;
                self.basic_values(q);
            }
            if leaving == z0 {
                break;
            }
            if self.report.pivots - pivots0 >= limit {
                return Err(LcpError::IterationLimit { limit });
            }
            entering = complement(leaving, n);
        }
        self.report.residual = self.extract(m, q, z);
        // A last refactorisation when the updated inverse left a visible residual: cheap insurance, rare.
        if self.report.residual > 1e-12 && self.binv.updates() > 0 {
            self.refactor(m)?;
            self.basic_values(q);
            let mut fresh = std::mem::take(&mut self.fresh);
            if fresh.len() != z.len() {
                zeroed_vector(&mut fresh, z.len());
            }
            let res = self.extract(m, q, &mut fresh);
            if res < self.report.residual {
                z.copy_from(&fresh);
                self.report.residual = res;
            }
            self.fresh = fresh;
        }
        Ok(())
    }
}

impl LcpSolver for Lemke {
    fn solve(
        &mut self,
        m: &DMatrix<f64>,
        q: &DVector<f64>,
        z: &mut DVector<f64>,
    ) -> Result<LcpReport, LcpError> {
        with_avx2!((
            lemke: &mut Lemke = self,
            m: &DMatrix<f64> = m,
            q: &DVector<f64> = q,
            z: &mut DVector<f64> = z,
        ) -> Result<LcpReport, LcpError> {
            lemke.solve_kernel(m, q, z)
        })
    }
}

impl Lemke {
    /// [`LcpSolver::solve`]'s body, inlined into its baseline and AVX2 copies (`math::dispatch`).
    #[inline(always)]
    fn solve_kernel(
        &mut self,
        m: &DMatrix<f64>,
        q: &DVector<f64>,
        z: &mut DVector<f64>,
    ) -> Result<LcpReport, LcpError> {
        let n = q.len();
        let warm_ok = begin_solve(m, q, z, |n| self.setup(n))?;
        let warm = if self.options.warm_start && warm_ok && n > 0 {
            self.solve_warm(m, q, z)?
        } else {
            None
        };
        // A warm solve has set the next warm basis already; a cold one ends in a complementary basis (z0 has
        // left), where the next warm start begins. Either answer must pass `accept`.
        let solved = match warm {
            Some(report) => self.accept(m, q, z).map(|()| report),
            None => self
                .cold(m, q, z)
                .and_then(|()| self.accept(m, q, z))
                .map(|()| {
                    self.last_basis.clone_from(&self.basis);
                    self.report.clone()
                }),
        };
        if solved.is_err() {
            z.as_mut_slice().fill(0.0);
            self.last_basis.clear();
        }
        solved
    }
}

/// The tableau column of variable `var` into `out` (length n): e_i for w_i, −M e_i for z_i, −d for z0.
fn column(var: usize, m: &DMatrix<f64>, d: &[f64], out: &mut [f64]) {
    let n = out.len();
    if var < n {
        out.fill(0.0);
        out[var] = 1.0;
    } else if var < 2 * n {
        for (o, v) in out.iter_mut().zip(column_of(m, var - n)) {
            *o = -v;
        }
    } else {
        for (o, v) in out.iter_mut().zip(d) {
            *o = -v;
        }
    }
}

/// The row z0 replaces at its entry, and its violation: the largest `violation(i)` (the basic value's deficit
/// per unit of z0), ties within the relative `tie` going to the largest index, which keeps every row of
/// [x, B⁻¹B₀] lexicographically positive after the pivot (row i < t gets e_i − (d_i/d_t) e_t).
fn first_row(n: usize, tie: f64, violation: impl Fn(usize) -> f64) -> (usize, f64) {
    let worst = (0..n).map(&violation).fold(f64::MIN, f64::max);
    let t = (0..n)
        .rev()
        .find(|&i| violation(i) >= worst * (1.0 - tie))
        .unwrap_or(0);
    (t, worst)
}

/// w_i ↔ z_i. (z0 has no complement; it never enters a second time.)
fn complement(var: usize, n: usize) -> usize {
    if var < n { var + n } else { var - n }
}

/// `w3`, `z3` or `z0*` for messages.
fn name(var: usize, n: usize) -> String {
    match var {
        v if v < n => format!("w{v}"),
        v if v < 2 * n => format!("z{}", v - n),
        _ => "z0 (artificial)".to_string(),
    }
}

#[cfg(test)]
mod tests;
