//! How the cost of a character step grows with the crowd: scenes of 1 to 200 copies of the embedded walk's
//! prepared clip, stepped on one thread, print `figure crowd_us_per_character_N` (µs per character step, the
//! median of five timed runs), with the characters stepping in the thread's shared scratch (the default), and
//! `figure crowd_own_buffers_us_per_character_N` for the same scene with each character in its own buffers
//! (`Scene::set_shared_scratch(false)`), the two measured alternately. `step_speed`'s `step_us` is one character
//! alone outside a scene; from about 20–40 characters their worlds no longer fit in a core's L2 and each step
//! rewrites its own buffers from farther away, which the shared scratch avoids for most of them
//! (docs/performance.md, "Why a crowd steps slower than one character", "A shared step scratch").
//!
//! Then crowds that touch (issue 42 item 4): `FREE_CROWD` assisted free-root walkers on a level (one plane at
//! the fitted floor), half walking along the clip's path and half across it in a grid of crossing lanes, with
//! character–character and level contacts on, stepped on all cores and on one: `figure
//! crowd_free_chars_realtime_per_core` (characters one core keeps in real time at 120 Hz, from the all-cores
//! run), `figure crowd_free_parallel_speedup`, `figure crowd_free_bit_identical` (1 when the two runs end in the
//! same state to the bit), and how many character–character contacts and falls the run had.
//! `cargo run --release --example crowd_scaling`

use std::sync::Arc;
use std::time::Instant;

use flinch::control::{Character, CharacterConfig, PreparedClip, RootPolicy, RootState};
use flinch::io::{ImportOptions, load_embedded_walk};
use flinch::level::{ColliderDesc, Level, LevelShape};
use flinch::scene::Scene;
use nalgebra::{Isometry3, UnitQuaternion, Vector3};

/// The crowd sizes measured.
const SIZES: [usize; 7] = [1, 5, 10, 20, 40, 80, 200];
/// Character steps per timed run, spread over the scene's characters (six runs of one character: 60 s of clip).
const CHARACTER_STEPS: usize = 1200;
/// The clip's length (s): the walk continued far enough for one character's six runs.
const CLIP_S: f64 = 65.0;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("{}", flinch::cpu_report());
    let config = CharacterConfig::default();
    let mut walk = load_embedded_walk(&ImportOptions::default())?;
    walk.drop_leading_tpose();
    let prepared = Arc::new(PreparedClip::new(
        walk.skeleton,
        walk.clip.continued(CLIP_S),
        &config,
    )?);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build()?;
    let h = prepared.step_size();
    for n in SIZES {
        // Index 0: the shared scratch; 1: each character's own buffers.
        let mut scenes = [true, false].map(|shared| {
            let mut scene = Scene::new();
            // Copies of one clip at one spot: contacts between them would only pile up.
            scene.set_character_contacts(false);
            scene.set_shared_scratch(shared);
            for _ in 0..n {
                scene.add_prepared(&prepared);
            }
            scene
        });
        let steps = (CHARACTER_STEPS / n).max(2);
        let mut runs = [Vec::new(), Vec::new()];
        pool.install(|| -> Result<(), flinch::scene::SceneError> {
            for scene in &mut scenes {
                // One untimed step sizes every buffer.
                scene.step(h)?;
            }
            for _ in 0..5 {
                for (scene, runs) in scenes.iter_mut().zip(&mut runs) {
                    let t0 = Instant::now();
                    for _ in 0..steps {
                        scene.step(h)?;
                    }
                    runs.push(t0.elapsed().as_secs_f64() / (steps * n) as f64);
                }
            }
            Ok(())
        })?;
        let [shared, own] = runs.map(|mut r| {
            r.sort_by(f64::total_cmp);
            r[r.len() / 2] * 1e6
        });
        println!("figure crowd_us_per_character_{n} {shared:.2} us");
        println!("figure crowd_own_buffers_us_per_character_{n} {own:.2} us");
    }
    free_crowd()
}

/// Walkers in the crowd that touches.
const FREE_CROWD: usize = 48;
/// Scene steps (at 120 Hz) timed per run of the crowd that touches.
const FREE_STEPS: usize = 240;
/// Lane spacing (m): walkers 0.9 m apart in a lane's row, so crossing lanes meet shoulder to shoulder.
const LANE_M: f64 = 0.9;

