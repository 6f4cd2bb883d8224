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
    dp_delta,
    dp_epsilon,
    is_indistinguishable,
    is_pointwise_indistinguishable,
)
from maxinfo_bounds.results import DPGuarantee
from maxinfo_bounds.theorems.dp_accounting import dp_max_information
from maxinfo_bounds.theorems.mutual_info import approx_dp_mutual_information
from maxinfo_bounds.theorems.solvers import (
    max_eps_for_gamma,
    max_k_for_gamma,
    max_n_for_gamma,
    max_n_for_k,
)

RR = [[0.75, 0.25], [0.25, 0.75]]
PURE = DPGuarantee(0.1, 0.0, "given")

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
    (lambda v: dp_max_information(PURE, 10, iid=True, beta=v), "beta", "(0, 1)", 0.0, 1.0,
     True, True),
    (lambda v: approx_dp_mutual_information(0.1, 1e-8, 100, v), "domain_size", "[1, inf]", 1,
     None, False, True),
    (lambda v: approx_dp_mutual_information(0.1, 1e-8, v, 2), "n", "[1, inf]", 1, None, False,
     True),
    (lambda v: dp_delta(RR, v, [(0, 1)]), "eps", "[0, inf)", 0.0, None, False, True),
    (lambda v: dp_delta([[F(1, 2), F(1, 2)], [F(1, 2), F(1, 2)]], 1, [(0, 1)], dps=v), "dps",
     "[1, 100000]", 1, 100_000, False, False),
    (lambda v: dp_epsilon(RR, v, [(0, 1)]), "delta", "[0, 1)", 0.0, 1.0, False, True),
    (lambda v: is_indistinguishable([0.5, 0.5], [0.5, 0.5], v, 0), "eps", "[0, inf)", 0.0,
     None, False, True),
    (lambda v: is_indistinguishable([0.5, 0.5], [0.5, 0.5], 0.1, v), "delta", "[0, 1]", 0.0,
     1.0, False, False),
    (lambda v: is_pointwise_indistinguishable([0.5, 0.5], [0.5, 0.5], v, 0), "eps", "[0, inf)",
     0.0, None, False, True),
    (lambda v: is_pointwise_indistinguishable([0.5, 0.5], [0.5, 0.5], 0.1, v), "delta",
     "[0, 1]", 0.0, 1.0, False, False),
]


def _refusal(call, v):
    try:
        call(v)
    except InvalidParameter as exc:
        return str(exc)
    except (RegimeError, ValueError, ArithmeticError):
        return None             # refused for another reason (a target not reachable): accepted
    return None


def _out(bound, inward, integer):
    """A value just outside ``bound``, on the side away from ``inward`` (+1 or -1)."""
    if integer:
        return bound - inward
    return bound - inward * max(1e-9, abs(bound) * 1e-9)


@pytest.mark.parametrize("call,name,interval,lo,hi,lo_open,hi_open", CASES,
                         ids=[f"{i}-{c[1]}" for i, c in enumerate(CASES)])
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
        dp_max_information(3, 10)      # type: ignore[arg-type]
    assert str(e1.value) == "guarantee=3 is invalid: must be a DPGuarantee"
    with pytest.raises(InvalidParameter) as e2:
        dp_max_information(PURE, 10, beta=0.5)
    assert str(e2.value) == ("beta=0.5 is invalid: must be omitted unless iid=True (beta is the "
                             "i.i.d. bounds' parameter: RRST Thm 1.4b / 3.1)")
    with pytest.raises(RegimeError) as e3:
        dp_max_information(DPGuarantee(0.1, 1e-6, "given"), 10)
    assert str(e3.value) == ("RRST Thm 3.1 / §4 does not apply: it requires iid=True (approximate "
                             "DP bounds max-information only for i.i.d. data), got iid=False")
    # eps = 0: the output is independent of the data, I_inf = 0 exactly (RRST Thm 1.4a at eps 0)
    b0 = dp_max_information(DPGuarantee(0.0, 0.0, "given"), 10)
    assert (b0.k, b0.beta, b0.theorem, b0.conditions, b0.variant) == (
        0.0, 0.0, "RRST-1.4a", ("eps = 0",), "exact")
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
    assert big.theorem == "RRST-1.4a"           # 1.4b (18.3 bits) above 1.4a (7.2 bits)
    # approximate DP: Thm 3.1 at the requested beta (not at the paper's choice)
    g = DPGuarantee(0.1, 1e-9, "given")
    t9 = dp_max_information(g, 1000, iid=True, beta=0.9)
    assert t9.theorem == "RRST-3.1" and t9.beta <= 0.9 and t9.k < dp_max_information(
        g, 1000, iid=True).k


def test_pointwise_indistinguishability_both_paths():
    """RRST Def 2.2 by hand on x = (1/2, 1/4, 1/8, 1/8, 0), z = (1/4, 1/4, 1/4, 0, 1/4):
    ratios 2, 1, 1/2, then a cell z misses (x-mass 1/8, never good) and one x misses."""
    x = [F(1, 2), F(1, 4), F(1, 8), F(1, 8), F(0)]
    z = [F(1, 4), F(1, 4), F(1, 4), F(0), F(1, 4)]
    xf, zf = [float(v) for v in x], [float(v) for v in z]
    # (eps, delta, answer): good mass 7/8 above ln 2, 1/4 (the ratio-1 cell) below it
    cases = [(0.6932, F(1, 8), True), (0.6932, 0.12, False), (0.5, F(3, 4), True),
             (0.5, 0.74, False), (0, F(3, 4), True), (0, 0.74, False), (0.6932, 0, False)]
    for eps, d, ans in cases:
        assert is_pointwise_indistinguishable(x, z, eps, d) is ans, (eps, d)
        assert is_pointwise_indistinguishable(xf, zf, eps, float(d), exact=False) is ans, (eps, d)
    # not symmetric: over z's mass the bad cells weigh 1/4 (z's own cell x misses)
    assert is_pointwise_indistinguishable(z, x, 0.6932, F(1, 4)) is True
    assert is_pointwise_indistinguishable(z, x, 0.6932, F(1, 5)) is False
    # exact mode decides e^eps against the ratio 2 exactly: float ln 2 is below ln 2
    assert is_pointwise_indistinguishable([0.5, 0.5], [0.25, 0.75], math.log(2), 0,
                                          exact=True) is False
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
    for eps, d, ans in [(0.6932, F(1, 8), False), (0.6932, F(1, 4), True), (0, F(1, 2), True),
                        (0, F(2, 5), False), (1.0987, 0, True), (1.0986, 0, False),
                        (0.1, 1, True)]:
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
    assert not isinstance(dp_delta(RR, 1.0, [(0, 1)], exact=True), float)   # exact on request
    # several pairs: the largest hockey stick over them, both directions
    m3 = [[0.5, 0.5], [0.75, 0.25], [0.25, 0.75]]
    assert dp_delta(m3, 0.0, [(0, 1), (0, 2)]) == pytest.approx(0.25)
    assert dp_delta(m3, 0.0, [(1, 2)]) == pytest.approx(0.5)
