"""Study files: the planner's input, parsed and validated into typed frozen values.

A study is the data (``n``; i.i.d. or not), the steps of the analysis in order (each possibly
repeated ``times`` adaptively), the final test's significance ``alpha`` and, optionally, a
``[power]`` table describing the final test and the effect to detect (see
:mod:`maxinfo_bounds.planning.power`). The file format (TOML, read with :mod:`tomllib`) is
documented in ``docs/planner.md``; see ``examples/``. Every malformed value is refused with a
:class:`PlanError` naming the file, the key and what is allowed.

A :class:`Study` built in Python is validated the same way, by the same code: the parser only
maps the file's tables onto :class:`Study`, :class:`PowerSpec` and the step classes of
:mod:`~maxinfo_bounds.planning.steps`, and names a refusal by the file's key (``data.n`` for
the argument ``n``, ``steps[1].eps`` for a step's ``eps``).

>>> s = parse_study({"data": {"n": 100, "iid": True}, "test": {"alpha": 0.05},
...                  "steps": [{"type": "description", "range_size": 4}]})
>>> s.n, s.iid, s.steps[0].type_name, s.power is None
(100, True, 'description', True)
>>> Study(n=100, iid="no", alpha=0.05, steps=(Description(range_size=4),))
Traceback (most recent call last):
...
maxinfo_bounds.planning.errors.PlanError: iid: must be true or false, got 'no'

"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction
from pathlib import Path
from typing import Any, cast

from ..domain import Real
from ..numeric import float_up
from .errors import PlanError
from .steps import (
    MAX_TIMES,
    STEP_CLASSES,
    Description,
    Step,
    Thresholdout,
    check_bool,
    check_int,
    check_real,
    shown_value,
    step_from_mapping,
)

__all__ = [
    "PlanError",
    "PowerSpec",
    "FinalTest",
    "Alternative",
    "Study",
    "TESTS",
    "ALTERNATIVES",
    "MAX_TIMES",
    "MAX_N",
    "MIN_ALPHA",
    "check_n",
    "check_alpha",
    "parse_study",
    "load_study",
    "where",
]

#: the largest number of records (every integer up to 2^53 is exact in a float)
MAX_N = 2**53


def where(src: str, key: str) -> str:
    return f"{src}: {key}"


def step_key(i: int, name: str) -> str:
    """A step's refusal named as the study file names it: ``steps[i]`` for the step as a whole,
    ``steps[i].eps`` for one of its fields (a name already under ``steps[`` is kept)."""
    if name == "step":
        return f"steps[{i}]"
    return name if name.startswith("steps[") else f"steps[{i}].{name}"


class FinalTest(StrEnum):
    """The final test of a ``[power]`` table (see :mod:`maxinfo_bounds.planning.power`)."""

    Z = "z"
    T = "t"
    T2 = "t2"
    PROPORTION = "proportion"


class Alternative(StrEnum):
    """The alternative hypothesis of the final test."""

    TWO_SIDED = "two-sided"
    LARGER = "larger"
    SMALLER = "smaller"


TESTS = tuple(t.value for t in FinalTest)
ALTERNATIVES = tuple(a.value for a in Alternative)

#: the final test's significance: below 1e-300 the beta split and the corrected threshold
#: underflow float64's normal range (no software reports such a p-value), so it is refused
MIN_ALPHA = 1e-300
_ALPHA = Real(MIN_ALPHA, 1, hi_open=True)
_REAL = Real()
_OPEN_UNIT = Real(0, 1, lo_open=True, hi_open=True)
#: a design effect (Kish): at least 1; above 10^6 no study has records left
_DESIGN_EFFECT = Real(1, 1e6)
_CLUSTER_SIZE = Real(1, 1e9)
_ICC = Real(0, 1)


def _enum(name: str, v: object, kind: type[FinalTest] | type[Alternative]) -> str:
    allowed = ", ".join(x.value for x in kind)
    if not isinstance(v, str):
        raise PlanError(name, f"must be a string, one of {allowed}; got {shown_value(v)}")
    if v not in {x.value for x in kind}:
        what = "is not a test" if kind is FinalTest else "is invalid"
        raise PlanError(name, f"{v!r} {what}; allowed: {allowed}")
    return v


@dataclass(frozen=True)
class PowerSpec:
    """The final test and the effect it should detect (a study file's ``[power]`` table).

    ``design_effect``: the variance inflation of clustered records (Kish: 1 + (m - 1) ICC for
    clusters of m records with intra-class correlation ICC; a study file's ``[data]
    cluster_size`` and ``icc`` set it): the power is computed on floor(n / design_effect)
    effective records. Default 1 (independent records).

    ``test``: ``"z"`` (z-test of a mean, known variance), ``"t"`` (one-sample t-test), ``"t2"``
    (two-sample t-test, the n records split into two equal groups), ``"proportion"`` (exact
    binomial test of one proportion against ``p0``). ``effect_size``: Cohen's d for z, t and t2;
    the difference p1 − p0 for ``"proportion"``. ``target``: the power wanted. ``split_fraction``:
    the share of the records sample splitting keeps for the test. Validated at construction
    (:class:`PlanError` naming the field).
    """

    test: FinalTest
    effect_size: float
    alternative: Alternative = Alternative.TWO_SIDED
    target: float = 0.8
    p0: float | None = None
    split_fraction: float = 0.5
    design_effect: float = 1.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "design_effect", check_real("design_effect", self.design_effect, _DESIGN_EFFECT))
        test = FinalTest(_enum("test", self.test, FinalTest))
        alt = Alternative(_enum("alternative", self.alternative, Alternative))
        eff = check_real("effect_size", self.effect_size, _REAL)
        target = check_real("target", self.target, _OPEN_UNIT)
        split = check_real("split_fraction", self.split_fraction, _OPEN_UNIT)
        for name, v in (
            ("test", test),
            ("alternative", alt),
            ("effect_size", eff),
            ("target", target),
            ("split_fraction", split),
        ):
            object.__setattr__(self, name, v)
        if eff == 0:
            raise PlanError("effect_size", "0 is invalid: must be non-zero (the effect to detect)")
        if (alt is Alternative.LARGER and eff < 0) or (alt is Alternative.SMALLER and eff > 0):
            raise PlanError(
                "effect_size",
                f"{eff!r} is invalid: a one-sided test ({alt.value!r}) detects only an "
                f"effect of sign {'+' if alt is Alternative.LARGER else '-'}",
            )
        if test is FinalTest.PROPORTION:
            if self.p0 is None:
                raise PlanError("p0", "None is invalid: the null proportion of a 'proportion' test, in (0, 1)")
            p0 = check_real("p0", self.p0, _OPEN_UNIT)
            object.__setattr__(self, "p0", p0)
            if not 0 < p0 + eff < 1:
                raise PlanError(
                    "effect_size",
                    f"{eff!r} is invalid: p0 + effect_size (the true proportion) must be in (0, 1), p0 = {p0!r}",
                )
        elif self.p0 is not None:
            raise PlanError("p0", f"only for test = 'proportion', not {test.value!r}")

    @property
    def p1(self) -> float:
        """The true proportion of a ``"proportion"`` test: ``p0 + effect_size``."""
        assert self.p0 is not None
        return self.p0 + self.effect_size


@dataclass(frozen=True, kw_only=True)
class Study:
    """A planned study, validated at construction (:class:`PlanError` naming the argument).

    ``n``: the records the final test uses; ``iid``: whether they are i.i.d. draws (default
    false; the product-only theorems and sample splitting need it); ``alpha``: the final test's
    significance; ``steps``: the analysis, in order (:mod:`~maxinfo_bounds.planning.steps`);
    ``family_size``: the size of a pre-declared test family (adds a Bonferroni route);
    ``power``: the final test and effect (:class:`PowerSpec`), for power planning.
    """

    n: int
    alpha: float
    steps: tuple[Step, ...]
    iid: bool = False
    family_size: int | None = None
    name: str = "study"
    source: str = "<study>"
    power: PowerSpec | None = None

    def __post_init__(self) -> None:
        n = check_n(self.n)
        object.__setattr__(self, "n", n)
        object.__setattr__(self, "iid", check_bool("iid", self.iid))
        object.__setattr__(self, "alpha", check_alpha(self.alpha))
        raw: object = self.steps
        if not isinstance(raw, (tuple, list)) or not raw:
            raise PlanError(
                "steps",
                "must be a non-empty sequence of steps ("
                + ", ".join(c.__name__ for c in STEP_CLASSES.values())
                + f"), got "
                f"{shown_value(self.steps)}",
            )
        steps = tuple(raw)
        for i, st in enumerate(steps):
            if not isinstance(st, Step):
                raise PlanError(
                    f"steps[{i}]", f"must be a step (Laplace, Gaussian, ..., Description), got {shown_value(st)}"
                )
            if isinstance(st, Thresholdout) and st.holdout_n not in (None, n):
                raise PlanError(
                    f"steps[{i}].holdout_n",
                    f"{st.holdout_n} differs from data.n = {n}: describe the holdout "
                    "set (the data the final test uses) in [data]",
                )
        object.__setattr__(self, "steps", steps)
        if self.family_size is not None:
            object.__setattr__(self, "family_size", check_int("family_size", self.family_size))
        for key in ("name", "source"):
            if not isinstance(getattr(self, key), str):
                raise PlanError(key, f"must be a string, got {shown_value(getattr(self, key))}")
        if self.power is not None and not isinstance(self.power, PowerSpec):
            raise PlanError("power", f"must be a PowerSpec or None, got {shown_value(self.power)}")
        if self.power is not None and self.power.target <= self.alpha:
            raise PlanError(
                "power.target",
                f"{self.power.target!r} is invalid: must be above "
                f"test.alpha = {self.alpha!r} (a test at level alpha that ignores the "
                "data already rejects with probability alpha)",
            )

    def description_bits(self) -> float:
        """log2 of the number of outputs of the analysis when every step is a description
        (else inf)."""
        if not all(isinstance(st, Description) for st in self.steps):
            return math.inf
        return sum(st.times * math.log2(st.range_size) for st in self.steps if isinstance(st, Description))


def check_n(value: object) -> int:
    """A number of records, validated as ``data.n`` of a study file."""
    return check_int("n", value, high=MAX_N)


def check_alpha(value: object) -> float:
    """A significance level, validated as ``test.alpha`` of a study file."""
    return check_real("alpha", value, _ALPHA)


# ------------------------------------------------------------------------------------------
# The study file: TOML tables mapped onto the classes above
# ------------------------------------------------------------------------------------------

#: a Study or PowerSpec argument -> the study file's key
_FILE_KEY = {
    "n": "data.n",
    "iid": "data.iid",
    "alpha": "test.alpha",
    "family_size": "study.family_size",
    "name": "study.name",
    "steps": "steps",
    "source": "source",
    "power": "power",
}

_POWER_KEYS = ("test", "alternative", "effect_size", "p0", "target", "split_fraction", "design_effect")


def _keys(src: str, table: Mapping[str, object], prefix: str, allowed: Sequence[str]) -> None:
    for key in table:
        if key not in allowed:
            raise PlanError(where(src, f"{prefix}.{key}"), f"unknown key; allowed: {', '.join(allowed)}")


def _table(src: str, doc: Mapping[str, object], key: str, missing: str | None) -> Mapping[str, object]:
    raw = doc.get(key, {} if missing is None else None)
    if not isinstance(raw, Mapping):
        raise PlanError(where(src, key), "must be a table" if missing is None or key in doc else missing)
    return raw


def parse_study(doc: Mapping[str, object], source: str = "<study>") -> Study:
    """Map a parsed study document (the TOML's tables) onto a :class:`Study` (validated by the
    classes; a refusal names the file and the key)."""
    if not isinstance(doc, Mapping):
        raise PlanError(source, f"must be a table of tables, got {shown_value(doc)}")
    allowed_top = ("data", "power", "steps", "study", "test")
    if "estimate" in doc:
        raise PlanError(
            where(source, "estimate"),
            "is an estimation study (k adaptive queries): run `maxinfo estimate --study FILE` (docs/estimate.md)",
        )
    for key in doc:
        if key not in allowed_top:
            raise PlanError(where(source, key), f"unknown table; allowed: {', '.join(allowed_top)}")
    meta = _table(source, doc, "study", None)
    _keys(source, meta, "study", ("name", "family_size"))
    data = _table(source, doc, "data", "missing table [data] with n and iid")
    _keys(source, data, "data", ("n", "iid", "cluster_size", "icc"))
    if "n" not in data:
        raise PlanError(where(source, "data.n"), "missing: the number of records (integer >= 1)")
    test = doc.get("test")
    if not isinstance(test, Mapping) or "alpha" not in test:
        raise PlanError(where(source, "test.alpha"), "missing: the final test's significance in (0, 1)")
    _keys(source, test, "test", ("alpha",))
    raw_steps = doc.get("steps")
    if not isinstance(raw_steps, list) or not raw_steps:
        raise PlanError(where(source, "steps"), "missing: at least one [[steps]] table")
    steps = tuple(_parse_step(source, i, s) for i, s in enumerate(raw_steps))
    power = _parse_power(source, doc["power"]) if "power" in doc else None
    deff = _design_effect(source, data)
    if deff is not None and power is not None:
        if "design_effect" in cast(Mapping[str, object], doc["power"]):
            raise PlanError(
                where(source, "power.design_effect"), "given twice: [data] cluster_size and icc already set it"
            )
        power = replace(power, design_effect=deff)
    name = meta.get("name", Path(source).stem)
    args: dict[str, Any] = {
        "n": data["n"],
        "iid": data.get("iid", False),
        "alpha": test["alpha"],
        "steps": steps,
        "family_size": meta.get("family_size"),
        "name": name if isinstance(name, str) else str(name),
        "source": source,
        "power": power,
    }
    try:
        return Study(**args)
    except PlanError as exc:
        head, *rest = exc.name.split(".", 1)
        mapped = ".".join([_FILE_KEY.get(head, head), *rest])
        raise PlanError(where(source, mapped), exc.allowed) from None


def _design_effect(src: str, data: Mapping[str, object]) -> float | None:
    """Kish's design effect 1 + (m - 1) ICC from ``[data] cluster_size`` (m) and ``icc``, both
    or neither (None); refused on records declared i.i.d. (clustered records are not)."""
    have = [k for k in ("cluster_size", "icc") if k in data]
    if not have:
        return None
    if len(have) == 1:
        other = "icc" if have[0] == "cluster_size" else "cluster_size"
        raise PlanError(
            where(src, f"data.{other}"), f"missing: given with data.{have[0]} (the design effect needs both)"
        )
    if data.get("iid", False) is True:
        raise PlanError(
            where(src, "data.cluster_size"),
            "clustered records are not i.i.d.: set iid = false with cluster_size and icc",
        )
    try:
        m = check_real("cluster_size", data["cluster_size"], _CLUSTER_SIZE)
        rho = check_real("icc", data["icc"], _ICC)
    except PlanError as exc:
        raise PlanError(where(src, f"data.{exc.name}"), exc.allowed) from None
    return float_up(1 + (Fraction(m) - 1) * Fraction(rho))  # rounded up: the power is never overstated


def _parse_power(src: str, raw: object) -> PowerSpec:
    if not isinstance(raw, Mapping):
        raise PlanError(where(src, "power"), "must be a table")
    _keys(src, raw, "power", _POWER_KEYS)
    for key in ("test", "effect_size"):
        if key not in raw:
            raise PlanError(
                where(src, f"power.{key}"),
                "missing"
                + (
                    f": one of {', '.join(TESTS)}"
                    if key == "test"
                    else ": Cohen's d (z, t, t2) or p1 - p0 (proportion)"
                ),
            )
    args: dict[str, Any] = dict(raw)
    try:
        return PowerSpec(**args)
    except PlanError as exc:
        raise PlanError(where(src, f"power.{exc.name}"), exc.allowed) from None


def _parse_step(src: str, i: int, raw: object) -> Step:
    at = f"steps[{i}]"
    if not isinstance(raw, Mapping):
        raise PlanError(where(src, at), "must be a table")
    try:
        st = step_from_mapping(raw)
    except PlanError as exc:
        raise PlanError(where(src, step_key(i, exc.name)), exc.allowed) from None
    if not st.label:
        st = st.with_label(f"{at} ({st.type_name})")
    return st


def load_study(path: str | Path) -> Study:
    """Read and validate a study file (TOML, UTF-8)."""
    return parse_study(read_toml(path), str(path))


def read_toml(path: str | Path) -> dict[str, Any]:
    """A study file's TOML document (UTF-8); every failure a PlanError naming the file."""
    if not isinstance(path, (str, Path)):
        raise PlanError("path", f"must be a file path (str or pathlib.Path), got {shown_value(path)}")
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
        raise PlanError(str(p), f"not a UTF-8 text file (byte {exc.start}): a study file is TOML text") from None
    except tomllib.TOMLDecodeError as exc:
        raise PlanError(str(p), f"not valid TOML ({exc})") from None
    return doc
