"""The exact binomial route's certified pieces (``theorems/binomial_split.py``) held to their own
documented contracts, each against a reference computed here independently of the module: sums
of term ratios at 50 digits (mpmath), binomial tails in exact rationals, breakpoints by
enumeration, the supremum over p by the fuzz campaign's exact enumeration
(``proofs_checks/fuzz/references.py``) or its 50-digit twin in ``tests/test_binomial_split.py``.

The whole-route tests see these pieces only through a log-term allowance a thousand times wider
than the sum's own, and through a search whose shortcuts cannot change an answer; the mutation
run of 2026-12-02 (``docs/verification.md``) left the pieces' own promises unchecked: the sum's
rounding enclosure and its cut-off, the 256-term partial tail, the breakpoint nearest the middle,
the half-widths tried, the float steer, the cheap refusal's power and Hoeffding's shortcut."""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import islice

import mpmath
import numpy as np
import pytest

from maxinfo_bounds.theorems import binomial_split as bs
from proofs_checks.fuzz.references import binomial_miss_sup

_U = 2.0**-53


def _mp(x: Fraction | float) -> mpmath.mpf:
    x = Fraction(x)
    return mpmath.mpf(x.numerator) / x.denominator


def _ratio_sum(m: int, a: int, p: Fraction, terms: int | None = None) -> mpmath.mpf:
    """sum over i = a, a - 1, ... of P(i)/P(a), X ~ Bin(m, p), at 50 digits: the first ``terms``
    terms, or all of them (stopped once a geometric bound on the rest, the ratios falling with
    i, is below 1e-45 of the sum)."""
    mpmath.mp.dps = 50
    pm = _mp(p)
    total, term, i, count = mpmath.mpf(1), mpmath.mpf(1), a, 1
    while i > 0 and (terms is None or count < terms):
        r = i * (1 - pm) / ((m - i + 1) * pm)
        term *= r
        total += term
        count += 1
        i -= 1
        if terms is None and i > 0:
            nxt = i * (1 - pm) / ((m - i + 1) * pm)
            if nxt < 1 and term * nxt / (1 - nxt) < total * mpmath.mpf(10) ** -45:
                break
    return total


def _binom_le(m: int, a: int, p: Fraction) -> Fraction:
    return sum((math.comb(m, i) * p**i * (1 - p) ** (m - i) for i in range(max(a + 1, 0))), Fraction(0))


# --------------------------------------------------------------------------------------------
# the sum of term ratios: sound, and no wider than its error analysis


@pytest.mark.parametrize(
    ("m", "a", "p"),
    [
        (7, 2, Fraction(1, 2)),  # 1 + 1/3 + 1/21: every term summed
        (40, 15, Fraction(3, 8)),
        (2_000, 700, Fraction(3, 8)),
        (300, 0, Fraction(1, 4)),  # the single term P(a)/P(a)
    ],
)
def test_the_ratio_sum_summed_to_zero_encloses_the_50_digit_sum_within_its_budget(m: int, a: int, p: Fraction) -> None:
    # the docstring: the computed sum of L + 1 terms is within a factor (1 +- 10 (L + 2) 2^-53)
    # of the exact one; here every term down to i = 0 is summed, L = a. The enclosure must hold
    # the exact sum and be no wider than that budget (5% spare for the float products)
    lo, hi = bs._terms_sum(m, a, float(p), float(1 - p))
    exact = _ratio_sum(m, a, p)
    assert _mp(lo) <= exact <= _mp(hi), (lo, hi, exact)
    budget = 1.05 * 10 * (a + 2) * _U
    assert _mp(lo) >= exact * (1 - budget)
    assert _mp(hi) <= exact * (1 + budget)


