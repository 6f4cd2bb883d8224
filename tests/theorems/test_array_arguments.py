"""Every vectorised evaluator takes an array in any one argument, the others scalars.

Each argument in turn is given as a two-entry array (the others as scalars); the result must be
an array of that shape whose entries agree, to 1e-9 relative, with the certified scalar path at
each value. A dispatch that forgets an argument (an evaluator that takes the scalar path for an
array in ``beta`` alone, say) fails here, whichever argument it is.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from maxinfo_bounds.results import Bound, TailBound
from maxinfo_bounds.theorems.description import description_length_max_information
from maxinfo_bounds.theorems.generalization import (
    bnsssu_transfer,
    hoeffding_transfer,
    mcdiarmid_transfer,
    pvalue_sensitivity_lower_bound,
)
from maxinfo_bounds.theorems.maxinfo_dp.approx import (
    approx_dp_max_information,
)
from maxinfo_bounds.theorems.maxinfo_dp.pure import pure_dp_max_information, pure_dp_max_information_product
from maxinfo_bounds.theorems.mutual_info import approx_max_information_to_mi, mi_to_approx_max_information
from maxinfo_bounds.theorems.pvalues import mi_pvalue_correction, pvalue_correction, russo_zou_pvalue_correction

# (name, function, keyword arguments, the scalar arguments, a second value for each)
CASES: list[tuple[str, Callable[..., Any], dict[str, Any], tuple[Any, ...], tuple[Any, ...]]] = [
    ("hoeffding", hoeffding_transfer, {}, (3.0, 0.001, 0.1, 2000), (5.0, 0.002, 0.12, 3000)),
    ("mcdiarmid", mcdiarmid_transfer, {}, (3.0, 0.001, 0.1, 2000, 0.001), (5.0, 0.002, 0.12, 3000, 0.0011)),
    (
        "mcdiarmid-paper",
        mcdiarmid_transfer,
        {"variant": "paper"},
        (3.0, 0.001, 0.1, 2000, 0.001),
        (5.0, 0.002, 0.12, 3000, 0.0011),
    ),
    ("bnsssu", bnsssu_transfer, {}, (0.1, 1e-6, 2000, 0.001), (0.2, 2e-6, 3000, 0.002)),
    ("sensitivity-lower", pvalue_sensitivity_lower_bound, {}, (1000,), (4000,)),
    ("thm31", approx_dp_max_information, {}, (0.01, 1e-20, 10_000), (0.012, 1e-19, 20_000)),
    ("thm31-paper", approx_dp_max_information, {"variant": "paper"}, (0.01, 1e-20, 10_000), (0.012, 1e-19, 20_000)),
    ("pure", pure_dp_max_information, {}, (0.1, 10), (0.2, 30)),
    ("pure-product", pure_dp_max_information_product, {}, (0.1, 10, 1e-3), (0.2, 30, 1e-2)),
    ("mi-to-max", mi_to_approx_max_information, {}, (0.1, 10.0), (0.2, 12.0)),
    ("max-to-mi", approx_max_information_to_mi, {}, (1.0, 0.01, 100), (2.0, 0.02, 1000)),
    ("description", description_length_max_information, {}, (4, 0.01), (8, 0.02)),
    ("pvalue", pvalue_correction, {}, (0.05, 3.0, 0.001), (0.1, 4.0, 0.002)),
    ("mi-pvalue", mi_pvalue_correction, {}, (0.05, 0.1), (0.1, 0.3)),
    ("mi-pvalue-paper", mi_pvalue_correction, {"variant": "paper"}, (0.05, 0.1), (0.1, 0.3)),
    ("russo-zou", russo_zou_pvalue_correction, {}, (0.05, 0.001), (0.1, 0.002)),
]


def _values(result: Any) -> tuple[float, ...]:
    """A scalar result's numbers in the order the array path returns them."""
    if isinstance(result, TailBound):
        return (result.deviation, result.probability)
    if isinstance(result, Bound):
        return (result.k, result.beta)
    return (float(result),)


def _array_values(result: Any, i: int) -> tuple[float, ...]:
    parts = result if isinstance(result, tuple) else (result,)
    for p in parts:
        assert isinstance(p, np.ndarray) and p.shape == (2,), result
    return tuple(float(p[i]) for p in parts)


def _close(array_value: float, scalar_value: float) -> bool:
    return math.isclose(array_value, scalar_value, rel_tol=1e-9, abs_tol=1e-300)


@pytest.mark.parametrize("name, fn, kw, args, other", CASES, ids=[c[0] for c in CASES])
def test_an_array_in_any_one_argument(name, fn, kw, args, other):
    for pos in range(len(args)):
        pair = np.array([args[pos], other[pos]])
        out = fn(*args[:pos], pair, *args[pos + 1 :], **kw)
        for i, v in enumerate((args[pos], other[pos])):
            scalar = _values(fn(*args[:pos], v, *args[pos + 1 :], **kw))
            got = _array_values(out, i)
            # the arrays return the main number(s): (k, beta) for Thm 3.1, k or beta otherwise
            if len(got) < len(scalar):
                scalar = tuple(s for s in scalar if any(_close(g, s) for g in got))
            assert len(got) == len(scalar) and all(map(_close, got, scalar)), (name, pos, v, got, scalar)
