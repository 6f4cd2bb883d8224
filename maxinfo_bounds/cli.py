"""The ``maxinfo`` command line: a thin argparse layer over the calculator.

Every command prints a readable table by default and JSON with ``--json``. Bad input prints one
line (``maxinfo: error: ...``) to standard error and exits with status 2, without a traceback.

Commands::

    maxinfo example                         the built-in worked example (a p-value correction)
    maxinfo pvalue --alpha A --k K --beta B RRST Thm 1.3: gamma = max((alpha - beta)/2^k, 0)
    maxinfo description --range-size M --beta B
                                            DFHPRR Thm 6: k = log2(M / beta) bits
    maxinfo catalog [--markdown]            the encoded results, one line each (or the docs page)
    maxinfo explain ID                      statement, conditions, parameters of one result
    maxinfo bound ID --PARAM VALUE ...      evaluate one result of the catalog
    maxinfo solve {eps,k,n} ...             the largest eps / k / n meeting a target (certified)
    maxinfo correct --alpha A [--eps E [--delta D] --n N [--iid]] [--mi-bits M] [--range-size R]
                                            the best certified gamma for one selection step
    maxinfo plot ID --vary P --range LO:HI [--log-x] [--out F.png|F.svg] --PARAM VALUE ...
                                            a result against one parameter (matplotlib)
    maxinfo plan STUDY.toml [--sweep P=LO:HI[:NUM] [--plot F.png] [--workers W]] [--solve P --target-gamma G]
                                            the study planner: the threshold for a planned study

Why one module over 400 lines: it is only argparse wiring; each subcommand is a few lines
that read the catalog, the planner or the corrections module and print through one emitter, and
keeping the parser and its handlers together keeps ``maxinfo --help`` and the code in step.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal, NoReturn

from . import __version__
from .numeric import InvalidParameter, MaxinfoError, decimal_text

Side = Literal["up", "down"]

__all__ = ["main"]


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error in one line and exits 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


#: what a vacuous result says when no single parameter change makes it usable
NO_SINGLE_FIX = "no single parameter change (the others fixed) helps"

#: the plot formats matplotlib's Agg backend writes (checked before any work is done)
PLOT_SUFFIXES = (".png", ".svg", ".pdf")


def check_out_file(name: str, path: str) -> str:
    """Refuse an output file that cannot be written, before any work (nothing written on refusal).

    The suffix must be a plot format and the directory must exist."""
    from pathlib import Path

    p = Path(path)
    if p.suffix.lower() not in PLOT_SUFFIXES:
        raise InvalidParameter(name, path, "a file name ending in " + ", ".join(PLOT_SUFFIXES))
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise InvalidParameter(name, path, f"a file in an existing directory ({parent} is not one)")
    if p.is_dir():
        raise InvalidParameter(name, path, "a file name, not a directory")
    return path


def _save(fig: Any, name: str, path: str) -> None:
    try:
        fig.savefig(path)
    except OSError as exc:
        raise InvalidParameter(name, path, f"a writable file ({exc.strerror or exc})") from None


#: the fixed meaning of these result names across the project: k is an upper bound, beta a
#: failure probability (upper), gamma a corrected threshold (lower)
_SIDE_OF_NAME = {"k_bits": "up", "beta": "up", "gamma": "down"}


def result_sides(res: dict[str, Any], inputs: Iterable[str] = ()) -> dict[str, Side]:
    """For each computed float of a result, the side it may be rounded to for display: its own
    ``<name>_rounding`` (``k_bits`` -> ``k_rounding``), else the result's ``rounding``, else
    the name's fixed meaning. Inputs (echoed as given) and values with no side are left out."""
    sides: dict[str, Side] = {}
    for key, val in res.items():
        if not isinstance(val, float) or key in inputs:
            continue
        stem = key.removesuffix("_bits").removesuffix("_nats")
        side = res.get(f"{stem}_rounding", res.get("rounding", _SIDE_OF_NAME.get(key)))
        if isinstance(side, str) and side.split()[0] in ("up", "down"):
            sides[key] = "up" if side.startswith("up") else "down"
    return sides


