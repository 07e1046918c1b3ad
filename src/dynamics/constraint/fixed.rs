//! Fixed (weld) joint: ball rows plus three rotational rows, 6 rows.

use nalgebra::{Matrix6, Vector3};

use super::{Anchors, Constraint, RelativeRotation};
use crate::dynamics::body::Body;

/// Fixed joint. Rows 0–2: anchor separation `p_a − p_b` (m); rows 3–5: `2·vec(q_E)`, the change of A's rotation
/// relative to B since construction ([`super::RelativeRotation`]).
#[derive(Debug, Clone, PartialEq)]
pub struct FixedJoint {
    a: usize,
    b: Option<usize>,
    anchors: Anchors,
    rotation: RelativeRotation,
}

impl FixedJoint {
    /// Welds A to B (or the world) at the world point `anchor` (m), keeping the current relative pose.
    pub fn new(bodies: &[Body], a: usize, b: Option<usize>, anchor: Vector3<f64>) -> Self {
        FixedJoint {
            a,
            b,
            anchors: Anchors::new(bodies, a, b, &anchor),
            rotation: RelativeRotation::new(bodies, a, b),
        }
    }
}

impl Constraint for FixedJoint {
    fn rows(&self) -> usize {
        6
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
        g[3..6].copy_from_slice(e.as_slice());
        ja.fixed_view_mut::<3, 3>(3, 0).copy_from(&d);
        if self.b.is_some() {
            jb.fixed_view_mut::<3, 3>(3, 0).copy_from(&(-d));
        }
    }

    fn has_anchor_rows(&self) -> bool {
        true
    }

    fn anchor_points(&self) -> Option<[Vector3<f64>; 2]> {
        Some([self.anchors.local_a, self.anchors.local_b])
    }
}
