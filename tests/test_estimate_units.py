"""The estimation planner's parts one by one (``planning/estimate.py`` and ``planning/limits.py``,
issue 44): the report's table and JSON from plans built by hand, the proved limits' ladder and
its plumbing against refuters whose answer is known, Thresholdout's certificate at chosen
settings against 50-digit values on both sides, the regime map's crossovers in words, and the
study file's refusals word for word.

Ground truth is hand work or a 50-digit re-derivation from the papers' formulas:

* Thresholdout (DFHPRR section 3; the Notes' Thresholdout lemma): each over-threshold answer
  costs 2/(sigma n_h) of pure DP; B of them compose to 2B/(sigma n_h) (basic) or, at total delta,
  sqrt(2B ln(1/delta)) e0 + B e0 (e^e0 - 1) (Dwork & Roth Thm 3.20); the draws it uses stay
  below x = 2 sigma ln(3(B+1)/beta_s), y = 4 sigma ln(3k/beta_s), z = sigma ln(3B/beta_s) except
  with probability beta_s (a union bound, a third each); the answers are within
  max(T + x + y, z) of the holdout means;
* the JLNRSS transfer: with c, d minimising c + 2d under beta_s/c + delta/d <= F (Lagrange:
  c + 2d = (sqrt(beta_s) + sqrt(2 delta))^2 / F), the half-width is alpha + (e^eps - 1) + c + 2d.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np
import pytest

from maxinfo_bounds import __version__
from maxinfo_bounds.planning import estimate as E
from maxinfo_bounds.planning import limits as L

from .test_estimate import _ref_half_width
from .test_limits import _delta as _gdp_delta
from .test_limits import _z as _mp_z

# --------------------------------------------------------------------------------------------
# the report: table, footnotes, derivations and JSON of plans built by hand


def _table(rows: list[list[str]]) -> list[str]:
    """The documented layout: left-aligned columns two spaces apart, trailing blanks cut."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]


STAR = (
    "* as optimised: certified at the answer and one step beyond it, at the noise levels a float optimiser "
    "chose; not proven optimal over every setting (splitting's are exact; --prove-extremes proves limits for "
    "the Gaussian routes and Thresholdout)"
)
BRACKET = (
    "(<= K), (>= N): proved over every setting of the route (noise, eps and delta, holdout size, the failure "
    "split): no setting meets the target with more than K queries or fewer than N records; an answer without "
    "one is proved optimal"
)

JL = E.EstimateRoute(
    E.REUSE_JLNRSS, True, 0.0785, 0.95, {"noise_sigma": 0.5}, ("JLNRSS-transfer",), ("jl one", "jl two"), "",
    25269, 614451, 25300, 612003,
)  # fmt: skip
BN = E.EstimateRoute(E.REUSE_BNSSSU, True, 0.2, 0.95, {}, ("RRST-B.2",), ("bn one",), "", 658, 1000, 658, 1000)
MI = E.EstimateRoute(E.REUSE_MAXINFO, True, 1 / 3, 2 / 3, {}, (), ("mi one",), "for comparison", 12, None)
TH = E.EstimateRoute(E.THRESHOLDOUT, False, None, None, note="give the budget")
SP = E.EstimateRoute(E.SPLIT, True, 0.25, 0.95, {"records_per_query": 100}, ("SPLIT-Hoeffding",), ("sp one",), "",
                     411, 300)  # fmt: skip
NV = E.EstimateRoute(E.NAIVE, False, 0.01, None, {"records_per_query": 10**6}, (), ("nv one",), "not valid")


def test_extremes_names_how_each_answer_was_found():
    """Splitting: exact; naive: none; a route with both answers proved equal: proved; with
    limits around them: bracketed; with an answer but no limit for it: as optimised."""
    assert SP.extremes == "exact" and E.EstimateRoute(E.SPLIT_BINARY, False, None, None).extremes == "exact"
    assert NV.extremes is None
    assert JL.extremes == "bracketed" and BN.extremes == "proved" and MI.extremes == "as optimised"
    base = E.EstimateRoute(E.REUSE_JLNRSS, True, 0.1, 0.95)
    cases = [
        ((None, None, 5, 5), "as optimised"),  # no answer: nothing was proved of it
        ((5, None, 5, None), "proved"),  # the one answer, proved optimal
        ((None, 7, None, 7), "proved"),
        ((5, None, 6, None), "bracketed"),
        ((5, 10, 6, None), "as optimised"),  # the required n without its limit
        ((5, 10, None, 9), "as optimised"),
        ((5, 10, 6, 9), "bracketed"),
        ((5, 10, 5, 9), "bracketed"),
        ((5, 10, 5, 10), "proved"),
    ]
    for (kq, nr, kl, nl), want in cases:
        r = E.EstimateRoute(base.route, True, 0.1, 0.95, max_queries_at_half_width=kq, required_n_records=nr,
                            max_queries_upper_limit=kl, required_n_lower_limit=nl)  # fmt: skip
        assert r.extremes == want, (kq, nr, kl, nl)


def test_the_table_with_every_kind_of_extreme():
    plan = E.EstimatePlan(10**6, 10_000, 0.95, 0.1, (JL, BN, MI, TH, SP, NV), E.REUSE_JLNRSS)
    head = ["route", "valid", "half-width", "coverage", "max queries", "required n"]
    rows = [
        [str(E.REUSE_JLNRSS), "yes", "0.0785", "0.95", "25269 (<= 25300)", "614451 (>= 612003)"],
        [str(E.REUSE_BNSSSU), "yes", "0.2", "0.95", "658", "1000"],
        [str(E.REUSE_MAXINFO), "yes", "0.333334", "0.666666", "12*", "-"],  # 1/3 up, 2/3 down
        [str(E.THRESHOLDOUT), "no", "-", "-", "-", "-"],
        [str(E.SPLIT), "yes", "0.25", "0.95", "411", "300"],
        [str(E.NAIVE), "no", "0.01", "-", "-", "-"],
    ]
    want = [
        "10000 adaptively chosen statistical queries of n = 1000000 records, simultaneous coverage 0.95, "
        "target half-width 0.1",
        "",
        *_table([head, *rows]),
        STAR,
        BRACKET,
        "",
        f"recommended: {E.REUSE_JLNRSS}",
    ]
    assert plan.text(derivations=False).splitlines() == want
    blocks = [
        "",
        f"{E.REUSE_JLNRSS}:",
        "  jl one",
        "  jl two",
        "",
        f"{E.REUSE_BNSSSU}:",
        "  bn one",
        "",
        f"{E.REUSE_MAXINFO}:",
        "  mi one",
        "  note: for comparison",
        "",
        f"{E.THRESHOLDOUT}:",
        "  note: give the budget",
        "",
        f"{E.SPLIT}:",
        "  sp one",
        "",
        f"{E.NAIVE}:",
        "  nv one",
        "  note: not valid",
    ]
    assert plan.text().splitlines() == want + blocks
    assert str(plan) == plan.text()


def test_the_footnotes_only_where_a_row_needs_them():
    # exact rows only: neither footnote
    lines = E.EstimatePlan(10**6, 10_000, 0.95, 0.1, (SP, NV), E.SPLIT).text(derivations=False).splitlines()
    assert STAR not in lines and BRACKET not in lines and lines[-1] == f"recommended: {E.SPLIT}"
    # a row proved optimal has no bracket, and the footnote says what its bare answer means
    lines = E.EstimatePlan(10**6, 10_000, 0.95, 0.1, (BN, SP), E.SPLIT).text(derivations=False).splitlines()
    assert STAR not in lines and BRACKET in lines
    # a route "as optimised" without any answer: no star to explain
    assert STAR not in E.EstimatePlan(10**6, 10, 0.95, 0.1, (TH, SP), E.SPLIT).text().splitlines()
    # a bracket alone
    lines = E.EstimatePlan(10**6, 10, 0.95, 0.1, (JL,), E.REUSE_JLNRSS).text(derivations=False).splitlines()
    assert BRACKET in lines and STAR not in lines
    # a star alone
    lines = E.EstimatePlan(10**6, 10, 0.95, 0.1, (MI,), E.REUSE_MAXINFO).text(derivations=False).splitlines()
    assert STAR in lines and BRACKET not in lines


def test_the_table_without_a_target_or_a_recommendation():
    plan = E.EstimatePlan(500, 3, 0.9, None, (TH, NV), None)
    head = ["route", "valid", "half-width", "coverage"]
    want = [
        "3 adaptively chosen statistical queries of n = 500 records, simultaneous coverage 0.9",
        "",
        *_table([head, [str(E.THRESHOLDOUT), "no", "-", "-"], [str(E.NAIVE), "no", "0.01", "-"]]),
        "",
        "recommended: none (no valid route with a half-width below 1)",
    ]
    assert plan.text(derivations=False).splitlines() == want


def test_the_json_views_field_by_field():
    d = JL.as_dict()
    assert d == {
        "route": E.REUSE_JLNRSS,
        "valid": True,
        "half_width": 0.0785,
        "half_width_rounding": "up",
        "coverage": 0.95,
        "coverage_rounding": "down",
        "noise_sigma": 0.5,
        "max_queries_at_half_width": 25269,
        "required_n_records": 614451,
        "max_queries_upper_limit": 25300,
        "required_n_lower_limit": 612003,
        "extremes": "bracketed",
        "theorems": ["JLNRSS-transfer"],
        "derivation": ["jl one", "jl two"],
        "note": "",
    }
    assert list(d)[:6] == ["route", "valid", "half_width", "half_width_rounding", "coverage", "coverage_rounding"]
    plan = E.EstimatePlan(10**6, 10_000, 0.95, 0.1, (JL, NV), E.REUSE_JLNRSS, binary=True)
    p = json.loads(json.dumps(plan.as_dict()))
    assert p == {
        "n_records": 10**6,
        "queries": 10_000,
        "coverage": 0.95,
        "half_width_target": 0.1,
        "recommended": str(E.REUSE_JLNRSS),
        "routes": [json.loads(json.dumps(JL.as_dict())), json.loads(json.dumps(NV.as_dict()))],
        "versions": {"maxinfo_bounds": __version__},
    }
    assert p["routes"][1]["records_per_query"] == 10**6 and p["routes"][1]["extremes"] is None
    assert plan.route(E.NAIVE) is NV
    with pytest.raises(StopIteration):
        plan.route(E.SPLIT)


# --------------------------------------------------------------------------------------------
# the proved limits: the ladder and its plumbing, against refuters whose answer is known


class _Refuter:
    """Refutes k above ``k_star`` and n below ``n_star`` (what a route that meets the target
    exactly at k <= k_star and n >= n_star would prove); records every call."""

    def __init__(self, k_star: int, n_star: int) -> None:
        self.k_star, self.n_star, self.calls = k_star, n_star, []

    def __call__(self, n: int, k: int, t: float, failure: Fraction, *, max_boxes: int) -> bool:
        self.calls.append((n, k, t, failure, max_boxes))
        return k > self.k_star or n < self.n_star


def test_max_queries_limit_by_hand():
    """found = 1000, no setting meets the target above k = 1037. The ladder's steps beyond 1000:
    1, then max(2, ceil(1000 (1 + r)) - 1000) = 2, 4, 16, 64, 250, 1000, 4000, 16000. k = 1001,
    1002, 1004, 1016 are not refuted; 1064 is; bisections: (16 + 64) // 2 = 40, k = 1040 refuted;
    (16 + 40) // 2 = 28, k = 1028 not. The limit: 1000 + 40 - 1 = 1039."""
    ref = _Refuter(1037, 0)
    lim = L.max_queries_limit(ref, 5000, 0.1, Fraction(1, 20), 1000)
    assert lim == L.Limit(1039, 1040, False)
    assert [c[1] for c in ref.calls] == [1001, 1002, 1004, 1016, 1064, 1040, 1028]
    assert {(c[0], c[2], c[3], c[4]) for c in ref.calls} == {(5000, 0.1, Fraction(1, 20), L.LADDER_BOXES)}
    # refuted at found + 1: the answer is proved optimal
    assert L.max_queries_limit(_Refuter(1000, 0), 5000, 0.1, Fraction(1, 20), 1000) == L.Limit(1000, 1001, True)
    # never refuted: no limit
    assert L.max_queries_limit(_Refuter(10**9, 0), 5000, 0.1, Fraction(1, 20), 1000, max_boxes=7) is None


