"""Approximate DP bounds approximate max-information on i.i.d. data: RRST Thm 3.1, explicit from
its proof, in its paper and sound variants, and at the best implied guarantee (eps' >= eps).
``eps`` in nats, ``k`` in bits.

Why one module over 400 lines: one theorem (its formula, both variants' regimes, the certified
scalar path, the array path with its delicate entries, and the implied-guarantee search that
optimises t and delta_hat); each piece reads the same body and regime tests.
"""

from __future__ import annotations

import math
import sys
from dataclasses import replace
from fractions import Fraction
from functools import lru_cache
from typing import Any, overload

import numpy as np

from ...arith import NUMPY, Context, Formula, Interval
from ...domain import Real
from ...numeric import (
    InvalidParameter,
    RegimeError,
    each_entry,
    enclosure,
    fast_up,
    float_down,
    is_array,
    iv_prec,
)
from ...results import Bound
from ...search import minimise
from ...types import FloatArray, IntLike, IntOrArray, RealLike, RealOrArray
from ..registry import EPS_POSITIVE as EPS_ANY
from ..registry import N_RECORDS as N
from ..registry import Param, Theorem, register

EPS = Param("eps", Real(0, 0.5, lo_open=True, units="nats"), "DP parameter, nats")
DELTA = Param("delta", Real(0, 1, lo_open=True, hi_open=True, relation="delta < eps"), "DP parameter")
T = Param("t", Real(0, lo_open=True), "Azuma deviation parameter")
DELTA_HAT = Param("delta_hat", Real(0, 1, lo_open=True), "Lemma 3.7 parameter")
BETA = Param("beta", Real(0, 1, lo_open=True, hi_open=True), "target approximation parameter")
# the functions' own ranges: eps > 0 before the regime test (which then asks eps <= 1/2), and
# the implied-guarantee search (eps >= 0, delta < 1/2)
EPS0 = Param("eps", Real(0, units="nats"), "DP parameter, nats")
DELTA_BELOW_HALF = Param("delta", Real(0, 0.5, lo_open=True, hi_open=True), "DP parameter")


def _thm31_body(c: Context, eps: Any, delta: Any, n: Any, t: Any, dhat: Any, *, variant: str, part: str) -> Any:
    """RRST Thm 3.1 at (t, delta_hat), written once: ``part`` "k" (bits) or "beta".

    With expm1/log1p so that no step cancels in float64: 1 - e^{-x} = -expm1(-x),
    e^{6e} - 2e^{3e} + 1 = expm1(3e)^2, e^{6e}/(1 - d'') - 1 = (expm1(6e) + d'')/(1 - d''),
    log((1 - d'')/(1 - e^{3e} d'' - dh)) = log1p((expm1(3e) d'' + dh)/(1 - e^{3e} d'' - dh)).
    """
    d1 = 2 * delta / dhat + 2 * delta / -c.expm1(-eps)  # delta'  (Claim 3.4, Lemma A.7)
    d2 = 2 * dhat / -c.expm1(-3 * eps)  # delta'' (Claim 3.5, Lemma A.6)
    e3 = c.exp(3 * eps)
    if variant == "paper":
        # eq. (7) literally, with the paper's log = log2 (so log(e) = log2 e)
        if part == "beta":
            return c.exp(-t * t / 2) + n * (d1 + d2)
        e6 = e3 * e3
        nu = (
            72 * eps * eps
            + dhat * (24 * e6 / -c.expm1(-3 * eps) + c.log2e * (2 * e3 + 1))
            + dhat * dhat * (2 * c.log2e * (4 * e6 * e6 + 4 * e6 * e3 - 3 * e6 - 2 * e3 + 1) / c.expm1(3 * eps) ** 2)
        )
        return n * nu + 6 * t * eps * c.sqrt(n)
    if part == "beta":
        # Claim 3.6, union bound: delta' + delta'' - delta' delta'' (as delta'(1 - delta'') +
        # delta'', which stays finite in float64 when delta' overflows)
        return c.exp(-t * t / 2) + n * (d1 * (1 - d2) + d2)
    # sound: Z_i in bits, so the point-wise bound |ln ratio| <= 6 eps is 6 eps log2(e) bits;
    # Lemma 3.7 kept at its tightest form before the elementary inequalities:
    #   E[Z_i | F_i] <= c6 (e^{6 eps}/(1 - d'') - 1) + log2((1 - d'')/(1 - e^{3eps} d'' - dhat))
    c6 = 6 * eps * c.log2e
    nu = c6 * (c.expm1(6 * eps) + d2) / (1 - d2) + c.log2e * c.log1p(
        (c.expm1(3 * eps) * d2 + dhat) / (1 - e3 * d2 - dhat)
    )
    return n * nu + c6 * t * c.sqrt(n)


