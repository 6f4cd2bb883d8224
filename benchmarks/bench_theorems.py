"""Benchmark: the certified theorem evaluators (issue 3 targets).

Prints median timings and throughput, each beside a baseline measured in the same run:

* vectorised closed forms: points per second on 10^6 parameter points (target >= 10^6/s),
  beside the plain uncertified numpy formula (the cost of validation + safe rounding);
* one scalar evaluation at 50 digits (target <= 1 ms), beside the same at 30 digits;
* the certified inverse solvers and Cor C.2 'optimal' (per call), beside one certified
  evaluation of what they solve (the ratio is about the number of evaluations; for Cor C.2
  and RRST Thm 3.1 the paper's own closed choice of the free parameter).

Usage: python benchmarks/bench_theorems.py [--repeats R]
"""

from __future__ import annotations

import argparse
import math
import platform

import numpy as np
from _timing import paired

from maxinfo_bounds.theorems.description import description_length_max_information
from maxinfo_bounds.theorems.generalization import hoeffding_transfer
from maxinfo_bounds.theorems.maxinfo_dp import (
    approx_dp_max_information,
    pure_dp_max_information,
    pure_dp_max_information_product,
)
from maxinfo_bounds.theorems.pvalues import mi_pvalue_correction, pvalue_correction
from maxinfo_bounds.theorems.solvers import max_eps_for_gamma, max_n_for_gamma


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=11)
    r = ap.parse_args().repeats
    print(f"# python {platform.python_version()}, numpy {np.__version__}, {platform.machine()}")
    rng = np.random.default_rng(0)
    N = 1_000_000
    eps = np.exp(rng.uniform(-12, 1, N))
    n = np.floor(np.exp(rng.uniform(0, 20, N)))
    beta = np.exp(rng.uniform(-600, -0.01, N))
    alpha = rng.uniform(0.01, 0.1, N)
    k = rng.uniform(0, 50, N)
    eps31 = np.minimum(eps, 0.5)
    lg = math.log2(math.e)
    rows = [
        (
            "RRST-1.4b vectorised",
            lambda: pure_dp_max_information_product(eps, n, beta),
            lambda: lg * (eps * eps * n / 2 + eps * np.sqrt(n * np.log(2 / beta) / 2)),
        ),
        ("RRST-1.4a vectorised", lambda: pure_dp_max_information(eps, n), lambda: lg * eps * n),
        (
            "RRST-1.3 vectorised",
            lambda: pvalue_correction(alpha, k, beta),
            lambda: np.maximum(alpha - beta, 0) * np.exp2(-k),
        ),
        ("DFHPRR-6 vectorised", lambda: description_length_max_information(n, beta), lambda: np.log2(n / beta)),
        (
            "DFHPRR-4 vectorised",
            lambda: hoeffding_transfer(k, beta, eps, n),
            lambda: 2 * np.exp(k * math.log(2) - 2 * eps * eps * n) + beta,
        ),
        (
            "RRST-3.1 sound vectorised",
            lambda: approx_dp_max_information(eps31, eps31 * 1e-20, n, strict=False),
            # (no one-line numpy form: the floor is RRST-1.4b's numpy formula on the same points)
            lambda: lg * (eps * eps * n / 2 + eps * np.sqrt(n * np.log(2 / beta) / 2)),
        ),
    ]
    print("# every line: medians of interleaved repetitions, the case beside its floor; CPU = process time;")
    print("# load = 1-min load average")
    print(f"\n## vectorised closed forms, {N} points, median of {r}")
    print(
        f"{'case':26s} {'ms':>8s} {'CPU ms':>8s} {'Mpoints/s':>10s} {'plain numpy ms':>15s} {'ratio':>6s} "
        f"{'load':>5s}  target >= 1 Mpoints/s"
    )
    for name, fn, plain in rows:
        m = paired({"fn": fn, "plain": plain}, r)
        t, tp = m["fn"], m["plain"]
        flag = "ok" if N / t.wall >= 1e6 else "MISSED"
        print(
            f"{name:26s} {t.wall * 1e3:8.1f} {t.cpu * 1e3:8.1f} {N / t.wall / 1e6:10.2f} {tp.wall * 1e3:15.1f} "
            f"{t / tp:6.2f} {t.load:5.2f}  {flag}"
        )

    rs = max(r, 101)
    print(f"\n## one scalar certified evaluation at 50 digits beside the same at 30 (the default), median of {rs}")
    print(f"{'case':40s} {'ms':>8s} {'CPU ms':>8s} {'30 digits ms':>13s} {'ratio':>6s} {'load':>5s}  target <= 1 ms")
    cases = [
        ("RRST-1.4b", lambda d: pure_dp_max_information_product(0.1, 10**6, 1e-9, dps=d)),
        ("RRST-1.4a", lambda d: pure_dp_max_information(0.1, 10**6, dps=d)),
        ("RRST-1.3 (non-integer k)", lambda d: pvalue_correction(0.05, 3.3, 1e-3, dps=d)),
        ("DFHPRR-4", lambda d: hoeffding_transfer(3.3, 1e-3, 0.05, 10**4, dps=d)),
    ]
    for name, fn in cases:
        m = paired({"50": lambda fn=fn: fn(50), "30": lambda fn=fn: fn(30)}, rs)
        t, t0 = m["50"], m["30"]
        flag = "ok" if t.wall <= 1e-3 else "MISSED"
        print(
            f"{name:40s} {t.wall * 1e3:8.3f} {t.cpu * 1e3:8.3f} {t0.wall * 1e3:13.3f} {t / t0:6.2f} "
            f"{t.load:5.2f}  {flag}"
        )

    print(f"\n## solvers and optimisers (per call) beside one certified evaluation of what they solve, median of {r}")
    print(f"{'case':40s} {'ms':>8s} {'CPU ms':>8s} {'one eval ms':>12s} {'ratio':>6s} {'load':>5s}")
    for name, fn, one in [
        (
            "max_eps_for_gamma (n = 10^6)",
            lambda: max_eps_for_gamma(0.05, 1e-4, 10**6),
            lambda: pvalue_correction(0.05, pure_dp_max_information_product(0.01, 10**6, 1e-4).k, 1e-4),
        ),
        (
            "max_n_for_gamma (eps = 0.01)",
            lambda: max_n_for_gamma(0.05, 1e-4, 0.01),
            lambda: pvalue_correction(0.05, pure_dp_max_information_product(0.01, 10**6, 1e-4).k, 1e-4),
        ),
        (
            "mi_pvalue_correction optimal (m = 1)",
            lambda: mi_pvalue_correction(0.05, 1.0),
            lambda: mi_pvalue_correction(0.05, 1.0, variant="paper"),
        ),
        (
            "RRST-3.1 optimised (0.1, 1e-14, 1e3)",
            lambda: approx_dp_max_information(0.1, 1e-14, 1000, beta=0.0095),
            lambda: approx_dp_max_information(0.1, 1e-14, 1000),
        ),
        (
            "RRST-3.1 optimised (0.05, 1e-20, 1e4)",
            lambda: approx_dp_max_information(0.05, 1e-20, 10**4, beta=1.34e-4),
            lambda: approx_dp_max_information(0.05, 1e-20, 10**4),
        ),
    ]:
        m = paired({"fn": fn, "one": one}, r)
        t, t0 = m["fn"], m["one"]
        print(f"{name:40s} {t.wall * 1e3:8.1f} {t.cpu * 1e3:8.1f} {t0.wall * 1e3:12.2f} {t / t0:6.1f} {t.load:5.2f}")


if __name__ == "__main__":
    main()
