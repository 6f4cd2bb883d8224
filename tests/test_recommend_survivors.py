"""Pieces of ``planning/recommend.py`` that its mutation run (second run, continued) left
unread, held against brute force, exact binomial sums and hand bounds: the required-n search
for mean-query steps (whose gamma follows n) under the exact binomial test, the coarse-grid
gamma that search reads (and the 0 it reads where no route is valid), the no-hit answer of the
unproven grid beside Thresholdout, and the vacuous reuse row's note.
"""

from __future__ import annotations

import math
import re
from dataclasses import replace

import mpmath
import numpy as np
import pytest
from scipy import stats

from maxinfo_bounds.planning import (
    Description,
    Gaussian,
    Laplace,
    MutualInformation,
    PlanError,
    PowerSpec,
    Study,
    Thresholdout,
    plan,
    plan_power,
    power_at,
)
from maxinfo_bounds.planning.power import min_records
from maxinfo_bounds.planning.recommend import (
    _estimate_mechanism,
    _gamma_of_n,
    estimate_power,
    estimate_queries,
    format_rows,
    requirement_notes,
    study_at_n,
)
from maxinfo_bounds.planning.routes import NoValidRoute


def _binom_power_40(n: int, gamma: float, p0: str, p1: str) -> mpmath.mpf:
    """The one-sided ("larger") exact binomial test's power at level gamma on n records, 40
    digits: reject when X >= c, c the smallest with P(Bin(n, p0) >= c) <= gamma; the power is
    P(Bin(n, p1) >= c)."""
    with mpmath.workdps(40):

        def tail(p: mpmath.mpf, c: int) -> mpmath.mpf:
            return mpmath.fsum(mpmath.binomial(n, k) * p**k * (1 - p) ** (n - k) for k in range(c, n + 1))

        c = next(c for c in range(n + 2) if tail(mpmath.mpf(p0), c) <= gamma)
        return tail(mpmath.mpf(p1), c)


def test_required_n_of_mean_queries_under_the_exact_binomial_test_is_the_brute_force_smallest():
    """Two Laplace mean queries (values in [0, 1], scale 0.05: eps = 1/(0.05 n) each, so gamma
    follows n) then the exact one-sided binomial test of p = 0.5 against 0.7, power 0.8. The
    binomial power is not monotone in n (here 0.7962 at n = 175, 0.7815 at 176, 0.8128 at 177,
    0.7988 at 178: exact sums at 40 digits), so the branch and bound must bound the power on an
    interval with both ends of it (the critical value at the low end, the distribution at the
    high end). Brute force over every n from the test's fewest records: the first n whose
    coarse-grid plan reaches 0.8 is 177, the search's answer. (Written against the interval's
    low end dropped from the bound: the search then failed.)"""
    spec = PowerSpec("proportion", 0.2, "larger", p0=0.5)
    st = Study(n=200, alpha=0.05, iid=True, steps=(Laplace(value_min=0, value_max=1, scale=0.05, times=2),), power=spec)
    rows = {r.kind.value: r for r in plan_power(st).rows}
    reuse = rows["reuse"]
    assert reuse.required_n_note == "smallest n (proven: branch and bound on the power)"
    first = None
    gammas = {}
    for n in range(min_records(spec), 200):
        gammas[n] = plan(study_at_n(st, n), refine=False).gamma
        if first is None and power_at(spec, gammas[n], n) >= 0.8:
            first = n
    assert first == reuse.required_n == 177
    exact = {n: _binom_power_40(n, gammas[n], "0.5", "0.7") for n in (176, 177, 178)}
    assert mpmath.nstr(exact[176], 4) == "0.7815" and mpmath.nstr(exact[177], 4) == "0.8128"
    assert mpmath.nstr(exact[178], 4) == "0.7988"
    for n, p in exact.items():
        assert power_at(spec, gammas[n], n) == pytest.approx(float(p), rel=1e-12)


