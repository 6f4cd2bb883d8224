"""The answers to G*Power's questions (``solve_power``, issues 43 and 44): their printed table and
JSON view field by field, from answers built by hand (so that the expected layout is the
documented one, not the planner's output), and the compromise and criterion analyses' answers
and edges against hand derivations at 40 digits.

The study is a choice of 1 of 50 hypotheses on 400 records (not i.i.d.), then a two-sided z-test
of d = 0.2 at alpha = 0.05. By hand (DFHPRR Thm 6 and the union bound, RRST section 4): the
Bonferroni and union routes test at alpha/50, adaptive reuse at (at most) alpha^2/(4 * 50); the
z statistic is N(d sqrt(400), 1) = N(4, 1), so at threshold g the power is
Q(z_{g/2} - 4) + Q(z_{g/2} + 4)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import mpmath
import pytest

from maxinfo_bounds import __version__
from maxinfo_bounds.planning import PlanError, load_study, solve_power
from maxinfo_bounds.planning.questions import Analysis, PowerAnswer, RouteAnswer
from maxinfo_bounds.planning.recommend import RouteKind

from .test_power_questions import ZSTUDY as ZSTUDY_02
from .test_power_questions import _z

# the study of test_power_questions (its five questions by hand), with the effect left free
ZSTUDY = ZSTUDY_02.replace("effect_size = 0.2", "effect_size = {d}")

BON = "Bonferroni over the declared family of 50"
UNION = "union bound over the analysis's 50 possible outputs"
REUSE = "adaptive reuse (max-information composition)"
COMPROMISE_NOTE = (
    "the smallest alpha with beta/alpha <= {q} (1e-9 relative; beta = 1 - power; where the power "
    "moves continuously, as for z and t, beta/alpha equals q there)"
)


def _study(tmp_path: Path, d: float = 0.2) -> object:
    f = tmp_path / "z.toml"
    f.write_text(ZSTUDY.format(d=d))
    return load_study(f)


def _power(g: mpmath.mpf, shift: float = 4) -> mpmath.mpf:
    """The two-sided z-test's power at threshold g with the statistic N(shift, 1)."""
    z = _z(g / 2)
    return mpmath.ncdf(shift - z) + mpmath.ncdf(-shift - z)


def _row(route: str, value: str, thr: str, pw: str) -> str:
    """A table line as the documented layout has it: the route in 52 columns (cut there), then
    the value in 14, the threshold in 11 and the power in 7, right-aligned, one space apart."""
    return "  " + route[:52].ljust(52) + " " + value.rjust(14) + " " + thr.rjust(11) + " " + pw.rjust(7)


def _head(question: str) -> list[str]:
    return [
        "study      select 1 of 50, then a z-test",
        f"question   {question}",
        "given      n = 400 records, alpha = 0.05, effect 0.2, target power 0.8",
        "",
    ]


LONG = "a route whose name is longer than fifty-two characters, so it is cut"