def _print_table(rows: Sequence[tuple[str, Any]], sides: Mapping[str, Side] | None = None) -> None:
    """Two columns; a float with a side in ``sides`` is shown to 6 digits rounded that way
    (:func:`~maxinfo_bounds.numeric.decimal_text`), any other float as Python prints it."""
    sides = sides or {}
    width = max(len(k) for k, _ in rows)
    for key, val in rows:
        text = (decimal_text(val, sides[key]) if isinstance(val, float) and key in sides
                else repr(val) if isinstance(val, float) else
                ", ".join(map(str, val)) if isinstance(val, list) else str(val))
        print(f"{key.ljust(width)}  {text}")


def _cmd_example(ns: argparse.Namespace) -> int:
    from .corrections import worked_example as example

    res = example(ns.alpha, ns.range_size)
    if ns.json:
        print(json.dumps(res, indent=2))
        return 0
    print(f"Example: {res['scenario']}")
    _print_table([
        ("k_bits (DFHPRR Thm 6)", res["k_bits"]),
        ("beta", res["beta"]),
        ("gamma (RRST Thm 1.3)", res["gamma"]),
        ("naive alpha (invalid)", res["alpha"]),
        ("Bonferroni alpha/m", res["bonferroni"]),
    ], {"k_bits (DFHPRR Thm 6)": "up", "beta": "up", "gamma (RRST Thm 1.3)": "down",
        "Bonferroni alpha/m": "down"})
    print(res["note"])
    return 0


def _cmd_pvalue(ns: argparse.Namespace) -> int:
    from .catalog import get

    # a view of the catalog: RRST Thm 1.3, the schema of `maxinfo bound RRST-1.3`
    e = get("RRST-1.3")
    return _emit_report(e, e.report(alpha=ns.alpha, k=ns.k, beta=ns.beta), ns.json)


def _emit(res: dict[str, Any], as_json: bool, sides: Mapping[str, Side] | None = None) -> int:
    """Print a flat result as JSON (full doubles) or as a two-column table (``sides``: see
    :func:`_print_table`); return exit status 0."""
    if as_json:
        print(json.dumps(res, indent=2))
    else:
        _print_table(list(res.items()), sides)
    return 0


def _emit_report(e: Any, res: dict[str, Any], as_json: bool) -> int:
    """A catalog report: its computed values shown rounded to their safe side, inputs as given."""
    inputs = {e.field(p) for p in e.params} | {f"target_{e.field(p)}" for p in e.optional}
    return _emit(res, as_json, result_sides(res, inputs))


def _cmd_description(ns: argparse.Namespace) -> int:
    from .catalog import get

    # a view of the catalog: DFHPRR Thm 6, the schema of `maxinfo bound DFHPRR-6`
    e = get("DFHPRR-6")
    return _emit_report(e, e.report(range_size=ns.range_size, beta=ns.beta), ns.json)


def _cmd_catalog(ns: argparse.Namespace) -> int:
    from .catalog import catalog_markdown, entries

    if ns.markdown:
        sys.stdout.write(catalog_markdown())
        return 0
    rows = [{"id": e.id, "source": f"{e.paper} {e.number}", "title": e.title} for e in entries()]
    if ns.json:
        print(json.dumps(rows, indent=2))
    else:
        width = max(len(r["id"]) for r in rows)
        for r in rows:
            print(f"{r['id'].ljust(width)}  {r['title']}  [{r['source']}]")
    return 0


def _cmd_explain(ns: argparse.Namespace) -> int:
    from .catalog import get

    e = get(ns.id)
    if ns.json:
        print(json.dumps({"id": e.id, "paper": e.paper, "number": e.number, "title": e.title,
                          "latex": e.statement_latex(), "conditions": list(e.all_conditions()), "units": e.units,
                          "params": [{"name": p.name, "domain": p.domain_text, "help": p.help}
                                     for p in e.params],
                          "returns": e.returns, "sympy": str(e.sympy_statement())}, indent=2))
    else:
        print(e.explain())
    return 0


