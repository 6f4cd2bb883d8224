"""``proofs-checks``: run verification campaigns and write their reports.

    proofs-checks run measures [--out DIR] [--seed S] [--trials T] [--max-n N]
    proofs-checks run counterexample [--out DIR] [--json PATH] [--quick] [--enumerate-max-n N]
    proofs-checks run claims [--out DIR] [--json PATH]
    proofs-checks run enumeration [--out DIR] [--json PATH] [--quick]
    proofs-checks run all [--out DIR] [--json PATH] [--quick]

Exit status 0 when every check passed, 1 when a check failed, 2 on bad arguments.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from . import bounds_vs_exact, claims, counterexample
from .measures_check import MeasuresCheckConfig, run


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def main(argv: Sequence[str] | None = None) -> int:
    p = _Parser(prog="proofs-checks", description="Verification campaigns for maxinfo_bounds.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    r = sub.add_parser("run", help="run a campaign")
    r.add_argument("campaign", choices=["measures", "counterexample", "claims", "enumeration", "all"])
    r.add_argument("--out", type=Path, default=Path("proofs-checks-report"))
    r.add_argument("--json", type=Path, help="write one record per check to this file")
    r.add_argument("--quick", action="store_true", help="the small version (as in the tests)")
    r.add_argument("--enumerate-max-n", type=int, default=counterexample.ENUMERATE_MAX_N,
                   help="counterexample: enumerate all 2^n datasets up to this n (default 24)")
    r.add_argument("--seed", type=int, default=MeasuresCheckConfig.seed)
    r.add_argument("--trials", type=int, default=MeasuresCheckConfig.trials)
    r.add_argument("--max-n", type=int, default=MeasuresCheckConfig.max_n)
    ns = p.parse_args(argv)
    if ns.trials < 1:
        p.error(f"--trials={ns.trials} is invalid: must be an integer >= 1")
    ok = True
    records: list[dict[str, object]] = []
    try:
        if ns.campaign in ("measures", "all"):
            summary = run(MeasuresCheckConfig(seed=ns.seed, trials=ns.trials, max_n=ns.max_n),
                          ns.out / "measures")
            print(f"measures: {summary['checks']} checks, {len(summary['failures'])} failed; "
                  f"report in {ns.out / 'measures'}")
            ok &= bool(summary["ok"])
            records += [{"id": f"measures/{i}", "check": "measures", "verdict": "FAILS",
                         "note": f} for i, f in enumerate(summary["failures"])]
        if ns.campaign in ("counterexample", "all"):
            out = ns.out / "counterexample"
            cs = counterexample.run(counterexample.CounterexampleConfig(
                quick=ns.quick, enumerate_max_n=ns.enumerate_max_n), out)
            print(f"counterexample: {cs['checks']} checks, {cs['not_holding']} not holding "
                  f"({cs['not_holding_outside_regime']} outside the theorem's regime), "
                  f"{len(cs['errors'])} errors; report in {out}")
            ok &= bool(cs["ok"])
            records += [json.loads(line) for line in (out / "records.jsonl").read_text().splitlines()
                        if line.strip()]
        if ns.campaign in ("enumeration", "all"):
            out = ns.out / "enumeration"
            en = bounds_vs_exact.run(bounds_vs_exact.EnumerationConfig(quick=ns.quick), out)
            print(f"enumeration: {en['checks']} checks, {len(en['failures'])} bounds below the "
                  f"exact value; report in {out}")
            ok &= bool(en["ok"])
            records += en["records"]
        if ns.campaign in ("claims", "all"):
            out = ns.out / "claims"
            cl = claims.run(out)
            print(f"claims: {cl['claims']} claims, {cl['certified']} certified, "
                  f"{len(cl['refuted'])} refuted (each with a certified correction), "
                  f"{len(cl['undecided'])} undecided; report in {out}")
            ok &= bool(cl["ok"])
            records += cl["records"]
    except ValueError as exc:
        print(f"proofs-checks: error: {exc}", file=sys.stderr)
        return 2
    if ns.json is not None:
        ns.json.parent.mkdir(parents=True, exist_ok=True)
        ns.json.write_text(json.dumps(records, indent=1))
    return 0 if ok else 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
