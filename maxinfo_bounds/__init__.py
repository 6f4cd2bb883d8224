"""maxinfo_bounds: certified max-information bounds and p-value corrections for adaptive data analysis.

Information is in bits unless stated. See ``docs/`` and ``../shared/DESIGN.md``.
"""

from .numeric import ExactLog, InvalidParameter, RegimeError
from .theorems.description import description_length_max_information
from .theorems.pvalues import pvalue_correction

__version__ = "0.1.0"

__all__ = [
    "ExactLog",
    "InvalidParameter",
    "RegimeError",
    "description_length_max_information",
    "pvalue_correction",
    "__version__",
]
