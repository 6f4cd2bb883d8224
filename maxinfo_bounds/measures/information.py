"""Information between the coordinates of a joint table: (approximate) max-information (RRST
§1.2; DFHPRR Defs 2, 3), mutual information, and the tail of the information density."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import overload

import numpy as np

from ..domain import DPS
from ..numeric import (
    PROB_TOL,
    ExactLog,
    InvalidParameter,
    Unit,
    check_unit,
)
from ..types import FloatArray, MpfLike
from .engine import LN2, ArrayLike, divergence_of, joint_table, log_unit, mp_log_sum

__all__ = ["approx_max_information", "log_ratio_tail", "max_information", "mutual_information"]


@overload
def approx_max_information(
    joint: ArrayLike, beta: float | Fraction = ..., *, unit: Unit = ..., exact: bool | None = ..., tol: float = ...
) -> float | ExactLog: ...


@overload
def approx_max_information(
    joint: ArrayLike, beta: ArrayLike, *, unit: Unit = ..., exact: bool | None = ..., tol: float = ...
) -> FloatArray | list[ExactLog]: ...


def approx_max_information(
    joint: ArrayLike,
    beta: float | Fraction | ArrayLike = 0.0,
    *,
    unit: Unit = "bits",
    exact: bool | None = None,
    tol: float = PROB_TOL,
) -> float | ExactLog | FloatArray | list[ExactLog]:
    r"""β-approximate max-information :math:`I^\beta_\infty(X;Y)` of a joint table, in bits.

    .. math:: I^{\beta}_\infty(X;Y) = D^{\beta}_\infty\bigl((X,Y)\,\|\,X\otimes Y\bigr)

    Source: RRST Def 1.2; DFHPRR Def 3. ``joint[x, y] = Pr[X = x, Y = y]``. Symmetric in X and
    Y. ``beta`` may be an array (one pass over the sorted ratios).

    Examples
    --------
    Randomized response with ``e^eps = 3`` on a uniform bit: ``Pr[Y = X] = 3/4``.

    >>> from fractions import Fraction as F
    >>> J = [[F(3, 8), F(1, 8)], [F(1, 8), F(3, 8)]]
    >>> approx_max_information(J).ratio        # (3/8) / (1/4), hand
    Fraction(3, 2)
    >>> approx_max_information(J, F(1, 8)).ratio   # event {(0,0),(1,1)}: (3/4-1/8)/(1/2), hand
    Fraction(5, 4)
    """
    unit = check_unit(unit)
    pj, pq, ex = joint_table(joint, exact, tol, lazy=True)
    return divergence_of(pj, pq, ex, beta, unit)


def max_information(
    joint: ArrayLike, *, unit: Unit = "bits", exact: bool | None = None, tol: float = PROB_TOL
) -> float | ExactLog:
    r"""Max-information :math:`I_\infty(X;Y) = \log_2 \max_{x,y} \frac{P(x,y)}{P(x)P(y)}`.

    Source: RRST Def 1.2; DFHPRR Def 3 with β = 0.

    >>> max_information([[0.5, 0.0], [0.0, 0.5]])       # Y = X, one fair bit: 1 bit, hand
    1.0
    """
    return approx_max_information(joint, unit=unit, exact=exact, tol=tol)  # beta's default: 0


def mutual_information(
    joint: ArrayLike, *, unit: Unit = "bits", exact: bool | None = None, dps: int = 50, tol: float = PROB_TOL
) -> float | MpfLike:
    r"""Mutual information :math:`I(X;Y) = D_{KL}\bigl((X,Y)\,\|\,X\otimes Y\bigr)`, in bits.

    >>> mutual_information([[0.5, 0.0], [0.0, 0.5]])   # Y = X, a fair bit, hand
    1.0
    >>> mutual_information([[0.25, 0.25], [0.25, 0.25]])
    0.0
    """
    unit = check_unit(unit)
    pj, pq, ex = joint_table(joint, exact, tol)
    if ex:
        DPS.check("dps", dps)
        return mp_log_sum(zip(pj, pq), unit, dps)
    from scipy.special import rel_entr  # on first use (scipy.special: ~0.4 s at import)

    v = float(np.sum(rel_entr(pj, pq)))
    v = max(v, 0.0)  # rel_entr terms sum to >= 0 mathematically; clip float noise below 0
    return v / LN2 if unit == "bits" else v


def log_ratio_tail(
    joint: ArrayLike, k: float | ArrayLike, *, unit: Unit = "bits", tol: float = PROB_TOL
) -> float | FloatArray:
    r"""``Pr[Z >= k]`` for the information density ``Z = log2 P(x,y) / (P(x)P(y))``, (x,y) ~ joint.

    The quantity of RRST Lemma 3.2 (DFHPRR Lemma 18): if ``Pr[Z >= k] <= beta`` then
    ``I^beta_infty(X;Y) <= k``. ``k`` may be an array. Float path only.

    >>> log_ratio_tail([[0.375, 0.125], [0.125, 0.375]], 0.5)   # Z = log2(3/2) w.p. 3/4
    0.75
    """
    unit = check_unit(unit)
    pj, pq, _ = joint_table(joint, False, tol)
    kk = _thresholds(k)
    keep = pj > 0
    with np.errstate(divide="ignore"):
        z = log_unit(pj[keep] / pq[keep], unit)
    w = pj[keep]
    order = np.argsort(z)
    zs, ws = z[order], w[order]
    tail = np.concatenate((np.cumsum(ws[::-1])[::-1], [0.0]))
    res = tail[np.searchsorted(zs, kk, side="left")]
    return float(res) if kk.ndim == 0 else res


def _thresholds(k: object) -> FloatArray:
    """The tail's thresholds as floats: any reals, -inf (tail 1) and +inf (tail 0) included;
    NaN (which the search would read as +inf) and non-numbers refused, naming ``k``."""
    allowed = "real numbers or +-inf (thresholds on the information density)"
    try:
        kk: FloatArray = np.asarray(k, dtype=np.float64)
    except (TypeError, ValueError):
        raise InvalidParameter("k", k, allowed) from None
    if np.isnan(kk).any():
        # a scalar is shown as given (None reads as NaN), an array's entry as NaN
        raise InvalidParameter(
            "k",
            k if kk.ndim == 0 else math.nan,
            "real numbers or +-inf, not NaN (thresholds on the information density)",
        )
    return kk