/// The crowd that touches: walkers in crossing lanes (even ones along the clip's path, odd ones across it).
fn crossing_crowd() -> Result<Scene, Box<dyn std::error::Error>> {
    let mut config = CharacterConfig::default();
    config.root.policy = RootPolicy::Assisted;
    let mut walk = load_embedded_walk(&ImportOptions::default())?;
    walk.drop_leading_tpose();
    let clip = walk.clip.continued(FREE_STEPS as f64 / 120.0 + 0.5);
    // The clip's travel (horizontal), to lay the lanes out.
    let (a, b) = match (clip.frames.first(), clip.frames.last()) {
        (Some(a), Some(b)) => (a.translations[0], b.translations[0]),
        _ => return Err("the walk has no frames".into()),
    };
    let travel = Vector3::new(b.x - a.x, 0.0, b.z - a.z);
    let along = travel.normalize();
    let across = Vector3::y().cross(&along);
    let mut scene = Scene::new();
    let per_group = FREE_CROWD.div_ceil(2);
    let mut floor = None;
    for i in 0..FREE_CROWD {
        let (group, k) = (i % 2, (i / 2) as f64 - (per_group as f64 - 1.0) / 2.0);
        // Group 0 walks `along` from one side of the grid, group 1 `across` it from another; each lane starts
        // half a walk's travel before the grid's centre.
        let (yaw, offset) = if group == 0 {
            (0.0, across * k * LANE_M - travel * 0.5)
        } else {
            let yaw = std::f64::consts::FRAC_PI_2;
            let turned_travel = UnitQuaternion::from_axis_angle(&Vector3::y_axis(), yaw) * travel;
            (yaw, along * k * LANE_M - turned_travel * 0.5)
        };
        let c = Character::new(
            walk.skeleton.clone(),
            clip.placed(&walk.skeleton, yaw, offset),
            &config,
        )?;
        floor.get_or_insert(c.ground().map_or(0.0, |g| g.floor));
        scene.add_character(c);
    }
    let mut level = Level::new();
    level.add(ColliderDesc::new(
        LevelShape::Plane {
            normal: Vector3::y(),
        },
        Isometry3::translation(0.0, floor.unwrap_or(0.0), 0.0),
    ))?;
    scene.set_level(level);
    Ok(scene)
}

/// Steps the crowd that touches on all cores and on one, alternately; prints the figures.
fn free_crowd() -> Result<(), Box<dyn std::error::Error>> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let pools = [
        rayon::ThreadPoolBuilder::new().num_threads(cores).build()?,
        rayon::ThreadPoolBuilder::new().num_threads(1).build()?,
    ];
    let mut scenes = [crossing_crowd()?, crossing_crowd()?];
    let h = 1.0 / 120.0;
    let mut seconds = [0.0; 2];
    let (mut touches, mut falls) = (0usize, 0usize);
    for step in 0..FREE_STEPS {
        for (i, (scene, pool)) in scenes.iter_mut().zip(&pools).enumerate() {
            let t0 = Instant::now();
            pool.install(|| scene.step(h))?;
            // The first steps size every buffer: not timed.
            if step >= 10 {
                seconds[i] += t0.elapsed().as_secs_f64();
            }
        }
        touches += scenes[0].character_contacts().len();
    }
    for (_, c) in scenes[0].characters() {
        falls += usize::from(c.root_events().iter().any(|e| e.to == RootState::Falling));
    }
    let hashes = scenes.map(|s| {
        s.characters()
            .fold(0u64, |h, (_, c)| h.rotate_left(7) ^ c.state_hash())
    });
    let timed = (FREE_STEPS - 10) as f64;
    let frame_s = seconds[0] / timed;
    // Characters one core keeps in real time: a 120 Hz frame's budget over the core-seconds one character costs.
    let per_core = FREE_CROWD as f64 * (1.0 / 120.0) / (frame_s * cores as f64);
    println!(
        "free crowd: {FREE_CROWD} assisted walkers in crossing lanes on a level, {cores} cores: {:.1} us per \
         character step (all cores, wall), {:.1} us (one core); {touches} character-character contacts over \
         {FREE_STEPS} steps, {falls} fell",
        frame_s * 1e6 / FREE_CROWD as f64,
        seconds[1] / timed * 1e6 / FREE_CROWD as f64
    );
    println!("figure crowd_free_chars_realtime_per_core {per_core:.0}");
    println!(
        "figure crowd_free_parallel_speedup {:.2} x",
        seconds[1] / seconds[0]
    );
    println!(
        "figure crowd_free_bit_identical {}",
        u8::from(hashes[0] == hashes[1])
    );
    Ok(())
}
