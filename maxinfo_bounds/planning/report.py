"""The reports of the planning wing: text and JSON views of its result objects.

One module writes every planning report, for the ``maxinfo`` command line and for Python alike
(``print(plan_text(pp))`` in a notebook shows what ``maxinfo plan`` prints): the power plan
(:class:`~maxinfo_bounds.planning.recommend.PowerPlan`), the reuse derivation
(:class:`~maxinfo_bounds.planning.routes.PlanResult`), sweeps and solves. Every certified number
is shown to 6 digits on its safe side (a threshold rounded down, a bound up); JSON keeps the
full double.

**Nearest usable parameters, one dialect.** Wherever a result is vacuous or refused, the report
carries ``"vacuous"`` (why, in words) and ``"usable_if"``: a list of single changes, the others
held fixed, each ``"name <= x"`` or ``"name >= x"``, with which the result becomes usable; an
empty list says that no single change helps. ``maxinfo bound``, ``maxinfo correct`` and
``maxinfo plan`` all write it so (:func:`usable_if_fields`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import __version__
from ..numeric import decimal_text, int_text
from ..vacuity import GAMMA_FLOOR, NO_SINGLE_FIX, gamma_problem, usable_if_fields, usable_if_text
from .explore import INT_PARAMS, SweepPoint, fixes, power_fixes
from .power import critical_value_text, describe, method_of
from .recommend import PowerPlan, _union_outputs, effect_text, format_rows, requirement_notes
from .routes import PlanResult
from .study import FinalTest, PowerSpec, Study

__all__ = [
    "NO_SINGLE_FIX",
    "usable_if_fields",
    "usable_if_text",
    "plan_text",
    "plan_json",
    "derivation_lines",
    "sweep_text",
    "sweep_json",
    "solve_fields",
    "reach_lines",
    "methods_text",
    "plan_markdown",
    "plan_html",
    "cited_keys",
    "plan_frame",
    "power_sweep_text",
    "power_sweep_json",
]


def _fixes_sentence(found: Sequence[str]) -> str:
    if not found:
        return (
            "no single change of n, of a step's number or of its times (the others fixed) "
            "gives a usable threshold: see the reason above; for approximate DP, RRST Thm "
            "3.1 needs composed eps <= 1/2 and delta well below eps/n^2 at once"
        )
    return "nearest single changes (the others fixed) with a usable threshold: " + ", ".join(found)


def known_test(study: Study) -> bool:
    """Whether the study names its final test (a ``[power]`` table), whose critical value at any
    positive level can be computed: the one vacuity rule (:func:`~maxinfo_bounds.vacuity.
    gamma_problem`) then calls no positive threshold vacuous."""
    return study.power is not None


def _problem(study: Study, gamma: float) -> str | None:
    return gamma_problem(gamma, critical_value_known=known_test(study))


def _reuse_needs_fixes(pp: PowerPlan) -> bool:
    """The reuse route is refused, or its threshold unusable, or nothing is recommended."""
    return (
        pp.reuse is None
        or _problem(pp.study, pp.reuse.gamma) is not None
        or pp.recommended is None
        or _problem(pp.study, pp.recommended.threshold) is not None
    )


def derivation_lines(r: PlanResult, *, critical_value_known: bool = False) -> list[str]:
    """The reuse derivation: γ, (k, β), route, each step with its theorems, the routes tried
    (``critical_value_known``: the study names its test; see :func:`known_test`)."""
    out = [f"gamma      {decimal_text(r.gamma, 'down')}   (corrected threshold, rounded down)"]
    if (why := gamma_problem(r.gamma, critical_value_known=critical_value_known)) is not None:
        out.append(f"vacuous    {why}")
    if r.k is not None and r.beta is not None:
        out.append(f"k          {decimal_text(r.k, 'up')} bits (rounded up)")
        out.append(f"beta       {decimal_text(r.beta, 'up')}")
    out += [f"route      {r.route}", "", "derivation:"]
    for i, c in enumerate(r.chain, 1):
        cond = f"  [{'; '.join(c.conditions)}]" if c.conditions else ""
        out.append(f"  {i:2d}. {c.what}: {', '.join(c.theorems)}: {c.inputs} -> {c.output}{cond}")
    out += ["", "routes tried:"]
    for cand in r.candidates:
        if cand.gamma is None:
            out.append(f"  {cand.route}: unavailable ({cand.note})")
        else:
            bad = gamma_problem(cand.gamma, critical_value_known=critical_value_known)
            out.append(
                f"  {cand.route}: gamma = {decimal_text(cand.gamma, 'down')}"
                + (f" (vacuous: {bad.split(': ', 1)[1]})" if bad else "")
            )
    return out


def plan_text(pp: PowerPlan, usable_if: Sequence[str] | None = None) -> str:
    """The plan as ``maxinfo plan`` prints it. ``usable_if``: the nearest usable changes, when
    already found (:func:`~maxinfo_bounds.planning.explore.fixes`, the nearest single changes with
    which adaptive reuse gets a usable threshold); searched here when the report needs them."""
    st, rec = pp.study, pp.recommended
    found: list[list[str]] = [] if usable_if is None else [list(usable_if)]

    def fixes_text() -> str:  # a search of a few seconds: at most once per report
        if not found:
            found.append(fixes(st))
        return _fixes_sentence(found[0])

    out = [
        f"study      {st.name}",
        f"data       n = {st.n} records ({'i.i.d.' if st.iid else 'not assumed i.i.d.'})",
        f"alpha      {st.alpha!r}",
    ]
    if st.power is not None:
        out += [f"power      {describe(st.power)}", f"           ({method_of(st.power)})"]
        if independence_assumed(st):
            out.append(f"           (warning: {INDEPENDENCE_WARNING})")
    if rec is None:
        out += [
            "",
            "no valid analysis: no route gives a valid test for this study",
            f"  {pp.no_valid_route}",
            f"  {fixes_text()}",
        ]
    elif pp.meets_target is False:
        assert st.power is not None
        t = st.power.target
        out += [
            "",
            f"NO VALID ROUTE REACHES POWER {t:g} at n = {st.n} records (effect {describe_effect(st.power)}).",
            f"most powerful valid route (below the target): {rec.name}",
            f"  test at p <= {decimal_text(rec.threshold, 'down')} on {rec.test_records} records; "
            f"power {rec.power:.4f}",
            f"  {rec.note}",
            *_critical_note(st, rec),
            "",
            f"what reaches power {t:g}, one change at a time:",
            *[f"  {line}" for line in reach_lines(pp)],
        ]
    else:
        out += ["", f"recommended: {rec.name}"]
        line = f"  test at p <= {decimal_text(rec.threshold, 'down')} on {rec.test_records} records"
        if rec.power is not None:
            line += f"; power {rec.power:.4f}"
            line += f"; required n = {rec.required_n}" if rec.required_n is not None else "; no n reaches the target"
        out += [line, f"  {rec.note}"]
        if _problem(st, rec.threshold) is not None:
            out.append(f"  no usable analysis as planned: {fixes_text()}")
        out += _critical_note(st, rec)
        if st.power is None:
            out.append("  (largest valid threshold on all records; add a [power] table to compare by power)")
    out += ["", "routes:", *format_rows(pp.rows), "", "notes:"]
    out += [f"  {r.name}: {r.note}" for r in pp.rows]
    out += [f"  {r.name}: required n: {r.required_n_note}" for r in pp.rows if r.required_n_note]
    out += [f"  {line}" for line in requirement_notes(pp)]
    if pp.split_note:
        out.append(f"  sample splitting: {pp.split_note}")
    if pp.reuse is not None:
        out += [
            "",
            f"certified adaptive reuse (all {st.n} records):",
            *derivation_lines(pp.reuse, critical_value_known=known_test(st)),
        ]
        if st.power is not None:
            out += ["", "power of each reuse route at n:"]
            out += [
                f"  {r.route}: gamma = {decimal_text(r.gamma, 'down', 4)}, power {r.power:.4f}"
                for r in pp.reuse_routes()
                if r.gamma is not None and r.power is not None
            ]
    else:
        out += ["", f"adaptive reuse: no valid route: {pp.reuse_refusal}"]
        if rec is not None:
            out.append(f"  {fixes_text()}")
    return "\n".join(out)


INDEPENDENCE_WARNING = (
    "the records are not assumed i.i.d. and [data] gives no cluster_size and icc: the power is "
    "computed as if the n records were independent; clustered records are worth fewer (a design "
    "effect 1 + (m - 1) ICC divides n)"
)


def independence_assumed(st: Study) -> bool:
    """A power plan on records not declared i.i.d. with no design effect: its power assumes
    independent records (issue 43: say so)."""
    return st.power is not None and not st.iid and st.power.design_effect == 1


def _critical_note(st: Study, rec: Any) -> list[str]:
    """For a named test at a threshold below 2.2e-16: how to run it (the statistic against its
    critical value; no printed p-value reaches the threshold)."""
    if st.power is None or not 0 < rec.threshold < GAMMA_FLOOR:
        return []
    return [
        "  the threshold is below 2.2e-16, where no printed p-value reaches: "
        + critical_value_text(st.power, rec.threshold, rec.test_records)
    ]


def describe_effect(spec: PowerSpec) -> str:
    """The effect to detect, in the study's terms: ``d = 0.1`` or ``p1 - p0 = 0.05``."""
    return f"{'p1 - p0' if spec.test is FinalTest.PROPORTION else 'd'} = {spec.effect_size:g}"


