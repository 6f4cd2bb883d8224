"""RRST §4: codes (known parameters, brute force) and the counterexample's claims (exact)."""

from __future__ import annotations

import json
import math

import mpmath
import numpy as np
import pytest

from maxinfo_bounds.measures import approx_max_divergence
from proofs_checks.__main__ import main as pc_main
from proofs_checks.codes import (
    TooLarge,
    all_syndromes,
    bch,
    extended_golay,
    extended_hamming,
    gilbert_varshamov,
    golay,
    hamming,
    syndrome_blocks,
)
from proofs_checks.counterexample import (
    accept_probabilities,
    check_code,
    dmax_grouped,
    regime_row,
    smallest_valid_n,
)


def _brute_min_distance(code):
    return min(bin(x).count("1") for x in range(1, 1 << code.n) if code.syndrome(x) == 0)


@pytest.mark.parametrize(
    "code, n, k, d",
    [
        (hamming(3), 7, 4, 3),
        (hamming(4), 15, 11, 3),
        (extended_hamming(3), 8, 4, 4),
        (extended_hamming(4), 16, 11, 4),
        (golay(), 23, 12, 7),
        (extended_golay(), 24, 12, 8),
        (bch(5, 5), 31, 21, 5),
        (bch(5, 7), 31, 16, 7),
        (bch(4, 5), 15, 7, 5),
    ],
)
def test_known_code_parameters(code, n, k, d):
    """Textbook parameters: Hamming [2^m-1, 2^m-1-m, 3], Golay [23, 12, 7], BCH(31) ..."""
    assert (code.n, code.k, code.minimum_distance()) == (n, k, d)


def test_min_distance_and_leaders_by_brute_force():
    for code in (hamming(3), extended_hamming(3), bch(4, 5), gilbert_varshamov(12, 5)):
        assert code.minimum_distance() == _brute_min_distance(code)
        W, L = code.coset_leader_weights(), code.coset_leaders()
        best = {}
        for x in range(1 << code.n):
            s = code.syndrome(x)
            best[s] = min(best.get(s, 99), bin(x).count("1"))
        for s in range(1 << code.r):
            assert W[s] == best[s] and code.syndrome(int(L[s])) == s and bin(int(L[s])).count("1") == W[s]
    # Golay is perfect: the coset leader weights are 0, 1, 2, 3 with counts C(23, j)
    w = golay().coset_leader_weights()
    assert [int((w == j).sum()) for j in range(4)] == [math.comb(23, j) for j in range(4)]
    # weight distribution of the Golay code (known: 1, 253, 506, 1288, 1288, 506, 253, 1)
    wd = golay().weight_distribution()
    assert {i: v for i, v in enumerate(wd) if v} == {0: 1, 7: 253, 8: 506, 11: 1288, 12: 1288, 15: 506, 16: 253, 23: 1}


def test_syndrome_blocks_are_the_syndromes_of_every_dataset_in_order():
    """Block by block (memory O(block)), the syndromes are H x for x = 0 .. 2^n - 1: checked
    against code.syndrome(x) (the columns XORed bit by bit) for every x, at several block sizes
    (smaller than, equal to and larger than n)."""
    code = extended_hamming(4)  # n = 16
    brute = np.array([code.syndrome(x) for x in range(1 << code.n)])
    for bits in (3, 10, 16, 20):
        starts, parts = zip(*syndrome_blocks(code, block_bits=bits))
        b = 1 << min(bits, code.n)
        assert list(starts) == list(range(0, 1 << code.n, b))
        assert np.array_equal(np.concatenate(parts), brute)
    assert np.array_equal(all_syndromes(code), brute)


def test_gilbert_varshamov_reaches_target_and_refuses_large():
    for n, d in [(20, 5), (23, 7), (31, 7)]:
        c = gilbert_varshamov(n, d)
        assert c.minimum_distance() >= d
        vol = sum(math.comb(n - 1, i) for i in range(d - 1))
        assert (1 << c.r) > vol or c.r <= vol.bit_length()  # Varshamov guarantee range
    with pytest.raises(TooLarge, match="refused before allocation"):
        all_syndromes(bch(5, 5))  # 2^31 datasets
    cw = golay().coset_weight_distribution(5)
    assert sum(cw) == 2**12  # every coset has 2^k vectors


def test_accept_probabilities_closed_form():
    # w = (t-1)/4 - log2(1/delta)/eps ; p[0] = P[L < w]
    p = accept_probabilities(23, 7, 8.0, 0.25)
    w = 1.5 - 2 / 8.0
    assert abs(float(p[0]) - (1 - math.exp(-8 * w) / 2)) < 1e-15
    assert abs(float(p[3]) - math.exp(8 * (w - 3)) / 2) < 1e-15


def test_accept_probabilities_at_50_digits():
    """At (eps, delta) = (4, 0.05), w = 1.5 - log2(20)/4 is irrational: every p[d] must agree
    with a 60-digit evaluation of the closed form to ~1e-45 relative (w - d used to be formed at
    15 digits: 6.6e-15 off)."""
    import mpmath

    p = accept_probabilities(23, 7, 4.0, 0.05)
    with mpmath.workdps(60):
        w = mpmath.mpf(6) / 4 - mpmath.log(1 / mpmath.mpf(0.05), 2) / 4  # the float 0.05
        for d in (0, 1, 3, 10, 23):
            z = w - d
            ref = mpmath.exp(4 * z) / 2 if z < 0 else 1 - mpmath.exp(-4 * z) / 2
            assert abs(p[d] - ref) / ref < mpmath.mpf(10) ** -45