_SYMS = ("epsilon", "delta", "n", "t", "delta_hat")
#: RRST Thm 3.1 (k bits and beta), each variant, written once (see :mod:`maxinfo_bounds.arith`)
THM31 = {
    (v, part): Formula(_thm31_body, _SYMS, integer=("n",), kwargs={"variant": v, "part": part})
    for v in ("sound", "paper")
    for part in ("k", "beta")
}


def _paper_choice(eps: float, delta: float, n: int, eps_exact: Any = None) -> tuple[float, float]:
    """The paper's point: t = eps sqrt(2n), delta_hat = sqrt(eps delta)/15, the latter capped at
    the float at or below eps/15 (``eps_exact``, the input as given, where it is not a float):
    with delta within a few ulps of eps the float square root can land above eps/15, outside
    Lemma 3.7's condition, and the theorem was refused inside its own regime. Elsewhere the cap
    changes nothing."""
    exact = Fraction(eps if eps_exact is None else eps_exact)
    dh = math.sqrt(eps * delta) / 15
    if Fraction(delta) < exact:  # inside the regime (outside it the point is left as it was)
        dh = min(dh, float_down(exact / 15))
    return eps * math.sqrt(2 * n), dh


#: RRST Thm 3.1's regime in eps (nats), declared once: the evaluators, the implied-guarantee
#: search, the planner's routes and the one-step corrections all read it
THM31_EPS_MAX = 0.5
#: the regime of an (eps, delta)-DP stage converted at an implied guarantee eps' >= eps
THM31_IMPLIED_REGIME = "eps in (0, 1/2] and delta < eps' for some implied eps' in [eps, 1/2]"


def thm31_outside(eps: float, delta: float) -> bool:
    """True when no implied guarantee eps' in [eps, 1/2] with delta < eps' exists (eps or delta
    above 1/2): RRST Thm 3.1 cannot convert an (eps, delta)-DP stage at any beta."""
    return max(eps, delta) > THM31_EPS_MAX


#: the conditions of RRST Thm 3.1 (delta_hat's depends on the variant)
_CONDITIONS = {
    "eps": "eps in (0, 1/2]",
    "delta": "delta in (0, eps)",
    "paper": "delta_hat in (0, eps/15] (Lemma 3.7)",
    "sound": "e^{3eps} delta'' + delta_hat < 1 (Lemma 3.7's logarithm)",
}


def _sound_regime_lhs(c: Context, eps: Any, dhat: Any) -> Any:
    """e^{3 eps} delta'' + delta_hat, below 1 inside the sound variant's regime (written once:
    the interval test, the float masks and the array path's cancellation test read it)."""
    e, dh = c.num(eps), c.num(dhat)
    return c.exp(3 * e) * (2 * dh / -c.expm1(-3 * e)) + dh


def _thm31_violations(eps: Any, delta: Any, dhat: Any, variant: str) -> list[tuple[str, str, Any]]:
    """Each condition of RRST Thm 3.1 as (name, condition, mask of the entries violating it)."""
    with np.errstate(all="ignore"):
        e, d, dh = (np.asarray(x, dtype=np.float64) for x in (eps, delta, dhat))
        inside = dh <= e / 15 if variant == "paper" else _sound_regime_lhs(NUMPY, e, dh) < 1
        return [
            ("eps", _CONDITIONS["eps"], ~(e <= THM31_EPS_MAX)),
            ("delta", _CONDITIONS["delta"], ~(d < e)),
            ("delta_hat", _CONDITIONS[variant], ~inside),
        ]


