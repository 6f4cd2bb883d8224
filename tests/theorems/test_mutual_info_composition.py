"""RRST Lemma 1.5 (first part), Cor C.2, Thm C.3 and Thm A.3: hand values, 50-digit checks,
exact joint tables, and the ordering rule of composition."""

from __future__ import annotations

import math
from fractions import Fraction
from fractions import Fraction as F

import mpmath
import numpy as np
import pytest
from hypothesis import (
    assume,  # noqa: E402
    given,
)
from hypothesis import strategies as st

from maxinfo_bounds import InvalidParameter, RegimeError
from maxinfo_bounds.catalog import Bound
from maxinfo_bounds.measures import (
    approx_max_information,
    mutual_information,
)
from maxinfo_bounds.theorems.composition import compose_max_information
from maxinfo_bounds.theorems.maxinfo_dp import (
    approx_dp_max_information,
    pure_dp_max_information,
    pure_dp_max_information_product,
)
from maxinfo_bounds.theorems.mutual_info import (
    approx_max_information_to_mi,  # noqa: E402
    mi_beta_exact,
    mi_beta_float,
    mi_to_approx_max_information,
)
from maxinfo_bounds.theorems.pvalues import (
    mi_pvalue_choice,
    mi_pvalue_correction,
    pvalue_correction,
    russo_zou_pvalue_correction,
)

from ..strategies import exact_joint
from .reference import DPS, REL, SWEEP, check_down, check_up, log_uniform, mp


def _f(b, k):
    """k b + (1 - b) log2(1 - b) at 50 digits."""
    with mpmath.workdps(DPS):
        B = mp(b)
        return mp(k) * B + (1 - B) * mpmath.log(1 - B, 2)


def test_paper_constant():
    # max_w (1-w) log2(1/(1-w)) = log2(e)/e = 0.530737845423043 < 0.54 (50 digits)
    with mpmath.workdps(DPS):
        peak = mpmath.log(mpmath.e, 2) / mpmath.e
        w = 1 - 1 / mpmath.e
        assert abs((1 - w) * mpmath.log(1 / (1 - w), 2) - peak) < mpmath.mpf(10) ** -45
        assert peak < mpmath.mpf("0.54")


def test_beta_exact_is_certified_root():
    rng = np.random.default_rng(11)
    ms = log_uniform(rng, 1e-6, 100, SWEEP)
    ks = ms * log_uniform(rng, 1.0001, 1e4, SWEEP)
    for m, k in zip(ms, ks):
        b = mi_beta_exact(float(m), float(k))
        assert b <= (m + 0.54) / k or b == 1.0  # never worse than the paper
        if b < 1.0:
            assert _f(b, k) > mp(m)  # certified: beta* < b
            # and tight: one part in 10^12 below b the inequality holds
            assert _f(b * (1 - 1e-12), k) <= mp(m)


def test_lemma_1_5_hand_and_edges():
    assert mi_to_approx_max_information(1.0, 10.0, variant="paper").beta == pytest.approx(0.154, rel=1e-15)
    assert mi_to_approx_max_information(3.0, 2.0).beta == 1.0  # m >= k: vacuous
    assert mi_beta_exact(0.0, 5.0) == 0.0  # m = 0, k >= log2 e: beta* = 0 exactly
    # m = 0, k < log2 e: f dips below 0 first; the root lies past the minimum
    b = mi_beta_exact(0.0, 1.0)
    assert 0 < b < 1 and _f(b, 1.0) > 0 and _f(b * (1 - 1e-9), 1.0) <= 0


@given(exact_joint(max_rows=3, max_cols=3), st.floats(0.1, 8.0))
def test_lemma_1_5_holds_on_exact_tables(J, k):
    """I(X;Y) exact (40 digits, rounded up) -> the lemma's beta; exact I^beta must be <= k."""
    m = float(mutual_information(J, dps=40)) * (1 + 1e-12) + 1e-15
    for variant in ("exact", "paper"):
        b = mi_to_approx_max_information(m, k, variant=variant)
        if b.beta < 1:
            assert approx_max_information(J, F(b.beta)).le(k)


def test_mi_pvalue_paper_closed_form():
    # alpha/2 * 2^(-2(m+0.54)/alpha) at 50 digits
    for a, m in [(0.05, 1.0), (0.05, 0.05), (0.2, 3.0), (0.01, 0.0)]:
        with mpmath.workdps(DPS):
            ref = mp(a) / 2 * mpmath.power(2, -2 / mp(a) * (mp(m) + mpmath.mpf(54) / 100))
        check_down(mi_pvalue_correction(a, m, variant="paper"), ref, 2**-50)


