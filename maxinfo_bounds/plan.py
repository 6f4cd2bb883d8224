r"""The study planner: from a described adaptive analysis to a valid p-value threshold.

A study is the data (n; i.i.d. or not), the steps of the analysis in order (each possibly
repeated ``times`` adaptively) and the final test's significance ``alpha``. :func:`plan` tries
every valid route to a max-information bound (k bits, β) of the whole analysis, optimises the split
of β across its stages, and returns the route with the largest corrected threshold
γ(α) = (α − β)/2^k (RRST Thm 1.3), with the derivation (theorem ids, inputs, outputs, conditions).

Routes (each where its conditions hold):

* **max-information composition** (RRST Thm A.3 = DFHPRR Lemma 5): the steps are cut into
  stages: each maximal run of consecutive DP steps is one stage, DP-composed (basic composition:
  Dwork–Roth Thm 3.16); each maximal run of consecutive description-length steps is one stage
  whose range is the product of the ranges (DFHPRR Thm 6); each mutual-information step is one
  stage (RRST Lemma 1.5). A pure-DP stage uses RRST Thm 1.4a (any data) or, if it is the first
  stage and the data are i.i.d., the better of Thm 1.4a and 1.4b; an approximate-DP stage uses
  RRST Thm 3.1 and is only allowed as the **first** stage on i.i.d. data (RRST §4: a later stage
  sees data conditioned on earlier outputs; Thm 4.1 shows no bound can hold there).
* **DP first stage, tighter composition**: as above, but the first DP stage is composed by
  advanced composition (Dwork–Roth Thm 3.20) or, for identical steps, optimally (KOV15 Thm 3.3)
  at a few total δ, then converted by RRST Thm 3.1 (i.i.d. data only).
* **mutual information** (chain rule, RRST Cor C.2): when no stage is approximate DP, each stage's
  MI is bounded (pure DP: I ≤ I_∞ ≤ Thm 1.4a's k; description: log2 of the range; MI steps: as
  given), summed, and corrected by RRST Cor C.2 (optimal variant).

Plans in which an approximate-DP step follows a non-DP step (or the data are not i.i.d.) have no
valid route for that step and are refused with the reason (:class:`PlanError`).

The study file format (TOML) is documented in ``docs/planner.md``; see ``examples/``.

>>> study = Study(n=10_000, iid=True, alpha=0.05, steps=(Step("description", {"range_size": 1000}),))
>>> r = plan(study)
>>> r.route, round(r.gamma, 10)           # DFHPRR Thm 6 at beta = alpha/2: alpha^2 / (4 * 1000)
('max-information composition', 6.25e-07)
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
from scipy.optimize import minimize, minimize_scalar

from .catalog import Bound
from .numeric import InvalidParameter, RegimeError, check_real, float_up
from .theorems.composition import compose_max_information
from .theorems.description import description_length_max_information
from .theorems.dp_accounting import (
    DPGuarantee,
    compose_dp,
    exponential_mechanism_epsilon,
    gaussian_epsilon,
    laplace_epsilon,
    _kov_eps_float,
    optimal_composition,
    report_noisy_max_epsilon,
    sparse_vector,
    sparse_vector_scales,
)
from .theorems.holdout import thresholdout_dp
from .theorems.maxinfo_dp import (
    approx_dp_max_information,
    pure_dp_max_information,
    pure_dp_max_information_product,
)
from .theorems.mutual_info import mi_to_approx_max_information
from .theorems.pvalues import mi_pvalue_correction, pvalue_correction

__all__ = ["PlanError", "Step", "Study", "Link", "Comparison", "PlanResult", "plan", "load_study",
           "parse_study", "sweep", "solve", "STEP_TYPES"]

_LOG2E = 1.0 / math.log(2.0)


class PlanError(InvalidParameter):
    """A study that is malformed, or has no valid route (names the file, key and what is allowed)."""

    def __init__(self, where: str, message: str) -> None:
        ValueError.__init__(self, f"{where}: {message}")
        self.name, self.value, self.allowed = where, None, message


# ------------------------------------------------------------------------------------------
# Study description
# ------------------------------------------------------------------------------------------

#: step type -> (required keys (any one alternative set), optional keys, description)
STEP_TYPES: dict[str, tuple[tuple[tuple[str, ...], ...], tuple[str, ...], str]] = {
    "laplace": ((("sensitivity", "eps"), ("sensitivity", "scale")), ("times",),
                "Laplace noise on a query of L1 sensitivity `sensitivity`: eps, or the scale b"),
    "gaussian": ((("sensitivity", "sigma", "delta"),), ("times",),
                 "Gaussian noise N(0, sigma^2) on a query of L2 sensitivity; delta chooses the "
                 "point of its exact (Balle-Wang) privacy curve"),
    "exponential": ((("eps",), ("sensitivity", "coefficient")), ("times", "monotone"),
                    "exponential mechanism: eps, or the coefficient c of exp(c u) with the "
                    "score's sensitivity"),
    "report_noisy_max": ((("eps",), ("sensitivity", "scale")), ("times", "monotone"),
                         "report noisy max with Laplace noise: eps, or the scale and sensitivity"),
    "sparse_vector": ((("c", "eps"), ("c", "threshold_scale", "query_scale")),
                      ("times", "delta", "sensitivity"),
                      "AboveThreshold with c positive answers (Dwork-Roth 'Sparse')"),
    "thresholdout": ((("budget", "sigma"),), ("times", "holdout_n"),
                     "Thresholdout on the study's data as holdout (budget B, noise rate sigma)"),
    "dp": ((("eps",),), ("times", "delta"), "a generic (eps, delta)-DP step (delta default 0)"),
    "description": ((("range_size",),), ("times",), "an output taking one of range_size values"),
    "mutual_information": ((("mi_bits",),), ("times",),
                           "a step whose output has mutual information at most mi_bits with the data"),
}


@dataclass(frozen=True)
class Step:
    """One analysis step: its type (a key of :data:`STEP_TYPES`) and parameters."""

    type: str
    params: Mapping[str, Any]
    times: int = 1
    label: str = ""


@dataclass(frozen=True)
class Study:
    """A planned study. ``family_size`` is the size of a pre-declared test family (Bonferroni)."""

    n: int
    iid: bool
    alpha: float
    steps: tuple[Step, ...]
    family_size: int | None = None
    name: str = "study"
    source: str = "<study>"


def _where(src: str, key: str) -> str:
    return f"{src}: {key}"


def _num(src: str, key: str, v: Any, *, low: float = 0.0, high: float | None = None,
         low_open: bool = True, high_open: bool = False) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise PlanError(_where(src, key), f"must be a number, got {v!r}")
    try:
        return float(check_real(key, v, low=low, high=high, low_open=low_open, high_open=high_open))
    except InvalidParameter as exc:
        raise PlanError(_where(src, key), f"{v!r} is invalid: must be in {exc.allowed}") from None


def _int(src: str, key: str, v: Any, *, low: int = 1) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise PlanError(_where(src, key), f"must be an integer >= {low}, got {v!r}")
    if v < low:
        raise PlanError(_where(src, key), f"{v!r} is invalid: must be an integer >= {low}")
    return v


def parse_study(doc: Mapping[str, Any], source: str = "<study>") -> Study:
    """Validate a parsed study document (the TOML's tables) into a :class:`Study`."""
    allowed_top = {"study", "data", "steps", "test"}
    for key in doc:
        if key not in allowed_top:
            raise PlanError(_where(source, key), f"unknown table; allowed: {', '.join(sorted(allowed_top))}")
    meta = doc.get("study", {})
    if not isinstance(meta, Mapping):
        raise PlanError(_where(source, "study"), "must be a table")
    for key in meta:
        if key not in ("name", "family_size"):
            raise PlanError(_where(source, f"study.{key}"), "unknown key; allowed: name, family_size")
    data = doc.get("data")
    if not isinstance(data, Mapping):
        raise PlanError(_where(source, "data"), "missing table [data] with n and iid")
    for key in data:
        if key not in ("n", "iid"):
            raise PlanError(_where(source, f"data.{key}"), "unknown key; allowed: n, iid")
    if "n" not in data:
        raise PlanError(_where(source, "data.n"), "missing: the number of records (integer >= 1)")
    n = _int(source, "data.n", data["n"])
    iid = data.get("iid", False)
    if not isinstance(iid, bool):
        raise PlanError(_where(source, "data.iid"), f"must be true or false, got {iid!r}")
    test = doc.get("test")
    if not isinstance(test, Mapping) or "alpha" not in test:
        raise PlanError(_where(source, "test.alpha"), "missing: the final test's significance in (0, 1)")
    for key in test:
        if key not in ("alpha",):
            raise PlanError(_where(source, f"test.{key}"), "unknown key; allowed: alpha")
    alpha = _num(source, "test.alpha", test["alpha"], high=1.0, high_open=True)
    raw_steps = doc.get("steps")
    if not isinstance(raw_steps, list) or not raw_steps:
        raise PlanError(_where(source, "steps"), "missing: at least one [[steps]] table")
    steps = tuple(_parse_step(source, i, s) for i, s in enumerate(raw_steps))
    fam = meta.get("family_size")
    return Study(n=n, iid=iid, alpha=alpha, steps=steps,
                 family_size=None if fam is None else _int(source, "study.family_size", fam),
                 name=str(meta.get("name", Path(source).stem)), source=source)


def _parse_step(src: str, i: int, raw: Any) -> Step:
    at = f"steps[{i}]"
    if not isinstance(raw, Mapping):
        raise PlanError(_where(src, at), "must be a table")
    typ = raw.get("type")
    if typ not in STEP_TYPES:
        raise PlanError(_where(src, f"{at}.type"),
                        f"{typ!r} is not a step type; allowed: {', '.join(STEP_TYPES)}")
    alts, optional, _ = STEP_TYPES[typ]
    known = {k for alt in alts for k in alt} | set(optional) | {"type", "label"}
    for key in raw:
        if key not in known:
            raise PlanError(_where(src, f"{at}.{key}"),
                            f"unknown key for type {typ!r}; allowed: {', '.join(sorted(known - {'type'}))}")
    if not any(all(k in raw for k in alt) for alt in alts):
        need = " or ".join("(" + ", ".join(alt) + ")" for alt in alts)
        raise PlanError(_where(src, at), f"type {typ!r} needs {need}")
    params: dict[str, Any] = {}
    for key, v in raw.items():
        if key in ("type", "label", "times"):
            continue
        if key == "monotone":
            if not isinstance(v, bool):
                raise PlanError(_where(src, f"{at}.monotone"), f"must be true or false, got {v!r}")
            params[key] = v
        elif key in ("range_size", "c", "budget", "holdout_n"):
            params[key] = _int(src, f"{at}.{key}", v)
        elif key == "delta":
            params[key] = _num(src, f"{at}.delta", v, high=1.0, low_open=typ == "gaussian",
                               high_open=True)
        elif key == "mi_bits":
            params[key] = _num(src, f"{at}.mi_bits", v, low_open=False)
        else:
            params[key] = _num(src, f"{at}.{key}", v)
    times = _int(src, f"{at}.times", raw.get("times", 1))
    if times > MAX_TIMES:
        raise PlanError(_where(src, f"{at}.times"), f"{times} is invalid: must be at most {MAX_TIMES}")
    return Step(typ, params, times, str(raw.get("label", f"{at} ({typ})")))


def load_study(path: str | Path) -> Study:
    """Read and validate a study file (TOML)."""
    p = Path(path)
    try:
        with p.open("rb") as fh:
            doc = tomllib.load(fh)
    except FileNotFoundError:
        raise PlanError(str(p), "file not found") from None
    except tomllib.TOMLDecodeError as exc:
        raise PlanError(str(p), f"not valid TOML ({exc})") from None
    return parse_study(doc, str(p))


# ------------------------------------------------------------------------------------------
# Steps -> guarantees
# ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Link:
    """One line of the derivation: theorem ids, inputs, the result and the conditions checked."""

    what: str
    theorems: tuple[str, ...]
    inputs: str
    output: str
    conditions: tuple[str, ...] = ()


def _step_dp(study: Study, i: int, st: Step) -> tuple[DPGuarantee, Link]:
    """The (eps, delta)-DP guarantee of one execution of a DP step."""
    p = st.params
    at = _where(study.source, f"steps[{i}]")
    try:
        if st.type == "laplace":
            e = (laplace_epsilon(p["sensitivity"], p["scale"]) if "scale" in p
                 else float(p["eps"]))
            g = DPGuarantee(e, 0.0, "DR-3.6")
        elif st.type == "gaussian":
            e = gaussian_epsilon(p["sigma"], p["sensitivity"], p["delta"])
            g = DPGuarantee(e, float(p["delta"]), "BW18-8")
        elif st.type == "exponential":
            g = (DPGuarantee(float(p["eps"]), 0.0, "DR-3.10") if "eps" in p else
                 exponential_mechanism_epsilon(p["sensitivity"], p["coefficient"],
                                               monotone=p.get("monotone", False)))
        elif st.type == "report_noisy_max":
            g = (DPGuarantee(float(p["eps"]), 0.0, "DR-3.9") if "eps" in p else
                 report_noisy_max_epsilon(p["sensitivity"], p["scale"],
                                          monotone=p.get("monotone", False)))
        elif st.type == "sparse_vector":
            d = float(p.get("delta", 0.0))
            if "eps" in p:
                b1, b2 = sparse_vector_scales(p["c"], p["eps"], sensitivity=p.get("sensitivity", 1.0),
                                              delta=d)
            else:
                b1, b2 = p["threshold_scale"], p["query_scale"]
            g = sparse_vector(p["c"], b1, b2, sensitivity=p.get("sensitivity", 1.0), delta=d)
        elif st.type == "thresholdout":
            hn = p.get("holdout_n", study.n)
            if hn != study.n:
                raise PlanError(_where(study.source, f"steps[{i}].holdout_n"),
                                f"{hn} differs from data.n = {study.n}: describe the holdout set "
                                "(the data the final test uses) in [data]")
            g = thresholdout_dp(p["budget"], p["sigma"], hn)
        else:  # "dp"
            g = DPGuarantee(float(p["eps"]), float(p.get("delta", 0.0)), "given")
    except PlanError:
        raise
    except InvalidParameter as exc:
        raise PlanError(at, str(exc)) from None
    inputs = ", ".join(f"{k}={v!r}" for k, v in p.items())
    return g, Link(st.label or f"steps[{i}] ({st.type})", (g.theorem,), inputs, f"({g.eps!r}, {g.delta!r})-DP per run",
                   g.conditions)


_DP_TYPES = {"laplace", "gaussian", "exponential", "report_noisy_max", "sparse_vector",
             "thresholdout", "dp"}


@dataclass
class _Stage:
    kind: str                      # "dp" | "description" | "mi"
    steps: list[int]
    links: list[Link]
    dp: list[tuple[float, float, int]] = field(default_factory=list)   # (eps, delta, runs)
    range_size: int = 1
    mi_bits: float = 0.0

    @property
    def pure(self) -> bool:
        return all(d == 0 for _, d, _ in self.dp)

    @property
    def runs(self) -> int:
        return sum(c for _, _, c in self.dp)

    def basic(self) -> DPGuarantee:
        """Basic composition (Dwork-Roth Thm 3.16) of the counted runs, exact sums rounded up."""
        e = float_up(sum((c * Fraction(x) for x, _, c in self.dp), Fraction(0)))
        d = float_up(sum((c * Fraction(y) for _, y, c in self.dp), Fraction(0)))
        return DPGuarantee(e, min(d, 1.0), "DR-3.16", (f"{self.runs} adaptive steps",))


def _stages(study: Study) -> list[_Stage]:
    stages: list[_Stage] = []
    for i, st in enumerate(study.steps):
        kind = "dp" if st.type in _DP_TYPES else ("description" if st.type == "description" else "mi")
        if kind == "dp":
            g, link = _step_dp(study, i, st)
            if stages and stages[-1].kind == "dp":
                s = stages[-1]
            else:
                s = _Stage("dp", [], [])
                stages.append(s)
            s.steps.append(i)
            s.links.append(replace(link, output=link.output + (f", x{st.times} adaptively"
                                                               if st.times > 1 else "")))
            s.dp.append((g.eps, g.delta, st.times))
        elif kind == "description":
            if stages and stages[-1].kind == "description":
                s = stages[-1]
            else:
                s = _Stage("description", [], [])
                stages.append(s)
            rs = int(st.params["range_size"])
            if (s.range_size.bit_length() + st.times * math.log2(max(rs, 1))) > _MAX_DESCRIPTION_BITS:
                raise PlanError(_where(study.source, f"steps[{i}]"),
                                f"the description stage would have more than "
                                f"{_MAX_DESCRIPTION_BITS} bits of output (range_size^times): its "
                                "max-information bound is vacuous; lower range_size or times")
            m = rs ** st.times
            s.steps.append(i)
            s.range_size *= m
            s.links.append(Link(st.label or f"steps[{i}] ({st.type})", ("DFHPRR-6",), f"range_size={st.params['range_size']}"
                                f", times={st.times}", f"{m} possible outputs"))
        else:
            m_total = float_up(Fraction(st.params["mi_bits"]) * st.times)
            stages.append(_Stage("mi", [i], [Link(st.label or f"steps[{i}] ({st.type})", ("RRST-1.5a",),
                                                  f"mi_bits={st.params['mi_bits']!r}, times={st.times}",
                                                  f"I <= {m_total!r} bits (chain rule)")],
                                 mi_bits=m_total))
    return stages


# ------------------------------------------------------------------------------------------
# Routes
# ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Comparison:
    """A comparison row: another way to pick the threshold, and what it costs or assumes."""

    method: str
    threshold: float
    valid: bool
    note: str


@dataclass(frozen=True)
class PlanResult:
    """The planner's answer: γ(α) rounded down, the overall (k bits, β), and the derivation."""

    study: str
    alpha: float
    gamma: float
    k: float | None
    beta: float | None
    route: str
    chain: tuple[Link, ...]
    comparisons: tuple[Comparison, ...]
    candidates: tuple[tuple[str, float | None, str], ...]
    notes: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "study": self.study, "alpha": self.alpha, "gamma": self.gamma, "k_bits": self.k,
            "beta": self.beta, "route": self.route,
            "chain": [{"what": c.what, "theorems": list(c.theorems), "inputs": c.inputs,
                       "output": c.output, "conditions": list(c.conditions)} for c in self.chain],
            "comparisons": [{"method": c.method, "threshold": c.threshold, "valid": c.valid,
                             "note": c.note} for c in self.comparisons],
            "candidates": [{"route": r, "gamma": g, "note": n} for r, g, n in self.candidates],
            "notes": list(self.notes),
        }


