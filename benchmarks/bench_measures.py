"""Benchmark: approx_max_information on a 2^16 x 16 joint table (about 10^6 cells).

Prints median timings and the ratio to numpy sorting the same 10^6 likelihood ratios, measured
in the same run with interleaved repetitions (so machine load affects both alike). Targets
(issue 2, tightened by issue 17): one beta <= 1 s and <= 3x the numpy sort; 1,000 betas in one
call <= 1.5 s and <= 3x the numpy sort.

Two tables, both seeded:

* ``random``: i.i.d. uniform cells, normalised (no ties; ratios spread over (0, 2)).
* ``mechanism``: X uniform on {0,1}^16, Y the coordinate picked by the exponential mechanism
  with score x_j and eps = 1 (heavy ties: ratios depend on x only through a few counts).

Usage: python benchmarks/bench_measures.py [--repeats R]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from collections.abc import Callable

import numpy as np

from maxinfo_bounds.measures import approx_max_information

BETAS_ONE = [0.0, 1e-6, 1e-3, 0.05, 0.5]


def random_table(seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    J = rng.random((1 << 16, 16))
    return J / J.sum()


def mechanism_table(eps: float = 1.0) -> np.ndarray:
    x = ((np.arange(1 << 16)[:, None] >> np.arange(16)[None, :]) & 1).astype(np.float64)
    w = np.exp(eps * x)  # exponential mechanism, score x_j, sensitivity 1 (eps/2 per DP scaling)
    cond = w / w.sum(axis=1, keepdims=True)
    return cond / (1 << 16)


def ratios(J: np.ndarray) -> np.ndarray:
    return (J / np.multiply.outer(J.sum(axis=1), J.sum(axis=0))).ravel()


def timeit_interleaved(fns: dict[str, Callable[[], object]], repeats: int) -> dict[str, float]:
    times: dict[str, list[float]] = {k: [] for k in fns}
    for _ in range(repeats):
        for name, fn in fns.items():
            t0 = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t0)
    return {k: statistics.median(v) for k, v in times.items()}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=15)
    ns = ap.parse_args()
    print(f"# python {platform.python_version()}, numpy {np.__version__}, {platform.machine()}")
    many = np.linspace(0.0, 0.99, 1000)
    missed: list[str] = []
    for tname, J in [("random", random_table()), ("mechanism", mechanism_table())]:
        r = ratios(J)
        fns: dict[str, Callable[[], object]] = {"numpy sort of the ratios": lambda r=r: np.sort(r)}
        for b in BETAS_ONE:
            fns[f"one beta = {b:g}"] = lambda J=J, b=b: approx_max_information(J, b)
        fns["1000 betas (one pass)"] = lambda J=J: approx_max_information(J, many)
        med = timeit_interleaved(fns, ns.repeats)
        base = med["numpy sort of the ratios"]
        print(f"\n## table {tname}: {J.shape[0]} x {J.shape[1]} = {J.size} cells, median of {ns.repeats}")
        print(f"{'case':32s} {'median ms':>10s} {'x sort':>8s}  target")
        for name, t in med.items():
            if name.startswith("one beta"):
                target = "<= 1000 ms and <= 3x sort"
                good = t <= 1.0 and t <= 3 * base
            elif name.startswith("1000"):
                target = "<= 1500 ms and <= 3x sort"
                good = t <= 1.5 and t <= 3 * base
            else:
                target, good = "(baseline)", True
            if not good:
                missed.append(f"{tname}: {name} ({t / base:.2f}x sort, {t * 1e3:.1f} ms)")
            flag = "" if target == "(baseline)" else ("ok" if good else "MISSED")
            print(f"{name:32s} {t * 1e3:10.1f} {t / base:8.2f}  {target} {flag}")
    print("\nall targets met" if not missed else "\ntargets missed:\n  " + "\n  ".join(missed))


if __name__ == "__main__":
    main()
