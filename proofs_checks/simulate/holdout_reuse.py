"""DFHPRR's holdout-reuse experiment (§ "Experiments"), at the paper's full scale.

The analyst holds a training set and a holdout set of n labelled points each (x ∈ R^d with
N(0, 1) attributes, label y uniform on {−1, 1}) and a fresh set of n points drawn the same way.
She computes the correlation c_j = mean(x_j · y) of every attribute with the label on the
training set and asks the holdout for the same correlation; a variable is kept when both agree
in sign and both exceed 1/√n in absolute value. For each k of a grid she builds the classifier
sign(Σ_{j ∈ top k} sign(c_j) x_j) on the k kept variables of largest training correlation and
asks for its accuracy on the training set and on the holdout; the fresh set measures its true
accuracy. Settings: ``nosignal`` (no attribute carries information: true accuracy is 50%) and
``signal`` (the first 20 attributes get + (6/√n)·y).

The holdout is reached in one of three ways, on the same data within a repetition:

* ``standard``: the holdout answers exactly (DFHPRR's "standard holdout").
* ``thresholdout-gaussian``: the paper's experiment (T = 4/√n = 0.04, τ = 1/√n = 0.01): a
  query's training value is returned unless |train − holdout| > T + N(0, τ²), in which case
  holdout + N(0, τ²) is returned (the form of the paper's published experiment code).
* ``thresholdout-laplace``: DFHPRR §3's algorithm with Laplace noise (the one the DP guarantee
  covers), run by :class:`maxinfo_bounds.theorems.holdout.Thresholdout` itself with σ = τ/4
  (so its per-query comparison noise Lap(4σ) has the experiment's scale τ; σ = τ makes the
  comparison noise four times the experiment's and lets far more training values through) and a
  budget that never binds (the number of over-threshold answers is recorded).

Scale: n = d = 10,000 and 100 repetitions per setting, as in the paper. Training and holdout
attributes are drawn in float32 in blocks of ``block`` features (feature-major, so a block's
rows are features); only the candidate features that can still enter some variant's top
``max(ks)`` are kept, so memory per repetition is about 2·n·(2·block + 3·max(ks))·4 bytes plus
the fresh rows (≈ 0.3 GB in all) instead of 3·n·d·4 (1.2 GB). The fresh set is drawn only for
the (at most 3·max(ks)) features some classifier uses: a third fewer normals than drawing it
whole, with the same law.
The whole k grid reuses one draw: the top-k classifiers are nested, so one running sum over
the ordered features gives every k's predictions.

Conventions (the paper's code): k = 0 records accuracy 0.5 for every reported value; a
prediction of exactly 0 counts as wrong. If fewer than k variables are kept, the classifier
uses all of them (the paper's zero weights do the same).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from maxinfo_bounds.numeric import InvalidParameter, check_int, check_real
from maxinfo_bounds.theorems.holdout import Thresholdout

__all__ = [
    "HoldoutConfig",
    "SETTINGS",
    "VARIANTS",
    "run_repetition",
    "thresholdout_gaussian",
    "memory_per_repetition",
    "draw_only",
]

SETTINGS = ("nosignal", "signal")
VARIANTS = ("standard", "thresholdout-gaussian", "thresholdout-laplace")
PAPER_KS = (0, 10, 20, 30, 45, 70, 100, 150, 200, 250, 300, 400, 500)


@dataclass(frozen=True)
class HoldoutConfig:
    """Parameters of the experiment; the defaults are the paper's."""

    n: int = 10_000
    d: int = 10_000
    ks: tuple[int, ...] = PAPER_KS
    threshold: float = 0.04  # T = 4/sqrt(n)
    tolerance: float = 0.01  # tau = 1/sqrt(n): the Gaussian variant's noise scale
    laplace_sigma: float = 0.0025  # sigma = tau/4: Lap(4 sigma) comparison noise has scale tau
    n_signal: int = 20
    signal: float = 0.06  # 6/sqrt(n): added to the signal attributes times y
    block: int = 500
    settings: tuple[str, ...] = SETTINGS

    def __post_init__(self) -> None:
        check_int("n", self.n, low=2)
        check_int("d", self.d, low=1)
        check_int("block", self.block, low=1)
        check_int("n_signal", self.n_signal, low=0, high=self.d)
        check_real("threshold", self.threshold, low=0.0)
        check_real("tolerance", self.tolerance, low=0.0, low_open=True)
        check_real("laplace_sigma", self.laplace_sigma, low=0.0, low_open=True)
        check_real("signal", self.signal, low=0.0)
        if not self.ks or any(int(k) != k or k < 0 for k in self.ks) or list(self.ks) != sorted(set(self.ks)):
            raise InvalidParameter("ks", self.ks, "a non-empty increasing tuple of integers >= 0")
        if max(self.ks) > self.d:
            raise InvalidParameter("ks", self.ks, f"values <= d = {self.d}")
        for s in self.settings:
            if s not in SETTINGS:
                raise InvalidParameter("settings", self.settings, f"a subset of {SETTINGS}")

    @property
    def cutoff(self) -> float:
        """The selection cut-off on |correlation| (1/√n in the paper, = τ there)."""
        return 1.0 / math.sqrt(self.n)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def memory_per_repetition(cfg: HoldoutConfig) -> int:
    """Bytes one repetition holds at its peak (blocks, candidate pool, fresh rows, sums)."""
    kmax = max(cfg.ks)
    pool = 3 * kmax + cfg.block
    return 2 * cfg.n * (cfg.block + pool) * 4 + 3 * kmax * cfg.n * 4 + cfg.n * max(kmax, 1) * 8 * 2 + 64 * cfg.d


