"""Across the catalog: sympy statements agree with the evaluators; sweeps of the scalar paths
not covered elsewhere against 50-digit references; extreme parameters stay finite."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from maxinfo_bounds.catalog import get
from maxinfo_bounds.theorems.generalization import bnsssu_transfer, mcdiarmid_transfer
from maxinfo_bounds.theorems.mutual_info import approx_max_information_to_mi, mi_to_approx_max_information
from maxinfo_bounds.theorems.pvalues import mi_pvalue_correction, russo_zou_pvalue_correction

from .reference import DPS, SWEEP, check_up, log_uniform, mp, sympy_value

# (catalog id, symbol values, evaluator call, how to read the evaluator's number)
SYMPY_CASES = [
    ("RRST-1.3", dict(alpha=0.05, k=2.5, beta=0.01), lambda: get("RRST-1.3").evaluator(0.05, 2.5, 0.01)),
    ("DFHPRR-6", dict(m=37, beta=0.003), lambda: get("DFHPRR-6").evaluator(37, 0.003).k),
    ("RRST-1.4a", dict(epsilon=0.3, n=17), lambda: get("RRST-1.4a").evaluator(0.3, 17).k),
    ("RRST-1.4b", dict(epsilon=0.3, n=17, beta=1e-4), lambda: get("RRST-1.4b").evaluator(0.3, 17, 1e-4).k),
    ("RRST-1.5a", dict(m=2.0, k=9.0), lambda: mi_to_approx_max_information(2.0, 9.0, variant="paper").beta),
    ("RRST-1.5b", dict(k=3.0, beta=0.02, Sigma=1000), lambda: approx_max_information_to_mi(3.0, 0.02, 1000)),
    ("RRST-C.2", dict(alpha=0.05, m=0.7), lambda: mi_pvalue_correction(0.05, 0.7, variant="paper")),
    ("DFHPRR-4", dict(k=3.0, beta=0.001, tau=0.05, n=2000), lambda: get("DFHPRR-4").evaluator(3.0, 0.001, 0.05, 2000)),
    (
        "RRST-D.1",
        dict(k=3.0, beta=0.001, tau=0.1, n=2000, Delta=0.001),
        lambda: mcdiarmid_transfer(3.0, 0.001, 0.1, 2000, 0.001),
    ),
    (
        "RRST-3.1",
        dict(epsilon=0.1, delta=1e-14, n=1000, t=0.1 * math.sqrt(2000), delta_hat=math.sqrt(0.1 * 1e-14) / 15),
        lambda: get("RRST-3.1").evaluator(0.1, 1e-14, 1000).k,
    ),
    (
        "Notes-Thresholdout",
        dict(B=10, sigma=0.003, n=977),
        lambda: get("Notes-Thresholdout").evaluator(10, 0.003, 977).eps,
    ),
    ("DR-3.25", dict(c=5, Delta=0.7, b1=2.5, b2=3.0), lambda: get("DR-3.25").evaluator(5, 2.5, 3.0, 0.7).eps),
    ("DFHPRR-10", dict(i=7, B=3, beta_i=0.001), lambda: get("DFHPRR-10").evaluator(7, 3, 0.001)),
    ("DR-3.6", dict(Delta=0.3, b=7.0), lambda: get("DR-3.6").evaluator(0.3, 7.0)),
    ("DR-3.16", dict(k=17, epsilon=0.03), lambda: get("DR-3.16").evaluator(0.03, 0.0, 17).eps),
    ("DR-A.1", dict(Delta=2.0, epsilon=0.3, delta=1e-7), lambda: get("DR-A.1").evaluator(2.0, 0.3, 1e-7)),
    ("DR-3.10", dict(c=0.7, Delta_u=0.2), lambda: get("DR-3.10").evaluator(0.2, 0.7).eps),
    ("DR-3.9", dict(Delta=0.2, b=3.0), lambda: get("DR-3.9").evaluator(0.2, 3.0).eps),
    ("DFHPRR-9", dict(tau=0.01, m=1000, beta=0.05), lambda: get("DFHPRR-9").evaluator(0.01, 1000, 10, 0.05).sigma),
]


@pytest.mark.parametrize("tid, values, call", SYMPY_CASES, ids=[c[0] for c in SYMPY_CASES])
def test_sympy_statement_agrees_with_evaluator(tid, values, call):
    ref = sympy_value(get(tid).sympy_statement(), **values)
    got = mp(call())
    assert abs(got - ref) <= abs(ref) * mpmath.mpf(2) ** -40 + mpmath.mpf(10) ** -300


def test_thm31_paper_variant_against_hand_written_eq7():
    """The paper variant of the one Thm 3.1 body against RRST eq. (7) typed in by hand
    (not generated from the body), with the paper's log = log2."""
    import sympy

    from maxinfo_bounds.theorems.maxinfo_dp.approx import THM31

    e, d, n, t, dh = sympy.symbols("epsilon delta n t delta_hat", positive=True)
    E = sympy.exp
    nu = (
        72 * e**2
        + dh * (24 * E(6 * e) / (1 - E(-3 * e)) + (2 * E(3 * e) + 1) / sympy.log(2))
        + dh**2
        * 2
        / sympy.log(2)
        * (4 * E(12 * e) + 4 * E(9 * e) - 3 * E(6 * e) - 2 * E(3 * e) + 1)
        / (E(6 * e) - 2 * E(3 * e) + 1)
    )
    k_eq7 = n * nu + 6 * t * e * sympy.sqrt(n)
    d1, d2 = 2 * d / dh + 2 * d / (1 - E(-e)), 2 * dh / (1 - E(-3 * e))
    beta_eq = E(-(t**2) / 2) + n * (d1 + d2)
    for vals in (
        dict(epsilon=0.1, delta=1e-14, n=1000, t=4.47, delta_hat=2e-9),
        dict(epsilon=0.4, delta=1e-8, n=37, t=1.5, delta_hat=1e-3),
    ):
        args = [vals[s] for s in ("epsilon", "delta", "n", "t", "delta_hat")]
        for part, ref_expr in (("k", k_eq7), ("beta", beta_eq)):
            ref = sympy_value(ref_expr, **vals)
            lo, hi = THM31["paper", part].enclosure(*args)
            assert mp(lo) <= ref <= mp(hi)


