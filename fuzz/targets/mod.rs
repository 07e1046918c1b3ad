//! The fuzz target bodies, shared by the libFuzzer binaries (`fuzz/fuzz_targets/*.rs`, nightly `cargo fuzz`)
//! and the stable fuzz smoke of `cargo test` (`fuzz/smoke`, compiled into flinch-ffi's unit tests). Each body
//! takes arbitrary bytes and must return without panicking, in bounded time and memory, whatever they are:
//! errors are fine, and every successful import is pushed further (forward kinematics, model building, a BVH
//! write and re-read) so that what a parser accepts is also safe downstream.
//!
//! The including module provides nothing but the crate `flinch_core` (the core library) in scope and, for the
//! C ABI targets, the `flinch_*` symbols at link time (declared here as a C client would).

#![allow(dead_code)]

use flinch_core::bake::HitScript;
use flinch_core::control::CharacterConfig;
use flinch_core::io::bvh::{self, WriteOptions};
use flinch_core::io::{ImportOptions, Imported, gltf_import, urdf};
use flinch_core::model::{BuildConfig, Model};

/// A target: a name (the libFuzzer binary and seed folder) and its body.
pub struct Target {
    /// Name of the target (`fuzz/fuzz_targets/<name>.rs`, seeds in `fuzz/seeds/<name>/`).
    pub name: &'static str,
    /// The body.
    pub run: fn(&[u8]),
    /// The kind of input, for the smoke's structure-aware mutations.
    pub kind: InputKind,
}

/// What an input looks like, so a mutator can pick useful tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputKind {
    /// BVH text.
    Bvh,
    /// glTF JSON or GLB binary.
    Gltf,
    /// URDF (XML) text.
    Urdf,
    /// JSON or TOML configuration text.
    Config,
    /// A format byte, then clip bytes of that format.
    FormatAndClip,
}

/// Every target, in a fixed order.
pub const TARGETS: &[Target] = &[
    Target {
        name: "bvh",
        run: bvh,
        kind: InputKind::Bvh,
    },
    Target {
        name: "gltf",
        run: gltf,
        kind: InputKind::Gltf,
    },
    Target {
        name: "urdf",
        run: urdf,
        kind: InputKind::Urdf,
    },
    Target {
        name: "hits",
        run: hits,
        kind: InputKind::Config,
    },
    Target {
        name: "character_config",
        run: character_config,
        kind: InputKind::Config,
    },
    Target {
        name: "ffi_clip_memory",
        run: ffi_clip_memory,
        kind: InputKind::FormatAndClip,
    },
    Target {
        name: "ffi_character_config",
        run: ffi_character_config,
        kind: InputKind::Config,
    },
    Target {
        name: "level",
        run: level,
        kind: InputKind::Gltf,
    },
    Target {
        name: "view_message",
        run: view_message,
        kind: InputKind::Config,
    },
];

/// A `flinch view` client message (JSON) and a pose frame: the parser, the validation and the frame decoder
/// must refuse what they do not accept without panicking; an accepted message survives a JSON round trip, a
/// decoded frame re-encodes to the same bytes; the request guards read any path and header.
pub fn view_message(data: &[u8]) {
    use flinch_core::view_protocol::frame::Frame;
    use flinch_core::view_protocol::guard::{host_allowed, origin_allowed, rig_index, split_path};
    use flinch_core::view_protocol::parse_client_message;
    if let Ok(m) = parse_client_message(data) {
        let text = serde_json::to_string(&m).expect("a parsed message serialises");
        assert_eq!(parse_client_message(text.as_bytes()), Ok(m));
    }
    if let Ok(frame) = Frame::decode(data) {
        assert_eq!(frame.encode(), data);
    }
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = split_path(text);
        let _ = rig_index(text);
        let _ = host_allowed(Some(text), 8940, Some("example"));
        let _ = origin_allowed(Some(text), 8940, None);
    }
}

