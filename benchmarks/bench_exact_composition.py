"""Benchmark: exact composition in the planner (issue 41), same-run ratios.

1. Plans: a study of 1,000 distinct Gaussian steps (sigma drawn in [5, 20], sensitivity 1e-6,
   n = 10^6) beside its one-step equivalent (the baseline: one Gaussian step of the composed
   mu), in-process, warm (the composition cache cleared before each call), and the 100-query
   study; median of R calls each.
2. Stages: our certified eps at total delta (the planner's best accountant, named) beside
   Google's dp_accounting PLD accountant on the same stage (pure steps as the pessimistic PLD
   of an (eps, 0)-DP mechanism, which is randomized response, as ours; Gaussian steps as the
   Gaussian mechanism), time and eps of both, and whether theirs is valid: our certified delta
   at their eps (GDP curve or the exact mixed sum, rounded up) is at most the target ("valid"),
   or not certified ("above": their eps is below the exact optimum by more than our rounding).

dp_accounting is in this project's test extra. Usage:
python benchmarks/bench_exact_composition.py [--repeats R]
"""

from __future__ import annotations

import argparse
import platform

import numpy as np
from _timing import median_time, paired

from maxinfo_bounds import __version__
from maxinfo_bounds.planning import Gaussian, Laplace, Study, plan
from maxinfo_bounds.planning.accountants import best_composition
from maxinfo_bounds.planning.stages import DPStage, stages_of
from maxinfo_bounds.theorems import dp_accounting as dp

try:
    from dp_accounting.pld import common
    from dp_accounting.pld import privacy_loss_distribution as pld
except ImportError:  # pragma: no cover - optional
    pld = None


def _clear() -> None:
    best_composition.cache_clear()


