"""Proof steps as machine-checked claims: the registry and its runner.

Each claim is one quantitative step of a proof: its location, a sympy expression, the parameter
domain the paper states (a box, with coupling constraints), and its kind:

* ``identity``: lhs == rhs (sympy simplification, cross-checked at random points);
* ``inequality``: g >= 0 on the domain (interval certification, :mod:`proofs_checks.interval`);
* ``precondition``: a parameter choice satisfies what a lemma assumes (an inequality);
* ``finite``: a statement about integers, checked exhaustively on a stated finite range (a
  refutation there is a refutation; holding there is reported as ``holds on the range``, which
  is not a certificate for all integers).

A refuted claim names the corrected claim (``sound``) that the proof does support, which is
checked in turn; docs/errata.md records each. RRST's ``log`` is base 2 (``log2`` below).
Not stated as claims (no constants of their own): the conditioning arguments of Lemma 3.8 and
Claim 3.3 in general form, the disjoint-ball count (14), the probability facts (22)-(23).

Why one module over 400 lines: the registry of claims is one list, paper by paper, with the
small builders they share; splitting it by paper would scatter the cross-paper corrections.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sympy

from maxinfo_bounds import arith
from maxinfo_bounds.theorems import composition, description, estimation, generalization, holdout, mutual_info, pvalues
from maxinfo_bounds.theorems.dp_accounting import composition as dp_composition
from maxinfo_bounds.theorems.dp_accounting import gdp, mechanisms, zcdp
from maxinfo_bounds.theorems.maxinfo_dp import approx, pure

from .codes import ball_volume
from .interval import Verdict, certify_inequality, check_identity
from .progress import Progress
from .report import versions

__all__ = ["Claim", "CLAIMS", "check_claim", "run"]

eps, delta, x, y, B, k, alpha, beta, n = sympy.symbols("eps delta x y B k alpha beta n", positive=True)
rho = sympy.Symbol("rho", positive=True)
q, u, z, theta = sympy.symbols("q u z theta", nonnegative=True)
E3 = sympy.exp(3 * eps)
dp1, dp2, tau, m, w, t, lam = sympy.symbols("dprime dsecond tau m w t lam", positive=True)
p1, a11, a12, a21, a22 = sympy.symbols("p1 a11 a12 a21 a22", nonnegative=True)
# the mechanisms' and accountants' parameters: a sensitivity, noise scales, Renyi order a, the
# free parameters c and d of the transfer theorem, the support size |Sigma|, a bounded range
s, sig, b1, b2, a, cc, dd, Sig, eta = sympy.symbols("s sigma b1 b2 a c d Sigma eta", positive=True)
#: the length of the interval a Delta-sensitive query's values lie in (JLNRSS-transfer-sensitive)
_R = sympy.Symbol("R", positive=True)


def log2(v: Any) -> Any:
    return sympy.log(v) / sympy.log(2)


@dataclass(frozen=True)
class Claim:
    id: str
    location: str
    statement: str
    kind: str  # identity | inequality | precondition | finite
    expr: Callable[[], Any]  # g (>= 0), or (lhs, rhs) for identities
    box: dict[str, tuple[float, float]]
    constraints: Callable[[], Sequence[Any]] = lambda: ()
    expected: str = "certified"  # what the campaign found (tests hold it)
    sound: str | None = None  # id of the corrected claim, if refuted
    note: str = ""
    max_boxes: int = 20_000
    extra: dict[str, Any] = field(default_factory=dict)


def body(f: arith.Formula, *args: Any) -> Any:
    """A calculator formula's own body, evaluated symbolically (the SYMPY context)."""
    return f.body(arith.SYMPY, *args, **f.kwargs)


def thm31(variant: str, part: str) -> Any:
    """The calculator's RRST Thm 3.1 body (``w`` stands for delta_hat)."""
    return body(approx.THM31[(variant, part)], eps, delta, n, t, w)


#: Thm D.1's parameters for its two calc claims (lam stands for the theorem's constant C)
_D1_BOX = {
    "k": (0.0, 50.0),
    "beta": (0.0, 1.0),
    "lam": (0.1, 20.0),
    "eps": (1e-3, 1.0),
    "s": (1e-3, 10.0),
    "n": (1.0, 1e3),
}

#: RRST Lemma 1.5 (second part): its displayed bound (read in nats) and the domain of its claims
_L15B_BOX = {"k": (0.01, 50.0), "beta": (1e-12, 0.1), "Sigma": (2.0, 1e6)}


def _lemma15b_displayed() -> Any:
    return 2 * k * sympy.log(2) + 2 * beta * log2(Sig / (2 * beta)) / (1 - 2**-k)


