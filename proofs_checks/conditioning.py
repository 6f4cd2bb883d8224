"""RRST Lemma A.7 (the conditioning lemma of Kasiviswanathan-Smith) against exact tables.

The lemma, as RRST state it (no condition on the pairs beyond indistinguishability): if
``(X, Z) ≈_{ε,δ} (X', Z')`` then for every ``δ̂ > 0``

    Pr_{t ~ p(Z)} [ X|_{Z=t} ≈_{3ε, δ̂} X'|_{Z'=t} ]  >=  1 - 2δ/δ̂ - 2δ/(1 - e^{-ε}).

:func:`counterexample` builds, for any ``c = e^ε > 1``, a pair of 2 × 3 joint tables (exact
rationals; rows x0, x1, columns t0, t1, t2) on which it fails. Column t1 carries mass ``a``
under (X, Z) and ``a/c`` under (X', Z') (the largest ratio ε allows) and (X', Z') puts a δ-mass
``d`` on (x1, t1), which (X, Z) never visits; column t2 is the mirror image (the δ-mass ``d`` on
(x1, t2) under (X, Z)). Conditioning divides each δ-mass by a small column mass, so both columns'
conditionals are only ``(3ε, s)``-indistinguishable, ``s = d/(a/c + d)``, while their mass under
``p(Z)`` is ``a + d/s`` with ``a = c·d·(1/s - 1)``. For ``δ̂`` just below ``s`` the lemma claims
``Pr[good] >= 1 - 2d/δ̂ - 2dc/(c - 1)``; the true value is ``1 - a - d/s``, smaller as soon as
``s < (c - 1)²/(c(c + 1))``. So the lemma is false for every ε > 0: the column t1 uses the
marginal ratio e^ε that the bound's ``2δ/δ̂`` does not pay for.

RRST use the lemma once, in Claim 3.4, with ``(X, Z) = (X_i, A)`` and ``(X', Z') = X_i ⊗ A``
(conditioned on a prefix): the two Z-marginals are then *equal*, and for equal marginals
``Pr_t[not X|t ≈_{3ε,δ̂} X'|t] < 2δ/δ̂`` (each direction's bad columns carry hockey-stick mass
above ``δ̂`` times their common column mass, and the columns' hockey-stick masses at ``e^ε`` sum
to at most δ). :func:`bad_mass` computes the left side, and the tests hold the equal-marginal
statement against seeded random tables, so Thm 3.1's δ′ is valid as used.

All quantities are decided through hockey-stick divergences: ``A ≈_{ε,δ} B`` iff
``H_{e^ε}(A||B) <= δ`` and ``H_{e^ε}(B||A) <= δ`` (RRST Def 2.1).

>>> from fractions import Fraction as F
>>> r = counterexample(F(3, 2), F(1, 100), F(1, 500))     # eps = ln(3/2) = 0.405 <= 1/2
>>> r["delta"], r["s"], r["good_mass"]
(Fraction(1, 500), Fraction(1, 100), Fraction(503, 1000))
>>> r["lemma_bound_at"](F(1, 101)) > r["good_mass"]       # the lemma claims more than is true
True
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from maxinfo_bounds.measures import hockey_stick

__all__ = ["bad_mass", "column_deltas", "counterexample", "indist_delta"]


def indist_delta(a: Any, b: Any, c: Any) -> Any:
    """The smallest δ with ``A ≈_{ln c, δ} B``: the larger hockey-stick divergence at ``c``."""
    return max(hockey_stick(a, b, c), hockey_stick(b, a, c))


def column_deltas(J: Any, J2: Any, c: Any) -> list[Any]:
    """Per column t of two joint tables (rows x, columns t): the smallest δ̂ with
    ``X|_{Z=t} ≈_{3 ln c, δ̂} X'|_{Z'=t}``; ``None`` where t has mass 0 under Z (never drawn),
    ``inf`` where it has mass 0 under Z' only (the X'-conditional is undefined: always bad).
    Exact for tables of Fractions (``c`` a Fraction too), float64 otherwise."""
    J, J2 = np.asarray(J, dtype=object), np.asarray(J2, dtype=object)
    out: list[Any] = []
    for t in range(J.shape[1]):
        pz, pz2 = sum(J[:, t]), sum(J2[:, t])
        if pz == 0:
            out.append(None)
        elif pz2 == 0:
            out.append(float("inf"))
        else:
            out.append(indist_delta([v / pz for v in J[:, t]], [v / pz2 for v in J2[:, t]], c**3))
    return out


def bad_mass(J: Any, J2: Any, c: Any, dh: Any) -> Any:
    """``Pr_{t ~ p(Z)}[not X|_{Z=t} ≈_{3 ln c, dh} X'|_{Z'=t}]`` for joint tables (rows x, columns t),
    from :func:`column_deltas`; exact for Fractions, float64 otherwise."""
    J = np.asarray(J, dtype=object)
    out = J[0, 0] * 0
    for t, dt in enumerate(column_deltas(J, J2, c)):
        if dt is not None and dt > dh:
            out += sum(J[:, t])
    return out


def counterexample(c: Fraction, s: Fraction, d: Fraction) -> dict[str, Any]:
    """The exact 2 × 3 counterexample at ``e^ε = c`` (see the module docstring).

    Returns the tables, δ (the smallest making the joints (ln c, δ)-indistinguishable), the
    conditionals' smallest δ̂ in each column, the true probability of the good event for δ̂ just
    below ``s``, and the lemma's lower bound as a function of δ̂ (exact, as a Fraction).
    """
    a = c * d * (1 / s - 1)
    b = d * (1 / s - 1)
    if not (c > 1 and 0 < s < 1 and d > 0 and a + b + d < 1 and a / c + b / c + d < 1):
        raise ValueError(
            f"counterexample needs c > 1, 0 < s < 1, d > 0 and columns t1, t2 of mass below 1; got c={c}, s={s}, d={d}"
        )
    P = [[1 - a - b - d, a, b], [Fraction(0), Fraction(0), d]]
    Q = [[1 - a / c - d - b / c, a / c, b / c], [Fraction(0), d, Fraction(0)]]
    flat_p, flat_q = [v for row in P for v in row], [v for row in Q for v in row]
    if not (P[0][0] <= c * Q[0][0] and Q[0][0] <= c * P[0][0]):
        raise ValueError(f"counterexample: column t0 breaks the ratio c={c}; take d smaller")
    cols = column_deltas(P, Q, c)

    delta: Fraction = indist_delta(flat_p, flat_q, c)

    def bound(dh: Fraction) -> Fraction:
        return 1 - 2 * delta / dh - 2 * delta / (1 - 1 / c)

    return {
        "P": P,
        "Q": Q,
        "delta": delta,
        "column_deltas": cols,
        "s": cols[1],
        # for dh just below s: the columns whose conditionals are (3 eps, dh)-indistinguishable
        "good_mass": sum(
            (P[0][t] + P[1][t] for t, dt in enumerate(cols) if dt <= s * (1 - Fraction(1, 10**6))), Fraction(0)
        ),
        "lemma_bound_at": bound,
    }
