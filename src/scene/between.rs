//! Contacts between characters: bodies of different characters that touch (or come within a margin) at the
//! start of a substep become contacts of the lower-slot character's step, with the other character's body as a
//! free body of its LCP; the opposite impulse is applied to the other character in the same substep, which
//! steps after it (see `docs/scene.md`, "Characters touching each other"). Self-collision is not handled.

use nalgebra::Vector3;

use parry3d_f64::query::closest_points::closest_points_segment_segment_with_locations_nD;
use parry3d_f64::shape::Segment;

use super::capsules::{WorldCapsule, world_capsules};
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

/// A character's colliding capsules (world) and their box; kept by the scene between substeps so a crowd's pair
/// search allocates nothing once every character's list has grown to its size.
#[derive(Debug, Clone, Default)]
pub(super) struct CharacterShapes {
    key: Option<CharacterKey>,
    capsules: Vec<WorldCapsule>,
    bounds: Option<Bounds>,
}

impl CharacterShapes {
    /// Refills these shapes from character `c` (key `key`), its box grown by half of `margin`.
    fn fill(&mut self, key: CharacterKey, c: &Character, margin: f64) {
        self.key = Some(key);
        self.capsules.clear();
        self.capsules.extend(world_capsules(c));
        self.bounds = Some(Bounds::of(&self.capsules, margin));
    }
}

/// A character's axis-aligned box around its capsules, grown by half the contact margin on every side.
#[derive(Debug, Clone, Copy)]
struct Bounds {
    min: [f64; 3],
    max: [f64; 3],
}

