"""Independent references for the fuzz campaign: each published formula at 70 digits.

Written from the papers' statements (and the catalog's stated variants) directly in
:mod:`mpmath` at 70 significant digits, **without** importing anything from
:mod:`maxinfo_bounds`: a mistake in the calculator's one formula body cannot reappear here.
Each function takes exact inputs (:class:`mpmath.mpf`, converted exactly from floats, Fractions
and integers by :func:`exact`) and returns the true value to about 10^-65 relative, or raises
:class:`Outside` when the inputs are outside the theorem's stated conditions (then a refusal
is the right answer). Implicit quantities (roots, maxima) are located by bisection to 10^-50
relative, far below a float's spacing.

Callers run these inside ``mpmath.workdps(DPS)``.

Why one module over 400 lines: one independent 65-digit reference per calculator theorem, each
a few lines; kept together so a reader sees that none imports the calculator.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import mpmath
from mpmath import mpf

__all__ = ["DPS", "Outside", "Marginal", "Rejected", "exact", "run", "bisect_root", "maximise"]

#: working precision of every reference (significant decimal digits)
DPS = 70


class Outside(Exception):
    """The inputs are outside the theorem's stated conditions (a refusal is correct)."""


class Marginal(Exception):
    """A refusal here is by design: the inputs are valid but within a documented margin of a
    condition's edge (e.g. a target within 10^-6 relative of the smallest reachable one)."""


class Rejected(Exception):
    """The output breaks a promise the reference can check directly (e.g. a beta above the
    target it was asked for): a wrong-side result."""


def exact(x: Any) -> Any:
    """An input as an mpf: floats and integers exactly (up to 2^230), Fractions to 70 digits."""
    if isinstance(x, Fraction):
        return mpf(x.numerator) / x.denominator
    if isinstance(x, bool):
        raise TypeError("bool is not a number here")
    if isinstance(x, int):
        return mpf(x)
    if hasattr(x, "as_integer_ratio") and not isinstance(x, float):  # numpy scalars, longdouble
        try:
            num, den = x.as_integer_ratio()
        except (OverflowError, ValueError):  # inf, nan: as the float they are
            return mpf(float(x))
        return mpf(num) / den
    return mpf(float(x))


def run(fn: Callable[..., Any], *args: Any) -> Any:
    """Evaluate a reference at :data:`DPS` digits."""
    with mpmath.workdps(DPS):
        return fn(*args)


def bisect_root(f: Callable[[Any], Any], lo: Any, hi: Any, *, rel: float = 1e-50) -> Any:
    """The root of a function with a sign change on [lo, hi] (f(lo) and f(hi) of opposite
    signs), by bisection (geometric while the bracket spans more than a factor 4, when lo > 0)."""
    flo = f(lo)
    if flo == 0:
        return lo
    if f(hi) == 0:
        return hi
    sign_lo = flo > 0
    tol = mpf(rel)
    for _ in range(20000):
        if hi - lo <= tol * abs(hi):
            break
        mid = mpmath.sqrt(lo * hi) if lo > 0 and hi > 4 * lo else (lo + hi) / 2
        fm = f(mid)
        if fm == 0:
            return mid
        if (fm > 0) == sign_lo:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def maximise(f: Callable[[Any], Any], lo: Any, hi: Any, *, grid: int = 200, rel: float = 1e-30) -> Any:
    """The maximum of a unimodal function on [lo, hi] (lo > 0): a geometric grid, then golden
    section in log space around the best grid point. The value is accurate to far better
    than a float's spacing (the maximum is flat: a relative error r in the argument costs
    about r^2 in the value)."""
    xs = [lo * (hi / lo) ** (mpf(i) / grid) for i in range(grid + 1)]
    vals = [f(x) for x in xs]
    i = max(range(len(xs)), key=lambda j: vals[j])
    a, b = mpmath.log(xs[max(i - 1, 0)]), mpmath.log(xs[min(i + 1, grid)])
    g = (mpmath.sqrt(5) - 1) / 2
    c, d = b - g * (b - a), a + g * (b - a)
    fc, fd = f(mpmath.exp(c)), f(mpmath.exp(d))
    for _ in range(400):
        if b - a <= mpf(rel) * max(abs(a), 1):
            break
        if fc >= fd:
            b, d, fd = d, c, fc
            c = b - g * (b - a)
            fc = f(mpmath.exp(c))
        else:
            a, c, fc = c, d, fd
            d = a + g * (b - a)
            fd = f(mpmath.exp(d))
    return max(vals[i], fc, fd)


