"""Batch bakes on a Ray cluster: ``flinch.batch.bake(inputs, hits, out_dir)`` and the ``flinch-batch`` command.

One Ray task per clip, each running :func:`flinch.bake` (the Rust function behind ``flinch bake``, so every output
is byte-identical to the CLI's). Outputs are written atomically (a temporary file renamed), so an interrupted
batch leaves only complete files, and a rerun skips the clips whose output is already there (``resume``). A clip
that fails is reported with its error in the summary and never stops the others; tasks whose worker died are
retried by Ray (``retries``). Without ``address`` a local Ray instance is started (``ray.init(num_cpus=...)``).

Hit scripts may name the bone ``role:right_forearm``: each clip gets its own right forearm from its skeleton's
names (:func:`flinch.find_bone`). The semantic bone-role map of the core will take this syntax over.

Batches at scale (issue 42): a **job file** (JSON lines, one ``{"input", "output", "hits"}`` object per clip,
:func:`write_jobs` / :func:`read_jobs`, ``flinch-batch --jobs FILE``) gives each clip its own output and hits; and
``repeat``/``vary_hits`` (``--repeat N --vary-hits``) makes N copies of every input, copy k > 0 with its hits varied
deterministically from the copy index (:func:`vary_script`: strength, horizontal direction, time). The report
carries the throughput, clips baked per core per minute of wall time (:attr:`BatchReport.clips_per_core_min`).
"""

import argparse
import copy
import json
import math
import os
import random
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Union

__all__ = [
    "ClipResult",
    "BatchReport",
    "Job",
    "bake",
    "bake_jobs",
    "plan",
    "make_jobs",
    "vary_script",
    "write_jobs",
    "read_jobs",
    "resolve_roles",
    "main",
]

CLIP_EXTENSIONS = (".bvh", ".gltf", ".glb")
# usd/usda: UsdSkel through flinch.export_usd (needs usd-core); the others are flinch bake's own formats.
FORMATS = ("bvh", "gltf", "glb", "usd", "usda")
ROLE_PREFIX = "role:"


@dataclass
class ClipResult:
    """What happened to one clip."""

    input: str
    output: str
    status: str  # "ok", "skipped" (output already there) or "failed"
    error: Optional[str] = None
    bone: Optional[str] = None
    frames: int = 0
    track_rms_deg: Optional[float] = None
    peak_deg: Optional[float] = None
    peak_joint: Optional[str] = None
    return_s: Optional[float] = None
    energy_j: Optional[float] = None
    wall_s: float = 0.0


@dataclass
class BatchReport:
    """The results of a batch, in input order, and its wall time."""

    clips: List[ClipResult] = field(default_factory=list)
    wall_s: float = 0.0
    cores: float = 0.0  # CPUs the bakes ran on: the cluster's, at most one per clip to bake

    @property
    def clips_per_core_min(self) -> Optional[float]:
        """Throughput: clips baked by this run (ok or failed, not skipped) per core per minute of wall time, or
        None when nothing was baked."""
        n = len(self.clips) - len(self.skipped)
        if n == 0 or self.wall_s <= 0 or self.cores <= 0:
            return None
        return n / (self.wall_s / 60.0) / self.cores

    @property
    def ok(self) -> List[ClipResult]:
        """Clips baked by this run."""
        return [c for c in self.clips if c.status == "ok"]

    @property
    def failed(self) -> List[ClipResult]:
        """Clips that failed, each with its error."""
        return [c for c in self.clips if c.status == "failed"]

    @property
    def skipped(self) -> List[ClipResult]:
        """Clips whose output was already there."""
        return [c for c in self.clips if c.status == "skipped"]

    def summary(self) -> str:
        """One line: counts, wall time, and the throughput per core."""
        line = (
            f"{len(self.ok)} baked, {len(self.skipped)} skipped (already there), {len(self.failed)} failed, "
            f"{self.wall_s:.2f} s"
        )
        rate = self.clips_per_core_min
        if rate is not None:
            line += f", {rate:.1f} clips/core/min on {self.cores:g} cores"
        return line

    def table(self, rows: Optional[int] = None) -> str:
        """The summary table: per clip its status, tracking rms, hit figures, and the errors of failed clips.
        ``rows``: at most that many clip rows (the failures and the summary line are always there)."""
        header = f"{'clip':<34} {'status':<8} {'frames':>6} {'track rms':>10} {'hit bone':<16} {'peak':>8} {'back in':>8} {'energy':>8}"
        lines = [header, "-" * len(header)]

        def num(x, fmt, unit):
            return "-" if x is None else format(x, fmt) + unit

        shown = self.clips if rows is None else self.clips[:rows]
        for c in shown:
            name = os.path.basename(c.output if c.output else c.input)
            lines.append(
                f"{name[:34]:<34} {c.status:<8} {c.frames:>6} {num(c.track_rms_deg, '.2e', '°'):>10} "
                f"{(c.bone or '-')[:16]:<16} {num(c.peak_deg, '.2f', '°'):>8} {num(c.return_s, '.2f', 's'):>8} "
                f"{num(c.energy_j, '.2f', 'J'):>8}"
            )
        if len(shown) < len(self.clips):
            lines.append(f"... {len(self.clips) - len(shown)} more clips")
        for c in self.failed:
            lines.append(f"FAILED {os.path.basename(c.input)}: {c.error}")
        lines.append(self.summary())
        return "\n".join(lines)


