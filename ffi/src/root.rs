//! Free roots (issue 11, `docs/ffi.md` "Free root"): a character's root policy (kinematic, free, assisted, balanced), its
//! assist weight, its balance state and state transitions, its ground (floor, penetration) and clip time.

use flinch_core::control::{Character, CharacterError, RootPolicy, RootState};
use flinch_core::scene::{CharacterKey, SceneError};

use crate::args;
use crate::error::{FfiError, FlinchStatus, guard};
use crate::world::{FlinchCharacterKey, FlinchWorld, scene_error, with_character, with_scene};

/// How a character's root (pelvis) moves; the `policy` values of `flinch_character_set_root_policy`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlinchRootPolicy {
    /// The root follows the clip exactly (prescribed): the default; no ground needed.
    Kinematic = 0,
    /// A free root body standing on its feet through the ground contacts, without assist: it falls as soon as it
    /// loses its balance.
    Free = 1,
    /// A free root with an assist toward the clip's root pose, scaled by the assist weight and fading out after a
    /// big hit.
    Assisted = 2,
    /// A free root balanced by its own joints and feet: no external wrench while tracking (`docs/balance.md`;
    /// experimental: the CMU walk stays up, slower than its clip; other clips fall).
    Balanced = 3,
}

impl FlinchRootPolicy {
    /// The policy of a raw C value; `None` for a value that is no `FlinchRootPolicy`.
    pub fn from_raw(value: i32) -> Option<FlinchRootPolicy> {
        match value {
            0 => Some(FlinchRootPolicy::Kinematic),
            1 => Some(FlinchRootPolicy::Free),
            2 => Some(FlinchRootPolicy::Assisted),
            3 => Some(FlinchRootPolicy::Balanced),
            _ => None,
        }
    }

    /// The Rust policy.
    pub fn to_core(self) -> RootPolicy {
        match self {
            FlinchRootPolicy::Kinematic => RootPolicy::Kinematic,
            FlinchRootPolicy::Free => RootPolicy::Free,
            FlinchRootPolicy::Assisted => RootPolicy::Assisted,
            FlinchRootPolicy::Balanced => RootPolicy::Balanced,
        }
    }

    /// The C policy of a Rust one.
    pub fn from_core(policy: RootPolicy) -> FlinchRootPolicy {
        match policy {
            RootPolicy::Kinematic => FlinchRootPolicy::Kinematic,
            RootPolicy::Free => FlinchRootPolicy::Free,
            RootPolicy::Assisted => FlinchRootPolicy::Assisted,
            RootPolicy::Balanced => FlinchRootPolicy::Balanced,
        }
    }
}

/// A free-root character's balance state (a kinematic root is always `TRACKING`). The values are those of the
/// `from` and `to` fields of `FlinchRootEvent`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlinchRootState {
    /// On its clip, the assist at its weight.
    Tracking = 0,
    /// Hit above the threshold: the assist fades out, the joints still track.
    Staggering = 1,
    /// Balance lost: the gains drop toward the limp fraction.
    Falling = 2,
    /// Limp, holding the pose the fall began in.
    Ragdoll = 3,
    /// Every body still for the rest time.
    Resting = 4,
    /// Blending from the resting pose back into the clip.
    GettingUp = 5,
}

impl FlinchRootState {
    /// The C state of a Rust one.
    pub fn from_core(state: RootState) -> FlinchRootState {
        match state {
            RootState::Tracking => FlinchRootState::Tracking,
            RootState::Staggering => FlinchRootState::Staggering,
            RootState::Falling => FlinchRootState::Falling,
            RootState::Ragdoll => FlinchRootState::Ragdoll,
            RootState::Resting => FlinchRootState::Resting,
            RootState::GettingUp => FlinchRootState::GettingUp,
        }
    }
}

/// A balance state transition of a free-root character (the character is the one asked about).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FlinchRootEvent {
    /// World time of the transition (s): the end of the step that caused it.
    pub time: f64,
    /// The state left (a `FlinchRootState` value).
    pub from: u32,
    /// The state entered (a `FlinchRootState` value).
    pub to: u32,
}