def test_dmax_grouped_matches_measures():
    rng = np.random.default_rng(4)
    for _ in range(50):
        P = rng.dirichlet(np.ones(6))
        Q = rng.dirichlet(np.ones(6))
        for b in (0.0, 0.1, 0.3):
            ref = approx_max_divergence(P, Q, b)
            got = dmax_grouped([(mpmath.mpf(float(p)), mpmath.mpf(float(q))) for p, q in zip(P, Q)], b)
            assert abs(float(got) - ref) < 1e-9


def test_claims_exact_on_small_codes():
    """Hamming and extended Hamming codes, enumerated; and the syndrome reduction agrees with
    the enumeration of all 2^n datasets."""
    import proofs_checks.codes as codes

    for code, block in ((hamming(3), 20), (extended_hamming(4), 20), (extended_hamming(4), 5)):
        # block 5: the enumeration runs over 2^11 blocks of 32 datasets; the same values
        codes.BLOCK_BITS, saved = block, codes.BLOCK_BITS
        try:
            recs = {(r["check"], r["inputs"].get("beta")): r for r in check_code(code, 8.0, 0.25)}
        finally:
            codes.BLOCK_BITS = saved
        dp, dpe = recs[("claim2.dp", None)], recs[("claim2.dp.enumeration", None)]
        assert dp["verdict"] == "holds" and abs(dp["value"] - dpe["value"]) < 1e-12
        for b in (0.5, 0.9):
            assert abs(recs[("claim2.maxinfo", b)]["value"] - recs[("claim2.maxinfo.enumeration", b)]["value"]) < 1e-9
        assert recs[("claim2.step.sound", None)]["verdict"] == "holds"
        # perfect Hamming(7): x at distance 1 next to a vector decoding elsewhere -> the paper's step fails
    step = {r["check"]: r for r in check_code(hamming(3), 8.0, 0.25)}["claim2.step"]
    assert step["verdict"] == "FAILS" and step["value"] > 0


def test_golay_claims_hold_at_large_eps():
    """Golay [23,12,7], eps = 8, delta = 1/4 (outside the theorem's eps <= 1/2, at enumerable
    size): every claim and Cor 4.2 hold; reconstruction probability 1 - e^{-10}/2 (hand:
    w = 6/4 - 2/8 = 1.25, P[L < 1.25] = 1 - e^{-8 * 1.25}/2)."""
    recs = check_code(golay(), 8.0, 0.25, enumerate_all=False)
    bad = [r for r in recs if r["verdict"] == "FAILS" and r["check"] != "claim2.step"]
    assert not bad
    q = next(r for r in recs if r["check"] == "claim3.reconstruct")["value"]
    assert abs(q - (1 - math.exp(-10) / 2)) < 1e-15
    mi = next(r for r in recs if r["check"] == "claim3.maxinfo" and r["inputs"]["beta"] == 0.1)
    assert abs(mi["value"] - (23 + math.log2(1 - 0.1 / q))) < 1e-12  # n + log2(1 - beta/q)


def test_golay_claims_boundary_in_eps():
    """Where the Golay claims stop holding (docs/verification.md): at delta = 1/4 claims 3 hold at
    eps = 2 and fail at eps = 1; Cor 4.2 still holds at eps = 1 and fails at eps = 1/2. Hand:
    w = (t - 1)/4 - log2(1/delta)/eps = 1.5 - 2/eps is 0.5 at eps = 2, -0.5 at eps = 1."""

    def failing(eps, delta):
        recs = check_code(golay(), eps, delta, enumerate_all=False)
        return {r["check"] for r in recs if r["verdict"] == "FAILS"} - {"claim2.step"}

    assert failing(2.0, 0.25) == set()
    assert failing(1.0, 0.25) == {"claim3.maxinfo", "claim3.reconstruct"}
    assert "cor42" in failing(0.5, 0.25)


def test_regime_formulas():
    g = regime_row(0.5, 0.25, 1024)
    assert g["t"] == 33 and g["r_paper"] == 3 * 33 * 10 and g["claim3"] and g["claim2_dp"]
    assert abs(g["claim3_q"] - (1 - math.exp(-0.5 * 4) / 2)) < 1e-15  # w = log2(1/delta)/eps = 4
    # the stated n > 64e is not enough: at eps = 0.1, delta = 1e-6 the proof needs n > 2e(t - 1)
    g = regime_row(0.1, 1e-6, 1024)
    assert g["n_gt_64e"] and not g["n_gt_2e(t-1)"] and not g["code_exists_paper_r"]
    assert smallest_valid_n(0.5, 0.25) == 991


def test_campaign_quick_cli(tmp_path):
    """The quick campaign through the CLI (all 2^n datasets enumerated up to n = 16, Golay by
    the exact syndrome reduction), its JSON records, and resuming without recomputing."""
    out = tmp_path / "rep"
    js = tmp_path / "records.json"
    argv = ["run", "counterexample", "--quick", "--enumerate-max-n", "16", "--out", str(out), "--json", str(js)]
    assert pc_main(argv) == 0
    recs = json.loads(js.read_text())
    assert len(recs) > 100
    assert {"id", "mechanism", "inputs", "value", "bound", "verdict", "seconds"} <= set(recs[0])
    summary = json.loads((out / "counterexample" / "report.json").read_text())
    assert summary["errors"] == [] and "Hamming[7,4,3]" in summary["false_proof_step_lemma_4_9"]
    assert (out / "counterexample" / "counterexample.png").stat().st_size > 1000
    assert "Golay" in (out / "counterexample" / "report.md").read_text()
    lines = (out / "counterexample" / "records.jsonl").read_text().splitlines()
    assert pc_main(argv) == 0  # resumed: nothing recomputed, nothing appended
    assert (out / "counterexample" / "records.jsonl").read_text().splitlines() == lines
