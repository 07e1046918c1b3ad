"""Headless test of the one-file install and of the retarget operator:

    BLENDER_USER_SCRIPTS=$(mktemp -d) BLENDER_USER_CONFIG=$(mktemp -d) FLINCH_ADDON_ZIP=.../flinch_addon-...-legacy.zip \
        blender -b --factory-startup --python-exit-code 1 --python blender/tests/test_install.py

With no flinch on sys.path, installs the legacy add-on zip (the wheel inside) into the clean user profile the
environment points at, enables it (its register() unpacks the wheel), imports the shared RobotExpressive rig,
retargets a shared BVH walk onto that armature (the user's own rig) with and without a hit on its right forearm,
and checks: a new action on that armature with every bone keyed over the clip, the hit bone deviating from the
plain retarget after the hit and not before it, the armature's other data untouched. Prints
`figure blender_extension_ok 1`.

The corpus is $FLINCH_DATA, else ../shared/data beside the repository.
"""

import importlib.util
import math
import os
import sys

import bpy

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
DATA = os.environ.get("FLINCH_DATA") or os.path.join(REPO, "..", "shared", "data")
RIG = os.path.join(DATA, "gltf", "RobotExpressive_threejs_reexport.glb")
CLIP = os.path.join(DATA, "bvh", "cmu_02_01_walk.bvh")


def fail(message):
    raise AssertionError(message)


def bone_matrices(obj, action, frames, bone):
    obj.animation_data.action = action
    out = []
    for f in frames:
        bpy.context.scene.frame_set(f)
        out.append(obj.pose.bones[bone].matrix.copy())
    return out


def angle_between(a, b):
    angle = math.degrees(a.to_quaternion().rotation_difference(b.to_quaternion()).angle)
    return min(angle, 360.0 - angle)


