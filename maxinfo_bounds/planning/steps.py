"""The steps of an analysis: one frozen, validated class per step type.

A study's analysis is a sequence of steps, each possibly repeated ``times`` adaptively. Each
step type is a class (as dp_accounting's ``DpEvent`` classes are); a step is validated when it
is built, with the same rules and the same one-line messages as a study file's ``[[steps]]``
table (:class:`~maxinfo_bounds.planning.study.PlanError` naming the field, its value and what
is allowed), so a step that exists is a valid step. The study-file parser only maps a TOML table
onto these classes (:func:`step_from_mapping`).

Where a mechanism can be described two ways ("eps, or the noise scale"), the class takes either
set of fields, exactly one of them (both, or neither, is refused), and has a constructor per
form (:meth:`Laplace.from_eps`, :meth:`Laplace.from_scale`, ...).

Three families, each composed by its own theorems (:mod:`~maxinfo_bounds.planning.stages`):

* :class:`DPStep` — the (eps, delta)-DP steps: :class:`Laplace`, :class:`Gaussian`,
  :class:`Exponential`, :class:`ReportNoisyMax`, :class:`SparseVector`, :class:`Thresholdout`,
  :class:`GenericDP`; each gives the guarantee of one run (:meth:`DPStep.guarantee`);
* :class:`Description` — an output taking one of ``range_size`` values (DFHPRR Thm 6);
* :class:`MutualInformation` — an output with mutual information at most ``mi_bits`` with the
  data (RRST Lemma 1.5).

>>> q = Laplace.from_scale(0.5, 2.0, times=100)
>>> q.type_name, q.times, q.guarantee(10**6).eps       # Dwork-Roth Thm 3.6: eps = 0.5 / 2
('laplace', 100, 0.25)
>>> Laplace(sensitivity=-1e-6, eps=0.1)
Traceback (most recent call last):
...
maxinfo_bounds.planning.errors.PlanError: sensitivity: -1e-06 is invalid: must be a real number in (0, inf)
>>> Laplace.mean(0.0, 1.0, scale=0.1).guarantee(10**6).eps   # a mean query: sensitivity 1/n
1e-05
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, ClassVar

import numpy as np

from ..domain import Domain, Int, Real
from ..numeric import InvalidParameter, float_down, float_up
from ..results import DPGuarantee
from ..theorems.dp_accounting import (
    analytic_gaussian_sigma,
    exponential_mechanism_epsilon,
    gaussian_epsilon,
    laplace_epsilon,
    report_noisy_max_epsilon,
    sparse_vector,
    sparse_vector_scales,
)
from ..theorems.dp_accounting.gdp import MU_MAX, gaussian_mu, gdp_mu, gdp_sigma
from ..theorems.dp_accounting.zcdp import zcdp_bounded_range, zcdp_gaussian, zcdp_pure
from ..theorems.holdout import thresholdout_dp
from .errors import PlanError

__all__ = [
    "Step",
    "DPStep",
    "Accounting",
    "MeanQuery",
    "Laplace",
    "Gaussian",
    "Exponential",
    "ReportNoisyMax",
    "SparseVector",
    "Thresholdout",
    "GenericDP",
    "Description",
    "MutualInformation",
    "STEP_CLASSES",
    "MAX_TIMES",
    "step_from_mapping",
    "check_real",
    "check_int",
    "check_bool",
    "shown_value",
]

#: the largest ``times`` of a step (also the default upper end of ``solve``)
MAX_TIMES = 10**9

# ------------------------------------------------------------------------------------------
# The one validator of planning inputs (study file and API alike)
# ------------------------------------------------------------------------------------------


def shown_value(v: object) -> str:
    """A value as a refusal shows it (long values cut)."""
    text = repr(v)
    return text if len(text) <= 40 else f"{text[:20]}...({len(text)} characters)"


def check_real(name: str, v: object, domain: Domain) -> float:
    """A real planning input: a number (not a bool) inside ``domain``, as a float.

    A value that is not a float is accepted only when a float represents it exactly (an int up
    to 2^53, a numpy float32, a Fraction such as 1/4): rounding an eps or a delta to the nearest
    float could move it to the unsafe side, so such a value is refused and left to the caller to
    round to its own safe side."""
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, Fraction, np.integer, np.floating)):
        raise PlanError(name, f"must be a number, got {shown_value(v)}")
    try:
        f = domain.check_float(name, v)
    except InvalidParameter as exc:
        raise PlanError(name, f"{shown_value(v)} is invalid: must be {exc.allowed}") from None
    if type(v) is float:
        return f
    exact = Fraction(int(v)) if isinstance(v, (int, np.integer)) else Fraction(*v.as_integer_ratio())
    if exact != Fraction(f):
        raise PlanError(
            name,
            f"{shown_value(v)} is invalid: must be a number a float represents "
            "exactly (round it to its safe side first)",
        )
    return f


def check_int(name: str, v: object, *, low: int = 1, high: int | None = None) -> int:
    """An integer planning input in [low, high] (a numpy integer is accepted; a bool is not)."""
    allowed = f"an integer >= {low}" if high is None else f"an integer in [{low}, {high}]"
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
        raise PlanError(name, f"must be {allowed}, got {shown_value(v)}")
    if v < low or (high is not None and v > high):
        raise PlanError(name, f"{shown_value(v)} is invalid: must be {allowed}")
    return int(v)


def check_bool(name: str, v: object) -> bool:
    """A true/false planning input (a numpy bool is accepted)."""
    if not isinstance(v, (bool, np.bool_)):
        raise PlanError(name, f"must be true or false, got {shown_value(v)}")
    return bool(v)


#: a positive real (a sensitivity, eps, noise scale or coefficient)
POSITIVE = Real(0, lo_open=True)
#: a step's delta: 0 is pure DP
DELTA = Real(0, 1, hi_open=True)
#: a Gaussian step's delta (its privacy curve's point: 0 is not on it)
DELTA_GAUSSIAN = Real(0, 1, lo_open=True, hi_open=True)
MI_BITS = Real(0)
COUNT = Int(1)
#: an end of the range of each record's value, for a mean query
VALUE = Real(-1e300, 1e300)


class MeanQuery:
    """The mean-query form shared by :class:`Laplace` and :class:`Gaussian`: each record's value
    lies in [``value_min``, ``value_max``] and the query is their mean over ``records`` records
    (default: the study's n), so its sensitivity is (value_max - value_min)/records, exactly
    (replacing one record moves the mean by at most that much). Written this way a step is
    re-evaluated at every n a sweep, solve or required-n search tries."""

    sensitivity: float | None
    value_min: float | None
    value_max: float | None
    records: int | None

    def __post_init__(self) -> None:
        super().__post_init__()  # type: ignore[misc]  # (Step's, next in the MRO)
        self._check_range()

    def _check_range(self) -> None:
        if self.value_min is not None and self.value_max is not None and not self.value_min < self.value_max:
            raise PlanError(
                "value_max", f"{shown_value(self.value_max)} is invalid: must be above value_min = {self.value_min!r}"
            )
        if self.records is not None and self.value_min is None:
            raise PlanError("records", "is only for the mean-query form (value_min, value_max)")

    @property
    def depends_on_n(self) -> bool:
        """The step's sensitivity follows the study's n (a mean query without ``records``)."""
        return self.value_min is not None and self.records is None

    def sensitivity_at(self, n: int) -> float | Fraction:
        """The query's sensitivity on ``n`` records (the mean form: (max - min)/records, the
        exact rational: the calibration theorems read it exactly)."""
        if self.value_min is None:
            assert self.sensitivity is not None
            return self.sensitivity
        assert self.value_max is not None
        m = self.records if self.records is not None else n
        return (Fraction(self.value_max) - Fraction(self.value_min)) / m


def _param(domain: Domain | type[bool]) -> Any:
    """A step parameter field: optional in the signature (the step's forms say which are
    needed), validated against ``domain`` (or as a bool) at construction."""
    return dataclasses.field(default=None, metadata={"domain": domain})


# ------------------------------------------------------------------------------------------
# The step classes
# ------------------------------------------------------------------------------------------


#: each step class's parameter fields, read once (Step._param_fields)
_PARAM_FIELDS: dict[type, tuple[dataclasses.Field[Any], ...]] = {}


@dataclass(frozen=True, kw_only=True)
class Step:
    """One analysis step, run ``times`` times adaptively (the base class: build a subclass).

    Class attributes: ``type_name`` (the study file's ``type``), ``forms`` (the sets of
    parameters that each fix the step, exactly one of them given), ``optional`` (parameters
    with a default) and ``summary`` (one line, for docs and refusals)."""

    times: int = 1
    label: str = ""

    type_name: ClassVar[str] = ""
    forms: ClassVar[tuple[tuple[str, ...], ...]] = ()
    optional: ClassVar[tuple[str, ...]] = ()
    summary: ClassVar[str] = ""

    def __post_init__(self) -> None:
        if not self.type_name:
            raise PlanError(
                "Step", "is the base class: build one of " + ", ".join(c.__name__ for c in STEP_CLASSES.values())
            )
        need = " or ".join("(" + ", ".join(f) + ")" for f in self.forms)
        given = {f.name for f in self._param_fields() if getattr(self, f.name) is not None}
        full = [f for f in self.forms if set(f) <= given]
        if not full:
            raise PlanError("step", f"type {self.type_name!r} needs {need}")
        # fields of another form would be silently ignored: a contradiction, refused
        extra = sorted({k for f in self.forms for k in f} - set(full[0]) - set(self.optional) & given)
        if extra:
            raise PlanError(
                extra[0],
                f"given with ({', '.join(full[0])}), which already fixes "
                f"the step; type {self.type_name!r} takes exactly one of {need}",
            )
        for f in self._param_fields():
            v = getattr(self, f.name)
            if v is None:
                continue
            dom = f.metadata["domain"]
            new: object = (
                check_bool(f.name, v)
                if dom is bool
                else check_int(f.name, v, low=int(dom.lo))
                if dom.integer
                else check_real(f.name, v, dom)
            )
            object.__setattr__(self, f.name, new)
        object.__setattr__(self, "times", check_int("times", self.times, high=MAX_TIMES))
        if not isinstance(self.label, str):
            raise PlanError("label", f"must be a string, got {shown_value(self.label)}")

    @classmethod
    def _param_fields(cls) -> tuple[dataclasses.Field[Any], ...]:
        # a class's fields do not change: read once per step class (a plan reads them per step)
        out = _PARAM_FIELDS.get(cls)
        if out is None:
            out = _PARAM_FIELDS[cls] = tuple(f for f in dataclasses.fields(cls) if "domain" in f.metadata)
        return out

    @classmethod
    def keys(cls) -> tuple[str, ...]:
        """The parameter names a study file's table of this type may hold."""
        return tuple(f.name for f in cls._param_fields())

    @classmethod
    def integer_keys(cls) -> frozenset[str]:
        """The integer-valued parameters (and ``times``)."""
        return frozenset(
            {"times"}
            | {
                f.name
                for f in cls._param_fields()
                if isinstance(f.metadata["domain"], Domain) and f.metadata["domain"].integer
            }
        )

    @property
    def params(self) -> dict[str, float | int | bool]:
        """The parameters given (fields left at None omitted), in declaration order."""
        return {f.name: getattr(self, f.name) for f in self._param_fields() if getattr(self, f.name) is not None}

    def with_value(self, key: str, value: object) -> Step:
        """This step with one parameter (or ``times``) set, validated as at construction."""
        if key != "times" and key not in self.params:
            raise PlanError(
                key, f"is not a parameter of this {self.type_name} step; it has " + ", ".join([*self.params, "times"])
            )
        changes: dict[str, Any] = {key: value}
        return dataclasses.replace(self, **changes)

    def with_label(self, label: str) -> Step:
        """This step with another label."""
        return dataclasses.replace(self, label=label)

    def inputs_text(self) -> str:
        """The step's parameters as derivation text."""
        return ", ".join(f"{k}={v!r}" for k, v in self.params.items())


