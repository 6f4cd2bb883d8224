"""Sweeps, inverse solves and single-parameter fixes (``planning/explore.py``, issue 44), in
process, against hand values: for an analysis that only chooses among M outputs, DFHPRR Thm 6
with RRST Thm 1.3 gives the corrected threshold gamma = alpha^2/(4M) (the beta split at alpha/2
is optimal: (alpha - beta) beta / M is largest there), whatever n is. Every refusal word for
word."""

from __future__ import annotations

import math

import pytest

from maxinfo_bounds.numeric import MaxinfoError
from maxinfo_bounds.planning import (
    Description,
    PlanError,
    PowerSpec,
    Study,
    fixes,
    load_study,
    power_sweep,
    solve,
    sweep,
    with_param,
)
from maxinfo_bounds.search import nearest_passing

from .test_study_units import _refused

S = Study(n=1000, iid=False, alpha=0.05, steps=(Description(range_size=10),))
P = Study(
    n=1000, iid=False, alpha=0.05, steps=(Description(range_size=10),), power=PowerSpec(test="z", effect_size=0.1)
)


def test_sweep_of_a_description_is_alpha_squared_over_4m():
    """gamma at M = 10, 100 and 2^3 (times = 3 of a 2-way choice) by hand (certified: at most
    the exact value, within 10^-12); a refused point keeps its value with gamma None and the
    refusal as its route."""
    pts = sweep(S, "range_size", [10, 100, 0])
    assert [p.value for p in pts] == [10.0, 100.0, 0.0]
    for p, m in zip(pts[:2], (10, 100), strict=True):
        want = 0.05**2 / (4 * m)
        assert p.gamma <= want and p.gamma == pytest.approx(want, rel=1e-12)
        assert p.route == "max-information composition"
    assert pts[2].gamma is None
    assert pts[2].route == "<study>: steps[0].range_size: 0 is invalid: must be an integer >= 1"
    two = Study(n=5, alpha=0.05, steps=(Description(range_size=2),))
    t = sweep(two, "times", [1, 3])
    assert t[1].gamma == pytest.approx(0.05**2 / 32, rel=1e-12) and t[1].gamma <= 0.05**2 / 32
    assert sweep(S, "range_size", []) == []
    _refused(
        lambda: sweep(S, "bogus", [1]),
        "--param: 'bogus': no step has this field; use n, alpha, times or a field of a step",
    )


def test_solve_by_hand():
    """The largest M with alpha^2/(4M) >= 1.1e-6 is floor(0.0025/4.4e-6) = floor(568.18) = 568;
    the smallest alpha with alpha^2/40 >= 1e-6 is sqrt(4e-5) = 0.00632455532..., found to 1e-9
    relative and at or above it (a solved alpha meets the target)."""
    m = solve(S, "range_size", 1.1e-6)
    assert (m.value, m.direction) == (568, "largest")
    assert m.plan.gamma >= 1.1e-6 and plan_gamma(S, "range_size", 569) < 1.1e-6
    a = solve(S, "alpha", 1e-6)
    want = math.sqrt(4e-5)
    assert a.direction == "smallest" and want <= a.value <= want * (1 + 2e-9)
    assert a.plan.gamma >= 1e-6 and a.plan.alpha == a.value


def plan_gamma(study: Study, param: str, v: float) -> float:
    from maxinfo_bounds.planning import plan

    return plan(with_param(study, param, v)).gamma


