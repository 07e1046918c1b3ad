//! `flinch::bake`: unperturbed bakes reproduce their input, hits change only what follows them, written BVH
//! keeps the input's layout and re-imports through our parser and through bvh_anim.

mod common;

use flinch::bake::{BakeMode, HitScript, WriteSource, bake, write_baked};
use flinch::control::{Character, CharacterConfig, PreprocessConfig};
use flinch::io::bvh::parse_document;
use flinch::io::{ImportOptions, Imported, load_embedded_walk, load_file};
use flinch::math::rotation_distance;
use flinch::skeleton::Clip;
use nalgebra::Vector3;

fn out_dir(name: &str) -> std::path::PathBuf {
    let d = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Largest joint-rotation difference (rad) and root-translation difference (m) between two clips.
fn clip_distance(a: &Clip, b: &Clip) -> (f64, f64) {
    assert_eq!(a.frames.len(), b.frames.len());
    let mut rot = 0.0f64;
    let mut pos = 0.0f64;
    for (fa, fb) in a.frames.iter().zip(&b.frames) {
        for (qa, qb) in fa.rotations.iter().zip(&fb.rotations) {
            rot = rot.max(rotation_distance(qa, qb));
        }
        for (ta, tb) in fa.translations.iter().zip(&fb.translations) {
            pos = pos.max((ta - tb).norm());
        }
    }
    (rot, pos)
}

fn character_clip(imported: &Imported) -> Option<Character> {
    Character::from_imported(imported.clone(), &CharacterConfig::default()).ok()
}

/// The issue's figure: an unperturbed bake reproduces the input within 1e-4 rad per joint per frame, on every
/// corpus BVH that builds a character, and the written file re-imports to the same motion.
#[test]
fn unperturbed_bakes_reproduce_every_corpus_clip() {
    let files = common::corpus_files("bvh", "bvh");
    let dir = out_dir("bake_unperturbed");
    let mut baked_count = 0;
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let imported = load_file(&path, &ImportOptions::default()).expect("import");
        let Some(character) = character_clip(&imported) else {
            println!("{name}: no character (skipped)");
            continue;
        };
        let input = character.clip().clone();
        let skeleton = character.skeleton().clone();
        let baked =
            bake(character, &HitScript::default(), BakeMode::Layered, |_| {}).expect("bake");
        let (rot, pos) = clip_distance(&input, &baked.clip);
        let out = dir.join(&name);
        write_baked(
            &out,
            &skeleton,
            &baked.clip,
            WriteSource {
                report: &imported.report,
                gltf: None,
            },
        )
        .unwrap();
        let back = load_file(
            &out,
            &ImportOptions {
                unit: Some(imported.report.unit),
                up_axis: Some(imported.report.up_axis),
                ..Default::default()
            },
        )
        .expect("re-import");
        let (rot_back, pos_back) = clip_distance(&baked.clip, &back.clip);
        println!(
            "{name}: {} frames, bake vs input {rot:.2e} rad / {pos:.2e} m; file vs bake {rot_back:.2e} rad / \
             {pos_back:.2e} m",
            input.frames.len()
        );
        assert!(rot <= 1e-4 && pos <= 1e-9, "{name}: {rot} rad, {pos} m");
        assert!(
            rot_back <= 1e-6 && pos_back <= 1e-5,
            "{name}: re-import {rot_back} rad {pos_back} m"
        );
        // Same hierarchy, channels and rotation orders as the input file.
        let a = parse_document(&std::fs::read(&path).unwrap()).unwrap();
        let b = parse_document(&std::fs::read(&out).unwrap()).unwrap();
        assert_eq!(a.joints.len(), b.joints.len(), "{name}");
        for (ja, jb) in a.joints.iter().zip(&b.joints) {
            assert_eq!(ja.name, jb.name, "{name}");
            assert_eq!(ja.channels, jb.channels, "{name}: {}", ja.name);
            assert_eq!(ja.parent, jb.parent, "{name}: {}", ja.name);
        }
        // bvh_anim reads our file too (its known gaps: leaf joints without End Site lose their parent link).
        let bytes = std::fs::read(&out).unwrap();
        match bvh_anim::from_bytes(&bytes[..]) {
            Ok(theirs) => {
                let motion = b.motion.as_ref().map_or(0, |m| m.frames);
                println!(
                    "{name}: bvh_anim reads {} joints, {} frames (ours {}, {motion})",
                    theirs.joints().count(),
                    theirs.frames().len(),
                    b.joints.len()
                );
                assert_eq!(theirs.frames().len(), motion, "{name}");
                // A leaf JOINT without End Site (SFU's) is where bvh_anim loses a joint; elsewhere it must agree.
                let bare_leaf = (0..b.joints.len()).any(|i| {
                    b.joints[i].end_sites.is_empty()
                        && !b.joints.iter().any(|j| j.parent == Some(i))
                });
                if !bare_leaf {
                    assert_eq!(theirs.joints().count(), b.joints.len(), "{name}");
                }
            }
            Err(e) => panic!("{name}: bvh_anim cannot read the baked file: {e}"),
        }
        baked_count += 1;
    }
    if common::corpus_dir().is_some() {
        assert!(baked_count >= 4, "only {baked_count} clips baked");
    }
}

