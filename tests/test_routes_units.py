"""Pieces of the planner's routes (``planning/routes.py``) held against hand derivations: how
the max-information route composes a stage it is not given a composition for.

The Gaussian mechanism's privacy curve (Balle and Wang 2018; Dong, Roth and Su 2022, GDP):
delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2), mu = sensitivity/sigma; k runs
compose exactly to mu sqrt(k) (DRS22 Cor 3.3). The reference eps is the root of that curve,
bisected at 50 digits below, written independently of the planner's accountants.
"""

from __future__ import annotations

import math

import mpmath
import pytest

from maxinfo_bounds.planning import Description, Gaussian, GenericDP, Laplace, MutualInformation, Study, plan, routes
from maxinfo_bounds.planning.routes import gamma_upper_bound
from maxinfo_bounds.planning.stages import stages_of
from proofs_checks.fuzz import references as R

from .test_planner_corpus import _check_thm31_link


def _gdp_eps(mu: mpmath.mpf, delta: mpmath.mpf) -> mpmath.mpf:
    """The smallest eps >= 0 with delta(eps) <= delta on mu's curve, by bisection (50 digits)."""
    with mpmath.workdps(50):

        def d(e):
            return mpmath.ncdf(-e / mu + mu / 2) - mpmath.exp(e) * mpmath.ncdf(-e / mu - mu / 2)

        lo, hi = mpmath.mpf(0), mpmath.mpf(100)
        if d(lo) <= delta:
            return lo
        for _ in range(300):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if d(mid) > delta else (lo, mid)
        return hi


def test_a_gaussian_stage_is_composed_exactly_at_its_own_deltas():
    """Four Gaussian runs of mu = 1e-6 (sensitivity 1e-6, sigma 1, delta 1e-12 each), planned by
    the max-information route without a tight composition: the stage is mu = 2e-6-GDP, read at
    the total of its own deltas, 4e-12: eps = 8.558e-6 (the basic sum of the four runs' eps at
    1e-12 each would be 1.770e-5). Thm 3.1 then needs delta below 3 (1/2) alpha^2/(16 n^2) =
    2.34375e-16, so the route is refused with both numbers in its reason."""
    st = Study(n=10**6, alpha=0.05, iid=True, steps=(Gaussian.from_sigma(1e-6, 1.0, 1e-12, times=4),))
    eps = _gdp_eps(mpmath.mpf(2) * mpmath.mpf("1e-6"), 4 * mpmath.mpf("1e-12"))
    assert mpmath.nstr(eps, 4) == "8.558e-6"
    out = routes._maxinfo_route(st, stages_of(st), None, None, "max-information composition")
    assert out == (
        "steps[0..0] are (8.558e-06, 4e-12)-DP on n = 1000000 records: RRST Thm 3.1's beta is at "
        "least 4 n sqrt(delta/(3 eps')), so delta must be below about 3 eps' alpha^2/(16 n^2) for "
        "some eps' <= 1/2 (here: delta < 2.3e-16 at alpha = 0.05)"
    )


def test_a_gaussian_stage_whose_deltas_reach_one_half_is_composed_basically():
    """Two Gaussian runs of mu = 3 at delta 1/4 each: their deltas total 1/2, where the exact
    composition is not read (its point would need a total delta below 1/2); basic composition
    gives (2 eps_1, 1/2), eps_1 = 5.6396 the curve's eps at 1/4: 11.28 (the exact curve of
    mu = 3 sqrt 2 at 1/2 would say 8.016)."""
    st = Study(n=10**6, alpha=0.05, iid=True, steps=(Gaussian.from_sigma(1, 1 / 3, 0.25, times=2),))
    two_eps = 2 * _gdp_eps(mpmath.mpf(3), mpmath.mpf("0.25"))
    assert mpmath.nstr(two_eps, 4) == "11.28"
    assert mpmath.nstr(_gdp_eps(3 * mpmath.sqrt(2), mpmath.mpf("0.5")), 4) == "8.016"
    assert routes._own_exact(stages_of(st)[0]) is None
    out = routes._maxinfo_route(st, stages_of(st), None, None, "max-information composition")
    assert out == (
        "steps[0..0] compose to (11.28, 0.5)-DP: RRST Thm 3.1 needs eps <= 1/2 (fewer runs, "
        "more noise, or a smaller per-step eps)"
    )


def test_a_pure_dp_stage_on_iid_data_then_a_description_optimises_both_betas():
    """An eps = 0.001 Laplace step on 10^5 i.i.d. records, then an output of one of M = 10
    values: two stages, each with its own beta (RRST Thm 1.4b at beta_1, DFHPRR Thm 6 at
    beta_2; Thm A.3 adds k and beta). By hand: for fixed beta_1 the best beta_2 is (alpha -
    beta_1)/2, so gamma = sup over beta_1 of (alpha - beta_1)^2 / (4M) 2^-k_b(beta_1), k_b =
    log2 e (eps^2 n/2 + eps sqrt(n ln(2/beta_1)/2)) (Thm 1.4a's eps n log2 e = 144 bits is far
    worse), maximised at 50 digits by the fuzz references. The planner's two-variable optimiser
    must reach it within 1e-9 (certified: never above it)."""
    alpha, m, eps, n = 0.05, 10, 0.001, 10**5
    st = Study(n=n, alpha=alpha, iid=True, steps=(Laplace(sensitivity=1.0, eps=eps), Description(range_size=m)))
    with mpmath.workdps(50):
        a, e = mpmath.mpf(alpha), mpmath.mpf(eps)

        def g(b1):
            return (a - b1) ** 2 / (4 * m) * mpmath.power(2, -R.pure_dp_product(e, n, b1))

        sup = R.maximise(g, mpmath.mpf("1e-30"), a * (1 - mpmath.mpf("1e-12")))
        assert mpmath.nstr(sup, 6) == "3.08237e-5"
        p = plan(st)
        assert p.route == "max-information composition"
        assert sup * (1 - mpmath.mpf("1e-9")) <= mpmath.mpf(p.gamma) <= sup


