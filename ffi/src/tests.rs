//! Robustness of the C ABI: NULL pointers, stale and destroyed handles, double destroy, bad UTF-8, small buffers,
//! garbage clips and unknown bones each return their documented status with a message naming the problem.

use std::ffi::{CStr, CString, c_char};
use std::ptr::{null, null_mut};

use crate::clip::*;
use crate::error::{FlinchStatus, flinch_last_error};
use crate::query::*;
use crate::world::*;
use crate::{FlinchStatus as S, flinch_version};

const WALK: &[u8] = flinch_core::io::EMBEDDED_WALK_BVH;

fn last_error() -> String {
    // SAFETY: flinch_last_error never returns NULL and the string lives until the next call on this thread.
    unsafe { CStr::from_ptr(flinch_last_error()) }
        .to_string_lossy()
        .into_owned()
}

/// Asserts `status` and that the last error contains every one of `words`.
#[track_caller]
pub(crate) fn expect(status: FlinchStatus, want: FlinchStatus, words: &[&str]) {
    let msg = last_error();
    assert_eq!(status, want, "message: {msg}");
    for w in words {
        assert!(msg.contains(w), "`{w}` not in message: {msg}");
    }
}

pub(crate) fn walk_clip() -> FlinchClip {
    let mut clip = FlinchClip { id: 0 };
    let name = CString::new("walk.bvh").unwrap();
    // SAFETY: valid buffer, string and output.
    let s = unsafe {
        flinch_clip_load_memory(
            WALK.as_ptr(),
            WALK.len(),
            FlinchFormat::Bvh as i32,
            name.as_ptr(),
            &mut clip,
        )
    };
    expect(s, S::Ok, &[]);
    clip
}

/// A world with the walk character in it (one preprocessing, shared by the tests that need one).
pub(crate) fn world_with_walk() -> (FlinchWorld, FlinchCharacterKey) {
    let clip = walk_clip();
    let (mut c, mut w, mut k) = (
        FlinchCharacter { id: 0 },
        FlinchWorld { id: 0 },
        FlinchCharacterKey { id: 0 },
    );
    // SAFETY: valid outputs.
    unsafe {
        expect(flinch_character_create(clip, null(), &mut c), S::Ok, &[]);
        expect(flinch_world_create(&mut w), S::Ok, &[]);
        expect(flinch_world_add_character(w, c, &mut k), S::Ok, &[]);
    }
    expect(flinch_clip_destroy(clip), S::Ok, &[]);
    (w, k)
}

#[test]
fn version_and_empty_error_after_success() {
    // SAFETY: static NUL-terminated string.
    let v = unsafe { CStr::from_ptr(flinch_version()) }
        .to_str()
        .unwrap();
    assert_eq!(v, env!("CARGO_PKG_VERSION"));
    let mut w = FlinchWorld { id: 0 };
    // SAFETY: valid output.
    expect(unsafe { flinch_world_create(&mut w) }, S::Ok, &[]);
    assert_eq!(last_error(), "");
    expect(flinch_world_destroy(w), S::Ok, &[]);
}

#[test]
fn null_pointers_are_reported_by_argument_name() {
    // SAFETY: every pointer is NULL or valid; NULLs are what is tested.
    unsafe {
        expect(
            flinch_clip_load_file(null(), null_mut()),
            S::NullPointer,
            &["flinch_clip_load_file", "`path`"],
        );
        let path = CString::new("x.bvh").unwrap();
        expect(
            flinch_clip_load_file(path.as_ptr(), null_mut()),
            S::NullPointer,
            &["`out`"],
        );
        let mut clip = FlinchClip { id: 0 };
        expect(
            flinch_clip_load_memory(null(), 3, 0, null(), &mut clip),
            S::NullPointer,
            &["`data`"],
        );
        expect(
            flinch_world_create(null_mut()),
            S::NullPointer,
            &["flinch_world_create", "`out`"],
        );
    }
    assert_eq!(
        FlinchClip { id: 0 },
        FlinchClip { id: 0 },
        "outputs untouched"
    );
    let (w, k) = world_with_walk();
    // SAFETY: as above.
    unsafe {
        expect(
            flinch_world_apply_impulse(w, k, null(), null(), [1.0, 0.0, 0.0].as_ptr()),
            S::NullPointer,
            &["`bone`"],
        );
        let bone = CString::new("RightForeArm").unwrap();
        expect(
            flinch_world_apply_impulse(w, k, bone.as_ptr(), null(), null()),
            S::NullPointer,
            &["`impulse`"],
        );
        expect(
            flinch_character_joint_deviations(w, k, null_mut(), 100),
            S::NullPointer,
            &["`out`"],
        );
        expect(
            flinch_world_time(w, null_mut()),
            S::NullPointer,
            &["flinch_world_time"],
        );
    }
    expect(flinch_world_destroy(w), S::Ok, &[]);
}

