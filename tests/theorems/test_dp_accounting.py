"""DP composition and calibration: 50-digit references, rounding direction, hand values."""

from __future__ import annotations

import math
from fractions import Fraction as F

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from maxinfo_bounds import InvalidParameter, RegimeError
from maxinfo_bounds.measures import (
    dp_epsilon,
)
from maxinfo_bounds.results import DPGuarantee
from maxinfo_bounds.theorems.dp_accounting import (
    above_threshold_epsilon,
    advanced_composition,
    analytic_gaussian_sigma,
    basic_composition,
    compose_dp,
    dp_max_information,
    exponential_mechanism_coefficient,
    exponential_mechanism_epsilon,
    from_dp_event,
    gaussian_delta,
    gaussian_epsilon,
    gaussian_sigma,
    laplace_epsilon,
    laplace_scale,
    optimal_composition,
    optimal_composition_delta,
    report_noisy_max_epsilon,
    sparse_vector,
    sparse_vector_scales,
)

from .reference import DPS, bw_delta, check_up, log_uniform, mp


@pytest.mark.slow
def test_advanced_sweep_50_digits():
    rng = np.random.default_rng(61)
    for i in range(4_000):  # 4,000 points: each call validates up to 1,000 steps
        if i % 2:  # heterogeneous: a few distinct steps
            eps = [float(x) for x in log_uniform(rng, 1e-6, 1.0, int(rng.integers(1, 6)))]
            counts = [1] * len(eps)
        else:  # homogeneous: k equal steps, k up to 1000
            eps = [float(log_uniform(rng, 1e-6, 1.0, 1)[0])]
            counts = [int(log_uniform(rng, 1, 1000, 1)[0])]
        dp = float(log_uniform(rng, 1e-300, 0.5, 1)[0])
        g = advanced_composition([(e, 0.0) for e, c in zip(eps, counts) for _ in range(c)], dp)
        with mpmath.workdps(DPS):
            adv = mpmath.sqrt(2 * mpmath.log(1 / mp(dp)) * sum(c * mp(e) ** 2 for e, c in zip(eps, counts))) + sum(
                c * mp(e) * (mpmath.exp(mp(e)) - 1) for e, c in zip(eps, counts)
            )
            basic = sum(c * mp(e) for e, c in zip(eps, counts))
        check_up(g.eps, min(adv, basic), 2**-50)
        assert g.delta >= dp


def test_basic_and_budget():
    g = basic_composition([(0.5, 1e-6)] * 4)
    assert F(g.eps) >= 4 * F(0.5) and F(g.delta) >= 4 * F(1e-6)
    c = compose_dp([(0.1, 1e-8)] * 100, 1e-5)
    assert c.delta <= 1e-5 and c.eps < 100 * 0.1  # the budget itself, never an ulp over
    # budgets whose remainder delta_total - sum(delta_i) rounds up as a float: delta' must be
    # taken an ulp below it, so that the total stays within the budget
    rounded_up = 0
    for dt in (1e-5, 3e-5, 7e-6, 1.1e-5, 2.3e-5, 9.7e-6):
        slack = F(dt) - 100 * F(1e-8)
        rounded_up += F(float(slack)) > slack
        assert compose_dp([(0.1, 1e-8)] * 100, dt).delta <= dt
    assert rounded_up >= 1  # the case is exercised
    assert compose_dp([(0.1, 1e-8)] * 100, F(100) * F(1e-8)).theorem == "DR-3.16"  # no slack: basic
    with pytest.raises(InvalidParameter, match="delta_total"):
        compose_dp([(0.1, 1e-8)] * 100, 1e-7)
    with pytest.raises(InvalidParameter, match=r"steps\[1\].eps"):
        basic_composition([(0.1, 0.0), (-1.0, 0.0)])


def test_composition_of_steps_sharing_an_eps_or_a_delta():
    """Steps grouped by equal eps (for the advanced body) and by equal delta (for the delta sum)
    keep their total counts. 500 steps (0.01, 1e-8), 500 (0.01, 1e-9), 200 (0.02, 1e-8): basic
    (14, 7.5e-6); advanced at delta' = 1e-5: sqrt(2 ln(1e5) (1000 (0.01)^2 + 200 (0.02)^2))
    + 1000 (0.01)(e^0.01 - 1) + 200 (0.02)(e^0.02 - 1) = 2.03584 + 0.10050 + 0.08081 = 2.21715
    (hand; checked at 50 digits), delta 1.75e-5."""
    steps = {(0.01, 1e-8): 500, (0.01, 1e-9): 500, (0.02, 1e-8): 200}
    b = basic_composition(steps)
    assert F(b.eps) >= 1000 * F(0.01) + 200 * F(0.02) and b.eps <= 14 * (1 + 1e-15)
    assert F(b.delta) >= 700 * F(1e-8) + 500 * F(1e-9) and b.delta <= 7.5e-6 * (1 + 1e-15)
    a = advanced_composition(steps, 1e-5)
    with mpmath.workdps(DPS):
        e1, e2 = mp(0.01), mp(0.02)
        ref = (
            mpmath.sqrt(2 * mpmath.log(1 / mp(1e-5)) * (1000 * e1**2 + 200 * e2**2))
            + 1000 * e1 * (mpmath.exp(e1) - 1)
            + 200 * e2 * (mpmath.exp(e2) - 1)
        )
    check_up(a.eps, ref, 2**-50)
    assert 2.2171 < a.eps < 2.2172
    assert F(a.delta) >= 700 * F(1e-8) + 500 * F(1e-9) + F(1e-5) and a.delta <= 1.75e-5 * (1 + 1e-15)


def test_laplace_exact_mechanism():
    """Discretised check: a two-point Laplace output table is (Delta/b)-DP exactly at the boundary."""
    assert laplace_epsilon(1.0, 10.0) == 0.1
    assert F(laplace_scale(1.0, 0.3)) >= F(1) / F(0.3)
    # randomized response as a 'Laplace-like' sanity anchor: dp_epsilon of [[3/4,1/4],[1/4,3/4]] = ln 3
    assert dp_epsilon([[F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]], 0, [(0, 1)]).ratio == 3


def test_gaussian_sigma():
    for e, d in [(0.5, 1e-5), (0.99, 1e-12), (1e-6, 0.5)]:
        with mpmath.workdps(DPS):
            ref = mpmath.sqrt(2 * mpmath.log(mpmath.mpf(5) / 4 / mp(d))) / mp(e)
        check_up(gaussian_sigma(1.0, e, d), ref, 2**-50)
    with pytest.raises(RegimeError, match=r"eps in \(0, 1\)"):
        gaussian_sigma(1.0, 1.5, 1e-5)
    assert gaussian_sigma(1.0, 1.5, 1e-5, strict=False) > 0


# ---------------------------------------------------------------------------------------------
# Optimal homogeneous composition (KOV15 Thm 3.3)
# ---------------------------------------------------------------------------------------------


