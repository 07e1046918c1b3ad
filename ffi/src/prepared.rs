//! Prepared clips: the immutable, shared half of characters (body model, reference motion, feedforward, gains),
//! built once from a clip and a configuration; any number of characters are then made from one in well under a
//! millisecond each, sharing its tables (a crowd playing one clip).

use std::ffi::c_char;
use std::sync::{Arc, Mutex};

use flinch_core::control::{Character, PreparedClip};

use crate::args;
use crate::clip::{FlinchCharacter, FlinchClip, insert_character, parse_config};
use crate::error::{FfiError, FlinchStatus, guard};
use crate::handles::{Table, lock};
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
