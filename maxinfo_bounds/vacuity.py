"""Vacuous and impractical results, said in words, with the nearest parameters that fix them.

A certified number can be valid and useless: a max-information bound with ``beta >= 1`` or
``k = inf`` holds for every analysis; a corrected threshold ``gamma = 0`` rejects nothing; a
tail bound of probability ``>= 1`` says nothing. A threshold below :data:`GAMMA_FLOOR`
(2.2e-16, the float64 machine epsilon, below which R prints ``p < 2.2e-16`` and most software
cannot report a p-value) cannot be checked in practice either. Such results are returned (they
are correct) but every command that prints one says so (:func:`why_vacuous`) and names, for
each parameter, the nearest value at which the result stops being vacuous, the others held
fixed (:func:`suggest`, a monotone scan and :func:`~maxinfo_bounds.search.boundary`).

Each suggestion is found to 1% (values 10^±8 times the given one are scanned) and shown to 2
significant digits, rounded towards the useful side when the nearest 2 digits would not do, so
the value printed is itself non-vacuous.

>>> why_vacuous({"k_bits": 83.4, "beta": 1.0})
'beta = 1 >= 1: a (k, beta) max-information bound with beta >= 1 holds for every analysis'
>>> why_vacuous({"gamma": 0.02}) is None
True
>>> suggest(lambda v: v["delta"] <= 2.5e-3, {"delta": 0.1}, {"delta": (0.0, 1.0, False)})
['delta <= 0.0025']
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .numeric import decimal_text
from .search import nearest_passing

__all__ = [
    "GAMMA_FLOOR",
    "NO_SINGLE_FIX",
    "why_vacuous",
    "gamma_problem",
    "suggest",
    "shown",
    "usable_if_fields",
    "usable_if_text",
    "with_usable_if",
]

#: what a vacuous or refused result says when no single parameter change makes it usable
NO_SINGLE_FIX = "no single parameter change (the others fixed) helps"


def usable_if_fields(why: str, found: Sequence[str]) -> dict[str, object]:
    """The one JSON dialect of a vacuous result, for every command: ``vacuous`` (why, in
    words) and ``usable_if`` (single changes, the others fixed; empty when none helps)."""
    return {"vacuous": why, "usable_if": list(found)}


def usable_if_text(found: Sequence[str]) -> str:
    """``usable_if`` as text."""
    return ", ".join(found) if found else NO_SINGLE_FIX


#: the smallest threshold a test can be checked against in practice (float64 machine epsilon)
GAMMA_FLOOR = 2.220446049250313e-16


def gamma_problem(gamma: float, *, critical_value_known: bool = False) -> str | None:
    """Why a corrected threshold is useless (None if it is not): the one vacuity rule of every
    command (issue 43).

    γ = 0 rejects nothing. A γ below 2.2e-16 cannot be compared with a p-value standard software
    prints (R prints p < 2.2e-16); what decides whether the test can be run at that level is
    whether its critical value can be computed. For a test the study names (a ``[power]``
    table: z, t, two-sample t, exact binomial) it can, to any level above the smallest double
    (the statistic is compared with it: ``critical_value_known``), so such a γ is usable; for a
    test the calculator does not know (``maxinfo pvalue``, ``correct``, a plan without a power
    table) it is said to be impractical, with the way out.
    """
    if gamma <= 0:
        return (
            "gamma = 0: the corrected threshold rejects nothing (the max-information k is too large, or beta >= alpha)"
        )
    if gamma < GAMMA_FLOOR and not critical_value_known:
        return (
            f"gamma = {gamma:.3g} is below 2.2e-16, the smallest p-value standard software "
            "reports (R prints p < 2.2e-16): no printed p-value can be checked against it; only a "
            "test whose critical value at that level can be computed (a z-, t- or exact binomial test: "
            "give the study a [power] table) can use it"
        )
    return None


def why_vacuous(report: Mapping[str, Any]) -> str | None:
    """Why a result (a report's fields) is vacuous or useless, in words; None if it is not."""
    g = report.get("gamma")
    if isinstance(g, (int, float)) and (why := gamma_problem(float(g))) is not None:
        return why
    k = report.get("k_bits")
    if isinstance(k, (int, float)) and math.isinf(k):
        return "k = inf bits: no bound on the max-information"
    b = report.get("beta")
    if "k_bits" in report and isinstance(b, (int, float)) and b >= 1:
        return f"beta = {b:g} >= 1: a (k, beta) max-information bound with beta >= 1 holds for every analysis"
    p = report.get("probability")
    if isinstance(p, (int, float)) and p >= 1:
        return f"probability bound = {p:g} >= 1: it says nothing"
    e = report.get("eps_nats")
    if isinstance(e, (int, float)) and math.isinf(e):
        return "eps = inf: no privacy guarantee"
    return None


def shown(x: float, side: str) -> str:
    """``x`` to 2 significant digits, rounded towards the useful side (``<=``: down)."""
    return decimal_text(x, "down" if side == "<=" else "up", 2)


def suggest(
    ok: Callable[[Any], bool], values: Mapping[str, Any], ranges: Mapping[str, tuple[float, float, bool]]
) -> list[str]:
    """For each parameter in ``ranges`` (name -> (lo, hi, integer)), the nearest value at which
    ``ok(values with that parameter changed)`` holds, as ``"name <= x"`` / ``"name >= x"``."""
    out = []
    for name, (lo, hi, integer) in ranges.items():
        v = values[name]
        if v is None:
            continue

        def ok_at(x: Any, name: str = name) -> bool:
            return ok({**values, name: x})

        for x in nearest_passing(
            ok_at, int(v) if integer else float(v), lo=lo, hi=hi, integer=integer, factor=10.0, steps=8, rel_tol=1e-2
        ):
            side = "<=" if x < v else ">="
            text = str(x) if integer else f"{x:.2g}"
            if not integer and not ok_at(float(text)):  # the nearest 3 digits fail: round
                text = shown(x, side)  # towards the useful side instead
            out.append(f"{name} {side} {text}")
    return out


def with_usable_if(theorem: Any, values: dict[str, Any], res: dict[str, Any]) -> dict[str, Any]:
    """A catalog report (``theorem.report(**values)``) with, when it is vacuous, why and the
    nearest usable value of each parameter (:func:`usable_if_fields`)."""
    from .domain import Domain

    why = why_vacuous(res)
    if why is None:
        return res

    def ok(vals: dict[str, Any]) -> bool:
        return why_vacuous(theorem.report(**vals)) is None

    ranges = {
        p.name: (p.domain.lo, p.domain.hi, p.domain.integer) for p in theorem.params if isinstance(p.domain, Domain)
    }
    return {**res, **usable_if_fields(why, suggest(ok, values, ranges))}
