"""Mechanism calibration: Laplace (Dwork–Roth Thm 3.6), Gaussian (classic, Thm A.1; analytic,
Balle–Wang 2018 Thm 8), the exponential mechanism (Thm 3.10), report noisy max (Claim 3.9),
AboveThreshold and Sparse (Thms 3.23, 3.25/3.26). ``eps`` in nats; privacy parameters and noise
scales rounded up (the safe side).

Why one module over 400 lines: one function per mechanism calibration and its inverse, plus a
catalog entry each; they share the parameter declarations at the top.
"""

from __future__ import annotations

import math
import sys
from fractions import Fraction
from typing import Any, Protocol

import numpy as np

from ...arith import SYMPY, Context, Formula
from ...domain import Int, Real
from ...numeric import InvalidParameter, RegimeError, float_down, float_up, is_mpf, iv_prec, mp_ctx
from ...numeric.special import special
from ...results import DPGuarantee
from ...search import first_true, root
from ..registry import Param, Theorem, register
from .composition import compose_dp

# -- parameters (each domain declared once; validation, CLI and catalog text read it) ---------
_POSITIVE = Real(0, lo_open=True)
SENS_L1 = Param("sensitivity", _POSITIVE, "L1 sensitivity Delta")
SENS_L2 = Param("sensitivity", _POSITIVE, "L2 sensitivity Delta")
SENS_SCORE = Param("sensitivity", _POSITIVE, "score sensitivity Delta_u")
SCALE = Param("scale", _POSITIVE, "Laplace scale b")
SIGMA = Param("sigma", _POSITIVE, "Gaussian noise standard deviation sigma")
EPS = Param("eps", Real(0, lo_open=True, units="nats"), "target eps, nats")
EPS0 = Param("eps", Real(0, units="nats"), "eps, nats")
EPS_BELOW_1 = Param("eps", Real(0, 1, lo_open=True, hi_open=True, units="nats"), "target eps, nats")
DELTA = Param("delta", Real(0, 1, lo_open=True, hi_open=True), "target delta")
DELTA0 = Param("delta", Real(0, 1, hi_open=True), "total delta (0: basic composition)")
COEF = Param("coefficient", _POSITIVE, "c in exp(c u)")
RUNS = Param("c", Int(1), "positive answers")
B1 = Param("threshold_scale", _POSITIVE, "Laplace scale b1 of the threshold")
B2 = Param("query_scale", _POSITIVE, "Laplace scale b2 of each query")

# -- the formulas, each written once (see maxinfo_bounds.arith) -------------------------------
#: Dwork & Roth Thm 3.6: eps = Delta/b (and, read the other way, b = Delta/eps)
LAPLACE = Formula(lambda c, s, b: s / b, ("Delta", "b"))
#: Dwork & Roth Thm A.1: sigma = Delta sqrt(2 ln(1.25/delta)) / eps
GAUSS_CLASSIC = Formula(
    lambda c, s, e, d: s * c.sqrt(2 * c.log(c.num(Fraction(5, 4)) / d)) / e, ("Delta", "epsilon", "delta")
)
#: Dwork & Roth Thm 3.10 (McSherry–Talwar): eps = 2 c Delta_u; c Delta_u for monotone scores
EXPMECH = {
    False: Formula(lambda c, s, coef: 2 * coef * s, ("Delta_u", "c")),
    True: Formula(lambda c, s, coef: coef * s, ("Delta_u", "c")),
}
#: Dwork & Roth Claim 3.9: eps = 2 Delta/b; Delta/b for monotone scores
RNM = {False: Formula(lambda c, s, b: 2 * s / b, ("Delta", "b")), True: Formula(lambda c, s, b: s / b, ("Delta", "b"))}


def _above_threshold_body(c: Context, s: Any, b1: Any, b2: Any) -> Any:
    # Dwork & Roth Thm 3.23's proof: Delta/b1 on the threshold, 2 Delta/b2 on the stopping query
    return s / b1 + 2 * s / b2


ABOVE_THRESHOLD = Formula(_above_threshold_body, ("Delta", "b1", "b2"))
#: Dwork & Roth Thm 3.25: c runs of AboveThreshold, basic composition
SPARSE = Formula(
    lambda c, runs, s, b1, b2: runs * _above_threshold_body(c, s, b1, b2), ("c", "Delta", "b1", "b2"), integer=("c",)
)


def laplace_epsilon(sensitivity: float | Fraction, scale: float) -> float:
    r"""Privacy of the Laplace mechanism: noise Lap(b) on an L1-sensitivity-Δ query is (Δ/b, 0)-DP.

    Theorem: Dwork & Roth Thm 3.6. Returns ``eps = Δ/b`` rounded up (nats).

    >>> laplace_epsilon(1.0, 10.0)
    0.1
    """
    return float_up(LAPLACE.exact(SENS_L1.check(sensitivity), SCALE.check(scale)))


