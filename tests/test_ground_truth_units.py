"""The verification suite's ground truth, held in-process against hand values (issue 44 item 2:
the mutation run of ``proofs_checks`` found the exact mechanisms' bucketed, exponential and
Gaussian tables, the float paths of the dataset weights, the chunked joint table, the
global-null simulation's counting and its rules' calibration reached by no test outside the
heavy campaigns). Every expected value is written by hand from the definition, or is an exact
probability the simulation's rejection rate must match within five standard deviations."""

from __future__ import annotations

import math
import re
from fractions import Fraction as F

import mpmath
import numpy as np
import pytest

from proofs_checks.bruteforce import event_sums
from proofs_checks.codes import TooLarge, hamming
from proofs_checks.counterexample import (
    _dp_by_enumeration,
    accept_probabilities,
    check_code,
    dmax_grouped,
    laplace_cdf,
    regime_row,
    smallest_valid_n,
)
from proofs_checks.enumeration import (
    adaptive_compose,
    binomial_weights,
    check_size,
    full_joint,
    mixture_weights,
    product_dataset_distribution,
    typeclass_joint,
)
from proofs_checks.mechanisms import (
    above_threshold_count,
    approx_delta,
    bucketed_gaussian,
    bucketed_geometric_count,
    bucketed_geometric_float,
    exponential_count,
    gaussian_count,
    gaussian_delta_50,
    geometric_count,
    per_record_rr,
    pure_epsilon,
    randomized_response_count,
    report_noisy_max_count,
    thresholded_count,
    truncated_geometric,
)
from proofs_checks.simulate.selection import (
    SelectionConfig,
    _sf_table,
    config_dict,
    exact_naive_rate,
    procedures,
    run_chunk,
)

# ---------------------------------------------------------------- mechanisms


def test_bucketed_geometric_count_by_hand() -> None:
    # geometric_count(3, 1/2): P(Z = k) = (1/3) 2^-|k|, clamped to [0, 3]; row c = 0 is
    # (2/3, 1/6, 1/12, 1/12), row 1 (1/3, 1/3, 1/6, 1/6); buckets {0, 1}, {2, 3}
    assert geometric_count(3, F(1, 2))[0] == [F(2, 3), F(1, 6), F(1, 12), F(1, 12)]
    assert bucketed_geometric_count(3, F(1, 2), 2) == [
        [F(5, 6), F(1, 6)],
        [F(2, 3), F(1, 3)],
        [F(1, 3), F(2, 3)],
        [F(1, 6), F(5, 6)],
    ]
    # width 3 on n = 4: buckets {0, 1, 2} and {3, 4}
    rows = bucketed_geometric_count(4, F(1, 2), 3)
    assert [len(r) for r in rows] == [2] * 5 and all(sum(r) == 1 for r in rows)


def test_exponential_count_by_hand() -> None:
    # base 2, candidates 0 and 2, score -|c - r|: weights (1, 1/4) at c = 0, (1/2, 1/2) at c = 1
    assert exponential_count(2, F(2), [0, 2]) == [[F(4, 5), F(1, 5)], [F(1, 2), F(1, 2)], [F(1, 5), F(4, 5)]]
    with pytest.raises(ValueError, match=r"^base=1 is invalid: must be > 1"):
        exponential_count(2, F(1), [0, 2])


def test_gaussian_count_by_hand() -> None:
    # n = 2, sigma = 1: row c holds P(round(c + Z) = y) clamped, from Phi at the half-integers
    got = gaussian_count(2, 1.0)
    with mpmath.workdps(30):

        def phi(x: float) -> float:
            return float(mpmath.ncdf(x))

        want = [
            [phi(0.5), phi(1.5) - phi(0.5), 1 - phi(1.5)],
            [phi(-0.5), phi(0.5) - phi(-0.5), 1 - phi(0.5)],
            [phi(-1.5), phi(-0.5) - phi(-1.5), 1 - phi(-0.5)],
        ]
    assert got.shape == (3, 3)
    np.testing.assert_allclose(got, want, rtol=1e-14, atol=1e-16)


def test_approx_delta_of_the_geometric_count_by_hand() -> None:
    # n = 1, a = 1/2: rows (2/3, 1/3) and (1/3, 2/3). delta(0) is the total variation 1/3;
    # delta(ln 1.5) = 2/3 - 1.5 * 1/3 = 1/6; at eps = ln 2 (its pure eps) delta is 0
    M = geometric_count(1, F(1, 2))
    assert approx_delta(M, 0.0) == pytest.approx(1 / 3, rel=1e-15)
    assert approx_delta(M, math.log(1.5)) == pytest.approx(1 / 6, rel=1e-14)
    assert approx_delta(M, math.log(2.0) + 1e-12) == 0.0


def test_gaussian_delta_50_against_balle_wang_by_hand() -> None:
    # sigma = 1, eps = 0: delta = Phi(1/2) - Phi(-1/2) = 0.382924922548026...
    assert gaussian_delta_50(1.0, 0.0) == pytest.approx(0.38292492254802624, rel=1e-15)


# --------------------------------------------------------------- enumeration


