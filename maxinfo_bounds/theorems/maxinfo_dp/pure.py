"""Pure DP bounds max-information: RRST Thm 1.4 (DFHPRR Thms 7, 8). ``eps`` in nats, ``k`` in bits."""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy

from ...numeric import (
    LOG2E,
    check_int,
    check_real,
    check_real_array,
    enclosure,
    fast_up,
    is_array,
    iv_prec,
)
from ...results import Bound
from ..registry import Param, Theorem, register

_EPS = sympy.Symbol("epsilon", positive=True)
_N = sympy.Symbol("n", positive=True, integer=True)
_BETA = sympy.Symbol("beta", positive=True)


def _statement_pure() -> Any:
    return _EPS * _N / sympy.log(2)


def _statement_product() -> Any:
    return (_EPS**2 * _N / 2 + _EPS * sympy.sqrt(_N * sympy.log(2 / _BETA) / 2)) / sympy.log(2)


def pure_dp_max_information(eps: Any, n: Any, *, dps: int = 30) -> Any:
    r"""Max-information of an ε-DP algorithm on n records, any input distribution, in bits.

    .. math:: I_\infty(A, n) \le \log_2(e)\,\varepsilon n

    Theorem: RRST Thm 1.4 (first part) = DFHPRR Thm 7.
    Units: ``eps`` in nats (DP convention); the bound in bits.
    Conditions:
      * ``eps`` > 0 (finite), ``n`` an integer >= 1.
      * holds for every distribution of the data (not only i.i.d.), with beta = 0.
    Returns: a :class:`~maxinfo_bounds.catalog.Bound` with ``k`` rounded up (mpmath interval
    arithmetic at ``dps`` digits); for array arguments, a float64 array of ``k`` from the
    vectorised path (same direction guarantee).
    Raises: :class:`~maxinfo_bounds.numeric.InvalidParameter` outside the conditions.

    Examples
    --------
    >>> b = pure_dp_max_information(0.1, 100)   # 50 digits (float 0.1): 14.4269504088896348...
    >>> b.k
    14.426950408889637
    >>> b.beta, b.product_only
    (0.0, False)
    """
    if is_array(eps, n):
        ea = check_real_array("eps", eps, low=0.0, low_open=True)
        na = check_real_array("n", n, low=1.0, integer=True)
        return fast_up(LOG2E * ea * na)
    e = float(check_real("eps", eps, low=0.0, low_open=True))
    ni = check_int("n", n, low=1)
    _, hi = enclosure(lambda iv: iv.mpf(e) * iv.mpf(ni) / iv.log(2), prec=iv_prec(dps))
    return Bound(k=hi, beta=0.0, theorem="RRST-1.4a", conditions=("eps > 0", "n >= 1 integer"))


def pure_dp_max_information_product(eps: Any, n: Any, beta: Any, *, dps: int = 30) -> Any:
    r"""β-approximate max-information of an ε-DP algorithm on n i.i.d. records, in bits.

    .. math:: I^{\beta}_{\infty,P}(A, n) \le \log_2(e)\bigl(\varepsilon^2 n/2 + \varepsilon\sqrt{n \ln(2/\beta)/2}\bigr)

    Theorem: RRST Thm 1.4 (second part) = DFHPRR Thm 8.
    Units: ``eps`` in nats; the bound in bits.
    Conditions:
      * ``eps`` > 0 (finite), ``n`` an integer >= 1, ``beta`` in (0, 1).
      * the data are i.i.d. (a product distribution): the result is flagged ``product_only``,
        and a composition may use it only as its first stage (RRST §4).
    Returns: a :class:`~maxinfo_bounds.catalog.Bound`, ``k`` rounded up; arrays give a float64
    array of ``k`` from the vectorised path.

    Examples
    --------
    >>> b = pure_dp_max_information_product(0.1, 1000, 1e-6)
    >>> round(b.k, 10)     # log2(e) (5 + 0.1 sqrt(500 ln 2e6)) = 1.4427 * 13.5170, hand
    19.5012476171
    >>> b.product_only
    True
    """
    if is_array(eps, n, beta):
        ea = check_real_array("eps", eps, low=0.0, low_open=True)
        na = check_real_array("n", n, low=1.0, integer=True)
        ba = check_real_array("beta", beta, low=0.0, high=1.0, low_open=True, high_open=True)
        return fast_up(LOG2E * (ea * ea * na / 2 + ea * np.sqrt(na * np.log(2 / ba) / 2)))
    e = float(check_real("eps", eps, low=0.0, low_open=True))
    ni = check_int("n", n, low=1)
    b = float(check_real("beta", beta, low=0.0, high=1.0, low_open=True, high_open=True))

    def k(iv: Any) -> Any:
        E, N, B = iv.mpf(e), iv.mpf(ni), iv.mpf(b)
        return (E * E * N / 2 + E * iv.sqrt(N * iv.log(2 / B) / 2)) / iv.log(2)

    _, hi = enclosure(k, prec=iv_prec(dps))
    return Bound(k=hi, beta=b, theorem="RRST-1.4b", product_only=True,
                 conditions=("eps > 0", "n >= 1 integer", "0 < beta < 1",
                             "i.i.d. (product) data"))


register(Theorem(
    id="RRST-1.4a", paper="RRST", number="Thm 1.4 (first part); DFHPRR Thm 7",
    title="Pure DP bounds max-information for every input distribution",
    latex=r"I_\infty(\mathcal{A}, n) \le \log_2(e)\,\varepsilon n",
    conditions=("A is (eps, 0)-differentially private, eps > 0 (nats)", "n >= 1 records",
                "any distribution of the data; beta = 0"),
    units="eps in nats; k in bits",
    params=(Param("eps", float, "(0, inf)", "pure DP parameter, nats"),
            Param("n", int, "[1, inf) integer", "number of records")),
    evaluator=pure_dp_max_information, sympy_statement=_statement_pure,
    returns="Bound(k bits rounded up, beta = 0)",
))

register(Theorem(
    id="RRST-1.4b", paper="RRST", number="Thm 1.4 (second part); DFHPRR Thm 8",
    title="Pure DP bounds approximate max-information on i.i.d. data",
    latex=(r"I^{\beta}_{\infty,P}(\mathcal{A}, n) \le \log_2(e)\left(\varepsilon^2 n/2"
           r" + \varepsilon\sqrt{n \ln(2/\beta)/2}\right)"),
    conditions=("A is (eps, 0)-differentially private, eps > 0 (nats)", "n >= 1 records",
                "0 < beta < 1", "the records are i.i.d. (product distribution): product_only"),
    units="eps in nats; k in bits",
    params=(Param("eps", float, "(0, inf)", "pure DP parameter, nats"),
            Param("n", int, "[1, inf) integer", "number of records"),
            Param("beta", float, "(0, 1)", "approximation parameter")),
    evaluator=pure_dp_max_information_product, sympy_statement=_statement_product,
    returns="Bound(k bits rounded up, beta, product_only = True)",
    notes="Only a first stage of an adaptive composition may use a product-only bound (RRST §4).",
))
