"""The first certified evaluators: RRST Thm 1.3 and DFHPRR Thm 6, against 50-digit mpmath."""

from __future__ import annotations

import math
from fractions import Fraction as F

import mpmath
import numpy as np  # noqa: E402
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from maxinfo_bounds import InvalidParameter, description_length_max_information, pvalue_correction
from maxinfo_bounds.theorems.pvalues import mi_pvalue_correction, russo_zou_pvalue_correction

from .reference import DPS, SWEEP, check_down, check_up, log_uniform, mp, rel_exp  # noqa: E402


def _mp(x: float) -> mpmath.mpf:
    return mpmath.mpf(F(x).numerator) / F(x).denominator  # exact value of the float


@given(st.floats(0, 1), st.floats(0, 200), st.floats(0, 1))
@example(0.05, 1.0, 0.01)
@example(0.05, 10.5, 1e-6)
@example(1.0, 0.0, 0.0)
def test_pvalue_correction_rounded_down(alpha, k, beta):
    mpmath.mp.dps = 50
    exact = max((_mp(alpha) - _mp(beta)) * mpmath.power(2, -_mp(k)), 0)  # 50-digit reference
    got = pvalue_correction(alpha, k, beta)
    assert _mp(got) <= exact
    # and tight: within 2 ulps of the exact value (or both 0 / subnormal)
    assert exact - _mp(got) <= 2 * mpmath.mpf(math.ulp(got)) + mpmath.mpf(2) ** -1074


def test_pvalue_correction_values():
    assert pvalue_correction(0.05, 1.0, 0.01) == 0.02  # (0.05-0.01)/2 exact in binary? see below
    # hand: (alpha - beta)/2^k with alpha=0.05, beta=0.01, k=1: exact rational of the floats,
    # rounded down; 0.02 is the float nearest, check it is not above the exact value
    assert F(pvalue_correction(0.05, 1.0, 0.01)) <= (F(0.05) - F(0.01)) / 2
    assert pvalue_correction(0.05, 0.0, 0.06) == 0.0
    assert pvalue_correction(0.05, math.inf, 0.0) == 0.0


@given(st.integers(1, 10**12), st.floats(1e-300, 1.0))
@example(1024, 0.5)
@example(1, 1.0)
def test_description_length_rounded_up(m, beta):
    mpmath.mp.dps = 50
    exact = mpmath.log(mpmath.mpf(m) / _mp(beta), 2)  # 50-digit reference
    got = description_length_max_information(m, beta).k
    assert _mp(got) >= exact
    assert _mp(got) - exact <= 2 * mpmath.mpf(math.ulp(got)) + mpmath.mpf(10) ** -40


def test_description_length_exact_powers_of_two():
    assert description_length_max_information(1024, 0.5).k == 11.0  # log2(2048), exact
    assert description_length_max_information(1, 1.0).k == 0.0


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"alpha": 1.5, "k": 1.0, "beta": 0.0}, "alpha"),
        ({"alpha": 0.05, "k": -1.0, "beta": 0.0}, "k"),
        ({"alpha": 0.05, "k": math.nan, "beta": 0.0}, "k"),
        ({"alpha": 0.05, "k": 1.0, "beta": -0.1}, "beta"),
    ],
)
def test_pvalue_bad_input(kwargs, name):
    with pytest.raises(InvalidParameter, match=rf"^{name}="):
        pvalue_correction(**kwargs)


def test_description_bad_input():
    with pytest.raises(InvalidParameter, match=r"range_size=0 is invalid: must be an integer in \[1, inf\]"):
        description_length_max_information(0, 0.1)
    with pytest.raises(InvalidParameter, match=r"beta=0.0 is invalid: must be a real number in \(0, 1\]"):
        description_length_max_information(4, 0.0)


# ------------------------------------------------------------------------------------------
# 10,000-point sweeps against 50-digit references (scalar and vectorised paths)


N_POINTS = SWEEP


def _gamma_ref(a, k, b):
    with mpmath.workdps(DPS):
        return max((mp(a) - mp(b)) * mpmath.power(2, -mp(k)), mpmath.mpf(0))


def _pvalue_points(seed):
    rng = np.random.default_rng(seed)
    alpha = rng.uniform(0, 1, N_POINTS)
    beta = alpha * rng.uniform(0, 1.2, N_POINTS) * (rng.random(N_POINTS) < 0.9)
    beta = np.minimum(beta, 1.0)
    k = np.where(
        rng.random(N_POINTS) < 0.2, np.floor(rng.uniform(0, 60, N_POINTS)), log_uniform(rng, 1e-12, 900, N_POINTS)
    )
    return alpha, k, beta


def test_pvalue_sweep_scalar():
    alpha, k, beta = _pvalue_points(3)
    for a, kk, b in zip(alpha, k, beta):
        check_down(pvalue_correction(float(a), float(kk), float(b)), _gamma_ref(a, kk, b), 2**-50)


def test_pvalue_sweep_vectorised():
    alpha, k, beta = _pvalue_points(4)
    g = pvalue_correction(alpha, k, beta)
    for i in range(N_POINTS):
        check_down(g[i], _gamma_ref(alpha[i], k[i], beta[i]), 2**-40)