@pytest.mark.parametrize(
    ("m", "a", "p"),
    [
        (6_000, 2_900, Fraction(1, 2)),  # one chunk, then the rest is below 2^-70 of the sum
        (1_000_000, 499_999, Fraction(1, 2)),  # the terms fall slowly: three chunks of 2,048
        (1_000_000, 374_000, Fraction(3, 8)),
    ],
)
def test_the_ratio_sum_cut_short_encloses_the_50_digit_sum_tightly(m: int, a: int, p: Fraction) -> None:
    # the sum stops once the terms left out (a geometric series below the last term) are
    # below 2^-70 of it; the enclosure holds the exact sum and is no wider than the rounding
    # budget of at most a + 1 terms: 1e-9 relative is far above it and far below the 6e-5 a
    # cut after the first chunk would leave at m = 10^6
    lo, hi = bs._terms_sum(m, a, float(p), float(1 - p))
    exact = _ratio_sum(m, a, p)
    assert _mp(lo) <= exact <= _mp(hi), (lo, hi, exact)
    assert hi - lo <= 1e-9 * lo


@pytest.mark.parametrize(
    ("m", "a", "p", "limit"),
    [
        (100_000, 49_999, Fraction(1, 2), 256),  # the 256th term is still 27% of the first
        (10_000_000, 4_999_999, Fraction(1, 2), 3_000),  # over two chunks, the last one short
        (9, 4, Fraction(1, 2), 256),  # fewer terms than the limit: all five
    ],
)
def test_the_partial_ratio_sum_is_the_sum_of_its_first_terms(m: int, a: int, p: Fraction, limit: int) -> None:
    # with a limit only the first `limit` terms are summed (a cheap lower bound, upper end inf):
    # below their exact sum, and within the rounding budget of limit terms under it
    lo, hi = bs._terms_sum(m, a, float(p), float(1 - p), limit=limit)
    exact = _ratio_sum(m, a, p, terms=limit)
    assert _mp(lo) <= exact
    assert _mp(lo) >= exact * (1 - 1.05 * 10 * (limit + 1) * _U)
    assert hi == math.inf or _mp(hi) >= _ratio_sum(m, a, p)
    if limit < a:  # the next term is not negligible: summing one more would overshoot
        assert _ratio_sum(m, a, p, terms=limit + 1) - exact > exact * 1e-6


def test_the_partial_tail_is_the_first_256_terms_of_the_tail() -> None:
    # _partial_lower: a certified lower bound on P(X <= a) from the 256 terms at a, a - 1, ...;
    # at m = 9 that is the whole tail, whose exact value is a rational
    for m, a, p in [(9, 4, Fraction(1, 2)), (9, 0, Fraction(1, 3)), (30, 3, Fraction(1, 5)), (12, 0, Fraction(1, 12))]:
        lo = bs._partial_lower(m, a, p.numerator, p.denominator)
        exact = _binom_le(m, a, p)
        assert Fraction(lo) <= exact
        assert Fraction(lo) >= exact * (1 - Fraction(1, 10**11)), (m, a, p)
    # at a = 4, p = 1/2, m = 9: a + 1 = (m + 1) p, the ratio at a + 1 is 1 (the mode's edge): still
    # summed. At m = 100,000, half-way, the 256 terms below the mode hold only part of the tail
    mpmath.mp.dps = 50
    m, a = 100_000, 49_999
    lo = bs._partial_lower(m, a, 1, 2)
    first_256 = _ratio_sum(m, a, Fraction(1, 2), terms=256) * mpmath.binomial(m, a) / mpmath.mpf(2) ** m
    # (the term's logarithm carries an allowance of about 1e-8 relative at this m)
    assert first_256 * (1 - mpmath.mpf(10) ** -7) <= _mp(lo) <= first_256
    assert first_256 < mpmath.mpf("0.45")  # the whole tail is 0.4987


def test_the_partial_tail_outside_its_range_is_zero() -> None:
    # a below 0, p at 0 or 1 (nothing to sum, no logarithm), a at or past the mode (ratios not
    # below 1): the trivial lower bound 0
    assert bs._partial_lower(10, -1, 1, 2) == 0.0
    assert bs._partial_lower(10, 3, 0, 7) == 0.0
    assert bs._partial_lower(10, 3, 7, 7) == 0.0
    assert bs._partial_lower(10, 5, 1, 2) == 0.0  # a + 1 = 6 > (m + 1) p = 5.5
    assert bs._partial_lower(9, 5, 1, 2) == 0.0  # a + 1 = 6 > 5
    assert bs._partial_lower(10, 3, 1, 7) == 0.0  # a + 1 = 4 > 11/7
    assert bs._partial_lower(10, 0, 1, 7) > 0.2  # (6/7)^10 = 0.214


