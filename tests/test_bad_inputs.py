"""The bad-input corpus: every case is refused with one clear line, and nothing is written.

CLI cases (``maxinfo`` and ``proofs-checks``, run in-process): exit status 2, exactly one line on
standard error naming the input (``fragment``), nothing on standard output, no file created or
changed in the working directory. API cases: a ``ValueError`` subclass of the package
(:class:`~maxinfo_bounds.numeric.MaxinfoError`) whose one-line message names the parameter.

The expected refusals come from the papers' stated domains (every parameter of every encoded
result is non-negative; NaN is never a number; a study file is UTF-8 TOML), not from the code.
"""

from __future__ import annotations

import contextlib
import io
import os
from pathlib import Path

import pytest

from maxinfo_bounds.cli import main as maxinfo_main
from maxinfo_bounds.numeric import MaxinfoError
from proofs_checks.__main__ import main as pc_main

# a valid argument set of every numeric result of the catalog (hand-picked, inside each
# theorem's conditions); each CLI case below breaks exactly one parameter of one of them
BASE: dict[str, dict[str, str]] = {
    "BW18-8": {"sensitivity": "1", "eps": "1", "delta": "1e-5"},
    "DFHPRR-10": {"i": "1", "budget": "10", "beta-i": "0.01"},
    "DFHPRR-4": {"k": "1", "beta": "0.01", "tau": "0.1", "n": "1000"},
    "DFHPRR-6": {"range-size": "20", "beta": "0.01"},
    "DFHPRR-9": {"tau": "0.1", "m": "100", "budget": "10", "beta": "0.01"},
    "DR-3.10": {"sensitivity": "1", "coefficient": "0.1"},
    "DR-3.16": {"eps": "0.1", "delta": "0", "k": "10"},
    "DR-3.20": {"eps": "0.01", "delta": "0", "k": "100", "delta-prime": "1e-6"},
    "DR-3.25": {"c": "1", "threshold-scale": "10", "query-scale": "20", "sensitivity": "1"},
    "DR-3.6": {"sensitivity": "1", "scale": "10"},
    "DR-3.9": {"sensitivity": "1", "scale": "10"},
    "DR-A.1": {"sensitivity": "1", "eps": "0.5", "delta": "1e-5"},
    "KOV15-3.3": {"eps": "0.01", "delta": "0", "k": "100", "delta-total": "1e-6"},
    "Notes-Thresholdout": {"budget": "10", "sigma": "0.01", "n": "10000"},
    "RRST-1.3": {"alpha": "0.05", "k": "1", "beta": "0.01"},
    "RRST-1.4a": {"eps": "0.01", "n": "100"},
    "RRST-1.4b": {"eps": "0.001", "n": "1000", "beta": "0.01"},
    "RRST-1.5a": {"m": "1", "k": "1"},
    "RRST-1.5b": {"k": "1", "beta": "0.01", "support-size": "100"},
    "RRST-3.1": {"eps": "0.1", "delta": "1e-9", "n": "100"},
    "RRST-B.1": {"n": "100"},
    "RRST-B.2": {"eps": "0.1", "delta": "1e-6", "n": "100000", "sensitivity": "0.001"},
    "RRST-C.2": {"alpha": "0.05", "m": "1"},
    "RRST-C.3": {"alpha": "0.05", "m": "1"},
    "RRST-D.1": {"k": "1", "beta": "0.01", "tau": "0.1", "n": "1000", "sensitivity": "0.001"},
}


def _argv(tid: str, params: dict[str, str]) -> list[str]:
    return ["bound", tid] + [x for k, v in params.items() for x in (f"--{k}", v)]


def _bound_cases() -> list[tuple[list[str], str]]:
    """Per parameter of every result: NaN, a negative value, a word, and the parameter missing."""
    cases = []
    for tid, ps in BASE.items():
        for name in ps:
            py = name.replace("-", "_")
            # integers: argparse refuses "nan" itself (naming --NAME)
            for bad, frag in (
                ("nan", f"{py}=nan|--{name}: invalid int"),
                ("-1", f"{py}=-1"),
                ("abc", f"--{name}: invalid"),
            ):
                cases.append((_argv(tid, {**ps, name: bad}), frag))
            cases.append((_argv(tid, {k: v for k, v in ps.items() if k != name}), f"--{name}"))
    return cases


STUDY = """
[study]
name = "base"
[data]
n = 1000
iid = true
[[steps]]
type = "dp"
eps = 0.01
times = 3
[test]
alpha = 0.05
"""


def _s(old: str, new: str) -> str:
    assert old in STUDY, old
    return STUDY.replace(old, new)