def test_solve_refusals_word_for_word():
    """gamma does not depend on n for a description: a target met at n = 1 is met everywhere, one
    not met is met nowhere (at the best end, n = 2^53, gamma = alpha^2/40 = 6.25e-05); the range
    given by lo and hi; the target's own domain; an unknown parameter before any search."""
    _refused(
        lambda: solve(S, "n", 1e-6),
        "--target-gamma: 1e-06 is met over the whole range of n, [1, 9007199254740992]: the boundary lies "
        "outside it (widen --lo/--hi)",
    )
    _refused(
        lambda: solve(S, "n", 0.5),
        "--target-gamma: 0.5 is not met for n anywhere in [1, 9007199254740992]; at the best end, n = "
        "9007199254740992: gamma = 6.25e-05",
    )
    _refused(
        lambda: solve(S, "range_size", 1e-6, lo=2, hi=100),
        "--target-gamma: 1e-06 is met over the whole range of range_size, [2, 100]: the boundary lies outside "
        "it (widen --lo/--hi)",
    )
    with pytest.raises(MaxinfoError, match=r"^target_gamma=2 is invalid: must be a real number in \(0, 1\]$"):
        solve(S, "range_size", 2)
    _refused(
        lambda: solve(S, "bogus", 1e-6),
        "--param: 'bogus': no step has this field; use n, alpha, times or a field of a step",
    )


def test_with_param_refusals_word_for_word():
    st = load_study("examples/laplace_queries.toml")
    src = "examples/laplace_queries.toml"
    cases = [
        ("n", "x", f"{src}: data.n: 'x' is invalid: must be a number"),
        ("n", True, f"{src}: data.n: True is invalid: must be a number"),
        ("n", math.inf, f"{src}: data.n: inf is invalid: must be a finite number"),
        ("n", 2.5, f"{src}: data.n: 2.5 is invalid: must be an integer"),
        ("n", 0, f"{src}: data.n: 0 is invalid: must be an integer in [1, 9007199254740992]"),
        ("alpha", 1.5, f"{src}: test.alpha: 1.5 is invalid: must be a real number in [1e-300, 1)"),
        ("power.effect_size", 0.1, f"{src}: power: missing: power.effect_size is a field of the [power] table"),
        ("steps[x].eps", 0.1, "--param: 'steps[x].eps': use n, alpha, a step field, or steps[i].field"),
        ("steps[5].eps", 0.1, "--param: 'steps[5].eps': the study has 1 steps"),
        ("steps[-1].eps", 0.1, "--param: 'steps[-1].eps': the study has 1 steps"),
        ("foo", 0.1, "--param: 'foo': no step has this field; use n, alpha, times or a field of a step"),
        ("steps[0].foo", 0.1, "--param: steps[0] (laplace) has no field 'foo'"),
        ("steps[0].scale", -1, f"{src}: steps[0].scale: -1.0 is invalid: must be a real number in (0, inf)"),
        ("times", 2.5, f"{src}: steps[0].times: 2.5 is invalid: must be an integer"),
    ]
    for param, value, text in cases:
        _refused(lambda p=param, v=value: with_param(st, p, v), text)
    assert with_param(st, "times", 7).steps[0].times == 7 and with_param(st, "n", 7.0).n == 7
    assert isinstance(with_param(st, "n", 7.0).n, int)
    assert with_param(st, "steps[0].scale", 2).steps[0].scale == 2.0


def test_with_param_of_the_power_table():
    """``effect_size`` and ``target`` (bare or under ``power.``) set the [power] table; a refusal
    is named under power., including the target's conflict with alpha."""
    assert with_param(P, "effect_size", 0.3).power.effect_size == 0.3
    assert with_param(P, "power.target", 0.9).power.target == 0.9
    assert with_param(P, "target", 0.9).power.effect_size == 0.1
    _refused(
        lambda: with_param(P, "power.target", 1.5),
        "<study>: power.target: 1.5 is invalid: must be a real number in (0, 1)",
    )
    _refused(
        lambda: with_param(P, "target", 0.01),
        "<study>: power.target: 0.01 is invalid: must be above test.alpha = 0.05 (a test at level alpha that "
        "ignores the data already rejects with probability alpha)",
    )
    _refused(lambda: with_param(P, "effect_size", "x"), "<study>: power.effect_size: 'x' is invalid: must be a number")
    _refused(
        lambda: with_param(P, "alpha", 0.9),
        "<study>: power.target: 0.8 is invalid: must be above test.alpha = 0.9 (a test at level alpha that "
        "ignores the data already rejects with probability alpha)",
    )


