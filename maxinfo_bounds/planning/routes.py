r"""Routes: from a study's stages to a certified max-information bound and γ(α).

:func:`plan` tries every valid route to a max-information bound (k bits, β) of the whole
analysis, optimises the split of β across its stages, and returns the route with the largest
corrected threshold γ(α) = (α − β)/2^k (RRST Thm 1.3), with the derivation (theorem ids,
inputs, outputs, conditions).

Routes (each where its conditions hold):

* **max-information composition** (RRST Thm A.3 = DFHPRR Lemma 5) over the stages of
  :mod:`~maxinfo_bounds.planning.stages`: a pure-DP stage uses RRST Thm 1.4a (any data) or, if it
  is the first stage and the data are i.i.d., the better of Thm 1.4a and 1.4b; an approximate-DP
  stage uses RRST Thm 3.1 at the best implied guarantee (ε' ≥ ε: an (ε, δ)-DP stage is also
  (ε', δ)-DP) and is only allowed as the **first** stage on i.i.d. data (RRST §4: a later stage
  sees data conditioned on earlier outputs; Thm 4.1 shows no bound can hold there); a
  mutual-information stage uses RRST Lemma 1.5 (exact variant, β optimised on the exact curve).
* **DP first stage, tighter composition**: as above, but the first DP stage is composed by
  advanced composition (Dwork–Roth Thm 3.20) or, for identical steps, optimally (KOV15 Thm 3.3)
  at a few total δ, then converted by RRST Thm 3.1 (i.i.d. data only).
* **mutual information** (chain rule, RRST Cor C.2): when no stage is approximate DP, each stage's
  MI is bounded (pure DP: I ≤ I_∞ ≤ Thm 1.4a's k; description: log2 of the range; MI steps: as
  given), summed, and corrected by RRST Cor C.2 (optimal variant) or, where it gives the
  larger threshold (below about 0.01 bits at α = 0.05), Russo–Zou's bound (RRST Thm C.3).

Plans in which an approximate-DP step follows a non-DP step (or the data are not i.i.d.) have no
valid route for that step; when no route is valid :func:`plan` raises :class:`NoValidRoute`, a
:class:`PlanError` that keeps every route's reason (``candidates``). (The study-level answer,
:func:`~maxinfo_bounds.planning.recommend.plan_power`, turns it into a result: the other
analyses, or "no valid analysis" with the reasons.)

>>> from maxinfo_bounds.planning import Description, Study
>>> study = Study(n=10_000, iid=True, alpha=0.05, steps=(Description(range_size=1000),))
>>> r = plan(study)
>>> r.route, round(r.gamma, 10)           # DFHPRR Thm 6 at beta = alpha/2: alpha^2 / (4 * 1000)
('max-information composition', 6.25e-07)

Why one module over 400 lines: the routes are the planner's one decision (which theorem chain
gives the best certified (k, beta) for each stage); the route table, its search and plan() read
the same candidates and are kept together so a reader sees every route in one place.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from ..numeric import LOG2E, InvalidParameter, RegimeError, exact_sum, float_up, int_text
from ..results import Bound
from ..search import minimise, minimise_nd
from ..theorems.composition import compose_max_information
from ..theorems.description import description_length_max_information
from ..theorems.dp_accounting import DPGuarantee, kov_eps_float
from ..theorems.dp_accounting.gdp import MU_MAX, gdp_epsilon_estimate
from ..theorems.dp_accounting.mixed import mixed_epsilon_estimate, pattern_count
from ..theorems.dp_accounting.zcdp import _cks_float, zcdp_order
from ..theorems.maxinfo_dp import (
    PURE_DP_PRODUCT,
    THM31_EPS_MAX,
    approx_dp_max_information_implied,
    pure_dp_max_information,
    pure_dp_max_information_product,
    thm31_implied_float_k,
    thm31_outside,
)
from ..theorems.mutual_info import mi_k_float, mi_to_approx_max_information
from ..theorems.pvalues import mi_pvalue_choice, pvalue_correction, russo_zou_pvalue_correction
from .accountants import MIXED_MAX_PATTERNS, best_composition, composed_mu
from .errors import PlanError
from .stages import DescriptionStage, DPStage, Link, Stage, stages_of, text_down, text_up
from .study import Study

__all__ = ["Candidate", "NoValidRoute", "PlanResult", "plan", "gamma_upper_bound", "TIGHT_MAX_RUNS", "DELTA_GRID"]


class Candidate(NamedTuple):
    """One route the planner tried: its γ (None where it is unavailable) and why not."""

    route: str
    gamma: float | None
    note: str


class NoValidRoute(PlanError):
    """No max-information route is valid for the study; ``candidates`` keeps each route's reason."""

    def __init__(self, where: str, candidates: tuple[Candidate, ...]) -> None:
        reasons = "; ".join(f"{c.route}: {c.note}" for c in candidates if c.note)
        super().__init__(where, f"no valid route: {reasons}")
        self.candidates = candidates

    @property
    def reasons(self) -> str:
        """Each route's reason, joined (the message without its \"no valid route\" head)."""
        return self.allowed.removeprefix("no valid route: ")


class CurveFamily(StrEnum):
    """Curves of one family share one β variable in the optimiser (see :func:`_optimise`)."""

    DESCRIPTION = "desc"
    FIRST = "first"
    MI = "mi"


@dataclass(frozen=True)
class PlanResult:
    """The planner's answer: γ(α) rounded down, the overall (k bits, β), and the derivation."""

    study: str
    alpha: float
    gamma: float
    k: float | None
    beta: float | None
    route: str
    chain: tuple[Link, ...]
    candidates: tuple[Candidate, ...]
    notes: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, object]:
        return {
            "study": self.study,
            "alpha": self.alpha,
            "gamma": self.gamma,
            "k_bits": self.k,
            "beta": self.beta,
            "route": self.route,
            "chain": [
                {
                    "what": c.what,
                    "theorems": list(c.theorems),
                    "inputs": c.inputs,
                    "output": c.output,
                    "conditions": list(c.conditions),
                    "values": dict(c.values),
                }
                for c in self.chain
            ],
            "candidates": [{"route": c.route, "gamma": c.gamma, "note": c.note} for c in self.candidates],
            "notes": list(self.notes),
        }


class _Curve:
    """A stage's (k, β) trade-off: float surrogate ``k_of(beta)`` and certified ``bound(beta)``.

    ``fixed`` curves do not depend on β (their bound has β = 0 or a fixed β). ``unreachable``
    says in words why no β below α works for the stage, when that happens."""

    def __init__(
        self,
        name: str,
        k_of: Callable[[float], float] | None,
        bound: Callable[[float], Bound],
        links: list[Link],
        family: CurveFamily = CurveFamily.FIRST,
        weight: float = 1.0,
        unreachable: str = "",
        hopeless: bool = False,
        gamma_sup: Callable[[float, float], float | None] | None = None,
    ) -> None:
        self.name, self.k_of, self.bound, self.links = name, k_of, bound, links
        #: ``gamma_sup(alpha, beta_found)``: a proven upper bound on the supremum over every
        #: beta of the certified gamma of this curve as the route's only stage (None where the
        #: proof's conditions fail; see :func:`pure_gamma_sup`)
        self.gamma_sup = gamma_sup
        self.unreachable = unreachable
        #: known before any optimisation: no beta works (the theorem's regime excludes it)
        self.hopeless = hopeless
        #: curves of one family share one optimisation variable x, with beta = x * weight
        self.family, self.weight = family, weight


