//! The collider description of the C ABI (`FlinchColliderDesc`) and its checked conversion to the core's
//! `ColliderDesc`, shared with the C++ bridge.

use std::ffi::c_char;

use flinch_core::level::{ColliderDesc, LevelShape};
use nalgebra::{Isometry3, Point3, Quaternion, Translation3, UnitQuaternion, Vector3};

use crate::args;
use crate::error::{FfiError, FlinchStatus, guard};
use crate::query::FlinchTransform;

/// A collider's shape: the `shape` values of `FlinchColliderDesc`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlinchColliderShape {
    /// The solid half-space below the plane through the collider origin; `size` is its outward normal (nonzero;
    /// `{0, 1, 0}` is a floor).
    Plane = 0,
    /// A box centred on the collider origin; `size` is its half extents (m, each > 0).
    Box = 1,
    /// A ball centred on the collider origin; `size[0]` is its radius (m, > 0).
    Sphere = 2,
    /// A capsule along the collider's local Y axis; `size[0]` is its half height (m, ≥ 0: half the axis length),
    /// `size[1]` its radius (m, > 0).
    Capsule = 3,
    /// The convex hull of `points` (`point_count` xyz triples, at least 4 not in one plane).
    ConvexHull = 4,
    /// A triangle mesh: `points` holds `point_count` vertices (xyz triples), `triangles` holds `triangle_count`
    /// index triples, counter-clockwise seen from outside (a floor's faces look up).
    TriangleMesh = 5,
    /// A height grid on the collider's XZ plane centred on its origin: `points` holds `rows × cols` heights (m,
    /// row by row, rows along z; `point_count` = `rows × cols`), spanning `size_x` × `size_z` metres.
    HeightField = 6,
}

impl FlinchColliderShape {
    /// The shape of a raw C value; `None` for a value that is no `FlinchColliderShape`.
    pub fn from_raw(value: i32) -> Option<FlinchColliderShape> {
        use FlinchColliderShape as S;
        [
            S::Plane,
            S::Box,
            S::Sphere,
            S::Capsule,
            S::ConvexHull,
            S::TriangleMesh,
            S::HeightField,
        ]
        .into_iter()
        .find(|s| *s as i32 == value)
    }

    /// The shape's name in messages.
    pub fn label(self) -> &'static str {
        match self {
            FlinchColliderShape::Plane => "plane",
            FlinchColliderShape::Box => "box",
            FlinchColliderShape::Sphere => "sphere",
            FlinchColliderShape::Capsule => "capsule",
            FlinchColliderShape::ConvexHull => "convex hull",
            FlinchColliderShape::TriangleMesh => "triangle mesh",
            FlinchColliderShape::HeightField => "height field",
        }
    }
}

/// A collider to add with `flinch_world_add_collider`. Start from `flinch_collider_desc_default` and set the
/// shape's fields; the arrays are read during the call only.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FlinchColliderDesc {
    /// The shape (a `FlinchColliderShape` value).
    pub shape: i32,
    /// Per shape: the plane's normal, the box's half extents (m), the sphere's radius (`size[0]`), the capsule's
    /// half height and radius (`size[0]`, `size[1]`); unused by the other shapes.
    pub size: [f64; 3],
    /// Convex hull points or mesh vertices (`point_count` xyz triples, collider frame), or a height field's
    /// `point_count` heights; NULL when `point_count` is 0.
    pub points: *const f64,
    /// Number of points or vertices (triples), or of heights.
    pub point_count: usize,
    /// A mesh's triangles: `triangle_count` triples of vertex indices; NULL when `triangle_count` is 0.
    pub triangles: *const u32,
    /// Number of triangles.
    pub triangle_count: usize,
    /// A height field's rows (along z, ≥ 2).
    pub rows: usize,
    /// A height field's columns (along x, ≥ 2).
    pub cols: usize,
    /// A height field's extent along x (m, > 0).
    pub size_x: f64,
    /// A height field's extent along z (m, > 0).
    pub size_z: f64,
    /// The collider frame in the world: position (m) and rotation quaternion x, y, z, w (normalized here; must
    /// be nonzero).
    pub pose: FlinchTransform,
    /// Coulomb friction (≥ 0); negative: each character's own ground friction.
    pub friction: f64,
    /// Newton restitution in [0, 1].
    pub restitution: f64,
    /// Membership bits: the collider touches a character when `layers & character_mask` and
    /// `mask & character_layers` are both nonzero (`flinch_character_set_level_layers`). All bits by default.
    pub layers: u32,
    /// The character layers this collider touches (all bits by default).
    pub mask: u32,
    /// Non-zero: kinematic, moved by the game with `flinch_world_move_collider` (a bat, a door, a platform);
    /// 0: static.
    pub kinematic: i32,
    /// A name for messages (NUL-terminated UTF-8), or NULL.
    pub name: *const c_char,
}