def test_tail_helpers_at_their_ends() -> None:
    # P(X >= 0) = 1 and P(X >= m + 1) = 0 whatever p; a sum rounded up or down stays a probability
    assert bs._ge_tail(10, 0, 3, 7) == (1.0, 1.0)
    assert bs._ge_tail(10, -4, 3, 7) == (1.0, 1.0)
    assert bs._ge_tail(10, 11, 3, 7) == (0.0, 0.0)
    assert bs._add_up(0.75, 0.5) == 1.0
    assert bs._add_up(0.25, 0.5) == math.nextafter(0.75, 1.0)
    assert bs._add_down(0.25, -0.5) == 0.0
    assert bs._add_down(0.25, 0.5) == math.nextafter(0.75, 0.0)


def test_all_within_is_rounded_down() -> None:
    # (1 - 0.1)^3 with 0.1 the double: needs 159 bits, so the double below differs from the one above
    for miss, k in [(0.1, 3), (0.013, 7), (1e-9, 1000)]:
        exact = (1 - Fraction(miss)) ** k
        got = bs._all_within(miss, k)
        assert Fraction(got) <= exact
        assert Fraction(math.nextafter(got, 2.0)) > exact  # the nearest double below


# --------------------------------------------------------------------------------------------
# the branch and bound's geometry


def _breakpoints(g: bs._Miss) -> list[int]:
    """Every breakpoint numerator in [0, D]: m(p - t) or m(p + t) an integer, by enumeration."""
    out = set()
    for j in range(-2 * g.m, 3 * g.m):
        for bp in (j * g.Q2 + g.Tm, j * g.Q2 - g.Tm):
            if 0 <= bp <= g.D:
                out.add(bp)
    return sorted(out)


@pytest.mark.parametrize(
    ("m", "t"), [(10, Fraction(1, 7)), (7, Fraction(2, 9)), (25, Fraction(1, 10)), (3, Fraction(1, 3))]
)
def test_split_point_is_the_breakpoint_nearest_the_middle(m: int, t: Fraction) -> None:
    g = bs._Miss(m, t)
    bps = _breakpoints(g)
    ends = sorted({0, g.half, *[b for b in bps if b <= g.half]})
    pairs = [(p1, p2) for i, p1 in enumerate(ends) for p2 in ends[i + 1 :]]
    pairs += [(p1 + 1, p2) for p1, p2 in pairs if p2 - p1 > 2]  # ends that are not breakpoints
    for p1, p2 in pairs:
        inside = [b for b in bps if p1 < b < p2]
        sp = g.split_point(p1, p2)
        if not inside:
            assert sp is None, (p1, p2, sp)
            continue
        assert sp in inside, (p1, p2, sp)
        assert abs(2 * sp - (p1 + p2)) == min(abs(2 * b - (p1 + p2)) for b in inside), (p1, p2, sp)


def test_node_upper_is_the_documented_bound_in_rationals() -> None:
    # on [p1, p2]: P_{p1}[X <= m(p2 - t)] + P_{p2}[X >= m(p1 + t)] (module doc), capped at 1
    m, t = 10, Fraction(1, 7)
    g = bs._Miss(m, t)
    bps = [b for b in _breakpoints(g) if b <= g.half]
    for p1, p2 in [(0, g.half), *zip(bps, bps[1:]), (bps[1], bps[5]), (bps[2], g.half)]:
        q1, q2 = Fraction(p1, g.D), Fraction(p2, g.D)
        lo_tail = _binom_le(m, math.floor(m * (q2 - t)), q1)
        hi_tail = 1 - _binom_le(m, math.ceil(m * (q1 + t)) - 1, q2)
        exact = min(lo_tail + hi_tail, Fraction(1))
        got = Fraction(g.node_upper(p1, p2))
        assert exact <= got <= exact + exact * Fraction(1, 10**9) + Fraction(1, 10**15), (p1, p2)


