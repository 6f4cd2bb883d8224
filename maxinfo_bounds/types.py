"""The types of the public API.

Every calculator function takes scalars (``float``, ``int`` or :class:`~fractions.Fraction`)
and returns a result object (:class:`~maxinfo_bounds.results.Bound`, ...) or a float; given an
array in any argument it takes the vectorised path and returns a float64 array (``FloatArray``).
Their signatures are overloaded on exactly that, so a type checker knows which one you get:

>>> from maxinfo_bounds import pure_dp_max_information
>>> type(pure_dp_max_information(0.1, 100)).__name__
'Bound'
>>> import numpy as np
>>> pure_dp_max_information(np.array([0.1, 0.2]), 100).dtype
dtype('float64')
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, Protocol, TypeAlias

import numpy as np
from numpy.typing import NDArray

__all__ = ["RealLike", "IntLike", "RealArray", "RealOrArray", "IntOrArray", "FloatArray", "MpfLike"]

#: a real scalar argument (a Fraction is read at its exact value)
RealLike: TypeAlias = float | int | Fraction
#: an integer scalar argument
IntLike: TypeAlias = int | np.integer
#: an array argument: a numpy array or a (nested) sequence of reals
RealArray: TypeAlias = NDArray[np.floating] | NDArray[np.integer] | Sequence[float]
#: a real scalar or an array (the vectorised path when any argument is an array)
RealOrArray: TypeAlias = RealLike | RealArray
#: an integer scalar or an array of integers
IntOrArray: TypeAlias = IntLike | RealArray
#: the vectorised paths' result
FloatArray: TypeAlias = NDArray[np.float64]


class MpfLike(Protocol):
    """An arbitrary-precision real (``mpmath.mpf``): what the exact-mode measures return, and
    the arithmetic the measures do with it."""

    def __float__(self) -> float: ...

    def __add__(self, other: Any) -> Any: ...

    def __sub__(self, other: Any) -> Any: ...

    def __mul__(self, other: Any) -> Any: ...

    def __rmul__(self, other: Any) -> Any: ...

    def __truediv__(self, other: Any) -> Any: ...

    def __lt__(self, other: Any) -> bool: ...
