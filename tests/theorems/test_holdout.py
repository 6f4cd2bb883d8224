"""Thresholdout and SparseValidate: the pseudocode transcribed, budgets, noise scale, guarantees."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction as F

import mpmath
import numpy as np
import pytest
from scipy import stats

from maxinfo_bounds import InvalidParameter, RegimeError, SparseValidate, Thresholdout
from maxinfo_bounds.theorems.dp_accounting import advanced_composition
from maxinfo_bounds.theorems.holdout import (
    BudgetExhausted,
    sparse_validate_bound,
    sparse_validate_factor,
    thresholdout_dp,
    thresholdout_theorem9,
)

from .reference import DPS, check_up, mp


def _pseudocode(train_means, hold_means, T, sigma, B, seed):
    """DFHPRR §3's pseudocode, line by line (Laplace noise), on precomputed query means."""
    rng = np.random.default_rng(seed)
    gamma = rng.laplace(0.0, 2 * sigma)  # 1. sample gamma ~ Lap(2 sigma)
    T_hat = T + gamma
    out = []
    for et, eh in zip(train_means, hold_means):  # 2. for each query
        if B < 1:  # (a) if B < 1 output bottom
            out.append(None)
            continue
        eta = rng.laplace(0.0, 4 * sigma)  # i. eta ~ Lap(4 sigma)
        if abs(eh - et) > T_hat + eta:  # ii.
            xi = rng.laplace(0.0, sigma)  # A. xi ~ Lap(sigma), gamma ~ Lap(2 sigma)
            gamma = rng.laplace(0.0, 2 * sigma)
            B -= 1  # B.
            T_hat = T + gamma
            out.append(eh + xi)  # C.
        else:
            out.append(et)  # iii.
    return out


def test_answers_match_pseudocode_on_fixed_seeds():
    rng = np.random.default_rng(2024)
    n = 500
    train = rng.integers(0, 2, size=(n, 40)).astype(float)
    hold = rng.integers(0, 2, size=(n, 40)).astype(float)
    hold[:, :10] = 1.0  # the first ten features overfit: training mean ~1/2, holdout mean 1
    for seed in (0, 1, 7):
        th = Thresholdout(train, hold, threshold=0.04, sigma=0.01, budget=6, rng=seed)
        got = [th.query(lambda x, j=j: x[:, j]) for j in range(40)]
        ref = _pseudocode(train.mean(axis=0), hold.mean(axis=0), 0.04, 0.01, 6, seed)
        assert got == ref
        assert th.remaining_budget == 0 and got[-1] is None
        assert sum(a is not None and a not in train.mean(axis=0) for a in got) == 6


def test_budget_accounting_and_refusal():
    th = Thresholdout(np.zeros(100), np.ones(100), threshold=0.01, sigma=1e-4, budget=3, rng=0, on_exhausted="raise")
    for i in range(3):
        assert th.query_values(np.zeros(100), np.ones(100)) == pytest.approx(1.0, abs=0.01)
        assert th.remaining_budget == 2 - i
    with pytest.raises(BudgetExhausted, match="B = 3"):
        th.query_values(np.zeros(100), np.ones(100))
    # a query that agrees costs nothing
    th2 = Thresholdout(np.zeros(100), np.zeros(100), threshold=0.1, sigma=1e-4, budget=1, rng=0)
    for _ in range(50):
        assert th2.query_values(np.zeros(100), np.zeros(100)) == 0.0
    assert th2.remaining_budget == 1 and th2.queries_answered == 50


@pytest.mark.parametrize("noise", ["laplace", "gaussian"])
def test_noise_has_the_stated_scale(noise):
    """Always over threshold: every answer is the holdout mean (1) plus xi; xi must be
    Lap(sigma) (resp. N(0, sigma^2)): Kolmogorov-Smirnov on 4,000 answers, fixed seed."""
    sigma = 0.003
    th = Thresholdout(np.zeros(10), np.ones(10), threshold=0.0, sigma=sigma, budget=4000, rng=11, noise=noise)
    xs = np.array([th.query_values(np.zeros(10), np.ones(10)) for _ in range(4000)]) - 1.0
    dist = stats.laplace(scale=sigma) if noise == "laplace" else stats.norm(scale=sigma)
    assert stats.kstest(xs, dist.cdf).pvalue > 1e-3
    wrong = stats.laplace(scale=1.5 * sigma) if noise == "laplace" else stats.norm(scale=1.5 * sigma)
    assert stats.kstest(xs, wrong.cdf).pvalue < 1e-6  # the test can tell a wrong scale