def reach_lines(pp: PowerPlan) -> list[str]:
    """What would reach the target power, one change at a time: each valid route's required n
    and minimum detectable effect at the study's n, and the nearest single changes with which
    adaptive reuse does (:func:`~maxinfo_bounds.planning.explore.power_fixes`)."""
    spec = pp.study.power
    assert spec is not None
    what = "p1 - p0" if spec.test is FinalTest.PROPORTION else "d"
    rel = ">=" if spec.effect_size > 0 else "<="
    out = []
    for r in pp.rows:
        if not r.valid or r.power is None:
            continue
        n_txt = "no n up to 10^12" if r.required_n is None else f"n = {r.required_n:,} records"
        e_txt = f"no {what} in range" if r.mde is None else f"{what} {rel} {effect_text(r.mde)}"
        out.append(f"{r.name}: {n_txt}; or, at n = {pp.study.n}, an effect {e_txt}")
    if pp.reuse is not None:
        ch = reuse_power_changes(pp)
        out.append(
            "adaptive reuse with other steps: "
            + (", ".join(ch) if ch else "no single change of a step's numbers or times (the others fixed) reaches it")
        )
    return out


def reuse_power_changes(pp: PowerPlan) -> list[str]:
    """The nearest single changes of the study with which adaptive reuse reaches the target
    power (searched once per plan: a few seconds at most)."""
    if pp.reuse is None or pp.study.power is None:
        return []
    if "power_fixes" not in pp.searches:
        pp.searches["power_fixes"] = power_fixes(pp.study)
    return list(pp.searches["power_fixes"])