def main():
    zip_path = os.environ.get("FLINCH_ADDON_ZIP") or fail("FLINCH_ADDON_ZIP is not set")
    profile = os.environ.get("BLENDER_USER_SCRIPTS") or fail("BLENDER_USER_SCRIPTS is not set (a clean profile)")
    if importlib.util.find_spec("flinch") is not None:
        fail(f"flinch is importable before the install ({importlib.util.find_spec('flinch').origin})")
    if importlib.util.find_spec("flinch_addon") is not None:
        fail("flinch_addon is importable before the install")
    for p in (RIG, CLIP):
        os.path.exists(p) or fail(f"missing corpus file {p}")

    bpy.ops.preferences.addon_install(filepath=zip_path, overwrite=True)
    addons = bpy.utils.user_resource("SCRIPTS", path="addons")
    installed = os.path.join(addons, "flinch_addon")
    if not os.path.realpath(installed).startswith(os.path.realpath(profile)):
        fail(f"the add-on went to {installed}, outside the clean profile {profile}")
    os.path.isdir(installed) or fail(f"addon_install put no flinch_addon into {addons}")
    bpy.ops.preferences.addon_enable(module="flinch_addon")
    import flinch  # noqa: E402
    import flinch_addon  # noqa: E402
    from flinch_addon import transfer  # noqa: E402

    if flinch_addon._flinch_missing is not None:
        fail(flinch_addon._flinch_missing)
    vendor = os.path.join(installed, "_vendor")
    if not os.path.realpath(flinch.__file__).startswith(os.path.realpath(vendor)):
        fail(f"flinch was imported from {flinch.__file__}, not from the unpacked wheel in {vendor}")
    print(f"installed {installed}; flinch {flinch.__version__} from {os.path.dirname(flinch.__file__)}")

    # The user's rig: the shared robot, imported as Blender's glTF importer makes it (with its meshes).
    transfer.import_gltf(filepath=RIG)
    rigs = [o for o in bpy.context.scene.objects if o.type == "ARMATURE"]
    len(rigs) == 1 or fail(f"{len(rigs)} armatures in {RIG}")
    obj = rigs[0]
    bones_before = sorted(b.name for b in obj.data.bones)
    objects_before = sorted(o.name for o in bpy.data.objects)
    for o in bpy.context.view_layer.objects:
        o.select_set(False)
    obj.select_set(True)
    bpy.context.view_layer.objects.active = obj
    own_action = obj.animation_data.action if obj.animation_data else None

    s = bpy.context.scene.flinch
    s.bone = "LowerArmR"
    s.bone in obj.data.bones or fail(f"no LowerArmR in {bones_before}")
    s.hit_time = 1.0
    s.kind = "IMPULSE"
    s.direction = (1.0, 0.0, 0.0)
    s.strength = 8.0

    assert bpy.ops.flinch.retarget(filepath=CLIP, react=False) == {"FINISHED"}
    plain = obj.animation_data.action
    (plain is not None and plain != own_action and plain.name.startswith("cmu_02_01_walk_retarget")) or fail(plain)
    assert bpy.ops.flinch.retarget(filepath=CLIP, react=True) == {"FINISHED"}
    reacted = obj.animation_data.action
    (reacted is not None and reacted not in (plain, own_action)) or fail(reacted)
    reacted.name.startswith("cmu_02_01_walk_flinch") or fail(reacted.name)

    # The user's own armature, nothing imported left behind.
    sorted(o.name for o in bpy.data.objects) == objects_before or fail(
        f"objects changed: {sorted(o.name for o in bpy.data.objects)} vs {objects_before}"
    )
    sorted(b.name for b in obj.data.bones) == bones_before or fail("the armature's bones changed")

    start, end = transfer.action_range(reacted)
    transfer.action_range(plain) == (start, end) or fail((transfer.action_range(plain), (start, end)))
    fps = bpy.context.scene.render.fps / bpy.context.scene.render.fps_base
    frames = list(range(start, end + 1))
    keyed = {c.data_path.split('"')[1] for c in reacted.fcurves if c.data_path.startswith("pose.bones")}
    counts = {len(c.keyframe_points) for c in reacted.fcurves}
    print(f"retargeted onto {obj.name}: action {reacted.name}, frames {start}..{end} at {fps:g} fps, "
          f"{len(keyed)} of {len(bones_before)} bones keyed")
    counts == {end - start + 1} or fail(f"key counts {counts}, expected {end - start + 1}")
    len(keyed) >= 20 and s.bone in keyed or fail(f"keyed bones: {sorted(keyed)}")
    duration = (end - start) / fps
    duration > 2.0 or fail(f"the action lasts {duration} s, the walk 2.85 s")

    before = bone_matrices(obj, plain, frames, s.bone)
    after = bone_matrices(obj, reacted, frames, s.bone)
    dev = [angle_between(a, b) for a, b in zip(before, after)]
    all(math.isfinite(d) for d in dev) or fail("non-finite pose")
    hit = int(round(s.hit_time * fps))
    pre = max(dev[: max(1, hit - 1)])
    post = max(dev[hit:])
    print(f"{s.bone}: {pre:.4f} deg from the plain retarget before the hit, peak {post:.2f} deg after it")
    pre < 0.5 or fail(f"the reacted retarget differs before the hit: {pre} deg")
    post > 2.0 or fail(f"no reaction at the hit bone: {post} deg")
    # The retarget moves the rig: the hips travel with the walk (world space; this armature is scaled 100x).
    hips = bone_matrices(obj, plain, [start, end], "Hips")
    travel = ((obj.matrix_world @ hips[1]).translation - (obj.matrix_world @ hips[0]).translation).length
    print(f"Hips travel {travel:.3f} m over the clip")
    travel > 1.0 or fail(f"the hips barely move: {travel} m")

    # What the user's armature now does is what flinch computed: every keyed bone's world position at every
    # frame against flinch's forward kinematics of the reacted clip (flinch's Y-up world is Blender's Z-up one:
    # (x, y, z) -> (x, -z, y), as Blender's glTF exporter maps it). The scene's frames fall on clip frames.
    action, result = transfer.retarget(bpy.context, obj, s, CLIP, react=True)
    clip = result.clip
    rate = 1.0 / clip.frame_time
    step = rate / fps
    abs(step - round(step)) < 1e-3 or fail(f"clip rate {rate} is not a multiple of the scene's {fps} fps")
    world = clip.world_transforms()
    names = list(clip.joint_names)
    obj.animation_data.action = action
    worst = (0.0, None, None)
    for f in frames:
        bpy.context.scene.frame_set(f)
        k = int(round((f - start) * step))
        if k >= clip.frame_count:
            break
        for b in keyed:
            p = world[k][names.index(b)]
            want = (p[0, 3], -p[2, 3], p[1, 3])
            got = obj.matrix_world @ obj.pose.bones[b].head
            err = math.dist(want, tuple(got))
            if err > worst[0]:
                worst = (err, b, f)
    print(f"figure blender_retarget_pos_err_mm {worst[0] * 1e3:.4f} mm (at {worst[1]}, frame {worst[2]})")
    worst[0] < 1e-3 or fail(f"the armature is {worst[0] * 1e3:.3f} mm from flinch's pose at {worst[1]}, frame {worst[2]}")

    # Bad input: a missing clip file is reported and adds nothing.
    actions = len(bpy.data.actions)
    try:
        status = bpy.ops.flinch.retarget(filepath=os.path.join(DATA, "no_such_clip.bvh"))
    except RuntimeError as e:  # background mode raises the operator's error report
        status = {"CANCELLED"}
        "no_such_clip.bvh" in str(e) or fail(e)
    status == {"CANCELLED"} or fail(status)
    len(bpy.data.actions) == actions or fail("a failed retarget added actions")

    bpy.ops.preferences.addon_disable(module="flinch_addon")
    print("figure blender_extension_ok 1")


main()
