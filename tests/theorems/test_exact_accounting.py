"""Gaussian DP, zCDP and the exact mixed composition against external vectors and 60-digit
references written here from the papers' statements (not from the code under test)."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import pytest

from maxinfo_bounds.numeric import InvalidParameter
from maxinfo_bounds.theorems import dp_accounting as dp

REF_DPS = 60


def _m(x: float) -> mpmath.mpf:
    f = Fraction(x)
    return mpmath.mpf(f.numerator) / f.denominator


def gdp_delta_ref(mu: float, eps: float) -> mpmath.mpf:
    """DRS22 Cor. 2.13 at 60 digits."""
    with mpmath.workdps(REF_DPS):
        m, e = _m(mu), _m(eps)
        return mpmath.ncdf(-e / m + m / 2) - mpmath.exp(e) * mpmath.ncdf(-e / m - m / 2)


def gdp_eps_ref(mu: float, delta: float) -> mpmath.mpf:
    """The root of gdp_delta = delta in eps, by bisection at 60 digits."""
    with mpmath.workdps(REF_DPS):
        m, d = _m(mu), _m(delta)
        lo, hi = mpmath.mpf(0), mpmath.mpf(100)
        for _ in range(250):
            mid = (lo + hi) / 2
            if gdp_delta_ref_mp(m, mid) > d:
                lo = mid
            else:
                hi = mid
        return hi


def gdp_delta_ref_mp(m: mpmath.mpf, e: mpmath.mpf) -> mpmath.mpf:
    return mpmath.ncdf(-e / m + m / 2) - mpmath.exp(e) * mpmath.ncdf(-e / m - m / 2)


# -- Gaussian DP ------------------------------------------------------------------------------


@pytest.mark.parametrize(("mu", "delta", "eps"), [(1.0, 1e-6, "4.8865541"), (0.1, 1e-10, "0.5746403")])
def test_gdp_epsilon_check_values(mu: float, delta: float, eps: str) -> None:
    """The issue's check values (mu = 1, delta = 1e-6: 4.8865541...; mu = 0.1, delta = 1e-10:
    0.5746403...), and the 60-digit root: never below it, within 1e-12 relative."""
    got = dp.gdp_epsilon(mu, delta)
    assert f"{got:.10f}".startswith(eps)
    ref = gdp_eps_ref(mu, delta)
    assert got >= ref and (got - ref) / ref < 1e-12
    assert gdp_delta_ref(mu, got) <= delta


@pytest.mark.parametrize(
    ("sigma", "sensitivity", "eps", "delta"),
    # dp_accounting's own test values (privacy_loss_distribution_test: hockey-stick divergence
    # of the Gaussian mechanism), 8 digits
    [(1, 1, 1, 0.12693674), (2, 2, 1, 0.12693674), (1, 3, 1, 0.78760074), (2, 6, 1, 0.78760074), (1, 1, 2, 0.02092364)],
)
def test_gdp_delta_dp_accounting_vectors(sigma: float, sensitivity: float, eps: float, delta: float) -> None:
    mu = dp.gaussian_mu(sensitivity, sigma)
    got = dp.gdp_delta(mu, eps)
    assert got == pytest.approx(delta, abs=6e-9)
    assert got >= gdp_delta_ref(mu, eps)


def test_smallest_gaussian_noise_dp_accounting_vectors() -> None:
    """dp_accounting's get_smallest_gaussian_noise: (eps = 1, delta = 0.78760074) at sensitivity
    1 is sigma = 1/3; at sensitivity 6 over 25 queries sigma = 10; (16, 1e-5): 0.344."""
    mu = dp.gdp_mu(1.0, 0.78760074)
    assert dp.gdp_sigma(1.0, mu) == pytest.approx(1 / 3, rel=1e-8)
    assert dp.gdp_sigma(6.0, mu, 25) == pytest.approx(10.0, rel=1e-8)
    assert round(dp.gdp_sigma(1.0, dp.gdp_mu(16.0, 1e-5)), 3) == 0.344
    # the largest mu: its delta at most the target, a hair more is above it
    assert gdp_delta_ref(mu, 1.0) <= 0.78760074
    assert gdp_delta_ref(mu * (1 + 1e-12), 1.0) > 0.78760074


def test_gdp_compose_exact() -> None:
    assert dp.gdp_compose([0.125] * 64) == 1.0  # 64 x (1/8)^2 = 1
    assert dp.gdp_compose({0.375: 1, 0.5: 1}) == 0.625
    got = dp.gdp_compose({0.1: 100})  # the float 0.1 is above 1/10: sqrt(100) 0.1 rounded up
    with mpmath.workdps(REF_DPS):
        assert got >= 10 * _m(0.1) and got - 10 * _m(0.1) < 2e-16
    assert dp.gdp_compose([Fraction(1, 3)] * 9) >= 1.0  # exact Fractions: 9 x 1/9 = 1
    with pytest.raises(InvalidParameter):
        dp.gdp_compose([])
    with pytest.raises(InvalidParameter):
        dp.gdp_compose([-0.1])


def test_gdp_sigma_is_the_noise_of_the_composed_guarantee() -> None:
    """sigma for k Gaussian queries at total (1, 1e-6): the k queries are then (1, 1e-6)-DP
    (checked at 60 digits from the mu they compose to), and 0.1% less noise is not."""
    mu = dp.gdp_mu(1.0, 1e-6)
    for k in (1, 10, 1000):
        sigma = dp.gdp_sigma(1e-3, mu, k)
        total = mpmath.sqrt(k) * _m(1e-3) / _m(sigma)
        assert gdp_delta_ref(float(total), 1.0) <= 1e-6 * (1 + 1e-15)
        assert gdp_delta_ref(float(total) / 0.999, 1.0) > 1e-6


# -- zCDP ---------------------------------------------------------------------------------------


def cks_ref(rho: float, delta: float) -> mpmath.mpf:
    """min over a > 1 of CKS20 Prop. 12's eps, at 60 digits (golden-section search on a)."""
    with mpmath.workdps(REF_DPS):
        r, d = _m(rho), _m(delta)

        def f(a: mpmath.mpf) -> mpmath.mpf:
            return a * r + (mpmath.log(1 / d) + (a - 1) * mpmath.log(1 - 1 / a) - mpmath.log(a)) / (a - 1)

        lo, hi = mpmath.mpf(-60), mpmath.mpf(60)  # t = log(a - 1)
        g = (mpmath.sqrt(5) - 1) / 2
        for _ in range(300):
            x1, x2 = hi - g * (hi - lo), lo + g * (hi - lo)
            if f(1 + mpmath.exp(x1)) < f(1 + mpmath.exp(x2)):
                hi = x2
            else:
                lo = x1
        return f(1 + mpmath.exp((lo + hi) / 2))


