r"""The reusable holdout: Thresholdout and SparseValidate, with their guarantees.

* :class:`Thresholdout` implements DFHPRR §3's pseudocode exactly (the order of the random draws
  included), answers statistical queries phi: X -> [0, 1], tracks its overfitting budget and
  reports its privacy (Notes, Thresholdout lemma), the max-information that follows (RRST
  Thm 1.4 / 3.1) and DFHPRR Thm 9's parameter choice.
* :class:`SparseValidate` implements DFHPRR Thm 10's validator, and :func:`sparse_validate_factor`
  its union-bound factor l_i exactly (Python integers).

Units: eps in nats, k in bits. Every privacy parameter and probability bound is rounded up.

>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> train, hold = rng.random(1000), rng.random(1000)
>>> th = Thresholdout(train, hold, threshold=0.04, sigma=0.01, budget=10, rng=1)
>>> a = th.query(lambda x: (x > 0.5).astype(float))   # train and holdout agree: training mean
>>> a == float(np.mean(train > 0.5)), th.remaining_budget
(True, 10)

Why one module over 400 lines: the two algorithms, their guarantees and their catalog entries
share the parameter declarations and the paper (DFHPRR §3–4); split, each half would import the
other's.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Generic, Literal, Protocol, TypeVar

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..arith import Formula
from ..domain import Int, Real
from ..numeric import InvalidParameter, MaxinfoError, RegimeError, float_down, float_up
from ..results import Bound
from .dp_accounting import DPGuarantee, compose_dp, dp_max_information
from .registry import Param, Theorem, register

__all__ = [
    "BudgetExhausted",
    "Thresholdout",
    "thresholdout_dp",
    "thresholdout_theorem9",
    "Theorem9Parameters",
    "SparseValidate",
    "sparse_validate_factor",
    "sparse_validate_bound",
]


# -- parameters (declared once) ----------------------------------------------------------------
BUDGET = Param("budget", Int(1), "overfitting budget B")
SIGMA = Param("sigma", Real(0, lo_open=True), "noise rate sigma")
N = Param("n", Int(1), "holdout size")
DELTA = Param("delta", Real(0, 1, hi_open=True), "delta (0: pure DP)")
TAU = Param("tau", Real(0, lo_open=True), "accuracy tau")
M = Param("m", Int(1), "number of queries")
BUDGET_M = Param("budget", Int(1, relation="budget <= m"), "budget B")
BETA = Param("beta", Real(0, 1, lo_open=True, hi_open=True), "failure probability")
THRESHOLD = Param("threshold", Real(0), "threshold T")
INDEX = Param("i", Int(1), "query index")
BUDGET_ONES = Param("budget", Int(0), "budget B of ones")
BETA_I = Param("beta_i", Real(0, 1), "fresh-sample failure probability")
MEAN = Param("mean", Real(), "an empirical mean (any finite real: Thresholdout.answer_means)")

# -- the formulas, each written once (see maxinfo_bounds.arith) -------------------------------
#: Notes, Thresholdout lemma: eps = 2B/(sigma n) (pure); 2/(sigma n) per unit of budget
THRESHOLDOUT = Formula(lambda c, b, sigma, n: 2 * b / (sigma * n), ("B", "sigma", "n"), integer=("B", "n"))
#: Notes, Thresholdout lemma (= Dwork & Roth Cor 3.21): sqrt(32 B ln(2/delta)) / (sigma n)
THRESHOLDOUT_APPROX = Formula(
    lambda c, b, sigma, n, delta: c.sqrt(32 * b * c.log(2 / delta)) / (sigma * n),
    ("B", "sigma", "n", "delta"),
    integer=("B", "n"),
)
#: DFHPRR Thm 9: T = 3 tau / 4 and sigma = tau / (96 ln(4m/beta))
THM9_T = Formula(lambda c, tau: c.num(Fraction(3, 4)) * tau, ("tau",))
THM9_SIGMA = Formula(lambda c, tau, m, beta: tau / (96 * c.log(4 * m / beta)), ("tau", "m", "beta"), integer=("m",))


#: the holdout set's type (SparseValidate passes it to each query unchanged)
H = TypeVar("H")


class BudgetExhausted(MaxinfoError, RuntimeError):
    """A reusable holdout was asked a query after its budget was spent."""


def _rng(rng: Any) -> np.random.Generator:
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, (int, np.integer, np.random.SeedSequence)):
        return np.random.default_rng(rng)
    raise InvalidParameter("rng", rng, "a numpy Generator or an integer seed (results must be reproducible)")


def thresholdout_dp(
    budget: int, sigma: float, n: int, *, delta: float = 0.0, variant: Literal["sound", "paper"] = "sound"
) -> DPGuarantee:
    r"""Privacy of Thresholdout with budget B, noise rate sigma, holdout size n (Laplace noise).

    Each over-threshold answer is an AboveThreshold run (threshold noise Lap(2σ), query noise
    Lap(4σ), sensitivity 1/n: 1/(σn)) plus the noisy answer (Lap(σ): 1/(σn)), so 2/(σn) per unit
    of budget; answers under the threshold are the training mean and cost nothing.

    Theorem: Notes, Thresholdout lemma: (2B/(σn), 0)-DP, and
    (sqrt(32 B ln(2/δ))/(σn), δ)-DP for δ > 0 (``variant="paper"``: that closed form, which is
    Dwork & Roth Cor 3.21's and is claimed only where it is at least advanced composition, so
    valid). ``variant="sound"`` (default): the smaller of basic composition and advanced
    composition (Dwork & Roth Thm 3.20) of the B runs at total δ; never larger than the paper's.

    >>> thresholdout_dp(10, 0.01, 1000).eps          # 2 * 10 / (0.01 * 1000)
    2.0
    """
    b, s, ni = BUDGET.check(budget), SIGMA.check(sigma), N.check(n)
    d = float_down(DELTA.check(delta))  # a Fraction delta: never report one above it
    if variant not in ("sound", "paper"):
        raise InvalidParameter("variant", variant, "'sound' or 'paper'")
    step = float_up(THRESHOLDOUT.exact(1, s, ni))
    conds = (f"budget B = {b}", f"sigma = {s!r}", f"holdout n = {ni}", "Laplace noise")
    if d == 0:
        return DPGuarantee(float_up(THRESHOLDOUT.exact(b, s, ni)), 0.0, "Notes-Thresholdout", conds)
    if variant == "paper":
        e = THRESHOLDOUT_APPROX.up(b, s, ni, d)
        adv = compose_dp({(step, 0.0): b}, d).eps
        if not adv <= e:  # the closed form is only a theorem where advanced composition backs it
            raise RegimeError(
                "Notes Thresholdout lemma (Dwork-Roth Cor 3.21)",
                "delta",
                d,
                "a delta at which the closed form is at least advanced composition",
            )
        return DPGuarantee(e, d, "Notes-Thresholdout", (*conds, "paper closed form"))
    g = compose_dp({(step, 0.0): b}, d)
    return DPGuarantee(g.eps, g.delta, "Notes-Thresholdout", (*conds, *g.conditions))


@dataclass(frozen=True)
class Theorem9Parameters:
    """DFHPRR Thm 9's settings for accuracy tau, m queries, failure probability beta."""

    tau: float
    m: int
    budget: int
    beta: float
    threshold: float
    sigma: float
    #: ln(m/beta)/tau^2 * min(B, sqrt(B ln(ln(m/beta)/tau))): n0 up to the unstated constant
    n0_shape: float
    note: str = (
        "DFHPRR Thm 9 states n >= n0 = O(n0_shape) without the constant, so no "
        "explicit sample size follows from it; n0_shape is the bound's shape only."
    )

    def as_dict(self) -> dict[str, object]:
        """JSON-ready (the result fields; the inputs are the caller's)."""
        return {
            "theorem": "DFHPRR-9",
            "threshold": self.threshold,
            "sigma": self.sigma,
            "sigma_rounding": "down (within an ulp)",
            "n0_shape": self.n0_shape,
            "note": self.note,
        }


