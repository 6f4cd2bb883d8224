"""The planning reports (``planning/report.py``, issue 44): the text, JSON, markdown and HTML
views and the methods paragraph, line by line, with every number derived by hand here:

* a choice among M outputs (DFHPRR Thm 6 with RRST Thm 1.3): beta = alpha/2, k = log2(M/beta)
  bits, gamma = alpha^2/(4M); Bonferroni over a declared family of M tests at alpha/M;
* pure eps-DP on data not i.i.d. (RRST Thm 1.4a): k = eps n log2(e), gamma = alpha e^(-eps n);
* powers by scipy.stats (the exact binomial test's critical count and power; the normal
  distribution for z).
Each value is shown on its safe side: a threshold rounded down, k and beta up."""

from __future__ import annotations

import json
import math

import mpmath
import pytest
from scipy import stats

from maxinfo_bounds import __version__
from maxinfo_bounds.planning import Description, Laplace, PowerSpec, Study, load_study, plan, plan_power, solve, sweep
from maxinfo_bounds.planning.report import (
    derivation_lines,
    methods_text,
    plan_html,
    plan_json,
    plan_markdown,
    plan_text,
    power_sweep_json,
    power_sweep_text,
    reach_lines,
    solve_fields,
    sweep_json,
    sweep_text,
)

S10 = Study(n=1000, iid=False, alpha=0.05, steps=(Description(range_size=10),))
VACUOUS = (
    "gamma = 6.25e-24 is below 2.2e-16, the smallest p-value standard software reports (R prints p < 2.2e-16): "
    "no printed p-value can be checked against it; only a test whose critical value at that level can be "
    "computed (a z-, t- or exact binomial test: give the study a [power] table) can use it"
)


def _binomial_power(n: int, p0: float, p1: float, level: float) -> float:
    """The exact one-sided binomial test's power: the smallest count c with P0(X >= c) <= level,
    then P1(X >= c)."""
    c = int(stats.binom.isf(level, n, p0)) + 1
    while stats.binom.sf(c - 2, n, p0) <= level:  # the smallest such c
        c -= 1
    assert stats.binom.sf(c - 1, n, p0) <= level < stats.binom.sf(c - 2, n, p0)
    return float(stats.binom.sf(c - 1, n, p1))


def test_derivation_lines_of_a_choice_among_ten():
    """M = 10, alpha = 0.05: beta = 0.025, k = log2(400) = 8.643856... (shown up: 8.64386), gamma
    = 0.0025/40 = 6.25e-05 (certified just below, shown down: 6.24999e-05); the chain's four
    steps with their theorems and conditions; the routes tried."""
    lines = derivation_lines(plan(S10))
    assert math.log2(400) == pytest.approx(8.643856189774724)
    assert lines[:8] == [
        "gamma      6.24999e-05   (corrected threshold, rounded down)",
        "k          8.64386 bits (rounded up)",
        "beta       0.025",
        "route      max-information composition",
        "",
        "derivation:",
        "   1. steps[0] (description): DFHPRR-6: range_size=10, times=1 -> 10 possible outputs",
        "   2. max-information of the stage: DFHPRR-6: beta=0.025 -> k <= 8.64386 bits  "
        "[range_size >= 1 integer; 0 < beta <= 1]",
    ]
    assert lines[8:13] == [
        "   3. composition over stages: RRST-A.3: 1 stage -> k = 8.64386 bits, beta = 0.025  "
        "[only the first stage product-only]",
        "   4. p-value correction: RRST-1.3: alpha=0.05 -> gamma = 6.24999e-05  "
        "[gamma = (alpha - beta) / 2^k, rounded down]",
        "",
        "routes tried:",
        "  max-information composition: gamma = 6.24999e-05",
    ]
    assert lines[13].startswith("  mutual information: gamma = ") and len(lines) == 14


def test_derivation_lines_say_vacuous_only_for_an_unnamed_test():
    """M = 10^20: gamma = 0.0025/(4 * 10^20) = 6.25e-24, below 2.2e-16: vacuous for a test whose
    p-value is printed, usable when the study names its test (its critical value is computable)."""
    r = plan(Study(n=1000, iid=False, alpha=0.05, steps=(Description(range_size=10**20),)))
    lines = derivation_lines(r)
    assert lines[:3] == [
        "gamma      6.24999e-24   (corrected threshold, rounded down)",
        f"vacuous    {VACUOUS}",
        "k          71.7605 bits (rounded up)",
    ]
    assert math.log2(10**20 / 0.025) == pytest.approx(71.76048, abs=1e-5)
    assert "  max-information composition: gamma = 6.24999e-24 (vacuous: " + VACUOUS.split(": ", 1)[1] + ")" in lines
    assert VACUOUS.split(": ", 1)[1].startswith("no printed p-value can be checked against it; only a test whose")
    named = derivation_lines(r, critical_value_known=True)
    assert named[1] == "k          71.7605 bits (rounded up)"
    assert "  max-information composition: gamma = 6.24999e-24" in named
    # the mutual-information route's threshold underflows to 0: vacuous either way
    assert any(
        x.startswith("  mutual information: gamma = 0.0 (vacuous: the corrected threshold rejects") for x in named
    )


