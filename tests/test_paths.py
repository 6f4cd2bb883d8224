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

J = [[F(3, 8), F(1, 8)], [F(1, 8), F(3, 8)]]  # marginals 1/2: Z = log2(3/2) w.p. 3/4, -1 w.p. 1/4


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


# ---------------------------------------------------------------------------------------------
# Enumerated options, regime texts, provenance


def _refusal_text(call):
    with pytest.raises((InvalidParameter, RegimeError)) as exc:
        call()
    return str(exc.value)


def test_enumerated_options_are_refused_by_name():
    from maxinfo_bounds.theorems.generalization import (
        mcdiarmid_transfer,
        pvalue_sensitivity_lower_bound,
    )
    from maxinfo_bounds.theorems.holdout import sparse_validate_factor, thresholdout_dp
    from maxinfo_bounds.theorems.maxinfo_dp import approx_dp_max_information
    from maxinfo_bounds.theorems.mutual_info import approx_max_information_to_mi
    from maxinfo_bounds.theorems.pvalues import mi_pvalue_correction

    cases = [
        (lambda: pvalue_sensitivity_lower_bound(4, variant="x"), "'optimal' or 'paper'"),
        (lambda: sparse_validate_factor(3, 1, variant="x"), "'paper' or 'histories'"),
        (lambda: approx_dp_max_information(0.1, 1e-9, 10, variant="x"), "'sound' or 'paper'"),
        (lambda: approx_max_information_to_mi(1.0, 0.01, 4, variant="x"), "'sound' or 'paper'"),
        (lambda: thresholdout_dp(1, 1.0, 10, variant="x"), "'sound' or 'paper'"),
        (lambda: mcdiarmid_transfer(1.0, 0.0, 0.1, 100, 1.0, variant="x"), "'sound' or 'paper'"),
        (lambda: mi_pvalue_correction(0.05, 1.0, variant="x"), "'optimal' or 'paper'"),
    ]
    for call, allowed in cases:
        assert _refusal_text(call) == f"variant='x' is invalid: must be {allowed}"
    assert (
        _refusal_text(lambda: approx_max_information_to_mi(1.0, 0.01, 4, unit="dits"))
        == "unit='dits' is invalid: must be 'bits' or 'nats'"
    )


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


def test_dp_guarantee_provenance():
    from maxinfo_bounds.theorems.dp_accounting import exponential_mechanism_epsilon, sparse_vector

    g = sparse_vector(3, 2.0, 4.0)
    assert (g.theorem, g.conditions) == ("DR-3.25", ("c = 3 positive answers", "basic composition of the c runs"))
    assert g.eps == pytest.approx(3.0, rel=1e-15) and g.delta == 0.0  # 3 runs of 1/2 + 2/4
    a = sparse_vector(3, 2.0, 4.0, delta=1e-6)
    assert a.theorem == "DR-3.26" and a.delta == 1e-6 and a.eps <= 3.0 * (1 + 1e-15)
    assert a.conditions[0] == "c = 3 positive answers"
    assert a.conditions[-1] == "min of basic and advanced composition"
    assert a.conditions[2] == "delta' = 1e-06" and a.conditions[1].startswith("per run eps = ")
    m = exponential_mechanism_epsilon(1.0, 0.5, monotone=True)
    assert (m.eps, m.delta, m.theorem, m.conditions) == (0.5, 0.0, "DR-3.10", ("monotone scores",))
    assert exponential_mechanism_epsilon(1.0, 0.5).conditions == ()


def test_catalog_report_schema():
    """One JSON schema: theorem id (never the result's own theorem field), source, the inputs
    with units in their names, a requested optional input as target_*, then the result."""
    from maxinfo_bounds.catalog import REGISTRY

    r = REGISTRY["RRST-1.3"].report(alpha=0.05, k=1.0, beta=0.01)
    assert r == {
        "theorem": "RRST-1.3",
        "source": "RRST Thm 1.3 (product data); Thm C.1 (any data)",
        "alpha": 0.05,
        "k_bits": 1.0,
        "beta": 0.01,
        "gamma": 0.02,
        "rounding": "down",
    }
    sv = REGISTRY["DR-3.25"].report(c=3, threshold_scale=2.0, query_scale=4.0, sensitivity=1.0)
    assert sv["theorem"] == "DR-3.25" and sv["eps_nats"] == 3.0
    t = REGISTRY["RRST-3.1"].report(eps=0.1, delta=1e-14, n=1000, beta=0.01)
    assert t["target_beta"] == 0.01 and t["eps_nats"] == 0.1 and "beta" in t
    u = REGISTRY["RRST-3.1"].report(eps=0.1, delta=1e-14, n=1000, beta=None)
    assert "target_beta" not in u and list(u)[:5] == ["theorem", "source", "eps_nats", "delta", "n"]
    # a non-numeric input (a list of bounds, a text domain) keeps its bare name
    from fractions import Fraction

    from maxinfo_bounds.results import Bound

    bs = [Bound(1.5, 0.01, "x"), Bound(2.0, 0.02, "y")]
    c = REGISTRY["RRST-A.3"].report(bounds=bs)
    assert list(c)[:5] == ["theorem", "source", "bounds", "k_bits", "beta"] and c["bounds"] == bs
    assert c["theorem"] == "RRST-A.3" and c["k_bits"] == 3.5  # 1.5 + 2.0, exact
    assert Fraction(c["beta"]) >= Fraction(0.01) + Fraction(0.02) and c["beta"] <= 0.03 * (1 + 1e-15)


