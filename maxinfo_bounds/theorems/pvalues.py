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

import numpy as np
import sympy

from ..catalog import Param, Theorem, register
from ..numeric import (
    check_real,
    check_real_array,
    enclosure,
    fast_down,
    float_down,
    is_array,
    iv_prec,
)

__all__ = ["pvalue_correction"]

_ALPHA, _BETA, _K = sympy.symbols("alpha beta k", nonnegative=True)


def _statement() -> Any:
    return sympy.Max((_ALPHA - _BETA) / 2**_K, 0)


def pvalue_correction(alpha: Any, k: Any, beta: Any, *, dps: int = 30) -> Any:
    r"""Corrected significance threshold γ(α) = max((α − β)/2^k, 0), rounded down.

    .. math:: \gamma(\alpha) = \max\bigl((\alpha - \beta)\,2^{-k},\ 0\bigr)

    Theorem: RRST Thm 1.3 (product data), RRST Thm C.1 (any data distribution, with the
    corresponding max-information bound).
    Units: ``k`` in bits.
    Conditions:
      * ``alpha`` in [0, 1], ``beta`` in [0, 1], ``k`` in [0, inf] (``k = inf`` gives 0).
    Returns: a float never above the exact value of the formula (exact rational arithmetic for
    integer ``k``, mpmath interval arithmetic at ``dps`` digits otherwise); for array
    arguments, a float64 array from the vectorised path, pushed down by a relative 2^-44.
    Raises: :class:`~maxinfo_bounds.numeric.InvalidParameter` outside the conditions.

    Examples
    --------
    >>> pvalue_correction(0.05, 1.0, 0.01)          # (0.05 - 0.01)/2 = 0.02, hand
    0.02
    >>> pvalue_correction(0.05, 0.0, 0.06)          # alpha <= beta: no valid rejection
    0.0
    """
    if is_array(alpha, k, beta):
        aa = check_real_array("alpha", alpha, low=0.0, high=1.0)
        ka = np.asarray(k, dtype=np.float64)
        if np.any(np.isnan(ka)) or np.any(ka < 0):  # k = +inf is allowed (gamma = 0)
            check_real_array("k", np.where(np.isinf(ka), 0.0, ka), low=0.0)
        ba = check_real_array("beta", beta, low=0.0, high=1.0)
        with np.errstate(over="ignore", under="ignore"):
            g = np.maximum(aa - ba, 0.0) * np.exp2(-ka)
        return fast_down(g)
    a = float(check_real("alpha", alpha, low=0.0, high=1.0))
    b = float(check_real("beta", beta, low=0.0, high=1.0))
    kf = float(check_real("k", k, low=0.0, high=math.inf))
    if a <= b or kf == math.inf:
        return 0.0
    if kf.is_integer() and kf <= 4096:  # 2^-k exact: the whole formula is rational
        return float_down((Fraction(a) - Fraction(b)) / (1 << int(kf)))

    def gamma(iv: Any) -> Any:
        return (iv.mpf(a) - iv.mpf(b)) * iv.exp(-iv.mpf(kf) * iv.log(2))

    lo, _ = enclosure(gamma, prec=iv_prec(dps))
    return max(lo, 0.0)


register(Theorem(
    id="RRST-1.3", paper="RRST", number="Thm 1.3 (product data); Thm C.1 (any data)",
    title="p-value correction from a max-information bound",
    latex=r"\gamma(\alpha) = \max\left(\frac{\alpha - \beta}{2^{k}}, 0\right)",
    conditions=("the selection procedure has I^beta_inf <= k bits (I^beta_inf,P for Thm 1.3)",
                "0 <= alpha <= 1, 0 <= beta <= 1, k >= 0"),
    units="k in bits; gamma and alpha are probabilities",
    params=(Param("alpha", float, "[0, 1]", "significance level"),
            Param("k", float, "[0, inf]", "max-information bound, bits"),
            Param("beta", float, "[0, 1]", "approximation parameter of the bound")),
    evaluator=pvalue_correction, sympy_statement=_statement,
    returns="float gamma, rounded down",
))