@pytest.mark.parametrize(
    ("analysis", "ratio", "question", "label", "values", "shown"),
    [
        ("n", None, "a priori (required n)", "required n", (1234567, None), ("1,234,567", "none")),
        ("power", None, "post hoc (power at n)", "power", (0.812345, None), ("0.8123", "none")),
        # an effect rounded up to 4 significant digits; a power of exactly 1 shown as such
        ("effect", None, "sensitivity (minimum detectable effect)", "MDE", (0.123412, None), ("0.1235", "none")),
        # alpha: the criterion's bisection end, rounded up to 4 significant digits
        ("alpha", None, "criterion (alpha for the target power)", "alpha", (0.0012341, None), ("0.001235", "none")),
        (
            "compromise",
            2.5,
            "compromise (alpha with beta/alpha = q), q = beta/alpha = 2.5",
            "alpha",
            (0.0400001, None),
            ("0.04001", "none"),
        ),
    ],
)
def test_power_answer_text_is_the_documented_table(tmp_path, analysis, ratio, question, label, values, shown):
    """``PowerAnswer.text`` of answers built by hand: the head (study, G*Power's question with q
    for the compromise, the givens), the column labels, each route's value in the question's
    format ("none" where there is none), its threshold rounded down to 4 significant digits
    ("-" where none), its power to 4 decimals ("-" where none), and the notes of the routes that
    have one, in order."""
    st = _study(tmp_path)
    answers = (
        RouteAnswer(BON, RouteKind.BONFERRONI, values[0], 0.0012347, 0.81239, "note one"),
        RouteAnswer(LONG, RouteKind.UNION, values[1], None, None, ""),
        RouteAnswer(REUSE, RouteKind.REUSE, values[1], 7.3789e-05, 1.0, "note three"),
    )
    got = PowerAnswer(st, Analysis(analysis), ratio, answers).text()
    want = [
        *_head(question),
        _row("route", label, "threshold", "power"),
        _row(BON, shown[0], "0.001234", "0.8124"),
        _row(LONG[:52], shown[1], "-", "-"),
        _row(REUSE, shown[1], "7.378e-05", "1.0000"),
        "",
        "notes:",
        f"  {BON}: note one",
        f"  {REUSE}: note three",
    ]
    assert got.splitlines() == want
    assert LONG[:52] in got and LONG not in got


def test_power_answer_text_without_notes_has_no_notes_block(tmp_path):
    st = _study(tmp_path)
    got = PowerAnswer(st, Analysis.POWER, None, (RouteAnswer(BON, RouteKind.BONFERRONI, 0.5, 0.001, 0.5, ""),)).text()
    assert got.splitlines()[-1] == _row(BON, "0.5000", "0.001", "0.5000")
    assert "notes:" not in got


def test_power_answer_json_field_by_field(tmp_path):
    """``as_dict`` (the ``--json`` output): every field with its unit in the name, the answers in
    order with the route's kind as its value, and the package version."""
    st = _study(tmp_path)
    answers = (
        RouteAnswer(BON, RouteKind.BONFERRONI, 0.05695, 0.001139, 0.7722, "n1"),
        RouteAnswer(REUSE, RouteKind.REUSE, None, None, None, ""),
    )
    d = PowerAnswer(st, Analysis.COMPROMISE, 4.0, answers).as_dict()
    assert d == {
        "study": "select 1 of 50, then a z-test",
        "source": str(tmp_path / "z.toml"),
        "solve_for": "compromise",
        "gpower_analysis": "compromise (alpha with beta/alpha = q)",
        "ratio_beta_over_alpha": 4.0,
        "n_records": 400,
        "alpha": 0.05,
        "effect_size": 0.2,
        "target_power": 0.8,
        "answers": [
            {
                "route": BON,
                "kind": "bonferroni",
                "value": 0.05695,
                "threshold_p_value": 0.001139,
                "power": 0.7722,
                "note": "n1",
            },
            {"route": REUSE, "kind": "reuse", "value": None, "threshold_p_value": None, "power": None, "note": ""},
        ],
        "maxinfo_bounds_version": __version__,
    }
    json.dumps(d)  # serialisable as is
    assert PowerAnswer(st, Analysis.N, None, ()).as_dict()["gpower_analysis"] == "a priori (required n)"
    assert PowerAnswer(st, Analysis.N, None, ()).as_dict()["ratio_beta_over_alpha"] is None


