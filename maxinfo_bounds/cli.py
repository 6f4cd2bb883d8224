"""The ``maxinfo`` command line: a thin argparse layer over the calculator.

Every command prints a readable table by default and JSON with ``--json``. Bad input prints one
line (``maxinfo: error: ...``) to standard error and exits with status 2, without a traceback; so
does an option given twice, and an option that would be silently ignored. Output files are checked
before any work. The planning reports are views of the planner's result objects, written by
:mod:`maxinfo_bounds.planning.report` (shared with the Python API); a study with no valid
analysis prints its report, says so in one line on standard error and exits with status 2.

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
                            [--solve-for n|power|effect|alpha|compromise [--ratio Q]] [--report F.md [--bib F.bib]]
                                            the study planner: the threshold for a planned study
    maxinfo estimate --n N --queries K --coverage C [--half-width T [--prove-extremes]] [--binary] [--plot F.png]
                                            reuse or split: k adaptive queries, every route's half-width

Why one module over 400 lines: it is only argparse wiring; each subcommand is a few lines
that read the catalog, the planner or the corrections module and print through one emitter (the
planning reports through :mod:`maxinfo_bounds.planning.report`), and keeping the parser and its
handlers together keeps ``maxinfo --help`` and the code in step.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal, NoReturn

from . import __version__
from .numeric import InvalidParameter, MaxinfoError, check_output_file, decimal_text, save_figure

Side = Literal["up", "down"]

__all__ = ["main"]


class _Once(argparse._StoreAction):
    """An option's value, refused when the option is given twice (a repeat is not silently
    the last value)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        _seen_once(self, parser, option_string)
        super().__call__(parser, namespace, values, option_string)