def test_sweep_text_and_json_by_hand():
    pts = sweep(S10, "range_size", [10, 10**20, 0])
    text = sweep_text("range_size", pts, "x.png").splitlines()
    assert text[0] == f"{'range_size':>14}  gamma (rounded down)       route"
    assert text[1] == f"{10:>14d}  {'6.24999e-05':<24}  max-information composition"
    assert text[2] == f"{10**20:>14d}  {'6.24999e-24':<24}  vacuous ({VACUOUS}); max-information composition"
    assert (
        text[3]
        == f"{0:>14d}  {'no valid route':<24}  <study>: steps[0].range_size: 0 is invalid: must be an integer >= 1"
    )
    assert text[4] == "wrote x.png" and len(text) == 5
    named = sweep_text("range_size", pts, "x.png", critical_value_known=True).splitlines()
    assert named[2] == f"{10**20:>14d}  {'6.24999e-24':<24}  max-information composition"
    d = sweep_json(S10, "range_size", pts, "x.png")
    assert d["study"] == "study" and d["param"] == "range_size" and d["plot"] == "x.png"
    assert d["maxinfo_bounds_version"] == __version__
    assert [p["value"] for p in d["points"]] == [10, 10**20, 0] and isinstance(d["points"][0]["value"], int)
    assert d["points"][0]["gamma"] == pytest.approx(6.25e-05, rel=1e-12) and d["points"][0]["gamma"] <= 6.25e-05
    assert d["points"][2]["gamma"] is None
    assert d["points"][1]["route"] == f"vacuous ({VACUOUS}); max-information composition"
    # a real parameter is printed to 6 significant digits
    a = sweep_text("alpha", sweep(S10, "alpha", [0.05, 0.01]), "y.png").splitlines()
    assert a[0] == f"{'alpha':>14}  gamma (rounded down)       route"
    assert a[1] == f"{0.05:>14.6g}  {'6.24999e-05':<24}  max-information composition"
    assert a[2] == f"{0.01:>14.6g}  {'2.49999e-06':<24}  max-information composition"


def test_solve_fields_with_and_without_power():
    """The largest M with alpha^2/(4M) >= 1.1e-6 is 568 (test_explore_units); with a [power]
    table the power of the two-sided z-test of d = 0.1 on the 1,000 records at gamma(568):
    Q(z - sqrt(10)) + Q(z + sqrt(10)), z the upper gamma/2 quantile (mpmath, 30 digits)."""
    m = solve(S10, "range_size", 1.1e-6)
    d = solve_fields(S10, "range_size", 1.1e-6, m.value, m.plan, m.direction)
    assert d == {
        "study": "study",
        "solve": "range_size",
        "target_gamma": 1.1e-6,
        "value": 568,
        "direction": "largest",
        "gamma_at_value": m.plan.gamma,
        "route": "max-information composition",
        "maxinfo_bounds_version": __version__,
    }
    assert m.plan.gamma == pytest.approx(0.0025 / (4 * 568), rel=1e-12)
    p = Study(
        n=1000, iid=False, alpha=0.05, steps=(Description(range_size=10),), power=PowerSpec(test="z", effect_size=0.1)
    )
    d = solve_fields(p, "range_size", 1.1e-6, m.value, m.plan, m.direction)
    with mpmath.workdps(30):
        g = mpmath.mpf(m.plan.gamma)
        z = -mpmath.sqrt(2) * mpmath.erfinv(g - 1)
        want = mpmath.ncdf(-z + mpmath.sqrt(10)) + mpmath.ncdf(-z - mpmath.sqrt(10))
    assert d["power_at_value"] == pytest.approx(float(want), rel=1e-9)
    assert d["power_note"] == (
        "power of the z test (two-sided), Cohen's d = 0.1, target power 0.8 at gamma_at_value on 1000 records"
    )
    assert list(d)[-1] == "maxinfo_bounds_version"
    # solved for n: the power is read on the solved n
    n = solve_fields(p, "n", 1e-6, 250, m.plan, "largest")
    assert n["power_note"].endswith("on 250 records")


BON = "Bonferroni over the declared family of 1000"
REUSE = "adaptive reuse (max-information composition)"
UNION = "union bound over the analysis's 1000 possible outputs"


@pytest.fixture(scope="module")
def bonferroni_plan():
    return plan_power(load_study("examples/power_bonferroni_wins.toml"))


def test_plan_text_of_the_bonferroni_example(bonferroni_plan):
    """Select 1 of 1,000 declared hypotheses on 5,000 records (not i.i.d.), then the exact
    one-sided binomial test of p0 = 0.5 against 0.55: Bonferroni tests at 0.05/1000 = 5e-05 with
    power 0.9992 (scipy's binomial); reuse at gamma = 0.0025/4000 = 6.25e-07 (shown down), with
    k = log2(40000) = 15.2877 (up: 15.2878) bits and beta = 0.025."""
    text = plan_text(bonferroni_plan).splitlines()
    bon_power = _binomial_power(5000, 0.5, 0.55, 5e-05)
    reuse_power = _binomial_power(5000, 0.5, 0.55, 6.24999e-07)
    assert f"{bon_power:.4f}" == "0.9992" and f"{reuse_power:.4f}" == "0.9871"
    assert text[:4] == [
        "study      select 1 of 1,000, then an exact binomial test (Bonferroni wins)",
        "data       n = 5000 records (not assumed i.i.d.)",
        "alpha      0.05",
        "power      proportion test (larger), p1 - p0 = 0.05 (p0 = 0.5), target power 0.8",
    ]
    assert text[5].startswith(
        "           (warning: the records are not assumed i.i.d. and [data] gives no cluster_size"
    )
    assert text[6:10] == [
        "",
        f"recommended: {BON}",
        f"  test at p <= 5e-05 on 5000 records; power {bon_power:.4f}; required n = 2237",
        "  valid only if the chosen test is one of the pre-declared family",
    ]
    assert text[10:12] == ["", "routes:"]
    notes = text.index("notes:")
    assert text[notes + 1 : notes + 3] == [
        f"  {REUSE}: certified max-information bound, threshold rounded down",
        f"  {BON}: valid only if the chosen test is one of the pre-declared family",
    ]
    assert f"  {BON}: required n: smallest n (proven: branch and bound on the power)" in text
    cert = text.index("certified adaptive reuse (all 5000 records):")
    assert text[cert + 1 : cert + 5] == [
        "gamma      6.24999e-07   (corrected threshold, rounded down)",
        "k          15.2878 bits (rounded up)",
        "beta       0.025",
        "route      max-information composition",
    ]
    assert math.log2(40000) == pytest.approx(15.287712379549449)
    tail = text[text.index("power of each reuse route at n:") :]
    assert tail[1] == f"  max-information composition: gamma = 6.249e-07, power {reuse_power:.4f}"
    assert tail[2].startswith("  mutual information: gamma = ") and tail[2].endswith(", power 0.0000")
    assert len(tail) == 3


