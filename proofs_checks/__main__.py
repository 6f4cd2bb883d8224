"""``proofs-checks``: run verification campaigns and write their reports.

    proofs-checks run measures [--out DIR] [--json PATH] [--seed S] [--trials T] [--max-n N]
                               [--workers W]
    proofs-checks run counterexample [--out DIR] [--json PATH] [--quick] [--enumerate-max-n N]
                               [--workers W]
    proofs-checks run claims [--out DIR] [--json PATH]
    proofs-checks run enumeration [--out DIR] [--json PATH] [--quick] [--workers W]
    proofs-checks run simulate [--out DIR] [--json PATH] [--quick] [--reps N]
                               [--selection-reps M] [--workers W] [--scheduler ADDRESS]
    proofs-checks run estimate [--out DIR] [--json PATH] [--quick] [--reps N] [--seed S]
                               [--workers W] [--scheduler ADDRESS]
    proofs-checks run fuzz [--out DIR] [--points N] [--seed S] [--workers W] [--quick]
    proofs-checks run all [--out DIR] [--json PATH] [--quick]

Every resumable campaign also takes ``--fresh`` (reuse nothing). Without it, a record in
``--out`` is reused only when its configuration and the code's identity (the version and a
hash of the sources, :func:`proofs_checks.report.code_identity`) both match.

Exit status 0 when every check passed, 1 when a check failed, 2 on bad arguments.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import NoReturn

from . import bounds_vs_exact, claims, counterexample
from .fuzz import campaign as fuzz
from .measures_check import MeasuresCheckConfig, run
from .simulate import campaign as sim
from .simulate import estimate as est_sim
from .simulate.runner import Interrupted


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def main(argv: Sequence[str] | None = None) -> int:
    p = _Parser(prog="proofs-checks", description="Verification campaigns for maxinfo_bounds.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    r = sub.add_parser("run", help="run a campaign")
    r.add_argument(
        "campaign",
        choices=["measures", "counterexample", "claims", "enumeration", "simulate", "estimate", "fuzz", "all"],
    )
    r.add_argument("--out", type=Path, default=Path("proofs-checks-report"))
    r.add_argument("--json", type=Path, help="write one record per check to this file")
    r.add_argument("--quick", action="store_true", help="the small version (as in the tests)")
    r.add_argument(
        "--enumerate-max-n",
        type=int,
        default=counterexample.ENUMERATE_MAX_N,
        help="counterexample: enumerate all 2^n datasets up to this n (default 24)",
    )
    r.add_argument(
        "--seed",
        type=int,
        default=None,
        help=f"measures: default {MeasuresCheckConfig.seed}; simulate: default {sim.DEFAULT_SEED}; "
        f"estimate: default {est_sim.DEFAULT_SEED}",
    )
    r.add_argument("--trials", type=int, default=MeasuresCheckConfig.trials)
    r.add_argument("--max-n", type=int, default=MeasuresCheckConfig.max_n)
    r.add_argument(
        "--reps",
        type=int,
        default=None,
        help="simulate: holdout-experiment repetitions per setting (default 100; 10 with --quick); "
        "estimate: repetitions (default 1000; 100 with --quick)",
    )
    r.add_argument(
        "--selection-reps",
        type=int,
        default=None,
        help="simulate: post-selection repetitions per rule (default 1000000)",
    )
    r.add_argument(
        "--workers",
        type=int,
        default=None,
        help="simulate, fuzz, counterexample, enumeration: local worker processes "
        "(default: the number of CPUs); measures: default 1",
    )
    r.add_argument(
        "--points",
        type=int,
        default=None,
        help=f"fuzz: input points in total (default {fuzz.DEFAULT_POINTS:,}; {fuzz.QUICK_POINTS:,} with --quick)",
    )
    r.add_argument(
        "--fresh",
        action="store_true",
        help="reuse no earlier results in --out (they are reused only when the "
        "configuration and the code's identity match; the old log is kept as "
        "LOG.previous)",
    )
    r.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="simulate, estimate: run on this Dask distributed scheduler (tcp://host:port)",
    )
    ns = p.parse_args(argv)
    if ns.trials < 1:
        p.error(f"--trials={ns.trials} is invalid: must be an integer >= 1")
    for opt, low in (("reps", 2), ("selection_reps", 1), ("workers", 1), ("points", 1)):
        v = getattr(ns, opt)
        if v is not None and v < low:
            p.error(f"--{opt.replace('_', '-')}={v} is invalid: must be an integer >= {low}")
    if ns.out.exists() and not ns.out.is_dir():
        p.error(f"--out={str(ns.out)!r} is invalid: must be a directory (it is a file)")
    if ns.json is not None and ns.json.is_dir():
        p.error(f"--json={str(ns.json)!r} is invalid: must be a file name (it is a directory)")
    if ns.json is not None and ns.json.parent.exists() and not ns.json.parent.is_dir():
        p.error(f"--json={str(ns.json)!r} is invalid: {str(ns.json.parent)!r} is not a directory")
    ok = True
    records: list[dict[str, object]] = []
    try:
        if ns.campaign in ("measures", "all"):
            mseed = MeasuresCheckConfig.seed if ns.seed is None else ns.seed
            summary = run(
                MeasuresCheckConfig(seed=mseed, trials=ns.trials, max_n=ns.max_n),
                ns.out / "measures",
                workers=ns.workers or 1,
                fresh=ns.fresh,
            )
            print(
                f"measures: {summary['checks']} checks, {len(summary['failures'])} failed; "
                f"report in {ns.out / 'measures'}"
            )
            ok &= bool(summary["ok"])
            records += summary["records"]
        if ns.campaign in ("counterexample", "all"):
            out = ns.out / "counterexample"
            cs = counterexample.run(
                counterexample.CounterexampleConfig(quick=ns.quick, enumerate_max_n=ns.enumerate_max_n),
                out,
                workers=ns.workers,
                fresh=ns.fresh,
            )
            print(
                f"counterexample: {cs['checks']} checks; {len(cs['errors'])} errors (claims "
                "of RRST Thm 4.1 / Cor 4.2 failing where the paper makes them); "
                f"{cs['not_holding_outside_regime']} fail only outside the theorem's regime "
                "(small codes, where the proof's conditions do not hold: expected); Lemma "
                f"4.9's intermediate step is false in {cs['lemma_4_9_step_failures']} checks "
                f"({len(cs['false_proof_step_lemma_4_9'])} codes; the conclusion it serves "
                f"holds: docs/errata.md); report in {out}"
            )
            ok &= bool(cs["ok"])
            records += cs["records"]
        if ns.campaign in ("enumeration", "all"):
            out = ns.out / "enumeration"
            en = bounds_vs_exact.run(
                bounds_vs_exact.EnumerationConfig(quick=ns.quick), out, workers=ns.workers, fresh=ns.fresh
            )
            print(
                f"enumeration: {en['checks']} checks, {len(en['failures'])} bounds below the "
                f"exact value; report in {out}"
            )
            ok &= bool(en["ok"])
            records += en["records"]
        if ns.campaign in ("claims", "all"):
            out = ns.out / "claims"
            cl = claims.run(out)
            print(
                f"claims: {cl['claims']} claims, {cl['certified']} certified, "
                f"{len(cl['refuted'])} refuted (each with a certified correction), "
                f"{len(cl['undecided'])} undecided; report in {out}"
            )
            ok &= bool(cl["ok"])
            records += cl["records"]
        if ns.campaign in ("simulate", "all"):
            out = ns.out / "simulate"
            sc = sim.quick_config() if ns.quick else sim.SimulateConfig()
            if ns.seed is not None:
                sc = replace(sc, seed=ns.seed)
            if ns.reps is not None:
                sc = replace(sc, reps=ns.reps)
            if ns.selection_reps is not None:
                sc = replace(sc, selection=replace(sc.selection, reps=ns.selection_reps))
            sm = sim.run(sc, out, workers=ns.workers, scheduler=ns.scheduler, fresh=ns.fresh)
            print(
                f"simulate: {sm['checks']} checks, {len(sm['failures'])} failed "
                f"({sm['seconds']['total']} s); report in {out}"
            )
            ok &= bool(sm["ok"])
            records += sm["records"]
        if ns.campaign in ("estimate", "all"):
            out = ns.out / "estimate"
            ec = est_sim.quick_config() if ns.quick else est_sim.EstimateSimConfig()
            if ns.seed is not None:
                ec = replace(ec, seed=ns.seed)
            if ns.reps is not None:
                ec = replace(ec, reps=ns.reps)
            es = est_sim.run(ec, out, workers=ns.workers, scheduler=ns.scheduler, fresh=ns.fresh)
            cov = ", ".join(f"{r['mechanism']} {r['covered']}/{r['reps']}" for r in es["rows"])
            print(
                f"estimate: {es['checks']} checks, {len(es['failures'])} failed (covered: {cov}; "
                f"{es['seconds']} s); report in {out}"
            )
            ok &= bool(es["ok"])
            records += es["records"]
        if ns.campaign in ("fuzz", "all"):
            out = ns.out / "fuzz"
            pts = ns.points if ns.points is not None else (fuzz.QUICK_POINTS if ns.quick else fuzz.DEFAULT_POINTS)
            fz = fuzz.run(
                out,
                points=pts,
                seed=fuzz.DEFAULT_SEED if ns.seed is None else ns.seed,
                workers=ns.workers,
                fresh=ns.fresh,
            )
            t = fz["totals"]
            print(
                f"fuzz: {fz['points']:,} points, {fz['evaluations']:,} evaluations: "
                f"{t['wrong_side']} wrong side, {t['nan']} NaN, {t['inf_where_finite']} inf "
                f"where finite, {t['crash']} crashes, {t['refused']} undocumented refusals, "
                f"{t['claimed_outside']} claimed outside their conditions; report in {out}"
            )
            ok &= fuzz.passed(fz)
            records += fuzz.records(fz)
    except Interrupted as exc:
        print(f"proofs-checks: {exc}", file=sys.stderr)
        return 130
    except KeyboardInterrupt:  # outside a unit (setting up, writing a report): nothing lost
        print("proofs-checks: interrupted; finished units are saved, rerun the same command to resume", file=sys.stderr)
        return 130
    except ValueError as exc:
        print(f"proofs-checks: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"proofs-checks: error: {exc.filename or ''}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    if ns.json is not None:
        try:
            ns.json.parent.mkdir(parents=True, exist_ok=True)
            ns.json.write_text(json.dumps(records, indent=1))
        except OSError as exc:
            print(f"proofs-checks: error: --json={str(ns.json)!r}: {exc.strerror or exc}", file=sys.stderr)
            return 2
    return 0 if ok else 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