class _Curve:
    """A stage's (k, β) trade-off: float surrogate ``k_of(beta)`` and certified ``bound(beta)``.

    ``fixed`` curves do not depend on β (their bound has β = 0 or a fixed β)."""

    def __init__(self, name: str, k_of: Callable[[float], float] | None,
                 bound: Callable[[float], Bound], links: list[Link], family: str = "first",
                 weight: float = 1.0) -> None:
        self.name, self.k_of, self.bound, self.links = name, k_of, bound, links
        #: curves of one family share one optimisation variable x, with beta = x * weight
        self.family, self.weight = family, weight


def _thm31_float_k(eps: float, delta: float, n: int, beta: float) -> float:
    """Float surrogate of RRST Thm 3.1's optimised k at a target beta (1e300 if unreachable)."""
    from .theorems.maxinfo_dp import _NpMath, _thm31_candidates, _thm31_parts, _thm31_regime

    best = 1e300
    f = np.float64
    for tt, dh in _thm31_candidates(eps, delta, n, beta, "sound"):
        if _thm31_regime(eps, delta, dh, "sound"):
            continue
        with np.errstate(all="ignore"):
            k, b = _thm31_parts(_NpMath, f(eps), f(delta), f(n), f(tt), f(dh), "sound")
        if float(b) <= beta and math.isfinite(float(k)):
            best = min(best, float(k))
    return best


