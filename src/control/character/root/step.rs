//! One step of a free-root character: the balance state's shaping of the drives, the root assist's targets and
//! gains, the ground contacts merged with the caller's, the step, and the state machine's update.

use std::sync::Arc;

use nalgebra::{Isometry3, Matrix3, Translation3, UnitQuaternion, Vector3};

use super::machine::{Machine, Observation};
use super::online::OnlineReaction;
use super::probes::{
    ProbeOutputs, ground_contacts, level_contacts, level_penetration, outside_support, penetration,
    probes,
};
use super::{RootPolicy, RootRuntime, RootState};
use crate::control::character::forces::Lasting;
use crate::control::character::{Character, CharacterError, Shaping};
use crate::control::ground::GroundReference;
use crate::control::reference::ReferenceMotion;
use crate::control::sampling::{lerp_sample, locate, root_pose};
use crate::dynamics::{ContactOther, DriveId, SpringId, StepReport};
use crate::level::Level;

impl RootRuntime {
    /// The free root of `c` (whose world was built free, with the assist's `drive` and `spring`).
    pub(in crate::control::character) fn new(
        c: &Character,
        policy: RootPolicy,
        ground: Arc<GroundReference>,
        (drive, spring): (DriveId, SpringId),
    ) -> RootRuntime {
        let reference = &c.prepared.reference;
        let config = c.prepared.root;
        // Whole-body mass and rotational inertia about the centre of mass, on the first sample.
        let mut kin = Vec::new();
        reference.poses(0, &mut kin);
        let topo = &reference.topology;
        let mass: f64 = topo.mass.iter().sum();
        let com = kin
            .iter()
            .zip(&topo.mass)
            .map(|(k, m)| k.com * *m)
            .sum::<Vector3<f64>>()
            / mass;
        let mut inertia = Matrix3::zeros();
        for (b, k) in kin.iter().enumerate() {
            let r = k.rotation.to_rotation_matrix();
            let d = k.com - com;
            inertia += r * topo.inertia[b] * r.transpose()
                + topo.mass[b] * (Matrix3::identity() * d.norm_squared() - d * d.transpose());
        }
        let inertia = inertia.trace() / 3.0;
        let omega = std::f64::consts::TAU * config.assist_frequency_hz;
        let zeta = config.assist_damping_ratio;
        let gains = [
            mass * omega * omega,
            2.0 * zeta * mass * omega,
            inertia * omega * omega,
            2.0 * zeta * inertia * omega,
        ];
        let probes = probes(&c.prepared.model, topo, &ground);
        let protect = super::protect::ProtectRig::new(
            &c.prepared.model,
            &c.prepared.skeleton,
            topo,
            ground.points.iter().map(|p| p.body).collect(),
        )
        .map(Box::new);
        let nb = reference.bodies();
        RootRuntime {
            policy,
            config,
            ground,
            drive,
            spring,
            gains,
            inertia,
            balance: Default::default(),
            machine: Machine::new(nb, 1.0),
            protect,
            clip_offset: 0.0,
            anchor: Isometry3::identity(),
            user_contacts: Vec::with_capacity(16),
            user_free: Vec::with_capacity(16),
            contacts: Vec::with_capacity(probes.len() + 16),
            online: OnlineReaction::default(),
            probe_memories: vec![Default::default(); probes.len()],
            probe_starts: Vec::with_capacity(probes.len()),
            probes,
            penetration: 0.0,
            kinematic: Vec::new(),
        }
    }

    /// The clip time played at world time `t`.
    pub(super) fn clip_time(&self, t: f64) -> f64 {
        if self.machine.state == RootState::GettingUp {
            self.config.getup.clip_time_s
        } else {
            t - self.clip_offset
        }
    }

    /// The anchored clip root pose (root body CoM) at world time `t`.
    pub(super) fn target_pose(
        &self,
        reference: &ReferenceMotion,
        t: f64,
    ) -> (Vector3<f64>, UnitQuaternion<f64>) {
        let tau = self.clip_time(t);
        let (x, q) = root_pose(reference, tau);
        // The clip's root moved so its standing sole rests on the floor (`GroundReference::lift`).
        let lift = self.ground.lift_at(reference, tau);
        (
            self.anchor.transform_point(&x.into()).coords + lift,
            self.anchor.rotation * q,
        )
    }