@pytest.mark.parametrize("q", [1.0, 4.0, 20.0])
def test_compromise_answers_of_every_route_by_hand(tmp_path, q):
    """The compromise analysis (G*Power's q = beta/alpha) for all three routes: Bonferroni and
    the union bound test at alpha/50, so 1 - P(alpha/50) = q alpha; adaptive reuse at the
    certified threshold, at most alpha^2/200 (DFHPRR Thm 6 with M = 50), so its alpha is at least
    the root of 1 - P(alpha^2/200) = q alpha and (the certified threshold being within 10^-6 of
    that supremum) within 10^-5 of it. Roots at 40 digits with mpmath; the power the answer
    reports is the power at its threshold, and beta/alpha <= q there."""
    st = _study(tmp_path)
    with mpmath.workdps(40):
        bon = mpmath.findroot(lambda a: 1 - _power(a / 50) - q * a, 0.05)
        reuse = mpmath.findroot(lambda a: 1 - _power(a**2 / 200) - q * a, 0.1)
    got = {a.kind: a for a in solve_power(st, "compromise", ratio=q).answers}
    assert set(got) == {RouteKind.REUSE, RouteKind.BONFERRONI, RouteKind.UNION}
    for kind in (RouteKind.BONFERRONI, RouteKind.UNION):
        a = got[kind]
        assert a.value == pytest.approx(float(bon), rel=1e-8)
        assert a.threshold == pytest.approx(a.value / 50, rel=1e-12) and a.threshold <= a.value / 50
        with mpmath.workdps(40):
            assert a.power == pytest.approx(float(_power(mpmath.mpf(a.threshold))), rel=1e-9)
        assert (1 - a.power) / a.value <= q
        assert a.note == COMPROMISE_NOTE.format(q=f"{q:g}")
    r = got[RouteKind.REUSE]
    assert float(reuse) <= r.value <= float(reuse) * (1 + 1e-5)
    assert r.threshold <= r.value**2 / 200
    assert (1 - r.power) / r.value <= q


def test_compromise_edges_are_said(tmp_path):
    """Where beta/alpha never crosses q below the target power the answer is None with the reason
    and the route's threshold and power at the end of the range. q = 0.01: at alpha just below
    0.8 Bonferroni tests at 0.016, where the power is 0.944 by hand (beta/alpha = 0.07 > q).
    d = 2.5 (the statistic N(50, 1)): at alpha = 1e-300 Bonferroni tests at 2e-302, z_{1e-302} =
    37.1, and the power is 1 - Q(12.9), 1 in floats: beta/alpha = 0 <= q everywhere."""
    st = _study(tmp_path)
    got = {a.kind: a for a in solve_power(st, "compromise", ratio=0.01).answers}
    for a in got.values():
        assert a.value is None
        assert a.note == "beta/alpha is above q at every alpha below the target power"
    b = got[RouteKind.BONFERRONI]
    top = 0.8 * math.exp(-1e-9)
    assert b.threshold == pytest.approx(top / 50, rel=1e-12)
    with mpmath.workdps(40):
        assert b.power == pytest.approx(float(_power(mpmath.mpf(top) / 50)), rel=1e-9)
    assert 0.94 < b.power < 0.95

    big = _study(tmp_path, d=2.5)
    got = {a.kind: a for a in solve_power(big, "compromise", ratio=4.0).answers}
    b = got[RouteKind.BONFERRONI]
    assert b.value is None and b.note == "beta/alpha is below q at every alpha >= 1e-300"
    assert b.threshold == pytest.approx(1e-300 / 50, rel=1e-12) and b.power == 1.0
    # reuse tests at alpha^2/200, which underflows to 0 at alpha = 1e-300: it has a crossing
    r = got[RouteKind.REUSE]
    assert r.value is not None and (1 - r.power) / r.value <= 4.0


def test_criterion_without_an_answer_says_so(tmp_path):
    """d = 0.01 (the statistic N(0.2, 1)): even at alpha just below the target 0.8 the power at
    Bonferroni's 0.016 is far below 0.8, so no alpha answers; the threshold and power at that end
    are reported (the power by hand at 40 digits)."""
    st = _study(tmp_path, d=0.01)
    got = {a.kind: a for a in solve_power(st, "alpha").answers}
    b = got[RouteKind.BONFERRONI]
    assert b.value is None and b.note == "no alpha below the target power reaches it at this n"
    top = 0.8 * math.exp(-1e-9)
    assert b.threshold == pytest.approx(top / 50, rel=1e-12)
    with mpmath.workdps(40):
        assert b.power == pytest.approx(float(_power(mpmath.mpf(top) / 50, shift=0.2)), rel=1e-9)
    assert b.power < 0.1


