"""The planning wing's small contracts that the mutation run of stages.py, accountants.py and
study.py found unchecked (issue 44 item 2): refusal texts that name the file and the key, the
derivation lines' wording, Kish's design effect, the basic composition's theorem and its cap at
delta = 1. Expected values are the documented behaviour, written by hand."""

from __future__ import annotations

import pytest

from maxinfo_bounds.numeric import InvalidParameter
from maxinfo_bounds.planning import Exponential, Gaussian, GenericDP, Laplace, PlanError, Study, parse_study
from maxinfo_bounds.planning.accountants import _candidates, composed_mu
from maxinfo_bounds.planning.stages import stages_of
from maxinfo_bounds.planning.study import step_key


def _doc(data: dict) -> dict:
    return {"data": data, "test": {"alpha": 0.05}, "steps": [{"type": "description", "range_size": 4}]}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"n": 100, "cluster_size": 5},
            "f.toml: data.icc: missing: given with data.cluster_size (the design effect needs both)",
        ),
        (
            {"n": 100, "icc": 0.1},
            "f.toml: data.cluster_size: missing: given with data.icc (the design effect needs both)",
        ),
        (
            {"n": 100, "cluster_size": 5, "icc": 0.1, "iid": True},
            "f.toml: data.cluster_size: clustered records are not i.i.d.: set iid = false with cluster_size and icc",
        ),
        (
            {"n": 100, "cluster_size": 0.5, "icc": 0.1},
            "f.toml: data.cluster_size: 0.5 is invalid: must be a real number in [1, 1000000000]",
        ),
        ({"n": 100, "cluster_size": 5, "icc": 2}, "f.toml: data.icc: 2 is invalid: must be a real number in [0, 1]"),
    ],
)
def test_design_effect_refusals_name_the_file_and_the_key(data, message):
    with pytest.raises(PlanError) as exc:
        parse_study(_doc(data), "f.toml")
    assert str(exc.value) == message


@pytest.mark.parametrize(("m", "icc", "deff"), [(5, 0.1, 1.4), (1, 0.9, 1.0), (11, 0.05, 1.5), (3, 1, 3.0)])
def test_design_effect_is_kish_rounded_up(m, icc, deff):
    """Kish's 1 + (m - 1) ICC, rounded up (never below the exact value, within an ulp of it)."""
    from fractions import Fraction

    def power_of(data: dict) -> float:
        doc = _doc(data) | {"power": {"test": "z", "effect_size": 0.3}}
        spec = parse_study(doc, "f.toml").power
        assert spec is not None
        return spec.design_effect

    got = power_of({"n": 100, "cluster_size": m, "icc": icc})
    exact = 1 + (Fraction(m) - 1) * Fraction(icc)
    assert exact <= Fraction(got) and abs(got - deff) <= 2 * abs(deff) * 2**-52
    assert power_of({"n": 100}) == 1.0


def test_step_key_names_what_the_study_file_names():
    assert step_key(2, "step") == "steps[2]"
    assert step_key(2, "eps") == "steps[2].eps"
    assert step_key(2, "steps[5].scale") == "steps[5].scale"


def test_basic_composition_names_dr_3_16_and_caps_delta_at_one():
    """Three runs of (0.01, 0.5): basic composition (DR Thm 3.16) gives delta 1.5, which says no
    more than delta = 1: the guarantee is capped there."""
    g = stages_of(Study(n=1000, alpha=0.05, iid=True, steps=(GenericDP(eps=0.01, delta=0.5, times=3),)))[0].basic()
    assert g.delta == 1.0 and 0.03 <= g.eps <= 0.03 * (1 + 2**-50)
    assert g.theorem == "DR-3.16" and g.conditions == ("3 adaptive steps",)


def test_composed_mu_refuses_a_stage_without_gaussian_runs():
    runs = stages_of(Study(n=1000, alpha=0.05, iid=True, steps=(GenericDP(eps=0.01, times=2),)))[0].runs
    with pytest.raises(InvalidParameter) as exc:
        composed_mu(runs)
    assert str(exc.value) == "runs='no Gaussian run' is invalid: must be a stage with Gaussian runs"


@pytest.mark.parametrize(
    ("steps", "expected"),
    [
        (
            (Exponential(eps=0.01, times=3),),
            [
                ("optimal DP composition of the stage", ("KOV15-3.3",), "3 x (0.01, 0.0)"),
                ("zCDP composition of the stage", ("CR21-BR", "CKS20-12"), "3 runs, rho = sum rho_i = "),
            ],
        ),
        (
            (Exponential(eps=0.01), GenericDP(eps=0.02)),
            [
                ("advanced DP composition of the stage", ("DR-3.20",), "2 runs"),
                (
                    "exact composition of the stage (pure and Gaussian steps)",
                    ("MIX-exact",),
                    "2 runs: pure eps [0.01, 0.02]",
                ),
                (
                    "zCDP composition of the stage",
                    ("CR21-BR", "S24-pure-zCDP", "CKS20-12"),
                    "2 runs, rho = sum rho_i = ",
                ),
            ],
        ),
        (
            (Gaussian(sigma=1.0, sensitivity=1e-3, delta=1e-9),),
            [("exact Gaussian composition of the stage (GDP)", ("DRS22-3.3", "DRS22-2.13"), "1 run, mu = ")],
        ),
        (
            (Laplace(eps=0.01, sensitivity=1e-3, times=2), Gaussian(sigma=1.0, sensitivity=1e-3, delta=1e-9)),
            [
                (
                    "exact composition of the stage (pure and Gaussian steps)",
                    ("MIX-exact", "DRS22-3.3"),
                    "3 runs: pure eps [0.01], Gaussian mu = ",
                ),
                (
                    "zCDP composition of the stage",
                    ("S24-pure-zCDP", "DRS22-2.7", "BS16-1.6", "CKS20-12"),
                    "3 runs, rho = sum rho_i = ",
                ),
            ],
        ),
    ],
)
def test_accountants_derivation_lines(steps, expected):
    """Each accountant that applies, in order, with its theorems and the inputs it names
    ("1 run", "3 runs": the count as written)."""
    runs = stages_of(Study(n=1000, alpha=0.05, iid=True, steps=steps))[0].runs
    got = [(link.what, link.theorems, link.inputs) for _, link in _candidates(runs, 1e-10, True)]
    assert len(got) == len(expected)
    for (what, thms, inputs), (w, t, prefix) in zip(got, expected):
        assert what == w and thms == t and inputs.startswith(prefix), (what, inputs)


