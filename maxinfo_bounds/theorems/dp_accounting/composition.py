"""DP composition: basic (Dwork–Roth Thm 3.16), advanced (Thm 3.20, homogeneous and
heterogeneous), and optimal homogeneous composition (Kairouz–Oh–Viswanath 2015, Thm 3.3), exact
and certified. ``eps`` in nats; every returned parameter rounded up."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from ...arith import NUMPY, SYMPY, Formula, Interval
from ...domain import Int, Real
from ...numeric import (
    InvalidParameter,
    as_nonempty_list,
    enclosure,
    float_down,
    float_up,
    iv_prec,
)
from ...results import DPGuarantee
from ...search import brentq, first_true
from ..registry import Param, Theorem, register

# -- parameters (declared once) ----------------------------------------------------------------
EPS = Param("eps", Real(0, units="nats"), "per-step eps, nats")
DELTA = Param("delta", Real(0, 1), "per-step delta")
DELTA_BELOW_1 = Param("delta", Real(0, 1, hi_open=True), "per-step delta")
K = Param("k", Int(1), "number of steps")
DELTA_PRIME = Param("delta_prime", Real(0, 1, lo_open=True, hi_open=True), "slack delta'")
DELTA_TOTAL = Param("delta_total", Real(0, 1, hi_open=True), "total delta budget")
DELTA_TOTAL_KOV = Param("delta_total", Real(0, 1, relation="delta_total >= 1 - (1 - delta)^k"),
                        "target total delta")
EPS_TOTAL = Param("eps_total", Real(0, units="nats"), "total eps, nats")


def _groups(args: tuple[Any, ...]) -> list[tuple[Any, Any]]:
    """``(x1, k1, x2, k2, ...)`` -> ``[(x1, k1), (x2, k2), ...]``: k_i equal steps of value x_i."""
    return list(zip(args[::2], args[1::2]))


def _basic_body(c: Any, *groups: Any) -> Any:
    # Dwork & Roth Thm 3.16: sum_i eps_i (the same body sums the deltas)
    return sum((k * x for x, k in _groups(groups)), c.num(0))


def _advanced_body(c: Any, delta_prime: Any, *groups: Any) -> Any:
    # Dwork & Roth Thm 3.20 (heterogeneous form as in KOV15):
    # sqrt(2 ln(1/delta') sum_i eps_i^2) + sum_i eps_i (e^eps_i - 1)
    g = _groups(groups)
    s2 = sum((k * e ** 2 for e, k in g), c.num(0))
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


def _steps(steps: Steps) -> Groups:
    """Validate the steps: a sequence of (eps, delta) pairs, or a mapping (eps, delta) -> the
    number of such steps (so that 10^9 equal steps need no list of 10^9 pairs)."""
    out: Groups = Counter()
    if isinstance(steps, Mapping):
        if not steps:
            raise InvalidParameter("steps", steps, "a non-empty mapping (eps, delta) -> count")
        pairs: list[tuple[Any, Any]] = list(steps.items())
    else:
        pairs = [(st, None) for st in as_nonempty_list("steps", steps, "(eps, delta) pairs")]
    for i, (st, k) in enumerate(pairs):
        try:
            e, d = st
        except (TypeError, ValueError) as exc:
            raise InvalidParameter(f"steps[{i}]", st, "an (eps, delta) pair") from exc
        n = 1 if k is None else int(K.check(k, label=f"steps[{st!r}]"))
        out[(EPS.check(e, label=f"steps[{i}].eps"),   # exact: summed exactly below
             DELTA.check(d, label=f"steps[{i}].delta"))] += n
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
    return DPGuarantee(min(adv, basic.eps), min(d, 1.0), "DR-3.20",
                       (f"{_count(g)} adaptive steps", f"delta' = {dp!r}",
                        "min with basic composition"))


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
        raise InvalidParameter("delta_total", delta_total,
                               f"at least the steps' total delta {float(used)!r}")
    if dt == used:
        return _basic(g)
    slack = dt - used
    dp = float(slack)
    if Fraction(dp) > slack:  # keep delta' at or below the remaining budget
        dp = math.nextafter(dp, 0.0)
    return _advanced(g, dp, dps)


Exact = float | int | Fraction


def _kov_checked(eps: object, delta: object, k: object) -> tuple[Exact, Exact, int]:
    # validated and kept exact: a Fraction or big integer reaches the interval body unrounded
    return EPS.check(eps), DELTA_BELOW_1.check(delta), int(K.check(k))


# KOV15 Thm 3.3, written once: the statement, the certified interval algorithm and the float
# surrogate the root finder uses all evaluate these three bodies,
#     delta(eps_g) = lost + (1 - lost) sum_{l=0}^{k} (e^{a_l} - e^{eps_g + b_l})_+ / e^z,
# lost = 1 - (1 - delta)^k, a_l = log C(k, l) + (k - l) eps, b_l = log C(k, l) + l eps,
# z = k log(1 + e^eps). (The interval algorithm sums the terms by the ratio of consecutive
# ones from a starting term the body gives, and takes (1 + e^eps)^k directly.)

def _kov_lost_body(c: Any, delta: Any, k: Any) -> Any:
    """1 - (1 - delta)^k, the probability that some step's delta event occurs."""
    return -c.expm1(k * c.log1p(-delta))