def _thm31_regime(eps: Any, delta: Any, dhat: Any, variant: str) -> list[tuple[str, str, Any]]:
    """Violated conditions at a scalar point as (name, condition, value), decided exactly
    (the sound variant's e^{3eps} delta'' + delta_hat < 1 in interval arithmetic: a point whose
    enclosure does not lie below 1 counts as outside)."""
    e, d, dh = (Fraction(x) for x in (eps, delta, dhat))
    out = []
    if not 0 < e <= Fraction(1, 2):
        out.append(("eps", _CONDITIONS["eps"], eps))
    if not d < e:
        out.append(("delta", _CONDITIONS["delta"], delta))
    if variant == "paper":
        inside = dh <= e / 15
    else:
        # float64 decides unless within 1e-12 of the boundary (its error is a few ulp);
        # there interval arithmetic does (the optimisers call this for every candidate)
        with np.errstate(all="ignore"):
            # (an eps past the floats, outside the regime already, read as the largest float)
            lhs = float(_sound_regime_lhs(NUMPY, float(min(eps, sys.float_info.max)), float(dhat)))
        if abs(lhs - 1) > 1e-12:
            inside = lhs < 1
        else:
            # the margin 1 - lhs, not lhs: an enclosure's float ends are rounded outward, and
            # floats below 1 are 1.1e-16 apart, so lhs = 1 - 7e-17 would round up to 1
            inside = enclosure(lambda iv: 1 - _sound_regime_lhs(Interval(iv), eps, dhat))[0] > 0
    if not inside:
        out.append(("delta_hat", _CONDITIONS[variant], dhat))
    return out


def _thm31_certified(eps: Any, delta: Any, n: int, t: Any, dhat: Any, variant: str, dps: int) -> tuple[float, float]:
    args, prec = (eps, delta, n, t, dhat), iv_prec(dps)
    try:
        k = THM31[variant, "k"].up(*args, prec=prec)
    except (ValueError, ZeroDivisionError, ArithmeticError):  # outside the regime
        k = math.inf  # (strict=False): Lemma 3.7's logarithm is undefined, the bound vacuous
    b = THM31[variant, "beta"].up(*args, prec=prec)
    # outside the regime (strict=False) the formula can be negative (delta >= eps): no bound
    # there, so the vacuous one (k = inf, beta = 1), never a negative k or beta
    return (k if k >= 0 else math.inf), (b if b >= 0 else 1.0)


@overload
def approx_dp_max_information(  # type: ignore[overload-overlap]
    eps: RealLike,
    delta: RealLike,
    n: IntLike,
    *,
    beta: float | None = ...,
    t: float | None = ...,
    delta_hat: float | None = ...,
    variant: str = ...,
    strict: bool = ...,
    dps: int = ...,
) -> Bound: ...


@overload
def approx_dp_max_information(
    eps: RealOrArray,
    delta: RealOrArray,
    n: IntOrArray,
    *,
    beta: float | None = ...,
    t: RealOrArray | None = ...,
    delta_hat: RealOrArray | None = ...,
    variant: str = ...,
    strict: bool = ...,
    dps: int = ...,
) -> tuple[FloatArray, FloatArray]: ...