def thresholdout_theorem9(tau: float, m: int, budget: int, beta: float) -> Theorem9Parameters:
    r"""DFHPRR Thm 9: T = 3τ/4, σ = τ/(96 ln(4m/β)); the guarantee needs n >= n0 = O(shape).

    Theorem: DFHPRR Thm 9. Conditions: τ, β > 0 (β < 1), m >= B >= 1. ``sigma`` is within an ulp
    of the formula (rounded down); the privacy of a run is always reported from the σ it
    actually uses. ``threshold`` is rounded down too (exact for a float τ): in the proof a
    training answer is returned only when it is within T (plus noise) of the holdout, so a
    smaller T can only tighten the accuracy argument; it costs budget, which is counted.
    The O(·) constant of n0 is not stated in the paper, so only its shape
    ln(m/β)/τ² · min(B, sqrt(B ln(ln(m/β)/τ))) is returned, never a sample size.

    >>> p = thresholdout_theorem9(0.01, 1000, 10, 0.05)
    >>> p.threshold, round(p.sigma, 10)               # 0.0075, 0.01 / (96 ln 80000) = 9.22664...e-06
    (0.0075, 9.2266e-06)
    """
    tx, mm = TAU.check(tau), M.check(m)
    bb, bx = BUDGET_M.check(budget, hi=mm), BETA.check(beta)
    t, be = float(tx), float(bx)
    thr = float_down(THM9_T.exact(tx))  # exact for a float tau (unless it underflows)
    sig = THM9_SIGMA.down(tx, mm, bx)  # exact inputs (Fractions, big integers)
    lm = math.log(mm / be)
    inner = math.log(lm / t) if lm / t > 1 else 0.0
    shape = lm / t**2 * min(bb, math.sqrt(bb * inner))
    return Theorem9Parameters(t, mm, bb, be, thr, sig, shape)


