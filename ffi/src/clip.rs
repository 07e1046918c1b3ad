//! Clips: a skeleton and its motion loaded from a file or from memory, and detached characters built from them.

use std::ffi::c_char;
use std::path::Path;
use std::sync::{Arc, Mutex};

use flinch_core::control::{Character, CharacterConfig};
use flinch_core::io::{
    Format, ImportError, ImportOptions, Imported, Limits, load_bytes, load_file,
};

use crate::args;
use crate::error::{FfiError, FlinchStatus, guard};
use crate::handles::{Table, lock};

/// A loaded clip (skeleton + motion). Zero is never a valid handle. Destroy with `flinch_clip_destroy`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlinchClip {
    /// Generational handle value (opaque).
    pub id: u64,
}

/// A character built from a clip, not (yet, or no longer) in a world; owned by the caller until it is added to a
/// world (`flinch_world_add_character` consumes it) or destroyed (`flinch_character_destroy`).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlinchCharacter {
    /// Generational handle value (opaque).
    pub id: u64,
}

/// File formats of `flinch_clip_load_memory` (the value passed as its `format` argument).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlinchFormat {
    /// Biovision hierarchy.
    Bvh = 0,
    /// glTF 2.0 JSON with embedded buffers.
    Gltf = 1,
    /// glTF 2.0 binary.
    Glb = 2,
    /// URDF (a rest clip of one frame).
    Urdf = 3,
}

static CLIPS: Mutex<Table<Arc<Imported>>> = Mutex::new(Table::with_kind(1));
static CHARACTERS: Mutex<Table<Character>> = Mutex::new(Table::with_kind(2));

/// The clip behind a handle.
pub fn clip(function: &str, handle: FlinchClip) -> Result<Arc<Imported>, FfiError> {
    let table = lock(&CLIPS);
    table.get(handle.id).cloned().ok_or_else(|| {
        FfiError::new(
            FlinchStatus::InvalidHandle,
            format!(
                "{function}: clip {:#x} {}",
                handle.id,
                table.why_dead(handle.id)
            ),
        )
    })
}

/// Takes a detached character out of its table (the handle becomes stale).
pub fn take_character(function: &str, handle: FlinchCharacter) -> Result<Character, FfiError> {
    let mut table = lock(&CHARACTERS);
    let why = table.why_dead(handle.id);
    table.remove(handle.id).ok_or_else(|| {
        FfiError::new(
            FlinchStatus::InvalidHandle,
            format!("{function}: character {:#x} {why}", handle.id),
        )
    })
}

/// Whether a detached character handle is live.
pub fn character_is_live(function: &str, handle: FlinchCharacter) -> Result<(), FfiError> {
    let table = lock(&CHARACTERS);
    match table.get(handle.id) {
        Some(_) => Ok(()),
        None => Err(FfiError::new(
            FlinchStatus::InvalidHandle,
            format!(
                "{function}: character {:#x} {}",
                handle.id,
                table.why_dead(handle.id)
            ),
        )),
    }
}

/// Registers a detached character and returns its handle.
pub fn insert_character(character: Character) -> FlinchCharacter {
    FlinchCharacter {
        id: lock(&CHARACTERS).insert(character),
    }
}

fn import_status(function: &str, e: ImportError) -> FfiError {
    let status = match e {
        ImportError::Read { .. } => FlinchStatus::Io,
        ImportError::UnknownFormat { .. } => FlinchStatus::InvalidArgument,
        _ => FlinchStatus::Parse,
    };
    FfiError::new(status, format!("{function}: {e}"))
}

/// Loads a clip from a file; the format comes from the extension (`.bvh`, `.gltf`, `.glb`, `.urdf`,
/// case-insensitive). On success writes the new clip to `*out`.
///
/// # Safety
/// `path` is NULL or a NUL-terminated UTF-8 string; `out` is NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_clip_load_file(
    path: *const c_char,
    out: *mut FlinchClip,
) -> FlinchStatus {
    const F: &str = "flinch_clip_load_file";
    guard(F, || {
        // SAFETY: forwarded contract.
        let path = unsafe { args::string(F, "path", path) }?;
        // SAFETY: forwarded contract.
        let out = unsafe { args::out(F, "out", out) }?;
        let imported = load_file(Path::new(path), &ImportOptions::default())
            .map_err(|e| import_status(F, e))?;
        out.id = lock(&CLIPS).insert(Arc::new(imported));
        Ok(())
    })
}

/// Loads a clip from `len` bytes at `data` in `format` (a `FlinchFormat` value). `name` (NULL: "memory") is used
/// in error messages. glTF must have its buffers embedded. On success writes the new clip to `*out`.
///
/// # Safety
/// `data` is NULL or valid for `len` bytes; `name` is NULL or a NUL-terminated string; `out` is NULL or valid for
/// one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_clip_load_memory(
    data: *const u8,
    len: usize,
    format: i32,
    name: *const c_char,
    out: *mut FlinchClip,
) -> FlinchStatus {
    const F: &str = "flinch_clip_load_memory";
    guard(F, || {
        if data.is_null() {
            return Err(FfiError::null(F, "data"));
        }
        // SAFETY: forwarded contract.
        let name = unsafe { args::optional_string(F, "name", name) }?.unwrap_or("memory");
        // SAFETY: forwarded contract.
        let out = unsafe { args::out(F, "out", out) }?;
        let format = match format {
            0 => Format::Bvh,
            1 => Format::Gltf,
            2 => Format::Glb,
            3 => Format::Urdf,
            other => {
                return Err(FfiError::argument(
                    F,
                    format!(
                        "`format` {other} is not a FlinchFormat (0 BVH, 1 glTF, 2 GLB, 3 URDF)"
                    ),
                ));
            }
        };
        // SAFETY: `data` is valid for `len` bytes per the caller's contract.
        let bytes = unsafe { std::slice::from_raw_parts(data, len) };
        let imported = load_bytes(bytes, format, name, None, &ImportOptions::default())
            .map_err(|e| import_status(F, e))?;
        out.id = lock(&CLIPS).insert(Arc::new(imported));
        Ok(())
    })
}

