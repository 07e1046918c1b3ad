"""Batch bake of the corpus on a local Ray cluster, with the figures of issue 14.

    cargo build --release --bin flinch          # the CLI the outputs are compared with (or set FLINCH_BIN)
    pip install ./python ray tqdm               # or maturin develop
    python python/examples/batch_bake.py [--data ../shared/data] [--repeat 3]

Every clip of shared/data/bvh (and the glTF clips that have a right forearm) gets an impulse on its right forearm
at 0.25 s (the shortest hit clip lasts 0.5 s): the hits script names the bone `role:right_forearm`, resolved per clip from the names its skeleton has
(flinch.find_bone: RightForeArm, lowerarm01.R, LoArm_R, RightElbow, ...) until the core's bone-role map takes that
syntax over. Prints:

    figure ray_clips_ok N           BVH clips baked without error (of 10)
    figure ray_gltf_clips_ok N      glTF clips baked without error
    figure ray_identical 1          every Ray output byte-identical to `flinch bake` on the same clip and hits
    figure ray_speedup X            wall time of the batch on 1 Ray worker / on 2 (clips repeated --repeat times)
    figure py_step_overhead_pct X   a Python `while not ch.finished: ch.step()` loop vs `ch.run()` (the same Rust
                                    step loop, no Python per step) over CMU 01_01 (22.9 s), best of 5
"""

import argparse
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

import ray

import flinch
from flinch import batch

REPO = pathlib.Path(__file__).resolve().parents[2]
HITS = {"restitution": 0.0, "hits": [{"type": "impulse", "time": 0.25, "bone": "role:right_forearm", "impulse": [6.0, 0.0, 0.0]}]}


def cli_binary():
    for candidate in (os.environ.get("FLINCH_BIN"), REPO / "target/release/flinch", REPO / "target/debug/flinch"):
        if candidate and pathlib.Path(candidate).exists():
            return str(candidate)
    sys.exit("no flinch CLI: run `cargo build --release --bin flinch` or set FLINCH_BIN")


def gltf_clips(data):
    """glTF clips with an animation and a right forearm (the Fox's right front leg is `b_RightForeArm_0`; the
    robot and the skin samples have none by these names or no animation)."""
    out = []
    for f in sorted((data / "gltf").glob("*.gl*")):
        try:
            clip = flinch.load(f)
        except flinch.FlinchError:
            continue
        if clip.frame_count > 1 and flinch.find_bone(clip.joint_names):
            out.append(f)
    return out


def warm(workers):
    """Starts the workers and imports flinch in each, so the timing is the bakes'."""

    @ray.remote(num_cpus=1)
    def ready():
        import flinch  # noqa: F401

        time.sleep(0.2)
        return os.getpid()

    return len(set(ray.get([ready.remote() for _ in range(workers * 2)])))


def timed_batch(clips, out, workers):
    ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
    try:
        warm(workers)
        start = time.perf_counter()
        report = batch.bake(clips, HITS, out, resume=False, progress=False)
        return time.perf_counter() - start, report
    finally:
        ray.shutdown()


def step_overhead(walk):
    clip = flinch.load(walk)
    best_py = best_rust = float("inf")
    for _ in range(5):
        ch = flinch.Character(clip)
        start = time.perf_counter()
        while not ch.finished:
            ch.step()
        best_py = min(best_py, time.perf_counter() - start)
        ch = flinch.Character(clip)
        start = time.perf_counter()
        ch.run()
        best_rust = min(best_rust, time.perf_counter() - start)
    return best_py, best_rust


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--data", default=os.environ.get("FLINCH_DATA") or str(REPO.parent / "shared" / "data"))
    p.add_argument("--repeat", type=int, default=3, help="copies of each clip in the speedup batches")
    args = p.parse_args()
    data = pathlib.Path(args.data)
    bvh = sorted((data / "bvh").glob("*.bvh"))
    gltf = gltf_clips(data)
    work = pathlib.Path(tempfile.mkdtemp(prefix="flinch_batch_"))

    # The batch itself: 2 workers, progress bar and summary table.
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        report = batch.bake(bvh + gltf, HITS, work / "ray")
    finally:
        ray.shutdown()
    print(report.table())
    ok = {pathlib.Path(c.input).name for c in report.ok}
    print(f"figure ray_clips_ok {sum(f.name in ok for f in bvh)} clips")
    print(f"figure ray_gltf_clips_ok {sum(f.name in ok for f in gltf)} clips")

    # The CLI on the same clips with the same (resolved) hits.
    cli = cli_binary()
    identical = bool(report.ok)
    for c in report.ok:
        script, _ = batch.resolve_roles(HITS, flinch.load(c.input).joint_names)
        hits = work / (pathlib.Path(c.input).stem + "_hits.json")
        hits.write_text(json.dumps(script))
        out = work / "cli" / pathlib.Path(c.output).name
        out.parent.mkdir(exist_ok=True)
        subprocess.run([cli, "bake", c.input, "-o", str(out), "--hits", str(hits)], check=True, capture_output=True)
        same = out.read_bytes() == pathlib.Path(c.output).read_bytes()
        identical &= same
        if not same:
            print(f"DIFFERENT: {c.output} vs {out}")
    print(f"figure ray_identical {int(identical)}")

    # Speedup: the same clips (repeated) on 1 worker, then on 2.
    clips = work / "clips"
    clips.mkdir()
    for k in range(args.repeat):
        for f in bvh + gltf:
            shutil.copy(f, clips / f"{f.stem}_{k}{f.suffix}")
    t1, r1 = timed_batch(clips, work / "one", 1)
    t2, r2 = timed_batch(clips, work / "two", 2)
    print(f"1 worker: {t1:.2f} s ({len(r1.ok)} clips), 2 workers: {t2:.2f} s ({len(r2.ok)} clips)")
    print(f"figure ray_speedup {t1 / t2:.2f} x")

    py, rust = step_overhead(data / "bvh" / "cmu_01_01_jump.bvh")
    print(f"Python step loop {py * 1e3:.1f} ms, Rust run {rust * 1e3:.1f} ms")
    print(f"figure py_step_overhead_pct {100 * (py - rust) / rust:.1f} %")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
