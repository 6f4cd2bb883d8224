r"""Proved limits of the Gaussian reuse routes' extremes: no setting does better than this.

The estimation planner (:mod:`.estimate`) finds, for each route, the largest number of queries
k that meets a half-width T at coverage C, and the smallest n for (k, T), by certifying the
settings (noise, eps, the split of the failure probability) a float optimiser chose. That
shows the answer is *achievable*; it does not show that no other setting achieves more. This
module proves the other side for the two Gaussian routes, by a certified branch and bound over
every setting:

* **JLNRSS** (Gaussian noise, the JLNRSS transfer theorem; :func:`jlnrss_refuted`). With total
  GDP parameter mu (sigma = sqrt(k)/(n mu), Dong-Roth-Su Cor. 3.3), eps > 0, the sample
  accuracy's failure beta in (0, F), F = 1 - C, and the best c, d > 0 with beta/c + delta/d <= F
  (c + 2d = (sqrt(beta) + sqrt(2 delta))^2 / F, Cauchy-Schwarz), the route's exact half-width is

  .. math:: h(\mu, \varepsilon, \beta) = \frac{\sqrt{k}}{n\mu}\, z_k(\beta) + (e^{\varepsilon} - 1)
            + \frac{\bigl(\sqrt{\beta} + \sqrt{2\,\delta_\mu(\varepsilon)}\bigr)^2}{F}

  where z_k(beta) solves (2 Phi(z) - 1)^k = 1 - beta (the exact sample accuracy) and
  delta_mu(eps) is the exact GDP curve (Cor. 2.13: any (eps, delta) the mechanism satisfies has
  delta >= delta_mu(eps), and a larger delta only widens h). Each term is monotone in each
  variable (z_k falls in beta; delta_mu rises in mu and falls in eps), so on a box
  [mu1, mu2] x [eps1, eps2] x [beta1, beta2] the half-width is at least
  sqrt(k) z_k(beta2)/(n mu2) + (e^eps1 - 1) + (sqrt(beta1) + sqrt(2 delta_mu1(eps2)))^2 / F.
* **BNSSSU** (Gaussian noise, RRST Thm B.2; :func:`bnsssu_refuted`): h = sqrt(k) z_k(beta)/(n mu)
  + 18 eps with beta = F - delta/eps (the union bound of the two failures; RRST B.2's own
  conditions only shrink the set searched, so they are left out of the bound: a lower bound
  over a larger set). delta_mu(eps)/eps falls in eps, so on a box the half-width is at least
  sqrt(k) z_k(F - delta_mu1(eps2)/eps2)/(n mu2) + 18 eps1, and a box with F <= delta_mu1(eps2)/eps2
  holds no valid setting.
* **Thresholdout** (DFHPRR section 3 with the Notes' privacy and the JLNRSS transfer;
  :func:`thresholdout_refuted`), over the noise rate sigma, the holdout size n_h (an integer in
  [1, n - 1]), the draws' failure beta and the delta of advanced composition (0: basic):
  :func:`thresholdout_value`. Its noise terms rise in sigma and fall in beta, its privacy term
  falls in sigma, n_h and delta, the default threshold falls in each part's size, the penalty
  rises in beta and delta; a box's bound reads each at its favourable ends (n_h at the integers
  the box holds). The domain: sigma in [0, inf], every n_h, beta in [0, F min(T, 1)], delta in
  [0, min(F T/2, 1)] (beyond them the penalty alone exceeds T). Certified like the others:
  logarithms at 50 digits at the lattice points above beta2 and delta2, e^e0 - 1 by its series
  x + x^2/2 + x^3/6 from below, e^eps - 1 at 50 digits, every float operation rounded down.

The whole domain is covered: eps in [0, ln(1 + T)] (JLNRSS; e^eps - 1 > T beyond) or
[0, min(1/3, T/18)] (BNSSSU), beta in [0, F T] (beta/c <= F needs c >= beta/F), mu in [0, inf],
with the ends 0 and inf as boxes of their own (the bound takes a term's limit there). Boxes are
split where the bound is weakest until every box's bound exceeds T; a box whose centre meets T
(in floats) ends the search unproved. The bound is first computed in floats; a proof is then
**certified**: every transcendental value the discarded boxes use (z_k at each distinct beta2,
e^eps1 - 1, delta at each distinct (mu1, eps2)) is recomputed in mpmath at 50 digits and
rounded outward, and each box's sum is formed with every floating-point operation rounded
down (``nextafter``); a box whose certified bound does not exceed T fails the proof.

Every half-width rises in k and falls in n (the Gaussian routes' settings do not depend on them
otherwise; for Thresholdout the default threshold rises with ln k, and a setting at n is one at
n + 1 with one more training record, no wider), so a refutation at (n, k) also refutes every
larger k and every smaller n:
:func:`max_queries_limit` and :func:`required_n_limit` turn refutations into a proved bracket
around the planner's answers.

>>> refuted = jlnrss_refuted(1_000_000, 30_000, 0.1, Fraction(1, 20))   # the planner: 25,269
>>> refuted
True
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ..numeric import float_up, mp_ctx
from ..numeric.special import special
from ..theorems.dp_accounting.gdp import gdp_delta_estimate as _delta  # the float GDP curve
from ..theorems.dp_accounting.mechanisms import _ag_delta_bounds
from ..theorems.generalization import B2_PROBABILITY_FLOOR

__all__ = [
    "jlnrss_refuted",
    "bnsssu_refuted",
    "thresholdout_refuted",
    "thresholdout_value",
    "max_queries_limit",
    "required_n_limit",
    "Limit",
    "MAX_BOXES",
    "LADDER_BOXES",
]

#: the most boxes one refutation keeps alive at a time (its memory: 48 bytes a box)
MAX_BOXES = 400_000
#: the boxes each step of :func:`max_queries_limit` and :func:`required_n_limit` may use
LADDER_BOXES = 100_000
#: a box is discarded in floats only when its bound exceeds T by this much (relative): far
#: above the floats' error, so that the certified bound then exceeds T too
_MARGIN = 1e-9
#: delta is certified at the points 2^(j/_LATTICE) outside each box
_LATTICE = 4096


def _down(x: Any) -> Any:
    """The float just below ``x`` (numpy arrays or floats): a lower bound of the exact result of
    the correctly rounded operation that gave ``x``."""
    return np.nextafter(x, -np.inf)


# --------------------------------------------------------------------------------------------
# the float pieces (numpy, vectorised)


def _z(beta: Any, k: int) -> Any:
    """z_k(beta) in floats: (2 Phi(z) - 1)^k = 1 - beta, that is P(|Z| > z) = u with
    u = 1 - (1 - beta)^(1/k) = -expm1(-a), a = -log1p(-beta)/k. Read through log u (scipy's
    ``ndtri_exp``), so that where u underflows (a box's end near beta = 0 reaches 1e-319, and
    beta/k then rounds to 0) z stays finite: there log u = log a to within a/2 < 1e-300."""
    with np.errstate(all="ignore"):
        a = -np.log1p(-beta) / k
        lu = np.where(a > 1e-300, np.log(-np.expm1(-a)), np.log(-np.log1p(-beta)) - math.log(k))
        return -special().ndtri_exp(lu - math.log(2))


def _noise_term(n: int, k: int, mu: Any, beta: Any) -> Any:
    """sqrt(k) z_k(beta) / (n mu): 0 at mu = inf, inf at beta <= 0."""
    with np.errstate(all="ignore"):
        s = math.sqrt(k) / n * _z(beta, k) / mu
    return np.where(np.isinf(mu), 0.0, np.where(beta <= 0, np.inf, s))


@dataclass(frozen=True)
class _Route:
    """One route for the branch and bound, over boxes of d settings (an (N, 2d) array: each
    setting's low and high end side by side): the boxes covering every setting at a target T
    and failure F (``initial(t, f)``), where each box's sides are cut (``cuts``: an (N, d)
    array; a side that cannot be cut gets its low end), the float half-width at a point
    (``value(n, k, f, *settings)``), the lower bound on a box (``lower(n, k, f, boxes)``: each
    term read at the box's favourable ends), the bound after cutting each side (``gains``: an
    (N, d) array, which side the search cuts) and the certification of the discarded boxes."""

    initial: Callable[[float, float], Any]
    cuts: Callable[[Any], Any]
    value: Callable[..., Any]
    lower: Callable[..., Any]
    gains: Callable[..., Any]
    certify: Callable[..., Any]


def _jlnrss_value(n: int, k: int, f: float, mu: Any, eps: Any, beta: Any) -> Any:
    return _noise_term(n, k, mu, beta) + np.expm1(eps) + (np.sqrt(beta) + np.sqrt(2 * _delta(mu, eps))) ** 2 / f


def _jlnrss_lower(n: int, k: int, f: float, mS: Any, bS: Any, eE: Any, mD: Any, eD: Any, bD: Any) -> Any:
    """The bound with each term's variables given separately (the box's favourable ends)."""
    return _noise_term(n, k, mS, bS) + np.expm1(eE) + (np.sqrt(bD) + np.sqrt(2 * _delta(mD, eD))) ** 2 / f


def _bnsssu_ratio(n: int, mu: Any, eps: Any) -> Any:
    """The smallest delta/eps RRST Thm B.2 allows at (mu, eps): delta at least the GDP curve's
    and at least 4 eps e^(-n eps^2) (its condition n >= ln(4 eps/delta)/eps^2)."""
    with np.errstate(all="ignore"):
        return np.maximum(_delta(mu, eps) / eps, B2_PROBABILITY_FLOOR.array(eps, n))


def _bnsssu_from_ratio(n: int, k: int, f: float, mu: Any, q: Any, eps: Any, slack: float = 0.0) -> Any:
    """sqrt(k) z_k(F - q)/(n mu) + 18 eps; inf where no setting is valid (q >= F, q >= 1/4 (delta
    < eps/4) or eps >= 1/3). ``slack`` (relative) widens each condition and beta, so that a
    box the floats call invalid is invalid in exact arithmetic too."""
    up = 1 + slack
    b = f - q + slack * f
    ok = (b > 0) & (q < 0.25 * up) & (eps < up / 3)
    b = np.where(ok, b, 0.5)
    return np.where(ok, _noise_term(n, k, mu, b) + 18 * eps, np.inf)


def _bnsssu_value(n: int, k: int, f: float, mu: Any, eps: Any, beta: Any) -> Any:
    return _bnsssu_from_ratio(n, k, f, mu, _bnsssu_ratio(n, mu, eps), eps)


def _bnsssu_lower(n: int, k: int, f: float, mS: Any, bS: Any, eE: Any, mD: Any, eD: Any, bD: Any) -> Any:
    # beta is not free (F - delta/eps): delta/eps is smallest at (mD, eD) = (mu1, eps2)
    with np.errstate(all="ignore"):
        q = np.where(eD > 0, _bnsssu_ratio(n, mD, eD), np.inf)
    return _bnsssu_from_ratio(n, k, f, mS, q, eE, 2 * _MARGIN)


# --------------------------------------------------------------------------------------------
# certified pieces (mpmath at 50 digits, rounded outward)


def _failure_lower(k: int, t: float) -> Any:
    """A lower bound on P(max_{j <= k} |Z_j| > t), Z_j i.i.d. N(0, 1): 1 - (1 - p)^k with p below
    erfc(t/sqrt 2), each step narrowed by 10^-40 relative (mpmath has no interval erfc; its
    special functions are good to the working precision of 50 digits)."""
    c = mp_ctx()
    with c.workdps(50):
        w = c.mpf(10) ** -40
        p = c.erfc(c.mpf(t) / c.sqrt(2) * (1 + w)) * (1 - w)
        return -c.expm1(k * c.log1p(-p)) * (1 - w)


def _z_lower(beta: float, k: int) -> float:
    """A float at most z_k(beta): the estimate lowered until P(max |Z_j| > z) >= beta."""
    z = float(_z(np.float64(beta), k))
    if not math.isfinite(z) or z <= 0:
        return 0.0
    step = 1e-12
    while True:
        z *= 1 - step
        if z <= 0:
            return 0.0
        if _failure_lower(k, z) >= beta:
            return z
        step *= 16


def _expm1_lower(x: float) -> float:
    c = mp_ctx()
    with c.workdps(50):
        return float(_down(float(c.expm1(c.mpf(x)))))


def _delta_lower(mu: float, eps: float) -> float:
    """A float at most delta_mu(eps) (Balle-Wang's enclosure at 50 digits; 0 at mu = 0)."""
    if mu <= 0:
        return 0.0
    if math.isinf(mu):
        return 1.0 if eps < math.inf else 0.0
    lo = _ag_delta_bounds(mu, 1.0, eps)[0]
    return max(0.0, float(_down(float(lo))))


def _certified_noise(n: int, k: int, mu: Any, z: Any) -> Any:
    """sqrt(k) z / (n mu) with every operation rounded down (z already a lower bound)."""
    rk = _down(math.sqrt(k))
    with np.errstate(all="ignore"):
        s = _down(_down(_down(rk * z) / n) / mu)
    return np.where(np.isinf(mu), 0.0, s)


def _snap(x: Any, up: bool) -> Any:
    """x moved out to the lattice 2^(j/4096) (up or down; 0 and inf stay): a few lattice points
    stand for many boxes' ends, so that few certified evaluations serve them all."""
    with np.errstate(all="ignore"):
        j = np.log2(x) * _LATTICE
        j = np.ceil(j + 1e-9) if up else np.floor(j - 1e-9)
        y = np.exp2(j / _LATTICE)
        # the float 2^(j/4096) may sit on the wrong side of x: step once more if so
        y = (
            np.where(up & (y < x), np.exp2((j + 1) / _LATTICE), y)
            if up
            else np.where(y > x, np.exp2((j - 1) / _LATTICE), y)
        )
    return np.where((x <= 0) | np.isinf(x), x, y)


def _delta_lowers(m: Any, e: Any, need: Any) -> Any:
    """Lower bounds on delta_m(e) for the boxes where ``need``: first at the lattice points
    outside (mu down, eps up: delta_mu(eps) rises in mu and falls in eps), then, where that
    is not enough (``need`` called with it), at the box's own corner."""
    ms, es = _snap(m, False), _snap(e, True)
    cache: dict[tuple[float, float], float] = {}

    def at(a: Any, b: Any) -> Any:
        for p in set(zip(a.tolist(), b.tolist())) - cache.keys():
            cache[p] = _delta_lower(*p)
        return np.array([cache[p] for p in zip(a.tolist(), b.tolist())])

    d = at(ms, es)
    short = ~need(d)
    if np.any(short):
        d[short] = at(m[short], e[short])
    return d


def _certify_jlnrss(n: int, k: int, f_up: float, t: float, B: Any) -> bool:
    m1, m2, e1, e2, b1, b2 = B.T
    zs = {b: _z_lower(b, k) for b in set(b2.tolist())}
    es = {e: (_expm1_lower(e) if e > 0 else 0.0) for e in set(e1.tolist())}
    s = _certified_noise(n, k, m2, np.array([zs[b] for b in b2.tolist()]))
    e = np.array([es[x] for x in e1.tolist()])
    rb = _down(np.sqrt(b1))
    base = _down(s + e)

    def total(d: Any, rows: Any = slice(None)) -> Any:
        r = _down(rb[rows] + _down(np.sqrt(2 * d)))
        return _down(base[rows] + _down(_down(r * r) / f_up))

    d = _delta_lowers(m1, e2, lambda d: total(d) > t)
    return bool(np.all(total(d) > t))


def _certify_bnsssu(n: int, k: int, f_up: float, t: float, B: Any) -> bool:
    m1, m2, e1, e2, _, _ = B.T
    # the smallest delta/eps (rounded down) at (mu1, eps2) moved out to the lattice, so the
    # largest beta F - delta/eps (rounded up); the boxes outside RRST Thm B.2's conditions hold
    # no valid setting
    m1, e2 = _snap(m1, False), _snap(e2, True)
    ds = {(m, e): _delta_lower(m, e) for m, e in set(zip(m1.tolist(), e2.tolist()))}
    cond = {e: B2_PROBABILITY_FLOOR.down(e, n) for e in set(e2.tolist())}
    d = np.array([ds[p] for p in zip(m1.tolist(), e2.tolist())])
    with np.errstate(all="ignore"):
        q = np.maximum(np.where(e2 > 0, _down(d / e2), np.inf), [cond[e] for e in e2.tolist()])
        b = np.nextafter(f_up - q, np.inf)
    ok = (b > 0) & (q < 0.25) & (e1 < 1 / 3)
    if not np.any(ok):
        return True
    zs = {x: _z_lower(x, k) for x in set(b[ok].tolist())}
    s = _certified_noise(n, k, m2[ok], np.array([zs[x] for x in b[ok].tolist()]))
    total = _down(s + _down(18 * e1[ok]))
    return bool(np.all(total > t))


def _gaussian_route(
    beta_free: bool,
    eps_max: Callable[[float], float],
    value: Callable[..., Any],
    lower6: Callable[..., Any],
    certify: Callable[..., Any],
) -> _Route:
    """The branch and bound's pieces for a Gaussian route over (mu, eps, beta): ``lower6`` takes
    each term's variables separately (the noise term's mu and beta, e^eps - 1's eps, delta's mu
    and eps, the penalty's beta); delta is read at the lattice points outside the box, as the
    certification reads it."""

    def low(n: int, k: int, f: float, mS: Any, bS: Any, eE: Any, mD: Any, eD: Any, bD: Any) -> Any:
        mD, eD = _snap(mD, False), _snap(eD, True)
        return np.nan_to_num(lower6(n, k, f, mS, bS, eE, mD, eD, bD), nan=np.inf)

    def lower(n: int, k: int, f: float, B: Any) -> Any:
        m1, m2, e1, e2, b1, b2 = B.T
        return low(n, k, f, m2, b2, e1, m1, e2, b1)

    def gains(n: int, k: int, f: float, B: Any) -> Any:
        m1, m2, e1, e2, b1, b2 = B.T
        return np.stack(
            [
                np.maximum(low(n, k, f, m1, b2, e1, m1, e2, b1), low(n, k, f, m2, b2, e1, m2, e2, b1)),
                np.maximum(low(n, k, f, m2, b2, e2, m1, e1, b1), low(n, k, f, m2, b2, e2, m1, e2, b1)),
                np.maximum(low(n, k, f, m2, b1, e1, m1, e2, b1), low(n, k, f, m2, b2, e1, m1, e2, b2)),
            ],
            axis=1,
        )

    def cuts(B: Any) -> Any:
        return np.stack([_split_points(B[:, 2 * i], B[:, 2 * i + 1]) for i in range(3)], axis=1)

    return _Route(lambda t, f: _initial_boxes(eps_max(t), f * t, beta_free), cuts, value, lower, gains, certify)


def _jlnrss_route() -> _Route:
    return _gaussian_route(True, lambda t: math.log1p(t), _jlnrss_value, _jlnrss_lower, _certify_jlnrss)


def _bnsssu_route() -> _Route:
    return _gaussian_route(False, lambda t: min(1 / 3, t / 18), _bnsssu_value, _bnsssu_lower, _certify_bnsssu)


# --------------------------------------------------------------------------------------------
# the branch and bound


def _split_points(lo: Any, hi: Any) -> Any:
    """Where a box's side is cut: the geometric middle, hi/16 for a side from 0, lo 16 for a
    side to inf."""
    with np.errstate(all="ignore"):
        return np.where(lo <= 0, hi / 16, np.where(np.isinf(hi), lo * 16, np.sqrt(lo * hi)))


def _initial_boxes(eps_max: float, beta_max: float, beta_free: bool) -> Any:
    mus = np.concatenate([[0.0], np.geomspace(1e-3, 1e2, 12), [np.inf]])
    eps = np.concatenate([[0.0], np.geomspace(eps_max * 1e-6, eps_max, 8)])
    bet = np.concatenate([[0.0], np.geomspace(beta_max * 1e-12, beta_max, 8)]) if beta_free else np.array([0.0, 1.0])
    return np.array(
        [[a, b, c, d, e, g] for a, b in zip(mus, mus[1:]) for c, d in zip(eps, eps[1:]) for e, g in zip(bet, bet[1:])]
    )


def _refute(route: _Route, n: int, k: int, t: float, failure: Fraction, max_boxes: int) -> bool | None:
    """True: proved (certified) that no setting of ``route`` has half-width <= t with failure
    probability <= ``failure`` at (n, k). False: a setting was found that does (in floats: the
    planner's own answer may then not be the best). None: undecided within ``max_boxes``."""
    f_up = float_up(failure)
    f = float(failure)
    B = route.initial(t, f)
    kept: list[Any] = []
    while len(B):
        L = route.lower(n, k, f, B)
        out = L > t * (1 + _MARGIN)
        kept.append(B[out])
        B, L = B[~out], L[~out]
        if not len(B):
            break
        # each side's cut, also the box's centre a witness is looked for at
        cuts = route.cuts(B)
        with np.errstate(all="ignore"):
            if np.any(route.value(n, k, f, *cuts.T) <= t):
                return False
        if 2 * len(B) > max_boxes:
            return None
        # split each box along the variable whose range moves its bound most
        gain = route.gains(n, k, f, B)
        with np.errstate(all="ignore"):
            score = np.nan_to_num(gain - L[:, None], nan=np.inf, posinf=np.inf)
            # ties (two infinite gains) go to the side with the most floats in it; a side that
            # cannot be cut any more is never chosen
            room = np.log2(np.maximum(B[:, 1::2] - B[:, 0::2], 0) / np.maximum(np.abs(B[:, 1::2]), 1e-300) + 1e-300)
        splittable = (B[:, 0::2] < cuts) & (cuts < B[:, 1::2])
        score = np.where(np.isinf(score), 1e300 * (1 + (room + 1100) / 1e4), score)
        dim = np.argmax(np.where(splittable, score, -1.0), axis=1)
        rows = np.arange(len(B))
        lo, hi, cut = B[rows, 2 * dim], B[rows, 2 * dim + 1], cuts[rows, dim]
        if not np.all((lo < cut) & (cut < hi)):  # a side down to neighbouring floats: undecided
            return None
        left, right = B.copy(), B.copy()
        left[rows, 2 * dim + 1] = cut
        right[rows, 2 * dim] = cut
        B = np.concatenate([left, right])
    # a proof only when every discarded box's certified bound exceeds t (else undecided)
    return True if route.certify(n, k, f_up, t, np.concatenate(kept)) else None


def jlnrss_refuted(n: int, k: int, t: float, failure: Fraction, *, max_boxes: int = MAX_BOXES) -> bool | None:
    """Whether no Gaussian noise level, eps, beta, c, d make the JLNRSS route's half-width at
    most ``t`` with failure probability at most ``failure`` (1 - coverage, exact) for ``k``
    queries of ``n`` records: True proved, False a setting that does was found (floats), None
    undecided within ``max_boxes``."""
    return _refute(_jlnrss_route(), n, k, t, failure, max_boxes)


def bnsssu_refuted(n: int, k: int, t: float, failure: Fraction, *, max_boxes: int = MAX_BOXES) -> bool | None:
    """The same for the BNSSSU route (Gaussian noise, RRST Thm B.2)."""
    return _refute(_bnsssu_route(), n, k, t, failure, max_boxes)


# --------------------------------------------------------------------------------------------
# Thresholdout (DFHPRR section 3, the Notes' privacy, the JLNRSS transfer)


def _threshold(k: int, f: float, threshold: float | None, n_train: Any, n_holdout: Any) -> Any:
    """Thresholdout's threshold: the given one, or its default sqrt(ln(4k/F)/2) (1/sqrt(n_train)
    + 1/sqrt(n_holdout)) in floats (arrays; the planner's ``estimate.default_threshold``)."""
    if threshold is not None:
        return threshold
    return math.sqrt(math.log(4 * k / f) / 2) * (1 / np.sqrt(n_train) + 1 / np.sqrt(n_holdout))


def thresholdout_value(
    n: int, k: int, f: float, budget: int, threshold: float | None, sigma: Any, nh: Any, bs: Any, delta: Any
) -> Any:
    """The Thresholdout route's half-width in floats at a setting (numpy, broadcasting): noise
    rate sigma, nh holdout records (an integer in [1, n - 1]; n - nh train), the noise draws'
    failure bs (each of the three kinds' share bs/3), delta of advanced composition (0: basic),
    with the threshold T given or its default sqrt(ln(4k/F)/2)(1/sqrt(n - nh) + 1/sqrt(nh)):
    max(T + 2 sigma ln(3(B+1)/bs) + 4 sigma ln(3k/bs), sigma ln(3B/bs)) + e^eps - 1
    + (sqrt(bs) + sqrt(2 delta))^2/F, eps = min(B e0, sqrt(2B ln(1/delta)) e0 + B e0 (e^e0 - 1)),
    e0 = 2/(sigma nh). inf where the setting is not one (nh outside [1, n - 1], bs >= F)."""
    sigma = np.asarray(sigma, dtype=np.float64)  # (Python scalars: 2/(sigma nh) then never raises)
    with np.errstate(all="ignore"):
        nt = n - nh
        thr = _threshold(k, f, threshold, nt, nh)
        lb = np.log(bs)
        # the holdout answers' term sigma ln(3B/bs) is below the training answers' x alone (for
        # every bs < F < 3B), so the max of DFHPRR's two sample accuracies is thr + x + y
        x = 2 * sigma * (math.log(3 * (budget + 1)) - lb)
        y = 4 * sigma * (math.log(3 * k) - lb)
        alpha = thr + x + y
        e0 = 2 / (sigma * nh)
        # delta = 0: ln(1/delta) = inf, so advanced composition is inf and basic is taken; sigma =
        # inf: e0 = 0 and inf * 0 = NaN, which fmin ignores
        adv = np.sqrt(2 * budget * -np.log(delta)) * e0 + budget * e0 * np.expm1(e0)
        eps = np.fmin(budget * e0, adv)
        hw = alpha + np.expm1(eps) + (np.sqrt(bs) + np.sqrt(2 * delta)) ** 2 / f
    # (bs <= 0 leaves an infinite or NaN log: not finite)
    ok = (nh >= 1) & (nt >= 1) & (bs < f) & (delta < 1) & np.isfinite(hw)
    return np.where(ok, hw, np.inf)


def _holdout_ints(h1: Any, h2: Any) -> tuple[Any, Any]:
    """The holdout sizes a box's side [h1, h2] holds: the integers ceil(h1) to floor(h2)."""
    return np.ceil(h1), np.floor(h2)


def _expm1_series(x: Any) -> Any:
    """x + x^2/2 + x^3/6, at most e^x - 1 for x >= 0 (the series' first terms): the advanced
    composition's B e0 (e^e0 - 1) read from below without a transcendental per box."""
    return x + x * x / 2 + x * x * x / 6


def _thresholdout_lower(n: int, k: int, f: float, budget: int, threshold: float | None, B: Any) -> Any:
    """The half-width's lower bound on boxes (sigma, holdout, bs, delta), in floats: each term at
    the box's favourable ends (the noise terms at sigma1 and bs2, privacy at sigma2, the largest
    holdout and delta2, the default threshold at the smallest train and largest holdout part,
    the penalty at bs1 and delta1); bs2 and delta2 read at the lattice points above them, as the
    certification reads them. inf on a box that holds no holdout size."""
    s1, s2, h1, h2, b1, b2, d1, d2 = B.T
    lo, hi = _holdout_ints(h1, h2)
    b2, d2 = _snap(b2, True), _snap(d2, True)
    with np.errstate(all="ignore"):
        thr = _threshold(k, f, threshold, n - lo, hi)  # (the smallest training part, largest holdout)
        alpha = thr + s1 * (2 * np.log(3 * (budget + 1) / b2) + 4 * np.log(3 * k / b2))
        e0 = 2 / (s2 * hi)  # (0 at sigma2 = inf)
        adv = np.sqrt(2 * budget * np.log(1 / d2)) * e0 + budget * e0 * _expm1_series(e0)
        eps = np.fmin(budget * e0, adv)  # (NaN at sigma2 = inf, which fmin ignores)
        hw = alpha + np.expm1(eps) + (np.sqrt(b1) + np.sqrt(2 * d1)) ** 2 / f
    return np.where(lo > hi, np.inf, np.nan_to_num(hw, nan=np.inf))


def _thresholdout_cuts(n: int, B: Any) -> Any:
    """sigma, bs and delta cut like the Gaussian routes' sides; the holdout side between two
    integers (half-way in the logarithm of the smaller part: the holdout's or, above n/2, the
    training part's), its low end where it holds one integer (it cannot be cut)."""
    s = _split_points(B[:, 0], B[:, 1])
    lo, hi = _holdout_ints(B[:, 2], B[:, 3])
    with np.errstate(all="ignore"):
        # (both means lie in [lo, hi] and below hi where hi > lo: the cut in [lo + 0.5, hi - 0.5])
        mid = np.where(lo >= n / 2, n - np.sqrt((n - lo) * (n - hi)), np.sqrt(lo * hi))
        h = np.floor(mid) + 0.5
    h = np.where(hi - lo >= 1, h, B[:, 2])
    return np.stack([s, h, _split_points(B[:, 4], B[:, 5]), _split_points(B[:, 6], B[:, 7])], axis=1)


def _thresholdout_gains(n: int, k: int, f: float, budget: int, threshold: float | None, B: Any) -> Any:
    """The bound on each box with one side shrunk to either end (the holdout's to its end
    integers), the larger of the two: how much cutting that side can raise the bound."""
    lo, hi = _holdout_ints(B[:, 2], B[:, 3])
    out = []
    for i in range(4):
        ends = (lo, hi) if i == 1 else (B[:, 2 * i], B[:, 2 * i + 1])
        bounds = []
        for e in ends:
            C = B.copy()
            C[:, 2 * i] = C[:, 2 * i + 1] = e
            bounds.append(_thresholdout_lower(n, k, f, budget, threshold, C))
        out.append(np.maximum(*bounds))
    return np.stack(out, axis=1)


def _thresholdout_initial(n: int, t: float, f: float) -> Any:
    """Boxes covering every setting that could meet t: sigma in [0, inf] (cut near the noise
    levels where sigma ln(3B/bs) reaches t), every holdout size 1 to n - 1, bs in [0, F min(t, 1)]
    ((sqrt(bs) + sqrt(2 delta))^2/F <= t needs bs <= F t) and delta in [0, min(F t/2, 1)]."""
    sig = np.concatenate([[0.0], np.geomspace(t * 1e-9, t * 10, 10), [np.inf]])
    half = max(n // 2, 1)
    # (both ends' sequences stay in [1, n - 1]: 1 to n // 2, and n - 1 down to n - n // 2)
    hs = np.unique(np.concatenate([np.geomspace(1, half, 4).round(), n - np.geomspace(1, max(n - half, 1), 4).round()]))
    hs = np.array([1.0, 1.0]) if len(hs) == 1 else hs  # n = 2: the one holdout size 1
    bet = np.concatenate([[0.0], np.geomspace(f * min(t, 1) * 1e-12, f * min(t, 1), 6)])
    dmax = min(f * t / 2, 1.0)
    dlt = np.concatenate([[0.0], np.geomspace(dmax * 1e-30, dmax, 6)])
    return np.array(
        [
            [a, b, c, d, e, g, p, q]
            for a, b in zip(sig, sig[1:])
            for c, d in zip(hs, hs[1:])
            for e, g in zip(bet, bet[1:])
            for p, q in zip(dlt, dlt[1:])
        ]
    )


def _log_lower(num: float, den: float) -> float:
    """A float at most ln(num/den) (the quotient and its logarithm at 50 digits: no float
    division rounds the argument up first)."""
    c = mp_ctx()
    with c.workdps(50):
        return float(_down(float(c.log(c.mpf(num) / c.mpf(den)))))


def _certify_thresholdout(n: int, k: int, f_up: float, t: float, budget: int, threshold: float | None, B: Any) -> bool:
    """Every discarded box's bound recomputed from below: the logarithms at 50 digits (at bs2
    and delta2 moved up to the lattice, where they are smallest), every float operation rounded
    down (``nextafter``; each divisor and root rounded up first), e^e0 - 1 by its series from
    below and e^eps - 1 at 50 digits; the default threshold 2^-40 below its value (the planner
    computes it in floats). The holdout answers' noise term sigma ln(3B/beta_s) is left out: it
    never exceeds the training answers' 2 sigma ln(3(B+1)/beta_s) alone (a lower bound may drop
    the max's other argument)."""
    s1, s2, h1, h2, b1, b2, d1, d2 = B.T
    lo, hi = _holdout_ints(h1, h2)
    keep = lo <= hi  # a box that holds no holdout size holds no setting
    s1, s2, lo, hi, b1, b2, d1, d2 = (v[keep] for v in (s1, s2, lo, hi, b1, b2, d1, d2))
    b2, d2 = _snap(b2, True), _snap(d2, True)

    def up(x: Any) -> Any:
        return np.nextafter(x, np.inf)

    with np.errstate(all="ignore"):
        if threshold is None:
            ck = _down(np.sqrt(_log_lower(4 * k, f_up) / 2))
            inv = _down(_down(1 / up(np.sqrt(n - lo))) + _down(1 / up(np.sqrt(hi))))
            thr = _down(_down(ck * inv) * (1 - 2.0**-40))
        else:
            thr = np.full(len(s1), threshold)
        logs = {b: (_log_lower(3 * (budget + 1), up(b)), _log_lower(3 * k, up(b))) for b in set(b2.tolist())}
        la, lk = (np.array([logs[b][i] for b in b2.tolist()]) for i in range(2))
        alpha = _down(thr + _down(s1 * _down(_down(2 * la) + _down(4 * lk))))
        e0 = _down(2 / up(s2 * hi))  # (0 at sigma2 = inf, less one subnormal step)
        # ln(1/delta2): infinite at delta2 = 0 (a box of delta = 0 alone: basic composition)
        lds = {d: _log_lower(1, up(d)) if d > 0 else math.inf for d in set(d2.tolist())}
        ld = np.array([lds[d] for d in d2.tolist()])
        ser = _down(_down(e0 + _down(_down(e0 * e0) / 2)) + _down(_down(_down(e0 * e0) * e0) / 6))
        adv = _down(_down(_down(np.sqrt(_down(2 * budget * ld))) * e0) + _down(_down(budget * e0) * ser))
        eps = np.fmin(_down(budget * e0), adv)
        es = {e: _expm1_lower(e) for e in set(eps.tolist())}
        em = np.array([es[e] for e in eps.tolist()])
        r = _down(_down(np.sqrt(b1)) + _down(np.sqrt(2 * d1)))  # (2 d1 exact)
        total = _down(_down(alpha + em) + _down(_down(r * r) / f_up))
    # (a NaN, which no box gives, would fail the comparison: not a proof)
    return bool(np.all(total > t))


def _thresholdout_route(n: int, budget: int, threshold: float | None) -> _Route:
    def value(n_: int, k: int, f: float, s: Any, h: Any, b: Any, d: Any) -> Any:
        # (a cut's floor is an integer of its box, 1 to n - 1, or the box's low end's)
        return thresholdout_value(n_, k, f, budget, threshold, s, np.floor(h), b, d)

    return _Route(
        lambda t, f: _thresholdout_initial(n, t, f),
        lambda B: _thresholdout_cuts(n, B),
        value,
        lambda n_, k, f, B: _thresholdout_lower(n_, k, f, budget, threshold, B),
        lambda n_, k, f, B: _thresholdout_gains(n_, k, f, budget, threshold, B),
        lambda n_, k, f_up, t, B: _certify_thresholdout(n_, k, f_up, t, budget, threshold, B),
    )


def thresholdout_refuted(
    n: int,
    k: int,
    t: float,
    failure: Fraction,
    *,
    budget: int,
    threshold: float | None = None,
    max_boxes: int = MAX_BOXES,
) -> bool | None:
    """Whether no noise rate, holdout size, split of the failure probability and delta make the
    Thresholdout route's half-width (:func:`thresholdout_value`, budget B, threshold T given or
    its default) at most ``t`` with failure at most ``failure`` for ``k`` queries of ``n``
    records: True proved, False a setting that does was found (floats), None undecided."""
    if n < 2:
        return True  # no holdout and training part: no setting at all
    return _refute(_thresholdout_route(n, budget, threshold), n, k, t, failure, max_boxes)


# --------------------------------------------------------------------------------------------
# brackets around the planner's extremes


@dataclass(frozen=True)
class Limit:
    """A proved limit: ``value`` (no setting of the route does better: more queries than it,
    or fewer records), the refutation it rests on (``refuted_at``) and whether it equals the
    planner's answer (``exact``)."""

    value: int
    refuted_at: int
    exact: bool


#: the relative steps tried beyond the planner's answer, tightest first
_LADDER = (0.0, 1e-3, 4e-3, 1.6e-2, 6.4e-2, 0.25, 1.0, 4.0, 16.0)
#: bisections between the first step proved and the last one not
_BISECTIONS = 2


def _ladder(refute: Callable[[int], bool | None], distances: list[int]) -> int | None:
    """The smallest distance proved of the ladder's ``distances`` (increasing, each >= 1;
    ``refute(d)`` proves d and every larger distance), tightened by :data:`_BISECTIONS`
    bisections towards the last distance not proved; None when none is proved."""
    bad = 0  # the largest distance not proved so far (0: the planner's own answer)
    for step in sorted(set(distances)):
        if refute(step):
            good = step
            for _ in range(_BISECTIONS):
                mid = (bad + good) // 2
                if mid <= bad:
                    break
                if refute(mid):
                    good = mid
                else:
                    bad = mid
            return good
        bad = step
    return None


def max_queries_limit(
    refuted: Callable[..., bool | None],
    n: int,
    t: float,
    failure: Fraction,
    found: int,
    *,
    max_boxes: int = LADDER_BOXES,
) -> Limit | None:
    """A proved upper limit on the largest k meeting t: the first step of the ladder beyond
    ``found`` (found + 1, then found (1 + r)) at which ``refuted`` proves no setting meets t
    (every larger k is refuted with it), then tightened by :data:`_BISECTIONS` bisections
    between it and the last step not proved. None when none is proved."""
    steps = [1] + [max(2, math.ceil(found * (1 + r)) - found) for r in _LADDER[1:]]
    d = _ladder(lambda d: refuted(n, found + d, t, failure, max_boxes=max_boxes), steps)
    return None if d is None else Limit(found + d - 1, found + d, d == 1)


def required_n_limit(
    refuted: Callable[..., bool | None],
    k: int,
    t: float,
    failure: Fraction,
    found: int,
    *,
    max_boxes: int = LADDER_BOXES,
) -> Limit | None:
    """A proved lower limit on the smallest n meeting (k, t): the first step below ``found``
    (found - 1, then found / (1 + r)) at which no setting meets t (every smaller n with it),
    tightened by bisection like :func:`max_queries_limit`; n = 1 needs no proof."""
    steps = [1] + [max(2, found - math.floor(found / (1 + r))) for r in _LADDER[1:]]
    d = _ladder(lambda d: True if d >= found else refuted(found - d, k, t, failure, max_boxes=max_boxes), steps)
    return None if d is None else Limit(max(found - d + 1, 1), max(found - d, 0), d == 1)
