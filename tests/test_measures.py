"""Tests of maxinfo_bounds.measures.

Expected values carry their provenance: "hand" (computed on paper, shown in the comment),
"brute force" (proofs_checks.bruteforce: every one of the 2^N events), or "50-digit mpmath".
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction as F

import mpmath
import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from maxinfo_bounds import InvalidParameter
from maxinfo_bounds.measures import (
    approx_max_divergence,
    approx_max_information,
    dp_delta,
    dp_epsilon,
    hockey_stick,
    is_indistinguishable,
    is_pointwise_indistinguishable,
    kl_divergence,
    log_ratio_tail,
    max_divergence,
    max_information,
    mutual_information,
    tv_distance,
)
from proofs_checks.bruteforce import hockey_stick_all_events, sup_ratio_all_events

from .strategies import betas, exact_dist, exact_joint, exact_pair, exact_stochastic

# Randomized response with e^eps = 3 (eps = ln 3): keep the bit w.p. 3/4.
RR = [[F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]]
# Its joint table with a uniform input bit.
RR_JOINT = [[F(3, 8), F(1, 8)], [F(1, 8), F(3, 8)]]


def _floats(rows):
    return np.array([[float(x) for x in r] for r in rows])


# ------------------------------------------------------------------------------------------
# known values (hand computations)


class TestRandomizedResponseByHand:
    def test_max_information(self):
        # P(x,y)/(P(x)P(y)) = (3/8)/(1/4) = 3/2 on the diagonal: log2(3/2) bits
        r = max_information(RR_JOINT)
        assert r.ratio == F(3, 2)
        assert max_information(_floats(RR_JOINT)) == pytest.approx(math.log2(1.5), rel=1e-15)

    def test_approx_max_information_at_beta(self):
        # beta = 1/8: best event is the diagonal, (3/4 - 1/8)/(1/2) = 5/4 (hand);
        # a single diagonal cell gives (3/8 - 1/8)/(1/4) = 1, worse.
        assert approx_max_information(RR_JOINT, F(1, 8)).ratio == F(5, 4)
        # beta = 3/4: the whole space, (1 - 3/4)/1 = 1/4 -> -2 bits (hand)
        assert approx_max_information(RR_JOINT, F(3, 4)).ratio == F(1, 4)
        assert float(approx_max_information(RR_JOINT, F(3, 4))) == -2.0

    def test_mutual_information(self):
        # I = 1 - h(1/4) = 1 + (3/4)log2(3/4) + (1/4)log2(1/4) = 0.18872187554086716... (50 digits)
        mpmath.mp.dps = 50
        ref = (
            1
            + mpmath.mpf(3) / 4 * mpmath.log(mpmath.mpf(3) / 4, 2)
            + mpmath.mpf(1) / 4 * mpmath.log(mpmath.mpf(1) / 4, 2)
        )
        exact = mutual_information(RR_JOINT, dps=40)
        assert abs(exact - ref) < mpmath.mpf(10) ** -38
        assert mutual_information(_floats(RR_JOINT)) == pytest.approx(float(ref), rel=1e-14)
        nats = mutual_information(_floats(RR_JOINT), unit="nats")
        assert nats == pytest.approx(float(ref * mpmath.log(2)), rel=1e-14)

    def test_dp_parameters(self):
        assert dp_epsilon(RR, 0, [(0, 1)]).ratio == 3  # e^eps = 3 (hand)
        assert dp_epsilon(_floats(RR), 0.0, [(0, 1)]) == pytest.approx(math.log(3), rel=1e-15)
        assert dp_delta(RR, 0, [(0, 1)]) == F(1, 2)  # TV distance (hand)
        # eps = ln 2: delta = 3/4 - 2 * 1/4 = 1/4 (hand)
        d = dp_delta(RR, F(0), [(0, 1)])
        assert d == F(1, 2)
        mpmath.mp.dps = 50
        d2 = dp_delta(RR, math.log(2), [(0, 1)], dps=40)
        # eps is the float ln 2 (below ln 2 by 2.3e-17): delta = 3/4 - e^eps/4, 50 digits
        eps_exact = mpmath.mpf(F(math.log(2)).numerator) / F(math.log(2)).denominator
        assert abs(d2 - (mpmath.mpf(3) / 4 - mpmath.exp(eps_exact) / 4)) < mpmath.mpf(10) ** -38

    def test_tv_kl_hockey(self):
        a, b = RR
        assert tv_distance(a, b) == F(1, 2)
        assert hockey_stick(a, b, 2) == F(1, 4)  # 3/4 - 2/4 (hand)
        assert hockey_stick(_floats(RR)[0], _floats(RR)[1], 2.0) == 0.25
        # KL = (3/4)log2 3 + (1/4)log2(1/3) = (1/2) log2 3 (hand)
        assert kl_divergence(_floats(RR)[0], _floats(RR)[1]) == pytest.approx(0.5 * math.log2(3), rel=1e-15)


# ------------------------------------------------------------------------------------------
# the fast algorithm equals the supremum over all 2^N events (N <= 12)


@given(exact_pair(max_n=12), betas)
@example(([F(1)], [F(1)]), F(0))
@example(([F(1, 2), F(1, 2)], [F(1), F(0)]), F(1, 2))  # P(O) = beta exactly where Q(O) = 0
@example(([F(1, 2), F(1, 2)], [F(1), F(0)]), F(49, 100))  # unbounded
def test_exact_equals_brute_force(pq, beta):
    p, q = pq
    brute = sup_ratio_all_events(p, q, beta)  # brute force over all 2^N events
    got = approx_max_divergence(p, q, beta)
    assert got.ratio == brute


@given(exact_pair(max_n=12), st.lists(betas, min_size=1, max_size=8))
def test_float_paths_match_brute_force(pq, bl):
    p, q = pq
    pf, qf = [float(x) for x in p], [float(x) for x in q]
    many = approx_max_divergence(pf, qf, np.array([float(b) for b in bl]))
    for b, k_many in zip(bl, many):
        ref = sup_ratio_all_events(p, q, b)  # brute force
        k_one = approx_max_divergence(pf, qf, float(b))
        for k in (k_one, float(k_many)):
            if ref is None:
                assert k == math.inf
            elif ref == 0:
                assert k == -math.inf
            else:
                assert k == pytest.approx(math.log2(ref), rel=1e-12, abs=1e-12)


def test_exhaustive_small_supports():
    """Every table with entries in {0, 1/4, ..., 1} on N <= 3 points, every beta in (1/8)Z."""
    grid = [F(i, 4) for i in range(5)]
    for n in (1, 2, 3):
        dists = [d for d in itertools.product(grid, repeat=n) if sum(d) == 1]
        for p in dists:
            for q in dists:
                for b in [F(i, 8) for i in range(8)]:
                    assert approx_max_divergence(list(p), list(q), b).ratio == sup_ratio_all_events(p, q, b)


@given(exact_pair(max_n=10), st.fractions(min_value=0, max_value=8, max_denominator=16))
def test_hockey_stick_is_sup_over_events(pq, c):
    p, q = pq
    assert hockey_stick(p, q, c) == hockey_stick_all_events(p, q, c)  # brute force


def test_float_paths_by_hand_on_an_asymmetric_pair():
    """Float paths of tv_distance and hockey_stick on a pair where P and Q cannot be swapped
    unnoticed (a symmetric pair hides a swap; the exact-mode tests do not reach the float path)."""
    p, q = [0.5, 0.3, 0.2], [0.1, 0.2, 0.7]
    # hand: |0.4| + |0.1| + |-0.5| = 1, halved
    assert tv_distance(p, q) == pytest.approx(0.5, rel=1e-15)
    assert tv_distance([0.75, 0.25], [0.25, 0.75]) == pytest.approx(0.5, rel=1e-15)
    # hand: max(0, 0.5 - 0.15) + max(0, 0.3 - 0.3) + max(0, 0.2 - 1.05) = 0.35;
    # swapped (Q against P): 0 + 0 + (0.7 - 0.3) = 0.4
    assert hockey_stick(p, q, 1.5) == pytest.approx(0.35, rel=1e-14)
    assert hockey_stick(q, p, 1.5) == pytest.approx(0.4, rel=1e-14)
    assert hockey_stick(p, q, 0.0) == pytest.approx(1.0, rel=1e-15)  # c = 0: all of P


# ------------------------------------------------------------------------------------------
# large tables: the partial-sort path against an independent characterisation


def _hockey(p, q, c):
    return float(np.sum(np.maximum(p - c * q, 0.0)))


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("beta", [0.0, 1e-6, 1e-3, 0.05, 0.4, 0.9])
def test_large_table_meets_hockey_stick_characterisation(seed, beta):
    """c* = 2^k is the least c with H_c <= beta: H at c* is <= beta, H just below c* is > beta."""
    rng = np.random.default_rng(seed)
    J = rng.dirichlet(np.full(40000, 0.3)).reshape(5000, 8)
    k = approx_max_information(J, beta)
    p = J.ravel()
    q = np.multiply.outer(J.sum(axis=1), J.sum(axis=0)).ravel()
    c = 2.0**k
    assert _hockey(p, q, c * (1 + 1e-9)) <= beta + 1e-12
    assert _hockey(p, q, c * (1 - 1e-9)) > beta - 1e-12
    # and the many-beta path agrees with the one-beta path
    many = approx_max_information(J, np.array([beta, 0.5]))
    assert many[0] == pytest.approx(k, rel=1e-12, abs=1e-12)


def test_large_table_with_heavy_ties():
    """A mechanism table (randomized response on 14 bits, output = noisy first bit): many ties."""
    n_rows = 1 << 14
    J = np.zeros((n_rows, 2))
    first = (np.arange(n_rows) >> 13) & 1
    J[np.arange(n_rows), first] = 0.75 / n_rows
    J[np.arange(n_rows), 1 - first] = 0.25 / n_rows
    # same values as the 2x2 table (the other 13 bits are independent of the output): hand
    assert approx_max_information(J) == pytest.approx(math.log2(1.5), rel=1e-14)
    assert approx_max_information(J, 0.125) == pytest.approx(math.log2(1.25), rel=1e-12)


# ------------------------------------------------------------------------------------------
# structural properties


@given(exact_pair(max_n=8), st.lists(betas, min_size=2, max_size=6))
def test_non_increasing_in_beta(pq, bl):
    p, q = pq
    vals = [approx_max_divergence(p, q, b) for b in sorted(bl)]
    for a, b in zip(vals, vals[1:]):
        ra = math.inf if a.ratio is None else a.ratio
        rb = math.inf if b.ratio is None else b.ratio
        assert rb <= ra


@given(exact_dist(4), exact_dist(3), betas)
def test_product_table(px, py, beta):
    """X independent of Y: I_inf = 0; I^beta = log2(1 - beta) (best event: the whole space)."""
    J = [[a * b for b in py] for a in px]
    assert approx_max_information(J, 0).ratio == 1
    assert approx_max_information(J, beta).ratio == 1 - beta


@given(exact_joint(), exact_stochastic(4, 3), betas)
def test_data_processing(J, K, beta):
    """Post-processing Y by any stochastic matrix never increases I^beta."""
    ncols = len(J[0])
    K = K[:ncols]
    J2 = [[sum((J[x][y] * K[y][z] for y in range(ncols)), F(0)) for z in range(3)] for x in range(len(J))]
    before = approx_max_information(J, beta).ratio
    after = approx_max_information(J2, beta).ratio
    assert after <= before


@given(exact_joint(), betas)
def test_symmetry(J, beta):
    JT = [list(c) for c in zip(*J)]
    assert approx_max_information(J, beta).ratio == approx_max_information(JT, beta).ratio


@given(exact_joint())
def test_max_information_dominates_mutual_information(J):
    mi = mutual_information(J, dps=30)
    mx = max_information(J).value(dps=30)
    assert mi <= mx + mpmath.mpf(10) ** -25


@given(exact_joint(), st.floats(min_value=-3, max_value=3))
def test_lemma_3_2(J, k):
    """RRST Lemma 3.2: if Pr[Z >= k] <= beta then I^beta_inf <= k (Z the information density)."""
    Jf = _floats(J)
    beta = log_ratio_tail(Jf, k)
    if beta >= 1:
        return
    val = approx_max_information(Jf, beta)
    assert val <= k + 1e-12


def test_log_ratio_tail_by_hand():
    # Z = log2(3/2) with prob 3/4 and log2(1/2) = -1 with prob 1/4 (hand)
    J = _floats(RR_JOINT)
    assert log_ratio_tail(J, -1.0) == 1.0
    assert log_ratio_tail(J, 0.0) == 0.75
    assert log_ratio_tail(J, 0.6) == 0.0
    # the infinite thresholds (hand: Z is finite wherever P(x,y) > 0)
    assert log_ratio_tail(J, -math.inf) == 1.0 and log_ratio_tail(J, math.inf) == 0.0
    assert log_ratio_tail(J, [-math.inf, 0.0, math.inf]).tolist() == [1.0, 0.75, 0.0]


@pytest.mark.parametrize(
    ("k", "text"),
    [
        (math.nan, "k=nan is invalid: must be real numbers or +-inf, not NaN"),
        (None, "k=None is invalid: must be real numbers or +-inf, not NaN"),
        ([0.5, math.nan], "k=nan is invalid: must be real numbers or +-inf, not NaN"),
        ("abc", "k='abc' is invalid: must be real numbers or +-inf (thresholds"),
        (1j, "k=1j is invalid: must be real numbers or +-inf (thresholds"),
    ],
)
def test_log_ratio_tail_refuses_nan_thresholds(k, text):
    # a NaN threshold was answered 0.0 (the search reads NaN as past every Z)
    with pytest.raises(InvalidParameter) as err:
        log_ratio_tail(_floats(RR_JOINT), k)
    assert text in str(err.value)


# ------------------------------------------------------------------------------------------
# differential privacy of mechanism matrices


def _all_neighbor_pairs(m):
    return [(i, j) for i in range(m) for j in range(i + 1, m)]


@given(exact_stochastic(3, 4), st.sampled_from([0, F(1, 2), 1, F(3, 2)]))
def test_dp_delta_matches_direct_check(M, eps):
    """dp_delta = max over ordered pairs and all output sets O of M_i(O) - e^eps M_j(O)."""
    pairs = _all_neighbor_pairs(3)
    mpmath.mp.dps = 40
    c = mpmath.exp(mpmath.mpf(eps.numerator) / eps.denominator) if eps else 1
    direct = mpmath.mpf(0)
    for i, j in pairs + [(j, i) for i, j in pairs]:
        for mask in itertools.product((0, 1), repeat=4):
            a = sum((M[i][y] for y in range(4) if mask[y]), F(0))
            b = sum((M[j][y] for y in range(4) if mask[y]), F(0))
            direct = max(
                direct, mpmath.mpf(a.numerator) / a.denominator - c * (mpmath.mpf(b.numerator) / b.denominator)
            )
    got = dp_delta(M, eps, pairs, dps=30)
    if isinstance(got, F):  # eps = 0: exact rational result
        got = mpmath.mpf(got.numerator) / got.denominator
    assert abs(got - direct) < mpmath.mpf(10) ** -25
    gf = dp_delta(_floats(M), float(eps), pairs)
    assert gf == pytest.approx(float(direct), abs=1e-14)


@given(exact_stochastic(3, 4), st.sampled_from([F(0), F(1, 64), F(1, 8), F(1, 3)]))
def test_dp_epsilon_is_least(M, delta):
    """Boundary pair: (eps*, delta)-DP holds; (eps* - 1e-9, delta)-DP fails (when eps* > 0)."""
    pairs = _all_neighbor_pairs(3)
    e = dp_epsilon(M, delta, pairs)
    if e.is_infinite:
        # some pair has an output set with M_i(O) > delta and M_j(O) = 0
        assert any(sup_ratio_all_events(M[i], M[j], delta) is None for i, j in pairs + [(j, i) for i, j in pairs])
        return
    eps = float(e)
    ok = is_indistinguishable  # per-pair predicate
    assert all(ok(M[i], M[j], e.enclosure()[1], delta) for i, j in pairs)
    if e.ratio > 1:
        below = e.enclosure()[0] - 1e-9
        assert not all(ok(M[i], M[j], below, delta) for i, j in pairs)
    assert dp_epsilon(_floats(M), float(delta), pairs) == pytest.approx(eps, abs=1e-12)


def test_indistinguishability_predicates_by_hand():
    a, b = RR
    assert is_indistinguishable(a, b, math.log(3), 0)  # float ln 3 > ln 3 (50 digits)
    assert not is_indistinguishable(a, b, math.nextafter(math.log(3), 0), 0)
    assert is_indistinguishable(a, b, 0, F(1, 2))  # TV = 1/2
    assert not is_indistinguishable(a, b, 0, F(1, 2) - F(1, 10**12))
    # point-wise: ratios 3 and 1/3 on both points
    assert is_pointwise_indistinguishable(a, b, 1.1, 0)
    assert not is_pointwise_indistinguishable(a, b, 1.0, 0)
    assert is_pointwise_indistinguishable(a, b, 1.0, F(1))
    # point-wise: x = (1/2, 1/2), z = (1/4, 3/4): point 0 has ratio 2, point 1 ratio 2/3
    x, z = [F(1, 2), F(1, 2)], [F(1, 4), F(3, 4)]
    assert is_pointwise_indistinguishable(x, z, 0.5, F(1, 2))  # only point 1 (ln 1.5 = 0.405)
    assert not is_pointwise_indistinguishable(x, z, 0.5, F(1, 2) - F(1, 100))
    # float paths
    assert is_pointwise_indistinguishable([0.5, 0.5], [0.25, 0.75], 0.7, 0.0)
    assert not is_pointwise_indistinguishable([0.5, 0.5], [0.25, 0.75], 0.69, 0.0)


@given(exact_pair(max_n=6), st.sampled_from([0, F(1, 2), 1]), betas)
def test_indistinguishable_matches_event_check(pq, eps, delta):
    """Def 2.1 checked directly over all events, exactly (e^eps via 40-digit mpmath)."""
    p, q = pq
    mpmath.mp.dps = 40
    c = mpmath.exp(mpmath.mpf(eps.numerator) / eps.denominator) if eps else mpmath.mpf(1)
    ok = True
    for mask in itertools.product((0, 1), repeat=len(p)):
        P = sum((x for x, m in zip(p, mask) if m), F(0))
        Q = sum((x for x, m in zip(q, mask) if m), F(0))
        Pm = mpmath.mpf(P.numerator) / P.denominator
        Qm = mpmath.mpf(Q.numerator) / Q.denominator
        dm = mpmath.mpf(delta.numerator) / delta.denominator
        if Pm > c * Qm + dm or Qm > c * Pm + dm:
            ok = False
    assert is_indistinguishable(p, q, eps, delta) == ok


# ------------------------------------------------------------------------------------------
# units and exact mode


def test_units_and_exact_values():
    p, q = [F(1, 2), F(1, 2)], [F(1, 8), F(7, 8)]
    d = max_divergence(p, q)
    assert d.ratio == 4 and float(d) == 2.0  # log2(4) (hand)
    assert d.enclosure() == (2.0, 2.0)
    n = max_divergence(p, q, unit="nats")
    mpmath.mp.dps = 50
    assert abs(n.value(dps=45) - mpmath.log(4)) < mpmath.mpf(10) ** -44
    lo, hi = n.enclosure()
    assert lo <= math.log(4) <= hi and hi - lo <= 2 * math.ulp(math.log(4))
    assert max_divergence([0.5, 0.5], [0.125, 0.875], unit="nats") == pytest.approx(math.log(4), rel=1e-15)
    # exact=True reads floats at their exact binary value
    assert max_divergence([0.5, 0.5], [0.125, 0.875], exact=True).ratio == 4


def test_unbounded_and_empty():
    assert max_divergence([0.5, 0.5], [1.0, 0.0]) == math.inf
    assert max_divergence([F(1, 2), F(1, 2)], [F(1), F(0)]).is_infinite
    assert approx_max_divergence([0.5, 0.5], [1.0, 0.0], 0.5) == pytest.approx(-1.0)  # (1-1/2)/1 (hand)
    assert kl_divergence([0.5, 0.5], [1.0, 0.0]) == math.inf
    assert kl_divergence([F(1, 2), F(1, 2)], [F(1), F(0)]) == mpmath.inf


def test_beta_array_shape():
    out = approx_max_information(_floats(RR_JOINT), np.array([[0.0, 0.125], [0.75, 0.5]]))
    assert out.shape == (2, 2)
    assert out[0, 0] == pytest.approx(math.log2(1.5), rel=1e-15)
    assert out[0, 1] == pytest.approx(math.log2(1.25), rel=1e-15)
    assert out[1, 0] == pytest.approx(-2.0, rel=1e-15)
    ex = approx_max_information(RR_JOINT, [F(0), F(1, 8)])
    assert [e.ratio for e in ex] == [F(3, 2), F(5, 4)]


# ------------------------------------------------------------------------------------------
# bad input: refused, never renormalised, never NaN


@pytest.mark.parametrize(
    "p, q, fragment",
    [
        ([0.5, 0.6], [0.5, 0.5], "summing to 1"),
        ([0.5, 0.5], [0.5, 0.4], "summing to 1"),
        ([1.5, -0.5], [0.5, 0.5], "non-negative"),
        ([math.nan, 1.0], [0.5, 0.5], "finite"),
        ([0.5, 0.5], [1 / 3, 1 / 3, 1 / 3], "same shape"),
        ([[0.5, 0.5]], [[0.5, 0.5]], "1-D"),
        ([], [], "1-D"),
        ([F(1, 2), F(1, 3)], [F(1, 2), F(1, 2)], "exactly 1"),
        (["a", "b"], [0.5, 0.5], "real numbers"),
    ],
)
def test_bad_tables_refused(p, q, fragment):
    with pytest.raises(InvalidParameter) as err:
        approx_max_divergence(p, q)
    assert fragment in str(err.value)
    assert isinstance(err.value, ValueError)


def test_tolerance_is_documented_and_applied():
    p = [0.5, 0.5 + 5e-10]  # off by 5e-10 < PROB_TOL: accepted as given
    assert max_divergence(p, [0.5, 0.5]) == pytest.approx(math.log2(1.000000001), rel=1e-6, abs=0)
    with pytest.raises(InvalidParameter, match="tol=1e-12"):
        max_divergence(p, [0.5, 0.5], tol=1e-12)
    # tol reaches the joint-table and mechanism-table checks too: off by 1e-7, refused at the
    # default (tests/theorems/test_refusal_texts.py), accepted as given at tol = 1e-6
    J = [[0.25, 0.25], [0.25, 0.25 + 1e-7]]
    assert 0 <= mutual_information(J, tol=1e-6) < 1e-12
    assert 0 <= approx_max_information(J, tol=1e-6) < 1e-6
    M = [[0.75, 0.25 + 1e-7], [0.25, 0.75]]
    # delta at eps = 0 is the larger one-sided difference: 0.75 - 0.25 = 0.5 (hand)
    assert dp_delta(M, 0.0, [(0, 1)], tol=1e-6) == pytest.approx(0.5, abs=1e-15)


@pytest.mark.parametrize("beta", [-0.1, 1.0, 1.5, math.nan, math.inf, "0.1", True])
def test_bad_beta(beta):
    with pytest.raises(InvalidParameter, match=r"beta=.* must be a real number in \[0, 1\)"):
        approx_max_divergence([0.5, 0.5], [0.5, 0.5], beta)


def test_bad_beta_array():
    with pytest.raises(InvalidParameter, match="beta"):
        approx_max_divergence([0.5, 0.5], [0.5, 0.5], np.array([0.1, np.nan]))


def test_bad_unit_and_mechanism():
    with pytest.raises(InvalidParameter, match="unit='bytes'"):
        max_divergence([1.0], [1.0], unit="bytes")  # type: ignore[arg-type]
    with pytest.raises(InvalidParameter, match=r"mechanism\[1\]"):
        dp_delta([[0.5, 0.5], [0.5, 0.4]], 0.1, [(0, 1)])
    with pytest.raises(InvalidParameter, match="neighbors"):
        dp_delta([[0.5, 0.5], [0.5, 0.5]], 0.1, [(0, 0)])
    with pytest.raises(InvalidParameter, match=r"neighbors\[0\]\[1\]=5"):
        dp_delta([[0.5, 0.5], [0.5, 0.5]], 0.1, [(0, 5)])
    with pytest.raises(InvalidParameter, match="eps=-1"):
        dp_delta([[0.5, 0.5], [0.5, 0.5]], -1.0, [(0, 1)])
    with pytest.raises(InvalidParameter, match="delta=1"):
        dp_epsilon([[0.5, 0.5], [0.5, 0.5]], 1.0, [(0, 1)])
    with pytest.raises(InvalidParameter, match="joint"):
        mutual_information([0.5, 0.5])


def _reference_sup(p, q, beta):
    """Plain full-sort reference: max over all prefixes of the ratio order (written here, not imported)."""
    keep = p > 0
    p, q = p[keep], q[keep]
    order = np.argsort(-(p / q), kind="stable")
    P, Q = np.cumsum(p[order]), np.cumsum(q[order])
    ok = P > beta
    return float(np.max((P[ok] - beta) / Q[ok]))


def _exp_mechanism_table(bits, eps):
    """X uniform on {0,1}^bits; Y = coordinate picked by the exponential mechanism (score x_j)."""
    x = ((np.arange(1 << bits)[:, None] >> np.arange(bits)[None, :]) & 1).astype(np.float64)
    w = np.exp(eps * x)
    return w / w.sum(axis=1, keepdims=True) / (1 << bits)


@pytest.mark.parametrize("table", ["ties", "random"])
@pytest.mark.parametrize("beta", [0.0, 1e-5, 2e-3, 0.05, 0.3, 0.7, 0.95])
def test_bracket_path_matches_full_sort(table, beta):
    """Large tables (> 32768 cells) take the bracketed path; it must equal a full sort."""
    if table == "ties":
        J = _exp_mechanism_table(13, 0.7)  # 106,496 cells, few distinct ratios
    else:
        J = np.random.default_rng(7).random((8192, 12))
        J /= J.sum()
    p = J.ravel()
    q = np.multiply.outer(J.sum(axis=1), J.sum(axis=0)).ravel()
    ref = _reference_sup(p, q, beta)
    got = approx_max_information(J, beta)
    assert 2.0**got == pytest.approx(ref, rel=1e-11)
    many = approx_max_information(J, np.array([beta, 0.5, 0.0]))
    assert 2.0 ** many[0] == pytest.approx(ref, rel=1e-11)


def _bucket_case(rng, kind, n):
    """Dyadic tables (exact as Fractions, cheap to sort exactly) of the shapes that stress the
    bucketed engine: spread ratios, heavy ties, near-ties within 2^-40, zeros on either side,
    ratios over 80 orders of magnitude."""
    if kind == "spread":
        p, q = rng.integers(1, 2**20, n), rng.integers(1, 2**20, n)
    elif kind == "ties":
        p, q = rng.integers(1, 4, n), rng.integers(1, 4, n)
    elif kind == "near_ties":
        q = rng.integers(2**30, 2**31, n)
        p = q + rng.integers(-2, 3, n)  # ratios 1 + k 2^-30: within a bucket, not tied
    elif kind == "zeros":
        p, q = rng.integers(0, 3, n), rng.integers(0, 3, n)
        p[0], q[-1] = max(p[0], 1), max(q[-1], 1)
    else:  # "wide"
        p = 2.0 ** rng.integers(-130, 130, n)
        q = 2.0 ** rng.integers(-130, 130, n)
    p, q = np.asarray(p, dtype=np.float64), np.asarray(q, dtype=np.float64)
    return p / p.sum(), q / q.sum()


@pytest.mark.parametrize("buckets", [4, 64])
@pytest.mark.parametrize("kind", ["spread", "ties", "near_ties", "zeros", "wide"])
def test_bucketed_engine_equals_exact_sort(kind, buckets, monkeypatch):
    """The engine for large tables (bit-pattern buckets, only the buckets near each c* sorted;
    issue 17) against the exact supremum over Fractions (an exact sort of every outcome, a
    different algorithm): with the sample shrunk to 16 the bucketed path runs on tables of a few
    hundred to a few thousand cells, so many tables and betas are checked exactly."""
    from maxinfo_bounds.measures import engine

    monkeypatch.setattr(engine, "_SAMPLE", 16)
    monkeypatch.setattr(engine, "_BUCKETS", buckets)
    monkeypatch.setattr(engine, "_BUCKETS_MANY", 2 * buckets)
    monkeypatch.setattr(engine, "_CHUNK", 300)  # several chunks per table
    rng = np.random.default_rng(17)
    for _ in range(6):
        n = int(rng.integers(65, 1200))
        p, q = _bucket_case(rng, kind, n)
        assert p.size > 4 * engine._SAMPLE
        pf = np.array([F(x) for x in p], dtype=object)
        qf = np.array([F(x) for x in q], dtype=object)
        bl = np.concatenate(([0.0, 1e-12], np.sort(rng.random(14)) * 0.999))
        got = engine.sup_ratio_float(p, q, bl)
        one = [float(engine.sup_ratio_float(p, q, np.array([b]))[0]) for b in bl[::5]]
        assert got[::5].tolist() == pytest.approx(one, rel=1e-12)
        for b, g in zip(bl, got):
            ex = engine.sup_ratio_exact(pf, qf, F(b))
            if ex is None:
                assert g == math.inf
            elif ex == 0:
                assert g == 0.0
            else:
                assert g == pytest.approx(float(ex), rel=1e-9), (kind, n, b)


@pytest.mark.parametrize("shape", [(40, 3), (9, 10), (3, 40)])
def test_lazy_product_table_equals_exact(shape, monkeypatch):
    """approx_max_information on a float table above the bucketed size computes the product of
    the marginals chunk by chunk (never stored whole; chunks of whole rows, or parts of one row
    when a row is longer than a chunk): against the exact Fraction supremum of the same dyadic
    table, whose float marginals and products are exact."""
    from maxinfo_bounds.measures import engine

    monkeypatch.setattr(engine, "_SAMPLE", 16)
    monkeypatch.setattr(engine, "_BUCKETS", 8)
    monkeypatch.setattr(engine, "_BUCKETS_MANY", 16)
    monkeypatch.setattr(engine, "_CHUNK", 7)
    rng = np.random.default_rng(23)
    for i in range(6):
        monkeypatch.setattr(engine, "_KEEP_IDS", 0 if i % 2 else 1 << 24)
        counts = rng.integers(0, 6, shape)
        counts[0, 0] += 1
        total = 1 << int(counts.sum()).bit_length()
        counts[-1, -1] += total - counts.sum()
        J = counts / total
        Jf = [[F(int(c), total) for c in row] for row in counts]
        bl = [0.0, 0.01, 0.2, 0.7]
        got = approx_max_information(J, np.array(bl), unit="nats")
        for b, g in zip(bl, got):
            ex = approx_max_information(Jf, F(b), unit="nats").ratio
            assert math.exp(g) == pytest.approx(float(ex), rel=1e-12), (shape, b)


def test_bucketed_engine_equals_full_sort_on_many_tables(monkeypatch):
    """The bucketed engine (tiny buckets and chunks, so that every path runs) against the plain
    full sort of every outcome (a different algorithm) on 300 random tables and 40 betas each,
    ties and zeros included, with the buckets kept between the passes or recomputed. Agreement
    to 1e-12 relative plus n 2^-52 absolute: the float prefix masses carry up to n roundings,
    which matter where P - beta cancels."""
    from maxinfo_bounds.measures import engine

    rng = np.random.default_rng(5)
    for i in range(300):
        n = int(rng.integers(70, 400))
        p = rng.integers(0, 1 + i % 7, n).astype(float) + (i % 3 == 0) * rng.random(n)
        q = rng.integers(0, 1 + i % 5, n).astype(float) + (i % 2 == 0) * rng.random(n)
        p[0] += 1
        q[1] += 1
        p, q = p / p.sum(), q / q.sum()
        bl = np.sort(rng.random(40)) * 0.999
        bl[0] = 0.0
        with monkeypatch.context() as m:
            m.setattr(engine, "_SAMPLE", 16)
            m.setattr(engine, "_BUCKETS", int(rng.integers(2, 40)))
            m.setattr(engine, "_BUCKETS_MANY", int(rng.integers(2, 80)))
            m.setattr(engine, "_CHUNK", int(rng.integers(5, 200)))
            m.setattr(engine, "_KEEP_IDS", 0 if i % 2 else 1 << 24)  # both second passes
            got = engine.sup_ratio_float(p, q, bl)
            one = engine.sup_ratio_float(p, q, bl[7:8])
        ref = engine.sup_ratio_float(p, q, bl)  # n <= 4 * 8192: the full sort
        tol = n * 2.0**-52
        assert got == pytest.approx(ref, rel=1e-12, abs=tol), i
        assert one[0] == pytest.approx(ref[7], rel=1e-12, abs=tol), i


# ---------------------------------------------------------------------------------------------
# the exact flag, units and the natural base, by hand on P = (1/2, 1/2), Q = (1/4, 3/4)
# ---------------------------------------------------------------------------------------------


def test_exact_flag_is_obeyed_both_ways():
    """``exact=None`` infers from the inputs (Fractions: exact); ``exact=False`` forces floats
    and ``exact=True`` exact arithmetic, whatever the inputs. Hand: hockey stick at c = 1 and
    TV are both 1/2 - 1/4 = 1/4; KL = 1/2 log2 2 + 1/2 log2(2/3) = 0.20751874963942190 bits;
    the pair's DP eps at delta = 0 is ln 2 nats (ratio 2)."""
    from maxinfo_bounds.measures import dp_epsilon, hockey_stick, kl_divergence, tv_distance

    p, q = [F(1, 2), F(1, 2)], [F(1, 4), F(3, 4)]
    pf, qf = [0.5, 0.5], [0.25, 0.75]
    for fn in (lambda a, b, e: hockey_stick(a, b, 1, exact=e), lambda a, b, e: tv_distance(a, b, exact=e)):
        assert fn(p, q, None) == F(1, 4) and isinstance(fn(p, q, None), F)
        assert fn(p, q, False) == 0.25 and type(fn(p, q, False)) is float
        assert fn(pf, qf, True) == F(1, 4) and isinstance(fn(pf, qf, True), F)
        assert type(fn(pf, qf, None)) is float
    kl = kl_divergence(p, q, exact=False)
    assert type(kl) is float and abs(kl - 0.2075187496394219) < 1e-15
    assert isinstance(kl_divergence(pf, qf, exact=True), mpmath.mpf)
    M = [[F(2, 3), F(1, 3)], [F(1, 3), F(2, 3)]]
    e = dp_epsilon(M, 0, [(0, 1)])
    assert (e.ratio, e.unit) == (F(2), "nats")
    assert dp_epsilon(M, 0, [(0, 1)], exact=False) == math.log(2)
    # float rows that sum to exactly 1 are read exactly when asked: ratio 3/4 : 1/4 = 3
    e3 = dp_epsilon([[0.75, 0.25], [0.25, 0.75]], 0, [(0, 1)], exact=True)
    assert (e3.ratio, e3.unit) == (F(3), "nats")


