"""The planner's exact composition: Gaussian DP, the exact mixed accountant, zCDP, steps that
scale with n and overall budgets (issue 41). Expected values come from the one-step plans of
the same mechanism, from brute force written here and from the theorems' own statements."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from maxinfo_bounds.planning import (
    Exponential,
    Gaussian,
    Laplace,
    PlanError,
    PowerSpec,
    Study,
    parse_study,
    plan,
    plan_power,
)
from maxinfo_bounds.planning.accountants import best_composition
from maxinfo_bounds.planning.power import power_at
from maxinfo_bounds.planning.recommend import study_at_n
from maxinfo_bounds.planning.report import plan_json
from maxinfo_bounds.planning.stages import DPStage, stages_of
from maxinfo_bounds.theorems import dp_accounting as dp


def _study(n: int, *steps: object, iid: bool = True) -> Study:
    return Study(n=n, alpha=0.05, iid=iid, steps=tuple(steps))  # type: ignore[arg-type]


@pytest.mark.parametrize("k", [100, 1000])
def test_gaussian_queries_plan_at_the_one_step_figures(k: int) -> None:
    """k adaptive Gaussian queries (n = 10^6, sensitivity 1e-6, sigma = 1) compose exactly to one
    Gaussian step of sensitivity sqrt(k) 1e-6 (DRS22 Cor. 3.3): the two plans agree within 1e-9
    (before exact composition the 100-query plan was refused at this per-step delta, and the
    planner's eps was 2.8-15x the exact one)."""
    many = plan(_study(10**6, Gaussian.from_sigma(1e-6, 1.0, 1e-12, times=k)))
    one = plan(_study(10**6, Gaussian.from_sigma(float(np.sqrt(k) * 1e-6), 1.0, 1e-12)))
    assert many.gamma == pytest.approx(one.gamma, rel=1e-9)
    assert many.gamma > {100: 6e-3, 1000: 3e-5}[k]
    gdp = [c for c in many.chain if "GDP" in c.what]
    assert gdp and gdp[0].theorems == ("DRS22-3.3", "DRS22-2.13")
    mu = dict(gdp[0].values)["mu"]
    assert mu >= np.sqrt(k) * 1e-6 and mu == pytest.approx(np.sqrt(k) * 1e-6, rel=1e-15, abs=0)


def test_mu_one_tenth_study() -> None:
    """100 queries of mu_i = 0.01 (mu = 0.1 in total): the composed eps is the exact GDP one
    (0.6470081259... at total delta 1e-12, 40 digits by bisection on the GDP curve; not the
    6.075 of per-step composition at 1e-10); outside RRST Thm 3.1 (eps > 1/2) at the total
    deltas n = 10^6 allows, but at n = 10 a larger total delta (1e-7, on the fixed grid) brings
    it inside and the study plans."""
    q = Gaussian.from_sigma(1e-6, 1e-4, 1e-10, times=100)
    small = plan(_study(10, q))
    assert small.gamma > 0 and small.route.startswith("tight DP composition")
    with pytest.raises(PlanError) as exc:
        plan(_study(10**6, q))
    text = str(exc.value)
    assert "composed eps 0.647009 > 1/2" in text and "6.075" not in text


def _exact_mixed_eps(eps_pure: float, k: int, mu: float, dt: float) -> mpmath.mpf:
    """Brute force: every sign vector of the k pure steps (2^k terms), the Gaussian part in
    closed form (DRS22 Cor. 2.13 curve at each shifted eps), bisection at 40 digits."""
    with mpmath.workdps(40):
        e, m = mpmath.mpf(eps_pure), mpmath.mpf(mu)
        p = mpmath.exp(e) / (1 + mpmath.exp(e))

        def delta(x: mpmath.mpf) -> mpmath.mpf:
            tot = mpmath.mpf(0)
            for signs in itertools.product((1, -1), repeat=k):
                w = mpmath.fprod(p if s > 0 else 1 - p for s in signs)
                y = x - sum(signs) * e
                tot += w * (mpmath.ncdf(-y / m + m / 2) - mpmath.exp(y) * mpmath.ncdf(-y / m - m / 2))
            return tot

        lo, hi = mpmath.mpf(0), mpmath.mpf(20)
        for _ in range(120):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if delta(mid) > dt else (lo, mid)
        return hi


@pytest.mark.parametrize("dt", [1e-6, 1e-12, 1e-20])
def test_five_laplace_five_gaussian_within_one_percent(dt: float) -> None:
    """5 Laplace steps (eps = 0.05) and 5 Gaussian steps (mu_i = 0.05): the planner's composed
    eps is sound and within 1% of the exact optimum (here within 1e-9: the exact mixed
    accountant); advanced composition, the planner's route before, is 1.5x or more above it."""
    study = _study(10**6, Laplace.from_eps(1e-3, 0.05, times=5), Gaussian.from_sigma(0.05, 1.0, 1e-12, times=5))
    s0 = stages_of(study)[0]
    assert isinstance(s0, DPStage)
    got = best_composition(s0.runs, dt)
    assert got is not None
    g, link = got
    mu_tot = float(mpmath.sqrt(5) * 0.05)
    ref = _exact_mixed_eps(0.05, 5, mu_tot, dt)
    assert g.eps >= ref and g.eps <= ref * 1.01
    assert "MIX-exact" in link.theorems
    pointwise = [(0.05, 0.0)] * 5 + [(dp.gaussian_epsilon(1.0, 0.05, 1e-12), 1e-12)] * 5
    assert dp.compose_dp(pointwise, dt + 1e-11).eps > 1.5 * g.eps


def test_exponential_steps_use_bounded_range_zcdp() -> None:
    """200 exponential-mechanism steps at eps = 0.01: the bounded-range zCDP accountant
    (eps^2/8 each, Cesar-Rogers; CKS20 conversion) beats the optimal composition of 200
    eps-DP steps (KOV15), which treats them as generic pure steps."""
    study = _study(10**6, Exponential.from_eps(0.01, times=200))
    s0 = stages_of(study)[0]
    assert isinstance(s0, DPStage)
    g, link = best_composition(s0.runs, 1e-12) or (None, None)
    assert g is not None and link is not None
    assert "CR21-BR" in link.theorems and "CKS20-12" in link.theorems
    kov = dp.optimal_composition(0.01, 0.0, 200, 1e-12).eps
    assert g.eps < kov
    # the bound itself, from its statement: rho = 200 * 0.01^2 / 8, then CKS20 at any order
    assert g.eps >= dp.zcdp_epsilon(200 * 0.01**2 / 8 * (1 - 1e-12), 1e-12) * (1 - 1e-9)


@pytest.mark.parametrize("seed", range(4))
def test_gamma_is_monotone_in_sigma_eps_and_steps(seed: int) -> None:
    """More noise never lowers gamma; more privacy loss per step or more steps never raises it
    (well separated values: the planner's optimiser tolerance is far below the steps)."""
    rng = np.random.default_rng(seed)
    n = int(rng.choice([10**4, 10**5, 10**6]))
    sens = 1.0 / n
    k = int(rng.integers(2, 50))
    sigma = float(rng.uniform(0.5, 5.0)) * np.sqrt(k) * sens * 1e3 / np.sqrt(n)
    gam = []
    for s in (sigma, 1.5 * sigma, 2.25 * sigma):
        try:
            gam.append(plan(_study(n, Gaussian.from_sigma(sens, float(s), 1e-14, times=k))).gamma)
        except PlanError:
            gam.append(0.0)
    assert gam == sorted(gam)
    gam = []
    for kk in (k, 2 * k, 4 * k):
        try:
            gam.append(plan(_study(n, Gaussian.from_sigma(sens, sigma, 1e-14, times=kk))).gamma)
        except PlanError:
            gam.append(0.0)
    assert gam == sorted(gam, reverse=True)
    gam = []
    e = float(rng.uniform(1e-4, 1e-3))
    for ee in (e, 1.5 * e, 2.25 * e):
        try:
            gam.append(
                plan(_study(n, Laplace.from_eps(sens, ee, times=k), Gaussian.from_sigma(sens, sigma, 1e-14))).gamma
            )
        except PlanError:
            gam.append(0.0)
    assert gam == sorted(gam, reverse=True)


def test_json_carries_the_accountant_and_its_parameters() -> None:
    """``maxinfo plan --json``: the composition line carries mu and the (eps, delta) used."""
    study = _study(10**6, Gaussian.from_sigma(1e-6, 1.0, 1e-12, times=100))
    data = json.loads(json.dumps(plan_json(plan_power(study))))
    gdp = [c for c in data["reuse_plan"]["chain"] if "GDP" in c["what"]]
    assert set(gdp[0]["values"]) == {"mu", "eps", "delta"}
    v = gdp[0]["values"]
    assert v["eps"] == dp.gdp_epsilon(v["mu"], v["delta"])


def test_budget_form_calibrates_sigma_by_exact_composition() -> None:
    """k Gaussian queries at a total (1, 1e-6) budget: sigma = sqrt(k) Delta / mu with mu the
    largest GDP parameter meeting (1, 1e-6); the k queries then compose to eps <= 1 at 1e-6."""
    for k in (1, 25, 400):
        q = Gaussian.from_budget(1e-3, 1.0, 1e-6, times=k)
        sigma = q.noise_sigma(10**6)
        assert sigma == dp.gdp_sigma(1e-3, dp.gdp_mu(1.0, 1e-6), k)
        mu_total = dp.gdp_compose({dp.gaussian_mu(1e-3, sigma): k})
        e = dp.gdp_epsilon(mu_total, 1e-6)
        assert e <= 1.0 * (1 + 1e-12) and e > 1.0 - 1e-6


def test_mean_query_form() -> None:
    """A mean of values in [a, b] over n records has sensitivity (b - a)/n, exactly, and follows n."""
    q = Laplace.mean(-1.0, 3.0, scale=0.5, times=10)
    assert q.sensitivity_at(1000) == Fraction(4, 1000)
    assert q.guarantee(1000).eps == dp.laplace_epsilon(Fraction(4, 1000), 0.5)
    assert q.guarantee(4000).eps < q.guarantee(1000).eps
    assert q.depends_on_n and not Laplace.mean(0.0, 1.0, scale=0.5, records=50).depends_on_n
    with pytest.raises(PlanError, match="value_max"):
        Laplace.mean(1.0, 1.0, scale=0.5)
    with pytest.raises(PlanError, match="records"):
        Laplace(sensitivity=0.1, scale=1.0, records=10)
    with pytest.raises(PlanError):
        Gaussian(value_min=0.0, value_max=1.0, sigma=1.0)  # no delta: not a form
    text = """
[data]
n = 1000
iid = true
[[steps]]
type = "gaussian"
value_min = 0
value_max = 1
total_eps = 0.5
total_delta = 1e-8
times = 10
[test]
alpha = 0.05
"""
    import tomllib

    st = parse_study(tomllib.loads(text))
    step = st.steps[0]
    assert isinstance(step, Gaussian) and step.sensitivity_at(st.n) == Fraction(1, 1000)


def test_required_n_of_a_mean_query_study_is_the_brute_force_answer() -> None:
    """The required n of a mean-query study (sensitivity 1/n, re-evaluated at every n) reaches
    the target, and none of the 25 n below it does (each recomputed by a full plan)."""
    sp = PowerSpec("z", 0.02, target=0.8)
    st = Study(n=100_000, alpha=0.05, iid=True, steps=(Laplace.mean(0.0, 1.0, scale=0.05, times=50),), power=sp)
    row = plan_power(st).rows[0]
    r = row.required_n
    assert r is not None and "proven" in row.required_n_note and "not proven" not in row.required_n_note

    def power(n: int) -> float:
        return power_at(sp, plan(study_at_n(st, n)).gamma, n)

    assert power(r) >= 0.8
    assert all(power(m) < 0.8 for m in range(r - 25, r))


def _entries(*steps: object, dt: float = 1e-10) -> dict[str, tuple]:
    """Each accountant's (guarantee, link) for the first stage of the study, by its line."""
    from maxinfo_bounds.planning.accountants import _candidates

    runs = stages_of(_study(1000, *steps))[0].runs
    return {link.what: (g, link) for g, link in _candidates(runs, dt, True)}


def test_exact_mixed_composition_counts_repeated_eps() -> None:
    """Pure runs of the same eps from different steps add up: 2 Laplace and 3 generic runs at
    eps = 0.01 beside a Gaussian step are 5 randomized responses of 0.01 plus mu = 1e-3 GDP.
    The printed eps is on the safe side of the exact curve for k = 5 (fuzz references, 50
    digits) and within 1e-9 of its root."""
    from maxinfo_bounds.planning import GenericDP
    from proofs_checks.fuzz import references as R

    g, link = _entries(
        Laplace(eps=0.01, sensitivity=1e-3, times=2),
        GenericDP(eps=0.01, times=3),
        Gaussian(sigma=1.0, sensitivity=1e-3, delta=1e-9),
    )["exact composition of the stage (pure and Gaussian steps)"]
    assert link.inputs.startswith("6 runs: pure eps [0.01], Gaussian mu = ")
    assert link.theorems == ("MIX-exact", "DRS22-3.3") and g.theorem == "MIX-exact" and g.conditions == ()
    assert link.conditions == ("pure steps dominated by randomized response, Gaussian steps by GDP",)
    with mpmath.workdps(50):
        mu = mpmath.mpf(1e-3) / 1
        assert R.mixed_delta(mpmath.mpf(0.01), 5, mu, mpmath.mpf(g.eps)) <= mpmath.mpf(1e-10)
        exact = R.mixed_eps(mpmath.mpf(0.01), 5, mu, mpmath.mpf(1e-10))
        assert exact <= g.eps <= exact * (1 + mpmath.mpf(1e-9))


def test_exact_composition_of_pure_runs_has_no_gaussian_part() -> None:
    """Heterogeneous pure runs alone (2 x 0.01 and 1 x 0.02, no Gaussian step): the exact curve is
    the randomized responses' alone (mu = 0); the printed eps is within 1e-9 of its root, hand
    computed as the smallest eps with sum over sign patterns of P (1 - e^(eps - L))_+ <= delta."""
    from maxinfo_bounds.planning import GenericDP

    g, link = _entries(GenericDP(eps=0.01, times=2), GenericDP(eps=0.02))[
        "exact composition of the stage (pure and Gaussian steps)"
    ]
    assert link.inputs == "3 runs: pure eps [0.01, 0.02]" and link.theorems == ("MIX-exact",)

    def delta_at(e: mpmath.mpf) -> mpmath.mpf:
        tot = mpmath.mpf(0)
        for signs in itertools.product((1, -1), repeat=3):
            eps = (mpmath.mpf(0.01), mpmath.mpf(0.01), mpmath.mpf(0.02))
            p = mpmath.fprod(
                mpmath.exp(x) / (1 + mpmath.exp(x)) if s == 1 else 1 / (1 + mpmath.exp(x)) for s, x in zip(signs, eps)
            )
            loss = mpmath.fsum(s * x for s, x in zip(signs, eps))
            tot += p * max(mpmath.mpf(0), 1 - mpmath.exp(e - loss))
        return tot

    with mpmath.workdps(50):
        assert delta_at(mpmath.mpf(g.eps)) <= mpmath.mpf(1e-10)
        root = mpmath.findroot(
            lambda e: delta_at(e) - mpmath.mpf(1e-10), (mpmath.mpf(0.035), mpmath.mpf(0.04)), solver="bisect"
        )
        assert root <= g.eps <= root * (1 + mpmath.mpf(1e-9))


def test_exact_mixed_composition_is_capped_at_2000_patterns() -> None:
    """The exact mixed accountant runs up to 2,000 sign-count patterns (docs/planner.md): three
    pure eps with 20 runs each have 21^3 = 9,261 and are left to the other accountants."""
    from maxinfo_bounds.planning import GenericDP

    got = _entries(GenericDP(eps=0.01, times=20), GenericDP(eps=0.02, times=20), GenericDP(eps=0.03, times=20))
    assert "exact composition of the stage (pure and Gaussian steps)" not in got
    assert "advanced DP composition of the stage" in got


def test_exact_mixed_composition_runs_at_exactly_2000_patterns() -> None:
    """39 runs of 0.01 and 49 of 0.02: 40 x 50 = 2,000 sign-count patterns, the cap itself."""
    from maxinfo_bounds.planning import GenericDP

    got = _entries(GenericDP(eps=0.01, times=39), GenericDP(eps=0.02, times=49))
    assert "exact composition of the stage (pure and Gaussian steps)" in got


def test_accountants_out_of_range_are_left_out_not_raised() -> None:
    """A Gaussian step of mu = 2e6 (sigma = 5e-7 on sensitivity 1) beside a Laplace step: its
    rho = mu^2/2 = 2e12 is above the zCDP conversion's range (1e12), so the zCDP accountant is
    left out (not an error) and the exact mixed one answers."""
    got = _entries(Laplace(eps=0.01, sensitivity=1e-3), Gaussian(sigma=5e-7, sensitivity=1.0, delta=1e-9))
    assert "zCDP composition of the stage" not in got
    assert "exact composition of the stage (pure and Gaussian steps)" in got


def test_advanced_composition_counts_runs_with_the_same_guarantee() -> None:
    """Two steps of (0.01, 0)-DP and one of (0.02, 0)-DP: advanced composition (DR Thm 3.20, taken
    with basic composition's minimum) is exactly basic's 0.04 here, since at delta' = 1e-10
    sqrt(2 ln(1e10) (2 * 0.01^2 + 0.02^2)) = 0.166 > 0.04: every run counted. Its line names
    the runs and its conditions."""
    from maxinfo_bounds.planning import GenericDP

    g, link = _entries(Laplace(eps=0.01, sensitivity=1e-3), GenericDP(eps=0.01), GenericDP(eps=0.02))[
        "advanced DP composition of the stage"
    ]
    assert 0.04 <= g.eps <= 0.04 * (1 + 2**-50) and g.delta == 1e-10
    assert link.inputs == "3 runs" and link.output == "(0.04, 1e-10)-DP"
    assert link.conditions == ("3 adaptive steps", "delta' = 1e-10", "min with basic composition")


def test_gaussian_composition_line_and_guarantee() -> None:
    """Gaussian steps only: exact GDP composition (DRS22 Cor. 3.3) read on its curve (Cor. 2.13);
    the guarantee names DRS22-3.3 and mu, the line the two results and why it is exact."""
    g, link = _entries(Gaussian(sigma=1.0, sensitivity=1e-3, delta=1e-9, times=4))[
        "exact Gaussian composition of the stage (GDP)"
    ]
    assert g.theorem == "DRS22-3.3" and g.conditions == ("mu = 0.00200001 (exact composition)",)
    assert link.theorems == ("DRS22-3.3", "DRS22-2.13")
    assert link.conditions == ("adaptive composition of Gaussian steps is exact",)
    from maxinfo_bounds.planning.stages import text_up

    assert (
        link.output == f"({text_up(g.eps)}, 1e-10)-DP" and link.inputs == "4 runs, mu = sqrt(sum mu_i^2) = 0.00200001"
    )


def test_gaussian_step_line_shows_the_values_the_step_does_not_state() -> None:
    """A Gaussian step's derivation line (stages.step_dp): mu = sensitivity/sigma, and the
    sensitivity and sigma themselves where the step does not state them (sigma calibrated from a
    budget, or a mean query whose sensitivity follows n). The budget form's sigma is sqrt(times)
    sensitivity/mu with mu the GDP parameter at (total_eps, total_delta) (DRS22 Cor. 2.13, 3.3),
    here at 50 digits: four queries of sensitivity 1/1000 at (1, 1e-6) in total."""
    from maxinfo_bounds.planning.stages import step_dp
    from proofs_checks.fuzz import references as R

    def line(st: Gaussian) -> tuple[str, float]:
        run, link = step_dp(_study(1000, st), 0, st)
        assert run.gaussian is not None
        return link.output, run.gaussian[1]

    assert (
        line(Gaussian(sensitivity=1e-3, sigma=1.0, delta=1e-9))[0] == "0.00100001-GDP per run (mu = sensitivity/sigma)"
    )
    assert (
        line(Gaussian.mean(0.0, 1.0, sigma=0.5, delta=1e-9))[0]
        == "0.002-GDP per run (mu = sensitivity/sigma, sensitivity = 0.001, sigma = 0.5)"
    )
    with mpmath.workdps(50):
        hand = 2 * mpmath.mpf(1) / 1000 / R.gdp_mu(mpmath.mpf(1), mpmath.mpf(1e-6))
    for st in (
        Gaussian.from_budget(1e-3, 1.0, 1e-6, times=4),
        Gaussian.mean(0.0, 1.0, total_eps=1.0, total_delta=1e-6, times=4),
    ):
        out, sigma = line(st)
        assert hand <= sigma <= hand * (1 + mpmath.mpf(1e-9))
        assert out == "0.118353-GDP per run (mu = sensitivity/sigma, sensitivity = 0.001, sigma = 0.00844936)"


def test_step_lines_name_the_step_and_its_conditions() -> None:
    """The other steps' lines: the label the study file uses, the inputs as given, the
    guarantee per run, and the calibration theorem's conditions (monotone scores halve the
    exponential mechanism's eps)."""
    from maxinfo_bounds.planning import Exponential
    from maxinfo_bounds.planning.stages import step_dp

    g = Gaussian(sensitivity=1e-3, sigma=1.0, delta=1e-9)
    e = Exponential(sensitivity=1.0, coefficient=0.01, monotone=True)
    st = _study(1000, Laplace(sensitivity=1e-3, scale=0.1), g, e)
    _, lg = step_dp(st, 1, g)
    assert lg.what == "steps[1] (gaussian)" and lg.inputs == "sensitivity=0.001, delta=1e-09, sigma=1.0"
    _, le = step_dp(st, 2, e)
    assert le.what == "steps[2] (exponential)" and le.inputs == "sensitivity=1.0, coefficient=0.01, monotone=True"
    assert le.output == "(0.01, 0.0)-DP per run" and le.conditions == ("monotone scores",)


def test_a_step_outside_its_calibration_names_the_file_and_step() -> None:
    """A Gaussian step whose analytic calibration leaves the GDP range (mu above 1e7): refused,
    naming the file and the step as the file numbers it."""
    doc = {
        "data": {"n": 1000, "iid": True},
        "test": {"alpha": 0.05},
        "steps": [
            {"type": "description", "range_size": 2},
            {"type": "gaussian", "sensitivity": 1.0, "eps": 1e300, "delta": 1e-9},
        ],
    }
    with pytest.raises(PlanError) as exc:
        plan(parse_study(doc, "f.toml"))
    assert str(exc.value).startswith("f.toml: steps[1]: sigma=") and "must be at least sensitivity/1e+07" in str(
        exc.value
    )


def test_zcdp_composition_line_and_guarantee() -> None:
    """zCDP (Bun-Steinke Lemma 1.7: rho adds up) converted by CKS20 Prop. 12: the guarantee
    names CKS20-12 and rho, the line why the composition holds."""
    from maxinfo_bounds.planning import Exponential
    from maxinfo_bounds.planning.stages import text_up

    g, link = _entries(Exponential(eps=0.01, times=3))["zCDP composition of the stage"]
    assert g.theorem == "CKS20-12" and g.conditions == (f"rho = {text_up(3 * 0.01**2 / 8)}",)
    assert link.conditions == ("zCDP composes additively (Bun-Steinke Lemma 1.7)",)


def test_stage_lines_number_the_steps_and_mark_repetitions() -> None:
    """stages_of: each step's line is named as the study file numbers it, and a step run more
    than once says so (", x2 adaptively"); once, it says nothing."""
    st = _study(1000, Laplace(sensitivity=1e-3, scale=0.1), Laplace(sensitivity=1e-3, scale=0.1, times=2))
    links = stages_of(st)[0].links
    assert links[0].what == "steps[0] (laplace)" and links[0].output == "(0.01, 0.0)-DP per run"
    assert links[1].what == "steps[1] (laplace)" and links[1].output == "(0.01, 0.0)-DP per run, x2 adaptively"


def test_mutual_information_stage_line_and_total() -> None:
    """A mutual-information step run 3 times: the chain rule's total 0.3 bits, rounded up, and
    its line; the correction's gamma shown rounded down to six digits (0.0123456789 shows as
    0.0123456, never 0.0123457)."""
    from fractions import Fraction

    from maxinfo_bounds.planning import MutualInformation
    from maxinfo_bounds.planning.stages import text_down

    s = stages_of(Study(n=1000, alpha=0.05, steps=(MutualInformation(mi_bits=0.1, times=3),)))[0]
    assert Fraction(3) * Fraction(0.1) <= Fraction(s.mi_bits) <= Fraction(3) * Fraction(0.1) * (1 + Fraction(1, 2**50))
    (link,) = s.links
    assert s.steps == (0,)
    assert link.what == "steps[0] (mutual_information)" and link.theorems == ("RRST-1.5a",)
    assert link.inputs == "mi_bits=0.1, times=3" and link.output == "I <= 0.300001 bits (chain rule)"
    assert text_down(0.0123456789) == "0.0123456" and text_down(1 / 3) == "0.333333" and text_down(0.1) == "0.1"


def test_optimal_composition_line_names_its_conditions() -> None:
    """KOV15 Thm 3.3 on identical runs: the line says how many runs of which guarantee and that
    they are homogeneous (the theorem's condition)."""
    from maxinfo_bounds.planning import Exponential

    g, link = _entries(Exponential(eps=0.01, times=3))["optimal DP composition of the stage"]
    assert link.inputs == "3 x (0.01, 0.0)" and link.theorems == ("KOV15-3.3",)
    assert link.conditions == ("3 adaptive steps, each (0.01, 0.0)-DP", "homogeneous steps") == g.conditions


def test_consecutive_descriptions_are_one_stage() -> None:
    """Description steps in a row are one stage of the product of their outputs (DFHPRR Thm 6 on
    the joint output), each with its own line."""
    from maxinfo_bounds.planning import Description

    (s,) = stages_of(Study(n=100, alpha=0.05, steps=(Description(range_size=4), Description(range_size=3, times=2))))
    assert s.steps == (0, 1) and s.range_size == 36
    assert [link.what for link in s.links] == ["steps[0] (description)", "steps[1] (description)"]
    assert [link.output for link in s.links] == ["4 possible outputs", "9 possible outputs"]
    assert s.links[1].inputs == "range_size=3, times=2"
