"""Benchmark: the full-scale DFHPRR holdout-reuse experiment (issue 9 targets: at most 30
minutes on this machine's 2 cores, at most 3x the floor).

The floor is numpy drawing the same normals, repetition by repetition (2 · n · d training and
holdout attributes in the same float32 blocks, plus the fresh rows that repetition drew), on
the same process pool, and nothing else. Both run in this script, the experiment first, from
fresh logs (nothing is resumed); the floor needs the experiment's fresh-row counts, so the two
cannot be interleaved: each line carries its CPU (this process and its finished workers) and
the load after it.

Usage: PYTHONPATH=. python benchmarks/bench_simulate.py [--reps 100] [--workers 2]
"""

from __future__ import annotations

import argparse
import platform
import resource
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np
from _timing import load_now

from proofs_checks.simulate import holdout_reuse as hr
from proofs_checks.simulate.runner import Unit, run_units


def _cpu() -> float:
    """CPU seconds of this process and of its finished children (the pool's workers)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def _units(fn, cfg: hr.HoldoutConfig, reps: int, seed: int, fresh: dict[str, int] | None = None) -> list[Unit]:
    out = []
    for si, s in enumerate(hr.SETTINGS):
        for r in range(reps):
            kw = {"cfg": cfg, "setting": s, "seed": np.random.SeedSequence(seed, spawn_key=(1, si, r))}
            if fresh is not None:
                kw["fresh_rows"] = fresh[f"{s}/{r}"]
            out.append(Unit(f"{s}/{r}", fn, kw))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=100)
    ap.add_argument("--workers", type=int, default=2)
    a = ap.parse_args()
    cfg = hr.HoldoutConfig()
    print(
        f"# bench_simulate: n = {cfg.n}, d = {cfg.d}, k <= {max(cfg.ks)}, {a.reps} reps x "
        f"{len(hr.SETTINGS)} settings, {a.workers} workers; numpy {np.__version__}, "
        f"{platform.processor() or platform.machine()}"
    )
    res = {}
    with tempfile.TemporaryDirectory() as tmp:
        fresh = None
        for name, fn in (("experiment", hr.run_repetition), ("floor (draw only)", hr.draw_only)):
            c0, t0 = _cpu(), time.perf_counter()
            recs = run_units(
                _units(fn, cfg, a.reps, 20151207, fresh),
                Path(tmp) / f"{fn.__name__}.jsonl",
                {"bench": fn.__name__},
                workers=a.workers,
                label=name,
                progress=False,
            )
            wall, cpu = time.perf_counter() - t0, _cpu() - c0
            med = statistics.median(r["seconds"] for r in recs.values())
            normals = sum(r["result"]["normals"] for r in recs.values())
            res[name] = (wall, med, normals)
            print(
                f"{name:18s} total {wall:8.1f} s (CPU {cpu:.1f} s, load {load_now():.2f})   "
                f"median per repetition {med:6.2f} s   normals {normals:.4g}"
            )
            fresh = {k: r["result"]["normals"] // cfg.n - 2 * cfg.d for k, r in recs.items()}
    (fw, fm, fn_), (ew, em, en) = res["floor (draw only)"], res["experiment"]
    assert fn_ == en, "the floor must draw exactly the experiment's normals"
    print(f"floor: {fw / fn_ * 1e9 * a.workers:.1f} ns per normal per worker")
    print(
        f"ratio experiment / floor: total {ew / fw:.2f}x, per repetition {em / fm:.2f}x "
        f"(targets: total <= 1800 s, ratio <= 3x)"
    )


if __name__ == "__main__":
    main()
