"""The RRST §4 counterexample campaign's driver, report and grid, against hand derivations.

`tests/test_counterexample.py` checks the claims' values on real codes; this file checks what the
campaign makes of them: which codes and (eps, delta) it runs (against the list in
docs/verification.md), the summary's counts and verdicts, and the lines of ``report.md``, for one
small unit (Hamming [7, 4, 3] at eps = 1/2, delta = 1/4) whose every record is derived by hand
below.
"""

from __future__ import annotations

import json
import math
import re
from fractions import Fraction
from pathlib import Path

import mpmath
import pytest

import proofs_checks.counterexample as cx
from maxinfo_bounds.theorems.maxinfo_dp import approx_dp_max_information
from proofs_checks.codes import extended_hamming, gilbert_varshamov, golay, hamming
from proofs_checks.counterexample import CounterexampleConfig, check_code, regime_row

ROOT = Path(__file__).resolve().parent.parent

# Hamming [7, 4, 3] at eps = 1/2, delta = 1/4, t = 3: w = (3 - 1)/4 - log2(4)/(1/2) = -3.5, so
# B accepts at distance d with probability p[d] = P[Lap(2) < -3.5 - d] = e^((-3.5 - d)/2)/2
P0 = math.exp(-1.75) / 2  # q: B(x, A(x)) = x (every x is at distance 0 from its own coset)
P1 = math.exp(-2.25) / 2


def _grid_line(text: str, head: str) -> str:
    (line,) = [ln for ln in text.splitlines() if ln.startswith(f"- {head}: ")]
    return line.removeprefix(f"- {head}: ")


def _pairs(text: str) -> list[tuple[float, float]]:
    return [(float(a), float(b)) for a, b in re.findall(r"\(([\d.]+), ([\d.]+)\)", text)]


def test_the_campaign_grid_is_the_documented_one() -> None:
    """docs/verification.md lists the codes and (eps, delta) pairs of the full and quick
    campaigns; the campaign runs exactly those, in that order (9 x 7 = 63 units)."""
    doc = (ROOT / "docs" / "verification.md").read_text()
    assert [c.name for c in cx._codes(False)] == _grid_line(doc, "codes").split(", ")
    assert cx._eps_delta(False) == _pairs(_grid_line(doc, "(ε, δ)"))
    assert [c.name for c in cx._codes(True)] == _grid_line(doc, "`--quick` codes").split(", ")
    assert cx._eps_delta(True) == _pairs(_grid_line(doc, "`--quick` (ε, δ)"))
    assert len(cx._codes(False)) * len(cx._eps_delta(False)) == 63
    assert "The full campaign runs 9 codes at 7 (ε, δ) pairs, 63 units" in doc
    # the codes' parameters, from the textbooks (the names carry them)
    assert [(c.n, c.k) for c in cx._codes(False)] == [
        (7, 4),
        (8, 4),
        (15, 11),
        (16, 11),
        (23, 12),
        (24, 12),
        (23, 12),
        (31, 16),
        (63, 45),
    ]


@pytest.fixture
def one_unit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[dict, Path, Path]:
    """The campaign on one unit (about a second). Function-scoped on purpose: mutation testing
    attributes the campaign's code to every test that runs it, not only to the first."""
    out = tmp_path / "cx"
    js = out / "sub" / "records.json"
    monkeypatch.setattr(cx, "_codes", lambda quick: [hamming(3)])
    monkeypatch.setattr(cx, "_eps_delta", lambda quick: [(0.5, 0.25)])
    res = cx.run(CounterexampleConfig(quick=True), out, json_path=js, progress=False, workers=1)
    return res, out, js


# the 20 records of the unit, by hand: (check, beta or beta2, verdict). Claim 1 at the default
# betas3 (1e-6, 0.1, 1/2 - delta); claim 2's max-information at betas2 (2 delta = 1/2, 0.9);
# claim 3's max-information value is n + log2(1 - beta/q) only for beta < q = 0.0869: at 0.1 and
# 0.25 the best event is everything, value log2((1 - beta)/(1 - q + q/2^7)) < 0 < n - 1 = 6.
# Cor 4.2 at beta1 in (1/8, 1/32), beta2 in (1/16, 0.99 (1/4 - beta1)): value
# log2(16 (1 - beta2/q)) = 2.167 at beta2 = 1/16 < q, log2((1 - beta2)/(1 - q + q/2^4)) above
# q: -0.0680 at 0.12375, against bounds 7 - 1 - 3 - log2(1/beta1) = 0 and -2.
HAND = [
    ("claim1", 1e-6, "holds"),
    ("claim1", 0.1, "holds"),
    ("claim1", 0.25, "holds"),
    ("claim2.dp", None, "holds"),
    ("claim2.step", None, "FAILS"),
    ("claim2.step.sound", None, "holds"),
    ("claim2.dp.enumeration", None, "holds"),
    ("claim2.maxinfo", 0.5, "holds"),
    ("claim2.maxinfo", 0.9, "holds"),
    ("claim2.maxinfo.enumeration", 0.5, "holds"),
    ("claim2.maxinfo.enumeration", 0.9, "holds"),
    ("claim3.reconstruct", None, "FAILS"),
    ("claim3.maxinfo", 1e-6, "holds"),
    ("claim3.maxinfo", 0.1, "FAILS"),
    ("claim3.maxinfo", 0.25, "FAILS"),
    ("cor42", 0.0625, "holds"),
    ("cor42", 0.12375, "FAILS"),
    ("cor42", 0.0625, "holds"),
    ("cor42", 0.2165625, "holds"),
    ("contrast", 0.25, "info"),
]


