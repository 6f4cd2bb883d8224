"""The sorted-likelihood-ratio engine behind every measure: table validation, the supremum of
``(P(O) - beta)/Q(O)`` over all events by one sort and prefix sums (exact or float64), and the
helpers the measure modules share. See the package docstring for why it is exact.

Why one module over 400 lines: the exact path, the float path and the bucketed path for large
tables compute the same supremum and must agree entry for entry (the tests hold them to each
other and to brute force); split, each would re-state the crossing rule and the tie handling
the others rely on, and the "only the buckets near c* are sorted" argument would sit apart from
the code it proves correct.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
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
    mp_ctx,
    to_public,
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


def pair_tables(
    p: Any, q: Any, exact: bool | None, tol: float, names: tuple[str, str] = ("p", "q")
) -> tuple[NDArray[Any], NDArray[Any], bool]:
    ex = wants_exact(p, q, exact=exact)
    pa = as_table(names[0], p, ndim=1, exact=ex, tol=tol)
    qa = as_table(names[1], q, ndim=1, exact=ex, tol=tol)
    check_same_shape(names, [pa, qa])
    return pa, qa, ex


def joint_table(joint: Any, exact: bool | None, tol: float, lazy: bool = False) -> tuple[NDArray[Any], Any, bool]:
    """Validate a joint table; return (flattened joint, flattened product of marginals, exact).

    With ``lazy`` (float tables only) the product is a :class:`ProductTable`, computed chunk by
    chunk by :func:`sup_ratio_float` instead of stored whole."""
    ex = wants_exact(joint, exact=exact)
    j = as_table("joint", joint, ndim=2, exact=ex, tol=tol)
    if ex:
        px = [sum(row) for row in j]
        py = [sum(col) for col in j.T]
        prod = np.empty(j.shape, dtype=object)
        for a, pa in enumerate(px):
            for b, pb in enumerate(py):
                prod[a, b] = pa * pb
        return j.ravel(), prod.ravel(), True
    # einsum's own loops, not BLAS: as fast as a one-thread mat-vec, and no wait for BLAS
    # threads on a busy machine (issue 17); j.sum(axis=1) is about 3x slower
    table = ProductTable(np.einsum("ij->i", j), np.einsum("ij->j", j))  # pragma: no mutate (subscript case)
    return j.ravel(), (table if lazy else table.full()), False


class ProductTable:
    """The product ``mx ⊗ my`` of two marginals, flattened row-major like the joint table,
    never stored whole: each cell is the same float product ``mx[i] * my[j]`` that
    ``np.multiply.outer`` gives."""

    def __init__(self, mx: NDArray[np.float64], my: NDArray[np.float64]) -> None:
        self.mx, self.my = mx, my
        self.size = mx.size * my.size
        self._tiled: NDArray[np.float64] = my[:0]  # pragma: no mutate (a cache: any start refills)

    def full(self) -> NDArray[np.float64]:
        out: NDArray[np.float64] = np.multiply.outer(self.mx, self.my).ravel()
        return out

    def take(self, idx: NDArray[np.int64]) -> NDArray[np.float64]:
        row, col = np.divmod(idx, self.my.size)
        return np.multiply(self.mx[row], self.my[col])

    def bounds(self, chunk: int) -> Iterator[tuple[int, int]]:
        """Chunks of about ``chunk`` cells: whole rows, or parts of one row."""
        m = self.my.size
        if m <= chunk:  # pragma: no mutate (at m = chunk both ways give the same chunks)
            step = (chunk // m) * m
            for s in range(0, self.size, step):
                yield s, min(s + step, self.size)
            return
        for row in range(0, self.size, m):
            for s in range(row, row + m, chunk):
                yield s, min(s + chunk, row + m)

    def block(self, s: int, e: int, out: NDArray[np.float64]) -> NDArray[np.float64]:
        m = self.my.size
        i0, j0 = divmod(s, m)
        # (bounds() gives parts of one row, or whole rows from j0 = 0)
        if e - s <= m - j0:  # pragma: no mutate (within one row)
            # pragma: no mutate start (out=: the caller's buffer, memory only)
            row: NDArray[np.float64] = np.multiply(self.my[j0 : j0 + e - s], self.mx[i0], out=out[: e - s])
            # pragma: no mutate end
            return row
        rows = (e - s) // m  # whole rows (j0 == 0)
        if self._tiled.size != e - s:  # pragma: no mutate (my repeated once per row: a cache)
            self._tiled = np.tile(self.my, rows)
        # the same products as the broadcast mx[:, None] * my[None, :], whose inner loops of
        # one row each cost more than the arithmetic when rows are short
        # pragma: no mutate start (out=: the caller's buffer, memory only)
        return np.multiply(np.repeat(self.mx[i0 : i0 + rows], m), self._tiled, out=out[: e - s])
        # pragma: no mutate end


def _betas(beta: Any, exact: bool) -> tuple[list[Fraction] | NDArray[np.float64], bool]:
    """Validate beta (scalar or array) in [0, 1); return (values, was_scalar)."""
    allowed = "a real number or a non-empty array of reals in [0, 1)"
    try:
        scalar = np.ndim(beta) == 0
        arr = None if scalar else np.asarray(beta, dtype=object if exact else np.float64)
    except (TypeError, ValueError, OverflowError):  # not numbers, a ragged list, an int past the floats
        raise InvalidParameter("beta", beta, allowed) from None
    if arr is None:
        b = PROB_BELOW_1.check("beta", beta)
        if exact:
            return [Fraction(b)], True
        return np.array([float(b)]), True
    if arr.size == 0:
        raise InvalidParameter("beta", beta, allowed)
    if exact:
        return [Fraction(PROB_BELOW_1.check(f"beta[{i}]", v)) for i, v in enumerate(arr.ravel())], False
    if not np.all(np.isfinite(arr)) or np.any(arr < 0) or np.any(arr >= 1):
        bad = arr[~(np.isfinite(arr) & (arr >= 0) & (arr < 1))].ravel()[0]
        raise InvalidParameter("beta", float(bad), "real numbers in [0, 1) (an array entry is not)")
    return arr, False


def log_unit(c: NDArray[np.float64], unit: Unit) -> NDArray[np.float64]:
    with np.errstate(divide="ignore"):
        return np.log2(c) if unit == "bits" else np.log(c)


class _FlatTable:
    """A stored table with :class:`ProductTable`'s chunk interface."""

    def __init__(self, q: NDArray[np.float64]) -> None:
        self.q = q

    def bounds(self, chunk: int) -> Iterator[tuple[int, int]]:
        n = self.q.size
        return ((s, min(s + chunk, n)) for s in range(0, n, chunk))

    def block(self, s: int, e: int, out: NDArray[np.float64]) -> NDArray[np.float64]:
        return self.q[s:e]

    def take(self, idx: NDArray[np.int64]) -> NDArray[np.float64]:
        return self.q[idx]


