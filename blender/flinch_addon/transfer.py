"""The work behind the operators: the armature's action out as BVH, flinch's bake, the reacted motion back in.

Why through BVH: ``flinch.bake`` (the function behind ``flinch bake``) takes a clip file, and Blender's own BVH
exporter writes any armature's action, whatever it was imported from. The baked BVH is imported as a temporary
armature and its pose copied onto the original armature bone by bone in world space (so the rest poses need not
match: a glTF armature works like a BVH one), then the temporary armature is removed.

The retarget (:func:`retarget`) goes the other way round: the armature at rest out as GLB (the character), the
clip file baked onto it by flinch into a GLB of the same nodes, read back with Blender's glTF importer and copied
onto the armature the same way.
"""

import math
import os
import shutil
import tempfile

import bpy
from mathutils import Matrix, Vector


def import_bvh(**options):
    """``bpy.ops.import_anim.bvh`` with Blender 3.4's importer made to run on Python >= 3.11: it opens files with
    mode 'rU', which 3.11 removed (Debian's Blender 3.4 runs the system Python 3.11). The importer's module gets
    an ``open`` that drops the 'U' (universal newlines are the default since Python 3)."""
    import builtins

    import io_anim_bvh.import_bvh as importer

    if "open" not in vars(importer):

        def open_without_u(file, mode="r", *args, **kwargs):
            return builtins.open(file, mode.replace("U", ""), *args, **kwargs)

        importer.open = open_without_u
    return bpy.ops.import_anim.bvh(**options)


def import_gltf(**options):
    """``bpy.ops.import_scene.gltf`` with Blender 3.4's importer made to run on NumPy >= 1.24 (Debian's Blender 3.4
    with Debian's python3-numpy 1.24): it uses ``np.bool``, an alias NumPy removed; the builtin it stood for is
    put back under that name when missing (likewise ``np.int``, ``np.float``, ``np.object``)."""
    import numpy

    for alias, builtin in (("bool", bool), ("int", int), ("float", float), ("object", object)):
        if alias not in vars(numpy):
            setattr(numpy, alias, builtin)
    return bpy.ops.import_scene.gltf(**options)


def blender_to_flinch(v):
    """A Blender world vector (Z up) in flinch's world axes (Y up), as Blender's BVH import maps them."""
    return [v[0], v[2], -v[1]]


def hits_script(settings, bone):
    """The flinch hits script of the panel's settings (times relative to the action's first frame)."""
    d = Vector(settings.direction)
    if d.length == 0.0:
        raise ValueError("the hit direction is zero")
    d = blender_to_flinch(d.normalized())
    if settings.kind == "IMPULSE":
        hit = {"type": "impulse", "time": settings.hit_time, "bone": bone, "impulse": [c * settings.strength for c in d]}
    else:
        hit = {
            "type": "aimed_ball",
            "bone": bone,
            "arrival": settings.hit_time,
            "velocity": [c * settings.speed for c in d],
            "mass": settings.mass,
            "radius": settings.radius,
        }
    return {"hits": [hit]}


def action_range(action):
    """First and last keyed frame of an action (integers)."""
    start, end = action.frame_range
    return int(round(start)), int(round(end))


def export_bvh(context, obj, path):
    """Writes the armature's action over its frame range to ``path`` with Blender's BVH exporter."""
    start, end = action_range(obj.animation_data.action)
    for o in context.view_layer.objects:
        o.select_set(False)
    obj.select_set(True)
    context.view_layer.objects.active = obj
    bpy.ops.export_anim.bvh(
        filepath=path, frame_start=start, frame_end=end, rotate_mode="NATIVE", root_transform_only=False
    )
    return start, end


def _bake(context, obj, settings, output):
    import flinch

    bone = settings.bone
    if bone not in obj.data.bones:
        raise flinch.UnknownBoneError(f"no bone named {bone!r} in {obj.name}")
    work = tempfile.mkdtemp(prefix="flinch_")
    source = os.path.join(work, "source.bvh")
    frames = export_bvh(context, obj, source)
    result = flinch.bake(source, output, hits_script(settings, bone), rate=settings.rate)
    return result, frames, work


def bake_to_file(context, obj, settings, path):
    """Bakes the armature's action with the panel's hit into ``path`` (.bvh, .glb, .gltf)."""
    result, _, _ = _bake(context, obj, settings, path)
    return result


