"""flinch.export_usd: a baked clip written as UsdSkel, read back with Pixar's own library and compared with the clip.

The comparison is made on what USD computes, not on the numbers written: UsdSkel's anim query gives each joint's
local transform per time code, the skeleton query its skeleton-space transform (the product down USD's joint
hierarchy, built from the joint paths), and both are compared with flinch's own forward kinematics of the clip.
Prints `figure usd_roundtrip_max_err_deg <v> deg` and `figure usd_checker_errors <n>`.
"""

import math
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import flinch

pxr = pytest.importorskip("pxr") if os.environ.get("CI") != "true" else __import__("pxr")
from pxr import Gf, Usd, UsdGeom, UsdSkel, UsdValidation  # noqa: E402


def quat_xyzw(q):
    """A Gf quaternion as (x, y, z, w)."""
    i = q.GetImaginary()
    return np.array([i[0], i[1], i[2], q.GetReal()])


def quat_mul(a, b):
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return np.array(
        [
            aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
            aw * bw - ax * bx - ay * by - az * bz,
        ]
    )


def angle_deg(a, b):
    """Angle between two unit quaternions (x, y, z, w), degrees."""
    a = a / np.linalg.norm(a)
    b = b / np.linalg.norm(b)
    if np.dot(a, b) < 0.0:
        b = -b
    # 2 atan2(|a - b|, |a + b|): exact near 0, where 2 acos(a . b) loses half the digits.
    return math.degrees(2.0 * math.atan2(np.linalg.norm(a - b), np.linalg.norm(a + b)))


def checker_errors(path):
    """Errors of every validator of the USD validation framework (what usdchecker runs) on the file, or of the
    usdchecker command when one is installed."""
    stage = Usd.Stage.Open(str(path))
    registry = UsdValidation.ValidationRegistry()
    validators = registry.GetOrLoadAllValidators()
    assert len(validators) >= 10, [v.GetMetadata().name for v in validators]
    context = UsdValidation.ValidationContext(validators)
    found = [e for e in context.Validate(stage) if e.GetType() == UsdValidation.ValidationErrorType.Error]
    for e in found:
        print("usd validation error:", e.GetErrorAsString())
    return len(found), len(validators)


def read_back(path, clip):
    """Max rotation error (deg) of USD's local joint transforms against the clip's local rotations, max position
    error (m) of USD's skeleton-space joint positions against flinch's forward kinematics, and the stage."""
    stage = Usd.Stage.Open(str(path))
    assert stage is not None
    assert UsdGeom.GetStageUpAxis(stage) == UsdGeom.Tokens.y
    assert UsdGeom.GetStageMetersPerUnit(stage) == 1.0
    rate = 1.0 / clip.frame_time
    assert abs(stage.GetTimeCodesPerSecond() - rate) < 1e-9 * rate
    assert stage.GetStartTimeCode() == 0.0 and stage.GetEndTimeCode() == clip.frame_count - 1
    root = stage.GetDefaultPrim()
    assert root.IsA(UsdSkel.Root), root
    skels = [p for p in Usd.PrimRange(root) if p.IsA(UsdSkel.Skeleton)]
    assert len(skels) == 1, skels
    cache = UsdSkel.Cache()
    cache.Populate(UsdSkel.Root(root), Usd.TraverseInstanceProxies())
    query = cache.GetSkelQuery(UsdSkel.Skeleton(skels[0]))
    assert query, "no skeleton query"
    anim = query.GetAnimQuery()
    assert anim, "the skeleton is not bound to an animation"
    names = list(UsdSkel.Skeleton(skels[0]).GetJointNamesAttr().Get())
    assert names == list(clip.joint_names)
    order = [str(p).split("/")[-1] for p in query.GetJointOrder()]
    assert len(order) == len(names)
    # USD's own hierarchy from the paths: the parents flinch has.
    topo = query.GetTopology()
    assert [int(p) for p in topo.GetParentIndices()] == list(clip.parents)
    times = anim.GetJointTransformTimeSamples()
    assert [float(t) for t in times] == [float(f) for f in range(clip.frame_count)]

    rest_q = np.asarray(clip.rest_rotations())
    rot = np.asarray(clip.rotations())
    world = np.asarray(clip.world_transforms())  # flinch's forward kinematics, (F, J, 4, 4)
    max_deg, max_pos, max_world_deg = 0.0, 0.0, 0.0
    for f in range(clip.frame_count):
        t = Usd.TimeCode(float(f))
        local = anim.ComputeJointLocalTransforms(t)
        skel_space = query.ComputeJointSkelTransforms(t)
        for j in range(len(names)):
            want = quat_mul(rest_q[j], rot[f, j])
            got = quat_xyzw(Gf.Matrix4d(local[j]).ExtractRotationQuat())
            max_deg = max(max_deg, angle_deg(want, got))
            m = Gf.Matrix4d(skel_space[j])
            pos = np.array(m.ExtractTranslation())
            max_pos = max(max_pos, float(np.linalg.norm(pos - world[f, j, :3, 3])))
            # USD matrices act on row vectors: rows are the rotated axes, flinch's columns are.
            r_usd = np.array([[m[r][c] for c in range(3)] for r in range(3)]).T
            d = r_usd.T @ world[f, j, :3, :3]
            # The angle of d by atan2(sin, cos): acos of the trace alone loses half the digits near 0.
            sin = 0.5 * np.linalg.norm([d[2, 1] - d[1, 2], d[0, 2] - d[2, 0], d[1, 0] - d[0, 1]])
            cos = 0.5 * (np.trace(d) - 1.0)
            max_world_deg = max(max_world_deg, math.degrees(math.atan2(sin, cos)))
    # The rest pose: bind transforms (world) against flinch's rest-pose forward kinematics.
    return max_deg, max_pos, max_world_deg, stage


