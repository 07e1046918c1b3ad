//! The install story: `ffi/install.sh` into a scratch prefix, then the C sample built through pkg-config (shared
//! and static) and, when `cmake` is on the PATH, through `find_package(flinch)` (skipped otherwise).

mod common;

use std::path::Path;
use std::process::Command;

use common::{lib_dir, repo, run, scratch, walk};

/// An installed prefix (about 1 GB with the debug static library). It is removed when the test passes and kept
/// for inspection when it fails.
struct Prefix(std::path::PathBuf);

impl std::ops::Deref for Prefix {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Prefix {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// Installs into a fresh prefix and returns it.
fn install(name: &str) -> Prefix {
    let prefix = scratch(name).join("prefix");
    let _ = std::fs::remove_dir_all(&prefix);
    let out = run(Command::new("sh")
        .arg(repo().join("ffi/install.sh"))
        .arg(&prefix)
        .arg(lib_dir()));
    assert!(out.contains("installed flinch 0.1.0"), "{out}");
    for f in [
        "lib/libflinch.so",
        "lib/libflinch.a",
        "include/flinch.h",
        "include/flinch/flinch.hpp",
        "include/flinch/src/bridge.rs.h",
        "include/flinch/src/bridge.rs.cc",
        "include/rust/cxx.h",
        "include/rust/cxx.cc",
        "lib/pkgconfig/flinch.pc",
        "lib/pkgconfig/flinch-static.pc",
        "lib/cmake/flinch/flinchConfig.cmake",
        "lib/cmake/flinch/flinchConfigVersion.cmake",
    ] {
        assert!(prefix.join(f).is_file(), "{f} not installed");
    }
    Prefix(prefix)
}

fn pkg_config(prefix: &Path, args: &[&str]) -> Vec<String> {
    let out = run(Command::new("pkg-config")
        .env("PKG_CONFIG_PATH", prefix.join("lib/pkgconfig"))
        .args(args));
    out.split_whitespace().map(str::to_string).collect()
}

/// The last line of the sample's output, run without cargo's LD_LIBRARY_PATH (which points at the build's own
/// libflinch.so and would win over the installed one's rpath).
fn summary(exe: &Path) -> String {
    let out = run(Command::new(exe).arg(walk()).env_remove("LD_LIBRARY_PATH"));
    out.lines().last().unwrap_or_default().to_string()
}

#[test]
fn pkg_config_builds_the_c_sample_shared_and_static() {
    let prefix = install("pkg-config");
    assert_eq!(pkg_config(&prefix, &["--modversion", "flinch"]), ["0.1.0"]);
    let mut summaries = Vec::new();
    for (package, exe) in [("flinch", "shared"), ("flinch-static", "static")] {
        let flags = pkg_config(&prefix, &["--cflags", "--libs", package]);
        let exe = prefix.join(format!("hit_reaction_{exe}"));
        let mut cmd = Command::new("cc");
        cmd.arg(repo().join("samples/c/hit_reaction.c"))
            .args(&flags)
            .arg(format!("-Wl,-rpath,{}", prefix.join("lib").display()))
            .args(["-lm", "-o"])
            .arg(&exe);
        if package == "flinch-static" {
            // pkg-config's static line names the archive by path; nothing may resolve to the .so.
            assert!(
                flags.iter().any(|f| f.ends_with("libflinch.a")),
                "{flags:?}"
            );
        }
        run(&mut cmd);
        let s = summary(&exe);
        assert!(s.starts_with("summary joints 31 steps 240"), "{s}");
        summaries.push(s);
    }
    assert_eq!(summaries[0], summaries[1]);
    let ldd = run(Command::new("ldd")
        .arg(prefix.join("hit_reaction_shared"))
        .env_remove("LD_LIBRARY_PATH"));
    assert!(
        ldd.contains(&prefix.join("lib/libflinch.so").display().to_string()),
        "{ldd}"
    );
}

#[test]
fn cmake_find_package_gives_imported_targets() {
    if Command::new("cmake").arg("--version").output().is_err() {
        println!("skipped: cmake is not installed");
        return;
    }
    let prefix = install("cmake");
    let src = prefix.join("project");
    std::fs::create_dir_all(&src).expect("project dir");
    let sample = repo().join("samples/c/hit_reaction.c");
    std::fs::write(
        src.join("CMakeLists.txt"),
        format!(
            "cmake_minimum_required(VERSION 3.16)\nproject(sample C)\nfind_package(flinch 0.1 REQUIRED)\n\
             add_executable(hit_shared \"{s}\")\ntarget_link_libraries(hit_shared PRIVATE flinch::flinch m)\n\
             add_executable(hit_static \"{s}\")\ntarget_link_libraries(hit_static PRIVATE flinch::flinch_static m)\n",
            s = sample.display()
        ),
    )
    .expect("write CMakeLists.txt");
    let build = prefix.join("build");
    run(Command::new("cmake")
        .arg("-S")
        .arg(&src)
        .arg("-B")
        .arg(&build)
        .arg(format!("-DCMAKE_PREFIX_PATH={}", prefix.display())));
    run(Command::new("cmake").arg("--build").arg(&build));
    let a = summary(&build.join("hit_shared"));
    let b = summary(&build.join("hit_static"));
    assert!(a.starts_with("summary joints 31"), "{a}");
    assert_eq!(a, b);
}
