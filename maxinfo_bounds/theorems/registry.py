"""The registry the theorem modules write their catalog entries into.

Each theorem module declares its results here at import, beside the formulas
(``register(Theorem(...))``); :mod:`maxinfo_bounds.catalog` imports every theorem module
statically and reads the entries back (``maxinfo catalog``, ``maxinfo explain ID``, the
generated ``docs/catalog.md``). The arrow runs one way: theorems → registry ← catalog.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from ..arith import Formula
from ..domain import Domain, Int, Real
from ..numeric import InvalidParameter, float_down
from ..results import Reportable

__all__ = ["positive_float_down", "Param", "Theorem", "register", "REGISTRY"]


@dataclass(frozen=True)
class Param:
    """A parameter of a catalog entry: its name, its :class:`~maxinfo_bounds.domain.Domain`
    (machine-readable: validation, array masks, CLI type and help, catalog text and the
    conditions a Bound records all read it) and a description.

    ``domain`` may instead be a text for a non-numeric parameter (a list of bounds); ``kind``
    then names its Python type."""

    name: str
    domain: Domain | str
    help: str
    kind_: type | None = None

    @property
    def kind(self) -> type:
        """``int``/``float`` for numeric parameters (the CLI type), else the declared type."""
        if isinstance(self.domain, Domain):
            return self.domain.kind
        return self.kind_ or object

    @property
    def domain_text(self) -> str:
        return self.domain.text if isinstance(self.domain, Domain) else self.domain

    def condition(self) -> str:
        """This parameter's domain as a condition (the text a Bound records)."""
        if isinstance(self.domain, Domain):
            return self.domain.condition(self.name)
        return f"{self.name}: {self.domain}"

    def check(self, x: object, *, hi: float | None = None, label: str | None = None) -> Any:
        """Validate a scalar argument against the domain (InvalidParameter naming it).

        ``hi`` tightens the upper end where the domain's relation ties it to another argument
        (``budget <= m``: ``check(budget, hi=m)``, closed at m); the error then states the actual
        range. A ``hi`` at or above the domain's own end leaves the domain as it is (an open end
        stays open)."""
        assert isinstance(self.domain, Domain)
        d = self.domain if hi is None or hi >= self.domain.hi else replace(self.domain, hi=hi, hi_open=False)
        return d.check(label or self.name, x)

    def check_float(self, x: object, *, label: str | None = None) -> float:
        """:meth:`check` as a float; ``label`` names the argument in errors (``steps[2].eps``)."""
        assert isinstance(self.domain, Domain)
        return self.domain.check_float(label or self.name, x)

    def mask(self, arr: Any) -> Any:
        """Entries of a float64 array inside the domain (relations not checked)."""
        assert isinstance(self.domain, Domain)
        return self.domain.mask(arr)

    def check_array(self, x: object) -> Any:
        """Validate every entry of an array argument; float64 back."""
        assert isinstance(self.domain, Domain)
        return self.domain.check_array(self.name, x)


def positive_float_down(param: Param, x: object) -> float:
    """A positive parameter the result echoes (a bound's beta), validated and rounded **down**
    to a float: the pair (k, beta) is then computed at the echoed float, and that float is
    never above the value asked for (a claim at a smaller beta is stronger). A value below the
    smallest positive float cannot be echoed: InvalidParameter."""
    exact = param.check(x)
    v = float_down(exact)
    if v == 0.0 and exact != 0:
        raise InvalidParameter(
            param.name,
            x,
            "at least the smallest positive float 5e-324 (a smaller value cannot be reported in the result)",
        )
    return v


# Parameters several theorem families share with the same domain and meaning, declared once
# (a family's own parameters are declared in its module)
N_RECORDS = Param("n", Int(1), "number of records")
EPS_POSITIVE = Param("eps", Real(0, lo_open=True, units="nats"), "DP parameter, nats")
M_BITS = Param("m", Real(0, units="bits"), "mutual information bound, bits")