/// The rigid transform of a `FlinchTransform` (argument `what` of `function`): finite, its quaternion nonzero
/// (normalized).
pub(crate) fn isometry(
    function: &str,
    what: &str,
    t: &FlinchTransform,
) -> Result<Isometry3<f64>, FfiError> {
    let [x, y, z, w] = t.rotation;
    let q = Quaternion::new(w, x, y, z);
    let finite = t.position.iter().chain(&t.rotation).all(|c| c.is_finite());
    let norm = q.norm();
    if !finite || norm <= 1e-9 {
        return Err(FfiError::argument(
            function,
            format!(
                "`{what}` must be finite with a nonzero rotation (identity: {{0, 0, 0, 1}}), got position {:?} rotation {:?}",
                t.position, t.rotation
            ),
        ));
    }
    Ok(Isometry3::from_parts(
        Translation3::from(Vector3::from(t.position)),
        UnitQuaternion::from_quaternion(q),
    ))
}

/// A collider description with its arrays borrowed (from C pointers or C++ slices).
pub(crate) struct ColliderParts<'a> {
    /// A `FlinchColliderShape` value.
    pub shape: i32,
    /// See `FlinchColliderDesc::size`.
    pub size: [f64; 3],
    /// Hull points or mesh vertices (flat xyz), or heights.
    pub points: &'a [f64],
    /// Mesh triangles (flat index triples).
    pub triangles: &'a [u32],
    /// Height field rows.
    pub rows: usize,
    /// Height field columns.
    pub cols: usize,
    /// Height field extent along x (m).
    pub size_x: f64,
    /// Height field extent along z (m).
    pub size_z: f64,
    /// The collider frame.
    pub pose: FlinchTransform,
    /// Friction (negative: the characters' own).
    pub friction: f64,
    /// Restitution.
    pub restitution: f64,
    /// Membership bits.
    pub layers: u32,
    /// The character layers touched.
    pub mask: u32,
    /// Kinematic instead of static.
    pub kinematic: bool,
    /// A name for messages.
    pub name: String,
}

/// The points of a flat xyz array (argument `what` of `function`).
fn triples(function: &str, what: &str, flat: &[f64]) -> Result<Vec<Point3<f64>>, FfiError> {
    if flat.len() % 3 != 0 {
        return Err(FfiError::argument(
            function,
            format!("`{what}` holds {} numbers, not xyz triples", flat.len()),
        ));
    }
    Ok(flat
        .chunks_exact(3)
        .map(|c| Point3::new(c[0], c[1], c[2]))
        .collect())
}

/// The shape of a raw `shape` value, or the error naming the valid ones.
fn shape_kind(function: &str, shape: i32) -> Result<FlinchColliderShape, FfiError> {
    FlinchColliderShape::from_raw(shape).ok_or_else(|| {
        FfiError::argument(
            function,
            format!(
                "`shape` {shape} is not a FlinchColliderShape (0 PLANE, 1 BOX, 2 SPHERE, 3 CAPSULE, \
                 4 CONVEX_HULL, 5 TRIANGLE_MESH, 6 HEIGHT_FIELD)"
            ),
        )
    })
}

/// The core collider of a description (the core checks the shape itself: sizes, finite vertices, indices).
pub(crate) fn build_collider(
    function: &str,
    d: ColliderParts<'_>,
) -> Result<ColliderDesc, FfiError> {
    use FlinchColliderShape as S;
    let size = Vector3::from(d.size);
    let kind = shape_kind(function, d.shape)?;
    let shape = match kind {
        S::Plane => LevelShape::Plane { normal: size },
        S::Box => LevelShape::Box { half_extents: size },
        S::Sphere => LevelShape::Sphere { radius: d.size[0] },
        S::Capsule => LevelShape::Capsule {
            half_height: d.size[0],
            radius: d.size[1],
        },
        S::ConvexHull => LevelShape::ConvexHull {
            points: triples(function, "points", d.points)?,
        },
        S::TriangleMesh => {
            if d.triangles.len() % 3 != 0 {
                return Err(FfiError::argument(
                    function,
                    format!(
                        "`triangles` holds {} indices, not triples",
                        d.triangles.len()
                    ),
                ));
            }
            LevelShape::TriMesh {
                vertices: triples(function, "points", d.points)?,
                triangles: d
                    .triangles
                    .chunks_exact(3)
                    .map(|t| [t[0], t[1], t[2]])
                    .collect(),
            }
        }
        S::HeightField => {
            if d.rows.checked_mul(d.cols) != Some(d.points.len()) {
                return Err(FfiError::argument(
                    function,
                    format!(
                        "a {} × {} height field needs rows × cols heights, got {}",
                        d.rows,
                        d.cols,
                        d.points.len()
                    ),
                ));
            }
            LevelShape::HeightField {
                rows: d.rows,
                cols: d.cols,
                heights: d.points.to_vec(),
                size_x: d.size_x,
                size_z: d.size_z,
            }
        }
    };
    let pose = isometry(function, "pose", &d.pose)?;
    let friction = match d.friction {
        mu if mu.is_nan() => {
            return Err(FfiError::argument(
                function,
                "`friction` is NaN (negative: the character's own)",
            ));
        }
        mu if mu < 0.0 => None,
        mu => Some(mu),
    };
    // An unnamed collider is called by its shape in messages ("collider 'triangle mesh': ...").
    let name = if d.name.is_empty() {
        kind.label().to_string()
    } else {
        d.name
    };
    let mut desc = ColliderDesc::new(shape, pose).named(name);
    desc.friction = friction;
    desc.restitution = d.restitution;
    desc.layers = d.layers;
    desc.mask = d.mask;
    if d.kinematic {
        desc = desc.kinematic();
    }
    Ok(desc)
}