class Thresholdout:
    r"""DFHPRR's Thresholdout (§3), exactly as in the paper's pseudocode.

    Parameters
    ----------
    train, holdout:
        The training and holdout datasets (arrays whose first axis indexes records). A query
        is a callable ``phi`` mapping such an array to one value in [0, 1] per record; or call
        :meth:`query_values` with the two arrays of values directly.
    threshold:
        T. ``sigma``: the noise rate σ. ``budget``: B, the number of over-threshold answers.
    noise:
        ``"laplace"`` (the paper's algorithm: threshold noise Lap(2σ), comparison noise Lap(4σ),
        answer noise Lap(σ)) or ``"gaussian"`` (the same draws with N(0, (cσ)²) in place of
        Lap(cσ); no DP guarantee is claimed for it). The paper's experiment used Gaussian noise
        in a simpler form, N(0, τ²) for both the threshold and the answer with T fixed: that
        form is ``proofs_checks.simulate.holdout_reuse.thresholdout_gaussian``.
    rng:
        A seeded ``numpy.random.Generator`` (or an integer seed).
    on_exhausted:
        ``"bottom"``: answer ``None`` (the paper's ⊥) once the budget is spent; ``"raise"``:
        raise :class:`BudgetExhausted`.

    Random draws happen in the pseudocode's order: γ at start; per query η; on an over-threshold
    answer ξ then a fresh γ.
    """

    def __init__(
        self,
        train: ArrayLike,
        holdout: ArrayLike,
        *,
        threshold: float,
        sigma: float,
        budget: int,
        rng: Any,
        noise: Literal["laplace", "gaussian"] = "laplace",
        on_exhausted: Literal["bottom", "raise"] = "bottom",
    ) -> None:
        self._train = np.asarray(train)
        self._holdout = np.asarray(holdout)
        if self._train.ndim == 0 or len(self._train) == 0:
            raise InvalidParameter("train", train, "a non-empty dataset (array of records)")
        if self._holdout.ndim == 0 or len(self._holdout) == 0:
            raise InvalidParameter("holdout", holdout, "a non-empty dataset (array of records)")
        self.threshold = THRESHOLD.check_float(threshold)
        self.sigma = SIGMA.check_float(sigma)
        self.budget: int = BUDGET.check(budget)
        if noise not in ("laplace", "gaussian"):
            raise InvalidParameter("noise", noise, "'laplace' or 'gaussian'")
        if on_exhausted not in ("bottom", "raise"):
            raise InvalidParameter("on_exhausted", on_exhausted, "'bottom' or 'raise'")
        self.noise = noise
        self.on_exhausted = on_exhausted
        self._rng = _rng(rng)
        self.remaining_budget = self.budget
        self.queries_answered = 0
        self.over_threshold = 0
        self._t_hat = self.threshold + self._draw(2.0)

    @property
    def n_holdout(self) -> int:
        return int(len(self._holdout))

    def _draw(self, c: float) -> float:
        if self.noise == "laplace":
            return float(self._rng.laplace(0.0, c * self.sigma))
        return float(self._rng.normal(0.0, c * self.sigma))

    def query(self, phi: Callable[[NDArray[np.generic]], ArrayLike]) -> float | None:
        """Answer ``phi``: the training mean, or the noisy holdout mean if they differ."""
        if not callable(phi):
            raise InvalidParameter("phi", phi, "a callable mapping records to values in [0, 1]")
        return self.query_values(phi(self._train), phi(self._holdout))

    def query_values(self, train_values: ArrayLike, holdout_values: ArrayLike) -> float | None:
        """Answer a query given its values on every training and holdout record."""
        tv = self._values("train_values", train_values, len(self._train))
        hv = self._values("holdout_values", holdout_values, len(self._holdout))
        # pairwise summation: relative error ~1e-16
        return self.answer_means(float(np.mean(tv)), float(np.mean(hv)))

    def answer_means(self, train_mean: float, holdout_mean: float) -> float | None:
        """Answer a query given its two empirical means (the caller computed them).

        The same algorithm as :meth:`query`, for callers that compute the means of many
        queries at once (e.g. the DFHPRR experiment's correlations, which are not in [0, 1]:
        the DP guarantee then needs the query's own sensitivity, see :func:`thresholdout_dp`).
        """
        e_t, e_h = (
            MEAN.check_float(train_mean, label="train_mean"),
            MEAN.check_float(holdout_mean, label="holdout_mean"),
        )
        if self.remaining_budget < 1:
            if self.on_exhausted == "raise":
                raise BudgetExhausted(
                    f"Thresholdout budget B = {self.budget} is spent after {self.queries_answered} answers"
                )
            return None
        self.queries_answered += 1
        eta = self._draw(4.0)
        if abs(e_h - e_t) > self._t_hat + eta:
            xi = self._draw(1.0)
            gamma = self._draw(2.0)
            self.remaining_budget -= 1
            self.over_threshold += 1
            self._t_hat = self.threshold + gamma
            return e_h + xi
        return e_t

    @staticmethod
    def _values(name: str, v: Any, n: int) -> NDArray[np.float64]:
        arr = np.asarray(v, dtype=np.float64)
        if arr.shape != (n,):
            raise InvalidParameter(name, f"shape {arr.shape}", f"shape ({n},): one value per record")
        if not (np.all(arr >= 0.0) and np.all(arr <= 1.0)):  # also refuses NaN
            raise InvalidParameter(name, "values outside [0, 1]", "[0, 1] (phi: X -> [0, 1])")
        return arr

    def dp_guarantee(self, delta: float = 0.0, *, variant: Literal["sound", "paper"] = "sound") -> DPGuarantee:
        """The run's (eps, delta)-DP over the whole budget (see :func:`thresholdout_dp`)."""
        if self.noise != "laplace":
            raise RegimeError(
                "Notes Thresholdout lemma",
                "noise",
                self.noise,
                "'laplace' (no DP guarantee is claimed for the Gaussian variant)",
            )
        return thresholdout_dp(self.budget, self.sigma, self.n_holdout, delta=delta, variant=variant)

    def max_information(self, *, delta: float = 0.0, iid: bool = False, beta: float | None = None) -> Bound:
        """Max-information (bits) of the transcript about the holdout set (RRST Thm 1.4 / 3.1)."""
        return dp_max_information(self.dp_guarantee(delta), self.n_holdout, iid=iid, beta=beta)

    def __repr__(self) -> str:
        return (
            f"Thresholdout(n_holdout={self.n_holdout}, threshold={self.threshold!r}, "
            f"sigma={self.sigma!r}, budget={self.budget}, remaining={self.remaining_budget}, "
            f"noise={self.noise!r})"
        )


