//! A level's colliders: their keys, descriptions, motion and errors, what the level keeps of each, and the
//! contact a probe makes with one.

use nalgebra::{Isometry3, Point3, Vector3};
use parry3d_f64::bounding_volume::{Aabb, BoundingVolume};
use parry3d_f64::shape::SharedShape;

use super::LevelShape;
use super::probe::MAX_DEPTH;
use crate::contact::collision::shape::{from_vec, to_pose};
use crate::scene::slab::RawKey;

/// Identifies a collider of a [`Level`](super::Level); stale once removed (an error, never another collider). Keys of different
/// levels start at different generations, so a key from another level is refused too (unless that level has
/// reused one slot 2¹⁶ times).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ColliderKey(pub(super) RawKey);

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
    /// Moved by the game each frame ([`Level::set_kinematic_pose`](super::Level::set_kinematic_pose)): a swung bat, a door, a platform. Infinite
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

/// One contact between a character's probe sphere and a collider (see [`Level::probe`](super::Level::probe)).
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

/// A bound on the speed of the collider's points: |v| + |ω|·(the farthest corner of its box from its origin).
pub(super) fn speed_bound(entry: &Entry) -> f64 {
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
pub(super) fn bounded_aabb(entry: &Entry) -> Option<Aabb> {
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