def test_required_n_limit_by_hand():
    """found = 1000, no setting meets the target below n = 981. Steps below 1000: 1, then
    max(2, 1000 - floor(1000 / (1 + r))) = 2, 4, 16, 61, 200, 500, 800, 942. n = 999, 998, 996,
    984 are not refuted; 939 is; bisections: (16 + 61) // 2 = 38, n = 962 refuted; (16 + 38) // 2
    = 27, n = 973 refuted. The limit: 1000 - 27 + 1 = 974."""
    ref = _Refuter(10**9, 981)
    lim = L.required_n_limit(ref, 10, 0.2, Fraction(1, 10), 1000, max_boxes=11)
    assert lim == L.Limit(974, 973, False)
    assert [c[0] for c in ref.calls] == [999, 998, 996, 984, 939, 962, 973]
    assert {(c[1], c[2], c[3], c[4]) for c in ref.calls} == {(10, 0.2, Fraction(1, 10), 11)}
    assert L.required_n_limit(_Refuter(10**9, 1000), 10, 0.2, Fraction(1, 10), 1000) == L.Limit(1000, 999, True)
    assert L.required_n_limit(_Refuter(10**9, 0), 10, 0.2, Fraction(1, 10), 1000) is None
    # found = 2: n = 1 refuted, the answer proved; found = 2 and nothing refuted: n = 0 needs no proof
    assert L.required_n_limit(_Refuter(10**9, 2), 10, 0.2, Fraction(1, 10), 2) == L.Limit(2, 1, True)
    assert L.required_n_limit(_Refuter(10**9, 0), 10, 0.2, Fraction(1, 10), 2) == L.Limit(1, 0, False)


def test_the_ladder_bisects_from_the_last_step_not_proved():
    calls: list[int] = []

    def refute(d: int) -> bool:
        calls.append(d)
        return d >= 13

    # steps 1, 5, 100: 1 and 5 not proved, 100 proved; bisect (5, 100): 52 proved, (5, 52): 28
    assert L._ladder(refute, [100, 5, 1, 5]) == 28 and calls == [1, 5, 100, 52, 28]
    calls.clear()
    # the first step proved: bisect (0, 1) stops at once
    assert L._ladder(lambda d: calls.append(d) or True, [1, 2]) == 1 and calls == [1]
    calls.clear()
    # bisections that find an unproved midpoint move the lower end up: (0, 8) -> 4 not, (4, 8) -> 6
    assert L._ladder(lambda d: calls.append(d) or d >= 6, [8]) == 6 and calls == [8, 4, 6]


def test_proved_limits_pass_the_study_to_the_refuter():
    ref = _Refuter(1037, 981)
    got = E._proved_limits(ref, 5000, 10, 0.1, 0.95, {"max_queries_at_half_width": 1000, "required_n_records": 1000})
    assert got == {"max_queries_upper_limit": 1039, "required_n_lower_limit": 974}
    failure = 1 - Fraction(0.95)  # the failure budget 1 - C exactly (not 1/20: 0.95 is a binary float)
    assert {c[3] for c in ref.calls} == {failure} and {c[2] for c in ref.calls} == {0.1}
    assert {c[0] for c in ref.calls[:7]} == {5000} and {c[1] for c in ref.calls[7:]} == {10}
    # no largest k below the planner's cap, no required n: nothing to prove
    ref = _Refuter(1037, 981)
    got = E._proved_limits(ref, 5000, 10, 0.1, 0.95, {"max_queries_at_half_width": E.MAX_QUERIES,
                                                      "required_n_records": None})  # fmt: skip
    assert got == {"max_queries_upper_limit": None, "required_n_lower_limit": None} and ref.calls == []
    got = E._proved_limits(ref, 5000, 10, 0.1, 0.95, {"max_queries_at_half_width": E.MAX_QUERIES - 1,
                                                      "required_n_records": None})  # fmt: skip
    assert got == {"max_queries_upper_limit": E.MAX_QUERIES - 1, "required_n_lower_limit": None}


def test_plan_estimate_asks_the_refuters_of_the_gaussian_routes_and_thresholdout_only(monkeypatch):
    """With refuters that refute every step beyond the planner's answers, both Gaussian routes'
    and Thresholdout's answers are proved (Thresholdout's refuter told the study's budget and
    threshold); the max-information route stays as optimised; without prove_extremes no
    refuter is asked."""
    seen: dict[str, list[Any]] = {}

    def make(name: str) -> Any:
        def refuted(n: int, k: int, t: float, failure: Fraction, *, max_boxes: int) -> bool:
            seen.setdefault(name, []).append((n, k, t, failure, max_boxes))
            return True

        return refuted

    monkeypatch.setattr(E, "_REFUTERS", {E.REUSE_JLNRSS: make("jl"), E.REUSE_BNSSSU: make("bn")})
    th = make("th")

    def th_refuted(n: int, k: int, t: float, failure: Fraction, *, budget: int, threshold: Any, max_boxes: int) -> bool:
        seen.setdefault("th settings", []).append((budget, threshold))
        return th(n, k, t, failure, max_boxes=max_boxes)

    monkeypatch.setattr(L, "thresholdout_refuted", th_refuted)
    p = E.plan_estimate(50_000, 10, 0.9, 0.3, thresholdout_budget=5, threshold=0.01, prove_extremes=True)
    for name in (E.REUSE_JLNRSS, E.REUSE_BNSSSU, E.THRESHOLDOUT):
        r = p.route(name)
        assert r.max_queries_upper_limit == r.max_queries_at_half_width is not None
        assert r.required_n_lower_limit == r.required_n_records is not None
        assert r.extremes == "proved"
    assert set(seen["th settings"]) == {(5, 0.01)} and len(seen["th"]) == 2
    assert p.route(E.REUSE_MAXINFO).extremes == "as optimised"
    assert p.route(E.REUSE_MAXINFO).max_queries_upper_limit is None
    jl = p.route(E.REUSE_JLNRSS)
    # the first call of each ladder: one query more at n, one record fewer at k
    assert seen["jl"][0] == (50_000, jl.max_queries_at_half_width + 1, 0.3, 1 - Fraction(0.9), L.LADDER_BOXES)
    assert seen["jl"][1] == (jl.required_n_records - 1, 10, 0.3, 1 - Fraction(0.9), L.LADDER_BOXES)
    assert len(seen["jl"]) == len(seen["bn"]) == 2
    seen.clear()
    E.plan_estimate(50_000, 10, 0.9, 0.3, thresholdout_budget=5)
    assert seen == {}


# --------------------------------------------------------------------------------------------
# Thresholdout's certificate at chosen settings, against 50-digit values on both sides


def _thresholdout_ref(n: int, k: int, budget: int, f: float, point: list[float], threshold: float | None = None):
    """The route's half-width at a setting, at 50 digits (module docstring): the better of pure
    DP (no d term) and advanced composition at delta. Returns (half-width, alpha, eps, delta)."""
    lsig, frac, lbs, ldel = point
    with mpmath.workdps(50):
        ff = mpmath.mpf(f)
        sigma, bs, delta = mpmath.exp(lsig), mpmath.exp(lbs), mpmath.exp(ldel)
        nh = int(frac * n)
        nt = n - nh
        thr = (
            mpmath.sqrt(mpmath.log(4 * k / ff) / 2) * (1 / mpmath.sqrt(nt) + 1 / mpmath.sqrt(nh))
            if threshold is None
            else mpmath.mpf(threshold)
        )
        x = 2 * sigma * mpmath.log(3 * (budget + 1) / bs)
        y = 4 * sigma * mpmath.log(3 * k / bs)
        z = sigma * mpmath.log(3 * budget / bs)
        alpha = max(thr + x + y, z)
        e0 = 2 / (sigma * nh)
        pure = budget * e0
        adv = min(pure, mpmath.sqrt(2 * budget * mpmath.log(1 / delta)) * e0 + budget * e0 * mpmath.expm1(e0))
        by_pure = alpha + mpmath.expm1(pure) + bs / ff
        by_adv = alpha + mpmath.expm1(adv) + (mpmath.sqrt(bs) + mpmath.sqrt(2 * delta)) ** 2 / ff
        return (by_pure, alpha, pure, 0) if by_pure <= by_adv else (by_adv, alpha, adv, delta)


@pytest.mark.parametrize(
    ("budget", "point", "pure"),
    [
        # B = 20: basic composition (40/(sigma n_h) = 0.08) beats advanced at any useful delta
        (20, [mpmath.log(1e-3), 0.5, mpmath.log(0.005), mpmath.log(1e-12)], True),
        # B = 1000: advanced at delta = 1e-6 (eps 0.68) beats basic (eps 4)
        (1000, [mpmath.log(1e-3), 0.5, mpmath.log(0.005), mpmath.log(1e-6)], False),
        # an uneven split: 300,000 holdout records
        (1000, [mpmath.log(2e-3), 0.3, mpmath.log(0.02), mpmath.log(1e-7)], False),
    ],
)
def test_thresholdout_certificate_against_50_digits(budget, point, pure):
    n, k, f = 10**6, 10**6, 0.05
    point = [float(v) for v in point]
    got = E._certify_thresholdout(n, k, budget, f, None, point)
    ref, alpha, eps, delta = _thresholdout_ref(n, k, budget, f, point)
    assert (delta == 0) is pure
    assert ref <= got.half_width <= ref * (1 + 1e-9)
    assert 1 - mpmath.mpf(f) <= got.coverage <= 1 - mpmath.mpf(f) + 1e-9
    s = got.settings
    nh = int(point[1] * n)
    assert (s["holdout_records"], s["training_records"], s["budget"]) == (nh, n - nh, budget)
    assert alpha <= s["sample_half_width"] <= alpha * (1 + 1e-12)
    assert eps <= s["eps_nats"] <= eps * (1 + 1e-9)
    assert s["delta"] == (0.0 if pure else float(mpmath.exp(point[3])))
    assert s["noise_sigma"] == float(mpmath.exp(point[0])) and s["beta_sample"] == float(mpmath.exp(point[2]))
    with mpmath.workdps(50):  # c + 2d is the Lagrange optimum, nudged up by 2^-40
        c_2d = (mpmath.sqrt(s["beta_sample"]) + mpmath.sqrt(2 * mpmath.mpf(delta))) ** 2 / mpmath.mpf(f)
        assert c_2d <= s["c"] + 2 * s["d"] <= c_2d * (1 + 1e-11)
    text = "\n".join(got.derivation)
    assert f"on {n - nh} training and {nh} holdout records" in text
    assert f"budget B = {budget} over-threshold answers (it stops answering once B is spent)" in text
    assert ("(delta = 0: no d term)" in text) is pure and (", d = " in text) is not pure
    # the float surrogate the search minimises agrees with the certificate where pure DP loses
    # (it always carries the d term; where pure wins it is the advanced one's or above)
    est = float(E._thresholdout_est(n, k, budget, f, None, *point))
    assert est >= float(ref) * (1 - 1e-9) and (pure or est == pytest.approx(float(ref), rel=1e-9, abs=0))


def test_thresholdout_certificate_edges():
    f, pt = 0.05, [float(mpmath.log(1e-3)), 0.5, float(mpmath.log(0.005)), float(mpmath.log(1e-12))]
    assert E._certify_thresholdout(1, 5, 20, f, None, pt) is None  # no holdout and training both
    # the holdout share clamped to one record either side
    lo = E._certify_thresholdout(1000, 5, 20, f, None, [pt[0], 1e-9, pt[2], pt[3]])
    hi = E._certify_thresholdout(1000, 5, 20, f, None, [pt[0], 1 - 1e-9, pt[2], pt[3]])
    assert (lo.settings["holdout_records"], lo.settings["training_records"]) == (1, 999)
    assert (hi.settings["holdout_records"], hi.settings["training_records"]) == (999, 1)
    two = E._certify_thresholdout(2, 5, 20, f, None, [pt[0], 0.5, pt[2], pt[3]])
    assert (two.settings["holdout_records"], two.settings["training_records"]) == (1, 1)
    # beta_s must lie in (0, F)
    for lbs in (float(mpmath.log(f)), float(mpmath.log(0.06)), float("-inf")):
        assert E._certify_thresholdout(1000, 5, 20, f, None, [pt[0], 0.5, lbs, pt[3]]) is None
    # a given threshold is used as given
    given = E._certify_thresholdout(10**6, 10**6, 20, f, 0.05, pt)
    assert given.settings["threshold"] == 0.05
    ref = _thresholdout_ref(10**6, 10**6, 20, f, pt, threshold=0.05)[0]
    assert ref <= given.half_width <= ref * (1 + 1e-9)


def test_default_threshold_by_hand():
    """sqrt(ln(4k/F)/2) (1/sqrt(n_t) + 1/sqrt(n_h)): k = 5, F = 0.05, n_t = n_h = 10,000:
    sqrt(ln(400)/2) * 0.02 = 1.7308184 * 0.02 = 0.03461637..."""
    assert E.default_threshold(10_000, 10_000, 5, 0.05) == pytest.approx(0.034616368, rel=1e-7, abs=0)
    with mpmath.workdps(30):
        want = mpmath.sqrt(mpmath.log(4 * 7 / mpmath.mpf(0.1)) / 2) * (1 / mpmath.sqrt(900) + 1 / mpmath.sqrt(100))
    assert E.default_threshold(900, 100, 7, 0.1) == pytest.approx(float(want), rel=1e-14, abs=0)


# --------------------------------------------------------------------------------------------
# the regime map's crossovers, JSON and figure, from maps built by hand

