r"""Reuse or split? The estimation planner: k adaptively chosen statistical queries of n records.

An analyst will ask k statistical queries q_j: X -> [0, 1] of n i.i.d. records, each chosen after
the earlier answers, and wants every answer within a half-width of its population value with
probability at least C (the coverage). :func:`plan_estimate` certifies the half-width of every
route and recommends the narrowest valid one:

* **reuse with Gaussian noise, JLNRSS transfer** — every query on all n records, each answer
  with N(0, sigma^2) noise. The interaction is exactly sqrt(k)/(n sigma)-GDP (DRS22 Cor. 3.3),
  so (eps, delta(eps))-DP on its exact curve (DRS22 Cor. 2.13); the noise's sample accuracy is
  exact (GAUSS-max); JLNRSS's transfer theorem turns both into population accuracy. Free
  parameters: sigma, eps (which fixes delta), the sample-accuracy failure beta_s, and c, d
  (closed form, :func:`~maxinfo_bounds.theorems.estimation.jlnrss_split`).
* **reuse with Gaussian noise, BNSSSU** (RRST Thm B.2): the worst query, found from the
  answers by a monitor (a post-processing, so as private), deviates from its population value
  by at most 18 eps with probability delta/eps; plus the sample accuracy. Inside B.2's regime
  only (eps < 1/3, delta < eps/4, n >= ln(4 eps/delta)/eps^2).
* **sample splitting** — each query on its own ⌊n/k⌋ fresh records (SPLIT-Hoeffding).
* **Thresholdout** (DFHPRR Thm 9) — shown with its parameters, never certified: the theorem's
  sample size n0 has an unstated constant, so no half-width follows from it.
* **naive** — every query on all n records without noise: the fixed-query half-width, not
  valid once a query depends on earlier answers.

Free parameters are chosen by a float search (a grid over their logarithms, zoomed three
times); the chosen point is then certified (interval arithmetic and 50-digit normal tails,
half-widths rounded up, coverages down), so a search error costs width, never validity. The
largest number of queries at a half-width and the smallest n for (k, half-width) are the
extremes of that search, checked with certified half-widths on both sides of the answer
(splitting's are exact: its half-width is monotone and decided exactly).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from fractions import Fraction
from typing import Any

import numpy as np

from ..domain import Real
from ..numeric import InvalidParameter, RegimeError, check_int, enclosure, float_down, float_up
from ..search import first_true_int, minimise_nd
from ..theorems.binomial_split import (
    Undecided,
    split_binomial,
    split_binomial_estimate,
    split_binomial_max_queries,
    split_binomial_required_n,
)
from ..theorems.dp_accounting import gaussian_mu, gdp_compose, gdp_delta
from ..theorems.dp_accounting.gdp import gdp_delta_estimate
from ..theorems.estimation import (
    MAX_QUERIES,
    gaussian_half_width_estimate,
    gaussian_sample_accuracy,
    jlnrss_split,
    jlnrss_transfer,
    split_hoeffding,
    split_max_queries,
    split_required_n,
)
from ..theorems.generalization import B2_PROBABILITY_FLOOR, bnsssu_transfer
from ..theorems.holdout import thresholdout_dp
from . import limits
from .stages import text_down as _down
from .stages import text_up as _up

__all__ = [
    "EstimateRoute",
    "EstimatePlan",
    "RegimeMap",
    "plan_estimate",
    "regime_map",
    "plot_regime_map",
    "MAP_ROUTES",
    "MAX_RECORDS",
    "NAIVE",
    "Route",
    "REUSE_BNSSSU",
    "REUSE_MAXINFO",
    "REUSE_JLNRSS",
    "SPLIT",
    "THRESHOLDOUT",
]

#: the largest n the searches consider (a required n above it is refused)
MAX_RECORDS = 10**15


class Route(StrEnum):
    """The estimation planner's routes (a str: its name in reports and JSON)."""

    REUSE_JLNRSS = "reuse: Gaussian noise, JLNRSS transfer"
    REUSE_BNSSSU = "reuse: Gaussian noise, BNSSSU (RRST Thm B.2)"
    REUSE_MAXINFO = "reuse: Gaussian noise, max-information (RRST Thm 3.1, DFHPRR Thm 4)"
    THRESHOLDOUT = "Thresholdout: holdout with budget B, JLNRSS transfer"
    SPLIT = "split: each query on its own fresh records"
    SPLIT_BINARY = "split, exact binomial tail: 0/1-valued queries"
    NAIVE = "naive: every query on all records, no noise"


REUSE_JLNRSS, REUSE_BNSSSU, THRESHOLDOUT = Route.REUSE_JLNRSS, Route.REUSE_BNSSSU, Route.THRESHOLDOUT
REUSE_MAXINFO = Route.REUSE_MAXINFO
SPLIT, SPLIT_BINARY, NAIVE = Route.SPLIT, Route.SPLIT_BINARY, Route.NAIVE
VACUOUS = "vacuous: a half-width of 1 or more says nothing about [0, 1]-valued queries"


@dataclass(frozen=True)
class EstimateRoute:
    """One route: its certified half-width and coverage (None where it has none), the
    mechanism's settings, the results it rests on and the derivation."""

    route: Route
    valid: bool
    half_width: float | None
    coverage: float | None
    settings: dict[str, float | int] = field(default_factory=dict)
    theorems: tuple[str, ...] = ()
    derivation: tuple[str, ...] = ()
    note: str = ""
    max_queries_at_half_width: int | None = None
    required_n_records: int | None = None
    #: proved by :mod:`.limits` (``prove_extremes``): no setting of the route meets the target
    #: with more queries than this, or with fewer records than that
    max_queries_upper_limit: int | None = None
    required_n_lower_limit: int | None = None

    @property
    def extremes(self) -> str | None:
        """How the largest k and smallest n were found: "exact" for splitting (each comparison
        decided exactly, every other count refused by a certified bound); for the Gaussian
        routes and Thresholdout with ``prove_extremes``, "proved" when :mod:`.limits` proves
        both answers optimal over every setting and "bracketed" when it proves limits around
        them (the true extremes lie between answer and limit); otherwise "as optimised" for the
        noise routes and Thresholdout (certified at the answer and one step beyond it, over the noise levels
        a float optimiser chose: not proven optimal over every setting), None for the naive
        answers (never valid)."""
        if self.route in (Route.SPLIT, Route.SPLIT_BINARY):
            return "exact"
        if self.route is Route.NAIVE:
            return None
        found = (self.max_queries_at_half_width, self.required_n_records)
        proved = (self.max_queries_upper_limit, self.required_n_lower_limit)
        if found != (None, None) and all(a is None or b is not None for a, b in zip(found, proved)):
            return "proved" if found == proved else "bracketed"
        return "as optimised"

    def as_dict(self) -> dict[str, Any]:
        return {
            "route": self.route,
            "valid": self.valid,
            "half_width": self.half_width,
            "half_width_rounding": "up",
            "coverage": self.coverage,
            "coverage_rounding": "down",
            **self.settings,
            "max_queries_at_half_width": self.max_queries_at_half_width,
            "required_n_records": self.required_n_records,
            "max_queries_upper_limit": self.max_queries_upper_limit,
            "required_n_lower_limit": self.required_n_lower_limit,
            "extremes": self.extremes,
            "theorems": list(self.theorems),
            "derivation": list(self.derivation),
            "note": self.note,
        }


