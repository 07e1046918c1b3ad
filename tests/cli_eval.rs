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

#[test]
fn eval_with_an_assisted_root_prints_the_ground_fit_and_free_root_figures() {
    let (code, out, err) = flinch(&["eval", "--root", "assisted"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("cmu_02_01_walk.bvh (embedded): 19 bodies"),
        "{out}"
    );
    assert!(out.contains("root: assisted; floor "), "{out}");
    // The walk's whole clip, unperturbed: the assist keeps it on its feet and on its clip.
    assert!(out.contains("341 steps, final state Tracking"), "{out}");
    assert!(!out.contains("-> Falling"), "{out}");
    // The CMU lab floor is near y = 0 and the feet of the clip rest on it within a few centimetres.
    assert!(figure(&out, "floor_m").abs() < 0.1, "{out}");
    assert!(figure(&out, "stance_height_error_mm") < 30.0, "{out}");
    assert!(figure(&out, "free_track_rms_deg") < 5.0, "{out}");
    assert!(figure(&out, "root_pos_rms_mm") < 50.0, "{out}");
    assert!(figure(&out, "max_penetration_mm") < 5.0, "{out}");
    assert!(
        (0.0..0.5).contains(&figure(&out, "residual_wrench_frac")),
        "{out}"
    );
    assert!(figure(&out, "max_joint_gap_mm") < 1e-3, "{out}");
    assert_eq!(figure(&out, "nan_steps"), 0.0, "{out}");
    assert!(figure(&out, "foot_slide_mm").is_finite(), "{out}");
    // The kinematic table is not printed for a free root.
    assert!(!out.contains("rms deg"), "{out}");
}

#[test]
fn eval_with_an_assisted_root_and_a_heavy_push_falls() {
    // A 70 N·s push into the chest against the walk (+Z on this clip), about the issue's 5 kg ball at 12 m/s.
    let (code, out, err) = flinch(&[
        "eval",
        "--root",
        "assisted",
        "--hit",
        "role:chest:1.0:0,0,-70",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Tracking -> Staggering"), "{out}");
    assert!(out.contains("Staggering -> Falling"), "{out}");
    assert!(figure(&out, "max_joint_gap_mm") < 1e-3, "{out}");
    assert_eq!(figure(&out, "nan_steps"), 0.0, "{out}");
    // --duration shortens the run (0.5 s at 120 Hz), a bad one is a usage error.
    let (code, out, err) = flinch(&["eval", "--root", "free", "--duration", "0.5"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("root: free;") && out.contains("\n60 steps, "),
        "{out}"
    );
    let (code, _, err) = flinch(&["eval", "--root", "free", "--duration", "nan"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--duration"), "{err}");
}

/// An upper-body BVH (hips, spine, head and arms; no legs), in centimetres, 30 frames of swaying.
fn upper_body_bvh() -> String {
    let mut s = String::from(
        "HIERARCHY
ROOT Hips
{
  OFFSET 0 95 0
  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
  JOINT Spine
  {
    OFFSET 0 10 0
    CHANNELS 3 Zrotation Xrotation Yrotation
    JOINT Chest
    {
      OFFSET 0 15 0
      CHANNELS 3 Zrotation Xrotation Yrotation
      JOINT Neck
      {
        OFFSET 0 20 0
        CHANNELS 3 Zrotation Xrotation Yrotation
        JOINT Head
        {
          OFFSET 0 8 0
          CHANNELS 3 Zrotation Xrotation Yrotation
          End Site
          {
            OFFSET 0 15 0
          }
        }
      }
",
    );
    for (side, x) in [("Left", 1.0), ("Right", -1.0)] {
        s += &format!(
            "      JOINT {side}Shoulder
      {{
        OFFSET {} 18 0
        CHANNELS 3 Zrotation Xrotation Yrotation
        JOINT {side}Arm
        {{
          OFFSET {} 0 0
          CHANNELS 3 Zrotation Xrotation Yrotation
          JOINT {side}ForeArm
          {{
            OFFSET {} 0 0
            CHANNELS 3 Zrotation Xrotation Yrotation
            JOINT {side}Hand
            {{
              OFFSET {} 0 0
              CHANNELS 3 Zrotation Xrotation Yrotation
              End Site
              {{
                OFFSET {} 0 0
              }}
            }}
          }}
        }}
      }}
",
            3.0 * x,
            12.0 * x,
            25.0 * x,
            22.0 * x,
            8.0 * x
        );
    }
    s += "    }\n  }\n}\nMOTION\nFrames: 30\nFrame Time: 0.0333333\n";
    for f in 0..30 {
        let a = 10.0 * (0.2 * f as f64).sin();
        let mut v = vec![0.0, 95.0, 0.0, 0.0, 0.0, 0.0];
        v.extend(std::iter::repeat_n([a, 0.5 * a, 0.0], 12).flatten());
        s += &v
            .iter()
            .map(|x| format!("{x:.4}"))
            .collect::<Vec<_>>()
            .join(" ");
        s.push('\n');
    }
    s
}

#[test]
fn eval_with_a_free_root_on_a_clip_without_feet_is_an_input_error() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli_eval_root");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("upper_body.bvh");
    std::fs::write(&path, upper_body_bvh()).unwrap();
    let file = path.to_str().unwrap();
    // The clip itself is fine: with the kinematic root (the default) it evaluates.
    let (code, out, err) = flinch(&["eval", file]);
    assert_eq!(code, 0, "{err}");
    assert!(figure(&out, "track_rms_deg") < 0.05, "{out}");
    for root in ["assisted", "free"] {
        let (code, out, err) = flinch(&["eval", file, "--root", root]);
        assert_eq!(code, 2, "--root {root}: {out}{err}");
        assert!(out.is_empty(), "--root {root}: {out}");
        assert_eq!(err.trim().lines().count(), 1, "--root {root}: {err}");
        assert!(
            err.contains("upper_body.bvh") && err.contains("feet"),
            "--root {root}: {err}"
        );
    }
    let (code, _, err) = flinch(&["eval", file, "--root", "kinematic"]);
    assert_eq!(code, 0, "{err}");
}
