"""The power module's reported figures against hand values (issue 44: mutation testing of
``planning/power.py`` found its critical-value text, the normal approximation and the binomial
power bound on intervals checked only loosely)."""

from __future__ import annotations

import mpmath
import pytest

from maxinfo_bounds.planning.power import (
    critical_value_text,
    describe,
    method_of,
    normal_approximation_power,
    power_lower,
)
from maxinfo_bounds.planning.study import PowerSpec


def _binom_tail(n: int, p: str, c: int) -> mpmath.mpf:
    """P(Bin(n, p) >= c), exact sums at the working precision."""
    q = mpmath.mpf(p)
    return mpmath.fsum(mpmath.binomial(n, x) * q**x * (1 - q) ** (n - x) for x in range(max(c, 0), n + 1))


def _crit_upper(n: int, p0: str, lv: mpmath.mpf) -> int:
    """The smallest c with P0(X >= c) <= lv."""
    c = n + 1
    while c > 0 and _binom_tail(n, p0, c - 1) <= lv:
        c -= 1
    return c


def _crit_lower(n: int, p0: str, lv: mpmath.mpf) -> int:
    """The largest c with P0(X <= c) <= lv (-1 if none)."""
    c = -1
    while c < n and 1 - _binom_tail(n, p0, c + 2) <= lv:
        c += 1
    return c


@pytest.mark.parametrize(
    ("spec", "n", "text"),
    [
        # standard normal and t tables: z_0.975 = 1.959964, z_0.95 = 1.644854, t_0.975(9) = 2.262157,
        # t_0.975(8) = 2.306004, t_0.95(29) = 1.699127; shown to 6 digits, rounded up
        (PowerSpec(test="z", effect_size=0.3), 50, "reject when |Z| >= 1.95997"),
        (PowerSpec(test="z", effect_size=0.3, alternative="larger"), 50, "reject when Z >= 1.64486"),
        (PowerSpec(test="z", effect_size=-0.3, alternative="smaller"), 50, "reject when -Z >= 1.64486"),
        (PowerSpec(test="t", effect_size=0.3), 10, "reject when |T| >= 2.26216 (9 degrees of freedom)"),
        (PowerSpec(test="t2", effect_size=0.3), 10, "reject when |T| >= 2.30601 (8 degrees of freedom)"),
        (
            PowerSpec(test="t", effect_size=0.3, alternative="larger"),
            30,
            "reject when T >= 1.69913 (29 degrees of freedom)",
        ),
        (PowerSpec(test="t2", effect_size=0.3), 2, "too few records for the test"),
        # Bin(20, 1/2): P(X >= 15) = P(X <= 5) = 0.0207 <= 0.025 < P(X >= 14) = 0.0577
        (
            PowerSpec(test="proportion", effect_size=0.1, p0=0.5),
            20,
            "reject when X >= 15 or X <= 5 of 20 (exact binomial critical counts)",
        ),
        (
            PowerSpec(test="proportion", effect_size=0.1, p0=0.5, alternative="larger"),
            20,
            "reject when X >= 15 of 20 (exact binomial critical counts)",
        ),
        (
            PowerSpec(test="proportion", effect_size=-0.1, p0=0.5, alternative="smaller"),
            20,
            "reject when X <= 5 of 20 (exact binomial critical counts)",
        ),
    ],
)
def test_critical_value_text(spec, n, text):
    assert critical_value_text(spec, 0.05, n) == text


@pytest.mark.parametrize("alt", ["larger", "smaller", "two-sided"])
def test_normal_approximation_power_by_hand(alt):
    """Phi((sqrt(n)(p1 - p0) - z sqrt(p0 q0))/sqrt(p1 q1)) for "larger", the mirror for
    "smaller", both tails with z at gamma/2 when two-sided: p0 = 0.5, |effect| 0.1, n = 100,
    gamma = 0.05, at 30 digits."""
    eff = -0.1 if alt == "smaller" else 0.1
    spec = PowerSpec(test="proportion", effect_size=eff, p0=0.5, alternative=alt)
    with mpmath.workdps(30):
        p0, p1 = mpmath.mpf("0.5"), mpmath.mpf("0.5") + mpmath.mpf(eff)
        lv = mpmath.mpf("0.025") if alt == "two-sided" else mpmath.mpf("0.05")
        z = -mpmath.sqrt(2) * mpmath.erfinv(2 * lv - 1)
        s0, s1, r = mpmath.sqrt(p0 * (1 - p0)), mpmath.sqrt(p1 * (1 - p1)), mpmath.sqrt(100)
        up = mpmath.ncdf((r * (p1 - p0) - z * s0) / s1)
        down = mpmath.ncdf((r * (p0 - p1) - z * s0) / s1)
        want = {"larger": up, "smaller": down, "two-sided": up + down}[alt]
    assert normal_approximation_power(spec, 0.05, 100) == pytest.approx(float(want), rel=1e-12, abs=0)
    assert normal_approximation_power(spec, 0.0, 100) == 0.0


