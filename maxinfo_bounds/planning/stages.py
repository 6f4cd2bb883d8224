"""Steps to guarantees, and steps to stages.

Each DP step becomes the (ε, δ)-DP guarantee of one run (its mechanism's calibration theorem:
Dwork–Roth Thms 3.6, 3.9, 3.10, Sparse; Balle–Wang Thm 8; the Thresholdout lemma of the
Notes). Consecutive steps are then cut into stages, the units that max-information composition
(RRST Thm A.3) composes: each maximal run of consecutive DP steps is one stage; each maximal run
of consecutive description-length steps is one stage whose range is the product of the ranges
(DFHPRR Thm 6); each mutual-information step is its own stage (RRST Lemma 1.5).

Every derivation line is a :class:`Link` (theorem ids, inputs, output, conditions checked).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cached_property, lru_cache

from ..numeric import InvalidParameter, decimal_text, exact_sum, float_up, int_text
from ..results import DPGuarantee
from ..theorems.dp_accounting import gaussian_epsilon
from .errors import PlanError
from .steps import Description, DPStep, Gaussian, MutualInformation, Step
from .study import Study, where


# derivation text (here and in routes): a certified number shown to 6 digits on its safe side
# (JSON keeps the full double)
def text_up(x: float) -> str:
    """An upper bound (k, beta, eps, delta) as derivation text, rounded up."""
    return decimal_text(x, "up")


def text_down(x: float) -> str:
    """A threshold as derivation text, rounded down."""
    return decimal_text(x, "down")


__all__ = [
    "Link",
    "Stage",
    "DPStage",
    "DPRuns",
    "DescriptionStage",
    "MIStage",
    "stages_of",
    "step_dp",
    "MAX_DESCRIPTION_BITS",
    "text_up",
    "text_down",
]

#: a description stage above this many bits of output is refused (its bound is vacuous)
MAX_DESCRIPTION_BITS = 100_000


@dataclass(frozen=True)
class Link:
    """One line of the derivation: theorem ids, inputs, the result and the conditions checked."""

    what: str
    theorems: tuple[str, ...]
    inputs: str
    output: str
    conditions: tuple[str, ...] = ()
    #: the numbers behind ``output`` at full precision (name, value), e.g. an accountant's mu,
    #: rho and the (eps, delta) it gave; the JSON report carries them
    values: tuple[tuple[str, float], ...] = ()


def _label(i: int, st: Step) -> str:
    return st.label or f"steps[{i}] ({st.type_name})"


def step_dp(study: Study, i: int, st: DPStep) -> tuple[DPRuns, Link]:
    """One execution of a DP step: its (eps, delta)-DP guarantee (a Gaussian step: its mu, the
    Balle-Wang point on demand) and GDP / zCDP parameters, and the derivation line."""
    try:
        if isinstance(st, Gaussian):
            sigma = st.noise_sigma(study.n)
            sens = st.sensitivity_at(study.n)
            shown = st.sigma is None or st.depends_on_n  # values the step does not state
            acc = st.accounting(study.n, None)
            run = DPRuns(None, st.point_delta(), st.times, acc.mu, acc.rho, acc.theorems, (sens, sigma))
            assert acc.mu is not None
            return run, Link(
                _label(i, st),
                ("DRS22-2.7",),
                st.inputs_text(),
                f"{text_up(acc.mu)}-GDP per run (mu = sensitivity/sigma"
                + (f", sensitivity = {text_up(float_up(sens))}, sigma = {text_up(sigma)})" if shown else ")"),
            )
        g = st.guarantee(study.n)
        acc = st.accounting(study.n, g)
    except PlanError:
        raise
    except InvalidParameter as exc:
        raise PlanError(where(study.source, f"steps[{i}]"), str(exc)) from None
    run = DPRuns(g.eps, g.delta, st.times, acc.mu, acc.rho, acc.theorems)
    return run, Link(
        _label(i, st),
        (g.theorem,),
        st.inputs_text(),
        f"({text_up(g.eps)}, {text_up(g.delta)})-DP per run",
        g.conditions,
    )


@dataclass(frozen=True)
class DPRuns:
    """``count`` adaptive runs of an (``eps``, ``delta``)-DP step; ``mu`` / ``rho``: the run's
    GDP / zCDP parameter where it has one (:class:`~maxinfo_bounds.planning.steps.Accounting`).

    A Gaussian run (``gaussian`` = (sensitivity, sigma)) has ``eps_value`` None: its
    Balle-Wang point at ``delta`` is computed (certified, cached) only when a composition
    through (eps, delta) points asks for :attr:`eps`; the exact accountants read ``mu``."""

    eps_value: float | None
    delta: float
    count: int
    mu: float | None = None
    rho: float | None = None
    theorems: tuple[str, ...] = ()
    gaussian: tuple[float | Fraction, float] | None = None

    @property
    def eps(self) -> float:
        """The run's eps at its ``delta`` (nats, rounded up)."""
        if self.eps_value is not None:
            return self.eps_value
        assert self.gaussian is not None
        return _gaussian_point(*self.gaussian, self.delta)

    @property
    def key(self) -> tuple[object, ...]:
        """What makes two runs the same mechanism (without computing a Gaussian point)."""
        return (self.eps_value, self.gaussian, self.delta)

    @cached_property
    def _hash(self) -> int:
        return hash((self.eps_value, self.delta, self.count, self.mu, self.rho, self.theorems, self.gaussian))

    def __hash__(self) -> int:
        # computed once: the accountants' caches hash a stage's runs at every total delta
        return self._hash