CLAIMS: list[Claim] = [
    Claim(
        "RRST-1.3.gamma",
        "RRST Thm 1.3 (proof, last line)",
        "2^k * gamma + beta = alpha at gamma = (alpha - beta)/2^k",
        "identity",
        lambda: (2**k * (alpha - beta) / 2**k + beta, alpha),
        {"k": (0.0, 50.0), "alpha": (0.0, 1.0), "beta": (0.0, 1.0)},
    ),
    Claim(
        "RRST-1.4.bits",
        "RRST Thm 1.4 (pure DP: ratio <= e^{eps n})",
        "log2(e^{eps n}) = eps n log2(e) bits",
        "identity",
        lambda: (log2(sympy.exp(eps * n)), eps * n / sympy.log(2)),
        {"eps": (0.001, 2.0), "n": (1.0, 1e4)},
    ),
    Claim(
        "RRST-3.1.L3.7.72eps2",
        "RRST Lemma 3.7 (to reach eq. (7))",
        "6 eps (e^{6 eps} - 1) <= 72 eps^2 for eps in (0, 1/2] (divided by eps^2)",
        "inequality",
        lambda: 72 - 6 * (sympy.exp(6 * eps) - 1) / eps,
        {"eps": (1e-6, 0.5)},
        expected="refuted",
        sound="RRST-3.1.L3.7.72eps2.sound",
        note="fails for eps > 0.20941 (root of e^{6 eps} - 1 = 12 eps)",
    ),
    Claim(
        "RRST-3.1.L3.7.72eps2.sound",
        "RRST Lemma 3.7, corrected range",
        "6 eps (e^{6 eps} - 1) <= 72 eps^2 for eps in (0, 0.2094]",
        "inequality",
        lambda: 72 - 6 * (sympy.exp(6 * eps) - 1) / eps,
        {"eps": (1e-6, 0.2094)},
        note="the calculator's sound variant keeps Lemma 3.7's exact form instead",
    ),
    Claim(
        "RRST-3.1.L3.7.log1m",
        "RRST Lemma 3.7 (bound on E[Z_i] outside X(a, x))",
        "-ln(1 - u) <= u + 2 u^2 for u = e^{3 eps} q + delta_hat in [0, 1/2]",
        "inequality",
        lambda: u + 2 * u**2 + sympy.log(1 - u),
        {"u": (0.0, 0.5)},
        note="with ln(1 - q) <= -q this gives the step to (e^{3eps} - 1) q + dhat + 2(...)^2",
    ),
    Claim(
        "RRST-3.1.L3.7.jensen",
        "RRST Lemma 3.7 (first display: Jensen's inequality, then the factor Pr[X_i in X(a, x)] dropped)",
        "P log2(x) <= log2(x) for P = Pr[X_i in X(a, x)] in (0, 1) and x = Pr[X_i in X(a, x) | a, x]"
        " / Pr[X_i in X(a, x)] (theta stands for P)",
        "inequality",
        lambda: (1 - theta) * log2(x),
        {"theta": (0.5, 0.999), "x": (0.5, 2.0)},
        expected="refuted",
        sound="RRST-3.1.L3.7.jensen.sound",
        note="needs x >= 1, which the proof uses silently; for x < 1 the left side is negative and "
        "the lemma's next bound, which is >= 0 (RRST-3.1.L3.7.jensen.sound), covers it",
    ),
    Claim(
        "RRST-3.1.L3.7.jensen.sound",
        "RRST Lemma 3.7, the step as its conclusion can use it",
        "P log2(x) <= max(0, log2 x) <= log2((1 - q)/(1 - (e^{3 eps} q + dhat))): the last bound is "
        ">= 0 because e^{3 eps} q + dhat - q >= 0 (delta stands for dhat)",
        "inequality",
        lambda: (E3 - 1) * q + delta,
        {"eps": (1e-6, 0.5), "q": (0.0, 0.5), "delta": (0.0, 0.034)},
        note="so the lemma's tau(dhat) and nu(dhat) stand; docs/errata.md, Lemma 3.7's first display",
    ),
    Claim(
        "RRST-3.1.L3.7.q",
        "RRST Lemma 3.7 (substituting q <= 2 dhat/(1 - e^{-3 eps}))",
        "(e^{3e}-1) q + dh + 2(e^{3e} q + dh)^2 is increasing in q >= 0, so q may be replaced "
        "by its bound (derivative in q, with q = theta 2dh/(1-e^{-3e}), theta in [0, 1])",
        "inequality",
        lambda: (E3 - 1) + 4 * E3 * (E3 * theta * 2 * delta / (1 - 1 / E3) + delta),
        {"eps": (1e-4, 0.5), "delta": (1e-12, 0.034), "theta": (0.0, 1.0)},
        note="delta stands for delta_hat, up to eps/15 <= 0.034; at theta = 1 both sides agree",
    ),
    Claim(
        "RRST-3.1.L3.7.tau",
        "RRST Lemma 3.7 (definition of tau(delta_hat))",
        "(e^{3e}-1) 2dh/(1-e^{-3e}) + dh + 2dh^2(2e^{3e}/(1-e^{-3e}) + 1)^2 = dh(2e^{3e} + 1) + "
        "dh^2 2(4e^{12e} + 4e^{9e} - 3e^{6e} - 2e^{3e} + 1)/(e^{6e} - 2e^{3e} + 1)",
        "identity",
        lambda: (
            (E3 - 1) * 2 * delta / (1 - 1 / E3) + delta + 2 * delta**2 * (2 * E3 / (1 - 1 / E3) + 1) ** 2,
            delta * (2 * E3 + 1)
            + delta**2 * 2 * (4 * E3**4 + 4 * E3**3 - 3 * E3**2 - 2 * E3 + 1) / (E3**2 - 2 * E3 + 1),
        ),
        {"eps": (0.01, 0.5), "delta": (1e-9, 0.03)},
    ),
    Claim(
        "RRST-3.1.L3.7.z-range",
        "RRST Lemma 3.7 (1/(1 - z) <= 1 + 2z needs z <= 1/2)",
        "z = 2 dhat/(1 - e^{-3 eps}) <= 1/2 for dhat = theta eps/15, theta in (0, 1], eps <= 1/2",
        "precondition",
        lambda: sympy.Rational(1, 2) - 2 * theta * eps / 15 / (1 - 1 / E3),
        {"eps": (1e-6, 0.5), "theta": (0.0, 1.0)},
    ),
    Claim(
        "RRST-3.1.L3.7.recip",
        "RRST Lemma 3.7 (last displayed step before (7))",
        "1/(1 - z) <= 1 + 2z for z in [0, 1/2]",
        "inequality",
        lambda: 1 + 2 * z - 1 / (1 - z),
        {"z": (0.0, 0.5)},
        note="equalities at z = 0 and z = 1/2, decided exactly",
    ),
    Claim(
        "RRST-3.1.log-base",
        "RRST Lemma 3.7 / Azuma: |Z_i| <= 6 eps with Z_i in bits",
        "log2(e^{6 eps}) <= 6 eps (a privacy-loss bound in nats used for a quantity in bits)",
        "inequality",
        lambda: 6 * eps - log2(sympy.exp(6 * eps)),
        {"eps": (1e-6, 0.5)},
        expected="refuted",
        sound="RRST-3.1.log-base.sound",
        note="the sound variant uses 6 eps log2(e) bits (docs/errata.md, Thm 3.1 log bases)",
    ),
    Claim(
        "RRST-3.1.log-base.sound",
        "RRST Lemma 3.7 / Azuma, in bits: the calculator's Thm 3.1",
        "d k/dt = 6 eps log2(e) sqrt(n) for the calculator's sound Thm 3.1 k (Azuma with |Z_i| <= "
        "6 eps nats = 6 eps log2(e) bits)",
        "identity",
        lambda: (sympy.diff(thm31("sound", "k"), t), 6 * eps * sympy.sqrt(n) / sympy.log(2)),
        {"eps": (1e-3, 0.5), "delta": (1e-12, 1e-6), "n": (1.0, 1e4), "t": (0.1, 10.0), "w": (1e-4, 0.03)},
        note="w stands for delta_hat; the refuted claim above is the paper's 6 eps",
    ),
    Claim(
        "RRST-3.1.C3.6",
        "RRST Claim 3.6 (last line)",
        "1 - (1 - delta'')(1 - delta') = delta' + delta'' - delta' delta''",
        "identity",
        lambda: (1 - (1 - dp2) * (1 - dp1), dp1 + dp2 - dp1 * dp2),
        {"dprime": (0.0, 1.0), "dsecond": (0.0, 1.0)},
    ),
    Claim(
        "RRST-3.1.C3.6.union",
        "RRST Thm 3.1 proof (beta uses n(delta' + delta''))",
        "delta' + delta'' - delta' delta'' <= delta' + delta'' (the paper's beta is valid, "
        "the sound variant uses the smaller value)",
        "inequality",
        lambda: dp1 * dp2,
        {"dprime": (0.0, 1.0), "dsecond": (0.0, 1.0)},
    ),
    Claim(
        "RRST-3.1.C3.5.dsecond",
        "RRST Claim 3.5 (Lemma A.6(2) at (3 eps, delta_hat))",
        "Lemma A.6(2) with (3 eps, dh) gives point-wise (6 eps, 2 dh/(1 - e^{-3 eps})) = delta''",
        "identity",
        lambda: (2 * delta / (1 - sympy.exp(-3 * eps)), 2 * delta * E3 / (E3 - 1)),
        {"eps": (0.001, 0.5), "delta": (1e-12, 0.1)},
    ),
    Claim(
        "DFHPRR-4.remark.identity",
        "DFHPRR §2.1 remark after Thm 8",
        "2^{log2(e) tau^2 n} * 2 e^{-2 tau^2 n} = 2 e^{-tau^2 n}",
        "identity",
        lambda: (2 ** (log2(sympy.E) * tau**2 * n) * 2 * sympy.exp(-2 * tau**2 * n), 2 * sympy.exp(-(tau**2) * n)),
        {"tau": (0.001, 0.5), "n": (1.0, 1e4)},
    ),
    Claim(
        "DFHPRR-8.remark.1.25",
        "DFHPRR §2.1 remark after Thm 8",
        "Thm 8 at eps = tau, beta = 2 e^{-tau^2 n}: log e (tau^2 n/2 + tau sqrt(n ln(2/beta)/2)) "
        "<= 1.25 log e tau^2 n (the constant is 1/2 + 1/sqrt 2 = 1.2071)",
        "inequality",
        lambda: sympy.Rational(5, 4) * tau**2 * n - (tau**2 * n / 2 + tau * sympy.sqrt(n * (tau**2 * n) / 2)),
        {"tau": (0.001, 1.0), "n": (1.0, 1e6)},
    ),
    Claim(
        "RRST-C.2.vs-RZ.paper-units",
        "RRST App. C, after Thm C.3 (as written)",
        "alpha <= 0.05, m >= 0.05: Cor C.2's (alpha/2) 2^{-(2/alpha)(m + 0.54)} >= the Russo-Zou "
        "envelope 2^{-log2(e) m/alpha^2}/2, with the same number m in both (log2 of the ratio)",
        "inequality",
        lambda: log2(alpha) - (2 / alpha) * (m + sympy.Rational(54, 100)) + log2(sympy.E) * m / alpha**2,
        {"alpha": (1e-4, 0.05), "m": (0.05, 100.0)},
        note="true as written, but m is bits on the left and nats on the right (errata)",
    ),
    Claim(
        "RRST-C.2.vs-RZ.bits",
        "RRST App. C, after Thm C.3 (one unit: m in bits)",
        "alpha <= 0.05, m >= 0.05 bits: Cor C.2 >= the envelope 2^{-m/alpha^2}/2 (m ln 2 nats)",
        "inequality",
        lambda: log2(alpha) - (2 / alpha) * (m + sympy.Rational(54, 100)) + m / alpha**2,
        {"alpha": (1e-4, 0.05), "m": (0.05, 100.0)},
        expected="refuted",
        sound="RRST-C.2.vs-RZ.bits.sound",
        note="at alpha = 0.05, m = 0.05 bits the exact values are 1.97e-9 (C.2) < 4.77e-7 (RZ)",
    ),
    Claim(
        "RRST-C.2.vs-RZ.bits.sound",
        "RRST App. C, corrected range",
        "alpha <= 0.05, m >= 0.1 bits: Cor C.2 >= the Russo-Zou envelope (one unit)",
        "inequality",
        lambda: log2(alpha) - (2 / alpha) * (m + sympy.Rational(54, 100)) + m / alpha**2,
        {"alpha": (1e-4, 0.05), "m": (0.1, 100.0)},
    ),
    Claim(
        "RRST-B.1.0.37",
        "RRST Lemma B.1 (its constant), on the calculator's body",
        "sqrt(n) B1(delta = 0.08, n) >= 0.37 for every n in [1, 1e6], where B1 is the "
        "calculator's (1/2 - delta)/sqrt((n/2) ln(1/delta))",
        "inequality",
        lambda: sympy.sqrt(n) * body(generalization.B1, sympy.Rational(2, 25), n) - sympy.Rational(37, 100),
        {"n": (1.0, 1e6)},
        note="0.373741 at delta = 0.08; the best delta (0.0840) gives 0.373810",
    ),
    Claim(
        "RRST-3.1.azuma.t",
        "RRST Thm 3.1 proof, final choice t = eps sqrt(2n)",
        "e^{-t^2/2} = e^{-eps^2 n} and 6 t eps sqrt(n) = 6 sqrt(2) eps^2 n at t = eps sqrt(2n)",
        "identity",
        lambda: (
            sympy.exp(-((eps * sympy.sqrt(2 * n)) ** 2) / 2) + 6 * (eps * sympy.sqrt(2 * n)) * eps * sympy.sqrt(n),
            sympy.exp(-(eps**2) * n) + 6 * sympy.sqrt(2) * eps**2 * n,
        ),
        {"eps": (0.001, 0.5), "n": (1.0, 1e4)},
    ),
    Claim(
        "RRST-1.5b.wlnw",
        "RRST Lemma 1.5 (second part), proof",
        "w ln(1/w) <= beta' ln(1/beta') for 0 <= w <= beta' <= 0.3: w ln(1/w) is increasing on "
        "(0, 0.3] (its derivative ln(1/w) - 1 >= 0)",
        "inequality",
        lambda: sympy.log(1 / w) - 1,
        {"w": (1e-12, 0.3)},
    ),
    Claim(
        "RRST-1.5b.precondition",
        "RRST Lemma 1.5 (second part), condition",
        "beta <= 3(1 - 2^{-k})/20 gives beta' = 2 beta/(1 - 2^{-k}) <= 0.3 (beta = theta 3(1 - 2^{-k})/20)",
        "precondition",
        lambda: sympy.Rational(3, 10) - 2 * (theta * 3 * (1 - 2 ** (-k)) / 20) / (1 - 2 ** (-k)),
        {"theta": (0.0, 1.0), "k": (0.001, 100.0)},
    ),
    Claim(
        "RRST-1.5b.last",
        "RRST Lemma 1.5 (second part), last step",
        "ln((1 - 2^{-k})/(2 beta)) <= log2(1/(2 beta)) for beta <= 3(1 - 2^{-k})/20 (beta = theta 3(1 - 2^{-k})/20)",
        "inequality",
        lambda: (
            log2(1 / (2 * theta * 3 * (1 - 2 ** (-k)) / 20))
            - sympy.log((1 - 2 ** (-k)) / (2 * theta * 3 * (1 - 2 ** (-k)) / 20))
        ),
        {"theta": (1e-9, 1.0), "k": (0.001, 100.0)},
        note="mixes ln and log2 but holds; the bound is on I in nats (docs/errata.md)",
    ),
    Claim(
        "RRST-3.1.C3.3",
        "RRST Claim 3.3 (the averaging step, two-point X_i)",
        "sum_t sum_x p_x p_t (e^eps a_{x,t} + delta) = e^eps sum_x p_x (sum_t p_t a_{x,t}) + delta",
        "identity",
        lambda: (
            sum(
                px * pt * (sympy.exp(eps) * a + delta)
                for px, row in ((p1, (a11, a12)), (1 - p1, (a21, a22)))
                for pt, a in zip((p1, 1 - p1), row)
            ),
            sympy.exp(eps) * (p1 * (p1 * a11 + (1 - p1) * a12) + (1 - p1) * (p1 * a21 + (1 - p1) * a22)) + delta,
        ),
        {
            "p1": (0.0, 1.0),
            "a11": (0.0, 1.0),
            "a12": (0.0, 1.0),
            "a21": (0.0, 1.0),
            "a22": (0.0, 1.0),
            "eps": (0.0, 1.0),
            "delta": (0.0, 1.0),
        },
    ),
    Claim(
        "RRST-3.1.C3.4",
        "RRST Claim 3.4 (Lemma A.7 with (eps, delta))",
        "Lemma A.7's 1 - 2 delta/dh - 2 delta/(1 - e^{-eps}) = 1 - delta', "
        "delta' = 2 delta/dh + 2 delta/(1 - e^{-eps})",
        "identity",
        lambda: (
            1 - 2 * delta / w - 2 * delta / (1 - sympy.exp(-eps)),
            1 - (2 * delta / w + 2 * delta * sympy.exp(eps) / (sympy.exp(eps) - 1)),
        ),
        {"eps": (0.001, 0.5), "delta": (1e-12, 0.1), "w": (1e-9, 0.03)},
        note="w stands for delta_hat",
    ),
    Claim(
        "RRST-4.1.eq15",
        "RRST eq. (15), on the proof's range s = (t-1)/4 >= 8",
        "sum_{i<=s} C(n, i) <= s C(n, s) (integers 8 <= s <= n/2, n <= 200)",
        "finite",
        lambda: (
            lambda n, s: ball_volume(n, s) <= s * math.comb(n, s),
            [{"n": nn, "s": ss} for nn in range(16, 201) for ss in range(8, nn // 2 + 1)],
        ),
        {},
        expected="holds on the range",
        note="false at s = 1 (1 + n > n), which the proof never uses (not an erratum)",
    ),
    Claim(
        "RRST-4.1.eq15.all-n",
        "RRST eq. (15), every n >= 3s, s >= 8",
        "the geometric bound sum_{i<=s} C(n, i) <= C(n, s)(n - s + 1)/(n - 2s + 1) is at most "
        "s C(n, s): (lam s - s + 1)/(lam s - 2s + 1) <= s for s >= 8, lam = n/s >= 3",
        "inequality",
        lambda: t - (lam * t - t + 1) / (lam * t - 2 * t + 1),
        {"t": (8.0, 1e4), "lam": (3.0, 1e6)},
        note="t stands for s; the ratio C(n, i-1)/C(n, i) = i/(n - i + 1) <= s/(n - s + 1)",
    ),
    Claim(
        "RRST-4.1.part3.final",
        "RRST Thm 4.1 proof, part 3 (last line)",
        "n + log2(1 - delta - beta) >= n - 1 for beta <= 1/2 - delta (beta = theta(1/2 - delta))",
        "inequality",
        lambda: log2(1 - delta - theta * (sympy.Rational(1, 2) - delta)) + 1,
        {"delta": (1e-12, 0.25), "theta": (0.0, 1.0)},
        note="equality at theta = 1, decided exactly",
    ),
    Claim(
        "Notes-Thresholdout.pure",
        "Notes, Thresholdout lemma (pure part)",
        "each over-threshold answer costs (1/n)/(2 sigma) + 2(1/n)/(4 sigma) + (1/n)/sigma = "
        "2/(sigma n): AboveThreshold (DR Thm 3.23) plus the noisy answer (Laplace)",
        "identity",
        lambda: ((1 / n) / (2 * tau) + 2 * (1 / n) / (4 * tau) + (1 / n) / tau, body(holdout.THRESHOLDOUT, 1, tau, n)),
        {"tau": (1e-4, 1.0), "n": (1.0, 1e6)},
        note="tau stands for sigma; the right side is the calculator's formula at B = 1",
    ),
    Claim(
        "RRST-4.1.t33",
        "RRST §4.2 (setting t)",
        "t = 8 log2(1/delta)/eps + 1 >= 33 for eps <= 1/2, delta <= 1/4",
        "inequality",
        lambda: 8 * log2(1 / delta) / eps + 1 - 33,
        {"eps": (1e-6, 0.5), "delta": (1e-12, 0.25)},
    ),
    Claim(
        "RRST-4.1.eq13",
        "RRST eq. (13) (Laplace tail)",
        "P[L < -log2(1/delta)/eps] = e^{-log2(1/delta)}/2 <= delta for delta <= 1/4",
        "inequality",
        lambda: delta - sympy.exp(-log2(1 / delta)) / 2,
        {"delta": (1e-12, 0.25)},
    ),
    Claim(
        "RRST-4.1.eq17.n",
        "RRST eq. (17) ('n > 8es = 2e(t-1)') vs the statement's n > 64e",
        "64e >= 2e(t - 1) for all eps in (0, 1/2], delta in (0, 1/4] (so n > 64e suffices)",
        "inequality",
        lambda: 64 - 2 * 8 * log2(1 / delta) / eps,
        {"eps": (1e-3, 0.5), "delta": (1e-12, 0.25)},
        expected="refuted",
        sound="RRST-4.1.eq17.n.sound",
        note="holds only at eps = 1/2, delta = 1/4; the proof needs n > 2e(t-1)",
    ),
    Claim(
        "RRST-4.1.eq17.n.sound",
        "RRST eq. (17), corrected condition",
        "with n >= 2e(t - 1): 4es/n <= 1/2 (s = (t-1)/4), so s (4es/n)^s <= s 2^{-s}",
        "inequality",
        lambda: sympy.cancel(sympy.Rational(1, 2) - 4 * sympy.E * ((x - 1) / 4) / (2 * sympy.E * (x - 1) * y)),
        {"x": (33.0, 1e6), "y": (1.0, 1e3)},
        note="x = t, y = n / (2e(t-1)) >= 1",
    ),
    Claim(
        "RRST-4.1.eq18.a",
        "RRST eq. (18)",
        "delta log2(1/delta) <= 1 for delta in (0, 1/4]",
        "inequality",
        lambda: 1 - delta * log2(1 / delta),
        {"delta": (1e-12, 0.25)},
    ),
    Claim(
        "RRST-4.1.eq18.b",
        "RRST eq. (18)",
        "(2/eps) delta^{2/eps - 2} <= 1 for eps in (0, 1/2], delta in (0, 1/4]",
        "inequality",
        lambda: 1 - (2 / eps) * sympy.exp((2 / eps - 2) * sympy.log(delta)),
        {"eps": (1e-3, 0.5), "delta": (1e-12, 0.25)},
    ),
    Claim(
        "RRST-4.1.eq18.identity",
        "RRST eq. (18)",
        "s 2^{-s} = (2 log2(1/delta)/eps) delta^{2/eps} at s = (t-1)/4 = 2 log2(1/delta)/eps",
        "identity",
        lambda: (
            (2 * log2(1 / delta) / eps) * 2 ** (-(2 * log2(1 / delta) / eps)),
            (2 * log2(1 / delta) / eps) * sympy.exp((2 / eps) * sympy.log(delta)),
        ),
        {"eps": (0.01, 0.5), "delta": (1e-6, 0.25)},
    ),
    Claim(
        "RRST-4.1.eq20",
        "RRST eq. (20)",
        "log2(1/(1 - 2 delta)) <= 1 for delta in (0, 1/4]",
        "inequality",
        lambda: 1 - log2(1 / (1 - 2 * delta)),
        {"delta": (1e-12, 0.25)},
        note="equality at delta = 1/4, decided exactly",
    ),
    Claim(
        "RRST-4.1.part3.w",
        "RRST Thm 4.1 proof, part 3",
        "w = (t-1)/4 - log2(1/delta)/eps equals log2(1/delta)/eps at t = 8 log2(1/delta)/eps + 1",
        "identity",
        lambda: ((8 * log2(1 / delta) / eps + 1 - 1) / 4 - log2(1 / delta) / eps, log2(1 / delta) / eps),
        {"eps": (0.01, 0.5), "delta": (1e-6, 0.25)},
    ),
    Claim(
        "RRST-1.5a.0.54",
        "RRST Lemma 1.5 (first part): the constant 0.54",
        "(1 - beta) log2(1 - beta) >= -0.54 for beta in [0, 1) (y = 1 - beta)",
        "inequality",
        lambda: y * log2(y) + sympy.Rational(54, 100),
        {"y": (1e-12, 1.0)},
        note="the minimum is -log2(e)/e = -0.5307 at y = 1/e",
    ),
    Claim(
        "Notes-Thresholdout.closed-form",
        "Notes, Thresholdout lemma (eps, delta) form",
        "x sqrt(8 B ln(2/delta)) >= advanced composition of B steps of x = 2/(sigma n), "
        "where the closed form is at most 1 (divided by x)",
        "inequality",
        lambda: (
            sympy.sqrt(8 * B * sympy.log(2 / delta)) - sympy.sqrt(2 * B * sympy.log(1 / delta)) - B * (sympy.exp(x) - 1)
        ),
        {"x": (1e-9, 0.5), "B": (1.0, 1e4), "delta": (1e-12, 0.5)},
        constraints=lambda: (1 - x * sympy.sqrt(8 * B * sympy.log(2 / delta)),),
        note="valid where the Notes' eps <= 1 (Dwork-Roth Cor 3.21's condition)",
    ),
    # -- the calculator's own formula bodies against the papers' text (a wrong calculator
    #    formula is a refuted claim; the rows above check the papers' proof steps themselves)
    Claim(
        "calc.RRST-1.3",
        "RRST Thm 1.3 (proof, last line), on the calculator's body",
        "2^k gamma + beta = alpha for the calculator's gamma(alpha, k, beta), alpha = beta + x > beta",
        "identity",
        lambda: (2**k * body(pvalues.PVALUE_CORRECTION, beta + x, k, beta) + beta, beta + x),
        {"x": (1e-6, 1.0), "k": (0.0, 50.0), "beta": (0.0, 1.0)},
    ),
    Claim(
        "calc.RRST-1.4a",
        "RRST Thm 1.4 (first part), on the calculator's body",
        "the calculator's k(eps, n) = log2(e^{eps n}) bits (ratio e^{eps n} in bits)",
        "identity",
        lambda: (body(pure.PURE_DP, eps, n), log2(sympy.exp(eps * n))),
        {"eps": (1e-3, 2.0), "n": (1.0, 1e4)},
    ),
    Claim(
        "calc.RRST-1.4b",
        "RRST Thm 1.4 (second part), on the calculator's body",
        "the calculator's k(eps, n, beta) = log2(e)(eps^2 n/2 + eps sqrt(n ln(2/beta)/2)) bits",
        "identity",
        lambda: (
            body(pure.PURE_DP_PRODUCT, eps, n, beta),
            (eps**2 * n / 2 + eps * sympy.sqrt(n * sympy.log(2 / beta) / 2)) / sympy.log(2),
        ),
        {"eps": (1e-3, 2.0), "n": (1.0, 1e4), "beta": (1e-9, 0.5)},
    ),
    Claim(
        "calc.RRST-1.5a",
        "RRST Lemma 1.5 (first part), on the calculator's bodies",
        "the calculator's curve f_k(b) = k b + (1 - b) log2(1 - b) (App. C, (24) with Jensen) and "
        "its beta(k) = (m + 0.54)/k",
        "identity",
        lambda: (
            body(mutual_info.MI_CURVE, y, k) + body(mutual_info.MI_PAPER_BETA, m, k),
            k * y + (1 - y) * log2(1 - y) + (m + sympy.Rational(54, 100)) / k,
        ),
        {"y": (1e-9, 0.99), "k": (0.01, 100.0), "m": (0.0, 100.0)},
        note="y stands for beta",
    ),
    Claim(
        "calc.RRST-1.5a.paper-beta",
        "RRST Lemma 1.5 (first part): the paper's beta(k) is valid",
        "f_k(beta(k)) >= m for the calculator's f_k and beta(k) = (m + 0.54)/k < 1 "
        "(k = (m + 0.54)/y, y in (0, 1)), so beta(k) >= beta*(k)",
        "inequality",
        lambda: (
            body(
                mutual_info.MI_CURVE,
                body(mutual_info.MI_PAPER_BETA, m, (m + sympy.Rational(54, 100)) / y),
                (m + sympy.Rational(54, 100)) / y,
            )
            - m
        ),
        {"y": (1e-9, 1 - 1e-9), "m": (0.0, 100.0)},
    ),
    Claim(
        "calc.RRST-C.2",
        "RRST Cor C.2 = Lemma 1.5 then Thm C.1, on the calculator's bodies",
        "gamma(alpha, k, beta(k)) at k = 2(m + 0.54)/alpha equals the calculator's closed form "
        "(alpha/2) 2^{-(2/alpha)(m + 0.54)}",
        "identity",
        lambda: (
            body(
                pvalues.PVALUE_CORRECTION,
                alpha,
                2 * (m + sympy.Rational(54, 100)) / alpha,
                body(mutual_info.MI_PAPER_BETA, m, 2 * (m + sympy.Rational(54, 100)) / alpha),
            ),
            body(pvalues.MI_PVALUE_PAPER, alpha, m),
        ),
        {"alpha": (1e-3, 1.0), "m": (0.0, 20.0)},
    ),
    Claim(
        "calc.RRST-C.3",
        "RRST Thm C.3 (Russo & Zou Prop. 7), on the calculator's body",
        "the calculator's level bound is gamma + sqrt(m_nats/ln(1/(2 gamma))) with m_nats = "
        "m ln 2 (Russo-Zou's logarithms are natural)",
        "identity",
        lambda: (body(pvalues.RZ_LEVEL, y, m), y + sympy.sqrt(m * sympy.log(2) / sympy.log(1 / (2 * y)))),
        {"y": (1e-9, 0.49), "m": (0.0, 100.0)},
        note="y stands for gamma",
    ),
    Claim(
        "calc.DR-3.20",
        "Dwork-Roth Thm 3.20 (advanced composition), on the calculator's body",
        "k steps of eps: eps' = sqrt(2 k ln(1/delta')) eps + k eps (e^eps - 1)",
        "identity",
        lambda: (
            body(dp_composition.ADVANCED, delta, eps, k),
            sympy.sqrt(2 * k * sympy.log(1 / delta)) * eps + k * eps * (sympy.exp(eps) - 1),
        ),
        {"delta": (1e-12, 0.5), "eps": (1e-4, 1.0), "k": (1.0, 1e4)},
    ),
    Claim(
        "calc.DFHPRR-4.hoeffding",
        "DFHPRR Thm 4 with Hoeffding, on the calculator's body",
        "the calculator's failure probability is 2^k 2 e^{-2 tau^2 n} + beta",
        "identity",
        lambda: (body(generalization.HOEFFDING, k, beta, tau, n), 2**k * 2 * sympy.exp(-2 * tau**2 * n) + beta),
        {"k": (0.0, 50.0), "beta": (0.0, 1.0), "tau": (1e-3, 0.5), "n": (1.0, 1e4)},
    ),
    Claim(
        "calc.RRST-3.1.paper-beta",
        "RRST Thm 3.1 (statement's beta), on the calculator's body",
        "beta = e^{-t^2/2} + n(delta' + delta''), delta' = 2 delta/dh + 2 delta/(1 - e^{-eps}), "
        "delta'' = 2 dh/(1 - e^{-3 eps}) (Claims 3.4, 3.5)",
        "identity",
        lambda: (
            thm31("paper", "beta"),
            sympy.exp(-(t**2) / 2)
            + n * (2 * delta / w + 2 * delta / (1 - sympy.exp(-eps)) + 2 * w / (1 - sympy.exp(-3 * eps))),
        ),
        {"eps": (1e-3, 0.5), "delta": (1e-12, 1e-6), "n": (1.0, 1e4), "t": (0.1, 10.0), "w": (1e-4, 0.03)},
        note="w stands for delta_hat",
    ),
    Claim(
        "calc.RRST-3.1.sound-beta",
        "RRST Claim 3.6 (union bound), the calculator's sound beta",
        "the calculator's sound beta = e^{-t^2/2} + n(delta' + delta'' - delta' delta'') "
        "(Claim 3.6's last line), the paper's beta minus n delta' delta''",
        "identity",
        lambda: (
            thm31("paper", "beta") - thm31("sound", "beta"),
            n * (2 * delta / w + 2 * delta / (1 - sympy.exp(-eps))) * (2 * w / (1 - sympy.exp(-3 * eps))),
        ),
        {"eps": (1e-3, 0.5), "delta": (1e-12, 1e-6), "n": (1.0, 1e4), "t": (0.1, 10.0), "w": (1e-4, 0.03)},
        note="w stands for delta_hat",
    ),
    # -- every other formula body of the calculator, each against its source's own statement
    #    (where the source states the inverse, e.g. a scale for a target eps, the claim inverts
    #    it; tests/test_claims.py::test_every_formula_body_has_a_claim finds any body left out)
    Claim(
        "calc.RRST-3.1.paper-k",
        "RRST Thm 3.1 (proof, eq. (7) and the last display), on the calculator's paper body",
        "k = n nu(dh) + 6 t eps sqrt(n) with nu(dh) = 72 eps^2 + dh (24 e^{6eps}/(1 - e^{-3eps}) + "
        "log2(e)(2e^{3eps} + 1)) + dh^2 2 log2(e)(4e^{12eps} + 4e^{9eps} - 3e^{6eps} - 2e^{3eps} + 1)"
        "/(e^{6eps} - 2e^{3eps} + 1) (RRST's log is base 2)",
        "identity",
        lambda: (
            thm31("paper", "k"),
            n
            * (
                72 * eps**2
                + w * (24 * sympy.exp(6 * eps) / (1 - sympy.exp(-3 * eps)) + log2(sympy.E) * (2 * E3 + 1))
                + w**2
                * 2
                * log2(sympy.E)
                * (4 * sympy.exp(12 * eps) + 4 * sympy.exp(9 * eps) - 3 * sympy.exp(6 * eps) - 2 * E3 + 1)
                / (sympy.exp(6 * eps) - 2 * E3 + 1)
            )
            + 6 * t * eps * sympy.sqrt(n),
        ),
        {"eps": (1e-3, 0.5), "n": (1.0, 1e4), "t": (0.1, 10.0), "w": (1e-4, 0.03)},
        note="w stands for delta_hat",
    ),
    Claim(
        "calc.DFHPRR-6",
        "DFHPRR Thm 6 (description length), on the calculator's body",
        "an algorithm with at most m outputs has I^beta_inf <= log2(m) + log2(1/beta) bits",
        "identity",
        lambda: (body(description.DESCRIPTION, m, beta), log2(m) + log2(1 / beta)),
        {"m": (1.0, 1e6), "beta": (1e-12, 1.0)},
    ),
    Claim(
        "calc.RRST-A.3",
        "RRST Thm A.3 (adaptive composition), on the calculator's body",
        "the k of two adaptively composed stages add up: k_1 + k_2 (the betas the same way)",
        "identity",
        lambda: (body(composition.COMPOSE, x, y), x + y),
        {"x": (0.0, 100.0), "y": (0.0, 100.0)},
    ),
    Claim(
        "calc.DR-3.16",
        "Dwork-Roth Thm 3.16 (basic composition), on the calculator's body",
        "k steps of (eps, 0)-DP compose to (k eps, 0)-DP",
        "identity",
        lambda: (body(dp_composition.BASIC, eps, k), k * eps),
        {"eps": (1e-4, 10.0), "k": (1.0, 1e4)},
    ),
    Claim(
        "calc.DR-3.6",
        "Dwork-Roth Thm 3.6 (Laplace mechanism), on the calculator's body",
        "noise Lap(Delta/eps) on a query of L1 sensitivity Delta gives eps",
        "identity",
        lambda: (body(mechanisms.LAPLACE, s, s / eps), eps),
        {"s": (1e-3, 1e3), "eps": (1e-4, 10.0)},
    ),
    Claim(
        "calc.DR-A.1",
        "Dwork-Roth Thm A.1 (Gaussian mechanism), on the calculator's body",
        "sigma = c Delta/eps with c^2 = 2 ln(1.25/delta) (the theorem's c, at its boundary)",
        "identity",
        lambda: ((body(mechanisms.GAUSS_CLASSIC, s, eps, delta) * eps / s) ** 2, 2 * sympy.log(1.25 / delta)),
        {"s": (1e-3, 1e3), "eps": (1e-4, 1.0), "delta": (1e-12, 0.5)},
    ),
    Claim(
        "calc.DR-3.10",
        "Dwork-Roth Thm 3.10 (exponential mechanism), on the calculator's body",
        "outputs chosen with probability proportional to exp(eps u/(2 Delta_u)) give eps",
        "identity",
        lambda: (body(mechanisms.EXPMECH[False], s, eps / (2 * s)), eps),
        {"s": (1e-3, 1e3), "eps": (1e-4, 10.0)},
    ),
    Claim(
        "calc.DR-3.10.monotone",
        "Dwork-Roth section 3.4 (remark after Thm 3.10: monotone scores), on the calculator's body",
        "with monotone scores, probability proportional to exp(eps u/Delta_u) gives eps",
        "identity",
        lambda: (body(mechanisms.EXPMECH[True], s, eps / s), eps),
        {"s": (1e-3, 1e3), "eps": (1e-4, 10.0)},
    ),
    Claim(
        "calc.DR-3.9.monotone",
        "Dwork-Roth Claim 3.9 (report noisy max, counting queries), on the calculator's body",
        "counting queries (sensitivity 1, monotone) with Lap(1/eps) noise give eps",
        "identity",
        lambda: (body(mechanisms.RNM[True], sympy.Integer(1), 1 / eps), eps),
        {"eps": (1e-4, 10.0)},
    ),
    Claim(
        "calc.DR-3.9",
        "Dwork-Roth Claim 3.9's proof for arbitrary scores, on the calculator's body",
        "sensitivity-Delta scores (each score and the level it is compared with move by Delta) "
        "with Lap(2 Delta/eps) noise give eps",
        "identity",
        lambda: (body(mechanisms.RNM[False], s, 2 * s / eps), eps),
        {"s": (1e-3, 1e3), "eps": (1e-4, 10.0)},
    ),
    Claim(
        "calc.DR-3.23",
        "Dwork-Roth Thm 3.23 (AboveThreshold, Alg. 1), on the calculator's body",
        "threshold noise Lap(2 Delta/eps) and query noise Lap(4 Delta/eps) give eps (the book's "
        "Delta = 1, queries scaled by 1/Delta)",
        "identity",
        lambda: (body(mechanisms.ABOVE_THRESHOLD, s, 2 * s / eps, 4 * s / eps), eps),
        {"s": (1e-3, 1e3), "eps": (1e-4, 10.0)},
    ),
    Claim(
        "calc.DR-3.25",
        "Dwork-Roth Thm 3.25 (Sparse, Alg. 2, delta = 0), on the calculator's body",
        "c positive answers with sigma = 2c Delta/eps: threshold noise Lap(sigma), query noise Lap(2 sigma) give eps",
        "identity",
        lambda: (body(mechanisms.SPARSE, k, s, 2 * k * s / eps, 4 * k * s / eps), eps),
        {"k": (1.0, 1e4), "s": (1e-3, 1e3), "eps": (1e-4, 10.0)},
        note="k stands for c, the number of positive answers",
    ),
    Claim(
        "calc.BS16-1.6",
        "Bun-Steinke 2016 Prop. 1.6 (Gaussian mechanism), on the calculator's body",
        "N(0, sigma^2) noise on a query of L2 sensitivity Delta is Delta^2/(2 sigma^2)-zCDP",
        "identity",
        lambda: (body(zcdp.ZCDP_GAUSS, s, sig), s**2 / (2 * sig**2)),
        {"s": (1e-3, 1e3), "sigma": (1e-3, 1e3)},
    ),
    Claim(
        "calc.S24-pure-zCDP",
        "Steinke 2024 (pure DP to zCDP, sharp), on the calculator's body",
        "eps-DP is eps tanh(eps/2)-zCDP",
        "identity",
        lambda: (body(zcdp.ZCDP_PURE, eps), eps * sympy.tanh(eps / 2)),
        {"eps": (1e-4, 20.0)},
    ),
    Claim(
        "calc.S24-pure-zCDP.bs16",
        "Bun-Steinke 2016 Prop. 1.4 against the calculator's sharp body",
        "the sharp rho never exceeds Bun-Steinke's eps^2/2 (tanh(x) <= x): (eps^2/2 - rho) "
        "2(e^eps + 1)/eps >= 0, the calculator's body put over its denominator by sympy",
        "inequality",
        lambda: sympy.cancel((eps**2 / 2 - body(zcdp.ZCDP_PURE, eps)) * 2 * (sympy.exp(eps) + 1) / eps),
        {"eps": (1e-3, 20.0)},
        note="the difference is eps^4/24 + O(eps^6) near 0, too flat below 1e-3 for the boxes; "
        "calc.S24-pure-zCDP holds the body there",
    ),
    Claim(
        "calc.CR21-BR",
        "Cesar-Rogers 2021 (bounded range), on the calculator's body",
        "an eta-bounded-range mechanism is eta^2/8-zCDP",
        "identity",
        lambda: (body(zcdp.ZCDP_BR, eta), eta**2 / 8),
        {"eta": (1e-4, 20.0)},
    ),
    Claim(
        "calc.CKS20-12",
        "Canonne-Kamath-Steinke 2020 Prop. 12 (Renyi to approximate DP), on the calculator's body",
        "at the calculator's eps, the proposition's delta = e^{(a-1)(tau-eps)} (1 - 1/a)^{a-1}/a "
        "with tau = a rho (rho-zCDP at order a) is the delta asked for",
        "identity",
        lambda: (
            sympy.exp((a - 1) * (a * rho - body(zcdp.ZCDP_TO_DP, rho, delta, a))) * (1 - 1 / a) ** (a - 1) / a,
            delta,
        ),
        {"rho": (1e-4, 10.0), "delta": (1e-12, 0.5), "a": (1.01, 100.0)},
    ),
    Claim(
        "calc.DRS22-2.7",
        "Dong-Roth-Su 2022 Thm 2.7 (Gaussian mechanism), on the calculator's body",
        "N(0, sigma^2) noise on a query of L2 sensitivity Delta is Delta/sigma-GDP",
        "identity",
        lambda: (body(gdp.GDP_MU, s, sig), s / sig),
        {"s": (1e-3, 1e3), "sigma": (1e-3, 1e3)},
    ),
    Claim(
        "calc.DRS22-3.3",
        "Dong-Roth-Su 2022 Cor. 3.3 (composition of GDP), on the calculator's body",
        "k steps of mu-GDP compose to sqrt(mu^2 + ... + mu^2) = sqrt(k) mu",
        "identity",
        lambda: (body(gdp.GDP_COMPOSE, k, x), sympy.sqrt(k) * x),
        {"k": (1.0, 1e4), "x": (1e-4, 10.0)},
        note="x stands for mu",
    ),
    Claim(
        "calc.Notes-Thresholdout.approx",
        "Notes, Thresholdout lemma (eps, delta) form = Dwork-Roth Cor. 3.21, on the calculator's body",
        "B steps of eps0 = 2/(sigma n) compose to eps0 sqrt(8 B ln(1/delta')) at delta' = delta/2 "
        "(Cor. 3.21's eps = 2 eps0 sqrt(2 B ln(1/delta')))",
        "identity",
        lambda: (
            body(holdout.THRESHOLDOUT_APPROX, B, sig, n, delta),
            2 * (2 / (sig * n)) * sympy.sqrt(2 * B * sympy.log(1 / (delta / 2))),
        ),
        {"B": (1.0, 1e4), "sigma": (1e-4, 1.0), "n": (1.0, 1e6), "delta": (1e-12, 0.5)},
    ),
    Claim(
        "calc.DFHPRR-9",
        "DFHPRR Thm 9 (Thresholdout's parameters), on the calculator's bodies",
        "T = 3 tau/4 and sigma = tau/(96 ln(4m/beta)): their ratio is 72 ln(4m/beta)",
        "identity",
        lambda: (
            body(holdout.THM9_T, tau) / body(holdout.THM9_SIGMA, tau, m, beta),
            72 * sympy.log(4 * m / beta),
        ),
        {"tau": (1e-4, 1.0), "m": (1.0, 1e6), "beta": (1e-12, 0.5)},
    ),
    Claim(
        "calc.DFHPRR-9.T",
        "DFHPRR Thm 9 (Thresholdout's threshold), on the calculator's body",
        "T = 3 tau/4",
        "identity",
        lambda: (body(holdout.THM9_T, tau), sympy.Rational(3, 4) * tau),
        {"tau": (1e-4, 1.0)},
    ),
    Claim(
        "calc.RRST-B.2",
        "RRST Thm B.2 (BNSSSU), on the calculator's bodies",
        "deviation 18 eps Delta n, probability delta/eps, regime n >= ln(4 eps/delta)/eps^2 (natural "
        "log, as displayed): their product deviation x probability x eps^2 n0 is 18 Delta n delta "
        "ln(4 eps/delta)",
        "identity",
        lambda: (
            body(generalization.B2_DEVIATION, eps, s, n)
            * body(generalization.B2_PROBABILITY, eps, delta)
            * eps**2
            * body(generalization.B2_N0, eps, delta),
            18 * s * n * delta * sympy.log(4 * eps / delta),
        ),
        {"eps": (1e-4, 1 / 3), "s": (1e-3, 1e3), "n": (1.0, 1e6), "delta": (1e-12, 1e-5)},
    ),
    Claim(
        "calc.RRST-B.2.n0",
        "RRST Thm B.2's regime, on the calculator's body",
        "n0 = ln(4 eps/delta)/eps^2, so e^{eps^2 n0} = 4 eps/delta",
        "identity",
        lambda: (sympy.exp(eps**2 * body(generalization.B2_N0, eps, delta)), 4 * eps / delta),
        {"eps": (1e-4, 1 / 3), "delta": (1e-12, 1e-5)},
    ),
    Claim(
        "calc.RRST-B.2.floor",
        "RRST Thm B.2's regime read the other way, on the calculator's bodies",
        "at delta = eps x 4 e^{-n eps^2} (the floor the planner's BNSSSU route takes), n0 = n",
        "identity",
        lambda: (
            body(generalization.B2_N0, eps, eps * body(generalization.B2_PROBABILITY_FLOOR, eps, n)),
            n,
        ),
        {"eps": (1e-4, 1 / 3), "n": (1.0, 1e6)},
    ),
    Claim(
        "calc.RRST-D.1.paper",
        "RRST Thm D.1 (proof, first display), on the calculator's paper body",
        "at deviation tau = C eps Delta n, 2^k exp(-2 tau^2/(n Delta^2)) + beta = 2^k exp(-2 C^2 eps^2 n) + beta",
        "identity",
        lambda: (
            body(generalization.MCDIARMID["paper"], k, beta, lam * eps * s * n, n, s),
            2**k * sympy.exp(-2 * lam**2 * eps**2 * n) + beta,
        ),
        _D1_BOX,
        note="lam stands for the theorem's constant C",
    ),
    Claim(
        "calc.RRST-D.1.sound",
        "RRST Thm D.1 with McDiarmid's two tails (docs/errata.md), on the calculator's sound body",
        "at deviation tau = C eps Delta n, the two-sided bound 2^k 2 exp(-2 C^2 eps^2 n) + beta",
        "identity",
        lambda: (
            body(generalization.MCDIARMID["sound"], k, beta, lam * eps * s * n, n, s),
            2**k * 2 * sympy.exp(-2 * lam**2 * eps**2 * n) + beta,
        ),
        _D1_BOX,
        note="lam stands for the theorem's constant C",
    ),
    Claim(
        "calc.RRST-1.5b.paper",
        "RRST Lemma 1.5 (second part), the displayed bound, on the calculator's paper body",
        "I <= 2k ln 2 + 2 beta log2(|Sigma|/(2 beta))/(1 - 2^{-k}), read in nats (docs/errata.md)",
        "identity",
        lambda: (
            body(mutual_info.TO_MI[("paper", "nats")], k, beta, Sig),
            _lemma15b_displayed(),
        ),
        _L15B_BOX,
    ),
    Claim(
        "calc.RRST-1.5b.paper-bits",
        "RRST Lemma 1.5 (second part), in bits, on the calculator's paper body",
        "the bits value is the nats value divided by ln 2",
        "identity",
        lambda: (
            body(mutual_info.TO_MI[("paper", "bits")], k, beta, Sig) * sympy.log(2),
            _lemma15b_displayed(),
        ),
        _L15B_BOX,
    ),
    Claim(
        "calc.RRST-1.5b.sound",
        "RRST Lemma 1.5 (second part), the proof's intermediate (docs/errata.md), on the calculator's sound body",
        "I <= 2k ln 2 + b (ln|Sigma| + ln(1/b)) nats with b = beta/(1 - 2^{-k}); bits = nats/ln 2",
        "identity",
        lambda: (
            body(mutual_info.TO_MI[("sound", "nats")], k, beta, Sig)
            + body(mutual_info.TO_MI[("sound", "bits")], k, beta, Sig) * sympy.log(2),
            2 * (2 * k * sympy.log(2) + beta / (1 - 2**-k) * (sympy.log(Sig) + sympy.log((1 - 2**-k) / beta))),
        ),
        _L15B_BOX,
        note="the two units summed: each unit's body is held at once",
    ),
    Claim(
        "calc.JLNRSS-transfer",
        "JLNRSS Thm 4 with Lemma 7 (as restated by Marchant-Rubinstein 2025), on the calculator's bodies",
        "half-width alpha + (e^eps - 1) + c + 2d with failure probability beta/c + delta/d",
        "identity",
        lambda: (
            body(estimation.JLNRSS_WIDTH, eps, alpha, cc, dd) + body(estimation.JLNRSS_FAILURE, beta, delta, cc, dd),
            alpha + sympy.exp(eps) - 1 + cc + 2 * dd + beta / cc + delta / dd,
        ),
        {
            "eps": (1e-4, 2.0),
            "alpha": (0.0, 1.0),
            "c": (1e-3, 1.0),
            "d": (1e-3, 1.0),
            "beta": (0.0, 1.0),
            "delta": (0.0, 1.0),
        },
        note="the sum of the two bodies; calc.JLNRSS-transfer.failure holds the failure alone",
    ),
    Claim(
        "calc.JLNRSS-transfer.failure",
        "JLNRSS Thm 4 with Lemma 7, the failure probability, on the calculator's body",
        "failure probability beta/c + delta/d",
        "identity",
        lambda: (body(estimation.JLNRSS_FAILURE, beta, delta, cc, dd), beta / cc + delta / dd),
        {"c": (1e-3, 1.0), "d": (1e-3, 1.0), "beta": (0.0, 1.0), "delta": (0.0, 1.0)},
    ),
    Claim(
        "calc.JLNRSS-transfer-sensitive",
        "JLNRSS Lemma 15 with Thm 4's step for a range R (docs/estimate.md), on the calculator's bodies",
        "half-width alpha + R c + (e^eps - 1) n Delta + 4 c' n delta Delta and failure beta/c + 1/c' "
        "(Lemma 15's stability at c' = d/delta)",
        "identity",
        lambda: (
            body(estimation.JLNRSS_SENS_WIDTH, eps, alpha, cc, dd, n, s, _R)
            + body(estimation.JLNRSS_FAILURE, beta, delta, cc, dd),
            alpha + _R * cc + (sympy.exp(eps) - 1) * n * s + 4 * (dd / delta) * n * delta * s + beta / cc + delta / dd,
        ),
        {
            "eps": (1e-4, 2.0),
            "alpha": (0.0, 1.0),
            "c": (1e-3, 1.0),
            "d": (1e-3, 1.0),
            "n": (1.0, 1e4),
            "s": (1e-5, 1.0),
            "R": (1e-3, 10.0),
            "beta": (0.0, 1.0),
            "delta": (1e-9, 1.0),
        },
        note="the failure body is JLNRSS_FAILURE's, shared with calc.JLNRSS-transfer",
    ),
    Claim(
        "calc.SPLIT-Hoeffding",
        "Sample splitting: Hoeffding on m records per query and a union bound over k queries",
        "at the calculator's half-width t, the union bound k 2 exp(-2 m t^2) equals beta",
        "identity",
        lambda: (2 * k * sympy.exp(-2 * m * body(estimation.SPLIT_WIDTH, k, beta, m) ** 2), beta),
        {"k": (1.0, 1e4), "beta": (1e-12, 0.5), "m": (1.0, 1e6)},
    ),
]


def _finite(c: Claim) -> Verdict:
    t0 = time.monotonic()
    pred, points = c.expr()
    n_pts = 0
    for pt in points:
        n_pts += 1
        if not pred(**pt):
            return Verdict(
                "refuted",
                n_pts,
                {k_: float(v) for k_, v in pt.items()},
                -1.0,
                None,
                "the statement is false at this integer point",
                time.monotonic() - t0,
            )
    return Verdict(
        "holds on the range",
        n_pts,
        detail=f"all {n_pts} integer points checked exactly (Python integers)",
        seconds=time.monotonic() - t0,
    )


def check_claim(c: Claim) -> Verdict:
    """Run one claim's check."""
    if c.kind == "finite":
        return _finite(c)
    if c.kind == "identity":
        lhs, rhs = c.expr()
        return check_identity(lhs, rhs, c.box)
    return certify_inequality(c.expr(), c.box, constraints=tuple(c.constraints()), max_boxes=c.max_boxes)


def _claim_record(c: Claim) -> dict[str, Any]:
    v = check_claim(c)
    return {
        "id": c.id,
        "location": c.location,
        "statement": c.statement,
        "kind": c.kind,
        "inputs": {k_: list(b) for k_, b in c.box.items()},
        "value": v.value_at_counterexample,
        "counterexample": v.counterexample,
        "refuted_region": v.refuted_region,
        "bound": "g >= 0" if c.kind != "identity" else "lhs == rhs",
        "verdict": v.status,
        "expected": c.expected,
        "as_expected": v.status == c.expected,
        "sound": c.sound,
        "detail": v.detail,
        "note": c.note,
        "boxes": v.boxes,
        "seconds": round(v.seconds, 4),
    }


def run(out_dir: Path, *, progress: bool = True) -> dict[str, Any]:
    """Check every claim; write report.md, report.json and records.jsonl into ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    records: list[dict[str, Any]] = []
    t_all = time.monotonic()
    bar = Progress(len(CLAIMS), "claims", enabled=progress)
    with bar:
        for c in CLAIMS:
            records.append(_claim_record(c))
            bar.done(c.id, records[-1]["seconds"])
    summary: dict[str, Any] = {
        "campaign": "claims",
        "versions": versions(),
        "claims": len(records),
        "certified": sum(r["verdict"] == "certified" for r in records),
        "refuted": [r["id"] for r in records if r["verdict"] == "refuted"],
        "undecided": [r["id"] for r in records if r["verdict"] == "undecided"],
        "seconds": round(time.monotonic() - t_all, 2),
        "ok": all(r["as_expected"] for r in records)
        and all(
            any(s["id"] == r["sound"] and s["verdict"] == "certified" for s in records)
            for r in records
            if r["verdict"] == "refuted"
        ),
    }
    (out_dir / "records.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    (out_dir / "report.json").write_text(json.dumps({**summary, "records": records}, indent=1))
    md = [
        "# Proof steps as machine-checked claims",
        "",
        f"- versions: {summary['versions']}",
        f"- {summary['claims']} claims: {summary['certified']} certified, "
        f"{len(summary['refuted'])} refuted, {len(summary['undecided'])} undecided; "
        f"{summary['seconds']} s",
        "",
        "| claim | location | statement | verdict | counterexample / certificate | corrected by | s |",
        "| --- | --- | --- | --- | --- | --- | ---: |",
    ]
    for r in records:
        ce = (
            f"{ {k_: float(f'{v:.6g}') for k_, v in r['counterexample'].items()} } g = {r['value']:.4g}"
            if r["counterexample"]
            else r["detail"]
        )
        md.append(
            f"| {r['id']} | {r['location']} | {r['statement']} | {r['verdict']} | {ce} | "
            f"{r['sound'] or ''} | {r['seconds']} |"
        )
    (out_dir / "report.md").write_text("\n".join(md) + "\n")
    return {**summary, "records": records}
