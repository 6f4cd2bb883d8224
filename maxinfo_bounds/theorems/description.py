r"""Max-information of outputs of bounded description length.

DFHPRR Thm 6: an algorithm whose output takes values in a finite set ``Y`` has, for every
``beta > 0`` and every data distribution (product or not),

.. math:: I^{\beta}_\infty(A, n) \le \log_2\bigl(|Y|/\beta\bigr) \text{ bits.}
"""

from __future__ import annotations

from fractions import Fraction

from ..numeric import ExactLog, check_int, check_real

__all__ = ["description_length_max_information"]


def description_length_max_information(range_size: int, beta: float) -> float:
    r"""β-approximate max-information bound log2(|Y|/β) for a range of ``range_size`` values.

    .. math:: I^{\beta}_\infty(A, n) \le \log_2(|Y|/\beta)

    Theorem: DFHPRR Thm 6 (holds for all input distributions, so it composes in any order).
    Units: bits.
    Conditions:
      * ``range_size`` an integer >= 1, ``beta`` in (0, 1].
    Returns: an upper bound rounded up (mpmath interval arithmetic).

    Examples
    --------
    >>> description_length_max_information(1024, 0.5)      # log2(2048) = 11, hand
    11.0
    >>> description_length_max_information(20, 0.005)   # 50 digits: 11.96578428466208704...
    11.965784284662089
    """
    m = check_int("range_size", range_size, low=1)
    b = float(check_real("beta", beta, low=0.0, high=1.0, low_open=True))
    # |Y|/beta is an exact rational (beta read at its exact binary value): log2 of it is exact
    # for powers of two and otherwise enclosed by interval arithmetic, then rounded up.
    return ExactLog(Fraction(m) / Fraction(b), "bits").enclosure()[1]
