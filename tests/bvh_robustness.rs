//! The BVH parser never panics: every corpus file truncated and byte-flipped (seeded), plus hand-written bad
//! inputs whose errors must name the right line and column.

mod common;

use std::panic::{AssertUnwindSafe, catch_unwind};

use common::Lcg;
use flinch::io::ImportOptions;
use flinch::io::bvh::{self, BvhError};

const CUTS_PER_FILE: usize = 20;
const FLIPS_PER_FILE: usize = 20;

#[derive(Default)]
struct Tally {
    ok: usize,
    warned: usize,
    err: usize,
}

/// Parses `bytes` (full import and, through it, the raw document), failing the test on a panic.
fn must_not_panic(bytes: &[u8], what: &str, tally: &mut Tally) {
    let r = catch_unwind(AssertUnwindSafe(|| {
        bvh::parse(bytes, &ImportOptions::default())
    }));
    match r {
        Err(_) => panic!("parser panicked on {what}"),
        Ok(Ok(imp)) => {
            // A successful import is usable: at least one frame, one pose per joint.
            assert!(imp.clip.frame_count() >= 1, "{what}");
            assert!(
                imp.clip
                    .frames
                    .iter()
                    .all(|p| p.rotations.len() == imp.skeleton.len())
            );
            if imp.report.warnings.is_empty() {
                tally.ok += 1;
            } else {
                tally.warned += 1;
            }
        }
        Ok(Err(e)) => {
            assert!(e.line >= 1 && e.column >= 1, "{what}: {e}");
            assert!(!e.message.is_empty());
            tally.err += 1;
        }
    }
}

#[test]
fn truncated_and_flipped_corpus_files_never_panic() {
    let files = common::corpus_files("bvh", "bvh");
    let mut rng = Lcg(0x5eed_b0b5);
    let mut tally = Tally::default();
    for path in &files {
        let bytes = std::fs::read(path).expect("read corpus file");
        let name = path.display();
        for _ in 0..CUTS_PER_FILE {
            let at = rng.below(bytes.len() + 1);
            must_not_panic(
                &bytes[..at],
                &format!("{name} truncated at byte {at}"),
                &mut tally,
            );
        }
        // Flips are concentrated on the hierarchy half the time: it is small, and where the grammar lives.
        let header_len = bytes
            .windows(6)
            .position(|w| w == b"MOTION")
            .unwrap_or(bytes.len());
        for k in 0..FLIPS_PER_FILE {
            let mut m = bytes.clone();
            let range = if k % 2 == 0 {
                header_len.max(1)
            } else {
                m.len()
            };
            let at = rng.below(range);
            let value = rng.below(256) as u8;
            m[at] = value;
            must_not_panic(
                &m,
                &format!("{name} with byte {at} set to {value:#04x}"),
                &mut tally,
            );
        }
    }
    println!(
        "figure bvh_mutants_ok {} count\nfigure bvh_mutants_warned {} count\nfigure bvh_mutants_rejected {} count",
        tally.ok, tally.warned, tally.err
    );
    if !files.is_empty() {
        assert_eq!(
            tally.ok + tally.warned + tally.err,
            files.len() * (CUTS_PER_FILE + FLIPS_PER_FILE)
        );
        // Truncation inside MOTION keeps the complete frames (warning), so some mutants must load.
        assert!(tally.warned > 0 && tally.err > 0);
    }
}

fn err(text: &str) -> BvhError {
    match bvh::parse(text.as_bytes(), &ImportOptions::default()) {
        Ok(_) => panic!("accepted bad input:\n{text}"),
        Err(e) => e,
    }
}

fn assert_err(text: &str, line: usize, column: usize, needle: &str) {
    let e = err(text);
    assert_eq!((e.line, e.column), (line, column), "{e}");
    assert!(e.message.contains(needle), "'{e}' lacks '{needle}'");
    assert!(
        e.to_string()
            .starts_with(&format!("line {line}, column {column}: "))
    );
}

const HEAD: &str = "HIERARCHY\nROOT Hips\n{\n\tOFFSET 0 0 0\n\tCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n";

#[test]
fn missing_brace_after_joint_name() {
    let text = format!("{HEAD}\tJOINT Spine\n\tOFFSET 0 1 0\n");
    assert_err(&text, 7, 2, "expected '{' after JOINT name, found 'OFFSET'");
}

#[test]
fn missing_closing_brace_at_end_of_file() {
    let text = format!("{HEAD}\tJOINT Spine\n\t{{\n\t\tOFFSET 0 1 0\n\t}}\n");
    assert_err(
        &text,
        10,
        1,
        "expected '}' to close joint 'Hips' (opened at line 2)",
    );
}

#[test]
fn bad_channel_name() {
    let text =
        "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 3 Xrotation Yrot Zrotation\n}\n";
    assert_err(text, 5, 24, "expected a channel name");
    let text = "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 2 Xrotation xROTATION\n}\n";
    assert_err(text, 5, 24, "listed twice");
}

#[test]
fn huge_channel_count() {
    let text = "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 4000000000 Xrotation\n}\n";
    assert_err(text, 5, 12, "expected a channel count from 0 to 6");
}