#[test]
fn stale_handles_and_double_destroy() {
    let (w, k) = world_with_walk();
    let mut n = 0usize;
    // SAFETY: valid outputs.
    unsafe {
        expect(flinch_character_joint_count(w, k, &mut n), S::Ok, &[]);
        assert_eq!(n, 31, "CMU skeleton joints");
        // Removed character: its key is stale; the detached character can be re-added under a new key.
        let mut detached = FlinchCharacter { id: 0 };
        expect(
            flinch_world_remove_character(w, k, &mut detached),
            S::Ok,
            &[],
        );
        expect(
            flinch_character_joint_count(w, k, &mut n),
            S::InvalidHandle,
            &["character", "not in this world"],
        );
        expect(
            flinch_world_remove_character(w, k, null_mut()),
            S::InvalidHandle,
            &["flinch_world_remove_character"],
        );
        let mut k2 = FlinchCharacterKey { id: 0 };
        expect(flinch_world_add_character(w, detached, &mut k2), S::Ok, &[]);
        assert_ne!(k2, k);
        // The detached handle was consumed.
        expect(
            flinch_world_add_character(w, detached, &mut k2),
            S::InvalidHandle,
            &["character", "stale"],
        );
        expect(
            flinch_character_destroy(detached),
            S::InvalidHandle,
            &["flinch_character_destroy"],
        );
    }
    expect(flinch_world_destroy(w), S::Ok, &[]);
    expect(
        flinch_world_destroy(w),
        S::InvalidHandle,
        &["flinch_world_destroy", "world", "stale"],
    );
    expect(
        flinch_world_step(w, 0.01),
        S::InvalidHandle,
        &["flinch_world_step", "destroyed"],
    );
    // SAFETY: valid output.
    expect(
        unsafe { flinch_character_joint_count(w, k, &mut n) },
        S::InvalidHandle,
        &["world"],
    );
    expect(
        flinch_world_step(FlinchWorld { id: 0 }, 0.01),
        S::InvalidHandle,
        &["null handle"],
    );
    expect(
        flinch_world_step(
            FlinchWorld {
                id: 77 << 32 | 9999,
            },
            0.01,
        ),
        S::InvalidHandle,
        &["never issued"],
    );
    let clip = walk_clip();
    expect(flinch_clip_destroy(clip), S::Ok, &[]);
    expect(
        flinch_clip_destroy(clip),
        S::InvalidHandle,
        &["clip", "stale"],
    );
    let mut c = FlinchCharacter { id: 0 };
    // SAFETY: valid output.
    expect(
        unsafe { flinch_character_create(clip, null(), &mut c) },
        S::InvalidHandle,
        &["flinch_character_create", "clip"],
    );
}

#[test]
fn bad_utf8_bad_numbers_and_unknown_bone() {
    let (w, k) = world_with_walk();
    let bad = [0x52u8, 0xff, 0xfe, 0];
    let impulse = [6.75, 0.0, 0.0];
    // SAFETY: NUL-terminated strings and 3-double arrays.
    unsafe {
        let s = flinch_world_apply_impulse(
            w,
            k,
            bad.as_ptr().cast::<c_char>(),
            null(),
            impulse.as_ptr(),
        );
        expect(s, S::InvalidArgument, &["`bone`", "UTF-8", "byte 1"]);
        let bone = CString::new("LeftWing").unwrap();
        let s = flinch_world_apply_impulse(w, k, bone.as_ptr(), null(), impulse.as_ptr());
        expect(s, S::UnknownBone, &["LeftWing"]);
        // Bone references follow the library's one rule: `role:NAME` and names read as roles work too.
        for reference in ["role:right_forearm", "mixamorig:RightForeArm", "lowerarm_r"] {
            let bone = CString::new(reference).unwrap();
            let s = flinch_world_apply_impulse(w, k, bone.as_ptr(), null(), impulse.as_ptr());
            expect(s, S::Ok, &[]);
        }
        let bone = CString::new("role:left_wing").unwrap();
        let s = flinch_world_apply_impulse(w, k, bone.as_ptr(), null(), impulse.as_ptr());
        expect(s, S::UnknownBone, &["role:left_wing", "unknown role"]);
        let bone = CString::new("RightForeArm").unwrap();
        let nan = [f64::NAN, 0.0, 0.0];
        let s = flinch_world_apply_impulse(w, k, bone.as_ptr(), null(), nan.as_ptr());
        expect(s, S::InvalidArgument, &["`impulse`", "finite"]);
        let path = bad.as_ptr().cast::<c_char>();
        let mut clip = FlinchClip { id: 0 };
        expect(
            flinch_clip_load_file(path, &mut clip),
            S::InvalidArgument,
            &["`path`", "UTF-8"],
        );
        let mut ball = FlinchBall { id: 0 };
        let p = [0.0; 3];
        expect(
            flinch_world_spawn_ball(w, -1.0, 0.45, p.as_ptr(), p.as_ptr(), &mut ball),
            S::InvalidArgument,
            &["`radius`", "-1"],
        );
    }
    expect(
        flinch_world_step(w, 0.0),
        S::InvalidArgument,
        &["`dt`", "positive"],
    );
    expect(
        flinch_world_step(w, f64::INFINITY),
        S::InvalidArgument,
        &["`dt`"],
    );
    expect(flinch_world_destroy(w), S::Ok, &[]);
}

