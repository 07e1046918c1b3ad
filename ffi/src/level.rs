//! The game's world through the C ABI: colliders (planes, boxes, spheres, capsules, convex hulls, triangle meshes,
//! height fields; static or kinematic) added, moved and removed in a world's level, a level loaded from a glTF/GLB
//! file, and ray casts and sphere sweeps against the characters and the level (`docs/world.md`).

use std::ffi::c_char;
use std::path::Path;

use flinch_core::level::{ColliderDesc, ColliderKey, LevelLoadError, LevelShape, load_level_file};
use flinch_core::scene::{CharacterKey, RayTarget, Scene, SceneRayHit};
use nalgebra::{Isometry3, Point3, Quaternion, Translation3, UnitQuaternion, Vector3};

use crate::args;
use crate::error::{FfiError, FlinchStatus, guard};
use crate::query::FlinchTransform;
use crate::world::{FlinchCharacterKey, FlinchWorld, scene_error, with_scene};

/// A collider in a world's level (generational: stale once removed, or when its world is destroyed; a collider
/// of another world is refused). Zero means "no collider" in ray hits and hit events.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlinchCollider {
    /// Generational key value (opaque); only meaningful with the world it came from.
    pub id: u64,
}

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

/// What a ray or a sphere sweep hit: the `kind` values of `FlinchRayHit`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlinchRayHitKind {
    /// Nothing within the distance.
    None = 0,
    /// A character's body (`character`, `joint`).
    Character = 1,
    /// A collider of the level (`collider`).
    Collider = 2,
}

/// A ray or sphere sweep hit (`flinch_world_cast_ray`, `flinch_world_cast_sphere`).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FlinchRayHit {
    /// What was hit (a `FlinchRayHitKind` value).
    pub kind: u32,
    /// The character hit (id 0: not a character).
    pub character: FlinchCharacterKey,
    /// Skeleton joint index of the body hit (`SIZE_MAX`: not a character); its name is
    /// `flinch_character_joint_name`, its bone the one to give `flinch_world_apply_impulse`.
    pub joint: usize,
    /// The collider hit (id 0: not a collider).
    pub collider: FlinchCollider,
    /// The point on the hit surface (m, world).
    pub point: [f64; 3],
    /// The surface normal there (unit, world, facing the ray).
    pub normal: [f64; 3],
    /// Distance along the ray (m), or the sphere centre's travel for a sweep.
    pub distance: f64,
}

impl FlinchRayHit {
    /// No hit.
    const NONE: FlinchRayHit = FlinchRayHit {
        kind: FlinchRayHitKind::None as u32,
        character: FlinchCharacterKey { id: 0 },
        joint: usize::MAX,
        collider: FlinchCollider { id: 0 },
        point: [0.0; 3],
        normal: [0.0; 3],
        distance: 0.0,
    };

