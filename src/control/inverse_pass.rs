//! The inverse-dynamics pass over a reference: the continuous recursive Newton–Euler at every sample and the
//! discrete-step feedforward ([`super::discrete`]), samples split over the cores (each needs only its neighbours'
//! poses).

use nalgebra::Vector3;

use super::discrete::{Twists, chord_twists, joint_step_targets_in, step_wrenches_with};
use super::inverse::{JointWrenches, newton_euler_with};
use super::parallel::{Fill, Table, pieces, ranges, run, thread_count};
use super::reference::ReferenceMotion;

impl ReferenceMotion {
    /// Runs the inverse dynamics at every sample: the continuous one (recursive Newton–Euler at `(q, u, u̇)`, into
    /// [`ReferenceMotion::torque`]) and the discrete-step one (into [`ReferenceMotion::feedforward`],
    /// [`ReferenceMotion::target_velocity`] and [`ReferenceMotion::anchor_bias`]). `threads`: at most this many
    /// (`None`: one per core, up to 8).
    pub fn compute_inverse_dynamics(&mut self, threads: Option<usize>) {
        let (n, nb) = (self.steps, self.bodies());
        // Fresh tables, each entry written once, on the threads (so their pages are first touched there).
        let mut torque = Table::new(n * nb);
        let mut root_force = Table::new(n);
        let mut feedforward = Table::new(n * nb);
        let mut target_velocity = Table::new(n * nb);
        let mut anchor_bias = Table::new(n * nb);
        let mut twists = Table::new(n * nb);
        // Samples are independent given their neighbours' poses: split them over the cores.
        let threads = thread_count(n, threads);
        let parts = ranges(n, pieces(threads));
        let jobs: Vec<_> = parts
            .iter()
            .cloned()
            .zip(torque.pieces(&parts, nb))
            .zip(root_force.pieces(&parts, 1))
            .zip(feedforward.pieces(&parts, nb))
            .zip(target_velocity.pieces(&parts, nb))
            .zip(anchor_bias.pieces(&parts, nb))
            .zip(twists.pieces(&parts, nb))
            .map(
                |(
                    (((((r, torque), root_force), feedforward), target_velocity), anchor_bias),
                    twists,
                )| {
                    let out = IdOut {
                        torque,
                        root_force,
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
            self.inverse_dynamics_range(r.start, r.end, out)
        });
        let (torque, root_force, twists) = (torque.finish(), root_force.finish(), twists.finish());
        let mut feedforward = feedforward.finish();
        let mut target_velocity = target_velocity.finish();
        let mut anchor_bias = anchor_bias.finish();
        if n >= 2 {
            let last = (n - 1) * nb;
            for a in [&mut feedforward, &mut target_velocity, &mut anchor_bias] {
                a.copy_within(last - nb..last, last);
            }
        }
        self.torque = torque;
        self.root_force = root_force;
        self.feedforward = feedforward;
        self.target_velocity = target_velocity;
        self.anchor_bias = anchor_bias;
        self.twists = twists;
    }

    /// Both inverse dynamics for samples `k0..k1`, into `out` (whose pieces start at sample `k0`). The root's step
    /// targets, and the last sample's (which repeat the one before, see the caller), are written as zeros.
    fn inverse_dynamics_range(&self, k0: usize, k1: usize, mut out: IdOut<'_>) {
        let zero = Vector3::zeros();
        let nb = self.bodies();
        let h = self.h;
        let (mut kin, mut next) = (Vec::with_capacity(nb), Vec::with_capacity(nb));
        let mut wrenches = JointWrenches::default();
        let mut step = JointWrenches::default();
        let mut v: Twists = Vec::with_capacity(nb);
        let mut v1: Twists = Vec::with_capacity(nb);
        // World inertias of the current sample's bodies: both inverse dynamics use them.
        let mut inertia = Vec::with_capacity(nb);
        // Each joint's world axes `R_parent·joint_frame` at the current sample (the root's unused): both inverse
        // dynamics turn their torques into them.
        let mut axes = Vec::with_capacity(nb);
        self.kinematics(k0, &mut kin);
        if k0 == 0 {
            v.extend(kin.iter().map(|k| (k.omega, k.com_velocity)));
        } else {
            self.kinematics(k0 - 1, &mut next);
            chord_twists(&next, &kin, h, &mut v);
        }
        for k in k0..k1 {
            out.twists.extend_from_slice(&v);
            inertia.clear();
            inertia.extend(
                kin.iter()
                    .enumerate()
                    .map(|(b, k)| self.topology.inertia_world(b, &k.rotation)),
            );
            newton_euler_with(&self.topology, &kin, &inertia, &self.gravity, &mut wrenches);
            axes.clear();
            axes.extend((0..nb).map(|b| match self.topology.parent[b] {
                usize::MAX => kin[b].rotation,
                p => kin[p].rotation * self.joint_frame[b],
            }));
            for (b, a) in axes.iter().enumerate() {
                out.torque.push(match self.topology.parent[b] {
                    usize::MAX => a.inverse() * wrenches.torque[b],
                    _ => self.dofs[b].free_part(&(a.inverse() * wrenches.torque[b])),
                });
            }
            out.root_force.push(wrenches.force[0]);
            if k + 1 == self.steps {
                for _ in 0..nb {
                    out.feedforward.push(zero);
                    out.target_velocity.push(zero);
                    out.anchor_bias.push(zero);
                }
                break;
            }
            self.kinematics(k + 1, &mut next);
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

/// The per-sample outputs of the inverse dynamics for a run of samples.
struct IdOut<'a> {
    torque: Fill<'a, Vector3<f64>>,
    root_force: Fill<'a, Vector3<f64>>,
    feedforward: Fill<'a, Vector3<f64>>,
    target_velocity: Fill<'a, Vector3<f64>>,
    anchor_bias: Fill<'a, Vector3<f64>>,
    twists: Fill<'a, (Vector3<f64>, Vector3<f64>)>,
}
