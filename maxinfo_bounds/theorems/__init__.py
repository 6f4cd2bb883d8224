"""Theorem families, one module each (see ../shared/DESIGN.md).

Each evaluator returns a certified float: upper bounds rounded up, corrected thresholds and
lower bounds rounded down, computed with mpmath interval arithmetic.
"""
