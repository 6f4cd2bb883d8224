"""``proofs-checks run simulate``: both simulations, their checks, report, plots and records.

Statistics: every confidence bound is one-sided at ``confidence`` (0.999 by default, in the
tests too); an interval meant to contain a known value is two-sided at the same level. Binomial
quantities use exact Clopper–Pearson bounds; means over repetitions use Student's t (the
fresh-accuracy check pools the repetitions into one exact binomial count).

Why one module over 400 lines: one campaign: its units, the statistical checks on their results,
the report and the plots read the same records.
"""

from __future__ import annotations

import json
import math
import os
import platform
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from scipy import stats

from ..codes import TooLarge
from ..report import versions
from . import holdout_reuse as hr
from . import selection as sel
from .runner import Unit, config_hash, local_workers, run_units

__all__ = ["SimulateConfig", "quick_config", "run", "check_memory"]

DEFAULT_SEED = 20151207  # the DFHPRR NeurIPS 2015 conference date; any fixed value would do


@dataclass(frozen=True)
class SimulateConfig:
    """What ``proofs-checks run simulate`` runs; the defaults are the full-scale run."""

    seed: int = DEFAULT_SEED
    reps: int = 100  # holdout-experiment repetitions per setting
    holdout: hr.HoldoutConfig = field(default_factory=hr.HoldoutConfig)
    selection: sel.SelectionConfig = field(default_factory=sel.SelectionConfig)
    confidence: float = 0.999
    quick: bool = False


def quick_config(seed: int = DEFAULT_SEED) -> SimulateConfig:
    """The reduced run of the test suite: n = 10,000 as in the paper, d = 2,000, k ≤ 200,
    10 repetitions per setting; 40,000 post-selection repetitions per rule."""
    return SimulateConfig(
        seed=seed,
        reps=10,
        quick=True,
        holdout=hr.HoldoutConfig(d=2000, ks=(0, 10, 50, 100, 200)),
        selection=sel.SelectionConfig(reps=40_000, chunk=20_000),
    )


def check_memory(cfg: SimulateConfig, workers: int, *, limit: int | None = None) -> int:
    """Refuse (before any allocation) a run whose workers would need more than ``limit`` bytes
    (default: half the machine's memory). Returns the estimate."""
    per = max(hr.memory_per_repetition(cfg.holdout), cfg.selection.chunk * cfg.selection.d * 8 * 4)
    need = per * max(workers, 1)
    if limit is None:
        limit = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2
    if need > limit:
        raise TooLarge(
            f"workers={workers} is invalid: {workers} x {per / 2**30:.2f} GiB per unit "
            f"= {need / 2**30:.2f} GiB exceeds the {limit / 2**30:.2f} GiB budget "
            "(refused before allocation; use fewer workers or a smaller block)"
        )
    return need


def _seed(root: int, *key: int) -> dict[str, Any]:
    return {"entropy": root, "spawn_key": list(key)}