def plan(inputs: Union[str, os.PathLike, Iterable], out_dir, fmt: Optional[str] = None) -> List[tuple]:
    """(input, output) pairs: a folder expands to its clip files (sorted); outputs are ``<stem>_reacted.<ext>`` in
    ``out_dir`` as with ``flinch bake -o FOLDER`` (BVH for BVH inputs, GLB otherwise, or ``fmt``: also ``usd``
    (binary) or ``usda`` (text) UsdSkel)."""
    if isinstance(inputs, (str, os.PathLike)):
        inputs = [inputs]
    files: List[str] = []
    for item in inputs:
        item = os.fspath(item)
        if os.path.isdir(item):
            files.extend(
                sorted(os.path.join(item, f) for f in os.listdir(item) if f.lower().endswith(CLIP_EXTENSIONS))
            )
        else:
            files.append(item)
    if fmt is not None and fmt not in FORMATS:
        raise ValueError(f"format {fmt!r}: expected {', '.join(FORMATS)}")
    pairs = []
    seen: Dict[str, str] = {}
    for f in files:
        stem, ext = os.path.splitext(os.path.basename(f))
        out_ext = fmt or ("bvh" if ext.lower() == ".bvh" else "glb")
        out = os.path.join(os.fspath(out_dir), f"{stem}_reacted.{out_ext}")
        if out in seen:
            raise ValueError(f"{seen[out]} and {f} would both write {out}; bake them into different folders")
        seen[out] = f
        pairs.append((f, out))
    return pairs


@dataclass
class Job:
    """One clip of a batch: its input, its output and its hits script (None: no hits)."""

    input: str
    output: str
    hits: Optional[dict] = None


def _rotate_y(v: Sequence[float], angle: float) -> List[float]:
    c, s = math.cos(angle), math.sin(angle)
    x, y, z = (float(a) for a in v)
    return [c * x + s * z, y, -s * x + c * z]