def _rr_pair(e, d):
    """The (eps, delta) randomized response pair of KOV15 (4 outcomes), 60 digits."""
    with mpmath.workdps(60):
        E = mpmath.exp(mp(e))
        D = mp(d)
        P = [D, (1 - D) * E / (1 + E), (1 - D) / (1 + E), mpmath.mpf(0)]
        Q = [mpmath.mpf(0), (1 - D) / (1 + E), (1 - D) * E / (1 + E), D]
    return P, Q


def _brute_hockey(e, d, k, eg):
    """max over events of P^k(S) - e^eg Q^k(S), by enumerating all 4^k outcomes (60 digits)."""
    import itertools

    P, Q = _rr_pair(e, d)
    with mpmath.workdps(60):
        c = mpmath.exp(mp(eg))
        tot = mpmath.mpf(0)
        for o in itertools.product(range(4), repeat=k):
            p = mpmath.fprod(P[i] for i in o)
            q = mpmath.fprod(Q[i] for i in o)
            tot += max(mpmath.mpf(0), p - c * q)
    return tot


@pytest.mark.parametrize("e, d, k", [(0.5, 0.0, 1), (0.3, 1e-3, 3), (1.2, 0.01, 5), (0.05, 0.0, 6)])
def test_kov_delta_matches_brute_force(e, d, k):
    for eg in [0.0, e / 3, e, 2.5 * e, k * e * 0.9, k * e]:
        ref = _brute_hockey(e, d, k, eg)
        got = optimal_composition_delta(e, d, k, eg)
        if ref < 1e-50:  # exactly 0 (eg = k eps, delta = 0): the 60-digit sum leaves rounding noise
            assert 0 <= got < 1e-40
        else:
            check_up(got, ref, 2**-49)


def test_kov_hand_values_and_rr_is_eps_delta_dp():
    # the pair itself is (eps, delta)-DP: its delta at eps is delta (exactly, two-point check)
    P, Q = _rr_pair(0.7, 0.01)
    with mpmath.workdps(60):
        assert abs(sum(max(0, p - mpmath.exp(mp(0.7)) * q) for p, q in zip(P, Q)) - mp(0.01)) < 1e-50
    # k = 2, delta = 0, eps_total = 0: tanh(eps/2)
    for e in [0.01, 0.5, 3.0]:
        with mpmath.workdps(DPS):
            check_up(optimal_composition_delta(e, 0.0, 2, 0.0), mpmath.tanh(mp(e) / 2), 2**-50)
    # k = 1: the optimal eps at delta_total = delta is eps itself
    g = optimal_composition(0.4, 1e-4, 1, 1e-4)
    assert F(g.eps) >= F(0.4) and g.eps <= 0.4 * (1 + 1e-14)
    # eps_total = 0 is the answer exactly when delta_total >= delta(0) = tanh(1/2) (k = 2,
    # eps = 1); a budget 1e-12 relative below it needs eps > 0, certified at 60 digits
    from proofs_checks.fuzz import references as R

    d0 = math.tanh(0.5)
    assert optimal_composition(1.0, 0.0, 2, 0.47).eps == 0.0
    assert optimal_composition(1.0, 0.0, 2, d0 * (1 + 1e-12)).eps == 0.0
    dt = d0 * (1 - 1e-12)
    g = optimal_composition(1.0, 0.0, 2, dt)
    assert g.eps > 0 and R.run(R.kov_delta, R.exact(1.0), R.exact(0.0), 2, R.exact(g.eps)) <= R.exact(dt)
    # steps with eps = 0 lose only the delta mass: 1 - (1 - 0.01)^10 = 0.0956179249911955119...
    # (60 digits, the float 0.01), rounded up, at every eps_total
    for eg in (0.0, 0.5):
        assert optimal_composition_delta(0.0, 0.01, 10, eg) == 0.09561792499119552
    # a delta is a probability: at k = 1000, delta = 1/2 it is 1 - 2^-1000 (1 - S), 0 < S < 1,
    # which rounded up is 1.0 (not the float above 1 the enclosure's upper end rounds to)
    assert optimal_composition_delta(0.5, 0.5, 1000, 0.0) == 1.0


def test_kov_sweep_certified_tight_and_below_advanced():
    rng = np.random.default_rng(33)
    for _ in range(150):
        e = float(log_uniform(rng, 1e-3, 2.0, 1)[0])
        k = int(log_uniform(rng, 1, 300, 1)[0])
        d = float(rng.choice([0.0, float(log_uniform(rng, 1e-12, 1e-4, 1)[0])]))
        floor = 1 - (1 - d) ** k
        dt = float(min(0.5, floor + float(log_uniform(rng, 1e-10, 0.1, 1)[0])))
        g = optimal_composition(e, d, k, dt)
        # reference delta of the composition at the returned eps, and slightly below it
        ref_at = _kov_ref(e, d, k, g.eps)
        assert ref_at <= mp(dt)
        if g.eps > 0:  # tight to the float: the search's float surrogates only steer it
            assert _kov_ref(e, d, k, math.nextafter(g.eps, 0.0)) > mp(dt)
        if d * k < dt:
            assert g.eps <= compose_dp([(e, d)] * k, dt).eps * (1 + 1e-12)
        assert g.eps <= F(k) * F(e) * (1 + F(1, 10**12))


def _kov_ref(e, d, k, eg):
    """50-digit KOV delta, summing the terms in a different form (probabilities p^l q^(k-l))."""
    with mpmath.workdps(DPS + 20):
        E = mpmath.exp(mp(e))
        p, q = E / (1 + E), 1 / (1 + E)
        c = mpmath.exp(mp(eg))
        s = mpmath.mpf(0)
        for l in range(k + 1):
            t = mpmath.binomial(k, l) * (p ** (k - l) * q**l - c * p**l * q ** (k - l))
            if t > 0:
                s += t
        keep = (1 - mp(d)) ** k
        return 1 - keep + keep * s


def test_kov_errors_and_monotone():
    with pytest.raises(InvalidParameter, match="delta_total"):
        optimal_composition(0.1, 1e-3, 10, 1e-3)  # below 1 - (1 - 1e-3)^10
    with pytest.raises(InvalidParameter, match="'k'|k"):
        optimal_composition(0.1, 0.0, 0, 1e-3)
    es = [optimal_composition(0.1, 0.0, k, 1e-6).eps for k in (1, 10, 100, 1000)]
    assert es == sorted(es)
    es = [optimal_composition(0.1, 0.0, 100, dt).eps for dt in (1e-9, 1e-6, 1e-3)]
    assert es == sorted(es, reverse=True)


# ---------------------------------------------------------------------------------------------
# Analytic Gaussian (Balle-Wang 2018 Thm 8)
# ---------------------------------------------------------------------------------------------


def test_analytic_gaussian_sweep():
    rng = np.random.default_rng(8)
    for _ in range(300):
        s = float(log_uniform(rng, 1e-3, 1e3, 1)[0])
        e = float(log_uniform(rng, 1e-3, 20.0, 1)[0])
        d = float(log_uniform(rng, 1e-15, 0.3, 1)[0])
        sig = analytic_gaussian_sigma(s, e, d)
        assert bw_delta(s, sig, e) <= mp(d)
        assert bw_delta(s, sig * (1 - 1e-10), e) > mp(d)
        if e < 1:
            assert sig <= gaussian_sigma(s, e, d)
        ee = gaussian_epsilon(sig, s, d)
        assert ee <= e * (1 + 1e-9) and bw_delta(s, sig, ee) <= mp(d)
        check_up(gaussian_delta(sig, s, e), bw_delta(s, sig, e), 2**-45)