def test_plan_json_of_the_bonferroni_example(bonferroni_plan):
    d = plan_json(bonferroni_plan)
    assert d["source"] == "examples/power_bonferroni_wins.toml" and d["maxinfo_bounds_version"] == __version__
    assert d["vacuous"] is None and d["usable_if"] is None
    assert d["power_assumes_independent_records"] is True
    assert "to_reach_target_power" not in d
    json.dumps(d)


def test_methods_paragraph_of_the_bonferroni_example(bonferroni_plan):
    paras = methods_text(bonferroni_plan).split("\n\n")
    assert paras[0] == (
        "**Adaptive analysis and final test.** The exploratory analysis (1 step: choose a hypothesis) runs on "
        "n = 5000 records (not assumed i.i.d.) and chooses the hypothesis of the final test, at significance "
        "alpha = 0.05. Because the test is chosen after the analysis has seen the data, the final hypothesis is "
        "one of a family of 1000 declared before the data were seen, so we test at the Bonferroni threshold "
        "alpha/1000 = 5e-05 on all 5000 records."
    )
    assert paras[1].startswith(
        "**Power.** The final test is the proportion test (larger), p1 - p0 = 0.05 (p0 = 0.5), target power 0.8; "
        "computed exactly (exact binomial test and exact binomial power"
    )
    assert (
        "it has power 0.9992 at the planned n to detect an effect p1 - p0 = 0.05; the smallest n reaching power "
        "0.8 is 2,237 records, and at the planned n the smallest detectable effect is 0.03364 (effect sizes as in "
        "Cohen [@Cohen1988]; a priori, post hoc and sensitivity analyses as in G*Power [@Faul2007])." in paras[1]
    )
    assert paras[2] == (f"**Alternatives considered.** {REUSE} (power 0.9871); {UNION} (power 0.9992).")
    assert paras[3] == (
        f"Computed with maxinfo_bounds {__version__} [@maxinfo_bounds] from the study file "
        "`examples/power_bonferroni_wins.toml`.\n"
    )
    assert len(paras) == 4


def test_markdown_and_html_views_of_the_bonferroni_example(bonferroni_plan):
    md = plan_markdown(bonferroni_plan).splitlines()
    assert md[:4] == [
        "### select 1 of 1,000, then an exact binomial test (Bonferroni wins)",
        "",
        f"**Recommended: {BON}: test at p <= 5e-05 on 5000 records, power 0.9992**",
        "",
    ]
    assert md[4] == "| route | threshold | test records | valid | power | required n | MDE |"
    assert md[5] == "| --- | ---: | ---: | --- | ---: | ---: | ---: |"
    assert md[6] == f"| {REUSE} | 6.249e-07 | 5000 | yes | 0.9871 | 3,237 | 0.04024 |"
    assert md[7] == f"| {BON} | 5e-05 | 5000 | yes | 0.9992 | 2,237 | 0.03364 |"
    assert md[9] == "| sample splitting | 0.05 | 2500 | no | - | - | - |"
    assert md[10] == "| naive (no correction) | 0.05 | 5000 | no | - | - | - |"
    html = plan_html(bonferroni_plan)
    assert html.startswith(
        "<div><h4>select 1 of 1,000, then an exact binomial test (Bonferroni wins)</h4>"
        f"<p><b>Recommended: {BON}: test at p &lt;= 5e-05 on 5000 records, power 0.9992</b></p><table><thead><tr>"
        "<th>route</th><th>threshold</th><th>test records</th><th>valid</th><th>power</th><th>required n</th>"
        "<th>MDE</th></tr></thead><tbody><tr><td>adaptive reuse (max-information composition)</td>"
        "<td>6.249e-07</td><td>5000</td><td>yes</td><td>0.9871</td><td>3,237</td><td>0.04024</td></tr>"
    )
    assert html.endswith("</p></div>") and html.count("<p>") == 4 + 1  # the headline and the 4 paragraphs
    assert "union bound over the analysis&#x27;s 1000 possible outputs" in html


