"""Lossless suit isomorphism of Hold'em hands: a dense index per street, and its inverse.

Two deals that differ only by a renaming of the suits play the same (``AsKs`` on ``Qs7s2d`` is
``AhKh`` on ``Qh7h2c``), and the order of the cards inside one dealing round never matters.
A :class:`HandIndexer` numbers these classes densely, ``0 .. size - 1``, after Waugh's hand
isomorphism ("A fast and optimal hand isomorphism algorithm", AAAI workshop 2013):

1. the cards are split into *rounds* (``(2, 3)``: two hole cards, then a three-card flop);
   in each suit, the ranks dealt in each round form one rank set per round;
2. a suit's *configuration* is how many cards it got in each round, and its *suit index*
   numbers its rank sets (each round's set by its colex rank among the ranks that suit has
   not used yet, mixed radix over the rounds);
3. a hand's class is the multiset of its four (configuration, suit index) pairs: renaming
   suits permutes them, nothing else changes them. The four pairs are sorted; the sorted
   configurations pick a *configuration class* (an offset), and the suit indices of each
   run of equal configurations are numbered as a multiset (combinations with repetition).

Standard sizes (``STREET_ROUNDS``): preflop 169, flop ``(2, 3)`` 1,286,792, turn ``(2, 4)``
13,960,050, river ``(2, 5)`` 123,156,254 (the board as one set: what a player's hand
strength depends on). Board-only indexers (``(3,)``, ``(4,)``, ``(5,)``) number the 1,755
flops, 16,432 turns and 134,459 rivers the feature kernels enumerate.

:meth:`HandIndexer.index` and :meth:`HandIndexer.unindex` are compiled loops over batches
(numba); ``n_ranks`` below 13 indexes short decks (the tests check every hand of them).

Example:
    >>> flop = HandIndexer((2, 3))
    >>> flop.size
    1286792
    >>> from pokerlab.cards import parse_cards
    >>> a = flop.index([parse_cards("AsKs Qs7s2d")])
    >>> b = flop.index([parse_cards("KhAh 2c7hQh")])
    >>> bool(a[0] == b[0])
    True
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from pokerlab._numba import numba
from pokerlab.errors import CardError

N_SUITS = 4
STREET_ROUNDS: tuple[tuple[int, ...], ...] = ((2,), (2, 3), (2, 4), (2, 5))
"""The rounds of the standard indexers, preflop to river (the board as one set)."""

KernelTables = tuple[
    NDArray[np.int64], int, NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]
]
"""What compiled code passes to :func:`index_hand` after the cards."""

PARALLEL_ROWS = 4096
"""Batches at least this large use both cores; smaller ones run on the caller's thread."""

_MAX_RANKS = 13
_U_BITS = 40  # a suit index is below 2**40; the configuration sits above it in a sort key