def test_binomial_weights_exact_and_float() -> None:
    want = [F(27, 64), F(27, 64), F(9, 64), F(1, 64)]
    assert binomial_weights(3, F(1, 4)) == want
    np.testing.assert_allclose(binomial_weights(3, 0.25), [float(w) for w in want], rtol=1e-14)


def test_mixture_weights_exact_and_float() -> None:
    # 1/3 Bin(2, 1/2) + 2/3 Bin(2, 1/4) = (11/24, 5/12, 1/8)
    want = [F(11, 24), F(5, 12), F(1, 8)]
    assert mixture_weights(2, [F(1, 2), F(1, 4)], [F(1, 3), F(2, 3)]) == want
    got = mixture_weights(2, [0.5, 0.25], [1 / 3, 2 / 3])
    np.testing.assert_allclose(got, [float(w) for w in want], rtol=1e-14)


def test_product_dataset_distribution_by_hand() -> None:
    # record i is digit i of the index: index 1 = (1, 0), index 2 = (0, 1)
    np.testing.assert_allclose(product_dataset_distribution(2, 0.25), [0.5625, 0.1875, 0.1875, 0.0625])
    np.testing.assert_allclose(
        product_dataset_distribution(2, [0.5, 0.3, 0.2]),
        [0.25, 0.15, 0.1, 0.15, 0.09, 0.06, 0.1, 0.06, 0.04],
    )
    with pytest.raises(TooLarge, match=r"^dataset distribution: 536870912 x 1 cells"):
        product_dataset_distribution(29, 0.5)


def _rr_joint(n: int, q: float, m: int, px: np.ndarray) -> np.ndarray:
    """px[x] * prod_j (1 - q if bit j of x equals bit j of y else q), by loops."""
    out = np.zeros((2**n, 2**m))
    for x in range(2**n):
        for y in range(2**m):
            p = px[x]
            for j in range(m):
                p *= (1 - q) if ((x >> j) & 1) == ((y >> j) & 1) else q
            out[x, y] = p
    return out


def test_full_joint_in_chunks_with_progress(capsys: pytest.CaptureFixture[str]) -> None:
    n, q, m = 7, 0.2, 2
    px = product_dataset_distribution(n, 0.3)
    want = _rr_joint(n, q, m, px)
    # 128 datasets in 32 chunks of 4: a progress line after every 16th chunk
    got = full_joint(per_record_rr(n, F(1, 5), m), n, px, 2**m, chunk=4, progress=True)
    np.testing.assert_allclose(got, want, rtol=1e-14)
    lines = capsys.readouterr().err.strip().splitlines()
    assert [ln.split(",")[0] for ln in lines] == ["[enumeration] 64/128 datasets", "[enumeration] 128/128 datasets"]
    for ln in lines:
        assert re.fullmatch(r"\[enumeration\] \d+/128 datasets, (\d+)\.\ds", ln)
        assert float(re.findall(r"([\d.]+)s$", ln)[0]) < 600
    # chunks that do not divide the table, and no progress unless asked
    got = full_joint(per_record_rr(n, F(1, 5), m), n, px, 2**m, chunk=5)
    np.testing.assert_allclose(got, want, rtol=1e-14)
    full_joint(per_record_rr(n, F(1, 5), m), n, px, 2**m, chunk=4)
    full_joint(per_record_rr(n, F(1, 5), m), n, px, 2**m, chunk=4, progress=False)
    assert capsys.readouterr().err == ""
    with pytest.raises(ValueError, match=r"^px has shape \(127,\): must be \(128,\)$"):
        full_joint(per_record_rr(n, F(1, 5), m), n, px[:127], 2**m)
    with pytest.raises(TooLarge, match=r"^full joint table: 536870912 x 4 cells"):
        full_joint(per_record_rr(29, F(1, 5), m), 29, np.ones(1), 4)


def test_adaptive_compose_reads_the_first_output() -> None:
    # M1 = geometric_count(1, 1/2): rows (2/3, 1/3), (1/3, 2/3); after y1 = 0 randomized response
    # (q = 1/4): rows (3/4, 1/4), (1/4, 3/4); after y1 = 1 geometric_count(1, 1/5): rows
    # (5/6, 1/6), (1/6, 5/6). Output index y1 * 2 + y2.
    M1 = geometric_count(1, F(1, 2))

    def second(y1: int) -> list[list[F]]:
        return randomized_response_count(1, F(1, 4)) if y1 == 0 else geometric_count(1, F(1, 5))

    want = [[F(1, 2), F(1, 6), F(5, 18), F(1, 18)], [F(1, 12), F(1, 4), F(1, 9), F(5, 9)]]
    assert adaptive_compose(M1, second) == want
    got = adaptive_compose(np.asarray(M1, dtype=float), second)
    assert isinstance(got, np.ndarray)
    np.testing.assert_allclose(got, [[float(v) for v in r] for r in want], rtol=1e-15)


# ------------------------------------------------- the global-null simulation


def test_sf_table_by_hand() -> None:
    got = _sf_table(4)
    assert got.dtype == np.float64
    assert got.tolist() == [1.0, 15 / 16, 11 / 16, 5 / 16, 1 / 16]