def test_threshold_noise_rate():
    """The threshold noise gamma ~ Lap(2 sigma) is redrawn only after an over-threshold answer,
    and each query draws eta ~ Lap(4 sigma): a renewal process. With c = |diff| - T, a cycle
    lasts Geometric(p(gamma)) queries, p(g) = P[eta < c - g], so the long-run fraction of
    over-threshold answers is 1 / E[1/p(gamma)]: 1/(4 ln 2) = 0.3607 at c = 0 (by hand), and by
    quadrature at c = 4 sigma. 60,000 queries; tolerance 4 standard deviations of the renewal CLT
    (cycle-length variance by quadrature)."""
    from scipy.integrate import quad

    sigma, n_q = 0.01, 60_000
    for c, seed in [(0.0, 3), (0.04, 4)]:
        lap2, lap4 = stats.laplace(scale=2 * sigma), stats.laplace(scale=4 * sigma)
        m1 = quad(lambda g: lap2.pdf(g) / lap4.cdf(c - g), -1, 1, points=[0.0, c], limit=200)[0]
        m2 = quad(
            lambda g: lap2.pdf(g) * (2 - lap4.cdf(c - g)) / lap4.cdf(c - g) ** 2, -1, 1, points=[0.0, c], limit=200
        )[0]
        if c == 0:
            assert m1 == pytest.approx(4 * math.log(2), rel=1e-9)
        th = Thresholdout(np.zeros(4), np.full(4, 0.5 + c), threshold=0.5, sigma=sigma, budget=10**6, rng=seed)
        over = sum(th.query_values(np.zeros(4), np.full(4, 0.5 + c)) != 0.0 for _ in range(n_q))
        rel_sd = math.sqrt((m2 - m1 * m1) / (n_q / m1)) / m1
        assert abs(over / n_q * m1 - 1) < 4 * rel_sd, (over / n_q, 1 / m1, rel_sd)


def test_dp_parameters():
    assert thresholdout_dp(10, 0.01, 1000).eps == 2.0
    check_up(thresholdout_dp(7, 0.003, 333).eps, mp(14) / (mp(0.003) * 333), 2**-50)
    for B, s, n, d in [(100, 0.01, 10_000, 1e-6), (1000, 0.05, 50_000, 1e-9)]:
        paper = thresholdout_dp(B, s, n, delta=d, variant="paper")
        with mpmath.workdps(DPS):
            check_up(paper.eps, mpmath.sqrt(32 * B * mpmath.log(2 / mp(d))) / (mp(s) * n), 2**-50)
        sound = thresholdout_dp(B, s, n, delta=d)
        assert sound.eps <= paper.eps and sound.delta <= d
        assert (
            sound.eps == advanced_composition([(2 / (s * n) * (1 + 2**-52), 0.0)] * B, d).eps
            or sound.eps <= advanced_composition([(2 / (s * n) * (1 + 2**-50), 0.0)] * B, d).eps
        )
    th = Thresholdout(np.zeros(1000), np.zeros(1000), threshold=0.04, sigma=0.01, budget=10, rng=0)
    assert th.dp_guarantee().eps == 2.0
    # RRST Thm 1.4a: k = log2(e) eps n = log2(e) * 2B/sigma bits
    with mpmath.workdps(DPS):
        check_up(th.max_information().k, 2.0 * 1000 / mpmath.log(2), 2**-48)
    g = Thresholdout(np.zeros(10), np.zeros(10), threshold=0.04, sigma=0.01, budget=1, rng=0, noise="gaussian")
    with pytest.raises(RegimeError, match="noise"):
        g.dp_guarantee()


@pytest.mark.parametrize(
    "B, s, n, d",
    [(100, 0.01, 10_000, 1e-6), (1000, 0.05, 50_000, 1e-9), (3, 0.2, 100, 1e-3), (400, 0.002, 10**6, 1e-12)],
)
def test_sound_thresholdout_eps_against_hand_composition(B, s, n, d):
    """The sound (eps, delta) of Thresholdout against Dwork & Roth Thm 3.16 / 3.20 written out
    here at 50 digits with the per-answer cost 2/(sigma n) of the Notes' lemma (Laplace
    AboveThreshold 1/(sigma n) plus the noisy answer 1/(sigma n)), not through the package's
    composition code."""
    with mpmath.workdps(DPS):
        e0 = mp(2) / (mp(s) * n)
        basic = B * e0
        adv = mpmath.sqrt(2 * B * mpmath.log(1 / mp(d))) * e0 + B * e0 * mpmath.expm1(e0)
        ref = min(basic, adv)
        g = thresholdout_dp(B, s, n, delta=d)
        assert g.delta <= d
        check_up(g.eps, ref, 2**-40)


