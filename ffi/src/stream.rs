//! Streamed targets from an engine's animation system: clip frames for the engine to sample itself, characters
//! built for streaming, and the per-frame target pose (see docs/engine.md).

use std::ffi::c_char;

use flinch_core::control::{Character, CharacterConfig, PoseVelocities};
use flinch_core::io::Imported;
use flinch_core::scene::CharacterKey;
use flinch_core::skeleton::Pose;
use nalgebra::{Quaternion, UnitQuaternion, Vector3};

use crate::args;
use crate::clip::{FlinchCharacter, FlinchClip, clip, insert_character};
use crate::error::{FfiError, FlinchStatus, guard};
use crate::query::{FlinchTransform, write_local_pose};
use crate::world::{FlinchCharacterKey, FlinchWorld, scene_error, with_scene};

/// The velocity of one skeleton joint in a streamed target: `angular` (rad/s) of its local rotation, in the
/// joint's own rotated frame (`q(t + dt) ≈ q(t)·exp(dt·ω)`); `linear` (m/s, the root's translation velocity in
/// its parent frame; ignored on other joints).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct FlinchJointVelocity {
    /// Translation velocity x, y, z (m/s); root only.
    pub linear: [f64; 3],
    /// Angular velocity x, y, z (rad/s).
    pub angular: [f64; 3],
}

/// Number of frames of a clip (a detected leading T-pose frame excluded), for an engine sampling it itself.
///
/// # Safety
/// `out` is NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_clip_frame_count(
    clip_handle: FlinchClip,
    out: *mut usize,
) -> FlinchStatus {
    const F: &str = "flinch_clip_frame_count";
    guard(F, || {
        // SAFETY: forwarded contract.
        let out = unsafe { args::out(F, "out", out) }?;
        let imported = clip(F, clip_handle)?;
        *out = imported.animation_frames().len();
        Ok(())
    })
}

/// Seconds between a clip's frames.
///
/// # Safety
/// `out` is NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_clip_frame_time(
    clip_handle: FlinchClip,
    out: *mut f64,
) -> FlinchStatus {
    const F: &str = "flinch_clip_frame_time";
    guard(F, || {
        // SAFETY: forwarded contract.
        let out = unsafe { args::out(F, "out", out) }?;
        *out = clip(F, clip_handle)?.clip.frame_time;
        Ok(())
    })
}

/// Writes frame `index` of a clip (a detected leading T-pose frame excluded) as a local pose per skeleton joint,
/// in the layout of `flinch_character_local_pose`: rotation relative to the rest pose (x, y, z, w) and local
/// translation. `out` holds `capacity` transforms (at least the joint count).
///
/// # Safety
/// `out` is NULL or valid for `capacity` writes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_clip_frame(
    clip_handle: FlinchClip,
    index: usize,
    out: *mut FlinchTransform,
    capacity: usize,
) -> FlinchStatus {
    const F: &str = "flinch_clip_frame";
    guard(F, || {
        let imported = clip(F, clip_handle)?;
        let frames = imported.animation_frames();
        let pose = frames.get(index).ok_or_else(|| {
            FfiError::argument(
                F,
                format!("frame {index} out of range (the clip has {})", frames.len()),
            )
        })?;
        // SAFETY: forwarded contract.
        unsafe { write_local_pose(F, pose, out, capacity) }
    })
}

/// Builds a character driven by streamed targets (`flinch_world_set_target_pose`) on a clip's skeleton, placed
/// at rest in the clip's first frame; no clip is preprocessed. `config_json` as for `flinch_character_create`
/// (`preprocess.rate_hz` sets its step). On success writes the detached character to `*out`.
///
/// # Safety
/// `config_json` is NULL or a NUL-terminated string; `out` is NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_character_create_streamed(
    clip_handle: FlinchClip,
    config_json: *const c_char,
    out: *mut FlinchCharacter,
) -> FlinchStatus {
    const F: &str = "flinch_character_create_streamed";
    guard(F, || {
        // SAFETY: forwarded contract.
        let json = unsafe { args::optional_string(F, "config_json", config_json) }?;
        // SAFETY: forwarded contract.
        let out = unsafe { args::out(F, "out", out) }?;
        let imported = clip(F, clip_handle)?;
        let c = build_streamed(F, &imported, json)?;
        *out = insert_character(c);
        Ok(())
    })
}

