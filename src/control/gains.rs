//! Feedback gains (Cline 2002 eq. 5.7, with the floors a production controller needs).
//!
//! Per joint DOF `i` with feedforward torque `τ_i` (the inverse-dynamics torque of the current step):
//! `γ_i = (k_s·|τ_i| + k_min)·(θ_d,i − θ_i) + (k_d·|τ_i| + d_min)·(θ̇_d,i − θ̇_i)`. Both the stiffness and the
//! damping scale with `|τ_i|` (muscle stiffness grows with activation; scaling the damping alike keeps the damping
//! ratio roughly constant, since a joint's load torque and its subtree's inertia grow together). The floors keep
//! joints with a vanishing feedforward (a wrist, a torque crossing zero) from going limp.

use serde::{Deserialize, Serialize};

use crate::model::GainConfig;

/// The gains of one joint (or the defaults).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Gains {
    /// Stiffness per unit feedforward torque (N·m/rad per N·m = 1/rad). Default 20: a shoulder holding the arm
    /// (|τ| ≈ 8 N·m, I ≈ 0.4 kg·m²) gets ω_n ≈ 20 rad/s.
    pub k_s: f64,
    /// Stiffness floor (N·m/rad). Default 2: a hand (I ≈ 0.005 kg·m²) keeps ω_n ≈ 20 rad/s.
    pub k_min: f64,
    /// Damping per unit feedforward torque (N·m·s/rad per N·m = s/rad). Default 2: near critical with `k_s`.
    pub k_d: f64,
    /// Damping floor (N·m·s/rad). Default 0.2: near critical with `k_min` on a hand.
    pub d_min: f64,
}

impl Default for Gains {
    fn default() -> Self {
        Gains {
            k_s: 20.0,
            k_min: 2.0,
            k_d: 2.0,
            d_min: 0.2,
        }
    }
}

impl Gains {
    /// These gains with a bone's overrides applied.
    pub fn with_overrides(&self, o: &GainConfig) -> Gains {
        Gains {
            k_s: o.k_s.unwrap_or(self.k_s),
            k_min: o.k_min.unwrap_or(self.k_min),
            k_d: o.k_d.unwrap_or(self.k_d),
            d_min: o.d_min.unwrap_or(self.d_min),
        }
    }

    /// Stiffness (N·m/rad) for feedforward torque `tau` (N·m).
    pub fn stiffness(&self, tau: f64) -> f64 {
        self.k_s * tau.abs() + self.k_min
    }

    /// Damping (N·m·s/rad) for feedforward torque `tau` (N·m).
    pub fn damping(&self, tau: f64) -> f64 {
        self.k_d * tau.abs() + self.d_min
    }

    /// Whether every gain is finite and non-negative.
    pub fn is_valid(&self) -> bool {
        [self.k_s, self.k_min, self.k_d, self.d_min]
            .iter()
            .all(|g| g.is_finite() && *g >= 0.0)
    }
}
