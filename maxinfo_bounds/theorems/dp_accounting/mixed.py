r"""The exact (eps, delta) curve of an adaptive composition of pure-DP steps and Gaussian steps.

An eps_j-DP step is dominated by randomized response with parameter eps_j (its privacy loss is
+eps_j with probability e^eps_j/(1 + e^eps_j), else -eps_j), and a mu-GDP part by the Gaussian
pair (privacy loss N(mu^2/2, mu^2)); the adaptive composition of dominated steps is dominated by
the product of the pairs, and the product's hockey-stick divergence is the exact optimum
(Kairouz, Oh & Viswanath, ICML 2015, Thm 3.3's argument for equal steps; Dong, Roth & Su,
JRSS-B 2022, §2-3: eps-DP is f_{eps,0}-DP, f-DP composes as the tensor product of trade-off
functions, Gaussian steps compose to sqrt(sum mu_i^2)-GDP, Cor. 3.3). Summing over the pure
steps' sign patterns, grouped by how many of the k_j steps of value eps_j came out negative:

.. math:: \delta(\varepsilon) = \sum_{m} \prod_j \binom{k_j}{m_j} p_j^{k_j - m_j} q_j^{m_j}
          \; g_\mu\Big(\varepsilon - \sum_j (k_j - 2 m_j)\varepsilon_j\Big),

with p_j = e^{eps_j}/(1 + e^{eps_j}), q_j = 1 - p_j, and g_mu(x) = E[(1 - e^{x - L})_+] =
Phi(-x/mu + mu/2) - e^x Phi(-x/mu - mu/2) (the GDP curve, valid for every real x) or, with no
Gaussian part, (1 - e^x)_+. Certified: the weights in interval arithmetic, g_mu by the
Balle-Wang evaluator (50 digits, widened) once per distinct shift, every term kept (none
truncated; the search first tries the terms far below the sum with a Chernoff bound on g_mu,
and every term in full where that bound does not settle it). The number of
sign-count patterns is prod_j (k_j + 1); it is capped at :data:`MAX_PATTERNS`.

>>> round(mixed_epsilon({}, 1.0, 1e-6), 6)          # Gaussian part only: the GDP curve
4.886554
>>> mixed_delta({1.0: 1}, 0.0, 0.0) == mixed_delta({1.0: 1}, 0.0, 0.0)  # RR: (e - 1)/(e + 1)
True
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import numpy as np

from ...domain import Int, Real
from ...numeric import InvalidParameter, enclosure, float_down, float_up
from ...numeric.special import special
from ...search import bisect_floats, root
from ..registry import Param, Theorem, register
from .mechanisms import _ag_delta_bounds

__all__ = ["mixed_delta", "mixed_epsilon", "mixed_epsilon_estimate", "MAX_PATTERNS", "pattern_count"]

#: the largest number of sign-count patterns prod_j (k_j + 1) evaluated
MAX_PATTERNS = 20_000

EPS_STEP = Param("eps_step", Real(0, lo_open=True, units="nats"), "a pure step's eps, nats")
COUNT = Param("k", Int(1), "number of such steps")
MU = Param("mu", Real(0, 1e7), "the Gaussian part's mu (0: none)")
EPS = Param("eps", Real(0, units="nats"), "eps, nats")
DELTA = Param("delta", Real(0, 1, lo_open=True, hi_open=True), "target delta")


def pattern_count(pure: Mapping[float, int]) -> int:
    """prod_j (k_j + 1): the number of terms of the exact sum."""
    out = 1
    for k in pure.values():
        out *= int(k) + 1
    return out


def _check(pure: Mapping[float, int], mu: float) -> tuple[list[tuple[float, int]], float]:
    if not isinstance(pure, Mapping):
        raise InvalidParameter("pure", pure, "a mapping eps -> number of steps")
    # a step's eps and the Gaussian mu read as the float at or above them (an eps-DP step is
    # also eps'-DP for every eps' >= eps; mu-GDP is mu'-GDP for mu' >= mu): the safe side
    groups = sorted((float_up(EPS_STEP.check(e)), COUNT.check(k)) for e, k in pure.items())
    m = float_up(MU.check(mu))
    if not groups and m == 0:
        raise InvalidParameter("pure", pure, "at least one step (or mu > 0)")
    if pattern_count(pure) > MAX_PATTERNS:
        raise InvalidParameter(
            "pure", f"{len(groups)} distinct eps", f"at most {MAX_PATTERNS} sign-count patterns prod (k_j + 1)"
        )
    return groups, m


def _patterns(groups: list[tuple[float, int]]) -> tuple[np.ndarray, np.ndarray, list[tuple[int, ...]]]:
    """log weights and privacy-loss shifts s of every sign-count pattern (floats), and the
    patterns (minus counts per group)."""
    pats = list(itertools.product(*(range(k + 1) for _, k in groups)))
    logw = np.zeros(len(pats))
    s = np.zeros(len(pats))
    for j, (e, k) in enumerate(groups):
        m = np.array([p[j] for p in pats], dtype=float)
        lp, lq = -math.log1p(math.exp(-e)), -math.log1p(math.exp(e)) if e < 700 else -e
        lc = np.array([math.lgamma(k + 1) - math.lgamma(mm + 1) - math.lgamma(k - mm + 1) for mm in m])
        logw += lc + (k - m) * lp + m * lq
        s += (k - 2 * m) * e
    return logw, s, pats


def _log_g(x: np.ndarray, mu: float) -> np.ndarray:
    """log g_mu(x) in floats (-inf where it is 0)."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if mu == 0:
            return np.where(x < 0, np.log(-np.expm1(np.minimum(x, 0.0))), -np.inf)
        log_ndtr = special().log_ndtr

        a = mu / 2 - x / mu
        b = -mu / 2 - x / mu
        la, lb = log_ndtr(a), log_ndtr(b)
        d = x + lb - la
        return np.where(d < 0, la + np.log(-np.expm1(np.minimum(d, 0.0))), -np.inf)