@dataclass(frozen=True)
class Accounting:
    """What the exact accountants know of one run beyond its (eps, delta) point: ``mu`` (the run
    is mu-GDP: Gaussian noise, Dong-Roth-Su Thm 2.7) and ``rho`` (it is rho-zCDP), None where
    no such guarantee is claimed; ``theorems``: the catalog ids the two came from."""

    mu: float | None = None
    rho: float | None = None
    theorems: tuple[str, ...] = ()


class DPStep(Step):
    """A step with an (eps, delta)-DP guarantee per run (composed by the DP theorems)."""

    def guarantee(self, n: int) -> DPGuarantee:
        """The (eps, delta)-DP guarantee of one run on ``n`` records (its calibration theorem)."""
        raise NotImplementedError

    def accounting(self, n: int, g: DPGuarantee | None) -> Accounting:
        """The run's GDP / zCDP guarantees (``g``: its :meth:`guarantee`): a pure step is
        eps tanh(eps/2)-zCDP (sharp; Steinke 2024); an approximate step has neither here."""
        if g is not None and g.delta == 0:
            return Accounting(rho=zcdp_pure(g.eps), theorems=("S24-pure-zCDP",))
        return Accounting()


def _mu_rho(sens: float | Fraction, sigma: float) -> tuple[float, float]:
    """mu = sens/sigma and rho = mu^2/2, each a float at or above the exact value: for floats in
    the normal range one step up from the correctly rounded quotient and square (each within
    half an ulp of its exact value), else the exact rationals rounded up (DRS22 Thm 2.7, BS16
    Prop. 1.6; at most two ulps above the exact values, which :func:`gaussian_mu` and
    :func:`zcdp_gaussian` return)."""
    if isinstance(sens, float):
        q = sens / sigma
        if 1e-150 < q < 1e150:
            mu = math.nextafter(q, math.inf)
            return mu, math.nextafter(mu * mu, math.inf) / 2
    return gaussian_mu(sens, sigma), zcdp_gaussian(sens, sigma)