    /// The assist's weight now: the configured weight (0 for a `Free` root) times the state's level.
    fn assist_weight(&self) -> f64 {
        match self.policy {
            RootPolicy::Assisted => self.config.assist_weight * self.machine.level,
            // Balanced: nothing external while on its feet; the get-up is still lifted by the assist.
            RootPolicy::Balanced if self.machine.state == RootState::GettingUp => {
                self.config.assist_weight * self.machine.level
            }
            _ => 0.0,
        }
    }

    /// Advances the assist level and returns the drives' shaping for a step from `t`.
    fn shaping(&mut self, t: f64, h: f64) -> (f64, f64, f64, bool, f64) {
        let c = &self.config;
        let m = &mut self.machine;
        let rate = |time: f64| if time > 0.0 { h / time } else { 1.0 };
        let since = t - m.since;
        // (stiffness, feedforward, follow, held pose, blend toward the clip)
        match m.state {
            RootState::Tracking => {
                m.level = (m.level + rate(c.fade_time_s)).min(1.0);
                (1.0, 1.0, 1.0, false, 1.0)
            }
            RootState::Staggering => {
                m.level = (m.level - rate(c.fade_time_s)).max(0.0);
                (1.0, 1.0, 1.0, false, 1.0)
            }
            RootState::Falling => {
                m.level = 0.0;
                let u = if c.limp_time_s > 0.0 {
                    (since / c.limp_time_s).min(1.0)
                } else {
                    1.0
                };
                let k = 1.0 + (c.limp_fraction - 1.0) * u;
                (k, 1.0 - u, 0.0, true, 0.0)
            }
            RootState::Ragdoll | RootState::Resting => {
                m.level = 0.0;
                (c.limp_fraction, 0.0, 0.0, true, 0.0)
            }
            RootState::GettingUp => {
                let a = m.getup_alpha(t, c.getup.blend_s);
                m.level = a;
                (
                    c.limp_fraction + (1.0 - c.limp_fraction) * a,
                    a,
                    0.0,
                    true,
                    a,
                )
            }
        }
    }
}

impl Character {
    /// Stores the caller's contacts of the next step, to be merged with the ground's (a free root).
    pub(in crate::control::character) fn set_free_root_contacts(
        &mut self,
        contacts: &[crate::dynamics::ContactPoint],
        free: &[crate::dynamics::Body],
    ) -> Result<(), CharacterError> {
        // Checked now, so a bad set is refused where it is given.
        self.world.set_contacts(contacts, free)?;
        if let Some(r) = &mut self.root {
            r.user_contacts.clear();
            r.user_contacts.extend_from_slice(contacts);
            r.user_free.clear();
            r.user_free.extend_from_slice(free);
        }
        Ok(())
    }

    /// One step of a free root (see the module documentation).
    pub(in crate::control::character) fn step_free(
        &mut self,
        h: f64,
        level: Option<&Level>,
    ) -> Result<StepReport, CharacterError> {
        let Some(mut rt) = self.root.take() else {
            return Err(CharacterError::Argument(
                "a free-root step on a kinematic root".into(),
            ));
        };
        let result = self.step_free_with(&mut rt, h, level);
        self.root = Some(rt);
        result
    }

