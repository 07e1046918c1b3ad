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
    // The first half second: the walk is still upright there (it falls at 0.65 s today, docs/balance.md).
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
