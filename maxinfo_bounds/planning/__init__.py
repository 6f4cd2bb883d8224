"""The planning wing: from a described analysis to the valid test with the most power.

* :mod:`.steps` — one frozen, validated class per step type (Laplace, Gaussian, ...).
* :mod:`.study` — :class:`Study` and :class:`PowerSpec` (validated at construction) and the
  study file (TOML), mapped onto them.
* :mod:`.stages` — steps to DP guarantees and to stages (the units of composition).
* :mod:`.routes` — every valid route to a certified max-information bound; :func:`plan`.
* :mod:`.explore` — sweeps and inverse solves of γ(α) over one parameter.
* :mod:`.power` — the power of the final test at a threshold on n records, and the smallest
  effect it detects (scipy.special).
* :mod:`.recommend` — every valid analysis (reuse, Bonferroni, union bound, sample splitting)
  with its power and required n; the recommended one; the power curve.
* :mod:`.report` — the text and JSON views of every planning result (CLI and API alike).
"""

from .errors import PlanError
from .explore import INT_PARAMS, PowerSweepPoint, SweepPoint, fixes, power_fixes, power_sweep, solve, sweep, with_param
from .power import minimum_effect, power_at
from .questions import PowerAnswer, RouteAnswer, solve_power
from .recommend import PowerPlan, ReuseRoute, RouteKind, RouteRow, plan_power, power_curve
from .routes import Candidate, NoValidRoute, PlanResult, plan
from .stages import Link
from .steps import (
    MAX_TIMES,
    STEP_CLASSES,
    Description,
    DPStep,
    Exponential,
    Gaussian,
    GenericDP,
    Laplace,
    MutualInformation,
    ReportNoisyMax,
    SparseVector,
    Step,
    Thresholdout,
    step_from_mapping,
)
from .study import Alternative, FinalTest, PowerSpec, Study, load_study, parse_study

__all__ = [
    "INT_PARAMS",
    "MAX_TIMES",
    "STEP_CLASSES",
    "Alternative",
    "Candidate",
    "DPStep",
    "Description",
    "Exponential",
    "FinalTest",
    "Gaussian",
    "GenericDP",
    "Laplace",
    "Link",
    "MutualInformation",
    "NoValidRoute",
    "PlanError",
    "PlanResult",
    "PowerPlan",
    "PowerSpec",
    "ReportNoisyMax",
    "ReuseRoute",
    "RouteKind",
    "RouteRow",
    "SparseVector",
    "Step",
    "Study",
    "SweepPoint",
    "Thresholdout",
    "fixes",
    "power_fixes",
    "power_sweep",
    "PowerSweepPoint",
    "load_study",
    "parse_study",
    "plan",
    "plan_power",
    "power_at",
    "minimum_effect",
    "solve_power",
    "PowerAnswer",
    "RouteAnswer",
    "power_curve",
    "solve",
    "step_from_mapping",
    "sweep",
    "with_param",
]