def _log_delta_float(logw: np.ndarray, s: np.ndarray, mu: float, eps: float) -> float:
    t = logw + _log_g(eps - s, mu)
    top = float(np.max(t))
    if top == -math.inf:
        return -math.inf
    return top + math.log(float(np.sum(np.exp(t - top))))


def _coarse_terms(logw: np.ndarray, s: np.ndarray, mu: float, eps: float) -> np.ndarray | None:
    """The patterns whose coarse bounds (see :func:`_delta_upper`) add up, in floats, to at
    most 1e-15 of the float delta: the smallest first. ``None`` when there are none. (A choice
    of speed only: whatever is chosen, the coarse sum is an upper bound.)"""
    total = _log_delta_float(logw, s, mu, eps)
    if total == -math.inf:
        return None
    # (a tiny mu sends a, and a^2, past the floats: -inf, a zero coarse bound, is right there)
    with np.errstate(over="ignore"):
        a = (eps - s) / mu - mu / 2
        cb = logw + np.where(a >= 0, -a * a / 2 - math.log(2), 0.0)
    order = np.argsort(cb)
    cum = np.logaddexp.accumulate(cb[order])
    n = int(np.searchsorted(cum, total + math.log(1e-15), side="right"))
    if n == 0:
        return None
    mask = np.zeros(cb.size, dtype=bool)
    mask[order[:n]] = True
    return mask


def _delta_upper(
    groups: list[tuple[float, int]],
    mu: float,
    eps: float,
    pats: list[tuple[int, ...]],
    coarse: np.ndarray | None = None,
) -> float:
    """A certified upper bound on delta(eps) (interval arithmetic; every term kept).

    ``coarse`` (a mask over the patterns) marks terms known from the float sum to be far below
    it: their g_mu(x) is bounded by Phi(-a) <= e^{-a^2/2}/2, a = x/mu - mu/2 >= 0 (the
    Chernoff bound of the normal tail; g_mu <= Phi(mu/2 - x/mu) as its second term is >= 0),
    or by 1, instead of the 50-digit Balle-Wang evaluation: an upper bound still, a little
    wider, and about 60x cheaper per term (issue 45)."""

    def fn(iv: Any) -> Any:
        # each group's weight of m minus signs, C(k, m) p^(k - m) q^m, once per (j, m)
        fac, shifts = [], []
        for e, k in groups:
            ee = iv.exp(iv.mpf(e))
            p, q = ee / (1 + ee), 1 / (1 + ee)
            fac.append([math.comb(k, m) * p ** (k - m) * q**m for m in range(k + 1)])
            shifts.append([(k - 2 * m) * Fraction(e) for m in range(k + 1)])
        total = iv.mpf(0)
        fe = Fraction(eps)
        fmu = Fraction(mu)
        # g_mu at each distinct x once: steps of commensurate eps share shifts
        g_at: dict[Fraction, Any] = {}
        for i, pat in enumerate(pats):
            w = iv.mpf(1)
            shift = Fraction(0)
            for j, m in enumerate(pat):
                w *= fac[j][m]
                shift += shifts[j][m]
            x = fe - shift
            if mu == 0:
                if x >= 0:
                    continue
                g = -iv.expm1(iv.mpf(x.numerator) / x.denominator)
            elif coarse is not None and coarse[i]:
                a = x / fmu - fmu / 2
                if a >= 0:
                    aa = iv.mpf(a.numerator) / a.denominator
                    g = iv.mpf([0, (iv.exp(-(aa * aa) / 2) / 2).b])
                else:
                    g = iv.mpf([0, 1])
            elif x in g_at:
                g = g_at[x]
            else:
                lo, hi = _ag_delta_bounds(fmu, 1, x)
                g = g_at[x] = iv.mpf([max(lo, 0), max(hi, 0)])
            total += w * g
        return total

    return enclosure(fn, prec=160)[1]