def _thm31_beta_floor(n: int, delta: float) -> float:
    """A floor on RRST Thm 3.1's beta over every choice of (t, delta_hat, eps' <= 1/2): beta >=
    n (1 - (1 - d')(1 - d'')) >= n max(d', d'') >= n (d' + d'')/2 when both are below 1 (else
    beta >= n), and d' + d'' >= 2 delta/delta_hat + 2 delta_hat >= 4 sqrt(delta) (d' >=
    2 delta/delta_hat, d'' = 2 delta_hat/(1 - e^{-3 eps'}) >= 2 delta_hat): so beta >= 2 n
    sqrt(delta). Shrunk by 1e-9 for float error: a time saver, never a reason to refuse a
    route that could be valid."""
    return 2 * n * math.sqrt(delta) * (1 - 1e-9)


#: relative slack on a route's optimised γ where no proven bound on its supremum over β is
#: available (routes of several stages; RRST Thm 3.1 and Lemma 1.5 curves; the MI route): the
#: β optimiser's tolerance (see :func:`gamma_upper_bound`)
OPTIMISER_SLACK = 1e-3
#: relative margin under a certified pure-DP eps in :func:`pure_gamma_sup` (the certified eps is
#: the float just above an exact or 128-bit enclosure: within a few ulps of the exact value)
_EPS_MARGIN = 1e-9
#: relative margin on every float quantity of :func:`pure_gamma_sup` (each carries an error
#: below 1e-14 relative to the sizes of its terms)
_FLOAT_MARGIN = 1e-12
#: the half-widths h (in ln beta) of the brackets beta* e^(-h), beta* e^h tried
_SUP_BRACKETS = (1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1.0)


def _phi(alpha: float, eps: float, n: int, b: float) -> tuple[float, float, float]:
    """φ(β) = ln(α − β) − ε²n/2 − ε sqrt(n L/2), L = ln(2/β) (ln of RRST Thm 1.4b's γ, nats),
    as (upper end of φ, lower and upper ends of φ'(β)) in floats with :data:`_FLOAT_MARGIN`."""
    d = alpha - b  # correctly rounded: relative error 2^-53 (alpha, b exact floats)
    big_l = math.log(2.0) - math.log(b)  # both terms positive for b < 2: no cancellation
    t_a, t_b, t_c = math.log(d), eps * eps * n / 2, eps * math.sqrt(n * big_l / 2)
    phi = t_a - t_b - t_c
    phi_hi = phi + _FLOAT_MARGIN * (abs(t_a) + t_b + t_c) + 1e-300
    s_a, s_c = 1.0 / d, eps * math.sqrt(n / 2) / (2 * b * math.sqrt(big_l))
    dphi, m = s_c - s_a, _FLOAT_MARGIN * (s_a + s_c) + 1e-300
    return phi_hi, dphi - m, dphi + m


def _exp_up(y: float) -> float:
    """A float at or above e^y (relative error of math.exp below (1 + |y|) 2^-52), at least the
    smallest positive float."""
    v = math.exp(y) * (1 + _FLOAT_MARGIN * (1 + abs(y)))
    return max(math.nextafter(v, math.inf), 5e-324)


def pure_gamma_sup(alpha: float, eps: float, n: int, beta_found: float, *, product: bool) -> float | None:
    r"""A proven upper bound on the certified γ of every plan whose only stage is ε_n-DP on
    n' records, ε_n >= ``eps`` (1 − 10^-9) and n' >= ``n``, at *any* β: the supremum over β in
    (0, α) of (α − β) 2^{−k(β)}, k the smaller of RRST Thm 1.4a's and 1.4b's bounds
    (``product``, a first stage on i.i.d. data) or Thm 1.4a's alone. Used by the required-n
    search (:func:`gamma_upper_bound`) in place of a slack on the optimiser's γ.

    Proof. The plan's certified k at its β is at least the exact k at its own ε_n and n', which
    is at least the exact k at (ε', n) (RRST Thm 1.4's k grows with ε and n), and its γ is
    (α − β)/2^k rounded down. With k = min(k_a, k_p(β)), (α − β) 2^{−k} = max((α − β) 2^{−k_a},
    (α − β) 2^{−k_p(β)}), so the supremum is the larger of α e^{−ε' n} (k_a ln 2 = ε' n nats;
    β → 0) and the supremum of e^φ, φ(β) = ln(α − β) − ε'² n/2 − ε' sqrt(n L/2), L = ln(2/β).
    φ is concave on (0, α): ln(α − β) is, and sqrt(L) is convex in β where L > 1/2 (its second
    derivative is (2L − 1)/(4 β² L^{3/2})), i.e. for every β < 2 e^{−1/2} > 1 > α. A concave φ
    lies below each tangent, so if φ'(β_L) >= 0 >= φ'(β_R), β_L < β_R: below β_L, φ <= φ(β_L);
    above β_R, φ <= φ(β_R); between them, φ is below both tangents, whose minimum peaks where
    they meet, at height (p q (β_R − β_L) + q φ(β_L) + p φ(β_R))/(p + q), p = φ'(β_L),
    q = −φ'(β_R) (a value that only grows with p, q and the φ's, so their upper enclosures
    give an upper bound). The brackets β* e^{∓h} around the optimiser's ``beta_found`` β*,
    h in :data:`_SUP_BRACKETS`, are tried and the smallest bound kept; None when none brackets
    (the supremum may then lie elsewhere: the caller keeps its slack).

    Floats: α − β is correctly rounded and every other term carries an error below 1e-14 of its
    size, so each quantity is widened by :data:`_FLOAT_MARGIN` relative to its terms' sizes.

    >>> u = pure_gamma_sup(0.05, 1e-3, 10**6, 0.00643, product=True)
    >>> 0.0048562767439 <= u <= 0.0048562767439 * (1 + 1e-8)   # supremum 0.004856276744757 (40 digits)
    True
    >>> pure_gamma_sup(0.05, 0.5, 100, 0.01, product=False) > 0.05 * math.exp(-50)
    True
    """
    e = eps * (1 - _EPS_MARGIN)
    edge = _exp_up(math.log(alpha) - e * n + _FLOAT_MARGIN * (abs(math.log(alpha)) + e * n))  # k_a, beta -> 0
    if not product:
        return edge
    best: float | None = None
    for h in _SUP_BRACKETS:
        b_lo, b_hi = beta_found * math.exp(-h), beta_found * math.exp(h)
        if not 0 < b_lo < b_hi < alpha:
            continue
        f_lo, d_lo, p = _phi(alpha, e, n, b_lo)
        f_hi, q_neg, d_hi = _phi(alpha, e, n, b_hi)
        if d_lo < 0 or d_hi > 0:  # the slopes' signs are not proven
            continue
        q = -q_neg
        w = b_hi - b_lo
        # p > 0 (the upper end of a slope whose lower end is >= 0, plus its margin), q >= 0;
        # the tangents meet inside the bracket, so meet >= f_lo, f_hi but for rounding
        meet = (p * q * w + q * f_lo + p * f_hi) / (p + q)
        y = max(meet, f_lo, f_hi) + _FLOAT_MARGIN * (abs(f_lo) + abs(f_hi) + p * q * w / (p + q))
        u = _exp_up(y)
        best = u if best is None else min(best, u)
    return None if best is None else max(best, edge)


