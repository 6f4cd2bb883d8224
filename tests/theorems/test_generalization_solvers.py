"""DFHPRR Thm 4 + Hoeffding, its remarks, and the certified inverse solvers."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from maxinfo_bounds import (
    InvalidParameter,
    RegimeError,  # noqa: E402
)
from maxinfo_bounds.cli import main
from maxinfo_bounds.theorems.generalization import (  # noqa: E402
    bnsssu_transfer,
    hoeffding_transfer,
    mcdiarmid_transfer,
    pvalue_sensitivity_lower_bound,
)
from maxinfo_bounds.theorems.maxinfo_dp import (
    pure_dp_max_information,
    pure_dp_max_information_product,
)
from maxinfo_bounds.theorems.pvalues import pvalue_correction
from maxinfo_bounds.theorems.solvers import (
    max_eps_for_gamma,
    max_k_for_gamma,
    max_n_for_gamma,
    max_n_for_k,
)

from .reference import DPS, REL, SWEEP, check_down, check_up, log_uniform, mp, rel_exp


def _ref(k, b, t, n):
    with mpmath.workdps(DPS):
        return min(2 * mpmath.exp(mp(k) * mpmath.log(2) - 2 * mp(t) ** 2 * n) + mp(b), mpmath.mpf(1))


def test_hoeffding_sweep():
    rng = np.random.default_rng(21)
    N = SWEEP
    k = log_uniform(rng, 1e-6, 500, N)
    b = rng.uniform(0, 0.1, N)
    t = log_uniform(rng, 1e-4, 1, N)
    n = np.floor(log_uniform(rng, 1, 1e9, N))
    arr = hoeffding_transfer(k, b, t, n)
    for i in range(N):
        ref = _ref(k[i], b[i], t[i], int(n[i]))
        arg = k[i] * math.log(2) + 2 * t[i] ** 2 * n[i]  # documented margin for computed exponents
        check_up(arr[i], ref, 2**-40 + arg * 2.0**-46)
        if i % 10 == 0:  # the scalar path is slower: every tenth point (1,000 points)
            check_up(hoeffding_transfer(float(k[i]), float(b[i]), float(t[i]), int(n[i])), ref, 2**-50)


def test_dfhprr_remarks():
    """2^{log2(e) tau^2 n} * 2 e^{-2 tau^2 n} = 2 e^{-tau^2 n}; and Thm 8's constant is 1/2 + 1/sqrt(2)."""
    tau, n = 0.05, 4000
    k = math.log2(math.e) * tau**2 * n
    assert hoeffding_transfer(k, 0.0, tau, n) == pytest.approx(2 * math.exp(-(tau**2) * n), rel=1e-13)
    beta = 2 * math.exp(-(tau**2) * n)
    kb = pure_dp_max_information_product(tau, n, beta).k
    const = kb / (math.log2(math.e) * tau**2 * n)
    assert const <= 1.25  # DFHPRR's "1.25 log e tau^2 n"
    assert const == pytest.approx(0.5 + 1 / math.sqrt(2), rel=1e-12)  # hand: ln(2/beta) = tau^2 n


def test_solvers_are_certified_and_tight():
    for n in (1, 10, 1000, 10**9):
        e = max_eps_for_gamma(0.05, 1e-3, n)
        assert pvalue_correction(0.05, pure_dp_max_information(e, n).k, 0.0) >= 1e-3
        e2 = math.nextafter(e, math.inf) * (1 + 1e-12)
        assert pvalue_correction(0.05, pure_dp_max_information(e2, n).k, 0.0) < 1e-3
        # hand: eps = ln(0.05/1e-3)/n
        assert e == pytest.approx(math.log(50) / n, rel=1e-12)
    e = max_eps_for_gamma(0.05, 1e-4, 1000, beta=1e-3)
    assert pvalue_correction(0.05, pure_dp_max_information_product(e, 1000, 1e-3).k, 1e-3) >= 1e-4
    k = max_k_for_gamma(0.05, 0.001, 1e-4)
    assert pvalue_correction(0.05, k, 0.001) >= 1e-4 > pvalue_correction(0.05, k * (1 + 1e-12), 0.001)
    n = max_n_for_gamma(0.05, 1e-3, 0.01)
    assert n == 391  # hand: floor(ln(50)/0.01)
    assert max_n_for_k(1.0, 0.01) == 69  # hand: floor(ln 2 / 0.01)
    nk = max_n_for_k(5.0, 0.01, beta=1e-6)
    k_at = pure_dp_max_information_product(0.01, nk, 1e-6).k
    assert k_at <= 5.0 < pure_dp_max_information_product(0.01, nk + 1, 1e-6).k


