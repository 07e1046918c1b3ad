//! Bake throughput (issue 5). `cargo bench --bench bake`.
//!
//! - One 10 s clip (the first 10 s of CMU 01_01, the jump), single thread (preprocessing included, writing
//!   excluded), 120 Hz: simulated seconds per wall second; goal ≥ 50× real time.
//! - A batch of 8 clips (the corpus's CMU/SFU clips, repeated to 8) baked on 1 and on all cores with rayon, as
//!   `flinch bake` does: the speed-up.

use std::time::Instant;

use flinch::bake::{BakeMode, HitScript, bake};
use flinch::control::{Character, CharacterConfig};
use flinch::io::{ImportOptions, Imported, load_file};
use nalgebra::Vector3;
use rayon::prelude::*;

fn corpus() -> std::path::PathBuf {
    std::env::var_os("FLINCH_DATA")
        .map(Into::into)
        .unwrap_or_else(|| {
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data")
        })
}

fn load(name: &str) -> Imported {
    load_file(&corpus().join("bvh").join(name), &ImportOptions::default()).expect(name)
}

fn single_thread_config() -> CharacterConfig {
    let mut c = CharacterConfig::default();
    c.preprocess.threads = Some(1);
    c
}

/// Wall seconds to build and bake `imported` with `script`.
fn bake_once(imported: &Imported, script: &HitScript) -> (f64, f64) {
    let start = Instant::now();
    let character = Character::from_imported(imported.clone(), &single_thread_config()).unwrap();
    let duration = character.reference().duration();
    let baked = bake(character, script, BakeMode::Layered, |_| {}).unwrap();
    std::hint::black_box(&baked.clip);
    (start.elapsed().as_secs_f64(), duration)
}

fn main() {
    println!("{}", flinch::cpu_report());
    let mut jump = load("cmu_01_01_jump.bvh");
    let frames = (10.0 / jump.clip.frame_time).round() as usize + 2;
    jump.clip.frames.truncate(frames);
    let script = HitScript::impulse("RightForeArm", 1.0, Vector3::new(6.75, 0.0, 0.0));
    let mut times: Vec<f64> = (0..7).map(|_| bake_once(&jump, &script).0).collect();
    times.sort_by(f64::total_cmp);
    let (_, duration) = bake_once(&jump, &script);
    let median = times[times.len() / 2];
    println!(
        "10 s clip (cmu_01_01_jump, {} frames), one hit, single thread: median {:.1} ms ({:.1} .. {:.1}) for {duration:.2} s",
        jump.clip.frames.len(),
        median * 1e3,
        times[0] * 1e3,
        times[times.len() - 1] * 1e3
    );
    println!("figure bake_10s_ms {:.1} ms", median * 1e3);
    println!(
        "figure bake_realtime_factor_single {:.1} x",
        duration / median
    );

    let names = [
        "cmu_01_01_jump.bvh",
        "cmu_02_01_walk.bvh",
        "cmu_12_01_walk_mixed_eol.bvh",
        "sfu_0005_Walking001.bvh",
    ];
    let clips: Vec<Imported> = names.iter().cycle().take(8).map(|n| load(n)).collect();
    let total: f64 = clips.iter().map(|c| c.clip.duration()).sum();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut walls = Vec::new();
    for threads in [1, cores] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let start = Instant::now();
        pool.install(|| {
            clips.par_iter().for_each(|c| {
                bake_once(c, &script);
            })
        });
        let wall = start.elapsed().as_secs_f64();
        println!(
            "batch of 8 clips ({total:.1} s of motion) on {threads} thread(s): {:.2} s, {:.0}x real time",
            wall,
            total / wall
        );
        walls.push(wall);
    }
    println!("figure bake_batch8_1thread_s {:.3} s", walls[0]);
    println!("figure bake_batch8_{cores}threads_s {:.3} s", walls[1]);
    println!("figure bake_batch8_speedup {:.2} x", walls[0] / walls[1]);
}
