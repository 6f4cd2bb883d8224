r"""Exact information measures of finite distributions.

All information is in **bits** (log base 2, as in RRST and DFHPRR) unless ``unit="nats"``.
Differential-privacy parameters (``eps``) are in **nats**, as in the DP definition
:math:`\Pr[A(x)\in O] \le e^{\varepsilon}\Pr[A(x')\in O] + \delta`.

Definitions (RRST §1.2, Def 1.2 and §2; DFHPRR Defs 2, 3):

.. math::

   D^{\beta}_\infty(P\,\|\,Q) = \log_2 \sup_{O:\ P(O) > \beta} \frac{P(O) - \beta}{Q(O)},
   \qquad I^{\beta}_\infty(X;Y) = D^{\beta}_\infty\bigl((X,Y)\,\|\,X\otimes Y\bigr).

How it is computed (and why it is exact). The supremum is attained on a *prefix* of the
outcomes sorted by likelihood ratio ``p/q`` in decreasing order (Neyman–Pearson / the
hockey-stick characterisation ``D^beta <= k  <=>  H_{2^k}(P||Q) <= beta`` with
``H_c(P||Q) = sum_x max(0, p(x) - c q(x))``): for any event ``O`` with value ``c``, the set
``{x: p(x) >= c q(x)}`` is a prefix with value at least ``c``. So one sort, two prefix sums
and a maximum over ``N`` candidates give the supremum over all ``2^N`` events, in
``O(N log N)``. For one ``beta`` on a large table only the outcomes whose ratio lies in a
verified bracket around the optimum are sorted (see :func:`_sup_scalar`); for many ``beta`` at
once the optimal prefix is located by binary search on ``H`` evaluated at the sorted ratios
(``H`` is non-increasing in ``c``), in ``O(N log N + M log N)``.

Conventions.

* ``D^beta`` may be negative (e.g. ``P == Q`` and ``beta > 0`` gives ``log2(1 - beta)``); it is
  ``+inf`` when some event with ``P(O) > beta`` has ``Q(O) = 0``, and ``-inf`` when no event
  has ``P(O) > beta`` (possible only if the table sums to less than 1 within ``tol``).
* Float inputs are computed in float64: the ratios and prefix sums carry a relative rounding
  error of order ``N * 2**-53`` (``N`` the number of cells). For exact answers use exact
  inputs: tables of :class:`fractions.Fraction` (or ``int``) entries, or ``exact=True`` (floats
  are then read at their exact binary value and must sum to exactly 1). Exact mode returns
  :class:`~maxinfo_bounds.numeric.ExactLog` (the optimal ratio ``2^k`` as a Fraction, bits to
  any precision), Fractions for rational quantities (``tv_distance``, ``hockey_stick``) and
  mpmath numbers at ``dps`` digits for transcendental ones (``kl_divergence``,
  ``mutual_information``, ``dp_delta`` with ``eps > 0``).
* Tables are validated, never renormalised (see :mod:`maxinfo_bounds.numeric`).

References: RRST = Rogers, Roth, Smith, Thakkar (2016); DFHPRR = Dwork, Feldman, Hardt,
Pitassi, Reingold, Roth (2015). See ``docs/measures.md``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any, overload

import mpmath
import numpy as np
from numpy.typing import ArrayLike as _NpArrayLike
from numpy.typing import NDArray
from scipy.special import rel_entr

from .numeric import (
    PROB_TOL,
    ExactLog,
    InvalidParameter,
    Unit,
    as_table,
    check_int,
    check_real,
    check_same_shape,
    check_unit,
    iter_pairs,
    log_le,
    wants_exact,
)

#: a probability table: anything numpy reads, or (nested) sequences of Fractions (exact mode)
ArrayLike = _NpArrayLike | Sequence[Fraction] | Sequence[Sequence[Fraction]]

__all__ = [
    "hockey_stick",
    "approx_max_divergence",
    "max_divergence",
    "approx_max_information",
    "max_information",
    "mutual_information",
    "kl_divergence",
    "tv_distance",
    "dp_delta",
    "dp_epsilon",
    "is_indistinguishable",
    "is_pointwise_indistinguishable",
    "log_ratio_tail",
]

_LN2 = math.log(2.0)

# --------------------------------------------------------------------------------------------
# argument helpers


def _pair(p: Any, q: Any, exact: bool | None, tol: float,
          names: tuple[str, str] = ("p", "q")) -> tuple[NDArray[Any], NDArray[Any], bool]:
    ex = wants_exact(p, q, exact=exact)
    pa = as_table(names[0], p, ndim=1, exact=ex, tol=tol)
    qa = as_table(names[1], q, ndim=1, exact=ex, tol=tol)
    check_same_shape(names, [pa, qa])
    return pa, qa, ex


def _joint(joint: Any, exact: bool | None, tol: float) -> tuple[NDArray[Any], NDArray[Any], bool]:
    """Validate a joint table; return (flattened joint, flattened product of marginals, exact)."""
    ex = wants_exact(joint, exact=exact)
    j = as_table("joint", joint, ndim=2, exact=ex, tol=tol)
    if ex:
        px = [sum(row, Fraction(0)) for row in j]
        py = [sum(col, Fraction(0)) for col in j.T]
        prod = np.empty(j.shape, dtype=object)
        for a, pa in enumerate(px):
            for b, pb in enumerate(py):
                prod[a, b] = pa * pb
        return j.ravel(), prod.ravel(), True
    mx = j @ np.ones(j.shape[1])   # BLAS mat-vec: several times faster than j.sum(axis=1)
    my = np.ones(j.shape[0]) @ j
    return j.ravel(), np.multiply.outer(mx, my).ravel(), False


def _betas(beta: Any, exact: bool) -> tuple[list[Fraction] | NDArray[np.float64], bool]:
    """Validate beta (scalar or array) in [0, 1); return (values, was_scalar)."""
    if np.ndim(beta) == 0:
        b = check_real("beta", beta, low=0, high=1, high_open=True)
        if exact:
            return [Fraction(b)], True
        return np.array([float(b)]), True
    arr = np.asarray(beta, dtype=object if exact else np.float64)
    if arr.size == 0:
        raise InvalidParameter("beta", beta, "a real number or a non-empty array of reals in [0, 1)")
    if exact:
        return [Fraction(check_real(f"beta[{i}]", v, low=0, high=1, high_open=True))
                for i, v in enumerate(arr.ravel())], False
    if not np.all(np.isfinite(arr)) or np.any(arr < 0) or np.any(arr >= 1):
        bad = arr[~(np.isfinite(arr) & (arr >= 0) & (arr < 1))].ravel()[0]
        raise InvalidParameter("beta", float(bad), "real numbers in [0, 1) (an array entry is not)")
    return arr, False


def _log(c: NDArray[np.float64], unit: Unit) -> NDArray[np.float64]:
    with np.errstate(divide="ignore"):
        return np.log2(c) if unit == "bits" else np.log(c)


# --------------------------------------------------------------------------------------------
# the sorted-likelihood-ratio engine


def _sup_ratio_float(p: NDArray[np.float64], q: NDArray[np.float64],
                     betas: NDArray[np.float64]) -> NDArray[np.float64]:
    """``c*(beta) = sup_{O: P(O) > beta} (P(O) - beta) / Q(O)`` for each beta (float64).

    ``inf`` when unbounded, ``0`` when no event has ``P(O) > beta``.
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        r = p / q  # +inf where q = 0 < p, nan where p = q = 0, 0 where p = 0 < q
    p_inf = 0.0
    if not (r.min() > 0 and r.max() < math.inf):  # slow path only when some cell needs care
        keep = p > 0  # outcomes with p = 0 never help an event
        p, q, r = p[keep], q[keep], r[keep]
        zero_q = q == 0
        if zero_q.any():  # outcomes with ratio +inf lead every prefix
            p_inf = math.fsum(p[zero_q])
            p, q, r = p[~zero_q], q[~zero_q], r[~zero_q]
    out = np.zeros(betas.shape, dtype=np.float64)
    unbounded = betas < p_inf
    out[unbounded] = math.inf
    todo = ~unbounded
    if p.size == 0 or not todo.any():
        return out
    b = betas[todo]
    if b.size == 1:
        out[todo] = _sup_scalar(r, p, q, p_inf, 0.0, float(b[0]))
        return out
    order = np.argsort(r)[::-1]
    P = np.cumsum(p[order])
    if p_inf:
        P += p_inf
    Q = np.cumsum(q[order])
    # many betas: H(r_j) = P_{j-1} - r_j Q_{j-1} is non-decreasing in j; the optimal prefix
    # length for beta is the number of breakpoints with H <= beta (c* lies in [r_{j+1}, r_j]).
    rs = r[order]
    h = np.empty_like(P)
    h[0] = p_inf
    h[1:] = P[:-1] - rs[1:] * Q[:-1]
    np.maximum.accumulate(h, out=h)  # remove float wiggles so the search is well defined
    jstar = np.searchsorted(h, b, side="right")  # prefix length, >= 1 since h[0] = p_inf <= b
    n = P.size
    best = np.zeros(b.shape, dtype=np.float64)
    for d in (-2, -1, 0, 1, 2):  # candidates around the located prefix absorb rounding in h
        idx = np.clip(jstar + d, 1, n) - 1
        Pi = P[idx]
        val = np.where(Pi > b, (Pi - b) / Q[idx], 0.0)
        np.maximum(best, val, out=best)
    out[todo] = best
    return out


