//! glTF 2.0 export (`.glb`, or a self-contained `.gltf`): a [`Skeleton`] and its [`Clip`] as node
//! animation, either into a copy of the source glTF (its meshes, skins, materials and textures kept, so the
//! character itself is seen moving) or, without a source (BVH input), as joint nodes plus a generated
//! octahedral bone mesh.
//!
//! Conventions (details in `docs/gltf.md`, "Export"):
//! - The source's own animations are kept (every accessor they use stays referenced) and the written clips are
//!   added after them, each an animation of its own.
//! - LINEAR, one key per clip frame at `frame × frame_time` seconds; a rotation channel on
//!   every joint node and a translation channel on the root (and the synthetic root's children) and on every
//!   joint whose translation leaves its rest value.
//! - With a source, values go back to the source's units, up axis and node-local TRS: the inverse of the
//!   importer (the root's non-joint ancestors, node scales folded into offsets, the synthetic `__root`).
//! - Non-finite input is an error and nothing is written.

mod animation;
mod bin;
mod bones;
mod error;
mod merge;
mod node_tracks;
pub(crate) mod pack;
pub(crate) mod skeleton_doc;
mod source;

use std::path::Path;

pub use error::GltfExportError;
pub use source::{GltfSource, load_source, load_source_file};

use crate::skeleton::{Clip, Skeleton};

/// How to write.
#[derive(Debug, Clone, PartialEq)]
pub struct GltfWriteOptions {
    /// GLB (one binary file) when true; a `.gltf` JSON file with the buffer as a base64 data URI when false.
    /// [`write_file`] decides this from the file extension instead.
    pub binary: bool,
    /// Name of the written animation ([`write`] and [`write_file`]; [`write_animations`] names each clip).
    pub animation_name: String,
}

impl Default for GltfWriteOptions {
    fn default() -> Self {
        GltfWriteOptions {
            binary: true,
            animation_name: "flinch".to_string(),
        }
    }
}

/// One clip to write as an animation of its own.
#[derive(Debug, Clone, Copy)]
pub struct NamedClip<'a> {
    /// The animation's name. When the source already has an animation of that name, the written one is
    /// renamed `NAME 2`, `NAME 3`, … (see [`unique_name`]).
    pub name: &'a str,
    /// The clip, on the skeleton being written.
    pub clip: &'a Clip,
}

/// `name`, or `name 2`, `name 3`, … : the first not in `taken`.
pub fn unique_name(name: &str, taken: &[String]) -> String {
    if !taken.iter().any(|t| t == name) {
        return name.to_string();
    }
    (2..)
        .map(|k| format!("{name} {k}"))
        .find(|n| !taken.iter().any(|t| t == n))
        .unwrap_or_else(|| name.to_string())
}

/// Writes `clip` on `skeleton` as glTF bytes (GLB or JSON per [`GltfWriteOptions::binary`]), as one animation
/// named [`GltfWriteOptions::animation_name`]: [`write_animations`] with one clip.
pub fn write(
    skeleton: &Skeleton,
    clip: &Clip,
    source: Option<&GltfSource>,
    opts: &GltfWriteOptions,
) -> Result<Vec<u8>, GltfExportError> {
    let named = [NamedClip {
        name: &opts.animation_name,
        clip,
    }];
    write_animations(skeleton, &named, source, opts)
}

/// Writes `clips` on `skeleton` as glTF bytes (GLB or JSON per [`GltfWriteOptions::binary`]), one animation
/// per clip, in order.
///
/// With `source` (from [`load_source`] of the file the skeleton was imported from), the output is the source
/// document with the clips added after its own animations, which are kept (dropping them would orphan their
/// accessors and bytes); the skeleton must be that import's (same joints, names,
/// parents). Without, a skeleton-only document with a generated bone mesh is written.
pub fn write_animations(
    skeleton: &Skeleton,
    clips: &[NamedClip<'_>],
    source: Option<&GltfSource>,
    opts: &GltfWriteOptions,
) -> Result<Vec<u8>, GltfExportError> {
    if clips.is_empty() {
        return Err(GltfExportError::Mismatch("no clip to write".into()));
    }
    for named in clips {
        node_tracks::check_clip(skeleton, named.clip)?;
    }
    let (doc, bin) = match source {
        Some(src) => merge::source_document(skeleton, clips, src)?,
        None => skeleton_doc::skeleton_document(skeleton, clips)?,
    };
    pack::pack(doc, bin, opts.binary)
}

/// Writes `path` atomically (temporary file + rename): GLB when its extension is `.glb` (any case), a
/// self-contained `.gltf` otherwise; `opts.binary` is ignored. On any error nothing is written.
pub fn write_file(
    path: &Path,
    skeleton: &Skeleton,
    clip: &Clip,
    source: Option<&GltfSource>,
    opts: &GltfWriteOptions,
) -> Result<(), GltfExportError> {
    let named = [NamedClip {
        name: &opts.animation_name,
        clip,
    }];
    write_animations_file(path, skeleton, &named, source, opts)
}

/// [`write_animations`] into `path`, atomically: GLB when its extension is `.glb` (any case), a
/// self-contained `.gltf` otherwise; `opts.binary` is ignored. On any error nothing is written.
pub fn write_animations_file(
    path: &Path,
    skeleton: &Skeleton,
    clips: &[NamedClip<'_>],
    source: Option<&GltfSource>,
    opts: &GltfWriteOptions,
) -> Result<(), GltfExportError> {
    let binary = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("glb"));
    let opts = GltfWriteOptions {
        binary,
        ..opts.clone()
    };
    let bytes = write_animations(skeleton, clips, source, &opts)?;
    crate::io::write_atomic(path, &bytes).map_err(|source| GltfExportError::Io {
        path: path.to_path_buf(),
        source,
    })
}