@pytest.fixture(scope="module")
def baked(walk, tmp_path_factory):
    out = tmp_path_factory.mktemp("usd") / "walk_hit.bvh"
    hits = [{"type": "impulse", "time": 1.0, "bone": "RightForeArm", "impulse": [8.0, 0.0, 0.0]}]
    return flinch.bake(walk, out, hits)


def test_baked_clip_roundtrip(baked, walk, tmp_path, capsys):
    clip = baked.clip
    assert clip.frame_count == baked.frames
    out = tmp_path / "walk_hit.usda"
    assert flinch.export_usd(baked, out) == str(out)
    assert [p.name for p in tmp_path.iterdir()] == ["walk_hit.usda"], "temporary files left behind"
    max_deg, max_pos, max_world_deg, stage = read_back(out, clip)
    with capsys.disabled():  # the figures reach cargo test's output
        print(f"\nfigure usd_roundtrip_max_err_deg {max_deg:.3e} deg")
        print(f"figure usd_roundtrip_world_pos_err_mm {max_pos * 1e3:.3e} mm")
        print(f"figure usd_roundtrip_world_rot_err_deg {max_world_deg:.3e} deg")
    assert max_deg <= 1e-3, max_deg
    assert max_world_deg <= 1e-3, max_world_deg
    assert max_pos <= 1e-5, max_pos  # float3 translations: ~1e-7 relative
    assert stage.GetDefaultPrim().GetName() == "walk_hit"
    errors, validators = checker_errors(out)
    with capsys.disabled():
        print(f"figure usd_checker_errors {errors} ({validators} validators)")
    assert errors == 0

    # The baked clip differs from the unreacted clip after the hit: the USD carries the reaction.
    original = flinch.load(walk, drop_tpose=True)  # the bake drops its leading T-pose frame
    dev = np.max(np.abs(np.asarray(original.rotations()) - np.asarray(clip.rotations())))
    assert dev > 1e-3

    # The bake's output file read back agrees with the in-memory clip (BVH rounding only).
    back = flinch.load(baked.output)
    assert back.joint_names == clip.joint_names and back.frame_count == clip.frame_count
    assert np.max(np.abs(np.asarray(back.world_transforms()) - np.asarray(clip.world_transforms()))) < 1e-3


def test_bind_transforms_are_world_rest(baked, tmp_path):
    """bindTransforms are flinch's rest pose in world space, restTransforms the local rest transforms."""
    clip = baked.clip
    out = tmp_path / "walk.usdc"
    flinch.export_usd(clip, out)
    stage = Usd.Stage.Open(str(out))
    skel = UsdSkel.Skeleton(stage.GetPrimAtPath(stage.GetDefaultPrim().GetPath().AppendChild("Skeleton")))
    bind = skel.GetBindTransformsAttr().Get()
    rest = skel.GetRestTransformsAttr().Get()
    rest_t = np.asarray(clip.rest_translations())
    parents = clip.parents
    # World rest positions by hand from the rest offsets (BVH: identity rest rotations).
    expect = np.zeros_like(rest_t)
    for j, p in enumerate(parents):
        expect[j] = rest_t[j] if p < 0 else expect[p] + rest_t[j]
    got = np.array([list(Gf.Matrix4d(m).ExtractTranslation()) for m in bind])
    assert np.max(np.abs(got - expect)) < 1e-12
    got_local = np.array([list(Gf.Matrix4d(m).ExtractTranslation()) for m in rest])
    assert np.max(np.abs(got_local - rest_t)) < 1e-12


def test_gltf_rest_rotations(data, tmp_path):
    """A glTF clip (non-identity rest rotations, joint names with ':' or '.') round trips too."""
    src = data / "gltf" / "Fox.glb"
    clip = flinch.load(src, rate=30.0)
    assert np.max(np.abs(np.asarray(clip.rest_rotations())[:, :3])) > 1e-3, "Fox has rest rotations"
    out = tmp_path / "fox.usd"
    flinch.export_usd(src, out, rate=30.0)
    max_deg, max_pos, max_world_deg, _ = read_back(out, clip)
    print(f"fox: {max_deg:.2e} deg local, {max_world_deg:.2e} deg world, {max_pos * 1e3:.2e} mm")
    assert max_deg <= 1e-3 and max_world_deg <= 1e-3 and max_pos <= 1e-5
    assert checker_errors(out)[0] == 0


