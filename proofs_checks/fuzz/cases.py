"""What the fuzz campaign calls: every public evaluator, its inputs and its reference.

A :class:`Case` samples valid-looking inputs over the extreme ranges (log-uniform: eps from
1e-12 to 50, n up to 1e15, beta and delta down to 1e-300 and into the subnormals), calls the
calculator's scalar path (and its array path, where it has one) and names the reference in
:mod:`.references` each output is held against, with the safe side of each output: ``"up"``
(an upper bound: never below the truth) or ``"down"`` (a threshold: never above it).

Why one module over 400 lines: the table of cases, one entry per public evaluator, is data;
one file makes a missing evaluator visible (a test checks every catalog entry has a case).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

import maxinfo_bounds
from maxinfo_bounds.results import Bound
from maxinfo_bounds.theorems import dp_accounting as _dp
from maxinfo_bounds.theorems import holdout as _holdout

from . import references as R


def _mixed_outside(x: Inputs) -> None:
    """MIX-exact sums prod (k_j + 1) sign-count patterns and refuses more than MAX_PATTERNS."""
    if int(x["k"]) + 1 > dp.mixed.MAX_PATTERNS:
        raise R.Outside(f"k + 1 = {int(x['k']) + 1} sign-count patterns > {dp.mixed.MAX_PATTERNS}")


# the table below calls each evaluator on scalars, Fractions and arrays alike: typed loosely
mb: Any = maxinfo_bounds
dp: Any = _dp
holdout: Any = _holdout

__all__ = ["Case", "CASES", "Sampler"]

Gen = np.random.Generator
Inputs = dict[str, Any]


class Sampler:
    """Draws of one input kind (log-uniform over an extreme range, with edge values)."""

    @staticmethod
    def logu(rng: Gen, lo: float, hi: float) -> float:
        return float(10.0 ** rng.uniform(np.log10(lo), np.log10(hi)))

    @staticmethod
    def prob(rng: Gen, lo: float = 1e-300, *, zero: bool = False, one: bool = False, below: float = 1.0) -> float:
        """A probability in (0, below): log-uniform down to ``lo``, sometimes subnormal, near
        ``below``, or exactly 0 / ``below`` where allowed."""
        u = rng.uniform()
        if zero and u < 0.03:
            return 0.0
        if one and u < 0.06:
            return below
        if u < 0.12:  # gradual underflow
            return float(rng.integers(1, 2**52)) * 2.0**-1074
        if u < 0.2:  # just below the upper end
            return below * (1.0 - Sampler.logu(rng, 1e-16, 0.5))
        return below * Sampler.logu(rng, lo / below if lo < below else 1e-300, 1.0)

    @staticmethod
    def integer(rng: Gen, lo: int, hi: int) -> int:
        if rng.uniform() < 0.05:
            return lo
        return int(min(max(round(10.0 ** rng.uniform(np.log10(lo), np.log10(hi))), lo), hi))


@dataclass(frozen=True)
class Case:
    """One public evaluator under test.

    ``sample(rng)`` returns float/int inputs; ``call(**inputs)`` the outputs of the scalar path
    (a tuple of floats); ``ref(inputs_as_mpf, outputs)`` the reference value of each output (or
    raises :class:`~.references.Outside`); ``sides`` the safe direction of each output;
    ``reals``/``ints`` the inputs that may be given as Fractions / big integers; ``array``, if
    given, the vectorised call on arrays of the same inputs; ``weight`` the share of points;
    ``documented`` the refusals (regex of the message -> reason) that are by design."""

    name: str
    sample: Callable[[Gen], Inputs]
    call: Callable[..., tuple[float, ...]]
    ref: Callable[[Inputs, tuple[float, ...]], tuple[Any, ...]]
    sides: tuple[str, ...]
    reals: tuple[str, ...] = ()
    ints: tuple[str, ...] = ()
    array: Callable[..., tuple[Any, ...]] | None = None
    weight: float = 1.0
    documented: tuple[tuple[str, str], ...] = field(default_factory=tuple)
    #: for a refused point: raises Outside when the inputs break the theorem's conditions
    #: (by default the reference is evaluated with no outputs)
    check: Callable[[Inputs], None] | None = None
    #: the fewest points a campaign gives the case (its references' cost permitting)
    min_points: int = 100

    def valid(self, x: Inputs) -> tuple[Any, ...]:
        if self.check is not None:
            self.check(x)
            return ()
        return self.ref(x, (0.0,) * len(self.sides))

    def documented_reason(self, message: str) -> str | None:
        for pattern, reason in self.documented:
            if re.search(pattern, message):
                return reason
        return None


def _bound(b: Any) -> tuple[float, float]:
    return float(b.k), float(b.beta)


def _cond(b: Any, name: str) -> float:
    """A parameter the calculator chose, read from the Bound's conditions ('t = 1.5')."""
    for c in b.conditions:
        if c.startswith(name + " = "):
            v = c.split(" = ", 1)[1]
            return float(Fraction(v)) if "/" in v else float(v)
    raise KeyError(name)


# --------------------------------------------------------------------------------------------
# samplers

S = Sampler


def _s_pvalue(rng: Gen) -> Inputs:
    u = rng.uniform()
    k = (
        0.0
        if u < 0.03
        else (
            float("inf") if u < 0.05 else (10 ** int(rng.integers(300, 500)) if u < 0.08 else S.logu(rng, 1e-12, 5e3))
        )
    )
    return {"alpha": S.prob(rng, zero=True, one=True), "k": k, "beta": S.prob(rng, zero=True, one=True)}


def _eps(rng: Gen, lo: float = 1e-12, hi: float = 50.0) -> float:
    return S.logu(rng, lo, hi)


def _s_thm31(rng: Gen) -> Inputs:
    eps = _eps(rng, 1e-12, 0.5) if rng.uniform() > 0.05 else 0.5
    delta = S.prob(rng, below=eps)
    # delta_hat: log-uniform in (1e-300, a bit beyond the sound regime's edge)
    dh = S.logu(rng, 1e-300, 1.0) * min(eps, 1.0)
    return {"eps": eps, "delta": delta, "n": S.integer(rng, 1, 10**15), "t": S.logu(rng, 1e-3, 40.0), "delta_hat": dh}


