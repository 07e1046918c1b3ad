//! The clip library: the walk cross-faded into the CMU jump on a streamed character tracks its blended targets
//! with bounded joint speeds; root alignment, looping, time scaling and bad input.

mod common;

use flinch::control::stream::{ClipLibrary, ClipPlayer, run_player};
use flinch::control::{Character, CharacterConfig, CharacterError};
use flinch::io::{Imported, load_embedded_walk, load_file};
use flinch::math::rotation_distance;
use flinch::skeleton::Clip;

fn clip_of(imported: &Imported) -> Clip {
    let mut clip = imported.clip.clone();
    if imported.report.leading_tpose && !imported.report.leading_tpose_dropped {
        clip.drop_first_frame();
    }
    clip
}

fn walk_library() -> (ClipLibrary, usize, Imported) {
    let walk = load_embedded_walk(&Default::default()).unwrap();
    let mut library = ClipLibrary::new(walk.skeleton.clone());
    let w = library.add("walk", &walk.skeleton, clip_of(&walk)).unwrap();
    (library, w, walk)
}

#[test]
fn walk_cross_faded_into_the_jump_tracks_with_bounded_joint_speeds() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let (mut library, w, walk) = walk_library();
    let jump = load_file(&dir.join("bvh/cmu_01_01_jump.bvh"), &Default::default()).unwrap();
    let j = library.add("jump", &jump.skeleton, clip_of(&jump)).unwrap();
    assert_eq!(library.find("jump"), Some(j));
    let mut player = ClipPlayer::new(&library, w, true, 1.0).unwrap();
    let first = player.sample(&library, 0.0);
    let mut c = Character::streamed(
        walk.skeleton.clone(),
        &first,
        None,
        &CharacterConfig::default(),
    )
    .unwrap();
    let h = c.step_size();
    let mut started = false;
    let run = run_player(&mut c, &library, &mut player, h, 3.0, |_, p, t| {
        if !started && t >= 1.0 - 0.5 * h {
            started = true;
            p.play(&library, t, j, 0.3, false, 1.0)
                .map_err(|e| CharacterError::Argument(e.to_string()))?;
        }
        Ok(())
    })
    .unwrap();
    println!("{run:?}");
    assert_eq!(run.steps, 360);
    assert!(run.track_rms_deg <= 1.0, "{run:?}");
    assert!(run.max_joint_speed_rad_s <= 20.0, "{run:?}");
}

#[test]
fn play_aligns_the_new_clip_with_the_current_root_and_a_cut_is_continuous_in_heading_and_place() {
    let (library, w, walk) = walk_library();
    let rest = walk.skeleton.joints[0].rest_rotation;
    let heading = |q: &nalgebra::UnitQuaternion<f64>| {
        let f = rest * q * nalgebra::Vector3::z();
        f.x.atan2(f.z)
    };
    let mut player = ClipPlayer::new(&library, w, false, 1.0).unwrap();
    let before = player.sample(&library, 1.5);
    // Restart the walk from its first frame at 1.5 s, as a cut: the root stays where it is (horizontally).
    player.play(&library, 1.5, w, 0.0, false, 1.0).unwrap();
    let after = player.sample(&library, 1.5);
    let (a, b) = (before.translations[0], after.translations[0]);
    println!("root before {a:?}, after {b:?}");
    assert!((a.x - b.x).abs() < 1e-9 && (a.z - b.z).abs() < 1e-9);
    let (ha, hb) = (heading(&before.rotations[0]), heading(&after.rotations[0]));
    println!("heading before {ha:.6}, after {hb:.6}");
    assert!((ha - hb).abs() < 1e-9, "{ha} vs {hb}");
    // With a blend the pose at its start is the outgoing one exactly.
    let mut blended = ClipPlayer::new(&library, w, false, 1.0).unwrap();
    let before = blended.sample(&library, 1.5);
    blended.play(&library, 1.5, w, 0.3, false, 1.0).unwrap();
    let at = blended.sample(&library, 1.5);
    for (q, r) in before.rotations.iter().zip(&at.rotations) {
        assert!(rotation_distance(q, r) < 1e-12);
    }
    // And at its end the new clip's, 0.3 s in.
    let end = blended.sample(&library, 1.8);
    let mut fresh = ClipPlayer::new(&library, w, false, 1.0).unwrap();
    fresh.play(&library, 1.5, w, 0.0, false, 1.0).unwrap();
    let target = fresh.sample(&library, 1.8);
    for (q, r) in end.rotations.iter().zip(&target.rotations).skip(1) {
        assert!(rotation_distance(q, r) < 1e-12);
    }
}

#[test]
fn looping_continues_the_root_and_speed_scales_the_clock() {
    let (library, w, _) = walk_library();
    let d = library.clip(w).unwrap().duration();
    let looping = ClipPlayer::new(&library, w, true, 1.0).unwrap();
    let (a, b) = (
        looping.sample(&library, d - 1e-6).translations[0],
        looping.sample(&library, d + 1e-6).translations[0],
    );
    println!("root across the loop: {a:?} -> {b:?}");
    assert!((a.x - b.x).abs() < 1e-3 && (a.z - b.z).abs() < 1e-3);
    let fast = ClipPlayer::new(&library, w, false, 2.0).unwrap();
    let slow = ClipPlayer::new(&library, w, false, 1.0).unwrap();
    for t in [0.1, 0.5, 1.0] {
        let (p, q) = (fast.sample(&library, t), slow.sample(&library, 2.0 * t));
        for (x, y) in p.rotations.iter().zip(&q.rotations) {
            assert!(rotation_distance(x, y) < 1e-12);
        }
    }
}

#[test]
fn bad_clips_and_arguments_are_refused() {
    let (mut library, w, walk) = walk_library();
    let mut other = walk.skeleton.clone();
    other.joints.pop();
    let e = library
        .add("short", &other, clip_of(&walk))
        .unwrap_err()
        .to_string();
    assert!(e.contains("short") && e.contains("joints"), "{e}");
    assert!(ClipPlayer::new(&library, 7, false, 1.0).is_err());
    assert!(ClipPlayer::new(&library, w, false, 0.0).is_err());
    let mut p = ClipPlayer::new(&library, w, false, 1.0).unwrap();
    assert!(p.play(&library, 0.5, w, -1.0, false, 1.0).is_err());
    assert!(p.play(&library, 0.5, w, f64::NAN, false, 1.0).is_err());
}
