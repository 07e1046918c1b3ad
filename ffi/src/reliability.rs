//! Reliability entry points: state hashes (determinism checks), character state save/restore (rollback,
//! replays) and the guard's fault events.

use flinch_core::control::{CharacterState, FaultKind};
use flinch_core::scene::CharacterKey;

use crate::args;
use crate::error::{FfiError, FlinchStatus, guard};
use crate::world::{FlinchCharacterKey, FlinchWorld, character, scene_error, with_scene};

/// What the guard detected (see `FlinchFault`).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlinchFaultKind {
    /// The step's linear solve failed or gave non-finite velocities.
    StepFailed = 0,
    /// A body's state was not finite.
    NonFinite = 1,
    /// Joints came apart beyond the guard's limit (`value`: the gap in m).
    JointGap = 2,
    /// A body moved faster than the guard's limit (`value`: the speed in m/s).
    Speed = 3,
}

/// A fault of the last `flinch_world_step`: the character was reset to its clip pose and velocity at `time`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FlinchFault {
    /// Simulation time where the character was reset (s).
    pub time: f64,
    /// The character.
    pub character: FlinchCharacterKey,
    /// What was detected.
    pub kind: FlinchFaultKind,
    /// The body involved (model body index; `SIZE_MAX` when not about one body).
    pub body: usize,
    /// The measured value: gap (m) or speed (m/s); 0 otherwise.
    pub value: f64,
}

/// Writes a 64-bit FNV-1a hash of the world's state (time, every character's bodies, every ball) to `*out`:
/// equal hashes for bit-identical worlds, on any machine and thread count.
///
/// # Safety
/// `out` is NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_world_state_hash(
    world: FlinchWorld,
    out: *mut u64,
) -> FlinchStatus {
    const F: &str = "flinch_world_state_hash";
    guard(F, || {
        // SAFETY: forwarded contract.
        let out = unsafe { args::out(F, "out", out) }?;
        *out = with_scene(F, world, |scene| Ok(scene.state_hash()))?;
        Ok(())
    })
}

/// Writes a 64-bit FNV-1a hash of one character's state (time, body positions, orientations, velocities).
///
/// # Safety
/// `out` is NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_character_state_hash(
    world: FlinchWorld,
    key: FlinchCharacterKey,
    out: *mut u64,
) -> FlinchStatus {
    const F: &str = "flinch_character_state_hash";
    guard(F, || {
        // SAFETY: forwarded contract.
        let out = unsafe { args::out(F, "out", out) }?;
        *out = with_scene(F, world, |scene| Ok(character(F, scene, key)?.state_hash()))?;
        Ok(())
    })
}

/// Saves a character's state (bodies, pending hits, contact warm starts) as bytes into `buffer` (`capacity`
/// bytes). `length` (may be NULL) receives the size, also when the buffer is too small
/// (`FLINCH_STATUS_BUFFER_TOO_SMALL`; call with `buffer` NULL and `capacity` 0 to query it). The bytes are
/// versioned and checksummed; restore them with `flinch_character_restore_state`.
///
/// # Safety
/// `buffer` is NULL or valid for `capacity` bytes; `length` is NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_character_save_state(
    world: FlinchWorld,
    key: FlinchCharacterKey,
    buffer: *mut u8,
    capacity: usize,
    length: *mut usize,
) -> FlinchStatus {
    const F: &str = "flinch_character_save_state";
    guard(F, || {
        let bytes = with_scene(F, world, |scene| {
            Ok(character(F, scene, key)?.save_state().to_bytes())
        })?;
        // SAFETY: valid when non-NULL per the caller's contract.
        if let Some(length) = unsafe { length.as_mut() } {
            *length = bytes.len();
        }
        // SAFETY: forwarded contract.
        let out = unsafe { args::buffer(F, "buffer", buffer, capacity, bytes.len()) }?;
        out.copy_from_slice(&bytes);
        Ok(())
    })
}

/// Restores a character's state from bytes of `flinch_character_save_state` (of this character, or of one built
/// from the same clip and configuration): the following steps repeat bit for bit those after the save. Corrupt
/// or foreign bytes are `FLINCH_STATUS_INVALID_ARGUMENT` and leave the character unchanged.
///
/// # Safety
/// `bytes` is NULL or valid for `length` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_character_restore_state(
    world: FlinchWorld,
    key: FlinchCharacterKey,
    bytes: *const u8,
    length: usize,
) -> FlinchStatus {
    const F: &str = "flinch_character_restore_state";
    guard(F, || {
        if bytes.is_null() {
            return Err(FfiError::null(F, "bytes"));
        }
        // SAFETY: non-NULL and valid for `length` bytes per the caller's contract.
        let bytes = unsafe { std::slice::from_raw_parts(bytes, length) };
        let state = CharacterState::from_bytes(bytes).map_err(|e| FfiError::argument(F, e))?;
        with_scene(F, world, |scene| {
            scene
                .character_mut(CharacterKey::from_raw(key.id))
                .map_err(|e| scene_error(F, key.id, e))?
                .restore_state(&state)
                .map_err(|e| FfiError::argument(F, e))
        })
    })
}

/// Number of faults of the last `flinch_world_step` (characters the guard reset to their clip; the step then
/// returned `FLINCH_STATUS_RECOVERED`).
///
/// # Safety
/// `out` is NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_world_fault_count(
    world: FlinchWorld,
    out: *mut usize,
) -> FlinchStatus {
    const F: &str = "flinch_world_fault_count";
    guard(F, || {
        // SAFETY: forwarded contract.
        let out = unsafe { args::out(F, "out", out) }?;
        *out = with_scene(F, world, |scene| Ok(scene.faults().len()))?;
        Ok(())
    })
}

/// Reads fault `index` (< the fault count) of the last `flinch_world_step` into `*out`.
///
/// # Safety
/// `out` is NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_world_fault(
    world: FlinchWorld,
    index: usize,
    out: *mut FlinchFault,
) -> FlinchStatus {
    const F: &str = "flinch_world_fault";
    guard(F, || {
        // SAFETY: forwarded contract.
        let out = unsafe { args::out(F, "out", out) }?;
        *out = with_scene(F, world, |scene| {
            let f = args::item(F, "fault", scene.faults(), index)?;
            let (kind, body, value) = match f.event.kind {
                FaultKind::StepFailed(_) => (FlinchFaultKind::StepFailed, usize::MAX, 0.0),
                FaultKind::NonFinite { body } => (FlinchFaultKind::NonFinite, body, 0.0),
                FaultKind::JointGap { gap_m } => (FlinchFaultKind::JointGap, usize::MAX, gap_m),
                FaultKind::Speed { body, speed } => (FlinchFaultKind::Speed, body, speed),
            };
            Ok(FlinchFault {
                time: f.event.time,
                character: FlinchCharacterKey {
                    id: f.character.to_raw(),
                },
                kind,
                body,
                value,
            })
        })?;
        Ok(())
    })
}
