"""flinch: physics-driven mocap middleware for Python.

A motion-captured clip (BVH, glTF/GLB, URDF) becomes a rigid-body character that replays it, reacts physically to
hits and returns to the clip (Cline 2002). Units are SI, the world is Y up.

>>> import flinch
>>> clip = flinch.load("walk.bvh")
>>> ch = flinch.Character(clip)
>>> ch.apply_impulse("RightForeArm", [6.0, 0.0, 0.0])
>>> while not ch.finished:
...     ch.step()
>>> rotations, translations = ch.pose()          # NumPy arrays (joints, 4) and (joints, 3)
>>> flinch.bake("walk.bvh", "walk_hit.bvh", hits={"hits": [...]})   # what `flinch bake` writes, byte for byte

See docs/python.md for the whole API, :mod:`flinch.batch` for batch bakes on Ray.
"""

import os
from typing import Any, Optional, Union

from . import errors
from ._flinch import BakeResult, Character, Clip, HitEvent, Scene, __version__, cpu_report, load
from ._flinch import bake_file as _bake_file
from .errors import (
    ConfigError,
    FlinchError,
    FlinchIOError,
    InvalidArgumentError,
    MissingDependencyError,
    ParseError,
    SimulationError,
    StaleHandleError,
    UnknownBoneError,
)
from .usd import export_usd

__all__ = [
    "BakeResult",
    "Character",
    "Clip",
    "HitEvent",
    "Scene",
    "bake",
    "cpu_report",
    "export_usd",
    "load",
    "find_bone",
    "errors",
    "ConfigError",
    "FlinchError",
    "FlinchIOError",
    "InvalidArgumentError",
    "MissingDependencyError",
    "ParseError",
    "SimulationError",
    "StaleHandleError",
    "UnknownBoneError",
    "__version__",
]

PathLike = Union[str, "os.PathLike[str]"]


def bake(
    input: Optional[PathLike],
    output: PathLike,
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
    onto: Optional[PathLike] = None,
    map: Optional[PathLike] = None,
    name: Optional[str] = None,
    keep_unreacted: bool = False,
) -> BakeResult:
    """Bakes a clip with scripted hits into an animation file, exactly as ``flinch bake INPUT -o OUTPUT``.

    ``input`` is a .bvh/.gltf/.glb file (None: the embedded CMU walk); ``output``'s extension picks the format
    (.bvh keeps a BVH input's layout, unit and up axis; .gltf/.glb keep a glTF input's meshes and skins).
    ``hits`` is a hits script: a dict (``{"hits": [...], "restitution": 0}``), a list of hit dicts, JSON text or
    the path of a .json/.toml hits file (see samples/HITS.md). ``config`` is a character configuration (dict,
    JSON text or file). ``threads`` bounds the preprocessing threads (1 when many clips bake at once). The output
    is written atomically: a failed bake leaves no file. Runs the same Rust function as the CLI, so the bytes are
    the CLI's.

    ``onto`` retargets the clip onto that character file first, as ``flinch bake INPUT --onto CHARACTER`` (a
    .glb/.gltf character keeps its meshes and skins in a glTF output; hits may name the clip's bones or the
    character's); ``map`` is its bone-map override file (``--map``). The result's ``clip`` is the baked clip in
    memory (on the character's skeleton with ``onto``): :func:`flinch.export_usd` writes it as UsdSkel.

    A glTF output keeps the file's own animations and adds the reacted one, named ``name`` (default
    ``<clip>_reacted``); ``keep_unreacted`` adds the unperturbed clip as ``<name>_unreacted``. The result's
    ``readback`` holds the figures of the written file read back (what ``flinch bake --check`` holds to limits).

    Raises FlinchIOError (unreadable input, missing output folder), ParseError, ConfigError (bad hits or config),
    UnknownBoneError (a hit names no bone), InvalidArgumentError, SimulationError.
    """
    if isinstance(hits, list):
        hits = {"hits": hits}
    return _bake_file(
        None if input is None else os.fspath(input),
        os.fspath(output),
        hits=hits,
        rate=rate,
        config=config,
        simulated=simulated,
        threads=threads,
        unit=unit,
        up=up,
        drop_tpose=drop_tpose,
        animation=animation,
        onto=None if onto is None else os.fspath(onto),
        map=None if map is None else os.fspath(map),
        name=name,
        keep_unreacted=keep_unreacted,
    )


# Right-forearm names of the skeleton conventions in the corpus (CMU/cgspeed, Mixamo, Daz, MakeHuman, Xsens).
# The semantic bone-role map (`role:right_forearm` in hits scripts) will replace this lookup.
RIGHT_FOREARM_NAMES = (
    "RightForeArm",
    "RightForearm",
    "mixamorig:RightForeArm",
    "rForeArm",
    "lowerarm01.R",
    "LoArm_R",
    "RightElbow",
)

_RIGHT_FOREARM_WORDS = (("right", ".r", "_r", "r_"), ("forearm", "lowerarm", "loarm", "elbow"))


def find_bone(joint_names, candidates=RIGHT_FOREARM_NAMES, words=_RIGHT_FOREARM_WORDS):
    """The bone to hit among ``joint_names``: the first of ``candidates`` present (exact, then case-insensitive),
    else the first name (without "left") containing a word of each group of ``words``; None when none fits.

    The defaults find a right forearm in every corpus skeleton.
    """
    names = list(joint_names)
    for c in candidates:
        if c in names:
            return c
    lower = {n.lower(): n for n in names}
    for c in candidates:
        if c.lower() in lower:
            return lower[c.lower()]
    for n in names:
        low = n.lower()
        if "left" not in low and all(any(w in low for w in group) for group in words):
            return n
    return None
