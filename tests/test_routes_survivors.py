"""Pieces of ``planning/routes.py`` that the routes mutation run (seventh run) left unread, held
against hand and 50-digit values: the proven supremum of a pure-DP study's gamma
(:func:`routes.pure_gamma_sup`) against the supremum computed at 50 digits, its brackets at the
ends of (0, alpha), the notes of studies no beta reaches, and a Gaussian stage composed exactly
at its own deltas when they total between 1/3 and 1/2.
"""

from __future__ import annotations

import math

import mpmath
import pytest

from maxinfo_bounds.planning import Description, Gaussian, GenericDP, Laplace, MutualInformation, Study, plan, routes
from maxinfo_bounds.planning.routes import NoValidRoute
from maxinfo_bounds.planning.stages import stages_of
from proofs_checks.fuzz import references as R

from .test_routes_units import _gdp_eps


def _sup_reference(alpha: float, eps: float, n: int) -> tuple[mpmath.mpf, mpmath.mpf, mpmath.mpf]:
    """(beta*, sup over beta of e^phi(beta), alpha e^(-e n)) at 50 digits, e = eps (1 - 1e-9) as
    the routes compute it in floats, phi(beta) = ln(alpha - beta) - e^2 n/2 - e sqrt(n ln(2/beta)/2)
    (RRST Thm 1.4b's gamma in nats); beta* the root of phi', bisected (phi is concave)."""
    with mpmath.workdps(50):
        e, a = mpmath.mpf(eps * (1 - 1e-9)), mpmath.mpf(alpha)

        def phi(b):
            return mpmath.log(a - b) - e * e * n / 2 - e * mpmath.sqrt(n * mpmath.log(2 / b) / 2)

        def dphi(b):
            return -1 / (a - b) + e * mpmath.sqrt(mpmath.mpf(n) / 2) / (2 * b * mpmath.sqrt(mpmath.log(2 / b)))

        lo, hi = mpmath.mpf("1e-300"), a * (1 - mpmath.mpf("1e-40"))
        while hi - lo > hi * mpmath.mpf(10) ** -45:
            mid = mpmath.sqrt(lo * hi) if hi / lo > 4 else (lo + hi) / 2
            lo, hi = (mid, hi) if dphi(mid) > 0 else (lo, mid)
        b = (lo + hi) / 2
        return b, mpmath.exp(phi(b)), a * mpmath.exp(-e * n)


@pytest.mark.parametrize(
    "alpha, eps, n, sup_digits",
    [
        (0.05, 1e-3, 10**6, "0.0048562767578400"),
        (0.05, 0.01, 2000, "0.018987985687229"),
        (0.01, 0.002, 10**5, "0.0021566685084816"),
    ],
)
def test_pure_gamma_sup_is_above_the_50_digit_supremum_and_within_1e_10(alpha, eps, n, sup_digits):
    """At the optimiser's beta (here the 50-digit beta*), the bound is never below the true
    supremum over beta of min-k's gamma, and within 1e-10 relative of it (its margins are
    1e-12 on each float term)."""
    b, s, edge = _sup_reference(alpha, eps, n)
    top = max(s, edge)
    assert mpmath.nstr(top, len(sup_digits) - 2).startswith(sup_digits[:-1])
    u = routes.pure_gamma_sup(alpha, eps, n, float(b), product=True)
    assert u is not None and top <= u <= top * (1 + mpmath.mpf("1e-10"))
    # without the product bound (data not i.i.d., or not the first stage): Thm 1.4a's alpha e^(-e n)
    v = routes.pure_gamma_sup(alpha, eps, n, float(b), product=False)
    # its margins are 1e-12 relative to each term's size (|ln alpha| + e n, up to 205 here)
    assert edge <= v and (v <= edge * (1 + mpmath.mpf("1e-9")) or v == 5e-324)