    /// The C hit of a scene hit.
    fn of(scene: &Scene, hit: &SceneRayHit) -> FlinchRayHit {
        let mut out = FlinchRayHit {
            point: hit.point.into(),
            normal: hit.normal.into(),
            distance: hit.distance,
            ..FlinchRayHit::NONE
        };
        match &hit.target {
            RayTarget::Character { key, body, .. } => {
                out.kind = FlinchRayHitKind::Character as u32;
                out.character = FlinchCharacterKey { id: key.to_raw() };
                out.joint = scene
                    .character(*key)
                    .ok()
                    .and_then(|c| c.model().bodies.get(*body))
                    .map_or(usize::MAX, |b| b.skeleton_joint);
            }
            RayTarget::Collider(key) => {
                out.kind = FlinchRayHitKind::Collider as u32;
                out.collider = FlinchCollider { id: key.to_raw() };
            }
        }
        out
    }
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
unsafe fn collider_desc(function: &str, d: &FlinchColliderDesc) -> Result<ColliderDesc, FfiError> {
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

/// Adds a collider to a world's level and writes its handle to `*out`. A shape that is refused (a non-finite or
/// out-of-range size, a NaN vertex or height, an empty or fully degenerate mesh, an index past the vertices, a
/// hull of fewer than 4 points or of one plane) is `FLINCH_STATUS_INVALID_ARGUMENT` naming the shape's problem.
/// A character standing on a free root stands on the level's colliders in place of its fitted flat floor as
/// soon as the level holds any (pose the level so its floor is at `flinch_character_ground_floor`).
///
/// # Safety
/// `desc` is NULL or points to a description whose arrays and name are valid for its counts; `out` is NULL or
/// valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_world_add_collider(
    world: FlinchWorld,
    desc: *const FlinchColliderDesc,
    out: *mut FlinchCollider,
) -> FlinchStatus {
    const F: &str = "flinch_world_add_collider";
    guard(F, || {
        // SAFETY: valid when non-NULL per the caller's contract.
        let desc = unsafe { desc.as_ref() }.ok_or_else(|| FfiError::null(F, "desc"))?;
        // SAFETY: forwarded contract.
        let out = unsafe { args::out(F, "out", out) }?;
        // SAFETY: forwarded contract.
        let desc = unsafe { collider_desc(F, desc) }?;
        let key = with_scene(F, world, |scene| {
            scene.add_collider(desc).map_err(|e| scene_error(F, 0, e))
        })?;
        out.id = key.to_raw();
        Ok(())
    })
}

/// Removes a collider from a world's level; its handle becomes stale (`FLINCH_STATUS_INVALID_HANDLE` then, as
/// for a collider of another world). A character resting on it falls from the next step.
#[unsafe(no_mangle)]
pub extern "C" fn flinch_world_remove_collider(
    world: FlinchWorld,
    collider: FlinchCollider,
) -> FlinchStatus {
    const F: &str = "flinch_world_remove_collider";
    guard(F, || {
        with_scene(F, world, |scene| {
            scene
                .remove_collider(ColliderKey::from_raw(collider.id))
                .map_err(|e| scene_error(F, collider.id, e))
        })
    })
}

/// Moves a kinematic collider to `pose`, reached at the end of the next `flinch_world_step` (interpolated over
/// its substeps). The contacts see `linear_velocity` (m/s) and `angular_velocity` (rad/s, world) when given (a
/// NULL one of the two is zero); with both NULL, the velocity of the motion from the current pose over that
/// step (a jump faster than 50 m/s is a teleport, at rest). A collider not moved in a frame is at rest for it.
/// A static collider is `FLINCH_STATUS_INVALID_ARGUMENT`.
///
/// # Safety
/// `pose` is NULL or valid for one read; each velocity is NULL or 3 readable doubles.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_world_move_collider(
    world: FlinchWorld,
    collider: FlinchCollider,
    pose: *const FlinchTransform,
    linear_velocity: *const f64,
    angular_velocity: *const f64,
) -> FlinchStatus {
    const F: &str = "flinch_world_move_collider";
    guard(F, || {
        // SAFETY: valid when non-NULL per the caller's contract.
        let pose = unsafe { pose.as_ref() }.ok_or_else(|| FfiError::null(F, "pose"))?;
        let pose = isometry(F, "pose", pose)?;
        let velocity = if linear_velocity.is_null() && angular_velocity.is_null() {
            None
        } else {
            let given = |p: *const f64, what: &str| {
                if p.is_null() {
                    Ok(Vector3::zeros())
                } else {
                    // SAFETY: 3 readable doubles when non-NULL per the caller's contract.
                    unsafe { args::vector(F, what, p) }
                }
            };
            Some((
                given(linear_velocity, "linear_velocity")?,
                given(angular_velocity, "angular_velocity")?,
            ))
        };
        with_scene(F, world, |scene| {
            scene
                .move_collider(ColliderKey::from_raw(collider.id), pose, velocity)
                .map_err(|e| scene_error(F, collider.id, e))
        })
    })
}