@pytest.mark.parametrize("bits", ["0.05", "0.3", "1"])
def test_a_mutual_information_stage_by_max_information_composition(bits):
    """One step of m bits of mutual information (any data): the max-information route reads it
    through RRST Lemma 1.5's exact curve, parametrised by beta (its optimiser's variable is
    scaled by sqrt(m)), and must reach the hand supremum over k of (alpha - beta*(k)) 2^-k
    within 1e-7 (its k is certified through a float: a looser margin than the
    mutual-information route's)."""
    st = Study(n=1000, alpha=0.05, iid=False, steps=(MutualInformation(mi_bits=float(bits)),))
    cands = {c.route: c.gamma for c in plan(st).candidates}
    with mpmath.workdps(50):
        sup = R.mi_pvalue_optimal(mpmath.mpf(0.05), mpmath.mpf(float(bits)))
        got = mpmath.mpf(cands["max-information composition"])
        assert sup * (1 - mpmath.mpf("1e-7")) <= got <= sup


def test_a_mutual_information_stage_beside_a_description_optimises_both_betas():
    """0.3 bits of mutual information, then an output of one of M = 4 values (any data): two
    stages of two families, the optimiser's MI variable scaled by sqrt(0.3 + 0.54). By hand,
    with the MI stage read at k bits (beta*(k) from Lemma 1.5's exact curve) and the best
    description beta (alpha - beta*(k))/2: gamma = sup over k of (alpha - beta*(k))^2/(4M) 2^-k,
    maximised at 50 digits with the fuzz references' beta*. The max-information route must
    reach it within 1e-7, never above it."""
    alpha, m, size = 0.05, 0.3, 4
    st = Study(n=1000, alpha=alpha, iid=False, steps=(MutualInformation(mi_bits=m), Description(range_size=size)))
    with mpmath.workdps(50):
        a, mm = mpmath.mpf(alpha), mpmath.mpf(m)

        def g(k):
            b = R.mi_beta_star(mm, k)
            return (a - b) ** 2 / (4 * size) * mpmath.power(2, -k) if b < a else mpmath.mpf(0)

        sup = R.maximise(g, mm / a, 8 * (mm + 1) / a + 64, grid=80, rel=1e-20)
        got = mpmath.mpf({c.route: c.gamma for c in plan(st).candidates}["max-information composition"])
        assert sup * (1 - mpmath.mpf("1e-7")) <= got <= sup


def _num(text: str, key: str) -> mpmath.mpf:
    """The number after ``key`` in a link's text (printed to 6 digits)."""
    return mpmath.mpf(text.split(key, 1)[1].split()[0].rstrip(","))


def test_the_derivation_of_a_two_stage_plan_checks_out_by_hand():
    """The plan of the two-stage study above, read as a referee would: each stage's printed k
    is its theorem's k at the printed beta (RRST Thm 1.4b; DFHPRR Thm 6), each to the 6 digits
    printed and never below it; the composition adds k and beta (RRST Thm A.3); gamma is
    (alpha - beta)/2^k (RRST Thm 1.3), at most that; only the first stage is marked
    product-only, and each link cites its result."""
    alpha, eps, n = 0.05, 0.001, 10**5
    st = Study(n=n, alpha=alpha, iid=True, steps=(Laplace(sensitivity=1.0, eps=eps), Description(range_size=10)))
    p = plan(st)
    assert [(c.what, c.theorems) for c in p.chain] == [
        ("steps[0] (laplace)", ("DR-3.6",)),
        ("DP composition of the stage", ("DR-3.16",)),
        ("max-information of the stage", ("RRST-1.4b",)),
        ("steps[1] (description)", ("DFHPRR-6",)),
        ("max-information of the stage", ("DFHPRR-6",)),
        ("composition over stages", ("RRST-A.3",)),
        ("p-value correction", ("RRST-1.3",)),
    ]
    first, second, comp, corr = p.chain[2], p.chain[4], p.chain[5], p.chain[6]
    assert first.conditions[-1] == "product inputs: first stage, i.i.d. data"
    assert not any("product inputs" in c for c in second.conditions)
    assert comp.inputs == "2 stages" and comp.conditions == ("only the first stage product-only",)
    assert corr.inputs == "alpha=0.05" and corr.conditions == ("gamma = (alpha - beta) / 2^k, rounded down",)
    six = mpmath.mpf("1e-5")
    with mpmath.workdps(50):
        b1, k1 = _num(first.inputs, "beta="), _num(first.output, "k <=")
        b2, k2 = _num(second.inputs, "beta="), _num(second.output, "k <=")
        hand1 = R.pure_dp_product(mpmath.mpf(eps), n, b1)
        hand2 = R.description(mpmath.mpf(10), b2)
        assert hand1 <= k1 <= hand1 * (1 + six) and hand2 <= k2 <= hand2 * (1 + six)
        k, b = _num(comp.output, "k ="), _num(comp.output, "beta =")
        assert abs(k - (k1 + k2)) <= six * k and abs(b - (b1 + b2)) <= six * b
        assert mpmath.mpf(p.k) <= k and mpmath.mpf(p.beta) <= b
        hand = (mpmath.mpf(alpha) - mpmath.mpf(p.beta)) * mpmath.power(2, -mpmath.mpf(p.k))
        assert mpmath.mpf(p.gamma) <= hand and mpmath.mpf(p.gamma) >= hand * (1 - mpmath.mpf("1e-12"))
        assert abs(_num(corr.output, "gamma =") - mpmath.mpf(p.gamma)) <= six * mpmath.mpf(p.gamma)


def test_on_data_that_are_not_iid_the_dp_stage_is_read_by_thm_14a_at_beta_0():
    """The same two stages on 100 records that are not i.i.d.: Thm 1.4b (product inputs) is
    not available, so the DP stage is read by Thm 1.4a, k = eps n log2 e = 0.144270 bits at
    beta = 0, with no product condition, and gamma = alpha^2 e^(-eps n)/(4M) = 5.65523e-5 (the
    description's beta alpha/2)."""
    st = Study(n=100, alpha=0.05, iid=False, steps=(Laplace(sensitivity=1.0, eps=0.001), Description(range_size=10)))
    p = plan(st)
    first = p.chain[2]
    assert (first.what, first.theorems, first.inputs) == ("max-information of the stage", ("RRST-1.4a",), "beta=0.0")
    assert not any("product" in c for c in first.conditions)
    with mpmath.workdps(50):
        k = _num(first.output, "k <=")
        hand_k = R.pure_dp(mpmath.mpf(0.001), 100)
        assert hand_k <= k <= hand_k * (1 + mpmath.mpf("1e-5"))
        hand = mpmath.mpf(0.05) ** 2 * mpmath.exp(-mpmath.mpf(0.001) * 100) / 40
        assert hand * (1 - mpmath.mpf("1e-9")) <= mpmath.mpf(p.gamma) <= hand


