//! Protective falls (issue 39 item 3, `docs/root.md`, "Protective falls"): once the balance machine is in
//! `Falling`, the arms reach toward the predicted ground contact and the head is held up (tucked against the fall)
//! with arm and neck stiffness kept, then the body goes limp on impact as before. The phases are [`FallEvent`]s
//! beside the state transitions (`Character::fall_events`): the [`RootState`] machine and its C ABI numbers are
//! unchanged.
//!
//! The prediction is an inverted pendulum: the fall direction is the horizontal direction of the centre of mass
//! from the feet, run ahead by its velocity for `lookahead_s`; the ground contact is where the shoulders land if
//! the body topples as a rigid pendulum about the feet in that direction (the mid-shoulder point swung onto the
//! floor). Each arm is bent onto its own goal (that point, shifted to the arm's side) by the two-bone IK of the
//! retarget (`retarget::two_bone`), the elbow kept bent by `elbow_bend_deg`, and its drive targets blend from the
//! pose the fall began in to that solution over `reach_time_s`. The control reads only the state and the
//! machine's held pose and timer, so it adds nothing to the saved state but its event history.

mod config;
mod events;

pub use config::ProtectConfig;
pub use events::{FallEvent, FallPhase};

use nalgebra::{Unit, UnitQuaternion, Vector3};

use super::body_sums::{centre_of_mass, horizontal};
use super::machine::smoothstep;
use super::{RootRuntime, RootState};
use crate::control::character::Character;
use crate::control::kinematics::Topology;
use crate::dynamics::{Body, ContactOther};
use crate::model::Model;
use crate::skeleton::Skeleton;
use crate::skeleton::roles::{BoneMap, Limb, Role, Side};

/// One reaching arm: model bodies and the wrist in the forearm's frame.
#[derive(Debug, Clone, PartialEq)]
struct Arm {
    upper: usize,
    fore: usize,
    /// The wrist (hand joint) in the forearm body's frame (m).
    tip: Vector3<f64>,
}

/// The bodies a protective fall moves, found by bone roles.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct ProtectRig {
    arms: Vec<Arm>,
    /// Neck then head bodies (distinct, not the trunk's).
    neck: Vec<usize>,
    /// Foot bodies (the pendulum's pivot).
    feet: Vec<usize>,
    /// Bodies of the legs and those with sole points: their touch (a knee down) is not the impact.
    legs: Vec<usize>,
    /// Bodies of the arms (upper arms and what hangs from them): their touch is the impact, not the landing.
    arm_bodies: Vec<usize>,
}

impl ProtectRig {
    /// The rig of a model, or `None` when it has no arm to reach with (a partial humanoid falls as before).
    pub(super) fn new(
        model: &Model,
        skeleton: &Skeleton,
        topology: &Topology,
        soles: Vec<usize>,
    ) -> Option<ProtectRig> {
        let map = BoneMap::new(skeleton);
        let body = |role: Role| map.get(role).map(|j| model.body_of_joint[j]);
        let mut arms = Vec::new();
        for side in [Side::Left, Side::Right] {
            let (Some(upper), Some(fore)) = (
                body(Role::Limb(side, Limb::UpperArm)),
                body(Role::Limb(side, Limb::Forearm)),
            ) else {
                continue;
            };
            if upper == 0 || upper == fore || topology.parent[fore] != upper {
                continue;
            }
            // The wrist: the hand body's anchor, else the forearm capsule's far end.
            let hand = body(Role::Limb(side, Limb::Hand));
            let tip = match hand {
                Some(hand) if hand != fore && topology.parent[hand] == fore => {
                    topology.anchor[hand]
                }
                _ => model.bodies[fore]
                    .capsules
                    .iter()
                    .flat_map(|c| [c.a.coords, c.b.coords])
                    .max_by(|a, b| a.norm().total_cmp(&b.norm()))
                    .unwrap_or_else(Vector3::zeros),
            };
            if tip.norm() < 1e-6 {
                continue;
            }
            arms.push(Arm { upper, fore, tip });
        }
        if arms.is_empty() {
            return None;
        }
        let trunk: Vec<usize> = [Role::Hips, Role::Spine, Role::Chest, Role::UpperChest]
            .into_iter()
            .filter_map(body)
            .collect();
        let mut neck: Vec<usize> = Vec::new();
        for role in [Role::Neck, Role::Head] {
            if let Some(b) = body(role)
                && b != 0
                && !trunk.contains(&b)
                && !neck.contains(&b)
            {
                neck.push(b);
            }
        }
        let feet = [Side::Left, Side::Right]
            .into_iter()
            .filter_map(|s| body(Role::Limb(s, Limb::Foot)))
            .collect();
        // The subtrees of the thighs and of the upper arms (fingers, toes and other merged or extra bones).
        let below = |roots: &[usize]| -> Vec<usize> {
            (1..topology.parent.len())
                .filter(|&b| {
                    let mut x = b;
                    loop {
                        if roots.contains(&x) {
                            return true;
                        }
                        if x == 0 || topology.parent[x] == usize::MAX {
                            return false;
                        }
                        x = topology.parent[x];
                    }
                })
                .collect()
        };
        let thighs: Vec<usize> = [Side::Left, Side::Right]
            .into_iter()
            .filter_map(|s| body(Role::Limb(s, Limb::Thigh)))
            .filter(|&b| b != 0)
            .collect();
        let mut legs = soles;
        legs.extend(below(&thighs));
        legs.retain(|&b| b != 0);
        let uppers: Vec<usize> = arms.iter().map(|a| a.upper).collect();
        let arm_bodies = below(&uppers);
        Some(ProtectRig {
            arms,
            neck,
            feet,
            legs,
            arm_bodies,
        })
    }
}