def laplace_scale(sensitivity: float, eps: float) -> float:
    """The Laplace scale ``b = Δ/eps`` for (eps, 0)-DP, rounded up (more noise is safe).

    >>> laplace_scale(1.0, 0.1)   # 1/0.1 with 0.1 read exactly = 9.99999999999999944..., up: 10
    10.0
    """
    return float_up(LAPLACE.exact(SENS_L1.check(sensitivity), EPS.check(eps)))


def gaussian_sigma(sensitivity: float, eps: float, delta: float, *, strict: bool = True, dps: int = 30) -> float:
    r"""Classic Gaussian mechanism: σ ≥ Δ₂ sqrt(2 ln(1.25/δ))/ε gives (ε, δ)-DP for ε < 1.

    Theorem: Dwork & Roth Thm A.1. Conditions: ``eps`` in (0, 1) (RegimeError otherwise;
    ``strict=False`` returns the formula's value, which is then not a proven calibration),
    ``delta`` in (0, 1). Returns sigma rounded up.

    >>> round(gaussian_sigma(1.0, 0.5, 1e-5), 6)     # 2 sqrt(2 ln 125000) = 9.68961... (30 digits)
    9.689611
    """
    s, e, d = SENS_L2.check(sensitivity), EPS.check(eps), DELTA.check(delta)  # exact
    if not e < 1 and strict:
        raise RegimeError("Dwork-Roth Thm A.1", "eps", eps, f"eps in {EPS_BELOW_1.domain_text}")
    return GAUSS_CLASSIC.up(s, e, d, prec=iv_prec(dps))


_AG_DPS = 50


class NormalContext(Protocol):
    """What :func:`_ag_terms` uses: ``exp`` and the standard normal CDF ``ncdf`` (:class:`_Mp`
    and the sympy context offer both)."""

    def exp(self, x: Any) -> Any: ...

    def ncdf(self, x: Any) -> Any: ...


def _ag_terms(c: NormalContext, s: Any, sigma: Any, eps: Any) -> tuple[Any, Any]:
    """Balle–Wang Thm 8, written once: delta(sigma) = t1 - t2 with
    t1 = Phi(s/2σ - εσ/s), t2 = e^ε Phi(-s/2σ - εσ/s). ``c`` supplies ``ncdf`` and ``exp``:
    :class:`_Mp` for the evaluator, the sympy context for the statement."""
    a = s / (2 * sigma) - eps * sigma / s
    b = -s / (2 * sigma) - eps * sigma / s
    return c.ncdf(a), c.exp(eps) * c.ncdf(b)


class _Mp:
    """mpmath at the working precision of this thread's private context (Phi is no interval
    primitive: mpmath has no interval erfc, so the evaluator widens the result itself; see
    :func:`_ag_delta_bounds`)."""

    def __init__(self, ctx: Any) -> None:
        self.exp, self.ncdf = ctx.exp, ctx.ncdf