def _cmd_bound(ns: argparse.Namespace) -> int:
    from .catalog import get

    e = get(ns.id)
    if any(prm.kind not in (int, float) for prm in e.params):
        raise InvalidParameter("theorem_id", e.id, "a result with numeric parameters (this one "
                               "takes a list of bounds: use Python or the study planner)")
    sub = _Parser(prog=f"maxinfo bound {e.id}")
    for prm in (*e.params, *e.optional):
        sub.add_argument(f"--{prm.name.replace('_', '-')}", dest=prm.name, type=prm.kind,
                         required=prm in e.params, help=f"{prm.help} ({prm.domain_text})")
    values = vars(sub.parse_args(ns.params))
    return _emit_report(e, _with_vacuity(e, values, e.report(**values)), ns.json)


def _with_vacuity(e: Any, values: dict[str, Any], res: dict[str, Any]) -> dict[str, Any]:
    """A vacuous result says so, why, and the nearest non-vacuous value of each parameter."""
    from .domain import Domain
    from .vacuity import suggest, why_vacuous

    why = why_vacuous(res)
    if why is None:
        return res

    def ok(vals: dict[str, Any]) -> bool:
        return why_vacuous(e.report(**vals)) is None

    ranges = {p.name: (p.domain.lo, p.domain.hi, p.domain.integer) for p in e.params
              if isinstance(p.domain, Domain)}
    found = suggest(ok, values, ranges)
    return {**res, "vacuous": why,
            "non_vacuous_if": found or [NO_SINGLE_FIX]}


def _cmd_solve(ns: argparse.Namespace) -> int:
    from .theorems import solvers

    def need(name: str) -> Any:
        val = getattr(ns, name)
        if val is None:
            raise InvalidParameter(name, None, f"given (--{name.replace('_', '-')}) for "
                                   f"'solve {ns.what}'")
        return val

    route = "RRST Thm 1.4b + Thm 1.3 (i.i.d. data)" if ns.beta is not None else \
        "RRST Thm 1.4a + Thm 1.3 (any data)"
    out: dict[str, Any] = {"solve": ns.what}
    if ns.what == "eps":
        out.update(eps_nats=solvers.max_eps_for_gamma(need("alpha"), need("target_gamma"),
                                                      need("n"), beta=ns.beta), route=route)
    elif ns.what == "k":
        out.update(k_bits=solvers.max_k_for_gamma(need("alpha"), need("beta"),
                                                  need("target_gamma")), route="RRST Thm 1.3")
    elif ns.target_k is not None:
        out.update(n=solvers.max_n_for_k(ns.target_k, need("eps"), beta=ns.beta),
                   route=route.split(" + ")[0])
    else:
        out.update(n=solvers.max_n_for_gamma(need("alpha"), need("target_gamma"), need("eps"),
                                             beta=ns.beta), route=route)
    out.update({k: v for k, v in vars(ns).items()
                if k in ("alpha", "beta", "target_gamma", "target_k", "n", "eps")
                and v is not None and k not in out})
    out["certified"] = "the target holds at the returned value (certified evaluators)"
    # the largest eps / k meeting the target: shown rounded down, so the printed value meets it
    return _emit(out, ns.json, {"eps_nats": "down", "k_bits": "down"})


