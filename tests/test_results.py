"""The result types refuse impossible values at construction and serialise with units."""

from __future__ import annotations

import math

import pytest

from maxinfo_bounds import Bound, DPGuarantee, InvalidParameter, dp_max_information


@pytest.mark.parametrize(
    "eps,delta,field",
    [
        (-3.0, 2.0, "eps"),
        (-1.0, 0.0, "eps"),
        (math.nan, 0.0, "eps"),
        (0.1, 2.0, "delta"),
        (0.1, -0.5, "delta"),
        (0.1, math.nan, "delta"),
        ("0.1", 0.0, "eps"),
        (True, 0.0, "eps"),
    ],
)
def test_dpguarantee_refuses_impossible_values(eps, delta, field):
    with pytest.raises(InvalidParameter, match=f"^{field}="):
        DPGuarantee(eps, delta, "given")


@pytest.mark.parametrize(
    "k,beta,field",
    [
        (-1.0, 0.0, "k"),
        (math.nan, 0.1, "k"),
        (1.0, 1.5, "beta"),
        (1.0, -1e-9, "beta"),
        (1.0, math.nan, "beta"),
    ],
)
def test_bound_refuses_impossible_values(k, beta, field):
    with pytest.raises(InvalidParameter, match=f"^{field}="):
        Bound(k, beta, "RRST-1.3")


@pytest.mark.parametrize(
    "dev,prob,field",
    [
        (-1.0, 0.1, "deviation"),
        (math.nan, 0.1, "deviation"),
        (1.0, 1.5, "probability"),
        (1.0, -0.1, "probability"),
        (1.0, math.nan, "probability"),
    ],
)
def test_tail_bound_refuses_impossible_values(dev, prob, field):
    from maxinfo_bounds.results import TailBound

    with pytest.raises(InvalidParameter, match=f"^{field}="):
        TailBound(dev, prob, "RRST-B.2")
    assert TailBound(math.inf, 1.0, "RRST-B.2").as_dict()["probability"] == 1.0


def test_edges_are_accepted_and_serialised_with_units():
    assert Bound(math.inf, 1.0, "x").as_dict()["k_bits"] == math.inf
    d = DPGuarantee(0.0, 1.0, "given").as_dict()
    assert d == {"theorem": "given", "eps_nats": 0.0, "delta": 1.0, "rounding": "up", "conditions_checked": []}


def test_dp_max_information_refuses_a_beta_it_would_ignore():
    g = DPGuarantee(0.1, 0.0, "given")
    with pytest.raises(InvalidParameter, match="^beta=5.0"):
        dp_max_information(g, 100, iid=True, beta=5.0)
    with pytest.raises(InvalidParameter, match="omitted unless iid=True"):
        dp_max_information(g, 100, beta=0.01)
    # the same guarantee without beta: RRST Thm 1.4a, k = log2(e) eps n = 14.427 bits (hand)
    assert dp_max_information(g, 100).k == pytest.approx(14.426950408889634, rel=1e-15)
