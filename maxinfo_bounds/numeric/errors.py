"""Error types: every error the package raises on purpose names the parameter, its value and
the allowed range (both are :class:`ValueError` subclasses)."""

from __future__ import annotations

import numpy as np


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


class MissingParameter(InvalidParameter):
    """A required parameter (or one of a set of alternatives) was not given.

    The message names what is missing and what would do, e.g. ``missing n: the number of
    records, needed with eps``.
    """

    def __init__(self, name: str, needed: str) -> None:
        ValueError.__init__(self, f"missing {name}: {needed}")
        self.name, self.value, self.allowed = name, None, needed


class RegimeError(MaxinfoError, ValueError):
    """A theorem was asked for outside the conditions under which it is proven.

    The message names the theorem, the violated condition, the parameter and its value.
    """

    def __init__(self, theorem: str, name: str, value: object, condition: str) -> None:
        self.theorem = theorem
        self.name = name
        self.value = value
        self.condition = condition
        super().__init__(f"{theorem} does not apply: it requires {condition}, got {name}={_short_repr(value)}")


def _short_repr(value: object) -> str:
    if isinstance(value, np.ndarray):
        return f"<array shape={value.shape} dtype={value.dtype}>"
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."
