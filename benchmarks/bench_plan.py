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
* a 1,000-point sweep (times = 1..1000) on one process, on a pool of two and with
  ``workers=None`` (the free cores, issue 45; what the command line's sweeps use), paired:
  each of three repetitions runs all three in turn (issue 17: sweeps on all cores; the same
  rows either way);
* a full power plan (issue 14 target: at most 1 s in-process): every valid route's power and the
  proven required n, for each `examples/power_*.toml`, beside `plan()` alone on the same study
  (the certified threshold without power). The planner's KOV cache is cleared before every
  repetition, so each one pays the full cost.

* the start-up of the command (issue 17 target: ``maxinfo plan`` on the README's example in at
  most 0.3 s of CPU beyond the interpreter; issue 45: the same with a ``[power]`` table): CPU
  seconds (user + system, from the operating system's accounting of the finished child) of
  ``python -m maxinfo_bounds plan`` on the README example and on each power example beside
  ``python -c pass``, interleaved.

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
from _timing import load_now, paired

from maxinfo_bounds.numeric.validate import free_cpus
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

    def baseline() -> object:
        return pvalue_correction(0.05, pure_dp_max_information_product(1e-3, n, 0.006).k, 0.006)

    print("\nEvery figure: median of interleaved repetitions beside its floor; CPU = process time;")
    print("load = 1-min load average at the end of the measurement.")
    cases = {"identical Laplace steps": same, "heterogeneous DP steps": hetero, "alternating description / DP": mixed}
    m = paired({"base": baseline, **{k: (lambda st=st: plan(st)) for k, st in cases.items()}}, r)
    base = m.pop("base")
    print(f"\nbaseline: one certified RRST 1.4b + 1.3 evaluation: {base.ms(2)}")
    print("\n| study (1,000 steps) | median (s) | CPU (s) | load | target | ratio to baseline | gamma |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, t in m.items():
        g = plan(cases[name]).gamma
        print(f"| {name} | {t.wall:.3f} | {t.cpu:.3f} | {t.load:.2f} | 1 | {t / base:.0f} | {g:.4g} |")
    ex = load_study(Path(__file__).resolve().parents[1] / "examples" / "laplace_queries.toml")
    m = paired({"sweep": lambda: sweep(ex, "times", list(range(1, 201))), "base": baseline}, max(1, r // 2))
    t, b = m["sweep"], m["base"]
    print(
        f"\n200-point sweep (laplace_queries, times = 1..200): {t.s(2)} (target 5 s), "
        f"{t.wall / 200 * 1e3:.1f} ms per point, {t.wall / 200 / b.wall:.0f}x the baseline per point"
    )

    pts = list(range(1, 1001))
    rows: dict[str, object] = {}
    workers = free_cpus()
    m = paired(
        {
            "one": lambda: rows.__setitem__("one", sweep(ex, "times", pts, workers=1)),
            "pool": lambda: rows.__setitem__("pool", sweep(ex, "times", pts, workers=2)),
            "default": lambda: rows.__setitem__("default", sweep(ex, "times", pts, workers=None)),
        },
        3,
    )
    agree = rows["one"] == rows["pool"] == rows["default"]
    print(
        f"\n1,000-point sweep (times = 1..1000), paired (each repetition runs all three in turn), median of 3: "
        f"one process {m['one'].s(2)}; a pool of 2 {m['pool'].s(2)} (speed-up {m['one'] / m['pool']:.2f}x); "
        f"workers=None (the free cores: {workers} when the script started) {m['default'].s(2)} "
        f"({m['one'] / m['default']:.2f}x); {os.cpu_count()} CPUs; same rows: {agree}. (CPU is this process's "
        f"only: a pool's workers are other processes.)"
    )

    refused(r, baseline)
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
    )  # first-call imports, once
    print(
        "\n| power plan (plan_power: power + required n of every route) | median (s) | CPU (s) | load | target "
        "| plan() alone (s) | ratio |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for f in sorted((Path(__file__).resolve().parents[1] / "examples").glob("power_*.toml")):
        st = load_study(f)
        m = paired({"power": fresh(lambda st=st: plan_power(st)), "plan": fresh(lambda st=st: plan(st))}, r)
        tp, t0 = m["power"], m["plan"]
        print(f"| {f.name} | {tp.wall:.3f} | {tp.cpu:.3f} | {tp.load:.2f} | 1 | {t0.wall:.4f} | {tp / t0:.0f} |")


def refused(r: int, baseline) -> None:  # type: ignore[no-untyped-def]
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

    m = paired({"attempt": attempt, "fixes": lambda: fixes(st), "base": baseline}, r)
    import maxinfo_bounds.planning.explore as ex

    ex.plan, saved = counted, ex.plan  # type: ignore[assignment]
    try:
        fixes(st)
    finally:
        ex.plan = saved
    tf = m["fixes"]
    print(
        f"\nrefused plan (examples/refused_gaussian_queries.toml): one attempt {m['attempt'].ms()}; "
        f"the fix search {tf.s()} ({calls} plan attempts, {tf.wall / max(calls, 1) * 1e3:.1f} ms "
        f"each, {tf / m['base']:.0f}x the baseline; issue 18 measured ~4 s before refusals were decided "
        f"ahead of the optimiser)"
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
    """CPU of the `maxinfo plan` process on the README example and on each power example
    beside a bare interpreter, interleaved (issue 17 target 0.3 s beyond the interpreter for the
    README example; issue 45 the same for a plan with a [power] table)."""
    env_note = os.environ.get("OPENBLAS_NUM_THREADS", "unset")
    root = Path(__file__).resolve().parents[1]
    files = ["examples/laplace_queries.toml"] + sorted(
        str(f.relative_to(root)) for f in (root / "examples").glob("power_*.toml")
    )
    cmds = {f: [sys.executable, "-m", "maxinfo_bounds", "plan", f] for f in files}
    bare = [sys.executable, "-c", "pass"]
    cpu: dict[str, list[float]] = {f: [] for f in files}
    cpu["bare"] = []
    for c in cmds.values():
        _child_cpu(c)  # warm-up: writes the bytecode
    for _ in range(repeats):
        for f, c in cmds.items():
            cpu[f].append(_child_cpu(c))
        cpu["bare"].append(_child_cpu(bare))
    mb = statistics.median(cpu["bare"])
    print(
        f"\nstart-up, CPU seconds of the child (user + system), median of {repeats} interleaved "
        f"(OPENBLAS_NUM_THREADS in the caller: {env_note}; load {load_now():.2f}); bare interpreter {mb:.3f} s:"
    )
    print("\n| command | CPU (s) | beyond the interpreter (s) | target (s) |")
    print("| --- | ---: | ---: | ---: |")
    for f in files:
        ma = statistics.median(cpu[f])
        print(f"| `maxinfo plan {f}` | {ma:.3f} | {ma - mb:.3f} | 0.3 |")


if __name__ == "__main__":
    main()