def _s_thm31_default(rng: Gen) -> Inputs:
    x = _s_thm31(rng)
    return {"eps": x["eps"], "delta": x["delta"], "n": x["n"]}


def _s_thm31_beta(rng: Gen) -> Inputs:
    eps = _eps(rng, 1e-9, 0.5)
    return {
        "eps": eps,
        "delta": S.prob(rng, 1e-300, below=eps) * 1e-6,
        "n": S.integer(rng, 1, 10**9),
        "beta": S.prob(rng, 1e-12),
    }


def _s_b2(rng: Gen) -> Inputs:
    e = S.logu(rng, 1e-6, 1 / 3)
    d = S.prob(rng, below=e / 4)
    n0 = np.log(4 * e / d) / e**2  # n around and above Thm B.2's n0
    return {
        "eps": e,
        "delta": d,
        "n": int(min(np.ceil(n0 * S.logu(rng, 0.9, 1e3)), 10**18)),
        "sensitivity": S.logu(rng, 1e-8, 10.0),
    }


# --------------------------------------------------------------------------------------------
# calls and references


def _pvalue_ref(x: Inputs, out: tuple[float, ...]) -> tuple[Any, ...]:
    return (R.pvalue(x["alpha"], x["k"], x["beta"]),)


def _product_ref(x: Inputs, out: tuple[float, ...]) -> tuple[Any, ...]:
    # the pair (k, beta) is valid when k >= k(beta returned); the beta returned must not be
    # above the beta asked for (k would then be too small for the beta the user holds)
    return R.pure_dp_product(x["eps"], x["n"], R.exact(out[1])), x["beta"]


def _thm31_ref(variant: str) -> Callable[[Inputs, tuple[float, ...]], tuple[Any, ...]]:
    def ref(x: Inputs, out: tuple[float, ...]) -> tuple[Any, ...]:
        return R.thm31(x["eps"], x["delta"], x["n"], x["t"], x["delta_hat"], variant)

    return ref


def _thm31_chosen(variant: str) -> Callable[..., tuple[float, ...]]:
    """The default / beta-target paths: the outputs plus the (t, delta_hat) chosen."""

    def call(**kw: Any) -> tuple[float, ...]:
        b = mb.approx_dp_max_information(**kw, variant=variant)
        return float(b.k), float(b.beta), _cond(b, "t"), _cond(b, "delta_hat")

    return call


def _thm31_chosen_ref(variant: str, target: bool) -> Callable[[Inputs, tuple[float, ...]], tuple[Any, ...]]:
    def ref(x: Inputs, out: tuple[float, ...]) -> tuple[Any, ...]:
        k, b = R.thm31(x["eps"], x["delta"], x["n"], R.exact(out[2]), R.exact(out[3]), variant)
        if target and R.exact(out[1]) > x["beta"]:
            raise R.Rejected("beta above the target")
        return k, b, R.exact(out[2]), R.exact(out[3])

    return ref


def _thm31_check(x: Inputs) -> None:
    if not (0 < x["eps"] <= mpmath.mpf(1) / 2 and 0 < x["delta"] < x["eps"]):
        raise R.Outside("eps in (0, 1/2], delta in (0, eps)")


def _thm31_target_check(variant: str) -> Callable[[Inputs], None]:
    def check(x: Inputs) -> None:
        _thm31_check(x)
        floor = R.thm31_beta_floor(x["eps"], x["delta"], x["n"], variant)
        if x["beta"] <= floor:
            raise R.Outside(f"target beta at or below the theorem's infimum {mpmath.nstr(floor, 8)}")
        if x["beta"] <= floor * (1 + mpmath.mpf(10) ** -6):
            raise R.Marginal("target beta within 1e-6 relative of the theorem's infimum")

    return check


def _c2_ref(variant: str) -> Callable[[Inputs, tuple[float, ...]], tuple[Any, ...]]:
    def ref(x: Inputs, out: tuple[float, ...]) -> tuple[Any, ...]:
        if variant == "paper":
            return (R.mi_pvalue_paper(x["alpha"], x["m"]),)
        return (R.mi_pvalue_optimal(x["alpha"], x["m"]),)

    return ref


def _kov_ref(x: Inputs, out: tuple[float, ...]) -> tuple[Any, ...]:
    return (R.kov_eps(x["eps"], x["delta"], int(x["k"]), x["delta_total"]),)


def _advanced_ref(x: Inputs, out: tuple[float, ...]) -> tuple[Any, ...]:
    return R.advanced(x["eps"], x["delta"], x["k"], x["delta_prime"])


_G = 3  # groups of equal steps in the heterogeneous composition case


def _s_hetero(rng: Gen) -> Inputs:
    x: Inputs = {f"eps{i}": _eps(rng, 1e-12, 10.0) for i in range(_G)}
    x.update({f"delta{i}": S.prob(rng, zero=True) * 1e-3 for i in range(_G)})
    x.update({f"k{i}": S.integer(rng, 1, 10**9) for i in range(_G)})
    x["delta_prime"] = S.prob(rng, 1e-300)
    return x


def _hetero_call(**x: Any) -> tuple[float, ...]:
    groups: dict[tuple[Any, Any], int] = {}
    for i in range(_G):
        key = (x[f"eps{i}"], x[f"delta{i}"])
        groups[key] = groups.get(key, 0) + x[f"k{i}"]
    g = dp.advanced_composition(groups, x["delta_prime"])
    return g.eps, g.delta


def _hetero_ref(x: Inputs, out: tuple[float, ...]) -> tuple[Any, ...]:
    return R.advanced_groups([(x[f"eps{i}"], x[f"delta{i}"], int(x[f"k{i}"])) for i in range(_G)], x["delta_prime"])


def _compose_call(**x: Any) -> tuple[float, ...]:
    b = mb.compose_max_information([Bound(x[f"k{i}"], x[f"beta{i}"], "fuzz") for i in range(_G)])
    return float(b.k), float(b.beta)