@pytest.mark.parametrize("exact", [False, True])
def test_indistinguishability_uses_the_natural_base(exact):
    """(eps, delta)-indistinguishability of P and Q (eps in nats): at delta = 0 the largest
    ratio 2 needs eps >= ln 2 = 0.693 (0.8 passes; 0.6 fails; in bits 0.8 would fail); with
    delta = 0.1, 1/2 <= e^0.6 / 4 + 0.1 = 0.555 passes. Disjoint supports: only delta = 1."""
    from maxinfo_bounds.measures import is_indistinguishable

    cv = (lambda v: [F(x) for x in v]) if exact else (lambda v: [float(x) for x in v])
    P, Q = cv([F(1, 2), F(1, 2)]), cv([F(1, 4), F(3, 4)])
    assert is_indistinguishable(P, Q, 0.8, 0)
    assert not is_indistinguishable(P, Q, 0.6, 0)
    assert is_indistinguishable(P, Q, 0.6, 0.1)
    A, B = cv([1, 0]), cv([0, 1])
    assert is_indistinguishable(A, B, 0.1, 1)
    assert not is_indistinguishable(A, B, 0.1, F(999, 1000) if exact else 0.999)


# ------------------------------------------------------------------------------------------
# RRST Lemma A.6(1): "I^beta_inf(X;Z) <= k  <=>  (X,Z) ≈_{k ln 2, beta} X ⊗ Z" (docs/errata.md)


