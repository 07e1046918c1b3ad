//! Contacts between characters: bodies of different characters that touch (or come within a margin) at the
//! start of a substep become contacts of the lower-slot character's step, with the other character's body as a
//! free body of its LCP; the opposite impulse is applied to the other character in the same substep, which
//! steps after it (see `docs/scene.md`, "Characters touching each other"). Self-collision is not handled.

use nalgebra::Vector3;
use parry3d_f64::math::Pose;
use parry3d_f64::query;
use parry3d_f64::shape::Capsule;

use super::{CharacterKey, Scene};
use crate::contact::collision::shape::{from_vec, to_vec};
use crate::control::Character;

/// The most touches kept between two characters in a substep (the deepest).
const MAX_TOUCHES_PER_PAIR: usize = 8;

/// Two characters' bodies closer than the margin at the start of a substep.
#[derive(Debug, Clone, Copy)]
pub(super) struct BodyTouch {
    /// The lower-slot character (it solves the contact).
    pub a: CharacterKey,
    pub a_body: usize,
    /// The other character (it receives the opposite impulse).
    pub b: CharacterKey,
    pub b_body: usize,
    /// Witness points on each surface (world).
    pub point_a: Vector3<f64>,
    pub point_b: Vector3<f64>,
    /// Unit normal from a's body toward b's.
    pub normal: Vector3<f64>,
    /// Signed distance (m): negative when the bodies interpenetrate.
    pub distance: f64,
}

/// A contact between two characters resolved by a scene step.
#[derive(Debug, Clone, PartialEq)]
pub struct CharacterContactEvent {
    /// When (s, scene time at the end of the substep).
    pub time: f64,
    /// The two characters, their bodies and the bodies' skeleton joint names.
    pub characters: [CharacterKey; 2],
    /// Model body index on each character.
    pub bodies: [usize; 2],
    /// Bone (skeleton joint) name of each body.
    pub bones: [String; 2],
    /// Contact point on the first character's body (m, world).
    pub point: Vector3<f64>,
    /// Unit normal from the first character's body toward the second's.
    pub normal: Vector3<f64>,
    /// Impulse on the first character (N·s, world); the second received its opposite.
    pub impulse: Vector3<f64>,
}

/// Every capsule of a character in world coordinates, with its body.
fn capsules(c: &Character) -> Vec<(usize, Capsule)> {
    let mut out = Vec::new();
    for (b, body) in c.model().bodies.iter().enumerate() {
        if !body.collides {
            continue;
        }
        let frame = c.body_frame(b);
        for cap in &body.capsules {
            out.push((
                b,
                Capsule::new(
                    to_vec(&(frame * cap.a).coords),
                    to_vec(&(frame * cap.b).coords),
                    cap.radius,
                ),
            ));
        }
    }
    out
}

/// A character's key, its colliding capsules (body, world capsule) and their box.
type CharacterShapes = (CharacterKey, Vec<(usize, Capsule)>, Bounds);

/// A character's axis-aligned box around its capsules, grown by half the contact margin on every side.
#[derive(Debug, Clone, Copy)]
struct Bounds {
    min: [f64; 3],
    max: [f64; 3],
}

impl Bounds {
    fn of(caps: &[(usize, Capsule)], margin: f64) -> Bounds {
        let mut b = Bounds {
            min: [f64::INFINITY; 3],
            max: [f64::NEG_INFINITY; 3],
        };
        for (_, c) in caps {
            let grow = c.radius + 0.5 * margin;
            for p in [c.segment.a, c.segment.b] {
                for k in 0..3 {
                    b.min[k] = b.min[k].min(p[k] - grow);
                    b.max[k] = b.max[k].max(p[k] + grow);
                }
            }
        }
        b
    }

    /// Whether the boxes overlap (a box with a NaN corner meets everything, so the exact test still runs).
    fn meets(&self, other: &Bounds) -> bool {
        (0..3).all(|k| !(self.max[k] < other.min[k] || other.max[k] < self.min[k]))
    }
}

impl Scene {
    /// The touches between bodies of different characters within `margin` (m), deepest per body pair, in slot
    /// order (deterministic).
    pub(super) fn touches_between(&self, margin: f64, out: &mut Vec<BodyTouch>) {
        out.clear();
        let all: Vec<CharacterShapes> = self
            .characters
            .iter()
            .map(|(k, c)| {
                let caps = capsules(c);
                let bounds = Bounds::of(&caps, margin);
                (CharacterKey(k), caps, bounds)
            })
            .collect();
        let id = Pose::IDENTITY;
        for (i, (a, caps_a, box_a)) in all.iter().enumerate() {
            for (b, caps_b, box_b) in &all[i + 1..] {
                // Characters apart (their boxes, grown by the margin, do not meet) cannot touch: a crowd's pairs
                // cost a box test each, not every capsule pair.
                if !box_a.meets(box_b) {
                    continue;
                }
                let first = out.len();
                for (body_a, ca) in caps_a {
                    for (body_b, cb) in caps_b {
                        let (ma, mb) = (ca.center(), cb.center());
                        let reach =
                            ca.half_height() + cb.half_height() + ca.radius + cb.radius + margin;
                        if (ma - mb).length() > reach {
                            continue;
                        }
                        let Ok(Some(c)) = query::contact(&id, ca, &id, cb, margin) else {
                            continue;
                        };
                        let touch = BodyTouch {
                            a: *a,
                            a_body: *body_a,
                            b: *b,
                            b_body: *body_b,
                            point_a: from_vec(c.point1),
                            point_b: from_vec(c.point2),
                            normal: from_vec(c.normal1),
                            distance: c.dist,
                        };
                        // One contact per body pair (bodies with several capsules): the deepest.
                        match out.iter_mut().find(|t| {
                            t.a == touch.a
                                && t.b == touch.b
                                && t.a_body == touch.a_body
                                && t.b_body == touch.b_body
                        }) {
                            Some(t) if t.distance > touch.distance => *t = touch,
                            Some(_) => {}
                            None => out.push(touch),
                        }
                    }
                }
                // Characters placed inside each other touch everywhere: keep the deepest few per pair so the
                // LCP stays small (the rest follow as these push the bodies apart).
                if out.len() - first > MAX_TOUCHES_PER_PAIR {
                    out[first..].sort_by(|x, y| x.distance.total_cmp(&y.distance));
                    out.truncate(first + MAX_TOUCHES_PER_PAIR);
                }
            }
        }
    }

    /// The deepest interpenetration (m, ≥ 0) between bodies of different characters at their current poses.
    pub fn max_interpenetration(&self) -> f64 {
        let mut touches = Vec::new();
        self.touches_between(0.0, &mut touches);
        touches.iter().map(|t| -t.distance).fold(0.0, f64::max)
    }

    /// The character–character contacts of the last [`Scene::step`].
    pub fn character_contacts(&self) -> &[CharacterContactEvent] {
        &self.contact_events
    }
}