def _thresholdout_paper_check(x: Inputs) -> None:
    e = 2 / (x["sigma"] * x["n"])
    closed = mpmath.sqrt(32 * x["budget"] * mpmath.log(2 / x["delta"])) / (x["sigma"] * x["n"])
    adv = R.runs_eps(e, x["budget"], x["delta"])
    if closed < adv:
        raise R.Outside("the closed form is below advanced composition (not a theorem there)")
    if closed <= adv * (1 + mpmath.mpf(10) ** -9):
        raise R.Marginal("the closed form within 1e-9 of advanced composition")


def _thresholdout_ref(variant: str) -> Callable[[Inputs, tuple[float, ...]], tuple[Any, ...]]:
    def ref(x: Inputs, out: tuple[float, ...]) -> tuple[Any, ...]:
        d = R.exact(out[1])  # eps is checked at the delta reported, which is <= the one asked
        if variant == "paper":
            _thresholdout_paper_check(x)
            e = mpmath.sqrt(32 * x["budget"] * mpmath.log(2 / d)) / (x["sigma"] * x["n"])
        else:
            e = R.runs_eps(2 / (x["sigma"] * x["n"]), x["budget"], d)
        return e, x["delta"]

    return ref


def _arr(f: Callable[..., Any]) -> Callable[..., tuple[Any, ...]]:
    def g(**kw: Any) -> tuple[Any, ...]:
        r = f(**{k: np.asarray(v) for k, v in kw.items()})
        return r if isinstance(r, tuple) else (r,)

    return g


REGIME = (r"RRST Thm 3\.1|Lemma 1\.5|outside", "outside the theorem's stated conditions")


def _gauss_max_ref(x: Inputs, out: tuple[float, ...]) -> tuple[Any, Any]:
    """The exact half-width, and the true coverage at the half-width returned (which must be
    at least 1 - beta: the promise)."""
    cov = R.gauss_max_coverage(x["sigma"], x["k"], mpmath.mpf(out[0]))
    if cov < 1 - x["beta"]:
        raise R.Rejected(f"coverage {cov} at the returned half-width is below 1 - beta")
    return R.gauss_max_half_width(x["sigma"], x["k"], x["beta"]), cov


def _split_binomial_ref(x: Inputs, out: tuple[float, ...]) -> tuple[Any, Any]:
    """A t just below the smallest exact half-width, and the exact coverage at the half-width
    returned (which must be at least 1 - beta, and at least the coverage reported)."""
    n, k, beta = int(x["n"]), int(x["k"]), x["beta"]
    cov = R.split_binomial_coverage(n, k, out[0])
    if cov < 1 - beta:
        raise R.Rejected(f"coverage {cov} at the returned half-width is below 1 - beta")
    return R.split_binomial_width_below(n, k, beta), cov


def _s_split_binomial(rng: Gen) -> Inputs:
    # the exact reference enumerates every breakpoint: at most 24 records per query
    k = S.integer(rng, 1, 10**4)
    return {"n": k * S.integer(rng, 1, 24) + int(rng.integers(0, k)), "k": k, "beta": S.prob(rng, 1e-12)}


def _queries_outside(x: Inputs) -> None:
    """The estimation evaluators take at most MAX_QUERIES = 10^12 queries (and splitting at
    most n); within that they must answer."""
    if int(x["k"]) > 10**12:
        raise R.Outside("k above 10^12 queries")
    if "n" in x and int(x["k"]) > int(x["n"]):
        raise R.Outside("k > n: a query without records")


def _s_split(rng: Gen) -> Inputs:
    n = S.integer(rng, 1, 10**15)
    return {"n": n, "k": S.integer(rng, 1, n), "beta": S.prob(rng, 1e-250)}


def _s_jlnrss(rng: Gen) -> Inputs:
    """The transfer theorem's inputs (eps, delta, alpha, beta, c, d), shared by both forms."""
    return {
        "eps": 0.0 if rng.uniform() < 0.05 else S.logu(rng, 1e-12, 30.0),
        "delta": S.prob(rng, zero=True, below=0.999),
        "alpha": 0.0 if rng.uniform() < 0.05 else S.logu(rng, 1e-12, 10.0),
        "beta": S.prob(rng, zero=True, one=True),
        "c": S.logu(rng, 1e-12, 1e3),
        "d": S.logu(rng, 1e-12, 1e3),
    }


