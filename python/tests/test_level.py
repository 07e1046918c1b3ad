"""The level from Python: the sample level loaded and hit by rays, colliders of every shape added, refused shapes,
stale and foreign keys, a ray at a character's bone, and a kinematic collider's push as a HitEvent naming it.
Uses the repository's samples only (no corpus)."""

import math
import pathlib

import numpy as np
import pytest

import flinch

REPO = pathlib.Path(__file__).resolve().parents[2]

LEVEL = REPO / "samples" / "level" / "training_ground.glb"
WALK = REPO / "samples" / "data" / "cmu_02_01_walk.bvh"


def test_sample_level_loads_and_a_ray_meets_its_floor():
    scene = flinch.Scene()
    keys = scene.load_level(LEVEL, position=(1.0, 0.25, 2.0))
    assert len(keys) == 11 and len(set(keys)) == 11 and all(k != 0 for k in keys)
    assert scene.collider_count == 11
    # Open floor at (-10, 0, -10) of the level's frame.
    hit = scene.cast_ray((-9.0, 5.25, -8.0), (0.0, -2.0, 0.0))
    assert hit is not None and hit["kind"] == "collider"
    assert hit["collider"] in keys and hit["character"] is None and hit["bone"] is None
    assert hit["distance"] == pytest.approx(5.0, abs=1e-9)
    assert hit["point"][1] == pytest.approx(0.25, abs=1e-9)
    assert hit["normal"] == pytest.approx((0.0, 1.0, 0.0), abs=1e-9)
    assert scene.cast_ray((-9.0, 5.25, -8.0), (0.0, 1.0, 0.0)) is None
    assert scene.cast_ray((-9.0, 5.25, -8.0), (0.0, -1.0, 0.0), max_distance=4.0) is None
    # A mask that meets no collider's layers sees nothing.
    assert scene.cast_ray((-9.0, 5.25, -8.0), (0.0, -1.0, 0.0), mask=0) is None
    sweep = scene.cast_sphere((-9.0, 5.25, -8.0), 0.5, (0.0, -1.0, 0.0), max_distance=10.0)
    assert sweep is not None and sweep["distance"] == pytest.approx(4.5, abs=1e-6)
    scene.remove_collider(keys[0])
    assert scene.collider_count == 10
    with pytest.raises(flinch.StaleHandleError, match="collider"):
        scene.remove_collider(keys[0])


def test_every_shape_is_added_and_refused_shapes_name_their_problem():
    scene = flinch.Scene()
    cube = [(x, y, z) for x in (0, 1) for y in (0, 1) for z in (0, 1)]
    keys = [
        scene.add_collider("plane", normal=(0, 1, 0)),
        scene.add_collider("box", half_extents=(0.5, 0.5, 0.5), position=(3, 0.5, 0), friction=0.4),
        scene.add_collider("sphere", radius=0.3, position=(5, 0.3, 0), restitution=0.5),
        scene.add_collider("capsule", half_height=0.45, radius=0.035, position=(0, 1, 5), kinematic=True),
        scene.add_collider("convex_hull", points=np.array(cube, dtype=float), position=(-3, 0, 0)),
        scene.add_collider(
            "mesh", vertices=[(0, 0, 0), (1, 0, 0), (0, 0, 1)], triangles=[(0, 2, 1)], position=(0, 0, -5)
        ),
        scene.add_collider("height_field", heights=np.zeros((3, 4)), size_x=2.0, size_z=1.0, position=(8, 0, 8)),
    ]
    assert len(set(keys)) == 7 and scene.collider_count == 7
    # The box, from above: its top at y = 1.
    hit = scene.cast_ray((3.0, 5.0, 0.0), (0.0, -1.0, 0.0))
    assert hit["collider"] == keys[1] and hit["distance"] == pytest.approx(4.0, abs=1e-9)

    nan_vertex = [(0, 0, 0), (1, 0, 0), (0, math.nan, 1)]
    with pytest.raises(flinch.InvalidArgumentError, match="vertex 2 is not finite"):
        scene.add_collider("mesh", vertices=nan_vertex, triangles=[(0, 1, 2)])
    with pytest.raises(flinch.InvalidArgumentError, match="empty mesh"):
        scene.add_collider("mesh", vertices=[], triangles=[])
    with pytest.raises(flinch.InvalidArgumentError, match="not finite"):
        scene.add_collider("height_field", heights=[[0, 0], [math.nan, 0]], size_x=1.0, size_z=1.0)
    with pytest.raises(flinch.InvalidArgumentError, match="2-D"):
        scene.add_collider("height_field", heights=[0, 0, 0, 0], size_x=1.0, size_z=1.0)
    with pytest.raises(flinch.InvalidArgumentError, match="not a vertex index"):
        scene.add_collider("mesh", vertices=[(0, 0, 0), (1, 0, 0), (0, 0, 1)], triangles=[(0, 1, -2)])
    with pytest.raises(flinch.InvalidArgumentError, match="expected 'plane'"):
        scene.add_collider("cone", radius=1.0)
    with pytest.raises(flinch.InvalidArgumentError, match="needs `radius`"):
        scene.add_collider("capsule", half_height=0.5)
    with pytest.raises(flinch.InvalidArgumentError, match="`radius` is not a parameter of a box"):
        scene.add_collider("box", half_extents=(1, 1, 1), radius=1.0)
    with pytest.raises(flinch.InvalidArgumentError, match="rotation"):
        scene.add_collider("sphere", radius=1.0, rotation=(0, 0, 0, 0))
    with pytest.raises(flinch.InvalidArgumentError, match="restitution"):
        scene.add_collider("sphere", radius=1.0, restitution=2.0)
    with pytest.raises(flinch.InvalidArgumentError, match="one plane"):
        scene.add_collider("convex_hull", points=[(0, 0, 0), (1, 0, 0), (0, 0, 1), (1, 0, 1)])
    assert scene.collider_count == 7, "nothing was added"


