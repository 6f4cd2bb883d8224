r"""Arithmetic contexts: each formula is written once and evaluated in several number systems.

This is mpmath's trick (one function body, a context argument ``c`` supplying the numbers and
the elementary functions). A theorem's formula is a plain Python function ``body(c, *args)``
written with ``+ - * /``, ``**`` by integer powers, and ``c.exp``, ``c.log``, ``c.sqrt``,
``c.expm1``, ``c.log1p``, ``c.exp2``, ``c.log2``, ``c.log2_ratio`` (log2(x/y)), ``c.log2e``,
``c.ln2``, ``c.pos`` (= max(x, 0)), ``c.log1pexp`` (= log(1 + e^x)), ``c.log_binomial``
(= log C(k, l), k an integer), ``c.xlog`` (= x ln(y/x), 0 at x = 0) and ``c.num`` (a literal
constant, e.g. ``c.num(Fraction(27, 50))``). From that one body come

* the **certified scalar path** — :data:`interval` contexts (mpmath interval arithmetic; the
  caller rounds the enclosure outward with :func:`~maxinfo_bounds.numeric.enclosure`);
* the **array path** — :data:`NUMPY` (float64, vectorised; the caller adds the safe-direction
  margin with :func:`~maxinfo_bounds.numeric.fast_up` / ``fast_down``);
* the **array path with a cancelling exponent** — :data:`DOUBLE_DOUBLE` (float64 pairs for
  the ``+ - * /`` inside ``c.exp``; :meth:`Formula.array_dd`), where a float64 exponent whose
  addends are thousands of nats would cost thousands of ulps in the result;
* the **float estimate** the optimisers use — :data:`NUMPY` on scalars;
* the **exact** value where it is rational — :data:`EXACT` (Fractions);
* the **symbolic statement** — :data:`SYMPY` on symbols; the catalog's statement, LaTeX and the
  claims checked by ``proofs_checks`` are generated from it, so the statement shown and the
  evaluator used cannot disagree.

:class:`Formula` ties a body to the names of its symbols. The operations a body may use are
declared once, as :class:`Context` (a :class:`typing.Protocol`, as mpmath's context base class
declares its operations): every full context implements it, mypy checks each context against
it and each formula body is typed with it, so a primitive used by a body but missing from a
context is a type error, not a failure on the first call of one path. :class:`ExpContext` is
the subset the double-double context offers (``+ - * /``, ``num``, ``ln2``, ``exp``), for the
bodies whose exponent it carries.

>>> f = Formula(lambda c, eps, n: eps * n * c.log2e, ("epsilon", "n"))
>>> f.statement()
epsilon*n/log(2)
>>> lo, hi = f.enclosure(0.1, 100)
>>> lo <= 14.426950408889634 <= hi
True
>>> round(float(f.array(0.1, 100)), 12)      # float64, no margin
14.42695040889

Why one module over 400 lines: four arithmetic contexts (numpy, interval, sympy, exact) and
the double-double one must offer the same primitives side by side, so that a primitive added
to one is seen missing from the others; Formula is the small class tying them to a body.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol

import mpmath
import numpy as np
from numpy.typing import NDArray

from .numeric import LOG2E, enclosure
from .numeric.special import special

__all__ = ["Context", "ExpContext", "NUMPY", "SYMPY", "EXACT", "DOUBLE_DOUBLE", "NotExact", "Interval", "Formula"]


class ExpContext(Protocol):
    """The operations every context offers, the double-double one included: ``+ - * /`` on its
    numbers, and these."""

    @property
    def name(self) -> str: ...

    @property
    def ln2(self) -> Any: ...

    def num(self, x: Any) -> Any:
        """A literal constant (an int, float or Fraction) as a number of this context."""
        ...

    def exp(self, x: Any) -> Any: ...


class Context(ExpContext, Protocol):
    """The operations a formula body may use (module doc); every full context implements them
    (the exact one raises :class:`NotExact` where the result is irrational)."""

    @property
    def log2e(self) -> Any: ...

    def expm1(self, x: Any) -> Any: ...

    def log(self, x: Any) -> Any: ...

    def log1p(self, x: Any) -> Any: ...

    def sqrt(self, x: Any) -> Any: ...

    def exp2(self, x: Any) -> Any: ...

    def log2(self, x: Any) -> Any: ...

    def log2_ratio(self, x: Any, y: Any) -> Any:
        """log2(x / y), without forming x / y where that overflows."""
        ...

    def pos(self, x: Any) -> Any:
        """max(x, 0)."""
        ...

    def log1pexp(self, x: Any) -> Any:
        """log(1 + e^x)."""
        ...

    def log_binomial(self, k: int, l: Any) -> Any:
        """log C(k, l), k an integer."""
        ...

    def xlog(self, x: Any, y: Any) -> Any:
        """x ln(y / x), 0 at x = 0."""
        ...


class _Numpy:
    """float64 (numpy) context: arrays and scalar float estimates. Not certified by itself."""

    name = "numpy"
    log2e = LOG2E
    ln2 = math.log(2.0)
    exp = staticmethod(np.exp)
    expm1 = staticmethod(np.expm1)
    log = staticmethod(np.log)
    log1p = staticmethod(np.log1p)
    sqrt = staticmethod(np.sqrt)
    exp2 = staticmethod(np.exp2)
    log2 = staticmethod(np.log2)

    @staticmethod
    def num(x: Any) -> Any:
        return np.asarray(float(x) if isinstance(x, Fraction) else x, dtype=np.float64)

    @staticmethod
    def pos(x: Any) -> Any:
        return np.maximum(x, 0.0)

    @staticmethod
    def log2_ratio(x: Any, y: Any) -> Any:
        return np.log2(x) - np.log2(y)  # no overflow of x/y

    @staticmethod
    def log1pexp(x: Any) -> Any:
        return np.logaddexp(0.0, x)  # no overflow of e^x

    @staticmethod
    def log_binomial(k: int, l: Any) -> Any:
        if k <= 20_000:  # math.lgamma: spares a plan scipy.special's import (~0.3 s of CPU)
            lgf = _log_factorials(k)
            li = np.asarray(l, dtype=np.int64)
            return lgf[k] - lgf[li] - lgf[k - li]
        gammaln = special().gammaln

        lf = np.asarray(l, dtype=np.float64)
        return gammaln(k + 1.0) - gammaln(lf + 1.0) - gammaln(k - lf + 1.0)

    @staticmethod
    def xlog(x: Any, y: Any) -> Any:
        safe = np.where(x > 0, x, 1.0)
        # ln y - ln x, not ln(y/x): y/x overflows when x is subnormal
        return np.where(x > 0, x * (np.log(y) - np.log(safe)), 0.0)


@functools.lru_cache(maxsize=16)
def _log_factorials(k: int) -> NDArray[np.float64]:
    """log j! for j = 0..k (math.lgamma), kept for the last few k: a root search evaluates the
    same k's binomials at every step (issue 45: rebuilding the table was 90% of KOV's float
    estimate at k = 10^4). Read-only."""
    out = np.array([math.lgamma(i + 1.0) for i in range(k + 1)])
    out.flags.writeable = False
    return out


class Interval:
    """mpmath interval context (``c = Interval(iv)`` inside :func:`~maxinfo_bounds.numeric.
    enclosure`): every operation encloses the exact result."""

    name = "interval"

    def __init__(self, iv: Any) -> None:
        self.iv = iv
        self.ln2 = iv.log(2)
        self.log2e = 1 / self.ln2
        self.exp, self.log, self.sqrt = iv.exp, iv.log, iv.sqrt

    def _guard_bits(self, x: Any) -> int:
        """Bits that e^x - 1 (or 1 + x) loses to cancellation: about -log2 of the smallest
        non-zero |endpoint| (none when the interval holds 0 or large values)."""
        mags = [abs(v) for v in (x.a, x.b) if v != 0]
        if not mags or (x.a < 0 < x.b):
            return 8
        return max(0, -int(mpmath.mag(min(mags)))) + 8

    def _raised(self, f: Callable[[], Any], x: Any) -> Any:
        iv, prec = self.iv, self.iv.prec
        iv.prec = prec + self._guard_bits(x)
        try:
            return f()
        finally:
            iv.prec = prec

    def expm1(self, x: Any) -> Any:
        # e^x - 1 at a working precision raised by the bits the subtraction cancels: a valid
        # enclosure at any precision, and as tight as mpmath's generic expm1 at a fraction of
        # its cost (which sums a series through a generic accurate-summation loop)
        return self._raised(lambda: self.iv.exp(x) - 1, x)

    def log1p(self, x: Any) -> Any:
        # log(1 + x) likewise: 1 + x is exact at the raised precision for the x we meet
        return self._raised(lambda: self.iv.log(1 + x), x)

    def num(self, x: Any) -> Any:
        if isinstance(x, Fraction):
            return self.iv.mpf(x.numerator) / x.denominator
        return self.iv.mpf(x)

    def exp2(self, x: Any) -> Any:
        return self.iv.exp(x * self.iv.log(2))

    def log2(self, x: Any) -> Any:
        return self.iv.log(x) / self.iv.log(2)

    def log2_ratio(self, x: Any, y: Any) -> Any:
        return self.log2(x / y)

    def log1pexp(self, x: Any) -> Any:
        return self.iv.log(1 + self.iv.exp(x))

    def log_binomial(self, k: int, l: int) -> Any:
        lg = self.iv.loggamma
        return lg(k + 1) - lg(l + 1) - lg(k - l + 1)

    def xlog(self, x: Any, y: Any) -> Any:
        if x.a == 0 and x.b == 0:
            return self.iv.mpf(0)
        return x * self.iv.log(y / x)

    def pos(self, x: Any) -> Any:
        lo, hi = x.a, x.b
        if lo >= 0:
            return x
        if hi <= 0:
            return self.iv.mpf(0)
        return self.iv.mpf([0, hi])


def _sympy() -> Any:
    """sympy, imported on first use: only statements, LaTeX and claims need it (it costs about
    0.4 s of CPU, more than the rest of the calculator's import)."""
    import sympy

    return sympy


class _Sympy:
    """sympy context: the symbolic statement (sympy is imported on first use)."""

    name = "sympy"

    @property
    def ln2(self) -> Any:
        return _sympy().log(2)

    @property
    def log2e(self) -> Any:
        return 1 / _sympy().log(2)

    @staticmethod
    def exp(x: Any) -> Any:
        return _sympy().exp(x)

    @staticmethod
    def log(x: Any) -> Any:
        return _sympy().log(x)

    @staticmethod
    def sqrt(x: Any) -> Any:
        return _sympy().sqrt(x)

    @staticmethod
    def expm1(x: Any) -> Any:
        return _sympy().exp(x) - 1

    @staticmethod
    def log1p(x: Any) -> Any:
        return _sympy().log(1 + x)

    @staticmethod
    def exp2(x: Any) -> Any:
        return _sympy().Integer(2) ** x

    @staticmethod
    def log2(x: Any) -> Any:
        return _sympy().log(x, 2)

    @staticmethod
    def log2_ratio(x: Any, y: Any) -> Any:
        return _sympy().log(x / y, 2)

    @staticmethod
    def log1pexp(x: Any) -> Any:
        return _sympy().log(1 + _sympy().exp(x))

    @staticmethod
    def ncdf(x: Any) -> Any:
        # the standard normal CDF Phi (sympy only: Balle-Wang's statement; its evaluator runs
        # the same body in mpmath, which has no interval erfc)
        return (1 + _sympy().erf(x / _sympy().sqrt(2))) / 2

    @staticmethod
    def log_binomial(k: Any, l: Any) -> Any:
        return _sympy().log(_sympy().binomial(k, l))

    @staticmethod
    def num(x: Any) -> Any:
        sympy = _sympy()
        if isinstance(x, Fraction):
            return sympy.Rational(x.numerator, x.denominator)
        if isinstance(x, int):
            return sympy.Integer(x)
        return sympy.Float(x)

    @staticmethod
    def pos(x: Any) -> Any:
        return _sympy().Max(x, 0)

    @staticmethod
    def xlog(x: Any, y: Any) -> Any:
        return x * _sympy().log(y / x)


class NotExact(ArithmeticError):
    """The exact context met an operation with an irrational result (use the interval one)."""


class _Exact:
    """Exact rational context (Fractions): only the operations with rational results."""

    name = "exact"

    @staticmethod
    def num(x: Any) -> Fraction:
        return Fraction(x)

    @staticmethod
    def exp2(x: Any) -> Fraction:
        x = Fraction(x)
        if x.denominator != 1 or abs(x) > 1 << 16:
            raise NotExact("2^x with x not a small integer")
        return Fraction(2) ** int(x)

    @staticmethod
    def log2(x: Any) -> Fraction:
        x = Fraction(x)
        if x <= 0:
            raise NotExact("log2 of a non-positive number")
        for v in (x.numerator, x.denominator):
            if v & (v - 1):
                raise NotExact("log2 of a rational that is not a power of two")
        return Fraction(x.numerator.bit_length() - x.denominator.bit_length())

    @classmethod
    def log2_ratio(cls, x: Any, y: Any) -> Fraction:
        return cls.log2(Fraction(x) / Fraction(y))

    @staticmethod
    def pos(x: Any) -> Any:
        return max(x, Fraction(0))

    @staticmethod
    def _irrational(*_: Any) -> Any:
        raise NotExact("this operation has no exact rational value in general")

    exp = expm1 = log = log1p = sqrt = xlog = log1pexp = log_binomial = _irrational

    @property
    def ln2(self) -> Any:
        return self._irrational()

    @property
    def log2e(self) -> Any:
        return self._irrational()


_SPLIT = 134217729.0  # 2^27 + 1, Veltkamp's splitter for float64


def _two_sum(a: Any, b: Any) -> tuple[Any, Any]:
    # Knuth: s + e = a + b exactly
    s = a + b
    v = s - a
    return s, (a - (s - v)) + (b - v)


def _two_prod(a: Any, b: Any) -> tuple[Any, Any]:
    # Dekker: p + e = a b exactly (no FMA in numpy; |a|, |b| < 2^996, no underflow)
    p = a * b
    t = _SPLIT * a
    ah = t - (t - a)
    t = _SPLIT * b
    bh = t - (t - b)
    al, bl = a - ah, b - bh
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


class _DD:
    """A double-double array ``hi + lo`` (|lo| <= ulp(hi)/2): + - * / with about 2^-104
    relative error per operation (of the operands' sizes for + and -)."""

    __slots__ = ("hi", "lo")
    __array_ufunc__ = None  # numpy arrays defer to our reflected operators

    def __init__(self, hi: Any, lo: Any = 0.0) -> None:
        self.hi, self.lo = hi, lo

    @staticmethod
    def of(x: Any) -> _DD:
        if isinstance(x, _DD):
            return x
        return _DD(np.asarray(x, dtype=np.float64), 0.0)

    @staticmethod
    def _norm(s: Any, e: Any) -> _DD:
        hi = s + e
        return _DD(hi, e - (hi - s))

    def __add__(self, other: Any) -> _DD:
        y = _DD.of(other)
        s, e = _two_sum(self.hi, y.hi)
        return _DD._norm(s, e + (self.lo + y.lo))

    __radd__ = __add__

    def __neg__(self) -> _DD:
        return _DD(-self.hi, -self.lo)

    def __sub__(self, other: Any) -> _DD:
        return self + (-_DD.of(other))

    def __rsub__(self, other: Any) -> _DD:
        return _DD.of(other) + (-self)

    def __mul__(self, other: Any) -> _DD:
        y = _DD.of(other)
        p, e = _two_prod(self.hi, y.hi)
        return _DD._norm(p, e + (self.hi * y.lo + self.lo * y.hi))

    __rmul__ = __mul__

    def __truediv__(self, other: Any) -> _DD:
        y = _DD.of(other)
        q1 = self.hi / y.hi
        r = self - y * q1
        q2 = r.hi / y.hi
        r = r - y * q2
        out: _DD = _DD._norm(q1, q2) + _DD.of(r.hi / y.hi)
        return out

    def __rtruediv__(self, other: Any) -> _DD:
        return _DD.of(other) / self


class _DoubleDouble:
    """Double-double (float64 pairs, about 32 digits) context for the *exponents* of the array
    paths: sums and products of inputs whose exponential is taken, where one float64 rounding
    of an addend of size A costs a relative error A 2^-53 in the result. ``exp`` returns a
    float64 array, ``e^hi (1 + lo)``; the operations after it are float64. Supports
    ``+ - * /``, ``ln2`` and ``exp``; a body using anything else is not for this context.
    Error: about 2^-100 times the sum of the exponent's addends' sizes (the margin
    :data:`~maxinfo_bounds.numeric.rounding.DD_EXP_MARGIN` is 16 times that), valid while
    the operands stay below 2^996 in size (beyond it the result is NaN: the caller falls back).
    """

    name = "double-double"
    ln2 = _DD(np.float64(0.6931471805599453), np.float64(2.3190468138462996e-17))

    @staticmethod
    def exp(x: Any) -> Any:
        x = _DD.of(x)
        return np.exp(x.hi) * (1.0 + x.lo)  # e^lo = 1 + lo + O(lo^2), lo <= 2^-53 |hi|

    @staticmethod
    def num(x: Any) -> Any:
        if isinstance(x, Fraction):  # a rational constant to double-double accuracy
            hi = float(x)
            return _DD(np.float64(hi), np.float64(float(x - Fraction(hi))))
        return _DD.of(x)


NUMPY = _Numpy()
SYMPY = _Sympy()  # (also ncdf, for Balle-Wang's statement)
EXACT = _Exact()
DOUBLE_DOUBLE = _DoubleDouble()
if TYPE_CHECKING:  # every context implements its protocol (checked by mypy, not at run time)
    _FULL: tuple[Context, ...] = (NUMPY, SYMPY, EXACT, Interval(mpmath.iv))
    _EXP: ExpContext = DOUBLE_DOUBLE


@dataclass(frozen=True)
class Formula:
    """A formula written once: ``body(c, *args)`` in any context ``c``.

    ``symbols``: the sympy names of the arguments, in order (``integer`` lists the integer
    ones). ``kwargs`` fixed keyword arguments of the body (e.g. a variant).
    """

    body: Callable[..., Any]
    symbols: tuple[str, ...]
    integer: tuple[str, ...] = ()
    kwargs: dict[str, Any] = field(default_factory=dict)

    def statement(self) -> Any:
        """The sympy expression (all symbols positive; the integer ones integer)."""
        sympy = _sympy()
        syms = [sympy.Symbol(s, positive=True, integer=s in self.integer) for s in self.symbols]
        return self.body(SYMPY, *syms, **self.kwargs)

    def latex(self) -> str:
        """LaTeX of :meth:`statement` (``ln`` for natural logarithms; ``x_hat`` shown as a hat, ``x_prime`` as x';
        epsilon as the papers' varepsilon)."""
        sympy, expr = _sympy(), self.statement()
        names = {
            s: rf"\hat{{{sympy.latex(sympy.Symbol(s.name[:-4]))}}}"
            for s in expr.free_symbols
            if s.name.endswith("_hat")
        }
        names.update(
            {s: f"{sympy.latex(sympy.Symbol(s.name[:-6]))}'" for s in expr.free_symbols if s.name.endswith("_prime")}
        )
        out = str(sympy.latex(expr, ln_notation=True, symbol_names=names))
        return out.replace(r"\epsilon", r"\varepsilon")  # the papers' epsilon

    def enclosure(self, *args: Any, prec: int = 128) -> tuple[float, float]:
        """Certified float ``(lo, hi)`` around the exact value at these (float/int/Fraction) args."""

        def fn(iv: Any) -> Any:
            c = Interval(iv)
            return self.body(c, *[c.num(a) for a in args], **self.kwargs)

        return enclosure(fn, prec=prec)

    def up(self, *args: Any, prec: int = 128) -> float:
        """The smallest float at or above the exact value."""
        return self.enclosure(*args, prec=prec)[1]

    def down(self, *args: Any, prec: int = 128) -> float:
        """The largest float at or below the exact value."""
        return self.enclosure(*args, prec=prec)[0]

    def exact(self, *args: Any) -> Fraction:
        """The exact rational value (:class:`NotExact` if the body leaves the rationals)."""
        out: Fraction = self.body(EXACT, *[Fraction(a) for a in args], **self.kwargs)
        return out

    def array(self, *args: Any) -> Any:
        """float64 evaluation (arrays broadcast); no margin: add it with fast_up/fast_down."""
        with np.errstate(all="ignore"):
            return self.body(NUMPY, *[np.asarray(a, dtype=np.float64) for a in args], **self.kwargs)

    def array_dd(self, *args: Any) -> Any:
        """float64 evaluation with the exponent in double-double (:data:`DOUBLE_DOUBLE`): for
        bodies ``f(e^{E})`` whose exponent ``E`` has large cancelling addends. No margin."""
        with np.errstate(all="ignore"):
            out = self.body(DOUBLE_DOUBLE, *[_DD.of(a) for a in args], **self.kwargs)
            return out.hi + out.lo if isinstance(out, _DD) else out

    def estimate(self, *args: Any) -> float:
        """Uncertified float value (for optimisers); ``inf`` where float64 overflows or fails.
        (The body on numpy float64 scalars: the same ufunc loops as :meth:`array`'s, without
        its arrays.)"""
        with np.errstate(all="ignore"):
            v = float(self.body(NUMPY, *[np.float64(a) for a in args], **self.kwargs))
        return v if not math.isnan(v) else math.inf