def test_pure_gamma_sup_edge_when_eps_n_exceeds_ln_alpha():
    """Thm 1.4a alone at alpha = 0.05, e n = 20 > |ln alpha| = 3.0: alpha e^(-20) = 1.0306e-10
    (50 digits), the bound above it and within 1e-10."""
    with mpmath.workdps(50):
        edge = mpmath.mpf(0.05) * mpmath.exp(-mpmath.mpf(0.01 * (1 - 1e-9)) * 2000)
    assert mpmath.nstr(edge, 5) == "1.0306e-10"
    v = routes.pure_gamma_sup(0.05, 0.01, 2000, 0.003, product=False)
    assert edge <= v <= edge * (1 + mpmath.mpf("1e-10"))


def test_pure_gamma_sup_brackets_touching_alpha_or_zero_are_skipped():
    """A bracket whose upper end is alpha itself (beta_found = alpha/e, so beta_found e^1 rounds to
    alpha exactly), or whose lower end underflows to 0 (beta_found the smallest subnormal), has
    no phi there (ln 0): it is skipped. Neither study's brackets hold beta* = 0.0029131 (50
    digits, section above), so no slope sign is proven and the bound is None."""
    b_hi = 0.05 / math.exp(1.0)
    assert b_hi * math.exp(1.0) == 0.05 and b_hi * math.exp(-1.0) > 0.0029131143332567413
    assert routes.pure_gamma_sup(0.05, 0.01, 2000, b_hi, product=True) is None
    assert 5e-324 * math.exp(-1.0) == 0.0
    assert routes.pure_gamma_sup(0.05, 0.01, 2000, 5e-324, product=True) is None


def test_two_stages_no_beta_reaches_are_both_named():
    """10^60 bits of mutual information, a binary output, then 10^60 bits again, at alpha =
    1e-300: Lemma 1.5's k(beta) >= 10^60/beta > 10^360 at every beta < alpha, beyond the floats,
    for both information stages; the route names each, joined by "; "."""
    steps = (MutualInformation(mi_bits=1e60), Description(range_size=2), MutualInformation(mi_bits=1e60))
    p = plan(Study(n=1000, alpha=1e-300, iid=False, steps=steps))
    notes = {c.route: c.note for c in p.candidates}
    assert notes["max-information composition"] == (
        "RRST-1.5a: no beta below alpha reachable; RRST-1.5a: no beta below alpha reachable"
    )


def test_a_pure_first_stage_beyond_the_floats_names_its_curve():
    """19 Laplace runs of eps = 10^299 on 1,000 i.i.d. records: eps n log2 e (Thm 1.4a) and
    eps^2 n/2 (Thm 1.4b) are beyond the floats at every beta, so no beta is reachable; the
    route names the curve it read, Thm 1.4a and 1.4b together."""
    st = Study(n=1000, alpha=0.05, iid=True, steps=(Laplace(sensitivity=1.0, eps=1e299, times=19),))
    notes = {c.route: c.note for c in plan(st).candidates}
    assert notes["max-information composition"] == "RRST-1.4a/1.4b: no beta below alpha reachable"


def test_a_planned_max_information_route_is_a_complete_result():
    """The max-information route's own result is a whole PlanResult: no candidates or notes of
    its own (the plan adds its table), and it prints as JSON (``as_dict``) like the plan's."""
    st = Study(n=10**5, alpha=0.05, iid=True, steps=(Laplace(sensitivity=1.0, eps=0.001), Description(range_size=10)))
    out = routes._maxinfo_route(st, stages_of(st), None, None, "max-information composition")
    assert not isinstance(out, str) and out.candidates == () and out.notes == ()
    d = out.as_dict()
    assert d["candidates"] == [] and d["route"] == "max-information composition"


