//! A scene of several characters steps them in parallel: every body's state after 600 steps is bit-identical
//! with one thread and with several, balls and streamed characters included, and with the characters stepping in
//! their threads' shared scratch or in their own buffers.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use flinch::control::{Character, CharacterConfig};
use flinch::scene::{Ball, Scene, aimed_ball};
use nalgebra::Vector3;

fn scene() -> Scene {
    let mut scene = Scene::new();
    // Copies of one clip at one spot: they would only pile up contacts (the coupled path is tested in
    // tests/character_contact.rs).
    scene.set_character_contacts(false);
    for i in 0..4 {
        let imported = flinch::io::load_embedded_walk(&Default::default()).unwrap();
        let mut c = Character::from_imported(imported, &CharacterConfig::default()).unwrap();
        if i == 3 {
            // One character streamed from a time-shifted copy of its own clip.
            let pose = c.clip().sample(0.5);
            c.set_target_pose(&pose, None).unwrap();
        }
        let key = scene.add_character(c);
        let _ = key;
    }
    scene
}

/// Balls aimed at the first character's forearms and head, as (spawn time, ball).
fn balls(scene: &Scene) -> Vec<(f64, Ball)> {
    let (_, c) = scene.characters().next().unwrap();
    [("RightForeArm", 1.0), ("LeftForeArm", 2.0), ("Head", 3.0)]
        .iter()
        .map(|&(bone, t)| {
            aimed_ball(c, bone, t, Vector3::new(15.0, 0.0, 0.0), 0.11, 0.45, 0.2).unwrap()
        })
        .collect()
}

/// Hash of every body's position, orientation and velocity bits, and of the events.
fn run(threads: usize, shared_scratch: bool) -> (u64, usize) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| {
        let mut scene = scene();
        scene.set_shared_scratch(shared_scratch);
        let mut pending = balls(&scene);
        let keys: Vec<_> = scene.characters().map(|(k, _)| k).collect();
        let mut events = 0;
        let mut hasher = DefaultHasher::new();
        for step in 0..600 {
            let now = scene.time();
            pending.retain(|(t, ball)| {
                let due = *t <= now + 0.5 / 120.0;
                if due {
                    scene.spawn_ball(*ball).unwrap();
                }
                !due
            });
            // The streamed character follows its clip 0.5 s ahead, looping.
            let c = scene.character(keys[3]).unwrap();
            let clip = c.clip().clone();
            let t = (scene.time() + 1.0 / 120.0 + 0.5) % clip.duration();
            scene
                .set_target_pose(keys[3], &clip.sample(t), None)
                .unwrap();
            scene.step(1.0 / 120.0).unwrap();
            events += scene.events().len();
            for e in scene.events() {
                e.impulse.iter().for_each(|x| x.to_bits().hash(&mut hasher));
            }
            if step % 100 == 99 {
                for (_, c) in scene.characters() {
                    for b in c.world().bodies() {
                        for x in b
                            .position
                            .iter()
                            .chain(b.orientation.coords.iter())
                            .chain(b.velocity.iter())
                        {
                            x.to_bits().hash(&mut hasher);
                        }
                    }
                }
            }
        }
        (hasher.finish(), events)
    })
}

/// Runs the scene in two configurations `(threads, shared scratch)` and asserts the same events and states.
fn assert_same_scenes(a: (usize, bool), b: (usize, bool)) {
    let (hash_a, events_a) = run(a.0, a.1);
    let (hash_b, events_b) = run(b.0, b.1);
    println!("hash {a:?} {hash_a:#x}, {b:?} {hash_b:#x}, {events_a} hit events");
    assert!(events_a > 0, "the balls should hit someone");
    assert_eq!(events_a, events_b);
    assert_eq!(hash_a, hash_b);
}

#[test]
fn one_and_several_threads_give_bit_identical_scenes() {
    assert_same_scenes((1, true), (4, true));
}

#[test]
fn shared_and_own_scratch_give_bit_identical_scenes() {
    // One thread: all four characters (one streamed ahead, one hit by balls) share one scratch.
    assert_same_scenes((1, true), (1, false));
}

/// Assisted free-root walkers in two crossing lanes (`Clip::placed`), touching each other: the characters that
/// touch step one after the other, the rest in parallel, and the state is bit-identical on one thread and on
/// two; the placed clips walk where they were put.
#[test]
fn crossing_free_root_walkers_touch_and_stay_bit_identical() {
    let mut config = CharacterConfig::default();
    config.root.policy = flinch::control::RootPolicy::Assisted;
    let walk = flinch::io::load_embedded_walk(&Default::default()).unwrap();
    let first = walk.clip.frames[0].translations[0];
    let last = walk.clip.frames.last().unwrap().translations[0];
    let travel = Vector3::new(last.x - first.x, 0.0, last.z - first.z);
    let across = Vector3::y().cross(&travel.normalize());
    let turned_travel =
        nalgebra::UnitQuaternion::from_axis_angle(&Vector3::y_axis(), std::f64::consts::FRAC_PI_2)
            * travel;
    // Placed clips: the start moved by the offset, the travel turned.
    let placed = walk.clip.placed(
        &walk.skeleton,
        std::f64::consts::FRAC_PI_2,
        Vector3::new(1.0, 0.0, 2.0),
    );
    let (p0, p1) = (
        placed.frames[0].translations[0],
        placed.frames.last().unwrap().translations[0],
    );
    assert!((p0 - first - Vector3::new(1.0, 0.0, 2.0)).norm() < 1e-9);
    assert!((Vector3::new(p1.x - p0.x, 0.0, p1.z - p0.z) - turned_travel).norm() < 1e-9);
    let crowd = || {
        let mut scene = Scene::new();
        for i in 0..6 {
            let k = (i / 2) as f64 - 1.0;
            let (yaw, offset) = if i % 2 == 0 {
                (0.0, across * k * 0.9 - travel * 0.5)
            } else {
                (
                    std::f64::consts::FRAC_PI_2,
                    travel.normalize() * k * 0.9 - turned_travel * 0.5,
                )
            };
            let clip = walk.clip.placed(&walk.skeleton, yaw, offset);
            scene.add_character(Character::new(walk.skeleton.clone(), clip, &config).unwrap());
        }
        scene
    };
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let mut scene = crowd();
        let mut touches = 0;
        for _ in 0..200 {
            pool.install(|| scene.step(1.0 / 120.0)).unwrap();
            touches += scene.character_contacts().len();
        }
        let hash = scene
            .characters()
            .fold(0u64, |h, (_, c)| h.rotate_left(7) ^ c.state_hash());
        (hash, touches)
    };
    let (one, touches) = run(1);
    let (two, _) = run(2);
    assert!(touches > 0, "the lanes never met");
    assert_eq!(one, two, "one thread and two differ");
}