@pytest.mark.parametrize("N", [2, 3, 8])
def test_lemma_a6_1_forward_direction_is_false(N):
    """X = Z uniform on N values (hand): the joint puts 1/N on the diagonal, the product 1/N^2 on
    every cell. Every event's joint mass is at most N times its product mass, so
    I^beta_inf <= I_inf = log2 N = k for every beta >= 0 (exactly log2 N at beta = 0). The event
    O = {x != z} has product mass 1 - 1/N and joint mass 0, so the reverse inequality
    (X ⊗ Z)(O) <= e^{eps} (X, Z)(O) + beta fails for *every* eps whenever beta < 1 - 1/N:
    the two-sided indistinguishability of the statement does not follow from I^beta_inf <= k."""
    joint = [[F(1, N) if i == j else F(0) for j in range(N)] for i in range(N)]
    prod = [[F(1, N * N)] * N for _ in range(N)]
    flat_j = [c for row in joint for c in row]
    flat_p = [c for row in prod for c in row]
    assert max_information(joint).ratio == N  # I_inf = log2 N exactly
    for beta in (F(0), F(1, 10 * N), (1 - F(1, N)) - F(1, 10**6)):
        assert approx_max_information(joint, beta).ratio <= N  # I^beta_inf <= k = log2 N
        # the direction the definition gives: (X, Z)(O) <= 2^k (X ⊗ Z)(O) + beta for every O
        assert approx_max_divergence(flat_j, flat_p, beta).ratio <= N
        # the reverse direction fails, at the statement's eps = k ln 2 and at any larger eps
        for eps in (F(math.log(N)) * 2, F(50)):
            assert not is_indistinguishable(flat_j, flat_p, eps, beta)
            assert approx_max_divergence(flat_p, flat_j, beta).ratio is None  # +inf: Q(O) = 0
    # at beta = 1 - 1/N the reverse inequality holds (the off-diagonal mass is all of beta)
    assert is_indistinguishable(flat_j, flat_p, F(math.log(N)) * 2, 1 - F(1, N))


