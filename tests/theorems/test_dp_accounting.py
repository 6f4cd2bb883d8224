"""DP composition and calibration: 50-digit references, rounding direction, hand values."""

from __future__ import annotations

import math
from fractions import Fraction as F

import mpmath
import numpy as np
import pytest

from maxinfo_bounds import InvalidParameter, RegimeError
from maxinfo_bounds.measures import dp_epsilon
from maxinfo_bounds.theorems.dp_accounting import (
    advanced_composition,
    basic_composition,
    compose_dp,
    gaussian_sigma,
    laplace_epsilon,
    laplace_scale,
)

from .reference import DPS, check_up, log_uniform, mp


def test_advanced_sweep_50_digits():
    rng = np.random.default_rng(61)
    for i in range(4_000):  # 4,000 points: each call validates up to 1,000 steps
        if i % 2:  # heterogeneous: a few distinct steps
            eps = [float(x) for x in log_uniform(rng, 1e-6, 1.0, int(rng.integers(1, 6)))]
            counts = [1] * len(eps)
        else:  # homogeneous: k equal steps, k up to 1000
            eps = [float(log_uniform(rng, 1e-6, 1.0, 1)[0])]
            counts = [int(log_uniform(rng, 1, 1000, 1)[0])]
        dp = float(log_uniform(rng, 1e-300, 0.5, 1)[0])
        g = advanced_composition([(e, 0.0) for e, c in zip(eps, counts) for _ in range(c)], dp)
        with mpmath.workdps(DPS):
            adv = mpmath.sqrt(2 * mpmath.log(1 / mp(dp)) * sum(c * mp(e) ** 2 for e, c in zip(eps, counts))) \
                + sum(c * mp(e) * (mpmath.exp(mp(e)) - 1) for e, c in zip(eps, counts))
            basic = sum(c * mp(e) for e, c in zip(eps, counts))
        check_up(g.eps, min(adv, basic), 2**-50)
        assert g.delta >= dp


def test_basic_and_budget():
    g = basic_composition([(0.5, 1e-6)] * 4)
    assert F(g.eps) >= 4 * F(0.5) and F(g.delta) >= 4 * F(1e-6)
    c = compose_dp([(0.1, 1e-8)] * 100, 1e-5)
    assert c.delta <= 1e-5 * (1 + 1e-15) and c.eps < 100 * 0.1
    assert compose_dp([(0.1, 1e-8)] * 100, F(100) * F(1e-8)).theorem == "DR-3.16"  # no slack: basic
    with pytest.raises(InvalidParameter, match="delta_total"):
        compose_dp([(0.1, 1e-8)] * 100, 1e-7)
    with pytest.raises(InvalidParameter, match=r"steps\[1\].eps"):
        basic_composition([(0.1, 0.0), (-1.0, 0.0)])


def test_laplace_exact_mechanism():
    """Discretised check: a two-point Laplace output table is (Delta/b)-DP exactly at the boundary."""
    assert laplace_epsilon(1.0, 10.0) == 0.1
    assert F(laplace_scale(1.0, 0.3)) >= F(1) / F(0.3)
    # randomized response as a 'Laplace-like' sanity anchor: dp_epsilon of [[3/4,1/4],[1/4,3/4]] = ln 3
    assert dp_epsilon([[F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]], 0, [(0, 1)]).ratio == 3


def test_gaussian_sigma():
    for e, d in [(0.5, 1e-5), (0.99, 1e-12), (1e-6, 0.5)]:
        with mpmath.workdps(DPS):
            ref = mpmath.sqrt(2 * mpmath.log(mpmath.mpf(5) / 4 / mp(d))) / mp(e)
        check_up(gaussian_sigma(1.0, e, d), ref, 2**-50)
    with pytest.raises(RegimeError, match=r"eps in \(0, 1\)"):
        gaussian_sigma(1.0, 1.5, 1e-5)
    assert gaussian_sigma(1.0, 1.5, 1e-5, strict=False) > 0
