"""The one monotone search and the one float optimiser (maxinfo_bounds.search)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.optimize import minimize_scalar

from maxinfo_bounds.search import _bounded_brent, minimise

# functions of the kinds the calculator minimises: smooth, kinked, flat, huge, monotone,
# minimum at an end, several local minima
CASES = [
    (lambda x: (x - 0.3) ** 2, 0.0, 1.0),
    (lambda x: abs(x - 1.7) + 0.1 * x, -5.0, 5.0),
    (lambda x: math.exp(-x) + x / 50.0, 0.0, 400.0),
    (lambda x: 1e300 if x < 2.0 else (x - 3.0) ** 4, 0.0, 10.0),
    (lambda x: x, 0.0, 1.0),
    (lambda x: -x, 0.0, 1.0),
    (lambda x: math.sin(5 * x) + 0.1 * x, 0.0, 10.0),
    (lambda x: 3.0, -1.0, 1.0),
    (lambda x: math.log1p(x * x) - math.log(x), 1e-9, 1e3),
]


@pytest.mark.parametrize("case", range(len(CASES)))
@pytest.mark.parametrize("xatol", [1e-4, 1e-10, 1e-12])
def test_bounded_brent_is_scipys_iterate_for_iterate(case: int, xatol: float) -> None:
    """The transcription of fminbound (kept to spare the planner scipy.optimize's import)
    visits the same points as scipy's and so returns the same float."""
    f, lo, hi = CASES[case]
    seen: list[float] = []
    ref_seen: list[float] = []

    def ours(x: float) -> float:
        seen.append(x)
        return f(x)

    def theirs(x: float) -> float:
        ref_seen.append(float(x))
        return f(float(x))

    with np.errstate(all="ignore"):
        ref = minimize_scalar(theirs, bounds=(lo, hi), method="bounded", options={"xatol": xatol})
    got = _bounded_brent(ours, lo, hi, xatol)
    assert seen == ref_seen
    assert got == float(ref.x)


def test_minimise_finds_known_minima() -> None:
    # hand-computed minimisers
    (x,) = minimise(lambda x: (x - 0.3) ** 2, 0.0, 1.0)
    assert abs(x - 0.3) < 1e-8
    (x,) = minimise(lambda x: x * math.log(x), 1e-9, 1.0, xatol=1e-12)
    assert abs(x - math.exp(-1)) < 1e-7
    best, start = minimise(lambda x: math.cos(x), 0.0, 20.0, grid=41)
    # cos has minima at pi, 3 pi, 5 pi (all -1): the grid picks one of them, Brent refines it
    assert min(abs(best - m) for m in (math.pi, 3 * math.pi, 5 * math.pi)) < 1e-5
    assert minimise(lambda x: math.inf, 0.0, 1.0, grid=5) == []


ROOT_CASES = [
    (lambda x: x * x - 2.0, 0.0, 2.0),
    (lambda x: math.exp(x) - 1e5, -10.0, 40.0),
    (lambda x: math.log(x) + 700.0, 1e-310, 1.0),
    (lambda x: math.tanh(50 * (x - 0.123)), -1.0, 1.0),
    (lambda x: x**3, -1.0, 0.5),
    (lambda x: 1.0 if x > 0.3 else -1.0, 0.0, 1.0),  # a jump: bisection all the way
    (lambda x: -0.0 if x < 0.5 else 1.0, 0.0, 1.0),  # -0.0 at an end is a root
]


@pytest.mark.parametrize("case", range(len(ROOT_CASES)))
@pytest.mark.parametrize("tols", [(2e-12, 8.881784197001252e-16), (1e-300, 1e-15), (1e-15, 4 * np.finfo(float).eps)])
def test_brentq_is_scipys_iterate_for_iterate(case: int, tols: tuple[float, float]) -> None:
    from scipy.optimize import brentq as scipy_brentq

    from maxinfo_bounds.search import brentq

    f, lo, hi = ROOT_CASES[case]
    seen: list[float] = []
    ref_seen: list[float] = []
    xtol, rtol = tols
    outs = []
    for solve, log in ((scipy_brentq, ref_seen), (brentq, seen)):
        try:  # x^3 with xtol = 1e-300 does not converge in 500 steps: both say so
            outs.append(
                solve(
                    lambda x, log=log: (log.append(float(x)), f(float(x)))[1], lo, hi, xtol=xtol, rtol=rtol, maxiter=500
                )
            )
        except RuntimeError:
            outs.append("no convergence")
    assert seen == ref_seen
    assert outs[0] == outs[1]


def test_brentq_refuses_like_scipy() -> None:
    from maxinfo_bounds.search import brentq

    with pytest.raises(ValueError, match="different signs"):
        brentq(lambda x: x * x + 1.0, -1.0, 1.0)
    with pytest.raises(ValueError, match="NaN"):
        brentq(lambda x: math.nan if x > 0 else -1.0, -1.0, 1.0)
    with pytest.raises(RuntimeError, match="converge"):
        brentq(lambda x: x - 0.1, -1.0, 1.0, maxiter=2)
    with pytest.raises(ValueError, match="rtol"):
        brentq(lambda x: x, -1.0, 1.0, rtol=1e-17)


def test_brentq_with_numpy_tolerances_stays_in_python_floats() -> None:
    """A numpy float64 tolerance (callers pass 4 * np.finfo(float).eps) must not turn the
    iterate into a numpy scalar: 0/0 in the extrapolation then warns instead of bisecting
    (found by the Russo-Zou property test at alpha = 1.5e-159, m = 1)."""
    from maxinfo_bounds.search import brentq

    with np.errstate(all="raise"):
        x = brentq(
            lambda x: 1.0 if x > 0.3 else -1.0,
            0.0,
            1.0,
            xtol=np.float64(1e-15),
            rtol=4 * np.finfo(float).eps,
            maxiter=500,
        )
    assert type(x) is float and abs(x - 0.3) < 1e-14


def test_bisect_floats_ends_at_adjacent_floats_or_at_the_tolerance() -> None:
    from maxinfo_bounds.search import bisect_floats

    # to adjacent floats: the last double whose double square is <= 2 is 1.4142135623730951
    # (the double nearest sqrt(2) = 1.41421356237309504880...; its square rounds to 2.0000000000000004,
    # above 2, so the answer is the double below it, the doctest's 1.414213562373095)
    x = bisect_floats(lambda v: v * v <= 2.0, 1.0, 2.0)
    assert x == 1.414213562373095 and x * x <= 2.0 and math.nextafter(x, 3.0) ** 2 > 2.0
    # across orders of magnitude the midpoint is geometric: 10^-300 .. 10^300 in about 64 steps
    calls: list[float] = []

    def pred(v: float) -> bool:
        calls.append(v)
        return v <= 1e-200

    y = bisect_floats(pred, 1e-300, 1e300)
    assert y == 1e-200 or (y < 1e-200 < math.nextafter(y, 1.0))
    assert len(calls) <= 64
    # a relative tolerance stops early, on the passing side, within it of the boundary pi
    # (with none, the answer is the double nearest pi's lower neighbour or pi's double itself)
    z = bisect_floats(lambda v: v <= 3.141592653589793, 1.0, 8.0, 1e-6)
    assert z <= 3.141592653589793 and 3.141592653589793 - z <= 1e-6 * 3.2 and z < 3.14159265358
    assert bisect_floats(lambda v: v <= 3.141592653589793, 1.0, 8.0) == 3.141592653589793
    # the direction may run downwards: the last float from 8 towards 1 with v >= 3
    assert bisect_floats(lambda v: v >= 3.0, 8.0, 1.0) == 3.0
