//! Streamed targets: the embedded CMU walk pushed pose by pose through `set_target_pose` (no preprocessed clip)
//! tracks as well as the preprocessed clip, reacts to the forearm hit and returns; bad targets are refused.

use flinch::control::{
    Character, CharacterConfig, EvalOptions, Hit, PoseVelocities, evaluate, evaluate_streamed,
};
use flinch::skeleton::{Clip, Pose, Skeleton};
use nalgebra::{UnitQuaternion, Vector3};

/// The embedded walk's skeleton and clip (a leading T-pose frame dropped, as `Character::from_imported` does).
fn walk() -> (Skeleton, Clip) {
    let imported = flinch::io::load_embedded_walk(&Default::default()).unwrap();
    let mut clip = imported.clip;
    if imported.report.leading_tpose && !imported.report.leading_tpose_dropped {
        clip.drop_first_frame();
    }
    (imported.skeleton, clip)
}

fn streamed() -> (Character, Clip) {
    let (skeleton, clip) = walk();
    let c =
        Character::streamed(skeleton, &clip.frames[0], None, &CharacterConfig::default()).unwrap();
    (c, clip)
}

fn forearm_hit() -> EvalOptions {
    EvalOptions {
        hits: vec![Hit {
            bone: "RightForeArm".into(),
            time: 1.0,
            impulse: Vector3::new(6.75, 0.0, 0.0),
            point: None,
        }],
        duration: Some(3.0),
        ..Default::default()
    }
}

#[test]
fn a_streamed_walk_tracks_like_the_preprocessed_clip() {
    let (skeleton, clip) = walk();
    let mut pre = Character::new(skeleton, clip.clone(), &CharacterConfig::default()).unwrap();
    let pre = evaluate(&mut pre, &EvalOptions::default()).unwrap();
    let (mut c, clip) = streamed();
    let e = evaluate_streamed(&mut c, &clip, &EvalOptions::default()).unwrap();
    println!(
        "precomputed rms {:.3e} deg; streamed rms {:.3e} max {:.3e} deg, gap {:.2e} mm over {} steps",
        pre.track_rms_deg, e.track_rms_deg, e.track_max_deg, e.max_joint_gap_mm, e.steps
    );
    assert!(e.steps > 300, "{} steps", e.steps);
    assert!(
        e.track_rms_deg <= 2.0 * pre.track_rms_deg + 0.05,
        "streamed rms {} vs precomputed {}",
        e.track_rms_deg,
        pre.track_rms_deg
    );
    assert!(e.max_joint_gap_mm <= 0.1, "gap {} mm", e.max_joint_gap_mm);
    // The root lands on every streamed root pose (it is prescribed along them).
    let last = clip.sample(c.time().min(clip.duration()));
    let root = c.world_transforms()[0].translation.vector;
    assert!((root - last.translations[0]).norm() < 1e-9, "root {root:?}");
}

#[test]
fn a_streamed_walk_reacts_to_the_forearm_hit_and_returns() {
    let (mut c, clip) = streamed();
    let e = evaluate_streamed(&mut c, &clip, &forearm_hit()).unwrap();
    let hit = e.hit.clone().unwrap();
    println!(
        "streamed hit: peak {:.2} deg at {} t = {:.3} s, back within 2 deg after {:?} s, {:.2} J",
        hit.peak_deg, hit.peak_joint, hit.peak_time, hit.return_s, hit.energy_j
    );
    assert!(hit.peak_deg >= 15.0, "peak {}", hit.peak_deg);
    let back = hit.return_s.expect("never returned within 2 degrees");
    assert!(back <= 0.7, "return {back} s");
    assert!(e.max_joint_gap_mm <= 0.1, "gap {} mm", e.max_joint_gap_mm);
}

#[test]
fn a_clip_character_switches_to_streamed_targets_mid_clip() {
    let (skeleton, clip) = walk();
    let mut c = Character::new(skeleton, clip.clone(), &CharacterConfig::default()).unwrap();
    let h = c.step_size();
    for _ in 0..60 {
        c.step(h).unwrap();
    }
    assert!(!c.is_streamed());
    let mut worst = 0.0f64;
    for _ in 0..120 {
        let t1 = c.time() + h;
        c.set_target_pose(&clip.sample(t1), None).unwrap();
        assert!(c.has_pending_target());
        c.step(h).unwrap();
        for b in 1..c.model().bodies.len() {
            worst = worst.max(c.joint_deviation(b).to_degrees());
        }
    }
    println!("switched to the raw clip stream: worst deviation {worst:.3} deg");
    assert!(c.is_streamed());
    // The filtered reference and the raw clip differ by about a degree; the stream takes over within that.
    assert!(worst < 5.0, "worst {worst}");
}

#[test]
fn a_target_between_frames_is_reached_through_substeps() {
    let (mut c, clip) = streamed();
    let h = c.step_size();
    // 30 Hz targets, 120 Hz steps: each target is reached after four steps.
    for frame in 1..=30 {
        let t = frame as f64 / 30.0;
        c.set_target_pose_at(&clip.sample(t), None, t).unwrap();
        for _ in 0..4 {
            c.step(h).unwrap();
        }
        assert!((c.time() - t).abs() < 1e-9);
        for b in 1..c.model().bodies.len() {
            let d = c.joint_deviation(b).to_degrees();
            assert!(d < 0.05, "frame {frame} body {b}: {d} deg");
        }
    }
}

