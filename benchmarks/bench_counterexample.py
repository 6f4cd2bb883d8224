"""Benchmark: exact verification of RRST Thm 4.1 on the Golay code [23, 12, 7] (issue 7).

Times each claim's exact check at eps = 8, delta = 1/4, two ways in the same run:
enumeration of all 2^23 datasets (the baseline the issue asks for) and the exact syndrome
reduction (2^11 syndromes). Also the largest BCH code the reduction verifies.

Usage: PYTHONPATH=. python benchmarks/bench_counterexample.py
"""

from __future__ import annotations

import platform
import time
from collections import defaultdict

import numpy as np

from proofs_checks.codes import all_syndromes, bch, golay
from proofs_checks.counterexample import check_code


def main() -> None:
    print(f"python {platform.python_version()}, numpy {np.__version__}")
    g = golay()
    t0 = time.perf_counter()
    all_syndromes(g)
    t_syn = time.perf_counter() - t0
    for label, enum in (("enumeration of all 2^23 datasets", True), ("syndrome reduction", False)):
        t0 = time.perf_counter()
        recs = check_code(g, 8.0, 0.25, enumerate_all=enum)
        total = time.perf_counter() - t0
        per: dict[str, float] = defaultdict(float)
        for r in recs:   # records carry the time since their section started
            per[r["check"]] = max(per[r["check"]], r["seconds"])
        bad = [r["check"] for r in recs if r["verdict"] == "FAILS"]
        print(f"\n{label}: {total:.2f} s in all; not holding: {sorted(set(bad))}")
        print("| check | seconds |")
        print("| --- | ---: |")
        for k, v in per.items():
            print(f"| {k} | {v:.3f} |")
    print(f"\nall 2^23 syndromes: {t_syn:.2f} s")
    for m in (5, 6):
        c = bch(m, 7)
        t0 = time.perf_counter()
        recs = check_code(c, 8.0, 0.25)
        print(f"{c.name} (r = {c.r}), syndrome reduction: {time.perf_counter() - t0:.2f} s")


if __name__ == "__main__":
    main()
