//! Joint drive: a PD servo with feedforward acting on the relative rotation of a child body and its parent.

use nalgebra::{Matrix3, UnitQuaternion, Vector3};

use super::{Force, ForceEval};
use crate::dynamics::body::Body;
use crate::math::rotation::log_rotation;
use crate::math::spatial::{cross_matrix, left_jacobian_inverse};

/// Frame of a drive's gains, feedforward torque and error components, relative to the parent body.
pub type DriveFrame = UnitQuaternion<f64>;

/// A joint drive between `child` and `parent` (or the world).
///
/// With `q_rel = q_p⁻¹·q_c` (the child's rotation in the parent frame), drive axes `A = R_p·F` (world) and
/// `F` = [`JointDrive::frame`]:
///
/// - rotation error (parent coordinates): `e = log(q_rel·q_target⁻¹)`, i.e. `q_rel = exp(e)·q_target`;
/// - relative angular velocity (drive frame): `ω_r = Aᵀ(ω_c − ω_p)`;
/// - torque (drive frame): `τ_F = −K·Fᵀe − D·(ω_r − Fᵀω_target) + τ_ff`, `K`, `D` diagonal (per axis);
/// - world torque `τ = A·τ_F`, applied `+τ` to the child and `−τ` to the parent.
///
/// Targets are meant to be the values at the **end** of the coming step (`t + h`): the linearly implicit step
/// then predicts the error at `t + h`, so a system on its target trajectory stays on it. The position gradient
/// is exact: `∂e/∂δθ_c = J_l⁻¹(e)·R_pᵀ = −∂e/∂δθ_p`, plus the turning of the axes `A` with the parent.
#[derive(Debug, Clone, PartialEq)]
pub struct JointDrive {
    /// The driven (child) body.
    pub child: usize,
    /// The parent body, `None` for the world.
    pub parent: Option<usize>,
    /// Drive frame `F` relative to the parent body frame (identity: the parent's axes).
    pub frame: DriveFrame,
    /// Per-axis stiffness `K` (N·m/rad), drive frame.
    pub stiffness: Vector3<f64>,
    /// Per-axis damping `D` (N·m·s/rad), drive frame.
    pub damping: Vector3<f64>,
    /// Target relative rotation `q_target` (child in parent frame) at the end of the step.
    pub target_rotation: UnitQuaternion<f64>,
    /// Target relative angular velocity (rad/s, parent frame) at the end of the step.
    pub target_velocity: Vector3<f64>,
    /// Feedforward torque `τ_ff` (N·m, drive frame).
    pub feedforward: Vector3<f64>,
}

impl JointDrive {
    /// A drive holding the current relative rotation, with the given gains, no feedforward, parent axes.
    pub fn new(
        bodies: &[Body],
        child: usize,
        parent: Option<usize>,
        stiffness: Vector3<f64>,
        damping: Vector3<f64>,
    ) -> Self {
        let qp = parent.map_or(UnitQuaternion::identity(), |p| bodies[p].orientation);
        JointDrive {
            child,
            parent,
            frame: UnitQuaternion::identity(),
            stiffness,
            damping,
            target_rotation: qp.inverse() * bodies[child].orientation,
            target_velocity: Vector3::zeros(),
            feedforward: Vector3::zeros(),
        }
    }

    /// Sets the targets for the end of the coming step and the feedforward torque.
    pub fn set_target(
        &mut self,
        rotation: UnitQuaternion<f64>,
        velocity: Vector3<f64>,
        feedforward: Vector3<f64>,
    ) {
        self.target_rotation = rotation;
        self.target_velocity = velocity;
        self.feedforward = feedforward;
    }

    /// The current relative rotation `q_p⁻¹·q_c`.
    pub fn relative_rotation(&self, bodies: &[Body]) -> UnitQuaternion<f64> {
        let qp = self
            .parent
            .map_or(UnitQuaternion::identity(), |p| bodies[p].orientation);
        qp.inverse() * bodies[self.child].orientation
    }
}

impl Force for JointDrive {
    fn bodies(&self) -> (usize, Option<usize>) {
        (self.child, self.parent)
    }

    fn eval(&self, bodies: &[Body]) -> ForceEval {
        let c = &bodies[self.child];
        let (qp, wp) = match self.parent {
            Some(p) => (bodies[p].orientation, bodies[p].omega()),
            None => (UnitQuaternion::identity(), Vector3::zeros()),
        };
        let rp = qp.to_rotation_matrix().into_inner();
        let f = self.frame.to_rotation_matrix().into_inner();
        let a = rp * f;
        let k = Matrix3::from_diagonal(&self.stiffness);
        let d = Matrix3::from_diagonal(&self.damping);

        let e = log_rotation(&(qp.inverse() * c.orientation * self.target_rotation.inverse()));
        let g = left_jacobian_inverse(&e) * rp.transpose();
        let dw = c.omega() - wp;
        let tau_f = -k * (f.transpose() * e)
            - d * (a.transpose() * dw - f.transpose() * self.target_velocity)
            + self.feedforward;
        let tau = a * tau_f;

        let dtau_dc = -a * k * f.transpose() * g;
        let dtau_dwc = -a * d * a.transpose();

        let mut out = ForceEval::zero();
        out.wrench[0].fixed_rows_mut::<3>(0).copy_from(&tau);
        out.dp[0][0]
            .fixed_view_mut::<3, 3>(0, 0)
            .copy_from(&dtau_dc);
        out.dv[0][0]
            .fixed_view_mut::<3, 3>(0, 0)
            .copy_from(&dtau_dwc);
        if self.parent.is_some() {
            // The parent turns the error the other way and also carries the axes A with it.
            let dtau_dp = -cross_matrix(&tau)
                + a * (k * f.transpose() * g - d * a.transpose() * cross_matrix(&dw));
            out.wrench[1].fixed_rows_mut::<3>(0).copy_from(&(-tau));
            out.dp[0][1]
                .fixed_view_mut::<3, 3>(0, 0)
                .copy_from(&dtau_dp);
            out.dp[1][0]
                .fixed_view_mut::<3, 3>(0, 0)
                .copy_from(&(-dtau_dc));
            out.dp[1][1]
                .fixed_view_mut::<3, 3>(0, 0)
                .copy_from(&(-dtau_dp));
            out.dv[0][1]
                .fixed_view_mut::<3, 3>(0, 0)
                .copy_from(&(-dtau_dwc));
            out.dv[1][0]
                .fixed_view_mut::<3, 3>(0, 0)
                .copy_from(&(-dtau_dwc));
            out.dv[1][1]
                .fixed_view_mut::<3, 3>(0, 0)
                .copy_from(&dtau_dwc);
        }
        out
    }
}
