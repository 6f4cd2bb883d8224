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

from maxinfo_bounds import InvalidParameter, RegimeError
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
    approx_dp_max_information_implied,
    thm31_implied_float_k,
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


def test_thm31_with_t_and_delta_hat_an_array_in_any_one_argument():
    base = dict(eps=0.01, delta=1e-20, n=10_000, t=3.0, delta_hat=1e-12)
    other = dict(eps=0.02, delta=1e-19, n=20_000, t=4.0, delta_hat=1e-13)
    for name in base:
        kw = dict(base, **{name: np.array([base[name], other[name]])})
        k, beta = approx_dp_max_information(**kw)
        for i, v in enumerate((base[name], other[name])):
            b = approx_dp_max_information(**dict(base, **{name: v}))
            assert _close(float(k[i]), b.k) and _close(float(beta[i]), b.beta), (name, v)


REFUSALS = [  # (arguments, the refusal, word for word)
    (
        dict(eps=np.array([0.01, 0.02]), delta=1e-20, n=10**4, beta=0.5),
        "beta=0.5 is invalid: must be omitted on the vectorised path (use the paper's choice or explicit "
        "t and delta_hat arrays)",
    ),
    (dict(eps=0.01, delta=1e-20, n=10**4, t=3.0), "delta_hat=None is invalid: must be given together with the other"),
    (dict(eps=0.01, delta=1e-20, n=10**4, delta_hat=1e-12), "t=None is invalid: must be given together with the other"),
    (
        dict(eps=0.01, delta=1e-20, n=10**4, t=3.0, delta_hat=1e-12, beta=0.5),
        "beta=0.5 is invalid: must be omitted when t and delta_hat are given",
    ),
    (
        dict(eps=0.01, delta=1e-20, n=10**4, beta=1e-30),
        "beta=1e-30 is invalid: must be reachable with a certified beta(t, delta_hat)",
    ),
]


@pytest.mark.parametrize("kw, text", REFUSALS)
def test_thm31_refusals_word_for_word(kw, text):
    with pytest.raises(InvalidParameter) as e:
        approx_dp_max_information(**kw)
    assert str(e.value) == text


def test_thm31_implied_refusal_and_out_of_domain_surrogate():
    with pytest.raises(InvalidParameter) as e:
        approx_dp_max_information_implied(0.01, 1e-3, 10**4, 0.01)
    assert str(e.value) == (
        "beta=0.01 is invalid: must be reachable by RRST Thm 3.1 at some eps' in [0.01, 1/2] (n = 10000, delta = 0.001)"
    )
    # outside its domain the float surrogate reports "no point" (k = inf), never a number
    for args in [
        (0.01, 1e-20, 10**4, 0.0),
        (0.01, 1e-20, 10**4, 1.0),
        (-0.01, 1e-20, 10**4, 0.5),
        (0.01, 0.0, 10**4, 0.5),
        (0.01, 0.5, 10**4, 0.5),
        (0.6, 1e-20, 10**4, 0.5),
    ]:
        assert thm31_implied_float_k(*args)[0] == math.inf, args
    assert math.isfinite(thm31_implied_float_k(0.0, 1e-20, 10**4, 0.5)[0])  # eps = 0 is inside


def test_thm31_implied_surrogate_against_a_brute_force_grid():
    """The surrogate's k is at most (1% slack) the best certified k over a grid of 40 eps' in
    [eps, 1/2], each optimised over (t, delta_hat) by the certified scalar path at the target."""
    eps, delta, n, beta = 0.001, 1e-20, 10**4, 0.05
    k_sur = thm31_implied_float_k(eps, delta, n, beta)[0]
    best = math.inf
    for e in np.exp(np.linspace(math.log(eps), math.log(0.5), 40)):
        try:
            best = min(best, approx_dp_max_information(float(e), delta, n, beta=beta).k)
        except (InvalidParameter, RegimeError):
            continue
    assert math.isfinite(best) and k_sur <= best * 1.01, (k_sur, best)
