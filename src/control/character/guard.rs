//! The simulation guard: after every step the character's state is checked (finite numbers, joints together,
//! speeds bounded). A failed check — or a step that failed to solve — puts the character back on its clip pose
//! and velocity at the current time and records a [`FaultEvent`]; the simulation never hands out a NaN.

use nalgebra::Vector3;
use serde::{Deserialize, Serialize};

use super::Character;
use crate::control::sampling::locate;
use crate::dynamics::{ContactReport, StepError, StepReport};

/// When a step counts as a fault.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GuardConfig {
    /// Check every step (default true). Off, a blown-up step is returned as an error as before.
    pub enabled: bool,
    /// Largest joint anchor separation after a step (m). Default 0.05: post-stabilization keeps joints within
    /// ~1e-10 m, so anything near this is a simulation that has come apart.
    pub max_joint_gap_m: f64,
    /// Largest body speed, linear (m/s) — angular speeds (rad/s) are held to 10× this. Default 200: a limb of a
    /// hit character moves at a few m/s, a 50 N·s hit on a hand reaches ~100 m/s.
    pub max_speed: f64,
}

impl Default for GuardConfig {
    fn default() -> Self {
        GuardConfig {
            enabled: true,
            max_joint_gap_m: 0.05,
            max_speed: 200.0,
        }
    }
}

impl GuardConfig {
    /// Both thresholds finite and positive.
    pub fn is_valid(&self) -> bool {
        let ok = |x: f64| x.is_finite() && x > 0.0;
        ok(self.max_joint_gap_m) && ok(self.max_speed)
    }
}

/// What went wrong in a guarded step.
#[derive(Debug, Clone, PartialEq)]
pub enum FaultKind {
    /// The step's linear solve failed or produced non-finite velocities.
    StepFailed(StepError),
    /// A body's position, orientation or velocity is not finite.
    NonFinite {
        /// First offending body.
        body: usize,
    },
    /// Joints came apart by more than [`GuardConfig::max_joint_gap_m`].
    JointGap {
        /// The separation (m).
        gap_m: f64,
    },
    /// A body moves faster than [`GuardConfig::max_speed`].
    Speed {
        /// The body.
        body: usize,
        /// Its linear speed (m/s) or angular speed / 10 (rad/s).
        speed: f64,
    },
}

impl std::fmt::Display for FaultKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FaultKind::StepFailed(e) => write!(f, "step failed: {e}"),
            FaultKind::NonFinite { body } => write!(f, "non-finite state of body {body}"),
            FaultKind::JointGap { gap_m } => write!(f, "joints apart by {:.3} mm", gap_m * 1e3),
            FaultKind::Speed { body, speed } => write!(f, "body {body} moves at {speed:.3e} m/s"),
        }
    }
}

/// A fault and the recovery that followed: the character was reset to the clip at `time`.
#[derive(Debug, Clone, PartialEq)]
pub struct FaultEvent {
    /// Simulation time after the faulty step, where the character was reset (s).
    pub time: f64,
    /// What was detected.
    pub kind: FaultKind,
}

impl Character {
    /// The guard's thresholds.
    pub fn guard(&self) -> GuardConfig {
        self.guard
    }

    /// Sets the guard's thresholds (both finite and positive, else an error).
    pub fn set_guard(&mut self, guard: GuardConfig) -> Result<(), super::CharacterError> {
        if !guard.is_valid() {
            return Err(super::CharacterError::Argument(format!(
                "guard thresholds must be finite and > 0, got {guard:?}"
            )));
        }
        self.guard = guard;
        Ok(())
    }

    /// The fault of the last step, if it had one (the character was then reset to its clip).
    pub fn last_fault(&self) -> Option<&FaultEvent> {
        self.last_fault.as_ref()
    }

    /// Faults since the character was built.
    pub fn fault_count(&self) -> u64 {
        self.fault_count
    }

    /// Checks a step's outcome; on a fault resets the character to its clip at `t_end` and reports a clean step.
    pub(super) fn guard_step(
        &mut self,
        result: Result<StepReport, StepError>,
        t_end: f64,
    ) -> Result<StepReport, StepError> {
        self.last_fault = None;
        if !self.guard.enabled {
            return result;
        }
        let kind = match &result {
            Err(e) => Some(FaultKind::StepFailed(e.clone())),
            Ok(report) => self.detect_fault(report.max_separation),
        };
        let Some(kind) = kind else {
            return result;
        };
        self.reset_to_clip(t_end);
        self.fault_count += 1;
        self.last_fault = Some(FaultEvent { time: t_end, kind });
        Ok(StepReport {
            constraint_error: 0.0,
            max_separation: 0.0,
            post_stab: None,
            contacts: ContactReport::default(),
        })
    }

    fn detect_fault(&self, max_separation: f64) -> Option<FaultKind> {
        for (i, b) in self.world.bodies().iter().enumerate() {
            let finite = zero_if_finite(b.position.as_slice())
                + zero_if_finite(b.orientation.coords.as_slice())
                + zero_if_finite(b.velocity.as_slice())
                == 0.0;
            if !finite {
                return Some(FaultKind::NonFinite { body: i });
            }
            let linear = b.velocity.fixed_rows::<3>(3).norm();
            let angular = b.velocity.fixed_rows::<3>(0).norm() / 10.0;
            let speed = linear.max(angular);
            if speed > self.guard.max_speed {
                return Some(FaultKind::Speed { body: i, speed });
            }
        }
        // NaN compares false: a NaN gap is caught by the finiteness check above or here.
        if max_separation.is_nan() || max_separation > self.guard.max_joint_gap_m {
            return Some(FaultKind::JointGap {
                gap_m: max_separation,
            });
        }
        None
    }

    /// Puts every body on the reference sample nearest to `t` (pose and velocity), forgets pending hits and
    /// contacts, and sets the clock to `t`.
    pub(super) fn reset_to_clip(&mut self, t: f64) {
        let (k, s) = locate(&self.prepared.reference, t);
        let last = self.prepared.reference.steps - 1;
        let k = if s > 0.5 { (k + 1).min(last) } else { k };
        let mut kin = std::mem::take(&mut self.scratch_poses);
        self.prepared.reference.poses(k, &mut kin);
        let mut state = self.world.save_state();
        state.time = t;
        for (b, s) in state.bodies.iter_mut().enumerate() {
            s.position = kin[b].com;
            s.orientation = kin[b].rotation;
            s.velocity = self.prepared.reference.twist(k, b);
        }
        for f in &mut state.user_forces {
            f.force = Vector3::zeros();
            f.torque = Vector3::zeros();
        }
        state.warm_bases = [Vec::new(), Vec::new()];
        state.warm_impulses.clear();
        self.scratch_poses = kin;
        // The reference state is finite and the body count is the world's own: restoring cannot fail.
        let _ = self.world.restore_state(&state);
        self.clear_forces();
    }
}

/// `0.0` when every entry is finite, NaN otherwise (`x·0` is NaN exactly for an infinite or NaN `x`). A sum rather
/// than a chain of `is_finite` tests: the check runs on every body after every step, and the chained iterator
/// was an out-of-line loop of ~250 instructions per body.
fn zero_if_finite(xs: &[f64]) -> f64 {
    xs.iter().fold(0.0, |acc, &x| acc + x * 0.0)
}
