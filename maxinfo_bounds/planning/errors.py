"""The planning wing's one error type."""

from __future__ import annotations

from ..numeric import InvalidParameter

__all__ = ["PlanError"]


class PlanError(InvalidParameter):
    """A planning input outside what is allowed, named as the study file names it.

    ``name`` is the key (``steps[1].eps``, ``data.n``; for a value built in Python, the
    argument: ``eps``, ``n``), ``allowed`` the rest of the one-line message; ``str()`` is
    ``"<name>: <message>"`` (a study file's path first when it came from a file).
    """

    def __init__(self, where: str, message: str) -> None:
        ValueError.__init__(self, f"{where}: {message}")
        self.name, self.value, self.allowed = where, None, message
