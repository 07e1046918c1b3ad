//! Ball (spherical) joint: the two anchor points coincide (Cline eq. 4.1–4.6), 3 rows.

use nalgebra::{Matrix6, Vector3};

use super::{Anchors, Constraint};
use crate::dynamics::body::Body;

/// Ball joint: `g = p_a − p_b` (m), the world positions of the anchor on A and on B (or the world).
#[derive(Debug, Clone, PartialEq)]
pub struct BallJoint {
    a: usize,
    b: Option<usize>,
    anchors: Anchors,
}

impl BallJoint {
    /// A ball joint at the world point `anchor` (m), at the bodies' current poses.
    pub fn new(bodies: &[Body], a: usize, b: Option<usize>, anchor: Vector3<f64>) -> Self {
        BallJoint {
            a,
            b,
            anchors: Anchors::new(bodies, a, b, &anchor),
        }
    }
}

impl Constraint for BallJoint {
    fn rows(&self) -> usize {
        3
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
    }

    fn value(&self, bodies: &[Body], _t: f64, g: &mut [f64]) {
        self.anchors.value(bodies, self.a, self.b, g);
    }

    fn has_anchor_rows(&self) -> bool {
        true
    }

    fn anchor_points(&self) -> Option<[Vector3<f64>; 2]> {
        Some([self.anchors.local_a, self.anchors.local_b])
    }
}