def _ag_delta_bounds(s: Any, sigma: Any, eps: Any) -> tuple[Any, Any]:
    """Enclosure of delta(sigma) (Balle–Wang Thm 8; the body :func:`_ag_terms`).

    mpmath has no interval erfc, so the two terms are evaluated at 50 digits and the difference
    is widened by (|t1| + |t2|) 10^-40, far above mpmath's own error (it evaluates special
    functions with guard digits to the working precision). Phi(z)'s relative error grows with
    the rounding of its argument, about z^2 u at large |z| (and e^eps's as eps u), so where
    |z| or eps passes 10^3 the working precision rises by 2 log10 of it: at 50 digits alone,
    sigma = 1000, eps = 1e9 (|z| = 1e12) put the true delta 1.3e-12 (relative) above the
    enclosure (forty-second session; held against 250 digits in the tests). Where the two
    terms cancel (eps and s/sigma both tiny: delta is far below t1 ~ t2) a width of 10^-40 of
    the terms exceeds delta itself (at eps = 5e-324, delta = 2.2e-308 no finite sigma passed),
    so the precision rises by the digits that resolve delta to 20 digits, the width shrinking to
    10^-(40 + added): the same rule, since every error above scales with the unit roundoff.
    """
    c = mp_ctx()
    with c.workdps(15):  # the size of the arguments, read exactly (a Fraction past the floats)
        sx, sgx, ex = (_mp_exact(c, x) for x in (s, sigma, eps))
        size = max(abs(sx / (2 * sgx)) + abs(ex * sgx / sx), ex)
        extra = min(202, 2 * math.ceil(float(c.log10(size)))) if size > 1000 else 0
    more = 0  # digits added where the two terms cancel, the width shrinking with them
    while True:
        with c.workdps(_AG_DPS + extra + more):
            sx, sgx, ex = (_mp_exact(c, x) for x in (s, sigma, eps))
            a, b = sx / (2 * sgx) - ex * sgx / sx, -sx / (2 * sgx) - ex * sgx / sx  # (as in _ag_terms)
            if max(abs(a), abs(b)) > _PHI_ARG_MAX:
                # an argument of Phi beyond mpmath's erfc (its series test overflows a float past
                # about 1.3e154): each Phi enclosed by the Gaussian tail bound Phi(-|z|) <= e^(-z^2/2)/2
                l1, h1 = _phi_enclosure(c, a)
                l2, h2 = _phi_enclosure(c, b)
                ee = c.exp(ex)
                err = (h1 + ee * h2) * c.mpf(10) ** -40
                return l1 - ee * h2 - err, h1 - ee * l2 + err
            t1, t2 = _ag_terms(_Mp(c), sx, sgx, ex)
            err = (t1 + t2) * c.mpf(10) ** -(40 + more)
            gap = abs(t1 - t2)
            if err * _AG_RESOLVE <= gap or more >= _AG_MORE_MAX:
                return t1 - t2 - err, t1 - t2 + err
            # the terms agree to more digits than the width resolves (eps and s/sigma both tiny,
            # e^eps ~ 1): the digits that resolve delta to 20 digits, or 40 more if none do
            need = math.ceil(float(c.log10(err * _AG_RESOLVE / gap))) + 1 if gap > err else 40 + more
            more = min(_AG_MORE_MAX, more + need)


def _mp_exact(c: Any, x: Any) -> Any:
    """x (a float or an exact Fraction, of any size) as an mpf at c's working precision."""
    return c.mpf(x.numerator) / x.denominator if isinstance(x, Fraction) else c.mpf(x)


#: the enclosure's width is at most delta / _AG_RESOLVE (delta to 20 digits: a sigma tight to one
#: float), raising the precision where the terms cancel
_AG_RESOLVE = 10**20
#: the most digits :func:`_ag_delta_bounds` adds where Balle-Wang's two terms cancel (it resolves
#: a delta down to about 10^-1040 of the terms: below every double)
_AG_MORE_MAX = 1000


#: the largest |z| at which :func:`_ag_delta_bounds` asks mpmath for Phi(z)
_PHI_ARG_MAX = 10**100


def _phi_enclosure(c: Any, z: Any) -> tuple[Any, Any]:
    """(lower, upper) on Phi(z): mpmath's value (widened like the terms above) where |z| <=
    :data:`_PHI_ARG_MAX`, else the tail bound: 0 <= Phi(z) <= e^(-z^2/2)/2 for z < 0 and
    1 - e^(-z^2/2)/2 <= Phi(z) <= 1 for z > 0 (Chernoff; e^(-z^2/2) is below 10^(-10^199))."""
    if abs(z) <= _PHI_ARG_MAX:
        v = c.ncdf(z)
        return v * (1 - c.mpf(10) ** -40), v * (1 + c.mpf(10) ** -40)
    t = c.exp(-z * z / 2) / 2
    return (c.mpf(0), t) if z < 0 else (1 - t, c.mpf(1))


def _at_most(x: Any, y: float | Fraction) -> bool:
    """``x <= y`` exactly for an mpf ``x`` and a float or Fraction ``y``. (The mpf is read as it
    is: ``mpmath.mpf(x)`` would round it to the caller's working precision first, and a bound
    50 digits wide rounded to 53 bits can land below ``y`` while its true value is above.)"""
    if isinstance(y, Fraction):
        sign, man, exp, _ = (x if is_mpf(x) else mp_ctx().mpf(x))._mpf_  # (mpf.man_exp drops the sign)
        man = -man if sign else man
        if man == 0 or y == 0 or (man < 0) != (y < 0):  # the signs decide
            return bool((man > 0) - (man < 0) <= (y > 0) - (y < 0))
        # |x| in [2^(m-1), 2^m) and |y| in (2^(k-1), 2^(k+1)): binary orders apart decide without
        # 2^exp, which an enclosure of a delta below 10^(-10^150) (a tiny sensitivity next to
        # sigma) would write out in full (forty-fifth session: 24 GB)
        m, k = exp + abs(man).bit_length(), abs(y.numerator).bit_length() - y.denominator.bit_length()
        if m < k - 1 or m - 1 > k + 1:
            return bool((m < k - 1) == (man > 0))
        return bool(Fraction(man) * (Fraction(2) ** exp) <= y)
    return bool(x <= y)


