#!/usr/bin/env python3
"""MuJoCo's cost per call on the corpus humanoid, for comparison with flinch's tree solver.

Times mj_step (a whole forward step: kinematics, mass matrix + its sparse factorisation, contacts, constraint
solver, integration) and mj_inverse (inverse dynamics) per call: the median over many calls, after a warm-up.
Needs `pip install mujoco`. Usage: python3 bench/mujoco_humanoid.py [path/to/humanoid.xml]
Prints `figure mujoco_step_us <v> us` and `figure mujoco_inverse_us <v> us`.
"""

import os
import statistics
import sys
import time

import mujoco

DEFAULT_XML = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "data", "mjcf", "humanoid.xml")


def per_call_us(fn, calls, batches):
    """Median over `batches` of the mean µs per call in a batch of `calls` calls."""
    samples = []
    for _ in range(batches):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        samples.append((time.perf_counter() - t0) * 1e6 / calls)
    return statistics.median(samples)


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("FLINCH_MJCF", DEFAULT_XML)
    if not os.path.isfile(path):
        path = "/work/shared/data/mjcf/humanoid.xml"
    model = mujoco.MjModel.from_xml_path(path)
    data = mujoco.MjData(model)
    print(f"model {path}: nbody={model.nbody} nv={model.nv} njnt={model.njnt} mujoco {mujoco.__version__}")

    # Warm up, and let the humanoid fall/settle so the step includes its contacts.
    mujoco.mj_resetData(model, data)
    for _ in range(500):
        mujoco.mj_step(model, data)
    step_us = per_call_us(lambda: mujoco.mj_step(model, data), calls=200, batches=51)
    # mj_inverse needs qacc: take the one a forward pass produced at this state.
    mujoco.mj_forward(model, data)
    for _ in range(200):
        mujoco.mj_inverse(model, data)
    inverse_us = per_call_us(lambda: mujoco.mj_inverse(model, data), calls=200, batches=51)
    print(f"ncon={data.ncon} (contacts at the timed state)")
    print(f"figure mujoco_step_us {step_us:.2f} us")
    print(f"figure mujoco_inverse_us {inverse_us:.2f} us")


if __name__ == "__main__":
    main()
