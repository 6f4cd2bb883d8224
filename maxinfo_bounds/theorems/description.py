r"""Max-information of outputs of bounded description length.

DFHPRR Thm 6: an algorithm whose output takes values in a finite set ``Y`` has, for every
``beta > 0`` and every data distribution (product or not),

.. math:: I^{\beta}_\infty(A, n) \le \log_2\bigl(|Y|/\beta\bigr) \text{ bits.}
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, overload

from ..arith import Context, Formula, NotExact
from ..domain import Int, Real
from ..numeric import fast_up, float_up, is_array
from ..results import Bound
from ..types import FloatArray, IntLike, IntOrArray, RealLike, RealOrArray
from .registry import Param, Theorem, positive_float_down, register

__all__ = ["description_length_max_information"]

RANGE_SIZE = Param("range_size", Int(1), "number of possible outputs |Y|")
BETA = Param("beta", Real(0, 1, lo_open=True), "approximation parameter")


def _body(c: Context, range_size: Any, beta: Any) -> Any:
    # DFHPRR Thm 6: k = log2(|Y|/beta) bits
    return c.log2_ratio(range_size, beta)


#: DFHPRR Thm 6, written once (see :mod:`maxinfo_bounds.arith`)
DESCRIPTION = Formula(_body, ("m", "beta"), integer=("m",))


@overload
def description_length_max_information(range_size: IntLike, beta: RealLike) -> Bound: ...  # type: ignore[overload-overlap]


@overload
def description_length_max_information(range_size: IntOrArray, beta: RealOrArray) -> FloatArray: ...


def description_length_max_information(range_size: IntOrArray, beta: RealOrArray) -> Bound | FloatArray:
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
        return fast_up(DESCRIPTION.array(RANGE_SIZE.check_array(range_size), BETA.check_array(beta)))
    mi, b = RANGE_SIZE.check(range_size), positive_float_down(BETA, beta)  # echoed: rounded down
    try:  # exact when |Y|/beta is a power of two (beta read at its exact binary value)
        k = float_up(DESCRIPTION.exact(mi, b))
    except NotExact:
        k = DESCRIPTION.up(mi, b, prec=128 + (Fraction(mi) / Fraction(b)).numerator.bit_length() // 8)
    return Bound(k=k, beta=b, theorem="DFHPRR-6", conditions=(RANGE_SIZE.condition(), BETA.condition()))


register(
    Theorem(
        id="DFHPRR-6",
        paper="DFHPRR",
        number="Thm 6",
        title="Description length bounds approximate max-information",
        formula=DESCRIPTION,
        lhs=r"I^{\beta}_\infty(\mathcal{A}, n) \le",
        conditions=("A outputs one of |Y| = range_size values", "any distribution of the data"),
        units="k in bits",
        params=(RANGE_SIZE, BETA),
        evaluator=description_length_max_information,
        returns="Bound(k bits rounded up, beta)",
    )
)
