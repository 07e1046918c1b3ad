//! `flinch export-mjcf` and `export::write_mjcf`: the XML's bodies and masses, the CSV's shape, the exported forces
//! against the torques flinch stores, and — when `python3 -c "import mujoco"` works (always under `CI=true`) —
//! MuJoCo's `mj_inverse` on the export (`bench/mjcf_inverse_check.py`).

mod common;

use common::flinch;

use std::path::{Path, PathBuf};
use std::process::Command;

use flinch::control::{Character, CharacterConfig, ReferenceMotion};
use flinch::export::{MjcfFiles, MjcfFloor, write_mjcf, write_mjcf_with};
use flinch::io::{ImportOptions, load_embedded_walk, load_file};
use flinch::model::Model;
use nalgebra::{Quaternion, UnitQuaternion, Vector3};

fn out_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("mjcf_export_{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn walk() -> Character {
    let imported = load_embedded_walk(&ImportOptions::default()).expect("embedded walk");
    Character::from_imported(imported, &CharacterConfig::default()).expect("character")
}

/// The value of attribute `attr` in an XML tag's text.
fn attr<'a>(tag: &'a str, attr: &str) -> Option<&'a str> {
    let key = format!(" {attr}=\"");
    let start = tag.find(&key)? + key.len();
    Some(&tag[start..start + tag[start..].find('"')?])
}

/// Every `<name ...>` tag of the XML text.
fn tags<'a>(xml: &'a str, name: &str) -> Vec<&'a str> {
    let open = format!("<{name} ");
    xml.match_indices(&open)
        .map(|(i, _)| &xml[i..i + xml[i..].find('>').expect("closed tag")])
        .collect()
}

fn read_csv(path: &Path) -> (Vec<String>, Vec<Vec<f64>>) {
    let text = std::fs::read_to_string(path).expect("read csv");
    let mut lines = text.lines();
    let header = lines
        .next()
        .expect("header")
        .split(',')
        .map(String::from)
        .collect();
    let rows = lines
        .map(|l| l.split(',').map(|x| x.parse().expect("number")).collect())
        .collect();
    (header, rows)
}

/// The XML and CSV agree with the model and reference; the exported forces equal the stored torques.
fn check_export(model: &Model, reference: &ReferenceMotion, files: &MjcfFiles) {
    let nb = model.bodies.len();
    let layout = &files.layout;
    let xml = std::fs::read_to_string(&files.character).expect("read xml");
    let bodies = tags(&xml, "body");
    assert_eq!(bodies.len(), nb);
    assert_eq!(xml.matches("</body>").count(), nb);
    assert_eq!(tags(&xml, "freejoint").len(), 1);
    let balls = tags(&xml, "joint");
    assert_eq!(
        balls
            .iter()
            .filter(|t| attr(t, "type") == Some("ball"))
            .count(),
        nb - 1
    );
    for (i, tag) in bodies.iter().enumerate() {
        assert_eq!(
            attr(tag, "name"),
            Some(layout.names[layout.order[i]].as_str())
        );
    }
    let mass: f64 = tags(&xml, "inertial")
        .iter()
        .map(|t| attr(t, "mass").expect("mass").parse::<f64>().expect("f64"))
        .sum();
    assert!(
        (mass - model.total_mass()).abs() <= 1e-9,
        "{mass} vs {}",
        model.total_mass()
    );

    let (header, rows) = read_csv(&files.reference);
    let (nq, nv) = (7 + 4 * (nb - 1), 6 + 3 * (nb - 1));
    assert_eq!(header.len(), 2 + nq + 3 * nv);
    assert_eq!(header, layout.columns());
    assert_eq!(rows.len(), reference.steps);
    let rest: Vec<UnitQuaternion<f64>> = {
        let mut r = vec![UnitQuaternion::identity(); nb];
        for j in &model.joints {
            r[j.child] = j.parent_from_child.rotation;
        }
        r
    };
    let id = reference.continuous_inverse_dynamics(None);
    let (qpos0, qfrc0) = (2, 2 + nq + 2 * nv);
    let mut scale: f64 = 1.0;
    let mut worst: f64 = 0.0;
    for (k, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), header.len());
        assert_eq!(row[0], k as f64);
        let (mut qp, mut qf) = (qpos0, qfrc0);
        for (i, &b) in layout.order.iter().enumerate() {
            let v3 = |o: usize| Vector3::new(row[o], row[o + 1], row[o + 2]);
            let q4 = |o: usize| {
                UnitQuaternion::new_unchecked(Quaternion::new(
                    row[o],
                    row[o + 1],
                    row[o + 2],
                    row[o + 3],
                ))
            };
            let rot = reference.rotation(k, b);
            let stored = id.joint_torque(k, b);
            let mut err = |a: Vector3<f64>, e: Vector3<f64>| {
                scale = scale.max(e.amax());
                worst = worst.max((a - e).amax());
            };
            if i == 0 {
                assert_eq!(v3(qp), reference.root_pos[k]);
                assert!(q4(qp + 3).angle_to(&rot) < 1e-12);
                err(v3(qf), id.root_force[k]);
                err(v3(qf + 3), stored);
                qp += 7;
                qf += 6;
            } else {
                assert!((rest[b] * q4(qp)).angle_to(&rot) < 1e-12);
                // qfrc is in the child frame, the stored torque in the joint frame F (free axes only).
                let local = reference.joint_frame[b].inverse() * (rot * v3(qf));
                let free = Vector3::from_fn(|a, _| {
                    if reference.dofs[b].is_free(a) {
                        local[a]
                    } else {
                        0.0
                    }
                });
                err(free, stored);
                qp += 4;
                qf += 3;
            }
        }
        assert_eq!((qp, qf), (qpos0 + nq, qfrc0 + nv));
    }
    assert!(
        worst <= 1e-9 * scale,
        "exported qfrc differs from the stored torques by {worst} (scale {scale})"
    );
    // The largest exported force is at least the largest stored one (locked hinge axes are not stored).
    assert!(files.max_qfrc >= scale * (1.0 - 1e-12) || scale == 1.0);
}

