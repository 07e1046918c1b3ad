//! The glTF writer on the real corpus: round trips (write → our importer → same joint rotations and world
//! positions), kept source content (mesh, skin, material counts and mesh bytes), and the Khronos
//! glTF-Validator on every written file (`tools/gltf-validator`, see `docs/gltf.md`).

mod common;

use std::path::{Path, PathBuf};

use flinch::io::gltf_export::{
    GltfExportError, GltfSource, GltfWriteOptions, load_source_file, write, write_file,
};
use flinch::io::gltf_import::import_mapped;
use flinch::io::{ImportOptions, Imported, load_file};
use flinch::math::rotation_distance;
use serde_json::Value;

const TOL_RAD: f64 = 1e-6;

/// Position tolerance: 1 µm, or 1e-7 of the rest-pose extent for huge characters (glTF stores f32: the Fox
/// read as metres is 103 m long, where one f32 step is 7.6 µm).
fn tol_m(imported: &Imported) -> f64 {
    let world =
        flinch::skeleton::Pose::rest(&imported.skeleton).world_transforms(&imported.skeleton);
    let extent = world
        .iter()
        .flat_map(|a| {
            world
                .iter()
                .map(move |b| (a.translation.vector - b.translation.vector).amax())
        })
        .fold(0.0, f64::max);
    (1e-7 * extent).max(1e-6)
}

fn out_dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("flinch-gltf-export-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Largest rotation (rad) and world-position (m) differences between two imports, joints matched by name.
fn max_errors(a: &Imported, b: &Imported) -> (f64, f64) {
    let (sa, sb) = (&a.skeleton, &b.skeleton);
    assert_eq!(sa.len(), sb.len(), "joint counts");
    let map: Vec<usize> = sa
        .joints
        .iter()
        .map(|j| {
            sb.joints
                .iter()
                .position(|k| k.name == j.name)
                .unwrap_or_else(|| panic!("joint '{}' lost", j.name))
        })
        .collect();
    assert_eq!(a.clip.frame_count(), b.clip.frame_count(), "frame counts");
    // A one-frame clip has no key interval: the re-import uses its default rate.
    assert!(
        a.clip.frame_count() == 1
            || (a.clip.frame_time - b.clip.frame_time).abs() < 1e-6 * a.clip.frame_time,
        "frame time {} vs {}",
        a.clip.frame_time,
        b.clip.frame_time
    );
    let (mut rot, mut pos) = (0.0f64, 0.0f64);
    for (fa, fb) in a.clip.frames.iter().zip(&b.clip.frames) {
        let (wa, wb) = (fa.world_transforms(sa), fb.world_transforms(sb));
        for (j, &k) in map.iter().enumerate() {
            // Joint rotations relative to the rest pose, and the rest rotations themselves.
            rot = rot.max(rotation_distance(&fa.rotations[j], &fb.rotations[k]));
            rot = rot.max(rotation_distance(
                &sa.joints[j].rest_rotation,
                &sb.joints[k].rest_rotation,
            ));
            pos = pos.max((wa[j].translation.vector - wb[k].translation.vector).norm());
        }
    }
    (rot, pos)
}

fn count(v: &Value, key: &str) -> u64 {
    v[key].as_u64().unwrap_or_else(|| panic!("no {key} in {v}"))
}

fn decode_base64(text: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0u32);
    for c in text.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => continue,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    out
}

/// JSON and buffers of a GLB or of a `.gltf` with data-URI buffers.
fn parts(bytes: &[u8]) -> (Value, Vec<Vec<u8>>) {
    if !bytes.starts_with(b"glTF") {
        let json: Value = serde_json::from_slice(bytes).unwrap();
        let buffers = json["buffers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| {
                let uri = b["uri"].as_str().expect("data URI buffer");
                decode_base64(uri.split_once(',').unwrap().1)
            })
            .collect();
        return (json, buffers);
    }
    let u = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
    let json_len = u(12);
    let json: Value = serde_json::from_slice(&bytes[20..20 + json_len]).unwrap();
    let bin_at = 20 + json_len;
    let bin = if bin_at + 8 <= bytes.len() {
        bytes[bin_at + 8..bin_at + 8 + u(bin_at)].to_vec()
    } else {
        Vec::new()
    };
    (json, vec![bin])
}

