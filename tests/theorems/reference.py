"""50-digit reference helpers for the theorem tests."""

from __future__ import annotations

import os
from fractions import Fraction

import mpmath
import numpy as np

DPS = 50

# Points per random sweep. Mutation runs (HYPOTHESIS_PROFILE=mutation, docs/verification.md) run
# each mutant's covering tests, so they use a twentieth: a wrong formula fails at most points.
SWEEP = 500 if os.environ.get("HYPOTHESIS_PROFILE") == "mutation" else 10_000


def mp(x: float) -> mpmath.mpf:
    """The exact value of a float (or int) as an mpf (at the current precision, >= 53 bits)."""
    f = Fraction(float(x)) if not isinstance(x, int) else Fraction(x)
    with mpmath.workdps(DPS + 20):
        return mpmath.mpf(f.numerator) / f.denominator


def log_uniform(rng: np.random.Generator, lo: float, hi: float, size: int) -> np.ndarray:
    return np.exp(rng.uniform(np.log(lo), np.log(hi), size))


def check_up(got: float, exact: mpmath.mpf, rel: float) -> None:
    """got is an upper bound of exact, and not looser than rel (relative)."""
    g = mp(got)
    assert g >= exact, (got, exact)
    assert g - exact <= abs(exact) * rel + mpmath.mpf(10) ** -300, (got, exact)


def check_down(got: float, exact: mpmath.mpf, rel: float) -> None:
    g = mp(got)
    assert g <= exact, (got, exact)
    assert exact - g <= abs(exact) * rel + 16 * mpmath.mpf(2) ** -1074, (got, exact)  # subnormal spacing


def sympy_value(expr, **values) -> mpmath.mpf:
    """Evaluate a catalog sympy statement at 60 digits, substituting symbols by name."""
    from fractions import Fraction as _F

    import sympy

    subs = {s: sympy.Rational(_F(values[s.name])) for s in expr.free_symbols}
    return mpmath.mpf(str(sympy.N(expr.subs(subs), 60)))


#: the array (fast) paths' documented relative margin, 2^-44, with x16 slack
REL = 2.0**-40


def rel_exp(arg):
    """Documented fast-path margin: 2^-44 relative plus 2^-50 per unit of |exponent| (x 16 slack)."""
    return REL + abs(float(arg)) * 2.0**-46


def bw_delta(s, sigma, eps, dps: int = DPS) -> mpmath.mpf:
    """Balle & Wang (2018) Thm 8's delta(sigma) = Phi(s/2σ - εσ/s) - e^ε Phi(-s/2σ - εσ/s),
    written from the theorem, at ``dps`` digits (float or Fraction inputs read exactly to
    dps + 20 digits; mpf inputs as they are)."""

    def exact(x):
        if isinstance(x, mpmath.mpf):
            return x
        f = Fraction(x)
        return mpmath.mpf(f.numerator) / f.denominator

    with mpmath.workdps(dps + 20):
        S, sg, E = (exact(x) for x in (s, sigma, eps))
    with mpmath.workdps(dps):
        return mpmath.ncdf(S / (2 * sg) - E * sg / S) - mpmath.exp(E) * mpmath.ncdf(-S / (2 * sg) - E * sg / S)
