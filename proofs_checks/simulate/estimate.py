"""The estimation planner held against an analyst who tries to overfit (issue 42).

Data: n records, each d independent fair signs x_j and a label y, a fair sign independent of
them (no feature carries signal). Query j (j <= d) is the [0, 1]-valued q_j = (x_j y + 1)/2, the
feature's agreement with the label: its population value is exactly 1/2. The analyst, as in
DFHPRR's experiment, reads the d answers, keeps every feature with the sign its answer shows
and asks one more query: the accuracy of the aggregate classifier
f(x) = sign(sum_j sign(a_j - 1/2) x_j) (ties: +1), 1[f(x) = y], whose population value is also
exactly 1/2 (y is independent of x and f is fixed once the answers are given). On the same data
without noise this last answer overfits: well above 1/2.

k = d + 1 queries are answered by three mechanisms at the planner's settings
(:func:`maxinfo_bounds.planning.estimate.plan_estimate` at (n, k, coverage), with
``binary=True``: every query here is {0, 1}-valued), splitting held to two half-widths:

* **reuse**: every query on all n records plus N(0, sigma^2), sigma the planner's (the JLNRSS
  route); its claim: every answer within the certified half-width of 1/2 with probability >= C;
* **split**: each query on its own n // k fresh records (Hoeffding, union bound);
* **split_binary**: the same answers held to the exact binomial tail's half-width (narrower; the
  queries are {0, 1}-valued, so it is valid);
* **naive**: every query on all n records, no noise, with the fixed-query half-width
  sqrt(ln(2k/(1 - C))/(2n)): not valid under adaptivity, shown to fail.

Per repetition, a mechanism *covers* when every one of its k answers is within its half-width
of 1/2. Over the repetitions, each valid mechanism's coverage must not be significantly below C
(the Clopper-Pearson upper bound at ``confidence`` is at least C), and the naive one's must
collapse (its upper bound below C). Units (chunks of repetitions) run through
:func:`~proofs_checks.simulate.runner.run_units`: resumable, local processes or Dask.
"""

from __future__ import annotations

import json
import math
import os
import platform
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from maxinfo_bounds.numeric import local_workers
from maxinfo_bounds.planning import estimate as est

from ..codes import TooLarge
from ..report import versions
from .runner import Unit, run_units
from .selection import clopper_pearson

__all__ = ["EstimateSimConfig", "quick_config", "run", "run_chunk", "DEFAULT_SEED"]

DEFAULT_SEED = 20200106  # ITCS 2020's first day (JLNRSS); any fixed value would do
MECHANISMS = ("reuse", "split", "split_binary", "naive")


@dataclass(frozen=True)
class EstimateSimConfig:
    """What ``proofs-checks run estimate`` runs (defaults: the full run)."""

    n: int = 5000
    d: int = 200
    coverage: float = 0.95
    reps: int = 1000
    chunk: int = 50
    seed: int = DEFAULT_SEED
    confidence: float = 0.999


def quick_config(seed: int = DEFAULT_SEED) -> EstimateSimConfig:
    """The test suite's reduced run: 100 repetitions."""
    return EstimateSimConfig(reps=100, chunk=50, seed=seed)


def memory_per_chunk(cfg: EstimateSimConfig) -> int:
    """Bytes one unit holds at a time: the n x d signs (int8) and their float64 products."""
    return cfg.n * cfg.d * (1 + 8 * 2)


def _plan(cfg: EstimateSimConfig) -> dict[str, Any]:
    p = est.plan_estimate(cfg.n, cfg.d + 1, cfg.coverage, binary=True)
    reuse, split, naive = p.route(est.REUSE_JLNRSS), p.route(est.SPLIT), p.route(est.NAIVE)
    binary = p.route(est.SPLIT_BINARY)
    if None in (reuse.half_width, split.half_width, binary.half_width, naive.half_width):
        raise ValueError(f"n={cfg.n}, d={cfg.d}: the planner has no reuse or split route to check here")
    return {
        "sigma": float(reuse.settings["sigma"]),
        "reuse": reuse.half_width,
        "split": split.half_width,
        "split_binary": binary.half_width,
        "naive": naive.half_width,
        "recommended": p.recommended or "",
    }


