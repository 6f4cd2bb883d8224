r"""Sample splitting with the exact binomial tail: k adaptive 0/1-valued queries, each answered
on its own m fresh records.

A {0, 1}-valued query (a classifier's accuracy, a proportion) answered by the mean of m fresh
i.i.d. records is X/m with X ~ Bin(m, p), p the query's population value, unknown. It misses by
more than t with probability at most

.. math:: F(m, t) = \sup_{0 \le p \le 1} \Pr_p\bigl[|X - m p| > m t\bigr],

and, the k parts of the data being disjoint and each query chosen before its own part is looked
at, every answer is within t of its population value with probability at least (1 - F(m, t))^k
(conditionally on the earlier answers, each query misses with probability at most F). This is
the exact version of the Hoeffding-and-union-bound splitting route of :mod:`.estimation`
(Hoeffding 1963, Thm 1: F(m, t) <= 2 e^{-2 m t^2}), valid for 0/1-valued queries only: for
[0, 1]-valued ones a Bernoulli is not the worst case of a tail.

**Computing the supremum (a proof).** On an interval of p where neither m(p - t) nor m(p + t)
crosses an integer, the miss probability is g(p) = P_p(X <= a) + P_p(X >= b) with fixed
integers a < b. Its derivative is m C(m-1, b-1) p^{b-1} (1-p)^{m-b} - m C(m-1, a) p^a
(1-p)^{m-1-a}, whose sign is that of r(p) - 1 with r(p) = C(m-1, b-1)/C(m-1, a)
(p/(1-p))^{b-1-a} increasing in p (when b >= a + 2; else g = 1): g decreases, then increases,
and its supremum on the interval is at an end. So F(m, t) is at most the largest, over the
*breakpoints* p = j/m + t and p = j/m - t in [0, 1] (and p = 0, 1/2), of

.. math:: G^*(p) = \Pr_p[X \le m(p - t)] + \Pr_p[X \ge m(p + t)]

(both inequalities non-strict: each interval's own index sets are contained in those at either
of its ends), and at least the one-sided limits of the miss probability at each breakpoint.
G*(1 - p) = G*(p), so p <= 1/2 suffices. On any p-interval [p1, p2], G* is at most
P_{p1}[X <= m(p2 - t)] + P_{p2}[X >= m(p1 + t)] (a lower tail falls as p grows and rises with
its threshold), which the branch and bound below uses to discard intervals whole.

**Certified evaluation.** Each binomial tail is the term at its threshold, enclosed in interval
arithmetic (mpmath, log-gamma), times the sum of the term ratios toward the far end,
i_(1-p) / ((m-i+1) p), multiplied out in floating point; every float operation's relative error
is at most 2^-53, so the computed sum of L terms is within a factor (1 +- 8 (L + 2) 2^-53) of
the exact one, and the terms left out are bounded by a geometric series (the ratios fall away
from the mean). A threshold beyond the mean takes the complement. The float values of p at
which the tails are evaluated are rounded so that each bound moves the right way (a lower tail
at a smaller p is larger).

The half-width is steered by a float estimate (scipy.special's binomial CDF at the breakpoints
near the supremum) and then certified by the branch and bound; the search stops at Hoeffding's
half-width, which always holds. Every half-width is rounded up and every coverage down.

>>> b = split_binomial(200_000, 411, 0.05)     # m = 486; Hoeffding gives 0.0999...
>>> 0.086 < b.half_width < 0.089, b.coverage >= 0.95
(True, True)
"""

from __future__ import annotations

import functools
import heapq
import math
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import numpy as np

from ..numeric import InvalidParameter, enclosure, float_up, log_le
from ..numeric.special import special
from ..results import AccuracyBound
from ..search import first_true_int
from .estimation import BETA, HALF, QUERIES, _coverage, split_hoeffding, split_max_queries, split_required_n
from .registry import N_RECORDS, Theorem, register

__all__ = [
    "miss_upper",
    "miss_lower",
    "split_binomial",
    "split_binomial_meets",
    "split_binomial_max_queries",
    "split_binomial_required_n",
    "BINOMIAL_M_MAX",
    "Undecided",
    "split_binomial_estimate",
]

#: the largest number of records per query the exact route evaluates: its cost grows as about
#: m^(3/4) certified tails (about 1 s for the half-width at this m, and up to about 3 s for the
#: smallest n, which checks every record count below); beyond it the route gives Hoeffding's bound
BINOMIAL_M_MAX = 50_000

