"""Proved limits of the Gaussian reuse routes' extremes (maxinfo_bounds.planning.limits).

Each refutation is held against an independent minimisation of the route's exact half-width,
written here from the theorems (JLNRSS transfer with the Cauchy-Schwarz split of c and d, the
exact sample accuracy of Gaussian noise, the exact GDP curve; RRST Thm B.2 with its conditions)
and evaluated in mpmath at 30 digits; an achievable point is never refuted; a bound with a wrong
corner is caught by that check.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from scipy.optimize import minimize

from maxinfo_bounds.numeric import InvalidParameter
from maxinfo_bounds.planning import limits
from maxinfo_bounds.planning.estimate import REUSE_BNSSSU, REUSE_JLNRSS, plan_estimate
from maxinfo_bounds.theorems.dp_accounting.gdp import gdp_delta_estimate
from maxinfo_bounds.theorems.generalization import B2_PROBABILITY_FLOOR

F = Fraction(1, 20)
MP = mpmath.MPContext()
MP.dps = 30


def _z(beta, k):
    """z with (2 Phi(z) - 1)^k = 1 - beta: sqrt 2 erfinv((1 - beta)^(1/k))."""
    return MP.sqrt(2) * MP.erfinv((1 - MP.mpf(beta)) ** (MP.mpf(1) / k))


def _delta(mu, eps):
    """The GDP curve (Dong-Roth-Su Cor. 2.13)."""
    mu, eps = MP.mpf(mu), MP.mpf(eps)
    return MP.ncdf(-eps / mu + mu / 2) - MP.exp(eps) * MP.ncdf(-eps / mu - mu / 2)


def jlnrss_h(n, k, f, mu, eps, beta):
    """The JLNRSS route's exact half-width at one setting, the failure split optimally: c + 2d
    = (sqrt(beta) + sqrt(2 delta))^2 / F (c = sqrt(beta) s/F, d = sqrt(delta/2) s/F)."""
    s = MP.sqrt(beta) + MP.sqrt(2 * _delta(mu, eps))
    return MP.sqrt(k) / (n * MP.mpf(mu)) * _z(beta, k) + MP.expm1(eps) + s * s / (MP.mpf(f.numerator) / f.denominator)


def bnsssu_h(n, k, f, mu, eps):
    """RRST Thm B.2's route: delta the smallest its conditions allow, beta = F - delta/eps."""
    eps = MP.mpf(eps)
    delta = max(_delta(mu, eps), 4 * eps * MP.exp(-n * eps * eps))
    beta = MP.mpf(f.numerator) / f.denominator - delta / eps
    if not (eps < MP.mpf(1) / 3 and delta < eps / 4 and beta > 0):
        return MP.mpf(10)  # no valid setting (a finite penalty, for the simplex)
    return MP.sqrt(k) / (n * MP.mpf(mu)) * _z(beta, k) + 18 * eps


def _minimum(h, starts):
    """The smallest value Nelder-Mead finds from every start (log coordinates)."""
    best = math.inf
    for x0 in starts:
        r = minimize(
            lambda v: float(h(*np.exp(v))),
            np.log(x0),
            method="Nelder-Mead",
            options={"xatol": 1e-10, "fatol": 1e-14, "maxiter": 4000},
        )
        best = min(best, float(h(*np.exp(r.x))))
    return best


def _jl_starts():
    return [(0.016, 0.03, 7e-6), (0.008, 0.06, 1e-5), (0.03, 0.015, 1e-6)]


def test_jlnrss_refutation_agrees_with_an_independent_minimisation():
    # the planner certifies 25,269 queries at n = 10^6, T = 0.1, C = 0.95; the proof refutes 25,371
    n, t = 1_000_000, 0.1
    assert limits.jlnrss_refuted(n, 25_371, t, F) is True
    low = _minimum(lambda *x: jlnrss_h(n, 25_371, F, *x), _jl_starts())
    assert t < low < t * 1.002  # 0.1001050...: the proof sits close to the frontier
    # and the achievable side: below t at the planner's answer (so it is never refuted there)
    assert _minimum(lambda *x: jlnrss_h(n, 25_269, F, *x), _jl_starts()) <= t
    assert limits.jlnrss_refuted(n, 25_269, t, F) is not True


def test_bnsssu_refutation_is_exact_at_the_planner_s_answer():
    # 658 queries are certified by the planner; 659 are refuted for every setting
    n, t = 1_000_000, 0.1
    starts = [(0.0025, 0.003), (0.004, 0.0035), (0.002, 0.004)]
    low = _minimum(lambda mu, e: bnsssu_h(n, 659, F, mu, e), starts)
    assert low > t
    assert _minimum(lambda mu, e: bnsssu_h(n, 658, F, mu, e), starts) <= t
    assert limits.bnsssu_refuted(n, 659, t, F) is True
    assert limits.bnsssu_refuted(n, 658, t, F) is not True


