//! Reading a character in a world (joints, pose, deviation from the reference) and a world's hit events.

use std::ffi::c_char;

use flinch_core::control::Character;

use crate::args;
use crate::error::{FfiError, FlinchStatus, guard};
use crate::level::FlinchCollider;
use crate::world::{FlinchBall, FlinchCharacterKey, FlinchWorld, with_character, with_scene};

/// A rigid transform: position (m) and rotation as a unit quaternion `x, y, z, w`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct FlinchTransform {
    /// Translation x, y, z (m).
    pub position: [f64; 3],
    /// Rotation quaternion x, y, z, w.
    pub rotation: [f64; 4],
}

/// A hit of the last `flinch_world_step`: a ball's touch, a kinematic collider's push (a swung bat) or a scripted
/// impulse.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FlinchHitEvent {
    /// Time of the hit (s).
    pub time: f64,
    /// The character hit.
    pub character: FlinchCharacterKey,
    /// Skeleton joint index of the body hit (`SIZE_MAX` if the character has been removed since).
    pub joint: usize,
    /// Contact point (m, world).
    pub point: [f64; 3],
    /// Contact normal (unit, world).
    pub normal: [f64; 3],
    /// Impulse given to the character (N·s, world).
    pub impulse: [f64; 3],
    /// The ball (id 0: not a ball).
    pub ball: FlinchBall,
    /// The kinematic collider that pushed (id 0: not a collider).
    pub collider: FlinchCollider,
}

/// Writes `pose` into the caller's `out` (`capacity` transforms, at least one per joint): local translation and
/// rotation relative to rest (x, y, z, w), the layout of `flinch_character_local_pose` and `flinch_clip_frame`.
///
/// # Safety
/// `out` is NULL or valid for `capacity` writes.
pub(crate) unsafe fn write_local_pose(
    function: &str,
    pose: &flinch_core::skeleton::Pose,
    out: *mut FlinchTransform,
    capacity: usize,
) -> Result<(), FfiError> {
    // SAFETY: forwarded contract.
    let out = unsafe { args::buffer(function, "out", out, capacity, pose.rotations.len()) }?;
    for ((o, r), t) in out.iter_mut().zip(&pose.rotations).zip(&pose.translations) {
        *o = FlinchTransform {
            position: (*t).into(),
            rotation: r.coords.into(),
        };
    }
    Ok(())
}

/// Number of skeleton joints of a character (the length of every per-joint buffer).
///
/// # Safety
/// `out` is NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_character_joint_count(
    world: FlinchWorld,
    key: FlinchCharacterKey,
    out: *mut usize,
) -> FlinchStatus {
    const F: &str = "flinch_character_joint_count";
    guard(F, || {
        // SAFETY: forwarded contract.
        let out = unsafe { args::out(F, "out", out) }?;
        *out = with_character(F, world, key, |c| Ok(c.skeleton().len()))?;
        Ok(())
    })
}

/// Copies the name of skeleton joint `index` into `buffer` (`capacity` bytes, NUL-terminated UTF-8). `length`
/// (may be NULL) receives the name's length in bytes without the NUL, also when the buffer is too small
/// (`FLINCH_STATUS_BUFFER_TOO_SMALL`; nothing is copied then).
///
/// # Safety
/// `buffer` is NULL or valid for `capacity` bytes; `length` is NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_character_joint_name(
    world: FlinchWorld,
    key: FlinchCharacterKey,
    index: usize,
    buffer: *mut c_char,
    capacity: usize,
    length: *mut usize,
) -> FlinchStatus {
    const F: &str = "flinch_character_joint_name";
    guard(F, || {
        let name = with_character(F, world, key, |c| {
            let n = c.skeleton().len();
            c.skeleton()
                .joints
                .get(index)
                .map(|j| j.name.clone())
                .ok_or_else(|| {
                    FfiError::argument(F, format!("joint index {index} out of range (0..{n})"))
                })
        })?;
        // SAFETY: valid when non-NULL per the caller's contract.
        if let Some(length) = unsafe { length.as_mut() } {
            *length = name.len();
        }
        // SAFETY: forwarded contract.
        let buf =
            unsafe { args::buffer(F, "buffer", buffer.cast::<u8>(), capacity, name.len() + 1) }?;
        buf[..name.len()].copy_from_slice(name.as_bytes());
        buf[name.len()] = 0;
        Ok(())
    })
}

/// Writes the world transform of every skeleton joint (simulated bodies; bones merged into a body ride on it with
/// the clip's local motion) to `out`, which holds `capacity` transforms (at least the joint count).
///
/// # Safety
/// `out` is NULL or valid for `capacity` writes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_character_world_transforms(
    world: FlinchWorld,
    key: FlinchCharacterKey,
    out: *mut FlinchTransform,
    capacity: usize,
) -> FlinchStatus {
    const F: &str = "flinch_character_world_transforms";
    guard(F, || {
        let transforms = with_character(F, world, key, |c| Ok(c.world_transforms()))?;
        // SAFETY: forwarded contract.
        let out = unsafe { args::buffer(F, "out", out, capacity, transforms.len()) }?;
        for (o, t) in out.iter_mut().zip(&transforms) {
            *o = FlinchTransform {
                position: t.translation.vector.into(),
                rotation: t.rotation.coords.into(),
            };
        }
        Ok(())
    })
}