def test_power_sweep_keeps_refused_points():
    pts = power_sweep(P, "n", [10, 0])
    assert [p.value for p in pts] == [10.0, 0.0]
    assert pts[0].plan is not None and pts[0].reason == "" and pts[0].plan.study.n == 10
    assert pts[1].plan is None
    assert pts[1].reason == "<study>: data.n: 0 is invalid: must be an integer in [1, 9007199254740992]"
    _refused(lambda: power_sweep(S, "n", [10]), "<study>: power: missing: a power sweep needs the [power] table")


def test_fixes_of_a_vacuous_description_by_hand():
    """A choice among 10^20 outputs: gamma = 0.0025/(4 * 10^20) is below 2^-52 (no usable
    threshold for an unnamed test). The nearest fix is the largest M with 0.0025/(4M) >= 2^-52:
    floor(0.0025 * 2^52 / 4) = floor(2814749767106.56). Once: the value lies beyond the end
    (10^12) of the searched range, which is approached from that end, not twice (it was listed
    twice before). With 3 runs of 10^20 the fix is M^3 <= 2814749767106.56, M = 14,119."""
    one = Study(n=1000, iid=False, alpha=0.05, steps=(Description(range_size=10**20),))
    assert fixes(one) == ["steps[0].range_size <= 2814749767106"]
    three = Study(n=1000, iid=False, alpha=0.05, steps=(Description(range_size=10**20, times=3),))
    assert math.floor(2814749767106.56 ** (1 / 3)) == 14119
    assert fixes(three) == ["steps[0].range_size <= 14119"]


def test_nearest_passing_from_beyond_the_range():
    """A value beyond an end of the range is approached from that end by one direction only."""
    assert nearest_passing(lambda x: x <= 1000, 10**20, lo=1, hi=10**12, integer=True) == [1000]
    assert nearest_passing(lambda x: x >= 10**15, 10, lo=1, hi=10**12, integer=True) == []
    assert nearest_passing(lambda x: x <= 0.5, 5.0, lo=0.0, hi=1.0, rel_tol=0) == [0.5]
    assert nearest_passing(lambda x: x >= 0.5, -5.0, lo=0.0, hi=1.0, rel_tol=0) == [0.5]
    # inside the range, one point per direction that has one, below first
    assert nearest_passing(lambda x: abs(x - 50) >= 10, 50, lo=1, hi=100, integer=True) == [40, 60]


def test_fixes_of_pure_dp_by_hand():
    """Pure eps-DP on data not i.i.d. (RRST Thm 1.4a): gamma = alpha e^(-eps_total n), usable for a
    printed p-value when gamma >= 2^-52, i.e. eps_total n <= L = ln(0.05 * 2^52) = 33.0479...; for
    a named test any positive double, L' = ln(0.05 / 2^-1074) = 741.44...

    * eps = 30 on 1,000 records: n <= 33.05/30, so n <= 1; eps <= 0.0330 (shown 0.033); the
      sensitivity does not enter (the step is given by eps): no fix from it;
    * the same with a [power] table: n <= 741.44/30 = 24.7, so n <= 24; eps <= 0.741 (0.74);
    * eps = 20, run twice, on 1 record: n cannot go below 1; eps <= 16.5 (shown 16), times <= 1;
      the same for report noisy max, whose boolean field (monotone) comes before times."""
    from maxinfo_bounds.planning import Laplace
    from maxinfo_bounds.planning.steps import ReportNoisyMax

    L = math.log(0.05) + 52 * math.log(2)
    assert L == pytest.approx(33.04792, abs=1e-5) and math.log(0.05) + 1074 * math.log(2) == pytest.approx(
        741.44, abs=0.01
    )
    a = Study(n=1000, iid=False, alpha=0.05, steps=(Laplace(sensitivity=1.0, eps=30.0),))
    assert fixes(a) == ["n <= 1", "steps[0].eps <= 0.033"]
    named = Study(
        n=1000,
        iid=False,
        alpha=0.05,
        steps=(Laplace(sensitivity=1.0, eps=30.0),),
        power=PowerSpec(test="z", effect_size=0.1),
    )
    assert fixes(named) == ["n <= 24", "steps[0].eps <= 0.74"]
    b = Study(n=1, iid=False, alpha=0.05, steps=(Laplace(sensitivity=1.0, eps=20.0, times=2),))
    assert fixes(b) == ["steps[0].eps <= 16", "steps[0].times <= 1"]
    r = Study(n=1, iid=False, alpha=0.05, steps=(ReportNoisyMax(eps=20.0, times=2, monotone=True),))
    assert fixes(r) == ["steps[0].eps <= 16", "steps[0].times <= 1"]