def ln2() -> Any:
    return mpmath.log(2)


def log2(x: Any) -> Any:
    return mpmath.log(x) / mpmath.log(2)


def tail(x: Any) -> float:
    """For messages: an mpf as a float (nearest)."""
    return float(x) if mpmath.isfinite(x) else math.inf


__all__ += ["ln2", "log2", "tail"]


# --------------------------------------------------------------------------------------------
# the formulas (RRST = Rogers, Roth, Smith, Thakkar 2016; DFHPRR = Dwork et al. 2015;
# DR = Dwork & Roth 2014; KOV15; BW18 = Balle & Wang 2018)


def pvalue(alpha: Any, k: Any, beta: Any) -> Any:
    """RRST Thm 1.3: gamma = (alpha - beta)/2^k, and 0 when beta >= alpha."""
    if beta >= alpha or mpmath.isinf(k):
        return mpf(0)
    return (alpha - beta) * mpmath.power(2, -k)


def pure_dp(eps: Any, n: Any) -> Any:
    """RRST Thm 1.4 (first part): k = eps n log2(e) bits."""
    return eps * n / ln2()


def pure_dp_product(eps: Any, n: Any, beta: Any) -> Any:
    """RRST Thm 1.4 (second part): k = log2(e) (eps^2 n/2 + eps sqrt(n ln(2/beta)/2)) bits."""
    return (eps**2 * n / 2 + eps * mpmath.sqrt(n * mpmath.log(2 / beta) / 2)) / ln2()


def mi_curve(b: Any, k: Any) -> Any:
    """RRST App. C: f_k(b) = k b + (1 - b) log2(1 - b)."""
    return k * b + (1 - b) * mpmath.log1p(-b) / ln2() if b < 1 else k


def mi_beta_star(m: Any, k: Any) -> Any:
    """The largest b in [0, 1] with f_k(b) <= m (1 when m >= k)."""
    if m >= k:
        return mpf(1)
    # f_k is convex, f_k(0) = 0 <= m, minimum at b0 = max(0, 1 - 2^(k - log2 e))
    b0 = max(mpf(0), 1 - mpmath.power(2, k - 1 / ln2()))
    if m == 0 and b0 == 0:
        return mpf(0)
    return bisect_root(lambda b: mi_curve(b, k) - m, b0, mpf(1))


def mi_paper_beta(m: Any, k: Any) -> Any:
    """RRST Lemma 1.5 (first part): beta = (m + 0.54)/k, at most 1."""
    return min((m + mpf(54) / 100) / k, mpf(1))


def to_mi(k: Any, beta: Any, support: Any, variant: str) -> Any:
    """RRST Lemma 1.5 (second part), in bits. sound: 2k + b ln(|S|/b) log2(e), b = beta/(1-2^-k),
    needs b <= 1/e; paper: (2k ln2 + 2 beta log2(|S|/(2 beta))/(1 - 2^-k)) / ln 2, needs
    beta <= 3(1 - 2^-k)/20."""
    om = 1 - mpmath.power(2, -k)
    if variant == "sound":
        b = beta / om
        if b > 1 / mpmath.e:
            raise Outside("beta/(1 - 2^-k) > 1/e")
        nats = 2 * k * ln2() + (b * mpmath.log(support / b) if b > 0 else 0)
    else:
        if beta > 3 * om / 20:
            raise Outside("beta > 3(1 - 2^-k)/20")
        nats = 2 * k * ln2() + (2 * beta * log2(support / (2 * beta)) / om if beta > 0 else 0)
    return nats / ln2()