def _prefix_max(r: NDArray[np.float64], p: NDArray[np.float64], q: NDArray[np.float64],
                P0: float, Q0: float, beta: float) -> float:
    """Best value over the events ``A ∪ (prefix of the outcomes sorted by r, decreasing)``.

    ``A`` is a set of outcomes known to lie above all of these, with masses ``(P0, Q0)``; the
    empty prefix (``A`` alone) is a candidate when ``Q0 > 0``. Returns 0 if no candidate has
    ``P > beta``.

    Ties: inside a group of equal ratio ``t`` the prefix value is
    ``t + (P_s - t Q_s - beta)/(Q_s + dQ)``, monotone in ``dQ``, so its maximum over the valid
    prefixes of the group sits at the group's start or end. When the ratios take few distinct
    values the groups are therefore summed (``bincount``) instead of sorting every outcome.
    """
    best = (P0 - beta) / Q0 if (Q0 > 0 and P0 > beta) else 0.0
    if r.size == 0:
        return best
    rs = np.sort(r)
    distinct = np.flatnonzero(rs[1:] != rs[:-1]).size + 1
    if distinct * 8 <= r.size:  # heavy ties: one candidate per group boundary
        u = rs[np.concatenate(([True], rs[1:] != rs[:-1]))]
        g = np.searchsorted(u, r)
        pg: NDArray[np.float64] = np.bincount(g, weights=p, minlength=u.size)[::-1].astype(np.float64)
        qg: NDArray[np.float64] = np.bincount(g, weights=q, minlength=u.size)[::-1].astype(np.float64)
    else:
        order = np.argsort(r)[::-1]
        pg, qg = p[order], q[order]
    P: NDArray[np.float64] = np.cumsum(pg) + P0
    Q: NDArray[np.float64] = np.cumsum(qg) + Q0
    valid = P > beta
    if valid.any():
        best = max(best, float(np.max((P[valid] - beta) / Q[valid])))
    return best


