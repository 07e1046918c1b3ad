//! The BVH parser and writer on every real corpus file: counts, units, up axes, T-pose detection, semantics of
//! position channels, and parse → write → parse round trips (metres Y-up and source unit/axis).

mod common;

use std::path::Path;

use flinch::io::bvh::{self, WriteOptions};
use flinch::io::{ImportOptions, Imported, LengthUnit, UpAxis};
use flinch::math::rotation_distance;

/// What the corpus README (and check_bvh.py) says about each file, plus the unit/up-axis the rule must infer.
struct Expected {
    file: &'static str,
    joints: usize,
    end_sites: usize,
    frames: usize,
    frame_time: f64,
    unit: LengthUnit,
    up: UpAxis,
    leading_tpose: bool,
}

const fn e(
    file: &'static str,
    joints: usize,
    end_sites: usize,
    frames: usize,
    frame_time: f64,
    unit: LengthUnit,
    up: UpAxis,
    leading_tpose: bool,
) -> Expected {
    Expected {
        file,
        joints,
        end_sites,
        frames,
        frame_time,
        unit,
        up,
        leading_tpose,
    }
}

const EXPECTED: [Expected; 10] = [
    e(
        "assimp_Boxing_Toes.bvh",
        21,
        5,
        3070,
        0.01,
        LengthUnit::Centimetre,
        UpAxis::Y,
        false,
    ),
    e(
        "cmu_01_01_jump.bvh",
        31,
        7,
        2752,
        0.0083333,
        LengthUnit::CmuAsf,
        UpAxis::Y,
        true,
    ),
    e(
        "cmu_02_01_walk.bvh",
        31,
        7,
        344,
        0.0083333,
        LengthUnit::CmuAsf,
        UpAxis::Y,
        true,
    ),
    e(
        "cmu_12_01_walk_mixed_eol.bvh",
        31,
        7,
        524,
        0.0083333,
        LengthUnit::CmuAsf,
        UpAxis::Y,
        true,
    ),
    e(
        "fairmotion_pfnn_hierarchy.bvh",
        31,
        7,
        60,
        0.0333333,
        LengthUnit::Metre,
        UpAxis::Y,
        false,
    ),
    e(
        "makehuman_tpose.bvh",
        173,
        49,
        1,
        0.041667,
        LengthUnit::Decimetre,
        UpAxis::Z,
        false,
    ),
    e(
        "makehuman_walk1.bvh",
        75,
        16,
        14,
        0.041667,
        LengthUnit::Decimetre,
        UpAxis::Z,
        false,
    ),
    e(
        "pybvh_bvh_test1.bvh",
        24,
        5,
        75,
        0.033333,
        LengthUnit::Inch,
        UpAxis::Z,
        false,
    ),
    e(
        "pybvh_bvh_test2.bvh",
        23,
        5,
        61,
        0.008333,
        LengthUnit::Centimetre,
        UpAxis::Y,
        false,
    ),
    e(
        "sfu_0005_Walking001.bvh",
        25,
        5,
        270,
        0.008333,
        LengthUnit::Inch,
        UpAxis::Y,
        false,
    ),
];

fn load(path: &Path, opts: &ImportOptions) -> Imported {
    let bytes = std::fs::read(path).expect("read corpus file");
    bvh::parse(&bytes, opts).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn expected_for(path: &Path) -> &'static Expected {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    EXPECTED
        .iter()
        .find(|x| x.file == name)
        .unwrap_or_else(|| panic!("no expectations recorded for corpus file {name}"))
}

#[test]
fn counts_units_up_axes_and_tpose_match_the_corpus_readme() {
    let files = common::corpus_files("bvh", "bvh");
    if files.is_empty() {
        return;
    }
    assert_eq!(
        files.len(),
        EXPECTED.len(),
        "corpus has a BVH file without expectations"
    );
    println!(
        "{:<32} {:>6} {:>6} {:>8} {:>7} {:>3} {:>8} {:>6}",
        "file", "joints", "frames", "fps", "unit", "up", "height_m", "tpose"
    );
    for path in &files {
        let x = expected_for(path);
        let imp = load(path, &ImportOptions::default());
        let r = &imp.report;
        let height = bvh::rest_height(&imp.skeleton);
        println!(
            "{:<32} {:>6} {:>6} {:>8.3} {:>7} {:>3} {:>8.3} {:>6}",
            x.file,
            imp.skeleton.len(),
            imp.clip.frame_count(),
            imp.clip.frame_rate(),
            r.unit.name(),
            r.up_axis.to_string(),
            height,
            r.leading_tpose
        );
        assert_eq!(imp.skeleton.len(), x.joints, "{}: ROOT+JOINT count", x.file);
        let sites: usize = imp.skeleton.joints.iter().map(|j| j.end_sites.len()).sum();
        assert_eq!(sites, x.end_sites, "{}: End Sites", x.file);
        assert_eq!(imp.clip.frame_count(), x.frames, "{}: frames", x.file);
        assert_eq!(imp.clip.frame_time, x.frame_time, "{}: frame time", x.file);
        assert_eq!(r.unit, x.unit, "{}: inferred unit", x.file);
        assert_eq!(r.up_axis, x.up, "{}: inferred up axis", x.file);
        assert!(r.unit_inferred && r.up_inferred, "{}", x.file);
        assert_eq!(
            r.leading_tpose, x.leading_tpose,
            "{}: leading T-pose",
            x.file
        );
        assert!(!r.leading_tpose_dropped);
        // Every file is a human: 1.3 m to 1.9 m once the unit is right.
        assert!(
            (1.3..1.9).contains(&height),
            "{}: rest height {height} m",
            x.file
        );
        if x.file.starts_with("cmu_") {
            assert!(
                (1.3..1.8).contains(&height),
                "{}: CMU height {height}",
                x.file
            );
        }
        let channels = imp.skeleton.channel_count();
        assert_eq!(imp.clip.frames[0].translations.len(), imp.skeleton.len());
        assert!(channels > 0);
        if x.file == "assimp_Boxing_Toes.bvh" {
            assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
            assert!(
                r.warnings[0].contains("3069") && r.warnings[0].contains("using 3070"),
                "{:?}",
                r.warnings
            );
        } else {
            assert!(r.warnings.is_empty(), "{}: {:?}", x.file, r.warnings);
        }
    }
}