def thm31(eps: Any, delta: Any, n: Any, t: Any, dh: Any, variant: str) -> tuple[Any, Any]:
    """RRST Thm 3.1 at (t, delta_hat): (k bits, beta), beta capped at 1. Conditions (both
    variants): 0 < eps <= 1/2, 0 < delta < eps; sound: e^{3eps} delta'' + delta_hat < 1;
    paper: delta_hat <= eps/15 and delta'' < 1."""
    if not (0 < eps <= mpf(1) / 2 and 0 < delta < eps):
        raise Outside("eps in (0, 1/2], delta in (0, eps)")
    d1 = 2 * delta / dh + 2 * delta / (1 - mpmath.exp(-eps))
    d2 = 2 * dh / (1 - mpmath.exp(-3 * eps))
    e3 = mpmath.exp(3 * eps)
    if variant == "paper":
        if not (dh <= eps / 15):
            raise Outside("delta_hat > eps/15")
        beta = mpmath.exp(-t * t / 2) + n * (d1 + d2)
        e6 = mpmath.exp(6 * eps)
        # eq. (7), the paper's log read as log2 (log e = log2 e)
        nu = (
            72 * eps**2
            + dh * (24 * e6 / (1 - mpmath.exp(-3 * eps)) + (2 * e3 + 1) / ln2())
            + dh**2 * 2 * (4 * e6**2 + 4 * e6 * e3 - 3 * e6 - 2 * e3 + 1) / (ln2() * (e3 - 1) ** 2)
        )
        k = n * nu + 6 * t * eps * mpmath.sqrt(n)
    else:
        if not (e3 * d2 + dh < 1):
            raise Outside("e^{3 eps} delta'' + delta_hat >= 1")
        beta = mpmath.exp(-t * t / 2) + n * (d1 + d2 - d1 * d2)
        c6 = 6 * eps / ln2()
        nu = c6 * (mpmath.exp(6 * eps) / (1 - d2) - 1) + log2((1 - d2) / (1 - e3 * d2 - dh))
        k = n * nu + c6 * t * mpmath.sqrt(n)
    return k, min(beta, mpf(1))


def thm31_beta_floor(eps: Any, delta: Any, n: Any, variant: str) -> Any:
    """The infimum over t and delta_hat (inside the variant's conditions) of Thm 3.1's beta:
    t -> inf removes e^{-t^2/2}, leaving n (delta' + delta'') (paper; convex in delta_hat,
    minimised in closed form at sqrt(delta (1 - e^{-3 eps})), clipped to delta_hat <= eps/15
    and delta'' < 1) or n (delta' + delta'' - delta' delta'') (sound; minimised numerically
    over delta_hat < 1/(1 + 2 e^{3 eps}/(1 - e^{-3 eps})), the regime's edge). A target
    beta is reachable exactly when it is above this value."""
    a = 1 - mpmath.exp(-3 * eps)
    base = 2 * delta / (1 - mpmath.exp(-eps))

    def d12(dh: Any) -> tuple[Any, Any]:
        return 2 * delta / dh + base, 2 * dh / a

    if variant == "paper":
        dh = min(mpmath.sqrt(delta * a), eps / 15, a / 2)
        d1, d2 = d12(dh)
        return n * (d1 + d2)
    hi = 1 / (1 + 2 * mpmath.exp(3 * eps) / a)

    def neg(dh: Any) -> Any:
        d1, d2 = d12(dh)
        return -(d1 + d2 - d1 * d2) if d1 < 1 else -(d1 + d2)  # past d' = 1: beta >= 1

    return -n * maximise(neg, min(delta * mpf(10) ** -3, hi / 2), hi * (1 - mpf(10) ** -30))


def description(size: Any, beta: Any) -> Any:
    """DFHPRR Thm 6: k = log2(|Y|/beta)."""
    return log2(size / beta)


