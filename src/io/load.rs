//! Format dispatch: load any supported file (or in-memory bytes) into an [`Imported`] skeleton and clip.

use std::path::{Path, PathBuf};

use super::{ImportOptions, Imported};

/// A file format flinch reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Biovision hierarchy (`.bvh`).
    Bvh,
    /// glTF 2.0, JSON (`.gltf`).
    Gltf,
    /// glTF 2.0, binary (`.glb`).
    Glb,
    /// Unified Robot Description Format (`.urdf`).
    Urdf,
}

impl Format {
    /// The format of a path, from its extension (case-insensitive).
    pub fn from_path(path: &Path) -> Option<Format> {
        Format::from_name(path.extension()?.to_str()?)
    }

    /// The format named by an extension or name: `bvh`, `gltf`, `glb`, `urdf`.
    pub fn from_name(name: &str) -> Option<Format> {
        match name.trim_start_matches('.').to_ascii_lowercase().as_str() {
            "bvh" => Some(Format::Bvh),
            "gltf" => Some(Format::Gltf),
            "glb" => Some(Format::Glb),
            "urdf" => Some(Format::Urdf),
            _ => None,
        }
    }
}

/// Why a file could not be loaded. The message names the file and, from the parsers, the place in it.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// The file could not be read.
    #[error("{}: cannot read: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// The extension names no supported format.
    #[error("{name}: unknown format (expected .bvh, .gltf, .glb or .urdf)")]
    UnknownFormat {
        /// The file name.
        name: String,
    },
    /// The BVH parser rejected the file.
    #[error("{name}: {source}")]
    Bvh {
        /// The file name.
        name: String,
        /// Where and what.
        source: super::bvh::BvhError,
    },
    /// The glTF importer rejected the file.
    #[error("{name}: {source}")]
    Gltf {
        /// The file name.
        name: String,
        /// Where and what.
        source: super::gltf_import::GltfImportError,
    },
    /// The URDF importer rejected the file.
    #[error("{name}: {source}")]
    Urdf {
        /// The file name.
        name: String,
        /// Where and what.
        source: super::urdf::UrdfError,
    },
}

/// Loads a file, choosing the format from its extension.
pub fn load_file(path: &Path, opts: &ImportOptions) -> Result<Imported, ImportError> {
    let name = path.display().to_string();
    let format =
        Format::from_path(path).ok_or_else(|| ImportError::UnknownFormat { name: name.clone() })?;
    let bytes = std::fs::read(path).map_err(|source| ImportError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    load_bytes(&bytes, format, &name, path.parent(), opts)
}

/// Loads in-memory bytes of a known format. `name` is used in messages; `base_dir` resolves a `.gltf`'s external
/// buffers (`None`: only embedded buffers are allowed).
pub fn load_bytes(
    bytes: &[u8],
    format: Format,
    name: &str,
    base_dir: Option<&Path>,
    opts: &ImportOptions,
) -> Result<Imported, ImportError> {
    let name = name.to_string();
    match format {
        Format::Bvh => {
            super::bvh::parse(bytes, opts).map_err(|source| ImportError::Bvh { name, source })
        }
        Format::Gltf | Format::Glb => super::gltf_import::import(bytes, base_dir, opts)
            .map_err(|source| ImportError::Gltf { name, source }),
        Format::Urdf => super::urdf::import(bytes, opts)
            .map(|u| u.imported)
            .map_err(|source| ImportError::Urdf { name, source }),
    }
}

/// The clip embedded in the library: CMU subject 2, trial 1, a walk (cgspeed BVH; see `samples/data/README.md`
/// for its licence and the requested acknowledgement).
pub const EMBEDDED_WALK_BVH: &[u8] = include_bytes!("../../samples/data/cmu_02_01_walk.bvh");

/// Name of the embedded clip, as shown in messages.
pub const EMBEDDED_WALK_NAME: &str = "cmu_02_01_walk.bvh (embedded)";

/// Loads the embedded CMU walk.
pub fn load_embedded_walk(opts: &ImportOptions) -> Result<Imported, ImportError> {
    load_bytes(
        EMBEDDED_WALK_BVH,
        Format::Bvh,
        EMBEDDED_WALK_NAME,
        None,
        opts,
    )
}
