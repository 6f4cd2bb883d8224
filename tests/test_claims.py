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
    assert certify_inequality(1 - x * sympy.exp(1 - x), {"x": (0.0, 5.0)},
                              max_boxes=2000).status == "undecided"       # x e^{1-x} <= 1, = at x = 1
    # an equality at a rational endpoint is decided exactly
    assert certify_inequality(1 - sympy.log(1 / (1 - 2 * y)) / sympy.log(2),
                              {"y": (1e-9, 0.25)}).status == "certified"
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
    assert v.counterexample["eps"] > 0.20941   # root of e^{6 eps} - 1 = 12 eps: 1.25643/6


def test_run_claims_cli(tmp_path):
    js = tmp_path / "c.json"
    assert pc_main(["run", "claims", "--out", str(tmp_path), "--json", str(js)]) == 0
    recs = json.loads(js.read_text())
    assert len(recs) == len(CLAIMS) and {"id", "location", "verdict", "seconds"} <= set(recs[0])
    assert "RRST-4.1.eq17.n" in (tmp_path / "claims" / "report.md").read_text()