_GL_NODES, _GL_WEIGHTS = np.polynomial.legendre.leggauss(24)


def _ag_log_delta(s: float, sigma: float, eps: float) -> float:
    """Float surrogate of log delta (root finding only), without cancellation.

    With a = s/2σ - εσ/s, b = a - h (h = s/σ) and a² - b² = -2ε exactly, the ratio of the two
    terms is e^D with D = ε + log Φ(b) - log Φ(a) = -∫_b^a R'(x) dx, where
    R'(x) = x + φ(x)/Φ(x) = x + sqrt(2/π)/erfcx(-x/√2) > 0: so delta = Φ(a)(-expm1(D)), and D is
    summed by Gauss–Legendre quadrature on pieces of length at most 2 (R' is analytic and
    slowly varying) instead of as the difference of two nearly equal logs (which lost up to
    half the digits at small eps, where h is tiny next to |a|).
    """
    sp = special()
    erfcx, log_ndtr = sp.erfcx, sp.log_ndtr

    h = s / sigma
    m = -eps * sigma / s  # the midpoint (a + b)/2
    if h == 0 or not math.isfinite(m):  # mu = s/sigma, or eps/mu, beyond the floats: delta is
        return -745.0  # below every float (0 < delta <= 2 Phi(mu/2) - 1 < mu)
    a = m + h / 2
    pieces = max(1, math.ceil(h / 2))  # (h/2 of a subnormal h rounds to 0)
    if pieces > 256:  # b far below a: e^eps Phi(b) is negligible next to Phi(a)
        d = eps + float(log_ndtr(a - h)) - float(log_ndtr(a))
    else:
        w = h / pieces
        mids = a - w * (np.arange(pieces) + 0.5)
        x = (mids[:, None] + (w / 2) * _GL_NODES[None, :]).ravel()
        rp = x + math.sqrt(2 / math.pi) / erfcx(-x / math.sqrt(2))
        d = -(w / 2) * float(np.sum(np.tile(_GL_WEIGHTS, pieces) * rp))
    if not d < 0:
        return -745.0
    return float(log_ndtr(a)) + math.log(-math.expm1(d))


def gaussian_delta(sigma: float, sensitivity: float, eps: float) -> float:
    r"""The exact delta of the Gaussian mechanism N(0, sigma^2) at eps (Balle–Wang 2018 Thm 8).

    .. math:: \delta = \Phi\Big(\frac{\Delta}{2\sigma} - \frac{\varepsilon\sigma}{\Delta}\Big)
              - e^{\varepsilon}\,\Phi\Big(-\frac{\Delta}{2\sigma} - \frac{\varepsilon\sigma}{\Delta}\Big)

    ``sensitivity`` is the L2 sensitivity Δ. The mechanism is (eps, delta)-DP for exactly the
    delta returned or more (the condition is necessary and sufficient). Returns delta rounded up.

    >>> gaussian_delta(1.0, 1.0, 0.0)                 # 2 Phi(1/2) - 1 = 0.382924922548026207...
    0.38292492254802624
    """
    s, sg, e = SENS_L2.check(sensitivity), SIGMA.check(sigma), EPS0.check(eps)  # exact
    return min(float_up(_ag_delta_bounds(s, sg, e)[1]), 1.0)  # (the upper end is at least delta > 0)


def gaussian_epsilon(sigma: float, sensitivity: float | Fraction, delta: float) -> float:
    """The smallest eps (nats) with which N(0, sigma^2) noise is (eps, delta)-DP (Balle–Wang Thm 8).

    Returns eps rounded up: its delta, evaluated as in :func:`gaussian_delta`, is certified to
    be at most ``delta``.

    >>> gaussian_epsilon(1.0, 1.0, 0.38292492254802624)   # at or above delta(0): eps = 0
    0.0
    >>> 0 < gaussian_epsilon(1.0, 1.0, 0.3829249225480262) < 1e-15   # just below it
    True
    """
    sx, sgx, dx = SENS_L2.check(sensitivity), SIGMA.check(sigma), DELTA.check(delta)
    # the search reads mu = s/sigma, exact (delta depends on it only; each of s and sigma may be
    # a Fraction past the floats); the certificate reads sx, sgx, dx
    mu = Fraction(sx) / Fraction(sgx)

    def ok(x: float) -> bool:
        return _at_most(_ag_delta_bounds(sx, sgx, x)[1], dx)

    def too_small() -> InvalidParameter:  # sigma tiny next to the sensitivity
        c = mp_ctx()  # (the ratios at 3 digits, of any size: mu may lie past the floats)
        ratio, about = (c.nstr(_mp_exact(c, x), 3) for x in (1 / mu, mu * mu / 2))
        return InvalidParameter(
            "sigma",
            sigma,
            f"large enough that the mechanism is (eps, {delta!r})-DP for "
            f"some eps <= 1e12 nats (here sigma/sensitivity = {ratio}; eps would be "
            f"about {about} nats)",
        )

    # mu = s/sigma >= 1e7: for every eps <= 1e12, delta(eps) >= Phi(mu/2 - eps/mu) -
    # e^eps Phi(-mu/2 - eps/mu) >= Phi(4.9e6) - exp(eps/2 - mu^2/8) > 1 - 2^-53 > delta (Mills'
    # ratio on the second term), so no eps <= 1e12 works; refused before mpmath's normal tail
    # is asked for arguments near 1e300, where it overflows
    if mu > 10**7:
        raise too_small()
    if ok(0.0):  # (so mu > 1e-324: delta(0) <= mu Phi'(0) would be below every delta)
        return 0.0
    x = _ag_epsilon_float(float(mu), 1.0, float(dx))
    if x is None:
        raise too_small()
    return first_true(x, ok, up=True)