@dataclass(frozen=True)
class Theorem:
    """A catalog entry."""

    id: str
    paper: str
    number: str
    title: str
    #: the hypotheses the parameters cannot express (parameter ranges live in ``params``; see
    #: :meth:`all_conditions`)
    conditions: tuple[str, ...]
    units: str
    params: tuple[Param, ...]
    evaluator: Callable[..., Any]
    returns: str
    #: the formula the default evaluator computes; statement and LaTeX are generated from it
    formula: Formula | None = None
    #: LaTeX left of the generated right-hand side, e.g. ``I_\infty(A, n) \le`` (or a function
    #: returning it, when it holds another generated formula: sympy is imported only on use)
    lhs: str | Callable[[], str] = ""
    #: for entries whose evaluator is an algorithm rather than a closed form: hand-written
    #: LaTeX for display, and ``statement`` building the sympy form from the same bodies the
    #: algorithm evaluates
    latex: str = ""
    statement: Callable[[], Any] | None = None
    notes: str = ""
    aliases: tuple[str, ...] = field(default=())
    #: optional keyword parameters of the evaluator a user may set (e.g. a target beta where
    #: the proof chooses beta); ``maxinfo bound`` offers them as optional options
    optional: tuple[Param, ...] = field(default=())
    #: the headline number's field in :meth:`report` (with its unit), e.g. "gamma", "m_bits",
    #: "k_bits" (a Bound's k) or "eps_nats" (a DPGuarantee's eps): a scalar result is reported
    #: under it, and ``maxinfo plot`` plots it
    value_name: str = "k_bits"
    #: the direction a scalar result is rounded in: "up" (upper bounds) or "down" (thresholds)
    value_rounding: str = "up"

    def report_key(self, p: Param) -> str:
        """The JSON/CLI name of a parameter's value, with its unit (``k_bits``, ``eps_nats``)."""
        u = p.domain.units if isinstance(p.domain, Domain) else ""
        return f"{p.name}_{u}" if u and not p.name.endswith(u) else p.name

    def report(self, **values: Any) -> dict[str, Any]:
        """Evaluate at ``values`` (by parameter name) and return the one JSON schema every
        calculator command prints: theorem, source, the inputs with units in their names,
        then the result's fields (a result type's ``as_dict()``, or the scalar under
        ``value_name`` with its rounding)."""
        values = {k: v for k, v in values.items() if v is not None or k not in {p.name for p in self.optional}}
        res = self.evaluator(**values)
        if isinstance(res, Reportable):
            result = res.as_dict()
            result.pop("theorem", None)
        else:
            result = {self.value_name: res, "rounding": self.value_rounding}
        out: dict[str, Any] = {"theorem": self.id, "source": f"{self.paper} {self.number}"}
        # an input whose name the result also uses (a composition's per-step eps beside its
        # total eps) is reported as input_<name>: the result never overwrites an input
        out.update(
            {
                (f"input_{k}" if (k := self.report_key(p)) in result else k): values[p.name]
                for p in self.params
                if p.name in values
            }
        )
        # an optional input is a request (a target beta), the result may differ: its own key
        out.update(
            {f"target_{self.report_key(p)}": values[p.name] for p in self.optional if values.get(p.name) is not None}
        )
        out.update(result)
        return out

    def __post_init__(self) -> None:
        if (self.formula is None) == (self.statement is None):
            raise ValueError(f"{self.id}: give exactly one of formula and statement")  # pragma: no cover

    def all_conditions(self) -> tuple[str, ...]:
        """The hypotheses (``conditions``: what the parameters cannot say) followed by each
        parameter's domain, generated from its :class:`Param` (ranges are declared once)."""
        return (*self.conditions, *(p.condition() for p in self.params))

    def sympy_statement(self) -> Any:
        """The statement as a sympy expression (generated from the formula when there is one)."""
        if self.formula is not None:
            return self.formula.statement()
        assert self.statement is not None
        return self.statement()

    def statement_latex(self) -> str:
        """The statement in LaTeX (the formula's, generated, behind ``lhs``)."""
        if self.formula is not None:
            lhs = self.lhs() if callable(self.lhs) else self.lhs
            return f"{lhs} {self.formula.latex()}".strip()
        return self.latex

    def explain(self) -> str:
        """A plain-text explanation (what ``maxinfo explain ID`` prints)."""
        lines = [
            f"{self.id}: {self.title}",
            f"  source: {self.paper} {self.number}",
            f"  statement: {self.statement_latex()}",
            f"  units: {self.units}",
            "  conditions:",
        ]
        lines += [f"    * {c}" for c in self.all_conditions()]
        lines.append("  parameters:")
        lines += [f"    --{p.name.replace('_', '-')} ({p.domain_text}): {p.help}" for p in self.params]
        lines += [f"    [--{p.name.replace('_', '-')}] ({p.domain_text}, optional): {p.help}" for p in self.optional]
        lines.append(f"  returns: {self.returns}")
        lines.append(f"  sympy: {self.sympy_statement()}")
        if self.notes:
            lines.append(f"  notes: {self.notes}")
        return "\n".join(lines)


#: id -> entry, filled by :func:`register` as the theorem modules are imported
REGISTRY: dict[str, Theorem] = {}


def register(entry: Theorem) -> Theorem:
    """Add a catalog entry (an id may be registered once)."""
    if entry.id in REGISTRY and REGISTRY[entry.id] is not entry:
        raise RuntimeError(f"duplicate catalog id {entry.id!r}")  # pragma: no cover
    REGISTRY[entry.id] = entry
    return entry
