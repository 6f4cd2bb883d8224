"""Project-level checks: mypy --strict on both packages, ruff, the docs site builds without warnings."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_clean():
    """mypy --strict (pyproject's [tool.mypy]) on both packages."""
    from mypy import api

    out, err, status = api.run(
        ["--config-file", str(ROOT / "pyproject.toml"), str(ROOT / "maxinfo_bounds"), str(ROOT / "proofs_checks")]
    )
    assert status == 0, out + err


RUFF_PATHS = ["maxinfo_bounds", "proofs_checks", "tests", "benchmarks", "tools"]


def test_ruff_clean():
    """ruff (pyproject's [tool.ruff]: pycodestyle, pyflakes, import order, pyupgrade, bugbear,
    simplify, pylint's errors and warnings)."""
    proc = subprocess.run(
        [sys.executable, "-m", "ruff", "check", *RUFF_PATHS], cwd=ROOT, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_ruff_formatted():
    """Every Python file is as ``ruff format`` writes it (pre-commit formats on commit)."""
    proc = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--check", *RUFF_PATHS], cwd=ROOT, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_docs_build_strict(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (tmp_path / "site" / "measures" / "index.html").exists()


def test_public_api_names():
    """The names DESIGN.md promises (all but Thresholdout, which is issue 4's)."""
    import maxinfo_bounds
    import maxinfo_bounds.measures as m

    for name in [
        "hockey_stick",
        "approx_max_divergence",
        "max_divergence",
        "approx_max_information",
        "max_information",
        "mutual_information",
        "kl_divergence",
        "tv_distance",
        "dp_delta",
        "dp_epsilon",
    ]:
        assert callable(getattr(m, name))
    for name in [
        "pvalue_correction",
        "pure_dp_max_information",
        "pure_dp_max_information_product",
        "approx_dp_max_information",
        "description_length_max_information",
        "compose_max_information",
        "mi_to_approx_max_information",
        "approx_max_information_to_mi",
        "mi_pvalue_correction",
        "russo_zou_pvalue_correction",
        "InvalidParameter",
        "RegimeError",
    ]:
        assert hasattr(maxinfo_bounds, name)
    assert issubclass(maxinfo_bounds.InvalidParameter, ValueError)
    assert issubclass(maxinfo_bounds.RegimeError, ValueError)
    assert (ROOT / "maxinfo_bounds" / "py.typed").exists()


def test_public_signatures_have_no_any():
    """Every public function and method of the user-facing modules is typed precisely: no
    ``Any`` in a parameter or return annotation (overloads included)."""
    import inspect
    import typing

    import maxinfo_bounds
    import maxinfo_bounds.measures
    import maxinfo_bounds.planning
    import maxinfo_bounds.theorems.dp_accounting

    bad = []
    for mod in (
        maxinfo_bounds,
        maxinfo_bounds.measures,
        maxinfo_bounds.planning,
        maxinfo_bounds.theorems.dp_accounting,
    ):
        for name in mod.__all__:
            obj = getattr(mod, name)
            funcs = (
                [obj]
                if inspect.isfunction(obj)
                else [f for n, f in vars(obj).items() if inspect.isfunction(f) and not n.startswith("_")]
                if inspect.isclass(obj)
                else []
            )
            for f in funcs:
                sigs = [inspect.signature(o) for o in typing.get_overloads(f)] or [inspect.signature(f)]
                for s in sigs:
                    text = " ".join([str(p.annotation) for p in s.parameters.values()] + [str(s.return_annotation)])
                    if re.search(r"\bAny\b", text):
                        bad.append(f"{mod.__name__}.{name}.{f.__name__}: {s}")
    assert not bad, "\n".join(bad)


def test_import_is_lazy():
    """Importing the calculator, or evaluating a closed form, does not import sympy (statements,
    LaTeX and claims only), scipy.optimize (roots and optimisers, on first use) or
    scipy.special / scipy.stats / statsmodels (issue 17: the CLI's start-up)."""
    code = (
        "import sys, maxinfo_bounds as mb\n"
        "mb.pure_dp_max_information(0.1, 100); mb.pvalue_correction(0.05, 3.0, 1e-3)\n"
        "heavy = ('sympy', 'scipy.optimize', 'scipy.special', 'scipy.stats', 'statsmodels')\n"
        "print([m for m in heavy if m in sys.modules])\n"
        "import maxinfo_bounds.catalog as c; c.get('RRST-1.3').statement_latex()\n"
        "print('sympy' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n")[:2] == ["[]", "True"], out.stdout


def test_plan_command_imports_only_what_it_uses():
    """`maxinfo plan` on the README's example imports neither sympy nor any scipy submodule
    (issue 17: start-up <= 0.3 s of CPU; the root finder and the optimiser are transcribed in
    maxinfo_bounds.search), and the `maxinfo` entry asks for one BLAS thread before numpy is
    imported unless the user set it."""
    code = (
        "import contextlib, io, os, sys\n"
        "from maxinfo_bounds.__main__ import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    rc = main(['plan', 'examples/laplace_queries.toml'])\n"
        "print(rc, sorted(m for m in sys.modules if m.split('.')[0] in ('sympy', 'scipy')),"
        " os.environ['OPENBLAS_NUM_THREADS'])\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "0 [] 1", out.stdout
    env["OPENBLAS_NUM_THREADS"] = "2"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env)
    assert out.stdout.strip() == "0 [] 2", out.stdout


def test_benchmark_report_keeps_tables_and_fences_the_rest():
    """benchmarks/make_report.py (docs/benchmarks.md in one command): a script's markdown
    tables stay tables, its other lines go in code blocks, blank lines separate groups."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from make_report import SCRIPTS, _as_markdown
    finally:
        sys.path.pop(0)
    out = _as_markdown("python 3.11\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\nratio 2.0x\n")
    assert out == [
        "```text",
        "python 3.11",
        "```",
        "",
        "| a | b |",
        "| --- | --- |",
        "| 1 | 2 |",
        "",
        "```text",
        "ratio 2.0x",
        "```",
        "",
    ]
    # every benchmark script is in the report
    listed = {name for name, _, _ in SCRIPTS}
    assert listed == {p.name for p in (ROOT / "benchmarks").glob("bench_*.py")}


def test_planning_compares_no_kinds_as_strings():
    """Step types, stages, routes, curve families and test kinds are classes and enums in the
    planning wing: no comparison of a kind with a string literal is left outside the study-file
    mapping (steps.py and study.py read the file's strings)."""
    pattern = re.compile(
        r"""(\.(kind|type|type_name|test|alternative|family)|\bkind|\bfamily)\s*"""
        r"""(==|!=|\bin\b|\bnot in\b)\s*[\(\[\{]?\s*["']"""
    )
    found = []
    for path in sorted((ROOT / "maxinfo_bounds" / "planning").glob("*.py")):
        if path.name in ("steps.py", "study.py"):
            continue
        for i, line in enumerate(path.read_text().splitlines(), 1):
            if pattern.search(line):
                found.append(f"{path.name}:{i}: {line.strip()}")
    assert not found, "\n".join(found)
    # the check can fail: the pre-typed form of a line it replaced is caught
    assert pattern.search('        if row.kind == "split":')
    assert pattern.search('    if spec.test in ("z", "t"):')


def test_pre_commit_pins_the_ruff_the_tests_use():
    """The pre-commit hook's ruff is the version the test extra pins (else the hook and the
    format check of this suite could format differently)."""
    import tomllib

    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["test"]
    (pin,) = [d for d in deps if d.startswith("ruff")]
    assert pin.startswith("ruff==")
    config = (ROOT / ".pre-commit-config.yaml").read_text()
    assert f"rev: v{pin.removeprefix('ruff==')}\n" in config


def test_core_install_serves_the_planner_only():
    """Issue 43: dask and distributed (the campaigns' scale-out) are the optional [scale] extra
    and statsmodels (a reference of the power tests) is in the test extra; the core install is
    what the calculator and planner import. And the campaign runner imports distributed only
    when given a scheduler."""
    import tomllib

    proj = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    core = {d.split(">")[0].split("=")[0].split("[")[0].strip() for d in proj["dependencies"]}
    assert core == {"numpy", "scipy", "sympy", "mpmath", "matplotlib", "tqdm"}
    extras = proj["optional-dependencies"]
    assert sorted(extras["scale"]) == ["dask>=2024.1", "distributed>=2024.1"]
    assert "maxinfo_bounds[scale]" in extras["test"] and any(d.startswith("statsmodels") for d in extras["test"])
    src = (ROOT / "proofs_checks" / "simulate" / "runner.py").read_text()
    assert "\nimport distributed" not in src and "\nfrom distributed" not in src