def test_exact_naive_rate_by_hand() -> None:
    # Bin(10, 1/2): P(X >= 8) = 56/1024 <= 0.06 < P(X >= 7) = 176/1024, so the smallest p-value
    # of d = 3 features is at most 0.06 with probability 1 - (1 - 56/1024)^3
    assert exact_naive_rate(10, 3, 0.06) == pytest.approx(1 - (1 - 56 / 1024) ** 3, rel=1e-14)
    assert exact_naive_rate(10, 3, 1e-4) == 0.0  # below P(X >= 10) = 1/1024: never
    # a threshold equal to a p-value counts (p <= t): t = 56/1024 exactly rejects at 8
    assert exact_naive_rate(10, 3, 56 / 1024) == pytest.approx(1 - (1 - 56 / 1024) ** 3, rel=1e-14)
    assert config_dict(SelectionConfig(n=7, d=3))["n"] == 7 and config_dict(SelectionConfig())["d"] == 20


def _top3_pooled_rate(n: int, d: int, t: float) -> float:
    """P(P(Bin(3n, 1/2) >= top-3 sum) <= t) for d i.i.d. Bin(n, 1/2) counts, by enumerating
    every count vector (exact up to float sums)."""
    w = [math.comb(n, c) / 2**n for c in range(n + 1)]
    tail = [sum(math.comb(3 * n, j) for j in range(s, 3 * n + 1)) / 2 ** (3 * n) for s in range(3 * n + 1)]
    total = 0.0
    for cs in np.ndindex(*([n + 1] * d)):
        s = sum(sorted(cs)[-3:])
        if tail[s] <= t:
            total += math.prod(w[c] for c in cs)
    return total


def _within(rejections: int, reps: int, p: float) -> bool:
    return abs(rejections - reps * p) <= 5 * math.sqrt(reps * p * (1 - p)) + 1


@pytest.mark.parametrize(
    ("kind", "params", "which"),
    [
        ("argmax", {}, "min"),
        ("rnm", {"scale": 1e-9}, "min"),  # negligible noise: the largest count
        ("rnm", {"scale": 1e9}, "one"),  # overwhelming noise: a feature chosen at random
        ("expmech", {"coefficient": 1e9}, "min"),
        ("expmech", {"coefficient": 0.0}, "one"),  # Gumbel argmax alone: uniform
        ("gauss", {"sigma": 1e-9}, "min"),
        ("gauss", {"sigma": 1e9}, "one"),
        ("topm", {"m": 3}, "top3"),
    ],
)
def test_run_chunk_rejection_rates_match_exact_probabilities(kind: str, params: dict, which: str) -> None:
    n, d, reps = 10, 4, 20_000
    ts = [1e-4, 0.06, 0.2, 1.0]
    out = run_chunk(kind, params, n, d, ts, reps, 12345, [0])
    assert out["reps"] == reps
    size = {1e-4: 0.0, 0.06: 56 / 1024, 0.2: 176 / 1024, 1.0: 1.0}  # P(p <= t) for one test
    for t, r in zip(ts, out["rejections"], strict=True):
        if which == "min":
            p = 1 - (1 - size[t]) ** d
        elif which == "one":
            p = size[t]
        else:
            p = _top3_pooled_rate(n, d, t)
        assert _within(r, reps, p), (kind, t, r, reps * p)


def test_top3_pooled_reference_by_hand() -> None:
    # n = 1, d = 3: the top-3 sum is the sum of all three bits, Bin(3, 1/2); its pooled p-value
    # P(Bin(3, 1/2) >= s) is at most 1/8 only at s = 3, with probability 1/8
    assert _top3_pooled_rate(1, 3, 0.125) == pytest.approx(0.125)


def test_run_chunk_refuses_an_unknown_rule() -> None:
    with pytest.raises(ValueError, match=r"^kind='median' is invalid: must be one of \('argmax'"):
        run_chunk("median", {}, 10, 4, [0.05], 10, 1, [0])


def test_run_chunk_is_seeded_by_entropy_and_spawn_key() -> None:
    a = run_chunk("rnm", {"scale": 2.0}, 50, 5, [0.05, 0.2], 2_000, 7, [0])
    assert run_chunk("rnm", {"scale": 2.0}, 50, 5, [0.05, 0.2], 2_000, 7, [0]) == a
    assert run_chunk("rnm", {"scale": 2.0}, 50, 5, [0.05, 0.2], 2_000, 8, [0]) != a
    assert run_chunk("rnm", {"scale": 2.0}, 50, 5, [0.05, 0.2], 2_000, 7, [1]) != a


