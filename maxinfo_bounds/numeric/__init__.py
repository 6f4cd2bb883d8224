"""Numeric foundations: error types, argument validation, directed rounding, exact logarithms.

Every other module of :mod:`maxinfo_bounds` rests on this one.

* **Errors.** :class:`InvalidParameter` (a value outside a parameter's domain) and
  :class:`RegimeError` (a theorem's conditions are not met) are both :class:`ValueError`
  subclasses whose message names the parameter, its value and the allowed range.
* **Validation.** Probability vectors, joint tables and mechanism matrices are checked, never
  repaired: negative, NaN or infinite entries, wrong shapes, or totals off 1 by more than
  ``tol`` (default :data:`PROB_TOL` = 1e-9, absolute, measured with :func:`math.fsum`) raise
  :class:`InvalidParameter`. Nothing is renormalised. Exact tables (entries that are
  :class:`fractions.Fraction` or ``int``) must sum to exactly 1.
* **Directed rounding.** :func:`float_down` / :func:`float_up` turn an mpmath number into the
  nearest float below / above it; :func:`enclosure` evaluates an mpmath interval expression
  and returns certified float endpoints. A returned upper bound is never rounded down and a
  lower bound (or corrected threshold) is never rounded up.
* **Exact logarithms.** :class:`ExactLog` is ``log`` of an exact rational (the optimal ratio of
  a max-divergence), evaluated to any precision on request.
"""

from __future__ import annotations

from .contexts import is_mpf, iv_ctx, mp_ctx, to_public

# internal helpers are re-exported with ``X as X`` (the package's modules import them from here);
# ``__all__`` lists the public names
from .errors import InvalidParameter, MaxinfoError, MissingParameter, RegimeError
from .exactlog import ExactLog
from .files import PLOT_SUFFIXES as PLOT_SUFFIXES
from .files import check_output_file as check_output_file
from .files import save_figure as save_figure
from .rounding import (
    DD_EXP_MARGIN as DD_EXP_MARGIN,
)
from .rounding import (
    FAST_EXP_MARGIN as FAST_EXP_MARGIN,
)
from .rounding import (
    FAST_REL_MARGIN as FAST_REL_MARGIN,
)
from .rounding import (
    LOG2E,
    decimal_text,
    enclosure,
    exact_sum,
    float_down,
    float_up,
    int_text,
    log_le,
)
from .rounding import (
    certify_entries as certify_entries,
)
from .rounding import (
    each_entry as each_entry,
)
from .rounding import (
    exp_margin_too_wide as exp_margin_too_wide,
)
from .rounding import (
    fast_down as fast_down,
)
from .rounding import (
    fast_up as fast_up,
)
from .rounding import (
    iv_prec as iv_prec,
)
from .validate import (
    PROB_TOL,
    Unit,
    check_int,
    check_real,
    check_unit,
    local_workers,
)
from .validate import (
    FloatArray as FloatArray,
)
from .validate import (
    as_nonempty_list as as_nonempty_list,
)
from .validate import (
    as_table as as_table,
)
from .validate import (
    check_real_array as check_real_array,
)
from .validate import (
    check_same_shape as check_same_shape,
)
from .validate import (
    is_array as is_array,
)
from .validate import (
    iter_pairs as iter_pairs,
)
from .validate import (
    wants_exact as wants_exact,
)

__all__ = [
    "is_mpf",
    "iv_ctx",
    "mp_ctx",
    "to_public",
    "PROB_TOL",
    "MaxinfoError",
    "InvalidParameter",
    "MissingParameter",
    "RegimeError",
    "ExactLog",
    "Unit",
    "check_unit",
    "check_real",
    "check_int",
    "local_workers",
    "float_down",
    "decimal_text",
    "int_text",
    "exact_sum",
    "float_up",
    "enclosure",
    "log_le",
    "LOG2E",
]

# the error types are documented (and shown in tracebacks) under this module
for _cls in (MaxinfoError, InvalidParameter, MissingParameter, RegimeError, ExactLog):
    _cls.__module__ = __name__