def test_a_setting_that_meets_the_target_is_found_not_refuted():
    # 100 queries at n = 10^6 meet T = 0.1 easily (the planner's half-width there is about 0.02)
    assert limits.jlnrss_refuted(1_000_000, 100, 0.1, F) is False
    assert limits.bnsssu_refuted(1_000_000, 100, 0.1, F) is False


def test_a_bound_read_at_the_wrong_corner_is_caught(monkeypatch):
    # plant the bug: the noise term read at mu1 (the small end) -- an overestimate of the
    # minimum, which "refutes" the achievable 25,269; the check above catches it
    real = limits._jlnrss_lower

    def wrong(n, k, f, mS, bS, eE, mD, eD, bD):
        return real(n, k, f, np.maximum(mD, mS / 1.5), bS, eE, mD, eD, bD)

    monkeypatch.setattr(limits, "_jlnrss_lower", wrong)
    monkeypatch.setattr(limits, "_certify_jlnrss", lambda *a: True)
    assert limits.jlnrss_refuted(1_000_000, 25_269, 0.1, F) is True  # the planted bug's claim
    assert _minimum(lambda *x: jlnrss_h(1_000_000, 25_269, F, *x), _jl_starts()) <= 0.1  # refutes it


def test_certified_pieces_lie_below_50_digit_values():
    mp = mpmath.MPContext()
    mp.dps = 50
    for beta, k in [(0.05, 1), (1e-6, 25_000), (0.004, 10), (1e-12, 3)]:
        z = limits._z_lower(beta, k)
        exact = mp.sqrt(2) * mp.erfinv((1 - mp.mpf(beta)) ** (mp.mpf(1) / k))
        assert z <= exact and z > float(exact) * (1 - 1e-9)
    for mu, eps in [(0.0158, 0.0318), (1.0, 4.8865541), (3.0, 1.0), (0.1, 0.5746403)]:
        d = limits._delta_lower(mu, eps)
        exact = mp.ncdf(-mp.mpf(eps) / mu + mp.mpf(mu) / 2) - mp.exp(eps) * mp.ncdf(-mp.mpf(eps) / mu - mp.mpf(mu) / 2)
        assert d <= exact and d > float(exact) * (1 - 1e-12)
    assert limits._delta_lower(0.0, 0.1) == 0.0
    e = 0.0318412328975169
    assert limits._expm1_lower(e) <= mp.expm1(e) < np.nextafter(limits._expm1_lower(e), 1.0) * (1 + 1e-15)
    assert B2_PROBABILITY_FLOOR.down(0.05, 1000) <= 4 * mp.exp(-1000 * mp.mpf(0.05) ** 2)


def test_the_lattice_moves_ends_outward():
    rng = np.random.default_rng(20261126)
    x = np.exp(rng.uniform(-30, 5, 2000))
    assert np.all(limits._snap(x, True) >= x) and np.all(limits._snap(x, False) <= x)
    assert np.all(limits._snap(x, True) <= x * 2 ** (2 / limits._LATTICE))
    edge = np.array([0.0, np.inf, 1.0])
    assert list(limits._snap(edge, True)[:2]) == [0.0, np.inf] and limits._snap(edge, True)[2] > 1.0


def test_the_ladder_reads_refutations_as_monotone():
    calls = []

    def refuted(n, k, t, failure, max_boxes):
        calls.append(k)
        return k >= 1_010

    lim = limits.max_queries_limit(refuted, 10, 0.1, F, 1_000)
    # the ladder 1001, 1002, 1004, 1016 (proved), then two bisections: 1010 (proved), 1007 (not)
    assert lim == limits.Limit(1_009, 1_010, False) and calls == [1_001, 1_002, 1_004, 1_016, 1_010, 1_007]
    assert limits.max_queries_limit(lambda *a, **kw: True, 10, 0.1, F, 7) == limits.Limit(7, 8, True)
    assert limits.max_queries_limit(lambda *a, **kw: None, 10, 0.1, F, 7) is None
    # smallest n: the steps go down; n = 1 needs no proof
    # 999, 998, 996 (1000/1.004), 984, 939, then 800 (1000/1.25): refuted; bisections 870
    # (refuted) and 905 (not)
    assert limits.required_n_limit(lambda n, *a, **kw: n <= 900, 5, 0.1, F, 1_000) == limits.Limit(871, 870, False)
    assert limits.required_n_limit(lambda *a, **kw: False, 5, 0.1, F, 1) == limits.Limit(1, 0, True)