INF = float("inf")
ROUTES3 = (E.REUSE_JLNRSS, E.REUSE_BNSSSU, E.SPLIT)
NONE = "no route below half-width 1"


def _map(winner: list[list[int]], ns: tuple[int, ...], ks: tuple[int, ...]) -> E.RegimeMap:
    widths = {r: [[0.5] * len(ks) for _ in ns] for r in ROUTES3}
    return E.RegimeMap(0.95, ns, ks, widths, winner, ROUTES3)


def test_crossovers_along_k_and_their_runs_in_words():
    jl, bn, sp = (str(r) for r in ROUTES3)
    rm = _map(
        [
            [-1, -1, -1, -1],  # n = 100: nothing below 1
            [2, 2, -1, -1],  # n = 1000: split, then nothing from k = 100
            [2, 2, 2, -1],  # n = 10^4: the same change, at k = 1000
            [2, 0, 1, -1],  # n = 10^5: three changes
            [0, 0, 0, 0],  # n = 10^6: reuse throughout
            [2, 2, 2, 2],  # n = 10^7: split throughout (not one run with the row above)
            [2, 2, 2, 2],  # n = 10^8: the same
        ],
        (100, 1000, 10**4, 10**5, 10**6, 10**7, 10**8),
        (1, 10, 100, 1000),
    )
    assert rm.crossovers() == [
        {"n_records": 1000, "queries": 100, "from": E.SPLIT, "to": None},
        {"n_records": 10**4, "queries": 1000, "from": E.SPLIT, "to": None},
        {"n_records": 10**5, "queries": 10, "from": E.SPLIT, "to": E.REUSE_JLNRSS},
        {"n_records": 10**5, "queries": 100, "from": E.REUSE_JLNRSS, "to": E.REUSE_BNSSSU},
        {"n_records": 10**5, "queries": 1000, "from": E.REUSE_BNSSSU, "to": None},
    ]
    assert E.crossover_text(rm).splitlines() == [
        "crossovers (the first k of the map's grid at which the narrowest route changes):",
        f"  n = 100: {NONE} at every k of the map",
        f"  n in [1000, 10000]: {sp} -> {NONE} at k = 100..1000",
        f"  n = 100000: {sp} -> {jl} at k = 10; {jl} -> {bn} at k = 100; {bn} -> {NONE} at k = 1000",
        f"  n = 1000000: {jl} at every k of the map",
        f"  n in [10000000, 100000000]: {sp} at every k of the map",
    ]
    # a change at the same k all along a run: one k; a route from nothing
    rm = _map([[-1, 2], [-1, 2]], (10, 20), (1, 5))
    assert E.crossover_text(rm).splitlines()[1:] == [f"  n in [10, 20]: {NONE} -> {sp} at k = 5"]


def test_regime_map_json_field_by_field():
    rm = E.RegimeMap(
        0.9,
        (100, 1000),
        (1, 10),
        {E.REUSE_JLNRSS: [[INF, 0.5], [0.2, 0.1]], E.SPLIT: [[0.3, INF], [0.05, 0.2]]},
        [[1, 0], [1, 0]],
        (E.REUSE_JLNRSS, E.SPLIT),
        thresholdout_budget=7,
        binary=True,
    )
    d = json.loads(json.dumps(rm.as_dict()))
    assert d == {
        "coverage": 0.9,
        "thresholdout_budget": 7,
        "binary": True,
        "n_records": [100, 1000],
        "queries": [1, 10],
        "half_width_float_estimates": {
            str(E.REUSE_JLNRSS): [[None, 0.5], [0.2, 0.1]],
            str(E.SPLIT): [[0.3, None], [0.05, 0.2]],
        },
        "narrowest_route": [[str(E.SPLIT), str(E.REUSE_JLNRSS)], [str(E.SPLIT), str(E.REUSE_JLNRSS)]],
        "crossovers": [
            {"n_records": 100, "queries": 10, "from": str(E.SPLIT), "to": str(E.REUSE_JLNRSS)},
            {"n_records": 1000, "queries": 10, "from": str(E.SPLIT), "to": str(E.REUSE_JLNRSS)},
        ],
    }
    assert E.RegimeMap(0.9, (1, 2), (1, 2), {}, [[-1, -1], [-1, -1]]).as_dict()["narrowest_route"] == [
        [None, None],
        [None, None],
    ]


def _recording_axes(monkeypatch):
    from unittest import mock

    import matplotlib.pyplot as plt

    import maxinfo_bounds.numeric as numeric

    fig, ax = mock.MagicMock(), mock.MagicMock()
    ax.get_legend_handles_labels.return_value = (["STAR-HANDLE"], ["this study"])
    monkeypatch.setattr(plt, "subplots", mock.MagicMock(return_value=(fig, ax)))
    saved = mock.MagicMock()
    monkeypatch.setattr(numeric, "save_figure", saved)
    return plt, fig, ax, saved


def test_regime_map_figure_on_recording_axes(tmp_path, monkeypatch):
    """Two n, three k: the narrowest route's index as colour (masked where no route is below 1),
    the half-width contours at the round levels strictly inside the map's finite range
    (0.007 to 0.1: 0.01, 0.02, 0.05), an infinite width drawn as 10, the study's star."""
    from unittest import mock

    import numpy as np

    plt, fig, ax, saved = _recording_axes(monkeypatch)
    widths = {
        E.REUSE_JLNRSS: [[0.3, 0.2, INF], [0.05, 0.04, 0.03]],
        E.REUSE_BNSSSU: [[0.9, 0.8, INF], [0.5, 0.4, 0.3]],
        E.SPLIT: [[0.01, 0.1, INF], [0.007, 0.01, 0.04]],
    }
    rm = E.RegimeMap(0.95, (1000, 10_000), (1, 10, 100), widths, [[2, 2, -1], [2, 2, 0]], ROUTES3)
    out = str(tmp_path / "map.png")
    E.plot_regime_map(rm, out, mark=(5000, 10))
    plt.subplots.assert_called_once_with(figsize=(10, 5.2))
    saved.assert_called_once_with(fig, "plot", out)
    (mesh,) = ax.pcolormesh.call_args_list
    xs, ys, win = mesh.args
    assert list(xs) == [1000, 10_000] and list(ys) == [1, 10, 100]
    assert win.tolist() == [[2, 2], [2, 2], [None, 0]]  # rows: k; the -1 masked
    kw = mesh.kwargs
    assert list(kw["cmap"].colors) == ["#4c72b0", "#dd8452", "#55a868"]
    assert (kw["vmin"], kw["vmax"], kw["shading"], kw["alpha"]) == (-0.5, 2.5, "nearest", 0.55)
    (contour,) = ax.contour.call_args_list
    assert np.array_equal(contour.args[0], [1000, 10_000]) and np.array_equal(contour.args[1], [1, 10, 100])
    assert contour.args[2].tolist() == [[0.01, 0.007], [0.1, 0.01], [10.0, 0.03]]
    assert contour.kwargs == {"levels": [0.01, 0.02, 0.05], "colors": "k", "linewidths": 0.8}
    (clabel,) = ax.clabel.call_args_list
    assert clabel.args == (ax.contour.return_value,)
    assert clabel.kwargs["fmt"](0.05) == "±0.05" and (clabel.kwargs["fontsize"], clabel.kwargs["inline"]) == (8, False)
    ax.plot.assert_called_once_with([5000], [10], marker="*", color="crimson", markersize=12, label="this study")
    ax.set_xscale.assert_called_once_with("log")
    ax.set_yscale.assert_called_once_with("log")
    ax.set_xlabel.assert_called_once_with("n: number of records")
    ax.set_ylabel.assert_called_once_with("k: number of adaptively chosen queries")
    ax.set_title.assert_called_once_with(
        "Narrowest valid route for k adaptive queries at simultaneous coverage 0.95\n"
        "(colour: route; lines: its half-width, float estimates; white: no route below half-width 1)",
        fontsize=9,
    )
    (legend,) = ax.legend.call_args_list
    handles = legend.kwargs.pop("handles")
    assert legend.kwargs == {"fontsize": 8, "loc": "upper left", "bbox_to_anchor": (1.01, 1.0), "frameon": False}
    assert [h.get_label() for h in handles[:3]] == [str(r) for r in ROUTES3] and handles[3] == "STAR-HANDLE"
    assert [h.get_alpha() for h in handles[:3]] == [0.55] * 3
    import matplotlib.colors as mc

    assert [mc.to_hex(h.get_facecolor()) for h in handles[:3]] == ["#4c72b0", "#dd8452", "#55a868"]
    fig.tight_layout.assert_called_once_with()
    assert ax.method_calls.count(mock.call.set_xscale("log")) == 1


def test_regime_map_figure_colours_follow_the_routes(tmp_path, monkeypatch):
    """Binary queries and Thresholdout: each route keeps its own colour wherever it sits; no
    contour when the map's finite half-widths hold no round level strictly inside; no star."""
    plt, fig, ax, saved = _recording_axes(monkeypatch)
    routes = (E.REUSE_JLNRSS, E.SPLIT_BINARY, E.THRESHOLDOUT)
    widths = {r: [[0.3, 0.35], [0.31, 0.32]] for r in routes}
    rm = E.RegimeMap(0.9, (10, 20), (1, 2), widths, [[0, 1], [2, 0]], routes, thresholdout_budget=20, binary=True)
    E.plot_regime_map(rm, str(tmp_path / "m.png"))
    kw = ax.pcolormesh.call_args.kwargs
    assert list(kw["cmap"].colors) == ["#4c72b0", "#8172b3", "#c44e52"] and kw["vmax"] == 2.5
    assert ax.contour.call_args_list == [] and ax.clabel.call_args_list == []
    assert ax.plot.call_args_list == []
    title = ax.set_title.call_args.args[0]
    assert title.startswith(
        "Narrowest valid route for k adaptive queries at simultaneous coverage 0.9, {0, 1}-valued queries, "
        "Thresholdout budget B = 20\n"
    )
    assert len(ax.legend.call_args.kwargs["handles"]) == 3


# --------------------------------------------------------------------------------------------
# the estimation study file: refusals word for word, and what it passes to the planner

GOOD = "[data]\nn = 10\niid = true\n[estimate]\nqueries = 3\ncoverage = 0.9\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "[study]\nname = 'x'\n[data]\nn = 10\niid = true\n[estimate]\nqueries = 0\ncoverage = 0.9\n",
            "estimate.queries: 0 is invalid: must be an integer in [1, 1000000000000]",
        ),
        (GOOD + "half_width = -1\n", "estimate.half_width: -1 is invalid: must be a real number in (0, inf)"),
        (GOOD + "binary = 1\n", "estimate.binary: 1 is invalid: must be true or false (every query {0, 1}-valued)"),
        (GOOD + "half_width = 0.1\nprove_extremes = 'yes'\n",
         "estimate.prove_extremes: 'yes' is invalid: must be true or false"),
        (GOOD + "threshold = 0.1\n",
         "estimate.threshold: 0.1 is invalid: must be given with thresholdout_budget (Thresholdout's budget B)"),
        (GOOD.replace("n = 10", "n = 0"), "data.n: 0 is invalid: must be an integer in [1, 1000000000000000]"),
        (GOOD.replace("iid = true", "iid = false"),
         "data.iid: must be true: the transfer theorems and splitting's Hoeffding bound need i.i.d. records "
         "(no route is valid otherwise)"),
        (GOOD.replace("iid = true", "iid = 1"),
         "data.iid: must be true: the transfer theorems and splitting's Hoeffding bound need i.i.d. records "
         "(no route is valid otherwise)"),
        (GOOD.replace("iid = true\n", ""),
         "data.iid: must be true: the transfer theorems and splitting's Hoeffding bound need i.i.d. records "
         "(no route is valid otherwise)"),
        (GOOD.replace("n = 10\n", ""), "data.n: missing: the number of records (integer >= 1)"),
        ("data = 3\n[estimate]\nqueries = 3\ncoverage = 0.9\n",
         "data.n: missing: the number of records (integer >= 1)"),
        (GOOD.replace("iid = true", "iid = true\nm = 3"), "data.m: unknown key; allowed: n, iid"),
        ("[data]\nn = 10\niid = true\n", "estimate: missing table [estimate] with queries and coverage"),
        ("estimate = 3\n[data]\nn = 10\niid = true\n", "estimate: missing table [estimate] with queries and coverage"),
        (GOOD.replace("queries = 3\n", ""),
         "estimate.queries: missing (queries: an integer >= 1; coverage in (0, 1))"),
        (GOOD.replace("coverage = 0.9\n", ""),
         "estimate.coverage: missing (queries: an integer >= 1; coverage in (0, 1))"),
        (GOOD + "alpha = 1\n",
         "estimate.alpha: unknown key; allowed: queries, coverage, half_width, thresholdout_budget, threshold, "
         "binary, prove_extremes"),
        (GOOD + "[power]\nalpha = 0.1\n",
         "power: unknown table; allowed in an estimation study: study, data, estimate"),
    ],
)  # fmt: skip
def test_estimation_study_file_refusals_word_for_word(tmp_path, text, message):
    from maxinfo_bounds.planning import PlanError

    f = tmp_path / "s.toml"
    f.write_text(text)
    with pytest.raises(PlanError) as err:
        E.plan_estimate_file(str(f))
    assert str(err.value) == f"{f}: {message}"


