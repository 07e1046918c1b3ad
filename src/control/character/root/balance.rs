//! The balanced root (`RootPolicy::Balanced`, `docs/balance.md`): no external wrench while tracking. Each step
//! the ground wrench the clip needs (the inverse dynamics' ground reaction plus its residual, about the root) and a
//! feedback toward the clip (whole-body centre of mass on the body's mass, root orientation on its inertia) are
//! spread over the sole points touching the floor now (friction pyramids; the centre of pressure stays inside the
//! touching soles because every point's normal force is ≥ 0), and the joints' feedforward is corrected so the
//! stance legs push exactly those forces into the ground (the moments of the planned forces about every joint
//! between a touching sole and the root replace the clip's, through the inverse dynamics' discrete joint map: a
//! virtual-model / Jacobian-transpose realisation). What the soles cannot give is not given: the body then moves
//! away from its clip instead of being held by a force no real body has.

use nalgebra::{Isometry3, UnitQuaternion, Vector3};

use super::RootRuntime;
use super::body_sums::{centre_of_mass, horizontal};
use super::probes::Probe;
use crate::control::ground::{GroundReference, spread_wrench};
use crate::control::kinematics::BodyPose;
use crate::control::reference::ReferenceMotion;
use crate::control::sampling::locate;
use crate::dynamics::Body;
use crate::math::nnls::Nnls;
use crate::skeleton::roles::Side;

/// One leg of the balanced root: its foot (the ancestor among the bodies of the side's sole points), thigh (the
/// foot's grandparent: foot → shin → thigh) and sole points.
#[derive(Debug, Clone, Default)]
struct Leg {
    foot: usize,
    thigh: usize,
    points: Vec<usize>,
    /// Hip-to-ankle distance on the first sample (m).
    length: f64,
}

/// Scratch buffers of the plan (sized once, reused every step).
#[derive(Debug, Default)]
pub(super) struct BalancePlan {
    legs: Vec<Leg>,
    /// Per body: the rotation left-multiplied onto its joint target (torso and foot placement).
    pub adjust: Vec<UnitQuaternion<f64>>,
    /// The capture-point error the last plan stepped against (m, horizontal, world).
    pub capture_error: Vector3<f64>,
    kin: Vec<BodyPose>,
    /// The sample `kin` holds (the time warp and the plan of one step ask for the same one, mostly).
    kin_sample: Option<usize>,
    arms: Vec<Vector3<f64>>,
    touching: Vec<usize>,
    /// The planned forces of the last step (N, world), one per entry of `touching`.
    pub forces: Vec<Vector3<f64>>,
    /// The spread's problem and solver buffers, kept so that a step allocates nothing.
    spread: Nnls,
    /// The wrench the last plan asked of the ground (force N, torque N·m about the root CoM, world).
    pub wanted: (Vector3<f64>, Vector3<f64>),
}

/// The rotation vector taking `from` to `to` (world, radians).
fn rotation_error(to: &UnitQuaternion<f64>, from: &UnitQuaternion<f64>) -> Vector3<f64> {
    (to * from.inverse()).scaled_axis()
}

/// The reference sample nearest clip time `tau`.
fn nearest_sample(reference: &ReferenceMotion, tau: f64) -> usize {
    let (k, s) = locate(reference, tau);
    if s > 0.5 {
        (k + 1).min(reference.steps - 1)
    } else {
        k
    }
}

/// The clip's centre of mass and its velocity at sample `k` (`kin` its poses), placed where the clip is played:
/// moved by `anchor` and raised by `lift`.
fn anchored_com(
    reference: &ReferenceMotion,
    kin: &[BodyPose],
    k: usize,
    anchor: &Isometry3<f64>,
    lift: Vector3<f64>,
) -> (Vector3<f64>, Vector3<f64>) {
    let topo = &reference.topology;
    let nb = reference.bodies();
    let mass: f64 = topo.mass.iter().sum();
    let (mut com, mut vel) = (Vector3::zeros(), Vector3::zeros());
    for (b, (pose, m)) in kin.iter().zip(&topo.mass).enumerate() {
        com += pose.com * *m;
        vel += reference.twists[k * nb + b].1 * *m;
    }
    (
        anchor.transform_point(&(com / mass).into()).coords + lift,
        anchor.rotation * (vel / mass),
    )
}