#[test]
fn without_new_targets_the_character_continues_along_the_last_velocity() {
    let (mut c, clip) = streamed();
    let h = c.step_size();
    for k in 1..=10 {
        c.set_target_pose(&clip.sample(k as f64 * h), None).unwrap();
        c.step(h).unwrap();
    }
    // Dropped frames: two steps without a target, then the stream resumes.
    c.step(h).unwrap();
    c.step(h).unwrap();
    for k in 13..=40 {
        c.set_target_pose(&clip.sample(k as f64 * h), None).unwrap();
        c.step(h).unwrap();
    }
    let worst = (1..c.model().bodies.len())
        .map(|b| c.joint_deviation(b).to_degrees())
        .fold(0.0, f64::max);
    println!("after two dropped frames: worst deviation {worst:.3} deg");
    assert!(worst < 2.0, "worst {worst}");
}

#[test]
fn initial_velocities_start_the_character_moving() {
    let (skeleton, clip) = walk();
    let n = skeleton.len();
    let root = (0..n)
        .find(|&j| skeleton.joints[j].parent.is_none())
        .unwrap();
    let (a, b) = (&clip.frames[0], &clip.frames[1]);
    let dt = clip.frame_time;
    let velocities = PoseVelocities {
        root_linear: (b.translations[root] - a.translations[root]) / dt,
        angular: (0..n)
            .map(|j| flinch::math::log_rotation(&(a.rotations[j].inverse() * b.rotations[j])) / dt)
            .collect(),
    };
    let c =
        Character::streamed(skeleton, a, Some(&velocities), &CharacterConfig::default()).unwrap();
    let v = c.world().body(0).velocity;
    let speed = Vector3::new(v[3], v[4], v[5]).norm();
    println!(
        "initial root speed {speed:.3} m/s (clip {:.3})",
        velocities.root_linear.norm()
    );
    assert!(
        (speed - velocities.root_linear.norm()).abs() < 0.05 * velocities.root_linear.norm() + 1e-3
    );
}

#[test]
fn bad_targets_are_refused_with_the_place() {
    let (mut c, clip) = streamed();
    let mut short = clip.frames[1].clone();
    short.rotations.pop();
    let e = c.set_target_pose(&short, None).unwrap_err().to_string();
    assert!(e.contains("rotations"), "{e}");
    let mut nan = clip.frames[1].clone();
    nan.translations[3].x = f64::NAN;
    let e = c.set_target_pose(&nan, None).unwrap_err().to_string();
    assert!(e.contains("joint 3"), "{e}");
    let mut zero = clip.frames[1].clone();
    zero.rotations[2] =
        UnitQuaternion::new_unchecked(nalgebra::Quaternion::new(0.0, 0.0, 0.0, 0.0));
    assert!(c.set_target_pose(&zero, None).is_err());
    let v = PoseVelocities {
        root_linear: Vector3::zeros(),
        angular: vec![Vector3::zeros(); 2],
    };
    assert!(c.set_target_pose(&clip.frames[1], Some(&v)).is_err());
    assert!(c.set_target_pose_at(&clip.frames[1], None, -1.0).is_err());
    let rest = Pose::rest(c.skeleton());
    assert!(
        Character::streamed(
            c.skeleton().clone(),
            &rest,
            None,
            &CharacterConfig::default()
        )
        .is_ok()
    );
    // Nothing was queued by the refused calls: the character still steps.
    c.step(c.step_size()).unwrap();
}

#[test]
fn without_gain_smoothing_the_stream_is_the_unfiltered_clip_and_a_clip_character_stays_on_its_clip()
{
    let (mut c, clip) = streamed();
    c.set_stream_gain_time_constant(0.0).unwrap();
    assert!(c.set_stream_gain_time_constant(-1.0).is_err());
    let e = evaluate_streamed(&mut c, &clip, &forearm_hit()).unwrap();
    let stream_hit = e.hit.unwrap();
    // The preprocessed clip with its filter off computes the same feedforward and gains, offline.
    let (skeleton, clip) = walk();
    let mut config = CharacterConfig::default();
    config.preprocess.cutoff_hz = None;
    let mut pre = Character::new(skeleton, clip, &config).unwrap();
    pre.set_stream_gain_time_constant(0.0).unwrap();
    assert!(!pre.is_streamed());
    let p = evaluate(&mut pre, &forearm_hit()).unwrap().hit.unwrap();
    println!(
        "unsmoothed stream peak {:.4} deg, unfiltered clip {:.4} deg",
        stream_hit.peak_deg, p.peak_deg
    );
    // Same feedforward and gains; only the start differs (the stream starts at rest, the clip in motion).
    assert!((stream_hit.peak_deg - p.peak_deg).abs() < 0.01);
}