    fn step_free_with(
        &mut self,
        rt: &mut RootRuntime,
        h: f64,
        level: Option<&Level>,
    ) -> Result<StepReport, CharacterError> {
        let prepared = Arc::clone(&self.prepared);
        let reference = &*prepared.reference;
        let ground = Arc::clone(&rt.ground);
        let t = self.world.time();
        let t1 = t + h;
        let (stiffness, feedforward, follow, held, blend) = rt.shaping(t, h);
        if matches!(rt.machine.state, RootState::Ragdoll | RootState::Resting) {
            // Limp: the joints resist motion (stiffness about the pose they are in) instead of pulling the body,
            // lying on the floor, back toward the pose it fell in.
            hold_pose(
                &mut rt.machine,
                self.world.bodies(),
                &reference.topology.parent,
            );
        }
        let balancing = rt.policy == RootPolicy::Balanced
            && matches!(
                rt.machine.state,
                RootState::Tracking | RootState::Staggering
            );
        if balancing {
            rt.warp_clip(reference, &ground, self.world.bodies(), t, h);
        }
        let (tau0, tau1) = (rt.clip_time(t), rt.clip_time(t1));
        if balancing {
            rt.plan_balance(reference, &ground, self.world.bodies(), t, h);
        }
        let online = rt.online.ready && feedforward > 0.0;
        let shaping = Shaping {
            stiffness,
            feedforward,
            follow,
            held: held.then_some((&rt.machine.held[..], blend)),
            extra: online.then_some(&rt.online.extra[..]),
            adjust: balancing.then_some(&rt.balance.adjust[..]),
        };
        self.set_shaped_drive_targets(tau0, tau1, &ground.feedforward, &shaping);
        // A protective fall reshapes the arms and the neck (`protect.rs`).
        self.protect_drives(rt, t);

        // The root assist: the residual wrench and a spring–damper toward the anchored clip root pose.
        let w = rt.assist_weight();
        let (mut x1, mut q1) = rt.target_pose(reference, t1);
        let (k1, s1) = locate(reference, tau1);
        let twist = lerp_sample(reference, k1, s1, |k| {
            reference.twists[k * reference.bodies()].0
        });
        let vel = lerp_sample(reference, k1, s1, |k| {
            reference.twists[k * reference.bodies()].1
        });
        let (mut omega1, mut v1) = (rt.anchor.rotation * twist, rt.anchor.rotation * vel);
        if rt.machine.state == RootState::GettingUp {
            let (x0, q0) = rt.machine.held_root;
            x1 = x0.lerp(&x1, blend);
            q1 = q0.slerp(&q1, blend);
            omega1 = Vector3::zeros();
            v1 = Vector3::zeros();
        }
        let (k0, s0) = locate(reference, tau0);
        let residual_force = lerp_sample(reference, k0, s0, |k| ground.residual_force[k]);
        let residual_torque = lerp_sample(reference, k0, s0, |k| ground.residual_torque[k]);
        let spring = self.world.spring_mut(rt.spring);
        spring.stiffness = w * rt.gains[0];
        spring.damping = w * rt.gains[1];
        spring.target = x1;
        spring.target_velocity = v1;
        let (force, torque) = (
            rt.anchor.rotation * residual_force,
            rt.anchor.rotation * residual_torque,
        );
        spring.force = force * w * feedforward;
        spring.torque = torque * w * feedforward;
        let drive = self.world.drive_mut(rt.drive);
        drive.stiffness = Vector3::repeat(w * rt.gains[2]);
        drive.damping = Vector3::repeat(w * rt.gains[3]);
        drive.target_rotation = q1;
        drive.target_velocity = omega1;

        // Contacts: the caller's first (their impulses keep their indices), then the ground's.
        rt.contacts.clear();
        rt.contacts.extend_from_slice(&rt.user_contacts);
        let users = rt.contacts.len();
        // The ground: the level's colliders when it holds a static one, else the flat floor fitted to the clip
        // (with a level's kinematic colliders, if any, touching the probes too).
        rt.kinematic.clear();
        let level_is_ground = level.is_some_and(Level::has_static);
        let mut body_on_ground = false;
        if !level_is_ground {
            body_on_ground = ground_contacts(
                &rt.probes,
                self.world.bodies(),
                ground.floor,
                rt.config.ground.friction,
                &mut rt.contacts,
            );
        }
        if let Some(level) = level {
            body_on_ground |= level_contacts(
                &rt.probes,
                self.world.bodies(),
                level,
                (self.level_layers, !level_is_ground),
                rt.config.ground.friction,
                h,
                ProbeOutputs {
                    contacts: &mut rt.contacts,
                    kinematic: &mut rt.kinematic,
                    starts: &mut rt.probe_starts,
                    memories: &mut rt.probe_memories,
                },
            );
        }
        if !rt.contacts.is_empty() {
            self.world.set_contacts(&rt.contacts, &rt.user_free)?;
        }
        rt.user_contacts.clear();
        rt.user_free.clear();

        let mut hit = 0.0;
        for a in &self.forces {
            hit += match a.lasting {
                Lasting::Impulse(j) => j.norm(),
                Lasting::Steps(_) => self.world.user_force(a.id).force.norm() * h,
            };
        }
        self.arm_impulses(h);
        let result = self.world.step(h);
        self.expire_forces();
        if result.is_ok() {
            // Hits: projectiles and other characters among the caller's contacts, and kinematic colliders
            // (a swung bat) wherever they touched.
            for (k, (c, i)) in rt
                .contacts
                .iter()
                .zip(self.world.contact_impulses())
                .enumerate()
            {
                let struck = match c.other {
                    ContactOther::Free(_) => k < users,
                    ContactOther::Moving { .. } => true,
                    _ => false,
                };
                if struck {
                    hit += i.impulse.norm();
                }
            }
        }
        let report = self.guard_step(result, t1)?;
        if self.last_fault.is_some() {
            // Back on the clip at t1: the machine starts over (its history kept, the jump back to Tracking
            // recorded), the clip unanchored.
            if rt.machine.state != RootState::Tracking {
                rt.machine.enter(RootState::Tracking, t1);
            }
            rt.machine.level = 1.0;
            rt.online.ready = false;
            rt.anchor = Isometry3::identity();
            rt.clip_offset = 0.0;
            rt.penetration = 0.0;
            self.lift_onto_floor(&ground, t1);
            return Ok(report);
        }
        rt.penetration = match level.filter(|l| l.has_static()) {
            Some(level) => level_penetration(
                &rt.probes,
                self.world.bodies(),
                level,
                self.level_layers,
                &rt.probe_starts,
                &mut rt.probe_memories,
            ),
            None => penetration(&rt.probes, self.world.bodies(), ground.floor),
        };
        let body_on_ground = self.protect_impact(rt, body_on_ground, t1);
        let observation = self.observe(rt, reference, t1, hit, body_on_ground);
        let before = rt.machine.state;
        self.advance_machine(rt, reference, &observation);
        self.protect_events(rt, before, t1);
        // The next step's feedforward correction, from this step's ground contacts (computed now, so a saved
        // state carries it: `CharacterState`).
        let impulses = self.world.contact_impulses();
        rt.online.ready = rt.policy != RootPolicy::Balanced
            && rt.config.online_reaction > 0.0
            && impulses.len() == rt.contacts.len()
            && impulses.len() > users;
        if rt.online.ready {
            let (k, s) = locate(reference, rt.clip_time(t1));
            let k = if s > 0.5 {
                (k + 1).min(reference.steps - 1)
            } else {
                k
            };
            rt.online.update(
                reference,
                &ground,
                k,
                self.world.bodies(),
                &rt.contacts[users..],
                &impulses[users..],
                h,
                rt.config.online_reaction,
            );
        }
        Ok(report)
    }

