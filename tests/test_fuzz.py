"""A fast slice of the fuzz campaign (``proofs-checks run fuzz``; figures in docs/verification.md).

Property tests (Hypothesis) hold the certified scalar and array paths against the independent
70-digit references of :mod:`proofs_checks.fuzz.references` over extreme inputs (subnormals,
Fractions, integers above 2^53); one test runs every case of the campaign on a few points.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import maxinfo_bounds as mb
from maxinfo_bounds.numeric import float_down, float_up
from proofs_checks.fuzz import campaign, cases
from proofs_checks.fuzz import references as R

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# positive floats over the whole range, subnormals included
tiny_to_one = st.floats(min_value=5e-324, max_value=1.0, exclude_max=True)
unit = st.floats(min_value=0.0, max_value=1.0)
eps_range = st.floats(min_value=1e-12, max_value=50.0)
big_n = st.integers(min_value=1, max_value=10**18)


def exact(x: object) -> object:
    with mpmath.workdps(R.DPS):
        return R.exact(x)


def at_or_above(result: float, ref: object) -> bool:
    return bool(mpmath.mpf(result) >= ref)


def at_or_below(result: float, ref: object) -> bool:
    return bool(mpmath.mpf(result) <= ref)


@SETTINGS
@given(unit, st.one_of(st.floats(min_value=0.0, max_value=5e3), st.integers(0, 10**500)), unit)
def test_pvalue_correction_never_above_the_truth(alpha: float, k: float, beta: float) -> None:
    with mpmath.workdps(R.DPS):
        ref = R.pvalue(exact(alpha), exact(k), exact(beta))
    assert at_or_below(mb.pvalue_correction(alpha, k, beta), ref)


@SETTINGS
@given(eps_range, big_n, tiny_to_one)
def test_pure_dp_product_pair_is_valid_for_big_n_and_subnormal_beta(eps: float, n: int, beta: float) -> None:
    b = mb.pure_dp_max_information_product(eps, n, beta)
    assert b.beta <= beta
    with mpmath.workdps(R.DPS):
        assert at_or_above(b.k, R.pure_dp_product(exact(eps), exact(n), exact(b.beta)))
    if n <= 2**53:
        arr = mb.pure_dp_max_information_product(np.array([eps]), np.array([n]), np.array([beta]))
        assert np.isfinite(arr[0])
        with mpmath.workdps(R.DPS):
            assert at_or_above(float(arr[0]), R.pure_dp_product(exact(eps), exact(n), exact(beta)))


@SETTINGS
@given(st.integers(1, 10**6), st.integers(3, 10**6), big_n)
def test_pure_dp_fraction_eps_is_not_rounded_to_nearest(p: int, q: int, n: int) -> None:
    eps = Fraction(p, q)
    with mpmath.workdps(R.DPS):
        assert at_or_above(mb.pure_dp_max_information(eps, n).k, R.pure_dp(exact(eps), exact(n)))


@SETTINGS
@given(
    st.floats(min_value=1e-9, max_value=0.5),
    st.floats(min_value=1e-300, max_value=1.0),
    st.integers(1, 10**12),
    st.floats(min_value=1e-3, max_value=40.0),
    st.floats(min_value=1e-12, max_value=1.0),
)
def test_thm31_scalar_and_array_paths_are_upper_bounds(
    eps: float, dfrac: float, n: int, t: float, dhfrac: float
) -> None:
    delta, dh = eps * dfrac * 0.999, eps * dhfrac
    with mpmath.workdps(R.DPS):
        try:
            k_ref, b_ref = R.thm31(exact(eps), exact(delta), exact(n), exact(t), exact(dh), "sound")
        except R.Outside:
            return
    b = mb.approx_dp_max_information(eps, delta, n, t=t, delta_hat=dh)
    assert at_or_above(b.k, k_ref) and at_or_above(b.beta, b_ref)
    ka, ba = mb.approx_dp_max_information(
        np.array([eps]), np.array([delta]), np.array([n]), t=np.array([t]), delta_hat=np.array([dh])
    )
    assert at_or_above(float(ka[0]), k_ref) and at_or_above(float(ba[0]), b_ref)
    with mpmath.workdps(R.DPS):  # the array margin is no wider than needed
        assert float(ka[0]) <= k_ref * (1 + mpmath.mpf(2) ** -40) + mpmath.mpf(2) ** -1000


def test_thm31_array_path_near_lemma_37_singularity() -> None:
    """The issue's reproducer: the array path was 1.6e-4 below the certified scalar value."""
    kw = {"t": np.array([3.0]), "delta_hat": np.array([0.07975873318666522])}
    ka, _ = mb.approx_dp_max_information(np.array([0.5]), np.array([1e-300]), np.array([1.0]), **kw)
    with mpmath.workdps(R.DPS):
        k_ref, _ = R.thm31(exact(0.5), exact(1e-300), exact(1), exact(3.0), exact(0.07975873318666522), "sound")
    assert float(ka[0]) >= k_ref and 157.7187 < float(ka[0]) < 157.7188