@pytest.mark.parametrize("dp_first", [True, False])
def test_the_mutual_information_route_sums_each_stage_by_hand(dp_first):
    """A pure eps = 0.001 step on 100 records (not i.i.d.), an output of one of 10 values and a
    step of 0.5 bits, the DP step first or second: the mutual-information route bounds the DP
    stage by I <= I_inf <= eps n log2 e (RRST Thm 1.4a), the description by log2 10 (entropy),
    adds them (chain rule) and corrects by the better of Cor C.2 (optimal k) and Russo-Zou:
    here Cor C.2, at the total 3.966198 bits, against the fuzz references' 50-digit supremum."""
    lap, desc_step = Laplace(sensitivity=1.0, eps=0.001), Description(range_size=10)
    first_two = (lap, desc_step) if dp_first else (desc_step, lap)
    st = Study(n=100, alpha=0.05, iid=False, steps=(*first_two, MutualInformation(mi_bits=0.5)))
    out = routes._mi_route(st, stages_of(st))
    assert out.route == "mutual information" and out.k is None and out.beta is None
    assert (out.study, out.alpha, out.candidates, out.notes) == ("study", 0.05, (), ())
    lap_links = ["steps[0] (laplace)", "MI of the stage"] if dp_first else ["steps[1] (laplace)", "MI of the stage"]
    desc_links = (
        ["steps[1] (description)", "MI of the stage"] if dp_first else ["steps[0] (description)", "MI of the stage"]
    )
    stage_links = lap_links + desc_links if dp_first else desc_links + lap_links
    assert [c.what for c in out.chain] == [*stage_links, "steps[2] (mutual_information)", "chain rule and correction"]
    dp = next(c for c in out.chain if c.theorems == ("DR-3.16", "RRST-1.4a"))
    desc = next(c for c in out.chain if c.theorems == ("entropy",))
    last = out.chain[-1]
    assert (dp.what, dp.inputs) == ("MI of the stage", "eps=0.001, n=100")
    assert (desc.what, desc.inputs) == ("MI of the stage", "range 10")
    assert (last.what, last.theorems) == ("chain rule and correction", ("RRST-C.2",))
    six = mpmath.mpf("1e-5")
    with mpmath.workdps(50):
        a = mpmath.mpf(0.05)
        k_dp, k_desc = R.pure_dp(mpmath.mpf(0.001), 100), R.log2(10)
        assert k_dp <= _num(dp.output, "I <= I_inf <=") <= k_dp * (1 + six)
        assert k_desc <= _num(desc.output, "I <= log2(range) <=") <= k_desc * (1 + six)
        m = k_dp + k_desc + mpmath.mpf("0.5")
        assert mpmath.nstr(m, 7) == "3.966198"
        assert m <= _num(last.inputs, "I <=") <= m * (1 + six)
        sup = R.mi_pvalue_optimal(a, m)
        assert R.russo_zou(a, m) < sup
        assert sup * (1 - mpmath.mpf("1e-9")) <= mpmath.mpf(out.gamma) <= sup
        assert abs(_num(last.output, "gamma =") - mpmath.mpf(out.gamma)) <= six * mpmath.mpf(out.gamma)
        (how,) = last.conditions
        k, b = _num(how, "k ="), _num(how, "beta*(k) <=")
        # the printed k is an optimal one: beta*(k) at it is within the printed beta, and the
        # correction at the printed pair (both rounded up) is below the route's gamma but
        # within the printed beta's rounding (alpha - beta is 0.000877 here: 1e-4 relative)
        assert R.mi_beta_star(m, k) <= b
        at_printed = (a - b) * mpmath.power(2, -k)
        assert mpmath.mpf(out.gamma) * (1 - mpmath.mpf("1e-3")) <= at_printed <= mpmath.mpf(out.gamma)


def test_the_mutual_information_route_takes_russo_zou_where_it_wins():
    """0.001 bits alone: Russo-Zou (RRST Thm C.3) gives 0.0339471 against Cor C.2's 0.01447277
    (the fuzz references at 50 digits); the route cites C.3 and prints both, rounded down."""
    st = Study(n=1000, alpha=0.05, iid=False, steps=(MutualInformation(mi_bits=0.001),))
    out = routes._mi_route(st, stages_of(st))
    (last,) = out.chain[1:]
    assert (last.what, last.theorems, last.inputs) == ("chain rule and correction", ("RRST-C.3",), "I <= 0.001 bits")
    with mpmath.workdps(50):
        a, m = mpmath.mpf(0.05), mpmath.mpf(0.001)
        rz, c2 = R.russo_zou(a, m), R.mi_pvalue_optimal(a, m)
        assert mpmath.nstr(rz, 6) == "0.0339471" and mpmath.nstr(c2, 7) == "0.01447277"
        assert rz * (1 - mpmath.mpf("1e-9")) <= mpmath.mpf(out.gamma) <= rz
    assert last.output == "gamma = 0.0339471"
    assert last.conditions == (
        "Russo-Zou: the largest gamma with gamma + sqrt(m ln 2/ln(1/(2 gamma))) <= alpha "
        "(Cor C.2 gives 0.0144727 here)",
    )


def test_the_mutual_information_route_refuses_approximate_dp():
    steps = (Laplace(sensitivity=1.0, eps=0.001), Gaussian.from_sigma(1, 1, 1e-6))
    st = Study(n=100, alpha=0.05, iid=False, steps=steps)
    assert routes._mi_route(st, stages_of(st)) == "an approximate-DP stage has no mutual-information bound here"


