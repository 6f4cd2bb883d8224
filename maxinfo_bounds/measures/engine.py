"""The sorted-likelihood-ratio engine behind every measure: table validation, the supremum of
``(P(O) - beta)/Q(O)`` over all events by one sort and prefix sums (exact or float64), and the
helpers the measure modules share. See the package docstring for why it is exact."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np
from numpy.typing import ArrayLike as _NpArrayLike
from numpy.typing import NDArray

from ..numeric import (
    ExactLog,
    InvalidParameter,
    Unit,
    as_table,
    check_real,
    check_same_shape,
    iter_pairs,
    wants_exact,
)
from ..types import FloatArray, MpfLike

#: a probability table: anything numpy reads, or (nested) sequences of Fractions (exact mode)
ArrayLike = _NpArrayLike | Sequence[Fraction] | Sequence[Sequence[Fraction]]

__all__ = [
    "ArrayLike",
    "LN2",
    "divergence_of",
    "joint_table",
    "log_unit",
    "mechanism_table",
    "mp_log_sum",
    "pair_tables",
    "sup_ratio_exact",
    "sup_ratio_float",
    "to_mpf",
]


LN2 = math.log(2.0)


def pair_tables(p: Any, q: Any, exact: bool | None, tol: float,
          names: tuple[str, str] = ("p", "q")) -> tuple[NDArray[Any], NDArray[Any], bool]:
    ex = wants_exact(p, q, exact=exact)
    pa = as_table(names[0], p, ndim=1, exact=ex, tol=tol)
    qa = as_table(names[1], q, ndim=1, exact=ex, tol=tol)
    check_same_shape(names, [pa, qa])
    return pa, qa, ex


def joint_table(joint: Any, exact: bool | None, tol: float) -> tuple[NDArray[Any], NDArray[Any], bool]:
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


def log_unit(c: NDArray[np.float64], unit: Unit) -> NDArray[np.float64]:
    with np.errstate(divide="ignore"):
        return np.log2(c) if unit == "bits" else np.log(c)


def sup_ratio_float(p: NDArray[np.float64], q: NDArray[np.float64],
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


def sup_ratio_exact(p: NDArray[Any], q: NDArray[Any], beta: Fraction) -> Fraction | None:
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


def divergence_of(pa: NDArray[Any], qa: NDArray[Any], ex: bool, beta: Any,
                unit: Unit) -> float | ExactLog | FloatArray | list[ExactLog]:
    betas, scalar = _betas(beta, ex)
    if ex:
        assert isinstance(betas, list)
        res = [ExactLog(sup_ratio_exact(pa, qa, b), unit) for b in betas]
        return res[0] if scalar else res
    assert isinstance(betas, np.ndarray)
    k = log_unit(sup_ratio_float(pa, qa, betas.ravel()), unit)
    if scalar:
        return float(k[0])
    return k.reshape(np.shape(beta))


def mp_log_sum(pairs: Iterable[tuple[Fraction, Fraction]], unit: Unit, dps: int) -> MpfLike:
    """sum p ln(p/q) over p > 0 in mpmath at ``dps`` digits (q == 0 < p gives +inf)."""
    with mpmath.workdps(dps + 15):
        total = mpmath.mpf(0)
        for pi, qi in pairs:
            if pi == 0:
                continue
            if qi == 0:
                inf: MpfLike = mpmath.inf
                return inf
            r = pi / qi
            total += (mpmath.mpf(pi.numerator) / pi.denominator) * mpmath.log(
                mpmath.mpf(r.numerator) / r.denominator)
        if unit == "bits":
            total /= mpmath.log(2)
    with mpmath.workdps(dps):
        out: MpfLike = +total
        return out


def mechanism_table(mechanism: Any, neighbors: Any, exact: bool | None,
               tol: float) -> tuple[NDArray[Any], list[tuple[int, int]], bool]:
    ex = wants_exact(mechanism, exact=exact)
    M = as_table("mechanism", mechanism, ndim=2, exact=ex, tol=tol, stochastic_rows=True)
    pairs = iter_pairs("neighbors", neighbors, M.shape[0])
    both = sorted(set(pairs) | {(j, i) for i, j in pairs})
    return M, both, ex


def to_mpf(x: Fraction) -> Any:
    return mpmath.mpf(x.numerator) / x.denominator
