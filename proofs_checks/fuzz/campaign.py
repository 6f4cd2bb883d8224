"""``proofs-checks run fuzz``: every public evaluator against independent 70-digit references.

For each :class:`~.cases.Case` the campaign draws points (seeded per unit), in three input
kinds: floats; Fractions in place of the real inputs (exact rationals that are not floats:
the calculator must round each in the safe direction or keep it exact); big integers
(above 2^53) in place of integer inputs; numpy float64 / int64 scalars; float32 scalars (the
value each holds); numpy longdoubles holding values no double holds; and plain floats
evaluated with the caller's ``mpmath.mp.dps`` at 3, or while another thread keeps changing
mpmath's global precision (issue 46: :data:`KINDS`). Each point is evaluated by the scalar path and,
for float points, by the array path (one call per unit), and every output is classified:

* **wrong side** — an upper bound below the reference, or a threshold above it, by any
  amount (the reference is good to about 10^-65 relative);
* **nan**; **inf where finite** (the reference is finite and representable);
* **crash** — an exception that is not a ``ValueError`` subclass;
* **refused** — a ``ValueError`` on inputs the reference accepts; *documented* when the
  message matches a refusal the case documents (e.g. a target beta the theorem cannot reach);
* **claimed outside** — a value returned where the reference says the theorem's conditions fail;
* otherwise **ok**, with the outward slack ``|result - reference|/max(|reference|, 2^-1022)``
  (relative; a truth below the normal floats is judged against the smallest normal float).

Units of work are (case, chunk) pairs run by :func:`~proofs_checks.simulate.runner.run_units`:
resumable (a finished chunk is a line of ``fuzz.jsonl``), on all cores, with progress. The
report (``fuzz.json`` and ``fuzz.md``) records the seed, the parameters and the versions.
"""

from __future__ import annotations

import json
import math
import re
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import mpmath
import numpy as np

from ..report import versions
from ..simulate.runner import Unit, local_workers, run_units
from . import references as R
from .cases import CASES, Case

__all__ = [
    "DEFAULT_POINTS",
    "QUICK_POINTS",
    "DEFAULT_SEED",
    "CHUNK",
    "FAILURES",
    "run_chunk",
    "run",
    "passed",
    "records",
    "markdown",
]

DEFAULT_POINTS = 1_000_000
QUICK_POINTS = 20_000
DEFAULT_SEED = 20261123
#: points per unit of work (one log line)
CHUNK = 400
_EXAMPLES = 5
#: a wrong-side result must miss by more than this (relative): the references' own error
_REF_TOL = mpmath.mpf(10) ** -60
_FLOAT_MAX = mpmath.mpf(np.finfo(np.float64).max)
_TINY = mpmath.mpf(2) ** -1022
_CLASSES = (
    "ok",
    "wrong_side",
    "nan",
    "inf_where_finite",
    "crash",
    "refused",
    "refused_documented",
    "claimed_outside",
    "outside_refused",
    "reference_error",
)


def _fraction_of(rng: np.random.Generator, x: float) -> Fraction:
    """An exact rational near x that is not a float (denominator not a power of two)."""
    if x == 0.0 or not math.isfinite(x):
        return Fraction(x) if math.isfinite(x) else Fraction(10**400)
    q = int(rng.integers(3, 10**6)) | 1  # odd: p/q is a float only when q divides p
    p = round(Fraction(x) * q)
    if p == 0:
        return Fraction(1, max(2, round(1 / Fraction(x))) | 1)
    if Fraction(p, q) in (0, 1) or (Fraction(p, q) > 1) != (x > 1):
        return Fraction(x)  # do not move a value across 0 or 1 (an edge of many domains)
    return Fraction(p, q)


#: the input kinds and caller states a point is evaluated in (issue 46): floats; Fractions;
#: big integers; numpy float64 / int64 scalars; float32 (the value it holds); longdouble
#: holding a value no double does; and plain floats evaluated with the caller's mpmath at 3
#: digits, or while another thread keeps changing mpmath's global precision
KINDS = ("float", "fraction", "bigint", "numpy", "float32", "longdouble", "dps3", "thread")


def _f32(v: float) -> Any:
    """v as the float32 next to it towards 0 (so a value just below a domain's upper end stays
    below it) when that is a normal float32; else v itself."""
    with np.errstate(over="ignore"):
        w = np.float32(v)
    if np.isfinite(w) and abs(float(w)) > abs(v):
        w = np.nextafter(w, np.float32(0))
    return w if np.isfinite(w) and (v == 0 or abs(w) >= np.finfo(np.float32).tiny) else v


