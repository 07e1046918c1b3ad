//! A prescribed body: its pose follows a given trajectory exactly (the kinematic root of a mocap character).

use nalgebra::{Matrix3, Matrix6, UnitQuaternion, Vector3, Vector6};

use super::Constraint;
use crate::dynamics::body::Body;
use crate::math::spatial::{quat_vec_jacobian, twist};

/// A pose trajectory `t ↦ (x(t), q(t))`: CoM position (m) and orientation of the prescribed body.
pub trait Trajectory: Send + Sync {
    /// The pose at time `t` (s).
    fn pose(&self, t: f64) -> (Vector3<f64>, UnitQuaternion<f64>);
}

impl<F> Trajectory for F
where
    F: Fn(f64) -> (Vector3<f64>, UnitQuaternion<f64>) + Send + Sync,
{
    fn pose(&self, t: f64) -> (Vector3<f64>, UnitQuaternion<f64>) {
        self(t)
    }
}

/// A 6-row constraint tying a (dynamic, massive) body to a moving world frame `(x_d(t), q_d(t))`.
///
/// `g = (x − x_d(t); 2·vec(q_d(t)⁻¹·q))` with Jacobian `(0 | I; D | 0)`, `D = (w·I − [vec q_E])·R_dᵀ`.
/// Implemented as a constraint rather than a kinematic body so that the reaction impulses of the rest of the
/// character act on it like any other body and the solvers need no special case. In the dynamics solve its
/// velocity target is the twist that lands the body **exactly** on the trajectory at `t + h` after the position
/// update `x += h·v`, `q ← exp(h·ω)·q`: `v = (x_d(t+h) − x)/h`, `ω = log(q_d(t+h)·q⁻¹)/h`; so stabilization is
/// not needed for it and `g(t+h) = 0` to round-off.
pub struct Prescribed {
    body: usize,
    trajectory: Box<dyn Trajectory>,
}

impl std::fmt::Debug for Prescribed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Prescribed")
            .field("body", &self.body)
            .finish_non_exhaustive()
    }
}

impl Prescribed {
    /// Prescribes the pose of `body` along `trajectory`.
    pub fn new(body: usize, trajectory: Box<dyn Trajectory>) -> Self {
        Prescribed { body, trajectory }
    }
}

impl Constraint for Prescribed {
    fn rows(&self) -> usize {
        6
    }

    fn bodies(&self) -> (usize, Option<usize>) {
        (self.body, None)
    }

    fn evaluate(
        &self,
        bodies: &[Body],
        t: f64,
        g: &mut [f64],
        ja: &mut Matrix6<f64>,
        _jb: &mut Matrix6<f64>,
    ) {
        let body = &bodies[self.body];
        let (xd, qd) = self.trajectory.pose(t);
        let qe = qd.inverse() * body.orientation;
        let d = quat_vec_jacobian(&qe) * qd.to_rotation_matrix().into_inner().transpose();
        g[..3].copy_from_slice((body.position - xd).as_slice());
        g[3..6].copy_from_slice((2.0 * qe.imag()).as_slice());
        ja.fixed_view_mut::<3, 3>(0, 3)
            .copy_from(&Matrix3::identity());
        ja.fixed_view_mut::<3, 3>(3, 0).copy_from(&d);
    }

    fn value(&self, bodies: &[Body], t: f64, g: &mut [f64]) {
        // The same expressions as `evaluate`'s `g`, without the rotation matrix of `D`.
        let body = &bodies[self.body];
        let (xd, qd) = self.trajectory.pose(t);
        let qe = qd.inverse() * body.orientation;
        g[..3].copy_from_slice((body.position - xd).as_slice());
        g[3..6].copy_from_slice((2.0 * qe.imag()).as_slice());
    }

    fn velocity_target(
        &self,
        bodies: &[Body],
        t_next: f64,
        h: f64,
        ja: &Matrix6<f64>,
        b: &mut [f64],
    ) -> bool {
        let body = &bodies[self.body];
        let (xd, qd) = self.trajectory.pose(t_next);
        let v = (xd - body.position) / h;
        // Shortest rotation from q to q_d: the integrator applies exp(h·ω) on the left.
        let w = crate::math::rotation::log_rotation(&(qd * body.orientation.inverse())) / h;
        let target: Vector6<f64> = ja * twist(&w, &v);
        b[..6].copy_from_slice(target.as_slice());
        true
    }

    fn has_anchor_rows(&self) -> bool {
        true
    }
}