/// The simulated mode, preprocessed without filter at the clip's own rate, also reproduces the clip.
#[test]
fn simulated_mode_without_filter_reproduces_the_walk() {
    let imported = load_embedded_walk(&ImportOptions::default()).unwrap();
    let rate = 1.0 / imported.clip.frame_time;
    let config = CharacterConfig {
        preprocess: PreprocessConfig {
            rate_hz: rate,
            cutoff_hz: None,
            threads: None,
        },
        ..Default::default()
    };
    let character = Character::from_imported(imported, &config).unwrap();
    let input = character.clip().clone();
    let baked = bake(
        character,
        &HitScript::default(),
        BakeMode::Simulated,
        |_| {},
    )
    .unwrap();
    let (rot, _) = clip_distance(&input, &baked.clip);
    println!("simulated, unfiltered at {rate} Hz: {rot:.2e} rad");
    assert!(rot <= 1e-4, "{rot}");
}

/// A hit leaves every frame before it untouched, moves the arm after it, and the written BVH reads back
/// through bvh_anim with the same values.
#[test]
fn a_hit_changes_what_follows_it_and_the_file_reads_in_bvh_anim() {
    let imported = load_embedded_walk(&ImportOptions::default()).unwrap();
    let character = character_clip(&imported).unwrap();
    let input = character.clip().clone();
    let skeleton = character.skeleton().clone();
    let script = HitScript::impulse("RightForeArm", 1.0, Vector3::new(6.75, 0.0, 0.0));
    let mut last = 0.0;
    let baked = bake(character, &script, BakeMode::Layered, |f| last = f).unwrap();
    assert!((last - 1.0).abs() < 1e-12);
    assert_eq!(baked.events.len(), 1);
    let hit = baked.evaluation.hit.as_ref().expect("hit figures");
    println!(
        "peak {:.2} deg at {}, return {:?} s",
        hit.peak_deg, hit.peak_joint, hit.return_s
    );
    let arm = skeleton.find("RightForeArm").unwrap();
    let frame_of = |t: f64| (t / input.frame_time).round() as usize;
    for f in 0..frame_of(1.0) {
        for (qa, qb) in input.frames[f]
            .rotations
            .iter()
            .zip(&baked.clip.frames[f].rotations)
        {
            assert!(
                rotation_distance(qa, qb) < 1e-9,
                "frame {f} changed before the hit"
            );
        }
    }
    let moved = (frame_of(1.0)..frame_of(1.3))
        .map(|f| {
            rotation_distance(
                &input.frames[f].rotations[arm],
                &baked.clip.frames[f].rotations[arm],
            )
        })
        .fold(0.0, f64::max);
    assert!(
        moved.to_degrees() > 5.0,
        "forearm moved {:.2} deg",
        moved.to_degrees()
    );
    let out = out_dir("bake_hit").join("walk_hit.bvh");
    write_baked(
        &out,
        &skeleton,
        &baked.clip,
        WriteSource {
            report: &imported.report,
            gltf: None,
        },
    )
    .unwrap();
    let bytes = std::fs::read(&out).unwrap();
    let theirs = bvh_anim::from_bytes(&bytes[..]).expect("bvh_anim reads our file");
    let ours = parse_document(&bytes).unwrap();
    assert_eq!(theirs.joints().count(), ours.joints.len());
    let motion = ours.motion.as_ref().unwrap();
    assert_eq!(theirs.frames().len(), motion.frames);
    let n = ours.channel_count();
    for (f, frame) in theirs.frames().enumerate().step_by(37) {
        for c in 0..n {
            let a = frame.as_slice()[c] as f64;
            let b = motion.values[f * n + c];
            assert!(
                (a - b).abs() <= 1e-4 * (1.0 + b.abs()),
                "frame {f} channel {c}: {a} vs {b}"
            );
        }
    }
}

/// Bad scripts are located errors, never panics.
#[test]
fn bad_scripts_are_errors() {
    assert!(HitScript::from_json(r#"{"hits": [{"type": "kick"}]}"#).is_err());
    let e =
        HitScript::from_json("{\"hits\": [\n {\"type\": \"impulse\", \"time\": 1}]}").unwrap_err();
    assert!(e.to_string().contains("hits[0]: missing field"), "{e}");
    let e = HitScript::from_json("{\"hits\": [\n {\"type\": \"impulse\",, }]}").unwrap_err();
    assert!(e.to_string().contains("line 2"), "{e}");
    assert!(HitScript::from_json(r#"{"hits": [], "extra": 1}"#).is_err());
    let imported = load_embedded_walk(&ImportOptions::default()).unwrap();
    let unknown = HitScript::impulse("Tail", 1.0, Vector3::x());
    let c = character_clip(&imported).unwrap();
    let e = bake(c, &unknown, BakeMode::Layered, |_| {}).unwrap_err();
    assert!(e.to_string().contains("Tail"), "{e}");
    let nan = HitScript::impulse("Head", f64::NAN, Vector3::x());
    let c = character_clip(&imported).unwrap();
    assert!(bake(c, &nan, BakeMode::Layered, |_| {}).is_err());
}