def _cmd_correct(ns: argparse.Namespace) -> int:
    from .corrections import correct

    c = correct(ns.alpha, eps=ns.eps, n=ns.n, iid=ns.iid, delta=ns.delta, mi_bits=ns.mi_bits,
                range_size=ns.range_size)
    out: dict[str, Any] = {"alpha": c.alpha, "gamma": c.gamma, "gamma_rounding": "down",
                           "k_bits": c.k, "beta": c.beta, "route": " -> ".join(c.route) or None}
    from .vacuity import GAMMA_FLOOR, gamma_problem, suggest

    why = gamma_problem(c.gamma)
    if why is not None:
        given = {k: getattr(ns, k) for k in ("eps", "delta", "n", "mi_bits", "range_size")}

        def ok(vals: dict[str, Any]) -> bool:
            return correct(ns.alpha, iid=ns.iid, **vals).gamma >= GAMMA_FLOOR

        from .planning.study import MAX_N

        ranges = {"eps": (0.0, 1e12, False), "delta": (0.0, 1.0, False), "n": (1, MAX_N, True),
                  "mi_bits": (0.0, 1e12, False), "range_size": (1, MAX_N, True)}
        found = suggest(ok, given, {k: r for k, r in ranges.items() if given[k] is not None})
        out["vacuous"] = why
        out["usable_if"] = found or [NO_SINGLE_FIX]
    if ns.json:
        out["candidates"] = [{"route": r, "gamma": g} for r, g in c.candidates]
        out["notes"] = list(c.notes)
        print(json.dumps(out, indent=2))
    else:
        _print_table([(k, v) for k, v in out.items() if v is not None],
                     result_sides(out, {"alpha"}))
        for r, g in c.candidates:
            print(f"  candidate: {r}: gamma = {decimal_text(g, 'down')}")
        for note in c.notes:
            print(f"  note: {note}")
    return 0


def _cmd_plot(ns: argparse.Namespace) -> int:
    import numpy as np

    from .catalog import get

    e = get(ns.id)
    kinds = {p.name: p.kind for p in e.params}
    if any(k not in (int, float) for k in kinds.values()):
        raise InvalidParameter("theorem_id", e.id, "a result with numeric parameters")
    if ns.vary not in kinds:
        raise InvalidParameter("vary", ns.vary, "one of " + ", ".join(kinds))
    try:
        lo_s, hi_s = ns.range.split(":")
        lo, hi = float(lo_s), float(hi_s)
    except ValueError as exc:
        raise InvalidParameter("range", ns.range, "LO:HI with two numbers") from exc
    if not (lo < hi) or (ns.log_x and lo <= 0):
        raise InvalidParameter("range", ns.range, "LO < HI (and LO > 0 with --log-x)")
    if not 2 <= ns.points <= 10_000:
        raise InvalidParameter("points", ns.points, "an integer in [2, 10000]")
    check_out_file("out", ns.out)
    sub = _Parser(prog=f"maxinfo plot {e.id}")
    for prm in e.params:
        if prm.name != ns.vary:
            sub.add_argument(f"--{prm.name.replace('_', '-')}", dest=prm.name, type=prm.kind,
                             required=True, help=f"{prm.help} ({prm.domain_text})")
    fixed = vars(sub.parse_args(ns.params))
    xs = np.geomspace(lo, hi, ns.points) if ns.log_x else np.linspace(lo, hi, ns.points)
    if kinds[ns.vary] is int:
        xs = np.unique(np.round(xs)).astype(int)
    # the headline number of the one report schema (e.g. k_bits, eps_nats, gamma)
    pts = [(x.item(), float(e.report(**{**fixed, ns.vary: x.item()})[e.value_name])) for x in xs]

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=".")
    if ns.log_x:
        ax.set_xscale("log")
    ylab = f"{e.value_name} (certified)"
    ax.set_xlabel(ns.vary)
    ax.set_ylabel(ylab)
    ax.set_title(f"{e.id}: {e.title}\n" + ", ".join(f"{k}={v}" for k, v in fixed.items()),
                 fontsize=9)
    fig.tight_layout()
    _save(fig, "out", ns.out)
    plt.close(fig)
    out = {"theorem": e.id, "vary": ns.vary, "fixed": fixed, "out": str(ns.out),
           "x": [p[0] for p in pts], "y": [p[1] for p in pts], "y_label": ylab}
    if ns.json:
        print(json.dumps(out, indent=2))
    else:
        print(f"wrote {ns.out} ({len(pts)} points of {e.id} against {ns.vary})")
    return 0


