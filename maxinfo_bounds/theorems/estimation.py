r"""Adaptive estimation: k adaptively chosen statistical queries answered with simultaneous accuracy.

An analyst asks k statistical queries q_j: X -> [0, 1] of n i.i.d. records, each chosen after
seeing the earlier answers. A mechanism is (alpha, beta)-*sample accurate* when, with probability
at least 1 - beta, every answer a_j is within alpha of its empirical value q_j(S); what the
analyst needs is *distributional* accuracy, against the population value q_j(P). Three results
give it:

* **JLNRSS's transfer theorem** (Jung, Ligett, Neel, Roth, Sharifi-Malvajerdi, Shenfeld, "A new
  analysis of differential privacy's generalization guarantees", ITCS 2020, Thm 4 with
  Lemma 7): if the mechanism is (eps, delta)-DP and (alpha, beta)-sample accurate, then for all
  c, d > 0, with probability at least 1 - beta/c - delta/d, every answer is within
  alpha + (e^eps - 1) + c + 2d of its population value (:func:`jlnrss_transfer`). The
  constants were read from Marchant and Rubinstein, "Adaptive data analysis for growing data"
  (NeurIPS 2025, arXiv 2405.13375), whose static case restates JLNRSS Thm 4 and Lemma 7, and
  agree with the JLNRSS authors' code (``cw_funcs.py``, ``conf_width_posterior``: the same
  bound with c = d).
* **Gaussian noise's own sample accuracy**: k answers each with independent N(0, sigma^2)
  noise (independent even when the queries are adaptive) are all within t of their empirical
  values with probability exactly (2 Phi(t/sigma) - 1)^k (:func:`gaussian_sample_accuracy`,
  :func:`gaussian_max_failure`).
* **Sample splitting**: each query on its own ⌊n/k⌋ fresh records, Hoeffding's inequality with a
  union bound over the k queries: half-width sqrt(ln(2k/beta) / (2 ⌊n/k⌋))
  (:func:`split_hoeffding`, :func:`split_max_queries`, :func:`split_required_n`; Hoeffding 1963,
  Thm 2). Valid whatever the analyst does: a query never sees the records it is answered on.

Every half-width returned is rounded **up** and every coverage **down** (failure probabilities
up). The normal tail is evaluated by mpmath at 50 digits and widened by 10^-40 relative (mpmath
has no interval erfc; the same argument as the Balle-Wang evaluator in
:mod:`.dp_accounting.mechanisms`).

>>> b = gaussian_sample_accuracy(0.01, 100, 0.05)     # 0.01 Phi^-1((1 + 0.95^(1/100))/2)
>>> 0.034739788691540484 <= b.half_width < 0.0347397886916, b.coverage >= 0.95   # 0.0347397886915404841...
(True, True)
>>> split_hoeffding(100_000, 219, 0.05).half_width < 0.1 < split_hoeffding(100_000, 220, 0.05).half_width
True
"""

from __future__ import annotations

import math
import sys
from fractions import Fraction
from typing import Any

import numpy as np

from ..arith import Formula
from ..domain import Int, Real
from ..numeric import InvalidParameter, float_down, float_up, is_mpf, log_le, mp_ctx
from ..numeric.special import special
from ..results import AccuracyBound
from ..search import first_true, first_true_int
from .generalization import SENS
from .registry import N_RECORDS, Param, Theorem, register

__all__ = [
    "AccuracyBound",
    "gaussian_max_failure",
    "gaussian_sample_accuracy",
    "gaussian_half_width_estimate",
    "jlnrss_transfer",
    "jlnrss_split",
    "jlnrss_transfer_sensitive",
    "jlnrss_sensitive_split",
    "split_hoeffding",
    "split_max_queries",
    "split_required_n",
    "MAX_QUERIES",
]

#: the largest number of queries accepted (far above any study: 10^12 answers)
MAX_QUERIES = 10**12