def test_the_search_that_exhausts_its_intervals_says_yes() -> None:
    # m = 3, t = 1/3: F = 1/3 exactly (enumeration); against 1/2 every interval's leaf is
    # decided below the target, the last one emptying the queue: the answer is True
    assert binomial_miss_sup(3, Fraction(1, 3)) == Fraction(1, 3)
    assert bs._search(3, Fraction(1, 3), 0.5)[0] is True
    assert bs._decide(3, Fraction(1, 3), 0.5) is True
    assert bs._decide(3, Fraction(1, 3), 0.3) is False


# --------------------------------------------------------------------------------------------
# the half-widths tried


def _up(x: Fraction) -> float:
    f = float(x)
    return f if Fraction(f) >= x else math.nextafter(f, math.inf)


def test_candidates_are_the_documented_sequence() -> None:
    # the lattice point first when the steer lies within 2^-20 (relative) above it, then the
    # steer widened by 2^-30, 2^-27, 2^-24, ... relative (each rounded up), all below the ceiling
    def expected(t: float, ceiling: float) -> list[float]:
        out, step = [], Fraction(1, 2**30)
        while t < ceiling:
            out.append(t)
            t = _up(Fraction(t) * (1 + step))
            step *= 8
        return out

    snap = 0.375
    edge = snap * (1 + 2.0**-20)  # exact in doubles
    for t, with_snap in [(edge, True), (math.nextafter(edge, 1.0), False), (snap, False), (0.3751, False)]:
        got = list(bs._candidates(t, snap, 0.5))
        assert got == ([snap] if with_snap else []) + expected(t, 0.5), t
    assert list(bs._candidates(1e-9, 0.0, 0.5)) == expected(1e-9, 0.5)  # no lattice point at 0
    seq = expected(0.1, 1.0)
    ceiling = seq[3]  # the ceiling itself is not tried
    assert list(bs._candidates(0.1, 0.05, ceiling)) == seq[:3]
    assert list(islice(bs._candidates(0.1, 0.05, 1.0), 4)) == seq[:4]
    assert len(seq) > 8


# --------------------------------------------------------------------------------------------
# the float steer and the cheap refusal


@pytest.mark.parametrize(
    ("m", "t"),
    [(1, 0.3), (2, 0.2), (3, 0.17), (5, 0.123), (8, 0.31), (13, 0.0771), (30, 0.1234), (30, 0.0419)],
)
def test_the_float_steer_is_the_supremum_at_small_m(m: int, t: float) -> None:
    # t off every lattice point (2mt not an integer): the supremum is the largest G* at the
    # breakpoints, which the steer evaluates with scipy's binomial CDF (1e-9 relative)
    exact = binomial_miss_sup(m, Fraction(t))
    assert abs(Fraction(bs._miss_float(m, t)) - exact) <= exact * Fraction(1, 10**9), (m, t)


@pytest.mark.parametrize(("m", "t"), [(100, 0.1234), (150, 0.0913), (64, 0.1717)])
def test_the_float_steer_is_the_supremum_at_50_digits(m: int, t: float) -> None:
    from .test_binomial_split import _miss_sup_50_digits

    exact = _miss_sup_50_digits(m, t)
    assert abs(_mp(bs._miss_float(m, t)) - exact) <= exact * 1e-9, (m, t)


