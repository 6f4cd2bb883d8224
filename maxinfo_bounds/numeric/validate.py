"""Argument validation: scalars, units, probability tables, neighbour lists and arrays are
checked, never repaired (nothing is renormalised)."""

from __future__ import annotations

import math
import os
import time
from collections.abc import Iterable, Sequence
from fractions import Fraction
from numbers import Rational
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from .errors import InvalidParameter

#: Absolute tolerance on the total of a float probability table (computed with ``math.fsum``).
PROB_TOL: float = 1e-9

Unit = Literal["bits", "nats"]

FloatArray = NDArray[np.float64]


# --------------------------------------------------------------------------------------------
# scalar validation


def check_unit(unit: object) -> Unit:
    """Return ``unit`` if it is ``"bits"`` or ``"nats"``; raise :class:`InvalidParameter` else."""
    if unit == "bits" or unit == "nats":
        return unit
    raise InvalidParameter("unit", unit, "'bits' or 'nats'")


def _is_real_scalar(x: object) -> bool:
    return isinstance(x, (int, float, Fraction, np.integer, np.floating)) and not isinstance(x, bool)


def _unwrap_0d(x: object) -> object:
    """A 0-d numpy array as the numpy scalar it holds (its dtype kept, so its value exactly);
    anything else unchanged. (numpy reductions return them; a scalar is what they mean.)"""
    if isinstance(x, np.ndarray) and x.ndim == 0:
        return x[()]
    return x


def check_real(
    name: str,
    x: object,
    *,
    low: float | Fraction | None = None,
    high: float | Fraction | None = None,
    low_open: bool = False,
    high_open: bool = False,
) -> float | Fraction:
    """Validate a real scalar in an interval; Fractions and ints are kept exact.

    >>> check_real("beta", 0.25, low=0, high=1, high_open=True)
    0.25
    >>> check_real("beta", 1.0, low=0, high=1, high_open=True)
    Traceback (most recent call last):
    ...
    maxinfo_bounds.numeric.InvalidParameter: beta=1.0 is invalid: must be a real number in [0, 1)
    """

    def refuse() -> InvalidParameter:  # the message is built only when it is needed
        lo_txt = "-inf" if low is None else _fmt_bound(low)
        hi_txt = "inf" if high is None else _fmt_bound(high)
        left = "(" if low_open or low is None else "["
        right = ")" if high_open or high is None else "]"
        return InvalidParameter(name, x, f"a real number in {left}{lo_txt}, {hi_txt}{right}")

    x = _unwrap_0d(x)
    if not _is_real_scalar(x):
        raise refuse()
    if isinstance(x, np.floating) and np.finfo(x.dtype).nmant > 52 and np.isfinite(x):
        # wider than a double (numpy.longdouble): kept exact when a float would round it, so a
        # bound evaluated from it is certified for the value given, not for a nearby double
        exact = Fraction(*x.as_integer_ratio())
        f = float(x)
        if not math.isfinite(f) or exact != Fraction(f):
            x = exact
    value: float | Fraction
    if isinstance(x, (Fraction, int, np.integer)):
        value = Fraction(int(x)) if isinstance(x, (int, np.integer)) else x
    else:
        value = float(x)  # type: ignore[arg-type]
        if math.isnan(value):
            raise refuse()
    if low is not None and (value < low or (low_open and value == low)):
        raise refuse()
    if high is not None and (value > high or (high_open and value == high)):
        raise refuse()
    if low is None and isinstance(value, float) and value == -math.inf:
        raise refuse()
    if high is None and isinstance(value, float) and value == math.inf:
        raise refuse()
    if isinstance(x, (float, np.floating)):
        return float(x)
    return value


def _fmt_bound(b: float | Fraction) -> str:
    if isinstance(b, Fraction) and b.denominator == 1:
        return str(b.numerator)
    if isinstance(b, float) and b.is_integer():
        return str(int(b))
    return str(b)


def check_int(name: str, x: object, *, low: int | None = None, high: int | None = None) -> int:
    """Validate an integer (bool refused) in ``[low, high]``."""
    allowed = "an integer" + (
        f" in [{low if low is not None else '-inf'}, {high if high is not None else 'inf'}]"
        if low is not None or high is not None
        else ""
    )
    x = _unwrap_0d(x)
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)):
        raise InvalidParameter(name, x, allowed)
    v = int(x)
    if (low is not None and v < low) or (high is not None and v > high):
        raise InvalidParameter(name, x, allowed)
    return v