def _kov_log_terms(c: Any, eps: Any, k: Any, l: Any) -> tuple[Any, Any]:
    """(a_l, b_l): the logs of C(k, l) e^{(k-l) eps} and C(k, l) e^{l eps}."""
    lc = c.log_binomial(k, l)
    return lc + (k - l) * eps, lc + l * eps


def _kov_log_norm(c: Any, eps: Any, k: Any) -> Any:
    """z = log (1 + e^eps)^k."""
    return k * c.log1pexp(eps)


def _kov_lost(c: Interval, delta: Exact, k: int) -> Any:
    """The body's 1 - (1 - delta)^k enclosed twice and intersected: directly (exact when
    k = 1, tight for moderate delta) and as the body writes it, -expm1(k log1p(-delta)) (no
    cancellation for tiny delta, where the direct one is as wide as the working precision's
    ulp of 1)."""
    d = c.num(delta)
    a, b = 1 - (1 - d) ** k, _kov_lost_body(c, d, k)
    return c.iv.mpf([max(a.a, b.a), min(a.b, b.b)])


class _KovDelta:
    """Certified enclosures of the optimal delta of k-fold (eps, delta) as a function of
    ``eps_total``, for one (eps, delta, k) and working precision.

    delta(eps_g) = lost + (1 - lost) (S_a(top) - e^{eps_g} S_b(top)) / (1 + e^eps)^k, where
    S_a(top) = sum_{l < top} C(k, l) e^{(k-l) eps}, S_b(top) = sum_{l < top} C(k, l) e^{l eps}
    and ``top`` counts the positive terms, (k - 2l) eps > eps_g (decided exactly). The two
    sums do not depend on eps_g: they are computed once per ``top`` (interval arithmetic),
    each extending the running sums kept every 512 terms (or starting afresh at the first
    significant term when those are more than 2,048 terms below), so a search over eps_g costs
    about one pass over the significant terms.
    """

    def __init__(self, eps: Exact, delta: Exact, k: int, prec: int) -> None:
        self.eps, self.delta, self.k, self.prec = eps, delta, k, prec
        self.fe = Fraction(eps)
        self._sums: dict[int, tuple[Any, Any]] = {}
        self._states: dict[int, tuple[int, Any, Any, Any, Any]] = {}
        self._E: Any = None
        self._const: tuple[Any, Any] | None = None

    def _base(self, iv: Any) -> Any:
        """E = e^eps, enclosed once (the working precision is fixed per instance)."""
        if self._E is None:
            self._E = iv.exp(Interval(iv).num(self.eps))
        return self._E

    def top(self, eps_total: Exact) -> int:
        """#{l in 0..k: (k - 2l) eps > eps_total}, exactly: l < (k - eps_total/eps)/2."""
        if self.fe == 0:
            return 0
        q = (self.k - Fraction(eps_total) / self.fe) / 2
        return min(max(math.ceil(q), 0), self.k + 1)

    #: the prefix sums' running state is kept every this many terms, so a sum up to any
    #: ``top`` extends the nearest kept state below it
    _EVERY = 512

    def _start(self, iv: Any, top: int) -> tuple[int, Any, Any, Any, Any]:
        """The running state at the first significant term below ``top``: (l, C(k, l) E^(k-l),
        C(k, l) E^l, and enclosures of the two sums over j < l). Both term sequences rise
        geometrically towards the significant range (C(k, l) E^(k-l) peaks at l ~ k/(1+E),
        C(k, l) E^l rises up to k/2 >= top), so the terms below l = (the lower of top and the
        peak) minus ~sqrt(2 ln 2 prec) standard deviations are bounded by a geometric series
        from the term at l: ratio r = l E/(k - l + 1) < 1 for the first sequence, r/E^2 for
        the second. Returns l = 0 (no bound needed) when that is not far below."""
        k, E = self.k, self._base(iv)
        p = float(E.b)
        sd = math.sqrt(k * p) / (1 + p)
        peak = int(k / (1 + p))
        lo = min(top, peak) - int(sd * math.sqrt(2 * math.log(2) * (self.prec + 16))) - 64
        if lo >= 2 * self._EVERY:
            r = lo * E / (k - lo + 1)           # the largest ratio of consecutive terms below lo
            if r.b < 1:
                c = Interval(iv)
                la, lb = _kov_log_terms(c, c.num(self.eps), k, lo)
                a, b = iv.exp(la), iv.exp(lb)
                rb = r / (E * E)
                tail_a, tail_b = a * r / (1 - r), b * rb / (1 - rb)
                return (lo, a, b, iv.mpf([0, tail_a.b]), iv.mpf([0, tail_b.b]))
        return (0, E ** k, iv.mpf(1), iv.mpf(0), iv.mpf(0))

    def _prefix(self, iv: Any, top: int) -> tuple[Any, Any]:
        if top not in self._sums:
            k, E = self.k, self._base(iv)
            below = [j for j in self._states if j <= top]
            start = max(below) if below else -1
            if start < 0 or top - start > 4 * self._EVERY:
                st = self._start(iv, top)
                if st[0] > start:
                    self._states[st[0]] = st
                    start = st[0]
            l, a, b, sa, sb = self._states[start]
            while l < top:
                sa, sb = sa + a, sb + b
                a = a * (k - l) / ((l + 1) * E)
                b = b * (k - l) * E / (l + 1)
                l += 1
                if l % self._EVERY == 0:
                    self._states[l] = (l, a, b, sa, sb)
            self._sums[top] = (sa, sb)
        return self._sums[top]

    def __call__(self, eps_total: Exact) -> tuple[float, float]:
        top = self.top(eps_total)

        def f(iv: Any) -> Any:
            c = Interval(iv)
            if self._const is None:
                self._const = (_kov_lost(c, self.delta, self.k), (1 + self._base(iv)) ** self.k)
            lost, z = self._const
            sa, sb = self._prefix(iv, top)
            s = sa - iv.exp(c.num(eps_total)) * sb
            return lost + (1 - lost) * (s / z)

        return enclosure(f, prec=self.prec)


