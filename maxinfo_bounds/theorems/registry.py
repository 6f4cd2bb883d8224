"""The registry the theorem modules write their catalog entries into.

Each theorem module declares its results here at import, beside the formulas
(``register(Theorem(...))``); :mod:`maxinfo_bounds.catalog` imports every theorem module
statically and reads the entries back (``maxinfo catalog``, ``maxinfo explain ID``, the
generated ``docs/catalog.md``). The arrow runs one way: theorems → registry ← catalog.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Param", "Theorem", "register", "REGISTRY"]


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


#: id -> entry, filled by :func:`register` as the theorem modules are imported
REGISTRY: dict[str, Theorem] = {}


def register(entry: Theorem) -> Theorem:
    """Add a catalog entry (an id may be registered once)."""
    if entry.id in REGISTRY and REGISTRY[entry.id] is not entry:
        raise RuntimeError(f"duplicate catalog id {entry.id!r}")  # pragma: no cover
    REGISTRY[entry.id] = entry
    return entry
