"""The power questions a statistician asks (issue 43): the minimum detectable effect of each
route (G*Power's sensitivity analysis), a plan whose best route misses the target power said so
first with what would reach it, and the tie rule on the printed power. Expected values are
hand derivations (closed forms at 30 digits with mpmath), statsmodels' solvers and scipy.stats'
binomial distribution, never the planner's own output."""

from __future__ import annotations

import json
import math
from pathlib import Path

import mpmath
import numpy as np
import pytest
from scipy import stats

from maxinfo_bounds.cli import main
from maxinfo_bounds.planning import PlanError, PowerSpec, load_study, minimum_effect, plan_power, power_at, power_fixes
from maxinfo_bounds.planning.recommend import RouteKind, RouteRow, most_powerful
from maxinfo_bounds.planning.report import plan_json, plan_text

ROOT = Path(__file__).resolve().parents[1]

ZERO_POWER = """
[study]
name = "10 Laplace queries at eps = 0.01 on 1,000 records, then a z-test of d = 0.1"

[data]
n = 1000
iid = false

[[steps]]
type = "laplace"
sensitivity = 1.0
scale = 100.0
times = 10

[test]
alpha = 0.05

[power]
test = "z"
effect_size = 0.1
"""


def _z(p: mpmath.mpf) -> mpmath.mpf:
    """The upper-p quantile of N(0, 1): z with Q(z) = p (at 120 digits, so that 2p - 1 keeps
    a p as small as 1e-45; rounded to the caller's precision)."""
    with mpmath.workdps(120):
        z = -mpmath.sqrt(2) * mpmath.erfinv(2 * mpmath.mpf(p) - 1)
    return +z


@pytest.mark.parametrize(("gamma", "n", "target"), [(0.05, 100, 0.8), (1e-6, 10_000, 0.9), (0.01, 7, 0.5)])
def test_mde_of_the_one_sided_z_test_is_the_closed_form(gamma, n, target):
    """One-sided z: power 1 - Phi(z_{1-g} - d sqrt n) = target at d = (z_{1-g} + z_target)/sqrt(n)
    exactly; the MDE is that value rounded up (within 1e-6 relative)."""
    with mpmath.workdps(30):
        want = (_z(mpmath.mpf(gamma)) + _z(1 - mpmath.mpf(target))) / mpmath.sqrt(n)
    got = minimum_effect(PowerSpec(test="z", effect_size=0.1, alternative="larger", target=target), gamma, n)
    assert got is not None and want <= got <= want * (1 + 1e-6)


@pytest.mark.parametrize(
    ("test", "alt", "n", "gamma"),
    [
        ("t", "two-sided", 34, 0.05),
        ("t", "larger", 20, 0.01),
        ("t2", "two-sided", 128, 0.05),
        ("t2", "larger", 40, 0.1),
    ],
)
def test_mde_of_the_t_tests_matches_statsmodels(test, alt, n, gamma):
    """statsmodels' solve_power for the effect (TTestPower: one sample of n; TTestIndPower: two
    groups of n/2): ours is at or above theirs and within 1e-5 (theirs solves to its own
    tolerance, on either side). G*Power's one-sample example: d = 0.5 needs n = 34 at power
    0.8, so at n = 34 the MDE is just below 0.5."""
    from statsmodels.stats.power import TTestIndPower, TTestPower

    sm_alt = {"two-sided": "two-sided", "larger": "larger"}[alt]
    if test == "t":
        theirs = TTestPower().solve_power(effect_size=None, nobs=n, alpha=gamma, power=0.8, alternative=sm_alt)
    else:
        theirs = TTestIndPower().solve_power(
            effect_size=None, nobs1=n // 2, alpha=gamma, power=0.8, ratio=1.0, alternative=sm_alt
        )
    got = minimum_effect(PowerSpec(test=test, effect_size=0.3, alternative=alt), gamma, n)
    assert got is not None and got == pytest.approx(float(theirs), rel=1e-5)
    if (test, n) == ("t", 34):
        assert 0.49 < got < 0.5


def _binom_power_larger(n: int, p0: float, p1: float, level: float) -> float:
    """The exact one-sided binomial test by scipy.stats: reject when X >= c, c the smallest
    with P0(X >= c) <= level; its power P1(X >= c)."""
    c = int(stats.binom.isf(level, n, p0)) + 1  # P0(X > isf) <= level
    while c > 0 and stats.binom.sf(c - 2, n, p0) <= level:
        c -= 1
    return float(stats.binom.sf(c - 1, n, p1))


@pytest.mark.parametrize(("n", "p0", "gamma"), [(100, 0.5, 0.05), (1000, 0.1, 0.001), (30, 0.3, 0.05)])
def test_mde_of_the_exact_binomial_test_is_its_boundary(n, p0, gamma):
    """One-sided exact binomial test (scipy.stats' binomial, not the planner's): the power at
    the returned p1 - p0 reaches 0.8, and 1e-5 below it does not."""
    got = minimum_effect(PowerSpec(test="proportion", effect_size=0.01, p0=p0, alternative="larger"), gamma, n)
    assert got is not None
    assert _binom_power_larger(n, p0, p0 + got, gamma) >= 0.8 > _binom_power_larger(n, p0, p0 + got * (1 - 1e-5), gamma)


def test_mde_is_none_where_no_effect_reaches_the_target():
    """gamma = 0 rejects nothing; a t-test needs two records; the largest p1 - p0 short of 1 on
    three records at 1e-3 cannot reach power 0.99 (the test can reject only at X = 3, which has
    probability below 0.99)."""
    s = PowerSpec(test="t", effect_size=0.5)
    assert minimum_effect(s, 0.0, 100) is None and minimum_effect(s, 0.05, 1) is None
    p = PowerSpec(test="proportion", effect_size=0.1, p0=0.5, alternative="larger", target=0.99)
    assert minimum_effect(p, 1e-3, 3) is None