_SAMPLE = 8192  # sample size used to place the bracket around c*


def _sup_scalar(r: NDArray[np.float64], p: NDArray[np.float64], q: NDArray[np.float64],
                P0: float, Q0: float, beta: float) -> float:
    """``c*`` for one beta, sorting only the outcomes whose ratio lies near ``c*``.

    ``(P0, Q0)`` are the masses of outcomes known to lie above all of ``r`` (at the top level:
    the outcomes with ``q = 0 < p``, ``Q0 = 0``). ``H(c) = P0 - c Q0 + sum_{r > c} (p - c q)`` is
    continuous and non-increasing, and ``c* = min{c : H(c) <= beta}``. A bracket
    ``t_lo < c* <= t_hi`` is *verified* by ``H(t_lo) > beta >= H(t_hi)`` (O(N) passes). Then every
    outcome with ``r > t_hi`` is in the optimal event, none with ``r <= t_lo`` is, and the
    optimal event is those above plus a prefix of the outcomes in between, sorted by ratio:
    the same problem on fewer outcomes, solved the same way until it is small enough to sort.
    The bracket is placed from a random sample, which only affects speed, never the result,
    and widened until verified.
    """
    n = r.size
    if n <= 4 * _SAMPLE:
        return _prefix_max(r, p, q, P0, Q0, beta)
    rng = np.random.default_rng(0x5EED)  # fixed: the result never depends on the sample
    idx = rng.integers(0, n, size=_SAMPLE)
    rsamp = r[idx]
    order = np.argsort(rsamp)[::-1]
    rso = rsamp[order]
    scale = n / _SAMPLE
    # estimated H at each sample ratio: outcomes strictly above it, scaled up
    Ph = P0 + scale * np.concatenate(([0.0], np.cumsum(p[idx][order])[:-1]))
    Qh = Q0 + scale * np.concatenate(([0.0], np.cumsum(q[idx][order])[:-1]))
    Hh = np.maximum.accumulate(Ph - rso * Qh)
    j = int(np.searchsorted(Hh, beta, side="right"))  # estimated rank of c* in the sample
    cache: dict[float, tuple[float, float, float]] = {}
    masks: dict[float, NDArray[np.bool_]] = {}

    def H(t: float) -> tuple[float, float, float]:
        """(H(t), P, Q) for the event {r > t} together with the outcomes above."""
        if t not in cache:
            mask = masks[t] = r > t
            cnt = int(np.count_nonzero(mask))
            if 8 * cnt <= n:  # sparse: sum the few selected outcomes
                k = np.flatnonzero(mask)
                Pa, Qa = float(np.sum(p[k])), float(np.sum(q[k]))
            elif 8 * (n - cnt) <= n:  # dense: subtract the few unselected ones
                k = np.flatnonzero(~mask)
                Pa = float(np.sum(p)) - float(np.sum(p[k]))
                Qa = float(np.sum(q)) - float(np.sum(q[k]))
            else:
                w = mask.astype(np.float64)
                Pa, Qa = float(p @ w), float(q @ w)
            Pa += P0
            Qa += Q0
            cache[t] = (Pa - t * Qa, Pa, Qa)
        return cache[t]

    neg = -rso  # increasing, for searchsorted
    g = int(3 * math.sqrt(j + 1)) + 2  # about three standard deviations of the sampled rank
    while True:
        hi_pos, lo_pos = j - g, j + g
        t_hi = math.inf if hi_pos < 0 else float(rso[hi_pos])
        # t_lo: a sample ratio strictly below t_hi, at or beyond lo_pos
        lo_pos = max(lo_pos, int(np.searchsorted(neg, -t_hi, side="right")))
        t_lo = 0.0 if lo_pos >= _SAMPLE else float(rso[lo_pos])
        hi_ok = t_hi == math.inf or H(t_hi)[0] <= beta
        lo_ok = t_lo == 0.0 or H(t_lo)[0] > beta
        if hi_ok and lo_ok:
            break
        j = j - g if not hi_ok else j + g  # c* lies beyond the failed end: recentre there
        g *= 4
    above_lo = masks[t_lo] if t_lo in masks else r > t_lo
    if t_hi == math.inf:
        P1, Q1 = P0, Q0
        mid = above_lo
    else:
        _, P1, Q1 = H(t_hi)
        mid = above_lo > masks[t_hi]  # r > t_lo and not r > t_hi (booleans: a > b is a & ~b)
    k = np.flatnonzero(mid)
    if 10 * k.size > 9 * n:  # the bracket could not narrow the problem: sort it
        return _prefix_max(r, p, q, P0, Q0, beta)
    return _sup_scalar(r[k], p[k], q[k], P1, Q1, beta)