def _print_derivation(r: Any) -> None:
    from .vacuity import gamma_problem

    print(f"gamma      {decimal_text(r.gamma, 'down')}   (corrected threshold, rounded down)")
    if (why := gamma_problem(r.gamma)) is not None:
        print(f"vacuous    {why}")
    if r.k is not None:
        print(f"k          {decimal_text(r.k, 'up')} bits (rounded up)")
        print(f"beta       {decimal_text(r.beta, 'up')}")
    print(f"route      {r.route}")
    print("\nderivation:")
    for i, c in enumerate(r.chain, 1):
        cond = f"  [{'; '.join(c.conditions)}]" if c.conditions else ""
        print(f"  {i:2d}. {c.what}: {', '.join(c.theorems)}: {c.inputs} -> {c.output}{cond}")
    print("\nroutes tried:")
    for name, g, why in r.candidates:
        if g is None:
            print(f"  {name}: unavailable ({why})")
        else:
            bad = gamma_problem(g)
            print(f"  {name}: gamma = {decimal_text(g, 'down')}" + (f" (vacuous: {bad.split(': ', 1)[1]})"
                                                 if bad else ""))


def _print_power_plan(pp: Any) -> None:
    from .planning.power import describe, method_of
    from .planning.recommend import format_rows

    st, rec = pp.study, pp.recommended
    fixes_line: list[str] = []

    def fixes_text() -> str:   # a search of a few seconds: at most once per plan
        if not fixes_line:
            fixes_line.append(_fixes_text(st))
        return fixes_line[0]

    print(f"study      {st.name}")
    print(f"data       n = {st.n} records ({'i.i.d.' if st.iid else 'not assumed i.i.d.'})")
    print(f"alpha      {st.alpha!r}")
    if st.power is not None:
        print(f"power      {describe(st.power)}")
        print(f"           ({method_of(st.power)})")
    print(f"\nrecommended: {rec.name}")
    shown = "None" if rec.threshold is None else decimal_text(rec.threshold, "down")
    line = f"  test at p <= {shown} on {rec.test_records} records"
    if rec.power is not None:
        line += f"; power {rec.power:.4f}"
        line += (f"; required n = {rec.required_n}" if rec.required_n is not None
                 else "; no n reaches the target")
    print(line)
    print(f"  {rec.note}")
    from .vacuity import gamma_problem

    if rec.threshold is not None and gamma_problem(rec.threshold) is not None:
        print(f"  no usable analysis as planned: {fixes_text()}")
    if st.power is None:
        print("  (largest valid threshold on all records; add a [power] table to compare by power)")
    print("\nroutes:")
    for ln in format_rows(pp.rows):
        print(ln)
    notes = [f"  {r.name}: {r.note}" for r in pp.rows]
    notes += [f"  {r.name}: required n: {r.required_n_note}" for r in pp.rows
              if r.required_n_note]
    print("\nnotes:")
    for ln in notes:
        print(ln)
    if pp.split_note:
        print(f"  sample splitting: {pp.split_note}")
    if pp.reuse is not None:
        print(f"\ncertified adaptive reuse (all {st.n} records):")
        _print_derivation(pp.reuse)
        if st.power is not None:
            print("\npower of each reuse route at n:")
            for name, g, _, p in pp.reuse_routes():
                if g is not None and p is not None:
                    print(f"  {name}: gamma = {decimal_text(g, 'down', 4)}, power {p:.4f}")
    else:
        print(f"\nadaptive reuse: no valid route: {pp.reuse_refusal}")
        print(f"  {fixes_text()}")


def _fixes_text(study: Any) -> str:
    from .planning import fixes

    found = fixes(study)
    if not found:
        return ("no single change of n, of a step's number or of its times (the others fixed) "
                "gives a usable threshold: see the reason above; for approximate DP, RRST Thm "
                "3.1 needs composed eps <= 1/2 and delta well below eps/n^2 at once")
    return "nearest single changes (the others fixed) with a usable threshold: " + ", ".join(found)