    /// Moves every body up by the root lift at clip time `t` (`GroundReference::lift`), so a character put on
    /// its clip (built free, or reset by the guard) stands on the floor as the assist's target does: unlifted, the
    /// walk started with its stance toes 50 mm in the floor, and its first 30 steps held a quarter of its tracking
    /// error. (A runtime switch from `Kinematic` keeps the body where it is; the assist then lifts it.)
    pub(in crate::control::character) fn lift_onto_floor(
        &mut self,
        ground: &GroundReference,
        t: f64,
    ) {
        let lift = ground.lift_at(&self.prepared.reference, t);
        for b in 0..self.world.bodies().len() {
            self.world.body_mut(b).position += lift;
        }
    }

    /// What the state machine needs from the state after a step.
    fn observe(
        &self,
        rt: &RootRuntime,
        reference: &ReferenceMotion,
        t1: f64,
        hit: f64,
        body_on_ground: bool,
    ) -> Observation {
        let bodies = self.world.bodies();
        let (x, q) = rt.target_pose(reference, t1);
        let root = &bodies[0];
        let tilt = root.orientation.angle_to(&q).to_degrees();
        let mut unbalanced = (root.position - x).norm() > rt.config.fall_distance_m
            || tilt > rt.config.fall_angle_deg;
        let mass: f64 = bodies.iter().map(|b| b.mass).sum();
        let com = bodies
            .iter()
            .map(|b| b.position * b.mass)
            .sum::<Vector3<f64>>()
            / mass;
        // The sole probes come first, in the ground's point order: each over the ground under its reference point.
        let k = crate::control::sampling::locate(reference, rt.clip_time(t1)).0;
        if let Some(d) = outside_support(
            &rt.probes,
            bodies,
            |i| rt.ground.ground_under(k, i),
            rt.config.ground.stance_height_m,
            [com.x, com.z],
        ) {
            // A walker's centre of mass leaves its support between steps: a balanced root falls by its root's
            // deviation from the clip, not by the polygon.
            unbalanced |= d > rt.config.support_margin_m && rt.policy != RootPolicy::Balanced;
        }
        let max_speed = bodies
            .iter()
            .map(|b| {
                b.velocity.fixed_rows::<3>(3).norm() + 0.1 * b.velocity.fixed_rows::<3>(0).norm()
            })
            .fold(0.0, f64::max);
        Observation {
            time: t1,
            hit,
            unbalanced,
            body_on_ground,
            max_speed,
        }
    }