_U = 2.0**-53  # unit roundoff of a double
_CHUNK = 2048


def _terms_sum(m: int, a: int, x: float, y: float, limit: int | None = None) -> tuple[float, float]:
    """Enclosure of S = sum_{i <= a} P(i)/P(a) for X ~ Bin(m, pi), where x and y are pi and
    1 - pi each rounded to the nearest float, and a < (m + 1) pi (so every ratio is below 1).
    With ``limit``: only the first ``limit`` terms are summed, and the upper end is inf (a
    cheap lower bound).
    The ratio P(i-1)/P(i) = i (1 - pi) / ((m - i + 1) pi) is computed with at most five
    roundings (x, y and three operations; m - i + 1 is exact), each term of the running product
    with at most six per factor, and the sum with one per term: the computed S is within a factor
    (1 +- 10 (L + 2) 2^-53) of the exact sum of its L + 1 terms (the first order is enough: the
    factor's second-order part is below 2^-60 for every L this module meets)."""
    total, prod, count = 1.0, 1.0, 0
    i = a
    while i > 0:
        if limit is not None and count + 1 >= limit:
            return total * (1 - 10.0 * (count + 2) * _U), math.inf
        lo = max(i - (_CHUNK if limit is None else min(_CHUNK, limit - 1 - count)), 0)
        idx = np.arange(i, lo, -1, dtype=float)
        rho = idx * y / ((m - idx + 1.0) * x)
        terms = np.cumprod(rho) * prod
        total += float(np.sum(terms))
        count += len(terms)
        prod = float(terms[-1])
        i = lo
        if i == 0:
            break
        nxt = i * y / ((m - i + 1.0) * x)  # the next ratio, the largest of those left out
        if nxt < 1 - 2.0**-20 and prod / (1.0 - nxt) < total * 2.0**-70:
            # the rest is a geometric series below prod nxt / (1 - nxt) (the ratios fall with
            # i); nxt itself is within 2^-50 relative of the exact ratio, hence the doubling
            err = 10.0 * (count + 2) * _U
            return total * (1 - err), (total + 2 * prod * nxt / (1.0 - nxt)) * (1 + err)
    err = 10.0 * (count + 2) * _U
    return total * (1 - err), total * (1 + err)


_HALF_LOG_2PI = 0.9189385332046727  # ln(2 pi)/2 rounded to nearest: within 2^-53 relative


@functools.lru_cache(maxsize=1 << 16)
def _log_fact(x: int) -> tuple[float, float]:
    """(v, e): |ln(x!) - v| <= e. Up to 170! exactly as an integer, then one logarithm; beyond,
    Stirling's series ln Gamma(z) = (z - 1/2) ln z - z + ln(2 pi)/2 + 1/(12 z) - 1/(360 z^3) + R
    with z = x + 1 and 0 < R < 1/(1260 z^5) (the remainder has the sign of, and is smaller
    than, the first term left out). Every float operation errs by at most 2^-53 of its result,
    math.log by at most 4 ulp (the fast paths' assumption, :mod:`maxinfo_bounds.numeric`), so
    e = 2^-48 times the sum of the terms' sizes (plus the remainder) is generous."""
    if x <= 170:
        v = math.log(math.factorial(x)) if x > 1 else 0.0
        return v, abs(v) * 2.0**-48
    z = float(x + 1)  # exact: x < 2^53
    lz = math.log(z)
    a = (z - 0.5) * lz
    v = a - z + _HALF_LOG_2PI + 1.0 / (12.0 * z) - 1.0 / (360.0 * z**3)
    return v, (abs(a) + z + 1.0) * 2.0**-48 + 1.0 / (1260.0 * z**5)


@functools.lru_cache(maxsize=1 << 14)
def _log_p(P: int, D: int) -> tuple[float, float, float]:
    """(ln p, ln(1 - p), e) for p = P/D in (0, 1), each within e: p and 1 - p are rounded to
    the nearest float (an integer quotient is correctly rounded: relative error 2^-53, absolute
    error of the log at most 2^-52), then math.log (at most 4 ulp)."""
    lp, lq = math.log(P / D), math.log((D - P) / D)
    return lp, lq, 2.0**-51 + (abs(lp) + abs(lq)) * 2.0**-50


