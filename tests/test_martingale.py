"""The Monte Carlo of RRST Thm 3.1's privacy-loss martingale (proofs_checks.martingale),
against brute force, quadrature and the definition of a quantile; and the quick campaign."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import integrate, stats

from proofs_checks import martingale


def _brute_steps(x, a, p, sigma):
    """Z_i = ln(P[X_i = x_i | a, x_1^(i-1)] / P[X_i = x_i]) by summing over all 2^n datasets."""
    n = len(x)
    xs = np.array(list(itertools.product([0, 1], repeat=n)))
    w = np.prod(np.where(xs == 1, p, 1 - p), axis=1) * stats.norm.pdf(a - xs.sum(axis=1), 0, sigma)
    z, kl = [], []
    for i in range(n):
        pre = np.all(xs[:, :i] == x[:i], axis=1)
        q1 = w[pre & (xs[:, i] == 1)].sum() / w[pre].sum()
        q = q1 if x[i] else 1 - q1
        z.append(math.log(q / (p if x[i] else 1 - p)))
        kl.append(q1 * math.log(q1 / p) + (1 - q1) * math.log((1 - q1) / (1 - p)))
    total = math.log(stats.norm.pdf(a - sum(x), 0, sigma) / w.sum())
    return np.array(z), np.array(kl), total


@pytest.mark.parametrize(
    "x,a,p,sigma", [([1, 0, 1, 1, 0], 2.3, 0.5, 1.5), ([0, 0, 0, 1], -1.0, 0.3, 0.8), ([1, 1, 1], 5.0, 0.9, 2.0)]
)
def test_steps_match_brute_force(x, a, p, sigma):
    st = martingale.steps_of(np.array(x, dtype=bool), a, p, sigma)
    z, kl, total = _brute_steps(np.array(x), a, p, sigma)
    assert np.allclose(st["z"], z, rtol=1e-10, atol=1e-12)
    assert np.allclose(st["kl"], kl, rtol=1e-9, atol=1e-14)
    assert float(st["Z"]) == pytest.approx(total, rel=1e-10)
    assert st["z"].sum() == pytest.approx(total, rel=1e-10)  # the steps telescope
    assert np.allclose(st["qsum"], 1, atol=1e-12)


def test_privacy_loss_mean_is_the_mutual_information():
    """E[Z] = I(X; A(X)) = I(count; count + noise): quadrature, against 40,000 samples."""
    n, p, sigma = 20, 0.5, 1.0
    c = np.arange(n + 1)
    b = stats.binom.pmf(c, n, p)

    def integrand(a):
        dens = stats.norm.pdf(a - c, 0, sigma)
        m = float(b @ dens)
        return float(np.sum(b * dens * np.log2(np.maximum(dens, 1e-300) / m)))

    mi = integrate.quad(integrand, -12, n + 12, limit=400, epsabs=1e-12)[0]
    z = martingale.privacy_losses(n, p, sigma, 40_000, np.random.default_rng(5)) * martingale.LOG2E
    assert abs(z.mean() - mi) < 5 * z.std() / math.sqrt(len(z))
    assert 1.0 < mi < 2.0  # about (1/2) log2(1 + 5) = 1.29 for a Gaussian count


def test_quantile_bounds_cover_the_true_quantile():
    """The order-statistic bounds contain the true 0.9-quantile of U(0, 1) in >= 99% of 300
    draws (nominal 99.9%)."""
    rng = np.random.default_rng(11)
    miss = 0
    for _ in range(300):
        lo, pt, hi = martingale._quantile_bounds(rng.random(3000), 0.9)
        assert lo <= pt <= hi
        miss += not (lo <= 0.9 <= hi)
    assert miss <= 3
    # too few samples for an upper bound on a high quantile: +inf, never a finite guess
    assert martingale._quantile_bounds(np.arange(10.0), 0.999)[2] == math.inf


def test_tail_and_step_checks_hold_and_can_fail(monkeypatch):
    recs = martingale.tail_check(10_000, 0.01, 800.0, samples=2000, seed=3)
    recs += martingale.step_check(500, 0.01, 800.0, paths=2, seed=4)
    assert len(recs) == 4 and all(r["verdict"] == "holds" for r in recs)
    tail = recs[0]
    # far from tight: the quantile is hundredths of a bit, the bound ~66 bits
    assert tail["value"] < 0.1 and 60 < tail["bound"] < 70 and tail["inputs"]["beta"] < 0.4

    class Tiny:  # a calculator whose k is below the sampled quantile
        k, beta = 1e-4, 0.369

    monkeypatch.setattr(martingale, "approx_dp_max_information", lambda *a, **k: Tiny())
    bad = martingale.tail_check(10_000, 0.01, 800.0, samples=2000, seed=3)
    assert all(r["verdict"] == "FAILS" for r in bad)