/// The bytes of bufferView `v`.
fn view_bytes<'a>(json: &Value, buffers: &'a [Vec<u8>], v: u64) -> &'a [u8] {
    let view = &json["bufferViews"][v as usize];
    let buffer = view["buffer"].as_u64().unwrap() as usize;
    let at = view["byteOffset"].as_u64().unwrap_or(0) as usize;
    let len = view["byteLength"].as_u64().unwrap() as usize;
    &buffers[buffer][at..at + len]
}

/// Accessors of mesh data (attributes, indices, morph targets) and inverse bind matrices.
fn kept_accessors(json: &Value) -> Vec<u64> {
    let mut out = Vec::new();
    for mesh in json["meshes"].as_array().into_iter().flatten() {
        for prim in mesh["primitives"].as_array().unwrap() {
            out.extend(
                prim["attributes"]
                    .as_object()
                    .unwrap()
                    .values()
                    .filter_map(Value::as_u64),
            );
            out.extend(prim["indices"].as_u64());
            for t in prim["targets"].as_array().into_iter().flatten() {
                out.extend(t.as_object().unwrap().values().filter_map(Value::as_u64));
            }
        }
    }
    for skin in json["skins"].as_array().into_iter().flatten() {
        out.extend(skin["inverseBindMatrices"].as_u64());
    }
    out
}

/// Asserts that `written` keeps the source's meshes, skins, materials, textures, images and node names, and
/// that every mesh / skin / image byte is unchanged. Returns the number of bytes compared.
fn assert_kept(source_bytes: &[u8], written: &[u8], label: &str) -> usize {
    let (sj, sb) = parts(source_bytes);
    let (wj, wb) = parts(written);
    let len = |j: &Value, key: &str| j[key].as_array().map_or(0, Vec::len);
    for key in [
        "meshes",
        "skins",
        "materials",
        "textures",
        "images",
        "samplers",
        "nodes",
        "scenes",
    ] {
        assert_eq!(len(&sj, key), len(&wj, key), "{label}: {key} count");
    }
    for key in ["meshes", "skins", "materials", "textures", "samplers"] {
        assert_eq!(sj[key], wj[key], "{label}: {key} changed");
    }
    let names = |j: &Value| -> Vec<Value> {
        j["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n["name"].clone())
            .collect()
    };
    assert_eq!(names(&sj), names(&wj), "{label}: node names");
    // The source's animations are kept as they were (no orphaned accessors), the written one added after them.
    let source_animations = sj["animations"].as_array().map_or(&[][..], Vec::as_slice);
    let written_animations = wj["animations"].as_array().unwrap();
    assert_eq!(
        written_animations.len(),
        source_animations.len() + 1,
        "{label}"
    );
    assert_eq!(
        &written_animations[..source_animations.len()],
        source_animations,
        "{label}"
    );
    let mut compared = 0;
    for a in kept_accessors(&sj) {
        let (sa, wa) = (&sj["accessors"][a as usize], &wj["accessors"][a as usize]);
        for key in [
            "count",
            "type",
            "componentType",
            "byteOffset",
            "normalized",
            "min",
            "max",
            "sparse",
        ] {
            assert_eq!(sa[key], wa[key], "{label}: accessor {a} {key}");
        }
        if let Some(v) = sa["bufferView"].as_u64() {
            let (x, y) = (view_bytes(&sj, &sb, v), view_bytes(&wj, &wb, v));
            assert!(x == y, "{label}: accessor {a} bufferView {v} bytes differ");
            compared += x.len();
        }
    }
    for (i, img) in sj["images"].as_array().into_iter().flatten().enumerate() {
        if let Some(v) = img["bufferView"].as_u64() {
            let w = wj["images"][i]["bufferView"].as_u64().unwrap();
            assert!(
                view_bytes(&sj, &sb, v) == view_bytes(&wj, &wb, w),
                "{label}: image {i}"
            );
            compared += view_bytes(&sj, &sb, v).len();
        }
    }
    compared
}

/// Adds a frame-dependent root displacement (up to 0.2 m) and joint rotations (up to 0.3 rad) to the clip, as a
/// simulated reaction would.
fn perturb(imported: &mut Imported) {
    let root = imported
        .skeleton
        .joints
        .iter()
        .position(|j| j.parent.is_none())
        .unwrap();
    for (f, pose) in imported.clip.frames.iter_mut().enumerate() {
        let s = (f as f64 * 0.37).sin();
        pose.translations[root] += nalgebra::Vector3::new(0.2 * s, 0.1 * s.abs(), -0.15 * s);
        for (j, q) in pose.rotations.iter_mut().enumerate() {
            let axis = nalgebra::Vector3::new(1.0, j as f64 * 0.3, -0.5);
            *q *= nalgebra::UnitQuaternion::from_scaled_axis(axis.normalize() * 0.3 * s);
        }
    }
    imported.clip.make_hemisphere_continuous();
}

/// Round trip, kept content and validation for one source file written as `.glb` and as `.gltf`.
fn check_source_file(path: &Path, opts: &ImportOptions, tag: &str) -> Vec<String> {
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let (imported, source): (Imported, GltfSource) = match load_source_file(path, opts) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("{name}: does not import ({e}); skipped");
            return Vec::new();
        }
    };
    // The reacted motion differs from the source's: move the root and turn every joint a little, per frame.
    let mut imported = imported;
    perturb(&mut imported);
    let source_bytes = std::fs::read(path).unwrap();
    let source_report = common::gltf_validate(path);
    let mut figures = Vec::new();
    for ext in ["glb", "gltf"] {
        let out = out_dir().join(format!("{name}.{tag}.{ext}"));
        let wopts = GltfWriteOptions {
            animation_name: "baked".into(),
            ..Default::default()
        };
        write_file(
            &out,
            &imported.skeleton,
            &imported.clip,
            Some(&source),
            &wopts,
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        let written = std::fs::read(&out).unwrap();
        assert_eq!(
            written.starts_with(b"glTF"),
            ext == "glb",
            "{name}: container"
        );
        // The written animation, after the source's own (kept).
        let reopts = ImportOptions {
            animation: Some("baked".into()),
            ..opts.clone()
        };
        let (re, map) =
            import_mapped(&written, None, &reopts).unwrap_or_else(|e| panic!("{name}.{ext}: {e}"));
        assert_eq!(
            map.joint_nodes, source.mapping.joint_nodes,
            "{name}: same joint nodes"
        );
        assert_eq!(re.report.unit, imported.report.unit, "{name}: unit");
        let (rot, pos) = max_errors(&imported, &re);
        assert!(
            rot <= TOL_RAD && pos <= tol_m(&imported),
            "{name}.{ext}: rotation {rot:.3e} rad, position {pos:.3e} m"
        );
        let kept = assert_kept(&source_bytes, &written, &format!("{name}.{ext}"));
        let mut line = format!(
            "figure gltf_roundtrip {name} [{tag}] .{ext}: {} frames × {} joints, max rotation {rot:.2e} rad, \
             max position {pos:.2e} m, {kept} mesh/skin/image bytes identical",
            imported.clip.frame_count(),
            imported.skeleton.len()
        );
        if let (Some(v), Some(src)) = (common::gltf_validate(&out), &source_report) {
            assert_eq!(
                count(&v, "numErrors"),
                0,
                "{name}.{ext}: validator errors: {v}"
            );
            // Warnings come from the kept source content only (e.g. its skinned mesh node placement).
            assert!(
                count(&v, "numWarnings") <= count(src, "numWarnings"),
                "{name}.{ext}: more warnings than the source: {v}"
            );
            line += &format!(
                ", validator {} errors / {} warnings (source {} / {})",
                count(&v, "numErrors"),
                count(&v, "numWarnings"),
                count(src, "numErrors"),
                count(src, "numWarnings")
            );
        }
        println!("{line}");
        figures.push(line);
    }
    figures
}