# --------------------------------------------------------------------------------------------
# SparseValidate (DFHPRR Thm 10)
# --------------------------------------------------------------------------------------------


def sparse_validate_factor(i: int, budget: int, *, variant: Literal["paper", "histories"] = "paper") -> int:
    r"""The union-bound factor of DFHPRR Thm 10 for the i-th query, exactly.

    ``variant="paper"``: l_i = Σ_{j=0}^{min(i-1, B)} C(i, j), as stated (≤ m^B).
    ``variant="histories"``: Σ_{j=0}^{min(i-1, B)} C(i-1, j), the number of answer histories
    that can precede query i (the quantity the union bound of the proof runs over); never
    larger than the paper's factor.

    >>> sparse_validate_factor(3, 1), sparse_validate_factor(3, 1, variant="histories")
    (4, 3)
    """
    ii, bb = INDEX.check(i), BUDGET_ONES.check(budget)
    if variant not in ("paper", "histories"):
        raise InvalidParameter("variant", variant, "'paper' or 'histories'")
    return int(_sv_factor_body(_BinomialsExact(), ii if variant == "paper" else ii - 1, ii, bb))


class _BinomialContext(Protocol):
    """The operations :func:`_sv_factor_body` uses (its own two contexts, below)."""

    def binomial_sum(self, n: Any, upto: Any) -> Any: ...

    def min(self, a: Any, b: Any) -> Any: ...


