"""Tests written against the survivors of the theorem modules' re-measurement (issue 44, the
forty-second session: the seven theorem modules changed most since the eighth mutation round).

Every expected value here is computed independently of the code under test: 60-digit mpmath
written from the paper's formula in this file, exact rationals, or hand calculation.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from maxinfo_bounds.numeric import mp_ctx
from maxinfo_bounds.theorems.dp_accounting import (
    analytic_gaussian_sigma,
    exponential_mechanism_epsilon,
    mechanisms,
    report_noisy_max_epsilon,
)

from .reference import bw_delta

# --------------------------------------------------------------------------------------------
# dp_accounting/mechanisms.py


@pytest.mark.parametrize("monotone", [False, True])
def test_pure_mechanisms_report_delta_zero(monotone):
    """Report noisy max (Dwork & Roth Claim 3.9) and the exponential mechanism (Thm 3.10) are
    pure DP: delta is exactly 0 (a delta of 1 would make the guarantee vacuous)."""
    rnm = report_noisy_max_epsilon(1.0, 10.0, monotone=monotone)
    expm = exponential_mechanism_epsilon(1.0, 0.25, monotone=monotone)
    assert rnm.delta == 0.0 and expm.delta == 0.0


def _phi60(z):
    with mpmath.workdps(60):
        return mpmath.ncdf(mpmath.mpf(z))


@pytest.mark.parametrize("z", [-30.0, -3.0, -0.25, 0.5, 8.0, 1e99])
def test_phi_enclosure_inside_mpmaths_range_is_sound_and_tight(z):
    """Where mpmath evaluates Phi (|z| <= 10^100), the enclosure holds the 60-digit Phi(z) and
    is no wider than the documented widening 2 * 10^-40 relative (plus rounding)."""
    c = mp_ctx()
    with c.workdps(50):
        lo, hi = mechanisms._phi_enclosure(c, c.mpf(z))
    ref = _phi60(z)
    assert lo <= ref <= hi
    assert hi - lo <= ref * mpmath.mpf("2.01e-40")


@pytest.mark.parametrize("x", [1e101, 3e120, 1e150])
def test_phi_enclosure_gaussian_tail_beyond_mpmath(x):
    """Beyond 10^100 the tail bound Phi(-x) <= e^(-x^2/2)/2: sound against the asymptotic
    ln Phi(-x) = -x^2/2 - ln(x sqrt(2 pi)) + ln(1 - 1/x^2 + ...) (the upper end is at least
    Phi(-x)), and no looser than the bound itself (its log at most -x^2/2 to 40 digits);
    the mirror image for +x: [1 - e^(-x^2/2)/2, 1]."""
    c = mp_ctx()
    with c.workdps(50):
        lo, hi = mechanisms._phi_enclosure(c, c.mpf(-x))
        assert lo == 0 and hi > 0
        half_sq = c.mpf(x) ** 2 / 2
        log_true = -half_sq - c.log(c.mpf(x) * c.sqrt(2 * c.pi))
        log_hi = c.log(hi)
        assert log_hi >= log_true * (1 + c.mpf(10) ** -40)  # sound (log_true < 0)
        assert log_hi <= -half_sq * (1 - c.mpf(10) ** -40)  # the bound, not a looser one
        lo2, hi2 = mechanisms._phi_enclosure(c, c.mpf(x))
        assert hi2 == 1 and lo2 <= 1 and 1 - lo2 <= hi * (1 + c.mpf(10) ** -40)


def _bw_sigma60(s, eps, delta):
    """The Balle-Wang Thm 8 sigma at 60 digits: the root of delta(sigma) = delta (decreasing in
    sigma; the delta written from the theorem in tests/theorems/reference.py), bisected in log
    sigma."""
    with mpmath.workdps(60):
        d = mpmath.mpf(delta)
        lo, hi = mpmath.mpf(10) ** -30, mpmath.mpf(10) ** 30
        for _ in range(400):
            mid = mpmath.sqrt(lo * hi)
            lo, hi = (mid, hi) if bw_delta(s, mid, eps, dps=60) > d else (lo, mid)
        return hi


@pytest.mark.parametrize(
    "s, eps, delta",
    [
        (1.0, 1e9, 0.5),  # the lower bracket must be extended (sigma below s e^-10)
        (1.0, 1e-3, 1e-10),  # the upper bracket extended four times
        (2.0, 3e8, 0.25),
    ],
)
def test_analytic_gaussian_sigma_brackets_extended(s, eps, delta):
    """The smallest float sigma whose certified delta is at most delta, at inputs where the
    float search has to widen its bracket: at or above the 60-digit root, within 1e-12."""
    got = analytic_gaussian_sigma(s, eps, delta)
    ref = _bw_sigma60(s, eps, delta)
    assert got >= ref
    assert got <= ref * (1 + mpmath.mpf(10) ** -12)


# --------------------------------------------------------------------------------------------
# maxinfo_dp/approx.py: the implied-guarantee surrogate


IMPLIED_CASES = [
    (0.001, 1e-20, 10**4, 0.05),
    (0.01, 1e-14, 10**4, 0.02),  # the best eps' lies above eps
    (2.7392094149917024e-05, 1e-24, 10**6, 0.01),
    (0.2, 1e-12, 200, 0.3),
    (0.05, 1e-9, 100, 0.5),
    (0.3, 0.01, 1, 0.9),
    (0.0, 1e-20, 10**4, 0.5),
]


@pytest.mark.parametrize("eps, delta, n, beta", IMPLIED_CASES)
def test_thm31_implied_surrogate_returns_a_certifiable_point_it_prices_right(eps, delta, n, beta):
    """The surrogate's (k, eps', t, delta_hat) is a point inside RRST Thm 3.1 (sound) with
    eps <= eps' <= 1/2 and delta < eps': the certified evaluator accepts it, its certified beta
    meets the target (to the float search's 1e-8), and its certified k equals the surrogate's
    k to below it by no more than the surrogate's upward margin (2^-44 relative) and rounding."""
    from maxinfo_bounds.theorems.maxinfo_dp import approx_dp_max_information
    from maxinfo_bounds.theorems.maxinfo_dp.approx import thm31_implied_float_k

    k, e2, t, dh = thm31_implied_float_k(eps, delta, n, beta)
    assert math.isfinite(k)
    assert eps <= e2 <= 0.5 and delta < e2 and t > 0 and 0 < dh < 1
    b = approx_dp_max_information(e2, delta, n, t=t, delta_hat=dh)
    assert b.beta <= beta * (1 + 1e-8)
    assert k * (1 - 1e-12) <= b.k <= k


def test_thm31_paper_point_is_capped_at_the_exact_eps_over_15():
    """eps = 3/13 given exactly and delta the largest float below it: the float eps/15 lies one
    ulp above the exact 3/195, so the paper's delta_hat must be capped with the exact eps (the
    float's cap would put it outside Lemma 3.7's delta_hat <= eps/15 and refuse the theorem
    inside its own regime). The Bound also names its variant."""
    from fractions import Fraction

    from maxinfo_bounds.theorems.maxinfo_dp import approx_dp_max_information

    e = Fraction(3, 13)
    d = math.nextafter(float(e), 0.0)
    while Fraction(d) >= e:
        d = math.nextafter(d, 0.0)
    b = approx_dp_max_information(e, d, 100, variant="paper")
    dh = next(c for c in b.conditions if c.startswith("delta_hat = "))
    assert Fraction(float(dh.removeprefix("delta_hat = "))) <= e / 15
    assert b.in_regime and b.variant == "paper"
    assert approx_dp_max_information(0.1, 1e-14, 1000).variant == "sound"


# --------------------------------------------------------------------------------------------
# mutual_info.py


def _mi_root60(m, k):
    """RRST Lemma 1.5 (first part)'s exact beta: the root of k b + (1 - b) log2(1 - b) = m in
    (0, 1), bisected at 60 digits (the left side increases in b for k > log2 e ... and is
    bracketed by b = m/k, where it is at most m, and b -> 1)."""
    with mpmath.workdps(60):
        m, k = mpmath.mpf(m), mpmath.mpf(k)

        def f(b):
            return k * b + (1 - b) * mpmath.log1p(-b) / mpmath.log(2) - m  # log1p: b may be 1e-300

        lo, hi = m / k, mpmath.mpf(1) - mpmath.mpf(10) ** -50
        for _ in range(600):  # geometric steps when lo > 0 (a root near 1e-300 is found too)
            mid = mpmath.sqrt(lo * hi) if lo > 0 else (lo + hi) / 2
            lo, hi = (mid, hi) if f(mid) < 0 else (lo, mid)
        return hi


def test_mi_to_approx_max_information_arrays_keep_each_variant():
    """On arrays the paper variant is the closed form (m + 0.54)/k and the exact one the root of
    the proof's inequality, entry by entry: (1 + 0.54)/10 = 0.154 and (2 + 0.54)/20 = 0.127 by
    hand; the roots at 60 digits (0.1156... for m = 1, k = 10, as in the docstring)."""
    from maxinfo_bounds.theorems.mutual_info import mi_to_approx_max_information

    m, k = np.array([1.0, 2.0]), np.array([10.0, 20.0])
    paper = mi_to_approx_max_information(m, k, variant="paper")
    exact = mi_to_approx_max_information(m, k)
    for got, want in zip(paper, (0.154, 0.127)):
        assert want <= got <= want * (1 + 1e-12)
    for got, (mm, kk) in zip(exact, ((1, 10), (2, 20))):
        ref = _mi_root60(mm, kk)
        assert ref <= got <= ref * (1 + mpmath.mpf(10) ** -12)
    assert 0.1156 < exact[0] < 0.1157 and exact[0] < paper[0]


@pytest.mark.parametrize(
    "m, k",
    [
        (1.0, 10.0),
        (1e-10, 5.0),
        (0.5, 1.0),
        (0.0, 1.2),
        (2.9, 3.0),
        (1e-300, 2.0),
        (100.0, 100.5),
        (0.3, 1.4),
        (1.0, 1e14),  # the root within 1.5e-14 of m/k: the bracket's ends must not cross it
    ],
)
def test_mi_beta_float_and_exact_against_the_60_digit_root(m, k):
    """The optimisers' float root within 1e-13 (relative; 2e-300 absolute) of the 60-digit root, in every regime
    of its bracket (k above and below log2 e, m tiny, m near k, k huge), and the certified root
    at or above it, within 1e-12."""
    from maxinfo_bounds.theorems.mutual_info import mi_beta_exact, mi_beta_float

    ref = _mi_root60(m, k)
    got = mi_beta_float(m, k)
    # (brentq's absolute tolerance stops at 1e-300, the documented floor for subnormal scales)
    assert abs(got - ref) <= max(ref * mpmath.mpf(10) ** -13, mpmath.mpf(2e-300)), (got, ref)
    cert = mi_beta_exact(m, k)
    assert ref <= cert <= ref * (1 + mpmath.mpf(10) ** -12)


def test_mi_beta_float_closed_cases_by_hand():
    """m >= k: no constraint (beta = 1); m = 0 with k >= log2 e: f_k is non-decreasing from
    f_k(0) = 0, so beta = 0 exactly; m = 0 with k = 1, below log2 e: the root 1/2."""
    from maxinfo_bounds.theorems.mutual_info import mi_beta_exact, mi_beta_float

    assert mi_beta_float(3.0, 3.0) == mi_beta_float(4.0, 3.0) == 1.0
    assert mi_beta_exact(3.0, 3.0) == 1.0
    assert mi_beta_float(0.0, 1.5) == 0.0 == mi_beta_exact(0.0, 1.5)
    # m = 0, k = 1: b + (1 - b) log2(1 - b) = 0 at b = 1/2 exactly (1/2 + (1/2)(-1) = 0)
    assert mi_beta_float(0.0, 1.0) == 0.5
    assert 0.5 <= mi_beta_exact(0.0, 1.0) <= 0.5 * (1 + 2**-50)


def test_thm31_array_certifies_each_delicate_entry_after_one_outside():
    """The array path sends entries at the paper's delta_hat edge (eps/15) to the certified
    scalar path; with strict=False an entry there outside the regime (delta >= eps) keeps the
    formula's value and the next delicate entry is still certified: equal to the scalar call."""
    from fractions import Fraction

    from maxinfo_bounds.numeric import float_down
    from maxinfo_bounds.theorems.maxinfo_dp import approx_dp_max_information

    edge = float_down(Fraction(0.1) / 15)  # the float at or below eps/15
    k, b = approx_dp_max_information(
        np.array([0.1, 0.1]),
        np.array([0.2, 1e-12]),
        10,
        t=np.array([1.0, 2.0]),
        delta_hat=np.array([edge, edge]),
        variant="paper",
        strict=False,
    )
    one = approx_dp_max_information(0.1, 1e-12, 10, t=2.0, delta_hat=edge, variant="paper")
    assert (k[1], b[1]) == (one.k, one.beta)
    assert b[0] == 1.0  # outside (delta >= eps): n delta' alone exceeds 1, capped


def test_thm31_array_strict_false_returns_entries_outside_the_regime():
    """strict=False: an entry with eps = 0.6 (> 1/2, no delicate test involved) is returned, not
    refused; strict=True refuses it naming the entry. The entry inside is the paper's point:
    t = eps sqrt(2n), delta_hat = sqrt(eps delta)/15, equal to the scalar call within the
    array path's margin."""
    from maxinfo_bounds.numeric import RegimeError
    from maxinfo_bounds.theorems.maxinfo_dp import approx_dp_max_information

    e, d = np.array([0.1, 0.6]), np.array([1e-8, 1e-8])
    k, b = approx_dp_max_information(e, d, 10, strict=False)
    one = approx_dp_max_information(0.1, 1e-8, 10)
    assert one.k <= k[0] <= one.k * (1 + 2**-40) and one.beta <= b[0] <= one.beta * (1 + 2**-40)
    assert math.isfinite(k[1]) and 0 < b[1] <= 1
    with pytest.raises(RegimeError, match=r"eps\[1\]=0\.6"):
        approx_dp_max_information(e, d, 10)


# --------------------------------------------------------------------------------------------
# generalization.py


def test_pvalue_sensitivity_lower_bound_arrays_keep_the_variant():
    """RRST Lemma B.1 on an array of n: the paper's 0.37/sqrt(n) (0.37, 0.185, 0.037 by hand)
    and the optimal constant 0.3738098348731952617... (60-digit maximum of
    (1/2 - d)/sqrt(ln(1/d)/2), at d = 0.0839682203973630...), each rounded down."""
    from maxinfo_bounds.theorems.generalization import pvalue_sensitivity_lower_bound

    n = np.array([1, 4, 100])
    paper = pvalue_sensitivity_lower_bound(n, variant="paper")
    best = pvalue_sensitivity_lower_bound(n)
    for got, want in zip(paper, (0.37, 0.185, 0.037)):
        assert want * (1 - 1e-12) <= got <= want
    c = mpmath.mpf("0.373809834873195261751311227846115325084542828806770731836617")
    for got, nn in zip(best, n):
        assert c / mpmath.sqrt(nn) * (1 - mpmath.mpf(10) ** -12) <= got <= c / mpmath.sqrt(nn)


# --------------------------------------------------------------------------------------------
# holdout.py


def test_thresholdout_max_information_does_not_assume_iid_data():
    """Thresholdout's transcript bound assumes nothing about the data by default (iid=False):
    a target beta, a parameter of the i.i.d. bounds only, is then refused; with iid=True it is
    accepted. (Pure DP, delta = 0: RRST Thm 1.4 (first part), beta = 0.)"""
    from maxinfo_bounds.numeric import InvalidParameter
    from maxinfo_bounds.theorems.holdout import Thresholdout

    rng = np.random.default_rng(1)
    t = Thresholdout(rng.random((100, 3)), rng.random((10_000, 3)), threshold=0.04, sigma=0.01, budget=100, rng=rng)
    with pytest.raises(InvalidParameter, match="must be omitted unless iid=True"):
        t.max_information(beta=0.01)
    b = t.max_information(beta=0.01, iid=True)
    assert b.beta <= 0.01 and b.k == t.max_information().k
    assert t.max_information().product_only is False


@pytest.mark.parametrize(
    "s, sigma, eps",
    [(1.0, 1.0, 0.5), (1.0, 1.0, 0.0), (2.0, 0.5, 3.0), (1.0, 20.0, 1e-3), (1.0, 1 / 600, 190_000.0)],
)
def test_ag_log_delta_surrogate_against_60_digits(s, sigma, eps):
    """The float surrogate of log delta (Balle-Wang Thm 8) that steers the sigma and eps
    searches: within 1e-9 (absolute, in log) of the 60-digit value, including s = sigma, several
    quadrature pieces (s/sigma = 4) and the two-log branch beyond 256 pieces (s/sigma = 600,
    log delta = -142.65230449836...)."""
    got = mechanisms._ag_log_delta(s, sigma, eps)
    assert abs(got - mpmath.log(bw_delta(s, sigma, eps, dps=60))) < 1e-9


@pytest.mark.parametrize(
    "s, sigma, eps",
    [
        (1.0, 1000.0, 1e9),
        (1.0, 100.0, 1e6),
        (1.0, 10.0, 1e4),
        (1.0, 1.0, 0.5),
        (1.0, 1e20, 1e-3),  # |z| = eps sigma/s = 1e17 at a small eps, delta 1e-37 of the terms
        (1e-10, 1e10, 1e-3),  # the same z with s != 1 (eps sigma s in the rule: 1e-3)
        (1.0, 1e-75, 1e150),  # the rule's 202 digits: eps >= 1e101 with |z| = 1.5e75 <= 1e100
    ],
)
def test_ag_delta_enclosure_holds_the_250_digit_delta_at_large_arguments(s, sigma, eps):
    """Balle-Wang's delta enclosed on both ends (the lower end is read by the planner's refuters
    and the mixed stages): at |z| = 1e12 the 50-digit evaluation alone put the true delta
    1.3e-12 (relative) above the enclosure, since Phi(z)'s relative error grows like z^2 u;
    the working precision now rises with the arguments. Reference: 250 digits, from the theorem.
    The last three points (forty-fourth session) are where the rule's terms are needed although
    the digits added for cancelling terms are in play: without eps sigma/s in it, or without
    the 202 digits past 1e101, the enclosure misses delta (its upper end was negative at
    sigma = 1e20)."""
    lo, hi = mechanisms._ag_delta_bounds(s, sigma, eps)
    d = bw_delta(s, sigma, eps, dps=250)
    with mpmath.workdps(250):
        assert lo <= d <= hi
        assert hi - lo <= d * mpmath.mpf(10) ** -20


@pytest.mark.parametrize("s, eps", [(1e300, 1.0), (1e120, 1e-3)])
def test_ag_delta_enclosure_beyond_mpmaths_phi_near_one(s, eps):
    """sigma = 1 and s = 1e300 or 1e120: a = s/2 - eps/s lies beyond 10^100, where each Phi is
    enclosed by the Gaussian tail bound. By hand: Phi(a) and 1 - e^eps Phi(b) are both within
    e^(-a^2/2) < 10^-(10^199) of 1, so 1 - 10^-1000 < delta < 1: the enclosure's lower end below
    1, its upper end above 1 - 10^-1000, and no wider than 10^-35. (Its lower end as
    l1 - e^eps h2 + err, above 1, its upper end less err, below delta, and e^eps / h2 in place of
    e^eps h2, a lower end near -10^(10^199), all survived.)"""
    lo, hi = mechanisms._ag_delta_bounds(s, 1.0, eps)
    with mpmath.workdps(1100):
        assert lo < 1 and hi > 1 - mpmath.mpf(10) ** -1000
        assert hi - lo <= mpmath.mpf(10) ** -35


def test_ag_log_delta_surrogate_beyond_the_floats_is_below_every_float():
    """mu = s/sigma underflowing to 0, or eps sigma/s overflowing: delta is below every float,
    and the surrogate says so (log delta = -745, the log of the smallest subnormal)."""
    assert mechanisms._ag_log_delta(5e-324, 1e308, 1.0) == -745.0  # h = 0
    assert mechanisms._ag_log_delta(1e-10, 1e10, 1e308) == -745.0  # eps sigma/s = inf


def test_at_most_compares_exactly():
    """``x <= y`` read exactly: equality counts (a certified delta equal to the budget meets
    it), for a Fraction budget and for a float one, and a float x is read as the mpf it is."""
    from fractions import Fraction

    c = mp_ctx()
    with c.workdps(50):
        quarter = c.mpf(1) / 4
        assert mechanisms._at_most(quarter, Fraction(1, 4)) and mechanisms._at_most(quarter, 0.25)
        assert not mechanisms._at_most(quarter, Fraction(1, 4) - Fraction(1, 10**60))
        assert mechanisms._at_most(0.25, Fraction(1, 4)) and not mechanisms._at_most(0.5, Fraction(1, 4))


def test_implied_guarantee_at_the_regime_end():
    """eps = 1/2 is inside RRST Thm 3.1 (eps <= 1/2): the implied-guarantee search has the one
    column eps' = 1/2 to search and must find the theorem's own bound there (a `>=` at the
    surrogate's first guard returned no point); one float above 1/2 no eps' exists and the
    target is refused, naming beta and the empty range."""
    import maxinfo_bounds as mb
    from maxinfo_bounds.theorems.maxinfo_dp.approx import approx_dp_max_information_implied

    direct = mb.approx_dp_max_information(0.5, 1e-12, 100, beta=0.01)
    implied = approx_dp_max_information_implied(0.5, 1e-12, 100, 0.01)
    assert math.isfinite(implied.k) and implied.k == pytest.approx(direct.k, rel=1e-9)
    above = math.nextafter(0.5, 1.0)
    with pytest.raises(
        ValueError,
        match=r"^beta=0.01 is invalid: must be reachable by RRST Thm 3.1 at some eps' in \[0.5000000000000001, 1/2\]",
    ):
        approx_dp_max_information_implied(above, 1e-12, 100, 0.01)


def test_analytic_gaussian_sigma_at_the_ends_of_the_floats():
    """The steer runs at unit sensitivity (delta depends on s/sigma only) and the certificate
    reads the exact inputs, so a sensitivity whose sigma is near the largest double, or an eps
    or sensitivity given as an integer past the floats, is answered: the smallest float sigma
    whose 250-digit Balle-Wang delta is at most the target (the float below fails it). Where
    even the largest double fails, the refusal names the sensitivity. All of these raised
    OverflowError (the bracket's exp(log(s) + 1), float(eps), the enclosure's float(s))."""
    from maxinfo_bounds.theorems.dp_accounting.mechanisms import analytic_gaussian_sigma

    top = 1.7976931348623157e308
    for s, eps, delta in [(2.5e307, 0.5, 1e-5), (10**400, 1e300, 1e-5), (1.0, top, 1e-5)]:
        sigma = analytic_gaussian_sigma(s, eps, delta)
        assert bw_delta(s, sigma, eps, 250) <= delta < bw_delta(s, math.nextafter(sigma, 0.0), eps, 250), s
    assert bw_delta(2.6e307, top, 0.5, 250) > 1e-5  # no float sigma is enough
    for s in (2.6e307, 10**400):
        with pytest.raises(ValueError) as exc:
            analytic_gaussian_sigma(s, 0.5, 1e-5)
        shown = repr(s) if len(repr(s)) <= 80 else repr(s)[:77] + "..."
        assert str(exc.value) == f"sensitivity={shown} is invalid: must be a sensitivity whose sigma is a finite float"


@pytest.mark.parametrize(
    "s, eps, delta, old",
    [
        (1.0, 1e-45, 1e-50, "6.47e45, 1.8 times the root"),
        (1.0, 1e-200, 1e-300, "3.45e201, 1.6 times the root"),
        (5e-324, 5e-324, 5e-324, "36.0, 130 times the root"),
        (1.0, 5e-324, 2.2250738585072014e-308, "inf"),
        (1e-300, 5e-324, 1e-5, "3.99e-296, already tight"),
    ],
)
def test_analytic_gaussian_sigma_where_the_two_terms_cancel(s, eps, delta, old):
    """At a tiny eps, e^eps ~ 1 and Balle-Wang's two terms Phi(a) and e^eps Phi(b) agree to
    many more digits than delta has: the enclosure's width of 10^-40 of the terms was wider than
    delta, so the certified check failed well above the root (the answer ``old``, sound but loose)
    or at every float (inf returned). The precision now rises until delta is resolved: the
    smallest float whose 800-digit delta is at most the target, the float below failing it."""
    sigma = analytic_gaussian_sigma(s, eps, delta)
    assert math.isfinite(sigma), old
    assert bw_delta(s, sigma, eps, 800) <= delta < bw_delta(s, math.nextafter(sigma, 0.0), eps, 800), old


def test_gaussian_delta_where_the_two_terms_cancel():
    """gaussian_delta rounds the enclosure's upper end up: at eps = 1e-45 and sigma = 3.6e45
    (terms near 1/2, delta 1e-50) within 2 ulps above the 800-digit delta; it returned 2.96e-44
    there, and 1e-40 for a delta of 4e-101 (the enclosure's width, not delta)."""
    from maxinfo_bounds.theorems.dp_accounting import gaussian_delta

    for sigma, s, eps in [(3.6190374487441344e45, 1.0, 1e-45), (1e100, 1.0, 1e-120)]:
        got, ref = gaussian_delta(sigma, s, eps), bw_delta(s, sigma, eps, 800)
        assert ref <= got <= ref * (1 + 2 * 2.0**-52)


@pytest.mark.parametrize(
    "eps, delta, want",
    [
        (5e-324, 5e-324, 1.5e-323),  # refused, naming "sensitivity=1.0"
        (5e-324, 2.2250738585072014e-308, None),  # OverflowError (sigma at unit sensitivity was inf)
    ],
)
def test_gdp_mu_below_one_over_the_largest_double(eps, delta, want):
    """gdp_mu steered mu = 1/sigma at unit sensitivity, whose sigma is past the floats when eps
    and delta are both tiny; mu itself is a subnormal. Now: the largest float mu whose
    800-digit delta (a mu-GDP curve is Balle-Wang's at s = mu, sigma = 1) is at most the
    target, the next float above failing it."""
    from maxinfo_bounds.theorems.dp_accounting import gdp_mu

    mu = gdp_mu(eps, delta)
    assert bw_delta(mu, 1, eps, 800) <= delta < bw_delta(math.nextafter(mu, 1.0), 1, eps, 800)
    if want is not None:
        assert mu == want


def test_analytic_gaussian_sigma_below_the_smallest_double():
    """A tiny sensitivity at a large eps: the steer s * sigma(1) underflowed to 0.0 and the
    check divided by it (ZeroDivisionError). sigma = 0 adds no noise, so the answer is the
    smallest positive double when the true sigma lies below it (here 1e-320 times the 60-digit
    unit-sensitivity root 2.236e-5), and its delta at 250 digits is within the target; at
    s = 1e-310 the answer is a subnormal tight to one float."""
    assert _bw_sigma60(1.0, 1e9, 0.5) * mpmath.mpf(1e-320) < 5e-324
    assert analytic_gaussian_sigma(1e-320, 1e9, 0.5) == 5e-324
    assert bw_delta(1e-320, 5e-324, 1e9, 250) <= 0.5
    sigma = analytic_gaussian_sigma(1e-310, 1e9, 0.5)
    assert bw_delta(1e-310, sigma, 1e9, 250) <= 0.5 < bw_delta(1e-310, math.nextafter(sigma, 0.0), 1e9, 250)


@pytest.mark.parametrize(
    "s, eps, delta",
    [(1.822564987367569e307, 0.5, 1e-8), (3.5246750927269563e307, 1.0, 1e-8), (5.846239023817762e306, 0.1, 1e-5)],
)
def test_analytic_gaussian_sigma_steered_past_the_largest_double(s, eps, delta):
    """Sensitivities whose float steer s * sigma(1) lands at or above the largest double while
    the largest double itself passes the check (found by search; the second's answer is the
    largest double): the start is read as the largest double, not float() of the steer (which
    raised OverflowError). The answer: the smallest float whose 250-digit delta is at most the
    target, the float below failing it."""
    sigma = analytic_gaussian_sigma(s, eps, delta)
    assert bw_delta(s, sigma, eps, 250) <= delta < bw_delta(s, math.nextafter(sigma, 0.0), eps, 250)


def test_thm31_refuses_an_eps_past_the_floats():
    """RRST Thm 3.1 needs eps <= 1/2: an integer eps past the floats is refused as any eps
    above 1/2 is (it raised OverflowError while steering and deciding the regime), and with
    strict=False the vacuous bound (k = inf, beta = 1) comes back."""
    import maxinfo_bounds as mb
    from maxinfo_bounds.numeric import RegimeError

    with pytest.raises(RegimeError, match=r"^RRST Thm 3.1 does not apply: it requires eps in \(0, 1/2\], got eps="):
        mb.approx_dp_max_information(10**400, 1e-9, 100)
    b = mb.approx_dp_max_information(10**400, 1e-9, 100, strict=False)
    assert b.k == math.inf and b.beta == 1.0


# Exact arguments past the floats (forty-fifth session: a probe of every public function of
# mechanisms.py at Fractions 10^-400 and 10^400 found a ZeroDivisionError in four of them and,
# in analytic_gaussian_sigma at delta = 1/3, a 24 GB allocation the machine killed).
_TINY_F = Fraction(1, 10**400)


def test_gaussian_mechanism_at_a_sensitivity_below_the_floats():
    """s = 10^-400 at sigma = 1 (mu = 1e-400): delta(0) = 2 Phi(mu/2) - 1 < mu / sqrt(2 pi)
    = 4e-401 is below every double yet positive, so gaussian_delta at eps = 1/2 (smaller still,
    and positive: both Phi terms are Gaussian tails) rounds up to the smallest double, and
    gaussian_epsilon at delta = 1e-5 is 0. Both divided s/sigma in floats (ZeroDivisionError)."""
    from maxinfo_bounds.theorems.dp_accounting import gaussian_delta, gaussian_epsilon

    with mpmath.workdps(30):  # 2 Phi(x) - 1 = erf(x / sqrt 2)
        assert mpmath.erf(mpmath.mpf(10) ** -400 / (2 * mpmath.sqrt(2))) < mpmath.mpf("4e-401")
    assert gaussian_delta(1.0, _TINY_F, 0.5) == 5e-324
    assert gaussian_epsilon(1.0, _TINY_F, 1e-5) == 0.0


def test_gaussian_delta_at_a_sigma_below_the_floats():
    """sigma = 10^-400 at s = 1 (mu = 1e400): delta = Phi(5e399 - ...) - e^(1/2) Phi(-5e399 - ...)
    is 1 less a tail below 10^(-10^799), so the upper end rounds to 1.0."""
    from maxinfo_bounds.theorems.dp_accounting import gaussian_delta

    assert gaussian_delta(_TINY_F, 1.0, 0.5) == 1.0


def test_gaussian_epsilon_reads_the_ratio_exactly():
    """s = 10^-401, sigma = 10^-400: both are 0.0 as floats, mu = 1/10 exactly. The answer is
    the smallest float eps whose 250-digit delta at mu = 1/10 is at most 1e-5 (the float below
    failing it); and sigma = 10^-400 at s = 1 is refused naming sigma, with its ratio 1e-400 and
    the eps it would need, mu^2/2 = 5e799 (it divided by float(sigma) = 0)."""
    from maxinfo_bounds.numeric import InvalidParameter
    from maxinfo_bounds.theorems.dp_accounting import gaussian_epsilon

    s, sg = Fraction(1, 10**401), _TINY_F
    eps = gaussian_epsilon(sg, s, 1e-5)
    assert bw_delta(1, 10, eps, 250) <= 1e-5 < bw_delta(1, 10, math.nextafter(eps, 0.0), 250)
    with pytest.raises(
        InvalidParameter,
        match=r"^sigma=Fraction\(1, 1000.*sensitivity = 1\.0e-400; eps would be about 5\.0e\+799 nats\)$",
    ):
        gaussian_epsilon(_TINY_F, 1.0, 1e-5)


def test_gaussian_epsilon_refusal_prints_three_digits():
    """sigma = 3e-9 at s = 7: by hand sigma/s = 4.2857e-10 and mu^2/2 = (7/3e-9)^2/2 = 2.7222e18,
    printed to 3 digits (with 4 digits, or mpmath's default 6, the message survived the
    round values 1e-9, 1e-160 and 1e-400 of the other refusal tests)."""
    from maxinfo_bounds.numeric import InvalidParameter
    from maxinfo_bounds.theorems.dp_accounting import gaussian_epsilon

    with pytest.raises(InvalidParameter, match=r"sigma/sensitivity = 4\.29e-10; eps would be about 2\.72e\+18 nats\)$"):
        gaussian_epsilon(3e-9, 7.0, 1e-5)


@pytest.mark.parametrize("mu", [70, 100, 9_999_999])
def test_gaussian_epsilon_below_the_refusal_at_mu_1e7(mu):
    """mu = s/sigma up to 1e7 is answered, not refused (eps near mu^2/2 = 2450, 5000 and 5e13,
    the last past 1e12 and so refused by the search, naming sigma): the smallest float eps whose
    250-digit delta is at most 1e-5, the float below failing it. (The refusal's threshold read
    as 10 * 7 = 70 survived every test.)"""
    from maxinfo_bounds.numeric import InvalidParameter
    from maxinfo_bounds.theorems.dp_accounting import gaussian_epsilon

    if mu > 10**6:
        with pytest.raises(InvalidParameter, match=r"^sigma=1\.0 is invalid: .*eps would be about 5\.0e\+13 nats\)$"):
            gaussian_epsilon(1.0, float(mu), 1e-5)
        return
    eps = gaussian_epsilon(1.0, float(mu), 1e-5)
    assert bw_delta(mu, 1, eps, 250) <= 1e-5 < bw_delta(mu, 1, math.nextafter(eps, 0.0), 250)


@pytest.mark.parametrize("eps, delta", [(1.0, 1e-5), (1.0, Fraction(1, 3)), (1e9, 0.5)])
def test_analytic_gaussian_sigma_at_a_sensitivity_below_the_floats(eps, delta):
    """s = 10^-400: the true sigma is s times the unit-sensitivity sigma (at most 4, the
    60-digit root), far below the smallest double, so the answer is the smallest double.
    Its delta is below 10^(-10^150): at delta = 1/3 the exact comparison wrote 2^-(1.8e159) out
    as a Fraction (24 GB, killed); at 1e-5 it divided by float(s) = 0."""
    assert _bw_sigma60(1.0, eps, float(delta)) < 4
    assert analytic_gaussian_sigma(_TINY_F, eps, delta) == 5e-324


def test_at_most_is_the_exact_comparison():
    """mechanisms._at_most(x, y) is x <= y for an mpf x and a Fraction y, exactly: held against
    the product man * 2^exp written out, at 20,000 random pairs of both signs (ties included),
    and decided from binary orders where writing 2^exp out is impossible. (It read a negative
    x as |x|, mpf.man_exp being unsigned: never a false pass, since the enclosure's upper end
    compared is at least delta >= 0.)"""
    import random

    rng = random.Random(20261202)
    for _ in range(20_000):
        man, exp = rng.choice([-1, 1]) * rng.randint(0, 2 ** rng.randint(1, 52)), rng.randint(-80, 80)
        x, xf = mpmath.ldexp(mpmath.mpf(man), exp), Fraction(man) * Fraction(2) ** exp  # (exact: man < 2^53)
        y = xf if rng.random() < 0.1 else Fraction(rng.choice([-1, 1]) * rng.randint(0, 2**40), rng.randint(1, 2**40))
        assert mechanisms._at_most(x, y) == (xf <= y)
    # the sign cases one by one: zero, one and minus one against powers of two (mantissa 1),
    # odd mantissas and zero, both signs (a random y is almost never 0 or 1)
    for man, exp in [(1, 0), (1, 3), (1, -3), (3, 0), (3, -1), (5, 4), (0, 0)]:
        for sx in (1, -1):
            x, xf = mpmath.ldexp(mpmath.mpf(sx * man), exp), Fraction(sx * man) * Fraction(2) ** exp
            for y in (Fraction(0), Fraction(1), Fraction(-1), Fraction(1, 2), Fraction(-3, 2), Fraction(8)):
                assert mechanisms._at_most(x, y) == (xf <= y), (x, y)
    huge = mpmath.mpf(mpmath.mpf(2) ** (-(10**160)))
    assert mechanisms._at_most(huge, _TINY_F) and not mechanisms._at_most(-huge, -_TINY_F)
    assert not mechanisms._at_most(1 / huge, Fraction(10**400)) and mechanisms._at_most(-1 / huge, -Fraction(10**400))