def _sup_ratio_exact(p: NDArray[Any], q: NDArray[Any], beta: Fraction) -> Fraction | None:
    """Exact ``c*(beta)`` over Fractions; ``None`` for ``+inf``, ``Fraction(0)`` if no event."""
    p_inf = sum((pi for pi, qi in zip(p, q) if pi > 0 and qi == 0), Fraction(0))
    if p_inf > beta:
        return None
    items = sorted(((pi / qi, pi, qi) for pi, qi in zip(p, q) if pi > 0 and qi > 0),
                   key=lambda t: t[0], reverse=True)
    P, Q, best = p_inf, Fraction(0), Fraction(0)
    for _, pi, qi in items:
        P += pi
        Q += qi
        if P > beta:
            v = (P - beta) / Q
            if v > best:
                best = v
    return best


def _divergence(pa: NDArray[Any], qa: NDArray[Any], ex: bool, beta: Any,
                unit: Unit) -> Any:
    betas, scalar = _betas(beta, ex)
    if ex:
        assert isinstance(betas, list)
        res = [ExactLog(_sup_ratio_exact(pa, qa, b), unit) for b in betas]
        return res[0] if scalar else res
    assert isinstance(betas, np.ndarray)
    k = _log(_sup_ratio_float(pa, qa, betas.ravel()), unit)
    if scalar:
        return float(k[0])
    return k.reshape(np.shape(beta))