def _dp_stage_curve(
    stage: DPStage, n: int, first: bool, iid: bool, g: DPGuarantee, comp_link: Link, alpha: float
) -> _Curve:
    links = [*stage.links, comp_link]
    if g.delta > 0:

        def kb(b: float) -> Bound:
            return approx_dp_max_information_implied(g.eps, g.delta, n, b)

        def kf(b: float) -> float:
            k = thm31_implied_float_k(g.eps, g.delta, n, b)[0]
            return k if math.isfinite(k) else 1e300

        steps = f"steps[{stage.steps[0]}..{stage.steps[-1]}]"
        if thm31_outside(g.eps, g.delta):
            why = (
                f"{steps} compose to ({g.eps:.4g}, {g.delta:.3g})-DP: RRST Thm 3.1 needs "
                "eps <= 1/2 (fewer runs, more noise, or a smaller per-step eps)"
            )
            hopeless = True  # outside Thm 3.1 at every beta: nothing to optimise
        else:
            # beta >= n (delta' + delta'') >= 4 n sqrt(delta/(1 - e^{-3 eps'})) for every delta_hat
            d_max = 3 * 0.5 * alpha**2 / (16 * n * n)
            why = (
                f"{steps} are ({g.eps:.4g}, {g.delta:.3g})-DP on n = {n} records: RRST Thm "
                "3.1's beta is at least 4 n sqrt(delta/(3 eps')), so delta must be below "
                f"about 3 eps' alpha^2/(16 n^2) for some eps' <= 1/2 (here: delta < "
                f"{d_max:.2g} at alpha = {alpha:g})"
            )
            hopeless = _thm31_beta_floor(n, g.delta) >= alpha
        return _Curve("RRST-3.1", kf, kb, links, unreachable=why, hopeless=hopeless)
    k_any = pure_dp_max_information(g.eps, n)
    if first and iid and g.eps > 0:
        e = g.eps

        def kf2(b: float) -> float:
            return min(float(k_any.k), PURE_DP_PRODUCT.estimate(e, n, b))

        def kb2(b: float) -> Bound:
            prod: Bound = pure_dp_max_information_product(e, n, b)
            return prod if prod.k < k_any.k else k_any

        def sup2(a: float, b: float) -> float | None:
            return pure_gamma_sup(a, e, n, b, product=True)

        return _Curve("RRST-1.4a/1.4b", kf2, kb2, links, gamma_sup=sup2)
    e1 = g.eps

    def sup1(a: float, b: float) -> float | None:
        return pure_gamma_sup(a, e1, n, b, product=False)

    return _Curve("RRST-1.4a", None, lambda b: k_any, links, gamma_sup=sup1)


def _optimise(alpha: float, curves: list[_Curve]) -> list[float]:
    """β per curve maximising log2(α − Σβ) − Σk(β) (float surrogate; the result is certified
    afterwards, so the optimiser needs none). Curves without a β trade-off get β = 0.

    Curves of one family share a variable x (β = x · weight): for description-length stages
    (k = log2 m − log2 β) the Lagrange condition makes every β equal; for mutual-information
    stages (Lemma 1.5's exact curve k = (m + h(β))/β, h(β) = −(1 − β) log2(1 − β) = β log2 e
    − O(β²), so k = m/β + log2 e − O(β)) it makes β proportional to sqrt(m) as β → 0. (The
    weights sqrt(m + 0.54) of the paper's k ≤ (m + 0.54)/β cost a factor 555 in γ on 0.05 and
    2 bits beside a binary output: issue 44's mutation reading.) So at most three variables
    (first DP stage, descriptions, MI stages), whatever the number of stages.
    """
    idx = [i for i, c in enumerate(curves) if c.k_of is not None]
    betas = [0.0] * len(curves)
    if not idx:
        return betas
    fams = sorted({curves[i].family for i in idx})
    fam_of = [fams.index(curves[i].family) for i in idx]
    weights = np.array([curves[i].weight for i in idx])
    wsum = np.array([weights[[j for j, f in enumerate(fam_of) if f == q]].sum() for q in range(len(fams))])

    single = len(idx) == 1
    w0 = float(weights[0])
    k_of0 = curves[idx[0]].k_of

    def obj1(t: np.float64) -> float:
        # one curve: the same float operations as obj's below on scalars, without the small
        # arrays (issue 45: the required-n search of a power plan runs this thousands of times)
        b = np.exp(t) * w0
        rest = alpha - float(b)
        if rest <= 0 or not (np.isfinite(b) and b > 0):
            return 1e300
        assert k_of0 is not None
        return k_of0(float(b)) - math.log2(rest)

    def obj(x: np.ndarray) -> float:
        if single:
            return obj1(np.float64(x[0]))
        xs = np.exp(x)
        bs = xs[fam_of] * weights
        rest = alpha - float(np.sum(bs))
        if rest <= 0 or not np.all(np.isfinite(bs)) or not np.all(bs > 0):
            return 1e300
        tot = 0.0
        for j, i in enumerate(idx):
            k_of = curves[i].k_of
            assert k_of is not None
            tot += k_of(float(bs[j]))
        return tot - math.log2(rest)

    # log(alpha / w): the quotient underflows to 0 for an alpha near the smallest float, where
    # the difference of logs is used instead
    with np.errstate(divide="ignore"):
        x0 = np.log(alpha / (2 * len(fams) * wsum))
    x0 = np.where(np.isfinite(x0), x0, math.log(alpha) - np.log(2 * len(fams) * wsum))
    if len(fams) == 1:
        top = alpha / wsum[0]
        lo = float(x0[0]) - 60
        hi = float(math.log(top) if top > 0 else math.log(alpha) - math.log(wsum[0])) - 1e-9
        cands = [np.array([t]) for t in minimise(lambda t: obj(np.array([t])), lo, hi, grid=13, xatol=1e-4)] + [x0]
    else:
        cands = [minimise_nd(obj, x0, maxiter=400 * len(fams)), x0]
    if fams == [CurveFamily.DESCRIPTION]:
        # only description stages: maximise log(alpha - sum beta) + sum log beta_i exactly,
        # beta_i = alpha / (m + 1) (DFHPRR Thm 6's beta = alpha/2 for one stage)
        share = alpha / (len(idx) + 1)
        cands.append(np.array([math.log(share) if share > 0 else math.log(alpha) - math.log(len(idx) + 1)]))
    best = min(cands, key=obj)
    for j, i in enumerate(idx):
        betas[i] = float(math.exp(best[fam_of[j]]) * weights[j])
    return betas


class _Certified(NamedTuple):
    """The certified outcome of one β split: γ, the composed bound, each stage's bound."""

    gamma: float
    total: Bound
    bounds: list[Bound]


