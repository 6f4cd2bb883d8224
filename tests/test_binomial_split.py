"""Exact binomial splitting (``theorems/binomial_split.py``) against ground truth computed
independently of it: binomial tails as 50-digit mpmath sums, and the supremum over p by
enumerating every elementary interval of p in exact rationals (the fuzz campaign's reference,
``proofs_checks/fuzz/references.py``) or at 50 digits (here, for m in the hundreds)."""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction
from pathlib import Path

import mpmath
import pytest

from maxinfo_bounds.numeric import InvalidParameter
from maxinfo_bounds.theorems.binomial_split import (
    BINOMIAL_M_MAX,
    _fstar,
    _le_tail,
    miss_lower,
    miss_upper,
    split_binomial,
    split_binomial_estimate,
    split_binomial_max_queries,
    split_binomial_required_n,
)
from maxinfo_bounds.theorems.estimation import split_hoeffding, split_max_queries, split_required_n
from proofs_checks.fuzz.references import binomial_miss_sup

from .cli_helpers import run_cli


def _miss_at(m: int, p: Fraction, lo_set: int, hi_set: int) -> Fraction:
    """P(X <= lo_set) + P(X >= hi_set), exactly."""
    return sum(
        (math.comb(m, i) * p**i * (1 - p) ** (m - i) for i in range(m + 1) if i <= lo_set or i >= hi_set),
        Fraction(0),
    )


#: sup_p P_p(|X - m p| > m t), exactly, by enumerating every elementary interval of p in rationals
#: (the fuzz campaign's reference, independent of the module's branch and bound)
exact_sup = binomial_miss_sup


def test_tails_enclose_exact_sums_at_50_digits() -> None:
    rng = random.Random(20261126)
    mpmath.mp.dps = 50
    for case in range(150):
        m = 6_000 if case < 3 else rng.choice([1, 2, 3, 7, 40, 333, 2_000])  # 6,000: three chunks
        a = rng.randrange(-1, m + 1)
        p = Fraction(rng.randrange(1, 10**6), 10**6)
        lo, hi = _le_tail(m, a, p.numerator, p.denominator)
        pm = mpmath.mpf(p.numerator) / p.denominator
        terms = (mpmath.binomial(m, i) * pm**i * (1 - pm) ** (m - i) for i in range(a + 1, m + 1))
        exact = mpmath.fsum(mpmath.binomial(m, i) * pm**i * (1 - pm) ** (m - i) for i in range(a + 1))
        if a >= m * p:  # the complement, without the reference's own cancellation
            exact = 1 - mpmath.fsum(terms)
        assert lo <= exact <= hi, (m, a, p, lo, hi, exact)
        if exact > 1e-250:  # tight: the error terms grow with the log-term's size
            assert hi - lo <= 1e-7 * exact, (m, a, p)


@pytest.mark.parametrize(
    ("m", "t"),
    [
        (1, Fraction(3, 10)),
        (2, Fraction(1, 4)),  # 2mt = 1: breakpoints of both kinds coincide
        (4, Fraction(1, 8)),  # likewise
        (3, Fraction(1, 6)),  # as a float, just below 1/6: at p = 1/2 every count misses
        (5, Fraction(1, 10)),
        (10, Fraction(3, 20)),
        (12, Fraction(1, 8)),
        (20, Fraction(1, 5)),
        (25, 0.1),
        (37, 0.1),
        (40, 0.0625),
    ],
)
def test_supremum_encloses_the_exact_supremum(m: int, t: Fraction | float) -> None:
    tt = Fraction(float(t))  # the search takes a float t: the ground truth at that same t
    exact = exact_sup(m, tt)
    lo, hi = miss_lower(m, float(tt), tol=1e-9), miss_upper(m, float(tt), tol=1e-9)
    assert lo <= exact <= hi
    assert hi - lo <= 1e-9 * exact + 1e-15