/// Whether MuJoCo's Python bindings are importable.
fn mujoco_available() -> bool {
    Command::new("python3")
        .args(["-c", "import mujoco"])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// Runs the check script on `dir`; the relative error it reports.
fn mujoco_rel_err(dir: &Path) -> Option<f64> {
    if !mujoco_available() {
        // CI installs it (.ci/run): there a missing mujoco is a failure, as a missing corpus is.
        assert!(
            std::env::var("CI").map(|v| v != "true").unwrap_or(true),
            "python3 cannot import mujoco and CI=true"
        );
        eprintln!(
            "python3 cannot import mujoco: skipping the mj_inverse check (pip install mujoco)"
        );
        return None;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("bench/mjcf_inverse_check.py");
    let out = Command::new("python3")
        .arg(&script)
        .arg(dir)
        .arg("--max-rel-err")
        .arg("1")
        .output()
        .expect("run python3");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    eprintln!("{stdout}");
    let line = stdout
        .lines()
        .find(|l| l.starts_with("figure mjcf_qfrc_max_rel_err "))
        .expect("figure line");
    Some(line.split_whitespace().nth(2)?.parse().expect("number"))
}

#[test]
fn embedded_walk_export_matches_flinch_and_mujoco() {
    let character = walk();
    let dir = out_dir("walk");
    let files = write_mjcf(character.model(), character.reference(), &dir).expect("export");
    assert!(files.layout.is_index_order());
    for b in &character.model().bodies {
        assert!(files.layout.names.contains(&b.name), "{}", b.name);
    }
    check_export(character.model(), character.reference(), &files);
    // No temporary file is left behind.
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .expect("dir")
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    if let Some(rel) = mujoco_rel_err(&dir) {
        assert!(rel <= 1e-8, "mj_inverse differs from flinch by {rel:e}");
    }
}

#[test]
fn corpus_jump_export_matches_mujoco() {
    let Some(data) = common::corpus_dir() else {
        return;
    };
    let path = data.join("bvh/cmu_01_01_jump.bvh");
    let imported = load_file(&path, &ImportOptions::default()).expect("jump");
    let character = Character::from_imported(imported, &CharacterConfig::default()).expect("char");
    let dir = out_dir("jump");
    let files = write_mjcf(character.model(), character.reference(), &dir).expect("export");
    check_export(character.model(), character.reference(), &files);
    if let Some(rel) = mujoco_rel_err(&dir) {
        assert!(rel <= 1e-8, "mj_inverse differs from flinch by {rel:e}");
    }
}

#[test]
fn cli_writes_the_files_and_rejects_bad_input() {
    let dir = out_dir("cli");
    let d = dir.to_str().expect("utf-8");
    let (code, out, err) = flinch(&["export-mjcf", "-o", d, "--rate", "60"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("19 bodies"), "{out}");
    for f in ["character.xml", "reference.csv", "export.json"] {
        assert!(dir.join(f).is_file(), "{f}");
        assert!(out.contains(f), "{out}");
    }
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("export.json")).expect("json"))
            .expect("valid JSON");
    assert_eq!(meta["nbody"], 19);
    assert_eq!(meta["h"].as_f64(), Some(1.0 / 60.0));

    let (code, _, err) = flinch(&["export-mjcf", "-o", d, "--rate=0"]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    let (code, _, err) = flinch(&["export-mjcf", "/nonexistent/clip.bvh", "-o", d]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    // An output "directory" that is a file: a write failure (status 1) naming it.
    let file = dir.join("export.json");
    let (code, _, err) = flinch(&["export-mjcf", "-o", file.to_str().expect("utf-8")]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("export.json"), "{err}");
}

#[test]
fn hinge_and_universal_joints_export_as_ball() {
    let config = CharacterConfig::from_toml(
        r#"
[model.bones.LeftLeg]
joint = { kind = "hinge", axis = [0.0, 0.0, 1.0] }
[model.bones.RightForeArm]
joint = { kind = "universal", axes = [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]] }
"#,
    )
    .expect("config");
    let imported = load_embedded_walk(&ImportOptions::default()).expect("embedded walk");
    let character = Character::from_imported(imported, &config).expect("character");
    let dir = out_dir("hinge");
    let files = write_mjcf(character.model(), character.reference(), &dir).expect("export");
    let xml = std::fs::read_to_string(&files.character).expect("xml");
    assert!(xml.contains("flinch hinge joint"), "{xml}");
    assert!(xml.contains("flinch universal joint"), "{xml}");
    check_export(character.model(), character.reference(), &files);
    if let Some(rel) = mujoco_rel_err(&dir) {
        assert!(rel <= 1e-8, "mj_inverse differs from flinch by {rel:e}");
    }
}

/// A skeleton listed breadth-first (MuJoCo's depth-first body order differs from flinch's index order), with
/// names that need sanitising (a colon is kept, a space is not, a duplicate gets a suffix) and a rest rotation.
#[test]
fn breadth_first_skeleton_exports_in_mujoco_order() {
    use flinch::control::PreprocessConfig;
    use flinch::math::Axis;
    use flinch::model::BuildConfig;
    use flinch::skeleton::{Channel, Clip, Joint, Pose, Skeleton};

    let rot = || {
        vec![
            Channel::Rotation(Axis::Z),
            Channel::Rotation(Axis::X),
            Channel::Rotation(Axis::Y),
        ]
    };
    let mut root_channels = vec![
        Channel::Position(Axis::X),
        Channel::Position(Axis::Y),
        Channel::Position(Axis::Z),
    ];
    root_channels.extend(rot());
    let mut joints = vec![
        Joint::new("mixamorig:Hips", None, Vector3::zeros(), root_channels),
        Joint::new("left leg", Some(0), Vector3::new(0.1, -0.1, 0.0), rot()),
        Joint::new("right leg", Some(0), Vector3::new(-0.1, -0.1, 0.0), rot()),
        Joint::new("knee", Some(1), Vector3::new(0.0, -0.4, 0.0), rot()),
        Joint::new("knee", Some(2), Vector3::new(0.0, -0.4, 0.0), rot()),
    ];
    joints[2].rest_rotation = UnitQuaternion::from_euler_angles(0.3, -0.2, 0.5);
    joints[3].end_sites.push(Vector3::new(0.0, -0.4, 0.0));
    joints[4].end_sites.push(Vector3::new(0.0, -0.4, 0.05));
    joints[0].end_sites.push(Vector3::new(0.0, 0.5, 0.0));
    let skeleton = Skeleton::new(joints).expect("skeleton");
    let frames = (0..40)
        .map(|f| {
            let t = f as f64 / 30.0;
            let mut pose = Pose::rest(&skeleton);
            pose.translations[0] = Vector3::new(0.3 * t, 0.9 + 0.05 * (3.0 * t).sin(), 0.1 * t);
            for (j, q) in pose.rotations.iter_mut().enumerate() {
                let a = 0.4 * (2.0 * t + j as f64).sin();
                *q = UnitQuaternion::from_euler_angles(a, 0.5 * a, -0.3 * a);
            }
            pose
        })
        .collect();
    let clip = Clip {
        frame_time: 1.0 / 30.0,
        frames,
    };
    let model = Model::from_skeleton(&skeleton, &BuildConfig::default()).expect("model");
    assert_eq!(model.bodies.len(), 5);
    let reference = ReferenceMotion::build(&model, &skeleton, &clip, &PreprocessConfig::default())
        .expect("ref");
    let dir = out_dir("bfs");
    let files = write_mjcf(&model, &reference, &dir).expect("export");
    assert_eq!(files.layout.order, vec![0, 1, 3, 2, 4]);
    assert!(!files.layout.is_index_order());
    assert_eq!(
        files.layout.names,
        ["mixamorig:Hips", "left_leg", "right_leg", "knee", "knee_2"]
    );
    check_export(&model, &reference, &files);
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&files.meta).expect("json")).expect("JSON");
    assert_eq!(meta["index_order"], false);
    assert_eq!(meta["bodies"][2]["flinch_index"], 3);
    assert_eq!(meta["bodies"][1]["flinch_name"], "left leg");
    if let Some(rel) = mujoco_rel_err(&dir) {
        assert!(rel <= 1e-8, "mj_inverse differs from flinch by {rel:e}");
    }
}

