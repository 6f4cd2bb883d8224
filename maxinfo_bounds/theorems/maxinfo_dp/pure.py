"""Pure DP bounds max-information: RRST Thm 1.4 (DFHPRR Thms 7, 8). ``eps`` in nats, ``k`` in bits."""

from __future__ import annotations

from typing import Any, overload

from ...arith import Context, Formula
from ...domain import Real
from ...numeric import fast_up, is_array, iv_prec
from ...results import Bound
from ...types import FloatArray, IntLike, IntOrArray, RealLike, RealOrArray
from ..registry import N_RECORDS as N
from ..registry import Param, Theorem, positive_float_down, register

__all__ = ["pure_dp_max_information", "pure_dp_max_information_product", "PURE_DP", "PURE_DP_PRODUCT"]

EPS = Param("eps", Real(0, lo_open=True, units="nats"), "pure DP parameter, nats")
BETA = Param("beta", Real(0, 1, lo_open=True, hi_open=True), "approximation parameter")


def _pure_body(c: Context, eps: Any, n: Any) -> Any:
    # RRST Thm 1.4 (first part): k = eps n log2(e) bits
    return eps * n * c.log2e


def _product_body(c: Context, eps: Any, n: Any, beta: Any) -> Any:
    # RRST Thm 1.4 (second part): k = log2(e) (eps^2 n/2 + eps sqrt(n ln(2/beta)/2)) bits
    # ln(2/beta) as ln2 log2(2/beta): 2/beta overflows float64 for a subnormal beta
    return (eps * eps * n / 2 + eps * c.sqrt(n * c.ln2 * c.log2_ratio(2, beta) / 2)) * c.log2e


#: RRST Thm 1.4a / 1.4b, written once (see :mod:`maxinfo_bounds.arith`)
PURE_DP = Formula(_pure_body, ("epsilon", "n"), integer=("n",))
PURE_DP_PRODUCT = Formula(_product_body, ("epsilon", "n", "beta"), integer=("n",))


@overload
def pure_dp_max_information(eps: RealLike, n: IntLike, *, dps: int = ...) -> Bound: ...  # type: ignore[overload-overlap]


@overload
def pure_dp_max_information(eps: RealOrArray, n: IntOrArray, *, dps: int = ...) -> FloatArray: ...


def pure_dp_max_information(eps: RealOrArray, n: IntOrArray, *, dps: int = 30) -> Bound | FloatArray:
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
        return fast_up(PURE_DP.array(EPS.check_array(eps), N.check_array(n)))
    e, ni = EPS.check(eps), N.check(n)  # exact: Fractions and big integers are not rounded
    return Bound(
        k=PURE_DP.up(e, ni, prec=iv_prec(dps)),
        beta=0.0,
        theorem="RRST-1.4a",
        conditions=(EPS.condition(), N.condition()),
    )


@overload
def pure_dp_max_information_product(  # type: ignore[overload-overlap]
    eps: RealLike,
    n: IntLike,
    beta: RealLike,
    *,
    dps: int = ...,
) -> Bound: ...


@overload
def pure_dp_max_information_product(
    eps: RealOrArray, n: IntOrArray, beta: RealOrArray, *, dps: int = ...
) -> FloatArray: ...


def pure_dp_max_information_product(
    eps: RealOrArray, n: IntOrArray, beta: RealOrArray, *, dps: int = 30
) -> Bound | FloatArray:
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
        return fast_up(PURE_DP_PRODUCT.array(EPS.check_array(eps), N.check_array(n), BETA.check_array(beta)))
    e, ni = EPS.check(eps), N.check(n)
    b = positive_float_down(BETA, beta)  # echoed: never above the beta asked for
    return Bound(
        k=PURE_DP_PRODUCT.up(e, ni, b, prec=iv_prec(dps)),
        beta=b,
        theorem="RRST-1.4b",
        product_only=True,
        conditions=(EPS.condition(), N.condition(), BETA.condition(), "i.i.d. (product) data"),
    )


register(
    Theorem(
        id="RRST-1.4a",
        paper="RRST",
        number="Thm 1.4 (first part); DFHPRR Thm 7",
        title="Pure DP bounds max-information for every input distribution",
        formula=PURE_DP,
        lhs=r"I_\infty(\mathcal{A}, n) \le",
        conditions=("A is (eps, 0)-differentially private", "any distribution of the data; beta = 0"),
        units="eps in nats; k in bits",
        params=(EPS, N),
        evaluator=pure_dp_max_information,
        returns="Bound(k bits rounded up, beta = 0)",
    )
)

register(
    Theorem(
        id="RRST-1.4b",
        paper="RRST",
        number="Thm 1.4 (second part); DFHPRR Thm 8",
        title="Pure DP bounds approximate max-information on i.i.d. data",
        formula=PURE_DP_PRODUCT,
        lhs=r"I^{\beta}_{\infty,P}(\mathcal{A}, n) \le",
        conditions=(
            "A is (eps, 0)-differentially private",
            "the records are i.i.d. (product distribution): product_only",
        ),
        units="eps in nats; k in bits",
        params=(EPS, N, BETA),
        evaluator=pure_dp_max_information_product,
        returns="Bound(k bits rounded up, beta, product_only = True)",
        notes="Only a first stage of an adaptive composition may use a product-only bound (RRST §4).",
    )
)