def _beta(r: dict) -> float | None:
    return r["inputs"].get("beta", r["inputs"].get("beta2"))


def test_the_unit_s_records_and_verdicts_by_hand(one_unit: tuple[dict, Path, Path]) -> None:
    res, out, js = one_unit
    recs = res["records"]
    assert [(r["check"], _beta(r), r["verdict"]) for r in recs] == HAND
    assert {r["unit"] for r in recs} == {"Hamming[7,4,3]|eps=0.5|delta=0.25"}
    # the JSON file holds the same records, in order (and its directory was made)
    assert json.loads(js.read_text()) == json.loads(json.dumps(recs))
    cor = [r for r in recs if r["check"] == "cor42"]
    assert [(r["inputs"]["beta1"], r["inputs"]["beta2"]) for r in cor] == [
        (0.125, 0.0625),
        (0.125, 0.12375),
        (0.03125, 0.0625),
        (0.03125, 0.2165625),
    ]
    q16 = P0 / 16 + 1 - P0
    want = [math.log2(16 * (1 - 0.0625 / P0)), math.log2((1 - 0.12375) / q16)]
    want += [want[0], math.log2((1 - 0.2165625) / q16)]
    for r, v, b in zip(cor, want, (0.0, 0.0, -2.0, -2.0), strict=True):
        assert r["value"] == pytest.approx(v, rel=1e-13) and r["bound"] == pytest.approx(b, abs=1e-13)
        assert r["note"] == "vacuous (bound <= 0)"
    mi3 = {r["inputs"]["beta"]: r for r in recs if r["check"] == "claim3.maxinfo"}
    assert mi3[1e-6]["value"] == pytest.approx(7 + math.log2(1 - 1e-6 / P0), rel=1e-13)
    q128 = P0 / 128 + 1 - P0
    for b in (0.1, 0.25):
        assert mi3[b]["value"] == pytest.approx(math.log2((1 - b) / q128), rel=1e-12) and mi3[b]["bound"] == 6
    # the contrast record: claim 3's value at the last beta3, beside RRST Thm 3.1 for B alone
    con = recs[-1]
    assert con["value"] == mi3[0.25]["value"] and con["verdict"] == "info"
    assert con["note"].startswith("RRST-3.1 k = 641.9 bits at beta = ")
    assert con["method"] == "exact composition vs Thm 3.1 for B alone (product inputs)"


def test_the_unit_s_claim2_records_by_hand(one_unit: tuple[dict, Path, Path]) -> None:
    recs = {(r["check"], _beta(r)): r for r in one_unit[0]["records"]}
    # Lemma 4.9's step counts (syndrome s, column i) with f(x) != f(x') and d_x <= (t - 1)/2 = 1:
    # x at distance 1 (7 syndromes) flipped in any of the 6 other coordinates lands next to a
    # different codeword (H's columns are distinct and the code perfect): 7 x 6 = 42. At
    # distance 0 a flip stays in the codeword's ball. The sound step (d_x < (t - 2)/2 = 1/2)
    # only counts d_x = 0: none.
    assert recs[("claim2.step", None)]["value"] == 42 and recs[("claim2.step", None)]["bound"] == 0
    assert recs[("claim2.step.sound", None)]["value"] == 0
    # Pr[B(X, a) = bottom] = 1 - (p[0] + 7 p[1])/8 for X uniform (1 in 8 x is a codeword of C_a)
    bot = 1 - (P0 + 7 * P1) / 8
    for b in (0.5, 0.9):
        assert recs[("claim2.maxinfo", b)]["note"] == f"Pr[B(X,a) = bottom] = {bot:.6g} (proof: > 1 - 2 delta)"
    assert f"{bot:.6g}" == "0.943027"
    # the DP value: a pair decoding to different codewords (both x, x' at distance 1, see
    # above) needs p[1] + max(0, (1 - p[1]) - e^eps (1 - p[1])) = p[1]; a pair decoding to the same
    # codeword (x at distance 0, x' at 1) needs max(0, p[0] - e^(1/2) p[1]) = 0 (p[1] = p[0]
    # e^(-1/2)) or less, and its bottom tails max(0, (1 - p[1]) - e^(1/2) (1 - p[0])) = 0
    assert recs[("claim2.dp", None)]["value"] == pytest.approx(P1, rel=1e-14)
    assert recs[("claim2.dp.enumeration", None)]["value"] == pytest.approx(P1, rel=1e-12)
    assert recs[("claim2.dp", None)]["note"] == "value: the largest delta any neighbouring pair needs at this eps"