def test_approx_dp_mutual_information_composes_thm31_and_lemma15_by_hand():
    """RRST Thm 3.1's (k, beta) for the selection, then Lemma 1.5 (second part) on X = the
    dataset, |Sigma| = 2^100 (n = 100 records of a 2-value domain), by its two formulas:
    sound: 2k ln 2 + w (ln|Sigma| + ln(1/w)) nats, w = beta/(1 - 2^-k);
    paper: 2k ln 2 + 2 beta log2(|Sigma|/(2 beta))/(1 - 2^-k), read in nats."""
    from maxinfo_bounds.theorems.maxinfo_dp import approx_dp_max_information
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


def test_catalog_registry_and_explain_text():
    import dataclasses

    from maxinfo_bounds.catalog import REGISTRY
    from maxinfo_bounds.theorems.registry import register

    e = REGISTRY["RRST-1.3"]
    assert register(e) is e and REGISTRY["RRST-1.3"] is e  # the same entry again: no-op
    with pytest.raises(RuntimeError, match=r"^duplicate catalog id 'RRST-1.3'$"):
        register(dataclasses.replace(e))
    assert REGISTRY["RRST-1.3"] is e
    kov = REGISTRY["KOV15-3.3"]  # declared with a statement, not a formula
    for bad in ({"formula": e.formula}, {"statement": None}):
        with pytest.raises(
            ValueError,
            match=r"^KOV15-3.3: give exactly one of formula and "
            r"statement$",
        ):
            dataclasses.replace(kov, **bad)
    lines = kov.explain().split("\n")
    assert lines[0] == ("KOV15-3.3: Optimal homogeneous composition of k adaptive (eps, delta)-DP steps")
    i, j = lines.index("  conditions:"), lines.index("  parameters:")
    assert lines[i + 1 : j] == [
        "    * k adaptive steps, each (eps, delta)-DP (same eps, delta)",
        "    * eps >= 0",
        "    * 0 <= delta < 1",
        "    * k >= 1 integer",
        "    * 0 <= delta_total <= 1, delta_total >= 1 - (1 - delta)^k",
    ]
    assert lines[j + 1 : j + 5] == [
        "    --eps ([0, inf)): per-step eps, nats",
        "    --delta ([0, 1)): per-step delta",
        "    --k ([1, inf) integer): number of steps",
        "    --delta-total ([0, 1], delta_total >= 1 - (1 - delta)^k): target total delta",
    ]
    opt = [ln for ln in REGISTRY["RRST-3.1"].explain().split("\n") if ln.startswith("    [--")]
    assert opt == [
        "    [--beta] ((0, 1), optional): target beta: t and delta_hat are optimised "
        "to minimise k at beta (default: the paper's t and delta_hat)"
    ]


def test_catalog_statements_declare_their_symbols_domains():
    """Every statement's symbols are nonnegative (all parameters are), and a symbol named
    like an integer parameter is integer: sympy's simplifications in the claims rely on it."""
    from maxinfo_bounds.catalog import REGISTRY
    from maxinfo_bounds.domain import Domain

    for key, e in REGISTRY.items():
        syms = {str(x): x for x in e.sympy_statement().free_symbols}
        assert all(x.is_nonnegative for x in syms.values()), key
        for p in e.params:
            if isinstance(p.domain, Domain) and p.domain.integer and p.name in syms:
                assert syms[p.name].is_integer, (key, p.name)
    import sympy

    sv = {str(x): x for x in REGISTRY["DFHPRR-10"].sympy_statement().atoms(sympy.Symbol)}
    assert sv["i"].is_integer and sv["B"].is_integer and sv["j"].is_integer
    # DFHPRR Thm 10: l_i = sum_{j <= min(i - 1, B)} C(i, j); at i = 3, B = 5: 1 + 3 + 3 = 7
    s = REGISTRY["DFHPRR-10"].sympy_statement().subs({sv["i"]: 3, sv["B"]: 5, sv["beta_i"]: 1})
    assert s.doit() == 7


