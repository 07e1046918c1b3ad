//! The inverse-dynamics passes over a reference, samples split over the cores (each needs only its neighbours'
//! poses):
//! - the discrete-step one ([`super::discrete`]): the feedforward, drive target velocities and anchor biases the
//!   character's step applies. [`ReferenceMotion::build`] runs it; it reads poses only.
//! - the continuous recursive Newton–Euler at `(q, u, u̇)` ([`ReferenceMotion::continuous_inverse_dynamics`]):
//!   the textbook joint torques, which MuJoCo's `mj_inverse` reproduces. No step reads them (they are for analysis:
//!   the Python binding, the MJCF comparison, the tests), so they are computed when asked for, not by every
//!   preparation: it spent a sixth of the build's instructions on them (forward kinematics with velocities and
//!   accelerations, Newton–Euler) and wrote a 3.3 MB table per minute of clip.

use nalgebra::{Matrix3, UnitQuaternion, Vector3};

use super::discrete::{Twists, chord_twists, joint_step_targets_in, step_wrenches_with};
use super::inverse::{JointWrenches, newton_euler_with};
use super::kinematics::{BodyPose, Placement};
use super::parallel::{Fill, Table, pieces, ranges, run, thread_count};
use super::reference::ReferenceMotion;

/// The continuous inverse dynamics of a reference ([`ReferenceMotion::continuous_inverse_dynamics`]).
#[derive(Debug, Clone, PartialEq)]
pub struct ContinuousInverseDynamics {
    /// Joint torque per step and body (N·m): for a joint, in its joint frame (free axes only); for the root, the
    /// residual torque about its origin in the root frame (what the prescribed root supplies). Step-major.
    pub torque: Vec<Vector3<f64>>,
    /// Residual force on the root per step (N, world), applied at its origin.
    pub root_force: Vec<Vector3<f64>>,
}

impl ContinuousInverseDynamics {
    /// Bodies per step (the torques per root force).
    pub fn bodies(&self) -> usize {
        self.torque
            .len()
            .checked_div(self.root_force.len())
            .unwrap_or(0)
    }

    /// The torque of body `b`'s joint at sample `k` (see [`ContinuousInverseDynamics::torque`]).
    pub fn joint_torque(&self, k: usize, b: usize) -> Vector3<f64> {
        self.torque[k * self.bodies() + b]
    }
}

impl ReferenceMotion {
    /// Runs the discrete-step inverse dynamics at every sample, into [`ReferenceMotion::feedforward`],
    /// [`ReferenceMotion::target_velocity`], [`ReferenceMotion::anchor_bias`] and [`ReferenceMotion::twists`].
    /// `threads`: at most this many (`None`: one per core, up to 8).
    pub fn compute_inverse_dynamics(&mut self, threads: Option<usize>) {
        let (n, nb) = (self.steps, self.bodies());
        // Fresh tables, each entry written once, on the threads (so their pages are first touched there).
        let mut feedforward = Table::new(n * nb);
        let mut target_velocity = Table::new(n * nb);
        let mut anchor_bias = Table::new(n * nb);
        let mut twists = Table::new(n * nb);
        let threads = thread_count(n, threads);
        let parts = ranges(n, pieces(threads));
        let jobs: Vec<_> = parts
            .iter()
            .cloned()
            .zip(feedforward.pieces(&parts, nb))
            .zip(target_velocity.pieces(&parts, nb))
            .zip(anchor_bias.pieces(&parts, nb))
            .zip(twists.pieces(&parts, nb))
            .map(
                |((((r, feedforward), target_velocity), anchor_bias), twists)| {
                    let out = StepOut {
                        feedforward,
                        target_velocity,
                        anchor_bias,
                        twists,
                    };
                    (r, out)
                },
            )
            .collect();
        run(threads, jobs, |(r, out)| {
            self.discrete_range(r.start, r.end, out)
        });
        let mut feedforward = feedforward.finish();
        let mut target_velocity = target_velocity.finish();
        let mut anchor_bias = anchor_bias.finish();
        if n >= 2 {
            let last = (n - 1) * nb;
            for a in [&mut feedforward, &mut target_velocity, &mut anchor_bias] {
                a.copy_within(last - nb..last, last);
            }
        }
        self.feedforward = feedforward;
        self.target_velocity = target_velocity;
        self.anchor_bias = anchor_bias;
        self.twists = twists.finish();
    }

