//! glTF 2.0 import (`.gltf` with embedded or external buffers, `.glb`): a skin's joints become a flinch
//! [`Skeleton`](crate::skeleton::Skeleton), one animation becomes a resampled [`Clip`](crate::skeleton::Clip).
//!
//! Mapping (details and per-file results in `docs/gltf.md`):
//! - **Joints** = the joints of the skin with the most joints (ties: the first), plus every node between them
//!   and their lowest common ancestor, ordered parents first. Without a skin, the nodes the animation targets
//!   are used. When the nodes share no ancestor, a synthetic root `__root` is added.
//! - **Root**: its offset and rest rotation include the accumulated transforms of its non-joint ancestors (and
//!   any animation of them), so world positions match the glTF scene.
//! - `Joint.offset` = rest translation, `Joint.rest_rotation` = rest rotation; a frame stores
//!   `rotations[j] = rest_rotation⁻¹ · animated rotation` and the animated (or rest) translation.
//! - **Scale**: each joint's rest scale is reduced to a uniform factor (geometric mean; warned when not
//!   uniform) and folded into its descendants' offsets; animated scale is ignored with a warning.
//! - **Channels**: `Zrotation Xrotation Yrotation` on every joint, plus `X/Y/Zposition` on the root and on
//!   joints whose translation is animated away from the rest offset.
//! - **Resampling**: at [`ImportOptions::sample_rate`](crate::io::ImportOptions); when it is `None`, at the
//!   animation's own key times if they are uniform (e.g. the Fox Walk, 24 fps), else at 30 fps.
//! - **Units**: glTF is metres, but when the rest pose spans more than 10 units along any axis and no unit is
//!   given, centimetres are assumed with a warning (the Fox).

pub(crate) mod accessor;
pub(crate) mod build;
pub(crate) mod container;
mod error;
pub(crate) mod hierarchy;
mod sampler;
mod timeline;
mod tracks;

use std::path::Path;

pub use build::{CM_THRESHOLD, MAX_POSE_ENTRIES, SYNTHETIC_ROOT};
pub use error::GltfImportError;
pub use sampler::{Interpolation, Track};
pub use timeline::{DEFAULT_SAMPLE_RATE, MAX_FRAMES};

use crate::io::{ImportOptions, ImportReport, Imported, Limits, UpAxis};
use tracks::{NodeTracks, animation_label, read_animation};

/// Which glTF elements an import used: for tools that go back to the file (exporters, tests).
#[derive(Debug, Clone, PartialEq)]
pub struct GltfMapping {
    /// The glTF node of each skeleton joint (`None` for the synthetic root).
    pub joint_nodes: Vec<Option<usize>>,
    /// The skin used, if any.
    pub skin: Option<usize>,
    /// The animation used, if any.
    pub animation: Option<usize>,
}

/// A parsed, validated document with its resolved buffers (shared with the exporter's `GltfSource`).
pub(crate) struct Loaded {
    /// The validated document.
    pub doc: ::gltf::Document,
    /// Each buffer's bytes, or why they are unavailable.
    pub buffers: Vec<container::BufferData>,
    /// True for GLB input.
    pub is_glb: bool,
}

/// Parses and validates the JSON.
///
/// Two gaps in gltf-json 1.4 are closed first: its validation skips animation channels (target node index and
/// path), which the `gltf` wrappers then unwrap, and its mesh-primitive check indexes `accessors` with the
/// POSITION attribute's index unchecked (a panic on a corrupt index). Both are checked here beforehand.
fn parse_document(json: &[u8]) -> Result<::gltf::Document, GltfImportError> {
    let root: ::gltf::json::Root = ::gltf::json::deserialize::from_slice(json)
        .map_err(|e| GltfImportError::Json(e.to_string()))?;
    let mut errors = Vec::new();
    for (a, anim) in root.animations.iter().enumerate() {
        for (c, channel) in anim.channels.iter().enumerate() {
            let node = channel.target.node.value();
            if node >= root.nodes.len() {
                errors.push(format!(
                    "animations[{a}].channels[{c}].target.node: {node} is out of range ({} nodes)",
                    root.nodes.len()
                ));
            }
            if matches!(
                channel.target.path,
                ::gltf::json::validation::Checked::Invalid
            ) {
                errors.push(format!(
                    "animations[{a}].channels[{c}].target.path: expected translation, rotation, scale or weights"
                ));
            }
        }
    }
    for (m, mesh) in root.meshes.iter().enumerate() {
        for (p, prim) in mesh.primitives.iter().enumerate() {
            let position =
                ::gltf::json::validation::Checked::Valid(::gltf::json::mesh::Semantic::Positions);
            if let Some(index) = prim.attributes.get(&position) {
                if index.value() >= root.accessors.len() {
                    errors.push(format!(
                        "meshes[{m}].primitives[{p}].attributes.POSITION: accessor {} is out of range ({} accessors)",
                        index.value(),
                        root.accessors.len()
                    ));
                }
            }
        }
    }
    if !errors.is_empty() {
        return Err(GltfImportError::Json(errors.join("; ")));
    }
    ::gltf::Document::from_json(root).map_err(|e| GltfImportError::Json(e.to_string()))
}