def run(
    cfg: SimulateConfig,
    out_dir: Path,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: bool = True,
    fresh: bool = False,
) -> dict[str, Any]:
    """Run (or resume) both simulations; write units.jsonl, report.md/json and the plots."""
    w = local_workers(workers)
    if cfg.reps < 2:
        raise ValueError(f"reps={cfg.reps} is invalid: must be an integer >= 2")
    check_memory(cfg, 1 if scheduler else w)
    out_dir.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    h = cfg.holdout
    units = [
        Unit(
            f"holdout/{s}/rep{r:03d}",
            hr.run_repetition,
            {"cfg": h, "setting": s, "seed": np.random.SeedSequence(cfg.seed, spawn_key=(1, si, r))},
            _seed(cfg.seed, 1, si, r),
            {"setting": s, "rep": r},
        )
        for si, s in enumerate(hr.SETTINGS)
        if s in h.settings
        for r in range(cfg.reps)
    ]
    hconf = {"part": "holdout", "seed": cfg.seed, "holdout": asdict(h)}
    hstats: dict[str, int] = {}
    hres = run_units(
        units,
        out_dir / "units-holdout.jsonl",
        hconf,
        workers=w,
        scheduler=scheduler,
        label="simulate holdout",
        progress=progress,
        stats=hstats,
        fresh=fresh,
    )
    t_hold = time.monotonic() - t0
    s = cfg.selection
    procs = sel.procedures(s)
    nchunks = math.ceil(s.reps / s.chunk)
    sunits = []
    for pi, p in enumerate(procs):
        for c in range(nchunks):
            reps = min(s.chunk, s.reps - c * s.chunk)
            sunits.append(
                Unit(
                    f"selection/{p.name}/chunk{c:03d}",
                    sel.run_chunk,
                    {
                        "kind": p.kind,
                        "params": p.params,
                        "n": s.n,
                        "d": s.d,
                        "thresholds": [s.alpha, p.gamma],
                        "reps": reps,
                        "entropy": cfg.seed,
                        "spawn_key": [2, pi, c],
                    },
                    _seed(cfg.seed, 2, pi, c),
                    {
                        "procedure": p.name,
                        "kind": p.kind,
                        "rule": p.params,
                        "thresholds": [s.alpha, p.gamma],
                        "chunk": c,
                        "reps": reps,
                    },
                )
            )
    sconf = {
        "part": "selection",
        "seed": cfg.seed,
        "selection": {**asdict(s), "reps": None},
        "procedures": [[p.name, p.gamma] for p in procs],
    }
    sstats: dict[str, int] = {}
    sres = run_units(
        sunits,
        out_dir / "units-selection.jsonl",
        sconf,
        workers=w,
        scheduler=scheduler,
        label="simulate selection",
        progress=progress,
        stats=sstats,
        fresh=fresh,
    )
    srows = _selection_rows(cfg, procs, sunits, sres)
    records = _holdout_checks(cfg, units, hres) + _selection_checks(cfg, srows)
    fails = [r["id"] for r in records if r["verdict"] == "FAILS"]
    secs = {
        "holdout": round(t_hold, 1),
        "total": round(time.monotonic() - t0, 1),
        "holdout_unit_sum": round(sum(r["seconds"] for r in hres.values()), 1),
    }
    # every invocation is logged: a resumed run's wall time says nothing of the whole run's
    inv = {
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - secs["total"])),
        "seconds": secs,
        "workers": w,
        "scheduler": scheduler,
        "units_computed": {"holdout": hstats["computed"], "selection": sstats["computed"]},
        "units_resumed": {"holdout": hstats["resumed"], "selection": sstats["resumed"]},
    }
    with (out_dir / "invocations.jsonl").open("a") as fh:
        fh.write(json.dumps({"config": config_hash(_jsonable(asdict(cfg))), **inv}) + "\n")
    summary = {
        "campaign": "simulate",
        "config": _jsonable(asdict(cfg)),
        "versions": versions(),
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform()},
        "workers": w,
        "scheduler": scheduler,
        "seconds": secs,
        "invocations": _invocations(out_dir, config_hash(_jsonable(asdict(cfg)))),
        "checks": len(records),
        "failures": fails,
        "ok": not fails,
    }
    tables = _holdout_tables(cfg, hres)
    (out_dir / "report.json").write_text(
        json.dumps({**summary, "holdout": tables, "selection": srows, "records": records}, indent=1)
    )
    _plots(cfg, tables, srows, out_dir)
    _report_md(cfg, summary, tables, srows, records, out_dir)
    return {**summary, "records": records, "holdout": tables, "selection": srows}


def _invocations(out_dir: Path, chash: str) -> list[dict[str, Any]]:
    lines = (out_dir / "invocations.jsonl").read_text().splitlines()
    return [r for r in map(json.loads, filter(str.strip, lines)) if r.get("config") == chash]


def _jsonable(x: Any) -> Any:
    return json.loads(json.dumps(x, default=str))


# --------------------------------------------------------------------------------------------
# holdout experiment: summaries and checks
# --------------------------------------------------------------------------------------------

FIELDS = ("train", "holdout_reported", "holdout_exact", "fresh")


