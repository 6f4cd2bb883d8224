"""The planner on valid studies drawn across the whole range of every input (Hypothesis): each
plan either returns a threshold in [0, alpha] or refuses with a :class:`PlanError` naming why
(or, for a step with no usable privacy point at all, such as a Gaussian step of sigma 1e-7
times its sensitivity at delta 0.1, the :class:`InvalidParameter` naming that parameter and
what it must be); never another exception, never a warning (the suite turns warnings into
errors), never NaN.

Two crashes of this kind were found by reading mutation survivors (10^60 bits of mutual
information at alpha = 1e-300; Laplace steps of eps = 1e-300, whose zCDP rho is subnormal):
this property looks for the next ones. A study whose steps the planner refuses to build is
skipped (that refusal is tested in ``test_bad_inputs.py``).
"""

from __future__ import annotations

import math

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from maxinfo_bounds import InvalidParameter
from maxinfo_bounds.planning import (
    Description,
    Gaussian,
    GenericDP,
    Laplace,
    MutualInformation,
    PlanError,
    Study,
    plan,
)


def _pos(lo: int = -320, hi: int = 300) -> st.SearchStrategy[float]:
    return st.builds(
        lambda m, e: float(f"{m}e{e}"),
        st.integers(min_value=1, max_value=9),
        st.integers(min_value=lo, max_value=hi),
    )


_DELTA = st.one_of(_pos(-320, -1), st.sampled_from([0.1, 0.49, 0.5, 0.9]))
_TIMES = st.integers(min_value=1, max_value=30)

_STEP = st.one_of(
    st.builds(lambda e, t: Laplace(sensitivity=1.0, eps=e, times=t), _pos(), _TIMES),
    st.builds(lambda e, d, t: GenericDP(eps=e, delta=d, times=t), _pos(), _DELTA, _TIMES),
    st.builds(lambda s, g, d, t: Gaussian.from_sigma(s, g, d, times=t), _pos(-300, 10), _pos(-10, 300), _DELTA, _TIMES),
    st.builds(lambda m, t: Description(range_size=m, times=t), st.integers(min_value=1, max_value=10**6), _TIMES),
    st.builds(lambda b, t: MutualInformation(mi_bits=b, times=t), st.one_of(st.just(0.0), _pos()), _TIMES),
)


def _study(draw: st.DrawFn) -> Study:
    steps = []
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        try:
            steps.append(draw(_STEP))
        except PlanError:
            assume(False)
    n = draw(st.one_of(st.integers(min_value=1, max_value=10**15), st.sampled_from([1, 2, 10**6])))
    alpha = draw(st.one_of(_pos(-300, -1), st.sampled_from([0.05, 0.5, 0.999])))
    try:
        return Study(n=n, alpha=alpha, iid=draw(st.booleans()), steps=tuple(steps))
    except PlanError:
        assume(False)
        raise


studies = st.composite(_study)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(studies())
def test_every_valid_study_plans_or_refuses_in_words(st_: Study) -> None:
    try:
        p = plan(st_)
    except InvalidParameter as e:  # PlanError is one
        assert e.name and e.allowed and "nan" not in str(e).lower()
        return
    assert math.isfinite(p.gamma) and 0.0 <= p.gamma <= st_.alpha