@pytest.mark.slow
def test_plan_estimate_proves_the_gaussian_routes_limits():
    p = plan_estimate(1_000_000, 10_000, 0.95, 0.1, prove_extremes=True, maxinfo=False)
    jl, bn = p.route(REUSE_JLNRSS), p.route(REUSE_BNSSSU)
    assert (jl.max_queries_at_half_width, jl.required_n_records) == (25_269, 614_451)
    assert 25_269 < jl.max_queries_upper_limit <= 25_370 and 612_003 <= jl.required_n_lower_limit < 614_451
    assert jl.extremes == "bracketed" and bn.max_queries_upper_limit == bn.max_queries_at_half_width == 658
    d = json.loads(json.dumps(p.as_dict()))
    assert d["routes"][0]["max_queries_upper_limit"] == jl.max_queries_upper_limit
    text = p.text(derivations=False)
    assert f"25269 (<= {jl.max_queries_upper_limit})" in text and "proved over every setting" in text


def test_prove_extremes_needs_a_target():
    with pytest.raises(InvalidParameter, match="prove_extremes.*given with half_width"):
        plan_estimate(1000, 10, 0.95, prove_extremes=True)
    with pytest.raises(InvalidParameter, match="prove_extremes"):
        plan_estimate(1000, 10, 0.95, 0.1, prove_extremes="yes")


@pytest.mark.slow
def test_random_studies_limits_against_independent_minimisation():
    """Seeded random (n, T, C): the planner's largest k is met (the independent minimum of the
    exact half-width is at most T there) and the proved limit's refuted k is not (above T)."""
    from maxinfo_bounds.planning.estimate import _failure, _jlnrss_search

    rng = np.random.default_rng(20261126)
    for _ in range(5):
        n = int(10 ** rng.uniform(4.5, 6.5))
        t = float(rng.uniform(0.05, 0.3))
        cov = float(rng.choice([0.9, 0.95, 0.99]))
        p = plan_estimate(n, 10, cov, t, maxinfo=False)
        k = p.route(REUSE_JLNRSS).max_queries_at_half_width
        failure = 1 - Fraction(cov)
        lim = limits.max_queries_limit(limits.jlnrss_refuted, n, t, failure, k)
        assert lim is not None and lim.value >= k, (n, t, cov)
        # starts: the planner's own optimum at k (log mu, log eps, log beta) and two around it
        _, x = _jlnrss_search(n, k, _failure(cov))
        mu, eps, beta = (float(np.exp(v)) for v in x)
        starts = [(mu, eps, beta), (mu * 1.5, eps / 1.5, beta * 3), (mu / 1.5, eps * 1.5, beta / 3)]
        assert _minimum(lambda *v: jlnrss_h(n, k, failure, *v), starts) <= t, (n, t, cov, k)
        assert _minimum(lambda *v: jlnrss_h(n, lim.refuted_at, failure, *v), starts) > t, (n, t, cov, lim)


# --------------------------------------------------------------------------------------------
# the certified pieces' directions: a lower bound is never above the exact value


def test_delta_lowers_never_exceed_the_gdp_curve_at_the_box_corner():
    """delta_mu(eps) rises in mu and falls in eps: a box's lower bound is read at (mu1, eps2)
    moved out to the lattice (mu down, eps up), or at the corner itself where that is not
    enough; either way at most the exact curve at the corner (30 digits), and the corner's own
    value tight."""
    rng = np.random.default_rng(20261127)
    m = np.exp(rng.uniform(np.log(0.05), np.log(20.0), 24))
    e = np.exp(rng.uniform(np.log(1e-3), np.log(4.0), 24))
    exact = [_delta(a, b) for a, b in zip(m.tolist(), e.tolist())]
    lattice = limits._delta_lowers(m, e, lambda d: np.ones(len(d), dtype=bool))
    corner = limits._delta_lowers(m, e, lambda d: np.zeros(len(d), dtype=bool))
    for lat, cor, ex in zip(lattice.tolist(), corner.tolist(), exact):
        assert lat <= ex and cor <= ex
        assert cor >= ex * (1 - 1e-9)  # the corner's own enclosure
        assert lat >= ex * 0.95  # one lattice step (2^(1/4096)) out in each variable
    assert np.all(lattice <= corner)
    # only the boxes whose lattice value is not enough are read again at their corner
    need = lattice > np.median(lattice)
    mixed = limits._delta_lowers(m, e, lambda d: d > np.median(lattice))
    assert np.array_equal(mixed[need], lattice[need]) and np.array_equal(mixed[~need], corner[~need])