def test_solver_bad_targets():
    with pytest.raises(InvalidParameter, match="target_gamma"):
        max_k_for_gamma(0.05, 0.01, 0.2)
    with pytest.raises(InvalidParameter, match="target_gamma"):
        max_eps_for_gamma(0.05, 0.2, 10)
    with pytest.raises(InvalidParameter, match="target_k"):
        max_n_for_k(1e-6, 1.0)


def test_solvers_reach_a_target_met_with_equality():
    """A target equal to the certified value at a point is met *at* that point (the solvers'
    predicates are >= and <=, the problem as stated): the solver returns that point or beyond,
    never one step short. gamma(n) and k(n) are strictly monotone in n, so the integer solvers
    return exactly n0."""
    for n0 in (7, 391, 5000):
        t = pvalue_correction(0.05, pure_dp_max_information(0.01, n0).k, 0.0)
        assert max_n_for_gamma(0.05, t, 0.01) == n0
        tb = pvalue_correction(0.05, pure_dp_max_information_product(0.01, n0, 1e-6).k, 1e-6)
        assert max_n_for_gamma(0.05, tb, 0.01, beta=1e-6) == n0
        assert max_n_for_k(pure_dp_max_information(0.01, n0).k, 0.01) == n0
        assert max_n_for_k(pure_dp_max_information_product(0.01, n0, 1e-6).k, 0.01, beta=1e-6) == n0
    for e0 in (1e-3, 0.0391, 0.5):
        t = pvalue_correction(0.05, pure_dp_max_information(e0, 100).k, 0.0)
        assert max_eps_for_gamma(0.05, t, 100) >= e0


def test_solver_refusal_shows_the_route_bound():
    """max_n_for_k's refusal quotes the bound at n = 1 of the route asked for: with beta, RRST
    Thm 1.4's second part, log2(e) (eps^2/2 + eps sqrt(ln(2/beta)/2)) = 4.6071 bits at
    eps = 1, beta = 1e-6 (hand: 1.4427 * (0.5 + sqrt(ln(2e6)/2) = 2.6934); 50 digits), not the first part's
    log2(e) = 1.4427 bits."""
    with pytest.raises(InvalidParameter) as info:
        max_n_for_k(1.0, 1.0, beta=1e-6)
    with mpmath.workdps(50):
        ref = (mpmath.mpf("0.5") + mpmath.sqrt(mpmath.log(2 / mpmath.mpf(1e-6)) / 2)) / mpmath.log(2)
    shown = float(str(info.value).split("(")[-1].split(" bits")[0])
    assert shown == pytest.approx(float(ref), rel=1e-12) and 4.607 < shown < 4.608
    with pytest.raises(InvalidParameter, match=r"\(1\.4426950408889\d* bits\)"):
        max_n_for_k(1.0, 1.0)


