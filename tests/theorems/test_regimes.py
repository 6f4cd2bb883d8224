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
    assert b.deviation == pytest.approx(18 * 0.1 * 1e-3 * 1290, rel=1e-15)  # 2.322
    assert b.probability == pytest.approx(1e-5, rel=1e-15)  # delta/eps
    assert b.conditions[-1] == "i.i.d. data" and len(b.conditions) == 4
    for args, text in [
        ((0.1, 1e-6, 1289, 1e-3), N_TEXT),
        ((0.1, 0.025, 10**6, 1e-3), DELTA_TEXT),
        ((0.34, 1e-6, 10**6, 1e-3), EPS_TEXT),
    ]:
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
    assert not b.in_regime and b.probability == 1.0  # delta/eps = 5, capped at 1
    assert b.deviation == pytest.approx(18 * 0.1 * 1e-3 * 10, rel=1e-15)
    assert bnsssu_transfer(0.1, 1e-6, 1289, 1e-3, strict=False).in_regime is False
    assert bnsssu_transfer(0.34, 1e-6, 10**6, 1e-3, strict=False).in_regime is False


def test_b2_array_edges():
    dev, prob = bnsssu_transfer(np.array([0.1, 0.1]), 1e-6, np.array([1290, 5000]), 1e-3)
    assert dev == pytest.approx([2.322, 9.0], rel=1e-12) and prob == pytest.approx([1e-5, 1e-5], rel=1e-12)
    for eps, delta, n, text in [
        (0.1, 1e-6, 1289, N_TEXT),
        (0.1, 0.025, 10**6, DELTA_TEXT),
        (0.34, 1e-6, 10**6, EPS_TEXT),
    ]:
        with pytest.raises(RegimeError) as e:  # one bad entry among good ones
            bnsssu_transfer(np.array([0.1, eps]), np.array([1e-6, delta]), np.array([10**6, n]), 1e-3)
        assert str(e.value) == text
    # strict=False: values everywhere, the probability capped at 1
    dev, prob = bnsssu_transfer(np.array([0.1, 0.1]), np.array([1e-6, 0.5]), np.array([10, 10]), 1e-3, strict=False)
    assert prob[1] == 1.0 and prob[0] == pytest.approx(1e-5, rel=1e-12)


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


# ---------------------------------------------------------------------------------------------
# RRST Thm 3.1: Lemma 3.7's delta_hat condition at its edge, on the scalar and the array path
# ---------------------------------------------------------------------------------------------


def _sound_edge(eps: float) -> mpmath.mpf:
    """The largest delta_hat with e^{3 eps} delta'' + delta_hat < 1, delta'' = 2 delta_hat /
    (1 - e^{-3 eps}) (the logarithm of Lemma 3.7's bound must be defined): solved by hand,
    delta_hat* = 1 / (1 + 2 e^{3 eps} / (1 - e^{-3 eps})), at 50 digits."""
    with mpmath.workdps(50):
        e = mpmath.mpf(eps)
        return 1 / (1 + 2 * mpmath.exp(3 * e) / (1 - mpmath.exp(-3 * e)))


def _ulps(x: float, k: int) -> float:
    for _ in range(abs(k)):
        x = float(np.nextafter(x, np.inf if k > 0 else -np.inf))
    return x


@pytest.mark.parametrize("eps", [0.05, 0.1, 0.25, 0.5])
def test_thm31_sound_delta_hat_edge(eps):
    from maxinfo_bounds.theorems.maxinfo_dp import approx_dp_max_information as a31

    edge = _sound_edge(eps)
    below, above = float(edge), float(edge)
    while mpmath.mpf(below) >= edge:
        below = _ulps(below, -1)
    while mpmath.mpf(above) <= edge:
        above = _ulps(above, 1)
    inside = [below, _ulps(below, -3), below * (1 - 1e-13), below * (1 - 1e-6), below / 2]
    outside = [above, _ulps(above, 3), above * (1 + 1e-13), above * (1 + 1e-6)]
    for dh in inside:
        assert a31(eps, 1e-12, 100, t=1.0, delta_hat=dh).in_regime, (eps, dh)
    for dh in outside:
        assert not a31(eps, 1e-12, 100, t=1.0, delta_hat=dh, strict=False).in_regime, (eps, dh)
        with pytest.raises(RegimeError, match="Lemma 3.7's logarithm"):
            a31(eps, 1e-12, 100, t=1.0, delta_hat=dh)
    # the array path: the same decisions (entries within a few ulp go to the scalar path)
    dh_in = np.array(inside)
    k, _ = a31(np.full(len(inside), eps), 1e-12, 100, t=np.ones(len(inside)), delta_hat=dh_in)
    assert np.all(np.isfinite(k))
    for dh in outside:
        with pytest.raises(RegimeError, match="Lemma 3.7's logarithm"):
            a31(np.array([eps, eps]), 1e-12, 100, t=np.ones(2), delta_hat=np.array([below, dh]))


