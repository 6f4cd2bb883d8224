"""Exploring a study: sweeps of γ(α) over one parameter, and inverse solves.

A parameter is ``n``, ``alpha``, or a step field (``steps[i].field`` or a bare field name: the
first step that has it; ``times`` is the first step's).

>>> from maxinfo_bounds.planning import Description, Study
>>> s = Study(n=1000, iid=False, alpha=0.05, steps=(Description(range_size=10),))
>>> [round(p.gamma, 8) for p in sweep(s, "range_size", [10, 100])]   # alpha^2 / (4 |Y|)
[6.25e-05, 6.25e-06]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import NamedTuple, TypeVar

from ..numeric import MaxinfoError, local_workers
from ..search import boundary
from ..theorems.solvers import TARGET_GAMMA
from .errors import PlanError
from .recommend import PowerPlan, plan_power, study_at_n
from .routes import PlanResult, plan
from .steps import MAX_TIMES, STEP_CLASSES
from .study import MAX_N, MIN_ALPHA, Study, check_alpha, check_n, step_key, where

_P = TypeVar("_P")

__all__ = [
    "sweep",
    "power_sweep",
    "PowerSweepPoint",
    "solve",
    "with_param",
    "fixes",
    "power_fixes",
    "Solution",
    "SweepPoint",
    "INT_PARAMS",
    "PARALLEL_MIN_POINTS",
]

#: the [power] table's fields a power sweep may vary
POWER_PARAMS = ("effect_size", "target", "power.effect_size", "power.target")

#: the integer-valued parameters (read off the step classes' declared domains)
INT_PARAMS = frozenset({"n", "family_size"}.union(*(c.integer_keys() for c in STEP_CLASSES.values())))


class Solution(NamedTuple):
    """An inverse solve: the boundary ``value``, the plan there, and whether it is the
    ``"largest"`` or ``"smallest"`` value meeting the target."""

    value: float
    plan: PlanResult
    direction: str


class SweepPoint(NamedTuple):
    """One point of a sweep: the value, γ there (None where no route is valid) and the route
    (or the reason none is valid)."""

    value: float
    gamma: float | None
    route: str


def _as_number(param: str, value: float | int | str, integer: bool) -> float | int:
    """A swept or solved value as the study file would hold it (refused if it cannot be)."""
    if isinstance(value, (str, bool)):
        raise PlanError(param, f"{value!r} is invalid: must be a number")
    v = float(value)
    if not math.isfinite(v):
        raise PlanError(param, f"{value!r} is invalid: must be a finite number")
    if integer:
        if v != math.floor(v):
            raise PlanError(param, f"{value!r} is invalid: must be an integer")
        return int(v)
    return v


def with_param(study: Study, param: str, value: float | int | str) -> Study:
    """The study with ``param`` set: ``n``, ``alpha``, a step field (``steps[i].field`` or a
    bare field name: the first step that has it; ``times`` is the first step's), or the
    ``[power]`` table's ``effect_size`` or ``target`` (``power.effect_size``). The value is
    validated exactly as in a study file (:class:`PlanError` naming the key otherwise)."""
    integer = param.split(".")[-1] in INT_PARAMS
    if param in POWER_PARAMS:  # the [power] table's effect size or target (power sweeps)
        key = param.removeprefix("power.")
        if study.power is None:
            raise PlanError(where(study.source, "power"), f"missing: {param} is a field of the [power] table")
        try:
            num = _as_number(param, value, False)
            spec = replace(study.power, effect_size=num) if key == "effect_size" else replace(study.power, target=num)
            return replace(study, power=spec)
        except PlanError as exc:
            name = exc.name if exc.name.startswith("power.") else f"power.{exc.name}"
            raise PlanError(where(study.source, name), exc.allowed) from None
    try:
        if param == "n":  # a Thresholdout step's holdout_n, when it was the study's n, follows
            return study_at_n(study, check_n(_as_number(param, value, True)))
        if param == "alpha":
            return replace(study, alpha=check_alpha(_as_number(param, value, False)))
    except PlanError as exc:
        # the file's key of what was refused: the value itself, or what it conflicts with (a
        # target power at or below the new alpha is power.target's refusal)
        key = {"n": "data.n", "alpha": "test.alpha"}.get(exc.name, exc.name)
        raise PlanError(where(study.source, key), exc.allowed) from None
    idx: int | None = None
    fld = param
    if param.startswith("steps["):
        try:
            idx = int(param[6 : param.index("]")])
            fld = param[param.index("]") + 2 :]
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
        raise PlanError("--param", f"{param!r}: no step has this field; use n, alpha, times or a field of a step")
    st = study.steps[idx]
    if fld != "times" and fld not in st.params:
        raise PlanError("--param", f"steps[{idx}] ({st.type_name}) has no field {fld!r}")
    try:
        new = st.with_value(fld, _as_number(param, value, integer))
        steps = list(study.steps)
        steps[idx] = new
        return replace(study, steps=tuple(steps))
    except PlanError as exc:
        raise PlanError(where(study.source, step_key(idx, exc.name)), exc.allowed) from None


#: the smallest sweep spread over several processes: below it, starting them (about 0.3 s of
#: imports each) costs more than the points (a few ms each)
PARALLEL_MIN_POINTS = 256


class PowerSweepPoint(NamedTuple):
    """One point of a power sweep: the value and the power plan there (every route's power and
    required n; None where the study is refused at this value, with the reason)."""

    value: float
    plan: PowerPlan | None
    reason: str


def power_sweep(study: Study, param: str, values: Sequence[float], *, workers: int | None = 1) -> list[PowerSweepPoint]:
    """The power plan (:func:`~maxinfo_bounds.planning.recommend.plan_power`: each route's
    power at the point's n and its required n) at each value of ``param``; processes as
    :func:`sweep`. Needs the study's ``[power]`` table."""
    if study.power is None:
        raise PlanError(where(study.source, "power"), "missing: a power sweep needs the [power] table")
    if values:
        with_param(study, param, values[0])
    return _spread(_power_points, study, param, values, workers)


def _power_points(study: Study, param: str, values: Sequence[float]) -> list[PowerSweepPoint]:
    out: list[PowerSweepPoint] = []
    for v in values:
        try:
            out.append(PowerSweepPoint(float(v), plan_power(with_param(study, param, v)), ""))
        except PlanError as exc:
            out.append(PowerSweepPoint(float(v), None, str(exc)))
    return out


def _spread(
    fn: Callable[[Study, str, Sequence[float]], list[_P]],
    study: Study,
    param: str,
    values: Sequence[float],
    workers: int | None,
) -> list[_P]:
    """``fn`` over the values, on a process pool in contiguous blocks when there are enough."""
    if len(values) < PARALLEL_MIN_POINTS:
        if workers is not None:
            local_workers(workers)  # validated even where one process does the work
        return fn(study, param, values)
    # (the free cores are measured, 0.1 s of /proc/stat, only when a pool may be used)
    w = local_workers(workers)
    if w == 1:
        return fn(study, param, values)
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    size = -(-len(values) // (4 * w))  # four blocks a worker: the slow points spread out
    blocks = [list(values[i : i + size]) for i in range(0, len(values), size)]
    with ProcessPoolExecutor(max_workers=w, mp_context=multiprocessing.get_context("spawn")) as ex:
        parts = list(ex.map(fn, [study] * len(blocks), [param] * len(blocks), blocks))
    return [row for part in parts for row in part]


def sweep(study: Study, param: str, values: Sequence[float], *, workers: int | None = 1) -> list[SweepPoint]:
    """γ(α) at each value of ``param`` (None where the plan has no valid route, with the reason).

    ``workers``: processes to spread the points over (``None``: one per free CPU,
    :func:`~maxinfo_bounds.numeric.validate.free_cpus`). The points are
    independent; a sweep of at least :data:`PARALLEL_MIN_POINTS` points runs them in contiguous
    blocks on a process pool, with the same rows, in the same order, as one process gives. The
    processes are spawned (as the campaigns' are), so a script that asks for several must call
    this under ``if __name__ == "__main__":``; ``maxinfo plan --sweep`` uses one per free CPU."""
    if values:
        with_param(study, param, values[0])  # an unknown parameter is refused up front
    return _spread(_sweep_points, study, param, values, workers)


def _sweep_points(study: Study, param: str, values: Sequence[float]) -> list[SweepPoint]:
    out: list[SweepPoint] = []
    for v in values:
        try:
            r = plan(with_param(study, param, v))
            out.append(SweepPoint(float(v), r.gamma, r.route))
        except PlanError as exc:
            out.append(SweepPoint(float(v), None, str(exc)))
    return out


def solve(
    study: Study, param: str, target_gamma: float, *, lo: float | None = None, hi: float | None = None
) -> Solution:
    """The boundary value of ``param`` at which γ(α) still meets ``target_gamma``.

    γ is monotone in each parameter: it decreases in ``times`` and ``eps`` and increases in noise
    scales; in ``n`` it decreases for a fixed per-step eps (eps n grows) and increases where eps
    shrinks like 1/n (Thresholdout). The direction is read from γ at the two ends of the range,
    and the value returned is the largest (γ decreasing) or smallest (γ increasing) one meeting
    the target. Integer parameters are solved exactly (one step further fails); real ones by
    bisection to 10^-9 relative (:func:`maxinfo_bounds.search.boundary`, the calculator's one
    monotone search). Returns a :class:`Solution` (value, its plan, "largest" or "smallest"). Raises PlanError when
    no value in range meets the target, and when every value does (the boundary is outside the
    range: an edge of the range is never returned as an answer).

    The range is ``[lo, hi]``; by default integers from 1 to ``MAX_N`` (``n``), ``MAX_TIMES``
    (``times``) or 2^40, reals from 1e-12 (a ``delta`` from 1e-300) to 1 - 2^-40 (``alpha``,
    ``delta``) or 10^6.
    """
    t = TARGET_GAMMA.check_float(target_gamma)
    is_int = param.split(".")[-1] in INT_PARAMS
    fld = param.split(".")[-1]

    def gamma_at(v: float) -> float:
        try:
            return plan(with_param(study, param, v)).gamma
        except MaxinfoError:
            return -1.0

    if is_int:
        a: float = int(lo) if lo is not None else 1
        b: float = int(hi) if hi is not None else (MAX_TIMES if fld == "times" else MAX_N if fld == "n" else 2**40)
    else:
        # a delta lives far below 1e-12 (RRST Thm 3.1 needs delta << eps/n^2): from the smallest level
        a = float(lo) if lo is not None else (MIN_ALPHA if fld == "delta" else 1e-12)
        # levels and probabilities live in (0, 1): the search stays inside
        b = float(hi) if hi is not None else (1 - 2**-40 if fld in ("alpha", "delta") else 1e6)
    # an unknown parameter (or an end outside its domain) is refused up front, not reported as
    # "target not met": checked at the range's lower end, which is in every field's domain by
    # default (it was checked at 1, which refused every solve for a delta in (0, 1))
    with_param(study, param, int(a) if is_int else a)
    # gamma is monotone in each parameter; which way is read off the two ends
    ga, gb = gamma_at(a), gamma_at(b)
    increasing = gb > ga
    ok_end, bad_end = (b, a) if increasing else (a, b)
    if max(ga, gb) < t:
        best = b if gb >= ga else a
        try:
            why = f"gamma = {plan(with_param(study, param, best)).gamma:.6g}"
        except MaxinfoError as exc:
            why = f"no valid route ({str(exc).split(': ', 1)[-1]})"
        raise PlanError(
            "--target-gamma",
            f"{t!r} is not met for {param} anywhere in [{a!r}, {b!r}]; at the best end, {param} = {best!r}: {why}",
        )
    if min(ga, gb) >= t:
        raise PlanError(
            "--target-gamma",
            f"{t!r} is met over the whole range of {param}, "
            f"[{a!r}, {b!r}]: the boundary lies outside it (widen --lo/--hi)",
        )
    # the one monotone search, from the end that meets the target towards the one that does
    # not (which bounds it: reaching it raises, never returned); floats to 1e-9 relative
    v = boundary(
        lambda x: gamma_at(x) >= t,
        int(ok_end) if is_int else ok_end,
        up=not increasing,
        integer=is_int,
        limit=bad_end,
        first_step=1 if is_int else abs(bad_end - ok_end) / 2**20,
        rel_tol=1e-9,
    )
    if is_int:
        v = int(v)
    return Solution(v, plan(with_param(study, param, v)), "smallest" if increasing else "largest")


def _single_changes(study: Study, ok_plan: Callable[[Study], bool]) -> list[str]:
    """The nearest single changes of ``n``, then each step's numeric fields and ``times`` (the
    others fixed), with which ``ok_plan`` holds; parameters that no value fixes are left out."""
    from ..vacuity import suggest

    def ok(vals: dict[str, float]) -> bool:
        s = study
        for k, v in vals.items():
            if v != current[k]:
                s = with_param(s, k, v)
        return ok_plan(s)

    ranges: dict[str, tuple[float, float, bool]] = {"n": (1, MAX_N, True)}
    current: dict[str, float] = {"n": study.n}
    for i, st in enumerate(study.steps):
        for fld, v in [*st.params.items(), ("times", st.times)]:
            if isinstance(v, bool):
                continue
            key = f"steps[{i}].{fld}"
            hi = 1.0 if fld == "delta" else MAX_TIMES if fld == "times" else 1e12
            ranges[key] = (1 if fld in INT_PARAMS else 0.0, hi, fld in INT_PARAMS)
            current[key] = v
    return suggest(ok, current, ranges)


def fixes(study: Study) -> list[str]:
    """The nearest single changes that give a usable threshold (γ ≥ 2.2e-16; γ > 0 when the
    study names its test), one parameter at a time, the others fixed: ``n``, then each step's
    numeric fields and ``times``.

    For a study that is refused or whose threshold is vacuous; e.g. ``["steps[0].delta <=
    2.3e-14", "n <= 3100"]``. Parameters that no value fixes are left out."""
    from ..vacuity import gamma_problem

    # the one vacuity rule: with the study's test named ([power]), any positive threshold is
    # usable against its critical value; else it must reach 2.2e-16
    known = study.power is not None
    return _single_changes(study, lambda s: gamma_problem(plan(s).gamma, critical_value_known=known) is None)


def power_fixes(study: Study) -> list[str]:
    """The nearest single changes (``n``, a step's numbers, ``times``; the others fixed) with
    which adaptive reuse reaches the study's target power: the test at the certified γ(α) on all
    n records (issue 43: a usable threshold can still leave the power near 0). Needs a
    ``[power]`` table; a change where the plan is refused does not count."""
    from .power import power_at

    spec = study.power
    if spec is None:
        raise PlanError(where(study.source, "power"), "missing: the target power is the [power] table's")

    def ok(s: Study) -> bool:
        try:
            return power_at(spec, plan(s).gamma, s.n) >= spec.target
        except MaxinfoError:
            return False

    return _single_changes(study, ok)