# --------------------------------------------------------------------------------------------
# public measures


def hockey_stick(p: ArrayLike, q: ArrayLike, c: float | Fraction, *, exact: bool | None = None,
                 tol: float = PROB_TOL) -> float | Fraction:
    r"""Hockey-stick divergence :math:`H_c(P\|Q) = \sum_x \max(0, p(x) - c\,q(x))`.

    Equal to :math:`\sup_O P(O) - c\,Q(O)`; ``(eps, delta)``-DP is ``H_{e^eps} <= delta`` in
    both directions (RRST Def 2.1).

    Parameters
    ----------
    p, q : probability vectors on the same support.
    c : real ``>= 0``.

    Returns
    -------
    float, or :class:`~fractions.Fraction` in exact mode (then ``c`` is read exactly).

    Examples
    --------
    Randomized response with ``e^eps = 3``: rows ``(3/4, 1/4)`` and ``(1/4, 3/4)``.

    >>> from fractions import Fraction as F
    >>> hockey_stick([F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)], 1)      # hand: 3/4 - 1/4
    Fraction(1, 2)
    >>> hockey_stick([F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)], 3)      # hand: 3/4 - 3/4
    Fraction(0, 1)
    """
    pa, qa, ex = _pair(p, q, exact, tol)
    cv = check_real("c", c, low=0)
    if ex:
        cf = Fraction(cv)
        return sum((max(Fraction(0), pi - cf * qi) for pi, qi in zip(pa, qa)), Fraction(0))
    return float(np.sum(np.maximum(pa - float(cv) * qa, 0.0)))


@overload
def approx_max_divergence(p: ArrayLike, q: ArrayLike, beta: float | Fraction = ..., *,
                          unit: Unit = ..., exact: bool | None = ..., tol: float = ...) -> Any: ...
@overload
def approx_max_divergence(p: ArrayLike, q: ArrayLike, beta: ArrayLike, *,
                          unit: Unit = ..., exact: bool | None = ..., tol: float = ...) -> Any: ...
def approx_max_divergence(p: ArrayLike, q: ArrayLike, beta: Any = 0.0, *, unit: Unit = "bits",
                          exact: bool | None = None, tol: float = PROB_TOL) -> Any:
    r"""β-approximate max-divergence :math:`D^\beta_\infty(P\|Q)`, in bits (default) or nats.

    .. math:: D^{\beta}_\infty(P\|Q) = \log_2 \sup_{O:\,P(O)>\beta} \frac{P(O)-\beta}{Q(O)}

    Source: DFHPRR Def 2 (with ``beta``: Def 3), RRST §1.2. Computed exactly over all events
    through the sorted likelihood ratios in ``O(N log N)`` (see the module docstring).

    Parameters
    ----------
    p, q : probability vectors on the same support (length ``N``).
    beta : real in ``[0, 1)``, or an array of them (all answered in one pass).
    unit : ``"bits"`` (default) or ``"nats"``.
    exact : force (``True``) or forbid (``False``) exact rational arithmetic; default: exact
        when an input holds a :class:`~fractions.Fraction`.

    Returns
    -------
    float (``+inf`` when unbounded), an array shaped like ``beta``, or in exact mode an
    :class:`~maxinfo_bounds.numeric.ExactLog` (a list of them for array ``beta``).

    Examples
    --------
    >>> approx_max_divergence([0.75, 0.25], [0.25, 0.75])            # log2(3), hand
    1.584962500721156
    >>> from fractions import Fraction as F
    >>> d = approx_max_divergence([F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)], F(1, 4))
    >>> d.ratio      # best event {0}: (3/4 - 1/4) / (1/4) = 2, hand
    Fraction(2, 1)
    >>> float(d)
    1.0
    """
    unit = check_unit(unit)
    pa, qa, ex = _pair(p, q, exact, tol)
    return _divergence(pa, qa, ex, beta, unit)