/// Splits the container, parses and validates the JSON, and resolves every buffer.
pub(crate) fn load(bytes: &[u8], base_dir: Option<&Path>) -> Result<Loaded, GltfImportError> {
    let c = container::split(bytes)?;
    let doc = parse_document(c.json)?;
    let buffers = container::resolve_buffers(&doc, c.bin, base_dir);
    Ok(Loaded {
        doc,
        buffers,
        is_glb: c.is_glb,
    })
}

/// The animations of a glTF / GLB file, in file order: their names, or `#<index>` when unnamed.
pub fn animation_names(bytes: &[u8]) -> Result<Vec<String>, GltfImportError> {
    let c = container::split(bytes)?;
    let doc = parse_document(c.json)?;
    Ok(doc.animations().map(|a| animation_label(&a)).collect())
}

/// Imports a glTF (JSON) or GLB file held in memory. `base_dir` is the folder external buffers are relative
/// to (`None`: external buffers are an error).
pub fn import(
    bytes: &[u8],
    base_dir: Option<&Path>,
    opts: &ImportOptions,
) -> Result<Imported, GltfImportError> {
    import_mapped(bytes, base_dir, opts).map(|(imported, _)| imported)
}

/// Reads and imports a `.gltf` / `.glb` file; external buffers are looked up next to it. Errors name the file.
pub fn import_file(path: &Path, opts: &ImportOptions) -> Result<Imported, GltfImportError> {
    let bytes = std::fs::read(path).map_err(|source| GltfImportError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    import(&bytes, path.parent(), opts).map_err(|e| GltfImportError::InFile {
        path: path.to_path_buf(),
        source: Box::new(e),
    })
}

/// Picks the animation asked for: by exact name first, then by index; `None` asks for the first.
fn pick_animation<'a>(
    doc: &'a ::gltf::Document,
    wanted: Option<&str>,
) -> Result<Option<::gltf::Animation<'a>>, GltfImportError> {
    let Some(w) = wanted else {
        return Ok(doc.animations().next());
    };
    let by_name = doc.animations().find(|a| a.name() == Some(w));
    let by_index = || {
        w.trim()
            .parse::<usize>()
            .ok()
            .and_then(|i| doc.animations().nth(i))
    };
    by_name
        .or_else(by_index)
        .map(Some)
        .ok_or_else(|| GltfImportError::NoSuchAnimation {
            requested: w.to_string(),
            available: doc
                .animations()
                .map(|a| format!("{}:{}", a.index(), animation_label(&a)))
                .collect::<Vec<_>>()
                .join(", "),
        })
}

/// Like [`import`], also returning which nodes, skin and animation were used.
pub fn import_mapped(
    bytes: &[u8],
    base_dir: Option<&Path>,
    opts: &ImportOptions,
) -> Result<(Imported, GltfMapping), GltfImportError> {
    import_loaded(&load(bytes, base_dir)?, opts)
}

