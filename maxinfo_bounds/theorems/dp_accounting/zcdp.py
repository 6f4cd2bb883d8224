r"""Zero-concentrated DP (zCDP): accounting for mixed stages, every conversion certified.

rho-zCDP (Bun & Steinke, TCC 2016, Def. 1.1): D_a(M(x) || M(x')) <= a rho for every order a > 1.
Composition adds rho (BS16 Lemma 1.7). The conversions encoded here:

* Gaussian noise N(0, sigma^2) on a query of L2 sensitivity Delta: Delta^2/(2 sigma^2)-zCDP
  (BS16 Prop. 1.6);
* a pure eps-DP step: eps tanh(eps/2)-zCDP, the sharp constant (Steinke, "Tight RDP & zCDP
  bounds from pure DP", differentialprivacy.org 2024: Thm 4 gives the exact Renyi curve of
  randomized response, the worst eps-DP pair; eps tanh(eps/2) is that curve's KL limit a -> 1,
  and its supremum of eps_hat(a)/a — checked at 50 digits in the tests); at most BS16's eps^2/2;
* an eta-bounded-range step (the exponential mechanism with eps = 2 c Delta_u is eps-bounded
  range): eta^2/8-zCDP (Cesar & Rogers, ALT 2021; read from Steinke's note "The exponential
  mechanism: bounded range and concentrated DP", differentialprivacy.org, Thm 5 / Cor. 7), four
  times better than the eps^2/2 of a generic pure step;
* rho-zCDP to (eps, delta)-DP (Canonne, Kamath & Steinke, NeurIPS 2020, Prop. 12 at the Renyi
  bound a rho): for **every** a > 1,
  eps = a rho + (ln(1/delta) + (a - 1) ln(1 - 1/a) - ln a)/(a - 1).
  The order a is chosen in floats (:func:`~maxinfo_bounds.search.minimise`) and the bound at that
  a evaluated in interval arithmetic: an optimiser error costs tightness, never soundness.

``eps`` in nats, rho in nats too; every rho and eps returned is rounded **up**.

>>> zcdp_gaussian(1.0, 1.0)
0.5
>>> round(zcdp_epsilon(0.5, 1e-6), 4)        # sigma = Delta: 1-GDP gives 4.8866; zCDP is looser
5.2215
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from ...arith import Context, Formula
from ...domain import Real
from ...numeric import InvalidParameter, exact_sum, float_up
from ...search import minimise
from ..registry import Param, Theorem, register

__all__ = ["zcdp_gaussian", "zcdp_pure", "zcdp_bounded_range", "zcdp_epsilon", "zcdp_compose", "ZCDP_TO_DP"]

_POSITIVE = Real(0, lo_open=True)
SENS = Param("sensitivity", _POSITIVE, "L2 sensitivity Delta")
SIGMA = Param("sigma", _POSITIVE, "Gaussian noise standard deviation sigma")
EPS = Param("eps", Real(0, units="nats"), "pure-DP eps, nats")
ETA = Param("eta", Real(0, units="nats"), "bounded range eta, nats")
RHO = Param("rho", Real(0, 1e12, lo_open=True, units="nats"), "zCDP rho")
DELTA = Param("delta", Real(0, 1, lo_open=True, hi_open=True), "target delta")
ORDER = Param("a", Real(1, lo_open=True), "Renyi order a > 1")

#: BS16 Prop. 1.6
ZCDP_GAUSS = Formula(lambda c, s, sigma: s * s / (2 * sigma * sigma), ("Delta", "sigma"))


def _pure_body(c: Context, e: Any) -> Any:
    # eps tanh(eps/2) = eps (e^eps - 1)/(e^eps + 1)
    m = c.expm1(e)
    return e * m / (m + 2)


#: Steinke 2024 (sharp pure-DP to zCDP)
ZCDP_PURE = Formula(_pure_body, ("epsilon",))
#: Cesar & Rogers 2021: eta-bounded range is eta^2/8-zCDP
ZCDP_BR = Formula(lambda c, eta: eta * eta / 8, ("eta",))


def _cks_body(c: Context, rho: Any, delta: Any, a: Any) -> Any:
    # CKS20 Prop. 12 solved for eps at order a
    return a * rho + (c.log(1 / delta) + (a - 1) * c.log1p(-1 / a) - c.log(a)) / (a - 1)


#: Canonne-Kamath-Steinke 2020 Prop. 12 at the zCDP Renyi bound, solved for eps
ZCDP_TO_DP = Formula(_cks_body, ("rho", "delta", "a"))


def zcdp_gaussian(sensitivity: float | Fraction, sigma: float) -> float:
    """rho = Delta^2/(2 sigma^2) of Gaussian noise (Bun & Steinke 2016 Prop. 1.6), rounded up.

    >>> zcdp_gaussian(1.0, 2.0)
    0.125
    """
    return float_up(ZCDP_GAUSS.exact(SENS.check(sensitivity), SIGMA.check(sigma)))


def zcdp_pure(eps: float) -> float:
    """rho = eps tanh(eps/2) of a pure eps-DP step (sharp; Steinke 2024), rounded up.

    >>> round(zcdp_pure(1.0), 12)                # tanh(1/2) = 0.462117157260...
    0.46211715726
    """
    return ZCDP_PURE.up(EPS.check(eps))


def zcdp_bounded_range(eta: float) -> float:
    """rho = eta^2/8 of an eta-bounded-range step, e.g. the exponential mechanism at eps = eta
    (Cesar & Rogers 2021), rounded up.

    >>> zcdp_bounded_range(1.0)
    0.125
    """
    return float_up(ZCDP_BR.exact(ETA.check(eta)))


def zcdp_compose(rhos: list[float]) -> float:
    """The adaptive composition of rho_i-zCDP steps is (sum rho_i)-zCDP (BS16 Lemma 1.7); the
    exact sum, rounded up.

    >>> zcdp_compose([0.125, 0.5])
    0.625
    """
    if not rhos:
        raise InvalidParameter("rhos", rhos, "at least one step")
    return float_up(exact_sum((1, Real(0).check("rho", r)) for r in rhos))


def _cks_float(rho: float, delta: float, u: float) -> float:
    """:data:`ZCDP_TO_DP` in floats at a = 1 + u (written in u: a - 1 loses digits near a = 1)."""
    lp = math.log1p(u)
    return (1 + u) * rho + (-math.log(delta) + u * (math.log(u) - lp) - lp) / u


def zcdp_order(rho: float, delta: float) -> float:
    """The Renyi order a > 1 at which :data:`ZCDP_TO_DP` is smallest (a float estimate: any
    a > 1 gives a valid bound, this one a tight one)."""

    def f(t: float) -> float:  # a = 1 + e^t
        return _cks_float(rho, delta, math.exp(t))

    # the unconstrained optimum is near a = 1 + sqrt(ln(1/delta)/rho); in logs, since the
    # quotient overflows for a subnormal rho (a pure step of eps 1e-300 is 5e-324-zCDP)
    mid = 0.5 * (math.log(max(-math.log(delta), 1e-300)) - math.log(rho))
    lo, hi = max(mid - 30, -30.0), min(mid + 30, 600.0)
    cands = minimise(f, lo, hi, grid=61, xatol=1e-10)
    t = min(cands, key=f) if cands else mid
    return max(1 + math.exp(t), math.nextafter(1.0, 2.0))


def zcdp_epsilon(rho: float, delta: float, *, a: float | None = None) -> float:
    """The eps (nats) at which rho-zCDP is certified (eps, delta)-DP (Canonne, Kamath & Steinke
    2020 Prop. 12), at order ``a`` (default: the best order, chosen in floats). Rounded up; 0
    when the bound is negative.

    >>> round(zcdp_epsilon(0.5, 1e-6, a=5.0), 6)     # 2.5 + (ln 1e6 + 4 ln 0.8 - ln 5)/4
    5.328375
    """
    r, d = RHO.check(rho), DELTA.check(delta)
    order = ORDER.check(a) if a is not None else zcdp_order(float(r), float(d))
    return max(0.0, ZCDP_TO_DP.up(r, d, order))


def _zcdp_eps_entry(rho: float, delta: float) -> float:
    """Theorem: Canonne, Kamath & Steinke (2020) Prop. 12 (see :func:`zcdp_epsilon`)."""
    return zcdp_epsilon(rho, delta)


register(
    Theorem(
        id="CKS20-12",
        paper="Canonne-Kamath-Steinke",
        number="Prop. 12 (zCDP to approximate DP)",
        title="rho-zCDP is (eps, delta)-DP with eps = a rho + (ln(1/delta) + (a-1) ln(1-1/a) - ln a)/(a-1), any a > 1",
        formula=ZCDP_TO_DP,
        lhs=r"\varepsilon =",
        conditions=("the mechanism is rho-zCDP", "any order a > 1 is valid; the best order is chosen in floats"),
        units="eps and rho in nats",
        params=(RHO, DELTA),
        evaluator=_zcdp_eps_entry,
        returns="eps rounded up",
        value_name="eps_nats",
    )
)


def _zcdp_pure_entry(eps: float) -> float:
    """Theorem: Steinke (2024), sharp pure DP to zCDP (see :func:`zcdp_pure`)."""
    return zcdp_pure(eps)


register(
    Theorem(
        id="S24-pure-zCDP",
        paper="Steinke",
        number="Tight RDP & zCDP from pure DP (differentialprivacy.org 2024), Thm 4 at a -> 1",
        title="eps-DP is eps tanh(eps/2)-zCDP (sharp: randomized response attains it)",
        formula=ZCDP_PURE,
        lhs=r"\rho =",
        conditions=("the step is eps-DP (pure)",),
        units="eps and rho in nats",
        params=(EPS,),
        evaluator=_zcdp_pure_entry,
        returns="rho rounded up",
        value_name="rho",
    )
)


def _zcdp_br_entry(eta: float) -> float:
    """Theorem: Cesar & Rogers (2021), bounded range to zCDP (see :func:`zcdp_bounded_range`)."""
    return zcdp_bounded_range(eta)


register(
    Theorem(
        id="CR21-BR",
        paper="Cesar-Rogers",
        number="bounded range to zCDP (ALT 2021; Steinke's note Thm 5)",
        title="An eta-bounded-range mechanism (the exponential mechanism at eps = eta) is eta^2/8-zCDP",
        formula=ZCDP_BR,
        lhs=r"\rho =",
        conditions=("privacy loss supported on an interval of length eta for every neighbouring pair",),
        units="eta and rho in nats",
        params=(ETA,),
        evaluator=_zcdp_br_entry,
        returns="rho rounded up",
        value_name="rho",
    )
)


def _zcdp_gauss_entry(sensitivity: float, sigma: float) -> float:
    """Theorem: Bun & Steinke (2016) Prop. 1.6 (see :func:`zcdp_gaussian`)."""
    return zcdp_gaussian(sensitivity, sigma)


register(
    Theorem(
        id="BS16-1.6",
        paper="Bun-Steinke",
        number="Prop. 1.6 (Gaussian mechanism, zCDP)",
        title="Gaussian noise N(0, sigma^2) on an L2-sensitivity-Delta query is Delta^2/(2 sigma^2)-zCDP",
        formula=ZCDP_GAUSS,
        lhs=r"\rho =",
        conditions=("noise N(0, sigma^2) on a query of L2 sensitivity Delta", "composition adds rho (BS16 Lemma 1.7)"),
        units="rho in nats",
        params=(SENS, SIGMA),
        evaluator=_zcdp_gauss_entry,
        returns="rho rounded up",
        value_name="rho",
    )
)