def local_workers(workers: object) -> int:
    """The number of local worker processes to use: ``workers`` (an integer >= 1), or for
    ``None`` (the planner's sweeps and the verification campaigns) one per CPU that no other
    process is using (:func:`free_cpus`; issue 45: with the machine busy, one process per CPU
    gained nothing, 0.95x, where an idle one gives 1.7x)."""
    if workers is None:
        return free_cpus()
    return check_int("workers", workers, low=1)


def free_cpus(busy: float | None = None) -> int:
    """CPUs not busy with other processes: ``os.cpu_count()`` less ``busy``, rounded, in
    [1, CPUs].

    ``busy`` (given for tests) is measured on Linux as the CPUs' non-idle time over 0.1 s of
    /proc/stat, while this process sleeps (so its own work is not counted); elsewhere as the
    one-minute load average. (The load average counts the caller too: a script that has just
    computed on one core saw that core as taken and ran its pool on one process, 1.02x where
    two give 1.67x; the instantaneous runnable count of /proc/loadavg caught passing tasks.)"""
    cpus = os.cpu_count() or 1
    if busy is None:
        busy = _busy_cpus(cpus)
    return max(1, min(cpus, cpus - int(round(busy))))


def _busy_cpus(cpus: int, window: float = 0.1) -> float:
    def ticks() -> tuple[int, int]:
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
        return sum(v[:8]), v[3] + v[4]  # all but guest time (counted in user); idle + iowait

    try:
        t0, i0 = ticks()
        time.sleep(window)
        t1, i1 = ticks()
    except (OSError, ValueError, IndexError):  # pragma: no cover - not Linux
        try:
            return os.getloadavg()[0]
        except (AttributeError, OSError):  # no load average (Windows)
            return 0.0
    if t1 <= t0:  # pragma: no cover - a clock that did not tick
        return 0.0
    return cpus * (1.0 - (i1 - i0) / (t1 - t0))


# --------------------------------------------------------------------------------------------
# table validation


def _any_fraction(obj: Any) -> bool:
    if isinstance(obj, Fraction):
        return True
    if isinstance(obj, np.ndarray):
        return obj.dtype == object and any(isinstance(v, Fraction) for v in obj.ravel())
    if isinstance(obj, (list, tuple)):
        return any(_any_fraction(v) for v in obj)
    return False


def wants_exact(*tables: Any, exact: bool | None = None) -> bool:
    """Exact mode: forced by ``exact``, else on when any table holds a :class:`Fraction`."""
    if exact is not None:
        if not isinstance(exact, bool):
            raise InvalidParameter("exact", exact, "True, False or None")
        return exact
    return any(_any_fraction(t) for t in tables)


def _to_fraction(name: str, v: object) -> Fraction:
    if isinstance(v, bool):
        raise InvalidParameter(name, v, "a table of probabilities (Fraction, int or float)")
    if isinstance(v, Fraction):
        return v
    if isinstance(v, (int, np.integer)):
        return Fraction(int(v))
    if isinstance(v, (float, np.floating)):
        f = float(v)
        if not math.isfinite(f):
            raise InvalidParameter(name, v, "finite, non-negative probabilities")
        return Fraction(f)  # exact binary value of the float
    if isinstance(v, Rational):
        return Fraction(int(v.numerator), int(v.denominator))
    raise InvalidParameter(name, v, "a table of probabilities (Fraction, int or float)")


