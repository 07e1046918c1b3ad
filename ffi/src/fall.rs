//! Protective falls through the C ABI (issue 39 item 3, `docs/root.md` "Protective falls"): the phases of a free
//! root's fall as events (reach toward the predicted ground contact, the first impact of a body other than the
//! legs, limp), read like the root events.

use crate::args;
use crate::error::{FlinchStatus, guard};
use crate::world::{FlinchCharacterKey, FlinchWorld, with_character};
use flinch_core::control::FallPhase;

/// A phase of a protective fall.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlinchFallPhase {
    /// The fall began: the arms reach toward the predicted ground contact, the head is held up.
    Reach = 0,
    /// A body other than the legs touched the ground: the arms brace.
    Impact = 1,
    /// The fall is over: the body is limp.
    Limp = 2,
}

impl FlinchFallPhase {
    fn from_core(phase: FallPhase) -> FlinchFallPhase {
        match phase {
            FallPhase::Reach => FlinchFallPhase::Reach,
            FallPhase::Impact => FlinchFallPhase::Impact,
            FallPhase::Limp => FlinchFallPhase::Limp,
        }
    }
}

/// A protective fall's phase change (`flinch_character_fall_event`).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FlinchFallEvent {
    /// World time (s): the end of the step that began the phase.
    pub time: f64,
    /// The phase entered (a `FlinchFallPhase` value).
    pub phase: u32,
    /// `REACH`: the predicted ground contact (world, m); `IMPACT`: the touching body's lowest contact point;
    /// `LIMP`: the root's position.
    pub point: [f64; 3],
    /// `IMPACT`: the skeleton joint of the body that touched; `SIZE_MAX` for the other phases.
    pub joint: usize,
}

/// Number of protective-fall events of a character so far (none for a kinematic root).
///
/// # Safety
/// `out` is NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_character_fall_event_count(
    world: FlinchWorld,
    key: FlinchCharacterKey,
    out: *mut usize,
) -> FlinchStatus {
    const F: &str = "flinch_character_fall_event_count";
    guard(F, || {
        // SAFETY: forwarded contract.
        let out = unsafe { args::out(F, "out", out) }?;
        *out = with_character(F, world, key, |c| Ok(c.fall_events().len()))?;
        Ok(())
    })
}

/// Writes protective-fall event `index` (oldest first) of a character to `*out`; an index past the count is
/// `FLINCH_STATUS_INVALID_ARGUMENT`.
///
/// # Safety
/// `out` is NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_character_fall_event(
    world: FlinchWorld,
    key: FlinchCharacterKey,
    index: usize,
    out: *mut FlinchFallEvent,
) -> FlinchStatus {
    const F: &str = "flinch_character_fall_event";
    guard(F, || {
        // SAFETY: forwarded contract.
        let out = unsafe { args::out(F, "out", out) }?;
        *out = with_character(F, world, key, |c| {
            let e = args::item(F, "fall event", c.fall_events(), index)?;
            Ok(FlinchFallEvent {
                time: e.time,
                phase: FlinchFallPhase::from_core(e.phase) as u32,
                point: e.point.into(),
                joint: e
                    .body
                    .map_or(usize::MAX, |b| c.model().bodies[b].skeleton_joint),
            })
        })?;
        Ok(())
    })
}