def test_lemma15b_paper_variant_against_hand_written_statement():
    """The paper variant of the one Lemma 1.5 (part 2) body against the displayed formula typed
    in by hand, read in nats (2k ln 2 + 2 beta log2(|Sigma|/(2 beta))/(1 - 2^-k))."""
    import sympy

    k, b, s = sympy.symbols("k beta Sigma", positive=True)
    paper = 2 * k * sympy.log(2) + 2 * b * sympy.log(s / (2 * b), 2) / (1 - 2**-k)
    for kv, bv, sv in ((3.0, 0.02, 1000), (0.5, 0.001, 2), (10.0, 0.1, 2**20)):
        ref = sympy_value(paper, k=kv, beta=bv, Sigma=sv)
        got = approx_max_information_to_mi(kv, bv, sv, variant="paper", unit="nats", strict=False)
        assert mp(got) >= ref and mp(got) - ref <= abs(ref) * mpmath.mpf(2) ** -50


@pytest.mark.parametrize(
    "tid, call, values, target",
    [
        (
            "KOV15-3.3",
            lambda: get("KOV15-3.3").evaluator(0.3, 1e-4, 12, 1e-2).eps,
            dict(epsilon=0.3, delta=1e-4, k=12),
            1e-2,
        ),
        ("BW18-8", lambda: get("BW18-8").evaluator(0.8, 0.5, 1e-6), dict(Delta=0.8, epsilon=0.5), 1e-6),
    ],
)
def test_sympy_statement_at_solved_value(tid, call, values, target):
    """Entries whose evaluator solves the statement for one variable: the statement, evaluated
    by sympy at the returned value, meets the target (and is within 1e-9 relative of it)."""
    got = call()
    name = "epsilon_g" if tid == "KOV15-3.3" else "sigma"
    expr = get(tid).sympy_statement()
    if tid == "KOV15-3.3":
        expr = expr.doit()
    ref = sympy_value(expr, **values, **{name: got})
    assert ref <= mp(target) and ref >= mp(target) * (1 - 1e-9)


def test_sweep_russo_zou():
    rng = np.random.default_rng(51)
    a = rng.uniform(0.001, 0.5, SWEEP)
    m = log_uniform(rng, 1e-8, 5, SWEEP)
    arr = russo_zou_pvalue_correction(a, m)
    for i in range(SWEEP):
        g = arr[i]
        if g == 0.0:
            continue
        with mpmath.workdps(DPS):
            G = mp(g)
            lhs = G + mpmath.sqrt(mp(m[i]) * mpmath.log(2) / mpmath.log(1 / (2 * G)))
        assert lhs <= mp(a[i])  # certified valid at every point


