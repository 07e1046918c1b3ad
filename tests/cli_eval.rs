//! `flinch eval` end to end: figures on the embedded walk, the issue's hit, and bad arguments.

mod common;

use common::flinch;

/// The value of `figure <name> <value> <unit>` in `out`.
fn figure(out: &str, name: &str) -> f64 {
    out.lines()
        .find_map(|l| l.strip_prefix(&format!("figure {name} ")))
        .and_then(|r| r.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no figure {name} in:\n{out}"))
}

#[test]
fn eval_with_the_forearm_hit_prints_the_issue_figures() {
    let (code, out, err) = flinch(&["eval", "--hit", "RightForeArm:1.0:6.75,0,0"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("cmu_02_01_walk.bvh (embedded): 19 bodies"),
        "{out}"
    );
    assert!(figure(&out, "track_rms_deg") <= 0.05);
    assert!(figure(&out, "track_max_deg") <= 0.5);
    assert!(figure(&out, "hit_peak_deg") >= 15.0);
    assert!(figure(&out, "hit_return_s") <= 0.7);
    assert!(figure(&out, "max_joint_gap_mm") <= 0.1);
}

#[test]
fn eval_hits_a_role_reference_like_the_bone_it_maps_to() {
    let by_role = flinch(&[
        "eval",
        "--duration",
        "1.3",
        "--hit",
        "role:right_forearm:1.0:6.75,0,0",
    ]);
    let by_name = flinch(&[
        "eval",
        "--duration",
        "1.3",
        "--hit",
        "RightForeArm:1.0:6.75,0,0",
    ]);
    assert_eq!(by_role.0, 0, "{}", by_role.2);
    assert_eq!(
        by_role.1, by_name.1,
        "the same body is hit, the same figures come out"
    );
    let (code, _, err) = flinch(&["eval", "--hit", "role:tail:1.0:1,0,0"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("role:tail") && err.contains("unknown role"),
        "{err}"
    );
}

#[test]
fn eval_at_other_rates_and_without_feedback() {
    let (code, out, err) = flinch(&["eval", "--rate", "60", "--no-feedback", "--duration", "0.5"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("at 60 Hz"), "{out}");
    assert!(figure(&out, "track_max_deg") < 1.0);
}

#[test]
fn eval_bad_arguments_exit_2_with_one_line() {
    for args in [
        vec!["eval", "--hit", "NoSuchBone:1.0:1,0,0"],
        vec!["eval", "--hit", "RightForeArm:x:1,0,0"],
        vec!["eval", "--hit", "RightForeArm:1.0:1,0"],
        vec!["eval", "--rate=-5"],
        vec!["eval", "--rate=0"],
        vec!["eval", "/nonexistent/clip.bvh"],
    ] {
        let (code, out, err) = flinch(&args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    }
}