def test_theorem9_parameters():
    p = thresholdout_theorem9(0.01, 1000, 10, 0.05)
    assert p.threshold == 0.0075
    assert p.sigma <= 0.01 / (96 * math.log(80_000)) <= p.sigma * (1 + 1e-15)
    lm = math.log(1000 / 0.05)
    assert p.n0_shape == pytest.approx(lm / 1e-4 * min(10, math.sqrt(10 * math.log(lm / 0.01))))
    with pytest.raises(InvalidParameter, match=r"budget=10 is invalid: must be an integer in \[1, 5\]"):
        thresholdout_theorem9(0.01, 5, 10, 0.05)
    # budget <= m is a closed end: B = m is allowed (m = 10: sigma = 0.01/(96 ln(4m/beta)) =
    # 0.01/(96 ln 800), hand)
    q = thresholdout_theorem9(0.01, 10, 10, 0.05)
    assert q.sigma <= 0.01 / (96 * math.log(800)) <= q.sigma * (1 + 1e-15)


def test_bad_inputs():
    th = Thresholdout(np.zeros(5), np.zeros(5), threshold=0.04, sigma=0.01, budget=1, rng=0)
    with pytest.raises(InvalidParameter, match=r"\[0, 1\]"):
        th.query_values(np.full(5, 1.5), np.zeros(5))
    with pytest.raises(InvalidParameter, match="one value per record"):
        th.query_values(np.zeros(4), np.zeros(5))
    with pytest.raises(InvalidParameter, match=r"\[0, 1\]"):
        th.query_values(np.full(5, np.nan), np.zeros(5))
    with pytest.raises(InvalidParameter, match="rng"):
        Thresholdout(np.zeros(5), np.zeros(5), threshold=0.04, sigma=0.01, budget=1, rng=None)
    with pytest.raises(InvalidParameter, match="sigma"):
        Thresholdout(np.zeros(5), np.zeros(5), threshold=0.04, sigma=0.0, budget=1, rng=0)
    with pytest.raises(InvalidParameter, match="noise"):
        Thresholdout(np.zeros(5), np.zeros(5), threshold=0.04, sigma=0.1, budget=1, rng=0, noise="x")


# ---------------------------------------------------------------------------------------------
# SparseValidate
# ---------------------------------------------------------------------------------------------


def test_sparse_validate_factor_exact():
    # hand: i = 3, B = 1: C(3,0) + C(3,1) = 4 ; i = 5, B = 2: 1 + 5 + 10 = 16
    assert sparse_validate_factor(3, 1) == 4 and sparse_validate_factor(5, 2) == 16
    assert sparse_validate_factor(1, 5) == 1  # min(i - 1, B) = 0
    big = sparse_validate_factor(1000, 40)
    assert big == sum(math.comb(1000, j) for j in range(41)) and big.bit_length() > 200
    # 'histories' is the number of answer strings of length i-1 with at most B ones (brute force)
    for i in range(1, 10):
        for B in range(0, 5):
            count = sum(1 for h in itertools.product((0, 1), repeat=i - 1) if sum(h) <= B)
            assert sparse_validate_factor(i, B, variant="histories") == count
            assert count <= sparse_validate_factor(i, B)


def test_sparse_validate_paper_bound_m_to_the_B_fails_at_B_1():
    """DFHPRR Thm 10 also states l_i <= m^B; at B = 1, l_m = 1 + m > m (docs/errata.md)."""
    for m in range(2, 50):
        assert sparse_validate_factor(m, 1) == m + 1 > m**1
    for m in range(2, 30):
        for B in range(2, 6):
            assert sparse_validate_factor(m, B) <= m**B  # B >= 2: the stated bound holds here


def test_sparse_validate_run():
    hold = np.array([0, 1, 1, 0, 1])
    sv = SparseValidate(hold, m=4, budget=2)
    assert sv.query(lambda s: s.sum() >= 3) is True
    assert sv.query(lambda s: s.sum() >= 10) is False
    assert sv.query(lambda s: s[1] == 1) is True
    assert sv.exhausted and sv.query(lambda s: True) is None
    assert sv.failure_bound(3, 0.001) == sparse_validate_bound(3, 2, 0.001)
    assert F(sparse_validate_bound(3, 2, 0.001)) >= 7 * F(0.001)
    with pytest.raises(InvalidParameter, match="psi"):
        SparseValidate(hold, m=4, budget=2).query(lambda s: 3)
    sv = SparseValidate(hold, m=1, budget=1, on_exhausted="raise")
    sv.query(lambda s: False)
    with pytest.raises(BudgetExhausted):
        sv.query(lambda s: False)


