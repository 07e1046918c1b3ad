//! Issue 16's reliability figures, all from real runs (see docs/reliability.md):
//!
//! - the 10 000-step random-hit stress run on 3 clips (`nan_outputs`), per-step state hashes of two runs
//!   (`hash_identical_runs`) and a save/restore continuation (`restore_identical`); the corpus clips come from
//!   `$FLINCH_DATA`, else `../shared/data`;
//! - the stable fuzz smoke: runs `cargo test --release -p flinch-ffi --lib fuzz_smoke` (every fuzz target of
//!   `fuzz/targets` on mutants of the seed corpora for `FLINCH_FUZZ_SECS` seconds each, default 5 here) and
//!   prints each target's executions and `figure fuzz_targets N` (the targets that ran with no failure);
//! - the FFI misuse suite: builds `libflinch.a` (`cargo build --release -p flinch-ffi`), compiles
//!   `ffi/tests/c/misuse.c` against it, runs it on the first 40 frames of the embedded walk and prints
//!   `figure ffi_misuse_cases_ok N` (cases whose status and message were as documented).
//!
//! ```sh
//! cargo run --release --example reliability_report
//! ```

use std::path::{Path, PathBuf};
use std::process::Command;

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

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn cargo() -> Command {
    let mut c = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    c.current_dir(repo());
    c
}

/// Runs the fuzz smoke; returns (target, executions) of each target that passed.
fn fuzz_smoke() -> Vec<(String, u64)> {
    let secs = std::env::var("FLINCH_FUZZ_SECS").unwrap_or_else(|_| "5".into());
    let out = cargo()
        .args([
            "test",
            "--release",
            "-p",
            "flinch-ffi",
            "--lib",
            "fuzz_smoke",
            "--",
        ])
        .args(["--nocapture", "--test-threads", "1"])
        .env("FLINCH_FUZZ_SECS", &secs)
        .output()
        .expect("run cargo test");
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        eprintln!("the fuzz smoke failed:\n{stderr}");
    }
    // "fuzz smoke bvh: 12345 executions, 0 failures"
    stderr
        .lines()
        .filter_map(|l| l.strip_prefix("fuzz smoke "))
        .filter_map(|l| {
            let (name, rest) = l.split_once(": ")?;
            let n = rest.split_whitespace().next()?.parse().ok()?;
            Some((name.to_string(), n))
        })
        .collect()
}

/// The first `frames` frames of the embedded walk, as a BVH file in `dir`.
fn short_walk(dir: &Path, frames: usize) -> PathBuf {
    let text = std::str::from_utf8(flinch::io::EMBEDDED_WALK_BVH).expect("UTF-8");
    let (head, motion) = text.split_once("MOTION").expect("MOTION");
    let mut lines = motion.lines().filter(|l| !l.trim().is_empty());
    let _ = lines.next();
    let frame_time = lines.next().expect("Frame Time");
    let body: Vec<&str> = lines.take(frames).collect();
    let path = dir.join("walk_short.bvh");
    let text = format!(
        "{head}MOTION\nFrames: {frames}\n{frame_time}\n{}\n",
        body.join("\n")
    );
    std::fs::write(&path, text).expect("write the clip");
    path
}

/// Builds and runs the misuse suite; returns (ok, total).
fn ffi_misuse() -> Option<(usize, usize)> {
    let built = cargo()
        .args(["build", "--release", "-p", "flinch-ffi", "--lib"])
        .status()
        .ok()?;
    if !built.success() {
        return None;
    }
    let dir = repo().join("target/experiments/reliability");
    std::fs::create_dir_all(&dir).ok()?;
    let exe = dir.join("misuse");
    let cc = Command::new("cc")
        .args(["-std=c11", "-O1", "-I"])
        .arg(repo().join("include"))
        .arg(repo().join("ffi/tests/c/misuse.c"))
        .arg("-o")
        .arg(&exe)
        .arg(repo().join("target/release/libflinch.a"))
        .args(["-lstdc++", "-lpthread", "-ldl", "-lm"])
        .status()
        .ok()?;
    if !cc.success() {
        return None;
    }
    let clip = short_walk(&dir, 40);
    let out = Command::new(&exe).arg(clip).arg(&dir).output().ok()?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    print!("{stdout}");
    let line = stdout
        .lines()
        .find_map(|l| l.strip_prefix("misuse_cases_ok "))?;
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        [ok, "of", total] => Some((ok.parse().ok()?, total.parse().ok()?)),
        _ => None,
    }
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
    let smoke = fuzz_smoke();
    println!("{:<24} {:>12}", "fuzz target", "executions");
    for (name, n) in &smoke {
        println!("{name:<24} {n:>12}");
    }
    let misuse = ffi_misuse();
    if let Some((ok, total)) = misuse {
        println!("ffi misuse: {ok} of {total} cases as documented");
    }
    println!("figure fuzz_targets {}", smoke.len());
    for (name, n) in &smoke {
        println!("figure fuzz_smoke_execs_{name} {n}");
    }
    println!("figure ffi_misuse_cases_ok {}", misuse.map_or(0, |m| m.0));
    Ok(())
}