EPS0 = Param("eps", Real(0, units="nats"), "DP parameter of the whole mechanism, nats")
DELTA0 = Param("delta", Real(0, 1, hi_open=True), "DP parameter delta of the whole mechanism")
ALPHA = Param("alpha", Real(0), "sample accuracy: every answer within alpha of its empirical value")
BETA0 = Param("beta", Real(0, 1), "probability that sample accuracy fails")
C_FREE = Param("c", Real(0, lo_open=True), "free parameter c > 0 (the beta/c term)")
D_FREE = Param("d", Real(0, lo_open=True), "free parameter d > 0 (the delta/d term)")
SIGMA = Param("sigma", Real(0, lo_open=True), "standard deviation of each answer's Gaussian noise")
QUERIES = Param("k", Int(1, MAX_QUERIES), "number of adaptively chosen queries")
BETA = Param("beta", Real(0, 1, lo_open=True, hi_open=True), "failure probability (1 - coverage)")
HALF = Param("t", Real(0, lo_open=True), "half-width")
VALUE_RANGE = Param(
    "value_range",
    Real(0, lo_open=True),
    "length R of an interval holding every value of each query, the answers clipped into it",
)

_CONDITIONS_SQ = ("statistical queries q_j: X -> [0, 1]", "n i.i.d. records")

#: JLNRSS Thm 4 with Lemma 7: the half-width and the failure probability, written once
JLNRSS_WIDTH = Formula(lambda c, e, a, cc, dd: a + c.expm1(e) + cc + 2 * dd, ("epsilon", "alpha", "c", "d"))
JLNRSS_FAILURE = Formula(lambda c, b, de, cc, dd: b / cc + de / dd, ("beta", "delta", "c", "d"))
#: JLNRSS Lemma 15 with Thm 4's resampling step for values in a range of length R (the half-width;
#: the failure probability is JLNRSS_FAILURE's beta/c + delta/d)
JLNRSS_SENS_WIDTH = Formula(
    lambda c, e, a, cc, dd, n, s, r: a + n * s * (c.expm1(e) + 4 * dd) + r * cc,
    ("epsilon", "alpha", "c", "d", "n", "Delta", "R"),
    integer=("n",),
)
#: splitting: Hoeffding on m = floor(n/k) records per query, union bound over the k queries
SPLIT_WIDTH = Formula(lambda c, k, b, m: c.sqrt(c.log(2 * k / b) / (2 * m)), ("k", "beta", "m"), integer=("k", "m"))


def _coverage(failure: Any) -> float:
    """1 - failure rounded down (failure an upper bound: mpf, Fraction or float), at least 0."""
    if is_mpf(failure):
        man, exp = failure.man_exp
        f = Fraction(man) * Fraction(2) ** exp
    else:
        f = Fraction(failure)
    return max(float_down(1 - f), 0.0)


def jlnrss_transfer(eps: float, delta: float, alpha: float, beta: float, c: float, d: float) -> AccuracyBound:
    r"""Sample accuracy and (eps, delta)-DP give accuracy against the population (JLNRSS).

    .. math:: \Pr\Bigl[\max_j |a_j - q_j(\mathcal{P})| > \alpha + (e^{\varepsilon} - 1) + c + 2d\Bigr]
              \le \frac{\beta}{c} + \frac{\delta}{d}

    Theorem: JLNRSS (ITCS 2020) Thm 4 with Lemma 7 ((eps, delta)-DP is
    (e^eps - 1 + 2d, delta/d)-posterior stable); constants as restated by Marchant and
    Rubinstein (NeurIPS 2025) and used in the JLNRSS authors' code. Units: eps in nats.
    Conditions: the mechanism answering the k adaptively chosen queries is (eps, delta)-DP
    (the whole interaction) and (alpha, beta)-sample accurate; queries [0, 1]-valued; data
    i.i.d.; c, d > 0. Returns an :class:`AccuracyBound` (half-width rounded up, coverage
    1 - beta/c - delta/d rounded down, at least 0).

    >>> b = jlnrss_transfer(0.0, 0.0625, 0.25, 0.125, 0.5, 0.25)  # 0.25 + 0 + 0.5 + 0.5; 1 - 0.25 - 0.25
    >>> b.half_width, b.coverage
    (1.25, 0.5)
    """
    e, de, a = EPS0.check(eps), DELTA0.check(delta), ALPHA.check(alpha)
    b, cc, dd = BETA0.check(beta), C_FREE.check(c), D_FREE.check(d)
    width = JLNRSS_WIDTH.up(e, a, cc, dd)
    failure = JLNRSS_FAILURE.exact(b, de, cc, dd)
    return AccuracyBound(
        width,
        _coverage(failure),
        "JLNRSS-transfer",
        ("the mechanism is (eps, delta)-DP and (alpha, beta)-sample accurate", *_CONDITIONS_SQ),
    )