#[test]
fn every_corpus_gltf_round_trips_keeps_its_content_and_validates() {
    let files: Vec<PathBuf> = common::corpus_files("gltf", "gltf")
        .into_iter()
        .chain(common::corpus_files("gltf", "glb"))
        .collect();
    let mut done = 0;
    for path in &files {
        done +=
            usize::from(!check_source_file(path, &ImportOptions::default(), "first").is_empty());
    }
    if common::corpus_dir().is_some() {
        assert_eq!(done, files.len(), "every corpus glTF imports");
    }
}

#[test]
fn other_animations_units_and_z_up_round_trip() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let fox = dir.join("gltf/Fox.glb");
    // Run has irregular keys (resampled at 30 fps); an explicit metre unit keeps the Fox 100× larger.
    let run = ImportOptions {
        animation: Some("Run".into()),
        ..Default::default()
    };
    assert!(!check_source_file(&fox, &run, "run").is_empty());
    let metres = ImportOptions {
        unit: Some(flinch::io::LengthUnit::Metre),
        ..Default::default()
    };
    assert!(!check_source_file(&fox, &metres, "metre").is_empty());
    let robot = dir.join("gltf/RobotExpressive_threejs_reexport.glb");
    let z_up = ImportOptions {
        up_axis: Some(flinch::io::UpAxis::Z),
        animation: Some("Punch".into()),
        ..Default::default()
    };
    assert!(!check_source_file(&robot, &z_up, "zup").is_empty());
}

