//! The game's world: static and kinematic colliders a character stands on, falls against and is hit by.
//!
//! A [`Level`] holds colliders (planes at any angle, boxes, spheres, capsules, convex hulls, triangle meshes and
//! height fields, as parry shapes) under generational [`ColliderKey`]s, in a bounding-volume hierarchy (parry's
//! [`Bvh`]) so a query touches only the colliders near it; a triangle mesh has its own hierarchy inside, so a level
//! of 10⁵ triangles costs a few node visits per query. The level does no dynamics: characters meet it through
//! contacts of their own LCP ([`Level::probe`]: a body's probe spheres against the colliders), and the game
//! moves kinematic colliders ([`Level::set_kinematic_pose`]), whose velocity the contacts see (infinite mass).
//!
//! Loading a level from a glTF/GLB file is [`load`]; ray casts and sphere sweeps are [`Level::cast_ray`] and
//! [`Level::cast_sphere`] (the scene adds the characters: `Scene::cast_ray`). See `docs/world.md`.

mod collider;
pub mod load;
mod probe;
mod probe_memory;
mod query;
pub mod sample;
mod shape;
mod write;

pub(crate) use collider::Entry;
pub use collider::{
    Bounds, ColliderDesc, ColliderKey, LevelError, LevelTouch, MAX_KINEMATIC_SPEED, Motion,
};
use collider::{bounded_aabb, speed_bound};
pub use load::{LevelFile, LevelLoadError, LoadOptions, Simplify, load_level, load_level_file};
pub use probe_memory::ProbeMemory;
pub use query::LevelRayHit;
pub(crate) use query::{checked_ray, checked_sweep};
pub use shape::{LevelShape, MeshReport};
pub use write::{LevelMesh, level_glb};

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use nalgebra::{Isometry3, Vector3};
use parry3d_f64::bounding_volume::Aabb;
use parry3d_f64::partitioning::Bvh;

use crate::contact::collision::shape::{finite_isometry, from_vec};
use crate::scene::slab::{RawKey, Slab};

/// Each new level's keys start at a different generation.
static NEXT_LEVEL: AtomicU32 = AtomicU32::new(1);

/// Revisions of levels (every change to any level takes the next: two levels, clones included, share one only
/// while their colliders are the same).
static NEXT_REVISION: AtomicU64 = AtomicU64::new(1);

fn next_revision() -> u64 {
    NEXT_REVISION.fetch_add(1, Ordering::Relaxed)
}

/// The game's world: colliders, their bounding-volume hierarchy, and the limits of what may be added.
#[derive(Debug, Clone)]
pub struct Level {
    entries: Slab<Entry>,
    bvh: Bvh,
    /// Slots of planes (unbounded: outside the hierarchy, tested by every query).
    planes: Vec<u32>,
    triangles: usize,
    max_triangles: usize,
    /// The largest [`Entry::speed`].
    max_speed: f64,
    /// Slots of the kinematic colliders (the only ones with a speed).
    kinematic: Vec<u32>,
    /// How many colliders are static.
    statics: usize,
    /// Changes with every collider added, moved or removed (what a [`ProbeMemory`] checks its colliders by).
    revision: u64,
}

impl Default for Level {
    fn default() -> Self {
        Level::new()
    }
}

impl Level {
    /// An empty level (at most [`crate::io::Limits::DEFAULT`]'s `max_triangles` triangles in all).
    pub fn new() -> Level {
        let base = NEXT_LEVEL
            .fetch_add(1, Ordering::Relaxed)
            .wrapping_mul(1 << 16);
        Level {
            entries: Slab::with_generation_base(base),
            bvh: Bvh::new(),
            planes: Vec::new(),
            triangles: 0,
            max_triangles: crate::io::Limits::DEFAULT.max_triangles,
            max_speed: 0.0,
            kinematic: Vec::new(),
            statics: 0,
            revision: next_revision(),
        }
    }

