"""Type stubs of the Rust extension module flinch._flinch (re-exported by the flinch package)."""

import os
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

_Path = Union[str, "os.PathLike[str]"]
_Vec3 = Union[Sequence[float], npt.NDArray[np.float64]]
_F64 = npt.NDArray[np.float64]

__version__: str

def load(
    path: _Path,
    *,
    unit: Optional[str] = None,
    up: Optional[str] = None,
    rate: Optional[float] = None,
    drop_tpose: bool = False,
    animation: Optional[str] = None,
) -> Clip:
    """Loads a clip (.bvh, .gltf, .glb, .urdf; format by extension). ``unit`` (m, cm, in, cmu-asf, a factor) and
    ``up`` ('y' or 'z') override the inferred ones; ``rate`` resamples glTF animation (Hz).

    Raises FlinchIOError (unreadable file), ParseError (the message gives file and line), InvalidArgumentError
    (unknown extension or option)."""

class Clip:
    """A loaded clip: skeleton, motion and what the importer inferred (immutable)."""

    @property
    def path(self) -> str: ...
    @property
    def joint_names(self) -> List[str]:
        """Skeleton joint names, parents before children."""
    @property
    def parents(self) -> List[int]:
        """Parent index of each joint (-1 for the root)."""
    @property
    def frame_count(self) -> int: ...
    @property
    def frame_time(self) -> float:
        """Seconds between frames."""
    @property
    def duration(self) -> float: ...
    @property
    def format(self) -> str: ...
    @property
    def warnings(self) -> List[str]: ...
    def rotations(self) -> _F64:
        """Local rotations relative to rest, shape (frames, joints, 4), quaternions (x, y, z, w)."""
    def translations(self) -> _F64:
        """Local translations in the parent's frame (m), shape (frames, joints, 3)."""

class Character:
    """A clip's physically simulated character (Cline 2002): replays the clip, reacts to hits, returns to it."""

    def __init__(
        self, clip: Clip, *, rate: float = 120.0, config: Any = None, threads: Optional[int] = None
    ) -> None:
        """Builds the character of ``clip`` simulated at ``rate`` Hz; ``config`` is a character configuration
        (dict, JSON text or a .json/.toml path); ``threads`` bounds the preprocessing threads."""
    @property
    def time(self) -> float: ...
    @property
    def step_size(self) -> float: ...
    @property
    def duration(self) -> float: ...
    @property
    def finished(self) -> bool: ...
    @property
    def joint_names(self) -> List[str]: ...
    @property
    def body_names(self) -> List[str]:
        """The skeleton joint of each simulated body (rows of torques())."""
    @property
    def root_policy(self) -> str:
        """``"kinematic"`` (default), ``"free"`` or ``"assisted"``; setting it switches at runtime (a clip
        without feet cannot go free: SimulationError)."""
    @root_policy.setter
    def root_policy(self, policy: str) -> None: ...
    @property
    def assist_weight(self) -> float:
        """The assisted root's assist weight in [0, 1]."""
    @assist_weight.setter
    def assist_weight(self, weight: float) -> None: ...
    @property
    def root_state(self) -> str:
        """Tracking, Staggering, Falling, Ragdoll, Resting or GettingUp."""
    @property
    def root_events(self) -> List[Tuple[float, str, str]]:
        """Balance state transitions so far: (time, from, to), oldest first."""
    def step(self, h: Optional[float] = None) -> None:
        """Advances by ``h`` seconds (default: the step size)."""
    def run(self, duration: Optional[float] = None) -> int:
        """Steps in Rust (GIL released) to the end of the clip or for ``duration`` s; returns the steps run."""
    def apply_impulse(self, bone: str, impulse: _Vec3, point: Optional[_Vec3] = None) -> None:
        """Impulse (N·s, world) on ``bone``'s body at ``point`` (m, world; default its centre of mass), acting
        during the next step. Raises UnknownBoneError, InvalidArgumentError (non-finite vectors)."""
    def pose(self) -> Tuple[_F64, _F64]:
        """Local rotations relative to rest (joints, 4; x, y, z, w) and translations (joints, 3)."""
    def world_transforms(self) -> _F64:
        """World transform of every joint, shape (joints, 4, 4)."""
    def joint_deviations(self) -> _F64:
        """Deviation of each joint from the reference (radians; 0 for merged bones), shape (joints,)."""
    def torques(self) -> _F64:
        """Continuous inverse-dynamics joint torques of the reference (N·m, joint frame), shape (steps, bodies, 3).

        Computed on each call (about a third of the clip's preparation): keep the array."""
    def feedforward(self) -> _F64:
        """Feedforward torques of the drives (N·m, joint frame), shape (steps, bodies, 3)."""
    def evaluate(
        self, hits: Optional[Sequence[Dict[str, Any]]] = None, duration: Optional[float] = None
    ) -> Dict[str, Any]:
        """Runs to the end with ``hits`` (dicts: bone, time, impulse, point?) and returns the metrics:
        track_rms_deg, track_max_deg, raw_rms_deg, raw_max_deg, max_joint_gap_mm, steps, step_s, joints
        ({name: (rms, max)}), hit (None or {peak_deg, peak_joint, peak_time, return_s, energy_j})."""