def sup_ratio_float(
    p: NDArray[np.float64], q: NDArray[np.float64] | ProductTable, betas: NDArray[np.float64]
) -> NDArray[np.float64]:
    """``c*(beta) = sup_{O: P(O) > beta} (P(O) - beta) / Q(O)`` for each beta (float64).

    ``inf`` when unbounded, ``0`` when no event has ``P(O) > beta``.
    """
    if p.size > 4 * _SAMPLE:  # pragma: no mutate (which of two exact-equivalent paths: speed)
        return _sup_buckets(p, q, betas)
    if isinstance(q, ProductTable):
        q = q.full()
    r, pw, p_inf = _ratios(p, q)
    if p_inf == 0:  # no beta is below it (betas >= 0): skip the masks (a small table's fixed cost)
        return _sup_sorted(r, pw, q, p_inf, betas)
    out = np.zeros(betas.shape)
    unbounded = betas < p_inf
    out[unbounded] = math.inf
    todo = ~unbounded
    if todo.any():
        out[todo] = _sup_sorted(r, pw, q, p_inf, betas[todo])
    return out


def _ratios(
    p: NDArray[np.float64], q: NDArray[np.float64], r_out: NDArray[np.float64] | None = None
) -> tuple[NDArray[np.float64], NDArray[np.float64], float]:
    """The likelihood ratios ``r = p/q`` (into ``r_out`` if given), the masses to use with
    them, and the mass ``p_inf`` of the outcomes with ``q = 0 < p`` (ratio +inf: they lead every
    prefix, so they are counted apart; their own mass and ratio here are 0). Outcomes with
    ``p = 0`` never help an event: ratio 0 (also for ``p = q = 0``, whose quotient is nan) puts
    them after every other outcome, where no best prefix reaches. Copies only when some cell
    needs this care."""
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.divide(p, q, out=r_out)  # pragma: no mutate (out=: the caller's buffer, memory only)
    if r.size == 0 or r.max() < math.inf:  # no nan (p = q = 0), no +inf (q = 0 < p)
        return r, p, 0.0
    # past here some q is 0 (both a nan and a +inf ratio need one)
    zero_q = q == 0  # (where p = 0 too, its mass adds nothing)
    p_inf = math.fsum(p[zero_q])
    p = p.copy()
    p[zero_q] = 0.0
    r[p == 0] = 0.0  # (the q = 0 outcomes among them)
    return r, p, p_inf