def plan_json(pp: PowerPlan, usable_if: Sequence[str] | None = None) -> dict[str, Any]:
    """The plan as ``maxinfo plan --json`` writes it (:meth:`PowerPlan.as_dict`, the study's
    source and the package version; ``vacuous`` and ``usable_if`` when the reuse route is
    refused or unusable, or nothing is recommended)."""
    d: dict[str, Any] = pp.as_dict()
    d["source"] = pp.study.source
    d["maxinfo_bounds_version"] = __version__
    if _reuse_needs_fixes(pp):
        why = (
            pp.no_valid_route
            if pp.recommended is None
            else _problem(pp.study, pp.recommended.threshold)
            or (f"adaptive reuse: {pp.reuse_refusal}" if pp.reuse is None else _problem(pp.study, pp.reuse.gamma))
            or ""
        )
        d.update(usable_if_fields(why, fixes(pp.study) if usable_if is None else usable_if))
    else:
        d.update({"vacuous": None, "usable_if": None})
    d["power_assumes_independent_records"] = independence_assumed(pp.study) if pp.study.power else None
    if pp.meets_target is False:
        d["to_reach_target_power"] = {
            "target_power": pp.target_power,
            "routes": [
                {"route": r.name, "required_n_records": r.required_n, "minimum_detectable_effect": r.mde}
                for r in pp.rows
                if r.valid and r.power is not None
            ],
            "reuse_single_changes": reuse_power_changes(pp) if pp.reuse is not None else None,
        }
    return d


def _sweep_rows(
    param: str, points: Sequence[SweepPoint], known: bool = False
) -> list[tuple[float | int, float | None, str]]:
    integer = param.split(".")[-1] in INT_PARAMS
    out = []
    for p in points:
        why = None if p.gamma is None else gamma_problem(p.gamma, critical_value_known=known)
        out.append((int(p.value) if integer else p.value, p.gamma, f"vacuous ({why}); {p.route}" if why else p.route))
    return out


