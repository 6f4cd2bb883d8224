"""Optimal homogeneous composition (Kairouz–Oh–Viswanath 2015, Thm 3.3), exact and certified.

The k-fold (eps, delta) randomized response dominates every k-fold adaptive composition of
(eps, delta)-DP steps, so its hockey-stick divergence is the optimal delta at each eps_total.
The sum over l = 0..k is evaluated in interval arithmetic over its significant terms only (the
rest bounded by a certified geometric series), in runs of exact integer arithmetic
(:func:`_kov_run`), so k = 10^6 costs about 0.05 s and k = 10^7 about 0.2 s. ``eps`` in nats;
eps_total rounded up, delta rounded up.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
from mpmath import libmp as mlib

from ...arith import NUMPY, SYMPY, Context, Interval
from ...domain import Real
from ...numeric import InvalidParameter, enclosure, float_down, float_up, iv_prec
from ...results import DPGuarantee
from ...search import first_true, root
from ..registry import Param, Theorem, register
from .composition import DELTA_BELOW_1, EPS, K, advanced_composition  # noqa: F401 (doctest)

DELTA_TOTAL_KOV = Param("delta_total", Real(0, 1, relation="delta_total >= 1 - (1 - delta)^k"), "target total delta")
EPS_TOTAL = Param("eps_total", Real(0, units="nats"), "total eps, nats")


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


def _kov_lost_body(c: Context, delta: Any, k: Any) -> Any:
    """1 - (1 - delta)^k, the probability that some step's delta event occurs."""
    return -c.expm1(k * c.log1p(-delta))


def _kov_log_terms(c: Context, eps: Any, k: Any, l: Any) -> tuple[Any, Any]:
    """(a_l, b_l): the logs of C(k, l) e^{(k-l) eps} and C(k, l) e^{l eps}."""
    lc = c.log_binomial(k, l)
    return lc + (k - l) * eps, lc + l * eps


def _kov_log_norm(c: Context, eps: Any, k: Any) -> Any:
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