/// [`import_mapped`] on an already loaded document.
pub(crate) fn import_loaded(
    loaded: &Loaded,
    opts: &ImportOptions,
) -> Result<(Imported, GltfMapping), GltfImportError> {
    let doc = &loaded.doc;
    let mut report = ImportReport::new(if loaded.is_glb { "glb" } else { "gltf" });
    let warnings = &mut report.warnings;

    let limits = &opts.limits;
    let hierarchy = hierarchy::Hierarchy::new(doc, limits)?;
    let animation = pick_animation(doc, opts.animation.as_deref())?;
    let (tracks, morph_channels) = match &animation {
        Some(a) => read_animation(a, hierarchy.parent.len(), &loaded.buffers, limits, warnings)?,
        None => (vec![NodeTracks::default(); hierarchy.parent.len()], 0),
    };
    let label = animation.as_ref().map(animation_label).unwrap_or_default();
    if morph_channels > 0 {
        warnings.push(format!(
            "animation '{label}': {morph_channels} morph-target weights channel(s) ignored (flinch animates joints only)"
        ));
    }

    // The skin with most joints; ties keep the first.
    let skin = doc
        .skins()
        .fold(None::<::gltf::Skin<'_>>, |best, s| match best {
            Some(b) if b.joints().len() >= s.joints().len() => Some(b),
            _ => Some(s),
        });
    let seeds: Vec<usize> = match &skin {
        Some(s) => s.joints().map(|n| n.index()).collect(),
        None => tracks
            .iter()
            .enumerate()
            .filter(|(_, t)| t.translation.is_some() || t.rotation.is_some() || t.scale.is_some())
            .map(|(i, _)| i)
            .collect(),
    };
    if seeds.is_empty() {
        return Err(GltfImportError::NoSkeleton);
    }
    if seeds.len() > limits.max_joints {
        return Err(GltfImportError::Option {
            option: "limits",
            what: Limits::exceeded(
                format!("{} skeleton joints", seeds.len()),
                "max_joints",
                limits.max_joints,
            ),
        });
    }
    if let Some(s) = &skin {
        let n_skins = doc.skins().len();
        if n_skins > 1 {
            let joint_set: Vec<usize> = seeds.clone();
            let others_outside = doc
                .skins()
                .filter(|o| o.index() != s.index())
                .flat_map(|o| o.joints().map(|n| n.index()).collect::<Vec<_>>())
                .filter(|n| !joint_set.contains(n))
                .count();
            warnings.push(format!(
                "{n_skins} skins: using skin {} ('{}', {} joints, the most){}",
                s.index(),
                s.name().unwrap_or_default(),
                seeds.len(),
                if others_outside == 0 {
                    "; the other skins' joints are all included".to_string()
                } else {
                    format!("; {others_outside} joint reference(s) of other skins are not imported")
                }
            ));
        }
    }
    let selection = hierarchy.select(&seeds);

    // Tracks that move the skeleton: its joints and the root's ancestors.
    let mut moving: Vec<usize> = selection.order.clone();
    if let Some(r) = selection.root {
        moving.extend(hierarchy.ancestors(r));
    }
    let ignored: Vec<String> = tracks
        .iter()
        .enumerate()
        .filter(|(i, t)| {
            !moving.contains(i)
                && (t.translation.is_some() || t.rotation.is_some() || t.scale.is_some())
        })
        .map(|(i, _)| hierarchy.names.get(i).cloned().unwrap_or_default())
        .collect();
    if !ignored.is_empty() {
        warnings.push(format!(
            "animation '{label}': channels on {} node(s) outside the skeleton ignored: {}",
            ignored.len(),
            ignored.join(", ")
        ));
    }
    let used: Vec<&Track> = moving
        .iter()
        .filter_map(|&n| tracks.get(n))
        .flat_map(|t| [&t.translation, &t.rotation, &t.scale])
        .filter_map(Option::as_ref)
        .collect();
    let timeline = timeline::timeline(&used, opts.sample_rate, &label, limits.max_frames)?;

    let up = opts.up_axis.unwrap_or(UpAxis::Y);
    let built = build::build(
        &hierarchy, &selection, &tracks, &timeline, up, opts.unit, limits, warnings,
    )?;
    report.unit = built.unit;
    report.unit_inferred = opts.unit.is_none();
    report.up_axis = up;
    report.up_inferred = false;
    let mapping = GltfMapping {
        joint_nodes: built.joint_nodes,
        skin: skin.map(|s| s.index()),
        animation: animation.map(|a| a.index()),
    };
    Ok((
        Imported {
            skeleton: built.skeleton,
            clip: built.clip,
            report,
        },
        mapping,
    ))
}

/// The inverse bind matrices of skin `skin` (one per skin joint, in the file's units and axes), or identities
/// when the skin has none (as glTF specifies). For exporters and bind-pose checks.
pub fn inverse_bind_matrices(
    bytes: &[u8],
    base_dir: Option<&Path>,
    skin: usize,
) -> Result<Vec<nalgebra::Matrix4<f64>>, GltfImportError> {
    let loaded = load(bytes, base_dir)?;
    let s = loaded
        .doc
        .skins()
        .nth(skin)
        .ok_or_else(|| GltfImportError::Option {
            option: "skin",
            what: format!(
                "skin {skin} does not exist ({} skins)",
                loaded.doc.skins().len()
            ),
        })?;
    let n = s.joints().len();
    let Some(acc) = s.inverse_bind_matrices() else {
        return Ok(vec![nalgebra::Matrix4::identity(); n]);
    };
    let ctx = format!("skin {skin} inverseBindMatrices");
    let raw = accessor::read_f64(
        &acc,
        &[::gltf::accessor::Dimensions::Mat4],
        &loaded.buffers,
        &ctx,
        &Limits::DEFAULT,
    )?;
    if raw.len() != 16 * n {
        return Err(GltfImportError::Accessor {
            context: ctx,
            index: acc.index(),
            what: format!("{} matrices, expected one per joint ({n})", raw.len() / 16),
        });
    }
    // Column-major, as glTF stores matrices.
    Ok(raw
        .chunks_exact(16)
        .map(nalgebra::Matrix4::from_column_slice)
        .collect())
}
