//! The C and C++ samples, compiled with the system `cc`/`c++` against the built `libflinch.a` and `libflinch.so`
//! and run: the C sample's per-joint maximum deviations after the hit equal the same computation through
//! the Rust API to 1e-12°; the C++ sample's bake is byte-identical to `flinch::bake::bake_file`'s and prints its
//! peak to 1e-12°; the engine world samples (C and C++) walk on the sample level, take a bat and ray-cast
//! bullets, and print the same run.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

use common::{cxx_glue, include_dirs, lib_dir, repo, run, scratch, walk};
use flinch_core::bake::{BakeMode, BakeSummary, HitScript, bake_file};
use flinch_core::control::{Character, CharacterConfig};
use flinch_core::io::{ImportOptions, load_file};
use flinch_core::math::rotation_distance;
use nalgebra::Vector3;

const RATE_HZ: f64 = 120.0;
const STEPS: usize = 240;
const HIT_STEP: usize = 120;

/// Per joint: the largest deviation (degrees) over 2 s at 120 Hz with the hit at 1 s, through the Rust API.
fn rust_reference() -> Vec<(String, f64)> {
    let imported = load_file(&walk(), &ImportOptions::default()).expect("load the walk");
    let mut c =
        Character::from_imported(imported, &CharacterConfig::default()).expect("build the walk");
    let joints = c.skeleton().len();
    let mut max = vec![0.0f64; joints];
    for step in 0..STEPS {
        if step == HIT_STEP {
            let body = c.body_of_bone("RightForeArm").expect("RightForeArm");
            let com = c.world().body(body).position;
            c.apply_impulse("RightForeArm", com, Vector3::new(6.75, 0.0, 0.0))
                .expect("hit");
        }
        c.step(1.0 / RATE_HZ).expect("step");
        for (j, m) in max.iter_mut().enumerate() {
            let b = c.model().body_of_joint[j];
            if c.model().bodies[b].skeleton_joint == j {
                *m = m.max(rotation_distance(
                    &c.joint_rotation(b),
                    &c.reference_rotation(b),
                ));
            }
        }
    }
    c.skeleton()
        .joints
        .iter()
        .zip(max)
        .map(|(j, m)| (j.name.clone(), m.to_degrees()))
        .collect()
}

/// The `name value` lines and the summary fields of a sample's output.
fn parse(out: &str) -> (BTreeMap<String, f64>, BTreeMap<String, String>) {
    let mut joints = BTreeMap::new();
    let mut summary = BTreeMap::new();
    for line in out.lines().skip(1) {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["summary", rest @ ..] => {
                for kv in rest.chunks(2) {
                    if let [k, v] = kv {
                        summary.insert(k.to_string(), v.to_string());
                    }
                }
            }
            [name, value] => {
                let v: f64 = value
                    .parse()
                    .unwrap_or_else(|_| panic!("bad value in `{line}`"));
                joints.insert(name.to_string(), v);
            }
            _ => panic!("unexpected line `{line}` in:\n{out}"),
        }
    }
    (joints, summary)
}

/// Checks a sample's output against the Rust computation; returns the largest difference (degrees).
fn check(out: &str, reference: &[(String, f64)]) -> f64 {
    assert!(
        out.starts_with(&format!("flinch {} (header ", env!("CARGO_PKG_VERSION"))),
        "{out}"
    );
    let (joints, summary) = parse(out);
    assert_eq!(joints.len(), reference.len(), "one line per joint:\n{out}");
    let mut worst = 0.0f64;
    for (name, want) in reference {
        let got = joints
            .get(name)
            .unwrap_or_else(|| panic!("no line for joint {name}"));
        worst = worst.max((got - want).abs());
    }
    assert!(worst <= 1e-12, "sample vs Rust: {worst:e}° apart\n{out}");
    let peak = reference
        .iter()
        .fold(("", 0.0f64), |p, (n, v)| if *v > p.1 { (n, *v) } else { p });
    assert_eq!(
        summary.get("peak_joint").map(String::as_str),
        Some(peak.0),
        "{out}"
    );
    assert!(
        peak.1 > 15.0,
        "the hit must show: peak {}° at {}",
        peak.1,
        peak.0
    );
    assert_eq!(summary.get("steps").map(String::as_str), Some("240"));
    worst
}

