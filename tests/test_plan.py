"""The study planner: examples end to end (API and CLI) against hand computations from the
theorems, routing, refusal of invalid orderings, inverse solves, bad input."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

import mpmath
import pytest

from maxinfo_bounds import InvalidParameter
from maxinfo_bounds.cli import main
from maxinfo_bounds.planning import (
    Description,
    Gaussian,
    GenericDP,
    Laplace,
    MutualInformation,
    NoValidRoute,
    PlanError,
    ReportNoisyMax,
    SparseVector,
    Study,
    load_study,
    parse_study,
    plan,
    plan_power,
    routes,
    solve,
    sweep,
    with_param,
)
from maxinfo_bounds.planning.accountants import best_composition
from maxinfo_bounds.planning.routes import gamma_upper_bound
from maxinfo_bounds.planning.stages import stages_of
from maxinfo_bounds.theorems.maxinfo_dp import approx_dp_max_information_implied
from maxinfo_bounds.theorems.pvalues import mi_pvalue_correction, russo_zou_pvalue_correction

from .cli_helpers import assert_one_line_error

EX = Path(__file__).resolve().parents[1] / "examples"


def _gamma_14b_reference(alpha: float, eps: F, n: int) -> mpmath.mpf:
    """max over beta of (alpha - beta) 2^-k(beta), k = log2(e)(eps^2 n/2 + eps sqrt(n ln(2/beta)/2))
    (RRST Thm 1.4b then Thm 1.3), also against Thm 1.4a's k = log2(e) eps n at beta = 0; by a
    50-digit golden-section search on log beta, written independently of the planner."""
    with mpmath.workdps(50):
        a = mpmath.mpf(alpha)
        e = mpmath.mpf(eps.numerator) / eps.denominator

        def g(lb):
            b = mpmath.exp(lb)
            k = (e * e * n / 2 + e * mpmath.sqrt(n * mpmath.log(2 / b) / 2)) / mpmath.log(2)
            return (a - b) * mpmath.power(2, -k)

        lo, hi = mpmath.log(a) - 80, mpmath.log(a) - mpmath.mpf(10) ** -30
        phi = (mpmath.sqrt(5) - 1) / 2
        for _ in range(300):
            m1, m2 = hi - phi * (hi - lo), lo + phi * (hi - lo)
            if g(m1) < g(m2):
                lo = m1
            else:
                hi = m2
        best = g((lo + hi) / 2)
        any_data = a * mpmath.power(2, -e * n / mpmath.log(2))
        return max(best, any_data)


def _check_gamma(got: float, ref: mpmath.mpf) -> None:
    assert mpmath.mpf(got) <= ref, (got, ref)  # never above the theorem's optimum
    assert mpmath.mpf(got) >= ref * (1 - mpmath.mpf(10) ** -6), (got, ref)  # near it


@pytest.mark.parametrize(
    "name, alpha, eps, n",
    [
        ("laplace_queries", 0.05, 100 * F(1e-6) / F(0.1), 10**6),
        ("dp_feature_selection", 0.05, 5 * F(0.001), 10**5),
        ("thresholdout_model_search", 0.05, 2 * 10 / (F(0.01) * 10**6), 10**6),
    ],
)
def test_dp_examples_against_hand(name, alpha, eps, n, capsys):
    study = load_study(EX / f"{name}.toml")
    r = plan(study)
    ref = _gamma_14b_reference(alpha, eps, n)
    _check_gamma(r.gamma, ref)
    assert r.route == "max-information composition"
    assert "RRST-1.4b" in {t for c in r.chain for t in c.theorems}
    # the CLI gives the same numbers
    assert main(["plan", str(EX / f"{name}.toml"), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)["reuse_plan"]
    assert d["gamma"] == r.gamma and d["k_bits"] == r.k and d["route"] == r.route
    assert d["chain"][-1]["theorems"] == ["RRST-1.3"]


def test_select_one_of_1000_against_hand(capsys):
    r = plan(load_study(EX / "select_one_of_1000.toml"))
    exact = F(1, 20) ** 2 / 4000  # DFHPRR Thm 6 at beta = alpha/2: alpha^2 / (4 |Y|)
    assert F(r.gamma) <= exact and r.gamma >= float(exact) * (1 - 1e-12)
    assert r.beta == pytest.approx(0.025, rel=1e-6)
    pp = plan_power(load_study(EX / "select_one_of_1000.toml"))
    bonf = {c.name: c.threshold for c in pp.rows}
    assert bonf["Bonferroni over the declared family of 1000"] == 5e-05  # alpha / 1000, hand
    # the recommendation is the valid route with the largest threshold: Bonferroni, not reuse
    assert pp.recommended.name == "Bonferroni over the declared family of 1000"
    assert main(["plan", str(EX / "select_one_of_1000.toml")]) == 0
    out = capsys.readouterr().out
    assert "DFHPRR-6" in out and "RRST-1.3" in out and "sample splitting" in out


def test_refused_example():
    """Reuse is refused (RRST §4: approximate DP after a description), but the data are i.i.d.,
    so sample splitting is valid: the plan recommends it and says why reuse is refused (exit 0)."""
    path = str(EX / "refused_description_then_approx_dp.toml")
    proc = subprocess.run([sys.executable, "-m", "maxinfo_bounds.cli", "plan", path], capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    assert "recommended: sample splitting (test on 0.5 of the records)" in proc.stdout
    assert "test at p <= 0.05 on 50000 records" in proc.stdout
    assert "adaptive reuse: no valid route:" in proc.stdout and "RRST §4" in proc.stdout
    with pytest.raises(NoValidRoute, match=r"steps\[1\] is approximate DP.*follows steps\[0\] \(description\)"):
        plan(load_study(path))


NOT_IID_APPROX_DP = """
[study]
name = "approximate DP on clustered data"
[data]
n = 10000
iid = false
[[steps]]
type = "gaussian"
sensitivity = 1e-4
sigma = 0.01
delta = 1e-9
times = 10
[test]
alpha = 0.05
"""


@pytest.mark.parametrize("power", ["", "[power]\ntest = 'z'\neffect_size = 0.1\n"])
def test_no_valid_route_is_a_result(tmp_path, power):
    """Approximate DP on data not known to be i.i.d.: no route is valid (RRST §4; splitting
    needs independent halves). The planner returns a result that says so, route by route; the
    CLI prints the report, one line on stderr, and exits 2; --json has the same schema."""
    f = tmp_path / "s.toml"
    f.write_text(NOT_IID_APPROX_DP + power)
    pp = plan_power(load_study(f))
    assert pp.recommended is None
    assert "not i.i.d" in pp.no_valid_route and "sample splitting: not valid" in pp.no_valid_route
    assert all(not r.valid for r in pp.rows)
    proc = subprocess.run([sys.executable, "-m", "maxinfo_bounds.cli", "plan", str(f)], capture_output=True, text=True)
    assert proc.returncode == 2
    assert "no valid analysis" in proc.stdout and "Traceback" not in proc.stderr
    (line,) = proc.stderr.strip().splitlines()
    assert "no valid route" in line and "not i.i.d" in line
    proc = subprocess.run(
        [sys.executable, "-m", "maxinfo_bounds.cli", "plan", str(f), "--json"], capture_output=True, text=True
    )
    assert proc.returncode == 2
    d = json.loads(proc.stdout)
    assert d["recommended"] is None and "not i.i.d" in d["no_valid_route"]
    assert [r["valid"] for r in d["routes"]] == [False, False]
    assert isinstance(d["usable_if"], list) and d["vacuous"].startswith("no valid route")


def _study(*steps, iid=True, n=100_000, alpha=0.05):
    return Study(n=n, iid=iid, alpha=alpha, steps=tuple(steps))


def test_routing_merges_and_reroutes():
    # pure DP then approximate DP, i.i.d.: one DP stage (valid, RRST 3.1 as the first stage)
    s = _study(GenericDP(eps=0.01), GenericDP(eps=0.01, delta=1e-30), n=1000)
    r = plan(s)
    assert "RRST-3.1" in {t for c in r.chain for t in c.theorems} and r.gamma > 0
    # same without i.i.d. data: refused with the reason
    with pytest.raises(PlanError, match="not i.i.d"):
        plan(_study(GenericDP(eps=0.01), GenericDP(eps=0.01, delta=1e-30), n=1000, iid=False))
    # approximate DP first, then a description: valid (3.1 first, then DFHPRR 6)
    r = plan(_study(GenericDP(eps=0.01, delta=1e-30), Description(range_size=4), n=1000))
    ids = [t for c in r.chain for t in c.theorems]
    assert ids.index("RRST-3.1") < ids.index("DFHPRR-6")
    # a description then pure DP: the DP stage is not first, so RRST 1.4a (any data), not 1.4b
    r = plan(_study(Description(range_size=4), GenericDP(eps=1e-6)))
    ids = {t for c in r.chain for t in c.theorems}
    assert "RRST-1.4a" in ids and "RRST-1.4b" not in ids
    # consecutive descriptions merge: range 10 * 10^2 = 1000, the same as one 1000-way choice
    r2 = plan(_study(Description(range_size=10), Description(range_size=10, times=2)))
    r1 = plan(_study(Description(range_size=1000)))
    assert r2.gamma == r1.gamma


def test_mutual_information_route():
    s = _study(MutualInformation(mi_bits=0.001), alpha=0.05)
    r = plan(s)
    mi = mi_pvalue_correction(0.05, 0.001)
    assert r.gamma >= mi and max(g for _, g, _ in r.candidates if g is not None) == r.gamma
    # two MI steps: the chain rule adds them
    r2 = plan(_study(MutualInformation(mi_bits=0.001, times=2)))
    cand = dict((n, g) for n, g, _ in r2.candidates)
    # at 0.002 bits Russo-Zou (RRST Thm C.3) beats Cor C.2 (the crossover is at 0.0105 bits)
    assert cand["mutual information"] == russo_zou_pvalue_correction(0.05, 0.002) > mi_pvalue_correction(0.05, 0.002)


def test_plan_never_exceeds_alpha_and_sample_split_row():
    r = plan(_study(Laplace(sensitivity=1e-5, eps=1e-4, times=10)))
    assert 0 <= r.gamma < 0.05
    rows = {c.kind: c for c in plan_power(_study(Laplace(sensitivity=1e-5, eps=1e-4, times=10))).rows}
    assert rows["split"].test_records == 50000 and "50000 fresh ones" in rows["split"].note
    assert not rows["naive"].valid


def _fixed_sensitivity(path: Path, tmp: Path) -> Path:
    """The example with its mean queries written at a fixed sensitivity 1e-6 (the sensitivity
    then does not follow n)."""
    out = tmp / path.name
    out.write_text(path.read_text().replace("value_min = 0.0\nvalue_max = 1.0", "sensitivity = 1e-6"))
    return out


def test_inverse_solves_round_trip(tmp_path):
    mean = load_study(EX / "laplace_queries.toml")
    study = load_study(_fixed_sensitivity(EX / "laplace_queries.toml", tmp_path))
    t = 1e-3
    # mean queries (sensitivity 1/n): RRST Thm 1.4b's k falls as n grows, so gamma rises
    v, r, direction = solve(mean, "n", t)
    assert direction == "smallest" and r.gamma >= t and plan(with_param(mean, "n", v - 1)).gamma < t
    v, r, _ = solve(study, "times", t)
    assert r.gamma >= t
    assert plan(with_param(study, "times", v + 1)).gamma < t
    v, r, direction = solve(study, "n", t)  # fixed per-query eps: gamma falls as n grows
    assert direction == "largest" and r.gamma >= t and plan(with_param(study, "n", v + 1)).gamma < t
    th = load_study(EX / "thresholdout_model_search.toml")
    v, r, direction = solve(th, "n", t)  # Thresholdout: eps = 2B/(sigma n) shrinks
    assert direction == "smallest" and r.gamma >= t and plan(with_param(th, "n", v - 1)).gamma < t
    v, r, _ = solve(study, "scale", t)  # smallest noise scale meeting the target
    assert r.gamma >= t and plan(with_param(study, "scale", v * (1 - 1e-6))).gamma < t
    s2 = load_study(EX / "dp_feature_selection.toml")
    v, r, _ = solve(s2, "eps", t)
    assert r.gamma >= t and plan(with_param(s2, "eps", v * (1 + 1e-6))).gamma < t
    with pytest.raises(PlanError, match="not met"):
        solve(study, "times", 0.049)


def test_sweep_cli(tmp_path, capsys):
    out = tmp_path / "sweep.png"
    assert main(["plan", str(EX / "laplace_queries.toml"), "--sweep", "times=1:40", "--plot", str(out), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    gs = [p["gamma"] for p in d["points"]]
    assert len(gs) == 40 and gs == sorted(gs, reverse=True) and out.stat().st_size > 1000
    rows = sweep(load_study(EX / "laplace_queries.toml"), "times", [1, 100])
    assert rows[0][1] > rows[1][1]
    assert main(["plan", str(EX / "laplace_queries.toml"), "--solve", "times", "--target-gamma", "1e-3", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["gamma_at_value"] >= 1e-3 and d["direction"] == "largest"


def test_parallel_sweep_gives_the_serial_rows():
    """A sweep of PARALLEL_MIN_POINTS or more points on two processes returns the rows one
    process gives, in order (gamma = alpha^2/(4|Y|) of a description step, by hand)."""
    from maxinfo_bounds.planning.explore import PARALLEL_MIN_POINTS

    s = Study(n=1000, iid=False, alpha=0.05, steps=(Description(range_size=10),))
    values = [float(v) for v in range(10, PARALLEL_MIN_POINTS + 11)]
    par = sweep(s, "range_size", values, workers=2)
    assert par == sweep(s, "range_size", values, workers=1)
    assert [v for v, _, _ in par] == values
    for v, g, _ in par:
        assert g == pytest.approx(0.05**2 / (4 * v), rel=1e-12, abs=0) and g <= 0.05**2 / (4 * v)


@pytest.mark.parametrize("workers", [0, -1, 1.5, True, "2"])
def test_sweep_workers_refused_by_name(workers):
    s = Study(n=1000, iid=False, alpha=0.05, steps=(Description(range_size=10),))
    with pytest.raises(InvalidParameter, match="workers"):
        sweep(s, "range_size", [10.0, 20.0], workers=workers)


BAD = [
    ("[data]\nn = 10\n[[steps]]\ntype = 'magic'\n[test]\nalpha = 0.05\n", "steps[0].type"),
    ("[data]\nn = 10\n[[steps]]\ntype = 'dp'\neps = 0.1\ncolour = 1\n[test]\nalpha = 0.05\n", "steps[0].colour"),
    ("[data]\niid = true\n[[steps]]\ntype = 'dp'\neps = 0.1\n[test]\nalpha = 0.05\n", "data.n"),
    ("[data]\nn = 10\n[[steps]]\ntype = 'dp'\neps = -1.0\n[test]\nalpha = 0.05\n", "steps[0].eps"),
    ("[data]\nn = 10\n[[steps]]\ntype = 'dp'\neps = 'big'\n[test]\nalpha = 0.05\n", "steps[0].eps"),
    ("[data]\nn = 10\n[[steps]]\ntype = 'dp'\neps = 0.1\n[test]\nalpha = 1.5\n", "test.alpha"),
    ("[data]\nn = 10\n[[steps]]\ntype = 'dp'\neps = 0.1\ntimes = 0\n[test]\nalpha = 0.05\n", "steps[0].times"),
    ("[data]\nn = 10\n[[steps]]\ntype = 'laplace'\neps = 0.1\n[test]\nalpha = 0.05\n", "needs (sensitivity, eps)"),
    ("[data]\nn = 10\n[test]\nalpha = 0.05\n", "steps"),
    ("[data\nn = 10\n", "not valid TOML"),
    ("[data]\nn = 10\n[[steps]]\ntype = 'dp'\neps = 0.1\n[test]\nalpha = 0.05\n[extra]\n", "extra"),
]


def _error_in_process(argv, fragment, capsys):
    """main(argv) returns 2 and prints one stderr line containing fragment, no stdout."""
    assert main(argv) == 2
    cap = capsys.readouterr()
    lines = cap.err.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0] and not cap.out, cap.err


@pytest.mark.parametrize("text, fragment", BAD, ids=[f for _, f in BAD])
def test_bad_study_files(tmp_path, text, fragment, capsys):
    p = tmp_path / "study.toml"
    p.write_text(text)
    _error_in_process(["plan", str(p)], fragment, capsys)
    _error_in_process(["plan", str(p)], str(p), capsys)


def test_bad_study_file_subprocess(tmp_path):
    """The console path: one line on stderr, status 2, no traceback."""
    p = tmp_path / "study.toml"
    p.write_text(BAD[0][0])
    assert_one_line_error("maxinfo_bounds.cli", ["plan", str(p)], "steps[0].type")


def test_missing_file_and_bad_flags(tmp_path, capsys):
    ex = str(EX / "laplace_queries.toml")
    _error_in_process(["plan", str(tmp_path / "nope.toml")], "file not found", capsys)
    _error_in_process(["plan", ex, "--sweep", "times"], "PARAM=LO:HI", capsys)
    _error_in_process(["plan", ex, "--solve", "times"], "target_gamma", capsys)
    _error_in_process(["plan", ex, "--sweep", "colour=1:3"], "colour", capsys)


def test_parse_study_api():
    s = parse_study(
        {"data": {"n": 100, "iid": True}, "test": {"alpha": 0.05}, "steps": [{"type": "description", "range_size": 8}]}
    )
    assert s.n == 100 and s.steps[0].params == {"range_size": 8}
    with pytest.raises(PlanError, match="data.iid"):
        parse_study(
            {
                "data": {"n": 100, "iid": "yes"},
                "test": {"alpha": 0.05},
                "steps": [{"type": "description", "range_size": 8}],
            }
        )


def test_every_cited_id_is_in_the_catalog():
    """The derivation a user cites names catalog entries (`maxinfo explain ID` works for each)."""
    from maxinfo_bounds.catalog import entries

    ids = {e.id for e in entries()} | {"given", "entropy"}
    studies = [load_study(p) for p in EX.glob("*.toml") if not p.name.startswith("refused")]
    studies.append(_study(Description(range_size=4), GenericDP(eps=1e-6), MutualInformation(mi_bits=0.01)))
    studies.append(
        _study(
            ReportNoisyMax(sensitivity=1.0, scale=1e4),
            Gaussian(sensitivity=1e-5, sigma=1e-3, delta=1e-30),
            SparseVector(c=2, eps=1e-4),
            n=1000,
        )
    )
    for s in studies:
        for link in plan(s).chain:
            assert set(link.theorems) <= ids, link


def test_huge_description_refused_before_allocating():
    with pytest.raises(PlanError, match="more than 100000 bits"):
        plan(_study(Description(range_size=1000, times=10**9)))


def test_thm31_beta_floor_used_to_skip_routes_holds_on_a_grid():
    """The planner skips an RRST Thm 3.1 route when 2 n sqrt(delta) >= alpha (hand: beta >=
    n max(d', d'') >= n (d' + d'')/2 >= n (2 delta/dh + 2 dh)/2 >= 2 n sqrt(delta)). Check the
    floor against the calculator's certified beta on a grid of every free choice (eps', t,
    delta_hat, both variants): never below it. (A floor above some reachable beta would make
    the planner refuse a valid route.)"""
    import numpy as np

    from maxinfo_bounds.numeric import MaxinfoError
    from maxinfo_bounds.theorems.maxinfo_dp import approx_dp_max_information

    for n, delta in [(1, 1e-3), (100, 1e-8), (10**5, 1e-20)]:
        floor = 2 * n * delta**0.5
        lowest = math.inf
        for e in (2 * delta, 0.01, 0.2, 0.5):
            for dh in np.geomspace(delta, 0.3, 40):
                for variant in ("sound", "paper"):
                    try:
                        b = approx_dp_max_information(e, delta, n, t=60.0, delta_hat=float(dh), variant=variant).beta
                    except MaxinfoError:
                        continue  # outside the variant's regime at this choice
                    lowest = min(lowest, b)
        # hand: at eps' = 1/2 the min over delta_hat of d' + d'' is about 2 sqrt(2 * 2.574 delta)
        # = 4.54 sqrt(delta), so the floor is within a factor ~2.3 of what is reachable
        assert floor <= lowest < 2.5 * floor, (n, delta, lowest)


def test_route_skipped_by_the_delta_floor_says_why(capsys):
    # laplace_queries: n = 10^6, alpha = 0.05: at delta = 1e-12, 2 n sqrt(delta) = 2 >= 0.05
    assert main(["plan", "examples/laplace_queries.toml"]) == 0
    assert (
        "DP first stage at delta=1e-12 (RRST-3.1): unavailable (delta too large for "
        "n = 1000000: RRST Thm 3.1's beta >= 2 n sqrt(delta) = 2 >= alpha)" in capsys.readouterr().out
    )


# --- the typed planning model (issue 40) -----------------------------------------------------


def test_solve_with_a_power_table_reports_the_power_there(capsys, tmp_path):
    """--solve on a study with [power] keeps the table: the power of the test at the threshold
    reached, on the solved n (it was silently dropped)."""
    from maxinfo_bounds.planning import power_at

    path = _fixed_sensitivity(EX / "power_reuse_beats_splitting.toml", tmp_path)
    assert main(["plan", str(path), "--solve", "n", "--target-gamma", "1e-3", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    study = load_study(path)
    assert d["direction"] == "largest" and d["gamma_at_value"] >= 1e-3
    assert d["power_at_value"] == power_at(study.power, d["gamma_at_value"], d["value"])
    assert "on 2368553 records" in d["power_note"] or str(d["value"]) in d["power_note"]


def test_thresholdout_holdout_n_follows_a_sweep_over_n(tmp_path):
    """A Thresholdout step whose holdout_n is the study's n follows n in a sweep (every row
    failed with a mismatch the sweep itself created); its rows equal those of the same study
    written without holdout_n."""
    text = (EX / "thresholdout_model_search.toml").read_text()
    with_n = tmp_path / "with.toml"
    with_n.write_text(text.replace('label = "model search', 'holdout_n = 1000000\nlabel = "model search'))
    a = sweep(load_study(with_n), "n", [1000, 10**5, 10**7])
    b = sweep(load_study(EX / "thresholdout_model_search.toml"), "n", [1000, 10**5, 10**7])
    assert [p.gamma for p in a] == [p.gamma for p in b]
    assert all(p.gamma is not None for p in a)


def test_a_step_reuse_cannot_evaluate_leaves_the_other_routes(tmp_path):
    """sigma = 1e-300 on a Gaussian step (an OverflowError inside mpmath's normal tail): reuse is
    refused naming sigma; sample splitting (i.i.d. data) is still planned, exit 0."""
    f = tmp_path / "g.toml"
    f.write_text(
        "[data]\nn = 1000\niid = true\n[[steps]]\ntype = 'gaussian'\nsensitivity = 1.0\n"
        "sigma = 1e-300\ndelta = 1e-6\n[test]\nalpha = 0.05\n"
    )
    pp = plan_power(load_study(f))
    assert pp.recommended is not None and pp.recommended.name.startswith("sample splitting")
    assert "sigma=1e-300 is invalid" in pp.reuse_refusal


def test_python_study_and_study_file_are_one_model():
    """A Study built in Python and the same study read from a file plan identically (one
    validator, one model); the file only adds labels."""
    doc = {
        "data": {"n": 10_000, "iid": True},
        "test": {"alpha": 0.05},
        "steps": [
            {"type": "laplace", "sensitivity": 1e-4, "scale": 0.5, "times": 20},
            {"type": "gaussian", "sensitivity": 1e-4, "sigma": 0.01, "delta": 1e-20},
            {"type": "description", "range_size": 20},
        ],
    }
    from_file = parse_study(doc, "s.toml")
    built = Study(
        n=10_000,
        iid=True,
        alpha=0.05,
        name="s",
        source="s.toml",
        steps=(
            Laplace.from_scale(1e-4, 0.5, times=20),
            Gaussian.from_sigma(1e-4, 0.01, 1e-20),
            Description(range_size=20),
        ),
    )
    assert [type(s) for s in from_file.steps] == [type(s) for s in built.steps]
    assert [s.params for s in from_file.steps] == [s.params for s in built.steps]
    a, b = plan(from_file), plan(built)
    assert (a.gamma, a.k, a.beta, a.route) == (b.gamma, b.k, b.beta, b.route)


_STEPS = [
    GenericDP(eps=0.01),
    GenericDP(eps=0.005, delta=1e-14),
    Laplace(sensitivity=1e-3, eps=0.02),
    Gaussian(sensitivity=1e-4, sigma=0.01, delta=1e-9),
    Description(range_size=20),
    MutualInformation(mi_bits=0.5),
    ReportNoisyMax(eps=0.01),
    SparseVector(c=2, eps=0.05),
]


@pytest.mark.parametrize("seed", range(6))
def test_no_study_ends_in_a_traceback(seed):
    """Random studies (every step family, i.i.d. or not, with and without a declared family
    and a z-test power table): plan_power always returns a plan; where nothing is valid it says
    so (recommended None, each route's reason), never an exception."""
    import numpy as np

    from maxinfo_bounds.planning import PowerSpec

    rng = np.random.default_rng(seed)
    for _ in range(4):
        steps = tuple(
            _STEPS[int(i)].with_value("times", int(rng.choice([1, 5, 50])))
            for i in rng.integers(0, len(_STEPS), int(rng.integers(1, 4)))
        )
        study = Study(
            n=int(rng.choice([300, 10_000, 10**6])),
            iid=bool(rng.integers(2)),
            alpha=0.05,
            steps=steps,
            family_size=int(rng.choice([10, 1000])) if rng.random() < 0.3 else None,
            power=PowerSpec("z", 0.2) if rng.random() < 0.3 else None,
        )
        pp = plan_power(study)
        valid = [r for r in pp.rows if r.valid]
        assert (pp.recommended is None) == (not valid)
        if pp.recommended is None:
            assert pp.no_valid_route.startswith("no valid route")
            assert not study.iid and study.family_size is None


def test_each_form_of_a_step_has_its_constructor():
    """The 'eps or noise scale' forms as constructors, equal to the keyword forms (and to the
    study file's tables), each validated the same way."""
    from maxinfo_bounds.planning import Exponential, step_from_mapping

    pairs = [
        (Laplace.from_eps(1e-3, 0.1), {"type": "laplace", "sensitivity": 1e-3, "eps": 0.1}),
        (Laplace.from_scale(1e-3, 0.5, times=3), {"type": "laplace", "sensitivity": 1e-3, "scale": 0.5, "times": 3}),
        (Gaussian.from_sigma(1e-3, 0.5, 1e-9), {"type": "gaussian", "sensitivity": 1e-3, "sigma": 0.5, "delta": 1e-9}),
        (Gaussian.from_eps(1.0, 0.5, 1e-9), {"type": "gaussian", "sensitivity": 1.0, "eps": 0.5, "delta": 1e-9}),
        (Exponential.from_eps(0.2), {"type": "exponential", "eps": 0.2}),
        (
            Exponential.from_coefficient(1e-3, 2.0, monotone=True),
            {"type": "exponential", "sensitivity": 1e-3, "coefficient": 2.0, "monotone": True},
        ),
        (ReportNoisyMax.from_eps(0.2), {"type": "report_noisy_max", "eps": 0.2}),
        (
            ReportNoisyMax.from_scale(1.0, 10.0),
            {"type": "report_noisy_max", "sensitivity": 1.0, "scale": 10.0, "monotone": False},
        ),
        (SparseVector.from_eps(2, 0.1), {"type": "sparse_vector", "c": 2, "eps": 0.1}),
        (
            SparseVector.from_scales(1, 20.0, 40.0, delta=1e-12),
            {"type": "sparse_vector", "c": 1, "threshold_scale": 20.0, "query_scale": 40.0, "delta": 1e-12},
        ),
    ]
    for built, table in pairs:
        assert built == step_from_mapping(table), table
    with pytest.raises(PlanError, match="scale: -1.0 is invalid"):
        ReportNoisyMax.from_scale(1.0, -1.0)


@pytest.mark.parametrize(
    ("sigma", "times", "best_j"),
    [
        (1.0, 100, -176),  # a grid point: delta = 1e-22
        (0.3, 30, -170),  # between grid points: delta = 10^(-170/8) = 5.62e-22
    ],
)
def test_refined_total_delta_is_the_best_of_its_neighbours(sigma, times, best_j):
    """A Gaussian stage's total delta, searched on the fine set 10^(j/8) by a golden section on
    a float score, is the best of the 25 fine points around it by the certified route itself:
    each point's composition (the planner's best accountant) planned in full, brute force."""
    st = Study(n=10**6, alpha=0.05, iid=True, steps=(Gaussian.from_sigma(1e-6, sigma, 1e-12, times=times),))
    p = plan(st)
    stages = stages_of(st)
    s0 = stages[0]
    gammas = {}
    for j in range(best_j - 12, best_j + 13):
        comp = best_composition(s0.runs, 10 ** (j / 8), s0.count <= routes.TIGHT_MAX_RUNS)
        if comp is None or not 0 < comp[0].eps <= 0.5:
            continue
        out = routes._maxinfo_route(st, stages, comp[0], comp[1], "brute force")
        if isinstance(out, routes.PlanResult):
            gammas[j] = out.gamma
    j_max = max(gammas, key=gammas.__getitem__)
    assert j_max == best_j and p.gamma == gammas[j_max]
    shown = float(p.route.split("delta=")[1].split(")")[0])  # 6 digits, rounded up
    assert 10 ** (best_j / 8) <= shown <= 10 ** (best_j / 8) * (1 + 1e-5)


def test_refinement_search_scores_few_points_and_keeps_only_better_ones(monkeypatch):
    """_refined_total_deltas on the 100-query Gaussian stage of the test above (sigma = 0.3,
    30 steps): the coarse grid's best point is 1e-22, whose neighbours are 1e-24 and 1e-20, so
    the fine window is 10^(j/8) for j in (-192, -160), 30 points off the grid. The golden-section
    search must return at most two of them, each strictly between the neighbours, off the grid,
    scored at its own eps and better than the best grid point by more than 1e-3 bits, the best
    of them the brute-force best of the whole window; and it must score far fewer points than
    the window holds (a scan of the window would be the same answer at twice the cost)."""
    st = Study(n=10**6, alpha=0.05, iid=True, steps=(Gaussian.from_sigma(1e-6, 0.3, 1e-12, times=30),))
    s0 = stages_of(st)[0]
    eps_of = routes._eps_estimator(s0, s0.count <= routes.TIGHT_MAX_RUNS)
    grid = sorted(x for x in routes.EXACT_DELTA_GRID + routes.DELTA_GRID if x < 0.5)
    coarse = [(routes._rank_score(st, eps_of(dt), dt), dt, None) for dt in grid if eps_of(dt) is not None]
    best = min(coarse)[1]
    assert best == 1e-22
    finals = routes._REFINE_BETAS + routes._EDGE_BETAS

    def final(j):
        dt = 10 ** (j / 8)
        return routes._rank_score(st, eps_of(dt), dt, finals, 96)

    window = [j for j in range(-191, -160) if j != -176]
    brute = min(window, key=final)
    calls = []
    real = routes._rank_score
    monkeypatch.setattr(routes, "_rank_score", lambda *a, **k: calls.append(a[2]) or real(*a, **k))
    out = routes._refined_total_deltas(st, eps_of, coarse)
    monkeypatch.undo()
    assert 1 <= len(out) <= 2 and [o[0] for o in out] == sorted(o[0] for o in out)
    bar = final(-176) - 1e-3
    for sc, dt, chosen in out:
        j = round(8 * math.log10(dt))
        assert chosen is None and j in window and dt == 10 ** (j / 8)
        assert sc == final(j) < bar
    assert round(8 * math.log10(out[0][1])) == brute
    assert len(calls) <= 20 < len(window)


def test_no_valid_route_names_the_file_and_every_reason():
    """An approximate-DP step after a description step (RRST section 4): the error names the
    study file, then each route's reason joined by "; ", and keeps the routes as candidates."""
    path = "examples/refused_description_then_approx_dp.toml"
    with pytest.raises(NoValidRoute) as info:
        plan(load_study(path))
    e = info.value
    first = (
        "max-information composition: steps[1] is approximate DP: RRST Thm 3.1 bounds its max-information "
        "only for i.i.d. data and as the first stage (RRST §4, Thm 4.1), but it follows steps[0] "
        "(description), whose output the analysis conditions on"
    )
    second = "mutual information: an approximate-DP stage has no mutual-information bound here"
    assert str(e) == f"{path}: no valid route: {first}; {second}"
    assert e.name == path and e.reasons == f"{first}; {second}"
    routes_tried = [("max-information composition", None), ("mutual information", None)]
    assert [(c.route, c.gamma) for c in e.candidates] == routes_tried


def _thm31_k_floor(n, alpha, eps):
    """RRST Thm 3.1's k at composed eps is at least n c (e^{6 eps} - 1) + c t sqrt(n), c = 6 eps
    log2 e and t >= sqrt(2 ln(1/alpha)) (beta >= e^{-t^2/2} below alpha), written from the theorem."""
    mp = mpmath.MPContext()
    mp.dps = 30
    e = mp.mpf(eps)
    c = 6 * e / mp.log(2)
    return float(n * c * mp.expm1(6 * e) + c * mp.sqrt(2 * mp.log(1 / mp.mpf(alpha))) * mp.sqrt(n))


@pytest.mark.parametrize(("n", "eps", "alpha"), [(10**4, 0.01, 0.05), (10**6, 1e-3, 0.01), (100, 0.2, 0.05)])
def test_thm31_k_floor_by_hand_and_below_every_certified_k(n, eps, alpha):
    """The pruning floor n c (e^(6 eps) - 1) + c sqrt(2 ln(1/alpha)) sqrt(n), c = 6 eps log2(e),
    at 30 digits; and no certified RRST Thm 3.1 bound at that eps (any delta < eps, any beta <
    alpha) is below it, which is what makes pruning by it a proof."""
    st = Study(n=n, iid=True, alpha=alpha, steps=(GenericDP(eps=eps),))
    assert routes._k_floor(st, eps) == pytest.approx(_thm31_k_floor(n, alpha, eps), rel=1e-12, abs=0)
    checked = 0
    for delta in (1e-30, 1e-12, eps / 10):
        for beta in (alpha / 10, alpha / 2, alpha * 0.99):
            try:
                k = approx_dp_max_information_implied(eps, delta, n, beta).k
            except ValueError:  # no point of Thm 3.1 reaches this beta
                continue
            checked += 1
            assert k >= routes._k_floor(st, eps)
    assert checked >= 2


def test_a_stage_composed_beyond_thm31_says_why_word_for_word():
    """Ten (0.1, 1e-9)-DP steps compose (basic composition, hand) to (1, 1e-8)-DP: beyond RRST
    Thm 3.1's eps <= 1/2, so the max-information route refuses with the stage's step range."""
    st = Study(n=10**5, iid=True, alpha=0.05, steps=tuple(GenericDP(eps=0.1, delta=1e-9) for _ in range(10)))
    with pytest.raises(NoValidRoute) as info:
        plan(st)
    notes = {c.route: c.note for c in info.value.candidates}
    assert notes["max-information composition"] == (
        "steps[0..9] compose to (1, 1e-08)-DP: RRST Thm 3.1 needs eps <= 1/2 "
        "(fewer runs, more noise, or a smaller per-step eps)"
    )


def test_a_thm31_stage_whose_beta_floor_exceeds_alpha_is_refused_with_its_delta_limit() -> None:
    """(0.01, 1e-6)-DP on 1000 records: RRST Thm 3.1's beta is at least 4 n sqrt(delta/(3 eps'))
    > alpha. The refusal names the largest delta that could pass, 3 eps' alpha^2/(16 n^2) at
    eps' = 1/2: 1.5 * 0.05^2 / (16 * 10^6) = 2.34375e-10, printed to 2 digits."""
    st = Study(n=1000, iid=True, alpha=0.05, steps=(GenericDP(eps=0.01, delta=1e-6),))
    with pytest.raises(NoValidRoute) as e:
        plan(st)
    assert str(e.value) == (
        "<study>: no valid route: max-information composition: steps[0..0] are (0.01, 1e-06)-DP on "
        "n = 1000 records: RRST Thm 3.1's beta is at least 4 n sqrt(delta/(3 eps')), so delta must be "
        "below about 3 eps' alpha^2/(16 n^2) for some eps' <= 1/2 (here: delta < 2.3e-10 at alpha = 0.05); "
        "mutual information: an approximate-DP stage has no mutual-information bound here"
    )


def test_where_thm_14a_beats_14b_the_plan_certifies_14a() -> None:
    """One record, eps = 1e-3 pure DP, i.i.d.: Thm 1.4a's k = eps log2(e) bits is below 1.4b's
    eps^2/2 + eps sqrt(ln(2/beta)/2) nats at every beta < 2/e^2, so the plan takes beta = 0 and
    gamma = alpha e^-eps = 0.049950024991668750..., rounded down (at most one float below)."""
    p = plan(Study(n=1, iid=True, alpha=0.05, steps=(GenericDP(eps=1e-3),)))
    with mpmath.workdps(40):
        true = mpmath.mpf(0.05) * mpmath.exp(-mpmath.mpf(1e-3))
    assert p.gamma <= true and p.gamma >= true * (1 - 2.0**-50)


def test_gamma_upper_bound_of_a_non_iid_pure_stage_is_thm_14a_s_supremum() -> None:
    """Not i.i.d.: Thm 1.4a alone, k = eps n log2(e) whatever beta, so the supremum over beta of
    (alpha - beta) 2^-k is alpha e^(-eps n) = 0.05 e^-2 = 0.0067667641618306...; the bound the
    required-n search uses encloses it within 1e-8 (eps taken 1e-9 relative lower) and the plan."""
    st = Study(n=2000, iid=False, alpha=0.05, steps=(GenericDP(eps=1e-3),))
    with mpmath.workdps(40):
        true = mpmath.mpf(0.05) * mpmath.exp(-mpmath.mpf(1e-3) * 2000)
    u = gamma_upper_bound(st)
    assert true <= u <= true * (1 + 1e-8)
    assert plan(st).gamma <= true


def test_plan_result_as_dict_field_by_field():
    """The JSON view of a plan built by hand: every field under its documented key, the chain's
    links and the candidates in order, tuples as lists."""
    from maxinfo_bounds.planning.routes import Candidate, PlanResult
    from maxinfo_bounds.planning.stages import Link

    links = (
        Link("stage 1", ("RRST-1.4a",), "eps = 0.1, n = 100", "k = 14.4 bits", ("n >= 1",), (("k", 14.4),)),
        Link("compose", ("RRST-A.3",), "k1 + k2", "k = 20 bits"),
    )
    cands = (Candidate("one stage", 0.001, ""), Candidate("split", None, "needs more records"))
    r = PlanResult("a study", 0.05, 0.0004, 20.0, 0.01, "one stage", links, cands, ("a note",))
    assert r.as_dict() == {
        "study": "a study",
        "alpha": 0.05,
        "gamma": 0.0004,
        "k_bits": 20.0,
        "beta": 0.01,
        "route": "one stage",
        "chain": [
            {
                "what": "stage 1",
                "theorems": ["RRST-1.4a"],
                "inputs": "eps = 0.1, n = 100",
                "output": "k = 14.4 bits",
                "conditions": ["n >= 1"],
                "values": {"k": 14.4},
            },
            {
                "what": "compose",
                "theorems": ["RRST-A.3"],
                "inputs": "k1 + k2",
                "output": "k = 20 bits",
                "conditions": [],
                "values": {},
            },
        ],
        "candidates": [
            {"route": "one stage", "gamma": 0.001, "note": ""},
            {"route": "split", "gamma": None, "note": "needs more records"},
        ],
        "notes": ["a note"],
    }
    assert json.loads(json.dumps(r.as_dict())) == r.as_dict()


@pytest.mark.parametrize(
    ("n", "eps0", "delta0", "runs"), [(20_000, 0.01, 1e-16, 50), (5_000, 0.02, 1e-15, 20), (100_000, 0.003, 1e-18, 300)]
)
def test_continuous_total_delta_against_a_brute_force_grid(n, eps0, delta0, runs):
    """The tight route's total delta for equal (eps0, delta0)-DP runs: the continuous search's
    score (RRST Thm 3.1's float score at KOV's eps for that total delta) is at most the best of
    1,001 log-spaced totals in the allowed interval (above what the runs use, below (alpha/2n)^2,
    where Thm 3.1's beta >= 2 n sqrt(delta) still leaves room below alpha), and the total it
    returns lies strictly inside that interval (at n = 5,000 the best is its lower end)."""
    from maxinfo_bounds.planning import GenericDP
    from maxinfo_bounds.planning import routes as R

    study = Study(n=n, alpha=0.05, iid=True, steps=(GenericDP(eps=eps0, delta=delta0, times=runs),))
    s0 = stages_of(study)[0]
    floor = runs * F(delta0)
    score, total = R._continuous_total_delta(study, s0, floor, True, (eps0, delta0))
    lo, hi = float(floor) * (1 + 2.0**-20), (0.05 / (2 * n)) ** 2

    def brute(x):
        e = R.kov_eps_float(eps0, delta0, runs, math.exp(x))
        return R._rank_score(study, e, math.exp(x)) if 0 < e <= R.THM31_EPS_MAX else math.inf

    best = min(brute(math.log(lo) + (math.log(hi) - math.log(lo)) * i / 1000) for i in range(1001))
    assert score <= best * (1 + 1e-9) and score == pytest.approx(brute(math.log(total)), rel=1e-12)
    assert float(floor) < total < hi


def _kov_pure_eps(eps0, k, delta):
    """The eps at which KOV15's exact curve of k runs of (eps0, 0)-DP reaches delta (the fuzz
    references, 50 digits)."""
    from proofs_checks.fuzz import references as R

    return float(R.run(R.kov_eps, R.exact(eps0), R.exact(0.0), k, R.exact(delta)))


def test_thm31_routes_pruned_by_their_k_floor_are_listed_with_it():
    """RRST Thm 3.1 at a total delta is skipped, and listed with its reason, when its k floor
    (at KOV15's exact eps of the first stage, less 0.1 % for the float estimate) cannot beat the
    best route found (alpha 2^-k below gamma) or cannot give any positive threshold (k beyond
    1075 + log2 alpha bits: alpha 2^-k underflows); at 1e-12 (n = 10^6) or 1e-20 (n = 10^9) the
    delta itself is too large (beta >= 2 n sqrt(delta) >= alpha). Hand values: KOV15's curve at 50
    digits, Thm 3.1's floor at 30."""
    study = load_study(EX / "laplace_queries.toml")  # 100 runs of (1e-5, 0)-DP, n = 10^6, alpha 0.05
    r = plan(study)
    notes = {c.route: c.note for c in r.candidates}
    assert r.route == "max-information composition" and r.gamma > 0.0048
    for dt in (1e-30, 1e-20):
        k = _thm31_k_floor(10**6, 0.05, _kov_pure_eps(1e-5, 100, dt) * 0.999)
        assert 0.05 * 2.0**-k < r.gamma  # the rule applies
        assert notes[f"DP first stage at delta={dt:g} (RRST-3.1)"] == f"cannot beat the best route: k >= {k:.4g} bits"
    assert notes["DP first stage at delta=1e-12 (RRST-3.1)"].startswith("delta too large for n = 1000000")
    # 100 runs of (0.004, 0)-DP on 10^9 records: no threshold above 0 at 1e-30
    big = Study(
        n=10**9,
        steps=(Laplace(scale=2.5e-7, sensitivity=1e-9, times=100),),
        alpha=0.05,
        iid=True,
    )
    k = _thm31_k_floor(10**9, 0.05, _kov_pure_eps(0.004, 100, 1e-30) * 0.999)
    assert k > 1075 + math.log2(0.05)
    notes = {c.route: c.note for c in routes._plan(big, False, True, None).candidates}
    assert notes["DP first stage at delta=1e-30 (RRST-3.1)"] == f"cannot give a positive threshold: k >= {k:.4g} bits"
    assert notes["DP first stage at delta=1e-20 (RRST-3.1)"].startswith("delta too large for n = 1000000000")


@pytest.mark.parametrize("bad", ["laplace_queries.toml", None, {"n": 100}])
def test_plan_refuses_anything_but_a_study_word_for_word(bad):
    with pytest.raises(InvalidParameter) as e:
        plan(bad)
    assert (e.value.name, e.value.value, e.value.allowed) == ("study", bad, "a Study (see load_study / parse_study)")
    assert str(e.value) == f"study={bad!r} is invalid: must be a Study (see load_study / parse_study)"
