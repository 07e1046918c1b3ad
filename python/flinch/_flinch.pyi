"""Type stubs of the Rust extension module flinch._flinch (re-exported by the flinch package)."""

import os
from typing import Any, Dict, List, Optional, Sequence, Tuple, TypedDict, Union

import numpy as np
import numpy.typing as npt

_Path = Union[str, "os.PathLike[str]"]
_Vec3 = Union[Sequence[float], npt.NDArray[np.float64]]
_F64 = npt.NDArray[np.float64]

__version__: str

def cpu_report() -> str:
    """`cpu <model> kernel <avx2|sse2> avx512f <yes|no> fma <yes|no>`: the CPU and flinch's kernel variant."""

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
    def rest_rotations(self) -> _F64:
        """Rest orientation of each joint in its parent's frame, shape (joints, 4), (x, y, z, w); a joint's local
        rotation is ``rest_rotations()[j] * rotations()[f, j]``."""
    def rest_translations(self) -> _F64:
        """Rest offset of each joint in its parent's frame (m), shape (joints, 3)."""
    def world_transforms(self) -> _F64:
        """World transform of every joint at every frame (the core's forward kinematics), (frames, joints, 4, 4)."""
    def looped(self, seconds: float) -> "Clip":
        """A new clip made ``seconds`` long: a detected leading T-pose frame dropped, then its best loop repeated
        without a seam, each repetition moved on by the distance the loop travels (InvalidArgumentError for a
        length that is not finite and positive or past the import limits)."""

class Character:
    """A clip's physically simulated character (Cline 2002): replays the clip, reacts to hits, returns to it."""

    def __init__(
        self,
        clip: Clip,
        *,
        rate: float = 120.0,
        config: Any = None,
        threads: Optional[int] = None,
        level: Optional["Scene"] = None,
    ) -> None:
        """Builds the character of ``clip`` simulated at ``rate`` Hz; ``config`` is a character configuration
        (dict, JSON text or a .json/.toml path); ``threads`` bounds the preprocessing threads. With ``level`` (a
        Scene holding a posed level) the flat-ground clip is adapted to walk over that level's static colliders:
        feet raised onto steps and slopes, root and legs adapted (InvalidArgumentError without a static
        collider)."""
    def root_target(self, time: float) -> Tuple[Tuple[float, float, float], List[float]]:
        """The reference pose of the root body at clip time ``time`` (clamped to the clip): centre of mass (m)
        and quaternion (x, y, z, w). Where the clip walks: place a level along its path."""
    @property
    def floor(self) -> Optional[float]:
        """The floor height (m) a free-root character stands on (fitted to its clip); None for a kinematic
        root."""
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
    """A ball touch, a kinematic collider's push (a swung bat) or a scripted impulse."""

    time: float
    character: int
    bone: str
    body: int
    point: Tuple[float, float, float]
    normal: Tuple[float, float, float]
    impulse: Tuple[float, float, float]
    ball: Optional[int]
    collider: Optional[int]
    """The kinematic collider that pushed, or None."""
    energy_j: float

class RayHit(TypedDict):
    """What ``Scene.cast_ray`` and ``Scene.cast_sphere`` return for a hit."""

    kind: str
    """``"character"`` or ``"collider"``."""
    character: Optional[int]
    body: Optional[int]
    bone: Optional[str]
    collider: Optional[int]
    point: Tuple[float, float, float]
    normal: Tuple[float, float, float]
    distance: float

