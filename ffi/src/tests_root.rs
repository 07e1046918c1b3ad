//! Free roots through the C ABI: an assisted walk from JSON configuration tracks on its floor, a big chest hit
//! makes it stagger (an event), the policy switches at runtime, and every misuse (bad enum, NaN or out-of-range
//! weight, NULL outputs, event index past the end, kinematic ground, a clip without feet) returns its status and
//! a message.

use std::ffi::CString;
use std::ptr::{null, null_mut};

use crate::FlinchStatus as S;
use crate::clip::*;
use crate::query::flinch_character_joint_count;
use crate::root::*;
use crate::tests::{expect, walk_clip, world_with_walk};
use crate::world::*;

const H: f64 = 1.0 / 120.0;

/// A world with the walk built from `config` JSON.
fn world_with_config(config: &str) -> (FlinchWorld, FlinchCharacterKey) {
    let clip = walk_clip();
    let config = CString::new(config).unwrap();
    let (mut c, mut w, mut k) = (
        FlinchCharacter { id: 0 },
        FlinchWorld { id: 0 },
        FlinchCharacterKey { id: 0 },
    );
    // SAFETY: valid string and outputs.
    unsafe {
        expect(
            flinch_character_create(clip, config.as_ptr(), &mut c),
            S::Ok,
            &[],
        );
        expect(flinch_world_create(&mut w), S::Ok, &[]);
        expect(flinch_world_add_character(w, c, &mut k), S::Ok, &[]);
    }
    expect(flinch_clip_destroy(clip), S::Ok, &[]);
    (w, k)
}

fn state(w: FlinchWorld, k: FlinchCharacterKey) -> FlinchRootState {
    let mut s = FlinchRootState::GettingUp;
    // SAFETY: valid output.
    expect(
        unsafe { flinch_character_root_state(w, k, &mut s) },
        S::Ok,
        &[],
    );
    s
}

fn policy(w: FlinchWorld, k: FlinchCharacterKey) -> FlinchRootPolicy {
    let mut p = FlinchRootPolicy::Free;
    // SAFETY: valid output.
    expect(
        unsafe { flinch_character_root_policy(w, k, &mut p) },
        S::Ok,
        &[],
    );
    p
}

fn events(w: FlinchWorld, k: FlinchCharacterKey) -> Vec<FlinchRootEvent> {
    let mut n = usize::MAX;
    // SAFETY: valid output.
    expect(
        unsafe { flinch_character_root_event_count(w, k, &mut n) },
        S::Ok,
        &[],
    );
    (0..n)
        .map(|i| {
            let mut e = FlinchRootEvent {
                time: f64::NAN,
                from: u32::MAX,
                to: u32::MAX,
            };
            // SAFETY: valid output.
            expect(
                unsafe { flinch_character_root_event(w, k, i, &mut e) },
                S::Ok,
                &[],
            );
            e
        })
        .collect()
}

fn floor(w: FlinchWorld, k: FlinchCharacterKey) -> Result<f64, S> {
    let mut f = f64::NAN;
    // SAFETY: valid output.
    match unsafe { flinch_character_ground_floor(w, k, &mut f) } {
        S::Ok => Ok(f),
        s => Err(s),
    }
}