@pytest.mark.parametrize("a, m", [(0.05, 1.0), (0.05, 0.05), (0.01, 0.05), (0.1, 5.0), (0.05, 0.0)])
def test_mi_pvalue_optimal_dominates_and_is_valid(a, m):
    opt = mi_pvalue_correction(a, m)
    assert opt >= mi_pvalue_correction(a, m, variant="paper")
    # validity: some k with certified beta*(k) < a reproduces at least this gamma
    ks = np.linspace(0.5, 4 * 2 * (m + 0.54) / a + 64, SWEEP * 2 // 5)  # 4,000 (200 in mutation runs)
    best = max(pvalue_correction(a, float(k), b) for k in ks if (b := mi_beta_exact(m, float(k))) < a)
    assert opt >= best * (1 - 1e-6)  # the optimiser is at least as good as a fine grid


def _beta_star_50(m, k):
    """beta*(k) = max{b in [0, 1]: k b + (1 - b) log2(1 - b) <= m} at 50 digits, by bisection
    written here (the curve is convex from f(0) = 0, so past its minimum it crosses m once)."""
    with mpmath.workdps(DPS + 10):
        K, M = mp(k), mp(m)
        f = lambda b: K * b + (1 - b) * mpmath.log(1 - b) / mpmath.log(2)  # noqa: E731
        lo = max(mp(0), 1 - mpmath.power(2, K - 1 / mpmath.log(2)))  # the minimum (f <= 0 <= m)
        hi = 1 - mpmath.mpf(10) ** -(DPS + 5)
        if f(hi) <= M:
            return mp(1), mp(1)
        for _ in range(260):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if f(mid) <= M else (lo, mid)
        return lo, hi  # beta* in [lo, hi], hi - lo = 2^-260 (lo = 0 exactly when m = 0 < f)


@pytest.mark.parametrize(
    "a, m",
    [
        (0.05, 1.0),
        (0.05, 0.05),
        (0.01, 0.05),
        (0.1, 5.0),
        (0.05, 0.0),
        (0.2, 0.3),
        (0.01, 3.0),
        (0.5, 10.0),
        (0.05, 1e-6),
        (0.1, 0.7),
        (0.03, 2.5),
        (0.3, 0.01),
        (0.07, 0.2),
        (0.02, 0.9),
        (0.15, 4.0),
        (0.05, 20.0),
        (1.0, 1.0),
    ],
)
def test_mi_pvalue_certificate_against_50_digit_beta_star(a, m):
    """The optimal correction's certificate (k, beta) holds against beta*(k) found here at 50
    digits: beta is at or above the true root and gamma <= (alpha - beta*) 2^-k. A plain float
    root in place of the certified one lands below the true root about half the time."""
    c = mi_pvalue_choice(a, m)
    assert c.gamma == mi_pvalue_correction(a, m)
    assert c.k is not None and c.beta is not None  # the exact curve beats the closed form here
    lo, hi = _beta_star_50(m, c.k)
    assert mp(c.beta) >= hi or (lo == 0 and c.beta == 0), (c.k, c.beta, lo, hi)
    assert mp(c.beta) - lo <= lo * 1e-12 + mpmath.mpf(10) ** -300  # and tight
    with mpmath.workdps(DPS):
        assert mp(c.gamma) <= (mp(a) - hi) * mpmath.power(2, -mp(c.k))


def test_mi_pvalue_range_ends():
    """alpha = 0: gamma = 0 with no certificate (both variants, scalars and arrays); alpha = 1,
    the range's closed end: the closed form 2^-1 2^(-2 (1 + 0.54)) = 0.0591 at 50 digits, and the
    optimal variant above it (k = 2.44 beats the paper's k = 3.08)."""
    assert mi_pvalue_choice(0.0, 1.0) == (0.0, None, None)
    assert mi_pvalue_correction(0.0, 1.0) == 0.0
    assert mi_pvalue_correction(0.0, 1.0, variant="paper") == 0.0
    with mpmath.workdps(DPS):
        ref = mpmath.power(2, -1 - 2 * (1 + mpmath.mpf(54) / 100))
    paper = mi_pvalue_correction(1.0, 1.0, variant="paper")
    check_down(paper, ref, 2**-50)
    assert mi_pvalue_correction(1.0, 1.0) > paper * 1.1
    arr = mi_pvalue_correction(np.array([0.0, 0.05, 1.0]), np.array([1.0, 1.0, 1.0]), variant="paper")
    assert arr[0] == 0.0
    for got, a in zip(arr[1:], (0.05, 1.0)):
        exact = mi_pvalue_correction(a, 1.0, variant="paper")
        assert exact * (1 - 2.0**-40) <= got <= exact


def test_mi_beta_at_the_smallest_subnormal_m():
    """m = 5e-324 (the smallest float), k = 10: f_k(b) >= b (k - log2 e) > m at b = 5e-324 and
    f_k(0) = 0 < m, so beta* lies strictly between 0 and the smallest float: the certified answer
    is 5e-324 itself. The float bracket [m/k, m/(k - log2 e)] underflows to 0 here, so the
    search must fall back to the whole range."""
    assert mi_beta_exact(5e-324, 10.0) == 5e-324
    assert mi_beta_float(5e-324, 10.0) <= 5e-324


def test_russo_zou_root_and_envelope():
    for a, m in [(0.05, 0.05), (0.05, 1.0), (0.2, 0.5), (0.01, 0.001)]:
        g = russo_zou_pvalue_correction(a, m)
        with mpmath.workdps(DPS):
            G = mp(g)
            lhs = G + mpmath.sqrt(mp(m) * mpmath.log(2) / mpmath.log(1 / (2 * G)))
            assert lhs <= mp(a)  # certified valid
            G2 = G * (1 + mpmath.mpf(10) ** -10)
            assert G2 + mpmath.sqrt(mp(m) * mpmath.log(2) / mpmath.log(1 / (2 * G2))) > mp(a)  # tight
        # RRST's envelope: gamma_RZ <= min(alpha/2, exp(-m_nats/alpha^2)/2)
        assert g <= min(a / 2, 0.5 * math.exp(-m * math.log(2) / a**2))
    assert russo_zou_pvalue_correction(0.05, 0.0) == 0.05
    # alpha = 0: Pr[p <= gamma] <= 0 only at gamma = 0 (gamma + sqrt(...) > gamma for m > 0)
    assert russo_zou_pvalue_correction(0.0, 1.0) == 0.0
    assert russo_zou_pvalue_correction(0.0, 0.0) == 0.0
    assert russo_zou_pvalue_correction(1.0, 0.0) == 1.0  # the range's closed end


def test_russo_zou_statement_is_what_the_evaluator_solves():
    """The catalog statement of RRST-C.3 (sympy, generated from the one body) evaluated at 50
    digits at the returned gamma: at most alpha there, above alpha just beyond it. A statement
    that dropped the bits-to-nats factor (as the hand-written one did: m / ln(1/(2 gamma)) with
    m in bits) fails this at every point: without the factor ln 2 < 1 its level at gamma
    exceeds alpha."""
    import sympy

    from maxinfo_bounds.catalog import get

    expr = get("RRST-C.3").sympy_statement()
    gam, m_s = sorted(expr.free_symbols, key=lambda s: s.name)
    for a, m in [(0.05, 0.05), (0.05, 1.0), (0.2, 0.5)]:
        g = russo_zou_pvalue_correction(a, m)
        at = sympy.N(expr.subs({gam: sympy.Rational(g), m_s: sympy.Rational(m)}), 50)
        assert at <= a
        above = sympy.N(
            expr.subs({gam: sympy.Rational(g) * (1 + sympy.Rational(1, 10**9)), m_s: sympy.Rational(m)}), 50
        )
        assert above > a


def test_appendix_c_claim_and_its_units():
    """RRST App. C: "for alpha <= 0.05, Cor C.2 improves over gamma_RZ whenever m >= 0.05".

    As the paper computes it (the same number m in Cor C.2, where MI is in bits, and in the RZ
    envelope min(alpha/2, 2^(-log2(e) m/alpha^2)/2), where it is in nats) the claim holds on the
    grid. With one unit for m (bits, converted to nats for Russo-Zou's natural-log bound) it fails
    at its boundary alpha = 0.05, m = 0.05 bits: 1.97e-9 < 4.77e-7 (docs/errata.md). The
    optimal variant of Cor C.2 beats Russo-Zou on the whole grid either way.
    """
    for a in (0.05, 0.02, 0.01):
        for m in (0.05, 0.1, 1.0, 5.0):
            paper = mi_pvalue_correction(a, m, variant="paper")
            envelope_same_number = min(a / 2, 0.5 * 2 ** (-math.log2(math.e) * m / a**2))
            assert paper >= envelope_same_number
            rz = russo_zou_pvalue_correction(a, m)
            assert mi_pvalue_correction(a, m) >= rz
    paper, rz = mi_pvalue_correction(0.05, 0.05, variant="paper"), russo_zou_pvalue_correction(0.05, 0.05)
    assert 1.96e-9 < paper < 1.97e-9 and 4.76e-7 < rz < 4.78e-7 and paper < rz


def test_composition_adds_and_respects_order():
    b1 = pure_dp_max_information_product(0.1, 1000, 1e-6)  # product-only, first: allowed
    b2 = pure_dp_max_information(0.01, 1000)
    c = compose_max_information([b1, b2])
    assert c.product_only and c.k >= b1.k + b2.k and c.beta >= 1e-6
    assert F(c.k) >= F(b1.k) + F(b2.k) and F(c.beta) == F(1e-6)  # exact sums, rounded up
    with pytest.raises(RegimeError, match=r"bounds\[1\].*product_only"):
        compose_max_information([b2, b1])
    out = Bound(1.0, 0.0, "x", in_regime=False)
    with pytest.raises(RegimeError, match="out of regime"):
        compose_max_information([b2, out])
    assert not compose_max_information([b2, out], strict=False).in_regime
    with pytest.raises(InvalidParameter, match="non-empty"):
        compose_max_information([])
    with pytest.raises(InvalidParameter, match=r"bounds\[0\]"):
        compose_max_information([1.0])  # type: ignore[list-item]


def test_composition_exact_on_two_stage_mechanism():
    """Two adaptive randomized-response stages on one uniform bit: exact I^beta <= composed bound."""
    # stage 1 keeps the bit w.p. 3/4; stage 2 keeps it w.p. 3/4 again, independently
    rows = []
    for x in (0, 1):
        row = []
        for y1 in (0, 1):
            for y2 in (0, 1):
                p1 = F(3, 4) if y1 == x else F(1, 4)
                p2 = F(3, 4) if y2 == x else F(1, 4)
                row.append(F(1, 2) * p1 * p2)
        rows.append(row)
    eps = math.log(3)
    c = compose_max_information([pure_dp_max_information(eps, 1), pure_dp_max_information(eps, 1)])
    assert approx_max_information(rows).le(c.k)
    # hand: P(x=0, y=00) = 9/32, P(x=0) = 1/2, P(y=00) = 9/32 + 1/32 = 5/16: (9/32)/(5/32) = 9/5
    assert approx_max_information(rows).ratio == F(9, 5)


def test_bad_variants():
    with pytest.raises(InvalidParameter, match="variant"):
        mi_to_approx_max_information(1.0, 2.0, variant="nope")
    with pytest.raises(InvalidParameter, match="variant"):
        mi_pvalue_correction(0.05, 1.0, variant="nope")


# ------------------------------------------------------------------------------------------
# Lemma 1.5, second part


@given(exact_joint(max_rows=4, max_cols=3), st.sampled_from([F(0), F(1, 100), F(1, 20), F(1, 10)]))
def test_lemma_1_5_part2_holds_on_exact_tables(J, beta):
    """Exact I^beta (k, rounded up) -> the lemma's MI bound must be >= the exact MI (40 digits)."""
    k = approx_max_information(J, beta).enclosure()[1]
    assume(k > 1e-9)
    mi_bits = mutual_information(J, dps=40)
    for variant in ("sound", "paper"):
        try:
            bound = approx_max_information_to_mi(k, float(beta), len(J), variant=variant)
        except RegimeError:
            continue
        assert mp(bound) >= mi_bits


def test_lemma_1_5_part2_units_and_values():
    # beta = 0: 2k ln 2 nats = 2k bits (hand)
    assert approx_max_information_to_mi(1.5, 0.0, 8, unit="nats") == pytest.approx(3 * math.log(2), rel=1e-15)
    # paper formula at 50 digits, in nats
    k, b, s = 2.0, 0.05, 1024
    with mpmath.workdps(DPS):
        ref = 2 * mp(k) * mpmath.log(2) + 2 * mp(b) * mpmath.log(s / (2 * mp(b)), 2) / (1 - mpmath.power(2, -mp(k)))
    check_up(approx_max_information_to_mi(k, b, s, variant="paper", unit="nats"), ref, 2**-50)
    with pytest.raises(RegimeError, match="beta"):
        approx_max_information_to_mi(1.0, 0.1, 8, variant="paper")  # 0.1 > 3(1/2)/20 = 0.075
    # the sound variant (one-sided tail, ln|Sigma|) is never above the paper's where both apply
    for k, b, s in [(1.0, 0.05, 2), (3.0, 0.1, 10**6), (10.0, 0.001, 2**40)]:
        assert approx_max_information_to_mi(k, b, s) <= approx_max_information_to_mi(k, b, s, variant="paper")


def test_cor_1_6_route():
    from maxinfo_bounds.theorems.mutual_info import approx_dp_mutual_information

    m = approx_dp_mutual_information(0.05, 1e-30, 100, 2, beta=1e-3)
    b = approx_dp_max_information(0.05, 1e-30, 100, beta=1e-3)
    assert m == approx_max_information_to_mi(b.k, b.beta, 2**100)  # the route, composed
    assert m >= 2 * b.k  # hand: the 2k ln2 nats = 2k bits term alone
    assert approx_dp_mutual_information(0.05, 1e-30, 100, 2) <= m  # the default searches beta
    with pytest.raises(RegimeError):
        approx_dp_mutual_information(0.9, 1e-30, 100, 2)


LOG2E_FLOAT = math.log2(math.e)  # 1.44269504088896338..., below the real log2 e = 1.44269504088896340...


@pytest.mark.parametrize("k", [0.5, 1.0, LOG2E_FLOAT, 1.5, 2.0, 10.0, 100.0])
def test_mi_beta_certified_and_tight_on_a_grid(k):
    """beta* of Lemma 1.5's proof against the 60-digit root (proofs_checks.fuzz.references),
    including m = 0 and subnormal-scale roots. At k = float(log2 e), just below the real
    log2 e, f_k dips below 0: beta* = 2.82e-17 at m = 0, not 0 (the calculator returned 0.0, an
    unsound beta, until the k >= log2 e test was made exact)."""
    from proofs_checks.fuzz import references as R

    for m in (0.0, 1e-300, 1e-10, 0.01, 0.3, 0.9, 1.4, 3.0, 50.0):
        x = mi_beta_exact(m, k)
        if m >= k:
            assert x == 1.0 and mi_beta_float(m, k) == 1.0
            continue
        ref = R.run(R.mi_beta_star, R.exact(m), R.exact(k))
        assert R.exact(x) >= ref, (m, k)
        if ref == 0:
            assert x == 0.0
        else:
            assert float((R.exact(x) - ref) / ref) < 1e-12, (m, k)
            if k != LOG2E_FLOAT:  # the float surrogate (for optimisers), away from its degenerate k
                assert float(abs(R.exact(mi_beta_float(m, k)) - ref) / ref) < 1e-9, (m, k)
    if k == LOG2E_FLOAT:
        assert 2.82e-17 < mi_beta_exact(0.0, k) < 2.83e-17


def test_approx_dp_mutual_information_composes_thm31_and_lemma15b():
    """Cor 1.6's route, explicit: Thm 3.1 at the target beta gives (k, beta); Lemma 1.5 (second
    part) with |Sigma| = domain_size^n turns it into bits (or nats); the default is at most the
    best route over its documented grid of targets (25 points geometric in [1e-12, 0.3])."""
    from maxinfo_bounds.theorems.mutual_info import approx_dp_mutual_information, approx_max_information_to_mi

    e, d, n, size = 0.05, 1e-30, 100, 3
    for variant in ("sound", "paper"):
        for unit in ("bits", "nats"):
            b = approx_dp_max_information(e, d, n, beta=0.01, variant=variant)
            route = float(approx_max_information_to_mi(b.k, b.beta, size**n, variant=variant, unit=unit))
            assert approx_dp_mutual_information(e, d, n, size, beta=0.01, variant=variant, unit=unit) == route
        routes: dict[str, list[float]] = {"bits": [], "nats": []}
        for target in np.geomspace(1e-12, 0.3, 25):  # the documented grid of targets
            try:
                b = approx_dp_max_information(e, d, n, beta=float(target), variant=variant)
                both = {
                    unit: float(approx_max_information_to_mi(b.k, b.beta, size**n, variant=variant, unit=unit))
                    for unit in routes
                }
            except (InvalidParameter, RegimeError):  # a target out of reach or out of regime
                continue
            for unit in routes:
                routes[unit].append(both[unit])
        assert len(routes["bits"]) >= 5
        for unit in routes:  # nats: each route's bound in nats, not the bits figure relabelled
            assert approx_dp_mutual_information(e, d, n, size, variant=variant, unit=unit) == min(routes[unit])


def test_mi_to_max_information_variants_and_arrays():
    """Lemma 1.5 (first part): the variant is recorded; the paper's beta = (m + 0.54)/k is capped
    at 1 on arrays (m = 3, k = 2: 1.77 -> 1); 2-D arrays keep their shape."""
    assert mi_to_approx_max_information(1, 3).variant == "exact"
    assert mi_to_approx_max_information(1, 3, variant="paper").variant == "paper"
    assert mi_to_approx_max_information(np.array([3.0, 1.0]), np.array([2.0, 2.0]), variant="paper")[0] == 1.0
    two = mi_to_approx_max_information(np.array([[1.0, 0.5], [0.1, 2.0]]), np.array([[3.0, 3.0], [3.0, 3.0]]))
    assert two.shape == (2, 2) and two[0, 0] == mi_beta_exact(1.0, 3.0) and two[1, 0] == mi_beta_exact(0.1, 3.0)


def _refusal_text(call):
    with pytest.raises((InvalidParameter, RegimeError)) as exc:
        call()
    return str(exc.value)


def test_lemma_1_5_array_refusal_names_the_first_entry_outside():
    from maxinfo_bounds.theorems.mutual_info import approx_max_information_to_mi

    k, b = np.array([1.0, 1.0, 1.0]), np.array([0.01, 0.5, 0.6])
    assert _refusal_text(lambda: approx_max_information_to_mi(k, b, 4, variant="paper")) == (
        "RRST Lemma 1.5 (second part) does not apply: it requires 0 <= beta <= 3(1 - 2^-k)/20, got beta[1]=0.5"
    )
    assert _refusal_text(lambda: approx_max_information_to_mi(k, b, 4)) == (
        "RRST Lemma 1.5 (second part) does not apply: it requires beta/(1 - 2^-k) <= 1/e, got beta[1]=0.5"
    )
    # strict=False: the formula's values, no refusal; entry 0 is the certified scalar value or
    # just above it (the array path's rounding margin)
    out = approx_max_information_to_mi(k, b, 4, strict=False)
    one = approx_max_information_to_mi(1.0, 0.01, 4)
    assert one <= out[0] <= one * (1 + 1e-12)


def test_mi_k_float_edges():
    from maxinfo_bounds.theorems.mutual_info import mi_k_float

    # k = (m - (1 - beta) log2(1 - beta))/beta: beta = 1/2, m = 1: (1 + 1/2)/(1/2) = 3 (hand);
    # beta -> 0: inf; beta = 1: the curve's k is m - 0 ... the code's convention 0 (no k needed)
    assert mi_k_float(1.0, 0.5) == pytest.approx(3.0, rel=1e-15)
    assert mi_k_float(1.0, 0.0) == math.inf and mi_k_float(1.0, 1.0) == 0.0


def test_approx_dp_mutual_information_composes_thm31_and_lemma15_by_hand():
    """RRST Thm 3.1's (k, beta) for the selection, then Lemma 1.5 (second part) on X = the
    dataset, |Sigma| = 2^100 (n = 100 records of a 2-value domain), by its two formulas:
    sound: 2k ln 2 + w (ln|Sigma| + ln(1/w)) nats, w = beta/(1 - 2^-k);
    paper: 2k ln 2 + 2 beta log2(|Sigma|/(2 beta))/(1 - 2^-k), read in nats."""
    from maxinfo_bounds.theorems.mutual_info import approx_dp_mutual_information as mi

    b = approx_dp_max_information(0.05, 1e-30, 100, beta=0.01)
    w = b.beta / (1 - 2.0**-b.k)
    sound = 2 * b.k * math.log(2) + w * (100 * math.log(2) + math.log(1 / w))
    got = mi(0.05, 1e-30, 100, 2, beta=0.01)
    assert sound / math.log(2) <= got <= sound / math.log(2) * (1 + 1e-12)
    got_nats = mi(0.05, 1e-30, 100, 2, beta=0.01, unit="nats")
    assert sound <= got_nats <= sound * (1 + 1e-12)
    p = approx_dp_max_information(0.05, 1e-30, 100, beta=0.01, variant="paper")
    paper = 2 * p.k * math.log(2) + 2 * p.beta * (100 - math.log2(2 * p.beta)) / (1 - 2.0**-p.k)
    got_p = mi(0.05, 1e-30, 100, 2, beta=0.01, variant="paper")
    assert paper / math.log(2) <= got_p <= paper / math.log(2) * (1 + 1e-12)
    # without beta: the best over the grid of targets is never above the bound at beta = 0.01
    # (a grid point near it) by more than the grid's resolution, and is a bound of the same form
    assert mi(0.05, 1e-30, 100, 2) <= got * 1.01
    assert mi(0.05, 1e-30, 100, 2, variant="paper") <= got_p * 1.01
    # delta = 0.05 at n = 1000: Thm 3.1's beta >= 2 n sqrt(delta) >> 0.3 at every choice
    assert _refusal_text(lambda: mi(0.1, 0.05, 1000, 2)) == (
        "delta=0.05 is invalid: must be small enough that some beta <= 0.3 is reachable by "
        "RRST Thm 3.1 (roughly n sqrt(delta/eps) << 1)"
    )


def test_lemma_15b_regime_edges_are_exact():
    """RRST Lemma 1.5 (second part) at its edges, k = 1 (1 - 2^-k = 1/2). Sound variant:
    beta/(1/2) <= 1/e, i.e. beta <= 1/(2e) = 0.18393972058572116...; the float 0.5/math.e =
    0.18393972058572117 lies above it (float(1/e) rounds up) and is refused; the float below
    is accepted. Paper variant: beta <= 3/40; 0.075 (just below 3/40) and 3/40 itself are
    inside, the next float and 3/40 + 10^-30 outside. Arrays decide the same way."""
    import math

    from maxinfo_bounds.theorems.mutual_info import approx_max_information_to_mi as to_mi

    with mpmath.workdps(40):
        assert mpmath.mpf(0.5 / math.e) > 1 / (2 * mpmath.e) > mpmath.mpf(float(np.nextafter(0.5 / math.e, 0)))
    above, below = 0.5 / math.e, float(np.nextafter(0.5 / math.e, 0))
    for variant, inside, outside in [
        ("sound", [below, Fraction(1, 6)], [above, Fraction(3, 16)]),
        ("paper", [0.075, Fraction(3, 40)], [float(np.nextafter(0.075, 1)), Fraction(3, 40) + Fraction(1, 10**30)]),
    ]:
        for b in inside:
            assert np.isfinite(to_mi(1, b, 100, variant=variant))
        for b in outside:
            with pytest.raises(RegimeError, match="RRST Lemma 1.5"):
                to_mi(1, b, 100, variant=variant)
            assert np.isfinite(to_mi(1, b, 100, variant=variant, strict=False))
        fin, fout = [float(x) for x in inside[:1]], [float(x) for x in outside[:1]]
        assert np.all(np.isfinite(to_mi(np.ones(2), np.array([0.01, fin[0]]), 100, variant=variant)))
        with pytest.raises(RegimeError, match=r"got beta\[1\]="):
            to_mi(np.ones(2), np.array([0.01, fout[0]]), 100, variant=variant)
    # the refusal shows the value given (an exact Fraction stays exact)
    with pytest.raises(RegimeError, match=r"got beta=Fraction\(3, 16\)$"):
        to_mi(1, Fraction(3, 16), 100)
    # paper edge at k = 3: 3(1 - 1/8)/20 = 21/160 exactly (2^k, not 2k: at k = 1 they agree)
    assert np.isfinite(to_mi(3, Fraction(21, 160), 100, variant="paper"))
    with pytest.raises(RegimeError, match="RRST Lemma 1.5"):
        to_mi(3, Fraction(21, 160) + Fraction(1, 10**30), 100, variant="paper")
    # a non-integer k: the paper edge 3(1 - 2^-1.5)/20 = 0.0969669914110089... is irrational;
    # the floats either side of it (found here at 40 digits) are decided by its own edge,
    # not the sound variant's (1 - 2^-k)/e, which lies far above
    with mpmath.workdps(40):
        edge = 3 * (1 - mpmath.power(2, -1.5)) / 20
        lo = float(edge)
        lo = lo if mpmath.mpf(lo) < edge else float(np.nextafter(lo, 0))
        hi = float(np.nextafter(lo, 1))
        assert mpmath.mpf(lo) < edge < mpmath.mpf(hi)
    assert np.isfinite(to_mi(1.5, lo, 100, variant="paper"))
    with pytest.raises(RegimeError, match="RRST Lemma 1.5"):
        to_mi(1.5, hi, 100, variant="paper")


N = SWEEP


def test_lemma_1_5b_vectorised():
    rng = np.random.default_rng(42)
    k = log_uniform(rng, 1e-3, 100, N)
    om = -np.expm1(-k * math.log(2))
    beta = om * rng.uniform(0, 0.15, N)
    s = np.floor(log_uniform(rng, 1, 1e15, N))
    for variant in ("paper", "sound"):
        arr = approx_max_information_to_mi(k, beta, s, variant=variant, unit="nats")
        for i in range(0, N, 5):  # 2,000 points per variant
            with mpmath.workdps(DPS):
                K, B, S = mp(k[i]), mp(beta[i]), mpmath.mpf(int(s[i]))
                O = 1 - mpmath.power(2, -K)
                if B == 0:
                    ref = 2 * K * mpmath.log(2)
                elif variant == "paper":
                    ref = 2 * K * mpmath.log(2) + 2 * B * mpmath.log(S / (2 * B), 2) / O
                else:
                    ref = 2 * K * mpmath.log(2) + B / O * (mpmath.log(S) + mpmath.log(O / B))
            check_up(arr[i], ref, REL)


def test_corollary_1_6_does_not_follow_uniformly():
    """RRST Cor 1.6 (docs/errata.md): its O(.) bound on I(X; A(X)) drops the term the first part
    of Thm 3.1's beta (e^{-eps^2 n} at t = eps sqrt(2n)) contributes through Lemma 1.5's
    2 beta log(|Sigma|/2 beta)/(1 - 2^-k), |Sigma| = |X|^n. Inside the corollary's conditions
    (eps = 2/sqrt(n), delta = 1e-300 <= eps/n^2), the proof's bound over the stated expression
    grows without bound in log|X|; and at eps = 1/sqrt(n) Lemma 1.5's condition beta <= 3(1 -
    2^-k)/20 already fails. Thm 3.1 from the fuzz references (paper constants, its own t and
    delta_hat = sqrt(eps delta)/15), at 50 digits."""
    import mpmath

    from proofs_checks.fuzz import references as R

    n = 10**4
    with mpmath.workdps(50):

        def proof_and_claim(c: int, log_x: int) -> tuple[mpmath.mpf, mpmath.mpf, mpmath.mpf, mpmath.mpf]:
            eps, delta = mpmath.mpf(c) / mpmath.sqrt(n), mpmath.mpf(10) ** -300
            k, b = R.thm31(eps, delta, n, eps * mpmath.sqrt(2 * n), mpmath.sqrt(eps * delta) / 15, "paper")
            proof = 2 * k * mpmath.log(2) + 2 * b * (n * log_x - mpmath.log(2 * b, 2)) / (1 - mpmath.power(2, -k))
            claim = n * eps**2 + n * mpmath.sqrt(delta / eps) * (
                1 + mpmath.log(mpmath.sqrt(eps / delta) / n) + n * log_x
            )
            return proof, claim, b, 3 * (1 - mpmath.power(2, -k)) / 20

        _, _, b1, cond1 = proof_and_claim(1, 1)
        assert b1 >= mpmath.exp(-1) > cond1  # Lemma 1.5 (second part) does not apply at C = 1
        ratios = []
        for log_x in (1, 10**3, 10**6):
            proof, claim, b, cond = proof_and_claim(2, log_x)
            assert b <= cond  # Lemma 1.5 applies at C = 2
            ratios.append(proof / claim)
        assert 800 < ratios[0] * 4 < 820 and ratios[2] > 10**7 and ratios[2] > 4 * 10**5 * ratios[0]


@pytest.mark.parametrize(("alpha", "m"), [(1e-300, 1e60), (0.05, 1e307), (1e-300, 1e300)])
def test_mi_correction_beyond_the_floats_is_zero(alpha, m):
    """m/alpha above 1e308: Cor C.2's k_paper = 2(m + 0.54)/alpha is inf in floats (its search
    ran on inf bounds and asked beta* at k = NaN, which raised). Any k >= m/alpha gives
    gamma <= alpha 2^-k, below the smallest float: 0, from the closed form, with no k."""
    assert mi_pvalue_choice(alpha, m) == (0.0, None, None)
    assert mi_pvalue_correction(alpha, m) == 0.0


@pytest.mark.slow  # the 50-digit reference: 8 s
def test_mi_correction_at_tiny_alpha_and_m():
    """alpha = m = 1e-156: the optimal k is 3.24 (beta*(k) = 5.55e-157 < alpha), but the range
    searched for it runs to 4 k_paper = 4.3e156. Two failures, both found by the planner's
    fuzz: the float beta* at k just below log2 e, where f_k's minimum is 0 to within rounding
    and so not below m, raised "f(a) and f(b) must have different signs"; and Brent on k itself
    never came near k = 3.24, so the correction was 0. Now the search also runs in ln k, and
    the result is the fuzz references' 50-digit supremum 4.69536436420570e-158 to 1e-12."""
    from proofs_checks.fuzz import references as R

    with mpmath.workdps(50):
        ref = R.mi_pvalue_optimal(mpmath.mpf(1e-156), mpmath.mpf(1e-156))
        got = mi_pvalue_choice(1e-156, 1e-156)
        assert mpmath.nstr(ref, 15) == "4.6953643642057e-158"
        assert ref * (1 - mpmath.mpf("1e-12")) <= mpmath.mpf(got.gamma) <= ref
        assert 3.2 < got.k < 3.3
