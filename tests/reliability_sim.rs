//! Reliability of the simulation (issue 16, items 3 and 4): the guard that never lets a NaN out, a table of
//! absurd inputs each with its expected outcome, per-step state hashes equal across runs, and save/restore that
//! continues bit for bit.

use flinch::control::{Character, CharacterConfig, CharacterState, FaultKind, GuardConfig};
use flinch::io::{ImportOptions, load_embedded_walk};
use flinch::model::BoneConfig;
use flinch::scene::{Ball, Scene};
use nalgebra::Vector3;

mod common;
use common::Lcg;
#[path = "../examples/common/stress.rs"]
mod stress;
use stress::{outputs_finite, random_hits};

fn walk_with(config: &CharacterConfig) -> Result<Character, flinch::control::CharacterError> {
    let imported = load_embedded_walk(&ImportOptions::default()).expect("embedded walk");
    Character::from_imported(imported, config)
}

fn walk() -> Character {
    walk_with(&CharacterConfig::default()).expect("character")
}

/// Steps `n` times at the character's own rate; counts the guard's faults.
fn run(c: &mut Character, n: usize) -> Result<usize, String> {
    let h = c.step_size();
    let mut faults = 0;
    for _ in 0..n {
        c.step(h).map_err(|e| e.to_string())?;
        faults += usize::from(c.last_fault().is_some());
        assert!(outputs_finite(c), "non-finite output at t = {}", c.time());
    }
    Ok(faults)
}

#[test]
fn same_hash_sequence_in_two_runs() {
    let hashes = || {
        let mut c = walk();
        let h = c.step_size();
        let mut out = Vec::new();
        for k in 0..600 {
            if k == 120 {
                c.apply_impulse(
                    "RightForeArm",
                    c.body_frame(c.body_of_bone("RightForeArm").unwrap())
                        .translation
                        .vector,
                    Vector3::new(6.75, 0.0, 0.0),
                )
                .unwrap();
            }
            c.step(h).unwrap();
            out.push(c.state_hash());
        }
        out
    };
    let (a, b) = (hashes(), hashes());
    assert_eq!(a, b);
    // The hash sees every step: no two consecutive states hash alike.
    assert!(a.windows(2).all(|w| w[0] != w[1]));
    println!(
        "figure hash_identical_runs 1 bool (600 steps, last {:#018x})",
        a[599]
    );
}

#[test]
fn a_restored_state_continues_bit_for_bit() {
    let mut c = walk();
    let h = c.step_size();
    let hand = c.body_of_bone("RightHand").unwrap();
    run(&mut c, 100).unwrap();
    // Save with a hit pending and a force still acting, so the pending forces are part of the state.
    let at = c.body_frame(hand).translation.vector;
    c.apply_impulse("RightHand", at, Vector3::new(0.0, 0.0, 4.0))
        .unwrap();
    c.apply_force("LeftForeArm", at, Vector3::new(30.0, 0.0, 0.0), 0.1)
        .unwrap();
    let saved = c.save_state();
    let bytes = saved.to_bytes();
    let mut first = Vec::new();
    for _ in 0..300 {
        c.step(h).unwrap();
        first.push(c.state_hash());
    }
    // From the in-memory snapshot, and from its bytes into a fresh character of the same clip.
    c.restore_state(&saved).unwrap();
    assert_eq!(c.state_hash(), saved.hash());
    let mut again = Vec::new();
    for _ in 0..300 {
        c.step(h).unwrap();
        again.push(c.state_hash());
    }
    assert_eq!(first, again);
    let mut fresh = walk();
    fresh
        .restore_state(&CharacterState::from_bytes(&bytes).unwrap())
        .unwrap();
    let mut third = Vec::new();
    for _ in 0..300 {
        fresh.step(h).unwrap();
        third.push(fresh.state_hash());
    }
    assert_eq!(first, third);
    println!(
        "figure restore_identical 1 bool (300 steps after restore; state {} bytes)",
        bytes.len()
    );
}

