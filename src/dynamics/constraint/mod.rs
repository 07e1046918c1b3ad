//! Bilateral constraints `g(p) = 0` with their twist Jacobians `J(p)` (Cline 2002 §2.5, §4.4.1).
//!
//! Every constraint touches `body_a` and optionally `body_b` (`None` = the world). Sign convention (the digest's
//! self-consistent form): `J·V` is the rate of `g`, i.e. the velocity of A's side relative to B's side, with
//! `s = CoM → joint` lever arms: for the ball rows `J_a = ([s_a]ᵀ | I)`, `J_b = ([s_b] | −I)`.
//! `J` is exact: `g(p ⊕ h·V) = g(p) + h·J·V + O(h²)` for twist-coordinate displacements (tested by finite
//! differences in `tests/dynamics_fd.rs`).

mod ball;
mod fixed;
mod hinge;
mod prescribed;
mod universal;

pub use ball::BallJoint;
pub use fixed::FixedJoint;
pub use hinge::HingeJoint;
pub use prescribed::{Prescribed, Trajectory};
pub use universal::UniversalJoint;

use nalgebra::{Matrix3, Matrix6, UnitQuaternion, Vector3};

use super::body::Body;
use crate::math::spatial::{cross_matrix, quat_vec_jacobian};

/// A bilateral constraint between `body_a` and `body_b` (or the world).
pub trait Constraint: Send + Sync + std::fmt::Debug {
    /// Number of scalar rows (1 … 6).
    fn rows(&self) -> usize;
    /// The bodies: `(body_a, body_b)`; `None` for the world.
    fn bodies(&self) -> (usize, Option<usize>);
    /// Writes `g(p)` at time `t` (first [`Self::rows`] entries of `g`) and the Jacobian blocks (first `rows` rows
    /// of `ja`, `jb`; the caller zeroes them beforehand).
    fn evaluate(
        &self,
        bodies: &[Body],
        t: f64,
        g: &mut [f64],
        ja: &mut Matrix6<f64>,
        jb: &mut Matrix6<f64>,
    );
    /// Writes `g(p)` at time `t` alone, bit for bit as [`Self::evaluate`] does: the error check after a step
    /// needs no Jacobian. The default evaluates the Jacobian into scratch blocks and drops it.
    fn value(&self, bodies: &[Body], t: f64, g: &mut [f64]) {
        let (mut ja, mut jb) = (Matrix6::zeros(), Matrix6::zeros());
        self.evaluate(bodies, t, g, &mut ja, &mut jb);
    }
    /// The velocity-level right-hand side for the dynamics solve of a step ending at `t_next`, when the
    /// constraint prescribes it (a moving target); `false` lets the world use its stabilization rule
    /// (`0` or `−α·g`). `ja` holds this step's Jacobian block.
    fn velocity_target(
        &self,
        _bodies: &[Body],
        _t_next: f64,
        _h: f64,
        _ja: &Matrix6<f64>,
        _b: &mut [f64],
    ) -> bool {
        false
    }
    /// Whether rows `0..3` are the translational (anchor separation, metres) rows, for error reports.
    fn has_anchor_rows(&self) -> bool {
        false
    }
    /// `[r_a, r_b]` when rows `0..3` are exactly `p_a − p_b` with `p_a = x_a + R_a·r_a` and `p_b = x_b + R_b·r_b`
    /// (`r_b` in the world when B is the world): post-stabilization then places the bodies on the anchors
    /// exactly after a projection (`dynamics/anchor_tree.rs`). `None` (the default) for any other rows.
    fn anchor_points(&self) -> Option<[Vector3<f64>; 2]> {
        None
    }
}

/// Pose of the optional second body: identity at the origin for the world.
pub(crate) fn pose_of(bodies: &[Body], b: Option<usize>) -> (Vector3<f64>, UnitQuaternion<f64>) {
    match b {
        Some(i) => (bodies[i].position, bodies[i].orientation),
        None => (Vector3::zeros(), UnitQuaternion::identity()),
    }
}

/// A point anchored on body A and body B (or fixed in the world): the three ball rows.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Anchors {
    /// Anchor in A's body coordinates (relative to its CoM).
    pub local_a: Vector3<f64>,
    /// Anchor in B's body coordinates, or in the world when B is the world.
    pub local_b: Vector3<f64>,
}

