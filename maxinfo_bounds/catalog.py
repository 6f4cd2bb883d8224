"""The theorem catalog: one entry per encoded result, and the result type they return.

An entry (:class:`Theorem`) holds the id, the paper and result number, the LaTeX statement, the
sympy statement, the conditions as text, the units, the parameters and the certified evaluator.
The documentation page ``docs/catalog.md`` and ``maxinfo catalog`` / ``maxinfo explain ID`` are
generated from it (``maxinfo catalog --markdown > docs/catalog.md``).

The entries live in :mod:`maxinfo_bounds.theorems.registry`, written by the theorem modules at
import; this module imports every theorem module statically and reads them back.
"""

from __future__ import annotations

from .numeric import InvalidParameter
from .results import Bound

# every theorem module, imported for its entries (each registers them at import)
from .theorems import (  # noqa: F401
    binomial_split,
    composition,
    description,
    dp_accounting,
    estimation,
    generalization,
    holdout,
    maxinfo_dp,
    mutual_info,
    pvalues,
)
from .theorems.registry import REGISTRY, Param, Theorem, register

__all__ = ["Bound", "Param", "Theorem", "register", "get", "entries", "catalog_markdown"]


def entries() -> list[Theorem]:
    """All catalog entries, in a stable order."""
    return sorted(REGISTRY.values(), key=lambda e: e.id)


def get(theorem_id: str) -> Theorem:
    """The entry with this id; :class:`InvalidParameter` naming the known ids otherwise."""
    known = {e.id: e for e in entries()}
    if theorem_id not in known:
        raise InvalidParameter("theorem_id", theorem_id, "one of " + ", ".join(sorted(known)))
    return known[theorem_id]


def catalog_markdown() -> str:
    """The documentation page of the catalog, generated from the registry."""
    out = [
        "# Theorem catalog",
        "",
        "Generated from `maxinfo_bounds.catalog` by `maxinfo catalog --markdown`; "
        "do not edit by hand (a test checks it is current).",
        "",
        "Every evaluator is certified: upper bounds are rounded up and corrected thresholds "
        "down (mpmath interval arithmetic; the vectorised numpy paths add a relative margin "
        "of 2^-44 in the safe direction, plus 2^-50 of an exponential term per unit of the "
        "size of its computed exponent (in nats), plus 2^-1071 absolute (8 subnormal ulps); "
        "entries where float64 cancels go through the interval path). Fractions and "
        "integers above 2^53 are evaluated at their exact values. Information is in bits.",
        "",
        "| id | source | result |",
        "| --- | --- | --- |",
    ]
    for e in entries():
        out.append(f"| [`{e.id}`](#{e.id.lower().replace('.', '')}) | {e.paper} {e.number} | {e.title} |")
    for e in entries():
        out += [
            "",
            f"## {e.id}",
            "",
            f"**{e.title}** — {e.paper} {e.number}.",
            "",
            f"Statement: `{e.statement_latex()}`",
            "",
            f"Units: {e.units}.",
            "",
            "Conditions:",
            "",
        ]
        out += [f"- {c}" for c in e.all_conditions()]
        out += ["", "Parameters:", ""]
        out += [f"- `{p.name}` ({p.domain_text}): {p.help}" for p in e.params]
        out += ["", f"Returns: {e.returns}"]
        if e.notes:
            out += ["", e.notes]
    return "\n".join(out) + "\n"