def test_plan_text_of_an_underpowered_study():
    """10 Laplace queries at eps = 0.01 each on 1,000 records (not i.i.d.): RRST Thm 1.4a gives
    gamma = 0.05 e^-100 = 1.86003e-45 (shown down); the two-sided z-test of d = 0.1 then rejects
    when |Z| >= z_{gamma/2} = 14.1503, with power 0.0000; the effect that reaches 0.8 at n = 1000
    is (z_{gamma/2} + z_{0.2})/sqrt(1000) = 0.4741 (up)."""
    pp = plan_power(load_study("examples/power_underpowered.toml"))
    text = plan_text(pp).splitlines()
    with mpmath.workdps(40):
        g = mpmath.mpf("0.05") * mpmath.exp(-100)
        zc = mpmath.findroot(lambda z: mpmath.ncdf(-z) - g / 2, 14)  # the upper gamma/2 quantile
        mde = (zc + -mpmath.sqrt(2) * mpmath.erfinv(2 * mpmath.mpf("0.2") - 1)) / mpmath.sqrt(1000)
    # 1.860037...e-45, shown rounded down to 6 digits
    assert mpmath.mpf("1.86003e-45") <= g < mpmath.mpf("1.86004e-45") and mpmath.nstr(zc, 6) == "14.1503"
    assert float(mde) == pytest.approx(0.47405, abs=5e-5)
    i = text.index("NO VALID ROUTE REACHES POWER 0.8 at n = 1000 records (effect d = 0.1).")
    assert text[i + 1 : i + 9] == [
        f"most powerful valid route (below the target): {REUSE}",
        "  test at p <= 1.86003e-45 on 1000 records; power 0.0000",
        "  certified max-information bound, threshold rounded down",
        "  the threshold is below 2.2e-16, where no printed p-value reaches: reject when |Z| >= 14.1503",
        "",
        "what reaches power 0.8, one change at a time:",
        f"  {REUSE}: no n up to 10^12; or, at n = 1000, an effect d >= 0.4741",
        "  adaptive reuse with other steps: steps[0].sensitivity <= 0.009, steps[0].scale >= 12000",
    ]
    d = plan_json(pp)
    assert d["to_reach_target_power"] == {
        "target_power": 0.8,
        "routes": [{"route": REUSE, "required_n_records": None, "minimum_detectable_effect": pp.rows[0].mde}],
        "reuse_single_changes": ["steps[0].sensitivity <= 0.009", "steps[0].scale >= 12000"],
    }
    assert d["vacuous"] is None and d["usable_if"] is None
    paras = methods_text(pp).split("\n\n")
    # k = eps n log2(e) = 0.1 * 1000 * 1.442695... = 144.2695 bits, shown up to 6 digits
    assert math.log2(math.e) * 100 == pytest.approx(144.2695, abs=1e-4)
    assert paras[0].endswith(
        "Because the test is chosen after the analysis has seen the data, we reuse all 1000 records and test at "
        "the corrected threshold p <= 1.86003e-45: the analysis has max-information at most k = 144.27 bits with "
        "beta = 0.0, so a test at (alpha - beta)/2^k keeps its level below alpha = 0.05 (RRST Thm 1.3 (product "
        "data); Thm C.1 (any data) [@RRST2016])."
    )
    assert paras[1].startswith(
        "**Derivation of the threshold.** adaptive query (Laplace, eps = 0.01): Dwork-Roth Thm 3.6 (Laplace "
        "mechanism) [@DworkRoth2014]; DP composition of the stage: Dwork-Roth Thm 3.16 (basic composition) "
        "[@DworkRoth2014]; max-information of the stage: RRST Thm 1.4 (first part)"
    )
    assert paras[1].endswith("rounded to its safe side (the threshold down) [@maxinfo_bounds].")
    assert paras[2].endswith(" No valid route reaches the target power 0.8 at this n.")
    assert "the smallest n reaching" not in paras[2] and len(paras) == 4


def test_scale_fix_by_hand():
    """The single changes above: gamma = 0.05 e^(-100 s) on sensitivity s (scale 100), e^(-10^4/b)
    on scale b; the z-test reaches 0.8 when z_{gamma/2} <= sqrt(10) - z_{0.2}, i.e. gamma >= 0.02032:
    s <= ln(0.05/0.02032)/100 = 0.0090 and b >= 10^4/0.9004 = 11,106 (shown as 2 significant
    digits on the useful side: 0.009 and 12000)."""
    with mpmath.workdps(30):
        zt = mpmath.sqrt(10) + mpmath.sqrt(2) * mpmath.erfinv(2 * mpmath.mpf("0.2") - 1)
        # the far tail Q(z + sqrt 10) is included: solve Q(z - r) + Q(z + r) = 0.8 for gamma = 2Q(z)
        r = mpmath.sqrt(10)
        z = mpmath.findroot(lambda z: mpmath.ncdf(r - z) + mpmath.ncdf(-r - z) - mpmath.mpf("0.8"), zt)
        gmin = 2 * mpmath.ncdf(-z)
        s_max = mpmath.log(mpmath.mpf("0.05") / gmin) / 100
        b_min = 10**4 / mpmath.log(mpmath.mpf("0.05") / gmin)
    assert 0.009 <= s_max < 0.0091 and 11_000 < b_min < 12_000


def test_plan_text_of_a_refused_reuse_recommends_splitting():
    """50 Gaussian queries on 200,000 i.i.d. records, then 1 of 30: no reuse route (RRST Thm 3.1
    needs a far smaller delta); without a [power] table the largest valid threshold is
    recommended: splitting at alpha on half of the records."""
    pp = plan_power(load_study("examples/refused_gaussian_queries.toml"))
    text = plan_text(pp).splitlines()
    assert text[:3] == [
        "study      50 Gaussian queries then 1 of 30 (refused)",
        "data       n = 200000 records (i.i.d.)",
        "alpha      0.05",
    ]
    assert text[3:8] == [
        "",
        "recommended: sample splitting (test on 0.5 of the records)",
        "  test at p <= 0.05 on 100000 records",
        "  the analysis runs on 100000 records, the test on 100000 fresh ones at alpha",
        "  (largest valid threshold on all records; add a [power] table to compare by power)",
    ]
    i = next(j for j, x in enumerate(text) if x.startswith("adaptive reuse: no valid route: "))
    assert text[i + 1].startswith("  nearest single changes (the others fixed) with a usable threshold: ")
    assert i + 2 == len(text)
    d = plan_json(pp)
    assert d["vacuous"].startswith("adaptive reuse: ") and d["power_assumes_independent_records"] is None
    assert d["usable_if"] == text[i + 1].split(": ", 1)[1].split(", ")


