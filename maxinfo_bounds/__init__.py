"""maxinfo_bounds: certified max-information bounds and p-value corrections for adaptive data analysis.

Information is in bits unless stated; DP's eps in nats. See ``docs/`` (design: ``docs/design.md``).
Upper bounds are rounded up, thresholds and lower bounds down.
"""

from .corrections import Correction, correct
from .numeric import ExactLog, InvalidParameter, RegimeError
from .results import Bound, DPGuarantee
from .theorems.composition import compose_max_information
from .theorems.description import description_length_max_information
from .theorems.dp_accounting import dp_max_information
from .theorems.generalization import (
    bnsssu_transfer,
    hoeffding_transfer,
    mcdiarmid_transfer,
    pvalue_sensitivity_lower_bound,
)
from .theorems.holdout import SparseValidate, Thresholdout
from .theorems.maxinfo_dp import (
    approx_dp_max_information,
    pure_dp_max_information,
    pure_dp_max_information_product,
)
from .theorems.mutual_info import (
    approx_dp_mutual_information,
    approx_max_information_to_mi,
    mi_to_approx_max_information,
)
from .theorems.pvalues import mi_pvalue_correction, pvalue_correction, russo_zou_pvalue_correction

__version__ = "0.1.0"

__all__ = [
    "Bound",
    "Correction",
    "DPGuarantee",
    "SparseValidate",
    "Thresholdout",
    "ExactLog",
    "InvalidParameter",
    "RegimeError",
    "approx_dp_max_information",
    "approx_dp_mutual_information",
    "approx_max_information_to_mi",
    "bnsssu_transfer",
    "compose_max_information",
    "correct",
    "description_length_max_information",
    "dp_max_information",
    "hoeffding_transfer",
    "mcdiarmid_transfer",
    "mi_pvalue_correction",
    "mi_to_approx_max_information",
    "pure_dp_max_information",
    "pure_dp_max_information_product",
    "pvalue_correction",
    "pvalue_sensitivity_lower_bound",
    "russo_zou_pvalue_correction",
    "__version__",
]