def _certify(alpha: float, curves: list[_Curve], betas: list[float]) -> _Certified:
    # (a fixed curve, k_of None, ignores its beta: RRST Thm 1.4a's bound)
    bounds = [c.bound(b) for c, b in zip(curves, betas)]
    total = compose_max_information(bounds)
    return _Certified(pvalue_correction(alpha, total.k, total.beta), total, bounds)


def _maxinfo_route(
    study: Study,
    stages: list[Stage],
    first_dp: DPGuarantee | None,
    first_link: Link | None,
    name: str,
    sups: list[float] | None = None,
) -> PlanResult | str:
    curves: list[_Curve] = []
    for j, s in enumerate(stages):
        if isinstance(s, DPStage):
            if j == 0 and first_dp is not None and first_link is not None:
                g, link = first_dp, first_link
            elif (exact := _own_exact(s)) is not None:  # Gaussian steps: exactly, at their own delta
                g, link = exact
            else:
                g = s.basic()
                link = Link(
                    "DP composition of the stage",
                    ("DR-3.16",),
                    f"{s.count} adaptive run{'s' if s.count != 1 else ''}",
                    f"({text_up(g.eps)}, {text_up(g.delta)})-DP",
                    g.conditions,
                )
            if g.delta > 0 and (j > 0 or not study.iid):
                first_step = s.steps[0]
                prev = stages[j - 1].steps[-1] if j > 0 else 0
                why = (
                    "the data are not i.i.d. (set data.iid = true only if the records are i.i.d.)"
                    if not study.iid
                    else f"it follows steps[{prev}] ({study.steps[prev].type_name}), whose output "
                    "the analysis conditions on"
                )
                return (
                    f"steps[{first_step}] is approximate DP: RRST Thm 3.1 bounds its "
                    f"max-information only for i.i.d. data and as the first stage "
                    f"(RRST §4, Thm 4.1), but {why}"
                )
            curves.append(_dp_stage_curve(s, study.n, j == 0, study.iid, g, link, study.alpha))
        elif isinstance(s, DescriptionStage):
            m = s.range_size

            def kf(b: float, m: int = m) -> float:
                return math.log2(m) - math.log2(b)

            def kb_d(b: float, m: int = m) -> Bound:
                bd: Bound = description_length_max_information(m, b)
                return bd

            curves.append(_Curve("DFHPRR-6", kf, kb_d, list(s.links), family=CurveFamily.DESCRIPTION))
        else:
            mi = s.mi_bits

            # parametrised by beta through the exact curve of Lemma 1.5's proof:
            # k(beta) = (m - (1 - beta) log2(1 - beta)) / beta (never above (m + 0.54)/beta)
            def kf_mi(b: float, mi: float = mi) -> float:
                return mi_k_float(mi, b)

            def kb_mi(b: float, mi: float = mi) -> Bound:
                bd: Bound = mi_to_approx_max_information(mi, float_up(mi_k_float(mi, b)) if b > 0 else 1e300)
                return bd

            curves.append(
                _Curve(
                    "RRST-1.5a",
                    kf_mi,
                    kb_mi,
                    list(s.links),
                    family=CurveFamily.MI,
                    weight=math.sqrt(max(mi, _MI_WEIGHT_FLOOR)),
                )
            )
    if hopeless := [c.unreachable for c in curves if c.hopeless]:
        return "; ".join(hopeless)
    betas = _optimise(study.alpha, curves)
    stuck = [c for c, b in zip(curves, betas) if c.k_of is not None and c.k_of(b) >= 1e299]
    if stuck:
        return "; ".join(c.unreachable or f"{c.name}: no beta below alpha reachable" for c in stuck)
    try:
        gamma, total, bounds = _certify(study.alpha, curves, betas)
    except (InvalidParameter, RegimeError) as exc:
        return f"not certifiable: {exc}"
    if sups is not None:  # gamma_upper_bound: the route's gamma at any beta split
        sup = None
        if len(curves) == 1 and curves[0].gamma_sup is not None:
            sup = curves[0].gamma_sup(study.alpha, betas[0])
        sups.append(max(sup, gamma) if sup is not None else gamma * (1 + OPTIMISER_SLACK))
    chain: list[Link] = []
    for c, b in zip(curves, bounds):
        chain.extend(c.links)
        chain.append(
            Link(
                "max-information of the stage",
                (b.theorem,),
                f"beta={text_up(b.beta)}",
                f"k <= {text_up(b.k)} bits",
                b.conditions + (("product inputs: first stage, i.i.d. data",) if b.product_only else ()),
            )
        )
    chain.append(
        Link(
            "composition over stages",
            ("RRST-A.3",),
            f"{len(bounds)} stage{'s' if len(bounds) != 1 else ''}",
            f"k = {text_up(total.k)} bits, beta = {text_up(total.beta)}",
            ("only the first stage product-only",),
        )
    )
    chain.append(
        Link(
            "p-value correction",
            ("RRST-1.3",),
            f"alpha={study.alpha!r}",
            f"gamma = {text_down(gamma)}",
            ("gamma = (alpha - beta) / 2^k, rounded down",),
        )
    )
    return PlanResult(study.name, study.alpha, gamma, total.k, total.beta, name, tuple(chain), ())


def _own_exact(s: DPStage) -> tuple[DPGuarantee, Link] | None:
    """An all-Gaussian stage composed exactly (GDP) at the total of its runs' own deltas (None
    for other stages, or when that total reaches 1/2)."""
    if not s.gaussian:
        return None
    own = exact_sum((r.count, r.delta) for r in s.runs)
    return best_composition(s.runs, float_up(own), False) if own < Fraction(1, 2) else None


def _mi_route(study: Study, stages: list[Stage]) -> PlanResult | str:
    total = Fraction(0)
    chain: list[Link] = []
    for s in stages:
        if isinstance(s, DPStage):
            if not s.pure:
                return "an approximate-DP stage has no mutual-information bound here"
            g = s.basic()
            k = pure_dp_max_information(g.eps, study.n).k
            if not math.isfinite(k):  # eps n log2 e beyond the floats: alpha 2^-k is 0
                return (
                    f"steps[{s.steps[0]}..{s.steps[-1]}] are {text_up(g.eps)}-DP on n = {study.n} records: "
                    "I <= eps n log2 e is beyond the floats, no positive threshold"
                )
            chain += [
                *s.links,
                Link(
                    "MI of the stage",
                    ("DR-3.16", "RRST-1.4a"),
                    f"eps={text_up(g.eps)}, n={study.n}",
                    f"I <= I_inf <= {text_up(k)} bits",
                ),
            ]
            total += Fraction(k)
        elif isinstance(s, DescriptionStage):
            m = float_up(Fraction(math.log2(s.range_size)) * (1 + Fraction(1, 2**50)))
            chain += [
                *s.links,
                Link(
                    "MI of the stage",
                    ("entropy",),
                    f"range {int_text(s.range_size)}",
                    f"I <= log2(range) <= {text_up(m)} bits",
                ),
            ]
            total += Fraction(m)
        else:
            chain += s.links
            total += Fraction(s.mi_bits)
    m_tot = float_up(total)
    choice = mi_pvalue_choice(study.alpha, m_tot)
    gamma = choice.gamma
    how = (
        ("paper closed form",)
        if choice.k is None or choice.beta is None
        else (f"optimal variant: k = {text_up(choice.k)} bits, beta*(k) <= {text_up(choice.beta)}",)
    )
    theorem = "RRST-C.2"
    # Russo-Zou's bound (RRST Thm C.3) needs the same hypothesis, I(X; A(X)) <= m, and gives
    # the larger threshold below about 0.01 bits at alpha = 0.05 (RRST App. C's claim that
    # Cor C.2 always wins holds only from about 0.1 bits: docs/errata.md)
    rz = russo_zou_pvalue_correction(study.alpha, m_tot)
    if rz > gamma:
        gamma, theorem = rz, "RRST-C.3"
        how = (
            f"Russo-Zou: the largest gamma with gamma + sqrt(m ln 2/ln(1/(2 gamma))) <= alpha "
            f"(Cor C.2 gives {text_down(choice.gamma)} here)",
        )
    chain.append(
        Link(
            "chain rule and correction",
            (theorem,),
            f"I <= {text_up(m_tot)} bits",
            f"gamma = {text_down(gamma)}",
            how,
        )
    )
    return PlanResult(study.name, study.alpha, gamma, None, None, "mutual information", tuple(chain), ())


