"""G*Power's five questions, route by route: solve for any one of n, effect, power and alpha.

A power analysis fixes all but one of the sample size, the effect size, the power and the
significance level, and solves for the one left (Faul, Erdfelder, Lang & Buchner, *Behavior
Research Methods* 39, 2007, the G*Power 3 paper, section "Types of power analysis"):

============== ================= ===================================================================
G*Power        ``solve_for``      each valid route's answer
============== ================= ===================================================================
a priori       ``"n"``           the smallest n reaching the target power (proven; see
                                 :mod:`~maxinfo_bounds.planning.recommend`)
post hoc       ``"power"``       the power at the study's n
sensitivity    ``"effect"``      the smallest effect detected with the target power at the study's
                                 n (:func:`~maxinfo_bounds.planning.power.minimum_effect`)
criterion      ``"alpha"``       the smallest study alpha (below the target power) with which the
                                 route reaches the target power at the study's n and effect
compromise     ``"compromise"``  the smallest alpha with beta/alpha <= ``ratio`` (beta = 1 - power:
                                 both error rates weighed, at the study's n and effect; equality
                                 for the z- and t-tests, whose power is continuous in the level)
============== ================= ===================================================================

For the criterion and compromise analyses the route's threshold moves with alpha as the route
says: adaptive reuse re-plans its certified γ(α) (RRST Thm 1.3: (α − β)/2^k with the β split
re-optimised), Bonferroni and the union bound divide α, sample splitting tests at α. Each is
monotone in α (a larger α never lowers a threshold), and the power grows with the threshold, so
both are found by bisection on log α to 1e-9 relative: the criterion's α is the upper end (the
power there reaches the target); the compromise's is where (1 − power)/α crosses the ratio.
The estimation route (a decision at coverage 1 − α) is answered for n, power and effect only.

>>> from maxinfo_bounds.planning import load_study
>>> a = solve_power(load_study("examples/power_bonferroni_wins.toml"), "effect")
>>> [r.route for r in a.answers][:2]
['adaptive reuse (max-information composition)', 'Bonferroni over the declared family of 1000']
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from enum import StrEnum

from .. import __version__
from ..domain import Real
from ..numeric import decimal_text
from .errors import PlanError
from .power import power_at
from .recommend import PowerPlan, RouteKind, RouteRow, _rows, effect_text, plan_power
from .routes import plan
from .steps import check_real
from .study import MIN_ALPHA, Study, where

__all__ = ["Analysis", "RouteAnswer", "PowerAnswer", "solve_power", "SOLVE_FOR"]


class Analysis(StrEnum):
    """What is solved for, by its ``solve_for`` name (G*Power's analysis type in the doc)."""

    N = "n"
    POWER = "power"
    EFFECT = "effect"
    ALPHA = "alpha"
    COMPROMISE = "compromise"


#: G*Power's name of each analysis
GPOWER = {
    Analysis.N: "a priori (required n)",
    Analysis.POWER: "post hoc (power at n)",
    Analysis.EFFECT: "sensitivity (minimum detectable effect)",
    Analysis.ALPHA: "criterion (alpha for the target power)",
    Analysis.COMPROMISE: "compromise (alpha with beta/alpha = q)",
}
SOLVE_FOR = tuple(a.value for a in Analysis)
_RATIO = Real(0, 1e12, lo_open=True)


@dataclass(frozen=True)
class RouteAnswer:
    """One route's answer: ``value`` (an int n, a power, an effect or an alpha; None where none
    exists in range, with ``note`` saying why), the route's threshold and power at it."""

    route: str
    kind: RouteKind
    value: float | int | None
    threshold: float | None
    power: float | None
    note: str

    def as_dict(self) -> dict[str, object]:
        return {
            "route": self.route,
            "kind": self.kind.value,
            "value": self.value,
            "threshold_p_value": self.threshold,
            "power": self.power,
            "note": self.note,
        }


@dataclass(frozen=True)
class PowerAnswer:
    """Every valid route's answer to one question about a study."""

    study: Study
    analysis: Analysis
    ratio: float | None
    answers: tuple[RouteAnswer, ...]

    def text(self) -> str:
        """The answer as ``maxinfo plan STUDY --solve-for ...`` prints it."""
        sp = self.study.power
        assert sp is not None
        head = [
            f"study      {self.study.name}",
            f"question   {GPOWER[self.analysis]}"
            + (f", q = beta/alpha = {self.ratio:g}" if self.ratio is not None else ""),
            f"given      n = {self.study.n} records, alpha = {self.study.alpha!r}, "
            f"effect {sp.effect_size:g}, target power {sp.target:g}",
            "",
        ]
        rows = [f"  {'route':52s} {self._label():>14s} {'threshold':>11s} {'power':>7s}"]
        for a in self.answers:
            thr = "-" if a.threshold is None else decimal_text(a.threshold, "down", 4)
            pw = "-" if a.power is None else f"{a.power:.4f}"
            rows.append(f"  {a.route[:52]:52s} {self._value_text(a.value):>14s} {thr:>11s} {pw:>7s}")
        noted = [f"  {a.route}: {a.note}" for a in self.answers if a.note]
        notes = ["", "notes:", *noted] if noted else []
        return "\n".join(head + rows + notes)

    def _label(self) -> str:
        return {"n": "required n", "power": "power", "effect": "MDE"}.get(self.analysis.value, "alpha")

    def _value_text(self, v: float | int | None) -> str:
        if v is None:
            return "none"
        if self.analysis is Analysis.N:
            return f"{int(v):,}"
        if self.analysis is Analysis.POWER:
            return f"{v:.4f}"
        if self.analysis is Analysis.EFFECT:
            return effect_text(float(v))
        # the criterion's alpha is the upper end of its bisection (the power there reaches the
        # target): shown up; the compromise's is a crossing, shown up too (4 digits)
        return decimal_text(float(v), "up", 4)

    def as_dict(self) -> dict[str, object]:
        sp = self.study.power
        assert sp is not None
        return {
            "study": self.study.name,
            "source": self.study.source,
            "solve_for": self.analysis.value,
            "gpower_analysis": GPOWER[self.analysis],
            "ratio_beta_over_alpha": self.ratio,
            "n_records": self.study.n,
            "alpha": self.study.alpha,
            "effect_size": sp.effect_size,
            "target_power": sp.target,
            "answers": [a.as_dict() for a in self.answers],
            "maxinfo_bounds_version": __version__,
        }


def solve_power(study: Study, solve_for: str, *, ratio: float | None = None) -> PowerAnswer:
    """Every valid route's answer to one of G*Power's questions (module doc): ``solve_for`` in
    ``"n"``, ``"power"``, ``"effect"``, ``"alpha"``, ``"compromise"`` (with ``ratio`` = beta/alpha,
    G*Power's q). Needs the study's ``[power]`` table."""
    if not isinstance(study, Study):
        raise PlanError("study", f"must be a Study, got {type(study).__name__}")
    if solve_for not in SOLVE_FOR:
        raise PlanError("solve_for", f"{solve_for!r} is invalid: one of {', '.join(SOLVE_FOR)}")
    what = Analysis(solve_for)
    if study.power is None:
        raise PlanError(where(study.source, "power"), "missing: a power question needs the [power] table")
    if what is Analysis.COMPROMISE:
        if ratio is None:
            raise PlanError("ratio", "missing: the compromise analysis needs q = beta/alpha (e.g. 4)")
        ratio = check_real("ratio", ratio, _RATIO)
    elif ratio is not None:
        raise PlanError("ratio", f"{ratio!r} is given only with solve_for = 'compromise'")
    pp = plan_power(study)
    out = []
    for r in pp.rows:
        if not r.valid or r.power is None:
            continue
        out.append(_answer(pp, r, what, ratio))
    return PowerAnswer(study, what, ratio, tuple(out))


def _answer(pp: PowerPlan, r: RouteRow, what: Analysis, ratio: float | None) -> RouteAnswer:
    if what is Analysis.N:
        note = r.required_n_note
        if r.stays_from is not None and r.stays_from != r.required_n:
            note += f"; the power stays at or above the target from n = {r.stays_from:,} on"
        return RouteAnswer(r.name, r.kind, r.required_n, r.threshold, r.power, note)
    if what is Analysis.POWER:
        return RouteAnswer(r.name, r.kind, r.power, r.threshold, r.power, f"on {r.test_records} test records")
    if what is Analysis.EFFECT:
        note = "" if r.mde is not None else "no effect in range reaches the target power"
        return RouteAnswer(r.name, r.kind, r.mde, r.threshold, r.power, note)
    if r.kind is RouteKind.ESTIMATE:
        return RouteAnswer(r.name, r.kind, None, None, None, "not solved: the estimation route's level is its coverage")
    return _alpha_answer(pp, r, what, ratio)


def _threshold_at(study: Study, kind: RouteKind, alpha: float) -> float:
    """The route's threshold for the study at significance ``alpha`` (0 where reuse has no
    valid route there), as :func:`~maxinfo_bounds.planning.recommend.plan_power` builds it."""
    s = replace(study, alpha=alpha)
    reuse = None
    if kind is RouteKind.REUSE:
        try:
            reuse = plan(s)
        except PlanError:
            return 0.0
    # the route's own row only: the estimation route (a whole estimation plan) is not asked
    row = next((x for x in _rows(s, reuse, estimate=False) if x.kind is kind), None)
    return 0.0 if row is None else row.threshold


def _alpha_answer(pp: PowerPlan, r: RouteRow, what: Analysis, ratio: float | None) -> RouteAnswer:
    """Criterion or compromise: bisection on log alpha over [MIN_ALPHA, 1 - 2^-40]."""
    spec = pp.study.power
    assert spec is not None
    m = r.test_records

    def pw(a: float) -> tuple[float, float]:
        g = _threshold_at(pp.study, r.kind, a)
        return g, power_at(spec, min(g, 1.0), m)

    # alpha below the target power (a study with alpha >= target is refused: a test ignoring
    # the data already rejects with probability alpha)
    lo, hi = math.log(MIN_ALPHA), math.log(spec.target) - 1e-9
    if what is Analysis.ALPHA:

        def good(a: float) -> bool:
            return pw(a)[1] >= spec.target

        if not good(math.exp(hi)):
            g, p = pw(math.exp(hi))
            return RouteAnswer(r.name, r.kind, None, g, p, "no alpha below the target power reaches it at this n")
        note = "the smallest alpha (1e-9 relative, rounded up) with which the route reaches the target power"
    else:
        assert ratio is not None

        def good(a: float) -> bool:  # (1 - power)/alpha falls as alpha grows
            return (1 - pw(a)[1]) / a <= ratio

        if good(math.exp(lo)):
            g, p = pw(math.exp(lo))
            return RouteAnswer(r.name, r.kind, None, g, p, "beta/alpha is below q at every alpha >= 1e-300")
        if not good(math.exp(hi)):
            g, p = pw(math.exp(hi))
            return RouteAnswer(
                r.name, r.kind, None, g, p, "beta/alpha is above q at every alpha below the target power"
            )
        note = (
            f"the smallest alpha with beta/alpha <= {ratio:g} (1e-9 relative; beta = 1 - power; where the "
            "power moves continuously, as for z and t, beta/alpha equals q there)"
        )
    while hi - lo > 1e-9:
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if good(math.exp(mid)) else (mid, hi)
    a = math.exp(hi)
    g, p = pw(a)
    return RouteAnswer(r.name, r.kind, a, g, p, note)
