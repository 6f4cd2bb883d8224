"""The catalog: complete entries, generated docs current, CLI commands over it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from maxinfo_bounds import InvalidParameter
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
        assert e.paper in {
            "RRST",
            "DFHPRR",
            "Dwork-Roth",
            "KOV15",
            "Balle-Wang",
            "Notes",
            "Dong-Roth-Su",
            "Bun-Steinke",
            "Canonne-Kamath-Steinke",
            "Steinke",
            "Cesar-Rogers",
            "Kairouz-Oh-Viswanath; Dong-Roth-Su",
            "JLNRSS",
            "Gaussian maximum",
            "Binomial tail",
            "Hoeffding",
        }
        assert e.number and e.statement_latex() and e.all_conditions()
        assert e.params and e.units and e.returns
        assert e.sympy_statement().free_symbols  # a real expression, not a placeholder
        assert e.evaluator.__doc__ and "Theorem:" in e.evaluator.__doc__


def test_result_never_overwrites_an_input(capsys):
    """A scalar result's field never shares a name with an input (DRS22-3.3's composed mu once
    overwrote the per-step mu in the JSON); where a result type's fields do (a composition's total
    eps and delta beside the per-step ones), the input is reported as input_<name>."""
    for e in entries():
        if "DPGuarantee" not in e.returns and "Bound" not in e.returns:
            assert e.value_name not in {e.report_key(p) for p in (*e.params, *e.optional)}, e.id
    assert main(["bound", "--json", "DR-3.16", "--eps", "0.1", "--delta", "0", "--k", "3"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["input_eps_nats"] == 0.1 and d["input_delta"] == 0.0 and d["k"] == 3
    assert d["eps_nats"] == pytest.approx(0.3) and d["eps_nats"] >= 0.3
    assert main(["bound", "--json", "DRS22-3.3", "--k", "100", "--mu", "0.01"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["mu"] == 0.01 and d["mu_total"] >= 0.1 and d["mu_total"] == pytest.approx(0.1, rel=1e-15)


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


def test_catalog_report_schema():
    """One JSON schema: theorem id (never the result's own theorem field), source, the inputs
    with units in their names, a requested optional input as target_*, then the result."""
    from maxinfo_bounds.catalog import REGISTRY

    r = REGISTRY["RRST-1.3"].report(alpha=0.05, k=1.0, beta=0.01)
    assert r == {
        "theorem": "RRST-1.3",
        "source": "RRST Thm 1.3 (product data); Thm C.1 (any data)",
        "alpha": 0.05,
        "k_bits": 1.0,
        "beta": 0.01,
        "gamma": 0.02,
        "rounding": "down",
    }
    sv = REGISTRY["DR-3.25"].report(c=3, threshold_scale=2.0, query_scale=4.0, sensitivity=1.0)
    assert sv["theorem"] == "DR-3.25" and sv["eps_nats"] == 3.0
    t = REGISTRY["RRST-3.1"].report(eps=0.1, delta=1e-14, n=1000, beta=0.01)
    assert t["target_beta"] == 0.01 and t["eps_nats"] == 0.1 and "beta" in t
    u = REGISTRY["RRST-3.1"].report(eps=0.1, delta=1e-14, n=1000, beta=None)
    assert "target_beta" not in u and list(u)[:5] == ["theorem", "source", "eps_nats", "delta", "n"]
    # a non-numeric input (a list of bounds, a text domain) keeps its bare name
    from fractions import Fraction

    from maxinfo_bounds.results import Bound

    bs = [Bound(1.5, 0.01, "x"), Bound(2.0, 0.02, "y")]
    c = REGISTRY["RRST-A.3"].report(bounds=bs)
    assert list(c)[:5] == ["theorem", "source", "bounds", "k_bits", "beta"] and c["bounds"] == bs
    assert c["theorem"] == "RRST-A.3" and c["k_bits"] == 3.5  # 1.5 + 2.0, exact
    assert Fraction(c["beta"]) >= Fraction(0.01) + Fraction(0.02) and c["beta"] <= 0.03 * (1 + 1e-15)


def _toy_theorem(params, optional, evaluator):
    import sympy

    from maxinfo_bounds.theorems.registry import Theorem

    return Theorem(
        id="TOY-1",
        paper="Toy",
        number="Thm 1",
        title="a toy entry",
        conditions=(),
        units="bits",
        params=params,
        evaluator=evaluator,
        returns="a Bound",
        latex="k",
        statement=lambda: sympy.Integer(0),
        optional=optional,
    )


def test_registry_report_keys_names_and_the_result_theorem():
    """The report's contract on entries the catalog does not yet have: a parameter whose name
    already ends in its unit keeps its name (m_bits, not m_bits_bits); the report's theorem
    is the entry's id even where the result names another; a required input given as None
    reaches the evaluator (which refuses it, naming it) while an optional None is dropped; an
    optional name's underscores become dashes in ``explain``."""
    from maxinfo_bounds.domain import Real
    from maxinfo_bounds.theorems.registry import Param

    m_bits, n = Param("m_bits", Real(0, units="bits"), "a bound"), Param("m", Real(0, units="bits"), "a bound")
    target = Param("target_beta", Real(0, 1), "a target")

    def evaluate(**kw):  # validates its inputs as every catalog evaluator does
        a, b = m_bits.check(kw["m_bits"]), n.check(kw["m"])
        return Bound(a + b, kw.get("target_beta", 0.5), "INNER-7")

    toy = _toy_theorem((m_bits, n), (target,), evaluate)
    assert toy.report_key(m_bits) == "m_bits" and toy.report_key(n) == "m_bits"
    r = toy.report(m_bits=1.0, m=2.0, target_beta=None)
    assert r["theorem"] == "TOY-1" and r["k_bits"] == 3.0 and r["beta"] == 0.5 and "target_beta" not in r
    with pytest.raises(InvalidParameter, match=r"^m_bits=None is invalid"):
        toy.report(m_bits=None, m=2.0)

    class Plain:  # a result type whose JSON names no theorem (Reportable asks only for as_dict)
        def as_dict(self):
            return {"value_bits": 1.5}

    plain = _toy_theorem((m_bits,), (), lambda m_bits: Plain()).report(m_bits=1.0)
    assert plain == {"theorem": "TOY-1", "source": "Toy Thm 1", "m_bits": 1.0, "value_bits": 1.5}
    assert "    [--target-beta] ([0, 1], optional): a target" in toy.explain().split("\n")


def test_param_check_with_a_tied_upper_end():
    """``check(x, hi=h)`` closes the upper end at min(domain's hi, h) (``budget <= m``): h itself
    is accepted, even where the domain's own end is open, and the refusal states the range."""
    from maxinfo_bounds.domain import Real
    from maxinfo_bounds.theorems.registry import Param

    b = Param("b", Real(0, 1, hi_open=True), "x")
    assert b.check(0.5, hi=0.5) == 0.5 and b.check(0.25, hi=2.0) == 0.25
    with pytest.raises(InvalidParameter, match=r"^b=0\.6 is invalid: must be a real number in \[0, 0\.5\]"):
        b.check(0.6, hi=0.5)
    for h in (1.0, 2.0):  # the domain's own open end still holds (before the fix: accepted)
        with pytest.raises(InvalidParameter, match=r"^b=1\.0 is invalid: must be a real number in \[0, 1\)"):
            b.check(1.0, hi=h)


def test_positive_float_down_at_zero_and_below_the_floats():
    """0 is returned as 0.0 where the domain holds it; a positive value below the smallest
    float cannot be echoed and is refused, naming the parameter."""
    from fractions import Fraction

    from maxinfo_bounds.domain import Real
    from maxinfo_bounds.theorems.registry import Param, positive_float_down

    assert positive_float_down(Param("b", Real(0, 1), "x"), 0) == 0.0
    assert positive_float_down(Param("b", Real(0, 1), "x"), Fraction(1, 3)) == 0.3333333333333333
    with pytest.raises(InvalidParameter, match=r"^b=.* is invalid: must be at least the smallest positive float"):
        positive_float_down(Param("b", Real(0, 1), "x"), Fraction(1, 10**400))


def test_catalog_registry_and_explain_text():
    import dataclasses

    from maxinfo_bounds.catalog import REGISTRY
    from maxinfo_bounds.theorems.registry import register

    e = REGISTRY["RRST-1.3"]
    assert register(e) is e and REGISTRY["RRST-1.3"] is e  # the same entry again: no-op
    with pytest.raises(RuntimeError, match=r"^duplicate catalog id 'RRST-1.3'$"):
        register(dataclasses.replace(e))
    assert REGISTRY["RRST-1.3"] is e
    kov = REGISTRY["KOV15-3.3"]  # declared with a statement, not a formula
    for bad in ({"formula": e.formula}, {"statement": None}):
        with pytest.raises(
            ValueError,
            match=r"^KOV15-3.3: give exactly one of formula and "
            r"statement$",
        ):
            dataclasses.replace(kov, **bad)
    lines = kov.explain().split("\n")
    assert lines[0] == ("KOV15-3.3: Optimal homogeneous composition of k adaptive (eps, delta)-DP steps")
    i, j = lines.index("  conditions:"), lines.index("  parameters:")
    assert lines[i + 1 : j] == [
        "    * k adaptive steps, each (eps, delta)-DP (same eps, delta)",
        "    * eps >= 0",
        "    * 0 <= delta < 1",
        "    * k >= 1 integer",
        "    * 0 <= delta_total <= 1, delta_total >= 1 - (1 - delta)^k",
    ]
    assert lines[j + 1 : j + 5] == [
        "    --eps ([0, inf)): per-step eps, nats",
        "    --delta ([0, 1)): per-step delta",
        "    --k ([1, inf) integer): number of steps",
        "    --delta-total ([0, 1], delta_total >= 1 - (1 - delta)^k): target total delta",
    ]
    opt = [ln for ln in REGISTRY["RRST-3.1"].explain().split("\n") if ln.startswith("    [--")]
    assert opt == [
        "    [--beta] ((0, 1), optional): target beta: t and delta_hat are optimised "
        "to minimise k at beta (default: the paper's t and delta_hat)"
    ]


def test_catalog_statements_declare_their_symbols_domains():
    """Every statement's symbols are nonnegative (all parameters are), and a symbol named
    like an integer parameter is integer: sympy's simplifications in the claims rely on it."""
    from maxinfo_bounds.catalog import REGISTRY
    from maxinfo_bounds.domain import Domain

    for key, e in REGISTRY.items():
        syms = {str(x): x for x in e.sympy_statement().free_symbols}
        assert all(x.is_nonnegative for x in syms.values()), key
        for p in e.params:
            if isinstance(p.domain, Domain) and p.domain.integer and p.name in syms:
                assert syms[p.name].is_integer, (key, p.name)
    import sympy

    sv = {str(x): x for x in REGISTRY["DFHPRR-10"].sympy_statement().atoms(sympy.Symbol)}
    assert sv["i"].is_integer and sv["B"].is_integer and sv["j"].is_integer
    # DFHPRR Thm 10: l_i = sum_{j <= min(i - 1, B)} C(i, j); at i = 3, B = 5: 1 + 3 + 3 = 7
    s = REGISTRY["DFHPRR-10"].sympy_statement().subs({sv["i"]: 3, sv["B"]: 5, sv["beta_i"]: 1})
    assert s.doit() == 7
