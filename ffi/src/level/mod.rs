//! The game's world through the C ABI: colliders (planes, boxes, spheres, capsules, convex hulls, triangle meshes,
//! height fields; static or kinematic) added, moved and removed in a world's level, a level loaded from a glTF/GLB
//! file, and ray casts and sphere sweeps against the characters and the level (`docs/world.md`).
//!
//! `desc.rs`: the collider description and its checked conversion (shared with the C++ bridge); `ray.rs`: ray and
//! sphere casts.

mod desc;
mod ray;

use desc::collider_desc;
#[cfg(test)]
pub(crate) use desc::flinch_collider_desc_default;
pub(crate) use desc::{ColliderParts, build_collider, isometry};
pub use desc::{FlinchColliderDesc, FlinchColliderShape};
pub use ray::{FlinchRayHit, FlinchRayHitKind};
#[cfg(test)]
pub(crate) use ray::{flinch_world_cast_ray, flinch_world_cast_sphere};

use std::ffi::c_char;
use std::path::Path;

use flinch_core::level::{ColliderKey, LevelLoadError, load_level_file};
use flinch_core::scene::CharacterKey;
use nalgebra::{Isometry3, Vector3};

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

/// Adds a collider to a world's level and writes its handle to `*out`. A shape that is refused (a non-finite or
/// out-of-range size, a NaN vertex or height, an empty or fully degenerate mesh, an index past the vertices, a
/// hull of fewer than 4 points or of one plane) is `FLINCH_STATUS_INVALID_ARGUMENT` naming the shape's problem.
/// A character standing on a free root stands on the level's colliders in place of its fitted flat floor as
/// soon as the level holds a static one (pose the level so its floor is at `flinch_character_ground_floor`).
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

/// and `collider.layers & mask` are both nonzero (default: every bit of both, touching everything).
/// Sets a character's collision layers against the level: it touches a collider when `layers & collider.mask`
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