/// Compiles `sources` with `compiler` into `exe`, statically or against the shared library, with the link lines
/// of docs/ffi.md.
fn build(compiler: &str, sources: &[PathBuf], exe: &Path, shared: bool, extra: &[&str]) {
    let lib = lib_dir();
    let mut cmd = Command::new(compiler);
    cmd.args(extra)
        .args(include_dirs().iter().map(|d| format!("-I{}", d.display())))
        .args(sources)
        .arg("-o")
        .arg(exe);
    if shared {
        cmd.arg(format!("-L{}", lib.display()))
            .arg("-lflinch")
            .arg(format!("-Wl,-rpath,{}", lib.display()))
            .arg("-lm");
    } else {
        // The archive carries cxx's C++ runtime (pulled in by the Rust side), hence -lstdc++ even for C.
        cmd.arg(lib.join("libflinch.a"))
            .args(["-lstdc++", "-lpthread", "-ldl", "-lm"]);
    }
    run(&mut cmd);
}

#[test]
fn c_sample_static_and_shared_match_the_rust_api() {
    let reference = rust_reference();
    let dir = scratch("c");
    for shared in [false, true] {
        let exe = dir.join(if shared {
            "hit_reaction_shared"
        } else {
            "hit_reaction_static"
        });
        let src = vec![repo().join("samples/c/hit_reaction.c")];
        build(
            "cc",
            &src,
            &exe,
            shared,
            &["-std=c11", "-Wall", "-Wextra", "-Werror", "-O2"],
        );
        let out = run(Command::new(&exe).arg(walk()).env_remove("LD_LIBRARY_PATH"));
        let worst = check(&out, &reference);
        println!(
            "figure c_{}_vs_rust_max_diff_deg {worst:e}",
            if shared { "shared" } else { "static" }
        );
    }
}