def test_with_param_more_edges():
    """power.effect_size under its prefix, an alpha that is not a number (named test.alpha), a
    step index one past the last."""
    assert with_param(P, "power.effect_size", 0.3).power.effect_size == 0.3
    assert with_param(P, "power.effect_size", 0.3).power.target == 0.8
    st = load_study("examples/laplace_queries.toml")
    src = "examples/laplace_queries.toml"
    _refused(lambda: with_param(st, "alpha", "x"), f"{src}: test.alpha: 'x' is invalid: must be a number")
    _refused(lambda: with_param(st, "steps[1].eps", 0.1), "--param: 'steps[1].eps': the study has 1 steps")


def test_power_fixes_refusal_word_for_word():
    from maxinfo_bounds.planning import power_fixes

    _refused(lambda: power_fixes(S), "<study>: power: missing: the target power is the [power] table's")


def test_solve_for_delta():
    """One (0.01, delta)-DP step on 10,000 i.i.d. records (RRST Thm 3.1): the largest delta whose
    gamma still meets 1e-25, by its defining property (meets it; 10^-8 relative more does not).
    A delta lives in (0, 1): the solve used to check the parameter at 1 and refused every delta
    up front; its default range now starts at 1e-300."""
    from maxinfo_bounds.planning import plan
    from maxinfo_bounds.planning.steps import GenericDP

    st = Study(n=10_000, iid=True, alpha=0.05, steps=(GenericDP(eps=0.01, delta=1e-20),))
    r = solve(st, "delta", 1e-25)
    assert r.direction == "largest" and 1e-16 < r.value < 1e-14
    assert r.plan.gamma >= 1e-25 > plan(with_param(st, "delta", r.value * (1 + 1e-8))).gamma
    assert solve(st, "steps[0].delta", 1e-25, lo=1e-30).value == pytest.approx(r.value, rel=1e-8)


def test_solve_by_a_step_qualified_name_is_an_integer_solve():
    m = solve(S, "steps[0].range_size", 1.1e-6)
    assert m.value == 568 and type(m.value) is int