def _parse_sweep(spec: str) -> tuple[str, list[float]]:
    import numpy as np

    from .planning import INT_PARAMS

    try:
        param, rng = spec.split("=", 1)
        parts = rng.split(":")
        lo, hi = float(parts[0]), float(parts[1])
        num = int(parts[2]) if len(parts) > 2 else 200
        if len(parts) > 3:
            raise ValueError
    except (ValueError, IndexError):
        raise InvalidParameter("sweep", spec, "PARAM=LO:HI or PARAM=LO:HI:NUM") from None
    if not (0 < lo < hi < math.inf) or not 2 <= num <= 10_000:
        raise InvalidParameter("sweep", spec, "0 < LO < HI < infinity and 2 <= NUM <= 10000")
    if param.split(".")[-1] in INT_PARAMS:
        if hi - lo + 1 <= num:
            return param, [float(v) for v in range(int(lo), int(hi) + 1)]
        return param, [float(v) for v in np.unique(np.round(np.geomspace(lo, hi, num)))]
    xs = np.geomspace(lo, hi, num) if hi / lo >= 100 else np.linspace(lo, hi, num)
    return param, [float(x) for x in xs]


def _cmd_plan(ns: argparse.Namespace) -> int:
    from . import planning as planner

    study = planner.load_study(ns.study)
    if ns.plot and not ns.sweep:
        raise InvalidParameter("plot", ns.plot, "given with --sweep (it plots the sweep; use "
                               "--power-curve FILE for power against n)")
    if ns.target_gamma is not None and not ns.solve:
        raise InvalidParameter("target_gamma", ns.target_gamma, "given with --solve PARAM")
    for opt in ("plot", "power_curve"):
        if getattr(ns, opt):
            check_out_file(opt, getattr(ns, opt))
    if ns.power_curve and (ns.sweep or ns.solve):
        raise InvalidParameter("power_curve", ns.power_curve, "not combined with --sweep or --solve")
    if ns.sweep and ns.solve:
        raise InvalidParameter("sweep", ns.sweep, "not combined with --solve")
    if ns.workers is not None and not ns.sweep:
        raise InvalidParameter("workers", ns.workers, "given with --sweep (the processes its "
                               "points are spread over)")
    if ns.solve:
        if ns.target_gamma is None:
            raise InvalidParameter("target_gamma", None, "given with --solve (a threshold in (0, 1])")
        v, r, direction = planner.solve(study, ns.solve, ns.target_gamma)
        out = {"study": study.name, "solve": ns.solve, "target_gamma": ns.target_gamma,
               "value": v, "direction": direction, "gamma_at_value": r.gamma, "route": r.route,
               "maxinfo_bounds_version": __version__}
        if ns.json:
            print(json.dumps(out, indent=2))
        else:
            # the largest value meeting the target shown rounded down, the smallest up
            _print_table(list(out.items()), {"value": "down" if direction == "largest" else "up",
                                             "gamma_at_value": "down"})
        return 0
    if ns.sweep:
        param, values = _parse_sweep(ns.sweep)
        rows = planner.sweep(study, param, values, workers=ns.workers)
        if all(not g for _, g, _ in rows):   # None (refused) or 0 (vacuous) everywhere
            why = rows[-1][2] if rows[-1][1] is None else "gamma = 0"
            raise planner.PlanError(study.source, f"vacuous or refused at every {param} in "
                                    f"[{values[0]:g}, {values[-1]:g}] (nothing plotted); at "
                                    f"{param} = {values[-1]:g}: {why}")
        out_path = ns.plot or "maxinfo-plan-sweep.png"
        _plot_sweep(study.name, param, rows, out_path)
        from .vacuity import gamma_problem

        integer = param.split(".")[-1] in planner.INT_PARAMS
        rows = [(int(v) if integer else v, g,
                 f"vacuous ({gamma_problem(g)}); {why}" if g is not None and gamma_problem(g)
                 else why) for v, g, why in rows]
        if ns.json:
            print(json.dumps({"study": study.name, "param": param, "plot": out_path,
                              "maxinfo_bounds_version": __version__,
                              "points": [{"value": v, "gamma": g, "route": why}
                                         for v, g, why in rows]}, indent=2))
        else:
            print(f"{param:>14}  gamma (rounded down)       route")
            for v, g, why in rows:
                x = f"{int(v):>14d}" if integer else f"{v:>14.6g}"
                print(f"{x}  {decimal_text(g, 'down'):<24}  {why}" if g is not None else
                      f"{x}  {'no valid route':<24}  {why}")
            print(f"wrote {out_path}")
        return 0
    pp = planner.plan_power(study)
    if pp.reuse is None and study.power is None and not any(
            r.valid and r.kind != "split" for r in pp.rows):
        # nothing tests on all records: the refusal is the answer (exit 2, one line), with the
        # nearest single changes that would make it valid
        raise planner.PlanError(study.source, pp.reuse_refusal.split(": ", 1)[-1] + "; "
                                + _fixes_text(study))
    if ns.power_curve:
        planner.power_curve(pp, ns.power_curve)
    if ns.json:
        d = pp.as_dict()
        from .vacuity import gamma_problem

        thr = pp.recommended.threshold
        if thr is not None and gamma_problem(thr) is not None:
            d["usable_if"] = _fixes_text(study)
        d["source"] = study.source
        d["power_curve"] = ns.power_curve
        d["maxinfo_bounds_version"] = __version__
        print(json.dumps(d, indent=2))
    else:
        _print_power_plan(pp)
        if ns.power_curve:
            print(f"\nwrote {ns.power_curve}")
    return 0


