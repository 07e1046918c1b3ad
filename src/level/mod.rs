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

pub mod load;
mod query;
pub mod sample;
mod shape;
mod write;

pub use load::{LevelFile, LevelLoadError, LoadOptions, Simplify, load_level, load_level_file};
pub use query::LevelRayHit;
pub(crate) use query::{checked_ray, checked_sweep};
pub use shape::{LevelShape, MeshReport};
pub use write::{LevelMesh, level_glb};

use std::sync::atomic::{AtomicU32, Ordering};

use nalgebra::{Isometry3, Point3, Vector3};
use parry3d_f64::bounding_volume::{Aabb, BoundingVolume};
use parry3d_f64::partitioning::Bvh;
use parry3d_f64::query::PointQueryWithLocation;
use parry3d_f64::shape::{Ball, SharedShape};

use crate::contact::collision::shape::{finite_isometry, from_vec, to_pose, to_vec};
use crate::scene::slab::{RawKey, Slab};

/// Identifies a collider of a [`Level`]; stale once removed (an error, never another collider). Keys of different
/// levels start at different generations, so a key from another level is refused too (unless that level has
/// reused one slot 2¹⁶ times).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ColliderKey(RawKey);

impl ColliderKey {
    /// The key as one integer (for handles crossing the C ABI); never 0.
    pub fn to_raw(self) -> u64 {
        self.0.to_raw()
    }

    /// A key from [`Self::to_raw`]; any integer is accepted (unknown ones are stale).
    pub fn from_raw(raw: u64) -> ColliderKey {
        ColliderKey(RawKey::from_raw(raw))
    }
}

/// A box's (min, max) corners (world).
pub type Bounds = (Point3<f64>, Point3<f64>);

/// How a collider moves.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Motion {
    /// Never moves (a floor, a wall, a stair).
    Static,
    /// Moved by the game each frame ([`Level::set_kinematic_pose`]): a swung bat, a door, a platform. Infinite
    /// mass: contacts push characters with its velocity and never slow it.
    Kinematic {
        /// Linear velocity of the collider origin (m/s, world).
        linear: Vector3<f64>,
        /// Angular velocity (rad/s, world).
        angular: Vector3<f64>,
    },
}

/// A collider to add: shape, pose and surface.
#[derive(Debug, Clone, PartialEq)]
pub struct ColliderDesc {
    /// The shape, in the collider frame.
    pub shape: LevelShape,
    /// The collider frame in the world.
    pub pose: Isometry3<f64>,
    /// Coulomb friction μ ≥ 0; `None`: each character's own ground friction (`GroundConfig::friction`).
    pub friction: Option<f64>,
    /// Newton restitution in [0, 1] (default 0).
    pub restitution: f64,
    /// Membership bits: the collider touches a character when `layers & character_mask != 0` and
    /// `mask & character_layers != 0` (default all bits, touching everything).
    pub layers: u32,
    /// The character layers this collider touches (default all).
    pub mask: u32,
    /// Static or kinematic.
    pub motion: Motion,
    /// A name (from the level file's mesh or node), for messages and events.
    pub name: String,
}

impl ColliderDesc {
    /// A static collider of `shape` at `pose`, the characters' friction, no restitution, every layer.
    pub fn new(shape: LevelShape, pose: Isometry3<f64>) -> ColliderDesc {
        ColliderDesc {
            shape,
            pose,
            friction: None,
            restitution: 0.0,
            layers: u32::MAX,
            mask: u32::MAX,
            motion: Motion::Static,
            name: String::new(),
        }
    }

    /// The same collider, kinematic (at rest until the game moves it).
    pub fn kinematic(mut self) -> ColliderDesc {
        self.motion = Motion::Kinematic {
            linear: Vector3::zeros(),
            angular: Vector3::zeros(),
        };
        self
    }

    /// The same collider with a name (builder style).
    pub fn named(mut self, name: impl Into<String>) -> ColliderDesc {
        self.name = name.into();
        self
    }
}

/// What went wrong with a level.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LevelError {
    /// A shape was refused (what and why).
    #[error("shape: {0}")]
    Shape(String),
    /// A collider setting was refused.
    #[error("{0}")]
    Argument(String),
    /// The key was removed, or belongs to another level.
    #[error("stale collider key {0:#x}: removed, or from another level")]
    StaleCollider(u64),
}

/// A collider as the level keeps it.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub shape: SharedShape,
    pub pose: Isometry3<f64>,
    pub friction: Option<f64>,
    pub restitution: f64,
    pub layers: u32,
    pub mask: u32,
    pub motion: Motion,
    pub name: String,
    /// The world bounding box (`None`: a plane, unbounded).
    pub aabb: Option<Aabb>,
    pub triangles: usize,
    /// A bound on the speed of any of its points (m/s; 0 when static).
    pub speed: f64,
}