/// Sets the target pose of character `key` for the end of the next `flinch_world_step` (one frame ahead: sample
/// the animation at the time the step ends). `pose` holds `count` local transforms (the joint count; layout of
/// `flinch_character_local_pose`: rotation relative to rest x, y, z, w, and local translation). `velocities`
/// (NULL: none) holds `count` joint velocities; they carry the target through steps no new one is set for. The
/// first call on a clip character switches it to streamed targets.
///
/// # Safety
/// `pose` is NULL or valid for `count` reads; `velocities` is NULL or valid for `count` reads.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_world_set_target_pose(
    world: FlinchWorld,
    key: FlinchCharacterKey,
    pose: *const FlinchTransform,
    count: usize,
    velocities: *const FlinchJointVelocity,
) -> FlinchStatus {
    const F: &str = "flinch_world_set_target_pose";
    guard(F, || {
        if pose.is_null() {
            return Err(FfiError::null(F, "pose"));
        }
        // SAFETY: non-NULL and valid for `count` reads per the contract.
        let transforms = unsafe { std::slice::from_raw_parts(pose, count) };
        let pose = Pose {
            translations: transforms
                .iter()
                .map(|t| Vector3::from(t.position))
                .collect(),
            rotations: transforms
                .iter()
                .map(|t| {
                    let [x, y, z, w] = t.rotation;
                    UnitQuaternion::new_unchecked(Quaternion::new(w, x, y, z))
                })
                .collect(),
        };
        let velocities = if velocities.is_null() {
            None
        } else {
            // SAFETY: non-NULL and valid for `count` reads per the contract.
            let v = unsafe { std::slice::from_raw_parts(velocities, count) };
            Some(PoseVelocities {
                root_linear: v
                    .first()
                    .map_or(Vector3::zeros(), |r| Vector3::from(r.linear)),
                angular: v.iter().map(|j| Vector3::from(j.angular)).collect(),
            })
        };
        with_scene(F, world, |scene| {
            scene
                .set_target_pose(CharacterKey::from_raw(key.id), &pose, velocities.as_ref())
                .map_err(|e| scene_error(F, key.id, e))
        })
    })
}

/// The streamed character of `imported` (at rest in its first frame) with the JSON configuration `json`.
pub(crate) fn build_streamed(
    function: &str,
    imported: &Imported,
    json: Option<&str>,
) -> Result<Character, FfiError> {
    let config = match json {
        Some(text) => CharacterConfig::from_json(text).map_err(|e| {
            FfiError::new(
                FlinchStatus::Config,
                format!("{function}: config_json: {e}"),
            )
        })?,
        None => CharacterConfig::default(),
    };
    let frames = imported.animation_frames();
    let first = frames
        .first()
        .ok_or_else(|| FfiError::argument(function, "the clip has no frame"))?;
    Character::streamed(imported.skeleton.clone(), first, None, &config)
        .map_err(|e| FfiError::new(FlinchStatus::Simulation, format!("{function}: {e}")))
}

/// A pose from per-joint (translation, rotation x y z w); the rotations are checked and normalized by the
/// character.
pub(crate) fn pose_of(joints: impl Iterator<Item = ([f64; 3], [f64; 4])>) -> Pose {
    let (translations, rotations) = joints
        .map(|(p, [x, y, z, w])| {
            (
                Vector3::from(p),
                UnitQuaternion::new_unchecked(Quaternion::new(w, x, y, z)),
            )
        })
        .unzip();
    Pose {
        translations,
        rotations,
    }
}