impl ProtectRig {
    /// Whether contact `p` is an impact: a body other than the legs on the ground.
    fn impact(&self, p: &crate::dynamics::ContactPoint) -> bool {
        matches!(p.other, ContactOther::Static) && p.normal.y > 0.7 && !self.legs.contains(&p.body)
    }

    /// Whether contact `p` is a landing: the trunk or the head on the ground (neither legs nor arms).
    fn landing(&self, p: &crate::dynamics::ContactPoint) -> bool {
        self.impact(p) && !self.arm_bodies.contains(&p.body)
    }
}

/// The origin of body `b`'s frame (its joint) in the world.
fn origin(bodies: &[Body], topology: &Topology, b: usize) -> Vector3<f64> {
    bodies[b].position - bodies[b].orientation * topology.com[b]
}

/// The fall's direction (horizontal unit) and predicted ground contact of the shoulders (on the floor): the
/// mid-shoulder point's floor projection run ahead by its horizontal velocity for the time a body falls from the
/// shoulders' height (ballistic, `√(2h/g)`, at most 0.6 s).
fn predict(
    rig: &ProtectRig,
    bodies: &[Body],
    topology: &Topology,
    floor: f64,
    (lookahead, lead_max): (f64, f64),
) -> Option<(Vector3<f64>, Vector3<f64>)> {
    let (c, v) = centre_of_mass(bodies);
    let pivot = if rig.feet.is_empty() {
        c
    } else {
        rig.feet
            .iter()
            .map(|&f| bodies[f].position)
            .sum::<Vector3<f64>>()
            / rig.feet.len() as f64
    };
    let pivot = Vector3::new(pivot.x, floor, pivot.z);
    let d = horizontal(c - pivot + v * lookahead)
        .try_normalize(1e-6)
        .or_else(|| horizontal(v).try_normalize(1e-6))?;
    let n = rig.arms.len() as f64;
    let shoulders = rig
        .arms
        .iter()
        .map(|a| origin(bodies, topology, a.upper))
        .sum::<Vector3<f64>>()
        / n;
    let velocity = rig
        .arms
        .iter()
        .map(|a| bodies[a.upper].velocity.fixed_rows::<3>(3).into_owned())
        .sum::<Vector3<f64>>()
        / n;
    let height = (shoulders.y - floor).max(0.0);
    let fall = (2.0 * height / -crate::control::GRAVITY.y)
        .sqrt()
        .min(lead_max);
    let below = Vector3::new(shoulders.x, floor, shoulders.z);
    Some((d, below + horizontal(velocity) * fall))
}

impl RootRuntime {
    /// Whether this runtime protects its falls.
    fn protects(&self) -> bool {
        self.config.protect.enabled && self.protect.is_some()
    }

    /// The time of this fall's impact, if it has come (the last fall event is its `Impact`, while `Falling`).
    fn impact_time(&self) -> Option<f64> {
        match self.machine.fall_events.last() {
            Some(e) if e.phase == FallPhase::Impact && self.machine.state == RootState::Falling => {
                Some(e.time)
            }
            _ => None,
        }
    }

