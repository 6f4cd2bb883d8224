"""Divergences of two finite distributions: hockey-stick, (approximate) max-divergence (RRST
Def 1.2), KL divergence, total variation. Bits unless ``unit="nats"``."""

from __future__ import annotations

from fractions import Fraction
from typing import overload

import numpy as np

from ..domain import DPS, NONNEG
from ..numeric import (
    PROB_TOL,
    ExactLog,
    Unit,
    check_unit,
)
from ..types import FloatArray, MpfLike
from .engine import LN2, ArrayLike, divergence_of, mp_log_sum, pair_tables

__all__ = ["approx_max_divergence", "hockey_stick", "kl_divergence", "max_divergence", "tv_distance"]


def hockey_stick(
    p: ArrayLike, q: ArrayLike, c: float | Fraction, *, exact: bool | None = None, tol: float = PROB_TOL
) -> float | Fraction:
    r"""Hockey-stick divergence :math:`H_c(P\|Q) = \sum_x \max(0, p(x) - c\,q(x))`.

    Equal to :math:`\sup_O P(O) - c\,Q(O)`; ``(eps, delta)``-DP is ``H_{e^eps} <= delta`` in
    both directions (RRST Def 2.1).

    Parameters
    ----------
    p, q : probability vectors on the same support.
    c : real ``>= 0``.

    Returns
    -------
    float, or :class:`~fractions.Fraction` in exact mode (then ``c`` is read exactly).

    Examples
    --------
    Randomized response with ``e^eps = 3``: rows ``(3/4, 1/4)`` and ``(1/4, 3/4)``.

    >>> from fractions import Fraction as F
    >>> hockey_stick([F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)], 1)      # hand: 3/4 - 1/4
    Fraction(1, 2)
    >>> hockey_stick([F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)], 3)      # hand: 3/4 - 3/4
    Fraction(0, 1)
    """
    pa, qa, ex = pair_tables(p, q, exact, tol)
    cv = NONNEG.check("c", c)
    if ex:
        cf = Fraction(cv)
        h: Fraction = sum(max(Fraction(0), pi - cf * qi) for pi, qi in zip(pa, qa))
        return h  # (tables are never empty: the sum is a Fraction)
    # (the float path reads c as a float: beyond the largest one, refused; exact mode takes any c)
    return float(np.sum(np.maximum(pa - NONNEG.check_float("c", c) * qa, 0.0)))


@overload
def approx_max_divergence(
    p: ArrayLike,
    q: ArrayLike,
    beta: float | Fraction = ...,
    *,
    unit: Unit = ...,
    exact: bool | None = ...,
    tol: float = ...,
) -> float | ExactLog: ...


@overload
def approx_max_divergence(
    p: ArrayLike, q: ArrayLike, beta: ArrayLike, *, unit: Unit = ..., exact: bool | None = ..., tol: float = ...
) -> FloatArray | list[ExactLog]: ...


def approx_max_divergence(
    p: ArrayLike,
    q: ArrayLike,
    beta: float | Fraction | ArrayLike = 0.0,
    *,
    unit: Unit = "bits",
    exact: bool | None = None,
    tol: float = PROB_TOL,
) -> float | ExactLog | FloatArray | list[ExactLog]:
    r"""β-approximate max-divergence :math:`D^\beta_\infty(P\|Q)`, in bits (default) or nats.

    .. math:: D^{\beta}_\infty(P\|Q) = \log_2 \sup_{O:\,P(O)>\beta} \frac{P(O)-\beta}{Q(O)}

    Source: DFHPRR Def 2 (with ``beta``: Def 3), RRST §1.2. Computed exactly over all events
    through the sorted likelihood ratios in ``O(N log N)`` (see the module docstring).

    Parameters
    ----------
    p, q : probability vectors on the same support (length ``N``).
    beta : real in ``[0, 1)``, or an array of them (all answered in one pass).
    unit : ``"bits"`` (default) or ``"nats"``.
    exact : force (``True``) or forbid (``False``) exact rational arithmetic; default: exact
        when an input holds a :class:`~fractions.Fraction`.

    Returns
    -------
    float (``+inf`` when unbounded), an array shaped like ``beta``, or in exact mode an
    :class:`~maxinfo_bounds.numeric.ExactLog` (a list of them for array ``beta``).

    Examples
    --------
    >>> approx_max_divergence([0.75, 0.25], [0.25, 0.75])            # log2(3), hand
    1.584962500721156
    >>> from fractions import Fraction as F
    >>> d = approx_max_divergence([F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)], F(1, 4))
    >>> d.ratio      # best event {0}: (3/4 - 1/4) / (1/4) = 2, hand
    Fraction(2, 1)
    >>> float(d)
    1.0
    """
    unit = check_unit(unit)
    pa, qa, ex = pair_tables(p, q, exact, tol)
    return divergence_of(pa, qa, ex, beta, unit)


def max_divergence(
    p: ArrayLike, q: ArrayLike, *, unit: Unit = "bits", exact: bool | None = None, tol: float = PROB_TOL
) -> float | ExactLog:
    r"""Max-divergence :math:`D_\infty(P\|Q) = \log_2 \max_{x:\,p(x)>0} p(x)/q(x)` (β = 0).

    Source: DFHPRR Def 2. ``+inf`` if ``q(x) = 0 < p(x)`` somewhere.

    >>> max_divergence([0.5, 0.5], [0.25, 0.75])                     # log2(2), hand
    1.0
    """
    return approx_max_divergence(p, q, unit=unit, exact=exact, tol=tol)  # beta's default: 0


def kl_divergence(
    p: ArrayLike, q: ArrayLike, *, unit: Unit = "bits", exact: bool | None = None, dps: int = 50, tol: float = PROB_TOL
) -> float | MpfLike:
    r"""Kullback–Leibler divergence :math:`\sum_x p(x)\log_2\frac{p(x)}{q(x)}`, in bits.

    ``+inf`` when ``q(x) = 0 < p(x)``. Float path: :func:`scipy.special.rel_entr`. Exact mode:
    an :class:`mpmath.mpf` with ``dps`` digits.

    >>> kl_divergence([0.5, 0.5], [0.25, 0.75])   # 1 - log2(3)/2 = 0.20751874963942190927 (50 digits)
    0.2075187496394219
    """
    unit = check_unit(unit)
    pa, qa, ex = pair_tables(p, q, exact, tol)
    if ex:
        DPS.check("dps", dps)
        return mp_log_sum(zip(pa, qa), unit, dps)
    from scipy.special import rel_entr  # on first use (scipy.special: ~0.4 s at import)

    v = float(np.sum(rel_entr(pa, qa)))
    return v / LN2 if unit == "bits" else v


def tv_distance(p: ArrayLike, q: ArrayLike, *, exact: bool | None = None, tol: float = PROB_TOL) -> float | Fraction:
    r"""Total variation distance :math:`\tfrac12\sum_x |p(x)-q(x)| = \max_O P(O)-Q(O)`.

    >>> from fractions import Fraction as F
    >>> tv_distance([F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)])          # hand
    Fraction(1, 2)
    """
    pa, qa, ex = pair_tables(p, q, exact, tol)
    if ex:
        tv: Fraction = sum(abs(pi - qi) for pi, qi in zip(pa, qa)) / 2
        return tv  # (tables are never empty: the sum is a Fraction)
    return 0.5 * float(np.sum(np.abs(pa - qa)))