def _kov_run(iv: Any, E: Any, k: int, l0: int, stop: int) -> tuple[int, Any, Any, Any, Any]:
    """The KOV15 terms from l0 on, relative to the term at l0, in exact integer arithmetic.

    With a_l = C(k, l) E^(k-l) and b_l = C(k, l) E^l (E = e^eps enclosed by ``E``), returns
    (l1, ra, rb, rsa, rsb): intervals enclosing a_l1/a_l0, b_l1/b_l0 and the sums over
    l0 <= j < l1 of a_j/a_l0 and b_j/b_l0, for the l1 <= stop reached (a run stops early when
    its integers pass P + 1,024 bits, so the caller folds it and goes on from l1).

    The ratios are fixed-point integers with P = prec + 32 fraction bits, each lower bound
    rounded down and each upper bound up at every step (every quantity is positive, so that
    is outward): lower a_{l+1} = floor(A m 2^P / (d E_hi)), upper ceil(A m 2^P / (d E_lo)),
    lower b_{l+1} = floor(B m E_lo / (d 2^P)), upper ceil(B m E_hi / (d 2^P)), m = k - l,
    d = l + 1, E_lo and E_hi the fixed-point floor and ceiling of E's endpoints. Python's
    integers do this about ten times faster than interval objects (issue 45); a run's error is
    at most (its length) 2^-P of its first term."""
    P = iv.prec + 32
    one = 1 << P
    Ea, Eb = E._mpi_
    El = mlib.to_int(mlib.mpf_shift(Ea, P), "f")
    Eh = mlib.to_int(mlib.mpf_shift(Eb, P), "c")
    cap = one << 1024  # pragma: no mutate (a run's length: speed; any stop is exact)
    Al = Ah = Bl = Bh = one
    SAl = SAh = SBl = SBh = 0
    l = l0
    while l < stop and Ah < cap and Bh < cap:
        SAl += Al
        SAh += Ah
        SBl += Bl
        SBh += Bh
        m, d = k - l, l + 1
        Al = (Al * m << P) // (d * Eh)
        Ah = -(-(Ah * m << P) // (d * El))
        Bl = Bl * m * El // (d << P)
        Bh = -(-(Bh * m * Eh) // (d << P))
        l += 1
    prec = iv.prec

    def out(lo: int, hi: int) -> Any:
        return iv.make_mpf(
            (mlib.from_man_exp(lo, -P, prec, mlib.round_floor), mlib.from_man_exp(hi, -P, prec, mlib.round_ceiling))
        )

    return l, out(Al, Ah), out(Bl, Bh), out(SAl, SAh), out(SBl, SBh)


class _KovDelta:
    """Certified enclosures of the optimal delta of k-fold (eps, delta) as a function of
    ``eps_total``, for one (eps, delta, k) and working precision.

    delta(eps_g) = lost + (1 - lost) (S_a(top) - e^{eps_g} S_b(top)) / (1 + e^eps)^k, where
    S_a(top) = sum_{l < top} C(k, l) e^{(k-l) eps}, S_b(top) = sum_{l < top} C(k, l) e^{l eps}
    and ``top`` counts the positive terms, (k - 2l) eps > eps_g (decided exactly). The two
    sums do not depend on eps_g: they are computed once per ``top`` (fixed-point runs of
    :func:`_kov_run` folded into interval arithmetic), each extending the running sums kept
    every 512 terms (or starting afresh at the first significant term when those are more
    than 2,048 terms below), so a search over eps_g costs about one pass over the significant
    terms.
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
        q = (self.k - Fraction(eps_total) / self.fe) / 2  # <= k/2: eps_total >= 0
        return max(math.ceil(q), 0)

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
        # pragma: no mutate start
        # Where the skipped range ends. Any lo is certified (the tail below it is enclosed, and
        # test_kov_skipped_terms_are_enclosed_by_the_geometric_tail checks the enclosure at 60
        # digits); these constants only keep that tail below the working precision, and skip
        # nothing where it would save little.
        p = float(E.b)
        sd = math.sqrt(k * p) / (1 + p)
        peak = int(k / (1 + p))
        lo = min(top, peak) - int(sd * math.sqrt(2 * math.log(2) * (self.prec + 16))) - 64
        if lo >= 2 * self._EVERY:
            # pragma: no mutate end
            r = lo * E / (k - lo + 1)  # the largest ratio of consecutive terms below lo
            if r.b < 1:
                c = Interval(iv)
                la, lb = _kov_log_terms(c, c.num(self.eps), k, lo)
                a, b = iv.exp(la), iv.exp(lb)
                rb = r / (E * E)
                tail_a, tail_b = a * r / (1 - r), b * rb / (1 - rb)
                return (lo, a, b, iv.mpf([0, tail_a.b]), iv.mpf([0, tail_b.b]))
        return (0, E**k, iv.mpf(1), iv.mpf(0), iv.mpf(0))

    def _prefix(self, iv: Any, top: int) -> tuple[Any, Any]:
        if top not in self._sums:
            k, E = self.k, self._base(iv)
            # pragma: no mutate start
            # Which kept state to extend, and which to keep: a speed choice (every kept state
            # is a valid start; test_kov_kept_states_are_reused_across_tops checks the reuse)
            below = [j for j in self._states if j <= top]
            start = max(below) if below else -1
            if start < 0 or top - start > 4 * self._EVERY:
                st = self._start(iv, top)
                if st[0] > start:
                    self._states[st[0]] = st
                    start = st[0]
            # pragma: no mutate end
            l, a, b, sa, sb = self._states[start]
            while l < top:
                # one run of at most _EVERY terms up to the next kept state (or top)
                stop = min(top, (l // self._EVERY + 1) * self._EVERY)
                l, ra, rb, rsa, rsb = _kov_run(iv, E, k, l, stop)
                sa, sb = sa + a * rsa, sb + b * rsb
                a, b = a * ra, b * rb
                if l % self._EVERY == 0:  # pragma: no mutate (which states to keep: speed)
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


# pragma: no mutate start
# The float surrogates steer the certified search only (optimal_composition's first_true, whose
# answer is the float at the certified boundary: test_kov_sweep_certified_tight_and_below_advanced)
def _kov_window(eps: float, k: int, eps_total: float) -> Any:
    """The l that carry the float sum: exp(a_l - z) is the binomial pmf of Bin(k, p), p =
    1/(1 + e^eps), and a term counts only for l < L = (k - eps_total/eps)/2 (where a_l > b_l).
    The largest terms sit at l_c = min(L, mode); the pmf falls off by more than e^-1000 within
    45 standard deviations (plus 64) either side, so the window [l_c - w, min(L, mode + w)]
    loses less than (k + 1) e^-1000 of the sum, which is at least its largest term. O(sqrt(k))
    terms instead of k + 1 (issue 45)."""
    p = 1.0 / (1.0 + math.exp(eps)) if eps < 700 else 0.0
    mode = k * p
    w = 45.0 * math.sqrt(k * p * (1.0 - p)) + 64.0
    cap = (k - eps_total / eps) / 2 if eps > 0 else float(k)
    top = min(float(k), math.ceil(cap), mode + w)
    lc = min(cap, mode)
    lo = max(0, int(math.floor(lc - w)))
    hi = max(lo, min(k, int(math.ceil(top))))
    return np.arange(lo, hi + 1)


def _kov_delta_float(eps: float, delta: float, k: int, eps_total: float) -> float:
    """Float surrogate of the same quantity (the bodies in log space, float64), for root
    finding only: over the window of significant terms (:func:`_kov_window`)."""
    la, lb = _kov_log_terms(NUMPY, eps, k, _kov_window(eps, k, eps_total))
    lz = _kov_log_norm(NUMPY, eps, k)
    a, b = la - lz, lb + eps_total - lz
    m = a > b
    d0 = float(np.sum(np.exp(a[m]) * -np.expm1(b[m] - a[m])))
    lost = float(_kov_lost_body(NUMPY, delta, k))
    return lost + (1.0 - lost) * d0


#: up to this k the float estimate solves the sum segment by segment (all k/2 + 1 terms in one
#: pass) instead of root-finding over the windowed sum
_SEGMENT_MAX_K = 20_000


def _kov_eps_segments(eps: float, delta: float, k: int, delta_total: float) -> float | None:
    """The float root of the KOV15 sum in one pass (issue 45: Brent took about 30 windowed
    sums per root, and the planner's required-n search solves hundreds).

    Between two kinks, x in [(k - 2t) eps, (k - 2t + 2) eps], exactly the terms l < t count,
    and the sum is affine in e^x: SA(t) - e^x SB(t) (prefix sums of the terms exp(a_l - z) and
    exp(b_l - z)). The segment holding the root is the first t whose value at its lower end
    reaches c = (delta_total - lost)/(1 - lost) (the sum increases as x falls); there
    x = log((SA(t) - c)/SB(t)), clipped to the segment. ``None`` (the caller root-finds) where
    the terms underflow or the prefix sums cannot resolve c."""
    if not eps > 0:
        return None
    t = np.arange(1, k // 2 + 2)  # every segment with x >= 0 (and the one reaching below 0)
    la, lb = _kov_log_terms(NUMPY, eps, k, t - 1)
    lz = _kov_log_norm(NUMPY, eps, k)
    # in logs throughout: e^x SB overflows where x nears k eps
    lsa, lsb = np.logaddexp.accumulate(la - lz), np.logaddexp.accumulate(lb - lz)
    lost = float(_kov_lost_body(NUMPY, delta, k))
    c = (delta_total - lost) / (1.0 - lost)
    if not (c > 0 and np.all(np.isfinite(lsa)) and np.all(np.isfinite(lsb))):
        return None
    lc = math.log(c)
    x_lo = (k - 2 * t) * eps
    # log of the sum at each segment's lower end, SA (1 - e^{x + lSB - lSA}); -inf where <= 0
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.maximum(x_lo, 0.0) + lsb - lsa
        at_lo = np.where(r < 0, lsa + np.log(-np.expm1(np.minimum(r, 0.0))), -np.inf)
    i = int(np.searchsorted(at_lo >= lc, True))  # increasing in t: the first that reaches c
    if i >= t.size or not lsa[i] > lc:
        return None
    x = float(lsa[i] + math.log(-math.expm1(lc - lsa[i])) - lsb[i])
    return min(max(x, float(x_lo[i]), 0.0), float(x_lo[i] + 2 * eps))


def kov_eps_float(eps: float, delta: float, k: int, delta_total: float) -> float:
    """Float estimate of the optimal eps_total (not certified; root of the float surrogate)."""

    hi = k * eps
    if delta_total <= 0:  # no mass may be lost: only the full k eps (the privacy curve is > 0 below it)
        return hi

    def f(x: float) -> float:
        return math.log(max(_kov_delta_float(eps, delta, k, x), 1e-320)) - math.log(delta_total)

    if f(0.0) <= 0:
        return 0.0
    if f(hi) >= 0:
        return hi
    if k <= _SEGMENT_MAX_K:
        x = _kov_eps_segments(eps, delta, k, delta_total)
        if x is not None:
            return x
    # (Brent can stall where the surrogate is flat between the sum's kinks, e.g. eps =
    # 0.000495, k = 126: root() then bisects)
    return root(f, 0.0, hi)


# pragma: no mutate end


def optimal_composition_delta(eps: float, delta: float, k: int, eps_total: float, *, dps: int = 30) -> float:
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


def optimal_composition(eps: float, delta: float, k: int, delta_total: float, *, dps: int = 30) -> DPGuarantee:
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
        raise InvalidParameter("delta_total", delta_total, f"at least 1 - (1 - delta)^k = {floor!r} (KOV15 Thm 3.3)")
    # (a float filter before the certified check; without the shortcut the search below
    # returns 0.0 too, first_true's lower limit)
    if _kov_delta_float(fe, fd, kk, 0.0) <= dt * (1 + 1e-9) and ok(0.0):  # pragma: no mutate
        return DPGuarantee(0.0, dt, "KOV15-3.3", conds)

    x = kov_eps_float(fe, fd, kk, dt)
    # the float surrogate sums up to k terms: start the certified search at 2^-44 relative
    x = first_true(x, ok, up=True, rel_step=2.0**-44)  # pragma: no mutate (step size: speed)
    return DPGuarantee(min(x, full), dt, "KOV15-3.3", conds)


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
    body = lost + (1 - lost) * sympy.Sum(c.pos(c.exp(a) - c.exp(eg + b)), (l, 0, k)) / c.exp(_kov_log_norm(c, e, k))
    return sympy.logcombine(body, force=True)  # e^{k log(1 - delta)} as (1 - delta)^k


register(
    Theorem(
        id="KOV15-3.3",
        paper="KOV15",
        number="Thm 3.3 (optimal composition)",
        title="Optimal homogeneous composition of k adaptive (eps, delta)-DP steps",
        latex=(
            r"\delta(\varepsilon_g) = 1-(1-\delta)^k + (1-\delta)^k \frac{\sum_{l}\binom{k}{l}"
            r"(e^{(k-l)\varepsilon} - e^{\varepsilon_g+l\varepsilon})_+}{(1+e^\varepsilon)^k}"
        ),
        conditions=("k adaptive steps, each (eps, delta)-DP (same eps, delta)",),
        units="eps in nats",
        params=(EPS, DELTA_BELOW_1, K, DELTA_TOTAL_KOV),
        evaluator=_kov,
        statement=_kov_statement,
        returns="DPGuarantee(smallest eps_total rounded up, delta_total)",
        value_name="eps_nats",
    )
)