class _Scripted(np.random.Generator):
    """A Generator whose Laplace and normal draws return scripted values and record their
    (loc, scale): the pseudocode's draws, their order and their scales, checked exactly."""

    def __init__(self, values):
        super().__init__(np.random.PCG64(0))
        self.values, self.calls = list(values), []

    def laplace(self, loc=0.0, scale=1.0, size=None):
        self.calls.append(("laplace", loc, scale))
        return self.values.pop(0)

    def normal(self, loc=0.0, scale=1.0, size=None):
        self.calls.append(("normal", loc, scale))
        return self.values.pop(0)


@pytest.mark.parametrize("noise", ["laplace", "gaussian"])
def test_thresholdout_steps_with_scripted_noise(noise):
    """DFHPRR §3 step by step with chosen noise values (hand-worked): T = 1/4, sigma = 1/64
    (binary fractions, so every sum below is exact).

    draws: gamma_0 = 1/64 -> T_hat = 17/64
      q1  e_t = e_h = 1/2:     eta = 0        |0| > 17/64?            no  -> e_t = 1/2
      q2  e_t = 1/2, e_h = 3/4: eta = -1/64   1/4 > 16/64?            no (equality) -> 1/2
      q3  same:                 eta = -1/32   1/4 > 15/64?            yes -> xi = 1/128,
          gamma = -1/64: answer 3/4 + 1/128, T_hat = 15/64, budget 2 -> 1
      q4  e_t = 3/4, e_h = 1/2: eta = 0       1/4 > 15/64?            yes -> xi = -1/128,
          gamma = 0: answer 1/2 - 1/128, budget 0
      q5  any: bottom (None), no draw.
    """
    s = 1 / 64
    rng = _Scripted([1 / 64, 0.0, -1 / 64, -1 / 32, 1 / 128, -1 / 64, 0.0, -1 / 128, 0.0])
    th = Thresholdout(np.zeros(2), np.zeros(2), threshold=0.25, sigma=s, budget=2, rng=rng, noise=noise)
    assert th.answer_means(0.5, 0.5) == 0.5
    assert th.answer_means(0.5, 0.75) == 0.5
    assert (th.remaining_budget, th.over_threshold) == (2, 0)
    assert th.answer_means(0.5, 0.75) == 0.75 + 1 / 128
    assert (th.remaining_budget, th.over_threshold, th.queries_answered) == (1, 1, 3)
    assert th.answer_means(0.75, 0.5) == 0.5 - 1 / 128
    assert (th.remaining_budget, th.over_threshold, th.queries_answered) == (0, 2, 4)
    assert th.answer_means(0.75, 0.5) is None
    assert th.queries_answered == 4 and rng.values == []
    # the scales: gamma ~ 2 sigma, eta ~ 4 sigma, xi ~ sigma, all centred
    kind = "laplace" if noise == "laplace" else "normal"
    assert rng.calls == [(kind, 0.0, c * s) for c in (2, 4, 4, 4, 1, 2, 4, 1, 2)]


def test_thresholdout_threshold_is_redrawn_after_each_over_threshold_answer():
    """gamma_0 = +1/8 would keep every answer of q2 under threshold; after q1's redraw
    gamma = -1/8 the same query is over it (T = 1/4, sigma = 1/64, hand)."""
    rng = _Scripted([1 / 8, 0.0, 0.0, -1 / 8, 0.0, 0.0, 0.0])
    th = Thresholdout(np.zeros(2), np.zeros(2), threshold=0.25, sigma=1 / 64, budget=5, rng=rng)
    assert th.answer_means(0.0, 0.5) == 0.5  # 1/2 > 3/8: over; gamma -> -1/8
    assert th.answer_means(0.25, 0.5) == 0.5  # 1/4 > 1/8 + 0: over (under gamma_0 it was not)
    assert th.over_threshold == 2