/// Runs `body` on character `key` of `world`, mutably; a `CharacterError` of `body` gets its status and message
/// like every other character error of the ABI.
fn with_character_mut<T>(
    function: &str,
    world: FlinchWorld,
    key: FlinchCharacterKey,
    body: impl FnOnce(&mut Character) -> Result<T, CharacterError>,
) -> Result<T, FfiError> {
    with_scene(function, world, |scene| {
        let c = scene
            .character_mut(CharacterKey::from_raw(key.id))
            .map_err(|e| scene_error(function, key.id, e))?;
        body(c).map_err(|e| scene_error(function, key.id, SceneError::Character(e)))
    })
}

/// Switches a character's root policy (`policy`: a `FlinchRootPolicy` value) at runtime. Between `FREE` and
/// `ASSISTED` only the assist changes; to or from `KINEMATIC` the character's world is rebuilt around the same
/// body states, and a character made kinematic goes back onto its clip. A clip without feet cannot go free
/// (`FLINCH_STATUS_SIMULATION`, "no feet"); a value that is no `FlinchRootPolicy` is
/// `FLINCH_STATUS_INVALID_ARGUMENT`. The policy can also be set at creation with the configuration's `root`
/// section (`{"root": {"policy": "assisted"}}`).
#[unsafe(no_mangle)]
pub extern "C" fn flinch_character_set_root_policy(
    world: FlinchWorld,
    key: FlinchCharacterKey,
    policy: i32,
) -> FlinchStatus {
    const F: &str = "flinch_character_set_root_policy";
    guard(F, || {
        let policy = FlinchRootPolicy::from_raw(policy).ok_or_else(|| {
            FfiError::argument(
                F,
                format!(
                    "`policy` {policy} is not a FlinchRootPolicy (0 KINEMATIC, 1 FREE, 2 ASSISTED)"
                ),
            )
        })?;
        with_character_mut(F, world, key, |c| c.set_root_policy(policy.to_core()))
    })
}

/// Writes a character's root policy to `*out`.
///
/// # Safety
/// `out` is NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_character_root_policy(
    world: FlinchWorld,
    key: FlinchCharacterKey,
    out: *mut FlinchRootPolicy,
) -> FlinchStatus {
    const F: &str = "flinch_character_root_policy";
    guard(F, || {
        // SAFETY: forwarded contract.
        let out = unsafe { args::out(F, "out", out) }?;
        *out = with_character(F, world, key, |c| {
            Ok(FlinchRootPolicy::from_core(c.root_policy()))
        })?;
        Ok(())
    })
}

/// Sets the assist weight of a character's free root, finite and in [0, 1] (else
/// `FLINCH_STATUS_INVALID_ARGUMENT`): the strength of an `ASSISTED` root's pull toward its clip (a game may drop
/// it to 0 at a knockout). No effect on a kinematic root (the configuration's `root.assist_weight` applies when
/// it goes free).
#[unsafe(no_mangle)]
pub extern "C" fn flinch_character_set_assist_weight(
    world: FlinchWorld,
    key: FlinchCharacterKey,
    weight: f64,
) -> FlinchStatus {
    const F: &str = "flinch_character_set_assist_weight";
    guard(F, || {
        // Checked here too, so a bad weight is reported whatever the character's root policy.
        if !(weight.is_finite() && (0.0..=1.0).contains(&weight)) {
            return Err(FfiError::argument(
                F,
                format!("`weight` must be finite and in [0, 1], got {weight}"),
            ));
        }
        with_character_mut(F, world, key, |c| c.set_assist_weight(weight))
    })
}

/// Writes a character's balance state to `*out` (`TRACKING` for a kinematic root).
///
/// # Safety
/// `out` is NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_character_root_state(
    world: FlinchWorld,
    key: FlinchCharacterKey,
    out: *mut FlinchRootState,
) -> FlinchStatus {
    const F: &str = "flinch_character_root_state";
    guard(F, || {
        // SAFETY: forwarded contract.
        let out = unsafe { args::out(F, "out", out) }?;
        *out = with_character(F, world, key, |c| {
            Ok(FlinchRootState::from_core(c.root_state()))
        })?;
        Ok(())
    })
}

