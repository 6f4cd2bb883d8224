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

Why one module over 400 lines: the one monotone search, the one float optimiser and Brent's
root finder (transcribed from scipy so that scipy.optimize stays off the CLI's start-up); each
is the only copy the package has, and they share the bracket-edge conventions.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable
from typing import TypeVar

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "SearchEdge",
    "boundary",
    "brentq",
    "root",
    "first_true",
    "first_true_int",
    "bisect_floats",
    "minimise",
    "minimise_nd",
    "nearest_passing",
]


def brentq(
    f: Callable[[float], float],
    a: float,
    b: float,
    *,
    xtol: float = 2e-12,
    rtol: float = 8.881784197001252e-16,
    maxiter: int = 100,
) -> float:
    """A root of ``f`` bracketed by ``[a, b]``: :func:`scipy.optimize.brentq`, step for step
    (Brent's method with scipy's extrapolation, transcribed from scipy's BSD ``brentq.c``).

    Transcribed rather than imported: importing :mod:`scipy.optimize` costs 0.35-0.65 s of CPU,
    more than everything else a ``maxinfo plan`` call does, and the root finder and
    :func:`minimise` are its only uses on the calculator's path. ``tests/test_search.py``
    holds it against scipy's iterate for iterate. Raises ``ValueError`` like scipy when
    ``f(a)`` and ``f(b)`` have the same sign or ``f`` is NaN, ``RuntimeError`` when it has not
    converged in ``maxiter`` steps. Float estimates only: every caller certifies the root.

    >>> abs(brentq(lambda x: x * x - 2.0, 0.0, 2.0) - 2**0.5) < 2e-12   # within xtol
    True
    """
    xtol, rtol = float(xtol), float(rtol)  # Python floats throughout (C's IEEE semantics)
    if xtol <= 0:
        raise ValueError(f"xtol too small ({xtol:g} <= 0)")
    if rtol < 8.881784197001252e-16:
        raise ValueError(f"rtol too small ({rtol:g} < 8.881784197001252e-16)")

    def fx(x: float) -> float:
        v = float(f(x))
        if v != v:
            raise ValueError(f"The function value at x={x} is NaN; solver cannot continue.")
        return v

    xpre, xcur = float(a), float(b)
    fpre, fcur = fx(xpre), fx(xcur)
    if fpre == 0:
        return xpre
    if fcur == 0:
        return xcur
    if _neg(fpre) == _neg(fcur):
        raise ValueError("f(a) and f(b) must have different signs")
    xblk = fblk = spre = scur = 0.0
    for _ in range(maxiter):
        if fpre != 0 and fcur != 0 and _neg(fpre) != _neg(fcur):
            xblk, fblk = xpre, fpre
            spre = scur = xcur - xpre
        if abs(fblk) < abs(fcur):
            xpre, xcur, xblk = xcur, xblk, xcur
            fpre, fcur, fblk = fcur, fblk, fcur
        delta = (xtol + rtol * abs(xcur)) / 2
        sbis = (xblk - xcur) / 2
        if fcur == 0 or abs(sbis) < delta:
            return xcur
        if abs(spre) > delta and abs(fcur) < abs(fpre):
            try:
                if xpre == xblk:  # interpolate
                    stry = -fcur * (xcur - xpre) / (fcur - fpre)
                else:  # extrapolate
                    dpre = (fpre - fcur) / (xpre - xcur)
                    dblk = (fblk - fcur) / (xblk - xcur)
                    stry = -fcur * (fblk * dblk - fpre * dpre) / (dblk * dpre * (fblk - fpre))
            except ZeroDivisionError:  # C gets inf or NaN here, and so bisects
                stry = math.inf
            if 2 * abs(stry) < min(abs(spre), 3 * abs(sbis) - delta):  # good short step
                spre, scur = scur, stry
            else:
                spre = scur = sbis
        else:
            spre = scur = sbis
        xpre, fpre = xcur, fcur
        xcur += scur if abs(scur) > delta else (delta if sbis > 0 else -delta)
        fcur = fx(xcur)
    raise RuntimeError(f"Failed to converge after {maxiter} iterations, value is {xcur}.")


