"""Theorem families, one module each (see docs/design.md).

Each evaluator returns a certified float: upper bounds rounded up, corrected thresholds and
lower bounds rounded down, computed with mpmath interval arithmetic.
"""
