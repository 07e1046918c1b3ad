//! Linear and angular viscous damping of one body (absolute, against the world frame).

use nalgebra::{Matrix6, Vector6};

use super::{Force, ForceEval};
use crate::dynamics::body::Body;

/// Damping wrench `(−c_ω·ω; −c_v·v)`: `c_ω` in N·m·s/rad, `c_v` in N·s/m. `∂f/∂v = −diag(c_ω, c_v)`,
/// `∂f/∂p = 0`.
#[derive(Debug, Clone, PartialEq)]
pub struct Damping {
    /// The body.
    pub body: usize,
    /// Angular damping coefficient (N·m·s/rad).
    pub angular: f64,
    /// Linear damping coefficient (N·s/m).
    pub linear: f64,
}

impl Force for Damping {
    fn bodies(&self) -> (usize, Option<usize>) {
        (self.body, None)
    }

    fn eval(&self, bodies: &[Body]) -> ForceEval {
        let c = Vector6::new(
            self.angular,
            self.angular,
            self.angular,
            self.linear,
            self.linear,
            self.linear,
        );
        let mut e = ForceEval::zero();
        e.wrench[0] = -c.component_mul(&bodies[self.body].velocity);
        e.dv[0][0] = -Matrix6::from_diagonal(&c);
        e
    }
}