def _plans(repeats: int) -> None:
    rng = np.random.default_rng(20261125)
    sigmas = rng.uniform(5, 20, 1000)
    many = Study(n=10**6, alpha=0.05, iid=True, steps=tuple(Gaussian.from_sigma(1e-6, float(s), 1e-12) for s in sigmas))
    mu = dp.gdp_compose({dp.gaussian_mu(1e-6, float(s)): 1 for s in sigmas})
    one = Study(n=10**6, alpha=0.05, iid=True, steps=(Gaussian.from_sigma(mu, 1.0, 1e-12),))
    hundred = Study(n=10**6, alpha=0.05, iid=True, steps=(Gaussian.from_sigma(1e-6, 1.0, 1e-12, times=100),))
    print("\nMedians of interleaved repetitions; CPU = process time; load = 1-min load average.")
    print("\n| plan | median (s) | CPU (s) | load | ratio to the one-step plan | gamma | route |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
    plan(one)  # imports and first-call costs outside the timings

    def call(st: Study) -> object:
        _clear()
        return plan(st)

    cases = {"one": one, "1,000 distinct Gaussian steps": many, "100 equal Gaussian steps": hundred}
    res = {name: plan(st) for name, st in cases.items()}
    m = paired({name: lambda st=st: call(st) for name, st in cases.items()}, repeats)
    t1 = m.pop("one")
    for name, t in m.items():
        r = res[name]
        print(f"| {name} | {t.wall:.3f} | {t.cpu:.3f} | {t.load:.2f} | {t / t1:.2f} | {r.gamma:.6g} | {r.route} |")
    r = res["one"]
    print(
        f"| one Gaussian step of the composed mu (baseline) | {t1.wall:.3f} | {t1.cpu:.3f} | {t1.load:.2f} | 1.00 "
        f"| {r.gamma:.6g} | {r.route} |"
    )


def _runs(study: Study) -> DPStage:
    s0 = stages_of(study)[0]
    assert isinstance(s0, DPStage)
    return s0


STAGES = [
    ("100 Gaussian, mu_i = 0.01", [], [(0.01, 100)]),
    ("5 Laplace eps 0.05 + 5 Gaussian mu_i 0.05", [(0.05, 5)], [(0.05, 5)]),
    ("10 Laplace eps 0.1 + 10 Gaussian mu_i 0.1", [(0.1, 10)], [(0.1, 10)]),
    ("20 Laplace eps 0.02, 20 at 0.05 + 50 Gaussian mu_i 0.02", [(0.02, 20), (0.05, 20)], [(0.02, 50)]),
]


def _theirs(pure: list[tuple[float, int]], gauss: list[tuple[float, int]], delta: float) -> float:
    total = None
    for e, k in pure:
        p = pld.from_privacy_parameters(common.DifferentialPrivacyParameters(e, 0.0)).self_compose(k)
        total = p if total is None else total.compose(p)
    for mu, k in gauss:
        p = pld.from_gaussian_mechanism(1.0 / mu, sensitivity=1.0).self_compose(k)
        total = p if total is None else total.compose(p)
    assert total is not None
    return float(total.get_epsilon_for_delta(delta))


def _validity(pure: list[tuple[float, int]], mu_tot: float, delta: float, eps: float) -> str:
    d = dp.mixed_delta(dict(pure), mu_tot, eps) if pure else dp.gdp_delta(mu_tot, eps)
    return "valid" if d <= delta else f"above (certified delta {d:.3g} at their eps)"


def _stages(repeats: int) -> None:
    print(
        "\n| stage | delta | ours (s) | CPU (s) | accountant | eps ours | dp_accounting (s) | CPU (s) | load "
        "| eps dp_accounting | theirs | ratio eps ours / advanced composition |"
    )
    print("| --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |")
    for name, pure, gauss in STAGES:
        steps = [Laplace.from_eps(1.0, e, times=k) for e, k in pure] + [
            Gaussian.from_sigma(mu, 1.0, 1e-12, times=k) for mu, k in gauss
        ]
        s0 = _runs(Study(n=10**6, alpha=0.05, iid=True, steps=tuple(steps)))
        mu_tot = dp.gdp_compose({mu: k for mu, k in gauss})
        for delta in (1e-6, 1e-10):

            def ours_fn(s0: DPStage = s0, delta: float = delta) -> object:
                _clear()
                return best_composition(s0.runs, delta)

            res = best_composition(s0.runs, delta)
            assert res is not None
            g, link = res
            pointwise = [(r.eps, r.delta) for r in s0.runs for _ in range(r.count)]
            adv = dp.compose_dp(pointwise, delta + sum(d for _, d in pointwise)).eps
            if pld is None:
                t = median_time(ours_fn, repeats)
                row = f"| {name} | {delta:g} | {t.wall:.3f} | {t.cpu:.3f} | {link.theorems[0]} | {g.eps:.6g}"
                print(f"{row} | - | - | {t.load:.2f} | - | - | {g.eps / adv:.3f} |")
                continue
            theirs = _theirs(pure, gauss, delta)
            m = paired(
                {"ours": ours_fn, "theirs": lambda pure=pure, gauss=gauss, delta=delta: _theirs(pure, gauss, delta)},
                repeats,
            )
            t, t0 = m["ours"], m["theirs"]
            print(
                f"| {name} | {delta:g} | {t.wall:.3f} | {t.cpu:.3f} | {link.theorems[0]} | {g.eps:.6g} | "
                f"{t0.wall:.3f} | {t0.cpu:.3f} | {t.load:.2f} | {theirs:.6g} | "
                f"{_validity(pure, mu_tot, delta, theirs)} | {g.eps / adv:.3f} |"
            )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=5)
    a = ap.parse_args()
    print(
        f"python {platform.python_version()}, numpy {np.__version__}, maxinfo_bounds {__version__}, "
        f"repeats {a.repeats}, dp_accounting {'installed' if pld is not None else 'not installed'}"
    )
    _plans(a.repeats)
    _stages(a.repeats)


if __name__ == "__main__":
    main()
