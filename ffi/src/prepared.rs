//! Prepared clips: the immutable, shared half of characters (body model, reference motion, feedforward, gains),
//! built once from a clip and a configuration; any number of characters are then made from one in well under a
//! millisecond each, sharing its tables (a crowd playing one clip).

use std::ffi::c_char;
use std::sync::{Arc, Mutex};

use flinch_core::control::{Character, CharacterError, PreparedClip};

use crate::args;
use crate::clip::{FlinchCharacter, FlinchClip, insert_character, parse_config};
use crate::error::{FfiError, FlinchStatus, guard};
use crate::handles::{Table, lock};
use crate::query::FlinchTransform;
use crate::world::{FlinchCharacterKey, FlinchWorld, with_scene};

/// A prepared clip (the shared half of characters). Zero is never a valid handle. Destroy with
/// `flinch_prepared_clip_destroy`; characters made from it keep what they need.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlinchPreparedClip {
    /// Generational handle value (opaque).
    pub id: u64,
}

static PREPARED: Mutex<Table<Arc<PreparedClip>>> = Mutex::new(Table::with_kind(4));

/// The prepared clip behind a handle.
pub fn prepared(function: &str, handle: FlinchPreparedClip) -> Result<Arc<PreparedClip>, FfiError> {
    let table = lock(&PREPARED);
    table.get(handle.id).cloned().ok_or_else(|| {
        FfiError::new(
            FlinchStatus::InvalidHandle,
            format!(
                "{function}: prepared clip {:#x} {}",
                handle.id,
                table.why_dead(handle.id)
            ),
        )
    })
}

/// Prepares a clip for simulation once: body model, preprocessing and inverse dynamics, gains (the cost of
/// `flinch_character_create`, tens of milliseconds for a long clip). `config_json` (NULL: defaults) is a character
/// configuration as JSON, as for `flinch_character_create`; a detected leading T-pose frame is dropped. Characters
/// are then made from it by `flinch_character_create_prepared` or `flinch_world_add_prepared`, sharing its tables.
/// On success writes the prepared clip to `*out`.
///
/// # Safety
/// `config_json` is NULL or a NUL-terminated string; `out` is NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_prepared_clip_create(
    clip: FlinchClip,
    config_json: *const c_char,
    out: *mut FlinchPreparedClip,
) -> FlinchStatus {
    const F: &str = "flinch_prepared_clip_create";
    guard(F, || {
        // SAFETY: forwarded contract.
        let json = unsafe { args::optional_string(F, "config_json", config_json) }?;
        // SAFETY: forwarded contract.
        let out = unsafe { args::out(F, "out", out) }?;
        let imported = crate::clip::clip(F, clip)?;
        let config = parse_config(F, json)?;
        let prepared = PreparedClip::from_imported((*imported).clone(), &config)
            .map_err(|e| FfiError::new(FlinchStatus::Simulation, format!("{F}: {e}")))?;
        out.id = lock(&PREPARED).insert(Arc::new(prepared));
        Ok(())
    })
}

/// Prepares a flat-ground clip to be walked over a world's level as it is now (`flinch_prepared_clip_create`
/// plus the adaptation of `docs/world.md`, "Walking the clip over uneven ground"): the clip is prepared on its
/// fitted flat floor, its feet are raised onto the level's static colliders under them (stairs, slopes), its root
/// by the lower foot's raise and its legs bent to reach, and that clip is prepared with its stance read above the
/// level. Kinematic colliders are left out (they move; the adaptation is made once). Pose the level first, so that
/// its floor is at `flinch_prepared_clip_floor` of the flat clip and its features lie along the clip's path
/// (`flinch_prepared_clip_root_target`). Characters made from it track the adapted clip on a free root; the world
/// they are added to should hold the same level. A world without a static collider, or a clip without two legs,
/// is `FLINCH_STATUS_INVALID_ARGUMENT`. On success writes the prepared clip to `*out`.
///
/// # Safety
/// `config_json` is NULL or a NUL-terminated string; `out` is NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_prepared_clip_create_on_level(
    clip: FlinchClip,
    config_json: *const c_char,
    world: FlinchWorld,
    out: *mut FlinchPreparedClip,
) -> FlinchStatus {
    const F: &str = "flinch_prepared_clip_create_on_level";
    guard(F, || {
        // SAFETY: forwarded contract.
        let json = unsafe { args::optional_string(F, "config_json", config_json) }?;
        // SAFETY: forwarded contract.
        let out = unsafe { args::out(F, "out", out) }?;
        let imported = crate::clip::clip(F, clip)?;
        let config = parse_config(F, json)?;
        // A copy of the level's static colliders: the world stays unlocked while the clip is prepared.
        let ground = with_scene(F, world, |scene| {
            scene
                .level()
                .static_ground()
                .map_err(|e| FfiError::argument(F, format!("world {:#x}: {e}", world.id)))
        })?;
        let prepared =
            PreparedClip::from_imported_on_terrain((*imported).clone(), &config, Arc::new(ground))
                .map_err(|e| FfiError::new(character_status(&e), format!("{F}: {e}")))?;
        out.id = lock(&PREPARED).insert(Arc::new(prepared));
        Ok(())
    })
}

