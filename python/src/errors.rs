//! flinch errors as Python exceptions. The classes live in python/flinch/errors.py (so they can also derive from
//! the matching built-in: `ParseError` is a `ValueError`, `FlinchIOError` an `OSError`, ...); this module picks
//! the class of each Rust error.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyType;

use flinch_core::bake::BakeError;
use flinch_core::control::CharacterError;
use flinch_core::io::ImportError;
use flinch_core::scene::SceneError;

/// The exception class of an error (a class name in `flinch.errors`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A file could not be read or written.
    Io,
    /// A file could not be understood.
    Parse,
    /// A configuration or hits script is invalid.
    Config,
    /// A bone name is not in the skeleton.
    UnknownBone,
    /// An argument is out of range.
    Argument,
    /// The simulation failed.
    Simulation,
    /// A character moved into a scene, or a removed key.
    Stale,
}

impl Kind {
    fn class_name(self) -> &'static str {
        match self {
            Kind::Io => "FlinchIOError",
            Kind::Parse => "ParseError",
            Kind::Config => "ConfigError",
            Kind::UnknownBone => "UnknownBoneError",
            Kind::Argument => "InvalidArgumentError",
            Kind::Simulation => "SimulationError",
            Kind::Stale => "StaleHandleError",
        }
    }
}

/// A `flinch.errors` exception of `kind` with `message` (a `RuntimeError` if that module cannot be imported).
pub fn error(kind: Kind, message: impl Into<String>) -> PyErr {
    let message = message.into();
    Python::attach(|py| {
        let class = py
            .import("flinch.errors")
            .and_then(|m| m.getattr(kind.class_name()))
            .and_then(|c| c.cast_into::<PyType>().map_err(PyErr::from));
        match class {
            Ok(class) => PyErr::from_type(class, message),
            Err(_) => PyRuntimeError::new_err(message),
        }
    })
}

/// The kind of an import error.
pub fn import_kind(e: &ImportError) -> Kind {
    match e {
        ImportError::Read { .. } => Kind::Io,
        ImportError::UnknownFormat { .. } => Kind::Argument,
        _ => Kind::Parse,
    }
}

/// The kind of a character error.
pub fn character_kind(e: &CharacterError) -> Kind {
    match e {
        CharacterError::UnknownBone(_) => Kind::UnknownBone,
        CharacterError::Argument(_) => Kind::Argument,
        CharacterError::Model(_) | CharacterError::Gains { .. } => Kind::Config,
        _ => Kind::Simulation,
    }
}

/// A character error as a Python exception.
pub fn character(e: CharacterError) -> PyErr {
    error(character_kind(&e), e.to_string())
}

/// A scene error as a Python exception (`what` names the key for stale ones).
pub fn scene(e: SceneError, what: &str) -> PyErr {
    match e {
        SceneError::StaleCharacter | SceneError::StaleBall => error(
            Kind::Stale,
            format!("{what} is not in this scene (removed or stale)"),
        ),
        SceneError::Argument(m) => error(Kind::Argument, m),
        SceneError::Character(c) => character(c),
        SceneError::Level(flinch_core::level::LevelError::StaleCollider(k)) => error(
            Kind::Stale,
            format!("collider {k:#x} is not in this scene (removed or stale)"),
        ),
        SceneError::Level(l) => error(Kind::Argument, l.to_string()),
    }
}

/// A bake error as a Python exception.
pub fn bake(e: BakeError) -> PyErr {
    let kind = match e.cause() {
        BakeError::Read(_) | BakeError::Write(_) => Kind::Io,
        BakeError::Input(_) => Kind::Parse,
        BakeError::Script(_) => Kind::Config,
        BakeError::Scene(SceneError::Character(c)) => character_kind(c),
        BakeError::Scene(SceneError::Argument(_)) => Kind::Argument,
        _ => Kind::Simulation,
    };
    error(kind, e.to_string())
}