def test_estimation_study_file_passes_its_keys_and_defaults(tmp_path, monkeypatch):
    calls: list[tuple[Any, ...]] = []

    def record(*args: Any, **kwargs: Any) -> str:
        calls.append((args, kwargs))
        return "plan"

    monkeypatch.setattr(E, "plan_estimate", record)
    f = tmp_path / "s.toml"
    f.write_text(GOOD)
    assert E.plan_estimate_file(str(f)) == "plan"
    defaults = {"thresholdout_budget": None, "threshold": None, "binary": False, "prove_extremes": False}
    assert calls.pop() == ((10, 3, 0.9, None), defaults)
    f.write_text(
        GOOD + "half_width = 0.2\nthresholdout_budget = 7\nthreshold = 0.01\nbinary = true\nprove_extremes = true\n"
    )
    E.plan_estimate_file(str(f))
    given = {"thresholdout_budget": 7, "threshold": 0.01, "binary": True, "prove_extremes": True}
    assert calls.pop() == ((10, 3, 0.9, 0.2), given)
    # prove_extremes=True proves them whatever the file says; anything else leaves the file's
    f.write_text(GOOD + "prove_extremes = false\n")
    E.plan_estimate_file(str(f), prove_extremes=True)
    assert calls.pop()[1]["prove_extremes"] is True
    E.plan_estimate_file(str(f), prove_extremes=1)
    assert calls.pop()[1]["prove_extremes"] is False


# --------------------------------------------------------------------------------------------
# the extremes' integer searches, against brute force on predicates whose answer is known


@pytest.mark.parametrize("x0", [1, 5, 37, 38, 99, 100, 500])
def test_smallest_true_finds_the_first_true_count(x0):
    for target in (1, 2, 37, 99, 100):
        calls: list[int] = []

        def pred(c: int, target: int = target) -> bool:
            calls.append(c)
            return c >= target

        assert E._smallest_true(pred, x0, 1, 100) == target
        assert all(1 <= c <= 100 for c in calls)  # never asked beyond [lo, hi]
    assert E._smallest_true(lambda c: c >= 101, x0, 1, 100) is None
    assert E._smallest_true(lambda c: False, x0, 1, 100) is None
    assert E._smallest_true(lambda c: c >= 7, x0, 7, 7) == 7 and E._smallest_true(lambda c: False, x0, 7, 7) is None


def test_float_boundary_within_one_percent_from_every_start():
    """The answer b has pred(b) true and lies within 1 % (or one) above the true boundary T;
    hi when pred is never true; asked O(log) times."""
    for lo, hi in ((1, 10**6), (50, 10**9)):
        for target in (lo, lo + 1, 3 * lo, 777, 12_345, 654_321, hi - 1, hi):
            for start in (None, lo, target // 3, target, 2 * target + 5, hi, 10 * hi):
                calls: list[int] = []

                def pred(c: int, target: int = target) -> bool:
                    calls.append(c)
                    return c >= target

                b = E._float_boundary(pred, lo, hi, start)
                assert target <= b <= max(1.01 * target, target + 1), (lo, hi, target, start, b)
                assert len(calls) <= 120 and all(lo <= c <= hi for c in calls)
        assert E._float_boundary(lambda c: False, lo, hi) == hi
        assert E._float_boundary(lambda c: False, lo, hi, hi // 2) == hi


def test_secant_boundary_against_brute_force():
    """For decreasing g, the smallest integer with g <= 0 exactly (the bracket ends as two
    neighbours); lo when g(lo) <= 0 and hi when no point below hi has it."""
    import math

    cases = [
        (lambda x: 3 / math.sqrt(x) - 0.07, 1837),  # (3/0.07)^2 = 1836.7...
        (lambda x: 5000.5 - x, 5001),
        (lambda x: math.inf if x < 60 else 1e4 / x - 100, 100),  # infinite below 60: bisection
        (lambda x: 1e-9 * (2**40 - x), 2**40),
        (lambda x: math.exp(-x / 1e5) - 0.5, 69315),  # 1e5 ln 2 = 69314.7...
    ]
    for g, want in cases:
        for x0 in (1, 2, want - 1, want, want + 1, 3 * want, 10**13):
            assert E._secant_boundary(g, x0, 1, 10**13) == want, (want, x0)
    assert E._secant_boundary(lambda x: -1.0, 500, 3, 1000) == 3
    assert E._secant_boundary(lambda x: 1.0, 500, 3, 1000) == 1000
    assert E._secant_boundary(lambda x: 1.0, 5000, 3, 1000) == 1000
    assert E._secant_boundary(lambda x: 700.5 - x, 5000, 3, 1000) == 701


def test_thresholdout_surrogate_domain_and_given_threshold():
    """The float surrogate is finite exactly where the certificate exists: at least one training
    and one holdout record, beta_s strictly below F; a given threshold replaces the default."""
    import math

    lsig, ldel = math.log(1e-3), math.log(1e-12)
    f = 0.25  # exp(log(0.25)) is 0.25 exactly: beta_s = F is tried exactly
    assert math.exp(math.log(f)) == f
    est = E._thresholdout_est
    # one record each (sigma = 100: eps = 40/(100 * 1) = 0.4, finite)
    assert math.isfinite(est(2, 5, 20, f, None, math.log(100), 0.5, math.log(0.01), ldel))
    assert math.isinf(est(1, 5, 20, f, None, math.log(100), 0.5, math.log(0.01), ldel))
    assert math.isinf(est(1000, 5, 20, f, None, lsig, 1.0, math.log(0.01), ldel))  # no training record
    assert math.isinf(est(1000, 5, 20, f, None, lsig, 0.5, math.log(f), ldel))
    assert math.isinf(est(1000, 5, 20, f, None, lsig, 0.5, math.log(0.3), ldel))
    pt = [lsig, 0.5, math.log(0.01), ldel]
    assert E._certify_thresholdout(2, 5, 20, f, None, pt) is not None
    assert E._certify_thresholdout(1000, 5, 20, f, None, [lsig, 0.5, math.log(f), ldel]) is None
    # the holdout share 1 exactly: clamped to n - 1 holdout records, one for training
    one = E._certify_thresholdout(1000, 5, 20, f, None, [lsig, 1.0, math.log(0.01), ldel])
    assert (one.settings["holdout_records"], one.settings["training_records"]) == (999, 1)
    # a given threshold in the surrogate: the default's term replaced by it exactly
    default = E.default_threshold(500, 500, 5, f)
    pt = [math.log(0.1), 0.5, math.log(0.01), ldel]  # eps = 40/(0.1 * 500) = 0.8
    a = est(1000, 5, 20, f, None, *pt)
    b = est(1000, 5, 20, f, 0.5, *pt)
    assert math.isfinite(a)
    assert float(b) - float(a) == pytest.approx(0.5 - default, rel=1e-9, abs=0)


def test_thresholdout_certificate_names_the_missing_d_term():
    import math

    pt = [math.log(1e-3), 0.5, math.log(0.005), math.log(1e-12)]
    got = E._certify_thresholdout(10**6, 10**6, 20, 0.05, None, pt)
    line = got.derivation[-1]
    assert line.startswith("JLNRSS-transfer with c = ") and " (delta = 0: no d term): every answer within " in line


def test_regime_map_contour_levels_strictly_inside(tmp_path, monkeypatch):
    """Finite half-widths from 0.01 exactly to 1.5: the levels 0.02 ... 1.0 (0.01 is the
    minimum itself, not inside)."""
    plt, fig, ax, saved = _recording_axes(monkeypatch)
    widths = {E.REUSE_JLNRSS: [[0.01, 1.5], [0.3, 0.2]]}
    rm = E.RegimeMap(0.95, (10, 20), (1, 2), widths, [[0, 0], [0, -1]], (E.REUSE_JLNRSS,))
    E.plot_regime_map(rm, str(tmp_path / "m.png"))
    assert ax.contour.call_args.kwargs["levels"] == [0.02, 0.05, 0.1, 0.2, 0.5, 1.0]


def test_the_ladder_bisects_down_to_one():
    assert L._ladder(lambda d: True, [4]) == 1  # bisections (0, 4) -> 2 -> 1
    assert L._ladder(lambda d: d >= 3, [8]) == 4  # two bisections: (0, 8) -> 4 proved, (0, 4) -> 2 not
    assert L._ladder(lambda d: False, [1, 2, 3]) is None


def test_maxinfo_local_guess_is_the_full_grid_s_best_at_one_search_a_call(monkeypatch):
    """The cheaper guess of the max-information route: the full fine grid's best, found near
    the best point carried from call to call (one search a call after the first)."""
    full = {(n, k): E._maxinfo_search(n, k, 0.05)[0] for n, k in ((10**6, 100), (10**6, 120), (2 * 10**6, 120),
                                                                 (5 * 10**5, 50), (10**7, 1000))}  # fmt: skip
    calls: list[bool] = []
    real = E._maxinfo_search

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(args[3] if len(args) > 3 else True)
        return real(*args, **kwargs)

    monkeypatch.setattr(E, "_maxinfo_search", counting)
    loc = E._MaxinfoLocal()
    for i, ((n, k), want) in enumerate(full.items()):
        assert loc(n, k, 0.05) == want, (n, k)
        assert calls == ([False, True] if i == 0 else [True]), i
        calls.clear()


# --------------------------------------------------------------------------------------------
# the regime map itself: refusals, cells, progress


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"coverage": 1.0}, "coverage=1.0 is invalid: must be a real number in (0, 1)"),
        ({"coverage": 0.0}, "coverage=0.0 is invalid: must be a real number in (0, 1)"),
        ({"points": 1}, "points=1 is invalid: must be an integer in [2, 400]"),
        ({"points": 401}, "points=401 is invalid: must be an integer in [2, 400]"),
        ({"n_range": (0, 10)}, "n_range=0 is invalid: must be an integer in [1, 1000000000000000]"),
        ({"n_range": (10, 10**15 + 1)},
         "n_range=1000000000000001 is invalid: must be an integer in [1, 1000000000000000]"),
        ({"k_range": (0, 10)}, "k_range=0 is invalid: must be an integer in [1, 1000000000000]"),
        ({"k_range": (1, 10**12 + 1)}, "k_range=1000000000001 is invalid: must be an integer in [1, 1000000000000]"),
        ({"n_range": (10, 10)},
         "n_range/k_range=((10, 10), (1, 100000)) is invalid: must be ranges LO:HI with LO < HI"),
        ({"k_range": (5, 5)},
         "n_range/k_range=((1000, 10000000), (5, 5)) is invalid: must be ranges LO:HI with LO < HI"),
        ({"thresholdout_budget": 0}, "thresholdout_budget=0 is invalid: must be an integer in [1, inf]"),
        ({"thresholdout_budget": 5, "threshold": -1.0}, "threshold=-1.0 is invalid: must be a real number in [0, inf)"),
        ({"threshold": 0.1},
         "threshold=0.1 is invalid: must be given with thresholdout_budget (Thresholdout's budget B)"),
        ({"binary": 1}, "binary=1 is invalid: must be true or false (every query {0, 1}-valued)"),
    ],
)  # fmt: skip
def test_regime_map_refusals_word_for_word(kw, message):
    from maxinfo_bounds.numeric import InvalidParameter

    with pytest.raises(InvalidParameter) as err:
        E.regime_map(**{"coverage": 0.9, **kw})
    assert str(err.value) == message


def test_split_estimate_by_hand():
    """Hoeffding with a union bound on floor(n/k) records per query: sqrt(ln(2k/F)/(2m))."""
    import math

    assert E._split_est(10, 3, 0.05) == pytest.approx(math.sqrt(math.log(120) / 6), rel=1e-15, abs=0)  # m = 3
    assert E._split_est(5, 5, 0.1) == pytest.approx(math.sqrt(math.log(100) / 2), rel=1e-15, abs=0)  # m = 1
    assert E._split_est(4, 5, 0.1) == math.inf  # no record for the fifth query


