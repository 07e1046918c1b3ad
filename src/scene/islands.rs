//! A substep's characters in islands: characters that touch each other (directly or through others) form one
//! island and step one after the other in slot order, the lower-slot character of each touch solving it (see
//! `between.rs`); islands share nothing within a substep, so they step in parallel (rayon), a lone character
//! being an island of one. Results are recorded in the order the scene always used (the touching characters in
//! slot order, then the rest in slot order), so the state is bit-identical for any thread count and to the
//! serial order (`docs/scene.md`, "Characters touching each other").

use nalgebra::{Point3, Vector3};
use rayon::prelude::*;

use super::between::{BodyTouch, CharacterContactEvent};
use super::character_step::{Stepped, step_character};
use super::slab::RawKey;
use super::thread_scratch::ThreadScratch;
use super::{CharacterKey, Scene, SceneError, Touch};
use crate::control::Character;
use crate::dynamics::{ContactOther, ContactPoint};
use crate::level::Level;

/// A touch resolved by its first character's step, for the second.
struct Owed {
    touch: BodyTouch,
    /// Impulse on the first character's body (N·s, world): the second gets its opposite.
    impulse: Vector3<f64>,
    /// The touch point on the first body's surface and the normal (toward the second), after its step.
    surface: Vector3<f64>,
    normal: Vector3<f64>,
}

/// One character's step in its island: the step and the contacts with other characters it resolved.
struct IslandStep {
    stepped: Stepped,
    contacts: Vec<CharacterContactEvent>,
}

/// What every island's step reads.
struct Shared<'a> {
    touches: &'a [Touch],
    between: &'a [BodyTouch],
    level: &'a Level,
    scratch: &'a ThreadScratch,
    friction: f64,
    restitution: f64,
    h: f64,
    /// Scene time at the end of the substep (s).
    end: f64,
}

