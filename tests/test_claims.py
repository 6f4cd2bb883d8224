"""Interval certification engine and the registry of proof-step claims."""

from __future__ import annotations

import json

import pytest
import sympy

from proofs_checks.__main__ import main as pc_main
from proofs_checks.claims import CLAIMS, check_claim
from proofs_checks.interval import certify_inequality, check_identity

x, y = sympy.symbols("x y", positive=True)


def test_engine_certifies_refutes_and_stays_honest():
    assert certify_inequality(sympy.log(1 + x) - x / (1 + x), {"x": (0.0, 100.0)}).status == "certified"
    v = certify_inequality(sympy.Rational(2, 5) - x, {"x": (0.0, 2.0)}, constraints=(sympy.Rational(1, 2) - x,))
    assert v.status == "refuted" and 0.4 < v.counterexample["x"] <= 0.5 and v.value_at_counterexample < 0
    # the constraint restricts the domain: 1 - x >= 0 where x <= 1/2 (false beyond, but outside)
    assert certify_inequality(1 - x, {"x": (0.0, 2.0)}, constraints=(sympy.Rational(1, 2) - x,)).status == "certified"
    # a double root cannot be closed by enclosures: undecided, never 'certified by tolerance'
    assert certify_inequality((x - 1) ** 2, {"x": (0.0, 2.0)}).status == "certified"  # iv square >= 0
    assert (
        certify_inequality(1 - x * sympy.exp(1 - x), {"x": (0.0, 5.0)}, max_boxes=2000).status == "undecided"
    )  # x e^{1-x} <= 1, = at x = 1
    # an equality at a rational endpoint is decided exactly
    assert certify_inequality(1 - sympy.log(1 / (1 - 2 * y)) / sympy.log(2), {"y": (1e-9, 0.25)}).status == "certified"
    assert check_identity(sympy.exp(x) * sympy.exp(-x), sympy.Integer(1), {"x": (0.0, 5.0)}).status == "certified"
    assert check_identity(sympy.exp(x), 1 + x, {"x": (0.1, 5.0)}).status == "refuted"


@pytest.mark.parametrize("claim", CLAIMS, ids=[c.id for c in CLAIMS])
def test_registry_claims(claim):
    """Every claim reaches the verdict recorded in the registry (and in docs/errata.md); every
    refuted claim has a certified correction."""
    v = check_claim(claim)
    assert v.status == claim.expected, (claim.id, v.detail)
    if v.status == "refuted":
        assert v.value_at_counterexample < 0 and claim.sound
        sound = next(c for c in CLAIMS if c.id == claim.sound)
        assert check_claim(sound).status == "certified"


def test_lemma_37_counterexample_location():
    v = check_claim(next(c for c in CLAIMS if c.id == "RRST-3.1.L3.7.72eps2"))
    assert v.counterexample["eps"] > 0.20941  # root of e^{6 eps} - 1 = 12 eps: 1.25643/6


def test_run_claims_cli(tmp_path):
    js = tmp_path / "c.json"
    assert pc_main(["run", "claims", "--out", str(tmp_path), "--json", str(js)]) == 0
    recs = json.loads(js.read_text())
    assert len(recs) == len(CLAIMS) and {"id", "location", "verdict", "seconds"} <= set(recs[0])
    assert "RRST-4.1.eq17.n" in (tmp_path / "claims" / "report.md").read_text()


# ------------------------------------------------------------------------------------------
# the claims hold the calculator's own formulas: a planted bug in one is a refuted claim


def _mutant(func, old, new):
    """``func`` recompiled from its source with ``old`` replaced once by ``new`` (a realistic
    single-point bug), in the function's own module globals."""
    import inspect
    import textwrap

    src = textwrap.dedent(inspect.getsource(func))
    assert src.count(old) == 1, (func.__name__, old)
    ns: dict = {}
    exec(compile(src.replace(old, new), f"<mutant of {func.__name__}>", "exec"), func.__globals__, ns)
    return ns[func.__name__]


def _replace_body(formula, body):
    import dataclasses

    return dataclasses.replace(formula, body=body)


