"""Per-module mutation score from mutmut's results (docs/verification.md, "Mutation testing").

Run from the repository root after (or during) ``mutmut run``::

    python tools/mutation_table.py            # a markdown table on standard output
    python tools/mutation_table.py --kinds    # the survivors per module, by kind of change

It reads ``mutmut results --all true`` (every mutant's state) and counts, per module, the
mutants checked, killed (including timeouts: the mutant hung the tests), survived, and those no
test reaches; the score is killed / (killed + survived). The last column counts the mutants the
module's ``# pragma: no mutate`` lines keep out (mutmut's own generator run on the source with
and without those comments): lines that only steer a certified search, size a buffer or place
buckets, each with its reason beside it (docs/verification.md, "Eighth round").
"""

from __future__ import annotations

import ast
import collections
import difflib
import re
import subprocess
import sys
from pathlib import Path

KILLED = {"killed", "timeout", "segfault"}


# The kinds of surviving change, tried in order on the mutant's changed lines (the kinds are
# judged in docs/verification.md): a string's text or case, a name given to a refusal, a working
# precision, a search's or grid's tuning (a start, bracket, step, tolerance or size: the
# certified step decides), a numpy error state, a dispatch to the array path, a boundary
# comparison (< against <=), an argument or default dropped; the rest is "other".
KINDS = [
    ("text", re.compile(r"XX|\"[A-Z0-9 _'(),./:;=-]{3,}\"|\"[a-z0-9 _'(),./:;=-]*[a-z][a-z0-9 _'(),./:;=-]*\"")),
    ("precision", re.compile(r"\bdps\b|\bprec\b|workdps|workprec|guard")),
    (
        "search tuning",
        re.compile(
            r"brentq|xtol|rtol|maxiter|linspace|grid|range\(|s_hi|s_lo|_start|first_true|"
            r"minimise|np\.arange|meshgrid|bracket|step"
        ),
    ),
    ("error state", re.compile(r"errstate")),
    ("array dispatch", re.compile(r"is_array\(")),
    ("boundary", re.compile(r"<=|>=")),
]


def _functions(path: Path, cache: dict[Path, dict[str, list[str]]]) -> dict[str, list[str]]:
    if path not in cache:
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        cache[path] = {
            node.name: lines[node.lineno : node.end_lineno]
            for node in ast.walk(ast.parse(text))
            if isinstance(node, ast.FunctionDef) and node.end_lineno is not None
        }
    return cache[path]


def changed_lines(name: str, cache: dict[Path, dict[str, list[str]]]) -> list[str]:
    """The mutant's changed lines, read from its module's copy in mutants/."""
    module, func = re.match(r"(.*?)\.(x[_ǁ].*)$", name).groups()  # type: ignore[union-attr]
    path = Path("mutants", *module.split(".")).with_suffix(".py")
    if not path.exists():
        path = Path("mutants", *module.split("."), "__init__.py")
    funcs = _functions(path, cache)
    # a method's copies keep the class in their name (xǁClassǁmethod__mutmut_3)
    short = func if func in funcs else func.rsplit("ǁ", 1)[-1]
    orig = funcs.get(re.sub(r"__mutmut_\d+$", "", short) + "__mutmut_orig", [])
    return [
        line
        for line in difflib.unified_diff(orig, funcs.get(short, []), lineterm="", n=0)
        if line[:1] in "+-" and line[:3] not in ("+++", "---")
    ]


def kind(lines: list[str]) -> str:
    changed = " ".join(line for line in lines if line.startswith("+")) or " ".join(lines)
    for label, pattern in KINDS:
        if pattern.search(changed):
            return label
    return "other"


def _states() -> list[tuple[str, str]]:
    out = subprocess.run(
        [sys.executable, "-m", "mutmut", "results", "--all", "true"], capture_output=True, text=True, check=True
    ).stdout
    pairs = []
    for line in out.splitlines():
        name, sep, state = line.strip().rpartition(": ")
        if sep:
            pairs.append((name, state.strip()))
    return pairs


def _module(name: str) -> str:
    func = name.split("__mutmut_")[0]
    return re.sub(r"\.x(ǁ[^.]*|_[^.]*)$", "", func).removeprefix("maxinfo_bounds.")


def kinds_table() -> int:
    cache: dict[Path, dict[str, list[str]]] = {}
    per: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for name, state in _states():
        if state == "survived":
            per[_module(name)][kind(changed_lines(name, cache))] += 1
    labels = [k for k, _ in KINDS] + ["other"]
    print("| module | " + " | ".join(labels) + " |")
    print("| --- |" + " ---: |" * len(labels))
    tot = collections.Counter[str]()
    for module in sorted(per):
        tot.update(per[module])
        print(f"| {module.replace('.', '/')} | " + " | ".join(str(per[module][k]) for k in labels) + " |")
    print("| **all** | " + " | ".join(str(tot[k]) for k in labels) + " |")
    return 0


def excluded(module: str) -> int:
    """Mutants of ``module`` (``measures.engine``) its ``# pragma: no mutate`` lines keep out."""
    from mutmut.mutation.file_mutation import create_mutations

    path = Path("maxinfo_bounds", *module.split(".")).with_suffix(".py")
    code = path.read_text(encoding="utf-8")

    def count(text: str) -> int:
        return sum(m.contained_by_top_level_function is not None for m in create_mutations(str(path), text)[1])

    return count(code.replace("pragma: no mutate", "pragma: mutate")) - count(code)


def main() -> int:
    if "--kinds" in sys.argv[1:]:
        return kinds_table()
    per: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for name, state in _states():
        per[_module(name)][state] += 1
    tot = collections.Counter[str]()
    print("| module | mutants | checked | killed | survived | no test | score | excluded |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for module in sorted(per):
        c = per[module]
        c["excluded"] = excluded(module)
        tot.update(c)
        print(_row(module.replace(".", "/"), c))
    print(_row("**all**", tot))
    return 0


def _row(label: str, c: collections.Counter[str]) -> str:
    killed = sum(c[s] for s in KILLED)
    survived, none = c["survived"], c["no tests"]
    checked = killed + survived + none
    score = f"{killed / (killed + survived):.1%}" if killed + survived else "–"
    mutants = sum(n for state, n in c.items() if state != "excluded")
    return (
        f"| {label} | {mutants:,} | {checked:,} | {killed:,} | {survived:,} | {none:,} | {score} | {c['excluded']:,} |"
    )


if __name__ == "__main__":
    raise SystemExit(main())
