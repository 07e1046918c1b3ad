//! The scene's level: colliders the game adds, removes and moves between frames, and the contacts of the
//! characters' capsules with them (a free root also stands on them through its own probes, `Character::step_in`).
//!
//! A kinematic collider moved by [`Scene::move_collider`] reaches its new pose at the end of the next
//! [`Scene::step`], interpolated over the substeps, at the velocity given or the one of that motion; a collider
//! not moved in a frame is at rest for it.

use nalgebra::{Isometry3, Vector3};
use parry3d_f64::bounding_volume::{Aabb, BoundingVolume};
use parry3d_f64::shape::Capsule;

use super::capsules::world_capsules;
use super::{Scene, SceneError};
use crate::contact::collision::shape::{from_vec, to_pose, to_vec};
use crate::control::Character;
use crate::dynamics::ContactPoint;
use crate::level::{
    ColliderDesc, ColliderKey, Level, LevelError, LevelFile, MAX_KINEMATIC_SPEED, Motion,
};

/// A move of a kinematic collider over the next frame.
#[derive(Debug, Clone, Copy)]
pub(super) struct KinematicMove {
    key: ColliderKey,
    target: Isometry3<f64>,
    velocity: Option<(Vector3<f64>, Vector3<f64>)>,
}

/// A kinematic move as the frame runs it: from `start` to `target` at `velocity`.
#[derive(Debug, Clone, Copy)]
pub(super) struct FrameMove {
    key: ColliderKey,
    start: Isometry3<f64>,
    target: Isometry3<f64>,
    linear: Vector3<f64>,
    angular: Vector3<f64>,
}

/// Capsule contacts closer than this (m) are set (speculative; the LCP keeps them inactive while apart).
const CAPSULE_MARGIN_M: f64 = 0.02;

/// A free root's end spheres cover a capsule's ends (its probes); its capsule contacts are kept only where the
/// touch is this far (fraction of the axis) from both ends: a limb across a stair nosing or a table edge.
const END_FRACTION: f64 = 0.2;

impl From<LevelError> for SceneError {
    fn from(e: LevelError) -> SceneError {
        SceneError::Level(e)
    }
}

impl Scene {
    /// The scene's level (its colliders; queries: [`Level::cast_ray`], or [`Scene::cast_ray`] with the
    /// characters).
    pub fn level(&self) -> &Level {
        &self.level
    }

    /// Replaces the scene's level (its colliders, their keys with them), and gives back the old one.
    pub fn set_level(&mut self, level: Level) -> Level {
        self.moves.clear();
        std::mem::replace(&mut self.level, level)
    }

    /// Adds a collider (static or kinematic) to the scene's level.
    pub fn add_collider(&mut self, desc: ColliderDesc) -> Result<ColliderKey, SceneError> {
        Ok(self.level.add(desc)?.0)
    }

    /// Adds every collider of a level file, posed by `pose` (the file's frame in the scene); on an error
    /// nothing is added.
    pub fn add_level(
        &mut self,
        file: &LevelFile,
        pose: &Isometry3<f64>,
    ) -> Result<Vec<ColliderKey>, SceneError> {
        let mut keys = Vec::with_capacity(file.colliders.len());
        for desc in &file.colliders {
            let mut desc = desc.clone();
            desc.pose = pose * desc.pose;
            match self.level.add(desc) {
                Ok((k, _)) => keys.push(k),
                Err(e) => {
                    for k in keys {
                        let _ = self.level.remove(k);
                    }
                    return Err(e.into());
                }
            }
        }
        Ok(keys)
    }

    /// Removes a collider; a character resting on it falls from the next step.
    pub fn remove_collider(&mut self, key: ColliderKey) -> Result<(), SceneError> {
        self.moves.retain(|m| m.key != key);
        Ok(self.level.remove(key)?)
    }

    /// Moves a kinematic collider to `pose`, reached at the end of the next [`Scene::step`]: with `velocity`
    /// (linear, angular; world) the contacts see it; without, they see the motion's own (a jump faster than
    /// [`MAX_KINEMATIC_SPEED`] is a teleport at rest).
    pub fn move_collider(
        &mut self,
        key: ColliderKey,
        pose: Isometry3<f64>,
        velocity: Option<(Vector3<f64>, Vector3<f64>)>,
    ) -> Result<(), SceneError> {
        // Checked now (stale key, static collider, non-finite pose or velocity), applied by the next step.
        self.level.check_kinematic_pose(key, &pose, velocity)?;
        self.moves.retain(|m| m.key != key);
        self.moves.push(KinematicMove {
            key,
            target: pose,
            velocity,
        });
        Ok(())
    }

