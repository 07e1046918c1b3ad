//! A hand-built glTF (JSON here, base64 buffer) with STEP, LINEAR and CUBICSPLINE samplers, checked against the
//! analytic values at mid-interval; the same asset as an external `.bin` and as a GLB; clear errors.

use flinch::io::ImportOptions;
use flinch::io::gltf_import::{GltfImportError, import, import_file};
use flinch::math::{Axis, axis_rotation, rotation_distance};
use nalgebra::Vector3;

/// Minimal RFC 4648 base64 encoder (the test's own, so the importer's decoder is checked against it).
fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(A[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

const TIMES: [f32; 3] = [0.0, 1.0, 3.0];
const VALUES: [[f32; 3]; 3] = [[0.0, 0.0, 0.0], [1.0, 2.0, 3.0], [5.0, -1.0, 0.5]];
/// (in-tangent, value, out-tangent) per key.
const CUBIC: [[f32; 3]; 9] = [
    [0.0, 0.0, 0.0],
    [0.0, 0.0, 0.0],
    [1.0, 0.0, 0.0],
    [0.0, 0.0, 0.0],
    [1.0, 2.0, 3.0],
    [2.0, -1.0, 0.0],
    [-1.0, 0.0, 1.0],
    [5.0, -1.0, 0.5],
    [0.0, 0.0, 0.0],
];
/// Rotation angles about z at the three keys.
const ANGLES: [f64; 3] = [0.0, 0.5, 1.5];

fn quat(angle: f64) -> [f32; 4] {
    let q = axis_rotation(Axis::Z, angle);
    [q.i as f32, q.j as f32, q.k as f32, q.w as f32]
}

/// The buffer: times (12 B), linear values (36), cubic values (108), rotations (48), cubic rotations (144).
fn buffer() -> Vec<u8> {
    let mut f: Vec<f32> = TIMES.to_vec();
    f.extend(VALUES.iter().flatten());
    f.extend(CUBIC.iter().flatten());
    f.extend(ANGLES.iter().flat_map(|&a| quat(a)));
    // Cubic rotation with zero tangents.
    for &a in &ANGLES {
        f.extend([0.0; 4]);
        f.extend(quat(a));
        f.extend([0.0; 4]);
    }
    f.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// The glTF JSON with the given buffer object (`"uri": ...` or nothing for GLB).
fn json(buffer_entry: &str) -> String {
    let len = buffer().len();
    format!(
        r#"{{
  "asset": {{"version": "2.0"}},
  "scene": 0,
  "scenes": [{{"nodes": [0]}}],
  "nodes": [
    {{"name": "hip", "children": [1], "translation": [0, 1, 0]}},
    {{"name": "knee", "translation": [0, -0.5, 0]}}
  ],
  "skins": [{{"joints": [0, 1]}}],
  "buffers": [{{"byteLength": {len}{buffer_entry}}}],
  "bufferViews": [{{"buffer": 0, "byteLength": {len}}}],
  "accessors": [
    {{"bufferView": 0, "byteOffset": 0, "componentType": 5126, "count": 3, "type": "SCALAR", "min": [0], "max": [3]}},
    {{"bufferView": 0, "byteOffset": 12, "componentType": 5126, "count": 3, "type": "VEC3"}},
    {{"bufferView": 0, "byteOffset": 48, "componentType": 5126, "count": 9, "type": "VEC3"}},
    {{"bufferView": 0, "byteOffset": 156, "componentType": 5126, "count": 3, "type": "VEC4"}},
    {{"bufferView": 0, "byteOffset": 204, "componentType": 5126, "count": 9, "type": "VEC4"}}
  ],
  "animations": [
    {{"name": "step", "samplers": [{{"input": 0, "output": 1, "interpolation": "STEP"}}],
      "channels": [{{"sampler": 0, "target": {{"node": 0, "path": "translation"}}}}]}},
    {{"name": "linear", "samplers": [{{"input": 0, "output": 1}}, {{"input": 0, "output": 3}}],
      "channels": [{{"sampler": 0, "target": {{"node": 0, "path": "translation"}}}},
                   {{"sampler": 1, "target": {{"node": 1, "path": "rotation"}}}}]}},
    {{"name": "cubic", "samplers": [{{"input": 0, "output": 2, "interpolation": "CUBICSPLINE"}},
                                    {{"input": 0, "output": 4, "interpolation": "CUBICSPLINE"}}],
      "channels": [{{"sampler": 0, "target": {{"node": 0, "path": "translation"}}}},
                   {{"sampler": 1, "target": {{"node": 1, "path": "rotation"}}}}]}},
    {{"name": "bad", "samplers": [{{"input": 0, "output": 1, "interpolation": "CUBICSPLINE"}}],
      "channels": [{{"sampler": 0, "target": {{"node": 0, "path": "translation"}}}}]}}
  ]
}}"#
    )
}

fn embedded() -> String {
    json(&format!(
        r#", "uri": "data:application/octet-stream;base64,{}""#,
        base64(&buffer())
    ))
}

fn opts(anim: &str, rate: Option<f64>) -> ImportOptions {
    ImportOptions {
        animation: Some(anim.into()),
        sample_rate: rate,
        ..Default::default()
    }
}

fn v(a: [f32; 3]) -> Vector3<f64> {
    Vector3::new(f64::from(a[0]), f64::from(a[1]), f64::from(a[2]))
}

/// Frames at 2 fps: 0, 0.5, …, 3 s; frame 4 is t = 2 s, the middle of the [1, 3] s interval.
const MID: usize = 4;

#[test]
fn step_holds_the_previous_key() {
    let imp = import(embedded().as_bytes(), None, &opts("step", Some(2.0))).unwrap();
    assert_eq!(imp.clip.frame_count(), 7);
    assert_eq!(imp.report.format, "gltf");
    let root = |k: usize| imp.clip.frames[k].translations[0];
    assert_eq!(root(1), v(VALUES[0]));
    assert_eq!(root(2), v(VALUES[1]));
    assert_eq!(root(MID), v(VALUES[1]));
    assert_eq!(root(6), v(VALUES[2]));
    // The root gets position channels, the unanimated knee does not.
    assert!(imp.skeleton.joints[0].has_position_channels());
    assert!(!imp.skeleton.joints[1].has_position_channels());
}

#[test]
fn linear_interpolates_and_slerps() {
    let imp = import(embedded().as_bytes(), None, &opts("linear", Some(2.0))).unwrap();
    let f = &imp.clip.frames[MID];
    let expected = (v(VALUES[1]) + v(VALUES[2])) * 0.5;
    assert!(
        (f.translations[0] - expected).norm() < 1e-12,
        "{:?}",
        f.translations[0]
    );
    // Slerp halfway from 0.5 to 1.5 rad about z: 1.0 rad; the knee's rest rotation is identity.
    let got = imp.skeleton.joints[1].rest_rotation * f.rotations[1];
    assert!(rotation_distance(&got, &axis_rotation(Axis::Z, 1.0)) < 1e-7);
    // Key times reproduce key values exactly.
    assert_eq!(imp.clip.frames[2].translations[0], v(VALUES[1]));
    // The keys (0, 1, 3 s) are not uniform, so without a rate the clip is resampled at 30 fps.
    let default = import(embedded().as_bytes(), None, &opts("linear", None)).unwrap();
    assert_eq!(default.clip.frame_count(), 91);
    assert!((default.clip.frame_rate() - 30.0).abs() < 1e-12);
}

#[test]
fn cubic_spline_matches_analytic_hermite_with_interval_scaled_tangents() {
    let imp = import(embedded().as_bytes(), None, &opts("cubic", Some(2.0))).unwrap();
    let f = &imp.clip.frames[MID];
    // Hermite on [1, 3] at s = 0.5: h00 = h01 = 1/2, h10 = 1/8, h11 = −1/8, tangents × (t1 − t0) = 2.
    let dt = 2.0;
    let expected = v(CUBIC[4]) * 0.5 + v(CUBIC[5]) * (0.125 * dt) + v(CUBIC[7]) * 0.5
        - v(CUBIC[6]) * (0.125 * dt);
    assert!((expected - Vector3::new(3.75, 0.25, 1.5)).norm() < 1e-12);
    assert!(
        (f.translations[0] - expected).norm() < 1e-12,
        "{:?} vs {expected:?}",
        f.translations[0]
    );
    // Zero tangents: the normalised Hermite blend of two rotations is symmetric, 1.0 rad at mid-interval.
    let got = imp.skeleton.joints[1].rest_rotation * f.rotations[1];
    assert!(rotation_distance(&got, &axis_rotation(Axis::Z, 1.0)) < 1e-7);
    // And without scaling the tangents the value would differ: the test can tell.
    let unscaled =
        v(CUBIC[4]) * 0.5 + v(CUBIC[5]) * 0.125 + v(CUBIC[7]) * 0.5 - v(CUBIC[6]) * 0.125;
    assert!((f.translations[0] - unscaled).norm() > 0.1);
}

#[test]
fn external_buffer_and_glb_give_the_same_clip() {
    let reference = import(embedded().as_bytes(), None, &opts("cubic", Some(2.0))).unwrap();
    let dir = std::env::temp_dir().join(format!("flinch_gltf_test_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("hand built.bin"), buffer()).unwrap();
    let path = dir.join("hand.gltf");
    std::fs::write(&path, json(r#", "uri": "hand%20built.bin""#)).unwrap();
    let external = import_file(&path, &opts("cubic", Some(2.0))).unwrap();
    assert_eq!(external.clip, reference.clip);
    // Without a base directory the external buffer is a clear error.
    let err = import(
        json(r#", "uri": "hand%20built.bin""#).as_bytes(),
        None,
        &opts("cubic", None),
    )
    .unwrap_err();
    assert!(err.to_string().contains("no base directory"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);

    // GLB: header, JSON chunk (space-padded), BIN chunk (zero-padded).
    let mut j = json("").into_bytes();
    while j.len() % 4 != 0 {
        j.push(b' ');
    }
    let mut bin = buffer();
    while bin.len() % 4 != 0 {
        bin.push(0);
    }
    let total = 12 + 8 + j.len() + 8 + bin.len();
    let mut glb = Vec::new();
    glb.extend_from_slice(b"glTF");
    glb.extend_from_slice(&2u32.to_le_bytes());
    glb.extend_from_slice(&(total as u32).to_le_bytes());
    glb.extend_from_slice(&(j.len() as u32).to_le_bytes());
    glb.extend_from_slice(b"JSON");
    glb.extend_from_slice(&j);
    glb.extend_from_slice(&(bin.len() as u32).to_le_bytes());
    glb.extend_from_slice(b"BIN\0");
    glb.extend_from_slice(&bin);
    let from_glb = import(&glb, None, &opts("cubic", Some(2.0))).unwrap();
    assert_eq!(from_glb.report.format, "glb");
    assert_eq!(from_glb.clip, reference.clip);
}

#[test]
fn errors_say_what_and_where() {
    let err = import(embedded().as_bytes(), None, &opts("bad", None)).unwrap_err();
    assert!(
        matches!(err, GltfImportError::Animation { channel: 0, .. }),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "animation 'bad' channel 0: sampler output has 3 keys, expected 9 (3 per input key for CUBICSPLINE)"
    );
    // A data URI of the wrong media type fails when the animation reads it, naming the buffer.
    let wrong = json(&format!(
        r#", "uri": "data:image/png;base64,{}""#,
        base64(&buffer())
    ));
    let err = import(wrong.as_bytes(), None, &opts("step", None)).unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("animation 'step' channel 0 input") && msg.contains("image/png"),
        "{msg}"
    );
    // A truncated buffer: accessors past its end.
    let short = json(&format!(
        r#", "uri": "data:application/gltf-buffer;base64,{}""#,
        base64(&buffer()[..100])
    ));
    let err = import(short.as_bytes(), None, &opts("step", None)).unwrap_err();
    assert!(err.to_string().contains("byteLength"), "{err}");
    // Bad JSON names line and column.
    let err = import(b"{ \"asset\": ", None, &ImportOptions::default()).unwrap_err();
    assert!(err.to_string().contains("line 1"), "{err}");
    // Rates must be positive.
    let err = import(embedded().as_bytes(), None, &opts("step", Some(0.0))).unwrap_err();
    assert!(err.to_string().contains("sample_rate"), "{err}");
}

#[test]
fn without_a_skin_the_animated_nodes_form_the_skeleton_under_a_synthetic_root() {
    // Same asset, no skin, and the two nodes made separate scene roots.
    let text = embedded()
        .replace(r#""skins": [{"joints": [0, 1]}],"#, "")
        .replace(r#""children": [1], "#, "")
        .replace(r#""nodes": [0]"#, r#""nodes": [0, 1]"#);
    let imp = import(text.as_bytes(), None, &opts("linear", Some(2.0))).unwrap();
    let names: Vec<&str> = imp
        .skeleton
        .joints
        .iter()
        .map(|j| j.name.as_str())
        .collect();
    assert_eq!(names, ["__root", "hip", "knee"]);
    assert_eq!(imp.skeleton.joints[2].parent, Some(0));
    // The knee now hangs from the origin.
    let world = flinch::skeleton::Pose::rest(&imp.skeleton).world_transforms(&imp.skeleton);
    assert!((world[2].translation.vector - Vector3::new(0.0, -0.5, 0.0)).norm() < 1e-12);
}

#[test]
fn z_up_option_turns_the_root() {
    let o = ImportOptions {
        up_axis: Some(flinch::io::UpAxis::Z),
        ..opts("step", Some(2.0))
    };
    let imp = import(embedded().as_bytes(), None, &o).unwrap();
    assert_eq!(imp.report.up_axis, flinch::io::UpAxis::Z);
    // (x, y, z) → (x, z, −y): the hip's rest offset (0, 1, 0) becomes (0, 0, −1), key (1, 2, 3) → (1, 3, −2).
    assert!((imp.skeleton.joints[0].offset - Vector3::new(0.0, 0.0, -1.0)).norm() < 1e-12);
    assert!((imp.clip.frames[MID].translations[0] - Vector3::new(1.0, 3.0, -2.0)).norm() < 1e-12);
}
