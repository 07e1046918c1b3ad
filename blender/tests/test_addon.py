"""Headless test of the flinch Blender add-on:

    blender -b --factory-startup --python-exit-code 1 --python blender/tests/test_addon.py

Imports a shared-data BVH, hits its right forearm with the "Simulate" operator, and checks the new action: same
frame range as the clip's, no deviation before the hit, a clear one at the hit bone after it. Then "Bake to
glTF/BVH" writes a GLB that flinch loads back with the clip's frame count. Prints `figure blender_addon_ok 1`.

The flinch package must be importable: FLINCH_PYTHONPATH (a `pip install --target` folder of the wheel) is put
first on sys.path. The corpus is $FLINCH_DATA, else ../shared/data beside the repository.
"""

import math
import os
import sys
import tempfile

import bpy

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
for p in (os.environ.get("FLINCH_PYTHONPATH"), os.path.join(REPO, "blender")):
    if p:
        sys.path.insert(0, p)

import flinch  # noqa: E402
import flinch_addon  # noqa: E402
from flinch_addon import transfer  # noqa: E402

DATA = os.environ.get("FLINCH_DATA") or os.path.join(REPO, "..", "shared", "data")
CLIP = os.path.join(DATA, "bvh", "cmu_02_01_walk.bvh")


def bone_matrices(obj, action, frames, bone):
    """Armature-space matrix of ``bone`` at each frame with ``action``."""
    obj.animation_data.action = action
    out = []
    for f in frames:
        bpy.context.scene.frame_set(f)
        out.append(obj.pose.bones[bone].matrix.copy())
    return out


def main():
    flinch_addon.register()
    assert os.path.exists(CLIP), f"missing corpus clip {CLIP}"
    transfer.import_bvh(filepath=CLIP, update_scene_fps=True, update_scene_duration=True)
    obj = bpy.context.view_layer.objects.active
    assert obj is not None and obj.type == "ARMATURE", obj
    original = obj.animation_data.action
    start, end = transfer.action_range(original)
    fps = bpy.context.scene.render.fps / bpy.context.scene.render.fps_base
    print(f"imported {obj.name}: frames {start}..{end} at {fps} fps")

    s = bpy.context.scene.flinch
    s.bone = flinch.find_bone([b.name for b in obj.data.bones])
    assert s.bone, "no right forearm in the clip"
    s.hit_time = 1.0
    s.direction = (1.0, 0.0, 0.0)
    s.kind = "IMPULSE"
    s.strength = 8.0
    assert bpy.ops.flinch.simulate() == {"FINISHED"}

    new = obj.animation_data.action
    assert new is not None and new != original and new.name == original.name + "_flinch", new
    assert transfer.action_range(new) == (start, end), (transfer.action_range(new), (start, end))
    keys = {len(c.keyframe_points) for c in new.fcurves}
    assert keys == {end - start + 1}, keys

    hit_frame = start + int(round(s.hit_time * fps))
    frames = list(range(start, end + 1))
    before = bone_matrices(obj, original, frames, s.bone)
    after = bone_matrices(obj, new, frames, s.bone)
    dev = [transfer.angle_between(a, b) for a, b in zip(before, after)]
    pre = max(dev[: hit_frame - start - 1])
    post = max(dev[hit_frame - start:])
    print(f"deviation at {s.bone}: {pre:.4f} deg before the hit, peak {post:.2f} deg after it")
    assert pre < 0.5, f"the reacted action differs before the hit: {pre} deg"
    assert post > 2.0, f"no reaction at the hit bone: {post} deg"
    assert all(math.isfinite(d) for d in dev)

    # A projectile: a 0.45 kg ball at 15 m/s aimed to reach the bone at the hit time.
    obj.animation_data.action = original
    s.kind = "PROJECTILE"
    s.speed = 15.0
    assert bpy.ops.flinch.simulate() == {"FINISHED"}
    ball = obj.animation_data.action
    assert ball not in (original, new) and transfer.action_range(ball) == (start, end)
    hit = bone_matrices(obj, ball, frames, s.bone)
    ball_dev = max(transfer.angle_between(a, b) for a, b in zip(before, hit))
    print(f"projectile: peak deviation {ball_dev:.2f} deg at {s.bone}")
    assert ball_dev > 1.0, ball_dev

    # The bake button writes a file flinch reads back.
    out = os.path.join(tempfile.mkdtemp(prefix="flinch_blender_"), "reacted.glb")
    s.output = out
    obj.animation_data.action = original
    assert bpy.ops.flinch.bake() == {"FINISHED"}
    back = flinch.load(out)
    assert back.frame_count == end - start + 1, (back.frame_count, end - start + 1)
    assert s.bone in back.joint_names

    # Bad input: an unknown bone is reported, nothing is added.
    actions = len(bpy.data.actions)
    s.bone = "NoSuchBone"
    try:
        status = bpy.ops.flinch.simulate()
    except RuntimeError as e:  # background mode raises the operator's error report
        status = {"CANCELLED"}
        assert "UnknownBoneError" in str(e) and "NoSuchBone" in str(e), e
    assert status == {"CANCELLED"}
    assert len(bpy.data.actions) == actions

    flinch_addon.unregister()
    print("figure blender_addon_ok 1")


main()
