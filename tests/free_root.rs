//! Issue 11: free and assisted roots on real clips (`docs/root.md`). The figures asserted here are the ones the
//! method reaches today (the closing note and `docs/root.md` list where they stand against the issue's goals).

mod common;

use flinch::control::{Character, CharacterConfig, CharacterError, RootPolicy, RootState};
use flinch::io::{ImportOptions, bvh, load_embedded_walk, load_file};
use flinch::scene::{KnockdownHit, run_knockdown};

fn assisted() -> CharacterConfig {
    let mut config = CharacterConfig::default();
    config.root.policy = RootPolicy::Assisted;
    config
}

fn walk(config: &CharacterConfig) -> Character {
    let imported = load_embedded_walk(&ImportOptions::default()).unwrap();
    Character::from_imported(imported, config).unwrap()
}

/// The free-root figures that hold on every clip: the root on its path, feet on (not in) the floor, the feet
/// carry the body (small residual), joints together, no fault.
fn check_free_walk(name: &str, c: &mut Character) {
    let ground = c.ground().expect("an assisted root has a ground").clone();
    assert!(
        ground.floor.is_finite() && ground.floor.abs() < 0.1,
        "{name}: floor {}",
        ground.floor
    );
    assert!(
        ground.stance_height_error < 0.02,
        "{name}: stance-foot height error {} m",
        ground.stance_height_error
    );
    let duration = c.reference().duration();
    let f = c.run_free_root(duration, |_| Ok(())).unwrap();
    eprintln!("{name}: {f:?}");
    assert_eq!(f.nan_steps, 0, "{name}");
    assert_eq!(
        c.root_state(),
        RootState::Tracking,
        "{name}: no fall without a hit"
    );
    assert!(c.root_events().is_empty(), "{name}: {:?}", c.root_events());
    assert!(
        f.root_pos_rms_mm <= 10.0,
        "{name}: root rms {} mm",
        f.root_pos_rms_mm
    );
    assert!(
        f.max_penetration_mm <= 1.0,
        "{name}: penetration {} mm",
        f.max_penetration_mm
    );
    assert!(
        f.residual_wrench_frac <= 0.10,
        "{name}: residual {}",
        f.residual_wrench_frac
    );
    assert!(
        f.max_joint_gap_mm <= 0.5,
        "{name}: gap {} mm",
        f.max_joint_gap_mm
    );
    // The issue's goals: tracking 0.490° / 0.490° / 0.426° on the CMU walk, jump and SFU walk (goal 0.5°), slide
    // 4.9 / 6.2 / 3.8 mm (goal 10 mm).
    assert!(
        f.track_rms_deg <= 0.5,
        "{name}: tracking rms {}°",
        f.track_rms_deg
    );
    assert!(
        f.foot_slide_mm <= 10.0,
        "{name}: foot slide {} mm",
        f.foot_slide_mm
    );
    // The floor carries the body (0.81 / 0.85 / 0.83 of its weight), the assist corrects: with the root lifted
    // onto the floor 61–89 % of the samples have a sole point in stance (without: 35–45 %, and the floor carried
    // half the weight; docs/root.md, "Who carries the weight").
    assert!(
        (0.8..=1.1).contains(&f.feet_support_frac),
        "{name}: the floor carried {} of the weight",
        f.feet_support_frac
    );
    assert!(
        (0.55..=1.0).contains(&f.stance_samples_frac),
        "{name}: {} of the samples in stance",
        f.stance_samples_frac
    );
}

#[test]
fn assisted_root_walks_the_embedded_clip_on_its_feet() {
    let mut c = walk(&assisted());
    check_free_walk("cmu_02_01_walk", &mut c);
}

#[test]
fn assisted_root_holds_on_the_shared_jump_and_sfu_walk_with_the_same_defaults() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    for name in ["cmu_01_01_jump", "sfu_0005_Walking001"] {
        let path = dir.join("bvh").join(format!("{name}.bvh"));
        let imported = load_file(&path, &ImportOptions::default()).unwrap();
        let mut c = Character::from_imported(imported, &assisted()).unwrap();
        check_free_walk(name, &mut c);
    }
}