@lru_cache(maxsize=256)
def _analytic_sigma(sensitivity: float, eps: float, delta: float) -> float:
    # a certified search: the guarantee, the accounting and the derivation text each ask for it
    return analytic_gaussian_sigma(sensitivity, eps, delta)


@lru_cache(maxsize=256)
def _budget_mu(total_eps: float, total_delta: float) -> float:
    return gdp_mu(total_eps, total_delta)


def _eps(x: float | None) -> float:
    assert x is not None
    return x


@dataclass(frozen=True, kw_only=True)
class Laplace(MeanQuery, DPStep):
    """Laplace noise on a query of L1 sensitivity ``sensitivity``: ``eps`` (nats), or the noise
    scale ``scale`` (then eps = sensitivity/scale, Dwork-Roth Thm 3.6); or a mean query
    (``value_min``, ``value_max``, ``scale``: sensitivity (max - min)/n, :class:`MeanQuery`)."""

    sensitivity: float | None = _param(POSITIVE)
    eps: float | None = _param(POSITIVE)
    scale: float | None = _param(POSITIVE)
    value_min: float | None = _param(VALUE)
    value_max: float | None = _param(VALUE)
    records: int | None = _param(COUNT)

    type_name: ClassVar[str] = "laplace"
    forms: ClassVar[tuple[tuple[str, ...], ...]] = (
        ("sensitivity", "eps"),
        ("sensitivity", "scale"),
        ("value_min", "value_max", "scale"),
    )
    optional: ClassVar[tuple[str, ...]] = ("records",)
    summary: ClassVar[str] = (
        "Laplace noise on a query of L1 sensitivity `sensitivity`: eps, or the scale b; or a mean "
        "query of values in [value_min, value_max] (sensitivity (max - min)/n) with the scale b"
    )

    @classmethod
    def mean(
        cls,
        value_min: float,
        value_max: float,
        scale: float,
        *,
        records: int | None = None,
        times: int = 1,
        label: str = "",
    ) -> Laplace:
        """A mean query of values in [value_min, value_max] with Laplace noise of scale b."""
        return cls(value_min=value_min, value_max=value_max, scale=scale, records=records, times=times, label=label)

    @classmethod
    def from_eps(cls, sensitivity: float, eps: float, *, times: int = 1, label: str = "") -> Laplace:
        return cls(sensitivity=sensitivity, eps=eps, times=times, label=label)

    @classmethod
    def from_scale(cls, sensitivity: float, scale: float, *, times: int = 1, label: str = "") -> Laplace:
        return cls(sensitivity=sensitivity, scale=scale, times=times, label=label)

    def guarantee(self, n: int) -> DPGuarantee:
        e = laplace_epsilon(self.sensitivity_at(n), self.scale) if self.scale is not None else _eps(self.eps)
        return DPGuarantee(e, 0.0, "DR-3.6")