#[test]
fn dropping_the_cgspeed_tpose_removes_exactly_frame_zero() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let path = dir.join("bvh/cmu_02_01_walk.bvh");
    let kept = load(&path, &ImportOptions::default());
    let opts = ImportOptions {
        drop_leading_tpose: true,
        ..ImportOptions::default()
    };
    let dropped = load(&path, &opts);
    assert!(dropped.report.leading_tpose && dropped.report.leading_tpose_dropped);
    assert_eq!(dropped.clip.frame_count(), kept.clip.frame_count() - 1);
    assert_eq!(dropped.clip.frames[0], kept.clip.frames[1]);
    let (jump, later) = bvh::jump_statistics(&kept.clip).expect("long clip");
    println!(
        "figure cmu_02_01_tpose_jump_deg {:.1} deg",
        jump.to_degrees()
    );
    println!(
        "figure cmu_02_01_max_later_step_deg {:.1} deg",
        later.to_degrees()
    );
    // Files without the T-pose are untouched by the option.
    let pfnn = load(&dir.join("bvh/fairmotion_pfnn_hierarchy.bvh"), &opts);
    assert_eq!(pfnn.clip.frame_count(), 60);
    assert!(!pfnn.report.leading_tpose_dropped);
}

#[test]
fn position_channels_add_to_the_offset() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    // makehuman_walk1: root offset (0, 1.23529, 9.55688) dm in a Z-up file, root position channels ≈ 0, so the
    // pelvis stands 0.955688 m high once converted to metres, Y up.
    let walk = load(
        &dir.join("bvh/makehuman_walk1.bvh"),
        &ImportOptions::default(),
    );
    let root = walk.clip.frames[0].translations[0];
    assert!((root.y - 0.955688).abs() < 1e-5, "root height {}", root.y);
    assert!((root.z - (-0.123529)).abs() < 1e-5, "root z {}", root.z);
    // makehuman_tpose: 143 non-root joints have 6 channels whose positions are zero up to the exporter's
    // rounding (largest: 1.24e-4 dm on the upper arms), so translation = offset within 20 µm.
    let tpose = load(
        &dir.join("bvh/makehuman_tpose.bvh"),
        &ImportOptions::default(),
    );
    let six: Vec<usize> = (1..tpose.skeleton.len())
        .filter(|&i| tpose.skeleton.joints[i].channels.len() == 6)
        .collect();
    assert_eq!(six.len(), 143);
    for &i in &six {
        let d = tpose.clip.frames[0].translations[i] - tpose.skeleton.joints[i].offset;
        assert!(d.norm() < 2e-5, "joint {i}: {d}");
    }
}

#[test]
fn options_override_unit_and_up_axis() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let path = dir.join("bvh/pybvh_bvh_test2.bvh");
    let opts = ImportOptions {
        unit: Some(LengthUnit::Metre),
        up_axis: Some(UpAxis::Y),
        ..ImportOptions::default()
    };
    let raw = load(&path, &opts);
    let cm = load(&path, &ImportOptions::default());
    assert!(!raw.report.unit_inferred && !raw.report.up_inferred);
    let ratio = bvh::rest_height(&raw.skeleton) / bvh::rest_height(&cm.skeleton);
    assert!((ratio - 100.0).abs() < 1e-9, "{ratio}");
}

