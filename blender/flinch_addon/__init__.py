"""flinch for Blender: hit an imported BVH/glTF armature and get its physically reacted motion as a new action.

Panel: 3D View > Sidebar (N) > flinch. Pick the bone, the hit time, the direction (Blender world axes) and the
impulse strength, or a projectile (a ball aimed at the bone), press "Simulate": the armature's action is exported
to BVH, baked by flinch (``flinch.bake``, the same Rust function as ``flinch bake``) and the reacted motion comes
back as a new action on the same armature (``<action>_flinch``). "Bake to file" writes the reacted motion to a
.bvh/.glb/.gltf file instead. "Retarget clip" takes a BVH/glTF clip file and puts it, retargeted onto the selected
armature by flinch and hit as the panel says, on that armature as a new action (``<clip>_flinch``).

Installs from one zip (blender/package.py): a Blender 4.2+ extension (blender_manifest.toml, the abi3 wheel in
./wheels, installed by Blender), or a legacy add-on for Blender 3.x whose register() unpacks the bundled wheel
into the add-on's folder (compiled modules cannot be imported from a zip) and puts it on sys.path; no pip, no
network. A flinch package already importable is used as it is.
"""

bl_info = {
    "name": "flinch: physical hit reactions",
    "author": "flinch",
    "version": (0, 1, 0),
    "blender": (3, 4, 0),
    "location": "View3D > Sidebar > flinch",
    "description": "Simulate a hit on an armature's motion capture with flinch and get the reacted action",
    "category": "Animation",
}

import os
import shutil
import sys
import zipfile

import bpy

from . import transfer

HERE = os.path.dirname(os.path.abspath(__file__))
# Why flinch cannot be imported (None once it can): shown in the panel and by the operators.
_flinch_missing = None


def bundled_wheel():
    """The flinch wheel shipped in the add-on's ``wheels`` folder, or None."""
    folder = os.path.join(HERE, "wheels")
    if not os.path.isdir(folder):
        return None
    wheels = sorted(f for f in os.listdir(folder) if f.startswith("flinch-") and f.endswith(".whl"))
    return os.path.join(folder, wheels[-1]) if wheels else None


def ensure_flinch():
    """Makes ``import flinch`` work: as it is when flinch is installed (a 4.2 extension's wheel, or pip), else
    from the bundled wheel unpacked once into ``_vendor/<wheel name>`` beside this file (a wheel is a zip; its
    compiled module must be a real file to load). Returns None, or why flinch is not available."""
    try:
        import flinch  # noqa: F401

        return None
    except ImportError as e:
        why = f"the flinch package is not importable ({e})"
    wheel = bundled_wheel()
    if wheel is None:
        return why + " and the add-on bundles no wheel: install the add-on from its zip (blender/package.py)"
    target = os.path.join(HERE, "_vendor", os.path.basename(wheel)[: -len(".whl")])
    try:
        if not os.path.isfile(os.path.join(target, "flinch", "__init__.py")):
            partial = target + ".partial"
            shutil.rmtree(partial, ignore_errors=True)
            with zipfile.ZipFile(wheel) as z:
                z.extractall(partial)
            shutil.rmtree(target, ignore_errors=True)
            os.replace(partial, target)
    except (OSError, zipfile.BadZipFile) as e:
        return f"cannot unpack the bundled wheel {wheel} into {target}: {e}"
    if target not in sys.path:
        sys.path.insert(0, target)
    try:
        import flinch  # noqa: F401, F811
    except ImportError as e:
        return f"the bundled wheel {os.path.basename(wheel)} does not load in this Blender's Python {sys.version.split()[0]}: {e}"
    return None


def _flinch_ok(operator):
    if _flinch_missing is not None:
        operator.report({"ERROR"}, f"flinch: {_flinch_missing}")
        return False
    return True

__all__ = ["register", "unregister", "transfer"]


