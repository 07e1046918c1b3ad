#!/usr/bin/env python3
"""flinch's character step beside MuJoCo's mj_step on the same character, timed in the same run (issue 12).

1. Exports the embedded walk character (the demo clip, samples/data/cmu_02_01_walk.bvh) with
   `flinch export-mjcf -o DIR` (120 Hz reference: MuJoCo's timestep is 1/120 s).
2. Times mujoco.mj_step on DIR/character.xml from the keyframe `sample0`, with the Euler and the implicitfast
   integrator: the median over batches of the mean µs per step in a batch of 200 steps taken by one
   `mj_step(..., nstep=200)` call (a whole forward step: kinematics, mass matrix and its factorisation, passive
   forces, integration; contacts are disabled in the export).
3. Runs the `step_speed` example binary (`--json`) for flinch's `Character::step` of the same character
   (kinematic root, no contacts), right after, in the same run.
4. Repeats 2–3 (the export once) for `--rounds` rounds. A shared VM's speed changes by up to 2× within a
   second, so a MuJoCo timing and a flinch timing taken one after the other can catch different speeds: single
   runs of this script read ratios from 0.86 to 1.41 within two minutes. Each round's ratio compares timings
   taken within a second of each other; the median over the rounds is the figure, and the spread of the rounds'
   ratios is printed beside it.

Needs `pip install mujoco` and a release build of the binaries:
    cargo build --release --bin flinch --example step_speed
Usage: python3 benches/vs_mujoco.py [--target-dir DIR] [--batches N] [--rounds N]
Prints `figure mujoco_step_us` (the faster of the two integrators), `figure mujoco_euler_step_us`,
`figure mujoco_implicitfast_step_us`, `figure flinch_step_us` (medians over the rounds) and
`figure speed_ratio_vs_mujoco` (the median over the rounds of MuJoCo µs / flinch µs: above 1 means flinch is
faster).
"""

import argparse
import json
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


STEPS_PER_BATCH = 200


def time_mujoco(xml, integrator, batches):
    model = mujoco.MjModel.from_xml_path(xml)
    model.opt.integrator = integrator
    data = mujoco.MjData(model)
    key = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_KEY, "sample0")

    def restart():
        if key >= 0:
            mujoco.mj_resetDataKeyframe(model, data, key)
        else:
            mujoco.mj_resetData(model, data)

    restart()
    for _ in range(240):
        mujoco.mj_step(model, data)

    # The character falls freely (no actuators, no contacts): restart every batch so the state stays sane. One
    # call steps the whole batch (`nstep`), so no Python call overhead (≈ 0.3 µs) is charged to MuJoCo's step.
    samples = []
    for _ in range(batches):
        restart()
        t0 = time.perf_counter()
        mujoco.mj_step(model, data, nstep=STEPS_PER_BATCH)
        samples.append((time.perf_counter() - t0) * 1e6 / STEPS_PER_BATCH)
    return statistics.median(samples), model


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--target-dir",
        default=os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")),
        help="cargo target directory holding release/flinch and release/examples/step_speed",
    )
    parser.add_argument("--batches", type=int, default=41)
    parser.add_argument("--rounds", type=int, default=7, help="MuJoCo/flinch rounds (odd: a true median)")
    args = parser.parse_args()
    if args.rounds < 1 or args.batches < 1:
        sys.exit("--rounds and --batches must be at least 1")
    flinch = binary(args.target_dir, "flinch")
    step_speed = binary(args.target_dir, "examples", "step_speed")

    rounds = []
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([flinch, "export-mjcf", "-o", out], check=True, stdout=subprocess.DEVNULL)
        xml = os.path.join(out, "character.xml")
        for r in range(args.rounds):
            euler, model = time_mujoco(xml, mujoco.mjtIntegrator.mjINT_EULER, args.batches)
            implicitfast, _ = time_mujoco(xml, mujoco.mjtIntegrator.mjINT_IMPLICITFAST, args.batches)
            figures = time_flinch(step_speed, args.batches)
            flinch_us = figures["step_us"]
            ratio = min(euler, implicitfast) / flinch_us
            print(
                f"round {r + 1}/{args.rounds}: MuJoCo Euler {euler:.2f} us, implicitfast {implicitfast:.2f} us; "
                f"flinch {flinch_us:.2f} us; ratio {ratio:.3f}",
                flush=True,
            )
            rounds.append((euler, implicitfast, flinch_us, ratio))
    euler, implicitfast, flinch_us, ratio = (statistics.median(col) for col in zip(*rounds))
    ratios = sorted(r[3] for r in rounds)
    mujoco_us = min(euler, implicitfast)
    print(
        f"character: flinch's export of the embedded walk, nbody={model.nbody - 1} nv={model.nv}, "
        f"timestep {model.opt.timestep:.6f} s, mujoco {mujoco.__version__}; flinch {figures['bodies']} bodies"
    )
    print(f"MuJoCo mj_step, median of {args.rounds} rounds: Euler {euler:.2f} us, implicitfast {implicitfast:.2f} us")
    print(f"flinch Character::step (kinematic root, no contacts), median of {args.rounds} rounds: {flinch_us:.2f} us")
    print(f"ratio per round: {ratios[0]:.3f} … {ratios[-1]:.3f}")
    # Each side at its fastest round: what the two compare to when the VM runs at full speed for both.
    fastest_mujoco = min(min(r[0], r[1]) for r in rounds)
    fastest_flinch = min(r[2] for r in rounds)
    print(
        f"fastest rounds: MuJoCo {fastest_mujoco:.2f} us, flinch {fastest_flinch:.2f} us, "
        f"ratio {fastest_mujoco / fastest_flinch:.3f}"
    )
    print(f"figure mujoco_euler_step_us {euler:.2f} us")
    print(f"figure mujoco_implicitfast_step_us {implicitfast:.2f} us")
    print(f"figure mujoco_step_us {mujoco_us:.2f} us")
    print(f"figure flinch_step_us {flinch_us:.2f} us")
    print(f"figure speed_ratio_vs_mujoco {ratio:.3f} ratio")


def time_flinch(step_speed, batches):
    """flinch's figures from one `step_speed --json --only free` run (its last output line)."""
    run = subprocess.run(
        [step_speed, "--json", "--only", "free", "--batches", str(batches)],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(run.stdout.strip().splitlines()[-1])


if __name__ == "__main__":
    main()