def test_the_required_n_search_reads_the_coarse_grid_plan_and_zero_where_no_route_is_valid():
    """Two Gaussian mean queries (values in [0, 1], sigma 1, delta 1e-9) on n records. At
    n = 12 no route is valid (the composed eps is too large for RRST Thm 3.1 at every total
    delta): the search reads gamma 0 there (power 0), never a level it could reject at. At
    n = 100 the refined plan (a total delta between the grid's points) beats the coarse grid's,
    but the required-n bound (:func:`gamma_upper_bound`) is proven for the coarse grid only, so
    the search reads the coarse plan."""
    st = Study(
        n=200,
        alpha=0.05,
        iid=True,
        steps=(Gaussian(value_min=0, value_max=1, sigma=1.0, delta=1e-9, times=2),),
        power=PowerSpec("proportion", 0.3, "larger", p0=0.5),
    )
    g = _gamma_of_n(st, {})
    with pytest.raises(NoValidRoute):
        plan(study_at_n(st, 12), refine=False)
    assert g(12) == 0.0
    coarse = plan(study_at_n(st, 100), refine=False)
    fine = plan(study_at_n(st, 100))
    assert coarse.route == "tight DP composition (delta=1e-09) then RRST Thm 3.1"
    assert fine.gamma > coarse.gamma > 0
    assert g(100) == coarse.gamma


def test_no_n_on_the_unproven_grid_reaches_the_target_says_none():
    """Thresholdout beside a Laplace step (gamma not monotone in n: the grid of 4 points per
    doubling, not proven), and a one-sided z test of effect 1e-7. Even at level alpha = 0.05
    the z test needs (z_0.95 + z_0.8)^2 / (1e-7)^2 = 6.18e14 records for power 0.8, beyond
    the search's 10^12; every route's gamma is at most alpha, so no n reaches it: the reuse row
    says none on the grid, and splitting none by the power bound."""
    z = 1.6448536269514722 + 0.8416212335729143  # z_0.95 + z_0.8 (standard normal table)
    assert (z / 1e-7) ** 2 > 6.18e14
    sp = PowerSpec("z", 1e-7, "larger", 0.8, None, 0.5)
    st = Study(
        n=100_000,
        alpha=0.05,
        iid=True,
        steps=(Thresholdout(budget=10, sigma=0.01), Laplace(sensitivity=0.001, eps=0.01)),
        power=sp,
    )
    rows = {r.kind.value: r for r in plan_power(st).rows}
    assert rows["reuse"].required_n is None
    assert rows["reuse"].required_n_note == (
        "none on a grid up to 2^40 (not proven: with Thresholdout beside other DP steps (or run several "
        "times) γ is not monotone in n)"
    )
    assert rows["split"].required_n is None
    assert rows["split"].required_n_note == "no n <= 1e+12 reaches power 0.8 (proven by the power bound)"


def test_a_vacuous_reuse_row_says_why_with_its_k_rounded_up():
    """One mutual-information step of 100 bits on 1,000 records: every route needs k above
    1075 + log2(0.05) = 1070.68 bits, where (alpha - beta) 2^-k is below the smallest float
    (2^-1074) and the certified threshold rounds down to 0. The reuse row is kept (it is a
    valid route) with a note that says so and quotes the route's k, rounded up."""
    st = Study(n=1000, alpha=0.05, iid=True, steps=(MutualInformation(mi_bits=100),))
    r = plan(st)
    assert r.gamma == 0.0 and r.k is not None and r.k > 1075 + math.log2(0.05)
    (row,) = [row for row in plan_power(st).rows if row.kind.value == "reuse"]
    assert row.valid and row.threshold == 0.0
    m = re.fullmatch(
        r"vacuous: the certified threshold is 0 \(k = (\S+) bits leaves no usable threshold\), "
        r"so this route can never reject",
        row.note,
    )
    assert m is not None
    assert r.k <= float(m.group(1)) <= r.k * (1 + 1e-5)