@pytest.mark.parametrize(
    ("sigma", "s", "e", "want"),
    [
        # Phi's argument -1e154 (sigma eps/s): delta is positive but below every float: the
        # smallest float, never 0 and never -0.0
        (1e4, 1.0, 1e150, 5e-324),
        (1e300, 1.0, 1.0, 5e-324),
        # s/(2 sigma) = 5e159: Phi(5e159) = 1, e^eps Phi(-5e159) below every float: delta = 1
        (1e-160, 1.0, 1.0, 1.0),
        (1e-160, 1.0, 0.0, 1.0),
        (1.0, 1e300, 0.5, 1.0),
    ],
)
def test_gaussian_delta_beyond_mpmaths_erfc(sigma, s, e, want):
    """Arguments of Phi past about 1.3e154, where mpmath's erfc raised OverflowError (its
    series test squares the argument as a float): each Phi is enclosed by the Gaussian tail
    bound e^(-z^2/2)/2 instead (the planner's fuzz found it through a mixed stage)."""
    assert gaussian_delta(sigma, s, e) == want
    with mpmath.workdps(60):
        z = -mpmath.mpf(sigma) * mpmath.mpf(e) / mpmath.mpf(s) + mpmath.mpf(s) / (2 * mpmath.mpf(sigma))
        if want < 1:  # the tail bound itself is far below the smallest float
            assert mpmath.exp(-z * z / 2) / 2 < mpmath.mpf(5e-324)


@pytest.mark.parametrize(
    ("sigma", "s", "d", "want"),
    [(1.0, 1.4142135623730954e-28, 4e-29, "3.659e-29"), (1e28, 1.0, 2e-29, "4.929e-29")],
)
def test_gaussian_epsilon_of_a_tiny_mu(sigma, s, d, want):
    """mu = s/sigma near 1e-28, delta below delta(0) = 2 Phi(mu/2) - 1 (0.399 mu): at the
    first point (two Gaussian steps of sigma 1e28 composed, mu = sqrt 2 1e-28, delta 4e-29) the
    float root's Brent search stalled (xtol 1e-300) and raised RuntimeError out of plan(); the
    root finder now falls back to bisection. Held against the Balle-Wang curve's root bisected
    at 50 digits: certified (its delta at most the target) and within 1e-9 of the root."""
    e = gaussian_epsilon(sigma, s, d)
    assert bw_delta(s, sigma, e) <= mp(d)
    with mpmath.workdps(DPS):
        lo, hi = mpmath.mpf(0), mpmath.mpf("1e-27")
        for _ in range(200):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if bw_delta(s, sigma, mid) > mp(d) else (lo, mid)
        assert hi <= mp(e) <= hi * (1 + mpmath.mpf("1e-9"))
        assert mpmath.nstr(hi, 4) == want


def test_gaussian_curves_of_a_mu_below_the_floats():
    """mu = s/sigma = 5e-324 (or 1e-371, which is 0 in floats): the float surrogate's quadrature
    split its interval into ceil(h/2) = 0 pieces (a subnormal h halves to 0) and divided by
    zero. delta(0) = 2 Phi(mu/2) - 1 <= 0.4 mu is below any target: eps = 0. A mixed stage of
    one eps = 1 step and a Gaussian part of mu = 1e-154 squared a past the floats (a warning);
    its eps at delta 0.1 is randomized response's, ln(e - 0.1 (1 + e)) = 0.852905101364 (the
    Gaussian part adds nothing a float can hold)."""
    from maxinfo_bounds.theorems.dp_accounting.mixed import mixed_epsilon

    assert gaussian_epsilon(1.0, 5e-324, 0.1) == 0.0
    assert gaussian_epsilon(1e154, 1e-217, 0.1) == 0.0
    rr = math.log(math.e - 0.1 * (1 + math.e))
    assert rr <= mixed_epsilon({1.0: 1}, 1e-154, 0.1) <= rr * (1 + 1e-9)


def test_gaussian_epsilon_zero_at_or_above_delta_at_zero():
    """delta(eps = 0) of N(0, 1) noise at sensitivity 1 is Phi(1/2) - Phi(-1/2) = erf(1/(2 sqrt 2))
    = 0.38292...: any delta at or above it needs no eps at all; just below it, a tiny eps."""
    d0 = math.erf(0.5 / math.sqrt(2))
    assert gaussian_epsilon(1.0, 1.0, 0.383) == 0.0
    assert gaussian_epsilon(1.0, 1.0, min(d0 * (1 + 1e-12), 0.9)) == 0.0
    assert 0 < gaussian_epsilon(1.0, 1.0, 0.38) < 0.01


def test_analytic_gaussian_against_dp_accounting():
    """Google's PLD accountant (pessimistic) must give at least the exact eps, and close to it."""
    import dp_accounting

    for sigma, d in [(1.0, 1e-5), (3.0, 1e-6), (0.7, 1e-3)]:
        pld = from_dp_event(dp_accounting.GaussianDpEvent(noise_multiplier=sigma), d)
        exact = gaussian_epsilon(sigma, 1.0, d)
        assert exact <= pld.eps <= exact * 1.02 + 1e-3


def test_from_dp_event_laplace_closed_form():
    """Laplace(b), sensitivity 1: delta(eps) = 1 - exp((eps - 1/b)/2), so eps(delta) = 1/b + 2 ln(1 - delta)."""
    import dp_accounting

    for b, d in [(10.0, 1e-3), (2.0, 1e-2)]:
        g = from_dp_event(dp_accounting.LaplaceDpEvent(noise_multiplier=b), d)
        exact = 1 / b + 2 * math.log1p(-d)
        assert exact <= g.eps <= exact + 2e-3 and g.delta == d
    with pytest.raises(InvalidParameter, match="delta"):
        from_dp_event(dp_accounting.LaplaceDpEvent(noise_multiplier=1.0), 0.0)


def test_from_dp_event_below_the_pld_tail_mass_is_refused_with_the_reason():
    """dp_accounting's PLD books its truncated tails as infinite loss: at delta = 1e-16 a
    Gaussian(5000) event has eps = inf there (the exact eps is finite, about 1.7e-3 by the
    analytic Gaussian); the refusal names delta, the cause and the alternative, never
    'eps=inf is invalid' further down."""
    import dp_accounting

    ev = dp_accounting.GaussianDpEvent(noise_multiplier=5000.0)
    with pytest.raises(
        InvalidParameter,
        match=r"delta=1e-16 .*PLD tail mass.*eps = inf.*"
        r"gaussian_epsilon",
    ) as exc:
        from_dp_event(ev, 1e-16)
    assert "\n" not in str(exc.value)
    assert 1e-3 < gaussian_epsilon(5000.0, 1.0, 1e-16) < 2e-3  # finite, by the exact route
    assert from_dp_event(ev, 1e-14).eps < 2e-3  # above the tail mass: finite