def _sup_sorted(
    r: NDArray[np.float64], p: NDArray[np.float64], q: NDArray[np.float64], p_inf: float, b: NDArray[np.float64]
) -> NDArray[np.float64]:
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
    best = np.zeros(b.shape)
    _best_near_crossing(P, Q, h, b, (-2, -1, 0, 1, 2), best)  # pragma: no mutate (window: see there)
    return best


def _best_near_crossing(
    P: NDArray[np.float64],
    Q: NDArray[np.float64],
    h: NDArray[np.float64],
    b: NDArray[np.float64],
    offsets: tuple[int, ...],
    best: NDArray[np.float64],
) -> None:
    """Raise ``best`` to the prefix values ``(P - beta)/Q`` (where ``P > beta``) at the given
    offsets from the last prefix whose ``H`` before it is ``<= beta`` (``h``: H before each
    outcome, non-decreasing). The candidates around the crossing absorb the rounding in ``h``;
    each is the value of a real event.

    In exact arithmetic the optimum is offset 0: outcome i improves the prefix before it iff
    ``h[i] <= beta``, so the best prefix ends at the last such i. The other offsets catch a
    crossing that rounding in ``h`` moved by one or two places, where the candidates' values
    agree to the last bits; so the window's exact extent is not observable in a result (its
    mutants survive by construction, and are excluded: docs/verification.md)."""
    last = np.searchsorted(h, b, side="right") - 1  # pragma: no mutate (the window's centre)
    # every offset at once (one row per beta): a loop over the offsets paid numpy's fixed
    # costs five times, which dominated small tables (issue 45)
    # pragma: no mutate start (the window: its extent is not observable, as argued above; an
    # index left unclipped below 0 wraps to another real prefix)
    idx = last[:, None] + np.asarray(offsets)
    np.minimum(np.maximum(idx, 0, out=idx), P.size - 1, out=idx)
    # pragma: no mutate end
    bb = b[:, None]
    Pi, Qi = P[idx], Q[idx]
    with np.errstate(divide="ignore", invalid="ignore"):
        val = np.where((Pi > bb) & (Qi > 0), (Pi - bb) / Qi, 0.0)
    np.maximum(best, val.max(axis=1), out=best)


