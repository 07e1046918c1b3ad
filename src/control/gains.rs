//! Feedback gains (Cline 2002 eq. 5.7, with the floors a production controller needs).
//!
//! Per joint DOF `i` with feedforward torque `τ_i` (the inverse-dynamics torque of the current step):
//! `γ_i = (k_s·|τ_i| + k_min)·(θ_d,i − θ_i) + (k_d·|τ_i| + d_min)·(θ̇_d,i − θ̇_i)`. Both the stiffness and the
//! damping scale with `|τ_i|` (muscle stiffness grows with activation; scaling the damping alike keeps the damping
//! ratio roughly constant, since a joint's load torque and its subtree's inertia grow together). The floors keep
//! joints with a vanishing feedforward (a wrist, a torque crossing zero, a balanced trunk) from going limp; by
//! default they follow each joint's load (see [`Gains::k_min`]) and never leave a joint slower than
//! [`Gains::min_frequency`].

use serde::{Deserialize, Serialize};

use nalgebra::Vector3;

use super::kinematics::{Placement, Topology};
use crate::model::GainConfig;

/// The gains of one joint (or the defaults).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Gains {
    /// Stiffness per unit feedforward torque (N·m/rad per N·m = 1/rad). Default 30: a shoulder holding the arm
    /// (|τ| ≈ 8 N·m, I ≈ 0.4 kg·m²) gets ω_n ≈ 25 rad/s.
    pub k_s: f64,
    /// Damping per unit feedforward torque (N·m·s/rad per N·m = s/rad). Default 1 (with the floor below, the
    /// damping ratio of a loaded joint is about 1).
    pub k_d: f64,
    /// Stiffness floor (N·m/rad); `None` (default): the larger of `load_factor · m_sub·g·d_sub`, the static
    /// gravity moment of the joint's subtree (mass `m_sub`, CoM at `d_sub` from the joint) times a margin, and
    /// `I_sub·min_frequency²`. A balanced segment (an upright trunk over the pelvis) has almost no feedforward
    /// torque yet is an inverted pendulum: below `m·g·d` of stiffness it would topple to a new equilibrium
    /// instead of returning.
    pub k_min: Option<f64>,
    /// Damping floor (N·m·s/rad); `None` (default): critical for the floor, `2·√(k_min·I_sub)` with `I_sub` the
    /// subtree's largest moment of inertia about the joint.
    pub d_min: Option<f64>,
    /// Margin of the automatic stiffness floor over the subtree's gravity moment (dimensionless). Default 3.
    pub load_factor: f64,
    /// Lowest natural frequency the automatic stiffness floor allows a joint (rad/s): `k_min ≥ I_sub·ω²`, with
    /// `I_sub` the subtree's largest moment of inertia about the joint. Default 6.75. A joint whose subtree
    /// balances on it has no gravity moment to scale a floor from: the CMU chest joint (`Spine1`) carries 17 kg
    /// of chest, head and arms (0.94 kg·m²) whose centre of mass sits 1.4 cm from it, so the load floor alone
    /// gave 6.7 N·m/rad, a 2.7 rad/s pendulum that took 1.2 s to return from a bat. The other joints of the
    /// shared rigs have load floors of 7.2–22 rad/s (one at 6.0), so the default lifts only such joints.
    pub min_frequency: f64,
}

impl Default for Gains {
    fn default() -> Self {
        Gains {
            k_s: 30.0,
            k_d: 1.0,
            k_min: None,
            d_min: None,
            load_factor: 3.0,
            min_frequency: 6.75,
        }
    }
}

/// One joint's gains resolved to numbers: `stiffness = k_s·|τ| + k_min`, `damping = k_d·|τ| + d_min`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JointGains {
    /// Stiffness per unit feedforward torque (1/rad).
    pub k_s: f64,
    /// Stiffness floor (N·m/rad).
    pub k_min: f64,
    /// Damping per unit feedforward torque (s/rad).
    pub k_d: f64,
    /// Damping floor (N·m·s/rad).
    pub d_min: f64,
}

impl JointGains {
    /// Stiffness (N·m/rad) for feedforward torque `tau` (N·m).
    pub fn stiffness(&self, tau: f64) -> f64 {
        self.k_s * tau.abs() + self.k_min
    }

    /// Damping (N·m·s/rad) for feedforward torque `tau` (N·m).
    pub fn damping(&self, tau: f64) -> f64 {
        self.k_d * tau.abs() + self.d_min
    }