@functools.lru_cache(maxsize=1 << 16)
def _le_tail(m: int, a: int, P: int, D: int) -> tuple[float, float]:
    """Certified (lo, hi) of P(X <= a) for X ~ Bin(m, p), p = P/D in [0, 1] (integers: every
    probability this module meets is a breakpoint's, on one denominator)."""
    if a < 0 or P >= D:
        return (1.0, 1.0) if a >= m else (0.0, 0.0)
    if a >= m or P <= 0:
        return 1.0, 1.0
    if (a + 1) * D > (m + 1) * P:
        # at or beyond the mode: 1 - P(X >= a + 1) = 1 - P(Y <= m - a - 1), Y ~ Bin(m, 1 - p),
        # whose threshold is below Y's mode
        lo2, hi2 = _le_tail(m, m - a - 1, D - P, D)
        return _add_down(1.0, -hi2), _add_up(1.0, -lo2)
    return _tail_from(m, a, P, D, _terms_sum(m, a, P / D, (D - P) / D))


def _tail_from(m: int, a: int, P: int, D: int, sums: tuple[float, float]) -> tuple[float, float]:
    """The tail below a: the term at a (from its certified logarithm) times the enclosure
    ``sums`` of the sum of term ratios; exp within 4 ulp, so 2^-50 relative covers it and the
    products' roundings."""
    s_lo, s_hi = sums
    log_term, err = _log_term(m, a, P, D)
    lo = math.exp(log_term - err) * (1 - 2.0**-50) * s_lo * (1 - 2.0**-50)
    hi = math.exp(max(log_term + err, -700.0)) * (1 + 2.0**-50) * s_hi * (1 + 2.0**-50)
    return max(lo, 0.0), min(hi, 1.0)


def _log_term(m: int, a: int, P: int, D: int) -> tuple[float, float]:
    """(v, e): |ln P(X = a) - v| <= e for X ~ Bin(m, P/D), 0 <= a <= m, 0 < P < D:
    ln C(m, a) + a ln p + (m - a) ln(1 - p), each part within its own bound, the five
    additions and two products within 2^-50 of the parts' sizes."""
    (fm, em), (fa, ea), (fb, eb) = _log_fact(m), _log_fact(a), _log_fact(m - a)
    lp, lq, el = _log_p(P, D)
    parts = (fm, fa, fb, a * lp, (m - a) * lq)
    log_term = fm - fa - fb + a * lp + (m - a) * lq
    return log_term, em + ea + eb + m * el + sum(abs(v) for v in parts) * 2.0**-50


def _ge_tail(m: int, b: int, P: int, D: int) -> tuple[float, float]:
    """Certified (lo, hi) of P(X >= b) for X ~ Bin(m, P/D): P(Y <= m - b), Y ~ Bin(m, 1 - p)."""
    if b <= 0:
        return 1.0, 1.0
    if b > m:
        return 0.0, 0.0
    return _le_tail(m, m - b, D - P, D)


def _add_up(a: float, b: float) -> float:
    """a + b rounded up (the float sum is the nearest float: one step up is above), at most 1."""
    return min(math.nextafter(a + b, math.inf), 1.0)


def _add_down(a: float, b: float) -> float:
    """a + b rounded down, at least 0."""
    return max(math.nextafter(a + b, -math.inf), 0.0)


