//! The (lexicographic) minimum ratio test of Lemke's method with the ε guard of Cline §4.8.3.
//!
//! Given the basic values x = B⁻¹q ≥ 0 and the entering column u = B⁻¹c, the leaving row is the one that blocks
//! the entering variable first: argmin over u_i > 0 of x_i / u_i.
//!
//! **ε guard.** Round-off can leave both x_i and u_i tiny positive numbers whose ratio is spuriously the smallest
//! (Cline: "happened to us surprisingly often"). A row is a candidate only if `u_i > ε·s_i`, where
//! `s_i = Σ_j |B⁻¹_ij| (|c_j| + ‖c‖∞)` bounds the round-off of u_i: that of the sum itself (the |c_j| part) and
//! that the input column already carries (an exact zero of M = J W Jᵀ computes as ~1e-16·‖M‖; the ‖c‖∞ part). An
//! entry below ε times that scale is indistinguishable from zero and treated as zero (not blocking). Likewise
//! `x_i ≤ ε·t_i` (t_i the same scale for q) is taken as exactly 0, so degenerate rows tie exactly. Scaling the
//! problem scales u_i and s_i alike, so the guard is scale-invariant, unlike Cline's absolute ε.
//!
//! **Near-ties** (Cline leaves these open): ratios within a relative `tie` of the minimum are treated as tied and
//! passed to the next lexicographic level. Treating a true near-tie as a tie is harmless (the chosen row is still
//! feasible to within `tie` relative, which the final clamp and residual absorb); resolving a round-off tie by its
//! noise is what can cycle.
//!
//! **Lexicographic rule** (Murty; Cline §2.7.1): among tied rows compare (B⁻¹B₀)_ik / u_i for k = 0, 1, … and
//! keep the minimum, where B₀ is the starting basis (the identity on a cold start, so the entries are just B⁻¹'s).
//! This keeps every row of [x, B⁻¹B₀] lexicographically positive, so no basis repeats and Lemke cannot cycle.
//! If the artificial variable's row is among the tied rows it is chosen at once: it ends the solve.

/// How ties in the minimum ratio test are broken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TieBreak {
    /// The lexicographic rule: no cycling (the default; the only sound choice).
    #[default]
    Lexicographic,
    /// The lowest row index among the tied rows: the plain minimum ratio test. It can cycle on degenerate
    /// problems; kept to demonstrate that in tests.
    FirstIndex,
}

/// The inputs of one ratio test.
pub(crate) struct Ratio<'a> {
    /// Basic values x = B⁻¹q.
    pub x: &'a [f64],
    /// Round-off scale of x (Σ_j |B⁻¹_ij| (|q_j| + ‖q‖∞)).
    pub xs: &'a [f64],
    /// Entering column u = B⁻¹c.
    pub u: &'a [f64],
    /// Round-off scale of u (Σ_j |B⁻¹_ij| (|c_j| + ‖c‖∞)).
    pub us: &'a [f64],
    /// The ε guard, relative to the round-off scale.
    pub eps: f64,
    /// Relative tolerance under which two ratios are tied.
    pub tie: f64,
    /// The row holding the artificial variable z0, if it is basic.
    pub artificial_row: Option<usize>,
}