@pytest.mark.parametrize(("rho", "delta"), [(0.5, 1e-6), (1e-4, 1e-10), (2.0, 1e-3), (1e-8, 1e-12), (50.0, 0.1)])
def test_zcdp_epsilon_against_60_digits(rho: float, delta: float) -> None:
    got = dp.zcdp_epsilon(rho, delta)
    ref = cks_ref(rho, delta)
    assert got >= ref and (got - ref) / ref < 1e-9


def test_zcdp_any_order_is_valid_and_looser() -> None:
    """At a fixed order the bound is the formula's value there (5.328375 at rho = 0.5, delta =
    1e-6, a = 5, by hand: 2.5 + (ln 1e6 + 4 ln 0.8 - ln 5)/4), above the optimum 5.2215344..."""
    assert dp.zcdp_epsilon(0.5, 1e-6, a=5.0) == pytest.approx(5.32837461006833, rel=1e-13)
    assert dp.zcdp_epsilon(0.5, 1e-6) == pytest.approx(5.221534444530169, rel=1e-12)
    with pytest.raises(InvalidParameter):
        dp.zcdp_epsilon(0.5, 1e-6, a=1.0)


@pytest.mark.parametrize("eps", [1e-6, 0.01, 0.5, 1.0, 3.0, 10.0])
def test_pure_zcdp_is_sharp_and_sound(eps: float) -> None:
    """eps tanh(eps/2): at least the Renyi curve of randomized response over alpha (Steinke 2024
    Thm 4, at 50 digits on a grid of alpha), equal to its alpha -> 1 limit (the KL divergence of
    randomized response), and at most eps^2/2 (BS16)."""
    rho = dp.zcdp_pure(eps)
    with mpmath.workdps(50):
        e = _m(eps)

        def renyi_over_alpha(a: mpmath.mpf) -> mpmath.mpf:
            ea = mpmath.exp(e)
            return mpmath.log(mpmath.exp(a * e) / (ea + 1) + ea * mpmath.exp(-a * e) / (ea + 1)) / (a - 1) / a

        grid = [1 + mpmath.mpf(10) ** -j for j in range(1, 20)] + [mpmath.mpf(a) for a in np.geomspace(1.01, 1e4, 400)]
        assert max(renyi_over_alpha(a) for a in grid) <= rho
        kl = (2 * mpmath.exp(e) / (1 + mpmath.exp(e)) - 1) * e  # (2p - 1) eps
        assert rho >= kl and rho - kl <= 1e-15 * kl
        assert rho <= e * e / 2


