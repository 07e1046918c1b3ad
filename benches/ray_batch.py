"""Batch at scale (issue 42 item 5): `flinch-batch` bakes a corpus of >= 1000 clips on a local Ray cluster, then
a run whose Ray worker is killed mid-run, and whose driver is killed later, is resumed by rerunning the same command.

    pip install "./python[batch]"                 # or PYTHONPATH=target/python-site (tests/python_package.rs)
    python3 benches/ray_batch.py [--data ../shared/data] [--clips 1000] [--num-cpus 2] [--work target/ray_batch]

The corpus: every BVH of DATA/bvh that flinch imports (the others are skipped, and named), repeated with varied
hits (`flinch-batch --repeat N --vary-hits`: copy k > 0 gets its impulse's strength, horizontal direction and time
drawn from a generator seeded by k) until there are at least --clips jobs, written as a job file
(`--write-jobs`) and baked with `flinch-batch --jobs FILE --num-cpus N` in a subprocess: the command a user runs.

Throughput: `flinch-batch` measures its wall time from the first task submitted to the last result (Ray's start
excluded, the workers' start included) and divides the clips it baked by it and by the cores used.

Resume: the same job file into a fresh folder; once 20 % of the outputs exist one busy Ray worker (`ray::bake_one`,
a descendant of the `flinch-batch` process) is killed with SIGKILL (Ray reruns its task, `--retries`); once 50 %
exist the `flinch-batch` driver itself is killed (its process group: the local Ray cluster goes with it), then the
same command is run again: it must skip the finished outputs and bake the rest. Checked: every expected output
exists, the run's summary has 0 failures and as many skipped clips as outputs were there, a sample of outputs loads
with `flinch.load` (the input's joints, >= 1 frame), and 5 outputs are byte-identical to an in-process `flinch.bake` of
the same job. Prints first `cpu <model> kernel <variant> avx512f <yes|no> fma <yes|no>` (`flinch.cpu_report()`),
then:

    figure ray_batch_clips N clips                       jobs of the corpus (>= --clips)
    figure ray_batch_clips_per_core_min X clips/core/min  the full batch's throughput
    figure ray_batch_wall_s X s                          the full command's wall time (Ray's start included)
    figure ray_resume_ok 1                               the killed-worker, killed-driver run completed by a rerun
"""

import argparse
import math
import os
import pathlib
import random
import re
import shutil
import signal
import subprocess
import sys
import time

import flinch
from flinch import batch

REPO = pathlib.Path(__file__).resolve().parents[1]
HITS = {"hits": [{"type": "impulse", "time": 0.25, "bone": "role:right_forearm", "impulse": [6.0, 0.0, 0.0]}]}
SUMMARY = re.compile(r"(\d+) baked, (\d+) skipped \(already there\), (\d+) failed, ([\d.]+) s(?:, ([\d.]+) clips/core/min on ([\d.]+) cores)?")


def command(jobs, num_cpus, out=None):
    cmd = [sys.executable, "-m", "flinch.batch", "--jobs", str(jobs), "--num-cpus", str(num_cpus), "--rows", "0"]
    return cmd + (["-o", str(out)] if out else [])


def summary(stdout):
    m = SUMMARY.search(stdout)
    if m is None:
        sys.exit(f"no summary line in flinch-batch's output:\n{stdout[-2000:]}")
    baked, skipped, failed, wall = int(m[1]), int(m[2]), int(m[3]), float(m[4])
    return baked, skipped, failed, wall, (float(m[5]) if m[5] else None), (float(m[6]) if m[6] else None)


def outputs_done(jobs):
    return sum(os.path.exists(j.output) for j in jobs)


