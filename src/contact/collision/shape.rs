//! Collision shapes and colliders, their validation and their conversion to parry shapes.

use nalgebra::{Isometry3, Point3, Translation3, Vector3};
use parry3d_f64::math::{Pose, Rot3, Vector as DVec3};
use parry3d_f64::shape::{Ball, Capsule, Cuboid, HalfSpace};

use super::CollisionError;

/// A collision shape, in its collider's frame (metres).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Shape {
    /// A ball of `radius` centred on the collider origin.
    Sphere {
        /// Radius (m), > 0.
        radius: f64,
    },
    /// The points within `radius` of the segment `a`–`b` (a sphere when a = b), the shape of
    /// [`crate::model::Capsule`].
    Capsule {
        /// One end of the axis segment (collider frame).
        a: Point3<f64>,
        /// The other end (collider frame).
        b: Point3<f64>,
        /// Radius (m), > 0.
        radius: f64,
    },
    /// A box centred on the collider origin with its edges along the collider axes.
    Cuboid {
        /// Half edge lengths along x, y, z (m), each > 0.
        half_extents: Vector3<f64>,
    },
    /// The solid half-space `{x : n·(x − point) ≤ 0}` below the plane through `point` with outward normal `n`:
    /// a ground plane.
    HalfSpace {
        /// A point on the boundary plane (collider frame).
        point: Point3<f64>,
        /// Outward normal (collider frame); normalised on use, must be nonzero.
        normal: Vector3<f64>,
    },
}

impl Shape {
    /// The shape of a model capsule (body frame).
    pub fn from_capsule(c: &crate::model::Capsule) -> Shape {
        Shape::Capsule {
            a: c.a,
            b: c.b,
            radius: c.radius,
        }
    }

    /// A horizontal ground plane at height `y` (world Y up) with normal +Y.
    pub fn ground(y: f64) -> Shape {
        Shape::HalfSpace {
            point: Point3::new(0.0, y, 0.0),
            normal: Vector3::y(),
        }
    }

    /// Checks the parameters (finite, positive sizes, nonzero normal).
    pub fn validate(&self) -> Result<(), CollisionError> {
        let finite_point = |p: &Point3<f64>| p.coords.iter().all(|x| x.is_finite());
        let ok = match self {
            Shape::Sphere { radius } => radius.is_finite() && *radius > 0.0,
            Shape::Capsule { a, b, radius } => {
                radius.is_finite() && *radius > 0.0 && finite_point(a) && finite_point(b)
            }
            Shape::Cuboid { half_extents } => {
                half_extents.iter().all(|h| h.is_finite() && *h > 0.0)
            }
            Shape::HalfSpace { point, normal } => {
                finite_point(point)
                    && normal.iter().all(|x| x.is_finite())
                    && normal.norm_squared() > 0.0
            }
        };
        if ok {
            Ok(())
        } else {
            Err(CollisionError::InvalidShape)
        }
    }
}

/// A shape attached to a body (or to the world), with its collision filtering.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Collider {
    /// The body carrying the shape; `None`: static (world frame).
    pub body: Option<usize>,
    /// The shape, in the collider frame.
    pub shape: Shape,
    /// Collider frame in the body frame (in the world frame for a static collider).
    pub local_pose: Isometry3<f64>,
    /// Membership bits (e.g. one bit per character).
    pub group: u32,
    /// The groups this collider may touch: a pair is tested only if `a.group & b.mask != 0` and
    /// `b.group & a.mask != 0`.
    pub mask: u32,
}

impl Collider {
    /// One collider per capsule of every body of `model`, with body indices shifted by `offset` (for several
    /// characters in one body list), in group `group` touching `mask`.
    pub fn from_model(
        model: &crate::model::Model,
        offset: usize,
        group: u32,
        mask: u32,
    ) -> Vec<Collider> {
        model
            .bodies
            .iter()
            .enumerate()
            .flat_map(|(b, body)| {
                body.capsules.iter().map(move |c| {
                    Collider::new(Some(b + offset), Shape::from_capsule(c)).with_groups(group, mask)
                })
            })
            .collect()
    }

