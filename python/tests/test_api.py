"""The flinch Python API on corpus clips: loading, characters, hits, scenes, torques, metrics, bakes."""

import json
import math
import subprocess

import numpy as np
import pytest

import flinch


def test_load_bvh_arrays(walk):
    clip = flinch.load(walk)
    assert "RightForeArm" in clip.joint_names
    n = len(clip.joint_names)
    assert clip.parents[0] == -1 and all(-1 <= p < i for i, p in enumerate(clip.parents))
    rot = clip.rotations()
    tr = clip.translations()
    assert rot.shape == (clip.frame_count, n, 4) and rot.dtype == np.float64
    assert tr.shape == (clip.frame_count, n, 3)
    assert np.allclose(np.linalg.norm(rot, axis=2), 1.0, atol=1e-9)
    assert clip.frame_time > 0 and math.isclose(clip.duration, (clip.frame_count - 1) * clip.frame_time)
    assert clip.format.lower().startswith("bvh")


def test_load_gltf_and_urdf(data):
    fox = flinch.load(data / "gltf" / "Fox.glb")
    assert fox.frame_count > 1 and len(fox.joint_names) > 5
    urdf = sorted((data / "urdf").rglob("*.urdf"))
    assert urdf, "no URDF in the corpus"
    robot = flinch.load(urdf[0])
    assert robot.frame_count == 1 and len(robot.joint_names) >= 2


def test_character_follows_then_reacts(walk):
    clip = flinch.load(walk)
    calm = flinch.Character(clip)
    hit = flinch.Character(clip)
    assert calm.step_size == pytest.approx(1 / 120)
    for _ in range(60):
        calm.step()
        hit.step()
    j = hit.joint_names.index("RightForeArm")
    assert np.degrees(calm.joint_deviations()).max() < 2.0
    hit.apply_impulse("RightForeArm", [8.0, 0.0, 0.0])
    peak = 0.0
    for _ in range(30):
        calm.step()
        hit.step()
        peak = max(peak, hit.joint_deviations()[j])
    assert math.degrees(peak) > 3.0, math.degrees(peak)
    # Only the hit arm's side moved that much.
    assert np.degrees(calm.joint_deviations()).max() < 2.0
    rot, tr = hit.pose()
    assert rot.shape == (len(hit.joint_names), 4) and tr.shape == (len(hit.joint_names), 3)
    assert np.allclose(np.linalg.norm(rot, axis=1), 1.0)
    w = hit.world_transforms()
    assert w.shape == (len(hit.joint_names), 4, 4)
    assert np.allclose(w[:, 3], [0, 0, 0, 1])
    assert np.allclose(w[0, :3, 3], tr[0])
    assert hit.time == pytest.approx(90 / 120)


def test_run_matches_python_loop(walk):
    clip = flinch.load(walk)
    a = flinch.Character(clip)
    b = flinch.Character(clip)
    steps = a.run(duration=0.5)
    assert steps == 60
    for _ in range(steps):
        b.step()
    assert np.array_equal(a.pose()[0], b.pose()[0])


def test_torques_and_metrics(walk):
    ch = flinch.Character(flinch.load(walk))
    tau = ch.torques()
    ff = ch.feedforward()
    nb = len(ch.body_names)
    assert tau.ndim == 3 and tau.shape[1:] == (nb, 3) and tau.shape == ff.shape
    assert np.isfinite(tau).all() and np.abs(tau).max() > 1.0  # a walk needs real hip/knee torques
    m = ch.evaluate(hits=[{"bone": "RightForeArm", "time": 1.0, "impulse": [6.0, 0.0, 0.0]}], duration=2.0)
    assert m["track_rms_deg"] < 1.0
    assert m["hit"]["peak_deg"] > 2.0 and m["hit"]["energy_j"] > 0
    assert set(m["joints"]) <= set(ch.joint_names)