@pytest.mark.parametrize("eps", [0.05, 0.3, 1.0])
def test_lemma_a6_2_holds_on_random_tables(eps):
    """RRST Lemma A.6(2) (Kasiviswanathan-Smith): X ≈_{eps,delta} Y implies point-wise
    (2 eps, 2 delta/(1 - e^{-eps}))-indistinguishability. Held against 400 seeded random pairs
    with delta the smallest that makes X ≈_{eps,delta} Y (the larger hockey-stick divergence at
    e^eps, both directions). By hand the bad mass is at most
    delta (1 + e^{-2 eps})/(1 - e^{-eps}) (the two tails: delta/(1 - e^{-eps}) above,
    delta e^{-2 eps}/(1 - e^{-eps}) below), which is asserted too; and some tables must have
    point-wise bad mass, so the check is not empty."""
    rng = np.random.default_rng(20261125)
    near_tight = 0
    for _ in range(400):
        n = int(rng.integers(2, 7))
        x = rng.dirichlet(np.full(n, 0.5))
        y = 0.7 * x + 0.3 * rng.dirichlet(np.full(n, 0.5))
        c = math.exp(eps)
        delta = max(float(np.maximum(x - c * y, 0).sum()), float(np.maximum(y - c * x, 0).sum()))
        assert is_indistinguishable(x, y, eps, min(1.0, delta * (1 + 1e-9) + 1e-15))
        dpp = 2 * delta / (1 - math.exp(-eps))
        assert is_pointwise_indistinguishable(x, y, 2 * eps, min(1.0, dpp * (1 + 1e-9) + 1e-15))
        # the bad mass under X, computed directly: ratio outside [e^{-2 eps}, e^{2 eps}]
        bad = float(x[(x > math.exp(2 * eps) * y) | (x < math.exp(-2 * eps) * y)].sum())
        assert bad <= delta * (1 + math.exp(-2 * eps)) / (1 - math.exp(-eps)) * (1 + 1e-9) + 1e-15
        near_tight += bad > 0
    assert near_tight > 0  # some tables do have point-wise bad mass: the check is not empty