# ---------------------------------------------------------------------------------------------
# Exponential mechanism, report noisy max, sparse vector
# ---------------------------------------------------------------------------------------------


def test_exponential_mechanism_exact_dp_on_small_tables():
    """Random score tables on neighbouring datasets (scores differ by at most Delta): the exact
    DP eps of the two output distributions (measures.dp_epsilon) is at most the claimed eps."""
    rng = np.random.default_rng(5)
    for _ in range(300):
        r = int(rng.integers(2, 6))
        delta_u = float(rng.uniform(0.1, 2.0))
        c = float(rng.uniform(0.05, 3.0))
        u = rng.uniform(-3, 3, r)
        mono = bool(rng.integers(0, 2))
        shift = rng.uniform(0, delta_u, r) if mono else rng.uniform(-delta_u, delta_u, r)
        rows = np.array([np.exp(c * u), np.exp(c * (u + shift))])
        rows /= rows.sum(axis=1, keepdims=True)
        rows[:, -1] = 1 - rows[:, :-1].sum(axis=1)
        exact = dp_epsilon(rows, 0, [(0, 1)])
        g = exponential_mechanism_epsilon(delta_u, c, monotone=mono)
        assert float(exact) <= g.eps * (1 + 1e-9) + 1e-12
    # near-tight case: many outputs, one score up by Delta and the rest down: ratio -> e^{2c Delta}
    r, c = 2000, 0.5
    u = np.zeros(r)
    a = np.exp(c * u)
    b = np.exp(c * (u - 1.0))
    b[0] = np.exp(c * 1.0)
    ratio = (b[0] / b.sum()) / (a[0] / a.sum())
    assert math.log(ratio) > 0.99 * exponential_mechanism_epsilon(1.0, c).eps
    assert exponential_mechanism_coefficient(2.0, 1.0) == 0.25
    assert exponential_mechanism_coefficient(2.0, 1.0, monotone=True) == 0.5


def test_report_noisy_max_and_sparse_vector_hand():
    assert report_noisy_max_epsilon(1.0, 10.0).eps == 0.2
    assert report_noisy_max_epsilon(1.0, 10.0, monotone=True).eps == 0.1
    assert above_threshold_epsilon(1.0, 2.0, 4.0) == 1.0
    assert above_threshold_epsilon(0.5, 1.0, 1.0) == 1.5
    # DR Alg. 2, delta = 0: sigma = 2c Delta / eps, threshold noise Lap(sigma), query noise Lap(2 sigma)
    for c, e, s in [(1, 1.0, 1.0), (5, 0.5, 1.0), (7, 2.0, 0.25)]:
        b1, b2 = sparse_vector_scales(c, e, sensitivity=s)
        assert F(b1) >= 2 * c * F(s) / F(e) and b1 <= 2 * c * s / e * (1 + 1e-12)
        assert F(b2) >= 4 * c * F(s) / F(e) and b2 <= 4 * c * s / e * (1 + 1e-12)
        assert sparse_vector(c, b1, b2, sensitivity=s).eps <= e
    # the hand split where it is exact: c = 5, eps = 5 gives b1 = 2 c Delta / eps = 2, b2 = 4, at
    # which Thm 3.25's eps = c (1/b1 + 2/b2) = 5 is met with equality (allowed: <= eps)
    assert sparse_vector_scales(5, 5.0) == (2.0, 4.0)
    # one run with delta > 0: composition is the run itself, eps1 = eps: b1 = 2/0.5 = 4, b2 = 8
    assert sparse_vector_scales(1, 0.5, delta=1e-6) == (4.0, 8.0)
    # delta > 0: never more noise than DR Alg. 2's sigma = sqrt(32 c ln(1/delta)) Delta / eps,
    # and tight: 1e-9 less noise exceeds eps (advanced composition beats basic at c = 50, 200;
    # basic is the answer at c = 2)
    for c, e, d in [(50, 0.5, 1e-6), (200, 0.9, 1e-9), (2, 0.5, 1e-9)]:
        b1, b2 = sparse_vector_scales(c, e, delta=d)
        assert b1 <= math.sqrt(32 * c * math.log(1 / d)) / e
        assert sparse_vector(c, b1, b2, delta=d).eps <= e
        assert sparse_vector(c, b1 * (1 - 1e-9), b2 * (1 - 1e-9), delta=d).eps > e


def test_dp_max_information_routes():
    from maxinfo_bounds import DPGuarantee

    g = DPGuarantee(0.01, 0.0, "given")
    b = dp_max_information(g, 1000)
    with mpmath.workdps(DPS):
        check_up(b.k, mp(0.01) * 1000 / mpmath.log(2), 2**-50)  # RRST 1.4a: log2(e) eps n
    bp = dp_max_information(g, 1000, iid=True, beta=1e-6)
    assert bp.k <= b.k
    with pytest.raises(RegimeError, match="iid"):
        dp_max_information(DPGuarantee(0.1, 1e-8, "given"), 1000)
    ba = dp_max_information(DPGuarantee(0.1, 1e-8, "given"), 1000, iid=True)
    assert ba.theorem == "RRST-3.1" and ba.product_only


# ---------------------------------------------------------------------------------------------
# Hypothesis: monotonicity and limits
# ---------------------------------------------------------------------------------------------


_eps = st.floats(1e-3, 2.0)
_delta = st.floats(1e-12, 1e-3)


@settings(max_examples=40, deadline=None)
@given(_eps, st.integers(1, 60), _delta, st.floats(1.5, 100.0))
def test_kov_monotone_and_dominated(e, k, dt, factor):
    a = optimal_composition(e, 0.0, k, dt)
    b = optimal_composition(e, 0.0, k, min(dt * factor, 0.9))
    assert b.eps <= a.eps  # more delta, less eps
    assert optimal_composition(e, 0.0, k + 1, dt).eps >= a.eps  # one more step costs
    assert a.eps <= advanced_composition([(e, 0.0)] * k, dt).eps * (1 + 1e-12)
    assert a.eps <= k * e * (1 + 1e-12)


@settings(max_examples=40, deadline=None)
@given(st.floats(1e-2, 10.0), _delta, st.floats(1.01, 10.0))
def test_analytic_gaussian_monotone(e, d, factor):
    s = analytic_gaussian_sigma(1.0, e, d)
    assert analytic_gaussian_sigma(1.0, e * factor, d) <= s  # more eps, less noise
    assert analytic_gaussian_sigma(1.0, e, min(d * factor, 0.9)) <= s
    assert analytic_gaussian_sigma(2.0, e, d) == pytest.approx(2 * s, rel=1e-12)  # scale invariance
    assert gaussian_delta(s, 1.0, e) <= d