MUTANTS = [
    # (claim refuting it, where the formula lives, key, function, old text, new text)
    (
        "RRST-3.1.log-base.sound",
        "approx.THM31",
        ("sound", "k"),
        "_thm31_body",
        "c6 = 6 * eps * c.log2e",
        "c6 = 6 * eps",
    ),  # Claim 3.5's log-base error
    ("calc.RRST-1.4a", "pure", "PURE_DP", "_pure_body", "eps * n * c.log2e", "eps * n"),
    ("calc.RRST-1.4b", "pure", "PURE_DP_PRODUCT", "_product_body", "eps * eps * n / 2", "eps * eps * n"),
    ("calc.RRST-1.3", "pvalues", "PVALUE_CORRECTION", "_gamma_body", "c.exp2(-k)", "c.exp2(-k + 1)"),
    (
        "calc.RRST-1.5a",
        "mutual_info",
        "MI_CURVE",
        "_curve_body",
        "(1 - b) * c.log1p(-b) * c.log2e",
        "(1 - b) * c.log1p(-b)",
    ),
    ("calc.RRST-C.2", "pvalues", "MI_PVALUE_PAPER", "_mi_paper_body", "alpha / 2 *", "alpha *"),
    ("calc.RRST-C.3", "pvalues", "RZ_LEVEL", "_rz_level_body", "m * c.ln2", "m"),
    (
        "calc.DR-3.20",
        "dp_composition",
        "ADVANCED",
        "_advanced_body",
        "2 * c.log(1 / delta_prime)",
        "c.log(1 / delta_prime)",
    ),
    (
        "calc.DFHPRR-4.hoeffding",
        "generalization",
        "HOEFFDING",
        "_hoeffding_body",
        "- 2 * tau * tau * n",
        "- 2 * tau * n",
    ),
    (
        "calc.RRST-3.1.sound-beta",
        "approx.THM31",
        ("sound", "beta"),
        "_thm31_body",
        "n * (d1 * (1 - d2) + d2)",
        "n * (d1 + d2) / 2",
    ),
    ("RRST-B.1.0.37", "generalization", "B1", "_b1_body", "c.sqrt(n / 2 *", "c.sqrt(n *"),
]


@pytest.mark.parametrize("claim_id, where, key, func, old, new", MUTANTS, ids=[m[0] + ":" + m[3] for m in MUTANTS])
def test_calculator_mutant_is_a_refuted_claim(monkeypatch, claim_id, where, key, func, old, new):
    """Plant one realistic bug in a calculator formula (its own module, through the same
    Formula object the evaluators use) and run the claims campaign's check: the claim that
    holds that formula against the paper must come back refuted (and certified without it)."""
    from proofs_checks import claims

    claim = next(c for c in CLAIMS if c.id == claim_id)
    assert check_claim(claim).status == "certified"
    modname, _, dict_name = where.partition(".")
    mod = getattr(claims, modname)
    if dict_name:
        table = getattr(mod, dict_name)
        f = table[key]
        monkeypatch.setitem(table, key, _replace_body(f, _mutant(getattr(mod, func), old, new)))
    else:
        f = getattr(mod, key)
        monkeypatch.setattr(mod, key, _replace_body(f, _mutant(getattr(mod, func), old, new)))
    assert check_claim(claim).status == "refuted", claim_id


def _formulas() -> dict[int, str]:
    """Every ``Formula`` object of the calculator, found by walking its modules (module-level
    formulas and formulas in module-level dicts), by id, with a name."""
    import importlib
    import pkgutil

    import maxinfo_bounds
    from maxinfo_bounds.arith import Formula

    found: dict[int, str] = {}
    for info in pkgutil.walk_packages(maxinfo_bounds.__path__, "maxinfo_bounds."):
        mod = importlib.import_module(info.name)
        for name, v in vars(mod).items():
            items = v.items() if isinstance(v, dict) else [(None, v)]
            for key, f in items:
                if isinstance(f, Formula):
                    found.setdefault(id(f), f"{info.name}.{name}" + ("" if key is None else f"[{key!r}]"))
    return found


