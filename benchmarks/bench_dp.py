"""Benchmark: DP accounting and the reusable holdout (issue 4).

Prints median timings, each beside a baseline measured in the same run:

* optimal homogeneous composition (KOV15, certified, exact binomials) at k = 10 to 10^7,
  beside its own float estimate (the uncertified root of the same sum in float64 that steers
  the certified search; issue 45 targets: k = 10^6 <= 0.2 s, k = 10^7 <= 1 s), and the eps of
  advanced composition for the same steps;
* analytic Gaussian calibration (Balle-Wang, certified) beside the classic closed form;
* Thresholdout: one query on n = 10,000 records, beside the two plain numpy means it needs.

Usage: python benchmarks/bench_dp.py [--repeats R]
"""

from __future__ import annotations

import argparse
import platform

import numpy as np
from _timing import paired

from maxinfo_bounds import Thresholdout
from maxinfo_bounds.theorems.dp_accounting import (
    advanced_composition,
    analytic_gaussian_sigma,
    gaussian_sigma,
    optimal_composition,
)
from maxinfo_bounds.theorems.dp_accounting.optimal import kov_eps_float


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=5)
    r = ap.parse_args().repeats
    print(f"python {platform.python_version()}, numpy {np.__version__}, repeats {r}")
    print("\nEach line: medians of interleaved repetitions; CPU = process time; load = 1-min load average.")
    print(
        "\n| k | KOV15 optimal (s) | CPU (s) | float estimate, floor (s) | CPU (s) | load | ratio "
        "| eps KOV | eps advanced |"
    )
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for k in (10, 100, 1000, 10_000, 10**6, 10**7):
        m = paired(
            {
                "kov": lambda k=k: optimal_composition(0.01, 0.0, k, 1e-6),
                "float": lambda k=k: kov_eps_float(0.01, 0.0, k, 1e-6),
            },
            r if k < 10**7 else max(1, r // 2),
        )
        e1 = optimal_composition(0.01, 0.0, k, 1e-6).eps
        # (advanced composition takes a list of steps: O(k) Python objects, 3 s at 10^6)
        e0 = f"{advanced_composition([(0.01, 0.0)] * k, 1e-6).eps:.5f}" if k <= 10**5 else "-"
        t1, t0 = m["kov"], m["float"]
        print(
            f"| {k} | {t1.wall:.4f} | {t1.cpu:.4f} | {t0.wall:.4f} | {t0.cpu:.4f} | {t1.load:.2f} "
            f"| {t1 / t0:.1f} | {e1:.5f} | {e0} |"
        )
    m = paired(
        {"agm": lambda: analytic_gaussian_sigma(1.0, 0.5, 1e-6), "classic": lambda: gaussian_sigma(1.0, 0.5, 1e-6)}, r
    )
    print(
        f"\nanalytic Gaussian sigma: {m['agm'].ms(2)}; classic (floor): {m['classic'].ms(3)} "
        f"(ratio {m['agm'] / m['classic']:.0f}); sigma {analytic_gaussian_sigma(1.0, 0.5, 1e-6):.4f} "
        f"vs {gaussian_sigma(1.0, 0.5, 1e-6):.4f}"
    )
    rng = np.random.default_rng(0)
    tr, ho = rng.random(10_000), rng.random(10_000)
    th = Thresholdout(tr, ho, threshold=0.04, sigma=0.01, budget=10**9, rng=1)
    m = paired({"th": lambda: th.query_values(tr, ho), "means": lambda: (tr.mean(), ho.mean())}, max(r, 50))
    print(
        f"Thresholdout query (n = 10,000): {m['th'].us()}; two numpy means (floor): {m['means'].us()} "
        f"(ratio {m['th'] / m['means']:.1f})"
    )


if __name__ == "__main__":
    main()
