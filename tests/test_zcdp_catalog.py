"""The zCDP catalog entries (``theorems/dp_accounting/zcdp.py``) evaluated through the catalog,
as ``maxinfo calc`` and the fuzz campaign call them, against hand values and a 50-digit
optimum, and ``zcdp_compose``'s refusals word for word. (A mutation run of the module found the
four entries' evaluators reached by no test in-process, and the refusals unread.)
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest

from maxinfo_bounds.catalog import get
from maxinfo_bounds.numeric import InvalidParameter
from maxinfo_bounds.theorems.dp_accounting.zcdp import zcdp_compose, zcdp_epsilon


def _cks_min_50(rho: str, delta: str) -> mpmath.mpf:
    """min over a > 1 of a rho + (ln(1/delta) + (a - 1) ln(1 - 1/a) - ln a)/(a - 1) (CKS20
    Prop. 12), at 50 digits: the root of its derivative near 1 + sqrt(ln(1/delta)/rho)."""
    with mpmath.workdps(50):
        r, d = mpmath.mpf(rho), mpmath.mpf(delta)

        def f(a):
            return a * r + (mpmath.log(1 / d) + (a - 1) * mpmath.log(1 - 1 / a) - mpmath.log(a)) / (a - 1)

        a = mpmath.findroot(lambda a: mpmath.diff(f, a), 1 + mpmath.sqrt(mpmath.log(1 / d) / r))
        return f(a)


@pytest.mark.parametrize(
    ("rho", "delta", "digits"), [("0.5", "1e-6", "5.2215344445"), ("0.01", "1e-10", "0.86432118572")]
)
def test_cks20_12_entry_is_the_50_digit_optimum_over_the_order_rounded_up(rho, delta, digits):
    """Any order a > 1 gives a valid eps, so the entry (order chosen in floats, value rounded
    up) is never below the optimum over a and, the optimum being flat, within 1e-9 of it."""
    best = _cks_min_50(rho, delta)
    assert mpmath.nstr(best, len(digits) - 1).startswith(digits[:-1])
    out = get("CKS20-12").report(rho=float(rho), delta=float(delta))
    assert (out["theorem"], out["rounding"]) == ("CKS20-12", "up")
    assert best <= out["eps_nats"] <= best * (1 + mpmath.mpf("1e-9"))


def test_the_pure_bounded_range_and_gaussian_entries_by_hand():
    """eps tanh(eps/2) at eps = 1: tanh(1/2) = 0.46211715726000975850... (Steinke 2024);
    eta^2/8 at the double nearest 0.3 (Cesar-Rogers), the smallest double at or above the exact
    value; Delta^2/(2 sigma^2) = 1/8 at Delta = 1, sigma = 2 (Bun-Steinke Prop. 1.6)."""
    with mpmath.workdps(40):
        t = mpmath.tanh(mpmath.mpf(1) / 2)
    rho = get("S24-pure-zCDP").report(eps=1.0)["rho"]
    assert t <= rho <= t * (1 + mpmath.mpf("1e-15"))
    br = get("CR21-BR").report(eta=0.3)["rho"]
    exact = Fraction(0.3) ** 2 / 8
    assert Fraction(br) >= exact > Fraction(math.nextafter(br, 0.0))
    assert get("BS16-1.6").report(sensitivity=1.0, sigma=2.0)["rho"] == 0.125
    assert get("BS16-1.6").report(sensitivity=3.0, sigma=0.5)["rho"] == 18.0


def test_zcdp_compose_refusals_name_the_parameter():
    with pytest.raises(InvalidParameter) as e:
        zcdp_compose([])
    assert str(e.value) == "rhos=[] is invalid: must be at least one step" and e.value.name == "rhos"
    with pytest.raises(InvalidParameter) as e:
        zcdp_compose([0.1, -1.0])
    assert str(e.value) == "rho=-1.0 is invalid: must be a real number in [0, inf)" and e.value.name == "rho"
    # the exact sum of the two doubles, 0.3000000000000000166..., lies between the doubles
    # 0.29999999999999998890 and 0.30000000000000004441: rounded up, the second
    total = zcdp_compose([0.1, 0.2])
    assert total == 0.30000000000000004 and Fraction(total) >= Fraction(0.1) + Fraction(0.2)


def test_zcdp_epsilon_at_a_given_order_by_hand():
    """At order a = 5: eps = 5 rho + (ln(1/delta) + 4 ln(1 - 1/5) - ln 5)/4 = 2.5 + (ln 10^6 +
    4 ln 0.8 - ln 5)/4 = 5.32837... at rho = 1/2, delta = 10^-6 (CKS20 Prop. 12), rounded up;
    the best order gives less (5.2215, above)."""
    with mpmath.workdps(40):
        d = mpmath.mpf(1e-6)  # the double the caller passes
        ref = mpmath.mpf("2.5") + (-mpmath.log(d) + 4 * mpmath.log(mpmath.mpf("0.8")) - mpmath.log(5)) / 4
    assert mpmath.nstr(ref, 6) == "5.32837"
    at5 = zcdp_epsilon(0.5, 1e-6, a=5.0)
    assert ref <= at5 <= ref * (1 + mpmath.mpf("1e-14"))
    assert zcdp_epsilon(0.5, 1e-6) < at5
