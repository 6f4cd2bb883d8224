"""The numpy fast paths against 50-digit references on 10,000 random points each, in the safe
direction (bounds up, thresholds down) and within the documented 2^-44 relative margin."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from maxinfo_bounds import RegimeError
from maxinfo_bounds.theorems.generalization import mcdiarmid_transfer, pvalue_sensitivity_lower_bound
from maxinfo_bounds.theorems.maxinfo_dp import approx_dp_max_information
from maxinfo_bounds.theorems.mutual_info import approx_max_information_to_mi
from maxinfo_bounds.theorems.pvalues import mi_pvalue_correction

from .reference import DPS, SWEEP, check_down, check_up, log_uniform, mp
from .test_approx_dp import _ref as thm31_ref

N = SWEEP
REL = 2.0**-40


def rel_exp(arg):
    """Documented fast-path margin: 2^-44 relative plus 2^-50 per unit of |exponent| (x 16 slack)."""
    return REL + abs(float(arg)) * 2.0**-46


@pytest.mark.parametrize("variant", ["paper", "sound"])
def test_thm31_vectorised(variant):
    rng = np.random.default_rng(41)
    eps = log_uniform(rng, 1e-8, 0.5, N)
    n = np.floor(log_uniform(rng, 1, 1e10, N))
    delta = eps * log_uniform(rng, 1e-40, 0.5, N)
    k, b = approx_dp_max_information(eps, delta, n, variant=variant, strict=False)
    for i in range(N):
        t, dh = eps[i] * math.sqrt(2 * n[i]), math.sqrt(eps[i] * delta[i]) / 15
        if variant == "sound" and not (2 * dh / -math.expm1(-3 * eps[i]) < 0.5):
            continue  # outside the sound variant's own domain the value is marked, not compared
        kr, br = thm31_ref(float(eps[i]), float(delta[i]), int(n[i]), t, dh, variant)
        check_up(k[i], kr, REL)
        check_up(b[i], min(br, mpmath.mpf(1)), rel_exp(t * t / 2))
    with pytest.raises(RegimeError, match=r"eps\[1\]"):
        approx_dp_max_information(np.array([0.1, 0.7]), np.array([1e-20, 1e-20]), np.array([10, 10]))


def test_lemma_1_5b_vectorised():
    rng = np.random.default_rng(42)
    k = log_uniform(rng, 1e-3, 100, N)
    om = -np.expm1(-k * math.log(2))
    beta = om * rng.uniform(0, 0.15, N)
    s = np.floor(log_uniform(rng, 1, 1e15, N))
    for variant in ("paper", "sound"):
        arr = approx_max_information_to_mi(k, beta, s, variant=variant, unit="nats")
        for i in range(0, N, 5):  # 2,000 points per variant
            with mpmath.workdps(DPS):
                K, B, S = mp(k[i]), mp(beta[i]), mpmath.mpf(int(s[i]))
                O = 1 - mpmath.power(2, -K)
                if B == 0:
                    ref = 2 * K * mpmath.log(2)
                elif variant == "paper":
                    ref = 2 * K * mpmath.log(2) + 2 * B * mpmath.log(S / (2 * B), 2) / O
                else:
                    ref = 2 * K * mpmath.log(2) + B / O * (mpmath.log(S) + mpmath.log(O / B))
            check_up(arr[i], ref, REL)


def test_c2_paper_vectorised():
    rng = np.random.default_rng(43)
    a = rng.uniform(0.001, 1, N)
    m = log_uniform(rng, 1e-6, 50, N)
    g = mi_pvalue_correction(a, m, variant="paper")
    for i in range(N):
        with mpmath.workdps(DPS):
            ref = mp(a[i]) / 2 * mpmath.power(2, -2 / mp(a[i]) * (mp(m[i]) + mpmath.mpf(54) / 100))
        check_down(g[i], ref, rel_exp(2 / a[i] * (m[i] + 0.54)))


def test_d1_and_b1_vectorised():
    rng = np.random.default_rng(44)
    k = rng.uniform(0, 60, N)
    b = rng.uniform(0, 0.1, N)
    tau = log_uniform(rng, 1e-3, 1, N)
    n = np.floor(log_uniform(rng, 1, 1e8, N))
    s = log_uniform(rng, 1e-6, 1e-1, N)
    v = mcdiarmid_transfer(k, b, tau, n, s)
    for i in range(N):
        with mpmath.workdps(DPS):
            ref = min(
                2 * mpmath.exp(mp(k[i]) * mpmath.log(2) - 2 * mp(tau[i]) ** 2 / (int(n[i]) * mp(s[i]) ** 2)) + mp(b[i]),
                mpmath.mpf(1),
            )
        check_up(v[i], ref, rel_exp(k[i] * math.log(2) + 2 * tau[i] ** 2 / (n[i] * s[i] ** 2)))
    ns = np.floor(log_uniform(rng, 1, 1e12, N))
    lo = pvalue_sensitivity_lower_bound(ns)
    c1 = mp(pvalue_sensitivity_lower_bound(1))
    for i in range(0, N, 10):
        with mpmath.workdps(DPS):
            check_down(lo[i], c1 / mpmath.sqrt(int(ns[i])), REL)