class _OnceTrue(argparse._StoreTrueAction):
    """A flag, refused when given twice."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        _seen_once(self, parser, option_string)
        super().__call__(parser, namespace, values, option_string)


def _seen_once(action: argparse.Action, parser: argparse.ArgumentParser, option: str | None) -> None:
    if getattr(action, "seen", False):
        parser.error(
            f"argument {'/'.join(action.option_strings)}: given more than once "
            f"(each option at most once; {option} repeated)"
        )
    action.seen = True  # type: ignore[attr-defined]


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error in one line and exits 2, and refuses a repeated
    option."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        if args and str(args[0]).startswith("-") and kwargs.get("action") in (None, "store", "store_true"):
            kwargs["action"] = _OnceTrue if kwargs.get("action") == "store_true" else _Once
        return super().add_argument(*args, **kwargs)


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
        text = (
            decimal_text(val, sides[key])
            if isinstance(val, float) and key in sides
            else repr(val)
            if isinstance(val, float)
            else ", ".join(map(str, val))
            if isinstance(val, list)
            else str(val)
        )
        print(f"{key.ljust(width)}  {text}")


def _cmd_example(ns: argparse.Namespace) -> int:
    from .corrections import worked_example as example

    res = example(ns.alpha, ns.range_size)
    if ns.json:
        print(json.dumps(res, indent=2))
        return 0
    print(f"Example: {res['scenario']}")
    _print_table(
        [
            ("k_bits (DFHPRR Thm 6)", res["k_bits"]),
            ("beta", res["beta"]),
            ("gamma (RRST Thm 1.3)", res["gamma"]),
            ("naive alpha (invalid)", res["alpha"]),
            ("Bonferroni alpha/m", res["bonferroni"]),
        ],
        {"k_bits (DFHPRR Thm 6)": "up", "beta": "up", "gamma (RRST Thm 1.3)": "down", "Bonferroni alpha/m": "down"},
    )
    print(res["note"])
    return 0


def _cmd_pvalue(ns: argparse.Namespace) -> int:
    from .catalog import get
    from .vacuity import with_usable_if

    # a view of the catalog: RRST Thm 1.3, the schema of `maxinfo bound RRST-1.3` (with its
    # vacuity line and nearest usable values, as docs/cli.md promises for every command)
    e = get("RRST-1.3")
    values = {"alpha": ns.alpha, "k": ns.k, "beta": ns.beta}
    return _emit_report(e, with_usable_if(e, values, e.report(**values)), ns.json)


def _emit(res: dict[str, Any], as_json: bool, sides: Mapping[str, Side] | None = None) -> int:
    """Print a flat result as JSON (full doubles) or as a two-column table (``sides``: see
    :func:`_print_table`; ``usable_if`` in words); return exit status 0."""
    if as_json:
        print(json.dumps(res, indent=2))
    else:
        from .vacuity import usable_if_text

        _print_table([(k, usable_if_text(v) if k == "usable_if" else v) for k, v in res.items()], sides)
    return 0


def _emit_report(e: Any, res: dict[str, Any], as_json: bool) -> int:
    """A catalog report: its computed values shown rounded to their safe side, inputs as given."""
    inputs = {e.report_key(p) for p in e.params} | {f"target_{e.report_key(p)}" for p in e.optional}
    return _emit(res, as_json, result_sides(res, inputs))


def _cmd_description(ns: argparse.Namespace) -> int:
    from .catalog import get
    from .vacuity import with_usable_if

    # a view of the catalog: DFHPRR Thm 6, the schema of `maxinfo bound DFHPRR-6`
    e = get("DFHPRR-6")
    values = {"range_size": ns.range_size, "beta": ns.beta}
    return _emit_report(e, with_usable_if(e, values, e.report(**values)), ns.json)


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
        print(
            json.dumps(
                {
                    "id": e.id,
                    "paper": e.paper,
                    "number": e.number,
                    "title": e.title,
                    "latex": e.statement_latex(),
                    "conditions": list(e.all_conditions()),
                    "units": e.units,
                    "params": [{"name": p.name, "domain": p.domain_text, "help": p.help} for p in e.params],
                    "returns": e.returns,
                    "sympy": str(e.sympy_statement()),
                },
                indent=2,
            )
        )
    else:
        print(e.explain())
    return 0


def _cmd_bound(ns: argparse.Namespace) -> int:
    from .catalog import get

    e = get(ns.id)
    if any(prm.kind not in (int, float) for prm in e.params):
        raise InvalidParameter(
            "theorem_id",
            e.id,
            "a result with numeric parameters (this one takes a list of bounds: use Python or the study planner)",
        )
    sub = _Parser(prog=f"maxinfo bound {e.id}")
    for prm in (*e.params, *e.optional):
        sub.add_argument(
            f"--{prm.name.replace('_', '-')}",
            dest=prm.name,
            type=prm.kind,
            required=prm in e.params,
            help=f"{prm.help} ({prm.domain_text})",
        )
    values = vars(sub.parse_args(ns.params))
    from .vacuity import with_usable_if

    return _emit_report(e, with_usable_if(e, values, e.report(**values)), ns.json)


def _cmd_solve(ns: argparse.Namespace) -> int:
    from .theorems import solvers

    def need(name: str) -> Any:
        val = getattr(ns, name)
        if val is None:
            raise InvalidParameter(name, None, f"given (--{name.replace('_', '-')}) for 'solve {ns.what}'")
        return val

    route = "RRST Thm 1.4b + Thm 1.3 (i.i.d. data)" if ns.beta is not None else "RRST Thm 1.4a + Thm 1.3 (any data)"
    out: dict[str, Any] = {"solve": ns.what}
    if ns.what == "eps":
        out.update(
            eps_nats=solvers.max_eps_for_gamma(need("alpha"), need("target_gamma"), need("n"), beta=ns.beta),
            route=route,
        )
    elif ns.what == "k":
        out.update(
            k_bits=solvers.max_k_for_gamma(need("alpha"), need("beta"), need("target_gamma")), route="RRST Thm 1.3"
        )
    elif ns.target_k is not None:
        out.update(n=solvers.max_n_for_k(ns.target_k, need("eps"), beta=ns.beta), route=route.split(" + ")[0])
    else:
        out.update(
            n=solvers.max_n_for_gamma(need("alpha"), need("target_gamma"), need("eps"), beta=ns.beta), route=route
        )
    out.update(
        {
            k: v
            for k, v in vars(ns).items()
            if k in ("alpha", "beta", "target_gamma", "target_k", "n", "eps") and v is not None and k not in out
        }
    )
    out["certified"] = "the target holds at the returned value (certified evaluators)"
    # the largest eps / k meeting the target: shown rounded down, so the printed value meets it
    return _emit(out, ns.json, {"eps_nats": "down", "k_bits": "down"})


def _cmd_correct(ns: argparse.Namespace) -> int:
    from .corrections import correct, correction_report

    given = {k: getattr(ns, k) for k in ("eps", "delta", "n", "mi_bits", "range_size")}
    c = correct(ns.alpha, iid=ns.iid, **given)
    out = correction_report(c, iid=ns.iid, **given)
    if ns.json:
        out["candidates"] = [{"route": r, "gamma": g} for r, g in c.candidates]
        out["notes"] = list(c.notes)
        print(json.dumps(out, indent=2))
    else:
        from .vacuity import usable_if_text

        shown = {k: (usable_if_text(v) if k == "usable_if" else v) for k, v in out.items()}
        _print_table([(k, v) for k, v in shown.items() if v is not None], result_sides(out, {"alpha"}))
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
    check_output_file("out", ns.out)
    sub = _Parser(prog=f"maxinfo plot {e.id}")
    for prm in e.params:
        if prm.name != ns.vary:
            sub.add_argument(
                f"--{prm.name.replace('_', '-')}",
                dest=prm.name,
                type=prm.kind,
                required=True,
                help=f"{prm.help} ({prm.domain_text})",
            )
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
    ax.set_title(f"{e.id}: {e.title}\n" + ", ".join(f"{k}={v}" for k, v in fixed.items()), fontsize=9)
    fig.tight_layout()
    save_figure(fig, "out", ns.out)
    out = {
        "theorem": e.id,
        "vary": ns.vary,
        "fixed": fixed,
        "out": str(ns.out),
        "x": [p[0] for p in pts],
        "y": [p[1] for p in pts],
        "y_label": ylab,
    }
    if ns.json:
        print(json.dumps(out, indent=2))
    else:
        print(f"wrote {ns.out} ({len(pts)} points of {e.id} against {ns.vary})")
    return 0


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
        if lo != math.floor(lo) or hi != math.floor(hi):
            raise InvalidParameter(
                "sweep", spec, f"integer ends LO and HI for the integer parameter {param} (no silent truncation)"
            )
        if hi - lo + 1 <= num:
            return param, [float(v) for v in range(int(lo), int(hi) + 1)]
        return param, [float(v) for v in np.unique(np.round(np.geomspace(lo, hi, num)))]
    xs = np.geomspace(lo, hi, num) if hi / lo >= 100 else np.linspace(lo, hi, num)
    return param, [float(x) for x in xs]


def _cmd_plan(ns: argparse.Namespace) -> int:
    from . import planning as planner
    from .planning import report

    if ns.plot and not ns.sweep:
        raise InvalidParameter(
            "plot", ns.plot, "given with --sweep (it plots the sweep; use --power-curve FILE for power against n)"
        )
    if ns.target_gamma is not None and not ns.solve:
        raise InvalidParameter("target_gamma", ns.target_gamma, "given with --solve PARAM")
    if ns.power_curve and (ns.sweep or ns.solve):
        raise InvalidParameter("power_curve", ns.power_curve, "not combined with --sweep or --solve")
    if ns.sweep and ns.solve:
        raise InvalidParameter("sweep", ns.sweep, "not combined with --solve")
    if ns.workers is not None and not ns.sweep:
        raise InvalidParameter("workers", ns.workers, "given with --sweep (the processes its points are spread over)")
    if ns.solve and ns.target_gamma is None:
        raise InvalidParameter("target_gamma", None, "given with --solve (a threshold in (0, 1])")
    if ns.ratio is not None and ns.solve_for != "compromise":
        raise InvalidParameter("ratio", ns.ratio, "given with --solve-for compromise (q = beta/alpha)")
    if ns.solve_for and (ns.sweep or ns.solve or ns.power_curve):
        raise InvalidParameter("solve_for", ns.solve_for, "not combined with --sweep, --solve or --power-curve")
    if ns.bib and not ns.report:
        raise InvalidParameter("bib", ns.bib, "given with --report FILE.md (the BibTeX of what it cites)")
    if ns.report and (ns.sweep or ns.solve or ns.solve_for):
        raise InvalidParameter("report", ns.report, "not combined with --sweep, --solve or --solve-for")
    for key, val, suffixes in (("report", ns.report, (".md",)), ("bib", ns.bib, (".bib",))):
        if val:
            check_output_file(key, val, suffixes)
    study = planner.load_study(ns.study)
    if ns.solve_for:
        ans = planner.solve_power(study, ns.solve_for, ratio=ns.ratio)
        print(json.dumps(ans.as_dict(), indent=2) if ns.json else ans.text())
        return 0
    # every output file is checked before any work (nothing is computed to be thrown away)
    if ns.sweep:
        check_output_file("plot", ns.plot or "maxinfo-plan-sweep.png")
    if ns.power_curve:
        check_output_file("power_curve", ns.power_curve)
        if study.power is None:
            raise planner.PlanError(
                f"{study.source}: power", "missing: --power-curve needs a [power] table (test, effect_size, ...)"
            )
    if ns.solve:
        v, r, direction = planner.solve(study, ns.solve, ns.target_gamma)
        out = report.solve_fields(study, ns.solve, ns.target_gamma, v, r, direction)
        if ns.json:
            print(json.dumps(out, indent=2))
        else:
            # the largest value meeting the target shown rounded down, the smallest up
            _print_table(
                list(out.items()), {"value": "down" if direction == "largest" else "up", "gamma_at_value": "down"}
            )
        return 0
    if ns.sweep and study.power is not None:
        param, values = _parse_sweep(ns.sweep)
        pts = planner.power_sweep(study, param, values, workers=ns.workers)
        out_path = ns.plot or "maxinfo-plan-sweep.png"
        _plot_power_sweep(study, param, pts, out_path)
        print(
            json.dumps(report.power_sweep_json(study, param, pts, out_path), indent=2)
            if ns.json
            else report.power_sweep_text(param, pts, out_path)
        )
        return 0
    if ns.sweep:
        param, values = _parse_sweep(ns.sweep)
        rows = planner.sweep(study, param, values, workers=ns.workers)
        if all(not p.gamma for p in rows):  # None (refused) or 0 (vacuous) everywhere
            why = rows[-1].route if rows[-1].gamma is None else "gamma = 0"
            raise planner.PlanError(
                study.source,
                f"vacuous or refused at every {param} in "
                f"[{values[0]:g}, {values[-1]:g}] (nothing plotted); at "
                f"{param} = {values[-1]:g}: {why}",
            )
        out_path = ns.plot or "maxinfo-plan-sweep.png"
        _plot_sweep(study.name, param, rows, out_path)
        print(
            json.dumps(report.sweep_json(study, param, rows, out_path), indent=2)
            if ns.json
            else report.sweep_text(param, rows, out_path, critical_value_known=report.known_test(study))
        )
        return 0
    pp = planner.plan_power(study)
    if ns.power_curve:
        planner.power_curve(pp, ns.power_curve)
    if ns.report:
        from pathlib import Path

        Path(ns.report).write_text(pp.to_markdown(), encoding="utf-8")
        if ns.bib:
            Path(ns.bib).write_text(pp.bibtex(), encoding="utf-8")
    if ns.json:
        print(json.dumps(report.plan_json(pp), indent=2))
    else:
        print(report.plan_text(pp))
        for written in (ns.power_curve, ns.report, ns.bib):
            if written:
                print(f"\nwrote {written}")
    if pp.recommended is None:  # the report is printed; the status and one line say so
        raise planner.PlanError(study.source, pp.no_valid_route)
    return 0


def _int_range(name: str, text: str) -> tuple[int, int]:
    """LO:HI of integers (``1e6`` allowed when it is an integer) for a regime map's axis."""
    parts = text.split(":")
    if len(parts) != 2:
        raise InvalidParameter(name, text, "LO:HI (two integers, e.g. 1000:10000000)")
    out = []
    for x in parts:
        try:
            v = float(x)
        except ValueError:
            raise InvalidParameter(name, text, "LO:HI (two integers, e.g. 1000:10000000)") from None
        if not (math.isfinite(v) and v.is_integer() and v >= 1):
            raise InvalidParameter(name, text, "LO:HI with LO, HI integers >= 1")
        out.append(int(v))
    return out[0], out[1]


