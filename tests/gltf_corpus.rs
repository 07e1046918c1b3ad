//! The glTF importer on the real corpus (`/work/shared/data/gltf`, see its README): joint counts, animation
//! counts and durations, picking by name and index, key reproduction, bind pose vs rest pose, units.

mod common;

use std::path::{Path, PathBuf};

use flinch::io::gltf_import::{
    GltfImportError, GltfMapping, animation_names, import_file, import_mapped,
    inverse_bind_matrices,
};
use flinch::io::{ImportOptions, Imported, LengthUnit};
use flinch::math::rotation_distance;
use flinch::skeleton::{Channel, Pose};
use nalgebra::{Quaternion, UnitQuaternion, Vector3};

fn file(name: &str) -> Option<PathBuf> {
    let p = common::corpus_dir()?.join("gltf").join(name);
    assert!(p.is_file(), "corpus file {} missing", p.display());
    Some(p)
}

fn load(path: &Path, animation: Option<&str>) -> (Imported, GltfMapping) {
    let bytes = std::fs::read(path).unwrap();
    let opts = ImportOptions {
        animation: animation.map(str::to_string),
        ..Default::default()
    };
    import_mapped(&bytes, path.parent(), &opts)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// (file, skeleton joints, skin joints, animations as (name, duration s, keys)) from the data README.
/// quad_skin's 10 skin joints are siblings under the non-joint node `Armature`, which joins them into one tree.
type Expected = (&'static str, usize, usize, &'static [(&'static str, f64)]);
const EXPECTED: &[Expected] = &[
    (
        "Fox.glb",
        24,
        24,
        &[("Survey", 3.42), ("Walk", 0.71), ("Run", 1.16)],
    ),
    (
        "Fox_2017_sample_models_version.glb",
        24,
        24,
        &[("Survey", 3.42), ("Walk", 0.71), ("Run", 1.16)],
    ),
    ("RiggedSimple.gltf", 2, 2, &[("#0", 2.04)]),
    ("simple_skin.gltf", 2, 2, &[("#0", 5.5)]),
    ("assimp_quad_skin.glb", 11, 10, &[]),
    (
        "RobotExpressive_threejs_reexport.glb",
        43,
        43,
        &[
            ("Dance", 3.33),
            ("Death", 0.96),
            ("Idle", 3.33),
            ("Jump", 0.71),
            ("No", 1.67),
            ("Punch", 0.83),
            ("Running", 0.96),
            ("Sitting", 0.42),
            ("Standing", 0.42),
            ("ThumbsUp", 1.58),
            ("Walking", 0.96),
            ("WalkJump", 0.83),
            ("Wave", 1.83),
            ("Yes", 1.67),
        ],
    ),
];

#[test]
fn every_corpus_file_imports_with_expected_joints_and_durations() {
    let files = common::corpus_files("gltf", "gltf")
        .into_iter()
        .chain(common::corpus_files("gltf", "glb"))
        .collect::<Vec<_>>();
    if common::corpus_dir().is_none() {
        return;
    }
    assert_eq!(files.len(), EXPECTED.len(), "corpus changed: {files:?}");
    for &(name, joints, skin_joints, anims) in EXPECTED {
        let path = file(name).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        let names = animation_names(&bytes).unwrap();
        assert_eq!(
            names,
            anims.iter().map(|a| a.0).collect::<Vec<_>>(),
            "{name}"
        );
        let runs: Vec<Option<&str>> = if anims.is_empty() {
            vec![None]
        } else {
            anims.iter().map(|a| Some(a.0)).collect()
        };
        for (i, anim) in runs.into_iter().enumerate() {
            // Unnamed animations are picked by index.
            let pick = anim.map(|a| {
                if a.starts_with('#') {
                    i.to_string()
                } else {
                    a.to_string()
                }
            });
            let (imp, map) = load(&path, pick.as_deref());
            let sk = &imp.skeleton;
            assert_eq!(sk.len(), joints, "{name}");
            let skin_nodes = map.joint_nodes.iter().flatten().count();
            assert!(skin_nodes >= skin_joints, "{name}");
            assert_eq!(
                imp.report.format,
                if name.ends_with(".glb") {
                    "glb"
                } else {
                    "gltf"
                }
            );
            assert_eq!(
                imp.clip.frames.iter().map(|f| f.rotations.len()).min(),
                Some(joints)
            );
            // Channel synthesis: ZXY rotations on every joint, positions on the root.
            for j in &sk.joints {
                assert_eq!(
                    j.rotation_order().map(|o| o.name()),
                    Some("ZXY".to_string()),
                    "{name} {}",
                    j.name
                );
            }
            assert!(sk.joints[0].has_position_channels());
            match anim {
                None => assert_eq!(imp.clip.frame_count(), 1, "{name}: rest clip"),
                Some(a) => {
                    let expected = anims[i].1;
                    let d = imp.clip.duration();
                    // README durations are rounded to 0.01 s; resampling may move the end by half a frame.
                    let tol = 0.006 + 0.5 * imp.clip.frame_time;
                    assert!(
                        (d - expected).abs() <= tol,
                        "{name} '{a}': duration {d:.4} s, README {expected} s"
                    );
                }
            }
            for f in &imp.clip.frames {
                assert!(
                    f.translations
                        .iter()
                        .all(|t| t.iter().all(|x| x.is_finite()))
                );
                assert!(f.rotations.iter().all(|q| (q.norm() - 1.0).abs() < 1e-9));
            }
        }
    }
}

#[test]
fn picking_by_name_and_index() {
    let (Some(fox), Some(robot)) = (
        file("Fox.glb"),
        file("RobotExpressive_threejs_reexport.glb"),
    ) else {
        return;
    };
    let (walk, m1) = load(&fox, Some("Walk"));
    let (by_index, m2) = load(&fox, Some("1"));
    assert_eq!(m1.animation, Some(1));
    assert_eq!(m2.animation, Some(1));
    assert_eq!(walk.clip, by_index.clip);
    // Walk: 18 keys at 24 fps become 18 frames.
    assert_eq!(walk.clip.frame_count(), 18);
    assert!((walk.clip.frame_rate() - 24.0).abs() < 1e-3);
    let (first, m0) = load(&fox, None);
    assert_eq!(m0.animation, Some(0));
    assert_eq!(first.clip.frame_count(), 83, "Survey");

    let (walking, m) = load(&robot, Some("Walking"));
    assert_eq!(m.animation, Some(10));
    assert_eq!(walking.clip.frame_count(), 24);
    assert!(
        walking
            .report
            .warnings
            .iter()
            .any(|w| w.contains("morph-target")),
        "{:?}",
        walking.report.warnings
    );
    assert!(
        walking
            .report
            .warnings
            .iter()
            .any(|w| w.contains("4 skins"))
    );

    let err = import_file(
        &fox,
        &ImportOptions {
            animation: Some("Dance".into()),
            ..Default::default()
        },
    )
    .unwrap_err();
    let msg = err.to_string();
    assert!(
        matches!(&err, GltfImportError::InFile { source, .. } if matches!(**source, GltfImportError::NoSuchAnimation { .. }))
    );
    assert!(
        msg.contains("Fox.glb") && msg.contains("Dance") && msg.contains("1:Walk"),
        "{msg}"
    );
}

/// Key values straight from the GLB with the `gltf` crate's own reader: an oracle independent of flinch's.
/// One channel's keys: target node, `rotation` or `translation`, times, values (`[x, y, z, w]` or `[x, y, z, 0]`).
type ChannelKeys = (usize, &'static str, Vec<f32>, Vec<[f32; 4]>);

fn fox_walk_keys(path: &Path) -> Vec<ChannelKeys> {
    let bytes = std::fs::read(path).unwrap();
    let g = gltf::Gltf::from_slice(&bytes).unwrap();
    let blob = g.blob.clone().unwrap();
    let anim = g.animations().find(|a| a.name() == Some("Walk")).unwrap();
    let mut out = Vec::new();
    for ch in anim.channels() {
        let reader = ch.reader(|_| Some(&blob[..]));
        let times: Vec<f32> = reader.read_inputs().unwrap().collect();
        let (kind, values): (&str, Vec<[f32; 4]>) = match reader.read_outputs().unwrap() {
            gltf::animation::util::ReadOutputs::Rotations(r) => {
                ("rotation", r.into_f32().collect())
            }
            gltf::animation::util::ReadOutputs::Translations(t) => {
                ("translation", t.map(|v| [v[0], v[1], v[2], 0.0]).collect())
            }
            _ => continue,
        };
        out.push((ch.target().node().index(), kind, times, values));
    }
    out
}

#[test]
fn linear_key_times_reproduce_key_values_exactly() {
    let Some(fox) = file("Fox.glb") else { return };
    let (imp, map) = load(&fox, Some("Walk"));
    let sk = &imp.skeleton;
    assert_eq!(imp.report.unit, LengthUnit::Centimetre);
    let mut checked = 0;
    let mut worst_rot: f64 = 0.0;
    let mut worst_pos: f64 = 0.0;
    for (node, kind, times, values) in fox_walk_keys(&fox) {
        let j = map
            .joint_nodes
            .iter()
            .position(|&n| n == Some(node))
            .unwrap();
        if j == 0 {
            continue; // the root folds in its ancestors; checked by the FK test instead
        }
        assert_eq!(times.len(), imp.clip.frame_count());
        for (k, v) in values.iter().enumerate() {
            let frame = &imp.clip.frames[k];
            if kind == "rotation" {
                let key = UnitQuaternion::from_quaternion(Quaternion::new(
                    f64::from(v[3]),
                    f64::from(v[0]),
                    f64::from(v[1]),
                    f64::from(v[2]),
                ));
                let got = sk.joints[j].rest_rotation * frame.rotations[j];
                worst_rot = worst_rot.max(rotation_distance(&got, &key));
            } else {
                let key = Vector3::new(f64::from(v[0]), f64::from(v[1]), f64::from(v[2])) * 0.01;
                worst_pos = worst_pos.max((frame.translations[j] - key).norm());
            }
            checked += 1;
        }
    }
    println!("figure fox_walk_key_rotation_error {worst_rot:e} rad");
    println!("figure fox_walk_key_translation_error {worst_pos:e} m");
    assert!(checked > 100, "{checked}");
    assert!(worst_rot < 1e-7, "{worst_rot}");
    assert!(worst_pos < 1e-12, "{worst_pos}");
}

/// World matrix of the first node that uses skin `skin` (its parents' transforms composed, f64).
fn mesh_node_world(g: &gltf::Gltf, skin: usize) -> nalgebra::Matrix4<f64> {
    let mut parent = vec![None; g.nodes().len()];
    for n in g.nodes() {
        for c in n.children() {
            parent[c.index()] = Some(n.index());
        }
    }
    let local = |i: usize| {
        let m = g.nodes().nth(i).unwrap().transform().matrix();
        nalgebra::Matrix4::from_fn(|r, c| f64::from(m[c][r]))
    };
    let Some(mut k) = g
        .nodes()
        .find(|n| n.skin().map(|s| s.index()) == Some(skin))
        .map(|n| n.index())
    else {
        return nalgebra::Matrix4::identity();
    };
    let mut m = local(k);
    while let Some(p) = parent[k] {
        m = local(p) * m;
        k = p;
    }
    m
}

/// Rest-pose FK world positions of the skin joints vs the translations of the inverted inverse-bind matrices.
fn bind_vs_rest(name: &str) -> Option<(f64, Vec<Vector3<f64>>)> {
    let path = file(name)?;
    let bytes = std::fs::read(&path).unwrap();
    let (imp, map) = load(&path, None);
    let sk = &imp.skeleton;
    let skin = map.skin.unwrap();
    let ibm = inverse_bind_matrices(&bytes, path.parent(), skin).unwrap();
    let g = gltf::Gltf::from_slice(&bytes).ok();
    // For GLB files cross-check flinch's accessor reader against the gltf crate's.
    if let Some(g) = g.as_ref().filter(|g| g.blob.is_some()) {
        let blob = g.blob.clone().unwrap();
        let s = g.skins().nth(skin).unwrap();
        let theirs: Vec<[[f32; 4]; 4]> = s
            .reader(|_| Some(&blob[..]))
            .read_inverse_bind_matrices()
            .unwrap()
            .collect();
        for (a, b) in ibm.iter().zip(&theirs) {
            for c in 0..4 {
                for r in 0..4 {
                    assert_eq!(a[(r, c)], f64::from(b[c][r]));
                }
            }
        }
    }
    let world = Pose::rest(sk).world_transforms(sk);
    // IBMs are in the skinned mesh's space: place them with the world transform of the node using the skin.
    let mesh_world = g
        .as_ref()
        .map_or(nalgebra::Matrix4::identity(), |g| mesh_node_world(g, skin));
    let f = imp.report.unit.to_metres();
    let extent = world
        .iter()
        .map(|w| w.translation.vector.norm())
        .fold(0.0, f64::max)
        / f;
    let skin_nodes: Vec<usize> = gltf::Gltf::from_slice(&bytes)
        .map(|g| {
            g.skins()
                .nth(skin)
                .unwrap()
                .joints()
                .map(|n| n.index())
                .collect()
        })
        .unwrap_or_else(|_| map.joint_nodes.iter().flatten().copied().collect());
    let mut worst: f64 = 0.0;
    let mut diffs = Vec::new();
    for (k, node) in skin_nodes.iter().enumerate() {
        let j = map
            .joint_nodes
            .iter()
            .position(|&n| n == Some(*node))
            .unwrap();
        let bind = mesh_world * ibm[k].try_inverse().unwrap();
        let bind_pos = Vector3::new(bind[(0, 3)], bind[(1, 3)], bind[(2, 3)]);
        let rest_pos = world[j].translation.vector / f;
        worst = worst.max((bind_pos - rest_pos).norm() / extent.max(1e-9));
        diffs.push(bind_pos - rest_pos);
    }
    println!("figure bind_vs_rest_rel_{name} {worst:e}");
    Some((worst, diffs))
}

#[test]
fn rest_pose_matches_bind_pose_where_the_file_binds_at_rest() {
    // Files whose rest pose is the bind pose: FK positions equal the inverted IBM translations (placed by the
    // skinned mesh node's world transform, which RiggedSimple's Z-up root matrix needs).
    for name in [
        "Fox.glb",
        "Fox_2017_sample_models_version.glb",
        "RiggedSimple.gltf",
        "assimp_quad_skin.glb",
    ] {
        if let Some((rel, _)) = bind_vs_rest(name) {
            assert!(rel < 1e-4, "{name}: {rel}");
        }
    }
    // The older simple_skin revision binds a mesh spanning x ∈ [0, 1] to joints at x = 0.5: bind = rest shifted
    // by exactly (0.5, 0, 0) for every joint, i.e. the bind pose is not the rest pose.
    if let Some((_, diffs)) = bind_vs_rest("simple_skin.gltf") {
        for d in diffs {
            assert!((d - Vector3::new(0.5, 0.0, 0.0)).norm() < 1e-6, "{d:?}");
        }
    }
    // RobotExpressive (three.js re-export): IBMs are in the armature's unscaled space and another pose.
    if let Some((rel, _)) = bind_vs_rest("RobotExpressive_threejs_reexport.glb") {
        assert!(rel > 0.1, "{rel}");
    }
}

#[test]
fn fox_units_and_channels() {
    let Some(fox) = file("Fox.glb") else { return };
    let (imp, _) = load(&fox, Some("Walk"));
    assert!(imp.report.unit_inferred);
    assert!(
        imp.report
            .warnings
            .iter()
            .any(|w| w.contains("centimetres")),
        "{:?}",
        imp.report.warnings
    );
    let sk = &imp.skeleton;
    let world = Pose::rest(sk).world_transforms(sk);
    let span = |axis: usize| {
        let v: Vec<f64> = world.iter().map(|w| w.translation.vector[axis]).collect();
        v.iter().cloned().fold(f64::MIN, f64::max) - v.iter().cloned().fold(f64::MAX, f64::min)
    };
    let (x, y, z) = (span(0), span(1), span(2));
    println!("figure fox_rest_extent_m {x:.3} {y:.3} {z:.3}");
    // A fox: about a metre nose to tail, well under a metre tall.
    assert!(z > 0.5 && z < 2.0, "{z}");
    assert!(y > 0.2 && y < 1.0, "{y}");
    // Explicit metres keep the file's numbers.
    let bytes = std::fs::read(&fox).unwrap();
    let opts = ImportOptions {
        unit: Some(LengthUnit::Metre),
        animation: Some("Walk".into()),
        ..Default::default()
    };
    let m = flinch::io::gltf_import::import(&bytes, fox.parent(), &opts).unwrap();
    assert!(!m.report.unit_inferred);
    assert!((m.skeleton.joints[2].offset.norm() - 100.0 * sk.joints[2].offset.norm()).abs() < 1e-9);
    // Position channels only where translation moves: the root and a few joints, not all 24.
    let with_pos = sk
        .joints
        .iter()
        .filter(|j| {
            j.channels
                .contains(&Channel::Position(flinch::math::Axis::X))
        })
        .count();
    assert!((1..24).contains(&with_pos), "{with_pos}");
}

#[test]
fn rigged_simple_root_matrix_turns_z_up_into_y_up() {
    let Some(path) = file("RiggedSimple.gltf") else {
        return;
    };
    let (imp, _) = load(&path, None);
    let sk = &imp.skeleton;
    let world = Pose::rest(sk).world_transforms(sk);
    let bone = world[1].translation.vector - world[0].translation.vector;
    println!(
        "figure rigged_simple_bone {:.4} {:.4} {:.4} m",
        bone.x, bone.y, bone.z
    );
    // The cylinder stands along +y once the root matrix is applied (its 4.19-unit bone points up).
    assert!(
        bone.y > 4.0 && bone.x.abs() < 0.05 && bone.z.abs() < 0.05,
        "{bone:?}"
    );
    // Scales of 0.99999988 are not reported as non-uniform.
    assert!(
        !imp.report
            .warnings
            .iter()
            .any(|w| w.contains("not uniform")),
        "{:?}",
        imp.report.warnings
    );
}

#[test]
fn the_invalid_2017_fox_gives_the_same_skeleton_and_clips() {
    let (Some(new), Some(old)) = (file("Fox.glb"), file("Fox_2017_sample_models_version.glb"))
    else {
        return;
    };
    for anim in ["Survey", "Walk", "Run"] {
        let (a, _) = load(&new, Some(anim));
        let (b, _) = load(&old, Some(anim));
        assert_eq!(a.skeleton, b.skeleton, "{anim}");
        assert_eq!(a.clip, b.clip, "{anim}");
        assert_eq!(a.report.warnings, b.report.warnings);
    }
}