def _dp_stage_curve(stage: _Stage, n: int, first: bool, iid: bool, g: DPGuarantee,
                    comp_link: Link) -> _Curve:
    links = [*stage.links, comp_link]
    if g.delta > 0:
        def kb(b: float) -> Bound:
            out: Bound = approx_dp_max_information(g.eps, g.delta, n, beta=b)
            return out

        def kf(b: float) -> float:
            return _thm31_float_k(g.eps, g.delta, n, b)
        return _Curve("RRST-3.1", kf, kb, links)
    k_any = pure_dp_max_information(g.eps, n)
    if first and iid and g.eps > 0:
        e = g.eps

        def kf2(b: float) -> float:
            return min(float(k_any.k), _LOG2E * (e * e * n / 2 + e * math.sqrt(n * math.log(2 / b) / 2)))

        def kb2(b: float) -> Bound:
            prod: Bound = pure_dp_max_information_product(e, n, b)
            return prod if prod.k < k_any.k else k_any
        return _Curve("RRST-1.4a/1.4b", kf2, kb2, links)
    return _Curve("RRST-1.4a", None, lambda b: k_any, links)


def _optimise(alpha: float, curves: list[_Curve]) -> list[float]:
    """β per curve maximising log2(α − Σβ) − Σk(β) (float surrogate; the result is certified
    afterwards, so the optimiser needs none). Curves without a β trade-off get β = 0.

    Curves of one family share a variable x (β = x · weight): for description-length stages
    (k = log2 m − log2 β) the Lagrange condition makes every β equal; for mutual-information
    stages (k ≈ (m + 0.54)/β) it makes β proportional to sqrt(m + 0.54). So at most three
    variables (first DP stage, descriptions, MI stages), whatever the number of stages.
    """
    idx = [i for i, c in enumerate(curves) if c.k_of is not None]
    betas = [0.0] * len(curves)
    if not idx:
        return betas
    fams = sorted({curves[i].family for i in idx})
    fam_of = [fams.index(curves[i].family) for i in idx]
    weights = np.array([curves[i].weight for i in idx])
    wsum = np.array([weights[[j for j, f in enumerate(fam_of) if f == q]].sum()
                     for q in range(len(fams))])

    def obj(x: np.ndarray) -> float:
        xs = np.exp(x)
        bs = xs[fam_of] * weights
        rest = alpha - float(np.sum(bs))
        if rest <= 0 or not np.all(np.isfinite(bs)):
            return 1e300
        tot = 0.0
        for j, i in enumerate(idx):
            k_of = curves[i].k_of
            assert k_of is not None
            tot += k_of(float(bs[j]))
        return tot - math.log2(rest)

    x0 = np.log(alpha / (2 * len(fams) * wsum))
    if len(fams) == 1:
        lo, hi = float(x0[0]) - 60, float(math.log(alpha / wsum[0])) - 1e-9
        grid = np.linspace(lo, hi, 13)
        start = float(min(grid, key=lambda t: obj(np.array([t]))))
        step = (hi - lo) / 12
        res = minimize_scalar(lambda t: obj(np.array([t])),
                              bounds=(max(lo, start - step), min(hi, start + step)),
                              method="bounded", options={"xatol": 1e-4})
        cands = [np.array([float(res.x)]), np.array([start]), x0]
    else:
        res = minimize(obj, x0, method="Nelder-Mead",
                       options={"xatol": 1e-6, "fatol": 1e-9, "maxiter": 400 * len(fams)})
        cands = [np.asarray(res.x), x0]
    best = min(cands, key=obj)
    for j, i in enumerate(idx):
        betas[i] = float(math.exp(best[fam_of[j]]) * weights[j])
    return betas