def test_the_summary_by_hand(one_unit: tuple[dict, Path, Path]) -> None:
    res, out, _ = one_unit
    s = json.loads((out / "report.json").read_text())
    assert {k: s[k] for k in ("campaign", "config", "checks", "not_holding", "not_holding_outside_regime")} == {
        "campaign": "counterexample",
        "config": {"quick": True, "enumerate_max_n": 24},
        "checks": 20,
        "not_holding": 5,  # the step, the reconstruction, claim 3 at 0.1 and 0.25, one Cor 4.2
        "not_holding_outside_regime": 4,  # all but the step (n = 7: nothing is in the regime)
    }
    assert s["false_proof_step_lemma_4_9"] == ["Hamming[7,4,3]"] and s["lemma_4_9_step_failures"] == 1
    # none of the failures is claimed for every code (claim 1, the DP, the sound step)
    assert s["errors"] == [] and s["ok"] is True
    assert s["smallest_n_all_conditions_and_cor42_nonvacuous"] == {
        "eps=0.5, delta=0.25": 991,
        "eps=0.5, delta=0.01": 3865,
        "eps=0.25, delta=0.25": 2166,
        "eps=0.1, delta=1e-06": 77797,
    }
    pairs = ((0.5, 0.25), (0.5, 0.01), (0.25, 0.25), (0.1, 1e-6))
    grid = [(e, d, n) for e, d in pairs for n in (2**10, 2**12, 2**14, 2**16, 2**20)]
    assert [(g["eps"], g["delta"], g["n"]) for g in s["regime"]] == grid
    assert set(s["versions"]) >= {"python", "numpy", "mpmath", "maxinfo_bounds"}
    assert {k: v for k, v in res.items() if k != "records"} == s
    assert sorted(p.name for p in out.iterdir()) == [
        "counterexample.png",
        "records.jsonl",
        "report.json",
        "report.md",
        "sub",
    ]


def test_the_markdown_report_by_hand(one_unit: tuple[dict, Path, Path]) -> None:
    md = (one_unit[1] / "report.md").read_text().splitlines()
    assert md[0] == "# RRST Thm 4.1 / Cor 4.2: the counterexample, verified exactly"
    assert md[2].startswith("- versions: {'python': ")
    assert md[3] == (
        "- checks: 20; not holding: 5, of which outside the theorem's stated regime (eps <= 1/2, "
        "delta <= 1/4, distance >= 8 log2(1/delta)/eps + 1, n > 64e): 4; errors against the paper: 0"
    )
    assert md[4] == (
        "- claim2.step is Lemma 4.9's intermediate step 'f(x) != f(x') implies d_x > (t-1)/2'; "
        "it is false (1 of the checks not holding; see docs/errata.md), claim2.step.sound is what holds"
    )
    assert md[6:10] == [
        "## Claims at enumerable sizes (t = the code's minimum distance)",
        "",
        "| code | eps | delta | check | beta | exact value | claim | verdict | method |",
        "| --- | ---: | ---: | --- | --- | ---: | ---: | --- | --- |",
    ]
    rows = md[10:30]
    assert rows[0] == (
        f"| Hamming[7,4,3] | 0.5 | 0.25 | claim1 | 1e-06 | {math.log2(8 * (1 - 1e-6)):.6g} | "
        f"{3 + math.log2(1e6):.6g} | holds | enumeration of all 2^n syndromes |"
    )
    assert rows[4] == (
        "| Hamming[7,4,3] | 0.5 | 0.25 | claim2.step |  | 42 | 0 | FAILS | all 2^r syndromes x n columns |"
    )
    assert rows[11] == (
        f"| Hamming[7,4,3] | 0.5 | 0.25 | claim3.reconstruct |  | {P0:.6g} | 0.75 | FAILS | all 2^n datasets decoded |"
    )
    assert rows[16] == (
        "| Hamming[7,4,3] | 0.5 | 0.25 | cor42 | 0.12375 | "
        f"{math.log2((1 - 0.12375) / (P0 / 16 + 1 - P0)):.6g} | 0 | FAILS | X uniform on C_a, closed-form cells |"
    )
    assert md[30:34] == ["", "## The theorem's own regime (formulas of the proof, exact binomials)", "", md[33]]
    assert md[33] == (
        "| eps | delta | n | t | r = 3t log n | r (Varshamov) | n > 64e | n > 2e(t-1) | r < n | claim 2 DP | "
        "claim 2 maxinfo | claim 3 | Cor 4.2 bound (bits) | I(X; B(X, A(X))) exact, beta = 0.1 | "
        "Thm 3.1 for B alone (product inputs) |"
    )
    assert md[34] == "| ---: " * 6 + "| --- " * 6 + "| ---: " * 3 + "|"
    assert md[55:59] == [
        "",
        "Smallest n at which every condition the proof uses holds and Cor 4.2 is non-vacuous "
        "(beta1 = (1/2 - delta)/2):",
        "",
        "- eps=0.5, delta=0.25: n = 991",
    ]
    assert md[1] == md[5] == md[30] == "" and len(md) == 62
    # eps = 1/2, delta = 1/4, n = 1024: t = 33, r = 3 * 33 * 10 = 990, Varshamov's least r with
    # 2^r > sum_{i <= 31} C(1023, i); every condition holds; Cor 4.2: 1024 - 1 - 990 - 3 = 30;
    # the composition's max-information 1024 + log2(1 - 0.1/q), q = 1 - e^(-2)/2
    vol = sum(math.comb(1023, i) for i in range(32))
    comp = 1024 + math.log2(1 - 0.1 / (1 - math.exp(-2) / 2))
    row = md[35].split(" | ")
    assert row[:13] == ["| 0.5", "0.25", "1024", "33", "990", str(vol.bit_length()), *["True"] * 6, "30.0"]
    assert row[13] == f"{comp:.1f}" == "1023.8"
    k31 = approx_dp_max_information(0.5, 0.25, 1024, strict=False).k
    assert row[14] == f"{k31:.4g} |" and k31 > 1000
    # eps = 1/4 at n = 1024: RRST Thm 3.1 is outside its regime for B alone
    assert md[45].startswith("| 0.25 | 0.25 | 1024 | 65 | 1950 |") and md[45].endswith("| outside its regime |")
    # the smallest n (hand: test_ground_truth_units' linear scan of the proof's conditions)
    assert md[-4:] == [
        "- eps=0.5, delta=0.25: n = 991",
        "- eps=0.5, delta=0.01: n = 3865",
        "- eps=0.25, delta=0.25: n = 2166",
        "- eps=0.1, delta=1e-06: n = 77797",
    ]


