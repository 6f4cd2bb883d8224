r"""p-value corrections from max-information bounds.

RRST Thm 1.3 (and Thm C.1 for non-product data): if a selection procedure ``A`` has
``I^beta_{infty,P}(A, n) <= k`` bits, then

.. math:: \gamma(\alpha) = \max\Bigl(\frac{\alpha-\beta}{2^{k}},\ 0\Bigr)

is a valid p-value correction function: rejecting when the selected test's p-value is at most
``gamma(alpha)`` has false-discovery probability at most ``alpha``.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from ..numeric import check_real, enclosure, float_down

__all__ = ["pvalue_correction"]


def pvalue_correction(alpha: float, k: float, beta: float) -> float:
    r"""Corrected significance threshold γ(α) = max((α − β)/2^k, 0), rounded down.

    .. math:: \gamma(\alpha) = \max\bigl((\alpha - \beta)\,2^{-k},\ 0\bigr)

    Theorem: RRST Thm 1.3 (product data), RRST Thm C.1 (any data distribution, with the
    corresponding max-information bound).
    Units: ``k`` in bits.
    Conditions:
      * ``alpha`` in [0, 1], ``beta`` in [0, 1], ``k`` in [0, inf] (``k = inf`` gives 0).
    Returns: a float never above the exact value of the formula (outward rounding with
    mpmath interval arithmetic, 128 bits).
    Raises: :class:`~maxinfo_bounds.numeric.InvalidParameter` outside the conditions.

    Examples
    --------
    >>> pvalue_correction(0.05, 1.0, 0.01)          # (0.05 - 0.01)/2 = 0.02, hand
    0.02
    >>> pvalue_correction(0.05, 0.0, 0.06)          # alpha <= beta: no valid rejection
    0.0
    """
    a = float(check_real("alpha", alpha, low=0.0, high=1.0))
    b = float(check_real("beta", beta, low=0.0, high=1.0))
    kk = check_real("k", k, low=0.0, high=math.inf)
    kf = float(kk)
    if a <= b or kf == math.inf:
        return 0.0
    if kf.is_integer() and kf <= 4096:  # 2^-k exact: the whole formula is rational
        return float_down((Fraction(a) - Fraction(b)) / (1 << int(kf)))

    def gamma(iv: Any) -> Any:
        return (iv.mpf(a) - iv.mpf(b)) * iv.exp(-iv.mpf(kf) * iv.log(2))

    lo, _ = enclosure(gamma)
    return max(lo, 0.0)
