"""The planning wing: from a described analysis to the valid test with the most power.

* :mod:`.study` — the study file (TOML) parsed into typed frozen values.
* :mod:`.stages` — steps to DP guarantees and to stages (the units of composition).
* :mod:`.routes` — every valid route to a certified max-information bound; :func:`plan`.
* :mod:`.explore` — sweeps and inverse solves of γ(α) over one parameter.
* :mod:`.power` — the power of the final test at a threshold on n records (statsmodels, scipy).
* :mod:`.recommend` — every valid analysis (reuse, Bonferroni, union bound, sample splitting)
  with its power and required n; the recommended one; the power curve.
"""

from .explore import INT_PARAMS, fixes, solve, sweep, with_param
from .power import power_at
from .recommend import PowerPlan, RouteRow, plan_power, power_curve
from .routes import PlanResult, plan
from .stages import Link
from .study import (
    MAX_TIMES,
    STEP_TYPES,
    PlanError,
    PowerSpec,
    Step,
    Study,
    load_study,
    parse_study,
)

__all__ = [
    "INT_PARAMS", "MAX_TIMES", "fixes", "STEP_TYPES", "Link", "PlanError", "PlanResult",
    "PowerPlan", "PowerSpec", "RouteRow", "Step", "Study", "load_study", "parse_study", "plan",
    "plan_power", "power_at", "power_curve", "solve", "sweep", "with_param",
]