# ------------------------------------------------------------------------------------------
# RRST Lemma A.7 (conditioning lemma): false as stated, true as Claim 3.4 uses it (docs/errata.md)


@pytest.mark.parametrize("c", [F(11, 10), F(3, 2), F(4)])
def test_lemma_a7_is_false_for_every_eps(c):
    """The 2 x 3 construction of proofs_checks.conditioning at e^eps = c (eps = 0.095, 0.405 =
    ln 1.5 inside Thm 3.1's eps <= 1/2, and 1.386), with s = (c - 1)^2/(2c(c + 1)), half the
    largest s that breaks the lemma, and d small enough that column t0 respects the ratio c.
    delta and the column deltas are recomputed here by brute force over every event, so the
    verdict does not rest on the calculator's hockey-stick."""
    from proofs_checks.conditioning import counterexample

    s = (c - 1) ** 2 / (2 * c * (c + 1))
    d = s / 8
    r = counterexample(c, s, d)
    flat_p = [v for row in r["P"] for v in row]
    flat_q = [v for row in r["Q"] for v in row]
    assert sum(flat_p) == 1 and sum(flat_q) == 1 and min(flat_p + flat_q) >= 0
    delta = max(hockey_stick_all_events(flat_p, flat_q, c), hockey_stick_all_events(flat_q, flat_p, c))
    assert delta == r["delta"] == d  # (X, Z) ≈_{ln c, d} (X', Z'), and no less
    cols = []
    for t in range(3):
        cp = [r["P"][0][t], r["P"][1][t]]
        cq = [r["Q"][0][t], r["Q"][1][t]]
        cp, cq = [v / sum(cp) for v in cp], [v / sum(cq) for v in cq]
        cols.append(max(hockey_stick_all_events(cp, cq, c**3), hockey_stick_all_events(cq, cp, c**3)))
    assert cols == r["column_deltas"] == [0, s, s]
    # for dh just below s, columns t1 and t2 are bad: Pr[good] is column t0's mass
    dh = s * (1 - F(1, 10**6))
    good = r["P"][0][0] + r["P"][1][0]
    assert r["good_mass"] == good
    assert r["lemma_bound_at"](dh) > good  # the lemma's lower bound is false
    assert r["lemma_bound_at"](dh) - good > (c - 1) / 100  # by a margin on the scale of eps


def test_lemma_a7_holds_with_equal_z_marginals():
    """Claim 3.4 applies Lemma A.7 to (X_i, A) against X_i ⊗ A, whose Z-marginals are equal; then
    Pr_t[not X|t ≈_{3 eps, dh} X'|t] < 2 delta/dh (module docstring of proofs_checks.conditioning),
    which is below the lemma's bound, so Thm 3.1's delta' is valid as used. Held against 600
    seeded random float tables: X' ⊗ Z' the product of the joint's marginals (the
    claim's case), or any table with the same column sums."""
    from proofs_checks.conditioning import bad_mass, indist_delta

    rng = np.random.default_rng(20261125)
    worst, nonzero = 0.0, 0
    for i in range(600):
        nx, nz = int(rng.integers(2, 4)), int(rng.integers(2, 5))
        J = rng.dirichlet(np.full(nx * nz, 0.4)).reshape(nx, nz)
        if i % 2:
            J2 = np.outer(J.sum(axis=1), J.sum(axis=0))
        else:
            rows = rng.dirichlet(np.full(nx, 0.4), size=nz).T  # column conditionals
            J2 = (0.8 * J / J.sum(axis=0) + 0.2 * rows) * J.sum(axis=0)
        eps = float(rng.choice([0.05, 0.2, 0.5, 1.0, 2.0]))
        c = math.exp(eps)
        delta = float(indist_delta(J.ravel(), J2.ravel(), c))
        for dh in (0.001, 0.01, 0.05, 0.2):
            bad = float(bad_mass(J, J2, c, dh))
            assert bad <= 2 * delta / dh * (1 + 1e-9) + 1e-12
            if bad > 0:
                nonzero += 1
                worst = max(worst, bad / (2 * delta / dh))
    assert nonzero > 50 and worst > 0.25  # the check meets bad columns, some near the bound


# ------------------------------------------------------------------------------------------
# survivors of the mutation run (docs/verification.md): eps in nats on the exact paths, the
# first neighbouring pair on the float path, units and labels


def test_exact_indistinguishability_reads_eps_in_nats():
    # ratio 3 (hand): ln 3 = 1.098612..., log2 3 = 1.58496...; eps is in nats
    a, b = [F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]
    assert is_indistinguishable(a, b, F(10987, 10000), 0)
    assert not is_indistinguishable(a, b, F(10986, 10000), 0)
    # point-wise: ratios 3/2 and 2/3 (hand): ln 1.5 = 0.405465 <= 0.41 < log2 1.5 = 0.585
    x, z = [F(3, 5), F(2, 5)], [F(2, 5), F(3, 5)]
    assert is_pointwise_indistinguishable(x, z, F(41, 100), 0)
    assert not is_pointwise_indistinguishable(x, z, F(40, 100), 0)


