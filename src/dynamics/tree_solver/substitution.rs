//! The forward and back substitution of one front, shared by the full solve and the response solve.
//!
//! **The response solve** ([`SaddlePointSolver::solve_response`](super::SaddlePointSolver::solve_response)):
//! `b = 0` and a momentum right-hand side on a few bodies (the contact impulses on the feet). The forward pass
//! only reaches the fronts on those bodies' paths to their roots: every other front has a zero right-hand side,
//! so its `z` is zero. The back substitution of a front off those paths is `x = z − D⁻¹F·x_parent`, zero when its
//! parent does not move. A root held by six world rows does not move either (`x = J⁻¹b = 0`), so with a
//! prescribed root only the legs that carry the wrench, and what hangs below them (the toes), are solved; the
//! other fronts get exact zeros. The full solve computes the same zeros as `0·D⁻¹…` products, so the response is
//! the full solve's result with `b = 0`, bit for bit (up to the sign of a zero).

use nalgebra::Vector6;

use super::{BODY, JOINT, PARENT, TreeSolver, WORLD, gather, scatter};

impl TreeSolver {
    /// Forward substitution (L w = y) of the front at `pos`, its children's updates already in `yb[pos]`; stores
    /// `z_k = D_k⁻¹ w_k` (an exact front in `x` and `λ`) and pushes its update into the parent's `yb`.
    // Inlined into the solver's baseline and AVX2 copies (`math::dispatch`).
    #[inline(always)]
    pub(super) fn forward_front(
        &mut self,
        pos: usize,
        b: &[f64],
        x: &mut [Vector6<f64>],
        lambda: &mut [f64],
    ) {
        let plan = &self.plans[pos];
        if plan.exact > 0 {
            with_rows!(plan.exact, R => self.forward_exact::<R>(pos, b, x, lambda));
            return;
        }
        if plan.square_root() {
            // Its solution is final here: the backward pass starts below it.
            self.solve_square_root(pos, b, x, lambda);
            return;
        }
        let present = plan.present();
        let mut y = [
            self.yb[pos],
            gather(&self.members[plan.world.0..plan.world.1], b),
            gather(&self.members[plan.joint.0..plan.joint.1], b),
            Vector6::zeros(),
        ];
        for k in 0..3 {
            if !present[k] {
                continue;
            }
            let zk = self.inv[plan.inverse(k)] * y[k];
            for u in k + 1..4 {
                if present[u] {
                    y[u] -= self.lower[plan.block(k, u)] * zk;
                }
            }
            self.z[plan.inverse(k)] = zk;
        }
        if let Some(pp) = plan.parent {
            self.yb[pp] += y[PARENT];
        }
    }

    /// Back substitution of the front at `pos` (roots first): `x_k = z_k − Σ_u D_k⁻¹ F[k][u] x_u`, from its
    /// parent's solution in `x`.
    // Inlined into the solver's baseline and AVX2 copies (`math::dispatch`).
    #[inline(always)]
    pub(super) fn backward_front(
        &mut self,
        pos: usize,
        x: &mut [Vector6<f64>],
        lambda: &mut [f64],
    ) {
        let plan = &self.plans[pos];
        if plan.exact > 0 {
            with_rows!(plan.exact, R => self.backward_exact::<R>(pos, x, lambda));
            return;
        }
        if plan.square_root() {
            return;
        }
        let present = plan.present();
        let mut xs = [Vector6::zeros(); 4];
        if let Some(pp) = plan.parent {
            // Parents are solved first (descending positions): `x` holds the parent's solution.
            xs[PARENT] = x[self.plans[pp].body];
        }
        for k in (0..3).rev() {
            if !present[k] {
                continue;
            }
            let mut v = self.z[plan.inverse(k)];
            for u in k + 1..4 {
                if present[u] {
                    v -= self.upper[plan.block(k, u)] * xs[u];
                }
            }
            xs[k] = v;
        }
        x[plan.body] = xs[BODY];
        scatter(
            &self.members[plan.world.0..plan.world.1],
            &xs[WORLD],
            lambda,
        );
        scatter(
            &self.members[plan.joint.0..plan.joint.1],
            &xs[JOINT],
            lambda,
        );
    }

    /// The response solve's body (module documentation), inlined into its baseline and AVX2 copies. With no
    /// valid factorisation, slices of the wrong lengths or a source that is not a body, `x` and `λ` are NaN.
    #[inline(always)]
    pub(super) fn response_kernel(
        &mut self,
        a: &[Vector6<f64>],
        sources: &[usize],
        x: &mut [Vector6<f64>],
        lambda: &mut [f64],
    ) {
        let n = self.plans.len();
        if !self.solvable(a, x, lambda, sources.iter().all(|&s| s < n)) {
            return;
        }
        // `blk_need`: the fronts on the sources' paths to their roots (the only non-zero forward right-hand sides).
        self.mark_root_paths(sources);
        let zero_b = std::mem::take(&mut self.zero_b);
        for pos in 0..n {
            if self.blk_need[pos] {
                self.yb[pos] = a[self.plans[pos].body];
            }
        }
        for pos in 0..n {
            if self.blk_need[pos] {
                self.forward_front(pos, &zero_b, x, lambda);
            }
        }
        self.zero_b = zero_b;
        // `blk_zero`: the fronts whose solution is exactly zero, decided root first.
        for pos in (0..n).rev() {
            let plan = &self.plans[pos];
            let on_path = self.blk_need[pos];
            if plan.square_root() {
                // On a path it was solved forward (x = J⁻¹·0 = 0, its λ takes the wrench); off them it is all zero.
                self.blk_zero[pos] = true;
                if !on_path {
                    self.zero_front(pos, x, lambda);
                }
                continue;
            }
            let parent_still = plan.parent.is_none_or(|pp| self.blk_zero[pp]);
            self.blk_zero[pos] = !on_path && parent_still;
            if !on_path {
                self.zero_front(pos, x, lambda);
                if parent_still {
                    continue;
                }
            }
            self.backward_front(pos, x, lambda);
        }
    }

    /// Zero `z` (and solution, until its back substitution) for the front at `pos`: its body's `x`, the rows of
    /// its groups in `λ`, and a padded front's stored `z`.
    #[inline(always)]
    fn zero_front(&mut self, pos: usize, x: &mut [Vector6<f64>], lambda: &mut [f64]) {
        let plan = &self.plans[pos];
        x[plan.body] = Vector6::zeros();
        for m in &self.members[plan.world.0..plan.world.1] {
            lambda[m.lambda0..m.lambda0 + m.rows].fill(0.0);
        }
        for m in &self.members[plan.joint.0..plan.joint.1] {
            lambda[m.lambda0..m.lambda0 + m.rows].fill(0.0);
        }
        if plan.exact == 0 {
            let present = plan.present();
            for (k, _) in present[..3].iter().enumerate().filter(|&(_, &here)| here) {
                self.z[plan.inverse(k)] = Vector6::zeros();
            }
        }
    }
}