def test_compromise_ratio_refusals_word_for_word(tmp_path):
    """q must be a real number in (0, 10^12]: 0, NaN, 2e12 and a string are refused naming it."""
    st = _study(tmp_path)
    for bad, text in (
        (0.0, "ratio: 0.0 is invalid: must be a real number in (0, 1000000000000]"),
        (float("nan"), "ratio: nan is invalid: must be a real number in (0, 1000000000000]"),
        (2e12, "ratio: 2000000000000.0 is invalid: must be a real number in (0, 1000000000000]"),
        ("x", "ratio: must be a number, got 'x'"),
    ):
        with pytest.raises(PlanError) as e:
            solve_power(st, "compromise", ratio=bad)
        assert str(e.value) == text


def test_the_estimation_route_is_not_solved_for_alpha():
    """The decision from an estimate tests at coverage 1 - alpha, so the criterion and compromise
    questions (which move alpha) are not asked of it: its answer is None with the reason, beside
    the other routes' answers (500 Gaussian mean queries on 2,000,000 i.i.d. records, then an
    exact binomial test of p0 = 0.5 against 0.53)."""
    from maxinfo_bounds.planning import Gaussian, PowerSpec, Study

    st = Study(
        n=2_000_000,
        alpha=0.05,
        iid=True,
        steps=(Gaussian.mean(0.0, 1.0, sigma=0.01, delta=1e-10, times=500),),
        power=PowerSpec(test="proportion", effect_size=0.03, p0=0.5, alternative="larger"),
    )
    for q, kw in (("alpha", {}), ("compromise", {"ratio": 1e12})):
        got = {a.kind: a for a in solve_power(st, q, **kw).answers}
        e = got[RouteKind.ESTIMATE]
        assert (e.value, e.threshold, e.power) == (None, None, None)
        assert e.note == "not solved: the estimation route's level is its coverage"
        assert e.route == "estimate then decide (501 statistical queries, estimation planner)"
        assert len(got) > 1


ROOT = Path(__file__).resolve().parents[1]


def test_a_priori_notes_name_where_the_binomial_power_stays_above_the_target():
    """The exact binomial test's power saw-tooths in n: Bonferroni reaches 0.8 first at n = 2,237
    (its row, held against exact binomial sums in test_power_questions) but stays at or above it
    only from 2,269 on; the a priori answer's note says so (the z-test's, monotone in n, has no
    such clause: test_post_hoc_answers_name_the_test_records)."""
    st = load_study(ROOT / "examples" / "power_bonferroni_wins.toml")
    got = {a.kind: a for a in solve_power(st, "n").answers}
    b = got[RouteKind.BONFERRONI]
    assert b.value == 2237
    assert b.note == (
        "smallest n (proven: branch and bound on the power); the power stays at or above the target from n = 2,269 on"
    )


def test_post_hoc_answers_name_the_test_records(tmp_path):
    """The post hoc answer is the route's power, on the records it tests: all 5,000 for
    Bonferroni (its example), half of the 200,000 for sample splitting (its example, i.i.d.)."""
    st = load_study(ROOT / "examples" / "power_splitting_wins.toml")
    got = {a.kind: a for a in solve_power(st, "power").answers}
    s = got[RouteKind.SPLIT]
    assert s.note == f"on {st.n // 2} test records" and s.value == s.power and s.threshold == 0.05
    st2 = load_study(ROOT / "examples" / "power_bonferroni_wins.toml")
    b = {a.kind: a for a in solve_power(st2, "power").answers}[RouteKind.BONFERRONI]
    assert b.note == "on 5000 test records" and b.threshold == 0.05 / 1000
    z = {a.kind: a for a in solve_power(_study(tmp_path), "n").answers}[RouteKind.BONFERRONI]
    assert z.note == "smallest n (proven: branch and bound on the power)"


