//! The balanced root (issue 39, `docs/balance.md`): no external wrench while tracking, the floor carries the body,
//! the policy survives a state round trip and a runtime switch, bad settings are refused.

use flinch::control::{Character, CharacterConfig, CharacterState, RootPolicy, RootState};
use flinch::io::{ImportOptions, load_embedded_walk};

fn walk(policy: RootPolicy) -> Character {
    let mut config = CharacterConfig::default();
    config.root.policy = policy;
    let imported = load_embedded_walk(&ImportOptions::default()).expect("embedded walk");
    Character::from_imported(imported, &config).expect("character")
}

#[test]
fn balanced_root_is_carried_by_the_floor_alone() {
    let mut c = walk(RootPolicy::Balanced);
    // The first half second (the whole clip is `balanced_walk_stays_up_over_the_clip`).
    let f = c.run_free_root(0.5, |_| Ok(())).expect("run");
    assert_eq!(c.root_state(), RootState::Tracking, "{:?}", c.root_events());
    assert_eq!(f.assist_wrench_frac, 0.0, "an external wrench acted");
    // Nothing else holds it: over the half second the floor's impulse is the weight's, give or take the change of
    // the body's vertical momentum.
    assert!(
        (0.9..1.1).contains(&f.feet_support_frac),
        "floor carried {:.3} of the weight",
        f.feet_support_frac
    );
    assert!(f.max_penetration_mm <= 1.0, "{} mm", f.max_penetration_mm);
    assert_eq!(f.nan_steps, 0);
    // The assisted root on the same stretch leans on its assist.
    let mut a = walk(RootPolicy::Assisted);
    let fa = a.run_free_root(0.5, |_| Ok(())).expect("run");
    assert!(fa.assist_wrench_frac > 0.05, "{}", fa.assist_wrench_frac);
}

/// Issue 39's `fell` on the CMU walk: with the clip re-anchored toward the body and time-warped to its progress
/// (`docs/balance.md`), the balanced walk stays on its feet with no external wrench: over the clip's whole 2.84 s
/// with the defaults (`free_root_walk` prints `balanced_fell 0`), against a fall at 0.65 s before. The margin is
/// thin (neighbouring settings fall at 2.1–2.6 s), so the test asks for what those neighbours also give, 2 s on
/// its feet (three times the old fall time), and not for the exact no-fall that a change of round-off could tip.
#[test]
fn balanced_walk_stays_up_over_the_clip() {
    let mut c = walk(RootPolicy::Balanced);
    let duration = c.reference().duration();
    let f = c.run_free_root(2.0, |_| Ok(())).expect("run");
    assert!(!f.fell, "{:?}", c.root_events());
    assert_eq!(f.assist_wrench_frac, 0.0, "an external wrench acted");
    assert!(f.max_penetration_mm <= 1.0, "{} mm", f.max_penetration_mm);
    assert_eq!(f.nan_steps, 0);
    // The rest of the clip: no NaN and nothing external, up or not (`balanced_fell` reports which).
    let rest = c.run_free_root(duration - 2.0, |_| Ok(())).expect("run");
    assert_eq!(rest.nan_steps, 0);
    println!(
        "figure balanced_walk_fell_after_2s {} ({:?})",
        u8::from(rest.fell),
        c.root_events()
    );
}

#[test]
fn balanced_policy_survives_a_state_round_trip_and_a_switch() {
    let mut c = walk(RootPolicy::Assisted);
    c.run_free_root(0.1, |_| Ok(())).expect("run");
    c.set_root_policy(RootPolicy::Balanced).expect("switch");
    assert_eq!(c.root_policy(), RootPolicy::Balanced);
    c.run_free_root(0.1, |_| Ok(())).expect("run");
    let bytes = c.save_state().to_bytes();
    let state = CharacterState::from_bytes(&bytes).expect("read back");
    let mut d = walk(RootPolicy::Assisted);
    d.restore_state(&state).expect("restore");
    assert_eq!(d.root_policy(), RootPolicy::Balanced);
    // Same state, same next step.
    c.step(c.step_size()).expect("step");
    d.step(d.step_size()).expect("step");
    assert_eq!(c.state_hash(), d.state_hash());
}

#[test]
fn balanced_settings_out_of_range_are_refused() {
    for (field, value) in [
        ("frequency_hz", f64::NAN),
        ("torso_gain", 1.5),
        ("touch_height_m", 0.0),
    ] {
        let mut config = CharacterConfig::default();
        config.root.policy = RootPolicy::Balanced;
        let b = &mut config.root.balance;
        match field {
            "frequency_hz" => b.frequency_hz = value,
            "torso_gain" => b.torso_gain = value,
            _ => b.touch_height_m = value,
        }
        let imported = load_embedded_walk(&ImportOptions::default()).expect("embedded walk");
        let err = match Character::from_imported(imported, &config) {
            Ok(_) => panic!("balance.{field} = {value} accepted"),
            Err(e) => e.to_string(),
        };
        assert!(err.contains(&format!("balance.{field}")), "{err}");
    }
}

/// Bad input on a balanced root: a push of 10⁶ N·s ends in a defined outcome (the guard or a fall), never a
/// panic or a NaN in the character; a clip of a single frame is refused with a clear error or stands.
#[test]
fn balanced_root_survives_absurd_pushes_and_odd_clips() {
    let mut c = walk(RootPolicy::Balanced);
    c.run_free_root(0.2, |_| Ok(())).expect("run");
    let chest = c.world().body(0).position;
    c.apply_body_impulse(0, chest, nalgebra::Vector3::new(1e6, 0.0, 0.0))
        .expect("impulse");
    let f = c
        .run_free_root(1.0, |_| Ok(()))
        .expect("run after the push");
    for b in c.world().bodies() {
        assert!(b.position.iter().all(|x| x.is_finite()), "NaN position");
        assert!(b.velocity.iter().all(|x| x.is_finite()), "NaN velocity");
    }
    // Either the guard put it back on its clip or it fell: both are defined.
    assert!(
        f.nan_steps > 0 || c.root_events().iter().any(|e| e.to == RootState::Falling),
        "a 10^6 N·s push changed nothing: {:?}",
        c.root_events()
    );
    // One frame (the walk's first pose held, mid-stride): no panic, no NaN, no external wrench while tracking (it
    // falls after 0.39 s today and gets up with the assist, docs/balance.md).
    let mut imported = load_embedded_walk(&ImportOptions::default()).expect("walk");
    imported.clip.frames.truncate(1);
    let mut config = CharacterConfig::default();
    config.root.policy = RootPolicy::Balanced;
    match Character::from_imported(imported, &config) {
        Ok(mut one) => {
            let f = one.run_free_root(3.0, |_| Ok(())).expect("run");
            assert_eq!(f.nan_steps, 0);
            assert_eq!(f.assist_wrench_frac, 0.0);
            eprintln!("one frame: ran, events {:?}", one.root_events());
        }
        Err(e) => {
            let e = e.to_string();
            eprintln!("one frame: {e}");
            assert!(e.contains("frame"), "unclear error: {e}");
        }
    }
}
