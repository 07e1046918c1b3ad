//! Collision detection (Cline §4.4.2, §6.3 of the seed digest): contacts between body shapes (spheres,
//! capsules, boxes), projectiles and a ground plane, within a contact tolerance ε.
//!
//! The narrow phase is parry's (`parry3d-f64`) persistent contact manifolds
//! ([`parry3d_f64::query::PersistentQueryDispatcher::contact_manifolds`]), not its single-point `contact()`:
//! a box face on the ground needs its 4 corners and a capsule lying on the ground its 2 ends (Cline: closest-point
//! detectors are inadequate for face–face and edge–face contact). The manifolds are kept per collider pair in a
//! [`CollisionWorld`] and passed back to parry on the next call, so contacts keep their feature ids and a
//! persistent [`Contact::id`] while the pair stays in contact. See `docs/contact.md`.

mod filter;
pub(crate) mod shape;
mod world;

pub use filter::PairFilter;
pub use shape::{Collider, Shape};
pub use world::CollisionWorld;

use nalgebra::{Point3, Vector3};
use parry3d_f64::shape::{FeatureId, PackedFeatureId};

/// A geometric feature of a shape (parry's numbering: a box's vertices 0–7, edges 0–11, faces 0–5; a capsule's
/// or sphere's surface is a face; a half-space is face 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Feature {
    /// A vertex.
    Vertex(u32),
    /// An edge.
    Edge(u32),
    /// A face.
    Face(u32),
    /// Not known.
    Unknown,
}

impl Feature {
    fn from_packed(id: PackedFeatureId) -> Feature {
        match id.unpack() {
            FeatureId::Vertex(v) => Feature::Vertex(v),
            FeatureId::Edge(e) => Feature::Edge(e),
            FeatureId::Face(f) => Feature::Face(f),
            _ => Feature::Unknown,
        }
    }
}

/// One contact point between colliders `colliders.0` (side a) and `colliders.1` (side b).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Contact {
    /// Body of side a (`None`: static).
    pub a: Option<usize>,
    /// Body of side b (`None`: static).
    pub b: Option<usize>,
    /// The collider pair (a's index < b's index): the pair id.
    pub colliders: (usize, usize),
    /// Index of the pair's manifold holding the point (0 for the convex shapes here).
    pub manifold: usize,
    /// Contact point in the world: midway between `point_a` and `point_b`.
    pub point: Point3<f64>,
    /// Witness point on a's surface (world).
    pub point_a: Point3<f64>,
    /// Witness point on b's surface (world).
    pub point_b: Point3<f64>,
    /// Unit normal from a to b (a's outward normal). Cline's n points from B toward A: his A is our b.
    pub normal: Vector3<f64>,
    /// Penetration depth along the normal (m): positive when overlapping, negative when separated (≥ −ε).
    pub depth: f64,
    /// The feature of a's shape at the contact.
    pub feature_a: Feature,
    /// The feature of b's shape at the contact.
    pub feature_b: Feature,
    /// Persistent id: kept from call to call while the same features stay in contact (never 0).
    pub id: u64,
}

/// Invalid input to collision detection (never a panic).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CollisionError {
    /// A shape with a non-finite or non-positive size, or a zero normal.
    #[error("invalid shape parameters")]
    InvalidShape,
    /// Collider `0` has an invalid shape.
    #[error("collider {0}: invalid shape (non-finite or non-positive size, or zero normal)")]
    Shape(usize),
    /// A collider's local pose or its body's frame is not finite.
    #[error("collider {collider}: non-finite pose")]
    NonFinitePose {
        /// The collider.
        collider: usize,
    },
    /// A collider names a body beyond the frames given.
    #[error("collider {collider}: body {body} out of range ({bodies} body frames)")]
    BodyOutOfRange {
        /// The collider.
        collider: usize,
        /// Its body.
        body: usize,
        /// Number of body frames given.
        bodies: usize,
    },
    /// The tolerance is negative or not finite.
    #[error("contact tolerance {0} must be finite and ≥ 0")]
    InvalidTolerance(f64),
}

#[cfg(test)]
mod tests;
