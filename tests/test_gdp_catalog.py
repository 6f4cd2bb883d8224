"""The Gaussian-DP catalog entries (``theorems/dp_accounting/gdp.py``: ``DRS22-2.7``,
``DRS22-2.13``, ``DRS22-3.3``, ``DRS22-mu``) evaluated through the catalog, as ``maxinfo bound``
and the fuzz campaign call them, and their printed sympy statement, against hand values and
50-digit roots of Dong, Roth & Su (2022) Cor. 2.13's curve computed here with mpmath. A mutation
run of the module found the entries' evaluators reached by no test in-process and the statement's
substitution of Delta = mu, sigma = 1 compared with nothing.
"""

from __future__ import annotations

import math

import mpmath
import pytest
import sympy

from maxinfo_bounds.catalog import get


def _delta(mu: mpmath.mpf, eps: mpmath.mpf) -> mpmath.mpf:
    """DRS22 Cor. 2.13: Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2), at the working precision."""
    return mpmath.ncdf(-eps / mu + mu / 2) - mpmath.exp(eps) * mpmath.ncdf(-eps / mu - mu / 2)


def test_gaussian_mu_and_composition_entries_by_hand() -> None:
    # Thm 2.7: mu = Delta / sigma = 1.5 / 4 = 0.375, exact in doubles
    out = get("DRS22-2.7").report(sensitivity=1.5, sigma=4.0)
    assert (out["mu"], out["rounding"]) == (0.375, "up")
    # a quotient that is not a double is rounded up: the double nearest 1/3 is
    # 0.33333333333333331483 (below it), so mu is the double after it
    assert get("DRS22-2.7").report(sensitivity=1.0, sigma=3.0)["mu"] == math.nextafter(1 / 3, 1.0)
    # Cor. 3.3: 4 steps of 0.375 are sqrt(4 * 0.140625) = 0.75-GDP, exact
    out = get("DRS22-3.3").report(k=4, mu=0.375)
    assert (out["mu_total"], out["rounding"]) == (0.75, "up")
    # 25 steps of mu = 0.1 (the double 0.1000000000000000055511...): 5 times it is
    # 0.50000000000000002776 > 0.5, so the composed mu rounded up is the double after 0.5
    assert get("DRS22-3.3").report(k=25, mu=0.1)["mu_total"] == math.nextafter(0.5, 1.0)


def test_gdp_epsilon_and_mu_entries_against_50_digit_roots() -> None:
    with mpmath.workdps(50):
        one, d = mpmath.mpf(1), mpmath.mpf(1e-5)
        # the smallest eps of a 1-GDP mechanism at delta = 1e-5 (delta(eps) falls in eps)
        eps_ref = mpmath.findroot(lambda e: _delta(one, e) - d, (mpmath.mpf(4), mpmath.mpf(5)), solver="anderson")
        # the largest mu that is (1, 1e-5)-DP (delta(1) rises in mu)
        mu_ref = mpmath.findroot(
            lambda m: _delta(m, one) - d, (mpmath.mpf("0.2"), mpmath.mpf("0.3")), solver="anderson"
        )
        assert mpmath.nstr(eps_ref, 12) == "4.37717809568" and mpmath.nstr(mu_ref, 12) == "0.268051123211"
    out = get("DRS22-2.13").report(mu=1.0, delta=1e-5)
    assert out["rounding"] == "up" and eps_ref <= out["eps_nats"] <= eps_ref * (1 + mpmath.mpf(2) ** -40)
    out = get("DRS22-mu").report(eps=1.0, delta=1e-5)
    assert out["rounding"] == "down" and mu_ref * (1 - mpmath.mpf(2) ** -40) <= out["mu"] <= mu_ref
    # dp_accounting's value: sigma = 1/3 at sensitivity 1 and eps = 1 gives delta 0.78760074,
    # so mu = 3 is (1, 0.78760074)-DP to 8 digits
    assert get("DRS22-mu").report(eps=1.0, delta=0.78760074)["mu"] == pytest.approx(3.0, rel=1e-7)


def test_gdp_statement_is_the_curve_in_mu_and_eps() -> None:
    st = get("DRS22-2.13").sympy_statement()
    sym = {s.name: s for s in st.free_symbols}
    # Delta replaced by mu and sigma by 1: no other symbol is left
    assert set(sym) == {"mu", "epsilon"}
    assert all(s.is_positive for s in sym.values())
    with mpmath.workdps(40):
        for (mp_, mq), (ep, eq) in (((3, 1), (1, 1)), ((1, 1), (1, 2)), ((1, 10), (2, 1))):
            at = {sym["mu"]: sympy.Rational(mp_, mq), sym["epsilon"]: sympy.Rational(ep, eq)}
            got = mpmath.mpf(str(st.subs(at).evalf(40)))
            ref = _delta(mpmath.mpf(mp_) / mq, mpmath.mpf(ep) / eq)
            assert abs(got - ref) <= mpmath.mpf("1e-35") * max(1, abs(ref))
    # dp_accounting's test value at mu = 3, eps = 1
    assert float(st.subs({sym["mu"]: 3, sym["epsilon"]: 1})) == pytest.approx(0.78760074, abs=5e-9)
    assert get("DRS22-mu").sympy_statement() == st