    /// Per-axis `(stiffness, damping)` for the feedforward torque `tau` (N·m, per axis) on the axes `driven(i)`
    /// says are driven, 0 on the others: what a joint drive is set to, and what the drive correction predicts.
    pub(crate) fn per_axis(
        &self,
        tau: &Vector3<f64>,
        driven: impl Fn(usize) -> bool,
    ) -> (Vector3<f64>, Vector3<f64>) {
        let mut k = Vector3::zeros();
        let mut d = Vector3::zeros();
        for i in 0..3 {
            if driven(i) {
                k[i] = self.stiffness(tau[i]);
                d[i] = self.damping(tau[i]);
            }
        }
        (k, d)
    }
}

impl Gains {
    /// These gains with a bone's overrides applied.
    pub fn with_overrides(&self, o: &GainConfig) -> Gains {
        Gains {
            k_s: o.k_s.unwrap_or(self.k_s),
            k_d: o.k_d.unwrap_or(self.k_d),
            k_min: o.k_min.or(self.k_min),
            d_min: o.d_min.or(self.d_min),
            load_factor: o.load_factor.unwrap_or(self.load_factor),
            min_frequency: o.min_frequency.unwrap_or(self.min_frequency),
        }
    }

    /// The numbers for a joint whose subtree has gravity moment `load` (N·m) and largest moment of inertia
    /// `inertia` (kg·m²) about the joint.
    pub fn resolve(&self, load: f64, inertia: f64) -> JointGains {
        let bandwidth = inertia * self.min_frequency * self.min_frequency;
        let k_min = self
            .k_min
            .unwrap_or((self.load_factor * load).max(bandwidth));
        JointGains {
            k_s: self.k_s,
            k_min,
            k_d: self.k_d,
            d_min: self.d_min.unwrap_or(2.0 * (k_min * inertia).sqrt()),
        }
    }

    /// Whether every gain is finite and non-negative.
    pub fn is_valid(&self) -> bool {
        [
            self.k_s,
            self.k_d,
            self.k_min.unwrap_or(0.0),
            self.d_min.unwrap_or(0.0),
            self.load_factor,
            self.min_frequency,
        ]
        .iter()
        .all(|g| g.is_finite() && *g >= 0.0)
    }
}

/// Per body: the gravity moment `m_sub·|g|·d_sub` (N·m) and the largest moment of inertia (kg·m², an upper bound:
/// largest principal moments plus point masses) of its subtree about its joint, at the given pose.
pub fn subtree_loads<P: Placement>(topo: &Topology, kin: &[P], gravity: f64) -> Vec<(f64, f64)> {
    let n = topo.len();
    let mut mass = topo.mass.clone();
    let mut moment: Vec<Vector3<f64>> = (0..n).map(|b| kin[b].com() * topo.mass[b]).collect();
    for b in (1..n).rev() {
        let p = topo.parent[b];
        mass[p] += mass[b];
        moment[p] = moment[p] + moment[b];
    }
    (0..n)
        .map(|b| {
            let anchor = *kin[b].origin();
            let d = (moment[b] / mass[b] - anchor).norm();
            let mut inertia = 0.0;
            let mut stack = vec![b];
            while let Some(i) = stack.pop() {
                let largest = topo.inertia[i].symmetric_eigenvalues().max();
                inertia += largest + topo.mass[i] * (kin[i].com() - anchor).norm_squared();
                stack.extend((i + 1..n).filter(|&c| topo.parent[c] == i));
            }
            (mass[b] * gravity * d, inertia)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A joint whose subtree balances on it (no gravity moment) still gets a floor of the minimum natural
    /// frequency, critically damped; a loaded joint keeps its load floor; explicit floors win.
    #[test]
    fn the_stiffness_floor_keeps_a_minimum_frequency() {
        let g = Gains::default();
        let (inertia, w) = (0.94, g.min_frequency);
        let balanced = g.resolve(0.0, inertia);
        assert!((balanced.k_min - inertia * w * w).abs() < 1e-12);
        assert!((balanced.d_min - 2.0 * inertia * w).abs() < 1e-9);
        let loaded = g.resolve(40.0, inertia);
        assert_eq!(loaded.k_min, 120.0);
        let explicit = Gains {
            k_min: Some(5.0),
            ..g
        }
        .resolve(0.0, inertia);
        assert_eq!(explicit.k_min, 5.0);
        assert!(
            !Gains {
                min_frequency: f64::NAN,
                ..g
            }
            .is_valid()
        );
    }
}
