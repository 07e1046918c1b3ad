//! The forces of a step gathered into the world's accumulators: gyroscopic terms and gravity per body, the
//! joint drives' 3×3 angular blocks (couplings between child and parent), user forces, centre-of-mass springs and
//! any other `Force`, each with its gradients (Cline 2002 §2.7.4).

use std::ops::{AddAssign, SubAssign};

use super::{DP, DV, PAIR_DP, PAIR_DV, Slot, World};
use crate::dynamics::body::gyroscopic_terms;
use crate::dynamics::force::{DriveTorque, Force, ForceEval};

impl World {
    /// Adds one force evaluation into the accumulators (its bodies and slot keep full blocks: see `prepare`).
    pub(super) fn scatter(&mut self, a: usize, b: Option<usize>, slot: Slot, e: &ForceEval) {
        let sc = &mut self.scratch;
        sc.wrench[a] += e.wrench[0];
        sc.body_grad.add_full(a, DP, &e.dp[0][0]);
        sc.body_grad.add_full(a, DV, &e.dv[0][0]);
        let (Some(b), Some((s, swapped))) = (b, slot) else {
            return;
        };
        sc.wrench[b] += e.wrench[1];
        sc.body_grad.add_full(b, DP, &e.dp[1][1]);
        sc.body_grad.add_full(b, DV, &e.dv[1][1]);
        // Slot blocks are [A_ij, A_ji] for the pair (i, j) = (min, max).
        let (ab, ba) = if swapped { (1, 0) } else { (0, 1) };
        sc.pair_grad.add_full(s, PAIR_DP + ab, &e.dp[0][1]);
        sc.pair_grad.add_full(s, PAIR_DP + ba, &e.dp[1][0]);
        sc.pair_grad.add_full(s, PAIR_DV + ab, &e.dv[0][1]);
        sc.pair_grad.add_full(s, PAIR_DV + ba, &e.dv[1][0]);
    }

    /// Adds a drive's torque and its 3×3 angular gradient blocks (all that is non-zero) into the accumulators.
    #[inline(always)]
    fn scatter_drive(&mut self, k: usize, t: &DriveTorque) {
        let (c, p, slot) = self.drive_slots[k];
        self.scratch.wrench[c]
            .fixed_rows_mut::<3>(0)
            .add_assign(&t.torque);
        self.scratch
            .body_grad
            .add_corners(c, [(&t.dc, true), (&t.dwc, true)]);
        let (Some(p), Some((s, swapped))) = (p, slot) else {
            return;
        };
        self.scratch.wrench[p]
            .fixed_rows_mut::<3>(0)
            .sub_assign(&t.torque);
        self.scratch
            .body_grad
            .add_corners(p, [(&t.dp, false), (&t.dwc, true)]);
        // Slot blocks are [A_ij, A_ji] for the pair (i, j) = (min, max); (child, parent) is (i, j) unless swapped:
        // +dp on the child–parent block, −dc on the parent–child one, −dwc on both velocity blocks.
        let (dp_ij, dp_ji) = if swapped {
            ((&t.dc, false), (&t.dp, true))
        } else {
            ((&t.dp, true), (&t.dc, false))
        };
        self.scratch
            .pair_grad
            .add_corners(s, [dp_ij, dp_ji, (&t.dwc, false), (&t.dwc, false)]);
    }

    /// Sums all forces and their gradients at the current state (drive targets are those set for `t + h`).
    #[inline(always)]
    pub(super) fn accumulate_forces(&mut self) {
        for (i, body) in self.bodies.iter().enumerate() {
            let r = body.rotation();
            let inertia = r * body.inertia_body * r.transpose();
            self.scratch.inertia[i] = inertia;
            let (t, dp, dv) = gyroscopic_terms(&body.omega(), &inertia);
            self.scratch.wrench[i].fixed_rows_mut::<3>(0).copy_from(&t);
            self.scratch.wrench[i]
                .fixed_rows_mut::<3>(3)
                .copy_from(&(self.gravity * body.mass));
            self.scratch.body_grad.set_corners(i, [&dp, &dv]);
        }
        self.scratch.pair_grad.clear();
        for k in 0..self.drives.len() {
            let t = self.drives[k].torque_inline(&self.bodies);
            self.scatter_drive(k, &t);
        }
        for k in 0..self.user_forces.len() {
            let e = self.user_forces[k].eval(&self.bodies);
            self.scatter(self.user_forces[k].body, None, None, &e);
        }
        for k in 0..self.springs.len() {
            let e = self.springs[k].eval(&self.bodies);
            self.scatter(self.springs[k].body, None, None, &e);
        }
        for k in 0..self.forces.len() {
            let e = self.forces[k].eval(&self.bodies);
            let (a, b) = self.forces[k].bodies();
            self.scatter(a, b, self.force_slots[k], &e);
        }
    }

    /// Whether a force's bodies changed since the buffers were sized, or a body now needs full gradient blocks
    /// (a user force or spring moved to it, or penalty contacts were selected).
    pub(super) fn structure_changed(&self) -> bool {
        self.drive_slots.len() != self.drives.len()
            || self
                .drives
                .iter()
                .zip(&self.drive_slots)
                .any(|(d, s)| (d.child, d.parent) != (s.0, s.1))
            || self
                .user_forces
                .iter()
                .any(|f| !self.scratch.body_grad.is_full(f.body))
            || self
                .springs
                .iter()
                .any(|s| !self.scratch.body_grad.is_full(s.body))
            || (self.contacts.penalty() && !self.scratch.body_grad.all_full())
    }
}
