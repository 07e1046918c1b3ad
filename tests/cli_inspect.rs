//! `flinch inspect` end to end: the embedded clip, corpus files, JSON, and bad input (exit status 2, one line).

mod common;

use common::flinch;

#[test]
fn inspect_embedded_walk() {
    let (code, out, err) = flinch(&["inspect"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("joints    31 "), "{out}");
    assert!(out.contains("frames    344 at 120.0"), "{out}");
    assert!(out.contains("unit      cmu-asf (inferred"), "{out}");
    assert!(out.contains("T-pose reference frame"), "{out}");
    assert!(out.contains("    LeftUpLeg"), "{out}");
}

#[test]
fn inspect_json_reports_height_in_metres() {
    let (code, out, err) = flinch(&["inspect", "--json", "--drop-tpose"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("valid JSON");
    assert_eq!(v["joint_count"], 31);
    assert_eq!(v["frame_count"], 343);
    let h = v["height_m"].as_f64().expect("height");
    assert!((1.2..2.0).contains(&h), "CMU subject height {h} m");
    assert_eq!(v["up_axis"], "Y");
}

#[test]
fn inspect_every_corpus_file() {
    for sub in ["bvh", "gltf", "urdf"] {
        for ext in ["bvh", "gltf", "glb", "urdf"] {
            for f in common::corpus_files_quiet(sub, ext) {
                let (code, out, err) =
                    flinch(&["inspect", "--json", f.to_str().expect("utf-8 path")]);
                assert_eq!(code, 0, "{}: {err}", f.display());
                let v: serde_json::Value = serde_json::from_str(&out).expect("valid JSON");
                let h = v["height_m"].as_f64().expect("height");
                // Every BVH in the corpus is a human: its standing height must come out in metres.
                let plausible = if sub == "bvh" { 1.2..2.0 } else { 0.0..10.0 };
                assert!(plausible.contains(&h), "{}: height {h} m", f.display());
            }
        }
    }
}

#[test]
fn bad_input_exits_2_with_one_line_location() {
    let dir = std::env::temp_dir().join(format!("flinch-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.bvh");
    std::fs::write(&bad, "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 zero\n}\n").unwrap();
    let (code, out, err) = flinch(&["inspect", bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("bad.bvh") && err.contains("line 4"), "{err}");

    let (code, _, err) = flinch(&["inspect", dir.join("missing.bvh").to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = flinch(&["inspect", dir.join("x.txt").to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("unknown format"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn inspect_model_of_the_embedded_walk() {
    let (code, out, err) = flinch(&["inspect", "--model", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("valid JSON");
    let total = v["model"]["total_mass_kg"].as_f64().expect("total mass");
    assert!((60.0..=90.0).contains(&total), "CMU subject {total} kg");
    assert_eq!(v["model"]["body_count"], 19);

    let dir = std::env::temp_dir().join(format!("flinch-cli-model-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cfg = dir.join("heavy.toml");
    std::fs::write(
        &cfg,
        "total_mass = 80.0\n[bones.NoSuchBone]\nradius = 0.05\n",
    )
    .unwrap();
    let (code, out, err) = flinch(&["inspect", "--config", cfg.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("total     80.00 kg"), "{out}");
    assert!(out.contains("'NoSuchBone'"), "{out}");
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "densty = 900\n").unwrap();
    let (code, _, err) = flinch(&["inspect", "--config", bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("bad.toml") && err.contains("line 1, column 1") && err.contains("densty"),
        "{err}"
    );
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn inspect_prints_the_bone_map() {
    let (code, out, err) = flinch(&["inspect"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("bone map\n"), "{out}");
    assert!(
        out.contains("  right_forearm    RightForeArm (name)"),
        "{out}"
    );
    assert!(out.contains("humanoid: all required roles found"), "{out}");
    let (code, out, err) = flinch(&["inspect", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("valid JSON");
    let map = &v["bone_map"];
    assert_eq!(map["roles"]["left_thigh"]["bone"], "LeftUpLeg");
    assert_eq!(map["roles"]["left_thigh"]["found"], "name");
    assert_eq!(map["roles"].as_object().map(|o| o.len()), Some(22));
    assert_eq!(map["missing"].as_array().map(Vec::len), Some(0));
    let Some(data) = common::corpus_dir() else {
        return;
    };
    // MakeHuman's walk: the hips are found where legs and spine meet (its `Hips` only carries the legs).
    let mh = data.join("bvh/makehuman_walk1.bvh");
    let (code, out, err) = flinch(&["inspect", mh.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("  hips             Root (structure)"), "{out}");
    let fox = data.join("gltf/Fox.glb");
    let (code, out, err) = flinch(&["inspect", "--json", fox.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("valid JSON");
    let missing = v["bone_map"]["missing"].as_array().expect("missing roles");
    assert!(missing.iter().any(|r| r == "left_hand"), "{missing:?}");
}