def _cmd_estimate(ns: argparse.Namespace) -> int:
    from .planning import estimate as est

    if ns.brief and ns.json:
        raise InvalidParameter("brief", True, "not combined with --json (JSON always carries the derivations)")
    maps = {"map_n": ns.map_n, "map_k": ns.map_k, "map_points": ns.map_points}
    for key, val in maps.items():
        if val is not None and not ns.plot:
            raise InvalidParameter(key, val, "given with --plot FILE (it sets the regime map's axes)")
    if ns.plot:
        check_output_file("plot", ns.plot)
    given = [
        f"--{k.replace('_', '-')}"
        for k in ("n", "queries", "coverage", "half_width", "thresholdout_budget", "threshold")
        if getattr(ns, k) is not None
    ] + (["--binary"] if ns.binary else [])
    if ns.study is not None:
        if given:
            raise InvalidParameter("study", ns.study, f"given alone (the file sets {', '.join(given)})")
        plan = est.plan_estimate_file(ns.study, prove_extremes=ns.prove_extremes)
    else:
        for k in ("n", "queries", "coverage"):
            if getattr(ns, k) is None:
                raise InvalidParameter(k, None, f"given (--{k}), or a study file (--study FILE)")
        plan = est.plan_estimate(
            ns.n,
            ns.queries,
            ns.coverage,
            ns.half_width,
            thresholdout_budget=ns.thresholdout_budget,
            threshold=ns.threshold,
            binary=ns.binary,
            prove_extremes=ns.prove_extremes,
        )
    out = plan.as_dict()
    rm = None
    if ns.plot:
        n_range = _int_range("map_n", ns.map_n) if ns.map_n else (max(1, plan.n // 1000), plan.n * 10)
        k_range = _int_range("map_k", ns.map_k) if ns.map_k else (1, max(10 * plan.queries, 1000))
        budget = next((r.settings.get("budget") for r in plan.routes if r.route is est.THRESHOLDOUT), None)
        from tqdm import tqdm

        # a bar on a terminal only (the map takes seconds; with --binary up to about half a minute)
        with tqdm(desc="regime map, rows of n", file=sys.stderr, disable=not sys.stderr.isatty(), leave=False) as bar:

            def progress(done: int, total: int) -> None:
                bar.total = total
                bar.update(1)

            rm = est.regime_map(
                plan.coverage,
                n_range,
                k_range,
                ns.map_points or 50,
                progress,
                thresholdout_budget=int(budget) if budget is not None else ns.thresholdout_budget,
                threshold=ns.threshold,
                binary=plan.binary,
            )
        est.plot_regime_map(rm, ns.plot, mark=(plan.n, plan.queries))
        out["regime_map"] = {"plot": ns.plot, **rm.as_dict()}
    if ns.json:
        print(json.dumps(out, indent=2))
    else:
        print(plan.text(derivations=not ns.brief))
        if rm is not None:
            print(f"\nregime map ({len(rm.ns)} x {len(rm.ks)} points, float estimates) written to {ns.plot}")
            print(est.crossover_text(rm))
    return 0


def _plot_sweep(name: str, param: str, rows: Sequence[Any], out: str) -> None:
    import textwrap

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import LogLocator

    pts = [(p.value, p.gamma) for p in rows if p.gamma is not None and p.gamma > 0]
    zero = [p.value for p in rows if p.gamma == 0]
    refused = [p.value for p in rows if p.gamma is None]
    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    if pts:
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=".", label="gamma (certified, rounded down)")
        ax.set_yscale("log")
        # at most about ten major ticks whatever the span (a span of 300 decades had one per 39)
        ax.yaxis.set_major_locator(LogLocator(base=10, numticks=10))
        ax.axhline(2.220446049250313e-16, color="0.5", ls=":", lw=1)
        bottom = min(p[1] for p in pts)
    else:
        bottom = 1.0
    # points where gamma is 0 (vacuous) or no route is valid are shown, not dropped
    if zero:
        ax.plot(zero, [bottom] * len(zero), "x", color="C3", label=f"gamma = 0, vacuous ({len(zero)} points)")
    if refused:
        ax.plot(refused, [bottom] * len(refused), "|", color="0.3", label=f"no valid route ({len(refused)} points)")
    ax.set_xlabel(param)
    ax.set_ylabel("gamma(alpha), certified (rounded down)")
    ax.set_title(textwrap.fill(f"{name}: corrected threshold against {param}", 70), fontsize=9)
    if zero or refused or pts:
        ax.legend(fontsize=7)
    fig.tight_layout()
    save_figure(fig, "plot", out)


def _plot_power_sweep(study: Any, param: str, pts: Sequence[Any], out: str) -> None:
    """Power (top) and required n (bottom) of every valid route against the swept parameter;
    the recommended route drawn last and thickest, so no other line hides it."""
    import textwrap

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names: list[str] = []
    for p in pts:
        for r in [] if p.plan is None else p.plan.rows:
            if r.valid and r.power is not None and r.name not in names:
                names.append(r.name)
    rec_counts = {
        n: sum(1 for p in pts if p.plan is not None and p.plan.recommended is not None and p.plan.recommended.name == n)
        for n in names
    }
    order = sorted(names, key=lambda n: rec_counts[n])  # the most often recommended last (on top)
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(7.5, 6.2), sharex=True)
    styles = ["-", "--", "-.", ":"]
    for i, name in enumerate(order):
        xs, ps, ns = [], [], []
        for p in pts:
            row = None if p.plan is None else next((r for r in p.plan.rows if r.name == name), None)
            if row is not None and row.valid and row.power is not None:
                xs.append(p.value)
                ps.append(row.power)
                ns.append(row.required_n)
        top = i == len(order) - 1
        lw, ls = (2.6, "-") if top else (1.4, styles[i % len(styles)])
        (line,) = ax1.plot(xs, ps, lw=lw, ls=ls, label=name + ("  (recommended most often)" if top else ""))
        ax2.plot(
            [x for x, q in zip(xs, ns) if q is not None],
            [q for q in ns if q is not None],
            lw=lw,
            ls=ls,
            marker=".",
            color=line.get_color(),
        )
    target = study.power.target
    ax1.axhline(target, color="0.4", ls="--", lw=1)
    ax1.set_ylim(0, 1.02)
    ax1.set_ylabel("power at the point's n")
    if any(line.get_xydata().size for line in ax2.get_lines()):
        ax2.set_yscale("log")
    else:
        msg = f"no route reaches power {target:g} at any n up to 10^12"
        ax2.text(0.5, 0.5, msg, ha="center", transform=ax2.transAxes)
    ax2.set_ylabel(f"required n (power {target:g})")
    ax2.set_xlabel(param)
    ax1.legend(fontsize=7, loc="best")
    ax1.set_title(textwrap.fill(f"{study.name}: power and required n against {param}", 80), fontsize=9)
    for ax in (ax1, ax2):
        ax.grid(alpha=0.3, which="both")
    fig.tight_layout()
    save_figure(fig, "plot", out)