@SETTINGS
@given(unit, st.one_of(st.just(0.0), st.floats(min_value=5e-324, max_value=1e4)))
def test_russo_zou_is_a_valid_threshold_and_never_crashes(alpha: float, m: float) -> None:
    """Valid (at or below the 60-digit root) and tight: the next float up is above the root.
    So the float root finder inside only steers the certified search: what it returns is fixed
    by the root, whatever the estimate."""
    g = mb.russo_zou_pvalue_correction(alpha, m)
    with mpmath.workdps(R.DPS):
        ref = R.russo_zou(exact(alpha), exact(m))
        assert at_or_below(g, ref)
        # (the reference root is good to ~1e-55 relative: a root that close to a float may read above it)
        assert mpmath.mpf(math.nextafter(g, math.inf)) >= ref * (1 - mpmath.mpf(10) ** -50)


@SETTINGS
@given(
    st.floats(min_value=0.0, max_value=1e4),
    tiny_to_one,
    st.floats(min_value=1e-6, max_value=10.0),
    st.integers(1, 2**53),
)
def test_hoeffding_array_margin_applies_to_the_exponential_only(k: float, beta: float, tau: float, n: int) -> None:
    with mpmath.workdps(R.DPS):
        ref = R.hoeffding(exact(k), exact(beta), exact(tau), exact(n))
    out = float(mb.hoeffding_transfer(np.array([k]), np.array([beta]), np.array([tau]), np.array([n]))[0])
    assert at_or_above(out, ref)
    with mpmath.workdps(R.DPS):
        assert out <= ref * (1 + mpmath.mpf(10) ** -12) + mpmath.mpf(2) ** -1060


# the campaign's worst array points of the last full run (slack 3.2e-12, 6.6e-12 and 1.1e-12
# with the float exponent: k of thousands of bits nearly cancelled by the tail), and a point
# whose exponent's addends are 8e17 nats: within 1e-12 of the 60-digit reference, on the
# right side
TAIL_POINTS = [
    ("hoeffding", (2454.8374874224482, 8.67712026797626e-203, 0.012007248008593173, 7351388)),
    ("paper", (5208.6183662927215, 1.1721619696361004e-250, 238.99908667925234, 15326, 0.04535481070561796)),
    ("sound", (453.82521350652775, 2.685458436622462e-230, 16.162923080503603, 41470, 0.0040193398012905775)),
    # addends of 8e17 nats (k = 2^60 bits), exponent -264.08: beyond the double-double
    # margin's reach, certified by the scalar path
    ("hoeffding", (2.0**60, 0.0, 9.419280180123799, 2**52)),
]