# (study file text or bytes, extra argv, fragment naming the input)
STUDY_CASES: list[tuple[str | bytes, list[str], str]] = [
    (b"\x00\x01\xff\xfe", [], "not a UTF-8 text file"),
    ("name = 'caf\u00e9'".encode("latin-1"), [], "not a UTF-8 text file"),
    ("[data\nn = 1", [], "not valid TOML"),
    ("", [], "missing table [data]"),
    (_s("n = 1000", "n = 0"), [], "data.n"),
    (_s("n = 1000", "n = -5"), [], "data.n"),
    (_s("n = 1000", "n = 1.5"), [], "data.n"),
    (_s("n = 1000", "n = '1000'"), [], "data.n"),
    (_s("n = 1000", "n = 1" + "0" * 400), [], "data.n"),
    (_s("n = 1000", "n = true"), [], "data.n"),
    (_s("n = 1000\n", ""), [], "data.n"),
    (_s("iid = true", "iid = 'yes'"), [], "data.iid"),
    (_s("iid = true", "iid = 1"), [], "data.iid"),
    (_s("iid = true", "iid = true\nrecords = 3"), [], "data.records"),
    (_s("alpha = 0.05", "alpha = 0"), [], "test.alpha"),
    (_s("alpha = 0.05", "alpha = 1"), [], "test.alpha"),
    (_s("alpha = 0.05", "alpha = 1.5"), [], "test.alpha"),
    (_s("alpha = 0.05", "alpha = -0.05"), [], "test.alpha"),
    (_s("alpha = 0.05", "alpha = nan"), [], "test.alpha"),
    (_s("alpha = 0.05", "alpha = inf"), [], "test.alpha"),
    (_s("alpha = 0.05", "alpha = '0.05'"), [], "test.alpha"),
    (_s("alpha = 0.05", "beta = 0.05"), [], "test.alpha"),
    (_s("alpha = 0.05", "alpha = 0.05\npower = 0.8"), [], "test.power"),
    # below 1e-300 the beta split and the threshold underflow (was: numpy warnings, "k=nan")
    (_s("alpha = 0.05", "alpha = 5e-324"), [], "test.alpha"),
    (_s("eps = 0.01", "eps = -0.01"), [], "steps[0].eps"),
    (_s("eps = 0.01", "eps = nan"), [], "steps[0].eps"),
    (_s("eps = 0.01", "eps = inf"), [], "steps[0].eps"),
    (_s("eps = 0.01", "eps = 1" + "0" * 400), [], "steps[0].eps"),  # was an OverflowError
    (_s("eps = 0.01", "eps = 0"), [], "steps[0].eps"),
    (_s("eps = 0.01", "eps = 'small'"), [], "steps[0].eps"),
    (_s("eps = 0.01", "epsilon = 0.01"), [], "steps[0].epsilon"),
    (_s("eps = 0.01", "eps = 0.01\ndelta = 1.5"), [], "steps[0].delta"),
    (_s("eps = 0.01", "eps = 0.01\ndelta = -1e-9"), [], "steps[0].delta"),
    (_s("eps = 0.01", "eps = 0.01\ndelta = 1"), [], "steps[0].delta"),
    (_s("times = 3", "times = 0"), [], "steps[0].times"),
    (_s("times = 3", "times = -2"), [], "steps[0].times"),
    (_s("times = 3", "times = 2.5"), [], "steps[0].times"),
    (_s("times = 3", "times = 10000000000"), [], "steps[0].times"),
    (_s('type = "dp"', 'type = "laplacian"'), [], "steps[0].type"),
    (_s('type = "dp"', "type = 3"), [], "steps[0].type"),
    (
        _s('type = "dp"\neps = 0.01', 'type = "laplace"\nsensitivity = 0.001'),
        [],
        "needs (sensitivity, eps) or (sensitivity, scale)",
    ),
    (
        _s('type = "dp"\neps = 0.01', 'type = "laplace"\nsensitivity = 0.001\nscale = 0.1\neps = 0.5'),
        [],
        "steps[0].scale: given with (sensitivity, eps)",
    ),
    (_s('type = "dp"\neps = 0.01', 'type = "laplace"\nsensitivity = -1\nscale = 0.1'), [], "steps[0].sensitivity"),
    (
        _s('type = "dp"\neps = 0.01', 'type = "gaussian"\nsensitivity = 1\nsigma = 1'),
        [],
        "needs (sensitivity, sigma, delta)",
    ),
    (_s('type = "dp"\neps = 0.01', 'type = "gaussian"\nsensitivity = 1\nsigma = 1\ndelta = 0'), [], "steps[0].delta"),
    (
        _s('type = "dp"\neps = 0.01', 'type = "gaussian"\nsensitivity = 1\nsigma = 1\ndelta = 1e-6\neps = 1'),
        [],
        "steps[0].eps",
    ),
    (_s('type = "dp"\neps = 0.01', 'type = "exponential"\neps = 0.1\ncoefficient = 2'), [], "steps[0].coefficient"),
    (_s('type = "dp"\neps = 0.01', 'type = "exponential"\neps = 0.1\nmonotone = "yes"'), [], "steps[0].monotone"),
    (_s('type = "dp"\neps = 0.01', 'type = "description"\nrange_size = 0'), [], "steps[0].range_size"),
    (_s('type = "dp"\neps = 0.01', 'type = "description"\nrange_size = 2.5'), [], "steps[0].range_size"),
    (_s('type = "dp"\neps = 0.01', 'type = "mutual_information"\nmi_bits = -1'), [], "steps[0].mi_bits"),
    (_s('type = "dp"\neps = 0.01', 'type = "sparse_vector"\nc = 0\neps = 0.1'), [], "steps[0].c"),
    (_s('type = "dp"\neps = 0.01', 'type = "thresholdout"\nbudget = 10'), [], "needs (budget, sigma)"),
    (_s('type = "dp"\neps = 0.01', 'type = "thresholdout"\nbudget = 10\nsigma = 0.01\nholdout_n = 5'), [], "holdout_n"),
    (_s('[[steps]]\ntype = "dp"\neps = 0.01\ntimes = 3\n', ""), [], "steps"),
    (_s("[[steps]]", "[steps]"), [], "steps"),
    (_s('name = "base"', 'name = "base"\nfamily_size = 0'), [], "study.family_size"),
    (_s('name = "base"', 'name = "base"\nowner = "me"'), [], "study.owner"),
    (STUDY + "[extra]\nx = 1\n", [], "extra"),
    (STUDY + "[power]\ntest = 'z'\n", [], "power.effect_size"),
    (STUDY + "[power]\ntest = 'f'\neffect_size = 0.2\n", [], "power.test"),
    (STUDY + "[power]\ntest = 'z'\neffect_size = 0\n", [], "power.effect_size"),
    (STUDY + "[power]\ntest = 'z'\neffect_size = 0.2\ntarget = 1.5\n", [], "power.target"),
    # a power target at or below alpha is met by a test that ignores the data
    (STUDY + "[power]\ntest = 'z'\neffect_size = 0.2\ntarget = 0.01\n", [], "power.target"),
    (STUDY + "[power]\ntest = 'z'\neffect_size = 0.2\nalternative = 'up'\n", [], "power.alternative"),
    (STUDY + "[power]\ntest = 'z'\neffect_size = -0.2\nalternative = 'larger'\n", [], "power.effect_size"),
    (STUDY + "[power]\ntest = 'proportion'\neffect_size = 0.1\n", [], "power.p0"),
    (STUDY + "[power]\ntest = 'proportion'\neffect_size = 0.6\np0 = 0.5\n", [], "power.effect_size"),
    (STUDY + "[power]\ntest = 't'\neffect_size = 0.2\np0 = 0.5\n", [], "power.p0"),
    (STUDY + "[power]\ntest = 'z'\neffect_size = 0.2\nsplit_fraction = 1\n", [], "power.split_fraction"),
    (STUDY + "[power]\ntest = 'z'\neffect_size = 0.2\nsize = 3\n", [], "power.size"),
    # command-line options against a valid study
    (STUDY, ["--sweep", "n=10:1e400"], "sweep"),
    (STUDY, ["--sweep", "n=0:100"], "sweep"),
    (STUDY, ["--sweep", "n=100:10"], "sweep"),
    (STUDY, ["--sweep", "n=10:100:1"], "sweep"),
    (STUDY, ["--sweep", "n=10:100:20000"], "sweep"),
    (STUDY, ["--sweep", "n=10"], "sweep"),
    (STUDY, ["--sweep", "n=a:b"], "sweep"),
    (STUDY, ["--sweep", "10:100"], "sweep"),
    (STUDY, ["--sweep", "nosuch=1:2"], "nosuch"),
    (STUDY, ["--sweep", "steps[3].eps=0.1:1"], "steps[3].eps"),
    (STUDY, ["--sweep", "steps[0].sigma=0.1:1"], "sigma"),
    (STUDY, ["--sweep", "n=10:100", "--plot", "nodir/x.png"], "plot"),
    (STUDY, ["--sweep", "n=10:100", "--plot", "x.txt"], "plot"),
    (STUDY, ["--sweep", "eps=100:1000"], "vacuous"),
    (STUDY, ["--plot", "x.png"], "plot"),
    (STUDY, ["--workers", "2"], "workers"),
    (STUDY, ["--sweep", "n=10:100", "--workers", "0"], "workers"),
    (STUDY, ["--sweep", "n=10:100", "--workers", "two"], "workers"),
    (STUDY, ["--solve", "alpha"], "target_gamma"),
    (STUDY, ["--target-gamma", "0.01"], "target_gamma"),
    (STUDY, ["--solve", "foo", "--target-gamma", "0.01"], "foo"),
    (STUDY, ["--solve", "n", "--target-gamma", "0"], "target_gamma"),
    (STUDY, ["--solve", "n", "--target-gamma", "1.5"], "target_gamma"),
    (STUDY, ["--solve", "n", "--target-gamma", "nan"], "target_gamma"),
    (STUDY, ["--solve", "eps", "--target-gamma", "0.9"], "target-gamma"),
    (STUDY, ["--solve", "n", "--sweep", "n=10:100", "--target-gamma", "0.01"], "sweep"),
    (STUDY, ["--power-curve", "x.png"], "power"),
    (STUDY, ["--power-curve", "x.txt"], "power_curve"),
    (STUDY, ["--power-curve", "nodir/x.png"], "power_curve"),
    (STUDY, ["--bogus"], "unrecognized arguments: --bogus"),
    # a repeated option is refused by name (it was silently the last value)
    (STUDY, ["--json", "--json"], "--json"),
    (STUDY, ["--sweep", "n=10:100", "--sweep", "n=10:200"], "--sweep"),
    # an integer parameter swept between non-integers (was truncated silently)
    (STUDY, ["--sweep", "times=1.5:3.5:3"], "sweep"),
    # an output file that cannot be written is refused before any work (was: the plan, then a
    # traceback)
    (STUDY + "[power]\ntest = 'z'\neffect_size = 0.2\n", ["--power-curve", "/proc/x.png"], "power_curve"),
    (STUDY, ["--sweep", "n=10:100", "--plot", "/proc/x.png"], "plot"),
]

