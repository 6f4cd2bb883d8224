"""Inverse solvers on the certified evaluators.

Each answers "how far can I go?": the largest ``eps``, ``k`` or ``n`` for which the corrected
threshold stays at least a target (or the max-information bound at most a target). The answer
is certified: the certified evaluator is run *at the returned value* and meets the target.

Method: the calculator's one monotone search (:func:`maxinfo_bounds.search.boundary`) on the
certified predicate: exponential search, then bisection to adjacent floats (or integers). We
chose this over a root finder such as :func:`scipy.optimize.brentq` on a float surrogate: a
root finder's answer would have to be certified afterwards anyway, whereas bisection on the
certified predicate is correct by construction, and its ~60–120 certified evaluations cost a
few tens of milliseconds.
"""

from __future__ import annotations

from collections.abc import Callable

from ..domain import Real
from ..numeric import InvalidParameter
from ..search import boundary
from .maxinfo_dp import pure_dp_max_information, pure_dp_max_information_product
from .maxinfo_dp.pure import BETA, EPS  # the route's own parameters (RRST Thm 1.4)
from .pvalues import BETA as BETA_GIVEN  # beta of a given bound, [0, 1] (RRST Thm 1.3)
from .pvalues import pvalue_correction
from .registry import N_RECORDS as N
from .registry import Param

__all__ = ["max_eps_for_gamma", "max_k_for_gamma", "max_n_for_gamma", "max_n_for_k"]

ALPHA = Param("alpha", Real(0, 1, lo_open=True), "significance level")
TARGET_GAMMA = Param("target_gamma", Real(0, 1, lo_open=True), "the corrected threshold wanted")
TARGET_K = Param("target_k", Real(0, lo_open=True, units="bits"), "max-information wanted, bits")


def _largest_float(pred: Callable[[float], bool], lo: float, hi: float) -> float:
    """Largest float x >= lo with pred(x) (monotone), first trying ``hi``; never a bracket edge
    (:func:`maxinfo_bounds.search.boundary` widens past ``hi`` and raises at its limit)."""
    return boundary(pred, lo, first_step=hi - lo, growth=1024.0)


def _largest_int(pred: Callable[[int], bool], lo: int, hi: int) -> int:
    """Largest integer x >= lo with pred(x) (monotone), first trying ``hi``; never a bracket edge."""
    return boundary(pred, lo, integer=True, first_step=hi - lo, growth=1024.0)


def _k_of(eps: float, n: int, beta: float | None) -> float:
    if beta is None:
        return float(pure_dp_max_information(eps, n).k)
    return float(pure_dp_max_information_product(eps, n, beta).k)


def _targets(alpha: float, target_gamma: float, beta: float | None) -> tuple[float, float, float]:
    return (
        ALPHA.check_float(alpha),
        TARGET_GAMMA.check_float(target_gamma),
        0.0 if beta is None else BETA.check_float(beta),
    )


def max_eps_for_gamma(alpha: float, target_gamma: float, n: int, *, beta: float | None = None) -> float:
    """Largest pure-DP ``eps`` (nats) whose corrected threshold is at least ``target_gamma``.

    Route: RRST Thm 1.4 (first part, any data; or second part with ``beta``, i.i.d. data)
    then RRST Thm 1.3. Certified: ``pvalue_correction(alpha, k(eps), beta) >= target_gamma``
    at the returned ``eps``.

    >>> e = max_eps_for_gamma(0.05, 1e-3, 100)    # ln(50)/100 = 0.0391202300542814..., hand
    >>> 0.03912023005428 < e <= 0.0391202300542815
    True
    """
    a, t, b = _targets(alpha, target_gamma, beta)
    ni = N.check(n)

    def ok(eps: float) -> bool:
        return bool(pvalue_correction(a, _k_of(eps, ni, beta), b) >= t)

    tiny = 1e-300
    if not ok(tiny):
        raise InvalidParameter(
            "target_gamma",
            target_gamma,
            f"below what eps -> 0 allows, (alpha - beta)/2^k(0+) ~ {pvalue_correction(a, _k_of(tiny, ni, beta), b)!r}",
        )
    return _largest_float(ok, tiny, 1e6)


def max_k_for_gamma(alpha: float, beta: float, target_gamma: float) -> float:
    """Largest ``k`` (bits) with ``(alpha - beta)/2^k >= target_gamma`` (RRST Thm 1.3), certified.

    >>> max_k_for_gamma(0.05, 0.01, 0.01)   # log2(0.04/0.01) = 2, hand; exact at these floats
    2.0
    """
    a, b = ALPHA.check_float(alpha), BETA_GIVEN.check_float(beta)
    t = TARGET_GAMMA.check_float(target_gamma)

    def ok(k: float) -> bool:
        return bool(pvalue_correction(a, k, b) >= t)

    if not ok(0.0):
        raise InvalidParameter("target_gamma", target_gamma, f"at most alpha - beta = {a - b!r}")
    return _largest_float(ok, 0.0, 1e6)


def max_n_for_gamma(alpha: float, target_gamma: float, eps: float, *, beta: float | None = None) -> int:
    """Largest number of records ``n`` for which an ``eps``-DP selection keeps γ ≥ target.

    Route as in :func:`max_eps_for_gamma`; certified at the returned ``n``. Raises
    :class:`~maxinfo_bounds.numeric.InvalidParameter` if even ``n = 1`` misses the target.

    >>> max_n_for_gamma(0.05, 1e-3, 0.01)     # floor(log2(50) / (0.01 log2 e)) = 391, hand
    391
    """
    a, t, b = _targets(alpha, target_gamma, beta)
    e = EPS.check_float(eps)

    def ok(n: int) -> bool:
        return bool(pvalue_correction(a, _k_of(e, n, beta), b) >= t)

    if not ok(1):
        raise InvalidParameter("target_gamma", target_gamma, "reachable with n = 1 at this eps")
    return _largest_int(ok, 1, 10**15)


def max_n_for_k(target_k: float, eps: float, *, beta: float | None = None) -> int:
    """Largest ``n`` with max-information bound at most ``target_k`` bits for an ``eps``-DP step.

    (Every bound here grows with ``n``, so the useful question is the largest ``n``.)

    >>> max_n_for_k(1.0, 0.01)          # floor(1 / (0.01 log2 e)) = floor(69.31...) = 69, hand
    69
    """
    kt = TARGET_K.check_float(target_k)
    e = EPS.check_float(eps)
    if beta is not None:
        BETA.check(beta)

    def ok(n: int) -> bool:
        return _k_of(e, n, beta) <= kt

    if not ok(1):
        raise InvalidParameter("target_k", target_k, f"at least the bound at n = 1 ({_k_of(e, 1, beta)!r} bits)")
    return _largest_int(ok, 1, 10**15)