def _build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="maxinfo",
        description="Certified max-information bounds and p-value "
        "corrections for adaptive data analysis (information in bits).",
    )
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
    bo = sub.add_parser("bound", help="evaluate a result: maxinfo bound ID --param value ...", allow_abbrev=False)
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
    co.add_argument("--iid", action="store_true", help="records are i.i.d. (allows RRST Thm 1.4b and Thm 3.1)")
    co.add_argument("--mi-bits", type=float, help="mutual information bound, bits")
    co.add_argument("--range-size", type=int, help="number of possible outputs")
    co.add_argument("--json", action="store_true")
    co.set_defaults(fn=_cmd_correct)

    pl = sub.add_parser("plot", help="a result against one parameter, PNG or SVG", allow_abbrev=False)
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
    pn.add_argument(
        "--sweep",
        help="PARAM=LO:HI[:NUM]: gamma against a parameter (n, alpha, times, a step field, or steps[i].field)",
    )
    pn.add_argument("--plot", help="with --sweep: the plot file (.png or .svg)")
    pn.add_argument(
        "--workers",
        type=int,
        help="with --sweep: processes to spread the points "
        "over (default: one per free CPU, the CPUs other processes leave idle; sweeps under 256 points run in "
        "this process)",
    )
    pn.add_argument("--solve", help="the parameter to solve for (largest value; smallest n)")
    pn.add_argument("--target-gamma", type=float, help="with --solve: the threshold to reach")
    pn.add_argument(
        "--power-curve",
        metavar="FILE",
        help="plot power against n for every valid route (.png or .svg; needs a [power] table)",
    )
    pn.add_argument(
        "--solve-for",
        choices=("n", "power", "effect", "alpha", "compromise"),
        help="G*Power's question, each valid route's answer (needs a [power] table): n (a priori), power "
        "(post hoc), effect (sensitivity), alpha (criterion), compromise (with --ratio)",
    )
    pn.add_argument("--ratio", type=float, help="with --solve-for compromise: q = beta/alpha")
    pn.add_argument(
        "--report",
        metavar="FILE.md",
        help="also write the plan as markdown: headline, route table and a preregistration-ready methods "
        "paragraph citing every result ([@key] citations)",
    )
    pn.add_argument("--bib", metavar="FILE.bib", help="with --report: write the BibTeX of every source it cites")
    pn.set_defaults(fn=_cmd_plan)

    es = sub.add_parser(
        "estimate", help="reuse or split? k adaptive statistical queries: the certified half-width of every route"
    )
    es.add_argument("--study", help="an estimation study file (TOML: [data] n, iid; [estimate] queries, coverage, ...)")
    es.add_argument("--n", type=int, help="number of i.i.d. records")
    es.add_argument("--queries", type=int, help="k: number of adaptively chosen queries (values in [0, 1])")
    es.add_argument("--coverage", type=float, help="simultaneous coverage C in (0, 1), e.g. 0.95")
    es.add_argument(
        "--half-width", type=float, help="target half-width: each route's largest k and smallest n meeting it"
    )
    es.add_argument(
        "--thresholdout-budget",
        type=int,
        help="B: add Thresholdout, which stops after B answers taken from the holdout (overfitting detected)",
    )
    es.add_argument("--threshold", type=float, help="with --thresholdout-budget: Thresholdout's T (default: see docs)")
    es.add_argument(
        "--binary",
        action="store_true",
        help="every query is 0/1-valued (an accuracy, a proportion): adds splitting with the exact binomial tail",
    )
    es.add_argument(
        "--prove-extremes",
        action="store_true",
        help="with --half-width: prove, for the Gaussian routes and Thresholdout, limits no setting passes "
        "(seconds per route)",
    )
    es.add_argument("--json", action="store_true")
    es.add_argument("--brief", action="store_true", help="the table and the recommendation only (no derivations)")
    es.add_argument("--plot", help="the regime map (.png or .svg): the narrowest route over n and k")
    es.add_argument("--map-n", help="with --plot: LO:HI of n (default n/1000 : 10 n)")
    es.add_argument("--map-k", help="with --plot: LO:HI of k (default 1 : max(10 k, 1000))")
    es.add_argument("--map-points", type=int, help="with --plot: grid points per axis (default 50)")
    es.set_defaults(fn=_cmd_estimate)
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