# KOV's composed eps does not depend on n: cached, so sweeps and the required-n search over n
# pay for it once
@lru_cache(maxsize=256)
def _kov_float(e: float, d: float, runs: int, dt: float) -> float:
    return kov_eps_float(e, d, runs, dt)


#: total δ at which the tight composition of the first DP stage is tried
DELTA_GRID = (1e-12, 1e-20, 1e-30)
#: with Gaussian steps (whose exact accountants are cheap), also every decade from 1e-4 to
#: 1e-11 (where small studies need their total delta) and every second decade from 1e-12 to
#: 1e-40: a fixed grid, no point depends on the steps' own deltas; only the best is listed
EXACT_DELTA_GRID = tuple(10.0**-j for j in (*range(4, 12), *range(12, 41, 2)))
#: the betas (as fractions of alpha) at which the fine grid's points are ranked
_RANK_BETAS = (0.5, 0.99)
#: and the few refined points of a stage (:func:`_refined_total_deltas`); also 0.9 for the
#: points kept and for total deltas near the edge where RRST Thm 3.1's beta must approach
#: alpha, where the best point often is (issue 44's corpus: a mixed stage lost 12% without it)
_REFINE_BETAS = (0.35, 0.5, 0.65)
_EDGE_BETAS = (0.9,)
#: a grid point no ranking beta reaches (RRST Thm 3.1's float k infinite at both)
_UNRANKED_NOTE = "no reachable beta found at alpha/2 or 0.99 alpha (RRST Thm 3.1's float bound): not planned in full"
#: the floor of a mutual-information stage's weight sqrt(m) in the beta optimiser (a stage of
#: m = 0 bits costs log2 e bits as beta -> 0, so it gets an all but zero share of beta)
_MI_WEIGHT_FLOOR = 1e-300
#: the tight (advanced / optimal) composition of the first stage is tried up to this many runs
TIGHT_MAX_RUNS = 10_000


def _k_floor(study: Study, eps: float) -> float:
    """RRST Thm 3.1's k at a stage of composed ``eps`` is at least n c (e^{6 eps} - 1) + c t
    sqrt(n), c = 6 eps log2 e, t >= sqrt(2 ln(1/alpha)) (see :func:`_pruned`); increasing in
    eps."""
    c6 = 6 * eps * LOG2E
    return study.n * c6 * math.expm1(6 * eps) + c6 * math.sqrt(2 * math.log(1 / study.alpha)) * math.sqrt(study.n)


def _eps_prune_reason(study: Study, eps: float, results: list[PlanResult]) -> str | None:
    """Why RRST Thm 3.1 at a stage of composed ``eps`` cannot win (see :func:`_pruned`), by the
    rules that only grow with eps (so that a total delta whose eps is the smallest on offer
    fails them only if every other one does): eps > 1/2, no positive threshold, cannot beat the
    best route found. None when none applies. ``eps`` is at most the stage's composed eps (a
    float estimate shrunk by 0.1 %, or a certified value), so each reason says "at least"."""
    if eps > THM31_EPS_MAX:
        return f"composed eps >= {text_up(eps)} > 1/2: outside RRST Thm 3.1"
    k_floor = _k_floor(study, eps)
    if k_floor > 1075 + math.log2(study.alpha):
        return f"cannot give a positive threshold: k >= {k_floor:.4g} bits"
    best_g = max((r.gamma for r in results), default=0.0)
    if best_g > 0 and study.alpha * 2.0 ** (-k_floor) * (1 + 1e-9) < best_g:
        return f"cannot beat the best route: k >= {k_floor:.4g} bits"
    return None


def _pruned(study: Study, eps: float, results: list[PlanResult], cands: list[Candidate], dt: float) -> bool:
    """Skip an RRST Thm 3.1 route that cannot beat the best route found so far.

    Thm 3.1's k >= n c (e^{6 eps} - 1) + c t sqrt(n), c = 6 eps log2 e, and t >=
    sqrt(2 ln(1/alpha)) since beta >= e^{-t^2/2} must stay below alpha; no route gives gamma above
    alpha 2^-k. (With a float estimate of eps, shrunk by 0.1%, this is only a time saver: skipping
    a route never makes the returned gamma invalid.)
    """
    why = (
        f"delta too large for n = {study.n}: RRST Thm 3.1's beta >= 2 n sqrt(delta) "
        f"= {2 * study.n * math.sqrt(dt):.3g} >= alpha"
        if eps <= THM31_EPS_MAX and _thm31_beta_floor(study.n, dt) >= study.alpha
        else _eps_prune_reason(study, eps, results)
    )
    if why is None:
        return False
    cands.append(Candidate(_tight_candidate(dt), None, why))
    return True


def _continuous_total_delta(
    study: Study, s0: DPStage, floor: Fraction, classic: bool, kov: tuple[float, float] | None
) -> tuple[float, float] | None:
    """(score, total delta) minimising RRST Thm 3.1's float score (:func:`_rank_score`) over
    every total delta above ``floor`` (what the stage's runs use), searched continuously in log
    delta (a 16-point grid, then Brent to 10^-3 in log delta): the tight route's total delta for
    a stage with approximate-DP runs. The candidate set no longer depends on the runs' own
    deltas (the points 2x and 10x what they use, before), so a weaker step can only shrink the
    interval and raise each point's eps: gamma is monotone in every step's delta up to the
    search's tolerance (issue 46). The stage's eps at each point: KOV's float root for equal
    runs (``kov`` = (eps, delta) of each), else the certified best accountant (cached). (Stages
    with Gaussian runs rank the fixed grid EXACT_DELTA_GRID instead, also independent of the
    runs' deltas.)"""
    lo = float_up(floor) * (1 + 2.0**-20)
    # RRST Thm 3.1 needs beta >= 2 n sqrt(delta) below alpha: delta < (alpha / 2n)^2
    hi = min(0.49, (study.alpha / (2 * study.n)) ** 2)
    if not (0 < lo < hi):
        return None

    def score(x: float) -> float:
        dt = math.exp(x)
        if kov is not None:
            e = _kov_float(kov[0], kov[1], s0.count, dt)
        else:
            comp = best_composition(s0.runs, dt, s0.count <= TIGHT_MAX_RUNS)
            e = comp[0].eps if comp is not None else math.inf
        if not 0 < e <= THM31_EPS_MAX:
            return 1e300
        s = _rank_score(study, e, dt)
        return s if math.isfinite(s) else 1e300

    xs = minimise(score, math.log(lo), math.log(hi), grid=16, xatol=1e-3)
    if not xs:
        return None
    x = min(xs, key=score)
    s = score(x)
    return None if s >= 1e300 else (s, math.exp(x))