#[test]
fn small_buffers_report_the_needed_size() {
    let (w, k) = world_with_walk();
    let mut small = [0.0f64; 4];
    let mut name = [0 as c_char; 4];
    let mut len = 0usize;
    let mut pose = vec![FlinchTransform::default(); 31];
    // SAFETY: buffers valid for the capacities passed.
    unsafe {
        expect(
            flinch_character_joint_deviations(w, k, small.as_mut_ptr(), 4),
            S::BufferTooSmall,
            &["4 elements", "31 needed"],
        );
        expect(
            flinch_character_world_transforms(w, k, pose.as_mut_ptr(), 30),
            S::BufferTooSmall,
            &["31 needed"],
        );
        expect(
            flinch_character_world_transforms(w, k, pose.as_mut_ptr(), 31),
            S::Ok,
            &[],
        );
        let s = flinch_character_joint_name(w, k, 0, name.as_mut_ptr(), name.len(), &mut len);
        expect(s, S::BufferTooSmall, &["`buffer`"]);
        assert_eq!(len, "Hips".len());
        let mut big = [0 as c_char; 5];
        expect(
            flinch_character_joint_name(w, k, 0, big.as_mut_ptr(), big.len(), &mut len),
            S::Ok,
            &[],
        );
        assert_eq!(CStr::from_ptr(big.as_ptr()).to_str().unwrap(), "Hips");
        let s = flinch_character_joint_name(w, k, 31, big.as_mut_ptr(), big.len(), &mut len);
        expect(s, S::InvalidArgument, &["joint index 31", "0..31"]);
    }
    // Root rotation is a unit quaternion and the root sits at a plausible hip height.
    let q = pose[0].rotation;
    assert!(((q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).sqrt() - 1.0).abs() < 1e-12);
    assert!(
        pose[0].position[1] > 0.5 && pose[0].position[1] < 1.5,
        "{:?}",
        pose[0]
    );
    expect(flinch_world_destroy(w), S::Ok, &[]);
}