def _certify(alpha: float, curves: list[_Curve], betas: list[float]) -> tuple[float, Bound, list[Bound]]:
    bounds = []
    for c, b in zip(curves, betas):
        bounds.append(c.bound(b) if c.k_of is not None else c.bound(0.0))
    total = compose_max_information(bounds)
    return pvalue_correction(alpha, total.k, total.beta), total, bounds


def _maxinfo_route(study: Study, stages: list[_Stage], first_dp: DPGuarantee | None,
                   first_link: Link | None, name: str) -> tuple[float, PlanResult | None, str]:
    curves: list[_Curve] = []
    for j, s in enumerate(stages):
        if s.kind == "dp":
            if j == 0 and first_dp is not None and first_link is not None:
                g, link = first_dp, first_link
            else:
                g = s.basic()
                link = Link("DP composition of the stage", ("DR-3.16",),
                            f"{s.runs} adaptive runs", f"({g.eps!r}, {g.delta!r})-DP",
                            g.conditions)
            if g.delta > 0 and (j > 0 or not study.iid):
                first_step = s.steps[0]
                why = ("the data are not i.i.d. (set data.iid = true only if the records are i.i.d.)"
                       if not study.iid else
                       f"it follows steps[{stages[j - 1].steps[-1]}] ({study.steps[stages[j - 1].steps[-1]].type})"
                       ", whose output the analysis conditions on")
                return 0.0, None, (f"steps[{first_step}] is approximate DP: RRST Thm 3.1 bounds its "
                                   f"max-information only for i.i.d. data and as the first stage "
                                   f"(RRST §4, Thm 4.1), but {why}")
            curves.append(_dp_stage_curve(s, study.n, j == 0, study.iid, g, link))
        elif s.kind == "description":
            m = s.range_size

            def kf(b: float, m: int = m) -> float:
                return math.log2(m) - math.log2(b)

            def kb_d(b: float, m: int = m) -> Bound:
                bd: Bound = description_length_max_information(m, b)
                return bd

            curves.append(_Curve("DFHPRR-6", kf, kb_d, s.links, family="desc"))
        else:
            mi = s.mi_bits

            # parametrised by beta through the paper's closed form k = (m + 0.54)/beta
            def kf_mi(b: float, mi: float = mi) -> float:
                return (mi + 0.54) / b

            def kb_mi(b: float, mi: float = mi) -> Bound:
                bd: Bound = mi_to_approx_max_information(mi, float_up(Fraction(mi + 0.54) / Fraction(b))
                                                         if b > 0 else 1e300)
                return bd
            curves.append(_Curve("RRST-1.5a", kf_mi, kb_mi, s.links, family="mi",
                                 weight=math.sqrt(mi + 0.54)))
    betas = _optimise(study.alpha, curves)
    if any(c.k_of is not None and c.k_of(b) >= 1e299 for c, b in zip(curves, betas)):
        return 0.0, None, "no beta below alpha is reachable by every stage"
    try:
        gamma, total, bounds = _certify(study.alpha, curves, betas)
    except (InvalidParameter, RegimeError) as exc:
        return 0.0, None, f"not certifiable: {exc}"
    chain: list[Link] = []
    for c, b in zip(curves, bounds):
        chain.extend(c.links)
        chain.append(Link("max-information of the stage", (b.theorem,),
                          f"beta={b.beta!r}", f"k <= {b.k!r} bits",
                          b.conditions + (("product inputs: first stage, i.i.d. data",)
                                          if b.product_only else ())))
    chain.append(Link("composition over stages", ("RRST-A.3",), f"{len(bounds)} stages",
                      f"k = {total.k!r} bits, beta = {total.beta!r}",
                      ("only the first stage product-only",)))
    chain.append(Link("p-value correction", ("RRST-1.3",), f"alpha={study.alpha!r}",
                      f"gamma = {gamma!r}", ("gamma = (alpha - beta) / 2^k, rounded down",)))
    res = PlanResult(study.name, study.alpha, gamma, total.k, total.beta, name, tuple(chain), (), ())
    return gamma, res, ""