def mixed_delta(pure: Mapping[float, int], mu: float, eps: float) -> float:
    """The exact delta at ``eps`` of the composition of ``pure`` (eps_j -> k_j steps of
    eps_j-DP) and a mu-GDP part (``mu = 0``: none), rounded up (module doc).

    >>> round(mixed_delta({1.0: 1}, 0.0, 0.0), 12)     # randomized response: tanh(1/2)
    0.46211715726
    """
    groups, m = _check(pure, mu)
    e = float_down(EPS.check(eps))  # delta(eps) decreases in eps: a smaller eps is the safe side
    pats = list(itertools.product(*(range(k + 1) for _, k in groups)))
    return min(_delta_upper(groups, m, e, pats), 1.0)


def mixed_epsilon(pure: Mapping[float, int], mu: float, delta: float) -> float:
    """The smallest eps (nats, within a relative 1e-12 or so of the optimum) at which the
    composition of ``pure`` and a mu-GDP part is certified (eps, delta)-DP; rounded up.

    The root e0 is found in floats and then certified: e0 (1 + 1e-12) if its certified delta is
    at most ``delta``; else the first of e0 (1 + 1e-12 4^j) that is, bisected down to a relative
    1e-12 of the last that was not; where none is (a float root of 0 while the target lies
    within rounding of delta(0)), a certified eps found by galloping up, bisected likewise. (A
    float root above the true one by more than 1e-12, which the float sum's rounding can give
    where delta is flat in eps, is certified as it is: sound, that much looser.)

    >>> round(mixed_epsilon({1.0: 30}, 0.0, 0.06), 9) <= 20.0   # 30 x (1, 0)-DP at total delta 0.06
    True
    """
    groups, m = _check(pure, mu)
    d = float_down(DELTA.check(delta))
    logw, s, pats = _patterns(groups)

    def ok(e: float) -> bool:
        # first with the terms whose coarse bounds add up to at most 1e-15 of the float sum
        # bounded coarsely (far below the 1e-12 steps of the search); if that bound misses,
        # every term in full, as before
        if m > 0 and len(pats) > 1:
            coarse = _coarse_terms(logw, s, m, e)
            if coarse is not None and _delta_upper(groups, m, e, pats, coarse) <= d:
                return True
        return bool(_delta_upper(groups, m, e, pats) <= d)

    # (the float sum screens eps = 0: only a float delta within 1e-9 of the target is certified)
    if _log_delta_float(logw, s, m, 0.0) - math.log(d) <= math.log1p(1e-9) and ok(0.0):
        return 0.0
    e0 = _float_root(groups, m, d, logw, s)
    if e0 is None:
        raise InvalidParameter("delta", delta, "a delta the composition reaches at some eps <= 1e12 nats")
    cand = e0
    for j in range(60):
        last, cand = cand, e0 * (1 + 1e-12 * 4.0**j) + (2.0**-1074 if e0 == 0 else 0.0) * 4.0**j
        if ok(cand):
            # past the first rung the float root lay below the certified boundary by more than
            # 1e-12 (the float sum's error where delta is flat in eps: 40 (1, 0)-DP steps and mu
            # = 0.5 at 1e-10 below delta(0) stopped at rung 13, 8.8e-5 above the 50-digit root):
            # bisect between the last rung that failed and this one
            return cand if j == 0 else bisect_floats(ok, cand, last, 1e-12)
    # the ladder missed: a float root of 0 whose certified eps is far above 2^-956 (a target
    # within rounding of delta(0): one (0.1, 0)-DP step at the float nearest tanh(0.05), which
    # lies above it, one double lower needs eps = 0.1 + ln(1 - delta/p) = 1.12e-17). Gallop up from the last
    # candidate to a certified eps, then bisect (in the floats' order) to a relative 1e-12.
    lo = hi = cand
    while not ok(hi):
        lo, hi = hi, hi * 65536.0
        if hi > 1e12:
            raise InvalidParameter("delta", delta, "a delta the composition reaches at some eps <= 1e12 nats")
    return bisect_floats(ok, hi, lo, 1e-12)