def thresholdout_gaussian(
    train: NDArray[np.float64],
    holdout: NDArray[np.float64],
    threshold: float,
    tolerance: float,
    rng: np.random.Generator,
) -> NDArray[np.float64]:
    """The paper experiment's Thresholdout, vectorised over queries answered in order.

    Returns ``train`` where |train − holdout| ≤ T + N(0, τ²) and holdout + N(0, τ²) elsewhere.
    Draws: one threshold noise per query, then one answer noise per query (both vectors drawn
    whole, as in the paper's code).

    >>> r = thresholdout_gaussian(np.array([0.5, 0.5]), np.array([0.5, 0.9]), 0.04, 1e-9,
    ...                           np.random.default_rng(0))
    >>> bool(r[0] == 0.5 and abs(r[1] - 0.9) < 1e-6)
    True
    """
    t = np.asarray(train, dtype=np.float64)
    h = np.asarray(holdout, dtype=np.float64)
    above = np.abs(t - h) > threshold + rng.normal(0.0, tolerance, t.shape)
    noisy = h + rng.normal(0.0, tolerance, t.shape)
    return np.where(above, noisy, t)


class _Pool:
    """Rows (features) of the training and holdout sets kept as candidates (lazy compaction)."""

    def __init__(self, n: int, capacity: int) -> None:
        self.rows = np.empty((2, capacity, n), dtype=np.float32)
        self.features = np.empty(capacity, dtype=np.int64)
        self.size = 0

    def add(self, blocks: list[NDArray[np.float32]], local: NDArray[np.int64], j0: int) -> None:
        m = len(local)
        if m == 0:
            return
        if self.size + m > self.rows.shape[1]:
            raise RuntimeError("candidate pool overflow")  # capacity is checked by the caller
        for s in range(2):
            self.rows[s, self.size : self.size + m] = blocks[s][local]
        self.features[self.size : self.size + m] = local + j0
        self.size += m

    def keep(self, features: NDArray[np.int64]) -> None:
        """Keep only the given features (a subset of those held), in place."""
        pos = np.flatnonzero(np.isin(self.features[: self.size], features))
        m = len(pos)
        self.rows[:, :m] = self.rows[:, pos]
        self.features[:m] = self.features[pos]
        self.size = m

    def positions(self, features: NDArray[np.int64]) -> NDArray[np.int64]:
        held = self.features[: self.size]
        order = np.argsort(held)
        return order[np.searchsorted(held[order], features)]


def _top(score: NDArray[np.float64], kmax: int) -> NDArray[np.int64]:
    """Indices of the (at most) kmax largest positive scores, largest first (ties: lower index)."""
    pos = np.flatnonzero(score > 0)
    if len(pos) > kmax:
        part = np.argpartition(-score[pos], kmax - 1)[:kmax]
        pos = pos[part]
    order = np.lexsort((pos, -score[pos]))
    return pos[order].astype(np.int64)


