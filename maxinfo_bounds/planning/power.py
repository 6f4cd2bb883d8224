r"""The power of the final test at a threshold γ on n records.

The planner compares analyses that test at different thresholds on different numbers of
records (all n at a corrected γ; a fraction of n at α after sample splitting), so it needs the
power of the study's final test as a function of (γ, n). The test and the effect to detect are a
study's ``[power]`` table (:class:`~maxinfo_bounds.planning.study.PowerSpec`):

========== ==================================================== ==============================
test       power at level γ on n records                        computed by (exact)
========== ==================================================== ==============================
z          one-sample z-test of a mean, effect d = μ/σ (σ known) ``math.erfc`` (the
           ("larger": 1 − Φ(z_{1−γ} − d√n))                      formula of statsmodels
                                                                 NormalIndPower, ratio 0)
t          one-sample t-test, Cohen's d                          ``scipy.special.nctdtr`` (the
                                                                 formula of statsmodels
                                                                 TTestPower, NaN-guarded)
t2         two-sample t-test, Cohen's d, the n records in two    ``scipy.special.nctdtr`` (as
           groups of ⌊n/2⌋ and ⌈n/2⌉                             statsmodels TTestIndPower)
proportion exact binomial test of p = p0, true p1 = p0 + effect  ``scipy.special.betainc(c)``
           (equal tails γ/2 each when two-sided)                 (exact; not the normal
                                                                 approximation)
========== ==================================================== ==============================

All four are exact for their test (the z-test's power *is* the normal formula; the t-tests use
the noncentral t distribution, not its normal approximation; the proportion test is the exact
binomial test, whose size is at most γ and whose power is not monotone in n: the saw-tooth of
a discrete test). The t and binomial tails are computed with :mod:`scipy.special` (issue 45):
scipy.stats and statsmodels evaluate the same special functions but cost about 0.8 s of CPU to
import, more than the rest of a power plan. The normal CDF and quantile (the z-test, the normal
approximation, the binomial searches' starting points) are the standard library's
(``math.erfc``; ``statistics.NormalDist``, Wichura's AS 241), as accurate as scipy's (within
2e-13 relative of a 40-digit reference wherever Φ is a normal float, the same as
``scipy.special.ndtr``) and free of scipy.special's own import, about 0.13 s of CPU with scipy
1.17: a z-test's power plan imports no scipy.

:func:`power_upper` bounds the power over a box of thresholds and sample sizes, which the
required-n search (:mod:`~maxinfo_bounds.planning.recommend`) uses to prove that no n in an
interval reaches the target.

>>> from maxinfo_bounds.planning.study import PowerSpec
>>> s = PowerSpec(test="z", effect_size=0.2, alternative="larger")
>>> round(power_at(s, 0.025, 100), 4)    # 1 - Phi(1.959964 - 0.2 * 10) = Phi(0.040036), hand
0.516
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from statistics import NormalDist

import numpy as np

from ..domain import Real
from ..numeric import decimal_text
from ..numeric.special import special
from ..search import first_true_int
from .errors import PlanError
from .steps import check_real
from .study import Alternative, FinalTest, PowerSpec

__all__ = [
    "power_at",
    "power_upper",
    "power_lower",
    "effective_records",
    "critical_value_text",
    "normal_approximation_power",
    "minimum_effect",
    "effect_range",
    "min_records",
    "method_of",
    "describe",
    "MDE_D_MAX",
]


def min_records(spec: PowerSpec) -> int:
    """The fewest records the test is defined on (t: 2; t2: 4, two per group; else 1)."""
    return {FinalTest.T: 2, FinalTest.T2: 4}.get(spec.test, 1)


def method_of(spec: PowerSpec) -> str:
    """How the power of ``spec``'s test is computed, in words (for reports)."""
    return {
        FinalTest.Z: "exact normal power of the z-test (normal CDF by math.erfc, as statsmodels "
        "NormalIndPower, one sample)",
        FinalTest.T: "exact noncentral-t power of the one-sample t-test (scipy.special.nctdtr, as statsmodels "
        "TTestPower)",
        FinalTest.T2: "exact noncentral-t power of the two-sample t-test, two equal groups "
        "(scipy.special.nctdtr, as statsmodels TTestIndPower)",
        FinalTest.PROPORTION: "exact binomial test and exact binomial power (scipy.special.betainc); "
        "two-sided: equal tails",
    }[spec.test]


