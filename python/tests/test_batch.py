"""flinch.batch on a local Ray cluster with 2 workers: per-clip bakes, failures reported, resume, the CLI."""

import os
import shutil

import pytest

ray = pytest.importorskip("ray")

import flinch  # noqa: E402
from flinch import batch  # noqa: E402

HITS = {"hits": [{"type": "impulse", "time": 0.25, "bone": "role:right_forearm", "impulse": [6.0, 0.0, 0.0]}]}


@pytest.fixture(scope="module")
def cluster():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    assert ray.cluster_resources()["CPU"] == 2
    yield
    ray.shutdown()


@pytest.fixture
def clips(data, tmp_path):
    folder = tmp_path / "clips"
    folder.mkdir()
    for name in ("cmu_02_01_walk.bvh", "pybvh_bvh_test2.bvh", "makehuman_walk1.bvh"):
        shutil.copy(data / "bvh" / name, folder / name)
    (folder / "broken.bvh").write_text("HIERARCHY\nROOT Hips\n{\n")
    return folder


def test_batch_bakes_reports_and_resumes(cluster, clips, tmp_path):
    out = tmp_path / "out"
    report = batch.bake(clips, HITS, out, progress=False)
    by_name = {os.path.basename(c.input): c for c in report.clips}
    assert len(report.ok) == 3 and len(report.failed) == 1, report.table()
    broken = by_name["broken.bvh"]
    assert "ParseError" in broken.error and "broken.bvh" in broken.error
    assert not (out / "broken_reacted.bvh").exists()
    for c in report.ok:
        assert c.peak_deg > 1.0 and c.track_rms_deg < 2.0 and c.bone
        assert flinch.load(c.output).frame_count == c.frames
    assert by_name["pybvh_bvh_test2.bvh"].bone == "RightElbow"
    assert by_name["makehuman_walk1.bvh"].bone == "LoArm_R"
    table = report.table()
    assert "FAILED broken.bvh" in table and "3 baked" in table
    # Byte-identical to an in-process bake of the same clip (the same Rust function as `flinch bake`).
    ref = tmp_path / "ref.bvh"
    hits = {"hits": [dict(HITS["hits"][0], bone="RightForeArm")]}
    flinch.bake(clips / "cmu_02_01_walk.bvh", ref, hits, threads=1)
    assert ref.read_bytes() == (out / "cmu_02_01_walk_reacted.bvh").read_bytes()
    # Resume: everything is already there but the broken clip.
    again = batch.bake(clips, HITS, out, progress=False)
    assert len(again.skipped) == 3 and len(again.failed) == 1 and not again.ok


def test_flinch_batch_command(cluster, clips, tmp_path, capsys):
    import json

    script = tmp_path / "hits.json"
    script.write_text(json.dumps(HITS))
    out = tmp_path / "cli_out"
    code = batch.main([str(clips / "cmu_02_01_walk.bvh"), "-o", str(out), "--hits", str(script), "--no-progress"])
    assert code == 0
    assert "1 baked" in capsys.readouterr().out
    assert (out / "cmu_02_01_walk_reacted.bvh").exists()
    code = batch.main([str(clips), "-o", str(out), "--hits", str(script), "--no-progress", "--format", "glb"])
    assert code == 1  # the broken clip
    with pytest.raises(SystemExit):
        batch.main(["-o", str(out)])