def as_table(
    name: str,
    table: Any,
    *,
    ndim: int,
    exact: bool,
    tol: float = PROB_TOL,
    stochastic_rows: bool = False,
) -> NDArray[Any]:
    """Validate a probability table and return it as a float64 or object(Fraction) array.

    ``ndim=1``: a probability vector; ``ndim=2`` and not ``stochastic_rows``: a joint table
    summing to 1; ``ndim=2`` and ``stochastic_rows``: a row-stochastic matrix (each row sums
    to 1). Entries must be finite and non-negative. Float totals may be off 1 by at most
    ``tol`` (absolute; measured with :func:`math.fsum`); exact totals must equal 1. Nothing
    is renormalised.
    """
    what = {1: "a probability vector (1-D)", 2: "a 2-D table"}[ndim]
    if stochastic_rows:
        what = "a row-stochastic matrix (2-D, rows: datasets, columns: outputs)"
    tol = float(check_real("tol", tol, low=0.0, high=0.5))
    if exact:
        arr = np.asarray(table, dtype=object)
        if arr.ndim != ndim or arr.size == 0:
            raise InvalidParameter(name, table, what, f"got shape {arr.shape}")
        flat = [_to_fraction(name, v) for v in arr.ravel()]
        out = np.empty(arr.shape, dtype=object)
        out.ravel()[:] = flat
        if any(v < 0 for v in flat):
            raise InvalidParameter(name, table, f"{what} with non-negative entries")
        if stochastic_rows:
            for i, row in enumerate(out):
                if sum(row, Fraction(0)) != 1:
                    raise InvalidParameter(
                        f"{name}[{i}]",
                        _shown_row(row),
                        "a row summing to exactly 1 (exact mode)",
                        f"sums to {sum(row, Fraction(0))}",
                    )
        elif sum(flat, Fraction(0)) != 1:
            raise InvalidParameter(
                name,
                table,
                f"{what} summing to exactly 1 (exact mode)",
                f"sums to {sum(flat, Fraction(0))}",
            )
        return out
    try:
        arr = np.asarray(table, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise InvalidParameter(name, table, what, "entries are not real numbers") from exc
    except OverflowError:  # an integer or Fraction beyond the largest float
        raise InvalidParameter(
            name, table, f"{what} with finite entries", "an entry beyond the largest float"
        ) from None
    if arr.ndim != ndim or arr.size == 0:
        raise InvalidParameter(name, table, what, f"got shape {arr.shape}")
    # NaN propagates through min (so `low >= 0` is False); +inf makes the total below infinite,
    # so the total check catches it: two passes check finiteness, sign and total.
    low = arr.min()
    if not low >= 0:
        if not np.all(np.isfinite(arr)):
            raise InvalidParameter(name, table, f"{what} with finite entries", "NaN or infinity found")
        raise InvalidParameter(name, table, f"{what} with non-negative entries", f"min entry {float(low)!r}")
    if stochastic_rows:
        sums = np.sum(arr, axis=1)
        # the rows whose numpy sum could be on either side of the tolerance (_total_within's
        # bound) are summed again with fsum
        unsure = np.nonzero(~(np.abs(sums - 1.0) + _sum_rounding(arr.shape[1], sums) <= tol))[0]
        if unsure.size:
            _refuse_infinite(name, table, what, arr)
        for i in unsure.tolist():
            exact_sum = math.fsum(arr[i])
            if abs(exact_sum - 1.0) > tol:
                raise InvalidParameter(
                    f"{name}[{i}]", _shown_row(arr[i]), f"a row summing to 1 within tol={tol}", f"sums to {exact_sum!r}"
                )
    else:
        if not _total_within(arr, tol):
            _refuse_infinite(name, table, what, arr)
            total = math.fsum(arr.ravel())
            if abs(total - 1.0) > tol:
                raise InvalidParameter(
                    name,
                    table,
                    f"{what} summing to 1 within tol={tol}",
                    f"sums to {total!r}; tables are never renormalised",
                )
    return arr


def _sum_rounding(n: int, total: Any) -> Any:
    """A bound on the rounding of any float sum of n non-negative terms (a total or an array of
    them), relative to the larger of the total and 1, with room for the comparison's own:
    (n + 2) 2^-52 (:func:`_total_within`)."""
    return (n + 2) * 2.0**-52 * np.maximum(total, 1.0)


def _total_within(arr: NDArray[np.float64], tol: float) -> bool:
    """``abs(math.fsum(arr) - 1) <= tol`` for non-negative finite entries, decided from numpy's
    sum where its rounding cannot change the answer (issue 45: fsum of 10^4 cells cost 0.3 ms,
    most of a small table's measure).

    Any order of summing n non-negative floats is within (n - 1) u / (1 - (n - 1) u) of the
    exact total relative to it (u = 2^-53; Higham, *Accuracy and Stability of Numerical
    Algorithms*, 2nd ed., eq. (4.4)), and fsum is within u of it: the bound ``err`` below
    (n + 2) 2^-52 of the larger of the total and 1 covers both with room for the rounding of
    the comparison itself. Only a total within ``err`` of the boundary is summed again with
    fsum. (A non-finite entry makes the sum non-finite: never within.)"""
    total = float(np.sum(arr))
    if not math.isfinite(total):
        return False
    err = float(_sum_rounding(arr.size, total))
    gap = abs(total - 1.0)
    if gap + err <= tol:
        return True
    if gap - err > tol:
        return False
    return abs(math.fsum(arr.ravel()) - 1.0) <= tol


def _shown_row(row: NDArray[Any]) -> Any:
    """A table row as a refusal shows it: its values when it is short (at most 16 entries),
    else the array itself, which the message gives by its shape (no list of every entry)."""
    return row.tolist() if row.size <= 16 else row


def _refuse_infinite(name: str, table: Any, what: str, arr: NDArray[Any]) -> None:
    if not np.all(np.isfinite(arr)):
        raise InvalidParameter(name, table, f"{what} with finite entries", "NaN or infinity found")


def check_same_shape(names: Sequence[str], arrays: Sequence[NDArray[Any]]) -> None:
    """Refuse tables on different supports (different shapes)."""
    first = arrays[0].shape
    for nm, a in zip(names[1:], arrays[1:]):
        if a.shape != first:
            raise InvalidParameter(
                nm,
                a,
                f"a table of the same shape as {names[0]} {first} (same support)",
                f"got shape {a.shape}",
            )


def iter_pairs(name: str, neighbors: Iterable[Any], n_rows: int) -> list[tuple[int, int]]:
    """Validate neighbour pairs of row indices (``i != j``, both in range)."""
    pairs: list[tuple[int, int]] = []
    try:
        items = list(neighbors)
    except TypeError as exc:
        raise InvalidParameter(name, neighbors, "an iterable of (i, j) row-index pairs") from exc
    for k, pr in enumerate(items):
        try:
            i, j = pr
        except (TypeError, ValueError) as exc:
            raise InvalidParameter(f"{name}[{k}]", pr, "a pair (i, j) of row indices") from exc
        i = check_int(f"{name}[{k}][0]", i, low=0, high=n_rows - 1)
        j = check_int(f"{name}[{k}][1]", j, low=0, high=n_rows - 1)
        if i == j:
            raise InvalidParameter(f"{name}[{k}]", pr, "a pair of two different rows")
        pairs.append((i, j))
    if not pairs:
        raise InvalidParameter(name, items, "a non-empty list of neighbour pairs")
    return pairs


def is_array(*xs: object) -> bool:
    """True when any argument is an array (ndim >= 1): the vectorised path is wanted."""
    return any(isinstance(x, (np.ndarray, list, tuple)) and np.ndim(x) >= 1 for x in xs)


def check_real_array(
    name: str,
    x: Any,
    *,
    low: float | None = None,
    high: float | None = None,
    low_open: bool = False,
    high_open: bool = False,
    integer: bool = False,
) -> NDArray[np.float64]:
    """Validate an array of reals (every entry) like :func:`check_real`; return float64."""
    try:
        arr = np.asarray(x, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise InvalidParameter(name, x, "an array of real numbers") from exc
    ok = np.isfinite(arr)
    if low is not None:
        ok &= (arr > low) if low_open else (arr >= low)
    if high is not None:
        ok &= (arr < high) if high_open else (arr <= high)
    if integer:
        ok &= np.floor(arr) == arr
    if not np.all(ok):
        bad = arr[~ok].ravel()[0]
        lo_txt = "-inf" if low is None else _fmt_bound(low)
        hi_txt = "inf" if high is None else _fmt_bound(high)
        what = "integers" if integer else "real numbers"
        allowed = (
            f"finite {what} in {'(' if low_open or low is None else '['}{lo_txt}, "
            f"{hi_txt}{')' if high_open or high is None else ']'} (every entry)"
        )
        raise InvalidParameter(name, float(bad), allowed)
    return arr


def as_nonempty_list(name: str, obj: Any, what: str) -> list[Any]:
    """``list(obj)``, refusing non-iterables and empty sequences with InvalidParameter."""
    try:
        items = list(obj)
    except TypeError as exc:
        raise InvalidParameter(name, obj, f"a sequence of {what}") from exc
    if not items:
        raise InvalidParameter(name, items, f"a non-empty sequence of {what}")
    return items