def _sweep_head(study: Study, param: str, plot: str) -> dict[str, Any]:
    """The fields every sweep's JSON starts with."""
    return {"study": study.name, "param": param, "plot": plot, "maxinfo_bounds_version": __version__}


def sweep_json(study: Study, param: str, points: Sequence[SweepPoint], plot: str) -> dict[str, Any]:
    """A sweep as ``maxinfo plan --sweep --json`` writes it."""
    return {
        **_sweep_head(study, param, plot),
        "points": [
            {"value": v, "gamma": g, "route": why} for v, g, why in _sweep_rows(param, points, known_test(study))
        ],
    }


def sweep_text(param: str, points: Sequence[SweepPoint], plot: str, *, critical_value_known: bool = False) -> str:
    """A sweep as ``maxinfo plan --sweep`` prints it (``critical_value_known``: the study names
    its test, :func:`known_test`)."""
    integer = param.split(".")[-1] in INT_PARAMS
    out = [f"{param:>14}  gamma (rounded down)       route"]
    for v, g, why in _sweep_rows(param, points, critical_value_known):
        x = f"{int(v):>14d}" if integer else f"{v:>14.6g}"
        out.append(
            f"{x}  {decimal_text(g, 'down'):<24}  {why}" if g is not None else f"{x}  {'no valid route':<24}  {why}"
        )
    out.append(f"wrote {plot}")
    return "\n".join(out)


def solve_fields(
    study: Study, param: str, target_gamma: float, value: float, result: PlanResult, direction: str
) -> dict[str, Any]:
    """A solve as ``maxinfo plan --solve`` reports it; with a ``[power]`` table, also the power
    of the test at the threshold reached (on the study's n, or on the solved n)."""
    out: dict[str, Any] = {
        "study": study.name,
        "solve": param,
        "target_gamma": target_gamma,
        "value": value,
        "direction": direction,
        "gamma_at_value": result.gamma,
        "route": result.route,
    }
    if study.power is not None:
        from .power import power_at

        n = int(value) if param == "n" else study.n
        out["power_at_value"] = power_at(study.power, result.gamma, n)
        out["power_note"] = f"power of the {describe(study.power)} at gamma_at_value on {n} records"
    out["maxinfo_bounds_version"] = __version__
    return out


# ----------------------------------------------------------------------------------------------
# notebook and preregistration views (issue 43): markdown, HTML, a pandas table, the methods
# paragraph and the BibTeX of every source it cites


def cited_keys(pp: PowerPlan) -> list[str]:
    """The BibTeX keys (:mod:`maxinfo_bounds.bibliography`) of every result the plan's
    derivation uses, of the power analysis' conventions, and of this software."""
    from ..bibliography import POWER_KEYS, keys_for

    ids = [t for c in pp.reuse.chain for t in c.theorems] if pp.reuse is not None else []
    keys = keys_for(ids)
    if pp.study.power is not None:
        keys += [k for k in POWER_KEYS if k not in keys]
        if pp.study.power.design_effect != 1:
            keys.append("Kish1965")
    return [*keys, "maxinfo_bounds"]


def _cite(theorem_ids: Sequence[str]) -> str:
    from ..bibliography import keys_for
    from ..catalog import get

    names = ", ".join(f"{get(t).paper} {get(t).number}" for t in theorem_ids)
    keys = "; ".join(f"@{k}" for k in keys_for(theorem_ids))
    return f"{names} [{keys}]" if keys else names


