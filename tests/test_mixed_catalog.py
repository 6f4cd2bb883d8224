"""The exact mixed composition's catalog entry (``MIX-exact``, ``theorems/dp_accounting/mixed.py``)
evaluated through the catalog, and its printed sympy statement, against the privacy-loss
expectation integrated at 40 digits: k randomized responses of eps (the dominating pair of an
eps-DP step, KOV15 Thm 3.3) and a Gaussian privacy loss N(mu^2/2, mu^2) (mu-GDP, DRS22 Cor. 3.3):
delta(eps_tot) = E[(1 - e^(eps_tot - L))_+], L = (k - 2m) eps + G, m ~ Bin(k, 1/(1 + e^eps)).
(A mutation run of the module found the entry reached by no test in-process and its statement
unread.)
"""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
import sympy

from maxinfo_bounds.catalog import get
from maxinfo_bounds.numeric import InvalidParameter
from maxinfo_bounds.theorems.dp_accounting.mixed import (
    MAX_PATTERNS,
    _delta_upper,
    mixed_delta,
    mixed_epsilon,
    mixed_epsilon_estimate,
    pattern_count,
)


def _delta_40(eps: str, k: int, mu: str, eps_tot: mpmath.mpf) -> mpmath.mpf:
    """E[(1 - e^(eps_tot - L))_+] by quadrature over the Gaussian part, 40 digits (no closed
    form of the Gaussian term used)."""
    with mpmath.workdps(40):
        e, m_, et = mpmath.mpf(eps), mpmath.mpf(mu), mpmath.mpf(eps_tot)
        p = mpmath.exp(e) / (1 + mpmath.exp(e))
        total = mpmath.mpf(0)
        for m in range(k + 1):
            s = (k - 2 * m) * e
            lo = et - s  # the integrand is 0 where s + g <= eps_tot

            def f(g, s=s):
                dens = mpmath.npdf(g, m_**2 / 2, m_)
                return (1 - mpmath.exp(et - s - g)) * dens

            w = mpmath.binomial(k, m) * p ** (k - m) * (1 - p) ** m
            total += w * mpmath.quad(f, [lo, lo + 1, lo + 10 * m_ + 10, mpmath.inf])
        return total


@pytest.mark.parametrize(("eps", "k", "mu", "delta"), [("0.1", 10, "0.5", "1e-6"), ("0.05", 4, "1.0", "1e-3")])
def test_mix_exact_entry_is_the_smallest_eps_the_40_digit_delta_allows(eps, k, mu, delta):
    """The entry's eps, rounded up, is sound (delta(eps) <= delta) and tight (delta at eps
    less 1e-9 relative is above delta)."""
    out = get("MIX-exact").report(eps_step=float(eps), k=k, mu=float(mu), delta=float(delta))
    assert (out["theorem"], out["rounding"]) == ("MIX-exact", "up")
    e = mpmath.mpf(out["eps_nats"])
    d = mpmath.mpf(float(delta))
    assert _delta_40(eps, k, mu, e) <= d < _delta_40(eps, k, mu, e * (1 - mpmath.mpf("1e-9")))


def test_mix_exact_statement_is_the_privacy_loss_expectation():
    """The statement ``maxinfo explain MIX-exact`` prints (a sympy Sum over the sign counts m
    of the binomial weights times g_mu), evaluated at eps = 0.1, k = 3, mu = 0.5, eps_tot =
    0.4, equals the quadrature of E[(1 - e^(eps_tot - L))_+] to 25 digits."""
    st = get("MIX-exact").sympy_statement()
    sym = {s.name: s for s in st.free_symbols}
    assert set(sym) == {"epsilon", "epsilon_tot", "mu", "k"}
    # the sum runs over m = 0..k, m the number of steps whose sign came out negative, printed
    # as m: a nonnegative integer (its assumptions are part of what sympy prints and simplifies)
    ((m, lo, hi),) = st.limits
    assert (m.name, lo, hi) == ("m", 0, sym["k"]) and m.is_integer is True and m.is_nonnegative is True
    q = sympy.Rational
    at = {sym["epsilon"]: q(1, 10), sym["epsilon_tot"]: q(2, 5), sym["mu"]: q(1, 2)}
    val = st.subs(at).subs(sym["k"], 3).doit().evalf(40)
    with mpmath.workdps(40):
        ref = _delta_40("0.1", 3, "0.5", mpmath.mpf("0.4"))
        assert abs(mpmath.mpf(str(val)) - ref) < mpmath.mpf("1e-25") * ref
        assert 0.05 < ref < 0.2


