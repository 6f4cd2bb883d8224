"""Exact joint tables of (X, A(X)) for X drawn from a distribution over datasets.

* :func:`typeclass_joint`: for a mechanism that depends on binary data only through the count
  (a matrix M[c, y]) and a dataset distribution that does too (P^n for a Bernoulli P, mixtures
  of such, anything exchangeable), the (n + 1) x |Y| table of (count, output). Every
  information quantity of (X; A(X)) equals that of (C; A(X)): the cells (x, y) with the same
  (count, y) share their likelihood ratio, and the supremum over events is attained on whole
  groups of equal ratio (see maxinfo_bounds.measures). Exact in Fractions, or float64.
* :func:`full_joint`: all 2^n datasets, for any mechanism given as a function of the datasets,
  built in chunks with progress, float64 (rounding error of each cell below 2^-50 relative).
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

__all__ = ["MAX_CELLS", "binomial_weights", "mixture_weights", "typeclass_joint", "full_joint",
           "product_dataset_distribution", "adaptive_compose", "check_size"]

#: the largest table built (2^28 float64 cells = 2 GiB)
MAX_CELLS = 1 << 28


def check_size(what: str, rows: int, cols: int) -> None:
    """Refuse a table of rows x cols cells above MAX_CELLS before allocating it."""
    if rows * cols > MAX_CELLS:
        raise TooLarge(f"{what}: {rows} x {cols} cells ({rows * cols * 8 / 2**30:.1f} GiB at "
                       f"8 bytes) exceeds the {MAX_CELLS}-cell budget: refused before allocation")


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
        return [sum((Fraction(w) * part[c] for w, part in zip(ws, parts)), Fraction(0))
                for c in range(n + 1)]
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


def product_dataset_distribution(n: int, p: float) -> np.ndarray:
    """P(x) for all 2^n binary datasets (index = bit mask, bit i = record i), i.i.d. Bernoulli(p)."""
    check_size("dataset distribution", 1 << n, 1)
    out = np.ones(1)
    for _ in range(n):
        out = np.concatenate([out * (1 - p), out * p])
    return out


def full_joint(rows_fn: Callable[[np.ndarray], np.ndarray], n: int, px: np.ndarray,
               n_outputs: int, *, chunk: int = 1 << 16, progress: bool = False) -> np.ndarray:
    """The 2^n x |Y| joint table px[x] * A(x)[y], built over all datasets in chunks (float64).

    ``rows_fn`` maps an (N, n) 0/1 array of datasets to their (N, |Y|) output distributions."""
    N = 1 << n
    check_size("full joint table", N, n_outputs)
    if px.shape != (N,):
        raise ValueError(f"px has shape {px.shape}: must be ({N},)")
    out = np.empty((N, n_outputs))
    bits = np.arange(n)
    t0 = time.monotonic()
    for start in range(0, N, chunk):
        idx = np.arange(start, min(start + chunk, N))
        X = ((idx[:, None] >> bits[None, :]) & 1).astype(np.int8)
        out[start:start + len(idx)] = px[idx, None] * rows_fn(X)
        if progress and (start // chunk) % 16 == 15:
            print(f"[enumeration] {start + len(idx)}/{N} datasets, {time.monotonic() - t0:.1f}s",
                  file=sys.stderr)
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
