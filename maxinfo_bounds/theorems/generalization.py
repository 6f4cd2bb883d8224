r"""Transfer theorems: from a max-information bound to a bound on bad events.

DFHPRR Thm 4: if ``I^beta_infty(S; A(S)) <= k`` then for every event ``O``,
``P[(S, A(S)) in O] <= 2^k P[S x A(S) in O] + beta``. With Hoeffding's inequality for a
[0, 1]-valued loss on ``n`` i.i.d. samples (``P[|empirical - true| > tau] <= 2 e^{-2 tau^2 n}``
for a fixed predictor), the estimate of an adaptively chosen predictor is off by more than
``tau`` with probability at most

.. math:: 2^{k}\cdot 2e^{-2\tau^2 n} + \beta .

DFHPRR's remarks after Thm 4: with ``k = log2(e) tau^2 n`` this is ``2 e^{-tau^2 n} + beta``;
and a ``tau``-DP algorithm on i.i.d. data has ``beta``-approximate max-information at most
``1.25 log2(e) tau^2 n`` for ``beta = 2 e^{-tau^2 n}`` (from Thm 8 the constant is in fact
``1/2 + 1/sqrt(2) = 1.2071...``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import sympy

from ..catalog import Param, Theorem, register
from ..numeric import check_int, check_real, check_real_array, enclosure, fast_up, is_array, iv_prec

__all__ = ["hoeffding_transfer"]


def _statement() -> Any:
    k, b, tau, n = sympy.symbols("k beta tau n", positive=True)
    return 2**k * 2 * sympy.exp(-2 * tau**2 * n) + b


def hoeffding_transfer(k: Any, beta: Any, tau: Any, n: Any, *, dps: int = 30) -> Any:
    r"""Probability that an adaptively chosen [0,1]-loss estimate is off by more than τ.

    .. math:: \Pr[|\hat L - L| > \tau] \le 2^{k}\cdot 2 e^{-2\tau^2 n} + \beta

    Theorem: DFHPRR Thm 4 with Hoeffding's inequality (the computation after Lemma 5).
    Units: ``k`` in bits.
    Conditions:
      * ``k >= 0``, ``beta`` in [0, 1], ``tau > 0``, ``n >= 1`` integer.
      * the selection has ``I^beta_infty <= k`` bits; the data are i.i.d. (Hoeffding).
    Returns: the bound rounded up, capped at 1 (a probability). Arrays: vectorised path.

    Examples
    --------
    >>> hoeffding_transfer(0.0, 0.0, 0.125, 128)    # 2 e^{-4} = 0.03663127777746836058... (50 digits)
    0.036631277777468364
    """
    if is_array(k, beta, tau, n):
        ka = check_real_array("k", k, low=0.0)
        ba = check_real_array("beta", beta, low=0.0, high=1.0)
        ta = check_real_array("tau", tau, low=0.0, low_open=True)
        na = check_real_array("n", n, low=1.0, integer=True)
        with np.errstate(over="ignore", under="ignore"):
            v = 2.0 * np.exp(ka * math.log(2) - 2 * ta * ta * na) + ba
        return np.minimum(fast_up(v), 1.0)
    kf = float(check_real("k", k, low=0.0))
    bf = float(check_real("beta", beta, low=0.0, high=1.0))
    tf = float(check_real("tau", tau, low=0.0, low_open=True))
    ni = check_int("n", n, low=1)

    def val(iv: Any) -> Any:
        T = iv.mpf(tf)
        return 2 * iv.exp(iv.mpf(kf) * iv.log(2) - 2 * T * T * ni) + iv.mpf(bf)

    return min(enclosure(val, prec=iv_prec(dps))[1], 1.0)


register(Theorem(
    id="DFHPRR-4", paper="DFHPRR", number="Thm 4 with Hoeffding (after Lemma 5)",
    title="Max-information transfers Hoeffding's bound to adaptively chosen estimates",
    latex=r"\Pr[|\hat L - L| > \tau] \le 2^{k}\cdot 2e^{-2\tau^{2} n} + \beta",
    conditions=("the selection has I^beta_inf <= k bits", "[0, 1]-valued loss, n i.i.d. samples",
                "k >= 0, 0 <= beta <= 1, tau > 0, n >= 1"),
    units="k in bits; the result is a probability",
    params=(Param("k", float, "[0, inf)", "max-information bound, bits"),
            Param("beta", float, "[0, 1]", "approximation parameter"),
            Param("tau", float, "(0, inf)", "accuracy"),
            Param("n", int, "[1, inf) integer", "number of samples")),
    evaluator=hoeffding_transfer, sympy_statement=_statement,
    returns="float probability bound, rounded up (capped at 1)",
))
