"""The ``dps`` every certified evaluator takes is the working precision of all its interval
evaluations: a call with ``dps=d`` runs every enclosure at ``iv_prec(d)`` bits or more.

A float result is the same at most precisions, so a ``dps`` that one code path forgets to pass
on (and evaluates at the 128-bit default, or a callee's 30 digits) changes no returned value in
an ordinary case; it shows only in the hard cases the caller raised ``dps`` for. So the
contract is checked directly: every interval enclosure goes through
:func:`maxinfo_bounds.numeric.rounding.enclosure`, which is watched here, and at ``dps=60``
(223 bits, above both defaults) each call must have evaluated at least one enclosure and none
below 223 bits.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from maxinfo_bounds.numeric import rounding
from maxinfo_bounds.numeric.rounding import iv_prec
from maxinfo_bounds.theorems import generalization as ge
from maxinfo_bounds.theorems import mutual_info as mi
from maxinfo_bounds.theorems import pvalues as pv
from maxinfo_bounds.theorems.dp_accounting import composition as co
from maxinfo_bounds.theorems.dp_accounting import mechanisms as me
from maxinfo_bounds.theorems.dp_accounting import optimal as op
from maxinfo_bounds.theorems.maxinfo_dp import approx as ap
from maxinfo_bounds.theorems.maxinfo_dp import pure as pu

DPS = 60


@pytest.fixture
def precisions(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The working precision (bits) of every interval enclosure evaluated."""
    seen: list[int] = []
    original = rounding.enclosure

    def watched(fn: Callable[[Any], Any], *, prec: int = 128) -> tuple[float, float]:
        seen.append(prec)
        return original(fn, prec=prec)

    for name, module in list(sys.modules.items()):
        if name.startswith("maxinfo_bounds") and getattr(module, "enclosure", None) is original:
            monkeypatch.setattr(module, "enclosure", watched)
    return seen


def _refused(call: Callable[[], object]) -> None:
    with pytest.raises(ValueError):
        call()