REFUSED_N = "examples/power_bonferroni_wins.toml: data.n: 0 is invalid: must be an integer in [1, 9007199254740992]"


def test_power_sweep_views(bonferroni_plan):
    """A power sweep over n: at each n every valid route's threshold, power and required n, the
    recommended marked; a refused point is said with its reason."""
    from maxinfo_bounds.planning import power_sweep

    st = load_study("examples/power_bonferroni_wins.toml")
    pts = power_sweep(st, "n", [5000, 0])
    text = power_sweep_text("n", pts, "p.png").splitlines()
    assert text[0] == f"{'n':>14}  {'route':52s} {'threshold':>11s} {'power':>7s} {'required n':>12s}"
    assert text[1] == f"{5000:>14.6g}  {REUSE:52s} {'6.249e-07':>11s} {0.9871:7.4f} {'3,237':>12s}"
    assert text[2] == f"{'':14s} *{BON:52s} {'5e-05':>11s} {0.9992:7.4f} {'2,237':>12s}"
    assert text[3] == f"{'':14s}  {UNION[:52]:52s} {'5e-05':>11s} {0.9992:7.4f} {'2,237':>12s}"
    assert text[4] == f"{0:>14.6g}  no valid analysis: {REFUSED_N}"
    assert text[5:] == ["* the recommended route at that value", "wrote p.png"]
    d = power_sweep_json(st, "n", pts, "p.png")
    assert d["points"][0]["recommended"] == BON and d["points"][0]["refused"] is None
    assert d["points"][0]["meets_target_power"] is True and len(d["points"][0]["routes"]) == 5
    assert d["points"][1] == {
        "value": 0.0,
        "refused": REFUSED_N,
        "recommended": None,
        "meets_target_power": None,
        "routes": [],
    }
    under = power_sweep(load_study("examples/power_underpowered.toml"), "n", [1000])
    line = power_sweep_text("n", under, "u.png").splitlines()[1]
    assert line.startswith(f"{1000:>14.6g} *{REUSE:52s}") and line.endswith("  (below target)")


NONE_STUDY = """
[study]
name = "description, then approximate DP, {name}"
{family}
[data]
n = 100000
iid = false
[[steps]]
type = "description"
range_size = 64
[[steps]]
type = "gaussian"
sensitivity = 1e-5
sigma = 1e-3
delta = 1e-12
[test]
alpha = 0.05
{power}
"""
NOT_IID = (
    "adaptive reuse: max-information composition: steps[1] is approximate DP: RRST Thm 3.1 bounds its "
    "max-information only for i.i.d. data and as the first stage (RRST §4, Thm 4.1), but the data are not i.i.d. "
    "(set data.iid = true only if the records are i.i.d.); mutual information: an approximate-DP stage has no "
    "mutual-information bound here"
)
SPLIT_NOT_IID = (
    "sample splitting: not valid: the data are not i.i.d. (iid = false), so the test part is not independent of "
    "what the analysis saw"
)
NO_FIX = (
    "no single change of n, of a step's number or of its times (the others fixed) gives a usable threshold: see "
    "the reason above; for approximate DP, RRST Thm 3.1 needs composed eps <= 1/2 and delta well below eps/n^2 at "
    "once"
)


def _none_study(tmp_path, name="not i.i.d.", family="", power=""):
    f = tmp_path / "s.toml"
    f.write_text(NONE_STUDY.format(name=name, family=family, power=power))
    return plan_power(load_study(f))


def test_a_study_with_no_valid_analysis_in_every_view(tmp_path):
    """A description then approximate DP on data not i.i.d. (RRST section 4: Thm 3.1 holds only for
    i.i.d. data and a first stage), no declared family: no route is valid. Every view says so
    with the reasons; no single change fixes it (none of n, delta, sigma, sensitivity, times
    makes approximate DP valid here)."""
    pp = _none_study(tmp_path)
    text = plan_text(pp).splitlines()
    assert text[3:7] == [
        "",
        "no valid analysis: no route gives a valid test for this study",
        f"  no valid route: {NOT_IID}; {SPLIT_NOT_IID}",
        f"  {NO_FIX}",
    ]
    notes = text.index("notes:")
    assert text[notes - 1] == "" and text[notes + 1] == f"  {SPLIT_NOT_IID}"
    assert text[-2:] == ["", f"adaptive reuse: no valid route: {NOT_IID.removeprefix('adaptive reuse: ')}"]
    d = plan_json(pp)
    assert d["vacuous"] == f"no valid route: {NOT_IID}; {SPLIT_NOT_IID}" and d["usable_if"] == []
    assert d["power_assumes_independent_records"] is None and "to_reach_target_power" not in d
    m = methods_text(pp).split("\n\n")
    assert m == [
        "**Adaptive analysis and final test.** The exploratory analysis (2 steps: steps[0] (description); steps[1] "
        "(gaussian)) runs on n = 100000 records (not assumed i.i.d.) and chooses the hypothesis of the final test, "
        "at significance alpha = 0.05.",
        f"No valid analysis exists as planned: no valid route: {NOT_IID}; {SPLIT_NOT_IID}.\n",
    ]
    md = plan_markdown(pp).splitlines()
    assert md[2] == f"**No valid analysis: no valid route: {NOT_IID}; {SPLIT_NOT_IID}**"
    # given nearest changes are shown as given (not searched again)
    given = plan_text(pp, usable_if=["n <= 7"]).splitlines()
    assert given[6] == "  nearest single changes (the others fixed) with a usable threshold: n <= 7"
    assert plan_json(pp, usable_if=["n <= 7"])["usable_if"] == ["n <= 7"]


