"""The accountants of a DP stage: the smallest certified eps at a total delta, and who gave it.

A stage's runs are composed by every accountant that applies, each certified, and the smallest
eps is kept; the derivation names the accountant and its parameters (mu, rho):

* **optimal (KOV15 Thm 3.3)**: runs all equal (the exact optimum for (eps, delta)-DP steps);
* **advanced (Dwork-Roth Thm 3.20, heterogeneous form)**: any runs;
* **GDP (Dong-Roth-Su Cor. 3.3 and 2.13)**: every run Gaussian; exact;
* **exact mixed** (:mod:`~maxinfo_bounds.theorems.dp_accounting.mixed`): pure runs and Gaussian
  runs, at most :data:`MIXED_MAX_PATTERNS` sign-count patterns; exact;
* **zCDP (Bun-Steinke; Canonne-Kamath-Steinke Prop. 12)**: every run with a rho (Gaussian, pure,
  bounded range); a bound at any Renyi order, the order chosen in floats.

The first two need the total delta above the runs' own deltas and are skipped beyond
``TIGHT_MAX_RUNS`` runs (``classic=False``); the exact ones take any total delta.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from ..numeric import InvalidParameter, RegimeError, exact_sum, float_up
from ..results import DPGuarantee
from ..theorems.dp_accounting import compose_dp, optimal_composition
from ..theorems.dp_accounting.gdp import MU_MAX, gdp_compose, gdp_epsilon
from ..theorems.dp_accounting.mixed import mixed_epsilon, pattern_count
from ..theorems.dp_accounting.zcdp import zcdp_epsilon
from .stages import DPRuns, Link, text_up

__all__ = ["best_composition", "composed_mu", "MIXED_MAX_PATTERNS"]

#: the exact mixed accountant is tried up to this many sign-count patterns
MIXED_MAX_PATTERNS = 2_000


@lru_cache(maxsize=256)
def _kov_certified(e: float, d: float, runs: int, dt: float) -> DPGuarantee:
    return optimal_composition(e, d, runs, dt)


@dataclass(frozen=True)
class _Totals:
    """What every total delta reuses: run count, the runs' own total delta, the Gaussian runs'
    composed mu and the total rho (None where not every run has one)."""

    count: int
    used: Fraction
    mu: float | None
    rho: float | None


@lru_cache(maxsize=64)
def _totals(runs: tuple[DPRuns, ...]) -> _Totals:
    mus: Counter[float] = Counter()
    for r in runs:
        if r.mu is not None:
            mus[r.mu] += r.count
    rhos = [(r.count, r.rho) for r in runs if r.rho is not None]
    return _Totals(
        sum(r.count for r in runs),
        exact_sum((r.count, r.delta) for r in runs),
        gdp_compose(mus) if mus else None,
        float_up(exact_sum(rhos)) if len(rhos) == len(runs) else None,
    )


def composed_mu(runs: tuple[DPRuns, ...]) -> float:
    """The exact GDP composition of the stage's Gaussian runs (rounded up; DRS22 Cor. 3.3)."""
    mu = _totals(runs).mu
    if mu is None:
        raise InvalidParameter("runs", "no Gaussian run", "a stage with Gaussian runs")
    return mu


def _entry(
    g: DPGuarantee, what: str, theorems: tuple[str, ...], inputs: str, conditions: tuple[str, ...], **values: float
) -> tuple[DPGuarantee, Link]:
    """An accountant's guarantee with its derivation line (output and ``values`` from ``g``)."""
    return g, Link(
        what,
        theorems,
        inputs,
        f"({text_up(g.eps)}, {text_up(g.delta)})-DP",
        conditions,
        (*values.items(), ("eps", g.eps), ("delta", g.delta)),
    )