def _desc_ref(m, b):
    with mpmath.workdps(DPS):
        return mpmath.log(mpmath.mpf(m) / mp(b), 2)


def test_description_sweeps():
    rng = np.random.default_rng(5)
    m = np.floor(log_uniform(rng, 1, 1e15, N_POINTS))
    beta = log_uniform(rng, 1e-300, 1.0, N_POINTS)
    arr = description_length_max_information(m, beta)
    for i in range(N_POINTS):
        ref = _desc_ref(int(m[i]), beta[i])
        check_up(description_length_max_information(int(m[i]), float(beta[i])).k, ref, 2**-50)
        check_up(arr[i], ref, 2**-40)


def test_pvalue_extremes():
    # k huge: gamma tiny but positive and correct (no underflow to 0 while representable)
    g = pvalue_correction(0.05, 900.5, 1e-300)
    check_down(g, _gamma_ref(0.05, 900.5, 1e-300), 2**-50)
    assert g > 0
    assert pvalue_correction(np.array([0.05]), np.array([np.inf]), np.array([0.0]))[0] == 0.0
    with pytest.raises(InvalidParameter, match="k="):
        pvalue_correction(np.array([0.05]), np.array([np.nan]), np.array([0.0]))


def _rz_gamma_50(alpha: float, m: float) -> mpmath.mpf:
    """The largest gamma with gamma + sqrt(m ln 2 / ln(1/(2 gamma))) <= alpha (Russo-Zou, m in
    bits), by bisection at 50 digits (the level increases in gamma on (0, 1/2))."""
    with mpmath.workdps(60):
        a, mm = mpmath.mpf(alpha), mpmath.mpf(m) * mpmath.log(2)
        level = lambda g: g + mpmath.sqrt(mm / mpmath.log(1 / (2 * g)))  # noqa: E731
        lo, hi = mpmath.mpf(10) ** -300, mpmath.mpf(1) / 2 - mpmath.mpf(10) ** -55
        for _ in range(400):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if level(mid) <= a else (lo, mid)
        return lo


def test_russo_zou_at_alpha_one_and_on_2d_arrays():
    g = russo_zou_pvalue_correction(1.0, 1.0)
    ref = _rz_gamma_50(1.0, 1.0)
    assert 0 < g <= ref and (ref - g) <= ref * 1e-14  # valid (at or below) and tight
    grid = russo_zou_pvalue_correction(np.array([[0.05, 0.1], [0.2, 1.0]]), np.array([[0.001], [1.0]]))
    assert grid.shape == (2, 2)
    assert grid[1, 1] == g and grid[0, 0] == russo_zou_pvalue_correction(0.05, 0.001)


def test_mi_pvalue_paper_array_is_rounded_down_like_the_scalar_path():
    """RRST Cor C.2's closed form on arrays: every entry at or below the certified scalar value
    (the largest float below the exact gamma) and within 2^-40 of it, over exponents up to
    ~700 nats where the float exponential's error is largest; alpha = 0 gives 0; 2-D shapes
    are kept (both variants)."""
    from maxinfo_bounds.theorems.pvalues import mi_pvalue_correction

    rng = np.random.default_rng(7)
    alpha = np.exp(rng.uniform(np.log(1e-2), 0.0, 400))
    # the exponent 2(m + 0.54)/alpha ln 2 nats: up to 0.85 * 700 + 75 (gamma stays a normal float)
    m = rng.uniform(0.0, 0.85, 400) * alpha * 700 / (2 * np.log(2))
    got = mi_pvalue_correction(alpha, m, variant="paper")
    ref = np.array([mi_pvalue_correction(float(a), float(b), variant="paper") for a, b in zip(alpha, m)])
    assert np.all(got <= ref) and np.all(got >= ref * (1 - 2.0**-40))
    z = mi_pvalue_correction(np.array([0.0, 0.05]), np.array([1.0, 1.0]), variant="paper")
    s = mi_pvalue_correction(0.05, 1.0, variant="paper")
    assert z[0] == 0.0 and s * (1 - 2.0**-40) <= z[1] <= s
    a2, m2 = np.array([[0.05, 0.01], [0.1, 0.2]]), np.array([[1.0, 0.5], [2.0, 0.1]])
    for variant in ("paper", "optimal"):
        g2 = mi_pvalue_correction(a2, m2, variant=variant)
        assert g2.shape == (2, 2)
        for i in range(2):
            for j in range(2):
                s = mi_pvalue_correction(float(a2[i, j]), float(m2[i, j]), variant=variant)
                assert s * (1 - 2.0**-40) <= g2[i, j] <= s


N = SWEEP


def test_c2_paper_vectorised():
    rng = np.random.default_rng(43)
    a = rng.uniform(0.001, 1, N)
    m = log_uniform(rng, 1e-6, 50, N)
    g = mi_pvalue_correction(a, m, variant="paper")
    for i in range(N):
        with mpmath.workdps(DPS):
            ref = mp(a[i]) / 2 * mpmath.power(2, -2 / mp(a[i]) * (mp(m[i]) + mpmath.mpf(54) / 100))
        check_down(g[i], ref, rel_exp(2 / a[i] * (m[i] + 0.54)))
