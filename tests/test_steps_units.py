"""Each DP step type's guarantee and accounting, in-process, against hand values from the
theorems it cites (Dwork & Roth Claim 3.9, Thm 3.10, Thms 3.20/3.23/3.25; Cesar & Rogers 2021;
Steinke's pure-DP zCDP), one form of each step at a time (issue 44: the mutation run of
planning/steps.py found forms no planner test reached: the sparse vector's delta, sensitivity
and scale forms, report noisy max's eps form and monotone scores, the exponential mechanism's
accounting)."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from maxinfo_bounds.numeric import InvalidParameter
from maxinfo_bounds.planning import (
    Exponential,
    Gaussian,
    Laplace,
    PlanError,
    ReportNoisyMax,
    SparseVector,
    Thresholdout,
)
from maxinfo_bounds.planning.steps import (
    POSITIVE,
    Step,
    check_bool,
    check_int,
    check_real,
    shown_value,
    step_from_mapping,
)
from maxinfo_bounds.results import DPGuarantee
from maxinfo_bounds.theorems.dp_accounting import analytic_gaussian_sigma


def test_report_noisy_max_forms() -> None:
    g = ReportNoisyMax.from_eps(0.7).guarantee(10)
    assert (g.eps, g.delta, g.theorem) == (0.7, 0.0, "DR-3.9")
    # Lap(b) on sensitivity-Delta scores: 2 Delta / b, or Delta / b for monotone scores
    assert ReportNoisyMax.from_scale(1.0, 4.0).guarantee(10).eps == 0.5
    assert ReportNoisyMax.from_scale(1.0, 4.0, monotone=True).guarantee(10).eps == 0.25
    assert ReportNoisyMax.from_scale(0.5, 4.0).guarantee(10).delta == 0.0


def test_exponential_forms_and_accounting() -> None:
    g = Exponential.from_eps(0.3).guarantee(10)
    assert (g.eps, g.delta, g.theorem) == (0.3, 0.0, "DR-3.10")
    # exp(c u), score sensitivity Delta: 2 c Delta, or c Delta for monotone scores
    assert Exponential.from_coefficient(0.5, 0.25).guarantee(10).eps == 0.25
    assert Exponential.from_coefficient(0.5, 0.25, monotone=True).guarantee(10).eps == 0.125
    # accounting: the better of (2 c Delta)^2 / 8 (bounded range) and eps tanh(eps/2) (pure)
    a = Exponential.from_coefficient(1.0, 0.5).accounting(10, None)  # eps = 1, eta = 1
    assert (a.rho, a.theorems, a.mu) == (0.125, ("CR21-BR",), None)
    m = Exponential.from_coefficient(1.0, 1.0, monotone=True)  # eps = 1, eta = 2: 4/8 > tanh(1/2)
    am = m.accounting(10, None)
    assert am.theorems == ("S24-pure-zCDP",)
    assert math.tanh(0.5) <= am.rho <= math.tanh(0.5) * (1 + 1e-15)
    # the guarantee passed in is the one accounted: eps = 0.4 (the float 0.4000000000000000222),
    # eta = 0.4, rho = eta^2/8 = 0.02000000000000000178 rounded up: above the float 0.02
    rho = Exponential.from_eps(0.3).accounting(10, DPGuarantee(0.4, 0.0, "DR-3.10")).rho
    assert 0.02 < rho <= 0.02 * (1 + 2.0**-50)


def test_sparse_vector_scale_form_with_a_sensitivity() -> None:
    # c (Delta/b1 + 2 Delta/b2) = 3 (0.25 + 0.25)
    g = SparseVector.from_scales(3, 2.0, 4.0, sensitivity=0.5).guarantee(10)
    assert (g.eps, g.delta, g.theorem) == (1.5, 0.0, "DR-3.25")
    # the default sensitivity is 1: 3 (0.5 + 0.5)
    assert SparseVector.from_scales(3, 2.0, 4.0).guarantee(10).eps == 3.0


def test_sparse_vector_with_delta_takes_advanced_composition() -> None:
    # per run 1/20 + 2/40 = 0.1; 100 runs at delta' = 1e-6: basic 10, advanced
    # sqrt(2 * 100 ln(10^6)) 0.1 + 100 * 0.1 (e^0.1 - 1) = 6.3089...
    g = SparseVector.from_scales(100, 20.0, 40.0, delta=1e-6).guarantee(10)
    with mpmath.workdps(40):
        e = mpmath.mpf("0.1")
        adv = mpmath.sqrt(200 * mpmath.log(10**6)) * e + 100 * e * mpmath.expm1(e)
    assert adv <= g.eps <= adv * (1 + 1e-9) and g.delta == 1e-6 and g.theorem == "DR-3.26"


def test_sparse_vector_eps_form_spends_its_target() -> None:
    # the scales are chosen so that the certified eps is at most the target, and close to it
    g = SparseVector.from_eps(5, 1.0, sensitivity=0.5).guarantee(10)
    assert 1.0 * (1 - 1e-9) <= g.eps <= 1.0
    # with delta: per-run budgets above basic composition's, spent by advanced composition
    gd = SparseVector.from_eps(100, 6.3, delta=1e-6).guarantee(10)
    assert 6.3 * (1 - 1e-4) <= gd.eps <= 6.3 and gd.delta == 1e-6


def test_the_python_constructors_pass_every_argument_through() -> None:
    """Each classmethod gives the step its keyword form gives (times and label included), and
    their defaults are one run and no label."""
    cases = [
        (Laplace.from_eps(0.5, 0.2, times=3, label="a"), Laplace(sensitivity=0.5, eps=0.2, times=3, label="a")),
        (Laplace.from_scale(0.5, 2.0, times=3, label="a"), Laplace(sensitivity=0.5, scale=2.0, times=3, label="a")),
        (
            Laplace.mean(0.0, 2.0, scale=0.1, records=50, times=3, label="a"),
            Laplace(value_min=0.0, value_max=2.0, scale=0.1, records=50, times=3, label="a"),
        ),
        (
            Gaussian.from_sigma(0.5, 2.0, 1e-6, times=3, label="a"),
            Gaussian(sensitivity=0.5, sigma=2.0, delta=1e-6, times=3, label="a"),
        ),
        (
            Gaussian.from_eps(0.5, 1.0, 1e-6, times=3, label="a"),
            Gaussian(sensitivity=0.5, eps=1.0, delta=1e-6, times=3, label="a"),
        ),
        (
            Gaussian.from_budget(0.5, 1.0, 1e-6, times=3, label="a"),
            Gaussian(sensitivity=0.5, total_eps=1.0, total_delta=1e-6, times=3, label="a"),
        ),
        (
            Gaussian.mean(0.0, 2.0, sigma=0.1, delta=1e-6, records=50, times=3, label="a"),
            Gaussian(value_min=0.0, value_max=2.0, sigma=0.1, delta=1e-6, records=50, times=3, label="a"),
        ),
        (ReportNoisyMax.from_eps(0.7, times=3, label="a"), ReportNoisyMax(eps=0.7, times=3, label="a")),
        (Exponential.from_eps(0.3, times=3, label="a"), Exponential(eps=0.3, times=3, label="a")),
        (
            ReportNoisyMax.from_scale(1.0, 4.0, monotone=True, times=3, label="a"),
            ReportNoisyMax(sensitivity=1.0, scale=4.0, monotone=True, times=3, label="a"),
        ),
        (
            SparseVector.from_eps(3, 1.0, delta=1e-6, sensitivity=0.5, times=3, label="a"),
            SparseVector(c=3, eps=1.0, delta=1e-6, sensitivity=0.5, times=3, label="a"),
        ),
        (
            SparseVector.from_scales(3, 2.0, 4.0, delta=1e-6, sensitivity=0.5, times=3, label="a"),
            SparseVector(c=3, threshold_scale=2.0, query_scale=4.0, delta=1e-6, sensitivity=0.5, times=3, label="a"),
        ),
        (
            Exponential.from_coefficient(1.0, 0.5, monotone=True, times=3, label="a"),
            Exponential(sensitivity=1.0, coefficient=0.5, monotone=True, times=3, label="a"),
        ),
    ]
    for made, keyword in cases:
        assert made == keyword and (made.times, made.label) == (3, "a")
    defaults = [
        Laplace.from_eps(0.5, 0.2),
        Laplace.from_scale(0.5, 2.0),
        Laplace.mean(0.0, 2.0, scale=0.1),
        Gaussian.from_sigma(0.5, 2.0, 1e-6),
        Gaussian.from_eps(0.5, 1.0, 1e-6),
        Gaussian.from_budget(0.5, 1.0, 1e-6),
        Gaussian.mean(0.0, 2.0, sigma=0.1, delta=1e-6),
        ReportNoisyMax.from_eps(0.7),
        SparseVector.from_eps(3, 1.0),
        SparseVector.from_scales(3, 2.0, 4.0),
        Exponential.from_eps(0.3),
    ]
    assert all((s.times, s.label) == (1, "") for s in defaults)
    assert Laplace.from_eps(0.5, 0.2).with_label("b").label == "b"
    # a numpy count is stored as a Python int (the JSON views write it)
    t = Laplace.from_eps(0.5, 0.2, times=np.int64(3)).times
    assert t == 3 and type(t) is int


def test_gaussian_accounting_and_point_delta() -> None:
    # mu = Delta/sigma = 0.5 and rho = mu^2/2 = 0.125, each at most two floats above
    a = Gaussian.from_sigma(1.0, 2.0, 1e-6).accounting(10, None)
    assert 0.5 <= a.mu <= 0.5 * (1 + 2.0**-51) and 0.125 <= a.rho <= 0.125 * (1 + 2.0**-50)
    assert a.theorems == ("DRS22-2.7", "BS16-1.6")
    # a budget's point: total_delta / times, rounded down (10 runs of 1e-6 in all: 1e-7 each)
    pd = Gaussian.from_budget(1.0, 1.0, 1e-6, times=10).point_delta()
    assert Fraction(pd) <= Fraction(1e-6) / 10 < Fraction(math.nextafter(pd, 1.0))
    # mu up to MU_MAX = 10^7 is accounted; above it refused, naming sigma
    assert Gaussian.from_sigma(7.5e6, 1.0, 0.5).accounting(10, None).mu >= 7.5e6
    assert Gaussian.from_sigma(1e7, 1.0, 0.5).accounting(10, None).mu >= 1e7
    with pytest.raises(InvalidParameter, match=r"sigma=1\.0 is invalid: must be at least sensitivity/1e\+07"):
        Gaussian.from_sigma(1.2e7, 1.0, 0.5).accounting(10, None)
    # the calibrated sigma is shown beside a target (eps, delta)
    assert Gaussian.from_eps(1.0, 1.0, 1e-6).inputs_text() == (
        "sensitivity=1.0, delta=1e-06, eps=1.0, sigma=" + repr(analytic_gaussian_sigma(1.0, 1.0, 1e-6))
    )


def test_step_keys_and_refusals() -> None:
    assert SparseVector.from_eps(3, 1.0).integer_keys() == {"c", "times"}
    assert Thresholdout(budget=3, sigma=0.1).integer_keys() == {"budget", "holdout_n", "times"}
    assert Laplace.mean(0.0, 1.0, scale=0.1).integer_keys() == {"records", "times"}
    with pytest.raises(PlanError) as e:
        Laplace.from_eps(1.0, 0.5).with_value("foo", 1)
    assert str(e.value) == "foo: is not a parameter of this laplace step; it has sensitivity, eps, times"
    allowed = (
        "laplace, gaussian, exponential, report_noisy_max, sparse_vector, thresholdout, dp, description, "
        "mutual_information"
    )
    for typ, shown in (([1], "[1]"), ("nope", "'nope'")):  # a TOML array is refused, not a crash
        with pytest.raises(PlanError) as e:
            step_from_mapping({"type": typ})
        assert str(e.value) == f"type: {shown} is not a step type; allowed: {allowed}"
    with pytest.raises(PlanError) as e:
        step_from_mapping({"type": "laplace", "foo": 1})
    assert str(e.value) == (
        "foo: unknown key for type 'laplace'; allowed: eps, label, records, scale, sensitivity, times, "
        "value_max, value_min"
    )


def test_shown_value_cuts_a_long_repr_at_20_characters() -> None:
    # the repr of 38 letters is 40 characters: shown whole; of 39, 41: cut
    assert shown_value("a" * 38) == "'" + "a" * 38 + "'"
    assert shown_value("a" * 39) == "'" + "a" * 19 + "...(41 characters)"


def test_gaussian_guarantee_is_its_exact_curve_s_point() -> None:
    # mu = Delta/sigma = 1 at delta = 1e-6: eps = 4.8865541... (Dong-Roth-Su's check value,
    # shared/papers/transfer-theorems.md), rounded up; the point's delta is the one given
    g = Gaussian.from_sigma(1.0, 1.0, 1e-6).guarantee(10)
    assert 4.8865541 <= g.eps <= 4.8865542 and (g.delta, g.theorem) == (1e-6, "BW18-8")
    # a budget: the point of one run at total_delta / times
    gb = Gaussian.from_budget(1.0, 1.0, 1e-6, times=10).guarantee(10)
    assert gb.delta == Gaussian.from_budget(1.0, 1.0, 1e-6, times=10).point_delta() <= 1e-7


def test_planning_input_checks_refuse_word_for_word() -> None:
    cases = [
        (lambda: check_int("times", 2.5), "times: must be an integer >= 1, got 2.5"),
        (lambda: check_int("times", True), "times: must be an integer >= 1, got True"),
        (lambda: check_int("times", 0), "times: 0 is invalid: must be an integer >= 1"),
        (lambda: check_int("c", 11, low=2, high=10), "c: 11 is invalid: must be an integer in [2, 10]"),
        (lambda: check_int("c", "3", low=2, high=10), "c: must be an integer in [2, 10], got '3'"),
        (lambda: check_bool("monotone", 1), "monotone: must be true or false, got 1"),
        (lambda: Laplace.mean(1.0, 1.0, scale=0.1), "value_max: 1.0 is invalid: must be above value_min = 1.0"),
        (
            lambda: Laplace(sensitivity=1.0, eps=0.5, records=10),
            "records: is only for the mean-query form (value_min, value_max)",
        ),
    ]
    for call, text in cases:
        with pytest.raises(PlanError) as e:
            call()
        assert str(e.value) == text
    assert check_int("c", np.int64(3), low=2, high=10) == 3 and check_bool("monotone", np.True_) is True


def test_gaussian_refusal_above_mu_max_word_for_word() -> None:
    with pytest.raises(InvalidParameter) as e:
        Gaussian.from_sigma(1.2e7, 1.0, 0.5).accounting(10, None)
    assert str(e.value) == (
        "sigma=1.0 is invalid: must be at least sensitivity/1e+07 (mu = sensitivity/sigma above 1e+07: no eps "
        "<= 1e12 nats is reached at any delta below 1)"
    )


def test_step_construction_refusals_word_for_word() -> None:
    cases = [
        (
            lambda: Step(),
            "Step: is the base class: build one of Laplace, Gaussian, Exponential, ReportNoisyMax, SparseVector, "
            "Thresholdout, GenericDP, Description, MutualInformation",
        ),
        (
            lambda: Laplace(),
            "step: type 'laplace' needs (sensitivity, eps) or (sensitivity, scale) or (value_min, value_max, scale)",
        ),
        (lambda: Laplace.from_eps(1.0, 0.5, label=3), "label: must be a string, got 3"),
        (lambda: check_real("eps", "x", POSITIVE), "eps: must be a number, got 'x'"),
        (lambda: check_real("eps", True, POSITIVE), "eps: must be a number, got True"),
        (lambda: check_real("eps", -1.0, POSITIVE), "eps: -1.0 is invalid: must be a real number in (0, inf)"),
        (
            lambda: check_real("eps", Fraction(1, 3), POSITIVE),
            "eps: Fraction(1, 3) is invalid: must be a number a float represents exactly (round it to its safe "
            "side first)",
        ),
        (
            lambda: check_real("eps", 2**53 + 1, POSITIVE),
            "eps: 9007199254740993 is invalid: must be a number a float represents exactly (round it to its safe "
            "side first)",
        ),
    ]
    for call, text in cases:
        with pytest.raises(PlanError) as e:
            call()
        assert str(e.value) == text
    # values a float represents exactly are taken, whatever their type
    for v in (np.float32(0.25), Fraction(1, 4), 0.25):
        assert check_real("eps", v, POSITIVE) == 0.25
    assert check_real("eps", 3, POSITIVE) == check_real("eps", np.int64(3), POSITIVE) == 3.0


def test_monotone_exponential_accounting_reads_eta_as_twice_eps() -> None:
    # c Delta = 2 (monotone): eta = 2 c Delta = 4, bounded range 16/8 = 2 > pure 2 tanh(1) = 1.5232
    a = Exponential.from_coefficient(1.0, 2.0, monotone=True).accounting(10, None)
    assert a.theorems == ("S24-pure-zCDP",)
    assert 2 * math.tanh(1.0) <= a.rho <= 2 * math.tanh(1.0) * (1 + 1e-15)


def test_a_gaussian_mean_budget_is_read_on_the_study_s_records() -> None:
    # values in [0, 1] on n = 100 records: sensitivity 1/100; one run spending (1, 1e-6): the
    # point shown is (eps, 1e-6) with eps at most the budget's 1 and within 1e-9 of it
    g = Gaussian.mean(0.0, 1.0, total_eps=1.0, total_delta=1e-6).guarantee(100)
    assert 1 - 1e-9 <= g.eps <= 1.0 and g.delta == 1e-6
