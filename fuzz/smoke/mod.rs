//! The stable fuzz smoke: every target of `fuzz/targets` run by `cargo test` (no nightly, no libFuzzer) on
//! inputs made by a deterministic, structure-aware mutator from the seed corpora, for `FLINCH_FUZZ_SECS` seconds
//! per target (default 3; `.ci/run` sets more). A test fails on a panic, on an input taking over 1 s, or on an
//! allocation over 256 MB (the counting global allocator below sees every allocation of this test binary); the
//! failing input is saved under `target/fuzz-smoke/` and named in the message, ready for
//! `cargo +nightly fuzz run <target> <file>`. Inputs that once failed live in `fuzz/regressions/<target>/` and
//! are replayed first, every run.
//!
//! Compiled into flinch-ffi's unit tests (the C ABI targets need the crate's symbols, and its library is not an
//! rlib); see `docs/reliability.md`.

mod alloc;
mod mutator;
#[path = "../targets/mod.rs"]
mod targets;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use mutator::Mutator;
use targets::{TARGETS, Target};

/// Longest time one input may take.
const MAX_INPUT_TIME: Duration = Duration::from_secs(1);
/// Largest single allocation one input may make.
const MAX_ALLOCATION: usize = 256 << 20;
/// Seeds larger than this are cut (the mutants of a 2.6 MB BVH would spend the budget in a few parses).
const MAX_SEED_LEN: usize = 64 << 10;

/// The repository root (this file is compiled from `ffi/`).
fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The shared corpus: `$FLINCH_DATA`, else `../shared/data` beside the repository.
fn corpus() -> Option<PathBuf> {
    let dir = std::env::var_os("FLINCH_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("../shared/data"));
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var("CI").is_err(),
        "corpus {} missing (CI=true: a failure, not a skip)",
        dir.display()
    );
    None
}

fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.flatten()
                .map(|e| e.path())
                .filter(|p| p.is_file())
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// A target's seeds: its committed seeds (`fuzz/seeds/<name>/`), then the matching corpus files, cut to
/// [`MAX_SEED_LEN`].
pub fn seeds(target: &Target) -> Vec<Vec<u8>> {
    let mut paths = files_in(&repo().join("fuzz/seeds").join(target.name));
    if let Some(data) = corpus() {
        let pick = |sub: &str| files_in(&data.join(sub));
        match target.name {
            "bvh" => paths.extend(pick("bvh")),
            "gltf" => paths.extend(pick("gltf")),
            "urdf" => paths.extend(pick("urdf")),
            _ => {}
        }
    }
    let mut out: Vec<Vec<u8>> = Vec::new();
    for p in paths {
        let Ok(mut bytes) = std::fs::read(&p) else {
            continue;
        };
        bytes.truncate(MAX_SEED_LEN);
        out.push(bytes);
    }
    if target.name == "ffi_clip_memory" {
        // The format byte, then a clip of that format, from the parser targets' seeds.
        for (format, name) in [(0u8, "bvh"), (1, "gltf"), (3, "urdf")] {
            if let Some(t) = TARGETS.iter().find(|t| t.name == name) {
                for s in seeds(t).into_iter().take(4) {
                    let glb = s.starts_with(b"glTF");
                    let mut v = vec![if glb { 2 } else { format }];
                    v.extend(s);
                    out.push(v);
                }
            }
        }
    }
    if out.is_empty() {
        out.push(Vec::new());
    }
    out
}

/// What went wrong with one input.
fn check_one(target: &Target, input: &[u8]) -> Result<(), String> {
    alloc::reset_peak();
    let start = Instant::now();
    let result = catch_unwind(AssertUnwindSafe(|| (target.run)(input)));
    let took = start.elapsed();
    let peak = alloc::peak();
    if let Err(payload) = result {
        let msg = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        return Err(format!("panic: {msg}"));
    }
    if took > MAX_INPUT_TIME {
        return Err(format!("took {took:?} (limit {MAX_INPUT_TIME:?})"));
    }
    if peak > MAX_ALLOCATION {
        return Err(format!(
            "allocated {peak} bytes at once (limit {MAX_ALLOCATION})"
        ));
    }
    Ok(())
}

/// Saves a failing input under `target/fuzz-smoke/` and returns the path.
fn save(target: &Target, input: &[u8]) -> PathBuf {
    let dir = repo().join("target/fuzz-smoke").join(target.name);
    let _ = std::fs::create_dir_all(&dir);
    let hash = input.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    let path = dir.join(format!("crash-{hash:016x}"));
    let _ = std::fs::write(&path, input);
    path
}

/// The time budget per target: `FLINCH_FUZZ_SECS` (default 3 s).
fn budget() -> Duration {
    let secs = std::env::var("FLINCH_FUZZ_SECS")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s >= 0.0)
        .unwrap_or(3.0);
    Duration::from_secs_f64(secs)
}

/// Statistics of one smoke run.
#[derive(Debug, Default, Clone, Copy)]
pub struct SmokeRun {
    /// Inputs run (regressions, seeds and mutants).
    pub executions: u64,
}

/// Runs one target: its regression inputs, its seeds, then mutants until the budget is spent. Panics (failing
/// the test) with the saved input's path on the first failure.
pub fn smoke(name: &str) -> SmokeRun {
    let target = TARGETS
        .iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no fuzz target {name}"));
    let mut run = SmokeRun::default();
    let fail = |input: &[u8], why: String| -> ! {
        let path = save(target, input);
        panic!(
            "fuzz target {name}: {why}; input ({} bytes) saved to {}",
            input.len(),
            path.display()
        );
    };
    for file in files_in(&repo().join("fuzz/regressions").join(name)) {
        let input = std::fs::read(&file).unwrap_or_default();
        if let Err(why) = check_one(target, &input) {
            fail(&input, format!("regression {}: {why}", file.display()));
        }
        run.executions += 1;
    }
    let seeds = seeds(target);
    for s in &seeds {
        if let Err(why) = check_one(target, s) {
            fail(s, why);
        }
        run.executions += 1;
    }
    // The seed of the generator depends on the target only: a failure reproduces run after run.
    let mut m = Mutator::new(name, target.kind, seeds);
    let deadline = Instant::now() + budget();
    while Instant::now() < deadline {
        let input = m.next_input();
        if let Err(why) = check_one(target, &input) {
            fail(&input, why);
        }
        run.executions += 1;
    }
    eprintln!(
        "fuzz smoke {name}: {} executions, 0 failures",
        run.executions
    );
    run
}

macro_rules! smoke_tests {
    ($($name:ident),*) => {$(
        #[test]
        fn $name() {
            smoke(stringify!($name));
        }
    )*};
}

smoke_tests!(
    bvh,
    gltf,
    urdf,
    hits,
    character_config,
    ffi_clip_memory,
    ffi_character_config,
    level,
    view_message
);

#[test]
fn every_target_has_a_smoke_test_and_a_libfuzzer_binary() {
    for t in TARGETS {
        let bin = repo()
            .join("fuzz/fuzz_targets")
            .join(format!("{}.rs", t.name));
        assert!(bin.is_file(), "{} missing", bin.display());
    }
    assert!(TARGETS.len() >= 6);
}