def test_the_note_on_ranked_total_deltas_counts_every_one_not_planned_in_full(monkeypatch):
    """100 Gaussian steps (sensitivity 1e-6, sigma 0.3) on 10^6 i.i.d. records: the total deltas
    of the fixed grid are ranked by RRST Thm 3.1's float bound, the best two (within 2 bits) and
    at most two refined points between grid points are planned in full, and the note lists the
    others. Read from what the planner did (the points it ranked, the routes it planned), the
    note must count all of them: 12 ranked (every second decade from 1e-18 to 1e-40; 1e-16 and
    above have no beta below alpha), 1e-20 and 1e-22 planned, so 10 in [1e-40, 1e-18]. (It said
    8: the two refined points, which are not among the ranked ones, were subtracted too.)"""
    ranked: list[float] = []
    planned: list[str] = []
    refine, route = routes._refined_total_deltas, routes._maxinfo_route

    def spy_refine(study, eps_of, coarse):
        ranked.extend(dt for _, dt, _ in coarse)
        return refine(study, eps_of, coarse)

    def spy_route(study, stages, g, link, name, sups=None):
        planned.append(name)
        return route(study, stages, g, link, name, sups)

    monkeypatch.setattr(routes, "_refined_total_deltas", spy_refine)
    monkeypatch.setattr(routes, "_maxinfo_route", spy_route)
    st = Study(n=10**6, alpha=0.05, iid=True, steps=(Gaussian.from_sigma(1e-6, 0.3, 1e-12, times=100),))
    p = plan(st)
    assert sorted(ranked) == [10.0**-j for j in range(40, 17, -2)]
    full = [dt for dt in ranked if routes._tight_route(dt) in planned]
    assert sorted(full) == [1e-22, 1e-20]
    (note,) = [c.note for c in p.candidates if c.route == "tight DP composition at the other total deltas"]
    assert note == (
        "10 more total deltas in [1e-40, 1e-18] ranked below the best by RRST Thm 3.1's float bound: "
        "not planned in full"
    )


def test_the_planners_notes_on_routes_it_does_not_take_word_for_word():
    """The notes a reader sees for routes not taken, each with its number by hand.

    - Two Gaussian runs of mu = 1e-13 on 1000 i.i.d. records: at the grid's total delta 1e-12
      the composed eps is exactly 0 (delta(0) = 2 Phi(mu sqrt 2/2) - 1 = 5.6e-14 < 1e-12), where
      RRST Thm 3.1 does not apply.
    - Five eps = 0.2 Laplace runs: composed eps 1 at these deltas (KOV's optimum is the basic
      sum for so few runs), estimated 0.1 % low for pruning: ">= 0.999 > 1/2".
    - 10,001 runs: the tight accountants are skipped (more than 10,000); Thm 3.1's delta at 1e-12
      needs beta >= 2 n sqrt(delta) = 20 on 10^7 records; and the mutual-information route is
      dominated when every stage is pure DP.
    - Ten (0.01, 1e-14)-DP runs on 10^6 records: Thm 3.1 needs beta >= 2 n sqrt(delta) below
      alpha, so delta < (alpha/2n)^2 = 6.25e-16, below the 1e-13 the runs already use: no total
      delta is searched, and no route is valid. With a Gaussian step in the same stage the
      floor is still 1e-13: the exact accountants read a Gaussian run's whole curve, not the
      1e-12 its step shows.
    - One Gaussian step: no note per grid point (no tight route is listed before the ranking)."""

    def notes(st):
        return {c.route: c.note for c in plan(st).candidates if c.gamma is None}

    tiny = Study(n=1000, alpha=0.05, iid=True, steps=(Gaussian.from_sigma(1e-13, 1.0, 1e-13, times=2),))
    with mpmath.workdps(30):
        assert 2 * mpmath.ncdf(mpmath.mpf("1e-13") * mpmath.sqrt(2) / 2) - 1 < mpmath.mpf("1e-12")
    assert notes(tiny)["DP first stage at delta=1e-12 (RRST-3.1)"] == "composed eps is 0: RRST Thm 3.1 needs eps > 0"
    big = notes(Study(n=1000, alpha=0.05, iid=True, steps=(Laplace(sensitivity=1.0, eps=0.2, times=5),)))
    for dt in ("1e-30", "1e-20", "1e-12"):
        assert big[f"DP first stage at delta={dt} (RRST-3.1)"] == "composed eps >= 0.999 > 1/2: outside RRST Thm 3.1"
    dominated = "dominated: every stage is pure DP, whose RRST Thm 1.4a bound the max-information route uses directly"
    assert big["mutual information"] == dominated
    many = notes(Study(n=10**7, alpha=0.05, iid=True, steps=(Laplace(sensitivity=1.0, eps=1e-4, times=10_001),)))
    assert many["tight DP composition of the first stage"] == (
        "advanced and optimal (KOV) composition skipped: more than 10000 runs (GDP, the exact mixed "
        "accountant and zCDP still apply to Gaussian, pure-DP and zCDP steps)"
    )
    assert many["DP first stage at delta=1e-12 (RRST-3.1)"] == (
        "delta too large for n = 10000000: RRST Thm 3.1's beta >= 2 n sqrt(delta) = 20 >= alpha"
    )
    assert many["mutual information"] == dominated
    approx = Study(n=10**6, alpha=0.05, iid=True, steps=(GenericDP(eps=0.01, delta=1e-14, times=10),))
    with pytest.raises(routes.NoValidRoute) as info:
        plan(approx)
    why = {c.route: c.note for c in info.value.candidates}
    continuous = (
        "no total delta above what the steps use (1e-13) gives a composed eps <= 1/2 with RRST Thm 3.1's "
        "beta below alpha (searched continuously)"
    )
    assert why["tight DP composition of the first stage"] == continuous
    mixed = Study(
        n=10**6,
        alpha=0.05,
        iid=True,
        steps=(GenericDP(eps=0.01, delta=1e-14, times=10), Gaussian.from_sigma(1e-6, 1.0, 1e-12)),
    )
    with pytest.raises(routes.NoValidRoute) as info:
        plan(mixed)
    assert {c.route: c.note for c in info.value.candidates}["tight DP composition of the first stage"] == continuous
    one = plan(Study(n=10**6, alpha=0.05, iid=True, steps=(Gaussian.from_sigma(1e-6, 0.3, 1e-12),)))
    names = [c.route for c in one.candidates]
    assert [r for r in names if not r.startswith("DP first stage at delta=")] == [
        "max-information composition",
        "tight DP composition at the other total deltas",
        "mutual information",
    ]
    assert (
        len(names) == 4
        and one.route == f"tight DP composition (delta={names[1].split('=')[1].split(' ')[0]}) then RRST Thm 3.1"
    )