def test_a_gaussian_stage_whose_deltas_total_0_4_is_composed_exactly():
    """Two Gaussian runs of mu = 3 at delta 0.2 each: their deltas total 0.4 < 1/2, so the stage
    is read on the exact curve of mu = 3 sqrt 2 at 0.4: eps = 9.118 (50 digits; basic
    composition would give 2 x 6.16 = 12.32). Thm 3.1 then refuses it with that number."""
    st = Study(n=10**6, alpha=0.05, iid=True, steps=(Gaussian.from_sigma(1, 1 / 3, 0.2, times=2),))
    eps = _gdp_eps(3 * mpmath.sqrt(2), mpmath.mpf("0.4"))
    assert mpmath.nstr(eps, 4) == "9.118"
    assert mpmath.nstr(2 * _gdp_eps(mpmath.mpf(3), mpmath.mpf("0.2")), 4) == "12.32"
    g, _ = routes._own_exact(stages_of(st)[0])
    assert eps <= g.eps <= eps * (1 + mpmath.mpf("1e-9")) and g.delta == 0.4
    out = routes._maxinfo_route(st, stages_of(st), None, None, "max-information composition")
    assert out == (
        "steps[0..0] compose to (9.118, 0.4)-DP: RRST Thm 3.1 needs eps <= 1/2 (fewer runs, "
        "more noise, or a smaller per-step eps)"
    )


def test_a_grid_point_whose_threshold_underflows_is_refused_for_that_reason():
    """100 Laplace runs of eps = 0.001 on 4,579 i.i.d. records. At total delta 1e-12 the optimal
    composition (KOV15 Thm 3.3, 50 digits) is eps = 0.0588835; the planner prunes on its float
    estimate shrunk by 0.1 % (the note says "at least"), where RRST Thm 3.1's k is at least
    n c (e^(6 eps) - 1) + c sqrt(2 ln(1/alpha)) sqrt(n), c = 6 eps log2 e: 1071.2 bits. Then
    alpha 2^-k = 2^-1075.5 is below the smallest positive float 2^-1074: no positive threshold
    (the rule's edge is k > 1075 + log2 alpha = 1070.68), which is the reason given, though the
    max-information route's gamma (1.3e-16) would also beat it."""
    n, alpha = 4579, 0.05
    with mpmath.workdps(50):
        mp = mpmath.mpf
        e = R.kov_eps(mp(0.001), mp(0), 100, mp(1e-12))
        assert mpmath.nstr(e, 6) == "0.0588835"
        e = e * mp("0.999")
        c = 6 * e / mpmath.log(2)
        k = n * c * mpmath.expm1(6 * e) + c * mpmath.sqrt(2 * mpmath.log(1 / mp(alpha))) * mpmath.sqrt(n)
        assert mpmath.nstr(k, 5) == "1071.2"
        assert 1075 + mpmath.log(alpha, 2) < k < 1076 + mpmath.log(alpha, 2)
    st = Study(n=n, alpha=alpha, iid=True, steps=(Laplace(sensitivity=1.0, eps=0.001, times=100),))
    p = plan(st)
    assert 0 < p.gamma and p.route == "max-information composition"
    notes = {c.route: c.note for c in p.candidates}
    assert notes["DP first stage at delta=1e-12 (RRST-3.1)"] == "cannot give a positive threshold: k >= 1071 bits"


def test_identical_runs_written_as_two_steps_are_ranked_as_one_stage():
    """10,000 Laplace runs of 2e-5-DP (n = 2000) written as two steps of 5,000: the same stage as
    one step of 10,000, so the ranking of total deltas must count both steps' runs and choose
    the same point, where KOV15 Thm 3.3 gives eps 0.0120855 at 2.37138e-13 (KOV's delta summed
    at 30 digits: below that delta at 0.0120855, above it at 0.0120854; the optimum to its
    printed digit, as for the one-step study in tests/test_routes_units.py)."""
    steps = (Laplace.from_eps(1.0, 2e-5, times=5000), Laplace.from_eps(1.0, 2e-5, times=5000))
    p = plan(Study(n=2000, alpha=0.05, iid=True, steps=steps))
    (kov,) = [c for c in p.chain if c.what == "optimal DP composition of the stage"]
    assert kov.theorems == ("KOV15-3.3",) and kov.output == "(0.0120855, 2.37138e-13)-DP"
    with mpmath.workdps(30):
        e0, dt = mpmath.mpf("2e-5"), mpmath.mpf("2.37138e-13")
        assert R.kov_delta(e0, mpmath.mpf(0), 10_000, mpmath.mpf("0.0120855")) < dt * (1 - 5e-6)
        assert R.kov_delta(e0, mpmath.mpf(0), 10_000, mpmath.mpf("0.0120854")) > dt * (1 + 5e-6)


