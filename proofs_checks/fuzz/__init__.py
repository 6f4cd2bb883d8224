"""The fuzz campaign: every public evaluator against independent 70-digit references.

See :mod:`proofs_checks.fuzz.campaign` (the runner and its report), :mod:`.cases` (what is
called and how inputs are drawn) and :mod:`.references` (the formulas, in mpmath, written
without the calculator's code).
"""

from .campaign import run, run_chunk

__all__ = ["run", "run_chunk"]