def jlnrss_split(beta_sample: float, delta: float, failure: float) -> tuple[float, float]:
    r"""The c, d > 0 minimising c + 2d subject to beta/c + delta/d <= ``failure`` (floats).

    Lagrange: c = sqrt(beta) s / F and d = sqrt(delta/2) s / F with s = sqrt(beta) + sqrt(2 delta),
    so that c + 2d = s^2 / F (the JLNRSS authors' code takes c = d = (beta + delta)/F, giving
    3(beta + delta)/F). Nudged up by 2^-40 relative so that the certified failure of
    :func:`jlnrss_transfer` stays within ``failure``; a zero beta or delta gets the smallest
    positive c or d that keeps its term below 2^-60 of ``failure``.

    >>> c, d = jlnrss_split(0.01, 0.02, 0.05)    # s = 0.1 + 0.2: c = 0.6, d = 0.6
    >>> round(c, 9), round(d, 9)
    (0.6, 0.6)
    """
    b, de, f = BETA0.check_float(beta_sample), DELTA0.check_float(delta), BETA.check_float(failure, label="failure")
    return _lagrange_split(b, de, f, 1.0, 2.0)


def _lagrange_split(b: float, de: float, f: float, w_c: float, w_d: float) -> tuple[float, float]:
    """The c, d > 0 minimising w_c c + w_d d subject to b/c + de/d <= f: c = sqrt(b/w_c) s/f,
    d = sqrt(de/w_d) s/f, s = sqrt(w_c b) + sqrt(w_d de), each nudged up by 2^-40 relative; a
    zero b or de gets the smallest positive c or d."""
    s = math.sqrt(w_c * b) + math.sqrt(w_d * de)
    nudge = 1 + 2.0**-40
    c = math.sqrt(b / w_c) * s / f * nudge if b > 0 else 5e-324
    d = math.sqrt(de / w_d) * s / f * nudge if de > 0 else 5e-324
    return c, d


def jlnrss_transfer_sensitive(
    eps: float,
    delta: float,
    alpha: float,
    beta: float,
    c: float,
    d: float,
    n: int,
    sensitivity: float,
    value_range: float,
) -> AccuracyBound:
    r"""Sample accuracy and (eps, delta)-DP give population accuracy for adaptively chosen
    Delta-sensitive queries (JLNRSS Lemma 15 with Thm 4's step).

    .. math:: \Pr\Bigl[\max_j |a_j - q_j(\mathcal{P}^n)| > \alpha + n\Delta\,(e^{\varepsilon} - 1 + 4d)
              + R\,c\Bigr] \le \frac{\beta}{c} + \frac{\delta}{d}

    Each query q_j: X^n -> R changes by at most Delta when one record changes, and takes its
    values in an interval of length R known in advance, into which its answer is clipped
    (clipping keeps sample accuracy and, as post-processing, DP; R <= n Delta always holds
    for the interval [min q_j, max q_j]). q_j(P^n) is the expectation of q_j on n fresh
    records.

    Theorem: JLNRSS (ITCS 2020) Lemma 15, an (eps, delta)-DP mechanism is
    ((e^eps - 1) n Delta + 4 c' n delta Delta, 1/c')-posterior stable for Delta-sensitive
    queries (constants read from Marchant and Rubinstein, NeurIPS 2025, as for the statistical
    form; here c' = d/delta), with the resampling step of JLNRSS Thm 4 written out for values
    in a range of length R (derived in docs/estimate.md, section 7: the posterior's value
    of the query is within alpha + R c of the answer except with probability beta/c, by
    Markov's inequality on the posterior probability of a sample-accuracy failure). With
    Delta = 1/n and R = 1 the half-width is the statistical form's with 4d for its 2d
    (Lemma 7 is sharper for linear queries). Units: eps in nats; alpha, Delta, R and the
    half-width in the queries' units. Conditions: the whole interaction is (eps, delta)-DP and
    (alpha, beta)-sample accurate; i.i.d. records; c, d > 0. Returns an
    :class:`AccuracyBound` (half-width rounded up, coverage 1 - beta/c - delta/d rounded
    down, at least 0).

    >>> b = jlnrss_transfer_sensitive(0.0, 0.0625, 0.25, 0.125, 0.5, 0.25, 8, 0.0625, 1.0)
    >>> b.half_width, b.coverage     # 0.25 + 8 (1/16)(0 + 1) + 1 (0.5); 1 - 1/4 - 1/4, by hand
    (1.25, 0.5)
    """
    e, de, a = EPS0.check(eps), DELTA0.check(delta), ALPHA.check(alpha)
    b, cc, dd = BETA0.check(beta), C_FREE.check(c), D_FREE.check(d)
    nn, s, r = N_RECORDS.check(n), SENS.check(sensitivity), VALUE_RANGE.check(value_range)
    width = JLNRSS_SENS_WIDTH.up(e, a, cc, dd, nn, s, r)
    failure = JLNRSS_FAILURE.exact(b, de, cc, dd)
    return AccuracyBound(
        width,
        _coverage(failure),
        "JLNRSS-transfer-sensitive",
        (
            "the mechanism is (eps, delta)-DP and (alpha, beta)-sample accurate",
            "queries Delta-sensitive, each valued in a known interval of length R, answers clipped into it",
            "n i.i.d. records",
        ),
    )


