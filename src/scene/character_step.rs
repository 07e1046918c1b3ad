//! One character's substep inside a scene: its ball touches and contacts with other characters handed to its
//! step as contacts, the step itself (in the thread's shared scratch), and what the scene records of it.

use nalgebra::Vector3;

use super::level::capsule_contacts;
use super::{Ball, CharacterKey, HitEvent, Scene, SceneError, SceneFault, Touch, ballistic};
use crate::control::{Character, GRAVITY, ImpulseWork};
use crate::dynamics::{Body, ContactOther, ContactPoint};
use crate::level::{ColliderKey, Level};

impl Scene {
    /// Records a character's substep: its joint separation, the hit events of its touches and the balls' states
    /// after them.
    pub(super) fn record(&mut self, stepped: Stepped, h: f64) {
        let i = stepped.key.0.index as usize;
        if self.separations.len() <= i {
            self.separations.resize(i + 1, 0.0);
        }
        self.separations[i] = self.separations[i].max(stepped.separation);
        if let Some((event, touches)) = stepped.fault {
            self.faults.push(SceneFault {
                character: stepped.key,
                event,
            });
            for t in touches {
                if let Some(b) = self.balls.get_mut(t.ball.0) {
                    *b = ballistic(&t.state, h);
                }
            }
        }
        for hit in stepped.collider_hits {
            self.events.push(HitEvent {
                time: self.time,
                character: stepped.key,
                bone: hit.bone,
                body: hit.body,
                point: hit.point,
                normal: hit.normal,
                impulse: hit.impulse,
                ball: None,
                collider: Some(hit.collider),
                energy_j: hit.energy_j,
            });
        }
        for hit in stepped.hits {
            let t = hit.touch;
            self.events.push(HitEvent {
                time: self.time + t.s * h,
                character: stepped.key,
                bone: hit.bone,
                body: t.body,
                point: t.point,
                normal: t.normal,
                impulse: hit.impulse,
                ball: Some(t.ball),
                collider: None,
                energy_j: hit.energy_j,
            });
            // The ball leaves the touch with its post-contact velocity for the rest of the substep.
            let centre =
                t.state.position + t.state.velocity * (t.s * h) + 0.5 * GRAVITY * (t.s * h).powi(2);
            let rest = (1.0 - t.s) * h;
            if let Some(b) = self.balls.get_mut(t.ball.0) {
                b.position = centre + hit.ball_velocity * rest + 0.5 * GRAVITY * rest * rest;
                b.velocity = hit.ball_velocity + GRAVITY * rest;
            }
        }
    }
}

/// One character's substep, for the scene to record.
pub(super) struct Stepped {
    key: CharacterKey,
    separation: f64,
    hits: Vec<TouchResult>,
    /// The guard's fault, with the touches the reset dropped.
    fault: Option<(crate::control::FaultEvent, Vec<Touch>)>,
    /// Impulses (N·s, world) on this character of its contacts with other characters, in the given order.
    pub(super) pair_impulses: Vec<Vector3<f64>>,
    /// Touches of kinematic colliders that pushed the character.
    collider_hits: Vec<ColliderHit>,
}

/// A kinematic collider's push on a body in a step.
struct ColliderHit {
    collider: ColliderKey,
    bone: String,
    body: usize,
    point: Vector3<f64>,
    /// From the collider toward the body.
    normal: Vector3<f64>,
    impulse: Vector3<f64>,
    energy_j: f64,
}

/// A ball touch resolved by a character's step.
struct TouchResult {
    touch: Touch,
    bone: String,
    impulse: Vector3<f64>,
    /// The ball's velocity just after the contact.
    ball_velocity: Vector3<f64>,
    energy_j: f64,
}