def test_check_code_without_enumeration_uses_the_closed_forms() -> None:
    """enumerate_all=False: no enumeration records, and the closed-form methods named."""
    recs = check_code(hamming(3), 0.5, 0.25, enumerate_all=False, betas2=[0.6], betas3=[0.01])
    assert [(r["check"], _beta(r)) for r in recs] == [
        ("claim1", 0.01),
        ("claim2.dp", None),
        ("claim2.step", None),
        ("claim2.step.sound", None),
        ("claim2.maxinfo", 0.6),
        ("claim3.reconstruct", None),
        ("claim3.maxinfo", 0.01),
        ("cor42", 0.0625),
        ("cor42", 0.12375),
        ("cor42", 0.0625),
        ("cor42", 0.2165625),
        ("contrast", 0.01),
    ]
    by = {r["check"]: r for r in recs}
    assert by["claim1"]["method"] == "closed form (H full rank)"
    assert by["claim3.reconstruct"]["method"] == "d_x = 0 for every x (closed form)"
    assert by["claim2.maxinfo"]["method"] == "syndrome reduction, 50 digits"
    assert by["claim3.maxinfo"]["method"] == "closed-form cells, 50 digits"
    assert by["claim3.maxinfo"]["note"] == "lower bound claim: value must be >= bound"
    # claim 1 at beta = 0.01: log2(8 * 0.99) against 3 + log2(100)
    assert by["claim1"]["value"] == pytest.approx(math.log2(7.92), rel=1e-14)
    assert by["claim1"]["bound"] == pytest.approx(3 + math.log2(100), rel=1e-14)


