"""Adaptive post-selection testing under a global null, against the calculator's γ(α).

Data: n records, each a vector of d independent fair bits (the global null: every feature has
mean 1/2). Hypothesis j says "feature j has mean 1/2"; its test is the one-sided binomial test
on the feature's count s_j, p_j = P(Bin(n, 1/2) ≥ s_j) (a valid p-value: P(p_j ≤ t) ≤ t).
An analyst picks one hypothesis *from the same data* and tests it there. Every selection rule
below sees the data only through the counts, and under the null the counts are independent
Bin(n, 1/2): so each repetition draws the d counts directly (the same law as drawing the n×d
bits and counting).

Selection rules (neighbouring datasets differ in one record, as in RRST; a record moves every
count by at most 1, in either direction, so the counts are *not* monotone scores):

* ``naive-argmax``: the smallest p-value. Its output is one of d values, so DFHPRR Thm 6
  (description length) gives its correction.
* ``top3-pooled``: the three largest counts, tested together with the pooled binomial test on
  their sum (Bin(3n, 1/2)); output one of C(d, 3) sets: DFHPRR Thm 6.
* ``report-noisy-max``: argmax of s_j + Lap(2/ε) — ε-DP (Dwork & Roth Claim 3.9, general
  scores); RRST Thm 1.4a / 1.4b (i.i.d. records).
* ``exponential``: argmax of (ε/2)·s_j + Gumbel noise, i.e. P(j) ∝ exp(ε s_j / 2) (the Gumbel
  trick is exact) — ε-DP (Dwork & Roth Thm 3.10); RRST Thm 1.4.
* ``gaussian-noisy-max``: argmax of s_j + N(0, σ²) with σ the analytic Gaussian calibration
  (Balle–Wang Thm 8) of the count vector's L2 sensitivity √d — (ε, δ)-DP; RRST Thm 3.1
  (i.i.d. records only).

For each rule the false-discovery probability P(p_selected ≤ t) is estimated at the naive
t = α and at the calculator's t = γ(α) (:func:`maxinfo_bounds.correct` with what is known of
the rule), with Clopper–Pearson intervals.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
from scipy import stats

from maxinfo_bounds import correct
from maxinfo_bounds.numeric import InvalidParameter, check_int, check_real
from maxinfo_bounds.theorems.dp_accounting import (
    analytic_gaussian_sigma,
    exponential_mechanism_coefficient,
    exponential_mechanism_epsilon,
    report_noisy_max_epsilon,
)

__all__ = ["SelectionConfig", "Procedure", "procedures", "run_chunk", "clopper_pearson", "exact_naive_rate"]

KINDS = ("argmax", "topm", "rnm", "expmech", "gauss")


@dataclass(frozen=True)
class SelectionConfig:
    """The global-null experiment's parameters (defaults: the full run)."""

    n: int = 10_000
    d: int = 20
    alpha: float = 0.05
    reps: int = 1_000_000  # per selection rule
    chunk: int = 50_000  # repetitions per unit of work
    confidence: float = 0.999  # one-sided, for each confidence bound
    eps: tuple[float, ...] = (0.003, 0.01, 0.03)
    gaussian: tuple[tuple[float, float], ...] = ((0.001, 1e-20), (0.003, 1e-20))

    def __post_init__(self) -> None:
        check_int("n", self.n, low=1)
        check_int("d", self.d, low=3)
        check_real("alpha", self.alpha, low=0.0, high=1.0, low_open=True, high_open=True)
        check_int("reps", self.reps, low=1)
        check_int("chunk", self.chunk, low=1, high=10**6)  # 10^6 x d x 8 bytes per array
        check_real("confidence", self.confidence, low=0.5, high=1.0, high_open=True)


@dataclass(frozen=True)
class Procedure:
    """A selection rule, its parameters and the calculator's correction for it."""

    name: str
    kind: str
    params: dict[str, float]
    gamma: float
    k: float | None
    beta: float | None
    route: tuple[str, ...]
    guarantee: str


