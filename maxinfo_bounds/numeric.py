"""Numeric foundations: error types, argument validation, directed rounding, exact logarithms.

Every other module of :mod:`maxinfo_bounds` rests on this one.

* **Errors.** :class:`InvalidParameter` (a value outside a parameter's domain) and
  :class:`RegimeError` (a theorem's conditions are not met) are both :class:`ValueError`
  subclasses whose message names the parameter, its value and the allowed range.
* **Validation.** Probability vectors, joint tables and mechanism matrices are checked, never
  repaired: negative, NaN or infinite entries, wrong shapes, or totals off 1 by more than
  ``tol`` (default :data:`PROB_TOL` = 1e-9, absolute, measured with :func:`math.fsum`) raise
  :class:`InvalidParameter`. Nothing is renormalised. Exact tables (entries that are
  :class:`fractions.Fraction` or ``int``) must sum to exactly 1.
* **Directed rounding.** :func:`float_down` / :func:`float_up` turn an mpmath number into the
  nearest float below / above it; :func:`enclosure` evaluates an mpmath interval expression
  and returns certified float endpoints. A returned upper bound is never rounded down and a
  lower bound (or corrected threshold) is never rounded up.
* **Exact logarithms.** :class:`ExactLog` is ``log`` of an exact rational (the optimal ratio of
  a max-divergence), evaluated to any precision on request.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from numbers import Rational
from typing import Any, Literal

import mpmath
import numpy as np
from mpmath import libmp
from numpy.typing import NDArray

__all__ = [
    "PROB_TOL",
    "MaxinfoError",
    "InvalidParameter",
    "RegimeError",
    "ExactLog",
    "Unit",
    "check_unit",
    "check_real",
    "check_int",
    "check_probability",
    "float_down",
    "float_up",
    "enclosure",
    "log_le",
    "LOG2E",
]

#: Absolute tolerance on the total of a float probability table (computed with ``math.fsum``).
PROB_TOL: float = 1e-9

Unit = Literal["bits", "nats"]

FloatArray = NDArray[np.float64]


#: log2(e), the factor from nats to bits (the one copy: every module imports it)
LOG2E = 1.0 / math.log(2.0)


class MaxinfoError(Exception):
    """Base class of every error this package raises on purpose."""


class InvalidParameter(MaxinfoError, ValueError):
    """A parameter value lies outside its domain.

    The message names the parameter, the value received and the allowed range, e.g.
    ``beta=1.5 is invalid: must be a real number in [0, 1)``.
    """

    def __init__(self, name: str, value: object, allowed: str, detail: str = "") -> None:
        self.name = name
        self.value = value
        self.allowed = allowed
        shown = _short_repr(value)
        msg = f"{name}={shown} is invalid: must be {allowed}"
        if detail:
            msg += f" ({detail})"
        super().__init__(msg)


class RegimeError(MaxinfoError, ValueError):
    """A theorem was asked for outside the conditions under which it is proven.

    The message names the theorem, the violated condition, the parameter and its value.
    """

    def __init__(self, theorem: str, name: str, value: object, condition: str) -> None:
        self.theorem = theorem
        self.name = name
        self.value = value
        self.condition = condition
        super().__init__(
            f"{theorem} does not apply: it requires {condition}, got {name}={_short_repr(value)}"
        )


def _short_repr(value: object) -> str:
    if isinstance(value, np.ndarray):
        return f"<array shape={value.shape} dtype={value.dtype}>"
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


# --------------------------------------------------------------------------------------------
# scalar validation


def check_unit(unit: object) -> Unit:
    """Return ``unit`` if it is ``"bits"`` or ``"nats"``; raise :class:`InvalidParameter` else."""
    if unit == "bits" or unit == "nats":
        return unit
    raise InvalidParameter("unit", unit, "'bits' or 'nats'")


def _is_real_scalar(x: object) -> bool:
    return isinstance(x, (int, float, Fraction, np.integer, np.floating)) and not isinstance(
        x, bool
    )


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
    lo_txt = "-inf" if low is None else _fmt_bound(low)
    hi_txt = "inf" if high is None else _fmt_bound(high)
    left = "(" if low_open or low is None else "["
    right = ")" if high_open or high is None else "]"
    allowed = f"a real number in {left}{lo_txt}, {hi_txt}{right}"
    if not _is_real_scalar(x):
        raise InvalidParameter(name, x, allowed)
    value: float | Fraction
    if isinstance(x, (Fraction, int, np.integer)):
        value = Fraction(int(x)) if isinstance(x, (int, np.integer)) else x
    else:
        value = float(x)  # type: ignore[arg-type]
        if math.isnan(value):
            raise InvalidParameter(name, x, allowed)
    if low is not None and (value < low or (low_open and value == low)):
        raise InvalidParameter(name, x, allowed)
    if high is not None and (value > high or (high_open and value == high)):
        raise InvalidParameter(name, x, allowed)
    if low is None and isinstance(value, float) and value == -math.inf:
        raise InvalidParameter(name, x, allowed)
    if high is None and isinstance(value, float) and value == math.inf:
        raise InvalidParameter(name, x, allowed)
    if isinstance(x, float) or isinstance(x, np.floating):
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
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)):
        raise InvalidParameter(name, x, allowed)
    v = int(x)
    if (low is not None and v < low) or (high is not None and v > high):
        raise InvalidParameter(name, x, allowed)
    return v


def check_probability(name: str, x: object, *, closed_high: bool = False) -> float | Fraction:
    """A probability in ``[0, 1)`` (or ``[0, 1]`` with ``closed_high``)."""
    return check_real(name, x, low=0, high=1, high_open=not closed_high)


# --------------------------------------------------------------------------------------------
# table validation


def is_exact_scalar(x: object) -> bool:
    """True for Python ``int`` / :class:`fractions.Fraction` (not bool, not numpy floats)."""
    return isinstance(x, (Fraction, int, np.integer)) and not isinstance(x, bool)


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
                        f"{name}[{i}]", "row", "a row summing to exactly 1 (exact mode)",
                        f"sums to {sum(row, Fraction(0))}",
                    )
        elif sum(flat, Fraction(0)) != 1:
            raise InvalidParameter(
                name, table, f"{what} summing to exactly 1 (exact mode)",
                f"sums to {sum(flat, Fraction(0))}",
            )
        return out
    try:
        arr = np.asarray(table, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise InvalidParameter(name, table, what, "entries are not real numbers") from exc
    if arr.ndim != ndim or arr.size == 0:
        raise InvalidParameter(name, table, what, f"got shape {arr.shape}")
    # NaN propagates through min (so `low >= 0` is False); +inf makes the total below infinite,
    # so the total check catches it: two passes check finiteness, sign and total.
    low = arr.min()
    if not low >= 0:
        if not np.all(np.isfinite(arr)):
            raise InvalidParameter(name, table, f"{what} with finite entries",
                                   "NaN or infinity found")
        raise InvalidParameter(name, table, f"{what} with non-negative entries",
                               f"min entry {low!r}")
    if stochastic_rows:
        sums = np.sum(arr, axis=1)
        bad = np.nonzero(~(np.abs(sums - 1.0) <= tol))[0]
        if bad.size:
            _refuse_infinite(name, table, what, arr)
            i = int(bad[0])
            exact_sum = math.fsum(arr[i])
            if abs(exact_sum - 1.0) > tol:
                raise InvalidParameter(f"{name}[{i}]", "row", f"a row summing to 1 within tol={tol}",
                                       f"sums to {exact_sum!r}")
    else:
        total = math.fsum(arr.ravel()) if arr.size <= 1 << 16 else float(np.sum(arr))
        if not abs(total - 1.0) <= tol:
            _refuse_infinite(name, table, what, arr)
            total = math.fsum(arr.ravel())
            if abs(total - 1.0) > tol:
                raise InvalidParameter(name, table, f"{what} summing to 1 within tol={tol}",
                                       f"sums to {total!r}; tables are never renormalised")
    return arr


def _refuse_infinite(name: str, table: Any, what: str, arr: NDArray[Any]) -> None:
    if not np.all(np.isfinite(arr)):
        raise InvalidParameter(name, table, f"{what} with finite entries", "NaN or infinity found")


def check_same_shape(names: Sequence[str], arrays: Sequence[NDArray[Any]]) -> None:
    """Refuse tables on different supports (different shapes)."""
    first = arrays[0].shape
    for nm, a in zip(names[1:], arrays[1:]):
        if a.shape != first:
            raise InvalidParameter(
                nm, a, f"a table of the same shape as {names[0]} {first} (same support)",
                f"got shape {a.shape}",
            )


# --------------------------------------------------------------------------------------------
# directed rounding


def float_down(x: Any) -> float:
    """The largest float ``<= x`` for an mpmath number (or Fraction / int / float) ``x``.

    >>> import mpmath
    >>> with mpmath.workprec(200):
    ...     third = mpmath.mpf(1) / 3
    ...     float_down(third) < float_up(third)
    True
    """
    v = _as_mpf(x)
    if mpmath.isnan(v):
        raise InvalidParameter("x", x, "a number (NaN cannot be rounded)")
    f = libmp.to_float(v._mpf_, rnd=libmp.round_floor)
    if f == math.inf:  # overflow: the largest finite float is still below x
        return float(np.finfo(np.float64).max)
    return float(f)


def float_up(x: Any) -> float:
    """The smallest float ``>= x`` for an mpmath number (or Fraction / int / float) ``x``."""
    v = _as_mpf(x)
    if mpmath.isnan(v):
        raise InvalidParameter("x", x, "a number (NaN cannot be rounded)")
    f = libmp.to_float(v._mpf_, rnd=libmp.round_ceiling)
    if f == -math.inf:
        return -float(np.finfo(np.float64).max)
    return float(f)


def _as_mpf(x: Any) -> Any:
    # never pass an mpf through mpmath.mpf(): that re-rounds it to the working precision
    if isinstance(x, mpmath.mpf):
        return x
    if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
        x = Fraction(int(x))
    if isinstance(x, Fraction):
        # exact rational -> mpf with enough bits that the float rounding below is correct
        with mpmath.workprec(max(64, x.numerator.bit_length() + x.denominator.bit_length() + 64)):
            return mpmath.mpf(x.numerator) / x.denominator
    return mpmath.mpf(x)


def enclosure(fn: Callable[[Any], Any], *, prec: int = 128) -> tuple[float, float]:
    """Evaluate ``fn(iv)`` with mpmath interval arithmetic; return certified float endpoints.

    ``fn`` receives the :data:`mpmath.iv` context and returns an interval. The returned
    ``(lo, hi)`` satisfy ``lo <= true value <= hi``.

    >>> lo, hi = enclosure(lambda iv: iv.log(iv.mpf(3)) / iv.log(2))   # log2(3)
    >>> lo <= 1.584962500721156 <= hi and hi - lo < 1e-15
    True
    """
    old = mpmath.iv.prec
    try:
        mpmath.iv.prec = prec
        x = fn(mpmath.iv)
        if not isinstance(x, mpmath.ctx_iv.ivmpf):
            x = mpmath.iv.mpf(x)
        a = mpmath.mp.make_mpf(x._mpi_[0])
        b = mpmath.mp.make_mpf(x._mpi_[1])
    finally:
        mpmath.iv.prec = old
    if mpmath.isnan(a) or mpmath.isnan(b):
        raise InvalidParameter("expression", fn, "an expression with a finite enclosure")
    return float_down(a), float_up(b)


def log_le(ratio: Fraction, t: float | Fraction, *, base: Literal["2", "e"] = "e") -> bool:
    """Decide ``log_base(ratio) <= t`` exactly, for a rational ``ratio > 0`` and rational ``t``.

    Equality is decided exactly where it can occur (``ratio`` an integer power of 2 for base 2
    and integer ``t``; ``ratio == 1`` and ``t == 0`` for base e); otherwise the two sides differ
    (Lindemann–Weierstrass / Gelfond–Schneider) and interval arithmetic at growing precision
    separates them.
    """
    t = Fraction(t)
    if ratio <= 0:
        return True
    if base == "e":
        if ratio == 1:
            return 0 <= t
        if t == 0:
            return ratio <= 1
    else:
        # log2(ratio) rational only when ratio is a power of two (exponent an integer)
        num, den = ratio.numerator, ratio.denominator
        if num & (num - 1) == 0 and den & (den - 1) == 0:
            return Fraction(num.bit_length() - den.bit_length()) <= t
    prec = 64
    while prec <= 1 << 16:
        with mpmath.workprec(prec):
            lhs_lo, lhs_hi = _iv_log(ratio, base, prec)
            t_lo, t_hi = _iv_frac(t, prec)
        if lhs_hi < t_lo:
            return True
        if lhs_lo > t_hi:
            return False
        prec *= 2
    raise RuntimeError("log_le: could not separate the two sides")  # pragma: no cover


def _iv_frac(x: Fraction, prec: int) -> tuple[Any, Any]:
    old = mpmath.iv.prec
    try:
        mpmath.iv.prec = prec
        v = mpmath.iv.mpf(x.numerator) / x.denominator
        return mpmath.mp.make_mpf(v._mpi_[0]), mpmath.mp.make_mpf(v._mpi_[1])
    finally:
        mpmath.iv.prec = old


def _iv_log(x: Fraction, base: str, prec: int) -> tuple[Any, Any]:
    old = mpmath.iv.prec
    try:
        mpmath.iv.prec = prec
        v = mpmath.iv.log(mpmath.iv.mpf(x.numerator) / x.denominator)
        if base == "2":
            v = v / mpmath.iv.log(2)
        return mpmath.mp.make_mpf(v._mpi_[0]), mpmath.mp.make_mpf(v._mpi_[1])
    finally:
        mpmath.iv.prec = old


# --------------------------------------------------------------------------------------------
# exact logarithms


@dataclass(frozen=True)
class ExactLog:
    """``log`` (base 2 for ``unit="bits"``, base e for ``"nats"``) of an exact rational.

    The result of an exact-mode divergence: ``ratio`` is the optimal ratio ``2^k`` (bits) or
    ``e^eps`` (nats) as a :class:`fractions.Fraction`; ``ratio=None`` stands for ``+inf``
    (unbounded) and ``ratio=Fraction(0)`` for ``-inf`` (no event qualifies).

    >>> from fractions import Fraction
    >>> x = ExactLog(Fraction(3, 1), "bits")
    >>> mpmath.nstr(x.value(dps=30), 25)
    '1.584962500721156181453739'
    >>> lo, hi = x.enclosure()
    >>> lo <= 1.584962500721156 <= hi
    True
    """

    ratio: Fraction | None
    unit: Unit = "bits"

    @property
    def is_infinite(self) -> bool:
        return self.ratio is None

    def value(self, dps: int = 50) -> Any:
        """The logarithm as an :class:`mpmath.mpf` with ``dps`` significant decimal digits."""
        check_int("dps", dps, low=1, high=100_000)
        if self.ratio is None:
            return mpmath.inf
        if self.ratio == 0:
            return -mpmath.inf
        with mpmath.workdps(dps + 10):
            v = mpmath.log(mpmath.mpf(self.ratio.numerator) / self.ratio.denominator)
            if self.unit == "bits":
                v = v / mpmath.log(2)
        with mpmath.workdps(dps):
            return +v

    def enclosure(self) -> tuple[float, float]:
        """Certified float bounds ``(lo, hi)`` on the logarithm."""
        if self.ratio is None:
            return math.inf, math.inf
        if self.ratio == 0:
            return -math.inf, -math.inf
        r = self.ratio
        if r == 1:
            return 0.0, 0.0
        num, den = r.numerator, r.denominator
        if self.unit == "bits" and num & (num - 1) == 0 and den & (den - 1) == 0:
            e = float(num.bit_length() - den.bit_length())  # exact power of two
            return e, e
        bits = self.unit == "bits"

        def f(iv: Any) -> Any:
            v = iv.log(iv.mpf(r.numerator) / r.denominator)
            return v / iv.log(2) if bits else v

        return enclosure(f, prec=128 + r.numerator.bit_length() // 8)

    def __float__(self) -> float:
        if self.ratio is None:
            return math.inf
        if self.ratio == 0:
            return -math.inf
        with mpmath.workprec(120):
            return float(self.value(dps=30))

    def le(self, t: float | Fraction) -> bool:
        """Decide ``self <= t`` exactly (``t`` in the same unit)."""
        if self.ratio is None:
            return False
        return log_le(self.ratio, t, base="2" if self.unit == "bits" else "e")


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


# --------------------------------------------------------------------------------------------
# vectorised paths: float64 closed forms with a safe-direction margin

#: Relative margin the numpy fast paths add in the safe direction (2^-44 = 256 ulp). Closed forms
#: here use at most a dozen operations, each with error at most a few ulp (IEEE +, -, *, /, sqrt
#: are correctly rounded; numpy's log/exp/log2/exp2 are within 4 ulp), and they involve no
#: cancellation except alpha - beta, whose rounding is relative to the result itself. The margin
#: is checked against 50-digit evaluation in the tests.
FAST_REL_MARGIN: float = 2.0 ** -44


#: Extra relative margin per unit of |argument| of an exponential whose argument is itself
#: computed: exp(x (1 + r)) = exp(x) exp(x r), so a relative error r <= 8 ulp of x becomes a
#: relative error of about |x| r in the result. 2^-49 is 16 ulp per unit of |x|.
FAST_EXP_MARGIN: float = 2.0 ** -49


def _margin(y: NDArray[np.float64], exp_arg: Any) -> NDArray[np.float64]:
    rel = FAST_REL_MARGIN if exp_arg is None else FAST_REL_MARGIN + np.abs(exp_arg) * FAST_EXP_MARGIN
    out: NDArray[np.float64] = np.abs(y) * rel
    return out


def fast_up(y: NDArray[np.float64], *, exp_arg: Any = None) -> NDArray[np.float64]:
    """Push float results of a closed form up by :data:`FAST_REL_MARGIN` (upper bounds).

    ``exp_arg``: the (computed) argument of an exponential factor in ``y``, whose rounding is
    amplified by its size; adds ``|exp_arg| * FAST_EXP_MARGIN`` to the relative margin.
    """
    out: NDArray[np.float64] = np.nextafter(y + _margin(y, exp_arg), np.inf)
    return out


def fast_down(y: NDArray[np.float64], *, floor: float = 0.0,
              exp_arg: Any = None) -> NDArray[np.float64]:
    """Push float results down by :data:`FAST_REL_MARGIN` (thresholds, lower bounds), >= floor."""
    out: NDArray[np.float64] = np.maximum(
        np.nextafter(y - _margin(y, exp_arg), -np.inf), floor)
    return out


def is_array(*xs: object) -> bool:
    """True when any argument is an array (ndim >= 1): the vectorised path is wanted."""
    return any(isinstance(x, (np.ndarray, list, tuple)) and np.ndim(x) >= 1 for x in xs)


def check_real_array(name: str, x: Any, *, low: float | None = None, high: float | None = None,
                     low_open: bool = False, high_open: bool = False,
                     integer: bool = False) -> NDArray[np.float64]:
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
        allowed = (f"finite {what} in {'(' if low_open or low is None else '['}{lo_txt}, "
                   f"{hi_txt}{')' if high_open or high is None else ']'} (every entry)")
        raise InvalidParameter(name, float(bad), allowed)
    return arr


def iv_prec(dps: int) -> int:
    """Interval working precision (bits) for ``dps`` significant decimal digits, plus guard bits."""
    check_int("dps", dps, low=15, high=10_000)
    return int(dps * 3.3219280948873626) + 24


def as_nonempty_list(name: str, obj: Any, what: str) -> list[Any]:
    """``list(obj)``, refusing non-iterables and empty sequences with InvalidParameter."""
    try:
        items = list(obj)
    except TypeError as exc:
        raise InvalidParameter(name, obj, f"a sequence of {what}") from exc
    if not items:
        raise InvalidParameter(name, items, f"a non-empty sequence of {what}")
    return items
