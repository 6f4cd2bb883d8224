"""Every applicable bound of the calculator held against the exact value (issue 6, first part).

For real small-domain mechanisms (:mod:`proofs_checks.mechanisms`) and input distributions
(i.i.d. Bernoulli, an exchangeable mixture that is not a product, and uniform on a linear code,
enumerated over all 2^n datasets), the exact
beta-approximate max-information and mutual information of (X; A(X)) come from the type-class
tables of :mod:`proofs_checks.enumeration`; beside each the calculator's bound:

* RRST Thm 1.4a (pure eps-DP, any distribution), Thm 1.4b (pure DP, product inputs only);
* DFHPRR Thm 6 (|Y| outputs, any distribution);
* RRST Thm 3.1 (approximate DP, product inputs) for the discretised Gaussian;
* RRST Lemma 1.5: the first part from the exact mutual information, the second part from the
  exact I^beta (|Sigma| = 2^n datasets);
* RRST Thm A.3 for an adaptive composition of two mechanisms;
* the p-value correction end to end: an adaptive choice of test direction, then an exact
  binomial test on the same data; the exact false-discovery probability at gamma(alpha) must be
  at most alpha (and the naive one is reported).

A bound below the exact value is a failure (a bug in the code or an error in a paper); the
record keeps bound / exact (how much the bound gives away). Exact values of Fraction tables are
compared exactly through their float enclosure; float tables with a relative margin of 1e-9.

Why one module over 400 lines: one campaign; every check is a short function over the shared
exact tables and the shared record format.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from maxinfo_bounds.measures import approx_max_information, mutual_information
from maxinfo_bounds.numeric import InvalidParameter, RegimeError
from maxinfo_bounds.theorems.composition import compose_max_information
from maxinfo_bounds.theorems.description import description_length_max_information
from maxinfo_bounds.theorems.generalization import hoeffding_transfer, mcdiarmid_transfer
from maxinfo_bounds.theorems.maxinfo_dp import (
    approx_dp_max_information,
    pure_dp_max_information,
    pure_dp_max_information_product,
)
from maxinfo_bounds.theorems.mutual_info import (
    approx_max_information_to_mi,
    mi_to_approx_max_information,
)
from maxinfo_bounds.theorems.pvalues import mi_pvalue_correction, russo_zou_pvalue_correction

from . import martingale
from .codes import all_syndromes, extended_hamming, hamming
from .enumeration import adaptive_compose, full_joint, mixture_weights, typeclass_joint
from .mechanisms import (
    above_threshold_count,
    approx_delta,
    bucketed_gaussian,
    bucketed_geometric_float,
    exponential_count,
    gaussian_count,
    gaussian_delta_50,
    geometric_count,
    pure_epsilon,
    randomized_response_count,
    report_noisy_max_count,
    thresholded_count,
)
from .report import check_record as _rec
from .report import versions
from .simulate.runner import Unit, local_workers, run_units

__all__ = ["EnumerationConfig", "run", "check_mechanism"]
# the composition unit's name is kept for resumed runs; it now also holds the p-value checks

BETAS = (0.0, 1e-3, 0.05)


@dataclass(frozen=True)
class EnumerationConfig:
    quick: bool = False
    #: seed of the Monte Carlo units (:mod:`proofs_checks.martingale`); one stream per unit
    seed: int = 20261124


def _f(v: Any) -> float:
    return float(v) if not hasattr(v, "value") else float(v.value(30))


def check_mechanism(
    name: str,
    M: Any,
    n: int,
    *,
    dists: dict[str, tuple[Any, bool]],
    eps_ratio: Any = None,
    delta_at: tuple[float, float] | None = None,
) -> list[dict[str, Any]]:
    """All applicable bounds for one count-based mechanism M at size n; ``dists`` maps a name to
    (count weights, is_product). ``eps_ratio`` = e^eps (exact), or ``delta_at`` = (eps, delta)."""
    recs: list[dict[str, Any]] = []
    n_out = len(M[0])
    eps = math.log(float(eps_ratio)) if eps_ratio is not None else None
    for dname, (w, product) in dists.items():
        t0 = time.monotonic()
        J = typeclass_joint(M, n, weights=w)
        many = approx_max_information(J, list(BETAS) if not isinstance(J, np.ndarray) else np.array(BETAS))
        assert isinstance(many, (list, np.ndarray))
        exact = [_f(v) for v in many]
        mi = _f(mutual_information(J))
        base = {"n": n, "P": dname}
        for b, ex in zip(BETAS, exact):
            inp = {**base, "beta": b}
            if eps is not None:
                k = pure_dp_max_information(eps, n).k
                recs.append(_rec("RRST-1.4a", name, inp, ex, k, t0, f"eps = {eps:.6g}"))
                if product and b > 0:
                    kb = pure_dp_max_information_product(eps, n, b).k
                    recs.append(_rec("RRST-1.4b", name, inp, ex, kb, t0, f"eps = {eps:.6g}"))
            if b > 0:
                kd = description_length_max_information(n_out, b).k
                recs.append(_rec("DFHPRR-6", name, inp, ex, kd, t0, f"|Y| = {n_out}"))
            if delta_at is not None and product and b > 0:
                e2, d2 = delta_at
                try:
                    bd = approx_dp_max_information(e2, d2, n, beta=b)
                    recs.append(_rec("RRST-3.1", name, inp, ex, bd.k, t0, f"(eps, delta) = ({e2}, {d2:.3g}) exact"))
                except (InvalidParameter, RegimeError) as exc:
                    recs.append(_rec("RRST-3.1", name, inp, ex, None, t0, f"not applicable at this beta: {exc}"))
        if delta_at is not None and product:
            # RRST Thm 3.1 at the paper's (t, delta_hat), whatever beta that gives (if below 1)
            e2, d2 = delta_at
            t1 = time.monotonic()
            try:
                bd = approx_dp_max_information(e2, d2, n)
                if bd.beta < 1:
                    ex_b = _f(approx_max_information(J, bd.beta))
                    recs.append(
                        _rec(
                            "RRST-3.1",
                            name,
                            {**base, "beta": bd.beta},
                            ex_b,
                            bd.k,
                            t1,
                            f"paper's (t, delta_hat); (eps, delta) = ({e2:.4g}, {d2:.3g})",
                        )
                    )
                else:
                    recs.append(
                        _rec(
                            "RRST-3.1",
                            name,
                            {**base, "beta": 1.0},
                            0.0,
                            None,
                            t1,
                            f"vacuous at enumerable n: the paper's (t, delta_hat) give "
                            f"beta = {bd.beta:.3g} >= 1 at (eps, delta) = ({e2:.4g}, {d2:.3g})",
                        )
                    )
            except (InvalidParameter, RegimeError) as exc:
                recs.append(_rec("RRST-3.1", name, {**base, "beta": 1.0}, 0.0, None, t1, f"not applicable: {exc}"))
        for b, ex in zip(BETAS, exact):
            # RRST Lemma 1.5 (second part): from the exact I^beta = k to a bound on I(X; Y);
            # X ranges over the 2^n datasets (|Sigma| = 2^n)
            if ex > 0:
                t1 = time.monotonic()
                try:
                    mib = approx_max_information_to_mi(ex, b, 2**n)
                    recs.append(
                        _rec(
                            "RRST-1.5b",
                            name,
                            {**base, "beta": b},
                            mi,
                            mib,
                            t1,
                            f"k = exact I^beta = {ex:.6g} bits, |Sigma| = 2^{n}",
                        )
                    )
                except (InvalidParameter, RegimeError) as exc:
                    recs.append(
                        _rec(
                            "RRST-1.5b",
                            name,
                            {**base, "beta": b},
                            mi,
                            None,
                            t1,
                            f"outside the lemma's conditions: {exc}",
                        )
                    )
        for kk in (1.0, 2.0, 4.0):
            t1 = time.monotonic()
            bd = mi_to_approx_max_information(mi, kk)
            if bd.beta < 1:
                ex_at = _f(approx_max_information(J, bd.beta))
                recs.append(
                    _rec(
                        "RRST-1.5a",
                        name,
                        {**base, "k": kk, "beta": bd.beta},
                        ex_at,
                        kk,
                        t1,
                        f"exact I(X;Y) = {mi:.6g} bits",
                    )
                )
    return recs


def _mechanisms(quick: bool) -> list[tuple[str, int, Callable[[], Any], dict[str, Any]]]:
    ns = (4, 8, 16) if quick else (4, 8, 16, 32, 64)
    out: list[tuple[str, int, Callable[[], Any], dict[str, Any]]] = []
    n: int
    for n in ns:
        out.append(("geometric(alpha=1/2)", n, partial(geometric_count, n, Fraction(1, 2)), {}))
        out.append(("geometric(alpha=9/10)", n, partial(geometric_count, n, Fraction(9, 10)), {}))
        out.append(("thresholded(alpha=1/2, T=n/2)", n, partial(thresholded_count, n, Fraction(1, 2), n // 2), {}))
        out.append(
            (
                "exponential(base=2, candidates 0, n/2, n)",
                n,
                partial(exponential_count, n, Fraction(2), [0, n // 2, n]),
                {},
            )
        )
        if n <= 32:
            out.append(
                ("randomized-response-count(q=1/4)", n, partial(randomized_response_count, n, Fraction(1, 4)), {})
            )
        out.append(("gaussian(sigma=4)", n, partial(gaussian_count, n, 4.0), {"approx": True}))
        if n <= 16:
            out.append(
                (
                    "report-noisy-max(alpha=1/2, K=4, candidates 0, n/2, n)",
                    n,
                    partial(report_noisy_max_count, n, Fraction(1, 2), [0, n // 2, n], 4),
                    {},
                )
            )
            out.append(
                (
                    "above-threshold(alpha=1/2, K=4, thresholds n/4, n/2, 3n/4)",
                    n,
                    partial(above_threshold_count, n, Fraction(1, 2), [n // 4, n // 2, 3 * n // 4], 4),
                    {},
                )
            )
    return out


def _dists(n: int, exact: bool) -> dict[str, tuple[Any, bool]]:
    half, tenth = (Fraction(1, 2), Fraction(1, 10)) if exact else (0.5, 0.1)
    return {
        "Bernoulli(1/2)^n": (mixture_weights(n, [half], [1]), True),
        "Bernoulli(1/10)^n": (mixture_weights(n, [tenth], [1]), True),
        "mixture 1/2 Bern(1/10)^n + 1/2 Bern(9/10)^n": (
            mixture_weights(n, [tenth, 1 - tenth], [Fraction(1, 2), Fraction(1, 2)] if exact else [0.5, 0.5]),
            False,
        ),
    }


def _composition(n: int) -> list[dict[str, Any]]:
    """Thresholded count, then a geometric count whose noise depends on the first answer."""
    t0 = time.monotonic()
    M1 = thresholded_count(n, Fraction(1, 2), n // 2)
    second = {0: geometric_count(n, Fraction(1, 2)), 1: geometric_count(n, Fraction(3, 4))}
    M = adaptive_compose(M1, lambda y1: second[y1])
    # both steps are ln 2-DP (the first by post-processing, the second whatever the first said)
    step = pure_dp_max_information(math.log(2), n)
    comp = compose_max_information([step, step])
    recs = []
    for dname, (w, _) in _dists(n, True).items():
        J = typeclass_joint(M, n, weights=w)
        for b in BETAS:
            ex = _f(approx_max_information(J, b))
            recs.append(
                _rec(
                    "RRST-A.3",
                    "thresholded then geometric (adaptive)",
                    {"n": n, "P": dname, "beta": b},
                    ex,
                    comp.k,
                    t0,
                    "k1 + k2 of RRST 1.4a",
                )
            )
    return recs


def _uniform_on_code() -> list[dict[str, Any]]:
    """X uniform on a linear code (not exchangeable, not a product): all 2^n datasets enumerated
    with the geometric count; RRST Thm 1.4a and DFHPRR Thm 6 hold for every distribution."""
    recs = []
    for code in (hamming(3), extended_hamming(4)):
        t0 = time.monotonic()
        n = code.n
        px = (all_syndromes(code) == 0).astype(float)
        px /= px.sum()
        M = geometric_count(n, Fraction(1, 2))
        Mf = np.array(M, dtype=float)
        J = full_joint(lambda X: Mf[X.sum(axis=1)], n, px, n + 1)  # noqa: B023 (called here)
        many = approx_max_information(J, np.array(BETAS))
        assert isinstance(many, np.ndarray)
        exact = [float(v) for v in many]
        eps = math.log(float(pure_epsilon(M)))
        for b, ex in zip(BETAS, exact):
            inp = {"n": n, "P": f"uniform on {code.name}", "beta": b}
            recs.append(
                _rec(
                    "RRST-1.4a",
                    "geometric(alpha=1/2)",
                    inp,
                    ex,
                    pure_dp_max_information(eps, n).k,
                    t0,
                    "non-product input",
                )
            )
            if b > 0:
                recs.append(
                    _rec(
                        "DFHPRR-6",
                        "geometric(alpha=1/2)",
                        inp,
                        ex,
                        description_length_max_information(n + 1, b).k,
                        t0,
                        f"|Y| = {n + 1}",
                    )
                )
    return recs


def _pvalue_end_to_end(n: int) -> list[dict[str, Any]]:
    """Adaptive direction choice, then a test on the same data, exactly.

    Null: X ~ Bernoulli(1/2)^n. The analyst looks at the data through a thresholded geometric
    count (alpha = 1/2, T = n/2: 'does the count look high?'), then tests the chosen one-sided
    hypothesis with the exact binomial p-value (upper tail if the answer was 1, lower tail if 0).
    The exact false-discovery probability sum_c P(c) sum_y M[c, y] 1[p_y(c) <= gamma] is computed
    at the naive alpha and at the certified gamma(alpha) of `maxinfo_bounds.correct` for the
    selection step (its two outputs: DFHPRR Thm 6; its ln 2-DP: RRST Thm 1.4): it must be <= alpha.
    """
    from maxinfo_bounds.corrections import correct

    t0 = time.monotonic()
    M = thresholded_count(n, Fraction(1, 2), n // 2)
    w = mixture_weights(n, [Fraction(1, 2)], [1])
    upper = [sum(w[c:], Fraction(0)) for c in range(n + 1)]  # P[C >= c]
    lower = [sum(w[: c + 1], Fraction(0)) for c in range(n + 1)]  # P[C <= c]
    pv = [lower, upper]  # output 0 -> lower tail test
    recs = []
    for alpha in (0.05, 0.1):

        def fd(g: float) -> Fraction:
            gg = Fraction(g)
            return sum((w[c] * M[c][y] for c in range(n + 1) for y in (0, 1) if pv[y][c] <= gg), Fraction(0))

        naive = fd(alpha)
        recs.append(
            _rec(
                "pvalue.naive",
                "direction by thresholded count, binomial test",
                {"n": n, "P": "Bernoulli(1/2)^n (null)", "beta": alpha},
                float(naive),
                None,
                t0,
                f"naive false-discovery probability at alpha = {alpha} (exceeds alpha: {float(naive) > alpha})",
            )
        )
        for how, kw in (
            ("description (|Y| = 2)", {"range_size": 2}),
            ("pure DP (eps = ln 2)", {"eps": math.log(2), "n": n, "iid": True}),
        ):
            c = correct(alpha, **kw)
            recs.append(
                _rec(
                    "pvalue.corrected",
                    "direction by thresholded count, binomial test",
                    {"n": n, "P": "Bernoulli(1/2)^n (null)", "beta": alpha, "route": how},
                    float(fd(c.gamma)),
                    alpha,
                    t0,
                    f"gamma = {c.gamma:.4g} via {' -> '.join(c.route)}",
                )
            )
        recs += _mi_routes(
            alpha, n, typeclass_joint(M, n, weights=w), fd, "direction by thresholded count, binomial test", t0
        )
    # a second procedure: the exponential mechanism picks one of three tests (lower tail,
    # two-sided, upper tail) by which of 0, n/2, n the count is closest to
    M3 = exponential_count(n, Fraction(2), [0, n // 2, n])
    two = [min(Fraction(1), 2 * min(lower[c], upper[c])) for c in range(n + 1)]
    pv3 = [lower, two, upper]
    for alpha in (0.05, 0.1):

        def fd3(g: float) -> Fraction:
            gg = Fraction(g)
            return sum((w[c] * M3[c][y] for c in range(n + 1) for y in range(3) if pv3[y][c] <= gg), Fraction(0))

        recs.append(
            _rec(
                "pvalue.naive",
                "exponential mechanism picks 1 of 3 binomial tests",
                {"n": n, "P": "Bernoulli(1/2)^n (null)", "beta": alpha},
                float(fd3(alpha)),
                None,
                t0,
                f"naive false-discovery probability (exceeds alpha: {float(fd3(alpha)) > alpha})",
            )
        )
        for how, kw in (
            ("description (|Y| = 3)", {"range_size": 3}),
            ("pure DP (eps = 2 ln 2)", {"eps": 2 * math.log(2), "n": n, "iid": True}),
        ):
            c = correct(alpha, **kw)
            recs.append(
                _rec(
                    "pvalue.corrected",
                    "exponential mechanism picks 1 of 3 binomial tests",
                    {"n": n, "P": "Bernoulli(1/2)^n (null)", "beta": alpha, "route": how},
                    float(fd3(c.gamma)),
                    alpha,
                    t0,
                    f"gamma = {c.gamma:.4g} via {' -> '.join(c.route)}",
                )
            )
        recs += _mi_routes(
            alpha, n, typeclass_joint(M3, n, weights=w), fd3, "exponential mechanism picks 1 of 3 binomial tests", t0
        )
    return recs


def _mi_routes(
    alpha: float, n: int, joint: Any, fd: Callable[[float], Fraction], mech: str, t0: float
) -> list[dict[str, Any]]:
    """The selection's exact mutual information I(X; Y) = I(count; Y) (the count is sufficient),
    rounded up, through RRST Cor C.2 and Russo-Zou (Thm C.3): the exact false-discovery
    probability at each corrected threshold must stay <= alpha."""
    m_exact: Any = mutual_information(joint, exact=True, dps=40)  # an mpf
    m = float(m_exact)
    if m < m_exact:
        m = math.nextafter(m, math.inf)
    recs = []
    for check, g in (("RRST-C.2", mi_pvalue_correction(alpha, m)), ("RRST-C.3", russo_zou_pvalue_correction(alpha, m))):
        recs.append(
            _rec(
                "pvalue.corrected",
                mech,
                {"n": n, "P": "Bernoulli(1/2)^n (null)", "beta": alpha, "route": check},
                float(fd(g)),
                alpha,
                t0,
                f"gamma = {g:.4g} from the exact I(X; Y) = {m:.4g} bits ({check})",
            )
        )
    return recs


def _adaptive_estimation(n: int, d: int = 3, taus: tuple[float, ...] = (0.15, 0.2, 0.3)) -> list[dict[str, Any]]:
    """DFHPRR Thm 4 (Hoeffding) and RRST Thm D.1 (McDiarmid) against an exact tail probability.

    Records carry d independent fair bits (X ~ Bernoulli(1/2)^(n x d)); the analyst picks the
    feature with the largest count (ties: the lowest index) and estimates its mean on the same
    data. P[|C_Y / n - 1/2| >= tau] is summed exactly over all (n + 1)^d count vectors; the
    selection's exact I^beta_inf(X; Y) (Y depends on X only through the counts) is the k given
    to both theorems, at beta = 0 and 0.05. Neither the probability nor k comes from the
    theorems' formulas."""
    from scipy.stats import binom

    t0 = time.monotonic()
    w1 = binom.pmf(np.arange(n + 1), n, 0.5)
    grids = np.meshgrid(*[np.arange(n + 1)] * d, indexing="ij")
    counts = np.stack([g.ravel() for g in grids], axis=1)  # (N, d)
    weight = np.prod(w1[counts], axis=1)
    y = np.argmax(counts, axis=1)  # first maximum on ties
    chosen = counts[np.arange(len(y)), y]
    joint = np.zeros((len(y), d))
    joint[np.arange(len(y)), y] = weight
    recs = []
    for beta in (0.0, 0.05):
        k = float(approx_max_information(joint, beta))
        for tau in taus:
            exact = float(weight[np.abs(chosen / n - 0.5) >= tau - 1e-12].sum())
            base = {"n": n, "P": f"Bernoulli(1/2)^(n x {d})", "k": round(k, 6), "beta": beta, "tau": tau}
            note = f"max of {d} feature means, estimated on the same data"
            recs.append(_rec("DFHPRR-4", "argmax feature", base, exact, hoeffding_transfer(k, beta, tau, n), t0, note))
            recs.append(
                _rec("RRST-D.1", "argmax feature", base, exact, mcdiarmid_transfer(k, beta, tau, n, 1 / n), t0, note)
            )
    return recs