def _random_boxes(rng, count, eps_max, beta_max):
    """Boxes [mu1, mu2, eps1, eps2, beta1, beta2] with eps1 = 0 in every third."""
    m1 = np.exp(rng.uniform(np.log(1e-3), np.log(5.0), count))
    e1 = np.exp(rng.uniform(np.log(1e-4 * eps_max), np.log(0.5 * eps_max), count))
    e1[::3] = 0.0
    b1 = np.exp(rng.uniform(np.log(1e-9 * beta_max), np.log(0.5 * beta_max), count))
    return np.stack([m1, m1 * 1.5, e1, e1 + 0.1 * eps_max, b1, b1 * 1.5], axis=1)


@pytest.mark.parametrize("route", ["jlnrss", "bnsssu"])
def test_a_box_holding_a_setting_that_meets_t_is_never_certified(route):
    """For random boxes (a third starting at eps = 0): t just above the exact half-width
    (30 digits) at the box's centre; no certified lower bound over the box can exceed it. And a
    t far below every half-width is certified (the check is not vacuous)."""
    rng = np.random.default_rng(7 if route == "jlnrss" else 8)
    n, k = 200_000, 300
    f_up = float(F)  # 0.05 as a float is above 1/20: the bound divides by at least F
    certify = limits._certify_jlnrss if route == "jlnrss" else limits._certify_bnsssu
    boxes = _random_boxes(rng, 30, math.log1p(0.5) if route == "jlnrss" else 1 / 3, float(F) * 0.5)
    checked = 0
    for box in boxes:
        mu = math.sqrt(box[0] * box[1])
        eps = (box[2] + box[3]) / 2
        beta = math.sqrt(box[4] * box[5])
        h = jlnrss_h(n, k, F, mu, eps, beta) if route == "jlnrss" else bnsssu_h(n, k, F, mu, eps)
        if h >= 5:  # no valid setting at the centre (bnsssu's penalty)
            continue
        checked += 1
        assert not certify(n, k, f_up, float(h) * (1 + 1e-12), box[None, :]), box
    assert checked >= 10
    assert certify(n, k, f_up, 1e-9, boxes)


def test_the_search_domains_cover_every_useful_setting():
    """eps beyond the domain cannot meet t: JLNRSS needs e^eps - 1 <= t (eps <= ln(1 + t)),
    BNSSSU needs 18 eps <= t and eps < 1/3 (RRST Thm B.2). A narrower domain would refute
    targets that a setting outside it meets."""
    jl, bn = limits._jlnrss_route(), limits._bnsssu_route()
    for t in (1e-4, 0.01, 0.1, 0.5, 1.0, 5.0, 10.0):
        J, N = jl.initial(t, 0.05), bn.initial(t, 0.05)
        assert MP.mpf(J[:, 3].max()) >= MP.log1p(MP.mpf(t)) * (1 - MP.mpf(2) ** -52)
        assert N[:, 3].max() >= min(MP.mpf(1) / 3, MP.mpf(t) / 18) * (1 - MP.mpf(2) ** -52)
        # beta is free for JLNRSS (up to F t: beta/c <= F needs c >= beta/F), fixed by eps and
        # delta for BNSSSU (one side [0, 1] that is never read)
        assert J[:, 4].min() == 0 and J[:, 5].max() == 0.05 * t
        assert set(N[:, 4]) == {0.0} and set(N[:, 5]) == {1.0}


@pytest.mark.parametrize("route", ["jlnrss", "bnsssu"])
def test_a_tight_box_is_certified_just_below_its_value_and_never_above(route):
    """Boxes 10^-9 wide (relative) around random settings: the certified bound lies below the
    exact half-width there (30 digits) and within 1 % of it (the delta term is read one lattice
    step out: 2^(1/4096) in mu and eps)."""
    rng = np.random.default_rng(11 if route == "jlnrss" else 12)
    n, k = 10**7, 30
    certify = limits._certify_jlnrss if route == "jlnrss" else limits._certify_bnsssu
    checked = 0
    for _ in range(40 if route == "jlnrss" else 150):
        mu = float(np.exp(rng.uniform(np.log(1e-4), np.log(2.0))))
        eps = float(np.exp(rng.uniform(np.log(1e-5), np.log(0.3))))
        beta = float(np.exp(rng.uniform(np.log(1e-6), np.log(0.04))))
        h = jlnrss_h(n, k, F, mu, eps, beta) if route == "jlnrss" else bnsssu_h(n, k, F, mu, eps)
        if h >= 5:
            continue
        w = 1 + 1e-9
        box = np.array([[mu, mu * w, eps, eps * w, beta, beta * w]])
        assert not certify(n, k, float(F), float(h) * (1 + 1e-9), box), (mu, eps, beta)
        assert certify(n, k, float(F), float(h) * (1 - 1e-2), box), (mu, eps, beta)
        checked += 1
    assert checked >= 15


