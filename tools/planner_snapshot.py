"""Plan a fixed, seeded set of studies and write every certified planner output as JSON.

A restructure of the planning wing must not change a certified number: run this before and after
and compare (``python tools/planner_snapshot.py > before.json``; ``diff before.json after.json``).
The studies are the examples plus a seeded grid of study documents (every step type, i.i.d. and
not, several n and alpha, with and without a ``[power]`` table), read through the study-file
parser (the one input path that is stable across restructures); for each, the reuse plan
(γ, k, β, route, every route tried), the power plan (each row's threshold, test records,
validity, power and required n; the recommendation) and a short sweep over ``n``. Refusals are
recorded by their message.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

from maxinfo_bounds import planning

ROOT = Path(__file__).resolve().parent.parent

STEP_CHOICES: list[dict[str, Any]] = [
    {"type": "laplace", "sensitivity": 1e-4, "scale": 0.5},
    {"type": "laplace", "sensitivity": 1e-3, "eps": 0.01},
    {"type": "gaussian", "sensitivity": 1e-4, "sigma": 0.01, "delta": 1e-9},
    {"type": "gaussian", "sensitivity": 1.0, "eps": 0.05, "delta": 1e-10},
    {"type": "exponential", "eps": 0.02},
    {"type": "exponential", "sensitivity": 0.001, "coefficient": 2.0, "monotone": True},
    {"type": "report_noisy_max", "eps": 0.01},
    {"type": "report_noisy_max", "sensitivity": 0.001, "scale": 0.5},
    {"type": "sparse_vector", "c": 2, "eps": 0.05},
    {"type": "sparse_vector", "c": 1, "threshold_scale": 20.0, "query_scale": 40.0, "delta": 1e-12},
    {"type": "thresholdout", "budget": 10, "sigma": 0.5},
    {"type": "dp", "eps": 0.01},
    {"type": "dp", "eps": 0.005, "delta": 1e-14},
    {"type": "description", "range_size": 20},
    {"type": "mutual_information", "mi_bits": 0.5},
]
POWER_CHOICES: list[dict[str, Any] | None] = [
    None,
    {"test": "z", "effect_size": 0.1},
    {"test": "t", "effect_size": 0.05, "alternative": "larger"},
    {"test": "t2", "effect_size": 0.2},
]
# (the exact binomial test is left out of the grid: at the tiny thresholds of reuse its power
# search steps the critical value one by one and takes minutes per study; the examples cover it)


def documents(count: int = 80, seed: int = 20261125) -> list[dict[str, Any]]:
    rng = np.random.default_rng(seed)
    docs = []
    for j in range(count):
        steps = []
        for _ in range(int(rng.integers(1, 4))):
            st = dict(STEP_CHOICES[int(rng.integers(len(STEP_CHOICES)))])
            st["times"] = int(rng.choice([1, 1, 3, 20]))
            steps.append(st)
        doc: dict[str, Any] = {
            "study": {"name": f"grid {j}"},
            "data": {"n": int(rng.choice([500, 10_000, 1_000_000])), "iid": bool(rng.integers(2))},
            "test": {"alpha": float(rng.choice([0.05, 0.01]))},
            "steps": steps,
        }
        if rng.random() < 0.3:
            doc["study"]["family_size"] = int(rng.choice([10, 1000]))
        pw = POWER_CHOICES[int(rng.integers(len(POWER_CHOICES)))] if j % 3 == 0 else None
        if pw is not None:
            doc["power"] = dict(pw)
        docs.append(doc)
    return docs


def record(study: planning.Study) -> dict[str, Any]:
    out: dict[str, Any] = {}
    try:
        r = planning.plan(study)
        out["plan"] = {
            "gamma": repr(r.gamma),
            "k": repr(r.k),
            "beta": repr(r.beta),
            "route": r.route,
            "candidates": [[n, repr(g)] for n, g, _ in r.candidates],
        }
    except planning.PlanError as exc:
        out["plan"] = {"refused": " ".join(str(exc).split())}
    try:
        pp = planning.plan_power(study)
        out["rows"] = [
            [row.name, repr(row.threshold), row.test_records, row.valid, repr(row.power), row.required_n]
            for row in pp.rows
        ]
        out["recommended"] = pp.recommended.name if pp.recommended is not None else None
    except planning.PlanError as exc:
        out["rows"] = {"refused": " ".join(str(exc).split())}
    except ValueError as exc:  # a crash of the planner (recorded, so a fix shows in the diff)
        out["rows"] = {"crash": f"{type(exc).__name__}: {exc}"}
    rows = planning.sweep(study, "n", [100, 3000, 10**5])
    out["sweep_n"] = [[v, repr(g)] for v, g, _ in rows]
    return out


def main() -> None:
    import os

    os.chdir(ROOT)
    snap: dict[str, Any] = {}
    for p in sorted((ROOT / "examples").glob("*.toml")):
        snap[p.name] = record(planning.load_study(p.relative_to(ROOT)))
    for j, doc in enumerate(documents()):
        try:
            study = planning.parse_study(doc, f"grid{j}.toml")
        except planning.PlanError as exc:
            snap[f"grid {j}"] = {"parse": str(exc)}
            continue
        snap[f"grid {j}"] = record(study)
        print(f"\r{j + 1} studies", end="", file=sys.stderr)
    print(file=sys.stderr)
    json.dump(snap, sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