@dataclass(frozen=True, kw_only=True)
class Gaussian(MeanQuery, DPStep):
    """Gaussian noise N(0, sigma^2) on a query of L2 sensitivity: ``delta`` chooses the point of
    its exact privacy curve (Balle-Wang Thm 8); or a target (``eps``, ``delta``), calibrated by
    the analytic Gaussian mechanism."""

    sensitivity: float | None = _param(POSITIVE)
    delta: float | None = _param(DELTA_GAUSSIAN)
    sigma: float | None = _param(POSITIVE)
    eps: float | None = _param(POSITIVE)
    total_eps: float | None = _param(POSITIVE)
    total_delta: float | None = _param(DELTA_GAUSSIAN)
    value_min: float | None = _param(VALUE)
    value_max: float | None = _param(VALUE)
    records: int | None = _param(COUNT)

    type_name: ClassVar[str] = "gaussian"
    forms: ClassVar[tuple[tuple[str, ...], ...]] = (
        ("sensitivity", "sigma", "delta"),
        ("sensitivity", "eps", "delta"),
        ("sensitivity", "total_eps", "total_delta"),
        ("value_min", "value_max", "sigma", "delta"),
        ("value_min", "value_max", "total_eps", "total_delta"),
    )
    optional: ClassVar[tuple[str, ...]] = ("records",)
    summary: ClassVar[str] = (
        "Gaussian noise N(0, sigma^2) on a query of L2 sensitivity; delta "
        "chooses the point of its exact (Balle-Wang) privacy curve; or a "
        "target (eps, delta), calibrated by the analytic Gaussian mechanism"
    )

    @classmethod
    def from_sigma(cls, sensitivity: float, sigma: float, delta: float, *, times: int = 1, label: str = "") -> Gaussian:
        return cls(sensitivity=sensitivity, sigma=sigma, delta=delta, times=times, label=label)

    @classmethod
    def from_budget(
        cls, sensitivity: float, total_eps: float, total_delta: float, *, times: int = 1, label: str = ""
    ) -> Gaussian:
        """``times`` Gaussian queries that together are (total_eps, total_delta)-DP: sigma
        calibrated by the exact composition (sqrt(times) sensitivity / mu, mu the largest
        GDP parameter meeting the budget, Dong-Roth-Su Cor. 2.13 and 3.3)."""
        return cls(sensitivity=sensitivity, total_eps=total_eps, total_delta=total_delta, times=times, label=label)

    @classmethod
    def mean(
        cls,
        value_min: float,
        value_max: float,
        *,
        sigma: float | None = None,
        delta: float | None = None,
        total_eps: float | None = None,
        total_delta: float | None = None,
        records: int | None = None,
        times: int = 1,
        label: str = "",
    ) -> Gaussian:
        """A mean query of values in [value_min, value_max]: noise ``sigma`` (with ``delta``, the
        point of its curve shown), or a budget (``total_eps``, ``total_delta``) for all
        ``times`` runs."""
        return cls(
            value_min=value_min,
            value_max=value_max,
            sigma=sigma,
            delta=delta,
            total_eps=total_eps,
            total_delta=total_delta,
            records=records,
            times=times,
            label=label,
        )

    @classmethod
    def from_eps(cls, sensitivity: float, eps: float, delta: float, *, times: int = 1, label: str = "") -> Gaussian:
        return cls(sensitivity=sensitivity, eps=eps, delta=delta, times=times, label=label)

    def noise_sigma(self, n: int) -> float:
        """sigma on ``n`` records: as given; the analytic Gaussian's for the target (eps,
        delta); or, for a budget, sqrt(times) sensitivity / mu with mu the largest GDP parameter
        meeting (total_eps, total_delta) (exact composition); rounded up."""
        if self.sigma is not None:
            return self.sigma
        if self.total_eps is not None:
            assert self.total_delta is not None
            return gdp_sigma(self.sensitivity_at(n), _budget_mu(self.total_eps, self.total_delta), self.times)
        assert self.sensitivity is not None and self.delta is not None
        return _analytic_sigma(self.sensitivity, _eps(self.eps), self.delta)

    def point_delta(self) -> float:
        """The delta of the (eps, delta) point shown for one run (a budget: total_delta/times,
        rounded down)."""
        if self.delta is not None:
            return self.delta
        assert self.total_delta is not None
        return float_down(Fraction(self.total_delta) / self.times)

    def guarantee(self, n: int) -> DPGuarantee:
        e = gaussian_epsilon(self.noise_sigma(n), self.sensitivity_at(n), self.point_delta())
        return DPGuarantee(e, self.point_delta(), "BW18-8")

    def accounting(self, n: int, g: DPGuarantee | None) -> Accounting:
        """mu = Delta/sigma (Dong-Roth-Su Thm 2.7) and rho = Delta^2/(2 sigma^2) (Bun-Steinke
        Prop. 1.6); ``delta`` is only the point of the curve shown for the run."""
        sigma = self.noise_sigma(n)
        sens = self.sensitivity_at(n)
        # (the float test, with a factor 2 to spare, settles all but the boundary cases)
        if float(sens) > 0.5 * MU_MAX * sigma and Fraction(sens) > MU_MAX * Fraction(sigma):
            raise InvalidParameter(
                "sigma",
                sigma,
                f"at least sensitivity/{MU_MAX:g} (mu = sensitivity/sigma above {MU_MAX:g}: no eps <= 1e12 "
                "nats is reached at any delta below 1)",
            )
        mu, rho = _mu_rho(sens, sigma)
        return Accounting(
            mu=mu,
            rho=rho,
            theorems=("DRS22-2.7", "BS16-1.6"),
        )

    def inputs_text(self) -> str:
        text = super().inputs_text()
        return text if self.sigma is not None or self.depends_on_n else f"{text}, sigma={self.noise_sigma(1)!r}"