/// Destroys a clip. Characters built from it are unaffected. A second destroy returns
/// `FLINCH_STATUS_INVALID_HANDLE`.
#[unsafe(no_mangle)]
pub extern "C" fn flinch_clip_destroy(clip: FlinchClip) -> FlinchStatus {
    const F: &str = "flinch_clip_destroy";
    guard(F, || {
        let mut table = lock(&CLIPS);
        let why = table.why_dead(clip.id);
        table.remove(clip.id).map(drop).ok_or_else(|| {
            FfiError::new(
                FlinchStatus::InvalidHandle,
                format!("{F}: clip {:#x} {why}", clip.id),
            )
        })
    })
}

/// Number of skeleton joints of a clip.
///
/// # Safety
/// `out` is NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_clip_joint_count(
    clip: FlinchClip,
    out: *mut usize,
) -> FlinchStatus {
    const F: &str = "flinch_clip_joint_count";
    guard(F, || {
        // SAFETY: forwarded contract.
        let out = unsafe { args::out(F, "out", out) }?;
        *out = self::clip(F, clip)?.skeleton.len();
        Ok(())
    })
}

/// Duration of a clip in seconds.
///
/// # Safety
/// `out` is NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_clip_duration(clip: FlinchClip, out: *mut f64) -> FlinchStatus {
    const F: &str = "flinch_clip_duration";
    guard(F, || {
        // SAFETY: forwarded contract.
        let out = unsafe { args::out(F, "out", out) }?;
        *out = self::clip(F, clip)?.clip.duration();
        Ok(())
    })
}

/// Makes a new clip of `clip` made `seconds` long: a detected leading T-pose frame dropped, then its best loop
/// repeated without a seam, each repetition moved on by the distance the loop travels (a walk as long as a course
/// needs; `Clip::looped`). `seconds` not finite and positive, or a loop past the import limits (10⁶ frames, 10⁷
/// joint poses), is `FLINCH_STATUS_INVALID_ARGUMENT`. On success writes the new clip to `*out` (destroy both).
///
/// # Safety
/// `out` is NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_clip_looped(
    clip: FlinchClip,
    seconds: f64,
    out: *mut FlinchClip,
) -> FlinchStatus {
    const F: &str = "flinch_clip_looped";
    guard(F, || {
        // SAFETY: forwarded contract.
        let out = unsafe { args::out(F, "out", out) }?;
        let looped = self::clip(F, clip)?
            .looped(seconds, &Limits::DEFAULT)
            .map_err(|e| FfiError::argument(F, e))?;
        out.id = lock(&CLIPS).insert(Arc::new(looped));
        Ok(())
    })
}

/// Builds the character of a clip (body model, preprocessing, inverse dynamics; tens of milliseconds for a long
/// clip). `config_json` (NULL: defaults) is a character configuration as JSON: `model`, `preprocess` (`rate_hz`,
/// `cutoff_hz`), `gains` (see docs/control.md). A detected leading T-pose frame is dropped. On success writes the
/// detached character to `*out`.
///
/// # Safety
/// `config_json` is NULL or a NUL-terminated string; `out` is NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_character_create(
    clip: FlinchClip,
    config_json: *const c_char,
    out: *mut FlinchCharacter,
) -> FlinchStatus {
    const F: &str = "flinch_character_create";
    guard(F, || {
        // SAFETY: forwarded contract.
        let json = unsafe { args::optional_string(F, "config_json", config_json) }?;
        // SAFETY: forwarded contract.
        let out = unsafe { args::out(F, "out", out) }?;
        let imported = self::clip(F, clip)?;
        *out = insert_character(build_character(F, &imported, json)?);
        Ok(())
    })
}

/// Builds the character of `imported` with the JSON configuration `json` (defaults when `None`).
pub fn build_character(
    function: &str,
    imported: &Imported,
    json: Option<&str>,
) -> Result<Character, FfiError> {
    let config = parse_config(function, json)?;
    Character::from_imported(imported.clone(), &config)
        .map_err(|e| FfiError::new(FlinchStatus::Simulation, format!("{function}: {e}")))
}

/// The character configuration of the JSON text `json` (defaults when `None`).
pub fn parse_config(function: &str, json: Option<&str>) -> Result<CharacterConfig, FfiError> {
    match json {
        Some(text) => CharacterConfig::from_json(text).map_err(|e| {
            FfiError::new(
                FlinchStatus::Config,
                format!("{function}: config_json: {e}"),
            )
        }),
        None => Ok(CharacterConfig::default()),
    }
}

/// Destroys a detached character. A second destroy, or a character already added to a world, returns
/// `FLINCH_STATUS_INVALID_HANDLE`.
#[unsafe(no_mangle)]
pub extern "C" fn flinch_character_destroy(character: FlinchCharacter) -> FlinchStatus {
    const F: &str = "flinch_character_destroy";
    guard(F, || take_character(F, character).map(drop))
}