    /// The longest a fall lasts before the body goes limp anyway (s): 1 without protection; with it,
    /// `protect.max_fall_s` (the reach waits for the impact of a slow fall, a knee down first).
    pub(super) fn max_fall_s(&self) -> f64 {
        if self.protects() {
            self.config.protect.max_fall_s
        } else {
            1.0
        }
    }
}

impl Character {
    /// Reshapes the arm and neck drives after the state's shaping (`set_shaped_drive_targets`) for a step from
    /// `t`: reaching and head up while `Falling`, the brace after the impact. Nothing in other states, with
    /// protection off or without arms.
    pub(super) fn protect_drives(&mut self, rt: &RootRuntime, t: f64) {
        if !rt.protects() {
            return;
        }
        let c = rt.config.protect;
        let m = &rt.machine;
        if m.state != RootState::Falling {
            return;
        }
        let since = t - m.since;
        // Blend toward the protective pose; the arms' stiffness factor (down to the limp fraction over the brace
        // after the impact).
        let alpha = if c.reach_time_s > 0.0 {
            smoothstep(since / c.reach_time_s)
        } else {
            1.0
        };
        let arm_k = match rt.impact_time() {
            Some(ti) if c.absorb_time_s > 0.0 => {
                let u = ((t - ti) / c.absorb_time_s).clamp(0.0, 1.0);
                c.arm_stiffness + (rt.config.limp_fraction - c.arm_stiffness) * u
            }
            Some(_) => rt.config.limp_fraction,
            None => c.arm_stiffness,
        };
        let neck_k = c.neck_stiffness;
        let Some(rig) = rt.protect.as_deref() else {
            return;
        };
        let prepared = std::sync::Arc::clone(&self.prepared);
        let topology = &prepared.reference.topology;
        let held = &m.held;
        let bodies = self.world.bodies();
        let Some((d, contact)) = predict(
            rig,
            bodies,
            topology,
            rt.ground.floor,
            (c.lookahead_s, c.lead_max_s),
        ) else {
            return;
        };
        let up = Vector3::y();
        // (body, target rotation) of the step, at most 2 arms × 2 + neck bodies.
        let mut targets: [(usize, UnitQuaternion<f64>, f64); 8] =
            [(usize::MAX, UnitQuaternion::identity(), 0.0); 8];
        let mut n = 0;
        let lateral = d.cross(&up);
        let shoulders_mid = rig
            .arms
            .iter()
            .map(|a| origin(bodies, topology, a.upper))
            .sum::<Vector3<f64>>()
            / rig.arms.len() as f64;
        let contact = Vector3::new(contact.x, rt.ground.floor, contact.z);
        for arm in &rig.arms {
            let parent = topology.parent[arm.upper];
            let rp = bodies[parent].orientation;
            let a = origin(bodies, topology, arm.upper);
            let ru = rp * held[arm.upper];
            let b = a + ru * topology.anchor[arm.fore];
            let rf = ru * held[arm.fore];
            let w = b + rf * arm.tip;
            let (l1, l2) = ((b - a).norm(), (w - b).norm());
            // The arm's own goal: the contact shifted by the shoulder's horizontal offset.
            let goal = contact + horizontal(a - shoulders_mid);
            let bend = c.elbow_bend_deg.to_radians();
            let reach = (l1 * l1 + l2 * l2 + 2.0 * l1 * l2 * bend.cos()).sqrt();
            let to = goal - a;
            let goal = if to.norm() > reach {
                a + to.normalize() * reach
            } else {
                goal
            };
            // A straight arm bends its elbow about the fall's lateral axis.
            let Some((swing, bend)) = crate::retarget::two_bone([a, b, w], &goal, &lateral) else {
                continue;
            };
            let ru1 = swing * ru;
            let rf1 = swing * bend * rf;
            let qu = rp.inverse() * ru1;
            let qf = ru1.inverse() * rf1;
            targets[n] = (arm.upper, held[arm.upper].slerp(&qu, alpha), arm_k);
            targets[n + 1] = (arm.fore, held[arm.fore].slerp(&qf, alpha), arm_k);
            n += 2;
        }
        if !rig.neck.is_empty() {
            let axis = Unit::new_normalize(d.cross(&up));
            let turn = UnitQuaternion::from_axis_angle(
                &axis,
                alpha * c.head_tuck_deg.to_radians() / rig.neck.len() as f64,
            );
            for &b in &rig.neck {
                let rp = bodies[topology.parent[b]].orientation;
                let q = rp.inverse() * turn * rp * held[b];
                if n < targets.len() {
                    targets[n] = (b, q, neck_k);
                    n += 1;
                }
            }
        }
        for &(b, q, k) in &targets[..n] {
            let Some(id) = self.drives[b] else { continue };
            let g = prepared.gains[b];
            let dofs = prepared.reference.dofs[b];
            let drive = self.world.drive_mut(id);
            drive.target_rotation = q;
            drive.target_velocity = Vector3::zeros();
            drive.feedforward = Vector3::zeros();
            for i in 0..3 {
                let on = self.terms.feedback && dofs.is_free(i);
                drive.stiffness[i] = if on { g.stiffness(0.0) * k } else { 0.0 };
                drive.damping[i] = if on { g.damping(0.0) * k.sqrt() } else { 0.0 };
            }
        }
    }