def test_limits():
    # eps -> 0: the Gaussian's delta tends to 2 Phi(Delta / 2 sigma) - 1 (a TV distance)
    with mpmath.workdps(DPS):
        check_up(gaussian_delta(2.0, 1.0, 0.0), 2 * mpmath.ncdf(mpmath.mpf(1) / 4) - 1, 2**-45)
    # KOV, delta_total -> 1: eps -> 0 ; large k, small eps: close to advanced composition's sqrt term
    assert optimal_composition(0.1, 0.0, 10, 0.99).eps == 0.0
    k, e, dt = 10_000, 0.001, 1e-6
    kov = optimal_composition(e, 0.0, k, dt).eps
    assert 0.5 * e * math.sqrt(2 * k * math.log(1 / dt)) < kov < advanced_composition([(e, 0.0)] * k, dt).eps


@pytest.mark.parametrize(
    "e, d, k, slack", [(0.5, 1e-3, 4, 0.05), (0.2, 0.0, 7, 0.01), (1.0, 1e-4, 3, 0.2), (0.1, 1e-5, 8, 1e-3)]
)
def test_basic_and_advanced_composition_against_brute_force(e, d, k, slack):
    """Ground truth for DR 3.16 and 3.20 that neither formula produces: the k-fold product of
    KOV's randomized-response pair is the worst case of k (e, d)-DP steps (KOV15 Thm 3.3), and
    its exact delta at a given eps is the hockey-stick divergence over all 4^k outcomes (60
    digits). Each composed (eps, delta) must be at least that exact delta."""
    b = basic_composition([(e, d)] * k)
    assert _brute_hockey(e, d, k, b.eps) <= mp(b.delta)
    a = advanced_composition([(e, d)] * k, slack)
    assert _brute_hockey(e, d, k, a.eps) <= mp(a.delta)
    # and the worst case is attained: at half of basic composition's eps the pair needs more
    # than basic's delta whenever delta > 0 (a check that the brute force can fail)
    if d > 0:
        assert _brute_hockey(e, d, k, b.eps / 2) > mp(b.delta)


def test_laplace_epsilon_against_the_density_ratio():
    """DR Thm 3.6 against the Laplace densities themselves (scipy): the largest log-ratio of
    Lap(b) centred at 0 and at Delta over a fine grid is Delta/b, which laplace_epsilon must
    not undercut (and equals here)."""
    from scipy.stats import laplace

    for delta_, b in [(1.0, 10.0), (0.3, 0.7), (2.0, 0.5)]:
        x = np.linspace(-40 * b, 40 * b + delta_, 400_001)
        ratio = np.max(np.abs(laplace.logpdf(x, 0, b) - laplace.logpdf(x, delta_, b)))
        assert laplace_epsilon(delta_, b) >= ratio - 1e-12
        assert laplace_epsilon(delta_, b) == pytest.approx(ratio, rel=1e-12)


# ---------------------------------------------------------------------------------------------
# large k: the optimal-composition sums skip the negligible terms below the significant range
# (a geometric tail bound) and keep running states every 512 terms; k <= 300 above never gets
# there. The reference sums every term at 60 digits (proofs_checks.fuzz.references).
# ---------------------------------------------------------------------------------------------


def test_kov_large_k_against_the_full_sum():
    from proofs_checks.fuzz import references as R

    for e, k, eg in [(0.05, 4000, 3.0), (0.05, 4000, 6.0), (0.01, 20000, 0.5)]:
        ref = R.run(R.kov_delta, R.exact(e), R.exact(0.0), k, R.exact(eg))
        check_up(optimal_composition_delta(e, 0.0, k, eg), ref, 2**-49)
    # one instance answers many eps_total in a search (the kept states are reused): certified
    # and tight against the full sum at the returned eps and 1e-9 below it
    g = optimal_composition(0.05, 1e-9, 4000, 1e-5)
    at = R.run(R.kov_delta, R.exact(0.05), R.exact(1e-9), 4000, R.exact(g.eps))
    below = R.run(R.kov_delta, R.exact(0.05), R.exact(1e-9), 4000, R.exact(g.eps * (1 - 1e-9)))
    assert at <= R.exact(1e-5) < below


def test_kov_kept_states_are_reused_across_tops():
    """One instance answers eps_total = 4, 0.2, 0 (k = 20,000, eps = 0.01: tops 9801, 9990,
    10000): the first sum starts at its first significant term and keeps its running state at
    l = 9216 and 9728; the later ones extend the state at 9728, whose sums still matter (the
    first sequence peaks at k/(1 + e^eps) = 9950, 70 terms wide). Each enclosure holds the
    60-digit full sum and is tight to 2^-49."""
    from maxinfo_bounds.numeric import iv_prec
    from maxinfo_bounds.theorems.dp_accounting.optimal import _KovDelta
    from proofs_checks.fuzz import references as R

    kd = _KovDelta(0.01, 1e-9, 20000, iv_prec(30))
    # (0.01 is the float a hair above 1/100: a top is one past a round number)
    for eg, top in ((4.0, 9801), (0.2, 9990), (0.0, 10000)):
        assert kd.top(eg) == top
        lo, hi = kd(eg)
        ref = R.run(R.kov_delta, R.exact(0.01), R.exact(1e-9), 20000, R.exact(eg))
        assert R.exact(lo) <= ref
        check_up(hi, ref, 2**-49)
    assert max(kd._states) == 9728 and sorted(kd._sums) == [9801, 9990, 10000]


def test_kov_skipped_terms_are_enclosed_by_the_geometric_tail():
    """At large k the KOV15 sums start at the first significant term: the terms skipped below
    l = lo are enclosed in [0, a r/(1 - r)] (first sum, ratio r = lo E/(k - lo + 1) < 1 of
    consecutive terms) and [0, b (r/E^2)/(1 - r/E^2)] (second). Checked against the skipped
    sums added term by term at 60 digits (k = 20,000, eps = 0.01, three tops): each enclosure
    holds its sum, is within 1% of it (the ratio barely moves over the skipped range), and is
    below 2^-(prec + 16) of the whole sum up to top, so skipping changes no returned bit."""
    from maxinfo_bounds.numeric import iv_prec
    from maxinfo_bounds.theorems.dp_accounting.optimal import _KovDelta

    k, e, prec = 20000, 0.01, iv_prec(30)
    kd = _KovDelta(e, 0.0, k, prec)
    old = mpmath.iv.prec
    try:
        mpmath.iv.prec = prec
        for top in (9000, 9500, 10000):
            lo, a, b, sa, sb = kd._start(mpmath.iv, top)
            assert 1024 <= lo < top
            with mpmath.workdps(60):
                E, c = mpmath.exp(mp(e)), mpmath.mpf(1)  # c = C(k, j)
                skipped_a = skipped_b = whole_a = whole_b = mpmath.mpf(0)
                for j in range(top):
                    if j == lo:
                        at_lo = (c * E ** (k - j), c * E**j)
                    ta, tb = c * E ** (k - j), c * E**j
                    whole_a, whole_b = whole_a + ta, whole_b + tb
                    if j < lo:
                        skipped_a, skipped_b = skipped_a + ta, skipped_b + tb
                    c = c * (k - j) / (j + 1)

                def lo_hi(x):
                    return mpmath.mpf(x.a), mpmath.mpf(x.b)

                for enc, true in ((a, at_lo[0]), (b, at_lo[1])):
                    lo_, hi_ = lo_hi(enc)
                    assert lo_ <= true <= hi_
                for enc, true, whole in ((sa, skipped_a, whole_a), (sb, skipped_b, whole_b)):
                    lo_, hi_ = lo_hi(enc)
                    assert lo_ == 0 and true <= hi_ <= true * mpmath.mpf("1.01"), (top, hi_ / true)
                    assert hi_ <= whole * mpmath.mpf(2) ** -(prec + 16)
    finally:
        mpmath.iv.prec = old