@dataclass(frozen=True)
class EstimatePlan:
    """Every route for k adaptive queries of n records at coverage C; the recommended one is
    the narrowest valid half-width."""

    n: int
    queries: int
    coverage: float
    half_width_target: float | None
    routes: tuple[EstimateRoute, ...]
    recommended: Route | None
    #: every query declared {0, 1}-valued (exact binomial splitting valid)
    binary: bool = False

    def route(self, name: Route) -> EstimateRoute:
        """The row of one route."""
        return next(r for r in self.routes if r.route is name)

    def as_dict(self) -> dict[str, Any]:
        from .. import __version__

        return {
            "n_records": self.n,
            "queries": self.queries,
            "coverage": self.coverage,
            "half_width_target": self.half_width_target,
            "recommended": self.recommended,
            "routes": [r.as_dict() for r in self.routes],
            "versions": {"maxinfo_bounds": __version__},
        }

    def __str__(self) -> str:
        return self.text()

    def text(self, *, derivations: bool = True) -> str:
        """The table, the recommendation and (``derivations``) each route's derivation."""
        lines = [
            f"{self.queries} adaptively chosen statistical queries of n = {self.n} records, "
            f"simultaneous coverage {self.coverage:g}"
            + (f", target half-width {self.half_width_target:g}" if self.half_width_target is not None else ""),
            "",
        ]
        head = ["route", "valid", "half-width", "coverage"]
        if self.half_width_target is not None:
            head += ["max queries", "required n"]
        rows = [head]
        starred = bracket = False
        for r in self.routes:
            row = [
                r.route,
                "yes" if r.valid else "no",
                _up(r.half_width) if r.half_width is not None else "-",
                _down(r.coverage) if r.coverage is not None else "-",
            ]
            if self.half_width_target is not None:
                mark = "*" if r.extremes == "as optimised" else ""
                kq, nr = r.max_queries_at_half_width, r.required_n_records
                kl, nl = r.max_queries_upper_limit, r.required_n_lower_limit
                row += [
                    "-"
                    if kq is None
                    else (">= " if kq >= MAX_QUERIES else "")
                    + f"{kq}{mark}"
                    + (f" (<= {kl})" if kl is not None and kl != kq else ""),
                    "-" if nr is None else f"{nr}{mark}" + (f" (>= {nl})" if nl is not None and nl != nr else ""),
                ]
                bracket = bracket or r.extremes in ("proved", "bracketed")
                starred = starred or (mark != "" and (kq, nr) != (None, None))
            rows.append(row)
        widths = [max(len(x[i]) for x in rows) for i in range(len(head))]
        for x in rows:
            lines.append("  ".join(c.ljust(w) for c, w in zip(x, widths)).rstrip())
        if starred:
            lines.append(
                "* as optimised: certified at the answer and one step beyond it, at the noise levels a float "
                "optimiser chose; not proven optimal over every setting (splitting's are exact; "
                "--prove-extremes proves limits for the Gaussian routes and Thresholdout)"
            )
        if bracket:
            lines.append(
                "(<= K), (>= N): proved over every setting of the route (noise, eps and delta, holdout size, "
                "the failure split): no setting meets the target with more than K queries or fewer than N "
                "records; an answer without one is proved optimal"
            )
        lines.append("")
        lines.append(
            f"recommended: {self.recommended}"
            if self.recommended
            else "recommended: none (no valid route with a half-width below 1)"
        )
        for r in self.routes if derivations else ():
            lines.append("")
            lines.append(f"{r.route}:")
            lines += [f"  {d}" for d in r.derivation]
            if r.note:
                lines.append(f"  note: {r.note}")
        return "\n".join(lines)


# --------------------------------------------------------------------------------------------
# float surrogates (numpy, broadcasting) and the search


#: the relative margin B.2's delta floor is raised by, so that its condition
#: n >= ln(4 eps/delta)/eps^2 holds with room for the certified logarithm's rounding
_B2_FLOOR_MARGIN = 2.0**-30


def _b2_floor_est(n: int, eps: Any) -> Any:
    """eps 4 e^(-n eps^2) (1 + 2^-30) in floats: the smallest delta RRST Thm B.2 allows at eps."""
    return eps * B2_PROBABILITY_FLOOR.array(eps, n) * (1 + _B2_FLOOR_MARGIN)


def _b2_floor(n: int, eps: float) -> float:
    """The smallest delta RRST Thm B.2's condition n >= ln(4 eps/delta)/eps^2 allows at eps,
    eps 4 e^(-n eps^2), rounded up and raised by 2^-30 relative (so the certified condition
    holds: ln(4 eps/delta)/eps^2 is then n - ln(1 + 2^-30)/eps^2)."""
    hi = B2_PROBABILITY_FLOOR.up(eps, n)
    return float_up(Fraction(eps) * Fraction(hi) * (1 + Fraction(_B2_FLOOR_MARGIN)))


def _jlnrss_est(n: int, k: int, f: float, lmu: Any, leps: Any, lbs: Any) -> Any:
    mu, eps, bs = np.exp(lmu), np.exp(leps), np.exp(lbs)
    sigma = math.sqrt(k) / (n * mu)
    delta = gdp_delta_estimate(mu, eps)
    hw = gaussian_half_width_estimate(sigma, k, bs) + np.expm1(eps) + (np.sqrt(bs) + np.sqrt(2 * delta)) ** 2 / f
    return np.where((bs < f) & np.isfinite(hw), hw, np.inf)


def _bnsssu_est(n: int, k: int, f: float, lmu: Any, leps: Any) -> Any:
    mu, eps = np.exp(lmu), np.exp(leps)
    sigma = math.sqrt(k) / (n * mu)
    with np.errstate(all="ignore"):
        # delta at least the GDP curve's and at least B.2's floor 4 eps e^(-n eps^2) (its
        # condition n >= ln(4 eps/delta)/eps^2, then met by construction)
        delta = np.maximum(gdp_delta_estimate(mu, eps), _b2_floor_est(n, eps))
        bs = f - delta / eps
        ok = (eps < 1 / 3) & (delta < eps / 4) & (delta > 0) & (bs > 0)
        hw = gaussian_half_width_estimate(sigma, k, np.where(ok, bs, 0.5)) + 18 * eps
    return np.where(ok & np.isfinite(hw), hw, np.inf)


def _zoom_min(
    fn: Callable[..., Any], bounds: list[tuple[float, float]], sizes: list[int], levels: int = 4
) -> tuple[float, list[float]]:
    """Minimise ``fn`` (vectorised over a meshgrid) over the box: a grid, then zoomed grids
    (``levels`` in all, each a quarter of the last one's step around the best point; the
    optimum's parameters to about 4^-levels of the first grid's step). Returns (value, point);
    value inf when no point is finite."""
    axes = [np.linspace(lo, hi, s) for (lo, hi), s in zip(bounds, sizes)]
    steps = [(hi - lo) / (s - 1) for (lo, hi), s in zip(bounds, sizes)]
    width = 9 if len(bounds) <= 3 else 7
    best: tuple[float, list[float]] = (math.inf, [a[0] for a in axes])
    for _ in range(levels):
        with np.errstate(all="ignore"):
            vals = fn(*np.meshgrid(*axes, indexing="ij"))
        i = np.unravel_index(int(np.argmin(vals)), vals.shape)
        v = float(vals[i])
        if not math.isfinite(v):
            break
        if v < best[0]:
            best = (v, [float(a[j]) for a, j in zip(axes, i)])
        axes = [np.linspace(max(lo, c - st), min(hi, c + st), width) for (lo, hi), c, st in zip(bounds, best[1], steps)]
        steps = [st / 4 for st in steps]
    return best


def _failure(coverage: float) -> float:
    """1 - C rounded down (the failure budget: a smaller one is the safe side)."""
    return float_down(1 - Fraction(coverage))


_MU = (math.log(1e-7), math.log(50.0))
_EPS = (math.log(1e-7), math.log(30.0))


def _polish(fn: Callable[..., Any], best: tuple[float, list[float]]) -> tuple[float, list[float]]:
    """Nelder-Mead from the zoomed grid's best point, kept only if better (the grid's zooms can
    stall in a narrow valley that runs across the axes; a simplex follows it; it may leave the
    grid's box, as for Thresholdout's holdout share near 1), and only where every parameter is
    within e^(+-700): beyond, the parameter's exp leaves the floats and the float estimate is not
    the route's (18 records, 8e7 queries and coverage 7e-193 sent the simplex to log mu = 1e3)."""
    if not math.isfinite(best[0]):
        return best

    def inside(v: Any) -> bool:
        return all(abs(c) <= 700 for c in v)

    with np.errstate(all="ignore"):
        x = minimise_nd(
            lambda v: float(fn(*v)) if inside(v) else math.inf, np.array(best[1]), xatol=1e-8, fatol=1e-13, maxiter=400
        )
        v = float(fn(*x)) if inside(x) else math.inf
    return (v, [float(a) for a in x]) if v < best[0] else best


def _jlnrss_search(n: int, k: int, f: float, fine: bool = True) -> tuple[float, list[float]]:
    """The float search of the JLNRSS route over (log mu, log eps, log beta_s); ``fine``: a
    finer grid zoomed six times and a Nelder-Mead polish (the plan and every certified point),
    else coarse and four zooms (the extremes' first guesses)."""
    sizes = [18, 18, 12] if fine else [12, 12, 8]
    bs = (math.log(f * 1e-12), math.log(f * (1 - 1e-9)))

    def fn(a: Any, b: Any, c: Any) -> Any:
        return _jlnrss_est(n, k, f, a, b, c)

    box = [_MU, _EPS, bs]
    return _polish(fn, _zoom_min(fn, box, sizes, 6)) if fine else _zoom_min(fn, box, sizes)


def _bnsssu_search(n: int, k: int, f: float, fine: bool = True) -> tuple[float, list[float]]:
    """The float search of the BNSSSU route over (log mu, log eps)."""
    sizes = [28, 28] if fine else [16, 16]

    def fn(a: Any, b: Any) -> Any:
        return _bnsssu_est(n, k, f, a, b)

    box = [_MU, (math.log(1e-7), math.log(1 / 3))]
    return _polish(fn, _zoom_min(fn, box, sizes, 6)) if fine else _zoom_min(fn, box, sizes)


