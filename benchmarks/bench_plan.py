"""Benchmark: the study planner (issue 5 targets: a 1,000-step study in at most 1 s; a 200-point
sweep in at most 5 s).

Prints median timings, each beside a baseline measured in the same run: the certified
evaluation of the single theorem the plan ends with (RRST Thm 1.4b at a fixed beta, then
Thm 1.3), i.e. what planning adds on top of one hand-picked bound.

Studies timed:

* 1,000 listed adaptive Laplace steps (one DP stage; tight composition routes tried);
* 1,000 listed steps with 1,000 distinct eps (heterogeneous: advanced composition);
* 1,000 listed steps alternating a 4-way description and a pure DP step (1,000 stages);
* the 200-point sweep `maxinfo plan examples/laplace_queries.toml --sweep times=1:200`;
* a 1,000-point sweep (times = 1..1000) on one process beside the same on a pool of one
  process per CPU (issue 17: sweeps on all cores; the same rows either way), once each;
* a full power plan (issue 14 target: at most 1 s in-process): every valid route's power and the
  proven required n, for each `examples/power_*.toml`, beside `plan()` alone on the same study
  (the certified threshold without power). The planner's KOV cache is cleared before every
  repetition, so each one pays the full cost.

* the start-up of the command (issue 17 target: ``maxinfo plan`` on the README's example in at
  most 0.3 s of CPU beyond the interpreter): CPU seconds (user + system, from the operating
  system's accounting of the finished child) of ``python -m maxinfo_bounds plan
  examples/laplace_queries.toml`` beside ``python -c pass``, interleaved.

Usage: PYTHONPATH=. python benchmarks/bench_plan.py [--repeats R]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import platform
import resource
import statistics
import subprocess
import sys
from pathlib import Path

import numpy as np
from _timing import median_time

from maxinfo_bounds.planning import Description, GenericDP, Laplace, Study, load_study, plan, plan_power, sweep
from maxinfo_bounds.planning import accountants as _accountants
from maxinfo_bounds.planning import routes as _routes
from maxinfo_bounds.theorems.maxinfo_dp import pure_dp_max_information_product
from maxinfo_bounds.theorems.pvalues import pvalue_correction


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=5)
    r = ap.parse_args().repeats
    print(f"python {platform.python_version()}, numpy {np.__version__}, repeats {r}")
    n = 10**6
    same = Study(n=n, iid=True, alpha=0.05, steps=tuple(Laplace(sensitivity=1e-6, scale=0.1) for _ in range(1000)))
    hetero = Study(n=n, iid=True, alpha=0.05, steps=tuple(GenericDP(eps=1e-6 * (1 + i / 1000)) for i in range(1000)))
    mixed = Study(
        n=n,
        iid=False,
        alpha=0.05,
        steps=tuple(Description(range_size=4) if i % 2 else GenericDP(eps=1e-9) for i in range(1000)),
    )
    base = median_time(lambda: pvalue_correction(0.05, pure_dp_max_information_product(1e-3, n, 0.006).k, 0.006), r)
    print(f"\nbaseline: one certified RRST 1.4b + 1.3 evaluation: {base * 1e3:.2f} ms")
    print("\n| study (1,000 steps) | median (s) | target | ratio to baseline | gamma |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, st in [
        ("identical Laplace steps", same),
        ("heterogeneous DP steps", hetero),
        ("alternating description / DP", mixed),
    ]:
        t = median_time(lambda st=st: plan(st), r)
        print(f"| {name} | {t:.3f} | 1 | {t / base:.0f} | {plan(st).gamma:.4g} |")
    ex = load_study(Path(__file__).resolve().parents[1] / "examples" / "laplace_queries.toml")
    t = median_time(lambda: sweep(ex, "times", list(range(1, 201))), max(1, r // 2))
    print(
        f"\n200-point sweep (laplace_queries, times = 1..200): {t:.2f} s (target 5 s), "
        f"{t / 200 * 1e3:.1f} ms per point, {t / 200 / base:.0f}x the baseline per point"
    )

    pts = list(range(1, 1001))
    rows: dict[int | None, object] = {}
    t1 = median_time(lambda: rows.__setitem__(1, sweep(ex, "times", pts, workers=1)), 1)
    tw = median_time(lambda: rows.__setitem__(None, sweep(ex, "times", pts, workers=None)), 1)
    same = rows[1] == rows[None]
    print(
        f"\n1,000-point sweep (times = 1..1000): one process {t1:.2f} s, {os.cpu_count()} "
        f"processes {tw:.2f} s, speed-up {t1 / tw:.2f}x (same rows: {same})"
    )

    refused(r)
    startup(max(r, 9))

    def fresh(fn):  # type: ignore[no-untyped-def]
        def run() -> object:
            _routes._kov_float.cache_clear()
            _accountants._kov_certified.cache_clear()
            _accountants.best_composition.cache_clear()
            _accountants._totals.cache_clear()
            return fn()

        return run

    plan_power(
        load_study(Path(__file__).resolve().parents[1] / "examples" / "power_bonferroni_wins.toml")
    )  # statsmodels/scipy imports, once
    print(
        "\n| power plan (plan_power: power + required n of every route) | median (s) | target "
        "| plan() alone (s) | ratio |"
    )
    print("| --- | ---: | ---: | ---: | ---: |")
    for f in sorted((Path(__file__).resolve().parents[1] / "examples").glob("power_*.toml")):
        st = load_study(f)
        tp = median_time(fresh(lambda st=st: plan_power(st)), r)
        t0 = median_time(fresh(lambda st=st: plan(st)), r)
        print(f"| {f.name} | {tp:.3f} | 1 | {t0:.4f} | {tp / t0:.0f} |")


def refused(r: int) -> None:
    """A refused approximate-DP plan and the fix search behind its one-line refusal (issue 18:
    ~4 s before certain refusals were decided ahead of the beta optimiser)."""
    from maxinfo_bounds.planning import PlanError
    from maxinfo_bounds.planning.explore import fixes

    st = load_study(Path(__file__).resolve().parents[1] / "examples" / "refused_gaussian_queries.toml")
    calls = 0
    real = _routes.plan

    def counted(s: Study) -> object:
        nonlocal calls
        calls += 1
        return real(s)

    def attempt() -> None:
        with contextlib.suppress(PlanError):
            plan(st)

    t1 = median_time(attempt, r)
    tf = median_time(lambda: fixes(st), r)
    import maxinfo_bounds.planning.explore as ex

    ex.plan, saved = counted, ex.plan  # type: ignore[assignment]
    try:
        fixes(st)
    finally:
        ex.plan = saved
    print(
        f"\nrefused plan (examples/refused_gaussian_queries.toml): one attempt {t1 * 1e3:.1f} ms; "
        f"the fix search {tf:.3f} s ({calls} plan attempts, {tf / max(calls, 1) * 1e3:.1f} ms "
        f"each; issue 18 measured ~4 s before refusals were decided ahead of the optimiser)"
    )


# bytecode as an installed package has it (pip compiles it at install time): a shell that sets
# PYTHONDONTWRITEBYTECODE would otherwise time the compiler on every run
_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _child_cpu(cmd: list[str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        cmd,
        check=False,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=Path(__file__).resolve().parents[1],
        env=_ENV,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def startup(repeats: int) -> None:
    """CPU of the `maxinfo plan` process on the README example beside a bare interpreter."""
    env_note = os.environ.get("OPENBLAS_NUM_THREADS", "unset")
    plan_cmd = [sys.executable, "-m", "maxinfo_bounds", "plan", "examples/laplace_queries.toml"]
    bare = [sys.executable, "-c", "pass"]
    a, b = [], []
    _child_cpu(plan_cmd)  # warm-up: writes the bytecode
    for _ in range(repeats):
        a.append(_child_cpu(plan_cmd))
        b.append(_child_cpu(bare))
    ma, mb = statistics.median(a), statistics.median(b)
    print(
        f"\nstart-up: `maxinfo plan examples/laplace_queries.toml` {ma:.3f} s CPU, bare "
        f"interpreter {mb:.3f} s; beyond the interpreter {ma - mb:.3f} s (target 0.3 s), "
        f"median of {repeats} interleaved (OPENBLAS_NUM_THREADS in the caller: {env_note})"
    )


if __name__ == "__main__":
    main()