#: the fine total deltas of a Gaussian stage's refinement: 10^(j/8), j an integer (a fixed
#: set: no point depends on the steps' own deltas)
FINE_PER_DECADE = 8


_Ranked = list[tuple[float, float, tuple[DPGuarantee, Link] | None]]


def _refined_total_deltas(study: Study, eps_of: Callable[[float], float | None], coarse: _Ranked) -> _Ranked:
    """At most two ranked points between the coarse grid's points for a stage whose eps has a
    float estimate (``eps_of``, :func:`_eps_estimator`: Gaussian, mixed and pure stages):
    a golden-section search over the fine set 10^(j/8) strictly between the best coarse point's
    two neighbours on the grid (RRST Thm 3.1's float score, :func:`_rank_score`, at
    :data:`_REFINE_BETAS`, with eps interpolated), then the best two fine points scored at their
    own eps, kept where they beat the best grid point scored the same way. A neighbour may be a
    grid point no route reaches (beta >= alpha, or eps > 1/2): the best total delta is often just
    below that edge. The coarse grid alone lost up to a factor 2 in gamma (one bit) on Gaussian
    stages and a factor 8 on a mixed pure-and-Gaussian stage whose best point was the grid's last
    (issue 44's planner corpus). Returned as (score, delta, None): certified only if chosen.
    (Not used by the required-n search, whose proof covers the coarse grid only.)"""
    pts = sorted((math.log10(dt), sc) for sc, dt, _ in coarse if math.isfinite(sc))
    if not pts:
        return []
    i = min(range(len(pts)), key=lambda j: pts[j][1])
    x_best = pts[i][0]
    # the best point's neighbours on the whole grid (whether or not a route reached them)
    grid = sorted({math.log10(x) for x in EXACT_DELTA_GRID + DELTA_GRID if x < 0.5} | {p[0] for p in pts})
    g = grid.index(x_best)
    if not 0 < g < len(grid) - 1:  # refined only between two grid points
        return []
    f = FINE_PER_DECADE
    lo, hi = round(grid[g - 1] * f) + 1, round(grid[g + 1] * f) - 1
    have = {round(x * f) for x in grid}
    memo: dict[tuple[int, bool], float] = {}
    # during the search, eps(delta) by quadratic interpolation in log delta through the best
    # point and its grid neighbours (the curve is smooth there; one float root costs about
    # 1 ms); the points kept are scored at their own eps
    xs = [grid[g - 1], x_best, grid[g + 1]]
    es = [eps_of(10.0**x) for x in xs]

    def eps_at(j: int, exact: bool) -> float | None:
        x = j / f
        e0, e1, e2 = es
        if exact or e0 is None or e1 is None or e2 is None:
            return eps_of(10.0**x)
        (x0, x1, x2) = xs
        return (
            e0 * (x - x1) * (x - x2) / ((x0 - x1) * (x0 - x2))
            + e1 * (x - x0) * (x - x2) / ((x1 - x0) * (x1 - x2))
            + e2 * (x - x0) * (x - x1) / ((x2 - x0) * (x2 - x1))
        )

    def score(j: int, final: bool = False) -> float:
        if (j, final) not in memo:
            dt = 10.0 ** (j / f)
            e_est = eps_at(j, final) if _thm31_beta_floor(study.n, dt) < study.alpha else None
            ok = e_est is not None and 0 < e_est <= THM31_EPS_MAX and dt < 0.5
            sc = math.inf
            if ok and e_est is not None:
                # beta >= 4 n sqrt(delta/(3 eps)) (about; see _dp_stage_curve's refusal): near
                # the edge where it approaches alpha the best beta does too, scored at 0.9 alpha
                near_edge = 4 * study.n * math.sqrt(dt / (3 * e_est)) > 0.3 * study.alpha
                betas = _REFINE_BETAS + _EDGE_BETAS if near_edge or final else _REFINE_BETAS
                sc = _rank_score(study, e_est, dt, betas, 96 if final else 24)
            memo[(j, final)] = sc if math.isfinite(sc) else math.inf
        return memo[(j, final)]

    j_best = round(x_best * f)
    # golden section on the integers of [lo, hi] (the score is unimodal near its minimum)
    # (no route reaches total deltas on the far side of an edge: where both probes are there,
    # the minimum is on the best grid point's side; no route is on both sides of it)
    a, b = lo, hi
    while b - a > 3:
        c = b - round(0.618 * (b - a))
        d = a + round(0.618 * (b - a))
        if c >= d:
            break
        sc, sd = score(c), score(d)
        if sc == sd == math.inf:
            if j_best < c:
                b = c
            elif j_best > d:
                a = d
            else:
                a, b = c, d
        elif sc <= sd:
            b = d
        else:
            a = c
    near = sorted((j for j in range(a, b + 1) if j not in have), key=score)[:2]
    # kept only where better than the best grid point scored the same way (by 0.001 bits): a
    # point that is not costs a certification and cannot win
    bar = score(j_best, True) - 1e-3
    out: list[tuple[float, float, tuple[DPGuarantee, Link] | None]] = []
    for j in near:
        sc = score(j, True)
        if sc < bar:
            out.append((sc, 10.0 ** (j / f), None))
    return sorted(out, key=lambda p: p[0])


def _eps_estimator(s0: DPStage, classic: bool) -> Callable[[float], float | None] | None:
    """A float estimate of a stage's composed eps at a total delta, for ranking total deltas
    (never certified: a chosen point is certified by :func:`best_composition`): the GDP curve
    (Gaussian runs only; exact), KOV's float root (identical pure runs, at most
    :data:`TIGHT_MAX_RUNS`; exact), else the exact mixed curve's float root (pure and Gaussian
    runs, within its pattern cap); the zCDP conversion beside them for bounded-range runs (it
    can beat the pure-DP curve there) or where neither applies. None for runs with an
    approximate-DP delta."""
    if s0.gaussian:
        mu = composed_mu(s0.runs)
        return lambda dt: gdp_epsilon_estimate(mu, dt)
    pure: Counter[float] = Counter()
    for r in s0.runs:
        if r.mu is None:
            if r.delta != 0:
                return None
            pure[r.eps] += r.count
    gauss = any(r.mu is not None for r in s0.runs)
    mu = composed_mu(s0.runs) if gauss else 0.0
    # bounded-range runs (the exponential mechanism) can do better in zCDP than any pure-DP
    # accountant; otherwise the exact curve (KOV's for one eps, the mixed one else) is optimal
    br = any("CR21-BR" in r.theorems for r in s0.runs)
    fs: list[Callable[[float], float | None]] = []
    if not gauss and classic and len(pure) == 1 and not br:
        (e0,) = pure
        fs.append(lambda dt: _kov_float(e0, 0.0, s0.count, dt))
    elif pattern_count(pure) <= MIXED_MAX_PATTERNS and mu <= MU_MAX:
        fs.append(lambda dt: mixed_epsilon_estimate(pure, mu, dt))
    if (br or not fs) and all(r.rho is not None for r in s0.runs):
        rho = math.fsum(r.count * float(r.rho or 0.0) for r in s0.runs)
        fs.append(lambda dt: _cks_float(rho, dt, zcdp_order(rho, dt) - 1) if rho > 0 else None)
    if not fs:
        return None

    def est(dt: float) -> float | None:
        vals = []
        for fn in fs:
            try:
                v = fn(dt)
            except (InvalidParameter, RegimeError, ValueError, OverflowError):
                v = None
            if v is not None and math.isfinite(v):
                vals.append(max(v, 0.0))
        return min(vals) if vals else None

    return est