@pytest.mark.parametrize("kind, x", TAIL_POINTS)
def test_tail_bound_arrays_within_1e_12_where_the_exponent_cancels(kind: str, x: tuple) -> None:
    with mpmath.workdps(R.DPS):
        ex = [exact(v) for v in x]
        ref = R.hoeffding(*ex) if kind == "hoeffding" else R.mcdiarmid(*ex, kind)
        ref = min(ref, mpmath.mpf(1))
    arrs = [np.array([v, v]) for v in x]
    out = mb.hoeffding_transfer(*arrs) if kind == "hoeffding" else mb.mcdiarmid_transfer(*arrs, variant=kind)
    assert out[0] == out[1]
    with mpmath.workdps(R.DPS):
        assert ref <= mpmath.mpf(float(out[0])) <= ref * (1 + mpmath.mpf(10) ** -12), (float(out[0]), ref)


def test_double_double_exponent_against_60_digits() -> None:
    """The double-double context (arith.DOUBLE_DOUBLE) keeps k ln 2 - 2 tau^2/(n s^2) to well
    within DD_EXP_MARGIN (2^-96 per nat of the addends) on random cancelling inputs."""
    from maxinfo_bounds.arith import _DD
    from maxinfo_bounds.arith import DOUBLE_DOUBLE as C
    from maxinfo_bounds.numeric import DD_EXP_MARGIN

    rng = np.random.default_rng(15)
    k = np.exp(rng.uniform(0, 25, 200))
    n = np.floor(np.exp(rng.uniform(0, 30, 200)))
    s = np.exp(rng.uniform(-10, 0, 200))
    tau = np.sqrt(k * math.log(2) * n * s * s / 2) * (1 + rng.uniform(-1e-6, 1e-6, 200))
    e = _DD.of(k) * C.ln2 - 2 * _DD.of(tau) * tau / (_DD.of(n) * s * s)
    with mpmath.workdps(60):
        for i in range(200):
            ki, ti, ni, si = (mpmath.mpf(float(a[i])) for a in (k, tau, n, s))
            ref = ki * mpmath.log(2) - 2 * ti * ti / (ni * si * si)
            size = ki * mpmath.log(2) + 2 * ti * ti / (ni * si * si)
            err = abs(mpmath.mpf(float(e.hi[i])) + mpmath.mpf(float(e.lo[i])) - ref)
            assert err <= size * DD_EXP_MARGIN / 16, (i, err, size)


@pytest.mark.parametrize("x", [3.538e-321, 1e-310, 2.0**-1074 * 5])
def test_directed_rounding_under_gradual_underflow(x: float) -> None:
    with mpmath.workdps(60):
        v = mpmath.mpf(x) / 3
        assert mpmath.mpf(float_down(v)) <= v <= mpmath.mpf(float_up(v))
        assert math.nextafter(float_down(v), 1.0) == float_up(v)


def test_issue_reproducers() -> None:
    from maxinfo_bounds.theorems import dp_accounting as dp

    assert mb.pvalue_correction(0.05, 10**400, 0.0) == 0.0  # was OverflowError
    assert mb.hoeffding_transfer(0.0, 0.0, 1.0, 373) > 0.0  # 2e^{-746}: not 0
    assert dp.laplace_epsilon(1e-200, 1e200) > 0.0  # 1e-400 rounds up
    assert mb.russo_zou_pvalue_correction(1e-200, 1.0) == 0.0  # was ZeroDivisionError
    assert 0.49 < mb.russo_zou_pvalue_correction(0.9, 1e-30) < 0.5  # was ComplexResult
    assert dp.sparse_vector(10**18 + 1, 2.0, 4.0).eps == 1.0000000000000001e18  # was MemoryError
    with mpmath.workdps(R.DPS):  # Lemma 1.5's exact beta for a subnormal m (brentq stalled)
        for m, k in ((2.225073858507e-311, 57.44768809263385), (1.8684729720230604e-297, 442893.7)):
            b = mb.mi_to_approx_max_information(m, k).beta
            ref = R.mi_beta_star(exact(m), exact(k))
            assert ref <= b <= ref * (1 + mpmath.mpf(10) ** -9)
    with mpmath.workdps(R.DPS):  # Fractions read exactly, not to the nearest float (an ulp
        # below the reference before): Lemma 1.5's exact beta and sparse vector's scales
        m, k = Fraction(1, 84337740885), Fraction(299573, 307321)
        b = mb.mi_to_approx_max_information(m, k)
        ref = R.mi_beta_star(exact(m), exact(k))
        assert ref <= b.beta <= ref * (1 + mpmath.mpf(10) ** -15)
        assert b.k >= exact(k)
        for c, e, s in (
            (187145248, Fraction(1, 704499), Fraction(5923393, 531147)),
            (429958, Fraction(1, 25000189), Fraction(103772386, 68037)),
        ):
            out = dp.sparse_vector_scales(c, e, sensitivity=s)
            refs = R.sparse_vector_scales(c, exact(e), exact(s), exact(0))
            assert all(r <= v <= r * (1 + mpmath.mpf(10) ** -14) for v, r in zip(out, refs))
    with mpmath.workdps(R.DPS):
        g = mb.pvalue_correction(3.538e-321, 8.284927787344327e-05, 0.0)
        assert at_or_below(g, R.pvalue(exact(3.538e-321), exact(8.284927787344327e-05), exact(0.0)))


