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

import numpy as np
import pytest

from maxinfo_bounds.planning import Laplace, Study, routes

INF = math.inf
R = routes._REFINE_BETAS
RE = routes._REFINE_BETAS + routes._EDGE_BETAS
#: n chosen so that RRST Thm 3.1's beta approach (4 n sqrt(delta / (3 eps)) > 0.3 alpha, the
#: search's "near the edge" rule) switches on between j = -95 and j = -94 at eps = 0.1,
#: alpha = 0.05: 4 * 1656 * sqrt(10^(-95/8) / 0.3) = 0.01396 < 0.015 < 0.01608 (j = -94)
N = 1656


def _study(n: int = N) -> Study:
    return Study(n=n, alpha=0.05, iid=True, steps=(Laplace(sensitivity=1e-3, eps=0.01),))


def _coarse(best_log10: int, unreachable_below: int | None = None) -> list[tuple[float, float, None]]:
    """Every grid point scored 5, the best one 1 (only the position of the best matters); the
    points below 10^``unreachable_below`` unreachable (score inf: no route there)."""
    grid = sorted(x for x in routes.EXACT_DELTA_GRID + routes.DELTA_GRID if x < 0.5)
    out = []
    for x in grid:
        lg = round(math.log10(x))
        sc = 1.0 if lg == best_log10 else 5.0
        out.append((INF if unreachable_below is not None and lg < unreachable_below else sc, x, None))
    return out


def _constant(dt: float) -> float:
    return 0.1


def _run(monkeypatch, best_log10: int, search: dict[int, float], final: dict[int, float], **kw):
    """Run the refinement with ``_rank_score`` replaced by the synthetic scores (keyed by j,
    the fine exponent; absent means unreachable). ``eps_of`` (default: 0.1 everywhere),
    ``n`` (default :data:`N`), ``unreachable_below`` as in :func:`_coarse`. Returns the output
    as (score, j) pairs and the calls as {j: (betas, delta-hat grid, eps)} for search and
    final."""
    eps_of = kw.get("eps_of", _constant)
    calls: dict[str, dict[int, tuple]] = {"search": {}, "final": {}}

    def fake(study, eps, dt, betas=routes._RANK_BETAS, dhat_grid=24):
        j = round(8 * math.log10(dt))
        assert dt == 10.0 ** (j / 8) and 0 < eps <= 0.5
        kind = "final" if dhat_grid == 96 else "search"
        calls[kind][j] = (tuple(betas), dhat_grid, eps)
        return (final if kind == "final" else search).get(j, INF)

    monkeypatch.setattr(routes, "_rank_score", fake)
    coarse = _coarse(best_log10, kw.get("unreachable_below"))
    out = routes._refined_total_deltas(_study(kw.get("n", N)), eps_of, coarse)
    pairs = []
    for sc, dt, chosen in out:
        j = round(8 * math.log10(dt))
        assert chosen is None and dt == 10.0 ** (j / 8)
        pairs.append((sc, j))
    return pairs, calls


def _betas(calls: dict[int, tuple]) -> dict[int, tuple]:
    return {j: v[:2] for j, v in calls.items()}


def test_unreachable_small_deltas_move_the_window_to_the_best_grid_points_side(monkeypatch):
    """Best grid point 1e-12 (j = -96), neighbours 1e-14 and 1e-11: the window is j in
    [-111, -89]. Every j <= -97 is unreachable (eps above 1/2 there); the score is (j + 94.4)^2.
    Trace: (-103, -97) both unreachable, -96 > -97: a = -97; (-94, -92): 0.16 <= 5.76, b = -92;
    (-95, -94): 0.36 > 0.16, a = -95; b - a = 3: scan -95..-92. Best two: -94, -95, both far
    below the bar (the grid point's full score 2.56 + 0.01 - 0.001)."""
    search = {j: (j + 94.4) ** 2 for j in range(-96, -88)}
    final = {j: s + 0.01 for j, s in search.items()}
    # the grid points below 1e-12 unreachable too: the window still reaches the neighbour 1e-14
    out, calls = _run(monkeypatch, -12, search, final, unreachable_below=-12)
    assert [j for _, j in out] == [-94, -95]
    assert [s for s, _ in out] == [final[-94], final[-95]]
    # every probe and scanned point, each scored once (the search asks unreachable points too)
    assert sorted(calls["search"]) == [-103, -97, -95, -94, -93, -92]
    assert sorted(calls["final"]) == [-96, -95, -94]
    # the cheap score at 24 delta-hat points and the refinement's betas, the edge's beta added
    # from j = -94 on (the rule switches between -95 and -94 at this n); every full score at
    # 96 points and every beta
    near = {-94, -93, -92}
    assert _betas(calls["search"]) == {j: ((RE if j in near else R), 24) for j in calls["search"]}
    assert _betas(calls["final"]) == {j: (RE, 96) for j in calls["final"]}


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
    assert all(v == (R, 24) for v in _betas(calls["search"]).values())