def _tight_candidate(dt: float) -> str:
    """The candidate name of the tight first-stage route at total delta ``dt``."""
    return f"DP first stage at delta={text_up(dt)} (RRST-3.1)"


def _tight_route(dt: float) -> str:
    """The route name of the tight first-stage route at total delta ``dt``."""
    return f"tight DP composition (delta={text_up(dt)}) then RRST Thm 3.1"


def _rank_score(
    study: Study, eps: float, dt: float, betas: tuple[float, ...] = _RANK_BETAS, dhat_grid: int = 24
) -> float:
    """RRST Thm 3.1's float -log2 gamma at a few betas (fractions of alpha) for a first stage
    (eps, dt): the cheap score the ranked total deltas are ordered by."""
    a = study.alpha
    return min(
        thm31_implied_float_k(eps, dt, study.n, b, dhat_grid=dhat_grid)[0] - math.log2(a - b)
        for b in (f * a for f in betas)
    )


def plan(study: Study, *, exhaustive: bool = False, refine: bool = True) -> PlanResult:
    """The largest certified γ(α) over every valid route, with its derivation (see module doc).

    ``exhaustive``: plan every point of the fine total-delta grid in full instead of the two
    that rank best (slower; the required-n search's bounds use it, so that their route set
    contains every route a plan at any n of the interval tries). ``refine``: for a Gaussian
    first stage, also rank total deltas between the grid's points (:func:`_refined_total_deltas`;
    the required-n search plans without it, on the fixed grid its proof covers)."""
    if not isinstance(study, Study):
        raise InvalidParameter("study", study, "a Study (see load_study / parse_study)")
    return _plan(study, exhaustive, refine, None)


def gamma_upper_bound(study: Study) -> float:
    """An upper bound on the γ a plan (``refine=False``) of any study the exhaustive plan of
    ``study`` dominates can certify: the largest, over every route the exhaustive plan
    evaluates, of a proven bound on that route's γ at every β split where one is available
    (one pure-DP stage: :func:`pure_gamma_sup`), else the route's optimised γ times
    1 + :data:`OPTIMISER_SLACK` (the optimiser's tolerance); routes pruned by a floor on their
    k are below the best γ found. Raises :class:`NoValidRoute` like :func:`plan`. The
    required-n search of :mod:`~maxinfo_bounds.planning.recommend` bounds the power over an
    interval of n with it (on :func:`~maxinfo_bounds.planning.recommend.relaxed_study`)."""
    sups: list[float] = []
    best = _plan(study, True, True, sups)
    return max([best.gamma, *sups])


