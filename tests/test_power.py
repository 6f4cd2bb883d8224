"""Power planning: the power of the final test (against independent formulas, published
sample sizes and Monte Carlo), the required-n search (against brute force), the recommendation
(valid, most powerful) and the [power] table's bad input."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from fractions import Fraction as F
from pathlib import Path

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from maxinfo_bounds.cli import main
from maxinfo_bounds.planning import (
    Description,
    Gaussian,
    GenericDP,
    Laplace,
    MutualInformation,
    PlanError,
    PowerSpec,
    Study,
    Thresholdout,
    load_study,
    parse_study,
    plan,
    plan_power,
    power_at,
)
from maxinfo_bounds.planning.power import power_upper

from .cli_helpers import assert_one_line_error

EX = Path(__file__).resolve().parents[1] / "examples"


def _study(spec, *steps, n=1000, iid=True, alpha=0.05, family_size=None):
    steps = steps or (Description(range_size=1),)
    return Study(n=n, iid=iid, alpha=alpha, steps=tuple(steps), power=spec, family_size=family_size)


# --- the power of each test against formulas written here from the textbook definitions ------


def _z_power(d, n, g, alt):
    z = stats.norm
    s = d * math.sqrt(n)
    if alt == "larger":
        return z.sf(z.isf(g) - s)
    if alt == "smaller":
        return z.cdf(-z.isf(g) - s)
    c = z.isf(g / 2)
    return z.sf(c - s) + z.cdf(-c - s)


def _t_power(d, n, g, alt, two_sample=False):
    if two_sample:
        n1, n2 = n // 2, n - n // 2
        df, nc = n - 2, d * math.sqrt(n1 * n2 / n)
    else:
        df, nc = n - 1, d * math.sqrt(n)
    if alt == "larger":
        return stats.nct.sf(stats.t.isf(g, df), df, nc)
    if alt == "smaller":
        return stats.nct.cdf(-stats.t.isf(g, df), df, nc)
    c = stats.t.isf(g / 2, df)
    return stats.nct.sf(c, df, nc) + stats.nct.cdf(-c, df, nc)


@pytest.mark.parametrize("alt", ["two-sided", "larger"])
@pytest.mark.parametrize("d,n,g", [(0.2, 100, 0.025), (0.05, 5000, 1e-6), (0.5, 30, 0.05), (0.01, 10**5, 1e-9)])
def test_z_and_t_power_against_textbook_formulas(alt, d, n, g):
    assert power_at(PowerSpec("z", d, alt), g, n) == pytest.approx(_z_power(d, n, g, alt), rel=1e-9, abs=0)
    assert power_at(PowerSpec("t", d, alt), g, n) == pytest.approx(_t_power(d, n, g, alt), rel=1e-7, abs=0)
    want_t2 = _t_power(d, n, g, alt, two_sample=True)
    assert power_at(PowerSpec("t2", d, alt), g, n) == pytest.approx(want_t2, rel=1e-7, abs=0)


@pytest.mark.parametrize("alt", ["two-sided", "larger", "smaller"])
@pytest.mark.parametrize("d,n,g", [(0.3, 40, 0.05), (0.1, 500, 1e-4), (0.02, 20_000, 1e-7)])
def test_power_agrees_with_statsmodels(alt, d, n, g):
    from statsmodels.stats.power import NormalIndPower, TTestIndPower, TTestPower

    d = -d if alt == "smaller" else d
    assert power_at(PowerSpec("t", d, alt), g, n) == pytest.approx(
        TTestPower().power(effect_size=d, nobs=n, alpha=g, alternative=alt), rel=1e-9
    )
    assert power_at(PowerSpec("t2", d, alt), g, 2 * n) == pytest.approx(
        TTestIndPower().power(effect_size=d, nobs1=n, ratio=1.0, alpha=g, alternative=alt), rel=1e-9, abs=0
    )
    assert power_at(PowerSpec("z", d, alt), g, n) == pytest.approx(
        NormalIndPower().power(effect_size=d, nobs1=n, ratio=0.0, alpha=g, alternative=alt), rel=1e-12
    )


def test_t_power_finite_where_scipy_tails_are_nan():
    # scipy's nct.cdf gives NaN for this far lower tail; the power is still ~1 and finite
    p = power_at(PowerSpec("t", 0.01), 0.05, 10**6)
    assert p == pytest.approx(_z_power(0.01, 10**6, 0.05, "two-sided"), rel=1e-6)


def test_z_power_by_hand():
    # 1 - Phi(z_{0.975} - 0.2 * 10) = Phi(0.040036) = 0.515967 (tables)
    assert power_at(PowerSpec("z", 0.2, "larger"), 0.025, 100) == pytest.approx(0.515967, abs=2e-6)
    assert power_at(PowerSpec("z", -0.2, "smaller"), 0.025, 100) == pytest.approx(0.515967, abs=2e-6)
    assert power_at(PowerSpec("z", 0.2), 0.0, 100) == 0.0  # gamma = 0: never rejects


def _binom_power_bruteforce(n, p0, p1, g, alt):
    """Exact binomial test by enumeration of all outcomes in 50-digit arithmetic: the
    rejection region is the largest tail(s) of null probability <= g (each tail g/2 when
    two-sided); the power is its probability under p1."""
    with mpmath.workdps(50):
        P0 = [mpmath.binomial(n, x) * mpmath.mpf(p0) ** x * (1 - mpmath.mpf(p0)) ** (n - x) for x in range(n + 1)]
        P1 = [mpmath.binomial(n, x) * mpmath.mpf(p1) ** x * (1 - mpmath.mpf(p1)) ** (n - x) for x in range(n + 1)]
        lv = mpmath.mpf(g) / 2 if alt == "two-sided" else mpmath.mpf(g)
        rej = set()
        if alt in ("two-sided", "larger"):
            c = n + 1
            while c - 1 >= 0 and mpmath.fsum(P0[c - 1 :]) <= lv:
                c -= 1
            rej |= set(range(c, n + 1))
        if alt in ("two-sided", "smaller"):
            c = -1
            while c + 1 <= n and mpmath.fsum(P0[: c + 2]) <= lv:
                c += 1
            rej |= set(range(0, c + 1))
        return float(mpmath.fsum(P1[x] for x in rej))


@pytest.mark.parametrize("alt", ["two-sided", "larger", "smaller"])
@pytest.mark.parametrize(
    "n,p0,eff,g", [(20, 0.5, 0.2, 0.05), (57, 0.3, 0.15, 0.01), (120, 0.65, 0.15, 1e-4), (9, 0.6, 0.35, 0.1)]
)
def test_exact_binomial_power_against_enumeration(alt, n, p0, eff, g):
    eff = -eff if alt == "smaller" else eff
    spec = PowerSpec("proportion", eff, alt, p0=p0)
    assert power_at(spec, g, n) == pytest.approx(_binom_power_bruteforce(n, p0, p0 + eff, g, alt), rel=1e-9, abs=1e-15)


def test_power_upper_bounds_the_power_on_the_box():
    """power_upper(γ_hi, a, b) >= power(γ, n) for every γ <= γ_hi and n in [a, b] (brute force
    over a box), for every test kind, including the non-monotone exact binomial."""
    specs = [
        PowerSpec("z", 0.3),
        PowerSpec("t", 0.3, "larger"),
        PowerSpec("t2", 0.5),
        PowerSpec("proportion", 0.1, p0=0.4),
        PowerSpec("proportion", 0.1, "larger", p0=0.4),
        PowerSpec("proportion", -0.1, "smaller", p0=0.4),
    ]
    for spec in specs:
        for a, b in [(10, 30), (40, 47), (100, 160)]:
            for g_hi in (0.05, 1e-3):
                ub = power_upper(spec, g_hi, a, b)
                worst = max(power_at(spec, g, n) for n in range(a, b + 1) for g in (g_hi, g_hi / 3, g_hi / 17))
                assert ub >= worst - 1e-12, (spec, a, b, g_hi)


# --- published sample sizes ---------------------------------------------------------------


@pytest.mark.parametrize(
    "test,d,alt,expected",
    [
        # Cohen (1988), Table 2.4.1 / G*Power 3 manual (t tests, two independent means): d = 0.5,
        # alpha = 0.05 two-sided, power 0.8: 64 per group; d = 0.8: 26; d = 0.2: 394 (pwr: 393.4)
        ("t2", 0.5, "two-sided", 128),
        ("t2", 0.8, "two-sided", 52),
        # pwr.t.test(d = 0.5, power = 0.8, type = "one.sample"): n = 33.37 -> 34
        ("t", 0.5, "two-sided", 34),
        # z, one-sided: n = ((z_0.95 + z_0.8) / d)^2 = (2.486475 / 0.5)^2 = 24.73 -> 25 (hand)
        ("z", 0.5, "larger", 25),
    ],
)
def test_required_n_matches_published_sample_sizes(test, d, alt, expected):
    # a one-output analysis: the union bound over 1 output is alpha itself on all n
    pp = plan_power(_study(PowerSpec(test, d, alt)))
    row = next(r for r in pp.rows if r.kind == "union")
    assert row.threshold == 0.05 and row.required_n == expected


def test_required_n_two_sample_d02_is_393_or_394_per_group():
    pp = plan_power(_study(PowerSpec("t2", 0.2)))
    row = next(r for r in pp.rows if r.kind == "union")
    assert row.required_n in (787, 788)  # groups (393, 394): power 0.80005; pwr: 393.4 each
    assert power_at(PowerSpec("t2", 0.2), 0.05, row.required_n - 1) < 0.8


# --- Monte Carlo ---------------------------------------------------------------------------


def _cp(k, n, level=0.999):
    a = (1 - level) / 2
    lo = 0.0 if k == 0 else stats.beta.ppf(a, k, n - k + 1)
    hi = 1.0 if k == n else stats.beta.ppf(1 - a, k + 1, n - k)
    return lo, hi


def _simulate(spec, g, n, reps, rng):
    d = spec.effect_size
    if spec.test == "z":
        xbar = rng.normal(d, 1 / math.sqrt(n), size=reps)
        z = xbar * math.sqrt(n)
        p = {"larger": stats.norm.sf(z), "smaller": stats.norm.cdf(z), "two-sided": 2 * stats.norm.sf(abs(z))}[
            spec.alternative
        ]
    elif spec.test == "t":
        x = rng.normal(d, 1.0, size=(reps, n))
        p = stats.ttest_1samp(
            x,
            0.0,
            axis=1,
            alternative={"two-sided": "two-sided", "larger": "greater", "smaller": "less"}[spec.alternative],
        ).pvalue
    elif spec.test == "t2":
        n1 = n // 2
        x = rng.normal(d, 1.0, size=(reps, n1))
        y = rng.normal(0.0, 1.0, size=(reps, n - n1))
        p = stats.ttest_ind(
            x,
            y,
            axis=1,
            alternative={"two-sided": "two-sided", "larger": "greater", "smaller": "less"}[spec.alternative],
        ).pvalue
    else:
        x = rng.binomial(n, spec.p1, size=reps)
        # the exact binomial test's rejection region, computed from the null by scipy alone
        ks = np.arange(n + 1)
        up = stats.binom.sf(ks - 1, n, spec.p0)  # P0(X >= k)
        lo = stats.binom.cdf(ks, n, spec.p0)  # P0(X <= k)
        lv = g / 2 if spec.alternative == "two-sided" else g
        rej = np.zeros(n + 1, bool)
        if spec.alternative != "smaller":
            rej |= up <= lv
        if spec.alternative != "larger":
            rej |= lo <= lv
        return int(rej[x].sum())
    return int((p <= g).sum())


@pytest.mark.parametrize(
    "spec,g,n",
    [
        (PowerSpec("z", 0.2), 0.01, 200),
        (PowerSpec("z", 0.1, "larger"), 1e-3, 900),
        (PowerSpec("z", -0.3, "smaller"), 0.05, 40),
        (PowerSpec("t", 0.4), 0.01, 30),
        (PowerSpec("t", 0.25, "larger"), 0.05, 60),
        (PowerSpec("t", 0.8), 1e-3, 12),
        (PowerSpec("t2", 0.5), 0.05, 60),
        (PowerSpec("t2", 0.6, "larger"), 0.01, 50),
        (PowerSpec("t2", 1.0), 1e-3, 30),
        (PowerSpec("proportion", 0.15, "larger", p0=0.5), 0.05, 50),
        (PowerSpec("proportion", 0.1, p0=0.3), 0.01, 200),
        (PowerSpec("proportion", -0.2, "smaller", p0=0.6), 1e-3, 80),
    ],
)
def test_power_against_monte_carlo(spec, g, n):
    reps = 20_000
    rng = np.random.default_rng(20261123)
    k = _simulate(spec, g, n, reps, rng)
    lo, hi = _cp(k, reps)
    assert lo <= power_at(spec, g, n) <= hi, (k / reps, power_at(spec, g, n))


# --- required n for a route whose gamma depends on n --------------------------------------


def test_required_n_for_a_dp_route_is_the_smallest_on_a_brute_force_grid():
    """eps = 0.3 per run on i.i.d. data: gamma(n) falls with n (RRST 1.4's eps^2 n term), so
    more records raise the statistic and lower the threshold at once. The search's answer is
    checked against every n below it (brute force)."""
    spec = PowerSpec("z", 0.5, "larger")
    s = _study(spec, GenericDP(eps=0.3), n=100)
    pp = plan_power(s)
    row = next(r for r in pp.rows if r.kind == "reuse")
    nstar = row.required_n
    assert nstar is not None and 2 < nstar < 1000
    gammas = [plan(replace(s, n=m)).gamma for m in range(1, nstar + 1)]
    assert gammas[0] > 10 * gammas[-1]  # gamma really depends on n here
    powers = [power_at(spec, g, m) for m, g in zip(range(1, nstar + 1), gammas)]
    assert powers[-1] >= 0.8 and max(powers[:-1]) < 0.8


def test_required_n_none_when_no_n_reaches_the_target():
    # eps = 0.5 per run: gamma(n) ~ alpha e^{-eps n} falls faster than the z statistic grows
    spec = PowerSpec("z", 0.05, "larger")
    pp = plan_power(_study(spec, GenericDP(eps=0.5), n=1000, iid=False))
    row = next(r for r in pp.rows if r.kind == "reuse")
    assert row.required_n is None and "no n <=" in row.required_n_note
    grid = [int(x) for x in np.unique(np.geomspace(1, 10**7, 200).round())]
    assert max(power_at(spec, plan(_study(spec, GenericDP(eps=0.5), n=m, iid=False)).gamma, m) for m in grid) < 0.8


def test_thresholdout_required_n_increases_gamma_with_n():
    s = load_study(EX / "thresholdout_model_search.toml")
    s = replace(s, power=PowerSpec("t", 0.005))
    pp = plan_power(s)
    row = next(r for r in pp.rows if r.kind == "reuse")
    n = row.required_n
    assert n is not None and "proven" in row.required_n_note
    from maxinfo_bounds.planning.recommend import study_at_n

    assert power_at(s.power, plan(study_at_n(s, n)).gamma, n) >= 0.8
    assert power_at(s.power, plan(study_at_n(s, n - 1)).gamma, n - 1) < 0.8


# --- the recommendation ---------------------------------------------------------------------


def test_select_one_of_1000_recommends_bonferroni():
    pp = plan_power(load_study(EX / "select_one_of_1000.toml"))
    assert pp.recommended.kind == "bonferroni" and pp.recommended.threshold == 5e-05
    split = next(r for r in pp.rows if r.kind == "split")
    assert not split.valid and "not i.i.d." in split.note  # iid = false: no splitting


def test_laplace_example_with_power_compares_reuse_and_splitting():
    s = load_study(EX / "laplace_queries.toml")
    # a small effect: reuse on all 10^6 records beats half the records at alpha
    pp = plan_power(replace(s, power=PowerSpec("t", 0.005)))
    rows = {r.kind: r for r in pp.rows}
    assert pp.recommended.kind == "reuse"
    assert rows["reuse"].power > rows["split"].power
    assert rows["split"].test_records == 500_000


@settings(max_examples=15, deadline=None)
@given(
    eps=st.floats(1e-5, 0.05),
    d=st.floats(0.003, 0.3),
    n=st.integers(100, 10**6),
    iid=st.booleans(),
    fam=st.one_of(st.none(), st.integers(2, 10**4)),
)
def test_recommendation_is_valid_and_most_powerful(eps, d, n, iid, fam):
    s = _study(PowerSpec("z", d), GenericDP(eps=eps), n=n, iid=iid, family_size=fam)
    pp = plan_power(s)
    assert pp.recommended.valid
    for r in pp.rows:
        if r.valid:
            # compared as printed (issue 43): a tie at 4 digits goes to the smaller required n
            assert round(pp.recommended.power, 4) >= round(r.power, 4)
            if round(pp.recommended.power, 4) == round(r.power, 4) and r.required_n is not None:
                assert pp.recommended.required_n is not None and pp.recommended.required_n <= r.required_n
        if r.kind == "split":
            assert r.valid == iid


@settings(max_examples=25, deadline=None)
@given(
    test=st.sampled_from(["z", "t", "t2"]),
    d=st.floats(0.01, 1.0),
    n=st.integers(4, 10**5),
    g1=st.floats(1e-12, 0.5),
    g2=st.floats(1e-12, 0.5),
)
def test_power_monotone_in_threshold(test, d, n, g1, g2):
    spec = PowerSpec(test, d)
    lo, hi = sorted((g1, g2))
    assert power_at(spec, lo, n) <= power_at(spec, hi, n) + 1e-12


# --- CLI, JSON, plot, bad input -------------------------------------------------------------


def test_cli_power_json_and_curve(tmp_path, capsys):
    f = tmp_path / "s.toml"
    f.write_text((EX / "laplace_queries.toml").read_text() + '\n[power]\ntest = "t"\neffect_size = 0.005\n')
    png = tmp_path / "curve.png"
    assert main(["plan", str(f), "--json", "--power-curve", str(png)]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["recommended"]["kind"] == "reuse"
    assert {"threshold_p_value", "power_at_study_n", "required_n_records", "test_records"} <= set(d["recommended"])
    assert png.stat().st_size > 10_000 and png.read_bytes()[:4] == b"\x89PNG"
    assert main(["plan", str(f)]) == 0
    out = capsys.readouterr().out
    assert "recommended: adaptive reuse" in out and "required n" in out


@pytest.mark.parametrize(
    "table,needle",
    [
        ('test = "z"\neffect_size = 0.1\nfoo = 1', "power.foo"),
        ('test = "anova"\neffect_size = 0.1', "power.test"),
        ("effect_size = 0.1", "power.test"),
        ('test = "z"', "power.effect_size"),
        ('test = "z"\neffect_size = 0', "power.effect_size"),
        ('test = "z"\neffect_size = "big"', "power.effect_size"),
        ('test = "z"\neffect_size = 0.1\ntarget = 1.5', "power.target"),
        ('test = "z"\neffect_size = 0.1\ntarget = 0', "power.target"),
        ('test = "z"\neffect_size = 0.1\nalternative = "greater"', "power.alternative"),
        ('test = "z"\neffect_size = -0.1\nalternative = "larger"', "power.effect_size"),
        ('test = "z"\neffect_size = 0.1\np0 = 0.5', "power.p0"),
        ('test = "proportion"\neffect_size = 0.1', "power.p0"),
        ('test = "proportion"\neffect_size = 0.6\np0 = 0.5', "power.effect_size"),
        ('test = "z"\neffect_size = 0.1\nsplit_fraction = 1', "power.split_fraction"),
        ('test = "z"\neffect_size = nan', "power.effect_size"),
        ("test = 3\neffect_size = 0.1", "power.test"),
    ],
)
def test_bad_power_tables(tmp_path, table, needle):
    f = tmp_path / "bad.toml"
    f.write_text((EX / "select_one_of_1000.toml").read_text() + "\n[power]\n" + table + "\n")
    with pytest.raises(PlanError, match=needle.replace(".", r"\.")):
        load_study(f)
    assert_one_line_error("maxinfo_bounds.cli", ["plan", str(f)], needle)


def test_power_curve_needs_a_power_table(tmp_path):
    assert_one_line_error(
        "maxinfo_bounds.cli",
        ["plan", str(EX / "select_one_of_1000.toml"), "--power-curve", str(tmp_path / "x.png")],
        "power",
    )
    assert not (tmp_path / "x.png").exists()


def test_parse_power_defaults():
    s = parse_study(
        {
            "data": {"n": 10, "iid": True},
            "test": {"alpha": 0.05},
            "steps": [{"type": "description", "range_size": 2}],
            "power": {"test": "t2", "effect_size": 0.5},
        }
    )
    assert s.power == PowerSpec("t2", 0.5, "two-sided", 0.8, None, 0.5)
    assert F(s.power.target) == F(4, 5) or s.power.target == 0.8


# --- never worse for a stronger guarantee -------------------------------------------------


def _gamma(*steps, n=200_000, iid=True, alpha=0.05):
    try:
        return plan(Study(n=n, iid=iid, alpha=alpha, steps=tuple(steps))).gamma
    except PlanError:
        return 0.0


#: the planner's optimisers stop at a relative tolerance; monotone up to this
_TOL = 1e-6


def _le(a, b):
    return a <= b * (1 + _TOL) + 1e-300


def test_issue_examples_monotone_in_eps_and_sigma():
    from maxinfo_bounds.corrections import correct

    gs = [correct(0.05, eps=e, delta=5e-19, n=200_000, iid=True).gamma for e in (3e-5, 5e-5, 1e-4, 3e-4)]
    assert gs[0] > 5e-3  # was 0.0: Thm 3.1 at eps' > eps reaches it
    assert all(_le(b, a) for a, b in zip(gs, gs[1:]))
    # more Gaussian noise is a stronger guarantee: never a worse plan
    g2 = _gamma(Gaussian(sensitivity=1e-5, sigma=2.0, delta=5e-19))
    g10 = _gamma(Gaussian(sensitivity=1e-5, sigma=10.0, delta=5e-19))
    assert g10 > 0 and _le(g2, g10)


def test_mi_route_uses_the_exact_curve():
    """0.2 bits of MI then 1 of 4: the planner's gamma is at least what the certified
    functions give at the best point of an independent grid over (k, beta_desc)."""
    from maxinfo_bounds.theorems.composition import compose_max_information
    from maxinfo_bounds.theorems.description import description_length_max_information
    from maxinfo_bounds.theorems.mutual_info import mi_to_approx_max_information
    from maxinfo_bounds.theorems.pvalues import pvalue_correction

    g = _gamma(MutualInformation(mi_bits=0.2), Description(range_size=4), iid=False, n=1000)
    best = 0.0
    for k in np.linspace(3, 20, 35):
        b1 = mi_to_approx_max_information(0.2, float(k))
        for bd in np.geomspace(1e-4, 0.03, 25):
            tot = compose_max_information([b1, description_length_max_information(4, float(bd))])
            best = max(best, pvalue_correction(0.05, tot.k, tot.beta))
    assert best > 5e-8 and g >= best * 0.999


@settings(max_examples=8, deadline=None)
@given(e1=st.floats(1e-5, 0.3), e2=st.floats(1e-5, 0.3), d=st.sampled_from([1e-30, 1e-20, 1e-15]))
def test_gamma_non_increasing_in_eps_approx_dp(e1, e2, d):
    lo, hi = sorted((e1, e2))
    assert _le(_gamma(GenericDP(eps=hi, delta=d)), _gamma(GenericDP(eps=lo, delta=d)))


@settings(max_examples=8, deadline=None)
@given(d1=st.floats(1e-30, 1e-12), d2=st.floats(1e-30, 1e-12), e=st.floats(1e-4, 0.1))
def test_gamma_non_increasing_in_delta(d1, d2, e):
    lo, hi = sorted((d1, d2))
    assert _le(_gamma(GenericDP(eps=e, delta=hi), n=10_000), _gamma(GenericDP(eps=e, delta=lo), n=10_000))
    # delta = 0 (pure DP) is the strongest of all
    assert _le(_gamma(GenericDP(eps=e, delta=lo), n=10_000), _gamma(GenericDP(eps=e), n=10_000))


@settings(max_examples=10, deadline=None)
@given(t1=st.integers(1, 300), t2=st.integers(1, 300), e=st.floats(1e-6, 1e-3), iid=st.booleans())
def test_gamma_non_increasing_in_times(t1, t2, e, iid):
    lo, hi = sorted((t1, t2))
    assert _le(
        _gamma(Laplace(sensitivity=1.0, eps=e, times=hi), iid=iid),
        _gamma(Laplace(sensitivity=1.0, eps=e, times=lo), iid=iid),
    )


@settings(max_examples=10, deadline=None)
@given(r1=st.integers(1, 10**6), r2=st.integers(1, 10**6), m=st.floats(0.0, 2.0))
def test_gamma_non_increasing_in_range_size(r1, r2, m):
    lo, hi = sorted((r1, r2))
    pre = (MutualInformation(mi_bits=m),) if m > 0 else ()
    assert _le(_gamma(*pre, Description(range_size=hi), iid=False), _gamma(*pre, Description(range_size=lo), iid=False))


@settings(max_examples=8, deadline=None)
@given(s1=st.floats(0.5, 50.0), s2=st.floats(0.5, 50.0))
def test_gamma_non_decreasing_in_gaussian_sigma(s1, s2):
    lo, hi = sorted((s1, s2))
    step = lambda s: Gaussian(sensitivity=1e-5, sigma=s, delta=1e-20, times=3)  # noqa: E731
    assert _le(_gamma(step(lo)), _gamma(step(hi)))


@settings(max_examples=8, deadline=None)
@given(b1=st.integers(1, 200), b2=st.integers(1, 200), n1=st.integers(10**4, 10**7), n2=st.integers(10**4, 10**7))
def test_thresholdout_monotone_in_budget_and_n(b1, b2, n1, n2):
    blo, bhi = sorted((b1, b2))
    nlo, nhi = sorted((n1, n2))
    th = lambda b: Thresholdout(budget=b, sigma=0.01)  # noqa: E731
    assert _le(_gamma(th(bhi), n=nlo), _gamma(th(blo), n=nlo))
    assert _le(_gamma(th(blo), n=nlo), _gamma(th(blo), n=nhi))  # eps = 2B/(sigma n) shrinks


def test_binomial_critical_value_search_is_logarithmic(monkeypatch):
    """At gamma = 1e-100 on 10^6 records the upper critical value takes O(log n) tail
    evaluations (it took one per step from scipy's estimate n: about 490,000)."""
    from scipy.stats import binom

    from maxinfo_bounds.planning.power import _binom_crit_upper

    calls = []
    sf = binom.sf

    def counting(*args, **kwargs):
        calls.append(args)
        return sf(*args, **kwargs)

    monkeypatch.setattr(binom, "sf", counting)
    assert _binom_crit_upper(10**6, 0.5, 0.5e-100) == 510654
    assert len(calls) <= 2 * 20 + 2  # gallop and bisect over 2^20 > 10^6 values


def test_binomial_critical_values_at_a_tiny_level_are_found_by_bisection():
    """Issue 46's reproducer: at gamma = 1e-100 on 10^6 records scipy's isf returns n, and the
    critical value was stepped down one by one (490,000 steps, 22 s; a study with such a test
    ran for minutes). The search gallops from the estimate and bisects. The critical values
    are checked against the exact binomial tails at 50 digits (regularized incomplete beta):
    P(X >= c) <= level < P(X >= c - 1), and likewise for the lower tail."""
    import mpmath

    from maxinfo_bounds.planning.power import _binom_crit_lower, _binom_crit_upper

    n, level = 10**6, 0.5e-100
    hi, lo = _binom_crit_upper(n, 0.5, level), _binom_crit_lower(n, 0.5, level)
    with mpmath.workdps(50):

        def upper_tail(c):
            """P(X >= c) for X ~ Bin(n, 1/2), c > n/2: 4,000 terms by the ratio (n - j)/(j + 1)
            from C(n, c)/2^n (log-gamma), plus the geometric bound on the rest (returned as an
            interval: the check below needs both ends on one side)."""
            t = mpmath.exp(
                mpmath.loggamma(n + 1) - mpmath.loggamma(c + 1) - mpmath.loggamma(n - c + 1) - n * mpmath.log(2)
            )
            total = mpmath.mpf(0)
            for j in range(c, c + 4000):
                total += t
                t *= mpmath.mpf(n - j) / (j + 1)
            r = mpmath.mpf(n - c - 4000) / (c + 4001)  # every later ratio is below this
            return total, total + t / (1 - r)

        assert upper_tail(hi)[1] <= level < upper_tail(hi - 1)[0]
        # P(X <= c) = P(X >= n - c) by symmetry at p0 = 1/2
        assert upper_tail(n - lo)[1] <= level < upper_tail(n - lo - 1)[0]
    assert hi + lo == n  # symmetric at p0 = 1/2


def test_first_true_gallops_and_bisects_to_the_boundary():
    """The search behind the critical values, against brute force on monotone predicates with
    every start (far below, at, far above the boundary) and the range's ends."""
    from maxinfo_bounds.search import first_true_int as _first_true

    calls = []
    for t in [0, 1, 2, 7, 64, 99, 100]:
        for start in [-5, 0, 3, t - 1, t, t + 1, 50, 100, 250]:

            def ok(c, t=t):
                calls.append(c)
                return c >= t

            assert _first_true(ok, start, 0, 100) == t
    assert all(0 <= c <= 100 for c in calls)


def test_special_function_power_matches_scipy_stats_and_statsmodels():
    """Issue 45: the power code evaluates scipy.special directly. Held against the libraries
    it replaces, which the tests may import: statsmodels' NormalIndPower (z), scipy.stats'
    noncentral and central t (t tests), scipy.stats.binom (tails, also beyond n = 2^31, where
    scipy.special.bdtr is NaN)."""
    from scipy.stats import binom, nct, t
    from statsmodels.stats.power import NormalIndPower

    from maxinfo_bounds.planning import power as P
    from maxinfo_bounds.planning.study import Alternative

    rng = np.random.default_rng(45)
    for _ in range(300):
        d, n = float(rng.uniform(0.01, 1.0)), int(10 ** rng.uniform(0.5, 6))
        g = float(10 ** rng.uniform(-12, -0.5))
        for alt in Alternative:
            ref = NormalIndPower().power(effect_size=d, nobs1=n, alpha=g, ratio=0.0, alternative=alt.value)
            assert P._normal_power(d, n, g, alt) == pytest.approx(ref, rel=1e-12, abs=1e-300)
            df, nc = n + 1.0, d * math.sqrt(n)
            c = float(t.isf(g if alt is not Alternative.TWO_SIDED else g / 2, df))
            want = {
                Alternative.LARGER: float(nct.sf(c, df, nc)),
                Alternative.SMALLER: float(nct.cdf(-c, df, nc)),
                Alternative.TWO_SIDED: float(nct.sf(c, df, nc)) + float(nct.cdf(-c, df, nc)),
            }[alt]
            got = P._nct_power(df, nc, g, alt)
            if want != want:  # scipy.stats' NaN far tails (the module doc): ours stays a probability
                assert 0.0 <= got <= 1.0
                continue
            assert got == pytest.approx(want, rel=1e-9, abs=1e-280)
    for _ in range(300):
        n = int(10 ** rng.uniform(0, 12))
        p = float(rng.uniform(0.01, 0.99))
        k = int(rng.integers(0, n))
        assert P._binom_sf(k, n, p) == pytest.approx(float(binom.sf(k, n, p)), rel=1e-9, abs=1e-280)
        assert P._binom_cdf(k, n, p) == pytest.approx(float(binom.cdf(k, n, p)), rel=1e-9, abs=1e-280)
    assert P._binom_sf(-1, 5, 0.5) == 1.0 and P._binom_cdf(5, 5, 0.5) == 1.0 and P._binom_cdf(-1, 5, 0.5) == 0.0


def test_a_power_plan_imports_neither_scipy_stats_nor_statsmodels():
    import subprocess
    import sys

    code = (
        "import sys; from maxinfo_bounds.planning import load_study, plan_power; "
        "[plan_power(load_study(f'examples/{x}.toml')) for x in "
        "('power_bonferroni_wins', 'power_splitting_wins')]; "
        "print('scipy.stats' in sys.modules, 'statsmodels' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[1],
        check=True,
    )
    assert out.stdout.split() == ["False", "False"]


def _curve_study():
    """One description step of 1000 outputs on n = 1000 i.i.d. records, then a one-sided z test
    of d = 0.2 (the power-curve, JSON and table tests below)."""
    spec = PowerSpec("z", 0.2, "larger", 0.8, None, 0.5)
    return Study(n=1000, iid=True, alpha=0.05, steps=(Description(range_size=1000),), power=spec, name="curve study")


def _z_mde(g, m):
    """The one-sided z test's minimum detectable effect at level g, power 0.8, m records."""
    z = stats.norm
    return (z.isf(g) + z.isf(0.2)) / math.sqrt(m)


def test_power_curve_draws_each_route_s_power_by_hand(tmp_path, monkeypatch):
    """The power-curve figure on recording axes: one description step of 1000 outputs (gamma =
    alpha^2/(4 * 1000) for reuse, alpha/1000 for the union bound, both whatever n), a one-sided z
    test of d = 0.2. Each valid route's curve is the textbook power at every n of the grid
    (reuse and the union bound on n records, splitting on floor(n/2) at alpha), the recommended
    route last and thickest, a dot at each required n (by hand: the least n with
    0.2 sqrt(n) >= z_(1-gamma) + z_0.8: 810, 560, and 2 * 155 = 310 for splitting)."""
    from unittest import mock

    import matplotlib.pyplot as plt

    import maxinfo_bounds.planning.recommend as rec_mod

    study = _curve_study()
    pp = plan_power(study)
    names = [r.name for r in pp.rows if r.valid]
    assert pp.recommended is not None and pp.recommended.name == names[2]
    fig, ax, line = mock.MagicMock(), mock.MagicMock(), mock.MagicMock()
    line.get_color.return_value = "C7"
    ax.plot.return_value = [line]
    monkeypatch.setattr(plt, "subplots", mock.MagicMock(return_value=(fig, ax)))
    saved = mock.MagicMock()
    monkeypatch.setattr(rec_mod, "save_figure", saved)
    out = tmp_path / "curve.png"
    assert rec_mod.power_curve(pp, out) == out
    saved.assert_called_once_with(fig, "path", out)
    plt.subplots.assert_called_once_with(figsize=(7.5, 4.8))
    calls = ax.plot.call_args_list
    assert len(calls) == 6  # three curves, each with its dot
    ns = np.asarray(calls[0].args[0])
    # the grid: integers from 1 (the z test's fewest records) to 10 n = 10^4, 60 log-spaced
    # points plus 30 within a factor 1.6 of each required n and of the study's n
    assert ns.dtype == np.int64 and ns[0] == 1 and ns[-1] == 10_000 and np.all(np.diff(ns) > 0)
    for q in (310, 560, 810, 1000):
        assert np.sum((ns >= q / 1.6) & (ns <= q * 1.6)) >= 28
    thresholds = {names[0]: 0.05**2 / 4000, names[1]: 0.05 / 1000}
    order = [names[0], names[1], names[2]]  # reuse, union bound, then the recommended split
    dots = {names[0]: 810, names[1]: 560, names[2]: 310}
    for i, name in enumerate(order):
        curve, dot = calls[2 * i], calls[2 * i + 1]
        assert np.array_equal(np.asarray(curve.args[0]), ns)
        if name == names[2]:
            recs = ns // 2
            want = [_z_power(0.2, m, 0.05, "larger") if m else 0.0 for m in recs]
            assert curve.kwargs == {"lw": 2.8, "ls": "-", "label": name + "  (recommended)", "zorder": 3}
        else:
            want = [_z_power(0.2, m, thresholds[name], "larger") for m in ns]
            assert curve.kwargs == {"lw": 1.4, "ls": ("--", "-.")[i], "label": name, "zorder": 2}
        assert np.allclose(curve.args[1], want, rtol=1e-9, atol=1e-300)
        assert dot == mock.call([dots[name]], [0.8], "o", color="C7", ms=6, zorder=4)
    assert ax.annotate.call_args_list == [
        mock.call(
            f"{dots[name]:,}",
            (dots[name], 0.8),
            xytext=(4, -12 - 10 * i),
            textcoords="offset points",
            fontsize=7,
            color="C7",
        )
        for i, name in enumerate(order)
    ]
    ax.axvline.assert_called_once_with(1000, color="0.4", ls=":", lw=1)
    ax.axhline.assert_called_once_with(0.8, color="0.4", ls="--", lw=1)
    assert ax.text.call_args_list == [
        mock.call(1000, 0.5, " your n = 1,000", color="0.3", fontsize=8, rotation=90, va="center"),
        mock.call(10_000, 0.8 + 0.015, "target power 0.8", color="0.3", fontsize=8, ha="right"),
    ]
    ax.set_xscale.assert_called_once_with("log")
    ax.set_ylim.assert_called_once_with(0, 1.02)
    ax.set_xlabel.assert_called_once_with("number of records n")
    ax.set_ylabel.assert_called_once_with("power: chance the test detects the effect")
    title = ax.set_title.call_args
    assert title.args[0].startswith("curve study: z test (larger)") and title.args[0].endswith(", alpha = 0.05")
    assert title.kwargs == {"fontsize": 9}
    ax.legend.assert_called_once_with(fontsize=7, loc="upper left", title="dots: required n", title_fontsize=7)
    ax.grid.assert_called_once_with(alpha=0.3, which="both")
    fig.tight_layout.assert_called_once_with()


def test_power_plan_as_dict_by_hand():
    """The JSON view of the same study (one description step of 1000 outputs, a one-sided z
    test of d = 0.2 on n = 1000), every field against hand derivations: gamma = alpha^2/4000 by
    DFHPRR Thm 6 at beta = alpha/2 (k = log2(1000/0.025) = log2 40000 bits), alpha/1000 for the
    union bound, alpha on 500 fresh records for splitting; powers and minimum detectable
    effects (z_(1-gamma) + z_0.8)/sqrt(n) from the normal distribution; required n as in the
    curve test; splitting's smallest test fraction on the 0.05 grid holding 155 records: 0.2."""
    study = _curve_study()
    pp = plan_power(study)
    d = json.loads(json.dumps(pp.as_dict()))

    def pw(g, m):
        return _z_power(0.2, m, g, "larger")

    keys = {
        "route",
        "kind",
        "valid",
        "threshold_p_value",
        "test_records",
        "note",
        "power_at_study_n",
        "required_n_records",
        "required_n_note",
        "minimum_detectable_effect",
        "stays_above_target_from_n_records",
        "required_test_records",
    }
    want = [  # route kind, threshold, test records, required n, required test records
        ("reuse", 0.05**2 / 4000, 1000, 810, 810),
        ("union", 0.05 / 1000, 1000, 560, 560),
        ("split", 0.05, 500, 310, 155),
    ]
    assert [r["kind"] for r in d["routes"]] == ["reuse", "union", "split", "naive"]
    for r, (kind, g, m, req, req_m) in zip(d["routes"], want, strict=False):
        assert set(r) == keys and r["kind"] == kind and r["valid"] is True
        assert r["threshold_p_value"] == pytest.approx(g, rel=1e-14, abs=0) and r["threshold_p_value"] <= g
        assert (r["test_records"], r["required_n_records"], r["required_test_records"]) == (m, req, req_m)
        assert r["power_at_study_n"] == pytest.approx(pw(g, m), rel=1e-10)
        assert r["minimum_detectable_effect"] == pytest.approx(_z_mde(g, m), rel=1e-6)
        assert r["required_n_note"] == "smallest n (proven: branch and bound on the power)"
        assert r["stays_above_target_from_n_records"] is None
    naive = d["routes"][3]
    assert naive == {
        "route": "naive (no correction)",
        "kind": "naive",
        "valid": False,
        "threshold_p_value": 0.05,
        "test_records": 1000,
        "note": "ignores the adaptivity: not a valid threshold",
        "power_at_study_n": None,
        "required_n_records": None,
        "required_n_note": "",
        "minimum_detectable_effect": None,
        "stays_above_target_from_n_records": None,
        "required_test_records": None,
    }
    assert (
        d["recommended"] == d["routes"][2]
        and d["routes"][2]["route"] == "sample splitting (test on 0.5 of the records)"
    )
    assert d["routes"][1]["note"] == "every step is a description: the test is one of at most 1000 fixed tests (α/M)"
    assert (d["study"], d["n_records"], d["alpha"]) == ("curve study", 1000, 0.05)
    assert d["meets_target_power"] is True and d["no_valid_route"] is None and d["reuse_refusal"] is None
    assert d["power"] == {
        "test": "z",
        "alternative": "larger",
        "effect_size": 0.2,
        "p0": None,
        "target_power": 0.8,
        "split_fraction": 0.5,
        "design_effect": 1.0,
        "method": d["power"]["method"],
    }
    assert d["power"]["method"].startswith("exact normal power of the z-test")
    assert d["split_note"] == (
        "smallest test fraction on the grid 0.05..0.95 reaching power 0.8: 0.2 (200 test records); "
        "the analysis keeps 800 records"
    )
    # every max-information route tried on all records, with its power (the MI route: far lower)
    rr = d["reuse_routes"]
    assert [r["route"] for r in rr] == ["max-information composition", "mutual information"]
    assert rr[0] == {
        "route": "max-information composition",
        "threshold_p_value": d["routes"][0]["threshold_p_value"],
        "note": "",
        "power_at_study_n": d["routes"][0]["power_at_study_n"],
    }
    assert rr[1]["threshold_p_value"] < 1e-60 and rr[1]["power_at_study_n"] == pytest.approx(
        pw(rr[1]["threshold_p_value"], 1000), rel=1e-6, abs=0
    )
    plan_d = d["reuse_plan"]
    assert set(plan_d) == {"study", "alpha", "gamma", "k_bits", "beta", "route", "chain", "candidates", "notes"}
    assert (plan_d["study"], plan_d["alpha"], plan_d["route"], plan_d["beta"]) == (
        "curve study",
        0.05,
        "max-information composition",
        0.025,
    )
    assert math.log2(40000) <= plan_d["k_bits"] <= math.log2(40000) * (1 + 1e-15)
    assert plan_d["gamma"] == d["routes"][0]["threshold_p_value"] and plan_d["notes"] == []
    assert [(c["what"], c["theorems"]) for c in plan_d["chain"]] == [
        ("steps[0] (description)", ["DFHPRR-6"]),
        ("max-information of the stage", ["DFHPRR-6"]),
        ("composition over stages", ["RRST-A.3"]),
        ("p-value correction", ["RRST-1.3"]),
    ]
    assert plan_d["chain"][0] == {
        "what": "steps[0] (description)",
        "theorems": ["DFHPRR-6"],
        "inputs": "range_size=1000, times=1",
        "output": "1000 possible outputs",
        "conditions": [],
        "values": {},
    }
    assert plan_d["chain"][3]["conditions"] == ["gamma = (alpha - beta) / 2^k, rounded down"]
    assert plan_d["candidates"][0] == {"route": "max-information composition", "gamma": plan_d["gamma"], "note": ""}
    r = repr(pp)
    assert r.startswith(
        "PowerPlan(study='curve study', n=1000, recommended='sample splitting (test on 0.5 of the records)', "
        "threshold=0.05, power=0.99765"
    )
    assert float(r.rsplit("power=", 1)[1].rstrip(")")) == pytest.approx(pw(0.05, 500), rel=1e-10)


def test_two_sample_plan_as_dict_reports_the_groups():
    """A two-sample t test: the records split in floor/ceil halves, at the study's n and at the
    required n; pwr and G*Power report n per group of equal groups (ceil of half)."""
    spec = PowerSpec("t2", 0.5, "two-sided", 0.8, None, 0.5)
    study = Study(n=301, iid=True, alpha=0.05, steps=(Description(range_size=2),), power=spec, name="groups")
    d = plan_power(study).as_dict()
    split = next(r for r in d["routes"] if r["kind"] == "split")
    assert split["test_records"] == 150 and split["groups_at_study_n"] == [75, 75]
    reuse = next(r for r in d["routes"] if r["kind"] == "reuse")
    assert reuse["test_records"] == 301 and reuse["groups_at_study_n"] == [150, 151]
    for r in (split, reuse):
        m = r["required_test_records"]
        assert r["groups_at_required_n"] == [m // 2, m - m // 2]
        assert r["per_group_equal_groups_required"] == -(-m // 2)
    # at alpha = 0.05, d = 0.5, two-sided, power 0.8: 64 per group (Cohen 1988 Table 2.4.1;
    # pwr.t.test gives n = 63.77 per group), 128 test records, 256 records before splitting
    assert split["per_group_equal_groups_required"] == 64 and split["required_test_records"] == 128
    assert split["required_n_records"] == 256
    naive = next(r for r in d["routes"] if r["kind"] == "naive")
    assert "groups_at_study_n" not in naive
    pp0 = plan_power(Study(n=301, iid=True, alpha=0.05, steps=(Description(range_size=2),), name="no power"))
    assert pp0.as_dict()["power"] is None and all("groups_at_study_n" not in r for r in pp0.as_dict()["routes"])


def test_required_n_is_proven_only_where_gamma_is_monotone_in_n():
    """One Thresholdout run alone: gamma grows with n (eps = 2B/(sigma n)), so the branch and
    bound proves the required n, and a holdout_n equal to the study's n follows n. Beside
    another DP step gamma is not monotone in n: the required n is the first point of a grid of
    4 per doubling that reaches the target (27,554 = round(2^(59/4))), said to be not proven.
    Splitting's required n by hand: 0.1 sqrt(m) >= z_0.95 + z_0.8 needs m = 619 test
    records, n = 1,238."""
    from maxinfo_bounds.planning.recommend import study_at_n

    sp = PowerSpec("z", 0.1, "larger", 0.8, None, 0.5)
    alone = _study(sp, Thresholdout(budget=10, sigma=0.01, holdout_n=100_000), n=100_000)
    assert study_at_n(alone, 5000).steps[0].holdout_n == 5000
    beside = _study(sp, Thresholdout(budget=10, sigma=0.01), Laplace(sensitivity=0.001, eps=0.01), n=100_000)
    for s, proven in ((alone, True), (beside, False)):
        rows = {r.kind.value: r for r in plan_power(s).rows}
        assert rows["split"].required_n == 1238
        assert rows["split"].required_n_note == "smallest n (proven: branch and bound on the power)"
        note = rows["reuse"].required_n_note
        if proven:
            assert note == "smallest n (proven: branch and bound on the power)"
        else:
            assert rows["reuse"].required_n == round(2 ** (59 / 4)) == 27554
            assert note == (
                "smallest on a grid of 4 points per doubling (not proven: with Thresholdout beside other DP "
                "steps (or run several times) γ is not monotone in n)"
            )
            below = round(2 ** (58 / 4))
            assert power_at(sp, plan(study_at_n(s, below), refine=False).gamma, below) < 0.8


def test_a_plan_with_no_valid_route_says_so_in_every_view():
    """Approximate DP on data not known to be i.i.d.: RRST Thm 3.1 does not apply (RRST §4) and
    splitting needs independent records, so nothing is valid: no recommendation, the target
    not met, and the reasons route by route, the reuse refusal first."""
    sp = PowerSpec("z", 0.1, "larger", 0.8, None, 0.5)
    pp = plan_power(_study(sp, GenericDP(eps=0.1, delta=1e-9), iid=False))
    assert repr(pp) == f"PowerPlan(study={pp.study.name!r}, n=1000, recommended=none)"
    d = pp.as_dict()
    assert d["recommended"] is None and d["meets_target_power"] is False
    assert d["reuse_plan"] is None and d["reuse_routes"] == []
    why = d["no_valid_route"]
    assert why.startswith("no valid route: adaptive reuse: max-information composition: steps[0] is approximate DP")
    assert "; sample splitting: not valid: the data are not i.i.d. (iid = false)" in why
    assert d["reuse_refusal"].startswith("max-information composition: steps[0] is approximate DP")
    assert [(r["kind"], r["valid"]) for r in d["routes"]] == [("split", False), ("naive", False)]


def test_route_table_text_by_hand():
    """The route table `maxinfo plan` prints for the description study of the curve test: each
    threshold rounded down to 4 digits (the certified reuse threshold lies just below
    alpha^2/4000 = 6.25e-07), the power to 4 decimals (textbook z power), the required n by
    hand, the minimum detectable effect (z_(1-gamma) + z_0.8)/sqrt(n) rounded up to 4 digits,
    the union bound's name cut at 52 characters, dashes for the invalid naive route."""
    from maxinfo_bounds.planning.recommend import format_rows

    study = _curve_study()
    lines = format_rows(plan_power(study).rows)

    def row(name, thr, m, req, g):
        pw = _z_power(0.2, m, g, "larger")
        md = f"{math.ceil(_z_mde(g, m) * 10**4) / 10**4:g}"
        return f"  {name[:52]:52s} {thr:>11s} {m:10d} {'yes':>6s} {pw:7.4f} {req:>12s} {md:>9s}"

    assert lines == [
        f"  {'route':52s} {'threshold':>11s} {'test n':>10s} {'valid':>6s}"
        f" {'power':>7s} {'required n':>12s} {'MDE':>9s}",
        row("adaptive reuse (max-information composition)", "6.249e-07", 1000, "810", 0.05**2 / 4000),
        row("union bound over the analysis's 1000 possible outputs", "5e-05", 1000, "560", 0.05 / 1000),
        row("sample splitting (test on 0.5 of the records)", "0.05", 500, "310", 0.05),
        f"  {'naive (no correction)':52s} {'0.05':>11s} {1000:10d} {'NO':>6s} {'-':>7s} {'-':>12s} {'-':>9s}",
    ]
    # without a [power] table: the first four columns only
    plain = format_rows(plan_power(replace(study, power=None)).rows)
    assert plain[0] == f"  {'route':52s} {'threshold':>11s} {'test n':>10s} {'valid':>6s}"
    assert all(len(x) == len(plain[0]) for x in plain)


@pytest.mark.parametrize(
    ("alt", "p0", "effect", "hw", "m", "sigma"),
    [
        ("larger", 0.5, 0.1, 0.05, 200, 0.02),
        ("smaller", 0.5, -0.1, 0.05, 200, 0.02),
        ("two-sided", 0.3, 0.08, 0.04, 300, 0.01),
        ("two-sided", 0.02, 0.01, 0.01, 400, 0.0),  # no noise: a step; p1 = 0.03, x = 0 counts
        ("larger", 0.95, 0.02, 0.005, 400, 0.0),  # p1 = 0.97: the window reaches x = m
        ("two-sided", 0.5, 0.05, 0.03, 1000, 0.0),
    ],
)
def test_estimate_power_by_a_full_binomial_sum(alt, p0, effect, hw, m, sigma):
    """The power of the decision from an estimate (reject when the noisy proportion is beyond
    p0 +- half-width) against the sum over every count x = 0..m of Bin(m, p1)(x) times the
    normal tail (scipy.stats), or the indicator without noise."""
    from maxinfo_bounds.planning.recommend import estimate_power

    spec = PowerSpec("proportion", effect, alt, 0.8, p0, 0.5)
    p1 = p0 + effect
    x = np.arange(m + 1)
    w = stats.binom.pmf(x, m, p1)
    est = x / m
    if sigma > 0:
        up, down = stats.norm.cdf((est - p0 - hw) / sigma), stats.norm.cdf((p0 - hw - est) / sigma)
    else:
        up, down = (est > p0 + hw).astype(float), (est < p0 - hw).astype(float)
    want = (0.0 if alt == "smaller" else float(w @ up)) + (0.0 if alt == "larger" else float(w @ down))
    assert estimate_power(spec, hw, m, sigma) == pytest.approx(want, rel=1e-9, abs=1e-15)


def test_power_curve_refusals_in_process(tmp_path):
    """Without a [power] table the figure is refused naming the study's power table; a path
    of an unknown format is refused naming the path."""
    from maxinfo_bounds.planning.recommend import power_curve

    study = Study(n=1000, iid=True, alpha=0.05, steps=(Description(range_size=2),), name="no power")
    with pytest.raises(
        PlanError, match=r"power: missing: --power-curve needs a \[power\] table \(test, effect_size, \.\.\.\)$"
    ):
        power_curve(plan_power(study), tmp_path / "x.png")
    spec = PowerSpec("z", 0.2, "larger", 0.8, None, 0.5)
    with pytest.raises(ValueError, match="^path="):
        power_curve(plan_power(replace(study, power=spec)), tmp_path / "x.txt")
    assert not (tmp_path / "x.png").exists()
