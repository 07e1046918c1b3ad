//! A crowd scene stepped on one thread and on all cores: `figure scene_parallel_speedup` (all cores vs one) for
//! 16 walkers (half of them streamed), and whether the two runs agree to the bit.
//!
//! The two scenes are stepped in alternating rounds (one on a 1-thread pool, one on an all-cores pool) and the
//! figure is the median of the rounds' speedups (`common::rounds`).
//! `cargo run --release --example scene_parallel`

use std::time::Instant;

use flinch::control::{Character, CharacterConfig};
use flinch::scene::{CharacterKey, Scene};

mod common;

const CHARACTERS: usize = 16;
const ROUNDS: usize = 20;
const STEPS_PER_ROUND: usize = 12;

/// The crowd: `CHARACTERS` walkers, every second one streamed (its targets set from the clip each step).
fn crowd() -> Result<(Scene, Vec<CharacterKey>), Box<dyn std::error::Error>> {
    let mut scene = Scene::new();
    // Copies of one clip at one spot: they would only pile up contacts (the coupled path is tested in
    // tests/character_contact.rs).
    scene.set_character_contacts(false);
    let mut streamed = Vec::new();
    for i in 0..CHARACTERS {
        let imported = flinch::io::load_embedded_walk(&Default::default())?;
        let c = Character::from_imported(imported, &CharacterConfig::default())?;
        let key = scene.add_character(c);
        if i % 2 == 1 {
            streamed.push(key);
        }
    }
    Ok((scene, streamed))
}

/// Steps `scene` `steps` times on the current rayon pool, streaming the targets of `streamed`; returns seconds.
fn simulate(
    scene: &mut Scene,
    streamed: &[CharacterKey],
    steps: usize,
) -> Result<f64, Box<dyn std::error::Error>> {
    let h = 1.0 / 120.0;
    let t0 = Instant::now();
    for _ in 0..steps {
        for &key in streamed {
            let c = scene.character(key)?;
            let t = (scene.time() + h) % c.clip().duration();
            let pose = c.clip().sample(t);
            scene.set_target_pose(key, &pose, None)?;
        }
        scene.step(h)?;
    }
    Ok(t0.elapsed().as_secs_f64())
}

/// The final body positions' bits.
fn bits(scene: &Scene) -> Vec<u64> {
    scene
        .characters()
        .flat_map(|(_, c)| c.world().bodies().iter().map(|b| b.position.x.to_bits()))
        .collect()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("{}", flinch::cpu_report());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let pool = |n: usize| rayon::ThreadPoolBuilder::new().num_threads(n).build();
    let pools = [pool(1)?, pool(cores)?];
    let mut scenes = [crowd()?, crowd()?];
    let (total, speedup) = common::rounds::alternating(ROUNDS, |k| {
        let (scene, streamed) = &mut scenes[k];
        pools[k].install(|| simulate(scene, streamed, STEPS_PER_ROUND).map_err(|e| e.to_string()))
    })?;
    let steps = ROUNDS * STEPS_PER_ROUND;
    println!(
        "{CHARACTERS} characters, {steps} steps at 120 Hz in {ROUNDS} alternating rounds: 1 thread {:.1} ms, \
         {cores} threads {:.1} ms, identical: {}",
        total[0] * 1e3,
        total[1] * 1e3,
        bits(&scenes[0].0) == bits(&scenes[1].0)
    );
    println!(
        "figure scene_step_us_per_character {:.2} us",
        total[0] / (steps * CHARACTERS) as f64 * 1e6
    );
    println!("figure scene_parallel_speedup {speedup:.2} x");
    println!("figure scene_parallel_cores {cores} cores");
    Ok(())
}