impl RootRuntime {
    /// Plans the ground forces of the step from world time `t` and writes the joints' feedforward correction into
    /// `online.extra` (marking it ready).
    pub(super) fn plan_balance(
        &mut self,
        reference: &ReferenceMotion,
        ground: &GroundReference,
        bodies: &[Body],
        t: f64,
        h: f64,
    ) {
        let cfg = self.config.balance;
        let (k, (mut com_ref, mut vel_ref)) = self.anchored_clip(reference, ground, t);
        let nb = reference.bodies();
        let np = ground.points.len();
        let plan = &mut self.balance;
        let kin = &plan.kin;
        // The clip's ground wrench about its root CoM: the reaction on its stance soles plus the residual.
        let root_com = kin[0].com;
        let mut force = ground.residual_force[k];
        let mut torque = ground.residual_torque[k];
        for (i, p) in ground.points.iter().enumerate() {
            let f = ground.reaction[k * np + i];
            force += f;
            torque += (p.world(kin) - root_com).cross(&f);
        }
        // The clip's centre of mass, its velocity and the root's pose and spin, anchored where it is played.
        let mass: f64 = reference.topology.mass.iter().sum();
        let rot = self.anchor.rotation;
        let q_ref = rot * kin[0].rotation;
        let w_ref = rot * reference.twists[k * nb].0;
        let (com, vel) = centre_of_mass(bodies);
        if cfg.reanchor_hz > 0.0 {
            // Re-anchoring: the clip slides horizontally toward the body (a first-order filter), its velocity
            // carrying the filter's rate, so the lag the body has taken is not fought.
            let wr = std::f64::consts::TAU * cfg.reanchor_hz;
            let gap = horizontal(com - com_ref);
            let shift = gap * (1.0 - (-wr * h).exp());
            self.anchor.translation.vector += shift;
            com_ref += shift;
            vel_ref += gap * wr;
        }
        let m = mass;
        let root = &bodies[0];
        let (wn, wa, zeta) = (
            std::f64::consts::TAU * cfg.frequency_hz,
            std::f64::consts::TAU * cfg.angular_frequency_hz,
            cfg.damping_ratio,
        );
        let mut feedback_force =
            m * (wn * wn * (com_ref - com) + 2.0 * zeta * wn * (vel_ref - vel));
        feedback_force.x *= cfg.horizontal_feedback;
        feedback_force.z *= cfg.horizontal_feedback;
        let spin = root.velocity.fixed_rows::<3>(0).into_owned();
        let feedback_torque = self.inertia
            * (wa * wa * rotation_error(&q_ref, &root.orientation)
                + 2.0 * zeta * wa * (w_ref - spin));
        let want_f = rot * force + feedback_force;
        let want_t = rot * torque + feedback_torque;
        plan.wanted = (want_f, want_t);
        // The soles touching the floor now carry it.
        plan.touching.clear();
        plan.arms.clear();
        for (i, probe) in self.probes.iter().enumerate().take(np) {
            let at = probe.centre(bodies);
            if at.y - ground.ground_under(k, i) < cfg.touch_height_m {
                plan.touching.push(i);
                plan.arms.push(at - root.position);
            }
        }
        spread_wrench(
            &plan.arms,
            &want_f,
            &want_t,
            self.config.ground.friction,
            cfg.torque_weight,
            &mut plan.spread,
            &mut plan.forces,
        );
        self.plan_legs(
            reference,
            ground,
            bodies,
            (k, t, h),
            (com, vel),
            (com_ref, vel_ref),
        );
        let plan = &mut self.balance;
        let probes: &[Probe] = &self.probes;
        let planned = plan.touching.iter().zip(&plan.forces).map(|(&i, f)| {
            let p = &probes[i];
            (p.body, p.centre(bodies), *f)
        });
        self.online
            .update_with(reference, ground, k, bodies, planned, h, 1.0);
        self.online.ready = true;
    }

