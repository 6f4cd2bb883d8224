"""Domains and refusals, probed at their edges.

Written against the mutants that survived the mutation run (docs/verification.md, "Mutation
testing"): a changed bound, an open end made closed, a parameter named wrongly in its error, an
early return with a wrong field. Each case states the documented domain of one parameter; the
probes check that the edge values are accepted or refused as documented and that a refusal names
the parameter, its value and the allowed range in one line.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import pytest

from maxinfo_bounds import InvalidParameter, RegimeError
from maxinfo_bounds.measures import (
    approx_max_information,
    dp_delta,
    dp_epsilon,
    hockey_stick,
    is_indistinguishable,
    is_pointwise_indistinguishable,
    kl_divergence,
    mutual_information,
)
from maxinfo_bounds.results import DPGuarantee
from maxinfo_bounds.theorems.dp_accounting import dp_max_information, from_dp_event
from maxinfo_bounds.theorems.generalization import pvalue_sensitivity_lower_bound
from maxinfo_bounds.theorems.maxinfo_dp import (
    approx_dp_max_information,
    approx_dp_max_information_implied,
)
from maxinfo_bounds.theorems.mutual_info import approx_dp_mutual_information
from maxinfo_bounds.theorems.solvers import (
    max_eps_for_gamma,
    max_k_for_gamma,
    max_n_for_gamma,
    max_n_for_k,
)

RR = [[0.75, 0.25], [0.25, 0.75]]
PURE = DPGuarantee(0.1, 0.0, "given")
HALF = [F(1, 2), F(1, 2)]
JOINT = [[F(1, 4), F(1, 4)], [F(1, 8), F(3, 8)]]


def _gaussian_event():
    import dp_accounting

    return dp_accounting.GaussianDpEvent(noise_multiplier=2.0)


# (call taking the probed value, parameter, interval as the message prints it, lo, hi,
#  lo_open, hi_open); lo/hi None: unbounded on that side
CASES = [
    (lambda v: max_n_for_k(v, 0.1), "target_k", "(0, inf)", 0.0, None, True, True),
    (lambda v: max_n_for_k(5.0, v), "eps", "(0, inf)", 0.0, None, True, True),
    (lambda v: max_n_for_k(5.0, 0.01, beta=v), "beta", "(0, 1)", 0.0, 1.0, True, True),
    (lambda v: max_k_for_gamma(v, 0.0, 0.01), "alpha", "(0, 1]", 0.0, 1.0, True, False),
    (lambda v: max_k_for_gamma(0.05, v, 0.001), "beta", "[0, 1]", 0.0, 1.0, False, False),
    (lambda v: max_k_for_gamma(0.05, 0.0, v), "target_gamma", "(0, 1]", 0.0, 1.0, True, False),
    (lambda v: max_eps_for_gamma(v, 0.001, 100), "alpha", "(0, 1]", 0.0, 1.0, True, False),
    (lambda v: max_eps_for_gamma(0.05, v, 100), "target_gamma", "(0, 1]", 0.0, 1.0, True, False),
    (lambda v: max_eps_for_gamma(0.05, 0.001, v), "n", "[1, inf]", 1, None, False, True),
    (lambda v: max_n_for_gamma(0.05, 0.001, v), "eps", "(0, inf)", 0.0, None, True, True),
    (lambda v: dp_max_information(PURE, v), "n", "[1, inf]", 1, None, False, True),
    (lambda v: dp_max_information(PURE, 10, iid=True, beta=v), "beta", "(0, 1)", 0.0, 1.0, True, True),
    (lambda v: approx_dp_mutual_information(0.1, 1e-8, 100, v), "domain_size", "[1, inf]", 1, None, False, True),
    (lambda v: approx_dp_mutual_information(0.1, 1e-8, v, 2), "n", "[1, inf]", 1, None, False, True),
    (lambda v: dp_delta(RR, v, [(0, 1)]), "eps", "[0, inf)", 0.0, None, False, True),
    (
        lambda v: dp_delta([[F(1, 2), F(1, 2)], [F(1, 2), F(1, 2)]], 1, [(0, 1)], dps=v),
        "dps",
        "[1, 100000]",
        1,
        100_000,
        False,
        False,
    ),
    (lambda v: dp_epsilon(RR, v, [(0, 1)]), "delta", "[0, 1)", 0.0, 1.0, False, True),
    (lambda v: is_indistinguishable([0.5, 0.5], [0.5, 0.5], v, 0), "eps", "[0, inf)", 0.0, None, False, True),
    (lambda v: is_indistinguishable([0.5, 0.5], [0.5, 0.5], 0.1, v), "delta", "[0, 1]", 0.0, 1.0, False, False),
    (lambda v: is_pointwise_indistinguishable([0.5, 0.5], [0.5, 0.5], v, 0), "eps", "[0, inf)", 0.0, None, False, True),
    (
        lambda v: is_pointwise_indistinguishable([0.5, 0.5], [0.5, 0.5], 0.1, v),
        "delta",
        "[0, 1]",
        0.0,
        1.0,
        False,
        False,
    ),
    (lambda v: from_dp_event(_gaussian_event(), v), "delta", "(0, 1)", 0.0, 1.0, True, True),
    (
        lambda v: from_dp_event(_gaussian_event(), 1e-5, value_discretization_interval=v),
        "value_discretization_interval",
        "(0, inf)",
        0.0,
        None,
        True,
        True,
    ),
    (lambda v: hockey_stick([0.5, 0.5], [0.25, 0.75], v), "c", "[0, inf)", 0.0, None, False, True),
    (lambda v: kl_divergence(HALF, HALF, dps=v), "dps", "[1, 100000]", 1, 100_000, False, False),
    (lambda v: mutual_information(JOINT, dps=v), "dps", "[1, 100000]", 1, 100_000, False, False),
    (lambda v: approx_max_information(JOINT, v), "beta", "[0, 1)", 0.0, 1.0, False, True),
    (lambda v: approx_dp_max_information(v, 1e-9, 10), "eps", "(0, inf)", 0.0, None, True, True),
    (lambda v: approx_dp_max_information_implied(v, 1e-9, 100, 0.5), "eps", "[0, inf)", 0.0, None, False, True),
    (lambda v: approx_dp_max_information_implied(0.1, v, 100, 0.5), "delta", "(0, 0.5)", 0.0, 0.5, True, True),
    (lambda v: pvalue_sensitivity_lower_bound(v), "n", "[1, inf]", 1, None, False, True),
    (lambda v: max_k_for_gamma(0.05, v, 1e-4), "beta", "[0, 1]", 0.0, 1.0, False, False),
    (lambda v: max_n_for_gamma(v, 1e-3, 0.01), "alpha", "(0, 1]", 0.0, 1.0, True, False),
    (lambda v: max_n_for_gamma(0.05, v, 0.01), "target_gamma", "(0, 1]", 0.0, 1.0, True, False),
    (lambda v: max_n_for_gamma(0.05, 1e-4, 0.01, beta=v), "beta", "(0, 1)", 0.0, 1.0, True, True),
    (lambda v: max_eps_for_gamma(0.05, 1e-4, 100, beta=v), "beta", "(0, 1)", 0.0, 1.0, True, True),
]


def _refusal(call, v):
    try:
        call(v)
    except InvalidParameter as exc:
        return str(exc)
    except (RegimeError, ValueError, ArithmeticError):
        return None  # refused for another reason (a target not reachable): accepted
    return None


def _out(bound, inward, integer):
    """A value just outside ``bound``, on the side away from ``inward`` (+1 or -1)."""
    if integer:
        return bound - inward
    return bound - inward * max(1e-9, abs(bound) * 1e-9)


# the dps edges evaluate at 100,000 digits (seconds each): marked heavy, left out of mutation runs
@pytest.mark.parametrize(
    "call,name,interval,lo,hi,lo_open,hi_open",
    [pytest.param(*c, marks=pytest.mark.heavy) if c[1] == "dps" else c for c in CASES],
    ids=[f"{i}-{c[1]}" for i, c in enumerate(CASES)],
)
def test_domain_edges(call, name, interval, lo, hi, lo_open, hi_open):
    integer = isinstance(lo, int) and (hi is None or isinstance(hi, int))
    expect = f"is invalid: must be {'an integer' if integer else 'a real number'} in {interval}"
    probes = []
    if lo is not None:
        probes += [(lo, lo_open), (_out(lo, +1, integer), True)]
    if hi is not None:
        probes += [(hi, hi_open), (_out(hi, -1, integer), True)]
    for v, refused in probes:
        msg = _refusal(call, v)
        if refused:
            assert msg is not None, f"{name}={v!r} accepted; domain {interval}"
            assert msg.startswith(f"{name}={v!r} ") and expect in msg, msg
        else:
            # accepted by the range check (it may still be refused for another reason, e.g. a
            # target the search cannot reach, which names the same parameter)
            assert msg is None or expect not in msg, msg


def test_dp_max_information_refusals_and_the_eps_zero_bound():
    with pytest.raises(InvalidParameter) as e1:
        dp_max_information(3, 10)  # type: ignore[arg-type]
    assert str(e1.value) == "guarantee=3 is invalid: must be a DPGuarantee"
    with pytest.raises(InvalidParameter) as e2:
        dp_max_information(PURE, 10, beta=0.5)
    assert str(e2.value) == (
        "beta=0.5 is invalid: must be omitted unless iid=True (beta is the "
        "i.i.d. bounds' parameter: RRST Thm 1.4b / 3.1)"
    )
    with pytest.raises(RegimeError) as e3:
        dp_max_information(DPGuarantee(0.1, 1e-6, "given"), 10)
    assert str(e3.value) == (
        "RRST Thm 3.1 / §4 does not apply: it requires iid=True (approximate "
        "DP bounds max-information only for i.i.d. data), got iid=False"
    )
    # eps = 0: the output is independent of the data, I_inf = 0 exactly (RRST Thm 1.4a at eps 0)
    b0 = dp_max_information(DPGuarantee(0.0, 0.0, "given"), 10)
    assert (b0.k, b0.beta, b0.theorem, b0.conditions, b0.variant) == (0.0, 0.0, "RRST-1.4a", ("eps = 0",), "exact")
    # pure DP: 1.4a is eps n log2(e) (hand: 0.1 * 10 / ln 2 = 1.4427 bits)
    a = dp_max_information(PURE, 10)
    assert a.theorem == "RRST-1.4a" and a.k == pytest.approx(1 / math.log(2), rel=1e-12)
    assert a.beta == 0.0
    # with iid and beta, Thm 1.4b where it is smaller (n = 1: log2(e)(0.005 + 0.1 sqrt(ln 4 / 2))
    # = 0.1273 bits < 0.1443), else 1.4a (n = 10^4: 1.4b 49.0 bits, 1.4a 1442.7 bits)
    b = dp_max_information(PURE, 1, iid=True, beta=0.5)
    hand = (0.005 + 0.1 * math.sqrt(math.log(4) / 2)) / math.log(2)
    assert b.theorem == "RRST-1.4b" and b.k == pytest.approx(hand, rel=1e-12) and b.beta == 0.5
    big = dp_max_information(DPGuarantee(5.0, 0.0, "given"), 1, iid=True, beta=0.5)
    assert big.theorem == "RRST-1.4a"  # 1.4b (18.3 bits) above 1.4a (7.2 bits)
    # approximate DP: Thm 3.1 at the requested beta (not at the paper's choice)
    g = DPGuarantee(0.1, 1e-9, "given")
    t9 = dp_max_information(g, 1000, iid=True, beta=0.9)
    assert t9.theorem == "RRST-3.1" and t9.beta <= 0.9 and t9.k < dp_max_information(g, 1000, iid=True).k


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


def test_dp_delta_both_paths():
    """dp_delta of randomized response (e^eps0 = 3): at eps = 0 the TV distance 1/2 (a Fraction
    in exact mode), at eps = 1 by hand 3/4 - e/4 (the other cell contributes 0)."""
    rr = [[F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]]
    d0 = dp_delta(rr, 0, [(0, 1)])
    assert d0 == F(1, 2) and isinstance(d0, F)
    d1 = dp_delta(rr, 1, [(0, 1)])
    assert abs(float(d1) - (0.75 - math.e / 4)) < 1e-15
    assert dp_delta(RR, 1.0, [(0, 1)]) == pytest.approx(0.75 - math.e / 4, rel=1e-14)
    assert dp_delta(RR, 0.0, [(0, 1)]) == pytest.approx(0.5, rel=1e-15)
    assert not isinstance(dp_delta(RR, 1.0, [(0, 1)], exact=True), float)  # exact on request
    # several pairs: the largest hockey stick over them, both directions
    m3 = [[0.5, 0.5], [0.75, 0.25], [0.25, 0.75]]
    assert dp_delta(m3, 0.0, [(0, 1), (0, 2)]) == pytest.approx(0.25)
    assert dp_delta(m3, 0.0, [(1, 2)]) == pytest.approx(0.5)


@pytest.mark.parametrize(
    "call,name,bad,good,interval",
    [
        (lambda v: pvalue_sensitivity_lower_bound(v), "n", [1.0, 0.999999], [1.0, 2.0], "finite integers in [1, inf)"),
        (lambda v: pvalue_sensitivity_lower_bound(v), "n", [1.5], [1.0], "finite integers in [1, inf)"),
        (lambda v: approx_dp_max_information(v, 1e-9, 10), "eps", [0.1, 0.0], [0.1, 0.01], "real numbers in (0, inf)"),
        (
            lambda v: approx_max_information(JOINT, v, exact=False),
            "beta",
            [0.1, 1.0],
            [0.0, 0.99],
            "real numbers in [0, 1)",
        ),
        (lambda v: approx_max_information(JOINT, v, exact=False), "beta", [-1e-300], [0.0], "real numbers in [0, 1)"),
    ],
)
def test_array_domain_edges(call, name, bad, good, interval):
    """The array paths refuse the first entry outside the domain, naming it and the range."""
    import numpy as np

    call(np.array(good))
    with pytest.raises(InvalidParameter) as exc:
        call(np.array(bad))
    msg = str(exc.value)
    assert msg.startswith(f"{name}=") and interval in msg and "\n" not in msg, msg


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


def test_from_dp_event_texts():
    """The refusals and the guarantee's provenance, word for word."""
    import sys

    ev = _gaussian_event()
    g = from_dp_event(ev, 1e-5, value_discretization_interval=1e-3)
    assert (g.delta, g.theorem, g.conditions) == (
        1e-5,
        "dp_accounting PLD",
        ("pessimistic PLD discretisation", "value_discretization_interval = 0.001"),
    )
    from dp_accounting import pld

    acc = pld.PLDAccountant(value_discretization_interval=1e-3)
    acc.compose(ev)
    assert g.eps == math.nextafter(acc.get_epsilon(1e-5), math.inf)  # the accountant's, one ulp up
    with pytest.raises(InvalidParameter) as e1:
        from_dp_event("not an event", 1e-5)
    assert str(e1.value) == ("event='not an event' is invalid: must be a DpEvent the PLD accountant supports")
    import dp_accounting

    with pytest.raises(InvalidParameter) as e2:
        from_dp_event(dp_accounting.GaussianDpEvent(noise_multiplier=5000.0), 1e-16)
    msg = str(e2.value)
    head, _, tail = msg.partition("(about ")
    assert head == ("delta=1e-16 is invalid: must be above dp_accounting's PLD tail mass ")
    floor = float(tail.split(" ")[0])
    assert 1e-17 < floor < 1e-15  # the composed PLD's own truncated mass, about 1e-16
    assert tail.split(" ", 1)[1] == (
        "for this event): its accountant returns eps = inf below it; give a larger delta, or "
        "for a Gaussian mechanism use maxinfo_bounds' analytic Gaussian (gaussian_epsilon), "
        "exact at any delta"
    )
    saved = sys.modules.get("dp_accounting")
    sys.modules["dp_accounting"] = None  # type: ignore[assignment]  # import fails
    try:
        with pytest.raises(ImportError) as e3:
            from_dp_event(ev, 1e-5)
    finally:
        sys.modules["dp_accounting"] = saved  # type: ignore[assignment]
    assert str(e3.value) == ("from_dp_event needs dp_accounting: pip install 'maxinfo_bounds[accounting]'")