def _variant(case: Case, rng: np.random.Generator, x: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    u = rng.uniform()
    reals = [k for k in case.reals if isinstance(x.get(k), float)]
    if case.reals and u < 0.15:
        return "fraction", {
            k: (_fraction_of(rng, v) if k in case.reals and isinstance(v, float) else v) for k, v in x.items()
        }
    if case.ints and u < 0.25:
        return "bigint", {k: (int(rng.integers(2**53, 10**18)) | 1 if k in case.ints else v) for k, v in x.items()}
    if u < 0.32 and (reals or case.ints):
        return "numpy", {
            k: np.float64(v) if k in reals else np.int64(v) if k in case.ints and abs(int(v)) < 2**62 else v
            for k, v in x.items()
        }
    if u < 0.37 and reals:
        return "float32", {k: (_f32(v) if k in reals else v) for k, v in x.items()}
    if u < 0.42 and reals and np.finfo(np.longdouble).nmant > 52:
        # a value strictly between two doubles (its magnitude nudged down by 2^-60 relative)
        return "longdouble", {
            k: (np.longdouble(v) * (1 - np.longdouble(2) ** -60) if k in reals else v) for k, v in x.items()
        }
    if u < 0.47:
        return "dps3", x
    if u < 0.52:
        return "thread", x
    return "float", x


class _Noise:
    """Another thread that keeps setting mpmath's global precision (3 and 200 digits; the
    interval context's 10 and 53 bits) while a call runs (:meth:`during`); between calls it is
    parked and the global precision restored, so the references run undisturbed."""

    def __init__(self) -> None:
        import threading

        self._on = threading.Event()
        self._idle = threading.Lock()
        self._stop = False
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop:
            if not self._on.wait(0.05):
                continue
            with self._idle:
                if not self._on.is_set():  # cleared while this thread waited for the lock: the
                    continue  # call is over, and the caller restores the precision under the lock
                mpmath.mp.dps = 3
                mpmath.iv.prec = 10
                mpmath.mp.dps = 200
                mpmath.iv.prec = 53

    def during(self, fn: Any) -> Any:
        self._on.set()
        try:
            return fn()
        finally:
            self._on.clear()
            with self._idle:  # the thread has finished its current change and makes no other
                _default_precision()

    def close(self) -> None:
        self._stop = True
        self._thread.join()


def _default_precision() -> None:
    """mpmath's default global precisions (53 bits, both contexts): what every unit starts from
    and every caller state returns to. Restoring a saved value instead let one race of the noise
    thread (a write after the call had ended) be saved by the next call and restored for the rest
    of the process: the classification then ran at 3 digits (the first full run with every kind,
    on cdeb463: 152 false wrong-side results in one case)."""
    mpmath.mp.prec = 53
    mpmath.iv.prec = 53


def _call(case: Case, kind: str, x: dict[str, Any], noise: Any) -> Any:
    """The case's scalar call in the caller state ``kind`` asks for."""
    if kind == "dps3":
        mpmath.mp.dps = 3
        try:
            return case.call(**x)
        finally:
            _default_precision()
    if kind == "thread":
        return noise.during(lambda: case.call(**x))
    return case.call(**x)


def _classify(case: Case, out: Any, refs: tuple[Any, ...]) -> tuple[str, float]:
    """('ok', worst relative slack) or (failure class, 0), at the references' precision
    whatever the global one is."""
    with mpmath.workdps(R.DPS):
        return _classify_at(case, out, refs)


def _classify_at(case: Case, out: Any, refs: tuple[Any, ...]) -> tuple[str, float]:
    worst = 0.0
    for o, r, side in zip(out, refs, case.sides):
        o = float(o)  # noqa: PLW2901 (the output as a float from here on)
        if math.isnan(o):
            return "nan", 0.0
        if side == "exact":
            continue
        if math.isinf(o):
            if mpmath.isinf(r) or abs(r) > _FLOAT_MAX or (side == "up" and o > 0 and r > _FLOAT_MAX):
                continue
            return "inf_where_finite", 0.0
        if mpmath.isinf(r):
            return "wrong_side", 0.0  # finite where the truth is infinite
        d = mpmath.mpf(o) - r
        tol = abs(r) * _REF_TOL
        if (side == "up" and d < -tol) or (side == "down" and d > tol):
            return "wrong_side", 0.0
        # relative to the reference, or to the smallest normal float below it: a true value
        # beneath the float range rounds to 0 or 2^-1074, which is as close as a float can be
        worst = max(worst, float(abs(d) / max(abs(r), _TINY)))
    return "ok", worst


def _short(msg: str) -> str:
    return re.sub(r"\s+", " ", msg)[:300]


def _point_json(x: dict[str, Any]) -> dict[str, str]:
    return {
        k: (f"Fraction({v.numerator}, {v.denominator})" if isinstance(v, Fraction) else repr(v)) for k, v in x.items()
    }


def run_chunk(case_index: int, chunk: int, points: int, seed: int) -> dict[str, Any]:
    """Check ``points`` points of one case (seeded by (seed, case, chunk)); a JSON-able summary."""
    case = CASES[case_index]
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(case_index, chunk)))
    counts: dict[str, dict[str, int]] = {"scalar": dict.fromkeys(_CLASSES, 0), "array": dict.fromkeys(_CLASSES, 0)}
    examples: dict[str, list[dict[str, Any]]] = {}
    slack: dict[str, list[float]] = {"scalar": [], "array": []}
    worst: dict[str, dict[str, Any]] = {}
    kinds = dict.fromkeys(KINDS, 0)
    _default_precision()
    noise = _Noise()
    array_pts: list[tuple[dict[str, Any], tuple[Any, ...]]] = []

    def note(path: str, cls: str, x: dict[str, Any], detail: str) -> None:
        counts[path][cls] += 1
        lst = examples.setdefault(f"{path}/{cls}", [])
        if len(lst) < _EXAMPLES:
            lst.append({"inputs": _point_json(x), "detail": _short(detail)})

    def judge(path: str, x: dict[str, Any], out: tuple[float, ...], refs: tuple[Any, ...]) -> None:
        cls, s = _classify(case, out, refs)
        if cls != "ok":
            note(
                path,
                cls,
                x,
                f"result {tuple(float(o) for o in out)!r} reference {tuple(mpmath.nstr(r, 20) for r in refs)}",
            )
            return
        counts[path]["ok"] += 1
        slack[path].append(s)
        w = worst.get(path)
        if w is None or s > w["slack"]:
            worst[path] = {"slack": s, "inputs": _point_json(x), "result": [float(o) for o in out]}

    for _ in range(points):
        base = case.sample(rng)
        kind, x = _variant(case, rng, base)
        kinds[kind] += 1
        with mpmath.workdps(R.DPS):  # exact conversion needs the references' precision
            xm = {k: R.exact(v) if not isinstance(v, str) else v for k, v in x.items()}
        try:
            out = _call(case, kind, x, noise)
        except ValueError as e:  # noqa: PERF203 - one call per point
            out, err = None, e
        except Exception as e:  # a crash: anything that is not a ValueError subclass
            note("scalar", "crash", x, f"{type(e).__name__}: {e}")
            continue
        try:
            with mpmath.workdps(R.DPS):
                refs = case.ref(xm, out) if out is not None else case.valid(xm)
        except R.Outside as o:
            if out is None:
                counts["scalar"]["outside_refused"] += 1
            else:
                note("scalar", "claimed_outside", x, f"returned {out!r}; reference: {o}")
            continue
        except R.Marginal as m:  # (only from case.valid) valid, but a refusal is by design
            note("scalar", "refused_documented", x, f"{type(err).__name__}: {err} [{m}]")
            continue
        except R.Rejected as e:  # the output breaks a stated promise (e.g. beta above its target)
            note("scalar", "wrong_side", x, f"result {out!r}: {e}")
            continue
        except Exception as e:  # the reference itself failed: reported, never counted as ok
            note("scalar", "reference_error", x, f"{type(e).__name__}: {e}")
            continue
        if out is None:
            msg = str(err)
            reason = case.documented_reason(msg)
            note(
                "scalar",
                "refused_documented" if reason else "refused",
                x,
                f"{type(err).__name__}: {msg}" + (f" [{reason}]" if reason else ""),
            )
            continue
        judge("scalar", x, out, refs)
        if (
            kind == "float"
            and case.array is not None
            and all(isinstance(v, float) or (isinstance(v, int) and abs(v) <= 2**53) for v in x.values())
        ):
            array_pts.append((x, refs))

    noise.close()
    if array_pts and case.array is not None:
        names = list(array_pts[0][0])
        cols = {
            k: np.array(
                [p[0][k] for p in array_pts], dtype=np.int64 if isinstance(array_pts[0][0][k], int) else np.float64
            )
            for k in names
        }
        try:
            outs: Any = case.array(**cols)
            rows: list[Any] = list(zip(*[np.asarray(o, dtype=np.float64).ravel() for o in outs]))
        except ValueError:
            rows = []
            for i in range(len(array_pts)):  # attribute the refusal entry by entry
                try:
                    o1 = case.array(**{k: v[i : i + 1] for k, v in cols.items()})
                    rows.append(tuple(float(np.asarray(o).ravel()[0]) for o in o1))
                except ValueError as e:
                    rows.append(e)
                except Exception as e:
                    rows.append(RuntimeError(f"{type(e).__name__}: {e}"))
        except Exception as e:
            rows = [RuntimeError(f"{type(e).__name__}: {e}")] * len(array_pts)
        for (x, refs), row in zip(array_pts, rows):
            if isinstance(row, RuntimeError):
                note("array", "crash", x, str(row))
            elif isinstance(row, Exception):
                reason = case.documented_reason(str(row))
                note("array", "refused_documented" if reason else "refused", x, str(row))
            else:
                judge("array", x, row, refs)
    return {
        "case": case.name,
        "points": points,
        "kinds": kinds,
        "counts": counts,
        "examples": examples,
        "worst": worst,
        "slack": {p: _slack_summary(v) for p, v in slack.items()},
    }