def test_a_declared_family_below_the_target_power(tmp_path):
    """The same analysis with a declared family of 64 and a two-sided z-test of d = 0.001: only
    Bonferroni is valid, at 0.05/64 = 0.00078125, with power Q(z - r) + Q(z + r) (z the upper
    0.000390625 quantile, r = 0.001 sqrt(100000)) = 0.0013, below 0.8. Reuse is refused, so its
    single changes are None (not searched), and no change makes it valid."""
    pp = _none_study(tmp_path, "a family of 64", "family_size = 64", '[power]\ntest = "z"\neffect_size = 0.001')
    with mpmath.workdps(30):
        z = mpmath.findroot(lambda z: mpmath.ncdf(-z) - mpmath.mpf(0.00078125) / 2, 3)
        r = mpmath.mpf("0.001") * mpmath.sqrt(100000)
        pw = mpmath.ncdf(r - z) + mpmath.ncdf(-r - z)

        def power_at_n(n: int) -> mpmath.mpf:
            s = mpmath.mpf("0.001") * mpmath.sqrt(n)
            return mpmath.ncdf(s - z) + mpmath.ncdf(-s - z)

        # the required n by its defining property (the plan's 17,648,191)
        assert power_at_n(17_648_191) >= 0.8 > power_at_n(17_648_190)
    assert f"{float(pw):.4f}" == "0.0013"
    text = plan_text(pp).splitlines()
    bon = "Bonferroni over the declared family of 64"
    i = text.index("NO VALID ROUTE REACHES POWER 0.8 at n = 100000 records (effect d = 0.001).")
    assert text[i + 1 : i + 8] == [
        f"most powerful valid route (below the target): {bon}",
        "  test at p <= 0.00078125 on 100000 records; power 0.0013",
        "  valid only if the chosen test is one of the pre-declared family",
        "",
        "what reaches power 0.8, one change at a time:",
        f"  {bon}: n = 17,648,191 records; or, at n = 100000, an effect d >= 0.01329",
        "",
    ]
    assert text[-1] == f"  {NO_FIX}"
    d = plan_json(pp)
    assert d["to_reach_target_power"]["reuse_single_changes"] is None
    assert d["to_reach_target_power"]["routes"][0]["required_n_records"] == 17_648_191
    assert d["vacuous"] == NOT_IID and d["usable_if"] == []
    md = plan_markdown(pp).splitlines()
    assert md[2] == f"**No valid route reaches power 0.8; most powerful: {bon} (power 0.0013)**"
    assert md[6] == f"| {bon} | 0.0007812 | 100000 | yes | 0.0013 | 17,648,191 | 0.01329 |"


def test_views_of_the_splitting_example():
    """2,000 Laplace queries at eps = 1e-4 on 200,000 i.i.d. records (two-sample t-test of d =
    0.03): reuse's threshold is 0 (k >= eps_total^2 n log2(e)/2 = 5,770 bits), so JSON says why
    it is vacuous; splitting tests at 0.05 on 100,000 records and is recommended; the methods
    paragraph describes the split (100,000 for the analysis, 100,000 for the test) and calls the
    records i.i.d.; the markdown table shows "none" for the reuse route's required n and MDE."""
    pp = plan_power(load_study("examples/power_splitting_wins.toml"))
    d = plan_json(pp)
    assert d["vacuous"] == (
        "gamma = 0: the corrected threshold rejects nothing (the max-information k is too large, or beta >= alpha)"
    )
    assert d["usable_if"] and all(" <= " in x or " >= " in x for x in d["usable_if"])
    text = plan_text(pp).splitlines()
    assert text[text.index("certified adaptive reuse (all 200000 records):") - 1] == ""
    assert text[text.index("power of each reuse route at n:") - 1] == ""
    m = methods_text(pp).split("\n\n")
    assert m[0] == (
        "**Adaptive analysis and final test.** The exploratory analysis (1 step: adaptive query (Laplace)) runs on "
        "n = 200000 records (independent and identically distributed) and chooses the hypothesis of the final "
        "test, at significance alpha = 0.05. Because the test is chosen after the analysis has seen the data, we "
        "split the i.i.d. records at random: the analysis uses 100000 of them and the test the other 100000, at "
        "alpha = 0.05 (sample splitting)."
    )
    md = plan_markdown(pp).splitlines()
    assert md[6] == "| adaptive reuse (max-information composition) | 0.0 | 200000 | yes | 0.0000 | none | none |"
    assert (
        md[7] == "| sample splitting (test on 0.5 of the records) | 0.05 | 100000 | yes | 0.9973 | 69,772 | 0.01772 |"
    )
    assert md[9] == ""  # the table, a blank line, then the methods paragraph
    html = plan_html(pp)
    assert "</tr><tr>" in html and "</p><p>" in html


def test_views_without_a_power_table():
    """Select 1 of 1,000 with no [power] table: thresholds only, no power in the headline, "-" for
    power, required n and MDE of every route, the methods paragraph without a power paragraph."""
    pp = plan_power(load_study("examples/select_one_of_1000.toml"))
    md = plan_markdown(pp).splitlines()
    assert md[2] == "**Recommended: Bonferroni over the declared family of 1000: test at p <= 5e-05 on 5000 records**"
    assert md[6] == "| adaptive reuse (max-information composition) | 6.249e-07 | 5000 | yes | - | - | - |"
    assert md[7] == "| Bonferroni over the declared family of 1000 | 5e-05 | 5000 | yes | - | - | - |"
    m = methods_text(pp).split("\n\n")
    assert len(m) == 2 and not any(p.startswith("**Power.**") for p in m)
    d = plan_json(pp)
    assert d["power_assumes_independent_records"] is None and d["vacuous"] is None