def test_thm31_outside_its_regime_is_vacuous_never_negative_or_nan():
    """delta >= eps (outside RRST Thm 3.1): the formula's k is negative there (about -5e-10 at
    eps = 1e-12, delta = 1e-9) and its beta NaN or negative; strict=False must return the
    vacuous bound (k = inf, beta = 1) marked out of regime, on the scalar and the array path,
    and strict=True must refuse without a floating-point warning on the way."""
    import warnings

    import numpy as np

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for e in (1e-300, 1e-12):
            b = approx_dp_max_information(e, 1e-9, 10, strict=False)
            assert (b.k, b.beta, b.in_regime) == (math.inf, 1.0, False)
        k, beta = approx_dp_max_information(np.array([1e-300, 1e-12, 0.1]), 1e-9, 10, strict=False)
        assert list(k[:2]) == [math.inf, math.inf] and list(beta[:2]) == [1.0, 1.0]
        assert 0 < k[2] < math.inf and 0 < beta[2] < 1
        with pytest.raises(RegimeError, match=r"delta in \(0, eps\)"):
            approx_dp_max_information(np.array([0.1, 1e-300]), 1e-9, 10)


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


def test_a_value_beyond_the_float_range_is_refused_by_name():
    """A Python integer above 1.8e308 passes a (0, inf) range check but has no float: where
    the value is used as a float it is refused naming the parameter (it used to leave an
    OverflowError traceback in correct(), and an inf in a study file's step)."""
    import maxinfo_bounds as mb

    for kw, name in ((dict(eps=10**400, n=10), "eps"), (dict(mi_bits=10**400), "mi_bits")):
        with pytest.raises(
            mb.InvalidParameter,
            match=rf"^{name}=.* is invalid: must be at most "
            r"1\.7976931348623157e\+308 in magnitude \(the largest float",
        ):
            mb.correct(0.05, **kw)