def test_cli_solve(capsys):
    assert main(["solve", "n", "--alpha", "0.05", "--target-gamma", "1e-3", "--eps", "0.01", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["n"] == 391
    assert main(["solve", "eps", "--alpha", "0.05", "--n", "100"]) == 2
    assert "target_gamma=None is invalid" in capsys.readouterr().err


# ------------------------------------------------------------------------------------------
# RRST App. B and D


def test_lemma_b1_against_the_binomial_test():
    """RRST Lemma B.1 against a p-value whose sensitivity is known exactly: the one-sided
    binomial test on n fair bits, p(c) = P[Bin(n, 1/2) >= c], changes by pmf(c) when one record
    flips, so its sensitivity is the largest binomial pmf (scipy). The lemma's lower bound must
    not exceed it (for the discrete test the lemma's premise is only approximate, so this is a
    consistency check of the bound's size, about 0.8/sqrt(n) against 0.37/sqrt(n))."""
    from scipy.stats import binom

    for n in (1, 2, 5, 10, 100, 1000, 10_000, 100_000):
        sens = float(binom.pmf(np.arange(n + 1), n, 0.5).max())
        assert pvalue_sensitivity_lower_bound(n) <= sens
        assert pvalue_sensitivity_lower_bound(n) * 3 > sens * 1  # within a factor 3


def test_lemma_b1_constants():
    with mpmath.workdps(DPS):
        at_008 = (mpmath.mpf("0.5") - mpmath.mpf("0.08")) / mpmath.sqrt(mpmath.log(1 / mpmath.mpf("0.08")) / 2)
        assert mpmath.mpf("0.37") < at_008 < mpmath.mpf("0.373742")  # the paper's step (50 digits)
        best = mpmath.findroot(
            lambda d: mpmath.diff(lambda x: (mpmath.mpf(1) / 2 - x) / mpmath.sqrt(mpmath.log(1 / x) / 2), d), 0.08
        )
        c_best = (mpmath.mpf(1) / 2 - best) / mpmath.sqrt(mpmath.log(1 / best) / 2)
    for n in (1, 7, 10**6, 10**12):
        lo = pvalue_sensitivity_lower_bound(n)
        assert mp(lo) <= c_best / mpmath.sqrt(n)  # certified below the best constant of the proof
        assert mp(lo) >= c_best / mpmath.sqrt(n) * (1 - mpmath.mpf(10) ** -12)  # and essentially at it
        paper = pvalue_sensitivity_lower_bound(n, variant="paper")
        with mpmath.workdps(DPS):
            ref = mpmath.mpf(37) / 100 / mpmath.sqrt(n)  # the paper's 0.37/sqrt(n), hand
        assert mp(paper) <= ref and mp(paper) >= ref * (1 - mpmath.mpf(10) ** -15)
    # RRST's conclusion: 18 eps (0.37) sqrt(n) >= 1 on Thm B.2's range n >= ln(4eps/delta)/eps^2
    for eps, delta in [(0.3, 1e-3), (0.1, 1e-6), (0.01, 1e-9)]:
        n = math.ceil(math.log(4 * eps / delta) / eps**2)
        assert 18 * eps * pvalue_sensitivity_lower_bound(n) * n >= 1


def test_bnsssu_and_regime():
    b = bnsssu_transfer(0.1, 1e-6, 2000, 1e-3)
    assert b.deviation >= 3.6 and b.deviation == pytest.approx(3.6, rel=1e-15)  # 18*0.1*1e-3*2000
    assert b.probability >= 1e-6 / 0.1 * (1 - 1e-15)
    with pytest.raises(RegimeError, match="n >= ln"):
        bnsssu_transfer(0.1, 1e-6, 100, 1e-3)
    with pytest.raises(RegimeError, match="eps in"):
        bnsssu_transfer(0.5, 1e-6, 10**6, 1e-3)
    assert not bnsssu_transfer(0.1, 1e-6, 100, 1e-3, strict=False).in_regime


def test_mcdiarmid_two_sided():
    for k, b, tau, n, s in [(0.0, 0.0, 0.5, 128, 0.0625), (3.0, 1e-4, 0.05, 10**4, 1e-3)]:
        with mpmath.workdps(DPS):
            core = mpmath.exp(mp(k) * mpmath.log(2) - 2 * mp(tau) ** 2 / (n * mp(s) ** 2))
        check_up(mcdiarmid_transfer(k, b, tau, n, s), min(2 * core + mp(b), mpmath.mpf(1)), 2**-50)
        check_up(mcdiarmid_transfer(k, b, tau, n, s, variant="paper"), min(core + mp(b), mpmath.mpf(1)), 2**-50)


def test_solver_widens_past_its_first_bracket():
    """eps = 1e-20: the largest n is ln(50)/eps ~ 3.9e20, far past the first bracket (1e15); the
    answer is the true boundary (50-digit hand value), never the bracket's edge."""
    import mpmath

    from maxinfo_bounds.theorems.solvers import max_n_for_gamma

    n = max_n_for_gamma(0.05, 1e-3, 1e-20)
    with mpmath.workdps(50):
        n_true = int(mpmath.floor(mpmath.log(50) / mpmath.mpf(1e-20)))  # gamma = 0.05 e^{-eps n}
    # never above the true boundary; below it only by the certified rounding (~1e-16 relative)
    assert n_true * (1 - 1e-15) <= n <= n_true


def test_hoeffding_transfer_with_only_n_an_array():
    """DFHPRR Thm 4 + Hoeffding: 2^k * 2 e^{-2 tau^2 n} + beta; an array in n alone takes
    the array path (k = 0, beta = 0, tau = 0.1: 2e^-2 and 2e^-4, by hand)."""
    import numpy as np

    from maxinfo_bounds.theorems.generalization import hoeffding_transfer

    out = hoeffding_transfer(0.0, 0.0, 0.1, np.array([100, 200]))
    assert isinstance(out, np.ndarray) and out.shape == (2,)
    ref = np.array([0.27067056647322538, 0.036631277777468357])  # 2 e^-2, 2 e^-4
    assert np.all(out >= ref) and np.all(out <= ref * (1 + 1e-12))


def test_solver_answers_at_their_lower_edge_and_refusal_texts():
    """Answers at the edge of the search (n = 1, k below 1, an exact boundary), hand-computed:
    pure DP via RRST Thm 1.4a gives gamma = alpha e^{-eps n}, k = eps n log2(e)."""
    # 0.05 e^{-3} = 2.49e-3 >= 1e-3 > 0.05 e^{-6}: n = 1 is the answer; at eps = 4 even n = 1
    # misses (0.05 e^{-4} = 9.2e-4)
    assert max_n_for_gamma(0.05, 1e-3, 3.0) == 1
    with pytest.raises(InvalidParameter) as e1:
        max_n_for_gamma(0.05, 1e-3, 4.0)
    assert str(e1.value) == ("target_gamma=0.001 is invalid: must be reachable with n = 1 at this eps")
    # k(1) = 0.5/ln 2 = 0.72 <= 1 < k(2) = 1.44: n = 1; at eps = 1, k(1) = 1/ln 2 > 1
    assert max_n_for_k(1.0, 0.5) == 1
    with pytest.raises(InvalidParameter) as e2:
        max_n_for_k(1.0, 1.0)
    head, _, k1 = str(e2.value).rpartition("(")
    assert head == "target_k=1.0 is invalid: must be at least the bound at n = 1 "
    assert k1.endswith(" bits)") and 0 <= float(k1[:-6]) - 1 / math.log(2) <= 1e-15
    # max k below 1: log2(0.05/0.04) = 0.3219280948873623 (hand); and an exact boundary
    # (alpha - beta)/2^k = target at k = 2 exactly: the answer is 2.0 itself (ties accepted)
    k = max_k_for_gamma(0.05, 0.0, 0.04)
    assert 0.3219280948873622 <= k <= 0.3219280948873624
    assert max_k_for_gamma(0.05, 0.01, 0.01) == 2.0
    with pytest.raises(InvalidParameter) as e3:
        max_k_for_gamma(0.05, 0.01, 0.045)
    assert str(e3.value) == "target_gamma=0.045 is invalid: must be at most alpha - beta = 0.04"
    with pytest.raises(InvalidParameter) as e4:
        max_eps_for_gamma(0.05, 0.04, 10, beta=0.02)
    head, _, g0 = str(e4.value).partition(" ~ ")
    assert head == ("target_gamma=0.04 is invalid: must be below what eps -> 0 allows, (alpha - beta)/2^k(0+)")
    assert 0.0299999 < float(g0) <= 0.03  # (0.05 - 0.02)/2^k at k(eps = 1e-300) ~ 0


def test_solvers_with_beta_are_tight_for_the_iid_bound():
    """With beta the solvers must use RRST Thm 1.4b (i.i.d.), not 1.4a: the answer is the
    largest value whose 1.4b bound meets the target, so the next float / integer misses it,
    and it is larger than the 1.4a answer (1.4b is the smaller bound at these sizes)."""
    from maxinfo_bounds.theorems.maxinfo_dp import pure_dp_max_information_product as prod
    from maxinfo_bounds.theorems.pvalues import pvalue_correction

    e = max_eps_for_gamma(0.05, 1e-4, 1000, beta=1e-3)
    assert pvalue_correction(0.05, prod(e, 1000, 1e-3).k, 1e-3) >= 1e-4
    e_up = math.nextafter(e, math.inf) * (1 + 1e-12)
    assert pvalue_correction(0.05, prod(e_up, 1000, 1e-3).k, 1e-3) < 1e-4
    assert e > max_eps_for_gamma(0.05, 1e-4, 1000)
    n = max_n_for_gamma(0.05, 1e-4, 0.01, beta=1e-3)
    assert pvalue_correction(0.05, prod(0.01, n, 1e-3).k, 1e-3) >= 1e-4
    assert pvalue_correction(0.05, prod(0.01, n + 1, 1e-3).k, 1e-3) < 1e-4
    assert n > max_n_for_gamma(0.05, 1e-4, 0.01)
    nk = max_n_for_k(5.0, 0.01, beta=1e-6)
    assert nk > max_n_for_k(5.0, 0.01)


# RRST Thm B.2 (BNSSSU) at its regime edges, on both paths, by hand. B.2's conditions: eps in
# (0, 1/3), delta in (0, eps/4), n >= ln(4 eps/delta)/eps^2. At eps = 0.1, delta = 1e-6:
# ln(4e5)/0.01 = 12.899219826.../0.01 = 1289.92, so n = 1290 is the first n inside.
N_TEXT = "RRST Thm B.2 does not apply: it requires n >= ln(4 eps/delta)/eps^2, got n=1289.0"


DELTA_TEXT = "RRST Thm B.2 does not apply: it requires delta in (0, eps/4), got delta=0.025"


EPS_TEXT = "RRST Thm B.2 does not apply: it requires eps in (0, 1/3), got eps=0.34"


def test_b2_scalar_edges_and_texts():
    b = bnsssu_transfer(0.1, 1e-6, 1290, 1e-3)
    assert b.in_regime and b.theorem == "RRST-B.2"
    assert b.deviation == pytest.approx(18 * 0.1 * 1e-3 * 1290, rel=1e-15)  # 2.322
    assert b.probability == pytest.approx(1e-5, rel=1e-15)  # delta/eps
    assert b.conditions[-1] == "i.i.d. data" and len(b.conditions) == 4
    for args, text in [
        ((0.1, 1e-6, 1289, 1e-3), N_TEXT),
        ((0.1, 0.025, 10**6, 1e-3), DELTA_TEXT),
        ((0.34, 1e-6, 10**6, 1e-3), EPS_TEXT),
    ]:
        with pytest.raises(RegimeError) as e:
            bnsssu_transfer(*args)
        assert str(e.value) == text
    # the first failing condition is the one named: eps, then delta, then n
    with pytest.raises(RegimeError) as e:
        bnsssu_transfer(0.34, 0.5, 2, 1e-3)
    assert "requires eps in (0, 1/3)" in str(e.value)
    with pytest.raises(RegimeError) as e:
        bnsssu_transfer(0.1, 0.5, 2, 1e-3)
    assert "requires delta in (0, eps/4)" in str(e.value)
    # exact edges: eps = 1/3 and delta = eps/4 are outside; just inside is inside
    for eps, delta in [(Fraction(1, 3), Fraction(1, 10**6)), (Fraction(1, 10), Fraction(1, 40))]:
        with pytest.raises(RegimeError):
            bnsssu_transfer(eps, delta, 10**9, 1e-3)
    assert bnsssu_transfer(Fraction(1, 3) - Fraction(1, 10**9), Fraction(1, 10**6), 10**9, 1e-3).in_regime
    assert bnsssu_transfer(0.1, 0.025 * (1 - 1e-12), 10**6, 1e-3).in_regime


def test_b2_out_of_regime_is_marked_and_capped():
    b = bnsssu_transfer(0.1, 0.5, 10, 1e-3, strict=False)
    assert not b.in_regime and b.probability == 1.0  # delta/eps = 5, capped at 1
    assert b.deviation == pytest.approx(18 * 0.1 * 1e-3 * 10, rel=1e-15)
    assert bnsssu_transfer(0.1, 1e-6, 1289, 1e-3, strict=False).in_regime is False
    assert bnsssu_transfer(0.34, 1e-6, 10**6, 1e-3, strict=False).in_regime is False


def test_b2_array_edges():
    dev, prob = bnsssu_transfer(np.array([0.1, 0.1]), 1e-6, np.array([1290, 5000]), 1e-3)
    assert dev == pytest.approx([2.322, 9.0], rel=1e-12) and prob == pytest.approx([1e-5, 1e-5], rel=1e-12)
    for eps, delta, n, text in [
        (0.1, 1e-6, 1289, N_TEXT),
        (0.1, 0.025, 10**6, DELTA_TEXT),
        (0.34, 1e-6, 10**6, EPS_TEXT),
    ]:
        with pytest.raises(RegimeError) as e:  # one bad entry among good ones
            bnsssu_transfer(np.array([0.1, eps]), np.array([1e-6, delta]), np.array([10**6, n]), 1e-3)
        assert str(e.value) == text
    # strict=False: values everywhere, the probability capped at 1
    dev, prob = bnsssu_transfer(np.array([0.1, 0.1]), np.array([1e-6, 0.5]), np.array([10, 10]), 1e-3, strict=False)
    assert prob[1] == 1.0 and prob[0] == pytest.approx(1e-5, rel=1e-12)


N = SWEEP


def test_d1_and_b1_vectorised():
    rng = np.random.default_rng(44)
    k = rng.uniform(0, 60, N)
    b = rng.uniform(0, 0.1, N)
    tau = log_uniform(rng, 1e-3, 1, N)
    n = np.floor(log_uniform(rng, 1, 1e8, N))
    s = log_uniform(rng, 1e-6, 1e-1, N)
    v = mcdiarmid_transfer(k, b, tau, n, s)
    for i in range(N):
        with mpmath.workdps(DPS):
            ref = min(
                2 * mpmath.exp(mp(k[i]) * mpmath.log(2) - 2 * mp(tau[i]) ** 2 / (int(n[i]) * mp(s[i]) ** 2)) + mp(b[i]),
                mpmath.mpf(1),
            )
        check_up(v[i], ref, rel_exp(k[i] * math.log(2) + 2 * tau[i] ** 2 / (n[i] * s[i] ** 2)))
    ns = np.floor(log_uniform(rng, 1, 1e12, N))
    lo = pvalue_sensitivity_lower_bound(ns)
    c1 = mp(pvalue_sensitivity_lower_bound(1))
    for i in range(0, N, 10):
        with mpmath.workdps(DPS):
            check_down(lo[i], c1 / mpmath.sqrt(int(ns[i])), REL)
