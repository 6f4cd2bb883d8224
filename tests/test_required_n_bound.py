"""The required-n search's bound over an interval of n, held against independent references.

The branch and bound of ``plan_power`` discards an interval [a, b] of record counts when the
power at an upper bound on every plan's γ over the interval misses the target. For a single
pure-DP stage that bound is :func:`~maxinfo_bounds.planning.routes.pure_gamma_sup`: the
supremum over β of (α − β) 2^-k(β) under RRST Thm 1.4a/1.4b, proven by concavity. These tests
compute that supremum independently (mpmath at 40 digits: the root of the derivative of
ln γ(β), written out from the theorem's statement here) and check the bound encloses it
tightly; then check the property the search relies on, plan by plan, on the reuse example;
and check that scipy.special's ufuncs loaded without the package's import layer are scipy's
own objects.
"""

from __future__ import annotations

import subprocess
import sys

import mpmath
import pytest

from maxinfo_bounds.planning import Laplace, Study, load_study, plan
from maxinfo_bounds.planning.recommend import relaxed_study, study_at_n
from maxinfo_bounds.planning.routes import gamma_upper_bound, pure_gamma_sup

EXAMPLE = "examples/power_reuse_beats_splitting.toml"


def _true_sup(alpha: float, eps: float, n: int) -> tuple[mpmath.mpf, mpmath.mpf]:
    """(sup over beta in (0, alpha) of (alpha - beta) 2^-min(k_a, k_p(beta)), its maximiser of
    the Thm 1.4b term) at 40 digits: k_a ln 2 = eps n, k_p ln 2 = eps^2 n/2 +
    eps sqrt(n ln(2/beta)/2) (RRST Thm 1.4, in nats); the 1.4b term's maximiser is the root of
    d/dbeta [ln(alpha - beta) - k_p ln 2] = eps sqrt(n/2) / (2 beta sqrt(ln(2/beta))) - 1/(alpha - beta),
    which decreases in beta: found by bisection on ln beta."""
    with mpmath.workdps(40):
        a, e = mpmath.mpf(alpha), mpmath.mpf(eps)

        def slope(lb: mpmath.mpf) -> mpmath.mpf:
            b = mpmath.exp(lb)
            return e * mpmath.sqrt(mpmath.mpf(n) / 2) / (2 * b * mpmath.sqrt(mpmath.log(2 / b))) - 1 / (a - b)

        lo, hi = mpmath.log(a) - 700, mpmath.log(a) - mpmath.mpf(10) ** -30
        assert slope(lo) > 0 > slope(hi)
        for _ in range(200):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if slope(mid) > 0 else (lo, mid)
        b = mpmath.exp(lo)
        prod = (a - b) * mpmath.exp(-(e * e * n / 2 + e * mpmath.sqrt(n * mpmath.log(2 / b) / 2)))
        return max(prod, a * mpmath.exp(-e * n)), b


CASES = [
    (0.05, 1e-3, 10**6),  # the reuse example's regime: gamma about 0.0049
    (0.05, 1e-4, 10**6),
    (0.01, 3e-3, 10**5),
    (0.05, 0.05, 1000),
    (0.2, 1e-2, 10**4),
    (1e-6, 1e-3, 10**5),
    (0.05, 2e-2, 10**5),  # gamma far below alpha (k about 60 bits)
]


@pytest.mark.parametrize(("alpha", "eps", "n"), CASES)
def test_sup_encloses_the_40_digit_supremum_tightly(alpha: float, eps: float, n: int) -> None:
    true, b_opt = _true_sup(alpha, eps, n)
    for shift in (1.0, mpmath.exp(5e-5), mpmath.exp(-5e-5)):  # the optimiser's xatol is 1e-4 in ln beta
        u = pure_gamma_sup(alpha, eps, n, float(b_opt * shift), product=True)
        assert u is not None
        assert u >= true  # sound
        assert u <= true * (1 + 1e-6)  # and tight: the search's old slack was 1e-3
    # sound from any starting beta (a proof, not a property of the optimiser): brackets off the
    # maximiser by up to 0.05 in ln beta, on both sides
    for j in range(-500, 501, 37):
        u = pure_gamma_sup(alpha, eps, n, float(b_opt * mpmath.exp(j * 1e-4)), product=True)
        assert u is None or u >= true, j


def test_sup_without_a_bracket_is_none_or_still_sound() -> None:
    alpha, eps, n = 0.05, 1e-3, 10**6
    true, b_opt = _true_sup(alpha, eps, n)
    far = pure_gamma_sup(alpha, eps, n, float(b_opt) * 1.5, product=True)  # only the widest bracket
    assert far is not None and far >= true and far > true * 1.001
    # a beta so small that no bracket of half-width at most 1 in ln beta holds the maximiser
    assert pure_gamma_sup(alpha, eps, n, float(b_opt) * 1e-3, product=True) is None