def _ag_epsilon_float(s: float, sigma: float, delta: float) -> float | None:
    """The float root of the Balle-Wang curve at ``delta`` (an estimate, not certified; 0.0 when
    delta(0) is already below ``delta``, by the float surrogate); None beyond eps = 1e12 nats."""
    ld = math.log(delta)
    if _ag_log_delta(s, sigma, 0.0) <= ld:
        return 0.0
    hi = 1.0  # pragma: no mutate (a float bracket's start)
    while _ag_log_delta(s, sigma, hi) > ld:
        hi *= 2  # pragma: no mutate (the bracket's growth: any factor > 1 reaches the same root)
        if hi > 1e12:  # eps ~ (s/sigma)^2 / 2 nats
            return None
    # pragma: no mutate start (the float root only steers first_true, which certifies the answer)
    return root(lambda t: _ag_log_delta(s, sigma, t) - ld, 0.0, hi, xtol=1e-300, rtol=1e-15)
    # pragma: no mutate end


#: the largest float
_TOP = sys.float_info.max
#: the smallest positive float (a subnormal)
_TINY = math.ulp(0.0)


def analytic_gaussian_sigma(sensitivity: float, eps: float, delta: float) -> float:
    r"""The smallest sigma with which N(0, sigma^2) noise on an L2-sensitivity-Δ query is
    (eps, delta)-DP: the analytic Gaussian mechanism (Balle & Wang 2018, Thm 8 / Alg. 1).

    Valid for every eps > 0 (unlike the classic calibration, which needs eps < 1), and never
    larger than it. Returns sigma rounded up: its delta is certified to be at most ``delta``.

    >>> s = analytic_gaussian_sigma(1.0, 0.5, 1e-5)
    >>> round(s, 6), s < gaussian_sigma(1.0, 0.5, 1e-5)   # classic: 9.689611
    (7.031827, True)
    """
    sx, ex, dx = SENS_L2.check(sensitivity), EPS.check(eps), DELTA.check(delta)
    # the float search steers t = log(sigma/s) (delta depends on s/sigma only), at eps capped at
    # the largest float; the certificate reads sx, ex, dx exactly
    e, ld = float(min(ex, _TOP)), math.log(float(dx))

    def ok(x: float) -> bool:
        return _at_most(_ag_delta_bounds(sx, x, ex)[1], dx)

    def log_delta(t: float) -> float:  # at unit sensitivity (one rounding in s/sigma) while
        if abs(t) < 700.0:  # e^t is a float; beyond, s = e^(-t/2), sigma = e^(t/2) (|t| < 1419)
            return _ag_log_delta(1.0, math.exp(t), e)
        return _ag_log_delta(math.exp(-t / 2), math.exp(t / 2), e)

    # the bracket; it ends: past t = 745, s/sigma underflows to 0 and the surrogate reads
    # -745 < log(delta) (a delta is at least the smallest double, e^-744.4), and below t = -709 at
    # eps <= the largest float the surrogate's delta is 1
    lo, hi = -10.0, 1.0  # pragma: no mutate (a float bracket's start)
    while log_delta(hi) > ld:
        hi += 2.0
    while log_delta(lo) < ld:
        lo -= 2.0
    # pragma: no mutate start (the float root only steers first_true, which certifies the answer)
    t = root(lambda t: log_delta(t) - ld, lo, hi, xtol=1e-15, rtol=1e-15)
    if t < 700.0:
        x = Fraction(sx) * Fraction(math.exp(t))  # the steer, exactly: it may lie past the floats
    else:  # sigma/s past the floats (eps and delta both near the smallest doubles): through logs
        sf = Fraction(sx)
        lx = math.log(sf.numerator) - math.log(sf.denominator) + t
        x = Fraction(_TOP) if lx > 709.0 else Fraction(math.exp(lx))
    # pragma: no mutate end
    if x > _TOP / 2 and not ok(_TOP):
        raise InvalidParameter("sensitivity", sensitivity, "a sensitivity whose sigma is a finite float")
    # the steer read as a float: past the largest double it is the largest double; below the
    # smallest positive double (a tiny sensitivity at a large eps) it is the smallest one, whose
    # delta is then checked first (sigma = 0 adds no noise and is never an answer)
    start = float(x) if x < _TOP else _TOP
    return first_true(max(start, _TINY), ok, up=True, lo=_TINY)