#[test]
fn every_corpus_bvh_round_trips_as_skeleton_with_bone_mesh() {
    let files = common::corpus_files("bvh", "bvh");
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let imported = match load_file(path, &ImportOptions::default()) {
            Ok(i) => i,
            Err(e) => {
                eprintln!("{name}: does not import ({e}); skipped");
                continue;
            }
        };
        let mut imported = imported;
        perturb(&mut imported);
        for ext in ["glb", "gltf"] {
            let out = out_dir().join(format!("{name}.{ext}"));
            write_file(
                &out,
                &imported.skeleton,
                &imported.clip,
                None,
                &GltfWriteOptions::default(),
            )
            .unwrap_or_else(|e| panic!("{name}: {e}"));
            let written = std::fs::read(&out).unwrap();
            let (re, map) = import_mapped(&written, None, &ImportOptions::default())
                .unwrap_or_else(|e| panic!("{name}.{ext}: {e}"));
            assert_eq!(
                re.report.unit,
                flinch::io::LengthUnit::Metre,
                "{name}: written in metres"
            );
            assert!(
                map.skin.is_some(),
                "{name}: the bone mesh's skin drives the joints"
            );
            let (rot, pos) = max_errors(&imported, &re);
            assert!(
                rot <= TOL_RAD && pos <= tol_m(&imported),
                "{name}.{ext}: rotation {rot:.3e} rad, position {pos:.3e} m"
            );
            let (json, _) = parts(&written);
            let bones = json["meshes"][0]["primitives"][0]["attributes"]["POSITION"]
                .as_u64()
                .unwrap();
            let vertices = json["accessors"][bones as usize]["count"].as_u64().unwrap();
            let segments = imported.skeleton.len() - 1
                + imported
                    .skeleton
                    .joints
                    .iter()
                    .map(|j| j.end_sites.len())
                    .sum::<usize>();
            assert!(
                vertices > 0 && vertices <= 6 * segments as u64,
                "{name}: {vertices} bone vertices"
            );
            let mut line = format!(
                "figure gltf_roundtrip {name} .{ext}: {} frames × {} joints, max rotation {rot:.2e} rad, \
                 max position {pos:.2e} m, {} bones",
                imported.clip.frame_count(),
                imported.skeleton.len(),
                vertices / 6
            );
            if let Some(v) = common::gltf_validate(&out) {
                assert_eq!(count(&v, "numErrors"), 0, "{name}.{ext}: {v}");
                assert_eq!(count(&v, "numWarnings"), 0, "{name}.{ext}: {v}");
                line += &format!(
                    ", validator 0 errors / 0 warnings / {} infos",
                    count(&v, "numInfos")
                );
            }
            println!("{line}");
        }
    }
}

#[test]
fn non_finite_values_are_located_errors_and_nothing_is_written() {
    let imported = flinch::io::load_embedded_walk(&ImportOptions::default()).unwrap();
    let mut clip = imported.clip.clone();
    clip.frames[3].translations[0].y = f64::NAN;
    let out = out_dir().join("nan.glb");
    let err = write_file(
        &out,
        &imported.skeleton,
        &clip,
        None,
        &GltfWriteOptions::default(),
    )
    .unwrap_err();
    match &err {
        GltfExportError::NonFinite { frame, joint, .. } => {
            assert_eq!(*frame, 3);
            assert_eq!(joint, &imported.skeleton.joints[0].name);
        }
        other => panic!("expected NonFinite, got {other}"),
    }
    assert!(!out.exists(), "nothing written");
    let mut bad_time = imported.clip.clone();
    bad_time.frame_time = 0.0;
    assert!(matches!(
        write(
            &imported.skeleton,
            &bad_time,
            None,
            &GltfWriteOptions::default()
        ),
        Err(GltfExportError::Mismatch(_))
    ));
    // A skeleton that is not the source's import is refused, not silently mis-mapped.
    if let Some(dir) = common::corpus_dir() {
        let (_, fox) =
            load_source_file(&dir.join("gltf/Fox.glb"), &ImportOptions::default()).unwrap();
        let e = write(
            &imported.skeleton,
            &imported.clip,
            Some(&fox),
            &GltfWriteOptions::default(),
        );
        assert!(matches!(e, Err(GltfExportError::Mismatch(_))), "{e:?}");
    }
}
