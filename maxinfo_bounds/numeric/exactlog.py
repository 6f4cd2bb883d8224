"""Exact logarithms: :class:`ExactLog` is the logarithm of an exact rational (the optimal ratio of
a max-divergence), evaluated to any precision on request."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath

from ..types import MpfLike
from .contexts import mp_ctx, to_public
from .rounding import enclosure, log_le
from .validate import Unit, check_int

# --------------------------------------------------------------------------------------------
# exact logarithms


@dataclass(frozen=True)
class ExactLog:
    """``log`` (base 2 for ``unit="bits"``, base e for ``"nats"``) of an exact rational.

    The result of an exact-mode divergence: ``ratio`` is the optimal ratio ``2^k`` (bits) or
    ``e^eps`` (nats) as a :class:`fractions.Fraction`; ``ratio=None`` stands for ``+inf``
    (unbounded) and ``ratio=Fraction(0)`` for ``-inf`` (no event qualifies).

    >>> import mpmath
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

    def value(self, dps: int = 50) -> MpfLike:
        """The logarithm as an :class:`mpmath.mpf` with ``dps`` significant decimal digits."""
        check_int("dps", dps, low=1, high=100_000)
        out: MpfLike
        if self.ratio is None:
            out = mpmath.inf
        elif self.ratio == 0:
            out = -mpmath.inf
        else:
            c = mp_ctx()  # a private context: the caller's mpmath precision plays no part
            with c.workdps(dps + 10):
                v = c.log(c.mpf(self.ratio.numerator) / self.ratio.denominator)
                if self.unit == "bits":
                    v = v / c.log(2)
            with c.workdps(dps):
                out = to_public(+v)
        return out

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
        # the nearest float (float() of an mpf rounds to nearest at any context precision)
        return float(self.value(dps=30))

    def le(self, t: float | Fraction) -> bool:
        """Decide ``self <= t`` exactly (``t`` in the same unit)."""
        if self.ratio is None:
            return False
        return log_le(self.ratio, t, base="2" if self.unit == "bits" else "e")