def run_repetition(
    cfg: HoldoutConfig, setting: str, seed: np.random.SeedSequence | int, *, details: bool = False
) -> dict[str, Any]:
    """One repetition of the experiment in one setting; all three variants on the same data.

    Returns, per variant, the training, reported holdout and fresh accuracies at every k, the
    exact holdout accuracy, the number of kept variables and (Laplace) of over-threshold
    answers; ``normals``, the number of normals drawn. Seeds: ``seed`` spawns four streams
    (training and holdout data, Gaussian Thresholdout, Laplace Thresholdout, fresh data), so the
    variants' noise never shifts the data. The fresh set is drawn only for the features some
    classifier uses (the others never touch a fresh accuracy; fresh data are independent of
    everything else, so this is the same law as drawing all d), sorted by feature index, after
    its labels. ``details=True`` adds those features' indices.
    """
    if setting not in SETTINGS:
        raise InvalidParameter("setting", setting, f"one of {SETTINGS}")
    ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    s_data, s_gauss, s_lap, s_fresh = ss.spawn(4)
    rng = np.random.default_rng(s_data)
    rng_g = np.random.default_rng(s_gauss)
    n, d, kmax = cfg.n, cfg.d, max(*cfg.ks, 1)
    cut = cfg.cutoff
    bias = np.float32(cfg.signal)
    ys = [(rng.integers(0, 2, n, dtype=np.int8) * 2 - 1).astype(np.float32) for _ in range(2)]
    c_train = np.empty(d)
    answers = {v: np.empty(d) for v in VARIANTS}
    lap = _laplace_thresholdout(cfg, s_lap, budget=d + len(cfg.ks))
    capacity = 3 * kmax + cfg.block
    pool = _Pool(n, capacity)
    scores = {v: np.zeros(d) for v in VARIANTS}
    tops: dict[str, NDArray[np.int64]] = {v: np.empty(0, np.int64) for v in VARIANTS}
    buf = [np.empty((cfg.block, n), dtype=np.float32) for _ in range(2)]
    for j0 in range(0, d, cfg.block):
        j1 = min(j0 + cfg.block, d)
        m = j1 - j0
        blocks = [b[:m] for b in buf]
        for s in range(2):
            rng.standard_normal(out=blocks[s], dtype=np.float32)
            if setting == "signal" and j0 < cfg.n_signal:
                blocks[s][: min(cfg.n_signal, j1) - j0] += bias * ys[s]
        ct = (blocks[0] @ ys[0]).astype(np.float64) / n
        ch = (blocks[1] @ ys[1]).astype(np.float64) / n
        c_train[j0:j1] = ct
        answers["standard"][j0:j1] = ch
        answers["thresholdout-gaussian"][j0:j1] = thresholdout_gaussian(ct, ch, cfg.threshold, cfg.tolerance, rng_g)
        answers["thresholdout-laplace"][j0:j1] = [_answer(lap, a, b) for a, b in zip(ct, ch)]
        new: list[NDArray[np.int64]] = []
        for v in VARIANTS:
            a = answers[v][j0:j1]
            keep = ((ct > cut) & (a > cut)) | ((ct < -cut) & (a < -cut))
            scores[v][j0:j1] = np.where(keep, np.abs(ct), 0.0)
            cand = np.concatenate([tops[v], j0 + np.flatnonzero(keep)])
            sc = scores[v][cand]
            tops[v] = cand[_top(sc, kmax)]
            new.append(tops[v][tops[v] >= j0])
        fresh = np.unique(np.concatenate(new)) - j0
        union = np.unique(np.concatenate(list(tops.values())))
        if pool.size + len(fresh) > capacity:
            pool.keep(union[union < j0])
        pool.add(blocks, fresh.astype(np.int64), j0)
    # the fresh set, for the features in use only
    union = np.unique(np.concatenate(list(tops.values())))
    rng_f = np.random.default_rng(s_fresh)
    y_f = (rng_f.integers(0, 2, n, dtype=np.int8) * 2 - 1).astype(np.float32)
    xf = rng_f.standard_normal((len(union), n), dtype=np.float32)
    if setting == "signal":
        xf[union < cfg.n_signal] += bias * y_f
    out: dict[str, Any] = {
        "setting": setting,
        "ks": list(cfg.ks),
        "variants": {},
        "normals": 2 * d * n + len(union) * n,
    }
    for v in VARIANTS:
        top = tops[v]
        signs = np.sign(c_train[top])
        pos = pool.positions(top) if len(top) else np.empty(0, np.int64)
        tr = _accuracy(pool.rows[0], pos, signs, ys[0], cfg.ks)
        ho = _accuracy(pool.rows[1], pos, signs, ys[1], cfg.ks)
        fr = _accuracy(xf, np.searchsorted(union, top), signs, y_f, cfg.ks)
        asked = np.array(cfg.ks) > 0  # k = 0 is not a query (recorded as 0.5)
        rep = ho.copy()
        if v == "thresholdout-gaussian":
            rep[asked] = thresholdout_gaussian(tr[asked], ho[asked], cfg.threshold, cfg.tolerance, rng_g)
        elif v == "thresholdout-laplace":
            rep[asked] = [_answer(lap, a, b) for a, b in zip(tr[asked], ho[asked])]
        out["variants"][v] = {
            "train": tr.tolist(),
            "holdout_reported": rep.tolist(),
            "holdout_exact": ho.tolist(),
            "fresh": fr.tolist(),
            "kept_variables": int(np.count_nonzero(scores[v])),
        }
    out["variants"]["thresholdout-laplace"]["over_threshold"] = lap.over_threshold
    out["variants"]["thresholdout-laplace"]["queries"] = lap.queries_answered
    if details:
        out["fresh_features"] = union.tolist()
    return out


