//! The glTF writer's error type: every variant says where (frame, joint, element) and what.

use std::path::PathBuf;

/// Why a glTF / GLB file could not be written. Nothing is written when any of these occurs.
#[derive(Debug, thiserror::Error)]
pub enum GltfExportError {
    /// The output file could not be written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// A clip value (or a value derived from it) is NaN, infinite, or does not fit an f32.
    #[error("frame {frame}, joint '{joint}': {what}")]
    NonFinite {
        /// Frame index in the clip.
        frame: usize,
        /// Joint name.
        joint: String,
        /// Which value.
        what: String,
    },
    /// Skeleton, clip and source do not belong together (joint counts, names, parents, frame layout).
    #[error("skeleton / clip / source mismatch: {0}")]
    Mismatch(String),
    /// The source document cannot be carried over (a singular ancestor transform, a malformed element).
    #[error("source glTF: {0}")]
    Source(String),
    /// The output exceeds a format limit (GLB lengths are 32-bit).
    #[error("output too large: {0}")]
    TooLarge(String),
}
