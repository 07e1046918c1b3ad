//! Bounded resources: absurd declarations and deep hierarchies in BVH, glTF and URDF are clear errors naming
//! the limit to raise (`flinch::io::Limits`), never an abort, an out-of-memory kill or a stack overflow; with the
//! limits raised, the deep files import and go through forward kinematics and the BVH writer without recursion.
//! Every test runs on the test harness's ordinary thread stack (2 MB): a recursion on depth would overflow it.

use flinch::io::bvh::{self, WriteOptions};
use flinch::io::{ImportOptions, Limits, gltf_import, urdf};

/// A BVH whose root has `depth - 1` nested joints below it, and `frames` frames.
fn deep_bvh(depth: usize, frames: usize) -> String {
    let mut s = String::from(
        "HIERARCHY\nROOT j0\n{\nOFFSET 0 0 0\nCHANNELS 3 Zrotation Xrotation Yrotation\n",
    );
    for i in 1..depth {
        s.push_str(&format!(
            "JOINT j{i}\n{{\nOFFSET 0 1 0\nCHANNELS 3 Zrotation Xrotation Yrotation\n"
        ));
    }
    s.push_str("End Site\n{\nOFFSET 0 1 0\n}\n");
    s.push_str(&"}\n".repeat(depth));
    s.push_str(&format!("MOTION\nFrames: {frames}\nFrame Time: 0.01\n"));
    let line = format!("{}\n", vec!["0"; 3 * depth].join(" "));
    s.push_str(&line.repeat(frames));
    s
}

fn bvh_error(text: &str, opts: &ImportOptions) -> String {
    match bvh::parse(text.as_bytes(), opts) {
        Ok(i) => panic!("accepted: {} joints", i.skeleton.len()),
        Err(e) => e.to_string(),
    }
}

#[test]
fn bvh_declaring_a_billion_frames_is_an_error_at_the_count() {
    let text = deep_bvh(2, 2).replace("Frames: 2", "Frames: 1000000000");
    let e = bvh_error(&text, &ImportOptions::default());
    assert!(
        e.contains("Frames: 1000000000") && e.contains("Limits::max_frames"),
        "{e}"
    );
    assert!(e.starts_with("line "), "says where: {e}");
    // Raised, the same file reads (with a warning: 2 frames follow).
    let opts = ImportOptions {
        limits: Limits {
            max_frames: 2_000_000_000,
            ..Limits::DEFAULT
        },
        ..ImportOptions::default()
    };
    let ok = bvh::parse(text.as_bytes(), &opts).expect("raised limit");
    assert_eq!(ok.clip.frame_count(), 2);
}

#[test]
fn bvh_with_a_million_joints_stops_at_the_joint_limit() {
    let mut text = String::from(
        "HIERARCHY\nROOT r\n{\nOFFSET 0 0 0\nCHANNELS 3 Zrotation Xrotation Yrotation\n",
    );
    let joint = "JOINT j\n{\nOFFSET 0 1 0\nCHANNELS 3 Zrotation Xrotation Yrotation\n}\n";
    text.push_str(&joint.repeat(1_000_000));
    text.push_str("}\nMOTION\nFrames: 1\nFrame Time: 0.01\n0 0 0\n");
    let e = bvh_error(&text, &ImportOptions::default());
    assert!(
        e.contains("joint 10001") && e.contains("Limits::max_joints"),
        "{e}"
    );
    // The ROOT is joint 1, so joint 10001 is the 10000th JOINT: 5 header lines, then 5 lines per JOINT.
    assert!(e.starts_with(&format!("line {},", 6 + 5 * 9_999)), "{e}");
}

#[test]
fn bvh_too_many_frame_values_is_an_error() {
    let opts = ImportOptions {
        limits: Limits {
            max_pose_values: 1_000,
            ..Limits::DEFAULT
        },
        ..ImportOptions::default()
    };
    let e = bvh_error(&deep_bvh(10, 40), &opts);
    assert!(e.contains("Limits::max_pose_values"), "{e}");
    assert!(bvh::parse(deep_bvh(10, 30).as_bytes(), &opts).is_ok());
}