def test_bnsssu_certificate_reads_delta_on_the_safe_side_where_beta_is_nearly_spent():
    """Settings where delta_mu(eps)/eps leaves beta = F - delta/eps only 10^-5 F: there the noise
    term is steep in delta, so reading delta at a larger mu (the unsafe side of the lattice)
    would leave no valid setting in the box and 'certify' it; the bound must stay below the
    exact half-width."""
    n, k = 10**8, 30
    target = MP.mpf(F.numerator) / F.denominator * (1 - MP.mpf(10) ** -5)
    for eps in (1e-3, 1e-2, 0.05, 0.2):
        lo, hi = MP.mpf(1e-8), MP.mpf(20)
        for _ in range(200):  # bisection: delta_mu(eps) rises in mu
            mid = MP.sqrt(lo * hi)
            lo, hi = (mid, hi) if _delta(mid, eps) / eps < target else (lo, mid)
        mu = float(lo)
        assert 4 * eps * math.exp(-n * eps * eps) < 1e-3 * float(_delta(mu, eps))  # B.2's other floor far below
        h = bnsssu_h(n, k, F, mu, eps)
        assert h < 5
        box = np.array([[mu, mu * (1 + 1e-12), eps, eps * (1 + 1e-12), 0.0, 1.0]])
        assert not limits._certify_bnsssu(n, k, float(F), float(h) * (1 + 1e-9), box), eps
        assert limits._certify_bnsssu(n, k, float(F), float(h) / 2, box), eps


def test_failure_lower_at_80_digits():
    """P(max_{j <= k} |Z_j| > t) = 1 - (1 - erfc(t/sqrt 2))^k at 80 digits: the certified value
    lies below it and within 10^-38 relative (it narrows each step by 10^-40); and B.2's
    probability floor 4 e^(-n e^2), read down, below its 80-digit value and within one float."""
    mp = mpmath.MPContext()
    mp.dps = 80
    for k, t in [(1, 1.96), (30, 3.1), (25_000, 4.5), (3, 0.01), (10**6, 6.0)]:
        exact = -mp.expm1(k * mp.log1p(-mp.erfc(mp.mpf(t) / mp.sqrt(2))))
        got = limits._failure_lower(k, t)
        assert got <= exact and got >= exact * (1 - mp.mpf(10) ** -38), (k, t)
    for n, e in [(1000, 0.05), (10**7, 1e-3), (50, 0.3)]:
        exact = 4 * mp.exp(-n * mp.mpf(e) ** 2)
        got = B2_PROBABILITY_FLOOR.down(e, n)
        assert got <= exact < np.nextafter(got, 1.0) * (1 + 1e-15), (n, e)


@pytest.mark.parametrize(("eps_max", "beta_max", "beta_free"), [(0.0953, 0.005, True), (1 / 3, 0.05, False)])
def test_initial_boxes_tile_the_whole_domain(eps_max, beta_max, beta_free):
    """The branch and bound certifies only the boxes it discards, so the boxes it starts from
    must cover every setting: mu in [0, inf], eps in [0, eps_max], beta in [0, beta_max] (or
    [0, 1] where beta is not free), as a product of contiguous intervals without gaps."""
    B = limits._initial_boxes(eps_max, beta_max, beta_free)
    for dim, (lo_end, hi_end) in enumerate([(0.0, math.inf), (0.0, eps_max), (0.0, beta_max if beta_free else 1.0)]):
        sides = sorted({(a, b) for a, b in B[:, 2 * dim : 2 * dim + 2].tolist()})
        assert sides[0][0] == lo_end and sides[-1][1] == pytest.approx(hi_end, rel=1e-15, abs=0)
        assert all(a < b for a, b in sides)
        assert all(sides[i][1] == sides[i + 1][0] for i in range(len(sides) - 1)), dim
    # every combination of the three sides' intervals is a box
    counts = [len({tuple(r) for r in B[:, 2 * d : 2 * d + 2].tolist()}) for d in range(3)]
    assert len({tuple(r) for r in B.tolist()}) == len(B) == counts[0] * counts[1] * counts[2]