#[test]
fn corrupt_state_bytes_are_errors_never_panics() {
    let mut c = walk();
    run(&mut c, 10).unwrap();
    let bytes = c.save_state().to_bytes();
    assert!(CharacterState::from_bytes(&bytes).is_ok());
    // Every truncation and every single-byte change is caught (checksum, counts, magic).
    for n in 0..bytes.len() {
        assert!(
            CharacterState::from_bytes(&bytes[..n]).is_err(),
            "truncated at {n}"
        );
    }
    let mut rng = Lcg(7);
    for _ in 0..2000 {
        let mut b = bytes.clone();
        let i = rng.below(b.len());
        b[i] ^= 1 + rng.below(255) as u8;
        assert!(CharacterState::from_bytes(&b).is_err(), "byte {i} changed");
    }
    // A state of another character is refused and leaves the character untouched.
    let other = {
        let mut config = CharacterConfig::default();
        config.model.min_bone_length = 0.2;
        walk_with(&config).unwrap()
    };
    let before = c.state_hash();
    assert!(c.restore_state(&other.save_state()).is_err());
    assert_eq!(c.state_hash(), before);
}

/// What an absurd input does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    /// Refused with an error; nothing simulated.
    Rejected,
    /// Accepted and simulated without a fault.
    Survived,
    /// Accepted; the guard reset the character at least once, every output stayed finite.
    Recovered,
}

fn outcome(result: Result<usize, String>) -> Outcome {
    match result {
        Err(_) => Outcome::Rejected,
        Ok(0) => Outcome::Survived,
        Ok(_) => Outcome::Recovered,
    }
}

/// Steps a walk with a config for 0.5 s (or reports its refusal).
fn with_config(edit: impl FnOnce(&mut CharacterConfig)) -> Outcome {
    let mut config = CharacterConfig::default();
    edit(&mut config);
    outcome(
        walk_with(&config)
            .map_err(|e| e.to_string())
            .and_then(|mut c| run(&mut c, 60)),
    )
}

/// Hits a walk at 0.5 s through `hit`, then steps 1 s.
fn with_hit(hit: impl FnOnce(&mut Character) -> Result<(), String>) -> Outcome {
    let mut c = walk();
    run(&mut c, 60).unwrap();
    outcome(hit(&mut c).and_then(|_| run(&mut c, 120)))
}

fn bone(mass: f64) -> BoneConfig {
    BoneConfig {
        mass: Some(mass),
        ..BoneConfig::default()
    }
}

/// A scene of the walk with a ball at the chest (or the call's refusal), stepped 1 s at 60 Hz.
fn with_ball(ball: impl FnOnce(&Character) -> Ball, dt: f64) -> Outcome {
    let c = walk();
    let ball = ball(&c);
    let mut scene = Scene::new();
    let key = scene.add_character(c);
    let result = scene
        .spawn_ball(ball)
        .map_err(|e| e.to_string())
        .and_then(|_| {
            let mut faults = 0;
            for _ in 0..60 {
                scene.step(dt).map_err(|e| e.to_string())?;
                faults += scene.faults().len();
                assert!(outputs_finite(scene.character(key).unwrap()));
            }
            Ok(faults)
        });
    outcome(result)
}

fn chest_ball(c: &Character, mass: f64, speed: f64, radius: f64) -> Ball {
    let chest = c
        .body_frame(c.body_of_bone("Spine1").unwrap())
        .translation
        .vector;
    Ball {
        radius,
        mass,
        position: chest - Vector3::new(0.5, 0.0, 0.0),
        velocity: Vector3::new(speed, 0.0, 0.0),
    }
}

