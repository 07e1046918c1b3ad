//! Robustness of `flinch_bake_file`: NULL and non-UTF-8 arguments, missing input, bad hits JSON, missing output
//! folder, unknown output format and unknown bones each return their status with a message naming the problem,
//! write no file and leave the summary untouched; a good bake fills the summary.

use std::ffi::{CStr, CString, c_char};
use std::path::PathBuf;
use std::ptr::{null, null_mut};

use crate::bake::{FlinchBakeSummary, flinch_bake_file};
use crate::error::{FlinchStatus as S, flinch_last_error};

fn last_error() -> String {
    // SAFETY: flinch_last_error never returns NULL and the string lives until the next call on this thread.
    unsafe { CStr::from_ptr(flinch_last_error()) }
        .to_string_lossy()
        .into_owned()
}

/// A scratch folder of this test process.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("flinch-ffi-bake-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).expect("scratch folder");
    d
}

fn c(s: &str) -> CString {
    CString::new(s).expect("no NUL")
}

fn sentinel() -> FlinchBakeSummary {
    FlinchBakeSummary {
        frames: 7,
        steps: 7,
        duration_s: 7.0,
        events: 7,
        has_hit: 7,
        peak_deg: 7.0,
        peak_time_s: 7.0,
        peak_joint: [7; crate::bake::FLINCH_JOINT_NAME_CAPACITY],
        return_s: 7.0,
        energy_j: 7.0,
        track_rms_deg: 7.0,
        max_joint_gap_mm: 7.0,
    }
}

/// Bakes (input NULL: the embedded walk) into `output`; asserts `want`, the message words, that `output` was not
/// created and the summary not written.
#[track_caller]
fn expect_failure(
    input: *const c_char,
    output: &CString,
    hits: Option<&str>,
    want: S,
    words: &[&str],
) {
    let hits = hits.map(c);
    let mut summary = sentinel();
    // SAFETY: valid strings (or NULL) and a valid summary.
    let status = unsafe {
        flinch_bake_file(
            input,
            output.as_ptr(),
            hits.as_ref().map_or(null(), |h| h.as_ptr()),
            null(),
            0.0,
            &mut summary,
        )
    };
    let msg = last_error();
    assert_eq!(status, want, "message: {msg}");
    assert!(msg.starts_with("flinch_bake_file: "), "{msg}");
    for w in words {
        assert!(msg.contains(w), "`{w}` not in message: {msg}");
    }
    assert_eq!(summary, sentinel(), "the summary was written on failure");
    let path = PathBuf::from(output.to_str().expect("UTF-8 test path"));
    assert!(!path.exists(), "a failed bake wrote {}", path.display());
}

#[test]
fn null_and_non_utf8_arguments() {
    let dir = scratch("args");
    let out = c(&dir.join("out.bvh").display().to_string());
    // SAFETY: NULL output is the case under test; the rest are valid or NULL.
    let s = unsafe { flinch_bake_file(null(), null(), null(), null(), 0.0, null_mut()) };
    assert_eq!(s, S::NullPointer);
    assert!(
        last_error().contains("`output` is NULL"),
        "{}",
        last_error()
    );

    let bad = [b'w', 0xff, b'.', b'b', b'v', b'h', 0];
    expect_failure(
        bad.as_ptr().cast(),
        &out,
        None,
        S::InvalidArgument,
        &["`input` is not valid UTF-8 (at byte 1)"],
    );
    let bad_output = CString::new(vec![b'o', 0xfe]).expect("no NUL");
    // SAFETY: valid strings.
    let s =
        unsafe { flinch_bake_file(null(), bad_output.as_ptr(), null(), null(), 0.0, null_mut()) };
    assert_eq!(s, S::InvalidArgument);
    assert!(
        last_error().contains("`output` is not valid UTF-8"),
        "{}",
        last_error()
    );
    // SAFETY: valid strings.
    let s = unsafe { flinch_bake_file(null(), out.as_ptr(), null(), null(), f64::NAN, null_mut()) };
    assert_eq!(s, S::InvalidArgument);
    assert!(last_error().contains("rate_hz"), "{}", last_error());
    assert!(!dir.join("out.bvh").exists());
}