def test_the_plot_draws_the_records(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The figure's two panels: reconstruction probability and I^0.1 of the composition against
    n, one line per (eps, delta) with its points sorted by n, and the claim's n - 1 line. Drawn on
    recording axes; the records are made up so that order and filtering show."""
    from unittest import mock

    import matplotlib.pyplot as plt

    def rec(check: str, n: int, eps: float, value: float, beta: float | None = None) -> dict:
        inputs = {"eps": eps, "delta": 0.25} | ({} if beta is None else {"beta": beta})
        return {"check": check, "n": n, "inputs": inputs, "value": value}

    records = [
        rec("claim3.reconstruct", 23, 8.0, 0.9),
        rec("claim3.reconstruct", 7, 8.0, 0.8),
        rec("claim3.reconstruct", 7, 2.0, 0.3),
        rec("claim3.maxinfo", 23, 8.0, 22.5, 0.1),
        rec("claim3.maxinfo", 7, 8.0, 6.5, 0.1),
        rec("claim3.maxinfo", 7, 8.0, 6.9, 1e-6),  # another beta: not drawn
        rec("claim3.maxinfo", 7, 2.0, -0.5, 0.1),
        rec("claim1", 15, 2.0, 3.0, 0.1),  # another check: only its n reaches the n - 1 line
    ]
    fig, ax0, ax1 = mock.MagicMock(), mock.MagicMock(), mock.MagicMock()
    subplots = mock.MagicMock(return_value=(fig, [ax0, ax1]))
    close = mock.MagicMock()
    monkeypatch.setattr(plt, "subplots", subplots)
    monkeypatch.setattr(plt, "close", close)
    cx._plots(tmp_path, records)
    subplots.assert_called_once_with(1, 2, figsize=(10, 4))
    lab2, lab8 = "eps=2.0, delta=0.25", "eps=8.0, delta=0.25"
    assert ax0.plot.call_args_list == [
        mock.call([7], [0.3], marker="o", label=lab2),
        mock.call([7, 23], [0.8, 0.9], marker="o", label=lab8),
    ]
    assert ax1.plot.call_args_list == [
        mock.call([7], [-0.5], marker="o", label=lab2),
        mock.call([7, 23], [6.5, 22.5], marker="o", label=lab8),
        mock.call([7, 15, 23], [6, 14, 22], "k--", label="n - 1 (Thm 4.1 claim 3)"),
    ]
    ax0.set_xlabel.assert_called_once_with("n")
    ax0.set_ylabel.assert_called_once_with("Pr[B(x, A(x)) = x]")
    ax1.set_xlabel.assert_called_once_with("n")
    ax1.set_ylabel.assert_called_once_with("I^0.1(X; B(X, A(X))) bits")
    ax0.legend.assert_called_once_with(fontsize=6)
    ax1.legend.assert_called_once_with(fontsize=6)
    fig.tight_layout.assert_called_once_with()
    fig.savefig.assert_called_once_with(tmp_path / "counterexample.png")
    close.assert_called_once_with(fig)


def test_regime_rows_at_the_conditions_edges() -> None:
    """RRST §4.2's conditions where they switch, by hand (eps = 1/2, delta = 1/4: t = 33,
    r = ceil(99 log2 n), log2(1/delta) = 2; eps = 1/4: t = 65)."""
    # 64e = 173.97: n = 174 passes, 175 passes and is below 65e = 176.7
    assert regime_row(0.5, 0.25, 174)["n_gt_64e"] and not regime_row(0.5, 0.25, 173)["n_gt_64e"]
    assert regime_row(0.5, 0.25, 175)["n_gt_64e"]
    # 2e(t - 1) at t = 65: 347.9 (t + 1: 358.8; t - 2: 342.5; 3e(t - 1): 521.9)
    assert regime_row(0.25, 0.25, 348)["n_gt_2e(t-1)"] and not regime_row(0.25, 0.25, 345)["n_gt_2e(t-1)"]
    # n = 985: r = ceil(99 log2 985) = 985 = n, so no code with r < n; n = 987: r + 2 = 987 = n,
    # so claim 1's bound r + log2(1/delta) is not below n
    assert math.ceil(99 * math.log2(985)) == 985 and math.ceil(99 * math.log2(987)) == 985
    g985, g987 = regime_row(0.5, 0.25, 985), regime_row(0.5, 0.25, 987)
    assert g985["r_paper"] == 985 and not g985["code_exists_paper_r"] and not g985["claim1_nonvacuous"]
    assert g987["code_exists_paper_r"] and not g987["claim1_nonvacuous"]
    # n = 40, far below the regime: Varshamov's r is the least r with 2^r > sum_{i <= 31} C(39, i),
    # and the bound on Pr[not bottom] is |B_7(40)| / |B_16(40)| + P[Lap(2) < -4] (s = (t - 1)/4 = 8)
    g = regime_row(0.5, 0.25, 40)
    vol = sum(math.comb(39, i) for i in range(32))
    assert g["r_varshamov"] == vol.bit_length() == 39
    ball = [sum(math.comb(40, i) for i in range(r + 1)) for r in (7, 16)]
    want = float(Fraction(ball[0], ball[1])) + math.exp(-2) / 2
    assert g["claim2_pr_not_bottom_bound"] == pytest.approx(want, rel=1e-14)
    # the far pair at distance d = (t - 1) // 2 = 16 from both codewords: P[Lap(2) < 4 - 16] = e^(-6)/2
    assert g["claim2_dp_far_pair_p"] == pytest.approx(math.exp(-6) / 2, rel=1e-14)
    # RRST Thm 3.1 for B alone: its own bound where it is in its regime, None where not
    b31 = approx_dp_max_information(0.5, 0.25, 1024, strict=False)
    assert b31.in_regime and regime_row(0.5, 0.25, 1024)["thm31_B_alone_product_bits"] == float(b31.k)
    assert not approx_dp_max_information(0.25, 0.25, 1024, strict=False).in_regime
    assert regime_row(0.25, 0.25, 1024)["thm31_B_alone_product_bits"] is None


def test_the_driver_logs_units_resumes_and_reports_progress(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """records.jsonl: one line per unit with the campaign's parameters; a code of n =
    enumerate_max_n is enumerated (n <= the cap); a rerun resumes, ``fresh`` starts over (the
    old log kept as .previous); the progress line names the campaign."""
    seen: list[object] = []

    def codes(quick: object) -> list:
        seen.append(quick)
        return [hamming(3)]

    def pairs(quick: object) -> list:
        seen.append(quick)
        return [(0.5, 0.25)]

    monkeypatch.setattr(cx, "_codes", codes)
    monkeypatch.setattr(cx, "_eps_delta", pairs)
    cfg = CounterexampleConfig(quick=True, enumerate_max_n=7)
    js = tmp_path / "new" / "deeper" / "records.json"  # its directories made as needed
    res = cx.run(cfg, tmp_path, workers=1, json_path=js)
    assert seen == [True, True]
    assert js.read_text().startswith('[\n {\n  "id": "claim1/Hamming[7,4,3]/')  # indented by 1
    assert (tmp_path / "report.json").read_text().startswith('{\n  "campaign": "counterexample",\n')
    assert "claim2.dp.enumeration" in {r["check"] for r in res["records"]}  # n = 7 <= 7: enumerated
    err = capsys.readouterr().err
    assert err.startswith("[counterexample] 1/1 units (Hamming[7,4,3]|eps=0.5|delta=0.25, ")
    (line,) = (tmp_path / "records.jsonl").read_text().splitlines()
    rec = json.loads(line)
    assert rec["unit"] == "Hamming[7,4,3]|eps=0.5|delta=0.25"
    assert rec["parameters"] == {
        "campaign": "counterexample",
        "quick": True,
        "enumerate_max_n": 7,
        "code": "Hamming[7,4,3]",
        "eps": 0.5,
        "delta": 0.25,
    }
    for r in rec["result"]["records"]:
        assert type(r["seconds"]) is float and 0 <= r["seconds"] < 60 and r["seconds"] == round(r["seconds"], 4)
    cx.run(cfg, tmp_path, workers=1, progress=False, json_path=js)  # resumed: nothing appended or printed
    assert (tmp_path / "records.jsonl").read_text().splitlines() == [line] and capsys.readouterr().err == ""
    cx.run(cfg, tmp_path, workers=1, progress=False, fresh=True)
    assert (tmp_path / "records.jsonl.previous").read_text().splitlines() == [line]
    # one record below the cap: not enumerated
    res6 = cx.run(CounterexampleConfig(quick=True, enumerate_max_n=6), tmp_path / "six", workers=1, progress=False)
    assert "claim2.dp.enumeration" not in {r["check"] for r in res6["records"]}


def test_which_failures_are_errors_against_the_paper(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """run()'s verdicts from made-up records: a failure is an error against the paper when the
    statement claims it everywhere (claim 1, the DP of B, its enumeration, the sound step) or
    inside the theorem's regime; Lemma 4.9's step (claim2.step) is counted apart (a false
    proof step, docs/errata.md), and failures outside the regime are findings, not errors."""
    code = hamming(3)

    def rec(check: str, holds: bool, in_regime: bool = False) -> dict:
        inputs = {"eps": 1.0, "delta": 0.25, "in_regime": in_regime}
        return cx._record(check, code, inputs, 0.0, 0.0, holds, 0.0, "made up")

    made = [
        rec("claim1", False),
        rec("claim2.dp", False),
        rec("claim2.dp.enumeration", False),
        rec("claim2.step.sound", False),
        # Lemma 4.9's step, even inside the regime and on another code, is counted apart
        cx._record(
            "claim2.step", extended_hamming(3), {"eps": 1.0, "delta": 0.25, "in_regime": True}, 1, 0, False, 0, ""
        ),
        rec("claim3.reconstruct", False),
        rec("cor42", False, in_regime=True),
        rec("claim2.maxinfo", True),
        cx._record("contrast", code, {"eps": 1.0, "delta": 0.25}, 1.0, None, None, 0.0, "made up"),
    ]
    monkeypatch.setattr(cx, "check_code", lambda *a, **k: made)
    monkeypatch.setattr(cx, "_codes", lambda quick: [code])
    monkeypatch.setattr(cx, "_eps_delta", lambda quick: [(1.0, 0.25)])
    s = cx.run(CounterexampleConfig(quick=True), tmp_path, workers=1, progress=False)
    ids = {r["check"]: r["id"] for r in made}
    assert s["errors"] == [
        ids[c] for c in ("claim1", "claim2.dp", "claim2.dp.enumeration", "claim2.step.sound", "cor42")
    ]
    assert (s["checks"], s["not_holding"], s["not_holding_outside_regime"], s["lemma_4_9_step_failures"]) == (
        9,
        7,
        5,
        1,
    )
    assert s["false_proof_step_lemma_4_9"] == ["ext-Hamming[8,4,4]"] and s["ok"] is False
    # a record's defaults: not in the regime unless said, no note, "info" without a verdict
    assert made[-1]["in_regime"] is False and made[-1]["note"] == "" and made[-1]["verdict"] == "info"
    assert made[-1]["id"] == "contrast/Hamming[7,4,3]/eps=1.0,delta=0.25" and made[0]["verdict"] == "FAILS"
    assert made[-2]["verdict"] == "holds" and made[6]["in_regime"] is True


def test_each_record_s_method_bound_and_note(one_unit: tuple[dict, Path, Path]) -> None:
    """The unit's records as the report prints them: what each check is held against, how it
    was computed, and its note (docs/verification.md's table of checks)."""
    by = {(r["check"], _beta(r)): r for r in one_unit[0]["records"]}
    want = {
        ("claim2.dp", None): (0.25, "all 2^r syndromes x n columns (= all neighbouring pairs, all a)"),
        ("claim2.step", None): (0, "all 2^r syndromes x n columns"),
        ("claim2.step.sound", None): (0, "all 2^r syndromes x n columns"),
        ("claim2.dp.enumeration", None): (0.25, "all 2^n datasets x n neighbours, a = 0 (float64, rel. err < 1e-12)"),
        ("claim2.maxinfo", 0.5): (1, "syndrome reduction, 50 digits"),
        ("claim2.maxinfo.enumeration", 0.9): (1, "all 2^n datasets, a = 0, float64"),
        ("claim3.reconstruct", None): (0.75, "all 2^n datasets decoded"),
        ("claim3.maxinfo", 0.1): (6, "closed-form cells, 50 digits"),
    }
    for key, (bound, method) in want.items():
        assert (by[key]["bound"], by[key]["method"]) == (bound, method), key
    notes = {
        "claim2.step": "value: pairs with f(x) != f(x') and d_x <= (t-1)/2 (t = minimum distance)",
        "claim2.step.sound": "value: pairs with f(x) != f(x') and d_x < (t-2)/2 (the step that holds)",
        "claim3.reconstruct": "value: Pr[B(x, A(x)) = x], the same for every x",
        "claim2.dp.enumeration": "",
        "claim2.maxinfo.enumeration": "",
    }
    for (check, _), r in by.items():
        if check in notes:
            assert r["note"] == notes[check], check
    assert by[("claim1", 0.1)]["method"] == "enumeration of all 2^n syndromes" and by[("claim1", 0.1)]["note"] == ""
    cor = next(r for r in one_unit[0]["records"] if r["check"] == "cor42")
    assert (cor["bound"], cor["method"]) == (0.0, "X uniform on C_a, closed-form cells")
    # the contrast: RRST Thm 3.1 for B alone at n = 7 (in its stated regime, at beta = 1: vacuous)
    con = by[("contrast", 0.25)]
    b31 = approx_dp_max_information(0.5, 0.25, 7, strict=False)
    assert b31.in_regime and con["bound"] == b31.k and b31.beta == 1
    assert con["note"] == f"RRST-3.1 k = {b31.k:.4g} bits at beta = 1"


def test_check_code_s_options_and_edges(monkeypatch: pytest.MonkeyPatch) -> None:
    """t given, the default enumeration cap (n <= ENUMERATE_MAX_N), the default betas at other
    deltas, a reconstruction that holds (enumerated), claim 3 between n - 2 and n - 1, a
    non-vacuous Cor 4.2 bound below 1 bit, and Thm 3.1 not evaluable, by hand."""
    # t = 5 on Hamming [7, 4]: w = (5 - 1)/4 - log2(4)/(1/2) = -3, q = P[Lap(2) < -3] = e^(-3/2)/2
    recs = check_code(hamming(3), 0.5, 0.25, t=5, enumerate_all=False)
    assert {r["inputs"]["t"] for r in recs} == {5}
    rq = next(r for r in recs if r["check"] == "claim3.reconstruct")
    assert rq["value"] == pytest.approx(math.exp(-1.5) / 2, rel=1e-14)
    # n = 7 at a cap of 7: enumerated by default
    monkeypatch.setattr(cx, "ENUMERATE_MAX_N", 7)
    assert "claim2.dp.enumeration" in {r["check"] for r in check_code(hamming(3), 8.0, 0.25)}
    monkeypatch.setattr(cx, "ENUMERATE_MAX_N", 6)
    assert "claim2.dp.enumeration" not in {r["check"] for r in check_code(hamming(3), 8.0, 0.25)}
    # delta = 0.1: claim 2's betas 2 delta = 0.2, 0.5, 0.9; claim 3's 1e-6, 0.1, 0.4
    recs = check_code(hamming(3), 8.0, 0.1, enumerate_all=False)
    assert [_beta(r) for r in recs if r["check"] == "claim2.maxinfo"] == [0.2, 0.5, 0.9]
    assert [_beta(r) for r in recs if r["check"] == "claim3.maxinfo"] == [1e-6, 0.1, 0.4]
    # delta = 1/2: 2 delta = 1 and 1/2 - delta = 0 are no betas; no beta1 in (0, 0) for Cor 4.2
    recs = check_code(hamming(3), 1.0, 0.5, enumerate_all=False)
    assert [_beta(r) for r in recs if r["check"] == "claim2.maxinfo"] == [0.5, 0.9]
    assert [_beta(r) for r in recs if r["check"] == "claim3.maxinfo"] == [1e-6, 0.1]
    assert "cor42" not in {r["check"] for r in recs}
    # claim 1 by the closed form holds (H has full rank): log2(8 (1 - beta)) <= 3 + log2(1/beta)
    assert {r["verdict"] for r in recs if r["check"] == "claim1"} == {"holds"}
    # eps = 8, delta = 1/4, enumerated: w = 0.5 - 0.25, q = 1 - e^(-2)/2 >= 3/4 holds for every x
    # (each x decoded with the leader of syndrome 0); claim 3 at beta = 0.5:
    # 7 + log2(1 - 0.5/q) = 5.89, below n - 1 = 6 but above n - 2
    recs = check_code(hamming(3), 8.0, 0.25, betas3=[0.5], enumerate_all=True)
    by = {r["check"]: r for r in recs}
    q = 1 - math.exp(-2) / 2
    assert by["claim3.reconstruct"]["value"] == pytest.approx(q, rel=1e-15)
    assert by["claim3.reconstruct"]["verdict"] == "holds"
    assert by["claim3.maxinfo"]["value"] == pytest.approx(7 + math.log2(1 - 0.5 / q), rel=1e-13)
    assert by["claim3.maxinfo"]["verdict"] == "FAILS"
    # Golay [23, 12, 7], delta = 0.4985: beta1 = (1/2 - delta)/2 = 0.00075, Cor 4.2's bound
    # 23 - 1 - 11 - log2(1/0.00075) = 0.619 bits: positive, below 1
    cor = [r for r in check_code(golay(), 8.0, 0.4985, enumerate_all=False) if r["check"] == "cor42"]
    assert cor[0]["bound"] == pytest.approx(11 - math.log2(1 / 0.00075), rel=1e-12)
    assert [r["note"] for r in cor] == ["non-vacuous", "non-vacuous", "vacuous (bound <= 0)", "vacuous (bound <= 0)"]
    # delta = 1 is no (eps, delta) at all for Thm 3.1: not evaluable, said so
    con = check_code(hamming(3), 1.0, 1.0, enumerate_all=False)[-1]
    assert con["check"] == "contrast" and con["bound"] is None
    assert con["note"] == (
        "RRST-3.1 not evaluable: delta=1.0 is invalid: must be a real number in (0, 1) "
        "(outside Thm 3.1's regime: not a proven bound)"
    )


def test_lemma_4_9_s_step_counted_pair_by_pair() -> None:
    """Lemma 4.9's step and its sound version, counted over every dataset x and coordinate i
    directly (x' = x with bit i flipped, f by the code's coset leaders, d_x the leader's
    weight), against the module's count over (syndrome, coordinate) classes: each syndrome
    class holds 2^k datasets that behave alike (f(x) = x xor leader(Hx)), so the direct count
    is 2^k times the module's. Codes with leaders of weight 2 (ext-Hamming [8, 4, 4], a
    Varshamov [12, k, >= 5])."""
    for code in (extended_hamming(3), gilbert_varshamov(12, 5)):
        t = code.minimum_distance()
        W, L = code.coset_leader_weights(), code.coset_leaders()
        step = sound = 0
        for x in range(1 << code.n):
            s = code.syndrome(x)
            fx, dx = x ^ int(L[s]), int(W[s])
            for i in range(code.n):
                y = x ^ (1 << i)
                if fx != y ^ int(L[code.syndrome(y)]):
                    step += 2 * dx <= t - 1
                    sound += 2 * dx < t - 2
        by = {r["check"]: r for r in check_code(code, 8.0, 0.25, enumerate_all=False)}
        k = code.k
        assert (by["claim2.step"]["value"] << k, by["claim2.step.sound"]["value"] << k) == (step, sound) and step > 0


def test_the_far_pair_at_an_odd_distance() -> None:
    """eps = 0.1, delta = 1e-6: t = ceil(8 log2(10^6)/0.1 + 1) = 1596, so the far pair sits at
    d = (t - 1) // 2 = 797 (t - 1 is odd: not 797.5), w = (t - 1)/4 - log2(10^6)/0.1, and the
    pair's acceptance probability is P[Lap(10) < w - 797] = e^(0.1 (w - 797))/2 (60 digits)."""
    g = regime_row(0.1, 1e-6, 2**20)
    assert g["t"] == 1596
    with mpmath.workdps(60):
        w = mpmath.mpf(1595) / 4 - mpmath.log(1 / mpmath.mpf(1e-6), 2) / mpmath.mpf(0.1)
        want = mpmath.exp(mpmath.mpf(0.1) * (w - 797)) / 2
    assert g["claim2_dp_far_pair_p"] == pytest.approx(float(want), rel=1e-13, abs=0) and g["claim2_dp"]


def test_claim1_counts_every_block_of_datasets(monkeypatch: pytest.MonkeyPatch) -> None:
    """Claim 1's enumeration adds the syndrome counts of every block of datasets: with blocks of
    8 datasets (16 blocks for n = 7) each of the 8 syndromes is still hit 2^k = 16 times, so
    HX is uniform and claim 1 holds (counting one block alone would find 1 per syndrome)."""
    import proofs_checks.codes as codes

    monkeypatch.setattr(codes, "BLOCK_BITS", 3)
    recs = [r for r in check_code(hamming(3), 0.5, 0.25, enumerate_all=True) if r["check"] == "claim1"]
    assert len(recs) == 3 and {r["verdict"] for r in recs} == {"holds"}
