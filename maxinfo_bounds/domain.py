"""Parameter domains, declared once and read by everything that needs them.

A :class:`Domain` is a machine-readable interval of the reals (or integers), with the units
and, where a condition relates a parameter to another one (``delta < eps``), that relation as
text. A theorem declares each parameter once (:class:`~maxinfo_bounds.theorems.registry.Param`
holds a Domain); the same object then

* validates scalar arguments (:meth:`Domain.check`, one :class:`~maxinfo_bounds.numeric.
  InvalidParameter` naming the parameter, its value and this range),
* validates array arguments and gives their masks (:meth:`Domain.check_array`,
  :meth:`Domain.mask`),
* types and documents the CLI arguments (:attr:`Domain.kind`, :attr:`Domain.text`),
* writes the catalog's parameter lines and a :class:`~maxinfo_bounds.results.Bound`'s
  ``conditions`` (:meth:`Domain.condition`).

>>> BETA_OPEN = Real(0, 1, lo_open=True, hi_open=True)
>>> BETA_OPEN.text, BETA_OPEN.condition("beta")
('(0, 1)', '0 < beta < 1')
>>> BETA_OPEN.check("beta", 0.5)
0.5
>>> Int(1).condition("n"), Int(1).text
('n >= 1 integer', '[1, inf) integer')
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from numpy.typing import NDArray

from .numeric import InvalidParameter, check_int, check_real, check_real_array

__all__ = ["Domain", "Real", "Int", "DPS", "NONNEG", "PROB", "PROB_BELOW_1"]


def _num(x: float) -> str:
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if float(x).is_integer():
        return str(int(x))
    for q in (2, 3, 4):  # the simple fractions the papers use
        if abs(x * q - round(x * q)) < 1e-12 and round(x * q) != 0:
            return f"{round(x * q)}/{q}"
    return repr(float(x))


@dataclass(frozen=True)
class Domain:
    """An interval ``lo .. hi`` (each end open or closed) of reals or integers.

    ``relation``: a further condition on other parameters, as text (checked by the theorem's
    regime test, shown in the catalog). ``units``: e.g. "nats", "bits" (shown in help texts).
    """

    lo: float = -math.inf
    hi: float = math.inf
    lo_open: bool = False
    hi_open: bool = False
    integer: bool = False
    relation: str = ""
    units: str = ""

    @property
    def kind(self) -> type:
        """``int`` or ``float``: the CLI argument type."""
        return int if self.integer else float

    @property
    def text(self) -> str:
        """The interval as text, e.g. ``(0, 1/2]`` or ``[1, inf) integer``."""
        left = "(" if self.lo_open or math.isinf(self.lo) else "["
        right = ")" if self.hi_open or (math.isinf(self.hi) and self.integer) else "]"
        out = f"{left}{_num(self.lo)}, {_num(self.hi)}{right}"
        return out + self._suffix()

    def _suffix(self) -> str:
        return (" integer" if self.integer else "") + (f", {self.relation}" if self.relation else "")

    def condition(self, name: str) -> str:
        """The domain as a condition on ``name``, e.g. ``0 < beta < 1`` or ``n >= 1 integer``."""
        lo, hi = _num(self.lo), _num(self.hi)
        has_lo, has_hi = not math.isinf(self.lo), not (math.isinf(self.hi) and self.hi_open)
        if self.integer:
            has_hi = not math.isinf(self.hi)
        lop, hop = ("<" if self.lo_open else "<="), ("<" if self.hi_open else "<=")
        if has_lo and has_hi:
            out = f"{lo} {lop} {name} {hop} {hi}"
        elif has_lo:
            out = f"{name} {'>' if self.lo_open else '>='} {lo}"
        elif has_hi:
            out = f"{name} {hop} {hi}"
        else:
            out = f"{name} real"
        return out + self._suffix()

    def _low(self) -> float | None:
        return None if math.isinf(self.lo) else self.lo

    def _high(self) -> float | None:
        return None if math.isinf(self.hi) and self.hi_open else self.hi

    def check(self, name: str, x: object) -> float | int | Fraction:
        """Validate a scalar; integers come back as ``int``, Fractions stay exact."""
        if self.integer:
            return check_int(
                name,
                x,
                low=None if math.isinf(self.lo) else math.ceil(self.lo + (1 if self.lo_open else 0)),
                high=None if math.isinf(self.hi) else math.floor(self.hi),
            )
        return check_real(name, x, low=self._low(), high=self._high(), low_open=self.lo_open, high_open=self.hi_open)

    def check_float(self, name: str, x: object) -> float:
        """:meth:`check`, returned as the nearest float (the value is then used as a float, so
        an integer or Fraction beyond the float range is refused, as an inf is). A value the
        certified formula reads should be passed exact (:meth:`check`): Fractions and integers
        above 2^53 are then evaluated exactly."""
        if type(x) is float and not self.integer and self.lo < x < self.hi:
            return x  # strictly inside: valid whichever ends are open (NaN and inf fail the test)
        v = self.check(name, x)
        try:
            return float(v)
        except OverflowError:
            raise InvalidParameter(
                name,
                x,
                f"at most {sys.float_info.max!r} in magnitude (the largest float: the value is used as a float)",
            ) from None

    def check_array(self, name: str, x: object) -> NDArray[np.float64]:
        """Validate every entry of an array; float64 back."""
        if _infinite_ok(self):
            # +inf belongs to a closed-at-inf domain: validate the finite entries only
            try:
                raw = np.asarray(x, dtype=np.float64)
            except (TypeError, ValueError):
                return check_real_array(name, x)  # raises, naming the parameter
            ok = self.mask(raw)  # +inf is inside: hi = inf is a closed end here
            if not np.all(ok):
                raise InvalidParameter(name, float(raw[~ok].ravel()[0]), f"real numbers in {self.text} (every entry)")
            return raw
        return check_real_array(
            name,
            x,
            low=self._low(),
            high=self._high(),
            low_open=self.lo_open,
            high_open=self.hi_open,
            integer=self.integer,
        )

    def mask(self, arr: NDArray[np.float64]) -> NDArray[np.bool_]:
        """Entries of ``arr`` inside the domain (the relation is not checked here)."""
        with np.errstate(invalid="ignore"):
            ok = (arr > self.lo) if self.lo_open else (arr >= self.lo)
            ok &= (arr < self.hi) if self.hi_open else (arr <= self.hi)
            if self.integer:
                ok &= np.floor(arr) == arr
        out: NDArray[np.bool_] = ok & ~np.isnan(arr)
        return out


def _infinite_ok(d: Domain) -> bool:
    return math.isinf(d.hi) and d.hi > 0 and not d.hi_open and not d.integer


def Real(
    lo: float = -math.inf,
    hi: float = math.inf,
    *,
    lo_open: bool = False,  # noqa: N802
    hi_open: bool | None = None,
    relation: str = "",
    units: str = "",
) -> Domain:
    """A real interval; an infinite upper end is open unless ``hi_open=False`` is given."""
    if hi_open is None:
        hi_open = math.isinf(hi)
    return Domain(float(lo), float(hi), lo_open, hi_open, False, relation, units)


def Int(lo: int, hi: float = math.inf, *, relation: str = "", units: str = "") -> Domain:  # noqa: N802
    """An integer interval ``[lo, hi]``."""
    return Domain(float(lo), float(hi), False, math.isinf(hi), True, relation, units)


#: shared domains of the measures (each declared once; the theorem modules declare theirs as
#: :class:`~maxinfo_bounds.theorems.registry.Param`)
DPS = Int(1, 100_000)  # decimal digits of an exact-mode mpmath result
NONNEG = Real(0)  # eps in nats, a hockey-stick's c
PROB = Real(0, 1)  # a delta where delta = 1 is allowed (vacuous)
PROB_BELOW_1 = Real(0, 1, hi_open=True)  # a delta or beta below 1
