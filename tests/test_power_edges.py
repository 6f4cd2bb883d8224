"""The power module at its edges, against hand values (issue 44: the mutation run of
``planning/power.py`` at d49a669 left these branches unchecked: scipy's NaN far tail of the
noncentral t, a lower critical count of 0, the normal approximation on 0 and 1 records, the
t-test's text at one degree of freedom, the effect range of a proportion)."""

from __future__ import annotations

import math
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import mpmath
import pytest

from maxinfo_bounds.planning import power as pw
from maxinfo_bounds.planning.errors import PlanError
from maxinfo_bounds.planning.study import PowerSpec


def test_t_power_where_scipy_returns_nan_is_the_negligible_normal_limit() -> None:
    # A two-sided t-test on 1,001 records (df = 1000) of a negative effect, noncentrality -10,
    # at level 1e-9 (critical value t_{1 - 5e-10}(1000) = 6.168...): the upper tail
    # P(T' > 6.17) is scipy.special.nctdtr(1000, 10, -6.17), NaN in scipy 1.17. The planner
    # replaces it by its normal limit Phi(-10 - 6.17) ~ 1e-59, so the two-sided power is the lower
    # tail alone (the one-sided "smaller" power at half the level) to 1e-15; taking the
    # limit with the wrong sign, Phi(-10 + 6.17) = 6e-5, or passing the NaN on, fails.
    n = 1001
    d = -10 / math.sqrt(n)
    two = pw.power_at(PowerSpec(test="t", effect_size=d), 1e-9, n)
    lower = pw.power_at(PowerSpec(test="t", effect_size=d, alternative="smaller"), 5e-10, n)
    assert 0.99 < lower <= 1.0
    assert two == pytest.approx(lower, abs=1e-15)


def test_exact_binomial_power_with_a_lower_critical_count_of_zero() -> None:
    # n = 10, p0 = 1/2, "smaller" at level 0.001: P0(X <= 0) = 1/1024 <= 0.001 < P0(X <= 1) =
    # 11/1024, so the test rejects at X = 0 only; the power at p1 = 0.1 is 0.9^10 (hand)
    spec = PowerSpec(test="proportion", p0=0.5, effect_size=-0.4, alternative="smaller")
    assert pw.power_at(spec, 0.001, 10) == pytest.approx(0.9**10, rel=1e-12, abs=0)
    assert "X <= 0 of 10" in pw.critical_value_text(spec, 0.001, 10)


def test_binomial_tails_outside_the_support() -> None:
    # P(Bin(n, p) > k): 1 below the support, 0 from k = n; P(Bin(n, p) <= k): the mirror
    assert pw._binom_sf(-1, 7, 0.3) == 1.0
    assert pw._binom_sf(7, 7, 0.3) == 0.0
    assert pw._binom_sf(9, 7, 0.3) == 0.0
    assert pw._binom_cdf(-1, 7, 0.3) == 0.0
    assert pw._binom_cdf(7, 7, 0.3) == 1.0
    assert pw._binom_sf(6, 7, 0.3) == pytest.approx(0.3**7, rel=1e-12, abs=0)
    assert pw._binom_cdf(0, 7, 0.3) == pytest.approx(0.7**7, rel=1e-12, abs=0)


def test_normal_approximation_on_zero_and_one_record() -> None:
    spec = PowerSpec(test="proportion", p0=0.5, effect_size=0.4, alternative="larger")
    assert pw.normal_approximation_power(spec, 0.05, 0) == 0.0
    # n = 1: Phi((0.4 - z_0.95 * 0.5) / 0.3), hand formula at 30 digits
    with mpmath.workdps(30):
        z = -mpmath.sqrt(2) * mpmath.erfinv(2 * mpmath.mpf("0.05") - 1)
        want = mpmath.ncdf((mpmath.mpf("0.4") - z * mpmath.mpf("0.5")) / mpmath.sqrt(mpmath.mpf("0.09")))
    assert pw.normal_approximation_power(spec, 0.05, 1) == pytest.approx(float(want), rel=1e-12, abs=0)


def test_power_lower_at_zero_records_is_the_power_there() -> None:
    # on 0 records no test is run: the power is 0 at every level (power_at's convention), and
    # the lower bound over [0, 5] at level 1 cannot exceed it
    spec = PowerSpec(test="proportion", p0=0.5, effect_size=0.2, alternative="larger")
    assert pw.power_at(spec, 1.0, 0) == 0.0
    assert pw.power_lower(spec, 1.0, 0, 5) == 0.0


def test_t_text_at_one_degree_of_freedom() -> None:
    # t_{0.975}(1) = tan(0.475 pi) = 12.7062047..., shown to 6 digits rounded up
    assert math.tan(0.475 * math.pi) == pytest.approx(12.7062047, abs=1e-7)
    spec = PowerSpec(test="t", effect_size=0.5)
    assert pw.critical_value_text(spec, 0.05, 2) == "reject when |T| >= 12.7063 (1 degrees of freedom)"
    assert pw.critical_value_text(spec, 0.05, 1) == "too few records for the test"


