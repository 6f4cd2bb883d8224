"""``correct()`` and ``maxinfo correct``: the exact user-facing text of every refusal, the
report's suggestions (hand-derived), the worked example and the displays (issue 44: mutation
testing of ``corrections.py`` and ``vacuity.py`` found them unchecked)."""

from __future__ import annotations

import math

import mpmath
import pytest

from maxinfo_bounds.corrections import correct, correction_report, worked_example
from maxinfo_bounds.numeric import InvalidParameter, MissingParameter, RegimeError
from maxinfo_bounds.vacuity import GAMMA_FLOOR, NO_SINGLE_FIX, gamma_problem, shown, usable_if_text

NEEDS_DELTA = "must be given with delta (an approximate DP step needs eps, delta, n)"
NEEDS_BOTH = "must be given together with the other (a pure DP step needs eps and n)"
MISSING = (
    "missing a guarantee of the selection step: give eps and n (pure DP); eps, delta and n with iid "
    "(approximate DP on i.i.d. data); mi_bits; or range_size"
)


@pytest.mark.parametrize(
    ("kwargs", "exc", "text"),
    [
        ({"iid": 1}, InvalidParameter, "iid=1 is invalid: must be True or False"),
        (
            {"iid": True, "range_size": 3},
            InvalidParameter,
            "iid=True is invalid: must be given with eps (whether the records are i.i.d. matters only to "
            "the DP routes, RRST Thm 1.4b and Thm 3.1; the mi_bits and range_size routes hold for any data)",
        ),
        ({"delta": 1e-6, "n": 100}, InvalidParameter, "eps=None is invalid: " + NEEDS_DELTA),
        ({"delta": 1e-6, "eps": 0.1}, InvalidParameter, "n=None is invalid: " + NEEDS_DELTA),
        ({"eps": 0.1}, InvalidParameter, "n=None is invalid: " + NEEDS_BOTH),
        ({"n": 100}, InvalidParameter, "eps=None is invalid: " + NEEDS_BOTH),
        (
            {"eps": 0.9, "delta": 1e-9, "n": 100, "iid": True},
            RegimeError,
            "RRST Thm 3.1 does not apply: it requires eps in (0, 1/2] and delta < eps' for some implied "
            "eps' in [eps, 1/2], got eps=0.9",
        ),
        (
            {"eps": 0.1, "delta": 0.6, "n": 100, "iid": True},
            RegimeError,
            "RRST Thm 3.1 does not apply: it requires eps in (0, 1/2] and delta < eps' for some implied "
            "eps' in [eps, 1/2], got delta=0.6",
        ),
        (
            {"eps": 0.5, "delta": 0.6, "n": 100, "iid": True},
            RegimeError,
            "RRST Thm 3.1 does not apply: it requires eps in (0, 1/2] and delta < eps' for some implied "
            "eps' in [eps, 1/2], got delta=0.6",
        ),
        ({}, MissingParameter, MISSING),
        (
            {"eps": 0.1, "delta": 1e-9, "n": 100},
            MissingParameter,
            MISSING + " (approximate DP: no max-information bound without i.i.d. data (RRST §4); if the records "
            "are i.i.d., say so (iid=True; --iid on the command line))",
        ),
    ],
)
def test_every_refusal_names_the_parameter_and_the_rule(kwargs, exc, text):
    with pytest.raises(exc) as info:
        correct(0.05, **kwargs)
    assert str(info.value) == text


def test_a_description_that_gives_no_route_is_gamma_zero_with_the_reason():
    """Approximate DP on 10^6 i.i.d. records at delta = 1e-3: RRST Thm 3.1's beta is at least
    4 n sqrt(delta/(3 eps')) >= alpha, so no route: gamma 0, the candidate listed at 0 and the
    planner's reason kept."""
    c = correct(0.05, eps=0.1, delta=1e-3, n=10**6, iid=True)
    assert c.gamma == 0.0 and c.k is None and c.beta is None and c.route == ()
    assert [(r.route, r.gamma) for r in c.candidates] == [("approximate DP, i.i.d. data", 0.0)]
    assert len(c.notes) == 1 and c.notes[0].startswith("approximate DP, i.i.d. data: no valid route: ")
    assert str(c) == "gamma=0.0 at alpha=0.05 via "