#[test]
fn absurd_inputs_are_rejected_or_survived() {
    let point = |c: &Character, bone: &str| {
        c.body_frame(c.body_of_bone(bone).unwrap())
            .translation
            .vector
    };
    let impulse = |j: Vector3<f64>| {
        move |c: &mut Character| {
            let p = point(c, "RightHand");
            c.apply_impulse("RightHand", p, j)
                .map_err(|e| e.to_string())
        }
    };
    let step = |h: f64| {
        let mut c = walk();
        outcome(c.step(h).map_err(|e| e.to_string()).map(|_| {
            assert!(outputs_finite(&c));
            usize::from(c.last_fault().is_some())
        }))
    };
    let nan = f64::NAN;
    let cases: Vec<(&str, Outcome, Outcome)> = vec![
        (
            "impulse 1e12 N·s on the hand",
            with_hit(impulse(Vector3::new(1e12, 0.0, 0.0))),
            Outcome::Recovered,
        ),
        (
            "impulse NaN",
            with_hit(impulse(Vector3::new(nan, 0.0, 0.0))),
            Outcome::Rejected,
        ),
        (
            "impulse +inf",
            with_hit(impulse(Vector3::new(0.0, f64::INFINITY, 0.0))),
            Outcome::Rejected,
        ),
        (
            "impulse 50 N·s on the hand",
            with_hit(impulse(Vector3::new(0.0, 0.0, 50.0))),
            Outcome::Survived,
        ),
        (
            "hit point NaN",
            with_hit(|c| {
                c.apply_impulse("RightHand", Vector3::new(nan, 0.0, 0.0), Vector3::x())
                    .map_err(|e| e.to_string())
            }),
            Outcome::Rejected,
        ),
        (
            "hit on an unknown bone",
            with_hit(|c| {
                c.apply_impulse("Tail", Vector3::zeros(), Vector3::x())
                    .map_err(|e| e.to_string())
            }),
            Outcome::Rejected,
        ),
        (
            "force 1e12 N for 0.1 s",
            with_hit(|c| {
                let p = point(c, "Head");
                c.apply_force("Head", p, Vector3::new(1e12, 0.0, 0.0), 0.1)
                    .map_err(|e| e.to_string())
            }),
            Outcome::Recovered,
        ),
        (
            "force for NaN s",
            with_hit(|c| {
                c.apply_force("Head", Vector3::zeros(), Vector3::x(), nan)
                    .map_err(|e| e.to_string())
            }),
            Outcome::Rejected,
        ),
        (
            "step h = 1 s (implicit: stable)",
            step(1.0),
            Outcome::Survived,
        ),
        ("step h = 0", step(0.0), Outcome::Rejected),
        ("step h < 0", step(-1.0 / 120.0), Outcome::Rejected),
        ("step h = NaN", step(nan), Outcome::Rejected),
        ("step h = 1e-9 s", step(1e-9), Outcome::Survived),
        (
            "gains k_s = 1e15",
            with_config(|c| c.gains.k_s = 1e15),
            Outcome::Survived,
        ),
        (
            "gains k_s = NaN",
            with_config(|c| c.gains.k_s = nan),
            Outcome::Rejected,
        ),
        (
            "gains k_d < 0",
            with_config(|c| c.gains.k_d = -1.0),
            Outcome::Rejected,
        ),
        (
            "hand mass 1e-12 kg",
            with_config(|c| {
                c.model.bones.insert("RightHand".into(), bone(1e-12));
            }),
            Outcome::Survived,
        ),
        (
            "hand mass NaN",
            with_config(|c| {
                c.model.bones.insert("RightHand".into(), bone(nan));
            }),
            Outcome::Rejected,
        ),
        (
            "density 0",
            with_config(|c| c.model.density = 0.0),
            Outcome::Rejected,
        ),
        (
            "guard gap NaN",
            with_config(|c| {
                c.guard = GuardConfig {
                    max_joint_gap_m: nan,
                    ..GuardConfig::default()
                }
            }),
            Outcome::Rejected,
        ),
        (
            "guard speed 0",
            with_config(|c| c.guard.max_speed = 0.0),
            Outcome::Rejected,
        ),
        (
            "ball 1e12 kg at 1000 m/s",
            with_ball(|c| chest_ball(c, 1e12, 1e3, 0.1), 1.0 / 60.0),
            Outcome::Recovered,
        ),
        (
            "ball of radius 0",
            with_ball(|c| chest_ball(c, 1.0, 10.0, 0.0), 1.0 / 60.0),
            Outcome::Rejected,
        ),
        (
            "ball mass 1e-12 kg",
            with_ball(|c| chest_ball(c, 1e-12, 10.0, 0.1), 1.0 / 60.0),
            Outcome::Survived,
        ),
        (
            "scene frame dt = 1e6 s",
            with_ball(|c| chest_ball(c, 1.0, 10.0, 0.1), 1e6),
            Outcome::Rejected,
        ),
        (
            "scene frame dt = NaN",
            with_ball(|c| chest_ball(c, 1.0, 10.0, 0.1), nan),
            Outcome::Rejected,
        ),
    ];
    let mut ok = 0;
    for (name, got, expected) in &cases {
        println!("{name:32} expected {expected:?}, got {got:?}");
        ok += usize::from(got == expected);
    }
    println!("figure absurd_cases_ok {ok}/{} cases", cases.len());
    assert!(cases.len() >= 20);
    assert_eq!(ok, cases.len(), "an absurd input had an unexpected outcome");
}

