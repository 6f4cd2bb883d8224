r"""Differential-privacy accounting: composition of DP steps and mechanism calibration.

Composition: basic and advanced (homogeneous and heterogeneous), and the optimal homogeneous
composition (Kairouz–Oh–Viswanath), exact. Calibration: Laplace, Gaussian (classic and analytic,
Balle–Wang 2018), the exponential mechanism and report-noisy-max, sparse vector (AboveThreshold
with c answers). Conversion: :func:`dp_max_information` turns a :class:`DPGuarantee` into the best
max-information bound of RRST Thm 1.4 / Thm 3.1. Interop: :func:`from_dp_event` reads an
(eps, delta) from Google's ``dp_accounting``. ``eps`` is in nats throughout (the DP convention).
Every returned privacy parameter is rounded **up** and
every calibrated noise scale rounded **up** (more noise, smaller privacy loss: the safe side).

References: Dwork & Roth, *The Algorithmic Foundations of Differential Privacy* (2014): Thm 3.16
(basic composition), Thm 3.20 (advanced composition, Dwork–Rothblum–Vadhan 2010), Thm 3.6
(Laplace mechanism), Thm A.1 (Gaussian mechanism, eps < 1); Kairouz–Oh–Viswanath, "The
Composition Theorem for Differential Privacy" (ICML 2015), Thm 3.3
(optimal homogeneous composition; the heterogeneous form of advanced composition); Balle & Wang,
"Improving the Gaussian Mechanism for Differential Privacy" (ICML 2018), Thm 8 (analytic
Gaussian); McSherry–Talwar 2007 / Dwork & Roth Thm 3.10 (exponential mechanism), Claim 3.9
(report noisy max), Thm 3.23 and 3.25/3.26 (AboveThreshold and Sparse).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np
import sympy
from scipy.optimize import brentq

from ..numeric import (
    InvalidParameter,
    RegimeError,
    as_nonempty_list,
    check_int,
    check_real,
    enclosure,
    float_down,
    float_up,
    iv_prec,
    nudge_until,
)
from ..results import Bound, DPGuarantee
from .registry import Param, Theorem, register

__all__ = [
    "DPGuarantee",
    "basic_composition",
    "advanced_composition",
    "compose_dp",
    "laplace_epsilon",
    "laplace_scale",
    "gaussian_sigma",
    "optimal_composition_delta",
    "optimal_composition",
    "kov_eps_float",
    "gaussian_delta",
    "gaussian_epsilon",
    "analytic_gaussian_sigma",
    "exponential_mechanism_epsilon",
    "exponential_mechanism_coefficient",
    "report_noisy_max_epsilon",
    "above_threshold_epsilon",
    "sparse_vector",
    "sparse_vector_scales",
    "dp_max_information",
    "from_dp_event",
]


def _steps(steps: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    items = as_nonempty_list("steps", steps, "(eps, delta) pairs")
    out = []
    for i, st in enumerate(items):
        try:
            e, d = st
        except (TypeError, ValueError) as exc:
            raise InvalidParameter(f"steps[{i}]", st, "an (eps, delta) pair") from exc
        out.append((float(check_real(f"steps[{i}].eps", e, low=0.0)),
                    float(check_real(f"steps[{i}].delta", d, low=0.0, high=1.0))))
    return out


def basic_composition(steps: Sequence[tuple[float, float]]) -> DPGuarantee:
    r"""k adaptive steps, step i (eps_i, delta_i)-DP, are (Σ eps_i, Σ delta_i)-DP.

    Theorem: Dwork & Roth Thm 3.16 (basic composition; adaptive, as in Thm 3.20's setting).
    Returns: exact sums of the inputs, rounded up.

    >>> basic_composition([(0.5, 1e-6)] * 4)
    DPGuarantee(eps=2.0, delta=4e-06, theorem='DR-3.16', conditions=('4 adaptive steps',))
    """
    items = _steps(steps)
    e = float_up(sum((Fraction(x) for x, _ in items), Fraction(0)))
    d = float_up(sum((Fraction(y) for _, y in items), Fraction(0)))
    return DPGuarantee(e, min(d, 1.0), "DR-3.16", (f"{len(items)} adaptive steps",))


def advanced_composition(steps: Sequence[tuple[float, float]], delta_prime: float, *,
                         dps: int = 30) -> DPGuarantee:
    r"""Advanced composition of adaptive (eps_i, delta_i)-DP steps, for a slack delta'.

    .. math:: \varepsilon' = \sqrt{2\ln(1/\delta')\textstyle\sum_i \varepsilon_i^2}
              + \textstyle\sum_i \varepsilon_i (e^{\varepsilon_i} - 1),
              \qquad \delta_{\mathrm{total}} = \textstyle\sum_i \delta_i + \delta'

    Theorem: Dwork & Roth Thm 3.20 (Dwork–Rothblum–Vadhan) for equal steps, where it reads
    ``eps sqrt(2k ln(1/delta')) + k eps (e^eps - 1)``; the heterogeneous form as in
    Kairouz–Oh–Viswanath (2015). The result is never worse than basic composition: the smaller
    ``eps`` of the two is returned (both are valid at ``delta_total``, which is at least the
    basic ``Σ delta_i``).
    Conditions: ``delta'`` in (0, 1).
    Returns: a :class:`DPGuarantee`, both parameters rounded up.

    >>> g = advanced_composition([(0.1, 0.0)] * 100, 1e-6)
    >>> round(g.eps, 6), g.delta   # 0.1 sqrt(200 ln 1e6) + 10 (e^0.1 - 1) = 6.30823095... (30 digits)
    (6.308231, 1e-06)
    """
    items = _steps(steps)
    dp = float(check_real("delta_prime", delta_prime, low=0.0, high=1.0, low_open=True,
                          high_open=True))

    counts = Counter(e for e, _ in items)  # equal steps are evaluated once, times their count

    def eps_total(iv: Any) -> Any:
        s2 = sum((c * iv.mpf(e) ** 2 for e, c in counts.items()), iv.mpf(0))
        lin = sum((c * iv.mpf(e) * (iv.exp(iv.mpf(e)) - 1) for e, c in counts.items()), iv.mpf(0))
        return iv.sqrt(2 * iv.log(1 / iv.mpf(dp)) * s2) + lin

    adv = enclosure(eps_total, prec=iv_prec(dps))[1]
    basic = basic_composition(items)
    d = float_up(sum((Fraction(y) for _, y in items), Fraction(0)) + Fraction(dp))
    return DPGuarantee(min(adv, basic.eps), min(d, 1.0), "DR-3.20",
                       (f"{len(items)} adaptive steps", f"delta' = {dp!r}",
                        "min with basic composition"))


def compose_dp(steps: Sequence[tuple[float, float]], delta_total: float, *,
               dps: int = 30) -> DPGuarantee:
    """The smallest eps this module can certify for the steps at a total delta budget.

    Advanced composition with ``delta' = delta_total - Σ delta_i`` (its eps decreases in
    delta', so the whole remaining budget is used), or basic composition when no budget
    remains. Raises InvalidParameter if ``delta_total < Σ delta_i``.

    >>> compose_dp([(0.1, 0.0)] * 100, 1e-6).eps == advanced_composition([(0.1, 0.0)] * 100, 1e-6).eps
    True
    """
    items = _steps(steps)
    dt = Fraction(check_real("delta_total", delta_total, low=0.0, high=1.0, high_open=True))
    used = sum((Fraction(y) for _, y in items), Fraction(0))
    if dt < used:
        raise InvalidParameter("delta_total", delta_total,
                               f"at least the steps' total delta {float(used)!r}")
    if dt == used:
        return basic_composition(items)
    slack = dt - used
    dp = float(slack)
    if Fraction(dp) > slack:  # keep delta' at or below the remaining budget
        dp = math.nextafter(dp, 0.0)
    return advanced_composition(items, dp, dps=dps)


def laplace_epsilon(sensitivity: float, scale: float) -> float:
    r"""Privacy of the Laplace mechanism: noise Lap(b) on an L1-sensitivity-Δ query is (Δ/b, 0)-DP.

    Theorem: Dwork & Roth Thm 3.6. Returns ``eps = Δ/b`` rounded up (nats).

    >>> laplace_epsilon(1.0, 10.0)
    0.1
    """
    return _ratio_up("sensitivity", sensitivity, "scale", scale)


def laplace_scale(sensitivity: float, eps: float) -> float:
    """The Laplace scale ``b = Δ/eps`` for (eps, 0)-DP, rounded up (more noise is safe).

    >>> laplace_scale(1.0, 0.1)   # 1/0.1 with 0.1 read exactly = 9.99999999999999944..., up: 10
    10.0
    """
    return _ratio_up("sensitivity", sensitivity, "eps", eps)


def _ratio_up(num_name: str, num: float, den_name: str, den: float) -> float:
    """``num/den`` for two positive finite reals (check_real refuses inf), exact, rounded up."""
    a = check_real(num_name, num, low=0.0, low_open=True)
    b = check_real(den_name, den, low=0.0, low_open=True)
    return float_up(Fraction(a) / Fraction(b))


def gaussian_sigma(sensitivity: float, eps: float, delta: float, *, strict: bool = True,
                   dps: int = 30) -> float:
    r"""Classic Gaussian mechanism: σ ≥ Δ₂ sqrt(2 ln(1.25/δ))/ε gives (ε, δ)-DP for ε < 1.

    Theorem: Dwork & Roth Thm A.1. Conditions: ``eps`` in (0, 1) (RegimeError otherwise;
    ``strict=False`` returns the formula's value, which is then not a proven calibration),
    ``delta`` in (0, 1). Returns sigma rounded up.

    >>> round(gaussian_sigma(1.0, 0.5, 1e-5), 6)     # 2 sqrt(2 ln 125000) = 9.68961... (30 digits)
    9.689611
    """
    s = float(check_real("sensitivity", sensitivity, low=0.0, low_open=True))
    e = float(check_real("eps", eps, low=0.0, low_open=True))
    d = float(check_real("delta", delta, low=0.0, high=1.0, low_open=True, high_open=True))
    if not e < 1 and strict:
        raise RegimeError("Dwork-Roth Thm A.1", "eps", e, "eps in (0, 1)")
    return enclosure(lambda iv: iv.mpf(s) * iv.sqrt(2 * iv.log(iv.mpf(5) / 4 / iv.mpf(d)))
                     / iv.mpf(e), prec=iv_prec(dps))[1]


# --------------------------------------------------------------------------------------------
# Optimal homogeneous composition (Kairouz–Oh–Viswanath 2015, Thm 3.3)
# --------------------------------------------------------------------------------------------

def _kov_checked(eps: float, delta: float, k: int) -> tuple[float, float, int]:
    e = float(check_real("eps", eps, low=0.0))
    d = float(check_real("delta", delta, low=0.0, high=1.0, high_open=True))
    return e, d, check_int("k", k, low=1)


def _kov_delta_enclosure(eps: float, delta: float, k: int, eps_total: float,
                         prec: int) -> tuple[float, float]:
    """Certified enclosure of the optimal delta of k-fold (eps, delta) at ``eps_total``."""
    fe, fg = Fraction(eps), Fraction(eps_total)
    # the positive terms are l = 0 .. top - 1, decided exactly: (k - 2l) eps > eps_total
    top = sum(1 for l in range(k + 1) if (k - 2 * l) * fe > fg)

    def f(iv: Any) -> Any:
        E = iv.exp(iv.mpf(eps))
        eg = iv.exp(iv.mpf(eps_total))
        s = iv.mpf(0)
        a = E ** k          # C(k, l) E^(k-l), updated term by term
        b = iv.mpf(1)       # C(k, l) E^l
        for l in range(top):
            s += a - eg * b
            a = a * (k - l) / ((l + 1) * E)
            b = b * (k - l) * E / (l + 1)
        keep = (1 - iv.mpf(delta)) ** k
        return 1 - keep + keep * (s / (1 + E) ** k)

    return enclosure(f, prec=prec)


def _kov_delta_float(eps: float, delta: float, k: int, eps_total: float) -> float:
    """Float surrogate of the same quantity (log-space sum), for root finding only."""
    from scipy.special import gammaln

    ls = np.arange(k + 1, dtype=np.float64)
    lz = k * float(np.logaddexp(0.0, eps))
    lgc = gammaln(k + 1.0) - gammaln(ls + 1.0) - gammaln(k - ls + 1.0)
    a = lgc + (k - ls) * eps - lz
    b = lgc + eps_total + ls * eps - lz
    m = a > b
    d0 = float(np.sum(np.exp(a[m]) * -np.expm1(b[m] - a[m])))
    lost = -math.expm1(k * math.log1p(-delta))
    return lost + (1.0 - lost) * d0


def kov_eps_float(eps: float, delta: float, k: int, delta_total: float) -> float:
    """Float estimate of the optimal eps_total (not certified; root of the float surrogate)."""
    def f(x: float) -> float:
        return math.log(max(_kov_delta_float(eps, delta, k, x), 1e-320)) - math.log(delta_total)

    hi = k * eps
    if f(0.0) <= 0:
        return 0.0
    return hi if f(hi) >= 0 else float(brentq(f, 0.0, hi, xtol=1e-15, rtol=1e-15))


def optimal_composition_delta(eps: float, delta: float, k: int, eps_total: float, *,
                              dps: int = 30) -> float:
    r"""The exact smallest delta such that every k-fold adaptive composition of (eps, delta)-DP
    mechanisms is (eps_total, delta)-DP.

    .. math:: \delta(\varepsilon_g) = 1 - (1-\delta)^k + (1-\delta)^k
              \frac{\sum_{l=0}^{k} \binom{k}{l}\,\big(e^{(k-l)\varepsilon}
              - e^{\varepsilon_g} e^{l\varepsilon}\big)_+}{(1+e^{\varepsilon})^k}

    Theorem: Kairouz–Oh–Viswanath (2015) Thm 3.3: the k-fold (eps, delta) randomized response
    dominates every k-fold composition, so the formula (its hockey-stick divergence at
    e^{eps_total}) is optimal; at eps_total = (k - 2i) eps it is the theorem's delta_i.
    Returns: delta rounded up (interval arithmetic over all k + 1 terms, exact binomials).

    >>> optimal_composition_delta(1.0, 0.0, 2, 0.0)   # (e^2 - 1)/(1 + e)^2 = tanh(1/2) = 0.4621171572600097585...
    0.4621171572600098
    """
    e, d, kk = _kov_checked(eps, delta, k)
    g = float(check_real("eps_total", eps_total, low=0.0))
    return min(_kov_delta_enclosure(e, d, kk, g, iv_prec(dps))[1], 1.0)


def optimal_composition(eps: float, delta: float, k: int, delta_total: float, *,
                        dps: int = 30) -> DPGuarantee:
    r"""The smallest eps_total with which k adaptive (eps, delta)-DP steps are
    (eps_total, delta_total)-DP: the optimal homogeneous composition.

    Theorem: Kairouz–Oh–Viswanath (2015) Thm 3.3 (see :func:`optimal_composition_delta`).
    Conditions: ``delta_total >= 1 - (1 - delta)^k`` (no eps reaches less).
    Returns: eps_total rounded up: the returned value is certified (its delta, evaluated in
    interval arithmetic, is at most ``delta_total``) and within about 10^-14 relative of the
    exact optimum.
    It is never larger than advanced composition at the same total delta.

    >>> g = optimal_composition(0.1, 0.0, 100, 1e-6)
    >>> g.eps < advanced_composition([(0.1, 0.0)] * 100, 1e-6).eps
    True
    """
    e, d, kk = _kov_checked(eps, delta, k)
    dt = float(check_real("delta_total", delta_total, low=0.0, high=1.0))
    prec = iv_prec(dps)
    conds = (f"{kk} adaptive steps, each ({e!r}, {d!r})-DP", "homogeneous steps")

    def ok(x: float) -> bool:
        return _kov_delta_enclosure(e, d, kk, x, prec)[1] <= dt

    full = float_up(kk * Fraction(e))
    if not ok(full):
        floor = enclosure(lambda iv: 1 - (1 - iv.mpf(d)) ** kk, prec=prec)[1]
        raise InvalidParameter("delta_total", delta_total,
                               f"at least 1 - (1 - delta)^k = {floor!r} (KOV15 Thm 3.3)")
    if _kov_delta_float(e, d, kk, 0.0) <= dt * (1 + 1e-9) and ok(0.0):
        return DPGuarantee(0.0, dt, "KOV15-3.3", conds)

    x = kov_eps_float(e, d, kk, dt)
    # the float surrogate sums up to k terms: start the certified search at 2^-44 relative
    x = nudge_until(x, ok, up=True, rel_step=2.0**-44)
    return DPGuarantee(min(x, full), dt, "KOV15-3.3", conds)


# --------------------------------------------------------------------------------------------
# Gaussian mechanism, analytic calibration (Balle & Wang 2018, Thm 8)
# --------------------------------------------------------------------------------------------

_AG_DPS = 50


def _ag_delta_bounds(s: float, sigma: float, eps: float) -> tuple[Any, Any]:
    """Enclosure of Phi(s/2σ - εσ/s) - e^ε Phi(-s/2σ - εσ/s) (Balle–Wang Thm 8).

    mpmath has no interval erfc, so the two terms are evaluated at 50 digits and the difference
    is widened by (|t1| + |t2|) 10^-40, far above mpmath's own error (it evaluates special
    functions with guard digits to the working precision).
    """
    with mpmath.workdps(_AG_DPS):
        S, sg, e = mpmath.mpf(s), mpmath.mpf(sigma), mpmath.mpf(eps)
        a = S / (2 * sg) - e * sg / S
        b = -S / (2 * sg) - e * sg / S
        t1 = mpmath.ncdf(a)
        t2 = mpmath.exp(e) * mpmath.ncdf(b)
        err = (t1 + t2) * mpmath.mpf(10) ** -40
        return t1 - t2 - err, t1 - t2 + err


def _ag_log_delta(s: float, sigma: float, eps: float) -> float:
    """Float surrogate of log delta (root finding only)."""
    from scipy.stats import norm

    a = s / (2 * sigma) - eps * sigma / s
    b = -s / (2 * sigma) - eps * sigma / s
    l1 = float(norm.logcdf(a))
    l2 = eps + float(norm.logcdf(b))
    if not l2 < l1:
        return -745.0
    return l1 + math.log(-math.expm1(l2 - l1))


def _gauss_args(sensitivity: float, **kw: float) -> tuple[float, ...]:
    out = [float(check_real("sensitivity", sensitivity, low=0.0, low_open=True))]
    for name, v in kw.items():
        if name == "delta":
            out.append(float(check_real("delta", v, low=0.0, high=1.0, low_open=True,
                                        high_open=True)))
        elif name == "eps":
            out.append(float(check_real("eps", v, low=0.0)))
        else:
            out.append(float(check_real(name, v, low=0.0, low_open=True)))
    return tuple(out)


def gaussian_delta(sigma: float, sensitivity: float, eps: float) -> float:
    r"""The exact delta of the Gaussian mechanism N(0, sigma^2) at eps (Balle–Wang 2018 Thm 8).

    .. math:: \delta = \Phi\Big(\frac{\Delta}{2\sigma} - \frac{\varepsilon\sigma}{\Delta}\Big)
              - e^{\varepsilon}\,\Phi\Big(-\frac{\Delta}{2\sigma} - \frac{\varepsilon\sigma}{\Delta}\Big)

    ``sensitivity`` is the L2 sensitivity Δ. The mechanism is (eps, delta)-DP for exactly the
    delta returned or more (the condition is necessary and sufficient). Returns delta rounded up.

    >>> gaussian_delta(1.0, 1.0, 0.0)                 # 2 Phi(1/2) - 1 = 0.382924922548026207...
    0.38292492254802624
    """
    s, sg, e = _gauss_args(sensitivity, sigma=sigma, eps=eps)
    return min(max(float_up(_ag_delta_bounds(s, sg, e)[1]), 0.0), 1.0)


def gaussian_epsilon(sigma: float, sensitivity: float, delta: float) -> float:
    """The smallest eps (nats) with which N(0, sigma^2) noise is (eps, delta)-DP (Balle–Wang Thm 8).

    Returns eps rounded up: its delta, evaluated as in :func:`gaussian_delta`, is certified to
    be at most ``delta``.

    >>> gaussian_epsilon(1.0, 1.0, 0.38292492254802624)   # at or above delta(0): eps = 0
    0.0
    >>> 0 < gaussian_epsilon(1.0, 1.0, 0.3829249225480262) < 1e-15   # just below it
    True
    """
    s, sg, d = _gauss_args(sensitivity, sigma=sigma, delta=delta)

    def ok(x: float) -> bool:
        return bool(_ag_delta_bounds(s, sg, x)[1] <= d)

    if ok(0.0):
        return 0.0
    hi = 1.0
    while _ag_log_delta(s, sg, hi) > math.log(d):
        hi *= 2
        if hi > 1e12:  # pragma: no cover - delta > 0 is always reached before this
            raise ArithmeticError("gaussian_epsilon: no bracket")
    x = float(brentq(lambda t: _ag_log_delta(s, sg, t) - math.log(d), 0.0, hi,
                     xtol=1e-15, rtol=1e-15))
    return nudge_until(x, ok, up=True)


def analytic_gaussian_sigma(sensitivity: float, eps: float, delta: float) -> float:
    r"""The smallest sigma with which N(0, sigma^2) noise on an L2-sensitivity-Δ query is
    (eps, delta)-DP: the analytic Gaussian mechanism (Balle & Wang 2018, Thm 8 / Alg. 1).

    Valid for every eps > 0 (unlike the classic calibration, which needs eps < 1), and never
    larger than it. Returns sigma rounded up: its delta is certified to be at most ``delta``.

    >>> s = analytic_gaussian_sigma(1.0, 0.5, 1e-5)
    >>> round(s, 6), s < gaussian_sigma(1.0, 0.5, 1e-5)   # classic: 9.689611
    (7.031827, True)
    """
    s, e, d = _gauss_args(sensitivity, eps=eps, delta=delta)
    if e == 0:
        raise InvalidParameter("eps", eps, "(0, inf)")

    def ok(x: float) -> bool:
        return bool(_ag_delta_bounds(s, x, e)[1] <= d)

    lo, hi = math.log(s) - 10.0, math.log(s) + 1.0
    while _ag_log_delta(s, math.exp(hi), e) > math.log(d):
        hi += 2.0
    while _ag_log_delta(s, math.exp(lo), e) < math.log(d):
        lo -= 2.0
    x = math.exp(float(brentq(lambda t: _ag_log_delta(s, math.exp(t), e) - math.log(d), lo, hi,
                              xtol=1e-15, rtol=1e-15)))
    return nudge_until(x, ok, up=True)


# --------------------------------------------------------------------------------------------
# Exponential mechanism, report noisy max, sparse vector
# --------------------------------------------------------------------------------------------

def exponential_mechanism_epsilon(sensitivity: float, coefficient: float, *,
                                  monotone: bool = False) -> DPGuarantee:
    r"""Privacy of the exponential mechanism that outputs r with probability ∝ exp(c·u(x, r)).

    With Δu the sensitivity of the score u: (2 c Δu, 0)-DP (McSherry–Talwar; Dwork & Roth
    Thm 3.10 with c = eps / (2Δu)); (c Δu, 0)-DP when every score moves in the same direction
    between neighbours (``monotone=True``, Dwork & Roth §3.4 remark). eps rounded up.

    >>> exponential_mechanism_epsilon(1.0, 0.25).eps
    0.5
    """
    s = Fraction(check_real("sensitivity", sensitivity, low=0.0, low_open=True))
    c = Fraction(check_real("coefficient", coefficient, low=0.0, low_open=True))
    e = float_up(c * s * (1 if monotone else 2))
    return DPGuarantee(e, 0.0, "DR-3.10", ("monotone scores",) if monotone else ())


def exponential_mechanism_coefficient(sensitivity: float, eps: float, *,
                                      monotone: bool = False) -> float:
    """The coefficient c = eps / (2Δu) (eps/Δu if monotone) for eps-DP, rounded **down**.

    >>> exponential_mechanism_coefficient(1.0, 0.5)
    0.25
    """
    s = Fraction(check_real("sensitivity", sensitivity, low=0.0, low_open=True))
    e = Fraction(check_real("eps", eps, low=0.0, low_open=True))
    return float_down(e / (s * (1 if monotone else 2)))


def report_noisy_max_epsilon(sensitivity: float, scale: float, *,
                             monotone: bool = False) -> DPGuarantee:
    r"""Report noisy max (the index of the largest of the scores plus i.i.d. Lap(b) noise).

    Theorem: Dwork & Roth Claim 3.9. (Δ/b, 0)-DP for monotone scores such as counting queries (stated
    there for counts with Lap(1/eps)); (2Δ/b, 0)-DP for arbitrary sensitivity-Δ scores (each
    score and the comparison level can move by Δ). eps rounded up.

    >>> report_noisy_max_epsilon(1.0, 10.0, monotone=True).eps
    0.1
    """
    s = Fraction(check_real("sensitivity", sensitivity, low=0.0, low_open=True))
    b = Fraction(check_real("scale", scale, low=0.0, low_open=True))
    e = float_up(s / b * (1 if monotone else 2))
    return DPGuarantee(e, 0.0, "DR-3.9", ("monotone scores",) if monotone else ())


def above_threshold_epsilon(sensitivity: float, threshold_scale: float,
                            query_scale: float) -> float:
    r"""AboveThreshold (one positive answer): threshold noise Lap(b1), query noise Lap(b2).

    eps = Δ/b1 + 2Δ/b2 (Dwork & Roth Thm 3.23, stated for b1 = 2Δ/eps, b2 = 4Δ/eps; its proof
    spends Δ/b1 on the threshold and 2Δ/b2 on the query that stops). Rounded up.

    >>> above_threshold_epsilon(1.0, 2.0, 4.0)      # Lap(2/eps), Lap(4/eps) at eps = 1
    1.0
    """
    s = Fraction(check_real("sensitivity", sensitivity, low=0.0, low_open=True))
    b1 = Fraction(check_real("threshold_scale", threshold_scale, low=0.0, low_open=True))
    b2 = Fraction(check_real("query_scale", query_scale, low=0.0, low_open=True))
    return float_up(s / b1 + 2 * s / b2)


def sparse_vector(c: int, threshold_scale: float, query_scale: float, *,
                  sensitivity: float = 1.0, delta: float = 0.0) -> DPGuarantee:
    r"""Sparse vector with c positive answers (Dwork & Roth Alg. 2 "Sparse": AboveThreshold
    restarted with fresh threshold noise after each positive answer).

    The c runs compose: basic composition gives (c·eps1, 0) (Dwork & Roth Thm 3.25); with
    ``delta > 0`` the better of basic and advanced composition at total ``delta`` (Thm 3.26's
    route, with delta' optimised rather than its closed form). eps1 is
    :func:`above_threshold_epsilon`.

    >>> sparse_vector(5, 2.0, 4.0).eps               # 5 runs of a 1-DP AboveThreshold
    5.0
    """
    cc = check_int("c", c, low=1)
    e1 = above_threshold_epsilon(sensitivity, threshold_scale, query_scale)
    d = float(check_real("delta", delta, low=0.0, high=1.0, high_open=True))
    g = compose_dp([(e1, 0.0)] * cc, d) if d > 0 else basic_composition([(e1, 0.0)] * cc)
    return DPGuarantee(g.eps, g.delta, "DR-3.25" if d == 0 else "DR-3.26",
                       (f"c = {cc} positive answers", f"per run eps = {e1!r}", *g.conditions))


def sparse_vector_scales(c: int, eps: float, *, sensitivity: float = 1.0,
                         delta: float = 0.0) -> tuple[float, float]:
    """Noise scales (threshold b1, query b2 = 2 b1) making :func:`sparse_vector` (eps, delta)-DP.

    The per-run budget eps1 is the largest float whose composition over c runs is certified
    at most ``eps``; b1 = 2Δ/eps1 and b2 = 4Δ/eps1 (Dwork & Roth's split), rounded up.

    >>> sparse_vector_scales(5, 5.0)
    (2.0, 4.0)
    """
    cc = check_int("c", c, low=1)
    e = float(check_real("eps", eps, low=0.0, low_open=True))
    s = Fraction(check_real("sensitivity", sensitivity, low=0.0, low_open=True))
    d = float(check_real("delta", delta, low=0.0, high=1.0, high_open=True))

    def total(e1: float) -> float:
        steps = [(e1, 0.0)] * cc
        return compose_dp(steps, d).eps if d > 0 else basic_composition(steps).eps

    def ok(e1: float) -> bool:
        b1 = float_up(2 * s / Fraction(e1))
        b2 = float_up(4 * s / Fraction(e1))
        return sparse_vector(cc, b1, b2, sensitivity=float(s), delta=d).eps <= e

    guess = e / cc  # basic composition's per-run budget; with delta > 0 search above it
    if d > 0 and total(guess) <= e:
        guess = e if total(e) <= e else float(
            brentq(lambda x: total(x) - e, e / cc, e, xtol=1e-15, rtol=1e-13))
    e1 = nudge_until(guess, ok, up=False)
    return float_up(2 * s / Fraction(e1)), float_up(4 * s / Fraction(e1))


# --------------------------------------------------------------------------------------------
# Conversion to max-information, and interop
# --------------------------------------------------------------------------------------------

def dp_max_information(guarantee: DPGuarantee, n: int, *, iid: bool = False,
                       beta: float | None = None) -> Bound:
    """The best max-information bound (bits) of the catalog for an (eps, delta)-DP step on n records.

    * delta = 0: RRST Thm 1.4a (any data, beta = 0); with ``iid=True`` and a ``beta``, also
      Thm 1.4b; the smaller k is returned.
    * delta > 0: RRST Thm 3.1 (sound variant) at ``beta`` (or the paper's choice), only with
      ``iid=True``: approximate DP gives no max-information bound for other data (RRST §4), so
      RegimeError otherwise.

    >>> dp_max_information(DPGuarantee(0.01, 0.0, "given"), 100).theorem
    'RRST-1.4a'
    """
    from .maxinfo_dp import (
        approx_dp_max_information,
        pure_dp_max_information,
        pure_dp_max_information_product,
    )

    if not isinstance(guarantee, DPGuarantee):
        raise InvalidParameter("guarantee", guarantee, "a DPGuarantee")
    ni = check_int("n", n, low=1)
    if beta is not None:
        check_real("beta", beta, low=0.0, high=1.0, low_open=True, high_open=True)
        if not iid:
            raise InvalidParameter("beta", beta, "omitted unless iid=True (beta is the i.i.d. "
                                   "bounds' parameter: RRST Thm 1.4b / 3.1)")
    if guarantee.delta > 0:
        if not iid:
            raise RegimeError("RRST Thm 3.1 / §4", "iid", False,
                              "True: approximate DP bounds max-information only for i.i.d. data")
        approx: Bound = approx_dp_max_information(guarantee.eps, guarantee.delta, ni, beta=beta)
        return approx
    if guarantee.eps == 0:
        return Bound(k=0.0, beta=0.0, theorem="RRST-1.4a", conditions=("eps = 0",),
                     variant="exact")
    best: Bound = pure_dp_max_information(guarantee.eps, ni)
    if iid and beta is not None:
        prod: Bound = pure_dp_max_information_product(guarantee.eps, ni, beta)
        if prod.k < best.k:
            best = prod
    return best


def from_dp_event(event: Any, delta: float, *,
                  value_discretization_interval: float = 1e-4) -> DPGuarantee:
    """(eps, delta) of a Google ``dp_accounting`` DpEvent, from its PLD accountant.

    Needs the optional extra: ``pip install "maxinfo_bounds[accounting]"``. The accountant uses
    pessimistic discretisation (an upper bound on eps up to its floating-point arithmetic, which
    is not certified here); eps is rounded up one ulp. The result feeds
    :func:`dp_max_information` and the planner.
    """
    try:
        from dp_accounting import pld
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("from_dp_event needs dp_accounting: "
                          "pip install 'maxinfo_bounds[accounting]'") from exc
    d = float(check_real("delta", delta, low=0.0, high=1.0, low_open=True, high_open=True))
    acc = pld.PLDAccountant(value_discretization_interval=float(check_real(
        "value_discretization_interval", value_discretization_interval, low=0.0, low_open=True)))
    try:
        acc.compose(event)
    except Exception as exc:
        raise InvalidParameter("event", event, "a DpEvent the PLD accountant supports") from exc
    eps = float(acc.get_epsilon(d))
    return DPGuarantee(math.nextafter(max(eps, 0.0), math.inf), d, "dp_accounting PLD",
                       ("pessimistic PLD discretisation",
                        f"value_discretization_interval = {value_discretization_interval!r}"))


def _advanced_homogeneous(eps: float, delta: float, k: int, delta_prime: float) -> DPGuarantee:
    """k equal steps: Theorem: Dwork & Roth Thm 3.20 (see :func:`advanced_composition`)."""
    return advanced_composition([(eps, delta)] * check_int("k", k, low=1), delta_prime)


register(Theorem(
    id="DR-3.20", paper="Dwork-Roth", number="Thm 3.20 (advanced composition, DRV10)",
    title="Advanced composition of adaptive (eps, delta)-DP steps",
    latex=(r"\varepsilon' = \varepsilon\sqrt{2k\ln(1/\delta')} + k\varepsilon(e^{\varepsilon}-1),"
           r"\ \delta_{\mathrm{total}} = k\delta + \delta'"),
    conditions=("k adaptive steps, each (eps, delta)-DP", "0 < delta' < 1",
                "eps returned is the smaller of advanced and basic"),
    units="eps in nats",
    params=(Param("eps", float, "[0, inf)", "per-step eps, nats"),
            Param("delta", float, "[0, 1]", "per-step delta"),
            Param("k", int, "[1, inf) integer", "number of steps"),
            Param("delta_prime", float, "(0, 1)", "slack delta'")),
    evaluator=_advanced_homogeneous,
    sympy_statement=lambda: (sympy.Symbol("epsilon") * sympy.sqrt(
        2 * sympy.Symbol("k") * sympy.log(1 / sympy.Symbol("delta_prime")))
        + sympy.Symbol("k") * sympy.Symbol("epsilon") * (sympy.exp(sympy.Symbol("epsilon")) - 1)),
    returns="DPGuarantee(eps rounded up, delta rounded up)",
    value_name="eps_nats",
))


def _kov(eps: float, delta: float, k: int, delta_total: float) -> DPGuarantee:
    """Theorem: Kairouz–Oh–Viswanath (2015) Thm 3.3 (see :func:`optimal_composition`)."""
    return optimal_composition(eps, delta, k, delta_total)


def _kov_statement() -> Any:
    k, l, e, eg, d = sympy.symbols("k l epsilon epsilon_g delta", nonnegative=True)
    keep = (1 - d) ** k
    return 1 - keep + keep * sympy.Sum(
        sympy.binomial(k, l) * sympy.Max(0, sympy.exp((k - l) * e) - sympy.exp(eg + l * e)),
        (l, 0, k)) / (1 + sympy.exp(e)) ** k


register(Theorem(
    id="KOV15-3.3", paper="KOV15", number="Thm 3.3 (optimal composition)",
    title="Optimal homogeneous composition of k adaptive (eps, delta)-DP steps",
    latex=(r"\delta(\varepsilon_g) = 1-(1-\delta)^k + (1-\delta)^k \frac{\sum_{l}\binom{k}{l}"
           r"(e^{(k-l)\varepsilon} - e^{\varepsilon_g+l\varepsilon})_+}{(1+e^\varepsilon)^k}"),
    conditions=("k adaptive steps, each (eps, delta)-DP (same eps, delta)",
                "delta_total >= 1 - (1 - delta)^k"),
    units="eps in nats",
    params=(Param("eps", float, "[0, inf)", "per-step eps, nats"),
            Param("delta", float, "[0, 1)", "per-step delta"),
            Param("k", int, "[1, inf) integer", "number of steps"),
            Param("delta_total", float, "[1-(1-delta)^k, 1]", "target total delta")),
    evaluator=_kov, sympy_statement=_kov_statement,
    returns="DPGuarantee(smallest eps_total rounded up, delta_total)",
    value_name="eps_nats",
))


def _ag(sensitivity: float, eps: float, delta: float) -> float:
    """Theorem: Balle & Wang (2018) Thm 8 (see :func:`analytic_gaussian_sigma`)."""
    return analytic_gaussian_sigma(sensitivity, eps, delta)


def _ag_statement() -> Any:
    s, sg, e = sympy.symbols("Delta sigma epsilon", positive=True)

    def phi(x: Any) -> Any:
        return (1 + sympy.erf(x / sympy.sqrt(2))) / 2

    return phi(s / (2 * sg) - e * sg / s) - sympy.exp(e) * phi(-s / (2 * sg) - e * sg / s)


register(Theorem(
    id="BW18-8", paper="Balle-Wang", number="Thm 8 (analytic Gaussian mechanism)",
    title="Analytic calibration of the Gaussian mechanism",
    latex=(r"\Phi\!\left(\tfrac{\Delta}{2\sigma}-\tfrac{\varepsilon\sigma}{\Delta}\right)"
           r"- e^{\varepsilon}\Phi\!\left(-\tfrac{\Delta}{2\sigma}-\tfrac{\varepsilon\sigma}"
           r"{\Delta}\right) \le \delta"),
    conditions=("L2 sensitivity Delta", "eps > 0, 0 < delta < 1",
                "necessary and sufficient for (eps, delta)-DP"),
    units="eps in nats; sigma in the query's units",
    params=(Param("sensitivity", float, "(0, inf)", "L2 sensitivity Delta"),
            Param("eps", float, "(0, inf)", "target eps, nats"),
            Param("delta", float, "(0, 1)", "target delta")),
    evaluator=_ag, sympy_statement=_ag_statement,
    returns="smallest sigma, rounded up",
    value_name="sigma",
))


def _sparse(c: int, threshold_scale: float, query_scale: float, sensitivity: float) -> DPGuarantee:
    """Theorem: Dwork & Roth Thm 3.25 (see :func:`sparse_vector`)."""
    return sparse_vector(c, threshold_scale, query_scale, sensitivity=sensitivity)


register(Theorem(
    id="DR-3.25", paper="Dwork-Roth", number="Thm 3.23, 3.25 (sparse vector)",
    title="Sparse vector: c AboveThreshold runs with threshold noise Lap(b1), query noise Lap(b2)",
    latex=r"\varepsilon = c\left(\frac{\Delta}{b_1} + \frac{2\Delta}{b_2}\right)",
    conditions=("threshold noise redrawn after each positive answer (DR Alg. 2)",
                "queries of sensitivity Delta", "stops after c positive answers"),
    units="eps in nats",
    params=(Param("c", int, "[1, inf) integer", "positive answers"),
            Param("threshold_scale", float, "(0, inf)", "Laplace scale b1 of the threshold"),
            Param("query_scale", float, "(0, inf)", "Laplace scale b2 of each query"),
            Param("sensitivity", float, "(0, inf)", "query sensitivity Delta")),
    evaluator=_sparse,
    sympy_statement=lambda: sympy.Symbol("c") * (sympy.Symbol("Delta") / sympy.Symbol("b1")
                                                 + 2 * sympy.Symbol("Delta") / sympy.Symbol("b2")),
    returns="DPGuarantee(eps rounded up, 0)",
    value_name="eps_nats",
))


def _laplace(sensitivity: float, scale: float) -> float:
    """Theorem: Dwork & Roth Thm 3.6 (see :func:`laplace_epsilon`)."""
    return laplace_epsilon(sensitivity, scale)


register(Theorem(
    id="DR-3.6", paper="Dwork-Roth", number="Thm 3.6 (Laplace mechanism)",
    title="Laplace noise Lap(b) on an L1-sensitivity-Delta query is (Delta/b, 0)-DP",
    latex=r"\varepsilon = \Delta_1 / b",
    conditions=("L1 sensitivity Delta over neighbouring datasets", "noise Lap(b), b > 0"),
    units="eps in nats",
    params=(Param("sensitivity", float, "(0, inf)", "L1 sensitivity Delta"),
            Param("scale", float, "(0, inf)", "Laplace scale b")),
    evaluator=_laplace,
    sympy_statement=lambda: sympy.Symbol("Delta") / sympy.Symbol("b"),
    returns="eps rounded up", value_name="eps_nats",
))


def _basic(eps: float, delta: float, k: int) -> DPGuarantee:
    """Theorem: Dwork & Roth Thm 3.16 (see :func:`basic_composition`)."""
    return basic_composition([(eps, delta)] * check_int("k", k, low=1))


register(Theorem(
    id="DR-3.16", paper="Dwork-Roth", number="Thm 3.16 (basic composition)",
    title="k adaptive (eps, delta)-DP steps are (k eps, k delta)-DP",
    latex=r"(\textstyle\sum_i \varepsilon_i,\ \sum_i \delta_i)",
    conditions=("k adaptive steps, step i (eps_i, delta_i)-DP",),
    units="eps in nats",
    params=(Param("eps", float, "[0, inf)", "per-step eps, nats"),
            Param("delta", float, "[0, 1]", "per-step delta"),
            Param("k", int, "[1, inf) integer", "number of steps")),
    evaluator=_basic,
    sympy_statement=lambda: sympy.Symbol("k") * sympy.Symbol("epsilon"),
    returns="DPGuarantee(eps rounded up, delta rounded up)", value_name="eps_nats",
))


def _classic_gaussian(sensitivity: float, eps: float, delta: float) -> float:
    """Theorem: Dwork & Roth Thm A.1 (see :func:`gaussian_sigma`)."""
    return gaussian_sigma(sensitivity, eps, delta)


register(Theorem(
    id="DR-A.1", paper="Dwork-Roth", number="Thm A.1 (Gaussian mechanism)",
    title="Classic Gaussian calibration sigma = Delta sqrt(2 ln(1.25/delta))/eps, eps < 1",
    latex=r"\sigma \ge \Delta_2\sqrt{2\ln(1.25/\delta)}/\varepsilon",
    conditions=("L2 sensitivity Delta", "0 < eps < 1", "0 < delta < 1"),
    units="eps in nats; sigma in the query's units",
    params=(Param("sensitivity", float, "(0, inf)", "L2 sensitivity Delta"),
            Param("eps", float, "(0, 1)", "target eps, nats"),
            Param("delta", float, "(0, 1)", "target delta")),
    evaluator=_classic_gaussian,
    sympy_statement=lambda: sympy.Symbol("Delta") * sympy.sqrt(
        2 * sympy.log(sympy.Rational(5, 4) / sympy.Symbol("delta"))) / sympy.Symbol("epsilon"),
    returns="sigma rounded up", value_name="sigma",
))


def _expmech(sensitivity: float, coefficient: float) -> DPGuarantee:
    """Theorem: McSherry-Talwar / Dwork & Roth Thm 3.10 (see :func:`exponential_mechanism_epsilon`)."""
    return exponential_mechanism_epsilon(sensitivity, coefficient)


register(Theorem(
    id="DR-3.10", paper="Dwork-Roth", number="Thm 3.10 (exponential mechanism)",
    title="Sampling r with probability proportional to exp(c u(x, r)) is (2 c Delta_u, 0)-DP",
    latex=r"\varepsilon = 2 c \Delta_u",
    conditions=("score u of sensitivity Delta_u", "(c Delta_u for monotone scores: "
                "exponential_mechanism_epsilon(monotone=True))"),
    units="eps in nats",
    params=(Param("sensitivity", float, "(0, inf)", "score sensitivity Delta_u"),
            Param("coefficient", float, "(0, inf)", "c in exp(c u)")),
    evaluator=_expmech,
    sympy_statement=lambda: 2 * sympy.Symbol("c") * sympy.Symbol("Delta_u"),
    returns="DPGuarantee(eps rounded up, 0)", value_name="eps_nats",
))


def _rnm(sensitivity: float, scale: float) -> DPGuarantee:
    """Theorem: Dwork & Roth Claim 3.9 (see :func:`report_noisy_max_epsilon`)."""
    return report_noisy_max_epsilon(sensitivity, scale)


register(Theorem(
    id="DR-3.9", paper="Dwork-Roth", number="Claim 3.9 (report noisy max)",
    title="Report noisy max with Lap(b) noise is (2 Delta/b, 0)-DP (Delta/b for monotone scores)",
    latex=r"\varepsilon = 2\Delta/b",
    conditions=("scores of sensitivity Delta", "i.i.d. Lap(b) noise",
                "(Delta/b for monotone scores, e.g. counts: report_noisy_max_epsilon(monotone=True))"),
    units="eps in nats",
    params=(Param("sensitivity", float, "(0, inf)", "score sensitivity Delta"),
            Param("scale", float, "(0, inf)", "Laplace scale b")),
    evaluator=_rnm,
    sympy_statement=lambda: 2 * sympy.Symbol("Delta") / sympy.Symbol("b"),
    returns="DPGuarantee(eps rounded up, 0)", value_name="eps_nats",
))
