//! A crowd scene stepped on one thread and on all cores: `figure scene_parallel_speedup` (all cores vs one) for
//! 16 walkers (half of them streamed), and whether the two runs agree to the bit.
//! `cargo run --release --example scene_parallel`

use std::time::Instant;

use flinch::control::{Character, CharacterConfig};
use flinch::scene::Scene;

const CHARACTERS: usize = 16;
const STEPS: usize = 240;

fn run(threads: usize) -> Result<(f64, Vec<u64>), Box<dyn std::error::Error>> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    Ok(pool.install(|| simulate().map_err(|e| e.to_string()))?)
}

/// The crowd's run on the current rayon pool: seconds and the final body positions' bits.
fn simulate() -> Result<(f64, Vec<u64>), Box<dyn std::error::Error>> {
    {
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
        let h = 1.0 / 120.0;
        let t0 = Instant::now();
        for _ in 0..STEPS {
            for &key in &streamed {
                let c = scene.character(key)?;
                let t = (scene.time() + h) % c.clip().duration();
                let pose = c.clip().sample(t);
                scene.set_target_pose(key, &pose, None)?;
            }
            scene.step(h)?;
        }
        let seconds = t0.elapsed().as_secs_f64();
        let bits = scene
            .characters()
            .flat_map(|(_, c)| c.world().bodies().iter().map(|b| b.position.x.to_bits()))
            .collect();
        Ok((seconds, bits))
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let (one, bits_one) = run(1)?;
    let (all, bits_all) = run(cores)?;
    println!(
        "{CHARACTERS} characters, {STEPS} steps at 120 Hz: 1 thread {:.1} ms, {cores} threads {:.1} ms, identical: {}",
        one * 1e3,
        all * 1e3,
        bits_one == bits_all
    );
    println!(
        "figure scene_step_us_per_character {:.2} us",
        one / (STEPS * CHARACTERS) as f64 * 1e6
    );
    println!("figure scene_parallel_speedup {:.2} x", one / all);
    println!("figure scene_parallel_cores {cores} cores");
    Ok(())
}