def jlnrss_sensitive_split(
    beta_sample: float, delta: float, failure: float, n: int, sensitivity: float, value_range: float
) -> tuple[float, float]:
    r"""The c, d > 0 minimising R c + 4 n Delta d subject to beta/c + delta/d <= ``failure``
    (floats): the split :func:`jlnrss_transfer_sensitive` is evaluated at.

    Lagrange: c = sqrt(beta/R) s / F and d = sqrt(delta/(4 n Delta)) s / F with
    s = sqrt(R beta) + sqrt(4 n Delta delta), so that R c + 4 n Delta d = s^2 / F. Nudged up by
    2^-40 relative; a zero beta or delta gets the smallest positive c or d (as
    :func:`jlnrss_split`, which is the case 4 n Delta = 2, R = 1).

    >>> c, d = jlnrss_sensitive_split(0.01, 0.04, 0.05, 10, 0.1, 4.0)   # s = sqrt(0.04) + sqrt(0.16)
    >>> round(c, 9), round(d, 9)     # c = sqrt(0.01/4) 0.6 / 0.05, d = sqrt(0.04/4) 0.6 / 0.05
    (0.6, 1.2)
    """
    b, de, f = BETA0.check_float(beta_sample), DELTA0.check_float(delta), BETA.check_float(failure, label="failure")
    w_d = 4 * N_RECORDS.check(n) * SENS.check_float(sensitivity)
    r = VALUE_RANGE.check_float(value_range)
    if not math.isfinite(w_d):
        raise InvalidParameter("sensitivity", sensitivity, "a sensitivity with 4 n Delta a finite float")
    c, d = _lagrange_split(b, de, f, r, w_d)
    if not math.isfinite(c):
        raise InvalidParameter("value_range", value_range, "a range at which c = sqrt(beta/R) s/F is a finite float")
    if not math.isfinite(d):
        raise InvalidParameter("sensitivity", sensitivity, "a sensitivity at which d is a finite float")
    return c, d


def _mpf(c: Any, v: Any) -> Any:
    """An exact input at context ``c``'s working precision (a Fraction as its quotient)."""
    return c.mpf(v.numerator) / v.denominator if isinstance(v, Fraction) else c.mpf(v)


def gaussian_max_failure(sigma: float, k: int, t: float) -> Any:
    """An upper bound on P(max_{j <= k} |Z_j| > t) for i.i.d. Z_j ~ N(0, sigma^2): 1 - (1 - p)^k
    with p = erfc(t / (sigma sqrt 2)) >= P(|Z| > t), at 50 digits, each step widened by 10^-40
    relative (mpmath has no interval erfc). An mpf in [0, 1]. Beyond t / (sigma sqrt 2) = 1e100,
    p is taken at 1e100 (erfc decreases: still an upper bound, below 10^(-4e199); mpmath's erfc
    overflowed past about 1e150)."""
    s, kk, tt = SIGMA.check(sigma), QUERIES.check(k), Real(0).check("t", t)
    c = mp_ctx()  # this thread's own context: the caller's mpmath precision plays no part
    with c.workdps(50):
        w = c.mpf(10) ** -40
        x = _mpf(c, tt) / _mpf(c, s) / c.sqrt(2) * (1 - w)  # below t / (sigma sqrt 2)
        x = min(x, c.mpf(10) ** 100)
        p = c.erfc(x) * (1 + w)
        if p >= 1:
            return c.mpf(1)
        f = -c.expm1(kk * c.log1p(-p)) * (1 + w)
        return min(f, c.mpf(1))