#: the classes that fail the campaign
FAILURES = ("wrong_side", "nan", "inf_where_finite", "crash", "refused", "claimed_outside", "reference_error")


def passed(summary: dict[str, Any]) -> bool:
    """No failure of any class in any case and path."""
    return all(summary["totals"][k] == 0 for k in FAILURES)


def records(summary: dict[str, Any]) -> list[dict[str, object]]:
    """One record per case and path (for ``proofs-checks run ... --json``)."""
    out: list[dict[str, object]] = []
    for name, c in sorted(summary["cases"].items()):
        for path, cnt in c["counts"].items():
            if sum(cnt.values()) == 0:
                continue
            bad = sum(cnt[k] for k in FAILURES)
            out.append(
                {
                    "id": f"fuzz/{name}/{path}",
                    "check": "fuzz",
                    "verdict": "HOLDS" if bad == 0 else "FAILS",
                    "note": ", ".join(f"{k} {v}" for k, v in cnt.items() if v),
                }
            )
    return out


def _slack_summary(v: list[float]) -> dict[str, Any]:
    if not v:
        return {"n": 0}
    a = np.array(v)
    fin = a[np.isfinite(a)]
    return {
        "n": len(v),
        "median": float(np.median(a)),
        "max": float(a.max()),
        "p99": float(np.quantile(a, 0.99)),
        "infinite": int((~np.isfinite(a)).sum()),
        "sum_log10": float(np.log10(np.maximum(fin, 1e-300)).sum()),
        "n_finite": int(fin.size),
    }