def test_two_description_stages_split_beta_equally_and_exactly():
    """An output of one of 10 values, a 0.001-DP Laplace step on 100 records that are not
    i.i.d. (RRST Thm 1.4a: k = eps n log2 e bits, no beta), then one of 7 values: Thm A.3 adds
    k = log2(10/b1) + 0.1 log2 e + log2(7/b2) and beta = b1 + b2, so gamma = (alpha - b1 - b2)
    b1 b2 e^-0.1 / 70, maximised at b1 = b2 = alpha/3 (DFHPRR Thm 6's Lagrange condition):
    (alpha/3)^3 e^-0.1 / 70 = 5.98437445790979e-8 (40 digits). The planner takes that split
    exactly, so its certified gamma is the supremum rounded down, within 1e-13."""
    st = Study(
        n=100,
        alpha=0.05,
        iid=False,
        steps=(Description(range_size=10), Laplace(sensitivity=1.0, eps=0.001), Description(range_size=7)),
    )
    p = plan(st)
    with mpmath.workdps(40):
        a = mpmath.mpf(0.05)
        sup = (a / 3) ** 3 / 70 * mpmath.exp(-mpmath.mpf(0.001) * 100)
        assert mpmath.nstr(sup, 15) == "5.98437445790979e-8"
        assert sup * (1 - mpmath.mpf("1e-13")) <= p.gamma <= sup
    assert p.route == "max-information composition"


def test_the_continuous_search_says_when_no_total_delta_works():
    """Ten (0.3, 1e-15)-DP steps on 1,000 i.i.d. records: RRST Thm 3.1 needs a total delta below
    (alpha/(2n))^2 = 6.25e-10 (its beta is at least 2 n sqrt(delta)), and there even the optimal
    composition (KOV15 Thm 3.3, 30 digits) is eps = 2.9999998 > 1/2; KOV's eps only grows as the
    total delta falls. So the continuous search finds no total delta, and says so, with the
    steps' own total 10^-14 rounded up; no route is valid."""
    with mpmath.workdps(30):
        e = R.kov_eps(mpmath.mpf(0.3), mpmath.mpf(1e-15), 10, mpmath.mpf("6.25e-10"))
        assert mpmath.nstr(e, 8) == "2.9999998"
    st = Study(n=1000, alpha=0.05, iid=True, steps=(GenericDP(eps=0.3, delta=1e-15, times=10),))
    with pytest.raises(NoValidRoute) as err:
        plan(st)
    notes = dict((c.route, c.note) for c in err.value.candidates)
    assert notes["tight DP composition of the first stage"] == (
        "no total delta above what the steps use (1.00001e-14) gives a composed eps <= 1/2 with "
        "RRST Thm 3.1's beta below alpha (searched continuously)"
    )


