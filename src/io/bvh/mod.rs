//! BVH (Biovision Hierarchy): flinch's own parser and writer.
//!
//! - [`parse`] reads a file's bytes into a [`Skeleton`](crate::skeleton::Skeleton) and
//!   [`Clip`](crate::skeleton::Clip) in metres, Y up, inferring the unit and up axis (see [`units`]) and
//!   flagging cgspeed's leading T-pose frame.
//! - [`parse_document`] gives the file's raw content (names, offsets, channels, values as written) for tools and
//!   tests that need the numbers before unit conversion.
//! - [`write()`] / [`write_file`] write any clip on a skeleton back to BVH text, in metres Y up or in the source
//!   unit and up axis.
//!
//! The accepted grammar, the inference rules and their results on the corpus are in `docs/bvh.md`. The parser
//! never panics: every problem is a [`BvhError`] with line and column, or a warning in the import report.

mod convert;
mod hierarchy;
mod motion;
mod number;
#[cfg(test)]
mod tests;
mod tokenizer;
mod tpose;
pub mod units;
mod writer;

use std::path::{Path, PathBuf};

pub use hierarchy::{MAX_CHANNELS, RawJoint};
pub use motion::RawMotion;
pub use tpose::jump_statistics;
pub use writer::{MIN_DECIMALS, WriteOptions, write, write_file};

use crate::io::{ImportOptions, Imported, Limits};

/// A parse error: where (1-based line and column, columns in characters) and what was expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct BvhError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column in characters (a tab counts as one).
    pub column: usize,
    /// What was expected and what was found.
    pub message: String,
}

/// Reading a BVH file from disk failed.
#[derive(Debug, thiserror::Error)]
pub enum BvhFileError {
    /// The file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file's content is not valid BVH.
    #[error("{path}: {source}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// Line, column and what was expected.
        source: BvhError,
    },
}

/// A BVH file's content exactly as written: file units, file axes, degrees.
#[derive(Debug, Clone, PartialEq)]
pub struct BvhDocument {
    /// Joints in file (depth-first) order.
    pub joints: Vec<RawJoint>,
    /// The MOTION section, `None` when the file ends after the hierarchy.
    pub motion: Option<RawMotion>,
    /// Non-fatal problems (frame-count mismatch, truncated last frame), each saying where.
    pub warnings: Vec<String>,
}

impl BvhDocument {
    /// Values per motion line (sum of the joints' channel counts).
    pub fn channel_count(&self) -> usize {
        self.joints.iter().map(|j| j.channels.len()).sum()
    }

    /// Number of complete frames read (0 without a MOTION section).
    pub fn frame_count(&self) -> usize {
        self.motion.as_ref().map_or(0, |m| m.frames)
    }

    /// The raw values of frame `i` (channels in file order), `None` past the end. Empty for channel-less files.
    pub fn frame(&self, i: usize) -> Option<&[f64]> {
        let m = self.motion.as_ref()?;
        if i >= m.frames {
            return None;
        }
        let n = self.channel_count();
        m.values.get(i * n..(i + 1) * n)
    }
}

/// Parses BVH bytes into their raw content, without unit or axis conversion, within the default [`Limits`].
pub fn parse_document(bytes: &[u8]) -> Result<BvhDocument, BvhError> {
    parse_document_with(bytes, &Limits::DEFAULT)
}

/// [`parse_document`] within `limits` (joints, nesting depth, frames, values; an exceeded limit is an error at
/// the joint or line that crosses it).
pub fn parse_document_with(bytes: &[u8], limits: &Limits) -> Result<BvhDocument, BvhError> {
    let mut cur = tokenizer::Cursor::new(bytes);
    let joints = hierarchy::parse_hierarchy(&mut cur, limits)?;
    let channel_count = joints.iter().map(|j| j.channels.len()).sum();
    let mut warnings = Vec::new();
    let motion = motion::parse_motion(&mut cur, channel_count, limits, &mut warnings)?;
    // Each frame becomes one pose per joint, channels or not.
    let frames = motion.as_ref().map_or(0, |m| m.frames);
    if frames.saturating_mul(joints.len()) > limits.max_pose_values {
        return Err(cur.error_here(Limits::exceeded(
            format!("{frames} frames × {} joints", joints.len()),
            "max_pose_values",
            limits.max_pose_values,
        )));
    }
    Ok(BvhDocument {
        joints,
        motion,
        warnings,
    })
}

/// Parses BVH bytes into a skeleton and clip in metres, Y up (see the module docs for the inference rules).
pub fn parse(bytes: &[u8], opts: &ImportOptions) -> Result<Imported, BvhError> {
    convert::build(parse_document_with(bytes, &opts.limits)?, opts)
}

/// Reads and parses a BVH file.
pub fn parse_file(path: impl AsRef<Path>, opts: &ImportOptions) -> Result<Imported, BvhFileError> {
    let path = path.as_ref();
    let bytes = std::fs::read(path).map_err(|source| BvhFileError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    parse(&bytes, opts).map_err(|source| BvhFileError::Parse {
        path: path.to_path_buf(),
        source,
    })
}
