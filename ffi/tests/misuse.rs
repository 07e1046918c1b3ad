//! The FFI misuse suite: `ffi/tests/c/misuse.c` misuses the C ABI on purpose (NULL pointers, double frees, use
//! after free, forged and wrongly typed handles, short buffers, non-UTF-8 strings, invalid enum values, NaN and
//! infinite numbers, free-root misuse (bad policy values, NaN assist weights, a clip without feet), two threads on
//! one world, a world destroyed while another thread steps it, a bake over its own input, the level's misuse (NaN
//! vertices and heights, empty meshes, bad shape values, stale, forged and foreign colliders, bad casts and level
//! files)) and checks every status and `flinch_last_error` message. Built against the static library, and a second
//! time with AddressSanitizer when the compiler supports it, so a memory error inside the library aborts the run
//! instead of passing unnoticed.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

use common::{include_dirs, lib_dir, repo, scratch, walk};

/// Fewest cases the suite must run (the issue asks for 15).
const MIN_CASES: usize = 15;

/// The first `frames` frames of the walk (a character builds in well under a second from them).
fn short_walk(dir: &Path, frames: usize) -> PathBuf {
    let text = std::fs::read_to_string(walk()).expect("the walk");
    let (head, motion) = text.split_once("MOTION").expect("a MOTION section");
    let mut lines = motion.lines().filter(|l| !l.trim().is_empty());
    let _frames_line = lines.next();
    let frame_time = lines.next().expect("Frame Time:");
    let mut out = format!("{head}MOTION\nFrames: {frames}\n{frame_time}\n");
    for l in lines.take(frames) {
        out.push_str(l);
        out.push('\n');
    }
    let path = dir.join("walk_short.bvh");
    std::fs::write(&path, out).expect("write the short walk");
    path
}

/// Whether `cc` builds and runs a program with `flags`.
fn compiler_supports(dir: &Path, flags: &[&str]) -> bool {
    let src = dir.join("probe.c");
    let exe = dir.join("probe");
    std::fs::write(&src, "int main(void) { return 0; }\n").expect("write the probe");
    Command::new("cc")
        .args(flags)
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .output()
        .is_ok_and(|o| o.status.success())
        && Command::new(&exe)
            .output()
            .is_ok_and(|o| o.status.success())
}

/// Builds misuse.c with `flags` against the static library and runs it; returns (cases ok, cases).
fn build_and_run(dir: &Path, exe_name: &str, flags: &[&str], clip: &Path) -> (usize, usize) {
    let exe = dir.join(exe_name);
    let out = Command::new("cc")
        .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-g"])
        .args(flags)
        .args(include_dirs().iter().map(|d| format!("-I{}", d.display())))
        .arg(repo().join("ffi/tests/c/misuse.c"))
        .arg("-o")
        .arg(&exe)
        .arg(lib_dir().join("libflinch.a"))
        .args(["-lstdc++", "-lpthread", "-ldl", "-lm"])
        .output()
        .expect("run cc");
    assert!(
        out.status.success(),
        "cc {flags:?} misuse.c failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = Command::new(&exe)
        .arg(clip)
        .arg(dir)
        // Leak reports would flag the library's global handle tables, which live until exit by design.
        .env("ASAN_OPTIONS", "detect_leaks=0:abort_on_error=1")
        .output()
        .expect("run misuse");
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        run.status.success(),
        "{exe_name} failed ({}):\n{stdout}\n{stderr}",
        run.status
    );
    let summary = stdout
        .lines()
        .find_map(|l| l.strip_prefix("misuse_cases_ok "))
        .unwrap_or_else(|| panic!("no summary in:\n{stdout}"));
    let words: Vec<&str> = summary.split_whitespace().collect();
    let (ok, total) = match words.as_slice() {
        [ok, "of", total] => (ok.parse().expect("count"), total.parse().expect("count")),
        _ => panic!("bad summary line {summary}"),
    };
    println!("{stdout}");
    (ok, total)
}

#[test]
fn every_misuse_returns_a_status_and_a_message() {
    let dir = scratch("misuse");
    let clip = short_walk(&dir, 40);
    let (ok, total) = build_and_run(&dir, "misuse", &["-O1"], &clip);
    assert!(total >= MIN_CASES, "only {total} cases");
    assert_eq!(ok, total);
    println!("figure ffi_misuse_cases_ok {ok}");
    let asan = ["-fsanitize=address", "-fno-omit-frame-pointer"];
    if compiler_supports(&dir, &asan) {
        let (ok, total) = build_and_run(&dir, "misuse_asan", &asan, &clip);
        assert_eq!(ok, total, "under AddressSanitizer");
        println!("figure ffi_misuse_cases_ok_asan {ok}");
    } else {
        println!("cc does not support -fsanitize=address here: the ASan run is skipped");
    }
}