def test_a_pure_first_stage_then_mutual_information_optimise_their_betas_apart():
    """A 0.001-DP Laplace step on 10^5 i.i.d. records (RRST Thm 1.4b at beta_1, or Thm 1.4a's
    eps n log2 e if smaller), then a step of 0.3 bits of mutual information (Lemma 1.5's exact
    curve k = (m - (1 - b) log2(1 - b))/b at beta_2): gamma = sup over both betas of
    (alpha - b1 - b2) 2^-(k_1(b1) + k_2(b2)) = 1.00618915135664e-5, maximised at 30 digits
    (nested, independently of the planner). The two stages are different families with their
    own variables; the planner reaches the supremum within 1e-9 (certified: never above it)."""
    st = Study(
        n=10**5, alpha=0.05, iid=True, steps=(Laplace(sensitivity=1.0, eps=0.001), MutualInformation(mi_bits=0.3))
    )
    p = plan(st)
    with mpmath.workdps(30):
        a, e, n, m = mpmath.mpf(0.05), mpmath.mpf(0.001), 10**5, mpmath.mpf(0.3)

        def k1(b):
            return min(e * n / mpmath.log(2), R.pure_dp_product(e, n, b))

        def k2(b):
            return (m - (1 - b) * mpmath.log1p(-b) / mpmath.log(2)) / b

        def best_b2(b1):
            return R.maximise(
                lambda b2: (a - b1 - b2) * mpmath.power(2, -k1(b1) - k2(b2)),
                mpmath.mpf("1e-20"),
                (a - b1) * (1 - mpmath.mpf("1e-12")),
                grid=40,
            )

        sup = R.maximise(best_b2, mpmath.mpf("1e-20"), a * (1 - mpmath.mpf("1e-9")), grid=40)
        assert mpmath.nstr(sup, 15) == "1.00618915135664e-5"
        assert sup * (1 - mpmath.mpf("1e-9")) <= p.gamma <= sup


@pytest.mark.parametrize("m1, m2, sup_digits", [(0.05, 2.0, "5.4198360781371e-25"), (0.0, 1.0, "4.50369150608983e-14")])
def test_two_mutual_information_stages_split_beta_by_their_own_curves(m1, m2, sup_digits):
    """m1 bits of mutual information, an output of one of 4 values, then m2 bits (any data):
    gamma = sup of (alpha - b1 - b2 - b3) b3/4 2^-(k(m1, b1) + k(m2, b2)) with Lemma 1.5's exact
    curve k(m, b) = (m - (1 - b) log2(1 - b))/b; the description's best b3 is half of what is
    left, and the sup over (b1, b2) is maximised at 30 digits (nested). The planner reaches it
    within 1e-8. (Its shared variable for the two stages once had weights sqrt(m + 0.54), from
    the paper's looser k <= (m + 0.54)/b: 555 times below the supremum at (0.05, 2) and 8,500
    times at (0, 1); the exact curve is m/b + log2 e - O(b), whose Lagrange condition makes b
    proportional to sqrt(m).)"""
    steps = (MutualInformation(mi_bits=m1), Description(range_size=4), MutualInformation(mi_bits=m2))
    p = plan(Study(n=1000, alpha=0.05, iid=False, steps=steps))
    assert p.route == "max-information composition"
    with mpmath.workdps(30):
        a, big1, big2 = mpmath.mpf(0.05), mpmath.mpf(m1), mpmath.mpf(m2)

        def k(m, b):
            return (m - (1 - b) * mpmath.log1p(-b) / mpmath.log(2)) / b

        def best_b2(b1):
            return R.maximise(
                lambda b2: ((a - b1 - b2) / 2) ** 2 / 4 * mpmath.power(2, -k(big1, b1) - k(big2, b2)),
                mpmath.mpf("1e-40"),
                (a - b1) * (1 - mpmath.mpf("1e-12")),
                grid=40,
            )

        sup = R.maximise(best_b2, mpmath.mpf("1e-40"), a * (1 - mpmath.mpf("1e-9")), grid=40)
        assert mpmath.nstr(sup, 15) == sup_digits
        assert sup * (1 - mpmath.mpf("1e-8")) <= p.gamma <= sup


def test_fine_grid_points_are_listed_only_as_the_best_one_and_a_summary():
    """10,000 Laplace runs of 2e-5-DP on n = 2000: the table lists the three fixed total deltas
    (1e-30, 1e-20, 1e-12), the best total delta found between grid points (2.37138e-13, where
    KOV's eps is 0.0120855: held at 30 digits in tests/test_routes_units.py) and one line for
    the other fine-grid points ranked below it; no fine-grid point pruned on the way appears by
    name (the grid's documented contract: only the best is listed)."""
    st = Study(n=2000, alpha=0.05, iid=True, steps=(Laplace.from_eps(1.0, 2e-5, times=10_000),))
    routes_listed = [c.route for c in plan(st).candidates]
    assert routes_listed == [
        "max-information composition",
        "DP first stage at delta=1e-30 (RRST-3.1)",
        "DP first stage at delta=1e-20 (RRST-3.1)",
        "DP first stage at delta=1e-12 (RRST-3.1)",
        "DP first stage at delta=2.37138e-13 (RRST-3.1)",
        "tight DP composition at the other total deltas",
        "mutual information",
    ]


