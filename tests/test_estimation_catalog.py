"""The estimation catalog entries (``theorems/estimation.py``: ``JLNRSS-transfer``,
``JLNRSS-transfer-sensitive``, ``GAUSS-max``, ``SPLIT-Hoeffding``) evaluated through the
catalog, as ``maxinfo bound`` and the fuzz campaign call them, and their printed sympy
statements, against hand values at 50 digits (the inputs read as the doubles given). A mutation
run of the module found the four entries' evaluators reached by no test in-process.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest
import sympy

from maxinfo_bounds.catalog import get


def _mp(x: float) -> mpmath.mpf:
    return mpmath.mpf(x)  # the double exactly (mpmath keeps a float's 53 bits)


def _sym(expr: sympy.Basic) -> dict[str, sympy.Symbol]:
    return {s.name: s for s in expr.free_symbols}


def _rounded_up_once(got: float, ref: mpmath.mpf, ulps: int = 2) -> bool:
    """ref <= got, and got at most ``ulps`` doubles above the smallest double >= ref."""
    below = got
    for _ in range(ulps):
        below = math.nextafter(below, 0.0)
    return ref <= got and _mp(below) < ref


def test_jlnrss_transfer_entry_by_hand():
    """JLNRSS Thm 4 with Lemma 7: half-width alpha + (e^eps - 1) + c + 2d, failure beta/c +
    delta/d. At eps = 0.1, delta = 1e-6, alpha = 0.05, beta = 0.01, c = 0.02, d = 0.001:
    0.072 + 0.10517091807564762... = 0.17717091807564762..., coverage 1 - 0.5 - 0.001 = 0.499."""
    kw = {"eps": 0.1, "delta": 1e-6, "alpha": 0.05, "beta": 0.01, "c": 0.02, "d": 0.001}
    out = get("JLNRSS-transfer").report(**kw)
    with mpmath.workdps(50):
        e, a, c, d = (_mp(kw[x]) for x in ("eps", "alpha", "c", "d"))
        width = a + mpmath.expm1(e) + c + 2 * d
        cover = 1 - _mp(0.01) / c - _mp(1e-6) / d
        assert mpmath.nstr(width, 15) == "0.177170918075648"
    assert _rounded_up_once(out["half_width"], width)
    assert cover - mpmath.mpf("1e-15") < out["coverage"] <= cover and out["coverage"] == pytest.approx(0.499, abs=1e-15)
    assert (out["half_width_rounding"], out["coverage_rounding"]) == ("up", "down")
    st = get("JLNRSS-transfer").sympy_statement()
    s = _sym(st)
    q = sympy.Rational
    val = st.subs({s["epsilon"]: q(1, 10), s["alpha"]: q(1, 20), s["c"]: q(1, 50), s["d"]: q(1, 1000)}).evalf(40)
    with mpmath.workdps(40):
        hand = mpmath.mpf("0.072") + mpmath.expm1(mpmath.mpf("0.1"))
        assert abs(mpmath.mpf(str(val)) - hand) < mpmath.mpf("1e-35")


def test_jlnrss_transfer_sensitive_entry_by_hand():
    """JLNRSS Lemma 15 with Thm 4's step: alpha + n Delta (e^eps - 1 + 4d) + R c. With n = 1000,
    Delta = 0.001 (n Delta = 1), R = 1 and the point above: 0.05 + 0.10917091807564762... + 0.02
    = 0.17917091807564762...; with R = 0.5 and Delta = 1/(2n): 0.05 + 0.054585... + 0.01."""
    base = {"eps": 0.1, "delta": 1e-6, "alpha": 0.05, "beta": 0.01, "c": 0.02, "d": 0.001, "n": 1000}
    for sens, rng, digits in ((0.001, 1.0, "0.179170918075648"), (0.0005, 0.5, "0.114585459037824")):
        out = get("JLNRSS-transfer-sensitive").report(**base, sensitivity=sens, value_range=rng)
        with mpmath.workdps(50):
            e, a, c, d = (_mp(base[x]) for x in ("eps", "alpha", "c", "d"))
            width = a + 1000 * _mp(sens) * (mpmath.expm1(e) + 4 * d) + _mp(rng) * c
            assert mpmath.nstr(width, 15) == digits
        assert _rounded_up_once(out["half_width"], width)
        assert out["coverage"] == pytest.approx(0.499, abs=1e-15) and out["coverage"] <= 0.499 + 1e-16
    st = get("JLNRSS-transfer-sensitive").sympy_statement()
    s = _sym(st)
    q = sympy.Rational
    at = {s["epsilon"]: q(1, 10), s["alpha"]: q(1, 20), s["c"]: q(1, 50), s["d"]: q(1, 1000)}
    at |= {s["n"]: 1000, s["Delta"]: q(1, 2000), s["R"]: q(1, 2)}
    with mpmath.workdps(40):
        hand = mpmath.mpf("0.06") + (mpmath.expm1(mpmath.mpf("0.1")) + mpmath.mpf("0.004")) / 2
        assert abs(mpmath.mpf(str(st.subs(at).evalf(40))) - hand) < mpmath.mpf("1e-35")


def test_gauss_max_entry_by_hand():
    """(2 Phi(t/sigma) - 1)^k = 1 - beta: t = sigma Phi^-1((1 + (1 - beta)^(1/k))/2). At sigma =
    0.01, k = 100, beta = 0.05: 0.0347397886915404841...; at sigma = 1, k = 1, beta = 0.05 the
    familiar 1.959963984540054. The half-width is rounded up (within 1e-12) and the coverage,
    the exact (2 Phi(t/sigma) - 1)^k at the returned t, is reported at most that and at least
    1 - beta."""
    for sigma, k, beta, digits in ((0.01, 100, 0.05, "0.0347397886915405"), (1.0, 1, 0.05, "1.95996398454005")):
        out = get("GAUSS-max").report(sigma=sigma, k=k, beta=beta)
        with mpmath.workdps(50):
            b = _mp(beta)
            t = _mp(sigma) * mpmath.sqrt(2) * mpmath.erfinv((1 - b) ** (mpmath.mpf(1) / k))
            assert mpmath.nstr(t, 15) == digits
            cover_at = mpmath.erf(_mp(out["half_width"]) / (_mp(sigma) * mpmath.sqrt(2))) ** k
        assert t <= out["half_width"] <= t * (1 + mpmath.mpf("1e-12"))
        assert 1 - b <= out["coverage"] <= cover_at
    st = get("GAUSS-max").sympy_statement()
    s = _sym(st)
    with mpmath.workdps(40):
        t40 = str(mpmath.sqrt(2) * mpmath.erfinv(mpmath.mpf("0.95")))  # sigma = 1, k = 1
        lhs = st.lhs.subs({s["t"]: sympy.Float(t40, 40), s["sigma"]: 1, s["k"]: 1}).evalf(35)
        assert abs(mpmath.mpf(str(lhs)) - mpmath.mpf("0.95")) < mpmath.mpf("1e-30")
    assert st.rhs.subs(s["beta"], sympy.Rational(1, 20)) == sympy.Rational(19, 20)


@pytest.mark.parametrize(("n", "k", "beta", "m"), [(1000, 7, 0.05, 142), (100_000, 219, 0.05, 456), (10, 10, 0.5, 1)])
def test_split_hoeffding_entry_by_hand(n, k, beta, m):
    """sqrt(ln(2k/beta) / (2 floor(n/k))) (Hoeffding 1963 Thm 2, union bound over k): at n =
    1000, k = 7, beta = 0.05 it is sqrt(ln 280 / 284) = 0.14085740471080517...; the coverage is
    1 - beta rounded down, and the condition names the floor(n/k) records each query gets."""
    out = get("SPLIT-Hoeffding").report(n=n, k=k, beta=beta)
    with mpmath.workdps(50):
        width = mpmath.sqrt(mpmath.log(2 * k / _mp(beta)) / (2 * m))
    if n == 1000:
        assert mpmath.nstr(width, 15) == "0.140857404710805"
    assert _rounded_up_once(out["half_width"], width)
    assert Fraction(out["coverage"]) <= 1 - Fraction(beta) < Fraction(math.nextafter(out["coverage"], 2.0))
    assert f"each query on its own {m} fresh records" in out["conditions_checked"]
    st = get("SPLIT-Hoeffding").sympy_statement()
    s = _sym(st)
    val = st.subs({s["n"]: n, s["k"]: k, s["beta"]: sympy.Rational(str(beta))}).evalf(40)
    with mpmath.workdps(40):
        hand = mpmath.sqrt(mpmath.log(2 * k / mpmath.mpf(str(beta))) / (2 * m))
        assert abs(mpmath.mpf(str(val)) - hand) < mpmath.mpf("1e-35")


def test_split_required_n_refuses_a_half_width_beyond_the_floats():
    """At t = 1e-200 a single query needs m = ln(2/0.05)/(2 t^2) = 1.8e400 records: beyond the
    floats, refused naming t (it raised ZeroDivisionError: t^2 is 0 in floats); at t = 0.1, k =
    219 it is 219 ceil(ln 8760 / 0.02) = 219 x 454."""
    from maxinfo_bounds.numeric import InvalidParameter
    from maxinfo_bounds.theorems.estimation import split_required_n

    assert math.ceil(math.log(8760) / 0.02) == 454
    assert split_required_n(219, 0.1, 0.05) == 219 * 454
    # one record suffices: ln(2/0.5) = 1.386 <= 2 x 0.81 (the smallest count is 1, not 2)
    assert math.log(4) <= 2 * 0.9**2 and split_required_n(1, 0.9, 0.5) == 1
    with pytest.raises(InvalidParameter) as exc:
        split_required_n(1, 1e-200, 0.05)
    assert (exc.value.name, exc.value.value, exc.value.allowed) == (
        "t",
        1e-200,
        "a half-width whose record count is finite",
    )
    with pytest.raises(InvalidParameter) as exc:
        split_required_n(3, 5e-324, 0.5)  # the smallest subnormal
    assert (exc.value.name, exc.value.value) == ("t", 5e-324)


@pytest.mark.parametrize(("k", "t", "m_float"), [(27, 0.005379185831943817, 120695), (49, 0.007568315672218021, 66173)])
def test_split_required_n_where_the_float_estimate_misses_by_one(k, t, m_float):
    """The smallest m with ln(2k/beta) <= 2 m t^2 is ceil(ln(2k/beta)/(2 t^2)) at 50 digits
    (t and beta = 0.05 the doubles given). At these two t, found by a seeded scan of t =
    sqrt(ln(2k/beta)/(2m)), the float quotient's ceiling is one above it (120,695 for 120,694)
    and one below it (66,173 for 66,174): the exact walks down and up from the float start are
    what make the count right."""
    from maxinfo_bounds.theorems.estimation import split_required_n

    with mpmath.workdps(50):
        m = int(mpmath.ceil(mpmath.log(2 * k / _mp(0.05)) / (2 * _mp(t) ** 2)))
    assert math.ceil(math.log(2 * k / 0.05) / 2 / t / t) == m_float != m
    assert split_required_n(k, t, 0.05) == k * m


def test_split_max_queries_at_one_query_and_at_none():
    """n = 100, beta = 0.05: one query on all 100 records meets t = 0.14 (ln 40 / 200 = 0.01844
    <= 0.0196) and two on 50 each do not (ln 80 / 100 = 0.0438): exactly 1. At t = 0.01 not even
    one query does (ln 40 / 200 > 0.0001): 0."""
    from maxinfo_bounds.theorems.estimation import split_max_queries

    assert math.log(40) / 200 <= 0.14**2 < math.log(80) / 100
    assert split_max_queries(100, 0.14, 0.05) == 1
    assert split_max_queries(100, 0.01, 0.05) == 0


def test_split_required_n_far_past_the_floats_resolution():
    """At t = 6e-58 one query needs m = ceil(ln 40 / (2 t^2)) = 5.12e114 records (150 digits,
    t and beta the doubles): exact to the last record, found in well under a second (a walk
    by ones from the float estimate, whose ulp there is 1e99, never ended: ``maxinfo estimate``
    hung at such a half-width)."""
    from maxinfo_bounds.theorems.estimation import split_required_n

    with mpmath.workdps(150):
        m = int(mpmath.ceil(mpmath.log(2 / _mp(0.05)) / (2 * _mp(6e-58) ** 2)))
    assert str(m).startswith("51234436862693556356") and len(str(m)) == 115
    assert split_required_n(1, 6e-58, 0.05) == m
    assert split_required_n(3, 6e-58, 0.05) % 3 == 0


def test_the_bounds_name_their_theorem_and_conditions_word_for_word():
    """What each estimation bound states beside its numbers (a mutation run found every such
    string unread): the catalog id it cites and the conditions it holds under."""
    from maxinfo_bounds.theorems.estimation import gaussian_sample_accuracy, jlnrss_transfer, split_hoeffding

    sq = ("statistical queries q_j: X -> [0, 1]", "n i.i.d. records")
    jl = jlnrss_transfer(0.1, 1e-6, 0.05, 0.01, 0.02, 0.001)
    assert (jl.theorem, jl.conditions) == (
        "JLNRSS-transfer",
        ("the mechanism is (eps, delta)-DP and (alpha, beta)-sample accurate", *sq),
    )
    ga = gaussian_sample_accuracy(1.0, 1, 0.05)
    assert (ga.theorem, ga.conditions) == ("GAUSS-max", ("independent N(0, sigma^2) noise on each of the k answers",))
    sp = split_hoeffding(1000, 7, 0.05)
    assert (sp.theorem, sp.conditions) == ("SPLIT-Hoeffding", ("each query on its own 142 fresh records", *sq))


def test_the_estimation_refusals_word_for_word():
    from maxinfo_bounds.numeric import InvalidParameter
    from maxinfo_bounds.theorems.estimation import (
        gaussian_max_failure,
        gaussian_sample_accuracy,
        jlnrss_split,
        split_hoeffding,
    )

    cases = [
        (split_hoeffding, (10, 11, 0.05), ("k", 11, "at most n = 10 (each query needs its own record)")),
        # a beta below every positive double: rounded down it is 0
        (
            gaussian_sample_accuracy,
            (1.0, 1, Fraction(1, 10**400)),
            ("beta", Fraction(1, 10**400), "at least the smallest positive float 5e-324"),
        ),
        (gaussian_max_failure, (1.0, 1, -1.0), ("t", -1.0, "a real number in [0, inf)")),
        (jlnrss_split, (0.01, 0.01, 1.0), ("failure", 1.0, "a real number in (0, 1)")),
    ]
    for fn, args, want in cases:
        with pytest.raises(InvalidParameter) as exc:
            fn(*args)
        assert (exc.value.name, exc.value.value, exc.value.allowed) == want


def test_gaussian_half_width_where_beta_over_k_underflows():
    """k = 10^6 answers at beta = 1e-320: u = 1 - (1 - beta)^(1/k) = 1e-326 is 0 in floats, so
    the float estimate is infinite and the search starts from the tail's asymptote instead.
    The exact t solves erfc(t / sqrt 2) = 1 - (1 - beta)^(1/k) (60 digits: 38.64613422...; the
    asymptote sqrt(2 ln(2k/beta)) = 38.764 lies 0.3% above it, and was returned as it was):
    the half-width is at or above it, within 1e-12, and the coverage it reports is at least
    1 - beta (1 in doubles)."""
    from maxinfo_bounds.theorems.estimation import gaussian_sample_accuracy

    with mpmath.workdps(60):
        beta = _mp(1e-320)
        u = -mpmath.expm1(mpmath.log1p(-beta) / 10**6)
        t = mpmath.findroot(lambda x: mpmath.log(mpmath.erfc(x / mpmath.sqrt(2))) - mpmath.log(u), 38)
        assert mpmath.nstr(t, 10) == "38.64613422"
    b = gaussian_sample_accuracy(1.0, 10**6, 1e-320)
    assert t <= b.half_width <= t * (1 + mpmath.mpf("1e-12"))
    assert b.coverage <= 1.0 and Fraction(b.coverage) >= 1 - Fraction(1e-320) - Fraction(1, 2**53)


def test_exact_inputs_and_the_edges_of_three_helpers() -> None:
    """Written against the mutation run's survivors: an exact input to gaussian_max_failure
    (a Fraction is taken as its quotient, not through a float), a zero beta in jlnrss_split
    (the smallest positive c, as documented), and split_max_queries past 10^12 queries."""
    from maxinfo_bounds.theorems.estimation import gaussian_max_failure, jlnrss_split, split_max_queries

    # sigma = 1/3, t = 1/2, k = 2: 1 - (1 - erfc(3 / (2 sqrt 2)))^2 = 0.24937599650992142088...
    with mpmath.workdps(60):
        p = mpmath.erfc(mpmath.mpf(3) / (2 * mpmath.sqrt(2)))
        ref = 1 - (1 - p) ** 2
        got = gaussian_max_failure(Fraction(1, 3), 2, Fraction(1, 2))
        assert ref <= got <= ref * (1 + mpmath.mpf(10) ** -35)
        assert mpmath.nstr(ref, 20) == "0.24937599650992142088"
    # no sample-accuracy failure: c is the smallest positive double, d takes the whole budget
    # (c + 2d with beta = 0: d = sqrt(delta/2) sqrt(2 delta) / F = delta / F = 0.4, nudged up)
    c, d = jlnrss_split(0.0, 0.02, 0.05)
    assert c == 5e-324 and 0.4 <= d <= 0.4 * (1 + 2.0**-39)
    # 6.29e13 records at t = 1/2, beta = 0.05: a query needs m >= ln(4e13) / (2 / 4) = 62.64, so
    # 63 records; the largest k is n // 63 = 998,412,698,412 (n / 10^12 = 62.9 records would not
    # do: the count is whole)
    n = 62_900_000_000_000
    assert split_max_queries(n, 0.5, 0.05) == n // 63 == 998_412_698_412 and n // (n // 63 + 1) == 62


def test_gaussian_half_width_at_the_largest_double():
    """sigma near 1.8e308 / Phi^-1(0.975) (one answer, beta = 0.05): the half-width sigma
    Phi^-1(0.975) is then at the top of the doubles. Where that root (50 digits) is at most the
    largest double, the largest double is returned (it holds: the widening step from the float
    estimate overflowed and the route was refused); past it, the refusal names sigma (the
    overflowing estimate sent the search to t = inf, and the refusal named t, which the user
    never gave). Both ends of the estimate's search refuse the same way: directly (sigma =
    1e308) and past the underflow of beta/k (sigma = 1e307, k = 10^6, beta = 1e-320, whose
    root is 38.6 sigma)."""
    from maxinfo_bounds.numeric import InvalidParameter
    from maxinfo_bounds.theorems.estimation import gaussian_sample_accuracy

    mpmath.mp.dps = 50
    top = 1.7976931348623157e308
    z = mpmath.sqrt(2) * mpmath.erfinv(mpmath.mpf("0.95"))  # Phi^-1(0.975)
    s = 9.1720722882782e307  # the double nearest top / z
    for sigma in (s, math.nextafter(s, 0.0), 9.172072288278001e307):
        assert _mp(sigma) * z <= top
        b = gaussian_sample_accuracy(sigma, 1, 0.05)
        assert b.half_width == top and b.coverage >= 0.95
    for sigma, k, beta in [(math.nextafter(s, math.inf), 1, 0.05), (1e308, 1, 0.05), (1e307, 10**6, 1e-320)]:
        with pytest.raises(InvalidParameter) as exc:
            gaussian_sample_accuracy(sigma, k, beta)
        assert str(exc.value) == f"sigma={sigma!r} is invalid: must be a noise scale whose half-width is a finite float"
    assert _mp(math.nextafter(s, math.inf)) * z > top


def test_gaussian_refusal_where_the_estimate_is_finite_but_the_root_is_not():
    """Two answers, beta = 0.05: the float estimate of sigma = 8.038059057029701e307 is the
    largest double itself, but the 50-digit root sigma Phi^-1(1 - (1 - sqrt(0.95))/2) is
    1 + 3.3e-17 times it, so the widening search reaches the top of the doubles and refuses
    there (its own refusal, which no test reached: a mutant naming None survived); one double
    lower the root is at most the largest double, which is returned."""
    from maxinfo_bounds.numeric import InvalidParameter
    from maxinfo_bounds.theorems.estimation import gaussian_half_width_estimate, gaussian_sample_accuracy

    top = 1.7976931348623157e308
    sigma = 8.038059057029701e307
    with mpmath.workdps(50):
        z = mpmath.sqrt(2) * mpmath.erfinv(mpmath.sqrt(mpmath.mpf("0.95")))
        assert _mp(sigma) * z > top and _mp(math.nextafter(sigma, 0.0)) * z <= top
    assert float(gaussian_half_width_estimate(sigma, 2, 0.05)) == top  # finite: not the first refusal
    with pytest.raises(InvalidParameter) as exc:
        gaussian_sample_accuracy(sigma, 2, 0.05)
    assert str(exc.value) == f"sigma={sigma!r} is invalid: must be a noise scale whose half-width is a finite float"
    b = gaussian_sample_accuracy(math.nextafter(sigma, 0.0), 2, 0.05)
    assert b.half_width == top and b.coverage >= 0.95


def test_gaussian_failure_far_in_the_tail():
    """t / sigma past 1e150: mpmath's erfc raised OverflowError (int too large to convert to
    float); the failure is now taken at t / (sigma sqrt 2) = 1e100, an upper bound since erfc
    decreases: erfc(1e100) < exp(-1e200) = 10^(-4.34e199), and positive."""
    from maxinfo_bounds.theorems.estimation import gaussian_max_failure

    for t in (1e200, 1.7976931348623157e308):
        f = gaussian_max_failure(1.0, 3, t)
        assert 0 < f < mpmath.mpf(10) ** (-4 * 10**199)
    assert gaussian_max_failure(1.0, 3, 1e200) == gaussian_max_failure(1.0, 3, 1e300)


def test_gaussian_half_width_from_an_estimate_below_the_root(monkeypatch):
    """The float estimate (scipy's ndtri) is within an ulp or two of the root, so the widening
    loop stops after its first step of 2^-44. An estimate 1e-12 below (simulated) takes five
    doubling steps (2^-44 (2^5 - 1) = 1.8e-12 >= 1e-12): the half-width is at or above the
    50-digit root Phi^-1(0.975) = 1.95996398454005423552..., less than 1e-11 above it."""
    from maxinfo_bounds.theorems import estimation as E

    inner = E.gaussian_half_width_estimate
    monkeypatch.setattr(E, "gaussian_half_width_estimate", lambda s, k, b: inner(s, k, b) * (1 - 1e-12))
    mpmath.mp.dps = 50
    root = mpmath.sqrt(2) * mpmath.erfinv(mpmath.mpf("0.95"))
    b = E.gaussian_sample_accuracy(1.0, 1, 0.05)
    assert root <= _mp(b.half_width) <= root * (1 + mpmath.mpf(10) ** -11)
    assert b.coverage >= 0.95


def test_gaussian_failure_is_a_probability_near_the_origin():
    """At t = 0 every answer misses surely (P(|Z| > 0) = 1): the bound is 1 exactly. At t = 1e-30
    with two answers the failure is 1 - (1 - erfc(1e-30/sqrt 2))^2, within 1e-59 of 1, and the
    10^-40 widening would carry it past 1: it is capped at 1."""
    from maxinfo_bounds.theorems.estimation import gaussian_max_failure

    assert gaussian_max_failure(1.0, 1, 0.0) == 1
    assert gaussian_max_failure(1.0, 2, 1e-30) == 1
    assert gaussian_max_failure(1.0, 1, 1e-30) < 1  # one answer: erfc(1e-30/sqrt 2) (1 + 1e-40)
