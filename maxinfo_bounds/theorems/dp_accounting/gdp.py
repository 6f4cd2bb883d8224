r"""Gaussian differential privacy (Dong, Roth & Su, JRSS-B 2022): exact accounting of Gaussian noise.

A mechanism is mu-GDP when distinguishing its outputs on neighbouring data is at least as hard as
telling N(0, 1) from N(mu, 1). Three facts make it the exact accountant of Gaussian noise:

* Gaussian noise N(0, sigma^2) on a query of L2 sensitivity Delta is mu-GDP with mu = Delta/sigma
  (DRS22 Thm 2.7; Thm 1 of the journal version);
* the adaptive composition of mu_i-GDP mechanisms is exactly sqrt(sum_i mu_i^2)-GDP (DRS22
  Cor. 3.3): no slack at all, unlike any composition through (eps, delta) points;
* mu-GDP is (eps, delta(eps))-DP for every eps >= 0 and no smaller delta, with
  delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) (DRS22 Cor. 2.13; Cor. 1 of the
  journal version): the Balle-Wang curve of :mod:`.mechanisms` at sensitivity mu and sigma 1,
  evaluated by the same certified evaluator.

Theorem numbers are the arXiv version's (1905.02383). ``eps`` in nats. Every mu and every eps
returned is rounded **up** and every delta up, except :func:`gdp_mu` (the largest mu meeting a
target), which is rounded **down**, and :func:`gdp_sigma` (noise), rounded up: each on its safe
side.

>>> gdp_compose([gaussian_mu(1.0, 8.0)] * 64)       # 64 queries, sigma = 8 Delta: one 1-GDP step
1.0
>>> round(gdp_epsilon(1.0, 1e-6), 6)                  # mu = 1 at delta = 1e-6
4.886554
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

import numpy as np

from ...arith import Formula
from ...domain import Int, Real
from ...numeric import InvalidParameter, exact_sum, float_down, float_up
from ...numeric.special import special
from ...search import first_true
from ..registry import Param, Theorem, register
from .mechanisms import (
    _ag_delta_bounds,
    _ag_epsilon_float,
    _ag_statement,
    _at_most,
    analytic_gaussian_sigma,
    gaussian_delta,
    gaussian_epsilon,
)

__all__ = [
    "gaussian_mu",
    "gdp_compose",
    "gdp_delta",
    "gdp_epsilon",
    "gdp_mu",
    "gdp_sigma",
    "MU_MAX",
]

#: mu above this is refused by the (eps, delta) conversions: delta(eps) = Phi(mu/2 - eps/mu) -
#: ... is then above 1 - 2^-53 for every eps <= 1e12 (gaussian_epsilon's own limit)
MU_MAX = 1e7

_POSITIVE = Real(0, lo_open=True)
MU = Param("mu", Real(0, MU_MAX, lo_open=True), "GDP parameter mu")
SENS = Param("sensitivity", _POSITIVE, "L2 sensitivity Delta")
SIGMA = Param("sigma", _POSITIVE, "Gaussian noise standard deviation sigma")
EPS0 = Param("eps", Real(0, units="nats"), "eps, nats")
EPS = Param("eps", Real(0, lo_open=True, units="nats"), "target eps, nats")
DELTA = Param("delta", Real(0, 1, lo_open=True, hi_open=True), "target delta")
STEPS = Param("k", Int(1), "number of steps")

#: DRS22 Thm 2.7: mu = Delta / sigma
GDP_MU = Formula(lambda c, s, sigma: s / sigma, ("Delta", "sigma"))
#: DRS22 Cor. 3.3 for k equal steps: mu_total = sqrt(k) mu
GDP_COMPOSE = Formula(lambda c, k, mu: c.sqrt(k * mu**2), ("k", "mu"), integer=("k",))


def gaussian_mu(sensitivity: float | Fraction, sigma: float | Fraction) -> float:
    r"""mu of Gaussian noise N(0, sigma^2) on a query of L2 sensitivity Delta: mu = Delta/sigma.

    Theorem: Dong, Roth & Su (2022) Thm 2.7. Returns mu rounded up (exact quotient).

    >>> gaussian_mu(1e-6, 1.0) == 1e-6
    True
    """
    return float_up(GDP_MU.exact(SENS.check(sensitivity), SIGMA.check(sigma)))


def _sqrt_up(s: Fraction) -> float:
    """The smallest float whose square is >= the exact rational ``s`` (>= 0)."""
    if s == 0:
        return 0.0
    r = math.sqrt(float(s)) if s < Fraction(10**300) else math.inf
    if not math.isfinite(r):
        # the value shown: the composed mu, the integer root of the integer part of its square
        # as the nearest double (inf past the doubles; float(s) itself raised OverflowError)
        root = math.isqrt(s.numerator // s.denominator)
        shown = float(root) if root < 2**1024 - 2**970 else math.inf
        raise InvalidParameter("mu", shown, "a composed mu below 1e150 (its square below 1e300)")
    lg = s.numerator.bit_length() - s.denominator.bit_length()  # about log2(s)
    if lg < -1000:
        # s below the floats (mu under 1e-150 or so): the root of s 4^e, scaled back by 2^-e, so
        # that the ulp steps below start next to the answer, not at the smallest float (issue
        # 44: a Gaussian step of sensitivity 1e-300 stepped through 2^52 subnormals)
        e = -lg // 2 + 100
        r = math.ldexp(math.sqrt(float(s * 4**e)), -e)
    while Fraction(r) ** 2 < s:
        r = math.nextafter(r, math.inf)
    while r > 0 and Fraction(math.nextafter(r, 0.0)) ** 2 >= s:
        r = math.nextafter(r, 0.0)
    return r


def gdp_compose(mus: Iterable[float] | Mapping[float, int]) -> float:
    r"""The adaptive composition of mu_i-GDP mechanisms: exactly sqrt(sum mu_i^2)-GDP.

    Theorem: Dong, Roth & Su (2022) Cor. 3.3. ``mus``: the steps' mu, or a mapping mu -> number
    of such steps. The sum of squares is exact (rationals), its square root rounded up.

    >>> gdp_compose({0.375: 1, 0.5: 1})           # sqrt(0.140625 + 0.25)
    0.625
    """
    items = list(mus.items()) if isinstance(mus, Mapping) else [(m, 1) for m in mus]
    if not items:
        raise InvalidParameter("mus", mus, "at least one step")
    checked = [(STEPS.check(k), Real(0).check("mu", m)) for m, k in items]
    return _sqrt_up(exact_sum(checked, power=2))


def gdp_delta(mu: float, eps: float) -> float:
    r"""The exact delta of a mu-GDP mechanism at eps: Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2).

    Theorem: Dong, Roth & Su (2022) Cor. 2.13 (necessary and sufficient). Returns delta rounded
    up (the Balle-Wang evaluator at sensitivity mu and sigma 1: the same curve).

    >>> round(gdp_delta(3.0, 1.0), 8)             # dp_accounting's test value 0.78760074
    0.78760074
    """
    return gaussian_delta(1.0, MU.check(mu), EPS0.check(eps))


def gdp_delta_estimate(mu: Any, eps: Any) -> Any:
    """A float estimate of :func:`gdp_delta` (not certified: for searches only), broadcasting
    over numpy arrays: Phi(a) (1 - e^{eps + log Phi(b) - log Phi(a)}) with a, b = -eps/mu
    +- mu/2, in logs so that it keeps its digits far in the tail. 0 at mu = 0, at eps = inf and
    where the logs fail (both tails below the smallest float), 1 at mu = inf for finite eps;
    always in [0, 1].

    >>> round(float(gdp_delta_estimate(3.0, 1.0)), 8)   # gdp_delta(3.0, 1.0), the same 8 digits
    0.78760074
    """
    log_ndtr = special().log_ndtr
    # as arrays, so that mu = 0 divides to inf under the errstate below: Python floats raised
    # ZeroDivisionError there (a mutation run's test of the documented ends found it)
    mu, eps = np.asarray(mu, dtype=float), np.asarray(eps, dtype=float)
    with np.errstate(all="ignore"):
        a, b = -eps / mu + mu / 2, -eps / mu - mu / 2
        la, lb = log_ndtr(a), log_ndtr(b)
        d = np.exp(la) * -np.expm1(eps + lb - la)
    # mu = 0 (and eps = inf) leave log Phi(-inf) twice, so NaN, read as 0; mu = inf gives
    # Phi(inf) (1 - e^-inf) = 1 by itself; fmax and fmin (NaN-ignoring) keep it in [0, 1]
    return np.fmin(np.fmax(d, 0.0), 1.0)


def gdp_epsilon(mu: float, delta: float) -> float:
    """The smallest eps (nats) at which a mu-GDP mechanism is (eps, delta)-DP, rounded up.

    Theorem: Dong, Roth & Su (2022) Cor. 2.13; its delta at the returned eps is certified to be
    at most ``delta``.

    >>> round(gdp_epsilon(0.1, 1e-10), 7)
    0.5746403
    """
    return gaussian_epsilon(1.0, MU.check(mu), DELTA.check(delta))


def gdp_epsilon_estimate(mu: float, delta: float) -> float | None:
    """A float estimate of :func:`gdp_epsilon` (not certified: for ranking choices only; the
    choice made is then evaluated by :func:`gdp_epsilon`); None beyond 1e12 nats."""
    return _ag_epsilon_float(mu, 1.0, delta)


def gdp_mu(eps: float, delta: float) -> float:
    """The largest mu with which a mu-GDP mechanism is (eps, delta)-DP, rounded **down**.

    Theorem: Dong, Roth & Su (2022) Cor. 2.13 read the other way (delta(eps) grows with mu);
    the delta of the returned mu is certified to be at most ``delta``.

    >>> round(gdp_mu(1.0, 0.78760074), 6)         # dp_accounting: sigma = 1/3 at sensitivity 1
    3.0
    """
    ex, dx = EPS.check(eps), DELTA.check(delta)

    def ok(m: float) -> bool:
        return _at_most(_ag_delta_bounds(Fraction(m), 1, ex)[1], dx)

    # pragma: no mutate start (the guess only steers first_true, which certifies the answer)
    try:  # mu = s / sigma at any sensitivity s (delta depends on s/sigma only)
        guess = float_down(1 / Fraction(analytic_gaussian_sigma(1.0, ex, dx)))
    except InvalidParameter:  # sigma past the floats at unit sensitivity: mu is below 1/max float
        guess = float_down(_SMALL_S / Fraction(analytic_gaussian_sigma(_SMALL_S, ex, dx)))
    # pragma: no mutate end
    return first_true(guess, ok, up=False)


#: the sensitivity at which :func:`gdp_mu` steers a mu below 1/max float (there sigma/s lies
#: between about 2^1024 and 2^1075, so the sigma of 2^-600 is a normal float)
_SMALL_S = 2.0**-600


def gdp_sigma(sensitivity: float | Fraction, mu: float, k: int = 1) -> float:
    r"""The noise sigma making k Gaussian steps of L2 sensitivity Delta mu-GDP in total:
    sigma = sqrt(k) Delta / mu (DRS22 Thm 2.7 and Cor. 3.3), rounded up.

    With ``mu = gdp_mu(eps, delta)`` this is the smallest sigma for which the k steps together are
    (eps, delta)-DP.

    >>> gdp_sigma(6.0, 3.0, 25)                   # dp_accounting: 25 queries, sensitivity 6
    10.0
    """
    s, m, kk = SENS.check(sensitivity), MU.check(mu), STEPS.check(k)
    r = Fraction(s) / Fraction(m)
    sq = r * r * kk  # sigma^2, exact
    return _sqrt_up(sq)


def _gaussian_mu_entry(sensitivity: float, sigma: float) -> float:
    """Theorem: Dong, Roth & Su (2022) Thm 2.7 (see :func:`gaussian_mu`)."""
    return gaussian_mu(sensitivity, sigma)


register(
    Theorem(
        id="DRS22-2.7",
        paper="Dong-Roth-Su",
        number="Thm 2.7 (the Gaussian mechanism is mu-GDP)",
        title="Gaussian noise N(0, sigma^2) on a query of L2 sensitivity Delta is Delta/sigma-GDP",
        formula=GDP_MU,
        lhs=r"\mu =",
        conditions=("noise N(0, sigma^2) on a query of L2 sensitivity Delta",),
        units="mu dimensionless; Delta and sigma in the query's units",
        params=(SENS, SIGMA),
        evaluator=_gaussian_mu_entry,
        returns="mu rounded up",
        value_name="mu",
    )
)


def _gdp_eps(mu: float, delta: float) -> float:
    """Theorem: Dong, Roth & Su (2022) Cor. 2.13 (see :func:`gdp_epsilon`)."""
    return gdp_epsilon(mu, delta)


def _gdp_statement() -> Any:
    import sympy  # statements only

    mu, eps = sympy.symbols("mu epsilon", positive=True)
    return _ag_statement().subs({sympy.Symbol("Delta", positive=True): mu, sympy.Symbol("sigma", positive=True): 1})


register(
    Theorem(
        id="DRS22-2.13",
        paper="Dong-Roth-Su",
        number="Cor. 2.13 (mu-GDP as (eps, delta)-DP)",
        title="mu-GDP is (eps, delta)-DP exactly when delta >= Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)",
        latex=(
            r"\Phi\!\left(-\tfrac{\varepsilon}{\mu}+\tfrac{\mu}{2}\right)"
            r"- e^{\varepsilon}\Phi\!\left(-\tfrac{\varepsilon}{\mu}-\tfrac{\mu}{2}\right) \le \delta"
        ),
        conditions=("the mechanism is mu-GDP (Gaussian noise: mu = Delta/sigma)", "necessary and sufficient"),
        units="eps in nats",
        params=(MU, DELTA),
        evaluator=_gdp_eps,
        statement=_gdp_statement,
        returns="smallest eps, rounded up",
        value_name="eps_nats",
    )
)


def _gdp_composed(k: int, mu: float) -> float:
    """Theorem: Dong, Roth & Su (2022) Cor. 3.3 (see :func:`gdp_compose`)."""
    return gdp_compose({MU.check(mu): STEPS.check(k)})


register(
    Theorem(
        id="DRS22-3.3",
        paper="Dong-Roth-Su",
        number="Cor. 3.3 (composition of Gaussian DP)",
        title="k adaptive mu-GDP steps are exactly sqrt(k) mu-GDP (sqrt(sum mu_i^2) for unequal steps)",
        formula=GDP_COMPOSE,
        lhs=r"\mu_{\mathrm{total}} =",
        conditions=("adaptive composition", "each step mu-GDP (Gaussian noise: mu = Delta/sigma, DRS22 Thm 2.7)"),
        units="mu dimensionless",
        params=(STEPS, MU),
        evaluator=_gdp_composed,
        returns="composed mu, rounded up",
        value_name="mu_total",
    )
)


def _gdp_mu_entry(eps: float, delta: float) -> float:
    """Theorem: Dong, Roth & Su (2022) Cor. 2.13, inverted (see :func:`gdp_mu`)."""
    return gdp_mu(eps, delta)


register(
    Theorem(
        id="DRS22-mu",
        paper="Dong-Roth-Su",
        number="Cor. 2.13 inverted (largest mu for a target (eps, delta))",
        title="The largest mu such that mu-GDP is (eps, delta)-DP (sigma = sqrt(k) Delta / mu for k Gaussian steps)",
        latex=(
            r"\max\Big\{\mu : \Phi\!\left(-\tfrac{\varepsilon}{\mu}+\tfrac{\mu}{2}\right)"
            r"- e^{\varepsilon}\Phi\!\left(-\tfrac{\varepsilon}{\mu}-\tfrac{\mu}{2}\right) \le \delta\Big\}"
        ),
        conditions=("delta(eps) increases with mu, so the set is an interval",),
        units="eps in nats",
        params=(EPS, DELTA),
        evaluator=_gdp_mu_entry,
        statement=_gdp_statement,
        returns="largest mu, rounded down",
        value_name="mu",
        value_rounding="down",
    )
)
