"""Monte Carlo of the privacy-loss martingale in the proof of RRST Thm 3.1.

Rogers, Roth, Smith & Thakkar (2016), §3: for an (eps, delta)-DP algorithm A on i.i.d. data X,
the privacy loss ``Z(a, x) = ln(P[A(X) = a | X = x] / P[A(X) = a])`` is the sum of the
martingale differences ``Z_i(a, x_1^i) = ln(P[X_i = x_i | a, x_1^{i-1}] / P[X_i = x_i])``
(eq. 2). The proof bounds each step (Claim 3.5: ``|Z_i| <= 6 eps`` except with probability
delta''; Lemma 3.7: ``E[Z_i | a, x_1^{i-1}, F_i] <= nu(delta_hat)``), applies Azuma, and
concludes ``P[Z > k] <= beta`` at Thm 3.1's (k, beta) (Lemma 3.2 then gives
``I^beta_inf(X; A(X)) <= k``). Exact enumeration reaches n = 3*10^4 (``thm31-large-n`` in
:mod:`proofs_checks.bounds_vs_exact`); this module checks the proof's statements by sampling
where exact values are out of reach, on a mechanism whose every quantity is computable:

    A(x) = sum(x) + N(0, sigma^2),   x_i i.i.d. Bernoulli(p),

(eps, delta)-DP with delta(eps) from Balle & Wang's exact formula at 50 digits
(:func:`proofs_checks.mechanisms.gaussian_delta_50`). With
``g_i(s) = E[phi_sigma(a - s - R)]``, R ~ Binomial(n - i, p), and s_i the prefix count,
``P[X_i = 1 | a, x_1^{i-1}] = p g_i(s_{i-1} + 1) / g_{i-1}(s_{i-1})``, so every step of every
sampled path is exact up to float64 (sums over the binomial's +-13 standard deviations, whose
truncation only lowers P[a] and so only raises the privacy loss: conservative for an upper
bound). The steps telescope to Z, which each path checks.

Nothing here takes a formula of Thm 3.1 as its expected value: the privacy losses, their
conditional means and quantiles are computed from the mechanism; the calculator's Thm 3.1
(and its ``nu``, the t = 0 part of the same body per record) is only the bound held against
them. Units: nats for Z and Z_i (as the proof writes them), bits for k.

Example::

    >>> from proofs_checks.martingale import tail_check
    >>> recs = tail_check(10_000, 0.01, 800.0, samples=500, seed=1)
    >>> all(r["verdict"] == "holds" for r in recs)
    True
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np
from scipy.special import logsumexp
from scipy.stats import binom

from maxinfo_bounds.numeric import LOG2E
from maxinfo_bounds.theorems.maxinfo_dp.approx import THM31, approx_dp_max_information

from .mechanisms import gaussian_delta_50
from .report import check_record

#: (n, eps, sigma): Thm 3.1 not vacuous (beta < 1 at the paper's t and delta_hat)
SETTINGS = ((10_000, 0.01, 800.0), (100_000, 0.003, 3000.0), (1_000_000, 0.001, 10_000.0))
#: confidence of the distribution-free quantile bounds
CONFIDENCE = 0.999
_HALF_WIDTH_SD = 13.0


def _window(m: int, p: float) -> np.ndarray:
    """Counts of Binomial(m, p) within +-13 sd of the mean (all of them for small m)."""
    sd = math.sqrt(m * p * (1 - p))
    lo = max(0, math.floor(m * p - _HALF_WIDTH_SD * sd) - 1)
    hi = min(m, math.ceil(m * p + _HALF_WIDTH_SD * sd) + 1)
    return np.arange(lo, hi + 1)


def _log_phi(z: Any, sigma: float) -> Any:
    return -0.5 * (z / sigma) ** 2 - math.log(sigma * math.sqrt(2 * math.pi))


def log_marginal(a: np.ndarray, n: int, p: float, sigma: float, chunk: int = 400) -> np.ndarray:
    """ln of the output density P[A(X) = a] for each a (a sum over the count's window)."""
    c = _window(n, p)
    lb = binom.logpmf(c, n, p)
    out = np.empty(len(a))
    for j in range(0, len(a), chunk):
        blk = a[j : j + chunk, None]
        out[j : j + chunk] = logsumexp(lb[None, :] + _log_phi(blk - c[None, :], sigma), axis=1)
    return out


def privacy_losses(n: int, p: float, sigma: float, samples: int, rng: np.random.Generator) -> np.ndarray:
    """``samples`` draws of Z(A(X), X) in nats, (X, A(X)) from the joint distribution."""
    c = rng.binomial(n, p, size=samples)
    a = c + rng.normal(0.0, sigma, size=samples)
    return np.asarray(_log_phi(a - c, sigma) - log_marginal(a, n, p, sigma))


def _quantile_bounds(z: np.ndarray, q: float, conf: float = CONFIDENCE) -> tuple[float, float, float]:
    """(lower, point, upper) distribution-free confidence bounds on the q-quantile of z (order
    statistics: the number of samples below the quantile is Binomial(N, q)); the upper bound is
    +inf when N is too small to give one."""
    zs = np.sort(z)
    n = len(zs)
    a = (1 - conf) / 2
    lo = int(binom.ppf(a, n, q)) - 1  # 0-based order statistic
    hi = int(binom.ppf(1 - a, n, q))
    point = float(zs[min(n - 1, max(0, math.ceil(q * n) - 1))])
    return (float(zs[lo]) if lo >= 0 else -math.inf, point, float(zs[hi]) if hi < n else math.inf)


def _record(
    check: str,
    n: int,
    eps: float,
    sigma: float,
    delta: float,
    inputs: dict[str, Any],
    value: float,
    bound: float,
    note: str,
    t0: float,
) -> dict[str, Any]:
    return check_record(
        check,
        f"gaussian count (sigma={sigma:g}), Monte Carlo",
        {"n": n, "P": "Bernoulli(1/2)^n", **inputs},
        value,
        bound,
        t0,
        f"(eps, delta) = ({eps}, {delta:.3g}); {note}",
    )


def tail_check(n: int, eps: float, sigma: float, *, samples: int, seed: int, p: float = 0.5) -> list[dict[str, Any]]:
    """The proof's conclusion ``P[Z > k] <= beta`` by sampling Z: for Thm 3.1's (k, beta) at
    the paper's (t, delta_hat) and at the target beta = 0.5, the record's value is the upper
    99.9% confidence bound on Z's (1 - beta)-quantile in bits, held against k. The verdict
    fails only when that bound exceeds k; the exceedance count is in the note."""
    t0 = time.monotonic()
    delta = gaussian_delta_50(sigma, eps)
    zbits = privacy_losses(n, p, sigma, samples, np.random.default_rng(seed)) * LOG2E
    recs = []
    for target in (None, 0.5):
        bd = approx_dp_max_information(eps, delta, n, beta=target)
        lo, pt, hi = _quantile_bounds(zbits, 1 - bd.beta)
        over = int(np.count_nonzero(zbits > bd.k))
        recs.append(
            _record(
                "RRST-3.1 (MC tail)",
                n,
                eps,
                sigma,
                delta,
                {"beta": bd.beta, "samples": samples, "seed": seed},
                hi,
                bd.k,
                f"P[Z > k] <= beta by sampling: (1 - beta)-quantile of Z {pt:.4g} bits "
                f"(99.9% bounds {lo:.4g}, {hi:.4g}); {over} of {samples} samples above k; "
                f"mean Z {zbits.mean():.4g} bits (= I(X; A(X))), sd {zbits.std():.4g} bits",
                t0,
            )
        )
    return recs


def path_steps(n: int, p: float, sigma: float, rng: np.random.Generator, chunk: int = 256) -> dict[str, np.ndarray]:
    """One sampled path (x, a) and its martingale: for i = 1..n the step Z_i (nats), the two
    values Z_i could take (x_i = 0 and 1), the conditional mean E[Z_i | a, x_1^{i-1}] (the
    Kullback-Leibler divergence of X_i given (a, x_1^{i-1}) from X_i, nats), the sum of the
    conditional probabilities of X_i = 0 and X_i = 1 (1 up to rounding: a check of the
    computation), and Z itself."""
    x = rng.random(n) < p
    return steps_of(x, float(x.sum() + rng.normal(0.0, sigma)), p, sigma, chunk)


def steps_of(x: np.ndarray, a: float, p: float, sigma: float, chunk: int = 256) -> dict[str, np.ndarray]:
    """The martingale of :func:`path_steps` along the given records ``x`` (booleans) and
    output ``a``."""
    n = len(x)
    s = np.concatenate([[0], np.cumsum(x)])  # s_0 .. s_n
    # log g_i(s) for i = 0..n at s = s_i, and for i = 1..n at s = s_{i-1} (+ 0 / + 1)
    lg_at = np.empty(n + 1)
    lg_next0 = np.empty(n)
    lg_next1 = np.empty(n)
    sd = math.sqrt(n * p * (1 - p))
    w = int(math.ceil(_HALF_WIDTH_SD * sd)) + 2
    off = np.arange(-w, w + 1)
    for j in range(0, n + 1, chunk):
        i = np.arange(j, min(n + 1, j + chunk))
        m = n - i  # remaining records
        r = np.floor(m * p).astype(np.int64)[:, None] + off[None, :]
        lb = binom.logpmf(r, m[:, None], p)  # -inf outside [0, m]
        lg_at[i] = logsumexp(lb + _log_phi(a - s[i][:, None] - r, sigma), axis=1)
        later = i >= 1
        k = i[later]
        if len(k):
            rows, rr = lb[later], r[later]
            base = a - s[k - 1][:, None] - rr
            lg_next0[k - 1] = logsumexp(rows + _log_phi(base, sigma), axis=1)
            lg_next1[k - 1] = logsumexp(rows + _log_phi(base - 1, sigma), axis=1)
    prev = lg_at[:-1]  # log g_{i-1}(s_{i-1})
    q1 = p * np.exp(lg_next1 - prev)  # P[X_i = 1 | a, prefix]
    q0 = (1 - p) * np.exp(lg_next0 - prev)
    z1, z0 = np.log(q1 / p), np.log(q0 / (1 - p))
    z = np.where(x, z1, z0)
    kl = q1 * z1 + q0 * z0
    total = _log_phi(a - s[-1], sigma) - lg_at[0]
    return {"z": z, "z0": z0, "z1": z1, "kl": kl, "qsum": q0 + q1, "Z": np.array(total)}


def step_check(n: int, eps: float, sigma: float, *, paths: int, seed: int, p: float = 0.5) -> list[dict[str, Any]]:
    """Claim 3.5 and Lemma 3.7 along ``paths`` sampled paths, every step: the largest |Z_i|
    (either value of x_i, so F_i holds and the lemma's conditioning on it changes nothing)
    against 6 eps, and the largest exact conditional mean E[Z_i | a, x_1^{i-1}] against
    nu(delta_hat) at the paper's delta_hat (the calculator's sound Thm 3.1 body at n = 1,
    t = 0, in bits). Raises AssertionError when the computation is inconsistent (conditional
    probabilities not summing to 1, or the steps not telescoping to Z)."""
    t0 = time.monotonic()
    delta = gaussian_delta_50(sigma, eps)
    dhat = math.sqrt(eps * delta) / 15
    nu_bits = THM31[("sound", "k")].up(eps, delta, 1, 0, dhat)
    rng = np.random.default_rng(seed)
    zmax = klmax = 0.0
    for _ in range(paths):
        st = path_steps(n, p, sigma, rng)
        if not np.allclose(st["qsum"], 1.0, rtol=0, atol=1e-9):
            raise AssertionError(f"conditional probabilities do not sum to 1: {np.abs(st['qsum'] - 1).max():.3g}")
        if not math.isclose(float(st["z"].sum()), float(st["Z"]), rel_tol=1e-7, abs_tol=1e-9):
            raise AssertionError(f"steps do not telescope: {st['z'].sum()} vs {st['Z']}")
        zmax = max(zmax, float(np.abs(st["z0"]).max()), float(np.abs(st["z1"]).max()))
        klmax = max(klmax, float(st["kl"].max()))
    common = {"beta": "per step", "paths": paths, "seed": seed}
    return [
        _record(
            "RRST-3.5 (MC steps)",
            n,
            eps,
            sigma,
            delta,
            common,
            zmax,
            6 * eps,
            f"max |Z_i| over {paths} paths x {n} steps (nats) vs 6 eps",
            t0,
        ),
        _record(
            "RRST-3.7 (MC steps)",
            n,
            eps,
            sigma,
            delta,
            common,
            klmax * LOG2E,
            nu_bits,
            f"max exact E[Z_i | a, x_1^(i-1)] over {paths} paths x {n} steps (bits) vs "
            f"nu(delta_hat) at delta_hat = sqrt(eps delta)/15",
            t0,
        ),
    ]
