"""Benchmark: optimal homogeneous composition, certified (ours) beside Google's dp_accounting
(issue 17), time and validity side by side in one run; then the analytic Gaussian calibration
(Balle-Wang 2018 Thm 8), ours (certified) beside dp_accounting's
``get_smallest_gaussian_noise``, time per point and validity of both.

For k steps of (eps, 0)-DP at total delta: ours is ``optimal_composition`` (KOV15 Thm 3.3,
interval arithmetic over the significant binomial terms, the rest bounded in closed form,
rounded up); theirs is the pessimistic privacy-loss distribution of an (eps, 0)-DP mechanism
(``from_privacy_parameters``), self-composed k times, read at delta. Validity of each answer:
our certified exact delta (``optimal_composition_delta``, an upper enclosure) at that eps is at
most the target ("valid"), or its lower enclosure is above it ("INVALID", certified).

dp_accounting is not a dependency of this project: install it for this benchmark only,
e.g. ``python -m venv /tmp/dpa && /tmp/dpa/bin/pip install dp-accounting`` and run
``PYTHONPATH=. /tmp/dpa/bin/python benchmarks/bench_vs_dp_accounting.py`` (sympy is not needed
for the evaluators). Without it, only our column is printed.

Usage: python benchmarks/bench_vs_dp_accounting.py [--repeats R] [--max-k K]
"""

from __future__ import annotations

import argparse
import platform

import numpy as np
from _timing import median_time, paired

from maxinfo_bounds.theorems.dp_accounting import analytic_gaussian_sigma, optimal_composition
from maxinfo_bounds.theorems.dp_accounting.mechanisms import _ag_delta_bounds
from maxinfo_bounds.theorems.dp_accounting.optimal import _KovDelta

try:
    from dp_accounting.pld import accountant, common
    from dp_accounting.pld import privacy_loss_distribution as pld
except ImportError:  # pragma: no cover - optional
    pld = None


def _theirs(eps: float, k: int, delta: float) -> float:
    p = pld.from_privacy_parameters(common.DifferentialPrivacyParameters(eps, 0.0))
    return float(p.self_compose(k).get_epsilon_for_delta(delta))


def _validity(eps: float, k: int, delta: float, eps_total: float) -> str:
    lo, hi = _KovDelta(eps, 0.0, k, 128)(eps_total)
    if hi <= delta:
        return "valid"
    return "INVALID" if lo > delta else "undecided"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--max-k", type=int, default=10**6)
    a = ap.parse_args()
    print(
        f"python {platform.python_version()}, numpy {np.__version__}, repeats {a.repeats}, "
        f"dp_accounting {'installed' if pld is not None else 'not installed'}"
    )
    print("\nMedians of interleaved repetitions (ours, theirs); CPU = process time; load = 1-min load average.")
    print(
        "\n| eps | k | delta | ours (s) | CPU (s) | dp_accounting (s) | CPU (s) | load | ratio | eps ours "
        "| eps dp_accounting | theirs |"
    )
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for eps, k, delta in (
        (0.001, 10**3, 1e-6),
        (0.01, 10**4, 1e-6),
        (0.001, 10**4, 1e-6),
        (0.01, 10**5, 1e-6),
        (0.001, 10**5, 1e-6),
        (0.01, 10**6, 1e-6),
        (0.001, 10**6, 1e-6),
    ):
        if k > a.max_k:
            continue
        reps = a.repeats if k <= 10**5 else 1
        ours = optimal_composition(eps, 0.0, k, delta).eps
        if pld is None:
            t1 = median_time(lambda eps=eps, k=k, delta=delta: optimal_composition(eps, 0.0, k, delta), reps)
            print(f"| {eps} | {k} | {delta} | {t1.cols(digits=3)} | - | - | - | - | {ours!r} | - | - |")
            continue
        theirs = _theirs(eps, k, delta)
        m = paired(
            {
                "ours": lambda eps=eps, k=k, delta=delta: optimal_composition(eps, 0.0, k, delta),
                "theirs": lambda eps=eps, k=k, delta=delta: _theirs(eps, k, delta),
            },
            reps,
        )
        t1, t0 = m["ours"], m["theirs"]
        print(
            f"| {eps} | {k} | {delta} | {t1.wall:.3f} | {t1.cpu:.3f} | {t0.wall:.3f} | {t0.cpu:.3f} | {t1.load:.2f} "
            f"| {t1 / t0:.2f} | {ours!r} | {theirs!r} | {_validity(eps, k, delta, theirs)} |"
        )
    _gaussian(max(a.repeats, 7))


def _gaussian(repeats: int) -> None:
    """Analytic Gaussian calibration (Balle-Wang 2018 Thm 8): ours certified, theirs
    ``accountant.get_smallest_gaussian_noise``; validity of both from a 50-digit enclosure of
    the exact delta at the returned sigma."""
    print(
        "\n| eps | delta | ours (ms) | CPU (ms) | dp_accounting (ms) | CPU (ms) | load | ratio | sigma ours "
        "| sigma dp_accounting | ours | theirs |"
    )
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |")
    for eps, delta in ((0.01, 1e-6), (0.1, 1e-5), (0.5, 1e-6), (1.0, 1e-10), (3.0, 1e-3)):
        ours = analytic_gaussian_sigma(1.0, eps, delta)
        if pld is None:
            t1 = median_time(lambda eps=eps, delta=delta: analytic_gaussian_sigma(1.0, eps, delta), repeats)
            print(f"| {eps} | {delta} | {t1.cols(1e3, 2)} | - | - | - | - | {ours!r} | - | - | - |")
            continue

        def theirs_fn(eps: float = eps, delta: float = delta) -> float:
            return float(accountant.get_smallest_gaussian_noise(common.DifferentialPrivacyParameters(eps, delta)))

        theirs = theirs_fn()
        m = paired(
            {"ours": lambda eps=eps, delta=delta: analytic_gaussian_sigma(1.0, eps, delta), "theirs": theirs_fn},
            repeats,
        )
        t1, t0 = m["ours"], m["theirs"]
        print(
            f"| {eps} | {delta} | {t1.wall * 1e3:.2f} | {t1.cpu * 1e3:.2f} | {t0.wall * 1e3:.2f} | "
            f"{t0.cpu * 1e3:.2f} | {t1.load:.2f} | {t1 / t0:.2f} | {ours!r} | {theirs!r} | "
            f"{_sigma_validity(eps, delta, ours)} | {_sigma_validity(eps, delta, theirs)} |"
        )


def _sigma_validity(eps: float, delta: float, sigma: float) -> str:
    lo, hi = _ag_delta_bounds(1.0, sigma, eps)
    return "valid" if hi <= delta else ("INVALID" if lo > delta else "undecided")


if __name__ == "__main__":
    main()
