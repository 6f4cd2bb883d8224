"""The maxinfo and proofs-checks command lines: output, JSON, and one-line errors with exit 2."""

from __future__ import annotations

import json

import pytest

from maxinfo_bounds.cli import main

from .cli_helpers import assert_one_line_error


def test_example_json(capsys):
    assert main(["example", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    # hand: beta = alpha/2 = 0.025, k = log2(20/0.025) = log2(800) = 9.643856189774724,
    # gamma = (0.05 - 0.025) * 0.025 / 20 = 3.125e-05
    assert res["beta"] == 0.025
    assert res["k_bits"] >= 9.643856189774724
    assert 3.125e-05 * (1 - 1e-14) < res["gamma"] <= 3.125e-05
    assert res["bonferroni"] == 0.0025


def test_example_table(capsys):
    assert main(["example"]) == 0
    out = capsys.readouterr().out
    assert "gamma (RRST Thm 1.3)" in out and "DFHPRR Thm 6" in out


def test_pvalue(capsys):
    assert main(["pvalue", "--alpha", "0.05", "--k", "1", "--beta", "0.01", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["gamma"] == 0.02


def test_pvalue_is_the_catalog_view(capsys):
    """`pvalue` prints exactly the schema of `bound RRST-1.3` (one schema, units in names)."""
    argv = ["--alpha", "0.05", "--k", "2", "--beta", "0.01"]
    assert main(["pvalue", "--json", *argv]) == 0
    a = json.loads(capsys.readouterr().out)
    assert main(["bound", "--json", "RRST-1.3", *argv]) == 0
    assert a == json.loads(capsys.readouterr().out)
    assert a["k_bits"] == 2 and a["gamma"] == 0.01 and a["rounding"] == "down"  # 0.04/4, hand


def test_pvalue_and_description_say_when_vacuous(capsys):
    """Issue 43: `pvalue` (and `description`) carry the vacuity line and the nearest usable
    value docs/cli.md promises, as `bound RRST-1.3` does: at k = 2000 bits gamma is 0, and the
    largest k with gamma >= 2.2e-16 is floor(log2(0.05 / 2.2e-16)) = floor(47.69) = 47 (hand);
    at k = 2 nothing is said (vacuous null in JSON). Both the same as `bound`."""
    for k, vac, fix in (("2000", "gamma = 0", ["k <= 47"]), ("60", "below 2.2e-16", ["k <= 47"]), ("2", None, None)):
        argv = ["--alpha", "0.05", "--k", k, "--beta", "0"]
        assert main(["pvalue", "--json", *argv]) == 0
        a = json.loads(capsys.readouterr().out)
        assert main(["bound", "--json", "RRST-1.3", *argv]) == 0
        assert a == json.loads(capsys.readouterr().out)
        assert (a.get("vacuous") is None) == (vac is None) and a.get("usable_if") == fix
        if vac is not None:
            assert vac in a["vacuous"]
            assert main(["pvalue", *argv]) == 0
            assert "vacuous" in capsys.readouterr().out
    assert main(["description", "--range-size", "1000000", "--beta", "1e-9", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert main(["bound", "--json", "DFHPRR-6", "--range-size", "1000000", "--beta", "1e-9"]) == 0
    assert d == json.loads(capsys.readouterr().out)


def test_plot_dp_guarantee_entry(capsys, tmp_path):
    """A DPGuarantee-valued entry plots its eps (report Thm DR 3.9: 2 Delta/b, rounded up)."""
    out = tmp_path / "p.png"
    assert (
        main(
            [
                "plot",
                "--vary",
                "scale",
                "--range",
                "1:2",
                "--points",
                "3",
                "--out",
                str(out),
                "--json",
                "DR-3.9",
                "--sensitivity",
                "1",
            ]
        )
        == 0
    )
    res = json.loads(capsys.readouterr().out)
    assert res["y"] == [2.0, 1.3333333333333335, 1.0]  # 2/1.5 = 4/3: the float just above
    assert res["y_label"].startswith("eps_nats") and out.stat().st_size > 0


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["pvalue", "--alpha", "1.5", "--k", "1", "--beta", "0"], "alpha=1.5 is invalid"),
        (["pvalue", "--alpha", "nan", "--k", "1", "--beta", "0"], "alpha=nan is invalid"),
        (["description", "--range-size", "0", "--beta", "0.1"], "range_size=0 is invalid"),
        (["pvalue", "--alpha", "x", "--k", "1", "--beta", "0"], "invalid float value"),
        (["nosuch"], "invalid choice"),
    ],
)
def test_errors_one_line_exit_2(argv, fragment):
    assert_one_line_error("maxinfo_bounds.cli", argv, fragment)


def test_proofs_checks_quick(tmp_path):
    from proofs_checks.__main__ import main as pc_main

    assert pc_main(["run", "measures", "--out", str(tmp_path), "--trials", "30", "--max-n", "8"]) == 0
    report = json.loads((tmp_path / "measures" / "report.json").read_text())
    assert report["ok"] and report["trials"] == 30 and report["config"]["seed"] == 20261122
    assert "numpy" in report["versions"]
    # resuming a finished run recomputes nothing and gives the same summary
    assert pc_main(["run", "measures", "--out", str(tmp_path), "--trials", "30", "--max-n", "8"]) == 0
    assert json.loads((tmp_path / "measures" / "report.json").read_text())["checks"] == report["checks"]
    lines = (tmp_path / "measures" / "trials.jsonl").read_text().splitlines()
    assert len(lines) == 30
