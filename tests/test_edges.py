"""Domains and refusals, probed at their edges.

Written against the mutants that survived the mutation run (docs/verification.md, "Mutation
testing"): a changed bound, an open end made closed, a parameter named wrongly in its error, an
early return with a wrong field. Each case states the documented domain of one parameter; the
probes check that the edge values are accepted or refused as documented and that a refusal names
the parameter, its value and the allowed range in one line.
"""

from __future__ import annotations

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


# ---------------------------------------------------------------------------------------------
# enumerated options (variant, unit) of every evaluator


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
