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

/// The read-back figures measure the file: the embedded walk written as is reads 0 mm from its own floor and
/// its own limb directions; the same walk written 20 mm higher reads 20 mm, and with the right forearm turned
/// 30° its limbs read off the source; a bake's summary carries the figures of the file it wrote.
#[test]
fn read_back_figures_measure_the_written_file() {
    use flinch::bake::{OutputOptions, ReadbackLimits, ReadbackPlan, bake_file_with, read_back};
    let imported = load_embedded_walk(&ImportOptions::default()).unwrap();
    let (sk, clip) = (&imported.skeleton, &imported.clip);
    let plan = ReadbackPlan::new(sk, clip);
    assert_eq!(plan.feet.len(), 2);
    assert_eq!(plan.limbs.len(), 8);
    let stances: usize = plan
        .feet
        .iter()
        .map(|f| f.stance.windows(2).filter(|w| !w[0] && w[1]).count() + f.stance[0] as usize)
        .sum();
    assert!(
        (4..=8).contains(&stances),
        "{stances} stances on a 2.8 s walk"
    );
    let dir = out_dir("readback");
    let source = WriteSource {
        report: &imported.report,
        gltf: None,
    };
    let opts = ImportOptions {
        unit: Some(imported.report.unit),
        up_axis: Some(imported.report.up_axis),
        ..ImportOptions::default()
    };
    let measure = |clip: &Clip, name: &str| {
        let path = dir.join(name);
        write_baked(&path, sk, clip, source).unwrap();
        read_back(&path, None, &opts, sk, &plan).unwrap()
    };
    let same = measure(clip, "same.bvh");
    println!("figure readback_same {same:?}");
    assert_eq!(same.frames, clip.frames.len());
    assert!(same.limb_dir_deg < 1e-3, "{same:?}");
    // Raw mocap rolls heel to toe: its ankles move 4-7 cm in a stance, and its planted heights spread by 4 cm.
    assert!(
        same.skate_mm > 10.0 && same.foot_height_p95_mm > 10.0,
        "{same:?}"
    );
    let mut raised = clip.clone();
    for f in &mut raised.frames {
        f.translations[0].y += 0.02;
    }
    let up = measure(&raised, "raised.bvh");
    println!(
        "figure readback_raised_foot_height_mm {:.3} mm",
        up.foot_height_p95_mm
    );
    // The 95th percentile of |height| over the stances: the raise on top of the walk's own spread; the skate and
    // the limbs do not change.
    let raise = up.foot_height_median_mm - same.foot_height_median_mm;
    println!("figure readback_raise_mm {raise:.4} mm");
    assert!((raise - 20.0).abs() < 0.01, "{up:?} vs {same:?}");
    assert!(
        same.foot_height_median_mm.abs() < 1e-6,
        "the walk's own floor"
    );
    assert!((up.skate_mm - same.skate_mm).abs() < 1e-3 && up.limb_dir_deg < 1e-3);
    let over = up.failures(&ReadbackLimits::default());
    assert!((up.added_foot_height_p95_mm - 20.0).abs() < 0.01, "{up:?}");
    assert!(
        over.iter().any(|m| m.contains("off their height")),
        "{over:?}"
    );
    let mut turned = clip.clone();
    let forearm = sk.find("RightForeArm").unwrap();
    let turn = nalgebra::UnitQuaternion::from_axis_angle(&Vector3::z_axis(), 30f64.to_radians());
    for f in &mut turned.frames {
        f.rotations[forearm] *= turn;
    }
    let off = measure(&turned, "turned.bvh");
    // One limb of eight 30° off: 3.75° on average.
    println!(
        "figure readback_turned_limb_dir_deg {:.3} deg",
        off.limb_dir_deg
    );
    assert!((off.limb_dir_deg - 3.75).abs() < 0.5, "{off:?}");

    // A bake reports the figures of its file, and --keep-unreacted needs a format with room for two clips.
    let out = dir.join("baked.glb");
    let options = OutputOptions {
        name: Some("hit".into()),
        keep_unreacted: true,
    };
    let bake_to = |path: &std::path::Path| {
        bake_file_with(
            None,
            path,
            &HitScript::default(),
            &CharacterConfig::default(),
            &ImportOptions::default(),
            BakeMode::Layered,
            &options,
            |_| {},
        )
    };
    let s = bake_to(&out).unwrap();
    assert_eq!(s.animation, "hit");
    assert_eq!(s.readback.frames, s.baked.clip.frames.len());
    assert!(s.readback.limb_dir_deg < 0.01, "{:?}", s.readback);
    let names = flinch::io::gltf_import::animation_names(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(names, ["hit", "hit_unreacted"]);
    let bvh = dir.join("baked.bvh");
    let e = bake_to(&bvh).unwrap_err();
    assert!(e.to_string().contains("holds one clip"), "{e}");
    assert!(!bvh.exists());
}