def gaussian_half_width_estimate(sigma: Any, k: Any, beta: Any) -> Any:
    """Float estimate (numpy, broadcasting) of the t with (2 Phi(t/sigma) - 1)^k = 1 - beta:
    sigma Phi^-1(1 - u/2), u = 1 - (1 - beta)^(1/k). Not certified (the optimisers' surrogate)."""
    ndtri = special().ndtri

    with np.errstate(all="ignore"):
        u = -np.expm1(np.log1p(-np.asarray(beta, dtype=float)) / np.asarray(k, dtype=float))
        return np.asarray(sigma, dtype=float) * -ndtri(u / 2)


#: the theorem and condition a Gaussian sample-accuracy bound states
_GAUSS_NAMES = ("GAUSS-max", ("independent N(0, sigma^2) noise on each of the k answers",))


def _too_wide(sigma: Any) -> InvalidParameter:
    """The refusal of a sigma whose half-width is past the largest double."""
    return InvalidParameter("sigma", sigma, "a noise scale whose half-width is a finite float")


def gaussian_sample_accuracy(sigma: float, k: int, beta: float) -> AccuracyBound:
    r"""Half-width t of k answers with independent N(0, sigma^2) noise, all within t of their
    empirical values with probability at least 1 - beta.

    .. math:: \Pr\Bigl[\max_{j \le k} |Z_j| \le t\Bigr] = \bigl(2\Phi(t/\sigma) - 1\bigr)^k

    Theorem: elementary (the noise draws are independent of each other and of the data, also
    when the queries are chosen adaptively); the union bound t = sigma Phi^-1(1 - beta/(2k)) of
    BNSSSU and the JLNRSS authors' code is slightly wider. Conditions: sigma > 0, k >= 1, beta
    in (0, 1). Returns an :class:`AccuracyBound`: t rounded up (within about 2^-40 relative of
    the exact root), coverage 1 - (certified failure, at most beta) rounded down.

    >>> b = gaussian_sample_accuracy(1.0, 1, 0.05)          # Phi^-1(0.975) = 1.959963984540054...
    >>> 1.959963984540054 <= b.half_width < 1.95996398455
    True
    """
    # an exact input (Fraction) that is not a float: sigma rounded up and beta down, each a
    # stronger requirement (a wider t), so the answer holds for the inputs as given
    s, kk = float_up(SIGMA.check(sigma)), QUERIES.check(k)
    b = float_down(BETA.check(beta))
    if b == 0.0:
        raise InvalidParameter("beta", beta, "at least the smallest positive float 5e-324")
    top = sys.float_info.max
    t = float(gaussian_half_width_estimate(s, kk, b))
    if not math.isfinite(t) or t <= 0:
        # u/2 underflowed (beta/k below 1e-308), or sigma Phi^-1 overflowed: from the tail's
        # asymptote, which lies above the root (it drops the tail's 1/(t sqrt(2 pi)); 0.3% above
        # at k = 10^6, beta = 1e-320), or from the largest double, down and up to the boundary
        # of the certified check; refused when even the largest double does not hold
        if gaussian_max_failure(s, kk, top) > b:
            raise _too_wide(sigma)
        t0 = min(s * math.sqrt(2 * (math.log(2 * kk) - math.log(b))), top)
        t = first_true(t0, lambda x: bool(gaussian_max_failure(s, kk, x) <= b), up=True, rel_step=2.0**-44)
        return AccuracyBound(t, _coverage(gaussian_max_failure(s, kk, t)), *_GAUSS_NAMES)
    step = 2.0**-44
    while True:
        t = min(t * (1 + step), top)  # past the doubles, the largest is the last one tried
        f = gaussian_max_failure(s, kk, t)
        if f <= b:
            break
        if t == top:
            raise _too_wide(sigma)
        step *= 2
    return AccuracyBound(t, _coverage(f), *_GAUSS_NAMES)