impl Ratio<'_> {
    /// x_i with values below the ε guard taken as exact zeros (negative round-off included).
    fn x_clean(&self, i: usize) -> f64 {
        if self.x[i] <= self.eps * self.xs[i] {
            0.0
        } else {
            self.x[i]
        }
    }

    /// The leaving row, or `None` if no row blocks (ray termination). `lex(i, k)` is (B⁻¹B₀)_ik and
    /// `lex_scale(i)` an upper bound of |(B⁻¹B₀)_ik| over k (used as the zero floor of the lexicographic levels).
    /// `tied` is a scratch buffer.
    // Inlined into Lemke's baseline and AVX2 copies (`math::dispatch`).
    #[inline(always)]
    pub fn leaving_row(
        &self,
        rule: TieBreak,
        lex: impl Fn(usize, usize) -> f64,
        lex_scale: impl Fn(usize) -> f64,
        tied: &mut Vec<usize>,
    ) -> Option<usize> {
        let n = self.u.len();
        let mut theta = f64::INFINITY;
        for i in 0..n {
            if self.u[i] > self.eps * self.us[i] && self.u[i] > 0.0 {
                theta = theta.min(self.x_clean(i) / self.u[i]);
            }
        }
        if !theta.is_finite() {
            return None;
        }
        tied.clear();
        let bound = theta * (1.0 + self.tie);
        for i in 0..n {
            if self.u[i] > self.eps * self.us[i]
                && self.u[i] > 0.0
                && self.x_clean(i) / self.u[i] <= bound
            {
                tied.push(i);
            }
        }
        if tied.len() == 1 {
            return Some(tied[0]);
        }
        if let Some(a) = self.artificial_row.filter(|a| tied.contains(a)) {
            return Some(a);
        }
        if rule == TieBreak::FirstIndex {
            return tied.first().copied();
        }
        // Zero floor of the levels: entries of (B⁻¹B₀)_i / u_i below tie × the largest such row are round-off of
        // exact zeros and must tie with them, or the noise would decide.
        let floor = self.tie
            * tied
                .iter()
                .map(|&i| lex_scale(i) / self.u[i])
                .fold(0.0, f64::max);
        for k in 0..n {
            let vmin = tied
                .iter()
                .map(|&i| lex(i, k) / self.u[i])
                .fold(f64::INFINITY, f64::min);
            tied.retain(|&i| {
                let v = lex(i, k) / self.u[i];
                v - vmin <= self.tie * v.abs().max(vmin.abs()) + floor
            });
            if tied.len() <= 1 {
                break;
            }
        }
        // More than one left only if rows of B⁻¹B₀ agree to the tolerance at every level (numerically dependent
        // rows): any of them is as good as another.
        tied.first().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn test<'a>(x: &'a [f64], u: &'a [f64], ones: &'a [f64]) -> Ratio<'a> {
        Ratio {
            x,
            xs: ones,
            u,
            us: ones,
            eps: 1e-11,
            tie: 1e-12,
            artificial_row: None,
        }
    }

    #[test]
    fn minimum_ratio_and_ray() {
        let ones = [1.0; 3];
        let mut t = Vec::new();
        let r = test(&[1.0, 1.0, 3.0], &[0.5, -1.0, 2.0], &ones);
        assert_eq!(
            r.leaving_row(TieBreak::Lexicographic, |_, _| 0.0, |_| 1.0, &mut t),
            Some(2)
        );
        let r = test(&[1.0, 1.0, 3.0], &[0.0, -1.0, -2.0], &ones);
        assert_eq!(
            r.leaving_row(TieBreak::Lexicographic, |_, _| 0.0, |_| 1.0, &mut t),
            None
        );
    }

    #[test]
    fn epsilon_guard_ignores_round_off_pivots() {
        // Row 0: both x and u are round-off (1e-18 against a scale of 1): the plain test would pick ratio 1e-2.
        let ones = [1.0; 2];
        let r = test(&[1e-18, 1.0], &[1e-16, 1.0], &ones);
        let mut t = Vec::new();
        assert_eq!(
            r.leaving_row(TieBreak::Lexicographic, |_, _| 0.0, |_| 1.0, &mut t),
            Some(1)
        );
        // The same numbers at a scale of 1e-20 are real and do block.
        let tiny = [1e-20; 2];
        let r = Ratio {
            xs: &tiny,
            us: &tiny,
            ..test(&[1e-18, 1.0], &[1e-16, 1.0], &ones)
        };
        assert_eq!(
            r.leaving_row(TieBreak::Lexicographic, |_, _| 0.0, |_| 1.0, &mut t),
            Some(0)
        );
    }

    #[test]
    fn ties_go_lexicographic_or_to_the_artificial_row() {
        let ones = [1.0; 3];
        let x = [0.0, 0.0, 5.0];
        let u = [1.0, 2.0, 1.0];
        // Identity B⁻¹: level 0 gives row 0 → 1/1 and row 1 → 0/2: row 1 is lexicographically smaller.
        let id = |i: usize, k: usize| if i == k { 1.0 } else { 0.0 };
        let mut t = Vec::new();
        let r = test(&x, &u, &ones);
        assert_eq!(
            r.leaving_row(TieBreak::Lexicographic, id, |_| 1.0, &mut t),
            Some(1)
        );
        assert_eq!(
            r.leaving_row(TieBreak::FirstIndex, id, |_| 1.0, &mut t),
            Some(0)
        );
        let r = Ratio {
            artificial_row: Some(0),
            ..test(&x, &u, &ones)
        };
        assert_eq!(
            r.leaving_row(TieBreak::Lexicographic, id, |_| 1.0, &mut t),
            Some(0)
        );
    }
}