ONE = np.array([0.05])
WIDE = (np.array([2.0**60, 1.0]), np.array([9.419280180123799, 0.1]), np.array([2.0**52, 100.0]))
CALLS: dict[str, Callable[[int], object]] = {
    "pvalue_correction": lambda d: pv.pvalue_correction(0.05, 1.5, 0.001, dps=d),
    "mi_pvalue_correction paper": lambda d: pv.mi_pvalue_correction(0.05, 0.1, variant="paper", dps=d),
    "mi_pvalue_correction optimal": lambda d: pv.mi_pvalue_correction(0.05, 0.1, dps=d),
    "mi_pvalue_correction optimal, array": lambda d: pv.mi_pvalue_correction(ONE, 0.1, dps=d),
    "mi_pvalue_choice": lambda d: pv.mi_pvalue_choice(0.05, 0.1, dps=d),
    "russo_zou_pvalue_correction": lambda d: pv.russo_zou_pvalue_correction(0.05, 0.1, dps=d),
    "russo_zou_pvalue_correction, array": lambda d: pv.russo_zou_pvalue_correction(ONE, 0.1, dps=d),
    "optimal_composition": lambda d: op.optimal_composition(0.1, 1e-6, 20, 1e-4, dps=d),
    "optimal_composition, eps_total 0": lambda d: op.optimal_composition(0.1, 0.0, 2, 1.0, dps=d),
    "optimal_composition, refused": lambda d: _refused(lambda: op.optimal_composition(0.1, 1e-6, 20, 1e-5, dps=d)),
    "optimal_composition_delta": lambda d: op.optimal_composition_delta(0.1, 1e-6, 20, 1.0, dps=d),
    "advanced_composition": lambda d: co.advanced_composition([(0.1, 1e-6)] * 20, 1e-5, dps=d),
    "compose_dp": lambda d: co.compose_dp([(0.1, 1e-6)] * 20, 1e-4, dps=d),
    "gaussian_sigma": lambda d: me.gaussian_sigma(1.0, 0.5, 1e-5, dps=d),
    "mi_beta_exact": lambda d: mi.mi_beta_exact(0.1, 2.0, dps=d),
    "mi_beta_exact, m = 0 (k ln 2 >= 1 decided in intervals)": lambda d: mi.mi_beta_exact(0.0, 2.0, dps=d),
    "mi_to_approx_max_information": lambda d: mi.mi_to_approx_max_information(0.1, 2.0, dps=d),
    "mi_to_approx_max_information, array": lambda d: mi.mi_to_approx_max_information(ONE * 2, 2.0, dps=d),
    "approx_max_information_to_mi": lambda d: mi.approx_max_information_to_mi(2.0, 0.01, 100, dps=d),
    "pure_dp_max_information": lambda d: pu.pure_dp_max_information(0.1, 100, dps=d),
    "pure_dp_max_information_product": lambda d: pu.pure_dp_max_information_product(0.1, 100, 0.01, dps=d),
    "approx_dp_max_information": lambda d: ap.approx_dp_max_information(0.1, 1e-8, 1000, dps=d),
    "approx_dp_max_information_implied": lambda d: ap.approx_dp_max_information_implied(0.01, 1e-20, 10**6, 0.5, dps=d),
    "hoeffding_transfer": lambda d: ge.hoeffding_transfer(2.0, 0.01, 0.1, 1000, dps=d),
    "mcdiarmid_transfer": lambda d: ge.mcdiarmid_transfer(2.0, 0.01, 0.1, 1000, 0.001, dps=d),
    "pvalue_sensitivity_lower_bound": lambda d: ge.pvalue_sensitivity_lower_bound(1000, dps=d),
    "pvalue_sensitivity_lower_bound paper": lambda d: ge.pvalue_sensitivity_lower_bound(1000, variant="paper", dps=d),
    "pvalue_sensitivity_lower_bound, array": lambda d: ge.pvalue_sensitivity_lower_bound(np.array([1000]), dps=d),
    # an entry beyond double-double (addends of 8e17 nats) goes to the certified scalar path
    "hoeffding_transfer, array (an entry beyond double-double)": lambda d: ge.hoeffding_transfer(
        WIDE[0], 0.0, WIDE[1], WIDE[2], dps=d
    ),
    "mcdiarmid_transfer, array (an entry beyond double-double)": lambda d: ge.mcdiarmid_transfer(
        WIDE[0], 0.0, WIDE[1], WIDE[2], 1.0 / WIDE[2], dps=d
    ),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_every_enclosure_runs_at_the_requested_precision(name, precisions):
    CALLS[name](DPS)
    assert precisions, f"{name}: no interval evaluation seen (the watch is not in place)"
    assert min(precisions) >= iv_prec(DPS) == 223, (name, sorted(set(precisions)))


def test_the_watch_sees_a_lower_precision(precisions):
    """The check can fail: at the default dps (30 digits, 123 bits) the same calls run below
    223 bits."""
    CALLS["pvalue_correction"](30)
    assert precisions == [iv_prec(30)] == [123]


def test_the_paper_mi_correction_of_an_array_is_a_closed_form(precisions):
    """RRST Cor C.2's paper variant on an array is the vectorised closed form with a margin (its
    documented fast path), not one interval evaluation per entry, and stays within 2^-40
    relative below the certified scalar value."""
    alpha = np.linspace(0.01, 0.5, 200)
    got = pv.mi_pvalue_correction(alpha, 0.3, variant="paper")
    assert precisions == []
    want = [pv.mi_pvalue_correction(float(a), 0.3, variant="paper") for a in alpha]
    assert np.all(got <= want) and np.all(got >= np.array(want) * (1 - 2.0**-40))


# --- the caller's mpmath precision (issue 46) ------------------------------------------------


@pytest.fixture
def global_dps():
    """Restores mpmath's global precision after a test that changes it."""
    import mpmath

    old = mpmath.mp.prec
    yield mpmath.mp
    mpmath.mp.prec = old


@pytest.mark.parametrize("dps", [3, 200])
def test_results_do_not_depend_on_the_callers_mpmath_precision(global_dps, dps):
    """Every public evaluator (the fuzz campaign's cases, 3 seeded points each) returns the
    same floats whatever ``mpmath.mp.dps`` the caller has set: a notebook that sets it for its
    own work gets the certified result, not one rounded at its precision. (The float rounding
    compared its float with the mpf at the global precision: at dps = 3 a float was first
    rounded to 14 bits, so the step to the safe side could go either way.)"""
    from proofs_checks.fuzz.cases import CASES

    def run(case, x):
        try:
            return tuple(float(v) for v in case.call(**x))
        except Exception as exc:  # a refusal must not depend on it either
            return type(exc).__name__

    rng = np.random.default_rng(46)
    differ = []
    for case in CASES:
        for _ in range(3):
            x = case.sample(rng)
            global_dps.dps = 15
            want = run(case, x)
            global_dps.dps = dps
            got = run(case, x)
            if got != want:
                differ.append((case.name, x, want, got))
    global_dps.dps = 15
    assert not differ, differ[:3]


def test_reproducers_at_three_digits(global_dps):
    """The issue's reproducers at ``mp.dps = 3``: Russo-Zou's threshold never above alpha
    (it returned 0.0500030518 at alpha = 0.05, m = 0); the sparse-vector noise calibrated for
    eps = 1 is at most 1-DP (it returned scales whose eps was 1.00000027)."""
    from maxinfo_bounds.numeric.rounding import float_down, float_up
    from maxinfo_bounds.theorems.dp_accounting import sparse_vector, sparse_vector_scales
    from maxinfo_bounds.theorems.pvalues import russo_zou_pvalue_correction

    global_dps.dps = 3
    assert russo_zou_pvalue_correction(0.05, 0.0) <= 0.05
    b1, b2 = sparse_vector_scales(1000, 1.0, delta=1e-6)
    assert sparse_vector(1000, b1, b2, delta=1e-6).eps <= 1.0
    # the directed conversions themselves: 1/3 held exactly as a Fraction, either side of it
    from fractions import Fraction

    lo, hi = float_down(Fraction(1, 3)), float_up(Fraction(1, 3))
    assert Fraction(lo) < Fraction(1, 3) < Fraction(hi) and hi == np.nextafter(lo, 1.0)
    assert float_down(0.1) == 0.1 == float_up(0.1)  # a float is its own enclosure


def test_results_do_not_depend_on_other_threads(global_dps):
    """Every public evaluator (the fuzz campaign's cases, 4 seeded points each) returns the same
    floats while another thread keeps setting mpmath's global precision to 3 digits and back,
    and the interval context's to 10 bits: every certified computation runs in a private
    context of its own thread (:mod:`maxinfo_bounds.numeric.contexts`). Before, with one such
    thread, 192 of 1,800 outputs differed, some on the wrong side."""
    import threading

    import mpmath

    from proofs_checks.fuzz.cases import CASES

    def run(case, x):
        try:
            return tuple(float(v) for v in case.call(**x))
        except Exception as exc:
            return type(exc).__name__

    rng = np.random.default_rng(4646)
    points = [(case, case.sample(rng)) for case in CASES for _ in range(4)]
    want = [run(c, x) for c, x in points]
    stop = threading.Event()
    flips = [0]

    def noise() -> None:
        while not stop.is_set():
            mpmath.mp.dps = 3
            mpmath.iv.prec = 10
            mpmath.mp.dps = 200
            mpmath.iv.prec = 53
            flips[0] += 1

    th = threading.Thread(target=noise, daemon=True)
    th.start()
    try:
        got = [run(c, x) for c, x in points]
    finally:
        stop.set()
        th.join()
        mpmath.iv.prec = 53
    differ = [(c.name, x, w, g) for (c, x), w, g in zip(points, want, got) if w != g]
    assert flips[0] > 100  # the other thread did run meanwhile
    assert not differ, differ[:3]


def test_zero_d_arrays_are_the_scalars_they_hold():
    """Issue 46: a 0-d numpy array (what numpy reductions return) is read as the scalar it
    holds, its dtype kept: every public evaluator (the fuzz cases, 3 points each) gives the
    same result for np.array(x) as for x (they were refused as non-scalars)."""
    from proofs_checks.fuzz.cases import CASES

    def run(case, x):
        try:
            return tuple(float(v) for v in case.call(**x))
        except TypeError as exc:  # a case that keys a dict by an input: the harness, not the API
            return "unhashable" if "unhashable" in str(exc) else "TypeError"
        except Exception as exc:
            return type(exc).__name__

    rng = np.random.default_rng(460)
    differ = []
    for case in CASES:
        for _ in range(3):
            x = case.sample(rng)
            # (floats only: some cases build their call from an integer count, [(eps, delta)] * k,
            # which a 0-d array would turn into numpy's elementwise product)
            wrapped = {k: (np.array(v) if isinstance(v, float) else v) for k, v in x.items()}
            got = run(case, wrapped)
            # (RRST-A.3 takes Bound objects, whose fields are documented floats)
            if got != run(case, x) and got != "unhashable" and not case.name.startswith("RRST-A.3"):
                differ.append((case.name, x))
    assert not differ, differ[:3]
