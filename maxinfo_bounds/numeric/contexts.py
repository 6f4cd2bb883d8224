"""Private mpmath contexts, one per thread: every certified computation runs at a precision of
its own, never the global one.

``mpmath.mp`` and ``mpmath.iv`` are process-wide objects: a caller that sets ``mp.dps = 3`` for
its own work, or another thread doing so while a bound is being computed, would otherwise
change the precision our interval enclosures and 50-digit evaluations run at (issue 46: with one
other thread running mpmath at 3 digits, 192 of 1,800 results came out on the wrong side). Each
thread gets its own :class:`mpmath.ctx_mp.MPContext` and :class:`mpmath.ctx_iv.MPIntervalContext`
(created on first use, about 0.5 ms), whose precision only this package sets, always inside a
``workdps`` / ``workprec`` block or a save-and-restore of the interval context's ``prec``.

Numbers made in a private context are ordinary mpmath numbers of another class; a value handed
to the user is converted to the global context's class without rounding (:func:`to_public`).
"""

from __future__ import annotations

import threading
from typing import Any

import mpmath
from mpmath.ctx_iv import MPIntervalContext
from mpmath.ctx_mp import MPContext

__all__ = ["mp_ctx", "iv_ctx", "is_mpf", "to_public"]

_LOCAL = threading.local()


def mp_ctx() -> Any:
    """This thread's private multiprecision context."""
    c = getattr(_LOCAL, "mp", None)
    if c is None:
        c = _LOCAL.mp = MPContext()
    return c


def iv_ctx() -> Any:
    """This thread's private interval context."""
    c = getattr(_LOCAL, "iv", None)
    if c is None:
        c = _LOCAL.iv = MPIntervalContext()
    return c


def is_mpf(x: object) -> bool:
    """``x`` is an mpmath real of any context (the global one's or a private one's)."""
    return hasattr(x, "_mpf_")


def to_public(x: Any) -> Any:
    """A private context's mpf as the global context's, the same value (not rounded)."""
    return mpmath.mp.make_mpf(x._mpf_) if is_mpf(x) else x