def simulate(context, obj, settings):
    """Bakes the hit and puts the reacted motion on ``obj`` as a new action; returns (action, flinch result)."""
    original = obj.animation_data.action
    scene = context.scene
    frame_before = scene.frame_current
    work = tempfile.mkdtemp(prefix="flinch_")
    baked_path = os.path.join(work, "reacted.bvh")
    result, (start, end), _ = _bake(context, obj, settings, baked_path)
    # The exported BVH is in armature space, so its axes are taken as they are (no Y-up conversion).
    import_bvh(
        filepath=baked_path, axis_forward="Y", axis_up="Z", frame_start=start, update_scene_fps=False,
        update_scene_duration=False, rotate_mode="NATIVE",
    )
    temp = context.view_layer.objects.active
    temp.matrix_world = obj.matrix_world.copy()
    try:
        action = copy_motion(context, temp, obj, start, end, original.name + "_flinch")
    finally:
        temp_action = temp.animation_data.action if temp.animation_data else None
        data = temp.data
        bpy.data.objects.remove(temp)
        bpy.data.armatures.remove(data)
        if temp_action is not None:
            bpy.data.actions.remove(temp_action)
        scene.frame_set(frame_before)
        context.view_layer.objects.active = obj
        obj.select_set(True)
    return action, result


def export_rig(context, obj, path):
    """Writes the armature ``obj`` and the meshes it deforms (its children) as a GLB at rest (no animation) with
    Blender's glTF exporter: the character flinch retargets onto."""
    for o in context.view_layer.objects:
        o.select_set(False)
    obj.select_set(True)
    for child in obj.children:
        if child.type == "MESH":
            child.select_set(True)
    context.view_layer.objects.active = obj
    bpy.ops.export_scene.gltf(
        filepath=path, export_format="GLB", use_selection=True, export_animations=False, export_yup=True
    )
    if not os.path.exists(path):
        raise RuntimeError(f"Blender's glTF exporter wrote no {path}")


def retarget_hits(settings):
    """The hits script of the panel's hit for a retarget (its bone a bone of the target armature, or a
    ``role:`` such as ``role:right_forearm``), or None when the panel's hit is off."""
    return hits_script(settings, settings.bone) if settings.bone else None


def retarget(context, obj, settings, source, react=True):
    """Retargets the clip file ``source`` (.bvh, .glb, .gltf) onto the armature ``obj`` with flinch (``flinch.bake``
    with ``onto``: the same retarget as ``flinch bake --onto``), with the panel's hit when ``react``, and puts the
    result on ``obj`` as a new action (``<clip>_flinch`` reacted, ``<clip>_retarget`` without the hit).

    The armature (with the meshes it deforms) goes out at rest as a temporary GLB, flinch bakes the clip onto it
    into another GLB (the same nodes, the reacted animation added), Blender's glTF importer reads that back as a
    temporary armature, and its pose is copied onto ``obj`` bone by bone by name in world space
    (:func:`copy_motion`). Returns (action, flinch result). The scene is left as it was on failure."""
    import flinch

    if not os.path.isfile(source):
        raise flinch.FlinchIOError(f"{source}: no such clip file")
    hits = retarget_hits(settings) if react else None
    if react and hits is None:
        raise ValueError("pick the bone to hit (a bone of the armature, or role:right_forearm)")
    bone = settings.bone
    if hits is not None and not bone.startswith("role:") and bone not in obj.data.bones:
        raise flinch.UnknownBoneError(f"no bone named {bone!r} in {obj.name}")
    scene = context.scene
    frame_before = scene.frame_current
    before = set(bpy.data.objects)
    before_actions = set(bpy.data.actions)
    work = tempfile.mkdtemp(prefix="flinch_retarget_")
    rig = os.path.join(work, "target.glb")
    baked = os.path.join(work, "reacted.glb")
    try:
        export_rig(context, obj, rig)
        result = flinch.bake(source, baked, hits, rate=settings.rate, onto=rig)
        import_gltf(filepath=baked)
        imported = [o for o in bpy.data.objects if o not in before]
        armatures = [o for o in imported if o.type == "ARMATURE"]
        if len(armatures) != 1:
            raise RuntimeError(f"the baked file {baked} imported {len(armatures)} armatures, expected 1")
        temp = armatures[0]
        reacted = _reacted_action(temp, before_actions)
        temp.animation_data.action = reacted
        start, end = action_range(reacted)
        if obj.animation_data is None:
            obj.animation_data_create()
        stem = os.path.splitext(os.path.basename(source))[0]
        name = f"{stem}_flinch" if react else f"{stem}_retarget"
        action = copy_motion(context, temp, obj, start, end, name)
    finally:
        for o in [o for o in bpy.data.objects if o not in before]:
            data = o.data
            bpy.data.objects.remove(o)
            if isinstance(data, bpy.types.Armature):
                bpy.data.armatures.remove(data)
            elif isinstance(data, bpy.types.Mesh):
                bpy.data.meshes.remove(data)
        keep = obj.animation_data.action if obj.animation_data else None
        for a in [a for a in bpy.data.actions if a not in before_actions and a != keep]:
            bpy.data.actions.remove(a)
        scene.frame_set(frame_before)
        for o in context.view_layer.objects:
            o.select_set(False)
        context.view_layer.objects.active = obj
        obj.select_set(True)
        shutil.rmtree(work, ignore_errors=True)
    return action, result