impl Anchors {
    /// Anchors of the world point `anchor` on both sides, at the current poses.
    pub fn new(bodies: &[Body], a: usize, b: Option<usize>, anchor: &Vector3<f64>) -> Self {
        let (xb, qb) = pose_of(bodies, b);
        Anchors {
            local_a: bodies[a].point_local(anchor),
            local_b: qb.inverse() * (anchor - xb),
        }
    }

    /// `g = p_a − p_b` into `g[0..3]` and returns `(s_a, s_b)`, the anchors' offsets from the CoMs in world axes.
    #[inline]
    pub fn value(
        &self,
        bodies: &[Body],
        a: usize,
        b: Option<usize>,
        g: &mut [f64],
    ) -> (Vector3<f64>, Vector3<f64>) {
        let (xb, qb) = pose_of(bodies, b);
        let s_a = bodies[a].orientation * self.local_a;
        let s_b = qb * self.local_b;
        let sep = (bodies[a].position + s_a) - (xb + s_b);
        g[..3].copy_from_slice(sep.as_slice());
        (s_a, s_b)
    }

    /// `g = p_a − p_b` into `g[0..3]` and the ball rows into `ja`, `jb` rows `0..3`.
    pub fn evaluate(
        &self,
        bodies: &[Body],
        a: usize,
        b: Option<usize>,
        g: &mut [f64],
        ja: &mut Matrix6<f64>,
        jb: &mut Matrix6<f64>,
    ) {
        let (s_a, s_b) = self.value(bodies, a, b, g);
        ja.fixed_view_mut::<3, 3>(0, 0)
            .copy_from(&cross_matrix(&s_a).transpose());
        ja.fixed_view_mut::<3, 3>(0, 3)
            .copy_from(&Matrix3::identity());
        if b.is_some() {
            jb.fixed_view_mut::<3, 3>(0, 0)
                .copy_from(&cross_matrix(&s_b));
            jb.fixed_view_mut::<3, 3>(0, 3)
                .copy_from(&(-Matrix3::identity()));
        }
    }
}

/// Rotational error of A relative to B, measured against their initial relative rotation (Cline's option 2):
/// `q_E = q_b⁻¹·q_a·q_0⁻¹` with `q_0 = q_b0⁻¹·q_a0`, expressed in B's frame. The error vector is `2·vec(q_E)`
/// (≈ the rotation vector for small errors, `2 sin(θ/2)·axis` in general); its Jacobian with respect to
/// `(ω_a − ω_b)` is `(w·I − [vec q_E])·R_bᵀ`, exact.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RelativeRotation {
    /// `q_0 = q_b0⁻¹ · q_a0`.
    pub initial: UnitQuaternion<f64>,
}

impl RelativeRotation {
    /// Records the current relative rotation as the valid one.
    pub fn new(bodies: &[Body], a: usize, b: Option<usize>) -> Self {
        let (_, qb) = pose_of(bodies, b);
        RelativeRotation {
            initial: qb.inverse() * bodies[a].orientation,
        }
    }

    /// `(2·vec(q_E), D)` with `D = (w·I − [vec q_E])·R_bᵀ`, so that `d(2 vec q_E)/dt = D·(ω_a − ω_b)`.
    pub fn error(
        &self,
        bodies: &[Body],
        a: usize,
        b: Option<usize>,
    ) -> (Vector3<f64>, Matrix3<f64>) {
        let (_, qb) = pose_of(bodies, b);
        let qe = qb.inverse() * bodies[a].orientation * self.initial.inverse();
        let rb = qb.to_rotation_matrix().into_inner();
        (2.0 * qe.imag(), quat_vec_jacobian(&qe) * rb.transpose())
    }
}

/// Two unit vectors orthogonal to `axis` and to each other (`axis` need not be normalised).
pub(crate) fn orthonormal_complement(axis: &Vector3<f64>) -> (Vector3<f64>, Vector3<f64>) {
    let u = axis.normalize();
    // Pick the coordinate axis least aligned with u to avoid a degenerate cross product.
    let helper = if u.x.abs() < 0.6 {
        Vector3::x()
    } else if u.y.abs() < 0.6 {
        Vector3::y()
    } else {
        Vector3::z()
    };
    let j = u.cross(&helper).normalize();
    let k = u.cross(&j);
    (j, k)
}
