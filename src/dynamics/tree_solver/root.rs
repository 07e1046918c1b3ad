//! Roots held by six independent world rows (a prescribed root, `Prescribed`): `J x = b` alone fixes the body's
//! twist, so such a front inverts neither its body pivot nor its world pivot. With the body pivot `A` after its
//! children's updates and `y` its accumulated right-hand side, `x = J⁻¹ b` and `λ = J⁻ᵀ (A x − y)` (from the
//! body's rows `A x − Jᵀ λ = y`). The padded front took two 6×6 Gauss–Jordan inverses and two 6×6 products for
//! the same solution, and unit wrenches (the contact sweeps) leave such a root still.

use nalgebra::Matrix6;

use super::inverse6::invert_anti_diagonal;
use super::{BODY, TreeSolver, WORLD, gather, invert_pivot, scatter, singular};
use crate::dynamics::system::{BlockSystem, SolveError};

impl TreeSolver {
    /// Factors the square root at `pos`: keeps its pivot `A` and `J⁻¹` in its two pivot slots.
    // Inlined into the solver's baseline and AVX2 copies (`math::dispatch`).
    #[inline(always)]
    pub(super) fn factor_square_root(
        &mut self,
        sys: &BlockSystem,
        pos: usize,
    ) -> Result<(), SolveError> {
        let plan = &self.plans[pos];
        let mut j = Matrix6::zeros();
        for m in &self.members[plan.world.0..plan.world.1] {
            let ja = &sys.constraints[m.con].ja;
            for i in 0..m.rows {
                for c in 0..6 {
                    j[(m.row0 + i, c)] = ja[(i, c)];
                }
            }
        }
        // A prescribed root's rows are `[[0, I], [D, 0]]`: one 3×3 inverse instead of a pivoting 6×6 one.
        let j_inv = match invert_anti_diagonal(&j) {
            Some(inv) => inv,
            None => invert_pivot(&mut j, 6).ok_or_else(|| singular(plan, WORLD))?,
        };
        self.inv[plan.inverse(BODY)] = self.acc[pos];
        self.inv[plan.inverse(WORLD)] = j_inv;
        Ok(())
    }

    /// Solves the square root at `pos` once its children's updates are in its right-hand side.
    // Inlined into the solver's baseline and AVX2 copies (`math::dispatch`).
    #[inline(always)]
    pub(super) fn solve_square_root(
        &self,
        pos: usize,
        b: &[f64],
        x: &mut [nalgebra::Vector6<f64>],
        lambda: &mut [f64],
    ) {
        let plan = &self.plans[pos];
        let members = &self.members[plan.world.0..plan.world.1];
        let j_inv = &self.inv[plan.inverse(WORLD)];
        let xr = j_inv * gather(members, b);
        let l = j_inv.tr_mul(&(self.inv[plan.inverse(BODY)] * xr - self.yb[pos]));
        x[plan.body] = xr;
        scatter(members, &l, lambda);
    }
}