def test_bounded_range_and_gaussian_zcdp() -> None:
    assert dp.zcdp_bounded_range(1.0) == 0.125
    assert dp.zcdp_bounded_range(0.2) >= Fraction(0.2) ** 2 / 8
    assert dp.zcdp_gaussian(1.0, 2.0) == 0.125
    assert dp.zcdp_compose([0.125, 0.5]) == 0.625


# -- the exact mixed composition ------------------------------------------------------------------


def mixed_delta_ref(steps: dict[float, int], mu: float, eps: float) -> mpmath.mpf:
    """Brute force over every sign vector (2^k terms, not grouped by count), 60 digits."""
    import itertools

    flat = [e for e, k in steps.items() for _ in range(k)]
    with mpmath.workdps(REF_DPS):
        total = mpmath.mpf(0)
        for signs in itertools.product((1, -1), repeat=len(flat)):
            w = mpmath.mpf(1)
            s = mpmath.mpf(0)
            for e, sg in zip(flat, signs):
                em = _m(e)
                w *= (mpmath.exp(em) if sg > 0 else 1) / (1 + mpmath.exp(em))
                s += sg * em
            x = _m(eps) - s
            if mu == 0:
                g = -mpmath.expm1(x) if x < 0 else mpmath.mpf(0)
            else:
                g = gdp_delta_ref_mp(_m(mu), x)
            total += w * g
        return total


@pytest.mark.parametrize(
    ("steps", "mu", "eps"),
    [({0.3: 3, 0.7: 2}, 0.0, 0.5), ({0.3: 3, 0.7: 2}, 0.8, 1.0), ({0.05: 5}, 0.3, 0.2), ({1.0: 1}, 0.0, 0.0)],
)
def test_mixed_delta_against_brute_force(steps: dict[float, int], mu: float, eps: float) -> None:
    got = dp.mixed_delta(steps, mu, eps)
    ref = mixed_delta_ref(steps, mu, eps)
    assert got >= ref and got - ref <= 1e-15 * ref + 1e-300


@pytest.mark.parametrize(
    ("steps", "mu", "eps"),
    [({0.3: 3, 0.7: 2}, 0.8, 6.0), ({0.05: 6, 0.1: 3}, 0.2, 2.0), ({0.25: 8}, 0.05, 1.0), ({0.5: 6, 1.0: 4}, 0.3, 2.0)],
)
def test_mixed_coarse_terms_stay_upper_bounds(steps: dict[float, int], mu: float, eps: float) -> None:
    """mixed_epsilon first bounds the terms far below the float sum coarsely (g_mu(x) <=
    e^{-a^2/2}/2, a = x/mu - mu/2 >= 0, else <= 1; issue 45). With every term coarse the bound
    is still at least the brute-force 60-digit delta (2^k sign vectors), and the coarse
    terms the search picks widen it by at most 1e-14 relative (the float bound's 1e-15 and the
    Chernoff bound's slack). (0.1 = 2 x 0.05 in binary: the two groups share shifts, and g_mu
    is evaluated once per shift.)"""
    import itertools

    import numpy as np

    from maxinfo_bounds.theorems.dp_accounting import mixed as mx

    groups = sorted(steps.items())
    pats = list(itertools.product(*(range(k + 1) for _, k in groups)))
    ref = mixed_delta_ref(steps, mu, eps)
    full = mx._delta_upper(groups, mu, eps, pats)
    every = mx._delta_upper(groups, mu, eps, pats, np.ones(len(pats), dtype=bool))
    assert ref <= full <= every
    logw, s, _ = mx._patterns(groups)
    chosen = mx._coarse_terms(logw, s, mu, eps)
    assert chosen is not None and 0 < chosen.sum() < len(pats)
    part = mx._delta_upper(groups, mu, eps, pats, chosen)
    assert ref <= part <= full * (1 + 1e-14)


