"""What every campaign report records about its environment."""

from __future__ import annotations

import functools
import hashlib
import platform
import time
from pathlib import Path
from typing import Any

import maxinfo_bounds

__all__ = ["versions", "code_identity", "check_record"]


@functools.cache
def code_identity() -> str:
    """The identity of the code that produces campaign records: the package version and a
    SHA-256 of every Python source of ``maxinfo_bounds`` and ``proofs_checks`` (paths and
    contents, in sorted order). A resumed campaign reuses a record only when this matches, so
    the results of another build (an edit, a checkout of another commit) are never reused.

    >>> code_identity().startswith(maxinfo_bounds.__version__ + "+")
    True
    """
    h = hashlib.sha256()
    for pkg in (Path(maxinfo_bounds.__file__).parent, Path(__file__).parent):
        for f in sorted(pkg.rglob("*.py")):
            h.update(f"{pkg.name}/{f.relative_to(pkg).as_posix()}\0".encode())
            h.update(f.read_bytes())
            h.update(b"\0")
    return f"{maxinfo_bounds.__version__}+{h.hexdigest()[:16]}"


def check_record(
    check: str, mech: str, inputs: dict[str, Any], exact: float, bound: float | None, t0: float, note: str = ""
) -> dict[str, Any]:
    """One campaign record: ``exact`` (a true or sampled value) held against ``bound`` (None:
    nothing to hold it against, verdict ``n/a``), with a relative slack of 1e-9 for rounding.
    ``t0``: the ``time.monotonic()`` at which the check started."""
    holds = bound is None or exact <= bound * (1 + 1e-9) + 1e-12
    return {
        "id": f"{check}/{mech}/" + ",".join(f"{k}={v}" for k, v in inputs.items()),
        "check": check,
        "mechanism": mech,
        "inputs": inputs,
        "value": exact,
        "bound": bound,
        "tightness": (bound / exact) if bound is not None and exact > 0 else None,
        "verdict": "n/a" if bound is None else ("holds" if holds else "FAILS"),
        "note": note,
        "seconds": round(time.monotonic() - t0, 4),
    }


def versions() -> dict[str, str]:
    """Versions of Python and of the libraries the results depend on."""
    import mpmath
    import numpy
    import scipy
    import sympy

    return {
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "scipy": scipy.__version__,
        "sympy": sympy.__version__,
        "mpmath": mpmath.__version__,
        "maxinfo_bounds": maxinfo_bounds.__version__,
        "code": code_identity(),
    }