def default_threshold(n_train: int, n_holdout: int, k: int, f: float) -> float:
    """Thresholdout's threshold T when none is given: the train-holdout gap an honest query
    stays under with probability 1 - f/k' each (Hoeffding on both parts, union over the k
    queries): sqrt(ln(4k/f)/2) (1/sqrt(n_train) + 1/sqrt(n_holdout)). Any T is valid (it
    enters the half-width); this one spends the budget B only on queries that overfit."""
    return math.sqrt(math.log(4 * k / f) / 2) * (1 / math.sqrt(n_train) + 1 / math.sqrt(n_holdout))


def _thresholdout_est(
    n: int, k: int, budget: int, f: float, threshold: float | None, lsig: Any, frac: Any, lbs: Any, ldel: Any
) -> Any:
    """The Thresholdout route's float half-width over (log sigma, holdout share, log beta_s,
    log delta): :func:`~.limits.thresholdout_value` at floor(share n) holdout records."""
    return limits.thresholdout_value(
        n, k, f, budget, threshold, np.exp(lsig), np.floor(frac * n), np.exp(lbs), np.exp(ldel)
    )


def _thresholdout_search(
    n: int, k: int, budget: int, f: float, threshold: float | None, fine: bool = True
) -> tuple[float, list[float]]:
    """The float search of the Thresholdout route over (log sigma, holdout share, log beta_s,
    log delta)."""
    sizes = [14, 7, 10, 8] if fine else [10, 5, 7, 6]
    bounds = [
        (math.log(1e-9), math.log(10.0)),
        (0.05, 0.95),
        (math.log(f * 1e-9), math.log(f * (1 - 1e-9))),
        (math.log(1e-40), math.log(f * (1 - 1e-9))),
    ]

    def fn(a: Any, b: Any, c: Any, d: Any) -> Any:
        return _thresholdout_est(n, k, budget, f, threshold, a, b, c, d)

    return _polish(fn, _zoom_min(fn, bounds, sizes, 6)) if fine else _zoom_min(fn, bounds, sizes)


# --------------------------------------------------------------------------------------------
# certification of a chosen point


@dataclass(frozen=True)
class _Certified:
    half_width: float
    coverage: float
    settings: dict[str, float | int]
    derivation: tuple[str, ...]


def _noise(n: int, k: int, mu_target: float) -> tuple[float, float]:
    """sigma for a total mu near ``mu_target`` (rounded up: more noise) and the certified total
    mu of k queries of sensitivity 1/n at that sigma (DRS22 Thm 2.7, Cor. 3.3; rounded up)."""
    sigma = float_up(Fraction(math.sqrt(k)) / (n * Fraction(mu_target)))
    try:
        return sigma, gdp_compose({gaussian_mu(Fraction(1, n), sigma): k})
    except InvalidParameter:  # mu^2 past the floats: inf, which every caller refuses (mu > 1e7)
        return sigma, math.inf


def _certify_jlnrss(n: int, k: int, f: float, point: list[float]) -> _Certified | None:
    lmu, leps, lbs = point
    sigma, mu = _noise(n, k, math.exp(lmu))
    eps = math.exp(leps)
    if mu > 1e7:
        return None
    delta = gdp_delta(mu, eps)
    if not delta < 1:  # no transfer at a certified delta of 1 (18 records, 8e7 queries)
        return None
    bs = math.exp(lbs)
    sa = gaussian_sample_accuracy(sigma, k, bs)
    c, d = jlnrss_split(bs, delta, f)
    b = jlnrss_transfer(eps, delta, sa.half_width, bs, c, d)
    return _Certified(
        b.half_width,
        b.coverage,
        _gaussian_settings(sigma, mu, eps, delta, bs, sa, c=c, d=d),
        (
            f"each answer + N(0, sigma^2), sigma = {_up(sigma)} (queries of sensitivity 1/n = 1/{n})",
            f"DRS22-3.3: the {k} answers are exactly mu-GDP, mu = sqrt(k)/(n sigma) = {_up(mu)}",
            f"DRS22-2.13: mu-GDP is (eps, delta)-DP at eps = {_up(eps)}, delta = {_up(delta)}",
            f"GAUSS-max: every answer within {_up(sa.half_width)} of its sample value "
            f"with probability >= 1 - {_up(bs)}",
            f"JLNRSS-transfer with c = {_up(c)}, d = {_up(d)}: every answer within "
            f"{_up(sa.half_width)} + (e^eps - 1) + c + 2d = {_up(b.half_width)} of its population value "
            f"with probability >= 1 - beta_s/c - delta/d = {_down(b.coverage)}",
        ),
    )


def _gaussian_settings(
    sigma: float, mu: float, eps: float, delta: float, bs: float, sa: Any, **extra: float
) -> dict[str, float]:
    """The settings every Gaussian route reports, in one order: the noise, its GDP mu and (eps,
    delta), the sample-accuracy failure probability, the route's own parameters, the sample
    half-width."""
    return {
        "sigma": sigma,
        "total_mu": mu,
        "eps_nats": eps,
        "delta": delta,
        "beta_sample": bs,
        **extra,
        "sample_half_width": sa.half_width,
    }


def _with_sample_accuracy(sa: Any, deviation: float, probability: float) -> tuple[float, float]:
    """A generalization bound (every q_j(S) within ``deviation`` of q_j(P) except with
    ``probability``) with the noise's sample accuracy ``sa``: the half-width, their sum rounded
    up, and the coverage, 1 - the two failures (a union bound) rounded down."""
    width = float_up(Fraction(sa.half_width) + Fraction(deviation))
    failure = Fraction(1) - Fraction(sa.coverage) + Fraction(probability)
    return width, max(float_down(1 - failure), 0.0)


def _certify_bnsssu(n: int, k: int, f: float, point: list[float]) -> _Certified | None:
    lmu, leps = point
    sigma, mu = _noise(n, k, math.exp(lmu))
    eps = math.exp(leps)
    if mu > 1e7:
        return None
    # any delta above the GDP curve is one the mechanism satisfies (DRS22 Cor. 2.13); where the
    # curve's lies below B.2's floor (its condition on n), the floor is taken
    delta = max(gdp_delta(mu, eps), _b2_floor(n, eps))
    try:
        tb = bnsssu_transfer(eps, delta, n, Fraction(1, n))
    except (RegimeError, InvalidParameter):
        return None
    bs = float_down(Fraction(f) - Fraction(tb.probability))
    if not bs > 0:
        return None
    sa = gaussian_sample_accuracy(sigma, k, bs)
    width, cov = _with_sample_accuracy(sa, tb.deviation, tb.probability)
    return _Certified(
        width,
        cov,
        _gaussian_settings(sigma, mu, eps, delta, bs, sa),
        (
            f"each answer + N(0, sigma^2), sigma = {_up(sigma)} (queries of sensitivity 1/n = 1/{n})",
            f"DRS22-3.3 and DRS22-2.13: the answers are mu = {_up(mu)}-GDP, so ({_up(eps)}, {_up(delta)})-DP",
            f"RRST-B.2 (BNSSSU) on the worst query (a monitor: post-processing of the answers): "
            f"deviation < 18 eps = {_up(tb.deviation)} except with probability delta/eps = {_up(tb.probability)}",
            f"GAUSS-max: every answer within {_up(sa.half_width)} of its sample value "
            f"with probability >= 1 - {_up(bs)}",
            f"together: half-width {_up(width)}, coverage >= {_down(cov)}",
        ),
    )