/// What a successful import feeds: forward kinematics of the first and last frames, the physical model with
/// the default configuration, and for small clips a BVH write of a few frames read back.
fn downstream(imported: &Imported) {
    let sk = &imported.skeleton;
    let frames = &imported.clip.frames;
    for pose in frames.first().into_iter().chain(frames.last()) {
        let _ = pose.world_transforms(sk);
    }
    let _ = Model::from_skeleton(sk, &BuildConfig::default());
    if sk.len() <= 200 {
        let mut clip = imported.clip.clone();
        clip.frames.truncate(3);
        let text = bvh::write(sk, &clip, &WriteOptions::default());
        let _ = bvh::parse(text.as_bytes(), &ImportOptions::default());
    }
}

/// BVH: the raw document and the converted import.
pub fn bvh(data: &[u8]) {
    if let Ok(doc) = bvh::parse_document(data) {
        let _ = doc.frame(doc.frame_count().saturating_sub(1));
    }
    if let Ok(imported) = bvh::parse(data, &ImportOptions::default()) {
        downstream(&imported);
    }
}

/// glTF JSON or GLB bytes (no base directory: external buffers are reported missing).
pub fn gltf(data: &[u8]) {
    if let Ok(imported) = gltf_import::import(data, None, &ImportOptions::default()) {
        downstream(&imported);
    }
}

/// A level (glTF / GLB bytes): loaded under tight limits, every collider added to a level, then probed and ray
/// cast, so what the loader accepts is also safe to collide with.
pub fn level(data: &[u8]) {
    use flinch_core::level::{Level, LoadOptions, load_level};
    use nalgebra::Vector3;
    let mut opts = LoadOptions::default();
    opts.limits.max_triangles = 100_000;
    opts.limits.max_accessor_values = 1 << 20;
    let Ok(file) = load_level(data, None, &opts) else {
        return;
    };
    let mut level = Level::new();
    level.set_max_triangles(100_000);
    for d in &file.colliders {
        let _ = level.add(d.clone());
    }
    for p in [
        Vector3::zeros(),
        Vector3::new(0.3, 0.5, -0.2),
        Vector3::new(5.0, 1.0, 2.0),
    ] {
        level.probe(&p, 0.05, 0.02, 1.0 / 120.0, (u32::MAX, u32::MAX), |t| {
            assert!(t.normal.iter().all(|x| x.is_finite()) && t.gap.is_finite());
        });
        let _ = level.cast_ray(&(p + Vector3::y() * 3.0), &-Vector3::y(), 10.0, u32::MAX);
        let _ = level.cast_sphere(
            &(p + Vector3::y() * 3.0),
            0.1,
            &-Vector3::y(),
            10.0,
            u32::MAX,
        );
    }
}

/// URDF bytes.
pub fn urdf(data: &[u8]) {
    if let Ok(u) = urdf::import(data, &ImportOptions::default()) {
        downstream(&u.imported);
    }
}

/// A hits file as JSON and as TOML.
pub fn hits(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = HitScript::from_json(text);
    let _ = HitScript::from_toml(text);
}

/// A character configuration as JSON and as TOML; the model part is built on a small real skeleton.
pub fn character_config(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for config in [
        CharacterConfig::from_json(text),
        CharacterConfig::from_toml(text),
    ]
    .into_iter()
    .flatten()
    {
        let _ = Model::from_skeleton(&small_clip().skeleton, &config.model);
    }
}

/// A small real clip (the first frames of the embedded CMU walk), parsed once.
fn small_clip() -> &'static Imported {
    static CLIP: std::sync::OnceLock<Imported> = std::sync::OnceLock::new();
    CLIP.get_or_init(|| {
        let mut imported = flinch_core::io::load_embedded_walk(&ImportOptions::default())
            .expect("the embedded walk loads");
        imported.clip.frames.truncate(8);
        imported
    })
}

/// The C ABI's handle layout (`FlinchClip`, `FlinchCharacter`: `{ uint64_t id; }`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct Handle {
    /// The generational id (0 is never valid).
    pub id: u64,
}