def max_divergence(p: ArrayLike, q: ArrayLike, *, unit: Unit = "bits",
                   exact: bool | None = None, tol: float = PROB_TOL) -> Any:
    r"""Max-divergence :math:`D_\infty(P\|Q) = \log_2 \max_{x:\,p(x)>0} p(x)/q(x)` (β = 0).

    Source: DFHPRR Def 2. ``+inf`` if ``q(x) = 0 < p(x)`` somewhere.

    >>> max_divergence([0.5, 0.5], [0.25, 0.75])                     # log2(2), hand
    1.0
    """
    return approx_max_divergence(p, q, 0.0, unit=unit, exact=exact, tol=tol)


def approx_max_information(joint: ArrayLike, beta: Any = 0.0, *, unit: Unit = "bits",
                           exact: bool | None = None, tol: float = PROB_TOL) -> Any:
    r"""β-approximate max-information :math:`I^\beta_\infty(X;Y)` of a joint table, in bits.

    .. math:: I^{\beta}_\infty(X;Y) = D^{\beta}_\infty\bigl((X,Y)\,\|\,X\otimes Y\bigr)

    Source: RRST Def 1.2; DFHPRR Def 3. ``joint[x, y] = Pr[X = x, Y = y]``. Symmetric in X and
    Y. ``beta`` may be an array (one pass over the sorted ratios).

    Examples
    --------
    Randomized response with ``e^eps = 3`` on a uniform bit: ``Pr[Y = X] = 3/4``.

    >>> from fractions import Fraction as F
    >>> J = [[F(3, 8), F(1, 8)], [F(1, 8), F(3, 8)]]
    >>> approx_max_information(J).ratio        # (3/8) / (1/4), hand
    Fraction(3, 2)
    >>> approx_max_information(J, F(1, 8)).ratio   # event {(0,0),(1,1)}: (3/4-1/8)/(1/2), hand
    Fraction(5, 4)
    """
    unit = check_unit(unit)
    pj, pq, ex = _joint(joint, exact, tol)
    return _divergence(pj, pq, ex, beta, unit)


def max_information(joint: ArrayLike, *, unit: Unit = "bits", exact: bool | None = None,
                    tol: float = PROB_TOL) -> Any:
    r"""Max-information :math:`I_\infty(X;Y) = \log_2 \max_{x,y} \frac{P(x,y)}{P(x)P(y)}`.

    Source: RRST Def 1.2; DFHPRR Def 3 with β = 0.

    >>> max_information([[0.5, 0.0], [0.0, 0.5]])       # Y = X, one fair bit: 1 bit, hand
    1.0
    """
    return approx_max_information(joint, 0.0, unit=unit, exact=exact, tol=tol)


def _mp_log_sum(pairs: Iterable[tuple[Fraction, Fraction]], unit: Unit, dps: int) -> Any:
    """sum p ln(p/q) over p > 0 in mpmath at ``dps`` digits (q == 0 < p gives +inf)."""
    with mpmath.workdps(dps + 15):
        total = mpmath.mpf(0)
        for pi, qi in pairs:
            if pi == 0:
                continue
            if qi == 0:
                return mpmath.inf
            r = pi / qi
            total += (mpmath.mpf(pi.numerator) / pi.denominator) * mpmath.log(
                mpmath.mpf(r.numerator) / r.denominator)
        if unit == "bits":
            total /= mpmath.log(2)
    with mpmath.workdps(dps):
        return +total


def kl_divergence(p: ArrayLike, q: ArrayLike, *, unit: Unit = "bits", exact: bool | None = None,
                  dps: int = 50, tol: float = PROB_TOL) -> Any:
    r"""Kullback–Leibler divergence :math:`\sum_x p(x)\log_2\frac{p(x)}{q(x)}`, in bits.

    ``+inf`` when ``q(x) = 0 < p(x)``. Float path: :func:`scipy.special.rel_entr`. Exact mode:
    an :class:`mpmath.mpf` with ``dps`` digits.

    >>> kl_divergence([0.5, 0.5], [0.25, 0.75])   # 1 - log2(3)/2 = 0.20751874963942190927 (50 digits)
    0.2075187496394219
    """
    unit = check_unit(unit)
    pa, qa, ex = _pair(p, q, exact, tol)
    if ex:
        check_int("dps", dps, low=1, high=100_000)
        return _mp_log_sum(zip(pa, qa), unit, dps)
    v = float(np.sum(rel_entr(pa, qa)))
    return v / _LN2 if unit == "bits" else v