def exponential_mechanism_epsilon(sensitivity: float, coefficient: float, *, monotone: bool = False) -> DPGuarantee:
    r"""Privacy of the exponential mechanism that outputs r with probability ∝ exp(c·u(x, r)).

    With Δu the sensitivity of the score u: (2 c Δu, 0)-DP (McSherry–Talwar; Dwork & Roth
    Thm 3.10 with c = eps / (2Δu)); (c Δu, 0)-DP when every score moves in the same direction
    between neighbours (``monotone=True``, Dwork & Roth §3.4 remark). eps rounded up.

    >>> exponential_mechanism_epsilon(1.0, 0.25).eps
    0.5
    """
    e = float_up(EXPMECH[monotone].exact(SENS_SCORE.check(sensitivity), COEF.check(coefficient)))
    return DPGuarantee(e, 0.0, "DR-3.10", ("monotone scores",) if monotone else ())


def exponential_mechanism_coefficient(sensitivity: float, eps: float, *, monotone: bool = False) -> float:
    """The coefficient c = eps / (2Δu) (eps/Δu if monotone) for eps-DP, rounded **down**.

    >>> exponential_mechanism_coefficient(1.0, 0.5)
    0.25
    """
    # the formula is linear in c: c = eps / (eps at c = 1), exact
    per_unit = EXPMECH[monotone].exact(SENS_SCORE.check(sensitivity), 1)
    return float_down(Fraction(EPS.check(eps)) / per_unit)


def report_noisy_max_epsilon(sensitivity: float, scale: float, *, monotone: bool = False) -> DPGuarantee:
    r"""Report noisy max (the index of the largest of the scores plus i.i.d. Lap(b) noise).

    Theorem: Dwork & Roth Claim 3.9. (Δ/b, 0)-DP for monotone scores such as counting queries (stated
    there for counts with Lap(1/eps)); (2Δ/b, 0)-DP for arbitrary sensitivity-Δ scores (each
    score and the comparison level can move by Δ). eps rounded up.

    >>> report_noisy_max_epsilon(1.0, 10.0, monotone=True).eps
    0.1
    """
    e = float_up(RNM[monotone].exact(SENS_SCORE.check(sensitivity), SCALE.check(scale)))
    return DPGuarantee(e, 0.0, "DR-3.9", ("monotone scores",) if monotone else ())


def above_threshold_epsilon(sensitivity: float, threshold_scale: float, query_scale: float) -> float:
    r"""AboveThreshold (one positive answer): threshold noise Lap(b1), query noise Lap(b2).

    eps = Δ/b1 + 2Δ/b2 (Dwork & Roth Thm 3.23, stated for b1 = 2Δ/eps, b2 = 4Δ/eps; its proof
    spends Δ/b1 on the threshold and 2Δ/b2 on the query that stops). Rounded up.

    >>> above_threshold_epsilon(1.0, 2.0, 4.0)      # Lap(2/eps), Lap(4/eps) at eps = 1
    1.0
    """
    return float_up(
        ABOVE_THRESHOLD.exact(SENS_SCORE.check(sensitivity), B1.check(threshold_scale), B2.check(query_scale))
    )


def sparse_vector(
    c: int, threshold_scale: float, query_scale: float, *, sensitivity: float | Fraction = 1.0, delta: float = 0.0
) -> DPGuarantee:
    r"""Sparse vector with c positive answers (Dwork & Roth Alg. 2 "Sparse": AboveThreshold
    restarted with fresh threshold noise after each positive answer).

    The c runs compose: basic composition gives (c·eps1, 0) (Dwork & Roth Thm 3.25); with
    ``delta > 0`` the better of basic and advanced composition at total ``delta`` (Thm 3.26's
    route, with delta' optimised rather than its closed form). eps1 is
    :func:`above_threshold_epsilon`.

    >>> sparse_vector(5, 2.0, 4.0).eps               # 5 runs of a 1-DP AboveThreshold
    5.0
    """
    cc = RUNS.check(c)
    s, b1, b2 = SENS_SCORE.check(sensitivity), B1.check(threshold_scale), B2.check(query_scale)
    d = DELTA0.check(delta)
    if d == 0:  # Thm 3.25 itself: c (Delta/b1 + 2 Delta/b2), exact, rounded up
        return DPGuarantee(
            float_up(SPARSE.exact(cc, s, b1, b2)),
            0.0,
            "DR-3.25",
            (f"c = {cc} positive answers", "basic composition of the c runs"),
        )
    e1 = above_threshold_epsilon(s, b1, b2)
    return DPGuarantee(
        _runs_eps(cc, e1, d),
        float_up(d),
        "DR-3.26",
        (
            f"c = {cc} positive answers",
            f"per run eps = {e1!r}",
            f"delta' = {float_up(d)!r}",
            "min of basic and advanced composition",
        ),
    )


