"""Per-module mutation score from mutmut's results (docs/verification.md, "Mutation testing").

Run from the repository root after (or during) ``mutmut run``::

    python tools/mutation_table.py            # a markdown table on standard output

It reads ``mutmut results --all true`` (every mutant's state) and counts, per module, the
mutants checked, killed (including timeouts: the mutant hung the tests), survived, and those no
test reaches; the score is killed / (killed + survived).
"""

from __future__ import annotations

import collections
import re
import subprocess
import sys

KILLED = {"killed", "timeout", "segfault"}


def main() -> int:
    out = subprocess.run([sys.executable, "-m", "mutmut", "results", "--all", "true"],
                         capture_output=True, text=True, check=True).stdout
    per: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for line in out.splitlines():
        name, sep, state = line.strip().rpartition(": ")
        if not sep:
            continue
        func = name.split("__mutmut_")[0]
        module = re.sub(r"\.x(ǁ[^.]*|_[^.]*)$", "", func).removeprefix("maxinfo_bounds.")
        per[module][state.strip()] += 1
    rows, tot = [], collections.Counter[str]()
    print("| module | mutants | checked | killed | survived | no test | score |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for module in sorted(per):
        c = per[module]
        tot.update(c)
        rows.append(module)
        print(_row(module.replace(".", "/"), c))
    print(_row("**all**", tot))
    return 0


def _row(label: str, c: collections.Counter[str]) -> str:
    killed = sum(c[s] for s in KILLED)
    survived, none = c["survived"], c["no tests"]
    checked = killed + survived + none
    score = f"{killed / (killed + survived):.1%}" if killed + survived else "–"
    return (f"| {label} | {sum(c.values()):,} | {checked:,} | {killed:,} | {survived:,} | "
            f"{none:,} | {score} |")


if __name__ == "__main__":
    raise SystemExit(main())
