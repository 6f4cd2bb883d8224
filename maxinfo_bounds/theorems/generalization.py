r"""Transfer theorems: from a max-information bound to a bound on bad events.

DFHPRR Thm 4: if ``I^beta_infty(S; A(S)) <= k`` then for every event ``O``,
``P[(S, A(S)) in O] <= 2^k P[S x A(S) in O] + beta``. With Hoeffding's inequality for a
[0, 1]-valued loss on ``n`` i.i.d. samples (``P[|empirical - true| > tau] <= 2 e^{-2 tau^2 n}``
for a fixed predictor), the estimate of an adaptively chosen predictor is off by more than
``tau`` with probability at most

.. math:: 2^{k}\cdot 2e^{-2\tau^2 n} + \beta .

DFHPRR's remarks after Thm 4: with ``k = log2(e) tau^2 n`` this is ``2 e^{-tau^2 n} + beta``;
and a ``tau``-DP algorithm on i.i.d. data has ``beta``-approximate max-information at most
``1.25 log2(e) tau^2 n`` for ``beta = 2 e^{-tau^2 n}`` (from Thm 8 the constant is in fact
``1/2 + 1/sqrt(2) = 1.2071...``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any, overload

import numpy as np

from ..arith import Context, Formula
from ..domain import Int, Real
from ..numeric import (
    DD_EXP_MARGIN,
    FAST_EXP_MARGIN,
    InvalidParameter,
    RegimeError,
    certify_entries,
    each_entry,
    enclosure,
    exp_margin_too_wide,
    fast_down,
    fast_up,
    float_up,
    is_array,
    iv_prec,
)
from ..results import TailBound
from ..search import minimise
from ..types import FloatArray, IntLike, IntOrArray, RealLike, RealOrArray
from .registry import EPS_POSITIVE as EPS
from .registry import N_RECORDS, Param, Theorem, register

__all__ = [
    "TailBound",
    "hoeffding_transfer",
    "mcdiarmid_transfer",
    "bnsssu_transfer",
    "pvalue_sensitivity_lower_bound",
]


K = Param("k", Real(0, units="bits"), "max-information bound, bits")
BETA = Param("beta", Real(0, 1), "approximation parameter")
TAU = Param("tau", Real(0, lo_open=True), "accuracy")
N = Param("n", Int(1), "number of samples")
SENS = Param("sensitivity", Real(0, lo_open=True), "sensitivity Delta of the query")
DEVIATION = Param("tau", Real(0, lo_open=True), "deviation")
DELTA = Param("delta", Real(0, 1, lo_open=True), "DP parameter")
# RRST Thm B.2's regime: the interval ends are the theorem's, the relations are checked exactly
EPS_B2 = Param("eps", Real(0, 1 / 3, lo_open=True, hi_open=True, units="nats"), "DP parameter, nats")
DELTA_B2 = Param("delta", Real(0, 1, lo_open=True, hi_open=True, relation="delta < eps/4"), "DP parameter")
N_B2 = Param("n", Int(1, relation="n >= ln(4 eps/delta)/eps^2"), "number of records")


def _hoeffding_body(c: Context, k: Any, beta: Any, tau: Any, n: Any) -> Any:
    # DFHPRR Thm 4 with Hoeffding: 2^k * 2 e^{-2 tau^2 n} + beta
    return 2 * c.exp(k * c.ln2 - 2 * tau * tau * n) + beta


def _mcdiarmid_body(c: Context, k: Any, beta: Any, tau: Any, n: Any, sens: Any, *, variant: str) -> Any:
    # RRST Thm D.1's route: 2^k * (2 if two-sided) exp(-2 tau^2/(n Delta^2)) + beta
    two = 2 if variant == "sound" else 1
    return two * c.exp(k * c.ln2 - 2 * tau * tau / (n * sens * sens)) + beta


#: DFHPRR Thm 4 + Hoeffding and RRST Thm D.1 (each variant), written once
HOEFFDING = Formula(_hoeffding_body, ("k", "beta", "tau", "n"), integer=("n",))
MCDIARMID = {
    v: Formula(_mcdiarmid_body, ("k", "beta", "tau", "n", "Delta"), integer=("n",), kwargs={"variant": v})
    for v in ("sound", "paper")
}


def _tail_array(
    formula: Formula,
    scalar: Callable[..., float],
    addends: Callable[..., Any],
    k: FloatArray,
    beta: FloatArray,
    *rest: FloatArray,
) -> FloatArray:
    """``2^k c e^{-x} + beta`` (``formula``, args ``k, beta, *rest``) on arrays, rounded up and
    capped at 1, within 1e-12 relative of the exact value.

    The exponential term (the body at beta = 0) carries the margin of its exponent, whose
    addends have the sizes ``addends(k, *rest)`` (|k ln 2| and the tail's); beta is added as
    given. Where they nearly cancel (k of thousands of bits against a long tail) the float
    margin would pass 2^-41, and the exponent is recomputed in double-double; the rare entry
    still too wide (addends beyond 2^55 nats or 2^996) goes to the certified ``scalar`` path.
    """
    k, beta, *grid = np.broadcast_arrays(k, beta, *rest)

    def up(raw: FloatArray, arg: FloatArray, b: FloatArray, per_nat: float) -> FloatArray:
        out: FloatArray = np.minimum(fast_up(fast_up(raw, exp_arg=arg, per_nat=per_nat) + b), 1.0)
        return out

    with np.errstate(over="ignore", invalid="ignore"):
        arg = addends(k, *grid)
    raw = formula.array(k, 0.0, *grid)
    out = up(raw, arg, beta, FAST_EXP_MARGIN)
    redo = ~(out >= 1.0) & exp_margin_too_wide(raw, arg, out)
    if redo.any():
        ks, bs, rs, args = k[redo], beta[redo], [a[redo] for a in grid], arg[redo]
        raw = formula.array_dd(ks, 0.0, *rs)
        part = up(raw, args, bs, DD_EXP_MARGIN)
        wide = ~(part >= 1.0) & exp_margin_too_wide(raw, args, part, per_nat=DD_EXP_MARGIN)
        out[redo] = certify_entries(part, wide, scalar, ks, bs, *rs)
    return out


@overload
def hoeffding_transfer(  # type: ignore[overload-overlap]
    k: RealLike,
    beta: RealLike,
    tau: RealLike,
    n: IntLike,
    *,
    dps: int = ...,
) -> float: ...


@overload
def hoeffding_transfer(
    k: RealOrArray, beta: RealOrArray, tau: RealOrArray, n: IntOrArray, *, dps: int = ...
) -> FloatArray: ...


def hoeffding_transfer(
    k: RealOrArray, beta: RealOrArray, tau: RealOrArray, n: IntOrArray, *, dps: int = 30
) -> float | FloatArray:
    r"""Probability that an adaptively chosen [0,1]-loss estimate is off by more than τ.

    .. math:: \Pr[|\hat L - L| > \tau] \le 2^{k}\cdot 2 e^{-2\tau^2 n} + \beta

    Theorem: DFHPRR Thm 4 with Hoeffding's inequality (the computation after Lemma 5).
    Units: ``k`` in bits.
    Conditions:
      * ``k >= 0``, ``beta`` in [0, 1], ``tau > 0``, ``n >= 1`` integer.
      * the selection has ``I^beta_infty <= k`` bits; the data are i.i.d. (Hoeffding).
    Returns: the bound rounded up, capped at 1 (a probability). Arrays: vectorised path.

    Examples
    --------
    >>> hoeffding_transfer(0.0, 0.0, 0.125, 128)    # 2 e^{-4} = 0.03663127777746836058... (50 digits)
    0.036631277777468364
    """
    if is_array(k, beta, tau, n):
        ka, ba, ta, na = K.check_array(k), BETA.check_array(beta), TAU.check_array(tau), N.check_array(n)
        return _tail_array(
            HOEFFDING,
            lambda k_, b_, t_, n_: hoeffding_transfer(k_, b_, t_, int(n_), dps=dps),
            lambda k_, t_, n_: np.abs(k_ * math.log(2)) + 2 * t_ * t_ * n_,
            ka,
            ba,
            ta,
            na,
        )
    args = (K.check(k), BETA.check(beta), TAU.check(tau), N.check(n))  # exact inputs
    return min(HOEFFDING.up(*args, prec=iv_prec(dps)), 1.0)


register(
    Theorem(
        id="DFHPRR-4",
        value_name="probability",
        paper="DFHPRR",
        number="Thm 4 with Hoeffding (after Lemma 5)",
        title="Max-information transfers Hoeffding's bound to adaptively chosen estimates",
        formula=HOEFFDING,
        lhs=r"\Pr[|\hat L - L| > \tau] \le",
        conditions=("the selection has I^beta_inf <= k bits", "[0, 1]-valued loss, n i.i.d. samples"),
        units="k in bits; the result is a probability",
        params=(K, BETA, TAU, N),
        evaluator=hoeffding_transfer,
        returns="float probability bound, rounded up (capped at 1)",
    )
)


# --------------------------------------------------------------------------------------------
# low-sensitivity queries (RRST App. B and D)


#: RRST Thm B.2 (BNSSSU), written once: the deviation 18 eps Delta n, the probability
#: delta/eps, and the sample size n0 = ln(4 eps/delta)/eps^2 of its regime
B2_DEVIATION = Formula(lambda c, e, s, n: 18 * e * s * n, ("epsilon", "Delta", "n"), integer=("n",))
B2_PROBABILITY = Formula(lambda c, e, d: d / e, ("epsilon", "delta"))
B2_N0 = Formula(lambda c, e, d: c.log(4 * e / d) / e**2, ("epsilon", "delta"))
#: the regime read the other way: the smallest probability delta/eps that n >= n0 allows at
#: (eps, n), 4 e^(-n eps^2) (a delta at or above eps times it meets B.2's condition on n)
B2_PROBABILITY_FLOOR = Formula(lambda c, e, n: 4 * c.exp(-n * e**2), ("epsilon", "n"), integer=("n",))


@overload
def bnsssu_transfer(  # type: ignore[overload-overlap]
    eps: RealLike,
    delta: RealLike,
    n: IntLike,
    sensitivity: RealLike,
    *,
    strict: bool = ...,
) -> TailBound: ...


@overload
def bnsssu_transfer(
    eps: RealOrArray, delta: RealOrArray, n: IntOrArray, sensitivity: RealOrArray, *, strict: bool = ...
) -> tuple[FloatArray, FloatArray]: ...


def bnsssu_transfer(
    eps: RealOrArray, delta: RealOrArray, n: IntOrArray, sensitivity: RealOrArray, *, strict: bool = True
) -> TailBound | tuple[FloatArray, FloatArray]:
    r"""Generalization of (ε, δ)-DP selection of Δ-sensitive queries (Bassily et al.).

    .. math:: \Pr\bigl[|q(\mathcal{P}^n) - q(\mathbf{X})| \ge 18\varepsilon\Delta n\bigr] < \delta/\varepsilon

    Theorem: RRST Thm B.2 (quoting BNSSSU). Units: ``eps`` in nats; deviation in the query's units.
    Conditions:
      * ``eps`` in (0, 1/3), ``delta`` in (0, eps/4), ``n >= ln(4 eps/delta)/eps^2``;
        ``sensitivity > 0``; i.i.d. data. Outside: RegimeError (``strict=False`` marks it).
    Returns: a :class:`TailBound`; arrays: ``(deviation, probability)`` float64 arrays
    (vectorised, rounded up).

    >>> b = bnsssu_transfer(0.1, 1e-6, 2000, 1e-3)
    >>> round(b.deviation, 12), round(b.probability, 18)   # 18 * 0.1 * 1e-3 * 2000 = 3.6, hand
    (3.6, 1e-05)
    """
    if is_array(eps, delta, n, sensitivity):
        ea, da, na, sa = np.broadcast_arrays(
            EPS.check_array(eps), DELTA.check_array(delta), N.check_array(n), SENS.check_array(sensitivity)
        )
        # n0 with a safe upward margin: an entry passing here passes the certified test
        bad = ~EPS_B2.mask(ea) | (da >= ea / 4) | ~(na >= fast_up(B2_N0.array(ea, da)))
        if strict and bad.any():
            for _, (ei, di, ni, si) in each_entry(bad, ea, da, na, sa):  # the scalar path
                bnsssu_transfer(ei, di, int(ni), si)  # decides, certified
        return (fast_up(B2_DEVIATION.array(ea, sa, na)), np.minimum(fast_up(B2_PROBABILITY.array(ea, da)), 1.0))
    e, d, ni, s = EPS.check(eps), DELTA.check(delta), N.check(n), SENS.check(sensitivity)
    bad = []
    if not 0 < e < Fraction(1, 3):
        bad.append(("eps", f"eps in {EPS_B2.domain_text}", e))
    if not Fraction(d) < Fraction(e) / 4:
        bad.append(("delta", "delta in (0, eps/4)", d))
    if not ni >= B2_N0.up(e, d):
        bad.append(("n", "n >= ln(4 eps/delta)/eps^2", float(ni)))
    if bad and strict:
        raise RegimeError("RRST Thm B.2", bad[0][0], bad[0][2], bad[0][1])
    dev = float_up(B2_DEVIATION.exact(e, s, ni))
    prob = float_up(B2_PROBABILITY.exact(e, d))
    return TailBound(
        deviation=dev,
        probability=min(prob, 1.0),
        theorem="RRST-B.2",
        conditions=(*(p.condition() for p in (EPS_B2, DELTA_B2, N_B2)), "i.i.d. data"),
        in_regime=not bad,
    )


@overload
def mcdiarmid_transfer(  # type: ignore[overload-overlap]
    k: RealLike,
    beta: RealLike,
    tau: RealLike,
    n: IntLike,
    sensitivity: RealLike,
    *,
    variant: str = ...,
    dps: int = ...,
) -> float: ...


@overload
def mcdiarmid_transfer(
    k: RealOrArray,
    beta: RealOrArray,
    tau: RealOrArray,
    n: IntOrArray,
    sensitivity: RealOrArray,
    *,
    variant: str = ...,
    dps: int = ...,
) -> FloatArray: ...


def mcdiarmid_transfer(
    k: RealOrArray,
    beta: RealOrArray,
    tau: RealOrArray,
    n: IntOrArray,
    sensitivity: RealOrArray,
    *,
    variant: str = "sound",
    dps: int = 30,
) -> float | FloatArray:
    r"""Max-information transfers McDiarmid's inequality to adaptively chosen Δ-sensitive queries.

    .. math::

        \Pr[|q(\mathcal{P}^n) - q(\mathbf{X})| \ge \tau]
            \le 2^{k}\cdot 2\exp\!\Bigl(-\frac{2\tau^2}{n\Delta^2}\Bigr) + \beta

    Theorem: RRST Thm D.1's route (the event bound of max-information with McDiarmid, Thm A.9).
    ``variant="sound"`` (default) has the factor 2 of the two-sided deviation; Thm A.9 is
    one-sided and the paper's proof writes ``2^k exp(-2 C^2 eps^2 n) + beta`` for ``|.|``
    (``variant="paper"``); see docs/errata.md.
    Units: ``k`` in bits.
    Conditions: ``k >= 0``, ``beta`` in [0, 1], ``tau > 0``, ``n >= 1``, ``sensitivity > 0``;
    the selection has ``I^beta_infty <= k`` on i.i.d. data.
    Returns: the probability bound rounded up (capped at 1); arrays: vectorised path.

    >>> mcdiarmid_transfer(0.0, 0.0, 0.5, 128, 0.0625)   # 2 exp(-2 * 0.25 / 0.5) = 2/e, hand
    0.7357588823428847
    """
    if variant not in ("sound", "paper"):
        raise InvalidParameter("variant", variant, "'sound' or 'paper'")
    if is_array(k, beta, tau, n, sensitivity):
        ka, ba, ta, na = K.check_array(k), BETA.check_array(beta), TAU.check_array(tau), N.check_array(n)
        sa = SENS.check_array(sensitivity)
        return _tail_array(
            MCDIARMID[variant],
            lambda k_, b_, t_, n_, s_: mcdiarmid_transfer(k_, b_, t_, int(n_), s_, variant=variant, dps=dps),
            lambda k_, t_, n_, s_: np.abs(k_ * math.log(2)) + 2 * t_ * t_ / (n_ * s_ * s_),
            ka,
            ba,
            ta,
            na,
            sa,
        )
    args = (K.check(k), BETA.check(beta), TAU.check(tau), N.check(n), SENS.check(sensitivity))
    return min(MCDIARMID[variant].up(*args, prec=iv_prec(dps)), 1.0)


def _b1_body(c: Context, delta: Any, n: Any) -> Any:
    # RRST Lemma B.1's proof at delta: (1/2 - delta) / sqrt((n/2) ln(1/delta))
    return (c.num(Fraction(1, 2)) - delta) / c.sqrt(n / 2 * c.log(1 / delta))


#: RRST Lemma B.1, written once
B1 = Formula(_b1_body, ("delta", "n"), integer=("n",))


@overload
def pvalue_sensitivity_lower_bound(n: IntLike, *, variant: str = ..., dps: int = ...) -> float: ...  # type: ignore[overload-overlap]


@overload
def pvalue_sensitivity_lower_bound(n: IntOrArray, *, variant: str = ..., dps: int = ...) -> FloatArray: ...


def pvalue_sensitivity_lower_bound(n: IntOrArray, *, variant: str = "optimal", dps: int = 30) -> float | FloatArray:
    r"""Lower bound on the sensitivity of any p-value ``p o phi`` on n records.

    .. math:: \Delta \ge \frac{1/2 - \delta}{\sqrt{\tfrac{n}{2}\ln(1/\delta)}}\ \ \forall\,\delta\in(0, 1/2);
        \quad \Delta > 0.37/\sqrt{n}\ (\delta = 0.08)

    Theorem: RRST Lemma B.1. ``variant="paper"``: ``0.37/sqrt(n)`` (the proof at
    ``delta = 0.08`` gives 0.373741...); ``variant="optimal"`` (default): the best ``delta``
    (about 0.0840, constant 0.373810 against 0.373741 at 0.08: the paper's choice is almost
    optimal), evaluated certified at the optimiser's ``delta``.
    Returns: a lower bound, rounded down. Arrays of ``n``: the certified constant at ``n = 1``
    divided by ``sqrt(n)`` in numpy, pushed down by a relative 2^-44.

    >>> round(pvalue_sensitivity_lower_bound(1), 6), pvalue_sensitivity_lower_bound(1, variant="paper")
    (0.37381, 0.37)
    """
    if variant not in ("optimal", "paper"):
        raise InvalidParameter("variant", variant, "'optimal' or 'paper'")
    if is_array(n):
        na = N_RECORDS.check_array(n)
        c = pvalue_sensitivity_lower_bound(1, variant=variant, dps=dps)  # certified at n = 1
        return fast_down(c / np.sqrt(na))
    ni = N_RECORDS.check(n)
    if variant == "paper":
        return enclosure(lambda iv: iv.mpf(37) / 100 / iv.sqrt(iv.mpf(ni)), prec=iv_prec(dps))[0]
    (d_best,) = minimise(lambda d: -B1.estimate(d, 1.0), 1e-6, 0.49, xatol=1e-12)
    return B1.down(d_best, ni, prec=iv_prec(dps))


register(
    Theorem(
        id="RRST-B.1",
        value_name="sensitivity_lower_bound",
        value_rounding="down",
        paper="RRST",
        number="Lemma B.1",
        title="p-values have sensitivity at least 0.37/sqrt(n)",
        formula=B1,
        lhs=r"\Delta(p\circ\phi) \ge",
        conditions=("phi a test statistic with a continuous null distribution (p o phi uniform)",),
        units="sensitivity of a [0, 1]-valued function",
        params=(N_RECORDS,),
        evaluator=pvalue_sensitivity_lower_bound,
        returns="float lower bound, rounded down (variant 'optimal' (default) or 'paper')",
    )
)

register(
    Theorem(
        id="RRST-B.2",
        value_name="probability",
        paper="RRST",
        number="Thm B.2 (BNSSSU)",
        title="(eps, delta)-DP selection of low-sensitivity queries generalizes",
        formula=B2_PROBABILITY,
        lhs=lambda: (
            rf"\Pr\left[|q(\mathcal{{P}}^n) - q(\mathbf{{X}})| \ge {B2_DEVIATION.latex()}"
            r"\right] <"
        ),
        conditions=("A (eps, delta)-DP choosing a Delta-sensitive query q", "i.i.d. data"),
        units="eps in nats",
        params=(EPS_B2, DELTA_B2, N_B2, SENS),
        evaluator=bnsssu_transfer,
        returns="TailBound(deviation rounded up, probability rounded up)",
    )
)

register(
    Theorem(
        id="RRST-D.1",
        value_name="probability",
        paper="RRST",
        number="Thm D.1 (max-information + McDiarmid)",
        title="Max-information transfers McDiarmid's inequality to adaptive queries",
        formula=MCDIARMID["sound"],
        lhs=r"\Pr[|q(\mathcal{P}^n) - q(\mathbf{X})| \ge \tau] \le",
        conditions=(
            "the selection has I^beta_inf <= k bits on i.i.d. data",
            "q Delta-sensitive",
            "sound variant: two-sided McDiarmid (factor 2); paper: without it",
        ),
        units="k in bits",
        params=(K, BETA, DEVIATION, N_RECORDS, SENS),
        evaluator=mcdiarmid_transfer,
        returns="float probability bound, rounded up (capped at 1)",
    )
)
