"""Benchmark: the certified theorem evaluators (issue 3 targets).

Prints median timings and throughput, each beside a baseline measured in the same run:

* vectorised closed forms: points per second on 10^6 parameter points (target >= 10^6/s),
  beside the plain uncertified numpy formula (the cost of validation + safe rounding);
* one scalar evaluation at 50 digits (target <= 1 ms), beside the same at 30 digits;
* the certified inverse solvers and Cor C.2 'optimal' (per call).

Usage: python benchmarks/bench_theorems.py [--repeats R]
"""

from __future__ import annotations

import argparse
import math
import platform

import numpy as np
from _timing import median_time

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
            lambda: None,
        ),
    ]
    print(f"\n## vectorised closed forms, {N} points, median of {r}")
    print(f"{'case':24s} {'ms':>8s} {'Mpoints/s':>10s} {'plain numpy ms':>15s} {'ratio':>6s}  target >= 1 Mpoints/s")
    for name, fn, plain in rows:
        t = median_time(fn, r)
        tp = median_time(plain, r)
        flag = "ok" if N / t >= 1e6 else "MISSED"
        ratio = f"{t / tp:6.2f}" if tp > 1e-4 else "     -"
        print(f"{name:26s} {t * 1e3:8.1f} {N / t / 1e6:10.2f} {tp * 1e3:15.1f} {ratio}  {flag}")

    print(f"\n## one scalar certified evaluation, median of {max(r, 101)}")
    print(f"{'case':40s} {'ms':>8s}  target <= 1 ms at 50 digits")
    cases = [
        ("RRST-1.4b, 30 digits (default)", lambda: pure_dp_max_information_product(0.1, 10**6, 1e-9)),
        ("RRST-1.4b, 50 digits", lambda: pure_dp_max_information_product(0.1, 10**6, 1e-9, dps=50)),
        ("RRST-1.4a, 50 digits", lambda: pure_dp_max_information(0.1, 10**6, dps=50)),
        ("RRST-1.3, 50 digits (non-integer k)", lambda: pvalue_correction(0.05, 3.3, 1e-3, dps=50)),
        ("DFHPRR-4, 50 digits", lambda: hoeffding_transfer(3.3, 1e-3, 0.05, 10**4, dps=50)),
    ]
    for name, fn in cases:
        t = median_time(fn, max(r, 101))
        flag = "" if "30 digits" in name else ("ok" if t <= 1e-3 else "MISSED")
        print(f"{name:40s} {t * 1e3:8.3f}  {flag}")

    print(f"\n## solvers and optimisers (per call), median of {r}")
    for name, fn in [
        ("max_eps_for_gamma (n = 10^6)", lambda: max_eps_for_gamma(0.05, 1e-4, 10**6)),
        ("max_n_for_gamma (eps = 0.01)", lambda: max_n_for_gamma(0.05, 1e-4, 0.01)),
        ("mi_pvalue_correction optimal (m = 1)", lambda: mi_pvalue_correction(0.05, 1.0)),
        ("RRST-3.1 optimised (0.1, 1e-14, 1e3)", lambda: approx_dp_max_information(0.1, 1e-14, 1000, beta=0.0095)),
        ("RRST-3.1 optimised (0.05, 1e-20, 1e4)", lambda: approx_dp_max_information(0.05, 1e-20, 10**4, beta=1.34e-4)),
    ]:
        print(f"{name:40s} {median_time(fn, r) * 1e3:8.1f} ms")


if __name__ == "__main__":
    main()
