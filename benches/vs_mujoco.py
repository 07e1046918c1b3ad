#!/usr/bin/env python3
"""flinch's character step beside MuJoCo's mj_step on the same character, timed in the same run (issue 12).

1. Exports the embedded walk character (the demo clip, samples/data/cmu_02_01_walk.bvh) with
   `flinch export-mjcf -o DIR` (120 Hz reference: MuJoCo's timestep is 1/120 s).
2. Loads DIR/character.xml twice, with the Euler and the implicitfast integrator, and starts the `step_speed`
   example binary in `--serve` mode: flinch's `Character::step` of the same character (kinematic root), timed on
   request by the same process for the whole run.
3. Times `--rounds` rounds. A round is one batch of `--steps` steps of each of four sides (MuJoCo Euler,
   MuJoCo implicitfast, flinch without contacts, flinch with 8 foot contacts), in an order that turns from round
   to round: MuJoCo by one `mj_step(..., nstep=N)` call from the keyframe `sample0` (a whole forward
   step: kinematics, mass matrix and its factorisation, passive forces, integration; contacts are disabled in the
   export), flinch by a request to the server. A round takes about 30 ms, so its four timings see the same VM
   speed; a shared VM's speed changes by up to 2x within a second, and timings taken seconds apart
   (whole runs one after the other) read ratios from 0.86 to 1.41 within two minutes.
4. The figure is the median over the rounds of the round's ratio (MuJoCo's faster integrator against flinch
   without contacts); the quartiles of those ratios are printed beside it, with each side's median and its
   fastest 5 % of batches.
5. Each round also times a batch of flinch's step with 8 foot contacts (`step_speed`'s `step_contacts8_us`) and
   reports it in MuJoCo steps of the same round: a figure of the contact step that does not move with the VM's
   speed of the moment (its goal, 20 us, is about 2.35 MuJoCo steps at the 8.5 us MuJoCo takes at full speed).

6. The free-root case (issue 42): `flinch export-mjcf --floor 200` stands the same character on its fitted floor
   with MuJoCo's own collision and contact solver (a plane, the capsules touching it, friction 0.9, every ball
   joint a passive spring-damper toward the rest pose in place of flinch's drives: the model has no actuators).
   Each round also times `--free-steps` steps (default 48: 0.4 s, while it still stands on its feet) of that model
   from its keyframe, and as many of flinch's assisted and balanced free-root steps on the walk with their foot
   contacts (`step_speed`'s `assisted` and `balanced`). `free_step_ratio_vs_mujoco` is the median of the rounds'
   MuJoCo us / assisted us, `balanced_step_ratio_vs_mujoco` the same for the balanced step.

The process, and so the server, is pinned to one CPU: a VM's virtual CPUs run at different speeds from moment to
moment, and with the two sides on different CPUs the same script read 0.87 to 1.41 within minutes; pinned, fourteen
runs read 1.245 to 1.310 (docs/performance.md, "Beside MuJoCo on one CPU").

Needs `pip install mujoco` and a release build of the binaries:
    cargo build --release --bin flinch --example step_speed
Usage: python3 benches/vs_mujoco.py [--target-dir DIR] [--steps N] [--rounds N]
Prints first the CPU and flinch's kernel variant (`cpu <model> kernel <avx2|sse2> avx512f <yes|no> fma <yes|no>`,
`flinch::cpu_report`, from the server), then the rounds' progress on stderr and the figures:
`figure mujoco_step_us` (the faster of the two integrators), `figure mujoco_euler_step_us`,
`figure mujoco_implicitfast_step_us`, `figure flinch_step_us` (medians over the rounds) and
`figure speed_ratio_vs_mujoco` (the median over the rounds of MuJoCo us / flinch us: above 1 means flinch is
faster) and `figure contacts8_step_in_mujoco_steps` (the median over the rounds of flinch's 8-contact step / MuJoCo
us).
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

try:
    import mujoco
except ImportError:
    sys.exit("the mujoco module is not installed (pip install mujoco)")

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def binary(target_dir, *parts):
    path = os.path.join(target_dir, "release", *parts)
    if not os.path.isfile(path):
        sys.exit(f"{path} not found: cargo build --release --bin flinch --example step_speed")
    return path


class MujocoBatches:
    """Batches of mj_step on one model with one integrator, each from the keyframe `sample0`."""

    def __init__(self, xml, integrator):
        self.model = mujoco.MjModel.from_xml_path(xml)
        self.model.opt.integrator = integrator
        self.data = mujoco.MjData(self.model)
        self.key = mujoco.mj_name2id(self.model, mujoco.mjtObj.mjOBJ_KEY, "sample0")
        self.time(240)

    def time(self, steps):
        """Mean us per step of one batch. The character falls freely (no actuators, no contacts), so every batch
        restarts from the keyframe and the state stays sane; one call steps the whole batch (`nstep`), so no
        Python call overhead (about 0.3 us) is charged to MuJoCo's step."""
        if self.key >= 0:
            mujoco.mj_resetDataKeyframe(self.model, self.data, self.key)
        else:
            mujoco.mj_resetData(self.model, self.data)
        t0 = time.perf_counter()
        mujoco.mj_step(self.model, self.data, nstep=steps)
        return (time.perf_counter() - t0) * 1e6 / steps