def hoeffding(k: Any, beta: Any, tau: Any, n: Any) -> Any:
    """DFHPRR Thm 4 + Hoeffding: beta + 2^k 2 e^{-2 tau^2 n}, at most 1."""
    return min(beta + 2 * mpmath.power(2, k) * mpmath.exp(-2 * tau**2 * n), mpf(1))


def mcdiarmid(k: Any, beta: Any, tau: Any, n: Any, s: Any, variant: str) -> Any:
    """RRST Thm D.1: beta + c 2^k e^{-2 tau^2/(n s^2)}, c = 2 (sound) or 1 (paper); at most 1."""
    c = 2 if variant == "sound" else 1
    return min(beta + c * mpmath.power(2, k) * mpmath.exp(-2 * tau**2 / (n * s**2)), mpf(1))


def b1_paper(n: Any) -> Any:
    """RRST Lemma B.1 as stated: 0.37/sqrt(n)."""
    return mpf(37) / 100 / mpmath.sqrt(n)


_B1_MAX: dict[int, Any] = {}


def b1_optimal(n: Any) -> Any:
    """RRST Lemma B.1's proof at its best delta: max_delta (1/2 - delta)/sqrt(n ln(1/delta)/2)."""
    if DPS not in _B1_MAX:
        _B1_MAX[DPS] = maximise(
            lambda d: (mpf(1) / 2 - d) / mpmath.sqrt(mpmath.log(1 / d) / 2), mpf(10) ** -6, mpf(1) / 2 - mpf(10) ** -6
        )
    return _B1_MAX[DPS] / mpmath.sqrt(n)


def bnsssu(eps: Any, delta: Any, n: Any, s: Any) -> tuple[Any, Any]:
    """RRST Thm B.2: deviation 18 Delta eps n with probability delta/eps; 0 < eps < 1/3,
    0 < delta < eps/4, n >= ln(4 eps/delta)/eps^2."""
    if not (0 < eps < mpf(1) / 3 and 0 < delta < eps / 4):
        raise Outside("eps in (0, 1/3), delta in (0, eps/4)")
    if n < mpmath.log(4 * eps / delta) / eps**2:
        raise Outside("n < ln(4 eps/delta)/eps^2")
    return 18 * s * eps * n, min(delta / eps, mpf(1))


def mi_pvalue_paper(alpha: Any, m: Any) -> Any:
    """RRST Cor C.2: alpha/2 2^{-2(m + 0.54)/alpha}."""
    if alpha == 0:
        return mpf(0)
    return alpha / 2 * mpmath.power(2, -2 * (m + mpf(54) / 100) / alpha)


def mi_pvalue_optimal(alpha: Any, m: Any) -> Any:
    """sup over k > 0 of (alpha - beta*(k))/2^k (Lemma 1.5's exact beta* with Thm C.1)."""
    if alpha == 0:
        return mpf(0)

    def g(k: Any) -> Any:
        b = mi_beta_star(m, k)
        return (alpha - b) * mpmath.power(2, -k) if b < alpha else mpf(0)

    # beta*(k) >= ((m - 0.5307)/k): the maximiser has k >= m/alpha; and k <= 4 k_paper + 64
    lo = max(m / alpha, mpf(10) ** -9)
    hi = 4 * 2 * (m + mpf(54) / 100) / alpha + 64
    return max(maximise(g, lo, hi, grid=40, rel=1e-20), mi_pvalue_paper(alpha, m))


def russo_zou(alpha: Any, m: Any) -> Any:
    """RRST Thm C.3: the largest gamma in (0, 1/2) with gamma + sqrt(m ln2/ln(1/(2 gamma)))
    <= alpha (alpha when m = 0)."""
    if m == 0:
        return alpha
    if alpha == 0:
        return mpf(0)
    mn = m * ln2()

    def h(u: Any) -> Any:  # u = ln(1/(2 gamma)) > 0, decreasing
        return mpmath.exp(-u) / 2 + mpmath.sqrt(mn / u) - alpha

    hi = mpf(1)
    while h(hi) > 0:
        hi *= 4
    lo = mpf(10) ** -300
    while h(lo) < 0:
        lo /= 10**10
    return mpmath.exp(-bisect_root(h, lo, hi, rel=1e-55)) / 2


