"""Differential privacy of a mechanism matrix (exact delta(eps) and eps(delta) over given
neighbouring rows), and the indistinguishability predicates of RRST Defs 2.1, 2.2."""

from __future__ import annotations

import math
from collections.abc import Iterable
from fractions import Fraction

import numpy as np

from ..domain import DPS, NONNEG, PROB, PROB_BELOW_1
from ..numeric import PROB_TOL, ExactLog, log_le, mp_ctx, to_public
from ..types import MpfLike
from .engine import ArrayLike, mechanism_table, pair_tables, sup_ratio_exact, sup_ratio_float, to_mpf

__all__ = ["dp_delta", "dp_epsilon", "is_indistinguishable", "is_pointwise_indistinguishable"]


def dp_delta(
    mechanism: ArrayLike,
    eps: float | Fraction,
    neighbors: Iterable[tuple[int, int]],
    *,
    exact: bool | None = None,
    dps: int = 50,
    tol: float = PROB_TOL,
) -> float | Fraction | MpfLike:
    r"""The least δ for which ``mechanism`` is (ε, δ)-DP over ``neighbors`` (both directions).

    .. math:: \delta^*(\varepsilon) = \max_{(x,x')} \sum_y \max\bigl(0, M[x,y] - e^{\varepsilon} M[x',y]\bigr)

    i.e. the largest hockey-stick divergence ``H_{e^eps}`` over ordered neighbour pairs (RRST
    Defs 2.1, 2.3). ``mechanism`` is row-stochastic (rows: datasets, columns: outputs);
    ``neighbors`` lists pairs of row indices, each checked in both directions. ``eps`` in nats.

    Returns a float; in exact mode a Fraction when ``eps == 0`` and an mpmath number with
    ``dps`` digits otherwise (``e^eps`` is irrational).

    >>> from fractions import Fraction as F
    >>> rr = [[F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]]      # randomized response, e^eps = 3
    >>> dp_delta(rr, 0, [(0, 1)])                            # = TV distance, hand
    Fraction(1, 2)
    >>> dp_delta([[0.75, 0.25], [0.25, 0.75]], math.log(3), [(0, 1)]) < 1e-15
    True
    """
    M, pairs, ex = mechanism_table(mechanism, neighbors, exact, tol)
    e = NONNEG.check("eps", eps)
    if ex:
        ef = Fraction(e)
        if ef == 0:
            tv: Fraction = max(sum(max(Fraction(0), a - b) for a, b in zip(M[i], M[j])) for i, j in pairs)
            return tv  # (rows are never empty: every sum is a Fraction)
        DPS.check("dps", dps)
        ctx = mp_ctx()  # this thread's own context: the caller's mpmath precision plays no part
        with ctx.workdps(dps + 15):
            c = ctx.exp(to_mpf(ef, ctx))
            best = ctx.mpf(0)
            for i, j in pairs:
                h = ctx.fsum(max(ctx.mpf(0), to_mpf(a, ctx) - c * to_mpf(b, ctx)) for a, b in zip(M[i], M[j]))
                best = max(best, h)
        with ctx.workdps(dps):
            out: MpfLike = to_public(+best)
            return out
    # e^eps as h h with h = e^(eps/2): e^eps overflows past eps = 709.78, yet a term
    # a - e^eps b is positive only where b < a e^-eps; (b h) h overflows to inf exactly where the
    # term is 0 anyway (b = 0 gives a: no inf * 0). Past eps = 1400 every term with b > 0 is 0
    # (b >= 2^-1074 and e^(1400 - 745) > 1 >= a), so eps is capped there: the same result
    h = math.exp(float(min(e, 1400)) / 2)
    I = np.fromiter((i for i, _ in pairs), dtype=np.intp, count=len(pairs))  # pragma: no mutate (count: memory)
    J = np.fromiter((j for _, j in pairs), dtype=np.intp, count=len(pairs))  # pragma: no mutate (count: memory)
    # pairs per step: bounds temporary memory to ~32 MiB; any chunk >= 1 gives the same maximum
    chunk = max(1, (1 << 22) // M.shape[1])  # pragma: no mutate (memory only)
    best_f = 0.0
    for s in range(0, len(pairs), chunk):  # pragma: no mutate (the step: memory only, as above)
        with np.errstate(over="ignore"):
            t = np.maximum(M[I[s : s + chunk]] - (M[J[s : s + chunk]] * h) * h, 0.0).sum(axis=1)
        best_f = max(best_f, float(t.max()))
    return best_f


def dp_epsilon(
    mechanism: ArrayLike,
    delta: float | Fraction,
    neighbors: Iterable[tuple[int, int]],
    *,
    exact: bool | None = None,
    tol: float = PROB_TOL,
) -> float | ExactLog:
    r"""The least ε ≥ 0 (in nats) for which ``mechanism`` is (ε, δ)-DP over ``neighbors``.

    .. math::

        \varepsilon^*(\delta) = \max\Bigl(0,\ \max_{(x,x')}
            D^{\delta}_\infty\bigl(M[x]\,\|\,M[x']\bigr)\ \text{in nats}\Bigr)

    since ``H_c(P||Q) <= delta  <=>  c >= sup_{O: P(O) > delta} (P(O) - delta)/Q(O)``.
    ``+inf`` when no finite ε works (``delta`` below the mass some row puts where its
    neighbour puts none). Exact mode returns an :class:`~maxinfo_bounds.numeric.ExactLog` in
    nats (``ratio = e^{eps*}``).

    >>> from fractions import Fraction as F
    >>> rr = [[F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]]
    >>> dp_epsilon(rr, 0, [(0, 1)]).ratio                    # e^eps = 3, hand
    Fraction(3, 1)
    >>> dp_epsilon(rr, F(1, 4), [(0, 1)]).ratio              # (3/4 - 1/4)/(1/4) = 2, hand
    Fraction(2, 1)
    """
    M, pairs, ex = mechanism_table(mechanism, neighbors, exact, tol)
    d = PROB_BELOW_1.check("delta", delta)
    if ex:
        df = Fraction(d)
        best: Fraction | None = Fraction(1)
        for i, j in pairs:
            c = sup_ratio_exact(M[i], M[j], df)
            if c is None:
                return ExactLog(None, "nats")
            assert best is not None
            best = max(best, c)
        return ExactLog(best, "nats")
    b = np.array([float(d)])
    cmax = 1.0
    for i, j in pairs:
        cmax = max(cmax, float(sup_ratio_float(M[i], M[j], b)[0]))
        if cmax == math.inf:
            return math.inf
    return math.log(cmax)


def is_indistinguishable(
    x: ArrayLike,
    y: ArrayLike,
    eps: float | Fraction,
    delta: float | Fraction,
    *,
    exact: bool | None = None,
    tol: float = PROB_TOL,
) -> bool:
    r"""(ε, δ)-indistinguishability ``X ≈_{ε,δ} Y`` (RRST Def 2.1), ε in nats.

    True iff for all events ``O``: ``P_X(O) <= e^eps P_Y(O) + delta`` and the same with X, Y
    swapped; decided through ``c*(delta) <= e^eps`` in both directions. In exact mode the
    comparison of ``e^eps`` with a rational is decided exactly (ε is read at its exact value).

    >>> from fractions import Fraction as F
    >>> a, b = [F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]
    >>> is_indistinguishable(a, b, math.log(3), 0)       # float ln 3 = ln 3 + 9.07e-17 (50 digits)
    True
    >>> is_indistinguishable(a, b, math.nextafter(math.log(3), 0), 0)    # one float below ln 3
    False
    >>> is_indistinguishable(a, b, 1.0987, 0), is_indistinguishable(a, b, 0, F(1, 2))
    (True, True)
    """
    xa, ya, ex = pair_tables(x, y, exact, tol, names=("x", "y"))
    e = NONNEG.check("eps", eps)
    d = PROB.check("delta", delta)
    if d == 1:  # vacuous, also for a float table whose total is 1 + tol
        return True
    if ex:
        df = Fraction(d)
        c1 = sup_ratio_exact(xa, ya, df)
        c2 = sup_ratio_exact(ya, xa, df)
        if c1 is None or c2 is None:
            return False
        return log_le(max(c1, c2), Fraction(e))  # ln c <= eps, decided exactly (c > 0: the whole space)
    b = np.array([float(d)])
    cf = max(float(sup_ratio_float(xa, ya, b)[0]), float(sup_ratio_float(ya, xa, b)[0]))
    # cf = 0 where no event's mass exceeds delta: a float table may sum to 1 - tol < delta
    # (log(inf) = inf: not indistinguishable; the float log is compared with eps exactly)
    return cf == 0.0 or math.log(cf) <= e


def is_pointwise_indistinguishable(
    x: ArrayLike,
    z: ArrayLike,
    eps: float | Fraction,
    delta: float | Fraction,
    *,
    exact: bool | None = None,
    tol: float = PROB_TOL,
) -> bool:
    r"""Point-wise (ε, δ)-indistinguishability (RRST Def 2.2), ε in nats.

    True iff with probability at least ``1 - delta`` over ``a ~ X``:
    ``e^{-eps} Pr[Z = a] <= Pr[X = a] <= e^{eps} Pr[Z = a]``. Not symmetric: the probability
    is over the first argument.

    >>> from fractions import Fraction as F
    >>> x, z = [F(1, 2), F(1, 2)], [F(1, 4), F(3, 4)]   # ratios 2 and 2/3
    >>> is_pointwise_indistinguishable(x, z, math.log(2), 0)   # float ln 2 = ln 2 - 2.32e-17
    False
    >>> is_pointwise_indistinguishable(x, z, 0.6932, 0), is_pointwise_indistinguishable(x, z, 0.5, F(1, 2))
    (True, True)
    """
    xa, za, ex = pair_tables(x, z, exact, tol, names=("x", "z"))
    e = NONNEG.check("eps", eps)
    d = PROB.check("delta", delta)
    if ex:
        ef = Fraction(e)
        good = Fraction(0)
        for pa, pz in zip(xa, za):
            if pa == 0 or pz == 0:
                continue
            r = pa / pz
            if log_le(r, ef) and log_le(1 / r, ef):  # |ln r| <= eps, decided exactly
                good += pa
        return good >= 1 - Fraction(d)
    # a zero on either side gives |log ratio| = inf, or nan where both are zero: never <= eps
    with np.errstate(divide="ignore", invalid="ignore"):
        # (finite log ratios of floats are below 1490: eps is capped at 2000, the same test)
        ok = np.abs(np.log(xa) - np.log(za)) <= float(min(e, 2000))
    return math.fsum(xa[ok]) >= 1.0 - float(d)