def test_the_float_steer_above_4000_records_looks_near_one_half() -> None:
    # above 4,000 records only the breakpoints within 12/sqrt(m) + 2t of 1/2 are tried: the
    # supremum is there (checked against scipy over every breakpoint in [0, 1/2])
    from scipy.stats import binom

    for m, t in [(4_001, 0.0213), (20_000, 0.0101)]:
        j = np.arange(m + 1)
        p = np.concatenate([j / m + t, j / m - t])
        p = p[(p >= 0) & (p <= 0.5)]
        a, b = np.floor(m * (p - t) + 1e-9), np.ceil(m * (p + t) - 1e-9)
        best = float(np.max(binom.cdf(a, m, p) + binom.sf(b - 1, m, p)))  # cdf(-1) = 0, sf(m) = 0
        assert abs(bs._miss_float(m, t) - best) <= best * 1e-9, m


@pytest.mark.parametrize(
    ("m", "t"),
    [
        (100, 0.1234),  # the supremum is the upper breakpoint's limit from the left
        (100, 0.0777),  # the lower breakpoint's limit from the right (the 256-term check)
        (150, 0.061),
        (150, 0.0913),
    ],
)
def test_the_quick_refusal_fires_just_below_the_supremum(m: int, t: float) -> None:
    # its docstring: the supremum is at the breakpoints next below 1/2 for all but small m,
    # so a target a relative 1e-9 below the 50-digit supremum is refused by the cheap check
    from .test_binomial_split import _miss_sup_50_digits

    f = float(_miss_sup_50_digits(m, t))
    assert bs._quick_fails(m, Fraction(t), f * (1 - 1e-9)) is True
    assert bs._quick_fails(m, Fraction(t), f * (1 + 1e-9)) is False


def test_the_quick_refusal_never_refuses_at_or_above_the_supremum() -> None:
    # every record count to 24 at five half-widths (lattice ones among them): a target just
    # above the exact supremum is never refused
    for m in range(1, 25):
        for t in (Fraction(1, 7), Fraction(0.23), Fraction(1, 3), Fraction(1, 4), Fraction(0.45)):
            f = binomial_miss_sup(m, t)
            up = _up(f)
            assert bs._quick_fails(m, t, up) is False, (m, t)


# --------------------------------------------------------------------------------------------
# Hoeffding's shortcut


class _Spy:
    def __init__(self, answer: bool) -> None:
        self.answer, self.calls = answer, 0

    def __call__(self, m: int, t: Fraction, fstar: float) -> bool:
        self.calls += 1
        return self.answer


def _hoeffding_edge(m: int, k: int, beta: float) -> tuple[float, float]:
    """The doubles t just below and at-or-above sqrt(ln(2k/beta) / (2m)) (Hoeffding's edge,
    at 50 digits with t exact)."""
    mpmath.mp.dps = 50
    need = mpmath.log(2 * k / _mp(beta))
    t = float(mpmath.sqrt(need / (2 * m)))
    while 2 * m * _mp(t) ** 2 < need:
        t = math.nextafter(t, 1.0)
    while 2 * m * _mp(math.nextafter(t, 0.0)) ** 2 >= need:
        t = math.nextafter(t, 0.0)
    return math.nextafter(t, 0.0), t


@pytest.mark.parametrize(("m", "k", "beta"), [(500, 7, 0.05), (2_000, 1, 0.1), (37, 3, 0.2)])
def test_hoeffdings_bound_decides_where_it_suffices(
    monkeypatch: pytest.MonkeyPatch, m: int, k: int, beta: float
) -> None:
    # 2 m t^2 >= ln(2k/beta) meets t with no search (the exact route's answer is then yes too);
    # just below, the certified search decides (here a spy that answers no)
    below, at = _hoeffding_edge(m, k, beta)
    for t, hoeffding in [(at, True), (below, False), (at * 1.001, True), (below * 0.999, False)]:
        spy = _Spy(False)
        monkeypatch.setattr(bs, "_decide", spy)
        got = bs._meets_or_refuse(m, k, Fraction(t), beta, "t")
        assert got is hoeffding, (t, hoeffding)
        assert spy.calls == (0 if hoeffding else 1), t
    # and where Hoeffding holds with room but not at 3k: still no search
    mpmath.mp.dps = 30
    t = float(mpmath.sqrt(mpmath.log(2.5 * k / _mp(beta)) / (2 * m)))
    spy = _Spy(False)
    monkeypatch.setattr(bs, "_decide", spy)
    assert bs._meets_or_refuse(m, k, Fraction(t), beta, "t") is True
    assert spy.calls == 0


