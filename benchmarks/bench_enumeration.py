"""Benchmark: exact enumeration (issue 6 targets: binary data at n = 20 with a 64-output
mechanism in at most 30 s; the type-class reduction at n = 10^4 in at most 5 s; the largest n
reached in 60 s for each).

Each timing is the joint table plus its exact beta-approximate max-information at three beta,
beside a baseline in the same run: numpy filling a table of the same shape with random numbers.

Usage: PYTHONPATH=. python benchmarks/bench_enumeration.py [--budget SECONDS]
"""

from __future__ import annotations

import argparse
import platform
from fractions import Fraction

import numpy as np
from _timing import Timing, once

from maxinfo_bounds.measures import approx_max_information
from proofs_checks.codes import TooLarge
from proofs_checks.enumeration import full_joint, product_dataset_distribution, typeclass_joint
from proofs_checks.mechanisms import per_record_rr

BETAS = np.array([0.0, 1e-3, 0.05])


def full(n: int) -> Timing:
    def run() -> object:
        J = full_joint(per_record_rr(n, Fraction(1, 4), 6), n, product_dataset_distribution(n, 0.5), 64)
        return approx_max_information(J, BETAS)

    return once(run)[0]


def typeclass(n: int) -> Timing:
    def run() -> object:
        return approx_max_information(typeclass_joint(_float_bucketed(n), n, 0.5), BETAS)

    return once(run)[0]


def _float_bucketed(n: int) -> np.ndarray:
    """Float64 rows of the bucketed geometric count (Fractions are slow at n = 10^4)."""
    a = 0.9
    ys = np.arange(n + 1)
    width = max(1, n // 100)
    nb = n // width + 1
    out = np.empty((n + 1, nb))
    for c in range(n + 1):
        row = (1 - a) / (1 + a) * a ** np.abs(ys - c)
        row[0] = a**c / (1 + a) if c else 1 / (1 + a)
        row[n] = a ** (n - c) / (1 + a) if c < n else 1 / (1 + a)
        out[c] = np.add.reduceat(row, np.arange(0, n + 1, width))[:nb]
    return out


def baseline(rows: int, cols: int) -> Timing:
    return once(lambda: np.random.default_rng(0).random((rows, cols)))[0]


def largest(fn, start: int, budget: float, step) -> tuple[int, Timing | None, str]:  # type: ignore[no-untyped-def]
    n, best = start, (start, None)
    while True:
        try:
            t = fn(n)
        except TooLarge as exc:
            return best[0], best[1], f"stopped by the memory guard at n = {n}: {exc}"
        if t.wall > budget:
            return best[0], best[1], f"n = {n} took {t.s(1)}"
        best = (n, t)
        n = step(n)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--budget", type=float, default=60.0)
    budget = ap.parse_args().budget
    print(f"python {platform.python_version()}, numpy {np.__version__}")
    print("Each enumeration is one run, beside its floor run just after it (a random fill of a table of")
    print("the same shape); CPU = process time; load = 1-min load average.")
    t20 = full(20)
    b20 = baseline(1 << 20, 64)
    print(
        f"\nfull enumeration, n = 20, 64 outputs: {t20.s(2)} (target 30 s); "
        f"baseline random fill of 2^20 x 64: {b20.s(2)}; ratio {t20 / b20:.1f}"
    )
    t4 = typeclass(10_000)
    b4 = baseline(10_001, 101)
    print(
        f"type-class, n = 10^4, 101 outputs: {t4.s(2)} (target 5 s); "
        f"baseline random fill of 10^4 x 101: {b4.s(4)}; ratio {t4 / b4:.0f}"
    )
    n_full, t_full, why = largest(full, 20, budget, lambda n: n + 1)
    print(f"largest full enumeration within {budget:.0f} s: n = {n_full} ({t_full.s(1) if t_full else '-'}); {why}")
    n_tc, t_tc, why = largest(typeclass, 10_000, budget, lambda n: int(n * 1.5))
    print(f"largest type-class n within {budget:.0f} s: n = {n_tc} ({t_tc.s(1) if t_tc else '-'}); {why}")


if __name__ == "__main__":
    main()
