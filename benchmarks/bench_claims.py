"""Benchmark: the proof-step registry (issue 8 target: the whole registry in at most 5 minutes).

Prints the median time to decide every claim, beside a baseline measured in the same run: one
50-digit point evaluation of every claim's expression (what a non-certified spot check costs).

Usage: PYTHONPATH=. python benchmarks/bench_claims.py [--repeats R]
"""

from __future__ import annotations

import argparse
import platform

import mpmath
import sympy
from _timing import paired

from proofs_checks.claims import CLAIMS, check_claim


def _spot(c) -> None:  # type: ignore[no-untyped-def]
    if c.kind == "finite":
        return
    expr = c.expr()
    exprs = expr if isinstance(expr, tuple) else (expr,)
    with mpmath.workdps(50):
        for e in exprs:
            sub = {s: sympy.Float((c.box[s.name][0] + c.box[s.name][1]) / 2, 50) for s in e.free_symbols}
            sympy.N(e.subs(sub), 50)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=3)
    r = ap.parse_args().repeats
    print(f"python {platform.python_version()}, sympy {sympy.__version__}, mpmath {mpmath.__version__}")
    verdicts: list[str] = []

    def decide() -> None:
        verdicts[:] = [check_claim(c).status for c in CLAIMS]

    def spot() -> None:
        for c in CLAIMS:
            _spot(c)

    m = paired({"decide": decide, "spot": spot}, r)
    t, b = m["decide"], m["spot"]
    print(
        f"{len(CLAIMS)} claims decided in {t.s(2)} (median of {r} interleaved; target 300 s); "
        f"{verdicts.count('certified')} certified, {verdicts.count('refuted')} refuted, "
        f"{verdicts.count('undecided')} undecided"
    )
    print(f"baseline, one 50-digit spot evaluation per claim: {b.s(2)}; ratio {t / b:.1f}")


if __name__ == "__main__":
    main()