    /// A collider on `body` (or static with `None`) at the body frame's origin, in every group, touching every
    /// group.
    pub fn new(body: Option<usize>, shape: Shape) -> Collider {
        Collider {
            body,
            shape,
            local_pose: Isometry3::identity(),
            group: u32::MAX,
            mask: u32::MAX,
        }
    }

    /// The same collider with its frame at `pose` in the body frame (builder style).
    pub fn with_pose(mut self, pose: Isometry3<f64>) -> Collider {
        self.local_pose = pose;
        self
    }

    /// The same collider with membership `group` and filter `mask` (builder style).
    pub fn with_groups(mut self, group: u32, mask: u32) -> Collider {
        self.group = group;
        self.mask = mask;
        self
    }

    /// Whether group/mask filtering lets `self` and `other` touch.
    pub fn groups_interact(&self, other: &Collider) -> bool {
        self.group & other.mask != 0 && other.group & self.mask != 0
    }
}

/// A parry shape built from a [`Shape`], with the offset of its parry frame in the collider frame (the plane
/// point of a half-space: parry's half-space passes through its frame origin).
pub(crate) enum Geom {
    Ball(Ball),
    Capsule(Capsule),
    Cuboid(Cuboid),
    HalfSpace(HalfSpace),
}

impl Geom {
    /// The parry shape and its frame offset in the collider frame. `shape` must be valid.
    pub(crate) fn new(shape: &Shape) -> (Geom, Isometry3<f64>) {
        let id = Isometry3::identity();
        match *shape {
            Shape::Sphere { radius } => (Geom::Ball(Ball::new(radius)), id),
            Shape::Capsule { a, b, radius } => (
                Geom::Capsule(Capsule::new(to_vec(&a.coords), to_vec(&b.coords), radius)),
                id,
            ),
            Shape::Cuboid { half_extents } => {
                (Geom::Cuboid(Cuboid::new(to_vec(&half_extents))), id)
            }
            Shape::HalfSpace { point, normal } => (
                Geom::HalfSpace(HalfSpace::new(to_vec(&normal.normalize()))),
                Isometry3::from_parts(Translation3::from(point.coords), Default::default()),
            ),
        }
    }

    /// As a parry shape trait object.
    pub(crate) fn as_dyn(&self) -> &dyn parry3d_f64::shape::Shape {
        match self {
            Geom::Ball(s) => s,
            Geom::Capsule(s) => s,
            Geom::Cuboid(s) => s,
            Geom::HalfSpace(s) => s,
        }
    }

    /// Whether the shape is unbounded (its bounding box covers everything).
    pub(crate) fn is_unbounded(&self) -> bool {
        matches!(self, Geom::HalfSpace(_))
    }
}

/// nalgebra vector → parry (glam) vector.
pub(crate) fn to_vec(v: &Vector3<f64>) -> DVec3 {
    DVec3::new(v.x, v.y, v.z)
}

/// parry (glam) vector → nalgebra vector.
pub(crate) fn from_vec(v: DVec3) -> Vector3<f64> {
    Vector3::new(v.x, v.y, v.z)
}

/// nalgebra isometry → parry pose.
pub(crate) fn to_pose(iso: &Isometry3<f64>) -> Pose {
    let q = iso.rotation.quaternion();
    Pose::from_parts(
        to_vec(&iso.translation.vector),
        Rot3::from_xyzw(q.i, q.j, q.k, q.w),
    )
}

/// Whether every number of an isometry is finite.
pub(crate) fn finite_isometry(iso: &Isometry3<f64>) -> bool {
    iso.translation.vector.iter().all(|x| x.is_finite())
        && iso.rotation.coords.iter().all(|x| x.is_finite())
}