/// World positions and rotations of every joint, every frame, within the given tolerances.
fn assert_same_motion(a: &Imported, b: &Imported, what: &str) -> (f64, f64) {
    assert_eq!(a.skeleton.len(), b.skeleton.len(), "{what}: joints");
    for (ja, jb) in a.skeleton.joints.iter().zip(&b.skeleton.joints) {
        assert_eq!(ja.name, jb.name, "{what}");
        assert_eq!(ja.parent, jb.parent, "{what}: parent of {}", ja.name);
        assert_eq!(ja.channels, jb.channels, "{what}: channels of {}", ja.name);
        assert_eq!(
            ja.end_sites.len(),
            jb.end_sites.len(),
            "{what}: end sites of {}",
            ja.name
        );
    }
    assert_eq!(a.clip.frame_count(), b.clip.frame_count(), "{what}: frames");
    assert!(
        (a.clip.frame_time - b.clip.frame_time).abs() < 1e-15,
        "{what}: frame time"
    );
    let (mut max_pos, mut max_rot) = (0.0f64, 0.0f64);
    let (mut wa, mut wb) = (Vec::new(), Vec::new());
    for (pa, pb) in a.clip.frames.iter().zip(&b.clip.frames) {
        pa.world_transforms_into(&a.skeleton, &mut wa);
        pb.world_transforms_into(&b.skeleton, &mut wb);
        for (x, y) in wa.iter().zip(&wb) {
            max_pos = max_pos.max((x.translation.vector - y.translation.vector).norm());
            max_rot = max_rot.max(rotation_distance(&x.rotation, &y.rotation));
        }
    }
    assert!(max_pos < 1e-6, "{what}: world position error {max_pos} m");
    assert!(max_rot < 1e-6, "{what}: world rotation error {max_rot} rad");
    (max_pos, max_rot)
}

#[test]
fn round_trip_every_file_metres_y_up_and_source_units() {
    let files = common::corpus_files("bvh", "bvh");
    let (mut worst_pos, mut worst_rot) = (0.0f64, 0.0f64);
    for path in &files {
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let first = load(path, &ImportOptions::default());

        // Metres, Y up (the default writer options); read back with the unit and axis stated.
        let text = bvh::write(&first.skeleton, &first.clip, &WriteOptions::default());
        let fixed = ImportOptions {
            unit: Some(LengthUnit::Metre),
            up_axis: Some(UpAxis::Y),
            ..ImportOptions::default()
        };
        let second = bvh::parse(text.as_bytes(), &fixed).unwrap_or_else(|e| panic!("{name}: {e}"));
        let (p, r) = assert_same_motion(&first, &second, &format!("{name} (metres)"));
        worst_pos = worst_pos.max(p);
        worst_rot = worst_rot.max(r);
        // The written file is self-describing: inference on it finds metres and Y up.
        let inferred = bvh::parse(text.as_bytes(), &ImportOptions::default()).expect("reparse");
        assert_eq!(inferred.report.unit, LengthUnit::Metre, "{name}");
        assert_eq!(inferred.report.up_axis, UpAxis::Y, "{name}");

        // Back in the source unit and up axis: the file's own numbers come back.
        let source = WriteOptions::source(&first.report);
        let text = bvh::write(&first.skeleton, &first.clip, &source);
        let back = ImportOptions {
            unit: Some(first.report.unit),
            up_axis: Some(first.report.up_axis),
            ..ImportOptions::default()
        };
        let third = bvh::parse(text.as_bytes(), &back).unwrap_or_else(|e| panic!("{name}: {e}"));
        let (p, r) = assert_same_motion(&first, &third, &format!("{name} (source units)"));
        worst_pos = worst_pos.max(p);
        worst_rot = worst_rot.max(r);
        let original = bvh::parse_document(&std::fs::read(path).expect("read")).expect("parse");
        let rewritten = bvh::parse_document(text.as_bytes()).expect("parse");
        for (a, b) in original.joints.iter().zip(&rewritten.joints) {
            assert!(
                (a.offset - b.offset).norm() < 1e-6,
                "{name}: offset of {}",
                a.name
            );
        }
    }
    println!("figure bvh_round_trip_max_position_error_m {worst_pos:.3e} m");
    println!("figure bvh_round_trip_max_rotation_error_rad {worst_rot:.3e} rad");
}

#[test]
fn write_file_is_atomic_and_refuses_non_finite_clips() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let imp = load(
        &dir.join("bvh/pybvh_bvh_test2.bvh"),
        &ImportOptions::default(),
    );
    let out_dir = std::env::temp_dir().join(format!("flinch_bvh_write_{}", std::process::id()));
    std::fs::create_dir_all(&out_dir).expect("temp dir");
    let out = out_dir.join("clip.bvh");
    bvh::write_file(&out, &imp.skeleton, &imp.clip, &WriteOptions::default()).expect("write");
    let written = std::fs::read(&out).expect("read back");
    let mut bad = imp.clip.clone();
    bad.frames[3].translations[0].x = f64::NAN;
    let err = bvh::write_file(&out, &imp.skeleton, &bad, &WriteOptions::default());
    assert!(err.is_err());
    // The earlier file is intact and no temporary file is left behind.
    assert_eq!(std::fs::read(&out).expect("read"), written);
    let leftovers = std::fs::read_dir(&out_dir).expect("list").count();
    assert_eq!(leftovers, 1);
    let _ = std::fs::remove_dir_all(&out_dir);
}
