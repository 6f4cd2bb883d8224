"""Directed rounding: mpmath values to the float below/above, interval enclosures, the safe
margins of the numpy fast paths, and exact comparisons of logarithms."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal
from fractions import Fraction
from typing import Any, Literal

import mpmath
import numpy as np
from mpmath import libmp
from numpy.typing import NDArray

from .contexts import is_mpf, iv_ctx, mp_ctx
from .errors import InvalidParameter
from .validate import check_int

#: log2(e), the factor from nats to bits (the one copy: every module imports it)
LOG2E = 1.0 / math.log(2.0)


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
    f = float(libmp.to_float(v._mpf_, rnd=libmp.round_floor))
    if f == math.inf:  # overflow: the largest finite float is still below x
        return float(np.finfo(np.float64).max)
    # mpmath's conversion rounds to nearest under gradual underflow: check exactly (an mpf
    # holds every float exactly) and step once in the safe direction
    if math.isfinite(f) and libmp.mpf_gt(libmp.from_float(f), v._mpf_):
        f = math.nextafter(f, -math.inf)
    return f


def exact_sum(terms: Iterable[tuple[int, float | Fraction]], power: int = 1) -> Fraction:
    """The exact rational sum of ``count * x**power`` over ``terms`` ((count, x) pairs). Floats
    are summed in integer arithmetic (a finite float is m / 2^k exactly: one shift per term,
    no rational normalisation), so a thousand terms cost microseconds, not milliseconds;
    Fractions are added as Fractions.

    >>> exact_sum([(3, 0.5), (1, 0.25)]), exact_sum([(2, 0.5)], power=2)
    (Fraction(7, 4), Fraction(1, 2))
    """
    num, exp = 0, 0  # the float part: num / 2^exp
    rest = Fraction(0)
    for c, x in terms:
        if isinstance(x, float):
            m, d = x.as_integer_ratio()
            k = (d.bit_length() - 1) * power
            t = c * m**power
            if k > exp:
                num <<= k - exp
                exp = k
            num += t << (exp - k)
        else:
            rest += c * Fraction(x) ** power
    return Fraction(num, 1 << exp) + rest


def float_up(x: Any) -> float:
    """The smallest float ``>= x`` for an mpmath number (or Fraction / int / float) ``x``."""
    v = _as_mpf(x)
    if mpmath.isnan(v):
        raise InvalidParameter("x", x, "a number (NaN cannot be rounded)")
    f = float(libmp.to_float(v._mpf_, rnd=libmp.round_ceiling))
    if f == -math.inf:
        return -float(np.finfo(np.float64).max)
    if math.isfinite(f) and libmp.mpf_lt(libmp.from_float(f), v._mpf_):  # gradual underflow
        f = math.nextafter(f, math.inf)
    return f


def int_text(m: int) -> str:
    """An integer for display: exact below 10^30, else "about" its first four digits and its
    exponent (a count of outputs such as 1000000^1000 has 6,001 digits, beyond what ``str``
    converts in Python 3.11, which raises; issue 44).

    >>> int_text(12345), int_text(2**100), int_text(10**6000)
    ('12345', 'about 1.268e+30', 'about 1e+6000')
    """
    if m < 10**30:
        return str(m)
    shift = max(0, m.bit_length() - 64)
    lg = math.log10(m >> shift) + shift * math.log10(2)
    e = math.floor(lg)
    mant = round(10 ** (lg - e), 3)
    if mant >= 10:
        mant, e = mant / 10, e + 1
    return f"about {mant:g}e+{e}"


def decimal_text(x: float, side: Literal["up", "down"], digits: int = 6) -> str:
    """``x`` shown to ``digits`` significant decimal digits, rounded towards ``side``: the
    printed number is itself a valid bound (an upper bound shown ``"up"`` is never below ``x``,
    a threshold shown ``"down"`` never above it). A double whose shortest ``repr`` has at most
    ``digits`` digits prints as that ``repr``, which reads back as exactly the same double
    (``0.025``, not ``0.0250001``); integers below 1e15 print exactly; 0, inf and NaN as
    ``repr``. The text views use it so that a float's binary noise
    (``9.999999999999999e-06``) never reaches the reader; JSON keeps the full double.

    >>> decimal_text(9.999999999999999e-06, "up"), decimal_text(0.0008741264176124951, "down")
    ('1e-05', '0.000874126')
    >>> decimal_text(15.28771237954945, "up"), decimal_text(6.249999999999995e-07, "down")
    ('15.2878', '6.24999e-07')
    """
    if side not in ("up", "down"):  # a misspelt side would silently round down
        raise InvalidParameter("side", side, "'up' or 'down'")
    if x == 0 or not math.isfinite(x):
        return repr(float(x))
    if float(x).is_integer() and abs(x) < 1e15:
        return str(int(x))
    short = repr(float(x))
    if len(short.split("e")[0].replace("-", "").replace(".", "").strip("0")) <= digits:
        return short  # already short: it reads back as exactly this double (0.025, 1e-300)
    d = Decimal(x)  # the double's exact value
    quantum = Decimal(1).scaleb(d.adjusted() - digits + 1)
    r = d.quantize(quantum, rounding=ROUND_CEILING if side == "up" else ROUND_FLOOR).normalize()
    # printed from the decimal itself (a float would round it again, e.g. among subnormals),
    # laid out as Python prints floats: positional from 1e-4 to 1e16, else d.ddde+XX
    e = r.adjusted()
    if -4 <= e < 16:
        return f"{r:f}"
    sign, ds, _ = r.as_tuple()
    mant = "".join(map(str, ds))
    mant = mant[0] + ("." + mant[1:] if len(mant) > 1 else "")
    return f"{'-' if sign else ''}{mant}e{e:+03d}"


def _as_mpf(x: Any) -> Any:
    """``x`` as an mpf, never rounded to the caller's (global) working precision: an mpf is
    passed through (mpmath.mpf() would re-round it), a float converted exactly, a rational
    divided at a precision of its own (enough bits that the directed float rounding after it is
    correct), whatever ``mpmath.mp.prec`` is (a Decimal exactly, as its rational)."""
    if is_mpf(x):
        return x
    if isinstance(x, (float, np.float64, np.float32, np.float16)):
        return mp_ctx().make_mpf(libmp.from_float(float(x)))
    if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
        x = Fraction(int(x))
    elif isinstance(x, np.floating):  # wider than a double (longdouble): its exact value
        x = Fraction(*x.as_integer_ratio())
    elif isinstance(x, Decimal) and x.is_finite():
        x = Fraction(x)
    if isinstance(x, Fraction):
        prec = max(64, x.numerator.bit_length() + x.denominator.bit_length() + 64)
        v = libmp.mpf_div(libmp.from_int(x.numerator), libmp.from_int(x.denominator), prec, libmp.round_nearest)
        return mp_ctx().make_mpf(v)
    c = mp_ctx()
    with c.workprec(256):
        return c.mpf(x)


def enclosure(fn: Callable[[Any], Any], *, prec: int = 128) -> tuple[float, float]:
    """Evaluate ``fn(iv)`` with mpmath interval arithmetic; return certified float endpoints.

    ``fn`` receives an interval context (this thread's private one, :mod:`.contexts`, at
    ``prec`` bits whatever the global ``mpmath.iv`` is set to) and returns an interval. The
    returned ``(lo, hi)`` satisfy ``lo <= true value <= hi``.

    >>> lo, hi = enclosure(lambda iv: iv.log(iv.mpf(3)) / iv.log(2))   # log2(3)
    >>> lo <= 1.584962500721156 <= hi and hi - lo < 1e-15
    True
    """
    iv, mp = iv_ctx(), mp_ctx()
    old = iv.prec
    try:
        iv.prec = prec
        x = fn(iv)
        if not hasattr(x, "_mpi_"):
            x = iv.mpf(x)
        a = mp.make_mpf(x._mpi_[0])
        b = mp.make_mpf(x._mpi_[1])
    finally:
        iv.prec = old
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
        with mp_ctx().workprec(prec):
            lhs_lo, lhs_hi = _iv_log(ratio, base, prec)
            t_lo, t_hi = _iv_frac(t, prec)
        if lhs_hi < t_lo:
            return True
        if lhs_lo > t_hi:
            return False
        prec *= 2
    raise RuntimeError("log_le: could not separate the two sides")  # pragma: no cover


def _iv_frac(x: Fraction, prec: int) -> tuple[Any, Any]:
    iv, mp = iv_ctx(), mp_ctx()
    old = iv.prec
    try:
        iv.prec = prec
        v = iv.mpf(x.numerator) / x.denominator
        return mp.make_mpf(v._mpi_[0]), mp.make_mpf(v._mpi_[1])
    finally:
        iv.prec = old


def _iv_log(x: Fraction, base: str, prec: int) -> tuple[Any, Any]:
    iv, mp = iv_ctx(), mp_ctx()
    old = iv.prec
    try:
        iv.prec = prec
        v = iv.log(iv.mpf(x.numerator) / x.denominator)
        if base == "2":
            v = v / iv.log(2)
        return mp.make_mpf(v._mpi_[0]), mp.make_mpf(v._mpi_[1])
    finally:
        iv.prec = old


# --------------------------------------------------------------------------------------------
# vectorised paths: float64 closed forms with a safe-direction margin

#: Relative margin the numpy fast paths add in the safe direction (2^-44 = 256 ulp). Closed forms
#: here use at most a dozen operations, each with error at most a few ulp (IEEE +, -, *, /, sqrt
#: are correctly rounded; numpy's log/exp/log2/exp2 are within 4 ulp), and they involve no
#: cancellation except alpha - beta, whose rounding is relative to the result itself. The margin
#: is checked against 50-digit evaluation in the tests.
FAST_REL_MARGIN: float = 2.0**-44


#: Extra relative margin per unit of |argument| (in nats) of an exponential whose argument is
#: itself computed: exp(x + e) = exp(x) e^e, so an absolute error e in x becomes a relative
#: error of about |e| in the result. The callers' exponents take at most five roundings (a
#: product or quotient of inputs, times the rounded ln 2, a subtraction), so
#: |e| <= 5 * 2^-53 * (sum of the addends' sizes), which is what callers pass as ``exp_arg``;
#: 2^-50 is 8 ulp per unit. (2^x with x in bits: pass x ln 2.)
FAST_EXP_MARGIN: float = 2.0**-50

#: The same margin for an exponent computed in double-double (``Formula.array_dd``): each of
#: its operations errs by about 2^-104 of its operands' sizes; 2^-96 per nat of the addends'
#: sizes allows 256 such errors.
DD_EXP_MARGIN: float = 2.0**-96


def _margin(
    y: NDArray[np.float64], exp_arg: Any, exp_part: Any = None, per_nat: float = FAST_EXP_MARGIN
) -> NDArray[np.float64]:
    # below the normal floats an operation's error is absolute (half an ulp of 2^-1074 each,
    # a dozen operations at most): 2^-1071 (8 such ulps) is added to every margin
    out: NDArray[np.float64] = np.abs(y) * FAST_REL_MARGIN + _SUBNORMAL_MARGIN
    if exp_arg is not None:
        # the amplified error is relative to the exponential's own contribution to y
        part = np.abs(y if exp_part is None else exp_part)
        with np.errstate(over="ignore", invalid="ignore"):  # inf/NaN: the callers refine
            out = out + part * np.abs(exp_arg) * per_nat
    return out


_SUBNORMAL_MARGIN = 2.0**-1071


def fast_up(
    y: NDArray[np.float64], *, exp_arg: Any = None, exp_part: Any = None, per_nat: float = FAST_EXP_MARGIN
) -> NDArray[np.float64]:
    """Push float results of a closed form up by :data:`FAST_REL_MARGIN` (upper bounds).

    ``exp_arg``: the (computed) argument of an exponential factor in ``y``, whose rounding is
    amplified by its size; adds ``|exp_part| |exp_arg| FAST_EXP_MARGIN`` to the margin, where
    ``exp_part`` (default ``y``) is the size of that exponential term's contribution to ``y``;
    ``per_nat``: :data:`DD_EXP_MARGIN` for an exponent computed in double-double.
    """
    out: NDArray[np.float64] = np.nextafter(y + _margin(y, exp_arg, exp_part, per_nat), np.inf)
    return out


def fast_down(
    y: NDArray[np.float64], *, floor: float = 0.0, exp_arg: Any = None, exp_part: Any = None
) -> NDArray[np.float64]:
    """Push float results down by :data:`FAST_REL_MARGIN` (thresholds, lower bounds), >= floor."""
    out: NDArray[np.float64] = np.maximum(np.nextafter(y - _margin(y, exp_arg, exp_part), -np.inf), floor)
    return out


#: The largest relative slack an array path's exponential margin may add; an entry above it
#: (or NaN: double-double operands beyond 2^996) goes to the certified scalar path
#: (:func:`certify_entries`), so the array paths stay within 1e-12 relative of the exact
#: value (the margin, at most 2^-41, and the estimate's own error, less than the margin).
EXP_SLACK_CAP: float = 2.0**-41


def exp_margin_too_wide(
    exp_part: Any, exp_arg: Any, total: Any, *, per_nat: float = FAST_EXP_MARGIN
) -> NDArray[np.bool_]:
    """Entries where ``fast_up``'s exponential margin ``|exp_part| |exp_arg| per_nat`` would
    exceed :data:`EXP_SLACK_CAP` relative to ``total`` (the value returned), or is NaN."""
    with np.errstate(invalid="ignore", over="ignore"):
        wide = ~(np.abs(exp_part) * np.abs(exp_arg) * per_nat <= EXP_SLACK_CAP * np.abs(total))
    out: NDArray[np.bool_] = np.asarray(wide, dtype=bool)
    return out


def each_entry(mask: NDArray[np.bool_], *args: NDArray[Any]) -> Iterator[tuple[int, list[Any]]]:
    """The flat indices under ``mask``, each with ``args`` (broadcast to ``mask``'s shape) at
    that entry as Python scalars (integer arrays as ``int``, others as ``float``): the entries
    an array path hands, one by one, to the certified scalar path."""
    flat = [np.broadcast_to(a, mask.shape).ravel() for a in args]
    for i in map(int, np.flatnonzero(mask)):
        yield i, [int(a[i]) if a.dtype.kind in "iu" else float(a[i]) for a in flat]


def certify_entries(
    out: NDArray[np.float64], mask: NDArray[np.bool_], scalar: Callable[..., float], *args: NDArray[Any]
) -> NDArray[np.float64]:
    """Replace ``out``'s entries under ``mask`` by ``scalar`` (the certified scalar path) at
    the same arguments (see :func:`each_entry`)."""
    if not mask.any():
        return out
    res = out.copy().ravel()
    for i, xs in each_entry(np.broadcast_to(mask, out.shape), *args):
        res[i] = scalar(*xs)
    return res.reshape(out.shape)


def iv_prec(dps: int) -> int:
    """Interval working precision (bits) for ``dps`` significant decimal digits, plus guard bits."""
    check_int("dps", dps, low=15, high=10_000)
    return int(dps * 3.3219280948873626) + 24
