//! Crowds from one prepared clip through the C ABI (`ffi/tests/c/crowd.c`) and the C++ API
//! (`ffi/tests/cpp/crowd.cpp`): each builds a crowd from one preparation, checks every member against a character
//! built on its own from the clip (bit-identical state), then hits one member and checks that only it changes.
//! Built against the static library.

use std::collections::BTreeMap;
use std::process::Command;

mod common;

use common::{include_dirs, lib_dir, repo, run, scratch, walk};

/// The `name value` lines of a crowd program's output.
fn summary(out: &str) -> BTreeMap<String, i64> {
    out.lines()
        .filter_map(|l| {
            let (k, v) = l.split_once(' ')?;
            Some((k.to_string(), v.trim().parse().ok()?))
        })
        .collect()
}

/// Compiles `sources` with `compiler` and `flags` against libflinch.a into `exe` and runs it on the walk.
fn build_and_run(compiler: &str, sources: &[&str], flags: &[&str], exe: &str) -> String {
    let lib = lib_dir();
    let exe = scratch("crowd").join(exe);
    let mut cmd = Command::new(compiler);
    cmd.args(flags)
        .args(include_dirs().iter().map(|d| format!("-I{}", d.display())))
        .args(sources.iter().map(|s| repo().join(s)))
        .arg("-o")
        .arg(&exe)
        .arg(lib.join("libflinch.a"))
        .args(["-lstdc++", "-lpthread", "-ldl", "-lm"]);
    run(&mut cmd);
    run(Command::new(&exe).arg(walk()))
}

fn check(out: &str) {
    let s = summary(out);
    let members = s["crowd_members"];
    assert!(members >= 2, "{out}");
    assert_eq!(s["crowd_equal_before_hit"], members, "{out}");
    assert_eq!(s["crowd_equal_after_hit"], members - 1, "{out}");
    assert_eq!(s["hit_member_differs"], 1, "{out}");
}

#[test]
fn c_crowd_members_step_like_characters_built_alone() {
    let out = build_and_run(
        "cc",
        &["ffi/tests/c/crowd.c"],
        &["-std=c11", "-Wall", "-Wextra", "-Werror", "-O1"],
        "crowd_c",
    );
    check(&out);
}

#[test]
fn cpp_crowd_members_step_like_characters_built_alone() {
    let out = build_and_run(
        "c++",
        &["ffi/tests/cpp/crowd.cpp"],
        &["-std=c++17", "-Wall", "-Wextra", "-Werror", "-O1"],
        "crowd_cpp",
    );
    check(&out);
}