def split_hoeffding(n: int, k: int, beta: float) -> AccuracyBound:
    r"""Sample splitting: each of k queries answered on its own ⌊n/k⌋ fresh records.

    .. math:: t = \sqrt{\frac{\ln(2k/\beta)}{2\lfloor n/k\rfloor}}

    Theorem: Hoeffding (1963) Thm 2 for each query, a union bound over the k queries. Valid
    for adaptively chosen queries: query j is chosen before its records are looked at.
    Conditions: n >= k >= 1 (each query at least one record), beta in (0, 1), [0, 1]-valued
    queries, i.i.d. records. Returns an :class:`AccuracyBound` (t rounded up, coverage
    1 - beta rounded down).

    >>> split_hoeffding(200, 2, 0.05).half_width       # sqrt(ln 80 / 200) = 0.148020718730079837...
    0.14802071873007985
    """
    nn, kk, b = N_RECORDS.check(n), QUERIES.check(k), BETA.check(beta)
    if kk > nn:
        raise InvalidParameter("k", k, f"at most n = {nn} (each query needs its own record)")
    m = nn // kk
    return AccuracyBound(
        SPLIT_WIDTH.up(kk, b, m),
        _coverage(Fraction(b)),
        "SPLIT-Hoeffding",
        (f"each query on its own {m} fresh records", *_CONDITIONS_SQ),
    )


def _split_meets(m: int, k: int, beta: Fraction, t: Fraction) -> bool:
    """Decided exactly: ln(2k/beta) <= 2 m t^2 (splitting at m records per query meets t)."""
    return log_le(Fraction(2 * k) / beta, 2 * m * t * t)


