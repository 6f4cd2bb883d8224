r"""Differential-privacy accounting: composition of DP steps and mechanism calibration.

So far (issue 4 is in progress): basic and advanced composition, homogeneous and
heterogeneous, and the calibration of the Laplace and classic Gaussian mechanisms. ``eps`` is in
nats throughout (the DP convention). Every returned privacy parameter is rounded **up** and
every calibrated noise scale rounded **up** (more noise, smaller privacy loss: the safe side).

References: Dwork & Roth, *The Algorithmic Foundations of Differential Privacy* (2014): Thm 3.16
(basic composition), Thm 3.20 (advanced composition, Dwork–Rothblum–Vadhan 2010), Thm 3.6
(Laplace mechanism), Thm A.1 (Gaussian mechanism, eps < 1); Kairouz–Oh–Viswanath (2015) for the
heterogeneous form of advanced composition.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

from ..catalog import Param, Theorem, register
from ..numeric import (
    InvalidParameter,
    RegimeError,
    as_nonempty_list,
    check_int,
    check_real,
    enclosure,
    float_up,
    iv_prec,
)

__all__ = [
    "DPGuarantee",
    "basic_composition",
    "advanced_composition",
    "compose_dp",
    "laplace_epsilon",
    "laplace_scale",
    "gaussian_sigma",
]


@dataclass(frozen=True)
class DPGuarantee:
    """An (eps, delta)-DP guarantee (eps in nats), both rounded up, with its provenance."""

    eps: float
    delta: float
    theorem: str
    conditions: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"({self.eps!r}, {self.delta!r})-DP ({self.theorem})"

    def _repr_latex_(self) -> str:
        return rf"$({self.eps!r}, {self.delta!r})\text{{-DP}}\quad\text{{({self.theorem})}}$"


def _steps(steps: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    items = as_nonempty_list("steps", steps, "(eps, delta) pairs")
    out = []
    for i, st in enumerate(items):
        try:
            e, d = st
        except (TypeError, ValueError) as exc:
            raise InvalidParameter(f"steps[{i}]", st, "an (eps, delta) pair") from exc
        out.append((float(check_real(f"steps[{i}].eps", e, low=0.0)),
                    float(check_real(f"steps[{i}].delta", d, low=0.0, high=1.0))))
    return out


def basic_composition(steps: Sequence[tuple[float, float]]) -> DPGuarantee:
    r"""k adaptive steps, step i (eps_i, delta_i)-DP, are (Σ eps_i, Σ delta_i)-DP.

    Theorem: Dwork & Roth Thm 3.16 (basic composition; adaptive, as in Thm 3.20's setting).
    Returns: exact sums of the inputs, rounded up.

    >>> basic_composition([(0.5, 1e-6)] * 4)
    DPGuarantee(eps=2.0, delta=4e-06, theorem='DR-3.16', conditions=('4 adaptive steps',))
    """
    items = _steps(steps)
    e = float_up(sum((Fraction(x) for x, _ in items), Fraction(0)))
    d = float_up(sum((Fraction(y) for _, y in items), Fraction(0)))
    return DPGuarantee(e, min(d, 1.0), "DR-3.16", (f"{len(items)} adaptive steps",))


def advanced_composition(steps: Sequence[tuple[float, float]], delta_prime: float, *,
                         dps: int = 30) -> DPGuarantee:
    r"""Advanced composition of adaptive (eps_i, delta_i)-DP steps, for a slack delta'.

    .. math:: \varepsilon' = \sqrt{2\ln(1/\delta')\textstyle\sum_i \varepsilon_i^2}
              + \textstyle\sum_i \varepsilon_i (e^{\varepsilon_i} - 1),
              \qquad \delta_{\mathrm{total}} = \textstyle\sum_i \delta_i + \delta'

    Theorem: Dwork & Roth Thm 3.20 (Dwork–Rothblum–Vadhan) for equal steps, where it reads
    ``eps sqrt(2k ln(1/delta')) + k eps (e^eps - 1)``; the heterogeneous form as in
    Kairouz–Oh–Viswanath (2015). The result is never worse than basic composition: the smaller
    ``eps`` of the two is returned (both are valid at ``delta_total``, which is at least the
    basic ``Σ delta_i``).
    Conditions: ``delta'`` in (0, 1).
    Returns: a :class:`DPGuarantee`, both parameters rounded up.

    >>> g = advanced_composition([(0.1, 0.0)] * 100, 1e-6)
    >>> round(g.eps, 6), g.delta   # 0.1 sqrt(200 ln 1e6) + 10 (e^0.1 - 1) = 6.30823095... (30 digits)
    (6.308231, 1e-06)
    """
    items = _steps(steps)
    dp = float(check_real("delta_prime", delta_prime, low=0.0, high=1.0, low_open=True,
                          high_open=True))

    counts = Counter(e for e, _ in items)  # equal steps are evaluated once, times their count

    def eps_total(iv: Any) -> Any:
        s2 = sum((c * iv.mpf(e) ** 2 for e, c in counts.items()), iv.mpf(0))
        lin = sum((c * iv.mpf(e) * (iv.exp(iv.mpf(e)) - 1) for e, c in counts.items()), iv.mpf(0))
        return iv.sqrt(2 * iv.log(1 / iv.mpf(dp)) * s2) + lin

    adv = enclosure(eps_total, prec=iv_prec(dps))[1]
    basic = basic_composition(items)
    d = float_up(sum((Fraction(y) for _, y in items), Fraction(0)) + Fraction(dp))
    return DPGuarantee(min(adv, basic.eps), min(d, 1.0), "DR-3.20",
                       (f"{len(items)} adaptive steps", f"delta' = {dp!r}",
                        "min with basic composition"))


def compose_dp(steps: Sequence[tuple[float, float]], delta_total: float, *,
               dps: int = 30) -> DPGuarantee:
    """The smallest eps this module can certify for the steps at a total delta budget.

    Advanced composition with ``delta' = delta_total - Σ delta_i`` (its eps decreases in
    delta', so the whole remaining budget is used), or basic composition when no budget
    remains. Raises InvalidParameter if ``delta_total < Σ delta_i``.

    >>> compose_dp([(0.1, 0.0)] * 100, 1e-6).eps == advanced_composition([(0.1, 0.0)] * 100, 1e-6).eps
    True
    """
    items = _steps(steps)
    dt = Fraction(check_real("delta_total", delta_total, low=0.0, high=1.0, high_open=True))
    used = sum((Fraction(y) for _, y in items), Fraction(0))
    if dt < used:
        raise InvalidParameter("delta_total", delta_total,
                               f"at least the steps' total delta {float(used)!r}")
    if dt == used:
        return basic_composition(items)
    slack = dt - used
    dp = float(slack)
    if Fraction(dp) > slack:  # keep delta' at or below the remaining budget
        dp = math.nextafter(dp, 0.0)
    return advanced_composition(items, dp, dps=dps)


def laplace_epsilon(sensitivity: float, scale: float) -> float:
    r"""Privacy of the Laplace mechanism: noise Lap(b) on an L1-sensitivity-Δ query is (Δ/b, 0)-DP.

    Theorem: Dwork & Roth Thm 3.6. Returns ``eps = Δ/b`` rounded up (nats).

    >>> laplace_epsilon(1.0, 10.0)
    0.1
    """
    return _ratio_up("sensitivity", sensitivity, "scale", scale)


def laplace_scale(sensitivity: float, eps: float) -> float:
    """The Laplace scale ``b = Δ/eps`` for (eps, 0)-DP, rounded up (more noise is safe).

    >>> laplace_scale(1.0, 0.1)   # 1/0.1 with 0.1 read exactly = 9.99999999999999944..., up: 10
    10.0
    """
    return _ratio_up("sensitivity", sensitivity, "eps", eps)


def _ratio_up(num_name: str, num: float, den_name: str, den: float) -> float:
    """``num/den`` for two positive finite reals (check_real refuses inf), exact, rounded up."""
    a = check_real(num_name, num, low=0.0, low_open=True)
    b = check_real(den_name, den, low=0.0, low_open=True)
    return float_up(Fraction(a) / Fraction(b))


def gaussian_sigma(sensitivity: float, eps: float, delta: float, *, strict: bool = True,
                   dps: int = 30) -> float:
    r"""Classic Gaussian mechanism: σ ≥ Δ₂ sqrt(2 ln(1.25/δ))/ε gives (ε, δ)-DP for ε < 1.

    Theorem: Dwork & Roth Thm A.1. Conditions: ``eps`` in (0, 1) (RegimeError otherwise;
    ``strict=False`` returns the formula's value, which is then not a proven calibration),
    ``delta`` in (0, 1). Returns sigma rounded up.

    >>> round(gaussian_sigma(1.0, 0.5, 1e-5), 6)     # 2 sqrt(2 ln 125000) = 9.68961... (30 digits)
    9.689611
    """
    s = float(check_real("sensitivity", sensitivity, low=0.0, low_open=True))
    e = float(check_real("eps", eps, low=0.0, low_open=True))
    d = float(check_real("delta", delta, low=0.0, high=1.0, low_open=True, high_open=True))
    if not e < 1 and strict:
        raise RegimeError("Dwork-Roth Thm A.1", "eps", e, "eps in (0, 1)")
    return enclosure(lambda iv: iv.mpf(s) * iv.sqrt(2 * iv.log(iv.mpf(5) / 4 / iv.mpf(d)))
                     / iv.mpf(e), prec=iv_prec(dps))[1]


def _advanced_homogeneous(eps: float, delta: float, k: int, delta_prime: float) -> DPGuarantee:
    """k equal steps: Theorem: Dwork & Roth Thm 3.20 (see :func:`advanced_composition`)."""
    return advanced_composition([(eps, delta)] * check_int("k", k, low=1), delta_prime)


register(Theorem(
    id="DR-3.20", paper="Dwork-Roth", number="Thm 3.20 (advanced composition, DRV10)",
    title="Advanced composition of adaptive (eps, delta)-DP steps",
    latex=(r"\varepsilon' = \varepsilon\sqrt{2k\ln(1/\delta')} + k\varepsilon(e^{\varepsilon}-1),"
           r"\ \delta_{\mathrm{total}} = k\delta + \delta'"),
    conditions=("k adaptive steps, each (eps, delta)-DP", "0 < delta' < 1",
                "eps returned is the smaller of advanced and basic"),
    units="eps in nats",
    params=(Param("eps", float, "[0, inf)", "per-step eps, nats"),
            Param("delta", float, "[0, 1]", "per-step delta"),
            Param("k", int, "[1, inf) integer", "number of steps"),
            Param("delta_prime", float, "(0, 1)", "slack delta'")),
    evaluator=_advanced_homogeneous,
    sympy_statement=lambda: (sympy.Symbol("epsilon") * sympy.sqrt(
        2 * sympy.Symbol("k") * sympy.log(1 / sympy.Symbol("delta_prime")))
        + sympy.Symbol("k") * sympy.Symbol("epsilon") * (sympy.exp(sympy.Symbol("epsilon")) - 1)),
    returns="DPGuarantee(eps rounded up, delta rounded up)",
    value_name="eps_nats",
))