def test_sup_of_thm_14a_alone_is_alpha_e_to_minus_eps_n() -> None:
    # k = eps n log2(e) bits for every beta: the supremum is alpha 2^-k = alpha e^(-eps n) (beta -> 0)
    u = pure_gamma_sup(0.05, 1e-3, 2000, 0.01, product=False)
    with mpmath.workdps(40):
        true = mpmath.mpf(0.05) * mpmath.exp(-mpmath.mpf(1e-3) * 2000)
    assert true <= u <= true * (1 + 1e-8)  # eps is taken 1e-9 relative lower: e^(1e-9 eps n)


def test_sup_where_thm_14a_wins() -> None:
    # one record: k_a ln 2 = eps against 1.4b's eps^2/2 + eps sqrt(ln(2/beta)/2) > eps for every
    # beta < 2/e^2 (ln(2/beta) > 2), so the 1.4a edge is the supremum
    alpha, eps, n = 0.05, 1e-3, 1
    true, b_opt = _true_sup(alpha, eps, n)
    with mpmath.workdps(40):
        assert true == mpmath.mpf(alpha) * mpmath.exp(-mpmath.mpf(eps) * n)  # the 1.4a edge is the larger
    u = pure_gamma_sup(alpha, eps, n, float(b_opt), product=True)
    assert u is not None and true <= u <= true * (1 + 1e-8)


def test_gamma_upper_bound_of_a_study_encloses_its_40_digit_supremum() -> None:
    """100 Laplace steps of eps 1e-5 on 10^6 i.i.d. records (one stage, eps = 1e-3 by basic
    composition, RRST Thm 1.4b): the plan's certified gamma sits 1.3e-14 below the supremum over
    beta (the optimiser's beta is within its tolerance, not at the optimum), and the bound the
    required-n search uses is above the supremum, within 1e-6 of it."""
    st = Study(n=10**6, iid=True, alpha=0.05, steps=(Laplace(sensitivity=1e-6, scale=0.1, times=100),))
    true, _ = _true_sup(0.05, 1e-3, 10**6)
    p = plan(st)
    assert p.route == "max-information composition" and p.gamma < true
    u = gamma_upper_bound(st)
    assert true <= u <= true * (1 + 1e-6)