def _kov_delta_float(eps: float, delta: float, k: int, eps_total: float) -> float:
    """Float surrogate of the same quantity (the bodies in log space, float64), for root
    finding only."""
    la, lb = _kov_log_terms(NUMPY, eps, k, np.arange(k + 1))
    lz = _kov_log_norm(NUMPY, eps, k)
    a, b = la - lz, lb + eps_total - lz
    m = a > b
    d0 = float(np.sum(np.exp(a[m]) * -np.expm1(b[m] - a[m])))
    lost = float(_kov_lost_body(NUMPY, delta, k))
    return lost + (1.0 - lost) * d0


def kov_eps_float(eps: float, delta: float, k: int, delta_total: float) -> float:
    """Float estimate of the optimal eps_total (not certified; root of the float surrogate)."""
    def f(x: float) -> float:
        return math.log(max(_kov_delta_float(eps, delta, k, x), 1e-320)) - math.log(delta_total)

    hi = k * eps
    if f(0.0) <= 0:
        return 0.0
    return hi if f(hi) >= 0 else float(brentq(f, 0.0, hi, xtol=1e-300, rtol=1e-15))


def optimal_composition_delta(eps: float, delta: float, k: int, eps_total: float, *,
                              dps: int = 30) -> float:
    r"""The exact smallest delta such that every k-fold adaptive composition of (eps, delta)-DP
    mechanisms is (eps_total, delta)-DP.

    .. math:: \delta(\varepsilon_g) = 1 - (1-\delta)^k + (1-\delta)^k
              \frac{\sum_{l=0}^{k} \binom{k}{l}\,\big(e^{(k-l)\varepsilon}
              - e^{\varepsilon_g} e^{l\varepsilon}\big)_+}{(1+e^{\varepsilon})^k}

    Theorem: Kairouz–Oh–Viswanath (2015) Thm 3.3: the k-fold (eps, delta) randomized response
    dominates every k-fold composition, so the formula (its hockey-stick divergence at
    e^{eps_total}) is optimal; at eps_total = (k - 2i) eps it is the theorem's delta_i.
    Returns: delta rounded up (interval arithmetic over the significant terms; the terms far
    below them bounded by a certified geometric series; see :class:`_KovDelta`).

    >>> optimal_composition_delta(1.0, 0.0, 2, 0.0)   # (e^2 - 1)/(1 + e)^2 = tanh(1/2) = 0.4621171572600097585...
    0.4621171572600098
    """
    e, d, kk = _kov_checked(eps, delta, k)
    g = EPS_TOTAL.check(eps_total)
    return min(_KovDelta(e, d, kk, iv_prec(dps))(g)[1], 1.0)