def ag_delta(s: Any, sigma: Any, eps: Any) -> Any:
    """BW18 Thm 8: delta(sigma) = Phi(s/2sigma - eps sigma/s) - e^eps Phi(-s/2sigma - eps sigma/s)."""
    a = s / (2 * sigma)
    b = eps * sigma / s
    return mpmath.ncdf(a - b) - mpmath.exp(eps) * mpmath.ncdf(-a - b)


def ag_sigma(s: Any, eps: Any, delta: Any) -> Any:
    """The smallest sigma with ag_delta(sigma) <= delta (delta(sigma) decreases in sigma)."""
    lo, hi = s, s
    while ag_delta(s, hi, eps) > delta:
        hi *= 4
    while ag_delta(s, lo, eps) <= delta:
        lo /= 4
    return bisect_root(lambda x: ag_delta(s, x, eps) - delta, lo, hi, rel=1e-45)


def ag_epsilon(sigma: Any, s: Any, delta: Any) -> Any:
    """The smallest eps >= 0 with ag_delta(sigma, eps) <= delta."""
    if ag_delta(s, sigma, mpf(0)) <= delta:
        return mpf(0)
    hi = mpf(1)
    while ag_delta(s, sigma, hi) > delta:
        hi *= 2
    return bisect_root(lambda e: ag_delta(s, sigma, e) - delta, mpf(0), hi, rel=1e-45)


def classic_gaussian(s: Any, eps: Any, delta: Any) -> Any:
    """DR Thm A.1: sigma = s sqrt(2 ln(1.25/delta))/eps, for eps in (0, 1)."""
    if not eps < 1:
        raise Outside("eps >= 1")
    return s * mpmath.sqrt(2 * mpmath.log(mpf(5) / 4 / delta)) / eps


def advanced(eps: Any, delta: Any, k: Any, dp: Any) -> tuple[Any, Any]:
    """DR Thm 3.20, k equal steps: eps' = min(k eps, sqrt(2k ln(1/delta')) eps + k eps (e^eps - 1)),
    delta_total = k delta + delta' (at most 1)."""
    adv = mpmath.sqrt(2 * k * mpmath.log(1 / dp)) * eps + k * eps * mpmath.expm1(eps)
    return min(adv, k * eps), min(k * delta + dp, mpf(1))


def advanced_groups(groups: list[tuple[Any, Any, int]], dp: Any) -> tuple[Any, Any]:
    """DR Thm 3.20, heterogeneous (KOV15's form): groups of k_i equal (eps_i, delta_i) steps;
    eps' = min(sum k_i eps_i, sqrt(2 ln(1/delta') sum k_i eps_i^2) + sum k_i eps_i (e^eps_i - 1)),
    delta_total = sum k_i delta_i + delta' (at most 1)."""
    basic = sum(k * e for e, _, k in groups)
    adv = mpmath.sqrt(2 * mpmath.log(1 / dp) * sum(k * e * e for e, _, k in groups)) + sum(
        k * e * mpmath.expm1(e) for e, _, k in groups
    )
    return min(adv, basic), min(sum(k * d for _, d, k in groups) + dp, mpf(1))


def runs_eps(e1: Any, runs: Any, d: Any) -> Any:
    """runs adaptive (e1, 0)-DP steps at total delta d: basic (d = 0) or the smaller of basic
    and advanced composition with delta' = d."""
    if d == 0:
        return runs * e1
    return advanced_groups([(e1, mpf(0), runs)], d)[0]


def sparse_vector_scales(c: Any, eps: Any, s: Any, d: Any) -> tuple[Any, Any]:
    """The smallest scales (b1, b2 = 2 b1) with which c runs of AboveThreshold (per run
    Delta/b1 + 2 Delta/b2 = 2 Delta/b1) compose to at most eps: b1 = 2 Delta/e1*, e1* the
    largest per-run eps with runs_eps(e1*) <= eps (bisection; runs_eps increases in e1)."""
    if d == 0:
        e1 = eps / c
    else:
        hi = eps / c
        while runs_eps(hi, c, d) <= eps:
            hi *= 2
        e1 = bisect_root(lambda x: runs_eps(x, c, d) - eps, eps / c, hi, rel=1e-45)
    return 2 * s / e1, 4 * s / e1


