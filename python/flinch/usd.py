"""``flinch.export_usd``: a clip (loaded, baked, reacted) as UsdSkel through Pixar's own library (``usd-core``).

The stage holds one ``SkelRoot`` (named after the output file) with a ``Skeleton`` and a ``SkelAnimation`` bound to
it (``skel:animationSource``):

- **Joints**: one path per flinch joint, in flinch's joint order (parents before children), built from the joint
  names along the parent chain (``Hips/Spine/Chest``); a name that is not a valid USD identifier is made one
  (``mixamorig:Hips`` -> ``mixamorig_Hips``) and the original names are kept in the Skeleton's ``jointNames``.
- **Rest and bind**: ``restTransforms`` are the joints' local rest transforms (parent space: the rest offset and
  the rest orientation), ``bindTransforms`` their world-space rest transforms (the product down the chain), as
  UsdSkel defines them.
- **Animation**: per frame, each joint's local rotation ``rest_rotation * rotation`` (``quatf``; flinch's arrays
  are (x, y, z, w), ``Gf.Quatf`` is (real, imaginary)), its local translation (``float3``, metres), unit scales.
  Time code ``i`` is frame ``i``; ``timeCodesPerSecond`` and ``framesPerSecond`` are the clip's rate, the start
  and end time codes its first and last frame.
- **Stage**: ``upAxis`` Y and ``metersPerUnit`` 1 (flinch's world), the SkelRoot the default prim.

The file is written atomically: a temporary file in the output's folder, renamed over the output once complete,
so a failure leaves no file (and an existing output untouched).
"""

import os
import tempfile
from typing import Any, List, Optional, Union

from .errors import FlinchIOError, InvalidArgumentError, MissingDependencyError

__all__ = ["export_usd", "USD_EXTENSIONS"]

USD_EXTENSIONS = (".usda", ".usdc", ".usd")

PathLike = Union[str, "os.PathLike[str]"]


def _pxr():
    try:
        from pxr import Gf, Sdf, Usd, UsdGeom, UsdSkel, Vt
    except ImportError as e:
        raise MissingDependencyError(
            f"flinch.export_usd needs Pixar's USD Python library (module pxr): pip install usd-core ({e})"
        ) from e
    return Gf, Sdf, Usd, UsdGeom, UsdSkel, Vt


def _clip_of(source: Any, load_options: dict):
    """The flinch Clip of ``source``: a Clip, a BakeResult (its in-memory clip) or a clip file (loaded)."""
    from . import BakeResult, Clip, load

    if isinstance(source, Clip):
        return source
    if isinstance(source, BakeResult):
        return source.clip
    if isinstance(source, (str, os.PathLike)):
        return load(os.fspath(source), **load_options)
    raise TypeError(f"export_usd: expected a flinch.Clip, a flinch.BakeResult or a clip path, got {type(source).__name__}")


def _quat_mul(a, b):
    """Hamilton products of (..., 4) quaternions stored (x, y, z, w)."""
    import numpy as np

    ax, ay, az, aw = np.moveaxis(a, -1, 0)
    bx, by, bz, bw = np.moveaxis(b, -1, 0)
    return np.stack(
        [
            aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
            aw * bw - ax * bx - ay * by - az * bz,
        ],
        axis=-1,
    )


def _matrix(q, t):
    """4x4 column-vector matrices of (..., 4) (x, y, z, w) rotations and (..., 3) translations."""
    import numpy as np

    x, y, z, w = np.moveaxis(q, -1, 0)
    m = np.zeros(q.shape[:-1] + (4, 4))
    m[..., 0, 0] = 1 - 2 * (y * y + z * z)
    m[..., 0, 1] = 2 * (x * y - z * w)
    m[..., 0, 2] = 2 * (x * z + y * w)
    m[..., 1, 0] = 2 * (x * y + z * w)
    m[..., 1, 1] = 1 - 2 * (x * x + z * z)
    m[..., 1, 2] = 2 * (y * z - x * w)
    m[..., 2, 0] = 2 * (x * z - y * w)
    m[..., 2, 1] = 2 * (y * z + x * w)
    m[..., 2, 2] = 1 - 2 * (x * x + y * y)
    m[..., :3, 3] = t
    m[..., 3, 3] = 1.0
    return m


