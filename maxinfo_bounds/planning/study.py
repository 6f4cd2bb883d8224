"""Study files: the planner's input, parsed and validated into typed frozen values.

A study is the data (``n``; i.i.d. or not), the steps of the analysis in order (each possibly
repeated ``times`` adaptively), the final test's significance ``alpha`` and, optionally, a
``[power]`` table describing the final test and the effect to detect (see
:mod:`maxinfo_bounds.planning.power`). The file format (TOML, read with :mod:`tomllib`) is
documented in ``docs/planner.md``; see ``examples/``. Every malformed value is refused with a
:class:`PlanError` naming the file, the key and what is allowed.

>>> s = parse_study({"data": {"n": 100, "iid": True}, "test": {"alpha": 0.05},
...                  "steps": [{"type": "description", "range_size": 4}]})
>>> s.n, s.iid, s.steps[0].type, s.power is None
(100, True, 'description', True)
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..domain import Domain, Real
from ..numeric import InvalidParameter

__all__ = ["PlanError", "PowerSpec", "Step", "Study", "TESTS", "ALTERNATIVES", "STEP_TYPES", "MAX_TIMES", "MAX_N",
           "step_with", "check_n", "check_alpha",
           "parse_study", "load_study", "where"]

#: the largest ``times`` of a step (also the default upper end of ``solve``)
MAX_TIMES = 10**9
#: the largest number of records (every integer up to 2^53 is exact in a float)
MAX_N = 2**53

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
    "gaussian": ((("sensitivity", "sigma", "delta"), ("sensitivity", "eps", "delta")), ("times",),
                 "Gaussian noise N(0, sigma^2) on a query of L2 sensitivity; delta chooses the "
                 "point of its exact (Balle-Wang) privacy curve; or a target (eps, delta), "
                 "calibrated by the analytic Gaussian mechanism"),
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


#: the final test kinds of a ``[power]`` table (see :mod:`maxinfo_bounds.planning.power`)
TESTS = ("z", "t", "t2", "proportion")
ALTERNATIVES = ("two-sided", "larger", "smaller")


@dataclass(frozen=True)
class PowerSpec:
    """The final test and the effect it should detect (a study file's ``[power]`` table).

    ``test``: ``"z"`` (z-test of a mean, known variance), ``"t"`` (one-sample t-test), ``"t2"``
    (two-sample t-test, the n records split into two equal groups), ``"proportion"`` (exact
    binomial test of one proportion against ``p0``). ``effect_size``: Cohen's d for z, t and t2;
    the difference p1 − p0 for ``"proportion"``. ``target``: the power wanted. ``split_fraction``:
    the share of the records sample splitting keeps for the test.
    """

    test: str
    effect_size: float
    alternative: str = "two-sided"
    target: float = 0.8
    p0: float | None = None
    split_fraction: float = 0.5

    def __post_init__(self) -> None:
        if self.test not in TESTS:
            raise PlanError("power.test", f"{self.test!r} is not a test; allowed: {', '.join(TESTS)}")
        if self.alternative not in ALTERNATIVES:
            raise PlanError("power.alternative",
                            f"{self.alternative!r} is invalid; allowed: {', '.join(ALTERNATIVES)}")
        for name, v in (("effect_size", self.effect_size), ("target", self.target),
                        ("split_fraction", self.split_fraction)):
            if not math.isfinite(v):
                raise PlanError(f"power.{name}", f"{v!r} is invalid: must be a finite number")
        if self.effect_size == 0:
            raise PlanError("power.effect_size", "0 is invalid: must be non-zero (the effect to detect)")
        if (self.alternative == "larger" and self.effect_size < 0) or (
                self.alternative == "smaller" and self.effect_size > 0):
            raise PlanError("power.effect_size",
                            f"{self.effect_size!r} is invalid: a one-sided test ({self.alternative!r}) "
                            f"detects only an effect of sign {'+' if self.alternative == 'larger' else '-'}")
        if not 0 < self.target < 1:
            raise PlanError("power.target", f"{self.target!r} is invalid: must be in (0, 1)")
        if not 0 < self.split_fraction < 1:
            raise PlanError("power.split_fraction",
                            f"{self.split_fraction!r} is invalid: must be in (0, 1)")
        if self.test == "proportion":
            if self.p0 is None or not 0 < self.p0 < 1:
                raise PlanError("power.p0", f"{self.p0!r} is invalid: the null proportion of a "
                                "'proportion' test, in (0, 1)")
            if not 0 < self.p0 + self.effect_size < 1:
                raise PlanError("power.effect_size",
                                f"{self.effect_size!r} is invalid: p0 + effect_size (the true "
                                f"proportion) must be in (0, 1), p0 = {self.p0!r}")
        elif self.p0 is not None:
            raise PlanError("power.p0", f"only for test = 'proportion', not {self.test!r}")

    @property
    def p1(self) -> float:
        """The true proportion of a ``"proportion"`` test: ``p0 + effect_size``."""
        assert self.p0 is not None
        return self.p0 + self.effect_size


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
    power: PowerSpec | None = None


def where(src: str, key: str) -> str:
    return f"{src}: {key}"


#: the study file's real-valued keys and their domains, declared once (validation and the
#: error text read them; a key not listed is a positive real, e.g. a step's eps or sigma)
_POSITIVE = Real(0, lo_open=True)
_DOMAINS = {
    "delta": Real(0, 1, hi_open=True),                       # 0: pure DP
    "delta (gaussian)": Real(0, 1, lo_open=True, hi_open=True),
    "mi_bits": Real(0),
    "test.alpha": Real(0, 1, lo_open=True, hi_open=True),
}


def _num(src: str, key: str, v: Any, domain: Domain = _POSITIVE) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise PlanError(where(src, key), f"must be a number, got {_short(v)}")
    try:
        return domain.check_float(key, v)
    except InvalidParameter as exc:
        raise PlanError(where(src, key), f"{_short(v)} is invalid: must be {exc.allowed}") from None


def _int(src: str, key: str, v: Any, *, low: int = 1, high: int | None = None) -> int:
    allowed = f"an integer >= {low}" if high is None else f"an integer in [{low}, {high}]"
    if isinstance(v, bool) or not isinstance(v, int):
        raise PlanError(where(src, key), f"must be {allowed}, got {_short(v)}")
    if v < low or (high is not None and v > high):
        raise PlanError(where(src, key), f"{_short(v)} is invalid: must be {allowed}")
    return v


def _short(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 40 else f"{text[:20]}...({len(text)} characters)"


def parse_study(doc: Mapping[str, object], source: str = "<study>") -> Study:
    """Validate a parsed study document (the TOML's tables) into a :class:`Study`."""
    allowed_top = {"study", "data", "steps", "test", "power"}
    for key in doc:
        if key not in allowed_top:
            raise PlanError(where(source, key), f"unknown table; allowed: {', '.join(sorted(allowed_top))}")
    meta = doc.get("study", {})
    if not isinstance(meta, Mapping):
        raise PlanError(where(source, "study"), "must be a table")
    for key in meta:
        if key not in ("name", "family_size"):
            raise PlanError(where(source, f"study.{key}"), "unknown key; allowed: name, family_size")
    data = doc.get("data")
    if not isinstance(data, Mapping):
        raise PlanError(where(source, "data"), "missing table [data] with n and iid")
    for key in data:
        if key not in ("n", "iid"):
            raise PlanError(where(source, f"data.{key}"), "unknown key; allowed: n, iid")
    if "n" not in data:
        raise PlanError(where(source, "data.n"), "missing: the number of records (integer >= 1)")
    n = check_n(source, data["n"])
    iid = data.get("iid", False)
    if not isinstance(iid, bool):
        raise PlanError(where(source, "data.iid"), f"must be true or false, got {iid!r}")
    test = doc.get("test")
    if not isinstance(test, Mapping) or "alpha" not in test:
        raise PlanError(where(source, "test.alpha"), "missing: the final test's significance in (0, 1)")
    for key in test:
        if key not in ("alpha",):
            raise PlanError(where(source, f"test.{key}"), "unknown key; allowed: alpha")
    alpha = check_alpha(source, test["alpha"])
    raw_steps = doc.get("steps")
    if not isinstance(raw_steps, list) or not raw_steps:
        raise PlanError(where(source, "steps"), "missing: at least one [[steps]] table")
    steps = tuple(_parse_step(source, i, s) for i, s in enumerate(raw_steps))
    fam = meta.get("family_size")
    power = _parse_power(source, doc["power"]) if "power" in doc else None
    return Study(n=n, iid=iid, alpha=alpha, steps=steps,
                 family_size=None if fam is None else _int(source, "study.family_size", fam),
                 name=str(meta.get("name", Path(source).stem)), source=source, power=power)


_POWER_KEYS = ("test", "alternative", "effect_size", "p0", "target", "split_fraction")


def _parse_power(src: str, raw: Any) -> PowerSpec:
    if not isinstance(raw, Mapping):
        raise PlanError(where(src, "power"), "must be a table")
    for key in raw:
        if key not in _POWER_KEYS:
            raise PlanError(where(src, f"power.{key}"),
                            f"unknown key; allowed: {', '.join(_POWER_KEYS)}")
    for key in ("test", "effect_size"):
        if key not in raw:
            raise PlanError(where(src, f"power.{key}"), "missing" + (
                f": one of {', '.join(TESTS)}" if key == "test" else
                ": Cohen's d (z, t, t2) or p1 - p0 (proportion)"))
    for key in ("test", "alternative"):
        if key in raw and not isinstance(raw[key], str):
            raise PlanError(where(src, f"power.{key}"), f"must be a string, got {raw[key]!r}")
    nums: dict[str, float] = {}
    for key in ("effect_size", "p0", "target", "split_fraction"):
        if key in raw:
            v = raw[key]
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise PlanError(where(src, f"power.{key}"), f"must be a number, got {v!r}")
            nums[key] = float(v)
    try:
        return PowerSpec(test=raw["test"], alternative=raw.get("alternative", "two-sided"),
                         effect_size=nums["effect_size"], p0=nums.get("p0"),
                         target=nums.get("target", 0.8),
                         split_fraction=nums.get("split_fraction", 0.5))
    except PlanError as exc:
        raise PlanError(where(src, exc.name), exc.allowed) from None


def _parse_step(src: str, i: int, raw: Any) -> Step:
    at = f"steps[{i}]"
    if not isinstance(raw, Mapping):
        raise PlanError(where(src, at), "must be a table")
    typ = raw.get("type")
    if typ not in STEP_TYPES:
        raise PlanError(where(src, f"{at}.type"),
                        f"{typ!r} is not a step type; allowed: {', '.join(STEP_TYPES)}")
    alts, optional, _ = STEP_TYPES[typ]
    known = {k for alt in alts for k in alt} | set(optional) | {"type", "label"}
    for key in raw:
        if key not in known:
            raise PlanError(where(src, f"{at}.{key}"),
                            f"unknown key for type {typ!r}; allowed: {', '.join(sorted(known - {'type'}))}")
    need = " or ".join("(" + ", ".join(alt) + ")" for alt in alts)
    full = [alt for alt in alts if all(k in raw for k in alt)]
    if not full:
        raise PlanError(where(src, at), f"type {typ!r} needs {need}")
    # keys of another alternative would be silently ignored: a contradiction, refused
    extra = sorted({k for alt in alts for k in alt} - set(full[0]) - set(optional) & set(raw))
    if extra:
        raise PlanError(where(src, f"{at}.{extra[0]}"),
                        f"given with ({', '.join(full[0])}), which already fixes the step; "
                        f"type {typ!r} takes exactly one of {need}")
    params: dict[str, Any] = {}
    for key, v in raw.items():
        if key in ("type", "label", "times"):
            continue
        if key == "monotone":
            if not isinstance(v, bool):
                raise PlanError(where(src, f"{at}.monotone"), f"must be true or false, got {v!r}")
            params[key] = v
        elif key in ("range_size", "c", "budget", "holdout_n"):
            params[key] = _int(src, f"{at}.{key}", v)
        elif key == "delta":
            params[key] = _num(src, f"{at}.delta", v,
                               _DOMAINS["delta (gaussian)" if typ == "gaussian" else "delta"])
        elif key == "mi_bits":
            params[key] = _num(src, f"{at}.mi_bits", v, _DOMAINS["mi_bits"])
        else:
            params[key] = _num(src, f"{at}.{key}", v)
    times = _int(src, f"{at}.times", raw.get("times", 1), high=MAX_TIMES)
    return Step(typ, params, times, str(raw.get("label", f"{at} ({typ})")))


def load_study(path: str | Path) -> Study:
    """Read and validate a study file (TOML, UTF-8)."""
    p = Path(path)
    if p.is_dir():
        raise PlanError(str(p), "is a directory: give a study file (TOML), e.g. examples/*.toml")
    try:
        with p.open("rb") as fh:
            doc = tomllib.load(fh)
    except FileNotFoundError:
        raise PlanError(str(p), "file not found") from None
    except OSError as exc:
        raise PlanError(str(p), f"cannot be read ({exc.strerror or exc})") from None
    except UnicodeDecodeError as exc:
        raise PlanError(str(p), f"not a UTF-8 text file (byte {exc.start}): a study file is "
                        "TOML text") from None
    except tomllib.TOMLDecodeError as exc:
        raise PlanError(str(p), f"not valid TOML ({exc})") from None
    return parse_study(doc, str(p))


def step_with(src: str, i: int, step: Step, field: str, value: Any) -> Step:
    """``step`` with one field (or ``times``) set to ``value``, validated as in a study file."""
    raw: dict[str, Any] = {"type": step.type, **step.params, "times": step.times,
                           "label": step.label, field: value}
    return _parse_step(src, i, raw)


def check_n(src: str, value: Any) -> int:
    """A number of records, validated as ``data.n`` of a study file."""
    return _int(src, "data.n", value, high=MAX_N)


def check_alpha(src: str, value: Any) -> float:
    """A significance level, validated as ``test.alpha`` of a study file."""
    return _num(src, "test.alpha", value, _DOMAINS["test.alpha"])