    /// The continuous inverse dynamics (recursive Newton–Euler at every sample's `(q, u, u̇)`): the joint torques
    /// of the reference in each joint's frame and the root's residual force. `threads` as for
    /// [`ReferenceMotion::compute_inverse_dynamics`]. Costs about half as much as [`ReferenceMotion::build`]; call it
    /// once and keep the result.
    pub fn continuous_inverse_dynamics(&self, threads: Option<usize>) -> ContinuousInverseDynamics {
        let (n, nb) = (self.steps, self.bodies());
        let mut torque = Table::new(n * nb);
        let mut root_force = Table::new(n);
        let threads = thread_count(n, threads);
        let parts = ranges(n, pieces(threads));
        let jobs: Vec<_> = parts
            .iter()
            .cloned()
            .zip(torque.pieces(&parts, nb))
            .zip(root_force.pieces(&parts, 1))
            .collect();
        run(threads, jobs, |((r, mut torque), mut root_force)| {
            let mut kin = Vec::with_capacity(nb);
            let mut inertia = Vec::with_capacity(nb);
            let mut axes = Vec::with_capacity(nb);
            let mut wrenches = JointWrenches::default();
            for k in r {
                self.kinematics(k, &mut kin);
                self.world_inertias(&kin, &mut inertia);
                newton_euler_with(&self.topology, &kin, &inertia, &self.gravity, &mut wrenches);
                self.joint_axes_world(&kin, &mut axes);
                for (b, a) in axes.iter().enumerate() {
                    torque.push(match self.topology.parent[b] {
                        usize::MAX => a.inverse() * wrenches.torque[b],
                        _ => self.dofs[b].free_part(&(a.inverse() * wrenches.torque[b])),
                    });
                }
                root_force.push(wrenches.force[0]);
            }
        });
        ContinuousInverseDynamics {
            torque: torque.finish(),
            root_force: root_force.finish(),
        }
    }

    /// Each body's world inertia about its CoM at poses `kin` (both inverse dynamics use them), into `out`.
    fn world_inertias<P: Placement>(&self, kin: &[P], out: &mut Vec<Matrix3<f64>>) {
        out.clear();
        out.extend(
            kin.iter()
                .enumerate()
                .map(|(b, k)| self.topology.inertia_world(b, k.rotation())),
        );
    }

    /// Each joint's world axes `R_parent·joint_frame` at poses `kin` (the root's: its rotation), into `out`.
    fn joint_axes_world<P: Placement>(&self, kin: &[P], out: &mut Vec<UnitQuaternion<f64>>) {
        out.clear();
        out.extend((0..kin.len()).map(|b| match self.topology.parent[b] {
            usize::MAX => *kin[b].rotation(),
            p => kin[p].rotation() * self.joint_frame[b],
        }));
    }

    /// The discrete-step inverse dynamics for samples `k0..k1`, into `out` (whose pieces start at sample `k0`).
    /// The root's step targets, and the last sample's (which repeat the one before, see the caller), are written
    /// as zeros.
    fn discrete_range(&self, k0: usize, k1: usize, mut out: StepOut<'_>) {
        let zero = Vector3::zeros();
        let nb = self.bodies();
        let h = self.h;
        let (mut kin, mut next): (Vec<BodyPose>, Vec<BodyPose>) =
            (Vec::with_capacity(nb), Vec::with_capacity(nb));
        let mut step = JointWrenches::default();
        let mut v: Twists = Vec::with_capacity(nb);
        let mut v1: Twists = Vec::with_capacity(nb);
        // World inertias of the current sample's bodies.
        let mut inertia = Vec::with_capacity(nb);
        // Each joint's world axes `R_parent·joint_frame` at the current sample (the root's unused).
        let mut axes = Vec::with_capacity(nb);
        self.poses(k0, &mut kin);
        if k0 == 0 {
            // Sample 0 has no step before it: the continuous twists (the only velocities this pass needs).
            let mut full = Vec::with_capacity(nb);
            self.kinematics(0, &mut full);
            v.extend(full.iter().map(|k| (k.omega, k.com_velocity)));
        } else {
            self.poses(k0 - 1, &mut next);
            chord_twists(&next, &kin, h, &mut v);
        }
        for k in k0..k1 {
            out.twists.extend_from_slice(&v);
            if k + 1 == self.steps {
                for _ in 0..nb {
                    out.feedforward.push(zero);
                    out.target_velocity.push(zero);
                    out.anchor_bias.push(zero);
                }
                break;
            }
            self.world_inertias(&kin, &mut inertia);
            self.joint_axes_world(&kin, &mut axes);
            self.poses(k + 1, &mut next);
            chord_twists(&kin, &next, h, &mut v1);
            step_wrenches_with(
                &self.topology,
                &kin,
                &inertia,
                &v,
                &v1,
                h,
                &self.gravity,
                &mut step,
            );
            if nb > 0 {
                out.feedforward.push(zero);
                out.target_velocity.push(zero);
                out.anchor_bias.push(zero);
            }
            for (b, a) in axes.iter().enumerate().skip(1) {
                let t = joint_step_targets_in(
                    &self.topology,
                    &kin,
                    &v,
                    &v1,
                    &step,
                    a,
                    self.dofs[b],
                    h,
                    b,
                );
                out.feedforward.push(t.feedforward);
                out.target_velocity.push(t.target_velocity);
                out.anchor_bias.push(t.anchor_bias);
            }
            std::mem::swap(&mut kin, &mut next);
            std::mem::swap(&mut v, &mut v1);
        }
    }
}

/// The per-sample outputs of the discrete inverse dynamics for a run of samples.
struct StepOut<'a> {
    feedforward: Fill<'a, Vector3<f64>>,
    target_velocity: Fill<'a, Vector3<f64>>,
    anchor_bias: Fill<'a, Vector3<f64>>,
    twists: Fill<'a, (Vector3<f64>, Vector3<f64>)>,
}