def _runs_eps(runs: int, e1: float, d: Any) -> float:
    """eps of ``runs`` adaptive (e1, 0)-DP runs at total delta ``d`` > 0: the smaller of basic
    (Dwork & Roth Thm 3.16) and advanced composition (Thm 3.20, delta' = d), each certified;
    closed forms in the number of runs (no list of steps, whatever its size)."""
    return compose_dp({(e1, 0.0): runs}, d).eps


def sparse_vector_scales(c: int, eps: float, *, sensitivity: float = 1.0, delta: float = 0.0) -> tuple[float, float]:
    """Noise scales (threshold b1, query b2 = 2 b1) making :func:`sparse_vector` (eps, delta)-DP.

    The per-run budget eps1 is the largest float whose composition over c runs is certified
    at most ``eps``; b1 = 2Δ/eps1 and b2 = 4Δ/eps1 (Dwork & Roth's split), rounded up.

    >>> sparse_vector_scales(5, 5.0)
    (2.0, 4.0)
    """
    # targets as the floats at or below them (a Fraction eps or delta is never exceeded)
    cc, e = RUNS.check(c), float_down(EPS.check(eps))
    s, d = Fraction(SENS_SCORE.check(sensitivity)), float_down(DELTA0.check(delta))

    def total(e1: float) -> float:  # (only searched with delta > 0: else basic's e/c)
        return _runs_eps(cc, e1, d)

    def ok(e1: float) -> bool:
        b1 = float_up(2 * s / Fraction(e1))
        b2 = float_up(4 * s / Fraction(e1))
        return sparse_vector(cc, b1, b2, sensitivity=s, delta=d).eps <= e

    guess = e / cc  # basic composition's per-run budget; with delta > 0 search above it
    if d > 0 and total(guess) <= e:
        # in log space: the per-run budget may be far below any absolute tolerance
        def f(le: float) -> float:
            return math.log(total(math.exp(le)) / e)

        lo, hi = math.log(guess), math.log(e)
        if total(e) <= e:
            guess = e
        elif f(lo) < 0:  # (else basic composition's e/c is the answer, up to rounding)
            guess = math.exp(root(f, lo, hi, xtol=1e-14))  # pragma: no mutate (steers first_true)
    e1 = first_true(guess, ok, up=False)
    return float_up(2 * s / Fraction(e1)), float_up(4 * s / Fraction(e1))


def _ag(sensitivity: float, eps: float, delta: float) -> float:
    """Theorem: Balle & Wang (2018) Thm 8 (see :func:`analytic_gaussian_sigma`)."""
    return analytic_gaussian_sigma(sensitivity, eps, delta)


def _ag_statement() -> Any:
    import sympy  # statements only (keeps sympy out of the calculator's import)

    t1, t2 = _ag_terms(SYMPY, *sympy.symbols("Delta sigma epsilon", positive=True))
    return t1 - t2


register(
    Theorem(
        id="BW18-8",
        paper="Balle-Wang",
        number="Thm 8 (analytic Gaussian mechanism)",
        title="Analytic calibration of the Gaussian mechanism",
        latex=(
            r"\Phi\!\left(\tfrac{\Delta}{2\sigma}-\tfrac{\varepsilon\sigma}{\Delta}\right)"
            r"- e^{\varepsilon}\Phi\!\left(-\tfrac{\Delta}{2\sigma}-\tfrac{\varepsilon\sigma}"
            r"{\Delta}\right) \le \delta"
        ),
        conditions=(
            "noise N(0, sigma^2) on a query of L2 sensitivity Delta",
            "necessary and sufficient for (eps, delta)-DP",
        ),
        units="eps in nats; sigma in the query's units",
        params=(SENS_L2, EPS, DELTA),
        evaluator=_ag,
        statement=_ag_statement,
        returns="smallest sigma, rounded up",
        value_name="sigma",
    )
)