#[test]
fn a_heavy_ball_knocks_the_character_down_and_it_gets_up() {
    let f = run_knockdown(walk(&assisted()), &KnockdownHit::heavy(), 7.0, |_| {}).unwrap();
    eprintln!("{f:?}");
    let states: Vec<RootState> = f.events.iter().map(|e| e.to).collect();
    assert_eq!(
        states,
        [
            RootState::Staggering,
            RootState::Falling,
            RootState::Ragdoll,
            RootState::Resting,
            RootState::GettingUp,
            RootState::Tracking
        ]
    );
    assert!(
        f.events
            .windows(2)
            .all(|w| w[0].time < w[1].time && w[0].to == w[1].from)
    );
    assert!(f.fell);
    assert!(f.impulse_ns > 40.0, "impulse {} N·s", f.impulse_ns);
    let rest = f.rest_after_s.expect("came to rest");
    assert!(rest <= 3.0, "rest after {rest} s");
    assert!(
        f.max_penetration_mm <= 5.0,
        "penetration {} mm",
        f.max_penetration_mm
    );
    assert!(f.max_joint_gap_mm <= 0.5, "gap {} mm", f.max_joint_gap_mm);
    assert_eq!(f.nan_steps, 0);
}

#[test]
fn the_demo_ball_does_not_knock_the_character_down() {
    let f = run_knockdown(walk(&assisted()), &KnockdownHit::small(), 2.5, |_| {}).unwrap();
    eprintln!("{f:?}");
    assert!(!f.fell);
    assert!(f.events.is_empty(), "{:?}", f.events);
    assert!(f.impulse_ns > 3.0, "the ball hit: {} N·s", f.impulse_ns);
    let back = f.hit_return_s.expect("returned to the clip");
    assert!(back <= 1.0, "returned after {back} s");
}

#[test]
fn a_free_root_without_assist_falls_and_comes_to_rest() {
    let mut config = CharacterConfig::default();
    config.root.policy = RootPolicy::Free;
    let mut c = walk(&config);
    let f = c.run_free_root(2.8, |_| Ok(())).unwrap();
    assert_eq!(f.nan_steps, 0);
    let states: Vec<RootState> = c.root_events().iter().map(|e| e.to).collect();
    assert_eq!(states.first(), Some(&RootState::Falling), "{states:?}");
    // A free root never gets up: that needs the assist.
    assert!(!states.contains(&RootState::GettingUp));
}

#[test]
fn the_policy_switches_at_runtime() {
    let mut c = walk(&CharacterConfig::default());
    assert_eq!(c.root_policy(), RootPolicy::Kinematic);
    let h = c.step_size();
    for _ in 0..60 {
        c.step(h).unwrap();
    }
    c.set_root_policy(RootPolicy::Assisted).unwrap();
    assert!(c.ground().is_some());
    for _ in 0..120 {
        c.step(h).unwrap();
        let (x, _) = c.root_target(c.time());
        assert!((c.world().body(0).position - x).norm() < 0.03);
    }
    // A game turns the assist off at a knockout; the root then is free.
    c.set_root_policy(RootPolicy::Free).unwrap();
    assert_eq!(c.root_policy(), RootPolicy::Free);
    c.set_root_policy(RootPolicy::Kinematic).unwrap();
    assert!(c.ground().is_none());
    c.step(h).unwrap();
    let (x, _) = c.root_target(c.time());
    assert!(
        (c.world().body(0).position - x).norm() < 1e-9,
        "back on the clip's root"
    );
}