def approx_dp_max_information(
    eps: RealOrArray,
    delta: RealOrArray,
    n: IntOrArray,
    *,
    beta: float | None = None,
    t: RealOrArray | None = None,
    delta_hat: RealOrArray | None = None,
    variant: str = "sound",
    strict: bool = True,
    dps: int = 30,
) -> Bound | tuple[FloatArray, FloatArray]:
    r"""β-approximate max-information of an (ε, δ)-DP algorithm on n i.i.d. records, in bits.

    .. math:: I^{\beta(t,\hat\delta)}_{\infty,P}(A, n) \le n\,\nu(\hat\delta) + 6 t\varepsilon\sqrt{n},
        \quad \beta(t,\hat\delta) = e^{-t^2/2} + n(\delta' + \delta'')

    with ``delta' = 2 delta/dhat + 2 delta/(1 - e^{-eps})``, ``delta'' = 2 dhat/(1 - e^{-3 eps})``
    and ``nu`` of RRST eq. (7).

    Theorem: RRST Thm 3.1, made explicit from its proof (Claims 3.4–3.6, Lemmas 3.7, 3.8, Azuma).
    Units: ``eps`` in nats, ``k`` in bits.
    Variants:
      * ``"paper"``: eq. (7) and the final bound literally.
      * ``"sound"`` (default): what the proof supports with ``log = log2`` throughout. The
        information density ``Z_i`` is in bits, so the point-wise bound ``|ln ratio| <= 6 eps``
        is ``6 eps log2(e)`` bits (in ``F_i``, the Azuma range and Lemma 3.7); Lemma 3.7 is
        kept at its tightest form, ``c (e^{6 eps}/(1 - delta'') - 1) + log2((1 - delta'')/(1 -
        e^{3 eps} delta'' - dhat))`` with ``c = 6 eps log2 e``, instead of ``72 eps^2 + ...``,
        whose step ``6 eps (e^{6 eps} - 1) <= 72 eps^2`` fails for ``eps > 0.2094``; and
        ``beta`` uses Claim 3.6's ``delta' + delta'' - delta' delta''``. See docs/errata.md.
    Parameters: with neither ``beta`` nor ``t``/``delta_hat``, the paper's choice
    ``t = eps sqrt(2n)``, ``delta_hat = sqrt(eps delta)/15``. With ``t`` and ``delta_hat``, that
    point. With a target ``beta``: ``t`` and ``delta_hat`` minimising ``k`` subject to
    ``beta(t, delta_hat) <= beta`` (never worse than the paper's choice when that meets the
    target).
    Conditions:
      * ``eps`` in (0, 1/2], ``delta`` in (0, eps), ``n >= 1`` (RRST Thm 3.1); ``delta_hat`` in
        (0, eps/15] for the paper variant (Lemma 3.7), and ``e^{3eps} delta'' + delta_hat < 1``
        for the sound one. Outside: :class:`~maxinfo_bounds.numeric.RegimeError`;
        ``strict=False`` returns the value marked ``in_regime=False``.
      * i.i.d. (product) data: the bound is ``product_only`` (first stage only, RRST §4).
    Returns: a :class:`~maxinfo_bounds.catalog.Bound` with ``k`` and ``beta`` rounded up.

    Examples
    --------
    >>> b = approx_dp_max_information(0.1, 1e-14, 1000)    # the paper's t and delta_hat
    >>> b.product_only, b.variant, round(b.k, 1), round(b.beta, 5)
    (True, 'sound', 834.1, 0.00955)
    >>> approx_dp_max_information(0.1, 1e-14, 1000, beta=0.00955).k < b.k   # optimised
    True
    """
    if variant not in ("sound", "paper"):
        raise InvalidParameter("variant", variant, "'sound' or 'paper'")
    if is_array(eps, delta, n, t, delta_hat):
        if beta is not None:
            raise InvalidParameter(
                "beta",
                beta,
                "omitted on the vectorised path (use the paper's choice or explicit t and delta_hat arrays)",
            )
        return _thm31_vectorised(eps, delta, n, t, delta_hat, variant, strict)
    ex = EPS_ANY.check(eps)
    dx, ni = DELTA.check(delta), N.check(n)
    # (an eps past the floats, outside the regime anyway, steers as the largest float)
    e, d = float(min(ex, sys.float_info.max)), float(dx)  # the float values steer the searches; the certified
    # evaluation and the regime test below read the exact inputs (Fractions, big integers)
    if (t is None) != (delta_hat is None):
        raise InvalidParameter("t" if t is None else "delta_hat", None, "given together with the other")
    if t is not None and beta is not None:
        raise InvalidParameter("beta", beta, "omitted when t and delta_hat are given")
    if t is not None:
        candidates = [(T.check(t), DELTA_HAT.check(delta_hat))]
    elif beta is None:
        candidates = [_paper_choice(e, d, ni, ex)]
    else:
        bt = BETA.check_float(beta)
        candidates = _thm31_candidates(e, d, ni, bt, variant)  # never empty: the paper's point is one
    best: tuple[float, float, float, float] | None = None
    bad_all: list[tuple[str, str, float]] = []
    for tt, dh in candidates:
        bad = _thm31_regime(ex, dx, dh, variant)
        if bad and strict:
            bad_all = bad
            continue
        k_hi, b_hi = _thm31_certified(ex, dx, ni, tt, dh, variant, dps)
        if beta is not None and b_hi > beta:
            continue
        if best is None or k_hi < best[0]:
            best = (k_hi, b_hi, tt, dh)
            bad_all = bad
    if best is None:
        if bad_all:
            name, cond, val = bad_all[0]
            raise RegimeError("RRST Thm 3.1", name, val, cond)
        raise InvalidParameter("beta", beta, "reachable with a certified beta(t, delta_hat)")
    k_hi, b_hi, tt, dh = best
    in_regime = not _thm31_regime(ex, dx, dh, variant)
    return Bound(
        k=k_hi,
        beta=min(b_hi, 1.0),
        theorem="RRST-3.1",
        variant=variant,
        product_only=True,
        in_regime=in_regime,
        conditions=(
            "eps in (0, 1/2]",
            "delta in (0, eps)",
            "n >= 1",
            f"t = {_txt(tt)}",
            f"delta_hat = {_txt(dh)}",
            "i.i.d. (product) data",
        ),
    )