def _mi_route(study: Study, stages: list[_Stage]) -> tuple[float, PlanResult | None, str]:
    total = Fraction(0)
    chain: list[Link] = []
    for s in stages:
        if s.kind == "dp":
            if not s.pure:
                return 0.0, None, "an approximate-DP stage has no mutual-information bound here"
            g = s.basic()
            k = pure_dp_max_information(g.eps, study.n).k
            chain += [*s.links, Link("MI of the stage", ("DR-3.16", "RRST-1.4a"),
                                     f"eps={g.eps!r}, n={study.n}", f"I <= I_inf <= {k!r} bits")]
            total += Fraction(k)
        elif s.kind == "description":
            m = float_up(Fraction(math.log2(s.range_size)) * (1 + Fraction(1, 2**50)))
            chain += [*s.links, Link("MI of the stage", ("entropy",), f"range {s.range_size}",
                                     f"I <= log2(range) <= {m!r} bits")]
            total += Fraction(m)
        else:
            chain += s.links
            total += Fraction(s.mi_bits)
    m_tot = float_up(total)
    gamma = mi_pvalue_correction(study.alpha, m_tot)
    chain.append(Link("chain rule and correction", ("RRST-C.2",), f"I <= {m_tot!r} bits",
                      f"gamma = {gamma!r}", ("optimal variant",)))
    return gamma, PlanResult(study.name, study.alpha, gamma, None, None, "mutual information",
                             tuple(chain), (), ()), ""