def _configurations(rounds: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every per-suit configuration (cards per round), in config-id order (mixed radix)."""
    return list(itertools.product(*(range(count + 1) for count in rounds)))


def _suit_size(counts: Sequence[int], n_ranks: int) -> int:
    """How many suit indices a configuration has: ways to deal its rank sets round by round."""
    size = 1
    used = 0
    for count in counts:
        size *= math.comb(n_ranks - used, count)
        used += count
    return size


def _multiset_count(n_values: int, k: int) -> int:
    """Multisets of size ``k`` drawn from ``n_values`` values."""
    return math.comb(n_values + k - 1, k)


@functools.cache
def _indexer_tables(
    rounds: tuple[int, ...], n_ranks: int
) -> tuple[
    NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]
]:
    """``(config_counts, config_sizes, class_of_key, offsets, members)`` of an indexer.

    - ``config_counts[c, j]``: cards of round j in per-suit configuration ``c``;
    - ``config_sizes[c]``: suit indices of configuration ``c`` (0 if it needs more ranks);
    - ``class_of_key[key]``: the configuration class of four sorted configuration ids, keyed
      by their multiset index, or -1 when their cards do not add up to ``rounds``;
    - ``offsets[k]``: the first index of configuration class ``k`` (one more entry: size);
    - ``members[k]``: the four configuration ids of class ``k``, ascending.
    """
    configs = _configurations(rounds)
    counts = np.array(configs, dtype=np.int64).reshape(len(configs), len(rounds))
    sizes = np.array([_suit_size(c, n_ranks) for c in configs], dtype=np.int64)
    n_configs = len(configs)
    class_of_key = np.full(_multiset_count(n_configs, N_SUITS), -1, dtype=np.int64)
    offsets = [0]
    members: list[tuple[int, ...]] = []
    for combo in itertools.combinations_with_replacement(range(n_configs), N_SUITS):
        if tuple(counts[list(combo)].sum(axis=0)) != rounds or not all(sizes[list(combo)]):
            continue
        class_size = 1
        for config, group in itertools.groupby(combo):
            class_size *= _multiset_count(int(sizes[config]), len(list(group)))
        key = sum(math.comb(c + i, i + 1) for i, c in enumerate(combo))
        class_of_key[key] = len(members)
        members.append(combo)
        offsets.append(offsets[-1] + class_size)
    return (
        counts,
        sizes,
        class_of_key,
        np.array(offsets, dtype=np.int64),
        np.array(members, dtype=np.int64).reshape(len(members), N_SUITS),
    )


@dataclass(frozen=True)
class HandIndexer:
    """A dense, lossless index of hands up to suit renaming, for one street.

    Attributes:
        rounds: cards per dealing round, e.g. ``(2, 3)`` for hole cards and a flop; a row of
            cards lists round 0's cards first, then round 1's, and so on.
        n_ranks: ranks in the deck (13; fewer for a short deck of the lowest ranks, whose
            cards are ``0 .. 4 * n_ranks - 1``).
    """

    rounds: tuple[int, ...]
    n_ranks: int = _MAX_RANKS
    _tables: tuple[NDArray[np.int64], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        rounds = tuple(int(count) for count in self.rounds)
        if not rounds or any(count < 1 for count in rounds):
            raise CardError(f"rounds must be one or more positive card counts; got {self.rounds}")
        if not 1 <= self.n_ranks <= _MAX_RANKS:
            raise CardError(f"n_ranks must be 1..{_MAX_RANKS}; got {self.n_ranks}")
        if sum(rounds) > N_SUITS * self.n_ranks:
            raise CardError(
                f"rounds {rounds} deal {sum(rounds)} cards; a deck of {self.n_ranks} ranks has "
                f"{N_SUITS * self.n_ranks}"
            )
        object.__setattr__(self, "rounds", rounds)
        object.__setattr__(self, "_tables", _indexer_tables(rounds, self.n_ranks))

    @property
    def n_cards(self) -> int:
        """Cards in one hand (all rounds)."""
        return sum(self.rounds)

    @property
    def size(self) -> int:
        """Number of classes: indices run ``0 .. size - 1``."""
        return int(self._tables[3][-1])

    def index(self, cards: NDArray[np.integer] | Sequence[Sequence[int]]) -> NDArray[np.int64]:
        """The class index of each row of ``cards`` ``[n, n_cards]``.

        Raises:
            CardError: for a wrong shape, a card outside the deck, or a row repeating a card.
        """
        array = self._check_cards(cards)
        _counts, sizes, class_of_key, offsets, _members = self._tables
        kernel = _index_rows if len(array) >= PARALLEL_ROWS else _index_rows_serial
        out = kernel(
            array,
            np.array(self.rounds, dtype=np.int64),
            self.n_ranks,
            sizes,
            class_of_key,
            offsets,
        )
        if out.size and out.min() < 0:
            row = int(np.argmax(out < 0))
            raise CardError(f"row {row} ({array[row].tolist()}) repeats a card")
        return out

    def unindex(self, indices: NDArray[np.integer] | Sequence[int]) -> NDArray[np.int64]:
        """A representative hand ``[n, n_cards]`` of each class index (rounds in order).

        Each round's cards are sorted ascending; ``index(unindex(i)) == i``.

        Raises:
            CardError: for an index outside ``0 .. size - 1``.
        """
        array = np.asarray(indices)
        if array.ndim != 1 or (array.size and not np.issubdtype(array.dtype, np.integer)):
            raise CardError(f"indices must be a 1-D integer array; got {array.dtype} {array.shape}")
        if array.size and (array.min() < 0 or array.max() >= self.size):
            bad = array.min() if array.min() < 0 else array.max()
            raise CardError(f"index {bad} is outside 0..{self.size - 1} for rounds {self.rounds}")
        counts, sizes, _class_of_key, offsets, members = self._tables
        return _unindex_rows(
            array.astype(np.int64),
            np.array(self.rounds, dtype=np.int64),
            self.n_ranks,
            counts,
            sizes,
            offsets,
            members,
        )

    def kernel_tables(self) -> KernelTables:
        """``(rounds, n_ranks, sizes, class_of_key, offsets)``: :func:`index_hand`'s arguments."""
        _counts, sizes, class_of_key, offsets, _members = self._tables
        return (np.array(self.rounds, dtype=np.int64), self.n_ranks, sizes, class_of_key, offsets)

    def _check_cards(
        self, cards: NDArray[np.integer] | Sequence[Sequence[int]]
    ) -> NDArray[np.int64]:
        array = np.asarray(cards)
        if array.ndim != 2 or array.shape[1] != self.n_cards:
            raise CardError(
                f"cards must be [n, {self.n_cards}] (rounds {self.rounds}); got shape {array.shape}"
            )
        if array.size and not np.issubdtype(array.dtype, np.integer):
            raise CardError(f"cards must be integer card ids; got dtype {array.dtype}")
        top = N_SUITS * self.n_ranks - 1
        if array.size and (array.min() < 0 or array.max() > top):
            bad = array.min() if array.min() < 0 else array.max()
            raise CardError(f"card id {bad} is outside the deck: allowed 0..{top}")
        return np.ascontiguousarray(array, dtype=np.int64)


@functools.cache
def street_indexer(street: int) -> HandIndexer:
    """The standard indexer of a Texas Hold'em street: 0 preflop .. 3 river (board as a set)."""
    if not 0 <= street < len(STREET_ROUNDS):
        raise CardError(f"street must be 0..{len(STREET_ROUNDS) - 1}; got {street}")
    return HandIndexer(STREET_ROUNDS[street])


@functools.cache
def board_indexer(n_board: int) -> HandIndexer:
    """The indexer of boards of ``n_board`` cards as one set (3: 1,755 flops)."""
    return HandIndexer((n_board,))


# -- compiled loops ---------------------------------------------------------------------------


@numba.njit(cache=True, nogil=True, inline="always")
def _choose(n: int, k: int) -> int:
    """Binomial coefficient C(n, k) for small k (0 when k > n or n < 0)."""
    if k < 0 or n < k:
        return 0
    result = 1
    for i in range(k):
        result = result * (n - i) // (i + 1)
    return result


@numba.njit(cache=True, nogil=True, inline="always")
def _popcount(x: int) -> int:
    """Set bits of a non-negative int below 2**32 (SWAR, no loop)."""
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F
    return (x * 0x01010101 & 0xFFFFFFFF) >> 24


@numba.njit(cache=True, nogil=True, inline="always")
def _nth(i: int, k0: int, k1: int, k2: int, k3: int) -> int:
    if i == 0:
        return k0
    if i == 1:
        return k1
    if i == 2:
        return k2
    return k3


@numba.njit(cache=True, nogil=True, inline="always")
def _suit_key(cards: NDArray[np.int64], rounds: NDArray[np.int64], n_ranks: int, suit: int) -> int:
    """``configuration << 40 | suit index`` of one suit of a hand."""
    config = 0
    suit_index = 0
    used = 0
    position = 0
    for j in range(rounds.shape[0]):
        ranks = 0
        for _ in range(rounds[j]):
            card = cards[position]
            position += 1
            if card & 3 == suit:
                ranks |= 1 << (card >> 2)
        n = _popcount(ranks)
        config = config * (rounds[j] + 1) + n
        # colex rank of this round's set among the ranks not used by earlier rounds
        local = 0
        t = 0
        rest = ranks
        while rest:
            low = rest & -rest
            below = low - 1
            t += 1
            local += _choose(_popcount(below) - _popcount(used & below), t)
            rest ^= low
        suit_index = suit_index * _choose(n_ranks - _popcount(used), n) + local
        used |= ranks
    return (config << _U_BITS) | suit_index


@numba.njit(cache=True, nogil=True)
def index_hand(
    cards: NDArray[np.int64],
    rounds: NDArray[np.int64],
    n_ranks: int,
    sizes: NDArray[np.int64],
    class_of_key: NDArray[np.int64],
    offsets: NDArray[np.int64],
) -> int:
    """The class index of one hand (``cards`` in round order); -1 if a card repeats.

    Allocates nothing (compiled callers call it per hand in their inner loops).
    """
    seen = 0
    for position in range(cards.shape[0]):
        bit = 1 << cards[position]
        if seen & bit:
            return -1
        seen |= bit
    k0 = _suit_key(cards, rounds, n_ranks, 0)
    k1 = _suit_key(cards, rounds, n_ranks, 1)
    k2 = _suit_key(cards, rounds, n_ranks, 2)
    k3 = _suit_key(cards, rounds, n_ranks, 3)
    # sorting network for four keys
    if k0 > k1:
        k0, k1 = k1, k0
    if k2 > k3:
        k2, k3 = k3, k2
    if k0 > k2:
        k0, k2 = k2, k0
    if k1 > k3:
        k1, k3 = k3, k1
    if k1 > k2:
        k1, k2 = k2, k1
    key = (
        (k0 >> _U_BITS)
        + _choose((k1 >> _U_BITS) + 1, 2)
        + _choose((k2 >> _U_BITS) + 2, 3)
        + _choose((k3 >> _U_BITS) + 3, 4)
    )
    klass = class_of_key[key]
    index = 0
    i = 0
    low_mask = (1 << _U_BITS) - 1
    while i < N_SUITS:
        config = _nth(i, k0, k1, k2, k3) >> _U_BITS
        run = 1
        while i + run < N_SUITS and (_nth(i + run, k0, k1, k2, k3) >> _U_BITS) == config:
            run += 1
        multiset = 0
        for t in range(run):
            multiset += _choose((_nth(i + t, k0, k1, k2, k3) & low_mask) + t, t + 1)
        index = index * _choose(sizes[config] + run - 1, run) + multiset
        i += run
    return int(offsets[klass] + index)


@numba.njit(cache=True, nogil=True, parallel=True)
def _index_rows(
    cards: NDArray[np.int64],
    rounds: NDArray[np.int64],
    n_ranks: int,
    sizes: NDArray[np.int64],
    class_of_key: NDArray[np.int64],
    offsets: NDArray[np.int64],
) -> NDArray[np.int64]:
    """:func:`index_hand` of every row, rows spread over the cores."""
    out = np.empty(cards.shape[0], dtype=np.int64)
    for row in numba.prange(cards.shape[0]):
        out[row] = index_hand(cards[row], rounds, n_ranks, sizes, class_of_key, offsets)
    return out


@numba.njit(cache=True, nogil=True)
def _index_rows_serial(
    cards: NDArray[np.int64],
    rounds: NDArray[np.int64],
    n_ranks: int,
    sizes: NDArray[np.int64],
    class_of_key: NDArray[np.int64],
    offsets: NDArray[np.int64],
) -> NDArray[np.int64]:
    """:func:`_index_rows` on the calling thread (small batches: no thread pool)."""
    out = np.empty(cards.shape[0], dtype=np.int64)
    for row in range(cards.shape[0]):
        out[row] = index_hand(cards[row], rounds, n_ranks, sizes, class_of_key, offsets)
    return out


@numba.njit(cache=True, nogil=True, inline="always")
def _largest_below(m: int, t: int, high: int) -> int:
    """The largest b in ``[t - 1, high)`` with ``C(b, t) <= m`` (binary search)."""
    low = t - 1
    while high - low > 1:
        middle = (low + high) // 2
        if _choose(middle, t) <= m:
            low = middle
        else:
            high = middle
    return low


@numba.njit(cache=True, nogil=True, parallel=True)
def _unindex_rows(
    indices: NDArray[np.int64],
    rounds: NDArray[np.int64],
    n_ranks: int,
    counts: NDArray[np.int64],
    sizes: NDArray[np.int64],
    offsets: NDArray[np.int64],
    members: NDArray[np.int64],
) -> NDArray[np.int64]:
    """A representative of each class index: suits in sorted-key order, rounds sorted."""
    n_rounds = rounds.shape[0]
    n_cards = 0
    for j in range(n_rounds):
        n_cards += rounds[j]
    starts = np.zeros(n_rounds, dtype=np.int64)
    for j in range(1, n_rounds):
        starts[j] = starts[j - 1] + rounds[j - 1]
    out = np.empty((indices.shape[0], n_cards), dtype=np.int64)
    for row in numba.prange(indices.shape[0]):
        index = indices[row]
        klass = np.searchsorted(offsets, index, side="right") - 1
        rest = index - offsets[klass]
        configs = members[klass]
        suit_indices = np.zeros(N_SUITS, dtype=np.int64)
        # runs of equal configurations, decoded last run first (mixed radix)
        end = N_SUITS
        while end > 0:
            begin = end - 1
            while begin > 0 and configs[begin - 1] == configs[end - 1]:
                begin -= 1
            run = end - begin
            size = sizes[configs[begin]]
            radix = _choose(size + run - 1, run)
            multiset = rest % radix
            rest //= radix
            for t in range(run, 0, -1):
                b = _largest_below(multiset, t, size + t - 1)
                multiset -= _choose(b, t)
                suit_indices[begin + t - 1] = b - (t - 1)
            end = begin
        filled = np.zeros(n_rounds, dtype=np.int64)
        for suit in range(N_SUITS):
            config = configs[suit]
            locals_ = np.zeros(n_rounds, dtype=np.int64)
            u = suit_indices[suit]
            available = n_ranks
            for j in range(n_rounds):
                available -= counts[config, j]
            for j in range(n_rounds - 1, -1, -1):
                available += counts[config, j]
                radix = _choose(available, counts[config, j])
                locals_[j] = u % radix
                u //= radix
            used = 0
            for j in range(n_rounds):
                local = locals_[j]
                for t in range(counts[config, j], 0, -1):
                    x = _largest_below(local, t, n_ranks)
                    local -= _choose(x, t)
                    # the x-th rank (from 0) not used by earlier rounds
                    rank = -1
                    seen = -1
                    while seen < x:
                        rank += 1
                        if not (used >> rank) & 1:
                            seen += 1
                    out[row, starts[j] + filled[j]] = rank * 4 + suit
                    filled[j] += 1
                for t in range(counts[config, j]):
                    used |= 1 << (out[row, starts[j] + filled[j] - 1 - t] >> 2)
        for j in range(n_rounds):
            out[row, starts[j] : starts[j] + rounds[j]].sort()
            filled[j] = 0
    return out