def joint_paths(names: List[str], parents: List[int]) -> List[str]:
    """UsdSkel joint paths: each joint's identifier (its name made a valid USD identifier, unique among its
    siblings) appended to its parent's path."""
    from pxr import Tf

    paths: List[str] = []
    used = {}
    for j, (name, parent) in enumerate(zip(names, parents)):
        ident = Tf.MakeValidIdentifier(name) if name else f"joint{j}"
        siblings = used.setdefault(parent, set())
        unique, n = ident, 1
        while unique in siblings:
            n += 1
            unique = f"{ident}_{n}"
        siblings.add(unique)
        paths.append(unique if parent < 0 else f"{paths[parent]}/{unique}")
    return paths


def _check_output(path: str) -> str:
    ext = os.path.splitext(path)[1].lower()
    if ext not in USD_EXTENSIONS:
        raise InvalidArgumentError(f"{path}: unknown USD extension {ext or '(none)'!r} (use .usda, .usdc or .usd)")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise FlinchIOError(f"{path}: cannot write: the folder {folder} does not exist")
    if os.path.isdir(path):
        raise FlinchIOError(f"{path}: cannot write: it is a folder")
    if not os.access(folder, os.W_OK):
        raise FlinchIOError(f"{path}: cannot write: the folder {folder} is not writable")
    return ext


def _prim_name(out: str) -> str:
    from pxr import Tf

    stem = os.path.splitext(os.path.basename(out))[0]
    return Tf.MakeValidIdentifier(stem) if stem else "flinch_clip"


