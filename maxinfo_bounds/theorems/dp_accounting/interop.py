"""From a DP guarantee to max-information (RRST Thm 1.4 / 3.1), and from Google's
``dp_accounting`` to a DP guarantee."""

from __future__ import annotations

import math

from ...domain import Real
from ...numeric import InvalidParameter, RegimeError
from ...results import Bound, DPGuarantee
from ..maxinfo_dp.pure import BETA  # the bounds' own parameters (RRST Thm 1.4)
from ..registry import N_RECORDS as N
from ..registry import Param

DELTA = Param("delta", Real(0, 1, lo_open=True, hi_open=True), "the delta eps is asked at")
VDI = Param("value_discretization_interval", Real(0, lo_open=True), "dp_accounting's PLD discretisation step")


def dp_max_information(guarantee: DPGuarantee, n: int, *, iid: bool = False, beta: float | None = None) -> Bound:
    """The best max-information bound (bits) of the catalog for an (eps, delta)-DP step on n records.

    * delta = 0: RRST Thm 1.4a (any data, beta = 0); with ``iid=True`` and a ``beta``, also
      Thm 1.4b; the smaller k is returned.
    * delta > 0: RRST Thm 3.1 (sound variant) at ``beta`` (or the paper's choice), only with
      ``iid=True``: approximate DP gives no max-information bound for other data (RRST §4), so
      RegimeError otherwise.

    >>> dp_max_information(DPGuarantee(0.01, 0.0, "given"), 100).theorem
    'RRST-1.4a'
    """
    from ..maxinfo_dp import (
        approx_dp_max_information,
        pure_dp_max_information,
        pure_dp_max_information_product,
    )

    if not isinstance(guarantee, DPGuarantee):
        raise InvalidParameter("guarantee", guarantee, "a DPGuarantee")
    ni = N.check(n)
    if beta is not None:
        BETA.check(beta)
        if not iid:
            raise InvalidParameter(
                "beta", beta, "omitted unless iid=True (beta is the i.i.d. bounds' parameter: RRST Thm 1.4b / 3.1)"
            )
    if guarantee.delta > 0:
        if not iid:
            raise RegimeError(
                "RRST Thm 3.1 / §4",
                "iid",
                False,
                "iid=True (approximate DP bounds max-information only for i.i.d. data)",
            )
        approx: Bound = approx_dp_max_information(guarantee.eps, guarantee.delta, ni, beta=beta)
        return approx
    if guarantee.eps == 0:
        return Bound(k=0.0, beta=0.0, theorem="RRST-1.4a", conditions=("eps = 0",), variant="exact")
    best: Bound = pure_dp_max_information(guarantee.eps, ni)
    if iid and beta is not None:
        prod: Bound = pure_dp_max_information_product(guarantee.eps, ni, beta)
        if prod.k < best.k:
            best = prod
    return best


def from_dp_event(event: object, delta: float, *, value_discretization_interval: float = 1e-4) -> DPGuarantee:
    """(eps, delta) of a Google ``dp_accounting`` DpEvent, from its PLD accountant.

    Needs the optional extra: ``pip install "maxinfo_bounds[accounting]"``. The accountant uses
    pessimistic discretisation (an upper bound on eps up to its floating-point arithmetic, which
    is not certified here); eps is rounded up one ulp. The result feeds
    :func:`dp_max_information` and the planner.

    Raises :class:`InvalidParameter` naming ``delta`` when ``delta`` is below the mass the PLD
    truncates from its tails (about 1e-16 for one Gaussian event), where dp_accounting answers
    eps = inf.
    """
    try:
        from dp_accounting import pld
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("from_dp_event needs dp_accounting: pip install 'maxinfo_bounds[accounting]'") from exc
    d = DELTA.check_float(delta)
    acc = pld.PLDAccountant(value_discretization_interval=VDI.check_float(value_discretization_interval))
    try:
        acc.compose(event)
    except Exception as exc:
        raise InvalidParameter("event", event, "a DpEvent the PLD accountant supports") from exc
    eps = float(acc.get_epsilon(d))
    if math.isinf(eps):
        # the PLD truncates each tail and books the truncated mass as an infinite privacy loss:
        # below that mass no finite eps exists in its accounting (about 1e-16 to 5e-16 for one
        # Gaussian; the composed PLD's own figure when the private attribute is readable)
        floor = getattr(getattr(acc, "_pld", None), "get_delta_for_epsilon", None)
        at = f" (about {floor(math.inf):.2g} for this event)" if callable(floor) else ""
        raise InvalidParameter(
            "delta",
            d,
            f"above dp_accounting's PLD tail mass{at}: its accountant returns eps = "
            "inf below it; give a larger delta, or for a Gaussian mechanism use "
            "maxinfo_bounds' analytic Gaussian (gaussian_epsilon), exact at any delta",
        )
    return DPGuarantee(
        math.nextafter(max(eps, 0.0), math.inf),
        d,
        "dp_accounting PLD",
        ("pessimistic PLD discretisation", f"value_discretization_interval = {value_discretization_interval!r}"),
    )