def test_mixed_epsilon_at_and_below_the_delta_of_eps_zero_by_hand():
    """One randomized response of eps = 0.1 and no Gaussian part: L = +-0.1 with probabilities
    p = e^0.1/(1 + e^0.1) and 1 - p, so delta(x) = p (1 - e^(x - 0.1)) for 0 <= x < 0.1 and
    delta(0) = tanh(0.05) = 0.0499583749579... At a delta of 0.05 eps 0 suffices (the answer is 0,
    exactly); at 0.04 it is 0.1 + ln(1 - 0.04/p) = 0.0207474..., rounded up within 1e-9."""
    with mpmath.workdps(40):
        e = mpmath.mpf("0.1")
        p = mpmath.exp(e) / (1 + mpmath.exp(e))
        assert mpmath.nstr(p * (1 - mpmath.exp(-e)), 12) == mpmath.nstr(mpmath.tanh(e / 2), 12) == "0.0499583749579"
        x = e + mpmath.log(1 - mpmath.mpf(0.04) / p)
        assert mpmath.nstr(x, 6) == "0.0207474"
    assert mixed_epsilon({0.1: 1}, 0.0, 0.05) == 0.0
    got = mixed_epsilon({0.1: 1}, 0.0, 0.04)
    assert x <= got <= x * (1 + mpmath.mpf("1e-9"))
    assert mixed_epsilon({0.1: 1}, 0.0, 0.0499) > 0.0  # just below delta(0): eps > 0


def test_the_coarse_bound_of_a_negligible_term_is_the_normal_tails_chernoff_bound():
    """``_delta_upper`` bounds a term marked coarse (far below the float sum) by Phi(-a) <=
    e^(-a^2/2)/2 at a = x/mu - mu/2 >= 0, else by 1, instead of evaluating g_mu(x) (issue 45).
    With every term of 3 steps of eps = 0.1, mu = 0.5, eps_tot = 0.4 marked coarse, the result
    is that sum at 40 digits (a = -0.05, 0.35, 0.75, 1.15 for m = 0..3; weights C(3, m)
    p^(3 - m) q^m), rounded up; and it is an upper bound on the true delta (the quadrature)."""
    with mpmath.workdps(40):
        e, mu, et = mpmath.mpf(0.1), mpmath.mpf(0.5), mpmath.mpf(0.4)
        p = mpmath.exp(e) / (1 + mpmath.exp(e))
        ref = mpmath.mpf(0)
        for m in range(4):
            a = (et - (3 - 2 * m) * e) / mu - mu / 2
            c = mpmath.exp(-(a**2) / 2) / 2 if a >= 0 else mpmath.mpf(1)
            ref += mpmath.binomial(3, m) * p ** (3 - m) * (1 - p) ** m * c
        got = _delta_upper([(0.1, 3)], 0.5, 0.4, [(0,), (1,), (2,), (3,)], np.ones(4, dtype=bool))
        assert ref <= got <= ref * (1 + mpmath.mpf("1e-15"))
        assert got > _delta_40("0.1", 3, "0.5", et)