def test_int_text_is_exact_below_1e30_and_never_fails_above():
    """Counts of outputs are shown exactly up to 10^30 and as "about" four digits and an exponent
    beyond (2^99999 = 9.99...e+30102 / 2: 4.995e+30102; 10^6000 - 1 rounds to 1e+6000), where
    Python 3.11's str() of an integer refuses more than 4,300 digits."""
    from maxinfo_bounds.numeric import int_text

    assert int_text(12345) == "12345" and int_text(10**30 - 1) == "9" * 30
    assert int_text(10**30) == "about 1e+30" and int_text(2**100) == "about 1.268e+30"
    assert int_text(10**6000 - 1) == "about 1e+6000" and int_text(2**99999) == "about 4.995e+30102"


def test_descriptions_at_the_bit_limit_plan_and_print():
    """A description stage may have up to 100,000 bits of output (2^99999 outputs plans; 2^100000
    is refused as vacuous, naming the file and step); a study file of range_size 10^6, 1,000
    times (a 6,001-digit count) plans from the command line, which once raised on printing it."""
    from maxinfo_bounds.cli import main
    from maxinfo_bounds.planning.stages import stages_of

    def doc(rs: int, times: int, iid: bool = False) -> dict:
        return {
            "data": {"n": 1000, "iid": iid},
            "test": {"alpha": 0.05},
            "steps": [{"type": "description", "range_size": rs, "times": times}],
        }

    assert stages_of(parse_study(doc(2, 99_999), "f.toml"))[0].links[0].output == "about 4.995e+30102 possible outputs"
    with pytest.raises(PlanError) as exc:
        stages_of(parse_study(doc(2, 100_000), "f.toml"))
    assert str(exc.value) == (
        "f.toml: steps[0]: the description stage would have more than 100000 bits of output (range_size^times): "
        "its max-information bound is vacuous; lower range_size or times"
    )
    import io
    from contextlib import redirect_stdout
    from pathlib import Path
    from tempfile import TemporaryDirectory

    with TemporaryDirectory() as d:
        f = Path(d) / "big.toml"
        f.write_text(
            '[data]\nn = 1000\niid = true\n[test]\nalpha = 0.05\n[[steps]]\ntype = "description"\n'
            'range_size = 1000000\ntimes = 1000\n[power]\ntest = "z"\neffect_size = 0.3\n'
        )
        out = io.StringIO()
        with redirect_stdout(out):
            code = main(["plan", str(f)])
    assert code in (0, None) and "about 1e+6000 possible outputs" in out.getvalue()


def test_stages_of_a_mixed_study_keep_each_stage_s_steps_links_and_runs():
    """DP steps, then a description, then a Gaussian step, then mutual information: four
    stages, each with its own step indices, one derivation line per step and (for DP) one run
    per step (mutation of stages.py: a DP stage closed by a later step kept its links as its
    steps, or its runs as its links, and no test saw it)."""
    from maxinfo_bounds.planning import Description, MutualInformation
    from maxinfo_bounds.planning.stages import DescriptionStage, DPRuns, DPStage, Link, MIStage

    steps = (
        Laplace(value_min=0, value_max=1, scale=1.0),
        GenericDP(eps=0.5, times=2),
        Description(range_size=4),
        Gaussian(value_min=0, value_max=1, sigma=2.0, delta=1e-6),
        MutualInformation(mi_bits=0.25),
    )
    got = stages_of(Study(n=1000, alpha=0.05, iid=True, steps=steps))
    assert [type(s) for s in got] == [DPStage, DescriptionStage, DPStage, MIStage]
    assert [s.steps for s in got] == [(0, 1), (2,), (3,), (4,)]
    first = got[0]
    assert isinstance(first, DPStage)
    assert len(first.links) == 2 and all(isinstance(x, Link) for x in first.links)
    assert first.links[1].output.endswith(", x2 adaptively")
    assert len(first.runs) == 2 and all(isinstance(r, DPRuns) for r in first.runs)
    assert [r.count for r in first.runs] == [1, 2]


def test_an_approximate_dp_stage_after_a_description_is_refused_naming_its_step():
    """RRST §4: approximate DP only as the first stage; the refusal names the step (steps[1])."""
    from maxinfo_bounds.planning import Description, plan

    gauss = Gaussian(value_min=0, value_max=1, sigma=2.0, delta=1e-6)
    steps = (Description(range_size=4), gauss, Description(range_size=2))
    with pytest.raises(PlanError, match=r"steps\[1\] is approximate DP: RRST Thm 3.1 bounds its max-information"):
        plan(Study(n=1000, alpha=0.05, iid=True, steps=steps))
