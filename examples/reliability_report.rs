//! Issue 16's reliability figures that come from running the simulation: the 10 000-step random-hit stress run
//! on 3 clips (`nan_outputs`), per-step state hashes of two runs (`hash_identical_runs`) and a save/restore
//! continuation (`restore_identical`). `cargo run --release --example reliability_report`
//! (the corpus clips come from `$FLINCH_DATA`, else `../shared/data`).

use std::path::PathBuf;

use flinch::control::{Character, CharacterConfig};
use flinch::io::{ImportOptions, load_embedded_walk, load_file};

mod common;
use common::stress::random_hits;

fn corpus() -> PathBuf {
    std::env::var_os("FLINCH_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"))
}

fn character(clip: &str) -> Result<Character, Box<dyn std::error::Error>> {
    let opts = ImportOptions::default();
    let imported = match clip {
        "cmu_02_01_walk" => load_embedded_walk(&opts)?,
        name => load_file(&corpus().join("bvh").join(format!("{name}.bvh")), &opts)?,
    };
    Ok(Character::from_imported(
        imported,
        &CharacterConfig::default(),
    )?)
}

/// Per-step hashes of `steps` steps with one hit at step 60.
fn hash_run(steps: usize) -> Result<Vec<u64>, Box<dyn std::error::Error>> {
    let mut c = character("cmu_02_01_walk")?;
    let h = c.step_size();
    let arm = c.body_of_bone("RightForeArm")?;
    let mut out = Vec::with_capacity(steps);
    for k in 0..steps {
        if k == 60 {
            let at = c.world().body(arm).position;
            c.apply_body_impulse(arm, at, nalgebra::Vector3::new(6.75, 0.0, 0.0))?;
        }
        c.step(h)?;
        out.push(c.state_hash());
    }
    Ok(out)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    const STEPS: usize = 10_000;
    let mut nan = 0;
    println!(
        "clip                     steps  impulses  balls  ball hits  guard resets  NaN outputs  µs/step"
    );
    for (i, clip) in ["cmu_02_01_walk", "cmu_01_01_jump", "sfu_0005_Walking001"]
        .iter()
        .enumerate()
    {
        let c = character(clip)?;
        let start = std::time::Instant::now();
        let r = random_hits(c, STEPS, 0x5eed + i as u64);
        let us = start.elapsed().as_secs_f64() * 1e6 / r.steps as f64;
        println!(
            "{clip:24} {:5}  {:8}  {:5}  {:9}  {:12}  {:11}  {us:7.1}",
            r.steps, r.impulses, r.balls, r.ball_hits, r.faults, r.nan_outputs
        );
        nan += r.nan_outputs;
    }
    let (a, b) = (hash_run(600)?, hash_run(600)?);
    let identical = a == b;
    let mut c = character("cmu_02_01_walk")?;
    let h = c.step_size();
    for _ in 0..100 {
        c.step(h)?;
    }
    let saved = c.save_state().to_bytes();
    let mut first = Vec::new();
    for _ in 0..500 {
        c.step(h)?;
        first.push(c.state_hash());
    }
    c.restore_state(&flinch::control::CharacterState::from_bytes(&saved)?)?;
    let mut again = Vec::new();
    for _ in 0..500 {
        c.step(h)?;
        again.push(c.state_hash());
    }
    println!("figure nan_outputs {nan} count ({STEPS} random-hit steps on each of 3 clips)");
    println!(
        "figure hash_identical_runs {} bool (600 steps)",
        u8::from(identical)
    );
    println!(
        "figure restore_identical {} bool (500 steps after a restore from {} bytes)",
        u8::from(first == again),
        saved.len()
    );
    println!("figure state_bytes {} B (walk, 19 bodies)", saved.len());
    Ok(())
}
