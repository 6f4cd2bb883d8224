r"""Which valid analysis to run: every valid route with its power and required n.

A person planning a study wants the analysis most likely to find a real effect while staying
valid. :func:`plan_power` lists every valid way to test the hypothesis the analysis chooses:

* **adaptive reuse** — the test on all n records at the planner's certified threshold γ(α)
  (:func:`~maxinfo_bounds.planning.routes.plan`: the best of its max-information routes);
* **Bonferroni over the declared family** (``study.family_size``) — α/|family| on all n, valid
  when the chosen test is one of the pre-declared family;
* **union bound over the analysis's outputs** — when every step is a description step, the
  analysis has at most M = Π range_size^times outputs and the test depends on the data only
  through one of M fixed tests: α/M on all n is valid (a union bound; never worse than DFHPRR
  Thm 6's α²/(4M));
* **sample splitting** — i.i.d. data only: the analysis runs on a share of the records and the
  test on the rest (``power.split_fraction``, default ½), at α, since the test records are
  independent of everything the analysis saw. With ``iid = false`` it is not valid (the halves
  are not independent) and is shown as such;
* **naive** — α on all n, ignoring the adaptivity: never valid, shown for reference.

With a ``[power]`` table each valid route gets its power at the study's n
(:mod:`~maxinfo_bounds.planning.power`), the smallest n reaching the target power and the
smallest effect it detects with that power at the study's n (the minimum detectable effect,
G*Power's sensitivity analysis), and the **recommended** route is the valid one with the highest
power, compared as printed, to 4 digits (ties: the smaller required n, then the larger
threshold). When even that one misses the target, :attr:`PowerPlan.meets_target` is False and
the report says so first, with what would reach it: each route's required n and minimum
detectable effect, and the nearest single changes of the steps with which adaptive reuse does
(:func:`~maxinfo_bounds.planning.explore.power_fixes`). Without a power table, the
recommendation is the largest valid threshold among the routes that test on all n records, with
sample splitting beside it.

**Required n.** For reuse, γ itself depends on n (RRST Thm 1.4's ε²n term, Thm 3.1's nν(δ̂)), so
power need not grow with n. The search is a branch and bound over [n_min, 10^12], left first:
an interval [a, b] is discarded when an upper bound on the power over it is below the target
(:func:`~maxinfo_bounds.planning.power.power_upper` at the largest γ on the interval), so the
first n found is the smallest, and "none" is a proof over the whole range. The largest γ on
[a, b] is γ itself when no step is DP (description and MI bounds do not involve n), γ(a)
when γ is non-increasing in n (every step's guarantee fixed: each theorem's k grows with
n), γ(b) when non-decreasing (Thresholdout's ε = 2B/(σn) only, one run), each with a
0.1% slack for the planner's optimiser tolerance; with mean-query steps (sensitivity 1/n),
:func:`~maxinfo_bounds.planning.routes.gamma_upper_bound` of the study on a records with every
step evaluated on b (:func:`relaxed_study`): a proven bound on every route's γ at any β split
where one exists (one pure-DP stage, by concavity:
:func:`~maxinfo_bounds.planning.routes.pure_gamma_sup`, within 10^-6 of the optimum), the 0.1%
slack elsewhere. When neither holds (several Thresholdout runs, or Thresholdout beside other DP
steps) the required n is reported from a grid and marked not proven. The plans at other n rank a
Gaussian stage's total delta on the fixed grid only (``plan(..., refine=False)``; the study's
own n keeps its refined plan): the proof covers that grid, and the refined threshold at any n is
at least as large, so the power at a reported n reaches the target either way.

>>> from maxinfo_bounds.planning import load_study
>>> pp = plan_power(load_study("examples/select_one_of_1000.toml"))
>>> pp.recommended.name
'Bonferroni over the declared family of 1000'

**No valid analysis.** When no route is valid (approximate DP on data not known to be i.i.d.,
with no declared family), :func:`plan_power` still returns a :class:`PowerPlan`: its
``recommended`` is None and :attr:`PowerPlan.no_valid_route` says why, route by route.

Why one module at about 400 lines: every valid analysis (reuse, Bonferroni, union bound,
splitting) is compared on one power scale and one required-n search; split, each would
re-import the others to be compared.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from fractions import Fraction
from pathlib import Path
from typing import Any, NamedTuple, cast

import numpy as np

from ..numeric import check_output_file, decimal_text, float_down, float_up, int_text, save_figure
from ..numeric.special import special
from .errors import PlanError
from .power import (
    describe,
    method_of,
    min_records,
    minimum_effect,
    normal_approximation_power,
    power_at,
    power_lower,
    power_upper,
)
from .routes import OPTIMISER_SLACK, NoValidRoute, PlanResult, gamma_upper_bound, plan
from .stages import MAX_DESCRIPTION_BITS
from .steps import Description, DPStep, MeanQuery, Thresholdout
from .study import Alternative, FinalTest, PowerSpec, Study, where

__all__ = [
    "RouteKind",
    "RouteRow",
    "ReuseRoute",
    "PowerPlan",
    "plan_power",
    "power_curve",
    "study_at_n",
    "format_rows",
    "effect_text",
    "groups",
    "requirement_notes",
    "N_MAX",
    "SPLIT_GRID",
]


class RouteKind(StrEnum):
    """The kinds of analysis :func:`plan_power` compares."""

    REUSE = "reuse"
    BONFERRONI = "bonferroni"
    UNION = "union"
    SPLIT = "split"
    #: every query and the final statistic answered by the estimation planner's mechanism; the
    #: decision "reject when the answer is beyond p0 +- the certified half-width" (issue 42)
    ESTIMATE = "estimate"
    NAIVE = "naive"


class _Trend(StrEnum):
    """How the planner's γ moves with n (module doc)."""

    CONST = "const"
    DOWN = "down"
    UP = "up"
    #: steps whose sensitivity follows n (mean queries): bounded on [a, b] by the relaxed plan
    BOUNDED = "bounded"
    UNKNOWN = "unknown"