_DELTA_GRID = (1e-12, 1e-20, 1e-30)
#: the tight (advanced / optimal) composition of the first stage is tried up to this many runs
_TIGHT_MAX_RUNS = 10_000
#: a description stage above this many bits of output is refused (its bound is vacuous)
_MAX_DESCRIPTION_BITS = 100_000
#: the largest ``times`` of a step (also the default upper end of ``solve``)
MAX_TIMES = 10**9


def _pruned(study: Study, eps: float, results: list[tuple[float, PlanResult]],
            cands: list[tuple[str, float | None, str]], dt: float) -> bool:
    """Skip an RRST Thm 3.1 route that cannot beat the best route found so far.

    Thm 3.1's k >= n c (e^{6 eps} - 1) + c t sqrt(n), c = 6 eps log2 e, and t >=
    sqrt(2 ln(1/alpha)) since beta >= e^{-t^2/2} must stay below alpha; no route gives gamma above
    alpha 2^-k. (With a float estimate of eps, shrunk by 0.1%, this is only a time saver: skipping
    a route never makes the returned gamma invalid.)
    """
    if eps > 0.5:
        cands.append((f"DP first stage at delta={dt!r} (RRST-3.1)", None,
                      f"composed eps {eps!r} > 1/2: outside RRST Thm 3.1"))
        return True
    c6 = 6 * eps * _LOG2E
    k_floor = (study.n * c6 * math.expm1(6 * eps)
               + c6 * math.sqrt(2 * math.log(1 / study.alpha)) * math.sqrt(study.n))
    best_g = max((r[0] for r in results), default=0.0)
    if best_g > 0 and study.alpha * 2.0 ** (-k_floor) * (1 + 1e-9) < best_g:
        cands.append((f"DP first stage at delta={dt!r} (RRST-3.1)", None,
                      f"cannot beat the best route: k >= {k_floor:.4g} bits"))
        return True
    return False