    /// Time warping (`BalanceConfig::warp_time_s`): advances the clip by this step's rate, played slower while the
    /// body lags behind its clip along the walking direction and faster while it leads, so the joints' targets
    /// (the swing leg's reach, the stance leg's sweep) follow the body's progress instead of dragging it.
    pub(super) fn warp_clip(
        &mut self,
        reference: &ReferenceMotion,
        ground: &GroundReference,
        bodies: &[Body],
        t: f64,
        h: f64,
    ) {
        let cfg = self.config.balance;
        if cfg.warp_time_s <= 0.0 {
            return;
        }
        let (_, (com_ref, vel_ref)) = self.anchored_clip(reference, ground, t);
        let vel_ref = horizontal(vel_ref);
        let speed = vel_ref.norm();
        if speed < 0.2 {
            return;
        }
        let (com, _) = centre_of_mass(bodies);
        let gap = horizontal(com - com_ref).dot(&vel_ref) / speed;
        let rate = (1.0 + gap / (speed * cfg.warp_time_s)).clamp(0.5, 1.5);
        self.clip_offset += h * (1.0 - rate);
    }

    /// The clip at world time `t`, where it is played: its nearest sample `k` (whose poses
    /// `balance.kin` then holds) and its anchored, lifted centre of mass and velocity. The time warp and the plan
    /// of one step share it.
    fn anchored_clip(
        &mut self,
        reference: &ReferenceMotion,
        ground: &GroundReference,
        t: f64,
    ) -> (usize, (Vector3<f64>, Vector3<f64>)) {
        let tau = self.clip_time(t);
        let k = nearest_sample(reference, tau);
        self.balance.poses_at(reference, k);
        let lift = ground.lift_at(reference, tau);
        let com = anchored_com(reference, &self.balance.kin, k, &self.anchor, lift);
        (k, com)
    }
}

impl BalancePlan {
    /// Fills `kin` with the reference poses of sample `k`, unless it holds them already (a pure function of the
    /// sample: the reference never changes under a character).
    fn poses_at(&mut self, reference: &ReferenceMotion, k: usize) {
        if self.kin_sample != Some(k) || self.kin.len() != reference.bodies() {
            reference.poses(k, &mut self.kin);
            self.kin_sample = Some(k);
        }
    }

    /// Finds the legs of `ground`'s sole points (once).
    fn find_legs(&mut self, reference: &ReferenceMotion, ground: &GroundReference) {
        let parent = &reference.topology.parent;
        let mut kin = Vec::new();
        reference.poses(0, &mut kin);
        for side in [Side::Left, Side::Right] {
            let points: Vec<usize> = (0..ground.points.len())
                .filter(|&i| ground.points[i].side == side)
                .collect();
            let Some(foot) = points.iter().map(|&i| ground.points[i].body).min() else {
                continue;
            };
            let shin = parent[foot];
            let thigh = parent[shin];
            if foot == 0 || shin == 0 || thigh == 0 {
                continue;
            }
            let length = (kin[thigh].origin - kin[foot].origin).norm();
            self.legs.push(Leg {
                foot,
                thigh,
                points,
                length,
            });
        }
    }
}

