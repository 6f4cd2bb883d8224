"""Benchmark: DP accounting and the reusable holdout (issue 4).

Prints median timings, each beside a baseline measured in the same run:

* optimal homogeneous composition (KOV15, certified, exact binomials) at k = 10, 100, 1000,
  10000, beside advanced composition of the same steps;
* analytic Gaussian calibration (Balle-Wang, certified) beside the classic closed form;
* Thresholdout: one query on n = 10,000 records, beside the two plain numpy means it needs.

Usage: python benchmarks/bench_dp.py [--repeats R]
"""

from __future__ import annotations

import argparse
import platform

import numpy as np
from _timing import median_time

from maxinfo_bounds import Thresholdout
from maxinfo_bounds.theorems.dp_accounting import (
    advanced_composition,
    analytic_gaussian_sigma,
    gaussian_sigma,
    optimal_composition,
)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=5)
    r = ap.parse_args().repeats
    print(f"python {platform.python_version()}, numpy {np.__version__}, repeats {r}")
    print("\n| k | KOV15 optimal (s) | advanced (s) | ratio | eps KOV | eps advanced |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: |")
    for k in (10, 100, 1000, 10_000):
        t1 = median_time(lambda: optimal_composition(0.01, 0.0, k, 1e-6), r)
        t0 = median_time(lambda: advanced_composition([(0.01, 0.0)] * k, 1e-6), r)
        e1 = optimal_composition(0.01, 0.0, k, 1e-6).eps
        e0 = advanced_composition([(0.01, 0.0)] * k, 1e-6).eps
        print(f"| {k} | {t1:.4f} | {t0:.4f} | {t1 / t0:.1f} | {e1:.5f} | {e0:.5f} |")
    t1 = median_time(lambda: analytic_gaussian_sigma(1.0, 0.5, 1e-6), r)
    t0 = median_time(lambda: gaussian_sigma(1.0, 0.5, 1e-6), r)
    print(
        f"\nanalytic Gaussian sigma: {t1 * 1e3:.2f} ms; classic: {t0 * 1e3:.3f} ms "
        f"(ratio {t1 / t0:.0f}); sigma {analytic_gaussian_sigma(1.0, 0.5, 1e-6):.4f} "
        f"vs {gaussian_sigma(1.0, 0.5, 1e-6):.4f}"
    )
    rng = np.random.default_rng(0)
    tr, ho = rng.random(10_000), rng.random(10_000)
    th = Thresholdout(tr, ho, threshold=0.04, sigma=0.01, budget=10**9, rng=1)
    t1 = median_time(lambda: th.query_values(tr, ho), max(r, 50))
    t0 = median_time(lambda: (tr.mean(), ho.mean()), max(r, 50))
    print(
        f"Thresholdout query (n = 10,000): {t1 * 1e6:.1f} us; two numpy means: {t0 * 1e6:.1f} us (ratio {t1 / t0:.1f})"
    )


if __name__ == "__main__":
    main()