@dataclass(frozen=True, kw_only=True)
class Exponential(DPStep):
    """The exponential mechanism: ``eps``, or the coefficient c of exp(c u) with the score's
    ``sensitivity`` (Dwork-Roth Thm 3.10; ``monotone`` scores halve it)."""

    eps: float | None = _param(POSITIVE)
    sensitivity: float | None = _param(POSITIVE)
    coefficient: float | None = _param(POSITIVE)
    monotone: bool | None = _param(bool)

    type_name: ClassVar[str] = "exponential"
    forms: ClassVar[tuple[tuple[str, ...], ...]] = (("eps",), ("sensitivity", "coefficient"))
    optional: ClassVar[tuple[str, ...]] = ("monotone",)
    summary: ClassVar[str] = "exponential mechanism: eps, or the coefficient c of exp(c u) with the score's sensitivity"

    @classmethod
    def from_eps(cls, eps: float, *, times: int = 1, label: str = "") -> Exponential:
        return cls(eps=eps, times=times, label=label)

    @classmethod
    def from_coefficient(
        cls, sensitivity: float, coefficient: float, *, monotone: bool = False, times: int = 1, label: str = ""
    ) -> Exponential:
        return cls(sensitivity=sensitivity, coefficient=coefficient, monotone=monotone, times=times, label=label)

    def guarantee(self, n: int) -> DPGuarantee:
        if self.eps is not None:
            return DPGuarantee(self.eps, 0.0, "DR-3.10")
        assert self.sensitivity is not None and self.coefficient is not None
        return exponential_mechanism_epsilon(self.sensitivity, self.coefficient, monotone=bool(self.monotone))

    def accounting(self, n: int, g: DPGuarantee | None) -> Accounting:
        """The exponential mechanism sampling with exp(c u) is 2 c Delta_u-bounded range (Steinke's
        note, Lemma 3), so (2 c Delta_u)^2/8-zCDP (Cesar-Rogers 2021); 2 c Delta_u is the step's
        eps, or twice it with ``monotone`` scores. The better of that and the pure-DP rho."""
        if g is None:
            g = self.guarantee(n)
        eta = g.eps if not self.monotone else float_up(2 * Fraction(g.eps))
        pure = zcdp_pure(g.eps)
        br = zcdp_bounded_range(eta)
        if br < pure:
            return Accounting(rho=br, theorems=("CR21-BR",))
        return Accounting(rho=pure, theorems=("S24-pure-zCDP",))