def mutual_information(joint: ArrayLike, *, unit: Unit = "bits", exact: bool | None = None,
                       dps: int = 50, tol: float = PROB_TOL) -> Any:
    r"""Mutual information :math:`I(X;Y) = D_{KL}\bigl((X,Y)\,\|\,X\otimes Y\bigr)`, in bits.

    >>> mutual_information([[0.5, 0.0], [0.0, 0.5]])   # Y = X, a fair bit, hand
    1.0
    >>> mutual_information([[0.25, 0.25], [0.25, 0.25]])
    0.0
    """
    unit = check_unit(unit)
    pj, pq, ex = _joint(joint, exact, tol)
    if ex:
        check_int("dps", dps, low=1, high=100_000)
        return _mp_log_sum(zip(pj, pq), unit, dps)
    v = float(np.sum(rel_entr(pj, pq)))
    v = max(v, 0.0)  # rel_entr terms sum to >= 0 mathematically; clip float noise below 0
    return v / _LN2 if unit == "bits" else v


def tv_distance(p: ArrayLike, q: ArrayLike, *, exact: bool | None = None,
                tol: float = PROB_TOL) -> float | Fraction:
    r"""Total variation distance :math:`\tfrac12\sum_x |p(x)-q(x)| = \max_O P(O)-Q(O)`.

    >>> from fractions import Fraction as F
    >>> tv_distance([F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)])          # hand
    Fraction(1, 2)
    """
    pa, qa, ex = _pair(p, q, exact, tol)
    if ex:
        return sum((abs(pi - qi) for pi, qi in zip(pa, qa)), Fraction(0)) / 2
    return 0.5 * float(np.sum(np.abs(pa - qa)))


# --------------------------------------------------------------------------------------------
# differential privacy of a mechanism matrix


def _mechanism(mechanism: Any, neighbors: Any, exact: bool | None,
               tol: float) -> tuple[NDArray[Any], list[tuple[int, int]], bool]:
    ex = wants_exact(mechanism, exact=exact)
    M = as_table("mechanism", mechanism, ndim=2, exact=ex, tol=tol, stochastic_rows=True)
    pairs = iter_pairs("neighbors", neighbors, M.shape[0])
    both = sorted(set(pairs) | {(j, i) for i, j in pairs})
    return M, both, ex


def _mpf(x: Fraction) -> Any:
    return mpmath.mpf(x.numerator) / x.denominator


