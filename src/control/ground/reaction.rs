//! The ground reaction in the inverse dynamics: the root wrench a free-floating character needs is spread over
//! the stance sole points by non-negative least squares on friction-pyramid edges; the joint feedforward then
//! includes those forces, and what the feet cannot carry is the root's residual wrench.

use nalgebra::Vector3;

use super::FootPoint;
use crate::control::discrete::{Twists, joint_step_targets, step_wrenches};
use crate::control::inverse::JointWrenches;
use crate::control::kinematics::BodyPose;
use crate::control::reference::ReferenceMotion;
use crate::math::nnls::Nnls;

/// Pyramid edges per contact point (±x, ±z tangents).
const EDGES: usize = 4;

/// Relative weight `ε` of `‖β‖²` (N²) against the wrench misfit: picks the most even spread among the many exact
/// ones of a double stance without moving the fit (1e-6 of a 700 N weight squared is ≈ 0.5 N²).
const REGULARISATION: f64 = 1e-6;

/// Per step: the feet's forces, the root's residual and the joints' feedforward with the ground reaction.
pub(super) struct StepReaction {
    /// Force on each stance point (N, world); zero off stance.
    pub forces: Vec<Vector3<f64>>,
    /// Residual force the root still needs (N, world, at the root CoM).
    pub residual_force: Vector3<f64>,
    /// Residual torque (N·m, world, about the root CoM).
    pub residual_torque: Vector3<f64>,
}

/// The reaction solver's fixed inputs.
pub(super) struct ReactionSolver<'a> {
    pub reference: &'a ReferenceMotion,
    pub points: &'a [FootPoint],
    pub friction: f64,
    pub torque_weight: f64,
}

impl ReactionSolver<'_> {
    /// The reaction for the step from sample `k` (poses `kin`, twists `v`) to `k + 1` (twists `v1`), with the
    /// points `stance` in stance at `k` (world positions `at`) and the root lift accelerating by
    /// `lift_acceleration` (m/s², up) over the step; writes the joints' feedforward (joint frame, free
    /// axes) into `feedforward[b]`.
    #[allow(clippy::too_many_arguments)]
    pub fn step(
        &self,
        kin: &[BodyPose],
        v: &Twists,
        v1: &Twists,
        stance: &[bool],
        at: &[Vector3<f64>],
        lift_acceleration: f64,
        wrenches: &mut JointWrenches,
        feedforward: &mut [Vector3<f64>],
    ) -> StepReaction {
        let r = self.reference;
        let topo = &r.topology;
        // The root lift moves every body together: its acceleration is felt as a change of gravity.
        let gravity = r.gravity - Vector3::y() * lift_acceleration;
        step_wrenches(topo, kin, v, v1, r.h, &gravity, wrenches);
        let origin = kin[0].origin;
        let (want_f, want_t) = (wrenches.force[0], wrenches.torque[0]);
        let active: Vec<usize> = (0..self.points.len()).filter(|&i| stance[i]).collect();
        let mut forces = vec![Vector3::zeros(); self.points.len()];
        let arms: Vec<Vector3<f64>> = active.iter().map(|&i| at[i] - origin).collect();
        let mut spread = Vec::new();
        spread_wrench(
            &arms,
            &want_f,
            &want_t,
            self.friction,
            self.torque_weight,
            &mut Nnls::default(),
            &mut spread,
        );
        for (c, &i) in active.iter().enumerate() {
            forces[i] = spread[c];
        }
        // Every joint between a loaded sole and the root carries that much less: the ground pushes the subtree.
        for (i, p) in self.points.iter().enumerate() {
            let f = forces[i];
            if f == Vector3::zeros() {
                continue;
            }
            let mut body = p.body;
            loop {
                wrenches.force[body] -= f;
                wrenches.torque[body] -= (at[i] - kin[body].origin).cross(&f);
                if body == 0 {
                    break;
                }
                body = topo.parent[body];
            }
        }
        for (b, ff) in feedforward.iter_mut().enumerate().take(topo.len()).skip(1) {
            *ff = joint_step_targets(
                topo,
                kin,
                v,
                v1,
                wrenches,
                &r.joint_frame[b],
                r.dofs[b],
                r.h,
                b,
            )
            .feedforward;
        }
        let residual_force = wrenches.force[0];
        // About the root origin → about its CoM.
        let residual_torque = wrenches.torque[0] - (kin[0].com - origin).cross(&residual_force);
        StepReaction {
            forces,
            residual_force,
            residual_torque,
        }
    }
}

/// Spreads the wrench (`want_f`, `want_t` about the origin) over contact points at `arms` from that origin, by
/// non-negative least squares over the four edges of each point's friction pyramid (friction `mu`, upward
/// normals): minimises |f − want_f|² + w |τ − want_t|² (`torque_weight` w, 1/m²) plus a tiny |β|² that picks the
/// most even of the exact spreads. Writes one force per point (N, world) into `forces` (empty when no point is
/// given). `nnls` holds the problem and the solver's buffers: kept from step to step (the balanced root's plan),
/// the spread allocates nothing once they have the size of the most points seen. Shared by the inverse dynamics'
/// ground reaction and the balanced root's plan (`control::character::root::balance`).
pub fn spread_wrench(
    arms: &[Vector3<f64>],
    want_f: &Vector3<f64>,
    want_t: &Vector3<f64>,
    mu: f64,
    torque_weight: f64,
    nnls: &mut Nnls,
    forces: &mut Vec<Vector3<f64>>,
) {
    forces.clear();
    if arms.is_empty() {
        return;
    }
    let n = arms.len() * EDGES;
    let rows = 6 + n;
    let sw = torque_weight.sqrt();
    let reg = REGULARISATION.sqrt();
    let (a, b) = nnls.problem(rows, n);
    let tangents = [Vector3::x(), -Vector3::x(), Vector3::z(), -Vector3::z()];
    for (c, arm) in arms.iter().enumerate() {
        for (e, t) in tangents.iter().enumerate() {
            let d = Vector3::y() + t * mu;
            let m = arm.cross(&d);
            let col = c * EDGES + e;
            let column = &mut a[col * rows..(col + 1) * rows];
            for row in 0..3 {
                column[row] = d[row];
                column[3 + row] = sw * m[row];
            }
            column[6 + col] = reg;
        }
    }
    for row in 0..3 {
        b[row] = want_f[row];
        b[3 + row] = sw * want_t[row];
    }
    let beta = nnls.solve_problem();
    forces.extend((0..arms.len()).map(|c| {
        tangents
            .iter()
            .enumerate()
            .map(|(e, t)| (Vector3::y() + t * mu) * beta[c * EDGES + e])
            .sum::<Vector3<f64>>()
    }));
}
