//! Ray casts and sphere sweeps through the C ABI: what they hit (`FlinchRayHit`), a character's joint or a
//! collider.

use flinch_core::scene::{RayTarget, Scene, SceneRayHit};
use nalgebra::Vector3;

use super::FlinchCollider;
use crate::args;
use crate::error::{FfiError, FlinchStatus, guard};
use crate::world::{FlinchCharacterKey, FlinchWorld, with_scene};

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