def test_every_formula_body_has_a_claim(monkeypatch):
    """Issue 44 item 4: every formula body of the calculator is held by a claim, so a wrong body
    is a refuted claim. The claims are run with ``body`` recording which formulas they evaluate;
    a formula no claim evaluates fails here by name."""
    from proofs_checks import claims

    used: set[int] = set()
    real = claims.body

    def recording(f, *args):
        used.add(id(f))
        return real(f, *args)

    monkeypatch.setattr(claims, "body", recording)
    for c in CLAIMS:
        if c.kind != "finite":
            c.expr()
    found = _formulas()
    assert len(found) >= 47  # the walk itself works (47 formulas when this test was written)
    missing = sorted(name for i, name in found.items() if i not in used)
    assert not missing, missing


# single-point bugs in the bodies written as lambdas: (claim, module, key, replacement body)
LAMBDA_MUTANTS = [
    ("calc.DR-3.6", "mechanisms", "LAPLACE", lambda c, s, b: 2 * s / b),
    ("calc.DR-A.1", "mechanisms", "GAUSS_CLASSIC", lambda c, s, e, d: s * c.sqrt(2 * c.log(1 / d)) / e),
    ("calc.DR-3.9", "mechanisms", ("RNM", False), lambda c, s, b: s / b),
    ("calc.DR-3.10", "mechanisms", ("EXPMECH", False), lambda c, s, coef: coef * s),
    ("calc.BS16-1.6", "zcdp", "ZCDP_GAUSS", lambda c, s, sigma: s * s / sigma / sigma),
    ("calc.CR21-BR", "zcdp", "ZCDP_BR", lambda c, eta: eta * eta / 2),
    ("calc.DRS22-3.3", "gdp", "GDP_COMPOSE", lambda c, k, mu: k * mu),
    (
        "calc.Notes-Thresholdout.approx",
        "holdout",
        "THRESHOLDOUT_APPROX",
        lambda c, b, sigma, n, delta: c.sqrt(32 * b * c.log(1 / delta)) / (sigma * n),
    ),
    ("calc.DFHPRR-9", "holdout", "THM9_SIGMA", lambda c, tau, m, beta: tau / (96 * c.log(m / beta))),
    ("calc.RRST-B.2", "generalization", "B2_N0", lambda c, e, d: c.log(4 * e / d) / e),
    ("calc.RRST-B.2.floor", "generalization", "B2_PROBABILITY_FLOOR", lambda c, e, n: 4 * c.exp(-n * e)),
    ("calc.JLNRSS-transfer", "estimation", "JLNRSS_WIDTH", lambda c, e, a, cc, dd: a + c.expm1(e) + cc + dd),
    (
        "calc.JLNRSS-transfer-sensitive",
        "estimation",
        "JLNRSS_SENS_WIDTH",
        lambda c, e, a, cc, dd, n, s, r: a + n * s * (c.expm1(e) + 2 * dd) + r * cc,
    ),
    ("calc.SPLIT-Hoeffding", "estimation", "SPLIT_WIDTH", lambda c, k, b, m: c.sqrt(c.log(k / b) / (2 * m))),
    ("calc.DFHPRR-6", "description", "DESCRIPTION", lambda c, m, beta: c.log2_ratio(m, beta * beta)),
]


@pytest.mark.parametrize("claim_id, modname, key, new_body", LAMBDA_MUTANTS, ids=[m[0] for m in LAMBDA_MUTANTS])
def test_lambda_body_mutant_is_a_refuted_claim(monkeypatch, claim_id, modname, key, new_body):
    """As above, for formulas whose body is a lambda (and one named body, DFHPRR Thm 6):
    the replaced body, through the same Formula object, makes its claim refuted."""
    from proofs_checks import claims

    claim = next(c for c in CLAIMS if c.id == claim_id)
    assert check_claim(claim).status == "certified"
    mod = getattr(claims, modname)
    if isinstance(key, tuple):
        table = getattr(mod, key[0])
        monkeypatch.setitem(table, key[1], _replace_body(table[key[1]], new_body))
    else:
        monkeypatch.setattr(mod, key, _replace_body(getattr(mod, key), new_body))
    assert check_claim(claim).status == "refuted", claim_id