_SQRT2 = math.sqrt(2.0)
_STD_NORMAL = NormalDist()


def ndtr(x: float) -> float:
    """Φ(x), the standard normal CDF: erfc(−x/√2)/2 (``math.erfc``, relative accuracy in the
    far lower tail; the same formula as scipy.special.ndtr, whose import costs about 0.13 s of
    CPU with scipy 1.17: a z-test's power plan needs nothing else from scipy)."""
    return 0.5 * math.erfc(-x / _SQRT2)


def ndtri(p: float) -> float:
    """Φ⁻¹(p), the standard normal quantile (Wichura's AS 241, ``statistics.NormalDist``,
    about 1e-16 relative down to the smallest floats); −inf at 0 and +inf at 1."""
    if p <= 0.0:
        return -math.inf
    if p >= 1.0:
        return math.inf
    return _STD_NORMAL.inv_cdf(p)


def _normal_power(d: float, n: int, gamma: float, alt: Alternative) -> float:
    """The one-sample z-test's power, statsmodels' ``normal_power`` formula (NormalIndPower
    with ratio 0) with the normal CDF and quantile of :func:`ndtr` and :func:`ndtri`: the upper
    tail Φ(d √n − z_{1−γ'}) and the lower Φ(z_{γ'} − d √n), γ' = γ/2 for two-sided. (statsmodels
    and scipy.stats cost about 0.8 s to import, scipy.special about 0.13 s.)"""
    lv = gamma / 2 if alt is Alternative.TWO_SIDED else gamma
    eff = d * math.sqrt(n)
    out = 0.0
    if alt is not Alternative.SMALLER:
        out += float(ndtr(eff + ndtri(lv)))  # sf(crit - eff), crit = isf(lv) = -ndtri(lv)
    if alt is not Alternative.LARGER:
        out += float(ndtr(ndtri(lv) - eff))
    return out


def _clip(p: float) -> float:
    v = float(p)
    if v != v:  # never NaN: the t paths replace scipy's NaN tails before this point
        raise ArithmeticError("power evaluated to NaN")
    return min(max(v, 0.0), 1.0)


def _nct_power(df: float, nc: float, gamma: float, alt: Alternative) -> float:
    """The t-test's exact power: noncentral t tails beyond the central-t critical values.

    scipy's noncentral t returns NaN for a few far tails at large df (probabilities far below
    1e-15); such a term is replaced by its normal limit Φ(−c − nc) (or 1 − Φ(c − nc)),
    which is what it converges to and is negligible beside the other tail. Written with
    scipy.special (``nctdtr``, the CDF scipy.stats.nct evaluates; the upper tail by symmetry,
    P(T > c) = P(T' < −c) for T' of noncentrality −nc; ``stdtrit`` for the central quantile),
    which keeps scipy.stats' 0.8 s import off a power plan."""
    sp = special()
    nctdtr, stdtrit = sp.nctdtr, sp.stdtrit

    def upper(c: float) -> float:
        v = float(nctdtr(df, -nc, -c))
        return v if v == v else float(ndtr(nc - c))

    def lower(c: float) -> float:
        v = float(nctdtr(df, nc, c))
        return v if v == v else float(ndtr(c - nc))

    def isf(level: float) -> float:
        return -float(stdtrit(df, level))

    if alt is Alternative.LARGER:
        return upper(isf(gamma))
    if alt is Alternative.SMALLER:
        return lower(-isf(gamma))
    c = isf(gamma / 2)
    return upper(c) + lower(-c)


def _binom_sf(k: int, n: int, p: float) -> float:
    """P(Bin(n, p) > k) = I_p(k + 1, n - k), the regularised incomplete beta of scipy.special
    (``betainc``; ``bdtrc`` casts n to a 32-bit integer and is NaN from n = 2^31): 1 for k < 0,
    0 for k >= n."""
    return 1.0 if k < 0 else 0.0 if k >= n else float(special().betainc(k + 1, n - k, p))


def _binom_cdf(k: int, n: int, p: float) -> float:
    """P(Bin(n, p) <= k) = 1 - I_p(k + 1, n - k) (``betaincc``, no cancellation): 0 for k < 0,
    1 for k >= n."""
    return 0.0 if k < 0 else 1.0 if k >= n else float(special().betaincc(k + 1, n - k, p))