def test_three_stages_on_data_that_are_not_iid_word_for_word():
    """Three eps = 0.001 Laplace runs, a binary output, one eps = 0.002 run, on 100 records
    that are not i.i.d.: three stages (the description separates the DP runs), each DP stage
    composed basically (DR Thm 3.16) and read by Thm 1.4a at beta = 0; by hand gamma =
    sup over beta of (alpha - beta) (beta/2) e^-((0.003 + 0.002) 100) = alpha^2 e^-0.5/8 =
    1.8954e-4."""
    steps = (
        Laplace(sensitivity=1.0, eps=0.001, times=3),
        Description(range_size=2),
        Laplace(sensitivity=1.0, eps=0.002),
    )
    p = plan(Study(n=100, alpha=0.05, iid=False, steps=steps))
    first, later = p.chain[1], p.chain[6]
    assert (first.what, first.theorems, first.inputs, first.output) == (
        "DP composition of the stage",
        ("DR-3.16",),
        "3 adaptive runs",
        "(0.003, 0.0)-DP",
    )
    assert (later.what, later.inputs, later.output) == (
        "DP composition of the stage",
        "1 adaptive run",
        "(0.002, 0.0)-DP",
    )
    assert [c.theorems for c in p.chain if c.what == "max-information of the stage"] == [
        ("RRST-1.4a",),
        ("DFHPRR-6",),
        ("RRST-1.4a",),
    ]
    assert p.chain[-2].inputs == "3 stages"
    with mpmath.workdps(50):
        hand = mpmath.mpf(0.05) ** 2 * mpmath.exp(-mpmath.mpf("0.5")) / 8
        assert hand * (1 - mpmath.mpf("1e-9")) <= mpmath.mpf(p.gamma) <= hand


def test_extreme_valid_studies_plan_without_error_or_nan():
    """Inputs at the ends of their ranges, each planned (these raised or warned before):
    10^60 bits of mutual information at alpha = 1e-300 has no usable route (gamma 0; Lemma 1.5's
    curve reaches no beta below alpha), and three eps = 1e-300 Laplace runs on 10^12 i.i.d.
    records cost k = 3e-300 * 10^12 log2 e bits: gamma is alpha rounded down, 0.05 less one ulp
    (the zCDP accountant's order search overflowed on the steps' subnormal rho)."""
    huge = plan(Study(n=1000, alpha=1e-300, iid=False, steps=(MutualInformation(mi_bits=1e60),)))
    assert huge.gamma == 0.0 and [(c.route, c.gamma, c.note) for c in huge.candidates] == [
        ("max-information composition", None, "RRST-1.5a: no beta below alpha reachable"),
        ("mutual information", 0.0, ""),
    ]
    # Cor C.2's closed form is all that is left (gamma 0 in floats), and the route says so
    assert huge.chain[-1].theorems == ("RRST-C.2",) and huge.chain[-1].conditions == ("paper closed form",)
    # a pure stage of eps 19 * 1e299 after a description (so the mutual-information route is
    # tried): eps n log2 e is infinite in floats (Fraction(inf) raised)
    steps = (Description(range_size=1), Laplace(sensitivity=1.0, eps=1e299, times=19))
    wild = plan(Study(n=65_582_418, alpha=0.05, iid=False, steps=steps))
    assert wild.gamma == 0.0 and {c.route: c.note for c in wild.candidates}["mutual information"] == (
        "steps[1..1] are 1.9e+300-DP on n = 65582418 records: I <= eps n log2 e is beyond the floats, "
        "no positive threshold"
    )
    tiny = plan(Study(n=10**12, alpha=0.05, iid=True, steps=(Laplace(sensitivity=1.0, eps=1e-300, times=3),)))
    assert tiny.gamma == math.nextafter(0.05, 0.0)


def test_an_approximate_dp_step_after_descriptions_names_the_step_it_follows():
    """Two descriptions (one stage: steps[0..1]) then an approximate-DP step on i.i.d. data:
    RRST section 4 refuses Thm 3.1 beyond the first stage, and the reason names the last step
    of the stage before it, steps[1]."""
    steps = (Description(range_size=2), Description(range_size=3), GenericDP(eps=0.1, delta=1e-12))
    st = Study(n=1000, alpha=0.05, iid=True, steps=steps)
    assert routes._maxinfo_route(st, stages_of(st), None, None, "max-information composition") == (
        "steps[2] is approximate DP: RRST Thm 3.1 bounds its max-information only for i.i.d. data "
        "and as the first stage (RRST §4, Thm 4.1), but it follows steps[1] (description), whose "
        "output the analysis conditions on"
    )


def test_the_required_n_bound_of_a_two_stage_route_covers_its_supremum():
    """gamma_upper_bound, which the required-n search trusts as an upper bound on every plan's
    gamma at any beta split, on the two-stage study above (pure DP on i.i.d. data, then a
    description): no proven supremum applies to a route of two stages, so the bound is the
    optimised gamma times 1 + 1e-3 (the optimiser's slack). It must be at least the hand
    supremum over (beta_1, beta_2) at 50 digits, 3.08237e-5, and not far above it (within the
    slack and the plan's 1e-9)."""
    st = Study(n=10**5, alpha=0.05, iid=True, steps=(Laplace(sensitivity=1.0, eps=0.001), Description(range_size=10)))
    bound = gamma_upper_bound(st)
    with mpmath.workdps(50):
        a, e = mpmath.mpf(0.05), mpmath.mpf(0.001)

        def g(b1):
            return (a - b1) ** 2 / 40 * mpmath.power(2, -R.pure_dp_product(e, 10**5, b1))

        sup = R.maximise(g, mpmath.mpf("1e-30"), a * (1 - mpmath.mpf("1e-12")))
        assert sup <= mpmath.mpf(bound) <= sup * (1 + mpmath.mpf("1.001e-3"))
    p = plan(st)
    assert (p.study, p.alpha, p.route) == ("study", 0.05, "max-information composition")


