r"""p-value corrections from max-information bounds.

RRST Thm 1.3 (and Thm C.1 for non-product data): if a selection procedure ``A`` has
``I^beta_{infty,P}(A, n) <= k`` bits, then

.. math:: \gamma(\alpha) = \max\Bigl(\frac{\alpha-\beta}{2^{k}},\ 0\Bigr)

is a valid p-value correction function: rejecting when the selected test's p-value is at most
``gamma(alpha)`` has false-discovery probability at most ``alpha``.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, NamedTuple, overload

import numpy as np

from ..arith import Context, Formula
from ..domain import Real
from ..numeric import (
    InvalidParameter,
    fast_down,
    float_down,
    is_array,
    iv_prec,
)
from ..search import brentq, first_true, minimise
from ..types import FloatArray, RealLike, RealOrArray
from .mutual_info import PAPER_CONSTANT, mi_beta_exact, mi_beta_float
from .registry import M_BITS, Param, Theorem, register

__all__ = ["pvalue_correction", "mi_pvalue_correction", "mi_pvalue_choice", "MiChoice", "russo_zou_pvalue_correction"]


ALPHA = Param("alpha", Real(0, 1), "significance level")
K = Param("k", Real(0, math.inf, hi_open=False, units="bits"), "max-information bound, bits")
BETA = Param("beta", Real(0, 1), "approximation parameter of the bound")


def _gamma_body(c: Context, alpha: Any, k: Any, beta: Any) -> Any:
    # RRST Thm 1.3: gamma(alpha) = max(alpha - beta, 0) 2^{-k}
    return c.pos(alpha - beta) * c.exp2(-k)


#: RRST Thm 1.3 / C.1, written once (see :mod:`maxinfo_bounds.arith`)
PVALUE_CORRECTION = Formula(_gamma_body, ("alpha", "k", "beta"))


@overload
def pvalue_correction(  # type: ignore[overload-overlap]
    alpha: RealLike,
    k: RealLike,
    beta: RealLike,
    *,
    dps: int = ...,
) -> float: ...


@overload
def pvalue_correction(alpha: RealOrArray, k: RealOrArray, beta: RealOrArray, *, dps: int = ...) -> FloatArray: ...


def pvalue_correction(alpha: RealOrArray, k: RealOrArray, beta: RealOrArray, *, dps: int = 30) -> float | FloatArray:
    r"""Corrected significance threshold γ(α) = max((α − β)/2^k, 0), rounded down.

    .. math:: \gamma(\alpha) = \max\bigl((\alpha - \beta)\,2^{-k},\ 0\bigr)

    Theorem: RRST Thm 1.3 (product data), RRST Thm C.1 (any data distribution, with the
    corresponding max-information bound).
    Units: ``k`` in bits.
    Conditions:
      * ``alpha`` in [0, 1], ``beta`` in [0, 1], ``k`` in [0, inf] (``k = inf`` gives 0).
    Returns: a float never above the exact value of the formula (exact rational arithmetic for
    integer ``k``, mpmath interval arithmetic at ``dps`` digits otherwise); for array
    arguments, a float64 array from the vectorised path, pushed down by a relative 2^-44.
    Raises: :class:`~maxinfo_bounds.numeric.InvalidParameter` outside the conditions.

    Examples
    --------
    >>> pvalue_correction(0.05, 1.0, 0.01)          # (0.05 - 0.01)/2 = 0.02, hand
    0.02
    >>> pvalue_correction(0.05, 0.0, 0.06)          # alpha <= beta: no valid rejection
    0.0
    """
    if is_array(alpha, k, beta):
        return fast_down(PVALUE_CORRECTION.array(ALPHA.check_array(alpha), K.check_array(k), BETA.check_array(beta)))
    a, kx, b = ALPHA.check(alpha), K.check(k), BETA.check(beta)  # exact inputs
    if a <= b or kx == math.inf:
        return 0.0
    # 2^-k exact: the formula is rational. (The cutoff only picks between two certified paths
    # that agree there: both give 0, 2^-k being below the floats from k = 1075 on.)
    if Fraction(kx).denominator == 1 and kx <= 4096:  # pragma: no mutate
        return float_down(PVALUE_CORRECTION.exact(a, kx, b))
    return max(PVALUE_CORRECTION.down(a, kx, b, prec=iv_prec(dps)), 0.0)


register(
    Theorem(
        id="RRST-1.3",
        value_name="gamma",
        value_rounding="down",
        paper="RRST",
        number="Thm 1.3 (product data); Thm C.1 (any data)",
        title="p-value correction from a max-information bound",
        formula=PVALUE_CORRECTION,
        lhs=r"\gamma(\alpha) =",
        conditions=("the selection procedure has I^beta_inf <= k bits (I^beta_inf,P for Thm 1.3)",),
        units="k in bits; gamma and alpha are probabilities",
        params=(ALPHA, K, BETA),
        evaluator=pvalue_correction,
        returns="float gamma, rounded down",
    )
)


# --------------------------------------------------------------------------------------------
# from a mutual-information bound (RRST App. C)


def _mi_paper_body(c: Context, alpha: Any, m: Any) -> Any:
    # RRST Cor C.2: gamma = (alpha/2) 2^{-(2/alpha)(m + 0.54)} (0.54 the decimal 27/50)
    return alpha / 2 * c.exp2(-2 / alpha * (m + c.num(Fraction(27, 50))))


#: RRST Cor C.2 (paper variant), written once
MI_PVALUE_PAPER = Formula(_mi_paper_body, ("alpha", "m"))


def _rz_level_body(c: Context, gamma: Any, m: Any) -> Any:
    """Russo & Zou Prop. 7 (RRST Thm C.3), written once: the bound on Pr[p <= gamma] when
    I(X; A(X)) <= m bits (their logarithms are natural, so m enters as m ln 2 nats). The
    certified check of :func:`russo_zou_pvalue_correction` evaluates it in interval
    arithmetic; the catalog statement is generated from it."""
    return gamma + c.sqrt(m * c.ln2 / c.log(1 / (2 * gamma)))


#: Russo–Zou's level bound, in every arithmetic context (see :mod:`maxinfo_bounds.arith`)
RZ_LEVEL = Formula(_rz_level_body, ("gamma", "m"))


@overload
def mi_pvalue_correction(  # type: ignore[overload-overlap]
    alpha: RealLike,
    m: RealLike,
    *,
    variant: str = ...,
    dps: int = ...,
) -> float: ...


@overload
def mi_pvalue_correction(alpha: RealOrArray, m: RealOrArray, *, variant: str = ..., dps: int = ...) -> FloatArray: ...


def mi_pvalue_correction(
    alpha: RealOrArray, m: RealOrArray, *, variant: str = "optimal", dps: int = 30
) -> float | FloatArray:
    r"""p-value correction for a selection with mutual information at most ``m`` bits.

    .. math:: \gamma(\alpha) = \frac{\alpha}{2}\, 2^{-\frac{2}{\alpha}(m + 0.54)} \quad(\text{paper})

    Theorem: RRST Cor C.2 (Lemma 1.5 then Thm C.1). ``variant="paper"`` is the closed form,
    which takes ``k = 2(m + 0.54)/alpha``. ``variant="optimal"`` (default) maximises
    ``(alpha - beta*(k)) / 2^k`` over ``k`` with the exact ``beta*(k)`` of Lemma 1.5's proof
    (:func:`~maxinfo_bounds.theorems.mutual_info.mi_beta_exact`), and is never below the paper's
    value (the paper's choice is among the candidates).
    Units: ``m`` in bits.
    Conditions:
      * ``alpha`` in [0, 1], ``m >= 0`` (finite); ``I(X; A(X)) <= m`` for the data distribution.
    Returns: gamma rounded down (float). Arrays: the paper variant by its vectorised closed
    form (pushed down by a relative 2^-44); the optimal variant point by point (each a 1-D
    optimisation), certified.

    Examples
    --------
    >>> g = mi_pvalue_correction(0.05, 1.0, variant="paper")  # 0.025 * 2^(-61.6) = 7.15e-21, hand
    >>> 7.1e-21 < g < 7.2e-21
    True
    >>> mi_pvalue_correction(0.05, 1.0) > g
    True
    """
    if variant not in ("optimal", "paper"):
        raise InvalidParameter("variant", variant, "'optimal' or 'paper'")
    if is_array(alpha, m):
        aa, ma = np.broadcast_arrays(ALPHA.check_array(alpha), M_BITS.check_array(m))
        if variant == "paper":
            g = MI_PVALUE_PAPER.array(aa, ma)  # 0 at alpha = 0 (2^-inf)
            with np.errstate(divide="ignore", invalid="ignore"):
                # the size of the computed exponent (for the margin), read off the result:
                # a power of 2, so in nats x ln 2
                x = np.where(g > 0, np.log(2 * g / aa), 0.0)
            return fast_down(g, exp_arg=x)
        return np.array(
            [mi_pvalue_choice(float(x), float(y), dps=dps).gamma for x, y in zip(aa.ravel(), ma.ravel())]
        ).reshape(aa.shape)
    ax, mx = ALPHA.check(alpha), M_BITS.check(m)
    if variant == "paper":
        return 0.0 if ax == 0 else max(MI_PVALUE_PAPER.down(ax, mx, prec=iv_prec(dps)), 0.0)
    return mi_pvalue_choice(ax, mx, dps=dps).gamma


class MiChoice(NamedTuple):
    """The certificate of an optimal Cor C.2 correction: ``gamma <= (alpha - beta) 2^-k`` with
    ``beta >= beta*(k)`` (certified), or the paper's closed form when nothing beats it."""

    gamma: float
    #: the max-information level used, bits (None: the paper's closed form was best)
    k: float | None
    #: the certified upper bound on beta*(k) used with it (None with k None)
    beta: float | None


def mi_pvalue_choice(alpha: RealLike, m: RealLike, *, dps: int = 30) -> MiChoice:
    """The optimal variant of :func:`mi_pvalue_correction` with its certificate: the ``k`` it
    chose and the certified ``beta*(k)`` (RRST Lemma 1.5's exact curve) it used, so a caller
    (the planner's derivation, a referee) can check ``gamma <= (alpha - beta) 2^-k`` itself.

    >>> c = mi_pvalue_choice(0.05, 1.0)
    >>> c.gamma <= (0.05 - c.beta) * 2 ** -c.k
    True
    """
    ax, mx = ALPHA.check(alpha), M_BITS.check(m)
    a, mf = float(ax), float(mx)  # the search; the closed form reads the exact inputs
    if a == 0.0:
        return MiChoice(0.0, None, None)
    best = MiChoice(max(MI_PVALUE_PAPER.down(ax, mx, prec=iv_prec(dps)), 0.0), None, None)

    # pragma: no mutate start
    # The float search for k. What it steers: the candidates, each then certified (beta*(k)
    # by mi_beta_exact, gamma rounded down); the paper's closed form is the floor. Tested against
    # a 4,000-point grid of certified values (test_mi_pvalue_optimal_dominates_and_is_valid).
    def neg_log_gamma(k: float) -> float:
        b = mi_beta_float(mf, k) if k > 0 else 1.0
        return math.inf if b >= a else -(math.log2(a - b) - k)

    k_paper = 2 * (mf + PAPER_CONSTANT) / a
    # beyond the floats (m/alpha above 1e308: gamma below 2^-1e308, 0 in floats) nothing to
    # search: the closed form's 0 stands (the search's bounds would be inf, its k NaN)
    hi = 4 * k_paper + 64
    # in ln k on a grid (the range spans 156 decades at alpha = m = 1e-156, where Brent on k
    # itself never came near the optimum at k = 3.24 and the route fell to 0)
    candidates: tuple[float, ...] = ()
    if math.isfinite(hi):
        k_lo = max(mf / a, 1e-9)
        ts = minimise(lambda t: neg_log_gamma(math.exp(t)), math.log(k_lo), math.log(hi), grid=41, xatol=1e-13)
        # and Brent on k itself, whose last digits are the sharper where it converges
        candidates = (*(math.exp(t) for t in ts), *minimise(neg_log_gamma, k_lo, hi), k_paper)
    # pragma: no mutate end
    for k in candidates:
        b = mi_beta_exact(mx, k, dps=dps)  # certified at the exact m and alpha
        if b < ax:
            g = pvalue_correction(ax, k, b, dps=dps)
            if g > best.gamma:
                best = MiChoice(g, k, b)
    return best


@overload
def russo_zou_pvalue_correction(alpha: RealLike, m: RealLike, *, dps: int = ...) -> float: ...  # type: ignore[overload-overlap]


@overload
def russo_zou_pvalue_correction(alpha: RealOrArray, m: RealOrArray, *, dps: int = ...) -> FloatArray: ...


def russo_zou_pvalue_correction(alpha: RealOrArray, m: RealOrArray, *, dps: int = 30) -> float | FloatArray:
    r"""The largest γ that Russo–Zou's mutual-information bound certifies at level α.

    .. math:: \Pr[p \le \gamma] \le \gamma + \sqrt{\frac{m_{\mathrm{nats}}}{\ln(1/(2\gamma))}} \le \alpha

    Theorem: RRST Thm C.3 (Russo & Zou, Prop. 7), a baseline for comparison. Russo–Zou state
    their bound with natural logarithms, so ``m`` (bits) enters as ``m ln 2`` nats.
    Units: ``m`` in bits.
    Conditions:
      * ``alpha`` in [0, 1], ``m >= 0`` (finite).
    Returns: gamma rounded down: the root of ``gamma + sqrt(m ln2 / ln(1/(2 gamma))) = alpha`` in
    (0, 1/2) (``alpha`` itself when ``m = 0``), certified by interval arithmetic (arrays: point
    by point, each a root). RRST note it is
    at most ``min(alpha/2, 2^{-log2(e) m_nats/alpha^2}/2)``.

    Examples
    --------
    >>> g = russo_zou_pvalue_correction(0.05, 0.05)
    >>> g < min(0.025, 0.5 * math.exp(-0.05 * math.log(2) / 0.05**2))    # RRST's upper envelope
    True
    """
    if is_array(alpha, m):
        aa, ma = np.broadcast_arrays(ALPHA.check_array(alpha), M_BITS.check_array(m))
        return np.array(
            [russo_zou_pvalue_correction(float(x), float(y), dps=dps) for x, y in zip(aa.ravel(), ma.ravel())]
        ).reshape(aa.shape)
    ax, mx = ALPHA.check(alpha), M_BITS.check(m)
    if mx == 0:
        return float_down(ax)
    if ax == 0:
        return 0.0
    a, mf = float(ax), float(mx)
    # pragma: no mutate start
    # The float estimate of the root: it only steers the certified search (first_true below),
    # whose answer is the float at the certified boundary whatever the estimate (tested tight
    # against the 60-digit root: test_russo_zou_is_a_valid_threshold_and_never_crashes).
    # ln(m ln 2) for the search (an m below the floats searches from the smallest one)
    log_m = math.log(max(mf, 5e-324)) + math.log(math.log(2))

    # in s = ln u, u = ln(1/(2 gamma)) > 0: h = e^{-u}/2 + sqrt(m/u) - alpha decreases in s;
    # sqrt(m/u) = e^{(ln m - s)/2} has no underflow; at s = ln m - 10 it is e^5 > 1 >= alpha
    def h(s: float) -> float:
        return 0.5 * math.exp(-math.exp(min(s, 709.0))) + math.exp((log_m - s) / 2) - a

    s_lo, s_hi = log_m - 10.0, max(log_m - 10.0, 0.0) + 1.0
    while h(s_hi) > 0:
        s_hi += 2.0
    s_star = brentq(h, s_lo, s_hi, xtol=1e-15, rtol=4 * np.finfo(float).eps, maxiter=500)
    g = 0.5 * math.exp(-math.exp(min(s_star, 709.0)))  # 0 when gamma is below the floats
    # pragma: no mutate end
    prec = iv_prec(dps)

    def certified_valid(x: float) -> bool:
        if x <= 0.0:
            return True
        if x >= 0.5:  # the bound needs ln(1/(2 gamma)) > 0
            return False
        return bool(RZ_LEVEL.up(x, mx, prec=prec) <= ax)

    return max(first_true(g, certified_valid, up=False), 0.0)


register(
    Theorem(
        id="RRST-C.2",
        value_name="gamma",
        value_rounding="down",
        paper="RRST",
        number="Cor C.2 (Lemma 1.5 with Thm C.1)",
        title="p-value correction from a mutual-information bound",
        formula=MI_PVALUE_PAPER,
        lhs=r"\gamma(\alpha) \ge",
        conditions=(
            "I(X; A(X)) <= m bits",
            "optimal variant: max over k of (alpha - beta*(k))/2^k, never below the paper's",
        ),
        units="m in bits",
        params=(ALPHA, M_BITS),
        evaluator=mi_pvalue_correction,
        returns="float gamma, rounded down (variant 'optimal' (default) or 'paper')",
    )
)

register(
    Theorem(
        id="RRST-C.3",
        value_name="gamma",
        value_rounding="down",
        paper="RRST",
        number="Thm C.3 (Russo & Zou Prop. 7)",
        title="Russo-Zou p-value correction from mutual information (baseline)",
        formula=RZ_LEVEL,
        lhs=r"\Pr[p \le \gamma] \le",
        conditions=(
            "I(X; A(X)) <= m bits (m ln 2 nats inside the formula)",
            "gamma: the largest with Pr[p <= gamma] <= alpha, gamma < 1/2",
        ),
        units="m in bits (nats inside the formula)",
        params=(ALPHA, M_BITS),
        evaluator=russo_zou_pvalue_correction,
        returns="float gamma, rounded down",
    )
)