def _binom_start(n: int, p0: float, z: float) -> int:
    """A starting point for the critical-value searches: the normal approximation's quantile
    n p0 + z sqrt(n p0 (1 - p0)), clipped to [0, n] (the search gallops from it)."""
    v = n * p0 + z * math.sqrt(n * p0 * (1 - p0))
    return int(min(max(v, 0.0), float(n)))


@functools.lru_cache(maxsize=4096)
def _binom_crit_upper(n: int, p0: float, level: float) -> int:
    """The smallest c with P0(X >= c) <= level (n + 1 when no c in [0, n] qualifies), the tail
    by scipy.special; a normal-approximation start (the search gallops from it)."""

    def ok(c: int) -> bool:
        return c > n or _binom_sf(c - 1, n, p0) <= level

    return first_true_int(ok, _binom_start(n, p0, -float(ndtri(level))) + 1, 0, n + 1)


@functools.lru_cache(maxsize=4096)
def _binom_crit_lower(n: int, p0: float, level: float) -> int:
    """The largest c with P0(X <= c) <= level (-1 when none)."""

    def above(c: int) -> bool:  # False then True in c; True at c = n (level < 1)
        return c >= n or _binom_cdf(c, n, p0) > level

    return first_true_int(above, _binom_start(n, p0, float(ndtri(level))) + 1, -1, n) - 1


def _binom_power(spec: PowerSpec, gamma: float, upper: tuple[int, int], lower: tuple[int, int]) -> float:
    """P1(reject) of the exact binomial test. ``upper`` = (records the upper critical value is
    computed at, records the data have), likewise ``lower``; both (n, n): the exact power at n."""
    assert spec.p0 is not None
    p0, p1 = spec.p0, spec.p1
    lv = gamma / 2 if spec.alternative is Alternative.TWO_SIDED else gamma
    out = 0.0
    if spec.alternative is not Alternative.SMALLER:
        n_crit, n_dist = upper
        c = _binom_crit_upper(n_crit, p0, lv)
        out += _binom_sf(c - 1, n_dist, p1) if c <= n_dist else 0.0
    if spec.alternative is not Alternative.LARGER:
        n_crit, n_dist = lower
        c = _binom_crit_lower(n_crit, p0, lv)
        out += _binom_cdf(c, n_dist, p1) if c >= 0 else 0.0
    return _clip(out)


_LEVEL = Real(0, 1)


def _checked(spec: object, gamma: object, n: object) -> tuple[PowerSpec, float, int]:
    if not isinstance(spec, PowerSpec):
        raise PlanError("spec", f"must be a PowerSpec, got {type(spec).__name__}")
    g = check_real("gamma", gamma, _LEVEL)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise PlanError("n", f"{n!r} is invalid: must be an integer >= 0 (records)")
    return spec, g, int(n)


def effective_records(spec: PowerSpec, n: int) -> int:
    """The records a clustered sample of n is worth: floor(n / design_effect) (Kish; n itself
    for independent records). Non-decreasing in n, so the power bounds over intervals hold."""
    de = spec.design_effect
    # exact: a float quotient just below an integer could round up to it
    return n if de == 1 else math.floor(Fraction(n) / Fraction(de))


def power_at(spec: PowerSpec, gamma: float, n: int) -> float:
    """The power of the test at level ``gamma`` (in [0, 1]) on ``n`` records (an integer >= 0;
    the power is 0 where γ = 0 or n is too small for the test), on the
    :func:`effective_records` when ``spec`` has a design effect."""
    spec, gamma, n = _checked(spec, gamma, n)
    n = effective_records(spec, n)
    if not gamma > 0 or n < min_records(spec):
        return 0.0
    g = gamma
    if spec.test is FinalTest.PROPORTION:
        return _binom_power(spec, g, (n, n), (n, n))
    d, alt = spec.effect_size, spec.alternative
    if spec.test is FinalTest.Z:
        return _clip(_normal_power(d, n, g, alt))
    if spec.test is FinalTest.T:
        return _clip(_nct_power(n - 1, d * math.sqrt(n), g, alt))
    n1 = n // 2
    return _clip(_nct_power(n - 2, d * math.sqrt(n1 * (n - n1) / n), g, alt))