def root(f: Callable[[float], float], a: float, b: float, *, xtol: float = 1e-300, rtol: float = 1e-15) -> float:
    """A root of ``f`` bracketed by ``[a, b]`` (``f(a)`` and ``f(b)`` of opposite signs):
    :func:`brentq`, and where Brent stalls (a surrogate flat between kinks, or infinite past
    the end of a privacy curve, where its interpolation steps are NaN) bisection to ``rtol``,
    which always converges. Float estimates only: every caller certifies the root.

    >>> abs(root(lambda x: 1.0 - x * x, 0.0, 2.0) - 1.0) < 1e-15
    True
    """
    try:
        return float(brentq(f, a, b, xtol=xtol, rtol=rtol))
    except RuntimeError:
        pos = f(a) > 0
        lo, up = float(a), float(b)
        while up - lo > max(rtol * max(abs(lo), abs(up)), xtol):
            mid = (lo + up) / 2
            if mid in (lo, up):
                break
            lo, up = (mid, up) if (f(mid) > 0) == pos else (lo, mid)
        return up


def _neg(x: float) -> bool:
    """C's signbit: True for negative numbers and -0.0."""
    return math.copysign(1.0, x) < 0


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


def _bisect(pred: Callable[[Num], bool], yes: Num, no: Num, integer: bool, rel_tol: float) -> Num:
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


def bisect_floats(pred: Callable[[float], bool], yes: float, no: float, rel_tol: float = 0.0) -> float:
    """The last float from ``yes`` (where ``pred`` holds) towards ``no`` (where it fails) at
    which ``pred`` holds, by bisection on the floats' order (so the midpoint is geometric across
    orders of magnitude), stopped at adjacent floats or, if given, a relative ``rel_tol``.
    For a bracket the caller has already found; :func:`boundary` finds one and then bisects.

    >>> bisect_floats(lambda x: x * x <= 2.0, 1.0, 2.0)
    1.414213562373095
    """
    return float(_bisect(pred, yes, no, False, rel_tol))


def boundary(
    pred: Callable[[Num], bool],
    good: Num,
    *,
    up: bool = True,
    integer: bool = False,
    first_step: float | None = None,
    growth: float = 2.0,
    limit: float | None = None,
    rel_tol: float = 0.0,
) -> Num:
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
    step = first_step if first_step is not None else (1 if integer else math.ulp(float(good)) or 2.0**-1074)
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


