"""proofs_checks: the verification suite of maxinfo_bounds.

It builds real small objects, computes their true information quantities exactly (with
:mod:`maxinfo_bounds.measures`, or independently by brute force) and holds the calculator's
results against them. Dependency runs one way: proofs_checks imports maxinfo_bounds, never the
reverse.
"""

__version__ = "0.1.0"
