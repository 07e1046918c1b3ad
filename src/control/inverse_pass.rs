//! The inverse-dynamics pass over a reference: the continuous recursive Newton–Euler at every sample and the
//! discrete-step feedforward ([`super::discrete`]), samples split over the cores (each needs only its neighbours'
//! poses).

use nalgebra::Vector3;

use super::discrete::{Twists, chord_twists, joint_step_targets, step_wrenches_with};
use super::inverse::{JointWrenches, newton_euler_with};
use super::parallel::{filled, pieces, ranges, run, thread_count};
use super::reference::ReferenceMotion;

impl ReferenceMotion {
    /// Runs the inverse dynamics at every sample: the continuous one (recursive Newton–Euler at `(q, u, u̇)`, into
    /// [`ReferenceMotion::torque`]) and the discrete-step one (into [`ReferenceMotion::feedforward`],
    /// [`ReferenceMotion::target_velocity`] and [`ReferenceMotion::anchor_bias`]). `threads`: at most this many
    /// (`None`: one per core, up to 8).
    pub fn compute_inverse_dynamics(&mut self, threads: Option<usize>) {
        let (n, nb) = (self.steps, self.bodies());
        let zero = Vector3::zeros();
        // Fresh tables, first touched in parallel; rows the pass leaves (the root's step targets) stay zero.
        let mut torque = filled(n * nb, zero);
        let mut root_force = filled(n, zero);
        let mut feedforward = filled(n * nb, zero);
        let mut target_velocity = filled(n * nb, zero);
        let mut anchor_bias = filled(n * nb, zero);
        let mut twists = filled(n * nb, (zero, zero));
        // Samples are independent given their neighbours' poses: split them over the cores.
        let threads = thread_count(n, threads);
        let mut rest = IdOut {
            torque: &mut torque,
            root_force: &mut root_force,
            feedforward: &mut feedforward,
            target_velocity: &mut target_velocity,
            anchor_bias: &mut anchor_bias,
            twists: &mut twists,
        };
        let mut jobs = Vec::new();
        for r in ranges(n, pieces(threads)) {
            let (head, tail) = rest.split_at(r.len(), nb);
            rest = tail;
            jobs.push((r, head));
        }
        run(threads, jobs, |(r, out)| {
            self.inverse_dynamics_range(r.start, r.end, out)
        });
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

    /// Both inverse dynamics for samples `k0..k1`, into `out` (whose slices start at sample `k0`).
    fn inverse_dynamics_range(&self, k0: usize, k1: usize, out: IdOut<'_>) {
        let nb = self.bodies();
        let h = self.h;
        let (mut kin, mut next) = (Vec::with_capacity(nb), Vec::with_capacity(nb));
        let mut wrenches = JointWrenches::default();
        let mut step = JointWrenches::default();
        let mut v: Twists = Vec::with_capacity(nb);
        let mut v1: Twists = Vec::with_capacity(nb);
        // World inertias of the current sample's bodies: both inverse dynamics use them.
        let mut inertia = Vec::with_capacity(nb);
        self.kinematics(k0, &mut kin);
        if k0 == 0 {
            v.extend(kin.iter().map(|k| (k.omega, k.com_velocity)));
        } else {
            self.kinematics(k0 - 1, &mut next);
            chord_twists(&next, &kin, h, &mut v);
        }
        for k in k0..k1 {
            let row = (k - k0) * nb;
            out.twists[row..row + nb].copy_from_slice(&v);
            inertia.clear();
            inertia.extend(
                kin.iter()
                    .enumerate()
                    .map(|(b, k)| self.topology.inertia_world(b, &k.rotation)),
            );
            newton_euler_with(&self.topology, &kin, &inertia, &self.gravity, &mut wrenches);
            for b in 0..nb {
                out.torque[row + b] = match self.topology.parent[b] {
                    usize::MAX => kin[b].rotation.inverse() * wrenches.torque[b],
                    p => self.dofs[b].free_part(
                        &((kin[p].rotation * self.joint_frame[b]).inverse() * wrenches.torque[b]),
                    ),
                };
            }
            out.root_force[k - k0] = wrenches.force[0];
            if k + 1 == self.steps {
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
            for b in 1..nb {
                let t = joint_step_targets(
                    &self.topology,
                    &kin,
                    &v,
                    &v1,
                    &step,
                    &self.joint_frame[b],
                    self.dofs[b],
                    h,
                    b,
                );
                out.feedforward[row + b] = t.feedforward;
                out.target_velocity[row + b] = t.target_velocity;
                out.anchor_bias[row + b] = t.anchor_bias;
            }
            std::mem::swap(&mut kin, &mut next);
            std::mem::swap(&mut v, &mut v1);
        }
    }
}

/// The per-sample outputs of the inverse dynamics for a run of samples.
struct IdOut<'a> {
    torque: &'a mut [Vector3<f64>],
    root_force: &'a mut [Vector3<f64>],
    feedforward: &'a mut [Vector3<f64>],
    target_velocity: &'a mut [Vector3<f64>],
    anchor_bias: &'a mut [Vector3<f64>],
    twists: &'a mut [(Vector3<f64>, Vector3<f64>)],
}

impl<'a> IdOut<'a> {
    /// The first `samples` samples and the rest.
    fn split_at(self, samples: usize, nb: usize) -> (IdOut<'a>, IdOut<'a>) {
        let m = samples * nb;
        let (t0, t1) = self.torque.split_at_mut(m);
        let (r0, r1) = self.root_force.split_at_mut(samples);
        let (f0, f1) = self.feedforward.split_at_mut(m);
        let (v0, v1) = self.target_velocity.split_at_mut(m);
        let (a0, a1) = self.anchor_bias.split_at_mut(m);
        let (w0, w1) = self.twists.split_at_mut(m);
        (
            IdOut {
                torque: t0,
                root_force: r0,
                feedforward: f0,
                target_velocity: v0,
                anchor_bias: a0,
                twists: w0,
            },
            IdOut {
                torque: t1,
                root_force: r1,
                feedforward: f1,
                target_velocity: v1,
                anchor_bias: a1,
                twists: w1,
            },
        )
    }
}
