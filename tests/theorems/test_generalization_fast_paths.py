"""Which path each entry of an array evaluation takes.

The array evaluators have a float fast path, and slower fallbacks (double-double, the certified
scalar path) for the rare entries the fast path cannot certify. A fast path broken so that it
sends every entry to the fallback still returns correct values; only these tests, which count the
fallback's calls, see it (docs/verification.md, "Mutation testing": the survivors of this kind).
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from maxinfo_bounds.arith import Formula
from maxinfo_bounds.theorems.generalization import hoeffding_transfer, mcdiarmid_transfer
from proofs_checks.fuzz import references as R


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Counts of the double-double evaluations (entries) and certified scalar evaluations."""
    seen = {"dd": 0, "scalar": 0}
    array_dd, up = Formula.array_dd, Formula.up

    def counted_dd(self: Formula, *args: object) -> object:
        seen["dd"] += int(np.size(args[0]))
        return array_dd(self, *args)

    def counted_up(self: Formula, *args: object, prec: int = 128) -> float:
        seen["scalar"] += 1
        return up(self, *args, prec=prec)

    monkeypatch.setattr(Formula, "array_dd", counted_dd)
    monkeypatch.setattr(Formula, "up", counted_up)
    return seen


def _ordinary(rng: np.random.Generator, size: int = 400) -> tuple[np.ndarray, ...]:
    k = rng.uniform(0.0, 40.0, size)
    beta = rng.uniform(0.0, 0.01, size)
    tau = rng.uniform(0.01, 0.3, size)
    n = np.floor(np.exp(rng.uniform(np.log(10), np.log(1e6), size)))
    return k, beta, tau, n


def test_tail_arrays_stay_on_the_float_path_for_ordinary_inputs(calls):
    k, beta, tau, n = _ordinary(np.random.default_rng(81))
    h = hoeffding_transfer(k, beta, tau, n)
    s = 1.0 / n  # the sensitivity of a mean of n [0, 1] values
    m = mcdiarmid_transfer(k, beta, tau, n, s), mcdiarmid_transfer(k, beta, tau, n, s, variant="paper")
    assert calls == {"dd": 0, "scalar": 0}
    # not vacuous inputs: a fair share of the 400 entries are bounds below 1
    assert all(int(np.sum(a < 1.0)) > 100 for a in (h, *m))


# a cancelling exponent (k of thousands of bits against a long tail): double-double, no scalar
CANCEL = (2454.8374874224482, 8.67712026797626e-203, 0.012007248008593173, 7351388)


def test_tail_arrays_use_double_double_only_where_the_exponent_cancels(calls):
    k, beta, tau, n = _ordinary(np.random.default_rng(82), size=5)
    arrs = [np.append(a, v) for a, v in zip((k, beta, tau, n), CANCEL)]
    hoeffding_transfer(*arrs)
    assert calls == {"dd": 1, "scalar": 0}  # the one cancelling entry, certified in double-double


def test_tail_arrays_fall_back_to_the_scalar_path_beyond_double_double(calls):
    # addends of 8e17 nats (k = 2^60 bits): beyond the double-double margin's reach
    hoeffding_transfer(
        np.array([2.0**60, 1.0]), np.array([0.0, 0.0]), np.array([9.419280180123799, 0.1]), np.array([2**52, 100])
    )
    assert calls == {"dd": 1, "scalar": 1}


# Points where float64 evaluation of 2^k 2 e^{-2 tau^2 n}, rounded up without the exponent's
# margin, lands below the exact value (found by scans against 40-60 digits): 1.2e-14 below on the
# float path (addends of 509 nats, just inside its 512), 1.05e-12 where the exponent goes to
# double-double (4,118 nats). The array path must still round up, within 1e-11.
BELOW = [
    (364.7704794655585, 0.00421707118149741, 7206724),
    (625.0208909223658, 0.015880820089705847, 876252),
    (5940.906261215499, 0.01858495330135124, 5973968),
]


@pytest.mark.parametrize("k, tau, n", BELOW)
def test_tail_array_rounds_up_where_float_evaluation_falls_below(k, tau, n):
    with mpmath.workdps(R.DPS):
        ex = [R.exact(v) for v in (k, 0.0, tau, n)]
        refs = (R.hoeffding(*ex), R.mcdiarmid(*ex, R.exact(1.0 / n), "sound"))
        outs = (
            hoeffding_transfer(np.array([k, k]), np.zeros(2), np.array([tau, tau]), np.array([n, n])),
            mcdiarmid_transfer(np.array([k]), np.zeros(1), np.array([tau]), np.array([n]), np.array([1.0 / n])),
        )
        for ref, out in zip(refs, outs):
            got = mpmath.mpf(float(out[0]))
            assert ref <= got <= ref * (1 + mpmath.mpf(10) ** -11), (got, ref)


def _at_addends(total_nats: float, n: int = 10**6) -> tuple[float, float, int]:
    """(k, tau, n) whose exponent k ln 2 + ln 2 - 2 tau^2 n is -5 (a bound of about e^-5) and
    whose addends |k ln 2| + 2 tau^2 n sum to ``total_nats``."""
    x = (total_nats - math.log(2) - 5.0) / 2  # k ln 2
    return x / math.log(2), math.sqrt((x + math.log(2) + 5.0) / (2 * n)), n


def test_tail_arrays_switch_to_double_double_at_512_nats_of_addends(calls):
    # the float path's exponent margin is 2^-50 per nat, capped at 2^-41: 512 nats at most
    pts = [_at_addends(a) for a in (480.0, 500.0, 525.0, 560.0)]
    k, tau, n = (np.array(v, dtype=float) for v in zip(*pts))
    h = hoeffding_transfer(k, np.zeros(4), tau, n)
    assert calls == {"dd": 2, "scalar": 0}
    m = mcdiarmid_transfer(k, np.zeros(4), tau, n, 1.0 / n)
    assert calls == {"dd": 4, "scalar": 0}
    assert np.all((h > 0.005) & (h < 0.02)) and np.all((m > 0.005) & (m < 0.02))  # 2 e^-5 = 0.0135


def test_mcdiarmid_array_falls_back_to_the_scalar_path_with_its_own_arguments(calls):
    # addends of 8e17 nats, exponent -264.08: the scalar path, called with this entry's arguments
    args = (2.0**60, 0.0, 9.419280180123799, 2**52, 1.0 / 2**52)
    out = mcdiarmid_transfer(*(np.array([v]) for v in args))
    assert calls["scalar"] == 1
    for variant in ("sound", "paper"):
        arr = mcdiarmid_transfer(*(np.array([v]) for v in args), variant=variant)
        assert float(arr[0]) == mcdiarmid_transfer(*args, variant=variant)
    assert 1e-120 < float(out[0]) < 1e-110  # 2 e^-264.08 = 2.7e-115 (Hoeffding's point, Delta = 1/n)
