"""Shared test configuration.

Hypothesis runs derandomized under CI (the ``ci`` profile, selected when ``CI`` is set), so a CI
run is reproducible; locally the ``dev`` profile explores with fresh randomness.
"""

from __future__ import annotations

import os

import mpmath
import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", derandomize=True, deadline=None, max_examples=100, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "dev", deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture(autouse=True)
def _reset_mpmath_precision():
    """Every test starts and ends at mpmath's default precision."""
    mpmath.mp.prec = 53
    yield
    mpmath.mp.prec = 53