class Scene:
    """Characters, balls and the level's colliders on one clock; ball touches and kinematic colliders' pushes
    become impulses and HitEvents."""

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
    @property
    def collider_count(self) -> int:
        """Number of colliders in the scene's level."""
    def add_collider(
        self,
        shape: str,
        *,
        position: _Vec3 = (0.0, 0.0, 0.0),
        rotation: Sequence[float] = (0.0, 0.0, 0.0, 1.0),
        friction: Optional[float] = None,
        restitution: float = 0.0,
        layers: int = 0xFFFFFFFF,
        mask: int = 0xFFFFFFFF,
        kinematic: bool = False,
        normal: Optional[_Vec3] = None,
        half_extents: Optional[_Vec3] = None,
        radius: Optional[float] = None,
        half_height: Optional[float] = None,
        points: Optional[Any] = None,
        vertices: Optional[Any] = None,
        triangles: Optional[Any] = None,
        heights: Optional[Any] = None,
        size_x: Optional[float] = None,
        size_z: Optional[float] = None,
        name: Optional[str] = None,
    ) -> int:
        """Adds a collider to the level and returns its key. ``shape``: 'plane' (``normal``; the solid half-space
        below), 'box' (``half_extents``), 'sphere' (``radius``), 'capsule' (``half_height``, ``radius``; along local
        Y), 'convex_hull' (``points``: (n, 3)), 'mesh' (``vertices``: (n, 3), ``triangles``: (m, 3) indices,
        counter-clockwise seen from outside) or 'height_field' (``heights``: (rows, cols), rows along z;
        ``size_x``, ``size_z``). Pose: ``position`` (m), ``rotation`` (x, y, z, w). ``friction`` None: each
        character's own. A kinematic collider is moved by ``move_collider``. A free-root character stands on the
        level's static colliders in place of its fitted flat floor.

        Raises InvalidArgumentError naming the problem (a NaN vertex or height, an empty mesh, a missing or foreign
        keyword)."""
    def remove_collider(self, key: int) -> None:
        """Removes a collider (a removed key, or one of another scene: StaleHandleError)."""
    def move_collider(
        self,
        key: int,
        position: _Vec3,
        rotation: Sequence[float] = (0.0, 0.0, 0.0, 1.0),
        velocity: Optional[_Vec3] = None,
        angular_velocity: Optional[_Vec3] = None,
    ) -> None:
        """Moves a kinematic collider, reaching the pose at the end of the next step; the contacts see
        ``velocity`` (m/s) and ``angular_velocity`` (rad/s) when given, else the motion's own. A static collider:
        InvalidArgumentError."""
    def load_level(
        self, path: _Path, position: _Vec3 = (0.0, 0.0, 0.0), rotation: Sequence[float] = (0.0, 0.0, 0.0, 1.0)
    ) -> List[int]:
        """Loads a level file (glTF/GLB: every mesh a static collider; ``_box``, ``_convex``, ``_nocollide`` name
        suffixes and a NAME.colliders.json sidecar choose simpler shapes) posed by ``position``, ``rotation``;
        returns its colliders' keys in file order. On an error (FlinchIOError, ParseError, ConfigError) nothing is
        added."""
    def cast_ray(
        self, origin: _Vec3, direction: _Vec3, max_distance: float = 1e3, mask: int = 0xFFFFFFFF
    ) -> Optional[RayHit]:
        """The first character body or collider (whose layers meet ``mask``) a ray meets within
        ``max_distance`` (m), or None."""
    def cast_sphere(
        self,
        origin: _Vec3,
        radius: float,
        direction: _Vec3,
        max_distance: float = 1e3,
        mask: int = 0xFFFFFFFF,
    ) -> Optional[RayHit]:
        """The first character body or collider a sphere of ``radius`` (m) sweeping from ``origin`` touches within
        ``max_distance`` (m, finite) of travel (``distance``: the centre's travel), or None."""
    def set_level_layers(self, key: int, layers: int, mask: int) -> None:
        """A character's collision layers and mask against the level (default all bits)."""

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
    def clip(self) -> Clip:
        """The baked clip in memory (on the character's skeleton with ``onto``), before the file's rounding."""
    @property
    def metrics(self) -> Dict[str, Any]: ...
    @property
    def deviation(self) -> _F64:
        """Per step: time (s) and largest joint deviation (degrees), shape (steps, 2)."""
    @property
    def animation(self) -> str:
        """The reacted animation's name in the file."""
    @property
    def readback(self) -> Dict[str, Any]:
        """The written file read back and measured (frames, feet per stance, limbs, failures)."""

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
    onto: Optional[_Path] = None,
    map: Optional[_Path] = None,
    name: Optional[str] = None,
    keep_unreacted: bool = False,
) -> BakeResult: ...