@pytest.mark.parametrize(
    ("n", "m_test", "note"),
    [
        (3, 0, "the test part would have no records"),
        (4, 1, "the analysis runs on 3 records, the test on 1 fresh ones at alpha"),
        (10, 3, "the analysis runs on 7 records, the test on 3 fresh ones at alpha"),
    ],
)
def test_the_splitting_row_uses_the_power_tables_fraction_and_needs_one_test_record(n, m_test, note):
    """Splitting at the [power] table's split_fraction 0.3 tests on floor(0.3 n) records: 0 on
    n = 3 (not valid: nothing to test on), 1 on n = 4 (valid: a test needs one record), 3 on
    n = 10, by hand."""
    sp = PowerSpec("z", 0.5, "larger", 0.8, None, 0.3)
    st = Study(n=n, alpha=0.05, iid=True, steps=(Description(range_size=2),), power=sp)
    (row,) = [r for r in plan_power(st).rows if r.kind.value == "split"]
    assert row.name == "sample splitting (test on 0.3 of the records)"
    assert (row.valid, row.threshold, row.test_records, row.note) == (m_test >= 1, 0.05, m_test, note)


def test_the_estimation_row_counts_every_mean_query_and_says_why_it_is_invalid():
    """Two Laplace and three Gaussian mean queries, then a proportion: 2 + 3 = 5 adaptive
    statistical queries plus the final one, 6 in the row's name. On data not known to be i.i.d.
    the row is listed, not valid, at alpha on the study's n records with its reason; with 51
    answers asked of 5 i.i.d. records the estimation planner has no route with a half-width
    below 1, and the row is listed with that reason."""
    sp = PowerSpec("proportion", 0.2, "larger", p0=0.5)
    steps = (
        Laplace(value_min=0, value_max=1, scale=0.05, times=2),
        Gaussian(value_min=0, value_max=1, sigma=0.05, delta=1e-9, times=3),
    )
    st = Study(n=1000, alpha=0.05, iid=False, steps=steps, power=sp)
    assert estimate_queries(st) == 5
    (row,) = [r for r in plan_power(st).rows if r.kind.value == "estimate"]
    assert row.name == "estimate then decide (6 statistical queries, estimation planner)"
    assert (row.valid, row.threshold, row.test_records) == (False, 0.05, 1000)
    assert row.note == "not valid: the data are not i.i.d."
    tiny = Study(n=5, alpha=0.05, iid=True, steps=(Laplace(value_min=0, value_max=1, scale=0.05, times=50),), power=sp)
    (row,) = [r for r in plan_power(tiny).rows if r.kind.value == "estimate"]
    assert row.name == "estimate then decide (51 statistical queries, estimation planner)"
    assert (row.valid, row.threshold, row.test_records) == (False, 0.05, 5)
    assert row.note == "no estimation route has a half-width below 1 here"


def test_the_split_note_counts_a_test_of_the_fewest_records_and_is_empty_without_a_power_table():
    """A one-sided z test of d = 5 on n = 20: the grid's first fraction 0.05 tests on
    floor(0.05 * 20) = 1 record, the z test's fewest, where the power at alpha = 0.05 is
    Phi(5 - z_0.95) = Phi(3.355) = 0.9996 >= 0.8 (normal table): that fraction is the note's.
    Without a [power] table, or on data not known to be i.i.d. (no splitting), no note."""
    assert stats.norm.cdf(5 - stats.norm.isf(0.05)) > 0.9995
    sp = PowerSpec("z", 5.0, "larger")
    steps = (Description(range_size=2),)
    pp = plan_power(Study(n=20, alpha=0.05, iid=True, steps=steps, power=sp))
    assert pp.split_note == (
        "smallest test fraction on the grid 0.05..0.95 reaching power 0.8: 0.05 (1 test records); "
        "the analysis keeps 19 records"
    )
    assert pp.reuse is not None and pp.reuse_refusal == ""  # (a valid reuse route: no refusal, not None)
    assert plan_power(Study(n=20, alpha=0.05, iid=True, steps=steps)).split_note == ""
    assert plan_power(Study(n=20, alpha=0.05, iid=False, steps=steps, power=sp)).split_note == ""