@pytest.mark.parametrize("alt", ["larger", "smaller", "two-sided"])
def test_power_lower_is_the_hand_bound_for_the_binomial(alt):
    """On n in [100, 120] at gamma >= 0.05 (p0 = 0.5, p1 = 0.6 or 0.4): the upper tail
    P(Bin(100, p1) >= c(120)) with c(n) the smallest count with P0(X >= c) <= gamma (gamma/2
    two-sided), and the lower tail P(Bin(120, p1) <= c_low(100)); exact sums at 40 digits."""
    eff = -0.1 if alt == "smaller" else 0.1
    spec = PowerSpec(test="proportion", effect_size=eff, p0=0.5, alternative=alt)
    p1 = "0.4" if alt == "smaller" else "0.6"
    with mpmath.workdps(40):
        lv = mpmath.mpf(0.05) / (2 if alt == "two-sided" else 1)
        want = mpmath.mpf(0)
        if alt != "smaller":
            want += _binom_tail(100, p1, _crit_upper(120, "0.5", lv))
        if alt != "larger":
            want += 1 - _binom_tail(120, p1, _crit_lower(100, "0.5", lv) + 1)
    assert power_lower(spec, 0.05, 100, 120) == pytest.approx(float(want), rel=1e-10)
    assert power_lower(spec, 0.0, 100, 120) == 0.0


def test_power_lower_of_the_monotone_tests_is_the_power_at_the_corner():
    """z and t power grows with the level and with n: the bound on [n_lo, n_hi] at levels >=
    gamma is the power at (gamma, n_lo), here the one-sided z-test's Phi(d sqrt(n) - z_0.95) at
    d = 0.3, n = 50, by hand at 30 digits; with one record the exact binomial bound is the exact
    power at n = 1 (P1(X = 1) = 0.9 when 1 is the critical count, level 0.5 >= P0(X = 1) = 0.5)."""
    from maxinfo_bounds.planning.power import power_at

    z = PowerSpec(test="z", effect_size=0.3, alternative="larger")
    with mpmath.workdps(30):
        want = mpmath.ncdf(
            mpmath.mpf("0.3") * mpmath.sqrt(50) + mpmath.sqrt(2) * mpmath.erfinv(2 * mpmath.mpf("0.05") - 1)
        )
    assert power_lower(z, 0.05, 50, 80) == pytest.approx(float(want), rel=1e-12, abs=0) == power_at(z, 0.05, 50)
    t = PowerSpec(test="t", effect_size=0.3)
    assert power_lower(t, 0.05, 50, 80) == power_at(t, 0.05, 50)
    b = PowerSpec(test="proportion", effect_size=0.4, p0=0.5, alternative="larger")
    assert power_lower(b, 0.5, 1, 1) == pytest.approx(0.9, rel=1e-12, abs=0)


def test_normal_approximation_is_refused_for_other_tests():
    from maxinfo_bounds.planning.errors import PlanError

    with pytest.raises(PlanError) as info:
        normal_approximation_power(PowerSpec(test="z", effect_size=0.3), 0.05, 100)
    assert str(info.value) == "spec: the normal approximation is reported for the test of a proportion only"


@pytest.mark.parametrize(
    ("test", "text"),
    [
        ("z", "exact normal power of the z-test (normal CDF by math.erfc, as statsmodels NormalIndPower, one sample)"),
        (
            "t",
            "exact noncentral-t power of the one-sample t-test (scipy.special.nctdtr, as statsmodels TTestPower)",
        ),
        (
            "t2",
            "exact noncentral-t power of the two-sample t-test, two equal groups (scipy.special.nctdtr, as "
            "statsmodels TTestIndPower)",
        ),
        (
            "proportion",
            "exact binomial test and exact binomial power (scipy.special.betainc); two-sided: equal tails",
        ),
    ],
)
def test_each_tests_method_line_names_its_computation_and_the_tool_it_matches(test, text):
    """The report's "computed by" line for each test kind, word for word: the reader checks the
    figure against the named statsmodels class (the external vectors of tests/test_power.py hold
    the numbers to those classes)."""
    spec = PowerSpec(test, 0.2, p0=0.5) if test == "proportion" else PowerSpec(test, 0.2)
    assert method_of(spec) == text


def test_describe_names_the_test_effect_target_and_a_design_effect():
    assert describe(PowerSpec("proportion", 0.1, "larger", 0.9, 0.3)) == (
        "proportion test (larger), p1 - p0 = 0.1 (p0 = 0.3), target power 0.9"
    )
    assert describe(PowerSpec("t2", 0.5, design_effect=2.5)) == (
        "t2 test (two-sided), Cohen's d = 0.5, target power 0.8, design effect 2.5 (power on n / 2.5 records)"
    )
