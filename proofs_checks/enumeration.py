"""Exact joint tables of (X, A(X)) for X drawn from a distribution over datasets.

* :func:`typeclass_joint`: for a mechanism that depends on binary data only through the count
  (a matrix M[c, y]) and a dataset distribution that does too (P^n for a Bernoulli P, mixtures
  of such, anything exchangeable), the (n + 1) x |Y| table of (count, output). Every
  information quantity of (X; A(X)) equals that of (C; A(X)): the cells (x, y) with the same
  (count, y) share their likelihood ratio, and the supremum over events is attained on whole
  groups of equal ratio (see maxinfo_bounds.measures). Exact in Fractions, or float64.
* :func:`full_joint`: all |X|^n datasets over a finite domain of d symbols, for any mechanism
  given as a function of the datasets, built in chunks with progress, float64 (rounding error of
  each cell below 2^-50 relative).
* :func:`adaptive_compose`: a second count-based mechanism that sees the first one's output.

Tables are sized before allocation; above :data:`MAX_CELLS` (2^28 cells) :class:`TooLarge`.

>>> from fractions import Fraction as F
>>> from proofs_checks.mechanisms import geometric_count
>>> J = typeclass_joint(geometric_count(2, F(1, 2)), 2, F(1, 2))
>>> sum(map(sum, J))
Fraction(1, 1)
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from .codes import TooLarge

__all__ = [
    "MAX_CELLS",
    "binomial_weights",
    "mixture_weights",
    "typeclass_joint",
    "full_joint",
    "product_dataset_distribution",
    "adaptive_compose",
    "check_size",
]

#: the largest table built (2^28 float64 cells = 2 GiB)
MAX_CELLS = 1 << 28


def check_size(what: str, rows: int, cols: int) -> None:
    """Refuse a table of rows x cols cells above MAX_CELLS before allocating it."""
    if rows * cols > MAX_CELLS:
        raise TooLarge(
            f"{what}: {rows} x {cols} cells ({rows * cols * 8 / 2**30:.1f} GiB at "
            f"8 bytes) exceeds the {MAX_CELLS}-cell budget: refused before allocation"
        )


def binomial_weights(n: int, p: Any) -> Any:
    """P(C = c) for C ~ Binomial(n, p): exact Fractions for a Fraction p, else float64 (scipy)."""
    if isinstance(p, Fraction):
        return [math.comb(n, c) * p**c * (1 - p) ** (n - c) for c in range(n + 1)]
    from scipy.stats import binom

    return binom.pmf(np.arange(n + 1), n, float(p))


def mixture_weights(n: int, ps: Sequence[Any], ws: Sequence[Any]) -> Any:
    """Count distribution of a mixture of i.i.d. Bernoulli(ps[j]) datasets with weights ws (an
    exchangeable, non-product distribution)."""
    parts = [binomial_weights(n, p) for p in ps]
    if all(isinstance(p, Fraction) for p in ps):
        return [sum((Fraction(w) * part[c] for w, part in zip(ws, parts)), Fraction(0)) for c in range(n + 1)]
    return sum(float(w) * np.asarray(part, dtype=float) for w, part in zip(ws, parts))


def typeclass_joint(M: Any, n: int, p: Any = None, *, weights: Any = None) -> Any:
    """The (count, output) joint table: weights[c] * M[c][y] (weights default: Binomial(n, p))."""
    w = binomial_weights(n, p) if weights is None else weights
    rows = len(M)
    if rows != n + 1:
        raise ValueError(f"M has {rows} rows: must have n + 1 = {n + 1}")
    check_size("type-class table", rows, len(M[0]))
    if isinstance(M, np.ndarray) or not isinstance(w, list):
        return np.asarray(w, dtype=float)[:, None] * np.asarray(M, dtype=float)
    return [[w[c] * v for v in M[c]] for c in range(rows)]


def product_dataset_distribution(n: int, p: Any) -> np.ndarray:
    """P(x) for all |X|^n datasets of n i.i.d. records (float64). ``p``: the probability of a 1
    (binary records), or a probability vector over the d symbols of a finite domain. Dataset index
    = sum_i x_i d^i (record i is digit i in base d)."""
    probs = [1 - float(p), float(p)] if np.ndim(p) == 0 else [float(v) for v in p]
    d = len(probs)
    check_size("dataset distribution", d**n, 1)
    out = np.ones(1)
    for _ in range(n):
        out = np.concatenate([out * q for q in probs])
    return out


def full_joint(
    rows_fn: Callable[[np.ndarray], np.ndarray],
    n: int,
    px: np.ndarray,
    n_outputs: int,
    *,
    d: int = 2,
    chunk: int = 1 << 16,
    progress: bool = False,
) -> np.ndarray:
    """The d^n x |Y| joint table px[x] * A(x)[y], over all datasets of n records from a domain
    of d symbols, built in chunks (float64; each cell a product of a few float64 factors, relative
    rounding error below 2^-50).

    ``rows_fn`` maps an (N, n) array of datasets (symbols 0..d-1) to their (N, |Y|) output
    distributions."""
    N = d**n
    check_size("full joint table", N, n_outputs)
    if px.shape != (N,):
        raise ValueError(f"px has shape {px.shape}: must be ({N},)")
    out = np.empty((N, n_outputs))
    powers = d ** np.arange(n)
    t0 = time.monotonic()
    for start in range(0, N, chunk):
        idx = np.arange(start, min(start + chunk, N))
        X = ((idx[:, None] // powers[None, :]) % d).astype(np.int8)
        out[start : start + len(idx)] = px[idx, None] * rows_fn(X)
        if progress and (start // chunk) % 16 == 15:
            print(f"[enumeration] {start + len(idx)}/{N} datasets, {time.monotonic() - t0:.1f}s", file=sys.stderr)
    return out


def adaptive_compose(M1: Any, second: Callable[[int], Any]) -> Any:
    """Rows c -> outputs (y1, y2) of running M1, then the mechanism ``second(y1)`` (a matrix
    over counts chosen from the first output); output index y1 * |Y2| + y2."""
    n1 = len(M1[0])
    seconds = [second(y1) for y1 in range(n1)]
    n2 = len(seconds[0][0])
    exact = not isinstance(M1, np.ndarray) and all(not isinstance(s, np.ndarray) for s in seconds)
    rows = []
    for c in range(len(M1)):
        rows.append([M1[c][y1] * seconds[y1][c][y2] for y1 in range(n1) for y2 in range(n2)])
    return rows if exact else np.asarray(rows, dtype=float)
