"""What every campaign report records about its environment."""

from __future__ import annotations

import platform

import maxinfo_bounds

__all__ = ["versions"]


def versions() -> dict[str, str]:
    """Versions of Python and of the libraries the results depend on."""
    import mpmath
    import numpy
    import scipy
    import sympy

    return {"python": platform.python_version(), "numpy": numpy.__version__,
            "scipy": scipy.__version__, "sympy": sympy.__version__, "mpmath": mpmath.__version__,
            "maxinfo_bounds": maxinfo_bounds.__version__}
