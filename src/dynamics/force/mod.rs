//! Applied forces with analytic gradients (Cline 2002 §2.7.4, §4.6).
//!
//! A force touches one or two bodies and returns, at the current state, its wrenches `(τ; f)` and the gradient
//! blocks `∂f/∂p` (with respect to twist-coordinate displacements `(δθ; δx)`, see [`crate::math::spatial`]) and
//! `∂f/∂v` (with respect to the twists `(ω; v)`). Each gradient is checked against central differences in
//! `tests/dynamics_fd.rs`.

mod damping;
mod drive;
mod gravity;
mod spring;
mod user;

pub use damping::Damping;
pub use drive::{DriveFrame, DriveTorque, JointDrive};
pub use gravity::Gravity;
pub use spring::PositionSpring;
pub use user::{ForceFrame, UserForce};

use nalgebra::{Matrix6, Vector6};

use super::body::Body;

/// A force's value and gradients. Index 0 is `body_a`, 1 is `body_b` (unused when it has none):
/// `dp[i][j] = ∂wrench_i/∂p_j`, `dv[i][j] = ∂wrench_i/∂v_j`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ForceEval {
    /// Wrenches `(τ; f)` on body a and body b (N·m; N).
    pub wrench: [Vector6<f64>; 2],
    /// Position gradient blocks.
    pub dp: [[Matrix6<f64>; 2]; 2],
    /// Velocity gradient blocks.
    pub dv: [[Matrix6<f64>; 2]; 2],
}

impl ForceEval {
    /// No force, zero gradients. Inlined: 2.4 kB returned by value, which an out-of-line call builds and then
    /// copies (a change elsewhere once tipped the compiler into not inlining it: +5 % on the penalty stack).
    #[inline]
    pub fn zero() -> Self {
        ForceEval {
            wrench: [Vector6::zeros(); 2],
            dp: [[Matrix6::zeros(); 2]; 2],
            dv: [[Matrix6::zeros(); 2]; 2],
        }
    }
}

/// An applied force acting on one body or between two.
pub trait Force: Send + Sync + std::fmt::Debug {
    /// The bodies: `(body_a, body_b)`; `None` when the force acts on one body (or reacts on the world).
    fn bodies(&self) -> (usize, Option<usize>);
    /// The wrench(es) and gradients at the bodies' current state.
    fn eval(&self, bodies: &[Body]) -> ForceEval;
}