GAUSS = """
[study]
name = "a Gaussian count query, then a z-test"
[data]
n = 10000
iid = true
[[steps]]
type = "gaussian"
sensitivity = 1.0
sigma = 800.0
delta = 1e-20
[test]
alpha = 0.05
[power]
test = "z"
effect_size = 0.12
"""


def test_criterion_crosses_alphas_where_reuse_has_no_route(tmp_path):
    """One Gaussian count query (sigma = 800, delta = 1e-20) on 10,000 i.i.d. records: RRST Thm
    3.1's beta is at least 4 n sqrt(delta/(3 eps')), so at alpha = 1e-15 adaptive reuse has no
    valid route (refused), while at 0.05 it has one. The criterion's bisection on log alpha
    starts in [1e-300, 0.8] and crosses the refused alphas, which must count as "threshold 0,
    power 0" (not a usable threshold): the answer is the smallest alpha at which the route
    reaches the target power, by the defining property (re-planned at it, power >= 0.8; at 10^-6
    relative less, below)."""
    from maxinfo_bounds.planning import NoValidRoute, plan, plan_power, with_param

    f = tmp_path / "g.toml"
    f.write_text(GAUSS)
    st = load_study(f)
    with pytest.raises(NoValidRoute):
        plan(with_param(st, "alpha", 1e-15))
    a = {x.kind: x for x in solve_power(st, "alpha").answers}[RouteKind.REUSE]
    assert a.value is not None and 1e-15 < a.value < 0.05
    at = next(r for r in plan_power(with_param(st, "alpha", a.value)).rows if r.kind is RouteKind.REUSE)
    below = next(r for r in plan_power(with_param(st, "alpha", a.value * (1 - 1e-6))).rows if r.kind is RouteKind.REUSE)
    assert at.power >= 0.8 > below.power and a.threshold == at.threshold and a.power == at.power


def test_answers_without_a_value_keep_the_route_s_name(tmp_path):
    """The splitting example (2,000 Laplace queries at eps = 1e-4 on 200,000 i.i.d. records):
    Thm 1.4b's k is at least eps_total^2 n log2(e)/2 = 0.2^2 * 200,000 * 0.72 = 5,770 bits, so the
    reuse threshold alpha 2^-k is 0 in floats at every alpha: no effect (sensitivity) and no
    alpha (criterion) reaches the target on that route, said with its name, threshold 0 and
    power 0. The edges of the compromise and criterion above keep the names too."""
    st = load_study(ROOT / "examples" / "power_splitting_wins.toml")
    for q, note in (
        ("effect", "no effect in range reaches the target power"),
        ("alpha", "no alpha below the target power reaches it at this n"),
    ):
        got = {a.kind: a for a in solve_power(st, q).answers}
        r = got[RouteKind.REUSE]
        assert (r.route, r.value, r.threshold, r.power, r.note) == (REUSE, None, 0.0, 0.0, note)
        s = got[RouteKind.SPLIT]
        assert s.value is not None and s.route == "sample splitting (test on 0.5 of the records)"
        assert s.threshold > 0 and s.power >= 0.8
        if q == "effect":
            assert s.note == "" and s.threshold == 0.05
    for q, d, kw in (("compromise", 0.2, {"ratio": 0.01}), ("compromise", 2.5, {"ratio": 4.0}), ("alpha", 0.01, {})):
        got = {a.kind: a for a in solve_power(_study(tmp_path, d), q, **kw).answers}
        assert got[RouteKind.BONFERRONI].route == BON and got[RouteKind.BONFERRONI].value is None


def test_a_negative_minimum_effect_is_shown_with_its_magnitude_rounded_up(tmp_path):
    """For the alternative "smaller" the MDE is negative: its magnitude is rounded up (never
    shown smaller than it is), so -0.123412 prints as -0.1235, not -0.1234."""
    st = _study(tmp_path)
    a = PowerAnswer(st, Analysis.EFFECT, None, (RouteAnswer(BON, RouteKind.BONFERRONI, -0.123412, 0.001, 0.8, ""),))
    assert a.text().splitlines()[-1] == _row(BON, "-0.1235", "0.001", "0.8000")