def test_optimal_composition_applies_up_to_exactly_ten_thousand_identical_runs():
    """The optimal (KOV) composition of identical steps is tried for up to TIGHT_MAX_RUNS =
    10,000 runs and skipped beyond, with a note. At exactly 10,000 Laplace runs of 2e-5-DP
    (n = 2000, alpha = 0.05) the stage line is KOV15 Thm 3.3's: eps 0.0120855 at the chosen
    total delta 2.37138e-13, which is the optimum to its printed digit (KOV's delta summed here
    at 30 digits: 2.371365e-13 at 0.0120855, 2.372086e-13 at 0.0120854). At 10,001 runs KOV is
    skipped and the zCDP line is used: eps 0.0126514 at the same delta (CKS20 Prop. 12 at
    rho = 10,001 eps tanh(eps/2), minimised over its order here at 40 digits), a gamma about 4 times
    smaller. (Written against `classic = count < TIGHT_MAX_RUNS`, which planned 10,000 runs
    with zCDP and lost that factor without any other test noticing.)"""

    def study(times: int) -> Study:
        return Study(n=2000, alpha=0.05, iid=True, steps=(Laplace.from_eps(1.0, 2e-5, times=times),))

    at = plan(study(10_000))
    stage = at.chain[1]
    assert stage.what == "optimal DP composition of the stage" and stage.theorems == ("KOV15-3.3",)
    assert stage.output == "(0.0120855, 2.37138e-13)-DP"
    assert not any("skipped" in c.note for c in at.candidates)
    with mpmath.workdps(30):
        e0, dt = mpmath.mpf("2e-5"), mpmath.mpf("2.37138e-13")
        assert R.kov_delta(e0, mpmath.mpf(0), 10_000, mpmath.mpf("0.0120855")) < dt * (1 - 5e-6)
        assert R.kov_delta(e0, mpmath.mpf(0), 10_000, mpmath.mpf("0.0120854")) > dt * (1 + 5e-6)
    beyond = plan(study(10_001))
    assert beyond.chain[1].theorems == ("S24-pure-zCDP", "CKS20-12")
    assert beyond.chain[1].output == "(0.0126514, 2.37138e-13)-DP"
    with mpmath.workdps(40):  # rho = 10001 eps tanh(eps/2) (sharp pure-to-zCDP), CKS20 Prop. 12
        rho = 10_001 * e0 * mpmath.tanh(e0 / 2)
        assert mpmath.nstr(R.cks_eps(rho, dt), 6) == "0.0126514"
    assert (
        "tight DP composition of the first stage",
        "advanced and optimal (KOV) composition skipped: more than 10000 runs "
        "(GDP, the exact mixed accountant and zCDP still apply to Gaussian, pure-DP and zCDP steps)",
    ) in [(c.route, c.note) for c in beyond.candidates]
    assert 4 * beyond.gamma < at.gamma < 5 * beyond.gamma


def test_without_refinement_a_pure_stage_is_planned_on_the_fixed_grid_only():
    """``plan(..., refine=False)`` (the required-n search's plans, whose proof covers the fixed
    total-delta grid only) tries the three points of DELTA_GRID and nothing between them; the
    refined plan of the same study (10,000 Laplace runs of 2e-5-DP, n = 2000) finds
    2.37138e-13 between the grid's points, a gamma 5.7 times larger. (Written against the
    refinement run without ``refine``, which no earlier test noticed.)"""
    st = Study(n=2000, alpha=0.05, iid=True, steps=(Laplace.from_eps(1.0, 2e-5, times=10_000),))
    coarse, fine = plan(st, refine=False), plan(st)
    grid = [f"DP first stage at delta={d:g} (RRST-3.1)" for d in (1e-30, 1e-20, 1e-12)]
    assert [c.route for c in coarse.candidates] == ["max-information composition", *grid, "mutual information"]
    assert coarse.route == "tight DP composition (delta=1e-12) then RRST Thm 3.1"
    assert fine.route == "tight DP composition (delta=2.37138e-13) then RRST Thm 3.1"
    at_grid = {c.route: c.gamma for c in fine.candidates}
    assert coarse.gamma == at_grid[grid[-1]] and 5 * coarse.gamma < fine.gamma < 6 * coarse.gamma


def test_identical_approximate_dp_steps_win_at_a_grid_point():
    """1000 steps each (1e-4, 1e-16)-DP on n = 2000 i.i.d. records (alpha = 0.05): the best
    route is the tight composition at the grid's total delta 1e-12, planned in full from the
    grid (the continuous search's 1.02769e-12 does a little worse). By hand: KOV15 Thm 3.3's
    curve summed at 30 digits is 1e-12 at eps 0.0186181073624 (its printed eps is on the safe
    side and within 1e-12 of it); RRST Thm 3.1 (sound) at the printed eps', t and delta_hat,
    recomputed at 50 digits, gives k = 60.035 bits, beta = 0.0440655 and gamma =
    (alpha - beta) 2^-k = 5.0239923e-21, which the planner's gamma is at most and within 1e-9 of.
    (Written against the route's name, derivation link and composition dropped on this path,
    which no earlier test reached: the grid's points win for Gaussian and pure stages only
    after ranking, elsewhere.)"""
    st = Study(n=2000, alpha=0.05, iid=True, steps=(GenericDP(eps=1e-4, delta=1e-16, times=1000),))
    r = plan(st)
    assert r.route == "tight DP composition (delta=1e-12) then RRST Thm 3.1"
    assert ("DP first stage at delta=1e-12 (RRST-3.1)", r.gamma) in [(c.route, c.gamma) for c in r.candidates]
    stage, thm = r.chain[1], r.chain[2]
    assert stage.what == "optimal DP composition of the stage" and stage.theorems == ("KOV15-3.3",)
    assert stage.inputs == "1000 x (0.0001, 1e-16)" and stage.output == "(0.0186182, 1e-12)-DP"
    vals = dict(stage.values)
    assert vals["delta"] == 1e-12
    with mpmath.workdps(30):
        e0, d0, eps = mpmath.mpf(1e-4), mpmath.mpf(1e-16), mpmath.mpf(vals["eps"])
        assert R.kov_delta(e0, d0, 1000, eps) <= mpmath.mpf(1e-12)
        assert R.kov_delta(e0, d0, 1000, eps * (1 - mpmath.mpf("1e-12"))) > mpmath.mpf(1e-12)
    assert thm.theorems == ("RRST-3.1",)
    with mpmath.workdps(50):
        k, b = _check_thm31_link(r, mpmath.mpf(vals["eps"]), mpmath.mpf(1e-12), 2000, 0.05)
        assert mpmath.nstr(k, 5) == "60.035" and mpmath.nstr(b, 6) == "0.0440655"
        hand = (mpmath.mpf("0.05") - b) * mpmath.power(2, -k)
        assert hand * (1 - mpmath.mpf("1e-9")) <= mpmath.mpf(r.gamma) <= hand