#: RRST Thm 3.1 where it is not vacuous: eps = 0.01 at n >= 10^4 (the sound bound at the
#: paper's (t, delta_hat) gives beta = 0.37 at n = 10^4, 0.05 at 3 * 10^4)
THM31_EPS, THM31_WIDTH, THM31_SIGMA = 0.01, 100, 800.0


def _thm31_large_n(n: int) -> list[dict[str, Any]]:
    """RRST Thm 3.1 against the exact approximate max-information at n >= 10^4.

    Two count mechanisms, reported in buckets of 100 counts (post-processing keeps their
    privacy): the two-sided geometric at eps = 0.01 (pure, so (eps, delta)-DP for every delta;
    checked from the table) and the Gaussian with sigma = 800 (its exact delta at eps = 0.01,
    9.5e-20, from Balle & Wang's formula at 50 digits, independent of the calculator). Inputs
    i.i.d. Bernoulli(1/2) and Bernoulli(1/10) records; the exact I^beta_inf(X; A(X)) from the
    (count, output) table. Bound: the calculator's sound Thm 3.1 at the paper's (t, delta_hat),
    and at the target beta = 0.1 and 0.5."""
    from scipy.stats import binom

    recs: list[dict[str, Any]] = []
    geo = bucketed_geometric_float(n, THM31_EPS, THM31_WIDTH)
    ratio = pure_epsilon(geo)
    if ratio is None or ratio > math.exp(THM31_EPS) * (1 + 1e-12):
        raise AssertionError(f"bucketed geometric is not {THM31_EPS}-DP: ratio {ratio}")
    # (name, table, delta, pure)
    mechs: list[tuple[str, Any, float, bool]] = [
        (f"geometric(eps={THM31_EPS}) in buckets of {THM31_WIDTH}", geo, 1e-20, True),
        (
            f"gaussian(sigma={THM31_SIGMA:g}) in buckets of {THM31_WIDTH}",
            bucketed_gaussian(n, THM31_SIGMA, THM31_WIDTH),
            gaussian_delta_50(THM31_SIGMA, THM31_EPS),
            False,
        ),
    ]
    for name, M, d, pure in mechs:
        # the bounds depend on (eps, delta, n, beta) only: once per mechanism
        bd = approx_dp_max_information(THM31_EPS, d, n)
        if not bd.beta < 1:
            raise AssertionError(f"Thm 3.1 vacuous at n = {n}: beta = {bd.beta}")
        targets: list[tuple[float, Any]] = []
        for b in (0.1, 0.5):
            try:
                targets.append((b, approx_dp_max_information(THM31_EPS, d, n, beta=b)))
            except (InvalidParameter, RegimeError) as exc:
                targets.append((b, exc))
        for pname, p in (("Bernoulli(1/2)^n", 0.5), ("Bernoulli(1/10)^n", 0.1)):
            t0 = time.monotonic()
            J = typeclass_joint(M, n, weights=binom.pmf(np.arange(n + 1), n, p))
            base = {"n": n, "P": pname}
            recs.append(
                _rec(
                    "RRST-3.1",
                    name,
                    {**base, "beta": bd.beta},
                    _f(approx_max_information(J, bd.beta)),
                    bd.k,
                    t0,
                    f"n >= 10^4, paper's (t, delta_hat); (eps, delta) = "
                    f"({THM31_EPS}, {d:.3g}); exact by type-class enumeration",
                )
            )
            for b, bb in targets:
                t1 = time.monotonic()
                if isinstance(bb, Exception):
                    recs.append(
                        _rec("RRST-3.1", name, {**base, "beta": b}, 0.0, None, t1, f"not reachable at this n: {bb}")
                    )
                    continue
                ex_b = _f(approx_max_information(J, bb.beta))
                recs.append(
                    _rec(
                        "RRST-3.1",
                        name,
                        {**base, "beta": bb.beta},
                        ex_b,
                        bb.k,
                        t1,
                        f"n >= 10^4, target beta {b}; (eps, delta) = ({THM31_EPS}, {d:.3g})",
                    )
                )
                if pure:  # Thm 1.4b beside it, for scale
                    recs.append(
                        _rec(
                            "RRST-1.4b",
                            name,
                            {**base, "beta": bb.beta},
                            ex_b,
                            pure_dp_max_information_product(THM31_EPS, n, bb.beta).k,
                            t1,
                            f"the same pure eps = {THM31_EPS}, for scale",
                        )
                    )
    return recs


