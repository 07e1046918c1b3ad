//! Shared helpers for the integration tests: where the real corpus lives.
#![allow(dead_code)]

use std::path::PathBuf;

/// The corpus folder: `$FLINCH_DATA`, else `../shared/data` next to the repository.
///
/// Returns `None` (the caller skips) when it is missing, except under `CI=true`, where a missing corpus is a
/// failure: CI must exercise the real files.
pub fn corpus_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("FLINCH_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"));
    if dir.is_dir() {
        return Some(dir);
    }
    if std::env::var("CI").map(|v| v == "true").unwrap_or(false) {
        panic!(
            "corpus not found at {} (set FLINCH_DATA); CI=true makes this a failure",
            dir.display()
        );
    }
    eprintln!(
        "corpus not found at {}: skipping (set FLINCH_DATA)",
        dir.display()
    );
    None
}

/// All files with extension `ext` in the corpus subfolder `sub` (e.g. `bvh`), sorted by name. Under `CI=true` an
/// empty result fails: the corpus must be there.
pub fn corpus_files(sub: &str, ext: &str) -> Vec<PathBuf> {
    let files = corpus_files_quiet(sub, ext);
    if std::env::var("CI").map(|v| v == "true").unwrap_or(false) {
        assert!(!files.is_empty(), "no .{ext} files in corpus folder {sub}");
    }
    files
}

/// A deterministic pseudo-random generator for robustness tests (no dependency needed).
pub struct Lcg(pub u64);

impl Lcg {
    /// Next value in [0, 1).
    pub fn next_f64(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 11) as f64) / ((1u64 << 53) as f64)
    }

    /// Next value in 0..n.
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_f64() * n as f64) as usize).min(n.saturating_sub(1))
    }
}

/// Like [`corpus_files`] but an empty match is not an error (for loops over several extensions).
pub fn corpus_files_quiet(sub: &str, ext: &str) -> Vec<PathBuf> {
    let Some(dir) = corpus_dir() else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join(sub))
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| {
        p.extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case(ext))
    });
    files.sort();
    files
}

/// Runs the `flinch` CLI: (exit status, stdout, stderr).
pub fn flinch(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_flinch"))
        .args(args)
        .output()
        .expect("run flinch");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Whether the tests run under CI (`CI=true`): missing tools and data are failures there.
pub fn ci() -> bool {
    std::env::var("CI").map(|v| v == "true").unwrap_or(false)
}

/// `npm ci --prefix tools/gltf-validator` (from its committed lock, the npm registry only), once for all test
/// processes: a lock folder keeps two test binaries from installing at once. A failure is reported and left to
/// the caller's missing-package check.
fn install_validator(root: &std::path::Path) {
    let tools = root.join("tools/gltf-validator");
    let lock = tools.join(".installing");
    // A lock older than five minutes was left by a killed test process: no install takes that long.
    let stale = std::fs::metadata(&lock)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.elapsed().ok())
        .is_some_and(|age| age > std::time::Duration::from_secs(300));
    if stale {
        let _ = std::fs::remove_dir(&lock);
    }
    for _ in 0..600 {
        if std::fs::create_dir(&lock).is_ok() {
            if !tools.join("node_modules/gltf-validator").is_dir() {
                eprintln!("installing the glTF validator: npm ci --prefix tools/gltf-validator");
                match std::process::Command::new("npm")
                    .args(["ci", "--no-audit", "--no-fund", "--prefix"])
                    .arg(&tools)
                    .output()
                {
                    Ok(o) if o.status.success() => {}
                    Ok(o) => eprintln!(
                        "npm ci failed: {}",
                        String::from_utf8_lossy(&o.stderr)
                            .lines()
                            .last()
                            .unwrap_or("")
                    ),
                    Err(e) => eprintln!("npm is not runnable: {e}"),
                }
            }
            let _ = std::fs::remove_dir(&lock);
            return;
        }
        // Another test process is installing: wait for it (at most a minute).
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

/// Runs the Khronos validator on `file`: its summary, or `None` (skip) when node or the npm package is missing.
pub fn gltf_validate(file: &std::path::Path) -> Option<serde_json::Value> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let script = root.join("tools/gltf-validator/validate.mjs");
    let package = root.join("tools/gltf-validator/node_modules/gltf-validator");
    let missing = |why: String| {
        assert!(!ci(), "{why}; CI=true makes this a failure");
        eprintln!("{why}: skipping validation (run npm ci --prefix tools/gltf-validator)");
        None
    };
    if !package.is_dir() {
        install_validator(root);
    }
    if !package.is_dir() {
        return missing(format!("{} not installed", package.display()));
    }
    let out = match std::process::Command::new("node")
        .arg(&script)
        .arg(file)
        .output()
    {
        Ok(o) => o,
        Err(e) => return missing(format!("node not runnable: {e}")),
    };
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{}: validator output is not JSON ({e}); stderr: {}",
            file.display(),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    Some(summary)
}

/// Static contacts under both feet of a walker, at the feet's centres of mass (so the LCP pushes every step).
pub fn feet_contacts(c: &flinch::control::Character) -> Vec<flinch::dynamics::ContactPoint> {
    ["LeftFoot", "RightFoot"]
        .iter()
        .filter_map(|bone| c.model().bodies.iter().position(|b| b.name == *bone))
        .map(|body| {
            let p = c.world().bodies()[body].position;
            flinch::dynamics::ContactPoint {
                body,
                other: flinch::dynamics::ContactOther::Static,
                point: p,
                other_point: p,
                normal: nalgebra::Vector3::y(),
                friction: 0.8,
                restitution: 0.0,
            }
        })
        .collect()
}

/// A capsule collider along a link's x axis (0.4 m long between its end centres, radius 3 cm) on `body`, the
/// chain links of the contact tests.
pub fn link_capsule(body: usize) -> flinch::contact::collision::Collider {
    flinch::contact::collision::Collider::new(
        Some(body),
        flinch::contact::collision::Shape::Capsule {
            a: nalgebra::Point3::new(-0.2, 0.0, 0.0),
            b: nalgebra::Point3::new(0.2, 0.0, 0.0),
            radius: 0.03,
        },
    )
}
