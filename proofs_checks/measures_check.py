"""Campaign: the fast sorted-ratio measures against brute force over all events.

For random exact tables (Fractions, zeros included so that supports differ) it checks that

* :func:`maxinfo_bounds.measures.approx_max_divergence` in exact mode equals the supremum over
  all ``2^N`` events (:mod:`proofs_checks.bruteforce`), for ``beta`` = 0, random values and the
  boundary values ``beta = P(O)`` of actual events;
* the float64 path agrees with the exact value to a relative ``1e-9`` (and in particular
  reports ``inf`` exactly when the exact value is unbounded);
* the many-``beta`` path agrees with the one-``beta`` path.

Each trial is appended to ``trials.jsonl`` as it finishes, so an interrupted run resumes where
it stopped; the report (``report.md`` + ``report.json``) records seed, parameters and versions.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from maxinfo_bounds.measures import approx_max_divergence
from maxinfo_bounds.numeric import ExactLog

from .bruteforce import MAX_EVENTS_N, event_sums, sup_ratio_all_events
from .report import versions
from .simulate.runner import Unit, local_workers, run_units

__all__ = ["MeasuresCheckConfig", "random_exact_pair", "run_trial", "run"]


@dataclass(frozen=True)
class MeasuresCheckConfig:
    seed: int = 20261122
    trials: int = 200
    max_n: int = 10
    denominator: int = 64


def random_exact_pair(rng: np.random.Generator, n: int, denominator: int) -> tuple[list[Fraction], list[Fraction]]:
    """Two random distributions on ``n`` points with entries in ``(1/denominator) Z``, zeros allowed."""
    out = []
    for _ in range(2):
        w = rng.integers(0, 4, size=n) * (rng.random(n) < 0.8)
        if w.sum() == 0:
            w[rng.integers(n)] = 1
        cuts = (
            np.sort(rng.choice(np.arange(1, denominator), size=min(denominator - 1, n - 1), replace=False))
            if n > 1
            else np.array([], dtype=int)
        )
        # random integer weights: blend "w" shape with random cuts of the denominator
        raw = np.diff(np.concatenate(([0], cuts, [denominator]))) * (w > 0)
        if raw.sum() == 0:
            raw = w
        total = int(raw.sum())
        out.append([Fraction(int(x), total) for x in raw])
    return out[0], out[1]


def _ratio_to_float(c: Fraction | None) -> float:
    return math.inf if c is None else float(c)


def run_trial(rng: np.random.Generator, n: int, denominator: int) -> dict[str, Any]:
    p, q = random_exact_pair(rng, n, denominator)
    sums = event_sums(p, q)
    betas = {Fraction(0)}
    betas |= {Fraction(int(rng.integers(0, denominator)), denominator) for _ in range(3)}
    betas |= {P for P, _ in sums[1:4] if P < 1}  # boundary values: masses of real events
    failures: list[str] = []
    max_rel = 0.0
    bl = sorted(betas)
    floats = approx_max_divergence([float(x) for x in p], [float(x) for x in q], np.array([float(b) for b in bl]))
    checks: list[dict[str, Any]] = []
    for b, kf_many in zip(bl, floats):
        brute = sup_ratio_all_events(p, q, b)
        d = approx_max_divergence(p, q, b)
        assert isinstance(d, ExactLog)
        fast = d.ratio
        n_fail = len(failures)
        if fast != brute:
            failures.append(f"exact mismatch n={n} beta={b}: fast={fast} brute={brute} p={p} q={q}")
        kf = float(approx_max_divergence([float(x) for x in p], [float(x) for x in q], float(b)))
        ref = _ratio_to_float(brute)
        got = 2.0**kf if kf != -math.inf else 0.0
        got_many = 2.0 ** float(kf_many) if kf_many != -math.inf else 0.0
        for g in (got, got_many):
            if math.isinf(ref) or math.isinf(g):
                if ref != g:
                    failures.append(f"float inf mismatch n={n} beta={b}: {g} vs {ref}")
            elif ref == 0.0 or g == 0.0:
                if abs(g - ref) > 1e-12:
                    failures.append(f"float zero mismatch n={n} beta={b}: {g} vs {ref}")
            else:
                rel = abs(g - ref) / ref
                max_rel = max(max_rel, rel)
                if rel > 1e-9:
                    failures.append(f"float mismatch n={n} beta={b}: {g} vs {ref} rel={rel}")
        checks.append(
            {
                "beta": str(b),
                "exact_ratio": None if brute is None else str(brute),
                "float_ratio": got if math.isfinite(got) else "inf",
                "holds": len(failures) == n_fail,
            }
        )
    return {"n": n, "betas": len(bl), "failures": failures, "max_float_rel_err": max_rel, "checks": checks}


def trial_unit(seed: int, trial: int, max_n: int, denominator: int) -> dict[str, Any]:
    """One trial as a campaign unit: its generator is child ``trial`` of ``SeedSequence(seed)``
    (the same stream as ``SeedSequence(seed).spawn(trials)[trial]``)."""
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(trial,)))
    n = int(rng.integers(1, max_n + 1))
    return {**run_trial(rng, n, denominator), "trial": trial}


def run(
    cfg: MeasuresCheckConfig, out_dir: Path, *, progress: bool = True, workers: int | None = 1, fresh: bool = False
) -> dict[str, Any]:
    """Run (or resume) the campaign into ``out_dir``; return the summary written to report.json.

    One unit per trial through the campaigns' runner (:func:`.simulate.runner.run_units`):
    ``trials.jsonl`` keeps every finished trial, an interrupted run resumes."""
    if not 1 <= cfg.max_n <= MAX_EVENTS_N:
        raise ValueError(f"max_n={cfg.max_n} is invalid: must be in [1, {MAX_EVENTS_N}]")
    units = [
        Unit(
            f"trial{t}",
            trial_unit,
            {"seed": cfg.seed, "trial": t, "max_n": cfg.max_n, "denominator": cfg.denominator},
            seed={"entropy": cfg.seed, "spawn_key": [t]},
        )
        for t in range(cfg.trials)
    ]
    # a trial depends on the seed, support sizes and denominator, not on how many trials run:
    # more --trials later reuses every trial already in the log
    unit_cfg = {"campaign": "measures", "seed": cfg.seed, "max_n": cfg.max_n, "denominator": cfg.denominator}
    done = run_units(
        units,
        out_dir / "trials.jsonl",
        unit_cfg,
        workers=local_workers(workers),
        label="measures",
        progress=progress,
        fresh=fresh,
    )
    recs = [done[u.key]["result"] for u in units]
    failures = [f for r in recs for f in r["failures"]]
    summary = {
        "campaign": "measures",
        "config": asdict(cfg),
        "versions": versions(),
        "trials": len(recs),
        "checks": sum(r["betas"] for r in recs),
        "failures": failures,
        "max_float_rel_err": max((r["max_float_rel_err"] for r in recs), default=0.0),
        "ok": not failures,
        # one record per (table, beta) check, the shape every campaign's --json file has
        "records": [
            {
                "id": f"measures/trial{r['trial']}/beta={c['beta']}",
                "check": "measures",
                "support_size": r["n"],
                "beta": c["beta"],
                "value": c["exact_ratio"],
                "float": c["float_ratio"],
                "verdict": "holds" if c["holds"] else "FAILS",
            }
            for r in recs
            for c in r.get("checks", [])
        ],
    }
    (out_dir / "report.json").write_text(json.dumps(summary, indent=2))
    md = [
        "# Measures vs brute force over all events",
        "",
        f"- seed: {cfg.seed}; trials: {cfg.trials}; support sizes 1..{cfg.max_n}; denominator {cfg.denominator}",
        f"- versions: {summary['versions']}",
        f"- (table, beta) checks: {summary['checks']}",
        f"- exact mode equal to brute force on every check: {'yes' if summary['ok'] else 'NO'}",
        f"- largest relative error of the float64 path: {summary['max_float_rel_err']:.3g}",
        "",
    ]
    if failures:
        md += ["## Failures", ""] + [f"- {f}" for f in failures[:50]]
    (out_dir / "report.md").write_text("\n".join(md) + "\n")
    return summary