def _float_root(groups: list[tuple[float, int]], m: float, d: float, logw: np.ndarray, s: np.ndarray) -> float | None:
    """The float eps at which the float delta sum equals ``d`` (0 where it is below at eps = 0;
    None past eps = 1e12 nats)."""

    def f(e: float) -> float:
        return _log_delta_float(logw, s, m, e) - math.log(d)

    if f(0.0) <= 0:
        return 0.0
    hi = float(np.sum([e * k for e, k in groups])) + (m * m / 2 + 8 * m + 1 if m > 0 else 1.0)
    while f(hi) > 0:
        hi *= 2
        if hi > 1e12:
            return None
    # (past the end of a pure step's privacy curve the float log delta is -inf, where Brent
    # stalls: root() then bisects; the fuzz campaign's eps = 0.000138826, k = 1, mu = 0, delta =
    # 1.58e-30)
    return root(f, 0.0, hi)


def mixed_epsilon_estimate(pure: Mapping[float, int], mu: float, delta: float) -> float | None:
    """The float root of the exact curve (:func:`mixed_epsilon` before certification): an
    estimate for ranking, **not** certified (it may fall on either side of the true eps). None
    where the composition does not reach ``delta`` below eps = 1e12 nats.

    >>> abs(mixed_epsilon_estimate({}, 1.0, 1e-6) - 4.886554) < 1e-6
    True
    """
    groups, m = _check(pure, mu)
    logw, s, _ = _patterns(groups)
    return _float_root(groups, m, float(DELTA.check(delta)), logw, s)


def _mixed_statement() -> Any:
    import sympy  # statements only

    e, et, mu = sympy.symbols("epsilon epsilon_tot mu", positive=True)
    k = sympy.Symbol("k", positive=True, integer=True)
    m = sympy.Symbol("m", integer=True, nonnegative=True)
    p = sympy.exp(e) / (1 + sympy.exp(e))

    def phi(x: Any) -> Any:
        return (1 + sympy.erf(x / sympy.sqrt(2))) / 2

    x = et - (k - 2 * m) * e
    g = phi(-x / mu + mu / 2) - sympy.exp(x) * phi(-x / mu - mu / 2)
    return sympy.Sum(sympy.binomial(k, m) * p ** (k - m) * (1 - p) ** m * g, (m, 0, k))


def _mixed_entry(eps_step: float, k: int, mu: float, delta: float) -> float:
    """Theorem: the exact composition of k eps-DP steps and a mu-GDP part (see :func:`mixed_epsilon`)."""
    return mixed_epsilon({eps_step: k}, mu, delta)


register(
    Theorem(
        id="MIX-exact",
        paper="Kairouz-Oh-Viswanath; Dong-Roth-Su",
        number="(exact composition: KOV15 Thm 3.3's randomized responses, DRS22 Cor. 3.3)",
        title="Exact eps at total delta of k adaptive eps-DP steps composed with a mu-GDP part",
        latex=(
            r"\sum_{m=0}^{k}\binom{k}{m}p^{k-m}q^{m}\,g_\mu\big(\varepsilon_{\mathrm{tot}}-(k-2m)\varepsilon\big)"
            r"\le\delta,\ g_\mu(x)=\Phi(-\tfrac{x}{\mu}+\tfrac{\mu}{2})-e^{x}\Phi(-\tfrac{x}{\mu}-\tfrac{\mu}{2})"
        ),
        conditions=(
            "adaptive composition",
            "each pure step eps-DP (dominated by randomized response)",
            "the Gaussian steps together mu-GDP (mu = 0: none)",
            f"at most {MAX_PATTERNS} sign-count patterns",
        ),
        units="eps in nats",
        params=(EPS_STEP, COUNT, MU, DELTA),
        evaluator=_mixed_entry,
        statement=_mixed_statement,
        returns="eps rounded up (within about 1e-12 relative of the optimum)",
        value_name="eps_nats",
    )
)