impl Entry {
    /// The velocity (m/s, world) of the collider's material point at `p`.
    pub(crate) fn point_velocity(&self, p: &Vector3<f64>) -> Vector3<f64> {
        match self.motion {
            Motion::Static => Vector3::zeros(),
            Motion::Kinematic { linear, angular } => {
                linear + angular.cross(&(p - self.pose.translation.vector))
            }
        }
    }
}

/// One contact between a character's probe sphere and a collider (see [`Level::probe`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LevelTouch {
    /// The collider.
    pub collider: ColliderKey,
    /// The deepest point of the probe sphere toward the collider (world).
    pub point: Vector3<f64>,
    /// The collider's closest point (world).
    pub other_point: Vector3<f64>,
    /// Unit normal from the collider toward the probe (world).
    pub normal: Vector3<f64>,
    /// Signed gap (m) along the normal: negative when the probe is inside.
    pub gap: f64,
    /// The collider's friction (`None`: the character's own).
    pub friction: Option<f64>,
    /// The collider's restitution.
    pub restitution: f64,
    /// The collider's velocity at `other_point` (m/s; zero for a static collider).
    pub velocity: Vector3<f64>,
    /// Whether the collider is kinematic (moved by the game).
    pub kinematic: bool,
}

impl LevelTouch {
    /// The contact of `body` (a world body index) for the step: static, or moving with the collider's velocity;
    /// the collider's friction or `friction` when it has none.
    pub fn contact_point(&self, body: usize, friction: f64) -> crate::dynamics::ContactPoint {
        crate::dynamics::ContactPoint {
            body,
            other: if self.kinematic {
                crate::dynamics::ContactOther::Moving {
                    velocity: self.velocity,
                }
            } else {
                crate::dynamics::ContactOther::Static
            },
            point: self.point,
            other_point: self.other_point,
            normal: self.normal,
            friction: self.friction.unwrap_or(friction),
            restitution: self.restitution,
        }
    }
}

/// The most a kinematic collider may move per second when its velocity is taken from its motion (m/s): a larger
/// jump is a teleport, done at zero velocity (a door set open, a platform reset), not a 12 km/s hit.
pub const MAX_KINEMATIC_SPEED: f64 = 50.0;

/// The smallest probe radius given to parry (m): a sole point (radius 0) is probed as a sphere this small and the
/// contact moved back onto the point, which is exact (the closest point to the centre does not depend on it).
const MIN_PROBE_RADIUS: f64 = 1e-4;

/// How deep inside a collider [`Level::probe_depth`] looks (m): a probe is found by [`Level::probe`] within its
/// margin of a surface, on either side (a mesh tells the sides by its pseudo-normals), and speculative margins keep
/// bodies from getting deeper.
const MAX_DEPTH: f64 = 0.1;

/// Each new level's keys start at a different generation.
static NEXT_LEVEL: AtomicU32 = AtomicU32::new(1);

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

    /// The key of slot `index` (live).
    pub(crate) fn key_of(&self, index: u32) -> ColliderKey {
        ColliderKey(self.entries.key_of(index))
    }

    /// The contacts of a probe sphere (centre `centre`, world; `radius` ≥ 0, 0 for a point) with the colliders
    /// within `margin` of it whose layers meet the character's (`layers`, `mask`): for each collider, its closest
    /// point to the probe. This is the flat floor's contact generalised: against a horizontal plane at height y it
    /// gives the point below the centre, the point (x, y, z) and the normal +Y.
    ///
    /// A kinematic collider is probed `h` seconds further out, by how far it can move in a step of `h`
    /// (speculative contacts: a swung bat is met before it passes through).
    pub fn probe(
        &self,
        centre: &Vector3<f64>,
        radius: f64,
        margin: f64,
        h: f64,
        (layers, mask): (u32, u32),
        mut out: impl FnMut(LevelTouch),
    ) {
        let r = radius.max(MIN_PROBE_RADIUS);
        let reach = r + margin + self.max_speed * h;
        let c = to_vec(centre);
        let aabb = Aabb::new(
            c - parry3d_f64::math::Vector::splat(reach),
            c + parry3d_f64::math::Vector::splat(reach),
        );
        self.near(&aabb, |i, e| {
            if e.layers & mask == 0 || e.mask & layers == 0 {
                return;
            }
            if let Some(t) = self.probe_entry(i, e, centre, radius, margin, h) {
                out(t);
            }
        });
    }

    /// The contact of a probe sphere with the collider in slot `index` (see [`Level::probe`]).
    pub(crate) fn probe_entry(
        &self,
        index: u32,
        e: &Entry,
        centre: &Vector3<f64>,
        radius: f64,
        margin: f64,
        h: f64,
    ) -> Option<LevelTouch> {
        let r = radius.max(MIN_PROBE_RADIUS);
        let prediction = margin + (r - radius) + e.speed * h;
        let (other_point, normal) = surface_near(e, centre, r, r + prediction)?;
        let point = centre - normal * radius;
        Some(LevelTouch {
            collider: self.key_of(index),
            point,
            other_point,
            normal,
            gap: normal.dot(&(point - other_point)),
            friction: e.friction,
            restitution: e.restitution,
            velocity: e.point_velocity(&other_point),
            kinematic: e.motion != Motion::Static,
        })
    }

    /// The deepest a probe sphere sits inside the colliders it may touch (m, ≥ 0).
    pub fn probe_depth(&self, centre: &Vector3<f64>, radius: f64, layers: (u32, u32)) -> f64 {
        let mut depth: f64 = 0.0;
        self.probe(centre, radius, MAX_DEPTH, 0.0, layers, |t| {
            depth = depth.max(-t.gap)
        });
        depth
    }
}

