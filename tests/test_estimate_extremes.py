"""The estimation planner (``maxinfo estimate``) on inputs drawn across the whole range of each
(Hypothesis): n from 1 to 10^15 records, up to 10^12 queries, coverage from 10^-300 to 1 -
10^-16, a target half-width from 10^-320 to 900 or none, Thresholdout's budget or none, binary
or not. Each plan either returns routes whose half-widths and coverages are finite numbers in
range (or absent) or refuses with an :class:`InvalidParameter` in words; never another
exception, never a warning (the suite turns warnings into errors), never NaN.

A seeded random search of these inputs found three crashes, each fixed and held by a test of
its own in ``tests/test_estimate_units.py``: a half-width of 1e-200 (OverflowError squaring the
max-information route's width ratio; ZeroDivisionError in splitting's record count, t^2 being 0
in floats), and 18 records with 8e7 queries at coverage 7e-193 (a RuntimeWarning from the
Nelder-Mead polish's exp, then OverflowError composing a mu past the floats, then a refusal
naming a delta the user never gave). This property looks for the next ones; each example is a
whole plan (about 1 s), so the default run draws a few and ``--run-slow`` more.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from maxinfo_bounds import InvalidParameter
from maxinfo_bounds.planning import estimate as E


def _pos(lo: int, hi: int) -> st.SearchStrategy[float]:
    return st.builds(
        lambda m, e: float(f"{m}e{e}"),
        st.integers(min_value=1, max_value=9),
        st.integers(min_value=lo, max_value=hi),
    )


_N = st.one_of(st.integers(min_value=1, max_value=100), st.integers(min_value=1, max_value=10**15))
_K = st.one_of(st.integers(min_value=1, max_value=100), st.integers(min_value=1, max_value=10**12))
_COVERAGE = st.one_of(_pos(-300, -1), st.builds(lambda x: 1 - x, _pos(-16, -1)), st.sampled_from([0.5, 0.95]))
_HALF = st.one_of(st.none(), _pos(-320, 2), st.just(0.1))
_BUDGET = st.one_of(st.none(), st.integers(min_value=1, max_value=1000))


def _check(n: int, k: int, cov: float, half: float | None, budget: int | None, binary: bool) -> None:
    try:
        p = E.plan_estimate(n, k, cov, half, thresholdout_budget=budget, binary=binary)
    except InvalidParameter as e:  # PlanError is one
        assert e.name and e.allowed and "nan" not in str(e).lower()
        return
    for r in p.routes:
        assert r.half_width is None or (math.isfinite(r.half_width) and r.half_width >= 0), r
        assert r.coverage is None or 0 <= r.coverage <= 1, r
        if r.valid and r.route != E.REUSE_MAXINFO:
            assert r.coverage is not None and r.coverage >= 0
        for x in (r.max_queries_at_half_width, r.required_n_records):
            assert x is None or (isinstance(x, int) and x >= 0), r
    assert p.recommended is None or p.route(p.recommended).valid


_GIVEN = given(_N, _K, _COVERAGE, _HALF, _BUDGET, st.booleans())


@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@_GIVEN
def test_every_estimation_study_plans_or_refuses_in_words(n, k, cov, half, budget, binary):
    _check(n, k, cov, half, budget, binary)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@_GIVEN
def test_every_estimation_study_plans_or_refuses_in_words_at_length(n, k, cov, half, budget, binary):
    _check(n, k, cov, half, budget, binary)


def test_the_command_line_at_a_half_width_past_the_floats(capsys: pytest.CaptureFixture[str]) -> None:
    # before the thirty-ninth session: a traceback (OverflowError, then ZeroDivisionError). A
    # half-width of 1e-200 needs ln(2k/beta) / (2 t^2) = 2.3e400 records per query for splitting:
    # past the doubles, so no record count is shown, and no route reaches it at n = 10^6
    import json

    from .cli_helpers import run_cli

    args = ["estimate", "--n", "1000000", "--queries", "10", "--coverage", "0.95", "--half-width", "1e-200"]
    code, out, err = run_cli([*args, "--json"], capsys)
    assert code == 0 and err == ""
    rows = {r["route"]: r for r in json.loads(out)["routes"]}
    split = rows["split: each query on its own fresh records"]
    assert split["valid"] and split["required_n_records"] is None and split["max_queries_at_half_width"] == 0
    assert all(r["required_n_records"] is None for r in rows.values())
    code, out, err = run_cli(args, capsys)
    assert code == 0 and "recommended: split: each query on its own fresh records" in out
