//! The scene: ball projectiles hitting the walking character, stale keys, game-rate frames.

use flinch::control::{Character, CharacterConfig, Recorder};
use flinch::io::{ImportOptions, load_embedded_walk};
use flinch::scene::{Ball, Scene, SceneError, aimed_ball, impulse_on_body};
use nalgebra::Vector3;

fn walk() -> Character {
    let imported = load_embedded_walk(&ImportOptions::default()).expect("embedded walk");
    Character::from_imported(imported, &CharacterConfig::default()).expect("character")
}

/// A 0.45 kg, 0.11 m ball at 15 m/s along +X aimed at the right forearm for t = 1.0 s transfers, through the
/// contact LCP, within 20 % of its momentum (6.75 N·s) to the forearm, and the character recovers like the
/// scripted-impulse hit with its joints held.
#[test]
fn a_ball_hits_the_forearm_and_the_character_recovers() {
    let character = walk();
    let velocity = Vector3::new(15.0, 0.0, 0.0);
    let (launch, ball) =
        aimed_ball(&character, "RightForeArm", 1.0, velocity, 0.11, 0.45, 0.2).expect("aim");
    let h = character.step_size();
    let end = character.reference().duration();
    let mut scene = Scene::new();
    let key = scene.add_character(character);
    let mut recorder = Recorder::new(scene.character(key).unwrap());
    let mut ball_key = None;
    let mut events = Vec::new();
    while scene.time() + h <= end + 1e-9 {
        if ball_key.is_none() && scene.time() >= launch - 0.5 * h {
            ball_key = Some(scene.spawn_ball(ball).expect("spawn"));
        }
        scene.step(h).expect("step");
        for e in scene.events() {
            recorder.hit_at(e.time);
            recorder.add_work(e.energy_j);
            events.push(e.clone());
        }
        let c = scene.character(key).unwrap();
        recorder.after_step(c, scene.max_separation(key).unwrap());
    }
    for e in &events {
        println!(
            "ball hit {} at t = {:.4} s: impulse {:.3} N·s, normal {:?}, {:.2} J",
            e.bone,
            e.time,
            e.impulse.norm(),
            e.normal,
            e.energy_j
        );
        // Contacts push, never pull: the impulse on the body points away from the ball.
        assert!(e.impulse.dot(&e.normal) < 0.0);
    }
    let e = &events[0];
    let j = impulse_on_body(&events, key, e.body).norm();
    println!("total on {}: {j:.3} N·s", e.bone);
    assert!(
        ["RightForeArm", "RightHand", "RightArm"].contains(&e.bone.as_str()),
        "{}",
        e.bone
    );
    assert!((0.8 * 6.75..=1.2 * 6.75).contains(&j), "impulse {j}");
    assert!((e.time - 1.0).abs() < 0.02, "hit at {}", e.time);
    let ball_after = scene.ball(ball_key.unwrap()).unwrap();
    assert!(
        ball_after.velocity.x < 15.0 - 0.8 * 15.0 * 0.5,
        "{ball_after:?}"
    );
    let eval = recorder.finish(end);
    let hit = eval.hit.expect("hit figures");
    println!(
        "peak {:.2} deg at {}, return {:?} s, {:.2} J",
        hit.peak_deg, hit.peak_joint, hit.return_s, hit.energy_j
    );
    assert!(hit.peak_deg > 5.0 && hit.peak_deg < 60.0);
    assert!(hit.return_s.is_some_and(|r| r < 1.0), "{:?}", hit.return_s);
    assert!(hit.energy_j > 0.0 && hit.energy_j < 0.5 * 0.45 * 15.0 * 15.0);
    assert!(eval.max_joint_gap_mm < 1e-3, "{}", eval.max_joint_gap_mm);
}

