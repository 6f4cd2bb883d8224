"""Hypothesis strategies for exact finite distributions."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import strategies as st


@st.composite
def exact_dist(draw, n: int, *, allow_zero: bool = True, max_weight: int = 12) -> list[Fraction]:
    """A probability vector on ``n`` points with rational entries (zeros allowed)."""
    lo = 0 if allow_zero else 1
    w = draw(st.lists(st.integers(lo, max_weight), min_size=n, max_size=n))
    if sum(w) == 0:
        w[draw(st.integers(0, n - 1))] = 1
    total = sum(w)
    return [Fraction(x, total) for x in w]


@st.composite
def exact_pair(draw, max_n: int = 10, **kw) -> tuple[list[Fraction], list[Fraction]]:
    n = draw(st.integers(1, max_n))
    return draw(exact_dist(n, **kw)), draw(exact_dist(n, **kw))


@st.composite
def exact_joint(draw, max_rows: int = 4, max_cols: int = 4) -> list[list[Fraction]]:
    r = draw(st.integers(1, max_rows))
    c = draw(st.integers(1, max_cols))
    flat = draw(exact_dist(r * c))
    return [flat[i * c : (i + 1) * c] for i in range(r)]


@st.composite
def exact_stochastic(draw, rows: int, cols: int) -> list[list[Fraction]]:
    return [draw(exact_dist(cols)) for _ in range(rows)]


betas = st.fractions(min_value=0, max_value=Fraction(63, 64), max_denominator=64)