def test_sparse_validate_bound_variant_and_cap():
    """Thm 10's l_i beta_i for both factors, and the cap at 1 (hand: i = 3, B = 1: paper l = 4,
    histories l = 3)."""
    assert sparse_validate_bound(3, 1, 0.01) == 0.04
    assert sparse_validate_bound(3, 1, 0.125, variant="histories") == 0.375
    assert sparse_validate_bound(3, 1, 0.125) == 0.5
    assert sparse_validate_bound(3, 1, 0.5) == 1.0  # 4 * 0.5 = 2: capped at 1
    assert sparse_validate_bound(3, 1, 0.25) == 1.0  # exactly 1
    # a bit psi may return as 0/1 or False/True; 0 and False are accepted
    sv = SparseValidate(np.array([0, 1]), m=3, budget=2)
    assert sv.query(lambda s: 0) is False and sv.query(lambda s: False) is False
    assert sv.query(lambda s: 1) is True


def test_thresholdout_dp_guarantee_passes_its_arguments():
    th = Thresholdout(np.zeros(1000), np.zeros(1000), threshold=0.04, sigma=0.01, budget=10, rng=0)
    for variant in ("sound", "paper"):
        assert th.dp_guarantee(1e-6, variant=variant) == thresholdout_dp(10, 0.01, 1000, delta=1e-6, variant=variant)
    assert th.dp_guarantee(1e-6, variant="paper").conditions[-1] == "paper closed form"
    # 0-d datasets are refused by name (not by numpy's "len() of unsized object")
    for train, hold, name in ((np.float64(1.0), np.zeros(3), "train"), (np.zeros(3), 5, "holdout")):
        with pytest.raises(InvalidParameter, match=f"^{name}="):
            Thresholdout(train, hold, threshold=0.04, sigma=0.01, budget=1, rng=0)


def _thresholdout(**kw):
    args = {"threshold": 0.04, "sigma": 0.01, "budget": 2, "rng": 1}
    args.update(kw)
    return Thresholdout(np.zeros(10), np.ones(10), **args)


def test_thresholdout_refusals_and_guarantee():
    t = _thresholdout()
    with pytest.raises(InvalidParameter) as e1:
        t.query(3)  # type: ignore[arg-type]
    assert str(e1.value) == "phi=3 is invalid: must be a callable mapping records to values in [0, 1]"
    with pytest.raises(InvalidParameter) as e2:
        _thresholdout(on_exhausted="stop")  # type: ignore[arg-type]
    assert str(e2.value) == "on_exhausted='stop' is invalid: must be 'bottom' or 'raise'"
    g = _thresholdout(noise="gaussian")
    with pytest.raises(RegimeError) as e3:
        g.dp_guarantee()
    assert str(e3.value) == (
        "Notes Thresholdout lemma does not apply: it requires 'laplace' (no "
        "DP guarantee is claimed for the Gaussian variant), got "
        "noise='gaussian'"
    )
    # (2B/(sigma n), delta): 2 * 2 / (0.01 * 10) = 40 nats; delta is passed through
    d = t.dp_guarantee(1e-6)
    assert d.delta == 1e-6 and d.eps <= 40 * (1 + 1e-12)
    assert t.dp_guarantee().delta == 0.0 and t.dp_guarantee().eps == pytest.approx(40, rel=1e-12)
    # max_information: any data by default (Thm 1.4a: 40 n... on the holdout of 10 records);
    # with iid and beta, the i.i.d. bound at that beta
    m = t.max_information()
    assert m.theorem == "RRST-1.4a" and m.k == pytest.approx(40 * 10 / math.log(2), rel=1e-12)
    # sigma = 1, B = 1, 1000 holdout records: eps = 2/1000; Thm 1.4a 2 log2(e) = 2.885 bits,
    # Thm 1.4b at beta = 1/2: log2(e) (eps^2 n/2 + eps sqrt(n ln(4)/2)) = 0.0789 bits
    big = Thresholdout(np.zeros(10), np.ones(1000), threshold=0.04, sigma=1.0, budget=1, rng=1)
    assert big.max_information().k == pytest.approx(2 / math.log(2), rel=1e-12)
    mb = big.max_information(iid=True, beta=0.5)
    hand = (0.002**2 * 500 + 0.002 * math.sqrt(500 * math.log(4))) / math.log(2)
    assert mb.theorem == "RRST-1.4b" and mb.beta == 0.5 and mb.k == pytest.approx(hand, rel=1e-9)


