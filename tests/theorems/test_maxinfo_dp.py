"""RRST Thm 1.4 / DFHPRR Thms 7, 8: hand values, 50-digit sweeps, extremes, exact mechanisms."""

from __future__ import annotations

import math
from fractions import Fraction as F
from itertools import product

import mpmath
import numpy as np
import pytest

from maxinfo_bounds import InvalidParameter
from maxinfo_bounds.catalog import Bound, get
from maxinfo_bounds.measures import approx_max_information, max_information
from maxinfo_bounds.theorems.maxinfo_dp import (
    pure_dp_max_information,
    pure_dp_max_information_product,
)

from .reference import DPS, SWEEP, check_up, log_uniform, mp, sympy_value

N_POINTS = SWEEP


def _ref_pure(e, n):
    with mpmath.workdps(DPS):
        return mp(e) * n / mpmath.log(2)


def _ref_product(e, n, b):
    with mpmath.workdps(DPS):
        E, B = mp(e), mp(b)
        return (E * E * n / 2 + E * mpmath.sqrt(n * mpmath.log(2 / B) / 2)) / mpmath.log(2)


def _points(seed):
    rng = np.random.default_rng(seed)
    eps = log_uniform(rng, 1e-12, 10.0, N_POINTS)
    n = np.floor(log_uniform(rng, 1.0, 1e12, N_POINTS))
    beta = log_uniform(rng, 1e-300, 0.999, N_POINTS)
    return eps, n, beta


def test_hand_values():
    # 0.5 * 4 * log2(e) = 2.8853900817779268... (hand); k is the float just above
    assert pure_dp_max_information(0.5, 4).k == pytest.approx(2 / math.log(2), rel=1e-15)
    b = pure_dp_max_information_product(0.1, 1000, 1e-6)
    # log2(e) * (0.01*1000/2 + 0.1*sqrt(1000*ln(2e6)/2)) = 1.4427 * (5 + 8.5170...) (hand)
    assert b.k == pytest.approx((5 + 0.1 * math.sqrt(500 * math.log(2e6))) / math.log(2), rel=1e-14)
    assert isinstance(b, Bound) and b.product_only and b.beta == 1e-6 and b.theorem == "RRST-1.4b"


def test_scalar_rounded_up_50_digits():
    eps, n, beta = _points(1)
    for e, nn, b in zip(eps[:N_POINTS], n, beta):
        check_up(pure_dp_max_information(float(e), int(nn)).k, _ref_pure(e, int(nn)), 2**-51)
        check_up(pure_dp_max_information_product(float(e), int(nn), float(b)).k, _ref_product(e, int(nn), b), 2**-51)


def test_vectorised_rounded_up_50_digits():
    eps, n, beta = _points(2)
    k1 = pure_dp_max_information(eps, n)
    k2 = pure_dp_max_information_product(eps, n, beta)
    for i in range(N_POINTS):
        check_up(k1[i], _ref_pure(eps[i], int(n[i])), 2**-40)
        check_up(k2[i], _ref_product(eps[i], int(n[i]), beta[i]), 2**-40)


def test_extremes_finite_and_correct():
    b = pure_dp_max_information_product(1e-12, 10**12, 1e-300)
    check_up(b.k, _ref_product(1e-12, 10**12, 1e-300), 2**-51)
    assert 0 < pure_dp_max_information(1e-12, 1).k < 1.5e-12
    arr = pure_dp_max_information_product(np.array([1e-12, 10.0]), np.array([1e12, 1.0]), np.array([1e-300, 0.5]))
    assert np.all(np.isfinite(arr)) and np.all(arr > 0)


def test_sympy_statement_agrees():
    for e, n, b in [(0.1, 100, 1e-3), (2.0, 7, 0.5), (1e-6, 10**9, 1e-100)]:
        s1 = sympy_value(get("RRST-1.4a").sympy_statement(), epsilon=e, n=n)
        s2 = sympy_value(get("RRST-1.4b").sympy_statement(), epsilon=e, n=n, beta=b)
        with mpmath.workdps(DPS):
            check_up(pure_dp_max_information(e, n).k, s1, 2**-51)
            check_up(pure_dp_max_information_product(e, n, b).k, s2, 2**-51)


def _rr_joint(n, keep):
    """n uniform bits, each released through randomized response keeping it w.p. keep."""
    rows = []
    for x in product((0, 1), repeat=n):
        row = []
        for y in product((0, 1), repeat=n):
            pr = F(1, 2**n)
            for a, b in zip(x, y):
                pr *= keep if a == b else 1 - keep
            row.append(pr)
        rows.append(row)
    return rows


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_bound_holds_on_randomized_response_exactly(n):
    """Exact I_inf and I^beta of n-bit randomized response (e^eps = 3) under the pure DP bounds."""
    J = _rr_joint(n, F(3, 4))
    eps = math.log(3)  # the float ln 3 exceeds ln 3 (by 9e-17), so RR is (eps, 0)-DP
    exact = max_information(J)
    assert exact.ratio == F(3, 2) ** n  # hand: (3/4)/(1/2) per bit
    assert exact.le(pure_dp_max_information(eps, n).k)
    for beta in (F(1, 100), F(1, 4)):
        assert approx_max_information(J, beta).le(pure_dp_max_information_product(eps, n, float(beta)).k)


@pytest.mark.parametrize(
    "call",
    [
        lambda: pure_dp_max_information(0.0, 1),
        lambda: pure_dp_max_information(math.inf, 1),
        lambda: pure_dp_max_information(0.1, 0),
        lambda: pure_dp_max_information(0.1, 2.5),
        lambda: pure_dp_max_information_product(0.1, 10, 0.0),
        lambda: pure_dp_max_information_product(0.1, 10, 1.0),
        lambda: pure_dp_max_information_product(np.array([0.1, -1.0]), 10, 0.5),
        lambda: pure_dp_max_information(np.array([0.1, 0.2]), np.array([1.0, 1.5])),
    ],
)
def test_bad_input(call):
    with pytest.raises(InvalidParameter, match="is invalid: must be"):
        call()
