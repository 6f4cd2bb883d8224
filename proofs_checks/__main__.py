"""``proofs-checks``: run verification campaigns and write their reports.

    proofs-checks run measures [--out DIR] [--seed S] [--trials T] [--max-n N]

Exit status 0 when every check passed, 1 when a check failed, 2 on bad arguments.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from .measures_check import MeasuresCheckConfig, run


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def main(argv: Sequence[str] | None = None) -> int:
    p = _Parser(prog="proofs-checks", description="Verification campaigns for maxinfo_bounds.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    r = sub.add_parser("run", help="run a campaign")
    r.add_argument("campaign", choices=["measures"])
    r.add_argument("--out", type=Path, default=Path("proofs-checks-report"))
    r.add_argument("--seed", type=int, default=MeasuresCheckConfig.seed)
    r.add_argument("--trials", type=int, default=MeasuresCheckConfig.trials)
    r.add_argument("--max-n", type=int, default=MeasuresCheckConfig.max_n)
    ns = p.parse_args(argv)
    if ns.trials < 1:
        p.error(f"--trials={ns.trials} is invalid: must be an integer >= 1")
    try:
        summary = run(MeasuresCheckConfig(seed=ns.seed, trials=ns.trials, max_n=ns.max_n),
                      ns.out / ns.campaign)
    except ValueError as exc:
        print(f"proofs-checks: error: {exc}", file=sys.stderr)
        return 2
    print(f"{summary['checks']} checks, {len(summary['failures'])} failed; "
          f"report in {ns.out / ns.campaign}")
    return 0 if summary["ok"] else 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