def test_a_float_just_below_a_lattice_half_width_misses_surely() -> None:
    # t = float(1/6) < 1/6: at p = 1/2, |X - 3/2| >= 1/2 > 3t for every count X
    assert exact_sup(3, Fraction(1 / 6)) == 1
    assert miss_lower(3, 1 / 6) > 0.999_999
    assert exact_sup(3, Fraction(1, 6)) == Fraction(47, 72)  # at 1/6 itself: p = 1/6 is the worst


def test_supremum_is_not_at_one_half_for_small_m() -> None:
    # m = 3, t = 0.2: the worst p is not 1/2 (ground truth by enumeration); the search finds it
    exact = exact_sup(3, Fraction(1, 5))
    at_half = _miss_at(3, Fraction(1, 2), math.ceil(3 * Fraction(3, 10)) - 1, math.floor(3 * Fraction(7, 10)) + 1)
    assert exact > at_half
    assert miss_lower(3, 0.2, tol=1e-9) <= exact <= miss_upper(3, 0.2, tol=1e-9)


def _mp(x: Fraction) -> mpmath.mpf:
    mpmath.mp.dps = 50
    return mpmath.mpf(x.numerator) / x.denominator


def _fstar_exact(k: int, beta: float) -> mpmath.mpf:
    mpmath.mp.dps = 50
    return 1 - (1 - mpmath.mpf(beta)) ** (mpmath.mpf(1) / k)


@pytest.mark.parametrize(("n", "k", "beta"), [(30, 1, 0.05), (60, 2, 0.1), (80, 4, 0.05), (120, 3, 0.2)])
def test_half_width_holds_exactly_and_is_nearly_the_smallest(n: int, k: int, beta: float) -> None:
    b = split_binomial(n, k, beta)
    m = n // k
    fs = _fstar_exact(k, beta)
    t = Fraction(b.half_width)
    assert _mp(exact_sup(m, t)) <= fs  # valid: (1 - F)^k >= 1 - beta
    assert (1 - _mp(exact_sup(m, t))) ** k >= b.coverage >= 1 - beta - 1e-15
    # and nearly the smallest: 2^-20 narrower fails (or Hoeffding's was returned, never narrower)
    assert b.half_width <= split_hoeffding(n, k, beta).half_width
    assert _mp(exact_sup(m, t * (1 - Fraction(1, 2**20)))) > fs


def test_binomial_is_narrower_than_hoeffding_where_it_matters() -> None:
    # n = 200,000 records, 411 queries (Hoeffding's largest k at 0.1), coverage 0.95: m = 486;
    # at p = 1/2 the two-sided tail at z = 3.84 standard deviations is the per-query target, so the
    # half-width is near 3.84 * sqrt(486)/2 / 486 = 0.0871, against Hoeffding's 0.0999
    b = split_binomial(200_000, 411, 0.05)
    assert 0.0865 < b.half_width < 0.0880 < split_hoeffding(200_000, 411, 0.05).half_width
    assert b.coverage >= 0.95


def _meets_exact(m: int, k: int, t: Fraction, beta: float) -> bool:
    return m >= 1 and _mp(exact_sup(m, t)) <= _fstar_exact(k, beta)