def vary_script(script: Optional[dict], copy_index: int, seed: int = 0) -> Optional[dict]:
    """The hits script of copy ``copy_index`` of a repeated batch: copy 0 is ``script`` itself; each later copy
    gets, per hit, its strength scaled by 0.5–1.5 (an impulse's ``impulse``, a ball's ``velocity``), its vector
    turned about the vertical (flinch's world Y) by an angle in ±180°, and its time (``time``, an aimed ball's
    ``arrival``) scaled by 0.6–1.4. Deterministic: drawn from a generator seeded by (``seed``, ``copy_index``),
    so a rerun or a resumed run plans the same hits."""
    if script is None or copy_index == 0:
        return copy.deepcopy(script)
    rng = random.Random(f"flinch-batch:{seed}:{copy_index}")
    out = copy.deepcopy(script)
    for hit in out.get("hits", []):
        if not isinstance(hit, dict):
            continue
        scale, angle, when = rng.uniform(0.5, 1.5), rng.uniform(-math.pi, math.pi), rng.uniform(0.6, 1.4)
        for key in ("impulse", "velocity"):
            v = hit.get(key)
            if isinstance(v, list) and len(v) == 3:
                # A free ball's velocity keeps its direction (it would miss); an aimed ball's or an impulse's turns.
                turned = v if hit.get("type") == "ball" else _rotate_y(v, angle)
                hit[key] = [round(scale * a, 6) for a in turned]
        for key in ("time", "arrival"):
            if isinstance(hit.get(key), (int, float)):
                hit[key] = round(hit[key] * when, 6)
    return out


def make_jobs(
    inputs,
    hits: Any,
    out_dir,
    fmt: Optional[str] = None,
    *,
    repeat: int = 1,
    vary_hits: bool = False,
    seed: int = 0,
) -> List[Job]:
    """The jobs of a batch of ``inputs`` (files and folders, as :func:`plan`) with the hits script ``hits``.
    ``repeat`` > 1: every clip ``repeat`` times, copy k written as ``<stem>_c<k>_reacted.<ext>`` (k on 4 digits),
    with :func:`vary_script` hits when ``vary_hits`` (else the same hits)."""
    if repeat < 1:
        raise ValueError(f"repeat {repeat}: expected >= 1")
    script = _load_script(hits)
    pairs = plan(inputs, out_dir, fmt)
    if repeat == 1:
        return [Job(src, out, copy.deepcopy(script)) for src, out in pairs]
    jobs = []
    for k in range(repeat):
        varied = vary_script(script, k, seed) if vary_hits else copy.deepcopy(script)
        for src, out in pairs:
            stem = out[: -len("_reacted") - len(os.path.splitext(out)[1])]
            jobs.append(Job(src, f"{stem}_c{k:04d}_reacted{os.path.splitext(out)[1]}", varied))
    return jobs


def write_jobs(path, jobs: Iterable[Job]) -> int:
    """Writes a job file: JSON lines, one ``{"input": ..., "output": ..., "hits": {...}}`` per job (written
    atomically). Returns the number of jobs."""
    path = os.fspath(path)
    tmp = f"{path}.{os.getpid()}.tmp"
    n = 0
    with open(tmp, "w", encoding="utf-8") as f:
        for j in jobs:
            f.write(json.dumps({"input": j.input, "output": j.output, "hits": j.hits}) + "\n")
            n += 1
    os.replace(tmp, path)
    return n


