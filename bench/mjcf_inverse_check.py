#!/usr/bin/env python3
"""MuJoCo's inverse dynamics on flinch's MJCF export, beside flinch's own.

Loads DIR/character.xml and DIR/reference.csv (written by `flinch export-mjcf CLIP -o DIR`), sets qpos, qvel and
qacc of every row, calls mujoco.mj_inverse and compares data.qfrc_inverse with the row's qfrc columns. Also checks
that MuJoCo's total mass equals flinch's (DIR/export.json).

Needs `pip install mujoco`. Usage: python3 bench/mjcf_inverse_check.py DIR [--max-rel-err X]
Prints `figure mjcf_qfrc_max_rel_err <v> 1` (max |diff| / max |qfrc| over the clip), `figure mjcf_qfrc_max_abs_err
<v> N·m` and `figure mjcf_mass_err <v> kg`; exits with status 1 when the relative error exceeds --max-rel-err
(default 1e-8) or the masses differ by more than 1e-9 relative.
"""

import argparse
import csv
import json
import os
import sys

import mujoco
import numpy as np


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", help="directory written by flinch export-mjcf")
    parser.add_argument("--max-rel-err", type=float, default=1e-8)
    args = parser.parse_args()

    model = mujoco.MjModel.from_xml_path(os.path.join(args.dir, "character.xml"))
    data = mujoco.MjData(model)
    with open(os.path.join(args.dir, "export.json"), encoding="utf-8") as f:
        meta = json.load(f)
    with open(os.path.join(args.dir, "reference.csv"), newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        header = next(reader)
        rows = np.array([[float(x) for x in row] for row in reader], dtype=np.float64)

    def block(prefix):
        cols = [i for i, name in enumerate(header) if name.startswith(prefix + "_")]
        return cols

    qpos_c, qvel_c, qacc_c, qfrc_c = (block(p) for p in ("qpos", "qvel", "qacc", "qfrc"))
    if len(qpos_c) != model.nq or any(len(c) != model.nv for c in (qvel_c, qacc_c, qfrc_c)):
        sys.exit(
            f"layout mismatch: CSV has {len(qpos_c)} qpos / {len(qvel_c)} qvel columns, "
            f"the model nq={model.nq} nv={model.nv}"
        )
    if rows.shape[0] != meta["steps"]:
        sys.exit(f"CSV has {rows.shape[0]} rows, export.json says {meta['steps']} steps")
    names = [mujoco.mj_id2name(model, mujoco.mjtObj.mjOBJ_BODY, i) for i in range(1, model.nbody)]
    expected = [b["name"] for b in meta["bodies"]]
    if names != expected:
        sys.exit(f"body order differs: MuJoCo {names}, export.json {expected}")

    max_abs = 0.0
    max_ref = 0.0
    worst = (0, "")
    for r in rows:
        data.qpos[:] = r[qpos_c]
        data.qvel[:] = r[qvel_c]
        data.qacc[:] = r[qacc_c]
        mujoco.mj_inverse(model, data)
        ref = r[qfrc_c]
        diff = np.abs(data.qfrc_inverse - ref)
        i = int(np.argmax(diff))
        if diff[i] > max_abs:
            max_abs = float(diff[i])
            worst = (int(r[0]), header[qfrc_c[i]])
        max_ref = max(max_ref, float(np.max(np.abs(ref))))
    rel = max_abs / max_ref if max_ref > 0 else max_abs

    mj_mass = float(np.sum(model.body_mass))
    mass_err = abs(mj_mass - meta["total_mass"])
    print(
        f"model {args.dir}: nbody={model.nbody - 1} nq={model.nq} nv={model.nv} rows={rows.shape[0]} "
        f"mujoco {mujoco.__version__}"
    )
    print(f"mass: MuJoCo {mj_mass:.12g} kg, flinch {meta['total_mass']:.12g} kg")
    print(f"max |qfrc| {max_ref:.6g}; worst difference at step {worst[0]}, column {worst[1]}")
    print(f"figure mjcf_qfrc_max_rel_err {rel:.3e} 1")
    print(f"figure mjcf_qfrc_max_abs_err {max_abs:.3e} N·m")
    print(f"figure mjcf_mass_err {mass_err:.3e} kg")
    ok = rel <= args.max_rel_err and mass_err <= 1e-9 * max(1.0, meta["total_mass"])
    if not ok:
        print(f"FAIL: relative error above {args.max_rel_err:g} or mass mismatch", file=sys.stderr)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
