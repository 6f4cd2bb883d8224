"""Parameter domains: one declaration, the same range in every error (scalar and array paths)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from maxinfo_bounds.domain import Int, Real
from maxinfo_bounds.numeric import InvalidParameter


def test_closed_at_infinity_array_message_matches_the_scalar_one():
    d = Real(0, math.inf, hi_open=False)  # k in bits: +inf allowed (a vacuous bound)
    assert d.text == "[0, inf]"
    assert list(d.check_array("k", [0.0, 3.0, math.inf])) == [0.0, 3.0, math.inf]
    for bad in (-1.0, math.nan, -math.inf):
        with pytest.raises(InvalidParameter, match=r"k=.* must be real numbers in \[0, inf\]"):
            d.check_array("k", np.array([1.0, bad]))
        with pytest.raises(InvalidParameter, match=r"\[0, inf\]"):
            d.check("k", bad)


def test_relation_tightens_the_upper_end_in_the_error():
    from maxinfo_bounds.theorems.holdout import BUDGET_M

    assert BUDGET_M.check(3, hi=5) == 3
    with pytest.raises(InvalidParameter, match=r"budget=6 .*\[1, 5\]"):
        BUDGET_M.check(6, hi=5)


def test_integer_domain_refuses_fractions_of_integers_in_arrays():
    with pytest.raises(InvalidParameter, match="n="):
        Int(1).check_array("n", [1.0, 2.5])


def test_default_workers_are_the_free_cpus():
    """Issue 45: the default number of worker processes (sweeps, campaigns) is the CPUs less
    the CPUs other processes keep busy, rounded, at least 1 and at most the CPUs; with a
    process spinning beside this one, at most CPUs - 1 (or 1)."""
    import os
    import subprocess
    import sys

    from maxinfo_bounds.numeric import local_workers
    from maxinfo_bounds.numeric.validate import free_cpus

    cpus = os.cpu_count() or 1
    assert free_cpus(0.0) == cpus and free_cpus(0.4) == cpus
    assert free_cpus(1e9) == 1 and free_cpus(cpus) == 1
    assert free_cpus(cpus - 1.0) == 1 and free_cpus(-5.0) == cpus
    assert 1 <= local_workers(None) <= cpus
    spin = subprocess.Popen([sys.executable, "-c", "import time\nt = time.time() + 20\nwhile time.time() < t: pass"])
    try:
        import time

        time.sleep(0.3)
        assert free_cpus() <= max(1, cpus - 1)
    finally:
        spin.kill()
        spin.wait()
    assert local_workers(3) == 3


@pytest.mark.parametrize(
    ("dom", "x", "ok"),
    [
        (Real(0, 1, lo_open=True, hi_open=True), 0.5, True),
        (Real(0, 1, lo_open=True, hi_open=True), 0.0, False),
        (Real(0, 1, lo_open=True, hi_open=True), -0.0, False),
        (Real(0, 1, lo_open=True, hi_open=True), 1.0, False),
        (Real(0, 1), 0.0, True),
        (Real(0, 1), 1.0, True),
        (Real(0, 1), 1.0000000000000002, False),
        (Real(0, 1), float("nan"), False),
        (Real(0), float("inf"), False),  # refused: the value is used as a float
        (Real(0, hi_open=True), float("inf"), False),
        (Real(0, 1), 5e-324, True),
    ],
)
def test_check_float_at_and_inside_the_ends(dom: Real, x: float, ok: bool) -> None:
    # a float strictly inside takes a shortcut (issue 45): the ends, NaN and inf take the full
    # check, which knows which ends are open
    if ok:
        assert dom.check_float("x", x) == x
    else:
        with pytest.raises(InvalidParameter, match="x="):
            dom.check_float("x", x)