def _answers(x: np.ndarray, y: np.ndarray, noise: np.ndarray | None) -> tuple[np.ndarray, float]:
    """The d answers and the aggregate query's answer on (x, y), with the d + 1 noise draws
    ``noise`` added (None: exact). Returns (all k answers, the aggregate's)."""
    agree = (x * y[:, None] + 1) / 2  # n x d in {0, 1}
    a = agree.mean(axis=0)
    if noise is not None:
        a = a + noise[:-1]
    w = np.sign(a - 0.5)
    f = np.sign(x @ w)
    f[f == 0] = 1
    last = float(np.mean(f == y))
    if noise is not None:
        last += float(noise[-1])
    return np.append(a, last), last


def run_chunk(
    n: int, d: int, sigma: float, widths: dict[str, float], reps: int, entropy: int, spawn_key: list[int]
) -> dict[str, Any]:
    """``reps`` repetitions; per mechanism, how many covered and the largest deviations."""
    rng = np.random.default_rng(np.random.SeedSequence(entropy, spawn_key=tuple(spawn_key)))
    k = d + 1
    m = n // k
    covered = dict.fromkeys(MECHANISMS, 0)
    worst: dict[str, list[float]] = {q: [] for q in MECHANISMS}
    last_dev: dict[str, list[float]] = {q: [] for q in MECHANISMS}
    for _ in range(reps):
        x = rng.integers(0, 2, size=(n, d), dtype=np.int8) * 2 - 1
        y = (rng.integers(0, 2, size=n, dtype=np.int8) * 2 - 1).astype(np.float64)
        xf = x.astype(np.float64)
        out = {
            "reuse": _answers(xf, y, rng.normal(0.0, sigma, size=k)),
            "naive": _answers(xf, y, None),
        }
        # splitting: query j on records [j m, (j + 1) m), the aggregate on the last part
        parts = [slice(j * m, (j + 1) * m) for j in range(k)]
        a = np.array([np.mean((xf[parts[j], j] * y[parts[j]] + 1) / 2) for j in range(d)])
        w = np.sign(a - 0.5)
        f = np.sign(xf[parts[d]] @ w)
        f[f == 0] = 1
        last = float(np.mean(f == y[parts[d]]))
        out["split"] = out["split_binary"] = (np.append(a, last), last)
        for q in MECHANISMS:
            answers, agg = out[q]
            dev = float(np.max(np.abs(answers - 0.5)))
            covered[q] += int(dev <= widths[q])
            worst[q].append(dev)
            last_dev[q].append(agg - 0.5)
    return {
        "reps": reps,
        "covered": covered,
        "max_deviation": {q: [round(v, 6) for v in worst[q]] for q in MECHANISMS},
        "aggregate_minus_half": {q: [round(v, 6) for v in last_dev[q]] for q in MECHANISMS},
    }


