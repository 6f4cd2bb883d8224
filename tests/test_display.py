"""Text output: certified numbers shown to 6 digits on their safe side (issue 18, item 6)."""

from __future__ import annotations

import glob
import json
import re
from decimal import Decimal

import numpy as np
import pytest

from maxinfo_bounds.cli import main
from maxinfo_bounds.numeric import decimal_text


@pytest.mark.parametrize(
    ("x", "side", "text"),
    [
        # hand: 9.999999999999999e-06 is 1e-05 less one ulp; up to 6 digits gives 1e-05
        (9.999999999999999e-06, "up", "1e-05"),
        (9.999999999999999e-06, "down", "9.99999e-06"),
        (0.0008741264176124951, "down", "0.000874126"),
        (0.0008741264176124951, "up", "0.000874127"),
        (15.28771237954945, "up", "15.2878"),
        (6.249999999999995e-07, "down", "6.24999e-07"),
        # short doubles read back exactly: no 0.0250001 for the double 0.025
        (0.025, "up", "0.025"),
        (0.025, "down", "0.025"),
        (1e-300, "up", "1e-300"),
        # the smallest subnormal is 4.9406564584124654e-324 exactly: its repr 5e-324 is short
        (5e-324, "down", "5e-324"),
        # the largest double 1.7976931348623157e308: up stays a finite decimal, not inf
        (1.7976931348623157e308, "up", "1.7977e+308"),
        (123456789.5, "up", "123457000"),
        (123456789.5, "down", "123456000"),
        (12345678.9e9, "down", "1.23456e+16"),
        (-0.123456789, "up", "-0.123456"),
        (2.0, "up", "2"),
        (0.0, "down", "0.0"),
        (float("inf"), "up", "inf"),
    ],
)
def test_hand_values(x, side, text):
    assert decimal_text(x, side) == text


def test_safe_side_and_length_on_random_doubles():
    rng = np.random.default_rng(20261123)
    xs = np.concatenate(
        [10.0 ** rng.uniform(-320, 308, 4000), rng.uniform(0, 1, 2000), -(10.0 ** rng.uniform(-20, 20, 1000))]
    )
    for x in xs.tolist():
        exact = Decimal(x)
        for side in ("up", "down"):
            t = decimal_text(x, side)
            shown = Decimal(t)
            if float(t) != x:  # not a read-back-exact short repr: directed rounding
                assert (shown >= exact) if side == "up" else (shown <= exact), (x, side, t)
                assert abs(shown - exact) <= abs(exact) * Decimal("1e-5"), (x, side, t)
            digits = t.split("e")[0].lstrip("-").replace(".", "").strip("0")
            assert len(digits) <= 7, (x, t)  # 9.999995 -> 10.0000 is the one extra digit


@pytest.mark.parametrize("study", sorted(glob.glob("examples/*.toml")))
def test_plans_print_no_float_noise(study, capsys):
    main(["plan", study])
    out = capsys.readouterr().out
    # no number with more than 7 significant digits anywhere in a printed plan
    noisy = [
        m for m in re.findall(r"\d+\.\d+(?:e[-+]\d+)?", out) if len(m.split("e")[0].replace(".", "").strip("0")) > 7
    ]
    assert not noisy, noisy


def test_laplace_derivation_reads_1e05(capsys):
    # DR Thm 3.6: sensitivity 1e-6 / scale 0.1 = 1e-5 per run (the float quotient is one ulp
    # below 1e-5; shown rounded up)
    main(["plan", "examples/laplace_queries.toml"])
    out = capsys.readouterr().out
    assert "-> (1e-05, 0.0)-DP per run" in out
    assert "9.999999999999999e-06" not in out


def test_bound_table_rounds_outputs_but_echoes_inputs(capsys):
    main(["bound", "RRST-1.4b", "--eps", "0.0123456789", "--n", "1000", "--beta", "0.01"])
    rows = dict(ln.split(None, 1) for ln in capsys.readouterr().out.splitlines())
    assert rows["eps_nats"] == "0.0123456789"  # an input, as given
    # RRST Thm 1.4b: k = log2(e) (eps^2 n / 2 + eps sqrt(n ln(2/beta) / 2)); at 40 digits
    # (mpmath, by hand) = log2(e) (0.07620789375 + 0.0123456789 * 51.46997846584)
    #   = 1.026679096213364, shown rounded up to 6 digits
    k = float(rows["k_bits"])
    assert rows["k_bits"] == "1.02668"
    main(["bound", "RRST-1.4b", "--eps", "0.0123456789", "--n", "1000", "--beta", "0.01", "--json"])
    full = json.loads(capsys.readouterr().out)["k_bits"]
    assert k >= full and k - full < 1e-5  # shown rounded up, 6 digits