def test_worked_example_by_hand():
    """One of 20 candidates: DFHPRR Thm 6 at beta = alpha/2 = 0.025 gives k = log2(800) =
    9.6438561897747247 bits (rounded up), gamma = alpha^2/80 = 3.125e-5 (rounded down);
    Bonferroni alpha/20 = 0.0025."""
    r = worked_example()
    k, g = r["k_bits"], r["gamma"]
    assert r["beta"] == 0.025 and r["range_size"] == 20 and r["alpha"] == 0.05 and r["bonferroni"] == 0.0025
    with mpmath.workdps(40):
        assert mpmath.log(800, 2) <= k <= mpmath.log(800, 2) * (1 + mpmath.mpf(2) ** -51)
    assert 3.125e-05 * (1 - 2**-48) <= g <= 3.125e-05  # rounded down by a few ulps
    assert r["scenario"] == (
        "choose 1 of 20 candidate hypotheses after looking at the data, then test it on the same data at alpha=0.05"
    )
    assert r["derivation"] == [
        {
            "step": "selection",
            "theorem": "DFHPRR Thm 6",
            "result": f"I^beta_inf <= log2(20/beta) = {k!r} bits at beta=0.025",
        },
        {"step": "test", "theorem": "RRST Thm 1.3", "result": f"gamma = (alpha - beta)/2^k = {g!r} (rounded down)"},
    ]
    assert r["note"] == (
        "Bonferroni over the pre-declared family of the same candidates is valid here too and larger; the "
        "max-information route also covers selections that are not a choice from a fixed family (any output "
        "of that many values)."
    )
    other = worked_example(0.01, 5)  # alpha^2/(4*5) = 5e-6, beta = 0.005, Bonferroni 0.002
    assert other["beta"] == pytest.approx(0.005, rel=1e-12) and other["bonferroni"] == 0.002
    assert 5e-6 * (1 - 2**-48) <= other["gamma"] <= 5e-6
    assert other["scenario"].startswith("choose 1 of 5 candidate hypotheses") and "alpha=0.01" in other["scenario"]


def test_displays():
    c = correct(0.05, range_size=20)
    assert str(c) == f"gamma={c.gamma!r} at alpha=0.05, k={c.k!r} bits, beta=0.025 via DFHPRR-6 -> RRST-1.3"
    assert c._repr_latex_() == rf"$\gamma(0.05) = {c.gamma!r}$ via DFHPRR-6 $\to$ RRST-1.3"
    assert [(r.route, r.gamma) for r in c.candidates] == [("description length", c.gamma)] and c.notes == ()


def test_report_suggests_hand_derived_changes():
    """eps = 0.5 on n = 1000 records (any data): gamma = 0.05 e^{-eps n} (RRST Thm 1.4a, 1.3)
    is below 2.2e-16, usable while eps n <= ln(0.05/2.220446e-16) = 33.048 (hand): eps <= 0.033
    at n = 1000 (2 digits, rounded down) and n <= 66 at eps = 0.5."""
    c = correct(0.05, eps=0.5, n=1000)
    r = correction_report(c, eps=0.5, n=1000)
    assert r["usable_if"] == ["eps <= 0.033", "n <= 66"] and r["gamma_rounding"] == "down"
    assert r["route"] == "RRST-1.4a -> RRST-1.3" and r["vacuous"].startswith("gamma = 3.56e-219 is below 2.2e-16")
    # the i.i.d. flag is read as given: with it, RRST Thm 1.4b (best beta) also runs
    ci = correct(0.05, eps=0.5, n=1000, iid=True)
    assert correction_report(ci, eps=0.5, n=1000, iid=True)["usable_if"] != r["usable_if"]
    # a usable threshold has no suggestions; mi_bits and range_size have theirs
    ok = correct(0.05, range_size=20)
    assert "usable_if" not in correction_report(ok, range_size=20)
    big = correct(0.05, range_size=10**15)  # alpha^2/(4 M) = 6.25e-19 < 2.2e-16: M <= 2.8e12
    rb = correction_report(big, range_size=10**15)
    (only,) = rb["usable_if"]
    name, side, value = only.split()
    assert (name, side) == ("range_size", "<=") and 0.05**2 / (4 * (int(value) + 1)) < GAMMA_FLOOR <= 0.05**2 / (
        4 * int(value)
    )


