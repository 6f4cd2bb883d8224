"""One-step p-value corrections: from a described selection step to the threshold to use.

Given what is known about the step that chose the test (pure or approximate DP, a
mutual-information bound, or a finite range of outputs), :func:`correct` plans each
description as a one-step study with the study planner (:mod:`maxinfo_bounds.planning`: the
same routes, the same β optimiser, the same certification) and returns the route with the
largest corrected threshold γ(α), with the theorems it used.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .domain import Real
from .numeric import InvalidParameter, MissingParameter, RegimeError
from .planning import Description, GenericDP, MutualInformation, NoValidRoute, PlanResult, Step, Study, plan
from .theorems.description import RANGE_SIZE
from .theorems.maxinfo_dp import THM31_EPS_MAX, THM31_IMPLIED_REGIME, thm31_outside
from .theorems.registry import EPS_POSITIVE, M_BITS, N_RECORDS, Param
from .theorems.solvers import ALPHA

#: the one-step delta of an approximate DP selection (the other parameters are the theorems')
DELTA = Param("delta", Real(0, 1, lo_open=True, hi_open=True), "approximate DP parameter")

__all__ = ["Correction", "correct", "correction_report", "worked_example"]


class RouteGamma(NamedTuple):
    """One description of the step that was planned, and its certified γ (0 where refused)."""

    route: str
    gamma: float


@dataclass(frozen=True)
class Correction:
    """A corrected threshold ``gamma`` (rounded down) and how it was obtained."""

    alpha: float
    gamma: float
    k: float | None
    beta: float | None
    route: tuple[str, ...]
    candidates: tuple[RouteGamma, ...] = field(default=())
    notes: tuple[str, ...] = field(default=())

    def __str__(self) -> str:
        kb = "" if self.k is None else f", k={self.k!r} bits, beta={self.beta!r}"
        return f"gamma={self.gamma!r} at alpha={self.alpha!r}{kb} via {' -> '.join(self.route)}"

    def _repr_latex_(self) -> str:
        arrow = r" $\to$ "
        return rf"$\gamma({self.alpha!r}) = {self.gamma!r}$ via " + arrow.join(self.route)


_BOOKKEEPING = {"given", "DR-3.16", "RRST-A.3", "entropy"}


def _one_step(a: float, label: str, step: Step, n: int, iid: bool) -> tuple[str, PlanResult | None, str]:
    try:
        return label, plan(Study(n=n, iid=iid, alpha=a, steps=(step,))), ""
    except NoValidRoute as exc:
        return label, None, exc.allowed


def correct(
    alpha: float,
    *,
    eps: float | None = None,
    n: int | None = None,
    iid: bool = False,
    delta: float | None = None,
    mi_bits: float | None = None,
    range_size: int | None = None,
) -> Correction:
    """The largest certified γ(α) for one selection step described by what is known about it.

    Each description is planned as a one-step study (:func:`maxinfo_bounds.planning.plan`, the
    same routes, β optimiser and certification as every plan):

    * ``eps`` and ``n``: RRST Thm 1.4a (any data) → Thm 1.3; with ``iid=True`` also
      Thm 1.4b with the best β (i.i.d. data).
    * ``eps``, ``delta > 0`` and ``n`` (approximate DP): RRST Thm 3.1 (sound variant) at the best
      implied guarantee ε' ≥ ε, t, δ̂ and β optimised → Thm 1.3, only with ``iid=True``:
      approximate DP gives no max-information bound for other data (RRST §4); without it the
      route is reported as unavailable.
    * ``mi_bits``: RRST Lemma 1.5 (exact curve) → Thm 1.3, and Cor C.2 (optimal variant).
    * ``range_size``: DFHPRR Thm 6 at β = α/2 (the exact optimum of (α − β)β/|Y|) → Thm 1.3.

    Several descriptions may be given at once (e.g. a DP step whose output is also a choice
    among ``range_size`` candidates); the best route wins.

    >>> c = correct(0.05, range_size=20)
    >>> c.route
    ('DFHPRR-6', 'RRST-1.3')
    >>> 3.12e-05 < c.gamma <= 3.125e-05      # alpha^2 / (4 * 20), hand
    True
    """
    a = ALPHA.check_float(alpha)
    if not isinstance(iid, bool):
        raise InvalidParameter("iid", iid, "True or False")
    if iid and eps is None:
        raise InvalidParameter(
            "iid",
            iid,
            "given with eps (whether the records are i.i.d. "
            "matters only to the DP routes, RRST Thm 1.4b and Thm 3.1; the "
            "mi_bits and range_size routes hold for any data)",
        )
    runs: list[tuple[str, PlanResult | None, str]] = []
    notes: list[str] = []
    if delta is not None:
        if eps is None or n is None:
            raise InvalidParameter(
                "eps" if eps is None else "n", None, "given with delta (an approximate DP step needs eps, delta, n)"
            )
        e, d, ni = EPS_POSITIVE.check_float(eps), DELTA.check_float(delta), N_RECORDS.check(n)
        if thm31_outside(e, d):
            name, val = ("eps", e) if e > THM31_EPS_MAX else ("delta", d)
            raise RegimeError("RRST Thm 3.1", name, val, THM31_IMPLIED_REGIME)
        if not iid:
            notes.append(
                "approximate DP: no max-information bound without i.i.d. data "
                "(RRST §4); if the records are i.i.d., say so (iid=True; --iid "
                "on the command line)"
            )
        else:
            runs.append(_one_step(a, "approximate DP, i.i.d. data", GenericDP(eps=e, delta=d), ni, True))
    if (eps is not None or n is not None) and delta is None:
        if eps is None or n is None:
            raise InvalidParameter(
                "eps" if eps is None else "n", None, "given together with the other (a pure DP step needs eps and n)"
            )
        e, ni = EPS_POSITIVE.check_float(eps), N_RECORDS.check(n)
        runs.append(_one_step(a, "pure DP, i.i.d. data" if iid else "pure DP, any data", GenericDP(eps=e), ni, iid))
    if mi_bits is not None:
        m = M_BITS.check_float(mi_bits, label="mi_bits")
        runs.append(_one_step(a, "mutual information", MutualInformation(mi_bits=m), 1, False))
    if range_size is not None:
        r = RANGE_SIZE.check(range_size)
        runs.append(_one_step(a, "description length", Description(range_size=r), 1, False))
    if not runs:
        raise MissingParameter(
            "a guarantee of the selection step",
            "give eps and n (pure DP); eps, delta and n with iid (approximate "
            "DP on i.i.d. data); mi_bits; or range_size" + (f" ({notes[0]})" if notes else ""),
        )
    notes += [f"{label}: {why}" for label, res, why in runs if res is None]
    done = [(label, res) for label, res, _ in runs if res is not None]
    if not done:
        return Correction(
            alpha=a,
            gamma=0.0,
            k=None,
            beta=None,
            route=(),
            candidates=tuple(RouteGamma(label, 0.0) for label, _, _ in runs),
            notes=tuple(notes),
        )
    label, best = max(done, key=lambda t: t[1].gamma)
    route: list[str] = []
    for link in best.chain:
        for t in link.theorems:
            if t not in _BOOKKEEPING and (not route or route[-1] != t):
                route.append(t)
    return Correction(
        alpha=a,
        gamma=best.gamma,
        k=best.k,
        beta=best.beta,
        route=tuple(route),
        candidates=tuple(RouteGamma(lb, r.gamma) for lb, r in done),
        notes=tuple(notes),
    )


def correction_report(
    c: Correction,
    *,
    iid: bool = False,
    eps: float | None = None,
    delta: float | None = None,
    n: int | None = None,
    mi_bits: float | None = None,
    range_size: int | None = None,
) -> dict[str, Any]:
    """``maxinfo correct``'s report of a :class:`Correction` (the step as described to
    :func:`correct`): γ (rounded down), k, β, the route; when γ is unusable, why and the
    nearest single changes that make it usable (``vacuous``, ``usable_if``: the one dialect of
    :mod:`maxinfo_bounds.vacuity`)."""
    from .planning.study import MAX_N
    from .vacuity import GAMMA_FLOOR, gamma_problem, suggest, usable_if_fields

    out: dict[str, Any] = {
        "alpha": c.alpha,
        "gamma": c.gamma,
        "gamma_rounding": "down",
        "k_bits": c.k,
        "beta": c.beta,
        "route": " -> ".join(c.route) or None,
    }
    why = gamma_problem(c.gamma)
    if why is not None:
        given = {"eps": eps, "delta": delta, "n": n, "mi_bits": mi_bits, "range_size": range_size}

        def ok(vals: dict[str, object]) -> bool:
            return correct(c.alpha, iid=iid, **vals).gamma >= GAMMA_FLOOR  # type: ignore[arg-type]

        ranges = {
            "eps": (0.0, 1e12, False),
            "delta": (0.0, 1.0, False),
            "n": (1, MAX_N, True),
            "mi_bits": (0.0, 1e12, False),
            "range_size": (1, MAX_N, True),
        }
        out.update(usable_if_fields(why, suggest(ok, given, {k: r for k, r in ranges.items() if given[k] is not None})))
    return out


def worked_example(alpha: float = 0.05, range_size: int = 20) -> dict[str, object]:
    """The built-in example: a test chosen among ``range_size`` candidates after seeing the data.

    The selection outputs one of ``range_size`` hypotheses, so its description length bounds
    its max-information (DFHPRR Thm 6: ``k = log2(range_size / beta)`` bits for any data
    distribution); RRST Thm 1.3 turns ``(k, beta)`` into the corrected threshold
    ``gamma = (alpha - beta) / 2^k = (alpha - beta) beta / range_size``, largest at
    ``beta = alpha / 2`` (derivative ``alpha - 2 beta = 0``), giving ``alpha^2 / (4 range_size)``.

    >>> r = worked_example()
    >>> r["gamma"] <= 0.05 ** 2 / 80 and r["gamma"] > 0.05 ** 2 / 80 * (1 - 1e-15)
    True
    """
    c = correct(alpha, range_size=range_size)  # the one-step plan: beta = alpha/2 is its optimum
    beta, k, gamma = c.beta, c.k, c.gamma
    assert beta is not None and k is not None
    return {
        "scenario": (
            f"choose 1 of {range_size} candidate hypotheses after looking at the data, "
            f"then test it on the same data at alpha={alpha}"
        ),
        "alpha": alpha,
        "range_size": range_size,
        "beta": beta,
        "k_bits": k,
        "gamma": gamma,
        "bonferroni": alpha / range_size,
        "derivation": [
            {
                "step": "selection",
                "theorem": "DFHPRR Thm 6",
                "result": f"I^beta_inf <= log2({range_size}/beta) = {k!r} bits at beta={beta!r}",
            },
            {
                "step": "test",
                "theorem": "RRST Thm 1.3",
                "result": f"gamma = (alpha - beta)/2^k = {gamma!r} (rounded down)",
            },
        ],
        "note": (
            "Bonferroni over the pre-declared family of the same candidates is valid here too "
            "and larger; the max-information route also covers selections that are not a "
            "choice from a fixed family (any output of that many values)."
        ),
    }