def test_every_catalog_entry_has_a_fuzz_case() -> None:
    """Each catalog id names at least one case (a case's name starts with its id), so no
    evaluator of the catalog escapes the campaign's independent references."""
    from maxinfo_bounds.catalog import REGISTRY

    ids = {c.name.split()[0] for c in cases.CASES}
    assert sorted(set(REGISTRY) - ids) == []


def test_every_fuzz_case_on_a_few_points() -> None:
    """The campaign's own runner on every case (a handful of points each): no failure class."""
    cheap = [i for i, c in enumerate(cases.CASES) if c.weight >= 0.3]
    for i in cheap:
        r = campaign.run_chunk(i, 0, 12, seed=7)
        bad = {p: {k: v for k, v in cnt.items() if k in campaign.FAILURES and v} for p, cnt in r["counts"].items()}
        assert not any(bad.values()), (cases.CASES[i].name, bad, r["examples"])


def test_kov_tiny_per_step_delta_and_exact_inputs() -> None:
    from maxinfo_bounds.theorems import dp_accounting as dp

    # 1 - (1 - 1e-50)^100 = 1e-48 cancels in 1 - (1-d)^k at any working precision below 170
    # bits: the certified floor used to be ~1e-28 and the call was refused (issue 15)
    g = dp.optimal_composition(0.1, 1e-50, 100, 1e-45)
    with mpmath.workdps(R.DPS):
        ref = R.kov_eps(exact(0.1), exact(1e-50), 100, exact(1e-45))
        assert ref <= g.eps <= ref * (1 + mpmath.mpf(10) ** -13)
        assert mpmath.mpf(10) < ref  # e^{k fl(0.1)}: fl(0.1) > 1/10
    # Fractions are read exactly (were rounded to the nearest float first)
    e, d, dt = Fraction(52487, 811769), Fraction(1, 10**60), Fraction(1, 3 * 10**21)
    g = dp.optimal_composition(e, d, 1, dt)
    with mpmath.workdps(R.DPS):
        assert at_or_above(g.eps, R.kov_eps(exact(e), exact(d), 1, exact(dt)))
    assert g.delta <= dt  # the reported delta is the verified one, not above


def test_thm31_beta_target_near_one_and_tiny_eps_is_reached() -> None:
    # t is tiny for a target near 1: a relative nudge of t no longer kept beta within it
    for v in ("paper", "sound"):
        b = mb.approx_dp_max_information(
            1.2549071787633683e-09, 5.765980116420176e-193, 4, beta=0.9999999999999993, variant=v
        )
        assert b.beta <= 0.9999999999999993
        # eps = 1e-10 with a target was refused (a float surrogate computed expm1(3 eps)^2
        # as e^{6eps} - 2e^{3eps} + 1 = 0). By hand, the t-term alone at t = sqrt(2 ln 1000):
        # 6 eps t sqrt(n) = 7.06e-8 (paper); 6 eps log2(e) t sqrt(n) = 1.0175e-7 (sound)
        b = mb.approx_dp_max_information(1e-10, 1e-30, 1000, beta=1e-3, variant=v)
        assert b.beta <= 1e-3
        assert (7.06e-8 < b.k < 7.3e-8) if v == "paper" else (1.0174e-7 < b.k < 1.0176e-7)


