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


def test_repeat_vary_hits_and_job_file(walk, tmp_path):
    out = tmp_path / "out"
    jobs = batch.make_jobs(walk, HITS, out, repeat=3, vary_hits=True, seed=7)
    assert [os.path.basename(j.output) for j in jobs] == [f"cmu_02_01_walk_c000{k}_reacted.bvh" for k in range(3)]
    assert jobs[0].hits == HITS and jobs[1].hits != HITS and jobs[2].hits != jobs[1].hits
    assert batch.make_jobs(walk, HITS, out, repeat=3, vary_hits=True, seed=7) == jobs  # deterministic
    assert batch.make_jobs(walk, HITS, out, repeat=3, vary_hits=True, seed=8)[1].hits != jobs[1].hits
    for j in jobs[1:]:
        h = j.hits["hits"][0]
        assert h["bone"] == "role:right_forearm" and 0.15 <= h["time"] <= 0.35
        assert 3.0 <= sum(a * a for a in h["impulse"]) ** 0.5 <= 9.0 and h["impulse"][1] == 0.0
    assert all(j.hits == HITS for j in batch.make_jobs(walk, HITS, out, repeat=2))  # no --vary-hits
    # The job file round trip; relative outputs are taken from out_dir.
    path = tmp_path / "jobs.jsonl"
    assert batch.write_jobs(path, jobs) == 3
    assert batch.read_jobs(path) == jobs
    with open(path, "a") as f:
        f.write('# a comment\n\n{"input": "%s", "output": "extra.bvh"}\n' % walk)
    extra = batch.read_jobs(path, out_dir=tmp_path / "elsewhere", hits=HITS)[-1]
    assert extra.output == str(tmp_path / "elsewhere" / "extra.bvh") and extra.hits == HITS
    with open(path, "a") as f:
        f.write('{"input": "%s", "output": "extra.bvh"}\n' % walk)
    with pytest.raises(ValueError, match="already written by line"):
        batch.read_jobs(path)
    path.write_text('{"output": "x.bvh"}\n')
    with pytest.raises(ValueError, match="jobs.jsonl:1: bad job"):
        batch.read_jobs(path)
    # The CLI plans the same jobs.
    cli_file = tmp_path / "cli.jsonl"
    script = tmp_path / "hits.json"
    script.write_text(__import__("json").dumps(HITS))
    args = [str(walk), "-o", str(out), "--hits", str(script), "--repeat", "3", "--vary-hits", "--seed", "7"]
    assert batch.main(args + ["--write-jobs", str(cli_file)]) == 0
    assert batch.read_jobs(cli_file) == jobs


def _ray_workers_busy():
    """This process's Ray workers running a bake (process title ray::bake_one), from /proc."""
    children = {}
    for e in os.listdir("/proc"):
        if e.isdigit():
            try:
                with open(f"/proc/{e}/stat") as f:
                    children.setdefault(int(f.read().rsplit(")", 1)[1].split()[1]), []).append(int(e))
            except (OSError, IndexError, ValueError):
                pass
    found, todo = [], [os.getpid()]
    while todo:
        for pid in children.get(todo.pop(), []):
            todo.append(pid)
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    if f.read().startswith(b"ray::bake_one"):
                        found.append(pid)
            except OSError:
                pass
    return found


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="finds Ray's workers in /proc")
def test_killed_worker_is_retried_and_rerun_resumes(cluster, data, tmp_path, capsys):
    import signal
    import threading
    import time

    out = tmp_path / "out"
    jobs = batch.make_jobs(data / "bvh" / "cmu_01_01_jump.bvh", HITS, out, repeat=10, vary_hits=True)
    reports = []
    runner = threading.Thread(target=lambda: reports.append(batch.bake_jobs(jobs, progress=False)))
    runner.start()
    killed = None
    deadline = time.monotonic() + 60
    while killed is None and runner.is_alive() and time.monotonic() < deadline:
        busy = _ray_workers_busy()
        if busy:
            os.kill(busy[0], signal.SIGKILL)  # mid-bake: Ray reruns its task (retries=2)
            killed = busy[0]
        time.sleep(0.01)
    runner.join(120)
    assert killed is not None, "no busy Ray worker seen"
    report = reports[0]
    assert len(report.ok) == 10 and not report.failed, report.table()
    assert report.cores == 2 and report.clips_per_core_min > 0
    assert "clips/core/min on 2 cores" in report.summary()
    for j in jobs:
        assert flinch.load(j.output).frame_count > 1
    # An interrupted batch: 3 outputs lost; the same command bakes those 3 and skips the rest.
    job_file = tmp_path / "jobs.jsonl"
    batch.write_jobs(job_file, jobs)
    kept = {j.output: open(j.output, "rb").read() for j in jobs[3:]}
    for j in jobs[:3]:
        os.remove(j.output)
    assert batch.main(["--jobs", str(job_file), "--no-progress", "--rows", "0"]) == 0
    assert "3 baked, 7 skipped (already there), 0 failed" in capsys.readouterr().out
    assert all(os.path.exists(j.output) for j in jobs)
    assert all(open(o, "rb").read() == b for o, b in kept.items())