def test_beyond_ten_thousand_generic_steps_no_tight_composition_is_searched_in_vain():
    """10,001 generic (1e-4, 1e-25)-DP steps on 2,000 i.i.d. records: beyond TIGHT_MAX_RUNS the
    advanced and optimal (KOV) compositions are skipped, and GDP, the exact mixed accountant and
    zCDP do not apply to generic approximate-DP steps, so the continuous search over total
    deltas finds no composition at all and says so; the basic composition (1.0001, 1.0001e-21)
    is outside RRST Thm 3.1 (eps > 1/2), so no route is valid. (At exactly 10,000 the same
    steps compose by KOV: tests/test_routes_units.py.)"""
    st = Study(n=2000, alpha=0.05, iid=True, steps=(GenericDP(eps=1e-4, delta=1e-25, times=10_001),))
    with pytest.raises(NoValidRoute) as err:
        plan(st)
    notes = [(c.route, c.note) for c in err.value.candidates]
    assert [r for r, _ in notes] == [
        "max-information composition",
        "tight DP composition of the first stage",
        "tight DP composition of the first stage",
        "mutual information",
    ]
    assert notes[1:] == [
        (
            "tight DP composition of the first stage",
            "advanced and optimal (KOV) composition skipped: more than 10000 runs (GDP, the exact mixed "
            "accountant and zCDP still apply to Gaussian, pure-DP and zCDP steps)",
        ),
        (
            "tight DP composition of the first stage",
            "no total delta above what the steps use (1.00011e-21) gives a composed eps <= 1/2 with "
            "RRST Thm 3.1's beta below alpha (searched continuously)",
        ),
        ("mutual information", "an approximate-DP stage has no mutual-information bound here"),
    ]


def test_a_total_delta_the_floor_passes_but_no_beta_reaches_is_not_called_too_large():
    """100 Gaussian mean queries (sensitivity 1/20000, sigma 1) on n = 20,000 at alpha = 0.05.
    At the grid's total delta 1e-12 the planner's quick floor is 2 n sqrt(delta) = 0.04 < alpha,
    so it must not refuse that point as "delta too large" (a note claiming 0.04 >= alpha would
    be false arithmetic); yet RRST Thm 3.1's own infimum over t and delta_hat, at the most
    favourable eps' = 1/2, is 4.54 n sqrt(delta) = 0.0908 > alpha (30 digits, the fuzz
    reference), so no beta below alpha exists there: the point is listed as unranked. (Written
    against the floor's factor 2 written 3 or 4: that note said "2 n sqrt(delta) = 0.04 >=
    alpha".)"""
    n, dt, alpha = 20_000, 1e-12, 0.05
    assert 2 * n * math.sqrt(dt) == pytest.approx(0.04, rel=1e-15)
    with mpmath.workdps(30):
        inf_half = R.thm31_beta_floor(mpmath.mpf("0.5"), mpmath.mpf(dt), n, "sound")
    assert mpmath.nstr(inf_half, 3) == "0.0908" and inf_half > alpha
    st = Study(n=n, alpha=alpha, iid=True, steps=(Gaussian(sigma=1.0, sensitivity=1 / n, delta=1e-9, times=100),))
    r = plan(st)
    (c,) = [c for c in r.candidates if c.route == "DP first stage at delta=1e-12 (RRST-3.1)"]
    assert c.gamma is None and c.note == routes._UNRANKED_NOTE
    for c in r.candidates:  # any "too large" note quotes a value at least alpha
        if c.note.startswith("delta too large"):
            assert float(c.note.split("= ")[-1].split()[0]) >= alpha
