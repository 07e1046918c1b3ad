//! `flinch bake` end to end: a hits file, one output file, a batch into a folder, located errors.

mod common;

use common::flinch;

fn tmp(name: &str) -> std::path::PathBuf {
    let d = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn sample(path: &str) -> String {
    format!("{}/samples/{path}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn bakes_the_sample_hits_into_a_bvh_that_reads_back() {
    let dir = tmp("cli_bake_one");
    let out = dir.join("walk_hit.bvh");
    let (code, stdout, stderr) = flinch(&[
        "bake",
        &sample("data/cmu_02_01_walk.bvh"),
        "-o",
        out.to_str().unwrap(),
        "--hits",
        &sample("hits.json"),
    ]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(stdout.contains("ball hit RightForeArm"), "{stdout}");
    assert!(stdout.contains("impulse hit Head"), "{stdout}");
    assert!(stdout.contains("figure bake_realtime_factor"), "{stdout}");
    let back = flinch::io::load_file(&out, &Default::default()).expect("re-import");
    assert_eq!(back.clip.frames.len(), 343);
    let names: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(names.len(), 1, "no temporary file is left behind");
}

#[test]
fn the_sample_hits_bake_on_every_humanoid_clip_of_the_corpus() {
    // `samples/hits.json` names `RightForeArm` and `Head`; clips that call them otherwise (Boxing's RightElbow,
    // MakeHuman's LoArm_R / lowerarm01.R, RobotExpressive's LowerArmR) resolve them through the bone map.
    let Some(data) = common::corpus_dir() else {
        return;
    };
    let dir = tmp("cli_bake_humanoids");
    let mut files: Vec<String> = common::corpus_files("bvh", "bvh")
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    files.push(
        data.join("gltf/RobotExpressive_threejs_reexport.glb")
            .display()
            .to_string(),
    );
    let mut args = vec!["bake"];
    args.extend(files.iter().map(String::as_str));
    args.extend(["-o", dir.to_str().unwrap(), "--jobs", "2"]);
    let hits = sample("hits.json");
    args.extend(["--hits", hits.as_str()]);
    let (code, stdout, stderr) = flinch(&args);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(
        stdout.contains(&format!("{n} of {n} clips baked", n = files.len())),
        "{stdout}"
    );
    assert!(files.len() >= 11, "{files:?}");
    // The CMU clips are hit on their own RightForeArm; the others through the role (their clips may end before
    // the hit times, the references are resolved anyway when the script is scheduled).
    assert!(stdout.contains("ball hit RightForeArm"), "{stdout}");
    // The Fox is refused with the roles it lacks.
    let fox = data.join("gltf/Fox.glb").display().to_string();
    let out = dir.join("fox.glb");
    let (code, _, stderr) = flinch(&["bake", &fox, "-o", out.to_str().unwrap(), "--hits", &hits]);
    assert_ne!(code, 0);
    assert!(
        stderr.contains("right_forearm") && stderr.contains("not a humanoid"),
        "{stderr}"
    );
}

#[test]
fn bakes_a_batch_into_a_folder() {
    let dir = tmp("cli_bake_batch");
    let files: Vec<String> = common::corpus_files("bvh", "bvh")
        .iter()
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy();
            n.starts_with("cmu_") || n.starts_with("sfu_")
        })
        .map(|p| p.display().to_string())
        .collect();
    if files.is_empty() {
        return;
    }
    let mut args = vec!["bake"];
    args.extend(files.iter().map(String::as_str));
    args.extend(["-o", dir.to_str().unwrap(), "--jobs", "2"]);
    let (code, stdout, stderr) = flinch(&args);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(
        stdout.contains(&format!("{n} of {n} clips baked", n = files.len())),
        "{stdout}"
    );
    for f in &files {
        let stem = std::path::Path::new(f)
            .file_stem()
            .unwrap()
            .to_string_lossy();
        assert!(dir.join(format!("{stem}_reacted.bvh")).is_file(), "{stem}");
    }
}

#[test]
fn bad_hits_files_and_unknown_bones_are_located_errors() {
    let dir = tmp("cli_bake_bad");
    let hits = dir.join("hits.json");
    std::fs::write(&hits, "{\"hits\": [\n  {\"type\": \"impulse\", \"time\": 1.0, \"bone\": \"Tail\", \"impulse\": [1, 0, 0]}\n]}").unwrap();
    let out = dir.join("x.bvh");
    let (code, _, stderr) = flinch(&[
        "bake",
        "-o",
        out.to_str().unwrap(),
        "--hits",
        hits.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("Tail"), "{stderr}");
    assert!(!out.exists());
    std::fs::write(
        &hits,
        "{\"hits\": [\n  {\"type\": \"impulse\", \"tme\": 1.0}\n]}",
    )
    .unwrap();
    let (code, _, stderr) = flinch(&[
        "bake",
        "-o",
        out.to_str().unwrap(),
        "--hits",
        hits.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("hits[0]: unknown field `tme`"), "{stderr}");
    let (code, _, stderr) = flinch(&["bake", "-o", dir.to_str().unwrap(), "--format", "fbx"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("fbx"), "{stderr}");
}

/// A glTF input baked with a hit keeps its meshes, skins and materials (the character is seen reacting), passes
/// the validator and reads back with its frame count.
#[test]
fn a_gltf_bake_keeps_the_source_meshes_and_validates() {
    let Some(corpus) = common::corpus_dir() else {
        return;
    };
    let input = corpus.join("gltf/RobotExpressive_threejs_reexport.glb");
    let dir = tmp("cli_bake_gltf");
    let hits = dir.join("hits.json");
    std::fs::write(
        &hits,
        r#"{"hits": [{"type": "impulse", "time": 1.0, "bone": "UpperArmR", "impulse": [3, 0, 0]}]}"#,
    )
    .unwrap();
    let out = dir.join("robot.glb");
    let (code, stdout, stderr) = flinch(&[
        "bake",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--hits",
        hits.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(stdout.contains("impulse hit"), "{stdout}");
    let count = |path: &std::path::Path, key: &str| {
        let doc = gltf::Gltf::open(path).expect("gltf");
        match key {
            "meshes" => doc.meshes().count(),
            "skins" => doc.skins().count(),
            "materials" => doc.materials().count(),
            _ => doc.animations().count(),
        }
    };
    for key in ["meshes", "skins", "materials"] {
        assert_eq!(count(&input, key), count(&out, key), "{key}");
    }
    // Every animation of the input is kept and the reacted one added, named after the clip baked (the first).
    assert_eq!(count(&out, "animations"), count(&input, "animations") + 1);
    let first = gltf::Gltf::open(&input)
        .unwrap()
        .animations()
        .next()
        .unwrap()
        .name()
        .unwrap()
        .to_string();
    let names: Vec<String> = gltf::Gltf::open(&out)
        .unwrap()
        .animations()
        .map(|a| a.name().unwrap_or_default().to_string())
        .collect();
    assert_eq!(names.last(), Some(&format!("{first}_reacted")), "{names:?}");
    assert!(
        stdout.contains(&format!("read back '{first}_reacted'")),
        "{stdout}"
    );
    if let Some(report) = common::gltf_validate(&out) {
        assert_eq!(report["numErrors"].as_u64(), Some(0), "{report}");
    }
    let before = flinch::io::load_file(&input, &Default::default()).unwrap();
    let reacted = flinch::io::ImportOptions {
        animation: Some(format!("{first}_reacted")),
        ..Default::default()
    };
    let after = flinch::io::load_file(&out, &reacted).unwrap();
    let (d0, d1) = (before.clip.duration(), after.clip.duration());
    assert!((d0 - d1).abs() < 1.0 / 60.0, "duration {d0} -> {d1}");
}