    /// The frame's moves (the pending ones taken): each collider's start, target and velocity over `dt`.
    pub(super) fn begin_moves(&mut self, dt: f64, out: &mut Vec<FrameMove>) {
        out.clear();
        // Colliders moved last frame and not this one come to rest.
        let moving: Vec<ColliderKey> = self
            .level
            .kinematic_keys()
            .filter(|&key| {
                self.level.surface_speed(key) > 0.0 && !self.moves.iter().any(|m| m.key == key)
            })
            .collect();
        for key in moving {
            if let Ok(pose) = self.level.pose(key) {
                let _ = self.level.set_kinematic_pose(
                    key,
                    pose,
                    Some((Vector3::zeros(), Vector3::zeros())),
                    dt,
                );
            }
        }
        for m in self.moves.drain(..) {
            let Ok(start) = self.level.pose(m.key) else {
                continue;
            };
            let d = m.target.translation.vector - start.translation.vector;
            let (linear, angular, start) = match m.velocity {
                Some((l, a)) => (l, a, start),
                None if d.norm() > MAX_KINEMATIC_SPEED * dt => {
                    (Vector3::zeros(), Vector3::zeros(), m.target)
                }
                None => {
                    let r = m.target.rotation * start.rotation.inverse();
                    (d / dt, r.scaled_axis() / dt, start)
                }
            };
            out.push(FrameMove {
                key: m.key,
                start,
                target: m.target,
                linear,
                angular,
            });
        }
    }

    /// Places the frame's kinematic colliders at fraction `s` of the frame.
    pub(super) fn place_moves(&mut self, moves: &[FrameMove], s: f64) {
        for m in moves {
            let pose = m.start.lerp_slerp(&m.target, s);
            let _ = self
                .level
                .set_kinematic_pose(m.key, pose, Some((m.linear, m.angular)), 1.0);
        }
    }
}

/// The contacts of a character's capsules with the level: for a kinematic root, its capsules against the
/// kinematic colliders (the clip's root goes through static geometry anyway); for a free root, against every
/// collider where the touch is away from the capsule's ends (its probes hold the ends). Appends the contacts and,
/// for each, the collider.
pub(super) fn capsule_contacts(
    c: &Character,
    level: &Level,
    h: f64,
    points: &mut Vec<ContactPoint>,
    colliders: &mut Vec<ColliderKey>,
) {
    if level.is_empty() {
        return;
    }
    let free = c.root_policy().is_free();
    let friction = c.prepared().root_config().ground.friction;
    let (layers, mask) = c.level_layers();
    let reach = CAPSULE_MARGIN_M + level.max_speed() * h;
    // A free root's feet stand on their sole points (probes), not on capsule contacts.
    let sole = |b: usize| {
        c.ground()
            .is_some_and(|g| g.points.iter().any(|p| p.body == b))
    };
    for cap in world_capsules(c).filter(|cap| !(free && sole(cap.body))) {
        let (a, z, b) = (cap.a, cap.b, cap.body);
        let capsule = Capsule::new(to_vec(&a), to_vec(&z), cap.radius);
        let identity = to_pose(&Isometry3::identity());
        let aabb: Aabb = capsule_aabb(&a, &z, cap.radius).loosened(reach);
        level.near(&aabb, |i, e| {
            if e.layers & mask == 0 || e.mask & layers == 0 {
                return;
            }
            let kinematic = e.motion != Motion::Static;
            if !free && !kinematic {
                return;
            }
            // The capsule's closest axis point to the collider, then that sphere probed like a free root's
            // (a mesh is solid under its faces: a limb dipped into a floor is pushed up).
            let prediction = CAPSULE_MARGIN_M + e.speed * h;
            let Ok(Some(hit)) = parry3d_f64::query::contact(
                &to_pose(&e.pose),
                e.shape.as_ref(),
                &identity,
                &capsule,
                prediction,
            ) else {
                return;
            };
            let axis = z - a;
            let len2 = axis.norm_squared();
            let s = if len2 > 0.0 {
                ((from_vec(hit.point2) - a).dot(&axis) / len2).clamp(0.0, 1.0)
            } else {
                0.5
            };
            if free && !(END_FRACTION..=1.0 - END_FRACTION).contains(&s) {
                return;
            }
            let centre = a + axis * s;
            let Some(t) = level.probe_entry(i, e, (&centre, cap.radius), CAPSULE_MARGIN_M, h, None)
            else {
                return;
            };
            points.push(t.contact_point(b, friction));
            colliders.push(t.collider);
        });
    }
}

/// The box of a capsule (world).
fn capsule_aabb(a: &Vector3<f64>, z: &Vector3<f64>, r: f64) -> Aabb {
    let lo = a.inf(z) - Vector3::repeat(r);
    let hi = a.sup(z) + Vector3::repeat(r);
    Aabb::new(to_vec(&lo), to_vec(&hi))
}