/// The status and message of a level file that could not be loaded.
fn load_error(function: &str, e: LevelLoadError) -> FfiError {
    let status = match e {
        LevelLoadError::Io { .. } => FlinchStatus::Io,
        LevelLoadError::Sidecar(_) => FlinchStatus::Config,
        _ => FlinchStatus::Parse,
    };
    FfiError::new(status, format!("{function}: {e}"))
}

/// Loads a level file (glTF/GLB: every mesh a static collider, node transforms applied; names ending in `_box`,
/// `_convex`, `_nocollide` and a sidecar `NAME.colliders.json` choose simpler shapes, `docs/world.md`) into a
/// world's level, posed by `pose` (the file's frame in the world; NULL: identity), and writes the handles of
/// its colliders, in file order, to `out` (`capacity` handles) and their number to `*count`.
///
/// With `out` NULL and `capacity` 0 only the count is written (the file is read, nothing is added); a capacity
/// below the count is `FLINCH_STATUS_BUFFER_TOO_SMALL` with the count written and nothing added. On any error
/// nothing is added: an unreadable file is `FLINCH_STATUS_IO`, a file that is no level `FLINCH_STATUS_PARSE`, a
/// bad sidecar `FLINCH_STATUS_CONFIG`.
///
/// # Safety
/// `path` is NULL or a NUL-terminated string; `pose` is NULL or valid for one read; `out` is NULL or valid for
/// `capacity` writes; `count` is NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_world_load_level(
    world: FlinchWorld,
    path: *const c_char,
    pose: *const FlinchTransform,
    out: *mut FlinchCollider,
    capacity: usize,
    count: *mut usize,
) -> FlinchStatus {
    const F: &str = "flinch_world_load_level";
    guard(F, || {
        // SAFETY: forwarded contract.
        let path = unsafe { args::string(F, "path", path) }?;
        // SAFETY: valid when non-NULL per the caller's contract.
        let pose = match unsafe { pose.as_ref() } {
            Some(t) => isometry(F, "pose", t)?,
            None => Isometry3::identity(),
        };
        // SAFETY: forwarded contract.
        let count = unsafe { args::out(F, "count", count) }?;
        // The world is checked before the file is read.
        with_scene(F, world, |_| Ok(()))?;
        let file = load_level_file(Path::new(path), None).map_err(|e| load_error(F, e))?;
        let n = file.colliders.len();
        if out.is_null() && capacity == 0 {
            *count = n;
            return Ok(());
        }
        if !out.is_null() && capacity < n {
            *count = n;
        }
        // SAFETY: forwarded contract.
        let out = unsafe { args::buffer(F, "out", out, capacity, n) }?;
        let keys = with_scene(F, world, |scene| {
            scene
                .add_level(&file, &pose)
                .map_err(|e| scene_error(F, 0, e))
        })?;
        for (o, k) in out.iter_mut().zip(&keys) {
            o.id = k.to_raw();
        }
        *count = n;
        Ok(())
    })
}

/// Checks a cast's direction and distance; `finite` refuses an infinite distance (sweeps).
fn cast_arguments(
    function: &str,
    direction: &Vector3<f64>,
    max_distance: f64,
    finite: bool,
) -> Result<(), FfiError> {
    if direction.norm_squared() == 0.0 {
        return Err(FfiError::argument(function, "`direction` is zero"));
    }
    if max_distance.is_nan() || max_distance < 0.0 || (finite && max_distance.is_infinite()) {
        return Err(FfiError::argument(
            function,
            format!(
                "`max_distance` must be {}≥ 0, got {max_distance}",
                if finite { "finite and " } else { "" }
            ),
        ));
    }
    Ok(())
}