    /// Whether the step's ground contacts end a fall (the machine's `Falling` → `Ragdoll`). With protection,
    /// while `Falling`: the first body other than the legs near the ground (a knee going down does not end the
    /// reach) is the impact, recorded as a [`FallPhase::Impact`] event at `t1`, and the fall ends `brace_time_s`
    /// after it. Else `body_on_ground` (any body but the soles), as without protection.
    pub(super) fn protect_impact(
        &self,
        rt: &mut RootRuntime,
        body_on_ground: bool,
        t1: f64,
    ) -> bool {
        let Some(rig) = rt.protect.as_deref() else {
            return body_on_ground;
        };
        if !rt.protects() || rt.machine.state != RootState::Falling {
            return body_on_ground;
        }
        if rt.impact_time().is_none() {
            let impulses = self.world.contact_impulses();
            let touch = rt
                .contacts
                .iter()
                .enumerate()
                .filter(|(_, p)| rig.impact(p))
                .max_by(|a, b| {
                    let y = |i: usize| impulses.get(i).map_or(0.0, |c| c.impulse.y);
                    y(a.0).total_cmp(&y(b.0))
                })
                .map(|(_, p)| (p.body, p.point));
            if let Some((body, point)) = touch {
                rt.machine.fall_events.push(FallEvent {
                    time: t1,
                    phase: FallPhase::Impact,
                    point,
                    body: Some(body),
                });
            }
        }
        // The brace ends when the trunk or the head lands, or after `brace_time_s`.
        rt.impact_time().is_some_and(|ti| {
            t1 - ti >= rt.config.protect.brace_time_s - 1e-9
                || rt.contacts.iter().any(|p| rig.landing(p))
        })
    }

    /// Records the fall's phases after the machine's update of a step that ended at `t1`, the state before it
    /// being `before`.
    pub(super) fn protect_events(&self, rt: &mut RootRuntime, before: RootState, t1: f64) {
        if !rt.protects() {
            return;
        }
        let Some(rig) = rt.protect.as_deref() else {
            return;
        };
        let c = rt.config.protect;
        let m = &mut rt.machine;
        let bodies = self.world.bodies();
        let topology = &self.prepared.reference.topology;
        if m.state == RootState::Falling && before != RootState::Falling {
            let point = predict(
                rig,
                bodies,
                topology,
                rt.ground.floor,
                (c.lookahead_s, c.lead_max_s),
            )
            .map_or(bodies[0].position, |(_, p)| p);
            m.fall_events.push(FallEvent {
                time: t1,
                phase: FallPhase::Reach,
                point,
                body: None,
            });
        }
        if m.state == RootState::Ragdoll && before == RootState::Falling {
            m.fall_events.push(FallEvent {
                time: t1,
                phase: FallPhase::Limp,
                point: bodies[0].position,
                body: None,
            });
        }
    }

    /// The protective falls' phase events since the character was made free, oldest first (empty for a
    /// kinematic root, with protection off, or for a character without arms).
    pub fn fall_events(&self) -> &[FallEvent] {
        self.root.as_ref().map_or(&[], |r| &r.machine.fall_events)
    }

    /// Whether model body `body` touched the ground (the floor, or a level's static collider) in the last step of
    /// a free root: one of its probes' contacts carried a normal impulse. False for a kinematic root.
    pub fn touches_ground(&self, body: usize) -> bool {
        let Some(rt) = &self.root else {
            return false;
        };
        let impulses = self.world.contact_impulses();
        if impulses.len() != rt.contacts.len() {
            return false;
        }
        rt.contacts.iter().zip(impulses).any(|(p, i)| {
            p.body == body
                && matches!(p.other, ContactOther::Static)
                && i.impulse.dot(&p.normal) > 1e-9
        })
    }
}