def power_upper(spec: PowerSpec, gamma_hi: float, n_lo: int, n_hi: int) -> float:
    """An upper bound on the power at every level γ ≤ ``gamma_hi`` and every n in
    [``n_lo``, ``n_hi``].

    The z- and t-tests' power grows with the level and with n, so the bound is the power at
    (``gamma_hi``, ``n_hi``). The exact binomial test's power is not monotone in n; its
    rejection region {X ≥ c(n, γ)} has c non-decreasing in n and non-increasing in γ, and
    X ~ Bin(n, p1) grows stochastically with n, so P(Bin(n_hi, p1) ≥ c(n_lo, γ_hi)) bounds the
    upper tail (likewise the lower tail with the roles of n_lo and n_hi exchanged).
    """
    if isinstance(gamma_hi, (int, float)) and gamma_hi > 1:  # a level above 1 rejects always
        gamma_hi = 1.0
    spec, gamma_hi, n_hi = _checked(spec, gamma_hi, n_hi)
    if spec.test is not FinalTest.PROPORTION:
        return power_at(spec, gamma_hi, n_hi)
    if not gamma_hi > 0:
        return 0.0
    lo, hi = effective_records(spec, n_lo), effective_records(spec, n_hi)
    return _binom_power(spec, min(gamma_hi, 1.0), (lo, hi), (hi, lo))


def power_lower(spec: PowerSpec, gamma_lo: float, n_lo: int, n_hi: int) -> float:
    """A lower bound on the power at every level γ ≥ ``gamma_lo`` and every n in [``n_lo``,
    ``n_hi``] (the mirror of :func:`power_upper`).

    The z- and t-tests' power grows with the level and with n: the power at (``gamma_lo``,
    ``n_lo``). For the exact binomial test, whose critical values are monotone (the upper one
    non-decreasing in n and non-increasing in γ, the lower one non-decreasing in n) and whose
    X ~ Bin(n, p1) grows stochastically with n: P(Bin(n_lo, p1) ≥ c(n_hi, γ_lo)) bounds the
    upper tail from below, P(Bin(n_hi, p1) ≤ c_low(n_lo, γ_lo)) the lower.
    """
    spec, gamma_lo, n_lo = _checked(spec, gamma_lo, n_lo)
    if spec.test is not FinalTest.PROPORTION:
        return power_at(spec, gamma_lo, n_lo)
    lo, hi = effective_records(spec, n_lo), effective_records(spec, n_hi)
    if not gamma_lo > 0 or lo < 1:
        return 0.0
    return _binom_power(spec, min(gamma_lo, 1.0), (hi, lo), (lo, hi))


def normal_approximation_power(spec: PowerSpec, gamma: float, n: int) -> float:
    """The large-sample normal approximation to the power of the test of one proportion (the
    z-test with the null variance p0 q0 in the critical value and p1 q1 under the alternative):
    Φ((√n (p1 − p0) − z_{1−γ'} √(p0 q0)) / √(p1 q1)) for "larger" (the mirror for "smaller",
    both with γ' = γ/2 when two-sided), on the effective records. Reported beside the exact
    binomial power, which the planner uses, so a reader comparing with an approximate
    calculator sees both figures named (issue 43)."""
    spec, gamma, n = _checked(spec, gamma, n)
    if spec.test is not FinalTest.PROPORTION:
        raise PlanError("spec", "the normal approximation is reported for the test of a proportion only")
    m = effective_records(spec, n)
    if not gamma > 0 or m < 1:
        return 0.0
    assert spec.p0 is not None
    p0, p1, alt = spec.p0, spec.p1, spec.alternative
    lv = gamma / 2 if alt is Alternative.TWO_SIDED else gamma
    z = -float(ndtri(lv))
    s0, s1, root = math.sqrt(p0 * (1 - p0)), math.sqrt(p1 * (1 - p1)), math.sqrt(m)
    out = 0.0
    if alt is not Alternative.SMALLER:
        out += float(ndtr((root * (p1 - p0) - z * s0) / s1))
    if alt is not Alternative.LARGER:
        out += float(ndtr((root * (p0 - p1) - z * s0) / s1))
    return min(max(out, 0.0), 1.0)