def test_regime_map_cells_progress_and_thresholdout_row():
    """A 3 x 3 map: splitting's cells by hand (sqrt(ln(2k/F)/(2 floor(n/k))), inf where k > n),
    each cell's narrowest route, -1 where nothing is below 1, the Thresholdout row at least its
    certified half-width (a float estimate of a worse-or-equal point), progress after each n."""
    import math

    seen: list[tuple[int, int]] = []
    rm = E.regime_map(0.95, (2, 200_000), (1, 400), 3, lambda a, b: seen.append((a, b)), thresholdout_budget=5)
    assert rm.ns == (2, 632, 200_000) and rm.ks == (1, 20, 400)
    assert seen == [(1, 3), (2, 3), (3, 3)]
    assert rm.routes == (E.REUSE_JLNRSS, E.REUSE_BNSSSU, E.SPLIT, E.THRESHOLDOUT) and rm.thresholdout_budget == 5
    for i, n in enumerate(rm.ns):
        for j, k in enumerate(rm.ks):
            want = math.sqrt(math.log(2 * k / 0.05) / (2 * (n // k))) if k <= n else math.inf
            assert rm.widths[E.SPLIT][i][j] == pytest.approx(want, rel=1e-12, abs=0)
            cell = {r: rm.widths[r][i][j] for r in rm.routes}
            best = min(cell.values())
            w = rm.winner[i][j]
            assert (w == -1) if best >= 1 else (rm.routes[w] is min(cell, key=cell.get))
    # n = 2: k = 1 by splitting (two records: sqrt(ln(40)/4) = 0.96) and nothing below 1 at k = 20
    assert rm.winner[0][:2] == [2, -1]
    for j, k in enumerate(rm.ks):
        est = rm.widths[E.THRESHOLDOUT][2][j]
        cert = E.plan_estimate(200_000, k, 0.95, thresholdout_budget=5, maxinfo=False).route(E.THRESHOLDOUT)
        assert cert.half_width is not None and est >= cert.half_width * (1 - 1e-6)
        assert est <= cert.half_width * 1.05  # the coarse search is within 5 % of the fine one here
    assert E.regime_map(0.95, (2, 200_000), (1, 400), 3).thresholdout_budget is None


# --------------------------------------------------------------------------------------------
# plan_estimate's rows word for word


VAC = "vacuous: a half-width of 1 or more says nothing about [0, 1]-valued queries"
NAIVE_NOTE = (
    "not valid for adaptively chosen queries: a query chosen after seeing answers on the same records can overfit "
    "them (the half-width shown holds only for queries fixed before the data are seen)"
)
BINARY_NOTE = (
    "valid only when every query is {0, 1}-valued (say so with binary = true / --binary): for [0, 1]-valued "
    "queries a Bernoulli is not the worst case of a tail"
)
BUDGET_NOTE = (
    "give the overfitting budget B (thresholdout_budget; --thresholdout-budget): the number of answers "
    "Thresholdout may take from the holdout before it stops"
)
BNSSSU_NOTE = (
    "no noise level is inside RRST Thm B.2's conditions here (eps < 1/3, delta < eps/4, "
    "n >= ln(4 eps/delta)/eps^2, delta/eps below 1 - coverage)"
)
THEOREMS = {
    E.REUSE_JLNRSS: ("DRS22-3.3", "DRS22-2.13", "GAUSS-max", "JLNRSS-transfer"),
    E.REUSE_BNSSSU: ("DRS22-3.3", "DRS22-2.13", "GAUSS-max", "RRST-B.2"),
    E.REUSE_MAXINFO: ("DRS22-3.3", "DRS22-2.13", "RRST-3.1", "DFHPRR-4", "GAUSS-max"),
    E.SPLIT: ("SPLIT-Hoeffding",),
    E.SPLIT_BINARY: ("SPLIT-binomial",),
    E.NAIVE: ("SPLIT-Hoeffding",),
}


def _hoeffding(n: int, k: int, coverage: float) -> mpmath.mpf:
    """sqrt(ln(2k/F)/(2 floor(n/k))) at 40 digits, F = 1 - coverage exactly (the float 0.95 is
    0.94999999999999995559..., so F is 0.0500000000000000444...)."""
    with mpmath.workdps(40):
        return mpmath.sqrt(mpmath.log(2 * k / (1 - mpmath.mpf(coverage))) / (2 * (n // k)))


def test_plan_rows_where_every_valid_route_is_vacuous():
    """n = 1000, k = 600, target 0.3: splitting has one record a query (sqrt(ln(24000)/2) =
    2.2456), every reuse route is above 1 too: each valid row says it is vacuous, none is
    recommended. Splitting's extremes by hand: the largest k with floor(1000/k) records meeting
    0.3 (brute force) and the smallest n: 600 ceil(ln(24000)/0.18) = 600 * 57 = 34,200."""
    p = E.plan_estimate(1000, 600, 0.95, 0.3)
    assert p.recommended is None and [r.route for r in p.routes] == [
        E.REUSE_JLNRSS, E.REUSE_BNSSSU, E.REUSE_MAXINFO, E.THRESHOLDOUT, E.SPLIT, E.SPLIT_BINARY, E.NAIVE,
    ]  # fmt: skip
    for r in p.routes:
        if r.route in THEOREMS:
            assert r.theorems == THEOREMS[r.route], r.route
        if r.valid:
            assert r.half_width >= 1
    assert p.route(E.REUSE_JLNRSS).note == p.route(E.REUSE_BNSSSU).note == VAC
    assert p.route(E.REUSE_MAXINFO).note == (
        "shown for comparison: far wider than the JLNRSS transfer for statistical queries; " + VAC
    )
    th = p.route(E.THRESHOLDOUT)
    assert (th.valid, th.half_width, th.theorems, th.note) == (False, None, ("Notes-Thresholdout",), BUDGET_NOTE)
    sp = p.route(E.SPLIT)
    want = _hoeffding(1000, 600, 0.95)
    assert want <= sp.half_width <= want * (1 + 1e-12) and sp.coverage >= 0.95 and sp.note == VAC
    assert sp.settings == {"records_per_query": 1}
    assert sp.derivation == (
        "each query answered on its own 1 fresh records (n // k), never seen before",
        "SPLIT-Hoeffding: every answer within sqrt(ln(2k/beta)/(2m)) = 2.24565 with probability >= 0.95 "
        "(Hoeffding, union bound over 600 queries)",
    )
    kmax = max(k for k in range(1, 1001) if _hoeffding(1000, k, 0.95) <= 0.3)
    assert sp.max_queries_at_half_width == kmax and sp.required_n_records == 34_200
    sb = p.route(E.SPLIT_BINARY)
    assert (sb.valid, sb.half_width, sb.note, sb.max_queries_at_half_width) == (False, None, BINARY_NOTE, None)
    nv = p.route(E.NAIVE)
    with mpmath.workdps(40):
        naive = mpmath.sqrt(mpmath.log(2 * 600 / (1 - mpmath.mpf(0.95))) / 2000)  # 0.0710134...
    assert naive <= nv.half_width <= naive * (1 + 1e-12)
    assert (nv.valid, nv.coverage, nv.note, nv.settings) == (False, None, NAIVE_NOTE, {"records_per_query": 1000})
    assert nv.derivation == (
        "Hoeffding on all 1000 records with a union bound: 0.0710135 for queries fixed in advance",
    )
    assert nv.max_queries_at_half_width is None and nv.extremes is None


def test_plan_rows_with_more_queries_than_records():
    p = E.plan_estimate(2, 5, 0.95, thresholdout_budget=1)
    sp = p.route(E.SPLIT)
    assert (sp.valid, sp.half_width, sp.settings, sp.derivation) == (False, None, {}, ())
    assert sp.note == "5 queries need at least 5 records (one each)" and sp.theorems == ("SPLIT-Hoeffding",)
    assert p.route(E.REUSE_BNSSSU).note == BNSSSU_NOTE and not p.route(E.REUSE_BNSSSU).valid
    # the naive row is never valid, so never marked vacuous, even above 1 (sqrt(ln(200)/4) = 1.15)
    nv = p.route(E.NAIVE)
    assert nv.half_width > 1 and nv.note == NAIVE_NOTE
    # one record: Thresholdout needs a holdout and a training record
    th = E.plan_estimate(1, 1, 0.95, thresholdout_budget=1).route(E.THRESHOLDOUT)
    assert (th.valid, th.note) == (False, "no setting gives a finite half-width here (it needs at least 2 records)")
    assert th.theorems == ("Notes-Thresholdout", "JLNRSS-transfer")


def test_plan_recommends_the_narrowest_useful_route():
    """n = 10, k = 1: splitting (all ten records: sqrt(ln(40)/20) = 0.4295) is the only route
    below 1 and is recommended; with binary queries at 10^6 records and 100 queries, the exact
    binomial tail is narrower than Hoeffding's and is recommended."""
    p = E.plan_estimate(10, 1, 0.95)
    assert p.recommended == E.SPLIT
    assert _hoeffding(10, 1, 0.95) <= p.route(E.SPLIT).half_width <= _hoeffding(10, 1, 0.95) * (1 + 1e-12)
    assert [r.route for r in p.routes if r.valid and r.half_width < 1] == [E.SPLIT]
    p = E.plan_estimate(10**6, 100, 0.95, binary=True)
    assert p.recommended == E.SPLIT_BINARY and p.binary
    valid = [r for r in p.routes if r.valid]
    assert p.route(E.SPLIT_BINARY).half_width == min(r.half_width for r in valid)


def _thresholdout_optimum(n: int, k: int, budget: int, f: float, threshold: float | None) -> float:
    """The route's half-width (the 50-digit formula above, in floats) minimised over (log sigma,
    holdout share, log beta_s, log delta) by scipy's Nelder-Mead from nine starts."""
    from scipy.optimize import minimize

    def hw(x: Any) -> float:
        lsig, frac, lbs, ldel = x
        if not (0 < frac < 1 and lbs < mpmath.log(f) and ldel < 0):
            return 1e9
        return float(_thresholdout_ref(n, k, budget, f, [lsig, frac, lbs, ldel], threshold=threshold)[0])

    opts = {"xatol": 1e-8, "fatol": 1e-12, "maxiter": 8000}
    starts = [[ls, fr, float(mpmath.log(f / 10)), -30.0] for ls in (-9.0, -7.0, -5.0) for fr in (0.3, 0.6, 0.9)]
    return min(minimize(hw, x0, method="Nelder-Mead", options=opts).fun for x0 in starts)


@pytest.mark.parametrize(
    ("n", "k", "budget", "f", "threshold"),
    [
        (10**6, 10**6, 20, 0.05, None),
        (10**6, 10**6, 20, 0.05, 0.02),  # a given threshold (the default is 0.0085 here)
        (10**5, 1000, 50, 0.1, None),
        (10**7, 10**5, 200, 0.05, None),
    ],
)
def test_thresholdout_search_finds_the_independent_optimum(n, k, budget, f, threshold):
    """The planner's certified Thresholdout half-width at its search's point equals the
    independent optimum within 10^-9 relative (measured: within 6e-14)."""
    best = _thresholdout_optimum(n, k, budget, f, threshold)
    _, point = E._thresholdout_search(n, k, budget, f, threshold)
    got = E._certify_thresholdout(n, k, budget, f, threshold, point).half_width
    assert best * (1 - 1e-9) <= got <= best * (1 + 1e-9)
    if threshold is None and f == 0.05:
        plan = E.plan_estimate(n, k, 0.95, thresholdout_budget=budget, maxinfo=False)
        assert plan.route(E.THRESHOLDOUT).half_width <= best * (1 + 1e-9)


# --------------------------------------------------------------------------------------------
# the max-information route's certificate, both sides, and its grid search


@pytest.mark.parametrize(("n", "k"), [(10**8, 1000), (10**6, 1), (10**7, 30)])
def test_maxinfo_certificate_both_sides_at_50_digits(n, k):
    """At the search's point: beta_s = F/4; eps the GDP curve's at delta (tight); tau the
    smallest with 2^(k_bits + log2 k) 2 e^(-2 tau^2 n) <= F - beta_s - beta_mi (DFHPRR Thm 4 with
    Hoeffding and a union over the k queries; log2 k only for k > 1), within 10^-6; the half-width
    sigma z_k(beta_s) + tau and the coverage (the noise's exact coverage at its printed half-width,
    less beta_mi and the tail), each within 10^-9."""
    f = E._failure(0.95)
    assert Fraction(f) <= 1 - Fraction(0.95) and 4 * Fraction(f) > 0  # F rounded down: safe
    _, point = E._maxinfo_search(n, k, f)
    got = E._certify_maxinfo(n, k, f, point)
    s = got.settings
    assert s["beta_sample"] == f / 4 and s["delta"] == point[1]
    with mpmath.workdps(50):
        mu, eps, delta = mpmath.mpf(s["total_mu"]), mpmath.mpf(s["eps_nats"]), mpmath.mpf(s["delta"])
        assert mu >= mpmath.sqrt(k) / (n * mpmath.mpf(s["sigma"])) * (1 - mpmath.mpf(10) ** -15)
        assert _gdp_delta(mu, eps) <= delta < _gdp_delta(mu, eps * (1 - mpmath.mpf(10) ** -9))
        bm = mpmath.mpf(s["maxinfo_beta"])
        assert f / 4 * (1 - 1e-7) <= bm <= f / 4
        kq = mpmath.mpf(s["maxinfo_k_bits"]) + (mpmath.log(k, 2) if k > 1 else 0)
        tau = mpmath.mpf(s["tau"])
        room = mpmath.mpf(f) - mpmath.mpf(s["beta_sample"]) - bm
        tau_min = mpmath.sqrt((kq * mpmath.log(2) + mpmath.log(2 / room)) / (2 * n))
        assert tau_min <= tau <= tau_min * (1 + mpmath.mpf(10) ** -6)
        tail = 2**kq * 2 * mpmath.exp(-2 * tau**2 * n)
        sample = _ref_half_width(s["sigma"], k, mpmath.mpf(f) / 4)
        assert sample <= s["sample_half_width"] <= sample * (1 + mpmath.mpf(10) ** -12)
        assert sample + tau <= got.half_width <= (sample + tau) * (1 + mpmath.mpf(10) ** -9)
        # the noise's exact coverage at its printed (rounded-up) half-width, at least 1 - beta_s
        within = mpmath.erf(mpmath.mpf(s["sample_half_width"]) / (mpmath.mpf(s["sigma"]) * mpmath.sqrt(2))) ** k
        assert within >= 1 - mpmath.mpf(s["beta_sample"])
        cover = within - bm - tail
        assert 0.95 <= got.coverage <= cover and got.coverage >= cover - mpmath.mpf(10) ** -9


def test_maxinfo_search_picks_the_grid_s_certified_best():
    """The float search's point is the best of its 12 x 7 grid by the certified half-width itself
    (brute force: every grid point certified)."""
    f = E._failure(0.95)
    for n, k in ((10**8, 1000), (10**6, 100)):
        _, point = E._maxinfo_search(n, k, f)
        got = E._certify_maxinfo(n, k, f, point).half_width
        every = [E._certify_maxinfo(n, k, f, [mu, d]) for mu in E._MI_MUS for d in E._MI_DELTAS]
        best = min(c.half_width for c in every if c is not None)
        assert got <= best * (1 + 1e-9), (n, k)
        # the coarse search: every second noise level and three deltas, its best among them
        _, coarse = E._maxinfo_search(n, k, f, False)
        sub = [E._certify_maxinfo(n, k, f, [mu, d]) for mu in E._MI_MUS[::2] for d in (1e-12, 1e-20, 1e-30)]
        assert E._certify_maxinfo(n, k, f, coarse).half_width <= min(c.half_width for c in sub if c) * (1 + 1e-9)


# --------------------------------------------------------------------------------------------
# the Gaussian routes' certificates at chosen settings, both sides at 50 digits


def _noise_checks(s: dict, n: int, k: int, mu_target: float) -> Any:
    """sigma = sqrt(k)/(n mu) rounded up, the certified total mu of k queries at it, and the
    exact GDP delta at eps (Dong-Roth-Su Cor. 2.13), each tight."""
    sigma = mpmath.sqrt(k) / (n * mpmath.mpf(mu_target))
    assert sigma <= s["sigma"] <= sigma * (1 + mpmath.mpf(10) ** -15)
    mu = mpmath.sqrt(k) / (n * mpmath.mpf(s["sigma"]))
    assert mu <= s["total_mu"] <= mu * (1 + mpmath.mpf(10) ** -12)
    delta = _gdp_delta(mpmath.mpf(s["total_mu"]), mpmath.mpf(s["eps_nats"]))
    assert delta <= s["delta"] <= delta * (1 + mpmath.mpf(10) ** -9)
    return mpmath.mpf(s["delta"])


@pytest.mark.parametrize(
    ("n", "k", "mu", "eps", "bs"),
    [(10**6, 10**4, 0.2, 0.03, 0.004), (2 * 10**5, 411, 0.05, 0.05, 0.01), (10**4, 1, 1.5, 0.5, 0.02)],
)
def test_jlnrss_certificate_both_sides_at_50_digits(n, k, mu, eps, bs):
    """The JLNRSS transfer at a chosen (mu, eps, beta_s): c + 2d at the Lagrange optimum
    (sqrt(beta_s) + sqrt(2 delta))^2 / F, the half-width sigma z_k(beta_s) + (e^eps - 1) + c + 2d and
    the coverage 1 - beta_s/c - delta/d, each within 10^-9 and on its safe side."""
    import math

    f = E._failure(0.95)
    point = [math.log(mu), math.log(eps), math.log(bs)]
    got = E._certify_jlnrss(n, k, f, point)
    s = got.settings
    mu, eps, bs = (math.exp(x) for x in point)  # the settings the certificate was asked for
    with mpmath.workdps(50):
        delta = _noise_checks(s, n, k, mu)
        assert s["eps_nats"] == eps and s["beta_sample"] == bs
        sample = _ref_half_width(s["sigma"], k, bs)
        assert sample <= s["sample_half_width"] <= sample * (1 + mpmath.mpf(10) ** -12)
        lagrange = (mpmath.sqrt(bs) + mpmath.sqrt(2 * delta)) ** 2 / mpmath.mpf(f)
        assert lagrange <= s["c"] + 2 * s["d"] <= lagrange * (1 + mpmath.mpf(10) ** -11)
        failure = mpmath.mpf(bs) / s["c"] + delta / s["d"]
        assert failure <= f
        width = mpmath.mpf(s["sample_half_width"]) + mpmath.expm1(eps) + s["c"] + 2 * s["d"]
        assert width <= got.half_width <= width * (1 + mpmath.mpf(10) ** -12)
        assert 1 - failure - mpmath.mpf(10) ** -12 <= got.coverage <= 1 - failure and got.coverage >= 0.95
    lines = got.derivation
    assert lines[1].startswith(f"DRS22-3.3: the {k} answers are exactly mu-GDP, mu = sqrt(k)/(n sigma) = ")
    assert lines[4].startswith("JLNRSS-transfer with c = ") and lines[4].endswith(f"= {E._down(got.coverage)}")
    # a noise level beyond the certified range (total mu above 10^7): no certificate
    assert E._certify_jlnrss(n, k, f, [math.log(1e8), math.log(eps), math.log(bs)]) is None


@pytest.mark.parametrize(("n", "k", "mu", "eps"), [(10**8, 30, 1.7e-4, 2.2e-4), (10**7, 1, 5.6e-4, 6.7e-4)])
def test_bnsssu_certificate_both_sides_at_50_digits(n, k, mu, eps):
    """RRST Thm B.2 at a chosen (mu, eps): deviation 18 eps except with probability delta/eps,
    beta_s = F - delta/eps rounded down, the half-width sigma z_k(beta_s) + 18 eps and the
    coverage (the noise's exact coverage at its printed half-width less delta/eps), each tight."""
    import math

    f = E._failure(0.95)
    got = E._certify_bnsssu(n, k, f, [math.log(mu), math.log(eps)])
    s = got.settings
    mu, eps = math.exp(math.log(mu)), math.exp(math.log(eps))
    assert s["eps_nats"] == eps
    with mpmath.workdps(50):
        delta = _noise_checks(s, n, k, mu)
        q = delta / eps
        assert q < 0.25 and eps < mpmath.mpf(1) / 3 and n >= mpmath.log(4 * eps / delta) / eps**2  # B.2's conditions
        bs = mpmath.mpf(s["beta_sample"])
        assert mpmath.mpf(f) - q * (1 + mpmath.mpf(10) ** -12) <= bs <= mpmath.mpf(f) - q
        sample = _ref_half_width(s["sigma"], k, bs)
        assert sample <= s["sample_half_width"] <= sample * (1 + mpmath.mpf(10) ** -12)
        width = sample + 18 * mpmath.mpf(eps)
        assert width <= got.half_width <= width * (1 + mpmath.mpf(10) ** -12)
        within = mpmath.erf(mpmath.mpf(s["sample_half_width"]) / (mpmath.mpf(s["sigma"]) * mpmath.sqrt(2))) ** k
        cover = within - q
        assert cover - mpmath.mpf(10) ** -12 <= got.coverage <= cover and got.coverage >= 0.95
    assert "deviation < 18 eps = " in got.derivation[2] and got.derivation[4].startswith("together: half-width ")
    # outside RRST Thm B.2 (eps >= 1/3; delta/eps above F): no certificate
    assert E._certify_bnsssu(n, k, f, [math.log(mu), math.log(0.34)]) is None
    assert E._certify_bnsssu(n, k, f, [math.log(10.0), math.log(eps)]) is None


def test_plan_estimate_passes_thresholdout_s_budget_and_threshold():
    """The Thresholdout row is certified with the study's own budget B and threshold T: its
    settings carry them, its half-width is the independent optimum at them, and its extremes
    are searched with them (the largest k meets the target at B and T; k + 1 does not). With a
    fixed threshold the half-width grows only like log k: at target 0.25 every k the search
    reaches (10^12) meets it, and the table and the note say "at least"."""
    n, k, budget, thr = 10**6, 10**5, 20, 0.02
    f = E._failure(0.95)

    def cert(kk: int) -> float:
        return E._certify_thresholdout(
            n, kk, budget, f, thr, E._thresholdout_search(n, kk, budget, f, thr)[1]
        ).half_width

    p = E.plan_estimate(n, k, 0.95, 0.17, thresholdout_budget=budget, threshold=thr, maxinfo=False)
    r = p.route(E.THRESHOLDOUT)
    assert r.valid and r.settings["budget"] == budget and r.settings["threshold"] == thr
    assert r.theorems == ("Notes-Thresholdout", "JLNRSS-transfer") and r.note == ""
    best = _thresholdout_optimum(n, k, budget, f, thr)
    assert best * (1 - 1e-9) <= r.half_width <= best * (1 + 1e-9)
    kmax = r.max_queries_at_half_width
    assert k < kmax < E.MAX_QUERIES and cert(kmax) <= 0.17 < cert(kmax + 1)
    p = E.plan_estimate(n, k, 0.95, 0.25, thresholdout_budget=budget, threshold=thr, maxinfo=False)
    r = p.route(E.THRESHOLDOUT)
    assert r.max_queries_at_half_width == E.MAX_QUERIES and cert(E.MAX_QUERIES) <= 0.25
    assert r.note == "max queries: at least 1000000000000 (that many meet the target; the search's range ends there)"
    row = next(ln for ln in p.text(derivations=False).splitlines() if ln.startswith(str(E.THRESHOLDOUT)))
    assert ">= 1000000000000*" in row
    assert p.route(E.REUSE_JLNRSS).note == ""


@pytest.mark.parametrize(("n", "k"), [(10**6, 10**4), (2 * 10**5, 411), (10**8, 30)])
def test_gaussian_routes_reach_the_independent_minimum(n, k):
    """The planner's certified JLNRSS and BNSSSU half-widths against Nelder-Mead minima of the
    routes' exact half-widths written from the theorems (tests/test_limits.py, 30 digits):
    JLNRSS within 10^-9 (measured: 4e-13), BNSSSU within 10^-9 (measured: 5.5e-11 at n = 10^8,
    where B.2's condition n >= ln(4 eps/delta)/eps^2 binds and delta is raised to its floor; it
    was 1.4e-5 when the planner kept delta on the GDP curve)."""
    from .test_limits import _minimum, bnsssu_h, jlnrss_h

    p = E.plan_estimate(n, k, 0.95, maxinfo=False)
    failure = 1 - Fraction(0.95)
    jl = p.route(E.REUSE_JLNRSS)
    s = jl.settings
    starts = [
        (s["total_mu"], s["eps_nats"], s["beta_sample"]),
        (s["total_mu"] * 1.3, s["eps_nats"] * 0.7, s["beta_sample"] * 2),
    ]
    best = _minimum(lambda *x: jlnrss_h(n, k, failure, *x), starts)
    assert best * (1 - 1e-10) <= jl.half_width <= best * (1 + 1e-9)
    bn = p.route(E.REUSE_BNSSSU)
    s = bn.settings
    best = _minimum(
        lambda *x: bnsssu_h(n, k, failure, *x),
        [(s["total_mu"], s["eps_nats"]), (s["total_mu"] * 1.3, s["eps_nats"] * 0.8)],
    )
    assert best * (1 - 1e-10) <= bn.half_width <= best * (1 + 1e-9)


def test_every_route_at_the_search_s_end_says_at_least():
    """Splitting's search stops at 10^12 queries too: at n = 10^14 and target 0.5, 10^12 queries of
    100 records each meet it (Hoeffding: sqrt(ln(2 10^12 / F)/200) = 0.396, by hand), so its row
    carries the same note as the noise routes at the cap, and the table shows ">=" for it."""
    import math

    assert math.sqrt(math.log(2 * 10**12 / 0.05) / 200) < 0.5
    p = E.plan_estimate(10**14, 10, 0.95, 0.5, maxinfo=False)
    sp = p.route(E.SPLIT)
    assert sp.max_queries_at_half_width == E.MAX_QUERIES and sp.note == E.CAP_NOTE
    assert (
        E.CAP_NOTE == "max queries: at least 1000000000000 (that many meet the target; the search's range ends there)"
    )
    row = next(ln for ln in p.text(derivations=False).splitlines() if ln.startswith(str(E.SPLIT) + " "))
    assert ">= 1000000000000  " in row
    # a route below the cap has no such note
    assert E.plan_estimate(10**6, 10, 0.95, 0.5, maxinfo=False).route(E.SPLIT).note == ""


# --------------------------------------------------------------------------------------------
# the max-information route's tail: tau as small as the certified tail allows, and the loop
# that widens it when the first guess does not fit


@pytest.mark.parametrize(("n", "k"), [(10**7, 2), (10**8, 1000)])
def test_maxinfo_tau_within_2_to_the_minus_28_of_the_exact_root(n, k):
    """tau is the root of 2^(k_bits + log2 k) 2 e^(-2 tau^2 n) = F - beta_s - beta_mi, moved up
    by 2^-30 so that the certified tail fits: at most 2^-28 above the 50-digit root, never below
    it. At k = 2 the union over the queries costs exactly 1 bit (log2 2)."""
    f = E._failure(0.95)
    _, point = E._maxinfo_search(n, k, f)
    s = E._certify_maxinfo(n, k, f, point).settings
    with mpmath.workdps(50):
        kq = mpmath.mpf(s["maxinfo_k_bits"]) + mpmath.log(k, 2)
        room = mpmath.mpf(f) - mpmath.mpf(f) / 4 - mpmath.mpf(s["maxinfo_beta"])
        root = mpmath.sqrt((kq * mpmath.log(2) + mpmath.log(2 / room)) / (2 * n))
        assert root <= s["tau"] <= root * (1 + mpmath.mpf(2) ** -28)
        tail = 2**kq * 2 * mpmath.exp(-2 * mpmath.mpf(s["tau"]) ** 2 * n)
        assert tail + mpmath.mpf(s["maxinfo_beta"]) + mpmath.mpf(f) / 4 <= f


def test_maxinfo_tau_widens_until_the_certified_tail_fits(monkeypatch):
    """Where the certified tail at the first tau does not fit (here a tail that charges the
    first 40 calls an extra F/2: a rounding far larger than any real one), tau grows by steps
    of 2^-20 until it does, and the certificate's coverage then holds with that tail."""
    from maxinfo_bounds.theorems import generalization

    real = generalization.hoeffding_transfer
    calls = []

    def padded(kq, beta, tau, n):
        calls.append(tau)
        value = real(kq, beta, tau, n)
        return value + (f / 2 if len(calls) <= 40 else 0.0)

    n, k = 10**7, 30
    f = E._failure(0.95)
    _, point = E._maxinfo_search(n, k, f)
    honest = E._certify_maxinfo(n, k, f, point)
    monkeypatch.setattr(generalization, "hoeffding_transfer", padded)
    got = E._certify_maxinfo(n, k, f, point)
    assert len(calls) == 41
    assert all(b == a * (1 + 2.0**-20) for a, b in zip(calls, calls[1:]))
    assert got.settings["tau"] == calls[-1] == pytest.approx(honest.settings["tau"] * (1 + 2.0**-20) ** 40, rel=1e-15)
    # the coverage is read with the tail that fitted
    assert got.coverage >= 0.95 and got.half_width > honest.half_width


# --------------------------------------------------------------------------------------------
# splitting with the exact binomial tail: the route's rows


def test_split_binary_route_rows_word_for_word():
    """Exact tail (m = 25 records a query): the half-width and coverage of SPLIT-binomial, the
    two derivation lines; Hoeffding's bound beyond 50,000 records a query, said in the note; more
    queries than records: refused with the extremes kept; not {0, 1}-valued: refused."""
    from maxinfo_bounds.theorems.binomial_split import split_binomial

    f = E._failure(0.95)
    r = E._split_binary_route(100, 4, f, None, True)
    b = split_binomial(100, 4, f)
    assert (r.route, r.valid, r.half_width, r.coverage) == (E.SPLIT_BINARY, True, b.half_width, b.coverage)
    assert r.settings == {"records_per_query": 25} and r.theorems == ("SPLIT-binomial",) and r.note == ""
    how = "sup over p of P_p(|X/m - p| > t), X ~ Bin(m, p), at most 1 - coverage^(1/k) (exact binomial tail, certified)"
    assert r.derivation == (
        "each query answered on its own 25 fresh records (n // k), never seen before; queries {0, 1}-valued",
        f"SPLIT-binomial: every answer within {E._up(b.half_width)} with probability >= {E._down(b.coverage)}: {how}",
    )
    assert 0.2 < r.half_width < 0.3  # 25 coin flips: 95% of every answer within about 0.25
    assert r.max_queries_at_half_width is None and r.required_n_records is None

    # 100,000 records a query: Hoeffding's bound sqrt(ln(2k/F)/(2m)) with the union bound
    h = E._split_binary_route(10**6, 10, f, None, True)
    with mpmath.workdps(50):
        hoeff = mpmath.sqrt(mpmath.log(20 / mpmath.mpf(f)) / (2 * 100_000))
    assert hoeff <= h.half_width <= hoeff * (1 + 1e-12) and h.valid and h.coverage <= 0.95
    why = "Hoeffding's bound: the exact tail is evaluated up to 50000 records per query"
    assert h.note == why and h.derivation[1].endswith(": " + why)
    assert h.settings == {"records_per_query": 100_000}

    # 7 queries, 5 records: invalid, the extremes at the target still given
    x = E._split_binary_route(5, 7, f, 0.3, True)
    assert (x.valid, x.half_width, x.coverage) == (False, None, None)
    assert x.note == "7 queries need at least 7 records (one each)"
    assert x.max_queries_at_half_width == E.split_binomial_max_queries(5, 0.3, f)
    assert x.required_n_records == E.split_binomial_required_n(7, 0.3, f)
    assert x.required_n_records > 7 and x.theorems == ("SPLIT-binomial",)

    no = E._split_binary_route(100, 4, f, 0.3, False)
    assert not no.valid and no.note.startswith("valid only when every query is {0, 1}-valued")
    assert no.max_queries_at_half_width is None


def test_split_binary_route_refuses_an_undecided_extreme(monkeypatch):
    """An extreme the certified search cannot decide is refused in the note, not guessed; the
    other extreme and the half-width stand."""
    from maxinfo_bounds.theorems.binomial_split import Undecided

    def undecided(*args):
        raise Undecided("t", "m = 9, k = 3", "a record count the certified search can decide")

    monkeypatch.setattr(E, "split_binomial_max_queries", undecided)
    f = E._failure(0.95)
    r = E._split_binary_route(400, 4, f, 0.3, True)
    assert r.valid and r.max_queries_at_half_width is None
    assert r.required_n_records == E.split_binomial_required_n(4, 0.3, f)
    assert r.note == "max_queries_at_half_width: refused, not decided within the rounding at m = 9, k = 3"
    # with Hoeffding's fallback too (100,000 records a query): both notes, joined by "; "
    h = E._split_binary_route(10**6, 10, f, 0.3, True)
    assert h.note == (
        "max_queries_at_half_width: refused, not decided within the rounding at m = 9, k = 3; "
        "Hoeffding's bound: the exact tail is evaluated up to 50000 records per query"
    )


# --------------------------------------------------------------------------------------------
# the float surrogates the searches minimise, at their conditions' edges


def _mu_at_ratio(eps, ratio):
    """The mu with delta_mu(eps)/eps = ratio (bisection at 30 digits; delta rises in mu)."""
    with mpmath.workdps(30):
        lo, hi = mpmath.mpf(1e-4), mpmath.mpf(20)
        for _ in range(150):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if _gdp_delta(mid, eps) / eps < ratio else (lo, mid)
        return float(hi)


def test_bnsssu_surrogate_inside_and_at_each_condition_of_rrst_b2():
    """sqrt(k) z_k(F - delta/eps)/(n mu) + 18 eps with delta the larger of the GDP curve's and
    B.2's floor 4 eps e^(-n eps^2) (its condition n >= ln(4 eps/delta)/eps^2: any delta above the
    curve is one the mechanism satisfies), where RRST Thm B.2 applies: eps < 1/3, delta < eps/4
    and beta = F - delta/eps > 0; inf elsewhere (a delta that underflows to 0 included, without
    a warning)."""
    k = 50

    def est(n, f, mu, eps):
        return float(E._bnsssu_est(n, k, f, np.log(mu), np.log(eps)))

    def ref(n, f, mu, eps):
        with mpmath.workdps(30):
            delta = max(_gdp_delta(mu, eps), 4 * eps * mpmath.exp(-n * mpmath.mpf(eps) ** 2))
            bs = f - delta / eps
            return mpmath.sqrt(k) / (n * mpmath.mpf(mu)) * _mp_z(bs, k) + 18 * mpmath.mpf(eps)

    # F = 1/2, eps = 0.1: delta/eps = 0.22 is allowed (beta = 0.28), 0.3 is not (delta >= eps/4)
    for ratio, valid in [(0.22, True), (0.3, False)]:
        mu = _mu_at_ratio(0.1, ratio)
        got = est(10**4, 0.5, mu, 0.1)
        assert (got == pytest.approx(float(ref(10**4, 0.5, mu, 0.1)), rel=1e-9)) if valid else got == math.inf
    # eps = 0.3 is allowed, 1/3 and 0.5 are not
    mu = _mu_at_ratio(0.3, 0.01)
    assert est(10**4, 0.05, mu, 0.3) == pytest.approx(float(ref(10**4, 0.05, mu, 0.3)), rel=1e-9)
    assert est(10**4, 0.05, _mu_at_ratio(0.5, 0.01), 0.5) == math.inf
    # the sample-size condition: above ln(4 eps/delta)/eps^2 delta is the curve's; below it, the
    # floor's (a smaller beta, still a valid setting)
    mu, eps = 0.03, 0.1
    with mpmath.workdps(30):
        bound = mpmath.log(4 * eps / _gdp_delta(mu, eps)) / eps**2
    assert 1000 < bound < 5000
    above, below = int(mpmath.ceil(bound)) + 1, int(mpmath.floor(bound)) - 50
    for n in (above, below):
        assert est(n, 0.05, mu, eps) == pytest.approx(float(ref(n, 0.05, mu, eps)), rel=1e-9)
    assert 4 * eps * math.exp(-below * eps**2) > 1.5 * float(_gdp_delta(mu, eps))  # the floor binds below
    # the floor alone spends beta: 4 e^(-n eps^2) >= F at n = 300, eps = 0.1 (4 e^-3 = 0.199)
    assert est(300, 0.05, mu, eps) == math.inf and est(300, 0.25, mu, eps) < math.inf
    # beta used up: delta/eps >= F
    assert est(10**4, 0.05, _mu_at_ratio(0.1, 0.06), 0.1) == math.inf
    # delta underflows to 0 (mu = 10^-4 at eps = 0.2) and so does the floor (n = 10^6): delta > 0 fails
    assert est(10**6, 0.05, 1e-4, 0.2) == math.inf


def test_jlnrss_surrogate_refuses_a_sample_failure_beyond_the_budget():
    """beta_s must stay below F (beta_s/c <= F with c <= ... the split needs room): inf at
    beta_s above F, the transfer's half-width below it (30 digits)."""
    n, k, f, mu, eps = 10**6, 1000, 0.05, 0.5, 0.02
    with mpmath.workdps(30):
        bs = mpmath.mpf(1e-3)
        ref = (
            mpmath.sqrt(k) / (n * mpmath.mpf(mu)) * _mp_z(bs, k) + mpmath.expm1(eps)
            + (mpmath.sqrt(bs) + mpmath.sqrt(2 * _gdp_delta(mu, eps))) ** 2 / f
        )  # fmt: skip
    got = E._jlnrss_est(n, k, f, np.log(mu), np.log(eps), np.log(1e-3))
    assert float(got) == pytest.approx(float(ref), rel=1e-9)
    over = E._jlnrss_est(n, k, f, np.log(mu), np.log(eps), np.log(np.array([0.051, 0.2])))
    assert over.dtype == float and over.tolist() == [math.inf, math.inf]


def test_budget_note_only_without_a_budget():
    assert E._budget_note(None).startswith("give the overfitting budget B (thresholdout_budget")
    assert E._budget_note(5) == "" and E._budget_note(1) == ""


def test_crossover_text_of_a_one_column_map():
    """A map with one k has no crossovers: each run of n is named by its one route."""
    rm = E.RegimeMap(0.95, (1000, 2000, 4000), (10,), {}, [[2], [2], [0]])
    assert E.crossover_text(rm).splitlines() == [
        "crossovers (the first k of the map's grid at which the narrowest route changes):",
        f"  n in [1000, 2000]: {E.SPLIT} {E._EVERY}",
        f"  n = 4000: {E.REUSE_JLNRSS} {E._EVERY}",
    ]


# --------------------------------------------------------------------------------------------
# the extremes' searches: the work they do (the benchmark's 0.5 s rests on it)


def _counting(g):
    calls = []

    def wrapped(x):
        calls.append(x)
        return g(x)

    return wrapped, calls


def test_secant_boundary_work_against_bisection():
    """Regula falsi with the Illinois step converges superlinearly on smooth g: from a guess within
    a factor of 3 of the answer it needs at most 24 evaluations, where bisection of the grown
    bracket alone would need log2 of its width (up to 40 here); at the answer itself 3 (the answer,
    its neighbour, the bracket); from anywhere in [1, 10^13] at most 60, infinite values (an
    invalid route's half-width) handled by bisection. The answer is an int."""
    cases = [
        (lambda x: 3 / math.sqrt(x) - 0.07, 1837),
        (lambda x: 5000.5 - x, 5001),
        (lambda x: math.inf if x < 60 else 1e4 / x - 100, 100),
        (lambda x: 1e-9 * (2**40 - x), 2**40),
        (lambda x: math.exp(-x / 1e5) - 0.5, 69315),
        (lambda x: math.inf if x < 10**6 else 1e9 / x - 100, 10**7),
    ]
    for g, want in cases:
        for x0, most in ((want, 3), (want // 3, 24), (3 * want, 24), (1, 60), (10**13, 60)):
            gg, calls = _counting(g)
            got = E._secant_boundary(gg, x0, 1, 10**13)
            assert got == want and type(got) is int, (want, x0)
            assert len(calls) <= most, (want, x0, len(calls))
            assert all(type(x) is int for x in calls)


@pytest.mark.parametrize(("n", "t"), [(10**6, 0.1), (2 * 10**5, 0.1), (10**7, 0.05)])
@pytest.mark.parametrize("route", ["jlnrss", "bnsssu"])
def test_extremes_certify_the_answer_and_its_neighbour_only(n, t, route):
    """Each extreme is certified at the answer and one step beyond it and nowhere else (the
    footnote's 'certified at the answer and one step beyond it'): 2 certifications; the float
    stages guide it there with at most 10 fine and 40 coarse searches. The two certified points
    are the answer and its neighbour, on the right sides of t."""
    f = E._failure(0.95)
    search, certify = {
        "jlnrss": (E._jlnrss_search, E._certify_jlnrss),
        "bnsssu": (E._bnsssu_search, E._certify_bnsssu),
    }[route]
    for extreme in ("k", "n"):
        work: dict[str, list] = {"fine": [], "coarse": [], "cert": []}

        def s(n_, k_, f_, fine=True):
            work["fine" if fine else "coarse"].append((n_, k_))
            return search(n_, k_, f_, fine)

        def c(n_, k_, f_, point):
            out = certify(n_, k_, f_, point)
            work["cert"].append((n_, k_, out))
            return out

        if extreme == "k":
            k = E._reuse_max_queries(n, t, f, s, c)
            points = sorted(work["cert"], key=lambda w: w[1])
            assert [p[:2] for p in points] == [(n, k), (n, k + 1)]
            assert points[0][2].half_width <= t and (points[1][2] is None or points[1][2].half_width > t)
        else:
            kk = {10**6: 1000, 2 * 10**5: 100, 10**7: 3000}[n]
            m = E._reuse_required_n(kk, t, f, s, c)
            points = sorted(work["cert"], key=lambda w: w[0])
            assert [p[:2] for p in points] == [(m - 1, kk), (m, kk)]
            assert points[1][2].half_width <= t and (points[0][2] is None or points[0][2].half_width > t)
        assert len(work["fine"]) <= 10 and len(work["coarse"]) <= 40, {a: len(b) for a, b in work.items()}


# --------------------------------------------------------------------------------------------
# plan_estimate: its refusals word for word and how it assembles each route's row


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"coverage": 0.0}, "coverage=0.0 is invalid: must be a real number in (0, 1)"),
        ({"coverage": 1.0}, "coverage=1.0 is invalid: must be a real number in (0, 1)"),
        (
            {"prove_extremes": True},
            "prove_extremes=True is invalid: must be given with half_width (the target it proves limits for)",
        ),
    ],
)
def test_plan_estimate_refusals_word_for_word(kw, message):
    from maxinfo_bounds.numeric import InvalidParameter

    args = {"coverage": 0.95, **kw}
    with pytest.raises(InvalidParameter) as info:
        E.plan_estimate(1000, 10, args.pop("coverage"), **args)
    assert str(info.value) == message


def test_plan_rows_of_a_reuse_route_with_no_certificate(monkeypatch):
    """A reuse route whose search finds no certified setting is listed as not valid with its
    reason, and keeps the extremes searched at the target (they are searched apart from the
    study's own k and n); a valid route carries its certificate's derivation."""
    real = E._reuse_route

    def no_jlnrss(n, k, f, search, certify):
        return None if search is E._jlnrss_search else real(n, k, f, search, certify)

    plan = E.plan_estimate(10**6, 1000, 0.95, 0.1, maxinfo=False)
    jl = plan.route(E.REUSE_JLNRSS)
    _, point = E._jlnrss_search(10**6, 1000, E._failure(0.95))
    assert jl.derivation == E._certify_jlnrss(10**6, 1000, E._failure(0.95), point).derivation
    assert jl.derivation[0].startswith("each answer + N(0, sigma^2), sigma = ")
    monkeypatch.setattr(E, "_reuse_route", no_jlnrss)
    gone = E.plan_estimate(10**6, 1000, 0.95, 0.1, maxinfo=False).route(E.REUSE_JLNRSS)
    assert (gone.valid, gone.half_width, gone.coverage, gone.derivation) == (False, None, None, ())
    assert gone.note == "no noise level gives a finite half-width here"
    assert gone.theorems == ("DRS22-3.3", "DRS22-2.13", "GAUSS-max", "JLNRSS-transfer")
    assert (gone.max_queries_at_half_width, gone.required_n_records) == (
        jl.max_queries_at_half_width,
        jl.required_n_records,
    )
    assert gone.max_queries_at_half_width == 25269  # the module's worked example (limits.py)


def test_plan_rows_of_the_max_information_route(monkeypatch):
    """Valid: its certificate's half-width, coverage, settings and derivation, with the note that
    it is shown for comparison; with no setting inside RRST Thm 3.1: not valid, the reason, its
    five theorems and the extremes still searched at the target."""
    n, k, f = 10**7, 30, E._failure(0.95)
    plan = E.plan_estimate(n, k, 0.95)
    mi = plan.route(E.REUSE_MAXINFO)
    _, point = E._maxinfo_search(n, k, f)
    cert = E._certify_maxinfo(n, k, f, point)
    assert (mi.valid, mi.half_width, mi.coverage) == (True, cert.half_width, cert.coverage)
    assert mi.settings == cert.settings and mi.derivation == cert.derivation
    assert mi.note == "shown for comparison: far wider than the JLNRSS transfer for statistical queries"
    ths = ("DRS22-3.3", "DRS22-2.13", "RRST-3.1", "DFHPRR-4", "GAUSS-max")
    assert mi.theorems == ths
    monkeypatch.setattr(E, "_maxinfo_route", lambda *a: None)
    gone = E.plan_estimate(n, k, 0.95, 0.2).route(E.REUSE_MAXINFO)
    assert gone.route is E.REUSE_MAXINFO and gone.theorems == ths
    assert (gone.valid, gone.half_width, gone.coverage, gone.settings, gone.derivation) == (False, None, None, {}, ())
    assert gone.note == "no setting inside RRST Thm 3.1 here"
    assert gone.max_queries_at_half_width > 0 and gone.required_n_records > 0


def test_plan_rows_of_splitting_at_one_record_a_query_and_beyond():
    """k = n: each query gets one record (Hoeffding at m = 1: sqrt(ln(2k/F)/2) = 1.7308... for
    k = 10, by hand); k > n: not valid, the extremes at the target still given (3 queries of
    10 records meet 0.9; 48 records for 12 queries: 4 each, sqrt(ln(480)/8) = 0.8782...)."""
    p = E.plan_estimate(10, 10, 0.95, 0.9, maxinfo=False).route(E.SPLIT)
    assert p.valid and p.settings == {"records_per_query": 1}
    assert p.half_width == pytest.approx(math.sqrt(math.log(20 / 0.05) / 2), rel=1e-12)
    x = E.plan_estimate(10, 12, 0.95, 0.9, maxinfo=False).route(E.SPLIT)
    assert not x.valid and x.note == "12 queries need at least 12 records (one each)"
    assert (x.max_queries_at_half_width, x.required_n_records) == (3, 48)
    assert math.sqrt(math.log(2 * 12 / 0.05) / 8) < 0.9 < math.sqrt(math.log(2 * 12 / 0.05) / 6)
    assert math.sqrt(math.log(2 * 3 / 0.05) / 6) < 0.9 < math.sqrt(math.log(2 * 4 / 0.05) / 4)
    # the exact binomial route at one record a query: valid (X/1 - p is within 1 of p always)
    one = E.plan_estimate(10, 10, 0.95, binary=True, maxinfo=False).route(E.SPLIT_BINARY)
    assert one.valid and one.settings == {"records_per_query": 1}
    # the exact binomial route gets the target too
    b = E.plan_estimate(1000, 10, 0.95, 0.2, binary=True, maxinfo=False).route(E.SPLIT_BINARY)
    f = E._failure(0.95)
    assert b.max_queries_at_half_width == E.split_binomial_max_queries(1000, 0.2, f) > 0
    assert b.required_n_records == E.split_binomial_required_n(10, 0.2, f) > 0


def test_the_cap_note_joins_a_route_s_own_note(monkeypatch):
    """The final pass adds the cap note after a route's own note, not in its place."""
    capped = E.EstimateRoute(E.SPLIT_BINARY, True, 0.1, 0.95, note="own note", max_queries_at_half_width=E.MAX_QUERIES)
    monkeypatch.setattr(E, "_split_binary_route", lambda *a: capped)
    row = E.plan_estimate(10**6, 10, 0.95, 0.5, maxinfo=False).route(E.SPLIT_BINARY)
    assert row.note == "own note; " + E.CAP_NOTE


@pytest.mark.parametrize("eps", [2.10e-4, 2.115e-4])
def test_bnsssu_certificate_raises_delta_to_b2_s_floor(eps):
    """At n = 10^8, k = 30 and the search's noise, eps = 2.10e-4 puts the GDP curve's delta below
    RRST B.2's floor 4 eps e^(-n eps^2) (its condition n >= ln(4 eps/delta)/eps^2 fails there):
    the certificate takes delta at the floor (at or above its 50-digit value, within 2^-29), the
    condition then holds, and the half-width is the theorem's at that delta: the noise's
    sigma z_k(F - delta/eps) (30 digits) plus 18 eps."""
    n, k, f = 10**8, 30, E._failure(0.95)
    _, point = E._bnsssu_search(n, k, f)
    c = E._certify_bnsssu(n, k, f, [point[0], math.log(eps)])
    assert c is not None
    s = c.settings
    with mpmath.workdps(50):
        e = mpmath.mpf(s["eps_nats"])
        floor = 4 * e * mpmath.exp(-n * e**2)
        assert _gdp_delta(mpmath.mpf(s["total_mu"]), e) < floor <= s["delta"] <= floor * (1 + mpmath.mpf(2) ** -29)
        assert mpmath.log(4 * e / s["delta"]) / e**2 <= n
        bs = mpmath.mpf(f) - mpmath.mpf(s["delta"]) / e
        width = mpmath.mpf(s["sigma"]) * _mp_z(bs, k) + 18 * e
    assert c.half_width == pytest.approx(float(width), rel=1e-9) and c.coverage >= 0.95


@pytest.mark.parametrize("binary", [False, True])
def test_a_half_width_whose_record_count_is_past_the_floats_plans(binary):
    """A target half-width of 1e-200: splitting needs k ceil(ln(2k/beta)/(2 t^2)) = 10 x 1.8e401
    records, past the floats. The plan is made (it raised OverflowError, squaring the
    max-information route's width ratio, then ZeroDivisionError in split_required_n, and with
    binary = true the binomial count's refusal, out of ``maxinfo estimate``), every route's
    required n is none ("-") and no route answers a single query within it."""
    p = E.plan_estimate(1_000_000, 10, 0.95, 1e-200, binary=binary)
    assert {r.required_n_records for r in p.routes} == {None}
    assert {r.max_queries_at_half_width for r in p.routes if r.valid} == {0}
    split = p.route(E.SPLIT)
    assert split.valid and split.required_n_records is None


def test_a_study_no_noise_level_serves_plans_without_warnings_or_crashes():
    """18 records, 8e7 queries, coverage 7e-193, half-width 0.1: no Gaussian route has a usable
    noise level and splitting needs a record per query. Nelder-Mead's polish once walked to
    log mu = 1e3 (exp overflowed: a RuntimeWarning, an error under this suite), and its certificate
    then composed a mu past the floats (OverflowError) or took a GDP delta of 1 into the transfer
    (a refusal naming delta, which the user never gave). The plan is made: those routes invalid,
    with their reasons."""
    p = E.plan_estimate(18, 80_000_000, 7e-193, 0.1)
    jl, split = p.route(E.REUSE_JLNRSS), p.route(E.SPLIT)
    assert not jl.valid and jl.note == "no noise level gives a finite half-width here"
    assert not split.valid and split.note == "80000000 queries need at least 80000000 records (one each)"
    assert p.recommended is None
