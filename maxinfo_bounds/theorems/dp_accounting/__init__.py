r"""Differential-privacy accounting: composition of DP steps and mechanism calibration.

Composition: basic and advanced (homogeneous and heterogeneous), and the optimal homogeneous
composition (Kairouz–Oh–Viswanath), exact. Calibration: Laplace, Gaussian (classic and analytic,
Balle–Wang 2018), the exponential mechanism and report-noisy-max, sparse vector (AboveThreshold
with c answers). Conversion: :func:`dp_max_information` turns a :class:`DPGuarantee` into the best
max-information bound of RRST Thm 1.4 / Thm 3.1. Interop: :func:`from_dp_event` reads an
(eps, delta) from Google's ``dp_accounting``. Exact accounting: Gaussian DP (:mod:`.gdp`,
Dong-Roth-Su 2022), zCDP and its certified conversions (:mod:`.zcdp`), the exact composition of
pure and Gaussian steps (:mod:`.mixed`). Modules: :mod:`.composition`, :mod:`.optimal`,
:mod:`.mechanisms`, :mod:`.interop`, :mod:`.gdp`, :mod:`.zcdp`, :mod:`.mixed`.
``eps`` is in nats throughout (the DP convention). Every returned privacy parameter is rounded **up** and
every calibrated noise scale rounded **up** (more noise, smaller privacy loss: the safe side).

References: Dwork & Roth, *The Algorithmic Foundations of Differential Privacy* (2014): Thm 3.16
(basic composition), Thm 3.20 (advanced composition, Dwork–Rothblum–Vadhan 2010), Thm 3.6
(Laplace mechanism), Thm A.1 (Gaussian mechanism, eps < 1); Kairouz–Oh–Viswanath, "The
Composition Theorem for Differential Privacy" (ICML 2015), Thm 3.3
(optimal homogeneous composition; the heterogeneous form of advanced composition); Balle & Wang,
"Improving the Gaussian Mechanism for Differential Privacy" (ICML 2018), Thm 8 (analytic
Gaussian); McSherry–Talwar 2007 / Dwork & Roth Thm 3.10 (exponential mechanism), Claim 3.9
(report noisy max), Thm 3.23 and 3.25/3.26 (AboveThreshold and Sparse).
"""

from __future__ import annotations

from ...results import DPGuarantee
from .composition import advanced_composition, basic_composition, compose_dp
from .gdp import gaussian_mu, gdp_compose, gdp_delta, gdp_epsilon, gdp_mu, gdp_sigma
from .interop import dp_max_information, from_dp_event
from .mechanisms import (
    above_threshold_epsilon,
    analytic_gaussian_sigma,
    exponential_mechanism_coefficient,
    exponential_mechanism_epsilon,
    gaussian_delta,
    gaussian_epsilon,
    gaussian_sigma,
    laplace_epsilon,
    laplace_scale,
    report_noisy_max_epsilon,
    sparse_vector,
    sparse_vector_scales,
)
from .mixed import mixed_delta, mixed_epsilon
from .optimal import kov_eps_float, optimal_composition, optimal_composition_delta
from .zcdp import zcdp_bounded_range, zcdp_compose, zcdp_epsilon, zcdp_gaussian, zcdp_pure

__all__ = [
    "DPGuarantee",
    "basic_composition",
    "advanced_composition",
    "compose_dp",
    "laplace_epsilon",
    "laplace_scale",
    "gaussian_sigma",
    "optimal_composition_delta",
    "optimal_composition",
    "kov_eps_float",
    "gaussian_delta",
    "gaussian_epsilon",
    "analytic_gaussian_sigma",
    "exponential_mechanism_epsilon",
    "exponential_mechanism_coefficient",
    "report_noisy_max_epsilon",
    "above_threshold_epsilon",
    "sparse_vector",
    "sparse_vector_scales",
    "dp_max_information",
    "from_dp_event",
    "gaussian_mu",
    "gdp_compose",
    "gdp_delta",
    "gdp_epsilon",
    "gdp_mu",
    "gdp_sigma",
    "mixed_delta",
    "mixed_epsilon",
    "zcdp_bounded_range",
    "zcdp_compose",
    "zcdp_epsilon",
    "zcdp_gaussian",
    "zcdp_pure",
]
