"""Approximate DP bounds approximate max-information on i.i.d. data: RRST Thm 3.1, explicit from
its proof, in its paper and sound variants, and at the best implied guarantee (eps' >= eps).
``eps`` in nats, ``k`` in bits."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import numpy as np
import sympy
from scipy.optimize import minimize_scalar

from ...numeric import (
    LOG2E,
    InvalidParameter,
    RegimeError,
    check_int,
    check_real,
    check_real_array,
    enclosure,
    fast_up,
    is_array,
    iv_prec,
)
from ...results import Bound
from ..registry import Param, Theorem, register


class _NpMath:
    """numpy namespace with the interface of mpmath.iv used by the Thm 3.1 formulas."""

    exp = staticmethod(np.exp)
    sqrt = staticmethod(np.sqrt)

    @staticmethod
    def log(x: Any) -> Any:
        return np.log(x)

    @staticmethod
    def mpf(x: Any) -> Any:
        return np.asarray(x, dtype=np.float64)


def _thm31_parts(M: Any, eps: Any, delta: Any, n: Any, t: Any, dhat: Any,
                 variant: str) -> tuple[Any, Any]:
    """(k bits, beta) of the proof of RRST Thm 3.1 at parameters (t, delta_hat).

    ``M`` is :data:`mpmath.iv` (certified) or :class:`_NpMath` (fast). All inputs already of
    ``M``'s number type.
    """
    log2e = 1 / M.log(M.mpf(2))
    e3 = M.exp(3 * eps)
    e6 = e3 * e3
    d1 = 2 * delta / dhat + 2 * delta / (1 - M.exp(-eps))        # delta'  (Claim 3.4, Lemma A.7)
    d2 = 2 * dhat / (1 - 1 / e3)                                  # delta'' (Claim 3.5, Lemma A.6)
    if variant == "paper":
        # eq. (7) literally, with the paper's log = log2 (so log(e) = log2 e)
        e9, e12 = e6 * e3, e6 * e6
        nu = (72 * eps * eps
              + dhat * (24 * e6 / (1 - 1 / e3) + log2e * (2 * e3 + 1))
              + dhat * dhat * (2 * log2e * (4 * e12 + 4 * e9 - 3 * e6 - 2 * e3 + 1)
                               / (e6 - 2 * e3 + 1)))
        k = n * nu + 6 * t * eps * M.sqrt(n)
        beta = M.exp(-t * t / 2) + n * (d1 + d2)
        return k, beta
    # sound: Z_i in bits, so the point-wise bound |ln ratio| <= 6 eps is 6 eps log2(e) bits;
    # Lemma 3.7 kept at its tightest form before the elementary inequalities:
    #   E[Z_i | F_i] <= c (e^{6 eps}/(1 - delta'') - 1) + log2((1 - delta'')/(1 - e^{3eps} delta'' - dhat))
    c = 6 * eps * log2e
    nu = c * (e6 / (1 - d2) - 1) + (M.log(1 - d2) - M.log(1 - e3 * d2 - dhat)) * log2e
    k = n * nu + c * t * M.sqrt(n)
    beta = M.exp(-t * t / 2) + n * (d1 + d2 - d1 * d2)            # Claim 3.6, union bound
    return k, beta


def _paper_choice(eps: float, delta: float, n: int) -> tuple[float, float]:
    return eps * math.sqrt(2 * n), math.sqrt(eps * delta) / 15


def _thm31_regime(eps: float, delta: float, dhat: float, variant: str) -> list[tuple[str, str, float]]:
    """Violated conditions as (name, condition, value)."""
    bad = []
    if not eps <= 0.5:
        bad.append(("eps", "eps in (0, 1/2]", eps))
    if not delta < eps:
        bad.append(("delta", "delta in (0, eps)", delta))
    if variant == "paper" and not dhat <= eps / 15:
        bad.append(("delta_hat", "delta_hat in (0, eps/15] (Lemma 3.7)", dhat))
    if variant == "sound":
        d2 = 2 * dhat / (-math.expm1(-3 * eps))
        if not (d2 < 1 and math.exp(3 * eps) * d2 + dhat < 1):
            bad.append(("delta_hat", "e^{3eps} delta'' + delta_hat < 1 (Lemma 3.7's logarithm)",
                        dhat))
    return bad


def _thm31_certified(eps: float, delta: float, n: int, t: float, dhat: float, variant: str,
                     dps: int) -> tuple[float, float]:
    k_hi = enclosure(lambda iv: _thm31_parts(iv, iv.mpf(eps), iv.mpf(delta), iv.mpf(n),
                                             iv.mpf(t), iv.mpf(dhat), variant)[0],
                     prec=iv_prec(dps))[1]
    b_hi = enclosure(lambda iv: _thm31_parts(iv, iv.mpf(eps), iv.mpf(delta), iv.mpf(n),
                                             iv.mpf(t), iv.mpf(dhat), variant)[1],
                     prec=iv_prec(dps))[1]
    return k_hi, b_hi


def approx_dp_max_information(eps: Any, delta: Any, n: Any, *, beta: float | None = None,
                              t: float | None = None, delta_hat: float | None = None,
                              variant: str = "sound", strict: bool = True,
                              dps: int = 30) -> Any:
    r"""β-approximate max-information of an (ε, δ)-DP algorithm on n i.i.d. records, in bits.

    .. math:: I^{\beta(t,\hat\delta)}_{\infty,P}(A, n) \le n\,\nu(\hat\delta) + 6 t\varepsilon\sqrt{n},
        \quad \beta(t,\hat\delta) = e^{-t^2/2} + n(\delta' + \delta'')

    with ``delta' = 2 delta/dhat + 2 delta/(1 - e^{-eps})``, ``delta'' = 2 dhat/(1 - e^{-3 eps})``
    and ``nu`` of RRST eq. (7).

    Theorem: RRST Thm 3.1, made explicit from its proof (Claims 3.4–3.6, Lemmas 3.7, 3.8, Azuma).
    Units: ``eps`` in nats, ``k`` in bits.
    Variants:
      * ``"paper"``: eq. (7) and the final bound literally.
      * ``"sound"`` (default): what the proof supports with ``log = log2`` throughout. The
        information density ``Z_i`` is in bits, so the point-wise bound ``|ln ratio| <= 6 eps``
        is ``6 eps log2(e)`` bits (in ``F_i``, the Azuma range and Lemma 3.7); Lemma 3.7 is
        kept at its tightest form, ``c (e^{6 eps}/(1 - delta'') - 1) + log2((1 - delta'')/(1 -
        e^{3 eps} delta'' - dhat))`` with ``c = 6 eps log2 e``, instead of ``72 eps^2 + ...``,
        whose step ``6 eps (e^{6 eps} - 1) <= 72 eps^2`` fails for ``eps > 0.2094``; and
        ``beta`` uses Claim 3.6's ``delta' + delta'' - delta' delta''``. See docs/errata.md.
    Parameters: with neither ``beta`` nor ``t``/``delta_hat``, the paper's choice
    ``t = eps sqrt(2n)``, ``delta_hat = sqrt(eps delta)/15``. With ``t`` and ``delta_hat``, that
    point. With a target ``beta``: ``t`` and ``delta_hat`` minimising ``k`` subject to
    ``beta(t, delta_hat) <= beta`` (never worse than the paper's choice when that meets the
    target).
    Conditions:
      * ``eps`` in (0, 1/2], ``delta`` in (0, eps), ``n >= 1`` (RRST Thm 3.1); ``delta_hat`` in
        (0, eps/15] for the paper variant (Lemma 3.7), and ``e^{3eps} delta'' + delta_hat < 1``
        for the sound one. Outside: :class:`~maxinfo_bounds.numeric.RegimeError`;
        ``strict=False`` returns the value marked ``in_regime=False``.
      * i.i.d. (product) data: the bound is ``product_only`` (first stage only, RRST §4).
    Returns: a :class:`~maxinfo_bounds.catalog.Bound` with ``k`` and ``beta`` rounded up.

    Examples
    --------
    >>> b = approx_dp_max_information(0.1, 1e-14, 1000)    # the paper's t and delta_hat
    >>> b.product_only, b.variant, round(b.k, 1), round(b.beta, 5)
    (True, 'sound', 834.1, 0.00955)
    >>> approx_dp_max_information(0.1, 1e-14, 1000, beta=0.00955).k < b.k   # optimised
    True
    """
    if variant not in ("sound", "paper"):
        raise InvalidParameter("variant", variant, "'sound' or 'paper'")
    if is_array(eps, delta, n, t, delta_hat):
        if beta is not None:
            raise InvalidParameter("beta", beta, "omitted on the vectorised path (use the paper's "
                                   "choice or explicit t and delta_hat arrays)")
        return _thm31_vectorised(eps, delta, n, t, delta_hat, variant, strict)
    e = float(check_real("eps", eps, low=0.0, low_open=True))
    d = float(check_real("delta", delta, low=0.0, high=1.0, low_open=True, high_open=True))
    ni = check_int("n", n, low=1)
    if (t is None) != (delta_hat is None):
        raise InvalidParameter("t" if t is None else "delta_hat", None,
                               "given together with the other")
    if t is not None and beta is not None:
        raise InvalidParameter("beta", beta, "omitted when t and delta_hat are given")
    if t is not None:
        tt = float(check_real("t", t, low=0.0, low_open=True))
        dh = float(check_real("delta_hat", delta_hat, low=0.0, high=1.0, low_open=True))
        candidates = [(tt, dh)]
    elif beta is None:
        candidates = [_paper_choice(e, d, ni)]
    else:
        bt = float(check_real("beta", beta, low=0.0, high=1.0, low_open=True, high_open=True))
        candidates = _thm31_candidates(e, d, ni, bt, variant)
        if not candidates:
            raise InvalidParameter("beta", beta, "reachable: above n(delta' + delta'') for some "
                                   "delta_hat in the lemma's range")
    best: tuple[float, float, float, float] | None = None
    bad_all: list[tuple[str, str, float]] = []
    for tt, dh in candidates:
        bad = _thm31_regime(e, d, dh, variant)
        if bad and strict:
            bad_all = bad
            continue
        k_hi, b_hi = _thm31_certified(e, d, ni, tt, dh, variant, dps)
        if beta is not None and b_hi > beta:
            continue
        if best is None or k_hi < best[0]:
            best = (k_hi, b_hi, tt, dh)
            bad_all = bad
    if best is None:
        if bad_all:
            name, cond, val = bad_all[0]
            raise RegimeError("RRST Thm 3.1", name, val, cond)
        raise InvalidParameter("beta", beta, "reachable with a certified beta(t, delta_hat)")
    k_hi, b_hi, tt, dh = best
    in_regime = not _thm31_regime(e, d, dh, variant)
    return Bound(k=k_hi, beta=min(b_hi, 1.0), theorem="RRST-3.1", variant=variant,
                 product_only=True, in_regime=in_regime,
                 conditions=("eps in (0, 1/2]", "delta in (0, eps)", "n >= 1",
                             f"t = {tt!r}", f"delta_hat = {dh!r}", "i.i.d. (product) data"))


def _thm31_vectorised(eps: Any, delta: Any, n: Any, t: Any, delta_hat: Any, variant: str,
                      strict: bool) -> tuple[Any, Any]:
    """(k, beta) float64 arrays, each pushed up by FAST_REL_MARGIN.

    Written with expm1/log1p so that no step cancels: 1 - e^{-x} = -expm1(-x),
    e^{6e} - 2e^{3e} + 1 = expm1(3e)^2, e^{6e}/(1 - d'') - 1 = (expm1(6e) + d'')/(1 - d''),
    log((1 - d'')/(1 - e^{3e} d'' - dh)) = log1p((expm1(3e) d'' + dh)/(1 - e^{3e} d'' - dh)).
    """
    e = check_real_array("eps", eps, low=0.0, low_open=True)
    d = check_real_array("delta", delta, low=0.0, high=1.0, low_open=True, high_open=True)
    nn = check_real_array("n", n, low=1.0, integer=True)
    e, d, nn = np.broadcast_arrays(e, d, nn)
    if t is None:
        tt, dh = e * np.sqrt(2 * nn), np.sqrt(e * d) / 15
    else:
        tt = check_real_array("t", t, low=0.0, low_open=True)
        dh = check_real_array("delta_hat", delta_hat, low=0.0, high=1.0, low_open=True)
        tt, dh = np.broadcast_to(tt, e.shape), np.broadcast_to(dh, e.shape)
    d2 = 2 * dh / -np.expm1(-3 * e)
    e3 = np.exp(3 * e)
    bad = (e > 0.5) | (d >= e)
    bad |= (dh > e / 15) if variant == "paper" else ~((d2 < 1) & (e3 * d2 + dh < 1))
    if strict and bad.any():
        i = int(np.flatnonzero(bad.ravel())[0])
        ei, di, hi = float(e.ravel()[i]), float(d.ravel()[i]), float(dh.ravel()[i])
        name, cond, val = next(iter(_thm31_regime(ei, di, hi, variant) or
                                    [("eps", "eps in (0, 1/2]", ei)]))
        raise RegimeError("RRST Thm 3.1", f"{name}[{i}]", val, cond)
    d1 = 2 * d / dh + 2 * d / -np.expm1(-e)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        if variant == "paper":
            e6 = e3 * e3
            nu = (72 * e * e + dh * (24 * e6 / -np.expm1(-3 * e) + LOG2E * (2 * e3 + 1))
                  + dh * dh * (2 * LOG2E * (4 * e6 * e6 + 4 * e6 * e3 - 3 * e6 - 2 * e3 + 1)
                               / np.expm1(3 * e) ** 2))
            k = nn * nu + 6 * tt * e * np.sqrt(nn)
            b = np.exp(-tt * tt / 2) + nn * (d1 + d2)
        else:
            c = 6 * e * LOG2E
            rest = 1 - e3 * d2 - dh
            nu = (c * (np.expm1(6 * e) + d2) / (1 - d2)
                  + LOG2E * np.log1p((np.expm1(3 * e) * d2 + dh) / rest))
            k = nn * nu + c * tt * np.sqrt(nn)
            b = np.exp(-tt * tt / 2) + nn * (d1 + d2 * (1 - d1))
    k = np.where(bad & ~np.isfinite(k), np.inf, k)
    return fast_up(k), np.minimum(fast_up(b, exp_arg=tt * tt / 2), 1.0)


def _thm31_candidates(eps: float, delta: float, n: int, beta: float,
                      variant: str) -> list[tuple[float, float]]:
    """(t, delta_hat) pairs to try for a target beta: the optimum and the paper's choice.

    For fixed ``delta_hat`` the smallest ``t`` meeting the target is
    ``sqrt(2 ln(1/(beta - n(delta' + delta''))))`` (``k`` grows with ``t``); ``delta_hat`` is
    then chosen by :func:`scipy.optimize.minimize_scalar` on the float formulas. ``t`` is
    nudged up by 1e-9 relative so that the certified ``beta`` stays within the target.
    """
    def rem(dh: float) -> float:
        d1 = 2 * delta / dh + 2 * delta / -math.expm1(-eps)   # expm1: no cancellation at tiny eps
        d2 = 2 * dh / -math.expm1(-3 * eps)
        return beta - n * ((d1 + d2 - d1 * d2) if variant == "sound" else (d1 + d2))

    def k_of(logdh: float) -> float:
        dh = math.exp(logdh)
        r = rem(dh)
        if r <= 0 or r >= 1 or _thm31_regime(eps, delta, dh, variant):
            return math.inf
        tt = math.sqrt(2 * math.log(1 / r))
        f = np.float64
        with np.errstate(all="ignore"):  # float surrogate only: non-finite means unusable
            k, _ = _thm31_parts(_NpMath, f(eps), f(delta), f(n), f(tt), f(dh), variant)
        kf = float(k)
        return kf if math.isfinite(kf) else math.inf

    hi = math.log(min(eps / 15 if variant == "paper" else 0.5, 0.5))
    lo = math.log(max(delta * 1e-6, 1e-300))
    grid = np.linspace(lo, hi, 200)
    start = min(grid, key=k_of)
    out: list[tuple[float, float]] = []
    if math.isfinite(k_of(start)):
        step = (hi - lo) / 199
        res = minimize_scalar(k_of, bounds=(max(lo, start - step), min(hi, start + step)),
                              method="bounded", options={"xatol": 1e-10})
        for logdh in (float(res.x), float(start)):
            dh = math.exp(logdh)
            if math.isfinite(k_of(logdh)):
                out.append((math.sqrt(2 * math.log(1 / rem(dh))) * (1 + 1e-9), dh))
    tp, dp = _paper_choice(eps, delta, n)
    out.append((tp, dp))
    return out


def thm31_implied_float_k(eps: float, delta: float, n: int, beta: float, *,
                          eps_grid: int = 24, dhat_grid: int = 96
                          ) -> tuple[float, float, float, float]:
    """Float surrogate: the smallest sound RRST Thm 3.1 ``k`` at target ``beta`` over every
    implied guarantee ``(eps', delta)`` with ``eps' >= eps`` (an (ε, δ)-DP algorithm is
    (ε', δ)-DP for every ε' ≥ ε), ``t`` and ``delta_hat``.

    Returns ``(k, eps', t, delta_hat)``; ``k = inf`` when no point reaches ``beta``. Not
    certified: it only chooses the point that :func:`approx_dp_max_information_implied`
    certifies. A vectorised grid over (log ε', log δ̂), then two zoomed grids around the best
    point. For fixed (ε', δ̂) the smallest ``t`` meeting the target is
    ``sqrt(2 ln(1/(beta - n(δ' + δ'' - δ'δ''))))``, and ``k`` grows with ``t``.
    """
    if not (0 < beta < 1) or not (0 <= eps) or not (0 < delta < 0.5):
        return math.inf, eps, math.nan, math.nan
    e_lo = max(eps, delta * (1 + 2**-30), 1e-300)
    if e_lo > 0.5:
        return math.inf, eps, math.nan, math.nan
    le_lo, le_hi = math.log(e_lo), math.log(0.5)
    ld_lo, ld_hi = math.log(max(delta * 1e-8, 1e-300)), math.log(0.5)
    nf = float(n)

    def grid_k(le: Any, ld: Any) -> Any:
        E, D = np.meshgrid(np.exp(le), np.exp(ld), indexing="ij")
        E = np.minimum(np.maximum(E, e_lo), 0.5)
        with np.errstate(all="ignore"):
            # the smallest t meeting the target: beta = e^{-t^2/2} + n(d' + d'' - d'd'')
            d1 = 2 * delta / D + 2 * delta / -np.expm1(-E)
            d2 = 2 * D / -np.expm1(-3 * E)
            rem = beta - nf * (d1 + d2 - d1 * d2)
            ok = (rem > 0) & (rem < 1) & (d2 < 1) & (1 - np.exp(3 * E) * d2 - D > 0) & (delta < E)
            t = np.sqrt(2 * np.log(1 / np.where(ok, rem, 0.5)))
            # k from the one vectorised body of the sound variant (not re-derived here)
            k, _ = _thm31_vectorised(E, np.full_like(E, delta), np.full_like(E, nf), t, D,
                                     "sound", False)
        k = np.where(ok & np.isfinite(k), k, np.inf)
        return E, D, t, k

    # eps' grid: one fixed grid (0.5 * 2^(-j/4)), independent of eps, cut at eps, plus eps
    # itself; so a stronger guarantee (smaller eps) searches a superset of the same points and
    # lands on the same optimum whenever that lies above both (monotone in the guarantee)
    j_max = min(int(math.floor(4 * (le_hi - le_lo) / math.log(2))), 4 * eps_grid * 4)
    le = np.unique(np.concatenate([[le_lo], le_hi - np.arange(j_max + 1) * math.log(2) / 4]))
    ld = np.linspace(ld_lo, ld_hi, dhat_grid)
    best = (math.inf, eps, math.nan, math.nan)
    se, sd = math.log(2) / 4, ld[1] - ld[0]
    for _ in range(3):
        E, D, t, k = grid_k(le, ld)
        i = np.unravel_index(int(np.argmin(k)), k.shape)
        if not math.isfinite(float(k[i])):
            break
        if float(k[i]) < best[0]:
            best = (float(k[i]), float(E[i]), float(t[i]), float(D[i]))
        # zoom: the neighbouring cells of the best point, finer
        ce, cd = math.log(best[1]), math.log(best[3])
        le = np.linspace(max(le_lo, ce - se), min(le_hi, ce + se), 17)
        ld = np.linspace(max(ld_lo, cd - sd), min(ld_hi, cd + sd), 33)
        se, sd = se / 8, sd / 16
    return best


def approx_dp_max_information_implied(eps: float, delta: float, n: int, beta: float, *,
                                      dps: int = 30) -> Bound:
    r"""RRST Thm 3.1 (sound) at the best guarantee an (ε, δ)-DP algorithm implies, in bits.

    An (ε, δ)-DP algorithm is (ε', δ)-DP for every ε' ≥ ε, so RRST Thm 3.1 may be applied at
    any ε' in [ε, 1/2] (with δ < ε'); a larger ε' can give a smaller ``k`` at the same target
    ``beta``, because δ' = 2δ/δ̂ + 2δ/(1 − e^{−ε'}) shrinks. This evaluator chooses ε', ``t``
    and δ̂ (float search: :func:`thm31_implied_float_k`) and certifies the chosen point with
    :func:`approx_dp_max_information` (interval arithmetic, rounded up). It is therefore never
    worse than the same target at ε' = ε by more than the search's tolerance, and its answer
    is monotone in the guarantee: weakening (ε, δ) only removes choices.

    Units: ``eps`` in nats, ``k`` in bits. Conditions: ``eps >= 0``, ``delta`` in (0, 1/2),
    ``n >= 1``, ``beta`` in (0, 1), i.i.d. data (``product_only``). The returned ``beta`` may
    exceed the target by the certification's rounding (a few ulps); a target no point
    reaches raises :class:`~maxinfo_bounds.numeric.InvalidParameter`.

    >>> b = approx_dp_max_information_implied(3e-5, 5e-19, 200_000, 0.04)
    >>> b.theorem, b.beta <= 0.0400001, b.k < 1.1    # eps = 3e-5 itself cannot reach beta = 0.04
    ('RRST-3.1', True, True)
    """
    e = float(check_real("eps", eps, low=0.0))
    d = float(check_real("delta", delta, low=0.0, high=0.5, low_open=True, high_open=True))
    ni = check_int("n", n, low=1)
    bt = float(check_real("beta", beta, low=0.0, high=1.0, low_open=True, high_open=True))
    k, e2, t, dh = thm31_implied_float_k(e, d, ni, bt)
    if not math.isfinite(k):
        raise InvalidParameter("beta", beta, "reachable by RRST Thm 3.1 at some eps' in "
                               f"[{e!r}, 1/2] (n = {ni}, delta = {d!r})")
    b: Bound = approx_dp_max_information(e2, d, ni, t=t * (1 + 1e-9), delta_hat=dh, dps=dps)
    conds = tuple(c for c in b.conditions if not c.startswith("eps in"))
    return replace(b, conditions=(f"applied at eps' = {e2!r} >= eps = {e!r} (implied guarantee)",
                                  "eps' in (0, 1/2]", *conds))


register(Theorem(
    id="RRST-3.1", paper="RRST", number="Thm 3.1 (explicit from its proof)",
    title="Approximate DP bounds approximate max-information on i.i.d. data",
    latex=(r"I^{\beta}_{\infty,P}(\mathcal{A}, n) \le n\nu(\hat\delta) + 6t\varepsilon\sqrt{n},\ "
           r"\beta = e^{-t^2/2} + n(\delta' + \delta'')"),
    conditions=("A is (eps, delta)-differentially private, eps in (0, 1/2] (nats), delta in (0, eps)",
                "n >= 1 i.i.d. records (product distribution): product_only",
                "delta_hat in (0, eps/15] (paper); e^{3eps} delta'' + delta_hat < 1 (sound)",
                "variant 'sound' (default) corrects log bases and Lemma 3.7's 72 eps^2 step"),
    units="eps in nats; k in bits",
    params=(Param("eps", float, "(0, 1/2]", "DP parameter, nats"),
            Param("delta", float, "(0, eps)", "DP parameter"),
            Param("n", int, "[1, inf) integer", "number of records")),
    evaluator=approx_dp_max_information, sympy_statement=lambda: _statement_thm31(),
    returns="Bound(k bits rounded up, beta rounded up, product_only = True, variant)",
    notes="Paper's choice: t = eps sqrt(2n), delta_hat = sqrt(eps delta)/15; with a target beta, "
          "t and delta_hat are optimised (never worse than the paper's choice).",
))


def _statement_thm31() -> Any:
    e, d, n, t, dh = sympy.symbols("epsilon delta n t delta_hat", positive=True)
    E = sympy.exp
    nu = (72 * e**2 + dh * (24 * E(6 * e) / (1 - E(-3 * e)) + (2 * E(3 * e) + 1) / sympy.log(2))
          + dh**2 * 2 / sympy.log(2) * (4 * E(12 * e) + 4 * E(9 * e) - 3 * E(6 * e) - 2 * E(3 * e) + 1)
          / (E(6 * e) - 2 * E(3 * e) + 1))
    return n * nu + 6 * t * e * sympy.sqrt(n)
