//! The ground reaction the contacts actually carried, in the joints' feedforward. The inverse dynamics spread the
//! body's support over the stance points by NNLS; the contact LCP shares it its own way (the support of a foot on
//! several points is statically indeterminate), and the feedback would have to absorb the difference. So each step
//! the feedforward is corrected by the joint torques of (the NNLS forces − the forces the previous step's
//! contacts carried), both through the same discrete joint map as the inverse dynamics (`discrete.rs`), times a
//! gain: the full correction (gain 1) closes a loop through the contacts that lets the feet slide (27 mm on the
//! walk), 0.6 keeps most of the tracking gain without it (`docs/root.md`, "Online ground reaction").

use nalgebra::{UnitQuaternion, Vector3};

use crate::control::discrete::solve_skew;
use crate::control::ground::GroundReference;
use crate::control::kinematics::BodyPose;
use crate::control::reference::ReferenceMotion;
use crate::dynamics::{Body, ContactImpulse, ContactPoint};

/// Scratch buffers of the correction (sized once).
#[derive(Debug, Default)]
pub(super) struct OnlineReaction {
    kin: Vec<BodyPose>,
    /// Per joint: the moment of the NNLS forces about its anchor (world).
    nnls: Vec<Vector3<f64>>,
    /// Per joint: the moment of the measured forces about its anchor (world).
    measured: Vec<Vector3<f64>>,
    /// Per body: the feedforward correction (joint frame, free axes).
    pub extra: Vec<Vector3<f64>>,
    /// Whether `extra` holds the correction for the coming step (the last step had ground contacts).
    pub ready: bool,
}

/// Adds the moment of force `f` at `point` on `body` about every joint anchor from `body` up to the root's child.
fn add_moment(
    out: &mut [Vector3<f64>],
    parent: &[usize],
    anchor: impl Fn(usize) -> Vector3<f64>,
    body: usize,
    point: &Vector3<f64>,
    f: &Vector3<f64>,
) {
    let mut b = body;
    while b != 0 {
        out[b] += (point - anchor(b)).cross(f);
        b = parent[b];
    }
}

impl OnlineReaction {
    /// Computes [`OnlineReaction::extra`] for the step from sample `k` (`h` long): the ground contacts of the last
    /// step are `contacts` with `impulses` (their order), on the simulated `bodies`; `gain` in (0, 1] scales the
    /// correction.
    #[allow(clippy::too_many_arguments)]
    pub fn update(
        &mut self,
        reference: &ReferenceMotion,
        ground: &GroundReference,
        k: usize,
        bodies: &[Body],
        contacts: &[ContactPoint],
        impulses: &[ContactImpulse],
        h: f64,
        gain: f64,
    ) {
        let carried = contacts
            .iter()
            .zip(impulses)
            .map(|(c, j)| (c.body, c.point, j.impulse / h));
        self.update_with(reference, ground, k, bodies, carried, h, gain);
    }

    /// [`OnlineReaction::update`] with the ground's forces given as (body, point, force) on the simulated
    /// `bodies`: the forces the contacts carried, or the forces a balance plan wants them to carry
    /// (`balance.rs`).
    #[allow(clippy::too_many_arguments)]
    pub fn update_with(
        &mut self,
        reference: &ReferenceMotion,
        ground: &GroundReference,
        k: usize,
        bodies: &[Body],
        forces: impl Iterator<Item = (usize, Vector3<f64>, Vector3<f64>)>,
        h: f64,
        gain: f64,
    ) {
        let nb = reference.bodies();
        let topo = &reference.topology;
        self.nnls.clear();
        self.nnls.resize(nb, Vector3::zeros());
        self.measured.clear();
        self.measured.resize(nb, Vector3::zeros());
        self.extra.clear();
        self.extra.resize(nb, Vector3::zeros());
        reference.poses(k, &mut self.kin);
        let np = ground.points.len();
        for (i, p) in ground.points.iter().enumerate() {
            let f = ground.reaction[k * np + i];
            if f != Vector3::zeros() {
                let at = p.world(&self.kin);
                let kin = &self.kin;
                add_moment(
                    &mut self.nnls,
                    &topo.parent,
                    |b| kin[b].origin,
                    p.body,
                    &at,
                    &f,
                );
            }
        }
        let sim_anchor = |b: usize| bodies[b].position - bodies[b].orientation * topo.com[b];
        for (body, point, f) in forces {
            add_moment(
                &mut self.measured,
                &topo.parent,
                sim_anchor,
                body,
                &point,
                &f,
            );
        }
        let k1 = (k + 1).min(reference.steps - 1);
        for b in 1..nb {
            let p = topo.parent[b];
            let w1 = reference.twists[k1 * nb + p].0 * h;
            let map = |axes: UnitQuaternion<f64>, m: &Vector3<f64>| {
                reference.dofs[b].free_part(&(axes.inverse() * solve_skew(&w1, m)))
            };
            let ref_axes = self.kin[p].rotation * reference.joint_frame[b];
            let sim_axes = bodies[p].orientation * reference.joint_frame[b];
            self.extra[b] =
                (map(ref_axes, &self.nnls[b]) - map(sim_axes, &self.measured[b])) * gain;
        }
    }
}
