"""Both paths and the small branches of the measures and the holdout mechanisms, by hand.

Written against the survivors of the mutation run (docs/verification.md, "Mutation testing"):
a float path tested only where it agrees with the exact one, a loop that stops at a zero cell,
a unit or exactness flag not passed on, a refusal text, a counter. Every expected value is a
hand computation stated beside it.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np
import pytest

from maxinfo_bounds import InvalidParameter, RegimeError
from maxinfo_bounds.measures import (
    is_indistinguishable,
    is_pointwise_indistinguishable,
    kl_divergence,
    log_ratio_tail,
    max_information,
    mutual_information,
    tv_distance,
)
from maxinfo_bounds.results import DPGuarantee
from maxinfo_bounds.theorems.dp_accounting import dp_max_information
from maxinfo_bounds.theorems.holdout import BudgetExhausted, SparseValidate, Thresholdout

J = [[F(3, 8), F(1, 8)], [F(1, 8), F(3, 8)]]   # marginals 1/2: Z = log2(3/2) w.p. 3/4, -1 w.p. 1/4


def test_tv_distance_float_path():
    # |0.5 - 0.25| + |0.5 - 0.75| = 0.5, halved: 0.25
    assert tv_distance([0.5, 0.5], [0.25, 0.75]) == 0.25
    assert tv_distance([F(1, 2), F(1, 2)], [F(1, 4), F(3, 4)], exact=False) == 0.25
    assert tv_distance([0.5, 0.5], [0.25, 0.75], exact=True) == F(1, 4)


def test_kl_nats_and_a_zero_cell_first():
    # KL((1/2, 1/2) || (1/4, 3/4)) = 1/2 ln 2 + 1/2 ln(2/3) = ln 2 - ln(3)/2 nats
    nats = math.log(2) - math.log(3) / 2
    assert kl_divergence([0.5, 0.5], [0.25, 0.75], unit="nats") == pytest.approx(nats, rel=1e-14)
    assert float(kl_divergence([F(1, 2), F(1, 2)], [F(1, 4), F(3, 4)], unit="nats")) == \
        pytest.approx(nats, rel=1e-14)
    # a p = 0 cell before the others contributes 0 and must not end the sum:
    # KL((0, 1/2, 1/2) || (1/4, 1/4, 1/2)) = 1/2 log2(2) + 1/2 log2(1) = 1/2 bit
    assert float(kl_divergence([F(0), F(1, 2), F(1, 2)], [F(1, 4), F(1, 4), F(1, 2)])) == \
        pytest.approx(0.5, rel=1e-40)
    assert kl_divergence([0.0, 0.5, 0.5], [0.25, 0.25, 0.5]) == pytest.approx(0.5, rel=1e-15)


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


def test_log_ratio_tail_by_hand():
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
    assert log_ratio_tail(J, -1.0) == 1.0          # Fractions are read on the float path
    with pytest.raises(InvalidParameter, match="unit"):
        log_ratio_tail(jf, 0.5, unit="dits")        # type: ignore[arg-type]


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


def test_dp_max_information_iid_without_beta_is_thm_1_4a():
    b = dp_max_information(DPGuarantee(0.1, 0.0, "given"), 10, iid=True)
    assert b.theorem == "RRST-1.4a" and b.k == pytest.approx(1 / math.log(2), rel=1e-12)


# ---------------------------------------------------------------------------------------------
# Thresholdout and SparseValidate


def _thresholdout(**kw):
    args = {"threshold": 0.04, "sigma": 0.01, "budget": 2, "rng": 1}
    args.update(kw)
    return Thresholdout(np.zeros(10), np.ones(10), **args)


def test_thresholdout_refusals_and_guarantee():
    t = _thresholdout()
    with pytest.raises(InvalidParameter) as e1:
        t.query(3)                                              # type: ignore[arg-type]
    assert str(e1.value) == "phi=3 is invalid: must be a callable mapping records to values in [0, 1]"
    with pytest.raises(InvalidParameter) as e2:
        _thresholdout(on_exhausted="stop")                      # type: ignore[arg-type]
    assert str(e2.value) == "on_exhausted='stop' is invalid: must be 'bottom' or 'raise'"
    g = _thresholdout(noise="gaussian")
    with pytest.raises(RegimeError) as e3:
        g.dp_guarantee()
    assert str(e3.value) == ("Notes Thresholdout lemma does not apply: it requires 'laplace' (no "
                             "DP guarantee is claimed for the Gaussian variant), got "
                             "noise='gaussian'")
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
        sv.query("psi")                                         # type: ignore[arg-type]
    assert str(e2.value) == "psi='psi' is invalid: must be a callable mapping the holdout set to a bit"
    for bad in (2, -1, 0.5, "1"):
        with pytest.raises(InvalidParameter) as e3:
            sv.query(lambda s, b=bad: b)
        assert str(e3.value) == f"psi(holdout)={bad!r} is invalid: must be a bit (0, 1, True or False)"
    assert sv.queries_answered == 0           # refused answers are not counted
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
