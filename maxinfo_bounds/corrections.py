"""One-step p-value corrections: from a described selection step to the threshold to use.

Given what is known about the step that chose the test (pure DP, a mutual-information bound,
or a finite range of outputs), :func:`correct` tries every applicable route of the catalog,
optimises the free parameter (β) of each, certifies the final evaluation, and returns the
route with the largest corrected threshold γ(α), with its derivation. (Multi-step analyses are
the study planner's job.)

Optimisation uses :func:`scipy.optimize.minimize_scalar` on a float surrogate; only the final
candidate's evaluation is certified (any β gives a valid γ, so the optimiser needs no
certification, only the number returned does).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy.optimize import minimize_scalar

from .numeric import InvalidParameter, RegimeError, check_int, check_real
from .theorems.description import description_length_max_information
from .theorems.maxinfo_dp import pure_dp_max_information, pure_dp_max_information_product
from .theorems.pvalues import mi_pvalue_correction, pvalue_correction

__all__ = ["Correction", "correct"]


@dataclass(frozen=True)
class Correction:
    """A corrected threshold ``gamma`` (rounded down) and how it was obtained."""

    alpha: float
    gamma: float
    k: float | None
    beta: float | None
    route: tuple[str, ...]
    candidates: tuple[tuple[str, float], ...] = field(default=())
    notes: tuple[str, ...] = field(default=())

    def __str__(self) -> str:
        kb = "" if self.k is None else f", k={self.k!r} bits, beta={self.beta!r}"
        return f"gamma={self.gamma!r} at alpha={self.alpha!r}{kb} via {' -> '.join(self.route)}"

    def _repr_latex_(self) -> str:
        arrow = r" $\to$ "
        return rf"$\gamma({self.alpha!r}) = {self.gamma!r}$ via " + arrow.join(self.route)


def _best_beta(alpha: float, k_of_beta: Any) -> float:
    """β in (0, alpha) maximising log2(alpha - β) - k(β) (float surrogate; not certified)."""
    def neg(logb: float) -> float:
        b = math.exp(logb)
        if b >= alpha:
            return math.inf
        return -(math.log2(alpha - b) - float(k_of_beta(b)))

    res = minimize_scalar(neg, bounds=(math.log(1e-300), math.log(alpha) - 1e-12),
                          method="bounded", options={"xatol": 1e-9})
    grid = np.linspace(math.log(1e-300), math.log(alpha) - 1e-9, 64)
    best = min([float(res.x), *grid], key=neg)
    return math.exp(best)


def correct(alpha: float, *, eps: float | None = None, n: int | None = None, iid: bool = False,
            delta: float | None = None, mi_bits: float | None = None,
            range_size: int | None = None) -> Correction:
    """The largest certified γ(α) for one selection step described by what is known about it.

    Routes tried (each where its conditions hold):

    * ``eps`` and ``n``: RRST Thm 1.4a (any data) → Thm 1.3; with ``iid=True`` also
      Thm 1.4b with the best β (i.i.d. data) → Thm 1.3.
    * ``eps``, ``delta > 0`` and ``n`` (approximate DP): RRST Thm 3.1 (sound variant, t and δ̂
      optimised for each β, β optimised) → Thm 1.3, only with ``iid=True``: approximate DP
      gives no max-information bound for other data (RRST §4); without it the route is
      reported as unavailable.
    * ``mi_bits``: RRST Cor C.2, optimal variant.
    * ``range_size``: DFHPRR Thm 6 at β = α/2 (the exact optimum of (α − β)β/|Y|) → Thm 1.3.

    Several descriptions may be given at once (e.g. a DP step whose output is also a choice
    among ``range_size`` candidates); the best route wins.

    >>> c = correct(0.05, range_size=20)
    >>> c.route
    ('DFHPRR-6', 'RRST-1.3')
    >>> 3.12e-05 < c.gamma <= 3.125e-05      # alpha^2 / (4 * 20), hand
    True
    """
    a = float(check_real("alpha", alpha, low=0.0, high=1.0, low_open=True))
    cands: list[tuple[str, float, float | None, float | None, tuple[str, ...]]] = []
    notes: list[str] = []
    if delta is not None:
        if eps is None or n is None:
            raise InvalidParameter("eps" if eps is None else "n", None,
                                   "given with delta (an approximate DP step needs eps, delta, n)")
        if not iid:
            notes.append("approximate DP: no max-information bound without i.i.d. data "
                         "(RRST §4); pass iid=True if the records are i.i.d.")
        else:
            cands.append(_approx_dp_route(a, eps, delta, n))
    if (eps is not None or n is not None) and delta is None:
        if eps is None or n is None:
            raise InvalidParameter("eps" if eps is None else "n", None,
                                   "given together with the other (a pure DP step needs eps and n)")
        e = float(check_real("eps", eps, low=0.0, low_open=True))
        ni = check_int("n", n, low=1)
        k = pure_dp_max_information(e, ni).k
        cands.append(("pure DP, any data", pvalue_correction(a, k, 0.0), k, 0.0,
                      ("RRST-1.4a", "RRST-1.3")))
        if iid:
            lg = math.log2(math.e)
            b = _best_beta(a, lambda bb: lg * (e * e * ni / 2 + e * math.sqrt(ni * math.log(2 / bb) / 2)))
            kb = pure_dp_max_information_product(e, ni, b).k
            cands.append(("pure DP, i.i.d. data", pvalue_correction(a, kb, b), kb, b,
                          ("RRST-1.4b", "RRST-1.3")))
    if mi_bits is not None:
        cands.append(("mutual information", mi_pvalue_correction(a, mi_bits), None, None,
                      ("RRST-1.5a", "RRST-C.2")))
    if range_size is not None:
        m = check_int("range_size", range_size, low=1)
        b = a / 2
        kd = description_length_max_information(m, b).k
        cands.append(("description length", pvalue_correction(a, kd, b), kd, b,
                      ("DFHPRR-6", "RRST-1.3")))
    if not cands:
        raise InvalidParameter("description", None,
                               "at least one applicable route (eps and n; eps, delta, n with iid; "
                               "mi_bits; or range_size)" + (f" -- {notes[0]}" if notes else ""))
    name, g, k_, b_, route = max(cands, key=lambda c: c[1])
    return Correction(alpha=a, gamma=g, k=k_, beta=b_, route=route,
                      candidates=tuple((c[0], c[1]) for c in cands), notes=tuple(notes))


def _approx_dp_route(a: float, eps: float, delta: float,
                     n: int) -> tuple[str, float, float | None, float | None, tuple[str, ...]]:
    """RRST Thm 3.1 (sound) at the best implied guarantee (eps' >= eps), then Thm 1.3, with the
    target beta chosen to maximise gamma: a grid on log beta brackets the best point (much of
    (0, alpha) may be unreachable), bounded Brent refines it, and the final point is certified."""
    from .theorems.maxinfo_dp import approx_dp_max_information_implied, thm31_implied_float_k

    check_real("eps", eps, low=0.0, low_open=True)
    check_real("delta", delta, low=0.0, high=1.0, low_open=True, high_open=True)
    ni = check_int("n", n, low=1)
    if max(eps, delta) > 0.5:
        name, val = ("eps", eps) if eps > 0.5 else ("delta", delta)
        raise RegimeError("RRST Thm 3.1", name, val,
                          "eps in (0, 1/2] and delta < eps' for some implied eps' in [eps, 1/2]")

    def obj(lb: float) -> float:
        b = math.exp(lb)
        k = thm31_implied_float_k(float(eps), float(delta), ni, b)[0]
        return (k if math.isfinite(k) else 1e6) - math.log2(max(a - b, 1e-300))

    lo, hi = math.log(a) - 30.0, math.log(a) - 1e-9
    grid = np.linspace(lo, hi, 48)
    vals = [obj(float(g)) for g in grid]
    i = int(np.argmin(vals))
    best: tuple[float, float | None, float | None] = (0.0, None, None)
    if vals[i] < 1e5:
        res = minimize_scalar(obj, bounds=(float(grid[max(i - 1, 0)]), float(grid[min(i + 1, 47)])),
                              method="bounded", options={"xatol": 1e-6, "maxiter": 60})
        for lb in (float(res.x), float(grid[i])):
            try:
                bound = approx_dp_max_information_implied(float(eps), float(delta), ni, math.exp(lb))
            except InvalidParameter:
                continue
            g = pvalue_correction(a, bound.k, bound.beta)
            if best[1] is None or g > best[0]:
                best = (g, bound.k, bound.beta)
    return ("approximate DP, i.i.d. data", best[0], best[1], best[2], ("RRST-3.1", "RRST-1.3"))