def test_dp_epsilon_exact_unbounded_is_in_nats():
    out = dp_epsilon([[F(1), F(0)], [F(0), F(1)]], 0, [(0, 1)])
    assert out.ratio is None and out.unit == "nats"


def test_dp_delta_float_path_reads_every_pair():
    # the hockey-stick at e^0.5 is asymmetric here (hand): H(p||q) = 0.9 - 0.5 e^0.5 = 0.0756,
    # H(q||p) = 0.5 - 0.1 e^0.5 = 0.3351; the worst ordered pair comes first or last
    ref = 0.5 - 0.1 * math.exp(0.5)
    for M in ([[0.5, 0.5], [0.9, 0.1]], [[0.9, 0.1], [0.5, 0.5]]):
        assert dp_delta(M, 0.5, [(0, 1)]) == pytest.approx(ref, rel=1e-14)


def test_dps_refusals_name_dps():
    J = [[F(1, 2), F(0)], [F(0), F(1, 2)]]
    with pytest.raises(InvalidParameter, match=r"^dps=0 is invalid"):
        mutual_information(J, dps=0)
    with pytest.raises(InvalidParameter, match=r"^dps=0 is invalid"):
        dp_delta([[F(1, 2), F(1, 2)], [F(1, 4), F(3, 4)]], F(1, 2), [(0, 1)], dps=0)


def _at_digits(x, dps):
    with mpmath.workdps(dps):
        return +x


def test_exact_results_have_fifty_digits_by_default():
    """The exact-mode docstrings promise an mpmath number with ``dps`` digits (default 50): the
    result is the 90-digit value rounded to 50 digits, not to 51 (which the 51-digit call gives:
    so this test can fail). References written from the definitions by hand:
    delta(1/2) of rows (1/2, 1/2), (1/4, 3/4) is 1/2 - e^(1/2)/4 (the only positive term);
    KL((1/2, 1/2) || (1/4, 3/4)) = 1 - log2(3)/2 bits; I(RR_JOINT) = (3/4) log2(3/2) - 1/4 bits."""
    M = [[F(1, 2), F(1, 2)], [F(1, 4), F(3, 4)]]
    with mpmath.workdps(90):
        half = mpmath.mpf(1) / 2
        refs = [half - mpmath.exp(half) / 4, 1 - mpmath.log(3, 2) / 2, 3 * mpmath.log(3 * half, 2) / 4 - half / 2]
    calls = [
        lambda **kw: dp_delta(M, F(1, 2), [(0, 1)], **kw),
        lambda **kw: kl_divergence([F(1, 2), F(1, 2)], [F(1, 4), F(3, 4)], **kw),
        lambda **kw: mutual_information(RR_JOINT, **kw),
    ]
    for call, ref in zip(calls, refs):
        assert call() == _at_digits(ref, 50)
        assert call(dps=51) == _at_digits(ref, 51) != _at_digits(ref, 50)


def test_dp_delta_past_the_float_exponential():
    """e^eps overflows a float past eps = 709.78, yet delta(eps) is still the mass a row puts
    where e^eps times its neighbour's is smaller: rows (1/2, 1/2) and (1, 2^-1074) give
    delta = 1/2 - e^eps 2^-1074 while that is positive (50-digit mpmath; it reaches 0 at
    eps = ln(2^1073) = 743.75), and rows (1/2, 1/2), (1, 0) give 1/2 at every eps (hand). The
    float path raised OverflowError at eps = 710; eps = 10^400 (an int) is read exactly."""
    M = [[0.5, 0.5], [1.0, 5e-324]]
    for eps in (100.0, 710.0, 740.0, 743.0, 743.75, 800.0):
        with mpmath.workdps(50):
            ref = max(mpmath.mpf(0), mpmath.mpf(1) / 2 - mpmath.exp(eps) * mpmath.mpf(2) ** -1074)
        assert dp_delta(M, eps, [(0, 1)]) == pytest.approx(float(ref), rel=1e-14, abs=0.0), eps
    for eps in (710.0, 1400.0, 5000.0, 10**400, F(10**400, 3)):
        assert dp_delta([[0.5, 0.5], [1.0, 0.0]], eps, [(0, 1)]) == 0.5
        assert dp_delta([[0.75, 0.25], [0.25, 0.75]], eps, [(0, 1)]) == 0.0


def test_huge_eps_and_c_on_the_float_paths():
    """eps beyond the largest float (an int or Fraction) is compared exactly: full-support
    rows are then indistinguishable, rows with mass where the other has none are not at
    delta = 0 (hand); a hockey-stick c beyond the largest float is refused on the float path,
    naming c, and read exactly in exact mode (H_c = 0: c q > p everywhere, hand); a table entry
    beyond the largest float is refused naming the table (all raised OverflowError)."""
    big = 10**400
    assert is_indistinguishable([0.5, 0.5], [0.25, 0.75], big, 0)
    assert not is_indistinguishable([0.5, 0.5], [0.0, 1.0], big, 0)
    assert is_pointwise_indistinguishable([0.5, 0.5], [0.25, 0.75], F(big, 7), 0)
    assert not is_pointwise_indistinguishable([0.5, 0.5], [0.0, 1.0], big, 0.25)
    with pytest.raises(InvalidParameter, match=r"^c=1000.* must be at most 1.7976931348623157e\+308"):
        hockey_stick([0.5, 0.5], [0.25, 0.75], big)
    assert hockey_stick([F(1, 2), F(1, 2)], [F(1, 4), F(3, 4)], big) == 0
    for call, name in (
        (lambda: approx_max_divergence([big, 0], [0.5, 0.5]), "p"),
        (lambda: mutual_information([[big]]), "joint"),
        (lambda: dp_delta([[big, 0], [0.5, 0.5]], 0.1, [(0, 1)]), "mechanism"),
    ):
        with pytest.raises(InvalidParameter, match=rf"^{name}=.*with finite entries \(an entry beyond the largest"):
            call()


def test_indistinguishable_when_no_event_exceeds_delta():
    """A float table may sum to 1 - tol: with delta above both totals no event's mass exceeds
    delta, so P(O) <= e^eps Q(O) + delta holds for every O (hand) and c*(delta) = 0."""
    x, y = [0.5, 0.5 - 5e-10], [0.25, 0.75 - 5e-10]
    assert is_indistinguishable(x, y, 0.0, 1 - 1e-10)
    assert not is_indistinguishable(x, y, 0.0, 0.2)  # P({0}) - Q({0}) = 1/4 > 0.2
    # delta = 1 holds for every pair, even where a float table's total is 1 + tol and all its
    # mass lies where the other has none (c*(1) is +inf there)
    assert is_indistinguishable([1 + 1e-10, 0.0], [0.0, 1.0], 0.0, 1)


def test_pointwise_indistinguishable_with_a_common_zero():
    """An outcome neither table can produce changes nothing (ratios 2 and 2/3: the doctest's
    pair, hand; |ln 2| = 0.6931 < 0.6932) and raises no numpy warning (0/0 in the log ratio)."""
    x, z = [0.5, 0.0, 0.5], [0.25, 0.0, 0.75]
    assert is_pointwise_indistinguishable(x, z, 0.6932, 0)
    assert not is_pointwise_indistinguishable(x, z, 0.5, 0) and is_pointwise_indistinguishable(x, z, 0.5, 0.5)


def test_default_beta_and_tol_reach_the_max_measures():
    """beta's default is 0 (log2 3: hand, rows (3/4, 1/4), (1/4, 3/4)); tol is passed on by
    max_divergence and max_information (tables 1e-7 off: refused at the default 1e-9)."""
    p, q = [0.75, 0.25], [0.25, 0.75]
    assert approx_max_divergence(p, q) == max_divergence(p, q) == math.log2(3)
    off = [0.75 + 1e-7, 0.25]
    with pytest.raises(InvalidParameter, match=r"^p="):
        max_divergence(off, q)
    assert max_divergence(off, q, tol=1e-6) == pytest.approx(math.log2(3), rel=1e-6)
    joint = [[0.375 + 1e-7, 0.125], [0.125, 0.375]]
    with pytest.raises(InvalidParameter, match=r"^joint="):
        max_information(joint)
    assert max_information(joint, tol=1e-6) == pytest.approx(math.log2(1.5), rel=1e-6)


def test_max_information_never_stores_the_product_table():
    """A float joint table's product of marginals is computed chunk by chunk (issue 17): the
    peak memory of approx_max_information on a 1000 x 1000 table stays below 2.2 times the
    table's own bytes (its ids kept between the two passes take one table's worth; a stored
    product, another: about 2.6 times)."""
    import tracemalloc

    rng = np.random.default_rng(17)
    J = rng.random((1000, 1000))
    J /= J.sum()
    approx_max_information(J, 0.01)  # imports and caches first
    tracemalloc.start()
    try:
        approx_max_information(J, 0.01)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2.2 * J.nbytes


