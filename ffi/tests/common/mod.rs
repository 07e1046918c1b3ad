//! Shared helpers of the ffi integration tests: the repository, the built libraries, scratch space, commands.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The sample clip (the CMU walk).
pub fn walk() -> PathBuf {
    repo().join("samples/data/cmu_02_01_walk.bvh")
}

/// The directory holding libflinch.a and libflinch.so: the profile directory of this test's own target dir.
pub fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    let dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("test executable in <target>/<profile>/deps")
        .to_path_buf();
    for lib in ["libflinch.a", "libflinch.so"] {
        assert!(
            dir.join(lib).is_file(),
            "{} missing: cargo builds the flinch-ffi library before its tests (cargo test -p flinch-ffi)",
            dir.join(lib).display()
        );
    }
    dir
}

/// A scratch directory for binaries and outputs of this test.
pub fn scratch(name: &str) -> PathBuf {
    let d = lib_dir().join("ffi-samples").join(name);
    std::fs::create_dir_all(&d).expect("create scratch dir");
    d
}

/// Runs a command; panics with its output on failure; returns stdout.
pub fn run(cmd: &mut Command) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}