/// A model that does not fit its reference, or holds a non-finite number, is refused before anything is written.
#[test]
fn invalid_input_writes_nothing() {
    use flinch::export::ExportError;
    let character = walk();
    let dir = out_dir("invalid");
    let mut model = character.model().clone();
    model.bodies[3].mass.mass = f64::NAN;
    let err = write_mjcf(&model, character.reference(), &dir).expect_err("NaN mass");
    assert!(matches!(err, ExportError::Invalid { .. }), "{err}");
    let msg = err.to_string();
    assert!(
        msg.contains("character.xml") && msg.contains("non-finite"),
        "{msg}"
    );
    let mut model = character.model().clone();
    model.bodies.pop();
    let err = write_mjcf(&model, character.reference(), &dir).expect_err("fewer bodies");
    assert!(err.to_string().contains("bodies"), "{err}");
    assert!(!dir.exists() || std::fs::read_dir(&dir).expect("dir").next().is_none());
}

/// `export-mjcf --floor`: the character on its fitted floor with MuJoCo's contacts on. The XML has the plane, the
/// capsules collide with it only, the keyframe's root is lifted onto it; MuJoCo (when importable) stands the model
/// on its feet: the feet touch the plane from the first step and the root stays up for the 48 steps the
/// free-root bench times.
#[test]
fn floor_export_stands_on_the_floor_in_mujoco() {
    let mut character = walk();
    character
        .set_root_policy(flinch::control::RootPolicy::Assisted)
        .expect("free root");
    let ground = character.ground().expect("ground");
    let floor = MjcfFloor {
        height: ground.floor,
        friction: 0.9,
        root_lift: ground.lift[0],
        joint_stiffness: 200.0,
        joint_damping: 20.0,
    };
    let dir = out_dir("floor");
    let files = write_mjcf_with(character.model(), character.reference(), &dir, Some(&floor))
        .expect("export");
    let xml = std::fs::read_to_string(&files.character).expect("xml");
    assert!(xml.contains("type=\"plane\""), "no floor plane");
    assert!(!xml.contains("contact=\"disable\""), "contacts still off");
    assert!(
        xml.contains("<geom contype=\"1\" conaffinity=\"0\""),
        "capsules do not collide"
    );
    assert!(xml.contains("stiffness=\"200\""), "no joint springs");
    // The keyframe's root height is the clip's plus the lift.
    let key = xml
        .lines()
        .find(|l| l.contains("<key name=\"sample0\""))
        .expect("keyframe");
    let qpos: Vec<f64> = key
        .split("qpos=\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .expect("qpos")
        .split_whitespace()
        .map(|v| v.parse().expect("number"))
        .collect();
    let root_y = character.reference().root_pos[0].y + floor.root_lift;
    assert!((qpos[1] - root_y).abs() < 1e-12, "{} vs {root_y}", qpos[1]);
    if !mujoco_available() {
        assert!(
            std::env::var("CI").map(|v| v != "true").unwrap_or(true),
            "python3 cannot import mujoco and CI=true"
        );
        eprintln!("python3 cannot import mujoco: skipping the standing check (pip install mujoco)");
        return;
    }
    let script = r#"
import sys, mujoco
m = mujoco.MjModel.from_xml_path(sys.argv[1])
d = mujoco.MjData(m)
mujoco.mj_resetDataKeyframe(m, d, mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_KEY, "sample0"))
mujoco.mj_step(m, d)
first = d.ncon
low = d.qpos[1]
for _ in range(47):
    mujoco.mj_step(m, d)
    low = min(low, d.qpos[1])
print(first, low)
"#;
    let out = Command::new("python3")
        .args(["-c", script])
        .arg(&files.character)
        .output()
        .expect("run python3");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let mut words = text.split_whitespace();
    let contacts: usize = words.next().and_then(|w| w.parse().ok()).expect("ncon");
    let lowest: f64 = words.next().and_then(|w| w.parse().ok()).expect("root y");
    assert!(
        contacts >= 1,
        "the feet do not touch the floor in the first step"
    );
    assert!(
        lowest > root_y - 0.15,
        "the root sank to {lowest:.3} m from {root_y:.3} m within 0.4 s"
    );
}