class FlinchServer:
    """`step_speed --serve`: flinch's step without contacts (`free`) or with 8 foot contacts (`contacts`), timed
    on request (the timing is taken inside the binary, so the pipe's latency is not charged to the step)."""

    def __init__(self, step_speed):
        self.process = subprocess.Popen(
            [step_speed, "--serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        # First `cpu <model> kernel <variant> ...` (flinch::cpu_report), then `ready` after the warm-up.
        self.cpu = self.process.stdout.readline().strip()
        if not self.cpu.startswith("cpu "):
            self.close()
            sys.exit(f"step_speed --serve: expected the cpu line, got {self.cpu!r}")
        self.expect("ready")

    def expect(self, word):
        line = self.process.stdout.readline().strip()
        if line != word:
            self.close()
            sys.exit(f"step_speed --serve: expected {word!r}, got {line!r}")

    def time(self, steps, which="free"):
        self.process.stdin.write(f"{which} {steps}\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline().strip()
        try:
            return float(line)
        except ValueError:
            self.close()
            sys.exit(f"step_speed --serve: expected a time, got {line!r}")

    def close(self):
        self.process.stdin.close()
        self.process.wait()


def pin_to_one_cpu():
    """Pins this process, and so the server it starts, to one CPU: a VM's virtual CPUs run at different speeds
    from moment to moment, so the two sides must take turns on the same one."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def quartiles(values):
    q = statistics.quantiles(values, n=4) if len(values) > 1 else values * 3
    return q[0], q[2]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--target-dir",
        default=os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")),
        help="cargo target directory holding release/flinch and release/examples/step_speed",
    )
    parser.add_argument("--steps", type=int, default=200, help="steps per batch")
    parser.add_argument("--rounds", type=int, default=301, help="rounds of one batch each (odd: a true median)")
    parser.add_argument("--free-steps", type=int, default=48, help="steps per batch of the free-root case")
    args = parser.parse_args()
    if args.rounds < 1 or args.steps < 1 or args.free_steps < 1:
        sys.exit("--rounds, --steps and --free-steps must be at least 1")
    flinch = binary(args.target_dir, "flinch")
    step_speed = binary(args.target_dir, "examples", "step_speed")

    pin_to_one_cpu()
    # The server first: its `cpu ... kernel ...` line heads the output (the CPU model, flinch's kernel variant).
    server = FlinchServer(step_speed)
    print(server.cpu, flush=True)
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([flinch, "export-mjcf", "-o", out], check=True, stdout=subprocess.DEVNULL)
        xml = os.path.join(out, "character.xml")
        euler = MujocoBatches(xml, mujoco.mjtIntegrator.mjINT_EULER)
        implicitfast = MujocoBatches(xml, mujoco.mjtIntegrator.mjINT_IMPLICITFAST)
        floor_dir = os.path.join(out, "floor")
        subprocess.run(
            [flinch, "export-mjcf", "-o", floor_dir, "--floor", "200"], check=True, stdout=subprocess.DEVNULL
        )
        floor_xml = os.path.join(floor_dir, "character.xml")
        floor_euler = MujocoBatches(floor_xml, mujoco.mjtIntegrator.mjINT_EULER)
        floor_implicit = MujocoBatches(floor_xml, mujoco.mjtIntegrator.mjINT_IMPLICITFAST)
    free = args.free_steps
    sides = [
        euler.time,
        implicitfast.time,
        server.time,
        lambda steps: server.time(steps, "contacts"),
        lambda _: floor_euler.time(free),
        lambda _: floor_implicit.time(free),
        lambda _: server.time(free, "assisted"),
        lambda _: server.time(free, "balanced"),
    ]
    rounds = []
    free_rounds = []
    for r in range(args.rounds):
        timings = [0.0] * len(sides)
        # The order turns every round, so no side always runs first (after the other's caches) or last.
        for i in range(len(sides)):
            side = (r + i) % len(sides)
            timings[side] = sides[side](args.steps)
        mujoco_us = min(timings[0], timings[1])
        rounds.append((*timings[:4], mujoco_us / timings[2], timings[3] / mujoco_us))
        floor_us = min(timings[4], timings[5])
        free_rounds.append((floor_us, timings[6], timings[7], floor_us / timings[6], floor_us / timings[7]))
        if (r + 1) % 50 == 0 or r + 1 == args.rounds:
            print(f"{r + 1}/{args.rounds} rounds", file=sys.stderr, flush=True)
    server.close()

    euler_us, implicitfast_us, flinch_us, contacts_us, ratio, contacts_ratio = (
        statistics.median(col) for col in zip(*rounds)
    )
    ratios = [r[4] for r in rounds]
    low, high = quartiles(ratios)
    mujoco_us = min(euler_us, implicitfast_us)
    model = euler.model
    print(
        f"character: flinch's export of the embedded walk, nbody={model.nbody - 1} nv={model.nv}, "
        f"timestep {model.opt.timestep:.6f} s, mujoco {mujoco.__version__}"
    )
    print(f"{args.rounds} rounds of {args.steps} steps per side, in turning order")
    print(f"MuJoCo mj_step, median of the rounds: Euler {euler_us:.2f} us, implicitfast {implicitfast_us:.2f} us")
    print(f"flinch Character::step (kinematic root, no contacts), median of the rounds: {flinch_us:.2f} us")
    print(
        f"flinch with 8 foot contacts (step_speed's step_contacts8_us), median of the rounds: {contacts_us:.2f} us, "
        f"{contacts_ratio:.3f} MuJoCo steps (median of the rounds' ratios)"
    )
    print(
        f"ratio per round: quartiles {low:.3f} / {high:.3f}, range {min(ratios):.3f} … {max(ratios):.3f}, "
        f"above 1.2 in {sum(q > 1.2 for q in ratios)} of {len(ratios)}"
    )
    # Each side's fastest 5 % of batches: what the two compare to when the VM runs at full speed for both.
    fast = [sorted(col)[len(col) // 20] for col in list(zip(*rounds))[:4]]
    print(
        f"fastest 5 % of batches: MuJoCo Euler {fast[0]:.2f} us, implicitfast {fast[1]:.2f} us, "
        f"flinch {fast[2]:.2f} us (8 contacts {fast[3]:.2f} us), ratio {min(fast[:2]) / fast[2]:.3f}"
    )
    floor_us, assisted_us, balanced_us, free_ratio, balanced_ratio = (
        statistics.median(col) for col in zip(*free_rounds)
    )
    free_ratios = [r[3] for r in free_rounds]
    low, high = quartiles(free_ratios)
    print(
        f"free root on the floor ({free} steps per batch): MuJoCo mj_step with its contacts {floor_us:.2f} us "
        f"(the faster integrator), flinch assisted {assisted_us:.2f} us, balanced {balanced_us:.2f} us; "
        f"assisted ratio quartiles {low:.3f} / {high:.3f}"
    )
    print(f"figure mujoco_floor_step_us {floor_us:.2f} us")
    print(f"figure flinch_assisted_step_us {assisted_us:.2f} us")
    print(f"figure flinch_balanced_step_us {balanced_us:.2f} us")
    print(f"figure free_step_ratio_vs_mujoco {free_ratio:.3f} ratio")
    print(f"figure balanced_step_ratio_vs_mujoco {balanced_ratio:.3f} ratio")
    print(f"figure mujoco_euler_step_us {euler_us:.2f} us")
    print(f"figure mujoco_implicitfast_step_us {implicitfast_us:.2f} us")
    print(f"figure mujoco_step_us {mujoco_us:.2f} us")
    print(f"figure flinch_step_us {flinch_us:.2f} us")
    print(f"figure speed_ratio_vs_mujoco {ratio:.3f} ratio")
    print(f"figure contacts8_step_in_mujoco_steps {contacts_ratio:.3f} ratio")


if __name__ == "__main__":
    main()
