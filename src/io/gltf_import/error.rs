//! The glTF importer's error type: every variant says where (element index and name) and what was expected.

use std::path::PathBuf;

use crate::skeleton::SkeletonError;

/// Why a glTF / GLB file could not be imported.
#[derive(Debug, thiserror::Error)]
pub enum GltfImportError {
    /// The file could not be read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// An error inside a named file (wraps any other variant with the file path).
    #[error("{}: {source}", path.display())]
    InFile {
        /// The file.
        path: PathBuf,
        /// What went wrong inside it.
        source: Box<GltfImportError>,
    },
    /// The GLB container (header and chunks) is malformed.
    #[error("GLB container, byte {offset}: {what}")]
    Glb {
        /// Byte offset of the problem in the file.
        offset: usize,
        /// What was expected.
        what: String,
    },
    /// The JSON does not parse or does not validate against the glTF 2.0 schema (the message carries the JSON
    /// path or line/column).
    #[error("glTF JSON: {0}")]
    Json(String),
    /// A buffer could not be resolved (missing BIN chunk, bad data URI, missing external file, too short).
    #[error("buffer {index}: {what}")]
    Buffer {
        /// Buffer index.
        index: usize,
        /// What was expected.
        what: String,
    },
    /// An image's external file could not be read (only the exporter reads images, to embed them).
    #[error("image {index}: {what}")]
    Image {
        /// Image index.
        index: usize,
        /// What was expected.
        what: String,
    },
    /// An accessor's data is out of range or of an unsupported layout.
    #[error("{context}: accessor {index}: {what}")]
    Accessor {
        /// Who was reading it, e.g. `skin 0 inverseBindMatrices` or `animation 'Walk' channel 3 output`.
        context: String,
        /// Accessor index.
        index: usize,
        /// What was expected.
        what: String,
    },
    /// An animation channel or sampler is inconsistent (key counts, times, values).
    #[error("animation '{animation}' channel {channel}: {what}")]
    Animation {
        /// Animation name (or `#index` when unnamed).
        animation: String,
        /// Channel index within the animation.
        channel: usize,
        /// What was expected.
        what: String,
    },
    /// The requested animation does not exist.
    #[error("no animation {requested:?} (available: {available})")]
    NoSuchAnimation {
        /// The name or index asked for.
        requested: String,
        /// The animations in the file, `index:name` separated by commas.
        available: String,
    },
    /// The node hierarchy is not a forest (a node with two parents, or a cycle).
    #[error("node {node}: {what}")]
    Hierarchy {
        /// Node index.
        node: usize,
        /// What is wrong.
        what: String,
    },
    /// A node's rest transform cannot be used (non-finite, singular matrix, zero quaternion).
    #[error("node {node} ('{name}'): {what}")]
    Transform {
        /// Node index.
        node: usize,
        /// Node name (empty when unnamed).
        name: String,
        /// What is wrong.
        what: String,
    },
    /// Nothing to build a skeleton from: no skin and no animated node.
    #[error("no skeleton: the file has no skin and the animation targets no node")]
    NoSkeleton,
    /// An option is out of range.
    #[error("option {option}: {what}")]
    Option {
        /// The option name.
        option: &'static str,
        /// What was expected.
        what: String,
    },
    /// The joint list did not form a valid skeleton (should not happen: the importer orders parents first).
    #[error("skeleton: {0}")]
    Skeleton(#[from] SkeletonError),
}
