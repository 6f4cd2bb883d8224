"""The planner held to monotonicity in every step's privacy: a weaker guarantee (a step's delta
made larger) never gives a larger threshold gamma (issue 46 item 3).

For each of ``studies`` random i.i.d. studies (n log-uniform in [10^3, 10^8], alpha 0.05 or
0.01, one to three DP steps: generic (eps, delta)-DP steps, Gaussian steps given by (eps,
delta), Laplace steps; eps log-uniform in [10^-5, 0.1], delta in [10^-30, 10^-8], 1 to 200
runs), one step with delta > 0 is weakened: its delta times ``factor`` (10). A violation is a
weaker study whose certified gamma exceeds the stronger one's by more than ``tol`` relative
(the float optimisers' stated tolerance). Seeded (numpy Generator); a study the planner refuses
counts as gamma = 0.

Usage: python -m proofs_checks.planner_monotone [--studies 500] [--seed S] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from typing import Any

import numpy as np

from maxinfo_bounds.planning import Gaussian, GenericDP, Laplace, PlanError, Study, plan

from .report import versions

__all__ = ["random_study", "run"]

DEFAULT_SEED = 20261126


def _logu(rng: np.random.Generator, lo: float, hi: float) -> float:
    return float(10.0 ** rng.uniform(np.log10(lo), np.log10(hi)))


def random_study(rng: np.random.Generator) -> tuple[Study, int]:
    """A random study and the index of a step with delta > 0 (the one to weaken)."""
    steps: list[Any] = []
    for _ in range(int(rng.integers(1, 4))):
        kind = rng.choice(["dp", "gaussian", "laplace"], p=[0.5, 0.3, 0.2])
        eps, delta, times = _logu(rng, 1e-5, 0.1), _logu(rng, 1e-30, 1e-8), int(rng.integers(1, 201))
        if kind == "dp":
            steps.append(GenericDP(eps=eps, delta=delta, times=times))
        elif kind == "gaussian":
            steps.append(Gaussian.from_eps(1e-3, eps, delta, times=times))
        else:
            steps.append(Laplace.from_eps(1e-3, eps, times=times))
    weak = [i for i, s in enumerate(steps) if getattr(s, "delta", None)]
    if not weak:
        steps.append(GenericDP(eps=_logu(rng, 1e-5, 0.1), delta=_logu(rng, 1e-30, 1e-8), times=1))
        weak = [len(steps) - 1]
    n = int(_logu(rng, 1e3, 1e8))
    alpha = float(rng.choice([0.05, 0.01]))
    return Study(n=n, alpha=alpha, iid=True, steps=tuple(steps)), int(rng.choice(weak))


def _gamma(study: Study) -> float:
    try:
        return plan(study).gamma
    except PlanError:
        return 0.0


def run(studies: int = 500, seed: int = DEFAULT_SEED, factor: float = 10.0, tol: float = 1e-6) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    rows = []
    t0 = time.monotonic()
    for s in range(studies):
        study, i = random_study(rng)
        st = study.steps[i]
        delta = float(st.params["delta"])  # a step with delta > 0 (random_study)
        weak_step = st.with_value("delta", delta * factor)
        weaker = replace(study, steps=tuple(weak_step if j == i else x for j, x in enumerate(study.steps)))
        g, gw = _gamma(study), _gamma(weaker)
        rows.append({"study": s, "step": i, "gamma": g, "gamma_weaker": gw, "violation": gw > g * (1 + tol) and gw > 0})
    bad = [r for r in rows if r["violation"]]
    return {
        "campaign": "planner_monotone",
        "studies": studies,
        "seed": seed,
        "factor": factor,
        "tolerance": tol,
        "violations": len(bad),
        "worst_ratio": max((r["gamma_weaker"] / r["gamma"] for r in bad if r["gamma"] > 0), default=None),
        "examples": bad[:10],
        "seconds": round(time.monotonic() - t0, 1),
        "versions": versions(),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m proofs_checks.planner_monotone")
    ap.add_argument("--studies", type=int, default=500)
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--json")
    ns = ap.parse_args(argv)
    out = run(ns.studies, ns.seed)
    text = json.dumps(out, indent=1)
    if ns.json:
        with open(ns.json, "w") as fh:
            fh.write(text)
    print(f"{out['studies']} studies: {out['violations']} violations (worst ratio {out['worst_ratio']}); ", end="")
    print(f"{out['seconds']} s")
    return 0 if out["violations"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