/// Keys of removed characters and balls are refused, never re-targeted.
#[test]
fn stale_keys_are_errors() {
    let mut scene = Scene::new();
    let a = scene.add_character(walk());
    let c = scene.remove_character(a).expect("remove");
    assert!(matches!(
        scene.character(a),
        Err(SceneError::StaleCharacter)
    ));
    let b = scene.add_character(c);
    assert_ne!(a, b);
    assert!(scene.character(a).is_err());
    assert!(scene.character(b).is_ok());
    assert!(scene.remove_character(a).is_err());
    let ball = Ball {
        radius: 0.1,
        mass: 1.0,
        position: Vector3::new(0.0, 10.0, 0.0),
        velocity: Vector3::zeros(),
    };
    let k = scene.spawn_ball(ball).unwrap();
    scene.remove_ball(k).unwrap();
    assert!(matches!(scene.ball(k), Err(SceneError::StaleBall)));
    for bad in [
        Ball {
            radius: 0.0,
            ..ball
        },
        Ball { mass: -1.0, ..ball },
        Ball {
            position: Vector3::new(f64::NAN, 0.0, 0.0),
            ..ball
        },
    ] {
        assert!(scene.spawn_ball(bad).is_err());
    }
    assert!(scene.step(0.0).is_err());
    assert!(scene.step(f64::NAN).is_err());
}

/// A free ball falls ballistically (exact for constant gravity) and a 60 Hz frame steps a 120 Hz character
/// twice, staying on its preprocessed samples.
#[test]
fn game_frames_substep_characters_and_balls() {
    let mut scene = Scene::new();
    let key = scene.add_character(walk());
    let ball = Ball {
        radius: 0.1,
        mass: 1.0,
        position: Vector3::new(50.0, 100.0, 0.0),
        velocity: Vector3::new(0.0, 0.0, 3.0),
    };
    let k = scene.spawn_ball(ball).unwrap();
    for _ in 0..60 {
        scene.step(1.0 / 60.0).unwrap();
    }
    let t = scene.time();
    assert!((t - 1.0).abs() < 1e-12);
    let c = scene.character(key).unwrap();
    assert!((c.time() - 1.0).abs() < 1e-9);
    let worst = (1..c.model().bodies.len())
        .map(|b| c.joint_deviation(b))
        .fold(0.0, f64::max);
    assert!(
        worst.to_degrees() < 1e-9,
        "tracking at 60 Hz frames: {worst}"
    );
    let b = scene.ball(k).unwrap();
    let expected_y = 100.0 - 0.5 * 9.81 * t * t;
    assert!((b.position.y - expected_y).abs() < 1e-9, "{b:?}");
    assert!((b.position.z - 3.0 * t).abs() < 1e-9);
}

/// A bone configured with `collide = false` keeps its mass but balls pass through it: the ball aimed at the
/// right forearm touches no forearm (a rig's placement handle is not flesh; `retarget::performer_config`).
#[test]
fn balls_pass_through_a_bone_that_does_not_collide() {
    // The same ball, aimed at the right forearm: it strikes the forearm first when the forearm collides, and
    // never touches it when it does not (it flies on to the bodies behind).
    let collides = ball_events_on_a_forearm(true);
    assert_eq!(
        collides.first().map(String::as_str),
        Some("RightForeArm"),
        "{collides:?}"
    );
    let passes = ball_events_on_a_forearm(false);
    assert!(!passes.is_empty(), "the ball flies on and hits something");
    assert!(!passes.iter().any(|b| b == "RightForeArm"), "{passes:?}");
}

/// The bones a ball aimed at the walk's right forearm hits, in order, with the forearm colliding or not.
fn ball_events_on_a_forearm(collide: bool) -> Vec<String> {
    let imported = load_embedded_walk(&ImportOptions::default()).expect("embedded walk");
    let mut config = CharacterConfig::default();
    config
        .model
        .bones
        .entry("RightForeArm".into())
        .or_default()
        .collide = Some(collide);
    let character = Character::from_imported(imported, &config).expect("character");
    let forearm = character
        .model()
        .bodies
        .iter()
        .position(|b| b.name == "RightForeArm")
        .unwrap();
    assert_eq!(character.model().bodies[forearm].collides, collide);
    assert!(character.model().bodies[forearm].mass.mass > 0.5);
    let (launch, ball) = aimed_ball(
        &character,
        "RightForeArm",
        1.0,
        Vector3::new(15.0, 0.0, 0.0),
        0.11,
        0.45,
        0.2,
    )
    .expect("aim");
    let h = character.step_size();
    let mut scene = Scene::new();
    scene.add_character(character);
    let mut spawned = false;
    let mut bones = Vec::new();
    while scene.time() < 1.3 {
        if !spawned && scene.time() >= launch - 0.5 * h {
            scene.spawn_ball(ball).expect("spawn");
            spawned = true;
        }
        scene.step(h).expect("step");
        bones.extend(scene.events().iter().map(|e| e.bone.clone()));
    }
    assert!(spawned);
    bones
}