def kov_delta(eps: Any, delta: Any, k: int, eg: Any) -> Any:
    """KOV15 Thm 3.3: 1 - (1-delta)^k + (1-delta)^k sum_l C(k,l)(e^{(k-l)eps} - e^{eg + l eps})_+
    / (1 + e^eps)^k, summed in log space term by term (k up to a few 10^4)."""
    lz = k * mpmath.log1p(mpmath.exp(eps))
    s = mpf(0)
    for l in range(k + 1):
        if (k - 2 * l) * eps <= eg:
            break
        lc = mpmath.loggamma(k + 1) - mpmath.loggamma(l + 1) - mpmath.loggamma(k - l + 1)
        a = lc + (k - l) * eps - lz
        s += mpmath.exp(a) * -mpmath.expm1(eg + (2 * l - k) * eps)
    lost = kov_floor(delta, k)
    return lost + (1 - lost) * s


def kov_floor(delta: Any, k: int) -> Any:
    """1 - (1 - delta)^k, without cancellation for tiny delta."""
    return -mpmath.expm1(k * mpmath.log1p(-delta))


def kov_eps(eps: Any, delta: Any, k: int, dt: Any) -> Any:
    """The smallest eps_total >= 0 with kov_delta <= dt."""
    if dt < kov_floor(delta, k):
        raise Outside("delta_total < 1 - (1 - delta)^k")
    if kov_delta(eps, delta, k, mpf(0)) <= dt:
        return mpf(0)
    hi = k * eps
    return bisect_root(lambda g: kov_delta(eps, delta, k, g) - dt, mpf(0), hi, rel=1e-40)


def sv_factor(i: int, budget: int) -> int:
    """DFHPRR Thm 10: l_i = sum_{j=0}^{min(i-1, B)} C(i, j) (an exact integer)."""
    return sum(math.comb(i, j) for j in range(min(i - 1, budget) + 1))


# -- exact accounting (GDP, zCDP, exact mixed composition), written from the papers' statements --


def gdp_delta(mu: Any, eps: Any) -> Any:
    """DRS22 Cor. 2.13: delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)."""
    return mpmath.ncdf(-eps / mu + mu / 2) - mpmath.exp(eps) * mpmath.ncdf(-eps / mu - mu / 2)


def gdp_eps(mu: Any, delta: Any) -> Any:
    """The smallest eps >= 0 with gdp_delta(mu, eps) <= delta."""
    if gdp_delta(mu, mpf(0)) <= delta:
        return mpf(0)
    hi = mpf(1)
    while gdp_delta(mu, hi) > delta:
        hi *= 2
    return bisect_root(lambda e: gdp_delta(mu, e) - delta, mpf(0), hi, rel=1e-45)


def gdp_mu(eps: Any, delta: Any) -> Any:
    """The largest mu with gdp_delta(mu, eps) <= delta (delta grows with mu)."""
    lo, hi = mpf(1), mpf(1)
    while gdp_delta(hi, eps) <= delta:
        hi *= 4
    while gdp_delta(lo, eps) > delta:
        lo /= 4
    return bisect_root(lambda m: gdp_delta(m, eps) - delta, lo, hi, rel=1e-45)


def cks_eps_at(rho: Any, delta: Any, a: Any) -> Any:
    """CKS20 Prop. 12 at order a, solved for eps: from delta = e^{(a-1)(a rho - eps)} (1 - 1/a)^a / (a - 1)."""
    return a * rho - (mpmath.log(delta) + mpmath.log(a - 1) - a * mpmath.log(1 - 1 / a)) / (a - 1)


