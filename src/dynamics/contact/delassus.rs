//! The contact-space inverse mass `J_c W J_cᵀ` (the Delassus matrix) through the joint system's factorisation,
//! Cline §4.8.2: `W = M̃⁻¹` restricted to the constraint manifold of the joints is never formed; only its 6×6
//! blocks between contact bodies are, one sparse solve per unit wrench on a contact body.

use nalgebra::{DMatrix, Matrix6, Vector6};

use super::ContactState;
use super::rows::{JRow, OtherPart};
use crate::dynamics::system::SaddlePointSolver;

impl ContactState {
    /// Fills the blocks `W_ij` between the contact bodies with the solver's current factorisation: column `k` of
    /// `W_{·j}` is the velocity response to a unit wrench `e_k` on contact body `j` with the joints holding
    /// (`[A −Jᵀ; J 0](x; λ) = (e_k; 0)`). 6 solves per contact body.
    pub(super) fn compute_w(
        &mut self,
        solver: &mut dyn SaddlePointSolver,
        bodies: usize,
        joint_rows: usize,
    ) {
        self.size_scratch(bodies, joint_rows);
        let nb = self.bodies.len();
        self.w.clear();
        self.w.resize(nb * nb, Matrix6::zeros());
        for col in 0..nb {
            let bj = self.bodies[col];
            for k in 0..6 {
                self.scratch_a[bj][k] = 1.0;
                solver.solve(
                    &self.scratch_a,
                    &self.zero_b,
                    &mut self.scratch_x,
                    &mut self.scratch_l,
                );
                self.scratch_a[bj][k] = 0.0;
                for row in 0..nb {
                    let x = self.scratch_x[self.bodies[row]];
                    self.w[row * nb + col].set_column(k, &x);
                }
            }
        }
    }

    /// `u_rᵀ W v_s` for two rows' parts.
    fn coupling(&self, r: &JRow, s: &JRow) -> f64 {
        let nb = self.bodies.len();
        let w = |i: usize, j: usize| &self.w[i * nb + j];
        let mut sum = (r.j.transpose() * w(r.body, s.body) * s.j)[0];
        let body_part = |o: &OtherPart| match *o {
            OtherPart::Body(i, j) => Some((i, j)),
            _ => None,
        };
        if let Some((i, jr)) = body_part(&r.other) {
            sum += (jr.transpose() * w(i, s.body) * s.j)[0];
            if let Some((k, js)) = body_part(&s.other) {
                sum += (jr.transpose() * w(i, k) * js)[0];
            }
        }
        if let Some((k, js)) = body_part(&s.other) {
            sum += (r.j.transpose() * w(r.body, k) * js)[0];
        }
        if let (OtherPart::Free(f, jr), OtherPart::Free(g, js)) = (r.other, s.other) {
            if f == g {
                sum += (jr.transpose() * self.free_inv[f] * js)[0];
            }
        }
        sum
    }

    /// `J_c W J_cᵀ` over the stored rows.
    pub(super) fn delassus(&self) -> DMatrix<f64> {
        let n = self.rows.len();
        DMatrix::from_fn(n, n, |r, s| self.coupling(&self.rows[r], &self.rows[s]))
    }

    /// Applies impulses `lambda` (one per stored row): the world-body wrenches go into `a` (added), the free
    /// bodies' velocities change by `W_f·J_fᵀλ` at once.
    pub(super) fn apply(&mut self, lambda: &[f64], a: &mut [Vector6<f64>]) {
        for (r, &l) in lambda.iter().enumerate() {
            if l == 0.0 {
                continue;
            }
            if let Some((f, wrench)) = self.scatter(&self.rows[r], l, a) {
                let dv = self.free_inv[f] * wrench;
                self.free[f].velocity += dv;
            }
        }
    }
}
