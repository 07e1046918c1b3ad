//! Writing a baked clip: BVH (the input's hierarchy, channels, rotation orders, unit and up axis) or glTF/GLB.

use std::path::Path;

use super::readback::{Readback, ReadbackPlan, read_back};
use crate::io::bvh::{WriteOptions, write_file};
use crate::io::gltf_export::{GltfSource, GltfWriteOptions, NamedClip, unique_name};
use crate::io::{ImportOptions, ImportReport, LengthUnit, UpAxis};
use crate::skeleton::{Clip, Skeleton};

/// The file formats a bake writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputFormat {
    /// BVH text.
    Bvh,
    /// glTF JSON with embedded buffers.
    Gltf,
    /// Binary glTF.
    Glb,
}

impl OutputFormat {
    /// The format of a file name's extension (case-insensitive).
    pub fn from_path(path: &Path) -> Option<OutputFormat> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        OutputFormat::from_name(&ext)
    }

    /// `bvh`, `gltf` or `glb`.
    pub fn from_name(name: &str) -> Option<OutputFormat> {
        match name.to_ascii_lowercase().as_str() {
            "bvh" => Some(OutputFormat::Bvh),
            "gltf" => Some(OutputFormat::Gltf),
            "glb" => Some(OutputFormat::Glb),
            _ => None,
        }
    }

    /// The file extension.
    pub fn extension(self) -> &'static str {
        match self {
            OutputFormat::Bvh => "bvh",
            OutputFormat::Gltf => "gltf",
            OutputFormat::Glb => "glb",
        }
    }
}

/// What the writer keeps from the input file.
#[derive(Debug, Clone, Copy)]
pub struct WriteSource<'a> {
    /// The importer's report: unit and up axis to write BVH back in.
    pub report: &'a ImportReport,
    /// A glTF/GLB input (from [`crate::io::gltf_export::load_source_file`]): glTF output keeps its meshes,
    /// skins, materials and animations and adds the baked ones. `None`: glTF output is the skeleton
    /// with a generated bone mesh.
    pub gltf: Option<&'a GltfSource>,
}

/// What a file bake writes besides the reacted clip, and what it is called.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OutputOptions {
    /// Name of the reacted animation in glTF output (default: the source clip's name + `_reacted`). A name the
    /// target file already uses gets ` 2`, ` 3`, … appended.
    pub name: Option<String>,
    /// Also write the unperturbed (retargeted) clip as a second animation, `NAME_unreacted` (glTF output only).
    pub keep_unreacted: bool,
}

/// Writes `clip` on `skeleton` to `path` (format by extension), atomically; in glTF one animation named
/// `flinch_reacted` joins the source's.
pub fn write_baked(
    path: &Path,
    skeleton: &Skeleton,
    clip: &Clip,
    source: WriteSource<'_>,
) -> Result<(), String> {
    let named = [NamedClip {
        name: "flinch_reacted",
        clip,
    }];
    write_baked_animations(path, skeleton, &named, source)
}

/// Writes `clips` on `skeleton` to `path` (format by extension), atomically: in glTF each clip is an animation
/// added after the source's own; a BVH file holds one clip, so BVH output takes exactly one.
pub fn write_baked_animations(
    path: &Path,
    skeleton: &Skeleton,
    clips: &[NamedClip<'_>],
    source: WriteSource<'_>,
) -> Result<(), String> {
    let format = OutputFormat::from_path(path).ok_or_else(|| {
        format!(
            "{}: unknown output format (use .bvh, .gltf or .glb)",
            path.display()
        )
    })?;
    match format {
        OutputFormat::Bvh => {
            let [named] = clips else {
                return Err(format!(
                    "{}: a BVH file holds one clip, {} were given (write .glb or .gltf to keep the unreacted clip too)",
                    path.display(),
                    clips.len()
                ));
            };
            let clip = named.clip;
            let opts = if source.report.format == "bvh" {
                WriteOptions::source(source.report)
            } else {
                WriteOptions::default()
            };
            write_file(path, skeleton, clip, &opts).map_err(|e| format!("{}: {e}", path.display()))
        }
        OutputFormat::Gltf | OutputFormat::Glb => crate::io::gltf_export::write_animations_file(
            path,
            skeleton,
            clips,
            source.gltf,
            &GltfWriteOptions::default(),
        )
        .map_err(|e| e.to_string()),
    }
}

/// What [`write_and_read_back`] wrote and read.
#[derive(Debug, Clone)]
pub(crate) struct Written {
    /// The reacted animation's name in the file (glTF; the clip name for BVH).
    pub animation: String,
    /// The file's figures, read back.
    pub readback: Readback,
}

/// The options that read a written file back as the skeleton it was written from: a glTF written into its source
/// document, or a BVH written in its source's unit and up axis, reads with those; the rest is metres, Y up.
fn readback_options(path: &Path, source: WriteSource<'_>, import: &ImportOptions) -> ImportOptions {
    let as_source = match OutputFormat::from_path(path) {
        Some(OutputFormat::Bvh) => source.report.format == "bvh",
        _ => source.gltf.is_some(),
    };
    let (unit, up_axis) = if as_source {
        (source.report.unit, source.report.up_axis)
    } else {
        (LengthUnit::Metre, UpAxis::Y)
    };
    ImportOptions {
        unit: Some(unit),
        up_axis: Some(up_axis),
        limits: import.limits,
        ..ImportOptions::default()
    }
}

/// Writes a bake to `path`: the reacted clip named per `options` (default `CLIP_reacted`), and with
/// `keep_unreacted` the unreacted clip as `NAME_unreacted`, after a glTF source's own animations; then reads the
/// file back with the importer and measures it per `plan`. A BVH output holds the reacted clip only.
#[allow(clippy::too_many_arguments)]
pub(crate) fn write_and_read_back(
    path: &Path,
    skeleton: &Skeleton,
    reacted: &Clip,
    unreacted: &Clip,
    clip_name: &str,
    options: &OutputOptions,
    source: WriteSource<'_>,
    import: &ImportOptions,
    plan: &ReadbackPlan,
) -> Result<Written, String> {
    let mut taken = source
        .gltf
        .map(GltfSource::animation_names)
        .unwrap_or_default();
    let requested = options
        .name
        .clone()
        .unwrap_or_else(|| format!("{clip_name}_reacted"));
    let name = unique_name(&requested, &taken);
    taken.push(name.clone());
    let unreacted_name = unique_name(&format!("{requested}_unreacted"), &taken);
    let mut clips = vec![NamedClip {
        name: &name,
        clip: reacted,
    }];
    if options.keep_unreacted {
        clips.push(NamedClip {
            name: &unreacted_name,
            clip: unreacted,
        });
    }
    write_baked_animations(path, skeleton, &clips, source)?;
    let is_bvh = OutputFormat::from_path(path) == Some(OutputFormat::Bvh);
    let animation = (!is_bvh).then_some(name.as_str());
    let opts = readback_options(path, source, import);
    let readback = read_back(path, animation, &opts, skeleton, plan)?;
    Ok(Written {
        animation: name,
        readback,
    })
}

/// `--keep-unreacted` needs a format with room for two clips: checked before any work.
pub(crate) fn check_keep_unreacted(output: &Path, options: &OutputOptions) -> Result<(), String> {
    if options.keep_unreacted && OutputFormat::from_path(output) == Some(OutputFormat::Bvh) {
        return Err(format!(
            "{}: a BVH file holds one clip; keeping the unreacted clip too needs .glb or .gltf output",
            output.display()
        ));
    }
    Ok(())
}
