//! A linear spring–damper pulling one body's centre of mass toward a moving target point, plus a constant force
//! and torque: the translational half of a free root's assist (the rotational half is a [`super::JointDrive`]
//! to the world). Its gradients enter the linearly implicit step, so a stiff assist is as stable as a stiff
//! joint drive (Cline 2002 §4.3).

use nalgebra::{Matrix3, Vector3};

use super::{Force, ForceEval};
use crate::dynamics::body::Body;
use crate::math::spatial::twist;

/// `f = −K·(x − x_target) − D·(v − v_target) + f_ff` at the body's centre of mass, plus a pure torque `τ_ff`
/// (world frame). Targets are meant for the end of the coming step, like a drive's.
#[derive(Debug, Clone, PartialEq)]
pub struct PositionSpring {
    /// The body.
    pub body: usize,
    /// Stiffness `K` (N/m), isotropic.
    pub stiffness: f64,
    /// Damping `D` (N·s/m), isotropic.
    pub damping: f64,
    /// Target centre-of-mass position (m, world).
    pub target: Vector3<f64>,
    /// Target centre-of-mass velocity (m/s, world).
    pub target_velocity: Vector3<f64>,
    /// Constant force (N, world) at the centre of mass.
    pub force: Vector3<f64>,
    /// Constant torque (N·m, world).
    pub torque: Vector3<f64>,
}

impl PositionSpring {
    /// A spring on `body` holding its current position, with no gains and no feedforward (no force).
    pub fn new(bodies: &[Body], body: usize) -> PositionSpring {
        PositionSpring {
            body,
            stiffness: 0.0,
            damping: 0.0,
            target: bodies[body].position,
            target_velocity: Vector3::zeros(),
            force: Vector3::zeros(),
            torque: Vector3::zeros(),
        }
    }
}

impl Force for PositionSpring {
    fn bodies(&self) -> (usize, Option<usize>) {
        (self.body, None)
    }

    fn eval(&self, bodies: &[Body]) -> ForceEval {
        let b = &bodies[self.body];
        let v = b.velocity.fixed_rows::<3>(3).into_owned();
        let f = -self.stiffness * (b.position - self.target)
            - self.damping * (v - self.target_velocity)
            + self.force;
        let mut e = ForceEval::zero();
        e.wrench[0] = twist(&self.torque, &f);
        // A displacement δx of the centre of mass moves x by δx; a rotation leaves it in place.
        e.dp[0][0]
            .fixed_view_mut::<3, 3>(3, 3)
            .copy_from(&(-self.stiffness * Matrix3::identity()));
        e.dv[0][0]
            .fixed_view_mut::<3, 3>(3, 3)
            .copy_from(&(-self.damping * Matrix3::identity()));
        e
    }
}