def _certify_thresholdout(
    n: int, k: int, budget: int, f: float, threshold: float | None, point: list[float]
) -> _Certified | None:
    lsig, frac, lbs, ldel = point
    nh = int(min(max(math.floor(frac * n), 1), n - 1)) if n >= 2 else 0
    if nh < 1:
        return None
    nt = n - nh
    thr = default_threshold(nt, nh, k, f) if threshold is None else threshold
    sigma, bs, delta = math.exp(lsig), math.exp(lbs), math.exp(ldel)
    if not (0 < bs < f):
        return None
    # each noise type's share of beta_s: (B+1) e^{-x/2sigma}, k e^{-y/4sigma}, B e^{-z/sigma}
    # each at most beta_s/3 (x, y rounded up); every answer is within max(T + x + y, z) of its
    # holdout mean, and z = sigma ln(3B/beta_s) never exceeds x = 2 sigma ln(3(B+1)/beta_s)
    # alone (beta_s < 1 < 3B), so that max is T + x + y
    x = enclosure(lambda iv: 2 * iv.mpf(sigma) * iv.log(iv.mpf(3 * (budget + 1)) / iv.mpf(bs)))[1]
    y = enclosure(lambda iv: 4 * iv.mpf(sigma) * iv.log(iv.mpf(3 * k) / iv.mpf(bs)))[1]
    alpha = float_up(Fraction(thr) + Fraction(x) + Fraction(y))
    best: tuple[Any, Any, Any] | None = None
    for d_try in (0.0, delta):
        try:
            g = thresholdout_dp(budget, sigma, nh, delta=d_try)
        except (RegimeError, InvalidParameter):
            continue
        c, d = jlnrss_split(bs, g.delta, f)
        b = jlnrss_transfer(g.eps, g.delta, alpha, bs, c, d)
        if best is None or b.half_width < best[0].half_width:
            best = (b, g, (c, d))
    if best is None:
        return None
    b, g, (c, d) = best
    return _Certified(
        b.half_width,
        b.coverage,
        {
            "holdout_records": nh,
            "training_records": nt,
            "threshold": thr,
            "noise_sigma": sigma,
            "budget": budget,
            "eps_nats": g.eps,
            "delta": g.delta,
            "beta_sample": bs,
            "c": c,
            "d": d,
            "sample_half_width": alpha,
        },
        (
            f"Thresholdout (DFHPRR section 3, Laplace noise) on {nt} training and {nh} holdout records, "
            f"threshold T = {_down(thr)}, noise sigma = {_up(sigma)}, budget B = {budget} over-threshold answers "
            "(it stops answering once B is spent)",
            f"Notes-Thresholdout: ({_up(g.eps)}, {_up(g.delta)})-DP in the holdout",
            f"every answer within T + max|Lap(2 sigma)| + max|Lap(4 sigma)| (training answers) or max|Lap(sigma)| "
            f"(holdout answers) of its holdout mean: at most {_up(alpha)} except with probability "
            f"(B+1) e^(-x/2sigma) + k e^(-y/4sigma) + B e^(-z/sigma) <= {_up(bs)} (union bound over the draws used)",
            f"JLNRSS-transfer with c = {_up(c)}"
            + (f", d = {_up(d)}" if g.delta > 0 else " (delta = 0: no d term)")
            + f": every answer within {_up(b.half_width)} of its population value with probability >= "
            f"{_down(b.coverage)}",
        ),
    )


#: the noise levels (GDP mu) the max-information route's float search tries
_MI_MUS = tuple(float(math.exp(x)) for x in np.linspace(math.log(1e-5), math.log(0.5), 12))
#: and the total deltas
_MI_DELTAS = (1e-8, 1e-12, 1e-16, 1e-20, 1e-25, 1e-30, 1e-40)


@functools.lru_cache(maxsize=4096)
def _gdp_eps_float(mu: float, dlt: float) -> float | None:
    """The float GDP eps at delta (cached: the max-information route's grid is fixed, and its
    extremes' searches revisit it)."""
    from ..theorems.dp_accounting.gdp import gdp_epsilon_estimate

    return gdp_epsilon_estimate(mu, dlt)


@functools.lru_cache(maxsize=16384)
def _thm31_k_float(e: float, dlt: float, n: int, bm: float) -> float:
    """RRST Thm 3.1's float k at beta ``bm`` (cached: the largest-k search keeps n fixed), on a
    delta-hat grid of 48: a grid of 12 missed the certified optimum's delta-hat at some deltas,
    so the search chose a point up to 7 % wider than the grid's certified best; 48 found the
    best in every case of a seeded sample, for 6 % more time than 12 (the default 96: 14 %)."""
    from ..theorems.maxinfo_dp import thm31_implied_float_k

    return float(thm31_implied_float_k(e, dlt, n, bm, dhat_grid=48)[0])


def _maxinfo_search(
    n: int,
    k: int,
    f: float,
    fine: bool = True,
    mus: tuple[float, ...] | None = None,
    deltas: tuple[float, ...] | None = None,
) -> tuple[float, list[float]]:
    """The max-information route's float search (see :func:`_certify_maxinfo`): the half-width
    t + tau over a grid of the noise's mu (12 points from 1e-5 to 0.5, log-spaced; every second
    one when not ``fine``) and
    the total delta (7 values from 1e-8 to 1e-40; 3 when not ``fine``), at beta_s = beta_mi =
    F/4 and F/2 for Hoeffding. Returns (float half-width, [mu, delta]), inf where no point is
    inside RRST Thm 3.1. (``mus``, ``deltas``: a part of the grid, for :func:`_maxinfo_local`.)"""
    bs = bm = f / 4
    best: tuple[float, float, float] | None = None
    dlts = deltas if deltas is not None else _MI_DELTAS if fine else (1e-12, 1e-20, 1e-30)
    for mu in mus if mus is not None else _MI_MUS if fine else _MI_MUS[::2]:
        sigma = math.sqrt(k) / (n * mu)
        t = float(gaussian_half_width_estimate(sigma, k, bs))
        for dlt in dlts:
            e = _gdp_eps_float(mu, dlt)
            if e is None or not 0 < e <= 0.5:
                continue
            kb = _thm31_k_float(e, dlt, n, bm)
            if not math.isfinite(kb):
                continue
            tau = math.sqrt((kb * math.log(2) + math.log(2 * k / (f / 2))) / (2 * n))
            if best is None or t + tau < best[0]:
                best = (t + tau, mu, dlt)
    return (math.inf, []) if best is None else (best[0], [best[1], best[2]])


class _MaxinfoLocal:
    """A cheaper float half-width of the max-information route, for the extremes' guesses only
    (the certified search then uses :func:`_maxinfo_search`): the full grid's points next to the
    best one (two noise levels either side, the neighbouring deltas), that best point found by
    the coarse search on the first call and then carried from call to call (the searches move
    n or k a little at a time)."""

    def __init__(self) -> None:
        self.near: tuple[int, int] | None = None  # (index of mu, index of delta)

    def __call__(self, n: int, k: int, f: float) -> float:
        v = math.inf
        if self.near is None:
            v, point = _maxinfo_search(n, k, f, False)
            if not point:
                return v
            self.near = (_MI_MUS.index(point[0]), _MI_DELTAS.index(point[1]))
        i, j = self.near
        mus = _MI_MUS[max(0, i - 2) : i + 3]
        w, point = _maxinfo_search(n, k, f, True, mus, _MI_DELTAS[max(0, j - 1) : j + 2])
        if point:
            self.near = (_MI_MUS.index(point[0]), _MI_DELTAS.index(point[1]))
        return min(v, w)


def _maxinfo_route(n: int, k: int, f: float) -> _Certified | None:
    """The max-information route at (n, k): :func:`_maxinfo_search`, then
    :func:`_certify_maxinfo`."""
    return _reuse_route(n, k, f, _maxinfo_search, _certify_maxinfo)


def _certify_maxinfo(n: int, k: int, f: float, point: list[float]) -> _Certified | None:
    """Gaussian noise, then max-information: the k answers are mu-GDP, so (eps, delta)-DP at a
    chosen delta; on i.i.d. records RRST Thm 3.1 bounds the transcript's max-information by
    k_bits at beta_mi (the best implied eps' >= eps); DFHPRR Thm 4 with Hoeffding for each of the
    k queries (fixed given the transcript, so a union bound) gives P(some |q_j(S) - q_j(P)| >
    tau) <= 2^k_bits 2k e^{-2 tau^2 n} + beta_mi (`DFHPRR-4` at k_bits + log2 k); plus the noise's
    sample accuracy. The free parameters (noise mu and delta) from :func:`_maxinfo_search`
    (beta_s = beta_mi = F/4, the Hoeffding part F/2), certified here. Far wider than the
    transfer theorem for statistical queries: shown for comparison, and its extremes are
    searched like the other noise routes'."""
    from ..theorems.generalization import hoeffding_transfer
    from ..theorems.maxinfo_dp import approx_dp_max_information_implied

    bs = bm = f / 4
    mu_t, dlt = point
    sigma, mu = _noise(n, k, mu_t)
    if mu > 1e7:
        return None
    from ..theorems.dp_accounting import gdp_epsilon

    try:
        eps = gdp_epsilon(mu, dlt)
        b = approx_dp_max_information_implied(eps, dlt, n, bm)
    except (RegimeError, InvalidParameter):
        return None
    sa = gaussian_sample_accuracy(sigma, k, bs)
    kq = float_up(Fraction(b.k) + Fraction(math.log2(k)) * (1 + Fraction(1, 2**40)) if k > 1 else Fraction(b.k))
    # tau with 2^kq 2 e^{-2 tau^2 n} = F - beta_s - beta_mi's certified value, nudged up until
    # the certified tail fits
    room = Fraction(f) - Fraction(bs) - Fraction(b.beta)
    if room <= 0:
        return None
    tau = math.sqrt((kq * math.log(2) + math.log(2 / float(room))) / (2 * n)) * (1 + 2.0**-30)
    prob = hoeffding_transfer(kq, b.beta, tau, n)
    while Fraction(prob) + Fraction(bs) > Fraction(f):
        tau *= 1 + 2.0**-20
        prob = hoeffding_transfer(kq, b.beta, tau, n)
    width, cov = _with_sample_accuracy(sa, tau, prob)
    return _Certified(
        width,
        cov,
        _gaussian_settings(sigma, mu, eps, dlt, bs, sa, maxinfo_k_bits=b.k, maxinfo_beta=b.beta, tau=tau),
        (
            f"each answer + N(0, sigma^2), sigma = {_up(sigma)}; the answers are mu = {_up(mu)}-GDP "
            f"(DRS22-3.3), so ({_up(eps)}, {dlt:g})-DP (DRS22-2.13)",
            f"RRST-3.1 (i.i.d. records, best implied eps'): the transcript's max-information is at most "
            f"{_up(b.k)} bits at beta = {_up(b.beta)}",
            f"DFHPRR-4 with Hoeffding for each of the {k} queries (union bound): every q_j(S) within tau = "
            f"{_up(tau)} of q_j(P) except with probability {_up(prob)}",
            f"GAUSS-max: every answer within {_up(sa.half_width)} of its sample value with probability "
            f">= 1 - {_up(bs)}; together: half-width {_up(width)}, coverage >= {_down(cov)}",
        ),
    )


