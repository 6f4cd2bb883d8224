r"""Adaptive composition of max-information bounds, and its ordering caveat.

RRST Thm A.3 (= DFHPRR Lemma 5): if ``I^{beta1}_infty(A1, n) <= k1`` and, for every output
``y`` of ``A1``, ``I^{beta2}_infty(A2(., y), n) <= k2``, then ``A(X) = A2(X, A1(X))`` has

.. math:: I^{\beta_1+\beta_2}_\infty(A, n) \le k_1 + k_2 .

The caveat (RRST §4, Thm 4.1): the second stage is applied to data *conditioned on* the first
stage's output, which is no longer a product distribution. A bound that holds only for
product (i.i.d.) inputs, such as RRST Thm 1.4 (second part) or Thm 3.1, may therefore only be
the **first** stage; composing one after another step is refused.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ..arith import Context, Formula
from ..numeric import InvalidParameter, RegimeError, as_nonempty_list, float_up
from ..results import Bound
from .registry import Param, Theorem, register

__all__ = ["compose_max_information"]


def _sum_body(c: Context, *terms: Any) -> Any:
    # RRST Thm A.3: the k (and, the same way, the beta) of the stages add up
    return sum(terms[1:], terms[0])


#: RRST Thm A.3, written once: k = k_1 + k_2 + ... (and beta = beta_1 + beta_2 + ...)
COMPOSE = Formula(_sum_body, ("k_1", "k_2"))


def compose_max_information(bounds: Sequence[Bound], *, strict: bool = True) -> Bound:
    r"""The (k, β) bound of adaptively composed steps: k and β add up.

    .. math:: I^{\sum_i \beta_i}_\infty(A, n) \le \sum_i k_i

    Theorem: RRST Thm A.3 = DFHPRR Lemma 5 (applied stage by stage).
    Units: bits.
    Conditions:
      * at least one bound; every step's bound holds for each output of the previous steps.
      * only the first bound may be ``product_only`` (RRST §4): the data a later step sees are
        conditioned on earlier outputs, hence not a product distribution.
      * every bound is in its theorem's regime (``strict=False`` accepts out-of-regime bounds
        and marks the result ``in_regime=False``; it is then not a proven bound).
    Returns: a :class:`~maxinfo_bounds.catalog.Bound` with ``k`` and ``beta`` the exact sums of
    the inputs rounded up (``beta`` at most 1: a sum of 1 or more is vacuous, and true);
    ``product_only`` if the first bound is.
    Raises: :class:`~maxinfo_bounds.numeric.RegimeError` naming the offending step.

    Examples
    --------
    >>> from maxinfo_bounds.results import Bound
    >>> c = compose_max_information([Bound(1.5, 0.01, "x"), Bound(2.0, 0.02, "y")])
    >>> c.k, c.beta      # 0.01 + 0.02 as exact binary values is just above 0.03: rounded up
    (3.5, 0.030000000000000002)
    >>> compose_max_information([Bound(1.0, 0.0, "a"), Bound(2.0, 0.01, "b", product_only=True)])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    maxinfo_bounds.numeric.RegimeError: RRST Thm A.3 does not apply: ...
    """
    items = as_nonempty_list("bounds", bounds, "Bound")
    in_regime = True
    for i, b in enumerate(items):
        if not isinstance(b, Bound):
            raise InvalidParameter(f"bounds[{i}]", b, "a maxinfo_bounds.catalog.Bound")
        if i > 0 and b.product_only:
            raise RegimeError(
                "RRST Thm A.3",
                f"bounds[{i}]",
                f"{b.theorem} (product_only)",
                "only the first step to have a product-only bound (RRST §4: a later step sees "
                "data conditioned on earlier outputs, not a product distribution)",
            )
        if not b.in_regime:
            if strict:
                raise RegimeError(
                    "RRST Thm A.3",
                    f"bounds[{i}]",
                    f"{b.theorem} (out of regime)",
                    "every composed bound to be proven (in its theorem's regime)",
                )
            in_regime = False
    # a vacuous step (k = inf: no bound) makes the sum vacuous; the exact sum takes finite k only
    k = math.inf if any(b.k == math.inf for b in items) else float_up(COMPOSE.exact(*(b.k for b in items)))
    # a beta of 1 or more makes any k true (every probability is at most 1): capped at 1
    beta = min(float_up(COMPOSE.exact(*(b.beta for b in items))), 1.0)
    return Bound(
        k=k,
        beta=beta,
        theorem="RRST-A.3",
        product_only=items[0].product_only,
        in_regime=in_regime,
        conditions=(
            f"{len(items)} adaptive steps: " + " then ".join(b.theorem for b in items),
            "only the first step may be product-only",
        ),
    )


register(
    Theorem(
        id="RRST-A.3",
        paper="RRST",
        number="Thm A.3; DFHPRR Lemma 5",
        title="Adaptive composition of approximate max-information",
        formula=COMPOSE,
        lhs=r"I^{\beta_1+\beta_2}_\infty(A_2(X, A_1(X)), n) \le",
        conditions=(
            "I^{beta_1}_inf(A_1, n) <= k_1 and I^{beta_2}_inf(A_2(., y), n) <= k_2 for every y",
            "each step's bound holds for every output of the previous steps",
            "a product-only bound (i.i.d. data) may only be the first step (RRST §4)",
        ),
        units="k in bits",
        params=(Param("bounds", "non-empty list of Bound", "the steps, in order", list),),
        evaluator=compose_max_information,
        returns="Bound(sum of k rounded up, sum of beta rounded up)",
        notes="Not callable from `maxinfo bound` (its input is a list of bounds); use Python or the planner.",
    )
)