/// The islands of `order` (characters' slots in slot order) under the touches `between`: lists of positions in
/// `order`, each ascending, the islands ordered by their first position (union–find; deterministic).
fn islands(order: &[RawKey], between: &[BodyTouch]) -> Vec<Vec<usize>> {
    let position = |k: CharacterKey| order.iter().position(|&r| r == k.0);
    let mut parent: Vec<usize> = (0..order.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for t in between {
        if let (Some(a), Some(b)) = (position(t.a), position(t.b)) {
            let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
            // The lower position is the root: an island's root is its first member.
            parent[ra.max(rb)] = ra.min(rb);
        }
    }
    let mut out: Vec<Vec<usize>> = Vec::new();
    let mut island_of: Vec<usize> = vec![usize::MAX; order.len()];
    for i in 0..order.len() {
        let r = root(&mut parent, i);
        if island_of[r] == usize::MAX {
            island_of[r] = out.len();
            out.push(Vec::new());
        }
        out[island_of[r]].push(i);
    }
    out
}

/// Steps one island's characters in slot order. A touch is a contact of its lower-slot character's step, with the
/// other body a free body of the LCP as it is at the start of the substep. The other character, which steps later,
/// receives the opposite impulse and a static contact against the first body's surface where it ended, so its own
/// post-stabilization removes any interpenetration left (the free-body stand-in is lighter than the real,
/// articulated limb, so the first impulse alone would leave the bodies a little inside each other). Stops at the
/// first error (the members after it are not stepped).
fn step_island(
    island: &mut [(CharacterKey, &mut Character)],
    s: &Shared<'_>,
) -> Vec<Result<IslandStep, SceneError>> {
    let member = |island: &[(CharacterKey, &mut Character)], k: CharacterKey| {
        island.iter().position(|(key, _)| *key == k)
    };
    let mut out = Vec::with_capacity(island.len());
    let mut owed: Vec<Owed> = Vec::new();
    for i in 0..island.len() {
        let key = island[i].0;
        let pairs: Vec<&BodyTouch> = s.between.iter().filter(|t| t.a == key).collect();
        let mut partners = Vec::with_capacity(pairs.len());
        for t in &pairs {
            match member(island, t.b) {
                Some(j) => partners.push(island[j].1.world().body(t.b_body).clone()),
                None => {
                    out.push(Err(SceneError::StaleCharacter));
                    return out;
                }
            }
        }
        let mut points: Vec<ContactPoint> = pairs
            .iter()
            .enumerate()
            .map(|(k, t)| ContactPoint {
                body: t.a_body,
                other: ContactOther::Free(k),
                point: t.point_a,
                other_point: t.point_b,
                // From the other body toward this one: the direction this body is pushed.
                normal: -t.normal,
                friction: s.friction,
                restitution: 0.0,
            })
            .collect();
        let c: &mut Character = island[i].1;
        for o in owed.iter().filter(|o| o.touch.b == key) {
            if let Err(e) = c.apply_body_impulse(o.touch.b_body, o.touch.point_b, -o.impulse) {
                out.push(Err(e.into()));
                return out;
            }
            points.push(ContactPoint {
                body: o.touch.b_body,
                other: ContactOther::Static,
                point: o.touch.point_b,
                other_point: o.surface,
                normal: o.normal,
                friction: s.friction,
                restitution: 0.0,
            });
        }
        // Where each touch point sits on this character's body, to follow it through the step.
        let local: Vec<_> = pairs
            .iter()
            .map(|t| {
                let f = c.body_frame(t.a_body).inverse();
                (f * Point3::from(t.point_a), f.rotation * t.normal)
            })
            .collect();
        let mine: Vec<&Touch> = s.touches.iter().filter(|t| t.character == key).collect();
        let stepped = s.scratch.around(c, |c| {
            step_character(
                key,
                c,
                &mine,
                &points,
                &partners,
                s.level,
                s.friction,
                s.restitution,
                s.h,
            )
        });
        let stepped = match stepped {
            Ok(stepped) => stepped,
            Err(e) => {
                out.push(Err(e));
                return out;
            }
        };
        for ((t, j), (p, n)) in pairs.iter().zip(&stepped.pair_impulses).zip(&local) {
            let f = c.body_frame(t.a_body);
            owed.push(Owed {
                touch: **t,
                impulse: *j,
                surface: (f * p).coords,
                normal: f.rotation * n,
            });
        }
        let bone = |k: CharacterKey, b: usize| {
            member(island, k)
                .map_or_else(String::new, |j| island[j].1.model().bodies[b].name.clone())
        };
        let contacts = pairs
            .iter()
            .zip(&stepped.pair_impulses)
            .filter(|(_, j)| j.norm() > 0.0)
            .map(|(t, j)| CharacterContactEvent {
                time: s.end,
                characters: [t.a, t.b],
                bodies: [t.a_body, t.b_body],
                bones: [bone(t.a, t.a_body), bone(t.b, t.b_body)],
                point: t.point_a,
                normal: t.normal,
                impulse: *j,
            })
            .collect();
        out.push(Ok(IslandStep { stepped, contacts }));
    }
    out
}

impl Scene {
    /// Steps every character over a substep of `h` s: the islands of characters touching each other (`between`)
    /// in parallel, each island's members in slot order; ball touches (`touches`) are contacts of their
    /// character's own step. Records the results in the scene's order (the touching characters in slot order,
    /// then the rest); the first error in that order is returned, after the results before it are recorded.
    pub(super) fn step_islands(
        &mut self,
        touches: &[Touch],
        between: &[BodyTouch],
        friction: f64,
        h: f64,
    ) -> Result<(), SceneError> {
        let order: Vec<RawKey> = self.characters.iter().map(|(k, _)| k).collect();
        let islands = islands(&order, between);
        let shared = Shared {
            touches,
            between,
            level: &self.level,
            scratch: &self.thread_scratch,
            friction,
            restitution: self.restitution,
            h,
            end: self.time + h,
        };
        let mut slots: Vec<Option<(RawKey, &mut Character)>> =
            self.characters.iter_mut().map(Some).collect();
        let mut jobs: Vec<Vec<(CharacterKey, &mut Character)>> = islands
            .iter()
            .map(|island| {
                island
                    .iter()
                    .filter_map(|&p| slots[p].take().map(|(k, c)| (CharacterKey(k), c)))
                    .collect()
            })
            .collect();
        let results: Vec<Vec<Result<IslandStep, SceneError>>> = jobs
            .par_iter_mut()
            .map(|job| step_island(job, &shared))
            .collect();
        drop(jobs);
        drop(slots);
        let mut by_position: Vec<Option<Result<IslandStep, SceneError>>> =
            order.iter().map(|_| None).collect();
        for (island, result) in islands.iter().zip(results) {
            for (&p, r) in island.iter().zip(result) {
                by_position[p] = Some(r);
            }
        }
        let touching = |p: &usize| {
            let k = CharacterKey(order[*p]);
            between.iter().any(|t| t.a == k || t.b == k)
        };
        let first = (0..order.len()).filter(touching);
        let rest = (0..order.len()).filter(|p| !touching(p));
        for p in first.chain(rest) {
            let Some(result) = by_position[p].take() else {
                continue;
            };
            let step = result?;
            self.contact_events.extend(step.contacts);
            self.record(step.stepped, h);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(index: u32) -> RawKey {
        RawKey {
            index,
            generation: 7,
        }
    }

    fn touch(a: u32, b: u32) -> BodyTouch {
        BodyTouch {
            a: CharacterKey(key(a)),
            a_body: 0,
            b: CharacterKey(key(b)),
            b_body: 0,
            point_a: Vector3::zeros(),
            point_b: Vector3::zeros(),
            normal: Vector3::y(),
            distance: 0.0,
        }
    }

    #[test]
    fn touches_join_characters_into_islands_in_slot_order() {
        // Slots 0..7 in a scrambled slot order; 5–1, 1–3 and 6–2 touch.
        let order: Vec<RawKey> = [4, 5, 0, 1, 6, 3, 2].into_iter().map(key).collect();
        let between = [touch(5, 1), touch(1, 3), touch(6, 2)];
        // Positions: 4→0, 5→1, 0→2, 1→3, 6→4, 3→5, 2→6.
        assert_eq!(
            islands(&order, &between),
            vec![vec![0], vec![1, 3, 5], vec![2], vec![4, 6]]
        );
        // No touch: every character alone; a touch of an unknown character is ignored.
        assert_eq!(
            islands(&order[..3], &[touch(9, 4)]),
            vec![vec![0], vec![1], vec![2]]
        );
        assert!(islands(&[], &between).is_empty());
    }
}
