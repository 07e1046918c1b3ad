//! How the cost of a character step grows with the crowd: scenes of 1 to 200 copies of the embedded walk's
//! prepared clip, stepped on one thread, print `figure crowd_us_per_character_N` (µs per character step, the
//! median of five timed runs), with the characters stepping in the thread's shared scratch (the default), and
//! `figure crowd_own_buffers_us_per_character_N` for the same scene with each character in its own buffers
//! (`Scene::set_shared_scratch(false)`), the two measured alternately. `step_speed`'s `step_us` is one character
//! alone outside a scene; from about 20–40 characters their worlds no longer fit in a core's L2 and each step
//! rewrites its own buffers from farther away, which the shared scratch avoids for most of them
//! (docs/performance.md, "Why a crowd steps slower than one character", "A shared step scratch").
//! `cargo run --release --example crowd_scaling`

use std::sync::Arc;
use std::time::Instant;

use flinch::control::{CharacterConfig, PreparedClip};
use flinch::io::{ImportOptions, load_embedded_walk};
use flinch::scene::Scene;

/// The crowd sizes measured.
const SIZES: [usize; 7] = [1, 5, 10, 20, 40, 80, 200];
/// Character steps per timed run, spread over the scene's characters (six runs of one character: 60 s of clip).
const CHARACTER_STEPS: usize = 1200;
/// The clip's length (s): the walk continued far enough for one character's six runs.
const CLIP_S: f64 = 65.0;

fn main() -> Result<(), Box<dyn std::error::Error>> {
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
    Ok(())
}
