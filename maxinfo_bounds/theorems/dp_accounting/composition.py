"""DP composition: basic (Dwork–Roth Thm 3.16) and advanced (Thm 3.20, homogeneous and
heterogeneous), exact and certified (the optimal composition of KOV15 is :mod:`.optimal`).
``eps`` in nats; every returned parameter rounded up."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from ...arith import Context, Formula
from ...domain import Int, Real
from ...numeric import (
    InvalidParameter,
    as_nonempty_list,
    float_up,
    iv_prec,
)
from ...results import DPGuarantee
from ..registry import Param, Theorem, register

# -- parameters (declared once) ----------------------------------------------------------------
EPS = Param("eps", Real(0, units="nats"), "per-step eps, nats")
DELTA = Param("delta", Real(0, 1), "per-step delta")
DELTA_BELOW_1 = Param("delta", Real(0, 1, hi_open=True), "per-step delta")
K = Param("k", Int(1), "number of steps")
DELTA_PRIME = Param("delta_prime", Real(0, 1, lo_open=True, hi_open=True), "slack delta'")
DELTA_TOTAL = Param("delta_total", Real(0, 1, hi_open=True), "total delta budget")


def _groups(args: tuple[Any, ...]) -> list[tuple[Any, Any]]:
    """``(x1, k1, x2, k2, ...)`` -> ``[(x1, k1), (x2, k2), ...]``: k_i equal steps of value x_i."""
    return list(zip(args[::2], args[1::2]))


def _basic_body(c: Context, *groups: Any) -> Any:
    # Dwork & Roth Thm 3.16: sum_i eps_i (the same body sums the deltas)
    return sum((k * x for x, k in _groups(groups)), c.num(0))


def _advanced_body(c: Context, delta_prime: Any, *groups: Any) -> Any:
    # Dwork & Roth Thm 3.20 (heterogeneous form as in KOV15):
    # sqrt(2 ln(1/delta') sum_i eps_i^2) + sum_i eps_i (e^eps_i - 1)
    g = _groups(groups)
    s2 = sum((k * e**2 for e, k in g), c.num(0))
    lin = sum((k * e * c.expm1(e) for e, k in g), c.num(0))
    return c.sqrt(2 * c.log(1 / delta_prime) * s2) + lin


#: Dwork & Roth Thm 3.16, written once: arguments (eps_1, k_1, eps_2, k_2, ...)
BASIC = Formula(_basic_body, ("epsilon", "k"), integer=("k",))
#: Dwork & Roth Thm 3.20, written once: arguments (delta', eps_1, k_1, eps_2, k_2, ...)
ADVANCED = Formula(_advanced_body, ("delta_prime", "epsilon", "k"), integer=("k",))


Steps = Sequence[tuple[float, float]] | Mapping[tuple[float, float], int]
#: validated steps: (eps, delta) -> how many such steps (inputs exact)
Groups = Counter[tuple[Any, Any]]


def _flat(groups: Groups, i: int) -> list[Any]:
    """Component ``i`` (0: eps, 1: delta) of the steps as the bodies' arguments
    ``(x1, k1, x2, k2, ...)``: equal values grouped with their total count."""
    by: Counter[Any] = Counter()
    for pair, k in groups.items():
        by[pair[i]] += k
    return [v for x, k in by.items() for v in (x, k)]


def _sum_body(groups: Groups, i: int) -> Fraction:
    """The exact sum of component ``i`` (0: eps, 1: delta) over the steps, by the one body."""
    return BASIC.exact(*_flat(groups, i))


def _count(groups: Groups) -> int:
    return sum(groups.values())


#: the count of one step of a sequence of steps (a mapping's counts are validated)
_ONE: Any = object()


def _steps(steps: Steps) -> Groups:
    """Validate the steps: a sequence of (eps, delta) pairs, or a mapping (eps, delta) -> the
    number of such steps (so that 10^9 equal steps need no list of 10^9 pairs)."""
    out: Groups = Counter()
    if isinstance(steps, Mapping):
        if not steps:
            raise InvalidParameter("steps", steps, "a non-empty mapping (eps, delta) -> count")
        pairs: list[tuple[Any, Any]] = list(steps.items())
    else:
        pairs = [(st, _ONE) for st in as_nonempty_list("steps", steps, "(eps, delta) pairs")]
    for i, (st, k) in enumerate(pairs):
        try:
            e, d = st
        except (TypeError, ValueError) as exc:
            raise InvalidParameter(f"steps[{i}]", st, "an (eps, delta) pair") from exc
        # a sequence's step counts once; a mapping's count is validated (None is not a count)
        n = 1 if k is _ONE else int(K.check(k, label=f"steps[{st!r}]"))
        out[
            (
                EPS.check(e, label=f"steps[{i}].eps"),  # exact: summed exactly below
                DELTA.check(d, label=f"steps[{i}].delta"),
            )
        ] += n
    return out


def basic_composition(steps: Steps) -> DPGuarantee:
    r"""k adaptive steps, step i (eps_i, delta_i)-DP, are (Σ eps_i, Σ delta_i)-DP.

    Theorem: Dwork & Roth Thm 3.16 (basic composition; adaptive, as in Thm 3.20's setting).
    ``steps``: (eps, delta) pairs, or a mapping (eps, delta) -> number of such steps.
    Returns: exact sums of the inputs, rounded up.

    >>> basic_composition([(0.5, 1e-6)] * 4)
    DPGuarantee(eps=2.0, delta=4e-06, theorem='DR-3.16', conditions=('4 adaptive steps',))
    >>> basic_composition({(0.5, 1e-6): 4}) == basic_composition([(0.5, 1e-6)] * 4)
    True
    """
    return _basic(_steps(steps))


def _basic(g: Groups) -> DPGuarantee:
    e, d = float_up(_sum_body(g, 0)), float_up(_sum_body(g, 1))
    return DPGuarantee(e, min(d, 1.0), "DR-3.16", (f"{_count(g)} adaptive steps",))


def advanced_composition(steps: Steps, delta_prime: float, *, dps: int = 30) -> DPGuarantee:
    r"""Advanced composition of adaptive (eps_i, delta_i)-DP steps, for a slack delta'.

    .. math:: \varepsilon' = \sqrt{2\ln(1/\delta')\textstyle\sum_i \varepsilon_i^2}
              + \textstyle\sum_i \varepsilon_i (e^{\varepsilon_i} - 1),
              \qquad \delta_{\mathrm{total}} = \textstyle\sum_i \delta_i + \delta'

    Theorem: Dwork & Roth Thm 3.20 (Dwork–Rothblum–Vadhan) for equal steps, where it reads
    ``eps sqrt(2k ln(1/delta')) + k eps (e^eps - 1)``; the heterogeneous form as in
    Kairouz–Oh–Viswanath (2015). The result is never worse than basic composition: the smaller
    ``eps`` of the two is returned (both are valid at ``delta_total``, which is at least the
    basic ``Σ delta_i``).
    ``steps``: (eps, delta) pairs, or a mapping (eps, delta) -> number of such steps.
    Conditions: ``delta'`` in (0, 1).
    Returns: a :class:`DPGuarantee`, both parameters rounded up.

    >>> g = advanced_composition([(0.1, 0.0)] * 100, 1e-6)
    >>> round(g.eps, 6), g.delta   # 0.1 sqrt(200 ln 1e6) + 10 (e^0.1 - 1) = 6.30823095... (30 digits)
    (6.308231, 1e-06)
    """
    return _advanced(_steps(steps), DELTA_PRIME.check(delta_prime), dps)


def _advanced(g: Groups, dp: Any, dps: int) -> DPGuarantee:
    # equal steps are evaluated once, times their count
    adv = ADVANCED.up(dp, *_flat(g, 0), prec=iv_prec(dps))
    basic = _basic(g)
    d = float_up(_sum_body(g, 1) + Fraction(dp))
    return DPGuarantee(
        min(adv, basic.eps),
        min(d, 1.0),
        "DR-3.20",
        (f"{_count(g)} adaptive steps", f"delta' = {dp!r}", "min with basic composition"),
    )


def compose_dp(steps: Steps, delta_total: float, *, dps: int = 30) -> DPGuarantee:
    """The smallest eps this module can certify for the steps at a total delta budget.

    Advanced composition with ``delta' = delta_total - Σ delta_i`` (its eps decreases in
    delta', so the whole remaining budget is used), or basic composition when no budget
    remains. Raises InvalidParameter if ``delta_total < Σ delta_i``. ``steps``: (eps, delta)
    pairs, or a mapping (eps, delta) -> number of such steps.

    >>> compose_dp([(0.1, 0.0)] * 100, 1e-6).eps == advanced_composition([(0.1, 0.0)] * 100, 1e-6).eps
    True
    """
    g = _steps(steps)
    dt = Fraction(DELTA_TOTAL.check(delta_total))
    used = _sum_body(g, 1)
    if dt < used:
        raise InvalidParameter("delta_total", delta_total, f"at least the steps' total delta {float(used)!r}")
    if dt == used:
        return _basic(g)
    slack = dt - used
    dp = float(slack)
    if Fraction(dp) > slack:  # keep delta' at or below the remaining budget
        dp = math.nextafter(dp, 0.0)
    return _advanced(g, dp, dps)


def _advanced_homogeneous(eps: float, delta: float, k: int, delta_prime: float) -> DPGuarantee:
    """k equal steps: Theorem: Dwork & Roth Thm 3.20 (see :func:`advanced_composition`)."""
    return advanced_composition({(eps, delta): int(K.check(k))}, delta_prime)


register(
    Theorem(
        id="DR-3.20",
        paper="Dwork-Roth",
        number="Thm 3.20 (advanced composition, DRV10)",
        title="Advanced composition of adaptive (eps, delta)-DP steps",
        formula=ADVANCED,
        lhs=r"\varepsilon' =",
        conditions=(
            "k adaptive steps, each (eps, delta)-DP",
            "delta_total = k delta + delta'",
            "eps returned is the smaller of advanced and basic",
        ),
        units="eps in nats",
        params=(EPS, DELTA, K, DELTA_PRIME),
        evaluator=_advanced_homogeneous,
        returns="DPGuarantee(eps rounded up, delta rounded up)",
        value_name="eps_nats",
    )
)


def _basic_homogeneous(eps: float, delta: float, k: int) -> DPGuarantee:
    """Theorem: Dwork & Roth Thm 3.16 (see :func:`basic_composition`)."""
    return basic_composition({(eps, delta): int(K.check(k))})


register(
    Theorem(
        id="DR-3.16",
        paper="Dwork-Roth",
        number="Thm 3.16 (basic composition)",
        title="k adaptive (eps, delta)-DP steps are (k eps, k delta)-DP",
        formula=BASIC,
        lhs=r"\varepsilon' =",
        conditions=("k adaptive steps, step i (eps_i, delta_i)-DP", "delta' = k delta (same sum)"),
        units="eps in nats",
        params=(EPS, DELTA, K),
        evaluator=_basic_homogeneous,
        returns="DPGuarantee(eps rounded up, delta rounded up)",
        value_name="eps_nats",
    )
)