def procedures(cfg: SelectionConfig) -> list[Procedure]:
    """The rules of the experiment with their certified corrections (computed once, here)."""
    a, n, d = cfg.alpha, cfg.n, cfg.d
    out: list[Procedure] = []

    def add(name: str, kind: str, params: dict[str, float], guarantee: str, **desc: Any) -> None:
        c = correct(a, **desc)
        out.append(Procedure(name, kind, params, c.gamma, c.k, c.beta, c.route, guarantee))

    add("naive-argmax", "argmax", {}, f"output one of d = {d}", range_size=d)
    m3 = math.comb(d, 3)
    add("top3-pooled", "topm", {"m": 3}, f"output one of C(d, 3) = {m3}", range_size=m3)
    for e in cfg.eps:
        b = 2.0 / e
        eps = report_noisy_max_epsilon(1.0, b).eps
        add(f"report-noisy-max eps={e:g}", "rnm", {"scale": b}, f"({eps:g}, 0)-DP", eps=eps, n=n, iid=True)
    for e in cfg.eps:
        coef = exponential_mechanism_coefficient(1.0, e)
        eps = exponential_mechanism_epsilon(1.0, coef).eps
        add(f"exponential eps={e:g}", "expmech", {"coefficient": coef}, f"({eps:g}, 0)-DP", eps=eps, n=n, iid=True)
    l2 = float(np.nextafter(math.sqrt(d), math.inf))  # sqrt(d) rounded up
    for e, dl in cfg.gaussian:
        sigma = analytic_gaussian_sigma(l2, e, dl)
        add(
            f"gaussian-noisy-max eps={e:g} delta={dl:g}",
            "gauss",
            {"sigma": sigma},
            f"({e:g}, {dl:g})-DP",
            eps=e,
            delta=dl,
            n=n,
            iid=True,
        )
    return out


def _sf_table(n: int) -> np.ndarray:
    """P(Bin(n, 1/2) >= s) for s = 0..n."""
    s = np.arange(n + 1)
    return np.asarray(stats.binom.sf(s - 1, n, 0.5), dtype=np.float64)


def run_chunk(
    kind: str,
    params: dict[str, float],
    n: int,
    d: int,
    thresholds: list[float],
    reps: int,
    entropy: int,
    spawn_key: list[int],
) -> dict[str, Any]:
    """Simulate ``reps`` repetitions of one rule; count rejections at each threshold."""
    if kind not in KINDS:
        raise InvalidParameter("kind", kind, f"one of {KINDS}")
    rng = np.random.default_rng(np.random.SeedSequence(entropy, spawn_key=tuple(spawn_key)))
    counts = rng.binomial(n, 0.5, size=(reps, d))
    rows = np.arange(reps)
    if kind == "topm":
        m = int(params["m"])
        top = -np.partition(-counts, m - 1, axis=1)[:, :m]
        pv = _sf_table(m * n)[top.sum(axis=1)]
    else:
        if kind == "argmax":
            score = counts.astype(np.float64)
        elif kind == "rnm":
            score = counts + rng.laplace(0.0, params["scale"], counts.shape)
        elif kind == "expmech":
            score = params["coefficient"] * counts + rng.gumbel(size=counts.shape)
        else:
            score = counts + rng.normal(0.0, params["sigma"], counts.shape)
        pv = _sf_table(n)[counts[rows, np.argmax(score, axis=1)]]
    return {"reps": reps, "rejections": [int(np.count_nonzero(pv <= t)) for t in thresholds]}


def clopper_pearson(k: int, n: int, confidence: float) -> tuple[float, float]:
    """One-sided Clopper–Pearson bounds (lower, upper), each at ``confidence``.

    >>> lo, hi = clopper_pearson(0, 100, 0.95)
    >>> lo, round(hi, 6)          # 1 - 0.05**(1/100), by hand
    (0.0, 0.029513)
    """
    a = 1.0 - confidence
    lo = 0.0 if k == 0 else float(stats.beta.ppf(a, k, n - k + 1))
    hi = 1.0 if k == n else float(stats.beta.ppf(1.0 - a, k + 1, n - k))
    return lo, hi


def exact_naive_rate(n: int, d: int, t: float) -> float:
    """P(min_j p_j ≤ t) for d independent binomial tests: 1 − (1 − P(Bin(n,1/2) ≥ c_t))^d,
    c_t the smallest count whose p-value is at most t (scipy's binomial tail)."""
    sf = _sf_table(n)
    idx = np.flatnonzero(sf <= t)
    if len(idx) == 0:
        return 0.0
    size = float(sf[idx[0]])
    return float(-np.expm1(d * np.log1p(-size)))


def config_dict(cfg: SelectionConfig) -> dict[str, Any]:
    return asdict(cfg)
