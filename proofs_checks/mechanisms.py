"""Small-domain mechanisms as exact matrices, with their exact DP parameters.

Count-based mechanisms on binary data take a dataset x in {0,1}^n to an output through the count
c = sum(x) only; they are given as an (n + 1) x |Y| row-stochastic matrix M[c, y]. Neighbouring
datasets differ in one record, so their counts differ by one: the mechanism's exact DP parameters
are those of the rows (c, c + 1), computed with :mod:`maxinfo_bounds.measures`.

Parameters are rational where the distribution allows it (e^{-eps} = alpha for geometric noise,
flip probability q for randomized response, base b = e^{c} for the exponential mechanism), so
matrices are exact :class:`fractions.Fraction` tables; the discretised Gaussian is float64.

>>> M = geometric_count(3, Fraction(1, 2))
>>> M[1]                                         # c = 1: clamp(1 + Z), P(Z = k) = (1/3)(1/2)^|k|
[Fraction(1, 3), Fraction(1, 3), Fraction(1, 6), Fraction(1, 6)]
>>> pure_epsilon(M)                              # ln 2 exactly: the ratio 2
Fraction(2, 1)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from maxinfo_bounds.measures import dp_delta, dp_epsilon

__all__ = [
    "geometric_count",
    "randomized_response_count",
    "thresholded_count",
    "bucketed_geometric_float",
    "bucketed_gaussian",
    "gaussian_delta_50",
    "truncated_geometric",
    "report_noisy_max_count",
    "above_threshold_count",
    "exponential_count",
    "bucketed_geometric_count",
    "gaussian_count",
    "pure_epsilon",
    "approx_delta",
    "per_record_rr",
]


def _check_alpha(alpha: Fraction) -> Fraction:
    a = Fraction(alpha)
    if not 0 < a < 1:
        raise ValueError(f"alpha={alpha} is invalid: must be in (0, 1) (alpha = e^-eps)")
    return a


def geometric_count(n: int, alpha: Fraction) -> list[list[Fraction]]:
    """The count plus two-sided geometric noise P(Z = k) = (1-a)/(1+a) a^|k|, clamped to [0, n].

    (ln(1/a), 0)-DP for count sensitivity 1 (the discrete Laplace mechanism)."""
    a = _check_alpha(alpha)
    norm = (1 - a) / (1 + a)
    rows = []
    for c in range(n + 1):
        row = [norm * a ** abs(y - c) for y in range(n + 1)]
        row[0] = a**c / (1 + a) if c > 0 else 1 / (1 + a)  # P(Z <= -c)
        row[n] = a ** (n - c) / (1 + a) if c < n else 1 / (1 + a)  # P(Z >= n - c)
        if n == 0:
            row = [Fraction(1)]
        rows.append(row)
    return rows


def bucketed_geometric_count(n: int, alpha: Fraction, width: int) -> list[list[Fraction]]:
    """:func:`geometric_count` reported in buckets of ``width`` counts (post-processing)."""
    M = geometric_count(n, alpha)
    nb = n // width + 1
    return [
        [sum((row[y] for y in range(b * width, min((b + 1) * width, n + 1))), Fraction(0)) for b in range(nb)]
        for row in M
    ]


def randomized_response_count(n: int, q: Fraction) -> list[list[Fraction]]:
    """Each record's bit flipped independently with probability q; the noisy count released.

    Per record (ln((1-q)/q), 0)-DP (randomized response, then post-processing)."""
    qq = Fraction(q)
    if not 0 < qq < Fraction(1, 2):
        raise ValueError(f"q={q} is invalid: must be in (0, 1/2)")

    def binom(m: int, p: Fraction) -> list[Fraction]:
        return [math.comb(m, j) * p**j * (1 - p) ** (m - j) for j in range(m + 1)]

    rows = []
    for c in range(n + 1):
        ones, zeros = binom(c, 1 - qq), binom(n - c, qq)
        row = [Fraction(0)] * (n + 1)
        for i, a in enumerate(ones):
            for j, b in enumerate(zeros):
                row[i + j] += a * b
        rows.append(row)
    return rows


def thresholded_count(n: int, alpha: Fraction, threshold: int) -> list[list[Fraction]]:
    """1[clamp(c + Z) >= threshold] with geometric Z (post-processing of geometric_count)."""
    M = geometric_count(n, alpha)
    return [[sum(row[:threshold], Fraction(0)), sum(row[threshold:], Fraction(0))] for row in M]


def exponential_count(n: int, base: Fraction, candidates: Sequence[int]) -> list[list[Fraction]]:
    """Exponential mechanism choosing a candidate r with score u(c, r) = -|c - r| (sensitivity 1):
    P(r | c) proportional to base^u. (2 ln(base), 0)-DP by Dwork-Roth Thm 3.10; exact rows."""
    b = Fraction(base)
    if not b > 1:
        raise ValueError(f"base={base} is invalid: must be > 1 (base = e^coefficient)")
    rows = []
    for c in range(n + 1):
        w = [1 / b ** abs(c - r) for r in candidates]
        tot = sum(w, Fraction(0))
        rows.append([x / tot for x in w])
    return rows


def truncated_geometric(alpha: Fraction, K: int) -> dict[int, Fraction]:
    """Two-sided geometric noise P(Z = k) proportional to alpha^|k|, truncated to [-K, K]."""
    a = _check_alpha(alpha)
    w = {k: a ** abs(k) for k in range(-K, K + 1)}
    tot = sum(w.values(), Fraction(0))
    return {k: v / tot for k, v in w.items()}


def report_noisy_max_count(n: int, alpha: Fraction, candidates: Sequence[int], K: int = 6) -> list[list[Fraction]]:
    """Report noisy max over scores u(c, r) = -|c - r| (sensitivity 1) with i.i.d. truncated
    geometric noise on [-K, K]; ties go to the earlier candidate. Exact rows; the DP parameters
    are computed from the matrix (the truncation changes them from the untruncated ones)."""
    Z = truncated_geometric(alpha, K)
    rows = []
    for c in range(n + 1):
        u = [-abs(c - r) for r in candidates]
        dists = [{ui + k: p for k, p in Z.items()} for ui in u]
        row = []
        for j, dj in enumerate(dists):
            pj = Fraction(0)
            for v, p in dj.items():
                prod = p
                for i, di in enumerate(dists):
                    if i == j:
                        continue
                    # earlier candidates must be strictly below v, later ones at most v
                    prod *= sum((q for vi, q in di.items() if (vi < v if i < j else vi <= v)), Fraction(0))
                pj += prod
            row.append(pj)
        rows.append(row)
    return rows


def above_threshold_count(n: int, alpha: Fraction, thresholds: Sequence[int], K: int = 6) -> list[list[Fraction]]:
    """AboveThreshold (Dwork-Roth Alg. 1) on a short stream: query j asks whether the count is
    above thresholds[j]; a noisy threshold offset Z0 and per-query noise Z_j (truncated
    geometric), output the first j with c + Z_j >= thresholds[j] + Z0, or 'none' (last column)."""
    Z = truncated_geometric(alpha, K)
    rows = []
    for c in range(n + 1):
        row = [Fraction(0)] * (len(thresholds) + 1)
        for z0, p0 in Z.items():
            alive = p0
            for j, T in enumerate(thresholds):
                above = sum((q for k, q in Z.items() if c + k >= T + z0), Fraction(0))
                row[j] += alive * above
                alive *= 1 - above
            row[-1] += alive
        rows.append(row)
    return rows


def gaussian_count(n: int, sigma: float) -> np.ndarray:
    """The count plus Gaussian noise, rounded to the nearest integer and clamped to [0, n]
    (float64; its exact (eps, delta) curve is computed from the matrix)."""
    from scipy.stats import norm

    edges = np.arange(-0.5, n + 1.5)
    out = np.empty((n + 1, n + 1))
    for c in range(n + 1):
        cdf = norm.cdf(edges, loc=c, scale=sigma)
        row = np.diff(cdf)
        row[0] = norm.cdf(0.5, loc=c, scale=sigma)
        row[-1] = norm.sf(n - 0.5, loc=c, scale=sigma)
        out[c] = row
    return out


def bucketed_geometric_float(n: int, eps: float, width: int) -> np.ndarray:
    """The count plus two-sided geometric noise P(Z = z) ∝ e^{-eps |z|} (exactly eps-DP in the
    count, so (eps, delta)-DP for every delta), reported in buckets of ``width`` counts with the
    tails folded into the first and last bucket (post-processing). float64, from the noise's
    closed-form CDF P(Z <= x) = a^{-x}/(1 + a) for x < 0 and 1 - a^{x+1}/(1 + a) for x >= 0
    (a = e^{-eps}) at the bucket edges: for n = 10^4 a table of 10^4 x (n/width + 1) cells in a
    fraction of a second."""
    a = math.exp(-eps)

    def cdf(x: np.ndarray) -> np.ndarray:  # P(Z <= x), x integer (x = -inf: 0)
        with np.errstate(over="ignore"):
            return np.where(x < 0, a ** np.abs(x) / (1 + a), 1 - a ** (x + 1) / (1 + a))

    def sf(x: np.ndarray) -> np.ndarray:  # P(Z > x), x integer (x = inf: 0)
        with np.errstate(over="ignore"):
            return np.where(x < 0, 1 - a ** np.abs(x) / (1 + a), a ** (x + 1) / (1 + a))

    nb = n // width + 1
    c = np.arange(n + 1, dtype=float)[:, None]
    b = np.arange(nb, dtype=float)[None, :]
    lo = np.where(b == 0, -np.inf, b * width - 1 - c)  # bucket b: noise in (lo, hi]
    hi = np.where(b == nb - 1, np.inf, (b + 1) * width - 1 - c)
    # the difference of whichever tail is small there (no cancellation in the far tails)
    out = np.where(hi < 0, cdf(hi) - cdf(lo), sf(lo) - sf(hi))
    return np.asarray(np.maximum(out, 0.0), dtype=float)


def bucketed_gaussian(n: int, sigma: float, width: int) -> np.ndarray:
    """The count plus N(0, sigma^2) noise, reported in buckets of ``width`` (bucket b holds
    [b w - 1/2, (b + 1) w - 1/2)), tails folded into the first and last bucket: post-processing
    of the Gaussian mechanism, so (eps, delta)-DP with delta(eps) of :func:`gaussian_delta_50`."""
    from scipy.stats import norm

    nb = n // width + 1
    c = np.arange(n + 1, dtype=float)[:, None]
    b = np.arange(nb, dtype=float)[None, :]
    lo = np.where(b == 0, -np.inf, b * width - 0.5)
    hi = np.where(b == nb - 1, np.inf, (b + 1) * width - 0.5)
    # the difference of whichever tail is small there (no cancellation in the far tails)
    out = np.where(
        hi <= c,
        norm.cdf(hi, loc=c, scale=sigma) - norm.cdf(lo, loc=c, scale=sigma),
        norm.sf(lo, loc=c, scale=sigma) - norm.sf(hi, loc=c, scale=sigma),
    )
    return np.asarray(np.maximum(out, 0.0), dtype=float)


def gaussian_delta_50(sigma: float, eps: float) -> float:
    """The exact delta(eps) of the Gaussian mechanism of sensitivity 1 (Balle & Wang 2018,
    Thm 8: Phi(1/(2 sigma) - eps sigma) - e^eps Phi(-1/(2 sigma) - eps sigma)) at 50 digits,
    rounded up to a float. Independent of the calculator (mpmath's erfc)."""
    import mpmath

    with mpmath.workdps(50):
        s, e = mpmath.mpf(sigma), mpmath.mpf(eps)

        def phi(x: Any) -> Any:
            return mpmath.erfc(-x / mpmath.sqrt(2)) / 2

        d = phi(1 / (2 * s) - e * s) - mpmath.exp(e) * phi(-1 / (2 * s) - e * s)
        f = float(d)
        return f if mpmath.mpf(f) >= d else math.nextafter(f, math.inf)


def per_record_rr(n: int, q: Fraction, m: int) -> Callable[[np.ndarray], np.ndarray]:
    """A dataset-level mechanism for full enumeration: randomized response (flip probability q)
    on each of the first m records, releasing those m noisy bits (2^m outputs). Returns a function
    mapping an (N, n) array of datasets to their (N, 2^m) output rows (float64)."""
    qq = float(Fraction(q))

    def rows(X: np.ndarray) -> np.ndarray:
        out = np.ones((X.shape[0], 1 << m))
        ys = np.arange(1 << m)
        for j in range(m):
            yj = (ys >> j) & 1
            match = X[:, j : j + 1] == yj[None, :]
            out *= np.where(match, 1 - qq, qq)
        return out

    return rows


def _neighbour_pairs(rows: int) -> list[tuple[int, int]]:
    return [(c, c + 1) for c in range(rows - 1)] + [(c + 1, c) for c in range(rows - 1)]


def pure_epsilon(M: Any) -> Any:
    """The pure-DP ratio e^eps over neighbouring counts: a Fraction for exact tables, a float
    (from the float eps) otherwise; None when no finite eps exists."""
    res = dp_epsilon(M, 0, _neighbour_pairs(len(M)))
    if hasattr(res, "ratio"):  # exact: e^eps as a Fraction (None when no finite eps exists)
        return res.ratio
    return math.exp(float(res)) if math.isfinite(float(res)) else None  # float tables: eps in nats


def approx_delta(M: Any, eps: float) -> float:
    """Exact delta at eps over neighbouring counts (float)."""
    return float(dp_delta(M, eps, _neighbour_pairs(len(M))))