def test_scene_ball_hit_events(walk):
    scene = flinch.Scene(restitution=0.0)
    ch = flinch.Character(flinch.load(walk))
    key = scene.add_character(ch)
    with pytest.raises(flinch.StaleHandleError):
        ch.step()
    launch, pos, vel = scene.aim_ball(key, "RightForeArm", 0.6, [15.0, 0.0, 0.0])
    assert launch == pytest.approx(0.4)
    events = []
    ball = None
    while scene.time < 1.0:
        if ball is None and scene.time >= launch - 1e-9:
            ball = scene.spawn_ball(pos, vel)
        scene.step(1 / 120)
        events += scene.events
    assert events, "the aimed ball hit nothing"
    e = events[0]
    assert e.ball == ball and e.character == key and e.energy_j >= 0
    assert np.linalg.norm(e.impulse) > 0.1
    assert np.degrees(scene.joint_deviations(key)).max() > 1.0
    back = scene.remove_character(key)
    assert back.time == pytest.approx(scene.time, abs=1e-9)
    with pytest.raises(flinch.StaleHandleError):
        scene.pose(key)


def test_bake_writes_clip(walk, tmp_path):
    out = tmp_path / "walk_hit.bvh"
    hits = [{"type": "impulse", "time": 1.0, "bone": "RightForeArm", "impulse": [6.0, 0.0, 0.0]}]
    r = flinch.bake(walk, out, hits)
    clip = flinch.load(walk, drop_tpose=True)  # the bake drops the walk's leading T-pose frame (cgspeed BVH)
    back = flinch.load(out)
    assert r.frames == clip.frame_count == back.frame_count
    assert back.joint_names == clip.joint_names
    assert len(r.events) == 1 and r.events[0].bone == "RightForeArm" and r.events[0].ball is None
    assert r.metrics["hit"]["peak_deg"] > 2.0
    assert r.deviation.shape == (r.steps, 2)
    # The reacted clip differs from the input after the hit, not before.
    d = np.abs(back.rotations() - clip.rotations()).max(axis=(1, 2))
    hit_frame = int(round(1.0 / clip.frame_time))
    assert d[: hit_frame - 1].max() < 1e-4 and d[hit_frame:].max() > 1e-2


def test_bake_is_the_cli_bake(walk, tmp_path, flinch_bin):
    hits = {"restitution": 0.0, "hits": [{"type": "aimed_ball", "bone": "RightForeArm", "arrival": 1.0, "velocity": [15, 0, 0]}]}
    script = tmp_path / "hits.json"
    script.write_text(json.dumps(hits))
    for ext in ("bvh", "glb"):
        cli = tmp_path / f"cli.{ext}"
        subprocess.run([flinch_bin, "bake", str(walk), "-o", str(cli), "--hits", str(script)], check=True, capture_output=True)
        py = tmp_path / f"py.{ext}"
        flinch.bake(walk, py, hits)
        assert py.read_bytes() == cli.read_bytes(), ext


def test_bake_onto_is_the_cli_bake_onto(walk, tmp_path, flinch_bin, data):
    """flinch.bake(onto=) runs the CLI's retarget: the same bytes as `flinch bake --onto`, and its in-memory clip
    is on the character's skeleton."""
    robot = data / "gltf" / "RobotExpressive_threejs_reexport.glb"
    hits = [{"type": "impulse", "time": 1.0, "bone": "RightForeArm", "impulse": [8.0, 0.0, 0.0]}]
    script = tmp_path / "hits.json"
    script.write_text(json.dumps({"hits": hits}))
    cli = tmp_path / "cli.glb"
    subprocess.run(
        [flinch_bin, "bake", str(walk), "--onto", str(robot), "-o", str(cli), "--hits", str(script)],
        check=True,
        capture_output=True,
    )
    py = tmp_path / "py.glb"
    r = flinch.bake(walk, py, hits, onto=robot)
    assert py.read_bytes() == cli.read_bytes()
    assert r.clip.joint_names == flinch.load(robot).joint_names
    assert r.clip.frame_count == r.frames
    # The robot's 14 clips are kept, the reacted one is added and the file read back: feet on the floor.
    assert r.animation == "cmu_02_01_walk_reacted"
    rb = r.readback
    assert rb["frames"] == r.frames and rb["failures"] == []
    assert rb["foot_height_p95_mm"] <= 10.0 and rb["skate_mm"] <= 10.0 and len(rb["stances"]) >= 4
    both = flinch.bake(walk, tmp_path / "both.glb", hits, onto=robot, name="hit", keep_unreacted=True)
    assert both.animation == "hit"
    hit = flinch.load(tmp_path / "both.glb", animation="hit")
    unreacted = flinch.load(tmp_path / "both.glb", animation="hit_unreacted")
    assert hit.frame_count == unreacted.frame_count == r.frames
    with pytest.raises(flinch.InvalidArgumentError, match="map"):
        flinch.bake(walk, tmp_path / "x.glb", map=script)
    with pytest.raises(flinch.FlinchError, match="missing_rig.glb"):
        flinch.bake(walk, tmp_path / "y.glb", onto=tmp_path / "missing_rig.glb")
    assert not (tmp_path / "y.glb").exists()