OTHER_CLI: list[tuple[list[str], str]] = [
    ([], "required: command"),
    (["nosuch"], "invalid choice"),
    (["plan"], "study"),
    (["plan", "missing.toml"], "file not found"),
    (["plan", "."], "is a directory"),
    (["pvalue", "--alpha", "1.5", "--k", "1", "--beta", "0"], "alpha=1.5"),
    (["pvalue", "--alpha", "0.05", "--k", "-1", "--beta", "0"], "k=-1"),
    (["pvalue", "--alpha", "0.05", "--k", "1", "--beta", "2"], "beta=2"),
    (["pvalue", "--alpha", "0.05", "--k", "1"], "--beta"),
    (["pvalue", "--alpha", "0.05", "--k", "1", "--beta", "0", "--foo"], "--foo"),
    (["description", "--range-size", "0", "--beta", "0.1"], "range_size=0"),
    (["description", "--range-size", "2.5", "--beta", "0.1"], "--range-size"),
    (["description", "--range-size", "10", "--beta", "0"], "beta=0"),
    (["example", "--alpha", "0"], "alpha=0"),
    (["example", "--alpha", "2"], "alpha=2"),
    (["example", "--range-size", "0"], "range_size=0"),
    (["explain", "NOPE"], "NOPE"),
    (["explain"], "id"),
    (["bound", "NOPE", "--x", "1"], "NOPE"),
    (["bound", "RRST-A.3"], "RRST-A.3"),
    (["bound", "RRST-1.3", "--alpha", "0.05", "--k", "1", "--beta", "0.01", "--gamma", "2"], "--gamma"),
    (["bound", "RRST-3.1", "--eps", "0.6", "--delta", "1e-9", "--n", "100"], "eps=0.6"),
    (["bound", "RRST-3.1", "--eps", "0.1", "--delta", "0.2", "--n", "100"], "delta"),
    (["bound", "RRST-B.2", "--eps", "0.1", "--delta", "1e-6", "--n", "10", "--sensitivity", "0.001"], "n"),
    (["bound", "KOV15-3.3", "--eps", "0.01", "--delta", "1e-3", "--k", "100", "--delta-total", "1e-6"], "delta_total"),
    (["bound", "DFHPRR-9", "--tau", "0.1", "--m", "10", "--budget", "100", "--beta", "0.1"], "budget"),
    (["solve", "eps", "--alpha", "0.05", "--n", "100"], "target_gamma"),
    (["solve", "eps", "--target-gamma", "0.01", "--n", "100"], "alpha"),
    (["solve", "k", "--alpha", "0.05", "--target-gamma", "0.01"], "beta"),
    (["solve", "n", "--alpha", "0.05", "--target-gamma", "0.01"], "eps"),
    (["solve", "eps", "--alpha", "0.05", "--target-gamma", "0.1", "--n", "100"], "target_gamma"),
    (["solve", "eps", "--alpha", "1.5", "--target-gamma", "0.01", "--n", "100"], "alpha"),
    (["solve", "x"], "invalid choice"),
    (["correct", "--alpha", "0.05", "--eps", "-1", "--n", "10"], "eps=-1"),
    (["correct", "--alpha", "0.05", "--eps", "0.1"], "n"),
    (["correct", "--alpha", "0.05", "--eps", "0.1", "--n", "0"], "n=0"),
    (["correct", "--alpha", "0.05", "--eps", "0.1", "--n", "10", "--delta", "2"], "delta=2"),
    (["correct", "--alpha", "0.05", "--mi-bits", "-1"], "mi_bits=-1"),
    (["correct", "--alpha", "0.05", "--range-size", "0"], "range_size=0"),
    # --iid matters only with --eps (was silently ignored)
    (["correct", "--alpha", "0.05", "--iid", "--range-size", "20"], "iid"),
    (["pvalue", "--alpha", "0.05", "--alpha", "0.1", "--k", "1", "--beta", "0"], "--alpha"),
    (["bound", "RRST-1.3", "--alpha", "0.05", "--k", "1", "--k", "2", "--beta", "0.01"], "--k"),
    (["correct", "--alpha", "0.05"], "missing a guarantee"),
    (["correct", "--alpha", "nan", "--range-size", "10"], "alpha=nan"),
    (
        ["plot", "RRST-1.3", "--vary", "k", "--range", "1:10", "--alpha", "0.05", "--beta", "0.01", "--out", "f.txt"],
        "out",
    ),
    (
        [
            "plot",
            "RRST-1.3",
            "--vary",
            "k",
            "--range",
            "1:10",
            "--alpha",
            "0.05",
            "--beta",
            "0.01",
            "--out",
            "nodir/f.png",
        ],
        "out",
    ),
    (["plot", "RRST-1.3", "--vary", "k", "--range", "10:1", "--alpha", "0.05", "--beta", "0.01"], "range"),
    (["plot", "RRST-1.3", "--vary", "k", "--range", "1-10", "--alpha", "0.05", "--beta", "0.01"], "range"),
    (["plot", "RRST-1.3", "--vary", "gamma", "--range", "1:10", "--alpha", "0.05", "--beta", "0.01"], "vary"),
    (["plot", "RRST-1.3", "--vary", "k", "--range", "1:10", "--alpha", "0.05"], "--beta"),
    (
        ["plot", "RRST-1.3", "--vary", "k", "--range", "1:10", "--points", "1", "--alpha", "0.05", "--beta", "0.01"],
        "points",
    ),
    (["plot", "RRST-1.3", "--vary", "k", "--range", "0:10", "--log-x", "--alpha", "0.05", "--beta", "0.01"], "range"),
    (["plot", "RRST-A.3", "--vary", "bounds", "--range", "1:2"], "RRST-A.3"),
]