def test_log_ratio_tail_where_the_product_underflows():
    """P(x, y) = 1e-200 on the diagonal's first cell: the product of its marginals underflows
    to 0, so the computed density there is +inf (the true one is log2(1e200) = 664.4 bits).
    No numpy warning (the suite turns warnings into errors); the tail at k = 600 is the mass
    1e-200 (hand: only that cell's density reaches 600)."""
    J = [[1e-200, 0.0], [0.0, 1.0 - 1e-200]]
    assert log_ratio_tail(J, 600.0) == 1e-200
    assert log_ratio_tail(J, 0.0) == 1.0


# ---------------------------------------------------------------------------------------------
# the engine's input contract: the return type follows beta, Fraction betas on float tables,
# exactness from either table, tol reaches every table, no numpy warning at c* = 0
# ---------------------------------------------------------------------------------------------


def test_beta_forms_on_float_tables():
    """P = (1/2, 1/2), Q = (1/4, 3/4) by hand: the best event is the first outcome,
    c*(1/10) = (1/2 - 1/10)/(1/4) = 8/5 and c*(1/5) = (1/2 - 1/5)/(1/4) = 6/5 (the whole
    space gives only 9/10 and 4/5). A scalar beta gives a float, an array an array; Fractions in
    an array are read on the float path as their floats."""
    from maxinfo_bounds.measures import approx_max_divergence

    p, q = [0.5, 0.5], [0.25, 0.75]
    one = approx_max_divergence(p, q, 0.1)
    assert type(one) is float and one == pytest.approx(math.log2(1.6), rel=1e-15)
    both = approx_max_divergence(p, q, [F(1, 10), F(1, 5)])
    assert isinstance(both, np.ndarray) and both.shape == (2,)
    assert both.tolist() == pytest.approx([math.log2(1.6), math.log2(1.2)], rel=1e-15)


@pytest.mark.parametrize("beta", [["x"], [0.1, 10**400], [[0.1], [0.2, 0.3]]])
def test_unreadable_beta_arrays_are_refused_naming_beta(beta):
    """A list numpy cannot read as floats (a string, an int past the floats, a ragged list)
    raised numpy's own ValueError or OverflowError on the float path (the exact path names the
    entry: beta[1]=...)."""
    with pytest.raises(InvalidParameter) as err:
        approx_max_divergence([0.5, 0.5], [0.25, 0.75], beta)
    shown = repr(beta) if len(repr(beta)) <= 80 else repr(beta)[:77] + "..."  # the value given
    assert str(err.value).startswith(f"beta={shown} is invalid: must be a real number or a non-empty array")


def test_a_bad_beta_entry_is_the_one_named():
    from maxinfo_bounds.measures import approx_max_divergence

    with pytest.raises(ValueError, match=r"^beta=1\.5 is invalid"):
        approx_max_divergence([0.5, 0.5], [0.25, 0.75], [0.0, 1.5])


def test_exactness_is_taken_from_either_table():
    """One table of Fractions makes the computation exact (KL as an mpf), whichever it is."""
    p, q = [F(1, 2), F(1, 2)], [0.25, 0.75]
    for a, b in ((p, q), (q[::-1], p)):
        assert isinstance(kl_divergence(a, b), mpmath.mpf)
    assert type(kl_divergence([0.5, 0.5], q)) is float


def test_tol_reaches_every_table():
    """A table summing to 1 + 1e-8 passes at tol = 1e-6 and is refused at the default 1e-9, for
    each table a measure reads (both of a pair, a joint table, a mechanism's rows)."""
    from maxinfo_bounds.measures import dp_delta

    off = 1 + 1e-8
    calls = [
        lambda tol: kl_divergence([0.5, 0.5 * off], [0.25, 0.75], tol=tol),
        lambda tol: kl_divergence([0.5, 0.5], [0.25, 0.75 * off], tol=tol),
        lambda tol: mutual_information([[0.5, 0.0], [0.0, 0.5 * off]], tol=tol),
        lambda tol: dp_delta([[0.5, 0.5 * off], [0.25, 0.75]], 0.1, [(0, 1)], tol=tol),
    ]
    for call in calls:
        assert call(1e-6) >= 0
        with pytest.raises(ValueError, match=r"within tol=1e-09"):
            call(1e-9)


def test_no_event_above_beta_gives_minus_inf_without_a_warning():
    """P sums to 1 - 1e-10 (within tol): at beta above that no event has P(O) > beta, so
    c* = 0 and the divergence is log 0 = -inf, quietly (no numpy RuntimeWarning); at beta = 1/2
    the whole space gives c* = (1 - 1e-10) - 1/2 (Q = 1)."""
    import warnings

    from maxinfo_bounds.measures import approx_max_divergence

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = approx_max_divergence([0.5, 0.5 - 1e-10], [0.25, 0.75], [0.5, 1 - 1e-10 + 1e-12])
    assert got[0] == pytest.approx(math.log2(0.5 - 1e-10), rel=1e-12) and got[1] == -math.inf


def test_tv_distance_float_path():
    # |0.5 - 0.25| + |0.5 - 0.75| = 0.5, halved: 0.25
    assert tv_distance([0.5, 0.5], [0.25, 0.75]) == 0.25
    assert tv_distance([F(1, 2), F(1, 2)], [F(1, 4), F(3, 4)], exact=False) == 0.25
    assert tv_distance([0.5, 0.5], [0.25, 0.75], exact=True) == F(1, 4)


def test_kl_nats_and_a_zero_cell_first():
    # KL((1/2, 1/2) || (1/4, 3/4)) = 1/2 ln 2 + 1/2 ln(2/3) = ln 2 - ln(3)/2 nats
    nats = math.log(2) - math.log(3) / 2
    assert kl_divergence([0.5, 0.5], [0.25, 0.75], unit="nats") == pytest.approx(nats, rel=1e-14)
    assert float(kl_divergence([F(1, 2), F(1, 2)], [F(1, 4), F(3, 4)], unit="nats")) == pytest.approx(nats, rel=1e-14)
    # a p = 0 cell before the others contributes 0 and must not end the sum:
    # KL((0, 1/2, 1/2) || (1/4, 1/4, 1/2)) = 1/2 log2(2) + 1/2 log2(1) = 1/2 bit
    assert float(kl_divergence([F(0), F(1, 2), F(1, 2)], [F(1, 4), F(1, 4), F(1, 2)])) == pytest.approx(0.5, rel=1e-40)
    assert kl_divergence([0.0, 0.5, 0.5], [0.25, 0.25, 0.5]) == pytest.approx(0.5, rel=1e-15)


J = [[F(3, 8), F(1, 8)], [F(1, 8), F(3, 8)]]  # marginals 1/2: Z = log2(3/2) w.p. 3/4, -1 w.p. 1/4


def test_mutual_information_zero_cell_and_exactness():
    # I(X;Y) for J: sum p log2(p/(1/4)) = 3/4 log2(3/2) + 1/4 log2(1/2) = 3/4 log2 3 - 1 bits
    hand = 0.75 * math.log2(3) - 1
    assert float(mutual_information(J)) == pytest.approx(hand, rel=1e-15)
    assert isinstance(mutual_information(J, exact=False), float)
    # a zero cell first: [[0, 1/2], [1/2, 0]]: I = log2 2 = 1 bit
    assert float(mutual_information([[F(0), F(1, 2)], [F(1, 2), F(0)]])) == pytest.approx(1.0)


def test_max_information_units_and_exactness():
    # I_inf(X;Y) of J = log2 max p/(p_x p_y) = log2(3/2)
    assert max_information(J).ratio == F(3, 2)
    assert max_information(J, exact=False) == pytest.approx(math.log2(1.5), rel=1e-15)
    assert max_information(J, exact=False, unit="nats") == pytest.approx(math.log(1.5), rel=1e-15)
    assert max_information(J).unit == "bits" and max_information(J, unit="nats").unit == "nats"


def test_log_ratio_tail_atoms_units_and_paths_by_hand():
    jf = [[0.375, 0.125], [0.125, 0.375]]
    # Pr[Z >= -1] includes the atom at -1 exactly: 1; just above it only log2(3/2) remains
    assert log_ratio_tail(jf, -1.0) == 1.0
    assert log_ratio_tail(jf, math.nextafter(-1.0, 0.0)) == 0.75
    # in nats Z = ln(3/2) = 0.405 < 0.5 <= log2(3/2) = 0.585
    assert log_ratio_tail(jf, 0.5) == 0.75 and log_ratio_tail(jf, 0.5, unit="nats") == 0.0
    r = log_ratio_tail(jf, 0.5)
    assert type(r) is float
    arr = log_ratio_tail(jf, np.array([-1.0, 0.5, 2.0]))
    assert isinstance(arr, np.ndarray) and list(arr) == [1.0, 0.75, 0.0]
    assert log_ratio_tail(J, -1.0) == 1.0  # Fractions are read on the float path
    with pytest.raises(InvalidParameter, match="unit"):
        log_ratio_tail(jf, 0.5, unit="dits")  # type: ignore[arg-type]