def _laplace_thresholdout(cfg: HoldoutConfig, seed: np.random.SeedSequence, budget: int) -> Thresholdout:
    # the datasets are not needed: queries are answered from their means (answer_means)
    placeholder = np.zeros(cfg.n)
    return Thresholdout(
        placeholder,
        placeholder,
        threshold=cfg.threshold,
        sigma=cfg.laplace_sigma,
        budget=budget,
        rng=np.random.default_rng(seed),
        noise="laplace",
    )


def _answer(t: Thresholdout, train: float, holdout: float) -> float:
    a = t.answer_means(float(train), float(holdout))
    if a is None:  # the budget is d + len(ks): one per query, it cannot be spent
        raise RuntimeError("Thresholdout budget spent")
    return a


def _accuracy(
    rows: NDArray[np.float32],
    pos: NDArray[np.int64],
    signs: NDArray[np.float64],
    y: NDArray[np.float32],
    ks: tuple[int, ...],
) -> NDArray[np.float64]:
    """Accuracy of the nested top-k sign classifiers (features ``rows[pos]`` in order), every
    k of the grid from running float64 sums over the segments between grid points."""
    accs = np.full(len(ks), 0.5)
    if len(pos) == 0:
        return accs
    total = np.zeros(rows.shape[1])
    done = 0
    for i, k in enumerate(ks):
        if k == 0:
            continue
        upto = min(k, len(pos))
        if upto > done:
            seg = rows[pos[done:upto]] * signs[done:upto, None].astype(np.float32)  # exact: ±1
            total += seg.sum(axis=0, dtype=np.float64)
            done = upto
        accs[i] = np.count_nonzero(np.sign(total) == y) / len(y)
    return accs


def draw_only(
    cfg: HoldoutConfig, setting: str, seed: np.random.SeedSequence | int, *, fresh_rows: int = 0
) -> dict[str, Any]:
    """The benchmark floor: draw the normals (and labels) a repetition draws, in the same
    float32 blocks, plus ``fresh_rows`` fresh features (the repetition reports how many it
    used), and do nothing else."""
    ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    s_data, _, _, s_fresh = ss.spawn(4)
    rng = np.random.default_rng(s_data)
    n = cfg.n
    for _ in range(2):
        rng.integers(0, 2, n, dtype=np.int8)
    buf = np.empty((cfg.block, n), dtype=np.float32)
    for j0 in range(0, cfg.d, cfg.block):
        m = min(cfg.block, cfg.d - j0)
        for _ in range(2):
            rng.standard_normal(out=buf[:m], dtype=np.float32)
    rng_f = np.random.default_rng(s_fresh)
    rng_f.integers(0, 2, n, dtype=np.int8)
    rng_f.standard_normal((fresh_rows, n), dtype=np.float32)
    return {"setting": setting, "normals": (2 * cfg.d + fresh_rows) * n}