    /// The state machine's transitions after a step (`docs/root.md`, "States").
    fn advance_machine(&self, rt: &mut RootRuntime, reference: &ReferenceMotion, o: &Observation) {
        let c = rt.config;
        let assisted = rt.assist_weight() >= 0.5 * c.assist_weight.max(1e-9)
            && rt.policy == RootPolicy::Assisted;
        let max_fall = rt.max_fall_s();
        let m = &mut rt.machine;
        let t = o.time;
        let since = t - m.since;
        if o.max_speed < c.rest_speed_mps {
            m.still_since.get_or_insert(t);
        } else {
            m.still_since = None;
        }
        let still_for = m.still_since.map_or(0.0, |s| t - s);
        match m.state {
            RootState::Tracking => {
                if o.hit > c.hit_threshold_ns
                    && matches!(rt.policy, RootPolicy::Assisted | RootPolicy::Balanced)
                {
                    m.enter(RootState::Staggering, t);
                } else if o.unbalanced && !assisted {
                    m.enter(RootState::Falling, t);
                    hold_pose(m, self.world.bodies(), &reference.topology.parent);
                }
            }
            RootState::Staggering => {
                if o.unbalanced {
                    m.enter(RootState::Falling, t);
                    hold_pose(m, self.world.bodies(), &reference.topology.parent);
                } else if since > c.stagger_time_s {
                    m.enter(RootState::Tracking, t);
                }
            }
            RootState::Falling => {
                if since >= c.limp_time_s && (o.body_on_ground || since > max_fall) {
                    m.enter(RootState::Ragdoll, t);
                }
            }
            RootState::Ragdoll => {
                if still_for >= c.rest_time_s {
                    m.enter(RootState::Resting, t);
                }
            }
            RootState::Resting => {
                if c.getup.enabled
                    && matches!(rt.policy, RootPolicy::Assisted | RootPolicy::Balanced)
                    && since >= c.getup.delay_s
                {
                    let bodies = self.world.bodies();
                    let root = (bodies[0].position, bodies[0].orientation);
                    // Play the clip where the character lies: turned to its heading, shifted under it.
                    let (xc, qc) = root_pose(reference, c.getup.clip_time_s);
                    let yaw = yaw_of(&(root.1 * qc.inverse()));
                    let turn = UnitQuaternion::from_axis_angle(&Vector3::y_axis(), yaw);
                    let moved = turn * xc;
                    let shift = Vector3::new(root.0.x - moved.x, 0.0, root.0.z - moved.z);
                    rt.anchor = Isometry3::from_parts(Translation3::from(shift), turn);
                    m.enter(RootState::GettingUp, t);
                    hold_pose(m, bodies, &reference.topology.parent);
                    m.held_root = root;
                    m.level = 0.0;
                }
            }
            RootState::GettingUp => {
                if since >= c.getup.blend_s {
                    m.enter(RootState::Tracking, t);
                    rt.clip_offset = t - c.getup.clip_time_s;
                }
            }
        }
    }
}

/// Holds the current joint rotations (child in parent frame) as the machine's pose.
fn hold_pose(m: &mut Machine, bodies: &[crate::dynamics::Body], parent: &[usize]) {
    for b in 1..bodies.len() {
        m.held[b] = bodies[parent[b]].orientation.inverse() * bodies[b].orientation;
    }
    m.held[0] = bodies[0].orientation;
}

/// The turn about the vertical of a rotation (its twist about +y).
fn yaw_of(q: &UnitQuaternion<f64>) -> f64 {
    let c = q.quaternion().coords;
    // coords = (i, j, k, w): the twist about y keeps (j, w).
    2.0 * c.y.atan2(c.w)
}
