"""Exceptions raised by flinch.

Every error flinch raises is a :class:`FlinchError`; each class also derives from the matching built-in
exception, so ``except OSError`` or ``except ValueError`` keep working in generic code.
"""

__all__ = [
    "FlinchError",
    "FlinchIOError",
    "ParseError",
    "ConfigError",
    "UnknownBoneError",
    "InvalidArgumentError",
    "SimulationError",
    "StaleHandleError",
    "MissingDependencyError",
]


class FlinchError(Exception):
    """Base class of every flinch error; the message says where (file, line, hit) and what."""


class FlinchIOError(FlinchError, OSError):
    """A file could not be read or written (missing input, missing output folder, permissions)."""


class ParseError(FlinchError, ValueError):
    """A clip file could not be understood (the message gives the file and the place in it)."""


class ConfigError(FlinchError, ValueError):
    """A character configuration or hits script is invalid (the message gives the entry, e.g. ``hits[1]``)."""


class UnknownBoneError(FlinchError, LookupError):
    """A bone name is not in the clip's skeleton."""


class InvalidArgumentError(FlinchError, ValueError):
    """An argument is out of range (non-finite vector, non-positive rate or time step, unknown extension)."""


class SimulationError(FlinchError, RuntimeError):
    """The simulation failed (a singular step, a diverging character)."""


class StaleHandleError(FlinchError, LookupError):
    """A character moved into a scene, or a removed character or ball key, was used."""


class MissingDependencyError(FlinchError, ImportError):
    """An optional dependency is not installed (``flinch.export_usd`` needs Pixar's ``usd-core``); the message
    says what to install."""