def optimal_composition(eps: float, delta: float, k: int, delta_total: float, *,
                        dps: int = 30) -> DPGuarantee:
    r"""The smallest eps_total with which k adaptive (eps, delta)-DP steps are
    (eps_total, delta_total)-DP: the optimal homogeneous composition.

    Theorem: Kairouz–Oh–Viswanath (2015) Thm 3.3 (see :func:`optimal_composition_delta`).
    Conditions: ``delta_total >= 1 - (1 - delta)^k`` (no eps reaches less).
    Returns: eps_total rounded up: the returned value is certified (its delta, evaluated in
    interval arithmetic, is at most ``delta_total``) and within about 10^-14 relative of the
    exact optimum.
    It is never larger than advanced composition at the same total delta.

    >>> g = optimal_composition(0.1, 0.0, 100, 1e-6)
    >>> g.eps < advanced_composition([(0.1, 0.0)] * 100, 1e-6).eps
    True
    """
    e, d, kk = _kov_checked(eps, delta, k)
    # the budget as the float at or below it: the guarantee reported is the one verified
    dt = float_down(DELTA_TOTAL_KOV.check(delta_total))
    fe, fd = float(e), float(d)
    prec = iv_prec(dps)
    conds = (f"{kk} adaptive steps, each ({e!r}, {d!r})-DP", "homogeneous steps")

    delta_at = _KovDelta(e, d, kk, prec)

    def ok(x: float) -> bool:
        return delta_at(x)[1] <= dt

    full = float_up(kk * Fraction(e))
    if not ok(full):
        floor = enclosure(lambda iv: _kov_lost(Interval(iv), d, kk), prec=prec)[1]
        raise InvalidParameter("delta_total", delta_total,
                               f"at least 1 - (1 - delta)^k = {floor!r} (KOV15 Thm 3.3)")
    if _kov_delta_float(fe, fd, kk, 0.0) <= dt * (1 + 1e-9) and ok(0.0):
        return DPGuarantee(0.0, dt, "KOV15-3.3", conds)

    x = kov_eps_float(fe, fd, kk, dt)
    # the float surrogate sums up to k terms: start the certified search at 2^-44 relative
    x = first_true(x, ok, up=True, rel_step=2.0**-44)
    return DPGuarantee(min(x, full), dt, "KOV15-3.3", conds)