def test_onto_bake_exports(data, walk, tmp_path):
    """The bake of the walk onto the shared robot (flinch.bake(onto=...)) exports on the robot's skeleton."""
    robot = data / "gltf" / "RobotExpressive_threejs_reexport.glb"
    result = flinch.bake(walk, tmp_path / "robot.glb", onto=robot)
    clip = result.clip
    target = flinch.load(robot)
    assert clip.joint_names == target.joint_names
    out = tmp_path / "robot.usda"
    flinch.export_usd(result, out)
    max_deg, max_pos, max_world_deg, _ = read_back(out, clip)
    assert max_deg <= 1e-3 and max_world_deg <= 1e-3 and max_pos <= 1e-5
    assert checker_errors(out)[0] == 0


def test_bad_inputs(baked, tmp_path):
    clip = baked.clip
    missing = tmp_path / "no_such_folder" / "x.usda"
    with pytest.raises(flinch.FlinchIOError, match="no_such_folder.*does not exist"):
        flinch.export_usd(clip, missing)
    assert not missing.parent.exists()
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder")
    with pytest.raises(flinch.FlinchIOError, match="a_file"):
        flinch.export_usd(clip, blocker / "x.usda")
    with pytest.raises(flinch.InvalidArgumentError, match="unknown USD extension"):
        flinch.export_usd(clip, tmp_path / "x.txt")
    folder = tmp_path / "is_a_folder.usda"
    folder.mkdir()
    with pytest.raises(flinch.FlinchIOError, match="is a folder"):
        flinch.export_usd(clip, folder)
    with pytest.raises(TypeError, match="flinch.Clip"):
        flinch.export_usd(42, tmp_path / "x.usda")
    # An empty clip: a BVH with a skeleton and no frames (the loader makes it one rest frame) is refused.
    empty = tmp_path / "empty.bvh"
    empty.write_text(
        "HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation "
        "Yrotation\n End Site\n {\n  OFFSET 0 1 0\n }\n}\nMOTION\nFrames: 0\nFrame Time: 0.0083333\n"
    )
    out = tmp_path / "empty.usda"
    with pytest.raises(flinch.InvalidArgumentError, match="empty.bvh: the clip has no motion") as e:
        flinch.export_usd(empty, out)
    print("empty clip:", e.value)
    assert not out.exists()
    # Asked for, its single pose is written.
    flinch.export_usd(empty, out, require_motion=False)
    assert Usd.Stage.Open(str(out)).GetEndTimeCode() == 0.0
    out.unlink()
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]
    assert leftovers == [], leftovers


def test_missing_pxr_message(tmp_path, baked):
    """Without pxr, export_usd says what to install (a MissingDependencyError, also an ImportError)."""
    code = (
        "import sys, flinch\n"
        "sys.modules['pxr'] = None\n"
        "try:\n"
        f"    flinch.export_usd(flinch.load({str(baked.output)!r}), {str(tmp_path / 'x.usda')!r})\n"
        "except ImportError as e:\n"
        "    assert isinstance(e, flinch.MissingDependencyError), type(e)\n"
        "    print('MSG', e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=os.environ)
    assert out.returncode == 0, out.stderr
    assert "pip install usd-core" in out.stdout, out.stdout
    assert not (tmp_path / "x.usda").exists()


def test_batch_format_usd(walk, tmp_path):
    """flinch-batch --format usd: one .usd per clip, the bake of the clip (on a local Ray instance)."""
    import json

    from flinch import batch

    out_dir = tmp_path / "out"
    pairs = batch.plan([walk], out_dir, fmt="usd")
    out = out_dir / "cmu_02_01_walk_reacted.usd"
    assert pairs == [(str(walk), str(out))]
    hit = {"type": "impulse", "time": 1.0, "bone": "role:right_forearm", "impulse": [8.0, 0.0, 0.0]}
    hits = tmp_path / "hits.json"
    hits.write_text(json.dumps({"hits": [hit]}))
    code = batch.main([str(walk), "-o", str(out_dir), "--hits", str(hits), "--format", "usd", "--num-cpus", "1",
                       "--no-progress"])
    assert code == 0
    assert sorted(p.name for p in out_dir.iterdir()) == [out.name], "temporary bake files left behind"
    ref = flinch.bake(walk, tmp_path / "ref.bvh", [dict(hit, bone="RightForeArm")], threads=1)
    max_deg, max_pos, _, _ = read_back(out, ref.clip)
    assert max_deg <= 1e-3 and max_pos <= 1e-5
