"""The numeric layer's helpers, in-process and value by value (issue 44: mutation testing of
``maxinfo_bounds/numeric``). Refusals are compared by their whole message, and every decision
against a value derived here by hand: the command-line tests run these helpers in a child
process, which a mutation run does not see."""

from __future__ import annotations

import math
import os
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from maxinfo_bounds.numeric import InvalidParameter
from maxinfo_bounds.numeric.files import check_output_file, save_figure
from maxinfo_bounds.numeric.rounding import log_le
from maxinfo_bounds.numeric.validate import (
    _to_fraction,
    _total_within,
    as_table,
    check_real_array,
    check_same_shape,
    iter_pairs,
)


def _message(exc: pytest.ExceptionInfo[InvalidParameter]) -> str:
    return str(exc.value)


# --------------------------------------------------------------------------------------------
# log_le: log_base(ratio) <= t, decided exactly


@pytest.mark.parametrize(
    ("ratio", "t", "base", "expected"),
    [
        (Fraction(0), -(10**9), "e", True),  # log 0 = -inf: below everything
        (Fraction(0), -(10**9), "2", True),
        (Fraction(1), 0, "e", True),  # log 1 = 0 <= 0, exactly
        (Fraction(1), Fraction(-1, 10**30), "e", False),
        (Fraction(2), 0, "e", False),  # t = 0: decided by ratio <= 1
        (Fraction(1, 2), 0, "e", True),
        (Fraction(1), 0, "2", True),
        (Fraction(8), 3, "2", True),  # log2 8 = 3 exactly
        (Fraction(8), Fraction(2999, 1000), "2", False),
        (Fraction(1, 4), -2, "2", True),
        (Fraction(1, 4), Fraction(-2001, 1000), "2", False),
        (Fraction(1, 8), -3, "2", True),
        (Fraction(3, 2), Fraction(1, 2), "2", False),  # log2 1.5 = 0.585: the denominator alone a power of 2
        (Fraction(3, 2), Fraction(3, 5), "2", True),
        (Fraction(2, 3), Fraction(-1, 2), "2", True),  # log2(2/3) = -0.585: the numerator alone
        (Fraction(2, 3), Fraction(-3, 5), "2", False),
        (Fraction(6), Fraction(5, 2), "2", False),  # log2 6 = 2.585
        (Fraction(6), Fraction(13, 5), "2", True),
        (Fraction(6), Fraction(129, 50), "2", False),  # 2.58 < 2.585
        (Fraction(2**100 + 1), 100, "2", False),  # above 100 by 2^-100 / ln 2: needs > 100 bits
        (Fraction(2**100 - 1), 100, "2", True),
        (Fraction(2718281828459045, 10**15), 1, "e", True),  # just below e
        (Fraction(2718281828459046, 10**15), 1, "e", False),  # just above e
        (Fraction(2), 1, "2", True),
        (Fraction(2), Fraction(1, 2), "e", False),  # ln 2 = 0.693
        (Fraction(2), Fraction(7, 10), "e", True),
    ],
)
def test_log_le_decides_exactly(ratio: Fraction, t: int | Fraction, base: str, expected: bool) -> None:
    assert log_le(ratio, t, base=base) is expected  # type: ignore[arg-type]


def test_log_le_takes_a_float_threshold_exactly() -> None:
    # 0.1 as a float is 0.1000000000000000055511...: e to it is 1.1051709180756476309... (e^0.1 =
    # 1.1051709180756476248...), so the decision turns between ...763 and ...764 at 17 decimals
    assert log_le(Fraction(110517091807564763, 10**17), 0.1)
    assert not log_le(Fraction(110517091807564764, 10**17), 0.1)
    assert not log_le(Fraction(110517091807564763, 10**17), Fraction(1, 10))  # the decimal 0.1


# --------------------------------------------------------------------------------------------
# neighbour pairs


def test_iter_pairs_values_and_every_refusal() -> None:
    assert iter_pairs("neighbors", [(0, 1), (2, 0)], 3) == [(0, 1), (2, 0)]
    assert iter_pairs("neighbors", iter([(1, 0)]), 2) == [(1, 0)]
    cases = [
        (5, "neighbors=5 is invalid: must be an iterable of (i, j) row-index pairs"),
        ([(0, 1), 7], "neighbors[1]=7 is invalid: must be a pair (i, j) of row indices"),
        ([(0, 1, 2)], "neighbors[0]=(0, 1, 2) is invalid: must be a pair (i, j) of row indices"),
        ([(0, 3)], "neighbors[0][1]=3 is invalid: must be an integer in [0, 2]"),
        ([(-1, 0)], "neighbors[0][0]=-1 is invalid: must be an integer in [0, 2]"),
        ([(1, 1)], "neighbors[0]=(1, 1) is invalid: must be a pair of two different rows"),
        ([], "neighbors=[] is invalid: must be a non-empty list of neighbour pairs"),
    ]
    for arg, message in cases:
        with pytest.raises(InvalidParameter) as exc:
            iter_pairs("neighbors", arg, 3)  # type: ignore[arg-type]
        assert _message(exc) == message
        assert exc.value.name == message.split("=")[0]


# --------------------------------------------------------------------------------------------
# exact table entries


def test_to_fraction_values_and_refusals() -> None:
    assert _to_fraction("p", Fraction(1, 3)) == Fraction(1, 3)
    assert _to_fraction("p", 2) == 2 and _to_fraction("p", np.int64(3)) == 3
    assert _to_fraction("p", 0.1) == Fraction(3602879701896397, 36028797018963968)  # the float's value
    assert _to_fraction("p", np.float32(0.5)) == Fraction(1, 2)
    import sympy

    assert _to_fraction("p", sympy.Rational(2, 7)) == Fraction(2, 7)  # a numbers.Rational
    for v, allowed in [
        (True, "a table of probabilities (Fraction, int or float)"),
        ("0.5", "a table of probabilities (Fraction, int or float)"),
        (math.inf, "finite, non-negative probabilities"),
        (math.nan, "finite, non-negative probabilities"),
    ]:
        with pytest.raises(InvalidParameter) as exc:
            _to_fraction("p", v)
        assert exc.value.allowed == allowed and exc.value.name == "p"


def test_exact_tables_keep_their_values() -> None:
    t = as_table("P", [Fraction(1, 3), Fraction(2, 3)], ndim=1, exact=True)
    assert t.dtype == object and list(t) == [Fraction(1, 3), Fraction(2, 3)]
    with pytest.raises(InvalidParameter) as exc:
        as_table("P", [Fraction(1, 3), Fraction(1, 3)], ndim=1, exact=True)
    assert "summing to exactly 1 (exact mode)" in _message(exc) and "sums to 2/3" in _message(exc)


# --------------------------------------------------------------------------------------------
# float totals


