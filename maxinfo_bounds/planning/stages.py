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
from dataclasses import dataclass, field, replace
from fractions import Fraction

from ..numeric import InvalidParameter, decimal_text, float_up
from ..theorems.dp_accounting import (
    DPGuarantee,
    analytic_gaussian_sigma,
    exponential_mechanism_epsilon,
    gaussian_epsilon,
    laplace_epsilon,
    report_noisy_max_epsilon,
    sparse_vector,
    sparse_vector_scales,
)
from ..theorems.holdout import thresholdout_dp
from .study import PlanError, Step, Study, where


# derivation text (here and in routes): a certified number shown to 6 digits on its safe side
# (JSON keeps the full double)
def text_up(x: float) -> str:
    """An upper bound (k, beta, eps, delta) as derivation text, rounded up."""
    return decimal_text(x, "up")


def text_down(x: float) -> str:
    """A threshold as derivation text, rounded down."""
    return decimal_text(x, "down")


__all__ = ["Link", "Stage", "DP_TYPES", "stages_of", "step_dp", "MAX_DESCRIPTION_BITS",
           "text_up", "text_down"]

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


def step_dp(study: Study, i: int, st: Step) -> tuple[DPGuarantee, Link]:
    """The (eps, delta)-DP guarantee of one execution of a DP step."""
    p = st.params
    at = where(study.source, f"steps[{i}]")
    try:
        if st.type == "laplace":
            e = (laplace_epsilon(p["sensitivity"], p["scale"]) if "scale" in p
                 else float(p["eps"]))
            g = DPGuarantee(e, 0.0, "DR-3.6")
        elif st.type == "gaussian":
            if "sigma" not in p:   # a target (eps, delta): the analytic Gaussian's sigma
                p = {**p, "sigma": analytic_gaussian_sigma(p["sensitivity"], p["eps"], p["delta"])}
            e = gaussian_epsilon(p["sigma"], p["sensitivity"], p["delta"])
            g = DPGuarantee(e, float(p["delta"]), "BW18-8")
        elif st.type == "exponential":
            g = (DPGuarantee(float(p["eps"]), 0.0, "DR-3.10") if "eps" in p else
                 exponential_mechanism_epsilon(p["sensitivity"], p["coefficient"],
                                               monotone=p.get("monotone", False)))
        elif st.type == "report_noisy_max":
            g = (DPGuarantee(float(p["eps"]), 0.0, "DR-3.9") if "eps" in p else
                 report_noisy_max_epsilon(p["sensitivity"], p["scale"],
                                          monotone=p.get("monotone", False)))
        elif st.type == "sparse_vector":
            d = float(p.get("delta", 0.0))
            if "eps" in p:
                b1, b2 = sparse_vector_scales(p["c"], p["eps"], sensitivity=p.get("sensitivity", 1.0),
                                              delta=d)
            else:
                b1, b2 = p["threshold_scale"], p["query_scale"]
            g = sparse_vector(p["c"], b1, b2, sensitivity=p.get("sensitivity", 1.0), delta=d)
        elif st.type == "thresholdout":
            hn = p.get("holdout_n", study.n)
            if hn != study.n:
                raise PlanError(where(study.source, f"steps[{i}].holdout_n"),
                                f"{hn} differs from data.n = {study.n}: describe the holdout set "
                                "(the data the final test uses) in [data]")
            g = thresholdout_dp(p["budget"], p["sigma"], hn)
        else:  # "dp"
            g = DPGuarantee(float(p["eps"]), float(p.get("delta", 0.0)), "given")
    except PlanError:
        raise
    except InvalidParameter as exc:
        raise PlanError(at, str(exc)) from None
    inputs = ", ".join(f"{k}={v!r}" for k, v in p.items())
    return g, Link(st.label or f"steps[{i}] ({st.type})", (g.theorem,), inputs,
                   f"({text_up(g.eps)}, {text_up(g.delta)})-DP per run", g.conditions)


DP_TYPES = {"laplace", "gaussian", "exponential", "report_noisy_max", "sparse_vector",
             "thresholdout", "dp"}


@dataclass
class Stage:
    kind: str                      # "dp" | "description" | "mi"
    steps: list[int]
    links: list[Link]
    dp: list[tuple[float, float, int]] = field(default_factory=list)   # (eps, delta, runs)
    range_size: int = 1
    mi_bits: float = 0.0

    @property
    def pure(self) -> bool:
        return all(d == 0 for _, d, _ in self.dp)

    @property
    def runs(self) -> int:
        return sum(c for _, _, c in self.dp)

    def basic(self) -> DPGuarantee:
        """Basic composition (Dwork-Roth Thm 3.16) of the counted runs, exact sums rounded up."""
        e = float_up(sum((c * Fraction(x) for x, _, c in self.dp), Fraction(0)))
        d = float_up(sum((c * Fraction(y) for _, y, c in self.dp), Fraction(0)))
        return DPGuarantee(e, min(d, 1.0), "DR-3.16", (f"{self.runs} adaptive steps",))


def stages_of(study: Study) -> list[Stage]:
    stages: list[Stage] = []
    for i, st in enumerate(study.steps):
        kind = "dp" if st.type in DP_TYPES else ("description" if st.type == "description" else "mi")
        if kind == "dp":
            g, link = step_dp(study, i, st)
            if stages and stages[-1].kind == "dp":
                s = stages[-1]
            else:
                s = Stage("dp", [], [])
                stages.append(s)
            s.steps.append(i)
            s.links.append(replace(link, output=link.output + (f", x{st.times} adaptively"
                                                               if st.times > 1 else "")))
            s.dp.append((g.eps, g.delta, st.times))
        elif kind == "description":
            if stages and stages[-1].kind == "description":
                s = stages[-1]
            else:
                s = Stage("description", [], [])
                stages.append(s)
            rs = int(st.params["range_size"])
            if (s.range_size.bit_length() + st.times * math.log2(max(rs, 1))) > MAX_DESCRIPTION_BITS:
                raise PlanError(where(study.source, f"steps[{i}]"),
                                f"the description stage would have more than "
                                f"{MAX_DESCRIPTION_BITS} bits of output (range_size^times): its "
                                "max-information bound is vacuous; lower range_size or times")
            m = rs ** st.times
            s.steps.append(i)
            s.range_size *= m
            s.links.append(Link(st.label or f"steps[{i}] ({st.type})", ("DFHPRR-6",),
                                f"range_size={st.params['range_size']}, times={st.times}",
                                f"{m} possible outputs"))
        else:
            m_total = float_up(Fraction(st.params["mi_bits"]) * st.times)
            stages.append(Stage("mi", [i], [Link(st.label or f"steps[{i}] ({st.type})", ("RRST-1.5a",),
                                                  f"mi_bits={st.params['mi_bits']!r}, times={st.times}",
                                                  f"I <= {text_up(m_total)} bits (chain rule)")],
                                 mi_bits=m_total))
    return stages