impl Bounds {
    fn of(caps: &[WorldCapsule], margin: f64) -> Bounds {
        let mut b = Bounds {
            min: [f64::INFINITY; 3],
            max: [f64::NEG_INFINITY; 3],
        };
        for c in caps {
            let grow = c.radius + 0.5 * margin;
            for p in [c.a, c.b] {
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

/// Where two capsules touch: surface points on each (world), the unit normal from the first toward the second and
/// the signed distance (m, negative when they interpenetrate).
#[derive(Debug, Clone, Copy)]
struct CapsuleTouch {
    point_a: Vector3<f64>,
    point_b: Vector3<f64>,
    normal: Vector3<f64>,
    distance: f64,
}

/// Two capsules within `margin` of each other, from their closest axis points (parry's closed-form segment–segment
/// test, Ericson's); `None` when farther apart. Coinciding axes (a body inside another) take the direction between the capsules' middles, or +Y.
fn capsule_touch(ca: &WorldCapsule, cb: &WorldCapsule, margin: f64) -> Option<CapsuleTouch> {
    let (sa, sb) = (
        Segment::new(to_vec(&ca.a), to_vec(&ca.b)),
        Segment::new(to_vec(&cb.a), to_vec(&cb.b)),
    );
    let (la, lb) = closest_points_segment_segment_with_locations_nD((&sa.a, &sa.b), (&sb.a, &sb.b));
    let (p, q) = (from_vec(sa.point_at(&la)), from_vec(sb.point_at(&lb)));
    let axis = q - p;
    let gap = axis.norm();
    let distance = gap - ca.radius - cb.radius;
    if distance.is_nan() || distance > margin {
        return None;
    }
    let normal = if gap > 1e-12 {
        axis / gap
    } else {
        (0.5 * (cb.a + cb.b) - 0.5 * (ca.a + ca.b))
            .try_normalize(1e-12)
            .unwrap_or_else(Vector3::y)
    };
    Some(CapsuleTouch {
        point_a: p + normal * ca.radius,
        point_b: q - normal * cb.radius,
        normal,
        distance,
    })
}

impl Scene {
    /// The touches between bodies of different characters within `margin` (m), deepest per body pair, in slot
    /// order (deterministic). `shapes` is the scratch of every character's world capsules.
    pub(super) fn touches_between(
        &self,
        margin: f64,
        shapes: &mut Vec<CharacterShapes>,
        out: &mut Vec<BodyTouch>,
    ) {
        out.clear();
        let n = self.characters.len();
        if shapes.len() < n {
            shapes.resize_with(n, CharacterShapes::default);
        }
        for (slot, (k, c)) in shapes.iter_mut().zip(self.characters.iter()) {
            slot.fill(CharacterKey(k), c, margin);
        }
        let all = &shapes[..n];
        for (i, sa) in all.iter().enumerate() {
            let (Some(a), Some(box_a)) = (sa.key, sa.bounds) else {
                continue;
            };
            for sb in &all[i + 1..] {
                let (Some(b), Some(box_b)) = (sb.key, sb.bounds) else {
                    continue;
                };
                // Characters apart (their boxes, grown by the margin, do not meet) cannot touch: a crowd's pairs
                // cost a box test each, not every capsule pair.
                if !box_a.meets(&box_b) {
                    continue;
                }
                let first = out.len();
                for ca in &sa.capsules {
                    for cb in &sb.capsules {
                        let reach = 0.5 * ((ca.b - ca.a).norm() + (cb.b - cb.a).norm())
                            + ca.radius
                            + cb.radius
                            + margin;
                        if (0.5 * (ca.a + ca.b - cb.a - cb.b)).norm() > reach {
                            continue;
                        }
                        let Some(c) = capsule_touch(ca, cb, margin) else {
                            continue;
                        };
                        let touch = BodyTouch {
                            a,
                            a_body: ca.body,
                            b,
                            b_body: cb.body,
                            point_a: c.point_a,
                            point_b: c.point_b,
                            normal: c.normal,
                            distance: c.distance,
                        };
                        // One contact per body pair (bodies with several capsules): the deepest.
                        match out[first..]
                            .iter_mut()
                            .find(|t| t.a_body == touch.a_body && t.b_body == touch.b_body)
                        {
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
        let (mut shapes, mut touches) = (Vec::new(), Vec::new());
        self.touches_between(0.0, &mut shapes, &mut touches);
        touches.iter().map(|t| -t.distance).fold(0.0, f64::max)
    }

    /// The character–character contacts of the last [`Scene::step`].
    pub fn character_contacts(&self) -> &[CharacterContactEvent] {
        &self.contact_events
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parry3d_f64::math::Pose;
    use parry3d_f64::query;
    use parry3d_f64::shape::Capsule;

    /// The closed-form capsule pair against parry's general contact query (GJK/EPA) on random capsules, parallel
    /// and crossing ones included: the same touches within the margin, the same signed distance (never farther
    /// than parry's, whose GJK stops up to ≈ 6e-6 m short), axis points that are the closest pair (against a ternary
    /// search), and on well-conditioned pairs parry's normal within its GJK's tolerance.
    #[test]
    fn closed_form_capsule_touches_match_parry() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        };
        let id = Pose::IDENTITY;
        let margin = 0.02;
        let (mut touching, mut apart) = (0, 0);
        for i in 0..4000 {
            let mut v = || Vector3::new(next(), next(), next()) * 0.4;
            let (a0, a1, b0) = (v(), v(), v());
            // Every fourth pair parallel to the first capsule.
            let b1 = if i % 4 == 0 {
                b0 + (a1 - a0) * 0.7
            } else {
                v()
            };
            let (ra, rb) = (0.03 + 0.05 * next().abs(), 0.03 + 0.05 * next().abs());
            let ca = WorldCapsule {
                body: 0,
                a: a0,
                b: a1,
                radius: ra,
            };
            let cb = WorldCapsule {
                body: 1,
                a: b0,
                b: b1,
                radius: rb,
            };
            let mine = capsule_touch(&ca, &cb, margin);
            let pa = Capsule::new(to_vec(&a0), to_vec(&a1), ra);
            let pb = Capsule::new(to_vec(&b0), to_vec(&b1), rb);
            let theirs = query::contact(&id, &pa, &id, &pb, margin).unwrap();
            match (mine, theirs) {
                (
                    Some(CapsuleTouch {
                        point_a,
                        point_b,
                        normal,
                        distance,
                    }),
                    Some(c),
                ) => {
                    touching += 1;
                    assert!(
                        (distance - c.dist).abs() < 1e-4,
                        "{i}: {distance} vs {}",
                        c.dist
                    );
                    assert!(distance <= c.dist + 1e-12, "{i}: {distance} vs {}", c.dist);
                    // The axis points are the closest pair: a ternary search over the first axis (the distance
                    // to the second is convex along it) finds the same gap and, on well-conditioned pairs (axes
                    // ≥ 6° apart), the same point.
                    let to_b = |t: f64| {
                        let p = a0 + (a1 - a0) * t;
                        (crate::scene::sweep::closest_on_segment(&p, &b0, &b1) - p).norm()
                    };
                    let (mut lo, mut hi) = (0.0f64, 1.0f64);
                    for _ in 0..200 {
                        let (m1, m2) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
                        if to_b(m1) < to_b(m2) {
                            hi = m2;
                        } else {
                            lo = m1;
                        }
                    }
                    let t = 0.5 * (lo + hi);
                    let gap = distance + ra + rb;
                    assert!((gap - to_b(t)).abs() < 1e-12, "{i}: {gap} vs {}", to_b(t));
                    let sin = (a1 - a0).normalize().cross(&(b1 - b0).normalize()).norm();
                    if gap > 1e-6 && sin > 0.1 {
                        let axis_a = point_a - normal * ra;
                        assert!((axis_a - (a0 + (a1 - a0) * t)).norm() < 1e-6, "{i}");
                        assert!((point_b - point_a).cross(&normal).norm() < 1e-12, "{i}");
                        // parry's GJK stops short of the exact pair: its normal within 1e-2 rad.
                        assert!((normal - from_vec(c.normal1)).norm() < 1e-2, "{i}");
                    }
                }
                (None, None) => apart += 1,
                (m, t) => {
                    // Only a pair on the margin's edge may be told apart differently by round-off.
                    let d = m.map(|x| x.distance).or(t.map(|c| c.dist)).unwrap();
                    assert!((d - margin).abs() < 1e-4, "{i}: {m:?} vs {t:?}");
                }
            }
        }
        assert!(touching > 500 && apart > 500, "{touching} / {apart}");
    }
}
