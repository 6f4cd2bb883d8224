"""Regenerate ``docs/benchmarks.md`` in one command: run every benchmark script, each as its
own process, and write their figures with the machine, its load and the versions.

Every figure a script prints is a same-run comparison with its CPU time and the load average
on the same line (``benchmarks/_timing.py``): a median beside a baseline (the floor:
``np.sort`` of the same ratios, a bare interpreter, one hand-picked certified evaluation, a
random fill of the same table, the uncertified accountant) timed in the same process with
interleaved repetitions where the script says so, so that load moves both alike. Where an
anchor is another library, its answer's validity (certified by our enclosures) is printed
beside its speed. The load average before and after each script is recorded with it.

dp_accounting is not a dependency of this project; give ``--dpa-python`` an interpreter that
has it (``python -m venv /tmp/dpa && /tmp/dpa/bin/pip install dp-accounting``) to include the
side-by-side section, which is otherwise run with our column only.

Usage (from the repository root):

    python benchmarks/make_report.py [--dpa-python PATH] [--quick] [--out docs/benchmarks.md]

``--quick`` runs each script with fewer repetitions (a smoke run; the figures are noisier).
"""

from __future__ import annotations

import argparse
import ast
import datetime as dt
import os
import platform
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: (script, arguments, arguments with --quick)
SCRIPTS: list[tuple[str, list[str], list[str]]] = [
    ("bench_measures.py", ["--repeats", "15"], ["--repeats", "5"]),
    ("bench_theorems.py", ["--repeats", "11"], ["--repeats", "3"]),
    ("bench_dp.py", ["--repeats", "5"], ["--repeats", "3"]),
    ("bench_vs_dp_accounting.py", ["--repeats", "3"], ["--repeats", "1", "--max-k", "100000"]),
    ("bench_exact_composition.py", ["--repeats", "5"], ["--repeats", "2"]),
    ("bench_plan.py", ["--repeats", "5"], ["--repeats", "3"]),
    ("bench_estimate.py", ["--repeats", "5"], ["--repeats", "2"]),
    ("bench_enumeration.py", ["--budget", "20"], ["--budget", "8"]),
    ("bench_counterexample.py", [], []),
    ("bench_claims.py", ["--repeats", "3"], ["--repeats", "1"]),
    # the full paper scale is --reps 100 (about 18 min here; docs/performance.md has its figures)
    ("bench_simulate.py", ["--reps", "20", "--workers", "2"], ["--reps", "4", "--workers", "2"]),
]


def _load() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:  # pragma: no cover - not Linux
        return "n/a"


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:  # pragma: no cover
        pass
    return platform.processor() or platform.machine()


def _mem_gib() -> str:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                return f"{int(line.split()[1]) / 2**20:.0f} GiB"
    except OSError:  # pragma: no cover
        pass
    return "n/a"


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "not installed"


def _commit() -> str:
    out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=False)
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True, text=True, check=False
    ).stdout.strip()
    return (out.stdout.strip() or "unknown") + (" (with uncommitted changes)" if dirty else "")


def _docstring(script: Path) -> str:
    doc = ast.get_docstring(ast.parse(script.read_text())) or ""
    return doc.split("\nUsage")[0].strip()


def _as_markdown(output: str) -> list[str]:
    """Markdown tables stay tables; every other run of lines goes in a code block."""
    md: list[str] = []
    block: list[str] = []
    table = False

    def flush() -> None:
        nonlocal block
        if block:
            md.extend(block if table else ["```text", *block, "```"])
            md.append("")
        block = []

    for line in output.rstrip().splitlines():
        is_table = line.startswith("|")
        if not line.strip():
            flush()
            continue
        if block and is_table != table:
            flush()
        table = is_table
        block.append(line)
    flush()
    return md


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--dpa-python", default=None, help="an interpreter with dp_accounting installed, for the side-by-side"
    )
    ap.add_argument("--quick", action="store_true", help="fewer repetitions (a smoke run)")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "benchmarks.md")
    ap.add_argument("--only", nargs="*", default=None, help="run only these scripts")
    ns = ap.parse_args()
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep),
    }
    started, load_start = dt.datetime.now(dt.UTC), _load()
    sections: list[str] = []
    failed: list[str] = []
    for name, args, quick_args in SCRIPTS:
        if ns.only is not None and name not in ns.only:
            continue
        script = ROOT / "benchmarks" / name
        py = ns.dpa_python if (name == "bench_vs_dp_accounting.py" and ns.dpa_python) else sys.executable
        cmd = [py, str(script), *(quick_args if ns.quick else args)]
        shown = " ".join(
            ["python" if py == sys.executable else py, f"benchmarks/{name}", *(quick_args if ns.quick else args)]
        )
        print(f"[benchmarks] {shown}", file=sys.stderr, flush=True)
        load0, t0 = _load(), time.monotonic()
        res = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
        secs, load1 = time.monotonic() - t0, _load()
        if res.returncode != 0:
            failed.append(name)
        sections += [
            f"## `benchmarks/{name}`",
            "",
            _docstring(script),
            "",
            f"Command: `{shown}` ({secs:.0f} s; load average before {load0}, after "
            f"{load1}{'; EXIT ' + str(res.returncode) if res.returncode else ''}).",
            "",
        ]
        sections += _as_markdown(res.stdout)
        if res.returncode != 0:
            sections += ["```text", *res.stderr.strip().splitlines()[-15:], "```", ""]
    head = [
        "# Benchmarks",
        "",
        "Generated by `python benchmarks/make_report.py"
        + (" --quick" if ns.quick else "")
        + "` (do not edit by hand: rerun it). Every figure "
        "below is a median beside a baseline measured in the same run (the floor it is "
        "compared with; interleaved repetitions, or for runs of seconds to minutes one run "
        "each), with its CPU time (process time) and the one-minute load average on the same "
        "line, so the ratios hold on a loaded machine where absolute times do not; "
        "where the baseline is another library, the validity of its answer (certified by our "
        "enclosures) is printed beside its speed. Design notes, what was tried and earlier "
        "figures: [performance notes](performance.md).",
        "",
        "| | |",
        "| --- | --- |",
        f"| date (UTC) | {started:%Y-%m-%d %H:%M} |",
        f"| commit | {_commit()} |",
        f"| load average at the start (1, 5, 15 min) | {load_start} |",
        f"| machine | {_cpu()}, {os.cpu_count()} CPUs, {_mem_gib()}, {platform.machine()} |",
        f"| python | {platform.python_version()} |",
        f"| numpy / scipy / mpmath | {_version('numpy')} / {_version('scipy')} / {_version('mpmath')} |",
        f"| BLAS threads (OPENBLAS_NUM_THREADS) | {os.environ.get('OPENBLAS_NUM_THREADS', 'default')} |",
        f"| dp_accounting interpreter | {ns.dpa_python or 'none (our column only)'} |",
        "",
    ]
    ns.out.write_text("\n".join(head + sections).rstrip() + "\n")
    print(f"[benchmarks] wrote {ns.out}" + (f"; failed: {', '.join(failed)}" if failed else ""), file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