def _sparse(c: int, threshold_scale: float, query_scale: float, sensitivity: float) -> DPGuarantee:
    """Theorem: Dwork & Roth Thm 3.25 (see :func:`sparse_vector`)."""
    return sparse_vector(c, threshold_scale, query_scale, sensitivity=sensitivity)


register(
    Theorem(
        id="DR-3.25",
        paper="Dwork-Roth",
        number="Thm 3.23, 3.25 (sparse vector)",
        title="Sparse vector: c AboveThreshold runs with threshold noise Lap(b1), query noise Lap(b2)",
        formula=SPARSE,
        lhs=r"\varepsilon =",
        conditions=(
            "threshold noise redrawn after each positive answer (DR Alg. 2)",
            "queries of sensitivity Delta",
            "stops after c positive answers",
        ),
        units="eps in nats",
        params=(RUNS, B1, B2, SENS_SCORE),
        evaluator=_sparse,
        returns="DPGuarantee(eps rounded up, 0)",
        value_name="eps_nats",
    )
)


def _laplace(sensitivity: float, scale: float) -> float:
    """Theorem: Dwork & Roth Thm 3.6 (see :func:`laplace_epsilon`)."""
    return laplace_epsilon(sensitivity, scale)


register(
    Theorem(
        id="DR-3.6",
        paper="Dwork-Roth",
        number="Thm 3.6 (Laplace mechanism)",
        title="Laplace noise Lap(b) on an L1-sensitivity-Delta query is (Delta/b, 0)-DP",
        formula=LAPLACE,
        lhs=r"\varepsilon =",
        conditions=("L1 sensitivity Delta over neighbouring datasets", "noise Lap(b)"),
        units="eps in nats",
        params=(SENS_L1, SCALE),
        evaluator=_laplace,
        returns="eps rounded up",
        value_name="eps_nats",
    )
)


def _classic_gaussian(sensitivity: float, eps: float, delta: float) -> float:
    """Theorem: Dwork & Roth Thm A.1 (see :func:`gaussian_sigma`)."""
    return gaussian_sigma(sensitivity, eps, delta)


register(
    Theorem(
        id="DR-A.1",
        paper="Dwork-Roth",
        number="Thm A.1 (Gaussian mechanism)",
        title="Classic Gaussian calibration sigma = Delta sqrt(2 ln(1.25/delta))/eps, eps < 1",
        formula=GAUSS_CLASSIC,
        lhs=r"\sigma \ge",
        conditions=("noise N(0, sigma^2) on a query of L2 sensitivity Delta",),
        units="eps in nats; sigma in the query's units",
        params=(SENS_L2, EPS_BELOW_1, DELTA),
        evaluator=_classic_gaussian,
        returns="sigma rounded up",
        value_name="sigma",
    )
)


def _expmech(sensitivity: float, coefficient: float) -> DPGuarantee:
    """Theorem: McSherry-Talwar / Dwork & Roth Thm 3.10 (see :func:`exponential_mechanism_epsilon`)."""
    return exponential_mechanism_epsilon(sensitivity, coefficient)


register(
    Theorem(
        id="DR-3.10",
        paper="Dwork-Roth",
        number="Thm 3.10 (exponential mechanism)",
        title="Sampling r with probability proportional to exp(c u(x, r)) is (2 c Delta_u, 0)-DP",
        formula=EXPMECH[False],
        lhs=r"\varepsilon =",
        conditions=(
            "score u of sensitivity Delta_u",
            "(c Delta_u for monotone scores: exponential_mechanism_epsilon(monotone=True))",
        ),
        units="eps in nats",
        params=(SENS_SCORE, COEF),
        evaluator=_expmech,
        returns="DPGuarantee(eps rounded up, 0)",
        value_name="eps_nats",
    )
)


def _rnm(sensitivity: float, scale: float) -> DPGuarantee:
    """Theorem: Dwork & Roth Claim 3.9 (see :func:`report_noisy_max_epsilon`)."""
    return report_noisy_max_epsilon(sensitivity, scale)


register(
    Theorem(
        id="DR-3.9",
        paper="Dwork-Roth",
        number="Claim 3.9 (report noisy max)",
        title="Report noisy max with Lap(b) noise is (2 Delta/b, 0)-DP (Delta/b for monotone scores)",
        formula=RNM[False],
        lhs=r"\varepsilon =",
        conditions=(
            "scores of sensitivity Delta",
            "i.i.d. Lap(b) noise",
            "(Delta/b for monotone scores, e.g. counts: report_noisy_max_epsilon(monotone=True))",
        ),
        units="eps in nats",
        params=(SENS_SCORE, SCALE),
        evaluator=_rnm,
        returns="DPGuarantee(eps rounded up, 0)",
        value_name="eps_nats",
    )
)