def export_usd(
    source: Any,
    path: PathLike,
    *,
    name: Optional[str] = None,
    require_motion: bool = True,
    **load_options: Any,
) -> str:
    """Writes ``source`` as a UsdSkel stage at ``path`` (.usda text, .usdc or .usd binary); returns the path.

    ``source`` is a :class:`flinch.Clip`, the :class:`flinch.BakeResult` of :func:`flinch.bake` (its clip in
    memory, before the baked file's rounding) or a clip file (loaded with ``load_options``: ``unit``, ``up``,
    ``rate``, ``drop_tpose``, ``animation``). ``name`` is the SkelRoot prim's name (default: the output file's stem).
    A clip without motion (one frame: what the importers make of a file with no animation) is refused unless
    ``require_motion=False``, which writes its single pose.

    Raises MissingDependencyError (no ``pxr``: ``pip install usd-core``), InvalidArgumentError (not a USD
    extension, a clip without joints or frames, non-finite motion), FlinchIOError (missing or unwritable folder,
    a failed write; no file is left behind), and the loader's errors for a path.
    """
    # numpy is imported here, not with the package: Blender's Python may lack it and never needs export_usd.
    import numpy as np

    Gf, Sdf, Usd, UsdGeom, UsdSkel, Vt = _pxr()
    out = os.fspath(path)
    ext = _check_output(out)
    clip = _clip_of(source, load_options)

    names = list(clip.joint_names)
    parents = [int(p) for p in clip.parents]
    frames = clip.frame_count
    where = f"export_usd {os.fspath(clip.path)}"
    if not names:
        raise InvalidArgumentError(f"{where}: the clip has no joints")
    if frames == 0:
        raise InvalidArgumentError(f"{where}: the clip has no frames")
    if frames == 1 and require_motion:
        why = "; ".join(clip.warnings) or "one frame"
        raise InvalidArgumentError(
            f"{where}: the clip has no motion ({why}); pass require_motion=False to write its single pose"
        )
    if not (clip.frame_time > 0 and np.isfinite(clip.frame_time)):
        raise InvalidArgumentError(f"{where}: frame time {clip.frame_time} s is not a positive number")
    rest_q = np.asarray(clip.rest_rotations())
    rest_t = np.asarray(clip.rest_translations())
    rot = np.asarray(clip.rotations())
    trans = np.asarray(clip.translations())
    for what, a in (("rotations", rot), ("translations", trans), ("rest", rest_q), ("rest offsets", rest_t)):
        bad = np.argwhere(~np.isfinite(a))
        if len(bad):
            raise InvalidArgumentError(f"{where}: non-finite {what} at index {tuple(int(i) for i in bad[0])}")

    # Local rotations, hemisphere-continuous along the clip so that USD's interpolation between time codes
    # takes the short arc.
    local = _quat_mul(np.broadcast_to(rest_q, rot.shape), rot)
    local /= np.linalg.norm(local, axis=-1, keepdims=True)
    for f in range(1, frames):
        flip = np.sum(local[f] * local[f - 1], axis=-1) < 0.0
        local[f, flip] *= -1.0

    # Rest (local) and bind (world) matrices; UsdSkel's Matrix4d acts on row vectors: the transpose.
    rest_local = _matrix(rest_q, rest_t)
    bind = np.empty_like(rest_local)
    for j, p in enumerate(parents):
        bind[j] = rest_local[j] if p < 0 else bind[p] @ rest_local[j]
    paths = joint_paths(names, parents)
    rate = 1.0 / clip.frame_time

    stage = Usd.Stage.CreateInMemory()
    UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.y)
    UsdGeom.SetStageMetersPerUnit(stage, 1.0)
    stage.SetTimeCodesPerSecond(rate)
    stage.SetFramesPerSecond(rate)
    stage.SetStartTimeCode(0.0)
    stage.SetEndTimeCode(float(frames - 1))
    root_name = name if name is not None else _prim_name(out)
    if not Sdf.Path.IsValidIdentifier(root_name):
        raise InvalidArgumentError(f"{where}: SkelRoot name {root_name!r} is not a valid USD identifier")
    root = UsdSkel.Root.Define(stage, Sdf.Path("/" + root_name))
    stage.SetDefaultPrim(root.GetPrim())
    skel = UsdSkel.Skeleton.Define(stage, root.GetPath().AppendChild("Skeleton"))
    joints = Vt.TokenArray(paths)
    skel.CreateJointsAttr(joints)
    skel.CreateJointNamesAttr(Vt.TokenArray(names))
    skel.CreateRestTransformsAttr(Vt.Matrix4dArray.FromNumpy(np.ascontiguousarray(np.swapaxes(rest_local, 1, 2))))
    skel.CreateBindTransformsAttr(Vt.Matrix4dArray.FromNumpy(np.ascontiguousarray(np.swapaxes(bind, 1, 2))))
    anim = UsdSkel.Animation.Define(stage, root.GetPath().AppendChild("Animation"))
    anim.CreateJointsAttr(joints)
    rotations = anim.CreateRotationsAttr()
    translations = anim.CreateTranslationsAttr()
    # Gf.Quatf's memory is (imaginary, real): the (x, y, z, w) layout of flinch's arrays.
    local32 = local.astype(np.float32)
    trans32 = trans.astype(np.float32)
    for f in range(frames):
        t = Usd.TimeCode(float(f))
        rotations.Set(Vt.QuatfArray.FromNumpy(np.ascontiguousarray(local32[f])), t)
        translations.Set(Vt.Vec3fArray.FromNumpy(np.ascontiguousarray(trans32[f])), t)
    anim.CreateScalesAttr(Vt.Vec3hArray([Gf.Vec3h(1.0, 1.0, 1.0)] * len(names)))
    binding = UsdSkel.BindingAPI.Apply(skel.GetPrim())
    binding.CreateAnimationSourceRel().SetTargets([anim.GetPath()])
    stage.GetRootLayer().documentation = f"flinch {_version()}: {os.path.basename(os.fspath(clip.path))}"

    folder = os.path.dirname(os.path.abspath(out))
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(out)}.", suffix=ext, dir=folder)
    except OSError as e:
        raise FlinchIOError(f"{out}: cannot write in {folder}: {e}") from e
    os.close(fd)
    try:
        ok = stage.GetRootLayer().Export(tmp)
        if not ok or os.path.getsize(tmp) == 0:
            raise FlinchIOError(f"{out}: USD could not write the stage")
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp's file is 0600; the output gets a plain file's mode
        os.replace(tmp, out)
    except Exception as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, FlinchIOError):
            raise
        if isinstance(e, OSError):
            raise FlinchIOError(f"{out}: cannot write: {e}") from e
        raise FlinchIOError(f"{out}: USD could not write the stage: {e}") from e
    return out


def _umask() -> int:
    """The process's umask, read without setting it (``os.umask`` would change it for every thread meanwhile)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    return 0o022


def _version() -> str:
    from . import __version__

    return __version__