def _thm31_unit(n: int) -> dict[str, Any]:
    return {"records": _thm31_large_n(n)}


def _mechanism_unit(name: str, n: int, make: Callable[[], Any], opts: dict[str, Any]) -> dict[str, Any]:
    """One independent unit: every applicable bound for one mechanism at one n."""
    M = make()
    if opts.get("approx"):
        # the rounded, clamped Gaussian has a finite pure eps on its finite range; at half of it
        # (and at most 1/2, Thm 3.1's range) its exact delta is positive
        ratio = pure_epsilon(M)  # None where float underflow leaves zero cells
        e2 = 0.5 if ratio is None else min(0.5, math.log(float(ratio)) / 2)
        recs = check_mechanism(name, M, n, dists=_dists(n, False), eps_ratio=ratio, delta_at=(e2, approx_delta(M, e2)))
    else:
        recs = check_mechanism(name, M, n, dists=_dists(n, True), eps_ratio=pure_epsilon(M))
    return {"records": recs}


def _composition_unit(n: int) -> dict[str, Any]:
    # the adaptive estimate at 4n records: (4n + 1)^3 count vectors, non-vacuous from 4n = 64
    return {"records": _composition(n) + _pvalue_end_to_end(n) + _adaptive_estimation(4 * n)}


def _code_unit() -> dict[str, Any]:
    return {"records": _uniform_on_code()}