class FlinchSettings(bpy.types.PropertyGroup):
    """The hit the panel sets up."""

    bone: bpy.props.StringProperty(name="Bone", description="Bone to hit")
    hit_time: bpy.props.FloatProperty(
        name="Hit time", description="Seconds from the start of the action", default=1.0, min=0.0, unit="TIME_ABSOLUTE"
    )
    direction: bpy.props.FloatVectorProperty(
        name="Direction", description="Direction of the hit (world axes)", default=(1.0, 0.0, 0.0), size=3
    )
    kind: bpy.props.EnumProperty(
        name="Hit",
        items=[
            ("IMPULSE", "Impulse", "An impulse on the bone's body at the hit time"),
            ("PROJECTILE", "Projectile", "A ball aimed to reach the bone at the hit time"),
        ],
        default="IMPULSE",
    )
    strength: bpy.props.FloatProperty(
        name="Strength", description="Impulse (N·s)", default=6.0, min=0.0, soft_max=50.0
    )
    speed: bpy.props.FloatProperty(name="Speed", description="Ball speed (m/s)", default=15.0, min=0.01)
    mass: bpy.props.FloatProperty(name="Mass", description="Ball mass (kg)", default=0.45, min=0.001)
    radius: bpy.props.FloatProperty(name="Radius", description="Ball radius (m)", default=0.11, min=0.001)
    rate: bpy.props.FloatProperty(name="Rate", description="Simulation rate (Hz)", default=120.0, min=1.0)
    output: bpy.props.StringProperty(
        name="File", description="Bake target (.bvh, .glb, .gltf)", subtype="FILE_PATH", default="//reacted.bvh"
    )


def _armature(context):
    obj = context.active_object
    if obj is None or obj.type != "ARMATURE":
        return None, "select an armature"
    if obj.animation_data is None or obj.animation_data.action is None:
        return None, f"{obj.name} has no action"
    return obj, None


class FLINCH_OT_simulate(bpy.types.Operator):
    """Simulate the hit and add the reacted motion as a new action on the armature"""

    bl_idname = "flinch.simulate"
    bl_label = "Simulate"
    bl_options = {"REGISTER", "UNDO"}

    def execute(self, context):
        if not _flinch_ok(self):
            return {"CANCELLED"}
        obj, why = _armature(context)
        if obj is None:
            self.report({"ERROR"}, f"flinch: {why}")
            return {"CANCELLED"}
        try:
            action, result = transfer.simulate(context, obj, context.scene.flinch)
        except Exception as e:  # noqa: BLE001 - shown to the user, the scene is left as it was
            self.report({"ERROR"}, f"flinch: {type(e).__name__}: {e}")
            return {"CANCELLED"}
        hit = result.metrics["hit"]
        peak = f", peak {hit['peak_deg']:.1f}° at {hit['peak_joint']}" if hit else ""
        self.report({"INFO"}, f"flinch: new action {action.name}, {result.frames} frames{peak}")
        return {"FINISHED"}


class FLINCH_OT_bake(bpy.types.Operator):
    """Simulate the hit and write the reacted motion to the file (BVH or glTF by extension)"""

    bl_idname = "flinch.bake"
    bl_label = "Bake to glTF/BVH"

    def execute(self, context):
        if not _flinch_ok(self):
            return {"CANCELLED"}
        obj, why = _armature(context)
        if obj is None:
            self.report({"ERROR"}, f"flinch: {why}")
            return {"CANCELLED"}
        path = bpy.path.abspath(context.scene.flinch.output)
        try:
            result = transfer.bake_to_file(context, obj, context.scene.flinch, path)
        except Exception as e:  # noqa: BLE001
            self.report({"ERROR"}, f"flinch: {type(e).__name__}: {e}")
            return {"CANCELLED"}
        self.report({"INFO"}, f"flinch: wrote {result.output} ({result.frames} frames)")
        return {"FINISHED"}


