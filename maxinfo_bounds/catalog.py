"""The theorem catalog: one entry per encoded result, and the result type they return.

An entry (:class:`Theorem`) holds the id, the paper and result number, the LaTeX statement, the
sympy statement, the conditions as text, the units, the parameters and the certified evaluator.
The documentation page ``docs/catalog.md`` and ``maxinfo catalog`` / ``maxinfo explain ID`` are
generated from it (``maxinfo catalog --markdown > docs/catalog.md``).

Theorem modules register their entries at import; :func:`entries` imports them all.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .numeric import InvalidParameter
from .results import Bound

__all__ = ["Bound", "Param", "Theorem", "register", "get", "entries", "catalog_markdown"]


@dataclass(frozen=True)
class Param:
    """A parameter of a catalog entry: name, type, domain (as text) and description."""

    name: str
    kind: type
    domain: str
    help: str


@dataclass(frozen=True)
class Theorem:
    """A catalog entry."""

    id: str
    paper: str
    number: str
    title: str
    latex: str
    conditions: tuple[str, ...]
    units: str
    params: tuple[Param, ...]
    evaluator: Callable[..., Any]
    sympy_statement: Callable[[], Any]
    returns: str
    notes: str = ""
    aliases: tuple[str, ...] = field(default=())
    #: JSON/CLI name of a scalar result (with its unit), e.g. "gamma" or "m_bits"
    value_name: str = "value"

    def explain(self) -> str:
        """A plain-text explanation (what ``maxinfo explain ID`` prints)."""
        lines = [f"{self.id}: {self.title}", f"  source: {self.paper} {self.number}",
                 f"  statement: {self.latex}", f"  units: {self.units}", "  conditions:"]
        lines += [f"    * {c}" for c in self.conditions]
        lines.append("  parameters:")
        lines += [f"    --{p.name.replace('_', '-')} ({p.domain}): {p.help}" for p in self.params]
        lines.append(f"  returns: {self.returns}")
        lines.append(f"  sympy: {self.sympy_statement()}")
        if self.notes:
            lines.append(f"  notes: {self.notes}")
        return "\n".join(lines)


_REGISTRY: dict[str, Theorem] = {}
_MODULES = ("pvalues", "description", "maxinfo_dp", "mutual_info", "composition",
            "generalization", "dp_accounting", "holdout")


def register(entry: Theorem) -> Theorem:
    if entry.id in _REGISTRY and _REGISTRY[entry.id] is not entry:
        raise RuntimeError(f"duplicate catalog id {entry.id!r}")  # pragma: no cover
    _REGISTRY[entry.id] = entry
    return entry


def entries() -> list[Theorem]:
    """All catalog entries, in a stable order."""
    for mod in _MODULES:
        importlib.import_module(f"maxinfo_bounds.theorems.{mod}")
    return sorted(_REGISTRY.values(), key=lambda e: e.id)


def get(theorem_id: str) -> Theorem:
    """The entry with this id; :class:`InvalidParameter` naming the known ids otherwise."""
    known = {e.id: e for e in entries()}
    if theorem_id not in known:
        raise InvalidParameter("theorem_id", theorem_id, "one of " + ", ".join(sorted(known)))
    return known[theorem_id]


def catalog_markdown() -> str:
    """The documentation page of the catalog, generated from the registry."""
    out = ["# Theorem catalog", "",
           "Generated from `maxinfo_bounds.catalog` by `maxinfo catalog --markdown`; "
           "do not edit by hand (a test checks it is current).", "",
           "Every evaluator is certified: upper bounds are rounded up and corrected thresholds "
           "down (mpmath interval arithmetic; the vectorised numpy paths add a relative margin "
           "of 2^-44 in the safe direction, plus 2^-49 per unit of the size of a computed "
           "exponent). Information is in bits.", "",
           "| id | source | result |", "| --- | --- | --- |"]
    for e in entries():
        out.append(f"| [`{e.id}`](#{e.id.lower().replace('.', '')}) | "
                   f"{e.paper} {e.number} | {e.title} |")
    for e in entries():
        out += ["", f"## {e.id}", "", f"**{e.title}** — {e.paper} {e.number}.", "",
                f"Statement: `{e.latex}`", "", f"Units: {e.units}.", "", "Conditions:", ""]
        out += [f"- {c}" for c in e.conditions]
        out += ["", "Parameters:", ""]
        out += [f"- `{p.name}` ({p.domain}): {p.help}" for p in e.params]
        out += ["", f"Returns: {e.returns}"]
        if e.notes:
            out += ["", e.notes]
    return "\n".join(out) + "\n"