@lru_cache(maxsize=4096)
def _gaussian_point(sensitivity: float | Fraction, sigma: float, delta: float) -> float:
    return gaussian_epsilon(sigma, sensitivity, delta)


@dataclass(frozen=True)
class DPStage:
    """A maximal run of consecutive DP steps (composed by the DP theorems, then converted)."""

    steps: tuple[int, ...]
    links: tuple[Link, ...]
    runs: tuple[DPRuns, ...]

    @property
    def pure(self) -> bool:
        return all(r.delta == 0 for r in self.runs)

    @property
    def gaussian(self) -> bool:
        """Every run is Gaussian noise (composed exactly by GDP)."""
        return all(r.gaussian is not None for r in self.runs)

    @property
    def count(self) -> int:
        """The number of adaptive runs in the stage."""
        return sum(r.count for r in self.runs)

    def basic(self) -> DPGuarantee:
        """Basic composition (Dwork-Roth Thm 3.16) of the counted runs, exact sums rounded up."""
        e = float_up(exact_sum((r.count, r.eps) for r in self.runs))
        d = float_up(exact_sum((r.count, r.delta) for r in self.runs))
        return DPGuarantee(e, min(d, 1.0), "DR-3.16", (f"{self.count} adaptive steps",))


@dataclass(frozen=True)
class DescriptionStage:
    """A maximal run of consecutive description steps: one output among ``range_size``."""

    steps: tuple[int, ...]
    links: tuple[Link, ...]
    range_size: int


@dataclass(frozen=True)
class MIStage:
    """One mutual-information step, its ``times`` runs chained: I <= ``mi_bits``."""

    steps: tuple[int, ...]
    links: tuple[Link, ...]
    mi_bits: float


Stage = DPStage | DescriptionStage | MIStage


def stages_of(study: Study) -> list[Stage]:
    """The study's steps cut into stages (module doc), each with its derivation lines."""
    stages: list[Stage] = []
    # the DP stage being built: (steps, links, runs), appended to in place (a stage of k steps
    # costs O(k), not O(k^2) tuple copies) and frozen when the next non-DP step or the end comes
    dp: tuple[list[int], list[Link], list[DPRuns]] | None = None
    for i, st in enumerate(study.steps):
        if isinstance(st, DPStep):
            run, link = step_dp(study, i, st)
            if st.times > 1:
                link = replace(link, output=f"{link.output}, x{st.times} adaptively")
            if dp is None:
                dp = ([], [], [])
                stages.append(DPStage((), (), ()))  # a place holder, filled below
            dp[0].append(i)
            dp[1].append(link)
            dp[2].append(run)
            continue
        if dp is not None:
            stages[-1], dp = DPStage(tuple(dp[0]), tuple(dp[1]), tuple(dp[2])), None
        last = stages[-1] if stages else None
        if isinstance(st, Description):
            size = last.range_size if isinstance(last, DescriptionStage) else 1
            rs = st.range_size
            if size.bit_length() + st.times * math.log2(rs) > MAX_DESCRIPTION_BITS:
                raise PlanError(
                    where(study.source, f"steps[{i}]"),
                    f"the description stage would have more than "
                    f"{MAX_DESCRIPTION_BITS} bits of output (range_size^times): its "
                    "max-information bound is vacuous; lower range_size or times",
                )
            m = rs**st.times
            link = Link(
                _label(i, st),
                ("DFHPRR-6",),
                f"range_size={int_text(rs)}, times={st.times}",
                f"{int_text(m)} possible outputs",
            )
            if isinstance(last, DescriptionStage):
                stages[-1] = DescriptionStage((*last.steps, i), (*last.links, link), size * m)
            else:
                stages.append(DescriptionStage((i,), (link,), m))
        else:
            assert isinstance(st, MutualInformation)
            m_total = float_up(Fraction(st.mi_bits) * st.times)
            stages.append(
                MIStage(
                    (i,),
                    (
                        Link(
                            _label(i, st),
                            ("RRST-1.5a",),
                            f"mi_bits={st.mi_bits!r}, times={st.times}",
                            f"I <= {text_up(m_total)} bits (chain rule)",
                        ),
                    ),
                    m_total,
                )
            )
    if dp is not None:
        stages[-1] = DPStage(tuple(dp[0]), tuple(dp[1]), tuple(dp[2]))
    return stages