/// Random hits (impulses up to 50 N·s on random bones every 20 steps, projectiles up to 5 kg at 31 m/s every
/// 60): no output is ever NaN (`examples/reliability_report.rs` runs 10 000 steps on 3 clips).
#[test]
fn random_hits_never_emit_nan() {
    let r = random_hits(walk(), 1500, 2026);
    println!("{r:?}");
    assert_eq!(r.steps, 1500);
    assert!(r.ball_hits > 0, "the balls must reach the character");
    assert_eq!(r.nan_outputs, 0);
    println!(
        "figure nan_outputs 0 count (1500 steps, {} guard resets)",
        r.faults
    );
}

#[test]
fn the_guard_resets_a_blown_up_character_to_its_clip() {
    let mut c = walk();
    run(&mut c, 60).unwrap();
    let head = c.body_of_bone("Head").unwrap();
    let at = c.world().body(head).position;
    c.apply_impulse("Head", at, Vector3::new(1e9, 0.0, 0.0))
        .unwrap();
    c.step(c.step_size()).unwrap();
    let fault = c.last_fault().expect("a fault").clone();
    assert!(
        matches!(
            fault.kind,
            FaultKind::Speed { .. }
                | FaultKind::JointGap { .. }
                | FaultKind::NonFinite { .. }
                | FaultKind::StepFailed(_)
        ),
        "{fault:?}"
    );
    assert!((fault.time - 61.0 * c.step_size()).abs() < 1e-12);
    // Back on the clip: every joint on its reference rotation, the next step without a fault.
    for b in 0..c.model().bodies.len() {
        assert!(
            c.joint_deviation(b) < 1e-6,
            "body {b} off by {}",
            c.joint_deviation(b)
        );
    }
    run(&mut c, 30).unwrap();
    assert!(c.last_fault().is_none());
    assert_eq!(c.fault_count(), 1);
    // With the guard off the same hit is returned as it comes (here: a blown-up state or an error).
    let mut config = CharacterConfig::default();
    config.guard.enabled = false;
    let mut raw = walk_with(&config).unwrap();
    run(&mut raw, 60).unwrap();
    let at = raw.world().body(head).position;
    raw.apply_impulse("Head", at, Vector3::new(1e9, 0.0, 0.0))
        .unwrap();
    let _ = raw.step(raw.step_size());
    assert!(raw.last_fault().is_none());
}