def _allocation(points: int) -> list[int]:
    """Points per case, in proportion to the cases' weights, each rounded up (so the campaign
    checks at least ``points``; rounded to nearest, 10^6 gave 999,995)."""
    total = sum(c.weight for c in CASES)
    return [max(c.min_points, math.ceil(points * c.weight / total)) for c in CASES]


def run(
    out: Path,
    *,
    points: int = DEFAULT_POINTS,
    seed: int = DEFAULT_SEED,
    workers: int | None = None,
    progress: bool = True,
    fresh: bool = False,
) -> dict[str, Any]:
    """Run (or resume) the campaign; write ``fuzz.json`` and ``fuzz.md`` to ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    units = []
    for ci, n in enumerate(_allocation(points)):
        for j in range(math.ceil(n / CHUNK)):
            units.append(
                Unit(
                    key=f"{ci}:{j}",
                    func=run_chunk,
                    kwargs={"case_index": ci, "chunk": j, "points": min(CHUNK, n - j * CHUNK), "seed": seed},
                    seed={"seed": seed, "spawn_key": [ci, j]},
                    params={"case": CASES[ci].name},
                )
            )
    config = {
        "campaign": "fuzz",
        "points": points,
        "seed": seed,
        "chunk": CHUNK,
        "reference_dps": R.DPS,
        "cases": [c.name for c in CASES],
    }
    t0 = time.monotonic()
    recs = run_units(
        units, out / "fuzz.jsonl", config, workers=local_workers(workers), label="fuzz", progress=progress, fresh=fresh
    )
    summary = _merge([r["result"] for r in recs.values()])
    summary.update(parameters=config, versions=versions(), seconds=round(time.monotonic() - t0, 1))
    (out / "fuzz.json").write_text(json.dumps(summary, indent=1))
    (out / "fuzz.md").write_text(markdown(summary))
    return summary


def _merge(results: list[dict[str, Any]]) -> dict[str, Any]:
    by: dict[str, dict[str, Any]] = {}
    for r in results:
        c = by.setdefault(r["case"], {"points": 0, "kinds": {}, "counts": {}, "examples": {}, "worst": {}, "slack": {}})
        c["points"] += r["points"]
        for k, v in r["kinds"].items():
            c["kinds"][k] = c["kinds"].get(k, 0) + v
        for path, cnt in r["counts"].items():
            dst = c["counts"].setdefault(path, dict.fromkeys(_CLASSES, 0))
            for k, v in cnt.items():
                dst[k] += v
        for k, v in r["examples"].items():
            lst = c["examples"].setdefault(k, [])
            lst.extend(v[: max(0, _EXAMPLES - len(lst))])
        for path, w in r["worst"].items():
            if path not in c["worst"] or w["slack"] > c["worst"][path]["slack"]:
                c["worst"][path] = w
        for path, s in r["slack"].items():
            d = c["slack"].setdefault(path, {"n": 0, "max": 0.0, "medians": [], "infinite": 0})
            if s["n"]:
                d["n"] += s["n"]
                d["max"] = max(d["max"], s["max"])
                d["medians"].append(s["median"])
                d["infinite"] += s["infinite"]
    totals = dict.fromkeys(_CLASSES, 0)
    evaluations = 0
    for c in by.values():
        for d in c["slack"].values():
            meds = d.pop("medians")
            d["median_of_chunk_medians"] = float(np.median(meds)) if meds else None
        for cnt in c["counts"].values():
            for k, v in cnt.items():
                totals[k] += v
                evaluations += v
    return {"points": sum(c["points"] for c in by.values()), "evaluations": evaluations, "totals": totals, "cases": by}


def markdown(s: dict[str, Any]) -> str:
    """The report as markdown: totals, then one row per case and path, then the examples."""
    p = s["parameters"]
    t = s["totals"]
    lines = [
        "# Fuzz campaign: every evaluator against 70-digit references",
        "",
        f"{s['points']:,} input points, {s['evaluations']:,} evaluations (scalar + array paths); "
        f"seed {p['seed']}, references at {p['reference_dps']} digits; {s.get('seconds', '?')} s.",
        f"Versions: {', '.join(f'{k} {v}' for k, v in s['versions'].items())}.",
        "",
        "| wrong side | NaN | inf where finite | crashes | refused (undocumented) | "
        "refused (documented) | claimed outside conditions | ok |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        f"| {t['wrong_side']} | {t['nan']} | {t['inf_where_finite']} | {t['crash']} | "
        f"{t['refused']} | {t['refused_documented']} | {t['claimed_outside']} | {t['ok']:,} |",
        "",
        "| case | path | points | ok | wrong side | NaN | inf | crash | refused | documented | "
        "claimed outside | slack median | slack max |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, c in sorted(s["cases"].items()):
        for path, cnt in c["counts"].items():
            if sum(cnt.values()) == 0:
                continue
            sl = c["slack"].get(path, {})
            med = sl.get("median_of_chunk_medians")
            lines.append(
                f"| {name} | {path} | {sum(cnt.values()):,} | {cnt['ok']:,} | {cnt['wrong_side']} | "
                f"{cnt['nan']} | {cnt['inf_where_finite']} | {cnt['crash']} | {cnt['refused']} | "
                f"{cnt['refused_documented']} | {cnt['claimed_outside']} | "
                f"{'' if med is None else f'{med:.1e}'} | {sl.get('max', 0.0):.1e} |"
            )
    lines += [
        "",
        "Slack is the outward relative distance |result - reference|/max(|reference|, 2^-1022) "
        "(median of the chunks' medians; maximum).",
        "",
    ]
    for name, c in sorted(s["cases"].items()):
        ex = {k: v for k, v in c["examples"].items() if not k.endswith("refused_documented")}
        if not ex:
            continue
        lines.append(f"## {name}")
        for k, v in sorted(ex.items()):
            for e in v:
                lines.append(f"- `{k}` {e['inputs']}: {e['detail']}")
        lines.append("")
    return "\n".join(lines) + "\n"