@pytest.mark.parametrize(("effect", "top"), [(0.1, 0.7), (-0.1, 0.3)])
def test_effect_range_of_a_proportion_stops_inside_the_unit_interval(effect: float, top: float) -> None:
    # p0 = 0.3: an increase can reach p1 just below 1 (|effect| < 0.7), a decrease just above 0
    spec = PowerSpec(test="proportion", p0=0.3, effect_size=effect, alternative="larger" if effect > 0 else "smaller")
    lo, hi = pw.effect_range(spec)
    assert hi == pytest.approx(top, rel=1e-8) and hi < top
    assert lo == pytest.approx(top * 1e-12, rel=1e-8, abs=0)


@pytest.mark.parametrize("x", [-37.0, -20.0, -8.5, -1.0, 0.0, 0.3, 2.5, 9.0])
def test_normal_cdf_against_40_digits(x: float) -> None:
    with mpmath.workdps(40):
        want = mpmath.ncdf(mpmath.mpf(x))
    assert pw.ndtr(x) == pytest.approx(float(want), rel=1e-12, abs=0)


@pytest.mark.parametrize("p", [1e-300, 1e-30, 2.5e-10, 0.025, 0.5, 0.8, 1 - 2**-40])
def test_normal_quantile_against_40_digits(p: float) -> None:
    with mpmath.workdps(340):  # 1 - 2p exactly, down to p = 1e-300, then 40 digits of the root
        want = -mpmath.sqrt(2) * mpmath.erfinv(1 - 2 * mpmath.mpf(p))
    assert pw.ndtri(p) == pytest.approx(float(want), rel=1e-14, abs=0)
    assert pw.ndtri(0.0) == -math.inf and pw.ndtri(1.0) == math.inf


def test_a_z_test_power_plan_imports_no_scipy() -> None:
    # issue 45: scipy.special's import (about 0.13 s of CPU with scipy 1.17) is the largest
    # part of a power plan's start-up; the z-test needs only the normal CDF and quantile
    code = (
        "import sys\n"
        "from maxinfo_bounds.cli import main\n"
        "try:\n    main(['plan', 'examples/power_underpowered.toml'])\n"
        "except SystemExit:\n    pass\n"
        "print('SCIPY', any(m == 'scipy' or m.startswith('scipy.') for m in sys.modules), file=sys.stderr)\n"
    )
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    assert "SCIPY False" in out.stderr


def _t_two_sided_power(df: int, nc: mpmath.mpf, c: mpmath.mpf) -> mpmath.mpf:
    """P(|T'| > c) for T' = (Z + nc) / sqrt(V / df), V ~ chi2_df: the integral over V of
    Phi(nc - c s) + Phi(-nc - c s), s = sqrt(V / df), by quadrature (30 digits)."""
    k = mpmath.mpf(df)

    def f(v: mpmath.mpf) -> mpmath.mpf:
        dens = v ** (k / 2 - 1) * mpmath.exp(-v / 2) / (2 ** (k / 2) * mpmath.gamma(k / 2))
        s = mpmath.sqrt(v / k)
        return dens * (mpmath.ncdf(nc - c * s) + mpmath.ncdf(-nc - c * s))

    return mpmath.quad(f, [0, 1, 10, 60, mpmath.inf])


def _t_quantile(df: int, p: mpmath.mpf) -> mpmath.mpf:
    """t_p(df) for p > 1/2: P(T <= t) = 1 - I_{df/(df + t^2)}(df/2, 1/2)/2, solved by findroot."""
    k = mpmath.mpf(df)
    return mpmath.findroot(
        lambda t: 1 - mpmath.betainc(k / 2, mpmath.mpf(1) / 2, 0, k / (k + t * t), regularized=True) / 2 - p, 2
    )


@pytest.mark.parametrize(("test", "n", "df", "nc2"), [("t", 2, 1, "2"), ("t2", 4, 2, "1"), ("t2", 5, 3, "6/5")])
def test_t_power_at_the_fewest_records_and_odd_groups(test: str, n: int, df: int, nc2: str) -> None:
    # d = 1, two-sided at 0.05: t needs 2 records (df 1, nc = sqrt(2)); t2 needs 4 (groups 2 + 2,
    # df 2, nc = d sqrt(2 * 2 / 4) = 1); on 5 records the groups are 2 and 3 (df 3, nc^2 = 6/5)
    with mpmath.workdps(30):
        q = Fraction(nc2)
        nc = mpmath.sqrt(mpmath.mpf(q.numerator) / q.denominator)
        c = _t_quantile(df, mpmath.mpf("0.975"))
        want = _t_two_sided_power(df, nc, c)
    spec = PowerSpec(test=test, effect_size=1.0)
    assert pw.power_at(spec, 0.05, n) == pytest.approx(float(want), rel=1e-9)
    if n == pw.min_records(spec):
        assert pw.power_at(spec, 0.05, n - 1) == 0.0  # too few records: no test