/// Writes the simulated pose in the skeleton's own terms, per joint: the local rotation relative to the rest pose
/// (x, y, z, w) and the local translation (the clip's; the root at its simulated position), for re-skinning and
/// baking. `out` holds `capacity` transforms (at least the joint count).
///
/// # Safety
/// `out` is NULL or valid for `capacity` writes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_character_local_pose(
    world: FlinchWorld,
    key: FlinchCharacterKey,
    out: *mut FlinchTransform,
    capacity: usize,
) -> FlinchStatus {
    const F: &str = "flinch_character_local_pose";
    guard(F, || {
        let pose = with_character(F, world, key, |c| Ok(c.pose()))?;
        // SAFETY: forwarded contract.
        unsafe { write_local_pose(F, &pose, out, capacity) }
    })
}

/// Deviation (radians) of every skeleton joint's simulated rotation from the reference it tracks, now: the
/// geodesic angle between the simulated and reference joint rotations of the body the joint drives (the root: its
/// world rotation, prescribed). Bones merged into their parent's body replay the clip and report 0. `out` holds
/// `capacity` doubles (at least the joint count).
///
/// # Safety
/// `out` is NULL or valid for `capacity` writes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_character_joint_deviations(
    world: FlinchWorld,
    key: FlinchCharacterKey,
    out: *mut f64,
    capacity: usize,
) -> FlinchStatus {
    const F: &str = "flinch_character_joint_deviations";
    guard(F, || {
        let deviations = with_character(F, world, key, |c| Ok(joint_deviations(c)))?;
        // SAFETY: forwarded contract.
        let out = unsafe { args::buffer(F, "out", out, capacity, deviations.len()) }?;
        out.copy_from_slice(&deviations);
        Ok(())
    })
}

/// Per skeleton joint: the deviation of the body it drives from the reference (radians), 0 for merged bones.
pub fn joint_deviations(c: &Character) -> Vec<f64> {
    let model = c.model();
    (0..c.skeleton().len())
        .map(|j| {
            let b = model.body_of_joint[j];
            if model.bodies[b].skeleton_joint == j {
                c.joint_deviation(b)
            } else {
                0.0
            }
        })
        .collect()
}

/// The step size (s) a character's reference was preprocessed for (the world substeps no longer than this).
///
/// # Safety
/// `out` is NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_character_step_size(
    world: FlinchWorld,
    key: FlinchCharacterKey,
    out: *mut f64,
) -> FlinchStatus {
    const F: &str = "flinch_character_step_size";
    guard(F, || {
        // SAFETY: forwarded contract.
        let out = unsafe { args::out(F, "out", out) }?;
        *out = with_character(F, world, key, |c| Ok(c.step_size()))?;
        Ok(())
    })
}

/// Number of hit events of the last `flinch_world_step`.
///
/// # Safety
/// `out` is NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_world_event_count(
    world: FlinchWorld,
    out: *mut usize,
) -> FlinchStatus {
    const F: &str = "flinch_world_event_count";
    guard(F, || {
        // SAFETY: forwarded contract.
        let out = unsafe { args::out(F, "out", out) }?;
        *out = with_scene(F, world, |scene| Ok(scene.events().len()))?;
        Ok(())
    })
}

/// Reads hit event `index` (< the event count) of the last `flinch_world_step` into `*out`.
///
/// # Safety
/// `out` is NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_world_event(
    world: FlinchWorld,
    index: usize,
    out: *mut FlinchHitEvent,
) -> FlinchStatus {
    const F: &str = "flinch_world_event";
    guard(F, || {
        // SAFETY: forwarded contract.
        let out = unsafe { args::out(F, "out", out) }?;
        *out = with_scene(F, world, |scene| {
            let e = args::item(F, "event", scene.events(), index)?;
            let joint = scene
                .character(e.character)
                .ok()
                .and_then(|c| c.model().bodies.get(e.body))
                .map_or(usize::MAX, |b| b.skeleton_joint);
            Ok(FlinchHitEvent {
                time: e.time,
                character: FlinchCharacterKey {
                    id: e.character.to_raw(),
                },
                joint,
                point: e.point.into(),
                normal: e.normal.into(),
                impulse: e.impulse.into(),
                ball: FlinchBall {
                    id: e.ball.map_or(0, |b| b.to_raw()),
                },
                collider: FlinchCollider {
                    id: e.collider.map_or(0, |c| c.to_raw()),
                },
            })
        })?;
        Ok(())
    })
}