def test_indistinguishability_exactness_flag_and_argument_names():
    """ratio 2 between (1/2, 1/2) and (1/4, 3/4): float ln 2 is below ln 2, so exact mode says
    no where the float comparison (log 2.0 == float ln 2) says yes."""
    x, y = [0.5, 0.5], [0.25, 0.75]
    # largest ratios: x/y = 2 on cell 0, y/x = 3/2 on cell 1, so e^eps >= 2 is needed at delta 0
    assert is_indistinguishable(x, y, math.log(2), 0, exact=True) is False
    assert is_indistinguishable(x, y, math.log(2), 0, exact=False) is True
    assert is_pointwise_indistinguishable(x, y, math.log(2), 0, exact=False) is True
    with pytest.raises(InvalidParameter, match=r"^x=\[-0.5, 1.5\] is invalid"):
        is_indistinguishable([-0.5, 1.5], [0.5, 0.5], 0.1, 0)


def test_pointwise_zero_cell_first():
    """x = (0, 1/2, 1/2), z = (1/2, 1/4, 1/4): the first cell has no x-mass; the others have
    ratio 2, so at eps > ln 2 all x-mass is good (delta = 0 suffices)."""
    x, z = [F(0), F(1, 2), F(1, 2)], [F(1, 2), F(1, 4), F(1, 4)]
    assert is_pointwise_indistinguishable(x, z, 0.7, 0) is True
    assert is_pointwise_indistinguishable([0.0, 0.5, 0.5], [0.5, 0.25, 0.25], 0.7, 0) is True


def test_pointwise_indistinguishability_both_paths():
    """RRST Def 2.2 by hand on x = (1/2, 1/4, 1/8, 1/8, 0), z = (1/4, 1/4, 1/4, 0, 1/4):
    ratios 2, 1, 1/2, then a cell z misses (x-mass 1/8, never good) and one x misses."""
    x = [F(1, 2), F(1, 4), F(1, 8), F(1, 8), F(0)]
    z = [F(1, 4), F(1, 4), F(1, 4), F(0), F(1, 4)]
    xf, zf = [float(v) for v in x], [float(v) for v in z]
    # (eps, delta, answer): good mass 7/8 above ln 2, 1/4 (the ratio-1 cell) below it
    cases = [
        (0.6932, F(1, 8), True),
        (0.6932, 0.12, False),
        (0.5, F(3, 4), True),
        (0.5, 0.74, False),
        (0, F(3, 4), True),
        (0, 0.74, False),
        (0.6932, 0, False),
    ]
    for eps, d, ans in cases:
        assert is_pointwise_indistinguishable(x, z, eps, d) is ans, (eps, d)
        assert is_pointwise_indistinguishable(xf, zf, eps, float(d), exact=False) is ans, (eps, d)
    # not symmetric: over z's mass the bad cells weigh 1/4 (z's own cell x misses)
    assert is_pointwise_indistinguishable(z, x, 0.6932, F(1, 4)) is True
    assert is_pointwise_indistinguishable(z, x, 0.6932, F(1, 5)) is False
    # exact mode decides e^eps against the ratio 2 exactly: float ln 2 is below ln 2
    assert is_pointwise_indistinguishable([0.5, 0.5], [0.25, 0.75], math.log(2), 0, exact=True) is False
    with pytest.raises(InvalidParameter, match=r"^x=\[-0.5, 1.5\] is invalid"):
        is_pointwise_indistinguishable([-0.5, 1.5], [0.5, 0.5], 0.1, 0)
    with pytest.raises(InvalidParameter, match=r"^z=\[-0.5, 1.5\] is invalid"):
        is_pointwise_indistinguishable([0.5, 0.5], [-0.5, 1.5], 0.1, 0)


def test_indistinguishability_both_paths():
    """RRST Def 2.1 on randomized response (3/4, 1/4) vs (1/4, 3/4): (ln 3, 0) exactly, and
    (0, 1/2) (the TV distance); (eps, delta) = (ln 2, 1/8): P(O) - 2 Q(O) = 3/4 - 1/2 = 1/4 >
    1/8 for O = {0}, so False; at delta = 1/4 True."""
    a, b = [F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]
    af, bf = [0.75, 0.25], [0.25, 0.75]
    for eps, d, ans in [
        (0.6932, F(1, 8), False),
        (0.6932, F(1, 4), True),
        (0, F(1, 2), True),
        (0, F(2, 5), False),
        (1.0987, 0, True),
        (1.0986, 0, False),
        (0.1, 1, True),
    ]:
        assert is_indistinguishable(a, b, eps, d) is ans, (eps, d)
        assert is_indistinguishable(af, bf, eps, float(d), exact=False) is ans, (eps, d)
    # disjoint supports: no eps works below delta = 1, and delta = 1 always does
    assert is_indistinguishable([1.0, 0.0], [0.0, 1.0], 50.0, 0.99) is False
    assert is_indistinguishable([1.0, 0.0], [0.0, 1.0], 0.0, 1.0) is True
    assert is_indistinguishable([F(1), F(0)], [F(0), F(1)], 50, F(99, 100)) is False
    with pytest.raises(InvalidParameter, match=r"^y=\[-0.5, 1.5\] is invalid"):
        is_indistinguishable([0.5, 0.5], [-0.5, 1.5], 0.1, 0)


RR_EDGES = [[0.75, 0.25], [0.25, 0.75]]


def test_dp_delta_both_paths():
    """dp_delta of randomized response (e^eps0 = 3): at eps = 0 the TV distance 1/2 (a Fraction
    in exact mode), at eps = 1 by hand 3/4 - e/4 (the other cell contributes 0)."""
    rr = [[F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]]
    d0 = dp_delta(rr, 0, [(0, 1)])
    assert d0 == F(1, 2) and isinstance(d0, F)
    d1 = dp_delta(rr, 1, [(0, 1)])
    assert abs(float(d1) - (0.75 - math.e / 4)) < 1e-15
    assert dp_delta(RR_EDGES, 1.0, [(0, 1)]) == pytest.approx(0.75 - math.e / 4, rel=1e-14)
    assert dp_delta(RR_EDGES, 0.0, [(0, 1)]) == pytest.approx(0.5, rel=1e-15)
    assert not isinstance(dp_delta(RR_EDGES, 1.0, [(0, 1)], exact=True), float)  # exact on request
    # several pairs: the largest hockey stick over them, both directions
    m3 = [[0.5, 0.5], [0.75, 0.25], [0.25, 0.75]]
    assert dp_delta(m3, 0.0, [(0, 1), (0, 2)]) == pytest.approx(0.25)
    assert dp_delta(m3, 0.0, [(1, 2)]) == pytest.approx(0.5)


JOINT = [[F(1, 4), F(1, 4)], [F(1, 8), F(3, 8)]]


def test_approx_max_information_exact_beta_list_names_the_entry():
    with pytest.raises(InvalidParameter) as exc:
        approx_max_information(JOINT, [F(1, 10), F(1)], exact=True)
    assert str(exc.value) == "beta[1]=Fraction(1, 1) is invalid: must be a real number in [0, 1)"
    with pytest.raises(
        InvalidParameter,
        match=r"^beta=\[\] is invalid: must be a real number "
        r"or a non-empty array of reals in \[0, 1\)$",
    ):
        approx_max_information(JOINT, [])


@pytest.mark.parametrize("n", [16, 10_000, 300_000])
def test_table_totals_are_decided_as_fsum_decides(n):
    """The tolerance on a float table's total is the documented ``abs(math.fsum(t) - 1) <= tol``
    (numeric.validate), decided from numpy's sum where a bound on its rounding settles it and
    by fsum where not (issue 45). One entry of a table is bisected to the two adjacent floats
    where fsum's total crosses 1 + tol: the one is accepted and the other refused, for a whole
    table and for a mechanism's rows; and tables 1e-10 inside and 3e-9 outside the boundary."""
    from maxinfo_bounds.numeric.validate import as_table

    rng = np.random.default_rng(n)
    tol = 1e-9
    t = rng.random(n)
    t /= math.fsum(t)
    within = lambda x0: abs(math.fsum(np.concatenate(([x0], t[1:]))) - 1.0) <= tol  # noqa: E731
    # bisect the bit pattern of t[0] between a value inside and one outside (adjacent floats)
    lo, hi = (np.float64(t[0] + d).view(np.int64) for d in (tol / 2, 2 * tol))
    assert within(lo.view(np.float64)) and not within(hi.view(np.float64))
    while hi - lo > 1:
        mid = lo + (hi - lo) // 2
        lo, hi = (mid, hi) if within(mid.view(np.float64)) else (lo, mid)
    accepted, refused = t.copy(), t.copy()
    accepted[0], refused[0] = lo.view(np.float64), hi.view(np.float64)
    t = accepted
    assert abs(math.fsum(accepted) - 1.0) <= tol < abs(math.fsum(refused) - 1.0)
    for arr, ok in ((accepted, True), (refused, False), (t * (1 - 3e-9), False), (t * (1 - 1e-10), True)):
        want = abs(math.fsum(arr) - 1.0) <= tol
        assert want == ok
        for table, kw in ((arr, {"ndim": 1}), (arr.reshape(1, -1), {"ndim": 2, "stochastic_rows": True})):
            if ok:
                as_table("t", table, exact=False, tol=tol, **kw)
            else:
                with pytest.raises(ValueError, match=r"within tol=1e-09"):
                    as_table("t", table, exact=False, tol=tol, **kw)
