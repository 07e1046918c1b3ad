//! Reliability figures from real runs (see docs/reliability.md):
//!
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

fn main() {
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
}