def test_the_search_never_scores_deltas_whose_beta_floor_reaches_alpha(monkeypatch):
    """Best grid point 1e-10 (j = -80), window [-87, -73]. RRST Thm 3.1's beta is at least
    2 n sqrt(delta), which reaches alpha = 0.05 at delta = (0.05/3312)^2 = 2.279e-10, between
    j = -78 (1.78e-10) and j = -77 (2.37e-10): j >= -77 are never scored. The score (j + 76.4)^2
    is smallest there; the best reachable are -78 and -79. Trace: (-82, -78): 31.36 > 2.56,
    a = -82; (-79, -76): 6.76 against unreachable, b = -76; (-80, -78): 12.96 > 2.56, a = -80;
    the next probes meet (-78, -78): stop; scan -79..-76 (-80 is on the grid)."""
    search = {j: (j + 76.4) ** 2 for j in range(-87, -72)}
    final = {j: s + 0.01 for j, s in search.items()}
    out, calls = _run(monkeypatch, -10, search, final)
    assert [j for _, j in out] == [-78, -79]
    assert sorted(calls["search"]) == [-82, -80, -79, -78]
    assert sorted(calls["final"]) == [-80, -79, -78]


def _three_to_the(dt: float) -> float:
    """eps = 0.1 * 3^-(log10 delta + 12): 0.9 at 1e-14, 0.1 at 1e-12, 1/30 at 1e-11."""
    return 0.1 * 3.0 ** -(math.log10(dt) + 12)


def test_the_search_interpolates_eps_and_keeps_its_points_inside_thm31(monkeypatch):
    """eps_of = 0.1 * 3^-(log10 delta + 12), best grid point 1e-12, window [-111, -89]. During
    the search eps is the quadratic through the best point and its neighbours (0.9, 0.1, 1/30 at
    log10 delta = -14, -12, -11; numpy's polyfit below), which exceeds 1/2 below j = -106
    (0.5545 at -107), where nothing is scored; the points kept are scored at their own eps
    (0.3948 at -106). The score (j + 108.3)^2 is smallest where no route is. Trace: (-103, -97):
    22.09 <= 127.69, b = -97; (-106, -102): 5.29 <= 39.69, b = -102; (-108, -105): unreachable
    against 10.89, a = -108; (-106, -104): 5.29 <= 18.49, b = -104; then the probes meet (-106,
    -106): stop; scan -108..-104. Best two -106 and -105, both far below the bar."""
    search = {j: (j + 108.3) ** 2 for j in range(-111, -88)}
    final = {j: s + 0.01 for j, s in search.items()}
    out, calls = _run(monkeypatch, -12, search, final, eps_of=_three_to_the)
    assert [j for _, j in out] == [-106, -105]
    assert sorted(calls["search"]) == [-106, -105, -104, -103, -102, -97]
    xs = [-14, -12, -11]
    quad = np.polyfit(xs, [_three_to_the(10.0**x) for x in xs], 2)
    assert np.polyval(quad, -107 / 8) == pytest.approx(0.5545, abs=1e-4)
    for j, (_, _, eps) in calls["search"].items():
        assert eps == pytest.approx(float(np.polyval(quad, j / 8)), rel=1e-12)
    for j, (_, _, eps) in calls["final"].items():
        assert eps == pytest.approx(_three_to_the(10.0 ** (j / 8)), rel=1e-12)
    assert calls["final"][-106][2] == pytest.approx(0.3948, abs=1e-4)


@pytest.mark.parametrize("none_where", ["below 1e-13", "above 5e-12"])
def test_without_an_estimate_at_a_neighbour_the_search_reads_eps_exactly(monkeypatch, none_where):
    """eps_of has no estimate below 1e-13 (the left neighbour 1e-14) or above 5e-12 (the
    right neighbour 1e-11): nothing to interpolate through, so every point is read at its own
    eps (exactly 0.1) and points without one are unreachable. The score (j + 94.4)^2 as in the
    first test, all its probes reachable in both cases. Trace: (-103, -97): 75.69 > 6.76,
    a = -103; (-98, -94): 12.96 > 0.16, a = -98; (-95, -92): 0.36 <= 5.76, b = -92; (-96, -94):
    5.76 > 0.16, a = -96; then the probes meet (-94, -94): stop; scan -95..-92."""

    def eps_of(dt: float) -> float | None:
        if (none_where == "below 1e-13" and dt < 1e-13) or (none_where == "above 5e-12" and dt > 5e-12):
            return None
        return 0.1

    search = {j: (j + 94.4) ** 2 for j in range(-111, -88)}
    final = {j: s + 0.01 for j, s in search.items()}
    out, calls = _run(monkeypatch, -12, search, final, eps_of=eps_of)
    assert [j for _, j in out] == [-94, -95]
    assert sorted(calls["search"]) == [-103, -98, -97, -96, -95, -94, -93, -92]
    assert all(v[2] == 0.1 for v in [*calls["search"].values(), *calls["final"].values()])


@pytest.mark.parametrize(
    ("best_log10", "expected"),
    [
        (-4, None),  # the grid's largest point (no neighbour above): not refined
        (-40, None),  # its smallest
        (-5, -42),  # the second largest: window [-47, -33], minimum at -42.3
        (-38, -302),  # the second smallest: window [-319, -289], minimum at -301.7
    ],
)
def test_refined_only_between_two_grid_points(monkeypatch, best_log10, expected):
    """At either end of the grid there is no window; next to either end there is (n = 2, so
    that RRST Thm 3.1's beta floor 2 n sqrt(delta) stays below alpha up to delta = 1.5e-4)."""
    m = 8 * best_log10 - 2.3 if best_log10 == -5 else 8 * best_log10 + 2.3
    search = {j: (j - m) ** 2 for j in range(8 * best_log10 - 40, 8 * best_log10 + 40)}
    out, _ = _run(monkeypatch, best_log10, search, dict(search), n=2)
    assert (out[0][1] if out else None) == expected