def test_gdp_compose_edges_and_refusals_word_for_word() -> None:
    from maxinfo_bounds.numeric import InvalidParameter
    from maxinfo_bounds.theorems.dp_accounting.gdp import gdp_compose

    # no privacy loss composes to none; large steps compose exactly while mu^2 is below 1e300
    assert gdp_compose({0.0: 3}) == 0.0
    assert gdp_compose({100.0: 1}) == 100.0 and gdp_compose([1e150]) == 1e150
    # past that the square is refused, naming the composed mu (the nearest double to its root,
    # at 50 digits: 2^511 sqrt 2 = 9.48075190810917673e153, 1e154 sqrt 2 = 1.41421356237309510e154)
    # or inf past the doubles (4 steps of 1.7e308 compose to 3.4e308). 2e150 is refused though
    # its root is a double: 2e150^2 = 4e300 (the double 3.9999999999999996e300) is past 1e300
    cases = [({1e151: 1}, "1e+151"), ({2e150: 1}, "2e+150"), ({2.0**511: 2}, "9.480751908109177e+153")]
    cases += [({1e154: 1}, "1e+154"), ({1e154: 2}, "1.414213562373095e+154"), ({1.7e308: 4}, "inf")]
    # at the top of the doubles: the largest double M = 2^1024 - 2^971 itself is shown; with a
    # second step of sqrt(3) 2^997 the composed mu is 2^1024 - 2^969 (to 1e-16), past the
    # midpoint 2^1024 - 2^970 between M and 2^1024, where the double nearest it would be 2^1024
    top = 1.7976931348623157e308
    cases += [({top: 1}, "1.7976931348623157e+308"), ({top: 1, math.sqrt(3) * 2.0**997: 1}, "inf")]
    for mus, shown in cases:
        with pytest.raises(InvalidParameter) as err:
            gdp_compose(mus)
        assert err.value.name == "mu" and str(err.value) == (
            f"mu={shown} is invalid: must be a composed mu below 1e150 (its square below 1e300)"
        )
    with pytest.raises(InvalidParameter) as err:
        gdp_compose([])
    assert (err.value.name, err.value.value, str(err.value)) == (
        "mus",
        [],
        "mus=[] is invalid: must be at least one step",
    )
    with pytest.raises(InvalidParameter) as err:
        gdp_compose({-0.5: 1})
    assert (err.value.name, err.value.value) == ("mu", -0.5)


def test_the_float_estimates_against_the_50_digit_curve() -> None:
    import numpy as np

    from maxinfo_bounds.theorems.dp_accounting.gdp import gdp_delta_estimate, gdp_epsilon_estimate

    mus = np.array([3.0, 1.0, 0.1, 2.0, 0.5])
    epss = np.array([1.0, 4.377178095681225, 2.0, 0.0, 3.0])
    got = gdp_delta_estimate(mus, epss)
    with mpmath.workdps(50):
        for mu, eps, g in zip(mus, epss, got, strict=True):
            ref = _delta(mpmath.mpf(mu), mpmath.mpf(eps))
            # in logs it keeps its digits far in the tail (3.7e-91 at mu = 0.1, eps = 2: 7e-12
            # relative there, log_ndtr's and expm1's rounding magnified by the exponent 20)
            assert abs(g - ref) <= 1e-10 * ref, (mu, eps, g, ref)
    # the ends it documents: 0 at mu = 0 and at eps = inf, 1 at mu = inf, no warning
    assert gdp_delta_estimate(0.0, 1.0) == 0.0 and gdp_delta_estimate(1.0, np.inf) == 0.0
    assert gdp_delta_estimate(np.inf, 1.0) == 1.0
    # and 0 below the doubles: 3.3e-780 at mu = 0.5, eps = 30 (50 digits)
    assert gdp_delta_estimate(0.5, 30.0) == 0.0
    # the epsilon estimate: within 1e-12 of the 50-digit root (4.37717809568 at mu = 1, 1e-5)
    with mpmath.workdps(50):
        one = mpmath.mpf(1)
        ref = mpmath.findroot(
            lambda e: _delta(one, e) - mpmath.mpf(1e-5), (mpmath.mpf(4), mpmath.mpf(5)), solver="anderson"
        )
    assert abs(gdp_epsilon_estimate(1.0, 1e-5) - ref) <= 1e-12 * ref