#[test]
fn garbage_clips_bad_formats_and_bad_config() {
    let garbage = b"\x00\x01 not a motion file \xff HIERARCHY?";
    let mut clip = FlinchClip { id: 0 };
    // SAFETY: valid buffers, strings and outputs.
    unsafe {
        let s = flinch_clip_load_memory(
            garbage.as_ptr(),
            garbage.len(),
            FlinchFormat::Bvh as i32,
            null(),
            &mut clip,
        );
        expect(s, S::Parse, &["memory"]);
        let s = flinch_clip_load_memory(
            garbage.as_ptr(),
            garbage.len(),
            FlinchFormat::Glb as i32,
            null(),
            &mut clip,
        );
        expect(s, S::Parse, &["memory"]);
        let s = flinch_clip_load_memory(garbage.as_ptr(), garbage.len(), 42, null(), &mut clip);
        expect(s, S::InvalidArgument, &["`format` 42"]);
        let missing = CString::new("/nonexistent/walk.bvh").unwrap();
        expect(
            flinch_clip_load_file(missing.as_ptr(), &mut clip),
            S::Io,
            &["/nonexistent/walk.bvh", "cannot read"],
        );
        let odd = CString::new("walk.fbx").unwrap();
        expect(
            flinch_clip_load_file(odd.as_ptr(), &mut clip),
            S::InvalidArgument,
            &["walk.fbx", "unknown format"],
        );
    }
    assert_eq!(clip.id, 0, "no output on failure");
    let clip = walk_clip();
    let mut c = FlinchCharacter { id: 0 };
    let config = CString::new(r#"{"gains": {"k_s": -1}}"#).unwrap();
    // SAFETY: valid string and output.
    expect(
        unsafe { flinch_character_create(clip, config.as_ptr(), &mut c) },
        S::Simulation,
        &["gains", "default"],
    );
    let config = CString::new(r#"{"gainz": 1}"#).unwrap();
    // SAFETY: valid string and output.
    expect(
        unsafe { flinch_character_create(clip, config.as_ptr(), &mut c) },
        S::Config,
        &["config_json", "gainz"],
    );
    expect(flinch_clip_destroy(clip), S::Ok, &[]);
}

#[test]
fn a_ball_thrown_at_the_forearm_is_a_hit_event() {
    let (w, k) = world_with_walk();
    let mut pose = vec![FlinchTransform::default(); 31];
    let mut name = [0 as c_char; 64];
    let (mut forearm, mut hand) = (usize::MAX, usize::MAX);
    // SAFETY: buffers valid for the capacities passed, outputs valid.
    unsafe {
        expect(
            flinch_character_world_transforms(w, k, pose.as_mut_ptr(), pose.len()),
            S::Ok,
            &[],
        );
        for j in 0..31 {
            expect(
                flinch_character_joint_name(w, k, j, name.as_mut_ptr(), name.len(), null_mut()),
                S::Ok,
                &[],
            );
            match CStr::from_ptr(name.as_ptr()).to_str().unwrap() {
                "RightForeArm" => forearm = j,
                "RightHand" => hand = j,
                _ => {}
            }
        }
    }
    // Aim a 0.45 kg ball at 15 m/s (+X) at the middle of the forearm, from 0.3 m away.
    let mid: Vec<f64> = (0..3)
        .map(|i| 0.5 * (pose[forearm].position[i] + pose[hand].position[i]))
        .collect();
    let start = [mid[0] - 0.3, mid[1], mid[2]];
    let velocity = [15.0, 0.0, 0.0];
    let mut ball = FlinchBall { id: 0 };
    let mut events = Vec::new();
    // SAFETY: 3-double arrays and valid outputs.
    unsafe {
        expect(
            flinch_world_spawn_ball(w, 0.11, 0.45, start.as_ptr(), velocity.as_ptr(), &mut ball),
            S::Ok,
            &[],
        );
        for _ in 0..12 {
            expect(flinch_world_step(w, 1.0 / 120.0), S::Ok, &[]);
            let mut n = 0;
            expect(flinch_world_event_count(w, &mut n), S::Ok, &[]);
            for i in 0..n {
                let mut e = std::mem::MaybeUninit::<FlinchHitEvent>::uninit();
                expect(flinch_world_event(w, i, e.as_mut_ptr()), S::Ok, &[]);
                events.push(e.assume_init());
            }
            let mut e = std::mem::MaybeUninit::<FlinchHitEvent>::uninit();
            expect(
                flinch_world_event(w, n, e.as_mut_ptr()),
                S::InvalidArgument,
                &["event index"],
            );
        }
        let (mut p, mut v) = ([0.0; 3], [0.0; 3]);
        expect(
            flinch_world_ball_state(w, ball, p.as_mut_ptr(), v.as_mut_ptr()),
            S::Ok,
            &[],
        );
        assert!(v[0] < 15.0, "the ball gave up momentum: {v:?}");
    }
    assert!(!events.is_empty(), "no hit event");
    let e = events[0];
    assert_eq!(e.ball, ball);
    assert_eq!(e.character, k);
    assert!(
        e.joint == forearm || e.joint == hand,
        "hit joint {}",
        e.joint
    );
    // The ball gives up its normal momentum relative to the (moving) arm's surface: about m·15 m/s along +X.
    let norm = (e.impulse.iter().map(|x| x * x).sum::<f64>()).sqrt();
    assert!(e.impulse[0] > 0.0 && norm < 0.45 * 20.0, "{:?}", e.impulse);
    expect(flinch_world_remove_ball(w, ball), S::Ok, &[]);
    expect(
        flinch_world_remove_ball(w, ball),
        S::InvalidHandle,
        &["ball", "not in this world"],
    );
    expect(flinch_world_destroy(w), S::Ok, &[]);
}

#[test]
fn worlds_on_two_threads_are_independent_and_deterministic() {
    let run = || {
        std::thread::spawn(|| {
            let (w, k) = world_with_walk();
            let bone = CString::new("RightForeArm").unwrap();
            let mut dev = vec![0.0; 31];
            // SAFETY: valid string, 3-double array, buffer of 31.
            unsafe {
                expect(
                    flinch_world_apply_impulse(
                        w,
                        k,
                        bone.as_ptr(),
                        null(),
                        [0.0, 0.0, 5.0].as_ptr(),
                    ),
                    S::Ok,
                    &[],
                );
                for _ in 0..30 {
                    expect(flinch_world_step(w, 1.0 / 120.0), S::Ok, &[]);
                }
                expect(
                    flinch_character_joint_deviations(w, k, dev.as_mut_ptr(), dev.len()),
                    S::Ok,
                    &[],
                );
            }
            expect(flinch_world_destroy(w), S::Ok, &[]);
            dev
        })
    };
    let (a, b) = (run(), run());
    let (a, b) = (a.join().expect("thread a"), b.join().expect("thread b"));
    assert_eq!(a, b);
    assert!(
        a.iter().cloned().fold(0.0, f64::max) > 0.01,
        "the hit shows: {a:?}"
    );
}
