"""The study's typed model and its file format (``planning/study.py``, issues 41 and 44), in
process: every refusal word for word (the field or file key named, the value, what is allowed),
the defaults the documentation states (records not i.i.d. unless declared, the study named after
its file, steps labelled by position), Kish's design effect rounded up against exact fractions,
and the number of outputs of a description-only analysis by hand."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import pytest

from maxinfo_bounds.planning import PlanError
from maxinfo_bounds.planning.steps import Description, Laplace
from maxinfo_bounds.planning.study import (
    ALTERNATIVES,
    MAX_N,
    MIN_ALPHA,
    TESTS,
    Alternative,
    FinalTest,
    PowerSpec,
    Study,
    check_alpha,
    check_n,
    load_study,
    parse_study,
    read_toml,
    step_key,
    where,
)

D = Description(range_size=4)
STEP_NAMES = (
    "Laplace, Gaussian, Exponential, ReportNoisyMax, SparseVector, Thresholdout, GenericDP, Description, "
    "MutualInformation"
)


def _refused(call, text: str) -> None:
    with pytest.raises(PlanError) as e:
        call()
    assert str(e.value) == text


@pytest.mark.parametrize(
    ("kw", "text"),
    [
        ({"test": "q"}, "test: 'q' is not a test; allowed: z, t, t2, proportion"),
        ({"test": 3}, "test: must be a string, one of z, t, t2, proportion; got 3"),
        ({"alternative": "up"}, "alternative: 'up' is invalid; allowed: two-sided, larger, smaller"),
        ({"alternative": None}, "alternative: must be a string, one of two-sided, larger, smaller; got None"),
        ({"effect_size": 0}, "effect_size: 0 is invalid: must be non-zero (the effect to detect)"),
        ({"effect_size": 0.0}, "effect_size: 0 is invalid: must be non-zero (the effect to detect)"),
        ({"effect_size": math.inf}, "effect_size: inf is invalid: must be a real number in (-inf, inf)"),
        (
            {"effect_size": -0.1, "alternative": "larger"},
            "effect_size: -0.1 is invalid: a one-sided test ('larger') detects only an effect of sign +",
        ),
        (
            {"effect_size": 0.1, "alternative": "smaller"},
            "effect_size: 0.1 is invalid: a one-sided test ('smaller') detects only an effect of sign -",
        ),
        ({"test": "proportion"}, "p0: None is invalid: the null proportion of a 'proportion' test, in (0, 1)"),
        ({"test": "proportion", "p0": 1.0}, "p0: 1.0 is invalid: must be a real number in (0, 1)"),
        (
            {"test": "proportion", "p0": 0.5, "effect_size": 0.5},
            "effect_size: 0.5 is invalid: p0 + effect_size (the true proportion) must be in (0, 1), p0 = 0.5",
        ),
        (
            {"test": "proportion", "p0": 0.5, "effect_size": -0.5},
            "effect_size: -0.5 is invalid: p0 + effect_size (the true proportion) must be in (0, 1), p0 = 0.5",
        ),
        ({"p0": 0.5}, "p0: only for test = 'proportion', not 'z'"),
        ({"target": 1}, "target: 1 is invalid: must be a real number in (0, 1)"),
        ({"target": 0}, "target: 0 is invalid: must be a real number in (0, 1)"),
        ({"split_fraction": 0}, "split_fraction: 0 is invalid: must be a real number in (0, 1)"),
        ({"split_fraction": 1}, "split_fraction: 1 is invalid: must be a real number in (0, 1)"),
        ({"design_effect": 0.5}, "design_effect: 0.5 is invalid: must be a real number in [1, 1000000]"),
        ({"design_effect": 2e6}, "design_effect: 2000000.0 is invalid: must be a real number in [1, 1000000]"),
    ],
)
def test_power_spec_refusals_word_for_word(kw, text):
    args = {"test": "z", "effect_size": 0.1, **kw}
    _refused(lambda: PowerSpec(**args), text)


def test_power_spec_accepts_its_edges_and_stores_typed_values():
    """The ranges' closed ends are accepted (design effect 1 and 10^6); the enums are stored as
    members, the numbers as floats; one-sided effects of the right sign; p1 = p0 + effect."""
    s = PowerSpec(test="t2", effect_size=-2, alternative="smaller", design_effect=1)
    assert s.test is FinalTest.T2 and s.alternative is Alternative.SMALLER
    assert (s.effect_size, s.design_effect, s.target, s.split_fraction) == (-2, 1, 0.8, 0.5)
    assert PowerSpec(test="z", effect_size=0.3, alternative="larger", design_effect=1e6).design_effect == 1e6
    p = PowerSpec(test="proportion", effect_size=-0.25, p0=0.75, alternative="two-sided")
    assert p.p0 == 0.75 and p.p1 == 0.5 and p.test is FinalTest.PROPORTION
    assert TESTS == ("z", "t", "t2", "proportion") and ALTERNATIVES == ("two-sided", "larger", "smaller")


@pytest.mark.parametrize(
    ("kw", "text"),
    [
        ({"n": 0}, "n: 0 is invalid: must be an integer in [1, 9007199254740992]"),
        ({"n": MAX_N + 1}, "n: 9007199254740993 is invalid: must be an integer in [1, 9007199254740992]"),
        ({"iid": "no"}, "iid: must be true or false, got 'no'"),
        ({"alpha": 1e-301}, "alpha: 1e-301 is invalid: must be a real number in [1e-300, 1)"),
        ({"alpha": 1.0}, "alpha: 1.0 is invalid: must be a real number in [1e-300, 1)"),
        ({"steps": ()}, f"steps: must be a non-empty sequence of steps ({STEP_NAMES}), got ()"),
        ({"steps": 3}, f"steps: must be a non-empty sequence of steps ({STEP_NAMES}), got 3"),
        ({"steps": (D, 3)}, "steps[1]: must be a step (Laplace, Gaussian, ..., Description), got 3"),
        ({"family_size": 0}, "family_size: 0 is invalid: must be an integer >= 1"),
        ({"name": 3}, "name: must be a string, got 3"),
        ({"source": None}, "source: must be a string, got None"),
        ({"power": 3}, "power: must be a PowerSpec or None, got 3"),
        (
            {"alpha": 0.5, "power": PowerSpec(test="z", effect_size=0.1, target=0.5)},
            "power.target: 0.5 is invalid: must be above test.alpha = 0.5 (a test at level alpha that ignores "
            "the data already rejects with probability alpha)",
        ),
    ],
)
def test_study_refusals_word_for_word(kw, text):
    args = {"n": 10, "alpha": 0.05, "steps": (D,), **kw}
    _refused(lambda: Study(**args), text)


def test_study_defaults_and_accepted_edges():
    """Not i.i.d. unless declared, named "study" from "<study>", no family, no power; a list of
    steps stored as a tuple; n = 2^53 and alpha = 1e-300 accepted (the ranges' closed ends), a
    target just above alpha accepted."""
    s = Study(n=MAX_N, alpha=MIN_ALPHA, steps=[D])
    assert (s.iid, s.name, s.source, s.family_size, s.power) == (False, "study", "<study>", None, None)
    assert s.steps == (D,) and isinstance(s.steps, tuple) and s.n == 2**53 and s.alpha == 1e-300
    assert Study(n=1, alpha=0.5, steps=(D,), power=PowerSpec(test="z", effect_size=1, target=0.51)).power.target == 0.51
    assert Study(n=5, alpha=0.05, steps=(D,), family_size=7).family_size == 7
    assert (check_n(12), check_alpha(0.25)) == (12, 0.25)


def test_description_bits_by_hand():
    """log2 of the number of outputs: 3 runs of a 4-way choice and one 8-way choice give
    4^3 * 8 = 2^9 outputs; any step that is not a description makes the count infinite."""
    two = (Description(range_size=4, times=3), Description(range_size=8))
    assert Study(n=10, alpha=0.05, steps=two).description_bits() == 9.0
    mixed = (*two, Laplace(sensitivity=1.0, eps=0.1))
    assert Study(n=10, alpha=0.05, steps=mixed).description_bits() == math.inf


def test_where_and_step_key():
    assert where("f.toml", "data.n") == "f.toml: data.n"
    assert step_key(2, "step") == "steps[2]"
    assert step_key(2, "eps") == "steps[2].eps"
    assert step_key(2, "steps[0].eps") == "steps[0].eps"


BASE = {"data": {"n": 100, "iid": True}, "test": {"alpha": 0.05}, "steps": [{"type": "description", "range_size": 4}]}


def _doc(**kw: object) -> dict[str, object]:
    d = {**BASE, **kw}
    return {k: v for k, v in d.items() if v is not None}


@pytest.mark.parametrize(
    ("doc", "text"),
    [
        ([], "must be a table of tables, got []"),
        (
            _doc(estimate={}),
            "estimate: is an estimation study (k adaptive queries): run `maxinfo estimate --study FILE` "
            "(docs/estimate.md)",
        ),
        (_doc(other={}), "other: unknown table; allowed: data, power, steps, study, test"),
        (_doc(study=3), "study: must be a table"),
        (_doc(study={"nam": 1}), "study.nam: unknown key; allowed: name, family_size"),
        (_doc(data=None), "data: missing table [data] with n and iid"),
        (_doc(data=3), "data: must be a table"),
        (_doc(data={"n": 1, "x": 2}), "data.x: unknown key; allowed: n, iid, cluster_size, icc"),
        (_doc(data={"iid": True}), "data.n: missing: the number of records (integer >= 1)"),
        (_doc(test=None), "test.alpha: missing: the final test's significance in (0, 1)"),
        (_doc(test=3), "test.alpha: missing: the final test's significance in (0, 1)"),
        (_doc(test={"alph": 1}), "test.alpha: missing: the final test's significance in (0, 1)"),
        (_doc(test={"alpha": 0.05, "x": 1}), "test.x: unknown key; allowed: alpha"),
        (_doc(steps=[]), "steps: missing: at least one [[steps]] table"),
        (_doc(steps={}), "steps: missing: at least one [[steps]] table"),
        (_doc(steps=[3]), "steps[0]: must be a table"),
        (
            _doc(steps=[{"type": "description", "range_size": 4}, {"type": "laplace", "eps": -1, "sensitivity": 1}]),
            "steps[1].eps: -1 is invalid: must be a real number in (0, inf)",
        ),
        (_doc(power=3), "power: must be a table"),
        (
            _doc(power={"tst": "z"}),
            "power.tst: unknown key; allowed: test, alternative, effect_size, p0, target, split_fraction, "
            "design_effect",
        ),
        (_doc(power={"effect_size": 0.1}), "power.test: missing: one of z, t, t2, proportion"),
        (_doc(power={"test": "z"}), "power.effect_size: missing: Cohen's d (z, t, t2) or p1 - p0 (proportion)"),
        (
            _doc(power={"test": "z", "effect_size": 0.1, "target": 2}),
            "power.target: 2 is invalid: must be a real number in (0, 1)",
        ),
        (_doc(data={"n": 0}), "data.n: 0 is invalid: must be an integer in [1, 9007199254740992]"),
        (_doc(data={"n": 10, "iid": "y"}), "data.iid: must be true or false, got 'y'"),
        (_doc(test={"alpha": 2}), "test.alpha: 2 is invalid: must be a real number in [1e-300, 1)"),
        (_doc(study={"family_size": 0}), "study.family_size: 0 is invalid: must be an integer >= 1"),
        (
            _doc(power={"test": "z", "effect_size": 0.1, "target": 0.01}),
            "power.target: 0.01 is invalid: must be above test.alpha = 0.05 (a test at level alpha that ignores "
            "the data already rejects with probability alpha)",
        ),
        (
            _doc(data={"n": 10, "iid": False, "cluster_size": 5}),
            "data.icc: missing: given with data.cluster_size (the design effect needs both)",
        ),
        (
            _doc(data={"n": 10, "iid": False, "icc": 0.1}),
            "data.cluster_size: missing: given with data.icc (the design effect needs both)",
        ),
        (
            _doc(data={"n": 10, "iid": True, "icc": 0.1, "cluster_size": 5}),
            "data.cluster_size: clustered records are not i.i.d.: set iid = false with cluster_size and icc",
        ),
        (
            _doc(data={"n": 10, "icc": 0.1, "cluster_size": 0.5}),
            "data.cluster_size: 0.5 is invalid: must be a real number in [1, 1000000000]",
        ),
        (
            _doc(data={"n": 10, "icc": 1.5, "cluster_size": 5}),
            "data.icc: 1.5 is invalid: must be a real number in [0, 1]",
        ),
        (
            _doc(
                data={"n": 10, "icc": 0.1, "cluster_size": 5},
                power={"test": "z", "effect_size": 0.1, "design_effect": 2},
            ),
            "power.design_effect: given twice: [data] cluster_size and icc already set it",
        ),
        (
            _doc(steps=[{"type": "thresholdout", "holdout_n": 7, "sigma": 0.01, "budget": 10}]),
            "steps[0].holdout_n: 7 differs from data.n = 100: describe the holdout set (the data the final test "
            "uses) in [data]",
        ),
    ],
)
def test_study_file_refusals_name_the_file_and_key(doc, text):
    _refused(lambda: parse_study(doc, "f.toml"), f"f.toml: {text}")


def test_study_file_defaults():
    """What docs/planner.md states: iid defaults to false, the study is named after its file's
    stem unless [study] name is given (a non-string name is kept as text), steps without a label
    are labelled by their position and type, a holdout_n equal to data.n is accepted, no
    [power] table means no power plan, and a description count as [study] family_size."""
    s = parse_study(_doc(data={"n": 10}), "dir/my_study.toml")
    assert (s.iid, s.name, s.source, s.power, s.family_size) == (False, "my_study", "dir/my_study.toml", None, None)
    assert parse_study(_doc(study={"name": 5}), "f.toml").name == "5"
    assert parse_study(_doc(study={"name": "mine", "family_size": 3}), "f.toml").family_size == 3
    two = parse_study(
        _doc(
            steps=[{"type": "description", "range_size": 4}, {"type": "description", "range_size": 8, "label": "mine"}]
        ),
        "f.toml",
    ).steps
    assert [st.label for st in two] == ["steps[0] (description)", "mine"]
    t = parse_study(_doc(steps=[{"type": "thresholdout", "holdout_n": 100, "sigma": 0.01, "budget": 10}]), "f.toml")
    assert t.steps[0].holdout_n == 100
    p = parse_study(_doc(power={"test": "t", "effect_size": 0.2, "alternative": "larger"}), "f.toml").power
    assert p == PowerSpec(test="t", effect_size=0.2, alternative="larger")
    assert parse_study(BASE).source == "<study>" and parse_study(BASE).name == "<study>"


@pytest.mark.parametrize(("m", "icc"), [(5, 0.1), (4, 0.1), (9, 0.125), (1, 0.9), (30, 0.0)])
def test_design_effect_is_kish_s_rounded_up(m, icc):
    """1 + (m - 1) ICC from the two [data] keys, rounded up to a float (the power is computed on
    floor(n / design_effect) records, so it is never overstated): the smallest float at or above
    the exact value of the two floats as given. At m = 5, ICC = 0.1 the exact value is
    1.40000000000000002220..., above the float 1.4 (1.39999999999999991118...), so the next float
    up; at m = 4 the exact 1.30000000000000001665... is below the float 1.3, which is kept. Records
    declared clustered need no [power] table (the design effect is then unused)."""
    exact = 1 + (Fraction(m) - 1) * Fraction(icc)
    doc = _doc(data={"n": 10, "icc": icc, "cluster_size": m}, power={"test": "z", "effect_size": 0.1})
    got = parse_study(doc, "f.toml").power.design_effect
    assert Fraction(got) >= exact and Fraction(math.nextafter(got, 0)) < exact
    assert parse_study(_doc(data={"n": 10, "icc": icc, "cluster_size": m}), "f.toml").power is None
    assert not parse_study(doc, "f.toml").iid


def test_design_effect_examples_by_hand():
    doc = _doc(data={"n": 10, "icc": 0.1, "cluster_size": 5}, power={"test": "z", "effect_size": 0.1})
    assert parse_study(doc, "f.toml").power.design_effect == math.nextafter(1.4, 2)
    doc = _doc(data={"n": 10, "icc": 0.1, "cluster_size": 4}, power={"test": "z", "effect_size": 0.1})
    assert parse_study(doc, "f.toml").power.design_effect == 1.3


def test_read_toml_refusals_word_for_word(tmp_path):
    _refused(lambda: read_toml(3), "path: must be a file path (str or pathlib.Path), got 3")
    _refused(lambda: read_toml(tmp_path), f"{tmp_path}: is a directory: give a study file (TOML), e.g. examples/*.toml")
    _refused(lambda: read_toml(tmp_path / "nope.toml"), f"{tmp_path / 'nope.toml'}: file not found")
    b = tmp_path / "bin.toml"
    b.write_bytes(b"a = 1\n\xff\xfe")
    _refused(lambda: read_toml(b), f"{b}: not a UTF-8 text file (byte 6): a study file is TOML text")
    bad = tmp_path / "bad.toml"
    bad.write_text("a = = 1\n")
    _refused(lambda: read_toml(bad), f"{bad}: not valid TOML (Invalid value (at line 1, column 5))")
    good = tmp_path / "s.toml"
    good.write_text('[data]\nn = 10\n[test]\nalpha = 0.05\n[[steps]]\ntype = "description"\nrange_size = 2\n')
    assert read_toml(str(good)) == {
        "data": {"n": 10},
        "test": {"alpha": 0.05},
        "steps": [{"type": "description", "range_size": 2}],
    }
    s = load_study(Path(good))
    assert (s.name, s.source, s.n, s.iid) == ("s", str(good), 10, False)


def test_an_unreadable_study_file_is_refused(tmp_path):
    """An OSError other than a missing file (here: a path through a regular file) is refused
    with the system's reason."""
    f = tmp_path / "plain"
    f.write_text("x")
    _refused(lambda: read_toml(f / "s.toml"), f"{f / 's.toml'}: cannot be read (Not a directory)")


def test_validated_values_are_stored_as_python_numbers():
    """A count given as a numpy integer, a level as an exact Fraction a float represents and a
    flag as a numpy bool are stored as int, float and bool (what JSON and the planner's exact
    arithmetic expect), in the study and in its [power] table."""
    import numpy as np

    s = Study(n=np.int64(7), alpha=Fraction(1, 4), iid=np.bool_(True), family_size=np.int64(3), steps=(D,))
    assert (type(s.n), type(s.alpha), type(s.iid), type(s.family_size)) == (int, float, bool, int)
    assert (s.n, s.alpha, s.iid, s.family_size) == (7, 0.25, True, 3)
    p = PowerSpec(
        test="proportion",
        effect_size=Fraction(1, 8),
        p0=Fraction(1, 2),
        target=Fraction(3, 4),
        split_fraction=Fraction(1, 2),
        design_effect=2,
    )
    assert [type(v) for v in (p.effect_size, p.p0, p.target, p.split_fraction, p.design_effect)] == [float] * 5
    assert (p.effect_size, p.p0, p.target, p.split_fraction, p.design_effect) == (0.125, 0.5, 0.75, 0.5, 2.0)