#[test]
fn assisted_walk_from_json_tracks_then_staggers_after_a_chest_hit() {
    let (w, k) = world_with_config(r#"{"root": {"policy": "assisted"}}"#);
    assert_eq!(policy(w, k), FlinchRootPolicy::Assisted);
    for _ in 0..240 {
        expect(flinch_world_step(w, H), S::Ok, &[]);
        assert_eq!(state(w, k), FlinchRootState::Tracking);
    }
    assert!(events(w, k).is_empty());
    let f = floor(w, k).expect("an assisted root has a floor");
    assert!(f.is_finite(), "floor {f}");
    let mut pen = f64::NAN;
    // SAFETY: valid output.
    expect(
        unsafe { flinch_character_ground_penetration(w, k, &mut pen) },
        S::Ok,
        &[],
    );
    // Feet on the floor through the contacts: a few centimetres at most below it.
    assert!((0.0..0.05).contains(&pen), "penetration {pen} m");
    let mut clip_time = f64::NAN;
    let mut time = f64::NAN;
    // SAFETY: valid outputs.
    unsafe {
        expect(flinch_character_clip_time(w, k, &mut clip_time), S::Ok, &[]);
        expect(flinch_world_time(w, &mut time), S::Ok, &[]);
    }
    assert!((clip_time - time).abs() < 1e-9, "{clip_time} vs {time}");

    let chest = CString::new("role:chest").unwrap();
    let impulse = [60.0, 0.0, 0.0];
    // SAFETY: valid string and vector; NULL point = the centre of mass.
    expect(
        unsafe { flinch_world_apply_impulse(w, k, chest.as_ptr(), null(), impulse.as_ptr()) },
        S::Ok,
        &[],
    );
    for _ in 0..360 {
        let s = flinch_world_step(w, H);
        assert!(matches!(s, S::Ok | S::Recovered), "{s:?}");
    }
    let ev = events(w, k);
    assert!(!ev.is_empty());
    assert_eq!(ev[0].from, FlinchRootState::Tracking as u32);
    assert_eq!(ev[0].to, FlinchRootState::Staggering as u32);
    assert!(ev[0].time > time && ev[0].time <= time + 0.1, "{ev:?}");
    for pair in ev.windows(2) {
        assert_eq!(pair[0].to, pair[1].from, "{ev:?}");
        assert!(pair[0].time <= pair[1].time, "{ev:?}");
    }
    assert_eq!(
        state(w, k) as u32,
        ev.last().unwrap().to,
        "the state is the last event's"
    );
    expect(flinch_world_destroy(w), S::Ok, &[]);
}

#[test]
fn the_policy_switches_at_runtime() {
    let (w, k) = world_with_walk();
    assert_eq!(policy(w, k), FlinchRootPolicy::Kinematic);
    assert_eq!(state(w, k), FlinchRootState::Tracking);
    assert_eq!(floor(w, k), Err(S::InvalidArgument));
    expect(
        S::InvalidArgument,
        S::InvalidArgument,
        &["flinch_character_ground_floor", "kinematic root"],
    );
    let mut pen = f64::NAN;
    // SAFETY: valid output.
    expect(
        unsafe { flinch_character_ground_penetration(w, k, &mut pen) },
        S::Ok,
        &[],
    );
    assert_eq!(pen, 0.0);
    expect(
        flinch_character_set_root_policy(w, k, FlinchRootPolicy::Free as i32),
        S::Ok,
        &[],
    );
    assert_eq!(policy(w, k), FlinchRootPolicy::Free);
    assert!(floor(w, k).is_ok_and(f64::is_finite));
    expect(
        flinch_character_set_root_policy(w, k, FlinchRootPolicy::Assisted as i32),
        S::Ok,
        &[],
    );
    expect(flinch_character_set_assist_weight(w, k, 0.5), S::Ok, &[]);
    let mut weight = f64::NAN;
    // SAFETY: `weight` is a valid f64 for the call.
    let status = unsafe { flinch_character_assist_weight(w, k, &mut weight) };
    expect(status, S::Ok, &[]);
    assert_eq!(weight, 0.5);
    for _ in 0..12 {
        expect(flinch_world_step(w, H), S::Ok, &[]);
    }
    assert_eq!(policy(w, k), FlinchRootPolicy::Assisted);
    expect(
        flinch_character_set_root_policy(w, k, FlinchRootPolicy::Kinematic as i32),
        S::Ok,
        &[],
    );
    assert_eq!(policy(w, k), FlinchRootPolicy::Kinematic);
    assert!(events(w, k).is_empty());
    expect(flinch_world_step(w, H), S::Ok, &[]);
    expect(flinch_world_destroy(w), S::Ok, &[]);
}

#[test]
fn misuse_returns_a_status_and_a_message() {
    let (w, k) = world_with_walk();
    const SP: &str = "flinch_character_set_root_policy";
    for bad in [4, -1, i32::MAX] {
        expect(
            flinch_character_set_root_policy(w, k, bad),
            S::InvalidArgument,
            &[SP, "not a FlinchRootPolicy", &bad.to_string()],
        );
    }
    assert_eq!(policy(w, k), FlinchRootPolicy::Kinematic);
    const AW: &str = "flinch_character_set_assist_weight";
    for bad in [f64::NAN, f64::INFINITY, -0.1, 1.5] {
        expect(
            flinch_character_set_assist_weight(w, k, bad),
            S::InvalidArgument,
            &[AW, "[0, 1]"],
        );
    }
    // SAFETY: NULL outputs are reported, not written.
    unsafe {
        expect(
            flinch_character_root_policy(w, k, null_mut()),
            S::NullPointer,
            &["flinch_character_root_policy", "`out`"],
        );
        expect(
            flinch_character_root_state(w, k, null_mut()),
            S::NullPointer,
            &["flinch_character_root_state"],
        );
        expect(
            flinch_character_root_event_count(w, k, null_mut()),
            S::NullPointer,
            &["flinch_character_root_event_count"],
        );
        expect(
            flinch_character_root_event(w, k, 0, null_mut()),
            S::NullPointer,
            &["flinch_character_root_event"],
        );
        expect(
            flinch_character_ground_floor(w, k, null_mut()),
            S::NullPointer,
            &["flinch_character_ground_floor"],
        );
        expect(
            flinch_character_ground_penetration(w, k, null_mut()),
            S::NullPointer,
            &["flinch_character_ground_penetration"],
        );
        expect(
            flinch_character_clip_time(w, k, null_mut()),
            S::NullPointer,
            &["flinch_character_clip_time"],
        );
        let mut e = FlinchRootEvent {
            time: -7.0,
            from: 9,
            to: 9,
        };
        expect(
            flinch_character_root_event(w, k, 0, &mut e),
            S::InvalidArgument,
            &["flinch_character_root_event", "index 0 out of range (0..0)"],
        );
        assert_eq!((e.time, e.from, e.to), (-7.0, 9, 9), "output not written");
        let mut f = -7.0;
        expect(
            flinch_character_ground_floor(w, k, &mut f),
            S::InvalidArgument,
            &["flinch_character_ground_floor", "kinematic root"],
        );
        assert_eq!(f, -7.0, "output not written");
    }
    // Stale keys and dead worlds.
    let stale = FlinchCharacterKey {
        id: k.id ^ (1 << 40),
    };
    expect(
        flinch_character_set_root_policy(w, stale, 1),
        S::InvalidHandle,
        &[SP],
    );
    expect(
        flinch_character_set_assist_weight(w, stale, 0.5),
        S::InvalidHandle,
        &[AW],
    );
    expect(flinch_world_destroy(w), S::Ok, &[]);
    let mut s = FlinchRootState::Tracking;
    // SAFETY: valid output.
    expect(
        unsafe { flinch_character_root_state(w, k, &mut s) },
        S::InvalidHandle,
        &["flinch_character_root_state", "world"],
    );
    expect(
        flinch_character_set_root_policy(w, k, 2),
        S::InvalidHandle,
        &[SP, "world"],
    );
}

/// A chain of three bones (hips, spine, head) moving for a few frames: a character, but no feet.
const NO_FEET: &str = "HIERARCHY\nROOT Hips\n{\n\tOFFSET 0 0 0\n\tCHANNELS 6 Xposition Yposition Zposition \
Zrotation Xrotation Yrotation\n\tJOINT Spine\n\t{\n\t\tOFFSET 0 20 0\n\t\tCHANNELS 3 Zrotation Xrotation Yrotation\n\
\t\tJOINT Head\n\t\t{\n\t\t\tOFFSET 0 20 0\n\t\t\tCHANNELS 3 Zrotation Xrotation Yrotation\n\t\t\tEnd Site\n\
\t\t\t{\n\t\t\t\tOFFSET 0 10 0\n\t\t\t}\n\t\t}\n\t}\n}\nMOTION\nFrames: 4\nFrame Time: 0.0333333\n\
0 90 0 0 0 0 0 0 0 0 0 0\n0 90 0 0 0 0 5 0 0 2 0 0\n0 90 0 0 0 0 10 0 0 4 0 0\n0 90 0 0 0 0 15 0 0 6 0 0\n";

#[test]
fn a_clip_without_feet_cannot_go_free() {
    let mut clip = FlinchClip { id: 0 };
    // SAFETY: valid bytes and output.
    expect(
        unsafe {
            flinch_clip_load_memory(
                NO_FEET.as_ptr(),
                NO_FEET.len(),
                FlinchFormat::Bvh as i32,
                null(),
                &mut clip,
            )
        },
        S::Ok,
        &[],
    );
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
    for p in [FlinchRootPolicy::Free, FlinchRootPolicy::Assisted] {
        expect(
            flinch_character_set_root_policy(w, k, p as i32),
            S::Simulation,
            &["flinch_character_set_root_policy", "no feet"],
        );
        assert_eq!(policy(w, k), FlinchRootPolicy::Kinematic);
    }
    expect(flinch_world_step(w, H), S::Ok, &[]);
    // Asked for at creation, the same error.
    let config = CString::new(r#"{"root": {"policy": "free"}}"#).unwrap();
    // SAFETY: valid string and output.
    expect(
        unsafe { flinch_character_create(clip, config.as_ptr(), &mut c) },
        S::Simulation,
        &["flinch_character_create", "no feet"],
    );
    expect(flinch_world_destroy(w), S::Ok, &[]);
    expect(flinch_clip_destroy(clip), S::Ok, &[]);
}

#[test]
fn characters_of_a_prepared_clip_take_its_root_policy() {
    let clip = walk_clip();
    let config = CString::new(r#"{"root": {"policy": "free"}}"#).unwrap();
    let mut prepared = crate::prepared::FlinchPreparedClip { id: 0 };
    let (mut w, mut k) = (FlinchWorld { id: 0 }, FlinchCharacterKey { id: 0 });
    // SAFETY: valid string and outputs.
    unsafe {
        expect(
            crate::prepared::flinch_prepared_clip_create(clip, config.as_ptr(), &mut prepared),
            S::Ok,
            &[],
        );
        expect(flinch_world_create(&mut w), S::Ok, &[]);
        expect(
            crate::prepared::flinch_world_add_prepared(w, prepared, &mut k),
            S::Ok,
            &[],
        );
    }
    assert_eq!(policy(w, k), FlinchRootPolicy::Free);
    assert!(floor(w, k).is_ok_and(f64::is_finite));
    expect(flinch_world_step(w, H), S::Ok, &[]);
    assert_eq!(state(w, k), FlinchRootState::Tracking);
    expect(
        crate::prepared::flinch_prepared_clip_destroy(prepared),
        S::Ok,
        &[],
    );
    expect(flinch_world_destroy(w), S::Ok, &[]);
    expect(flinch_clip_destroy(clip), S::Ok, &[]);
}

fn fall_events(w: FlinchWorld, k: FlinchCharacterKey) -> Vec<crate::fall::FlinchFallEvent> {
    use crate::fall::*;
    let mut n = usize::MAX;
    // SAFETY: valid output.
    expect(
        unsafe { flinch_character_fall_event_count(w, k, &mut n) },
        S::Ok,
        &[],
    );
    (0..n)
        .map(|i| {
            let mut e = FlinchFallEvent {
                time: f64::NAN,
                phase: u32::MAX,
                point: [f64::NAN; 3],
                joint: 0,
            };
            // SAFETY: valid output.
            expect(
                unsafe { flinch_character_fall_event(w, k, i, &mut e) },
                S::Ok,
                &[],
            );
            e
        })
        .collect()
}

#[test]
fn a_knocked_down_walker_reports_its_protective_fall_phases() {
    use crate::fall::*;
    let (w, k) = world_with_config(r#"{"root": {"policy": "assisted"}}"#);
    for _ in 0..60 {
        expect(flinch_world_step(w, H), S::Ok, &[]);
    }
    assert!(fall_events(w, k).is_empty());
    let chest = CString::new("role:chest").unwrap();
    let impulse = [250.0, 0.0, 0.0];
    // SAFETY: valid string and vector; NULL point = the centre of mass.
    expect(
        unsafe { flinch_world_apply_impulse(w, k, chest.as_ptr(), null(), impulse.as_ptr()) },
        S::Ok,
        &[],
    );
    for _ in 0..480 {
        let s = flinch_world_step(w, H);
        assert!(matches!(s, S::Ok | S::Recovered), "{s:?}");
    }
    let falling = events(w, k)
        .into_iter()
        .find(|e| e.to == FlinchRootState::Falling as u32)
        .expect("the 250 N·s push knocks the walker down");
    let fall = fall_events(w, k);
    assert!(!fall.is_empty());
    // The fall begins with the reach, when the root state turns to Falling; phases come in order, an impact names
    // a joint of the skeleton, and the fall ends limp.
    assert_eq!(fall[0].phase, FlinchFallPhase::Reach as u32, "{fall:?}");
    assert!((fall[0].time - falling.time).abs() < 1e-9, "{fall:?}");
    assert_eq!(fall[0].joint, usize::MAX);
    let mut joints = 0;
    // SAFETY: valid output.
    expect(
        unsafe { flinch_character_joint_count(w, k, &mut joints) },
        S::Ok,
        &[],
    );
    for pair in fall.windows(2) {
        assert!(pair[0].time <= pair[1].time, "{fall:?}");
        assert!(pair[0].phase <= pair[1].phase, "{fall:?}");
    }
    for e in &fall {
        assert!(e.point.iter().all(|c| c.is_finite()), "{e:?}");
        if e.phase == FlinchFallPhase::Impact as u32 {
            assert!(e.joint < joints, "{e:?}");
        }
    }
    assert_eq!(
        fall.last().unwrap().phase,
        FlinchFallPhase::Limp as u32,
        "{fall:?}"
    );

    let mut e = std::mem::MaybeUninit::<FlinchFallEvent>::uninit();
    // SAFETY: valid output (or NULL on purpose).
    unsafe {
        expect(
            flinch_character_fall_event(w, k, fall.len(), e.as_mut_ptr()),
            S::InvalidArgument,
            &["fall event index", "out of range"],
        );
        expect(
            flinch_character_fall_event_count(w, k, null_mut()),
            S::NullPointer,
            &["out"],
        );
    }
    expect(flinch_world_destroy(w), S::Ok, &[]);
    // A kinematic root never falls.
    let (w, k) = world_with_walk();
    assert!(fall_events(w, k).is_empty());
    expect(flinch_world_destroy(w), S::Ok, &[]);
}
