"""The planner's refinement between total-delta grid points (``routes._refined_total_deltas``)
driven by a synthetic score, so that every branch of its golden section is reached on purpose:
an infinite region beside the best grid point (RRST Thm 3.1 unreachable there: eps > 1/2 on
the small-delta side, beta's floor above alpha on the other), a finite island around it, the
kept points' bar, the betas and delta-hat grid each score is asked at.

Each expected probe sequence below was traced by hand from the documented search: a golden
section on the integers j of the fine set 10^(j/8) strictly between the best grid point's
neighbours, probes c = b - round(0.618 (b - a)) and d = a + round(0.618 (b - a)) while
b - a > 3 and c < d; where both probes are unreachable the window moves to the best grid
point's side (both sides when it lies between them); then the remaining integers off the grid
are scanned and the best two by the search score are scored again in full (at their own eps)
and kept only where they beat the best grid point, scored the same way, by more than 1e-3.
"""

from __future__ import annotations

import math

import pytest

from maxinfo_bounds.planning import Laplace, Study, routes

INF = math.inf
R = routes._REFINE_BETAS
RE = routes._REFINE_BETAS + routes._EDGE_BETAS
#: n chosen so that RRST Thm 3.1's beta approach (4 n sqrt(delta / (3 eps)) > 0.3 alpha, the
#: search's "near the edge" rule) switches on between j = -95 and j = -94 at eps = 0.1,
#: alpha = 0.05: 4 * 1656 * sqrt(10^(-95/8) / 0.3) = 0.01396 < 0.015 < 0.01608 (j = -94)
N = 1656


def _study() -> Study:
    return Study(n=N, alpha=0.05, iid=True, steps=(Laplace(sensitivity=1e-3, eps=0.01),))


def _coarse(best_log10: int) -> list[tuple[float, float, None]]:
    """Every grid point scored 5, the best one 1 (only the position of the best matters)."""
    grid = sorted(x for x in routes.EXACT_DELTA_GRID + routes.DELTA_GRID if x < 0.5)
    return [(1.0 if round(math.log10(x)) == best_log10 else 5.0, x, None) for x in grid]


def _run(monkeypatch, best_log10: int, search: dict[int, float], final: dict[int, float]):
    """Run the refinement with ``_rank_score`` replaced by the synthetic scores (keyed by j,
    the fine exponent; absent means unreachable) and a constant eps 0.1; returns the output as
    (score, j) pairs and the calls as {j: (betas, delta-hat grid)} for search and final."""
    calls: dict[str, dict[int, tuple]] = {"search": {}, "final": {}}

    def fake(study, eps, dt, betas=routes._RANK_BETAS, dhat_grid=24):
        j = round(8 * math.log10(dt))
        assert dt == 10.0 ** (j / 8) and eps == pytest.approx(0.1, rel=1e-12)
        kind = "final" if dhat_grid == 96 else "search"
        calls[kind][j] = (tuple(betas), dhat_grid)
        return (final if kind == "final" else search).get(j, INF)

    monkeypatch.setattr(routes, "_rank_score", fake)
    out = routes._refined_total_deltas(_study(), lambda dt: 0.1, _coarse(best_log10))
    pairs = []
    for sc, dt, chosen in out:
        j = round(8 * math.log10(dt))
        assert chosen is None and dt == 10.0 ** (j / 8)
        pairs.append((sc, j))
    return pairs, calls


def test_unreachable_small_deltas_move_the_window_to_the_best_grid_points_side(monkeypatch):
    """Best grid point 1e-12 (j = -96), neighbours 1e-14 and 1e-11: the window is j in
    [-111, -89]. Every j <= -97 is unreachable (eps above 1/2 there); the score is (j + 94.4)^2.
    Trace: (-103, -97) both unreachable, -96 > -97: a = -97; (-94, -92): 0.16 <= 5.76, b = -92;
    (-95, -94): 0.36 > 0.16, a = -95; b - a = 3: scan -95..-92. Best two: -94, -95, both far
    below the bar (the grid point's full score 2.56 + 0.01 - 0.001)."""
    search = {j: (j + 94.4) ** 2 for j in range(-96, -88)}
    final = {j: s + 0.01 for j, s in search.items()}
    out, calls = _run(monkeypatch, -12, search, final)
    assert [j for _, j in out] == [-94, -95]
    assert [s for s, _ in out] == [final[-94], final[-95]]
    # every probe and scanned point, each scored once (the search asks unreachable points too)
    assert sorted(calls["search"]) == [-103, -97, -95, -94, -93, -92]
    assert sorted(calls["final"]) == [-96, -95, -94]
    # the cheap score at 24 delta-hat points and the refinement's betas, the edge's beta added
    # from j = -94 on (the rule switches between -95 and -94 at this n); every full score at
    # 96 points and every beta
    near = {-94, -93, -92}
    assert calls["search"] == {j: ((RE if j in near else R), 24) for j in calls["search"]}
    assert calls["final"] == {j: (RE, 96) for j in calls["final"]}


def test_a_finite_island_around_the_best_grid_point_narrows_to_both_sides(monkeypatch):
    """Only j in [-97, -95] reachable (eps above 1/2 below, beta's floor above alpha beyond:
    the feasible band is narrow). Trace: (-103, -97): inf > 2.89, a = -103; (-98, -94) both
    unreachable with -96 between them: the window becomes [-98, -94]; the next probes meet
    (-96, -96): stop. Scan -98, -97, -95, -94: best two -95 (0.09) and -97 (2.89). The grid
    point's full score is 0.49, so the bar is 0.489: -95 (0.1) is kept, -97 scored exactly at
    the bar is not (kept only when better by more than 1e-3)."""
    search = {-97: 2.89, -96: 0.49, -95: 0.09}
    final = {-97: 0.49 - 1e-3, -96: 0.49, -95: 0.1}
    out, calls = _run(monkeypatch, -12, search, final)
    assert out == [(0.1, -95)]
    assert sorted(calls["search"]) == [-103, -98, -97, -95, -94]
    assert sorted(calls["final"]) == [-97, -96, -95]


def test_interior_minimum_and_the_bar_of_the_best_grid_point(monkeypatch):
    """Best grid point 1e-22 (j = -176), neighbours 1e-24 and 1e-20: the window is j in
    [-191, -161] less -176, every point reachable, score (j + 170.3)^2 (search) and 0.5 more
    in full, the grid point's full score 32.99 (bar 32.989). Trace: (-180, -172): 94.09 > 2.89,
    a = -180; (-173, -168): 7.29 > 5.29, a = -173; (-168, -166): 5.29 <= 18.49, b = -166;
    (-170, -169): 0.09 <= 1.69, b = -169; scan -173..-169: best two -170 and -171, both kept,
    listed by their full scores."""
    search = {j: (j + 170.3) ** 2 for j in range(-191, -160)}
    final = {j: s + 0.5 for j, s in search.items()}
    out, calls = _run(monkeypatch, -22, search, final)
    assert out == [(final[-170], -170), (final[-171], -171)]
    assert sorted(calls["search"]) == [-180, -173, -172, -171, -170, -169, -168, -166]
    assert sorted(calls["final"]) == [-176, -171, -170]
    assert all(v == (R, 24) for v in calls["search"].values())