def _plot_sweep(name: str, param: str, rows: Sequence[tuple[float, float | None, str]],
                out: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pts = [(v, g) for v, g, _ in rows if g is not None and g > 0]
    fig, ax = plt.subplots(figsize=(6, 4))
    if pts:
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=".")
        ax.set_yscale("log")
    ax.set_xlabel(param)
    ax.set_ylabel("gamma(alpha), certified (rounded down)")
    ax.set_title(f"{name}: corrected threshold against {param}", fontsize=9)
    fig.tight_layout()
    _save(fig, "plot", out)
    plt.close(fig)


def _build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="maxinfo", description="Certified max-information bounds and p-value "
                "corrections for adaptive data analysis (information in bits).")
    p.add_argument("--version", action="version", version=f"maxinfo {__version__}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    ex = sub.add_parser("example", help="the built-in worked example")
    ex.add_argument("--alpha", type=float, default=0.05)
    ex.add_argument("--range-size", type=int, default=20)
    ex.add_argument("--json", action="store_true")
    ex.set_defaults(fn=_cmd_example)

    pv = sub.add_parser("pvalue", help="RRST Thm 1.3: corrected threshold from (k, beta)")
    pv.add_argument("--alpha", type=float, required=True, help="significance level in [0, 1]")
    pv.add_argument("--k", type=float, required=True, help="max-information bound, bits")
    pv.add_argument("--beta", type=float, required=True, help="approximation parameter in [0, 1]")
    pv.add_argument("--json", action="store_true")
    pv.set_defaults(fn=_cmd_pvalue)

    de = sub.add_parser("description", help="DFHPRR Thm 6: k = log2(|Y|/beta)")
    de.add_argument("--range-size", type=int, required=True, help="number of possible outputs")
    de.add_argument("--beta", type=float, required=True, help="in (0, 1]")
    de.add_argument("--json", action="store_true")
    de.set_defaults(fn=_cmd_description)

    ca = sub.add_parser("catalog", help="list the encoded results")
    ca.add_argument("--json", action="store_true")
    ca.add_argument("--markdown", action="store_true", help="the docs page (docs/catalog.md)")
    ca.set_defaults(fn=_cmd_catalog)

    xp = sub.add_parser("explain", help="statement, conditions and parameters of a result")
    xp.add_argument("id")
    xp.add_argument("--json", action="store_true")
    xp.set_defaults(fn=_cmd_explain)

    # bound and plot: the result's own --PARAM options may come before or after the ID and the
    # command's options; they are the ones the command does not know (see main)
    bo = sub.add_parser("bound", help="evaluate a result: maxinfo bound ID --param value ...",
                        allow_abbrev=False)
    bo.add_argument("--json", action="store_true")
    bo.add_argument("id")
    bo.set_defaults(fn=_cmd_bound)

    so = sub.add_parser("solve", help="largest eps, k or n meeting a target gamma (or k)")
    so.add_argument("what", choices=["eps", "k", "n"])
    so.add_argument("--alpha", type=float)
    so.add_argument("--target-gamma", type=float)
    so.add_argument("--target-k", type=float, help="with 'solve n': bound on k, bits")
    so.add_argument("--n", type=int)
    so.add_argument("--eps", type=float, help="pure DP parameter, nats")
    so.add_argument("--beta", type=float, help="use the i.i.d. bound (RRST Thm 1.4b) at this beta")
    so.add_argument("--json", action="store_true")
    so.set_defaults(fn=_cmd_solve)

    co = sub.add_parser("correct", help="best certified gamma for one selection step")
    co.add_argument("--alpha", type=float, required=True)
    co.add_argument("--eps", type=float, help="the step is eps-DP (pure, nats)")
    co.add_argument("--n", type=int, help="number of records (with --eps)")
    co.add_argument("--delta", type=float, help="approximate DP: the step is (eps, delta)-DP")
    co.add_argument("--iid", action="store_true",
                    help="records are i.i.d. (allows RRST Thm 1.4b and Thm 3.1)")
    co.add_argument("--mi-bits", type=float, help="mutual information bound, bits")
    co.add_argument("--range-size", type=int, help="number of possible outputs")
    co.add_argument("--json", action="store_true")
    co.set_defaults(fn=_cmd_correct)

    pl = sub.add_parser("plot", help="a result against one parameter, PNG or SVG",
                        allow_abbrev=False)
    pl.add_argument("--json", action="store_true")
    pl.add_argument("--vary", required=True, help="the parameter on the x axis")
    pl.add_argument("--range", required=True, help="LO:HI")
    pl.add_argument("--points", type=int, default=60)
    pl.add_argument("--log-x", action="store_true")
    pl.add_argument("--out", default="maxinfo-plot.png", help="file name; .png or .svg")
    pl.add_argument("id")
    pl.set_defaults(fn=_cmd_plot)

    pn = sub.add_parser("plan", help="the study planner: threshold for a planned study (TOML)")
    pn.add_argument("study", help="a study file (TOML); see docs/planner.md and examples/")
    pn.add_argument("--json", action="store_true")
    pn.add_argument("--sweep", help="PARAM=LO:HI[:NUM]: gamma against a parameter (n, alpha, "
                    "times, a step field, or steps[i].field)")
    pn.add_argument("--plot", help="with --sweep: the plot file (.png or .svg)")
    pn.add_argument("--workers", type=int, help="with --sweep: processes to spread the points "
                    "over (default: one per CPU; sweeps under 256 points run in this process)")
    pn.add_argument("--solve", help="the parameter to solve for (largest value; smallest n)")
    pn.add_argument("--target-gamma", type=float, help="with --solve: the threshold to reach")
    pn.add_argument("--power-curve", metavar="FILE",
                    help="plot power against n for every valid route (.png or .svg; needs a "
                    "[power] table)")
    pn.set_defaults(fn=_cmd_plan)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``maxinfo`` console script; returns the exit status."""
    parser = _build_parser()
    ns, rest = parser.parse_known_args(argv)
    if ns.command in ("bound", "plot"):
        ns.params = rest
    elif rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    try:
        return int(ns.fn(ns))
    except KeyboardInterrupt:
        print("maxinfo: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader closed the pipe (e.g. `maxinfo ... | head`): stop quietly
        import os

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except MaxinfoError as exc:
        msg = " ".join(str(exc).split())  # one line
        print(f"maxinfo: error: {msg}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