impl RootRuntime {
    /// The joint-target adjustments of the step from `t` (sample `k`, whose poses `balance.kin` holds; `h`
    /// long): each stance hip turns toward holding the pelvis on its clip orientation (torso), and a swinging
    /// leg's hip turns so its foot lands where the capture point error asks (foot placement). `(com, vel)` are
    /// the simulated centre of mass and velocity, `(com_ref, vel_ref)` the clip's, anchored.
    #[allow(clippy::too_many_arguments)]
    fn plan_legs(
        &mut self,
        reference: &ReferenceMotion,
        ground: &GroundReference,
        bodies: &[Body],
        (k, t, h): (usize, f64, f64),
        (com, vel): (Vector3<f64>, Vector3<f64>),
        (com_ref, vel_ref): (Vector3<f64>, Vector3<f64>),
    ) {
        let cfg = self.config.balance;
        let nb = reference.bodies();
        let np = ground.points.len();
        if self.balance.legs.is_empty() {
            self.balance.find_legs(reference, ground);
        }
        let tau1 = self.clip_time(t + h);
        let lift = ground.lift_at(reference, self.clip_time(t));
        let plan = &mut self.balance;
        plan.adjust.clear();
        plan.adjust.resize(nb, UnitQuaternion::identity());
        let (k1, s1) = locate(reference, tau1);
        let topo = &reference.topology;
        let parent = &topo.parent;
        let rot = self.anchor.rotation;
        // A leg is in the clip's stance when one of its sole points is (at most two legs: one per side).
        let mut stance = [false; 2];
        for (down, leg) in stance.iter_mut().zip(&plan.legs) {
            *down = leg.points.iter().any(|&i| ground.stance[k * np + i]);
        }
        // The clip's pelvis orientation at the step's end, anchored.
        let q_root_ref = rot * reference.rotation_between(k1, s1, 0);
        // Torso: a stance hip's target that holds the pelvis on its clip orientation over the thigh as it is.
        for (leg, &down) in plan.legs.iter().zip(&stance) {
            if !down || cfg.torso_gain == 0.0 {
                continue;
            }
            // The clip's rotations between the pelvis and the thigh's parent (a hip-joint bone, if any).
            let mut between = UnitQuaternion::identity();
            let mut b = parent[leg.thigh];
            while b != 0 {
                between = reference.rotation_between(k1, s1, b) * between;
                b = parent[b];
            }
            let clip = reference.rotation_between(k1, s1, leg.thigh);
            let wanted = (q_root_ref * between).inverse() * bodies[leg.thigh].orientation;
            let turn = wanted * clip.inverse();
            plan.adjust[leg.thigh] = UnitQuaternion::identity().slerp(&turn, cfg.torso_gain);
        }
        // Foot placement: only with exactly one leg in the clip's stance, the other swinging.
        plan.capture_error = Vector3::zeros();
        if !cfg.stepping || cfg.step_gain == 0.0 || plan.legs.len() != 2 {
            return;
        }
        let (standing, swinging) = match (stance[0], stance[1]) {
            (true, false) => (0, 1),
            (false, true) => (1, 0),
            _ => return,
        };
        let foot = plan.legs[standing].foot;
        let foot_sim = bodies[foot].position - bodies[foot].orientation * topo.com[foot];
        let foot_ref = self
            .anchor
            .transform_point(&plan.kin[foot].origin.into())
            .coords
            + lift;
        let error = horizontal(com - foot_sim) - horizontal(com_ref - foot_ref)
            + horizontal(vel - vel_ref) * cfg.capture_time_s;
        plan.capture_error = error;
        let shift = error * cfg.step_gain;
        let leg = &plan.legs[swinging];
        let angle = shift.norm() / leg.length.max(0.1);
        if angle < 1e-9 {
            return;
        }
        // Turning the thigh by `angle` about shift × up moves a hanging foot by `shift`; at most 0.6 rad (34°),
        // beyond which the small-angle reading of the leg as a pendulum no longer holds.
        let axis = nalgebra::Unit::new_normalize(shift.cross(&Vector3::y()));
        let turn_world = UnitQuaternion::from_axis_angle(&axis, angle.min(0.6));
        let p = bodies[parent[leg.thigh]].orientation;
        plan.adjust[leg.thigh] = p.inverse() * turn_world * p;
    }
}