    /// Sets the most triangles the level may hold in all (meshes and height fields).
    pub fn set_max_triangles(&mut self, max: usize) {
        self.max_triangles = max;
    }

    /// Number of colliders.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the level holds no collider.
    pub fn is_empty(&self) -> bool {
        self.entries.len() == 0
    }

    /// Whether the level holds a static collider: then it is a character's ground, in place of the flat floor
    /// fitted to its clip (a level of kinematic colliders only, a bat, is not ground).
    pub fn has_static(&self) -> bool {
        self.statics > 0
    }

    /// Triangles held by meshes and height fields.
    pub fn triangle_count(&self) -> usize {
        self.triangles
    }

    /// Adds a collider; returns its key and, for a mesh, what was dropped or found (degenerate triangles,
    /// non-manifold and boundary edges: a soup is usable).
    pub fn add(&mut self, desc: ColliderDesc) -> Result<(ColliderKey, MeshReport), LevelError> {
        let arg = |what: String| {
            Err(LevelError::Argument(format!(
                "collider '{}': {what}",
                desc.name
            )))
        };
        if !finite_isometry(&desc.pose) {
            return arg(format!("non-finite pose {:?}", desc.pose));
        }
        if let Some(mu) = desc.friction
            && !(mu.is_finite() && mu >= 0.0)
        {
            return arg(format!("friction {mu} must be finite and ≥ 0"));
        }
        if !(0.0..=1.0).contains(&desc.restitution) {
            return arg(format!(
                "restitution {} must be in [0, 1]",
                desc.restitution
            ));
        }
        if let Motion::Kinematic { linear, angular } = desc.motion
            && !linear.iter().chain(angular.iter()).all(|x| x.is_finite())
        {
            return arg("non-finite kinematic velocity".into());
        }
        let budget = self.max_triangles.saturating_sub(self.triangles);
        let (shape, report) = desc.shape.build(budget).map_err(|e| match e {
            LevelError::Shape(what) => {
                LevelError::Shape(format!("collider '{}': {what}", desc.name))
            }
            other => other,
        })?;
        let triangles = desc.shape.triangles() - report.degenerate;
        let mut entry = Entry {
            shape,
            pose: desc.pose,
            friction: desc.friction,
            restitution: desc.restitution,
            layers: desc.layers,
            mask: desc.mask,
            motion: desc.motion,
            name: desc.name,
            aabb: None,
            triangles,
            speed: 0.0,
        };
        entry.aabb = bounded_aabb(&entry);
        entry.speed = speed_bound(&entry);
        let key = self.entries.insert(entry);
        self.triangles += triangles;
        match desc.motion {
            Motion::Static => self.statics += 1,
            Motion::Kinematic { .. } => self.kinematic.push(key.index),
        }
        self.place(key.index);
        Ok((ColliderKey(key), report))
    }

    /// Removes a collider. A character touching it falls through from the next step (its contacts are found
    /// again every step).
    pub fn remove(&mut self, key: ColliderKey) -> Result<(), LevelError> {
        let entry = self
            .entries
            .remove(key.0)
            .ok_or(LevelError::StaleCollider(key.to_raw()))?;
        self.triangles -= entry.triangles;
        match entry.motion {
            Motion::Static => self.statics -= 1,
            Motion::Kinematic { .. } => self.kinematic.retain(|&i| i != key.0.index),
        }
        self.update_max_speed();
        self.revision = next_revision();
        if entry.aabb.is_some() {
            self.bvh.remove(key.0.index);
        } else {
            self.planes.retain(|&i| i != key.0.index);
        }
        Ok(())
    }

    /// Removes every collider.
    pub fn clear(&mut self) {
        let keys: Vec<RawKey> = self.entries.iter().map(|(k, _)| k).collect();
        for k in keys {
            let _ = self.remove(ColliderKey(k));
        }
    }