def test_a_refutation_the_certificate_does_not_back_is_undecided(monkeypatch):
    """The floats discard every box at 30,000 queries (the planner's answer is 25,269), but a
    refutation is only claimed when the certified bounds of the discarded boxes exceed t: with a
    certificate that fails, the answer is None (undecided), never True."""
    assert limits.jlnrss_refuted(1_000_000, 30_000, 0.1, F) is True
    calls: list[int] = []

    def failing(n, k, f_up, t, B):
        calls.append(len(B))
        return False

    monkeypatch.setattr(limits, "_certify_jlnrss", failing)
    assert limits.jlnrss_refuted(1_000_000, 30_000, 0.1, F) is None
    assert len(calls) == 1 and calls[0] > 0


def test_the_lattice_step_is_one_point_out_and_on_the_lattice():
    """_snap moves x to a lattice point 2^(j/4096) on its side: at most one step (2^(1/4096))
    out, exactly on the lattice (a lattice point itself moves one step: the 1e-9 that guards
    the rounding of log2); 0 and inf stay."""
    rng = np.random.default_rng(20261127)
    x = np.exp(rng.uniform(-30, 5, 2000))
    step = 2 ** (1 / limits._LATTICE)
    for up in (True, False):
        y = limits._snap(x, up)
        assert np.all(y >= x) if up else np.all(y <= x)
        ratio = y / x if up else x / y
        assert np.all(ratio <= step * (1 + 1e-12))
        j = np.log2(y) * limits._LATTICE
        assert np.all(np.abs(j - np.round(j)) < 1e-6)
        assert list(limits._snap(np.array([0.0, np.inf]), up)) == [0.0, np.inf]


# --------------------------------------------------------------------------------------------
# the float pieces at their edges, against the formulas at 30 digits


def test_float_gdp_curve_and_its_limits():
    """gdp_delta_estimate (the float curve both estimation modules search on) is the GDP curve
    (within 1e-12 where it is not tiny), 0 at mu = 0 (no noise limit: a 0-GDP mechanism is
    (eps, 0)-DP for every eps >= 0), 1 at mu = inf for finite eps, 0 at eps = inf, and never
    outside [0, 1] (where cancellation would leave a tiny negative or a value above 1)."""
    mu = np.array([0.1, 0.5, 1.0, 3.0, 0.02])
    eps = np.array([0.05, 0.3, 1.0, 2.5, 1e-4])
    got = gdp_delta_estimate(mu, eps)
    for g, m, e in zip(got, mu, eps):
        assert float(g) == pytest.approx(float(_delta(m, e)), rel=1e-12, abs=0)
    edges = gdp_delta_estimate(np.array([0.0, 0.0, np.inf, np.inf, 1.0, 1e-3, 40.0]),
                          np.array([0.5, 0.0, 0.5, 0.0, np.inf, 5.0, 1e-3]))  # fmt: skip
    assert edges.tolist()[:5] == [0.0, 0.0, 1.0, 1.0, 0.0]
    assert 0.0 <= edges[5] < 1e-300 and 0.99 < edges[6] <= 1.0  # far tail; nearly no privacy


def test_certified_delta_lower_at_mu_infinite():
    """At mu = inf (no noise) delta is 1 at every finite eps and 0 at eps = inf."""
    assert limits._delta_lower(math.inf, 0.5) == 1.0 and limits._delta_lower(math.inf, 0.0) == 1.0
    assert limits._delta_lower(math.inf, math.inf) == 0.0 and limits._delta_lower(0.0, 0.1) == 0.0


def test_z_lower_where_z_is_below_one():
    """z_k(beta) below 1 (one query, beta = 1/2: z = 0.6744897501960817...; k = 1, beta = 0.9:
    z = 0.12566134685507402...): the certified value is below it and within 1e-11; 0 at beta = 1
    (no accuracy asked) without a warning."""
    for beta, k in [(0.5, 1), (0.9, 1), (0.5, 2), (0.05, 1)]:
        exact = _z(beta, k)
        got = limits._z_lower(beta, k)
        assert got <= exact and got >= exact * (1 - MP.mpf(10) ** -11), (beta, k)
    assert float(_z(0.5, 1)) == pytest.approx(0.6744897501960817, rel=1e-15)
    assert limits._z_lower(1.0, 3) == 0.0 and float(limits._z(np.float64(1.0), 3)) == 0.0