def test_thm31_paper_delta_hat_edge_is_exact():
    """variant="paper": delta_hat <= eps/15, decided on the exact inputs. At eps = 3/8,
    eps/15 = 1/40; the float 0.025 is 1/40 + 1.4e-18, outside; the float below it is inside."""
    from maxinfo_bounds.theorems.maxinfo_dp import approx_dp_max_information as a31

    assert Fraction(0.025) > Fraction(1, 40) > Fraction(_ulps(0.025, -1))
    inside, outside = _ulps(0.025, -1), 0.025
    assert a31(0.375, 1e-12, 100, t=1.0, delta_hat=inside, variant="paper").in_regime
    assert a31(Fraction(3, 8), Fraction(1, 10**12), 100, t=1, delta_hat=Fraction(1, 40), variant="paper").in_regime
    assert not a31(
        Fraction(3, 8),
        Fraction(1, 10**12),
        100,
        t=1,
        delta_hat=Fraction(1, 40) + Fraction(1, 10**30),
        variant="paper",
        strict=False,
    ).in_regime
    with pytest.raises(RegimeError, match=r"eps/15\] \(Lemma 3.7\), got delta_hat=0.025$"):
        a31(0.375, 1e-12, 100, t=1.0, delta_hat=outside, variant="paper")
    # between eps/16 and eps/15: inside
    assert a31(0.375, 1e-12, 100, t=1.0, delta_hat=0.024, variant="paper").in_regime
    # the array path agrees, entry by entry
    k, _ = a31(np.array([0.375, 0.375]), 1e-12, 100, t=np.ones(2), delta_hat=np.array([inside, 0.024]), variant="paper")
    assert np.all(np.isfinite(k))
    with pytest.raises(RegimeError, match=r"got delta_hat(\[1\])?=0.025$"):
        a31(np.array([0.375, 0.375]), 1e-12, 100, t=np.ones(2), delta_hat=np.array([inside, outside]), variant="paper")


def test_thm31_exact_inputs_are_echoed_exactly():
    """Fractions given for t and delta_hat appear in the derivation as the fractions given."""
    from maxinfo_bounds.theorems.maxinfo_dp import approx_dp_max_information as a31

    b = a31(Fraction(1, 10), Fraction(1, 10**9), 100, t=Fraction(3, 2), delta_hat=Fraction(1, 1000))
    assert b.conditions[3:5] == ("t = 3/2", "delta_hat = 1/1000")
    b = a31(0.1, 1e-9, 100, t=1.5, delta_hat=0.001)
    assert b.conditions[3:5] == ("t = 1.5", "delta_hat = 0.001")


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


def test_lemma_15b_regime_edges_are_exact():
    """RRST Lemma 1.5 (second part) at its edges, k = 1 (1 - 2^-k = 1/2). Sound variant:
    beta/(1/2) <= 1/e, i.e. beta <= 1/(2e) = 0.18393972058572116...; the float 0.5/math.e =
    0.18393972058572117 lies above it (float(1/e) rounds up) and is refused; the float below
    is accepted. Paper variant: beta <= 3/40; 0.075 (just below 3/40) and 3/40 itself are
    inside, the next float and 3/40 + 10^-30 outside. Arrays decide the same way."""
    import math

    from maxinfo_bounds.theorems.mutual_info import approx_max_information_to_mi as to_mi

    with mpmath.workdps(40):
        assert mpmath.mpf(0.5 / math.e) > 1 / (2 * mpmath.e) > mpmath.mpf(float(np.nextafter(0.5 / math.e, 0)))
    above, below = 0.5 / math.e, float(np.nextafter(0.5 / math.e, 0))
    for variant, inside, outside in [
        ("sound", [below, Fraction(1, 6)], [above, Fraction(3, 16)]),
        ("paper", [0.075, Fraction(3, 40)], [float(np.nextafter(0.075, 1)), Fraction(3, 40) + Fraction(1, 10**30)]),
    ]:
        for b in inside:
            assert np.isfinite(to_mi(1, b, 100, variant=variant))
        for b in outside:
            with pytest.raises(RegimeError, match="RRST Lemma 1.5"):
                to_mi(1, b, 100, variant=variant)
            assert np.isfinite(to_mi(1, b, 100, variant=variant, strict=False))
        fin, fout = [float(x) for x in inside[:1]], [float(x) for x in outside[:1]]
        assert np.all(np.isfinite(to_mi(np.ones(2), np.array([0.01, fin[0]]), 100, variant=variant)))
        with pytest.raises(RegimeError, match=r"got beta\[1\]="):
            to_mi(np.ones(2), np.array([0.01, fout[0]]), 100, variant=variant)
    # the refusal shows the value given (an exact Fraction stays exact)
    with pytest.raises(RegimeError, match=r"got beta=Fraction\(3, 16\)$"):
        to_mi(1, Fraction(3, 16), 100)
    # paper edge at k = 3: 3(1 - 1/8)/20 = 21/160 exactly (2^k, not 2k: at k = 1 they agree)
    assert np.isfinite(to_mi(3, Fraction(21, 160), 100, variant="paper"))
    with pytest.raises(RegimeError, match="RRST Lemma 1.5"):
        to_mi(3, Fraction(21, 160) + Fraction(1, 10**30), 100, variant="paper")
    # a non-integer k: the paper edge 3(1 - 2^-1.5)/20 = 0.0969669914110089... is irrational;
    # the floats either side of it (found here at 40 digits) are decided by its own edge,
    # not the sound variant's (1 - 2^-k)/e, which lies far above
    with mpmath.workdps(40):
        edge = 3 * (1 - mpmath.power(2, -1.5)) / 20
        lo = float(edge)
        lo = lo if mpmath.mpf(lo) < edge else float(np.nextafter(lo, 0))
        hi = float(np.nextafter(lo, 1))
        assert mpmath.mpf(lo) < edge < mpmath.mpf(hi)
    assert np.isfinite(to_mi(1.5, lo, 100, variant="paper"))
    with pytest.raises(RegimeError, match="RRST Lemma 1.5"):
        to_mi(1.5, hi, 100, variant="paper")