#[test]
fn missing_input_bad_hits_and_bad_output_are_reported_without_writing() {
    let dir = scratch("files");
    let out = c(&dir.join("out.bvh").display().to_string());
    let missing = c(&dir.join("missing.bvh").display().to_string());
    expect_failure(
        missing.as_ptr(),
        &out,
        None,
        S::Io,
        &["missing.bvh", "cannot read"],
    );

    let garbage = dir.join("garbage.bvh");
    std::fs::write(&garbage, "HIERARCHY\nROOT Hips {\n nonsense").expect("write garbage");
    let garbage = c(&garbage.display().to_string());
    expect_failure(garbage.as_ptr(), &out, None, S::Parse, &["garbage.bvh"]);

    let missing_field = r#"{"hits": [{"type": "impulse", "time": 1.0}]}"#;
    expect_failure(
        null(),
        &out,
        Some(missing_field),
        S::Config,
        &["hits_json", "hits[0]", "missing field"],
    );
    let syntax = "{\"hits\": [\n {\"type\": \"impulse\",, }]}";
    expect_failure(
        null(),
        &out,
        Some(syntax),
        S::Config,
        &["hits_json", "line 2"],
    );

    let no_folder = c(&dir.join("no/such/folder/out.bvh").display().to_string());
    expect_failure(
        null(),
        &no_folder,
        None,
        S::Io,
        &["no/such/folder", "does not exist"],
    );
    let no_format = c(&dir.join("out.fbx").display().to_string());
    expect_failure(
        null(),
        &no_format,
        None,
        S::InvalidArgument,
        &["out.fbx", "unknown output format"],
    );
}

#[test]
fn an_unknown_bone_in_the_hits_is_reported_without_writing() {
    let dir = scratch("bone");
    let out = c(&dir.join("out.bvh").display().to_string());
    let tail =
        r#"{"hits": [{"type": "impulse", "time": 0.5, "bone": "Tail", "impulse": [1, 0, 0]}]}"#;
    expect_failure(
        null(),
        &out,
        Some(tail),
        S::UnknownBone,
        &["the embedded walk", "Tail"],
    );
    let aimed = r#"{"hits": [{"type": "aimed_ball", "bone": "Wing", "arrival": 1.0, "velocity": [15, 0, 0]}]}"#;
    expect_failure(null(), &out, Some(aimed), S::UnknownBone, &["Wing"]);
}

#[test]
fn a_bake_writes_the_file_and_the_summary() {
    let dir = scratch("ok");
    let path = dir.join("walk.bvh");
    let out = c(&path.display().to_string());
    let hits = c(
        r#"{"hits": [{"type": "impulse", "time": 1.0, "bone": "RightForeArm", "impulse": [6.75, 0, 0]}]}"#,
    );
    let mut s = sentinel();
    // SAFETY: valid strings and summary.
    let status =
        unsafe { flinch_bake_file(null(), out.as_ptr(), hits.as_ptr(), null(), 0.0, &mut s) };
    assert_eq!(status, S::Ok, "{}", last_error());
    assert_eq!(last_error(), "");
    assert_eq!(s.frames, 343);
    assert_eq!((s.has_hit, s.events), (1, 1));
    assert!(s.peak_deg > 15.0 && s.peak_time_s > 1.0, "{s:?}");
    // SAFETY: peak_joint is NUL-terminated.
    let joint = unsafe { CStr::from_ptr(s.peak_joint.as_ptr()) };
    assert!(!joint.is_empty(), "{s:?}");
    assert!(s.duration_s > 2.0 && s.steps > 300, "{s:?}");
    let imported = flinch_core::io::load_file(&path, &Default::default()).expect("re-import");
    assert_eq!(imported.clip.frames.len(), 343);
    let _ = std::fs::remove_dir_all(&dir);
}
