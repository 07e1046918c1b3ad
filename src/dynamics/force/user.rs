//! A user force and torque applied at a point of one body (a push, a hit, a thruster).

use nalgebra::{Matrix3, Vector3};

use super::{Force, ForceEval};
use crate::dynamics::body::Body;
use crate::math::spatial::{cross_matrix, twist};

/// The frame in which a [`UserForce`]'s force and torque are given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ForceFrame {
    /// Fixed in the world (a push from outside).
    World,
    /// Fixed in the body: it turns with the body (a thruster).
    Body,
}

/// Force `force` (N) at body point `point` (m, body coordinates relative to the CoM) plus a pure torque
/// `torque` (N·m). Wrench on the body: `(τ + s × F; F)` with `s = R·point`.
#[derive(Debug, Clone, PartialEq)]
pub struct UserForce {
    /// The body.
    pub body: usize,
    /// Application point in body coordinates relative to the CoM (m).
    pub point: Vector3<f64>,
    /// Force (N), in `frame`.
    pub force: Vector3<f64>,
    /// Pure torque (N·m), in `frame`.
    pub torque: Vector3<f64>,
    /// Frame of `force` and `torque`.
    pub frame: ForceFrame,
}

impl Force for UserForce {
    fn bodies(&self) -> (usize, Option<usize>) {
        (self.body, None)
    }

    fn eval(&self, bodies: &[Body]) -> ForceEval {
        let body = &bodies[self.body];
        let r = body.orientation;
        let s = r * self.point;
        let (f, t) = match self.frame {
            ForceFrame::World => (self.force, self.torque),
            ForceFrame::Body => (r * self.force, r * self.torque),
        };
        let tau = t + s.cross(&f);
        let mut e = ForceEval::zero();
        e.wrench[0] = twist(&tau, &f);
        // s(δθ) = s + δθ × s, so ∂(s × F)/∂δθ = [F][s] for a world-fixed F. A body-fixed F and τ also turn:
        // then the whole torque τ_w turns, ∂τ_w/∂δθ = −[τ_w], and ∂F/∂δθ = −[F].
        let dtau: Matrix3<f64> = match self.frame {
            ForceFrame::World => cross_matrix(&f) * cross_matrix(&s),
            ForceFrame::Body => -cross_matrix(&tau),
        };
        e.dp[0][0].fixed_view_mut::<3, 3>(0, 0).copy_from(&dtau);
        if self.frame == ForceFrame::Body {
            e.dp[0][0]
                .fixed_view_mut::<3, 3>(3, 0)
                .copy_from(&(-cross_matrix(&f)));
        }
        e
    }
}
