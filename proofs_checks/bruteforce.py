"""Brute-force references: suprema over *all* events, by enumeration, in exact arithmetic.

These are deliberately naive (``O(2^N N)``) and share no code with
:mod:`maxinfo_bounds.measures`, so that agreement between the two is evidence, not tautology.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import product

__all__ = ["MAX_EVENTS_N", "event_sums", "sup_ratio_all_events", "hockey_stick_all_events"]

#: Largest support size enumerated (2^N events).
MAX_EVENTS_N = 16


def event_sums(p: Sequence[Fraction], q: Sequence[Fraction]) -> list[tuple[Fraction, Fraction]]:
    """``(P(O), Q(O))`` for every event ``O`` of the support, the empty event included."""
    n = len(p)
    if n != len(q):
        raise ValueError(f"p and q have different lengths: {n} != {len(q)}")
    if n > MAX_EVENTS_N:
        raise ValueError(f"support size n={n} is too large to enumerate 2^n events: must be at most {MAX_EVENTS_N}")
    out = []
    for mask in product((0, 1), repeat=n):
        P = sum((pi for pi, m in zip(p, mask) if m), Fraction(0))
        Q = sum((qi for qi, m in zip(q, mask) if m), Fraction(0))
        out.append((P, Q))
    return out


def sup_ratio_all_events(p: Sequence[Fraction], q: Sequence[Fraction], beta: Fraction) -> Fraction | None:
    """``sup_{O: P(O) > beta} (P(O) - beta)/Q(O)`` over all ``2^N`` events.

    ``None`` stands for ``+inf`` (an event with ``P(O) > beta`` and ``Q(O) = 0``), ``0`` for an
    empty supremum.
    """
    best = Fraction(0)
    for P, Q in event_sums(p, q):
        if P > beta:
            if Q == 0:
                return None
            best = max(best, (P - beta) / Q)
    return best


def hockey_stick_all_events(p: Sequence[Fraction], q: Sequence[Fraction], c: Fraction) -> Fraction:
    """``max_O P(O) - c Q(O)`` over all events (``>= 0`` through the empty event)."""
    return max(P - c * Q for P, Q in event_sums(p, q))
