//! Free roots through the C ABI (`ffi/tests/c/root.c`: assisted from JSON configuration) and the C++ API
//! (`ffi/tests/cpp/root.cpp`: switched at runtime): each walks the sample 2 s in the Tracking state on a finite
//! floor, pushes the chest with 60 N·s and checks that the first balance event is Tracking → Staggering. Built
//! against the static library.

use std::collections::BTreeMap;
use std::process::Command;

mod common;

use common::{include_dirs, lib_dir, repo, run, scratch, walk};

/// The `name value` lines of a program's output (the first value of each).
fn summary(out: &str) -> BTreeMap<String, f64> {
    out.lines()
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            let k = words.next()?;
            Some((k.to_string(), words.next()?.parse().ok()?))
        })
        .collect()
}

/// Compiles `source` with `compiler` and `flags` against libflinch.a into `exe` and runs it on the walk.
fn build_and_run(compiler: &str, source: &str, flags: &[&str], exe: &str) -> String {
    let exe = scratch("root").join(exe);
    let mut cmd = Command::new(compiler);
    cmd.args(flags)
        .args(include_dirs().iter().map(|d| format!("-I{}", d.display())))
        .arg(repo().join(source))
        .arg("-o")
        .arg(&exe)
        .arg(lib_dir().join("libflinch.a"))
        .args(["-lstdc++", "-lpthread", "-ldl", "-lm"]);
    run(&mut cmd);
    run(Command::new(&exe).arg(walk()))
}

/// Staggering's value in `FlinchRootState` / `flinch::RootState`.
const STAGGERING: f64 = 1.0;

fn check(out: &str) {
    println!("{out}");
    let s = summary(out);
    assert_eq!(s["failures"], 0.0, "{out}");
    assert_eq!(s["tracking_steps"], 240.0, "{out}");
    assert!(s["floor_m"].is_finite(), "{out}");
    assert!((0.0..0.05).contains(&s["penetration_m"]), "{out}");
    assert!(s["root_events"] >= 1.0, "{out}");
    let first: Vec<f64> = out
        .lines()
        .find_map(|l| l.strip_prefix("event "))
        .expect("an event line")
        .split_whitespace()
        .map(|w| w.parse().expect("a number"))
        .collect();
    assert_eq!(first[1..], [0.0, STAGGERING], "{out}");
    assert!(first[0] > 2.0 && first[0] <= 2.1, "{out}");
}

#[test]
fn c_assisted_root_from_json_tracks_then_staggers() {
    let out = build_and_run(
        "cc",
        "ffi/tests/c/root.c",
        &["-std=c11", "-Wall", "-Wextra", "-Werror", "-O1"],
        "root_c",
    );
    check(&out);
    assert_eq!(summary(&out)["policy"], 2.0, "{out}");
}

#[test]
fn cpp_root_switched_at_runtime_tracks_then_staggers() {
    let out = build_and_run(
        "c++",
        "ffi/tests/cpp/root.cpp",
        &["-std=c++17", "-Wall", "-Wextra", "-Werror", "-O1"],
        "root_cpp",
    );
    check(&out);
}