def _route_sentence(pp: PowerPlan, rec: Any) -> str:
    st = pp.study
    thr = decimal_text(rec.threshold, "down")
    if rec.kind.value == "reuse":
        assert pp.reuse is not None
        k = decimal_text(pp.reuse.k, "up") if pp.reuse.k is not None else "inf"
        b = decimal_text(pp.reuse.beta, "up") if pp.reuse.beta is not None else "0"
        return (
            f"we reuse all {st.n} records and test at the corrected threshold p <= {thr}: the analysis "
            f"has max-information at most k = {k} bits with beta = {b}, so a test at "
            f"(alpha - beta)/2^k keeps its level below alpha = {st.alpha!r} ({_cite(['RRST-1.3'])})"
        )
    if rec.kind.value == "bonferroni":
        return (
            f"the final hypothesis is one of a family of {st.family_size} declared before the data were seen, "
            f"so we test at the Bonferroni threshold alpha/{st.family_size} = {thr} on all {st.n} records"
        )
    if rec.kind.value == "union":
        return (
            f"every step only selects among finitely many outcomes, so the test is one of at most "
            f"{int_text(_union_outputs(st) or 0)} fixed tests and we test at "
            f"p <= {thr} (a union bound) on all {st.n} records"
        )
    if rec.kind.value == "split":
        return (
            f"we split the i.i.d. records at random: the analysis uses {st.n - rec.test_records} of them and "
            f"the test the other {rec.test_records}, at alpha = {st.alpha!r} (sample splitting)"
        )
    return f"we take the decision by the estimation route: {rec.note}"


def methods_text(pp: PowerPlan) -> str:
    """A preregistration-ready methods paragraph (markdown, pandoc citations ``[@key]`` into
    :func:`~maxinfo_bounds.bibliography.bibtex` of :func:`cited_keys`): the analysis, the
    route, the threshold, the power and required n, each result cited by paper and number."""
    st, rec, sp = pp.study, pp.recommended, pp.study.power
    steps = "; ".join(s.label or s.type_name for s in st.steps)
    out = [
        f"**Adaptive analysis and final test.** The exploratory analysis ({len(st.steps)} step"
        f"{'s' if len(st.steps) != 1 else ''}: {steps}) runs on n = {st.n} records "
        f"({'independent and identically distributed' if st.iid else 'not assumed i.i.d.'}) and chooses the "
        f"hypothesis of the final test, at significance alpha = {st.alpha!r}."
    ]
    if rec is None:
        out.append(f"No valid analysis exists as planned: {pp.no_valid_route}.")
        return "\n\n".join(out) + "\n"
    route = _route_sentence(pp, rec)
    out[0] += f" Because the test is chosen after the analysis has seen the data, {route}."
    if pp.reuse is not None and rec.kind.value == "reuse":
        parts = [f"{c.what}: {_cite(c.theorems)}" for c in pp.reuse.chain]
        out.append(
            "**Derivation of the threshold.** "
            + "; ".join(parts)
            + ". Every bound is evaluated in interval arithmetic and rounded to its safe side (the "
            "threshold down) [@maxinfo_bounds]."
        )
    if sp is not None and rec.power is not None:
        eff = describe_effect(sp)
        line = (
            f"**Power.** The final test is the {describe(sp)}; computed exactly ({method_of(sp)}), "
            f"it has power {rec.power:.4f} at the planned n to detect an effect {eff}"
        )
        if rec.required_n is not None:
            line += f"; the smallest n reaching power {sp.target:g} is {rec.required_n:,} records"
        if rec.mde is not None:
            line += f", and at the planned n the smallest detectable effect is {effect_text(rec.mde)}"
        line += (
            " (effect sizes as in Cohen [@Cohen1988]; a priori, post hoc and sensitivity analyses as "
            "in G*Power [@Faul2007])."
        )
        if sp.design_effect != 1:
            line += (
                f" Records are clustered: power is computed with the design effect {sp.design_effect:g} [@Kish1965]."
            )
        if pp.meets_target is False:
            line += f" No valid route reaches the target power {sp.target:g} at this n."
        out.append(line)
        others = [
            f"{r.name} (power {r.power:.4f})" for r in pp.rows if r.valid and r.power is not None and r is not rec
        ]
        if others:
            out.append("**Alternatives considered.** " + "; ".join(others) + ".")
    out.append(f"Computed with maxinfo_bounds {__version__} [@maxinfo_bounds] from the study file `{st.source}`.")
    return "\n\n".join(out) + "\n"


def _table_md(pp: PowerPlan) -> list[str]:
    head = "| route | threshold | test records | valid | power | required n | MDE |"
    rows = [head, "| --- | ---: | ---: | --- | ---: | ---: | ---: |"]
    for r in pp.rows:
        pw = "-" if r.power is None else f"{r.power:.4f}"
        rq = "-" if not r.valid or r.power is None else ("none" if r.required_n is None else f"{r.required_n:,}")
        md = "-" if not r.valid or r.power is None else ("none" if r.mde is None else effect_text(r.mde))
        rows.append(
            f"| {r.name} | {decimal_text(r.threshold, 'down', 4)} | {r.test_records} | "
            f"{'yes' if r.valid else 'no'} | {pw} | {rq} | {md} |"
        )
    return rows