def _reuse_route(
    n: int, k: int, f: float, search: Callable[..., tuple[float, list[float]]], certify: Callable[..., Any]
) -> _Certified | None:
    v, point = search(n, k, f)
    if not math.isfinite(v):
        return None
    out: _Certified | None = certify(n, k, f, point)
    return out


# --------------------------------------------------------------------------------------------
# extremes: the largest k at a half-width, the smallest n for (k, half-width)


def _smallest_true(pred: Callable[[int], bool], x0: int, lo: int, hi: int) -> int | None:
    """The smallest x in [lo, hi] with pred(x), pred taken as monotone (false, then true),
    from the guess ``x0`` (:func:`~maxinfo_bounds.search.first_true_int`). The answer x always
    has pred(x) true and pred(x - 1) false (or x = lo), whatever pred does elsewhere; None when
    pred(hi) is false."""
    x = first_true_int(lambda c: c > hi or pred(c), x0, lo, hi + 1)
    return None if x > hi else x


def _float_boundary(pred: Callable[[int], bool], lo: int, hi: int, start: int | None = None) -> int:
    """About the smallest x in [lo, hi] with the (coarse, float) predicate true, within 1 %
    (hi when none): doubling from lo (or, given a ``start`` guess, halving down from it while
    the predicate holds, else doubling up from it), then geometric bisection (a first guess)."""
    x = lo if start is None else min(max(start, lo), hi)
    if x > lo and pred(x):
        while x > lo and pred(max(lo, x // 2)):
            x = max(lo, x // 2)
    else:
        while x < hi and not pred(x):
            x = min(hi, 2 * x)
    a, b = max(lo, x // 2), x  # pred(b) true (or b = hi), pred(a) false unless a = lo
    while b - a > 1 and b > 1.01 * a:
        mid = max(a + 1, min(b - 1, int(math.sqrt(a * b))))
        if pred(mid):
            b = mid
        else:
            a = mid
    return b


def _secant_boundary(g: Callable[[int], float], x0: int, lo: int, hi: int) -> int:
    """A guess of the smallest integer x in [lo, hi] with g(x) <= 0 for g decreasing (smooth:
    the fine float half-width less the target, or its negative): a bracket grown from ``x0``
    by factors 1.01, 2, 4, ..., then the Illinois variant of regula falsi until the bracket is
    two neighbours. Only a guess: the certified search starts from it."""
    x0 = min(max(x0, lo), hi)
    g0 = g(x0)
    step = max(1, x0 // 100)
    if g0 <= 0:  # x0 meets: find a point below that does not
        b, gb = x0, g0
        while True:
            if b == lo:
                return lo
            a = max(lo, b - step)
            ga = g(a)
            if ga > 0:
                break
            b, gb, step = a, ga, step * 2
    else:
        a, ga = x0, g0
        while True:
            if a == hi:
                return hi
            b = min(hi, a + step)
            gb = g(b)
            if gb <= 0:
                break
            a, ga, step = b, gb, step * 2
    side = 0
    while b - a > 1:  # g(a) > 0 >= g(b)
        if math.isfinite(ga) and math.isfinite(gb) and ga != gb:
            x = int(round(a + (b - a) * ga / (ga - gb)))
        else:
            x = (a + b) // 2
        x = min(max(x, a + 1), b - 1)
        gx = g(x)
        if gx > 0:
            a, ga = x, gx
            if side == -1:
                gb /= 2  # Illinois: halve the stale end's value
            side = -1
        else:
            b, gb = x, gx
            if side == 1:
                ga /= 2
            side = 1
    return b


class _RouteEval:
    """One route's fine search and certification at (n, k), each cached (the extremes' searches
    revisit points)."""

    def __init__(
        self,
        f: float,
        search: Callable[..., tuple[float, list[float]]],
        certify: Callable[..., Any],
        guess_hw: Callable[[int, int, float], float] | None = None,
    ) -> None:
        self.f, self.search, self.certify, self.guess_hw = f, search, certify, guess_hw
        self._fine: dict[tuple[int, int], tuple[float, list[float]]] = {}
        self._cert: dict[tuple[int, int], _Certified | None] = {}

    def fine(self, n: int, k: int) -> float:
        if (n, k) not in self._fine:
            self._fine[n, k] = self.search(n, k, self.f)
        return self._fine[n, k][0]

    def guess(self, n: int, k: int) -> float:
        """The float half-width the secant stage of the extremes' searches follows: the fine
        search's, or ``guess_hw``'s (a cheaper one) when given."""
        return self.fine(n, k) if self.guess_hw is None else self.guess_hw(n, k, self.f)

    def coarse(self, n: int, k: int) -> float:
        return self.search(n, k, self.f, False)[0]

    def cert(self, n: int, k: int) -> _Certified | None:
        if (n, k) not in self._cert:
            self.fine(n, k)
            v, point = self._fine[n, k]
            self._cert[n, k] = self.certify(n, k, self.f, point) if math.isfinite(v) else None
        return self._cert[n, k]

    def meets(self, n: int, k: int, t: float) -> bool:
        c = self.cert(n, k)
        return c is not None and c.half_width <= t and c.coverage >= 1 - self.f


def _reuse_max_queries(
    n: int,
    t: float,
    f: float,
    search: Callable[..., tuple[float, list[float]]],
    certify: Callable[..., Any],
    start: int | None = None,
    guess_hw: Callable[[int, int, float], float] | None = None,
) -> int:
    """The largest k whose certified half-width is at most t (0 if none): a coarse float search
    over k (from ``start``, a guess, if given), refined on the fine float half-width (or
    ``guess_hw(n, k, f)``, a cheaper one), then certified: the answer's half-width is at most t,
    the next k's above it."""
    ev = _RouteEval(f, search, certify, guess_hw)
    guess = _float_boundary(lambda k: ev.coarse(n, k) > t, 1, MAX_QUERIES, start)
    # the first k that fails: g(k) = t - hw(k) decreases in k
    guess = _secant_boundary(lambda k: t - ev.guess(n, k), guess, 1, MAX_QUERIES)
    first_fail = _smallest_true(lambda k: not ev.meets(n, k, t), guess, 1, MAX_QUERIES)
    return MAX_QUERIES if first_fail is None else first_fail - 1


def _reuse_required_n(
    k: int,
    t: float,
    f: float,
    search: Callable[..., tuple[float, list[float]]],
    certify: Callable[..., Any],
    start: int | None = None,
    guess_hw: Callable[[int, int, float], float] | None = None,
) -> int | None:
    """The smallest n whose certified half-width for k queries is at most t (None above
    MAX_RECORDS): a coarse float search over n (from ``start``, a guess, if given; skipped when
    both ``start`` and ``guess_hw`` are given), refined on the fine float half-width (or
    ``guess_hw(n, k, f)``, a cheaper one), then certified at the answer and below."""
    ev = _RouteEval(f, search, certify, guess_hw)
    if start is None or guess_hw is None:
        guess = _float_boundary(lambda n: ev.coarse(n, k) <= t, 1, MAX_RECORDS, start)
    else:  # a start from the route's own half-width and a cheap guess: the secant starts there
        guess = start
    guess = _secant_boundary(lambda n: ev.guess(n, k) - t, guess, 1, MAX_RECORDS)
    return _smallest_true(lambda n: ev.meets(n, k, t), guess, 1, MAX_RECORDS)


# --------------------------------------------------------------------------------------------
# the plan


#: the routes whose extremes :mod:`.limits` can prove, with their refutations
_REFUTERS: dict[Route, Callable[..., bool | None]] = {
    REUSE_JLNRSS: limits.jlnrss_refuted,
    REUSE_BNSSSU: limits.bnsssu_refuted,
}


def _proved_limits(
    refuted: Callable[..., bool | None], n: int, k: int, t: float, cov: float, found: dict[str, Any]
) -> dict[str, int | None]:
    """The proved limits around a Gaussian route's largest k and smallest n (None where none
    is proved); the failure budget is 1 - C exactly."""
    failure = 1 - Fraction(cov)
    kq, nr = found["max_queries_at_half_width"], found["required_n_records"]
    kl = limits.max_queries_limit(refuted, n, t, failure, kq) if kq < MAX_QUERIES else None
    nl = limits.required_n_limit(refuted, k, t, failure, nr) if nr is not None else None
    return {
        "max_queries_upper_limit": None if kl is None else kl.value,
        "required_n_lower_limit": None if nl is None else nl.value,
    }


def _join(*notes: str) -> str:
    return "; ".join(x for x in notes if x)


#: said of a route whose largest k is the searched range's end (every route's search, splitting's
#: too, stops at MAX_QUERIES): that many queries meet the target, more were not searched
CAP_NOTE = f"max queries: at least {MAX_QUERIES} (that many meet the target; the search's range ends there)"


def _budget_note(budget: int | None) -> str:
    return (
        "give the overfitting budget B (thresholdout_budget; --thresholdout-budget): the number of answers "
        "Thresholdout may take from the holdout before it stops"
        if budget is None
        else ""
    )


def _thresholdout_args(budget: Any, threshold: Any) -> tuple[int | None, float | None]:
    """Thresholdout's budget B (an integer >= 1) and threshold T (a real >= 0), each optional; a
    threshold without a budget is refused, not ignored."""
    b = None if budget is None else check_int("thresholdout_budget", budget, low=1)
    thr = None if threshold is None else Real(0).check_float("threshold", threshold)
    if thr is not None and b is None:
        raise InvalidParameter("threshold", threshold, "given with thresholdout_budget (Thresholdout's budget B)")
    return b, thr


def _split_required_n(k: int, t: float, f: float) -> int | None:
    """Splitting's smallest n (Hoeffding), or None where that count is past the floats (a
    half-width of 1e-200: split_required_n refuses it, and the plan shows "-", as for a reuse
    route with no n up to MAX_RECORDS)."""
    try:
        return split_required_n(k, t, f)
    except InvalidParameter:
        return None


def plan_estimate(
    n: int,
    queries: int,
    coverage: float,
    half_width: float | None = None,
    *,
    thresholdout_budget: int | None = None,
    threshold: float | None = None,
    maxinfo: bool = True,
    binary: bool = False,
    prove_extremes: bool = False,
) -> EstimatePlan:
    """Every route for ``queries`` adaptive statistical queries of ``n`` i.i.d. records at
    simultaneous ``coverage``; with ``half_width``, also each route's largest number of queries
    and smallest n meeting it. ``thresholdout_budget`` (B) adds Thresholdout (its threshold
    ``threshold``, default :func:`default_threshold`). The recommended route has the narrowest
    certified half-width. ``maxinfo=False`` leaves out the max-information route (about 50 ms;
    the power planner's searches, which need only the narrowest route, skip it). ``binary``:
    every query is {0, 1}-valued (an accuracy, a proportion), which makes splitting with the
    exact binomial tail valid (:mod:`~maxinfo_bounds.theorems.binomial_split`); otherwise that
    route is shown as not valid, without figures. ``prove_extremes`` (with ``half_width``):
    also prove, for the two Gaussian routes and Thresholdout, limits no setting can pass
    (:mod:`.limits`: a certified branch and bound; seconds per route).

    >>> p = plan_estimate(1_000_000, 10_000, 0.95)
    >>> str(p.recommended), p.route(p.recommended).half_width < p.route(SPLIT).half_width
    ('reuse: Gaussian noise, JLNRSS transfer', True)
    """
    nn = check_int("n", n, low=1, high=MAX_RECORDS)
    k = check_int("queries", queries, low=1, high=MAX_QUERIES)
    cov = Real(0, 1, lo_open=True, hi_open=True).check_float("coverage", coverage)
    t = None if half_width is None else Real(0, lo_open=True).check_float("half_width", half_width)
    if not isinstance(binary, bool):
        raise InvalidParameter("binary", binary, "true or false (every query {0, 1}-valued)")
    budget, thr = _thresholdout_args(thresholdout_budget, threshold)
    if not isinstance(prove_extremes, bool):
        raise InvalidParameter("prove_extremes", prove_extremes, "true or false")
    if prove_extremes and t is None:
        raise InvalidParameter(
            "prove_extremes", prove_extremes, "given with half_width (the target it proves limits for)"
        )
    f = _failure(cov)
    routes: list[EstimateRoute] = []

    reuse: list[tuple[Route, Callable[..., Any], Callable[..., Any], tuple[str, ...], str]] = [
        (
            REUSE_JLNRSS,
            _jlnrss_search,
            _certify_jlnrss,
            ("DRS22-3.3", "DRS22-2.13", "GAUSS-max", "JLNRSS-transfer"),
            "no noise level gives a finite half-width here",
        ),
        (
            REUSE_BNSSSU,
            _bnsssu_search,
            _certify_bnsssu,
            ("DRS22-3.3", "DRS22-2.13", "GAUSS-max", "RRST-B.2"),
            "no noise level is inside RRST Thm B.2's conditions here (eps < 1/3, delta < eps/4, "
            "n >= ln(4 eps/delta)/eps^2, delta/eps below 1 - coverage)",
        ),
    ]
    refuters = dict(_REFUTERS)
    if budget is not None:
        b_ = budget
        refuters[THRESHOLDOUT] = functools.partial(limits.thresholdout_refuted, budget=budget, threshold=thr)

        def th_search(n_: int, k_: int, f_: float, fine: bool = True) -> tuple[float, list[float]]:
            return _thresholdout_search(n_, k_, b_, f_, thr, fine)

        def th_certify(n_: int, k_: int, f_: float, point: list[float]) -> _Certified | None:
            return _certify_thresholdout(n_, k_, b_, f_, thr, point)

        reuse.append(
            (
                THRESHOLDOUT,
                th_search,
                th_certify,
                ("Notes-Thresholdout", "JLNRSS-transfer"),
                "no setting gives a finite half-width here (it needs at least 2 records)",
            )
        )
    for name, search, certify, ths, why in reuse:
        c = _reuse_route(nn, k, f, search, certify)
        extra: dict[str, Any] = {}
        if t is not None:  # the coarse searches start from the study's own k and n
            extra["max_queries_at_half_width"] = _reuse_max_queries(nn, t, f, search, certify, k)
            extra["required_n_records"] = _reuse_required_n(k, t, f, search, certify, nn)
            if prove_extremes and name in refuters:
                extra.update(_proved_limits(refuters[name], nn, k, t, cov, extra))
        if c is None:
            routes.append(EstimateRoute(name, False, None, None, theorems=ths, note=why, **extra))
        else:
            routes.append(EstimateRoute(name, True, c.half_width, c.coverage, c.settings, ths, c.derivation, **extra))
    mi = _maxinfo_route(nn, k, f) if maxinfo else None
    mi_ths = ("DRS22-3.3", "DRS22-2.13", "RRST-3.1", "DFHPRR-4", "GAUSS-max")
    mi_note = "shown for comparison: far wider than the JLNRSS transfer for statistical queries"
    if maxinfo:
        mi_extra: dict[str, Any] = {}
        if t is not None:
            # started from the JLNRSS route's extremes (a guess only: it is the narrower route)
            jl = next(r for r in routes if r.route is REUSE_JLNRSS)
            mi_extra["max_queries_at_half_width"] = _reuse_max_queries(
                nn, t, f, _maxinfo_search, _certify_maxinfo, jl.max_queries_at_half_width, _MaxinfoLocal()
            )
            # the half-width falls about as 1/sqrt(n): the route's own value at n gives the guess
            n_start = jl.required_n_records
            if mi is not None and mi.half_width > 0:
                # (a product, not ** 2: past the floats it is inf, where ** raises OverflowError;
                # a half-width of 1e-200 did)
                ratio = mi.half_width / t
                guess = nn * ratio * ratio
                n_start = MAX_RECORDS if not guess < MAX_RECORDS else max(1, math.ceil(guess))
            mi_extra["required_n_records"] = _reuse_required_n(
                k, t, f, _maxinfo_search, _certify_maxinfo, n_start, _MaxinfoLocal()
            )
        routes.append(
            EstimateRoute(
                REUSE_MAXINFO,
                False,
                None,
                None,
                theorems=mi_ths,
                note="no setting inside RRST Thm 3.1 here",
                **mi_extra,
            )
            if mi is None
            else EstimateRoute(
                REUSE_MAXINFO,
                True,
                mi.half_width,
                mi.coverage,
                mi.settings,
                mi_ths,
                mi.derivation,
                mi_note,
                **mi_extra,
            )
        )
    if budget is None:
        routes.append(
            EstimateRoute(THRESHOLDOUT, False, None, None, theorems=("Notes-Thresholdout",), note=_budget_note(None))
        )

    ex_split: dict[str, Any] = {
        "max_queries_at_half_width": None if t is None else split_max_queries(nn, t, f),
        "required_n_records": None if t is None else _split_required_n(k, t, f),
    }
    if k <= nn:
        sp = split_hoeffding(nn, k, f)
        m = nn // k
        routes.append(
            EstimateRoute(
                SPLIT,
                True,
                sp.half_width,
                sp.coverage,
                {"records_per_query": m},
                ("SPLIT-Hoeffding",),
                (
                    f"each query answered on its own {m} fresh records (n // k), never seen before",
                    f"SPLIT-Hoeffding: every answer within sqrt(ln(2k/beta)/(2m)) = {_up(sp.half_width)} "
                    f"with probability >= {_down(sp.coverage)} (Hoeffding, union bound over {k} queries)",
                ),
                **ex_split,
            )
        )
    else:
        routes.append(
            EstimateRoute(
                SPLIT,
                False,
                None,
                None,
                theorems=("SPLIT-Hoeffding",),
                note=f"{k} queries need at least {k} records (one each)",
                **ex_split,
            )
        )
    routes.append(_split_binary_route(nn, k, f, t, binary))
    nv = split_hoeffding(nn, 1, float_down(Fraction(f) / k))
    routes.append(
        EstimateRoute(
            NAIVE,
            False,
            nv.half_width,
            None,
            {"records_per_query": nn},
            ("SPLIT-Hoeffding",),
            (f"Hoeffding on all {nn} records with a union bound: {_up(nv.half_width)} for queries fixed in advance",),
            "not valid for adaptively chosen queries: a query chosen after seeing answers on the same records "
            "can overfit them (the half-width shown holds only for queries fixed before the data are seen)",
        )
    )
    routes = [
        replace(r, note=_join(r.note, CAP_NOTE)) if r.max_queries_at_half_width == MAX_QUERIES else r for r in routes
    ]
    # a half-width of 1 or more says nothing of [0, 1]-valued queries: valid, but vacuous
    routes = [
        replace(r, note=_join(r.note, VACUOUS)) if r.valid and r.half_width is not None and r.half_width >= 1 else r
        for r in routes
    ]
    useful = [r for r in routes if r.valid and r.half_width is not None and r.half_width < 1]
    best = min(useful, key=lambda r: r.half_width or math.inf).route if useful else None
    return EstimatePlan(nn, k, cov, t, tuple(routes), best, binary)


def _split_binary_route(n: int, k: int, f: float, t: float | None, binary: bool) -> EstimateRoute:
    """Splitting with the exact binomial tail: valid for {0, 1}-valued queries only."""
    ths = ("SPLIT-binomial",)

    def invalid(note: str, **extra: Any) -> EstimateRoute:
        return EstimateRoute(SPLIT_BINARY, False, None, None, theorems=ths, note=note, **extra)

    if not binary:
        return invalid(
            "valid only when every query is {0, 1}-valued (say so with binary = true / --binary): "
            "for [0, 1]-valued queries a Bernoulli is not the worst case of a tail"
        )
    extra: dict[str, Any] = {}
    notes = []
    if t is not None:
        for key, fn, args in (
            ("max_queries_at_half_width", split_binomial_max_queries, (n, t, f)),
            ("required_n_records", split_binomial_required_n, (k, t, f)),
        ):
            try:
                extra[key] = fn(*args)
            except Undecided as exc:  # an enclosure straddling the target: refused, not guessed
                extra[key] = None
                notes.append(f"{key}: refused, not decided within the rounding at {exc.value}")
            except InvalidParameter:  # a record count past the floats (half-width 1e-200): none
                extra[key] = None
    if k > n:
        return invalid(f"{k} queries need at least {k} records (one each)", **extra)
    b = split_binomial(n, k, f)
    m = n // k
    exact = not any(c.startswith("Hoeffding's bound") for c in b.conditions)
    how = (
        "sup over p of P_p(|X/m - p| > t), X ~ Bin(m, p), at most 1 - coverage^(1/k) (exact binomial tail, certified)"
        if exact
        else next(c for c in b.conditions if c.startswith("Hoeffding's bound"))
    )
    if not exact:
        notes.append(how)
    return EstimateRoute(
        SPLIT_BINARY,
        True,
        b.half_width,
        b.coverage,
        {"records_per_query": m},
        ths,
        (
            f"each query answered on its own {m} fresh records (n // k), never seen before; queries {{0, 1}}-valued",
            f"SPLIT-binomial: every answer within {_up(b.half_width)} with probability >= {_down(b.coverage)}: {how}",
        ),
        "; ".join(notes),
        **extra,
    )


# --------------------------------------------------------------------------------------------
# the regime map: which route is narrowest over (n, k)

#: the routes a regime map compares (the valid ones; exact binomial splitting when every query
#: is {0, 1}-valued, Thresholdout when a budget is given)
MAP_ROUTES = (REUSE_JLNRSS, REUSE_BNSSSU, SPLIT, SPLIT_BINARY, THRESHOLDOUT)


@dataclass(frozen=True)
class RegimeMap:
    """Float estimates of each valid route's optimised half-width on a log grid of n and k
    (the certified figures of :func:`plan_estimate` agree with them to about 1e-4 relative;
    the map is a picture, not a certificate). ``widths[r][i][j]`` at n = ``ns[i]``,
    k = ``ks[j]`` (inf where the route does not apply); ``winner[i][j]`` the narrowest route's
    index in ``routes`` (-1: none below 1, the half-width that says nothing of [0, 1] queries)."""

    coverage: float
    ns: tuple[int, ...]
    ks: tuple[int, ...]
    widths: dict[Route, list[list[float]]]
    winner: list[list[int]]
    routes: tuple[Route, ...] = MAP_ROUTES[:3]
    thresholdout_budget: int | None = None
    #: every query {0, 1}-valued: the exact binomial splitting route is on the map
    binary: bool = False

    def crossovers(self) -> list[dict[str, Any]]:
        """Along k at each n: where the narrowest route changes (the first k of the new one)."""
        out = []
        for i, n in enumerate(self.ns):
            row = self.winner[i]
            for j in range(1, len(self.ks)):
                if row[j] != row[j - 1]:
                    out.append(
                        {
                            "n_records": n,
                            "queries": self.ks[j],
                            "from": self.routes[row[j - 1]] if row[j - 1] >= 0 else None,
                            "to": self.routes[row[j]] if row[j] >= 0 else None,
                        }
                    )
        return out

    def as_dict(self) -> dict[str, Any]:
        return {
            "coverage": self.coverage,
            "thresholdout_budget": self.thresholdout_budget,
            "binary": self.binary,
            "n_records": list(self.ns),
            "queries": list(self.ks),
            "half_width_float_estimates": {
                r: [[w if math.isfinite(w) else None for w in row] for row in v] for r, v in self.widths.items()
            },
            "narrowest_route": [[self.routes[w] if w >= 0 else None for w in row] for row in self.winner],
            "crossovers": self.crossovers(),
        }


def _log_grid(lo: int, hi: int, points: int) -> tuple[int, ...]:
    return tuple(sorted({int(round(x)) for x in np.geomspace(lo, hi, points)}))


def _split_est(n: int, k: int, f: float) -> float:
    m = n // k
    return math.sqrt(math.log(2 * k / f) / (2 * m)) if m >= 1 else math.inf


def _split_binary_est(n: int, k: int, f: float) -> float:
    """Exact binomial splitting's float half-width (inf when k > n); never above Hoeffding's
    float estimate (the route's certified fallback is Hoeffding's bound rounded up)."""
    return min(split_binomial_estimate(n, k, f), _split_est(n, k, f)) if k <= n else math.inf


def regime_map(
    coverage: float,
    n_range: tuple[int, int] = (10**3, 10**7),
    k_range: tuple[int, int] = (1, 10**5),
    points: int = 50,
    progress: Callable[[int, int], None] | None = None,
    *,
    thresholdout_budget: int | None = None,
    threshold: float | None = None,
    binary: bool = False,
) -> RegimeMap:
    """Each valid route's float half-width over a ``points`` x ``points`` log grid of n and k
    (:class:`RegimeMap`); splitting with the exact binomial tail too when ``binary`` (every
    query {0, 1}-valued), Thresholdout when ``thresholdout_budget`` is given.
    ``progress(done, total)`` is called after each row of n."""
    cov = Real(0, 1, lo_open=True, hi_open=True).check_float("coverage", coverage)
    pts = check_int("points", points, low=2, high=400)
    n_lo, n_hi = (check_int("n_range", x, low=1, high=MAX_RECORDS) for x in n_range)
    k_lo, k_hi = (check_int("k_range", x, low=1, high=MAX_QUERIES) for x in k_range)
    if not (n_lo < n_hi and k_lo < k_hi):
        raise InvalidParameter("n_range/k_range", (n_range, k_range), "ranges LO:HI with LO < HI")
    budget, thr = _thresholdout_args(thresholdout_budget, threshold)
    if not isinstance(binary, bool):
        raise InvalidParameter("binary", binary, "true or false (every query {0, 1}-valued)")
    f = _failure(cov)
    ns, ks = _log_grid(n_lo, n_hi, pts), _log_grid(k_lo, k_hi, pts)
    # exact binomial splitting before Hoeffding's, so that it wins their ties (above
    # BINOMIAL_M_MAX records per query it is Hoeffding's bound too): with {0, 1}-valued queries
    # Hoeffding's splitting is never the narrowest
    split = (SPLIT_BINARY, SPLIT) if binary else (SPLIT,)
    routes = (REUSE_JLNRSS, REUSE_BNSSSU, *split) + ((THRESHOLDOUT,) if budget is not None else ())
    widths: dict[Route, list[list[float]]] = {r: [] for r in routes}
    winner: list[list[int]] = []
    for i, n in enumerate(ns):
        rows = {
            REUSE_JLNRSS: [_jlnrss_search(n, k, f, False)[0] for k in ks],
            REUSE_BNSSSU: [_bnsssu_search(n, k, f, False)[0] for k in ks],
            SPLIT: [_split_est(n, k, f) for k in ks],
        }
        if binary:
            rows[SPLIT_BINARY] = [_split_binary_est(n, k, f) for k in ks]
        if budget is not None:
            rows[THRESHOLDOUT] = [_thresholdout_search(n, k, budget, f, thr, False)[0] for k in ks]
        for r in routes:
            widths[r].append(rows[r])
        winner.append(
            [
                min(range(len(routes)), key=lambda q: rows[routes[q]][j])
                if any(rows[r][j] < 1 for r in routes)  # 1 or more: vacuous for [0, 1] queries
                else -1
                for j in range(len(ks))
            ]
        )
        if progress is not None:
            progress(i + 1, len(ns))
    return RegimeMap(cov, ns, ks, widths, winner, routes, budget, binary)


def plot_regime_map(rm: RegimeMap, out: str, *, mark: tuple[int, int] | None = None) -> None:
    """The regime map as a figure: the narrowest route's region in colour, contours of its
    half-width, the study's (n, k) marked (``mark``)."""
    import matplotlib

    from ..numeric import save_figure

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Patch

    ns, ks = np.array(rm.ns, dtype=float), np.array(rm.ks, dtype=float)
    win = np.array(rm.winner, dtype=float).T  # rows: k, columns: n
    best = np.min(np.array([rm.widths[r] for r in rm.routes]), axis=0).T
    palette = dict(zip(MAP_ROUTES, ("#4c72b0", "#dd8452", "#55a868", "#8172b3", "#c44e52"), strict=True))
    colours = [palette[r] for r in rm.routes]
    fig, ax = plt.subplots(figsize=(10, 5.2))
    masked = np.ma.masked_less(win, 0)
    ax.pcolormesh(
        ns, ks, masked, cmap=ListedColormap(colours), vmin=-0.5, vmax=len(colours) - 0.5, shading="nearest", alpha=0.55
    )
    levels = [
        x
        for x in (0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0)
        if np.nanmin(best) < x < np.nanmax(best[np.isfinite(best)])
    ]
    if levels:
        cs = ax.contour(ns, ks, np.where(np.isfinite(best), best, 10.0), levels=levels, colors="k", linewidths=0.8)
        ax.clabel(cs, fmt=lambda v: f"±{v:g}", fontsize=8, inline=False)
    if mark is not None:
        ax.plot([mark[0]], [mark[1]], marker="*", color="crimson", markersize=12, label="this study")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("n: number of records")
    ax.set_ylabel("k: number of adaptively chosen queries")
    ax.set_title(
        f"Narrowest valid route for k adaptive queries at simultaneous coverage {rm.coverage:g}"
        + (", {0, 1}-valued queries" if rm.binary else "")
        + (f", Thresholdout budget B = {rm.thresholdout_budget}" if rm.thresholdout_budget else "")
        + "\n"
        "(colour: route; lines: its half-width, float estimates; white: no route below half-width 1)",
        fontsize=9,
    )
    handles: list[Any] = [Patch(color=c, alpha=0.55, label=r) for c, r in zip(colours, rm.routes)]
    if mark is not None:
        handles.append(ax.get_legend_handles_labels()[0][0])
    ax.legend(handles=handles, fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    fig.tight_layout()
    save_figure(fig, "plot", out)


_NONE = "no route below half-width 1"
#: the key of a map row whose narrowest route never changes along k (never a route's name)
_EVERY = "at every k of the map"


def crossover_text(rm: RegimeMap) -> str:
    """The crossovers of a regime map in words: for each run of n with the same changes of the
    narrowest route along k, the range of k at which each change happens."""
    by_n: dict[int, list[tuple[int, str | None, str | None]]] = {}
    for c in rm.crossovers():
        by_n.setdefault(c["n_records"], []).append((c["queries"], c["from"], c["to"]))
    runs: list[tuple[int, int, list[tuple[str | None, str | None]], list[list[int]]]] = []
    for i, n in enumerate(rm.ns):
        ch = by_n.get(n, [])
        # a row without a change is keyed by its one route (None: no route below 1) and a mark
        # no change has, so that rows with different routes throughout are not merged
        w = rm.winner[i][0]
        key: list[tuple[str | None, str | None]] = (
            [(f, t) for _, f, t in ch] if ch else [(rm.routes[w] if w >= 0 else None, _EVERY)]
        )
        if runs and runs[-1][2] == key:
            lo, _, _, ks = runs[-1]
            runs[-1] = (lo, n, key, [[*a, k] for a, (k, _, _) in zip(ks, ch)])
        else:
            runs.append((n, n, key, [[k] for k, _, _ in ch]))
    lines = ["crossovers (the first k of the map's grid at which the narrowest route changes):"]
    for lo, hi, key, ks in runs:
        span = f"n = {lo}" if lo == hi else f"n in [{lo}, {hi}]"
        if not ks:
            lines.append(f"  {span}: {key[0][0] or _NONE} {_EVERY}")
            continue
        parts = []
        for (f, t), kk in zip(key, ks):
            at = f"k = {kk[0]}" if min(kk) == max(kk) else f"k = {min(kk)}..{max(kk)}"
            parts.append(f"{f or _NONE} -> {t or _NONE} at {at}")
        lines.append(f"  {span}: " + "; ".join(parts))
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------
# the study file: [data] and [estimate]

#: the keys of an estimation study's [estimate] table
ESTIMATE_KEYS = ("queries", "coverage", "half_width", "thresholdout_budget", "threshold", "binary", "prove_extremes")


def plan_estimate_file(path: str, *, prove_extremes: bool = False) -> EstimatePlan:
    """:func:`plan_estimate` for an estimation study file (TOML)::

        [study]            # optional: name
        [data]             # n, iid (must be true: every route needs i.i.d. records)
        [estimate]         # queries, coverage; optional half_width, thresholdout_budget, threshold,
                           # binary (every query {0, 1}-valued: exact binomial splitting),
                           # prove_extremes (proved limits for the Gaussian routes and
                           # Thresholdout)

    ``prove_extremes=True`` proves them whatever the file says. A refusal names the file and
    the key."""
    from .errors import PlanError
    from .study import read_toml, where

    doc = read_toml(path)
    for key in doc:
        if key not in ("study", "data", "estimate"):
            raise PlanError(where(path, key), "unknown table; allowed in an estimation study: study, data, estimate")
    data, spec = doc.get("data"), doc.get("estimate")
    if not isinstance(data, dict) or "n" not in data:
        raise PlanError(where(path, "data.n"), "missing: the number of records (integer >= 1)")
    if not isinstance(spec, dict):
        raise PlanError(where(path, "estimate"), "missing table [estimate] with queries and coverage")
    for key in data:
        if key not in ("n", "iid"):
            raise PlanError(where(path, f"data.{key}"), "unknown key; allowed: n, iid")
    for key in spec:
        if key not in ESTIMATE_KEYS:
            raise PlanError(where(path, f"estimate.{key}"), f"unknown key; allowed: {', '.join(ESTIMATE_KEYS)}")
    for key in ("queries", "coverage"):
        if key not in spec:
            raise PlanError(where(path, f"estimate.{key}"), "missing (queries: an integer >= 1; coverage in (0, 1))")
    if data.get("iid", False) is not True:
        raise PlanError(
            where(path, "data.iid"),
            "must be true: the transfer theorems and splitting's Hoeffding bound need i.i.d. records "
            "(no route is valid otherwise)",
        )
    try:
        return plan_estimate(
            data["n"],
            spec["queries"],
            spec["coverage"],
            spec.get("half_width"),
            thresholdout_budget=spec.get("thresholdout_budget"),
            threshold=spec.get("threshold"),
            binary=spec.get("binary", False),
            prove_extremes=True if prove_extremes is True else spec.get("prove_extremes", False),
        )
    except InvalidParameter as exc:
        key = "data.n" if exc.name == "n" else f"estimate.{exc.name}"
        raise PlanError(where(path, key), f"{exc.value!r} is invalid: must be {exc.allowed}") from None
