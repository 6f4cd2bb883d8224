"""What every campaign report records about its environment."""

from __future__ import annotations

import functools
import hashlib
import platform
from pathlib import Path

import maxinfo_bounds

__all__ = ["versions", "code_identity"]


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


def versions() -> dict[str, str]:
    """Versions of Python and of the libraries the results depend on."""
    import mpmath
    import numpy
    import scipy
    import sympy

    return {"python": platform.python_version(), "numpy": numpy.__version__,
            "scipy": scipy.__version__, "sympy": sympy.__version__, "mpmath": mpmath.__version__,
            "maxinfo_bounds": maxinfo_bounds.__version__, "code": code_identity()}