def _txt(x: Any) -> str:
    return str(x) if isinstance(x, Fraction) else repr(float(x))


def _thm31_vectorised(
    eps: Any, delta: Any, n: Any, t: Any, delta_hat: Any, variant: str, strict: bool, *, certify: bool = True
) -> tuple[Any, Any]:
    """(k, beta) float64 arrays from the one formula body, each pushed up by FAST_REL_MARGIN.

    Entries where float64 cannot be trusted to that margin go through the certified scalar
    path instead: where Lemma 3.7's denominator 1 - e^{3eps} delta'' - delta_hat cancels (below
    1/4, so that its rounding error is amplified at most 4-fold) and where a regime test is
    too close to its boundary for float64 to decide it. ``certify=False`` (float estimates for
    the optimisers, whose final choice is certified by the scalar path) skips that step."""
    e = EPS_ANY.check_array(eps)
    d = DELTA.check_array(delta)
    nn = N.check_array(n)
    if t is None:
        e, d, nn = np.broadcast_arrays(e, d, nn)
        # the paper's delta_hat, capped below eps/15 (the float below the rounded quotient is
        # at or below the exact one; see _paper_choice)
        tt, dh = e * np.sqrt(2 * nn), np.sqrt(e * d) / 15
        dh = np.where(d < e, np.minimum(dh, np.nextafter(e / 15, 0.0)), dh)
    else:  # all five broadcast together: an array in t or delta_hat alone sets the shape
        e, d, nn, tt, dh = np.broadcast_arrays(e, d, nn, T.check_array(t), DELTA_HAT.check_array(delta_hat))
    viol = _thm31_violations(e, d, dh, variant)
    bad = np.zeros(e.shape, dtype=bool)
    for _, _, m in viol:
        bad |= m
    with np.errstate(all="ignore"):
        if variant == "sound":
            delicate = ~(_sound_regime_lhs(NUMPY, e, dh) <= 0.75)
        else:
            delicate = np.abs(dh - e / 15) <= 1e-14 * e
        # (eps <= 1/2 and delta < eps compare the inputs themselves: exact in float64)
        delicate &= certify
    viol = [(name, cond, m & ~delicate) for name, cond, m in viol]
    if strict and (bad & ~delicate).any():
        for name, cond, m in viol:
            if m.any():
                i = int(np.flatnonzero(m.ravel())[0])
                val = {"eps": e, "delta": d, "delta_hat": dh}[name].ravel()[i]
                raise RegimeError("RRST Thm 3.1", f"{name}[{i}]", float(val), cond)
    args = (e, d, nn, tt, dh)
    k = THM31[variant, "k"].array(*args)
    b = THM31[variant, "beta"].array(*args)
    # outside the regime the formula may be undefined (NaN) or negative (delta >= eps): the
    # vacuous bound there (k = inf, beta = 1), as on the scalar path; never NaN
    k = np.where(k >= 0, k, np.inf)
    b_bad = ~(b >= 0)
    # the margin of e^{-t^2/2} scales with that term only (the body without it: t = inf)
    with np.errstate(invalid="ignore"):  # inf - inf where beta overflows: no margin needed
        e_part = np.nan_to_num(np.maximum(b - THM31[variant, "beta"].array(e, d, nn, np.inf, dh), 0.0), nan=0.0)
        b = np.where(b_bad, 1.0, b)
        k, b = fast_up(k), np.minimum(fast_up(b, exp_arg=tt * tt / 2, exp_part=e_part), 1.0)
    for i, (ei, di, ni, ti, dhi) in each_entry(delicate, e, d, nn, tt, dh):  # certified
        try:
            one = approx_dp_max_information(ei, di, int(ni), t=ti, delta_hat=dhi, variant=variant)
        except RegimeError:
            if strict:
                raise
            continue  # outside the regime (strict=False): the formula's value, as elsewhere
        k.ravel()[i], b.ravel()[i] = one.k, one.beta
    return k, b