def test_t_quantiles_of_the_hand_reference() -> None:
    # closed forms: t_0.975(1) = tan(0.475 pi); t_0.975(2) = 0.95 / sqrt(2 * 0.975 * 0.025)
    with mpmath.workdps(30):
        assert _t_quantile(1, mpmath.mpf("0.975")) == pytest.approx(float(mpmath.tan(0.475 * mpmath.pi)), rel=1e-20)
        assert _t_quantile(2, mpmath.mpf("0.975")) == pytest.approx(
            float(mpmath.mpf("0.95") / mpmath.sqrt(mpmath.mpf("0.04875"))), rel=1e-20
        )


def test_z_power_on_one_record() -> None:
    # Phi(1 - z_0.975) + Phi(-z_0.975 - 1), hand
    with mpmath.workdps(30):
        z = mpmath.sqrt(2) * mpmath.erfinv(mpmath.mpf("0.95"))
        want = mpmath.ncdf(1 - z) + mpmath.ncdf(-z - 1)
    assert pw.power_at(PowerSpec(test="z", effect_size=1.0), 0.05, 1) == pytest.approx(float(want), rel=1e-12, abs=0)


def test_power_upper_at_level_zero_and_above_one() -> None:
    spec = PowerSpec(test="proportion", p0=0.5, effect_size=0.4, alternative="larger")
    # level 0 never rejects, even where P0(X >= n) = 2^-2000 underflows to 0 in floats (a level-0
    # critical count of n would give 0.9^2000 > 0)
    assert pw.power_upper(spec, 0.0, 2000, 2000) == 0.0
    # a level above 1 rejects always: the bound is the power at level 1, which is 1
    assert pw.power_upper(spec, 1.5, 10, 20) == pw.power_upper(spec, 1.0, 10, 20) == 1.0


def test_minimum_effect_of_a_negative_effect_and_of_a_given_power() -> None:
    # (z_0.95 + z_0.8) / sqrt(n): 0.248647... at n = 100, 0.124324... at n = 400 (hand), in the
    # sign of the effect asked for
    z95, z80 = 1.6448536269514722, 0.8416212335729143
    down = PowerSpec(test="z", effect_size=-0.1, alternative="smaller")
    assert pw.minimum_effect(down, 0.05, 100) == pytest.approx(-(z95 + z80) / 10, rel=2e-6)
    up = PowerSpec(test="z", effect_size=0.1, alternative="larger")
    assert pw.minimum_effect(up, 0.05, 100, power=lambda s: pw.power_at(s, 0.05, 400)) == pytest.approx(
        (z95 + z80) / 20, rel=2e-6
    )


def test_minimum_effect_with_a_power_at_exactly_the_target() -> None:
    # a power of exactly the target counts as reaching it: a step at |d| = 50 gives 50 (to the
    # bisection's tolerance, from above); a constant power at the target gives the range's
    # lower end itself
    spec = PowerSpec(test="z", effect_size=0.1, alternative="larger", target=0.8)
    step = pw.minimum_effect(spec, 0.05, 10, power=lambda s: 0.8 if s.effect_size >= 50 else 0.1)
    assert step is not None and 50 <= step <= 50 * (1 + 2e-6)
    lo, _ = pw.effect_range(spec)
    assert pw.minimum_effect(spec, 0.05, 10, power=lambda s: 0.8) == lo


def test_power_guards_name_what_failed() -> None:
    # the power is clipped to [0, 1] and never NaN: a NaN is an error that says so
    assert pw._clip(1.5) == 1.0 and pw._clip(-0.25) == 0.0 and pw._clip(0.3) == 0.3
    with pytest.raises(ArithmeticError, match="^power evaluated to NaN$"):
        pw._clip(float("nan"))
    with pytest.raises(PlanError, match="^spec: must be a PowerSpec, got str"):
        pw.power_at("z", 0.05, 10)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("gamma", "n", "message"),
    [
        (1.5, 10, "^gamma: 1.5 is invalid: must be a real number in \\[0, 1\\]$"),
        (0.05, -1, "^n: -1 is invalid: must be an integer >= 0 \\(records\\)$"),
        (0.05, True, "^n: True is invalid: must be an integer >= 0 \\(records\\)$"),
        (0.05, 10.0, "^n: 10.0 is invalid: must be an integer >= 0 \\(records\\)$"),
    ],
)
def test_power_refusals_name_the_level_and_the_records(gamma: object, n: object, message: str) -> None:
    with pytest.raises(PlanError, match=message):
        pw.power_at(PowerSpec(test="z", effect_size=0.2), gamma, n)  # type: ignore[arg-type]