def nearest_passing(
    ok: Callable[[Num], bool],
    value: Num,
    *,
    lo: float,
    hi: float,
    integer: bool = False,
    factor: float = 4.0,
    steps: int = 40,
    rel_tol: float = 1e-6,
) -> list[Num]:
    """The points nearest ``value`` at which ``ok`` starts to hold, one per direction that has
    one (below ``value`` first), for an ``ok`` that fails at ``value``.

    From ``value`` (0 is scanned from 1e-12 for reals) the scan multiplies by ``factor`` up to
    ``steps`` times each way inside ``[lo, hi]``; where ``ok`` first holds, :func:`boundary`
    walks back towards ``value`` to the last point where it still holds (to ``rel_tol``), so
    the answer is a point where ``ok`` holds. ``ok`` may raise to mean "fails". Used to say
    which parameters make a vacuous result non-vacuous.

    >>> nearest_passing(lambda x: x <= 0.001, 1.0, lo=0.0, hi=1.0, rel_tol=0.0)
    [0.001]
    >>> nearest_passing(lambda n: n * n >= 50, 3, lo=1, hi=10**6, integer=True)
    [8]
    """

    def safe(x: Num) -> bool:
        try:
            return bool(ok(x))
        except (ArithmeticError, ValueError):
            return False

    found: list[Num] = []
    for up in (False, True):
        # no point of the range on this side: skipped (a value beyond an end of the range is
        # approached from that end by the other direction only, once, not twice)
        if (value >= hi) if up else (value <= lo):
            continue
        prev: Num = value
        x = float(value)
        for _ in range(steps):
            if x == 0:
                if not up:
                    break
                x = 1.0 if integer else 1e-12
            else:
                x = x * factor if up else x / factor
            if integer:
                x = float(math.ceil(x) if up else math.floor(x))
            if not lo <= x <= hi:
                x = hi if up else lo
                if integer and x == prev:  # (a clip onto the value itself: its side is skipped above)
                    break
            cand: Num = int(x) if integer else x  # type: ignore[assignment]
            if safe(cand):
                gap = abs(float(cand) - float(prev))
                try:
                    found.append(
                        boundary(
                            safe,
                            cand,
                            up=not up,
                            integer=integer,
                            limit=prev,
                            first_step=max(1, int(gap) // 64) if integer else gap / 64,
                            rel_tol=rel_tol,
                        )
                    )
                except SearchEdge:  # pragma: no cover - ok fails at prev by construction
                    found.append(cand)
                break
            if x in (lo, hi):
                break
            prev = cand
    return found


def first_true_int(ok: Callable[[int], bool], start: int, lo: int, hi: int) -> int:
    """The smallest integer c in [lo, hi] with ``ok(c)``, for ``ok`` False then True and
    ``ok(hi)`` True: :func:`boundary` galloping from ``start`` (the caller's estimate), then
    bisecting, so an estimate that is right costs two or three calls and a far-off one O(log n).
    Whatever ``ok`` does elsewhere, the answer c has ``ok(c)`` and not ``ok(c - 1)`` (or c = lo).

    >>> first_true_int(lambda c: c * c >= 50, 3, 0, 100)
    8
    """
    start = min(max(start, lo), hi)
    if ok(start):  # the last c going down where ok still holds
        return int(boundary(lambda c: c >= lo and ok(c), start, up=False, integer=True, limit=lo - 1))
    # the last c going up where ok still fails, and the next one
    return int(boundary(lambda c: c < hi and not ok(c), start, up=True, integer=True, limit=hi)) + 1


def first_true(start: float, ok: Callable[[float], bool], *, up: bool, rel_step: float = 0.0, lo: float = 0.0) -> float:
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
    if ok(start):  # tighten towards the failing side
        try:
            return boundary(ok, start, up=not up, first_step=step, limit=lo if up else 1.7976931348623157e308)
        except SearchEdge:  # the check holds all the way to the limit
            return lo if up else 1.7976931348623157e308
    sign = 1.0 if up else -1.0
    x = start
    for _ in range(2200):
        y = x + sign * step
        if ok(y):
            return _bisect(ok, y, x, False, 0.0)
        x, step = y, step * 2
    raise SearchEdge("first_true: the certified check never held")  # pragma: no cover


def minimise(f: Callable[[float], float], lo: float, hi: float, *, grid: int = 0, xatol: float = 1e-10) -> list[float]:
    """The one float optimiser of the calculator's free parameters (beta, t, delta_hat, k, ...).

    Minimises a float surrogate ``f`` on ``[lo, hi]``: with ``grid`` > 1, the best of ``grid``
    equally spaced points, then bounded Brent (:func:`_bounded_brent`, scipy's ``fminbound``) within
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
        x = _bounded_brent(f, lo, hi, xatol)
    return [x, start] if grid > 1 else [x]


def minimise_nd(
    f: Callable[[NDArray[np.float64]], float],
    x0: NDArray[np.float64],
    *,
    xatol: float = 1e-6,
    fatol: float = 1e-9,
    maxiter: int = 400,
) -> NDArray[np.float64]:
    """The several-variable counterpart of :func:`minimise` (the planner's betas of two or three
    stage families): scipy's Nelder–Mead from ``x0`` (imported on first use, as in
    :func:`brentq`), returning its point. Never trusted either: the planner compares it with
    ``x0`` on ``f`` and certifies what it keeps.

    >>> [round(float(v), 3) for v in minimise_nd(lambda x: (x[0] - 1) ** 2 + (x[1] + 2) ** 2,
    ...                                           np.zeros(2))]
    [1.0, -2.0]
    """
    from scipy.optimize import minimize

    res = minimize(f, x0, method="Nelder-Mead", options={"xatol": xatol, "fatol": fatol, "maxiter": maxiter})
    return np.asarray(res.x, dtype=np.float64)


def _bounded_brent(f: Callable[[float], float], a: float, b: float, xatol: float, maxiter: int = 500) -> float:
    """Brent's bounded minimisation (golden section with parabolic steps), step for step
    :func:`scipy.optimize.minimize_scalar` ``method="bounded"`` (``fminbound``; scipy's BSD
    code, transcribed).

    Transcribed rather than imported: importing :mod:`scipy.optimize` costs 0.35-0.65 s of CPU,
    more than everything else a ``maxinfo plan`` call does, and this is its only use on the
    planner's path. ``tests/test_search.py`` holds it against scipy's iterate for iterate.
    """
    sqrt_eps = math.sqrt(2.2e-16)
    golden_mean = 0.5 * (3.0 - math.sqrt(5.0))
    fulc = a + golden_mean * (b - a)
    nfc = xf = fulc
    rat = e = 0.0
    fx = f(xf)
    num = 1
    ffulc = fnfc = fx
    xm = 0.5 * (a + b)
    tol1 = sqrt_eps * abs(xf) + xatol / 3.0
    tol2 = 2.0 * tol1
    while abs(xf - xm) > (tol2 - 0.5 * (b - a)):
        golden = True
        if abs(e) > tol1:  # try a parabolic fit
            golden = False
            r = (xf - nfc) * (fx - ffulc)
            q = (xf - fulc) * (fx - fnfc)
            p = (xf - fulc) * q - (xf - nfc) * r
            q = 2.0 * (q - r)
            if q > 0.0:
                p = -p
            q = abs(q)
            r = e
            e = rat
            if abs(p) < abs(0.5 * q * r) and p > q * (a - xf) and p < q * (b - xf):
                rat = (p + 0.0) / q
                x = xf + rat
                if (x - a) < tol2 or (b - x) < tol2:
                    rat = tol1 * (_sign(xm - xf) + (xm - xf == 0))
            else:
                golden = True
        if golden:  # a golden-section step
            e = (a - xf) if xf >= xm else (b - xf)
            rat = golden_mean * e
        x = xf + (_sign(rat) + (rat == 0)) * max(abs(rat), tol1)
        fu = f(x)
        num += 1
        if fu <= fx:
            if x >= xf:
                a = xf
            else:
                b = xf
            fulc, ffulc = nfc, fnfc
            nfc, fnfc = xf, fx
            xf, fx = x, fu
        else:
            if x < xf:
                a = x
            else:
                b = x
            if fu <= fnfc or nfc == xf:
                fulc, ffulc = nfc, fnfc
                nfc, fnfc = x, fu
            elif fu <= ffulc or fulc == xf or fulc == nfc:
                fulc, ffulc = x, fu
        xm = 0.5 * (a + b)
        tol1 = sqrt_eps * abs(xf) + xatol / 3.0
        tol2 = 2.0 * tol1
        if num >= maxiter:
            break
    return float(xf)


def _sign(x: float) -> float:
    """numpy's sign of a float (0 at 0; NaN stays NaN)."""
    return 0.0 if x == 0 else (math.copysign(1.0, x) if x == x else x)