def _raise_to(
    best: NDArray[np.float64], P: NDArray[np.float64], Q: NDArray[np.float64], b: NDArray[np.float64]
) -> None:
    """``best = max(best, (P - beta)/Q)`` wherever ``P > beta`` (an event's value)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        val = np.where((P > b) & (Q > 0), (P - b) / Q, 0.0)
    np.maximum(best, val, out=best)


#: sample size used to place the buckets of :func:`_sup_buckets` (tables up to four samples are
#: simply sorted)
_SAMPLE = 8192
#: buckets of the ratio's bit pattern used by :func:`_sup_buckets` for one beta, and for several
#: (arrays of this size stay in cache, which is what makes the per-bucket sums cheap; more betas
#: need more, smaller buckets, so that the ones near each c* hold few outcomes)
_BUCKETS = 1 << 15
_BUCKETS_MANY = 1 << 16
#: outcomes handled per step of :func:`_sup_buckets`' passes: every temporary is this long, so
#: it stays in cache and is allocated once per call (fresh 8 MB arrays cost more in page faults
#: than in arithmetic; issue 17)
_CHUNK = 1 << 16
#: the largest ratio whose bit pattern may place the buckets (the bucket edges stay finite);
#: larger ratios go to the bucket above the span, which is sorted if needed
_TOP_BITS = int(np.float64(1e300).view(np.int64))
#: up to this many outcomes the buckets are kept between the two passes (8 bytes each)
_KEEP_IDS = 1 << 24
#: float64 rounding of a computed H, relative to the magnitudes summed (generous)
_H_REL = 2.0**-40


def _sup_buckets(
    p: NDArray[np.float64], q: NDArray[np.float64] | ProductTable, betas: NDArray[np.float64]
) -> NDArray[np.float64]:
    """:func:`sup_ratio_float` for large tables, without sorting all the outcomes (issue 17).

    A positive float's bit pattern is an integer monotone in its value, so a clip and a shift
    bucket the outcomes by ratio (the span is the central 99.8% of a fixed sample, plus one
    bucket below and one above it; bucket edges are floats). Per-bucket sums give
    ``H(t) = p_inf + sum_{r > t} (p - t q)`` at every edge, widened by its rounding error;
    ``c*(beta) = min{c : H(c) <= beta}`` lies in the buckets where the widened ``H`` crosses
    beta. Only those buckets' outcomes are sorted (a bucket whose outcomes share one ratio
    counts as one outcome: inside a tie the prefix value is monotone, so only its ends matter);
    each keeps its exact prefix masses (the buckets above it plus its own bucket up to it), so
    ``c*`` is found among them as :func:`_sup_sorted` finds it among all the outcomes. Every
    candidate is the value of a real event, so the widening costs time, never the result. The
    sample places the buckets, which affects speed only.

    Two passes over the table in chunks of :data:`_CHUNK` outcomes (ratios, buckets and
    per-bucket sums in the first; the outcomes of the buckets needed in the second), every
    temporary chunk-sized and reused, so nothing of the table's size is allocated. numpy's
    ``argsort`` of all the ratios (and the gathers it implies) costs 3-10 sorts of them.
    """
    n = p.size
    src = q if isinstance(q, ProductTable) else _FlatTable(q)
    # pragma: no mutate start
    # The buckets' placement (sample, span, shift, clip) and the buffers: speed and memory
    # only, as the docstring argues; test_bucketed_engine_equals_full_sort_on_many_tables and
    # test_bucketed_engine_equals_exact_sort vary buckets, chunks and the second pass.
    rng = np.random.default_rng(0x5EED)
    idx = rng.integers(0, n, size=_SAMPLE)
    rs, _, _ = _ratios(p[idx], src.take(idx))
    sb = np.sort(rs.view(np.int64))
    lo = max(int(sb[_SAMPLE // 1000]), 2)  # clip_lo > 0: a -0.0 ratio clips up to it
    top = min(max(int(sb[-1 - _SAMPLE // 1000]), lo), _TOP_BITS)
    shift = max(0, ((top - lo) // (_BUCKETS if betas.size == 1 else _BUCKETS_MANY)).bit_length())
    shift = min(shift, 55)  # lo + (nin << shift) <= top + 2^55 stays below +inf's bit pattern
    nin = ((top - lo) >> shift) + 1
    nbk = nin + 2
    # ascending bucket a = (bits - base) >> shift of the ratio clipped to [clip_lo, clip_hi]:
    # a = 0 below the span, 1..nin inside it, nin + 1 above it
    base = lo - (1 << shift)
    clip_lo = float(np.int64(lo - 1).view(np.float64))
    clip_hi = float(np.int64(lo + (nin << shift)).view(np.float64))
    size = min(_CHUNK, n)
    rbuf, cbuf, qbuf = np.empty(size), np.empty(size), np.empty(size)
    # the first pass's buckets are kept for the second if they fit (8 bytes an outcome: the
    # second pass is then one gather; above, it recomputes them chunk by chunk)
    keep = n <= _KEEP_IDS
    kept = np.empty(n if keep else size, dtype=np.int64)
    # pragma: no mutate end

    def chunks() -> Iterator[
        tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64], NDArray[np.int64], float]
    ]:
        """Each chunk: ratios, masses p and q, ascending buckets, and its p_inf."""
        for s, e in src.bounds(_CHUNK):
            qc = src.block(s, e, qbuf)
            r, pw, pinf = _ratios(p[s:e], qc, rbuf[: e - s])  # pragma: no mutate (buffer)
            c = np.clip(r, clip_lo, clip_hi, out=cbuf[: e - s])  # pragma: no mutate (buffer)
            ids = np.subtract(c.view(np.int64), base, out=kept[s:e] if keep else kept[: e - s])
            yield r, pw, qc, np.right_shift(ids, shift, out=ids), pinf

    Pa, Qa = np.zeros(nbk), np.zeros(nbk)
    infs: list[float] = []
    for _, pw, qc, ids, pinf in chunks():
        np.add.at(Pa, ids, pw)
        np.add.at(Qa, ids, qc)
        if pinf:
            infs.append(pinf)
    p_inf = math.fsum(infs)
    out = np.zeros(betas.shape)
    unbounded = betas < p_inf
    out[unbounded] = math.inf
    todo = ~unbounded
    if not todo.any():
        return out
    b = betas[todo]
    Pb, Qb = Pa[::-1], Qa[::-1]  # bucket j: the j-th largest ratios
    Pin = np.cumsum(Pb) + p_inf  # mass of buckets 0..j
    Qin = np.cumsum(Qb)
    # pragma: no mutate start
    # Which buckets to sort: any superset of the ones c* can lie in gives the same result (every
    # candidate is a real event); the rounding allowance herr only widens the set, and a
    # narrower one misses c*'s bucket only when H's rounding moves a crossing across an edge,
    # where the prefix ending at that edge has c*'s value to the last bits.
    edge = np.empty(nbk)  # the smallest ratio bucket j can hold
    edge[:-1] = (lo + (np.arange(nin, -1, -1, dtype=np.int64) << shift)).view(np.float64)
    edge[-1] = 0.0
    hmid = Pin - edge * Qin  # H at bucket j's lower edge
    herr = _H_REL * (Pin + edge * Qin) + 2.0**-1000
    h_lo = np.maximum.accumulate(hmid - herr)  # monotone enclosures of the true H
    h_hi = np.minimum.accumulate((hmid + herr)[::-1])[::-1]
    # c* lies in bucket j (edge_j < c* <= edge_{j-1}) only if H(edge_j) > beta >= H(edge_{j-1}),
    # so only if h_hi[j] > beta (j >= first) and h_lo[j - 1] <= beta (j <= last)
    first = np.clip(np.searchsorted(h_hi, b, side="right"), 0, nbk - 1)
    last = np.clip(np.searchsorted(h_lo, b, side="right"), 0, nbk - 1)
    mark = np.zeros(nbk + 1, dtype=np.int64)
    np.add.at(mark, first, 1)
    np.add.at(mark, last + 1, -1)
    need = np.cumsum(mark[:-1]) > 0
    # pragma: no mutate end
    need_a = np.ascontiguousarray(need[::-1])
    if keep:
        k = np.flatnonzero(need_a[kept])
        ik = nbk - 1 - kept[k]
        qk = src.take(k)
        rk, pk, _ = _ratios(p[k], qk)  # the same floats as in the first pass
    else:
        parts = [(np.empty(0, np.int64), np.empty(0), np.empty(0), np.empty(0))]
        for r, pw, qc, ids, _ in chunks():
            kk = np.flatnonzero(need_a[ids])
            if kk.size:
                parts.append((nbk - 1 - ids[kk], r[kk], pw[kk], qc[kk]))
        ik, rk, pk, qk = (np.concatenate([t[i] for t in parts]) for i in range(4))
    bk = rk.view(np.int64)
    lead = np.zeros(nbk, dtype=np.int64)
    lead[ik] = bk  # one ratio of each needed bucket
    mixed = np.zeros(nbk, dtype=bool)
    mixed[ik[bk != lead[ik]]] = True  # pragma: no mutate (a tie read as mixed is sorted: speed)
    tie = need & ~mixed & (Qb > 0)
    sel = mixed[ik]  # outcomes of buckets with 2+ ratios
    tb = np.flatnonzero(tie)
    er = np.concatenate((lead[tb].view(np.float64), rk[sel]))
    ep = np.concatenate((Pb[tb], pk[sel]))
    eq = np.concatenate((Qb[tb], qk[sel]))
    eb = np.concatenate((tb, ik[sel]))
    order = np.argsort(er)[::-1]  # ratio decreasing = bucket increasing
    er, ep, eq, eb = er[order], ep[order], eq[order], eb[order]
    above_p = np.concatenate(([p_inf], Pin[:-1]))  # mass of the buckets above bucket j
    above_q = np.concatenate(([0.0], Qin[:-1]))
    best = np.zeros(b.shape)
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
        _best_near_crossing(Pc, Qc, h, b, (-2, -1, 0, 1, 2, 3), best)  # pragma: no mutate (window)
    # the prefix ending just above each beta's first needed bucket
    _raise_to(best, above_p[first], above_q[first], b)
    out[todo] = best
    return out


def sup_ratio_exact(p: NDArray[Any], q: NDArray[Any], beta: Fraction) -> Fraction | None:
    """Exact ``c*(beta)`` over Fractions; ``None`` for ``+inf``, ``Fraction(0)`` if no event."""
    p_inf = sum(pi for pi, qi in zip(p, q) if qi == 0)  # (p = 0 adds nothing)
    if p_inf > beta:
        return None
    # every prefix of the outcomes by decreasing ratio (ties in any order: a tie's prefixes
    # lie on one segment, whose best point is an end); (P - beta)/Q < 0 never beats 0
    P, Q, best = Fraction(p_inf), Fraction(0), Fraction(0)
    for _, pi, qi in sorted(((pi / qi, pi, qi) for pi, qi in zip(p, q) if qi > 0), reverse=True):
        P += pi
        Q += qi
        best = max(best, (P - beta) / Q)
    return best


def divergence_of(
    pa: NDArray[Any], qa: NDArray[Any], ex: bool, beta: Any, unit: Unit
) -> float | ExactLog | FloatArray | list[ExactLog]:
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
    """sum p ln(p/q) over p > 0 in mpmath at ``dps`` digits (q == 0 < p gives +inf), in this
    thread's private context (the caller's mpmath precision plays no part)."""
    c = mp_ctx()
    with c.workdps(dps + 15):
        total = c.mpf(0)
        for pi, qi in pairs:
            if pi == 0:
                continue
            if qi == 0:
                inf: MpfLike = mpmath.inf
                return inf
            r = pi / qi
            total += to_mpf(pi, c) * c.log(to_mpf(r, c))
        if unit == "bits":
            total /= c.log(2)
    with c.workdps(dps):
        out: MpfLike = to_public(+total)
        return out


def mechanism_table(
    mechanism: Any, neighbors: Any, exact: bool | None, tol: float
) -> tuple[NDArray[Any], list[tuple[int, int]], bool]:
    ex = wants_exact(mechanism, exact=exact)
    M = as_table("mechanism", mechanism, ndim=2, exact=ex, tol=tol, stochastic_rows=True)
    pairs = iter_pairs("neighbors", neighbors, M.shape[0])
    both = sorted(set(pairs) | {(j, i) for i, j in pairs})
    return M, both, ex


def to_mpf(x: Fraction, c: Any) -> MpfLike:
    """An exact rational as an mpmath number at context ``c``'s working precision (rounded to
    nearest: the callers' sums are at dps + 15 digits and rounded once more at the end)."""
    out: MpfLike = c.mpf(x.numerator) / x.denominator
    return out
