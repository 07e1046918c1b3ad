//! Universal (Cardan) joint: ball rows plus one rotational row, 4 rows.

use nalgebra::{Matrix6, Vector3};

use super::{Anchors, Constraint, pose_of};
use crate::dynamics::body::Body;

/// Universal joint with one rotation axis fixed in B (`w_1`) and one fixed in A (`w_2`). Rows 0–2: anchor
/// separation (m); row 3: `w_2·w_1 − c_0`, where `c_0` is the initial dot product (Cline's option 2: the initial
/// configuration is valid; `c_0 = 0` for orthogonal axes). Its rate is `(w_2 × w_1)·(ω_a − ω_b)`, exactly: the
/// forbidden axis is `w_2 × w_1`.
#[derive(Debug, Clone, PartialEq)]
pub struct UniversalJoint {
    a: usize,
    b: Option<usize>,
    anchors: Anchors,
    /// `w_1` in B's frame (or the world's).
    axis_b: Vector3<f64>,
    /// `w_2` in A's frame.
    axis_a: Vector3<f64>,
    initial_dot: f64,
}

impl UniversalJoint {
    /// A universal joint at world point `anchor` (m) with world axes `axis_b` (fixed in B) and `axis_a` (fixed in
    /// A), at the bodies' current poses. The axes are normalised; they should be (near) orthogonal.
    pub fn new(
        bodies: &[Body],
        a: usize,
        b: Option<usize>,
        anchor: Vector3<f64>,
        axis_b: Vector3<f64>,
        axis_a: Vector3<f64>,
    ) -> Self {
        let (_, qb) = pose_of(bodies, b);
        let w1 = axis_b.normalize();
        let w2 = axis_a.normalize();
        UniversalJoint {
            a,
            b,
            anchors: Anchors::new(bodies, a, b, &anchor),
            axis_b: qb.inverse() * w1,
            axis_a: bodies[a].orientation.inverse() * w2,
            initial_dot: w1.dot(&w2),
        }
    }
}

impl Constraint for UniversalJoint {
    fn rows(&self) -> usize {
        4
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
        let (_, qb) = pose_of(bodies, self.b);
        let w1 = qb * self.axis_b;
        let w2 = bodies[self.a].orientation * self.axis_a;
        g[3] = w2.dot(&w1) - self.initial_dot;
        let n = w2.cross(&w1);
        ja.fixed_view_mut::<1, 3>(3, 0).copy_from(&n.transpose());
        if self.b.is_some() {
            jb.fixed_view_mut::<1, 3>(3, 0).copy_from(&(-n.transpose()));
        }
    }

    fn has_anchor_rows(&self) -> bool {
        true
    }

    fn anchor_points(&self) -> Option<[Vector3<f64>; 2]> {
        Some([self.anchors.local_a, self.anchors.local_b])
    }
}