@pytest.mark.parametrize(
    ("n", "k", "beta"),
    [
        (10_000, 10, 0.05),
        (200_000, 411, 0.05),
        (5_000, 3, 0.1),
        (20_000, 7, 0.05),
        (1_000, 1, 0.05),
        (40_000, 40, 0.01),
    ],
)
def test_the_float_estimate_lands_on_the_lattice_point_itself(n: int, k: int, beta: float) -> None:
    # where the certified half-width is a lattice point j/(2m) (F drops just after it), the
    # regime map's estimate is that point's nearest double, not a bisection's point beside it
    m = n // k
    certified = bs.split_binomial(n, k, beta).half_width
    j = round(certified * 2 * m)
    assert abs(Fraction(certified) - Fraction(j, 2 * m)) <= Fraction(certified) * Fraction(1, 10**15)
    assert bs.split_binomial_estimate(n, k, beta) == j / (2 * m)


@pytest.mark.parametrize(
    ("m", "k", "beta", "t"),
    [
        (37, 3, 0.3, 0.20120355007191207),  # the doubles tie, exactly 2 m t^2 >= ln(2k/beta)
        (500, 2, 0.1, 0.060736146190830516),  # the doubles say yes, exactly it is no
    ],
)
def test_at_a_tie_of_the_doubles_hoeffding_is_decided_exactly(
    monkeypatch: pytest.MonkeyPatch, m: int, k: int, beta: float, t: float
) -> None:
    mpmath.mp.dps = 50
    exact = 2 * m * _mp(t) ** 2 >= mpmath.log(2 * k / _mp(beta))
    floats = math.log(2 * k) - math.log(beta) < 2 * m * t**2
    assert floats is not bool(exact)  # the case: double arithmetic gets it wrong
    spy = _Spy(False)
    monkeypatch.setattr(bs, "_decide", spy)
    assert bs._meets_or_refuse(m, k, Fraction(t), beta, "t") is bool(exact)
    assert spy.calls == (0 if exact else 1)


def test_the_bounds_on_the_supremum_default_to_a_thousandth() -> None:
    # miss_upper and miss_lower with their default tolerance: certified, and within a factor
    # 1.001 of each other, so each within 1e-3 of the supremum (here 50 digits)
    from .test_binomial_split import _miss_sup_50_digits

    for m, t in [(100, 0.1234), (64, 0.1717)]:
        exact = _miss_sup_50_digits(m, t)
        lo, hi = bs.miss_lower(m, t), bs.miss_upper(m, t)
        assert _mp(lo) <= exact <= _mp(hi)
        assert hi <= lo * (1 + 1e-3)


def test_the_float_estimate_at_the_first_lattice_point_by_hand() -> None:
    # m = 2 records, one query, beta = 0.7: F(2, 1/4) = 5/8 <= 0.7 (at 1/4 itself the two
    # counts' boundaries hold), F = 1 just below 1/4 (enumeration): the smallest half-width is the
    # first lattice point past 0, j/(2m) = 1/4 (j = 1), returned itself
    assert binomial_miss_sup(2, Fraction(1, 4)) == Fraction(5, 8)
    assert binomial_miss_sup(2, Fraction(1, 4) * (1 - Fraction(1, 10**6))) == 1
    assert bs.split_binomial_estimate(2, 1, 0.7) == 0.25
    assert bs.split_binomial(2, 1, 0.7).half_width == 0.25


# --------------------------------------------------------------------------------------------
# the shortcuts do their work: the cheap paths are taken where they suffice (counted calls, not
# timings; a regression that disabled one would leave every answer unchanged and every sweep
# slower)


