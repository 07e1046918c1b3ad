//! The forces of a step gathered into the world's accumulators: gyroscopic terms and gravity per body, the
//! joint drives' 3×3 angular blocks (couplings between child and parent), user forces, centre-of-mass springs and
//! any other `Force`, each with its gradients (Cline 2002 §2.7.4).

use std::ops::{AddAssign, SubAssign};

use nalgebra::{Matrix3, Matrix6};

use super::{Slot, World};
use crate::dynamics::body::gyroscopic_terms;
use crate::dynamics::force::{DriveTorque, Force, ForceEval};

impl World {
    /// Adds one force evaluation into the accumulators.
    pub(super) fn scatter(&mut self, a: usize, b: Option<usize>, slot: Slot, e: &ForceEval) {
        self.wrench[a] += e.wrench[0];
        self.dfdp[a] += e.dp[0][0];
        self.dfdv[a] += e.dv[0][0];
        let (Some(b), Some((s, swapped))) = (b, slot) else {
            return;
        };
        self.wrench[b] += e.wrench[1];
        self.dfdp[b] += e.dp[1][1];
        self.dfdv[b] += e.dv[1][1];
        // Slot blocks are [A_ij, A_ji] for the pair (i, j) = (min, max).
        let (ab, ba) = if swapped { (1, 0) } else { (0, 1) };
        self.cpl_dp[s][ab] += e.dp[0][1];
        self.cpl_dp[s][ba] += e.dp[1][0];
        self.cpl_dv[s][ab] += e.dv[0][1];
        self.cpl_dv[s][ba] += e.dv[1][0];
    }

    /// Adds a drive's torque and its 3×3 angular gradient blocks (all that is non-zero) into the accumulators.
    fn scatter_drive(&mut self, k: usize, t: &DriveTorque) {
        fn corner(m: &mut Matrix6<f64>, add: &Matrix3<f64>, sign: f64) {
            let mut c = m.fixed_view_mut::<3, 3>(0, 0);
            if sign > 0.0 {
                c += add;
            } else {
                c -= add;
            }
        }
        let (c, p, slot) = self.drive_slots[k];
        self.wrench[c].fixed_rows_mut::<3>(0).add_assign(&t.torque);
        corner(&mut self.dfdp[c], &t.dc, 1.0);
        corner(&mut self.dfdv[c], &t.dwc, 1.0);
        let (Some(p), Some((s, swapped))) = (p, slot) else {
            return;
        };
        self.wrench[p].fixed_rows_mut::<3>(0).sub_assign(&t.torque);
        corner(&mut self.dfdp[p], &t.dp, -1.0);
        corner(&mut self.dfdv[p], &t.dwc, 1.0);
        // Slot blocks are [A_ij, A_ji] for the pair (i, j) = (min, max); (child, parent) is (i, j) unless swapped.
        let (cp, pc) = if swapped { (1, 0) } else { (0, 1) };
        corner(&mut self.cpl_dp[s][cp], &t.dp, 1.0);
        corner(&mut self.cpl_dp[s][pc], &t.dc, -1.0);
        corner(&mut self.cpl_dv[s][cp], &t.dwc, -1.0);
        corner(&mut self.cpl_dv[s][pc], &t.dwc, -1.0);
    }

    /// Sums all forces and their gradients at the current state (drive targets are those set for `t + h`).
    pub(super) fn accumulate_forces(&mut self) {
        for (i, body) in self.bodies.iter().enumerate() {
            let r = body.rotation();
            let inertia = r * body.inertia_body * r.transpose();
            self.inertia[i] = inertia;
            let (t, dp, dv) = gyroscopic_terms(&body.omega(), &inertia);
            self.wrench[i].fixed_rows_mut::<3>(0).copy_from(&t);
            self.wrench[i]
                .fixed_rows_mut::<3>(3)
                .copy_from(&(self.gravity * body.mass));
            self.dfdp[i].fill(0.0);
            self.dfdp[i].fixed_view_mut::<3, 3>(0, 0).copy_from(&dp);
            self.dfdv[i].fill(0.0);
            self.dfdv[i].fixed_view_mut::<3, 3>(0, 0).copy_from(&dv);
        }
        for s in self.cpl_dp.iter_mut().chain(self.cpl_dv.iter_mut()) {
            s[0].fill(0.0);
            s[1].fill(0.0);
        }
        for k in 0..self.drives.len() {
            let t = self.drives[k].torque(&self.bodies);
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

    /// Whether a force's bodies changed since the buffers were sized.
    pub(super) fn structure_changed(&self) -> bool {
        self.drive_slots.len() != self.drives.len()
            || self
                .drives
                .iter()
                .zip(&self.drive_slots)
                .any(|(d, s)| (d.child, d.parent) != (s.0, s.1))
    }
}