#[test]
fn bvh_hierarchy_100k_deep_is_an_error_and_imports_with_raised_limits() {
    let text = deep_bvh(100_000, 2);
    let e = bvh_error(&text, &ImportOptions::default());
    assert!(
        e.contains("nesting depth 1001") && e.contains("Limits::max_depth"),
        "{e}"
    );
    let opts = ImportOptions {
        limits: Limits::UNLIMITED,
        ..ImportOptions::default()
    };
    let imported = bvh::parse(text.as_bytes(), &opts).expect("unlimited");
    assert_eq!(imported.skeleton.len(), 100_000);
    // Forward kinematics and the writer walk the chain without recursion.
    let world = imported.clip.frames[0].world_transforms(&imported.skeleton);
    let tip = world.last().expect("joints").translation.vector;
    assert!(tip.iter().all(|v| v.is_finite()));
    let written = bvh::write(&imported.skeleton, &imported.clip, &WriteOptions::default());
    let again = bvh::parse(written.as_bytes(), &opts).expect("re-read");
    assert_eq!(again.skeleton.len(), 100_000);
}

/// A glTF document with `n` nodes in one chain, all joints of a skin, and a rotation animation on the last.
fn deep_gltf(n: usize, input_count: u64) -> String {
    let nodes: Vec<String> = (0..n)
        .map(|i| {
            if i + 1 < n {
                format!(
                    "{{\"name\":\"n{i}\",\"children\":[{}],\"translation\":[0,1,0]}}",
                    i + 1
                )
            } else {
                format!("{{\"name\":\"n{i}\"}}")
            }
        })
        .collect();
    let joints: Vec<String> = (0..n).map(|i| i.to_string()).collect();
    // One buffer of 32 bytes: 2 float times, then 1 rotation... (only the counts matter for the limits).
    format!(
        r#"{{"asset":{{"version":"2.0"}},"scenes":[{{"nodes":[0]}}],"nodes":[{}],"skins":[{{"joints":[{}]}}],
"buffers":[{{"byteLength":40,"uri":"data:application/octet-stream;base64,AAAAAAAAgD8AAAAAAAAAAAAAAAAAAIA/AAAAAAAAAAAAAAAAAACAPw=="}}],
"bufferViews":[{{"buffer":0,"byteLength":8}},{{"buffer":0,"byteOffset":8,"byteLength":32}}],
"accessors":[{{"bufferView":0,"componentType":5126,"count":{input_count},"type":"SCALAR","min":[0],"max":[1]}},
{{"bufferView":1,"componentType":5126,"count":2,"type":"VEC4"}}],
"animations":[{{"channels":[{{"sampler":0,"target":{{"node":{},"path":"rotation"}}}}],"samplers":[{{"input":0,"output":1}}]}}]}}"#,
        nodes.join(","),
        joints.join(","),
        n - 1
    )
}

fn gltf_error(text: &str, opts: &ImportOptions) -> String {
    match gltf_import::import(text.as_bytes(), None, opts) {
        Ok(i) => panic!("accepted: {} joints", i.skeleton.len()),
        Err(e) => e.to_string(),
    }
}

#[test]
fn gltf_small_file_imports() {
    let i = gltf_import::import(deep_gltf(3, 2).as_bytes(), None, &ImportOptions::default())
        .expect("the 3-node file is valid");
    assert_eq!(i.skeleton.len(), 3);
}

#[test]
fn gltf_huge_accessor_count_is_an_error_before_allocation() {
    let e = gltf_error(&deep_gltf(3, 4_000_000_000), &ImportOptions::default());
    assert!(
        e.contains("count 4000000000") && e.contains("Limits::max_accessor_values"),
        "{e}"
    );
}

#[test]
fn gltf_node_tree_100k_deep_is_an_error_and_imports_with_raised_limits() {
    let text = deep_gltf(100_000, 2);
    let e = gltf_error(&text, &ImportOptions::default());
    assert!(
        e.contains("depth 1001") && e.contains("Limits::max_depth"),
        "{e}"
    );
    let opts = ImportOptions {
        limits: Limits::UNLIMITED,
        ..ImportOptions::default()
    };
    let imported = gltf_import::import(text.as_bytes(), None, &opts).expect("unlimited");
    assert_eq!(imported.skeleton.len(), 100_000);
    let world = imported.clip.frames[0].world_transforms(&imported.skeleton);
    assert!(
        world
            .iter()
            .all(|t| t.translation.vector.iter().all(|v| v.is_finite()))
    );
}