    /// The colliders' keys, in slot order.
    pub fn keys(&self) -> impl Iterator<Item = ColliderKey> + '_ {
        self.entries.iter().map(|(k, _)| ColliderKey(k))
    }

    fn entry(&self, key: ColliderKey) -> Result<&Entry, LevelError> {
        self.entries
            .get(key.0)
            .ok_or(LevelError::StaleCollider(key.to_raw()))
    }

    /// A collider's pose.
    pub fn pose(&self, key: ColliderKey) -> Result<Isometry3<f64>, LevelError> {
        Ok(self.entry(key)?.pose)
    }

    /// A collider's name.
    pub fn name(&self, key: ColliderKey) -> Result<&str, LevelError> {
        Ok(&self.entry(key)?.name)
    }

    /// A collider's motion (its velocity when kinematic).
    pub fn motion(&self, key: ColliderKey) -> Result<Motion, LevelError> {
        Ok(self.entry(key)?.motion)
    }

    /// A collider's world bounding box (min, max); `None` for a plane.
    pub fn bounds(&self, key: ColliderKey) -> Result<Option<Bounds>, LevelError> {
        Ok(self
            .entry(key)?
            .aabb
            .map(|b| (from_vec(b.mins).into(), from_vec(b.maxs).into())))
    }

    /// Moves a kinematic collider to `pose` over the coming `dt` seconds (a game frame): with `velocity`
    /// (linear, angular; world) given, contacts see that velocity; without, it is taken from the motion from the
    /// last pose (a jump faster than [`MAX_KINEMATIC_SPEED`] is a teleport, at zero velocity). A static
    /// collider is refused.
    pub fn set_kinematic_pose(
        &mut self,
        key: ColliderKey,
        pose: Isometry3<f64>,
        velocity: Option<(Vector3<f64>, Vector3<f64>)>,
        dt: f64,
    ) -> Result<(), LevelError> {
        self.check_kinematic_pose(key, &pose, velocity)?;
        if velocity.is_none() && !(dt.is_finite() && dt > 0.0) {
            return Err(LevelError::Argument(format!(
                "a velocity taken from the motion needs a positive frame time, got {dt}"
            )));
        }
        let entry = self
            .entries
            .get_mut(key.0)
            .ok_or(LevelError::StaleCollider(key.to_raw()))?;
        let (linear, angular) = velocity.unwrap_or_else(|| {
            let d = pose.translation.vector - entry.pose.translation.vector;
            if d.norm() > MAX_KINEMATIC_SPEED * dt {
                return (Vector3::zeros(), Vector3::zeros());
            }
            let r = pose.rotation * entry.pose.rotation.inverse();
            (d / dt, r.scaled_axis() / dt)
        });
        entry.motion = Motion::Kinematic { linear, angular };
        entry.pose = pose;
        entry.aabb = bounded_aabb(entry);
        entry.speed = speed_bound(entry);
        self.place(key.0.index);
        self.update_max_speed();
        Ok(())
    }

    /// Whether `pose` and `velocity` may be given to the kinematic collider `key` (live, kinematic, finite).
    pub fn check_kinematic_pose(
        &self,
        key: ColliderKey,
        pose: &Isometry3<f64>,
        velocity: Option<(Vector3<f64>, Vector3<f64>)>,
    ) -> Result<(), LevelError> {
        if !finite_isometry(pose) {
            return Err(LevelError::Argument(format!(
                "non-finite kinematic pose {pose:?}"
            )));
        }
        if let Some((l, a)) = velocity
            && !l.iter().chain(a.iter()).all(|x| x.is_finite())
        {
            return Err(LevelError::Argument("non-finite kinematic velocity".into()));
        }
        let entry = self.entry(key)?;
        if entry.motion == Motion::Static {
            return Err(LevelError::Argument(format!(
                "collider '{}' is static; add it with ColliderDesc::kinematic to move it",
                entry.name
            )));
        }
        Ok(())
    }

    /// A collider's restitution and its velocity at `point` (m/s, world).
    pub fn surface_at(
        &self,
        key: ColliderKey,
        point: &Vector3<f64>,
    ) -> Result<(f64, Vector3<f64>), LevelError> {
        let e = self.entry(key)?;
        Ok((e.restitution, e.point_velocity(point)))
    }

    /// The static colliders alone, as a copy: the ground a clip is adapted to when it is prepared to walk over
    /// the level ([`crate::control::PreparedClip::on_terrain`]). Kinematic colliders (a bat, a door, a platform)
    /// are left out: they move, the adapted clip is made once. An error when no collider is static (nothing to
    /// walk on).
    pub fn static_ground(&self) -> Result<Level, LevelError> {
        if !self.has_static() {
            return Err(LevelError::Argument(
                "the level holds no static collider: no ground to adapt a clip to".into(),
            ));
        }
        let mut ground = self.clone();
        let kinematic: Vec<ColliderKey> = ground.kinematic_keys().collect();
        for key in kinematic {
            ground.remove(key)?;
        }
        Ok(ground)
    }

    /// The keys of the kinematic colliders.
    pub fn kinematic_keys(&self) -> impl Iterator<Item = ColliderKey> + '_ {
        self.kinematic.iter().map(|&i| self.key_of(i))
    }

    /// A bound on how fast a collider's points move (m/s; 0 for a static or resting one, or a stale key).
    pub fn surface_speed(&self, key: ColliderKey) -> f64 {
        self.entries.get(key.0).map_or(0.0, |e| e.speed)
    }

    /// Recomputes the speed bound over the kinematic colliders.
    fn update_max_speed(&mut self) {
        self.max_speed = self
            .kinematic
            .iter()
            .filter_map(|&i| self.entries.get_by_index(i))
            .map(|e| e.speed)
            .fold(0.0, f64::max);
    }

    /// The fastest any collider's point moves (m/s).
    pub(crate) fn max_speed(&self) -> f64 {
        self.max_speed
    }

    /// Puts slot `index` into the hierarchy (or the plane list) at its current box.
    fn place(&mut self, index: u32) {
        let Some(entry) = self.entries.get_by_index(index) else {
            return;
        };
        self.revision = next_revision();
        match entry.aabb {
            Some(aabb) => self.bvh.insert(aabb, index),
            None => {
                if !self.planes.contains(&index) {
                    self.planes.push(index);
                }
            }
        }
    }

    /// Calls `visit` for every collider whose box meets `aabb` (and every plane), with its slot index.
    pub(crate) fn near(&self, aabb: &Aabb, mut visit: impl FnMut(u32, &Entry)) {
        for &i in &self.planes {
            if let Some(e) = self.entries.get_by_index(i) {
                visit(i, e);
            }
        }
        for i in self.bvh.intersect_aabb(aabb) {
            if let Some(e) = self.entries.get_by_index(i) {
                visit(i, e);
            }
        }
    }

    /// [`Level::near`] through a probe's memory of the colliders near it: the same colliders in the same order
    /// (planes, then the hierarchy's order), from the kept ones while they cover `aabb` in this revision.
    fn near_remembering(
        &self,
        aabb: &Aabb,
        memory: &mut probe_memory::NearColliders,
        mut visit: impl FnMut(u32, &Entry),
    ) {
        let Some(slots) = memory.covering(&self.bvh, self.revision, aabb) else {
            return self.near(aabb, visit);
        };
        for &i in &self.planes {
            if let Some(e) = self.entries.get_by_index(i) {
                visit(i, e);
            }
        }
        for &i in slots {
            // The hierarchy's leaf test: boxes meet, boundaries included.
            if let Some(e) = self.entries.get_by_index(i)
                && e.aabb
                    .is_some_and(|b| b.mins.cmple(aabb.maxs).all() && b.maxs.cmpge(aabb.mins).all())
            {
                visit(i, e);
            }
        }
    }

    /// The key of slot `index` (live).
    pub(crate) fn key_of(&self, index: u32) -> ColliderKey {
        ColliderKey(self.entries.key_of(index))
    }
}

#[cfg(test)]
mod tests;