def _thm31_candidates(eps: float, delta: float, n: int, beta: float, variant: str) -> list[tuple[float, float]]:
    """(t, delta_hat) pairs to try for a target beta: the optimum and the paper's choice.

    For fixed ``delta_hat`` the smallest ``t`` meeting the target is
    ``sqrt(2 ln(1/(beta - n(delta' + delta''))))`` (``k`` grows with ``t``); ``delta_hat`` is
    then chosen by :func:`~maxinfo_bounds.search.minimise` on the float formulas. ``t`` is
    chosen for e^{-t^2/2} 1e-9 relative (and at least 2^-44 beta) below that remainder, so
    that the certified ``beta`` stays within the target (a relative nudge of ``t`` itself
    would vanish when t is tiny, i.e. for a target beta near 1).
    """

    def rem(dh: float) -> float:
        # the target less beta's n(delta' + delta'' ...) part: beta(t = inf, dh), less the margin
        r = beta - THM31[variant, "beta"].estimate(eps, delta, n, math.inf, dh)
        return r - max(r * 1e-9, beta * 2.0**-44)

    def k_of(logdh: float) -> float:
        dh = math.exp(logdh)
        r = rem(dh)
        if r <= 0 or r >= 1 or _thm31_regime(eps, delta, dh, variant):
            return math.inf
        tt = math.sqrt(-2 * math.log(r))
        # float surrogate only: non-finite means unusable
        return THM31[variant, "k"].estimate(eps, delta, n, tt, dh)

    hi = math.log(min(eps / 15 if variant == "paper" else 0.5, 0.5))
    lo = math.log(max(delta * 1e-6, 1e-300))
    out: list[tuple[float, float]] = []
    for logdh in minimise(k_of, lo, hi, grid=200):
        dh = math.exp(logdh)
        if math.isfinite(k_of(logdh)):
            out.append((math.sqrt(-2 * math.log(rem(dh))), dh))
    tp, dp = _paper_choice(eps, delta, n)
    out.append((tp, dp))
    return out


def _thm31_base(e_lo: float, delta: float, nf: float, le: Any, ld: Any) -> tuple[Any, Any, Any, Any]:
    """The part of :func:`thm31_implied_float_k`'s grid that does not depend on the target
    beta: the points (eps', delta_hat) (eps' clipped to [e_lo, 1/2]), RRST Thm 3.1's beta at
    t = inf there, and the mask of points inside the theorem's conditions."""
    E, D = np.meshgrid(np.exp(le), np.exp(ld), indexing="ij")
    E = np.minimum(np.maximum(E, e_lo), 0.5)
    with np.errstate(all="ignore"):
        b_inf = THM31["sound", "beta"].array(E, delta, nf, math.inf, D)
        inside = np.ones(E.shape, dtype=bool)
        for _, _, viol in _thm31_violations(E, delta, D, "sound"):
            inside &= ~viol
    for a in (E, D, b_inf, inside):
        a.flags.writeable = False
    return E, D, b_inf, inside


@lru_cache(maxsize=64)
def _thm31_base_grid(e_lo: float, delta: float, nf: float, le: bytes, ld: bytes) -> tuple[Any, Any, Any, Any]:
    """:func:`_thm31_base` on the first (largest) grid, cached: the planner's beta optimiser
    asks the same (eps, delta, n) at dozens of betas (a 1,000-step Gaussian plan: 120 calls)."""
    return _thm31_base(e_lo, delta, nf, np.frombuffer(le), np.frombuffer(ld))