#[test]
fn non_numbers_and_non_finite_values() {
    let text = "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 abc 0\n}\n";
    assert_err(text, 4, 12, "OFFSET of joint 'Hips', y), found 'abc'");
    let text = "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 inf 0\n}\n";
    assert_err(text, 4, 12, "found 'inf'");
    let motion = "MOTION\nFrames: 2\nFrame Time: 0.1\n";
    let text = format!("{HEAD}}}\n{motion}1 2 3 4 5 6\n1 2 NaN 4 5 6\n");
    assert_err(
        &text,
        11,
        5,
        "expected a finite number (frame 2, value 3 of 6), found 'NaN'",
    );
    let text = format!("{HEAD}}}\n{motion}1 2 3 4 5 6\n1 2 3x 4 5 6\n");
    assert_err(&text, 11, 5, "found '3x'");
}

#[test]
fn frame_line_with_wrong_value_count() {
    let motion = "MOTION\nFrames: 3\nFrame Time: 0.1\n";
    let text = format!("{HEAD}}}\n{motion}1 2 3 4 5 6\n1 2 3 4 5 6 7\n1 2 3 4 5 6\n");
    assert_err(&text, 11, 13, "expected 6 values on frame line 2");
    // A short line followed by more frames is an error at its end …
    let text = format!("{HEAD}}}\n{motion}1 2 3 4 5 6\n1 2 3 4\n1 2 3 4 5 6\n");
    assert_err(&text, 11, 8, "expected 6 values on frame line 2, found 4");
    // … but a short last line is a truncated file: the complete frames load, with warnings.
    let text = format!("{HEAD}}}\n{motion}1 2 3 4 5 6\n1 2 3 4 5 6\n1 2 3");
    let imp = bvh::parse(text.as_bytes(), &ImportOptions::default()).expect("truncated file loads");
    assert_eq!(imp.clip.frame_count(), 2);
    assert_eq!(imp.report.warnings.len(), 2, "{:?}", imp.report.warnings);
    assert!(imp.report.warnings[0].starts_with("line 12: incomplete last frame (3 of 6 values)"));
}

#[test]
fn bad_motion_header() {
    let text = format!("{HEAD}}}\nMOTION\nFrames: many\nFrame Time: 0.1\n");
    assert_err(&text, 8, 9, "expected a frame count");
    let text = format!("{HEAD}}}\nMOTION\nFrames: 1\nFrame Time: 0\n1 2 3 4 5 6\n");
    assert_err(&text, 9, 13, "expected a positive frame time");
    let text = format!("{HEAD}}}\nMOTION\nFrame Time: 0.1\n");
    assert_err(&text, 8, 1, "expected 'Frames:', found 'Frame'");
    let text = format!("{HEAD}}}\nMOTON\n");
    assert_err(
        &text,
        7,
        1,
        "expected 'MOTION' after the hierarchy, found 'MOTON'",
    );
}

#[test]
fn empty_and_whitespace_only_files() {
    assert_err("", 1, 1, "expected 'HIERARCHY', found an empty file");
    assert_err(
        "\u{feff}  \r\n\t\n\0\0",
        3,
        1,
        "expected 'HIERARCHY', found an empty file",
    );
    assert_err(
        "HIERARCHY\n",
        2,
        1,
        "expected 'ROOT' after HIERARCHY, found end of file",
    );
    assert_err(
        "HIERARCHY\nROOT\n{\n",
        2,
        5,
        "expected a joint name after ROOT",
    );
    assert_err(
        "HIERARCHY\nJOINT Hips\n",
        2,
        1,
        "expected 'ROOT' after HIERARCHY, found 'JOINT'",
    );
}

#[test]
fn a_second_root_is_rejected() {
    let text = "HIERARCHY\nROOT A\n{\n OFFSET 0 0 0\n}\nROOT B\n{\n OFFSET 0 0 0\n}\n";
    assert_err(
        text,
        6,
        1,
        "expected 'MOTION' after the hierarchy, found 'ROOT'",
    );
}

#[test]
fn very_deep_nesting_does_not_overflow_the_stack() {
    let depth = 20_000;
    let mut text = String::from("HIERARCHY\nROOT j0\n{\nOFFSET 0 0 0\n");
    for i in 1..depth {
        text.push_str(&format!("JOINT j{i}\n{{\nOFFSET 0 0.001 0\n"));
    }
    text.push_str(&"}\n".repeat(depth));
    // Past the default depth limit (1000) it is an error naming the limit; with the limit raised, it parses.
    let e = bvh::parse(text.as_bytes(), &ImportOptions::default()).unwrap_err();
    assert!(e.to_string().contains("Limits::max_depth"), "{e}");
    let deep = ImportOptions {
        limits: flinch::io::Limits::UNLIMITED,
        ..ImportOptions::default()
    };
    let imp = bvh::parse(text.as_bytes(), &deep).expect("deep file parses");
    assert_eq!(imp.skeleton.len(), depth);
    // And unclosed, it is an error, not a crash.
    let cut = &text[..text.len() - 2 * depth + 2];
    assert!(bvh::parse(cut.as_bytes(), &deep).is_err());
}