def test_mixed_epsilon_is_certified_and_tight_with_coarse_terms() -> None:
    """The search's answers against the full sum (mixed_delta, checked against brute force
    above): certified at the returned eps, not at 1e-9 below it; two groups of commensurate
    and of unrelated eps, 1e-6 and 1e-10."""
    for steps, mu in (({0.02: 20, 0.05: 20}, 0.1414), ({0.01: 60, 0.02: 30}, 0.3), ({0.3: 40}, 1.0)):
        for dt in (1e-6, 1e-10):
            e = dp.mixed_epsilon(steps, mu, dt)
            assert dp.mixed_delta(steps, mu, e) <= dt < dp.mixed_delta(steps, mu, e * (1 - 1e-9))


def test_mixed_equals_kov_for_equal_pure_steps() -> None:
    """30 equal (1, 0)-DP steps: the exact mixed composition is KOV's optimum (within the 1e-12
    slack of its certification)."""
    for dt in (0.06, 0.1, 1e-6):
        kov = dp.optimal_composition(1.0, 0.0, 30, dt).eps
        mix = dp.mixed_epsilon({1.0: 30}, 0.0, dt)
        assert mix == pytest.approx(kov, rel=1e-10)


def test_kov_dp_accounting_vectors() -> None:
    """dp_accounting's optimal composition test: 30 steps of (1, 1e-3)-DP reach total eps 22 at
    total delta 0.06 and 20 at 0.1 (their answers are the KOV grid points (k - 2i) eps; the
    continuous optimum is at or below them)."""
    assert 21 < dp.optimal_composition(1.0, 1e-3, 30, 0.06).eps <= 22
    assert 19 < dp.optimal_composition(1.0, 1e-3, 30, 0.1).eps <= 20


def test_kov_against_dp_accounting_advanced_composition_tests() -> None:
    """The rest of dp_accounting's accountant_test.py (advanced_composition and its inverse,
    which evaluate KOV15 Thm 3.3 at its grid points (k - 2i) eps): 30 steps of (1, 0)-DP at total
    delta 0 compose to 30 (basic composition is optimal without delta); a total delta below
    1 - (1 - delta)^k is refused (theirs returns None): (1, 0.2) once at 0.1, and (1, 0.01) 30
    times at 0.26 (1 - 0.99^30 = 0.2603...); and their inverse says 50 steps of (0.25, 0)-DP
    reach (5, 0.01): our exact optimum there is at most 5 (the grid point they read; between
    grid points the continuous curve is lower, never higher)."""
    assert dp.optimal_composition(1.0, 0.0, 30, 0.0).eps == 30.0
    with pytest.raises(InvalidParameter, match="delta_total"):
        dp.optimal_composition(1.0, 0.2, 1, 0.1)
    with pytest.raises(InvalidParameter, match="delta_total"):
        dp.optimal_composition(1.0, 0.01, 30, 0.26)
    assert dp.optimal_composition(1.0, 0.01, 30, 0.2604).eps <= 30.0  # just above the floor: usable
    assert 4.5 < dp.optimal_composition(0.25, 0.0, 50, 0.01).eps <= 5.0
    # at their grid point eps_total = 5 the exact delta is below 0.01; at the next one down, 4.5, above
    assert dp.optimal_composition_delta(0.25, 0.0, 50, 5.0) <= 0.01 < dp.optimal_composition_delta(0.25, 0.0, 50, 4.5)