def test_sparse_validate_counts_bits_and_budgets():
    with pytest.raises(InvalidParameter) as e0:
        SparseValidate([1], m=2, budget=3)
    assert str(e0.value) == "budget=3 is invalid: must be an integer in [1, 2]"
    with pytest.raises(InvalidParameter) as e1:
        SparseValidate([1], m=2, budget=1, on_exhausted="stop")  # type: ignore[arg-type]
    assert str(e1.value) == "on_exhausted='stop' is invalid: must be 'bottom' or 'raise'"
    sv = SparseValidate([1], m=3, budget=2, on_exhausted="raise")
    with pytest.raises(InvalidParameter) as e2:
        sv.query("psi")  # type: ignore[arg-type]
    assert str(e2.value) == "psi='psi' is invalid: must be a callable mapping the holdout set to a bit"
    for bad in (2, -1, 0.5, "1"):
        with pytest.raises(InvalidParameter) as e3:
            sv.query(lambda s, b=bad: b)
        assert str(e3.value) == f"psi(holdout)={bad!r} is invalid: must be a bit (0, 1, True or False)"
    assert sv.queries_answered == 0  # refused answers are not counted
    assert sv.query(lambda s: 0) is False and sv.query(lambda s: True) is True
    assert (sv.queries_answered, sv.ones) == (2, 1)
    assert sv.query(lambda s: False) is False  # the third of m = 3
    assert (sv.queries_answered, sv.ones, sv.exhausted) == (3, 1, True)
    with pytest.raises(BudgetExhausted) as e4:
        sv.query(lambda s: 1)
    assert str(e4.value) == "SparseValidate budgets spent (m = 3, B = 2)"
    # failure_bound: index beyond m refused; l_i = sum_{j <= min(i-1, B)} C(i, j), hand:
    # i = 3, B = 2: C(3,0) + C(3,1) + C(3,2) = 7
    assert sv.failure_bound(3, 0.01) == pytest.approx(0.07, rel=1e-12)
    with pytest.raises(InvalidParameter) as e5:
        sv.failure_bound(4, 0.01)
    assert str(e5.value) == "i=4 is invalid: must be an integer in [1, 3]"


def test_thresholdout_theorem9_fields_by_hand():
    from maxinfo_bounds.theorems.holdout import thresholdout_theorem9

    p = thresholdout_theorem9(0.01, 1000, 10, 0.05)
    lm = math.log(1000 / 0.05)  # ln(m/beta) = ln 20000
    shape = lm / 0.01**2 * min(10, math.sqrt(10 * math.log(lm / 0.01)))
    assert (p.tau, p.m, p.budget, p.beta, p.threshold) == (0.01, 1000, 10, 0.05, 0.0075)
    assert p.sigma == pytest.approx(0.01 / (96 * math.log(4000 / 0.05)), rel=1e-15)
    assert p.n0_shape == pytest.approx(shape, rel=1e-14)
    # ln(m/beta)/tau between 1 and 2 (ln 8 / 1.5 = 1.386): the inner log is ln 1.386 = 0.327
    q = thresholdout_theorem9(1.5, 4, 1, 0.5)
    assert q.n0_shape == pytest.approx(math.log(8) / 2.25 * math.sqrt(math.log(math.log(8) / 1.5)), rel=1e-14)
    # at or below 1 the inner log is taken as 0 (the shape vanishes): ln 4 / 50 < 1
    assert thresholdout_theorem9(50.0, 2, 1, 0.5).n0_shape == 0.0


def test_theorem9_parameters_as_dict_in_process():
    """DFHPRR Thm 9 at tau = 0.1, m = 100, B = 10, beta = 0.01, by hand: T = 3 tau/4 = 0.075,
    sigma = 0.1/(96 ln 40000) = 9.83016488634e-05 (rounded down), n0's shape
    ln(10^4)/0.01 * min(10, sqrt(10 ln(ln(10^4)/0.1))) = 921.034... * 6.72529... = 6194.19..."""
    import math

    from maxinfo_bounds.theorems.holdout import thresholdout_theorem9

    d = thresholdout_theorem9(0.1, 100, 10, 0.01).as_dict()
    assert list(d) == ["theorem", "threshold", "sigma", "sigma_rounding", "n0_shape", "note"]
    assert d["theorem"] == "DFHPRR-9" and d["threshold"] == 0.075
    assert d["sigma_rounding"] == "down (within an ulp)"
    sig = 0.1 / (96 * 10.596634733096073)  # ln 40000 = 10.5966347330960...
    assert sig * (1 - 4e-16) <= d["sigma"] <= sig
    assert math.isclose(d["n0_shape"], 6194.1931585, rel_tol=1e-9)
    assert "without the constant" in d["note"]
