r"""From mutual information to approximate max-information.

RRST Lemma 1.5 (first part): if ``I(X; Y) <= m`` bits then for every ``k > 0``,
``I^{beta(k)}_infty(X; Y) <= k`` with

.. math:: \beta(k) = \frac{m + 0.54}{k}.

What the proof shows (RRST App. C, eq. (24) and the Jensen step): with
``beta(k) = Pr[Z > k]``, ``Z`` the information density in bits,

.. math:: f_k(\beta) = k\beta + (1-\beta)\log_2(1-\beta) \le m .

``f_k`` is convex with ``f_k(0) = 0`` and ``f_k(1^-) = k``, so for ``0 <= m < k`` the set
``{beta : f_k(beta) <= m}`` is ``[0, beta*]`` with ``beta*`` the unique root of ``f_k = m`` in
(0, 1): the **exact** variant. The paper's 0.54 bounds ``max_w (1-w) log2(1/(1-w)) =
log2(e)/e = 0.5307...``, so ``beta* <= (m + 0.54)/k`` always: the exact variant is never
worse. (In nats the maximum would be ``1/e``; the constant is consistent with the paper's
base-2 logarithm.)

The second part of Lemma 1.5 (max-information to mutual information) is
:func:`approx_max_information_to_mi`; its statement mixes ``ln`` and ``log`` and bounds the
mutual information in nats (see its docstring and docs/errata.md).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, overload

import numpy as np

from ..arith import NUMPY, Context, Formula, Interval
from ..domain import Int, Real
from ..numeric import (
    InvalidParameter,
    RegimeError,
    enclosure,
    fast_up,
    float_up,
    is_array,
    iv_prec,
)
from ..results import Bound
from ..search import brentq, first_true
from ..types import FloatArray, IntLike, IntOrArray, RealLike, RealOrArray
from .registry import M_BITS, N_RECORDS, Param, Theorem, register

__all__ = [
    "mi_to_approx_max_information",
    "mi_beta_exact",
    "mi_beta_float",
    "mi_k_float",
    "PAPER_CONSTANT",
    "approx_max_information_to_mi",
    "approx_dp_mutual_information",
]

#: The paper's constant; the true maximum of (1 - w) log2(1/(1 - w)) is log2(e)/e = 0.53074...
PAPER_CONSTANT = 0.54

K_BITS = Param("k", Real(0, lo_open=True, units="bits"), "target max-information, bits")


def _curve_body(c: Context, b: Any, k: Any) -> Any:
    # the proof's inequality (RRST App. C, eq. (24) + Jensen): f_k(b) = k b + (1 - b) log2(1 - b)
    return k * b + (1 - b) * c.log1p(-b) * c.log2e


def _paper_beta_body(c: Context, m: Any, k: Any) -> Any:
    # RRST Lemma 1.5 (first part): beta(k) = (m + 0.54)/k  (0.54 the decimal 27/50)
    return (m + c.num(Fraction(27, 50))) / k


#: f_k(beta) of Lemma 1.5's proof, and the paper's closed form, each written once
MI_CURVE = Formula(_curve_body, ("beta", "k"))
MI_PAPER_BETA = Formula(_paper_beta_body, ("m", "k"))


def _f_float(b: float, k: float) -> float:
    return MI_CURVE.estimate(b, k) if b < 1.0 else k


def mi_beta_exact(m: float, k: float, *, dps: int = 30) -> float:
    """Certified upper bound on ``beta* = max{beta in [0, 1]: k beta + (1-beta) log2(1-beta) <= m}``.

    Units: ``m`` and ``k`` in bits. Returns 1.0 when ``m >= k`` (no constraint). The root is
    located with :func:`scipy.optimize.brentq` and then certified: the returned float ``b``
    satisfies ``f_k(b) > m`` in interval arithmetic, so ``beta* < b`` (``f_k`` is convex with
    ``f_k(0) = 0 <= m``).

    >>> mi_beta_exact(1.0, 10.0) < (1.0 + 0.54) / 10.0     # never worse than the paper
    True
    """
    mx, kx = M_BITS.check(m), K_BITS.check(k)  # exact (Fractions, big integers) for the check
    mf, kf = M_BITS.check_float(m), K_BITS.check_float(k)
    b = mi_beta_float(mf, kf)
    if b == 1.0:  # vacuous
        return b
    if mx == 0 and enclosure(lambda iv: Interval(iv).num(kx) * Interval(iv).ln2, prec=iv_prec(dps))[0] >= 1:
        return 0.0  # exact: k ln 2 >= 1 (k >= log2 e, decided in interval arithmetic), f_k >= 0
    if b == 0.0:  # a root below what the float search resolves: beta* >= m/k (f_k(b) <= k b)
        # (also m = 0 with k below log2 e by less than the float test sees, e.g. the float
        # log2(e) = 1.44269504088896338..., below the real one: beta* ~ 2.8e-17, not 0)
        b = max(mf / kf, 5e-324)
    prec = iv_prec(dps)

    def certified_above_root(x: float) -> bool:
        # f_k(x) > m with the exact m and k (a float compares exactly with a Fraction or int)
        return bool(x >= 1.0 or MI_CURVE.down(x, kx, prec=prec) > mx)

    return min(first_true(b, certified_above_root, up=True), 1.0)


def _root(m: float, k: float, lo_b: float, hi_b: float) -> float:
    # xtol relative to the root's scale (beta* >= m/k) down to 1e-300; below it (subnormal
    # scales, where f_k is too coarse for brentq) the bracket of mi_beta_float already pins the
    # root within a factor k/(k - log2 e)
    if _f_float(lo_b, k) - m >= 0:
        # a float f_k at its minimum (k just below log2 e: the minimum is 0 to within rounding)
        # already at or above a tiny m: the root is the minimum's point to float precision
        return lo_b
    return float(
        brentq(
            lambda b: _f_float(b, k) - m,
            lo_b,
            hi_b,
            # brentq's tolerances: search tuning (the root is held to 1e-13 of 60 digits by the tests)
            xtol=max(m / k * 2**-60, 1e-300),  # pragma: no mutate
            rtol=4 * np.finfo(float).eps,  # pragma: no mutate
            maxiter=400,  # pragma: no mutate
        )
    )


def mi_beta_float(m: float, k: float) -> float:
    """Uncertified float ``beta*`` (for optimisers; certify the final choice with mi_beta_exact)."""
    if m >= k:
        return 1.0
    if m == 0.0 and k >= math.log2(math.e):
        # f_k is non-decreasing from f_k(0) = 0 when k >= log2 e: beta* = 0 exactly
        return 0.0
    # f_k is convex with its minimum at 1 - 2^(k - log2 e) (or at 0 when k >= log2 e), where
    # it is <= f_k(0) = 0 <= m; the root we want lies between that minimum and 1.
    lo_b = 0.0 if k >= math.log2(math.e) else 1.0 - 2.0 ** (k - math.log2(math.e))
    hi_b = 1.0 - 2.0**-53
    if _f_float(hi_b, k) <= m:
        return 1.0
    if k > math.log2(math.e):
        # b (k - log2 e) <= f_k(b) <= k b: the root lies in [m/k, m/(k - log2 e)], a bracket
        # of relative width about log2(e)/k, so tiny roots (tiny m) are found in few steps;
        # each end widened by 1e-12 relative against its own rounding
        lo_b = max(lo_b, m / k * (1 - 1e-12))
        hi_b = min(hi_b, m / (k - math.log2(math.e)) * (1 + 1e-12))
        if not _f_float(hi_b, k) >= m:  # rounding at the ends: fall back to the whole range
            lo_b, hi_b = 0.0, 1.0 - 2.0**-53
    return _root(m, k, lo_b, hi_b)


def mi_k_float(m: float, beta: float) -> float:
    """Uncertified float inverse of :func:`mi_beta_float`: the ``k`` at which the exact curve
    of Lemma 1.5's proof gives ``beta``, ``k = (m - (1 - beta) log2(1 - beta)) / beta`` (for
    optimisers; never above the paper's ``(m + 0.54)/beta``). ``inf`` at ``beta <= 0``.

    >>> round(mi_k_float(1.0, 0.1), 5)     # (1 - 0.9 log2 0.9)/0.1 = (1 + 0.136803)/0.1, hand
    11.36803
    """
    if beta <= 0.0:
        return math.inf
    if beta >= 1.0:
        return 0.0
    return (m - MI_CURVE.estimate(beta, 0.0)) / beta  # f_k(beta) = k beta + f_0(beta) = m


@overload
def mi_to_approx_max_information(  # type: ignore[overload-overlap]
    m: RealLike,
    k: RealLike,
    *,
    variant: str = ...,
    dps: int = ...,
) -> Bound: ...


@overload
def mi_to_approx_max_information(
    m: RealOrArray, k: RealOrArray, *, variant: str = ..., dps: int = ...
) -> FloatArray: ...


def mi_to_approx_max_information(
    m: RealOrArray, k: RealOrArray, *, variant: str = "exact", dps: int = 30
) -> Bound | FloatArray:
    r"""A (k, β) max-information bound from a mutual-information bound ``m`` bits.

    .. math:: I(X;Y) \le m \implies I^{\beta(k)}_\infty(X;Y) \le k,\quad \beta(k) = \frac{m+0.54}{k}\ (\text{paper})

    Theorem: RRST Lemma 1.5 (first part). ``variant="exact"`` (default) uses the root
    ``beta*`` of the proof's inequality ``k beta + (1-beta) log2(1-beta) = m`` (never larger
    than the paper's; see the module docstring), ``variant="paper"`` the closed form.
    Units: ``m`` and ``k`` in bits.
    Conditions:
      * ``m >= 0``, ``k > 0`` (finite).
      * holds for the joint distribution of (X, Y) the MI bound is about; an algorithm-level
        bound ``I(X; A(X)) <= m`` for every data distribution gives ``I^beta_infty(A, n) <= k``.
    Returns: a :class:`~maxinfo_bounds.catalog.Bound` with ``beta`` rounded up (capped at 1,
    which is vacuous). Arrays: a float64 array of ``beta`` (``variant="paper"`` vectorised;
    ``"exact"`` evaluated point by point).

    Examples
    --------
    >>> mi_to_approx_max_information(1.0, 10.0, variant="paper").beta   # (1 + 0.54)/10, hand
    0.15400000000000003
    >>> b = mi_to_approx_max_information(1.0, 10.0)   # root of 10 b + (1-b) log2(1-b) = 1
    >>> 0.1156 < b.beta < 0.1157
    True
    """
    if variant not in ("exact", "paper"):
        raise InvalidParameter("variant", variant, "'exact' or 'paper'")
    if is_array(m, k):
        ma, ka = M_BITS.check_array(m), K_BITS.check_array(k)
        if variant == "paper":
            return np.minimum(fast_up(MI_PAPER_BETA.array(ma, ka)), 1.0)
        mb, kb = np.broadcast_arrays(ma, ka)
        return np.array([mi_beta_exact(float(a), float(b), dps=dps) for a, b in zip(mb.ravel(), kb.ravel())]).reshape(
            mb.shape
        )
    mx, kx = M_BITS.check(m), K_BITS.check(k)
    if variant == "paper":
        beta = min(float_up(MI_PAPER_BETA.exact(mx, kx)), 1.0)  # rational: exact inputs, rounded up
    else:
        beta = mi_beta_exact(mx, kx, dps=dps)
    # the reported k at or above the exact one (beta(k) was certified at the exact k)
    return Bound(
        k=float_up(kx),
        beta=beta,
        theorem="RRST-1.5a",
        variant=variant,
        conditions=("I(X;Y) <= m bits", M_BITS.condition(), K_BITS.condition()),
    )


register(
    Theorem(
        id="RRST-1.5a",
        value_name="beta",
        paper="RRST",
        number="Lemma 1.5 (first part)",
        title="Mutual information bounds approximate max-information",
        formula=MI_PAPER_BETA,
        lhs=r"I(X;Y) \le m \implies I^{\beta(k)}_\infty(X;Y) \le k,\ \beta(k) \le \beta_{\mathrm{paper}}(k) =",
        conditions=(
            "I(X;Y) <= m (bits)",
            "exact variant: beta(k) = root of k b + (1 - b) log2(1 - b) = m (never larger)",
        ),
        units="m and k in bits",
        params=(M_BITS, K_BITS),
        evaluator=mi_to_approx_max_information,
        returns="Bound(k, beta rounded up; variant 'exact' (default) or 'paper')",
    )
)


# --------------------------------------------------------------------------------------------
# the other direction: approximate max-information to mutual information (Lemma 1.5, part 2)


def _to_mi_body(c: Context, k: Any, beta: Any, support: Any, *, variant: str, unit: str) -> Any:
    """RRST Lemma 1.5 (second part): 2k ln 2 + the beta term, in nats (then in ``unit``)."""
    one_minus = -c.expm1(-k * c.ln2)  # 1 - 2^{-k}
    if variant == "paper":
        # 2 beta log2(|Sigma|/(2 beta)) / (1 - 2^{-k}), the paper's log2 read literally
        nats = 2 * k * c.ln2 + c.xlog(2 * beta, support) * c.log2e / one_minus
    else:
        # sound: b (ln|Sigma| + ln(1/b)) with b = beta/(1 - 2^{-k})
        nats = 2 * k * c.ln2 + c.xlog(beta / one_minus, support)
    return nats * c.log2e if unit == "bits" else nats


#: RRST Lemma 1.5 (second part), each variant and unit, written once
TO_MI = {
    (v, u): Formula(_to_mi_body, ("k", "beta", "Sigma"), kwargs={"variant": v, "unit": u})
    for v in ("sound", "paper")
    for u in ("bits", "nats")
}
K_POS = Param("k", Real(0, lo_open=True, units="bits"), "max-information bound, bits")
BETA_TO_MI = Param(
    "beta",
    Real(0, 1, relation="paper: beta <= 3(1 - 2^-k)/20; sound: beta/(1 - 2^-k) <= 1/e"),
    "approximation parameter",
)
SUPPORT = Param("support_size", Int(1), "number of values of X")
DOMAIN_SIZE = Param("domain_size", Int(1), "number of values of one record")


@overload
def approx_max_information_to_mi(  # type: ignore[overload-overlap]
    k: RealLike,
    beta: RealLike,
    support_size: IntLike,
    *,
    variant: str = ...,
    unit: str = ...,
    strict: bool = ...,
    dps: int = ...,
) -> float: ...


@overload
def approx_max_information_to_mi(
    k: RealOrArray,
    beta: RealOrArray,
    support_size: IntOrArray,
    *,
    variant: str = ...,
    unit: str = ...,
    strict: bool = ...,
    dps: int = ...,
) -> FloatArray: ...


def approx_max_information_to_mi(
    k: RealOrArray,
    beta: RealOrArray,
    support_size: IntOrArray,
    *,
    variant: str = "sound",
    unit: str = "bits",
    strict: bool = True,
    dps: int = 30,
) -> float | FloatArray:
    r"""A mutual-information bound from ``I^beta_infty(X; Y) <= k`` bits; X on ``support_size`` values.

    .. math:: I(X;Y) \le 2k\ln 2 + \frac{2\beta\log_2(|\Sigma|/2\beta)}{1 - 2^{-k}}\quad(\text{paper; in nats})

    Theorem: RRST Lemma 1.5 (second part; the journal version's looser bound).
    Units: ``k`` in bits. The proof computes ``I`` with natural logarithms, so the paper's
    right-hand side bounds ``I`` **in nats** (its ``log2`` terms over-bound the ``ln`` terms the
    proof produces); in bits it is that value divided by ``ln 2``. ``unit`` selects the unit of
    the returned bound (default bits).
    Variants:
      * ``"paper"``: the displayed formula, read in nats.
      * ``"sound"`` (default): the proof's own intermediate bound, tightened:
        ``2k ln 2 + b (ln|Sigma| + ln(1/b))`` nats with ``b = beta/(1 - 2^{-k})``. Only the
        upper tail of the information density is needed, and one-sided indistinguishability
        gives ``Pr[B] < beta/(1 - 2^{-k})``, half the ``2 beta/(1 - 2^{-k})`` of Lemma A.6
        (which also covers the lower tail); ``H(X') <= ln|Sigma|`` in nats.
    Conditions:
      * ``k > 0``; ``support_size >= 1``; paper: ``0 <= beta <= 3(1 - 2^{-k})/20``; sound:
        ``beta/(1 - 2^{-k}) <= 1/e`` (where ``w ln(1/w)`` is increasing). Outside:
        :class:`~maxinfo_bounds.numeric.RegimeError` (``strict=False`` returns the value).
    Returns: an upper bound on ``I(X; Y)`` rounded up, in ``unit``.

    >>> round(approx_max_information_to_mi(1.0, 0.0, 2), 12)     # 2k ln2 nats = 2k bits, hand
    2.0
    >>> approx_max_information_to_mi(1.0, 0.01, 1024) < approx_max_information_to_mi(
    ...     1.0, 0.01, 1024, variant="paper")
    True
    """
    if variant not in ("sound", "paper"):
        raise InvalidParameter("variant", variant, "'sound' or 'paper'")
    if unit not in ("bits", "nats"):
        raise InvalidParameter("unit", unit, "'bits' or 'nats'")
    if is_array(k, beta, support_size):
        return _to_mi_vectorised(k, beta, support_size, variant, unit, strict)
    kx, bx, s = K_POS.check(k), BETA_TO_MI.check(beta), SUPPORT.check(support_size)  # exact
    if strict and not _to_mi_inside(kx, bx, variant):
        raise RegimeError("RRST Lemma 1.5 (second part)", "beta", beta, _TO_MI_CONDITION[variant])
    return TO_MI[variant, unit].up(kx, bx, s, prec=iv_prec(dps))


_TO_MI_CONDITION = {"paper": "0 <= beta <= 3(1 - 2^-k)/20", "sound": "beta/(1 - 2^-k) <= 1/e"}


def _to_mi_edge(c: Context, k: Any, variant: str) -> Any:
    """The largest beta inside Lemma 1.5 (second part)'s regime, written once (``c``: the
    float64 context for arrays, the interval one for the exact decision)."""
    one_minus = -c.expm1(-c.num(k) * c.ln2)  # 1 - 2^-k without cancellation at small k
    return 3 * one_minus / 20 if variant == "paper" else one_minus / c.exp(c.num(1))


def _to_mi_inside(k: Any, beta: Any, variant: str) -> bool:
    """The regime condition at one point, decided exactly: in float64 away from the edge; within
    1e-12 of it in rationals when k is an integer
    (the paper's edge 3(1 - 2^-k)/20 is then rational, and can equal beta), else in interval
    arithmetic (a margin whose enclosure is not >= 0 counts as outside). A float test is wrong
    by an ulp at the edge: beta = 0.5/math.e at k = 1 lies above 1/(2e)."""
    kf, bf = Fraction(k), Fraction(beta)
    with np.errstate(all="ignore"):
        edge, b = float(_to_mi_edge(NUMPY, float(kf), variant)), float(bf)
    if abs(b - edge) > 1e-12 * edge:  # float64 decides away from the edge (its error: a few ulp)
        return b < edge
    if variant == "paper" and kf.denominator == 1 and kf < 4096:
        return bool(bf <= 3 * (1 - Fraction(1, 2 ** int(kf))) / 20)
    return bool(bf == 0 or enclosure(lambda iv: _to_mi_edge(Interval(iv), kf, variant) - Interval(iv).num(bf))[0] >= 0)


def _to_mi_vectorised(k: Any, beta: Any, support_size: Any, variant: str, unit: str, strict: bool) -> FloatArray:
    ka, ba = K_POS.check_array(k), BETA_TO_MI.check_array(beta)
    ka, ba, sa = np.broadcast_arrays(ka, ba, SUPPORT.check_array(support_size))
    with np.errstate(all="ignore"):
        edge = _to_mi_edge(NUMPY, ka, variant)
    ok = ba <= edge
    # entries within 1e-12 of the edge: decided exactly, one by one (the float test errs by ulps)
    near = ~(np.abs(ba - edge) > 1e-12 * edge)
    for j in np.flatnonzero(near.ravel()):
        ok.ravel()[j] = _to_mi_inside(float(ka.ravel()[j]), float(ba.ravel()[j]), variant)
    if strict and not ok.all():
        i = int(np.flatnonzero(~ok.ravel())[0])
        raise RegimeError("RRST Lemma 1.5 (second part)", f"beta[{i}]", float(ba.ravel()[i]), _TO_MI_CONDITION[variant])
    return fast_up(TO_MI[variant, unit].array(ka, ba, sa))


register(
    Theorem(
        id="RRST-1.5b",
        value_name="m_bits",
        paper="RRST",
        number="Lemma 1.5 (second part)",
        title="Approximate max-information bounds mutual information",
        formula=TO_MI["sound", "bits"],
        lhs=r"I(X;Y)\ [\text{bits}] \le",
        conditions=(
            "I^beta_inf(X;Y) <= k bits",
            "X takes |Sigma| = support_size values",
            "paper: 0 <= beta <= 3(1 - 2^-k)/20; sound: beta/(1 - 2^-k) <= 1/e",
            "the bound is on I in nats (the proof's unit); returned in bits by default",
        ),
        units="k in bits; result in bits (unit='nats' available)",
        params=(K_POS, BETA_TO_MI, SUPPORT),
        evaluator=approx_max_information_to_mi,
        returns="float upper bound on I(X;Y), rounded up (variant 'sound' (default) or 'paper')",
    )
)


def approx_dp_mutual_information(
    eps: float,
    delta: float,
    n: int,
    domain_size: int,
    *,
    beta: float | None = None,
    variant: str = "sound",
    unit: str = "bits",
) -> float:
    r"""Mutual information of an (ε, δ)-DP algorithm on n i.i.d. records, explicit.

    RRST Cor 1.6 states ``I(X; A(X)) = O(n eps^2 + n sqrt(delta/eps)(1 + ln(...) + n log|X|))``
    under ``eps = Omega(1/sqrt(n))`` and ``delta = O(eps/n^2)``, conditions whose constants the
    paper does not give, so the corollary itself has no explicit form. Its proof is a route we
    can evaluate explicitly: RRST Thm 3.1 (``variant``; ``beta`` a target, or by default the
    best of 25 targets in [1e-12, 0.3], each certified) gives ``(k, beta)``, and Lemma 1.5
    (second part) with
    ``|Sigma| = domain_size^n`` turns it into a mutual-information bound.
    Units: ``eps`` in nats; result in bits (``unit="nats"`` available). Conditions: those of
    both results (RegimeError otherwise). Returns: an upper bound, rounded up.

    >>> m = approx_dp_mutual_information(0.05, 1e-30, 100, 2)
    >>> 0 < m < 100
    True
    """
    from .maxinfo_dp import approx_dp_max_information

    d, ni = DOMAIN_SIZE.check(domain_size), N_RECORDS.check(n)
    if beta is not None:
        b = approx_dp_max_information(eps, delta, ni, beta=beta, variant=variant)
        return float(approx_max_information_to_mi(b.k, b.beta, d**ni, variant=variant, unit=unit))
    approx_dp_max_information(eps, delta, ni, variant=variant)  # regime check (RegimeError)
    best = math.inf
    for target in np.geomspace(1e-12, 0.3, 25):  # each candidate is a certified bound
        try:
            b = approx_dp_max_information(eps, delta, ni, beta=float(target), variant=variant)
            best = min(best, float(approx_max_information_to_mi(b.k, b.beta, d**ni, variant=variant, unit=unit)))
        except (InvalidParameter, RegimeError):
            continue
    if best == math.inf:
        raise InvalidParameter(
            "delta",
            delta,
            "small enough that some beta <= 0.3 is reachable by RRST Thm 3.1 (roughly n sqrt(delta/eps) << 1)",
        )
    return best