#: the required-n search covers [n_min, N_MAX]
N_MAX = 10**12
#: test fractions tried for sample splitting
SPLIT_GRID = tuple(round(0.05 * i, 2) for i in range(1, 20))


@dataclass(frozen=True)
class RouteRow:
    """One way to run the final test: its threshold, records, validity, power and required n."""

    name: str
    kind: RouteKind
    valid: bool
    threshold: float
    test_records: int
    note: str
    power: float | None = None
    required_n: int | None = None
    required_n_note: str = ""
    #: the smallest effect this route detects with the target power on its records at its
    #: threshold (None: none in range, or no [power] table; see :func:`~.power.minimum_effect`)
    mde: float | None = None
    #: the exact binomial test only (its power saw-tooths in n): the smallest n from which the
    #: power stays at or above the target for every larger n up to 10^12 (proven), beside
    #: ``required_n``, the smallest that reaches it (None: not computed)
    stays_from: int | None = None
    #: the records the test uses at ``required_n`` (a share of it for sample splitting)
    required_test_records: int | None = None

    def as_dict(self) -> dict[str, object]:
        return {
            "route": self.name,
            "kind": self.kind.value,
            "valid": self.valid,
            "threshold_p_value": self.threshold,
            "test_records": self.test_records,
            "note": self.note,
            "power_at_study_n": self.power,
            "required_n_records": self.required_n,
            "required_n_note": self.required_n_note,
            "minimum_detectable_effect": self.mde,
            "stays_above_target_from_n_records": self.stays_from,
            "required_test_records": self.required_test_records,
        }


class ReuseRoute(NamedTuple):
    """One max-information route tried on all n records: γ (None where unavailable), why not,
    and the power at the study's n (None without a ``[power]`` table)."""

    route: str
    gamma: float | None
    note: str
    power: float | None