def run(
    cfg: EstimateSimConfig,
    out_dir: Path,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: bool = True,
    fresh: bool = False,
) -> dict[str, Any]:
    """Run (or resume) the campaign; write units.jsonl, report.json and report.md."""
    if cfg.reps < 2:
        raise ValueError(f"reps={cfg.reps} is invalid: must be an integer >= 2")
    if cfg.n < cfg.d + 1:
        raise ValueError(
            f"n={cfg.n} is invalid: must be at least d + 1 = {cfg.d + 1} (splitting needs a record per query)"
        )
    w = local_workers(workers)
    need = memory_per_chunk(cfg) * (1 if scheduler else w)
    limit = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2
    if need > limit:
        raise TooLarge(
            f"n x d = {cfg.n} x {cfg.d} with {w} workers needs {need / 2**30:.2f} GiB, above the "
            f"{limit / 2**30:.2f} GiB budget (refused before allocation)"
        )
    out_dir.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    plan = _plan(cfg)
    widths = {q: plan[q] for q in MECHANISMS}
    nchunks = math.ceil(cfg.reps / cfg.chunk)
    units = []
    for c in range(nchunks):
        reps = min(cfg.chunk, cfg.reps - c * cfg.chunk)
        units.append(
            Unit(
                f"estimate/chunk{c:03d}",
                run_chunk,
                {
                    "n": cfg.n,
                    "d": cfg.d,
                    "sigma": plan["sigma"],
                    "widths": widths,
                    "reps": reps,
                    "entropy": cfg.seed,
                    "spawn_key": [3, c],
                },
                {"entropy": cfg.seed, "spawn_key": [3, c]},
                {"chunk": c, "reps": reps},
            )
        )
    conf = {"part": "estimate", **asdict(cfg), "reps": None, "plan": plan}
    stats: dict[str, int] = {}
    res = run_units(
        units,
        out_dir / "units-estimate.jsonl",
        conf,
        workers=w,
        scheduler=scheduler,
        label="simulate estimate",
        progress=progress,
        stats=stats,
        fresh=fresh,
    )
    results = [res[u.key]["result"] for u in units]
    total = sum(r["reps"] for r in results)
    records = []
    rows = []
    for q in MECHANISMS:
        cov = sum(r["covered"][q] for r in results)
        devs = np.array([v for r in results for v in r["max_deviation"][q]])
        agg = np.array([v for r in results for v in r["aggregate_minus_half"][q]])
        lo, up = clopper_pearson(cov, total, cfg.confidence)
        if q == "naive":
            verdict = "holds" if up < cfg.coverage else "FAILS"
            claim = f"the naive route's coverage collapses under adaptivity (CP upper bound < {cfg.coverage:g})"
        else:
            verdict = "holds" if up >= cfg.coverage else "FAILS"
            claim = f"{q}: every answer within the certified half-width with probability >= {cfg.coverage:g}"
        row = {
            "mechanism": q,
            "half_width": widths[q],
            "covered": cov,
            "reps": total,
            "coverage": cov / total,
            "cp_lower": lo,
            "cp_upper": up,
            "max_deviation_quantile_at_coverage": float(np.quantile(devs, cfg.coverage)),
            "aggregate_mean_minus_half": float(agg.mean()),
        }
        rows.append(row)
        records.append({"id": f"estimate/{q}", "claim": claim, "verdict": verdict, **row})
    fails = [r["id"] for r in records if r["verdict"] == "FAILS"]
    summary = {
        "campaign": "estimate",
        "config": asdict(cfg),
        "plan": plan,
        "versions": versions(),
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform()},
        "workers": w,
        "scheduler": scheduler,
        "seconds": round(time.monotonic() - t0, 1),
        "units_computed": stats.get("computed", 0),
        "units_resumed": stats.get("resumed", 0),
        "checks": len(records),
        "failures": fails,
        "ok": not fails,
    }
    (out_dir / "report.json").write_text(json.dumps({**summary, "rows": rows, "records": records}, indent=1))
    (out_dir / "report.md").write_text(report_md(summary, rows))
    return {**summary, "rows": rows, "records": records}


def report_md(summary: dict[str, Any], rows: list[dict[str, Any]]) -> str:
    """The coverage table (Markdown)."""
    c = summary["config"]
    lines = [
        f"# Estimation planner against an overfitting analyst (n = {c['n']}, d = {c['d']}, k = {c['d'] + 1})",
        "",
        f"Coverage asked: {c['coverage']}; {rows[0]['reps']} repetitions; seed {c['seed']}; Clopper-Pearson at "
        f"{c['confidence']}; planner's sigma {summary['plan']['sigma']:.6g}; recommended route: "
        f"{summary['plan']['recommended']}.",
        "",
        "| mechanism | half-width | covered | coverage | CP interval | max deviation at the coverage quantile | "
        "aggregate answer - 1/2 (mean) |",
        "| --- | ---: | ---: | ---: | --- | ---: | ---: |",
    ]
    for r in rows:
        lines.append(
            f"| {r['mechanism']} | {r['half_width']:.4g} | {r['covered']}/{r['reps']} | {r['coverage']:.4f} | "
            f"[{r['cp_lower']:.4f}, {r['cp_upper']:.4f}] | {r['max_deviation_quantile_at_coverage']:.4g} | "
            f"{r['aggregate_mean_minus_half']:+.4f} |"
        )
    lines += ["", f"Checks: {summary['checks']}, failed: {len(summary['failures'])}.", ""]
    lines.append(f"versions: {json.dumps(summary['versions'])}")
    return "\n".join(lines) + "\n"
