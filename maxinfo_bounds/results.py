"""The calculator's result types: small frozen values, validated on construction.

* :class:`Bound` — a max-information bound ``I^β_∞ <= k`` bits at ``β``, with its provenance;
* :class:`DPGuarantee` — an (ε, δ)-differential-privacy guarantee (ε in nats).

Each refuses impossible values when it is built (a NaN, a negative ``k`` or ``ε``, a ``β`` or
``δ`` outside [0, 1]) with :class:`~maxinfo_bounds.numeric.InvalidParameter` naming the field,
and has ``as_dict()`` with units in the field names (the JSON the CLI prints).

>>> DPGuarantee(0.5, 1e-6, "given").as_dict()["eps_nats"]
0.5
>>> DPGuarantee(-3.0, 2.0, "given")
Traceback (most recent call last):
...
maxinfo_bounds.numeric.InvalidParameter: eps=-3.0 is invalid: must be in [0, inf] (nats)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from .numeric import InvalidParameter

__all__ = ["AccuracyBound", "Bound", "DPGuarantee", "Reportable", "TailBound"]


@runtime_checkable
class Reportable(Protocol):
    """A result type with a JSON form (units in the field names): what the CLI prints."""

    def as_dict(self) -> dict[str, object]: ...


def _check(name: str, v: object, low: float, high: float, what: str) -> None:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise InvalidParameter(name, v, f"a real number in [{low:g}, {high:g}]{what}")
    if math.isnan(v) or not low <= v <= high:
        raise InvalidParameter(name, v, f"in [{low:g}, {high:g}]{what}")


@dataclass(frozen=True)
class Bound:
    """A max-information bound ``I^beta_infty <= k`` bits, with its provenance.

    ``k`` is rounded up. ``product_only`` marks a bound that holds only for product (i.i.d.)
    input distributions (``I^beta_{infty,P}``), which composition must respect (RRST §4).
    ``in_regime`` is False only for values returned with ``strict=False`` outside the theorem's
    conditions; such a value is not a proven bound.
    """

    k: float
    beta: float
    theorem: str
    conditions: tuple[str, ...] = ()
    variant: str = "paper"
    product_only: bool = False
    in_regime: bool = True

    def __post_init__(self) -> None:
        _check("k", self.k, 0.0, math.inf, " (bits)")
        _check("beta", self.beta, 0.0, 1.0, "")

    def __float__(self) -> float:
        return self.k

    def __str__(self) -> str:
        scope = "product inputs" if self.product_only else "all input distributions"
        flag = "" if self.in_regime else "  [OUT OF REGIME: not a proven bound]"
        return f"I^beta_inf <= {self.k!r} bits at beta={self.beta!r} ({self.theorem}, {self.variant}; {scope}){flag}"

    def _repr_latex_(self) -> str:
        sub = r"\infty,P" if self.product_only else r"\infty"
        return (
            rf"$I^{{\beta}}_{{{sub}}} \le {self.k!r}\ \text{{bits}},\ \beta = {self.beta!r}"
            rf"\quad\text{{({self.theorem})}}$"
        )

    def as_dict(self) -> dict[str, object]:
        """JSON-ready, units in the field names (``k_bits`` rounded up, ``beta`` rounded up)."""
        return {
            "theorem": self.theorem,
            "k_bits": self.k,
            "beta": self.beta,
            "k_rounding": "up",
            "product_only": self.product_only,
            "variant": self.variant,
            "in_regime": self.in_regime,
            "conditions_checked": list(self.conditions),
        }


@dataclass(frozen=True)
class DPGuarantee:
    """An (eps, delta)-DP guarantee (eps in nats), both rounded up, with its provenance."""

    eps: float
    delta: float
    theorem: str
    conditions: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        _check("eps", self.eps, 0.0, math.inf, " (nats)")
        _check("delta", self.delta, 0.0, 1.0, "")

    def __str__(self) -> str:
        return f"({self.eps!r}, {self.delta!r})-DP ({self.theorem})"

    def _repr_latex_(self) -> str:
        return rf"$({self.eps!r}, {self.delta!r})\text{{-DP}}\quad\text{{({self.theorem})}}$"

    def as_dict(self) -> dict[str, object]:
        """JSON-ready, units in the field names (both rounded up)."""
        return {
            "theorem": self.theorem,
            "eps_nats": self.eps,
            "delta": self.delta,
            "rounding": "up",
            "conditions_checked": list(self.conditions),
        }


@dataclass(frozen=True)
class TailBound:
    """``Pr[|q(P^n) - q(X)| >= deviation] < probability`` (both rounded up), with provenance
    (RRST Thm B.2 and the low-sensitivity results of App. B/D)."""

    deviation: float
    probability: float
    theorem: str
    conditions: tuple[str, ...] = ()
    in_regime: bool = True

    def __post_init__(self) -> None:
        _check("deviation", self.deviation, 0.0, math.inf, "")
        _check("probability", self.probability, 0.0, 1.0, "")

    def __str__(self) -> str:
        flag = "" if self.in_regime else "  [OUT OF REGIME: not a proven bound]"
        return f"Pr[|q(P^n) - q(X)| >= {self.deviation!r}] < {self.probability!r} ({self.theorem}){flag}"

    def as_dict(self) -> dict[str, object]:
        """JSON-ready (both numbers rounded up)."""
        return {
            "theorem": self.theorem,
            "deviation": self.deviation,
            "probability": self.probability,
            "rounding": "up",
            "in_regime": self.in_regime,
            "conditions_checked": list(self.conditions),
        }

    def _repr_latex_(self) -> str:
        return (
            rf"$\Pr[|q(\mathcal{{P}}^n) - q(\mathbf{{X}})| \ge {self.deviation!r}] < "
            rf"{self.probability!r}\quad\text{{({self.theorem})}}$"
        )


@dataclass(frozen=True)
class AccuracyBound:
    """Simultaneous accuracy of adaptively chosen statistical queries: with probability at
    least ``coverage`` every answer is within ``half_width`` of its population value
    (``half_width`` rounded up, ``coverage`` rounded down), with provenance (JLNRSS's transfer
    theorem, sample splitting, the Gaussian noise's own accuracy)."""

    half_width: float
    coverage: float
    theorem: str
    conditions: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        _check("half_width", self.half_width, 0.0, math.inf, "")
        _check("coverage", self.coverage, 0.0, 1.0, "")

    def __str__(self) -> str:
        return f"Pr[max_j |a_j - q_j(P)| <= {self.half_width!r}] >= {self.coverage!r} ({self.theorem})"

    def as_dict(self) -> dict[str, object]:
        """JSON-ready: the half-width rounded up, the coverage rounded down."""
        return {
            "theorem": self.theorem,
            "half_width": self.half_width,
            "half_width_rounding": "up",
            "coverage": self.coverage,
            "coverage_rounding": "down",
            "conditions_checked": list(self.conditions),
        }
