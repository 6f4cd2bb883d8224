"""Exploring a study: sweeps of γ(α) over one parameter, and inverse solves.

A parameter is ``n``, ``alpha``, or a step field (``steps[i].field`` or a bare field name: the
first step that has it; ``times`` is the first step's).

>>> from maxinfo_bounds.planning import Step, Study
>>> s = Study(n=1000, iid=False, alpha=0.05, steps=(Step("description", {"range_size": 10}),))
>>> [round(g, 8) for _, g, _ in sweep(s, "range_size", [10, 100])]   # alpha^2 / (4 |Y|)
[6.25e-05, 6.25e-06]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..numeric import check_real
from ..search import boundary
from .routes import PlanResult, plan
from .study import MAX_TIMES, PlanError, Study

__all__ = ["sweep", "solve", "with_param", "INT_PARAMS"]

INT_PARAMS = {"times", "n", "range_size", "c", "budget", "family_size", "holdout_n"}


def with_param(study: Study, param: str, value: float | int | str) -> Study:
    """The study with ``param`` set: ``n``, ``alpha``, or a step field (``steps[i].field`` or a
    bare field name: the first step that has it; ``times`` is the first step's)."""
    if param == "n":
        return replace(study, n=int(value))
    if param == "alpha":
        return replace(study, alpha=float(value))
    idx: int | None = None
    fld = param
    if param.startswith("steps["):
        try:
            idx = int(param[6:param.index("]")])
            fld = param[param.index("]") + 2:]
        except ValueError:
            raise PlanError("--param", f"{param!r}: use n, alpha, a step field, or steps[i].field") from None
        if not 0 <= idx < len(study.steps):
            raise PlanError("--param", f"{param!r}: the study has {len(study.steps)} steps")
    else:
        for i, st in enumerate(study.steps):
            if fld == "times" or fld in st.params:
                idx = i
                break
    if idx is None:
        raise PlanError("--param", f"{param!r}: no step has this field; use n, alpha, times or "
                        "a field of a step")
    st = study.steps[idx]
    if fld == "times":
        new = replace(st, times=int(value))
    elif fld in st.params:
        new = replace(st, params={**st.params, fld: int(value) if fld in INT_PARAMS else float(value)})
    else:
        raise PlanError("--param", f"steps[{idx}] ({st.type}) has no field {fld!r}")
    steps = list(study.steps)
    steps[idx] = new
    return replace(study, steps=tuple(steps))


def sweep(study: Study, param: str, values: Sequence[float]) -> list[tuple[float, float | None, str]]:
    """γ(α) at each value of ``param`` (None where the plan has no valid route, with the reason)."""
    out: list[tuple[float, float | None, str]] = []
    if values:
        with_param(study, param, values[0])  # an unknown parameter is refused up front
    for v in values:
        try:
            r = plan(with_param(study, param, v))
            out.append((float(v), r.gamma, r.route))
        except PlanError as exc:
            out.append((float(v), None, str(exc)))
    return out


def solve(study: Study, param: str, target_gamma: float, *, lo: float | None = None,
          hi: float | None = None) -> tuple[float, PlanResult, str]:
    """The boundary value of ``param`` at which γ(α) still meets ``target_gamma``.

    γ is monotone in each parameter: it decreases in ``times`` and ``eps`` and increases in noise
    scales; in ``n`` it decreases for a fixed per-step eps (eps n grows) and increases where eps
    shrinks like 1/n (Thresholdout). The direction is read from γ at the two ends of the range,
    and the value returned is the largest (γ decreasing) or smallest (γ increasing) one meeting
    the target. Integer parameters are solved exactly (one step further fails); real ones by
    bisection to 10^-9 relative (:func:`maxinfo_bounds.search.boundary`, the calculator's one
    monotone search). Returns (value, its plan, "largest" or "smallest"). Raises PlanError when
    no value in range meets the target, and when every value does (the boundary is outside the
    range: an edge of the range is never returned as an answer).
    """
    t = float(check_real("target_gamma", target_gamma, low=0.0, low_open=True, high=1.0))
    is_int = param.split(".")[-1] in INT_PARAMS

    def gamma_at(v: float) -> float:
        try:
            return plan(with_param(study, param, v)).gamma
        except PlanError:
            return -1.0

    if is_int:
        a: float = int(lo) if lo is not None else 1
        b: float = int(hi) if hi is not None else (MAX_TIMES if param.endswith("times") else 2**40)
    else:
        a = float(lo) if lo is not None else 1e-12
        b = float(hi) if hi is not None else 1e6
    # gamma is monotone in each parameter; which way is read off the two ends
    ga, gb = gamma_at(a), gamma_at(b)
    increasing = gb > ga
    ok_end, bad_end = (b, a) if increasing else (a, b)
    if max(ga, gb) < t:
        raise PlanError("--target-gamma", f"{t!r} is not met for {param} in [{a!r}, {b!r}]")
    if min(ga, gb) >= t:
        raise PlanError("--target-gamma", f"{t!r} is met over the whole range of {param}, "
                        f"[{a!r}, {b!r}]: the boundary lies outside it (widen --lo/--hi)")
    # the one monotone search, from the end that meets the target towards the one that does
    # not (which bounds it: reaching it raises, never returned); floats to 1e-9 relative
    v = boundary(lambda x: gamma_at(x) >= t, int(ok_end) if is_int else ok_end,
                 up=not increasing, integer=is_int, limit=bad_end,
                 first_step=1 if is_int else abs(bad_end - ok_end) / 2**20, rel_tol=1e-9)
    return v, plan(with_param(study, param, v)), "smallest" if increasing else "largest"