def _advanced_homogeneous(eps: float, delta: float, k: int, delta_prime: float) -> DPGuarantee:
    """k equal steps: Theorem: Dwork & Roth Thm 3.20 (see :func:`advanced_composition`)."""
    return advanced_composition({(eps, delta): int(K.check(k))}, delta_prime)


register(Theorem(
    id="DR-3.20", paper="Dwork-Roth", number="Thm 3.20 (advanced composition, DRV10)",
    title="Advanced composition of adaptive (eps, delta)-DP steps",
    formula=ADVANCED, lhs=r"\varepsilon' =",
    conditions=("k adaptive steps, each (eps, delta)-DP", "delta_total = k delta + delta'",
                "eps returned is the smaller of advanced and basic"),
    units="eps in nats",
    params=(EPS, DELTA, K, DELTA_PRIME),
    evaluator=_advanced_homogeneous,
    returns="DPGuarantee(eps rounded up, delta rounded up)",
    value_name="eps_nats",
))


def _kov(eps: float, delta: float, k: int, delta_total: float) -> DPGuarantee:
    """Theorem: Kairouz–Oh–Viswanath (2015) Thm 3.3 (see :func:`optimal_composition`)."""
    return optimal_composition(eps, delta, k, delta_total)


def _kov_statement() -> Any:
    import sympy  # statements only (keeps sympy out of the calculator's import)

    k, l = sympy.symbols("k l", integer=True, nonnegative=True)
    e, eg, d = sympy.symbols("epsilon epsilon_g delta", nonnegative=True)
    c = SYMPY
    lost = _kov_lost_body(c, d, k)
    a, b = _kov_log_terms(c, e, k, l)
    body = lost + (1 - lost) * sympy.Sum(c.pos(c.exp(a) - c.exp(eg + b)), (l, 0, k)) / c.exp(
        _kov_log_norm(c, e, k))
    return sympy.logcombine(body, force=True)   # e^{k log(1 - delta)} as (1 - delta)^k


register(Theorem(
    id="KOV15-3.3", paper="KOV15", number="Thm 3.3 (optimal composition)",
    title="Optimal homogeneous composition of k adaptive (eps, delta)-DP steps",
    latex=(r"\delta(\varepsilon_g) = 1-(1-\delta)^k + (1-\delta)^k \frac{\sum_{l}\binom{k}{l}"
           r"(e^{(k-l)\varepsilon} - e^{\varepsilon_g+l\varepsilon})_+}{(1+e^\varepsilon)^k}"),
    conditions=("k adaptive steps, each (eps, delta)-DP (same eps, delta)",),
    units="eps in nats",
    params=(EPS, DELTA_BELOW_1, K, DELTA_TOTAL_KOV),
    evaluator=_kov, statement=_kov_statement,
    returns="DPGuarantee(smallest eps_total rounded up, delta_total)",
    value_name="eps_nats",
))


def _basic_homogeneous(eps: float, delta: float, k: int) -> DPGuarantee:
    """Theorem: Dwork & Roth Thm 3.16 (see :func:`basic_composition`)."""
    return basic_composition({(eps, delta): int(K.check(k))})


register(Theorem(
    id="DR-3.16", paper="Dwork-Roth", number="Thm 3.16 (basic composition)",
    title="k adaptive (eps, delta)-DP steps are (k eps, k delta)-DP",
    formula=BASIC, lhs=r"\varepsilon' =",
    conditions=("k adaptive steps, step i (eps_i, delta_i)-DP", "delta' = k delta (same sum)"),
    units="eps in nats",
    params=(EPS, DELTA, K),
    evaluator=_basic_homogeneous,
    returns="DPGuarantee(eps rounded up, delta rounded up)", value_name="eps_nats",
))