@dataclass(frozen=True)
class PowerPlan:
    """The planner's answer for a study: every route (``rows``), the recommended one (None when
    no route is valid: :attr:`no_valid_route` says why), the reuse derivation."""

    study: Study
    rows: tuple[RouteRow, ...]
    recommended: RouteRow | None
    reuse: PlanResult | None
    reuse_refusal: str
    split_note: str
    #: the planner's certified gamma at every n already planned (reused by the power curve)
    gammas: dict[int, float] = field(default_factory=dict, compare=False, repr=False)
    #: searches a report made once (the reuse route's nearest single changes reaching the
    #: target power), kept so that text and JSON views of one plan search once
    searches: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def __repr__(self) -> str:
        rec = self.recommended
        tail = "none" if rec is None else f"{rec.name!r}, threshold={rec.threshold!r}, power={rec.power!r}"
        return f"PowerPlan(study={self.study.name!r}, n={self.study.n}, recommended={tail})"

    def text(self) -> str:
        """The report ``maxinfo plan`` prints (:func:`~.report.plan_text`)."""
        from .report import plan_text

        return plan_text(self)

    def to_markdown(self) -> str:
        """Headline, route table and methods paragraph, in markdown (:func:`~.report.plan_markdown`)."""
        from .report import plan_markdown

        return plan_markdown(self)

    def _repr_markdown_(self) -> str:
        return self.to_markdown()

    def _repr_html_(self) -> str:
        from .report import plan_html

        return plan_html(self)

    def to_frame(self) -> object:
        """The route table as a ``pandas.DataFrame`` (pandas needed; not a core dependency, so
        the annotation is ``object``)."""
        from .report import plan_frame

        return plan_frame(self)

    def methods(self) -> str:
        """A preregistration-ready methods paragraph with pandoc citations (:meth:`bibtex`)."""
        from .report import methods_text

        return methods_text(self)

    def bibtex(self) -> str:
        """BibTeX of every source :meth:`methods` cites."""
        from ..bibliography import bibtex
        from .report import cited_keys

        return bibtex(cited_keys(self))

    @property
    def target_power(self) -> float | None:
        """The power wanted (the ``[power]`` table's target; None without one)."""
        return None if self.study.power is None else self.study.power.target

    def reaches(self, row: RouteRow) -> bool:
        """Whether ``row`` is valid and its power at the study's n reaches the target."""
        t = self.target_power
        return row.valid and t is not None and row.power is not None and row.power >= t

    @property
    def meets_target(self) -> bool | None:
        """Whether the recommended route reaches the target power (None without a ``[power]``
        table). False means no valid route does: the recommended one is only the most powerful
        (issue 43: say so, never present it as reaching the target)."""
        if self.target_power is None:
            return None
        return self.recommended is not None and self.reaches(self.recommended)

    @property
    def no_valid_route(self) -> str:
        """Why no analysis is valid, route by route ("" when one is)."""
        if self.recommended is not None:
            return ""
        why = [f"{r.name}: {r.note}" for r in self.rows if r.kind is not RouteKind.NAIVE]
        if self.reuse_refusal:
            why[0:0] = [f"adaptive reuse: {self.reuse_refusal}"]
        return "no valid route: " + "; ".join(why)

    def reuse_routes(self) -> list[ReuseRoute]:
        """Each max-information route the planner tried on all n records, with its power."""
        if self.reuse is None:
            return []
        sp = self.study.power
        return [
            ReuseRoute(
                c.route,
                c.gamma,
                c.note,
                None if (sp is None or c.gamma is None) else power_at(sp, c.gamma, self.study.n),
            )
            for c in self.reuse.candidates
        ]

    def _route_dict(self, r: RouteRow) -> dict[str, object]:
        d = r.as_dict()
        sp = self.study.power
        if sp is not None and sp.test is FinalTest.T2 and r.valid:
            # the two groups (the test's records split as floor/ceil halves), at the study's n
            # and at the required n; G*Power and pwr report n per group of equal groups
            d["groups_at_study_n"] = list(groups(r.test_records))
            if r.required_test_records is not None:
                d["groups_at_required_n"] = list(groups(r.required_test_records))
                d["per_group_equal_groups_required"] = -(-r.required_test_records // 2)
        return d

    def as_dict(self) -> dict[str, object]:
        sp = self.study.power
        return {
            "study": self.study.name,
            "n_records": self.study.n,
            "alpha": self.study.alpha,
            "recommended": None if self.recommended is None else self.recommended.as_dict(),
            "meets_target_power": self.meets_target,
            "no_valid_route": self.no_valid_route or None,
            "routes": [self._route_dict(r) for r in self.rows],
            "power": None
            if sp is None
            else {
                "test": sp.test.value,
                "alternative": sp.alternative.value,
                "effect_size": sp.effect_size,
                "p0": sp.p0,
                "target_power": sp.target,
                "split_fraction": sp.split_fraction,
                "design_effect": sp.design_effect,
                "method": method_of(sp),
            },
            "split_note": self.split_note,
            "reuse_routes": [
                {"route": r.route, "threshold_p_value": r.gamma, "note": r.note, "power_at_study_n": r.power}
                for r in self.reuse_routes()
            ],
            "reuse_plan": None if self.reuse is None else self.reuse.as_dict(),
            "reuse_refusal": self.reuse_refusal or None,
        }


def study_at_n(study: Study, n: int) -> Study:
    """The study on ``n`` records (a Thresholdout step's ``holdout_n``, when it was the
    study's n, follows)."""
    steps = tuple(
        st.with_value("holdout_n", n) if isinstance(st, Thresholdout) and st.holdout_n == study.n else st
        for st in study.steps
    )
    return replace(study, n=n, steps=steps)


def _reuse_direction(study: Study) -> _Trend:
    """How the planner's γ moves with n (module doc)."""
    dp_steps = [st for st in study.steps if isinstance(st, DPStep)]
    if not dp_steps:
        return _Trend.CONST  # description and MI bounds do not involve n
    tho = [st for st in dp_steps if isinstance(st, Thresholdout)]
    if not tho:
        scaling = any(isinstance(st, MeanQuery) and st.depends_on_n for st in dp_steps)
        return _Trend.BOUNDED if scaling else _Trend.DOWN
    if len(dp_steps) == 1 and tho[0].times == 1:
        return _Trend.UP
    return _Trend.UNKNOWN


def _union_outputs(study: Study) -> int | None:
    """M = Π range_size^times when every step is a description step and M has at most
    :data:`~maxinfo_bounds.planning.stages.MAX_DESCRIPTION_BITS` bits (else None: the stage is
    refused as vacuous, and α/M would round to 0)."""
    if study.description_bits() > MAX_DESCRIPTION_BITS:
        return None
    m = 1
    for st in study.steps:
        assert isinstance(st, Description)
        m *= st.range_size**st.times
    return m


def _smallest_n(
    power: Callable[[int], float], upper: Callable[[int, int], float], target: float, n_min: int, n_max: int
) -> int | None:
    """The smallest n in [n_min, n_max] with power(n) >= target, or None (branch and bound,
    left first; ``upper(a, b)`` bounds the power on [a, b])."""
    stack = [(n_min, n_max)]
    while stack:
        a, b = stack.pop()
        if upper(a, b) < target:
            continue
        if b - a <= 4:
            for n in range(a, b + 1):
                if power(n) >= target:
                    return n
            continue
        mid = int(math.isqrt(a * b)) if b > 4 * a else (a + b) // 2
        mid = min(max(mid, a), b - 1)
        stack.append((mid + 1, b))
        stack.append((a, mid))
    return None


def _gamma_of_n(study: Study, cache: dict[int, float]) -> Callable[[int], float]:
    def g(n: int) -> float:
        if n not in cache:
            try:
                # on the fixed total-delta grid (refine=False), which the bounds' proof covers;
                # the study's own n keeps its refined plan (seeded in the cache), at least as large
                cache[n] = plan(study_at_n(study, n), refine=False).gamma
            except PlanError:  # no valid route at this n (or the study is refused there)
                cache[n] = 0.0
        return cache[n]

    return g


def relaxed_study(study: Study, a: int, b: int) -> Study:
    """The study on ``a`` records with every mean-query step evaluated on ``b`` >= ``a`` records
    (its smallest sensitivity on [a, b]). Its exhaustive plan's γ bounds γ(n) for every n in
    [a, b]: each route's certified bound grows with n at fixed step guarantees (RRST Thm 1.4's
    eps^2 n, Thm 3.1's n nu(delta_hat)) and with every step's eps, mu and rho, and the
    exhaustive plan tries every route the plans on [a, b] try (none of its fine total-delta
    grid left out by ranking)."""
    steps = tuple(
        dataclasses.replace(cast(Any, st), records=b) if isinstance(st, MeanQuery) and st.depends_on_n else st
        for st in study_at_n(study, a).steps
    )
    return replace(study_at_n(study, a), steps=steps)


def _required(row: RouteRow, study: Study, spec: PowerSpec, gamma_n: Callable[[int], float]) -> tuple[int | None, str]:
    t = spec.target
    n0 = min_records(spec)
    if row.kind is RouteKind.SPLIT:
        f = spec.split_fraction
        n0 = max(n0, math.ceil(n0 / f))

        def recs(n: int) -> int:
            return _split_records(spec, n)

        def pw(n: int) -> float:
            return power_at(spec, row.threshold, recs(n))

        def up(a: int, b: int) -> float:
            return power_upper(spec, row.threshold, max(recs(a), 1), recs(b))
    elif row.kind is RouteKind.REUSE:
        d = _reuse_direction(study)
        if d is _Trend.UNKNOWN:
            grid = sorted({max(n0, int(round(2 ** (j / 4)))) for j in range(0, 4 * 40 + 1)})
            hit = next((n for n in grid if n <= N_MAX and power_at(spec, gamma_n(n), n) >= t), None)
            why = "not proven: with Thresholdout beside other DP steps (or run several times) γ is not monotone in n"
            return hit, (
                f"smallest on a grid of 4 points per doubling ({why})" if hit else f"none on a grid up to 2^40 ({why})"
            )

        def pw(n: int) -> float:
            return power_at(spec, row.threshold if d is _Trend.CONST else gamma_n(n), n)

        def up(a: int, b: int) -> float:
            if d is _Trend.CONST:
                return power_upper(spec, row.threshold, a, b)
            if d is _Trend.BOUNDED:
                # gamma <= alpha on every route: where even alpha cannot reach the target, no
                # plan is needed; a one-point interval is the plan itself
                free = power_upper(spec, study.alpha, a, b)
                if free < t:
                    return free
                if a == b:  # the plan itself: the very gamma pw(a) tests at
                    return power_upper(spec, gamma_n(a), a, b)
                try:
                    g_rel = gamma_upper_bound(relaxed_study(study, a, b))
                except PlanError:
                    g_rel = 0.0
                return power_upper(spec, g_rel, a, b)
            g_hi = (gamma_n(a) if d is _Trend.DOWN else gamma_n(b)) * (1 + OPTIMISER_SLACK)
            return power_upper(spec, g_hi, a, b)
    else:

        def pw(n: int) -> float:
            return power_at(spec, row.threshold, n)

        def up(a: int, b: int) -> float:
            return power_upper(spec, row.threshold, a, b)

    n = _smallest_n(pw, up, t, n0, N_MAX)
    if n is None:
        return None, f"no n <= {N_MAX:.0e} reaches power {t:g} (proven by the power bound)"
    return n, "smallest n (proven: branch and bound on the power)"


def _rows(study: Study, reuse: PlanResult | None, *, estimate: bool = True) -> list[RouteRow]:
    a, n = study.alpha, study.n
    rows: list[RouteRow] = []
    if reuse is not None:
        note = "certified max-information bound, threshold rounded down"
        if reuse.gamma == 0.0:
            note = (
                "vacuous: the certified threshold is 0 (k = "
                f"{decimal_text(reuse.k, 'up') if reuse.k is not None else 'inf'} "
                "bits leaves no usable "
                "threshold), so this route can never reject"
            )
        rows.append(RouteRow(f"adaptive reuse ({reuse.route})", RouteKind.REUSE, True, reuse.gamma, n, note))
    if study.family_size is not None:
        rows.append(
            RouteRow(
                f"Bonferroni over the declared family of {study.family_size}",
                RouteKind.BONFERRONI,
                True,
                float_down(Fraction(a) / study.family_size),
                n,
                "valid only if the chosen test is one of the pre-declared family",
            )
        )
    m = _union_outputs(study)
    if m is not None:
        rows.append(
            RouteRow(
                f"union bound over the analysis's {int_text(m)} possible outputs",
                RouteKind.UNION,
                True,
                float_down(Fraction(a) / m),
                n,
                f"every step is a description: the test is one of at most {int_text(m)} fixed tests (α/M)",
            )
        )
    f = study.power.split_fraction if study.power is not None else 0.5
    m_test = math.floor(f * n)
    if study.iid:
        rows.append(
            RouteRow(
                f"sample splitting (test on {f:g} of the records)",
                RouteKind.SPLIT,
                m_test >= 1,
                a,
                m_test,
                f"the analysis runs on {n - m_test} records, the test on {m_test} fresh ones at alpha"
                if m_test >= 1
                else "the test part would have no records",
            )
        )
    else:
        rows.append(
            RouteRow(
                "sample splitting",
                RouteKind.SPLIT,
                False,
                a,
                m_test,
                "not valid: the data are not i.i.d. (iid = false), so the test "
                "part is not independent of what the analysis saw",
            )
        )
    est = _estimate_row(study) if estimate else None  # (an estimation plan: only where wanted)
    if est is not None:
        rows.append(est)
    rows.append(
        RouteRow("naive (no correction)", RouteKind.NAIVE, False, a, n, "ignores the adaptivity: not a valid threshold")
    )
    return rows


def estimate_queries(study: Study) -> int | None:
    """The number of adaptive statistical queries the study's steps ask before its test, when
    every step is a mean query on the study's n records (Laplace or Gaussian in the mean form,
    values in [value_min, value_max]: a statistical query once rescaled to [0, 1]); None
    otherwise (the estimation route does not apply)."""
    total = 0
    for st in study.steps:
        if not isinstance(st, MeanQuery) or not st.depends_on_n:
            return None
        total += st.times
    return total


def _estimate_mechanism(study: Study, n: int) -> tuple[Any, float, int, float] | None:
    """The estimation planner's recommended route for the study's k queries plus the final
    statistic at coverage 1 - alpha, on n records: (route row, half-width, records the final
    answer is computed on, its noise sigma); None where no route has a half-width below 1."""
    from .estimate import SPLIT as EST_SPLIT
    from .estimate import plan_estimate

    k = estimate_queries(study)
    assert k is not None
    # coverage at least 1 - alpha (rounded up), so that the test's level 1 - C is at most alpha
    cov = float_up(1 - Fraction(study.alpha))
    if cov >= 1.0:
        return None
    ep = plan_estimate(n, k + 1, cov, maxinfo=False)  # (the max-information route is never narrowest)
    if ep.recommended is None:
        return None
    r = ep.route(ep.recommended)
    assert r.half_width is not None
    if r.route is EST_SPLIT:
        return r, r.half_width, int(r.settings["records_per_query"]), 0.0
    return r, r.half_width, n, float(r.settings["sigma"])


def estimate_power(spec: PowerSpec, half_width: float, m: int, sigma: float) -> float:
    """The power of "reject H0: p = p0 when the answer is beyond p0 + half-width" (larger; the
    mirror for smaller; either for two-sided) where the answer is the proportion of m records
    plus N(0, sigma^2) noise and the records are Bernoulli(p1): an exact sum over the binomial
    (within 12 standard deviations of its mean) of the normal tail."""
    sp = special()
    gammaln, ndtr = sp.gammaln, sp.ndtr

    assert spec.p0 is not None
    p0, p1, alt = spec.p0, spec.p1, spec.alternative
    sd = math.sqrt(m * p1 * (1 - p1))
    lo, hi = max(0, math.floor(m * p1 - 12 * sd - 1)), min(m, math.ceil(m * p1 + 12 * sd + 1))
    x = np.arange(lo, hi + 1)
    # the binomial pmf from log-gamma (scipy.special; about 1e-9 relative at m = 10^7, far below
    # what a power figure needs), so a power plan needs no scipy.stats
    w = np.exp(gammaln(m + 1) - gammaln(x + 1) - gammaln(m - x + 1) + x * math.log(p1) + (m - x) * math.log1p(-p1))
    est = x / m
    out = 0.0
    if alt is not Alternative.SMALLER:
        up = ndtr((est - p0 - half_width) / sigma) if sigma > 0 else (est > p0 + half_width).astype(float)
        out += float(np.sum(w * up))
    if alt is not Alternative.LARGER:
        down = ndtr((p0 - half_width - est) / sigma) if sigma > 0 else (est < p0 - half_width).astype(float)
        out += float(np.sum(w * down))
    return min(max(out, 0.0), 1.0)


def _estimate_row(study: Study) -> RouteRow | None:
    """The estimation route's row (None where it does not apply: steps that are not all mean
    queries on the study's records, no [power] table, or a final test other than the exact
    binomial test of a proportion, whose statistic is the only [0, 1] mean the power table
    describes)."""
    spec = study.power
    k = estimate_queries(study)
    if k is None or spec is None or spec.test is not FinalTest.PROPORTION:
        return None
    name = f"estimate then decide ({k + 1} statistical queries, estimation planner)"
    if not study.iid:
        return RouteRow(name, RouteKind.ESTIMATE, False, study.alpha, study.n, "not valid: the data are not i.i.d.")
    mech = _estimate_mechanism(study, study.n)
    if mech is None:
        return RouteRow(
            name, RouteKind.ESTIMATE, False, study.alpha, study.n, "no estimation route has a half-width below 1 here"
        )
    r, hw, m, sigma = mech
    how = f"each answer + N(0, {sigma:.6g}^2)" if sigma > 0 else f"each on its own {m} fresh records"
    return RouteRow(
        name,
        RouteKind.ESTIMATE,
        True,
        study.alpha,
        m,
        f"the {k} queries and the final proportion answered by '{r.route}' ({how}, instead of the steps' "
        f"own noise); reject when the answer is beyond p0 +- {decimal_text(hw, 'up')}, the certified half-width "
        f"at coverage 1 - alpha (level <= alpha)",
    )


def groups(m: int) -> tuple[int, int]:
    """The two groups a two-sample test's m records form: floor(m/2) and ceil(m/2)."""
    return m // 2, m - m // 2


def requirement_notes(pp: PowerPlan) -> list[str]:
    """Notes on each valid route's required n in the conventions of G*Power and pwr: the
    groups of a two-sample test (and the per-group n of equal groups), for the exact binomial
    test its power beside the normal approximation's and the n from which the power stays at or
    above the target, and for the estimation route that its power is of its own decision."""
    spec = pp.study.power
    if spec is None:
        return []
    t, out = spec.target, []
    for r in pp.rows:
        if not r.valid or r.power is None:
            continue
        if spec.test is FinalTest.T2:
            a, b = groups(r.test_records)
            line = (
                f"{r.name}: two-sample t-test: the {r.test_records} test records at n = {pp.study.n} "
                f"are groups of {a} and {b}"
            )
            if r.required_test_records is not None:
                ra, rb = groups(r.required_test_records)
                line += (
                    f"; at the required n, {r.required_test_records} test records: groups of {ra} and {rb} "
                    f"(G*Power and pwr give the n per group of equal groups: {rb})"
                )
            out.append(line)
        if r.kind is RouteKind.ESTIMATE:  # (its decision is not the binomial test: no approximation of it)
            out.append(
                f"{r.name}: power {r.power:.4f} of the decision from the estimate (reject when the answer, "
                "noise included, is beyond p0 +- the certified half-width; an exact sum over the binomial), "
                "not of the exact binomial test"
            )
        elif spec.test is FinalTest.PROPORTION:
            approx = normal_approximation_power(spec, r.threshold, r.test_records)
            out.append(
                f"{r.name}: power {r.power:.4f} by the exact binomial test (used here); the large-sample normal "
                f"approximation (z-test of a proportion) would say {approx:.4f}"
            )
        if r.stays_from is not None and r.required_n is not None:
            if r.stays_from == r.required_n:
                out.append(
                    f"{r.name}: the power stays at or above {t:g} for every n from the required n on "
                    "(proven up to 10^12; exact binomial test)"
                )
            else:
                gap = range(r.required_n + 1, r.stays_from - 1)
                below = (
                    sum(
                        power_at(spec, r.threshold, _test_records(r, spec, n)) < t
                        for n in range(r.required_n + 1, r.stays_from)
                    )
                    if len(gap) <= 5000
                    else None
                )
                count = f"at {below} of the sizes" if below is not None else "at some sizes"
                out.append(
                    f"{r.name}: the exact binomial test's power saw-tooths in n: it reaches {t:g} at "
                    f"n = {r.required_n:,} but falls back below it {count} up to {r.stays_from - 1:,}; it stays "
                    f"at or above {t:g} from n = {r.stays_from:,} on (proven up to 10^12)"
                )
    return out


def _split_records(spec: PowerSpec, n: int) -> int:
    """The records sample splitting tests on, of a study of n: floor(split_fraction n)."""
    return math.floor(spec.split_fraction * n)


def _test_records(row: RouteRow, spec: PowerSpec, n: int) -> int:
    """The records the route's test uses on a study of n records."""
    return _split_records(spec, n) if row.kind is RouteKind.SPLIT else n


def _stays_from(row: RouteRow, spec: PowerSpec, first: int | None) -> int | None:
    """For the exact binomial test at a threshold that does not move with n (every route but
    reuse): the smallest n from which the power stays at or above the target up to
    :data:`N_MAX`, proven by a branch and bound for the largest n below the target (right
    first; an interval is discarded when :func:`~.power.power_lower` over its test records
    reaches the target). None for other tests (their power is monotone in n: it stays from the
    required n on), for reuse (its threshold moves with n) and where no n reaches the target."""
    if spec.test is not FinalTest.PROPORTION or row.kind is RouteKind.REUSE or first is None:
        return None
    return _stays_from_at(spec, row.threshold, row.kind is RouteKind.SPLIT, first)


@functools.lru_cache(maxsize=64)
def _stays_from_at(spec: PowerSpec, g: float, split: bool, first: int) -> int:
    """:func:`_stays_from` for a threshold ``g`` and the records of a split or not (routes of
    one threshold, Bonferroni and the union bound, share the search)."""
    t = spec.target

    def recs(n: int) -> int:
        return _split_records(spec, n) if split else n

    def lower(a: int, b: int) -> float:
        return power_lower(spec, g, recs(a), recs(b))

    stack = [(first, N_MAX)]
    while stack:
        a, b = stack.pop()
        if lower(a, b) >= t:
            continue
        if b - a <= 4:
            for n in range(b, a - 1, -1):
                if power_at(spec, g, recs(n)) < t:
                    return n + 1
            continue
        mid = int(math.isqrt(a * b)) if b > 4 * a else (a + b) // 2
        mid = min(max(mid, a), b - 1)
        stack.append((a, mid))
        stack.append((mid + 1, b))
    return first


def _estimate_required(study: Study, spec: PowerSpec) -> tuple[int | None, str]:
    """The smallest n found reaching the target power (doubling, then bisection; checked at
    n - 1: the route's power is not proven monotone in n)."""

    def pw(n: int) -> float:
        mech = _estimate_mechanism(study, n)
        return 0.0 if mech is None else estimate_power(spec, mech[1], mech[2], mech[3])

    n = max(min_records(spec), 2)
    while pw(n) < spec.target:
        n *= 2
        if n > N_MAX:
            return None, f"none up to {N_MAX:.0e} on a doubling grid"
    lo, hi = n // 2, n
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if pw(mid) >= spec.target:
            hi = mid
        else:
            lo = mid
    return hi, "smallest n found by bisection (power checked below target at n - 1; not proven monotone)"


def _split_note(study: Study, spec: PowerSpec | None) -> str:
    if spec is None or not study.iid:
        return ""
    for f in SPLIT_GRID:
        m = math.floor(f * study.n)
        if m >= min_records(spec) and power_at(spec, study.alpha, m) >= spec.target:
            return (
                f"smallest test fraction on the grid 0.05..0.95 reaching power {spec.target:g}: "
                f"{f:g} ({m} test records); the analysis keeps {study.n - m} records"
            )
    return f"no test fraction on the grid 0.05..0.95 reaches power {spec.target:g} at n = {study.n}"


def plan_power(study: Study) -> PowerPlan:
    """Every valid route with its power and required n, and the recommended one (module doc).

    Raises :class:`PlanError` only for a study the planner refuses (a step it cannot evaluate);
    a study with no valid reuse route still gets the other rows (the reason is kept in
    ``reuse_refusal``), and one with no valid route at all gets ``recommended = None`` and
    :attr:`PowerPlan.no_valid_route`.
    """
    if not isinstance(study, Study):
        raise PlanError("study", f"must be a Study (see load_study / parse_study), got {type(study).__name__}")
    try:
        reuse: PlanResult | None = plan(study)
        refusal = ""
    except PlanError as exc:  # no valid route, or a step reuse cannot evaluate
        reuse, refusal = None, exc.reasons if isinstance(exc, NoValidRoute) else str(exc)
    rows = _rows(study, reuse)
    cache: dict[int, float] = {study.n: reuse.gamma if reuse is not None else 0.0}
    spec = study.power
    if spec is not None:
        gamma_n = _gamma_of_n(study, cache)
        out = []
        for r in rows:
            if not r.valid:
                out.append(r)
                continue
            if r.kind is RouteKind.ESTIMATE:
                mech = _estimate_mechanism(study, study.n)
                assert mech is not None
                req, note = _estimate_required(study, spec)
                hw, m, sigma = mech[1:]
                est_power = functools.partial(estimate_power, half_width=hw, m=m, sigma=sigma)
                out.append(
                    replace(
                        r,
                        power=est_power(spec),
                        required_n=req,
                        required_n_note=note,
                        mde=minimum_effect(spec, r.threshold, m, power=est_power),
                    )
                )
                continue
            req, note = _required(r, study, spec, gamma_n)
            out.append(
                replace(
                    r,
                    power=power_at(spec, r.threshold, r.test_records),
                    required_n=req,
                    required_n_note=note,
                    mde=minimum_effect(spec, r.threshold, r.test_records),
                    stays_from=_stays_from(r, spec, req),
                    required_test_records=None if req is None else _test_records(r, spec, req),
                )
            )
        rows = out
        best = most_powerful(rows)
    else:
        same = [r for r in rows if r.valid and r.kind is not RouteKind.SPLIT]
        valid = same or [r for r in rows if r.valid]
        best = max(valid, key=lambda r: r.threshold, default=None)
    return PowerPlan(study, tuple(rows), best, reuse, refusal, _split_note(study, spec), cache)


def most_powerful(rows: Sequence[RouteRow]) -> RouteRow | None:
    """The valid row with the highest power, compared as printed (4 digits: a float tie such
    as 0.9999999999999996 against 1.0 goes to the tie rule), then the smaller required n, then
    the larger threshold; None when no row is valid."""
    return max(
        (r for r in rows if r.valid),
        key=lambda r: (
            round(r.power or 0.0, 4),
            -(r.required_n if r.required_n is not None else N_MAX + 1),
            r.threshold,
        ),
        default=None,
    )


def power_curve(pp: PowerPlan, path: str | Path, *, points: int = 60) -> Path:
    """Plot power against n for every valid route (log n axis), marking the study's n and the
    target power; written with matplotlib to ``path`` (format from its suffix)."""
    spec = pp.study.power
    if spec is None:
        raise PlanError(
            where(pp.study.source, "power"), "missing: --power-curve needs a [power] table (test, effect_size, ...)"
        )
    p = Path(check_output_file("path", path))
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import LogLocator

    reqs = [r.required_n for r in pp.rows if r.valid and r.required_n is not None]
    n_lo = min_records(spec)
    n_hi = min(N_MAX, max([10 * pp.study.n, *[2 * q for q in reqs]]))
    # dense where the curves rise steeply: around every required n and the study's n
    dense = [np.geomspace(max(n_lo, q / 1.6), min(n_hi, q * 1.6), 30) for q in [*reqs, pp.study.n]]
    ns = np.unique(np.concatenate([np.geomspace(n_lo, n_hi, points), *dense]).round().astype(np.int64))
    gamma_n = _gamma_of_n(pp.study, pp.gammas)
    fig, ax = plt.subplots(figsize=(7.5, 4.8))
    valid = [r for r in pp.rows if r.valid]
    rec = pp.recommended
    # the recommended route drawn last and thickest: no other line hides it
    valid.sort(key=lambda r: rec is not None and r.name == rec.name)
    styles = ["--", "-.", ":", (0, (5, 1))]
    for i, r in enumerate(valid):
        if r.kind is RouteKind.REUSE:
            ys = [power_at(spec, gamma_n(int(n)), int(n)) for n in ns]
        elif r.kind is RouteKind.SPLIT:
            f = spec.split_fraction
            ys = [power_at(spec, r.threshold, math.floor(f * int(n))) for n in ns]
        else:
            ys = [power_at(spec, r.threshold, int(n)) for n in ns]
        best = rec is not None and r.name == rec.name
        lw, ls = (2.8, "-") if best else (1.4, styles[i % len(styles)])
        label = r.name + ("  (recommended)" if best else "")
        (line,) = ax.plot(ns, ys, lw=lw, ls=ls, label=label, zorder=3 if best else 2)
        if r.required_n is not None:
            ax.plot([r.required_n], [spec.target], "o", color=line.get_color(), ms=6, zorder=4)
            # each route's required n written beside its dot, staggered so equal ones stay legible
            ax.annotate(
                f"{r.required_n:,}",
                (r.required_n, spec.target),
                xytext=(4, -12 - 10 * i),
                textcoords="offset points",
                fontsize=7,
                color=line.get_color(),
            )
    ax.axvline(pp.study.n, color="0.4", ls=":", lw=1)
    ax.text(pp.study.n, 0.5, f" your n = {pp.study.n:,}", color="0.3", fontsize=8, rotation=90, va="center")
    ax.axhline(spec.target, color="0.4", ls="--", lw=1)
    ax.text(ns[-1], spec.target + 0.015, f"target power {spec.target:g}", color="0.3", fontsize=8, ha="right")
    ax.set_xscale("log")
    ax.xaxis.set_major_locator(LogLocator(base=10, numticks=12))
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("number of records n")
    ax.set_ylabel("power: chance the test detects the effect")
    ax.set_title(textwrap.fill(f"{pp.study.name}: {describe(spec)}, alpha = {pp.study.alpha:g}", 90), fontsize=9)
    ax.legend(fontsize=7, loc="upper left", title="dots: required n", title_fontsize=7)
    ax.grid(alpha=0.3, which="both")
    fig.tight_layout()
    save_figure(fig, "path", p)
    return p


def effect_text(v: float, digits: int = 4) -> str:
    """An effect size shown with its magnitude rounded up (a minimum detectable effect is never
    shown smaller than it is)."""
    return ("-" if v < 0 else "") + decimal_text(abs(v), "up", digits)


def format_rows(rows: Sequence[RouteRow]) -> list[str]:
    """The route table as text lines (CLI)."""
    out = []
    has_power = any(r.power is not None for r in rows)
    head = f"  {'route':52s} {'threshold':>11s} {'test n':>10s} {'valid':>6s}"
    if has_power:
        head += f" {'power':>7s} {'required n':>12s} {'MDE':>9s}"
    out.append(head)
    for r in rows:
        thr = decimal_text(r.threshold, "down", 4)  # a threshold is never shown above its value
        line = f"  {r.name[:52]:52s} {thr:>11s} {r.test_records:10d} {'yes' if r.valid else 'NO':>6s}"
        if has_power:
            pw = "-" if r.power is None else f"{r.power:.4f}"
            rq = "-" if not r.valid else ("none" if r.required_n is None else f"{r.required_n:,}")
            md = "-" if not r.valid or r.power is None else ("none" if r.mde is None else effect_text(r.mde))
            line += f" {pw:>7s} {rq:>12s} {md:>9s}"
        out.append(line)
    return out
