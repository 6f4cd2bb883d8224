"""Benchmark: the estimation planner (issue 42), same-run ratios, and the published crossovers.

1. Timings: one ``plan_estimate`` call (every route, certified) and one with a target
   half-width (each route's largest k and smallest n, certified on both sides), beside the
   baseline measured in the same run: one certified Gaussian sample accuracy (GAUSS-max, the
   cheapest certified piece every reuse route needs). A 50 x 50 regime map (float estimates).
   Targets (issue 42): one estimate call <= 0.5 s; a 50 x 50 map <= 30 s.
2. The JLNRSS authors' published numbers (accuracy 0.1, coverage 0.95; their code
   ``cw_funcs.py``, recorded in shared/papers/transfer-theorems.md): the largest number of
   queries for splitting and for their JLNRSS route, beside ours (certified), and the float
   ablation that explains the difference: ours with the published code's choices put back one
   at a time (the union bound for the Gaussian maximum; c = d; the sample-accuracy failure tied
   to delta; zCDP's conversion rho + 2 sqrt(rho ln(...)) instead of the exact GDP curve), and
   all together (which should land near the published figure).
3. Proved limits (``--prove-extremes``, :mod:`maxinfo_bounds.planning.limits`): at each
   published n, the Gaussian routes' largest k beside the limit proved over every setting and
   the proof's time; and one whole ``plan_estimate`` with and without ``prove_extremes``;
   Thresholdout's proved limits at two studies (B = 20).

Usage: python benchmarks/bench_estimate.py [--repeats R]
"""

from __future__ import annotations

import argparse
import math
import platform
from typing import Any

import numpy as np
from _timing import once, paired

from maxinfo_bounds import __version__
from maxinfo_bounds.planning import estimate as E
from maxinfo_bounds.theorems import binomial_split as B
from maxinfo_bounds.theorems.dp_accounting.gdp import gdp_delta_estimate
from maxinfo_bounds.theorems.estimation import gaussian_half_width_estimate, gaussian_sample_accuracy

PUBLISHED = {  # n: (splitting, JLNRSS, BNSSSU) largest k at accuracy 0.1, coverage 0.95
    10**5: (219, 153, 23),
    2 * 10**5: (411, 560, 85),
    10**6: (1788, 11621, 1753),
    2 * 10**6: (3384, 40373, 6536),
}


