//! The Python side, run by `cargo test`: builds the abi3 wheel of `python/` with maturin (release, its own target
//! folder under target/ so it never waits on this test's cargo lock), installs it with `pip install --target`
//! under target/, runs pytest on `python/tests` (the API, the CLI byte-identity check, and the batch bake on a
//! local Ray cluster with 2 workers; the USD export read back with usd-core's `pxr`), then, when `blender` is
//! installed, the Blender add-on headless test and the one-file install: `blender/package.py` builds the 4.2
//! extension zip (its manifest checked) and the legacy add-on zip from the wheel, and `blender/tests/
//! test_install.py` installs the legacy zip into a clean temporary Blender profile with no flinch on the path and
//! retargets a clip onto the user's armature with the retarget operator.
//!
//! A missing tool (python3 with maturin, numpy, pytest, ray, tqdm, usd-core; blender with NumPy for its glTF
//! add-on) prints a skip message, except under `CI=true` where it fails: `.ci/run` installs them.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

/// Skips (prints why) outside CI, fails in CI.
fn missing(what: &str) {
    assert!(!in_ci(), "CI=true but {what}: .ci/run installs it");
    println!("skipped: {what}");
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn run(what: &str, cmd: &mut Command) -> Output {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot start {cmd:?}: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("== {what}\n{stdout}");
    if !out.status.success() {
        panic!("{what} failed ({}):\n{stdout}\n{stderr}", out.status);
    }
    out
}

fn python_has(modules: &str) -> bool {
    Command::new("python3")
        .args(["-c", &format!("import {modules}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Builds the wheel and installs it into `target/python-site`; returns that folder and the wheel.
fn install_wheel(target: &Path) -> (PathBuf, PathBuf) {
    let wheels = target.join("python-wheels");
    let _ = std::fs::remove_dir_all(&wheels);
    run(
        "maturin build (release, abi3 wheel)",
        Command::new("python3")
            .current_dir(repo())
            .args(["-m", "maturin", "build", "--release", "--quiet", "-m"])
            .arg(repo().join("python/Cargo.toml"))
            .arg("-o")
            .arg(&wheels)
            .arg("--target-dir")
            .arg(target.join("python-build")),
    );
    let wheel = std::fs::read_dir(&wheels)
        .expect("maturin wrote no wheel folder")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "whl"))
        .expect("maturin wrote no wheel");
    let name = wheel.file_name().unwrap_or_default().to_string_lossy();
    assert!(name.contains("abi3"), "{name} is not an abi3 wheel");
    let site = target.join("python-site");
    let _ = std::fs::remove_dir_all(&site);
    run(
        "pip install --target target/python-site",
        Command::new("python3")
            .args(["-m", "pip", "install", "--quiet", "--no-deps", "--target"])
            .arg(&site)
            .arg(&wheel),
    );
    (site, wheel)
}

#[test]
fn python_package_and_blender_addon() {
    if !python_has("maturin, numpy, pytest, ray, tqdm") {
        missing("python3 with maturin, numpy, pytest, ray and tqdm is not available");
        return;
    }
    if !python_has("pxr") {
        // test_usd.py skips itself without it (and fails under CI=true).
        missing("usd-core (Pixar's pxr) is not installed: pip install usd-core");
    }
    let target = repo().join("target");
    let (site, wheel) = install_wheel(&target);
    run(
        "pytest python/tests",
        Command::new("python3")
            // The repository root: python/ (the sources without the compiled module) must not shadow the install.
            .current_dir(repo())
            .args([
                "-m",
                "pytest",
                "-q",
                "-p",
                "no:cacheprovider",
                "python/tests",
            ])
            .env("PYTHONPATH", &site)
            .env("FLINCH_BIN", env!("CARGO_BIN_EXE_flinch"))
            .env("RAY_USAGE_STATS_ENABLED", "0"),
    );
    let has_blender = Command::new("blender")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_blender {
        missing("blender is not installed (apt-get install blender)");
        return;
    }
    let out = run(
        "blender -b add-on test",
        Command::new("blender")
            .current_dir(repo())
            .args([
                "-b",
                "--factory-startup",
                "--python-exit-code",
                "1",
                "--python",
            ])
            .arg(repo().join("blender/tests/test_addon.py"))
            .env("FLINCH_PYTHONPATH", &site),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("figure blender_addon_ok 1"),
        "the Blender test did not finish:\n{stdout}"
    );
    one_file_install(&target, &wheel);
}

/// The one-file installs: both zips built from the wheel, the extension's manifest checked, the legacy zip
/// installed and used in a clean Blender profile (temporary user scripts and config folders, no flinch on the
/// Python path).
fn one_file_install(target: &Path, wheel: &Path) {
    let packages = target.join("blender-packages");
    let _ = std::fs::remove_dir_all(&packages);
    let out = run(
        "blender/package.py (4.2 extension and legacy add-on zips)",
        Command::new("python3")
            .arg(repo().join("blender/package.py"))
            .arg("--wheel")
            .arg(wheel)
            .arg("--out")
            .arg(&packages),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("manifest ok"), "{stdout}");
    let zip = |suffix: &str| {
        std::fs::read_dir(&packages)
            .expect("package.py wrote no folder")
            .filter_map(Result::ok)
            .map(|e| e.path())
            .find(|p| p.to_string_lossy().ends_with(suffix))
            .unwrap_or_else(|| panic!("package.py wrote no *{suffix}"))
    };
    let legacy = zip("-legacy.zip");
    let extension = zip("-extension.zip");
    let blender_numpy = Command::new("blender")
        .args(["-b", "--factory-startup", "--python-exit-code", "1"])
        .args(["--python-expr", "import numpy"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !blender_numpy {
        missing(
            "Blender's Python has no NumPy (its glTF add-on needs it: apt-get install python3-numpy)",
        );
        return;
    }
    let profile = target.join("blender-profile");
    let _ = std::fs::remove_dir_all(&profile);
    for dir in ["scripts", "config"] {
        std::fs::create_dir_all(profile.join(dir)).expect("cannot create the Blender profile");
    }
    let out = run(
        "blender -b one-file install and retarget",
        Command::new("blender")
            .current_dir(repo())
            .args([
                "-b",
                "--factory-startup",
                "--python-exit-code",
                "1",
                "--python",
            ])
            .arg(repo().join("blender/tests/test_install.py"))
            .env("BLENDER_USER_SCRIPTS", profile.join("scripts"))
            .env("BLENDER_USER_CONFIG", profile.join("config"))
            .env("FLINCH_ADDON_ZIP", &legacy)
            .env_remove("PYTHONPATH")
            .env_remove("FLINCH_PYTHONPATH"),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("figure blender_extension_ok 1"),
        "the install test did not finish:\n{stdout}"
    );
    // Blender 3.4 has no extension system: the 4.2 zip's manifest and its install done by hand (see the script).
    let out = run(
        "blender -b 4.2 extension zip (manifest, hand install)",
        Command::new("blender")
            .current_dir(repo())
            .args([
                "-b",
                "--factory-startup",
                "--python-exit-code",
                "1",
                "--python",
            ])
            .arg(repo().join("blender/tests/test_extension.py"))
            .env("FLINCH_EXTENSION_ZIP", &extension)
            .env_remove("PYTHONPATH")
            .env_remove("FLINCH_PYTHONPATH"),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("figure blender_extension_zip_ok 1"),
        "the extension test did not finish:\n{stdout}"
    );
}