def test_the_union_route_sentence_and_two_theorem_citations():
    """Without a declared family, a choice among 1,000 outputs is tested at alpha/1000 by the union
    bound (every step a description): the methods sentence says so. A derivation step citing two
    results lists both (RRST Thm 1.4a's step of the underpowered example: 1.4a and DFHPRR Thm 7
    are one catalog entry, cited together in the methods paragraph)."""
    pp = plan_power(Study(n=5000, alpha=0.05, steps=(Description(range_size=1000, label="choose a hypothesis"),)))
    assert (
        methods_text(pp)
        .split("\n\n")[0]
        .endswith(
            "Because the test is chosen after the analysis has seen the data, every step only selects among finitely "
            "many outcomes, so the test is one of at most 1000 fixed tests and we test at p <= 5e-05 (a union bound) "
            "on all 5000 records."
        )
    )
    under = plan_power(load_study("examples/power_underpowered.toml"))
    lines = derivation_lines(under.reuse)
    assert lines[6:11] == [
        "derivation:",
        "   1. adaptive query (Laplace, eps = 0.01): DR-3.6: sensitivity=1.0, scale=100.0 -> (0.01, 0.0)-DP per "
        "run, x10 adaptively",
        "   2. DP composition of the stage: DR-3.16: 10 adaptive runs -> (0.1, 0.0)-DP  [10 adaptive steps]",
        "   3. max-information of the stage: RRST-1.4a: beta=0.0 -> k <= 144.27 bits  [eps > 0; n >= 1 integer]",
        "   4. composition over stages: RRST-A.3: 1 stage -> k = 144.27 bits, beta = 0.0  [only the first stage "
        "product-only]",
    ]
    assert "max-information of the stage: RRST Thm 1.4 (first part); DFHPRR Thm 7 [@DFHPRR2015; @RRST2016]" in (
        methods_text(under)
    )


def test_reach_lines_name_the_effect_in_the_test_s_terms():
    """A one-sided z-test of a negative effect (alternative "smaller", d = -0.05) after a choice
    among 10^6 outputs on 1,000 records: no route reaches 0.8, and each route's MDE is written
    d <= (negative); for the exact binomial test the effect is p1 - p0 >= ...; the union route's
    required n by hand: z_{gamma} + z_{0.2} <= 0.05 sqrt(n) with gamma = 0.05/10^6 (one-sided)."""
    p = Study(
        n=1000,
        alpha=0.05,
        steps=(Description(range_size=10**6),),
        power=PowerSpec(test="z", effect_size=-0.05, alternative="smaller"),
    )
    pp = plan_power(p)
    assert pp.meets_target is False
    with mpmath.workdps(30):
        z = mpmath.findroot(lambda z: mpmath.ncdf(-z) - mpmath.mpf("5e-8"), 5)
        zt = mpmath.findroot(lambda z: mpmath.ncdf(-z) - mpmath.mpf("0.2"), 1)
        n_union = int(mpmath.ceil(((z + zt) / mpmath.mpf("0.05")) ** 2))
    assert n_union == 15_220
    lines = reach_lines(pp)
    assert lines[1] == (
        "union bound over the analysis's 1000000 possible outputs: n = 15,220 records; or, at n = 1000, an effect "
        "d <= -0.1951"
    )
    assert lines[0].startswith("adaptive reuse (max-information composition): n = ") and " d <= -0." in lines[0]
    assert lines[2].startswith("adaptive reuse with other steps: ")


#: a choice among 10 outputs on 2,000 clustered records (design effect 2), then a z-test of d = 0.2
CLUSTERED = Study(
    n=2000,
    alpha=0.05,
    steps=(Description(range_size=10),),
    power=PowerSpec(test="z", effect_size=0.2, design_effect=2.0),
)


def test_a_clustered_study_cites_kish():
    """A design effect other than 1 adds Kish (1965) to the cited keys and to the power paragraph."""
    st = CLUSTERED
    pp = plan_power(st)
    from maxinfo_bounds.planning.report import cited_keys

    keys = cited_keys(pp)
    assert keys[-2:] == ["Kish1965", "maxinfo_bounds"] and keys.count("Kish1965") == 1
    assert "Records are clustered: power is computed with the design effect 2 [@Kish1965]." in methods_text(pp)
    plain = plan_power(
        Study(n=2000, alpha=0.05, steps=(Description(range_size=10),), power=PowerSpec(test="z", effect_size=0.2))
    )
    assert "Kish1965" not in cited_keys(plain) and "Kish1965" not in methods_text(plain)


def test_sweep_views_of_a_named_test_and_a_refused_first_point():
    """With a [power] table the test is named, so a tiny threshold is not called vacuous in the
    sweep's JSON; a power sweep with a refused point still lists the points after it, and a
    route with no required n shows "none"."""
    from maxinfo_bounds.planning import power_sweep

    p = Study(n=1000, alpha=0.05, steps=(Description(range_size=10),), power=PowerSpec(test="z", effect_size=0.1))
    pts = sweep(p, "range_size", [10**20])
    assert sweep_json(p, "range_size", pts, "x.png")["points"][0]["route"] == "max-information composition"
    st = load_study("examples/power_bonferroni_wins.toml")
    pts = power_sweep(st, "n", [5000, 0, 4000])
    text = power_sweep_text("n", pts, "p.png").splitlines()
    assert text[4] == f"{0:>14.6g}  no valid analysis: {REFUSED_N}"
    assert text[5].startswith(f"{4000:>14.6g}  {REUSE:52s}") and len(text) == 10
    d = power_sweep_json(st, "n", pts, "p.png")
    assert (d["param"], d["plot"], d["study"]) == ("n", "p.png", st.name)
    under = power_sweep(load_study("examples/power_underpowered.toml"), "n", [1000])
    line = power_sweep_text("n", under, "u.png").splitlines()[1]
    assert f" {'none':>12s}  (below target)" in line


