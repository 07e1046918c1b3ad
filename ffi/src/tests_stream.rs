//! Robustness of the streaming C ABI: NULL and short poses, non-finite and zero rotations, stale keys and
//! out-of-range frames return their documented status with a message naming the problem; a valid stream steps.

use std::ptr::{null, null_mut};

use crate::FlinchStatus as S;
use crate::clip::*;
use crate::query::{FlinchTransform, flinch_character_joint_deviations};
use crate::stream::*;
use crate::tests::{expect, walk_clip};
use crate::world::*;

#[test]
fn streamed_targets_through_the_c_abi_are_checked_and_followed() {
    let clip = walk_clip();
    let (mut frames, mut joints, mut frame_time) = (0usize, 0usize, 0.0f64);
    let (mut c, mut w, mut k) = (
        FlinchCharacter { id: 0 },
        FlinchWorld { id: 0 },
        FlinchCharacterKey { id: 0 },
    );
    // SAFETY: valid outputs and buffers of the stated sizes throughout.
    unsafe {
        expect(flinch_clip_frame_count(clip, &mut frames), S::Ok, &[]);
        expect(flinch_clip_joint_count(clip, &mut joints), S::Ok, &[]);
        expect(flinch_clip_frame_time(clip, &mut frame_time), S::Ok, &[]);
        assert!(frames > 300 && joints > 20 && frame_time > 0.0);
        let mut pose = vec![FlinchTransform::default(); joints];
        expect(
            flinch_clip_frame(clip, frames, pose.as_mut_ptr(), joints),
            S::InvalidArgument,
            &["flinch_clip_frame", "out of range"],
        );
        expect(
            flinch_clip_frame(clip, 0, pose.as_mut_ptr(), joints - 1),
            S::BufferTooSmall,
            &["out"],
        );
        expect(
            flinch_clip_frame_count(clip, null_mut()),
            S::NullPointer,
            &["out"],
        );
        expect(
            flinch_character_create_streamed(clip, null(), &mut c),
            S::Ok,
            &[],
        );
        expect(flinch_world_create(&mut w), S::Ok, &[]);
        expect(flinch_world_add_character(w, c, &mut k), S::Ok, &[]);

        expect(
            flinch_world_set_target_pose(w, k, null(), joints, null()),
            S::NullPointer,
            &["pose"],
        );
        expect(
            flinch_clip_frame(clip, 1, pose.as_mut_ptr(), joints),
            S::Ok,
            &[],
        );
        expect(
            flinch_world_set_target_pose(w, k, pose.as_ptr(), joints - 1, null()),
            S::InvalidArgument,
            &["rotations"],
        );
        let mut bad = pose.clone();
        bad[4].rotation = [0.0; 4];
        expect(
            flinch_world_set_target_pose(w, k, bad.as_ptr(), joints, null()),
            S::InvalidArgument,
            &["joint 4"],
        );
        bad[4].rotation = [f64::NAN, 0.0, 0.0, 1.0];
        expect(
            flinch_world_set_target_pose(w, k, bad.as_ptr(), joints, null()),
            S::InvalidArgument,
            &["joint 4"],
        );
        let stale = FlinchCharacterKey { id: k.id + 1 };
        expect(
            flinch_world_set_target_pose(w, stale, pose.as_ptr(), joints, null()),
            S::InvalidHandle,
            &["not in this world"],
        );
        let velocities = vec![FlinchJointVelocity::default(); joints];
        expect(
            flinch_world_set_target_pose(w, k, pose.as_ptr(), joints, velocities.as_ptr()),
            S::Ok,
            &[],
        );
        expect(flinch_world_step(w, 1.0 / 120.0), S::Ok, &[]);
        let mut deviations = vec![1.0; joints];
        expect(
            flinch_character_joint_deviations(w, k, deviations.as_mut_ptr(), joints),
            S::Ok,
            &[],
        );
        let worst = deviations.iter().cloned().fold(0.0, f64::max);
        assert!(
            worst < 1e-9,
            "worst deviation {worst} rad after one streamed step"
        );
        expect(flinch_world_destroy(w), S::Ok, &[]);
        expect(flinch_clip_destroy(clip), S::Ok, &[]);
    }
}