def test_total_within_at_its_boundary() -> None:
    tol = 1e-9
    assert _total_within(np.array([0.5, 0.5]), tol)
    assert _total_within(np.array([0.5, 0.5 + 0.9e-9]), tol)
    assert not _total_within(np.array([0.5, 0.5 + 1.1e-9]), tol)
    assert not _total_within(np.array([0.5, 0.5 - 1.1e-9]), tol)
    assert not _total_within(np.array([0.5, math.inf]), tol)
    # a total within the sum's rounding of the boundary is decided by fsum: 1 + tol exactly
    # representable sums (10 cells of 0.1 + a tenth of tol) fall on either side by fsum only
    cells = np.full(10, 0.1)
    assert _total_within(cells, tol)
    gap = 2.0**-30  # 0.5 + 0.5 + 2^-30 is exactly 1 + 2^-30
    assert _total_within(np.array([0.5, 0.5, gap]), gap)  # the boundary itself is within
    assert not _total_within(np.array([0.5, 0.5, gap]), gap * (1 - 2.0**-52))


def test_float_table_refusals_name_what_is_wrong() -> None:
    with pytest.raises(InvalidParameter) as exc:
        as_table("P", [0.5, math.inf], ndim=1, exact=False)
    assert exc.value.name == "P" and exc.value.value == [0.5, math.inf]
    assert exc.value.allowed == "a probability vector (1-D) with finite entries"
    assert _message(exc).endswith("(NaN or infinity found)")
    with pytest.raises(InvalidParameter) as exc:
        as_table("P", [[0.5, 0.5], [math.nan, 1.0]], ndim=2, exact=False, stochastic_rows=True)
    assert "NaN or infinity found" in _message(exc)
    with pytest.raises(InvalidParameter) as exc:
        as_table("P", [0.5, 0.6], ndim=1, exact=False)
    assert "summing to 1 within tol=1e-09" in _message(exc) and "sums to 1.1" in _message(exc)
    with pytest.raises(InvalidParameter) as exc:
        as_table("P", [[0.5, 0.5], [0.2, 0.7]], ndim=2, exact=False, stochastic_rows=True)
    assert _message(exc).startswith("P[1]=[0.2, 0.7] is invalid: must be a row summing to 1 within tol=1e-09")


def test_check_same_shape() -> None:
    a, b = np.zeros((2, 3)), np.zeros((2, 3))
    check_same_shape(["P", "Q"], [a, b])
    with pytest.raises(InvalidParameter) as exc:
        check_same_shape(["P", "Q", "R"], [a, b, np.zeros((3, 2))])
    assert exc.value.name == "R"
    assert "a table of the same shape as P (2, 3) (same support)" in _message(exc)
    assert "got shape (3, 2)" in _message(exc)


# --------------------------------------------------------------------------------------------
# arrays of reals


def test_check_real_array_bounds_and_message() -> None:
    out = check_real_array("eps", [0.0, 1.5, 2.0], low=0, high=2)  # both ends closed by default
    assert out.dtype == np.float64 and out.tolist() == [0.0, 1.5, 2.0]
    assert check_real_array("k", [1, 2], low=1, integer=True).tolist() == [1.0, 2.0]
    cases = [
        (dict(x=[0.0, -1.0], low=0), -1.0, "finite real numbers in [0, inf) (every entry)"),
        (dict(x=[0.0, 1.0], low=0, low_open=True), 0.0, "finite real numbers in (0, inf) (every entry)"),
        (dict(x=[2.0], high=2, high_open=True), 2.0, "finite real numbers in (-inf, 2) (every entry)"),
        (dict(x=[2.5], high=2), 2.5, "finite real numbers in (-inf, 2] (every entry)"),
        (dict(x=[1.0, 0.5], low=0.25, high=1.5, integer=True), 0.5, "finite integers in [0.25, 1.5] (every entry)"),
        (dict(x=[math.inf]), math.inf, "finite real numbers in (-inf, inf) (every entry)"),
        (dict(x=[math.inf], low=0), math.inf, "finite real numbers in [0, inf) (every entry)"),
        (dict(x=[-1.0], low=0, high=2), -1.0, "finite real numbers in [0, 2] (every entry)"),
        (dict(x=[-1.0], low=0, integer=True), -1.0, "finite integers in [0, inf) (every entry)"),
        (dict(x=[math.nan]), None, "finite real numbers in (-inf, inf) (every entry)"),
    ]
    for kw, bad, allowed in cases:
        with pytest.raises(InvalidParameter) as exc:
            check_real_array("x", **kw)  # type: ignore[arg-type]
        assert exc.value.name == "x" and exc.value.allowed == allowed
        if bad is None:
            assert math.isnan(exc.value.value)  # type: ignore[arg-type]
        else:
            assert exc.value.value == bad
    with pytest.raises(InvalidParameter) as exc:
        check_real_array("x", ["a", 1])
    assert exc.value.allowed == "an array of real numbers"


# --------------------------------------------------------------------------------------------
# output files


def test_check_output_file_every_refusal(tmp_path: Path) -> None:
    good = tmp_path / "map.png"
    assert check_output_file("plot", good) == str(good)
    assert not good.exists()  # the probe leaves nothing behind
    good.write_bytes(b"keep")
    assert check_output_file("plot", str(good)) == str(good)
    assert good.read_bytes() == b"keep"  # an existing file is neither truncated nor removed
    assert check_output_file("plot", tmp_path / "MAP.SVG") == str(tmp_path / "MAP.SVG")
    assert check_output_file("out", tmp_path / "x.json", (".json",)) == str(tmp_path / "x.json")
    (tmp_path / "d.png").mkdir()
    cases = [
        (3, "plot=3 is invalid: must be a file path (str or pathlib.Path)"),
        (
            str(tmp_path / "map.txt"),
            f"plot='{tmp_path / 'map.txt'}' is invalid: must be a file name ending in .png, .svg, .pdf",
        ),
        (
            str(tmp_path / "no" / "map.png"),
            f"plot='{tmp_path / 'no' / 'map.png'}' is invalid: must be a file in an existing directory "
            f"({tmp_path / 'no'} is not one)",
        ),
        (str(tmp_path / "d.png"), f"plot='{tmp_path / 'd.png'}' is invalid: must be a file name, not a directory"),
    ]
    for arg, message in cases:
        with pytest.raises(InvalidParameter) as exc:
            check_output_file("plot", arg)
        assert _message(exc) == message
    if os.geteuid() != 0:  # root writes anywhere
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(0o500)
        with pytest.raises(InvalidParameter, match="must be a writable file"):
            check_output_file("plot", ro / "map.png")


def test_a_bare_file_name_is_in_the_current_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert check_output_file("plot", "map.pdf") == "map.pdf"
    assert not (tmp_path / "map.pdf").exists()


