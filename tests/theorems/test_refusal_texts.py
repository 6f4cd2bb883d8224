"""Every refusal of the theorem modules, word for word, and the citation and conditions every
result carries.

A refusal is the calculator's answer outside a theorem's conditions: the user reads it instead of
a number, so its words are part of the result. Each message below was read against the paper's
statement of the condition (RRST Thm 3.1 and Lemma 3.7, Lemma 1.5, Thm B.2, Thm A.3 and §4;
Dwork–Roth Thm A.1, Cor 3.21; KOV15 Thm 3.3) and against the package's rule that a refusal names
the parameter, the value received and the allowed range. The citations and conditions are the
derivation a user copies into a paper (``Bound.conditions``, ``DPGuarantee.conditions``).

Where a value is asserted here it is hand-computed (noted beside it); the figures themselves are
tested against independent references elsewhere.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from maxinfo_bounds.measures import approx_max_divergence, dp_delta, kl_divergence, mutual_information
from maxinfo_bounds.numeric import InvalidParameter, RegimeError
from maxinfo_bounds.results import Bound
from maxinfo_bounds.theorems.composition import compose_max_information
from maxinfo_bounds.theorems.description import description_length_max_information
from maxinfo_bounds.theorems.dp_accounting import (
    advanced_composition,
    basic_composition,
    compose_dp,
    dp_max_information,
    exponential_mechanism_epsilon,
    gaussian_epsilon,
    gaussian_sigma,
    optimal_composition,
    report_noisy_max_epsilon,
    sparse_vector,
)
from maxinfo_bounds.theorems.generalization import (
    bnsssu_transfer,
    mcdiarmid_transfer,
    pvalue_sensitivity_lower_bound,
)
from maxinfo_bounds.theorems.holdout import (
    SparseValidate,
    Thresholdout,
    sparse_validate_factor,
    thresholdout_dp,
)
from maxinfo_bounds.theorems.maxinfo_dp import (
    approx_dp_max_information,
    approx_dp_max_information_implied,
    pure_dp_max_information,
    pure_dp_max_information_product,
)
from maxinfo_bounds.theorems.mutual_info import (
    approx_dp_mutual_information,
    approx_max_information_to_mi,
    mi_to_approx_max_information,
)
from maxinfo_bounds.theorems.pvalues import mi_pvalue_correction
from maxinfo_bounds.theorems.solvers import (
    max_eps_for_gamma,
    max_k_for_gamma,
    max_n_for_gamma,
    max_n_for_k,
)

A31 = approx_dp_max_information
arr = np.array
TINY = Fraction(1, 10**400)  # positive, below the smallest positive float


def _to(**kw: Any) -> Thresholdout[Any]:
    base: dict[str, Any] = {"threshold": 0.04, "sigma": 0.01, "budget": 5, "rng": 1}
    return Thresholdout(np.zeros(3), np.zeros(3), **{**base, **kw})


def _sv() -> SparseValidate[Any]:
    return SparseValidate([1], m=10, budget=2)


IP, RE = InvalidParameter, RegimeError
THM31 = "RRST Thm 3.1 does not apply: it requires "
LEMMA15 = "RRST Lemma 1.5 (second part) does not apply: it requires "

REFUSALS: list[tuple[str, Callable[[], object], type[Exception], str]] = [
    # RRST Thm 3.1 (approximate DP -> approximate max-information)
    (
        "3.1 variant",
        lambda: A31(0.1, 1e-9, 100, variant="x"),
        IP,  # type: ignore[call-overload]
        "variant='x' is invalid: must be 'sound' or 'paper'",
    ),
    (
        "3.1 beta on the array path",
        lambda: A31(arr([0.1, 0.2]), 1e-9, 100, beta=0.1),
        IP,
        "beta=0.1 is invalid: must be omitted on the vectorised path (use the paper's choice or "
        "explicit t and delta_hat arrays)",
    ),
    (
        "3.1 t without delta_hat",
        lambda: A31(0.1, 1e-9, 100, t=1.0),
        IP,
        "delta_hat=None is invalid: must be given together with the other",
    ),
    (
        "3.1 delta_hat without t",
        lambda: A31(0.1, 1e-9, 100, delta_hat=1e-3),
        IP,
        "t=None is invalid: must be given together with the other",
    ),
    (
        "3.1 beta with t",
        lambda: A31(0.1, 1e-9, 100, t=1.0, delta_hat=1e-3, beta=0.1),
        IP,
        "beta=0.1 is invalid: must be omitted when t and delta_hat are given",
    ),
    (
        "3.1 beta unreachable",
        lambda: A31(0.1, 1e-3, 10**6, beta=1e-9),
        IP,
        "beta=1e-09 is invalid: must be reachable with a certified beta(t, delta_hat)",
    ),
    ("3.1 eps above 1/2", lambda: A31(0.6, 1e-9, 100), RE, THM31 + "eps in (0, 1/2], got eps=0.6"),
    ("3.1 eps exactly 1/2 is inside", lambda: A31(0.5, 1e-9, 100).in_regime, None, "True"),
    ("3.1 delta >= eps", lambda: A31(0.1, 0.2, 100), RE, THM31 + "delta in (0, eps), got delta=0.2"),
    ("3.1 delta = eps", lambda: A31(0.1, 0.1, 100), RE, THM31 + "delta in (0, eps), got delta=0.1"),
    (
        "3.1 paper delta_hat above eps/15",
        lambda: A31(0.1, 1e-9, 100, t=1.0, delta_hat=0.1, variant="paper"),
        RE,
        THM31 + "delta_hat in (0, eps/15] (Lemma 3.7), got delta_hat=0.1",
    ),
    (
        "3.1 sound delta_hat: Lemma 3.7's logarithm",
        lambda: A31(0.1, 1e-9, 100, t=1.0, delta_hat=0.09),
        RE,
        THM31 + "e^{3eps} delta'' + delta_hat < 1 (Lemma 3.7's logarithm), got delta_hat=0.09",
    ),
    ("3.1 array eps", lambda: A31(arr([0.1, 0.6]), 1e-9, 100), RE, THM31 + "eps in (0, 1/2], got eps[1]=0.6"),
    (
        "3.1 array delta",
        lambda: A31(arr([0.1, 0.1]), arr([1e-9, 0.5]), 100),
        RE,
        THM31 + "delta in (0, eps), got delta[1]=0.5",
    ),
    (
        "3.1 array delta_hat, paper",
        lambda: A31(arr([0.1, 0.1]), 1e-9, 100, t=arr([1.0, 1.0]), delta_hat=arr([1e-4, 0.05]), variant="paper"),
        RE,
        THM31 + "delta_hat in (0, eps/15] (Lemma 3.7), got delta_hat[1]=0.05",
    ),
    (
        "3.1 array delta_hat, sound (handed to the scalar path)",
        lambda: A31(arr([0.1, 0.1]), 1e-9, 100, t=arr([1.0, 1.0]), delta_hat=arr([1e-4, 0.09])),
        RE,
        THM31 + "e^{3eps} delta'' + delta_hat < 1 (Lemma 3.7's logarithm), got delta_hat=0.09",
    ),
    (
        "3.1 implied beta unreachable",
        lambda: approx_dp_max_information_implied(0.1, 1e-3, 10**6, 1e-9),
        IP,
        "beta=1e-09 is invalid: must be reachable by RRST Thm 3.1 at some eps' in [0.1, 1/2] "
        "(n = 1000000, delta = 0.001)",
    ),
    # RRST Lemma 1.5
    (
        "1.5a variant",
        lambda: mi_to_approx_max_information(1, 1, variant="x"),
        IP,
        "variant='x' is invalid: must be 'exact' or 'paper'",
    ),
    (
        "1.5b variant",
        lambda: approx_max_information_to_mi(1, 0.01, 100, variant="x"),
        IP,
        "variant='x' is invalid: must be 'sound' or 'paper'",
    ),
    (
        "1.5b unit",
        lambda: approx_max_information_to_mi(1, 0.01, 100, unit="x"),
        IP,
        "unit='x' is invalid: must be 'bits' or 'nats'",
    ),
    (
        "1.5b sound regime",
        lambda: approx_max_information_to_mi(1, 0.5, 100),
        RE,
        LEMMA15 + "beta/(1 - 2^-k) <= 1/e, got beta=0.5",
    ),
    (
        "1.5b sound regime, array",
        lambda: approx_max_information_to_mi(1, arr([0.01, 0.5]), 100),
        RE,
        LEMMA15 + "beta/(1 - 2^-k) <= 1/e, got beta[1]=0.5",
    ),
    (
        "1.5b paper regime",
        lambda: approx_max_information_to_mi(1, 0.5, 100, variant="paper"),
        RE,
        LEMMA15 + "0 <= beta <= 3(1 - 2^-k)/20, got beta=0.5",
    ),
    (
        "1.5b paper regime, array",
        lambda: approx_max_information_to_mi(1, arr([0.01, 0.5]), 100, variant="paper"),
        RE,
        LEMMA15 + "0 <= beta <= 3(1 - 2^-k)/20, got beta[1]=0.5",
    ),
    (
        "approximate DP to MI: delta too large",
        lambda: approx_dp_mutual_information(0.1, 0.01, 10**6, 10),
        IP,
        "delta=0.01 is invalid: must be small enough that some beta <= 0.3 is reachable by RRST "
        "Thm 3.1 (roughly n sqrt(delta/eps) << 1)",
    ),
    # Thresholdout and SparseValidate (DFHPRR)
    (
        "Thresholdout DP variant",
        lambda: thresholdout_dp(10, 0.01, 1000, variant="x"),
        IP,  # type: ignore[arg-type]
        "variant='x' is invalid: must be 'sound' or 'paper'",
    ),
    (
        "Thresholdout paper closed form below composition",
        lambda: thresholdout_dp(20, 0.01, 100, delta=0.5, variant="paper"),
        RE,
        "Notes Thresholdout lemma (Dwork-Roth Cor 3.21) does not apply: it requires a delta at which "
        "the closed form is at least advanced composition, got delta=0.5",
    ),
    (
        "Thresholdout train mean NaN",
        lambda: _to().answer_means(float("nan"), 0.5),
        IP,
        "train_mean=nan is invalid: must be a real number in (-inf, inf)",
    ),
    (
        "Thresholdout holdout mean inf",
        lambda: _to().answer_means(0.5, float("inf")),
        IP,
        "holdout_mean=inf is invalid: must be a real number in (-inf, inf)",
    ),
    (
        "Thresholdout rng",
        lambda: _to(rng="a"),
        IP,
        "rng='a' is invalid: must be a numpy Generator or an integer seed (results must be reproducible)",
    ),
    (
        "Thresholdout train",
        lambda: Thresholdout([], np.zeros(3), threshold=0.04, sigma=0.01, budget=5, rng=1),
        IP,
        "train=[] is invalid: must be a non-empty dataset (array of records)",
    ),
    (
        "Thresholdout holdout",
        lambda: Thresholdout(np.zeros(3), [], threshold=0.04, sigma=0.01, budget=5, rng=1),
        IP,
        "holdout=[] is invalid: must be a non-empty dataset (array of records)",
    ),
    ("Thresholdout noise", lambda: _to(noise="x"), IP, "noise='x' is invalid: must be 'laplace' or 'gaussian'"),
    (
        "Thresholdout on_exhausted",
        lambda: _to(on_exhausted="x"),
        IP,
        "on_exhausted='x' is invalid: must be 'bottom' or 'raise'",
    ),
    (
        "Thresholdout phi",
        lambda: _to().query(3),
        IP,  # type: ignore[arg-type]
        "phi=3 is invalid: must be a callable mapping records to values in [0, 1]",
    ),
    (
        "Thresholdout value shape",
        lambda: _to().query_values(np.zeros(2), np.zeros(3)),
        IP,
        "train_values='shape (2,)' is invalid: must be shape (3,): one value per record",
    ),
    (
        "Thresholdout holdout value shape",
        lambda: _to().query_values(np.zeros(3), np.zeros(4)),
        IP,
        "holdout_values='shape (4,)' is invalid: must be shape (3,): one value per record",
    ),
    (
        "Thresholdout values above 1",
        lambda: _to().query_values(np.zeros(3), np.full(3, 2.0)),
        IP,
        "holdout_values='values outside [0, 1]' is invalid: must be [0, 1] (phi: X -> [0, 1])",
    ),
    (
        "Thresholdout values below 0",
        lambda: _to().query_values(np.array([0.5, -0.1, 0.5]), np.zeros(3)),
        IP,
        "train_values='values outside [0, 1]' is invalid: must be [0, 1] (phi: X -> [0, 1])",
    ),
    (
        "Thresholdout NaN values",
        lambda: _to().query_values(np.full(3, np.nan), np.zeros(3)),
        IP,
        "train_values='values outside [0, 1]' is invalid: must be [0, 1] (phi: X -> [0, 1])",
    ),
    (
        "Thresholdout values at the ends are accepted",
        lambda: _to().query_values(np.array([0.0, 1.0, 1.0]), np.array([1.0, 0.0, 1.0])) is not None,
        None,
        "True",
    ),
    (
        "Thresholdout Gaussian has no DP claim",
        lambda: _to(noise="gaussian").dp_guarantee(),
        RE,
        "Notes Thresholdout lemma does not apply: it requires 'laplace' (no DP guarantee is claimed "
        "for the Gaussian variant), got noise='gaussian'",
    ),
    (
        "SparseValidate factor variant",
        lambda: sparse_validate_factor(1, 10, variant="x"),
        IP,  # type: ignore[arg-type]
        "variant='x' is invalid: must be 'paper' or 'histories'",
    ),
    (
        "SparseValidate on_exhausted",
        lambda: SparseValidate([1], m=10, budget=2, on_exhausted="x"),
        IP,  # type: ignore[arg-type]
        "on_exhausted='x' is invalid: must be 'bottom' or 'raise'",
    ),
    (
        "SparseValidate psi",
        lambda: _sv().query(3),
        IP,  # type: ignore[arg-type]
        "psi=3 is invalid: must be a callable mapping the holdout set to a bit",
    ),
    (
        "SparseValidate bit",
        lambda: _sv().query(lambda h: 2),
        IP,
        "psi(holdout)=2 is invalid: must be a bit (0, 1, True or False)",
    ),
    # p-values, transfer theorems, solvers
    (
        "mi p-value variant",
        lambda: mi_pvalue_correction(0.05, 1, variant="x"),
        IP,
        "variant='x' is invalid: must be 'optimal' or 'paper'",
    ),
    (
        "B.2 eps",
        lambda: bnsssu_transfer(0.6, 1e-6, 10**5, 0.001),
        RE,
        "RRST Thm B.2 does not apply: it requires eps in (0, 1/3), got eps=0.6",
    ),
    (
        "B.2 delta",
        lambda: bnsssu_transfer(0.1, 0.2, 10**5, 0.001),
        RE,
        "RRST Thm B.2 does not apply: it requires delta in (0, eps/4), got delta=0.2",
    ),
    (
        "B.2 n",
        lambda: bnsssu_transfer(0.1, 1e-6, 10, 0.001),
        RE,
        "RRST Thm B.2 does not apply: it requires n >= ln(4 eps/delta)/eps^2, got n=10.0",
    ),
    (
        "McDiarmid variant",
        lambda: mcdiarmid_transfer(1, 0.01, 0.1, 1000, 0.001, variant="x"),
        IP,
        "variant='x' is invalid: must be 'sound' or 'paper'",
    ),
    (
        "B.1 variant",
        lambda: pvalue_sensitivity_lower_bound(100, variant="x"),
        IP,
        "variant='x' is invalid: must be 'optimal' or 'paper'",
    ),
    # gamma(eps -> 0) = (alpha - beta)/2^k(1e-300) lies one ulp below alpha = 0.05
    (
        "solver: gamma at eps -> 0",
        lambda: max_eps_for_gamma(0.05, 0.05, 10),
        IP,
        "target_gamma=0.05 is invalid: must be below what eps -> 0 allows, (alpha - beta)/2^k(0+) "
        "~ 0.049999999999999996",
    ),
    (
        "solver: gamma above alpha - beta",
        lambda: max_k_for_gamma(0.05, 0.01, 0.045),
        IP,
        "target_gamma=0.045 is invalid: must be at most alpha - beta = 0.04",
    ),
    (
        "solver: gamma not reachable at n = 1",
        lambda: max_n_for_gamma(0.05, 0.049, 1.0),
        IP,
        "target_gamma=0.049 is invalid: must be reachable with n = 1 at this eps",
    ),
    # k(n = 1) = eps log2(e) = 1.4426950408889634..., rounded up (hand)
    (
        "solver: k below the bound at n = 1",
        lambda: max_n_for_k(0.001, 1.0),
        IP,
        "target_k=0.001 is invalid: must be at least the bound at n = 1 (1.4426950408889636 bits)",
    ),
    # composition (RRST Thm A.3, §4)
    (
        "A.3 no steps",
        lambda: compose_max_information([]),
        IP,
        "bounds=[] is invalid: must be a non-empty sequence of Bound",
    ),
    ("A.3 in regime", lambda: compose_max_information([Bound(1.0, 0.1, "a")]).in_regime, None, "True"),
    # beta sums to 1.3: capped at 1 (any k is true at beta = 1)
    (
        "A.3 beta capped at 1",
        lambda: compose_max_information([Bound(1.0, 0.7, "a"), Bound(2.0, 0.6, "b")]).beta,
        None,
        "1.0",
    ),
    (
        "A.3 not a Bound",
        lambda: compose_max_information([3]),
        IP,  # type: ignore[list-item]
        "bounds[0]=3 is invalid: must be a maxinfo_bounds.catalog.Bound",
    ),
    (
        "A.3 product-only after the first step",
        lambda: compose_max_information([pure_dp_max_information(0.1, 10), A31(0.1, 1e-9, 100)]),
        RE,
        "RRST Thm A.3 does not apply: it requires only the first step to have a product-only bound "
        "(RRST §4: a later step sees data conditioned on earlier outputs, not a product "
        "distribution), got bounds[1]='RRST-3.1 (product_only)'",
    ),
    (
        "A.3 an out-of-regime step",
        lambda: compose_max_information([A31(0.1, 1e-9, 100, t=1.0, delta_hat=0.09, strict=False)]),
        RE,
        "RRST Thm A.3 does not apply: it requires every composed bound to be proven (in its "
        "theorem's regime), got bounds[0]='RRST-3.1 (out of regime)'",
    ),
    (
        "A.3 an out-of-regime step, strict=False",
        lambda: (
            compose_max_information([A31(0.1, 1e-9, 100, t=1.0, delta_hat=0.09, strict=False)], strict=False).in_regime
        ),
        None,
        "False",
    ),
    # a vacuous step (k = inf) makes the composed bound vacuous (it raised OverflowError)
    (
        "A.3 with a vacuous step",
        lambda: (lambda c: (c.k, c.beta))(compose_max_information([Bound(1.0, 0.25, "a"), Bound(math.inf, 0.5, "b")])),
        None,
        "(inf, 0.75)",
    ),
    # DP accounting
    (
        "DP to max-information: not a guarantee",
        lambda: dp_max_information(3, 10),
        IP,  # type: ignore[arg-type]
        "guarantee=3 is invalid: must be a DPGuarantee",
    ),
    (
        "DP to max-information: beta without iid",
        lambda: dp_max_information(basic_composition({(0.1, 0.0): 2}), 10, beta=0.1),
        IP,
        "beta=0.1 is invalid: must be omitted unless iid=True (beta is the i.i.d. bounds' "
        "parameter: RRST Thm 1.4b / 3.1)",
    ),
    (
        "DP to max-information: approximate DP without iid",
        lambda: dp_max_information(basic_composition({(0.1, 1e-9): 2}), 10),
        RE,
        "RRST Thm 3.1 / §4 does not apply: it requires iid=True (approximate DP bounds "
        "max-information only for i.i.d. data), got iid=False",
    ),
    # 1 - (1 - 0.01)^10 = 0.0956179249911955..., rounded up (hand)
    (
        "KOV delta_total below the lost mass",
        lambda: optimal_composition(0.1, 0.01, 10, 0.001),
        IP,
        "delta_total=0.001 is invalid: must be at least 1 - (1 - delta)^k = 0.09561792499119552 (KOV15 Thm 3.3)",
    ),
    (
        "composition: no steps",
        lambda: basic_composition({}),
        IP,
        "steps={} is invalid: must be a non-empty mapping (eps, delta) -> count",
    ),
    (
        "composition: a step that is not a pair",
        lambda: basic_composition([3]),
        IP,  # type: ignore[list-item]
        "steps[0]=3 is invalid: must be an (eps, delta) pair",
    ),
    (
        "composition: an empty list of steps",
        lambda: basic_composition([]),
        IP,
        "steps=[] is invalid: must be a non-empty sequence of (eps, delta) pairs",
    ),
    (
        "composition: a step's delta above 1",
        lambda: basic_composition([(0.1, 1e-6), (0.1, 2.0)]),
        IP,
        "steps[1].delta=2.0 is invalid: must be a real number in [0, 1]",
    ),
    # a mapping's count of None was once read as 1 step (None was the list form's own marker)
    (
        "composition: a count that is None",
        lambda: compose_dp({(0.1, 0.0): None}, 1e-6),
        IP,  # type: ignore[dict-item]
        "steps[(0.1, 0.0)]=None is invalid: must be an integer in [1, inf]",
    ),
    (
        "composition: delta_total below the steps' delta",
        lambda: compose_dp({(0.1, 0.01): 2}, 0.001),
        IP,
        "delta_total=0.001 is invalid: must be at least the steps' total delta 0.02",
    ),
    (
        "Gaussian mechanism eps >= 1",
        lambda: gaussian_sigma(1, 1.5, 1e-5),
        RE,
        "Dwork-Roth Thm A.1 does not apply: it requires eps in (0, 1), got eps=1.5",
    ),
    (
        "Gaussian mechanism eps = 1",
        lambda: gaussian_sigma(1, 1, 1e-5),
        RE,
        "Dwork-Roth Thm A.1 does not apply: it requires eps in (0, 1), got eps=1",
    ),
    (
        "analytic Gaussian: sigma far too small",
        lambda: gaussian_epsilon(1e-9, 1, 1e-5),
        IP,
        "sigma=1e-09 is invalid: must be large enough that the mechanism is (eps, 1e-05)-DP for "
        "some eps <= 1e12 nats (here sigma/sensitivity = 1.0e-9; eps would be about 5.0e+17 nats)",
    ),
    (
        "analytic Gaussian: sigma/sensitivity below 1e-150 (mu^2/2 = 5e319, past the floats)",
        lambda: gaussian_epsilon(1e-160, 1, 1e-5),
        IP,
        "sigma=1e-160 is invalid: must be large enough that the mechanism is (eps, 1e-05)-DP for "
        "some eps <= 1e12 nats (here sigma/sensitivity = 1.0e-160; eps would be about 5.0e+319 nats)",
    ),
    # measures and the registry
    (
        "mutual information: a negative entry",
        lambda: mutual_information([[0.5, -0.1], [0.3, 0.3]]),
        IP,
        "joint=[[0.5, -0.1], [0.3, 0.3]] is invalid: must be a 2-D table with non-negative entries (min entry -0.1)",
    ),
    (
        "mutual information: a table off by 1e-7 at the default tol",
        lambda: mutual_information([[0.25, 0.25], [0.25, 0.25 + 1e-7]]),
        IP,
        "joint=[[0.25, 0.25], [0.25, 0.2500001]] is invalid: must be a 2-D table summing to 1 within "
        "tol=1e-09 (sums to 1.0000001; tables are never renormalised)",
    ),
    (
        "mechanism: a row off by 1e-7 at the default tol",
        lambda: dp_delta([[0.75, 0.25 + 1e-7], [0.25, 0.75]], 0.0, [(0, 1)]),
        IP,
        "mechanism[0]=[0.75, 0.2500001] is invalid: must be a row summing to 1 within tol=1e-09 (sums to 1.0000001)",
    ),
    (
        "mechanism: an exact row not summing to 1",
        lambda: dp_delta([[Fraction(3, 4), Fraction(1, 3)], [Fraction(1, 4), Fraction(3, 4)]], 0, [(0, 1)]),
        IP,
        "mechanism[0]=[Fraction(3, 4), Fraction(1, 3)] is invalid: must be a row summing to exactly 1 "
        "(exact mode) (sums to 13/12)",
    ),
    (
        "KL divergence: exact tables at dps 0",
        lambda: kl_divergence([Fraction(1, 2)] * 2, [Fraction(1, 2)] * 2, dps=0),
        IP,
        "dps=0 is invalid: must be an integer in [1, 100000]",
    ),
    (
        "approximate max-divergence: empty beta",
        lambda: approx_max_divergence([0.5, 0.5], [0.5, 0.5], np.array([])),
        IP,
        "beta=<array shape=(0,) dtype=float64> is invalid: must be a real number or a non-empty "
        "array of reals in [0, 1)",
    ),
    (
        "approximate max-divergence: an array entry out of range",
        lambda: approx_max_divergence([0.5, 0.5], [0.5, 0.5], np.array([0.1, 1.5])),
        IP,
        "beta=1.5 is invalid: must be real numbers in [0, 1) (an array entry is not)",
    ),
    (
        "approximate max-divergence: a negative array entry",
        lambda: approx_max_divergence([0.5, 0.5], [0.5, 0.5], np.array([0.1, -0.5])),
        IP,
        "beta=-0.5 is invalid: must be real numbers in [0, 1) (an array entry is not)",
    ),
    # beta = 0 is accepted in an array; at beta = 1/2, P = Q: log2 max_S (P(S) - 1/2)/Q(S) =
    # log2(1/2) = -1 at S = everything (hand)
    (
        "approximate max-divergence: beta = 0 in an array is accepted",
        lambda: approx_max_divergence([0.5, 0.5], [0.5, 0.5], np.array([0.0, 0.5])).tolist(),
        None,
        "[0.0, -1.0]",
    ),
    (
        "1.4b beta below the smallest float",
        lambda: pure_dp_max_information_product(0.1, 10, TINY),
        IP,
        "beta=Fraction(1, 10000000000000000000000000000000000000000000000000000000000000000... is "
        "invalid: must be at least the smallest positive float 5e-324 (a smaller value cannot be "
        "reported in the result)",
    ),
    (
        "DFHPRR-6 beta below the smallest float",
        lambda: description_length_max_information(10, TINY),
        IP,
        "beta=Fraction(1, 10000000000000000000000000000000000000000000000000000000000000000... is "
        "invalid: must be at least the smallest positive float 5e-324 (a smaller value cannot be "
        "reported in the result)",
    ),
]


@pytest.mark.parametrize("call, exc, message", [c[1:] for c in REFUSALS], ids=[c[0] for c in REFUSALS])
def test_refusal_word_for_word(call: Callable[[], object], exc: type[Exception] | None, message: str) -> None:
    if exc is None:  # a value at the edge of a condition is accepted (the boundary side)
        assert str(call()) == message
        return
    with pytest.raises(exc, match="^" + re.escape(message) + "$"):
        call()


def test_refusal_attributes_name_the_parameter() -> None:
    """The error objects carry the parameter, value and condition separately (the CLI and the
    planner read them)."""
    with pytest.raises(RegimeError) as r:
        A31(arr([0.1, 0.6]), 1e-9, 100)
    assert (r.value.theorem, r.value.name, r.value.value, r.value.condition) == (
        "RRST Thm 3.1",
        "eps[1]",
        0.6,
        "eps in (0, 1/2]",
    )
    with pytest.raises(RegimeError) as r:
        A31(0.1, 0.2, 100)
    assert (r.value.theorem, r.value.name, r.value.value) == ("RRST Thm 3.1", "delta", 0.2)
    with pytest.raises(InvalidParameter) as i:
        A31(0.1, 1e-9, 100, t=1.0, delta_hat=1e-3, beta=0.1)
    assert (i.value.name, i.value.value) == ("beta", 0.1)
    with pytest.raises(RegimeError) as r:
        approx_max_information_to_mi(1, 0.5, 100)
    assert (r.value.theorem, r.value.name, r.value.value) == ("RRST Lemma 1.5 (second part)", "beta", 0.5)
    # B = 20, eps0 = 2/(sigma n) = 2, delta = 1/2: the closed form sqrt(32 B ln 4)/(sigma n) =
    # 29.8 is below basic composition B eps0 = 40 and advanced composition (hand): refused
    with pytest.raises(RegimeError) as r:
        thresholdout_dp(20, 0.01, 100, delta=0.5, variant="paper")
    assert (r.value.theorem, r.value.name, r.value.value) == (
        "Notes Thresholdout lemma (Dwork-Roth Cor 3.21)",
        "delta",
        0.5,
    )


# (call, theorem id, conditions): the citation and derivation every result carries
LABELS: list[tuple[str, Callable[[], Any], str, tuple[str, ...]]] = [
    ("basic composition", lambda: basic_composition({(0.1, 1e-6): 3}), "DR-3.16", ("3 adaptive steps",)),
    (
        "basic composition, a list",
        lambda: basic_composition([(0.1, 0.0), (0.2, 0.0)]),
        "DR-3.16",
        ("2 adaptive steps",),
    ),
    (
        "advanced composition",
        lambda: advanced_composition({(0.01, 0.0): 100}, 1e-6),
        "DR-3.20",
        ("100 adaptive steps", "delta' = 1e-06", "min with basic composition"),
    ),
    (
        "compose_dp at the steps' own delta",
        lambda: compose_dp({(0.01, 1e-7): 10}, 1e-6),
        "DR-3.16",
        ("10 adaptive steps",),
    ),
    (
        "compose_dp",
        lambda: compose_dp({(0.01, 0.0): 100}, 1e-6),
        "DR-3.20",
        ("100 adaptive steps", "delta' = 1e-06", "min with basic composition"),
    ),
    (
        "KOV",
        lambda: optimal_composition(0.01, 0.0, 100, 1e-6),
        "KOV15-3.3",
        ("100 adaptive steps, each (0.01, 0.0)-DP", "homogeneous steps"),
    ),
    (
        "KOV at eps_total = 0",
        lambda: optimal_composition(0.01, 0.0, 3, 0.999),
        "KOV15-3.3",
        ("3 adaptive steps, each (0.01, 0.0)-DP", "homogeneous steps"),
    ),
    ("exponential mechanism", lambda: exponential_mechanism_epsilon(1, 0.1), "DR-3.10", ()),
    (
        "exponential mechanism, monotone",
        lambda: exponential_mechanism_epsilon(1, 0.1, monotone=True),
        "DR-3.10",
        ("monotone scores",),
    ),
    ("report noisy max", lambda: report_noisy_max_epsilon(1, 10), "DR-3.9", ()),
    (
        "report noisy max, monotone",
        lambda: report_noisy_max_epsilon(1, 10, monotone=True),
        "DR-3.9",
        ("monotone scores",),
    ),
    (
        "sparse vector",
        lambda: sparse_vector(3, 10, 20),
        "DR-3.25",
        ("c = 3 positive answers", "basic composition of the c runs"),
    ),
    (
        "sparse vector, delta",
        lambda: sparse_vector(3, 10, 20, delta=1e-6),
        "DR-3.26",
        ("c = 3 positive answers", "per run eps = 0.2", "delta' = 1e-06", "min of basic and advanced composition"),
    ),
    (
        "Thresholdout",
        lambda: thresholdout_dp(10, 0.01, 1000),
        "Notes-Thresholdout",
        ("budget B = 10", "sigma = 0.01", "holdout n = 1000", "Laplace noise"),
    ),
    (
        "Thresholdout, delta",
        lambda: thresholdout_dp(10, 0.01, 1000, delta=1e-6),
        "Notes-Thresholdout",
        (
            "budget B = 10",
            "sigma = 0.01",
            "holdout n = 1000",
            "Laplace noise",
            "10 adaptive steps",
            "delta' = 1e-06",
            "min with basic composition",
        ),
    ),
    (
        "Thresholdout, paper closed form",
        lambda: thresholdout_dp(10, 0.01, 1000, delta=1e-6, variant="paper"),
        "Notes-Thresholdout",
        ("budget B = 10", "sigma = 0.01", "holdout n = 1000", "Laplace noise", "paper closed form"),
    ),
    ("pure DP", lambda: pure_dp_max_information(0.1, 10), "RRST-1.4a", ("eps > 0", "n >= 1 integer")),
    (
        "pure DP, i.i.d.",
        lambda: pure_dp_max_information_product(0.1, 10, 0.01),
        "RRST-1.4b",
        ("eps > 0", "n >= 1 integer", "0 < beta < 1", "i.i.d. (product) data"),
    ),
    (
        "DP to max-information, pure",
        lambda: dp_max_information(basic_composition({(0.1, 0.0): 2}), 100),
        "RRST-1.4a",
        ("eps > 0", "n >= 1 integer"),
    ),
    (
        "DP to max-information, i.i.d.",
        lambda: dp_max_information(basic_composition({(0.1, 0.0): 2}), 100, iid=True, beta=0.01),
        "RRST-1.4b",
        ("eps > 0", "n >= 1 integer", "0 < beta < 1", "i.i.d. (product) data"),
    ),
    (
        "Thm 3.1, explicit t and delta_hat",
        lambda: A31(0.1, 1e-9, 100, t=1.0, delta_hat=1e-3),
        "RRST-3.1",
        ("eps in (0, 1/2]", "delta in (0, eps)", "n >= 1", "t = 1.0", "delta_hat = 0.001", "i.i.d. (product) data"),
    ),
    ("Lemma 1.5a", lambda: mi_to_approx_max_information(1, 3), "RRST-1.5a", ("I(X;Y) <= m bits", "m >= 0", "k > 0")),
    (
        "description length",
        lambda: description_length_max_information(10, 0.01),
        "DFHPRR-6",
        ("range_size >= 1 integer", "0 < beta <= 1"),
    ),
    (
        "composition",
        lambda: compose_max_information(
            [pure_dp_max_information(0.1, 10), description_length_max_information(10, 0.01)]
        ),
        "RRST-A.3",
        ("2 adaptive steps: RRST-1.4a then DFHPRR-6", "only the first step may be product-only"),
    ),
    (
        "Thm B.2",
        lambda: bnsssu_transfer(0.1, 1e-6, 10**5, 0.001),
        "RRST-B.2",
        ("0 < eps < 1/3", "0 < delta < 1, delta < eps/4", "n >= 1 integer, n >= ln(4 eps/delta)/eps^2", "i.i.d. data"),
    ),
]


@pytest.mark.parametrize("call, theorem, conditions", [c[1:] for c in LABELS], ids=[c[0] for c in LABELS])
def test_result_carries_its_citation_and_conditions(
    call: Callable[[], Any], theorem: str, conditions: tuple[str, ...]
) -> None:
    r = call()
    assert (r.theorem, tuple(r.conditions)) == (theorem, conditions)


def test_hand_computed_guarantees() -> None:
    """The closed forms small enough to do by hand, with the labels above."""
    assert basic_composition({(0.1, 1e-6): 3}).delta == 3e-6  # 3 * 1e-6 (exact sum, rounded up)
    assert exponential_mechanism_epsilon(1, 0.1).eps == 0.2  # 2 * sensitivity * coefficient
    assert exponential_mechanism_epsilon(1, 0.1, monotone=True).eps == 0.1
    assert report_noisy_max_epsilon(1, 10).eps == 0.2  # 2 * sensitivity / scale
    assert report_noisy_max_epsilon(1, 10, monotone=True).eps == 0.1
    assert thresholdout_dp(10, 0.01, 1000).eps == 2.0  # 2B/(sigma n)
    # delta(eps_total = 0) of 3 steps is their total variation, at most 3 (e^0.01 - 1)/(e^0.01 + 1)
    # < 0.015 < 0.999: eps_total = 0 suffices
    assert optimal_composition(0.01, 0.0, 3, 0.999).eps == 0.0