def test_mixed_epsilon_within_rounding_of_the_delta_of_eps_zero():
    """One randomized response of the float 0.1 (0.1000000000000000055...), no Gaussian part:
    delta(x) = p (1 - e^(x - 0.1)) on [0, 0.1), so at a target d just below delta(0) the
    smallest eps is 0.1 + ln(1 - d/p) (40 digits, the step's float value). At d =
    0.04995837495787997, one float below the float nearest delta(0) = tanh(0.05...) =
    0.0499583749578799795..., that is 1.12469405588709e-17: far above the ladder's candidates
    above a float root of 0 (2^-1074 4^j, at most 2^-956), which the float sum gives here. The
    module once refused this valid target ("a target the certified sum reaches near its float
    root"); it now gallops up to a certified eps and bisects."""
    d = 0.04995837495787997
    with mpmath.workdps(40):
        e = mpmath.mpf(0.1)
        p = mpmath.exp(e) / (1 + mpmath.exp(e))
        assert mpmath.mpf(d) < p * (1 - mpmath.exp(-e)) < mpmath.mpf(np.nextafter(d, 1))
        x = e + mpmath.log(1 - mpmath.mpf(d) / p)
        assert mpmath.nstr(x, 12) == "1.12469405589e-17"
    got = mixed_epsilon({0.1: 1}, 0.0, d)
    assert x <= got <= x * (1 + mpmath.mpf("1e-11"))
    # the float nearest delta(0) lies above it: eps 0 exactly
    assert mixed_epsilon({0.1: 1}, 0.0, float(np.nextafter(d, 1))) == 0.0


def test_mixed_delta_of_a_near_certain_step_is_one_not_above():
    """One (100, 0)-DP step and mu = 1, at eps 0: delta(0) = p g_1(-100) + q g_1(100) with p = 1 -
    q, q = 1/(1 + e^100) = 3.7e-44, so 1 - delta(0) < 10^-43 and the smallest float at or above
    it is 1.0; the interval sum's upper end (p's outward rounding) lies just above 1, and a
    delta is never reported above 1."""
    with mpmath.workdps(60):
        e = mpmath.mpf(100)
        p, q = 1 / (1 + mpmath.exp(-e)), 1 / (1 + mpmath.exp(e))

        def g(x: mpmath.mpf) -> mpmath.mpf:
            return mpmath.ncdf(-x + mpmath.mpf(1) / 2) - mpmath.exp(x) * mpmath.ncdf(-x - mpmath.mpf(1) / 2)

        ref = p * g(-e) + q * g(e)
        assert 0 < 1 - ref < mpmath.mpf("1e-43")
    assert _delta_upper([(100.0, 1)], 1.0, 0.0, [(0,), (1,)]) > 1.0
    assert mixed_delta({100.0: 1}, 1.0, 0.0) == 1.0


def _delta_closed_50(steps: dict[float, int], mu: mpmath.mpf, et: mpmath.mpf) -> mpmath.mpf:
    """The exact sum with the closed-form Gaussian term g_mu(x) = Phi(-x/mu + mu/2) - e^x
    Phi(-x/mu - mu/2) (DRS22 Cor. 2.13), at the working precision (50 digits by the caller)."""

    def g(x: mpmath.mpf) -> mpmath.mpf:
        return mpmath.ncdf(-x / mu + mu / 2) - mpmath.exp(x) * mpmath.ncdf(-x / mu - mu / 2)

    if not steps:
        return g(et)
    ((e, k),) = steps.items()
    e = mpmath.mpf(e)
    p = mpmath.exp(e) / (1 + mpmath.exp(e))
    return sum(mpmath.binomial(k, m) * p ** (k - m) * (1 - p) ** m * g(et - (k - 2 * m) * e) for m in range(k + 1))


def _root_50(steps: dict[float, int], mu: str, d: float, lo: str, hi: str) -> mpmath.mpf:
    """The eps at which the 50-digit sum equals the double ``d``: plain bisection of its log on
    [lo, hi] (delta decreases in eps) to 1e-40 relative."""
    with mpmath.workdps(50):
        m_, target = mpmath.mpf(mu), mpmath.log(mpmath.mpf(d))
        a, b = mpmath.mpf(lo), mpmath.mpf(hi)
        assert mpmath.log(_delta_closed_50(steps, m_, a)) > target > mpmath.log(_delta_closed_50(steps, m_, b))
        while b - a > a * mpmath.mpf("1e-40"):
            mid = (a + b) / 2
            if mpmath.log(_delta_closed_50(steps, m_, mid)) > target:
                a = mid
            else:
                b = mid
        return b