def _headline(pp: PowerPlan) -> str:
    rec, sp = pp.recommended, pp.study.power
    if rec is None:
        return "No valid analysis: " + pp.no_valid_route
    if pp.meets_target is False and sp is not None:
        return f"No valid route reaches power {sp.target:g}; most powerful: {rec.name} (power {rec.power:.4f})"
    tail = f", power {rec.power:.4f}" if rec.power is not None else ""
    thr = decimal_text(rec.threshold, "down")
    return f"Recommended: {rec.name}: test at p <= {thr} on {rec.test_records} records{tail}"


def plan_markdown(pp: PowerPlan) -> str:
    """The plan for a notebook or a report: headline, the route table, the methods paragraph."""
    return "\n".join([f"### {pp.study.name}", "", f"**{_headline(pp)}**", "", *_table_md(pp), "", methods_text(pp)])


def plan_html(pp: PowerPlan) -> str:
    """The plan as HTML (a notebook's rich display): headline, route table, methods."""
    from html import escape

    cells = [line.strip("|").split(" | ") for line in _table_md(pp)]
    head = "".join(f"<th>{escape(c.strip())}</th>" for c in cells[0])
    body = "".join("<tr>" + "".join(f"<td>{escape(c.strip())}</td>" for c in row) + "</tr>" for row in cells[2:])
    paras = "".join(f"<p>{escape(p)}</p>" for p in methods_text(pp).strip().split("\n\n"))
    return (
        f"<div><h4>{escape(pp.study.name)}</h4><p><b>{escape(_headline(pp))}</b></p>"
        f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{paras}</div>"
    )


def plan_frame(pp: PowerPlan) -> object:
    """The route table as a pandas DataFrame (one row per route, the JSON fields as columns;
    pandas is imported here, not a dependency of the calculator)."""
    import importlib

    try:
        pd = importlib.import_module("pandas")
    except ImportError as exc:  # pragma: no cover - pandas ships with the test extra
        raise ImportError("PowerPlan.to_frame() needs pandas: pip install pandas") from exc
    frame: object = pd.DataFrame([r.as_dict() for r in pp.rows])
    return frame


def power_sweep_text(param: str, points: Sequence[Any], plot: str) -> str:
    """A power sweep as ``maxinfo plan --sweep`` prints it for a study with a ``[power]`` table:
    at each value, every valid route's threshold, power and required n (``*`` the recommended;
    ``below target`` where even it misses the target power)."""
    out = [f"{param:>14}  {'route':52s} {'threshold':>11s} {'power':>7s} {'required n':>12s}"]
    for p in points:
        v = f"{p.value:>14.6g}"
        if p.plan is None:
            out.append(f"{v}  no valid analysis: {p.reason}")
            continue
        rec = p.plan.recommended
        rows = [r for r in p.plan.rows if r.valid and r.power is not None]
        if not rows:
            out.append(f"{v}  no valid analysis: {p.plan.no_valid_route}")
        for i, r in enumerate(rows):
            mark = "*" if rec is not None and r.name == rec.name else " "
            rq = "none" if r.required_n is None else f"{r.required_n:,}"
            line = (
                f"{v if i == 0 else ' ' * 14} {mark}{r.name[:52]:52s} {decimal_text(r.threshold, 'down', 4):>11s} "
                f"{r.power:7.4f} {rq:>12s}"
            )
            if mark == "*" and p.plan.meets_target is False:
                line += "  (below target)"
            out.append(line)
    out.append("* the recommended route at that value")
    out.append(f"wrote {plot}")
    return "\n".join(out)


def power_sweep_json(study: Study, param: str, points: Sequence[Any], plot: str) -> dict[str, Any]:
    """A power sweep as ``maxinfo plan --sweep --json`` writes it."""
    return {
        **_sweep_head(study, param, plot),
        "points": [
            {
                "value": p.value,
                "refused": p.reason or None,
                "recommended": None if p.plan is None or p.plan.recommended is None else p.plan.recommended.name,
                "meets_target_power": None if p.plan is None else p.plan.meets_target,
                "routes": [] if p.plan is None else [r.as_dict() for r in p.plan.rows],
            }
            for p in points
        ],
    }