def _reacted_action(temp, before_actions):
    """The action the glTF importer made of the reacted animation on the temporary armature (the rig went out
    without animations, so it is the armature's only new one)."""
    actions = [a for a in bpy.data.actions if a not in before_actions]
    mine = [a for a in actions if any(c.data_path.startswith("pose.bones") for c in a.fcurves)]
    if temp.animation_data is not None and temp.animation_data.action in mine:
        return temp.animation_data.action
    if len(mine) != 1:
        raise RuntimeError(f"the baked file has {len(mine)} bone animations ({[a.name for a in mine]}), expected 1")
    return mine[0]


def copy_motion(context, source, target, start, end, name):
    """A new action on ``target`` with, at every frame of [start, end], the world pose of ``source``'s bones of
    the same names (bones missing from ``source`` keep their rest pose)."""
    scene = context.scene
    bones = [b for b in target.pose.bones if b.name in source.pose.bones]
    to_target = target.matrix_world.inverted() @ source.matrix_world
    from_target = to_target.inverted()
    # A bone's motion as the armature-space change of its rest frame, D = P R⁻¹: it does not depend on the bone's
    # roll, which Blender's BVH importer picks its own way (a glTF armature's bones have other rolls again).
    rest = {b.name: (source.data.bones[b.name].matrix_local.inverted(), b.bone.matrix_local) for b in bones}
    channels = {}  # (data_path, index, group) -> [values per frame]
    previous = {}
    for frame in range(start, end + 1):
        scene.frame_set(frame)
        pose = {}
        for b in bones:
            source_rest_inv, target_rest = rest[b.name]
            pose[b.name] = to_target @ source.pose.bones[b.name].matrix @ source_rest_inv @ from_target @ target_rest
        for b in bones:
            basis = _basis(b, pose)
            loc, rot, _ = basis.decompose()
            path = f'pose.bones["{b.name}"]'
            _append(channels, (path + ".location", b.name), loc)
            if b.rotation_mode == "QUATERNION":
                q = rot
                if b.name in previous and previous[b.name].dot(q) < 0.0:
                    q = -q
                previous[b.name] = q
                _append(channels, (path + ".rotation_quaternion", b.name), q)
            elif b.rotation_mode == "AXIS_ANGLE":
                axis, angle = rot.to_axis_angle()
                _append(channels, (path + ".rotation_axis_angle", b.name), (angle, *axis))
            else:
                e = rot.to_euler(b.rotation_mode, previous[b.name]) if b.name in previous else rot.to_euler(b.rotation_mode)
                previous[b.name] = e
                _append(channels, (path + ".rotation_euler", b.name), e)
    action = bpy.data.actions.new(name)
    frames = list(range(start, end + 1))
    for (path, group), columns in channels.items():
        for index, values in enumerate(columns):
            curve = action.fcurves.new(path, index=index, action_group=group)
            curve.keyframe_points.add(len(frames))
            co = [x for f, v in zip(frames, values) for x in (f, v)]
            curve.keyframe_points.foreach_set("co", co)
            curve.update()
    target.animation_data.action = action
    return action


def _append(channels, key, values):
    columns = channels.setdefault(key, [[] for _ in range(len(values))])
    for c, v in zip(columns, values):
        c.append(v)


def _basis(bone, pose):
    """The local (basis) matrix that puts ``bone`` at its armature-space matrix in ``pose``, given its parent's."""
    rest = bone.bone.matrix_local
    if bone.parent is None:
        return rest.inverted() @ pose[bone.name]
    parent_rest = bone.parent.bone.matrix_local
    parent_pose = pose.get(bone.parent.name)
    if parent_pose is None:
        parent_pose = parent_rest
    return (parent_rest.inverted() @ rest).inverted() @ parent_pose.inverted() @ pose[bone.name]


def angle_between(a: Matrix, b: Matrix) -> float:
    """Angle (degrees) between the rotations of two matrices."""
    angle = math.degrees(a.to_quaternion().rotation_difference(b.to_quaternion()).angle)
    return min(angle, 360.0 - angle)