def _plan(study: Study, exhaustive: bool, refine: bool, sups: list[float] | None) -> PlanResult:
    """:func:`plan`; with ``sups``, each evaluated route's bound on its γ at any β split is
    appended to it (:func:`gamma_upper_bound`)."""
    stages = stages_of(study)
    cands: list[Candidate] = []
    results: list[PlanResult] = []

    def consider(name: str, out: PlanResult | str) -> None:
        """A route's outcome: its certified plan, or why it is unavailable."""
        if isinstance(out, str):
            cands.append(Candidate(name, None, out))
        else:
            cands.append(Candidate(name, out.gamma, ""))
            results.append(out)

    consider(
        "max-information composition", _maxinfo_route(study, stages, None, None, "max-information composition", sups)
    )
    s0 = stages[0]
    if isinstance(s0, DPStage) and study.iid and s0.count > TIGHT_MAX_RUNS:
        cands.append(
            Candidate(
                "tight DP composition of the first stage",
                None,
                f"advanced and optimal (KOV) composition skipped: more than {TIGHT_MAX_RUNS} runs "
                "(GDP, the exact mixed accountant and zCDP still apply to Gaussian, pure-DP and zCDP steps)",
            )
        )
    if isinstance(s0, DPStage) and study.iid and (s0.count > 1 or any(r.mu is not None for r in s0.runs)):
        classic = s0.count <= TIGHT_MAX_RUNS
        used = exact_sum((r.count, r.delta) for r in s0.runs)
        # the exact accountants (GDP, mixed) do not use a Gaussian run's delta: it is only the
        # point of its curve the study file shows, so those runs do not raise the grid's floor
        used_non_gauss = exact_sum((r.count, r.delta) for r in s0.runs if r.mu is None)
        same = len({r.key for r in s0.runs}) == 1
        exact_kov = same and all(r.mu is None and "CR21-BR" not in r.theorems for r in s0.runs)
        # total delta: the fixed grid above what the steps use; with approximate-DP runs that
        # are not Gaussian, the best total delta searched continuously (_continuous_total_delta);
        # with Gaussian runs, the fine fixed grid ranked below. No candidate depends on the
        # runs' own deltas (the points 2x and 10x what they use, and each Gaussian step's own
        # delta, before), so gamma is monotone in every step's delta (issue 46)
        dts = {dt for dt in DELTA_GRID if Fraction(dt) > used_non_gauss}
        continuous = used_non_gauss > 0
        extra: set[float] = set()
        # with Gaussian runs (whose exact accountants are cheap) every total delta is ranked by
        # RRST Thm 3.1's float bound and only the best one or two are planned in full
        rank_all = any(r.mu is not None for r in s0.runs)
        if rank_all:
            if s0.count == 1:  # one Gaussian step (no tight route before): no note per point
                dts = set()
            if s0.gaussian:  # the max-information route composes them exactly at their own delta
                dts.discard(float_up(used))
            extra = {x for x in EXACT_DELTA_GRID + DELTA_GRID if _thm31_beta_floor(study.n, x) < study.alpha} - dts
        # a float estimate of the stage's eps (ranking only), for the refinement between the
        # grid's points, and for pure runs also the rest of the fine grid: the three points of
        # DELTA_GRID alone lost up to a factor 2.3 in gamma on zCDP (bounded-range) stages
        # (issue 44's planner corpus). Not in the required-n search (refine=False), whose proof
        # covers the coarse grid only
        eps_of = _eps_estimator(s0, classic) if refine and not exhaustive else None
        pure_ranked = eps_of is not None and not rank_all and not continuous
        if pure_ranked and eps_of is not None:
            extra = {x for x in EXACT_DELTA_GRID if _thm31_beta_floor(study.n, x) < study.alpha} - dts
            # the composed eps falls as delta grows: where the largest delta cannot win, none can
            e_min = eps_of(max(extra | dts)) if extra | dts else None
            if e_min is not None and _eps_prune_reason(study, e_min * 0.999, results) is not None:
                extra, eps_of, pure_ranked = set(), None, False
        # the grid points planned in full, scored for the refinement's bracket
        planned_scores: list[tuple[float, float, tuple[DPGuarantee, Link] | None]] = []
        # (score, total delta, its certified composition if already computed)
        mu_stage = composed_mu(s0.runs) if s0.gaussian else math.nan  # read at every fine point
        fine: list[tuple[float, float, tuple[DPGuarantee, Link] | None]] = []
        if continuous:
            kov = (s0.runs[0].eps, s0.runs[0].delta) if exact_kov and classic else None
            best_dt = _continuous_total_delta(study, s0, used_non_gauss, classic, kov)
            if best_dt is not None:
                fine.append((best_dt[0], best_dt[1], None))
            else:
                cands.append(
                    Candidate(
                        "tight DP composition of the first stage",
                        None,
                        f"no total delta above what the steps use ({text_up(float_up(used_non_gauss))}) gives "
                        "a composed eps <= 1/2 with RRST Thm 3.1's beta below alpha (searched continuously)",
                    )
                )
        for dt in sorted(x for x in dts | extra if x < 0.5):
            quiet = dt in extra
            if exact_kov and classic:  # KOV is the exact optimum here: its float eps prunes
                e0, d0 = s0.runs[0].eps, s0.runs[0].delta
                if _pruned(study, _kov_float(e0, d0, s0.count, dt) * 0.999, results, [] if quiet else cands, dt):
                    continue
            if quiet and (s0.gaussian or pure_ranked) and not exhaustive:
                # a fine-grid point of a Gaussian (or pure) stage: ranked on the float eps,
                # certified only if chosen (below)
                e_est = gdp_epsilon_estimate(mu_stage, dt) if s0.gaussian else eps_of(dt) if eps_of else None
                if e_est is None or e_est == 0 or e_est > THM31_EPS_MAX:
                    continue
                if _pruned(study, e_est * 0.999, results, [], dt):
                    continue
                score = _rank_score(study, e_est, dt)
                if math.isfinite(score):
                    fine.append((score, dt, None))
                continue
            comp = best_composition(s0.runs, dt, classic)
            if comp is None:
                continue
            g, link = comp
            name = _tight_candidate(dt)
            if g.eps == 0:  # delta_total already covers the whole privacy curve
                if not quiet:
                    cands.append(Candidate(name, None, "composed eps is 0: RRST Thm 3.1 needs eps > 0"))
                continue
            if g.eps > THM31_EPS_MAX:  # outside RRST Thm 3.1
                if not quiet:
                    cands.append(Candidate(name, None, f"composed eps {text_up(g.eps)} > 1/2: outside RRST Thm 3.1"))
                continue
            if rank_all:  # Gaussian runs: every total delta ranked, only the best planned in full
                if _pruned(study, g.eps, results, [] if quiet else cands, dt):
                    continue
                score = 0.0 if exhaustive else _rank_score(study, g.eps, dt)
                if math.isfinite(score):
                    fine.append((score, dt, comp))
                elif not quiet:
                    # (a ranking judgement, not a proof: a beta in the window below alpha the two
                    # probes miss may exist, with a gamma of the order 2^-(10^5) at n = 10^4)
                    cands.append(Candidate(name, None, _UNRANKED_NOTE))
                continue
            if _pruned(study, g.eps, results, cands, dt):
                continue
            if pure_ranked:
                planned_scores.append((_rank_score(study, g.eps, dt), dt, comp))
            consider(name, _maxinfo_route(study, stages, g, link, _tight_route(dt), sups))
        # between the grid's points, the best one or two of a local search (scored at other
        # betas, so ranked apart from the grid's points: the best grid point is planned too)
        refined = _refined_total_deltas(study, eps_of, fine + planned_scores) if eps_of is not None else []
        # the ranked points (RRST Thm 3.1's float -log2 gamma at a few betas, cheap): the best,
        # and the second if within 2 bits, planned in full and the better listed (a ranking error
        # costs tightness, never soundness: every route listed is certified). Exhaustive: every
        # point, smallest eps first, each skipped only when RRST Thm 3.1's k floor shows it
        # cannot beat the best found (a proof, not a heuristic)
        best_extra: tuple[str, PlanResult] | None = None
        ranked = sorted(fine, key=lambda f: f[0])
        leaders = ranked[:1] + [f for f in ranked[1:2] if f[0] <= ranked[0][0] + 2]
        top = leaders + refined
        for _, dt, chosen in sorted(fine, key=lambda f: f[2][0].eps if f[2] else 0.0) if exhaustive else top:
            comp = chosen if chosen is not None else best_composition(s0.runs, dt, classic)
            if comp is None:
                continue
            g, link = comp
            if g.eps == 0 or g.eps > THM31_EPS_MAX:  # (the float estimate ranked it; certified, it is out)
                continue
            if exhaustive and _pruned(study, g.eps, results + ([best_extra[1]] if best_extra else []), [], dt):
                continue
            out = _maxinfo_route(study, stages, g, link, _tight_route(dt), sups)
            if isinstance(out, PlanResult) and (best_extra is None or out.gamma > best_extra[1].gamma):
                best_extra = (_tight_candidate(dt), out)
        if best_extra is not None:
            consider(*best_extra)
        if not exhaustive and len(ranked) > len(leaders):
            # (the refined points are not among the ranked ones: counting them here hid as
            # many ranked points from the note, issue 44's mutation reading)
            rest = sorted(f[1] for f in ranked[len(leaders) :])
            cands.append(
                Candidate(
                    "tight DP composition at the other total deltas",
                    None,
                    f"{len(rest)} more total deltas in [{text_up(rest[0])}, {text_up(rest[-1])}] ranked below "
                    "the best by RRST Thm 3.1's float bound: not planned in full",
                )
            )
    if all(isinstance(st, DPStage) and st.pure for st in stages) and results:
        # I <= I_inf <= k (Thm 1.4a) gives Cor C.2 a k' > k and a beta > 0, so the MI route's
        # gamma is below alpha 2^-k, which the max-information route already reaches
        cands.append(
            Candidate(
                "mutual information",
                None,
                "dominated: every stage is pure DP, whose RRST Thm 1.4a bound the max-information route uses directly",
            )
        )
    else:
        mi = _mi_route(study, stages)
        if sups is not None and isinstance(mi, PlanResult):
            sups.append(mi.gamma * (1 + OPTIMISER_SLACK))
        consider("mutual information", mi)
    if not results:
        raise NoValidRoute(study.source, tuple(cands))
    best = max(results, key=lambda r: r.gamma)
    notes = tuple(c.note for c in cands if c.note and c.gamma is None)
    return replace(best, candidates=tuple(cands), notes=notes)
