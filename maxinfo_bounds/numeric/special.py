"""scipy.special's ufuncs without scipy.special's import-time array-API layer (issue 45).

The power code and a few float estimates need a handful of :mod:`scipy.special` ufuncs
(:data:`UFUNCS`: ``nctdtr``, ``betainc``, ``log_ndtr``, ``gammaln``, ...). With scipy 1.17,
``import scipy.special`` costs about 0.13-0.25 s of CPU beyond numpy, almost all of it
``scipy.special._support_alternative_backends`` and the array-API compatibility layer it imports
(numpy.testing, numpy.ma, numpy.f2py), none of which a float evaluation of those ufuncs uses.
The ufuncs themselves live in the compiled submodule ``scipy.special._ufuncs`` (about 0.02 s).

:func:`special` returns :mod:`scipy.special` itself when it is already imported. Otherwise, in a
single-threaded process (the command line), it imports ``scipy.special._ufuncs`` alone: for the
duration of that import a bare package object stands in for ``scipy.special`` in
``sys.modules`` (so the package's ``__init__`` does not run), and is removed afterwards; a later
``import scipy.special`` runs the real ``__init__``, which reuses the already loaded submodule,
so its ufuncs are the *same objects* (``tests/test_required_n_bound.py`` checks this identity for
every ufunc the project uses). With other threads running (a Dask worker, a notebook's
kernel threads) nothing is substituted, because another thread could see the stand-in; and
if anything in the fast path fails (a future scipy that moves the ufuncs), the normal import is
used. Either way the functions and their values are scipy's own.

>>> sp = special()
>>> float(sp.betainc(1.0, 1.0, 0.25))   # I_x(1, 1) = x
0.25
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import sys
import threading
import types
from typing import Any

#: the ufuncs the project evaluates (all in ``scipy.special._ufuncs``)
UFUNCS = (
    "nctdtr",
    "stdtrit",
    "stdtr",
    "betainc",
    "betaincc",
    "bdtr",
    "bdtrc",
    "gammaln",
    "erfcx",
    "log_ndtr",
    "ndtr",
    "ndtri",
    "ndtri_exp",
)


def _fast() -> Any | None:
    """``scipy.special._ufuncs`` imported without the package's ``__init__`` (module doc), or
    None when that is not safe or not possible here."""
    if "scipy.special" in sys.modules or threading.active_count() != 1:
        return None
    try:
        spec = importlib.util.find_spec("scipy.special")
        if spec is None or not spec.submodule_search_locations:
            return None
        stand_in = types.ModuleType("scipy.special")
        stand_in.__path__ = list(spec.submodule_search_locations)
        sys.modules["scipy.special"] = stand_in
        try:
            mod = importlib.import_module("scipy.special._ufuncs")
        finally:
            if sys.modules.get("scipy.special") is stand_in:
                del sys.modules["scipy.special"]
        if not all(callable(getattr(mod, name, None)) for name in UFUNCS):
            return None
        return mod
    except Exception:  # any failure: fall back to the documented import
        return None


@functools.cache
def special() -> Any:
    """A namespace holding scipy.special's ufuncs :data:`UFUNCS` (module doc): the compiled
    ``scipy.special._ufuncs`` when it can be imported alone, else :mod:`scipy.special`."""
    mod = _fast()
    if mod is not None:
        return mod
    import scipy.special

    return scipy.special