/// Casts a ray from `origin` along `direction` (any length, nonzero; m, world) against a world's characters
/// (their collision capsules) and the colliders whose `layers` meet `mask`, up to `max_distance` (m, ≥ 0;
/// infinity allowed). Writes the first hit to `*out` and 1 to `*hit`, or `FLINCH_RAY_HIT_KIND_NONE` and 0. A
/// bullet: pass `out->joint`'s name to `flinch_world_apply_impulse` with `out->point`.
///
/// # Safety
/// `origin` and `direction` are NULL or 3 readable doubles; `out` and `hit` are NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_world_cast_ray(
    world: FlinchWorld,
    origin: *const f64,
    direction: *const f64,
    max_distance: f64,
    mask: u32,
    out: *mut FlinchRayHit,
    hit: *mut i32,
) -> FlinchStatus {
    const F: &str = "flinch_world_cast_ray";
    guard(F, || {
        // SAFETY: forwarded contract.
        let origin = unsafe { args::vector(F, "origin", origin) }?;
        // SAFETY: forwarded contract.
        let direction = unsafe { args::vector(F, "direction", direction) }?;
        cast_arguments(F, &direction, max_distance, false)?;
        // SAFETY: forwarded contract.
        let out = unsafe { args::out(F, "out", out) }?;
        // SAFETY: forwarded contract.
        let hit = unsafe { args::out(F, "hit", hit) }?;
        let found = with_scene(F, world, |scene| {
            Ok(scene
                .cast_ray(&origin, &direction, max_distance, mask)
                .map(|h| FlinchRayHit::of(scene, &h)))
        })?;
        *hit = i32::from(found.is_some());
        *out = found.unwrap_or(FlinchRayHit::NONE);
        Ok(())
    })
}

/// Sweeps a sphere of `radius` (m, > 0) from `origin` along `direction` (nonzero) up to `max_distance` (m,
/// finite, ≥ 0) against a world's characters and the colliders whose `layers` meet `mask`: a thrown object's
/// path or a thick bullet. Writes the first touch to `*out` (`distance`: the centre's travel) and 1 to `*hit`,
/// or `FLINCH_RAY_HIT_KIND_NONE` and 0.
///
/// # Safety
/// `origin` and `direction` are NULL or 3 readable doubles; `out` and `hit` are NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_world_cast_sphere(
    world: FlinchWorld,
    origin: *const f64,
    radius: f64,
    direction: *const f64,
    max_distance: f64,
    mask: u32,
    out: *mut FlinchRayHit,
    hit: *mut i32,
) -> FlinchStatus {
    const F: &str = "flinch_world_cast_sphere";
    guard(F, || {
        // SAFETY: forwarded contract.
        let origin = unsafe { args::vector(F, "origin", origin) }?;
        let radius = args::positive(F, "radius", radius)?;
        // SAFETY: forwarded contract.
        let direction = unsafe { args::vector(F, "direction", direction) }?;
        cast_arguments(F, &direction, max_distance, true)?;
        // SAFETY: forwarded contract.
        let out = unsafe { args::out(F, "out", out) }?;
        // SAFETY: forwarded contract.
        let hit = unsafe { args::out(F, "hit", hit) }?;
        let found = with_scene(F, world, |scene| {
            Ok(scene
                .cast_sphere(&origin, radius, &direction, max_distance, mask)
                .map(|h| FlinchRayHit::of(scene, &h)))
        })?;
        *hit = i32::from(found.is_some());
        *out = found.unwrap_or(FlinchRayHit::NONE);
        Ok(())
    })
}

/// Sets a character's collision layers against the level: it touches a collider when `layers & collider.mask`
/// and `collider.layers & mask` are both nonzero (default: every bit of both, touching everything).
#[unsafe(no_mangle)]
pub extern "C" fn flinch_character_set_level_layers(
    world: FlinchWorld,
    key: FlinchCharacterKey,
    layers: u32,
    mask: u32,
) -> FlinchStatus {
    const F: &str = "flinch_character_set_level_layers";
    guard(F, || {
        with_scene(F, world, |scene| {
            scene
                .character_mut(CharacterKey::from_raw(key.id))
                .map_err(|e| scene_error(F, key.id, e))?
                .set_level_layers(layers, mask);
            Ok(())
        })
    })
}