def _children():
    """Parent pid -> child pids of every process (Linux /proc)."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry))
    return children


def ray_workers(root_pid):
    """The Ray worker processes (process title `ray::...`) under `root_pid`, busy ones (`ray::bake_one`) first."""
    children, found, todo = _children(), [], [root_pid]
    while todo:
        for pid in children.get(todo.pop(), []):
            todo.append(pid)
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    title = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
            except OSError:
                continue
            if title.startswith("ray::"):
                found.append((0 if "bake_one" in title else 1, pid, title))
    return [(pid, title) for _, pid, title in sorted(found)]


def kill_group(proc):
    """Kills a subprocess started in its own session and every process under it (its local Ray cluster: some
    of Ray's processes leave the group), and waits until they are gone."""
    children, tree, todo = _children(), [], [proc.pid]
    while todo:
        pid = todo.pop()
        tree.append(pid)
        todo.extend(children.get(pid, []))
    for pid in tree:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()
    deadline = time.monotonic() + 30
    while any(os.path.exists(f"/proc/{pid}") for pid in tree[1:]) and time.monotonic() < deadline:
        time.sleep(0.05)


def corpus(data):
    clips, skipped = [], []
    for f in sorted((data / "bvh").glob("*.bvh")):
        try:
            flinch.load(f)
            clips.append(f)
        except Exception as e:  # noqa: BLE001 - a clip flinch cannot import is skipped and named
            skipped.append(f"{f.name} ({type(e).__name__}: {e})")
    return clips, skipped


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=str(REPO.parent / "shared" / "data"))
    ap.add_argument("--clips", type=int, default=1000, help="at least this many jobs (default 1000)")
    ap.add_argument("--num-cpus", type=int, default=2)
    ap.add_argument("--work", default=str(REPO / "target" / "ray_batch"))
    ap.add_argument("--skip-throughput", action="store_true", help="only the resume run")
    args = ap.parse_args()
    # The CPU and flinch's kernel variant first (`cpu <model> kernel <variant> ...`), as every bench prints them.
    print(flinch.cpu_report(), flush=True)
    env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0")
    data, work = pathlib.Path(args.data).resolve(), pathlib.Path(args.work).resolve()
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)

    clips, bad = corpus(data)
    for b in bad:
        print(f"skipped (flinch cannot import it): {b}")
    if not clips:
        sys.exit(f"no importable BVH in {data / 'bvh'}")
    repeat = math.ceil(args.clips / len(clips))
    job_file = work / "jobs.jsonl"
    # The planning step of the CLI: N copies of each clip with varied hits, as a job file with relative outputs.
    hits = work / "hits.json"
    hits.write_text(__import__("json").dumps(HITS))
    subprocess.run(
        [sys.executable, "-m", "flinch.batch", *map(str, clips), "-o", ".", "--hits", str(hits),
         "--repeat", str(repeat), "--vary-hits", "--write-jobs", str(job_file)],
        check=True, env=env, cwd=work, stdout=subprocess.DEVNULL,
    )
    jobs_rel = batch.read_jobs(job_file)
    print(f"{len(clips)} clips x {repeat} copies = {len(jobs_rel)} jobs ({job_file})")
    print(f"figure ray_batch_clips {len(jobs_rel)} clips")

    if not args.skip_throughput:
        out = work / "full"
        t0 = time.perf_counter()
        run = subprocess.run(command(job_file, args.num_cpus, out), env=env, capture_output=True, text=True)
        wall = time.perf_counter() - t0
        baked, skipped, failed, task_wall, rate, cores = summary(run.stdout)
        print(run.stdout.strip().splitlines()[-1])
        print(f"full batch: exit {run.returncode}, {baked} baked, {failed} failed in {task_wall:.2f} s of tasks on "
              f"{cores:g} cores ({wall:.2f} s with Ray's start)")
        for line in run.stdout.splitlines():
            if line.startswith("FAILED"):
                print(" ", line)
        print(f"figure ray_batch_clips_per_core_min {rate:.1f} clips/core/min")
        print(f"figure ray_batch_wall_s {wall:.2f} s")
        shutil.rmtree(out)

    print(f"resume: {resume(job_file, work / 'resume', args.num_cpus, env)}")