def test_noise_terms_at_no_noise_and_no_failure():
    """sqrt(k) z_k(beta)/(n mu): 0 at mu = inf (no noise), whatever beta; inf at beta = 0 for
    finite mu (no finite half-width is certain); the certified version 0 at mu = inf."""
    got = limits._noise_term(1000, 10, np.array([np.inf, np.inf, 1.0, 2.0]), np.array([0.05, 0.0, 0.0, 0.05]))
    assert got[:3].tolist() == [0.0, 0.0, math.inf]
    assert float(got[3]) == pytest.approx(float(MP.sqrt(10) / 2000 * _z(0.05, 10)), rel=1e-12)
    c = limits._certified_noise(1000, 10, np.array([np.inf, 2.0]), np.array([3.0, 3.0]))
    assert c[0] == 0.0 and c[1] <= math.sqrt(10) * 3 / 2000 and c[1] == pytest.approx(math.sqrt(10) * 3 / 2000)


def test_float_half_widths_against_the_formulas():
    """The float half-widths the search finds witnesses with: JLNRSS's (noise + e^eps - 1 +
    (sqrt beta + sqrt(2 delta))^2/F) and BNSSSU's ratio max(delta/eps, 4 e^(-n eps^2)) and
    half-width at 30 digits (module doc; RRST Thm B.2)."""
    n, k, f = 10**6, 1000, 0.05
    for mu, eps, beta in [(0.5, 0.02, 1e-3), (2.0, 0.3, 0.01), (0.05, 1e-3, 1e-6)]:
        got = limits._jlnrss_value(n, k, f, np.float64(mu), np.float64(eps), np.float64(beta))
        assert float(got) == pytest.approx(float(jlnrss_h(n, k, F, mu, eps, beta)), rel=1e-11)
    for nn, mu, eps in [(10**6, 0.01, 0.05), (2000, 0.01, 0.05), (10**6, 0.015, 0.03)]:
        ratio = max(_delta(mu, eps) / eps, 4 * MP.exp(-nn * MP.mpf(eps) ** 2))
        got = limits._bnsssu_ratio(nn, np.float64(mu), np.float64(eps))
        assert float(got) == pytest.approx(float(ratio), rel=1e-11)
        got = limits._bnsssu_value(nn, k, f, np.float64(mu), np.float64(eps), None)
        assert float(got) == pytest.approx(float(bnsssu_h(nn, k, F, mu, eps)), rel=1e-11)
    # both floors of the ratio are used: the 2,000-record case is RRST B.2's condition's
    assert 4 * math.exp(-2000 * 0.05**2) > 1000 * float(_delta(0.01, 0.05)) / 0.05
    with np.errstate(all="raise"):
        assert limits._bnsssu_ratio(100, np.float64(0.5), np.float64(0.0)) == math.inf


def test_bnsssu_validity_conditions_at_their_edges():
    """RRST Thm B.2's route is valid only where beta = F - q > 0, q = delta/eps < 1/4 and
    eps < 1/3; at each edge the value is inf, just inside it finite; a relative slack widens
    each condition (and beta by slack F) so that the floats never call a valid box invalid."""
    n, k, mu = 1000, 10, np.float64(1.0)

    def v(f, q, eps, slack=0.0):
        return float(limits._bnsssu_from_ratio(n, k, f, mu, np.float64(q), np.float64(eps), slack))

    assert v(0.05, 0.05, 0.1) == math.inf and math.isfinite(v(0.05, 0.05 * (1 - 1e-12), 0.1))
    assert v(0.5, 0.25, 0.1) == math.inf and math.isfinite(v(0.5, 0.2499, 0.1))
    assert v(0.05, 0.01, 1 / 3) == math.inf and math.isfinite(v(0.05, 0.01, 0.333))
    s = 1e-9
    assert math.isfinite(v(0.05, 0.05 * (1 + 1e-12), 0.1, s)) and v(0.05, 0.05 * (1 + 2e-9), 0.1, s) == math.inf
    assert math.isfinite(v(0.5, 0.25 * (1 + 1e-12), 0.1, s)) and v(0.5, 0.25 * (1 + 2e-9), 0.1, s) == math.inf
    assert math.isfinite(v(0.05, 0.01, (1 + 1e-12) / 3, s)) and v(0.05, 0.01, (1 + 2e-9) / 3, s) == math.inf
    # the value inside: noise at beta = F - q (+ slack F) plus 18 eps
    exact = MP.sqrt(k) / (n * MP.mpf(1)) * _z(MP.mpf(0.04) + MP.mpf(0.05) * s, k) + 18 * MP.mpf(0.1)
    assert v(0.05, 0.01, 0.1, s) == pytest.approx(float(exact), rel=1e-11)