def _candidates(runs: tuple[DPRuns, ...], dt: float, classic: bool) -> list[tuple[DPGuarantee, Link]]:
    tot = _totals(runs)
    count, used = tot.count, tot.used
    out: list[tuple[DPGuarantee, Link]] = []
    gauss = [r for r in runs if r.mu is not None]
    pure = [r for r in runs if r.mu is None and r.delta == 0]
    runs_text = f"{count} run{'s' if count != 1 else ''}"
    # (with Gaussian runs only, GDP is the exact optimum: the classic accountants cannot beat it)
    if classic and Fraction(dt) > used and count > 1 and len(gauss) < len(runs):
        if len({r.key for r in runs}) == 1:
            e0, d0 = runs[0].eps, runs[0].delta
            with contextlib.suppress(InvalidParameter):
                g = _kov_certified(e0, d0, count, dt)
                out.append(
                    _entry(
                        g,
                        "optimal DP composition of the stage",
                        ("KOV15-3.3",),
                        f"{count} x ({e0!r}, {d0!r})",
                        g.conditions,
                    )
                )
        else:
            g = compose_dp(_counts(runs), dt)
            out.append(_entry(g, "advanced DP composition of the stage", (g.theorem,), runs_text, g.conditions))
    mu_tot = tot.mu
    if gauss and len(gauss) == len(runs) and mu_tot is not None and mu_tot <= MU_MAX:
        with contextlib.suppress(InvalidParameter):
            g = DPGuarantee(gdp_epsilon(mu_tot, dt), dt, "DRS22-3.3", (f"mu = {text_up(mu_tot)} (exact composition)",))
            out.append(
                _entry(
                    g,
                    "exact Gaussian composition of the stage (GDP)",
                    ("DRS22-3.3", "DRS22-2.13"),
                    f"{runs_text}, mu = sqrt(sum mu_i^2) = {text_up(mu_tot)}",
                    ("adaptive composition of Gaussian steps is exact",),
                    mu=mu_tot,
                )
            )
    if pure and len(pure) + len(gauss) == len(runs) and (gauss or len({r.eps for r in pure}) > 1 or not classic):
        pats: Counter[float] = Counter()
        for r in pure:
            pats[r.eps] += r.count
        m = mu_tot or 0.0
        if pattern_count(pats) <= MIXED_MAX_PATTERNS and m <= MU_MAX:
            with contextlib.suppress(InvalidParameter):
                out.append(
                    _entry(
                        DPGuarantee(mixed_epsilon(pats, m, dt), dt, "MIX-exact", ()),
                        "exact composition of the stage (pure and Gaussian steps)",
                        ("MIX-exact",) + (("DRS22-3.3",) if gauss else ()),
                        f"{runs_text}: pure eps {sorted(pats)!r}" + (f", Gaussian mu = {text_up(m)}" if gauss else ""),
                        ("pure steps dominated by randomized response, Gaussian steps by GDP",),
                        mu=m,
                    )
                )
    if tot.rho is not None and len(gauss) < len(runs):
        rho = tot.rho
        with contextlib.suppress(InvalidParameter, RegimeError):
            ids = tuple(dict.fromkeys(t for r in runs for t in r.theorems if t != "DRS22-3.3"))
            out.append(
                _entry(
                    DPGuarantee(zcdp_epsilon(rho, dt), dt, "CKS20-12", (f"rho = {text_up(rho)}",)),
                    "zCDP composition of the stage",
                    (*ids, "CKS20-12"),
                    f"{runs_text}, rho = sum rho_i = {text_up(rho)}",
                    ("zCDP composes additively (Bun-Steinke Lemma 1.7)",),
                    rho=rho,
                )
            )
    return out


def _counts(runs: Sequence[DPRuns]) -> dict[tuple[float, float], int]:
    out: Counter[tuple[float, float]] = Counter()
    for r in runs:
        out[(r.eps, r.delta)] += r.count
    return dict(out)


@lru_cache(maxsize=512)
def best_composition(runs: tuple[DPRuns, ...], dt: float, classic: bool = True) -> tuple[DPGuarantee, Link] | None:
    """The smallest certified eps of the runs at total delta ``dt`` over every accountant that
    applies (module doc), with its derivation line; None when none applies. Cached: the
    composition does not depend on n, so sweeps pay for it once."""
    cands = _candidates(runs, dt, classic)
    if not cands:
        return None
    return min(cands, key=lambda c: c[0].eps)