def resume(job_file, out, num_cpus, env):
    """The killed-worker, killed-driver run and its rerun; prints figure ray_resume_ok and returns a description."""
    jobs = batch.read_jobs(job_file, out)
    n = len(jobs)
    cmd = command(job_file, num_cpus, out)
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            start_new_session=True)
    killed_worker, killed_driver_at = None, None
    try:
        while proc.poll() is None:
            done = outputs_done(jobs)
            if killed_worker is None and done >= 0.2 * n:
                workers = ray_workers(proc.pid)
                if workers:
                    pid, title = workers[0]
                    os.kill(pid, signal.SIGKILL)
                    killed_worker = (pid, title, done)
                    print(f"killed Ray worker {pid} ({title}) at {done}/{n} outputs")
            if killed_worker is not None and done >= 0.5 * n:
                killed_driver_at = done
                kill_group(proc)
                print(f"killed the flinch-batch driver {proc.pid} and its Ray cluster at {done}/{n} outputs")
                break
            time.sleep(0.02)
    finally:
        if proc.poll() is None:
            kill_group(proc)
    first_stdout = proc.stdout.read() if proc.stdout else ""
    before = outputs_done(jobs)
    leftovers = [f for f in os.listdir(out) if f.endswith(".tmp")]
    print(f"after the first run: {before}/{n} outputs, {len(leftovers)} temporary files of killed bakes")
    if killed_driver_at is None:
        # The batch finished before the driver could be killed: its own summary is the first run's.
        print("the first run finished before 50 %: " + (first_stdout.strip().splitlines() or ["(no output)"])[-1])
    rerun = subprocess.run(cmd, env=env, capture_output=True, text=True)
    baked, skipped, failed, *_ = summary(rerun.stdout)
    print("rerun: " + rerun.stdout.strip().splitlines()[-1])
    missing = [j.output for j in jobs if not os.path.isfile(j.output)]
    print(f"after the rerun: {len([f for f in os.listdir(out) if f.endswith('.tmp')])} temporary files left")
    # A sample of the outputs (both runs') loads, with the input's skeleton and at least one frame.
    rng = random.Random(42)
    sample = rng.sample(jobs, min(40, n))
    joints = {}
    bad_loads = []
    for j in sample:
        try:
            if j.input not in joints:
                joints[j.input] = flinch.load(j.input).joint_names
            baked_clip = flinch.load(j.output)
            if baked_clip.joint_names != joints[j.input] or baked_clip.frame_count < 1:
                bad_loads.append(f"{j.output}: {baked_clip.frame_count} frames, joints differ from the input's")
        except Exception as e:  # noqa: BLE001
            bad_loads.append(f"{j.output}: {type(e).__name__}: {e}")
    # 5 outputs byte-identical to the same job baked in this process.
    different = []
    for j in rng.sample(jobs, min(5, n)):
        names = flinch.load(j.input).joint_names
        script, _ = batch.resolve_roles(j.hits, names)
        ref = out.parent / ("ref_" + os.path.basename(j.output))
        flinch.bake(j.input, ref, script, threads=1)
        if ref.read_bytes() != pathlib.Path(j.output).read_bytes():
            different.append(j.output)
        ref.unlink()
    ok = (
        killed_worker is not None
        and rerun.returncode == 0
        and failed == 0
        and skipped == before
        and baked == n - before
        and not missing
        and not bad_loads
        and not different
    )
    for b in bad_loads + [f"missing {m}" for m in missing[:10]] + [f"differs {d}" for d in different]:
        print(" ", b)
    print(f"figure ray_resume_ok {1 if ok else 0}")
    return (
        f"worker killed: {killed_worker is not None}, driver killed at {killed_driver_at}, rerun skipped {skipped} "
        f"baked {baked} failed {failed}, {n - len(missing)}/{n} outputs, {len(sample) - len(bad_loads)}/{len(sample)} "
        f"loaded, {5 - len(different)}/5 byte-identical"
    )


if __name__ == "__main__":
    main()