def test_bnsssu_certificate_with_no_valid_setting_in_any_box():
    """Boxes that hold no valid setting of RRST Thm B.2 (eps from 1/3 up, or delta/eps >= F)
    are certified: there is nothing in them to meet the target. With coverage 1/2 (F = 1/2)
    a box where delta/eps is in [1/4, 1/2) is invalid by B.2's delta < eps/4 alone."""
    n, k = 10**4, 10
    high_eps = np.array([[0.5, 1.0, 1 / 3, 0.5, 0.0, 1.0]])
    assert limits._certify_bnsssu(n, k, 0.05, 0.01, high_eps)
    # mu = 3 at eps = 0.01: delta_mu(eps)/eps ~ 67, far above any F
    assert limits._certify_bnsssu(n, k, 0.05, 0.01, np.array([[3.0, 4.0, 0.005, 0.01, 0.0, 1.0]]))
    # delta/eps = 0.3 at F = 1/2: beta = 0.2 would be left, but delta >= eps/4 fails B.2
    eps = 0.2
    lo, hi = MP.mpf(1e-3), MP.mpf(10)
    for _ in range(120):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if _delta(mid, eps) / eps < 0.3 else (lo, mid)
    mu = float(hi)
    box = np.array([[mu, mu * (1 + 1e-9), eps, eps, 0.0, 1.0]])
    assert limits._certify_bnsssu(10**6, k, 0.5, 1e-6, box)


# --------------------------------------------------------------------------------------------
# the branch and bound's memory limit and its work


@pytest.mark.parametrize(
    ("refuted", "n", "k", "t", "most", "work"),
    [
        (limits.jlnrss_refuted, 10**6, 30_000, 0.1, 133, 1_775),
        (limits.jlnrss_refuted, 200_000, 1_300, 0.1, 350, 3_348),
        (limits.bnsssu_refuted, 10**6, 660, 0.1, 916, 5_620),
    ],
)
def test_max_boxes_is_the_most_alive_at_once_and_the_work_stays_bounded(monkeypatch, refuted, n, k, t, most, work):
    """A round that would split m boxes needs 2m alive: with ``max_boxes`` = 2m for the largest
    round the refutation is proved, with one less it is undecided (None), never a guess. The
    largest round and the total work (boxes split over all rounds) are held to at most 1.5 times
    what they were when this test was written (the splitting rule's choice of side and the
    initial grid decide them: a change that makes the search half as costly again fails here,
    and the planner's ladder, which allows 100,000 boxes a step, would prove fewer limits)."""
    calls: list[int] = []
    real = limits._split_points

    def spy(lo, hi):
        calls.append(len(lo))
        return real(lo, hi)

    monkeypatch.setattr(limits, "_split_points", spy)
    assert refuted(n, k, t, F) is True
    per_round = calls[::3]
    assert max(per_round) <= 1.5 * most and sum(per_round) <= 1.5 * work
    peak = max(per_round)
    assert refuted(n, k, t, F, max_boxes=2 * peak) is True
    assert refuted(n, k, t, F, max_boxes=2 * peak - 1) is None


def test_z_stays_finite_where_beta_over_k_underflows():
    """A box's beta side from 0 is cut at hi/16 again and again, down to ends like 9.1e-319,
    where beta/k rounds to 0 and 1 - (1 - beta)^(1/k) underflows: z_k(beta) is still finite
    (38.48754715824503291... at k = 200,000, from P(|Z| > z) = u at 40 digits). Before the fix
    the float z was inf there, such a box was discarded with an infinite bound, its certificate
    then failed (z certified as 0), and the refutation at n = 10^7, t = 0.05 was undecided at
    every k: the proved bracket around the planner's 143,892 queries was (<= 503,621) instead
    of (<= 144,467)."""
    mp = mpmath.MPContext()
    mp.dps = 40
    for beta, k in [(9.1e-319, 200_000), (1e-300, 10), (5e-324, 1)]:
        u = -mp.expm1(mp.log1p(-mp.mpf(beta)) / k)
        # log P(|Z| > z) = log u, Newton's method from sqrt(2 ln(1/u)) (within a few percent)
        exact = mp.findroot(lambda z: mp.log(mp.erfc(z / mp.sqrt(2))) - mp.log(u), mp.sqrt(2 * mp.log(1 / u)))
        assert mp.erfc(exact / mp.sqrt(2)) == pytest.approx(u, rel=1e-30)
        assert float(limits._z(np.float64(beta), k)) == pytest.approx(float(exact), rel=1e-13)
        got = limits._z_lower(beta, k)
        assert got <= exact and got >= exact * (1 - 1e-11)
    assert limits.jlnrss_refuted(10**7, 150_000, 0.05, F) is True
