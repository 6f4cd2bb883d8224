"""One planted bug of each kind issue 44 found surviving the suite, each caught (issue 44).

Each case recompiles one function of the planning wing (or the campaigns' ground truth) with a
single realistic change, the kind that once survived the whole default suite: an ordering rule
of RRST section 4 applied to the wrong stage, a stage's delta not scaled with its repetitions,
a documented default of the study file flipped, a threshold rounded to nearest instead of down,
a record count rounded the wrong way, a bits/nats slip in one route, a boundary of a theorem's
regime made strict, a pruning rule that drops the winning route, and a swapped pair of
probabilities in the exact enumeration's product distribution. The check that must catch it is
a test of the suite (the planner corpus's hand derivations, or a hand-valued test), which passes
on the real code and must fail with the bug planted.
"""

from __future__ import annotations

import inspect
import textwrap
from collections.abc import Callable
from typing import Any

import pytest

from maxinfo_bounds import planning
from maxinfo_bounds.planning import recommend, routes, stages, study
from maxinfo_bounds.planning.accountants import best_composition
from maxinfo_bounds.theorems.maxinfo_dp import approx
from proofs_checks import enumeration

from . import test_enumeration as enum_tests
from . import test_planner_corpus as corpus


def _mutant(func: Callable[..., Any], old: str, new: str) -> Callable[..., Any]:
    """``func`` recompiled from its source with ``old`` replaced once by ``new``, in its own
    module's globals."""
    src = textwrap.dedent(inspect.getsource(func))
    assert src.count(old) == 1, (func.__qualname__, old)
    ns: dict[str, Any] = {}
    exec(compile(src.replace(old, new), f"<planted bug in {func.__qualname__}>", "exec"), func.__globals__, ns)
    return ns[func.__name__]


#: (kind, owners of the function (module or class; the first holds its source), its name,
#: old text, new text, the check that must fail)
PLANTED: list[tuple[str, tuple[Any, ...], str, str, str, Callable[[], None]]] = [
    (
        "RRST section 4's ordering rule applied to the wrong stage",
        (routes,),
        "_maxinfo_route",
        "curves.append(_dp_stage_curve(s, study.n, j == 0, study.iid, g, link, study.alpha))",
        "curves.append(_dp_stage_curve(s, study.n, j == len(stages) - 1, study.iid, g, link, study.alpha))",
        lambda: corpus.test_pure_dp_after_a_description_on_iid_data(10**5, "1e-3"),
    ),
    (
        "a stage's delta not scaled with its repetitions",
        (stages.DPStage,),
        "basic",
        "d = float_up(exact_sum((r.count, r.delta) for r in self.runs))",
        "d = float_up(exact_sum((1, r.delta) for r in self.runs))",
        corpus.test_basic_composition_of_a_stage,
    ),
    (
        "the study file's documented default (iid = false) flipped",
        (study, planning),
        "parse_study",
        '"iid": data.get("iid", False),',
        '"iid": data.get("iid", True),',
        corpus.test_iid_defaults_to_false_in_the_study_file,
    ),
    (
        "the Bonferroni threshold rounded to nearest instead of down",
        (recommend,),
        "_rows",
        "float_down(Fraction(a) / study.family_size),",
        "float(Fraction(a) / study.family_size),",
        corpus.test_bonferroni_row_is_alpha_over_the_family,
    ),
    (
        "the splitting route's record count rounded up",
        (recommend,),
        "_rows",
        "m_test = math.floor(f * n)",
        "m_test = math.ceil(f * n)",
        lambda: corpus.test_description_studies(0.05, [(4, 1)], 1001, True),
    ),
    (
        "bits read as nats in the mutual-information route (Russo-Zou takes bits)",
        (routes,),
        "_mi_route",
        "rz = russo_zou_pvalue_correction(study.alpha, m_tot)",
        "rz = russo_zou_pvalue_correction(study.alpha, m_tot * math.log(2))",
        lambda: corpus.test_mutual_information_steps(0.05, "0.001", 1),
    ),
    (
        "RRST Thm 3.1's regime eps <= 1/2 made strict",
        (approx, routes),
        "thm31_outside",
        "return max(eps, delta) > THM31_EPS_MAX",
        "return max(eps, delta) >= THM31_EPS_MAX",
        corpus.test_thm31_at_its_boundary_eps_one_half,
    ),
    (
        "a pruning rule that drops the winning route",
        (routes,),
        "_eps_prune_reason",
        "if best_g > 0 and study.alpha * 2.0 ** (-k_floor) * (1 + 1e-9) < best_g:",
        "if best_g > 0 and study.alpha * 2.0 ** (-k_floor) * (1 + 1e-9) > best_g:",
        lambda: corpus.test_exponential_mechanisms_compose_in_zcdp(10**6, 1e-6, 10**4),
    ),
    (
        "the enumeration's product distribution with its two probabilities swapped",
        (enumeration, enum_tests),
        "product_dataset_distribution",
        "probs = [1 - float(p), float(p)]",
        "probs = [float(p), 1 - float(p)]",
        enum_tests.test_product_distribution_hand_values,
    ),
]


@pytest.mark.parametrize(("kind", "owners", "name", "old", "new", "check"), PLANTED, ids=[p[0] for p in PLANTED])
def test_planted_bug_is_caught(monkeypatch, kind, owners, name, old, new, check):
    best_composition.cache_clear()
    check()  # the check passes on the real code
    bug = _mutant(getattr(owners[0], name), old, new)
    for owner in owners:
        monkeypatch.setattr(owner, name, bug)
    best_composition.cache_clear()
    with pytest.raises((AssertionError, Exception)):  # noqa: B017 - a failing check, of any kind
        check()
    best_composition.cache_clear()