@pytest.mark.parametrize("e, d, k, dt", [(0.001, 0.0, 5000, 1e-6), (0.01, 1e-10, 4000, 1e-5), (0.2, 0.0, 6000, 1e-9)])
def test_kov_significant_terms_only_is_exact_and_tight(e: float, d: float, k: int, dt: float) -> None:
    """At these k the certified sums start thousands of terms above l = 0 and bound the rest
    by a geometric series (issue 17): the returned eps is valid and within 1e-13 of optimal,
    held against the 70-digit term-by-term sum of all terms."""
    from maxinfo_bounds.theorems import dp_accounting as dp

    g = dp.optimal_composition(e, d, k, dt).eps
    with mpmath.workdps(R.DPS):
        ex = (exact(e), exact(d), k)
        assert R.kov_delta(*ex, exact(g)) <= exact(dt)
        assert R.kov_delta(*ex, exact(g) * (1 - mpmath.mpf(10) ** -13)) > exact(dt)


def test_input_kinds_and_caller_states_are_exercised() -> None:
    """Issue 46: every point is drawn in one of the campaign's kinds: float, Fraction, big
    integer, numpy scalars, float32, a longdouble no double holds, and plain floats evaluated
    at the caller's mp.dps = 3 or while another thread changes mpmath's precision. A case with
    real and integer inputs gets all of them, and none fails."""
    i = next(j for j, c in enumerate(cases.CASES) if c.name.startswith("RRST-1.4b"))
    r = campaign.run_chunk(i, 0, 400, seed=46)
    kinds = set(campaign.KINDS) - ({"longdouble"} if np.finfo(np.longdouble).nmant <= 52 else set())
    assert {k for k, v in r["kinds"].items() if v} == kinds
    bad = {p: {k: v for k, v in cnt.items() if k in campaign.FAILURES and v} for p, cnt in r["counts"].items()}
    assert not any(bad.values()), (bad, r["examples"])


def test_the_allocation_checks_at_least_the_points_asked():
    """The campaign's per-case allocation rounds up: 10^6 points asked are at least 10^6 checked
    (rounding to nearest gave 999,995)."""
    from proofs_checks.fuzz.campaign import _allocation

    for points in (1000, 10**5, 10**6):
        assert sum(_allocation(points)) >= points


def test_classification_ignores_a_leaked_global_precision():
    """The campaign judges at the references' precision whatever the global mpmath precision is,
    and every caller state returns to mpmath's default (53 bits), never to a saved value that a
    race of the noise thread could have corrupted (the first full run with every input kind
    reported 152 false wrong-side results after one such race left mp.dps at 3)."""
    import mpmath

    from proofs_checks.fuzz import campaign
    from proofs_checks.fuzz import references as R

    case = next(c for c in campaign.CASES if c.name.startswith("RRST-3.1 approx_dp_max_information paper"))
    with mpmath.workdps(R.DPS):
        r = mpmath.mpf("0.00032428429037080931029")
    out = (0.00032428429037080936, 0.9952886672606683)  # the float at or above each reference
    with mpmath.workdps(R.DPS):
        r2 = mpmath.mpf("0.99528866726066833289")
    saved = mpmath.mp.prec
    try:
        mpmath.mp.dps = 3
        assert campaign._classify(case, out, (r, r2))[0] == "ok"
        assert campaign._classify(case, (0.0003242842903708093, out[1]), (r, r2))[0] == "wrong_side"
    finally:
        mpmath.mp.prec = saved
    # a caller state leaves the default precision behind, whatever it found
    mpmath.mp.dps = 3
    try:
        campaign._call(case, "dps3", {"eps": 0.1, "delta": 1e-9, "n": 100, "t": 1.0, "delta_hat": 1e-6}, None)
        assert mpmath.mp.prec == 53 and mpmath.iv.prec == 53
    finally:
        mpmath.mp.prec = saved