def test_plan_power_refuses_what_is_not_a_study_by_name():
    with pytest.raises(PlanError) as e:
        plan_power("study.toml")  # type: ignore[arg-type]
    assert str(e.value) == "study: must be a Study (see load_study / parse_study), got str"
    assert e.value.name == "study"


def _binom_powers(ns, level: float, p0: float, p1: float) -> dict[int, float]:
    """The one-sided exact binomial test's power at each n (scipy.stats.binom, independent of
    the planner's tails): c(n) the smallest c with P0(X >= c) <= level, power P1(X >= c)."""
    out = {}
    for n in ns:
        ks = np.arange(n + 2)
        c = int(ks[np.argmax(stats.binom.sf(ks - 1, n, p0) <= level)])
        out[n] = float(stats.binom.sf(c - 1, n, p1))
    return out


def _binary_description_study() -> Study:
    """One binary description step on 200 i.i.d. records, then the exact one-sided binomial
    test of p = 0.5 against 0.9 (power 0.8): the union bound tests it at 0.05/2 = 0.025."""
    return Study(
        n=200,
        alpha=0.05,
        iid=True,
        steps=(Description(range_size=2),),
        power=PowerSpec("proportion", 0.4, "larger", p0=0.5),
    )


def test_a_binomial_power_that_never_falls_back_says_so_and_splitting_stays_from_its_own_records():
    """One description step of 2 outputs on n = 200 i.i.d. records, the exact binomial test of
    p = 0.5 against 0.9 (power 0.8). The union bound tests at 0.05/2 = 0.025: at n = 11 the
    critical count is 10 (P0(X >= 9) = 67/2048 > 0.025 >= P0(X >= 10) = 12/2048) and the power
    P(Bin(11, 0.9) >= 10) = 0.6974; at n = 12 the count is 10 again (P0(X >= 10) = 79/4096)
    and the power 0.8891; from there on (checked here to n = 1,500 with scipy.stats.binom) the
    power never falls back: the note says it stays from the required n. Against 0.7 instead,
    splitting at 0.5 tests on floor(n/2) records at 0.05, whose power saw-tooths: by brute
    force over those records it first reaches 0.8 at n = 74 and stays from n = 84 (to 1,500).
    The reuse route's gamma moves with n, so no "stays from" is claimed for it."""
    st = _binary_description_study()
    pp = plan_power(st)
    rows = {r.kind.value: r for r in pp.rows}
    union, split = rows["union"], rows["split"]
    assert union.threshold == 0.025
    exact = _binom_powers(range(1, 1501), 0.025, 0.5, 0.9)
    assert exact[11] == pytest.approx(0.6973568802, rel=1e-9) and exact[12] == pytest.approx(0.8891300222, rel=1e-9)
    assert [n for n in exact if exact[n] < 0.8] == list(range(1, 12))
    assert union.required_n == union.stays_from == 12
    assert (
        f"{union.name}: the power stays at or above 0.8 for every n from the required n on "
        "(proven up to 10^12; exact binomial test)"
    ) in requirement_notes(pp)
    st2 = Study(n=200, alpha=0.05, iid=True, steps=st.steps, power=PowerSpec("proportion", 0.2, "larger", p0=0.5))
    split2 = next(r for r in plan_power(st2).rows if r.kind.value == "split")
    halves = _binom_powers(range(1, 751), 0.05, 0.5, 0.7)  # on floor(n/2) test records
    below = [n for n in range(2, 1501) if halves[n // 2] < 0.8]
    assert split2.required_n == 74 == min(n for n in range(2, 1501) if halves[n // 2] >= 0.8)
    assert split2.stays_from == 84 == max(below) + 1
    assert split.required_n is not None and split.stays_from is not None
    assert rows["reuse"].required_n is not None and rows["reuse"].stays_from is None


def test_requirement_notes_go_past_an_invalid_row_and_name_the_estimates_own_power():
    """One Laplace mean query on 19 records, the binomial test of 0.5 against 0.95, splitting at
    0.05: floor(0.05 * 19) = 0 test records, so the splitting row is not valid and comes
    before the estimation row, which is. Its power is that of its own decision (reject when the
    noisy estimate is beyond p0 + the half-width), not of the exact binomial test, so no
    normal approximation of that test is quoted beside it. By hand: the route answers from 9
    records without noise with half-width 0.4934, so it rejects only when all 9 are 1: power
    0.95^9 = 0.6302, and the minimum detectable effect solves p1^9 = 0.8, p1 - 0.5 = 0.8^(1/9)
    - 0.5 = 0.475511."""
    st = Study(
        n=19,
        alpha=0.05,
        iid=True,
        steps=(Laplace(value_min=0, value_max=1, scale=1.0, times=1),),
        power=PowerSpec("proportion", 0.45, "larger", p0=0.5, split_fraction=0.05),
    )
    pp = plan_power(st)
    kinds = [(r.kind.value, r.valid) for r in pp.rows]
    assert kinds == [("reuse", True), ("split", False), ("estimate", True), ("naive", False)]
    est = pp.rows[2]
    notes = requirement_notes(pp)
    assert notes[1:] == [
        f"{est.name}: power {est.power:.4f} of the decision from the estimate (reject when the answer, noise "
        "included, is beyond p0 +- the certified half-width; an exact sum over the binomial), not of the exact "
        "binomial test"
    ]
    assert notes[0].startswith("adaptive reuse (max-information composition): power ")
    assert (est.test_records, est.power) == (9, pytest.approx(0.95**9, rel=1e-9))
    assert est.mde == pytest.approx(0.8 ** (1 / 9) - 0.5, abs=1e-5)
    assert (
        est.required_n_note
        == "smallest n found by bisection (power checked below target at n - 1; not proven monotone)"
    )
    # its required n: at n = 26 the route answers from 13 records with half-width 0.4105, so it
    # rejects at 12 or 13 ones: 0.95^13 + 13 0.95^12 0.05 = 0.8646; at n = 24 and 25, from 12
    # records with half-width 0.4273 (11/12 is not beyond 0.9273): 0.95^12 = 0.5404; and the
    # route's power stays below 0.8 at every smaller n (each n's plan, brute force)
    assert est.required_n == 26
    p26 = 0.95**13 + 13 * 0.95**12 * 0.05
    assert f"{p26:.4f}" == "0.8646" and f"{0.95**12:.4f}" == "0.5404"
    for n in range(2, 27):
        mech = _estimate_mechanism(st, n)
        p = 0.0 if mech is None else estimate_power(st.power, *mech[1:])
        assert (p >= 0.8) == (n == 26)
        if n in (24, 25, 26):
            assert p == pytest.approx(p26 if n == 26 else 0.95**12, rel=1e-9)


def test_a_reuse_refusal_that_is_not_a_missing_route_is_kept_word_for_word():
    """200,000 binary descriptions: 200,000 bits of output, above the 100,000 the planner
    evaluates (the bound is vacuous), so planning reuse raises a refusal naming the step, not
    "no valid route"; the power plan keeps it as the reuse refusal and plans the other rows."""
    st = Study(
        n=1000,
        alpha=0.05,
        iid=True,
        steps=(Description(range_size=2, times=200_000),),
        power=PowerSpec("z", 0.1, "larger"),
    )
    pp = plan_power(st)
    assert pp.reuse is None
    assert pp.reuse_refusal == (
        "<study>: steps[0]: the description stage would have more than 100000 bits of output "
        "(range_size^times): its max-information bound is vacuous; lower range_size or times"
    )
    assert [(r.kind.value, r.valid) for r in pp.rows] == [("split", True), ("naive", False)]


def test_the_route_table_says_none_for_a_valid_route_no_n_rescues():
    """One mutual-information step of 100 bits (the reuse threshold rounds to 0: see above) and
    a one-sided z test of d = 0.1 on 1,000 records. Reuse at level 0 has power 0 at every n:
    its required n and minimum detectable effect are "none". Splitting tests 500 records at
    0.05: power Phi(0.1 sqrt(500) - z_0.95) = 0.7228, 619 test records (1,238 in all) reach 0.8
    ((z_0.95 + z_0.8)/0.1)^2 = 618.3), and the MDE at 500 is (z_0.95 + z_0.8)/sqrt(500) =
    0.1112 (normal table)."""
    z95, z80 = stats.norm.isf(0.05), stats.norm.isf(0.2)
    assert f"{stats.norm.cdf(0.1 * math.sqrt(500) - z95):.4f}" == "0.7228"
    assert math.ceil(((z95 + z80) / 0.1) ** 2) == 619 and f"{(z95 + z80) / math.sqrt(500):.4f}" == "0.1112"
    st = Study(
        n=1000, alpha=0.05, iid=True, steps=(MutualInformation(mi_bits=100),), power=PowerSpec("z", 0.1, "larger")
    )
    lines = format_rows(plan_power(st).rows)
    assert lines[1].split() == ["adaptive", "reuse", "(max-information", "composition)", "0.0", "1000", "yes"] + [
        "0.0000",
        "none",
        "none",
    ]
    assert lines[2].split()[-6:] == ["0.05", "500", "yes", "0.7228", "1,238", "0.1112"]


def test_required_n_where_small_n_have_no_valid_route():
    """Two Gaussian mean queries (values in [0, 1], sigma 1) and the binomial test of 0.5
    against 0.8 on 200 records: below n = 13 no route is valid (see above), so the branch and
    bound meets intervals whose relaxed plan has none either, and must read them as power 0
    (never as a level, never as an error). The required n, 164, was checked once by brute force
    over every n from 1 (each n's coarse plan and its exact binomial power: 15 s); here the
    last 15 sizes below it fall short and 164 reaches 0.8."""
    spec = PowerSpec("proportion", 0.3, "larger", p0=0.5)
    st = Study(
        n=200,
        alpha=0.05,
        iid=True,
        steps=(Gaussian(value_min=0, value_max=1, sigma=1.0, delta=1e-9, times=2),),
        power=spec,
    )
    reuse = next(r for r in plan_power(st).rows if r.kind.value == "reuse")
    assert reuse.required_n == 164
    assert reuse.required_n_note == "smallest n (proven: branch and bound on the power)"
    powers = {n: power_at(spec, plan(study_at_n(st, n), refine=False).gamma, n) for n in range(149, 165)}
    assert max(powers[n] for n in range(149, 164)) < 0.8 <= powers[164]


@pytest.mark.parametrize(("gap", "count"), [(5000, "at 0 of the sizes"), (5001, "at some sizes")])
def test_the_saw_tooth_note_counts_the_sizes_below_target_only_up_to_5000_of_them(gap, count):
    """Between the required n and the n the power stays from, the note counts the sizes where
    the binomial power falls back below the target, one power evaluation per size, when there
    are at most 5,000 of them (n = required + 1 .. stays - 2; the last, stays - 1, is below by
    definition); beyond, it says "at some sizes". At n near 2e8 the gap is about 12,000 sizes
    (the planner gives 196,227,697 and 196,239,462 for the union route of a binary description
    and a proportion effect of 1e-4: 22 s, too slow here), so the rule is held on the union row
    of a small study with its two ends set 5,002 and 5,003 sizes apart; its power (the binomial
    test of 0.5 against 0.9 at 0.025) is above 0.8 at every n from 101 (scipy.stats.binom)."""
    st = _binary_description_study()
    pp = plan_power(st)
    assert min(_binom_powers(range(101, 100 + gap + 3), 0.025, 0.5, 0.9).values()) > 0.8
    rows = tuple(
        replace(r, required_n=100, stays_from=100 + gap + 2) if r.kind.value == "union" else r for r in pp.rows
    )
    name = rows[1].name
    note = next(x for x in requirement_notes(replace(pp, rows=rows)) if x.startswith(f"{name}: the exact binomial"))
    assert note == (
        f"{name}: the exact binomial test's power saw-tooths in n: it reaches 0.8 at n = 100 but falls back below "
        f"it {count} up to {100 + gap + 1:,}; it stays at or above 0.8 from n = {100 + gap + 2:,} on "
        "(proven up to 10^12)"
    )