def thm31_implied_float_k(
    eps: float, delta: float, n: int, beta: float, *, eps_grid: int = 24, dhat_grid: int = 96
) -> tuple[float, float, float, float]:
    """Float surrogate: the smallest sound RRST Thm 3.1 ``k`` at target ``beta`` over every
    implied guarantee ``(eps', delta)`` with ``eps' >= eps`` (an (ε, δ)-DP algorithm is
    (ε', δ)-DP for every ε' ≥ ε), ``t`` and ``delta_hat``.

    Returns ``(k, eps', t, delta_hat)``; ``k = inf`` when no point reaches ``beta``. Not
    certified: it only chooses the point that :func:`approx_dp_max_information_implied`
    certifies. A vectorised grid over (log ε', log δ̂), then two zoomed grids around the best
    point. For fixed (ε', δ̂) the smallest ``t`` meeting the target is
    ``sqrt(2 ln(1/(beta - n(δ' + δ'' - δ'δ''))))``, and ``k`` grows with ``t``.
    """
    if not (0 < beta < 1) or not (0 <= eps) or not (0 < delta < 0.5):
        return math.inf, eps, math.nan, math.nan
    # pragma: no mutate start (the grid's placement: which points a float search visits; points
    # outside the theorem's conditions are masked by `inside`, the chosen point is certified)
    e_lo = max(eps, delta * (1 + 2**-30), 1e-300)
    # pragma: no mutate end
    if e_lo > THM31_EPS_MAX:  # no eps' in [eps, 1/2] above delta: no point
        return math.inf, eps, math.nan, math.nan
    # pragma: no mutate start (as above)
    le_lo, le_hi = math.log(e_lo), math.log(THM31_EPS_MAX)
    ld_lo, ld_hi = math.log(max(delta * 1e-8, 1e-300)), math.log(0.5)
    # pragma: no mutate end
    nf = float(n)

    def grid_k(le: Any, ld: Any, first: bool = False) -> Any:
        if first:  # the beta-independent part of the first grid: cached across betas
            E, D, b_inf, inside = _thm31_base_grid(e_lo, delta, nf, le.tobytes(), ld.tobytes())
        else:
            E, D, b_inf, inside = _thm31_base(e_lo, delta, nf, le, ld)
        with np.errstate(all="ignore"):
            # the smallest t meeting the target: beta = e^{-t^2/2} + n(d' + d'' - d'd''), the
            # second part being beta at t = inf
            rem = beta - b_inf
            ok = (rem > 0) & (rem < 1) & inside
            t = np.sqrt(2 * np.log(1 / np.where(ok, rem, 0.5)))
            # k from the one vectorised body of the sound variant (not re-derived here), as
            # _thm31_vectorised(..., certify=False) gives it (a float estimate for the search,
            # pushed up by the same margin) without re-validating the grid's own points
            k = THM31["sound", "k"].array(E, delta, nf, t, D)
            k = fast_up(np.where(k >= 0, k, np.inf))
        k = np.where(ok & np.isfinite(k), k, np.inf)
        return E, D, t, k

    # eps' grid: one fixed grid (0.5 * 2^(-j/4)), independent of eps, cut at eps, plus eps
    # itself; so a stronger guarantee (smaller eps) searches a superset of the same points and
    # lands on the same optimum whenever that lies above both (monotone in the guarantee)
    # pragma: no mutate start (grid sizes, spacings, zoom widths and the cache flag: search
    # tuning, judged by the optimality test against a fine certified grid, not by mutation)
    j_max = min(int(math.floor(4 * (le_hi - le_lo) / math.log(2))), 4 * eps_grid * 4)
    le = np.unique(np.concatenate([[le_lo], le_hi - np.arange(j_max + 1) * math.log(2) / 4]))
    ld = np.linspace(ld_lo, ld_hi, dhat_grid)
    best = (math.inf, eps, math.nan, math.nan)
    se, sd = math.log(2) / 4, ld[1] - ld[0]
    for it in range(3):
        E, D, t, k = grid_k(le, ld, first=it == 0)
        # pragma: no mutate end
        i = np.unravel_index(int(np.argmin(k)), k.shape)
        if not math.isfinite(float(k[i])):
            break
        if float(k[i]) < best[0]:
            best = (float(k[i]), float(E[i]), float(t[i]), float(D[i]))
        # zoom: the neighbouring cells of the best point, finer
        ce, cd = math.log(best[1]), math.log(best[3])
        # pragma: no mutate start (the zoom's placement and sizes: search tuning, as above)
        le = np.linspace(max(le_lo, ce - se), min(le_hi, ce + se), 17)
        ld = np.linspace(max(ld_lo, cd - sd), min(ld_hi, cd + sd), 33)
        se, sd = se / 8, sd / 16
        # pragma: no mutate end
    return best