class _Miss:
    """The miss probability's bounds for one (m, t), t = T/Q an exact rational. Every p is a
    numerator P over the common denominator D = 2 m Q (so that 1/2 and every breakpoint
    j/m +- t are integers over it): m p = P/(2Q) and m t = 2 T m/(2Q)."""

    def __init__(self, m: int, t: Fraction) -> None:
        self.m = m
        self.Q2 = 2 * t.denominator  # m p = P / Q2
        self.D = m * self.Q2
        self.Tm = 2 * t.numerator * m  # m t = Tm / Q2
        self.half = m * t.denominator  # p = 1/2
        self._side: dict[tuple[int, bool], tuple[float, float]] = {}

    def node_upper(self, p1: int, p2: int) -> float:
        """An upper bound on G* over [p1, p2] (module doc)."""
        m, D = self.m, self.D
        lo_tail = _le_tail(m, (p2 - self.Tm) // self.Q2, p1, D)[1]
        hi_tail = _ge_tail(m, -((-(p1 + self.Tm)) // self.Q2), p2, D)[1]
        return _add_up(lo_tail, hi_tail)

    def one_sided(self, p: int, right: bool) -> tuple[float, float]:
        """Enclosure of the miss probability's limit at p from the right (``right``) or the
        left: the polynomial of the elementary interval on that side, at p."""
        key = (p, right)
        if key not in self._side:
            m, D, Q2 = self.m, self.D, self.Q2
            lo_x, hi_x = p - self.Tm, p + self.Tm  # m(p - t) and m(p + t), times Q2
            if right:  # P(X <= m(p - t)) + P(X > m(p + t))
                a, b = lo_x // Q2, hi_x // Q2 + 1
            else:  # P(X < m(p - t)) + P(X >= m(p + t))
                a, b = -((-lo_x) // Q2) - 1, -((-hi_x) // Q2)
            lo_a, hi_a = _le_tail(m, a, p, D)
            lo_b, hi_b = _ge_tail(m, b, p, D)
            self._side[key] = (_add_down(lo_a, lo_b), _add_up(hi_a, hi_b))
        return self._side[key]

    def leaf(self, p1: int, p2: int) -> tuple[float, float]:
        """Enclosure of the supremum over an elementary interval (no breakpoint inside): its
        polynomial is quasi-convex (module doc), so the supremum is at an end."""
        a, b = self.one_sided(p1, True), self.one_sided(p2, False)
        return max(a[0], b[0]), max(a[1], b[1])

    def split_point(self, p1: int, p2: int) -> int | None:
        """A breakpoint strictly inside (p1, p2), the nearest to the middle; None when there is
        none (the interval is elementary). Breakpoints: m(p - t) or m(p + t) an integer j,
        that is P = j Q2 + Tm or P = j Q2 - Tm."""
        mid2 = p1 + p2  # twice the middle
        best: int | None = None
        for shift in (self.Tm, -self.Tm):
            j0 = (mid2 // 2 - shift) // self.Q2
            for j in (j0, j0 + 1):
                bp = j * self.Q2 + shift
                if p1 < bp < p2 and (best is None or abs(2 * bp - mid2) < abs(2 * best - mid2)):
                    best = bp
        return best


def _search(m: int, t: Fraction, fstar: float | None, tol: float = 0.0) -> tuple[bool | None, float, float]:
    """Branch and bound over p in [0, 1/2] (best first).

    With ``fstar``: decide F(m, t) <= fstar; returns (answer, lo, hi): True when every
    interval's bound is at most fstar (certified), False as soon as a leaf's lower bound
    exceeds it (certified), None when a leaf's enclosure straddles it (undecided within the
    rounding; ``tol`` is not used). Without: returns (True, lo, hi) with lo <= F(m, t) <= hi,
    hi within a factor (1 + tol) of lo."""
    g = _Miss(m, t)
    best_lo = 0.0
    acc_hi = 0.0
    heap: list[tuple[float, int, int]] = [(-g.node_upper(0, g.half), 0, g.half)]
    while heap:
        neg_u, p1, p2 = heapq.heappop(heap)
        u = -neg_u
        limit = fstar if fstar is not None else best_lo * (1 + tol)
        if u <= limit:
            # every node left is at most u (best first): done
            return True, best_lo, max(acc_hi, u, best_lo)
        sp = g.split_point(p1, p2)
        if sp is None:
            leaf_lo, leaf_hi = g.leaf(p1, p2)
            best_lo = max(best_lo, leaf_lo)
            if fstar is not None and best_lo > fstar:
                return False, best_lo, leaf_hi
            if fstar is not None and leaf_hi > fstar:
                return None, best_lo, leaf_hi
            acc_hi = max(acc_hi, leaf_hi)
            continue
        for a, b in ((p1, sp), (sp, p2)):
            heapq.heappush(heap, (-g.node_upper(a, b), a, b))
    return True, best_lo, max(acc_hi, best_lo)


def miss_upper(m: int, t: float, tol: float = 1e-3) -> float:
    """A certified upper bound on F(m, t), within a factor (1 + tol) of the certified lower
    bound the same search finds (:func:`miss_lower`)."""
    return _search(m, Fraction(t), None, tol)[2]


def miss_lower(m: int, t: float, tol: float = 1e-3) -> float:
    """A certified lower bound on F(m, t) (a one-sided limit of the miss probability)."""
    return _search(m, Fraction(t), None, tol)[1]


# --------------------------------------------------------------------------------------------
# float steering (not certified)


def _miss_float(m: int, t: float, spread: float = 12.0) -> float:
    """Float estimate of F(m, t): G* at the breakpoints near p = 1/2 (all of them for small m;
    above 4,000 records those within ``spread``/sqrt(m) + 2t of 1/2) with scipy.special's
    binomial CDF."""
    sp = special()
    bdtr, bdtrc = sp.bdtr, sp.bdtrc

    # pragma: no mutate start (the window's width: the supremum lies well inside it, so a wider one,
    # or the whole of [0, 1/2] from another record count on, gives the same value)
    w = 0.5 if m <= 4000 else min(0.5, spread / math.sqrt(m) + 2 * t)
    # pragma: no mutate end
    # the breakpoints in [1/2 - w, 1/2]: lower ones j/m + t and upper ones j/m - t
    jl = np.arange(max(0, math.floor(m * (0.5 - w - t))), math.floor(m * (0.5 - t)) + 1)
    ju = np.arange(max(math.ceil(m * t), math.floor(m * (0.5 - w + t))), math.floor(m * (0.5 + t)) + 1)
    p = np.concatenate([jl / m + t, ju / m - t])
    p = p[(p >= 0) & (p <= 0.5)]
    if p.size == 0:
        return 0.0
    a = np.floor(m * (p - t) + 1e-9)
    b = np.ceil(m * (p + t) - 1e-9)
    with np.errstate(all="ignore"):
        lo = np.where(a >= 0, bdtr(np.maximum(a, 0), m, p), 0.0)
        hi = np.where(b <= m, bdtrc(b - 1, m, p), 0.0)
    return float(np.max(lo + hi))


# --------------------------------------------------------------------------------------------
# the route


def _check(n: Any, k: Any, beta: Any) -> tuple[int, int, float, int]:
    nn, kk, b = N_RECORDS.check(n), QUERIES.check(k), float(BETA.check(beta))
    if kk > nn:
        raise InvalidParameter("k", k, f"at most n = {nn} (each query needs its own record)")
    m = nn // kk
    return nn, kk, b, m


@functools.lru_cache(maxsize=1 << 12)
def _fstar(k: int, beta: float) -> float:
    """A lower bound on 1 - (1 - beta)^(1/k): a per-query miss probability at most this keeps
    all k answers within t with probability at least 1 - beta. In floats: log1p, a division
    and expm1, each within 4 ulp (the fast paths' assumption), and no cancellation, so 2^-44
    below (the fast paths' margin) is below the exact value."""
    return -math.expm1(math.log1p(-beta) / k) * (1 - 2.0**-44)


def _all_within(miss: float, k: int) -> float:
    """(1 - miss)^k rounded down: the coverage of k independent parts, each missing with
    probability at most ``miss``."""
    return enclosure(lambda iv: (1 - iv.mpf(miss)) ** k)[0]


def split_binomial_meets(m: int, k: int, t: float, beta: float) -> bool:
    """Certified: splitting k 0/1-valued queries at m records each is within ``t`` with
    probability at least 1 - beta (False: refused, or not decided within the rounding)."""
    return _decide(m, Fraction(t), _fstar(k, beta)) is True


def split_binomial(n: int, k: int, beta: float) -> AccuracyBound:
    """Exact binomial splitting: each of k adaptively chosen {0, 1}-valued queries answered on
    its own m = ⌊n/k⌋ fresh records; the half-width t with (1 - F(m, t))^k >= 1 - beta (module
    doc). Conditions: n >= k >= 1, beta in (0, 1), {0, 1}-valued queries, i.i.d. records.
    Returns an :class:`AccuracyBound` (t rounded up, coverage rounded down), never wider than
    :func:`~.estimation.split_hoeffding` (Hoeffding's bound is itself valid for the route, and
    is what it returns above :data:`BINOMIAL_M_MAX` records per query, where the exact tail is
    not evaluated, or if the exact search cannot certify anything narrower).

    >>> split_binomial(100, 1, 0.05).half_width <= split_hoeffding(100, 1, 0.05).half_width
    True
    """
    nn, kk, b, m = _check(n, k, beta)
    hoeff = split_hoeffding(nn, kk, b)
    conds = (f"each query on its own {m} fresh records", "{0, 1}-valued queries", "n i.i.d. records")
    if m <= BINOMIAL_M_MAX:
        fstar = _fstar(kk, b)
        t = _half_width_float(m, fstar, hoeff.half_width)
        # the miss probability drops where 2 m t crosses an integer (the two tails' counts move
        # together there), so the smallest half-width is often such a lattice point: tried
        # first when the steer lies just above one (9/24 rather than 9/24 + 2^-30)
        snap = float_up(Fraction(math.floor(2 * m * t), 2 * m))
        for cand in _candidates(t, snap, hoeff.half_width):
            ok, _, hi = _search(m, Fraction(cand), fstar)
            if ok:
                return AccuracyBound(cand, _all_within(hi, kk), "SPLIT-binomial", conds)
        why = "the exact tail certified no narrower"
    else:
        why = f"the exact tail is evaluated up to {BINOMIAL_M_MAX} records per query"
    return AccuracyBound(
        hoeff.half_width, _coverage(Fraction(b)), "SPLIT-binomial", (*conds, f"Hoeffding's bound: {why}")
    )


def _candidates(t: float, snap: float, ceiling: float) -> Iterator[float]:
    """The half-widths tried, below ``ceiling``: the lattice point ``snap`` when the steer ``t``
    lies just above it, then t widened by 2^-30, 2^-27, ... relative."""
    if 0 < snap < t and t <= snap * (1 + 2.0**-20):
        yield snap
    step = 2.0**-30
    while t < ceiling:
        yield t
        t = float_up(Fraction(t) * (1 + Fraction(step)))
        step *= 8


def split_binomial_estimate(n: int, k: int, beta: float) -> float:
    """A float estimate of :func:`split_binomial`'s half-width, for pictures (the estimation
    planner's regime map; not certified): within 1e-6 relative of the certified half-width
    (``tests/test_binomial_split.py``), in milliseconds (6 ms on average over a 50 x 50 regime
    map, tens of ms near 50,000 records per query), several times faster than the certified search.
    Hoeffding's half-width above :data:`BINOMIAL_M_MAX` records per query, as the route.

    >>> split_binomial_estimate(10_000, 10, 0.05)   # certified: 0.0445 = 89/2000, m = 1000
    0.0445
    """
    nn, kk, b, m = _check(n, k, beta)
    hoeff = split_hoeffding(nn, kk, b).half_width
    return hoeff if m > BINOMIAL_M_MAX else _lattice_half_width(m, _fstar(kk, b), hoeff)


def _lattice_half_width(m: int, fstar: float, t_hi: float) -> float:
    """A float estimate of the smallest t with F(m, t) <= ``fstar`` (at most ``t_hi``, a
    half-width known to hold, e.g. Hoeffding's), for pictures (the estimation planner's regime
    map), not certified: :func:`split_binomial` certifies. The answer is almost always a
    lattice point j/(2m) (where 2mt crosses an integer the two tails' counts move together and
    F drops just after it), so the search finds the first passing j by
    :func:`~maxinfo_bounds.search.first_true_int`, galloping from the normal approximation's
    half-width, returns the last failing lattice point when F is small enough just above it,
    and bisects in floats between the two lattice points otherwise. Breakpoints within
    4/sqrt(m) + 2t of 1/2 (:func:`_miss_float`): near p = 1/2 the variance p(1 - p) changes by
    a relative 64/m only, while the lattice repeats every 1/m.
    ``tests/test_binomial_split.py`` holds it to the certified half-width within 1e-6 relative.

    >>> _lattice_half_width(1000, 1 - 0.95 ** 0.1, 0.06)   # certified: 0.0445 = 89/2000
    0.0445
    """
    ndtri = special().ndtri

    def miss(t: float) -> float:
        return _miss_float(m, t, spread=4.0)  # pragma: no mutate (a wider window: the same value)

    two_m = 2 * m
    j_top = math.ceil(two_m * t_hi)
    if miss(j_top / two_m) > fstar:
        return t_hi
    # the gallop's start, the normal approximation at p = 1/2: first_true_int's answer is the
    # same from any start
    t_normal = float(-ndtri(fstar / 2)) / (2 * math.sqrt(m))  # pragma: no mutate (a start)
    # j = 0 (t = 0) always misses: F(m, 0) is 1
    j = first_true_int(lambda i: miss(i / two_m) <= fstar, round(two_m * t_normal), 1, j_top)
    hi, lo = j / two_m, (j - 1) / two_m
    # F jumps down just after a lattice point (the tails' inequalities are non-strict there):
    # the infimum is then the lattice point (j - 1)/(2m) itself; 1e-6 above it is far beyond
    # the float tails' 1e-9 count fudge (m t >= 1/2 here) and within the estimate's accuracy
    if j > 1 and miss(lo * (1 + 1e-6)) <= fstar:
        return lo
    while hi - lo > hi * 1e-7:
        mid = (lo + hi) / 2
        if miss(mid) <= fstar:
            hi = mid
        else:
            lo = mid
    return min(hi, t_hi)


def _half_width_float(m: int, fstar: float, t_hi: float) -> float:
    """Float bisection for the t with F(m, t) = fstar (the steer of :func:`split_binomial`)."""
    lo, hi = 0.0, t_hi
    for _ in range(60):
        mid = (lo + hi) / 2
        if _miss_float(m, mid) <= fstar:
            hi = mid
        else:
            lo = mid
        if hi - lo <= hi * 2.0**-26:  # a steer: the certified search takes it from here
            break
    return hi


def _partial_lower(m: int, a: int, P: int, D: int, terms: int = 256) -> float:
    """A certified lower bound on P(X <= a), X ~ Bin(m, P/D), from the terms at a, a - 1, ...
    down to a - terms + 1 only (no remainder; a below the mode): cheap where the tail is far
    above what it is compared with."""
    if a < 0 or not 0 < P < D or (a + 1) * D > (m + 1) * P:
        return 0.0
    return _tail_from(m, a, P, D, _terms_sum(m, a, P / D, (D - P) / D, limit=terms))[0]


def _quick_fails(m: int, t: Fraction, fstar: float) -> bool:
    """Certified F(m, t) > fstar from the one-sided limits at the breakpoints next below
    p = 1/2 (where the supremum is for all but small m): a cheap refusal; False says nothing.
    First the lower breakpoint's two tails from 256 terms each (far below the smallest m that
    meets t they exceed the target by orders of magnitude), then the whole tails at both."""
    g = _Miss(m, t)
    Q2, Tm, D = g.Q2, g.Tm, g.D
    bp = ((g.half - Tm) // Q2) * Q2 + Tm  # the lower breakpoint next below 1/2
    if 0 < bp <= g.half:
        a, b = (bp - Tm) // Q2, (bp + Tm) // Q2 + 1
        if _add_down(_partial_lower(m, a, bp, D), _partial_lower(m, m - b, D - bp, D)) > fstar:
            return True
    for q in (bp, ((g.half + Tm) // Q2) * Q2 - Tm):
        if 0 < q <= g.half and max(g.one_sided(q, True)[0], g.one_sided(q, False)[0]) > fstar:
            return True
    return False


def _decide(m: int, t: Fraction, fstar: float) -> bool | None:
    """F(m, t) <= fstar: True or False certified, None undecided within the rounding."""
    if _quick_fails(m, t, fstar):
        return False
    return _search(m, t, fstar)[0]


class Undecided(InvalidParameter):
    """An extreme of the exact binomial route that the certified search could not decide
    (an enclosure straddling the target within its rounding): refused, not guessed."""


def _meets_or_refuse(m: int, k: int, t: Fraction, beta: float, what: str) -> bool:
    """_decide for (m, k), with Hoeffding's bound deciding where it suffices; refuses (raises
    :class:`Undecided`) when neither decides."""
    # Hoeffding with a union bound: F <= 2 exp(-2 m t^2) <= beta/k <= fstar, decided exactly
    # where the floats cannot (their errors are below 2^-40 of the sides' sizes)
    lhs, rhs = math.log(2 * k) - math.log(beta), 2 * m * float(t) ** 2
    if abs(lhs - rhs) > 2.0**-40 * (abs(lhs) + abs(rhs) + 1):
        if lhs < rhs:
            return True
    elif log_le(Fraction(2 * k) / Fraction(beta), 2 * m * t * t):
        return True
    r = _decide(m, t, _fstar(k, beta))
    if r is None:
        raise Undecided(what, f"m = {m}, k = {k}", "a record count the certified search can decide")
    return r


def split_binomial_required_n(k: int, t: float, beta: float) -> int:
    """The smallest n at which exact binomial splitting answers k {0, 1}-valued queries within
    ``t`` with probability at least 1 - beta: k m for the smallest m that meets it. Every m
    below is refused by a certified lower bound on F(m, t) (F is not monotone in m: each is
    checked, about 0.25 ms each). Above :data:`BINOMIAL_M_MAX` records per query the route is
    Hoeffding's bound (as :func:`split_binomial`), whose smallest m is then the answer.

    >>> split_binomial_required_n(219, 0.1, 0.05) < 99_426     # Hoeffding's: 99,426
    True
    """
    kk: int = QUERIES.check(k)
    tt, b = Fraction(HALF.check(t)), float(BETA.check(beta))
    m_h = split_required_n(kk, float(tt), b) // kk  # Hoeffding's smallest m: meets
    for m in range(1, min(m_h, BINOMIAL_M_MAX) + 1):
        if _meets_or_refuse(m, kk, tt, b, "t"):
            return kk * m
    return kk * m_h  # above the cap: Hoeffding's (meets by Hoeffding's theorem)


def split_binomial_max_queries(n: int, t: float, beta: float) -> int:
    """The largest k for which exact binomial splitting of n records answers k {0, 1}-valued
    queries within ``t`` with probability at least 1 - beta (0: none). The queries sharing one
    record count m = ⌊n/k⌋ form a block in which meeting ``t`` is monotone (the per-query
    target falls with k); the answer is in the block of the smallest m that meets ``t`` for
    its smallest k, every smaller m refused by a certified bound. Where no record count up to
    :data:`BINOMIAL_M_MAX` meets ``t``, the route is Hoeffding's bound there (as
    :func:`split_binomial`), and Hoeffding's largest k is the answer.

    >>> split_binomial_max_queries(100_000, 0.1, 0.05) > 219    # Hoeffding's: 219
    True
    """
    nn: int = N_RECORDS.check(n)
    tt, b = Fraction(HALF.check(t)), float(BETA.check(beta))
    k_h = split_max_queries(nn, float(tt), b)
    m_top = nn // k_h if k_h > 0 else nn  # the record count at which Hoeffding meets (or n)
    for m in range(1, min(m_top, BINOMIAL_M_MAX) + 1):
        k_lo, k_hi = nn // (m + 1) + 1, nn // m  # the block of k with n // k = m
        if k_lo > k_hi:
            continue
        if not _meets_or_refuse(m, k_lo, tt, b, "t"):
            continue
        # the largest k in the block that meets t (monotone in k within the block)
        lo, hi = k_lo, k_hi
        if _meets_or_refuse(m, hi, tt, b, "t"):
            return hi
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if _meets_or_refuse(m, mid, tt, b, "t"):
                lo = mid
            else:
                hi = mid
        return lo
    return k_h


# --------------------------------------------------------------------------------------------
# catalog entry


def _entry(n: int, k: int, beta: float) -> AccuracyBound:
    """Theorem: the exact binomial tail's supremum over p, k independent parts (see
    :func:`split_binomial`)."""
    return split_binomial(n, k, beta)


def _statement() -> Any:
    import sympy  # statements only

    t, p, beta = sympy.symbols("t p beta", positive=True)
    k, m = sympy.symbols("k m", positive=True, integer=True)
    miss = sympy.Function("F")(m, t)  # sup_p P_p(|X - m p| > m t), X ~ Bin(m, p)
    return sympy.Eq((1 - miss) ** k, 1 - beta)


register(
    Theorem(
        id="SPLIT-binomial",
        paper="Binomial tail",
        number=(
            "(1 - sup_p P_p(|X/m - p| > t))^k >= 1 - beta, X ~ Bin(floor(n/k), p) "
            "(exact; the supremum over p proved to lie at the breakpoints)"
        ),
        title="Sample splitting for 0/1-valued queries: the exact binomial tail instead of Hoeffding's bound",
        latex=(
            r"\Bigl(1 - \sup_{p}\Pr_p\bigl[|X/m - p| > t\bigr]\Bigr)^k \ge 1 - \beta,"
            r"\ X \sim \mathrm{Bin}(m, p),\ m = \lfloor n/k\rfloor"
        ),
        conditions=(
            "each query answered on its own floor(n/k) records",
            "{0, 1}-valued queries",
            "n i.i.d. records",
        ),
        units="t in the queries' units ([0, 1])",
        params=(N_RECORDS, QUERIES, BETA),
        evaluator=_entry,
        statement=_statement,
        returns="AccuracyBound(half_width rounded up, coverage (1 - F)^k rounded down)",
        value_name="half_width",
    )
)