def read_jobs(path, out_dir=None, hits: Any = None) -> List[Job]:
    """Reads a job file (JSON lines; blank lines and ``#`` comments skipped). Relative inputs are taken from the
    file's folder, relative outputs from ``out_dir`` (default: the file's folder). A job without ``hits`` gets
    ``hits`` (a script, file or JSON text; None: no hits). Raises ValueError naming the line of a bad job or of
    an output written twice."""
    path = os.fspath(path)
    base = os.path.dirname(os.path.abspath(path))
    out_base = os.fspath(out_dir) if out_dir is not None else base
    default = _load_script(hits)
    jobs: List[Job] = []
    seen: Dict[str, int] = {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            try:
                d = json.loads(line)
                src, out = d["input"], d["output"]
                script = _load_script(d["hits"]) if "hits" in d else copy.deepcopy(default)
            except (json.JSONDecodeError, KeyError, TypeError) as e:
                raise ValueError(f"{path}:{n}: bad job ({type(e).__name__}: {e})") from None
            src = src if os.path.isabs(src) else os.path.join(base, src)
            out = os.path.normpath(out if os.path.isabs(out) else os.path.join(out_base, out))
            if out in seen:
                raise ValueError(f"{path}:{n}: output {out} already written by line {seen[out]}")
            seen[out] = n
            jobs.append(Job(src, out, script))
    return jobs


def _load_script(hits: Any) -> Optional[dict]:
    """A hits script as a dict (None: no hits)."""
    if hits is None or isinstance(hits, dict):
        return hits
    if isinstance(hits, list):
        return {"hits": hits}
    if isinstance(hits, str) and hits.lstrip().startswith("{"):
        return json.loads(hits)
    path = os.fspath(hits)
    with open(path, encoding="utf-8") as f:
        if path.lower().endswith(".toml"):
            import tomllib  # Python >= 3.11

            return tomllib.loads(f.read())
        return json.load(f)


def resolve_roles(script: Optional[dict], joint_names: Sequence[str]) -> tuple:
    """The script with every ``role:right_forearm`` bone replaced by the clip's right forearm, and that bone.

    Raises flinch.UnknownBoneError when the skeleton has no such bone, ValueError for another role.
    """
    from . import find_bone
    from .errors import UnknownBoneError

    if script is None:
        return None, None
    script = copy.deepcopy(script)
    chosen = None
    for i, hit in enumerate(script.get("hits", [])):
        bone = hit.get("bone") if isinstance(hit, dict) else None
        if isinstance(bone, str) and bone.startswith(ROLE_PREFIX):
            role = bone[len(ROLE_PREFIX):]
            if role != "right_forearm":
                raise ValueError(f"hits[{i}].bone: unknown role {role!r} (only role:right_forearm for now)")
            found = find_bone(joint_names)
            if found is None:
                raise UnknownBoneError(f"hits[{i}].bone: no right forearm among the skeleton's joints")
            hit["bone"] = found
        if isinstance(bone, str) and chosen is None:
            chosen = hit["bone"]
    return script, chosen


def bake_one(input: str, output: str, script: Optional[dict], options: dict) -> ClipResult:
    """Bakes one clip (what each Ray task runs); failures become a ``failed`` result with the error."""
    import flinch

    start = time.perf_counter()
    result = ClipResult(input=input, output=output, status="failed")
    try:
        needs_roles = script is not None and any(
            isinstance(h, dict) and str(h.get("bone", "")).startswith(ROLE_PREFIX) for h in script.get("hits", [])
        )
        names = flinch.load(input, **_import_options(options)).joint_names if needs_roles else []
        resolved, result.bone = resolve_roles(script, names)
        if os.path.splitext(output)[1].lower() in flinch.usd.USD_EXTENSIONS:
            r = _bake_usd(input, output, resolved, options)
        else:
            r = flinch.bake(input, output, resolved, **options)
        m = r.metrics
        result.status = "ok"
        result.frames = r.frames
        result.track_rms_deg = m["track_rms_deg"]
        if m["hit"] is not None:
            h = m["hit"]
            result.peak_deg, result.peak_joint = h["peak_deg"], h["peak_joint"]
            result.return_s, result.energy_j = h["return_s"], h["energy_j"]
    except Exception as e:  # noqa: BLE001 - every failure of a clip is reported, none stops the batch
        result.error = f"{type(e).__name__}: {e}"
    result.wall_s = time.perf_counter() - start
    return result


def _bake_usd(input: str, output: str, script: Optional[dict], options: dict):
    """A bake written as UsdSkel: flinch bakes into a temporary file (its own format: the input's BVH, else GLB),
    :func:`flinch.export_usd` writes the bake's clip from memory, atomically; the temporary file is removed."""
    import tempfile

    import flinch

    flinch.usd._pxr()  # a missing usd-core fails before the simulation
    ext = ".bvh" if input.lower().endswith(".bvh") else ".glb"
    with tempfile.TemporaryDirectory(prefix="flinch_usd_") as work:
        r = flinch.bake(input, os.path.join(work, "baked" + ext), script, **options)
        flinch.export_usd(r, output)
    return r


def _import_options(options: dict) -> dict:
    keys = ("unit", "up", "drop_tpose", "animation")
    out = {k: options[k] for k in keys if k in options}
    out["rate"] = options.get("rate", 120.0)
    return out


def bake(
    inputs,
    hits: Any,
    out_dir,
    address: Optional[str] = None,
    *,
    num_cpus: Optional[int] = None,
    fmt: Optional[str] = None,
    retries: int = 2,
    resume: bool = True,
    progress: bool = True,
    repeat: int = 1,
    vary_hits: bool = False,
    seed: int = 0,
    **options,
) -> BatchReport:
    """Bakes every clip of ``inputs`` (files and folders) with the hits script ``hits`` (dict, list of hits, JSON
    text or a .json/.toml file; None: unperturbed) into ``out_dir``, one Ray task per clip.

    ``address``: an existing Ray cluster ("auto", "ray://host:10001", ...); None: the Ray instance already
    initialized in this process, else a local one with ``num_cpus`` CPUs (default: all). ``retries``: times Ray
    reruns a task whose worker died. ``resume``: skip clips whose output exists. ``repeat``, ``vary_hits``,
    ``seed``: every clip ``repeat`` times, with varied hits (:func:`make_jobs`). ``options`` are passed to
    :func:`flinch.bake` (rate, config, simulated, unit, up, ...). Returns the report; never raises for a clip.
    """
    jobs = make_jobs(inputs, hits, out_dir, fmt, repeat=repeat, vary_hits=vary_hits, seed=seed)
    return bake_jobs(
        jobs, address, num_cpus=num_cpus, retries=retries, resume=resume, progress=progress, **options
    )


def bake_jobs(
    jobs: Sequence[Job],
    address: Optional[str] = None,
    *,
    num_cpus: Optional[int] = None,
    retries: int = 2,
    resume: bool = True,
    progress: bool = True,
    **options,
) -> BatchReport:
    """Bakes ``jobs`` (:class:`Job`: input, output, hits; from :func:`make_jobs` or :func:`read_jobs`), one Ray
    task per job, as :func:`bake`. The report's ``cores`` are the cluster's CPUs (at most one per job to bake),
    its ``clips_per_core_min`` the throughput of this run."""
    import ray

    seen: Dict[str, str] = {}
    for j in jobs:
        if j.output in seen:
            raise ValueError(f"{seen[j.output]} and {j.input} would both write {j.output}")
        seen[j.output] = j.input
    for d in sorted({os.path.dirname(os.path.abspath(j.output)) for j in jobs}):
        os.makedirs(d, exist_ok=True)
    options = dict(options)
    # One task per core: each clip's preprocessing stays on its own thread.
    options.setdefault("threads", 1)

    started_here = False
    if not ray.is_initialized():
        if address is None:
            ray.init(num_cpus=num_cpus, include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
        started_here = True
    try:
        start = time.perf_counter()
        task = ray.remote(num_cpus=1, max_retries=retries)(bake_one)
        results: List[Optional[ClipResult]] = [None] * len(jobs)
        pending = {}
        for i, j in enumerate(jobs):
            if resume and os.path.exists(j.output):
                results[i] = ClipResult(input=j.input, output=j.output, status="skipped")
            else:
                pending[task.remote(j.input, j.output, j.hits, options)] = i
        cores = min(float(ray.cluster_resources().get("CPU", 1.0)), float(len(pending))) if pending else 0.0
        bar = _progress(len(jobs), len(jobs) - len(pending), progress)
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                i = pending.pop(ref)
                try:
                    results[i] = ray.get(ref)
                except Exception as e:  # noqa: BLE001 - a task that died after its retries is a failed clip
                    j = jobs[i]
                    results[i] = ClipResult(
                        input=j.input, output=j.output, status="failed", error=f"{type(e).__name__}: {e}"
                    )
                if bar is not None:
                    bar.update(1)
        if bar is not None:
            bar.close()
        return BatchReport(
            clips=[r for r in results if r is not None], wall_s=time.perf_counter() - start, cores=cores
        )
    finally:
        if started_here:
            ray.shutdown()


def _progress(total: int, initial: int, enabled: bool):
    if not enabled:
        return None
    from tqdm import tqdm

    # The skipped clips count as done: a resumed batch's bar starts where the last run stopped.
    return tqdm(total=total, initial=initial, unit="clip", desc="baking", file=sys.stderr, smoothing=0.1)


def main(argv: Optional[List[str]] = None) -> int:
    """``flinch-batch INPUT... -o OUT [--hits FILE] [--address ADDR] [--num-cpus N] ...`` or ``flinch-batch --jobs
    FILE [-o OUT]``: exit 0 when every clip baked (or was already there), 1 when one failed, 2 on a usage error."""
    p = argparse.ArgumentParser(
        prog="flinch-batch",
        description="Bake clips with scripted hits on a Ray cluster, one task per clip (outputs byte-identical to "
        "`flinch bake`). Rerunning the same command resumes: outputs already there are skipped.",
    )
    p.add_argument("inputs", nargs="*", help="clip files (.bvh, .gltf, .glb) and folders of clips")
    p.add_argument(
        "-o",
        "--out",
        help="output folder (<stem>_reacted.<ext> per clip; with --jobs: the folder of relative outputs)",
    )
    p.add_argument("--hits", help="hits script (JSON or TOML; bone 'role:right_forearm' is resolved per clip)")
    p.add_argument(
        "--jobs",
        help="job file, JSON lines: {\"input\": ..., \"output\": ..., \"hits\": {...}} per clip (instead of INPUT...)",
    )
    p.add_argument("--repeat", type=int, default=1, help="bake every input N times (<stem>_c<k>_reacted.<ext>)")
    p.add_argument(
        "--vary-hits",
        action="store_true",
        help="with --repeat: copy k > 0 gets its hits varied (strength, direction, time) seeded by k",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of --vary-hits (default 0)")
    p.add_argument("--write-jobs", metavar="FILE", help="write the planned jobs as a job file and exit")
    p.add_argument("--address", help="Ray cluster address, e.g. auto or HEAD:6379 (default: a local Ray instance)")
    p.add_argument("--num-cpus", type=int, help="CPUs of the local Ray instance (default: all)")
    p.add_argument(
        "--format",
        choices=list(FORMATS),
        help="output format (default: bvh for BVH, else glb; usd/usda: UsdSkel, needs usd-core)",
    )
    p.add_argument("--rate", type=float, default=120.0, help="simulation rate in Hz (default 120)")
    p.add_argument("--config", help="character configuration (.json or .toml)")
    p.add_argument("--simulated", action="store_true", help="write the simulated pose instead of the layered clip")
    p.add_argument("--retries", type=int, default=2, help="reruns of a task whose worker died (default 2)")
    p.add_argument("--no-resume", action="store_true", help="bake again even when the output exists")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--rows", type=int, default=50, help="clip rows of the summary table (default 50; -1: all)")
    args = p.parse_args(argv)
    if args.jobs is None and (not args.inputs or args.out is None):
        p.error("give INPUT... -o OUT, or --jobs FILE")
    if args.jobs is not None and (args.inputs or args.repeat != 1 or args.vary_hits or args.format):
        p.error("--jobs takes no INPUT, --repeat, --vary-hits or --format (the job file has them)")
    try:
        if args.jobs is not None:
            jobs = read_jobs(args.jobs, args.out, args.hits)
        else:
            jobs = make_jobs(
                args.inputs,
                args.hits,
                args.out,
                args.format,
                repeat=args.repeat,
                vary_hits=args.vary_hits,
                seed=args.seed,
            )
        if args.write_jobs:
            n = write_jobs(args.write_jobs, jobs)
            print(f"{n} jobs written to {args.write_jobs}")
            return 0
        report = bake_jobs(
            jobs,
            args.address,
            num_cpus=args.num_cpus,
            retries=args.retries,
            resume=not args.no_resume,
            progress=not args.no_progress,
            rate=args.rate,
            config=args.config,
            simulated=args.simulated,
        )
    except (OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(report.table(None if args.rows < 0 else args.rows))
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