/// The core collider of a C description.
///
/// # Safety
/// The description's arrays and name are valid for the counts it gives (see `FlinchColliderDesc`).
pub(super) unsafe fn collider_desc(
    function: &str,
    d: &FlinchColliderDesc,
) -> Result<ColliderDesc, FfiError> {
    let kind = shape_kind(function, d.shape)?;
    let too_large =
        |what: &str, n: usize| FfiError::argument(function, format!("`{what}` {n} is too large"));
    // Hull points and mesh vertices are xyz triples; a height field's points are its heights.
    let numbers = match kind {
        FlinchColliderShape::ConvexHull | FlinchColliderShape::TriangleMesh => d
            .point_count
            .checked_mul(3)
            .ok_or_else(|| too_large("point_count", d.point_count))?,
        FlinchColliderShape::HeightField => d.point_count,
        _ => 0,
    };
    // Bounded before the core counts a height field's triangles (2 (rows − 1)(cols − 1)).
    let max = flinch_core::io::Limits::DEFAULT.max_triangles;
    if kind == FlinchColliderShape::HeightField && d.point_count > max {
        return Err(FfiError::argument(
            function,
            format!(
                "a height field of {} heights exceeds max_triangles ({max})",
                d.point_count
            ),
        ));
    }
    let indices = match kind {
        FlinchColliderShape::TriangleMesh => d
            .triangle_count
            .checked_mul(3)
            .ok_or_else(|| too_large("triangle_count", d.triangle_count))?,
        _ => 0,
    };
    // SAFETY: forwarded contract.
    let points = unsafe { args::slice(function, "points", d.points, numbers) }?;
    // SAFETY: forwarded contract.
    let triangles = unsafe { args::slice(function, "triangles", d.triangles, indices) }?;
    // SAFETY: forwarded contract.
    let name = unsafe { args::optional_string(function, "name", d.name) }?.unwrap_or_default();
    build_collider(
        function,
        ColliderParts {
            shape: d.shape,
            size: d.size,
            points,
            triangles,
            rows: d.rows,
            cols: d.cols,
            size_x: d.size_x,
            size_z: d.size_z,
            pose: d.pose,
            friction: d.friction,
            restitution: d.restitution,
            layers: d.layers,
            mask: d.mask,
            kinematic: d.kinematic != 0,
            name: name.to_string(),
        },
    )
}

/// Writes the default collider description to `*out`: a static floor plane (normal `{0, 1, 0}`) at the origin
/// (identity pose), the characters' own friction (-1), no restitution, every layer and mask bit, no arrays, no
/// name.
///
/// # Safety
/// `out` is NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_collider_desc_default(
    out: *mut FlinchColliderDesc,
) -> FlinchStatus {
    const F: &str = "flinch_collider_desc_default";
    guard(F, || {
        // SAFETY: forwarded contract.
        let out = unsafe { args::out(F, "out", out) }?;
        *out = FlinchColliderDesc {
            shape: FlinchColliderShape::Plane as i32,
            size: [0.0, 1.0, 0.0],
            points: std::ptr::null(),
            point_count: 0,
            triangles: std::ptr::null(),
            triangle_count: 0,
            rows: 0,
            cols: 0,
            size_x: 0.0,
            size_z: 0.0,
            pose: FlinchTransform {
                position: [0.0; 3],
                rotation: [0.0, 0.0, 0.0, 1.0],
            },
            friction: -1.0,
            restitution: 0.0,
            layers: u32::MAX,
            mask: u32::MAX,
            kinematic: 0,
            name: std::ptr::null(),
        };
        Ok(())
    })
}