#[test]
fn gltf_more_nodes_than_the_limit_is_an_error() {
    let opts = ImportOptions {
        limits: Limits {
            max_nodes: 50,
            ..Limits::DEFAULT
        },
        ..ImportOptions::default()
    };
    let e = gltf_error(&deep_gltf(51, 2), &opts);
    assert!(
        e.contains("51 nodes") && e.contains("Limits::max_nodes"),
        "{e}"
    );
}

/// A URDF chain of `n` links.
fn chain_urdf(n: usize) -> String {
    let mut s = String::from("<robot name=\"chain\">\n");
    for i in 0..n {
        s.push_str(&format!(
            "<link name=\"l{i}\"><inertial><mass value=\"1\"/><inertia ixx=\"0.1\" iyy=\"0.1\" izz=\"0.1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>\n"
        ));
    }
    for i in 1..n {
        s.push_str(&format!(
            "<joint name=\"j{i}\" type=\"continuous\"><parent link=\"l{}\"/><child link=\"l{i}\"/><origin xyz=\"0 0 0.1\"/><axis xyz=\"0 1 0\"/></joint>\n",
            i - 1
        ));
    }
    s.push_str("</robot>\n");
    s
}

fn urdf_error(text: &str, opts: &ImportOptions) -> String {
    match urdf::import(text.as_bytes(), opts) {
        Ok(u) => panic!("accepted: {} joints", u.imported.skeleton.len()),
        Err(e) => e.to_string(),
    }
}

#[test]
fn urdf_link_chains_past_the_limits_are_errors() {
    let e = urdf_error(&chain_urdf(2_000), &ImportOptions::default());
    assert!(
        e.contains("link chain depth 1001") && e.contains("Limits::max_depth"),
        "{e}"
    );
    let e = urdf_error(&chain_urdf(12_000), &ImportOptions::default());
    assert!(
        e.contains("12000 links") && e.contains("Limits::max_joints"),
        "{e}"
    );
    let opts = ImportOptions {
        limits: Limits {
            max_depth: 5_000,
            ..Limits::DEFAULT
        },
        ..ImportOptions::default()
    };
    let u = urdf::import(chain_urdf(2_000).as_bytes(), &opts).expect("raised depth");
    assert_eq!(u.imported.skeleton.len(), 2_000);
}

#[test]
fn urdf_xml_nested_100k_deep_is_an_error_not_a_stack_overflow() {
    let text = format!(
        "<robot name=\"r\"><link name=\"a\"/>{}{}</robot>",
        "<x>".repeat(100_000),
        "</x>".repeat(100_000)
    );
    let e = urdf_error(&text, &ImportOptions::default());
    assert!(
        e.contains("nesting depth") && e.contains("Limits::max_depth"),
        "{e}"
    );
}

#[test]
fn a_preprocessing_rate_above_the_maximum_is_a_config_error() {
    use flinch::control::{Character, CharacterConfig};
    let imported = flinch::io::load_embedded_walk(&ImportOptions::default()).unwrap();
    let mut config = CharacterConfig::default();
    // Found by the fuzz smoke (fuzz/regressions/ffi_character_config/rate_1e6.json): seconds of preprocessing,
    // gigabytes for a longer clip.
    config.preprocess.rate_hz = 1e6;
    let e = match Character::from_imported(imported, &config) {
        Ok(_) => panic!("a 1 MHz rate was accepted"),
        Err(e) => e.to_string(),
    };
    assert!(e.contains("rate_hz") && e.contains("10000"), "{e}");
}

#[test]
fn a_bvh_line_of_20000_tokens_parses_in_linear_time() {
    // Found by the fuzz smoke (fuzz/regressions/bvh/long_joint_name.bvh): each token's column was counted from
    // the line start. The name keeps its 20 001 words; an error on the line still gives the right column.
    let name = format!("Spine {}", vec!["0"; 20_000].join(" "));
    let text = deep_bvh(2, 2).replace("JOINT j1", &format!("JOINT {name}"));
    let imported = bvh::parse(text.as_bytes(), &ImportOptions::default()).expect("parses");
    assert_eq!(imported.skeleton.joints[1].name, name);
    let bad = text.replace(&format!("JOINT {name}"), &format!("JOINT {name} {{ x"));
    let e = bvh_error(&bad, &ImportOptions::default());
    let column = "JOINT ".len() + name.len() + " { ".len() + 1;
    assert!(
        e.contains(&format!("column {column}")),
        "{e} (expected column {column})"
    );
}