@dataclass(frozen=True, kw_only=True)
class ReportNoisyMax(DPStep):
    """Report noisy max with Laplace noise: ``eps``, or the noise ``scale`` and the scores'
    ``sensitivity`` (Dwork-Roth Claim 3.9)."""

    eps: float | None = _param(POSITIVE)
    sensitivity: float | None = _param(POSITIVE)
    scale: float | None = _param(POSITIVE)
    monotone: bool | None = _param(bool)

    type_name: ClassVar[str] = "report_noisy_max"
    forms: ClassVar[tuple[tuple[str, ...], ...]] = (("eps",), ("sensitivity", "scale"))
    optional: ClassVar[tuple[str, ...]] = ("monotone",)
    summary: ClassVar[str] = "report noisy max with Laplace noise: eps, or the scale and sensitivity"

    @classmethod
    def from_eps(cls, eps: float, *, times: int = 1, label: str = "") -> ReportNoisyMax:
        return cls(eps=eps, times=times, label=label)

    @classmethod
    def from_scale(
        cls, sensitivity: float, scale: float, *, monotone: bool = False, times: int = 1, label: str = ""
    ) -> ReportNoisyMax:
        return cls(sensitivity=sensitivity, scale=scale, monotone=monotone, times=times, label=label)

    def guarantee(self, n: int) -> DPGuarantee:
        if self.eps is not None:
            return DPGuarantee(self.eps, 0.0, "DR-3.9")
        assert self.sensitivity is not None and self.scale is not None
        return report_noisy_max_epsilon(self.sensitivity, self.scale, monotone=bool(self.monotone))


