"""Vacuous and impractical results are said in words, with the nearest usable parameters.

Expected values are hand computations from the papers' formulas (comments), not the code.
"""

from __future__ import annotations

import json
import math

from maxinfo_bounds.cli import main
from maxinfo_bounds.vacuity import GAMMA_FLOOR, gamma_problem, why_vacuous

EXAMPLES = __import__("pathlib").Path(__file__).resolve().parents[1] / "examples"


def test_gamma_floor_is_machine_epsilon():
    assert GAMMA_FLOOR == 2.0**-52
    assert gamma_problem(0.0).startswith("gamma = 0")
    assert "below 2.2e-16" in gamma_problem(1e-184)
    assert gamma_problem(1e-10) is None


def test_why_vacuous_fields():
    assert why_vacuous({"k_bits": math.inf, "beta": 0.0}).startswith("k = inf")
    assert why_vacuous({"k_bits": 3.0, "beta": 1.0}).startswith("beta = 1")
    assert why_vacuous({"probability": 1.0}).startswith("probability bound")
    assert why_vacuous({"eps_nats": math.inf}).startswith("eps = inf")
    assert why_vacuous({"k_bits": 3.0, "beta": 0.5}) is None


def test_bound_pvalue_vacuous_with_nearest(capsys):
    # RRST Thm 1.3: gamma = (alpha - beta)/2^k = 0 for beta = 0.06 > alpha = 0.05. Usable
    # (gamma >= 2^-52) iff alpha - beta >= 2 * 2^-52 at k = 1: beta <= 0.05 - 4.4e-16, shown to
    # 2 digits on the useful side: 0.049; alpha >= 0.06 + 4.4e-16: 0.061. No k >= 0 helps.
    assert main(["bound", "RRST-1.3", "--alpha", "0.05", "--k", "1", "--beta", "0.06", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["gamma"] == 0.0 and res["vacuous"].startswith("gamma = 0")
    assert res["usable_if"] == ["alpha >= 0.061", "beta <= 0.049"]


def test_bound_not_vacuous_has_no_note(capsys):
    assert main(["bound", "RRST-1.3", "--alpha", "0.05", "--k", "1", "--beta", "0.01", "--json"]) == 0
    assert "vacuous" not in json.loads(capsys.readouterr().out)


def test_correct_description_impractical(capsys):
    # DFHPRR Thm 6 + RRST Thm 1.3 at the best beta = alpha/2: gamma = alpha^2 / (4 |Y|)
    # = 0.0025 / 4e15 = 6.25e-19 < 2^-52; usable iff |Y| <= 0.0025 / (4 * 2^-52)
    # = 2814749767106.56, so at most 2814749767106 (a hair less after certified rounding)
    assert main(["correct", "--alpha", "0.05", "--range-size", str(10**15), "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert "below 2.2e-16" in res["vacuous"]
    (fix,) = res["usable_if"]
    name, op, val = fix.split()
    assert name == "range_size" and op == "<="
    assert 2_814_000_000_000 <= int(val) <= 2_814_749_767_106


def test_plan_laplace_not_iid_vacuous_with_fixes(capsys, tmp_path):
    # 100 Laplace queries, eps = 1e-6/0.1 = 1e-5 each, pure DP on n = 10^6 (not i.i.d.):
    # RRST Thm 1.4a k = eps n log2 e = 1442.7 bits, gamma = 0. Usable iff k <= log2(0.05 /
    # 2^-52) = 47.678072 bits, i.e. (hand) n <= 47.678072 / (1e-3 log2 e) = 33047.92 -> 33047;
    # times <= 3 (14.43 bits each); scale >= 100 log2(e) / 47.678 = 3.026 -> 3.1 (2 digits, up);
    # sensitivity <= 3.3048e-8 -> 3.3e-08.
    text = (EXAMPLES / "laplace_queries.toml").read_text().replace("iid = true", "iid = false")
    p = tmp_path / "s.toml"
    p.write_text(text.replace("value_min = 0.0\nvalue_max = 1.0", "sensitivity = 1e-6"))
    assert main(["plan", str(p)]) == 0
    out = capsys.readouterr().out
    assert "vacuous    gamma = 0" in out
    line = next(ln for ln in out.splitlines() if "no usable analysis as planned" in ln)
    for fix in ("n <= 33047", "steps[0].times <= 3", "steps[0].scale >= 3.1", "steps[0].sensitivity <= 3.3e-08"):
        assert fix in line, line
    # written as mean queries (sensitivity 1/n), k = n eps log2 e = 14.43 bits per query whatever
    # n is: no n helps; value_max <= 3.3048e-8 * 10^6 = 0.033048 -> 0.033 (2 digits, down)
    p.write_text(text)
    assert main(["plan", str(p)]) == 0
    line = next(ln for ln in capsys.readouterr().out.splitlines() if "no usable analysis as planned" in ln)
    assert "steps[0].value_max <= 0.033" in line and "steps[0].times <= 3" in line and " n <= " not in line, line


def test_plan_refusal_says_what_would_help(tmp_path, capsys):
    # 50 runs of (0.05, 1e-8)-DP on 2e5 i.i.d. records: composed eps >= 2.5 > 1/2 (RRST Thm
    # 3.1's regime) and delta far above eps/n^2; no single change is enough. The data are
    # i.i.d., so sample splitting is valid and recommended; reuse's refusal is reported with it
    p = tmp_path / "s.toml"
    p.write_text(
        "[data]\nn = 200000\niid = true\n[[steps]]\ntype = 'dp'\neps = 0.05\n"
        "delta = 1e-8\ntimes = 50\n[test]\nalpha = 0.05\n"
    )
    assert main(["plan", str(p)]) == 0
    out = capsys.readouterr().out
    assert "recommended: sample splitting" in out
    reuse = out[out.index("adaptive reuse: no valid route") :]
    assert "needs eps <= 1/2" in reuse and "no single change" in reuse
    assert main(["plan", str(p), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["usable_if"] == [] and "needs eps <= 1/2" in d["vacuous"]
    # not i.i.d.: nothing is valid: the report, one line on stderr, exit 2
    p.write_text(p.read_text().replace("iid = true", "iid = false"))
    assert main(["plan", str(p)]) == 2
    cap = capsys.readouterr()
    assert "no valid analysis" in cap.out
    (line,) = cap.err.strip().splitlines()
    assert "no valid route" in line and "not i.i.d" in line