def test_max_queries_against_exhaustive_exact_search() -> None:
    n, t, beta = 160, Fraction(1, 4), 0.1
    expected = max((k for k in range(1, n + 1) if _meets_exact(n // k, k, t, beta)), default=0)
    got = split_binomial_max_queries(n, float(t), beta)
    assert got == expected
    assert got >= split_max_queries(n, float(t), beta)


@pytest.mark.parametrize(
    ("n", "t", "beta", "expected", "block"),
    [
        # F(10, 2/5) = 0.01229 (the reference), 1 - 0.5^(1/56) = 0.01230 >= it > 1 - 0.5^(1/57):
        # k = 56 inside the block 55..60 of k with 600 // k = 10 (m = 9 fails at its k = 61)
        (600, Fraction(2, 5), 0.5, 56, (55, 60)),
        # one record per query: F(1, t) = 1 - t (X = 0 misses when p > t, X = 1 when p < 1 - t,
        # each with probability below 1 - t), here 1 - float(0.99) = 0.0100000000000000089;
        # (1 - F)^k >= 0.1 for k <= ln 0.1 / ln(1 - F) = 229.105: k = 229 inside 151..300
        (300, Fraction(0.99), 0.9, 229, (151, 300)),
        # the same with every k of the block meeting (44 <= 229): the block's top, k = n,
        # although Hoeffding's records per query (m = 2, k = 22) would allow only 22
        (44, Fraction(0.99), 0.9, 44, (23, 44)),
    ],
)
def test_max_queries_inside_a_block_against_exhaustive_exact_search(
    n: int, t: Fraction, beta: float, expected: int, block: tuple[int, int]
) -> None:
    # the answer strictly inside the block of k sharing one record count (so the bisection
    # within the block decides it; the guide's examples all sit in blocks of one k), and the
    # exhaustive search over every k from the top (only small m: the reference is exact)
    m = n // expected
    assert (n // (m + 1) + 1, n // m) == block
    assert expected == next(k for k in range(n, 0, -1) if _meets_exact(n // k, k, t, beta))
    assert split_binomial_max_queries(n, float(t), beta) == expected
    assert split_max_queries(n, float(t), beta) < expected


@pytest.mark.parametrize("undecided_k", [55, 60, 57])
def test_an_undecided_record_count_is_refused_naming_t(monkeypatch: pytest.MonkeyPatch, undecided_k: int) -> None:
    # where the certified search cannot decide (an enclosure straddling the target), the
    # largest k is refused, not guessed; simulated at n = 600, t = 2/5, beta = 0.5 (the block
    # 55..60 at m = 10, searched at its bottom 55, its top 60, then its middle 57)
    from maxinfo_bounds.theorems import binomial_split as B

    real = B._decide

    def decide(m: int, t: Fraction, fstar: float) -> bool | None:
        return None if m == 10 and fstar == B._fstar(undecided_k, 0.5) else real(m, t, fstar)

    monkeypatch.setattr(B, "_decide", decide)
    with pytest.raises(B.Undecided) as err:
        split_binomial_max_queries(600, 0.4, 0.5)
    assert (err.value.name, err.value.value) == ("t", f"m = 10, k = {undecided_k}")
    assert str(err.value) == (
        f"t='m = 10, k = {undecided_k}' is invalid: must be a record count the certified search can decide"
    )


def test_required_n_against_exhaustive_exact_search() -> None:
    k, t, beta = 3, Fraction(1, 5), 0.1
    m = next(m for m in range(1, 200) if _meets_exact(m, k, t, beta))
    assert split_binomial_required_n(k, float(t), beta) == k * m
    assert k * m <= split_required_n(k, float(t), beta)


def test_fstar_is_a_lower_bound() -> None:
    for k, beta in [(1, 0.05), (7, 0.05), (1000, 0.01), (10**9, 0.5)]:
        assert _fstar(k, beta) <= _fstar_exact(k, beta)
        assert _fstar(k, beta) >= _fstar_exact(k, beta) * (1 - 1e-13)


# --------------------------------------------------------------------------------------------
# in the estimation planner


def _miss_sup_50_digits(m: int, t: float) -> mpmath.mpf:
    """The supremum at 50 digits, by the same enumeration as :func:`exact_sup` but in mpmath
    (the rationals are too slow at m in the hundreds)."""
    mpmath.mp.dps = 50
    tt = Fraction(t)
    pts = sorted(
        {Fraction(0), Fraction(1)}
        | {bp for j in range(-m, 2 * m + 1) for bp in (Fraction(j, m) + tt, Fraction(j, m) - tt) if 0 <= bp <= 1}
    )
    logc = [mpmath.log(mpmath.binomial(m, i)) for i in range(m + 1)]

    def miss(p: Fraction, lo_set: int, hi_set: int) -> mpmath.mpf:
        if p == 0 or p == 1:
            x = 0 if p == 0 else m
            return mpmath.mpf(1 if (x <= lo_set or x >= hi_set) else 0)
        pm = _mp(p)
        lp, lq = mpmath.log(pm), mpmath.log(1 - pm)
        idx = [i for i in range(m + 1) if i <= lo_set or i >= hi_set]
        return mpmath.fsum(mpmath.exp(logc[i] + i * lp + (m - i) * lq) for i in idx)

    best = mpmath.mpf(0)
    for a, b in zip(pts, pts[1:]):
        if a > Fraction(1, 2):  # symmetric in p <-> 1 - p
            break
        mid = (a + b) / 2
        lo_set, hi_set = math.ceil(m * (mid - tt)) - 1, math.floor(m * (mid + tt)) + 1
        best = max(best, miss(a, lo_set, hi_set), miss(b, lo_set, hi_set))
    return best


@pytest.mark.heavy
def test_planner_row_and_its_largest_k_at_50_digits() -> None:
    from maxinfo_bounds.planning import estimate as E

    p = E.plan_estimate(200_000, 411, 0.95, 0.1, binary=True)
    row = p.route(E.SPLIT_BINARY)
    # the planner's failure probability is 1 - coverage rounded to a float (E._failure)
    assert row.valid and row.half_width == split_binomial(200_000, 411, E._failure(0.95)).half_width
    assert row.settings == {"records_per_query": 486}
    # the largest k meeting 0.1: 526 (m = 380) meets, 527 (m = 379) does not, at 50 digits
    assert row.max_queries_at_half_width == 526
    assert _miss_sup_50_digits(380, 0.1) <= _fstar_exact(526, 0.05)
    assert _miss_sup_50_digits(379, 0.1) > _fstar_exact(527, 0.05)
    # the smallest n for 411 queries: 411 * 370 (m = 370 meets, m = 369 does not)
    assert row.required_n_records == 411 * 370
    assert _miss_sup_50_digits(370, 0.1) <= _fstar_exact(411, 0.05) < _miss_sup_50_digits(369, 0.1)
    # narrower than Hoeffding's splitting (0.0999), still wider than Gaussian reuse here
    assert row.half_width < (p.route(E.SPLIT).half_width or 0) and p.recommended == E.REUSE_JLNRSS


def test_binary_route_needs_the_statement(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from maxinfo_bounds.planning import PlanError
    from maxinfo_bounds.planning import estimate as E

    p = E.plan_estimate(1_000, 20, 0.9)
    row = p.route(E.SPLIT_BINARY)
    assert not row.valid and row.half_width is None and "binary" in row.note
    with pytest.raises(InvalidParameter, match="binary"):
        E.plan_estimate(1_000, 20, 0.9, binary="yes")  # type: ignore[arg-type]
    # the study file's key, and the command line's flag
    f = tmp_path / "s.toml"
    f.write_text("[data]\nn = 1000\niid = true\n[estimate]\nqueries = 20\ncoverage = 0.9\nbinary = true\n")
    got = E.plan_estimate_file(str(f)).route(E.SPLIT_BINARY).half_width
    assert got == split_binomial(1_000, 20, E._failure(0.9)).half_width
    f.write_text("[data]\nn = 1000\niid = true\n[estimate]\nqueries = 20\ncoverage = 0.9\nbinary = 1\n")
    with pytest.raises(PlanError, match="estimate.binary"):
        E.plan_estimate_file(str(f))
    code, out, _ = run_cli(
        ["estimate", "--n", "1000", "--queries", "20", "--coverage", "0.9", "--binary", "--json"], capsys
    )
    d = json.loads(out)
    row = next(r for r in d["routes"] if r["route"] == E.SPLIT_BINARY)
    assert code == 0 and row["valid"] and row["records_per_query"] == 50
    code, _, err = run_cli(["estimate", "--study", str(f), "--binary"], capsys)
    assert code == 2 and "given alone" in err


def test_above_the_cap_the_route_is_hoeffding() -> None:
    from maxinfo_bounds.theorems.binomial_split import BINOMIAL_M_MAX

    n = 3 * (BINOMIAL_M_MAX + 1)
    b = split_binomial(n, 3, 0.05)
    assert b.half_width == split_hoeffding(n, 3, 0.05).half_width
    assert any("Hoeffding's bound" in c for c in b.conditions)


def test_the_largest_k_printed_in_the_guide() -> None:
    # docs/estimate.md section 4 prints these; 526 is held at 50 digits above, and each is the
    # block search's answer (a record count that meets 0.1 for its k, the next one refused)
    from maxinfo_bounds.planning import estimate as E

    f = E._failure(0.95)
    got = [split_binomial_max_queries(n, 0.1, f) for n in (100_000, 200_000, 1_000_000, 2_000_000)]
    assert got == [285, 526, 2222, 4166]
    assert [split_max_queries(n, 0.1, f) for n in (100_000, 200_000, 1_000_000, 2_000_000)] == [219, 411, 1788, 3384]


@pytest.mark.parametrize(
    ("n", "k", "beta"),
    [(10_000, 10, 0.05), (200_000, 411, 0.05), (3 * 17, 17, 0.05), (7, 7, 0.2), (12_000, 1, 0.5), (98_000, 2, 0.01)],
)
def test_the_float_estimate_is_the_certified_half_width(n: int, k: int, beta: float) -> None:
    """``split_binomial_estimate`` (the regime map's float search) lands within 1e-6 relative of
    the certified half-width (a lattice point j/(2m) where F drops, or between two)."""
    assert split_binomial_estimate(n, k, beta) == pytest.approx(split_binomial(n, k, beta).half_width, rel=1e-6)


def test_the_float_estimate_by_hand_and_above_the_cap() -> None:
    # m = 30 records per query, k = 10, coverage 0.95: the estimate is (just below) the smallest
    # t with F(30, t) <= 1 - 0.95^(1/10), F by the exact rational enumeration: 1e-6 relative
    # narrower misses, 1e-9 wider holds
    t = Fraction(split_binomial_estimate(300, 10, 0.05))
    fs = _fstar_exact(10, 0.05)
    assert _mp(exact_sup(30, t * (1 - Fraction(1, 10**6)))) > fs >= _mp(exact_sup(30, t * (1 + Fraction(1, 10**9))))
    # above BINOMIAL_M_MAX records per query: Hoeffding's half-width, as the certified route
    n = 10 * (BINOMIAL_M_MAX + 1)
    assert split_binomial_estimate(n, 10, 0.05) == split_hoeffding(n, 10, 0.05).half_width
    with pytest.raises(InvalidParameter, match="^k=11 is invalid"):
        split_binomial_estimate(10, 11, 0.05)


# --------------------------------------------------------------------------------------------
# written against the first mutation run of the module (issue 44): the catalog entry and its
# statement, the exported decision, a steer that misses, and the quick refusal's soundness


def test_catalog_entry_returns_the_lattice_half_width_by_hand() -> None:
    from maxinfo_bounds.catalog import get

    # n = 600 records, k = 56 queries: m = 10 each. F(10, 2/5) = 120064/9765625 = 0.0122945536
    # (the reference), at most 1 - 0.5^(1/56) = 0.0123013; just below 2/5 the two tails' counts
    # move together and F is 0.021484375 > 0.0123. So the smallest half-width is the lattice point
    # 2/5 itself, and the route returns the double 0.4 (0.4000000000000000222 >= 2/5), not its
    # float steer 0.4000000033 (the steer lies above the lattice point: the snap must take it)
    fs = _fstar_exact(56, 0.5)
    assert exact_sup(10, Fraction(2, 5)) == Fraction(120064, 9765625) and _mp(Fraction(120064, 9765625)) <= fs
    assert _mp(exact_sup(10, Fraction(2, 5) - Fraction(1, 10**12))) > fs
    out = get("SPLIT-binomial").report(n=600, k=56, beta=0.5)
    assert out["half_width"] == 0.4 and out["half_width_rounding"] == "up"
    # the coverage: (1 - F(10, 0.4))^56 at the double 0.4, rounded down (within 1e-12)
    cover = (1 - _mp(exact_sup(10, Fraction(0.4)))) ** 56
    assert cover - mpmath.mpf("1e-12") <= out["coverage"] <= cover and out["coverage_rounding"] == "down"
    assert out["conditions_checked"] == [
        "each query on its own 10 fresh records",
        "{0, 1}-valued queries",
        "n i.i.d. records",
    ]


def test_statement_is_the_coverage_equation() -> None:
    import sympy

    from maxinfo_bounds.catalog import get

    st = get("SPLIT-binomial").sympy_statement()
    sym = {s.name: s for s in st.free_symbols}
    assert set(sym) == {"m", "t", "k", "beta"}
    assert sym["k"].is_integer and sym["m"].is_integer and sym["t"].is_positive
    (f,) = st.atoms(sympy.Function("F"))
    assert f.func.__name__ == "F" and f.args == (sym["m"], sym["t"])
    # with F = 1/100 and k = 3: (99/100)^3 = 970299/1000000 on the left, 1 - beta on the right
    assert isinstance(st, sympy.Eq)
    at = {f: sympy.Rational(1, 100), sym["k"]: 3, sym["beta"]: sympy.Rational(1, 20)}
    assert st.lhs.subs(at) == sympy.Rational(970299, 10**6) and st.rhs.subs(at) == sympy.Rational(19, 20)


@pytest.mark.parametrize(
    ("m", "k", "t", "beta", "meets"),
    [
        # F(5, 2/5) = 0.088 <= 0.09 < F(6, 2/5) = 0.0917 (the reference): more records can fail
        (5, 1, 0.4, 0.09, True),
        (6, 1, 0.4, 0.09, False),
        # the block above: k = 56 meets at m = 10, k = 57 does not
        (10, 56, 0.4, 0.5, True),
        (10, 57, 0.4, 0.5, False),
    ],
)
def test_split_binomial_meets_against_the_exact_supremum(m: int, k: int, t: float, beta: float, meets: bool) -> None:
    from maxinfo_bounds.theorems.binomial_split import split_binomial_meets

    assert _meets_exact(m, k, Fraction(t), beta) is meets
    assert split_binomial_meets(m, k, t, beta) is meets


def test_a_steer_below_the_answer_is_widened_to_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # the float steer may land below the smallest certified half-width (it is scipy's CDF in
    # floats): the route then widens it by 2^-30, 2^-27, ... relative until one certifies. Here
    # the steer is put 2^-29 below the lattice answer 2/5 (n = 600, k = 56, beta = 0.5, above)
    from maxinfo_bounds.theorems import binomial_split as B

    monkeypatch.setattr(B, "_half_width_float", lambda m, fstar, t_hi: 0.4 * (1 - 2.0**-29))
    b = B.split_binomial(600, 56, 0.5)
    t = Fraction(b.half_width)
    assert Fraction(2, 5) <= t <= Fraction(2, 5) * (1 + Fraction(1, 2**20))
    assert _mp(exact_sup(10, t)) <= _fstar_exact(56, 0.5)
    assert b.half_width < split_hoeffding(600, 56, 0.5).half_width


def _float_above(x: Fraction) -> float:
    f = float(x)
    return f if Fraction(f) >= x else math.nextafter(f, 2.0)


@pytest.mark.parametrize(
    ("m", "t"),
    [
        (3, Fraction(1, 2)),  # F = 1/8, approached as p -> 1/2; the upper count is then past m
        (10, Fraction(2, 5)),
        (37, Fraction(1, 10)),
        (40, Fraction(1, 16)),
        (12, Fraction(1, 8)),
    ],
)
def test_the_quick_refusal_never_refuses_a_target_at_the_supremum(m: int, t: Fraction) -> None:
    # _quick_fails says "F(m, t) > fstar, certified" from lower bounds only; at fstar = F itself
    # (the exact supremum, rounded up to a double) it must say nothing, though the upper ends of
    # its tails' enclosures lie above fstar; and the decision must not be False there, nor True
    # a double below F (rounded down)
    from maxinfo_bounds.theorems.binomial_split import _decide, _quick_fails

    tt = Fraction(float(t))
    f = exact_sup(m, tt)
    up = _float_above(f)
    down = math.nextafter(up, 0.0) if Fraction(up) > f else math.nextafter(float(f), 0.0)
    assert Fraction(down) < f <= Fraction(up)
    assert _quick_fails(m, tt, up) is False
    assert _decide(m, tt, up) is not False
    assert _decide(m, tt, down) is not True


def test_the_quick_refusal_beyond_its_256_terms_is_sound() -> None:
    # m = 2,400 records at t = 0.02: the counts below the breakpoint next below 1/2 number 1,152,
    # more than the 256 terms of the cheap partial tails, so their upper ends are unbounded. The
    # supremum from scipy's binomial CDF at the breakpoints near 1/2 (at most 1e-9 off, the
    # module's float steer's own figure) is 0.05 in rough terms; just above it nothing is refused
    from scipy.stats import binom

    from maxinfo_bounds.theorems.binomial_split import _quick_fails

    m, t = 2_400, Fraction(0.02)
    tf = float(t)
    best = 0.0
    for j in range(int(m * (0.5 - tf)) - 60, int(m * (0.5 - tf)) + 1):
        for p in (j / m + tf, (j + 2 * m * tf) / m - tf):  # lower and upper breakpoints near 1/2
            if 0 < p <= 0.5:
                a, b = math.floor(m * (p - tf) + 1e-9), math.ceil(m * (p + tf) - 1e-9)
                best = max(best, binom.cdf(a, m, p) + binom.sf(b - 1, m, p))
    assert 0.04 < best < 0.06
    assert _quick_fails(m, t, best * (1 + 1e-6)) is False
    assert _quick_fails(m, t, best * 0.5) is True


def test_required_n_at_one_record_a_query_by_hand() -> None:
    # F(1, t) = 1 - t (above): at t = 0.99 it is 0.0100000000000000089, within
    # 1 - 0.1^(1/5) = 0.369 for k = 5 queries at beta = 0.9, so one record each: n = 5;
    # Hoeffding's m is ceil(ln(2 * 5 / 0.9) / (2 * 0.99^2)) = ceil(1.23) = 2, n = 10
    assert split_binomial_required_n(5, 0.99, 0.9) == 5
    assert split_required_n(5, 0.99, 0.9) == 10


def test_required_n_refuses_an_undecided_record_count_naming_t(monkeypatch: pytest.MonkeyPatch) -> None:
    from maxinfo_bounds.theorems import binomial_split as B

    monkeypatch.setattr(B, "_decide", lambda m, t, fstar: None)
    with pytest.raises(B.Undecided) as err:
        split_binomial_required_n(3, 0.2, 0.1)
    assert (err.value.name, err.value.value) == ("t", "m = 1, k = 3")


def test_required_n_above_the_cap_is_hoeffdings() -> None:
    # t = 0.004, one query, beta = 0.05: the exact route would need about (1.96 / 0.008)^2 =
    # 60,025 records, past BINOMIAL_M_MAX = 50,000, so every m up to the cap is refused (each by
    # a certified bound; about 4 s) and the answer is Hoeffding's: ln 40 / (2 * 0.004^2) =
    # 115,277.48 at 50 digits (the double 0.004), so 115,278
    assert BINOMIAL_M_MAX == 50_000
    assert split_required_n(1, 0.004, 0.05) == 115_278
    assert split_binomial_required_n(1, 0.004, 0.05) == 115_278


def test_the_float_estimate_returns_the_lattice_point_itself() -> None:
    # at n = 600, k = 56, beta = 0.5 the smallest half-width is the lattice point 2/5 (by the
    # exact supremum, above): the estimate returns the double 0.4 itself, not a float bisection's
    # point 1e-7 above it
    assert split_binomial_estimate(600, 56, 0.5) == 0.4
    # at the cap itself (m = 50,000 records, one query) the exact route is still evaluated: near
    # the normal approximation 1.959964 / (2 sqrt(50,000)) = 0.0043826, far below Hoeffding's
    # sqrt(ln 40 / 100,000) = 0.0060736
    got = split_binomial_estimate(BINOMIAL_M_MAX, 1, 0.05)
    assert 0.00438 < got < 0.0044 < split_hoeffding(BINOMIAL_M_MAX, 1, 0.05).half_width


def test_the_bound_names_its_theorem_and_conditions_word_for_word(monkeypatch: pytest.MonkeyPatch) -> None:
    from maxinfo_bounds.theorems import binomial_split as B

    conds = ("each query on its own 10 fresh records", "{0, 1}-valued queries", "n i.i.d. records")
    b = B.split_binomial(600, 56, 0.5)
    assert (b.theorem, b.conditions) == ("SPLIT-binomial", conds)
    # at the cap itself the exact tail is still evaluated: 0.00439 = 439/100,000, the lattice
    # point next above the normal approximation 0.0043826 (Hoeffding's is 0.0060736), as the
    # smallest double at or above it (the double nearest 0.00439 lies below)
    b = B.split_binomial(BINOMIAL_M_MAX, 1, 0.05)
    assert Fraction(math.nextafter(b.half_width, 0.0)) < Fraction(439, 100_000) <= Fraction(b.half_width)
    assert b.conditions[-1] == "n i.i.d. records"
    # above it, Hoeffding's bound, saying why
    n = 2 * (BINOMIAL_M_MAX + 1)
    b = B.split_binomial(n, 2, 0.05)
    assert (b.theorem, b.half_width) == ("SPLIT-binomial", split_hoeffding(n, 2, 0.05).half_width)
    assert b.conditions == (
        f"each query on its own {BINOMIAL_M_MAX + 1} fresh records",
        "{0, 1}-valued queries",
        "n i.i.d. records",
        "Hoeffding's bound: the exact tail is evaluated up to 50000 records per query",
    )
    assert b.coverage == 0.95
    # where no candidate certifies (simulated: every search undecided), Hoeffding's, saying so
    monkeypatch.setattr(B, "_search", lambda m, t, fstar, tol=0.0: (None, 0.0, 1.0))
    b = B.split_binomial(600, 56, 0.5)
    assert b.half_width == split_hoeffding(600, 56, 0.5).half_width and b.theorem == "SPLIT-binomial"
    assert b.conditions == (*conds, "Hoeffding's bound: the exact tail certified no narrower")


def test_three_edges_by_hand() -> None:
    from maxinfo_bounds.theorems.binomial_split import _le_tail

    # P(X <= 1) for X ~ Bin(10, 1/2) is 11/1024: a threshold of 1 sums the term at 0 too
    lo, hi = _le_tail(10, 1, 1, 2)
    assert lo <= 11 / 1024 <= hi and hi - lo < 1e-12 * (11 / 1024)
    # more records can fail: at n = 6, t = 0.4, beta = 0.09 no k meets. k = 1 has all 6 records
    # and F(6, 0.4) = 0.0917 > 0.09 (although F(5, 0.4) = 0.088 would meet), k = 2 has 3 (0.28),
    # k >= 3 at most 2 (0.52 or more)
    assert _meets_exact(5, 1, Fraction(0.4), 0.09) and not _meets_exact(6, 1, Fraction(0.4), 0.09)
    assert split_binomial_max_queries(6, 0.4, 0.09) == 0
    # more queries than records is refused in words
    with pytest.raises(InvalidParameter) as err:
        split_binomial(10, 11, 0.05)
    assert str(err.value) == "k=11 is invalid: must be at most n = 10 (each query needs its own record)"
