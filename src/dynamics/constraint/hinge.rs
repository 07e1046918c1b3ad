//! Hinge (revolute) joint: ball rows plus two rotational rows about the "forbidden axes" (Cline eq. 4.7–4.10),
//! 5 rows.

use nalgebra::{Matrix6, Vector3};

use super::{Anchors, Constraint, RelativeRotation, orthonormal_complement};
use crate::dynamics::body::Body;

/// Hinge joint. Rows 0–2: anchor separation `p_a − p_b` (m). Rows 3–4: `n_iᵀ·2·vec(q_E)` for the two forbidden
/// axes `n_1, n_2 ⊥ u` fixed in B's frame, where `q_E` is the change of A's rotation relative to B since
/// construction ([`super::RelativeRotation`], Cline's option 2). Rotation about the hinge axis `u` leaves
/// `vec(q_E) ∥ u`, so these rows vanish exactly on the joint manifold and their Jacobian is exact.
#[derive(Debug, Clone, PartialEq)]
pub struct HingeJoint {
    a: usize,
    b: Option<usize>,
    anchors: Anchors,
    rotation: RelativeRotation,
    /// Forbidden axes in B's frame (or the world's).
    forbidden: [Vector3<f64>; 2],
}

impl HingeJoint {
    /// A hinge at world point `anchor` (m) about world direction `axis`, at the bodies' current poses.
    pub fn new(
        bodies: &[Body],
        a: usize,
        b: Option<usize>,
        anchor: Vector3<f64>,
        axis: Vector3<f64>,
    ) -> Self {
        let (_, qb) = super::pose_of(bodies, b);
        let (j, k) = orthonormal_complement(&(qb.inverse() * axis));
        HingeJoint {
            a,
            b,
            anchors: Anchors::new(bodies, a, b, &anchor),
            rotation: RelativeRotation::new(bodies, a, b),
            forbidden: [j, k],
        }
    }
}

impl Constraint for HingeJoint {
    fn rows(&self) -> usize {
        5
    }

    fn bodies(&self) -> (usize, Option<usize>) {
        (self.a, self.b)
    }

    fn evaluate(
        &self,
        bodies: &[Body],
        _t: f64,
        g: &mut [f64],
        ja: &mut Matrix6<f64>,
        jb: &mut Matrix6<f64>,
    ) {
        self.anchors.evaluate(bodies, self.a, self.b, g, ja, jb);
        let (e, d) = self.rotation.error(bodies, self.a, self.b);
        for (r, n) in self.forbidden.iter().enumerate() {
            g[3 + r] = n.dot(&e);
            let row = n.transpose() * d;
            ja.fixed_view_mut::<1, 3>(3 + r, 0).copy_from(&row);
            if self.b.is_some() {
                jb.fixed_view_mut::<1, 3>(3 + r, 0).copy_from(&(-row));
            }
        }
    }

    fn has_anchor_rows(&self) -> bool {
        true
    }

    fn anchor_points(&self) -> Option<[Vector3<f64>; 2]> {
        Some([self.anchors.local_a, self.anchors.local_b])
    }
}