def _timings(repeats: int) -> None:
    E.plan_estimate(10**5, 10, 0.95)  # imports and first-call costs outside the timings

    def base() -> object:
        return gaussian_sample_accuracy(0.01, 10_000, 0.01)

    def cold(fn):  # type: ignore[no-untyped-def]
        # the max-information route's float caches cleared: each repetition pays in full
        def run() -> object:
            E._gdp_eps_float.cache_clear()
            E._thm31_k_float.cache_clear()
            for cache in (B._le_tail, B._log_fact, B._log_p, B._fstar):  # the binomial route's
                cache.cache_clear()
            return fn()

        return run

    rows = [
        ("plan_estimate(10^6, 10^4, 0.95)", cold(lambda: E.plan_estimate(10**6, 10**4, 0.95)), 0.5),
        (
            "plan_estimate(10^6, 10^4, 0.95, half_width=0.1)",
            cold(lambda: E.plan_estimate(10**6, 10**4, 0.95, 0.1)),
            0.5,
        ),
        (
            "plan_estimate(2*10^5, 411, 0.95, half_width=0.1, binary=True)",
            cold(lambda: E.plan_estimate(2 * 10**5, 411, 0.95, 0.1, binary=True)),
            0.5,
        ),
        (
            "the exact binomial route alone, (2*10^5, 411, 0.95, half_width=0.1)",
            cold(lambda: E._split_binary_route(2 * 10**5, 411, E._failure(0.95), 0.1, True)),
            None,
        ),
        (
            "plan_estimate(10^6, 10^6, 0.95, thresholdout_budget=20, half_width=0.2)",
            cold(lambda: E.plan_estimate(10**6, 10**6, 0.95, 0.2, thresholdout_budget=20)),
            0.5,
        ),
    ]
    m = paired({"base": base, **{name: fn for name, fn, _ in rows}}, repeats)
    b = m["base"]
    print("\nMedians of interleaved repetitions; CPU = process time; load = 1-min load average.")
    print("\n| call | median (s) | CPU (s) | load | target (s) | ratio to the baseline |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name, _, target in rows:
        t = m[name]
        shown = "-" if target is None else target
        print(f"| {name} | {t.wall:.3f} | {t.cpu:.3f} | {t.load:.2f} | {shown} | {t / b:.0f} |")
    print(f"| baseline: gaussian_sample_accuracy(0.01, 10^4, 0.01) | {b.wall:.5f} | {b.cpu:.5f} | {b.load:.2f} | | 1 |")
    # the maps are single runs (seconds each), each beside the baseline's per-call time above
    t_map, rm = once(lambda: E.regime_map(0.95, (10**3, 10**7), (1, 10**5), 50))
    t_map_b, _ = once(lambda: E.regime_map(0.95, (10**3, 10**7), (1, 10**7), 50, thresholdout_budget=20))
    t_map_01, _ = once(lambda: E.regime_map(0.95, (10**3, 10**7), (1, 10**5), 50, binary=True))
    print(
        f"\n50 x 50 regime map: {t_map.s(1)} (target 30 s; {t_map / b:.0f}x the baseline); with Thresholdout "
        f"(B = 20): {t_map_b.s(1)}; with exact binomial splitting (--binary): {t_map_01.s(1)} (target 30 s)"
    )
    print("\n" + E.crossover_text(rm))


# --------------------------------------------------------------------------------------------
# the ablation: the JLNRSS route's float half-width with the published code's choices


def _cdp_eps(rho: Any, delta: Any) -> Any:
    """The published code's zCDP conversion (adv_comp, method "CDP", for the total rho)."""
    val = np.where(np.sqrt(math.pi * rho) / delta < math.e, 1 / delta, np.sqrt(math.pi * rho) / delta)
    val = np.maximum(val, 1.0)
    return rho + 2 * np.sqrt(rho * np.log(val))


def _variant_est(n: int, k: int, f: float, lmu: Any, leps_or_ldelta: Any, lbs: Any, opts: frozenset[str]) -> Any:
    from scipy.special import ndtri

    mu = np.exp(lmu)
    sigma = math.sqrt(k) / (n * mu)
    if "cdp" in opts:  # the second variable is log delta; eps from zCDP (rho = mu^2 / 2)
        delta = np.exp(leps_or_ldelta)
        eps = _cdp_eps(mu**2 / 2, delta)
    else:
        eps = np.exp(leps_or_ldelta)
        delta = gdp_delta_estimate(mu, eps)
    bs = delta if "tie" in opts else np.exp(lbs)
    t = sigma * -ndtri(bs / (2 * k)) if "union" in opts else gaussian_half_width_estimate(sigma, k, bs)
    pen = 3 * (bs + delta) / f if "c=d" in opts else (np.sqrt(bs) + np.sqrt(2 * delta)) ** 2 / f
    hw = t + np.expm1(eps) + pen
    ok = (bs < f) & np.isfinite(hw) & (3 * (bs + delta) < f if "c=d" in opts else True)
    return np.where(ok, hw, np.inf)


def _variant_hw(n: int, k: int, f: float, opts: frozenset[str]) -> float:
    second = (math.log(1e-30), math.log(f)) if "cdp" in opts else E._EPS
    bounds = [E._MU, second, (math.log(f * 1e-12), math.log(f * (1 - 1e-9)))]
    return E._zoom_min(lambda a, b, c: _variant_est(n, k, f, a, b, c, opts), bounds, [16, 16, 10])[0]


def _variant_max_k(n: int, t: float, f: float, opts: frozenset[str]) -> int:
    lo, hi = 1, 2
    while _variant_hw(n, hi, f, opts) <= t:
        lo, hi = hi, hi * 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _variant_hw(n, mid, f, opts) <= t:
            lo = mid
        else:
            hi = mid
    return lo


def _published() -> None:
    f = 0.05
    variants = [
        ("union bound", frozenset({"union"})),
        ("c = d", frozenset({"c=d"})),
        ("beta_s = delta", frozenset({"tie"})),
        ("zCDP conversion", frozenset({"cdp"})),
        ("all four (the published code's choices)", frozenset({"union", "c=d", "tie", "cdp"})),
    ]
    print(
        "\nLargest k at accuracy 0.1, coverage 0.95. Published: the JLNRSS authors' code. Ours: certified. "
        "Ablation: our float optimum with one published choice put back (then all four)."
    )
    head = (
        "| n | splitting published | splitting ours | JLNRSS published | JLNRSS ours | BNSSSU published "
        "| BNSSSU ours (RRST B.2) |"
    )
    print("\n" + head + " " + " | ".join(v for v, _ in variants) + " |")
    print("| " + " | ".join(["---:"] * (7 + len(variants))) + " |")
    for n, (sp, jl, bn) in PUBLISHED.items():
        p = E.plan_estimate(n, 100, 0.95, 0.1)
        ours = [p.route(r).max_queries_at_half_width for r in (E.SPLIT, E.REUSE_JLNRSS, E.REUSE_BNSSSU)]
        abl = [_variant_max_k(n, 0.1, f, o) for _, o in variants]
        print(
            f"| {n:,} | {sp:,} | {ours[0]:,} | {jl:,} | {ours[1]:,} | {bn:,} | {ours[2]:,} | "
            + " | ".join(f"{a:,}" for a in abl)
            + " |"
        )


def _proved() -> None:
    from fractions import Fraction

    from maxinfo_bounds.planning import limits as L

    failure = 1 - Fraction(0.95)
    print(
        "\nProved limits at accuracy 0.1, coverage 0.95: the largest k the planner certifies, the k above which "
        "no setting of the route meets 0.1 (proved: planning/limits.py), and the proof's time (one run)."
    )
    print("\n| n | JLNRSS k | proved: no setting above | time (s) | BNSSSU k | proved: no setting above | time (s) |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for n in PUBLISHED:
        p = E.plan_estimate(n, 100, 0.95, 0.1, maxinfo=False)
        cells = []
        for route, refuted in ((E.REUSE_JLNRSS, L.jlnrss_refuted), (E.REUSE_BNSSSU, L.bnsssu_refuted)):
            k = p.route(route).max_queries_at_half_width
            t, lim = once(lambda: L.max_queries_limit(refuted, n, 0.1, failure, k))
            shown = "-" if lim is None else (f"{lim.value:,} (optimal)" if lim.exact else f"{lim.value:,}")
            cells += [f"{k:,}", shown, f"{t.cpu:.1f}"]
        print(f"| {n:,} | " + " | ".join(cells) + " |")
    t0, _ = once(lambda: E.plan_estimate(10**6, 10**4, 0.95, 0.1))
    t1, _ = once(lambda: E.plan_estimate(10**6, 10**4, 0.95, 0.1, prove_extremes=True))
    print(
        f"\nplan_estimate(10^6, 10^4, 0.95, half_width=0.1): CPU {t0.cpu:.2f} s; with prove_extremes=True "
        f"(both Gaussian routes, both extremes): CPU {t1.cpu:.2f} s ({t1.cpu / t0.cpu:.0f}x; load {t1.load:.2f})"
    )


def _proved_thresholdout() -> None:
    import functools
    from fractions import Fraction

    from maxinfo_bounds.planning import limits as L

    failure = 1 - Fraction(0.95)
    print(
        "\nThresholdout's proved limits (budget B = 20, its default threshold, coverage 0.95): the planner's "
        "largest k and smallest n, the limits proved over every setting (noise, holdout size, failure split, "
        "delta) and each proof's time (one run)."
    )
    print("\n| n | k | T | largest k | proved: none above | time (s) | smallest n | proved: none below | time (s) |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    refuted = functools.partial(L.thresholdout_refuted, budget=20, threshold=None)
    for n, k, t in ((10**6, 10**4, 0.1), (10**6, 10**6, 0.2)):
        r = E.plan_estimate(n, k, 0.95, t, thresholdout_budget=20, maxinfo=False).route(E.THRESHOLDOUT)
        kq, nr = r.max_queries_at_half_width, r.required_n_records
        tk, kl = once(lambda: L.max_queries_limit(refuted, n, t, failure, kq))
        tn, nl = once(lambda: L.required_n_limit(refuted, k, t, failure, nr))
        cells = [
            f"{kq:,}",
            "-" if kl is None else f"{kl.value:,}" + (" (optimal)" if kl.exact else ""),
            f"{tk.cpu:.1f}",
            f"{nr:,}",
            "-" if nl is None else f"{nl.value:,}" + (" (optimal)" if nl.exact else ""),
            f"{tn.cpu:.1f}",
        ]
        print(f"| {n:,} | {k:,} | {t} | " + " | ".join(cells) + " |")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=5)
    a = ap.parse_args()
    print(
        f"python {platform.python_version()}, numpy {np.__version__}, maxinfo_bounds {__version__}, repeats {a.repeats}"
    )
    _timings(a.repeats)
    _published()
    _proved()
    _proved_thresholdout()


if __name__ == "__main__":
    main()