def test_every_plan_on_an_interval_is_below_its_bound() -> None:
    """The property the branch and bound relies on, plan by plan: on intervals next to the
    reuse example's required n (609,438), every plan's certified gamma at n in [a, b] is at most
    gamma_upper_bound of the relaxed study; that bound is within 1e-6 of the relaxed study's own
    optimised gamma (the 0.1% slack it replaces)."""
    st = load_study(EXAMPLE)
    for a, b in ((609_300, 609_340), (609_430, 609_440), (10**5, 10**5 + 8)):
        rel = relaxed_study(st, a, b)
        bound = gamma_upper_bound(rel)
        gammas = [plan(study_at_n(st, n), refine=False).gamma for n in range(a, b + 1, max(1, (b - a) // 8))]
        assert max(gammas) <= bound <= plan(rel, exhaustive=True).gamma * (1 + 1e-6)


def test_special_ufuncs_are_scipys_own_objects() -> None:
    """In a fresh single-threaded interpreter the fast path loads scipy.special._ufuncs without
    the package; a later ``import scipy.special`` hands out the very same ufuncs."""
    _in_a_fresh_interpreter(
        "import sys",
        "from maxinfo_bounds.numeric.special import UFUNCS, special",
        "sp = special()",
        "assert sp.__name__ == 'scipy.special._ufuncs', sp",
        "assert 'scipy.special' not in sys.modules",
        "assert 'scipy._lib._array_api' not in sys.modules",
        "import scipy.special",
        "assert all(getattr(sp, f) is getattr(scipy.special, f) for f in UFUNCS)",
        "assert float(sp.betainc(2.0, 3.0, 0.5)) == float(scipy.special.betainc(2.0, 3.0, 0.5)) == 0.6875",
    )


def test_special_with_threads_running_uses_the_package() -> None:
    # another thread could see the stand-in package: the documented import instead
    _in_a_fresh_interpreter(
        "import sys, threading, time",
        "t = threading.Thread(target=time.sleep, args=(1,)); t.start()",
        "from maxinfo_bounds.numeric.special import special",
        "sp = special()",
        "assert sp.__name__ == 'scipy.special', sp",
        "assert sp is sys.modules['scipy.special']",
    )


def _in_a_fresh_interpreter(*lines: str) -> None:
    out = subprocess.run(
        [sys.executable, "-c", "\n".join([*lines, "print('ok')"])], capture_output=True, text=True, check=False
    )
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


def test_special_falls_back_when_the_fast_path_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    from maxinfo_bounds.numeric import special as mod

    def broken(name: str, package: str | None = None) -> None:
        raise ImportError("moved")

    monkeypatch.delitem(sys.modules, "scipy.special", raising=False)
    monkeypatch.setattr(importlib.util, "find_spec", broken)
    monkeypatch.setattr(mod.threading, "active_count", lambda: 1)
    assert mod._fast() is None


def test_float_pieces_of_the_supremum_enclose_their_50_digit_values():
    """The proof's float pieces are one-sided by their stated margin _FLOAT_MARGIN = 1e-12
    (relative, scaled by the terms' sizes), far above a float's rounding: _exp_up(y) lies in
    [e^y, e^y (1 + 1e-12 (1 + |y|)) + 2 ulps] (2 subnormal ulps at e^-745); _phi's upper end of
    phi(beta) = ln(alpha - beta) - eps^2 n/2 - eps sqrt(n ln(2/beta)/2) lies above the 50-digit
    value by at most 1e-12 times the terms' magnitudes (plus 1e-300), and its two ends of
    phi'(beta) = eps sqrt(n/2)/(2 beta
    sqrt(ln(2/beta))) - 1/(alpha - beta) enclose the exact slope, each within 1e-12 (s_a + s_c)
    of it."""
    from maxinfo_bounds.planning import routes

    margin = mpmath.mpf(routes._FLOAT_MARGIN)
    with mpmath.workdps(50):
        for y in (-745.0, -700.5, -30.25, -1e-3, 0.0, 2.5, 88.0, 700.0, 709.7):
            exact = mpmath.exp(mpmath.mpf(y))
            got = routes._exp_up(y)
            assert got >= exact, y
            assert got <= exact * (1 + margin * (1 + abs(y))) * (1 + mpmath.mpf(2) ** -51) + mpmath.mpf(1e-323), y
        for alpha, eps, n, b in [
            (0.05, 0.01, 10_000, 1e-3),
            (0.05, 0.1, 500, 0.04),
            (0.01, 0.003, 10**6, 1e-9),
            (0.5, 0.5, 50, 0.25),
            (0.05, 0.02, 30_000, 0.049),
        ]:
            a, e, bb = mpmath.mpf(alpha), mpmath.mpf(eps), mpmath.mpf(b)
            big_l = mpmath.log(2 / bb)
            t_a, t_b, t_c = mpmath.log(a - bb), e * e * n / 2, e * mpmath.sqrt(n * big_l / 2)
            phi = t_a - t_b - t_c
            s_a, s_c = 1 / (a - bb), e * mpmath.sqrt(mpmath.mpf(n) / 2) / (2 * bb * mpmath.sqrt(big_l))
            hi, d_lo, d_hi = routes._phi(alpha, eps, n, b)
            assert phi <= hi <= phi + 1.01 * margin * (abs(t_a) + t_b + t_c) + mpmath.mpf(1e-300), (alpha, eps, n, b)
            slope, width = s_c - s_a, margin * (s_a + s_c)
            assert d_lo <= slope <= d_hi, (alpha, eps, n, b)
            assert slope - 1.01 * width <= d_lo and d_hi <= slope + 1.01 * width, (alpha, eps, n, b)


def test_relaxed_study_moves_only_the_mean_queries_to_b_records() -> None:
    """relaxed_study(study, a, b): the study on a records, each mean-query step evaluated on b
    (its smallest sensitivity on [a, b]: 1/b for values in [0, 1]; with Laplace scale 0.1 its eps
    is 1/(0.1 b) = 1/120 at b = 1200, by hand), every other step as it was (a description, a
    Laplace step of fixed sensitivity)."""
    from maxinfo_bounds.planning import Description

    fixed = Laplace(sensitivity=1.0, scale=100.0)
    st = Study(
        n=1000,
        alpha=0.05,
        iid=True,
        steps=(Laplace.mean(0.0, 1.0, scale=0.1, times=3), Description(range_size=10), fixed),
    )
    rel = relaxed_study(st, 1000, 1200)
    assert rel.n == 1000 and rel.steps[1:] == (Description(range_size=10), fixed)
    assert rel.steps[0].records == 1200 and rel.steps[0].times == 3
    assert rel.steps[0].guarantee(1000).eps == pytest.approx(1 / 120, rel=1e-15)