def test_the_gaussian_curve_alone_against_its_50_digit_root():
    """mu = 1 and no pure step: the bracket's first end is mu^2/2 + 8 mu + 1 = 9.5, where
    delta = 1.1059685710426530024e-20 (50 digits). At half of that the root, 9.5750056307213787,
    lies just past it (the search must look beyond its first end); at 1e-30, 11.743883025231...,
    the end is doubled. Both certified within 1e-11 above the root; the float estimate within
    1e-9 of it."""
    with mpmath.workdps(50):
        d95 = _delta_closed_50({}, mpmath.mpf(1), mpmath.mpf("9.5"))
        assert mpmath.nstr(d95, 12) == "1.10596857104e-20"
    for d, lo, hi, digits in ((float(d95 / 2), "9.5", "10", "9.57500563072138"), (1e-30, "11", "13", "11.7438830252")):
        ref = _root_50({}, "1", d, lo, hi)
        assert mpmath.nstr(ref, len(digits) - 1) == digits
        got = mixed_epsilon({}, 1.0, d)
        assert ref <= got <= ref * (1 + mpmath.mpf("1e-11"))
        assert abs(mixed_epsilon_estimate({}, 1.0, d) - ref) <= ref * mpmath.mpf("1e-9")


def test_a_flat_curve_is_certified_tight_past_the_first_rung():
    """40 (1, 0)-DP steps and mu = 0.5, at a target 1e-10 below delta(0) = 0.99813929669300085638...:
    delta falls so slowly in eps there that the float root misses the certified boundary by
    about 1e-5 relative, and the ladder of e0 (1 + 1e-12 4^j) first certifies at j = 13, 8.8e-5
    above the 50-digit root 1.0728626916896210e-7; the answer is bisected back to within 1e-12.
    The same target must not be answered with 0 (delta(0) exceeds it)."""
    with mpmath.workdps(50):
        d0 = _delta_closed_50({1.0: 40}, mpmath.mpf("0.5"), mpmath.mpf(0))
        assert mpmath.nstr(d0, 15) == "0.998139296693001"
        d = float(d0 * (1 - mpmath.mpf("1e-10")))
    ref = _root_50({1.0: 40}, "0.5", d, "1e-8", "1e-6")
    assert mpmath.nstr(ref, 12) == "1.07286269169e-7"
    got = mixed_epsilon({1.0: 40}, 0.5, d)
    assert ref <= got <= ref * (1 + mpmath.mpf("1e-11"))


def test_the_float_root_of_zero_and_the_unreachable_target():
    """The float estimate is 0 where delta(0) is already at or below the target (one (0.1,
    0)-DP step: delta(0) = tanh(0.05) < 0.05); a target no eps up to 10^12 nats reaches (mu =
    10^7 at 1e-300: about mu^2/2 = 5e13 nats) is refused naming delta, its value and the range."""
    assert mixed_epsilon_estimate({0.1: 1}, 0.0, 0.05) == 0.0
    assert mixed_epsilon_estimate({}, 1e7, 1e-300) is None
    with pytest.raises(InvalidParameter) as exc:
        mixed_epsilon({}, 1e7, 1e-300)
    assert (exc.value.name, exc.value.value) == ("delta", 1e-300)
    assert exc.value.allowed == "a delta the composition reaches at some eps <= 1e12 nats"