@dataclass(frozen=True, kw_only=True)
class SparseVector(DPStep):
    """AboveThreshold with ``c`` positive answers (Dwork-Roth 'Sparse'): a target ``eps``, or
    the two noise scales; optional ``delta`` (default 0) and query ``sensitivity`` (default 1)."""

    c: int = _param(COUNT)
    eps: float | None = _param(POSITIVE)
    threshold_scale: float | None = _param(POSITIVE)
    query_scale: float | None = _param(POSITIVE)
    delta: float | None = _param(DELTA)
    sensitivity: float | None = _param(POSITIVE)

    type_name: ClassVar[str] = "sparse_vector"
    forms: ClassVar[tuple[tuple[str, ...], ...]] = (("c", "eps"), ("c", "threshold_scale", "query_scale"))
    optional: ClassVar[tuple[str, ...]] = ("delta", "sensitivity")
    summary: ClassVar[str] = "AboveThreshold with c positive answers (Dwork-Roth 'Sparse')"

    @classmethod
    def from_eps(
        cls,
        c: int,
        eps: float,
        *,
        delta: float | None = None,
        sensitivity: float | None = None,
        times: int = 1,
        label: str = "",
    ) -> SparseVector:
        return cls(c=c, eps=eps, delta=delta, sensitivity=sensitivity, times=times, label=label)

    @classmethod
    def from_scales(
        cls,
        c: int,
        threshold_scale: float,
        query_scale: float,
        *,
        delta: float | None = None,
        sensitivity: float | None = None,
        times: int = 1,
        label: str = "",
    ) -> SparseVector:
        return cls(
            c=c,
            threshold_scale=threshold_scale,
            query_scale=query_scale,
            delta=delta,
            sensitivity=sensitivity,
            times=times,
            label=label,
        )

    def guarantee(self, n: int) -> DPGuarantee:
        d = 0.0 if self.delta is None else self.delta
        sens = 1.0 if self.sensitivity is None else self.sensitivity
        if self.eps is not None:
            b1, b2 = sparse_vector_scales(self.c, self.eps, sensitivity=sens, delta=d)
        else:
            assert self.threshold_scale is not None and self.query_scale is not None
            b1, b2 = self.threshold_scale, self.query_scale
        return sparse_vector(self.c, b1, b2, sensitivity=sens, delta=d)