/// The `summary key value ...` fields of the C++ sample's output.
fn bake_summary(out: &str) -> BTreeMap<String, String> {
    assert!(
        out.starts_with(&format!(
            "flinch {} (header cxx)",
            env!("CARGO_PKG_VERSION")
        )),
        "{out}"
    );
    let line = out
        .lines()
        .find_map(|l| l.strip_prefix("summary "))
        .unwrap_or_else(|| panic!("no summary line in:\n{out}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    words
        .chunks(2)
        .filter_map(|kv| match kv {
            [k, v] => Some((k.to_string(), v.to_string())),
            _ => None,
        })
        .collect()
}

/// The Rust bake of the walk with samples/hits.json at 120 Hz into `output`: what `flinch_bake_file` and the C++
/// `flinch::bake_file` run.
fn rust_bake(output: &Path) -> BakeSummary {
    let text =
        std::fs::read_to_string(repo().join("samples/hits.json")).expect("samples/hits.json");
    let script = HitScript::from_json(&text).expect("the sample hits");
    let mut config = CharacterConfig::default();
    config.preprocess.rate_hz = RATE_HZ;
    let import = ImportOptions {
        sample_rate: Some(RATE_HZ),
        ..ImportOptions::default()
    };
    bake_file(
        Some(&walk()),
        output,
        &script,
        &config,
        &import,
        BakeMode::Layered,
        |_| {},
    )
    .expect("the Rust bake")
}

#[test]
fn cpp_sample_static_and_shared_bake_what_the_rust_api_bakes() {
    let dir = scratch("cpp");
    let rust_bvh = dir.join("bake_rust.bvh");
    let reference = rust_bake(&rust_bvh);
    let rust_bytes = std::fs::read(&rust_bvh).expect("the Rust bake's BVH");
    let hit = reference
        .baked
        .evaluation
        .hit
        .as_ref()
        .expect("the sample hits show");
    for shared in [false, true] {
        let kind = if shared { "shared" } else { "static" };
        let exe = dir.join(format!("bake_{kind}"));
        let mut src = vec![repo().join("samples/cpp/bake.cpp")];
        if shared {
            // The bridge glue and cxx's runtime are hidden inside libflinch.so: compile them in.
            src.extend(cxx_glue());
        }
        build(
            "c++",
            &src,
            &exe,
            shared,
            &["-std=c++17", "-Wall", "-Wextra", "-Werror", "-O1"],
        );
        let bvh = dir.join(format!("bake_{kind}.bvh"));
        let _ = std::fs::remove_file(&bvh);
        let out = run(Command::new(&exe)
            .arg(walk())
            .arg(repo().join("samples/hits.json"))
            .arg(&bvh)
            .env_remove("LD_LIBRARY_PATH"));
        let summary = bake_summary(&out);
        let field = |k: &str| -> f64 {
            summary
                .get(k)
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("no number `{k}` in:\n{out}"))
        };
        let peak_diff = (field("peak_deg") - hit.peak_deg).abs();
        assert!(
            peak_diff <= 1e-12,
            "C++ {kind} vs Rust peak: {peak_diff:e}°\n{out}"
        );
        assert_eq!(summary.get("peak_joint"), Some(&hit.peak_joint), "{out}");
        let want_return = hit.return_s.unwrap_or(-1.0);
        assert!((field("return_s") - want_return).abs() <= 1e-12, "{out}");
        assert_eq!(field("frames") as usize, 343, "{out}");
        assert_eq!(field("steps") as usize, reference.baked.steps, "{out}");
        assert_eq!(
            field("events") as usize,
            reference.baked.events.len(),
            "{out}"
        );
        println!("figure cpp_{kind}_bake_peak_vs_rust_diff_deg {peak_diff:e}");
        let bytes = std::fs::read(&bvh).expect("the sample's BVH");
        assert!(
            bytes == rust_bytes,
            "C++ {kind} BVH differs from the Rust bake's"
        );
        let reimported = load_file(&bvh, &ImportOptions::default()).expect("re-import the bake");
        assert_eq!(reimported.clip.frames.len(), 343);
        println!(
            "figure cpp_{kind}_bake_bvh_identical_to_rust {} bytes",
            bytes.len()
        );
        // A load error reaches C++ as a rust::Error exception carrying the message; nothing is written.
        let missing_out = dir.join(format!("missing_{kind}.bvh"));
        let bad = Command::new(&exe)
            .arg(dir.join("missing.bvh"))
            .arg(repo().join("samples/hits.json"))
            .arg(&missing_out)
            .output()
            .expect("run bake");
        let err = String::from_utf8_lossy(&bad.stderr);
        assert_eq!(bad.status.code(), Some(1), "{err}");
        assert!(
            err.contains("missing.bvh") && err.contains("cannot read"),
            "{err}"
        );
        assert!(
            !missing_out.exists(),
            "a failed bake wrote {}",
            missing_out.display()
        );
    }
    println!(
        "figure bake_peak_deg {} at {}, return_s {:?}",
        hit.peak_deg, hit.peak_joint, hit.return_s
    );
}

/// The C engine loop's summary fields.
fn engine_summary(out: &str) -> BTreeMap<String, f64> {
    let line = out
        .lines()
        .find(|l| l.starts_with("summary "))
        .unwrap_or_else(|| panic!("no summary line in:\n{out}"));
    let words: Vec<&str> = line.split_whitespace().skip(1).collect();
    words
        .chunks(2)
        .map(|kv| {
            let value = kv[1]
                .parse()
                .unwrap_or_else(|_| panic!("bad number in {line}"));
            (kv[0].to_string(), value)
        })
        .collect()
}

#[test]
fn c_and_cpp_engine_loops_stream_the_walk_and_react_like_the_rust_stream() {
    // The same run through the Rust API: the clip streamed tick by tick, the hit at 1 s.
    let imported = load_file(&walk(), &ImportOptions::default()).expect("walk");
    let mut imported = imported;
    imported.drop_leading_tpose();
    let clip = imported.clip.clone();
    let mut c = Character::streamed(
        imported.skeleton.clone(),
        &clip.frames[0],
        None,
        &CharacterConfig::default(),
    )
    .expect("streamed character");
    let options = flinch_core::control::EvalOptions {
        hits: vec![flinch_core::control::Hit {
            bone: "RightForeArm".into(),
            time: 1.0,
            impulse: Vector3::new(6.75, 0.0, 0.0),
            point: None,
        }],
        ..Default::default()
    };
    let rust = flinch_core::control::evaluate_streamed(&mut c, &clip, &options).expect("stream");
    let rust_hit = rust.hit.expect("hit figures");
    let dir = scratch("engine_loop");
    for (lang, shared) in [("c", false), ("c", true), ("cpp", false), ("cpp", true)] {
        let kind = if shared { "shared" } else { "static" };
        let exe = build_sample(&dir, "engine_loop", lang, shared);
        let out = run(Command::new(&exe).arg(walk()).env_remove("LD_LIBRARY_PATH"));
        let s = engine_summary(&out);
        println!(
            "engine_loop {kind}: {s:?}; Rust stream peak {} return {:?}",
            rust_hit.peak_deg, rust_hit.return_s
        );
        assert_eq!(s["ticks"] as usize, rust.steps, "{out}");
        assert!(s["before_hit_max_deg"] < 1e-6, "{out}");
        assert!(s["peak_deg"] >= 15.0, "{out}");
        assert!(s["return_s"] <= 0.7, "{out}");
        assert!((s["peak_deg"] - rust_hit.peak_deg).abs() < 0.01, "{out}");
        // The right hand swings and walks: it travels metres in under 3 s.
        assert!(s["hand_travel_m"] > 1.0, "{out}");
        println!(
            "figure {lang}_engine_loop_{kind}_peak_vs_rust_diff_deg {:e}",
            (s["peak_deg"] - rust_hit.peak_deg).abs()
        );
    }
}

/// Builds `samples/{c,cpp}/NAME.{c,cpp}` against the static or the shared library into `dir`, warnings as errors.
fn build_sample(dir: &Path, name: &str, lang: &str, shared: bool) -> PathBuf {
    let kind = if shared { "shared" } else { "static" };
    let exe = dir.join(format!("{name}_{lang}_{kind}"));
    if lang == "c" {
        let src = vec![repo().join(format!("samples/c/{name}.c"))];
        build(
            "cc",
            &src,
            &exe,
            shared,
            &["-std=c11", "-Wall", "-Wextra", "-Werror", "-O2"],
        );
    } else {
        let mut src = vec![repo().join(format!("samples/cpp/{name}.cpp"))];
        if shared {
            src.extend(cxx_glue());
        }
        build(
            "c++",
            &src,
            &exe,
            shared,
            &["-std=c++17", "-Wall", "-Wextra", "-Werror", "-O1"],
        );
    }
    exe
}

#[test]
fn c_and_cpp_engine_worlds_walk_up_and_down_the_stairs_take_a_bat_and_bullets() {
    let dir = scratch("engine_world");
    let level = repo().join("samples/level/training_ground.glb");
    let mut bodies = Vec::new();
    for (lang, shared) in [("c", false), ("c", true), ("cpp", false), ("cpp", true)] {
        let kind = if shared { "shared" } else { "static" };
        let exe = build_sample(&dir, "engine_world", lang, shared);
        let out = run(Command::new(&exe)
            .arg(walk())
            .arg(&level)
            .env_remove("LD_LIBRARY_PATH"));
        assert!(
            out.starts_with(&format!("flinch {} (header ", env!("CARGO_PKG_VERSION"))),
            "{out}"
        );
        let s = engine_summary(&out);
        println!("engine_world {lang} {kind}: {s:?}");
        assert_eq!(s["colliders"] as usize, 11, "{out}");
        assert_eq!(s["steps"] as usize, 1032, "{out}");
        // The walk prepared on the level climbs the four 15 cm steps (its root rises with them) and walks over the
        // landing and down the far side on its feet, before the bat.
        assert!(
            (0.5..0.75).contains(&s["max_root_rise_m"]),
            "root rise {} m over 0.6 m of stairs:\n{out}",
            s["max_root_rise_m"]
        );
        assert!(
            s["swing_root_rise_m"].abs() < 0.08,
            "not back down on the floor when the bat comes:\n{out}"
        );
        assert_eq!(s["fell_before_swing"], 0.0, "{out}");
        assert_eq!(s["bullets"] as usize, 20, "{out}");
        assert!(s["bone_hits"] >= 15.0, "{out}");
        assert!(s["bat_events"] >= 1.0, "{out}");
        // The walker stands on the level's floor mesh: its soles never sink into it.
        assert!(s["max_penetration_m"] < 0.02, "{out}");
        assert!(
            s["final_root_height_m"] > 0.0,
            "fell through the floor:\n{out}"
        );
        // The bat knocks the walker down: a protective fall, reach first, limp last.
        let falls: Vec<&str> = out.lines().filter(|l| l.starts_with("fall ")).collect();
        assert!(
            falls.first().is_some_and(|l| l.ends_with(" reach -")),
            "{out}"
        );
        assert!(
            falls.last().is_some_and(|l| l.ends_with(" limp -")),
            "{out}"
        );
        // The bat's pushes are hit events naming its collider (non-zero).
        let bat_lines: Vec<&str> = out
            .lines()
            .filter(|l| l.starts_with("event ") && l.contains(" collider 0x"))
            .collect();
        assert!(!bat_lines.is_empty(), "{out}");
        assert!(
            bat_lines.iter().all(|l| !l.contains(" collider 0x0 ")),
            "{out}"
        );
        println!(
            "figure {lang}_engine_world_{kind}_bone_hits {} of 20, bat events {}, stairs root rise {} m",
            s["bone_hits"], s["bat_events"], s["max_root_rise_m"]
        );
        bodies.push(out.lines().skip(1).collect::<Vec<_>>().join("\n"));
    }
    // The four builds run the same world: the same lines after the version line.
    for b in &bodies[1..] {
        assert_eq!(b, &bodies[0], "C, C++, static and shared runs differ");
    }
}