CASES: tuple[Case, ...] = (
    Case(
        "RRST-1.3 pvalue_correction",
        _s_pvalue,
        lambda alpha, k, beta: (mb.pvalue_correction(alpha, k, beta),),
        _pvalue_ref,
        ("down",),
        reals=("alpha", "k", "beta"),
        array=_arr(mb.pvalue_correction),
        weight=3,
    ),
    Case(
        "RRST-1.4a pure_dp_max_information",
        lambda rng: {"eps": _eps(rng), "n": S.integer(rng, 1, 10**15)},
        lambda eps, n: _bound(mb.pure_dp_max_information(eps, n)),
        lambda x, out: (R.pure_dp(x["eps"], x["n"]), mpmath.mpf(0)),
        ("up", "up"),
        reals=("eps",),
        ints=("n",),
        array=lambda eps, n: (mb.pure_dp_max_information(np.asarray(eps), np.asarray(n)),),
        weight=3,
    ),
    Case(
        "RRST-1.4b pure_dp_max_information_product",
        lambda rng: {"eps": _eps(rng), "n": S.integer(rng, 1, 10**15), "beta": S.prob(rng, below=1.0)},
        lambda eps, n, beta: _bound(mb.pure_dp_max_information_product(eps, n, beta)),
        _product_ref,
        ("up", "down"),
        reals=("eps", "beta"),
        ints=("n",),
        array=lambda eps, n, beta: (
            mb.pure_dp_max_information_product(np.asarray(eps), np.asarray(n), np.asarray(beta)),
            np.asarray(beta),
        ),
        weight=3,
    ),
    Case(
        "RRST-1.5a mi_to_approx_max_information exact",
        lambda rng: {"m": 0.0 if rng.uniform() < 0.05 else S.logu(rng, 1e-300, 1e4), "k": S.logu(rng, 1e-6, 1e6)},
        lambda m, k: (float(mb.mi_to_approx_max_information(m, k).beta),),
        lambda x, out: (R.mi_beta_star(x["m"], x["k"]),),
        ("up",),
        reals=("m", "k"),
        array=_arr(mb.mi_to_approx_max_information),
        weight=1,
    ),
    Case(
        "RRST-1.5a mi_to_approx_max_information paper",
        lambda rng: {"m": 0.0 if rng.uniform() < 0.05 else S.logu(rng, 1e-300, 1e4), "k": S.logu(rng, 1e-6, 1e6)},
        lambda m, k: (float(mb.mi_to_approx_max_information(m, k, variant="paper").beta),),
        lambda x, out: (R.mi_paper_beta(x["m"], x["k"]),),
        ("up",),
        reals=("m", "k"),
        array=lambda m, k: (mb.mi_to_approx_max_information(np.asarray(m), np.asarray(k), variant="paper"),),
        weight=2,
    ),
    *(
        Case(
            f"RRST-1.5b approx_max_information_to_mi {v}",
            lambda rng: {
                "k": S.logu(rng, 1e-6, 1e4),
                "beta": S.prob(rng, zero=True, below=0.4),
                "support_size": S.integer(rng, 1, 10**18),
            },
            (
                lambda v: (
                    lambda k, beta, support_size: (mb.approx_max_information_to_mi(k, beta, support_size, variant=v),)
                )
            )(v),
            (lambda v: lambda x, out: (R.to_mi(x["k"], x["beta"], x["support_size"], v),))(v),
            ("up",),
            reals=("k", "beta"),
            ints=("support_size",),
            array=(
                lambda v: (
                    lambda k, beta, support_size: (
                        mb.approx_max_information_to_mi(
                            np.asarray(k), np.asarray(beta), np.asarray(support_size), variant=v
                        ),
                    )
                )
            )(v),
            weight=2,
            documented=(REGIME,),
        )
        for v in ("sound", "paper")
    ),
    *(
        Case(
            f"RRST-3.1 approx_dp_max_information {v} (t, delta_hat)",
            _s_thm31,
            (lambda v: lambda **kw: _bound(mb.approx_dp_max_information(**kw, variant=v)))(v),
            _thm31_ref(v),
            ("up", "up"),
            reals=("eps", "delta", "t", "delta_hat"),
            ints=("n",),
            array=(
                lambda v: (
                    lambda **kw: mb.approx_dp_max_information(**{a: np.asarray(b) for a, b in kw.items()}, variant=v)
                )
            )(v),
            weight=3,
            documented=(REGIME,),
        )
        for v in ("sound", "paper")
    ),
    *(
        Case(
            f"RRST-3.1 approx_dp_max_information {v} (paper's t, delta_hat)",
            _s_thm31_default,
            _thm31_chosen(v),
            _thm31_chosen_ref(v, False),
            ("up", "up", "exact", "exact"),
            reals=("eps", "delta"),
            ints=("n",),
            weight=1,
            documented=(REGIME,),
            check=_thm31_check,
        )
        for v in ("sound", "paper")
    ),
    *(
        Case(
            f"RRST-3.1 approx_dp_max_information {v} (beta target)",
            _s_thm31_beta,
            _thm31_chosen(v),
            _thm31_chosen_ref(v, True),
            ("up", "up", "exact", "exact"),
            reals=("eps", "delta", "beta"),
            ints=("n",),
            weight=0.15,
            check=_thm31_target_check(v),
        )
        for v in ("sound", "paper")
    ),
    Case(
        "DFHPRR-6 description_length_max_information",
        lambda rng: {"range_size": S.integer(rng, 1, 10**18), "beta": S.prob(rng, one=True)},
        lambda range_size, beta: _bound(mb.description_length_max_information(range_size, beta)),
        lambda x, out: (R.description(x["range_size"], R.exact(out[1])), x["beta"]),
        ("up", "down"),
        reals=("beta",),
        ints=("range_size",),
        array=lambda range_size, beta: (
            mb.description_length_max_information(np.asarray(range_size), np.asarray(beta)),
            np.asarray(beta),
        ),
        weight=2,
    ),
    Case(
        "DFHPRR-4 hoeffding_transfer",
        lambda rng: {
            "k": 0.0 if rng.uniform() < 0.05 else S.logu(rng, 1e-12, 1e4),
            "beta": S.prob(rng, zero=True, one=True),
            "tau": S.logu(rng, 1e-6, 10.0),
            "n": S.integer(rng, 1, 10**15),
        },
        lambda k, beta, tau, n: (mb.hoeffding_transfer(k, beta, tau, n),),
        lambda x, out: (R.hoeffding(x["k"], x["beta"], x["tau"], x["n"]),),
        ("up",),
        reals=("k", "beta", "tau"),
        ints=("n",),
        array=_arr(mb.hoeffding_transfer),
        weight=2,
    ),
    *(
        Case(
            f"RRST-D.1 mcdiarmid_transfer {v}",
            lambda rng: {
                "k": S.logu(rng, 1e-12, 1e4),
                "beta": S.prob(rng, zero=True),
                "tau": S.logu(rng, 1e-6, 1e3),
                "n": S.integer(rng, 1, 10**15),
                "sensitivity": S.logu(rng, 1e-8, 10.0),
            },
            (lambda v: lambda **kw: (mb.mcdiarmid_transfer(**kw, variant=v),))(v),
            (lambda v: lambda x, out: (R.mcdiarmid(x["k"], x["beta"], x["tau"], x["n"], x["sensitivity"], v),))(v),
            ("up",),
            reals=("k", "beta", "tau", "sensitivity"),
            ints=("n",),
            array=(
                lambda v: lambda **kw: (mb.mcdiarmid_transfer(**{a: np.asarray(b) for a, b in kw.items()}, variant=v),)
            )(v),
            weight=1,
        )
        for v in ("sound", "paper")
    ),
    *(
        Case(
            f"RRST-B.1 pvalue_sensitivity_lower_bound {v}",
            lambda rng: {"n": S.integer(rng, 1, 10**15)},
            (lambda v: lambda n: (mb.pvalue_sensitivity_lower_bound(n, variant=v),))(v),
            (lambda v: lambda x, out: ((R.b1_paper if v == "paper" else R.b1_optimal)(x["n"]),))(v),
            ("down",),
            ints=("n",),
            array=(lambda v: lambda n: (mb.pvalue_sensitivity_lower_bound(np.asarray(n), variant=v),))(v),
            weight=0.5,
        )
        for v in ("paper", "optimal")
    ),
    Case(
        "RRST-B.2 bnsssu_transfer",
        _s_b2,
        lambda **kw: (lambda t: (float(t.deviation), float(t.probability)))(mb.bnsssu_transfer(**kw)),
        lambda x, out: R.bnsssu(x["eps"], x["delta"], x["n"], x["sensitivity"]),
        ("up", "up"),
        reals=("eps", "delta", "sensitivity"),
        ints=("n",),
        array=lambda **kw: mb.bnsssu_transfer(**{a: np.asarray(b) for a, b in kw.items()}),
        weight=1,
        documented=((r"RRST Thm B\.2|n=.*ln\(4", "n below the theorem's n0"),),
    ),
    Case(
        "RRST-C.2 mi_pvalue_correction paper",
        lambda rng: {"alpha": S.prob(rng, zero=True, one=True), "m": S.logu(rng, 1e-300, 1e4)},
        lambda alpha, m: (mb.mi_pvalue_correction(alpha, m, variant="paper"),),
        _c2_ref("paper"),
        ("down",),
        reals=("alpha", "m"),
        array=lambda alpha, m: (mb.mi_pvalue_correction(np.asarray(alpha), np.asarray(m), variant="paper"),),
        weight=2,
    ),
    Case(
        "RRST-C.2 mi_pvalue_correction optimal",
        lambda rng: {"alpha": S.logu(rng, 1e-6, 1.0), "m": S.logu(rng, 1e-6, 1e2)},
        lambda alpha, m: (mb.mi_pvalue_correction(alpha, m),),
        _c2_ref("optimal"),
        ("down",),
        reals=("alpha", "m"),
        weight=0.02,
    ),
    Case(
        "RRST-C.3 russo_zou_pvalue_correction",
        lambda rng: {
            "alpha": S.prob(rng, zero=True, one=True),
            "m": 0.0 if rng.uniform() < 0.03 else S.logu(rng, 1e-300, 1e4),
        },
        lambda alpha, m: (mb.russo_zou_pvalue_correction(alpha, m),),
        lambda x, out: (R.russo_zou(x["alpha"], x["m"]),),
        ("down",),
        reals=("alpha", "m"),
        weight=0.3,
    ),
    Case(
        "DR-3.6 laplace_epsilon",
        lambda rng: {"sensitivity": S.logu(rng, 1e-300, 1e300), "scale": S.logu(rng, 1e-300, 1e300)},
        lambda sensitivity, scale: (dp.laplace_epsilon(sensitivity, scale),),
        lambda x, out: (x["sensitivity"] / x["scale"],),
        ("up",),
        reals=("sensitivity", "scale"),
    ),
    Case(
        "DR-3.6 laplace_scale",
        lambda rng: {"sensitivity": S.logu(rng, 1e-300, 1e300), "eps": S.logu(rng, 1e-300, 1e300)},
        lambda sensitivity, eps: (dp.laplace_scale(sensitivity, eps),),
        lambda x, out: (x["sensitivity"] / x["eps"],),
        ("up",),
        reals=("sensitivity", "eps"),
    ),
    Case(
        "DR-A.1 gaussian_sigma",
        lambda rng: {"sensitivity": S.logu(rng, 1e-100, 1e100), "eps": S.logu(rng, 1e-12, 1.0), "delta": S.prob(rng)},
        lambda **kw: (dp.gaussian_sigma(**kw),),
        lambda x, out: (R.classic_gaussian(x["sensitivity"], x["eps"], x["delta"]),),
        ("up",),
        reals=("sensitivity", "eps", "delta"),
        documented=((r"Thm A\.1", "eps >= 1"),),
    ),
    Case(
        "BW18-8 analytic_gaussian_sigma",
        lambda rng: {
            "sensitivity": S.logu(rng, 1e-6, 1e6),
            "eps": S.logu(rng, 1e-8, 50.0),
            "delta": S.logu(rng, 1e-300, 0.5),
        },
        lambda **kw: (dp.analytic_gaussian_sigma(**kw),),
        lambda x, out: (R.ag_sigma(x["sensitivity"], x["eps"], x["delta"]),),
        ("up",),
        reals=("sensitivity", "eps", "delta"),
        weight=0.1,
    ),
    Case(
        "BW18-8 gaussian_delta",
        lambda rng: {
            "sigma": S.logu(rng, 1e-3, 1e3),
            "sensitivity": S.logu(rng, 1e-3, 1e3),
            "eps": S.logu(rng, 1e-8, 50.0),
        },
        lambda **kw: (dp.gaussian_delta(**kw),),
        lambda x, out: (R.ag_delta(x["sensitivity"], x["sigma"], x["eps"]),),
        ("up",),
        reals=("sigma", "sensitivity", "eps"),
        weight=0.3,
    ),
    Case(
        "BW18-8 gaussian_epsilon",
        lambda rng: {
            "sigma": S.logu(rng, 1e-2, 1e8),
            "sensitivity": S.logu(rng, 1e-2, 1e2),
            "delta": S.logu(rng, 1e-200, 0.5),
        },
        lambda **kw: (dp.gaussian_epsilon(**kw),),
        lambda x, out: (R.ag_epsilon(x["sigma"], x["sensitivity"], x["delta"]),),
        ("up",),
        reals=("sigma", "sensitivity", "delta"),
        weight=0.1,
    ),
    *(
        Case(
            f"DR-3.10 exponential_mechanism_epsilon monotone={mono}",
            lambda rng: {"sensitivity": S.logu(rng, 1e-150, 1e150), "coefficient": S.logu(rng, 1e-150, 1e150)},
            (lambda mono: lambda **kw: (dp.exponential_mechanism_epsilon(**kw, monotone=mono).eps,))(mono),
            (lambda mono: lambda x, out: ((1 if mono else 2) * x["sensitivity"] * x["coefficient"],))(mono),
            ("up",),
            reals=("sensitivity", "coefficient"),
            weight=0.5,
        )
        for mono in (False, True)
    ),
    Case(
        "DR-3.10 exponential_mechanism_coefficient",
        lambda rng: {"sensitivity": S.logu(rng, 1e-150, 1e150), "eps": S.logu(rng, 1e-150, 1e150)},
        lambda **kw: (dp.exponential_mechanism_coefficient(**kw),),
        lambda x, out: (x["eps"] / (2 * x["sensitivity"]),),
        ("down",),
        reals=("sensitivity", "eps"),
        weight=0.5,
    ),
    Case(
        "DR-3.9 report_noisy_max_epsilon",
        lambda rng: {"sensitivity": S.logu(rng, 1e-150, 1e150), "scale": S.logu(rng, 1e-150, 1e150)},
        lambda **kw: (dp.report_noisy_max_epsilon(**kw).eps,),
        lambda x, out: (2 * x["sensitivity"] / x["scale"],),
        ("up",),
        reals=("sensitivity", "scale"),
        weight=0.5,
    ),
    Case(
        "DR-3.23 above_threshold_epsilon",
        lambda rng: {
            "sensitivity": S.logu(rng, 1e-100, 1e100),
            "threshold_scale": S.logu(rng, 1e-100, 1e100),
            "query_scale": S.logu(rng, 1e-100, 1e100),
        },
        lambda **kw: (dp.above_threshold_epsilon(**kw),),
        lambda x, out: (x["sensitivity"] / x["threshold_scale"] + 2 * x["sensitivity"] / x["query_scale"],),
        ("up",),
        reals=("sensitivity", "threshold_scale", "query_scale"),
        weight=0.5,
    ),
    Case(
        "DR-3.25 sparse_vector",
        lambda rng: {
            "c": S.integer(rng, 1, 10**6),
            "threshold_scale": S.logu(rng, 1e-50, 1e50),
            "query_scale": S.logu(rng, 1e-50, 1e50),
            "sensitivity": S.logu(rng, 1e-50, 1e50),
        },
        lambda **kw: (dp.sparse_vector(**kw).eps,),
        lambda x, out: (x["c"] * (x["sensitivity"] / x["threshold_scale"] + 2 * x["sensitivity"] / x["query_scale"]),),
        ("up",),
        reals=("threshold_scale", "query_scale", "sensitivity"),
        ints=("c",),
        weight=0.5,
    ),
    Case(
        "DR-3.16 basic_composition",
        lambda rng: {"eps": _eps(rng, 1e-12, 50), "delta": S.prob(rng, zero=True), "k": S.integer(rng, 1, 10**4)},
        lambda eps, delta, k: (lambda g: (g.eps, g.delta))(dp.basic_composition([(eps, delta)] * k)),
        lambda x, out: (x["k"] * x["eps"], min(x["k"] * x["delta"], mpmath.mpf(1))),
        ("up", "up"),
        reals=("eps", "delta"),
        weight=0.3,
    ),
    Case(
        "DR-3.20 advanced composition (k equal steps)",
        lambda rng: {
            "eps": _eps(rng, 1e-12, 50),
            "delta": S.prob(rng, zero=True) * 1e-3,
            "k": S.integer(rng, 1, 10**4),
            "delta_prime": S.prob(rng, 1e-300),
        },
        lambda eps, delta, k, delta_prime: (lambda g: (g.eps, g.delta))(
            dp.advanced_composition([(eps, delta)] * k, delta_prime)
        ),
        _advanced_ref,
        ("up", "up"),
        reals=("eps", "delta", "delta_prime"),
        weight=0.3,
    ),
    Case(
        "KOV15-3.3 optimal_composition",
        lambda rng: {
            "eps": _eps(rng, 1e-10, 5.0),
            "delta": S.prob(rng, 1e-300, zero=True) * 1e-4,
            "k": S.integer(rng, 1, 300),
            "delta_total": S.prob(rng, 1e-30, below=0.5),
        },
        lambda **kw: (dp.optimal_composition(**kw).eps,),
        _kov_ref,
        ("up",),
        reals=("eps", "delta", "delta_total"),
        weight=0.05,
        documented=((r"delta_total=.*at least 1 - \(1 - delta\)\^k", "delta_total below the floor 1 - (1-delta)^k"),),
    ),
    *(
        Case(
            f"Notes-Thresholdout thresholdout_dp {v} (delta > 0)",
            lambda rng: {
                "budget": S.integer(rng, 1, 10**9),
                "sigma": S.logu(rng, 1e-6, 1e6),
                "n": S.integer(rng, 1, 10**15),
                "delta": S.prob(rng, 1e-300, below=0.5),
            },
            (
                lambda v: (
                    lambda budget, sigma, n, delta: (lambda g: (g.eps, g.delta))(
                        holdout.thresholdout_dp(budget, sigma, n, delta=delta, variant=v)
                    )
                )
            )(v),
            _thresholdout_ref(v),
            ("up", "down"),
            reals=("sigma", "delta"),
            ints=("budget", "n"),
            weight=0.3,
            check=_thresholdout_paper_check if v == "paper" else None,
        )
        for v in ("sound", "paper")
    ),
    Case(
        "DR-3.20 advanced composition (heterogeneous groups)",
        _s_hetero,
        _hetero_call,
        _hetero_ref,
        ("up", "up"),
        reals=tuple(f"{a}{i}" for a in ("eps", "delta") for i in range(_G)) + ("delta_prime",),
        ints=tuple(f"k{i}" for i in range(_G)),
        weight=0.3,
    ),
    Case(
        "KOV15-3.3 optimal_composition_delta",
        lambda rng: (
            lambda e, k: {
                "eps": e,
                "delta": S.prob(rng, 1e-300, zero=True) * 1e-4,
                "k": k,
                "eps_total": k * e * S.prob(rng, 1e-6, zero=True, one=True),
            }
        )(_eps(rng, 1e-4, 5.0), S.integer(rng, 1, 300)),
        lambda **kw: (dp.optimal_composition_delta(**kw),),
        lambda x, out: (R.kov_delta(x["eps"], x["delta"], int(x["k"]), x["eps_total"]),),
        ("up",),
        reals=("eps", "delta", "eps_total"),
        weight=0.1,
    ),
    Case(
        "DR-3.25 sparse_vector_scales",
        lambda rng: {
            "c": S.integer(rng, 1, 10**9),
            "eps": S.logu(rng, 1e-12, 50.0),
            "sensitivity": S.logu(rng, 1e-50, 1e50),
            "delta": 0.0 if rng.uniform() < 0.4 else S.prob(rng, 1e-300, below=0.5),
        },
        lambda c, eps, sensitivity, delta: dp.sparse_vector_scales(c, eps, sensitivity=sensitivity, delta=delta),
        lambda x, out: R.sparse_vector_scales(x["c"], x["eps"], x["sensitivity"], x["delta"]),
        ("up", "up"),
        reals=("eps", "sensitivity", "delta"),
        ints=("c",),
        weight=0.2,
    ),
    Case(
        "RRST-A.3 compose_max_information",
        lambda rng: {
            **{f"k{i}": 0.0 if rng.uniform() < 0.05 else S.logu(rng, 1e-12, 1e6) for i in range(_G)},
            **{f"beta{i}": S.prob(rng, zero=True) for i in range(_G)},
        },
        _compose_call,
        lambda x, out: (sum(x[f"k{i}"] for i in range(_G)), min(sum(x[f"beta{i}"] for i in range(_G)), mpmath.mpf(1))),
        ("up", "up"),
        weight=0.3,
    ),
    Case(
        "Notes-Thresholdout thresholdout_dp",
        lambda rng: {
            "budget": S.integer(rng, 1, 10**9),
            "sigma": S.logu(rng, 1e-100, 1e100),
            "n": S.integer(rng, 1, 10**15),
        },
        lambda **kw: (holdout.thresholdout_dp(**kw).eps,),
        lambda x, out: (2 * x["budget"] / (x["sigma"] * x["n"]),),
        ("up",),
        reals=("sigma",),
        ints=("budget", "n"),
        weight=0.5,
    ),
    Case(
        "DFHPRR-9 thresholdout_theorem9 sigma",
        lambda rng: (
            lambda m: {"tau": S.logu(rng, 1e-100, 1e100), "m": m, "budget": S.integer(rng, 1, m), "beta": S.prob(rng)}
        )(S.integer(rng, 1, 10**15)),
        lambda **kw: (holdout.thresholdout_theorem9(**kw).sigma,),
        lambda x, out: (x["tau"] / (96 * mpmath.log(4 * x["m"] / x["beta"])),),
        ("down",),
        reals=("tau", "beta"),
        ints=("m",),
        weight=0.5,
    ),
    Case(
        "DFHPRR-10 sparse_validate_bound",
        lambda rng: {
            "i": S.integer(rng, 1, 2000),
            "budget": S.integer(rng, 1, 2000) - 1,
            "beta_i": S.prob(rng, zero=True, one=True),
        },
        lambda **kw: (holdout.sparse_validate_bound(**kw),),
        lambda x, out: (min(R.sv_factor(int(x["i"]), int(x["budget"])) * x["beta_i"], mpmath.mpf(1)),),
        ("up",),
        reals=("beta_i",),
        weight=0.3,
    ),
    # -- exact accounting: Gaussian DP, zCDP, the exact mixed composition --------------------
    Case(
        "DRS22-2.13 gdp_delta",
        lambda rng: {"mu": S.logu(rng, 1e-3, 1e3), "eps": S.logu(rng, 1e-8, 50.0)},
        lambda **kw: (dp.gdp_delta(**kw),),
        lambda x, out: (R.gdp_delta(x["mu"], x["eps"]),),
        ("up",),
        reals=("mu", "eps"),
        weight=0.3,
    ),
    Case(
        "DRS22-2.13 gdp_epsilon",
        lambda rng: {"mu": S.logu(rng, 1e-3, 50.0), "delta": S.prob(rng, 1e-200, below=0.5)},
        lambda **kw: (dp.gdp_epsilon(**kw),),
        lambda x, out: (R.gdp_eps(x["mu"], x["delta"]),),
        ("up",),
        reals=("mu", "delta"),
        weight=0.1,
    ),
    Case(
        "DRS22-mu gdp_mu",
        lambda rng: {"eps": S.logu(rng, 1e-6, 50.0), "delta": S.prob(rng, 1e-200, below=0.5)},
        lambda **kw: (dp.gdp_mu(**kw),),
        lambda x, out: (R.gdp_mu(x["eps"], x["delta"]),),
        ("down",),
        reals=("eps", "delta"),
        weight=0.1,
    ),
    Case(
        "DRS22-3.3 gdp_compose",
        lambda rng: {"k": S.integer(rng, 1, 10**9), "mu": S.logu(rng, 1e-100, 1e3)},
        lambda k, mu: (dp.gdp_compose({mu: k}),),
        lambda x, out: (mpmath.sqrt(x["k"]) * x["mu"],),
        ("up",),
        reals=("mu",),
        ints=("k",),
        weight=0.5,
    ),
    Case(
        "DRS22-3.3 gdp_sigma",
        lambda rng: {
            "sensitivity": S.logu(rng, 1e-50, 1e50),
            "mu": S.logu(rng, 1e-3, 1e3),
            "k": S.integer(rng, 1, 10**9),
        },
        lambda **kw: (dp.gdp_sigma(**kw),),
        lambda x, out: (mpmath.sqrt(x["k"]) * x["sensitivity"] / x["mu"],),
        ("up",),
        reals=("sensitivity", "mu"),
        ints=("k",),
        weight=0.5,
    ),
    Case(
        "DRS22-2.7 gaussian_mu",
        lambda rng: {"sensitivity": S.logu(rng, 1e-100, 1e100), "sigma": S.logu(rng, 1e-100, 1e100)},
        lambda **kw: (dp.gaussian_mu(**kw),),
        lambda x, out: (x["sensitivity"] / x["sigma"],),
        ("up",),
        reals=("sensitivity", "sigma"),
        weight=0.5,
    ),
    Case(
        "CKS20-12 zcdp_epsilon",
        lambda rng: {"rho": S.logu(rng, 1e-10, 1e3), "delta": S.prob(rng, 1e-200, below=0.5)},
        lambda **kw: (dp.zcdp_epsilon(**kw),),
        lambda x, out: (R.cks_eps(x["rho"], x["delta"]),),
        ("up",),
        reals=("rho", "delta"),
        weight=0.1,
    ),
    Case(
        "S24-pure-zCDP zcdp_pure",
        lambda rng: {"eps": S.logu(rng, 1e-12, 50.0)},
        lambda **kw: (dp.zcdp_pure(**kw),),
        lambda x, out: (x["eps"] * mpmath.tanh(x["eps"] / 2),),
        ("up",),
        reals=("eps",),
        weight=0.5,
    ),
    Case(
        "CR21-BR zcdp_bounded_range",
        lambda rng: {"eta": S.logu(rng, 1e-100, 1e100)},
        lambda **kw: (dp.zcdp_bounded_range(**kw),),
        lambda x, out: (x["eta"] ** 2 / 8,),
        ("up",),
        reals=("eta",),
        weight=0.5,
    ),
    Case(
        "BS16-1.6 zcdp_gaussian",
        lambda rng: {"sensitivity": S.logu(rng, 1e-50, 1e50), "sigma": S.logu(rng, 1e-50, 1e50)},
        lambda **kw: (dp.zcdp_gaussian(**kw),),
        lambda x, out: (x["sensitivity"] ** 2 / (2 * x["sigma"] ** 2),),
        ("up",),
        reals=("sensitivity", "sigma"),
        weight=0.5,
    ),
    Case(
        "MIX-exact mixed_epsilon",
        lambda rng: {
            "eps": S.logu(rng, 1e-4, 2.0),
            "k": S.integer(rng, 1, 30),
            "mu": 0.0 if rng.uniform() < 0.3 else S.logu(rng, 1e-3, 5.0),
            "delta": S.prob(rng, 1e-30, below=0.5),
        },
        lambda eps, k, mu, delta: (dp.mixed_epsilon({eps: k}, mu, delta),),
        lambda x, out: (R.mixed_eps(x["eps"], int(x["k"]), x["mu"], x["delta"], near=out[0]),),
        ("up",),
        reals=("eps", "mu", "delta"),
        ints=("k",),
        weight=0.005,
        min_points=8,
        check=_mixed_outside,
    ),
    Case(
        "MIX-exact mixed_delta",
        lambda rng: {
            "eps": S.logu(rng, 1e-4, 2.0),
            "k": S.integer(rng, 1, 30),
            "mu": 0.0 if rng.uniform() < 0.3 else S.logu(rng, 1e-3, 5.0),
            "eg": S.logu(rng, 1e-6, 30.0),
        },
        lambda eps, k, mu, eg: (dp.mixed_delta({eps: k}, mu, eg),),
        lambda x, out: (R.mixed_delta(x["eps"], int(x["k"]), x["mu"], x["eg"]),),
        ("up",),
        reals=("eps", "mu", "eg"),
        ints=("k",),
        weight=0.005,
        min_points=8,
        check=_mixed_outside,
    ),
    Case(
        "GAUSS-max gaussian_sample_accuracy",
        lambda rng: {
            "sigma": S.logu(rng, 1e-8, 1e8),
            "k": S.integer(rng, 1, 10**9),
            "beta": S.prob(rng, 1e-250),
        },
        lambda **kw: (lambda b: (b.half_width, b.coverage))(mb.gaussian_sample_accuracy(**kw)),
        lambda x, out: _gauss_max_ref(x, out),
        ("up", "down"),
        reals=("sigma", "beta"),
        ints=("k",),
        weight=0.1,
        check=_queries_outside,
    ),
    Case(
        "JLNRSS-transfer jlnrss_transfer",
        _s_jlnrss,
        lambda **kw: (lambda b: (b.half_width, b.coverage))(mb.jlnrss_transfer(**kw)),
        lambda x, out: R.jlnrss(x["eps"], x["delta"], x["alpha"], x["beta"], x["c"], x["d"]),
        ("up", "down"),
        reals=("eps", "delta", "alpha", "beta", "c", "d"),
        weight=0.3,
    ),
    Case(
        "JLNRSS-transfer-sensitive jlnrss_transfer_sensitive",
        lambda rng: (
            _s_jlnrss(rng)
            | {
                "n": S.integer(rng, 1, 10**12),
                "sensitivity": S.logu(rng, 1e-15, 1e3),
                "value_range": S.logu(rng, 1e-12, 1e6),
            }
        ),
        lambda **kw: (lambda b: (b.half_width, b.coverage))(mb.jlnrss_transfer_sensitive(**kw)),
        lambda x, out: R.jlnrss_sensitive(
            x["eps"], x["delta"], x["alpha"], x["beta"], x["c"], x["d"], x["n"], x["sensitivity"], x["value_range"]
        ),
        ("up", "down"),
        reals=("eps", "delta", "alpha", "beta", "c", "d", "sensitivity", "value_range"),
        ints=("n",),
        weight=0.2,
    ),
    Case(
        "SPLIT-binomial split_binomial",
        _s_split_binomial,
        lambda **kw: (lambda b: (b.half_width, b.coverage))(mb.split_binomial(**kw)),
        _split_binomial_ref,
        ("up", "down"),
        reals=("beta",),
        ints=("n", "k"),
        weight=0.05,
        check=_queries_outside,
        min_points=40,
    ),
    Case(
        "SPLIT-Hoeffding split_hoeffding",
        _s_split,
        lambda **kw: (lambda b: (b.half_width, b.coverage))(mb.split_hoeffding(**kw)),
        lambda x, out: (R.split_width(x["n"], x["k"], x["beta"]), 1 - x["beta"]),
        ("up", "down"),
        reals=("beta",),
        ints=("n", "k"),
        weight=0.3,
        check=_queries_outside,
    ),
)
