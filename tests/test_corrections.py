"""One-step corrections: every route certified, the best route chosen, beta optimised."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from maxinfo_bounds import InvalidParameter
from maxinfo_bounds.cli import main
from maxinfo_bounds.corrections import correct
from maxinfo_bounds.theorems.description import description_length_max_information
from maxinfo_bounds.theorems.maxinfo_dp import pure_dp_max_information_product
from maxinfo_bounds.theorems.pvalues import mi_pvalue_correction, pvalue_correction


def test_description_route_hand():
    c = correct(0.05, range_size=20)
    # hand: beta = 0.025, k = log2(800), gamma = 0.025 * 0.025 / 20 = 3.125e-5
    assert c.beta == 0.025 and c.k == description_length_max_information(20, 0.025).k
    assert c.gamma == pvalue_correction(0.05, c.k, 0.025) and c.gamma <= 3.125e-5


@pytest.mark.parametrize("eps, n", [(0.01, 1000), (0.1, 100), (0.001, 10**6), (0.05, 10**4)])
def test_iid_route_certified_and_near_optimal(eps, n):
    c = correct(0.05, eps=eps, n=n, iid=True)
    if c.route[0] == "RRST-1.4b":
        assert c.k == pure_dp_max_information_product(eps, n, c.beta).k
        assert c.gamma == pvalue_correction(0.05, c.k, c.beta)
    # no beta on a fine grid does better than the optimiser (by more than 1e-6 relative)
    grid = np.exp(np.linspace(math.log(1e-12), math.log(0.0499), 400))
    best = max(pvalue_correction(0.05, pure_dp_max_information_product(eps, n, float(b)).k, float(b)) for b in grid)
    assert c.gamma >= best * (1 - 1e-6)


def test_best_route_wins_and_mi_route():
    c = correct(0.05, eps=0.01, n=1000, iid=True, range_size=20)
    assert c.gamma == max(g for _, g in c.candidates) and c.route[0] == "RRST-1.4b"
    assert correct(0.05, mi_bits=1.0).gamma == mi_pvalue_correction(0.05, 1.0)
    # without iid, the pure DP route is the any-data one only
    assert correct(0.05, eps=0.01, n=1000).route == ("RRST-1.4a", "RRST-1.3")


def test_bad_descriptions():
    with pytest.raises(InvalidParameter, match="missing a guarantee of the selection step"):
        correct(0.05)
    with pytest.raises(InvalidParameter, match="^n="):
        correct(0.05, eps=0.1)


def test_cli_correct(capsys):
    assert main(["correct", "--alpha", "0.05", "--range-size", "20", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["route"] == "DFHPRR-6 -> RRST-1.3" and out["gamma"] <= 3.125e-5


def test_approx_dp_route_needs_iid_and_is_certified():
    from maxinfo_bounds import RegimeError
    from maxinfo_bounds.theorems.maxinfo_dp import approx_dp_max_information

    c = correct(0.05, eps=0.01, delta=1e-30, n=100, iid=True, range_size=5)
    assert c.route == ("RRST-3.1", "RRST-1.3")
    # never worse than Thm 3.1 at the given eps re-optimised at the same beta (the route may
    # apply Thm 3.1 at an implied eps' >= eps, which can only do better)
    again = approx_dp_max_information(0.01, 1e-30, 100, beta=c.beta)
    assert again.beta <= c.beta and c.gamma >= pvalue_correction(0.05, again.k, again.beta) * (1 - 1e-9)
    assert c.gamma == pvalue_correction(0.05, c.k, c.beta)
    # never worse than the paper's (t, delta_hat) at its own beta
    b0 = approx_dp_max_information(0.01, 1e-30, 100)
    assert c.gamma >= pvalue_correction(0.05, b0.k, b0.beta)
    with pytest.raises(InvalidParameter, match="no max-information bound without i.i.d."):
        correct(0.05, eps=0.01, delta=1e-30, n=100)
    assert correct(0.05, eps=0.01, delta=1e-30, n=100, range_size=5).notes  # route skipped, said
    with pytest.raises(RegimeError, match="eps in"):
        correct(0.05, eps=0.9, delta=1e-30, n=100, iid=True)


def test_approx_dp_route_where_most_betas_are_unreachable():
    """Regression: at n = 1e4, delta = 1e-20 Thm 3.1 reaches only beta >~ 1e-5; the optimiser
    used to stop on the unreachable plateau (gamma 0) or raise on the beta it returned."""
    import math
    import warnings

    from maxinfo_bounds.theorems.maxinfo_dp import approx_dp_max_information

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        c = correct(0.05, eps=0.001, delta=1e-20, n=10_000, iid=True)
        # delta = 1e-12: n * sqrt(delta / eps) ~ 0.3 > alpha, so no beta < alpha is reachable
        assert correct(0.05, eps=0.001, delta=1e-12, n=10_000, iid=True).gamma == 0.0
    # an independent 120-point log grid over beta never beats the returned gamma
    best = 0.0
    for lb in [math.log(1e-8) + i * (math.log(0.0499) - math.log(1e-8)) / 119 for i in range(120)]:
        try:
            b = approx_dp_max_information(0.001, 1e-20, 10_000, beta=math.exp(lb))
        except InvalidParameter:
            continue
        best = max(best, pvalue_correction(0.05, b.k, b.beta))
    assert best > 0.004 and c.gamma >= best * (1 - 1e-9)


def test_errors_name_the_parameter_at_fault():
    with pytest.raises(InvalidParameter, match="^eps=-1"):
        correct(0.05, eps=-1, delta=1e-6, n=10, iid=True)
    with pytest.raises(InvalidParameter, match="^delta=2"):
        correct(0.05, eps=0.1, delta=2, n=10, iid=True)
    with pytest.raises(InvalidParameter, match="^mi_bits=-0.5"):
        correct(0.05, mi_bits=-0.5)
    with pytest.raises(InvalidParameter, match="^range_size=0"):
        correct(0.05, range_size=0)


def test_correct_is_a_one_step_plan():
    """correct() and the planner give the same certified threshold for the same step."""
    from maxinfo_bounds.planning import GenericDP, Study, plan

    c = correct(0.05, eps=0.01, n=10_000, iid=True)
    p = plan(Study(n=10_000, iid=True, alpha=0.05, steps=(GenericDP(eps=0.01),)))
    assert c.gamma == p.gamma and c.k == p.k and c.beta == p.beta
