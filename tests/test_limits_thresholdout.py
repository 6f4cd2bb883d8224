"""Proved limits of the Thresholdout route's extremes (planning/limits.py, issue 42).

The refutation is held against an independent minimisation of the route's half-width written
from its sources at 30 digits: DFHPRR section 3's Thresholdout (its three kinds of Laplace
draws, each failing with probability at most beta_s/3), the Notes' Thresholdout lemma with
basic or advanced composition (Dwork & Roth Thm 3.16 and 3.20: eps = min(B e0,
sqrt(2B ln(1/delta)) e0 + B e0 (e^e0 - 1)), e0 = 2/(sigma n_h)) and the JLNRSS transfer with
the best c, d ((sqrt(beta_s) + sqrt(2 delta))^2 / F by Cauchy-Schwarz). Nothing here reads the
planner's own half-width.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from scipy.optimize import minimize

from maxinfo_bounds.planning import limits
from maxinfo_bounds.planning.estimate import THRESHOLDOUT, plan_estimate

F = Fraction(1, 20)
MP = mpmath.MPContext()
MP.dps = 30


def th_h(n, k, f, budget, threshold, sigma, nh, bs, delta):
    """The Thresholdout route's half-width at one setting, at 30 digits (10 outside the route's
    settings: a finite penalty for the simplex)."""
    n, nh = int(n), int(nh)
    ff = MP.mpf(f.numerator) / f.denominator
    sigma, bs, delta = MP.mpf(sigma), MP.mpf(bs), MP.mpf(delta)
    if not (1 <= nh <= n - 1 and 0 < bs < ff and 0 <= delta < 1 and sigma > 0):
        return MP.mpf(10)
    if threshold is None:  # Hoeffding on both parts, a union over the k queries
        thr = MP.sqrt(MP.log(4 * k / ff) / 2) * (1 / MP.sqrt(n - nh) + 1 / MP.sqrt(nh))
    else:
        thr = MP.mpf(threshold)
    # (B + 1) e^(-x/2 sigma), k e^(-y/4 sigma), B e^(-z/sigma) each beta_s/3
    x = 2 * sigma * MP.log(3 * (budget + 1) / bs)
    y = 4 * sigma * MP.log(3 * k / bs)
    z = sigma * MP.log(3 * budget / bs)
    e0 = 2 / (sigma * nh)
    eps = budget * e0
    if delta > 0:
        eps = min(eps, MP.sqrt(2 * budget * MP.log(1 / delta)) * e0 + budget * e0 * MP.expm1(e0))
    return max(thr + x + y, z) + MP.expm1(eps) + (MP.sqrt(bs) + MP.sqrt(2 * delta)) ** 2 / ff


def th_min(n, k, f, budget, threshold, starts):
    """The smallest half-width Nelder-Mead finds from each start over (log sigma, logit of the
    holdout share, log beta_s, log delta), each end point's holdout size and its neighbours
    evaluated exactly: (value, setting). An upper bound on the true minimum."""
    best = (math.inf, None)

    def setting(v):
        return math.exp(v[0]), 1 / (1 + math.exp(-v[1])), math.exp(v[2]), math.exp(v[3])

    def fn(v):
        s, share, b, d = setting(v)
        return float(th_h(n, k, f, budget, threshold, s, min(max(round(share * n), 1), n - 1), b, d))

    for x0 in starts:
        r = minimize(fn, x0, method="Nelder-Mead", options={"xatol": 1e-9, "fatol": 1e-13, "maxiter": 6000})
        s, share, b, d = setting(r.x)
        nh0 = round(share * n)
        for nh in range(max(nh0 - 3, 1), min(nh0 + 4, n)):
            v = float(th_h(n, k, f, budget, threshold, s, nh, b, d))
            if v < best[0]:
                best = (v, (s, nh, b, d))
    return best


def _starts(sigma, share, bs, delta):
    logit = math.log(share / (1 - share))
    return [
        (math.log(sigma), logit, math.log(bs), math.log(delta)),
        (math.log(sigma * 2), logit - 1, math.log(bs / 3), math.log(delta * 10)),
    ]


# at n = 10^6, k = 10^6, C = 0.95, B = 20 (docs/estimate.md's "Thresholdout wins"): the planner
# certifies 0.164163 with basic composition (delta = 0)
BASIC = (10**6, 10**6, 20, None, _starts(6e-4, 0.93, 2e-4, 1e-30))
# at k = 10^5, B = 2,000 the best setting uses advanced composition (delta about 1.7e-4)
ADVANCED = (10**6, 10**5, 2000, None, _starts(2e-3, 0.968, 2.9e-4, 1.7e-4))


@pytest.mark.parametrize(
    ("case", "refuted_at", "met_at", "low_range"),
    [(BASIC, 0.1635, 0.1645, (0.16416, 0.16417)), (ADVANCED, 0.49, 0.493, (0.49204, 0.49205))],
    ids=["basic", "advanced"],
)
def test_refutation_agrees_with_an_independent_minimisation(case, refuted_at, met_at, low_range):
    n, k, budget, thr, starts = case
    low, point = th_min(n, k, F, budget, thr, starts)
    assert low_range[0] < low < low_range[1]
    if case is ADVANCED:
        assert point[3] > 1e-6  # the minimum is at a delta > 0: advanced composition binds
    # proved 0.4 % below the minimum: no setting meets it
    assert limits.thresholdout_refuted(n, k, refuted_at, F, budget=budget, threshold=thr) is True
    assert refuted_at < low
    # above the minimum a setting is found (never refuted)
    assert limits.thresholdout_refuted(n, k, met_at, F, budget=budget, threshold=thr) is False
    assert low <= met_at


def test_a_given_threshold_makes_the_training_part_irrelevant():
    """With T given (0.02) the training records enter nothing: the best holdout is n - 1."""
    low, point = th_min(10**6, 10**6, F, 20, 0.02, _starts(6e-4, 0.93, 2e-4, 1e-30))
    assert 0.16434 < low < 0.16435 and point[1] == 10**6 - 1
    assert limits.thresholdout_refuted(10**6, 10**6, 0.16, F, budget=20, threshold=0.02) is True
    assert limits.thresholdout_refuted(10**6, 10**6, 0.165, F, budget=20, threshold=0.02) is False
    # between the default threshold's minimum (0.164162) and this one's (0.164345): proved with
    # the given threshold, where a search reading the default one would find a "witness"
    assert limits.thresholdout_refuted(10**6, 10**6, 0.16425, F, budget=20, threshold=0.02) is True


def test_a_bound_read_at_the_wrong_corner_is_caught(monkeypatch):
    """Plant the bug: the noise terms read at sigma2 (the large end) -- an overestimate of the
    minimum that "refutes" the achievable 0.1645; the independent minimum catches it."""
    real = limits._thresholdout_lower

    def wrong(n, k, f, budget, threshold, B):
        C = B.copy()
        C[:, 0] = np.where(np.isinf(B[:, 1]), B[:, 0], B[:, 1])
        return real(n, k, f, budget, threshold, C)

    monkeypatch.setattr(limits, "_thresholdout_lower", wrong)
    monkeypatch.setattr(limits, "_certify_thresholdout", lambda *a: True)
    monkeypatch.setattr(limits, "thresholdout_value", lambda *a: np.inf)  # no witness either
    assert limits.thresholdout_refuted(10**6, 10**6, 0.1645, F, budget=20) is True  # the bug's claim
    assert th_min(10**6, 10**6, F, 20, None, BASIC[4])[0] <= 0.1645  # refutes it


def test_float_half_width_is_the_route_at_30_digits():
    rng = np.random.default_rng(5)
    n, k = 10**6, 3000
    for _ in range(200):
        s = float(np.exp(rng.uniform(np.log(1e-5), np.log(1e-1))))
        nh = int(rng.integers(1, n))
        b = float(np.exp(rng.uniform(np.log(1e-9), np.log(0.049))))
        d = 0.0 if rng.random() < 0.3 else float(np.exp(rng.uniform(np.log(1e-30), np.log(0.02))))
        for budget, thr in ((20, None), (500, 0.03)):
            exact = th_h(n, k, F, budget, thr, s, nh, b, d)
            got = limits.thresholdout_value(n, k, float(F), budget, thr, s, nh, b, d)
            if exact < 1e6:
                assert float(got) == pytest.approx(float(exact), rel=1e-11)
    # outside the route's settings: inf
    for nh, b, d in [(0, 0.01, 0.0), (n, 0.01, 0.0), (10, 0.05, 0.0), (10, 0.0, 0.0), (10, 0.01, 1.0)]:
        assert limits.thresholdout_value(n, k, 0.05, 20, None, 1e-3, nh, b, d) == np.inf


@pytest.mark.parametrize("budget", [20, 2000])
def test_a_tight_box_is_certified_just_below_its_value_and_never_above(budget):
    """Boxes 10^-9 wide (relative) around random settings, one holdout size: the certified
    bound lies below the exact half-width (30 digits), within 0.5 % of it (beta_s and delta
    are read one lattice step out, 2^(1/4096), and e^e0 - 1 by its series); so does the float
    bound the search discards boxes with (within its 10^-9 margin)."""
    rng = np.random.default_rng(21 + budget)
    n, k = 10**6, 3000
    checked = 0
    for _ in range(60):
        s = float(np.exp(rng.uniform(np.log(1e-4 if budget < 100 else 1e-3), np.log(1e-2))))
        nh = int(rng.integers(n // 10, n))
        b = float(np.exp(rng.uniform(np.log(1e-8), np.log(0.02))))
        d = 0.0 if rng.random() < 0.3 else float(np.exp(rng.uniform(np.log(1e-30), np.log(0.01))))
        exact = th_h(n, k, F, budget, None, s, nh, b, d)
        if exact >= 5:
            continue
        w = 1e-9
        box = np.array([[s * (1 - w), s * (1 + w), nh, nh, b * (1 - w), b * (1 + w), d * (1 - w), d * (1 + w)]])
        certify = limits._certify_thresholdout
        assert not certify(n, k, 0.05, float(exact) * (1 + 1e-12), budget, None, box)
        assert certify(n, k, 0.05, float(exact) * (1 - 5e-3), budget, None, box)
        low = limits._thresholdout_lower(n, k, 0.05, budget, None, box)[0]
        assert float(exact) * (1 - 5e-3) <= low <= float(exact) * (1 + 1e-9)
        checked += 1
    assert checked >= 40


@pytest.mark.parametrize("n", [2, 3, 7, 100, 12_345])
def test_the_initial_boxes_cover_every_setting_that_could_meet_t(n):
    """Every holdout size 1 to n - 1 lies in some box's integer range; sigma covers [0, inf],
    beta_s [0, F t] and delta [0, F t/2] (beyond them the penalty alone exceeds t:
    (sqrt(b) + sqrt(2d))^2/F >= b/F and >= 2d/F)."""
    t, f = 0.1, 0.05
    B = limits._thresholdout_initial(n, t, f)
    lo, hi = np.ceil(B[:, 2]), np.floor(B[:, 3])
    held = set()
    for a, b in zip(lo, hi):
        held.update(range(int(a), int(b) + 1))
    assert held == set(range(1, n))
    assert B[:, 0].min() == 0 and B[:, 1].max() == np.inf
    assert B[:, 4].min() == 0 and B[:, 5].max() == pytest.approx(f * t, rel=1e-15)
    assert B[:, 6].min() == 0 and B[:, 7].max() == pytest.approx(f * t / 2, rel=1e-15)
    # just beyond the domain the exact half-width exceeds t whatever the rest of the setting
    for b, d in [(f * t * (1 + 1e-6), 0.0), (1e-6, f * t / 2 * (1 + 1e-6))]:
        assert th_h(10**6, 10, F, 20, None, 1e-4, 900_000, b, d) > t


def test_holdout_cuts_fall_between_integers_and_a_single_size_is_not_cut():
    n = 1000
    B = np.array(
        [
            [1e-3, 2e-3, 1.0, 2.0, 0.0, 1e-3, 0.0, 1e-3],
            [1e-3, 2e-3, 600.0, 999.0, 0.0, 1e-3, 0.0, 1e-3],
            [1e-3, 2e-3, 4.5, 5.2, 0.0, 1e-3, 0.0, 1e-3],
        ]
    )
    cuts = limits._thresholdout_cuts(n, B)
    assert cuts[0, 1] == 1.5
    # above n/2 the cut halves the training part's logarithm: n - sqrt(400 * 1) = 980, + 0.5
    assert cuts[1, 1] == 980.5
    assert cuts[2, 1] == 4.5  # one holdout size (5): the side's low end, not cut


def test_tiny_n_needs_no_search_or_is_decided():
    assert limits.thresholdout_refuted(1, 1, 0.5, F, budget=1) is True  # no holdout and training part
    # n = 2: one record each; the default threshold 2 sqrt(ln(80)/2) > 1 alone exceeds 0.5
    assert limits.thresholdout_refuted(2, 1, 0.5, F, budget=1) is True
    # with T = 0 and a target of 50: sigma = 1, beta_s = 0.01 meets it (about 42.4)
    assert float(th_h(2, 1, F, 1, 0.0, 1.0, 1, 0.01, 0.0)) < 50
    assert limits.thresholdout_refuted(2, 1, 50.0, F, budget=1, threshold=0.0) is False


@pytest.mark.heavy
def test_the_ladder_s_limit_is_refuted_by_the_independent_minimum():
    """At n = 10^6, T = 0.1, C = 0.95, B = 20 the planner needs 2,285,942 records for 10^4
    queries; the ladder proves no setting meets T below 2,278,541 (refuted at 2,278,540)."""
    ref = lambda *a, **kw: limits.thresholdout_refuted(*a, budget=20, **kw)  # noqa: E731
    lim = limits.required_n_limit(ref, 10_000, 0.1, F, 2_285_942)
    assert lim is not None and (lim.value, lim.refuted_at) == (2_278_541, 2_278_540)
    low, _ = th_min(2_278_540, 10_000, F, 20, None, _starts(3e-4, 0.96, 1e-4, 1e-30))
    assert 0.1 < low < 0.1004


@pytest.mark.heavy
def test_plan_estimate_proves_thresholdout_s_extremes():
    plan = plan_estimate(
        1_000_000, 10_000, 0.95, half_width=0.1, thresholdout_budget=20, prove_extremes=True, maxinfo=False
    )
    row = next(r for r in plan.routes if r.route is THRESHOLDOUT)
    # no k meets 0.1 (k = 1 is refuted: proved), and n is bracketed
    assert row.max_queries_at_half_width == 0 and row.max_queries_upper_limit == 0
    assert row.required_n_records == 2_285_942 and row.required_n_lower_limit == 2_278_541
    assert row.extremes == "bracketed"
    d = row.as_dict()
    assert d["max_queries_upper_limit"] == 0 and d["required_n_lower_limit"] == 2_278_541


def test_the_threshold_is_read_below_the_planner_s_own_float():
    """On boxes whose noise, privacy and penalty terms vanish (sigma in [0, inf], beta_s and
    delta from 0) the certified bound is the threshold read from below: never above the
    planner's float default_threshold (it is 2^-40 below the exact value, the float a few ulps
    from it) and within 2^-38 of it; a given threshold within a few ulps."""
    from maxinfo_bounds.planning.estimate import default_threshold

    certify = limits._certify_thresholdout
    for n, nh, k in [(10**6, 930_021, 10**6), (2_000, 1, 7), (10**9, 10**9 - 1, 3), (101, 50, 10**12)]:
        box = np.array([[0.0, np.inf, nh, nh, 0.0, 1e-3, 0.0, 1e-3]])
        thr = default_threshold(n - nh, nh, k, 0.05)
        assert not certify(n, k, 0.05, thr, 20, None, box)
        assert certify(n, k, 0.05, thr * (1 - 2.0**-38), 20, None, box)
    box = np.array([[0.0, np.inf, 10, 10, 0.0, 1e-3, 0.0, 1e-3]])
    assert not certify(1000, 5, 0.05, 0.0123, 20, 0.0123, box)
    assert certify(1000, 5, 0.05, 0.0123 * (1 - 1e-15), 20, 0.0123, box)


def test_the_series_reads_expm1_from_below_within_its_remainder():
    """x + x^2/2 + x^3/6 <= e^x - 1 <= x + x^2/2 + x^3/6 + x^4 e^x/24 (Taylor, Lagrange's
    remainder), at 30 digits: the advanced composition's B e0 (e^e0 - 1) read from below."""
    for x in (1e-8, 1e-3, 0.05, 0.3, 1.0, 2.5):
        got = MP.mpf(float(limits._expm1_series(np.float64(x))))
        exact = MP.expm1(x)
        assert got <= exact * (1 + MP.mpf(2) ** -50)
        assert exact - got <= MP.mpf(x) ** 4 * MP.exp(x) / 24 + exact * MP.mpf(2) ** -50


def test_the_logarithms_are_read_below_their_exact_quotients():
    """ln(num/den) from below with the quotient taken at 50 digits (a float division can round
    the argument up first): at most the 60-digit value and within 4 ulps of it, on seeded
    quotients near 2, where one rounding up of the argument is worth an ulp of the logarithm."""
    mp = mpmath.MPContext()
    mp.dps = 60
    rng = np.random.default_rng(8)
    for _ in range(300):
        num = int(rng.integers(1, 10**6))
        den = float(num / 2 * (1 + rng.uniform(-1e-12, 1e-12)))
        exact = mp.log(mp.mpf(num) / mp.mpf(den))
        got = limits._log_lower(num, den)
        assert got <= exact and exact - got <= 4 * np.spacing(abs(float(exact)))
