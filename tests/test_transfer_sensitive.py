"""JLNRSS's transfer theorem for Delta-sensitive queries (Lemma 15 with Thm 4's step for a range R).

Expected values are by hand, at 50 digits with mpmath from the statement (not from the code's
formula object), or exact (Fractions) on small domains where the posterior is computed by
enumeration: the resampling step this project derives (docs/estimate.md, section 7) is held on
an adaptive two-query mechanism and shown tight on a one-record one, where any smaller factor
than R fails; Lemma 15's posterior stability, as read, is held on exact posteriors with the
worst Delta-sensitive query found by linear programming.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction as F

import mpmath
import numpy as np
import pytest
from scipy.optimize import linprog

from maxinfo_bounds.numeric import InvalidParameter
from maxinfo_bounds.theorems.estimation import (
    jlnrss_sensitive_split,
    jlnrss_split,
    jlnrss_transfer,
    jlnrss_transfer_sensitive,
)
from maxinfo_bounds.theorems.registry import REGISTRY


def _ref_width(eps, alpha, c, d, n, s, r):
    with mpmath.workdps(50):
        m = mpmath.mpf
        return m(alpha) + m(n) * m(s) * (mpmath.expm1(m(eps)) + 4 * m(d)) + m(r) * m(c)


def test_half_width_against_the_statement_at_50_digits():
    args = (0.3, 1e-6, 0.05, 0.01, 0.2, 0.0037, 1000, 0.002, 1.0)
    b = jlnrss_transfer_sensitive(*args)
    ref = _ref_width(0.3, 0.05, 0.2, 0.0037, 1000, 0.002, 1.0)
    # 0.05 + 2 (e^0.3 - 1 + 0.0148) + 0.2 = 0.979317615152006...: rounded up, within 4 ulps
    assert b.half_width >= ref and b.half_width - ref < 4 * math.ulp(b.half_width)
    assert abs(float(ref) - 0.9793176151520062) < 1e-15
    with mpmath.workdps(50):
        fail = mpmath.mpf(0.01) / mpmath.mpf(0.2) + mpmath.mpf(1e-6) / mpmath.mpf(0.0037)
    assert b.coverage <= 1 - fail and 1 - fail - b.coverage < 1e-16  # 1 - 0.05027027...
    assert b.theorem == "JLNRSS-transfer-sensitive"


def test_statistical_queries_give_the_statistical_form_with_4d():
    """Delta = 1/n, R = 1 (a [0, 1]-valued mean): the width is JLNRSS Thm 4 with Lemma 7's
    with d doubled (Lemma 15's 4 c n delta Delta against Lemma 7's 2 c delta); same failure."""
    for e, de, a, b, c, d in [(0.5, 1e-5, 0.03, 0.02, 0.1, 0.001), (0.0, 0.25, 0.0, 0.5, 1.0, 0.125)]:
        sens = jlnrss_transfer_sensitive(e, de, a, b, c, d, 8, 0.125, 1.0)
        stat = jlnrss_transfer(e, de, a, b, c, 2 * d)
        assert sens.half_width == stat.half_width
        assert sens.coverage == jlnrss_transfer(e, de, a, b, c, d).coverage


def test_hand_values_and_zero_delta():
    # eps = ln 2 (e^eps - 1 = 1 up to eps's rounding), n Delta = 3, R = 6: 0.5 + 3 (1 + 4/8) + 6/4
    b = jlnrss_transfer_sensitive(math.log(2), 0.0, 0.5, 0.25, 0.25, 0.125, 30, 0.1, 6.0)
    assert abs(b.half_width - 6.5) < 1e-14
    assert b.half_width >= _ref_width(math.log(2), 0.5, 0.25, 0.125, 30, 0.1, 6)
    assert b.coverage == 0.0  # 1 - 0.25/0.25: the failure bound is 1
    # delta = 0: the d term 4 n Delta d = 4e-300 (about) is positive, so 0.25 rounds up one ulp
    b = jlnrss_transfer_sensitive(0.0, 0.0, 0.0, 0.0625, 0.25, 1e-300, 100, 0.01, 1.0)
    assert b.coverage == 0.75 and b.half_width == math.nextafter(0.25, math.inf)
    # 1 - 0.01/0.1 in the floats' exact values is 0.90000000000000000347, below the float 0.9
    assert jlnrss_transfer_sensitive(0.0, 0.0, 0.0, 0.01, 0.1, 1.0, 1, 1.0, 1.0).coverage == math.nextafter(0.9, 0)


def test_the_split_is_the_lagrange_optimum():
    beta_s, delta, f, n, s, r = 0.004, 1e-7, 0.05, 5000, 1e-3, 2.0
    c, d = jlnrss_sensitive_split(beta_s, delta, f, n, s, r)
    # hand: S = sqrt(R beta) + sqrt(4 n Delta delta) = sqrt(0.008) + sqrt(2e-6)
    big_s = math.sqrt(0.008) + math.sqrt(2e-6)
    assert c == pytest.approx(math.sqrt(0.002) * big_s / f, rel=1e-11)
    assert d == pytest.approx(math.sqrt(1e-7 / 20) * big_s / f, rel=1e-11)
    assert beta_s / c + delta / d <= f  # nudged to the feasible side
    best = r * c + 4 * n * s * d
    assert best == pytest.approx(big_s**2 / f, rel=1e-11)
    for t in np.linspace(0.02, 0.98, 25):  # every other split of the failure budget costs more
        c2, d2 = beta_s / (t * f), delta / ((1 - t) * f)
        assert r * c2 + 4 * n * s * d2 >= best * (1 - 1e-12)
    # the statistical split is its case 4 n Delta = 2, R = 1, float for float
    assert jlnrss_sensitive_split(0.01, 0.02, 0.05, 4, 0.125, 1.0) == jlnrss_split(0.01, 0.02, 0.05)


@pytest.mark.parametrize(
    "kw, name",
    [
        ({"sensitivity": 0.0}, "sensitivity"),
        ({"sensitivity": -1.0}, "sensitivity"),
        ({"value_range": 0.0}, "value_range"),
        ({"value_range": float("nan")}, "value_range"),
        ({"n": 0}, "n"),
        ({"c": 0.0}, "c"),
        ({"delta": 1.0}, "delta"),
    ],
)
def test_bad_inputs_name_the_parameter(kw, name):
    args = {"eps": 0.1, "delta": 1e-6, "alpha": 0.1, "beta": 0.01, "c": 0.1, "d": 0.1}
    args |= {"n": 100, "sensitivity": 0.01, "value_range": 1.0}
    args |= kw
    with pytest.raises(InvalidParameter) as err:
        jlnrss_transfer_sensitive(**args)
    assert err.value.name == name


@pytest.mark.parametrize(
    ("args", "name", "value", "allowed"),
    [
        # c = sqrt(beta/R) s / F = beta/F = 2.5e308 with delta = 0: past the floats
        (
            (0.5, 0.0, 2e-309, 10, 0.1, 1.0),
            "value_range",
            1.0,
            "a range at which c = sqrt(beta/R) s/F is a finite float",
        ),
        # 4 n Delta = 4e309
        ((0.01, 0.02, 0.05, 10, 1e308, 1.0), "sensitivity", 1e308, "a sensitivity with 4 n Delta a finite float"),
        # d = sqrt(delta/(4 n Delta)) s / F = sqrt(0.5/4e-320) 0.1 / 1e-200 = 3.5e358
        ((0.01, 0.5, 1e-200, 1, 1e-320, 1.0), "sensitivity", 1e-320, "a sensitivity at which d is a finite float"),
        # the total failure probability is named as such, in (0, 1)
        ((0.01, 0.02, 1.0, 10, 0.1, 1.0), "failure", 1.0, "a real number in (0, 1)"),
        ((0.01, 0.02, 0.0, 10, 0.1, 1.0), "failure", 0.0, "a real number in (0, 1)"),
    ],
)
def test_split_refusals_word_for_word(args, name, value, allowed):
    with pytest.raises(InvalidParameter) as err:
        jlnrss_sensitive_split(*args)
    assert (err.value.name, err.value.value, err.value.allowed) == (name, value, allowed)


def test_the_conditions_checked_are_stated_word_for_word():
    bound = jlnrss_transfer_sensitive(0.0, 0.0625, 0.25, 0.125, 0.5, 0.25, 8, 0.0625, 1.0)
    assert bound.conditions == (
        "the mechanism is (eps, delta)-DP and (alpha, beta)-sample accurate",
        "queries Delta-sensitive, each valued in a known interval of length R, answers clipped into it",
        "n i.i.d. records",
    )


def test_catalog_entry_evaluates_and_cites():
    th = REGISTRY["JLNRSS-transfer-sensitive"]
    assert "Lemma 15" in th.number and "Marchant-Rubinstein" in th.number
    rep = th.report(
        eps=0.0, delta=0.0625, alpha=0.25, beta=0.125, c=0.5, d=0.25, n=8, sensitivity=0.0625, value_range=1.0
    )
    assert (rep["half_width"], rep["coverage"]) == (1.25, 0.5)  # by hand, as the doctest
    assert rep["half_width_rounding"] == "up" and rep["coverage_rounding"] == "down"
    assert rep["source"].startswith("JLNRSS Lemma 15 with Thm 4")


# ---------------------------------------------------------------------------------------------
# Thm 4's resampling step for a range R, exactly on small domains


def _posterior_check(prior, outputs, queries, alpha, r, cs):
    """For the joint law prior(S) * P(pi | S) (``outputs[S]``: {pi: prob}) and ``queries(pi)``
    (the query functions chosen from pi, as a tuple of S -> value), return beta =
    P[max_j |a_j - q_j(S)| > alpha] and, for each c, P_pi[max_j |a_j - q_j(Q_pi)| > alpha + R c]
    with Q_pi the exact posterior (a_j = pi[j])."""
    joint = {}
    for s, w in prior.items():
        for pi, v in outputs[s].items():
            joint[(s, pi)] = joint.get((s, pi), 0) + w * v
    marg = {}
    for (_, pi), w in joint.items():
        marg[pi] = marg.get(pi, 0) + w
    beta = sum(w for (s, pi), w in joint.items() if max(abs(a - q(s)) for a, q in zip(pi, queries(pi))) > alpha)
    out = []
    for c in cs:
        bad = 0
        for pi, m in marg.items():
            post = {s: joint.get((s, pi), 0) / m for s in prior}
            dev = max(abs(a - sum(post[s] * q(s) for s in prior)) for a, q in zip(pi, queries(pi)))
            if dev > alpha + r * c:
                bad += m
        out.append(bad)
    return beta, out


def test_resampling_step_holds_on_an_adaptive_two_query_mechanism():
    """n = 3 records ~ Bernoulli(1/3); q1 = the sum (range [0, 3]); its clipped noisy answer
    chooses q2; both answered with the same discrete noise, clipped into [0, 3]."""
    n, r = 3, 3
    pts = list(itertools.product((0, 1), repeat=n))
    prior = {s: math.prod(F(1, 3) if x else F(2, 3) for x in s) for s in pts}
    noise = {-2: F(1, 10), -1: F(2, 10), 0: F(4, 10), 1: F(2, 10), 2: F(1, 10)}

    def clip(v):
        return min(max(v, 0), r)

    def q2_for(a1):
        return (lambda s: s[0] + s[1] + s[2] * (a1 % 2)) if a1 >= 2 else (lambda s: 3 * s[2])

    outputs = {}
    for s in pts:
        dist = {}
        for z1, w1 in noise.items():
            a1 = clip(sum(s) + z1)
            for z2, w2 in noise.items():
                pi = (a1, clip(q2_for(a1)(s) + z2))
                dist[pi] = dist.get(pi, 0) + w1 * w2
        outputs[s] = dist
    cs = [F(1, 100), F(1, 20), F(1, 10), F(1, 5), F(1, 2), F(1)]
    for alpha in (0, 1):
        beta, bad = _posterior_check(prior, outputs, lambda pi: (sum, q2_for(pi[0])), alpha, r, cs)
        assert 0 < beta < 1
        for c, b in zip(cs, bad):
            assert b <= beta / c


def test_resampling_step_is_tight_and_needs_the_whole_range():
    """One record ~ Bernoulli(1/2), q(S) = R S; the answer is q(S) except with probability
    beta = 1/10, when it is R - q(S). Given the answer, the posterior value is R beta away from
    it: so P[|a - q(Q)| > alpha + R c] = 1 = beta/c at c just below beta (tight), and with any
    factor below R the step fails at some c (here R/2 at c = 3/20: probability 1 > 2/3)."""
    r, beta = 4, F(1, 10)
    prior = {(0,): F(1, 2), (1,): F(1, 2)}
    outputs = {(0,): {(0,): 1 - beta, (r,): beta}, (1,): {(r,): 1 - beta, (0,): beta}}

    def query(pi):
        return (lambda s: r * s[0],)

    cs = [beta * F(999, 1000), beta, F(3, 20)]
    b0, bad = _posterior_check(prior, outputs, query, 0, r, cs)
    assert b0 == beta
    assert bad == [1, 0, 0]  # c < beta: every answer R beta off its posterior value; c >= beta: none
    assert bad[0] <= beta / cs[0] and beta / cs[0] - bad[0] < F(1, 500)  # tight
    _, half = _posterior_check(prior, outputs, query, 0, F(r, 2), cs)
    assert half[2] == 1 > beta / cs[2]  # with R/2 for R the step is false


# ---------------------------------------------------------------------------------------------
# Lemma 15 as read, on exact posteriors (a sanity check of the reading: the lemma is loose here)


def _w1_hamming(mu, nu, pts):
    """The largest E_mu f - E_nu f over f with |f(S) - f(S')| <= 1 for S, S' one record apart
    (the worst 1-sensitive query), by linear programming; returned with a 1e-9 margin up."""
    idx = {p: i for i, p in enumerate(pts)}
    rows = []
    for p in pts:
        for j, x in enumerate(p):
            if x == 0:
                row = np.zeros(len(pts))
                row[idx[p]], row[idx[p[:j] + (1,) + p[j + 1 :]]] = 1, -1
                rows += [row, -row]
    res = linprog(
        -(np.asarray(mu) - np.asarray(nu)),
        A_ub=np.array(rows),
        b_ub=np.ones(len(rows)),
        bounds=[(0, 0)] + [(None, None)] * (len(pts) - 1),
        method="highs",
    )
    assert res.status == 0
    return -res.fun + 1e-9


@pytest.mark.parametrize("n", [1, 2, 3])
@pytest.mark.parametrize("p", [0.5, 0.1])
def test_lemma15_stability_holds_on_randomized_response_with_a_leak(n, p):
    """Per-record randomized response (eps0-DP) that with probability leak outputs the data
    itself ((eps0, delta)-DP with delta computed exactly over neighbouring data): for each
    output the worst 1-sensitive query's posterior shift, and P[shift > (e^eps - 1) n +
    4 c n delta] <= 1/c for c from 1 to 10^4. The lemma is loose on these mechanisms (the largest
    pure-DP shift is 0.24 of (e^eps - 1) n): this catches a reading wrong by a factor above about
    4, not a subtler one; the constants themselves are the source's."""
    pts = list(itertools.product((0, 1), repeat=n))
    prior = np.array([math.prod(p if x else 1 - p for x in s) for s in pts])
    for eps0, leak in [(0.1, 0.0), (1.0, 0.0), (0.5, 0.01), (0.2, 0.1)]:
        keep = math.exp(eps0) / (1 + math.exp(eps0))
        rr = np.array([[math.prod(keep if a == b else 1 - keep for a, b in zip(s, y)) for y in pts] for s in pts])
        like = np.hstack([(1 - leak) * rr, leak * np.eye(len(pts))])
        delta = max(
            np.maximum(0, like[i] - math.exp(eps0) * like[pts.index(s[:j] + (1 - s[j],) + s[j + 1 :])]).sum()
            for i, s in enumerate(pts)
            for j in range(n)
        )
        marg = prior @ like
        outs = [y for y in range(like.shape[1]) if marg[y] > 0]
        shifts = [(marg[y], _w1_hamming(prior * like[:, y] / marg[y], prior, pts)) for y in outs]
        for c in [1.0, 1.5, 3.0, 10.0, 100.0, 1e4]:
            level = math.expm1(eps0) * n + 4 * c * n * delta
            assert sum(m for m, w in shifts if w > level) <= 1 / c
        if leak == 0:  # pure DP: every output's shift is within (e^eps - 1) n
            assert max(w for _, w in shifts) <= math.expm1(eps0) * n