/// Steps one character by `h` with its ball touches as contacts of the step (the balls free bodies of its LCP).
///
/// `pairs` are contacts with other characters' bodies, as free bodies (`Free(k)` indexing `pair_free`) or as
/// static surfaces; their impulses on this character come back in [`Stepped::pair_impulses`].
#[allow(clippy::too_many_arguments)]
pub(super) fn step_character(
    key: CharacterKey,
    c: &mut Character,
    touches: &[&Touch],
    pairs: &[ContactPoint],
    pair_free: &[Body],
    level: &Level,
    friction: f64,
    restitution: f64,
    h: f64,
) -> Result<Stepped, SceneError> {
    let mut points = Vec::with_capacity(touches.len() + pairs.len());
    let mut free = Vec::with_capacity(touches.len() + pairs.len());
    let mut works = Vec::with_capacity(touches.len());
    for t in touches {
        free.push(ball_body(&t.state, t.s, h));
        points.push(ContactPoint {
            body: t.body,
            other: ContactOther::Free(free.len() - 1),
            point: t.point,
            other_point: t.point,
            normal: -t.normal,
            friction,
            restitution,
        });
        works.push(ImpulseWork::begin(c, t.body, &t.point, Vector3::zeros()));
    }
    for p in pairs {
        let other = match p.other {
            ContactOther::Free(k) => {
                free.push(pair_free[k].clone());
                ContactOther::Free(free.len() - 1)
            }
            other => other,
        };
        points.push(ContactPoint { other, ..*p });
    }
    // The level's contacts with the character's capsules (kinematic colliders; a free root's limbs across edges).
    let first_level = points.len();
    let mut colliders = Vec::new();
    capsule_contacts(c, level, h, &mut points, &mut colliders);
    if !points.is_empty() {
        c.set_contacts(&points, &free)?;
    }
    let before: Vec<(usize, ImpulseWork)> = points[first_level..]
        .iter()
        .enumerate()
        .filter(|(_, p)| matches!(p.other, ContactOther::Moving { .. }))
        .map(|(j, p)| (j, ImpulseWork::begin(c, p.body, &p.point, Vector3::zeros())))
        .collect();
    let report = c.step_in(h, Some(level))?;
    if let Some(event) = c.last_fault() {
        // The guard reset the character: its contacts were dropped, so its balls fly on untouched.
        return Ok(Stepped {
            key,
            separation: report.max_separation,
            hits: Vec::new(),
            fault: Some((event.clone(), touches.iter().map(|t| **t).collect())),
            pair_impulses: vec![Vector3::zeros(); pairs.len()],
            collider_hits: Vec::new(),
        });
    }
    let mut collider_hits = Vec::new();
    for (j, mut work) in before {
        let p = points[first_level + j];
        let impulse = c.world().contact_impulses()[first_level + j].impulse;
        if impulse == Vector3::zeros() {
            continue;
        }
        work.set_impulse(impulse);
        collider_hits.push(ColliderHit {
            collider: colliders[j],
            bone: c.model().bodies[p.body].name.clone(),
            body: p.body,
            point: p.point,
            normal: p.normal,
            impulse,
            energy_j: work.finish(c),
        });
    }
    for (collider, p, impulse) in c.kinematic_touches() {
        if impulse != Vector3::zeros() {
            collider_hits.push(ColliderHit {
                collider,
                bone: c.model().bodies[p.body].name.clone(),
                body: p.body,
                point: p.point,
                normal: p.normal,
                impulse,
                energy_j: 0.0,
            });
        }
    }
    let mut hits = Vec::with_capacity(touches.len());
    for (j, t) in touches.iter().enumerate() {
        let impulse = c.world().contact_impulses()[j].impulse;
        let ball_velocity = c.world().free_bodies()[j]
            .velocity
            .fixed_rows::<3>(3)
            .into_owned();
        works[j].set_impulse(impulse);
        hits.push(TouchResult {
            touch: **t,
            bone: c.model().bodies[t.body].name.clone(),
            impulse,
            ball_velocity,
            energy_j: works[j].finish(c),
        });
    }
    Ok(Stepped {
        key,
        separation: report.max_separation,
        hits,
        fault: None,
        pair_impulses: (0..pairs.len())
            .map(|j| c.world().contact_impulses()[touches.len() + j].impulse)
            .collect(),
        collider_hits,
    })
}

/// The ball as a free rigid body at its touch (a solid sphere; its velocity at the touch, since the contact
/// acts at that instant).
fn ball_body(ball: &Ball, s: f64, h: f64) -> Body {
    let t = s * h;
    let inertia = 0.4 * ball.mass * ball.radius * ball.radius;
    let mut body = Body::new(
        ball.mass,
        nalgebra::Matrix3::identity() * inertia,
        ball.position + ball.velocity * t + 0.5 * GRAVITY * t * t,
        nalgebra::UnitQuaternion::identity(),
    );
    let v = ball.velocity + GRAVITY * t;
    body.velocity = nalgebra::Vector6::new(0.0, 0.0, 0.0, v.x, v.y, v.z);
    body
}