def test_kov_statement_is_the_paper_formula_and_the_evaluators_value():
    """KOV15 Thm 3.3's statement is generated from the bodies the certified algorithm and the
    float surrogate evaluate; it must equal the theorem as printed (re-typed here) and, at
    eps = 1, delta = 0, k = 2, eps_g = 0, the hand value (e^2 - 1)/(1 + e)^2 = tanh(1/2)."""
    import math

    import sympy

    from maxinfo_bounds.catalog import REGISTRY
    from maxinfo_bounds.theorems.dp_accounting import optimal_composition_delta
    from maxinfo_bounds.theorems.dp_accounting.optimal import _kov_delta_float

    st = REGISTRY["KOV15-3.3"].sympy_statement()
    sv = {str(x): x for x in st.free_symbols}
    k, l = sympy.symbols("k l", integer=True, nonnegative=True)
    e, eg, d = sympy.symbols("epsilon epsilon_g delta", nonnegative=True)
    keep = (1 - d) ** k
    paper = (
        1
        - keep
        + keep
        * sympy.Sum(sympy.binomial(k, l) * sympy.Max(0, sympy.exp((k - l) * e) - sympy.exp(eg + l * e)), (l, 0, k))
        / (1 + sympy.exp(e)) ** k
    )
    assert sorted(sv) == ["delta", "epsilon", "epsilon_g", "k"]
    # printed as the paper prints it: (1 - delta)^k, not e^{k log(1 - delta)}
    assert st.has((1 - sv["delta"]) ** sv["k"]) and not st.has(sympy.log)
    for kk, ee, gg, dd in (
        (2, 1, 0, 0),
        (3, sympy.Rational(3, 10), sympy.Rational(1, 5), sympy.Rational(1, 100)),
        (7, 2, 3, sympy.Rational(1, 3)),
    ):
        ours = st.subs({sv["k"]: kk, sv["epsilon"]: ee, sv["epsilon_g"]: gg, sv["delta"]: dd})
        ref = paper.subs({k: kk, e: ee, eg: gg, d: dd})
        assert abs(sympy.N(ours.doit() - ref.doit(), 50)) < sympy.Float(10) ** -45
        got = optimal_composition_delta(float(ee), float(dd), kk, float(gg))
        assert float(sympy.N(ref.doit(), 30)) <= got <= float(sympy.N(ref.doit(), 30)) * (1 + 1e-14)
        assert math.isclose(
            _kov_delta_float(float(ee), float(dd), kk, float(gg)), float(sympy.N(ref.doit(), 30)), rel_tol=1e-12
        )
    assert math.isclose(
        float(st.subs({sv["k"]: 2, sv["epsilon"]: 1, sv["epsilon_g"]: 0, sv["delta"]: 0}).doit()),
        math.tanh(0.5),
        rel_tol=1e-15,
    )


def test_ag_and_sparse_validate_statements_match_the_papers():
    """Balle–Wang Thm 8 and DFHPRR Thm 10 build their statements from the bodies their
    evaluators use; each must equal the paper's formula re-typed here."""
    import sympy

    from maxinfo_bounds.catalog import REGISTRY
    from maxinfo_bounds.theorems.dp_accounting.mechanisms import _ag_delta_bounds

    st = REGISTRY["BW18-8"].sympy_statement()
    sv = {str(x): x for x in st.free_symbols}
    s, sg, e = sv["Delta"], sv["sigma"], sv["epsilon"]

    def phi(x: object) -> object:
        return (1 + sympy.erf(x / sympy.sqrt(2))) / 2

    paper = phi(s / (2 * sg) - e * sg / s) - sympy.exp(e) * phi(-s / (2 * sg) - e * sg / s)
    assert sympy.simplify(st - paper) == 0
    # Delta = 1, sigma = 1, eps = 0: Phi(1/2) - Phi(-1/2) = erf(1/(2 sqrt 2)) (mpmath, 50 digits)
    import mpmath

    lo, hi = _ag_delta_bounds(1, 1, 0)
    with mpmath.workdps(50):
        ref = mpmath.mpf("0.38292492254802620727540922121667547976720435110916")
        assert lo <= ref <= hi and hi - lo < mpmath.mpf(10) ** -39

    st = REGISTRY["DFHPRR-10"].sympy_statement()
    sv = {str(x): x for x in st.atoms(sympy.Symbol)}
    # at i = 4, B = 2: C(4,0) + C(4,1) + C(4,2) = 11; at i = 2, B = 9: min(1, 9) -> 1 + 2 = 3
    assert st.subs({sv["i"]: 4, sv["B"]: 2, sv["beta_i"]: 1}).doit() == 11
    assert st.subs({sv["i"]: 2, sv["B"]: 9, sv["beta_i"]: 1}).doit() == 3


def test_hoeffding_transfer_with_only_n_an_array():
    """DFHPRR Thm 4 + Hoeffding: 2^k * 2 e^{-2 tau^2 n} + beta; an array in n alone takes
    the array path (k = 0, beta = 0, tau = 0.1: 2e^-2 and 2e^-4, by hand)."""
    import numpy as np

    from maxinfo_bounds.theorems.generalization import hoeffding_transfer

    out = hoeffding_transfer(0.0, 0.0, 0.1, np.array([100, 200]))
    assert isinstance(out, np.ndarray) and out.shape == (2,)
    ref = np.array([0.27067056647322538, 0.036631277777468357])  # 2 e^-2, 2 e^-4
    assert np.all(out >= ref) and np.all(out <= ref * (1 + 1e-12))


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