class HitEvent:
    """A ball touch or scripted impulse."""

    time: float
    character: int
    bone: str
    body: int
    point: Tuple[float, float, float]
    normal: Tuple[float, float, float]
    impulse: Tuple[float, float, float]
    ball: Optional[int]
    energy_j: float

class Scene:
    """Characters and balls on one clock; ball touches become impulses and HitEvents."""

    def __init__(self, *, restitution: float = 0.0, friction: Optional[float] = None) -> None: ...
    @property
    def time(self) -> float: ...
    @property
    def characters(self) -> List[int]: ...
    @property
    def events(self) -> List[HitEvent]:
        """Hits of the last step."""
    def add_character(self, character: Character) -> int:
        """Moves ``character`` in (the object becomes unusable: StaleHandleError) and returns its key."""
    def remove_character(self, key: int) -> Character: ...
    def step(self, dt: float) -> None: ...
    def apply_impulse(self, key: int, bone: str, impulse: _Vec3, point: Optional[_Vec3] = None) -> None: ...
    def spawn_ball(self, position: _Vec3, velocity: _Vec3, *, radius: float = 0.11, mass: float = 0.45) -> int: ...
    def aim_ball(
        self,
        key: int,
        bone: str,
        arrival: float,
        velocity: _Vec3,
        *,
        radius: float = 0.11,
        mass: float = 0.45,
        flight: float = 0.2,
    ) -> Tuple[float, Tuple[float, float, float], Tuple[float, float, float]]:
        """(launch time, position, velocity) of a ball reaching ``bone``'s reference centre of mass at ``arrival``."""
    def ball_state(self, key: int) -> Tuple[Tuple[float, float, float], Tuple[float, float, float]]: ...
    def remove_ball(self, key: int) -> None: ...
    def pose(self, key: int) -> Tuple[_F64, _F64]: ...
    def joint_deviations(self, key: int) -> _F64: ...

class BakeResult:
    """What a bake did."""

    @property
    def output(self) -> str: ...
    @property
    def frames(self) -> int: ...
    @property
    def steps(self) -> int: ...
    @property
    def duration(self) -> float: ...
    @property
    def events(self) -> List[HitEvent]: ...
    @property
    def metrics(self) -> Dict[str, Any]: ...
    @property
    def deviation(self) -> _F64:
        """Per step: time (s) and largest joint deviation (degrees), shape (steps, 2)."""

def bake_file(
    input: Optional[_Path],
    output: _Path,
    *,
    hits: Any = None,
    rate: float = 120.0,
    config: Any = None,
    simulated: bool = False,
    threads: Optional[int] = None,
    unit: Optional[str] = None,
    up: Optional[str] = None,
    drop_tpose: bool = False,
    animation: Optional[str] = None,
) -> BakeResult: ...