def test_analytic_gaussian_exact_delta():
    """A Fraction delta is compared exactly: 1/10^5 is just below the float 1e-5, so the sigma
    for it is at least the float's; each is certified and tight against BW18 Thm 8 at 60 digits."""
    from proofs_checks.fuzz import references as R

    for delta in (F(1, 10**5), 1e-5):
        sg = analytic_gaussian_sigma(1.0, 0.5, delta)
        at = R.run(R.ag_delta, R.exact(1.0), R.exact(sg), R.exact(0.5))
        prev = R.run(R.ag_delta, R.exact(1.0), R.exact(float(np.nextafter(sg, 0))), R.exact(0.5))
        assert at <= R.exact(delta) < prev
        e = gaussian_epsilon(2.0, 1.0, delta)
        at = R.run(R.ag_delta, R.exact(1.0), R.exact(2.0), R.exact(e))
        prev = R.run(R.ag_delta, R.exact(1.0), R.exact(2.0), R.exact(float(np.nextafter(e, 0))))
        assert at <= R.exact(delta) < prev
    assert analytic_gaussian_sigma(1.0, 0.5, F(1, 10**5)) >= analytic_gaussian_sigma(1.0, 0.5, 1e-5)
    # sensitivity 2: the refusal's ratios are sigma/sensitivity and (sensitivity/sigma)^2 / 2
    with pytest.raises(InvalidParameter, match=r"sigma/sensitivity = 5\.0e-10; eps would be about 2\.0e\+18 nats"):
        gaussian_epsilon(1e-9, 2.0, 1e-5)


def test_dp_max_information_iid_without_beta_is_thm_1_4a():
    b = dp_max_information(DPGuarantee(0.1, 0.0, "given"), 10, iid=True)
    assert b.theorem == "RRST-1.4a" and b.k == pytest.approx(1 / math.log(2), rel=1e-12)


def test_dp_guarantee_provenance():
    from maxinfo_bounds.theorems.dp_accounting import exponential_mechanism_epsilon, sparse_vector

    g = sparse_vector(3, 2.0, 4.0)
    assert (g.theorem, g.conditions) == ("DR-3.25", ("c = 3 positive answers", "basic composition of the c runs"))
    assert g.eps == pytest.approx(3.0, rel=1e-15) and g.delta == 0.0  # 3 runs of 1/2 + 2/4
    a = sparse_vector(3, 2.0, 4.0, delta=1e-6)
    assert a.theorem == "DR-3.26" and a.delta == 1e-6 and a.eps <= 3.0 * (1 + 1e-15)
    assert a.conditions[0] == "c = 3 positive answers"
    assert a.conditions[-1] == "min of basic and advanced composition"
    assert a.conditions[2] == "delta' = 1e-06" and a.conditions[1].startswith("per run eps = ")
    m = exponential_mechanism_epsilon(1.0, 0.5, monotone=True)
    assert (m.eps, m.delta, m.theorem, m.conditions) == (0.5, 0.0, "DR-3.10", ("monotone scores",))
    assert exponential_mechanism_epsilon(1.0, 0.5).conditions == ()


def test_kov_statement_is_the_paper_formula_and_the_evaluators_value():
    """KOV15 Thm 3.3's statement is generated from the bodies the certified algorithm and the
    float surrogate evaluate; it must equal the theorem as printed (re-typed here) and, at
    eps = 1, delta = 0, k = 2, eps_g = 0, the hand value (e^2 - 1)/(1 + e)^2 = tanh(1/2)."""
    import math

    import sympy

    from maxinfo_bounds.catalog import REGISTRY
    from maxinfo_bounds.theorems.dp_accounting import optimal_composition_delta
    from maxinfo_bounds.theorems.dp_accounting.optimal import _kov_delta_float

    st = REGISTRY["KOV15-3.3"].sympy_statement()
    sv = {str(x): x for x in st.free_symbols}
    k, l = sympy.symbols("k l", integer=True, nonnegative=True)
    e, eg, d = sympy.symbols("epsilon epsilon_g delta", nonnegative=True)
    keep = (1 - d) ** k
    paper = (
        1
        - keep
        + keep
        * sympy.Sum(sympy.binomial(k, l) * sympy.Max(0, sympy.exp((k - l) * e) - sympy.exp(eg + l * e)), (l, 0, k))
        / (1 + sympy.exp(e)) ** k
    )
    assert sorted(sv) == ["delta", "epsilon", "epsilon_g", "k"]
    # printed as the paper prints it: (1 - delta)^k, not e^{k log(1 - delta)}
    assert st.has((1 - sv["delta"]) ** sv["k"]) and not st.has(sympy.log)
    for kk, ee, gg, dd in (
        (2, 1, 0, 0),
        (3, sympy.Rational(3, 10), sympy.Rational(1, 5), sympy.Rational(1, 100)),
        (7, 2, 3, sympy.Rational(1, 3)),
    ):
        ours = st.subs({sv["k"]: kk, sv["epsilon"]: ee, sv["epsilon_g"]: gg, sv["delta"]: dd})
        ref = paper.subs({k: kk, e: ee, eg: gg, d: dd})
        assert abs(sympy.N(ours.doit() - ref.doit(), 50)) < sympy.Float(10) ** -45
        got = optimal_composition_delta(float(ee), float(dd), kk, float(gg))
        assert float(sympy.N(ref.doit(), 30)) <= got <= float(sympy.N(ref.doit(), 30)) * (1 + 1e-14)
        assert math.isclose(
            _kov_delta_float(float(ee), float(dd), kk, float(gg)), float(sympy.N(ref.doit(), 30)), rel_tol=1e-12
        )
    assert math.isclose(
        float(st.subs({sv["k"]: 2, sv["epsilon"]: 1, sv["epsilon_g"]: 0, sv["delta"]: 0}).doit()),
        math.tanh(0.5),
        rel_tol=1e-15,
    )


