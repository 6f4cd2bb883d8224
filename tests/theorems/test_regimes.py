"""The regime checks of RRST Thm B.2 (BNSSSU) at their edges, on both paths, by hand; and the
Russo-Zou correction at alpha = 1 and on 2-D arrays against a 50-digit root written here.

B.2's conditions: eps in (0, 1/3), delta in (0, eps/4), n >= ln(4 eps/delta)/eps^2. At eps = 0.1,
delta = 1e-6: ln(4e5)/0.01 = 12.899219826.../0.01 = 1289.92, so n = 1290 is the first n inside.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import pytest

from maxinfo_bounds import RegimeError
from maxinfo_bounds.theorems.generalization import bnsssu_transfer
from maxinfo_bounds.theorems.pvalues import russo_zou_pvalue_correction

N_TEXT = "RRST Thm B.2 does not apply: it requires n >= ln(4 eps/delta)/eps^2, got n=1289.0"
DELTA_TEXT = "RRST Thm B.2 does not apply: it requires delta in (0, eps/4), got delta=0.025"
EPS_TEXT = "RRST Thm B.2 does not apply: it requires eps in (0, 1/3), got eps=0.34"


def test_b2_scalar_edges_and_texts():
    b = bnsssu_transfer(0.1, 1e-6, 1290, 1e-3)
    assert b.in_regime and b.theorem == "RRST-B.2"
    assert b.deviation == pytest.approx(18 * 0.1 * 1e-3 * 1290, rel=1e-15)   # 2.322
    assert b.probability == pytest.approx(1e-5, rel=1e-15)                   # delta/eps
    assert b.conditions[-1] == "i.i.d. data" and len(b.conditions) == 4
    for args, text in [((0.1, 1e-6, 1289, 1e-3), N_TEXT), ((0.1, 0.025, 10**6, 1e-3), DELTA_TEXT),
                       ((0.34, 1e-6, 10**6, 1e-3), EPS_TEXT)]:
        with pytest.raises(RegimeError) as e:
            bnsssu_transfer(*args)
        assert str(e.value) == text
    # the first failing condition is the one named: eps, then delta, then n
    with pytest.raises(RegimeError) as e:
        bnsssu_transfer(0.34, 0.5, 2, 1e-3)
    assert "requires eps in (0, 1/3)" in str(e.value)
    with pytest.raises(RegimeError) as e:
        bnsssu_transfer(0.1, 0.5, 2, 1e-3)
    assert "requires delta in (0, eps/4)" in str(e.value)
    # exact edges: eps = 1/3 and delta = eps/4 are outside; just inside is inside
    for eps, delta in [(Fraction(1, 3), Fraction(1, 10**6)), (Fraction(1, 10), Fraction(1, 40))]:
        with pytest.raises(RegimeError):
            bnsssu_transfer(eps, delta, 10**9, 1e-3)
    assert bnsssu_transfer(Fraction(1, 3) - Fraction(1, 10**9), Fraction(1, 10**6), 10**9, 1e-3).in_regime
    assert bnsssu_transfer(0.1, 0.025 * (1 - 1e-12), 10**6, 1e-3).in_regime


def test_b2_out_of_regime_is_marked_and_capped():
    b = bnsssu_transfer(0.1, 0.5, 10, 1e-3, strict=False)
    assert not b.in_regime and b.probability == 1.0      # delta/eps = 5, capped at 1
    assert b.deviation == pytest.approx(18 * 0.1 * 1e-3 * 10, rel=1e-15)
    assert bnsssu_transfer(0.1, 1e-6, 1289, 1e-3, strict=False).in_regime is False
    assert bnsssu_transfer(0.34, 1e-6, 10**6, 1e-3, strict=False).in_regime is False


def test_b2_array_edges():
    dev, prob = bnsssu_transfer(np.array([0.1, 0.1]), 1e-6, np.array([1290, 5000]), 1e-3)
    assert dev == pytest.approx([2.322, 9.0], rel=1e-12) and prob == pytest.approx([1e-5, 1e-5], rel=1e-12)
    for eps, delta, n, text in [(0.1, 1e-6, 1289, N_TEXT), (0.1, 0.025, 10**6, DELTA_TEXT),
                                (0.34, 1e-6, 10**6, EPS_TEXT)]:
        with pytest.raises(RegimeError) as e:   # one bad entry among good ones
            bnsssu_transfer(np.array([0.1, eps]), np.array([1e-6, delta]), np.array([10**6, n]), 1e-3)
        assert str(e.value) == text
    # strict=False: values everywhere, the probability capped at 1
    dev, prob = bnsssu_transfer(np.array([0.1, 0.1]), np.array([1e-6, 0.5]), np.array([10, 10]), 1e-3,
                                strict=False)
    assert prob[1] == 1.0 and prob[0] == pytest.approx(1e-5, rel=1e-12)


def _rz_gamma_50(alpha: float, m: float) -> mpmath.mpf:
    """The largest gamma with gamma + sqrt(m ln 2 / ln(1/(2 gamma))) <= alpha (Russo-Zou, m in
    bits), by bisection at 50 digits (the level increases in gamma on (0, 1/2))."""
    with mpmath.workdps(60):
        a, mm = mpmath.mpf(alpha), mpmath.mpf(m) * mpmath.log(2)
        level = lambda g: g + mpmath.sqrt(mm / mpmath.log(1 / (2 * g)))   # noqa: E731
        lo, hi = mpmath.mpf(10) ** -300, mpmath.mpf(1) / 2 - mpmath.mpf(10) ** -55
        for _ in range(400):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if level(mid) <= a else (lo, mid)
        return lo


def test_russo_zou_at_alpha_one_and_on_2d_arrays():
    g = russo_zou_pvalue_correction(1.0, 1.0)
    ref = _rz_gamma_50(1.0, 1.0)
    assert 0 < g <= ref and (ref - g) <= ref * 1e-14        # valid (at or below) and tight
    grid = russo_zou_pvalue_correction(np.array([[0.05, 0.1], [0.2, 1.0]]), np.array([[0.001], [1.0]]))
    assert grid.shape == (2, 2)
    assert grid[1, 1] == g and grid[0, 0] == russo_zou_pvalue_correction(0.05, 0.001)
