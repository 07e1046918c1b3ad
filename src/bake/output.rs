//! Writing a baked clip: BVH (the input's hierarchy, channels, rotation orders, unit and up axis) or glTF/GLB.

use std::path::Path;

use crate::io::ImportReport;
use crate::io::bvh::{WriteOptions, write_file};
use crate::io::gltf_export::{GltfSource, GltfWriteOptions};
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
    /// skins and materials and replaces its animations with the baked one. `None`: glTF output is the skeleton
    /// with a generated bone mesh.
    pub gltf: Option<&'a GltfSource>,
}

/// Writes `clip` on `skeleton` to `path` (format by extension), atomically.
pub fn write_baked(
    path: &Path,
    skeleton: &Skeleton,
    clip: &Clip,
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
            let opts = if source.report.format == "bvh" {
                WriteOptions::source(source.report)
            } else {
                WriteOptions::default()
            };
            write_file(path, skeleton, clip, &opts).map_err(|e| format!("{}: {e}", path.display()))
        }
        OutputFormat::Gltf | OutputFormat::Glb => {
            let opts = GltfWriteOptions {
                animation_name: "flinch_reacted".into(),
                ..GltfWriteOptions::default()
            };
            crate::io::gltf_export::write_file(path, skeleton, clip, source.gltf, &opts)
                .map_err(|e| e.to_string())
        }
    }
}
