"""maxinfo_bounds: certified max-information bounds and p-value corrections for adaptive data analysis.

Information is in bits unless stated; DP's eps in nats. See ``docs/`` (design: ``docs/design.md``).
Upper bounds are rounded up, thresholds and lower bounds down.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .corrections import Correction, correct
    from .numeric import ExactLog, InvalidParameter, RegimeError
    from .results import Bound, DPGuarantee
    from .theorems.binomial_split import split_binomial
    from .theorems.composition import compose_max_information
    from .theorems.description import description_length_max_information
    from .theorems.dp_accounting import dp_max_information
    from .theorems.estimation import (
        gaussian_sample_accuracy,
        jlnrss_transfer,
        jlnrss_transfer_sensitive,
        split_hoeffding,
    )
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

# The public names are loaded on first use (PEP 562): ``import maxinfo_bounds`` stays cheap, and
# the ``maxinfo`` command imports only the modules its subcommand needs (issue 17: start-up).
_WHERE = {
    "Correction": ".corrections",
    "correct": ".corrections",
    "ExactLog": ".numeric",
    "InvalidParameter": ".numeric",
    "RegimeError": ".numeric",
    "Bound": ".results",
    "DPGuarantee": ".results",
    "compose_max_information": ".theorems.composition",
    "description_length_max_information": ".theorems.description",
    "dp_max_information": ".theorems.dp_accounting",
    "gaussian_sample_accuracy": ".theorems.estimation",
    "jlnrss_transfer": ".theorems.estimation",
    "jlnrss_transfer_sensitive": ".theorems.estimation",
    "split_hoeffding": ".theorems.estimation",
    "split_binomial": ".theorems.binomial_split",
    "bnsssu_transfer": ".theorems.generalization",
    "hoeffding_transfer": ".theorems.generalization",
    "mcdiarmid_transfer": ".theorems.generalization",
    "pvalue_sensitivity_lower_bound": ".theorems.generalization",
    "SparseValidate": ".theorems.holdout",
    "Thresholdout": ".theorems.holdout",
    "approx_dp_max_information": ".theorems.maxinfo_dp",
    "pure_dp_max_information": ".theorems.maxinfo_dp",
    "pure_dp_max_information_product": ".theorems.maxinfo_dp",
    "approx_dp_mutual_information": ".theorems.mutual_info",
    "approx_max_information_to_mi": ".theorems.mutual_info",
    "mi_to_approx_max_information": ".theorems.mutual_info",
    "mi_pvalue_correction": ".theorems.pvalues",
    "pvalue_correction": ".theorems.pvalues",
    "russo_zou_pvalue_correction": ".theorems.pvalues",
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        value = getattr(importlib.import_module(_WHERE[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))


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
    "gaussian_sample_accuracy",
    "hoeffding_transfer",
    "jlnrss_transfer",
    "jlnrss_transfer_sensitive",
    "mcdiarmid_transfer",
    "mi_pvalue_correction",
    "mi_to_approx_max_information",
    "pure_dp_max_information",
    "pure_dp_max_information_product",
    "pvalue_correction",
    "pvalue_sensitivity_lower_bound",
    "russo_zou_pvalue_correction",
    "split_binomial",
    "split_hoeffding",
    "__version__",
]