def test_the_steer_stops_at_its_precision(monkeypatch: pytest.MonkeyPatch) -> None:
    # the float bisection from [0, Hoeffding's half-width] stops once the bracket is within
    # 2^-26 of its upper end, not after the 60 halvings it may take at most
    calls = []
    inner = bs._miss_float

    def counted(m: int, t: float, spread: float = 12.0) -> float:
        calls.append(t)
        return inner(m, t, spread)

    monkeypatch.setattr(bs, "_miss_float", counted)
    fstar = bs._fstar(10, 0.05)
    hi = bs._half_width_float(1000, fstar, 0.06)
    # the bracket after k halvings is 0.06 / 2^k exactly (dyadic steps of a double): the loop
    # stops at the first k where that is within 2^-26 of its upper end, 27 here
    k = next(k for k in range(61) if 0.06 / 2**k <= hi * 2.0**-26)
    assert len(calls) == k == 27
    assert inner(1000, hi) <= fstar < inner(1000, hi * (1 - 2.0**-20))


def test_a_target_far_above_the_supremum_is_decided_by_node_bounds_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    # F(100, 0.0777) = 0.1336 (50 digits, above): against 1/2 the intervals' bounds fall below
    # the target before any elementary interval is evaluated
    leaves = []
    inner = bs._Miss.leaf

    def counted(self: bs._Miss, p1: int, p2: int) -> tuple[float, float]:
        leaves.append((p1, p2))
        return inner(self, p1, p2)

    monkeypatch.setattr(bs._Miss, "leaf", counted)
    assert bs._search(100, Fraction(0.0777), 0.5)[0] is True
    assert leaves == []
    assert bs._search(100, Fraction(0.0777), 0.14)[0] is True  # near it, leaves are needed
    assert leaves


@pytest.mark.parametrize(
    ("m", "t", "target"),
    [
        (100, Fraction(0.0777), 0.1336),  # the supremum 0.13362 is the partial tails' own point
        (100, Fraction(1, 10), 0.046),  # 1/2 is the breakpoint: P(X <= 40) + P(X >= 61) = 0.04604407 there
        (2_400, Fraction(0.02), 0.025),  # far beyond 256 terms a side, half the supremum
    ],
)
def test_the_cheap_refusal_needs_no_whole_tail(
    monkeypatch: pytest.MonkeyPatch, m: int, t: Fraction, target: float
) -> None:
    # where the 256-term partial tails at the breakpoint next below 1/2 already exceed the
    # target, the refusal is made from them alone: no whole tail is summed
    whole = []
    inner = bs._le_tail

    def counted(m_: int, a: int, P: int, D: int) -> tuple[float, float]:
        whole.append((m_, a))
        return inner(m_, a, P, D)

    monkeypatch.setattr(bs, "_le_tail", counted)
    assert bs._quick_fails(m, t, target) is True
    assert whole == []


def test_beyond_256_terms_a_side_the_whole_tails_refuse() -> None:
    # m = 160,000, t = 1/200: 1/2 is itself a breakpoint (m(1/2 - t) = 79,200) and the tails'
    # standard deviation is 200 records, so the 256 terms a side hold 99.8% of the miss
    # probability there (50 digits, below); a target between the two is refused by the whole
    # tails at 1/2, the cheap ones falling short
    m, t = 160_000, Fraction(1, 200)
    mpmath.mp.dps = 50

    def tail(a: int, terms: int | None = None) -> mpmath.mpf:  # P(X <= a) at p = 1/2
        return mpmath.binomial(m, a) / mpmath.mpf(2) ** m * _ratio_sum(m, a, Fraction(1, 2), terms)

    whole = tail(79_200) + tail(79_199)  # P(X <= 79,200) + P(X >= 80,801)
    cheap = tail(79_200, 256) + tail(79_199, 256)
    assert 0.997 < cheap / whole < 0.999
    target = float(mpmath.sqrt(whole * cheap))
    assert bs._add_down(bs._partial_lower(m, 79_200, 1, 2), bs._partial_lower(m, 79_199, 1, 2)) < target
    assert bs._quick_fails(m, t, target) is True
    assert bs._quick_fails(m, t, float(whole) * (1 + 1e-6)) is False