def test_stale_foreign_and_static_keys_are_refused():
    scene, other = flinch.Scene(), flinch.Scene()
    box = scene.add_collider("box", half_extents=(0.5, 0.5, 0.5))
    bat = scene.add_collider("capsule", half_height=0.45, radius=0.035, kinematic=True, name="bat")
    foreign = other.add_collider("sphere", radius=0.2, kinematic=True)
    scene.move_collider(bat, (0.1, 1.0, 0.0))
    scene.move_collider(bat, (0.2, 1.0, 0.0), (0, 0, 0, 1), velocity=(12.0, 0.0, 0.0))
    scene.step(1 / 120)
    with pytest.raises(flinch.InvalidArgumentError, match="static"):
        scene.move_collider(box, (0.0, 1.0, 0.0))
    with pytest.raises(flinch.StaleHandleError):
        scene.move_collider(foreign, (0.0, 1.0, 0.0))
    with pytest.raises(flinch.StaleHandleError):
        scene.remove_collider(foreign)
    with pytest.raises(flinch.StaleHandleError):
        scene.remove_collider(0)
    scene.remove_collider(bat)
    with pytest.raises(flinch.StaleHandleError, match="not in this scene"):
        scene.move_collider(bat, (0.0, 1.0, 0.0))
    with pytest.raises(flinch.InvalidArgumentError, match="direction"):
        scene.cast_ray((0, 1, 0), (0, 0, 0))
    with pytest.raises(flinch.InvalidArgumentError, match="radius"):
        scene.cast_sphere((0, 1, 0), -1.0, (0, -1, 0))
    with pytest.raises(flinch.FlinchIOError):
        scene.load_level(REPO / "samples" / "level" / "no_such_level.glb")
    with pytest.raises(flinch.ParseError):
        scene.load_level(WALK)
    assert scene.collider_count == 1


def test_a_ray_meets_a_bone_and_a_kinematic_push_is_a_hit_event_naming_the_collider():
    clip = flinch.load(WALK)
    character = flinch.Character(clip)
    names = character.joint_names
    world = character.world_transforms()
    arm = world[names.index("RightForeArm"), :3, 3]
    hips = world[0, :3, 3]
    scene = flinch.Scene()
    key = scene.add_character(character)
    hit = scene.cast_ray(hips + np.array([2.0, 0.0, 0.0]), (-1.0, 0.0, 0.0))
    assert hit is not None and hit["kind"] == "character"
    assert hit["character"] == key and hit["bone"] in names and hit["collider"] is None
    assert 1.0 < hit["distance"] < 2.0
    scene.apply_impulse(key, hit["bone"], [-2.0, 0.0, 0.0], point=hit["point"])
    # A kinematic plate rising at 2 m/s from under the right forearm to 5 cm under its joint.
    plate = scene.add_collider(
        "box", half_extents=(0.15, 0.02, 0.15), position=arm - np.array([0.0, 0.3, 0.0]), kinematic=True
    )
    pushes = []
    for i in range(1, 16):
        scene.move_collider(plate, arm + np.array([0.0, -0.3 + 2.0 * i / 120, 0.0]))
        scene.step(1 / 120)
        pushes += [e for e in scene.events if e.collider is not None]
    assert pushes, "the plate's push made no hit event"
    assert all(e.collider == plate and e.ball is None and e.character == key for e in pushes)
    assert "collider" in repr(pushes[0])


def test_a_walk_prepared_on_the_level_climbs_its_stairs():
    """The flat-ground walk, looped and adapted to the sample level's stairs (Character(level=scene)), climbs the
    four 15 cm steps on an assisted free root without falling (the C sample engine_world.c, from Python)."""
    config = {"root": {"policy": "assisted"}}
    walk = flinch.load(WALK).looped(3.5)
    assert walk.duration == pytest.approx(3.5, abs=2.0 / 120.0)
    with pytest.raises(flinch.InvalidArgumentError, match="loop length"):
        walk.looped(float("nan"))
    flat = flinch.Character(walk, config=config)
    floor = flat.floor
    (x0, y0, z0), _ = flat.root_target(0.0)
    (x1, _, z1), _ = flat.root_target(1.0)
    assert 0.8 < y0 - floor < 1.1
    with pytest.raises(flinch.InvalidArgumentError, match="time"):
        flat.root_target(float("nan"))

    scene = flinch.Scene()
    with pytest.raises(flinch.InvalidArgumentError, match="no static collider"):
        flinch.Character(walk, config=config, level=scene)
    # The level turned about y so that its -x (the stairs' way up) is the walk's heading, the walk starting 0.6 m
    # before the first step (x = 1.9 in the level's frame).
    heading = math.atan2(z1 - z0, -(x1 - x0))
    position = (x0 - 2.5 * math.cos(heading), floor, z0 + 2.5 * math.sin(heading))
    rotation = (0.0, math.sin(heading / 2.0), 0.0, math.cos(heading / 2.0))
    scene.load_level(LEVEL, position=position, rotation=rotation)
    key = scene.add_character(flinch.Character(walk, config=config, level=scene))
    _, translations = scene.pose(key)
    start = translations[0][1]
    rise, drop = 0.0, 0.0
    for _ in range(int(3.3 * 120)):
        scene.step(1.0 / 120.0)
        _, translations = scene.pose(key)
        rise = max(rise, translations[0][1] - start)
        drop = min(drop, translations[0][1] - start)
    # Up four 15 cm steps onto the landing, on its feet (a fall would take the root down 0.7 m).
    assert 0.5 < rise < 0.75
    assert drop > -0.1
