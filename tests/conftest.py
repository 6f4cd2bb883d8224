"""Shared test configuration.

Hypothesis runs derandomized under CI (the ``ci`` profile, selected when ``CI`` is set), so a CI
run is reproducible; locally the ``dev`` profile explores with fresh randomness. Tests marked
``slow`` run under CI (or with ``--run-slow``) and are deselected in a plain local run.
"""

from __future__ import annotations

import json
import os

import mpmath
import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    max_examples=100,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "dev",
    deadline=None,
    max_examples=60,
    suppress_health_check=[HealthCheck.too_slow],
)
# Mutation testing (``mutmut run``; see docs/verification.md) runs the covering tests once per
# mutant: a few derandomized examples per property keep it to minutes, not hours.
settings.register_profile(
    "mutation",
    derandomize=True,
    deadline=None,
    max_examples=8,
    suppress_health_check=list(HealthCheck),
)
settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--run-slow", action="store_true", help="also run the tests marked slow (CI=... runs them too)")
    parser.addoption(
        "--fast-first",
        action="store_true",
        help="run the tests in order of the call times mutmut recorded (mutation runs)",
    )


def _fast_first(items: list[pytest.Item]) -> None:
    """Mutation runs (``--fast-first``, docs/verification.md): run each mutant's tests fastest
    first, by the call times in mutmut's ``mutmut-stats.json`` (in the working directory, which
    is ``mutants/`` during a run), module by module (a module's fixtures are set up once), so
    that with ``-x`` a killed mutant stops at its cheapest failing test. Only the order changes."""
    try:
        with open("mutmut-stats.json", encoding="utf-8") as f:
            seconds = json.load(f)["duration_by_test"]
    except (OSError, ValueError, KeyError):
        return
    module_cost: dict[str, float] = {}
    for it in items:
        module = it.nodeid.split("::")[0]
        module_cost[module] = module_cost.get(module, 0.0) + seconds.get(it.nodeid, 0.0)
    items.sort(
        key=lambda it: (module_cost[it.nodeid.split("::")[0]], it.nodeid.split("::")[0], seconds.get(it.nodeid, 0.0))
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The default run leaves out the tests marked ``slow`` (deselected, not skipped: they are
    reported as deselected); ``--run-slow``, ``-m slow`` or a set ``CI`` runs everything."""
    if config.getoption("--fast-first"):
        _fast_first(items)
    if config.getoption("--run-slow") or os.environ.get("CI") or config.getoption("-m"):
        return
    slow = [it for it in items if it.get_closest_marker("slow")]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [it for it in items if not it.get_closest_marker("slow")]


@pytest.fixture(autouse=True)
def _reset_mpmath_precision():
    """Every test starts and ends at mpmath's default precision."""
    mpmath.mp.prec = 53
    yield
    mpmath.mp.prec = 53


@pytest.fixture(autouse=True)
def _fresh_caches_under_mutation():
    """Under mutmut (``MUTANT_UNDER_TEST`` set), clear every ``functools`` cache of the package
    before each test. mutmut forks each mutant's run from the process whose clean run filled
    them, so a mutant below a cached function was not executed for inputs already cached
    (docs/verification.md, "a caveat found at the end"). No effect outside mutation runs."""
    if "MUTANT_UNDER_TEST" in os.environ:
        import sys

        for name, module in list(sys.modules.items()):
            if name.startswith("maxinfo_bounds") and module is not None:
                for obj in list(vars(module).values()):
                    clear = getattr(obj, "cache_clear", None)
                    if callable(clear):
                        clear()
    yield
