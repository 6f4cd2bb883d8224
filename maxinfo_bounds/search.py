"""One monotone search for the whole calculator.

Every "how far can I go?" question here is the boundary of a monotone predicate: the largest
``eps`` or ``n`` that still meets a target (the inverse solvers, the planner's ``solve``), or the
first float past an estimate at which a certified check holds (certifying a root found by
scipy). :func:`boundary` answers all of them the same way:

1. **exponential search** from a point where the predicate's value is known, moving in one
   direction with a step that grows geometrically (``growth``), until the predicate flips;
   if it has not flipped at ``limit`` it raises :class:`SearchEdge` — an answer is never the
   edge of a bracket;
2. **bisection** between the last point before the flip and the first after it, on the
   integers or on the order of the floats (so the midpoint is geometric across orders of
   magnitude and the end is two adjacent floats), stopped early at ``rel_tol`` if given.

We wrote this rather than use :func:`scipy.optimize.brentq` (which the float estimates do use):
the predicate here is a certified check, not a continuous function with a sign change, and the
answer must be a point where the certified check holds.

>>> boundary(lambda x: x * x <= 2.0, 1.0)   # largest float whose float square is <= 2
1.414213562373095
>>> boundary(lambda n: n * n <= 10**6, 1, integer=True)
1000
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

__all__ = ["SearchEdge", "boundary", "brentq", "first_true", "minimise"]


def brentq(f: Callable[[float], float], a: float, b: float, **kwargs: Any) -> float:
    """:func:`scipy.optimize.brentq`, imported on first use (scipy.optimize costs about 0.6 s
    of CPU at import; a plan that needs no root never pays it)."""
    from scipy.optimize import brentq as scipy_brentq

    out: float = scipy_brentq(f, a, b, **kwargs)
    return out

Num = TypeVar("Num", int, float)


class SearchEdge(ArithmeticError):
    """The predicate did not flip before the search limit: no boundary in range."""


def _ord(x: float) -> int:
    """An integer with the order of the floats (adjacent floats are adjacent integers)."""
    if x < 0:
        return -_ord(-x)
    out: int = struct.unpack("<q", struct.pack("<d", x + 0.0))[0]
    return out


def _from_ord(i: int) -> float:
    if i < 0:
        return -_from_ord(-i)
    out: float = struct.unpack("<d", struct.pack("<q", i))[0]
    return out


def _bisect(pred: Callable[[Num], bool], yes: Num, no: Num, integer: bool,
            rel_tol: float) -> Num:
    """The last point from ``yes`` (pred True) towards ``no`` (pred False) where pred holds."""
    if integer:
        a, b = int(yes), int(no)
        while abs(b - a) > 1:
            mid = (a + b) // 2
            if pred(mid):
                a = mid
            else:
                b = mid
        return a
    a_o, b_o = _ord(float(yes)), _ord(float(no))
    while abs(b_o - a_o) > 1:
        a_f, b_f = _from_ord(a_o), _from_ord(b_o)
        if rel_tol and abs(b_f - a_f) <= rel_tol * max(abs(a_f), abs(b_f)):
            break
        mid = (a_o + b_o) // 2
        if pred(_from_ord(mid)):  # type: ignore[arg-type]
            a_o = mid
        else:
            b_o = mid
    return _from_ord(a_o)  # type: ignore[return-value]


def boundary(pred: Callable[[Num], bool], good: Num, *, up: bool = True, integer: bool = False,
             first_step: float | None = None, growth: float = 2.0,
             limit: float | None = None, rel_tol: float = 0.0) -> Num:
    """The last point, going from ``good`` (where ``pred`` holds) in one direction, at which a
    monotone ``pred`` still holds (``pred`` True up to the boundary and False beyond it).

    ``first_step``: the first distance tried (default: 1 for integers, one ulp for floats);
    the distance then grows by ``growth``. ``limit``: where to stop looking (default 2^200 for
    integers, the largest float for floats); reaching it with ``pred`` still True raises
    :class:`SearchEdge`. ``rel_tol``: stop bisecting floats when the bracket is that narrow
    (0: to adjacent floats).
    """
    if not pred(good):
        raise ValueError("boundary: the predicate must hold at the starting point")
    sign = 1 if up else -1
    if limit is None:
        limit = (2**200 if integer else 1.7976931348623157e308) * sign
    step = first_step if first_step is not None else (1 if integer else
                                                      math.ulp(float(good)) or 2.0**-1074)
    kind = int if integer else float
    yes: Num = good
    while True:
        cand: Num = kind(yes + sign * step)  # type: ignore[assignment]
        at_limit = (cand - limit) * sign >= 0
        if at_limit:
            cand = kind(limit)  # type: ignore[assignment]
        if not pred(cand):
            return _bisect(pred, yes, cand, integer, rel_tol)
        if at_limit:
            raise SearchEdge(f"the predicate still holds at the search limit {limit!r}")
        yes = cand
        step = max(int(step * growth), int(step) + 1) if integer else step * growth


def first_true(start: float, ok: Callable[[float], bool], *, up: bool,
               rel_step: float = 0.0, lo: float = 0.0) -> float:
    """The float at the boundary of a monotone certified check ``ok``, on its passing side,
    found from an estimate ``start``.

    ``up=True``: ``ok`` holds above the boundary (the smallest passing float is returned);
    ``up=False``: below it (the largest). Used to certify a float estimate (a root from scipy):
    from ``start`` the steps begin at one ulp (or ``rel_step * |start|`` if larger, for
    expensive checks whose estimate is known to be off by many ulps) and double until the
    check flips; the bracket is then bisected to adjacent floats. So the answer is as tight as
    the check, whichever side of the boundary the estimate fell on. ``lo`` (``up=True``): the
    smallest value to try (the check must be defined there).

    >>> first_true(1.0, lambda x: x * x >= 2.0, up=True)      # smallest float whose square >= 2
    1.4142135623730951
    >>> first_true(2.0, lambda x: x * x >= 2.0, up=True)      # from the passing side: the same
    1.4142135623730951
    """
    step = max(math.ulp(start) if start != 0.0 else 2.0**-1074, rel_step * abs(start))
    if ok(start):   # tighten towards the failing side
        try:
            return boundary(ok, start, up=not up, first_step=step,
                            limit=lo if up else 1.7976931348623157e308)
        except SearchEdge:   # the check holds all the way to the limit
            return lo if up else 1.7976931348623157e308
    sign = 1.0 if up else -1.0
    x = start
    for _ in range(2200):
        y = x + sign * step
        if ok(y):
            return _bisect(ok, y, x, False, 0.0)
        x, step = y, step * 2
    raise SearchEdge("first_true: the certified check never held")  # pragma: no cover


def minimise(f: Callable[[float], float], lo: float, hi: float, *, grid: int = 0,
             xatol: float = 1e-10) -> list[float]:
    """The one float optimiser of the calculator's free parameters (beta, t, delta_hat, k, ...).

    Minimises a float surrogate ``f`` on ``[lo, hi]``: with ``grid`` > 1, the best of ``grid``
    equally spaced points, then :func:`scipy.optimize.minimize_scalar` (bounded Brent) within
    one grid cell either side; with ``grid`` = 0, Brent on the whole interval. Returns the
    candidates worth certifying, best first: the refined point (and the grid point it
    started from). Returns ``[]`` when ``f`` is infinite at every grid point.

    It is never trusted: every caller certifies each candidate (interval arithmetic) and
    keeps the best certified one, so an optimiser error costs tightness, never soundness.

    >>> [round(x, 6) for x in minimise(lambda x: (x - 0.3) ** 2, 0.0, 1.0)]
    [0.3]
    >>> [round(x, 6) for x in minimise(lambda x: (x - 0.3) ** 2, 0.0, 1.0, grid=11)]
    [0.3, 0.3]
    """
    if grid > 1:
        pts = np.linspace(lo, hi, grid)
        start = float(min(pts, key=f))
        if not math.isfinite(f(start)):
            return []
        step = (hi - lo) / (grid - 1)
        lo, hi = max(lo, start - step), min(hi, start + step)
    # Brent's parabola step overflows (harmlessly) where f is huge: no warning reaches the user
    with np.errstate(all="ignore"):
        from scipy.optimize import minimize_scalar  # on first use (see brentq)

        res = minimize_scalar(f, bounds=(lo, hi), method="bounded", options={"xatol": xatol})
    return [float(res.x), start] if grid > 1 else [float(res.x)]
