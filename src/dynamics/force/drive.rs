//! Joint drive: a PD servo with feedforward acting on the relative rotation of a child body and its parent.

use nalgebra::{Matrix3, UnitQuaternion, Vector3};

use super::{Force, ForceEval};
use crate::dynamics::body::Body;
use crate::math::rotation::log_rotation_with_jacobian_inverse;
use crate::math::small::mul;
use crate::math::spatial::cross_matrix;

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

/// A drive's world torque on the child and its non-zero gradient blocks. A drive is a pure torque that depends
/// only on the two rotations and angular velocities, so every gradient lives in the 3×3 angular corner of the
/// 6×6 blocks [`Force::eval`] returns; the step uses these directly (no 6×6 blocks to clear, copy and add).
/// The parent receives `−torque`; its blocks follow: `∂τ_p/∂δθ_c = −dc`, `∂τ_p/∂δθ_p = −dp`,
/// `∂τ_c/∂ω_p = ∂τ_p/∂ω_c = −dwc`, `∂τ_p/∂ω_p = dwc`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DriveTorque {
    /// World torque `τ` on the child (N·m).
    pub torque: Vector3<f64>,
    /// `∂τ/∂δθ_c`.
    pub dc: Matrix3<f64>,
    /// `∂τ/∂δθ_p` (zero without a parent body).
    pub dp: Matrix3<f64>,
    /// `∂τ/∂ω_c`.
    pub dwc: Matrix3<f64>,
}

impl JointDrive {
    /// The torque and its angular gradient blocks at the bodies' current state (see [`DriveTorque`]).
    pub fn torque(&self, bodies: &[Body]) -> DriveTorque {
        self.torque_inline(bodies)
    }

    /// [`JointDrive::torque`], inlined into the world's step (and so into its AVX2 copy, `math::dispatch`).
    #[inline(always)]
    pub(crate) fn torque_inline(&self, bodies: &[Body]) -> DriveTorque {
        let c = &bodies[self.child];
        let (qp, wp) = match self.parent {
            Some(p) => (bodies[p].orientation, bodies[p].omega()),
            None => (UnitQuaternion::identity(), Vector3::zeros()),
        };
        let rp = qp.to_rotation_matrix().into_inner();
        let (e, jinv) = log_rotation_with_jacobian_inverse(
            &(qp.inverse() * c.orientation * self.target_rotation.inverse()),
        );
        // Products by the `mul` kernel: nalgebra's 3×3 products are out-of-line loops (same sums, same order).
        let g = mul(&jinv, &rp.transpose());
        // The usual drive frame is the parent's axes, F = I exactly: the products with F are then skipped (they
        // give the same values, a zero's sign aside), which is a third of a drive's 3×3 products.
        let (a, fte, ftv, ftg) = if self.frame == UnitQuaternion::identity() {
            (rp, e, self.target_velocity, g)
        } else {
            let f = self.frame.to_rotation_matrix().into_inner();
            let ft = f.transpose();
            (rp * f, ft * e, ft * self.target_velocity, ft * g)
        };
        let dw = c.omega() - wp;
        let tau_f = -self.stiffness.component_mul(&fte)
            - self
                .damping
                .component_mul(&(mul(&a.transpose(), &dw) - ftv))
            + self.feedforward;
        let tau = mul(&a, &tau_f);

        // A·diag(K) and A·diag(D): the diagonal gains scale the columns of A.
        let mut ak = a;
        let mut ad = a;
        for j in 0..3 {
            ak.column_mut(j).scale_mut(self.stiffness[j]);
            ad.column_mut(j).scale_mut(self.damping[j]);
        }
        let dc = -mul(&ak, &ftg);
        let dwc = -mul(&ad, &a.transpose());
        // The parent turns the error the other way (−dc) and carries the axes A with it:
        // ∂τ/∂δθ_p = −[τ] + A(K Fᵀ G − D Aᵀ[ω_c − ω_p]) = −[τ] − dc + dwc·[ω_c − ω_p].
        let dp = if self.parent.is_some() {
            -cross_matrix(&tau) - dc + mul(&dwc, &cross_matrix(&dw))
        } else {
            Matrix3::zeros()
        };
        DriveTorque {
            torque: tau,
            dc,
            dp,
            dwc,
        }
    }
}

impl Force for JointDrive {
    fn bodies(&self) -> (usize, Option<usize>) {
        (self.child, self.parent)
    }

    fn eval(&self, bodies: &[Body]) -> ForceEval {
        let t = self.torque(bodies);
        let mut out = ForceEval::zero();
        out.wrench[0].fixed_rows_mut::<3>(0).copy_from(&t.torque);
        out.dp[0][0].fixed_view_mut::<3, 3>(0, 0).copy_from(&t.dc);
        out.dv[0][0].fixed_view_mut::<3, 3>(0, 0).copy_from(&t.dwc);
        if self.parent.is_some() {
            out.wrench[1].fixed_rows_mut::<3>(0).copy_from(&(-t.torque));
            out.dp[0][1].fixed_view_mut::<3, 3>(0, 0).copy_from(&t.dp);
            out.dp[1][0]
                .fixed_view_mut::<3, 3>(0, 0)
                .copy_from(&(-t.dc));
            out.dp[1][1]
                .fixed_view_mut::<3, 3>(0, 0)
                .copy_from(&(-t.dp));
            out.dv[0][1]
                .fixed_view_mut::<3, 3>(0, 0)
                .copy_from(&(-t.dwc));
            out.dv[1][0]
                .fixed_view_mut::<3, 3>(0, 0)
                .copy_from(&(-t.dwc));
            out.dv[1][1].fixed_view_mut::<3, 3>(0, 0).copy_from(&t.dwc);
        }
        out
    }
}