def test_vacuity_rule_boundaries():
    """gamma exactly at the floor (the double 2^-52) is usable; one ulp below is not, unless the
    test's critical value is known; 0 is never usable."""
    assert gamma_problem(GAMMA_FLOOR) is None
    below = math.nextafter(GAMMA_FLOOR, 0.0)
    assert gamma_problem(below) == (
        f"gamma = {below:.3g} is below 2.2e-16, the smallest p-value standard software reports (R prints "
        "p < 2.2e-16): no printed p-value can be checked against it; only a test whose critical value at that "
        "level can be computed (a z-, t- or exact binomial test: give the study a [power] table) can use it"
    )
    assert gamma_problem(below, critical_value_known=True) is None
    assert gamma_problem(0.0, critical_value_known=True).startswith("gamma = 0: the corrected threshold rejects")
    assert usable_if_text([]) == NO_SINGLE_FIX and usable_if_text(["a <= 1", "b >= 2"]) == "a <= 1, b >= 2"
    assert shown(0.0339, "<=") == "0.033" and shown(0.0331, ">=") == "0.034"


def test_candidates_are_labelled_by_what_was_described():
    """Several descriptions at once: each planned as its own one-step study and listed by what
    it was (the best wins)."""
    c = correct(0.05, eps=0.01, n=100, mi_bits=0.5, range_size=8)
    assert [r.route for r in c.candidates] == ["pure DP, any data", "mutual information", "description length"]
    assert c.gamma == max(r.gamma for r in c.candidates)
    ci = correct(0.05, eps=0.01, n=100, iid=True)
    assert [r.route for r in ci.candidates] == ["pure DP, i.i.d. data"]


def test_report_suggests_a_smaller_delta_that_works():
    """(0.01, 1e-6)-DP on 1000 i.i.d. records: RRST Thm 3.1's beta is at least 4 n sqrt(delta/(3
    eps')) >= alpha, so gamma = 0. The report's delta suggestion (and its n) make gamma usable
    there, and ten times the suggested delta does not (the boundary within the suggestion's 2
    digits)."""
    c = correct(0.05, eps=0.01, delta=1e-6, n=1000, iid=True)
    r = correction_report(c, eps=0.01, delta=1e-6, n=1000, iid=True)
    assert c.gamma == 0.0 and r["vacuous"].startswith("gamma = 0: the corrected threshold rejects nothing")
    sug = dict(s.split(" <= ") for s in r["usable_if"])
    assert set(sug) == {"delta", "n"}
    d, n = float(sug["delta"]), int(sug["n"])
    assert correct(0.05, eps=0.01, delta=d, n=1000, iid=True).gamma >= GAMMA_FLOOR
    assert correct(0.05, eps=0.01, delta=10 * d, n=1000, iid=True).gamma < GAMMA_FLOOR
    assert correct(0.05, eps=0.01, delta=1e-6, n=n, iid=True).gamma >= GAMMA_FLOOR
    assert correct(0.05, eps=0.01, delta=1e-6, n=n + 1, iid=True).gamma < GAMMA_FLOOR
