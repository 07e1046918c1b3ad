//! Uniform gravity.

use nalgebra::Vector3;

use super::{Force, ForceEval};
use crate::dynamics::body::Body;
use crate::math::spatial::twist;

/// Gravity `m·g` at the CoM of one body. Its gradients are zero (a force at the CoM of a constant field).
#[derive(Debug, Clone, PartialEq)]
pub struct Gravity {
    /// The body.
    pub body: usize,
    /// Acceleration of gravity (m/s²), e.g. `(0, −9.81, 0)`.
    pub g: Vector3<f64>,
}

impl Force for Gravity {
    fn bodies(&self) -> (usize, Option<usize>) {
        (self.body, None)
    }

    fn eval(&self, bodies: &[Body]) -> ForceEval {
        let mut e = ForceEval::zero();
        e.wrench[0] = twist(&Vector3::zeros(), &(self.g * bodies[self.body].mass));
        e
    }
}
