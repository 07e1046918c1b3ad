//! The URDF importer's error type: every variant says what went wrong and where (file, link or joint).

use std::path::PathBuf;

/// Why a URDF file could not be imported.
#[derive(Debug, thiserror::Error)]
pub enum UrdfError {
    /// The file could not be read.
    #[error("{path}: cannot read: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating-system error.
        source: std::io::Error,
    },
    /// An error inside a named file (wraps the error found while importing its bytes).
    #[error("{path}: {source}")]
    InFile {
        /// The file.
        path: PathBuf,
        /// What went wrong in it.
        source: Box<UrdfError>,
    },
    /// The bytes are not UTF-8 text (URDF is XML, which flinch reads as UTF-8).
    #[error("byte {offset}: not UTF-8 text ({what})")]
    Encoding {
        /// Byte offset of the first invalid sequence.
        offset: usize,
        /// What the decoder expected.
        what: String,
    },
    /// The XML or URDF structure was rejected by the parser (`urdf_rs`); the message is the parser's, the
    /// position flinch's (the parser gives one only for XML syntax errors).
    #[error("{}URDF parse error: {message}", position(*.line, *.column))]
    Parse {
        /// 1-based line of the error, when it could be located.
        line: Option<usize>,
        /// 1-based column (characters) of the error, when it could be located.
        column: Option<usize>,
        /// The parser's own message.
        message: String,
    },
    /// The parser panicked on this input; the panic was caught and turned into this error.
    #[error("URDF parser failed internally on this input: {message}")]
    ParserPanic {
        /// The panic payload, when it was a string.
        message: String,
    },
    /// A link is invalid (duplicate name, bad mass or inertia, bad geometry).
    #[error("link '{link}': {what}")]
    Link {
        /// The link's name.
        link: String,
        /// What is wrong.
        what: String,
    },
    /// A joint is invalid (unknown parent/child, bad axis, bad limits, bad origin).
    #[error("joint '{joint}': {what}")]
    Joint {
        /// The joint's name.
        joint: String,
        /// What is wrong.
        what: String,
    },
    /// An import option cannot be used (e.g. a non-positive unit factor).
    #[error("import option: {what}")]
    Option {
        /// What is wrong.
        what: String,
    },
    /// The link/joint graph is not a single tree (no links, several roots, a cycle, a link with two parents).
    #[error("robot structure: {what}")]
    Structure {
        /// What is wrong.
        what: String,
    },
}

/// `line L, column C: ` or nothing.
fn position(line: Option<usize>, column: Option<usize>) -> String {
    match (line, column) {
        (Some(l), Some(c)) => format!("line {l}, column {c}: "),
        (Some(l), None) => format!("line {l}: "),
        _ => String::new(),
    }
}

impl UrdfError {
    /// A [`UrdfError::Link`] error.
    pub(crate) fn link(link: &str, what: impl Into<String>) -> UrdfError {
        UrdfError::Link {
            link: link.to_string(),
            what: what.into(),
        }
    }

    /// A [`UrdfError::Joint`] error.
    pub(crate) fn joint(joint: &str, what: impl Into<String>) -> UrdfError {
        UrdfError::Joint {
            joint: joint.to_string(),
            what: what.into(),
        }
    }

    /// A [`UrdfError::Structure`] error.
    pub(crate) fn structure(what: impl Into<String>) -> UrdfError {
        UrdfError::Structure { what: what.into() }
    }
}