def plan(study: Study) -> PlanResult:
    """The largest certified γ(α) over every valid route, with its derivation (see module doc)."""
    if not isinstance(study, Study):
        raise InvalidParameter("study", study, "a Study (see load_study / parse_study)")
    stages = _stages(study)
    cands: list[tuple[str, float | None, str]] = []
    results: list[tuple[float, PlanResult]] = []

    def consider(name: str, out: tuple[float, PlanResult | None, str]) -> None:
        g, res, why = out
        cands.append((name, g if res is not None else None, why))
        if res is not None:
            results.append((g, res))

    consider("max-information composition", _maxinfo_route(study, stages, None, None,
                                                           "max-information composition"))
    s0 = stages[0]
    if s0.kind == "dp" and study.iid and s0.runs > _TIGHT_MAX_RUNS:
        cands.append(("tight DP composition of the first stage", None,
                      f"skipped: more than {_TIGHT_MAX_RUNS} runs (basic composition used)"))
    elif s0.kind == "dp" and study.iid and s0.runs > 1:
        used = sum((c * Fraction(d) for _, d, c in s0.dp), Fraction(0))
        same = len({(e, d) for e, d, _ in s0.dp}) == 1
        expanded = [(e, d) for e, d, c in s0.dp for _ in range(c)]
        for dt in _DELTA_GRID:
            if Fraction(dt) <= used:
                continue
            if same:
                e0, d0, _ = s0.dp[0]
                if _pruned(study, _kov_eps_float(e0, d0, s0.runs, dt) * 0.999, results, cands, dt):
                    continue
                try:
                    g = optimal_composition(e0, d0, s0.runs, dt)
                except InvalidParameter:
                    continue
                link = Link("optimal DP composition of the stage", ("KOV15-3.3",),
                            f"{s0.runs} x ({e0!r}, {d0!r})", f"({g.eps!r}, {g.delta!r})-DP",
                            g.conditions)
            else:
                g = compose_dp(expanded, dt)
                link = Link("advanced DP composition of the stage", (g.theorem,),
                            f"{s0.runs} runs", f"({g.eps!r}, {g.delta!r})-DP", g.conditions)
            if g.eps == 0:  # delta_total already covers the whole privacy curve
                cands.append((f"DP first stage at delta={dt!r} (RRST-3.1)", None,
                              "composed eps is 0: RRST Thm 3.1 needs eps > 0"))
                continue
            if g.eps > 0.5:  # RRST Thm 3.1 needs eps <= 1/2
                cands.append((f"DP first stage at delta={dt!r} (RRST-3.1)", None,
                              f"composed eps {g.eps!r} > 1/2: outside RRST Thm 3.1"))
                continue
            if _pruned(study, g.eps, results, cands, dt):
                continue
            consider(f"DP first stage at delta={dt!r} (RRST-3.1)",
                     _maxinfo_route(study, stages, g, link,
                                    f"tight DP composition (delta={dt!r}) then RRST Thm 3.1"))
    consider("mutual information", _mi_route(study, stages))
    if not results:
        reasons = "; ".join(f"{n}: {w}" for n, g, w in cands if w)
        raise PlanError(study.source, f"no valid route: {reasons}")
    gamma, best = max(results, key=lambda t: t[0])
    comps = [Comparison("naive (no correction)", study.alpha, False,
                        "ignores the adaptivity: not a valid threshold")]
    if study.family_size is not None:
        comps.append(Comparison(f"Bonferroni over the declared family of {study.family_size}",
                                float(Fraction(study.alpha) / study.family_size), True,
                                "valid only if the test is one of the pre-declared family"))
    half = study.n // 2
    comps.append(Comparison("sample splitting", study.alpha, half >= 1,
                            f"the analysis and the test each get half the data: the test runs on "
                            f"{half} fresh records, not {study.n}"))
    comps.append(Comparison(f"this plan ({best.route})", gamma, True, "certified, rounded down"))
    notes = tuple(w for n, g, w in cands if w and g is None)
    return replace(best, comparisons=tuple(comps), candidates=tuple(cands), notes=notes)


