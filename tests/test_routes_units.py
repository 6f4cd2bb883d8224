"""Pieces of the planner's routes (``planning/routes.py``) held against hand derivations: how
the max-information route composes a stage it is not given a composition for.

The Gaussian mechanism's privacy curve (Balle and Wang 2018; Dong, Roth and Su 2022, GDP):
delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2), mu = sensitivity/sigma; k runs
compose exactly to mu sqrt(k) (DRS22 Cor 3.3). The reference eps is the root of that curve,
bisected at 50 digits below, written independently of the planner's accountants.
"""

from __future__ import annotations

import mpmath

from maxinfo_bounds.planning import Gaussian, Study, routes
from maxinfo_bounds.planning.stages import stages_of


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