def test_ag_and_sparse_validate_statements_match_the_papers():
    """Balle–Wang Thm 8 and DFHPRR Thm 10 build their statements from the bodies their
    evaluators use; each must equal the paper's formula re-typed here."""
    import sympy

    from maxinfo_bounds.catalog import REGISTRY
    from maxinfo_bounds.theorems.dp_accounting.mechanisms import _ag_delta_bounds

    st = REGISTRY["BW18-8"].sympy_statement()
    sv = {str(x): x for x in st.free_symbols}
    s, sg, e = sv["Delta"], sv["sigma"], sv["epsilon"]

    def phi(x: object) -> object:
        return (1 + sympy.erf(x / sympy.sqrt(2))) / 2

    paper = phi(s / (2 * sg) - e * sg / s) - sympy.exp(e) * phi(-s / (2 * sg) - e * sg / s)
    assert sympy.simplify(st - paper) == 0
    # Delta = 1, sigma = 1, eps = 0: Phi(1/2) - Phi(-1/2) = erf(1/(2 sqrt 2)) (mpmath, 50 digits)
    import mpmath

    lo, hi = _ag_delta_bounds(1, 1, 0)
    with mpmath.workdps(50):
        ref = mpmath.mpf("0.38292492254802620727540922121667547976720435110916")
        assert lo <= ref <= hi and hi - lo < mpmath.mpf(10) ** -39

    st = REGISTRY["DFHPRR-10"].sympy_statement()
    sv = {str(x): x for x in st.atoms(sympy.Symbol)}
    # at i = 4, B = 2: C(4,0) + C(4,1) + C(4,2) = 11; at i = 2, B = 9: min(1, 9) -> 1 + 2 = 3
    assert st.subs({sv["i"]: 4, sv["B"]: 2, sv["beta_i"]: 1}).doit() == 11
    assert st.subs({sv["i"]: 2, sv["B"]: 9, sv["beta_i"]: 1}).doit() == 3


PURE = DPGuarantee(0.1, 0.0, "given")


def test_dp_max_information_refusals_and_the_eps_zero_bound():
    with pytest.raises(InvalidParameter) as e1:
        dp_max_information(3, 10)  # type: ignore[arg-type]
    assert str(e1.value) == "guarantee=3 is invalid: must be a DPGuarantee"
    with pytest.raises(InvalidParameter) as e2:
        dp_max_information(PURE, 10, beta=0.5)
    assert str(e2.value) == (
        "beta=0.5 is invalid: must be omitted unless iid=True (beta is the "
        "i.i.d. bounds' parameter: RRST Thm 1.4b / 3.1)"
    )
    with pytest.raises(RegimeError) as e3:
        dp_max_information(DPGuarantee(0.1, 1e-6, "given"), 10)
    assert str(e3.value) == (
        "RRST Thm 3.1 / §4 does not apply: it requires iid=True (approximate "
        "DP bounds max-information only for i.i.d. data), got iid=False"
    )
    # eps = 0: the output is independent of the data, I_inf = 0 exactly (RRST Thm 1.4a at eps 0)
    b0 = dp_max_information(DPGuarantee(0.0, 0.0, "given"), 10)
    assert (b0.k, b0.beta, b0.theorem, b0.conditions, b0.variant) == (0.0, 0.0, "RRST-1.4a", ("eps = 0",), "exact")
    # pure DP: 1.4a is eps n log2(e) (hand: 0.1 * 10 / ln 2 = 1.4427 bits)
    a = dp_max_information(PURE, 10)
    assert a.theorem == "RRST-1.4a" and a.k == pytest.approx(1 / math.log(2), rel=1e-12)
    assert a.beta == 0.0
    # with iid and beta, Thm 1.4b where it is smaller (n = 1: log2(e)(0.005 + 0.1 sqrt(ln 4 / 2))
    # = 0.1273 bits < 0.1443), else 1.4a (n = 10^4: 1.4b 49.0 bits, 1.4a 1442.7 bits)
    b = dp_max_information(PURE, 1, iid=True, beta=0.5)
    hand = (0.005 + 0.1 * math.sqrt(math.log(4) / 2)) / math.log(2)
    assert b.theorem == "RRST-1.4b" and b.k == pytest.approx(hand, rel=1e-12) and b.beta == 0.5
    big = dp_max_information(DPGuarantee(5.0, 0.0, "given"), 1, iid=True, beta=0.5)
    assert big.theorem == "RRST-1.4a"  # 1.4b (18.3 bits) above 1.4a (7.2 bits)
    # approximate DP: Thm 3.1 at the requested beta (not at the paper's choice)
    g = DPGuarantee(0.1, 1e-9, "given")
    t9 = dp_max_information(g, 1000, iid=True, beta=0.9)
    assert t9.theorem == "RRST-3.1" and t9.beta <= 0.9 and t9.k < dp_max_information(g, 1000, iid=True).k


def _gaussian_event():
    import dp_accounting

    return dp_accounting.GaussianDpEvent(noise_multiplier=2.0)


def test_from_dp_event_texts():
    """The refusals and the guarantee's provenance, word for word."""
    import sys

    ev = _gaussian_event()
    g = from_dp_event(ev, 1e-5, value_discretization_interval=1e-3)
    assert (g.delta, g.theorem, g.conditions) == (
        1e-5,
        "dp_accounting PLD",
        ("pessimistic PLD discretisation", "value_discretization_interval = 0.001"),
    )
    from dp_accounting import pld

    acc = pld.PLDAccountant(value_discretization_interval=1e-3)
    acc.compose(ev)
    assert g.eps == math.nextafter(acc.get_epsilon(1e-5), math.inf)  # the accountant's, one ulp up
    with pytest.raises(InvalidParameter) as e1:
        from_dp_event("not an event", 1e-5)
    assert str(e1.value) == ("event='not an event' is invalid: must be a DpEvent the PLD accountant supports")
    import dp_accounting

    with pytest.raises(InvalidParameter) as e2:
        from_dp_event(dp_accounting.GaussianDpEvent(noise_multiplier=5000.0), 1e-16)
    msg = str(e2.value)
    head, _, tail = msg.partition("(about ")
    assert head == ("delta=1e-16 is invalid: must be above dp_accounting's PLD tail mass ")
    floor = float(tail.split(" ")[0])
    assert 1e-17 < floor < 1e-15  # the composed PLD's own truncated mass, about 1e-16
    assert tail.split(" ", 1)[1] == (
        "for this event): its accountant returns eps = inf below it; give a larger delta, or "
        "for a Gaussian mechanism use maxinfo_bounds' analytic Gaussian (gaussian_epsilon), "
        "exact at any delta"
    )
    saved = sys.modules.get("dp_accounting")
    sys.modules["dp_accounting"] = None  # type: ignore[assignment]  # import fails
    try:
        with pytest.raises(ImportError) as e3:
            from_dp_event(ev, 1e-5)
    finally:
        sys.modules["dp_accounting"] = saved  # type: ignore[assignment]
    assert str(e3.value) == ("from_dp_event needs dp_accounting: pip install 'maxinfo_bounds[accounting]'")