def dp_delta(mechanism: ArrayLike, eps: float | Fraction, neighbors: Iterable[tuple[int, int]],
             *, exact: bool | None = None, dps: int = 50, tol: float = PROB_TOL) -> Any:
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
    M, pairs, ex = _mechanism(mechanism, neighbors, exact, tol)
    e = check_real("eps", eps, low=0)
    if ex:
        ef = Fraction(e)
        if ef == 0:
            return max(sum((max(Fraction(0), a - b) for a, b in zip(M[i], M[j])), Fraction(0))
                       for i, j in pairs)
        check_int("dps", dps, low=1, high=100_000)
        with mpmath.workdps(dps + 15):
            c = mpmath.exp(_mpf(ef))
            best = mpmath.mpf(0)
            for i, j in pairs:
                h = mpmath.fsum(max(mpmath.mpf(0), _mpf(a) - c * _mpf(b))
                                for a, b in zip(M[i], M[j]))
                best = max(best, h)
        with mpmath.workdps(dps):
            return +best
    c = math.exp(float(e))
    I = np.fromiter((i for i, _ in pairs), dtype=np.intp, count=len(pairs))
    J = np.fromiter((j for _, j in pairs), dtype=np.intp, count=len(pairs))
    chunk = max(1, (1 << 22) // M.shape[1])  # bound temporary memory to ~32 MiB
    best_f = 0.0
    for s in range(0, len(pairs), chunk):
        h = np.maximum(M[I[s:s + chunk]] - c * M[J[s:s + chunk]], 0.0).sum(axis=1)
        best_f = max(best_f, float(h.max()))
    return best_f


def dp_epsilon(mechanism: ArrayLike, delta: float | Fraction, neighbors: Iterable[tuple[int, int]],
               *, exact: bool | None = None, tol: float = PROB_TOL) -> Any:
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
    M, pairs, ex = _mechanism(mechanism, neighbors, exact, tol)
    d = check_real("delta", delta, low=0, high=1, high_open=True)
    if ex:
        df = Fraction(d)
        best: Fraction | None = Fraction(1)
        for i, j in pairs:
            c = _sup_ratio_exact(M[i], M[j], df)
            if c is None:
                return ExactLog(None, "nats")
            assert best is not None
            best = max(best, c)
        return ExactLog(best, "nats")
    b = np.array([float(d)])
    cmax = 1.0
    for i, j in pairs:
        cmax = max(cmax, float(_sup_ratio_float(M[i], M[j], b)[0]))
        if cmax == math.inf:
            return math.inf
    return math.log(cmax)


# --------------------------------------------------------------------------------------------
# indistinguishability predicates (RRST Defs 2.1, 2.2)


def is_indistinguishable(x: ArrayLike, y: ArrayLike, eps: float | Fraction,
                         delta: float | Fraction, *, exact: bool | None = None,
                         tol: float = PROB_TOL) -> bool:
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
    xa, ya, ex = _pair(x, y, exact, tol, names=("x", "y"))
    e = check_real("eps", eps, low=0)
    d = check_real("delta", delta, low=0, high=1)
    if d == 1:
        return True
    if ex:
        df = Fraction(d)
        c1 = _sup_ratio_exact(xa, ya, df)
        c2 = _sup_ratio_exact(ya, xa, df)
        if c1 is None or c2 is None:
            return False
        c = max(c1, c2)
        return c == 0 or log_le(c, Fraction(e), base="e")
    b = np.array([float(d)])
    cf = max(float(_sup_ratio_float(xa, ya, b)[0]), float(_sup_ratio_float(ya, xa, b)[0]))
    return cf == 0.0 or (cf < math.inf and math.log(cf) <= float(e))


def is_pointwise_indistinguishable(x: ArrayLike, z: ArrayLike, eps: float | Fraction,
                                   delta: float | Fraction, *, exact: bool | None = None,
                                   tol: float = PROB_TOL) -> bool:
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
    xa, za, ex = _pair(x, z, exact, tol, names=("x", "z"))
    e = check_real("eps", eps, low=0)
    d = check_real("delta", delta, low=0, high=1)
    if ex:
        ef = Fraction(e)
        good = Fraction(0)
        for pa, pz in zip(xa, za):
            if pa == 0 or pz == 0:
                continue
            r = pa / pz
            if log_le(r, ef, base="e") and log_le(1 / r, ef, base="e"):
                good += pa
        return good >= 1 - Fraction(d)
    with np.errstate(divide="ignore"):
        lr = np.abs(np.log(xa) - np.log(za))
    ok = (xa > 0) & (za > 0) & (lr <= float(e))
    return math.fsum(xa[ok]) >= 1.0 - float(d)


def log_ratio_tail(joint: ArrayLike, k: Any, *, unit: Unit = "bits", tol: float = PROB_TOL) -> Any:
    r"""``Pr[Z >= k]`` for the information density ``Z = log2 P(x,y) / (P(x)P(y))``, (x,y) ~ joint.

    The quantity of RRST Lemma 3.2 (DFHPRR Lemma 18): if ``Pr[Z >= k] <= beta`` then
    ``I^beta_infty(X;Y) <= k``. ``k`` may be an array. Float path only.

    >>> log_ratio_tail([[0.375, 0.125], [0.125, 0.375]], 0.5)   # Z = log2(3/2) w.p. 3/4
    0.75
    """
    unit = check_unit(unit)
    pj, pq, _ = _joint(joint, False, tol)
    keep = pj > 0
    with np.errstate(divide="ignore"):
        z = _log(pj[keep] / pq[keep], unit)
    w = pj[keep]
    order = np.argsort(z)
    zs, ws = z[order], w[order]
    tail = np.concatenate((np.cumsum(ws[::-1])[::-1], [0.0]))
    kk = np.asarray(k, dtype=np.float64)
    res = tail[np.searchsorted(zs, kk, side="left")]
    return float(res) if np.ndim(k) == 0 else res
