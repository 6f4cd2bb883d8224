"""Binary linear codes for the RRST §4 counterexample: constructions, exact minimum distance,
syndrome decoding through coset leaders, coset weight distributions.

Vectors of length n are Python ints / numpy uint64 bit masks (bit i = coordinate i); a code is
given by its parity-check matrix H (r x n over GF(2), full row rank), stored as the n column
syndromes ``columns[i] = H e_i`` (r-bit ints). The syndrome of x is the XOR of the columns of its
set bits; the code is {x : Hx = 0} and the affine code C_a = {x : Hx = a} (RRST Def 4.6).

Constructions: Hamming, extended Hamming, the binary Golay code [23, 12, 7] and its extension
[24, 12, 8], narrow-sense binary BCH codes, and a Gilbert–Varshamov-style greedy construction
(columns chosen so that no d - 1 of them sum to zero) that reaches a target minimum distance.

Every table is sized before it is allocated: :class:`TooLarge` (a ValueError) refuses a problem
above :data:`MAX_TABLE_BITS` (2^26 entries).

>>> g = golay()
>>> g.n, g.k, g.minimum_distance()
(23, 12, 7)
>>> w = g.coset_leader_weights()
>>> [int((w == j).sum()) for j in range(4)]     # perfect code: every syndrome within radius 3
[1, 23, 253, 1771]
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "LinearCode",
    "TooLarge",
    "MAX_TABLE_BITS",
    "ball_volume",
    "hamming",
    "extended_hamming",
    "golay",
    "extended_golay",
    "bch",
    "gilbert_varshamov",
    "cyclic_code",
    "all_syndromes",
    "syndrome_blocks",
]

#: the largest table (syndrome space or dataset enumeration) built: 2^26 entries
MAX_TABLE_BITS = 26


class TooLarge(ValueError):
    """A table that would not fit the stated memory budget; refused before allocation."""


def _check_bits(what: str, bits: int) -> None:
    if bits > MAX_TABLE_BITS:
        raise TooLarge(
            f"{what} needs 2^{bits} entries (more than 2^{MAX_TABLE_BITS}, about "
            f"{2**bits * 8 / 2**30:.1f} GiB at 8 bytes each): refused before allocation"
        )


@dataclass(frozen=True)
class LinearCode:
    """A binary linear code of length n given by its parity-check columns (r-bit ints)."""

    n: int
    columns: tuple[int, ...]
    r: int
    name: str = "code"

    def __post_init__(self) -> None:
        if len(self.columns) != self.n:
            raise ValueError(f"columns: {len(self.columns)} given for n = {self.n}")
        if _rank(list(self.columns)) != self.r:
            raise ValueError(f"H must have full row rank r = {self.r}")

    @property
    def k(self) -> int:
        """The dimension n - r."""
        return self.n - self.r

    def syndrome(self, x: int) -> int:
        """H x for one vector (int bit mask)."""
        s = 0
        i = 0
        while x:
            if x & 1:
                s ^= self.columns[i]
            x >>= 1
            i += 1
        return s

    def H(self) -> NDArray[np.uint8]:
        """The parity-check matrix, r x n, entries 0/1."""
        return np.array([[(c >> j) & 1 for c in self.columns] for j in range(self.r)], dtype=np.uint8)

    def _weight_table(self, max_weight: int) -> NDArray[np.int64]:
        """T[w, s] = number of vectors of weight w <= max_weight with syndrome s (exact;
        dynamic programming over the columns, truncated at max_weight)."""
        W = min(max_weight, self.n)
        _check_bits("the coset weight table", self.r + math.ceil(math.log2(W + 1)))
        if self.n > 63:  # counts are at most C(63, 31) < 2^63
            raise TooLarge("coset weight counts overflow int64 beyond n = 63")
        size = 1 << self.r
        T = np.zeros((W + 1, size), dtype=np.int64)
        T[0, 0] = 1
        idx = np.arange(size)
        for c in self.columns:
            T[1:] = T[1:] + T[:-1][:, idx ^ c]
        return T

    def coset_weight_distribution(self, syndrome: int, max_weight: int | None = None) -> list[int]:
        """Number of vectors of each weight 0..max_weight (default n) in the coset with this
        syndrome."""
        if not 0 <= syndrome < (1 << self.r):
            raise ValueError(f"syndrome={syndrome} is invalid: must be in [0, 2^{self.r})")
        W = self.n if max_weight is None else max_weight
        return [int(v) for v in self._weight_table(W)[:, syndrome]]

    def weight_distribution(self) -> list[int]:
        """Number of codewords of each weight (the coset of syndrome 0)."""
        return self.coset_weight_distribution(0)

    def minimum_distance(self) -> int:
        """Exact minimum distance: the least nonzero weight of a codeword (the weight table is
        built up to a growing cap until a codeword appears)."""
        W = 4
        while True:
            col0 = self._weight_table(W)[:, 0]
            for w in range(1, len(col0)):
                if col0[w]:
                    return w
            if W >= self.n:
                return 0
            W *= 2

    def coset_leader_weights(self) -> NDArray[np.uint8]:
        """For every syndrome s, the weight of its coset leader = the distance from any x with
        Hx = a ⊕ s to the affine code C_a."""
        return self._leaders[0]

    def coset_leaders(self) -> NDArray[np.uint64]:
        """For every syndrome s, a minimum-weight vector e with He = s (breadth-first search over
        the syndrome space; ties broken by the search order, deterministically)."""
        return self._leaders[1]

    @cached_property
    def _leaders(self) -> tuple[NDArray[np.uint8], NDArray[np.uint64]]:
        _check_bits("the coset leader table", self.r)
        if self.n > 64:
            raise TooLarge("leaders are stored as 64-bit masks: n <= 64")
        size = 1 << self.r
        weight = np.full(size, 255, dtype=np.uint8)
        leader = np.zeros(size, dtype=np.uint64)
        weight[0] = 0
        frontier = np.array([0], dtype=np.int64)
        cols = np.array(self.columns, dtype=np.int64)
        w = 0
        while frontier.size:
            w += 1
            new_s: list[NDArray[np.int64]] = []
            for i, c in enumerate(cols):
                s2 = frontier ^ c
                fresh = weight[s2] == 255
                s2 = s2[fresh]
                if s2.size:
                    s2u, first = np.unique(s2, return_index=True)
                    weight[s2u] = w
                    leader[s2u] = leader[frontier[fresh][first]] | np.uint64(1 << i)
                    new_s.append(s2u)
            frontier = np.unique(np.concatenate(new_s)) if new_s else np.array([], dtype=np.int64)
        return weight, leader

    def decode(self, x: int, a: int = 0) -> tuple[int, int]:
        """(nearest codeword of C_a to x, its distance): x ⊕ leader(Hx ⊕ a)."""
        s = self.syndrome(x) ^ a
        return x ^ int(self.coset_leaders()[s]), int(self.coset_leader_weights()[s])


@lru_cache(maxsize=2)
def all_syndromes(code: LinearCode) -> NDArray[np.int64]:
    """H x for all 2^n datasets x (index = the bit mask of x): the blocks of
    :func:`syndrome_blocks` joined (cached for the last two codes; do not modify the returned
    array)."""
    return np.concatenate([syn for _, syn in syndrome_blocks(code)])


#: datasets per block of :func:`syndrome_blocks` (2^20: ~8 MB per int64 array)
BLOCK_BITS = 20


def syndrome_blocks(code: LinearCode, block_bits: int | None = None) -> Iterator[tuple[int, NDArray[np.int64]]]:
    """H x for all 2^n datasets x, block by block: yields (x0, syndromes of x0 .. x0 + B - 1)
    with B = 2^min(n, block_bits) (default :data:`BLOCK_BITS`), in order. H x is linear, so a
    block's syndromes are those of its low bits XOR the syndrome of its high bits: memory
    O(B), not O(2^n) (the extended Golay code's 2^24 datasets take ~10 arrays of 8 MB at a
    time instead of 134 MB each)."""
    _check_bits("the dataset enumeration", code.n)
    b = min(code.n, BLOCK_BITS if block_bits is None else block_bits)
    low = np.zeros(1, dtype=np.int64)
    for c in code.columns[:b]:
        low = np.concatenate([low, low ^ c])
    for j in range(1 << (code.n - b)):
        high = 0
        for i, c in enumerate(code.columns[b:]):
            if j >> i & 1:
                high ^= c
        yield j << b, low ^ high


def ball_volume(n: int, radius: int) -> int:
    """|B_radius| = sum_{i <= radius} C(n, i), exact (RRST eq. (10)); terms updated incrementally."""
    total, term = 0, 1
    for i in range(min(radius, n) + 1):
        total += term
        term = term * (n - i) // (i + 1)
    return total


def _rank(cols: list[int]) -> int:
    basis: list[int] = []
    for c in cols:
        for b in basis:
            c = min(c, c ^ b)  # noqa: PLW2901 (Gaussian elimination reduces c in place)
        if c:
            basis.append(c)
    return len(basis)


def hamming(m: int) -> LinearCode:
    """Hamming code [2^m - 1, 2^m - 1 - m, 3]: H has every nonzero m-bit column."""
    if not 2 <= m <= 10:
        raise ValueError(f"m={m} is invalid: must be in [2, 10]")
    n = (1 << m) - 1
    return LinearCode(n, tuple(range(1, n + 1)), m, f"Hamming[{n},{n - m},3]")


def extended_hamming(m: int) -> LinearCode:
    """Extended Hamming code [2^m, 2^m - 1 - m, 4]: an overall parity check row added."""
    h = hamming(m)
    top = 1 << m
    cols = tuple(c | top for c in h.columns) + (top,)
    return LinearCode(h.n + 1, cols, m + 1, f"ext-Hamming[{h.n + 1},{h.k},4]")


def cyclic_code(n: int, g: int, name: str) -> LinearCode:
    """The cyclic code of length n with generator polynomial g (bit i = coefficient of X^i):
    the syndrome of x(X) is x(X) mod g(X), so column i is X^i mod g(X)."""
    r = g.bit_length() - 1
    cols = []
    v = 1
    for _ in range(n):
        cols.append(v)
        v <<= 1
        if v >> r & 1:
            v ^= g
    return LinearCode(n, tuple(cols), r, name)


def golay() -> LinearCode:
    """The binary Golay code [23, 12, 7] (generator X^11 + X^10 + X^6 + X^5 + X^4 + X^2 + 1)."""
    return cyclic_code(23, 0b110001110101, "Golay[23,12,7]")


def extended_golay() -> LinearCode:
    """The extended Golay code [24, 12, 8]: the Golay code with an overall parity bit."""
    g = golay()
    top = 1 << g.r
    return LinearCode(24, tuple(c | top for c in g.columns) + (top,), g.r + 1, "ext-Golay[24,12,8]")


_PRIMITIVE = {
    3: 0b1011,
    4: 0b10011,
    5: 0b100101,
    6: 0b1000011,
    7: 0b10001001,
    8: 0b100011101,
    9: 0b1000010001,
    10: 0b10000001001,
}


def bch(m: int, designed_distance: int) -> LinearCode:
    """Narrow-sense binary BCH code of length 2^m - 1 and designed distance d (minimum distance
    at least d): generator = lcm of the minimal polynomials of alpha^1 .. alpha^(d-1)."""
    if m not in _PRIMITIVE:
        raise ValueError(f"m={m} is invalid: must be in [3, 10]")
    n = (1 << m) - 1
    if not 2 <= designed_distance <= n:
        raise ValueError(f"designed_distance={designed_distance} is invalid: must be in [2, {n}]")
    exp = [0] * (2 * n)
    v = 1
    for i in range(n):
        exp[i] = exp[i + n] = v
        v <<= 1
        if v >> m & 1:
            v ^= _PRIMITIVE[m]
    log = {exp[i]: i for i in range(n)}

    def mul(a: int, b: int) -> int:
        return 0 if a == 0 or b == 0 else exp[log[a] + log[b]]

    seen: set[int] = set()
    g = [1]  # polynomial over GF(2^m), low degree first
    for i in range(1, designed_distance):
        if i % n in seen:
            continue
        coset = []
        j = i % n
        while j not in coset:
            coset.append(j)
            j = (2 * j) % n
        seen.update(coset)
        for j in coset:  # multiply g by (X + alpha^j)
            root = exp[j]
            new = [0] * (len(g) + 1)
            for d, c in enumerate(g):
                new[d + 1] ^= c
                new[d] ^= mul(c, root)
            g = new
    if any(c not in (0, 1) for c in g):  # pragma: no cover - the lcm of minimal polys is binary
        raise ArithmeticError("BCH generator is not binary")
    gmask = sum(1 << d for d, c in enumerate(g) if c)
    return cyclic_code(n, gmask, f"BCH[{n},{n - (gmask.bit_length() - 1)},>={designed_distance}]")


def gilbert_varshamov(n: int, distance: int) -> LinearCode:
    """A code of length n and minimum distance >= ``distance`` with small redundancy: the
    Varshamov greedy construction. With r check bits, columns are chosen one by one (in
    increasing order) among those not a sum of <= d - 2 chosen columns; the smallest r for which
    n columns are found is used (Varshamov's bound guarantees one when sum_{i<=d-2} C(n-1, i) < 2^r).
    """
    if not 2 <= distance <= n:
        raise ValueError(f"distance={distance} is invalid: must be in [2, n={n}]")
    r = max(1, math.ceil(math.log2(n + 1)) if distance >= 3 else 1)
    while True:
        _check_bits("the Varshamov search", r)
        cols = _greedy_columns(n, distance, r)
        if cols is not None and _rank(cols) == r:
            return LinearCode(n, tuple(cols), r, f"GV[{n},{n - r},>={distance}]")
        r += 1
        if r > n:  # pragma: no cover - the repetition-like code always exists
            raise ArithmeticError("no Varshamov code found")


def _greedy_columns(n: int, d: int, r: int) -> list[int] | None:
    size = 1 << r
    levels = max(0, d - 2)
    # reach[j]: syndromes that are sums of at most j chosen columns (j = 0..d-2)
    reach = [np.zeros(size, dtype=bool) for _ in range(levels + 1)]
    for lv in reach:
        lv[0] = True
    cols: list[int] = []
    idx = np.arange(size)
    # prefer the unit columns first (full rank), then the rest in increasing order
    order = [1 << j for j in range(r)] + [v for v in range(1, size) if v & (v - 1)]
    for v in order:
        if len(cols) == n:
            break
        if reach[levels][v]:
            continue
        cols.append(v)
        for j in range(levels, 0, -1):
            reach[j] |= reach[j - 1][idx ^ v]
    return cols if len(cols) == n else None
