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
///
/// `cargo test` builds a cdylib/staticlib crate's tests but not its library artifacts, so the first call builds
/// them (`cargo build -p flinch-ffi --lib`, same target dir and profile; a no-op when they are fresh).
pub fn lib_dir() -> PathBuf {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT
        .get_or_init(|| {
            let exe = std::env::current_exe().expect("test executable path");
            let dir = exe
                .parent()
                .and_then(Path::parent)
                .expect("test executable in <target>/<profile>/deps")
                .to_path_buf();
            let target = dir.parent().expect("<target>/<profile>").to_path_buf();
            let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
            let mut cmd = Command::new(cargo);
            cmd.current_dir(repo())
                .args(["build", "-p", "flinch-ffi", "--lib"])
                .env("CARGO_TARGET_DIR", &target);
            if dir.file_name().is_some_and(|n| n == "release") {
                cmd.arg("--release");
            }
            let status = cmd.status().expect("run cargo build -p flinch-ffi");
            assert!(status.success(), "cargo build -p flinch-ffi failed");
            for lib in ["libflinch.a", "libflinch.so"] {
                assert!(
                    dir.join(lib).is_file(),
                    "{} missing after cargo build -p flinch-ffi",
                    dir.join(lib).display()
                );
            }
            dir
        })
        .clone()
}

/// The `-I` folders of a C or C++ program using flinch: the repository's `include/` (`flinch.h`, the hand-written
/// `flinch/flinch.hpp`) and the generated C++ files `ffi/build.rs` gathers next to the libraries.
pub fn include_dirs() -> [PathBuf; 2] {
    [repo().join("include"), lib_dir().join("include")]
}

/// The C++ sources a program linking the shared library compiles in: the bridge glue and cxx's runtime (hidden
/// inside libflinch.so), from the generated folder.
pub fn cxx_glue() -> [PathBuf; 2] {
    let g = lib_dir().join("include");
    [g.join("flinch/src/bridge.rs.cc"), g.join("rust/cxx.cc")]
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
