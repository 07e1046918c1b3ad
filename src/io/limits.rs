//! Resource limits of the importers: how big a file may make flinch's in-memory skeleton and clip.
//!
//! A few bytes can declare a billion frames, a million joints or an accessor of 2³² elements; a pipeline running
//! unattended on thousands of files must get an error for such a file, not an abort, an out-of-memory kill or a
//! stack overflow. Every importer checks its input against [`Limits`] *before* allocating for it, and reports an
//! exceeded limit with the name of the field to raise (`Limits::max_frames`, ...). The defaults are two orders of
//! magnitude above the largest real file we know (173 joints, 3070 frames, depth 13 in the corpus), so they only
//! stop absurd input; raise them in [`ImportOptions::limits`](super::ImportOptions::limits) when needed.
//!
//! Nothing reached from a file recurses on the file's nesting depth (the parsers, skeleton building, forward
//! kinematics, model building and the exporters all walk trees with loops over parent-first arrays or explicit
//! stacks), so `max_depth` bounds work and memory, not the call stack.

/// Upper bounds on what an imported file may declare or contain. See the module docs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most skeleton joints (BVH `ROOT`/`JOINT`s, glTF skeleton joints, URDF links). Default 10 000.
    pub max_joints: usize,
    /// Most glTF nodes or URDF links and joints in a file, skeleton or not. Default 100 000.
    pub max_nodes: usize,
    /// Deepest joint or node hierarchy (the root has depth 1; BVH braces, glTF node trees, URDF link chains and
    /// URDF/XML element nesting). Default 1 000.
    pub max_depth: usize,
    /// Most frames of a clip: a BVH's `Frames:` as declared and as read, or a glTF animation resampled at its
    /// rate. Default 1 000 000 (2.3 hours at 120 fps).
    pub max_frames: usize,
    /// Most joint poses of a clip (frames × joints) and most numbers of a BVH MOTION section (frames × channels).
    /// Default 10 000 000 (a few hundred MB in memory).
    pub max_pose_values: usize,
    /// Most numbers one glTF accessor may expand to (count × components). Default 2²⁴ (16 777 216).
    pub max_accessor_values: usize,
    /// Most triangles of a level (`crate::level`: meshes and height fields, in one file or added in all).
    /// Default 10 000 000 (a few hundred MB of collision mesh).
    pub max_triangles: usize,
}

impl Limits {
    /// The default limits (see each field).
    pub const DEFAULT: Limits = Limits {
        max_joints: 10_000,
        max_nodes: 100_000,
        max_depth: 1_000,
        max_frames: 1_000_000,
        max_pose_values: 10_000_000,
        max_accessor_values: 1 << 24,
        max_triangles: 10_000_000,
    };

    /// No limits (every field `usize::MAX`): for trusted input only.
    pub const UNLIMITED: Limits = Limits {
        max_joints: usize::MAX,
        max_nodes: usize::MAX,
        max_depth: usize::MAX,
        max_frames: usize::MAX,
        max_pose_values: usize::MAX,
        max_accessor_values: usize::MAX,
        max_triangles: usize::MAX,
    };

    /// The message of an exceeded limit: `what` (e.g. "Frames: 1000000000") is over `limit` of `field`.
    pub fn exceeded(what: impl std::fmt::Display, field: &str, limit: usize) -> String {
        format!(
            "{what} exceeds the limit of {limit} (Limits::{field}; raise it in ImportOptions::limits)"
        )
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::DEFAULT
    }
}