def _arrays(cfg: SimulateConfig, res: dict[str, dict[str, Any]], setting: str, variant: str, fld: str) -> np.ndarray:
    rows = [
        rec["result"]["variants"][variant][fld]
        for key, rec in sorted(res.items())
        if key.startswith(f"holdout/{setting}/")
    ]
    return np.array(rows, dtype=np.float64)


def _holdout_tables(cfg: SimulateConfig, res: dict[str, dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {"ks": list(cfg.holdout.ks)}
    for s in cfg.holdout.settings:
        out[s] = {}
        for v in hr.VARIANTS:
            out[s][v] = {}
            for f in FIELDS:
                a = _arrays(cfg, res, s, v, f)
                out[s][v][f] = {"mean": a.mean(axis=0).tolist(), "sd": a.std(axis=0, ddof=1).tolist()}
            kept = [
                rec["result"]["variants"][v]["kept_variables"]
                for key, rec in res.items()
                if key.startswith(f"holdout/{s}/")
            ]
            out[s][v]["kept_variables_mean"] = float(np.mean(kept))
            if v == "thresholdout-laplace":
                ot = [
                    rec["result"]["variants"][v]["over_threshold"]
                    for key, rec in res.items()
                    if key.startswith(f"holdout/{s}/")
                ]
                out[s][v]["over_threshold_mean"] = float(np.mean(ot))
                out[s][v]["over_threshold_max"] = int(np.max(ot))
    return out


def _t_bounds(x: np.ndarray, confidence: float) -> tuple[float, float, float]:
    """(mean, one-sided lower, one-sided upper) Student-t bounds at ``confidence``."""
    m = float(np.mean(x))
    se = float(np.std(x, ddof=1)) / math.sqrt(len(x))
    q = float(stats.t.ppf(confidence, len(x) - 1))
    return m, m - q * se, m + q * se


def _rec(
    rid: str,
    check: str,
    mech: str,
    inputs: dict[str, Any],
    value: Any,
    bound: Any,
    holds: bool | None,
    seconds: float,
    **extra: Any,
) -> dict[str, Any]:
    verdict = "observed" if holds is None else ("holds" if holds else "FAILS")
    return {
        "id": rid,
        "check": check,
        "mechanism": mech,
        "inputs": inputs,
        "value": value,
        "bound": bound,
        "verdict": verdict,
        "seconds": round(seconds, 4),
        **extra,
    }


def _holdout_checks(cfg: SimulateConfig, units: list[Unit], res: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    h, conf, recs = cfg.holdout, cfg.confidence, []
    ks = list(h.ks)
    ki = len(ks) - 1  # the largest k
    secs = sum(r["seconds"] for r in res.values())
    base = {"n": h.n, "d": h.d, "reps": cfg.reps, "T": h.threshold, "tau": h.tolerance, "confidence": conf}
    for s in h.settings:
        fr = {v: _arrays(cfg, res, s, v, "fresh") for v in hr.VARIANTS}
        rep = {v: _arrays(cfg, res, s, v, "holdout_reported") for v in hr.VARIANTS}
        # the standard holdout overfits: reported minus true accuracy at the largest k
        diff = rep["standard"][:, ki] - fr["standard"][:, ki]
        m, lo, _ = _t_bounds(diff, conf)
        recs.append(
            _rec(
                f"holdout/{s}/standard/overfits",
                "reused standard holdout reports more than the true (fresh) accuracy at the largest k",
                "holdout standard",
                {**base, "setting": s, "k": ks[ki]},
                {"mean_gap": m, "lower": lo},
                "lower bound > 0",
                lo > 0 if s == "nosignal" else None,
                secs / 4,
            )
        )
        for v in ("thresholdout-gaussian", "thresholdout-laplace"):
            ex = _arrays(cfg, res, s, v, "holdout_exact")
            for i, k in enumerate(ks):
                if k == 0:
                    continue
                # the holdout set itself is not overfit: its exact accuracy stays near the truth
                m, lo, up = _t_bounds(ex[:, i] - fr[v][:, i], conf)
                recs.append(
                    _rec(
                        f"holdout/{s}/{v}/k={k}/holdout-not-overfit",
                        "through "
                        "Thresholdout the holdout's exact accuracy exceeds the true "
                        "(fresh) accuracy by at most T",
                        f"holdout {v}",
                        {**base, "setting": s, "k": k},
                        {"mean_gap": m, "upper": up},
                        f"upper bound <= T = {h.threshold}",
                        up <= h.threshold,
                        0.0,
                    )
                )
                # what Thresholdout reports: within T of the truth at the largest k (the paper's
                # point); at small k it reports the training value whenever that is within
                # T + noise of the holdout, so there the gap is measured, not claimed
                m, lo, up = _t_bounds(rep[v][:, i] - fr[v][:, i], conf)
                last = i == ki
                recs.append(
                    _rec(
                        f"holdout/{s}/{v}/k={k}/reported-within-T",
                        "Thresholdout's "
                        "reported accuracy exceeds the true (fresh) accuracy by at "
                        "most T" + ("" if last else " (measured below the largest k)"),
                        f"holdout {v}",
                        {**base, "setting": s, "k": k},
                        {"mean_gap": m, "upper": up},
                        f"upper bound <= T = {h.threshold}",
                        (up <= h.threshold) if last else None,
                        0.0,
                    )
                )
        if s == "nosignal":
            # no classifier beats 50%: the fresh accuracy pooled over reps is Bin(reps n, 1/2)
            for v in hr.VARIANTS:
                for i, k in enumerate(ks):
                    if k == 0:
                        continue
                    hits = int(round(float(np.sum(fr[v][:, i])) * h.n))
                    lo, up = sel.clopper_pearson(hits, cfg.reps * h.n, 1 - (1 - conf) / 2)
                    recs.append(
                        _rec(
                            f"holdout/{s}/{v}/k={k}/fresh-is-chance",
                            "simulator check: fresh accuracy is 1/2 under no signal",
                            f"holdout {v}",
                            {**base, "setting": s, "k": k},
                            {"rate": hits / (cfg.reps * h.n), "interval": [lo, up]},
                            "0.5 in the two-sided interval",
                            lo <= 0.5 <= up,
                            0.0,
                        )
                    )
    paper_scale = (h.n, h.d, max(ks)) == (10_000, 10_000, 500) and "nosignal" in h.settings
    if paper_scale:
        i500 = ks.index(500)
        tr = _arrays(cfg, res, "nosignal", "standard", "train")[:, i500]
        ho = _arrays(cfg, res, "nosignal", "standard", "holdout_reported")[:, i500]
        recs.append(
            _rec(
                "holdout/paper/standard-over-63pct",
                "DFHPRR: reused standard holdout reports over 63% at k = 500 on both training and holdout (no signal)",
                "holdout standard",
                {**base, "setting": "nosignal", "k": 500},
                {"train_mean": float(tr.mean()), "holdout_mean": float(ho.mean())},
                "> 0.63",
                bool(tr.mean() > 0.63 and ho.mean() > 0.63),
                0.0,
            )
        )
        sds = (float(tr.std(ddof=1)), float(ho.std(ddof=1)))
        recs.append(
            _rec(
                "holdout/paper/standard-sd-below-0.5pct",
                "DFHPRR: the standard deviation of the error is less than 0.5%",
                "holdout standard",
                {**base, "setting": "nosignal", "k": 500},
                {"train_sd": sds[0], "holdout_sd": sds[1]},
                "< 0.005",
                max(sds) < 0.005,
                0.0,
            )
        )
        for v in ("thresholdout-gaussian", "thresholdout-laplace", "fresh"):
            col = (
                _arrays(cfg, res, "nosignal", "standard", "fresh")
                if v == "fresh"
                else _arrays(cfg, res, "nosignal", v, "holdout_reported")
            )[:, i500]
            recs.append(
                _rec(
                    f"holdout/paper/{v}-near-50pct",
                    "DFHPRR: Thresholdout and fresh data stay near 50% (within T = 0.04) at k = 500, no signal",
                    f"holdout {v}",
                    {**base, "setting": "nosignal", "k": 500},
                    {"mean": float(col.mean())},
                    "|mean - 0.5| <= 0.04",
                    bool(abs(col.mean() - 0.5) <= 0.04),
                    0.0,
                )
            )
    return recs


# --------------------------------------------------------------------------------------------
# post-selection testing: rates and checks
# --------------------------------------------------------------------------------------------


def _selection_rows(
    cfg: SimulateConfig, procs: list[sel.Procedure], units: list[Unit], res: dict[str, dict[str, Any]]
) -> list[dict[str, Any]]:
    s, rows = cfg.selection, []
    for p in procs:
        mine = [res[u.key] for u in units if u.key.startswith(f"selection/{p.name}/")]
        n = sum(r["result"]["reps"] for r in mine)
        ra = sum(r["result"]["rejections"][0] for r in mine)
        rg = sum(r["result"]["rejections"][1] for r in mine)
        lo_a, up_a = sel.clopper_pearson(ra, n, cfg.confidence)
        lo_g, up_g = sel.clopper_pearson(rg, n, cfg.confidence)
        infl = None if p.k is None or p.beta is None else min(1.0, 2.0**p.k * s.alpha + p.beta)
        rows.append(
            {
                "procedure": p.name,
                "guarantee": p.guarantee,
                "route": list(p.route),
                "gamma": p.gamma,
                "k_bits": p.k,
                "beta": p.beta,
                "reps": n,
                "naive": {"rate": ra / n, "lower": lo_a, "upper": up_a},
                "corrected": {"rate": rg / n, "lower": lo_g, "upper": up_g},
                "conservativeness": rg / n / s.alpha,
                "inflation_bound": infl,
                "seconds": sum(r["seconds"] for r in mine),
                "exact_naive": (sel.exact_naive_rate(s.n, s.d, s.alpha) if p.kind == "argmax" else None),
                "exact_corrected": (sel.exact_naive_rate(s.n, s.d, p.gamma) if p.kind == "argmax" else None),
            }
        )
    return rows


def _selection_checks(cfg: SimulateConfig, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    s, conf, recs = cfg.selection, cfg.confidence, []
    for row in rows:
        p = row["procedure"]
        inp = {
            "n": s.n,
            "d": s.d,
            "alpha": s.alpha,
            "gamma": row["gamma"],
            "reps": row["reps"],
            "confidence": conf,
            "route": row["route"],
            "guarantee": row["guarantee"],
        }
        c, nv = row["corrected"], row["naive"]
        recs.append(
            _rec(
                f"selection/{p}/corrected-valid",
                "false-discovery probability at the calculator's gamma(alpha) is at most alpha",
                f"selection {p}",
                inp,
                c,
                f"upper bound <= alpha = {s.alpha}",
                c["upper"] <= s.alpha,
                row["seconds"] / 2,
                conservativeness=row["conservativeness"],
            )
        )
        if row["exact_naive"] is not None:
            # theory (exact): the naive test of the smallest p-value is invalid
            recs.append(
                _rec(
                    f"selection/{p}/naive-invalid",
                    "the naive test's false-discovery probability exceeds alpha (exactly 1 - (1 - size)^d here)",
                    f"selection {p}",
                    inp,
                    nv,
                    f"lower bound > alpha = {s.alpha}",
                    nv["lower"] > s.alpha,
                    row["seconds"] / 2,
                    exact=row["exact_naive"],
                )
            )
            half = 1 - (1 - conf) / 2
            for what, rate, exact in (("naive", nv, row["exact_naive"]), ("corrected", c, row["exact_corrected"])):
                k = round(rate["rate"] * row["reps"])
                lo, up = sel.clopper_pearson(k, row["reps"], half)
                recs.append(
                    _rec(
                        f"selection/{p}/{what}-matches-exact",
                        "simulator check: the exact probability lies in the two-sided interval",
                        f"selection {p}",
                        inp,
                        {"rate": rate["rate"], "interval": [lo, up]},
                        exact,
                        lo <= exact <= up,
                        0.0,
                    )
                )
        else:
            recs.append(
                _rec(
                    f"selection/{p}/naive-rate",
                    "false-discovery probability of the naive test (no exact value: measured)",
                    f"selection {p}",
                    inp,
                    nv,
                    None,
                    None,
                    row["seconds"] / 2,
                )
            )
        if row["inflation_bound"] is not None and row["inflation_bound"] < 1:
            recs.append(
                _rec(
                    f"selection/{p}/naive-within-inflation",
                    "at the naive alpha the rate is at most 2^k alpha + beta (RRST Thm 1.3 at t = alpha)",
                    f"selection {p}",
                    inp,
                    nv,
                    row["inflation_bound"],
                    nv["upper"] <= row["inflation_bound"],
                    0.0,
                )
            )
    return recs


# --------------------------------------------------------------------------------------------
# plots and markdown
# --------------------------------------------------------------------------------------------


def _plots(cfg: SimulateConfig, tables: dict[str, Any], srows: list[dict[str, Any]], out_dir: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ks = np.array(tables["ks"])
    titles = {
        "standard": "standard holdout",
        "thresholdout-gaussian": "Thresholdout (Gaussian)",
        "thresholdout-laplace": "Thresholdout (Laplace, §3 algorithm)",
    }
    for s in cfg.holdout.settings:
        fig, axes = plt.subplots(1, 3, figsize=(15, 4.2), sharey=True)
        for ax, v in zip(axes, hr.VARIANTS):
            for fld, lab, col in (
                ("train", "training", "tab:blue"),
                ("holdout_reported", "holdout (reported)", "tab:green"),
                ("fresh", "fresh", "tab:red"),
            ):
                mu = np.array(tables[s][v][fld]["mean"])
                sd = np.array(tables[s][v][fld]["sd"])
                ax.plot(ks, mu, marker="o", ms=3, color=col, label=lab)
                ax.fill_between(ks, mu - sd, mu + sd, color=col, alpha=0.25)
            ax.set_title(titles[v])
            ax.set_xlabel("number of variables k")
            ax.grid(alpha=0.3)
        axes[0].set_ylabel("accuracy (mean ± 1 sd)")
        axes[0].legend(loc="upper left")
        h = cfg.holdout
        fig.suptitle(f"DFHPRR holdout reuse, {s}: n = {h.n}, d = {h.d}, {cfg.reps} repetitions")
        fig.tight_layout()
        fig.savefig(out_dir / f"holdout-{s}.png", dpi=110)
        plt.close(fig)
    fig, ax = plt.subplots(figsize=(9, 4.5))
    y = np.arange(len(srows))
    for off, key, col, lab in (
        (-0.15, "naive", "tab:red", "at naive alpha"),
        (0.15, "corrected", "tab:blue", "at gamma(alpha)"),
    ):
        r = np.array([row[key]["rate"] for row in srows])
        lo = np.array([row[key]["lower"] for row in srows])
        up = np.array([row[key]["upper"] for row in srows])
        ax.errorbar(r, y + off, xerr=[r - lo, up - r], fmt="o", color=col, label=lab, ms=4)
    ax.axvline(cfg.selection.alpha, color="k", ls="--", lw=1, label="alpha")
    ax.set_xscale("symlog", linthresh=1e-5)
    ax.set_xlim(0, 1)
    ax.set_yticks(y, [row["procedure"] for row in srows], fontsize=8)
    ax.set_xlabel(f"false-discovery probability ({cfg.confidence:g} one-sided bounds)")
    ax.legend(fontsize=8)
    ax.set_title(f"post-selection testing under the global null: n = {cfg.selection.n}, d = {cfg.selection.d}")
    fig.tight_layout()
    fig.savefig(out_dir / "selection.png", dpi=110)
    plt.close(fig)


def _report_md(
    cfg: SimulateConfig,
    summary: dict[str, Any],
    tables: dict[str, Any],
    srows: list[dict[str, Any]],
    records: list[dict[str, Any]],
    out_dir: Path,
) -> None:
    h = cfg.holdout
    L = (
        [
            "# Simulation campaign",
            "",
            f"- configuration: seed {cfg.seed}, {cfg.reps} holdout repetitions per setting, "
            f"{cfg.selection.reps} post-selection repetitions per rule, confidence "
            f"{cfg.confidence} (one-sided bounds){' (quick version)' if cfg.quick else ''}",
            f"- checks: {summary['checks']}, failing: {len(summary['failures'])}",
            "- time, per invocation of this configuration (a resumed invocation computes only what was missing):",
        ]
        + [
            f"  - {i['started']}: {i['seconds']['total']} s in all, holdout experiment "
            f"{i['seconds']['holdout']} s, on {i['workers']} worker(s)"
            f"{' via ' + str(i['scheduler']) if i['scheduler'] else ''}; units computed: "
            f"{i['units_computed']['holdout']} holdout, {i['units_computed']['selection']} "
            f"selection; resumed: {i['units_resumed']['holdout']} + "
            f"{i['units_resumed']['selection']}"
            for i in summary["invocations"]
        ]
        + [
            f"- versions: {', '.join(f'{k} {v}' for k, v in summary['versions'].items())}",
            "",
            "## Holdout reuse (DFHPRR §Experiments)",
            "",
            f"n = {h.n} training, {h.n} holdout and {h.n} fresh points, d = {h.d}, T = {h.threshold}, "
            f"τ = {h.tolerance} (Gaussian), σ = {h.laplace_sigma} (Laplace); mean ± sd over "
            f"{cfg.reps} repetitions.",
            "",
        ]
    )
    for s in h.settings:
        L += [
            f"### {s}",
            "",
            f"![{s}](holdout-{s}.png)",
            "",
            "| k | " + " | ".join(f"{v}: train / holdout / fresh" for v in hr.VARIANTS) + " |",
            "|---|" + "---|" * len(hr.VARIANTS),
        ]
        for i, k in enumerate(tables["ks"]):
            cells = []
            for v in hr.VARIANTS:
                t = tables[s][v]
                cells.append(
                    " / ".join(
                        f"{t[f]['mean'][i]:.3f}±{t[f]['sd'][i]:.3f}" for f in ("train", "holdout_reported", "fresh")
                    )
                )
            L.append(f"| {k} | " + " | ".join(cells) + " |")
        lap = tables[s]["thresholdout-laplace"]
        L += [
            "",
            "Kept variables (mean): "
            + ", ".join(f"{v} {tables[s][v]['kept_variables_mean']:.0f}" for v in hr.VARIANTS)
            + f"; Laplace over-threshold answers: mean {lap['over_threshold_mean']:.0f}, "
            f"max {lap['over_threshold_max']}.",
            "",
        ]
    L += [
        "## Post-selection testing under the global null",
        "",
        f"n = {cfg.selection.n}, d = {cfg.selection.d}, α = {cfg.selection.alpha}; rates with "
        f"one-sided {cfg.confidence} Clopper–Pearson bounds.",
        "",
        "![selection](selection.png)",
        "",
        "| rule | guarantee | route | γ(α) | rate at α [lower, upper] | rate at γ [upper] | rate at γ / α |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in srows:
        L.append(
            f"| {r['procedure']} | {r['guarantee']} | {' → '.join(r['route'])} | "
            f"{r['gamma']:.3g} | {r['naive']['rate']:.4f} [{r['naive']['lower']:.4f}, "
            f"{r['naive']['upper']:.4f}] | {r['corrected']['rate']:.2e} "
            f"[{r['corrected']['upper']:.2e}] | {r['conservativeness']:.3g} |"
        )
    L += ["", "## Checks", "", "| id | value | bound | verdict |", "|---|---|---|---|"]
    for r in records:
        if r["verdict"] != "observed":
            val = json.dumps(r["value"], default=str)
            L.append(f"| {r['id']} | {val[:90]} | {r['bound']} | {r['verdict']} |")
    (out_dir / "report.md").write_text("\n".join(L) + "\n")