# ------------------------------------------------------------------------------------------
# Sweeps and inverse solves
# ------------------------------------------------------------------------------------------

_INT_PARAMS = {"times", "n", "range_size", "c", "budget", "family_size", "holdout_n"}


def _with_param(study: Study, param: str, value: Any) -> Study:
    """The study with ``param`` set: ``n``, ``alpha``, or a step field (``steps[i].field`` or a
    bare field name: the first step that has it; ``times`` is the first step's)."""
    if param == "n":
        return replace(study, n=int(value))
    if param == "alpha":
        return replace(study, alpha=float(value))
    idx: int | None = None
    fld = param
    if param.startswith("steps["):
        try:
            idx = int(param[6:param.index("]")])
            fld = param[param.index("]") + 2:]
        except ValueError:
            raise PlanError("--param", f"{param!r}: use n, alpha, a step field, or steps[i].field") from None
        if not 0 <= idx < len(study.steps):
            raise PlanError("--param", f"{param!r}: the study has {len(study.steps)} steps")
    else:
        for i, st in enumerate(study.steps):
            if fld == "times" or fld in st.params:
                idx = i
                break
    if idx is None:
        raise PlanError("--param", f"{param!r}: no step has this field; use n, alpha, times or "
                        "a field of a step")
    st = study.steps[idx]
    if fld == "times":
        new = replace(st, times=int(value))
    elif fld in st.params:
        new = replace(st, params={**st.params, fld: int(value) if fld in _INT_PARAMS else float(value)})
    else:
        raise PlanError("--param", f"steps[{idx}] ({st.type}) has no field {fld!r}")
    steps = list(study.steps)
    steps[idx] = new
    return replace(study, steps=tuple(steps))


def sweep(study: Study, param: str, values: Sequence[float]) -> list[tuple[float, float | None, str]]:
    """γ(α) at each value of ``param`` (None where the plan has no valid route, with the reason)."""
    out: list[tuple[float, float | None, str]] = []
    if values:
        _with_param(study, param, values[0])  # an unknown parameter is refused up front
    for v in values:
        try:
            r = plan(_with_param(study, param, v))
            out.append((float(v), r.gamma, r.route))
        except PlanError as exc:
            out.append((float(v), None, str(exc)))
    return out


def solve(study: Study, param: str, target_gamma: float, *, lo: float | None = None,
          hi: float | None = None) -> tuple[float, PlanResult, str]:
    """The boundary value of ``param`` at which γ(α) still meets ``target_gamma``.

    γ is monotone in each parameter: it decreases in ``times`` and ``eps`` and increases in noise
    scales; in ``n`` it decreases for a fixed per-step eps (eps n grows) and increases where eps
    shrinks like 1/n (Thresholdout). The direction is read from γ at the two ends of the range,
    and the value returned is the largest (γ decreasing) or smallest (γ increasing) one meeting
    the target. Integer parameters are solved exactly (one step further fails); real ones by
    bisection to 10^-9 relative. Returns (value, its plan, "largest" or "smallest"). Raises
    PlanError when no value in range meets the target.
    """
    t = float(check_real("target_gamma", target_gamma, low=0.0, low_open=True, high=1.0))
    is_int = param.split(".")[-1] in _INT_PARAMS

    def gamma_at(v: float) -> float:
        try:
            return plan(_with_param(study, param, v)).gamma
        except PlanError:
            return -1.0

    if is_int:
        a: float = int(lo) if lo is not None else 1
        b: float = int(hi) if hi is not None else (MAX_TIMES if param.endswith("times") else 2**40)
    else:
        a = float(lo) if lo is not None else 1e-12
        b = float(hi) if hi is not None else 1e6
    # gamma is monotone in each parameter; which way is read off the two ends
    ga, gb = gamma_at(a), gamma_at(b)
    increasing = gb > ga
    ok_end, bad_end = (b, a) if increasing else (a, b)
    if max(ga, gb) < t:
        raise PlanError("--target-gamma", f"{t!r} is not met for {param} in [{a!r}, {b!r}]")
    if min(ga, gb) >= t:
        v: float = bad_end  # the whole range meets the target
    elif is_int:
        # exponential search from the good end, then bisection: ok_end meets, bad_end does not
        ok_i, bad_i = int(ok_end), int(bad_end)
        sign = 1 if bad_i > ok_i else -1
        step = 1
        while step < abs(bad_i - ok_i):
            probe = ok_i + sign * step
            if gamma_at(probe) < t:
                bad_i = probe
                break
            ok_i, step = probe, step * 2
        while abs(bad_i - ok_i) > 1:
            mid = (ok_i + bad_i) // 2
            if gamma_at(mid) >= t:
                ok_i = mid
            else:
                bad_i = mid
        v = float(ok_i)
    else:
        while abs(ok_end - bad_end) > 1e-9 * abs(ok_end):
            mid_f = math.sqrt(ok_end * bad_end)
            if gamma_at(mid_f) >= t:
                ok_end = mid_f
            else:
                bad_end = mid_f
        v = ok_end
    return v, plan(_with_param(study, param, v)), "smallest" if increasing else "largest"