def test_sweep_mi_pvalue_optimal_valid_and_dominant():
    rng = np.random.default_rng(52)
    for a, m in zip(rng.uniform(0.005, 0.2, SWEEP // 5), log_uniform(rng, 1e-3, 20, SWEEP // 5)):
        opt = mi_pvalue_correction(float(a), float(m))
        assert opt >= mi_pvalue_correction(float(a), float(m), variant="paper")
        assert opt <= a  # a valid correction never exceeds alpha here (beta* >= 0, k > 0)


def test_sweep_lemma_1_5_scalar_paths():
    rng = np.random.default_rng(53)
    for _ in range(SWEEP):
        m, k = float(log_uniform(rng, 1e-4, 50, 1)[0]), float(log_uniform(rng, 0.01, 500, 1)[0])
        b = mi_to_approx_max_information(m, k, variant="paper").beta
        with mpmath.workdps(DPS):
            check_up(b, min((mp(m) + mpmath.mpf(54) / 100) / mp(k), mpmath.mpf(1)), 2**-50)
        kk = float(log_uniform(rng, 0.01, 100, 1)[0])
        om = -math.expm1(-kk * math.log(2))
        bb = om * float(rng.uniform(0, 0.15))
        s = int(log_uniform(rng, 1, 1e12, 1)[0])
        with mpmath.workdps(DPS):
            K, B = mp(kk), mp(bb)
            O = 1 - mpmath.power(2, -K)
            ref = 2 * K * mpmath.log(2) + (B / O * (mpmath.log(s) + mpmath.log(O / B)) if bb else 0)
        check_up(approx_max_information_to_mi(kk, bb, s, unit="nats"), ref, 2**-50)


def test_sweep_d1_b2_scalar():
    rng = np.random.default_rng(54)
    for _ in range(SWEEP):
        k, b = float(rng.uniform(0, 40)), float(rng.uniform(0, 0.1))
        tau, n, s = (
            float(log_uniform(rng, 1e-3, 1, 1)[0]),
            int(log_uniform(rng, 1, 1e8, 1)[0]),
            float(log_uniform(rng, 1e-6, 0.1, 1)[0]),
        )
        with mpmath.workdps(DPS):
            core = mpmath.exp(mp(k) * mpmath.log(2) - 2 * mp(tau) ** 2 / (n * mp(s) ** 2))
        check_up(mcdiarmid_transfer(k, b, tau, n, s), min(2 * core + mp(b), mpmath.mpf(1)), 2**-50)
        e = float(rng.uniform(1e-3, 0.33))
        d = e / 4 * float(log_uniform(rng, 1e-12, 0.99, 1)[0])
        t = bnsssu_transfer(e, d, n, s, strict=False)
        with mpmath.workdps(DPS):
            check_up(t.deviation, 18 * mp(e) * mp(s) * n, 2**-50)
            check_up(t.probability, mp(d) / mp(e), 2**-50)


def test_extremes_finite():
    from maxinfo_bounds.theorems.maxinfo_dp import approx_dp_max_information

    for v in ("paper", "sound"):
        b = approx_dp_max_information(1e-12, 1e-300, 10**12, variant=v)
        assert math.isfinite(b.k) and b.k > 0 and 0 < b.beta <= 1
    assert 0 < mi_to_approx_max_information(1e-12, 1e12).beta < 1e-20
    assert mcdiarmid_transfer(1e-12, 1e-300, 1e-12, 10**12, 1e-12) > 0
    assert math.isfinite(approx_max_information_to_mi(1e-12, 0.0, 10**12))
    assert 0 < russo_zou_pvalue_correction(1e-3, 1e-9) <= 1e-3
    assert russo_zou_pvalue_correction(1e-12, 1e-12) == 0.0  # e^{-6.9e11}/2 underflows: 0 is the safe side


def test_b2_vectorised():
    rng = np.random.default_rng(55)
    e = rng.uniform(1e-3, 0.33, SWEEP)
    d = e / 4 * log_uniform(rng, 1e-12, 0.99, SWEEP)
    n = np.floor(np.log(4 * e / d) / e**2) + np.floor(log_uniform(rng, 1, 1e6, SWEEP))
    s = log_uniform(rng, 1e-6, 0.1, SWEEP)
    dev, prob = bnsssu_transfer(e, d, n, s)
    for i in range(0, SWEEP):
        with mpmath.workdps(DPS):
            check_up(dev[i], 18 * mp(e[i]) * mp(s[i]) * int(n[i]), 2**-40)
            check_up(prob[i], mp(d[i]) / mp(e[i]), 2**-40)