def test_grid_points_outside_thm31_are_listed_with_their_composed_eps():
    """10,001 Laplace runs of 1-DP on n = 1000 (beyond the optimal composition's 10,000 runs):
    at each grid total delta the stage's eps is zCDP's (rho = 10,001 tanh(1/2), CKS20 Prop. 12
    minimised here at 40 digits: 5748.5192, 5540.9594, 5332.7396 at 1e-30, 1e-20, 1e-12), far
    outside RRST Thm 3.1, and each point is listed by name with that eps rounded up."""
    st = Study(n=1000, alpha=0.05, iid=True, steps=(Laplace.from_eps(1.0, 1.0, times=10_001),))
    got = [(c.route, c.note) for c in plan(st).candidates if "composed eps" in c.note]
    want = []
    with mpmath.workdps(40):
        rho = 10_001 * mpmath.tanh(mpmath.mpf(1) / 2)
        for d in ("1e-30", "1e-20", "1e-12"):
            e = R.cks_eps(rho, mpmath.mpf(d))
            shown = mpmath.nstr(mpmath.ceil(e * 100) / 100, 6)
            note = f"composed eps {shown} > 1/2: outside RRST Thm 3.1"
            want.append((f"DP first stage at delta={d} (RRST-3.1)", note))
    assert got == want


@pytest.mark.parametrize(
    "steps",
    [
        (GenericDP(eps=1e-4, delta=1e-16, times=1000),),  # the continuous total-delta search
        (Gaussian(sigma=0.5, sensitivity=1e-4, delta=1e-9, times=10),),  # every total delta ranked
    ],
)
def test_the_exhaustive_plan_bounds_the_fixed_grid_plan_on_approximate_dp_stages(steps):
    """The required-n search's bound (gamma_upper_bound: the exhaustive plan, every point of the
    fine total-delta grid planned in full, with the optimiser's 0.1% slack where no supremum is
    proven) is at least the fixed-grid plan's gamma (refine=False, what the search evaluates)
    and the exhaustive plan's, and at most that times 1 + 1e-3, on the two stage kinds whose
    points the exhaustive plan walks (approximate-DP runs, Gaussian runs). (Written against that
    walk's pruning called with no study or eps, which crashed it unseen: the earlier bound tests
    use pure stages.)"""
    n = 2000 if steps[0].delta == 1e-16 else 10**4
    st = Study(n=n, alpha=0.05, iid=True, steps=steps)
    coarse, full, bound = plan(st, refine=False), plan(st, exhaustive=True), gamma_upper_bound(st)
    assert 0 < coarse.gamma <= full.gamma <= bound <= full.gamma * (1 + 1e-3) * (1 + 1e-12)
    # no supremum over beta is proven for these routes: the bound carries the whole slack
    assert bound >= full.gamma * (1 + 1e-3) * (1 - 1e-12)


@pytest.mark.parametrize("bits", ["0.001", "0.5", "3"])
def test_the_bound_on_a_mutual_information_study_is_above_its_hand_supremum(bits):
    """One mutual-information step of m bits on any data: the supremum over beta of the route's
    gamma is the larger of Russo-Zou's and Cor C.2's optimum (the fuzz references at 50 digits;
    Russo-Zou wins at 0.001 bits). gamma_upper_bound, which the required-n search trusts, must be
    at least that supremum, and within the optimiser's 0.1% slack of it."""
    st = Study(n=1000, alpha=0.05, iid=False, steps=(MutualInformation(mi_bits=float(bits)),))
    bound = gamma_upper_bound(st)
    with mpmath.workdps(50):
        a, m = mpmath.mpf("0.05"), mpmath.mpf(float(bits))
        sup = max(R.russo_zou(a, m), R.mi_pvalue_optimal(a, m))
        assert sup <= mpmath.mpf(bound) <= sup * (1 + mpmath.mpf("1.001e-3"))


def test_a_plans_notes_are_its_unavailable_routes_reasons_in_order():
    """``PlanResult.notes`` (the JSON's "notes"): the reason of every route not available, in the
    order the candidates list them, and nothing for a route that has a gamma. 10,001 Laplace runs
    of 1-DP on n = 1000: the skipped optimal composition, three grid points outside RRST Thm 3.1
    and the dominated mutual-information route."""
    st = Study(n=1000, alpha=0.05, iid=True, steps=(Laplace.from_eps(1.0, 1.0, times=10_001),))
    r = plan(st)
    assert r.notes == (
        "advanced and optimal (KOV) composition skipped: more than 10000 runs "
        "(GDP, the exact mixed accountant and zCDP still apply to Gaussian, pure-DP and zCDP steps)",
        "composed eps 5748.52 > 1/2: outside RRST Thm 3.1",
        "composed eps 5540.96 > 1/2: outside RRST Thm 3.1",
        "composed eps 5332.74 > 1/2: outside RRST Thm 3.1",
        "dominated: every stage is pure DP, whose RRST Thm 1.4a bound the max-information route uses directly",
    )
    assert r.as_dict()["notes"] == list(r.notes)