def critical_value_text(spec: PowerSpec, gamma: float, n: int) -> str:
    """The rejection rule of the test at level ``gamma`` on ``n`` records, in words: the
    statistic against its critical value (which a level below 2.2e-16 needs: no printed p-value
    reaches it). z: |Z| (or Z, or -Z) at least the normal quantile; t and t2: the central-t
    quantile with n - 1 or n - 2 degrees of freedom; the exact binomial test: the critical counts."""
    alt = spec.alternative
    lv = gamma / 2 if alt is Alternative.TWO_SIDED else gamma
    m = effective_records(spec, n)
    side = {Alternative.TWO_SIDED: "|{}|", Alternative.LARGER: "{}", Alternative.SMALLER: "-{}"}[alt]
    if spec.test is FinalTest.Z:
        return f"reject when {side.format('Z')} >= {decimal_text(-float(ndtri(lv)), 'up', 6)}"
    if spec.test in (FinalTest.T, FinalTest.T2):
        df = m - 1 if spec.test is FinalTest.T else m - 2
        if df < 1:
            return "too few records for the test"
        crit = decimal_text(-float(special().stdtrit(df, lv)), "up", 6)
        return f"reject when {side.format('T')} >= {crit} ({df} degrees of freedom)"
    assert spec.p0 is not None
    parts = []
    if alt is not Alternative.SMALLER:
        parts.append(f"X >= {_binom_crit_upper(m, spec.p0, lv)}")
    if alt is not Alternative.LARGER:
        parts.append(f"X <= {_binom_crit_lower(m, spec.p0, lv)}")
    return f"reject when {' or '.join(parts)} of {m} (exact binomial critical counts)"


#: the largest |Cohen's d| the minimum-detectable-effect search considers (z and t tests)
MDE_D_MAX = 100.0


def effect_range(spec: PowerSpec) -> tuple[float, float]:
    """The magnitudes of effect the minimum-detectable-effect search considers, (smallest,
    largest), in the sign of ``spec.effect_size``: |d| up to :data:`MDE_D_MAX` for z and t;
    for a proportion, up to the true proportion a hair inside 0 or 1."""
    if spec.test is FinalTest.PROPORTION:
        assert spec.p0 is not None
        top = (1 - spec.p0 if spec.effect_size > 0 else spec.p0) * (1 - 1e-9)
    else:
        top = MDE_D_MAX
    return top * 1e-12, top


def minimum_effect(
    spec: PowerSpec,
    gamma: float,
    n: int,
    *,
    power: Callable[[PowerSpec], float] | None = None,
    rel_tol: float = 1e-6,
) -> float | None:
    """The smallest effect (G*Power's sensitivity analysis: Cohen's d, or p1 - p0 for a
    proportion, of the sign of ``spec.effect_size``) that the test at level ``gamma`` on ``n``
    records detects with the target power ``spec.target``; None when no effect in
    :func:`effect_range` does (γ = 0, too few records, or a target beyond reach).

    Rounded up: the power at the returned effect is at least the target (it is the upper end
    of a bisection to ``rel_tol`` relative), so a design claimed to detect it does. The power
    grows with the effect's magnitude for the z- and t-tests (the noncentrality grows) and for
    the one-sided exact binomial test (Bin(n, p1) grows stochastically with p1), so the
    bisection finds the boundary; for the two-sided binomial test the lower tail shrinks as the
    upper grows and the boundary found is where the power first reaches the target along the
    bisection (the power there is checked). ``power``: the power as a function of the spec with
    the effect changed (default: :func:`power_at` at ``gamma`` and ``n``; the estimation route
    passes its own).

    >>> s = PowerSpec(test="z", effect_size=0.1, alternative="larger")
    >>> round(minimum_effect(s, 0.05, 100), 5)   # (z_0.95 + z_0.8)/sqrt(100) = 0.248647..., hand
    0.24865
    """
    spec, gamma, n = _checked(spec, gamma, n)
    sign = 1.0 if spec.effect_size > 0 else -1.0

    def pw(mag: float) -> float:
        s = replace(spec, effect_size=sign * mag)
        return power_at(s, gamma, n) if power is None else power(s)

    lo, hi = effect_range(spec)
    if pw(hi) < spec.target:
        return None
    if pw(lo) >= spec.target:
        return sign * lo
    while hi - lo > rel_tol * hi:
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if pw(mid) >= spec.target else (mid, hi)
    return sign * hi


def describe(spec: PowerSpec) -> str:
    """One line: the test, effect and target, for reports."""
    eff = (
        f"p1 - p0 = {spec.effect_size:g} (p0 = {spec.p0:g})"
        if spec.test is FinalTest.PROPORTION
        else f"Cohen's d = {spec.effect_size:g}"
    )
    de = (
        f", design effect {spec.design_effect:g} (power on n / {spec.design_effect:g} records)"
        if spec.design_effect != 1
        else ""
    )
    return f"{spec.test.value} test ({spec.alternative.value}), {eff}, target power {spec.target:g}{de}"
