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

from ..domain import PROB_BELOW_1
from ..numeric import (
    ExactLog,
    InvalidParameter,
    Unit,
    as_table,
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
    # einsum's own loops, not BLAS: as fast as a one-thread mat-vec, and no wait for BLAS
    # threads on a busy machine (issue 17); j.sum(axis=1) is about 3x slower
    mx = np.einsum("ij->i", j)
    my = np.einsum("ij->j", j)
    return j.ravel(), np.multiply.outer(mx, my).ravel(), False


def _betas(beta: Any, exact: bool) -> tuple[list[Fraction] | NDArray[np.float64], bool]:
    """Validate beta (scalar or array) in [0, 1); return (values, was_scalar)."""
    if np.ndim(beta) == 0:
        b = PROB_BELOW_1.check("beta", beta)
        if exact:
            return [Fraction(b)], True
        return np.array([float(b)]), True
    arr = np.asarray(beta, dtype=object if exact else np.float64)
    if arr.size == 0:
        raise InvalidParameter("beta", beta, "a real number or a non-empty array of reals in [0, 1)")
    if exact:
        return [Fraction(PROB_BELOW_1.check(f"beta[{i}]", v))
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
        zero_q = (q == 0) & (p > 0)
        if zero_q.any():  # outcomes with ratio +inf lead every prefix (copies: rare)
            p_inf = math.fsum(p[zero_q])
            keep = ~zero_q
            p, q, r = p[keep], q[keep], r[keep]
        # outcomes with p = 0 never help an event: ratio 0 (also for p = q = 0, whose ratio is
        # nan) puts them after every other outcome, where no best prefix reaches; set in place
        # rather than filtered out, which would copy p, q and r (3 tables: 0.8 GB at 2^25)
        r[p == 0] = 0.0
    out = np.zeros(betas.shape, dtype=np.float64)
    unbounded = betas < p_inf
    out[unbounded] = math.inf
    todo = ~unbounded
    if p.size == 0 or not todo.any():
        return out
    b = betas[todo]
    if p.size <= 4 * _SAMPLE:
        out[todo] = _sup_sorted(r, p, q, p_inf, b)
    else:
        out[todo] = _sup_buckets(r, p, q, p_inf, b)
    return out


def _sup_sorted(r: NDArray[np.float64], p: NDArray[np.float64], q: NDArray[np.float64],
                p_inf: float, b: NDArray[np.float64]) -> NDArray[np.float64]:
    """``c*(beta)`` for each beta in ``b`` from the outcomes sorted by ratio (any size).

    ``H(r_j) = P_{j-1} - r_j Q_{j-1}`` is non-decreasing in j; the optimal prefix for beta ends
    where ``H`` crosses beta (c* lies in [r_{j+1}, r_j]); the candidates around that point
    absorb the rounding in ``H``.
    """
    order = np.argsort(r)[::-1]
    rd = r[order]
    P = np.cumsum(p[order]) + p_inf
    Q = np.cumsum(q[order])
    h = np.empty_like(P)
    h[0] = p_inf
    h[1:] = P[:-1] - rd[1:] * Q[:-1]
    np.maximum.accumulate(h, out=h)  # remove float wiggles so the search is well defined
    best = np.zeros(b.shape, dtype=np.float64)
    _best_near_crossing(P, Q, h, b, (-2, -1, 0, 1, 2), best)
    return best


def _best_near_crossing(P: NDArray[np.float64], Q: NDArray[np.float64], h: NDArray[np.float64],
                        b: NDArray[np.float64], offsets: tuple[int, ...],
                        best: NDArray[np.float64]) -> None:
    """Raise ``best`` to the prefix values ``(P - beta)/Q`` (where ``P > beta``) at the given
    offsets from the last prefix whose ``H`` before it is ``<= beta`` (``h``: H before each
    outcome, non-decreasing). The candidates around the crossing absorb the rounding in ``h``;
    each is the value of a real event."""
    last = np.searchsorted(h, b, side="right") - 1
    for d in offsets:
        idx = np.clip(last + d, 0, P.size - 1)
        _raise_to(best, P[idx], Q[idx], b)


def _raise_to(best: NDArray[np.float64], P: NDArray[np.float64], Q: NDArray[np.float64],
              b: NDArray[np.float64]) -> None:
    """``best = max(best, (P - beta)/Q)`` wherever ``P > beta`` (an event's value)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        val = np.where((P > b) & (Q > 0), (P - b) / Q, 0.0)
    np.maximum(best, val, out=best)


#: sample size used to place the buckets of :func:`_sup_buckets` (tables up to four samples are
#: simply sorted)
_SAMPLE = 8192
#: buckets of the ratio's bit pattern used by :func:`_sup_buckets` (arrays of this size stay
#: in cache, which is what makes its bincounts cheap)
_BUCKETS = 1 << 17
#: outcomes bucketed per pass of :func:`_sup_buckets`
_CHUNK = 1 << 20
#: up to this many outcomes the buckets are kept between the two passes (8 bytes each)
_KEEP_IDS = 1 << 24
#: float64 rounding of a computed H, relative to the magnitudes summed (generous)
_H_REL = 2.0**-40


def _sup_buckets(r: NDArray[np.float64], p: NDArray[np.float64], q: NDArray[np.float64],
                 p_inf: float, b: NDArray[np.float64]) -> NDArray[np.float64]:
    """``c*(beta)`` for every beta in ``b`` without sorting all the outcomes (issue 17).

    ``r = p/q >= 0`` finite (0 for the outcomes with ``p = 0``, in the bottom bucket);
    ``p_inf``: the mass of the outcomes with ``q = 0`` (above all).
    A positive float's bit pattern is an integer monotone in its value, so a shift buckets the
    outcomes by ratio in one linear pass (the span is the central 99.8% of a fixed sample, plus
    one bucket below and one above it; bucket edges are floats). Per-bucket sums
    (``bincount``) give ``H(t) = p_inf + sum_{r > t} (p - t q)`` at every edge, widened by its
    rounding error; ``c*(beta) = min{c : H(c) <= beta}`` lies in the buckets where the
    widened ``H`` crosses beta. Only those buckets' outcomes are sorted (a bucket whose outcomes
    share one ratio counts as one outcome: inside a tie the prefix value is monotone, so only
    its ends matter); each keeps its exact prefix masses (the buckets above it plus its own
    bucket up to it), so ``c*`` is found among them as :func:`_sup_sorted` finds it among all
    the outcomes. Every candidate is the value of a real event, so the widening costs time,
    never the result. The sample places the buckets, which affects speed only.

    numpy's ``argsort`` of all the ratios (and the gathers it implies) costs 3-10 sorts of
    them; this costs a few linear passes (in chunks of :data:`_CHUNK` outcomes) plus sorting
    what lies near each c*: about 1.3 ``np.sort`` for one beta and 2.7 for 1,000 on 10^6 cells.
    """
    n = r.size
    bits = r.view(np.int64)
    rng = np.random.default_rng(0x5EED)
    sb = np.sort(bits[rng.integers(0, n, size=_SAMPLE)])
    lo, top = int(sb[_SAMPLE // 1000]), int(sb[-1 - _SAMPLE // 1000])
    shift = max(0, ((top - lo) // _BUCKETS).bit_length())
    nin = ((top - lo) >> shift) + 1
    nbk = nin + 2

    def bucket(sl: slice) -> NDArray[np.int64]:
        """Bucket of each outcome in ``sl``: 0 holds the largest ratios (above the span),
        nbk - 1 those below it."""
        ids: NDArray[np.int64] = np.subtract(bits[sl], lo)
        np.right_shift(ids, shift, out=ids)
        np.minimum(ids, nin, out=ids)      # in place (np.clip's wrapper costs two more passes)
        np.maximum(ids, -1, out=ids)
        return np.subtract(nin, ids, out=ids)

    # in chunks: the temporaries stay small and in cache (tables of 2^26 cells and more)
    chunks = [slice(i, min(i + _CHUNK, n)) for i in range(0, n, _CHUNK)]
    Pb, Qb = np.zeros(nbk), np.zeros(nbk)
    kept: list[NDArray[np.int64]] = []     # the buckets, kept for the second pass if small
    for sl in chunks:
        ids = bucket(sl)
        Pb += np.bincount(ids, weights=p[sl], minlength=nbk)
        Qb += np.bincount(ids, weights=q[sl], minlength=nbk)
        if n <= _KEEP_IDS:
            kept.append(ids)
    Pin = np.cumsum(Pb) + p_inf                           # mass of buckets 0..j
    Qin = np.cumsum(Qb)
    edge = np.empty(nbk)                                  # the smallest ratio bucket j can hold
    edge[:-1] = (lo + (np.arange(nin, -1, -1, dtype=np.int64) << shift)).view(np.float64)
    edge[-1] = 0.0
    hmid = Pin - edge * Qin                               # H at bucket j's lower edge
    herr = _H_REL * (Pin + edge * Qin) + 2.0**-1000
    h_lo = np.maximum.accumulate(hmid - herr)             # monotone enclosures of the true H
    h_hi = np.minimum.accumulate((hmid + herr)[::-1])[::-1]
    # c* lies in bucket j (edge_j < c* <= edge_{j-1}) only if H(edge_j) > beta >= H(edge_{j-1})
    first = np.clip(np.searchsorted(h_hi, b, side="right") - 1, 0, nbk - 1)
    last = np.clip(np.searchsorted(h_lo, b, side="right") + 1, 0, nbk - 1)
    mark = np.zeros(nbk + 1, dtype=np.int64)
    np.add.at(mark, first, 1)
    np.add.at(mark, last + 1, -1)
    need = np.cumsum(mark[:-1]) > 0
    parts = []
    for j, sl in enumerate(chunks):
        ids = kept[j] if kept else bucket(sl)
        kk = np.flatnonzero(need[ids])
        parts.append((kk + sl.start, ids[kk]))
    k = np.concatenate([a for a, _ in parts])
    ik = np.concatenate([c for _, c in parts])
    bk = bits[k]
    lead = np.zeros(nbk, dtype=np.int64)
    lead[ik] = bk                                         # one ratio of each needed bucket
    mixed = np.bincount(ik, weights=bk != lead[ik], minlength=nbk) > 0
    tie = need & ~mixed & (Qb > 0)
    single = k[mixed[ik]]                                 # outcomes of buckets with 2+ ratios
    tb = np.flatnonzero(tie)
    er = np.concatenate((lead[tb].view(np.float64), r[single]))
    ep = np.concatenate((Pb[tb], p[single]))
    eq = np.concatenate((Qb[tb], q[single]))
    eb = np.concatenate((tb, ik[mixed[ik]]))
    order = np.argsort(er)[::-1]                          # ratio decreasing = bucket increasing
    er, ep, eq, eb = er[order], ep[order], eq[order], eb[order]
    above_p = np.concatenate(([p_inf], Pin[:-1]))         # mass of the buckets above bucket j
    above_q = np.concatenate(([0.0], Qin[:-1]))
    best = np.zeros(b.shape, dtype=np.float64)
    if er.size:
        # each needed outcome's prefix: the buckets above its own, plus its bucket up to it
        new_b = np.concatenate(([True], eb[1:] != eb[:-1]))
        cp, cq = np.cumsum(ep), np.cumsum(eq)
        seg = np.cumsum(new_b) - 1
        Pc = above_p[eb] + (cp - (cp - ep)[new_b][seg])
        Qc = above_q[eb] + (cq - (cq - eq)[new_b][seg])
        # H just before each outcome is non-decreasing along them (a subsequence of the full
        # order), so beta's crossing is found as in _sup_sorted
        h = np.maximum.accumulate((Pc - ep) - er * (Qc - eq))
        _best_near_crossing(Pc, Qc, h, b, (-2, -1, 0, 1, 2, 3), best)
    # the prefix ending just above each beta's first needed bucket
    _raise_to(best, above_p[first], above_q[first], b)
    return best


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