def split_max_queries(n: int, t: float, beta: float) -> int:
    """The largest k with :func:`split_hoeffding`'s half-width at most ``t`` (0: none). Exact:
    the half-width does not decrease in k, and each comparison is decided exactly.

    >>> split_max_queries(100_000, 0.1, 0.05), split_max_queries(1_000_000, 0.1, 0.05)
    (219, 1788)
    """
    nn: int = N_RECORDS.check(n)
    tt, b = Fraction(HALF.check(t)), Fraction(BETA.check(beta))
    if not _split_meets(nn, 1, b, tt):
        return 0
    lo, hi = 1, min(nn, MAX_QUERIES)  # lo meets t
    if _split_meets(nn // hi, hi, b, tt):
        return hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _split_meets(nn // mid, mid, b, tt):
            lo = mid
        else:
            hi = mid
    return lo


def split_required_n(k: int, t: float, beta: float) -> int:
    """The smallest n at which splitting answers k queries within ``t``: k m with m the
    smallest integer with ln(2k/beta) <= 2 m t^2 (exact).

    >>> split_required_n(219, 0.1, 0.05)              # m = ceil(ln 8760 / 0.02) = 454
    99426
    """
    kk: int = QUERIES.check(k)
    tt, b = Fraction(HALF.check(t)), Fraction(BETA.check(beta))
    # (divided by t twice: t^2 is 0 in floats below 1.5e-162, where the count is past them)
    est = math.log(2 * kk / float(b)) / 2 / float(tt) / float(tt)
    if not est < 1e300:
        raise InvalidParameter("t", t, "a half-width whose record count is finite")
    # the float start is within a few ulps of the answer: exact galloping and bisection from it
    # (a walk by ones took 1e98 steps at t = 6e-58, where m is 5e114 and an ulp of it 1e99)
    hi = math.ceil(est * (1 + 1e-9)) + 1
    while not _split_meets(hi, kk, b, tt):
        hi *= 2
    m = first_true_int(lambda c: _split_meets(c, kk, b, tt), max(1, math.ceil(est)), 1, hi)
    return kk * m


# --------------------------------------------------------------------------------------------
# catalog entries


def _jlnrss_entry(eps: float, delta: float, alpha: float, beta: float, c: float, d: float) -> AccuracyBound:
    """Theorem: JLNRSS Thm 4 with Lemma 7 (see :func:`jlnrss_transfer`)."""
    return jlnrss_transfer(eps, delta, alpha, beta, c, d)


register(
    Theorem(
        id="JLNRSS-transfer",
        paper="JLNRSS",
        number="Thm 4 with Lemma 7 (transfer theorem; constants as restated by Marchant-Rubinstein 2025)",
        title="(eps, delta)-DP and sample accuracy give accuracy on the population for adaptive queries",
        formula=JLNRSS_WIDTH,
        lhs=r"\Pr\Bigl[\max_j |a_j - q_j(\mathcal{P})| > \Bigr]\ \le \tfrac{\beta}{c} + \tfrac{\delta}{d}\ \text{at}",
        conditions=(
            "the mechanism answering the k adaptive queries is (eps, delta)-DP as a whole",
            "the mechanism is (alpha, beta)-sample accurate",
            *_CONDITIONS_SQ,
        ),
        units="eps in nats; alpha, c, d in the queries' units ([0, 1])",
        params=(EPS0, DELTA0, ALPHA, BETA0, C_FREE, D_FREE),
        evaluator=_jlnrss_entry,
        returns="AccuracyBound(half_width rounded up, coverage 1 - beta/c - delta/d rounded down)",
        value_name="half_width",
    )
)


register(
    Theorem(
        id="JLNRSS-transfer-sensitive",
        paper="JLNRSS",
        number=(
            "Lemma 15 with Thm 4 (Delta-sensitive queries; constants as restated by Marchant-Rubinstein 2025, "
            "Thm 4's step for a range R derived in docs/estimate.md)"
        ),
        title="(eps, delta)-DP and sample accuracy give population accuracy for adaptive Delta-sensitive queries",
        formula=JLNRSS_SENS_WIDTH,
        lhs=r"\Pr\Bigl[\max_j |a_j - q_j(\mathcal{P}^n)| > \Bigr]\ \le \tfrac{\beta}{c} + \tfrac{\delta}{d}\ \text{at}",
        conditions=(
            "the mechanism answering the k adaptive queries is (eps, delta)-DP as a whole",
            "the mechanism is (alpha, beta)-sample accurate",
            "queries Delta-sensitive, each valued in a known interval of length R, answers clipped into it",
            "n i.i.d. records",
        ),
        units="eps in nats; alpha, Delta, R, c-term and half-width in the queries' units",
        params=(EPS0, DELTA0, ALPHA, BETA0, C_FREE, D_FREE, N_RECORDS, SENS, VALUE_RANGE),
        evaluator=jlnrss_transfer_sensitive,
        returns="AccuracyBound(half_width rounded up, coverage 1 - beta/c - delta/d rounded down)",
        value_name="half_width",
    )
)


def _gauss_entry(sigma: float, k: int, beta: float) -> AccuracyBound:
    """Theorem: the maximum of k independent Gaussians (see :func:`gaussian_sample_accuracy`)."""
    return gaussian_sample_accuracy(sigma, k, beta)


def _gauss_statement() -> Any:
    import sympy  # statements only

    t, sigma, beta = sympy.symbols("t sigma beta", positive=True)
    k = sympy.Symbol("k", positive=True, integer=True)
    return sympy.Eq(sympy.erf(t / (sigma * sympy.sqrt(2))) ** k, 1 - beta)


register(
    Theorem(
        id="GAUSS-max",
        paper="Gaussian maximum",
        number="(2 Phi(t/sigma) - 1)^k = 1 - beta (independent noise draws; exact)",
        title="Sample accuracy of Gaussian noise on k adaptive queries: the exact simultaneous half-width",
        latex=r"\bigl(2\Phi(t/\sigma) - 1\bigr)^k = 1 - \beta",
        conditions=("independent N(0, sigma^2) noise on each answer (adaptive queries allowed)",),
        units="t and sigma in the queries' units",
        params=(SIGMA, QUERIES, BETA),
        evaluator=_gauss_entry,
        statement=_gauss_statement,
        returns="AccuracyBound(half_width t rounded up, coverage 1 - failure (at most beta) rounded down)",
        value_name="half_width",
    )
)


def _split_entry(n: int, k: int, beta: float) -> AccuracyBound:
    """Theorem: Hoeffding (1963) Thm 2 with a union bound (see :func:`split_hoeffding`)."""
    return split_hoeffding(n, k, beta)


def _split_statement() -> Any:
    import sympy  # statements only

    k, n = sympy.symbols("k n", positive=True, integer=True)
    beta = sympy.Symbol("beta", positive=True)
    return sympy.sqrt(sympy.log(2 * k / beta) / (2 * sympy.floor(n / k)))


register(
    Theorem(
        id="SPLIT-Hoeffding",
        paper="Hoeffding",
        number="Thm 2 (1963), each query on floor(n/k) fresh records, union bound",
        title="Sample splitting: k adaptive queries each answered on its own fresh part of the data",
        latex=r"t = \sqrt{\ln(2k/\beta) / (2\lfloor n/k\rfloor)}",
        conditions=("each query answered on its own floor(n/k) records", *_CONDITIONS_SQ),
        units="t in the queries' units ([0, 1])",
        params=(N_RECORDS, QUERIES, BETA),
        evaluator=_split_entry,
        statement=_split_statement,
        returns="AccuracyBound(half_width rounded up, coverage 1 - beta rounded down)",
        value_name="half_width",
    )
)