def test_a_study_below_the_target_power_is_headlined_with_what_reaches_it(tmp_path, capsys):
    """The study of issue 43: 10 Laplace queries (eps = 0.01 each) on 1,000 records not known to
    be i.i.d., z-test of d = 0.1. Only reuse is valid, at gamma = 0.05 / 2^(0.1 n log2 e)
    = 1.86e-45 (RRST Thm 1.4a with basic composition, exact for pure DP): power 0 at the
    study's n, for every n (the threshold falls with n faster than the test gains), and the
    smallest d it detects is (z_{gamma/2} + z_{0.2}) / sqrt(1000) = 0.4740857 (two-sided;
    the far tail adds nothing at 30 digits). Adaptive reuse reaches power 0.8 with a Laplace
    scale of 12,000 (eps = 1/12000 per query: k = 1.2022 bits, gamma = 0.0217, power 0.807 by
    hand) but not 11,000 (gamma = 0.0201, power 0.7993)."""
    f = tmp_path / "zero.toml"
    f.write_text(ZERO_POWER)
    st = load_study(f)
    pp = plan_power(st)
    with mpmath.workdps(30):
        k = mpmath.mpf(0.1) * 1000 / mpmath.log(2)
        gamma = mpmath.mpf(0.05) / 2**k
        d = (_z(gamma / 2) + _z(mpmath.mpf(0.2))) / mpmath.sqrt(1000)
    rec = pp.recommended
    assert rec is not None and rec.kind is RouteKind.REUSE and pp.meets_target is False
    assert rec.threshold <= gamma and rec.threshold == pytest.approx(float(gamma), rel=1e-12, abs=0)
    assert rec.power < 1e-6 and rec.required_n is None
    assert rec.mde is not None and d <= rec.mde <= d * (1 + 1e-6) and 0.474085 < rec.mde < 0.474087
    text = plan_text(pp)
    head = text.split("\n\n")[1]
    assert head.startswith("NO VALID ROUTE REACHES POWER 0.8 at n = 1000 records (effect d = 0.1).")
    assert "recommended:" not in text
    assert "an effect d >= 0.4741" in text and "no n up to 10^12" in text
    assert "steps[0].scale >= 12000" in text
    for scale, want in ((12000, 0.807), (11000, 0.7993)):
        with mpmath.workdps(30):
            g = mpmath.mpf(0.05) / 2 ** (mpmath.mpf(10) / scale * 1000 / mpmath.log(2))
            hand = mpmath.ncdf(mpmath.sqrt(1000) * mpmath.mpf(0.1) - _z(g / 2)) + mpmath.ncdf(
                -mpmath.sqrt(1000) * mpmath.mpf(0.1) - _z(g / 2)
            )
        assert float(hand) == pytest.approx(want, abs=5e-4)
        st2 = load_study(f)
        from maxinfo_bounds.planning import with_param

        got = power_at(st.power, plan_power(with_param(st2, "steps[0].scale", scale)).recommended.threshold, 1000)
        assert got == pytest.approx(float(hand), rel=1e-9)
    assert "steps[0].scale >= 12000" in power_fixes(st)
    d_json = plan_json(pp)
    assert d_json["meets_target_power"] is False
    reach = d_json["to_reach_target_power"]
    assert reach["routes"][0]["required_n_records"] is None
    assert reach["routes"][0]["minimum_detectable_effect"] == rec.mde
    assert "steps[0].scale >= 12000" in reach["reuse_single_changes"]
    # the command line: the same headline, exit 0 (the plan is valid; the study is underpowered)
    assert main(["plan", str(f)]) == 0
    assert "NO VALID ROUTE REACHES POWER 0.8" in capsys.readouterr().out
    assert main(["plan", str(f), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["meets_target_power"] is False


def test_a_study_reaching_the_target_is_recommended_with_every_mde():
    """The shipped Bonferroni example reaches its target: recommended, meets_target, and every
    valid route's MDE is the effect at which its own power reaches the target (checked with
    power_at at the MDE and 1e-5 below it, route by route)."""
    pp = plan_power(load_study(ROOT / "examples" / "power_bonferroni_wins.toml"))
    spec = pp.study.power
    assert spec is not None and pp.meets_target is True
    assert "recommended:" in plan_text(pp) and "NO VALID ROUTE" not in plan_text(pp)
    from dataclasses import replace

    for r in pp.rows:
        if not (r.valid and r.power is not None):
            continue
        assert r.mde is not None
        at = power_at(replace(spec, effect_size=r.mde), r.threshold, r.test_records)
        below = power_at(replace(spec, effect_size=r.mde * (1 - 1e-5)), r.threshold, r.test_records)
        assert at >= spec.target > below


def test_ties_are_decided_on_the_printed_power():
    """Power 0.9999999999999996 against 1.0 is a tie at the 4 printed digits: the smaller
    required n wins, then the larger threshold (issue 43: the float difference decided it)."""

    def row(name: str, power: float, req: int | None, thr: float, valid: bool = True) -> RouteRow:
        return RouteRow(name, RouteKind.REUSE, valid, thr, 100, "", power=power, required_n=req)

    a = row("a", 1.0, 500, 0.01)
    b = row("b", 0.9999999999999996, 400, 0.001)
    assert most_powerful([a, b]) is b
    c = row("c", 0.99996, 400, 0.002)  # 1.0000 printed: the larger threshold of equal n
    assert most_powerful([a, b, c]) is c
    d = row("d", 0.99994, 10, 0.05)  # 0.9999 printed: below
    assert most_powerful([d, a]) is a
    assert most_powerful([row("x", 1.0, 1, 1.0, valid=False)]) is None
    assert math.isclose(round(0.99994, 4), 0.9999)


def _binom_power_scipy(n: int, p0: float, p1: float, level: float) -> float:
    return _binom_power_larger(n, p0, p1, level)


def test_binomial_power_stays_above_the_target_from_a_proven_n():
    """examples/power_bonferroni_wins.toml (exact binomial test, p0 = 0.5, p1 = 0.55, larger, at
    alpha/1000 = 5e-5): by scipy.stats' binomial, n = 2,237 is the first n with power >= 0.8,
    17 sizes in 2,238..2,268 fall back below it, and from 2,269 to 6,000 none does (the
    planner proves it up to 10^12 with monotone critical values). The report says all three."""
    pp = plan_power(load_study(ROOT / "examples" / "power_bonferroni_wins.toml"))
    row = next(r for r in pp.rows if r.kind is RouteKind.BONFERRONI)
    pw = {n: _binom_power_scipy(n, 0.5, 0.55, 5e-5) for n in range(2200, 6001)}
    first = min(n for n, v in pw.items() if v >= 0.8)
    last_below = max(n for n, v in pw.items() if v < 0.8)
    assert (first, last_below + 1) == (2237, 2269)
    assert sum(pw[n] < 0.8 for n in range(2238, 2269)) == 17
    assert (row.required_n, row.stays_from) == (2237, 2269)
    assert "falls back below it at 17 of the sizes up to 2,268; it stays at or above 0.8 from n = 2,269" in plan_text(
        pp
    )
    assert plan_json(pp)["routes"][1]["stays_above_target_from_n_records"] == 2269


def _t2_study(tmp_path: Path, n: int, alt: str, target: float) -> Path:
    """A study file: one binary choice (a description of 2 outputs) on n i.i.d. records, then a
    two-sample t-test of d = 0.5 at alpha 0.05 (the splitting route tests on fresh records)."""
    f = tmp_path / f"t2_{n}_{alt}_{target}.toml"
    f.write_text(
        f"""
[study]
name = "one binary choice, then a two-sample t-test"
[data]
n = {n}
iid = true
[[steps]]
type = "description"
range_size = 2
[test]
alpha = 0.05
[power]
test = "t2"
effect_size = 0.5
alternative = "{alt}"
target = {target}
"""
    )
    return f


@pytest.mark.parametrize(
    ("alt", "target", "per_group"),
    [("two-sided", 0.8, 64), ("larger", 0.95, 88)],
)
def test_two_sample_requirements_in_gpower_terms(tmp_path, alt, target, per_group):
    """Published per-group sizes for a two-sample t-test of d = 0.5 at alpha = 0.05: 64 per group
    at power 0.8 two-sided (Cohen 1988, G*Power), 88 per group (N = 176) at power 0.95 one-tailed
    (G*Power manual). With sample splitting on i.i.d. data (test half), the planner's required
    test records form groups whose equal-group size is that figure (and the study total is
    twice the test records, give or take the floor)."""
    f = _t2_study(tmp_path, 1000, alt, target)
    pp = plan_power(load_study(f))
    split = next(r for r in pp.rows if r.kind is RouteKind.SPLIT)
    d = next(x for x in plan_json(pp)["routes"] if x["kind"] == "split")
    assert d["per_group_equal_groups_required"] == per_group
    assert split.required_test_records in (2 * per_group - 1, 2 * per_group)
    assert split.required_n in (2 * split.required_test_records, 2 * split.required_test_records + 1)
    assert f"(G*Power and pwr give the n per group of equal groups: {per_group})" in plan_text(pp)


def test_power_lower_bounds_the_binomial_power_on_intervals():
    """power_lower over [a, b] is at most the exact power (scipy.stats) at every n in it, for
    both one-sided directions and two-sided, at several levels (the soundness the stays-from
    search rests on); and it is tight on one-point intervals."""
    from maxinfo_bounds.planning.power import power_lower

    for alt, eff in (("larger", 0.05), ("smaller", -0.05), ("two-sided", 0.05)):
        spec = PowerSpec(test="proportion", effect_size=eff, p0=0.5, alternative=alt)
        for g in (0.05, 1e-3):
            for a, b in ((200, 260), (1000, 1003), (57, 57), (3000, 3400)):
                lo = power_lower(spec, g, a, b)
                assert all(lo <= power_at(spec, g, n) + 1e-15 for n in range(a, b + 1))
                if a == b:
                    assert lo == power_at(spec, g, a)
    for n in (200, 1000, 3000):  # the planner's exact power itself, against scipy.stats
        spec = PowerSpec(test="proportion", effect_size=0.05, p0=0.5, alternative="larger")
        assert power_at(spec, 0.05, n) == pytest.approx(_binom_power_larger(n, 0.5, 0.55, 0.05), rel=1e-9)


CLUSTERED = """
[study]
name = "select 1 of 100 on clustered records, then a z-test"
family_size = 100
[data]
n = 2000
iid = false
{data}
[[steps]]
type = "description"
range_size = 100
[test]
alpha = 0.05
[power]
test = "z"
effect_size = 0.1
"""


def test_clustered_records_are_powered_on_the_effective_sample(tmp_path, capsys):
    """[data] cluster_size = 9 and icc = 0.125 give Kish's design effect 1 + 8/8 = 2 exactly:
    2,000 clustered records are worth 1,000 independent ones. The Bonferroni route (alpha/100
    on all records) then has the two-sided z-test's power at n = 1000, by hand
    Phi(0.1 sqrt(1000) - z_{0.00025}) + Phi(-0.1 sqrt(1000) - z_{0.00025}); the required n
    doubles against independent records (the smallest n_eff reaching 0.8, times 2, give or
    take the floor); the MDE is that of 1,000 records, (z_{0.00025} + z_{0.2}) / sqrt(1000).
    Without cluster_size and icc on records not assumed i.i.d., the report warns that the power
    assumes independence."""
    f = tmp_path / "c.toml"
    f.write_text(CLUSTERED.format(data="cluster_size = 9\nicc = 0.125"))
    pp = plan_power(load_study(f))
    spec = pp.study.power
    assert spec is not None and spec.design_effect == 2.0
    bon = next(r for r in pp.rows if r.kind is RouteKind.BONFERRONI)
    with mpmath.workdps(30):
        z = _z(mpmath.mpf(0.05) / 100 / 2)
        e = mpmath.mpf(0.1) * mpmath.sqrt(1000)
        hand = mpmath.ncdf(e - z) + mpmath.ncdf(-e - z)
    assert bon.power == pytest.approx(float(hand), rel=1e-12)
    g = tmp_path / "i.toml"
    g.write_text(CLUSTERED.format(data=""))
    pi = plan_power(load_study(g))
    bon_i = next(r for r in pi.rows if r.kind is RouteKind.BONFERRONI)
    assert bon_i.required_n is not None and bon.required_n is not None
    assert 2 * bon_i.required_n - 1 <= bon.required_n <= 2 * bon_i.required_n
    with mpmath.workdps(30):  # two-sided: the far tail Phi(-7.8) adds nothing at 1e-6
        mde = (z + _z(mpmath.mpf(0.2))) / mpmath.sqrt(1000)
    assert bon.mde is not None and mde <= bon.mde <= mde * (1 + 1e-6)
    assert bon_i.mde is not None and bon.mde > bon_i.mde  # fewer effective records, larger effect
    assert "design effect 2 (power on n / 2 records)" in plan_text(pp)
    assert "warning" not in plan_text(pp) and plan_json(pp)["power_assumes_independent_records"] is False
    assert "computed as if the n records were independent" in plan_text(pi)
    assert plan_json(pi)["power_assumes_independent_records"] is True
    assert main(["plan", str(f), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["power"]["design_effect"] == 2.0


@pytest.mark.parametrize(
    ("data", "key", "why"),
    [
        ("cluster_size = 9", "data.icc", "missing"),
        ("icc = 0.1", "data.cluster_size", "missing"),
        ("cluster_size = 9\nicc = 1.5", "data.icc", "invalid"),
        ("cluster_size = 0.5\nicc = 0.1", "data.cluster_size", "invalid"),
    ],
)
def test_design_effect_bad_input_is_refused_naming_the_key(tmp_path, data, key, why):
    from maxinfo_bounds.planning import PlanError

    f = tmp_path / "bad.toml"
    f.write_text(CLUSTERED.format(data=data))
    with pytest.raises(PlanError, match=rf"{key}.*{why}"):
        load_study(f)


def test_clustered_records_cannot_be_declared_iid_and_the_effect_is_given_once(tmp_path):
    from maxinfo_bounds.planning import PlanError

    f = tmp_path / "iid.toml"
    f.write_text(CLUSTERED.format(data="cluster_size = 9\nicc = 0.125").replace("iid = false", "iid = true"))
    with pytest.raises(PlanError, match=r"data\.cluster_size.*not i\.i\.d\."):
        load_study(f)
    g = tmp_path / "twice.toml"
    g.write_text(CLUSTERED.format(data="cluster_size = 9\nicc = 0.125") + "design_effect = 3\n")
    with pytest.raises(PlanError, match=r"power\.design_effect.*given twice"):
        load_study(g)
    h = tmp_path / "direct.toml"
    h.write_text(CLUSTERED.format(data="") + "design_effect = 2\n")
    assert load_study(h).power.design_effect == 2.0


ZSTUDY = """
[study]
name = "select 1 of 50, then a z-test"
family_size = 50
[data]
n = 400
iid = false
[[steps]]
type = "description"
range_size = 50
[test]
alpha = 0.05
[power]
test = "z"
effect_size = 0.2
"""


def _zstudy(tmp_path: Path) -> Path:
    f = tmp_path / "z.toml"
    f.write_text(ZSTUDY)
    return f


def test_the_five_questions_agree_with_the_plan_and_hand_forms(tmp_path):
    """One study, every question (G*Power's five analyses) for the Bonferroni route (alpha/50 on
    all 400 records, two-sided z-test of d = 0.2; the far tail is below 1e-12 throughout):
    * a priori and post hoc are the plan's required n and power;
    * sensitivity: (z_{alpha/100} + z_{0.2}) / sqrt(400), by hand;
    * criterion: power 0.8 needs z_{gamma/2} = 0.2 sqrt(400) - z_{0.2}, so alpha = 50 gamma =
      100 Q(4 - z_{0.2}), by hand;
    * compromise q = 4: 1 - power(alpha/50) = 4 alpha, solved at 40 digits with mpmath."""
    from maxinfo_bounds.planning import solve_power

    st = load_study(_zstudy(tmp_path))
    pp = plan_power(st)
    bon = next(r for r in pp.rows if r.kind is RouteKind.BONFERRONI)

    def answer(q: str, **kw: float) -> object:
        a = solve_power(st, q, **kw)
        return next(x for x in a.answers if x.kind is RouteKind.BONFERRONI)

    assert answer("n").value == bon.required_n and answer("power").value == bon.power
    with mpmath.workdps(40):
        mde = (_z(mpmath.mpf(0.05) / 100) + _z(mpmath.mpf(0.2))) / 20
        crit = 100 * (1 - mpmath.ncdf(4 - _z(mpmath.mpf(0.2))))

        def beta_minus(a: mpmath.mpf) -> mpmath.mpf:
            z = _z(a / 100)
            return 1 - (mpmath.ncdf(4 - z) + mpmath.ncdf(-4 - z)) - 4 * a

        comp = mpmath.findroot(beta_minus, 0.05)
    e = answer("effect").value
    assert mde <= e <= mde * (1 + 1e-6)
    a = answer("alpha")
    assert crit <= a.value <= crit * (1 + 1e-8) and a.power >= 0.8
    c = answer("compromise", ratio=4.0)
    assert c.value == pytest.approx(float(comp), rel=1e-8)
    assert (1 - c.power) / c.value <= 4


def test_the_five_questions_from_the_command_line(tmp_path, capsys):
    f = _zstudy(tmp_path)
    for q, label in (("n", "a priori"), ("power", "post hoc"), ("effect", "sensitivity"), ("alpha", "criterion")):
        assert main(["plan", str(f), "--solve-for", q]) == 0
        assert f"question   {label}" in capsys.readouterr().out
    assert main(["plan", str(f), "--solve-for", "compromise", "--ratio", "4", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["solve_for"] == "compromise" and d["ratio_beta_over_alpha"] == 4.0
    assert {x["kind"] for x in d["answers"]} == {"reuse", "bonferroni", "union"}
    for argv, frag in (
        (["--solve-for", "compromise"], "ratio: missing"),
        (["--solve-for", "alpha", "--ratio", "4"], "ratio=4.0 is invalid"),
        (["--solve-for", "compromise", "--ratio", "0"], "ratio: 0.0 is invalid"),
        (["--solve-for", "effect", "--sweep", "n=10:20"], "solve_for='effect' is invalid"),
    ):
        assert main(["plan", str(f), *argv]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and frag in err[0] and "Traceback" not in err[0], err


def test_solved_designs_hold_in_simulation():
    """Monte Carlo of the new solves (seeded, 40,000 repetitions each, 4.5 standard errors):
    a one-sample t-test at the MDE it reports for n = 34 (two-sided, 0.05) and the z statistic
    at the criterion alpha the Bonferroni route reports (alpha/50, d = 0.2, n = 400) reject at
    the target rate 0.8."""
    import numpy as np

    from maxinfo_bounds.planning import PowerSpec

    rng = np.random.default_rng(20261126)
    reps = 40_000
    se = 4.5 * math.sqrt(0.8 * 0.2 / reps)
    d = minimum_effect(PowerSpec(test="t", effect_size=0.5), 0.05, 34)
    x = rng.normal(d, 1.0, size=(reps, 34))
    t = x.mean(axis=1) / (x.std(axis=1, ddof=1) / math.sqrt(34))
    crit = stats.t.isf(0.025, 33)
    assert abs(np.mean(np.abs(t) > crit) - 0.8) < se
    spec = PowerSpec(test="z", effect_size=0.2)
    # the criterion's threshold for the z-test on 400 records: gamma with power exactly 0.8
    with mpmath.workdps(30):
        gamma = float(2 * (1 - mpmath.ncdf(4 - _z(mpmath.mpf(0.2)))))
    assert power_at(spec, gamma * (1 + 1e-9), 400) >= 0.8
    z = rng.normal(0.2 * 20, 1.0, size=reps)
    assert abs(np.mean(np.abs(z) > stats.norm.isf(gamma / 2)) - 0.8) < se


def test_a_plan_displays_itself_in_a_notebook():
    """The PowerPlan's views (issue 43): a short repr, markdown and HTML for Jupyter, text as the
    CLI prints it, a pandas table with the JSON fields."""
    pp = plan_power(load_study(ROOT / "examples" / "power_bonferroni_wins.toml"))
    r = repr(pp)
    assert len(r) < 300 and r.startswith("PowerPlan(study=") and "Bonferroni" in r
    md = pp._repr_markdown_()
    assert md == pp.to_markdown() and md.startswith("### select 1 of 1,000")
    assert "| Bonferroni over the declared family of 1000 | 5e-05 | 5000 | yes | 0.9992 | 2,237 | 0.03364 |" in md
    html = pp._repr_html_()
    assert "<table>" in html and "p &lt;= 5e-05" in html and "<script" not in html
    assert pp.text() == plan_text(pp)
    df = pp.to_frame()
    assert list(df["kind"]) == [r.kind.value for r in pp.rows]
    assert df.loc[df["kind"] == "bonferroni", "required_n_records"].item() == 2237


def test_the_methods_paragraph_cites_what_it_uses(tmp_path, capsys):
    """The methods paragraph names the threshold, power and required n the plan reports, cites
    each derivation step by paper and result, and every pandoc citation has its BibTeX entry
    (well formed: balanced braces, one per key); the command line writes both files; the
    paragraph docs/planner.md renders is current (tools/methods_in_docs.py)."""
    import re
    import subprocess
    import sys

    pp = plan_power(load_study(ROOT / "examples" / "power_reuse_beats_splitting.toml"))
    text = pp.methods()
    rec = pp.recommended
    assert rec is not None
    assert "p <= 0.00485627" in text and f"power {rec.power:.4f}" in text and "609,438 records" in text
    assert "Dwork-Roth Thm 3.6 (Laplace mechanism) [@DworkRoth2014]" in text
    assert "RRST Thm 1.4 (second part); DFHPRR Thm 8 [@DFHPRR2015; @RRST2016]" in text
    cited = set(re.findall(r"@([A-Za-z_0-9]+)", text))
    bib = pp.bibtex()
    entries = re.findall(r"^@\w+\{([^,]+),", bib, re.M)
    assert cited <= set(entries) and len(entries) == len(set(entries))
    assert bib.count("{") == bib.count("}")
    md, bb = tmp_path / "m.md", tmp_path / "r.bib"
    assert (
        main(
            ["plan", str(ROOT / "examples" / "power_reuse_beats_splitting.toml"), "--report", str(md), "--bib", str(bb)]
        )
        == 0
    )
    assert f"wrote {md}" in capsys.readouterr().out
    assert md.read_text() == pp.to_markdown().replace(str(ROOT / "examples"), str(ROOT / "examples"))
    assert bb.read_text() == bib
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "methods_in_docs.py")], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_one_vacuity_rule_for_plans_sweeps_and_power(tmp_path, capsys):
    """Issue 43: a threshold below 2.2e-16 is unusable as a p-value cut-off that standard
    software prints, but a z-, t- or exact binomial test compares its statistic with the
    critical value at any positive level. So the same study (10 Laplace queries at eps = 0.01,
    gamma = 1.86e-45) is vacuous in every view without a [power] table and in none with one (the
    plan then gives the rule: |Z| >= z_{gamma/2} = 14.1503 rounded up, by hand at 30 digits);
    gamma = 0 is vacuous in both."""
    from maxinfo_bounds.planning import sweep
    from maxinfo_bounds.planning.report import sweep_text

    with_power = tmp_path / "p.toml"
    with_power.write_text(ZERO_POWER)
    without = tmp_path / "np.toml"
    without.write_text(ZERO_POWER.split("[power]")[0])
    tp, tn = plan_text(plan_power(load_study(with_power))), plan_text(plan_power(load_study(without)))
    assert "vacuous" in tn and "vacuous" not in tp
    with mpmath.workdps(30):
        z = _z(mpmath.mpf(0.05) / 2 ** (mpmath.mpf(0.1) * 1000 / mpmath.log(2)) / 2)
    assert 14.1502 < z < 14.1503 and "reject when |Z| >= 14.1503" in tp
    for f, known in ((with_power, True), (without, False)):
        st = load_study(f)
        rows = sweep(st, "steps[0].times", [10, 20])
        text = sweep_text("steps[0].times", rows, "x.png", critical_value_known=known)
        assert ("vacuous" in text) is (not known)
        assert main(["plan", str(f), "--sweep", "steps[0].times=10:20:2", "--plot", str(tmp_path / "s.png")]) == 0
        assert ("vacuous" in capsys.readouterr().out) is (not known)
    zero = sweep(load_study(with_power), "steps[0].times", [100_000])
    assert zero[0].gamma == 0.0
    assert "vacuous (gamma = 0" in sweep_text("steps[0].times", zero, "x.png", critical_value_known=True)
    assert main(["pvalue", "--alpha", "0.05", "--k", "60", "--beta", "0"]) == 0
    assert "only a test whose critical value at that level can be computed" in capsys.readouterr().out


def test_power_sweeps_give_each_routes_power_and_required_n(tmp_path, capsys):
    """Issue 43: a sweep of a study with a [power] table gives, at each value, every valid
    route's power and required n (a plan_power at the point), over n or the effect size. The
    Bonferroni route's power at n = 1000 and 2000 is the exact binomial test's (scipy.stats);
    its required n falls as the effect grows; JSON and the plot are written; an effect sweep
    of a study without [power] is refused naming the table."""
    from maxinfo_bounds.planning import power_sweep

    st = load_study(ROOT / "examples" / "power_bonferroni_wins.toml")
    pts = power_sweep(st, "n", [1000, 2000])
    for p in pts:
        bon = next(r for r in p.plan.rows if r.kind is RouteKind.BONFERRONI)
        assert bon.power == pytest.approx(_binom_power_larger(int(p.value), 0.5, 0.55, 5e-5), rel=1e-9)
    eff = power_sweep(st, "effect_size", [0.03, 0.05, 0.08])
    reqs = [next(r for r in p.plan.rows if r.kind is RouteKind.BONFERRONI).required_n for p in eff]
    assert reqs[0] > reqs[1] > reqs[2] and reqs[1] == 2237
    png = tmp_path / "s.png"
    assert (
        main(
            [
                "plan",
                str(ROOT / "examples" / "power_bonferroni_wins.toml"),
                "--sweep",
                "effect_size=0.03:0.07:3",
                "--plot",
                str(png),
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "*Bonferroni over the declared family of 1000" in out and "2,237" in out and png.stat().st_size > 0
    assert (
        main(
            [
                "plan",
                str(ROOT / "examples" / "power_bonferroni_wins.toml"),
                "--sweep",
                "n=1000:2000:2",
                "--plot",
                str(png),
                "--json",
            ]
        )
        == 0
    )
    d = json.loads(capsys.readouterr().out)
    assert [p["value"] for p in d["points"]] == [1000.0, 2000.0] and d["points"][0]["meets_target_power"] is False
    from maxinfo_bounds.planning import PlanError, with_param

    with pytest.raises(PlanError, match=r"power: missing: effect_size is a field of the \[power\] table"):
        with_param(load_study(ROOT / "examples" / "laplace_queries.toml"), "effect_size", 0.1)
    with pytest.raises(PlanError, match=r"power\.effect_size"):
        with_param(st, "effect_size", -0.1)  # a one-sided 'larger' test detects only positive effects


def test_a_threshold_sweep_shows_its_vacuous_points(tmp_path, capsys):
    """The plain sweep's plot no longer drops gamma = 0 points: a sweep whose later points are
    vacuous writes the plot and says so in the table."""
    png = tmp_path / "v.png"
    f = tmp_path / "np.toml"
    f.write_text(ZERO_POWER.split("[power]")[0])
    assert main(["plan", str(f), "--sweep", "steps[0].times=1:100000:4", "--plot", str(png)]) == 0
    out = capsys.readouterr().out
    assert "vacuous (gamma = 0" in out and png.stat().st_size > 0


@pytest.mark.parametrize(
    ("n", "d", "alt", "power"),
    [
        (20, 0.2, "two-sided", 0.1359562887679666),
        (30, 1.0, "two-sided", 0.9995636009612725),
        (20, -0.2, "smaller", 0.21707518167191),
        (20, 0.05, "larger", 0.0764888785042198),
        (30, 1.0, "larger", 0.999892010204909),
    ],
)
def test_one_sample_t_power_against_r_pwr(n, d, alt, power):
    """R's pwr.t.test(n, d, sig.level = 0.05, type = "one.sample", alternative), as pasted in
    statsmodels' test suite (statsmodels/stats/tests/test_power.py, TestTTPowerOneS1..6): an
    external reference the project's noncentral-t power must reproduce."""
    assert power_at(PowerSpec(test="t", effect_size=d, alternative=alt), 0.05, n) == pytest.approx(power, rel=1e-9)


def test_the_normal_approximation_is_named_beside_the_exact_binomial_power():
    """The plan reports the exact binomial power it uses and, named, the large-sample normal
    approximation a reader may get from an approximate calculator: at n = 5000, gamma = 5e-5,
    p0 = 0.5, p1 = 0.55 (larger), by hand Phi((sqrt(5000) 0.05 - z_{5e-5} 0.5) / sqrt(0.55 0.45))."""
    from maxinfo_bounds.planning.power import normal_approximation_power

    spec = PowerSpec(test="proportion", effect_size=0.05, p0=0.5, alternative="larger")
    with mpmath.workdps(30):
        hand = mpmath.ncdf(
            (mpmath.sqrt(5000) * mpmath.mpf("0.05") - _z(mpmath.mpf("5e-5")) * mpmath.mpf("0.5"))
            / mpmath.sqrt(mpmath.mpf("0.55") * mpmath.mpf("0.45"))
        )
    assert normal_approximation_power(spec, 5e-5, 5000) == pytest.approx(float(hand), rel=1e-12)
    text = plan_text(plan_power(load_study(ROOT / "examples" / "power_bonferroni_wins.toml")))
    assert "power 0.9992 by the exact binomial test (used here); the large-sample normal approximation" in text


def test_a_swept_alpha_that_meets_the_target_is_refused_under_the_right_key():
    """A power sweep over alpha reaching the target power (0.8) is refused at that point naming
    power.target, the key in conflict, not test.alpha with the target's value."""
    from maxinfo_bounds.planning import PlanError, power_sweep, with_param

    st = load_study(ROOT / "examples" / "power_bonferroni_wins.toml")
    with pytest.raises(PlanError, match=r"power\.target: 0\.8 is invalid: must be above test\.alpha = 0\.9"):
        with_param(st, "alpha", 0.9)
    pts = power_sweep(st, "alpha", [0.05, 0.9])
    assert pts[0].plan is not None and pts[1].plan is None and "power.target" in pts[1].reason


def test_effective_records_are_floored_exactly():
    """Kish's design effect 1 + (2 - 1) 0.01 (the float 0.01, exactly) rounds up to the float
    1.01, which is 1.0100000000000000088...: 101 records are then worth floor(101 / that) = 99,
    while the float quotient rounds to 100.0 (counting that would overstate the power); the
    power is the test's on 99 records."""
    from dataclasses import replace
    from fractions import Fraction

    from maxinfo_bounds.planning.power import effective_records
    from maxinfo_bounds.planning.study import _design_effect

    de = _design_effect("<t>", {"cluster_size": 2, "icc": 0.01, "iid": False})
    assert de == 1.01 and 101 / de == 100.0 and Fraction(101) / Fraction(de) < 100
    spec = PowerSpec(test="z", effect_size=0.3, design_effect=de)
    assert effective_records(spec, 101) == 99
    assert power_at(spec, 0.05, 101) == power_at(replace(spec, design_effect=1.0), 0.05, 99)


def test_the_methods_paragraph_of_a_union_route_names_its_outputs():
    """The union route's sentence names M, the analysis's outputs (1,000 here), read from the
    study, not recovered from the rounded threshold."""
    from maxinfo_bounds.planning import Description, Study

    st = Study(
        n=5000, alpha=0.05, iid=False, steps=(Description(range_size=1000),), power=PowerSpec(test="z", effect_size=0.1)
    )
    pp = plan_power(st)
    assert pp.recommended is not None and pp.recommended.kind is RouteKind.UNION
    assert "the test is one of at most 1000 fixed tests and we test at p <= 5e-05" in pp.methods()


@pytest.mark.parametrize(
    ("n_per_group", "d", "alt", "power"),
    [
        (30, 1.0, "two-sided", 0.967708258242517),
        (20, 0.1, "two-sided", 0.06095912465411235),
        (30, 1.0, "larger", 0.985459690251624),
        (30, 0.01, "larger", 0.0540740302835667),
    ],
)
def test_two_sample_t_power_against_r_pwr(n_per_group, d, alt, power):
    """R's pwr.t.test(n, d, sig.level = 0.05, type = "two.sample", alternative), n per group, as
    pasted in statsmodels' test suite (statsmodels/stats/tests/test_power.py, TestTTPowerTwoS1-4):
    the project's t2 power on 2n records (two equal groups) must reproduce them. (TwoS5/6 have
    unequal groups, 20 and 30, which the planner's t2 does not model; OneS5, a positive d under
    alternative "less", is refused by design: a one-sided test detects only its own sign.)"""
    spec = PowerSpec(test="t2", effect_size=d, alternative=alt)
    assert power_at(spec, 0.05, 2 * n_per_group) == pytest.approx(power, rel=1e-10)


def test_gpower_manual_examples(tmp_path):
    """The G*Power reference manual's t-test page (Heinrich-Heine-Universitaet Duesseldorf,
    "t-Test on Means", reference_manual_04): two-tailed two-group t-test of d = 0.5 at alpha
    0.05.
    * A priori, power 0.9: total sample size 172, actual power 0.9032 (170 records, 85 per group,
      fall short);
    * compromise, n1 = n2 = 70, q = beta/alpha = 2: alpha 0.0670, power 0.866.
    And a course handout's G*Power run (one-sample t, two tails, d = 1/3, N = 25): power 0.360.
    The compromise is asked of the planner: sample splitting on 280 i.i.d. records tests on 140
    fresh ones, two groups of 70, at alpha; the a priori answer is its per-group size."""
    spec = PowerSpec(test="t2", effect_size=0.5, alternative="two-sided")
    assert round(power_at(spec, 0.05, 172), 4) == 0.9032
    assert power_at(spec, 0.05, 170) < 0.9
    assert round(power_at(PowerSpec(test="t", effect_size=1 / 3, alternative="two-sided"), 0.05, 25), 3) == 0.360
    st = load_study(_t2_study(tmp_path, 280, "two-sided", 0.9))
    from maxinfo_bounds.planning import solve_power

    split = next(x for x in solve_power(st, "compromise", ratio=2.0).answers if x.kind is RouteKind.SPLIT)
    assert round(split.value, 4) == 0.0670 and round(split.power, 3) == 0.866
    d = next(x for x in plan_json(plan_power(st))["routes"] if x["kind"] == "split")
    assert d["per_group_equal_groups_required"] == 86  # 172 / 2


def test_requirement_notes_by_hand():
    """The notes beside each route's required n: the two groups of a two-sample t-test at the
    study's n and at the required n (splitting: 150 test records of n = 301 are 75 and 75; at
    d = 0.5, alpha 0.05, two-sided, 64 per group: Cohen 1988 Table 2.4.1), and for the exact
    binomial test its power beside the normal approximation's (power_bonferroni_wins.toml: the
    exact power at alpha/1000 on 5,000 records by scipy.stats' binomial)."""
    from maxinfo_bounds.planning import Description, PowerSpec, Study
    from maxinfo_bounds.planning.recommend import requirement_notes

    spec = PowerSpec("t2", 0.5, "two-sided", 0.8, None, 0.5)
    notes = requirement_notes(
        plan_power(Study(n=301, iid=True, alpha=0.05, steps=(Description(range_size=2),), power=spec))
    )
    assert len(notes) == 3 and notes[0].startswith(
        "adaptive reuse (max-information composition): two-sample t-test: the 301 test records at n = 301 "
        "are groups of 150 and 151; at the required n, "
    )
    assert notes[2] == (
        "sample splitting (test on 0.5 of the records): two-sample t-test: the 150 test records at n = 301 "
        "are groups of 75 and 75; at the required n, 128 test records: groups of 64 and 64 (G*Power and pwr "
        "give the n per group of equal groups: 64)"
    )
    pp = plan_power(load_study(ROOT / "examples" / "power_bonferroni_wins.toml"))
    notes = requirement_notes(pp)
    exact = _binom_power_scipy(5000, 0.5, 0.55, 5e-5)
    head = f"Bonferroni over the declared family of 1000: power {exact:.4f} by the exact binomial test (used here); "
    (line,) = [x for x in notes if x.startswith(head)]
    assert "the large-sample normal approximation (z-test of a proportion) would say 0.99" in line
    # a route without a power (not valid here) has no note
    assert not any(x.startswith("sample splitting") for x in notes)


def test_solve_power_refusals_word_for_word():
    from maxinfo_bounds.planning import solve_power

    st = load_study(ROOT / "examples" / "power_reuse_beats_splitting.toml")
    cases = [
        (lambda: solve_power("notastudy", "n"), "study: must be a Study, got str"),
        (lambda: solve_power(st, "nope"), "solve_for: 'nope' is invalid: one of n, power, effect, alpha, compromise"),
        (lambda: solve_power(st, "power", ratio=2.0), "ratio: 2.0 is given only with solve_for = 'compromise'"),
        (
            lambda: solve_power(load_study(ROOT / "examples" / "laplace_queries.toml"), "n"),
            f"{ROOT / 'examples' / 'laplace_queries.toml'}: power: missing: a power question needs the [power] table",
        ),
    ]
    for call, text in cases:
        with pytest.raises(PlanError) as e:
            call()
        assert str(e.value) == text


def test_a_priori_answers_carry_each_route_s_threshold_and_note():
    """The a priori question's answer per route is the power plan's row: its required n, the
    threshold it tests at and the power there, with the search's note (the reuse example)."""
    from maxinfo_bounds.planning import solve_power

    st = load_study(ROOT / "examples" / "power_reuse_beats_splitting.toml")
    rows = {r.kind: r for r in plan_power(st).rows if r.valid}
    answers = solve_power(st, "n").answers
    assert {a.kind for a in answers} == set(rows)
    for a in answers:
        r = rows[a.kind]
        assert (a.value, a.threshold, a.power) == (r.required_n, r.threshold, r.power)
        assert a.note.startswith("smallest n (proven: branch and bound on the power)")
    reuse = next(a for a in answers if a.kind is RouteKind.REUSE)
    assert reuse.value == 609_438 and 0.0048 < reuse.threshold < 0.0049


def test_criterion_answers_are_the_smallest_alpha_reaching_the_target():
    """The criterion question (alpha for the target power), per route, by the defining property:
    re-planned at the answered alpha the route reaches 0.8 at the same threshold; at an alpha
    10^-6 relative smaller it does not (the answer is minimal within its 10^-9 tolerance)."""
    from maxinfo_bounds.planning import solve_power, with_param

    st = load_study(ROOT / "examples" / "power_reuse_beats_splitting.toml")
    answers = solve_power(st, "alpha").answers
    assert {a.kind for a in answers} == {RouteKind.REUSE, RouteKind.SPLIT}
    for a in answers:
        at = next(r for r in plan_power(with_param(st, "alpha", a.value)).rows if r.kind is a.kind)
        below = next(r for r in plan_power(with_param(st, "alpha", a.value * (1 - 1e-6))).rows if r.kind is a.kind)
        assert at.power >= 0.8 > below.power and at.threshold == a.threshold and a.power == at.power
        assert a.note == "the smallest alpha (1e-9 relative, rounded up) with which the route reaches the target power"
    # splitting tests at alpha itself; reuse at the corrected threshold gamma(alpha) < alpha
    split = next(a for a in answers if a.kind is RouteKind.SPLIT)
    reuse = next(a for a in answers if a.kind is RouteKind.REUSE)
    assert split.threshold == split.value and reuse.threshold < reuse.value


def test_the_saw_tooth_note_counts_the_sizes_below_target_by_hand():
    """A description of 2 outputs, records not i.i.d.: the union bound tests at alpha/2 = 0.025.
    The exact one-sided binomial test of p0 = 0.5 (reject when X >= c(n), the smallest c with
    P(X >= c | 0.5) <= 0.025) has power P(X >= c(n) | 0.75) at effect 0.25, computed here with
    scipy.stats.binom for every n: it first reaches 0.8 at n = 30, falls below it again at 3
    sizes up to 34, and stays at or above it from 35 on (checked here up to 3000)."""
    from scipy.stats import binom

    from maxinfo_bounds.planning import Description, PowerSpec, Study, plan_power
    from maxinfo_bounds.planning.recommend import requirement_notes

    def power(n: int) -> float:
        c = int(np.argmax(binom.sf(np.arange(-1, n + 1), n, 0.5) <= 0.025))  # the first c
        return float(binom.sf(c - 1, n, 0.75))

    ok = [power(n) >= 0.8 for n in range(1, 3001)]
    first = ok.index(True) + 1
    stays = max(n for n in range(1, 3001) if not ok[n - 1]) + 1
    below = sum(not ok[n - 1] for n in range(first + 1, stays))
    assert (first, below, stays) == (30, 3, 35)
    spec = PowerSpec(test="proportion", effect_size=0.25, p0=0.5, alternative="larger")
    pp = plan_power(Study(n=300, alpha=0.05, iid=False, steps=(Description(range_size=2),), power=spec))
    name = "union bound over the analysis's 2 possible outputs"
    assert (
        f"{name}: the exact binomial test's power saw-tooths in n: it reaches 0.8 at n = {first} but falls back "
        f"below it at {below} of the sizes up to {stays - 1}; it stays at or above 0.8 from n = {stays} on "
        "(proven up to 10^12)"
    ) in requirement_notes(pp)