def cks_eps(rho: Any, delta: Any) -> Any:
    """min over a > 1 of :func:`cks_eps_at` (ternary search on log(a - 1); the bound is unimodal
    there), at least 0."""
    lo, hi = mpf(-80), mpf(700)

    def f(t: Any) -> Any:
        return cks_eps_at(rho, delta, 1 + mpmath.exp(t))

    for _ in range(400):
        m1, m2 = lo + (hi - lo) / 3, hi - (hi - lo) / 3
        if f(m1) < f(m2):
            hi = m2
        else:
            lo = m1
    return max(mpf(0), f((lo + hi) / 2))


def rr_renyi(eps: Any, a: Any) -> Any:
    """Renyi divergence of order a between randomized responses with parameter eps (Steinke
    2024 Thm 4: the worst eps-DP pair)."""
    return mpmath.log(
        mpmath.exp(a * eps) / (mpmath.exp(eps) + 1) + mpmath.exp(eps - a * eps) / (mpmath.exp(eps) + 1)
    ) / (a - 1)


def mixed_delta(eps_step: Any, k: int, mu: Any, eg: Any) -> Any:
    """E_P[(1 - e^{eg - L})_+] for L = k randomized responses of eps_step plus N(mu^2/2, mu^2)
    (mu = 0: none), summed over the number m of negative responses."""
    p = mpmath.exp(eps_step) / (1 + mpmath.exp(eps_step))
    s = mpf(0)
    for m in range(k + 1):
        x = eg - (k - 2 * m) * eps_step
        if mu == 0:
            g = -mpmath.expm1(x) if x < 0 else mpf(0)
        else:
            g = gdp_delta(mu, x)
        s += mpmath.binomial(k, m) * p ** (k - m) * (1 - p) ** m * g
    return s


def mixed_eps(eps_step: Any, k: int, mu: Any, delta: Any, near: Any = None) -> Any:
    """The smallest eps >= 0 with mixed_delta <= delta (bisection; ``near``, a value believed
    close, only narrows the first bracket: the root is bracketed by sign checks either way)."""
    if mixed_delta(eps_step, k, mu, mpf(0)) <= delta:
        return mpf(0)
    if near is not None and near > 0:
        lo, hi = mpf(near) * (1 - mpf(10) ** -6), mpf(near) * (1 + mpf(10) ** -6)
        while lo > 0 and mixed_delta(eps_step, k, mu, lo) <= delta:
            lo /= 2
        while mixed_delta(eps_step, k, mu, hi) > delta:
            hi *= 2
        return bisect_root(lambda e: mixed_delta(eps_step, k, mu, e) - delta, lo, hi, rel=1e-20)
    hi = k * eps_step + mu * mu + 10 * mu + 1
    while mixed_delta(eps_step, k, mu, hi) > delta:
        hi *= 2
    return bisect_root(lambda e: mixed_delta(eps_step, k, mu, e) - delta, mpf(0), hi, rel=1e-20)


def gauss_max_half_width(sigma: Any, k: Any, beta: Any) -> Any:
    """The t with (2 Phi(t/sigma) - 1)^k = 1 - beta: sigma sqrt(2) x with erfc(x) = u,
    u = 1 - (1 - beta)^(1/k) (bisection on log erfc, so that u far below 10^-70 is exact)."""
    if not (0 < beta < 1):
        raise Outside("beta outside (0, 1)")
    u = -mpmath.expm1(mpmath.log1p(-beta) / k)
    hi = mpf(1)
    while mpmath.erfc(hi) > u:
        hi *= 2
    x = bisect_root(lambda v: mpmath.log(u) - mpmath.log(mpmath.erfc(v)), mpf(0), hi, rel=1e-50)
    return sigma * mpmath.sqrt(2) * x


def gauss_max_coverage(sigma: Any, k: Any, t: Any) -> Any:
    """P(max_{j <= k} |Z_j| <= t) for i.i.d. N(0, sigma^2): (1 - erfc(t/(sigma sqrt 2)))^k."""
    return mpmath.exp(k * mpmath.log1p(-mpmath.erfc(t / (sigma * mpmath.sqrt(2)))))