def _mc_tail_unit(n: int, eps: float, sigma: float, samples: int, seed: int) -> dict[str, Any]:
    return {"records": martingale.tail_check(n, eps, sigma, samples=samples, seed=seed)}


def _mc_steps_unit(n: int, eps: float, sigma: float, paths: int, seed: int) -> dict[str, Any]:
    return {"records": martingale.step_check(n, eps, sigma, paths=paths, seed=seed)}


def run(
    cfg: EnumerationConfig, out_dir: Path, *, progress: bool = True, workers: int | None = None, fresh: bool = False
) -> dict[str, Any]:
    """Run (or resume) the campaign; records.jsonl (one line per unit, a mechanism at one n,
    appended as units finish on ``workers`` processes, default all CPUs), report.md/json."""
    out_dir.mkdir(parents=True, exist_ok=True)
    units = [
        Unit(
            f"{name}|n={n}",
            _mechanism_unit,
            {"name": name, "n": n, "make": make, "opts": opts},
            params={"mechanism": name, "n": n},
        )
        for name, n, make, opts in _mechanisms(cfg.quick)
    ]
    units += [
        Unit(f"composition|n={n}", _composition_unit, {"n": n}, params={"n": n})
        for n in ((4, 8) if cfg.quick else (4, 8, 16, 32))
    ]
    units.append(Unit("uniform-on-code", _code_unit))
    units += [
        Unit(f"thm31-large-n|n={n}", _thm31_unit, {"n": n}, params={"n": n})
        for n in ((10_000,) if cfg.quick else (10_000, 30_000))
    ]
    # Monte Carlo of Thm 3.1's privacy-loss martingale where exact values are out of reach
    samples = 2_000 if cfg.quick else 100_000
    for j, (n, eps, sigma) in enumerate(martingale.SETTINGS):
        kw = {"n": n, "eps": eps, "sigma": sigma, "samples": samples, "seed": cfg.seed + j}
        units.append(Unit(f"thm31-mc-tail|n={n}", _mc_tail_unit, kw, params=kw))
    n_steps, paths = (2_000, 4) if cfg.quick else (10_000, 20)
    kw = {"n": n_steps, "eps": 0.01, "sigma": 800.0, "paths": paths, "seed": cfg.seed + 100}
    units.append(Unit(f"thm31-mc-steps|n={n_steps}", _mc_steps_unit, kw, params=kw))
    # the slowest units (largest n) first, so that every worker stays busy to the end
    order = sorted(units, key=lambda u: -int(u.kwargs.get("n", 0)))
    done = run_units(
        order,
        out_dir / "records.jsonl",
        {"campaign": "enumeration", **asdict(cfg)},
        workers=local_workers(workers),
        label="enumeration",
        progress=progress,
        fresh=fresh,
    )
    records: list[dict[str, Any]] = [{**rec, "unit": u.key} for u in units for rec in done[u.key]["result"]["records"]]
    fails = [r for r in records if r["verdict"] == "FAILS"]
    summary = {
        "campaign": "enumeration",
        "config": asdict(cfg),
        "versions": versions(),
        "checks": len(records),
        "failures": [r["id"] for r in fails],
        "ok": not fails,
    }
    (out_dir / "report.json").write_text(json.dumps({**summary, "records": records}, indent=1))
    _report(out_dir, summary, records)
    return {**summary, "records": records}