/// The closest point of a collider to a probe sphere (centre `centre`, `radius` > 0) within `reach` of the
/// centre, and the unit normal there from the collider toward the probe.
fn surface_near(
    e: &Entry,
    centre: &Vector3<f64>,
    radius: f64,
    reach: f64,
) -> Option<(Vector3<f64>, Vector3<f64>)> {
    if let Some(plane) = e.shape.as_halfspace() {
        // A plane, analytically: the flat floor's arithmetic (the foot of the centre, the normal).
        let n = e.pose.rotation * from_vec(plane.normal);
        let d = n.dot(&(centre - e.pose.translation.vector));
        return (d <= reach).then(|| (centre - n * d, n));
    }
    let pose = to_pose(&e.pose);
    if let Some(mesh) = e.shape.as_trimesh() {
        // parry's contact with a triangle takes the side the centre is on; an oriented mesh is solid behind its
        // faces, so a probe under a floor is pushed up, not through.
        let local = e
            .pose
            .inverse_transform_point(&Point3::from(*centre))
            .coords;
        let query = |max: f64| {
            mesh.project_local_point_and_get_location_with_max_dist(to_vec(&local), false, max)
        };
        // Within reach on either side; else, a centre that may be under the surface (in the mesh's box, grown by
        // `MAX_DEPTH`) is looked for deeper, and kept only if inside.
        let oriented = mesh.pseudo_normals_if_oriented().is_some();
        let (proj, (tri, _)) = match query(reach) {
            Some(found) => found,
            None if oriented
                && reach < MAX_DEPTH
                && e.aabb
                    .is_some_and(|b| b.contains_local_point(to_vec(centre))) =>
            {
                query(MAX_DEPTH).filter(|(p, _)| p.is_inside)?
            }
            None => return None,
        };
        let foot = from_vec(proj.point);
        let d = local - foot;
        let dist = d.norm();
        let inside = oriented && proj.is_inside;
        if !inside && dist > reach {
            return None;
        }
        let face = from_vec(mesh.triangle(tri).normal()?);
        let n = if dist > 1e-9 * (1.0 + local.norm()) {
            if inside { -d / dist } else { d / dist }
        } else {
            face
        };
        return Some(((e.pose * Point3::from(foot)).coords, e.pose.rotation * n));
    }
    let ball = Ball::new(radius);
    let ball_pose = to_pose(&Isometry3::translation(centre.x, centre.y, centre.z));
    let hit =
        parry3d_f64::query::contact(&pose, e.shape.as_ref(), &ball_pose, &ball, reach - radius)
            .ok()??;
    let normal = from_vec(hit.normal1);
    (normal.iter().all(|x| x.is_finite()) && normal.norm_squared() > 0.5)
        .then(|| (from_vec(hit.point1), normal))
}

/// A bound on the speed of the collider's points: |v| + |ω|·(the farthest corner of its box from its origin).
fn speed_bound(entry: &Entry) -> f64 {
    let Motion::Kinematic { linear, angular } = entry.motion else {
        return 0.0;
    };
    let reach = entry.aabb.map_or(0.0, |b| {
        let o = entry.pose.translation.vector;
        let lo = from_vec(b.mins) - o;
        let hi = from_vec(b.maxs) - o;
        lo.abs().sup(&hi.abs()).norm()
    });
    linear.norm() + angular.norm() * reach
}

/// The world box of a bounded collider; `None` for a plane.
fn bounded_aabb(entry: &Entry) -> Option<Aabb> {
    if entry.shape.as_halfspace().is_some() {
        return None;
    }
    let aabb = entry.shape.compute_aabb(&to_pose(&entry.pose));
    // A mesh's box is grown by `MAX_DEPTH`: a probe under a flat floor (whose box has no depth) is still near it.
    Some(if entry.shape.as_trimesh().is_some() {
        aabb.loosened(MAX_DEPTH)
    } else {
        aabb
    })
}

#[cfg(test)]
mod tests;