def test_kov_edge_reproducers():
    """Issue 46's reproducers. With delta = 0 and no mass allowed lost (delta_total = 0) the
    smallest eps_total is k eps: below it the l = 0 term e^{k eps} - e^{eps_g} of KOV's sum is
    positive, so delta(eps_g) > 0 (it failed with 'math domain error'). The RuntimeError
    reproducer returns a guarantee whose delta, evaluated independently at 50 digits, is within
    the budget."""
    from maxinfo_bounds.theorems.dp_accounting import optimal_composition, optimal_composition_delta

    assert optimal_composition(1.0, 0.0, 30, 0.0).eps == 30.0
    g = optimal_composition(0.25, 0.0, 7, 0.0)
    assert g.eps == 1.75 and g.delta == 0.0
    e, d, k, dt = 4.8406e-05, 9.167e-19, 88, 1.6134e-16
    g = optimal_composition(e, d, k, dt)
    assert g.delta == dt and 0 < g.eps <= k * e
    with mpmath.workdps(50):
        E, D, G = mp(e), mp(d), mp(g.eps)
        lost = 1 - (1 - D) ** k
        s = mpmath.fsum(
            mpmath.binomial(k, l) * max(mpmath.exp((k - l) * E) - mpmath.exp(G + l * E), 0) for l in range(k + 1)
        )
        delta = lost + (1 - lost) * s / (1 + mpmath.exp(E)) ** k
    assert delta <= dt
    assert optimal_composition_delta(e, d, k, g.eps) <= dt


def test_kov_float_surrogate_where_brent_stalls():
    """eps = 0.000495..., k = 126 pure steps at total delta 1e-30: Brent's method stalled on the
    surrogate (RuntimeError after 100 iterations; a hypothesis example of the power tests found
    it through the planner). The bisection fallback lands where the certified delta is the
    target to 1e-9 relative, and the certified composition agrees."""
    from maxinfo_bounds.theorems.dp_accounting.optimal import kov_eps_float, optimal_composition_delta

    e = 0.0004951179627586299
    v = kov_eps_float(e, 0.0, 126, 1e-30)
    assert 0 < v < 126 * e
    assert optimal_composition_delta(e, 0.0, 126, v) == pytest.approx(1e-30, rel=1e-9, abs=0)
    g = optimal_composition(e, 0.0, 126, 1e-30)
    assert g.eps == pytest.approx(v, rel=1e-9) and optimal_composition_delta(e, 0.0, 126, g.eps) <= 1e-30


def test_kov_float_window_equals_the_full_sum():
    """Issue 45: KOV's float surrogate sums only the window of significant terms (O(sqrt(k))).
    Against the full sum over l = 0..k, written out here as the binomial pmf of Bin(k, 1/(1 +
    e^eps)) times (1 - e^(eps_total - (k - 2l) eps))_+ (in log space, lgamma), at random points
    including far tails: equal to the float error of two log-space evaluations (1e-8 relative
    in the far tails, where lgamma of k is large)."""
    from math import exp, lgamma, log1p

    from maxinfo_bounds.theorems.dp_accounting.optimal import _kov_delta_float

    rng = np.random.default_rng(45)
    for _ in range(150):
        k = int(10 ** rng.uniform(0, 4.5))
        eps = float(10 ** rng.uniform(-4, 0.5))
        et = float(rng.uniform(0, 1) * k * eps)
        delta = float(10 ** rng.uniform(-30, -3)) if rng.uniform() < 0.5 else 0.0
        lp, lq = -log1p(exp(eps)), eps - log1p(exp(eps))  # log p, log (1 - p)
        full = 0.0
        for l in range(k + 1):
            if (k - 2 * l) * eps > et:
                lpmf = lgamma(k + 1) - lgamma(l + 1) - lgamma(k - l + 1) + l * lp + (k - l) * lq
                full += exp(lpmf) * -np.expm1(et - (k - 2 * l) * eps)
        lost = -np.expm1(k * np.log1p(-delta))
        want = lost + (1 - lost) * full
        assert _kov_delta_float(eps, delta, k, et) == pytest.approx(want, rel=1e-8, abs=1e-300)


def test_kov_float_window_drops_nothing():
    """The window against the same bodies summed over every l = 0..k: the terms it leaves out
    change the float sum by less than 1e-14 relative (up to k = 10^5)."""
    from maxinfo_bounds.arith import NUMPY
    from maxinfo_bounds.theorems.dp_accounting import optimal as O

    rng = np.random.default_rng(46)
    for _ in range(200):
        k = int(10 ** rng.uniform(0, 5))
        eps = float(10 ** rng.uniform(-4, 0.5))
        et = float(rng.uniform(0, 1) * k * eps)
        la, lb = O._kov_log_terms(NUMPY, eps, k, np.arange(k + 1))
        lz = O._kov_log_norm(NUMPY, eps, k)
        a, b = la - lz, lb + et - lz
        m = a > b
        full = float(np.sum(np.exp(a[m]) * -np.expm1(b[m] - a[m])))
        assert O._kov_delta_float(eps, 0.0, k, et) == pytest.approx(full, rel=1e-14, abs=0.0)


@pytest.mark.parametrize(
    ("eps", "k", "l0", "stop", "early"),
    [
        (0.01, 20000, 9216, 9728, False),
        (0.5, 3000, 0, 512, True),
        (10.0, 10**6, 0, 512, True),
        (1e-6, 10**7, 4_999_000, 4_999_300, False),
    ],
)
def test_kov_integer_runs_enclose_the_term_ratios(eps, k, l0, stop, early):
    """The fixed-point runs the KOV15 sums are made of (issue 45): each returned interval
    holds the 60-digit value of a_l1/a_l0, b_l1/b_l0 and the two relative sums over
    l0 <= j < l1 (a_l = C(k, l) E^(k-l), b_l = C(k, l) E^l, E = e^eps) and is tight to 2^-100.
    Where the b terms grow fast (eps = 0.5 from l = 0 at k = 3,000; eps = 10 at k = 10^6, by
    about 10^10 per step) the run stops early, once a ratio passes 2^1024, at a point the
    caller continues from."""
    from maxinfo_bounds.numeric import iv_prec
    from maxinfo_bounds.numeric.contexts import iv_ctx
    from maxinfo_bounds.theorems.dp_accounting.optimal import _kov_run

    prec = iv_prec(30)
    iv = iv_ctx()
    saved, iv.prec = iv.prec, prec
    try:
        E = iv.exp(iv.mpf(eps))
        l1, ra, rb, rsa, rsb = _kov_run(iv, E, k, l0, stop)
    finally:
        iv.prec = saved
    assert l0 < l1 <= stop
    assert (l1 < stop) == early
    assert (max(ra.b, rb.b) >= 2**1024) == early
    with mpmath.workdps(60):
        lb = lambda j: mpmath.log(mpmath.binomial(k, j))  # noqa: E731
        me = mpmath.mpf(eps)
        la0, lb0 = lb(l0) + (k - l0) * me, lb(l0) + l0 * me
        a = lambda j: mpmath.exp(lb(j) + (k - j) * mpmath.mpf(eps) - la0)  # noqa: E731
        b = lambda j: mpmath.exp(lb(j) + j * mpmath.mpf(eps) - lb0)  # noqa: E731
        want = [a(l1), b(l1), mpmath.fsum(a(j) for j in range(l0, l1)), mpmath.fsum(b(j) for j in range(l0, l1))]
        for got, ref in zip((ra, rb, rsa, rsb), want, strict=True):
            lo, hi = mpmath.mpf(got.a), mpmath.mpf(got.b)
            assert lo <= ref <= hi
            assert hi - lo <= ref * mpmath.mpf(2) ** -100