def test_errors_are_python_exceptions(walk, tmp_path, data):
    with pytest.raises(flinch.FlinchIOError) as e:
        flinch.load(tmp_path / "missing.bvh")
    assert isinstance(e.value, OSError) and "missing.bvh" in str(e.value)
    bad = tmp_path / "bad.bvh"
    bad.write_text("HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0\n")
    with pytest.raises(flinch.ParseError) as e:
        flinch.load(bad)
    assert isinstance(e.value, ValueError) and "bad.bvh" in str(e.value)
    with pytest.raises(flinch.InvalidArgumentError):
        flinch.load(tmp_path / "clip.txt")
    with pytest.raises(TypeError):
        flinch.load(42)
    ch = flinch.Character(flinch.load(walk))
    with pytest.raises(flinch.UnknownBoneError) as e:
        ch.apply_impulse("NoSuchBone", [1, 0, 0])
    assert "NoSuchBone" in str(e.value) and isinstance(e.value, LookupError)
    with pytest.raises(flinch.InvalidArgumentError):
        ch.apply_impulse("RightForeArm", [math.nan, 0, 0])
    with pytest.raises(TypeError):
        ch.apply_impulse("RightForeArm", 3.0)
    with pytest.raises(flinch.InvalidArgumentError):
        ch.step(-1.0)
    with pytest.raises(flinch.InvalidArgumentError):
        flinch.Character(flinch.load(walk), rate=0.0)
    with pytest.raises(flinch.ConfigError) as e:
        flinch.bake(walk, tmp_path / "o.bvh", {"hits": [{"type": "impulse", "time": 1.0}]})
    assert "hits[0]" in str(e.value)
    with pytest.raises(flinch.UnknownBoneError):
        flinch.bake(walk, tmp_path / "o.bvh", [{"type": "impulse", "time": 1.0, "bone": "Nope", "impulse": [1, 0, 0]}])
    with pytest.raises(flinch.FlinchIOError):
        flinch.bake(walk, tmp_path / "no" / "such" / "folder.bvh")
    with pytest.raises(flinch.FlinchError):
        flinch.bake(walk, tmp_path / "o.txt")
    assert not (tmp_path / "o.bvh").exists()
    with pytest.raises(flinch.ConfigError):
        flinch.Character(flinch.load(walk), config={"gains": {"nonsense": 1}})


def test_find_bone_on_corpus(data):
    found = {}
    for f in sorted((data / "bvh").glob("*.bvh")):
        names = flinch.load(f).joint_names
        found[f.name] = flinch.find_bone(names)
    assert all(found.values()), found
    assert found["cmu_02_01_walk.bvh"] == "RightForeArm"
    assert all("left" not in b.lower() and not b.endswith((".L", "_L")) for b in found.values()), found


def test_free_root_falls_after_a_push(walk):
    c = flinch.Character(flinch.load(walk), config={"root": {"policy": "assisted"}})
    assert c.root_policy == "assisted"
    assert c.assist_weight == 1.0
    c.run(1.0)
    assert c.root_state == "Tracking" and c.root_events == []
    c.apply_impulse("role:chest", [0.0, 0.0, -60.0])
    c.run(1.0)
    events = c.root_events
    assert events[0][1:] == ("Tracking", "Staggering")
    assert 1.0 < events[0][0] < 1.0 + 2 * c.step_size
    c.assist_weight = 0.0
    with pytest.raises(flinch.InvalidArgumentError):
        c.assist_weight = float("nan")
    with pytest.raises(flinch.InvalidArgumentError):
        c.root_policy = "flying"
    c.root_policy = "kinematic"
    assert c.root_policy == "kinematic" and c.root_state == "Tracking"