def binomial_miss_sup(m: int, t: Fraction) -> Fraction:
    """sup_p P_p(|X - m p| > m t), X ~ Bin(m, p), exactly (rationals): on each open interval
    between consecutive points where m(p - t) or m(p + t) is an integer the miss event is one
    set of counts, whose probability is decreasing then increasing in p, so the interval's
    supremum is the set's probability at one of its ends; the breakpoints' own values are
    included. Small m only (the cost is about m^3)."""
    pts = {Fraction(0), Fraction(1)}
    for j in range(-m, 2 * m + 1):
        for bp in (Fraction(j, m) + t, Fraction(j, m) - t):
            if 0 <= bp <= 1:
                pts.add(bp)
    pts_sorted = sorted(pts)

    def miss(p: Fraction, lo_set: int, hi_set: int) -> Fraction:
        return sum(
            (math.comb(m, i) * p**i * (1 - p) ** (m - i) for i in range(m + 1) if i <= lo_set or i >= hi_set),
            Fraction(0),
        )

    best = Fraction(0)
    for a, b in zip(pts_sorted, pts_sorted[1:]):
        mid = (a + b) / 2
        lo_set, hi_set = math.ceil(m * (mid - t)) - 1, math.floor(m * (mid + t)) + 1
        best = max(best, miss(a, lo_set, hi_set), miss(b, lo_set, hi_set))
    for p in pts_sorted:
        best = max(best, miss(p, math.ceil(m * (p - t)) - 1, math.floor(m * (p + t)) + 1))
    return best


def split_binomial_coverage(n: int, k: int, t: Any) -> Any:
    """(1 - sup_p P_p(|X/m - p| > t))^k, m = floor(n/k): the coverage of exact binomial
    splitting at half-width t (t a float, taken exactly)."""
    if k > n:
        raise Outside("k > n: a query without records")
    f = binomial_miss_sup(n // k, Fraction(float(t)))
    return (1 - mpf(f.numerator) / f.denominator) ** k


def split_binomial_width_below(n: int, k: int, beta: Any) -> Any:
    """A t just below the smallest half-width of exact binomial splitting (its coverage is
    below 1 - beta there; bisection on t with the exact coverage, to 2^-30 relative)."""
    if k > n:
        raise Outside("k > n: a query without records")
    lo, hi = mpf(0), mpf(1)
    while hi - lo > hi * mpf(2) ** -30:
        mid = (lo + hi) / 2
        if split_binomial_coverage(n, k, mid) >= 1 - beta:
            hi = mid
        else:
            lo = mid
    return lo


def jlnrss(eps: Any, delta: Any, alpha: Any, beta: Any, c: Any, d: Any) -> tuple[Any, Any]:
    """JLNRSS Thm 4 with Lemma 7: half-width alpha + e^eps - 1 + c + 2d, coverage
    1 - beta/c - delta/d (at least 0)."""
    return alpha + mpmath.expm1(eps) + c + 2 * d, max(mpf(0), 1 - beta / c - delta / d)


def jlnrss_sensitive(
    eps: Any, delta: Any, alpha: Any, beta: Any, c: Any, d: Any, n: Any, sens: Any, value_range: Any
) -> tuple[Any, Any]:
    """JLNRSS Lemma 15 with Thm 4's step for a range R: half-width
    alpha + n Delta (e^eps - 1 + 4d) + R c, coverage 1 - beta/c - delta/d (at least 0)."""
    return alpha + n * sens * (mpmath.expm1(eps) + 4 * d) + value_range * c, max(mpf(0), 1 - beta / c - delta / d)


def split_width(n: Any, k: Any, beta: Any) -> Any:
    """Hoeffding on floor(n/k) records per query, union bound over k: sqrt(ln(2k/beta)/(2m))."""
    if k > n:
        raise Outside("k > n: a query without records")
    m = mpmath.floor(n / k)
    return mpmath.sqrt(mpmath.log(2 * k / beta) / (2 * m))
