"""The catalog: complete entries, generated docs current, CLI commands over it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from maxinfo_bounds.catalog import Bound, catalog_markdown, entries, get
from maxinfo_bounds.cli import main

from .cli_helpers import assert_one_line_error

ROOT = Path(__file__).resolve().parent.parent


def test_docs_catalog_is_current():
    """docs/catalog.md is generated: regenerate with `maxinfo catalog --markdown > docs/catalog.md`."""
    assert (ROOT / "docs" / "catalog.md").read_text() == catalog_markdown()


def test_entries_complete():
    ids = [e.id for e in entries()]
    assert ids == sorted(set(ids))
    for e in entries():
        assert e.paper in {"RRST", "DFHPRR", "Dwork-Roth", "KOV15", "Balle-Wang", "Notes"}
        assert e.number and e.statement_latex() and e.all_conditions()
        assert e.params and e.units and e.returns
        assert e.sympy_statement().free_symbols  # a real expression, not a placeholder
        assert e.evaluator.__doc__ and "Theorem:" in e.evaluator.__doc__


def test_bound_repr():
    b = get("RRST-1.4b").evaluator(0.1, 1000, 1e-6)
    assert isinstance(b, Bound) and float(b) == b.k
    assert "product inputs" in str(b) and r"\infty,P" in b._repr_latex_()


def test_cli_catalog_explain_bound(capsys):
    assert main(["catalog", "--json"]) == 0
    assert {r["id"] for r in json.loads(capsys.readouterr().out)} == {e.id for e in entries()}
    assert main(["explain", "RRST-1.4a"]) == 0
    assert "DFHPRR Thm 7" in capsys.readouterr().out
    assert main(["bound", "--json", "RRST-1.4a", "--eps", "0.5", "--n", "4"]) == 0
    out = json.loads(capsys.readouterr().out)
    # 2 log2(e) = 2.8853900817779268 (hand); rounded up
    assert out["k_bits"] >= 2.8853900817779268 and out["k_rounding"] == "up"
    assert main(["bound", "--json", "RRST-1.3", "--alpha", "0.05", "--k", "2", "--beta", "0.01"]) == 0
    assert json.loads(capsys.readouterr().out)["gamma"] == 0.01  # (0.05-0.01)/4, exact rational rounded down


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["bound", "RRST-1.4a", "--eps", "-1", "--n", "3"], "eps=-1.0 is invalid"),
        (["bound", "RRST-1.4a", "--eps", "1"], "the following arguments are required: --n"),
        (["bound", "NOPE"], "theorem_id='NOPE' is invalid"),
        (["explain", "NOPE"], "theorem_id='NOPE' is invalid"),
    ],
)
def test_cli_errors(argv, fragment):
    assert_one_line_error("maxinfo_bounds.cli", argv, fragment)


def test_cli_plot(tmp_path, capsys):
    out = tmp_path / "k.png"
    assert (
        main(
            [
                "plot",
                "--json",
                "--vary",
                "n",
                "--range",
                "1:1000",
                "--points",
                "12",
                "--log-x",
                "--out",
                str(out),
                "RRST-1.4a",
                "--eps",
                "0.1",
            ]
        )
        == 0
    )
    res = json.loads(capsys.readouterr().out)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    for x, y in zip(res["x"], res["y"]):  # the plotted values are the certified evaluator's
        assert y == get("RRST-1.4a").evaluator(0.1, x).k
    svg = tmp_path / "k.svg"
    assert (
        main(
            [
                "plot",
                "--vary",
                "beta",
                "--range",
                "0.001:0.04",
                "--out",
                str(svg),
                "RRST-1.3",
                "--alpha",
                "0.05",
                "--k",
                "3",
            ]
        )
        == 0
    )
    assert svg.read_text().lstrip().startswith("<?xml")


def test_cli_plot_errors():
    assert_one_line_error(
        "maxinfo_bounds.cli",
        ["plot", "--vary", "x", "--range", "1:2", "RRST-1.4a", "--eps", "0.1"],
        "vary='x' is invalid",
    )
    assert_one_line_error(
        "maxinfo_bounds.cli",
        ["plot", "--vary", "n", "--range", "5", "RRST-1.4a", "--eps", "0.1"],
        "range='5' is invalid",
    )
