r"""Max-information of outputs of bounded description length.

DFHPRR Thm 6: an algorithm whose output takes values in a finite set ``Y`` has, for every
``beta > 0`` and every data distribution (product or not),

.. math:: I^{\beta}_\infty(A, n) \le \log_2\bigl(|Y|/\beta\bigr) \text{ bits.}
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import sympy

from ..domain import Int, Real
from ..numeric import ExactLog, check_int, check_real, check_real_array, fast_up, is_array
from ..results import Bound
from .registry import Param, Theorem, register

__all__ = ["description_length_max_information"]

_M = sympy.Symbol("m", positive=True, integer=True)
_BETA = sympy.Symbol("beta", positive=True)


def _statement() -> Any:
    return sympy.log(_M / _BETA, 2)


def description_length_max_information(range_size: Any, beta: Any) -> Any:
    r"""β-approximate max-information bound log2(|Y|/β) for a range of ``range_size`` values.

    .. math:: I^{\beta}_\infty(A, n) \le \log_2(|Y|/\beta)

    Theorem: DFHPRR Thm 6 (holds for all input distributions, so it composes in any order).
    Units: bits.
    Conditions:
      * ``range_size`` an integer >= 1, ``beta`` in (0, 1].
    Returns: a :class:`~maxinfo_bounds.catalog.Bound`, ``k`` rounded up: ``|Y|/beta`` is an exact
    rational (beta read at its exact binary value), whose log2 is exact for powers of two and
    enclosed by interval arithmetic otherwise. Arrays give a float64 array of ``k``.

    Examples
    --------
    >>> description_length_max_information(1024, 0.5).k      # log2(2048) = 11, hand
    11.0
    >>> description_length_max_information(20, 0.005).k   # 50 digits: 11.96578428466208704...
    11.965784284662089
    """
    if is_array(range_size, beta):
        ma = check_real_array("range_size", range_size, low=1.0, integer=True)
        ba = check_real_array("beta", beta, low=0.0, high=1.0, low_open=True)
        return fast_up(np.log2(ma) - np.log2(ba))
    mi = check_int("range_size", range_size, low=1)
    b = float(check_real("beta", beta, low=0.0, high=1.0, low_open=True))
    k = ExactLog(Fraction(mi) / Fraction(b), "bits").enclosure()[1]
    return Bound(k=k, beta=b, theorem="DFHPRR-6",
                 conditions=("range_size >= 1 integer", "0 < beta <= 1"))


register(Theorem(
    id="DFHPRR-6", paper="DFHPRR", number="Thm 6",
    title="Description length bounds approximate max-information",
    latex=r"I^{\beta}_\infty(\mathcal{A}, n) \le \log_2(|\mathcal{Y}|/\beta)",
    conditions=("A outputs one of |Y| = range_size values", "0 < beta <= 1",
                "any distribution of the data"),
    units="k in bits",
    params=(Param("range_size", Int(1), "number of possible outputs |Y|"),
            Param("beta", Real(0, 1, lo_open=True), "approximation parameter")),
    evaluator=description_length_max_information, statement=_statement,
    returns="Bound(k bits rounded up, beta)",
))