def _report(out_dir: Path, summary: dict[str, Any], records: list[dict[str, Any]]) -> None:
    md = [
        "# Bounds against exact values (enumeration)",
        "",
        f"- versions: {summary['versions']}",
        f"- checks: {summary['checks']}; bounds below the exact value: {len(summary['failures'])}",
        "",
        "| bound | mechanism | n | P | beta / k | exact (bits) | bound (bits) | bound/exact | verdict |",
        "| --- | --- | ---: | --- | --- | ---: | ---: | ---: | --- |",
    ]
    for r in records:
        i = r["inputs"]
        bk = f"k={i['k']}, beta={i['beta']:.3g}" if "k" in i else f"{i['beta']}"
        bd = "n/a" if r["bound"] is None else f"{r['bound']:.5g}"
        tg = "" if r["tightness"] is None else f"{r['tightness']:.3g}"
        md.append(
            f"| {r['check']} | {r['mechanism']} | {i['n']} | {i['P']} | {bk} | "
            f"{r['value']:.5g} | {bd} | {tg} | {r['verdict']} |"
        )
    (out_dir / "report.md").write_text("\n".join(md) + "\n")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    checks = ("RRST-1.4a", "RRST-1.4b", "DFHPRR-6", "RRST-1.5a")
    mechs = sorted({r["mechanism"] for r in records if r["check"] in checks})
    fig, axes = plt.subplots(1, len(checks), figsize=(4 * len(checks), 4))
    for ax, chk in zip(axes, checks):
        for mech in mechs:
            sel = [
                r
                for r in records
                if r["check"] == chk
                and r["mechanism"] == mech
                and r["inputs"]["P"] == "Bernoulli(1/2)^n"
                and (r["inputs"].get("k") == 4.0 if chk == "RRST-1.5a" else r["inputs"]["beta"] == 0.05)
            ]
            sel.sort(key=lambda r: r["inputs"]["n"])
            if len(sel) < 2:
                continue
            (line,) = ax.plot(
                [r["inputs"]["n"] for r in sel],
                [r["value"] for r in sel],
                "o-",
                markersize=3,
                label=f"{mech[:28]} exact",
            )
            ax.plot([r["inputs"]["n"] for r in sel], [r["bound"] for r in sel], "--", color=line.get_color())
        ax.set_xscale("log", base=2)
        ax.set_yscale("symlog")
        ax.set_xlabel("n")
        ax.set_title(
            f"{chk} (dashed) vs exact (solid)" + (", k = 4" if chk == "RRST-1.5a" else ", beta = 0.05"), fontsize=8
        )
    axes[0].set_ylabel("bits, X ~ Bernoulli(1/2)^n")
    axes[-1].legend(fontsize=5)
    fig.tight_layout()
    fig.savefig(out_dir / "bound_vs_exact.png")
    plt.close(fig)