def test_mixed_refuses_too_many_patterns() -> None:
    with pytest.raises(InvalidParameter, match="sign-count patterns"):
        dp.mixed_epsilon({0.1 + i / 1000: 30 for i in range(5)}, 0.0, 1e-6)


def test_fraction_targets_are_compared_at_full_precision() -> None:
    """Found by the fuzz campaign: with a Fraction delta the certified check rounded its 50-digit
    bound to 53 bits before comparing, and the largest mu came out one float too high
    (0.2863414236554986 against the exact 0.28634142365549857676...)."""
    e, d = Fraction(282145, 766283), Fraction(3253, 202873)
    m = dp.gdp_mu(e, d)
    with mpmath.workdps(80):
        em, dm, mm = (mpmath.mpf(x.numerator) / x.denominator for x in (e, d, Fraction(m)))
        assert gdp_delta_ref_mp(mm, em) <= dm
    assert m == 0.28634142365549855  # the float below the root


def test_mixed_epsilon_past_the_end_of_a_pure_curve() -> None:
    """Issue 46's fuzz campaign (seed 20261126): one eps-DP step and no Gaussian part at delta =
    1.58e-30 crashed (Brent stalled: the float log delta is -inf from eps on). The exact curve of
    one eps-DP step is delta(e) = (e^eps - e^e)/(e^eps + 1) for e < eps (hand), so the answer is
    eps less about 3.2e-30: certified from above, within the search's 1e-12 steps."""
    eps, delta = 0.00013882601628414646, 1.5847366461957232e-30
    got = dp.mixed_epsilon({eps: 1}, 0.0, delta)
    with mpmath.workdps(60):
        e = mpmath.mpf(eps)
        truth = mpmath.log(mpmath.exp(e) - mpmath.mpf(delta) * (mpmath.exp(e) + 1))
        assert truth < e and mpmath.mpf(got) >= truth
    assert got <= eps * (1 + 1e-11)
    # the same point through KOV (equal pure steps): also the pure eps
    assert dp.optimal_composition(eps, 0.0, 1, delta).eps <= eps * (1 + 1e-11)


@pytest.mark.parametrize("mu", [1e-300, 2.7e-302, 3e-155, 1e-160, 5e-324])
def test_gdp_compose_below_the_floats_squares(mu):
    """Composed mu whose square underflows the floats (mu below about 1e-154): the root is still
    the smallest float whose square is at least the exact sum (checked in rationals), found next
    to the answer. (The search used to start at the smallest float and step through 2^52
    subnormals: a Gaussian step of sensitivity 1e-300 never finished planning.)"""
    import math
    from fractions import Fraction

    from maxinfo_bounds.planning import Gaussian, Study, plan
    from maxinfo_bounds.theorems.dp_accounting.gdp import gdp_compose

    r = gdp_compose({mu: 4})
    s = 4 * Fraction(mu) ** 2
    assert Fraction(r) ** 2 >= s and Fraction(math.nextafter(r, 0.0)) ** 2 < s
    if mu == 1e-300:
        st = Study(n=1000, alpha=0.05, iid=True, steps=(Gaussian(sensitivity=1e-300, eps=1e-300, delta=1e-300),))
        assert plan(st).gamma > 0


def test_zcdp_epsilon_of_a_subnormal_rho_is_zero_without_a_nan():
    """rho = 5e-324 (a pure step of eps 1e-300 is eps tanh(eps/2) <= eps^2/2 zCDP: rounded up,
    the smallest float). ln(1/delta)/rho overflowed to inf, so the order search ran on a NaN
    grid. By hand: at a = 10^13, CKS20 Prop. 12 at eps = 0 needs delta >= exp((a - 1) a rho +
    a ln(1 - 1/a))/(a - 1) <= e^(1e26 * 5e-324 - 1)/(1e13 - 1) = 3.7e-14 < 1e-12, so eps = 0."""
    with mpmath.workdps(30):
        a, rho = mpmath.mpf(10) ** 13, mpmath.mpf(5e-324)
        assert mpmath.exp((a - 1) * a * rho + a * mpmath.log1p(-1 / a)) / (a - 1) < mpmath.mpf("1e-12")
    assert dp.zcdp_epsilon(5e-324, 1e-12) == 0.0