/// The status of a character that could not be prepared: a clip the adaptation cannot use (no two legs) is an
/// argument error, anything else a simulation error (as `flinch_prepared_clip_create`).
fn character_status(e: &CharacterError) -> FlinchStatus {
    match e {
        CharacterError::Argument(_) | CharacterError::Ground(_) => FlinchStatus::InvalidArgument,
        _ => FlinchStatus::Simulation,
    }
}

/// Destroys a prepared clip. Characters made from it are unaffected (they share its tables until the last one
/// goes). A second destroy returns `FLINCH_STATUS_INVALID_HANDLE`.
#[unsafe(no_mangle)]
pub extern "C" fn flinch_prepared_clip_destroy(prepared: FlinchPreparedClip) -> FlinchStatus {
    const F: &str = "flinch_prepared_clip_destroy";
    guard(F, || {
        let mut table = lock(&PREPARED);
        let why = table.why_dead(prepared.id);
        table.remove(prepared.id).map(drop).ok_or_else(|| {
            FfiError::new(
                FlinchStatus::InvalidHandle,
                format!("{F}: prepared clip {:#x} {why}", prepared.id),
            )
        })
    })
}

/// Makes a detached character of a prepared clip, on its first reference sample (only its world is built); add
/// it to a world with `flinch_world_add_character`. On success writes it to `*out`.
///
/// # Safety
/// `out` is NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_character_create_prepared(
    prepared: FlinchPreparedClip,
    out: *mut FlinchCharacter,
) -> FlinchStatus {
    const F: &str = "flinch_character_create_prepared";
    guard(F, || {
        // SAFETY: forwarded contract.
        let out = unsafe { args::out(F, "out", out) }?;
        let p = self::prepared(F, prepared)?;
        *out = insert_character(Character::from_prepared(p));
        Ok(())
    })
}

/// Makes a character of a prepared clip and adds it to a world (one call for `flinch_character_create_prepared`
/// and `flinch_world_add_character`); writes its key to `*out`.
///
/// # Safety
/// `out` is NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_world_add_prepared(
    world: FlinchWorld,
    prepared: FlinchPreparedClip,
    out: *mut FlinchCharacterKey,
) -> FlinchStatus {
    const F: &str = "flinch_world_add_prepared";
    guard(F, || {
        // SAFETY: forwarded contract.
        let out = unsafe { args::out(F, "out", out) }?;
        let p = self::prepared(F, prepared)?;
        // Built before the world's lock is taken: other threads stepping the world wait only for the insertion.
        let character = Character::from_prepared(p);
        out.id = with_scene(F, world, |scene| {
            Ok(scene.add_character(character).to_raw())
        })?;
        Ok(())
    })
}

/// Duration (s) of the reference motion of a prepared clip.
///
/// # Safety
/// `out` is NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_prepared_clip_duration(
    prepared: FlinchPreparedClip,
    out: *mut f64,
) -> FlinchStatus {
    const F: &str = "flinch_prepared_clip_duration";
    guard(F, || {
        // SAFETY: forwarded contract.
        let out = unsafe { args::out(F, "out", out) }?;
        *out = self::prepared(F, prepared)?.reference().duration();
        Ok(())
    })
}

/// Writes the reference pose of a prepared clip's root body at clip time `time` (s, clamped to the clip) to
/// `*out`: its centre of mass (world, m) and orientation. Where the clip walks before any character plays it: a
/// game places its level along the path with it (`samples/c/engine_world.c`).
///
/// # Safety
/// `out` is NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_prepared_clip_root_target(
    prepared: FlinchPreparedClip,
    time: f64,
    out: *mut FlinchTransform,
) -> FlinchStatus {
    const F: &str = "flinch_prepared_clip_root_target";
    guard(F, || {
        // SAFETY: forwarded contract.
        let out = unsafe { args::out(F, "out", out) }?;
        if !time.is_finite() {
            return Err(FfiError::argument(
                F,
                format!("`time` must be finite, got {time}"),
            ));
        }
        let (position, rotation) = self::prepared(F, prepared)?.root_target(time);
        *out = FlinchTransform {
            position: position.into(),
            rotation: rotation.coords.into(),
        };
        Ok(())
    })
}

/// Writes the floor height (m, world y) fitted to a prepared clip's stance feet (or its configuration's
/// `root.ground.floor_m`) to `*out`: where a level's floor goes for a free-root character of this clip. A clip
/// without feet is `FLINCH_STATUS_INVALID_ARGUMENT`.
///
/// # Safety
/// `out` is NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_prepared_clip_floor(
    prepared: FlinchPreparedClip,
    out: *mut f64,
) -> FlinchStatus {
    const F: &str = "flinch_prepared_clip_floor";
    guard(F, || {
        // SAFETY: forwarded contract.
        let out = unsafe { args::out(F, "out", out) }?;
        *out = self::prepared(F, prepared)?
            .ground()
            .map_err(|e| FfiError::argument(F, e))?
            .floor;
        Ok(())
    })
}