def test_a_grid_point_no_ranking_beta_reaches_is_noted_as_not_planned():
    """Ten Gaussian runs (sensitivity 1e-4, sigma 0.5; mu = 6.3e-4) on n = 10^4: at the grid's
    total delta 1e-12, RRST Thm 3.1's float k is infinite at both ranking betas (alpha/2 and
    0.99 alpha). That is not a proof that no beta below alpha works: the sound variant's floor
    on beta at eps' = 0.4 is 0.04785 (the fuzz references), and a 30-digit search over eps', t
    and delta_hat finds beta = 0.04968 with k = 218,469 bits (gamma about 6e-65770). So the note
    says what was found, not that nothing exists (it said "no beta below alpha reachable")."""
    with mpmath.workdps(30):
        floor = R.thm31_beta_floor(mpmath.mpf("0.4"), mpmath.mpf("1e-12"), 10**4, "sound")
        assert mpmath.nstr(floor, 4) == "0.04785"
        k, b = R.thm31(mpmath.mpf("0.35"), mpmath.mpf("1e-12"), 10**4, mpmath.exp(1.5), mpmath.exp(-14), "sound")
        assert b < mpmath.mpf("0.05") and mpmath.nstr(k, 6) == "218469.0"
    st = Study(n=10**4, alpha=0.05, iid=True, steps=(Gaussian(sigma=0.5, sensitivity=1e-4, delta=1e-9, times=10),))
    assert (
        "DP first stage at delta=1e-12 (RRST-3.1)",
        None,
        "no reachable beta found at alpha/2 or 0.99 alpha (RRST Thm 3.1's float bound): not planned in full",
    ) in [(c.route, c.gamma, c.note) for c in plan(st).candidates]


def test_the_tight_composition_is_tried_from_two_runs_on():
    """Two Laplace runs of 0.004-DP on 10^4 i.i.d. records: the first stage's tight composition
    is tried at the three grid deltas (one run: it is not, there is nothing to compose), and each
    is pruned by RRST Thm 3.1's floor on k, which is above the log2(alpha/gamma) bits the best
    route's gamma leaves (a route of k bits certifies at most alpha 2^-k)."""

    def cands(times: int) -> tuple[list[tuple[str, str]], float]:
        st = Study(n=10**4, alpha=0.05, iid=True, steps=(Laplace.from_eps(1.0, 0.004, times=times),))
        r = plan(st)
        return [(c.route, c.note) for c in r.candidates if c.route.startswith("DP first stage")], r.gamma

    assert cands(1)[0] == []
    two, gamma = cands(2)
    grid = ("1e-30", "1e-20", "1e-12")
    assert [route for route, _ in two] == [f"DP first stage at delta={d} (RRST-3.1)" for d in grid]
    for _, note in two:
        assert note.startswith("cannot beat the best route: k >= ") and note.endswith(" bits")
        assert float(note.split(">= ")[1].split()[0]) > math.log2(0.05 / gamma)


@pytest.mark.parametrize(("n", "delta"), [(100, 1e-6), (2000, 1e-16), (10**4, 1e-12), (10**6, 1e-20)])
def test_the_beta_floor_that_prunes_total_deltas_is_below_thm31s_own(n, delta):
    """The planner refuses a total delta when 2 n sqrt(delta) (less 1e-9) reaches alpha. That
    must be a floor on RRST Thm 3.1's beta at every eps' <= 1/2 (else a valid route would be
    refused): the sound variant's infimum over t and delta_hat (the fuzz references, 30 digits)
    falls as eps' grows and is 4.54 n sqrt(delta) at eps' = 1/2, so the planner's floor is
    below it by a factor 2.27 at every n and delta here (sound, and loose: a time saver)."""
    f = routes._thm31_beta_floor(n, delta)
    with mpmath.workdps(30):
        floors = [R.thm31_beta_floor(mpmath.mpf(e), mpmath.mpf(delta), n, "sound") for e in ("0.1", "0.3", "0.5")]
        assert floors[0] > floors[1] > floors[2]
        assert mpmath.mpf(f) < floors[2] and mpmath.nstr(floors[2] / (n * mpmath.sqrt(mpmath.mpf(delta))), 3) == "4.54"


def test_a_grid_point_pruned_ahead_of_the_winner_does_not_end_the_walk():
    """Two Gaussian mean queries (sensitivity 1/500, sigma 0.2; mu = sqrt 2/100 by DRS22 Cor 3.3)
    on n = 500: the grid's smallest total delta, 1e-30, cannot give a positive threshold and is
    pruned; the walk goes on to the larger deltas and plans 5.62342e-11 (mu's GDP curve there,
    bisected here at 50 digits: eps 0.0773894), where RRST Thm 3.1 at the printed t and
    delta_hat gives k = 242.0006 bits and beta = 0.0462382 (50 digits), so gamma = (alpha - beta)
    2^-k, which the planner's is at most and within 1e-9 of. (Written against `continue`
    written `break` in the walks: the plan then had no valid route.)"""
    st = Study(n=500, alpha=0.05, iid=True, steps=(Gaussian(sigma=0.2, sensitivity=1 / 500, delta=1e-9, times=2),))
    r = plan(st)
    assert [c.route for c in r.candidates][1] == "DP first stage at delta=1e-30 (RRST-3.1)"
    assert r.candidates[1].note.startswith("cannot give a positive threshold: k >= ")
    assert r.route == "tight DP composition (delta=5.62342e-11) then RRST Thm 3.1"
    vals = dict(r.chain[1].values)
    with mpmath.workdps(50):
        mu = mpmath.sqrt(2) / 100
        eps = _gdp_eps(mu, mpmath.mpf(vals["delta"]))
        assert mpmath.nstr(eps, 6) == "0.0773894" and mpmath.mpf(vals["eps"]) >= eps
    with mpmath.workdps(50):
        k, b = _check_thm31_link(r, eps, mpmath.mpf(vals["delta"]), 500, 0.05)
        assert mpmath.nstr(k, 7) == "242.0006" and mpmath.nstr(b, 6) == "0.0462382"
        hand = (mpmath.mpf("0.05") - b) * mpmath.power(2, -k)
        assert hand * (1 - mpmath.mpf("1e-9")) <= mpmath.mpf(r.gamma) <= hand