def approx_dp_max_information_implied(eps: float, delta: float, n: int, beta: float, *, dps: int = 30) -> Bound:
    r"""RRST Thm 3.1 (sound) at the best guarantee an (ε, δ)-DP algorithm implies, in bits.

    An (ε, δ)-DP algorithm is (ε', δ)-DP for every ε' ≥ ε, so RRST Thm 3.1 may be applied at
    any ε' in [ε, 1/2] (with δ < ε'); a larger ε' can give a smaller ``k`` at the same target
    ``beta``, because δ' = 2δ/δ̂ + 2δ/(1 − e^{−ε'}) shrinks. This evaluator chooses ε', ``t``
    and δ̂ (float search: :func:`thm31_implied_float_k`) and certifies the chosen point with
    :func:`approx_dp_max_information` (interval arithmetic, rounded up). It is therefore never
    worse than the same target at ε' = ε by more than the search's tolerance, and its answer
    is monotone in the guarantee: weakening (ε, δ) only removes choices.

    Units: ``eps`` in nats, ``k`` in bits. Conditions: ``eps >= 0``, ``delta`` in (0, 1/2),
    ``n >= 1``, ``beta`` in (0, 1), i.i.d. data (``product_only``). The returned ``beta`` may
    exceed the target by the certification's rounding (a few ulps); a target no point
    reaches raises :class:`~maxinfo_bounds.numeric.InvalidParameter`.

    >>> b = approx_dp_max_information_implied(3e-5, 5e-19, 200_000, 0.04)
    >>> b.theorem, b.beta <= 0.0400001, b.k < 1.1    # eps = 3e-5 itself cannot reach beta = 0.04
    ('RRST-3.1', True, True)
    """
    e, d = EPS0.check_float(eps), DELTA_BELOW_HALF.check_float(delta)
    ni, bt = N.check(n), BETA.check_float(beta)
    k, e2, t, dh = thm31_implied_float_k(e, d, ni, bt)
    if not math.isfinite(k):
        raise InvalidParameter(
            "beta", beta, f"reachable by RRST Thm 3.1 at some eps' in [{e!r}, 1/2] (n = {ni}, delta = {d!r})"
        )
    b: Bound = approx_dp_max_information(e2, d, ni, t=t * (1 + 1e-9), delta_hat=dh, dps=dps)
    conds = tuple(c for c in b.conditions if not c.startswith("eps in"))
    return replace(
        b, conditions=(f"applied at eps' = {e2!r} >= eps = {e!r} (implied guarantee)", "eps' in (0, 1/2]", *conds)
    )


register(
    Theorem(
        id="RRST-3.1",
        paper="RRST",
        number="Thm 3.1 (explicit from its proof)",
        title="Approximate DP bounds approximate max-information on i.i.d. data",
        formula=THM31["sound", "k"],
        lhs=r"I^{\beta(t,\hat\delta)}_{\infty,P}(\mathcal{A}, n) \le",
        conditions=(
            "A is (eps, delta)-differentially private",
            "i.i.d. records (product distribution): product_only",
            "delta_hat in (0, eps/15] (paper); e^{3eps} delta'' + delta_hat < 1 (sound)",
            "variant 'sound' (default) corrects log bases and Lemma 3.7's 72 eps^2 step",
        ),
        units="eps in nats; k in bits",
        params=(EPS, DELTA, N),
        optional=(
            replace(
                BETA,
                help="target beta: t and delta_hat are optimised to minimise k "
                "at beta (default: the paper's t and delta_hat)",
            ),
        ),
        evaluator=approx_dp_max_information,
        returns="Bound(k bits rounded up, beta rounded up, product_only = True, variant)",
        notes="The statement is the default (sound) variant; beta(t, delta_hat) = e^{-t^2/2} + "
        "n(delta' + delta'' - delta' delta''), delta' = 2 delta/delta_hat + 2 delta/(1 - e^{-eps}), "
        "delta'' = 2 delta_hat/(1 - e^{-3 eps}) (THM31[variant, 'beta']). Paper's choice: "
        "t = eps sqrt(2n), delta_hat = sqrt(eps delta)/15; with a target beta, t and delta_hat "
        "are optimised (never worse than the paper's choice).",
    )
)
