"""Batch bakes on a Ray cluster: ``flinch.batch.bake(inputs, hits, out_dir)`` and the ``flinch-batch`` command.

One Ray task per clip, each running :func:`flinch.bake` (the Rust function behind ``flinch bake``, so every output
is byte-identical to the CLI's). Outputs are written atomically (a temporary file renamed), so an interrupted
batch leaves only complete files, and a rerun skips the clips whose output is already there (``resume``). A clip
that fails is reported with its error in the summary and never stops the others; tasks whose worker died are
retried by Ray (``retries``). Without ``address`` a local Ray instance is started (``ray.init(num_cpus=...)``).

Hit scripts may name the bone ``role:right_forearm``: each clip gets its own right forearm from its skeleton's
names (:func:`flinch.find_bone`). The semantic bone-role map of the core will take this syntax over.
"""

import argparse
import copy
import json
import os
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Union

__all__ = ["ClipResult", "BatchReport", "bake", "plan", "resolve_roles", "main"]

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

    def table(self) -> str:
        """The summary table: per clip its status, tracking rms, hit figures, and the errors of failed clips."""
        header = f"{'clip':<34} {'status':<8} {'frames':>6} {'track rms':>10} {'hit bone':<16} {'peak':>8} {'back in':>8} {'energy':>8}"
        lines = [header, "-" * len(header)]

        def num(x, fmt, unit):
            return "-" if x is None else format(x, fmt) + unit

        for c in self.clips:
            name = os.path.basename(c.input)
            lines.append(
                f"{name[:34]:<34} {c.status:<8} {c.frames:>6} {num(c.track_rms_deg, '.2e', '°'):>10} "
                f"{(c.bone or '-')[:16]:<16} {num(c.peak_deg, '.2f', '°'):>8} {num(c.return_s, '.2f', 's'):>8} "
                f"{num(c.energy_j, '.2f', 'J'):>8}"
            )
        for c in self.failed:
            lines.append(f"FAILED {os.path.basename(c.input)}: {c.error}")
        lines.append(
            f"{len(self.ok)} baked, {len(self.skipped)} skipped (already there), {len(self.failed)} failed, "
            f"{self.wall_s:.2f} s"
        )
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
    **options,
) -> BatchReport:
    """Bakes every clip of ``inputs`` (files and folders) with the hits script ``hits`` (dict, list of hits, JSON
    text or a .json/.toml file; None: unperturbed) into ``out_dir``, one Ray task per clip.

    ``address``: an existing Ray cluster ("auto", "ray://host:10001", ...); None: the Ray instance already
    initialized in this process, else a local one with ``num_cpus`` CPUs (default: all). ``retries``: times Ray
    reruns a task whose worker died. ``resume``: skip clips whose output exists. ``options`` are passed to
    :func:`flinch.bake` (rate, config, simulated, unit, up, ...). Returns the report; never raises for a clip.
    """
    import ray

    os.makedirs(out_dir, exist_ok=True)
    script = _load_script(hits)
    pairs = plan(inputs, out_dir, fmt)
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
        results: List[Optional[ClipResult]] = [None] * len(pairs)
        pending = {}
        for i, (src, out) in enumerate(pairs):
            if resume and os.path.exists(out):
                results[i] = ClipResult(input=src, output=out, status="skipped")
            else:
                pending[task.remote(src, out, script, options)] = i
        bar = _progress(len(pending), progress)
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                i = pending.pop(ref)
                try:
                    results[i] = ray.get(ref)
                except Exception as e:  # noqa: BLE001 - a task that died after its retries is a failed clip
                    src, out = pairs[i]
                    results[i] = ClipResult(input=src, output=out, status="failed", error=f"{type(e).__name__}: {e}")
                if bar is not None:
                    bar.update(1)
        if bar is not None:
            bar.close()
        return BatchReport(clips=[r for r in results if r is not None], wall_s=time.perf_counter() - start)
    finally:
        if started_here:
            ray.shutdown()


def _progress(total: int, enabled: bool):
    if not enabled:
        return None
    from tqdm import tqdm

    return tqdm(total=total, unit="clip", desc="baking", file=sys.stderr)


def main(argv: Optional[List[str]] = None) -> int:
    """``flinch-batch INPUT... -o OUT [--hits FILE] [--address ADDR] [--num-cpus N] ...``: exit 0 when every clip
    baked (or was already there), 1 when one failed, 2 on a usage error."""
    p = argparse.ArgumentParser(
        prog="flinch-batch",
        description="Bake clips with scripted hits on a Ray cluster, one task per clip (outputs byte-identical to "
        "`flinch bake`).",
    )
    p.add_argument("inputs", nargs="+", help="clip files (.bvh, .gltf, .glb) and folders of clips")
    p.add_argument("-o", "--out", required=True, help="output folder (<stem>_reacted.<ext> per clip)")
    p.add_argument("--hits", help="hits script (JSON or TOML; bone 'role:right_forearm' is resolved per clip)")
    p.add_argument("--address", help="Ray cluster address (default: start a local Ray instance)")
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
    args = p.parse_args(argv)
    try:
        report = bake(
            args.inputs,
            args.hits,
            args.out,
            args.address,
            num_cpus=args.num_cpus,
            fmt=args.format,
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
    print(report.table())
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