/// Writes the number of balance state transitions of a character since its root was made free (0 for a kinematic
/// root; making a root kinematic clears them) to `*out`.
///
/// # Safety
/// `out` is NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_character_root_event_count(
    world: FlinchWorld,
    key: FlinchCharacterKey,
    out: *mut usize,
) -> FlinchStatus {
    const F: &str = "flinch_character_root_event_count";
    guard(F, || {
        // SAFETY: forwarded contract.
        let out = unsafe { args::out(F, "out", out) }?;
        *out = with_character(F, world, key, |c| Ok(c.root_events().len()))?;
        Ok(())
    })
}

/// Reads balance state transition `index` (< the event count; oldest first) of a character into `*out`.
///
/// # Safety
/// `out` is NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_character_root_event(
    world: FlinchWorld,
    key: FlinchCharacterKey,
    index: usize,
    out: *mut FlinchRootEvent,
) -> FlinchStatus {
    const F: &str = "flinch_character_root_event";
    guard(F, || {
        // SAFETY: forwarded contract.
        let out = unsafe { args::out(F, "out", out) }?;
        *out = with_character(F, world, key, |c| {
            let e = args::item(F, "root event", c.root_events(), index)?;
            Ok(FlinchRootEvent {
                time: e.time,
                from: FlinchRootState::from_core(e.from) as u32,
                to: FlinchRootState::from_core(e.to) as u32,
            })
        })?;
        Ok(())
    })
}

/// Writes the floor height (m, world y) a free-root character stands on to `*out`: fitted to the clip's stance
/// feet, or the configuration's `root.ground.floor_m`. A kinematic root has no ground
/// (`FLINCH_STATUS_INVALID_ARGUMENT`).
///
/// # Safety
/// `out` is NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_character_ground_floor(
    world: FlinchWorld,
    key: FlinchCharacterKey,
    out: *mut f64,
) -> FlinchStatus {
    const F: &str = "flinch_character_ground_floor";
    guard(F, || {
        // SAFETY: forwarded contract.
        let out = unsafe { args::out(F, "out", out) }?;
        *out = with_character(F, world, key, |c| {
            c.ground().map(|g| g.floor).ok_or_else(|| {
                FfiError::argument(
                    F,
                    format!(
                        "character {:#x} has a kinematic root, hence no ground (set a FREE or ASSISTED root policy)",
                        key.id
                    ),
                )
            })
        })?;
        Ok(())
    })
}

/// Writes how deep the deepest body point of a free-root character was below the floor after the last step (m,
/// ≥ 0; 0 for a kinematic root) to `*out`.
///
/// # Safety
/// `out` is NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_character_ground_penetration(
    world: FlinchWorld,
    key: FlinchCharacterKey,
    out: *mut f64,
) -> FlinchStatus {
    const F: &str = "flinch_character_ground_penetration";
    guard(F, || {
        // SAFETY: forwarded contract.
        let out = unsafe { args::out(F, "out", out) }?;
        *out = with_character(F, world, key, |c| Ok(c.ground_penetration()))?;
        Ok(())
    })
}

/// Writes the assist weight in force to `*out` (0 for a kinematic root; a `FREE` root keeps the configured
/// weight for a later switch back to `ASSISTED`).
///
/// # Safety
/// `out` is NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_character_assist_weight(
    world: FlinchWorld,
    key: FlinchCharacterKey,
    out: *mut f64,
) -> FlinchStatus {
    const F: &str = "flinch_character_assist_weight";
    guard(F, || {
        // SAFETY: forwarded contract.
        let out = unsafe { args::out(F, "out", out) }?;
        *out = with_character(F, world, key, |c| Ok(c.assist_weight()))?;
        Ok(())
    })
}

/// Writes the clip time (s) a character plays now to `*out`: its world time, unless a get-up after a fall
/// restarted the clip.
///
/// # Safety
/// `out` is NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_character_clip_time(
    world: FlinchWorld,
    key: FlinchCharacterKey,
    out: *mut f64,
) -> FlinchStatus {
    const F: &str = "flinch_character_clip_time";
    guard(F, || {
        // SAFETY: forwarded contract.
        let out = unsafe { args::out(F, "out", out) }?;
        *out = with_character(F, world, key, |c| Ok(c.clip_time()))?;
        Ok(())
    })
}