def _sv_factor_body(c: _BinomialContext, top: Any, i: Any, budget: Any) -> Any:
    """DFHPRR Thm 10's l_i, written once: sum_{j=0}^{min(i-1, B)} C(top, j) (top = i as
    stated; i - 1 for the histories the proof's union bound runs over). ``c`` supplies
    ``binomial_sum(n, upto)`` = sum_{j<=upto} C(n, j) and ``min``: exact integers for the
    evaluator, sympy for the statement."""
    return c.binomial_sum(top, c.min(i - 1, budget))


class _BinomialsExact:
    @staticmethod
    def binomial_sum(n: int, upto: int) -> int:
        return sum(math.comb(n, j) for j in range(upto + 1))

    min = staticmethod(min)


class _BinomialsSympy:
    @staticmethod
    def binomial_sum(n: Any, upto: Any) -> Any:
        import sympy

        j = sympy.Symbol("j", integer=True, nonnegative=True)
        return sympy.Sum(sympy.binomial(n, j), (j, 0, upto))

    @staticmethod
    def min(a: Any, b: Any) -> Any:
        import sympy

        return sympy.Min(a, b)


def sparse_validate_bound(
    i: int, budget: int, beta_i: float, *, variant: Literal["paper", "histories"] = "paper"
) -> float:
    r"""DFHPRR Thm 10: P[psi_i(S) = 1] <= l_i beta_i (capped at 1), rounded up.

    Theorem: DFHPRR Thm 10 (each query psi_i from a set Psi_i whose members each fail on a
    fresh sample with probability at most beta_i).

    >>> sparse_validate_bound(3, 1, 0.01)
    0.04
    """
    be = Fraction(BETA_I.check(beta_i))
    return min(float_up(sparse_validate_factor(i, budget, variant=variant) * be), 1.0)


class SparseValidate(Generic[H]):
    """DFHPRR's SparseValidate(m, B): answers psi(S_h) for Boolean queries on the holdout set,
    at most m queries and at most B answers equal to 1.

    >>> sv = SparseValidate([0, 1, 1, 0], m=3, budget=1)
    >>> sv.query(lambda s: sum(s) > 3), sv.query(lambda s: sum(s) >= 2), sv.query(lambda s: True)
    (False, True, None)
    """

    def __init__(self, holdout: H, *, m: int, budget: int, on_exhausted: Literal["bottom", "raise"] = "bottom") -> None:
        self._holdout = holdout
        self.m: int = M.check(m)
        self.budget: int = BUDGET_M.check(budget, hi=self.m)
        if on_exhausted not in ("bottom", "raise"):
            raise InvalidParameter("on_exhausted", on_exhausted, "'bottom' or 'raise'")
        self.on_exhausted = on_exhausted
        self.queries_answered = 0
        self.ones = 0

    @property
    def exhausted(self) -> bool:
        return self.queries_answered >= self.m or self.ones >= self.budget

    def query(self, psi: Callable[[H], object]) -> bool | None:
        """psi(S_h) as a bool, or None (⊥) / BudgetExhausted once a budget is spent."""
        if not callable(psi):
            raise InvalidParameter("psi", psi, "a callable mapping the holdout set to a bit")
        if self.exhausted:
            if self.on_exhausted == "raise":
                raise BudgetExhausted(f"SparseValidate budgets spent (m = {self.m}, B = {self.budget})")
            return None
        bit = psi(self._holdout)
        if bit not in (0, 1, True, False):
            raise InvalidParameter("psi(holdout)", bit, "a bit (0, 1, True or False)")
        self.queries_answered += 1
        self.ones += int(bool(bit))
        return bool(bit)

    def failure_bound(self, i: int, beta_i: float) -> float:
        """DFHPRR Thm 10's bound on P[psi_i(S) = 1] for this validator's budget."""
        return sparse_validate_bound(INDEX.check(i, hi=self.m), self.budget, beta_i)


