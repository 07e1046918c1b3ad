"""Type stubs of the flinch package."""

import os
from typing import Any, Optional, Sequence, Tuple, Union

from . import errors as errors
from ._flinch import BakeResult as BakeResult
from ._flinch import Character as Character
from ._flinch import Clip as Clip
from ._flinch import HitEvent as HitEvent
from ._flinch import Scene as Scene
from ._flinch import __version__ as __version__
from ._flinch import cpu_report as cpu_report
from ._flinch import load as load
from .errors import ConfigError as ConfigError
from .errors import FlinchError as FlinchError
from .errors import FlinchIOError as FlinchIOError
from .errors import InvalidArgumentError as InvalidArgumentError
from .errors import MissingDependencyError as MissingDependencyError
from .errors import ParseError as ParseError
from .errors import SimulationError as SimulationError
from .errors import StaleHandleError as StaleHandleError
from .errors import UnknownBoneError as UnknownBoneError

_Path = Union[str, "os.PathLike[str]"]

RIGHT_FOREARM_NAMES: Tuple[str, ...]

def bake(
    input: Optional[_Path],
    output: _Path,
    hits: Any = None,
    *,
    rate: float = 120.0,
    config: Any = None,
    simulated: bool = False,
    threads: Optional[int] = None,
    unit: Optional[str] = None,
    up: Optional[str] = None,
    drop_tpose: bool = False,
    animation: Optional[str] = None,
    onto: Optional[_Path] = None,
    map: Optional[_Path] = None,
) -> BakeResult:
    """Bakes a clip with scripted hits into an animation file, byte-identical to ``flinch bake`` (``onto``: to
    ``flinch bake --onto``)."""

def export_usd(
    source: Union[Clip, BakeResult, _Path],
    path: _Path,
    *,
    name: Optional[str] = None,
    require_motion: bool = True,
    **load_options: Any,
) -> str:
    """Writes a clip (a Clip, a bake's result or a clip file) as UsdSkel (needs usd-core), atomically."""

def find_bone(
    joint_names: Sequence[str],
    candidates: Sequence[str] = ...,
    words: Sequence[Sequence[str]] = ...,
) -> Optional[str]:
    """The right forearm (by default) among ``joint_names``, or None."""