PC_CLI: list[tuple[list[str], str]] = [
    (["run"], "campaign"),
    (["run", "nosuch"], "invalid choice"),
    (["run", "measures", "--trials", "0"], "--trials=0"),
    (["run", "measures", "--max-n", "0"], "max_n=0"),
    (["run", "measures", "--max-n", "99"], "max_n=99"),
    (["run", "measures", "--out", "afile"], "--out"),
    (["run", "claims", "--json", "."], "--json"),
    (["run", "claims", "--json", "afile/x.json"], "--json"),
    (["run", "simulate", "--reps", "1"], "--reps=1"),
    (["run", "simulate", "--workers", "0"], "--workers=0"),
    (["run", "fuzz", "--points", "0"], "--points=0"),
    (["run", "simulate", "--selection-reps", "0"], "--selection-reps=0"),
    (["run", "measures", "--trials", "x"], "--trials"),
]


def _run(main, argv: list[str], cwd: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    before = {p: p.stat().st_mtime_ns for p in cwd.rglob("*")}
    old = os.getcwd()
    os.chdir(cwd)
    try:
        try:
            rc = main(argv)
        except SystemExit as exc:
            rc = exc.code if isinstance(exc.code, int) else 1
    finally:
        os.chdir(old)
    out, err = capsys.readouterr()
    after = {p: p.stat().st_mtime_ns for p in cwd.rglob("*")}
    assert after == before, f"files written on refusal: {set(after) ^ set(before)}"
    return rc, out, err


def _assert_refused(rc: int, out: str, err: str, fragment: str) -> None:
    lines = err.strip().splitlines()
    assert rc == 2, (rc, out, err)
    assert len(lines) == 1, err
    assert any(f.lower() in lines[0].lower() for f in fragment.split("|")), (fragment, lines[0])
    assert out == "" and "Traceback" not in err


BOUND_CASES = _bound_cases()


@pytest.mark.parametrize("argv, fragment", BOUND_CASES, ids=[" ".join(a[1:3]) + " " + f for a, f in BOUND_CASES])
def test_bound_refusals(argv, fragment, tmp_path, capsys):
    _assert_refused(*_run(maxinfo_main, argv, tmp_path, capsys), fragment)


@pytest.mark.parametrize("text, extra, fragment", STUDY_CASES)
def test_plan_refusals(text, extra, fragment, tmp_path, capsys):
    p = tmp_path / "study.toml"
    if isinstance(text, bytes):
        p.write_bytes(text)
    else:
        p.write_text(text)
    _assert_refused(*_run(maxinfo_main, ["plan", "study.toml", *extra], tmp_path, capsys), fragment)


@pytest.mark.parametrize("argv, fragment", OTHER_CLI)
def test_other_cli_refusals(argv, fragment, tmp_path, capsys):
    _assert_refused(*_run(maxinfo_main, argv, tmp_path, capsys), fragment)


@pytest.mark.parametrize("argv, fragment", PC_CLI)
def test_proofs_checks_refusals(argv, fragment, tmp_path, capsys):
    (tmp_path / "afile").write_text("x")
    _assert_refused(*_run(pc_main, argv, tmp_path, capsys), fragment)


def test_the_corpus_is_as_large_as_promised():
    assert len(BOUND_CASES) + len(STUDY_CASES) + len(OTHER_CLI) + len(PC_CLI) >= 150
    assert len(API_CASES) >= 60


# ------------------------------------------------------------------------------------------
# API
# ------------------------------------------------------------------------------------------


def _api_cases() -> list[tuple[str, object, str]]:
    from fractions import Fraction

    import numpy as np

    import maxinfo_bounds as mb
    from maxinfo_bounds import measures as ms
    from maxinfo_bounds import planning as pl
    from maxinfo_bounds.planning import GenericDP, Study, plan
    from maxinfo_bounds.theorems import dp_accounting as da
    from maxinfo_bounds.theorems import holdout as ho

    G = mb.DPGuarantee
    cases: list[tuple[str, object, str]] = [
        ("DPGuarantee eps<0", lambda: G(-1, 0, "x"), "eps"),
        ("DPGuarantee eps nan", lambda: G(float("nan"), 0, "x"), "eps"),
        ("DPGuarantee delta 2", lambda: G(0.1, 2, "x"), "delta"),
        ("DPGuarantee delta<0", lambda: G(0.1, -0.5, "x"), "delta"),
        ("DPGuarantee delta nan", lambda: G(0.1, float("nan"), "x"), "delta"),
        ("pvalue alpha>1", lambda: mb.pvalue_correction(1.5, 1, 0.01), "alpha"),
        ("pvalue alpha nan", lambda: mb.pvalue_correction(float("nan"), 1, 0.01), "alpha"),
        ("pvalue k<0", lambda: mb.pvalue_correction(0.05, -1, 0.01), "k"),
        ("pvalue k nan", lambda: mb.pvalue_correction(0.05, float("nan"), 0.01), "k"),
        ("pvalue beta>1", lambda: mb.pvalue_correction(0.05, 1, 1.5), "beta"),
        ("pvalue beta<0", lambda: mb.pvalue_correction(0.05, 1, -0.1), "beta"),
        ("pvalue alpha str", lambda: mb.pvalue_correction("0.05", 1, 0.01), "alpha"),
        ("pvalue alpha None", lambda: mb.pvalue_correction(None, 1, 0.01), "alpha"),
        ("pure eps<0", lambda: mb.pure_dp_max_information(-0.1, 10), "eps"),
        ("pure eps nan", lambda: mb.pure_dp_max_information(float("nan"), 10), "eps"),
        ("pure n=0", lambda: mb.pure_dp_max_information(0.1, 0), "n"),
        ("pure n=2.5", lambda: mb.pure_dp_max_information(0.1, 2.5), "n"),
        ("pure n bool", lambda: mb.pure_dp_max_information(0.1, True), "n"),
        ("product beta=0", lambda: mb.pure_dp_max_information_product(0.1, 10, 0.0), "beta"),
        ("product beta=1", lambda: mb.pure_dp_max_information_product(0.1, 10, 1.0), "beta"),
        ("product eps inf", lambda: mb.pure_dp_max_information_product(float("inf"), 10, 0.1), "eps"),
        ("approx eps>1/2", lambda: mb.approx_dp_max_information(0.6, 1e-9, 100), "eps"),
        ("approx delta>=eps", lambda: mb.approx_dp_max_information(0.1, 0.2, 100), "delta"),
        ("approx delta=0", lambda: mb.approx_dp_max_information(0.1, 0.0, 100), "delta"),
        ("approx n=0", lambda: mb.approx_dp_max_information(0.1, 1e-9, 0), "n"),
        ("dp_max_information delta<0", lambda: mb.dp_max_information(G(0.1, 0.0, "x"), 0), "n"),
        (
            "dp_max_information beta>1, iid",
            lambda: mb.dp_max_information(G(0.1, 0.0, "x"), 100, iid=True, beta=5.0),
            "beta",
        ),
        (
            "dp_max_information beta>1, not iid",
            lambda: mb.dp_max_information(G(0.1, 0.0, "x"), 100, iid=False, beta=5.0),
            "beta",
        ),
        ("description range 0", lambda: mb.description_length_max_information(0, 0.1), "range_size"),
        ("description beta 0", lambda: mb.description_length_max_information(10, 0.0), "beta"),
        ("description beta 2", lambda: mb.description_length_max_information(10, 2.0), "beta"),
        ("compose empty", lambda: mb.compose_max_information([]), "bounds"),
        ("compose not bounds", lambda: mb.compose_max_information([1, 2]), "bounds"),
        ("mi alpha>1", lambda: mb.mi_pvalue_correction(1.5, 1.0), "alpha"),
        ("mi m<0", lambda: mb.mi_pvalue_correction(0.05, -1.0), "m"),
        ("mi m nan", lambda: mb.mi_pvalue_correction(0.05, float("nan")), "m"),
        ("russo-zou alpha<0", lambda: mb.russo_zou_pvalue_correction(-0.1, 1.0), "alpha"),
        ("russo-zou alpha>1", lambda: mb.russo_zou_pvalue_correction(1.5, 1.0), "alpha"),
        ("russo-zou alpha>1, m=0", lambda: mb.russo_zou_pvalue_correction(1.0000001, 0.0), "alpha"),
        ("mi->maxinfo k<=0", lambda: mb.mi_to_approx_max_information(1.0, 0.0), "k"),
        ("maxinfo->mi beta 2", lambda: mb.approx_max_information_to_mi(1.0, 2.0, 10), "beta"),
        ("maxinfo->mi support 0", lambda: mb.approx_max_information_to_mi(1.0, 0.01, 0), "support_size"),
        ("approx mi eps<0", lambda: mb.approx_dp_mutual_information(-1.0, 1e-6, 100, 2), "eps"),
        ("correct alpha 0", lambda: mb.correct(0.0, range_size=10), "alpha"),
        ("correct eps<0", lambda: mb.correct(0.05, eps=-1, delta=1e-6, n=10), "eps"),
        ("correct eps no n", lambda: mb.correct(0.05, eps=0.1), "n"),
        ("correct nothing", lambda: mb.correct(0.05), "missing a guarantee"),
        ("correct range 0", lambda: mb.correct(0.05, range_size=0), "range_size"),
        ("correct mi<0", lambda: mb.correct(0.05, mi_bits=-1.0), "mi_bits"),
        ("hoeffding tau 0", lambda: mb.hoeffding_transfer(1.0, 0.01, 0.0, 100), "tau"),
        ("hoeffding n 0", lambda: mb.hoeffding_transfer(1.0, 0.01, 0.1, 0), "n"),
        ("mcdiarmid sens<0", lambda: mb.mcdiarmid_transfer(1.0, 0.01, 0.1, 100, -1.0), "sensitivity"),
        ("laplace scale 0", lambda: da.laplace_epsilon(1.0, 0.0), "scale"),
        ("laplace sens nan", lambda: da.laplace_epsilon(float("nan"), 1.0), "sensitivity"),
        ("gaussian delta 0", lambda: da.gaussian_epsilon(1.0, 1.0, 0.0), "delta"),
        ("gaussian sigma tiny", lambda: da.gaussian_epsilon(1e-12, 1e-5, 1e-9), "sigma"),
        ("analytic sigma eps 0", lambda: da.analytic_gaussian_sigma(1.0, 0.0, 1e-5), "eps"),
        ("kov delta_total small", lambda: da.optimal_composition(0.01, 1e-3, 100, 1e-6), "delta_total"),
        ("kov k 0", lambda: da.optimal_composition(0.01, 0.0, 0, 1e-6), "k"),
        ("thresholdout budget 0", lambda: ho.thresholdout_dp(0, 0.01, 100), "budget"),
        (
            "Thresholdout threshold<0",
            lambda: mb.Thresholdout([0.0], [0.0], threshold=-1.0, sigma=0.1, budget=1, rng=0),
            "threshold",
        ),
        ("max divergence unnormalised", lambda: ms.approx_max_divergence([0.5, 0.6], [0.5, 0.5], 0.0), "p"),
        ("max divergence beta 2", lambda: ms.approx_max_divergence([0.5, 0.5], [0.5, 0.5], 2.0), "beta"),
        ("max divergence nan", lambda: ms.approx_max_divergence([float("nan"), 1.0], [0.5, 0.5], 0.0), "p"),
        ("max divergence negative", lambda: ms.approx_max_divergence([-0.5, 1.5], [0.5, 0.5], 0.0), "p"),
        ("log ratio tail k nan", lambda: ms.log_ratio_tail([[0.25, 0.25], [0.25, 0.25]], float("nan")), "k"),
        ("log ratio tail k str", lambda: ms.log_ratio_tail([[0.25, 0.25], [0.25, 0.25]], "x"), "k"),
        ("plan: n 0", lambda: plan(Study(n=0, iid=True, alpha=0.05, steps=(GenericDP(eps=0.1),))), "n"),
    ]
    # the planning wing's typed model: every value validated at construction (each of these
    # crashed with KeyError / IndexError / TypeError, or was silently accepted)
    dp = GenericDP(eps=0.1)

    def power_plan() -> object:
        return pl.plan_power(
            Study(n=100, alpha=0.05, steps=(pl.Description(range_size=4),), power=pl.PowerSpec("z", 0.5))
        )

    cases += [
        ("plan: no steps", lambda: plan(Study(n=10, alpha=0.05, steps=())), "steps"),
        ("plan: a step that is not a step", lambda: Study(n=10, alpha=0.05, steps=(1,)), "steps[0]"),
        ("plan: not a study", lambda: plan("study.toml"), "study"),
        ("plan_power: not a study", lambda: pl.plan_power(None), "study"),
        ("step type misspelled", lambda: pl.step_from_mapping({"type": "lapalce", "eps": 0.1}), "lapalce"),
        ("step key misspelled", lambda: pl.step_from_mapping({"type": "dp", "epsilon": 0.1}), "epsilon"),
        ("laplace without eps or scale", lambda: pl.Laplace(sensitivity=1e-3), "needs"),
        ("laplace with both forms", lambda: pl.Laplace(sensitivity=1, eps=0.1, scale=1.0), "scale"),
        ("step base class", lambda: pl.Step(), "Step"),
        ("step times 0", lambda: GenericDP(eps=0.1, times=0), "times"),
        ("step eps a string", lambda: GenericDP(eps="0.1"), "eps"),
        ("step eps a Fraction (not a float)", lambda: GenericDP(eps=Fraction(1, 3)), "eps"),
        ("step eps a longdouble", lambda: GenericDP(eps=np.longdouble(1) / 3), "eps"),
        ("gaussian delta 0", lambda: pl.Gaussian(sensitivity=1, sigma=1, delta=0.0), "delta"),
        ("gaussian sigma 1e-300 (was OverflowError)", lambda: da.gaussian_epsilon(1e-300, 1.0, 1e-6), "sigma"),
        ("study alpha a string", lambda: Study(n=10, alpha="0.05", steps=(dp,)), "alpha"),
        ("study alpha subnormal", lambda: Study(n=10, alpha=5e-324, steps=(dp,)), "alpha"),
        ("study iid a string (was planned as i.i.d.)", lambda: Study(n=10, alpha=0.05, iid="no", steps=(dp,)), "iid"),
        ("study family_size 0", lambda: Study(n=10, alpha=0.05, family_size=0, steps=(dp,)), "family_size"),
        ("study n a float", lambda: Study(n=10.0, alpha=0.05, steps=(dp,)), "n"),
        (
            "study holdout_n mismatch",
            lambda: Study(n=10, alpha=0.05, steps=(pl.Thresholdout(budget=1, sigma=1.0, holdout_n=5),)),
            "holdout_n",
        ),
        (
            "power target at or below alpha",
            lambda: Study(n=10, alpha=0.05, steps=(dp,), power=pl.PowerSpec("z", 0.1, target=0.01)),
            "target",
        ),
        ("power effect_size None", lambda: pl.PowerSpec("z", None), "effect_size"),
        ("power test unknown", lambda: pl.PowerSpec("f", 0.2), "test"),
        ("power_at gamma 2 (was 1.0)", lambda: pl.power_at(pl.PowerSpec("z", 0.1), 2.0, 100), "gamma"),
        ("power_at n -5 (was 0.0)", lambda: pl.power_at(pl.PowerSpec("z", 0.1), 0.05, -5), "n"),
        ("load_study not a path", lambda: pl.load_study(123), "path"),
        ("power_curve to a .txt", lambda: pl.power_curve(power_plan(), "x.txt"), "path"),
        ("correct iid without eps (was ignored)", lambda: mb.correct(0.05, iid=True, range_size=20), "iid"),
        ("correct alpha subnormal", lambda: mb.correct(5e-324, range_size=20), "alpha"),
    ]
    return cases


API_CASES = _api_cases()


@pytest.mark.parametrize("name, call, fragment", API_CASES, ids=[c[0] for c in API_CASES])
def test_api_refusals(name, call, fragment):
    with pytest.raises(MaxinfoError) as info, contextlib.redirect_stdout(io.StringIO()):
        call()
    assert isinstance(info.value, ValueError)
    msg = str(info.value)
    assert "\n" not in msg and fragment.lower() in msg.lower(), msg