@dataclass(frozen=True, kw_only=True)
class Thresholdout(DPStep):
    """Thresholdout on the study's data as holdout (``budget`` B, noise rate ``sigma``):
    (2B/(sigma n), 0)-DP. ``holdout_n``, if given, must equal the study's n (the data the final
    test uses are the holdout set)."""

    budget: int = _param(COUNT)
    sigma: float = _param(POSITIVE)
    holdout_n: int | None = _param(COUNT)

    type_name: ClassVar[str] = "thresholdout"
    forms: ClassVar[tuple[tuple[str, ...], ...]] = (("budget", "sigma"),)
    optional: ClassVar[tuple[str, ...]] = ("holdout_n",)
    summary: ClassVar[str] = "Thresholdout on the study's data as holdout (budget B, noise rate sigma)"

    def guarantee(self, n: int) -> DPGuarantee:
        return thresholdout_dp(self.budget, self.sigma, n if self.holdout_n is None else self.holdout_n)


@dataclass(frozen=True, kw_only=True)
class GenericDP(DPStep):
    """A step known to be (``eps``, ``delta``)-DP (``delta`` default 0: pure DP)."""

    eps: float = _param(POSITIVE)
    delta: float | None = _param(DELTA)

    type_name: ClassVar[str] = "dp"
    forms: ClassVar[tuple[tuple[str, ...], ...]] = (("eps",),)
    optional: ClassVar[tuple[str, ...]] = ("delta",)
    summary: ClassVar[str] = "a generic (eps, delta)-DP step (delta default 0)"

    def guarantee(self, n: int) -> DPGuarantee:
        return DPGuarantee(self.eps, 0.0 if self.delta is None else self.delta, "given")


@dataclass(frozen=True, kw_only=True)
class Description(Step):
    """An output taking one of ``range_size`` values (DFHPRR Thm 6)."""

    range_size: int = _param(COUNT)

    type_name: ClassVar[str] = "description"
    forms: ClassVar[tuple[tuple[str, ...], ...]] = (("range_size",),)
    summary: ClassVar[str] = "an output taking one of range_size values"


@dataclass(frozen=True, kw_only=True)
class MutualInformation(Step):
    """An output whose mutual information with the data is at most ``mi_bits`` bits (RRST
    Lemma 1.5)."""

    mi_bits: float = _param(MI_BITS)

    type_name: ClassVar[str] = "mutual_information"
    forms: ClassVar[tuple[tuple[str, ...], ...]] = (("mi_bits",),)
    summary: ClassVar[str] = "a step whose output has mutual information at most mi_bits with the data"


#: the study file's step types and their classes
STEP_CLASSES: dict[str, type[Step]] = {
    c.type_name: c
    for c in (
        Laplace,
        Gaussian,
        Exponential,
        ReportNoisyMax,
        SparseVector,
        Thresholdout,
        GenericDP,
        Description,
        MutualInformation,
    )
}


def step_from_mapping(raw: Mapping[str, object]) -> Step:
    """A step from a mapping as a study file's ``[[steps]]`` table holds it (``type``, its
    parameters, optional ``times`` and ``label``); every key and value is checked by the step's
    class, so a refusal names the key as the file does.

    >>> step_from_mapping({"type": "description", "range_size": 20, "times": 2}).range_size
    20
    """
    typ = raw.get("type")
    cls = STEP_CLASSES.get(typ) if isinstance(typ, str) else None
    if cls is None:
        raise PlanError("type", f"{shown_value(typ)} is not a step type; allowed: " + ", ".join(STEP_CLASSES))
    known = {*cls.keys(), "type", "label", "times"}
    for key in raw:
        if key not in known:
            raise PlanError(str(key), f"unknown key for type {typ!r}; allowed: " + ", ".join(sorted(known - {"type"})))
    kwargs = {k: v for k, v in raw.items() if k != "type"}
    return cls(**kwargs)  # type: ignore[arg-type]