def test_solve_refusals_name_the_default_range_and_the_better_end():
    """gamma(times = 1) = alpha^2/40 = 6.25e-05 (one 10-way choice); gamma(range_size = 1) = alpha
    (a single output carries no information: k = 0); integers range up to 10^9 runs or 2^40; a
    given range is the one searched; where no point has a valid route, the reason is given."""
    _refused(
        lambda: solve(S, "times", 0.5),
        "--target-gamma: 0.5 is not met for times anywhere in [1, 1000000000]; at the best end, times = 1: "
        "gamma = 6.25e-05",
    )
    _refused(
        lambda: solve(S, "range_size", 0.5),
        "--target-gamma: 0.5 is not met for range_size anywhere in [1, 1099511627776]; at the best end, "
        "range_size = 1: gamma = 0.05",
    )
    with pytest.raises(PlanError) as e:
        solve(S, "alpha", 0.5, lo=0.1, hi=0.9)
    assert str(e.value).startswith(
        "--target-gamma: 0.5 is not met for alpha anywhere in [0.1, 0.9]; at the best end, alpha = 0.9: gamma = "
    )
    with pytest.raises(PlanError) as e:
        solve(S, "alpha", 0.5)
    assert "anywhere in [1e-12, 0.9999999999990905]; at the best end, alpha = 0.9999999999990905" in str(e.value)
    from maxinfo_bounds.planning import Gaussian

    none = Study(
        n=1000,
        iid=False,
        alpha=0.05,
        steps=(Description(range_size=64), Gaussian(sensitivity=1e-5, sigma=1e-3, delta=1e-12)),
    )
    with pytest.raises(PlanError) as e:
        solve(none, "n", 1e-6)
    assert str(e.value).startswith(
        "--target-gamma: 1e-06 is not met for n anywhere in [1, 9007199254740992]; at the best end, n = "
        "9007199254740992: no valid route (no valid route: max-information composition: steps[1] is approximate DP: "
        "RRST Thm 3.1 bounds its max-information only for i.i.d. data and as the first stage"
    )


def test_solve_across_refused_points():
    """A Gaussian count query (sigma = 800, delta = 1e-20) on 10,000 i.i.d. records: RRST Thm 3.1
    refuses alpha <= 1e-15 (its beta floor), so a solve for alpha from 1e-20 starts at a refused
    end, which must count as not meeting the target: the smallest alpha whose gamma meets 1e-60,
    by its defining property."""
    from maxinfo_bounds.planning import Gaussian, NoValidRoute, plan

    st = Study(n=10_000, iid=True, alpha=0.05, steps=(Gaussian(sensitivity=1.0, sigma=800.0, delta=1e-20),))
    with pytest.raises(NoValidRoute):
        plan(with_param(st, "alpha", 1e-20))
    r = solve(st, "alpha", 1e-60, lo=1e-20)
    assert r.direction == "smallest" and 1e-15 < r.value < 0.05
    assert r.plan.gamma >= 1e-60
    try:
        below = plan(with_param(st, "alpha", r.value * (1 - 1e-6))).gamma
    except NoValidRoute:
        below = -1.0
    assert below < 1e-60


def test_solve_default_ranges_by_field():
    """The default ranges the documentation states (docs/planner.md section 4): a step's times up
    to 10^9 runs (also when named steps[0].times), a delta from 1e-300 to 1 - 2^-40, a noise scale
    from 1e-12 to 10^6; each shown with the better end when no point meets the target."""
    from maxinfo_bounds.planning import Laplace
    from maxinfo_bounds.planning.steps import GenericDP

    with pytest.raises(PlanError) as e:
        solve(S, "steps[0].times", 0.5)
    assert str(e.value).startswith("--target-gamma: 0.5 is not met for steps[0].times anywhere in [1, 1000000000];")
    dp = Study(n=10_000, iid=True, alpha=0.05, steps=(GenericDP(eps=0.01, delta=1e-20),))
    with pytest.raises(PlanError) as e:
        solve(dp, "delta", 0.9)
    assert str(e.value).startswith(
        "--target-gamma: 0.9 is not met for delta anywhere in [1e-300, 0.9999999999990905]; at the best end, "
        "delta = 1e-300: gamma = "
    )
    lap = Study(n=1000, iid=False, alpha=0.05, steps=(Laplace(sensitivity=1.0, scale=10.0),))
    with pytest.raises(PlanError) as e:
        solve(lap, "scale", 0.9)
    assert str(e.value).startswith(
        "--target-gamma: 0.9 is not met for scale anywhere in [1e-12, 1000000.0]; at the best end, "
        "scale = 1000000.0: gamma = "
    )