def _thresholdout_eps(budget: int, sigma: float, n: int) -> DPGuarantee:
    """Theorem: Notes, Thresholdout lemma (pure part): (2B/(σn), 0)-DP."""
    return thresholdout_dp(budget, sigma, n)


def _sv_bound(i: int, budget: int, beta_i: float) -> float:
    """Theorem: DFHPRR Thm 10: P[psi_i(S) = 1] <= l_i beta_i."""
    return sparse_validate_bound(i, budget, beta_i)


register(
    Theorem(
        id="Notes-Thresholdout",
        paper="Notes",
        number="Thresholdout lemma",
        title="Thresholdout is (2B/(sigma n), 0)-DP",
        formula=THRESHOLDOUT,
        lhs=r"\varepsilon =",
        conditions=(
            "Laplace noise as in DFHPRR's pseudocode",
            "statistical queries phi: X -> [0, 1]",
            "holdout of n records; the training set is fixed",
        ),
        units="eps in nats",
        params=(BUDGET, SIGMA, N),
        evaluator=_thresholdout_eps,
        returns="DPGuarantee(eps rounded up, 0)",
        value_name="eps_nats",
    )
)


def _sv_statement() -> Any:
    import sympy  # statements only (keeps sympy out of the calculator's import)

    i, b = sympy.symbols("i B", integer=True, nonnegative=True)
    return _sv_factor_body(_BinomialsSympy(), i, i, b) * sympy.Symbol("beta_i", nonnegative=True)


register(
    Theorem(
        id="DFHPRR-10",
        paper="DFHPRR",
        number="Thm 10",
        title="SparseValidate: a query's failure probability grows by at most l_i",
        latex=r"\Pr[\psi_i(S)=1] \le \ell_i\beta_i,\ \ell_i = \sum_{j=0}^{\min(i-1,B)}\binom{i}{j}",
        conditions=(
            "each candidate psi in Psi_i fails on a fresh sample w.p. <= beta_i",
            "validator budgets m (queries) and B (ones)",
        ),
        units="probability",
        params=(INDEX, BUDGET_ONES, BETA_I),
        evaluator=_sv_bound,
        # a sum with a symbolic number of terms: the statement and the evaluator's exact integer
        # sum (sparse_validate_factor) come from one body, _sv_factor_body
        statement=_sv_statement,
        returns="probability bound rounded up (at most 1)",
        value_name="probability",
    )
)


def _thm9(tau: float, m: int, budget: int, beta: float) -> Theorem9Parameters:
    """Theorem: DFHPRR Thm 9 (see :func:`thresholdout_theorem9`)."""
    return thresholdout_theorem9(tau, m, budget, beta)


register(
    Theorem(
        id="DFHPRR-9",
        paper="DFHPRR",
        number="Thm 9",
        title="Thresholdout parameters: T = 3 tau/4, sigma = tau/(96 ln(4m/beta))",
        formula=THM9_SIGMA,
        lhs=r"T = \tfrac{3\tau}{4},\ \sigma =",
        conditions=(
            "holdout of n i.i.d. records",
            "m queries phi: X -> [0, 1]",
            "n >= n0 = O(ln(m/beta)/tau^2 min(B, sqrt(B ln(ln(m/beta)/tau)))); "
            "n0's constant is not stated: no sample size is derived",
        ),
        units="T and sigma in the query's units",
        params=(TAU, M, BUDGET_M, BETA),
        evaluator=_thm9,
        returns="Theorem9Parameters(threshold, sigma rounded down, n0_shape)",
        value_name="sigma",
    )
)