def test_plan_frame_without_pandas_says_how_to_get_it(monkeypatch):
    import importlib

    from maxinfo_bounds.planning.report import plan_frame

    real = importlib.import_module

    def no_pandas(name, *a, **k):
        if name == "pandas":
            raise ImportError("no pandas here")
        return real(name, *a, **k)

    monkeypatch.setattr(importlib, "import_module", no_pandas)
    with pytest.raises(ImportError, match=r"^PowerPlan\.to_frame\(\) needs pandas: pip install pandas$"):
        plan_frame(plan_power(load_study("examples/select_one_of_1000.toml")))


def test_a_step_citing_two_results():
    """A Gaussian count query (sigma = 800: mu = 1/800 = 0.00125, shown up as 0.00125001 since the
    double of 1/800 lies above it) is composed exactly in GDP and converted to (eps, delta) by
    Dong-Roth-Su Cor. 3.3 and Cor. 2.13: one derivation step citing both, in the derivation and
    in the methods paragraph."""
    from maxinfo_bounds.planning import Gaussian

    st = Study(n=10_000, iid=True, alpha=0.05, steps=(Gaussian(sensitivity=1.0, sigma=800.0, delta=1e-20),))
    lines = derivation_lines(plan(st))
    assert lines[8].startswith(
        "   2. exact Gaussian composition of the stage (GDP): DRS22-3.3, DRS22-2.13: 1 run, mu = sqrt(sum mu_i^2) "
        "= 0.00125001 -> ("
    )
    assert (
        "exact Gaussian composition of the stage (GDP): Dong-Roth-Su Cor. 3.3 (composition of Gaussian DP), "
        "Dong-Roth-Su Cor. 2.13 (mu-GDP as (eps, delta)-DP) [@DRS2022];" in methods_text(plan_power(st))
    )


def test_more_views_by_hand(bonferroni_plan, tmp_path):
    """The exact binomial test's effect is p1 - p0 in the reach lines; a plan without a reuse
    route cites only the power conventions and the software, and has no reuse changes; a power
    sweep point whose plan has no valid route says so; an integer parameter named with its step
    is printed as an integer; the methods paragraph's derivation ends with the rounding sentence."""
    from maxinfo_bounds.planning import power_sweep
    from maxinfo_bounds.planning.report import cited_keys, reuse_power_changes

    assert reach_lines(bonferroni_plan)[1] == (
        "Bonferroni over the declared family of 1000: n = 2,237 records; or, at n = 5000, an effect p1 - p0 >= 0.03364"
    )
    low = _none_study(tmp_path, "a family of 64", "family_size = 64", '[power]\ntest = "z"\neffect_size = 0.001')
    assert cited_keys(low) == ["Cohen1988", "Faul2007", "maxinfo_bounds"]
    assert reuse_power_changes(low) == []
    m = methods_text(low).split("\n\n")
    assert m[1].startswith("**Power.** The final test is the z test (two-sided), Cohen's d = 0.001")
    assert m[1].endswith(" No valid route reaches the target power 0.8 at this n.")
    f = tmp_path / "p.toml"
    f.write_text(NONE_STUDY.format(name="x", family="", power='[power]\ntest = "z"\neffect_size = 0.1'))
    pts = power_sweep(load_study(f), "n", [1000])
    line = power_sweep_text("n", pts, "p.png").splitlines()[1]
    assert line.startswith(f"{1000:>14.6g}  no valid analysis: no valid route: {NOT_IID}")
    text = sweep_text("steps[0].range_size", sweep(S10, "steps[0].range_size", [10]), "x.png").splitlines()
    assert text[1] == f"{10:>14d}  {'6.24999e-05':<24}  max-information composition"
    under = plan_power(load_study("examples/power_underpowered.toml"))
    assert (
        ". Every bound is evaluated in interval arithmetic and rounded to its safe side (the threshold down) "
        "[@maxinfo_bounds]." in methods_text(under)
    )


def test_clustered_power_paragraph_keeps_its_start():
    """The design-effect sentence is appended to the power paragraph, not in place of it."""
    st = CLUSTERED
    m = methods_text(plan_power(st)).split("\n\n")
    power = next(p for p in m if "design effect" in p)
    assert power.startswith("**Power.** The final test is the z test (two-sided), Cohen's d = 0.2")
    assert power.endswith(" Records are clustered: power is computed with the design effect 2 [@Kish1965].")


def test_reach_lines_of_a_route_with_no_effect_in_range():
    """10 Laplace runs at eps = 1 on 1,000 records (not i.i.d.): gamma = 0.05 e^-10000 = 0 in
    floats, so no effect in range reaches 0.8 on that route. The single change that does is
    eps <= ln(0.05/gamma_80)/10^4 with gamma_80 = 0.0203 (test_scale_fix_by_hand): 9.0e-05."""
    st = Study(
        n=1000,
        iid=False,
        alpha=0.05,
        steps=(Laplace(sensitivity=1.0, eps=1.0, times=10),),
        power=PowerSpec(test="z", effect_size=0.1),
    )
    assert reach_lines(plan_power(st)) == [
        f"{REUSE}: no n up to 10^12; or, at n = 1000, an effect no d in range",
        "adaptive reuse with other steps: steps[0].eps <= 9e-05",
    ]


def test_sweep_json_values_of_a_step_qualified_integer_are_integers():
    d = sweep_json(S10, "steps[0].range_size", sweep(S10, "steps[0].range_size", [10]), "x.png")
    assert d["points"][0]["value"] == 10 and type(d["points"][0]["value"]) is int