def test_procedures_calibrate_each_rule() -> None:
    cfg = SelectionConfig(n=10_000, d=5, alpha=0.05, eps=(0.01,), gaussian=((0.003, 1e-20),))
    got = {p.name: p for p in procedures(cfg)}
    assert list(got) == [
        "naive-argmax",
        "top3-pooled",
        "report-noisy-max eps=0.01",
        "exponential eps=0.01",
        "gaussian-noisy-max eps=0.003 delta=1e-20",
    ]
    # description length (DFHPRR Thm 6) at beta = alpha/2: gamma = alpha^2 / (4 m), rounded down
    assert got["naive-argmax"].kind == "argmax" and got["naive-argmax"].guarantee == "output one of d = 5"
    assert got["naive-argmax"].params == {} and got["top3-pooled"].kind == "topm"
    # the routes: description length for the two outputs of a few values; RRST Thm 1.4b (pure DP
    # on i.i.d. records) for the pure rules; RRST Thm 3.1 (approximate DP, i.i.d.) for the Gaussian
    assert [p.route for p in got.values()] == [
        ("DFHPRR-6", "RRST-1.3"),
        ("DFHPRR-6", "RRST-1.3"),
        ("RRST-1.4b", "RRST-1.3"),
        ("RRST-1.4b", "RRST-1.3"),
        ("RRST-3.1", "RRST-1.3"),
    ]
    assert got["naive-argmax"].gamma == pytest.approx(0.05**2 / 20, rel=1e-12)
    assert got["naive-argmax"].gamma <= 0.05**2 / 20
    assert got["top3-pooled"].params == {"m": 3} and got["top3-pooled"].guarantee == "output one of C(d, 3) = 10"
    assert got["top3-pooled"].gamma == pytest.approx(0.05**2 / 40, rel=1e-12)
    # report noisy max with Lap(2/eps) on sensitivity-1 scores is eps-DP (Dwork & Roth 3.9)
    rnm = got["report-noisy-max eps=0.01"]
    assert rnm.kind == "rnm" and rnm.params == {"scale": 200.0} and rnm.guarantee == "(0.01, 0)-DP"
    # the exponential mechanism: P(j) ~ exp(eps s_j / 2), coefficient eps/2
    em = got["exponential eps=0.01"]
    assert em.kind == "expmech" and em.params == {"coefficient": 0.005} and em.guarantee == "(0.01, 0)-DP"
    for p in (rnm, em):  # the calculator's eps-DP route on n = 10,000 i.i.d. records, a real threshold
        assert 0 < p.gamma < 0.05 and p.k is not None and p.k > 0
    # the Gaussian: sigma calibrated on L2 sensitivity sqrt(5): delta(0.003) at sigma is at most
    # 1e-20, and a sigma 1e-6 smaller is not enough (Balle-Wang at 50 digits)
    g = got["gaussian-noisy-max eps=0.003 delta=1e-20"]
    sigma = g.params["sigma"]
    assert g.kind == "gauss" and g.guarantee == "(0.003, 1e-20)-DP"
    assert gaussian_delta_50(sigma / math.sqrt(5), 0.003) <= 1e-20
    assert gaussian_delta_50(sigma * (1 - 1e-6) / math.sqrt(5), 0.003) > 1e-20
    assert 0 < g.gamma < 0.05 and g.beta is not None and g.beta > 0


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("n", 0, "^n=0 is invalid: must be an integer in \\[1, inf\\]"),
        ("d", 2, "^d=2 is invalid: must be an integer in \\[3, inf\\]"),
        ("alpha", 0.0, r"^alpha=0.0 is invalid: must be a real number in \(0, 1\)"),
        ("alpha", 1.0, r"^alpha=1.0 is invalid: must be a real number in \(0, 1\)"),
        ("reps", 0, "^reps=0 is invalid: must be an integer in \\[1, inf\\]"),
        ("chunk", 0, r"^chunk=0 is invalid: must be an integer in \[1, 1000000\]"),
        ("chunk", 10**6 + 1, r"^chunk=1000001 is invalid: must be an integer in \[1, 1000000\]"),
        ("confidence", 0.4, r"^confidence=0.4 is invalid: must be a real number in \[0.5, 1\)"),
        ("confidence", 1.0, r"^confidence=1.0 is invalid: must be a real number in \[0.5, 1\)"),
    ],
)
def test_selection_config_refusals(field: str, value: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        SelectionConfig(**{field: value})  # type: ignore[arg-type]


def test_selection_config_accepts_its_ends() -> None:
    SelectionConfig(n=1, d=3, reps=1, chunk=1, confidence=0.5)
    SelectionConfig(chunk=10**6, alpha=1e-300, confidence=0.999999)


# ---------------------------------------------------------------- brute force


def test_event_sums_enumerate_every_event_exactly() -> None:
    # p = (1/2, 1/4, 1/4), q = (1/3, 1/3, 1/3): 8 events, the empty one (0, 0) first, all Fractions
    got = event_sums([F(1, 2), F(1, 4), F(1, 4)], [F(1, 3)] * 3)
    assert len(got) == 8 and got[0] == (0, 0) and got[-1] == (1, 1)
    singles = [(F(1, 2), F(1, 3)), (F(1, 4), F(1, 3)), (F(1, 4), F(1, 3))]
    pairs = [(F(3, 4), F(2, 3)), (F(3, 4), F(2, 3)), (F(1, 2), F(2, 3))]
    assert sorted(got) == sorted([(F(0), F(0)), *singles, *pairs, (F(1), F(1))])
    assert all(isinstance(a, F) and isinstance(b, F) for a, b in got)
    with pytest.raises(ValueError, match=r"^p and q have different lengths: 2 != 3$"):
        event_sums([F(1, 2)] * 2, [F(1, 3)] * 3)
    too_large = r"^support size n=17 is too large to enumerate 2\^n events: must be at most 16$"
    with pytest.raises(ValueError, match=too_large):
        event_sums([F(1, 17)] * 17, [F(1, 17)] * 17)


def test_event_sums_at_the_largest_support() -> None:
    # 16 cells (the documented limit): 2^16 events
    assert len(event_sums([F(1, 16)] * 16, [F(1, 16)] * 16)) == 1 << 16


# ------------------------------------------------------ the RRST §4 counterexample


def test_accept_probabilities_by_hand() -> None:
    # t = 3, eps = 1, delta = 1/4: w = (t - 1)/4 - log2(4)/1 = -1.5; p[d] = P[Lap(1) < -1.5 - d]
    # = e^(-1.5 - d)/2, for d = 0..n
    p = accept_probabilities(5, 3, 1.0, 0.25)
    assert len(p) == 6
    for d, v in enumerate(p):
        assert float(v) == pytest.approx(math.exp(-1.5 - d) / 2, rel=1e-14)
    assert float(laplace_cdf(mpmath.mpf(0), 1.0)) == 0.5
    assert float(laplace_cdf(mpmath.mpf(2), 1.0)) == pytest.approx(1 - math.exp(-2) / 2, rel=1e-15)


def test_dmax_grouped_by_hand() -> None:
    cells = [
        (mpmath.mpf("0.6"), mpmath.mpf("0.2")),
        (mpmath.mpf("0.3"), mpmath.mpf("0.3")),
        (mpmath.mpf("0.1"), mpmath.mpf("0.5")),
    ]
    # prefixes by ratio (3, 1, 0.2): (0.6 - 0.1)/0.2 = 2.5, (0.9 - 0.1)/0.5 = 1.6, 0.9: the sup is 2.5
    assert float(dmax_grouped(cells, 0.1)) == pytest.approx(math.log2(2.5), rel=1e-14)
    # an event of Q-mass 0 above beta: infinite
    assert dmax_grouped([(mpmath.mpf("0.5"), mpmath.mpf(0)), (mpmath.mpf("0.5"), mpmath.mpf(1))], 0.1) == mpmath.inf
    # beta at the total mass: no event has P(O) > beta
    with pytest.raises(ValueError, match=r"^beta=1.0 is invalid: must be below the total mass$"):
        dmax_grouped([(mpmath.mpf("0.5"), mpmath.mpf("0.25")), (mpmath.mpf("0.5"), mpmath.mpf("0.75"))], 1.0)


def _hamming_7_4_words() -> list[int]:
    """The codewords of a Hamming [7, 4] code: the x in {0, 1}^7 with H x = 0, H's columns the
    numbers 1..7 (bit j of x is coordinate j)."""
    return [x for x in range(128) if not _syndrome(x)]


def _syndrome(x: int) -> int:
    s = 0
    for j in range(7):
        if (x >> j) & 1:
            s ^= j + 1
    return s


def _brute_force_delta(eps: float, delta: float) -> float:
    """B outputs the codeword nearest x with probability p[d(x)], else bottom. For neighbours
    x, x' the delta at eps is sum_O max(0, P(O | x) - e^eps P(O | x')) over the nearest
    codeword(s) and bottom; a Hamming code is perfect, so the nearest codeword is unique. The
    largest over all 128 x and 7 neighbours, codewords found by brute force."""
    words = _hamming_7_4_words()
    assert len(words) == 16

    def nearest(x: int) -> tuple[int, int]:
        return min((bin(x ^ c).count("1"), c) for c in words)

    p = [float(v) for v in accept_probabilities(7, 3, eps, delta)]
    ee = math.exp(eps)
    worst = 0.0
    for x in range(128):
        d1, c1 = nearest(x)
        for i in range(7):
            d2, c2 = nearest(x ^ (1 << i))
            p1, p2 = p[d1], p[d2]
            out = max(0.0, p1 - ee * p2) if c1 == c2 else p1
            worst = max(worst, out + max(0.0, (1 - p1) - ee * (1 - p2)))
    return worst


@pytest.mark.parametrize(("eps", "delta"), [(0.1, 0.25), (1.0, 0.1)])
def test_dp_of_the_counterexample_mechanism_by_brute_force(eps: float, delta: float) -> None:
    got = _dp_by_enumeration(hamming(3), accept_probabilities(7, 3, eps, delta), eps)
    assert got == pytest.approx(_brute_force_delta(eps, delta), rel=1e-12)


def _smallest_n_by_scan(eps: float, delta: float) -> int:
    """RRST §4.2's conditions, n upward from 1: n > 64e, n > 2e(t - 1), r = ceil(3 t log2 n) < n,
    and Cor 4.2's n - 1 - r - log2(1/beta1) > 0 with beta1 = (1/2 - delta)/2, t =
    ceil(8 log2(1/delta)/eps + 1)."""
    t = math.ceil(8 * math.log2(1 / delta) / eps + 1)
    n = 1
    while True:
        r = math.ceil(3 * t * math.log2(n))
        if n > 64 * math.e and n > 2 * math.e * (t - 1) and r < n and n - 1 - r - math.log2(4 / (1 - 2 * delta)) > 0:
            return n
        n += 1


# (8, 1/4): n > 64e binds (smallest 174); (1/2, 0.49): Cor 4.2's log2(1/beta1) = log2(200) binds
@pytest.mark.parametrize(("eps", "delta"), [(0.5, 0.25), (0.5, 0.01), (0.25, 0.1), (8.0, 0.25), (0.5, 0.49)])
def test_smallest_valid_n_against_a_scan(eps: float, delta: float) -> None:
    got = smallest_valid_n(eps, delta)
    assert type(got) is int and got == _smallest_n_by_scan(eps, delta)


def test_regime_row_by_hand() -> None:
    # eps = 1/2, delta = 1/4, n = 1000 (RRST §4.2): t = ceil(8 * 2 / 0.5 + 1) = 33,
    # r = ceil(99 log2 1000) = 987, s = (t - 1)/4 = 8, w = s - 2/0.5 = 4, k = n - r = 13
    row = regime_row(0.5, 0.25, 1000)
    assert (row["eps"], row["delta"], row["n"], row["t"], row["r_paper"]) == (0.5, 0.25, 1000, 33, 987)
    # Varshamov: the least r with 2^r > sum_{i <= t - 2} C(n - 1, i)
    vol = sum(math.comb(999, i) for i in range(32))
    assert row["r_varshamov"] == vol.bit_length() and 2 ** (vol.bit_length() - 1) <= vol
    assert row["n_gt_64e"] and row["n_gt_2e(t-1)"] and row["code_exists_paper_r"] and row["claim1_nonvacuous"]
    # the far pair: d = (t - 1) // 2 = 16, P[Lap(2) < 4 - 16] = e^(-6)/2
    assert row["claim2_dp_far_pair_p"] == pytest.approx(math.exp(-6) / 2, rel=1e-14) and row["claim2_dp"]
    # Pr[not bottom] <= |B_7| / |B_16| + P[Lap(2) < -4] (s = 8: the open ball B_{<8} = B_7)
    ball = [sum(math.comb(1000, i) for i in range(r + 1)) for r in (7, 16)]
    want = float(F(ball[0], ball[1])) + math.exp(-2) / 2
    assert row["claim2_pr_not_bottom_bound"] == pytest.approx(want, rel=1e-14) and row["claim2_maxinfo"]
    assert row["claim3_q"] == pytest.approx(1 - math.exp(-2) / 2, rel=1e-15) and row["claim3"]
    # Cor 4.2: n - 1 - r - log2(1/beta1), beta1 = (1/2 - 1/4)/2 = 1/8: 1000 - 1 - 987 - 3 = 9
    assert row["cor42_bound_bits"] == pytest.approx(9.0, abs=1e-12) and row["cor42_nonvacuous"]
    q = 1 - math.exp(-2) / 2
    assert row["composition_maxinfo_bits_beta_0.1"] == pytest.approx(1000 + math.log2(1 - 0.1 / q), rel=1e-14)
    # n = 100: below 64e, and r = ceil(99 log2 100) = 658 >= n: no such code, nothing holds
    small = regime_row(0.5, 0.25, 100)
    assert small["r_paper"] == 658
    assert not small["n_gt_64e"] and not small["code_exists_paper_r"] and not small["claim1_nonvacuous"]
    assert small["n_gt_2e(t-1)"] is False and not small["cor42_nonvacuous"]


def test_check_code_records_by_hand() -> None:
    # Hamming [7, 4, 3] at eps = 1/2, delta = 1/4 (t = 3: w = 1/2 - 4 = -3.5)
    recs = check_code(hamming(3), 0.5, 0.25)
    by = {(r["check"], r["inputs"].get("beta")): r for r in recs}
    for r in recs:  # n = 7 is far below 64e: nothing is in the theorem's regime
        assert r["mechanism"] == "Hamming[7,4,3]" and (r["n"], r["r"]) == (7, 3)
        assert r["in_regime"] is False and r["inputs"]["in_regime"] is False
        assert (r["inputs"]["eps"], r["inputs"]["delta"], r["inputs"]["t"]) == (0.5, 0.25, 3)
        assert r["id"].startswith(f"{r['check']}/Hamming[7,4,3]/eps=0.5,delta=0.25,t=3,in_regime=False")
    # claim 1: HX is uniform on the 2^3 syndromes, so I^beta(X; HX) = log2(8 (1 - beta)), against
    # the bound r + log2(1/beta); the default betas are 1e-6, 0.1 and 1/2 - delta
    for beta in (1e-6, 0.1, 0.25):
        r = by[("claim1", beta)]
        assert r["value"] == pytest.approx(math.log2(8 * (1 - beta)), rel=1e-12)
        assert r["bound"] == pytest.approx(3 + math.log2(1 / beta), rel=1e-12)
        assert r["verdict"] == "holds"
    # claim 2 (max-information) at the default betas 2 delta = 1/2 and 0.9, against 1 bit
    assert {b for (c, b) in by if c == "claim2.maxinfo"} == {0.5, 0.9}
    # claim 3: B reconstructs x with probability P[Lap(2) < w] = e^(-1.75)/2, against 1 - delta
    r = by[("claim3.reconstruct", None)]
    assert r["value"] == pytest.approx(math.exp(-1.75) / 2, rel=1e-14)
    assert r["bound"] == 0.75 and r["verdict"] == "FAILS"
    # claim 2 (DP): the worst neighbouring pair's delta, against delta
    r = by[("claim2.dp", None)]
    assert r["bound"] == 0.25 and r["verdict"] == "holds"
    assert r["value"] == pytest.approx(_brute_force_delta(0.5, 0.25), rel=1e-12)


def _softmax_rate(n: int, d: int, coef: float, t: float) -> float:
    """P(p_selected <= t) when feature j is chosen with probability exp(coef s_j)/sum, the d
    counts i.i.d. Bin(n, 1/2): every count vector enumerated."""
    w = [math.comb(n, c) / 2**n for c in range(n + 1)]
    sf = [sum(math.comb(n, j) for j in range(s, n + 1)) / 2**n for s in range(n + 1)]
    total = 0.0
    for cs in np.ndindex(*([n + 1] * d)):
        e = [math.exp(coef * c) for c in cs]
        hit = sum(ei for ei, c in zip(e, cs, strict=True) if sf[c] <= t) / sum(e)
        total += hit * math.prod(w[c] for c in cs)
    return total


def test_exponential_rule_between_argmax_and_uniform() -> None:
    # coefficient 1: neither the largest count nor a uniform choice; the exact softmax rate
    n, d, reps = 10, 4, 20_000
    ts = [0.06, 0.2]
    out = run_chunk("expmech", {"coefficient": 1.0}, n, d, ts, reps, 99, [3])
    for t, r in zip(ts, out["rejections"], strict=True):
        assert _within(r, reps, _softmax_rate(n, d, 1.0, t)), (t, r)


def test_top3_pooled_with_six_features() -> None:
    # d = 6 counts of n = 2 records: the pooled test on the three largest, rate by enumeration
    n, d, reps = 2, 6, 20_000
    ts = [1 / 64, 7 / 64, 22 / 64]  # P(Bin(6, 1/2) >= 6), >= 5, >= 4
    out = run_chunk("topm", {"m": 3}, n, d, ts, reps, 5, [2])
    for t, r in zip(ts, out["rejections"], strict=True):
        assert _within(r, reps, _top3_pooled_rate(n, d, t)), (t, r)


def test_typeclass_joint_exact_and_float() -> None:
    # geometric_count(1, 1/2) rows (2/3, 1/3), (1/3, 2/3); Binomial(1, 1/2) weights 1/2 each
    M = geometric_count(1, F(1, 2))
    want = [[F(1, 3), F(1, 6)], [F(1, 6), F(1, 3)]]
    assert typeclass_joint(M, 1, F(1, 2)) == want
    for got in (
        typeclass_joint(M, 1, 0.5),  # float weights, exact matrix
        typeclass_joint(np.asarray(M, dtype=float), 1, F(1, 2)),  # exact weights, float matrix
    ):
        assert isinstance(got, np.ndarray) and got.dtype == np.float64
        np.testing.assert_allclose(got, [[1 / 3, 1 / 6], [1 / 6, 1 / 3]], rtol=1e-15)
    with pytest.raises(ValueError, match=r"^M has 2 rows: must have n \+ 1 = 3$"):
        typeclass_joint(M, 2, F(1, 2))
    # refused by its size before anything is built (rows of 2^28 outputs, never allocated)
    with pytest.raises(TooLarge, match=r"^type-class table: 2 x 268435456 cells"):
        typeclass_joint([range(1 << 28), range(1 << 28)], 1, F(1, 2))


def test_check_size_at_the_budget() -> None:
    check_size("t", 1 << 14, 1 << 14)  # exactly 2^28 cells: allowed
    msg = (
        r"^t: 16384 x 16385 cells \(2\.0 GiB at 8 bytes\) exceeds the 268435456-cell budget: "
        r"refused before allocation$"
    )
    with pytest.raises(TooLarge, match=msg):
        check_size("t", 1 << 14, (1 << 14) + 1)


def test_bucketed_geometric_float_matches_the_exact_table() -> None:
    # e^-eps = 1/2: the float table is the exact bucketed geometric count, to rounding
    for n, width in ((10, 3), (7, 1), (5, 6)):
        exact = bucketed_geometric_count(n, F(1, 2), width)
        got = bucketed_geometric_float(n, math.log(2.0), width)
        assert got.shape == (n + 1, n // width + 1)
        np.testing.assert_allclose(got, [[float(v) for v in r] for r in exact], rtol=1e-13, atol=1e-300)


def test_bucketed_gaussian_sums_the_rounded_count() -> None:
    # buckets of width 2 on n = 5: {0, 1}, {2, 3}, {4, 5} of the rounded, clamped count
    g = gaussian_count(5, 1.5)
    got = bucketed_gaussian(5, 1.5, 2)
    assert got.shape == (6, 3)
    np.testing.assert_allclose(got, g[:, 0::2] + g[:, 1::2], rtol=1e-13, atol=1e-16)


def test_mechanism_refusals_and_small_cases() -> None:
    for a in (F(0), F(1)):
        with pytest.raises(ValueError, match=rf"^alpha={a} is invalid: must be in \(0, 1\) \(alpha = e\^-eps\)$"):
            geometric_count(2, a)
    for q in (F(0), F(1, 2)):
        with pytest.raises(ValueError, match=rf"^q={q} is invalid: must be in \(0, 1/2\)$"):
            randomized_response_count(2, q)
    assert geometric_count(0, F(1, 2)) == [[F(1)]]
    # randomized response at q = 1/4 on n = 1: the bit kept with probability 3/4
    assert randomized_response_count(1, F(1, 4)) == [[F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]]
    assert randomized_response_count(1, F(2, 5)) == [[F(3, 5), F(2, 5)], [F(2, 5), F(3, 5)]]
    # truncated geometric, a = 1/2, K = 2: weights 1/4, 1/2, 1, 1/2, 1/4 over 5/2
    assert truncated_geometric(F(1, 2), 2) == {-2: F(1, 10), -1: F(1, 5), 0: F(2, 5), 1: F(1, 5), 2: F(1, 10)}
    # thresholded count: P(clamp(c + Z) >= 1) from the geometric rows (2/3, 1/3) and (1/3, 2/3)
    assert thresholded_count(1, F(1, 2), 1) == [[F(2, 3), F(1, 3)], [F(1, 3), F(2, 3)]]


def test_report_noisy_max_breaks_ties_to_the_earlier_candidate() -> None:
    # two candidates with equal scores, Z in {-1, 0, 1} w.p. (1/4, 1/2, 1/4): the first wins
    # unless Z2 > Z1, which has probability (1 - P(Z1 = Z2))/2 = (1 - 3/8)/2 = 5/16
    assert report_noisy_max_count(0, F(1, 2), [0, 0], K=1) == [[F(11, 16), F(5, 16)]]
    assert len(report_noisy_max_count(2, F(1, 2), [0, 2], K=1)) == 3
    # the documented default truncation K = 6
    assert report_noisy_max_count(1, F(1, 2), [0, 1]) == report_noisy_max_count(1, F(1, 2), [0, 1], K=6)
    assert report_noisy_max_count(1, F(1, 2), [0, 1]) != report_noisy_max_count(1, F(1, 2), [0, 1], K=7)


def test_above_threshold_by_hand() -> None:
    # n = 0, two queries at threshold 0, Z in {-1, 0, 1} w.p. (1/4, 1/2, 1/4): P(Z >= z0) is
    # 1, 3/4, 1/4 for z0 = -1, 0, 1. First query: 1/4 + 3/8 + 1/16 = 11/16; second:
    # 1/2 (1/4)(3/4) + 1/4 (3/4)(1/4) = 9/64; none: 1/2 (1/16) + 1/4 (9/16) = 11/64
    assert above_threshold_count(0, F(1, 2), [0, 0], K=1) == [[F(11, 16), F(9, 64), F(11, 64)]]
    # ties count as above (c + Z_j >= T + Z0): one query, P(Z1 >= Z0) = 11/16
    assert above_threshold_count(0, F(1, 2), [0], K=1) == [[F(11, 16), F(5, 16)]]
    assert len(above_threshold_count(2, F(1, 2), [1], K=1)) == 3
    assert above_threshold_count(1, F(1, 2), [1]) == above_threshold_count(1, F(1, 2), [1], K=6)
    assert above_threshold_count(1, F(1, 2), [1]) != above_threshold_count(1, F(1, 2), [1], K=7)


def test_pure_epsilon_reads_every_neighbouring_pair_both_ways() -> None:
    # the worst ratio in the last pair, forward (P(0 | 1)/P(0 | 2) = 2) or backward
    # (P(1 | 2)/P(1 | 1) = 5)
    fwd = [[F(1, 2), F(1, 2)], [F(1, 2), F(1, 2)], [F(1, 4), F(3, 4)]]
    assert pure_epsilon(fwd) == 2
    back = [[F(9, 10), F(1, 10)], [F(9, 10), F(1, 10)], [F(1, 2), F(1, 2)]]
    assert pure_epsilon(back) == 5
    # a float table with an output one neighbour never gives: no finite eps
    assert pure_epsilon(np.array([[1.0, 0.0], [0.5, 0.5]])) is None


@pytest.mark.parametrize(("sigma", "eps"), [(1.0, 0.0), (0.7, 0.3), (2.0, 1.5), (5.0, 0.01)])
def test_gaussian_delta_50_is_the_float_just_above(sigma: float, eps: float) -> None:
    with mpmath.workdps(60):
        s, e = mpmath.mpf(sigma), mpmath.mpf(eps)
        d = mpmath.ncdf(1 / (2 * s) - e * s) - mpmath.exp(e) * mpmath.ncdf(-1 / (2 * s) - e * s)
        f = float(d)
        want = f if mpmath.mpf(f) >= d else math.nextafter(f, math.inf)
    assert gaussian_delta_50(sigma, eps) == want