class FLINCH_OT_retarget(bpy.types.Operator):
    """Retarget a BVH/glTF clip onto the selected armature with flinch, hit as the panel says: a new action on it"""

    bl_idname = "flinch.retarget"
    bl_label = "Retarget clip"
    bl_options = {"REGISTER", "UNDO"}

    filepath: bpy.props.StringProperty(name="Clip", description="Source clip (.bvh, .glb, .gltf)", subtype="FILE_PATH")
    filter_glob: bpy.props.StringProperty(default="*.bvh;*.glb;*.gltf", options={"HIDDEN"})
    react: bpy.props.BoolProperty(
        name="Hit", description="Apply the panel's hit (off: the plain retarget)", default=True
    )

    def invoke(self, context, event):
        context.window_manager.fileselect_add(self)
        return {"RUNNING_MODAL"}

    def execute(self, context):
        if not _flinch_ok(self):
            return {"CANCELLED"}
        obj = context.active_object
        if obj is None or obj.type != "ARMATURE":
            self.report({"ERROR"}, "flinch: select the armature to retarget onto")
            return {"CANCELLED"}
        source = bpy.path.abspath(self.filepath)
        try:
            action, result = transfer.retarget(context, obj, context.scene.flinch, source, react=self.react)
        except Exception as e:  # noqa: BLE001 - shown to the user, the scene is left as it was
            self.report({"ERROR"}, f"flinch: {type(e).__name__}: {e}")
            return {"CANCELLED"}
        hit = result.metrics["hit"]
        peak = f", peak {hit['peak_deg']:.1f}° at {hit['peak_joint']}" if hit else ""
        self.report({"INFO"}, f"flinch: new action {action.name} on {obj.name}, {result.frames} frames{peak}")
        return {"FINISHED"}


class FLINCH_PT_panel(bpy.types.Panel):
    """The flinch panel of the 3D view's sidebar."""

    bl_label = "flinch"
    bl_space_type = "VIEW_3D"
    bl_region_type = "UI"
    bl_category = "flinch"

    def draw(self, context):
        s = context.scene.flinch
        layout = self.layout
        if _flinch_missing is not None:
            layout.label(text="flinch is not available", icon="ERROR")
            layout.label(text=_flinch_missing[:120])
        obj = context.active_object
        if obj is not None and obj.type == "ARMATURE":
            layout.prop_search(s, "bone", obj.data, "bones")
        else:
            layout.label(text="Select an armature")
        layout.prop(s, "hit_time")
        layout.prop(s, "kind", expand=True)
        layout.prop(s, "direction")
        if s.kind == "IMPULSE":
            layout.prop(s, "strength")
        else:
            layout.prop(s, "speed")
            layout.prop(s, "mass")
            layout.prop(s, "radius")
        layout.prop(s, "rate")
        layout.operator(FLINCH_OT_simulate.bl_idname)
        layout.prop(s, "output")
        layout.operator(FLINCH_OT_bake.bl_idname)
        layout.separator()
        layout.operator(FLINCH_OT_retarget.bl_idname, icon="ARMATURE_DATA")


_classes = (FlinchSettings, FLINCH_OT_simulate, FLINCH_OT_bake, FLINCH_OT_retarget, FLINCH_PT_panel)


def register():
    """Makes flinch importable (:func:`ensure_flinch`), registers the panel, the operators and ``Scene.flinch``."""
    global _flinch_missing
    _flinch_missing = ensure_flinch()
    if _flinch_missing is not None:
        print(f"flinch add-on: {_flinch_missing}")
    for c in _classes:
        bpy.utils.register_class(c)
    bpy.types.Scene.flinch = bpy.props.PointerProperty(type=FlinchSettings)


def unregister():
    """Removes what :func:`register` added."""
    del bpy.types.Scene.flinch
    for c in reversed(_classes):
        bpy.utils.unregister_class(c)
