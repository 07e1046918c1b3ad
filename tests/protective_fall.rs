//! Issue 39 item 3: protective falls (`docs/root.md`, "Protective falls"). The knock-down's 5 kg ball at 12 m/s
//! into the chest, with the protective fall (the default) and limp (protection off): the head hits the ground
//! at least 30 % slower with protection, a hand or forearm touches the ground before the head, and the fall's
//! phases are events.

use flinch::control::{Character, CharacterConfig, FallPhase, RootPolicy, RootState};
use flinch::io::{ImportOptions, load_embedded_walk};
use flinch::scene::{KnockdownFigures, KnockdownHit, ProtectiveFallFigures, run_knockdown};

fn knockdown(protect: bool) -> KnockdownFigures {
    let mut config = CharacterConfig::default();
    config.root.policy = RootPolicy::Assisted;
    config.root.protect.enabled = protect;
    let imported = load_embedded_walk(&ImportOptions::default()).unwrap();
    let character = Character::from_imported(imported, &config).unwrap();
    run_knockdown(character, &KnockdownHit::heavy(), 7.0, |_| {}).unwrap()
}

#[test]
fn the_arms_break_the_fall_and_the_head_hits_slower() {
    let protected = knockdown(true);
    let limp = knockdown(false);
    let f = ProtectiveFallFigures::new(&protected, &limp);
    eprintln!("{f:?}\n{:?}", protected.fall_events);
    // The limp fall is the reference: its head does hit the ground.
    assert!(
        f.limp_head_impact_speed_m_s > 0.5,
        "limp head impact {} m/s",
        f.limp_head_impact_speed_m_s
    );
    assert!(
        f.head_impact_reduction_pct >= 30.0,
        "head impact {} m/s protected against {} m/s limp: {} %",
        f.head_impact_speed_m_s,
        f.limp_head_impact_speed_m_s,
        f.head_impact_reduction_pct
    );
    assert!(
        f.hand_before_head,
        "hand {:?} s, head {:?} s",
        f.hand_touch_s, f.head_touch_s
    );
    // The phases, in order, inside the fall; the limp run has none.
    let phases: Vec<FallPhase> = protected.fall_events.iter().map(|e| e.phase).collect();
    assert_eq!(
        phases,
        [FallPhase::Reach, FallPhase::Impact, FallPhase::Limp]
    );
    let falling = protected
        .events
        .iter()
        .find(|e| e.to == RootState::Falling)
        .unwrap();
    assert_eq!(protected.fall_events[0].time, falling.time);
    assert!(limp.fall_events.is_empty());
    // The knock-down's own figures still hold with protection.
    let rest = protected.rest_after_s.expect("came to rest");
    assert!(rest <= 3.0, "rest after {rest} s");
    assert!(protected.max_penetration_mm <= 5.0);
    assert_eq!(protected.nan_steps, 0);
}

#[test]
fn protection_settings_are_checked() {
    let mut config = CharacterConfig::default();
    config.root.protect.reach_time_s = f64::NAN;
    assert!(
        config
            .root
            .validate()
            .unwrap_err()
            .contains("protect.reach_time_s")
    );
    let mut config = CharacterConfig::default();
    config.root.protect.arm_stiffness = -1.0;
    assert!(config.root.validate().is_err());
    let json = r#"{"protect": {"enabled": false, "head_tuck_deg": 20}}"#;
    let root: flinch::control::RootConfig = serde_json::from_str(json).unwrap();
    assert!(!root.protect.enabled);
    assert_eq!(root.protect.head_tuck_deg, 20.0);
    assert_eq!(root.protect.reach_time_s, 0.15);
}