// The C ABI as a C client sees it (include/flinch.h); `FlinchStatus` is a C enum, an `int`.
unsafe extern "C" {
    fn flinch_clip_load_memory(
        data: *const u8,
        len: usize,
        format: i32,
        name: *const std::ffi::c_char,
        out: *mut Handle,
    ) -> i32;
    fn flinch_clip_destroy(clip: Handle) -> i32;
    fn flinch_clip_joint_count(clip: Handle, out: *mut usize) -> i32;
    fn flinch_clip_duration(clip: Handle, out: *mut f64) -> i32;
    fn flinch_character_create(
        clip: Handle,
        config_json: *const std::ffi::c_char,
        out: *mut Handle,
    ) -> i32;
    fn flinch_character_destroy(character: Handle) -> i32;
    fn flinch_last_error() -> *const std::ffi::c_char;
}

/// `flinch_last_error()` must be a readable string after every failing call.
fn check_last_error(status: i32) {
    if status != 0 {
        // SAFETY: flinch_last_error returns a NUL-terminated thread-local string, valid until the next call.
        let msg = unsafe { std::ffi::CStr::from_ptr(flinch_last_error()) };
        assert!(
            !msg.to_bytes().is_empty(),
            "status {status} without a message"
        );
    }
}

/// `flinch_clip_load_memory`: the first byte picks the format (0 BVH, 1 glTF, 2 GLB, 3 URDF, anything else an
/// invalid value), the rest is the clip. A loaded clip is queried and destroyed twice (the second must fail).
pub fn ffi_clip_memory(data: &[u8]) {
    let Some((&format, bytes)) = data.split_first() else {
        return;
    };
    let format = i32::from(format % 5);
    let mut clip = Handle::default();
    // SAFETY: `bytes` is valid for its length; the name is a NUL-terminated literal; `clip` is writable.
    let status = unsafe {
        flinch_clip_load_memory(
            bytes.as_ptr(),
            bytes.len(),
            format,
            c"fuzz".as_ptr(),
            &mut clip,
        )
    };
    check_last_error(status);
    if status != 0 {
        return;
    }
    let (mut joints, mut duration) = (0usize, 0f64);
    // SAFETY: the outputs are writable.
    unsafe {
        assert_eq!(flinch_clip_joint_count(clip, &mut joints), 0);
        assert_eq!(flinch_clip_duration(clip, &mut duration), 0);
        assert_eq!(flinch_clip_destroy(clip), 0);
    }
    assert!(
        joints > 0 && duration >= 0.0,
        "{joints} joints, duration {duration}"
    );
    let again = flinch_clip_destroy_status(clip);
    assert_ne!(again, 0, "a destroyed clip must be reported");
    check_last_error(again);
}

fn flinch_clip_destroy_status(clip: Handle) -> i32 {
    // SAFETY: handles are plain values; a stale one is reported, never dereferenced.
    unsafe { flinch_clip_destroy(clip) }
}

/// `flinch_character_create` with a fuzzed `config_json` on a small real clip (8 frames of the CMU walk).
pub fn ffi_character_config(data: &[u8]) {
    static CLIP: std::sync::OnceLock<Handle> = std::sync::OnceLock::new();
    let clip = *CLIP.get_or_init(|| {
        let text = bvh::write(
            &small_clip().skeleton,
            &small_clip().clip,
            &WriteOptions::default(),
        );
        let mut clip = Handle::default();
        // SAFETY: the text is valid for its length; `clip` is writable.
        let status = unsafe {
            flinch_clip_load_memory(text.as_ptr(), text.len(), 0, std::ptr::null(), &mut clip)
        };
        assert_eq!(status, 0, "the small clip loads");
        clip
    });
    // A C string stops at the first NUL.
    let end = data.iter().position(|&b| b == 0).unwrap_or(data.len());
    let mut json = data.get(..end).unwrap_or_default().to_vec();
    json.push(0);
    let mut character = Handle::default();
    // SAFETY: `json` is NUL-terminated; `character` is writable.
    let status = unsafe { flinch_character_create(clip, json.as_ptr().cast(), &mut character) };
    check_last_error(status);
    if status == 0 {
        // SAFETY: a live handle.
        assert_eq!(unsafe { flinch_character_destroy(character) }, 0);
    }
}