def test_pattern_count_and_the_refusals_word_for_word():
    """prod_j (k_j + 1) sign-count patterns: 4 x 5 = 20 for 3 and 4 steps; 100 x 200 = 20,000
    (MAX_PATTERNS) is evaluated, 101 x 200 refused; an empty composition, and a list where a
    mapping eps -> count is meant, are refused naming ``pure``."""
    assert pattern_count({1.0: 3, 2.0: 4}) == 20 and pattern_count({0.5: 1}) == 2
    assert pattern_count({1.0: 99, 2.0: 199}) == 20_000 == MAX_PATTERNS
    assert mixed_epsilon_estimate({1.0: 99, 2.0: 199}, 0.0, 0.5) > 0
    cases = [
        (({1.0: 100, 2.0: 199}, 0.0, 0.5), "2 distinct eps", "at most 20000 sign-count patterns prod (k_j + 1)"),
        (({}, 0.0, 0.1), {}, "at least one step (or mu > 0)"),
        (([1.0], 0.0, 0.1), [1.0], "a mapping eps -> number of steps"),
    ]
    for args, value, allowed in cases:
        for fn in (mixed_epsilon, mixed_epsilon_estimate):
            with pytest.raises(InvalidParameter) as exc:
                fn(*args)
            assert (exc.value.name, exc.value.value, exc.value.allowed) == ("pure", value, allowed)
    assert mixed_epsilon_estimate({}, 0.5, 0.1) > 0  # a Gaussian part alone is a composition


def test_a_step_past_exp_s_float_range():
    """One (800, 0)-DP step (e^800 is past the doubles: the weights' logs are taken as -e there):
    delta(x) = p (1 - e^(x - 800)) below 800, p = 1/(1 + e^-800), so at delta = 0.5 the eps is
    800 + ln(1 - 0.5/p) = 800 - ln 2 = 799.30685281944005469... (to 1e-300), estimated within
    1e-12 and certified above it within 2e-12; with mu = 0.5 added it can only grow."""
    with mpmath.workdps(40):
        ref = 800 - mpmath.log(2)
    est = mixed_epsilon_estimate({800.0: 1}, 0.0, 0.5)
    assert abs(est - ref) <= ref * mpmath.mpf("1e-12")
    got = mixed_epsilon({800.0: 1}, 0.0, 0.5)
    assert ref <= got <= ref * (1 + mpmath.mpf("2e-12"))
    assert mixed_epsilon({800.0: 1}, 0.5, 0.5) > got


def test_gdp_compose_past_the_floats_refuses_in_words():
    """One 1e200-GDP step: mu^2 = 1e400 is past the floats; refused naming mu (it raised
    OverflowError building the refusal's value), the composed mu 1e200 shown."""
    from maxinfo_bounds.theorems.dp_accounting import gdp_compose

    with pytest.raises(InvalidParameter) as exc:
        gdp_compose({1e200: 1})
    assert exc.value.name == "mu" and exc.value.value == 1e200
    assert exc.value.allowed == "a composed mu below 1e150 (its square below 1e300)"


def test_where_nothing_certifies_the_search_refuses_at_1e12_nats(monkeypatch: pytest.MonkeyPatch) -> None:
    # the certified delta is the only judge: were it never at most the target (simulated here:
    # every certified sum above 1), the search climbs its ladder of 60 rungs from the float root
    # (5.15 nats here: the last rung is 5.15 (1 + 1e-12 4^59) = 1.7e24), then its gallop past
    # 1e12 nats, and refuses in words, never returning an eps it has not certified
    from maxinfo_bounds.theorems.dp_accounting import mixed as M

    seen: list[float] = []

    def never(groups: object, m: float, e: float, *rest: object) -> float:
        seen.append(e)
        return 2.0

    monkeypatch.setattr(M, "_delta_upper", never)
    with pytest.raises(InvalidParameter) as err:
        M.mixed_epsilon({1.0: 3}, 0.5, 1e-6)
    assert (err.value.name, err.value.value) == ("delta", 1e-6)
    assert str(err.value) == "delta=1e-06 is invalid: must be a delta the composition reaches at some eps <= 1e12 nats"
    assert 5.15 < seen[0] < 5.16 and 1.7e24 < max(seen) < 1.72e24