def test_save_figure_refuses_in_one_line_and_closes(tmp_path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig = plt.figure()
    out = tmp_path / "f.png"
    save_figure(fig, "plot", out)
    assert out.stat().st_size > 0 and not plt.fignum_exists(fig.number)
    fig = plt.figure()
    with pytest.raises(InvalidParameter) as exc:
        save_figure(fig, "plot", tmp_path / "missing" / "f.png")
    assert exc.value.name == "plot" and exc.value.allowed.startswith("a writable file (")
    assert not plt.fignum_exists(fig.number)


# --------------------------------------------------------------------------------------------
# exact logarithms


def test_exact_log_value_enclosure_float_and_le() -> None:
    import mpmath

    from maxinfo_bounds.numeric import ExactLog

    mpmath.mp.dps = 60
    inf, zero, one = ExactLog(None), ExactLog(Fraction(0)), ExactLog(Fraction(1), "nats")
    assert inf.value() == mpmath.inf and zero.value() == -mpmath.inf and one.value() == 0
    assert inf.enclosure() == (math.inf, math.inf) and zero.enclosure() == (-math.inf, -math.inf)
    assert one.enclosure() == (0.0, 0.0) and ExactLog(Fraction(1)).enclosure() == (0.0, 0.0)
    assert float(inf) == math.inf and float(zero) == -math.inf and float(one) == 0.0
    assert not inf.le(10**9) and zero.le(-(10**9)) and one.le(0) and not one.le(Fraction(-1, 10**40))
    # powers of two in bits: exact
    assert ExactLog(Fraction(8)).enclosure() == (3.0, 3.0)
    assert ExactLog(Fraction(1, 4)).enclosure() == (-2.0, -2.0)
    assert ExactLog(Fraction(3, 4)).enclosure() != (-2.0, -2.0)  # not a power of two: enclosed
    for ratio, unit in [
        (Fraction(3), "bits"),
        (Fraction(3), "nats"),
        (Fraction(3, 4), "bits"),
        (Fraction(5, 8), "bits"),  # the denominator a power of two, the numerator not
        (Fraction(8, 5), "bits"),
        (Fraction(10**30 + 7, 3), "nats"),
        (Fraction(2**3000 + 1, 3), "bits"),  # a numerator of 3,001 bits: the working precision grows
    ]:
        x = ExactLog(ratio, unit)  # type: ignore[arg-type]
        exact = mpmath.log(mpmath.mpf(ratio.numerator) / ratio.denominator)
        if unit == "bits":
            exact /= mpmath.log(2)
        lo, hi = x.enclosure()
        assert lo <= exact <= hi and hi - lo <= 4 * math.ulp(abs(float(exact)))
        assert abs(x.value(dps=40) - exact) <= abs(exact) * mpmath.mpf(10) ** -39
        assert float(x) == float(exact)
        assert x.le(Fraction(hi)) and not x.le(Fraction(lo) - Fraction(1, 10**30))
    # le is in the entry's own unit: log2 3 = 1.585 > 1.5 >= ln 3 = 1.0986
    assert not ExactLog(Fraction(3), "bits").le(Fraction(3, 2)) and ExactLog(Fraction(3), "nats").le(Fraction(3, 2))
    assert ExactLog(Fraction(2), "bits").le(1) and not ExactLog(Fraction(2), "bits").le(Fraction(99, 100))
    for dps in (0, 100_001, 2.5):
        with pytest.raises(InvalidParameter) as exc:
            ExactLog(Fraction(3)).value(dps=dps)  # type: ignore[arg-type]
        assert exc.value.name == "dps" and exc.value.allowed == "an integer in [1, 100000]"
    v1 = ExactLog(Fraction(3)).value(dps=1)  # log2 3 = 1.58496..., to about one digit (7 bits)
    assert abs(v1 - mpmath.log(3, 2)) < 0.01 and v1 != ExactLog(Fraction(3)).value(dps=50)


# --------------------------------------------------------------------------------------------
# small helpers of the validation


def test_unit_and_bound_texts() -> None:
    from maxinfo_bounds.numeric.validate import _fmt_bound, _shown_row, check_unit, free_cpus

    assert check_unit("bits") == "bits" and check_unit("nats") == "nats"
    with pytest.raises(InvalidParameter) as exc:
        check_unit("Bits")
    assert str(exc.value) == "unit='Bits' is invalid: must be 'bits' or 'nats'"
    assert _fmt_bound(Fraction(3)) == "3" and _fmt_bound(Fraction(1, 2)) == "1/2"
    assert _fmt_bound(Fraction(4, 2)) == "2" and _fmt_bound(2.0) == "2" and _fmt_bound(0.25) == "0.25"
    assert _shown_row(np.arange(16.0)) == list(np.arange(16.0))  # 16 entries: shown
    row = np.arange(17.0)
    assert _shown_row(row) is row  # 17: the array itself (shown by its shape)
    cpus = os.cpu_count() or 1
    assert free_cpus(busy=0.0) == cpus and free_cpus(busy=cpus + 5.0) == 1
    assert free_cpus(busy=0.6) == max(1, cpus - 1) and free_cpus(busy=0.4) == cpus


def test_busy_cpus_from_scripted_proc_stat(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from maxinfo_bounds.numeric import validate as V

    # user nice system idle iowait irq softirq steal guest guest_nice: over the window the
    # total of the first eight grows by 200 ticks, idle + iowait by 80 + 20 (the guest fields, 9th
    # and 10th, grow too and must not count): half the time busy
    lines = iter(["cpu  100 0 100 700 100 0 0 0 50 50\n", "cpu  150 0 150 780 120 0 0 0 90 90\n"])
    monkeypatch.setattr(V, "open", lambda *a, **k: io.StringIO(next(lines)), raising=False)
    monkeypatch.setattr("maxinfo_bounds.numeric.validate.time.sleep", lambda s: None)
    assert V._busy_cpus(4) == 2.0
    # a clock that did not tick: nothing measured, nothing busy
    lines = iter(["cpu  1 0 1 7 1 0 0 0 0 0\n", "cpu  1 0 1 7 1 0 0 0 0 0\n"])
    assert V._busy_cpus(4) == 0.0

    # no /proc/stat: the one-minute load average, or 0 without one
    def missing(*a: object, **k: object) -> None:
        raise OSError("no /proc")

    monkeypatch.setattr(V, "open", missing, raising=False)
    monkeypatch.setattr("maxinfo_bounds.numeric.validate.os.getloadavg", lambda: (1.5, 2.5, 3.5))
    assert V._busy_cpus(4) == 1.5

    def no_load() -> tuple[float, float, float]:
        raise OSError("no load average")

    monkeypatch.setattr("maxinfo_bounds.numeric.validate.os.getloadavg", no_load)
    assert V._busy_cpus(4) == 0.0


def test_sum_rounding_bound() -> None:
    from maxinfo_bounds.numeric.validate import _sum_rounding

    # (n + 2) 2^-52 times the larger of the total and 1
    assert _sum_rounding(10, 0.5) == 12 * 2.0**-52
    assert _sum_rounding(10, 3.0) == 36 * 2.0**-52
    assert _sum_rounding(0, 1.0) == 2 * 2.0**-52
    assert _sum_rounding(4, np.array([0.25, 2.0])).tolist() == [6 * 2.0**-52, 12 * 2.0**-52]


def test_fast_margins_and_the_wide_mask() -> None:
    from maxinfo_bounds.numeric.rounding import (
        EXP_SLACK_CAP,
        FAST_EXP_MARGIN,
        FAST_REL_MARGIN,
        each_entry,
        exp_margin_too_wide,
        fast_down,
        fast_up,
    )

    y = np.array([1.0])
    plain_up, plain_down = fast_up(y)[0], fast_down(y)[0]
    assert 1.0 + FAST_REL_MARGIN < plain_up <= 1.0 + 1.01 * FAST_REL_MARGIN
    assert 1.0 - 1.01 * FAST_REL_MARGIN <= plain_down < 1.0 - FAST_REL_MARGIN
    # an exponential term of size 0.5 whose exponent is 2^20 nats adds 0.5 * 2^20 * 2^-50 = 2^-31
    wide_down = fast_down(y, exp_arg=2.0**20, exp_part=0.5)[0]
    assert 1.0 - 2.0**-31 - 1.01 * FAST_REL_MARGIN <= wide_down < 1.0 - 2.0**-31
    assert fast_down(y, exp_arg=2.0**20)[0] < wide_down  # the whole y as the exponential part: more
    assert fast_down(np.array([1e-300]), floor=0.0)[0] >= 0.0 and fast_down(np.array([0.0]))[0] == 0.0
    assert fast_down(np.array([0.0]), floor=-1.0)[0] < 0.0
    # the mask: |part| |arg| 2^-50 against 2^-41 |total|
    part, total = np.array([1.0, 1.0, np.nan, 1.0]), np.array([1.0, 1.0, 1.0, np.inf])
    arg = np.array([2.0**9, 2.0**9 + 1, 1.0, 1.0])  # 2^9 * 2^-50 = 2^-41: the cap itself is not wide
    assert EXP_SLACK_CAP == 2.0**-41 and FAST_EXP_MARGIN == 2.0**-50
    assert exp_margin_too_wide(part, arg, total).tolist() == [False, True, True, False]
    assert exp_margin_too_wide(np.array([np.inf]), np.array([0.0]), np.array([1.0])).tolist() == [True]
    assert exp_margin_too_wide(np.array([1e300]), np.array([1e300]), np.array([1.0])).tolist() == [True]  # overflow
    # the entries handed to the scalar path, as Python scalars of their kind
    got = list(each_entry(np.array([[False, True], [True, False]]), np.array([[1, 2], [3, 4]]), np.array(0.5)))
    assert got == [(1, [2, 0.5]), (2, [3, 0.5])]
    assert all(type(v) in (int, float) for _, xs in got for v in xs)
    assert type(got[0][1][0]) is int and type(got[0][1][1]) is float


def test_as_table_every_refusal_word_for_word() -> None:
    F = Fraction
    cases = [
        # (table, kwargs, the whole message)
        (
            [F(1, 2), F(1, 2)],
            dict(ndim=2, exact=True),
            "P=[Fraction(1, 2), Fraction(1, 2)] is invalid: must be a 2-D table (got shape (2,))",
        ),
        ([], dict(ndim=1, exact=True), "P=[] is invalid: must be a probability vector (1-D) (got shape (0,))"),
        (
            [[F(1, 2), F(1, 2)]],
            dict(ndim=1, exact=True),
            "P=[[Fraction(1, 2), Fraction(1, 2)]] is invalid: must be a probability vector (1-D) (got shape (1, 2))",
        ),
        (
            [F(3, 2), F(-1, 2)],
            dict(ndim=1, exact=True),
            "P=[Fraction(3, 2), Fraction(-1, 2)] is invalid: must be a probability vector (1-D) "
            "with non-negative entries",
        ),
        (
            [[F(1, 2), F(1, 2)], [F(1, 3), F(1, 3)]],
            dict(ndim=2, exact=True, stochastic_rows=True),
            "P[1]=[Fraction(1, 3), Fraction(1, 3)] is invalid: must be a row summing to exactly 1 (exact mode) "
            "(sums to 2/3)",
        ),
        (
            [[F(1, 4), F(1, 4)], [F(1, 4), F(1, 8)]],
            dict(ndim=2, exact=True),
            "P=[[Fraction(1, 4), Fraction(1, 4)], [Fraction(1, 4), Fraction(1, 8)]] is invalid: must be a 2-D table "
            "summing to exactly 1 (exact mode) (sums to 7/8)",
        ),
        (
            ["a", 1],
            dict(ndim=1, exact=True),
            "P='a' is invalid: must be a table of probabilities (Fraction, int or float)",
        ),
        (
            [[0.5, 0.5]],
            dict(ndim=1, exact=False),
            "P=[[0.5, 0.5]] is invalid: must be a probability vector (1-D) (got shape (1, 2))",
        ),
        (
            ["x", 0.5],
            dict(ndim=1, exact=False),
            "P=['x', 0.5] is invalid: must be a probability vector (1-D) (entries are not real numbers)",
        ),
        (
            [0.5, -0.5, 1.0],
            dict(ndim=1, exact=False),
            "P=[0.5, -0.5, 1.0] is invalid: must be a probability vector (1-D) with non-negative entries "
            "(min entry -0.5)",
        ),
        (
            [[0.5, 0.5], [1.0]],
            dict(ndim=2, exact=False, stochastic_rows=True),
            "P=[[0.5, 0.5], [1.0]] is invalid: must be a row-stochastic matrix (2-D, rows: datasets, columns: outputs) "
            "(entries are not real numbers)",
        ),
        ([0.5, 0.5], dict(ndim=1, exact=False, tol=0.6), "tol=0.6 is invalid: must be a real number in [0, 0.5]"),
        ([0.5, 0.5], dict(ndim=1, exact=False, tol=-0.1), "tol=-0.1 is invalid: must be a real number in [0, 0.5]"),
    ]
    for table, kw, message in cases:
        with pytest.raises(InvalidParameter) as exc:
            as_table("P", table, **kw)  # type: ignore[arg-type]
        assert _message(exc) == message, (table, kw)
    # the range of tol: its ends are allowed, and a table off by 0.4 passes at tol 0.5
    assert as_table("P", [0.7, 0.7], ndim=1, exact=False, tol=0.5).tolist() == [0.7, 0.7]
    assert as_table("P", [0.5, 0.5], ndim=1, exact=False, tol=0.0).tolist() == [0.5, 0.5]
    # exact mode keeps Fractions and sums exactly (no float start value)
    out = as_table("P", [[F(1, 3), F(2, 3)], [1, 0]], ndim=2, exact=True, stochastic_rows=True)
    assert out.tolist() == [[F(1, 3), F(2, 3)], [F(1), F(0)]]


def test_wants_exact_and_workers() -> None:
    from maxinfo_bounds.numeric.validate import local_workers, wants_exact

    assert wants_exact([0.5, 0.5]) is False and wants_exact([Fraction(1, 2), 0.5]) is True
    assert wants_exact(np.array([Fraction(1, 2), Fraction(1, 2)], dtype=object)) is True
    assert wants_exact(np.array([0.5, 0.5], dtype=object)) is False  # object dtype without a Fraction
    assert wants_exact(np.array([0.5, 0.5])) is False and wants_exact([[0.5], [Fraction(1)]]) is True
    assert wants_exact([Fraction(1)], exact=False) is False and wants_exact([0.5], exact=True) is True
    with pytest.raises(InvalidParameter) as exc:
        wants_exact([0.5], exact="yes")  # type: ignore[arg-type]
    assert str(exc.value) == "exact='yes' is invalid: must be True, False or None"
    assert local_workers(3) == 3
    with pytest.raises(InvalidParameter) as exc:
        local_workers(0)
    assert str(exc.value) == "workers=0 is invalid: must be an integer in [1, inf]"


def test_int_text_carries_a_rounded_mantissa() -> None:
    from maxinfo_bounds.numeric.rounding import int_text

    assert int_text(10**30 - 1) == str(10**30 - 1)  # below 10^30: exact
    assert int_text(10**30) == "about 1e+30"
    assert int_text(9_999_999 * 10**25) == "about 1e+32"  # 9.999999e31: the mantissa rounds to 10
    assert int_text(12_346 * 10**40) == "about 1.235e+44"  # four digits, rounded
    assert int_text(3 * 10**1000) == "about 3e+1000"


def test_short_repr_keeps_80_characters() -> None:
    from maxinfo_bounds.numeric.errors import _short_repr

    assert _short_repr("x" * 78) == repr("x" * 78)  # 80 characters with the quotes: kept
    assert _short_repr("x" * 79) == repr("x" * 79)[:77] + "..."  # 81: cut to 80
    assert len(_short_repr("x" * 500)) == 80
    assert _short_repr(np.zeros((2, 3))) == "<array shape=(2, 3) dtype=float64>"


def test_fast_up_margins_and_non_finite_parts() -> None:
    from maxinfo_bounds.numeric.rounding import FAST_REL_MARGIN, fast_up

    y = np.array([1.0])
    wide = fast_up(y, exp_arg=2.0**20, exp_part=0.5)[0]  # 0.5 * 2^20 * 2^-50 = 2^-31 added
    assert 1.0 + 2.0**-31 < wide <= 1.0 + 2.0**-31 + 1.01 * FAST_REL_MARGIN
    assert fast_up(y, exp_arg=2.0**20)[0] > wide  # the whole y as the exponential part
    assert fast_up(y, exp_arg=2.0**20, exp_part=0.5, per_nat=2.0**-96)[0] < 1.0 + 1.01 * FAST_REL_MARGIN
    # an infinite exponent times a zero part is NaN, a huge one overflows: no warning either way
    # (the suite turns warnings into errors), the caller refines such entries
    assert np.isnan(fast_up(np.array([0.0]), exp_arg=np.array([np.inf]))[0])
    assert fast_up(np.array([1e300]), exp_arg=np.array([1e300]))[0] == np.inf


def test_refusals_carry_their_values() -> None:
    from maxinfo_bounds.numeric.validate import check_same_shape

    with pytest.raises(InvalidParameter) as exc:
        _to_fraction("p", "0.5")
    assert exc.value.value == "0.5"
    with pytest.raises(InvalidParameter) as exc:
        _to_fraction("p", math.inf)
    assert exc.value.value == math.inf
    c = np.zeros((3, 2))
    with pytest.raises(InvalidParameter) as exc:
        check_same_shape(["P", "Q"], [np.zeros((2, 3)), c])
    assert exc.value.value is c
    with pytest.raises(InvalidParameter) as exc:
        check_real_array("x", ["a", 1])
    assert exc.value.name == "x" and exc.value.value == ["a", 1]


def test_table_paths_around_the_tolerance() -> None:
    # a NaN entry: refused by the sign check's finiteness test
    with pytest.raises(InvalidParameter) as exc:
        as_table("P", [0.5, math.nan], ndim=1, exact=False)
    assert exc.value.name == "P" and exc.value.allowed.endswith("with finite entries")
    # an infinite entry in a row-stochastic matrix: caught by the rows' recheck
    with pytest.raises(InvalidParameter) as exc:
        as_table("P", [[0.5, 0.5], [math.inf, 1.0]], ndim=2, exact=False, stochastic_rows=True)
    assert str(exc.value) == (
        "P=[[0.5, 0.5], [inf, 1.0]] is invalid: must be a row-stochastic matrix (2-D, rows: datasets, "
        "columns: outputs) with finite entries (NaN or infinity found)"
    )
    # a row off by exactly tol is within (exact fsum), and a table summing to 2 is refused
    gap = 2.0**-30
    rows = as_table("P", [[0.5, 0.5 + gap]], ndim=2, exact=False, stochastic_rows=True, tol=gap)
    assert rows.tolist() == [[0.5, 0.5 + gap]]
    with pytest.raises(InvalidParameter) as exc:
        as_table("P", [1.0, 1.0], ndim=1, exact=False)
    assert "sums to 2.0" in str(exc.value)


def test_more_exact_log_cases() -> None:
    import mpmath

    from maxinfo_bounds.numeric import ExactLog

    assert ExactLog(Fraction(2)).enclosure() == (1.0, 1.0)  # log2 2 = 1, not 0
    assert ExactLog(Fraction(8), "nats").le(Fraction(5, 2))  # ln 8 = 2.079 (not log2 8 = 3)
    assert not ExactLog(Fraction(8), "nats").le(Fraction(2))
    # near-ties with ln 2 at 10^-25: separated by raising the working precision
    mpmath.mp.dps = 60
    ln2 = Fraction(mpmath.nstr(mpmath.log(2), 50))
    assert not log_le(Fraction(2), ln2 - Fraction(1, 10**25))
    assert log_le(Fraction(2), ln2 + Fraction(1, 10**25))
    assert log_le(Fraction(2), Fraction(1)) and not log_le(Fraction(3), Fraction(1))  # ln 2 < 1 < ln 3


def test_contexts_and_entries_keep_shapes(monkeypatch: pytest.MonkeyPatch) -> None:
    from maxinfo_bounds.numeric.contexts import to_public
    from maxinfo_bounds.numeric.rounding import certify_entries
    from maxinfo_bounds.numeric.validate import free_cpus

    assert to_public(1.5) == 1.5 and to_public("x") == "x"  # not an mpf: unchanged
    out = certify_entries(
        np.zeros((2, 2)), np.array([[False, True], [True, False]]), lambda a: a + 0.5, np.ones((2, 2))
    )
    assert out.shape == (2, 2) and out.tolist() == [[0.0, 1.5], [1.5, 0.0]]
    monkeypatch.setattr("maxinfo_bounds.numeric.validate.os.cpu_count", lambda: None)
    assert free_cpus(busy=0.0) == 1  # an unknown CPU count: one


def test_private_contexts_are_one_per_thread_cached_and_public_values_exact() -> None:
    """:mod:`maxinfo_bounds.numeric.contexts`: each thread has one multiprecision and one interval
    context of its own, made once and then reused (never the global ``mpmath.mp`` / ``mpmath.iv``,
    never a fresh one per call), another thread another pair; ``to_public`` hands a private mpf
    over as the global context's class with the same bits (a 300-bit 1/3, not re-rounded to
    the global 53); ``is_mpf`` is True for a real of either context and False otherwise."""
    import threading

    import mpmath
    from mpmath.ctx_iv import MPIntervalContext
    from mpmath.ctx_mp import MPContext

    from maxinfo_bounds.numeric.contexts import is_mpf, iv_ctx, mp_ctx, to_public

    mine, mine_iv = mp_ctx(), iv_ctx()
    assert isinstance(mine, MPContext) and isinstance(mine_iv, MPIntervalContext)
    assert mine is not mpmath.mp and mine_iv is not mpmath.iv
    assert mp_ctx() is mine and iv_ctx() is mine_iv
    seen: dict[str, object] = {}

    def other_thread() -> None:  # a fresh thread: its contexts are made here, on first use
        seen["mp"], seen["iv"] = mp_ctx(), iv_ctx()
        seen["cached"] = mp_ctx() is seen["mp"] and iv_ctx() is seen["iv"]
        seen["kinds"] = isinstance(seen["mp"], MPContext) and isinstance(seen["iv"], MPIntervalContext)

    th = threading.Thread(target=other_thread)
    th.start()
    th.join()
    assert seen["mp"] is not mine and seen["iv"] is not mine_iv and seen["cached"] is seen["kinds"] is True
    with mine.workprec(300):
        third = mine.mpf(1) / 3
    public = to_public(third)
    assert type(public) is type(mpmath.mpf(1)) and type(third) is not type(public)
    assert public._mpf_ == third._mpf_ and public._mpf_[3] == 300  # every bit kept
    assert is_mpf(third) and is_mpf(public) and is_mpf(mpmath.mpf(2))
    assert not is_mpf(2.0) and not is_mpf(Fraction(1, 3)) and not is_mpf(mpmath.mpc(1, 1))
    assert not is_mpf(mpmath.iv.mpf(1))


def test_check_real_keeps_exact_what_a_double_would_round_and_nothing_else() -> None:
    """check_real's types: an int (Python or numpy) comes back as a Fraction, exact; a numpy
    longdouble (64-bit mantissa here) that a double holds exactly comes back as that float,
    one a double would round (1/3) or overflow (1e400) as its exact Fraction; a float32 as a
    float."""
    from maxinfo_bounds.numeric.validate import check_real

    for n in (3, np.int64(3)):
        got = check_real("n", n)
        assert type(got) is Fraction and got == 3
    half = check_real("x", np.longdouble(0.5))
    assert type(half) is float and half == 0.5
    if np.finfo(np.longdouble).nmant > 52:  # an extended longdouble (x86-64, not every platform)
        third = np.longdouble(1) / np.longdouble(3)
        got = check_real("x", third)
        assert type(got) is Fraction and got == Fraction(*third.as_integer_ratio()) != Fraction(1 / 3)
        big = check_real("x", np.longdouble("1e400"))
        assert type(big) is Fraction and Fraction(999, 1000) * 10**400 < big < Fraction(1001, 1000) * 10**400
    f32 = check_real("x", np.float32(0.5))
    assert type(f32) is float and f32 == 0.5


def test_unwritable_output_refused_in_one_line(tmp_path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    # /proc takes no new files, even for root
    with pytest.raises(InvalidParameter) as exc:
        check_output_file("plot", "/proc/maxinfo-probe.png")
    assert exc.value.value == "/proc/maxinfo-probe.png"
    assert exc.value.allowed.startswith("a writable file (") and "Errno" not in exc.value.allowed
    fig, other = plt.figure(), plt.figure()  # the figure saved is not the current one
    target = tmp_path / "missing" / "f.png"
    with pytest.raises(InvalidParameter) as exc:
        save_figure(fig, "plot", target)
    assert exc.value.value == str(target)
    assert exc.value.allowed == "a writable file (No such file or directory)"
    assert not plt.fignum_exists(fig.number) and plt.fignum_exists(other.number)
    plt.close(other)


# --------------------------------------------------------------------------------------------
# directed rounding and the texts (the functions every other test calls: their mutants are the
# costliest to run, so each is held here by value)


def test_directed_rounding_by_value() -> None:
    import mpmath

    from maxinfo_bounds.numeric.rounding import float_down, float_up

    third = Fraction(1, 3)
    lo, hi = float_down(third), float_up(third)
    assert hi == math.nextafter(lo, 1.0) and Fraction(lo) < third < Fraction(hi)
    assert float_down(Fraction(1, 2)) == float_up(Fraction(1, 2)) == 0.5  # exact: no step
    assert float_down(-third) == -hi and float_up(-third) == -lo
    assert float_down(10**400) == np.finfo(np.float64).max and float_up(10**400) == math.inf
    assert float_up(-(10**400)) == -np.finfo(np.float64).max and float_down(-(10**400)) == -math.inf
    # below the normal floats: the result brackets the value by one subnormal step
    tiny = Fraction(3, 2) * Fraction(2) ** -1074  # 1.5 subnormal units
    assert float_down(tiny) == 5e-324 and float_up(tiny) == 1e-323
    assert float_down(Fraction(1, 2**1080)) == 0.0 and float_up(Fraction(1, 2**1080)) == 5e-324
    with mpmath.workprec(300):
        x = mpmath.mpf(2) ** -1 + mpmath.mpf(2) ** -200  # just above 1/2: not a float
    assert float_down(x) == 0.5 and float_up(x) == math.nextafter(0.5, 1.0)
    assert float_down(7) == 7.0 == float_up(7) and float_up(2.5) == 2.5
    nan = mpmath.mpf("nan")
    for f in (float_down, float_up):
        with pytest.raises(InvalidParameter) as exc:
            f(nan)
        assert exc.value.name == "x" and exc.value.allowed == "a number (NaN cannot be rounded)"
        assert exc.value.value is nan


def test_decimal_text_by_value() -> None:
    from maxinfo_bounds.numeric.rounding import decimal_text

    assert decimal_text(0.0, "up") == "0.0" and decimal_text(math.inf, "down") == "inf"
    assert decimal_text(-0.0, "up") == "-0.0" and decimal_text(math.nan, "up") == "nan"
    assert decimal_text(12.0, "up") == "12" and decimal_text(-3.0, "down") == "-3"
    assert decimal_text(1e15, "up") == "1000000000000000.0"  # not below 1e15: its short repr
    assert decimal_text(0.025, "up") == "0.025" and decimal_text(0.025, "down") == "0.025"
    assert decimal_text(2 / 3, "up") == "0.666667" and decimal_text(2 / 3, "down") == "0.666666"
    assert decimal_text(-2 / 3, "up") == "-0.666666" and decimal_text(-2 / 3, "down") == "-0.666667"
    assert decimal_text(2 / 3, "up", digits=3) == "0.667" and decimal_text(2 / 3, "down", digits=3) == "0.666"
    assert decimal_text(123456.789, "up") == "123457" and decimal_text(123456.789, "down") == "123456"
    assert decimal_text(1234567.891, "up") == "1234570" and decimal_text(1234567.891, "down") == "1234560"
    assert decimal_text(1 / 3 * 1e-7, "up") == "3.33334e-08" and decimal_text(1 / 3 * 1e-7, "down") == "3.33333e-08"
    assert decimal_text(1 / 3 * 1e20, "up") == "3.33334e+19"
    assert decimal_text(-1 / 3 * 1e-7, "down") == "-3.33334e-08"
    assert decimal_text(1 / 3 * 1e-4, "up") == "3.33334e-05"  # below 1e-4: exponent form
    assert decimal_text(1 / 3 * 1e-3, "up") == "0.000333334"  # from 1e-4 on: positional
    # 2^60/3 as a double is the integer 384307168202282304 (>= 1e15: six digits, exponent form)
    assert decimal_text(2.0**60 / 3, "up") == "3.84308e+17" and decimal_text(2.0**60 / 3, "down") == "3.84307e+17"
    # the side is "up" or "down", nothing else (a misspelt side used to round down silently)
    for bad in ("DOWN", "Up", "", None):
        with pytest.raises(InvalidParameter) as e:
            decimal_text(2 / 3, bad)  # type: ignore[arg-type]
        assert str(e.value) == f"side={bad!r} is invalid: must be 'up' or 'down'"


def test_scalar_checks_by_message() -> None:
    from maxinfo_bounds.numeric.validate import check_int, check_real

    assert check_real("a", 0.5, low=0, high=1) == 0.5 and check_real("a", 1, low=0, high=1) == Fraction(1)
    assert check_real("a", Fraction(1, 3), low=0, high=1) == Fraction(1, 3)
    assert check_real("a", np.float64(0.25)) == 0.25 and check_real("a", np.array(0.75)) == 0.75
    assert check_real("a", 0.0, low=0) == 0.0 and check_real("a", 1.0, high=1) == 1.0
    cases = [
        (dict(x=-0.5, low=0), "a=-0.5 is invalid: must be a real number in [0, inf)"),
        (dict(x=0.0, low=0, low_open=True), "a=0.0 is invalid: must be a real number in (0, inf)"),
        (dict(x=1.0, high=1, high_open=True), "a=1.0 is invalid: must be a real number in (-inf, 1)"),
        (dict(x=1.5, high=1), "a=1.5 is invalid: must be a real number in (-inf, 1]"),
        (dict(x=math.nan), "a=nan is invalid: must be a real number in (-inf, inf)"),
        (dict(x=math.inf), "a=inf is invalid: must be a real number in (-inf, inf)"),
        (dict(x=-math.inf), "a=-inf is invalid: must be a real number in (-inf, inf)"),
        (dict(x=True), "a=True is invalid: must be a real number in (-inf, inf)"),
        (dict(x="1"), "a='1' is invalid: must be a real number in (-inf, inf)"),
        (
            dict(x=Fraction(3, 2), low=0, high=Fraction(1, 2)),
            "a=Fraction(3, 2) is invalid: must be a real number in [0, 1/2]",
        ),
        (dict(x=2, low=0.5, high=1.5), "a=2 is invalid: must be a real number in [0.5, 1.5]"),
    ]
    for kw, message in cases:
        with pytest.raises(InvalidParameter) as exc:
            check_real("a", **kw)  # type: ignore[arg-type]
        assert str(exc.value) == message
    # longdouble beyond a double is kept exact (a bound certified for the value given)
    ld = np.longdouble(1) / np.longdouble(3)
    v = check_real("a", ld)
    assert (isinstance(v, Fraction) and v == Fraction(*ld.as_integer_ratio())) or np.finfo(np.longdouble).nmant <= 52
    assert check_int("k", 3) == 3 and check_int("k", np.int64(4), low=4, high=4) == 4
    assert check_int("k", np.array(5)) == 5
    for x, kw, message in [
        (2.0, {}, "k=2.0 is invalid: must be an integer"),
        (True, {}, "k=True is invalid: must be an integer"),
        (0, {"low": 1}, "k=0 is invalid: must be an integer in [1, inf]"),
        (5, {"high": 4}, "k=5 is invalid: must be an integer in [-inf, 4]"),
        (9, {"low": 1, "high": 8}, "k=9 is invalid: must be an integer in [1, 8]"),
    ]:
        with pytest.raises(InvalidParameter) as exc:
            check_int("k", x, **kw)
        assert str(exc.value) == message


def test_iv_prec_and_lists() -> None:
    from maxinfo_bounds.numeric.rounding import iv_prec
    from maxinfo_bounds.numeric.validate import as_nonempty_list, is_array

    assert iv_prec(15) == 73 and iv_prec(30) == 123 and iv_prec(10_000) == 33243  # 3.32 bits a digit + 24
    for dps in (14, 10_001):
        with pytest.raises(InvalidParameter) as exc:
            iv_prec(dps)
        assert str(exc.value) == f"dps={dps} is invalid: must be an integer in [15, 10000]"
    assert as_nonempty_list("xs", (1, 2), "numbers") == [1, 2]
    with pytest.raises(InvalidParameter) as exc:
        as_nonempty_list("xs", 3, "numbers")
    assert str(exc.value) == "xs=3 is invalid: must be a sequence of numbers"
    with pytest.raises(InvalidParameter) as exc:
        as_nonempty_list("xs", iter(()), "numbers")
    assert str(exc.value) == "xs=[] is invalid: must be a non-empty sequence of numbers"
    assert is_array([1.0]) and is_array(0.5, np.zeros(2)) and not is_array(0.5, np.float64(1.0), np.array(2.0))
    assert is_array((1, 2)) and is_array([])  # an empty list is still an array argument


def test_last_numeric_survivors() -> None:
    import mpmath

    from maxinfo_bounds.numeric.rounding import decimal_text, enclosure

    with pytest.raises(InvalidParameter) as exc:
        _to_fraction("p", True)
    assert exc.value.value is True
    with pytest.raises(InvalidParameter) as exc:
        as_table("P", [0.5, math.nan], ndim=1, exact=False)
    assert str(exc.value) == (
        "P=[0.5, nan] is invalid: must be a probability vector (1-D) with finite entries (NaN or infinity found)"
    )
    # a repr of exactly six significant digits is printed as it is, on either side
    assert decimal_text(0.123456, "down") == "0.123456" == decimal_text(0.123456, "up")
    # enclosure: a plain number is taken as its own interval (mpmath's interval context turns a
    # NaN into (-inf, inf), so the NaN refusal after it is not reachable through it)
    assert enclosure(lambda iv: 1) == (1.0, 1.0) and enclosure(lambda iv: 0.5) == (0.5, 0.5)
    assert enclosure(lambda iv: mpmath.mpf("nan")) == (-math.inf, math.inf)


def test_exact_sum_against_fractions() -> None:
    """exact_sum (integer shifts for floats) against the definition summed in Fractions: seeded
    random terms mixing floats of every binade (subnormal to 1e300, both signs), integer counts
    of both signs and Fractions, at powers 1, 2 and 3; and the empty sum."""
    from maxinfo_bounds.numeric.rounding import exact_sum

    rng = np.random.default_rng(20261127)
    assert exact_sum([]) == 0 and exact_sum([], power=3) == 0
    for trial in range(60):
        terms: list[tuple[int, float | Fraction]] = []
        for _ in range(int(rng.integers(1, 12))):
            c = int(rng.integers(-5, 6))
            kind = rng.integers(0, 4)
            if kind == 0:
                x: float | Fraction = float(rng.uniform(-1, 1))
            elif kind == 1:
                x = float(rng.uniform(0.5, 2.0)) * 2.0 ** int(rng.integers(-1070, 1000))
            elif kind == 2:
                x = Fraction(int(rng.integers(-50, 50)), int(rng.integers(1, 50)))
            else:
                x = float(int(rng.integers(-(2**40), 2**40)))
            terms.append((c, x))
        for power in (1, 2, 3):
            if power > 1 and any(isinstance(x, float) and abs(x) > 1e100 for _, x in terms):
                continue  # (the reference is exact either way; this only keeps the test fast)
            want = sum((c * Fraction(x) ** power for c, x in terms), Fraction(0))
            assert exact_sum(terms, power=power) == want, (trial, power, terms)
    # a float with a larger denominator after a smaller one, and the other way round
    assert exact_sum([(1, 0.5), (1, 2.0**-60)]) == Fraction(1, 2) + Fraction(1, 2**60)
    assert exact_sum([(1, 2.0**-60), (3, 0.5)]) == Fraction(3, 2) + Fraction(1, 2**60)
    assert exact_sum([(2, 0.75), (1, Fraction(1, 3))], power=2) == Fraction(9, 8) + Fraction(1, 9)


def test_scipy_special_fast_path_in_a_fresh_process() -> None:
    """special._fast in a fresh interpreter (in this process scipy.special is already imported,
    so it returns None here): it imports scipy.special._ufuncs alone, every ufunc the project uses
    is callable, the stand-in package is gone from sys.modules afterwards, a later import of
    scipy.special gives the same ufunc objects, and I_x(1, 1) = x; with scipy.special imported
    first, or with a second thread running, it returns None."""
    import subprocess
    import sys

    import scipy.special  # noqa: F401  (imported here: the fast path must decline)

    from maxinfo_bounds.numeric.special import _fast

    # in-process (this also maps the test to _fast for mutation runs, whose per-test coverage
    # sees only this process; the subprocess inherits the mutant under test)
    assert _fast() is None
    code = r"""
import sys, threading
from maxinfo_bounds.numeric.special import UFUNCS, _fast
mod = _fast()
assert mod is not None and mod.__name__ == "scipy.special._ufuncs", mod
assert "scipy.special" not in sys.modules
assert all(callable(getattr(mod, n)) for n in UFUNCS)
assert float(mod.betainc(1.0, 1.0, 0.25)) == 0.25 and float(mod.ndtr(0.0)) == 0.5
import scipy.special
assert all(getattr(scipy.special, n) is getattr(mod, n) for n in UFUNCS)
assert _fast() is None
print("ok")
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr
    threads = r"""
import threading, time, sys
from maxinfo_bounds.numeric.special import _fast
ev = threading.Event()
t = threading.Thread(target=ev.wait)
t.start()
r = _fast()
ev.set(); t.join()
assert r is None and "scipy.special" not in sys.modules
print("ok")
"""
    out = subprocess.run([sys.executable, "-c", threads], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


def test_error_classes_by_message() -> None:
    """The three refusal classes: their messages word for word and the fields callers read
    (the CLI names the parameter from them)."""
    from maxinfo_bounds.numeric.errors import MissingParameter, RegimeError

    m = MissingParameter("n", "the number of records, needed with eps")
    assert str(m) == "missing n: the number of records, needed with eps"
    assert (m.name, m.value, m.allowed) == ("n", None, "the number of records, needed with eps")
    assert isinstance(m, InvalidParameter) and isinstance(m, ValueError)
    r = RegimeError("RRST-3.1", "eps", 0.75, "eps <= 1/2")
    assert str(r) == "RRST-3.1 does not apply: it requires eps <= 1/2, got eps=0.75"
    assert (r.theorem, r.name, r.value, r.condition) == ("RRST-3.1", "eps", 0.75, "eps <= 1/2")
    long = RegimeError("T", "x", "y" * 100, "c")
    assert str(long) == "T does not apply: it requires c, got x='" + "y" * 76 + "..."
    a = RegimeError("T", "x", np.zeros((2, 3)), "c")
    assert str(a) == "T does not apply: it requires c, got x=<array shape=(2, 3) dtype=float64>"
    i = InvalidParameter("beta", 1.5, "a real number in [0, 1)", "a detail")
    assert str(i) == "beta=1.5 is invalid: must be a real number in [0, 1) (a detail)"


def test_as_mpf_converts_every_input_type_exactly() -> None:
    """The conversion behind float_up/float_down, for each input type, by the directed roundings
    it must give (the smallest double at or above, the largest at or below the exact value):
    an mpf of 300 bits passes through unchanged; an integer beyond 2^256; a Decimal (0.1 lies
    below the double 0.1); a numpy longdouble; a Fraction within 2^-200 above a double, which a
    conversion at too few bits would round onto the double itself."""
    from decimal import Decimal

    import mpmath

    from maxinfo_bounds.numeric.rounding import _as_mpf, float_down, float_up

    with mpmath.workprec(300):
        third = mpmath.mpf(1) / 3
    assert _as_mpf(third)._mpf_ == third._mpf_
    big = 2**300 + 1
    assert int(_as_mpf(big)) == big and int(_as_mpf(np.int64(-7))) == -7
    assert float_up(Decimal("0.1")) == 0.1 and float_down(Decimal("0.1")) == math.nextafter(0.1, 0)
    ld = np.longdouble(1) / np.longdouble(3)
    exact = Fraction(*ld.as_integer_ratio())
    assert Fraction(float_down(ld)) <= exact <= Fraction(float_up(ld))
    assert float_up(ld) == math.nextafter(float_down(ld), 1) or Fraction(float_up(ld)) == exact
    f = 0.7
    near = Fraction(f) + Fraction(1, 2**200)
    assert float_down(near) == f and float_up(near) == math.nextafter(f, 1)
    below = Fraction(f) - Fraction(1, 2**200)
    assert float_up(below) == f and float_down(below) == math.nextafter(f, 0)
    # any other number mpmath reads (a decimal string, a sympy Rational) at 256 bits: 0.1 and
    # 1/3 lie strictly between two doubles
    import sympy

    assert (float_up("0.1"), float_down("0.1")) == (0.1, math.nextafter(0.1, 0))
    third_up, third_down = float_up(sympy.Rational(1, 3)), float_down(sympy.Rational(1, 3))
    assert Fraction(third_down) < Fraction(1, 3) < Fraction(third_up) == Fraction(math.nextafter(third_down, 1))