#[test]
fn the_root_section_parses_from_json_and_toml() {
    let json =
        r#"{"root": {"policy": "assisted", "assist_weight": 0.5, "getup": {"blend_s": 2.0}}}"#;
    let c = CharacterConfig::from_json(json).unwrap();
    assert_eq!(c.root.policy, RootPolicy::Assisted);
    assert_eq!(c.root.assist_weight, 0.5);
    assert_eq!(c.root.getup.blend_s, 2.0);
    let toml = "[root]\npolicy = \"free\"\n[root.ground]\nfriction = 0.6\n";
    let c = CharacterConfig::from_toml(toml).unwrap();
    assert_eq!(c.root.policy, RootPolicy::Free);
    assert_eq!(c.root.ground.friction, 0.6);
    assert!(CharacterConfig::from_json(r#"{"root": {"policy": "flying"}}"#).is_err());
}

#[test]
fn non_finite_root_settings_are_refused_with_the_field_named() {
    let imported = load_embedded_walk(&ImportOptions::default()).unwrap();
    let mut config = assisted();
    config.root.assist_weight = f64::NAN;
    let e = Character::from_imported(imported.clone(), &config).unwrap_err();
    assert!(e.to_string().contains("assist_weight"), "{e}");
    let mut config = assisted();
    config.root.hit_threshold_ns = f64::INFINITY;
    let e = Character::from_imported(imported.clone(), &config).unwrap_err();
    assert!(e.to_string().contains("hit_threshold_ns"), "{e}");
    let mut config = assisted();
    config.root.online_reaction = -0.5;
    let e = Character::from_imported(imported.clone(), &config).unwrap_err();
    assert!(e.to_string().contains("online_reaction"), "{e}");
    let mut config = assisted();
    config.root.ground.friction = f64::NAN;
    let e = Character::from_imported(imported.clone(), &config).unwrap_err();
    assert!(e.to_string().contains("ground"), "{e}");
    for q in [f64::NAN, -0.1, 1.5] {
        let mut config = assisted();
        config.root.ground.sole_quantile = q;
        let e = Character::from_imported(imported.clone(), &config).unwrap_err();
        assert!(e.to_string().contains("sole_quantile"), "{q}: {e}");
    }
    let mut c = walk(&assisted());
    assert!(c.set_assist_weight(f64::NAN).is_err());
    assert!(c.set_assist_weight(1.5).is_err());
    c.set_assist_weight(0.3).unwrap();
}

/// An upper-body clip: no legs, so no feet.
const UPPER_BODY: &str = "HIERARCHY
ROOT Hips
{
  OFFSET 0 0 0
  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
  JOINT Spine
  {
    OFFSET 0 10 0
    CHANNELS 3 Zrotation Xrotation Yrotation
    JOINT Head
    {
      OFFSET 0 20 0
      CHANNELS 3 Zrotation Xrotation Yrotation
      End Site
      {
        OFFSET 0 10 0
      }
    }
    JOINT LeftArm
    {
      OFFSET 15 15 0
      CHANNELS 3 Zrotation Xrotation Yrotation
      End Site
      {
        OFFSET 25 0 0
      }
    }
    JOINT RightArm
    {
      OFFSET -15 15 0
      CHANNELS 3 Zrotation Xrotation Yrotation
      End Site
      {
        OFFSET -25 0 0
      }
    }
  }
}
MOTION
Frames: 3
Frame Time: 0.0333333
0 90 0 0 0 0 0 0 0 0 0 0 0 0 10 0 0 -10
0 90 1 0 0 0 0 0 0 0 0 0 0 0 12 0 0 -12
0 90 2 0 0 0 0 0 0 0 0 0 0 0 14 0 0 -14
";

#[test]
fn a_clip_without_feet_cannot_go_free_but_plays_kinematic() {
    let imported = bvh::parse(UPPER_BODY.as_bytes(), &ImportOptions::default()).unwrap();
    let e = Character::from_imported(imported.clone(), &assisted()).unwrap_err();
    assert!(matches!(e, CharacterError::Ground(_)), "{e:?}");
    assert!(e.to_string().contains("feet"), "{e}");
    let mut c = Character::from_imported(imported, &CharacterConfig::default()).unwrap();
    let h = c.step_size();
    c.step(h).unwrap();
    let e = c.set_root_policy(RootPolicy::Free).unwrap_err();
    assert!(e.to_string().contains("feet"), "{e}");
    assert_eq!(c.root_policy(), RootPolicy::Kinematic);
    c.step(h).unwrap();
}

#[test]
fn scene_events_name_the_character() {
    use flinch::scene::Scene;
    let mut scene = Scene::new();
    // Two copies of one walk share a path: they would touch.
    scene.set_character_contacts(false);
    let kinematic = scene.add_character(walk(&CharacterConfig::default()));
    let free = scene.add_character(walk(&assisted()));
    let h = scene.character(free).unwrap().step_size();
    let mut applied = 0.0;
    for step in 0..180 {
        if step == 60 {
            applied = scene.time();
            let c = scene.character_mut(free).unwrap();
            let chest = c.body_of_bone("role:chest").unwrap();
            let at = c.world().body(chest).position;
            c.apply_body_impulse(chest, at, nalgebra::Vector3::new(0.0, 0.0, -60.0))
                .unwrap();
        }
        scene.step(h).unwrap();
    }
    let events: Vec<_> = scene.root_events().collect();
    assert!(!events.is_empty());
    assert!(events.iter().all(|(k, _)| *k == free && *k != kinematic));
    assert_eq!(events[0].1.from, RootState::Tracking);
    assert_eq!(events[0].1.to, RootState::Staggering);
    // The first step after the push (the scene may substep: within one of its steps).
    assert!(
        events[0].1.time > applied && events[0].1.time <= applied + h + 1e-9,
        "pushed at {applied}: {:?}",
        events[0]
    );
}

#[test]
fn a_saved_free_root_state_continues_bit_for_bit_through_a_fall() {
    use flinch::control::{CharacterState, PreparedClip};
    use std::sync::Arc;
    let imported = load_embedded_walk(&ImportOptions::default()).unwrap();
    let prepared = Arc::new(PreparedClip::from_imported(imported, &assisted()).unwrap());
    let mut a = Character::from_prepared(Arc::clone(&prepared));
    let h = a.step_size();
    for step in 0..160 {
        if step == 100 {
            let chest = a.body_of_bone("role:chest").unwrap();
            let at = a.world().body(chest).position;
            a.apply_body_impulse(chest, at, nalgebra::Vector3::new(0.0, 0.0, -60.0))
                .unwrap();
        }
        a.step(h).unwrap();
    }
    assert_ne!(a.root_state(), RootState::Tracking, "the push is under way");
    let saved = a.save_state();
    let bytes = saved.to_bytes();
    let run = |c: &mut Character| -> Vec<u64> {
        (0..300)
            .map(|_| {
                c.step(h).unwrap();
                c.state_hash()
            })
            .collect()
    };
    let first = run(&mut a);
    let events = a.root_events().to_vec();
    let mut b = Character::from_prepared(Arc::clone(&prepared));
    b.restore_state(&CharacterState::from_bytes(&bytes).unwrap())
        .unwrap();
    assert_eq!(run(&mut b), first, "the restored run repeats the first");
    assert_eq!(b.root_events(), &events[..]);
    assert_eq!(b.root_state(), a.root_state());
    // A state of the other kind of root does not fit, and changes nothing.
    let mut kinematic = walk(&CharacterConfig::default());
    assert!(kinematic.restore_state(&saved).is_err());
    assert!(b.restore_state(&kinematic.save_state()).is_err());
    let mut corrupt = bytes.clone();
    corrupt[8 + 6 * 8] ^= 1;
    assert!(CharacterState::from_bytes(&corrupt).is_err());
}

/// Without the root lift the clip's feet float above and dip into the floor, fewer than half of the samples have
/// a foot in stance, and the root assist carries about half the weight; with it the floor carries the body.
#[test]
fn the_root_lift_puts_the_weight_on_the_feet() {
    let mut config = assisted();
    config.root.ground.lift_root = false;
    let mut c = walk(&config);
    let without = c
        .run_free_root(c.reference().duration(), |_| Ok(()))
        .unwrap();
    let mut c = walk(&assisted());
    let with = c
        .run_free_root(c.reference().duration(), |_| Ok(()))
        .unwrap();
    eprintln!("without {without:?}\nwith {with:?}");
    assert!(without.feet_support_frac < 0.6, "{without:?}");
    assert!(without.stance_samples_frac < 0.5, "{without:?}");
    assert!(with.feet_support_frac > 0.8, "{with:?}");
    assert!(with.stance_samples_frac > 0.8, "{with:?}");
    assert!(with.residual_all_samples_frac < 0.5 * without.residual_all_samples_frac);
    let lift = &c.ground().unwrap().lift;
    let largest = lift.iter().fold(0.0f64, |a, l| a.max(l.abs()));
    assert!(largest > 0.0 && largest < 0.04, "lift up to {largest} m");
}
