"""Certify an inequality g(params) >= 0 over a box, or refute it with a concrete point.

The claim is a sympy expression; it is evaluated in interval arithmetic (``mpmath.iv`` at
``prec`` bits) on boxes, with adaptive subdivision:

* a box where the enclosure of g is >= 0 is certified;
* a box where g < 0 everywhere (and every constraint certainly holds) refutes the claim; the
  box's midpoint is re-checked at 50 digits and returned as the counterexample;
* where a partial derivative has a certified sign (and every constraint holds on the whole box),
  the box is reduced to the face where g is smallest (monotonicity), down to points; a point with
  rational coordinates is decided exactly
  by sympy (so equality cases on the boundary, e.g. g(1/4) = 0, are certified, not left open);
* otherwise the box is split along its widest coordinate (in log scale for coordinates spanning
  decades).

A claim whose g touches 0 at an interior point (a double root) cannot be closed by enclosures;
such claims are stated on the range the paper needs or end ``undecided``, never certified by a
tolerance.

Coupling constraints (c_j(params) >= 0) restrict the domain: boxes where some constraint is
certainly violated are dropped, and a refutation needs every constraint to hold at the point.
The result is ``certified`` (every box closed), ``refuted`` (a point, with g's 50-digit value, and
the hull of the refuted boxes) or ``undecided`` (the box budget ran out; what was tried is said).

>>> import sympy
>>> x = sympy.Symbol("x", positive=True)
>>> certify_inequality(sympy.exp(x) - 1 - x, {"x": (0.0, 5.0)}).status   # e^x >= 1 + x, = at 0
'certified'
>>> v = certify_inequality(72 * x**2 - 6 * x * (sympy.exp(6 * x) - 1), {"x": (0.01, 0.5)})
>>> v.status, round(v.counterexample["x"], 2) > 0.2094
('refuted', True)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import mpmath
import sympy

__all__ = ["Verdict", "certify_inequality", "check_identity"]

_IV_FUNCS = {"exp": "exp", "log": "log", "sqrt": "sqrt", "Abs": "absmin", "sin": "sin", "cos": "cos"}


@dataclass
class Verdict:
    """The outcome of one check."""

    status: str  # certified | refuted | undecided
    boxes: int = 0
    counterexample: dict[str, float] | None = None
    value_at_counterexample: float | None = None
    refuted_region: dict[str, tuple[float, float]] | None = None
    detail: str = ""
    seconds: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)


def _iv_namespace() -> dict[str, Any]:
    iv = mpmath.iv
    ns: dict[str, Any] = {
        "exp": iv.exp,
        "log": iv.log,
        "sqrt": iv.sqrt,
        "pi": iv.pi,
        "E": iv.e,
        "e": iv.e,
        "sin": iv.sin,
        "cos": iv.cos,
        "mpf": iv.mpf,
    }
    ns["Abs"] = abs
    ns["Min"] = lambda *a: _iv_min(*a)
    ns["Max"] = lambda *a: _iv_max(*a)
    return ns


def _iv_min(*a: Any) -> Any:
    lo = min(x.a for x in a)
    hi = min(x.b for x in a)
    return mpmath.iv.mpf([lo, hi])


def _iv_max(*a: Any) -> Any:
    lo = max(x.a for x in a)
    hi = max(x.b for x in a)
    return mpmath.iv.mpf([lo, hi])


def _compile(expr: sympy.Expr, names: Sequence[str]) -> tuple[Any, Any]:
    syms = [sympy.Symbol(n) for n in names]
    # rebuild with plain symbols (assumptions differ otherwise)
    expr = expr.subs({s: sympy.Symbol(s.name) for s in expr.free_symbols})
    f_iv = sympy.lambdify(syms, expr, modules=[_iv_namespace(), "mpmath"])
    f_mp = sympy.lambdify(syms, expr, modules="mpmath")
    return f_iv, f_mp


def _to_iv(lo: float, hi: float) -> Any:
    return mpmath.iv.mpf([mpmath.mpf(lo), mpmath.mpf(hi)])


def _split_point(lo: float, hi: float) -> float:
    if lo > 0 and hi / lo > 8:
        return math.sqrt(lo * hi)
    return (lo + hi) / 2


def certify_inequality(
    g: sympy.Expr,
    box: Mapping[str, tuple[float, float]],
    *,
    constraints: Sequence[sympy.Expr] = (),
    max_boxes: int = 20_000,
    prec: int = 96,
    min_width: float = 1e-13,
) -> Verdict:
    """Decide g >= 0 on ``box`` (names -> closed ranges) subject to ``constraints`` (each >= 0)."""
    t0 = time.monotonic()
    names = list(box)
    plain = {s: sympy.Symbol(s.name) for s in g.free_symbols}
    g = g.subs(plain)
    cons = [c.subs({s: sympy.Symbol(s.name) for s in c.free_symbols}) for c in constraints]
    unknown = {s.name for s in g.free_symbols} - set(names)
    if unknown:
        raise ValueError(f"box: no range for {sorted(unknown)}")
    f_iv, f_mp = _compile(g, names)
    c_fs = [_compile(c, names) for c in cons]
    # derivatives in factored form: fewer repeated occurrences, tighter enclosures of their sign
    derivs = [_compile(_tidy(sympy.diff(g, sympy.Symbol(n))), names)[0] for n in names]
    old = mpmath.iv.prec
    mpmath.iv.prec = prec
    queue: list[dict[str, tuple[float, float]]] = [dict(box)]
    refuted: list[dict[str, tuple[float, float]]] = []
    n_boxes = 0
    worst: tuple[float, dict[str, float]] | None = None
    try:
        while queue:
            b = queue.pop()
            n_boxes += 1
            if n_boxes > max_boxes:
                return _undecided(f_mp, c_fs, names, box, n_boxes, t0, worst, f"box budget {max_boxes} spent")
            args = [_to_iv(*b[n]) for n in names]
            feasible_all = True
            skip = False
            for c_iv, _ in c_fs:
                cv = _safe(c_iv, args)
                if cv is None:
                    feasible_all = False
                elif cv.b < 0:
                    skip = True
                    break
                elif cv.a < 0:
                    feasible_all = False
            if skip:
                continue
            gv = _safe(f_iv, args)
            if gv is not None and gv.a >= 0:
                continue
            if gv is not None and gv.b < 0 and feasible_all:
                refuted.append(b)
                mid = {n: (b[n][0] + b[n][1]) / 2 for n in names}
                val = _mp_value(f_mp, mid, names)
                if val < 0:
                    worst = (float(val), mid) if worst is None or val < worst[0] else worst
                continue
            # a point box with rational coordinates: decide exactly
            if all(b[n][0] == b[n][1] for n in names):
                pt = {n: b[n][0] for n in names}
                ex = sympy.nsimplify(g.subs({sympy.Symbol(n): sympy.Rational(Fraction(v)) for n, v in pt.items()}))
                val_ex = sympy.N(ex, 60)
                if ex == 0 or val_ex >= 0:
                    continue
                if _feasible_point(c_fs, pt, names):
                    worst = (float(val_ex), pt)
                    refuted.append(b)
                continue
            # monotonicity: move to the face where g is smallest (only where every constraint
            # holds on the whole box: otherwise that face may lie outside the domain)
            reduced = False
            for j, n in enumerate(names if feasible_all else ()):
                if b[n][0] == b[n][1]:
                    continue
                dv = _safe(derivs[j], args)
                if dv is None:
                    continue
                if dv.a >= 0 or dv.b <= 0:
                    face = dict(b)
                    v = b[n][0] if dv.a >= 0 else b[n][1]
                    face[n] = (v, v)
                    queue.append(face)
                    reduced = True
                    break
            if reduced:
                continue
            # split the widest coordinate (log scale across decades)
            widths = {n: (math.log(b[n][1] / b[n][0]) if b[n][0] > 0 else b[n][1] - b[n][0]) for n in names}
            n = max(widths, key=lambda k: widths[k])
            lo, hi = b[n]
            if hi - lo <= min_width * max(1.0, abs(hi)):
                mid = {k: (b[k][0] + b[k][1]) / 2 for k in names}
                val = _mp_value(f_mp, mid, names)
                if val < 0 and _feasible_point(c_fs, mid, names):
                    worst = (float(val), mid) if worst is None or val < worst[0] else worst
                    refuted.append(b)
                    continue
                return _undecided(
                    f_mp,
                    c_fs,
                    names,
                    box,
                    n_boxes,
                    t0,
                    worst,
                    f"a box narrower than {min_width:g} stays open near {mid}",
                )
            m = _split_point(lo, hi)
            queue.append({**b, n: (lo, m)})
            queue.append({**b, n: (m, hi)})
    finally:
        mpmath.iv.prec = old
    if worst is not None:
        hull = {n: (min(r[n][0] for r in refuted), max(r[n][1] for r in refuted)) for n in names}
        return Verdict(
            "refuted",
            n_boxes,
            worst[1],
            worst[0],
            hull,
            "g < 0 at the counterexample (50 digits)",
            time.monotonic() - t0,
        )
    return Verdict(
        "certified", n_boxes, detail=f"{n_boxes} boxes at {prec}-bit intervals", seconds=time.monotonic() - t0
    )


def _tidy(d: sympy.Expr) -> sympy.Expr:
    """factor(together(d)) when that is cheap to get; d itself otherwise."""
    if sympy.count_ops(d) > 200:
        return d
    try:
        return sympy.factor(sympy.together(d))
    except (sympy.PolynomialError, TypeError, ValueError):  # pragma: no cover
        return d


def _safe(f: Any, args: Sequence[Any]) -> Any:
    try:
        v = f(*args)
    except (ZeroDivisionError, ValueError, TypeError):
        return None
    if not isinstance(v, mpmath.ctx_iv.ivmpf):
        v = mpmath.iv.mpf(v)
    if mpmath.isnan(v.a) or mpmath.isnan(v.b):
        return None
    return v


def _mp_value(f_mp: Any, pt: Mapping[str, float], names: Sequence[str]) -> Any:
    with mpmath.workdps(50):
        try:
            return f_mp(*[mpmath.mpf(pt[n]) for n in names])
        except (ZeroDivisionError, ValueError):
            return mpmath.mpf(0)


def _feasible_point(c_fs: Sequence[tuple[Any, Any]], pt: Mapping[str, float], names: Sequence[str]) -> bool:
    return all(_mp_value(cf[1], pt, names) >= 0 for cf in c_fs)


def _undecided(
    f_mp: Any,
    c_fs: Sequence[tuple[Any, Any]],
    names: Sequence[str],
    box: Mapping[str, tuple[float, float]],
    n_boxes: int,
    t0: float,
    worst: tuple[float, dict[str, float]] | None,
    why: str,
) -> Verdict:
    """Before giving up, search 2,000 random points (seeded) for a counterexample."""
    rng = random.Random(20261122)
    best = worst
    for _ in range(2000):
        pt = {}
        for n in names:
            lo, hi = box[n]
            if lo > 0 and hi / lo > 8:
                pt[n] = math.exp(rng.uniform(math.log(lo), math.log(hi)))
            else:
                pt[n] = rng.uniform(lo, hi)
        v = _mp_value(f_mp, pt, names)
        if v < 0 and _feasible_point(c_fs, pt, names) and (best is None or v < best[0]):
            best = (float(v), pt)
    if best is not None:
        return Verdict(
            "refuted",
            n_boxes,
            best[1],
            best[0],
            None,
            f"g < 0 at the counterexample (50 digits); certification: {why}",
            time.monotonic() - t0,
        )
    return Verdict(
        "undecided",
        n_boxes,
        detail=f"{why}; 2,000 random points found no counterexample",
        seconds=time.monotonic() - t0,
    )


def check_identity(
    lhs: sympy.Expr, rhs: sympy.Expr, box: Mapping[str, tuple[float, float]], *, points: int = 50
) -> Verdict:
    """lhs == rhs: sympy simplification of the difference, cross-checked at random points of
    the box at 50 digits (seeded)."""
    t0 = time.monotonic()
    diff = sympy.simplify(lhs - rhs)
    if diff != 0:  # positive quantities: compare logarithms with the log rules expanded
        try:
            ld = sympy.simplify(sympy.expand_log(sympy.log(lhs) - sympy.log(rhs), force=True))
            if ld == 0:
                diff = sympy.Integer(0)
        except (TypeError, ValueError):  # pragma: no cover - sympy could not take the logs
            pass
    rng = random.Random(7)
    names = sorted(box)
    f = sympy.lambdify(
        [sympy.Symbol(n) for n in names],
        (lhs - rhs).subs({s: sympy.Symbol(s.name) for s in (lhs - rhs).free_symbols}),
        modules="mpmath",
    )
    worst = mpmath.mpf(0)
    with mpmath.workdps(50):
        for _ in range(points):
            pt = [mpmath.mpf(rng.uniform(*box[n])) for n in names]
            try:
                worst = max(worst, abs(f(*pt)))
            except (ZeroDivisionError, ValueError):
                continue
    numeric_ok = worst < mpmath.mpf(10) ** -40
    if diff == 0 and numeric_ok:
        return Verdict(
            "certified",
            points,
            detail=f"sympy: difference simplifies to 0; max |difference| at {points} random points {float(worst):.2g}",
            seconds=time.monotonic() - t0,
        )
    if not numeric_ok:
        return Verdict(
            "refuted",
            points,
            detail=f"|lhs - rhs| reaches {float(worst):.3g}",
            value_at_counterexample=float(worst),
            seconds=time.monotonic() - t0,
        )
    return Verdict(
        "undecided",
        points,
        detail=f"sympy did not simplify the difference to 0 ({diff}); numerically 0 at {points} points",
        seconds=time.monotonic() - t0,
    )
