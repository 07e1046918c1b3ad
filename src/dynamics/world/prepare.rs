//! Sizing a world's buffers for its structure (bodies, constraints, drives, forces): the gradient slots of the
//! two-body forces, the block system's shape, the 3×3 or 6×6 gradient storage per body and pair, the step's
//! vectors. Runs once after the structure changes, so a step allocates nothing.

use nalgebra::{Matrix3, Matrix6, Vector6};

use super::{Slot, World};
use crate::dynamics::anchor_tree::AnchorTree;
use crate::dynamics::system::{ConstraintBlock, Coupling};

impl World {
    /// Sizes every buffer for the current structure. Called by [`World::step`] when needed; call it yourself to
    /// move the allocations out of the first step.
    pub fn prepare(&mut self) {
        // The structure is complete when the buffers are sized: give back what the pushes' capacity doubling left
        // unused (up to half of each list; a crowd holds one world per character).
        self.bodies.shrink_to_fit();
        self.constraints.shrink_to_fit();
        self.drives.shrink_to_fit();
        self.user_forces.shrink_to_fit();
        self.springs.shrink_to_fit();
        self.forces.shrink_to_fit();
        let n = self.bodies.len();
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        let mut slot_of = |a: usize, b: Option<usize>| -> Slot {
            let b = b.filter(|&b| b != a)?;
            let key = (a.min(b), a.max(b));
            let idx = pairs.iter().position(|p| *p == key).unwrap_or_else(|| {
                pairs.push(key);
                pairs.len() - 1
            });
            Some((idx, a > b))
        };
        self.drive_slots = self
            .drives
            .iter()
            .map(|d| (d.child, d.parent, slot_of(d.child, d.parent)))
            .collect();
        self.force_slots = self
            .forces
            .iter()
            .map(|f| {
                let (a, b) = f.bodies();
                slot_of(a, b)
            })
            .collect();
        self.scratch.sys.diag = vec![Matrix6::zeros(); n];
        // New blocks are zeros: not yet the step's fill outside their corners.
        self.scratch.coupling_fill = None;
        self.scratch.sys.couplings = pairs
            .iter()
            .map(|&(i, j)| Coupling {
                i,
                j,
                a_ij: Matrix6::zeros(),
                a_ji: Matrix6::zeros(),
            })
            .collect();
        self.scratch.sys.constraints = self
            .constraints
            .iter()
            .map(|c| {
                let (a, b) = c.bodies();
                ConstraintBlock {
                    rows: c.rows(),
                    body_a: a,
                    body_b: b,
                    ja: Matrix6::zeros(),
                    jb: Matrix6::zeros(),
                }
            })
            .collect();
        let m = self.scratch.sys.constraint_rows();
        self.scratch.wrench = vec![Vector6::zeros(); n];
        // Full gradient blocks only where a force other than the gyroscopic terms and drives writes: user forces,
        // springs, other forces' bodies and slots, and every body under penalty contact (any body may touch).
        let mut full = vec![self.contacts.penalty(); n];
        let bodies_of_forces = self.forces.iter().flat_map(|f| {
            let (a, b) = f.bodies();
            std::iter::once(a).chain(b)
        });
        let single = self.user_forces.iter().map(|f| f.body);
        for b in bodies_of_forces
            .chain(single)
            .chain(self.springs.iter().map(|s| s.body))
        {
            full[b] = true;
        }
        self.scratch.body_grad.size(&full);
        let mut full_pairs = vec![false; pairs.len()];
        for &(s, _) in self.force_slots.iter().flatten() {
            full_pairs[s] = true;
        }
        self.scratch.pair_grad.size(&full_pairs);
        self.scratch.seal();
        self.scratch.inertia = vec![Matrix3::zeros(); n];
        self.scratch.rhs_a = vec![Vector6::zeros(); n];
        self.x = vec![Vector6::zeros(); n];
        self.g = vec![0.0; m];
        self.scratch.b = vec![0.0; m];
        self.lambda = vec![0.0; m];
        self.moved = vec![false; n];
        self.bias.resize(m, 0.0);
        // Filled by hand: a `scan` has no size hint, so collecting it would over-allocate.
        self.row_offset = Vec::with_capacity(self.constraints.len());
        let mut off = 0;
        for c in &self.constraints {
            self.row_offset.push(off);
            off += c.rows();
        }
        self.anchor_tree = AnchorTree::build(n, &self.constraints);
        self.dirty = false;
    }
}
