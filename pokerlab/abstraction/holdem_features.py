"""Hand-strength features of every canonical Hold'em hand, per street (compiled, both cores).

The *river hand strength* of hole cards on a full board is the share of the pot they win
against one uniformly random opponent hand (of the 990 left), ties counting half; it is kept
as an integer *numerator* ``2 * wins + ties`` in ``0 .. 1980`` so that every sum below is
exact and every table is the same whichever core computed which part.

- river (:func:`river_strengths`): the numerator of each canonical river hand
  (``(2, 5)``, 123,156,254 of them);
- flop and turn (:func:`street_distributions`): over every runout of the board to the
  river, the distribution of the river hand strength, as a histogram of ``n_bins`` equal
  bins of ``[0, 1]`` (the *equity distribution* of potential-aware abstraction, Johanson et
  al. 2013, "Evaluating state-space abstractions in extensive-form games"), and its first
  two moments: the expected hand strength (EHS, the hand's equity against a random hand)
  and EHS squared (the mean of the squared strength, which rewards drawing hands);
- preflop (:func:`preflop_distributions`): the flop histograms summed over the flops,
  weighted by how many deals each canonical hand stands for: exactly the distribution over
  all five-card runouts.

How: for each canonical board (1,755 flops, 16,432 turns, 134,459 rivers, see
:func:`pokerlab.abstraction.holdem_iso.board_indexer`) and each runout to the river, every
one of the 1,081 hole-card pairs is valued once with the batch evaluator's 7-card lookups
(:mod:`pokerlab.cards._kernels`), the pairs are counting-sorted by value, and one pass with
running totals per card counts for each pair the opponent pairs it beats and ties, leaving
out those sharing one of its cards. Each (board, hole) result is then written at its
canonical index; isomorphic (board, hole) pairs write the same integers. A canonical hand
also gets its *weight*, the number of dealt (hole, board) combinations it stands for.

Cost on two cores: about 2.1 million flop runouts, 0.8 million turn runouts and 0.13 million
river boards, each 1,081 evaluations and a sort (docs/benchmarks.md has the measured times).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from pokerlab._numba import numba
from pokerlab._types import StepCallback
from pokerlab.abstraction.holdem_iso import (
    board_indexer,
    index_hand,
    street_indexer,
)
from pokerlab.cards._kernels import EquityTables, _value7
from pokerlab.cards.equity import _card_keys, _equity_tables
from pokerlab.errors import SpecError

STRENGTH_SCALE = 1980
"""A river strength numerator over this is the hand strength in [0, 1]."""

NOT_COMPUTED = 0xFFFF
"""The river numerator of a class whose board was left out."""

_N_VALUES = 7463
_N_PAIRS = 1326


@dataclass(frozen=True)
class StreetFeatures:
    """Features of every canonical hand of one street (flop, turn or preflop).

    Attributes:
        street: 0 preflop, 1 flop, 2 turn.
        histograms: ``[size, n_bins]`` runouts whose river strength falls in each bin.
        strength_sum: ``[size]`` sum over the runouts of the strength numerators.
        strength_square_sum: ``[size]`` sum of their squares.
        weights: ``[size]`` the dealt (hole, board) combinations each class stands for.
        n_runouts: runouts per hand (1,081 from the flop, 46 from the turn).
    """

    street: int
    histograms: NDArray[np.integer]
    strength_sum: NDArray[np.int64]
    strength_square_sum: NDArray[np.int64]
    weights: NDArray[np.int64]
    n_runouts: int

    @property
    def ehs(self) -> NDArray[np.float64]:
        """Expected hand strength of each class, in [0, 1]."""
        return self.strength_sum / (self.n_runouts * STRENGTH_SCALE)

    @property
    def ehs2(self) -> NDArray[np.float64]:
        """Expected squared hand strength of each class."""
        return self.strength_square_sum / (self.n_runouts * STRENGTH_SCALE**2)

    def cdfs(self) -> NDArray[np.int32]:
        """``[size, n_bins - 1]`` cumulative histograms (the last bin, always full, dropped).

        The earth mover's distance between two 1-D histograms of the same mass is the L1
        distance between their cumulative sums (times the bin width over the mass).
        """
        return np.cumsum(self.histograms[:, :-1], axis=1, dtype=np.int32)


@dataclass(frozen=True)
class RiverStrengths:
    """The river hand strength of every canonical river hand.

    Attributes:
        numerators: ``[123,156,254]`` uint16 strength numerators (over 1,980);
            ``NOT_COMPUTED`` for the classes of boards left out (``boards=``).
        value_weights: ``[1981]`` the dealt (hole, board) combinations at each numerator.
    """

    numerators: NDArray[np.uint16]
    value_weights: NDArray[np.int64]


def board_weights(n_board: int) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Representatives ``[n, n_board]`` of the canonical boards, and each one's raw count.

    The count is the number of distinct boards a suit renaming makes of the representative
    (24 over the size of its symmetry group); the counts sum to C(52, n_board).
    """
    indexer = board_indexer(n_board)
    reps = indexer.unindex(np.arange(indexer.size))
    masks = np.zeros((len(reps), 24), dtype=np.int64)
    for k, perm in enumerate(itertools.permutations(range(4))):
        renamed = (reps >> 2) * 4 + np.array(perm)[reps & 3]
        masks[:, k] = np.bitwise_or.reduce(np.left_shift(np.int64(1), renamed), axis=1)
    masks.sort(axis=1)
    counts = 1 + np.count_nonzero(np.diff(masks, axis=1), axis=1)
    return reps, counts.astype(np.int64)


def street_distributions(
    street: int,
    n_bins: int = 50,
    *,
    progress: StepCallback | None = None,
    boards: NDArray[np.int64] | None = None,
) -> StreetFeatures:
    """Equity distributions, EHS and EHS² of every canonical flop (1) or turn (2) hand.

    Args:
        street: 1 (flop) or 2 (turn).
        n_bins: histogram bins over the river strength, 2..1981.
        progress: called between chunks with (boards done, boards in all).
        boards: only these canonical board indices (for tests; the classes of other
            boards keep zero weight).

    Raises:
        SpecError: for a street other than 1 or 2, or ``n_bins`` out of range.
    """
    if street not in (1, 2):
        raise SpecError(f"equity distributions are per flop (1) or turn (2); got street {street}")
    if not 2 <= n_bins <= STRENGTH_SCALE + 1:
        raise SpecError(f"n_bins must be 2..{STRENGTH_SCALE + 1}; got {n_bins}")
    n_board = street + 2
    indexer = street_indexer(street)
    reps, counts = board_weights(n_board)
    chosen = np.arange(len(reps)) if boards is None else np.asarray(boards, dtype=np.int64)
    n_runouts = len(list(itertools.combinations(range(52 - n_board - 2), 5 - n_board)))
    dtype = np.uint16 if n_runouts > 255 else np.uint8
    histograms = np.zeros((indexer.size, n_bins), dtype=dtype)
    sums = np.zeros(indexer.size, dtype=np.int64)
    squares = np.zeros(indexer.size, dtype=np.int64)
    weights = np.zeros(indexer.size, dtype=np.int64)
    rounds, n_ranks, sizes, class_of_key, offsets = indexer.kernel_tables()
    tables = _equity_tables()
    keys = _card_keys()
    for start, stop in _chunks(len(chosen), progress):
        part = chosen[start:stop]
        _distributions_kernel(
            reps[part], counts[part], n_bins, keys, tables,
            rounds, n_ranks, sizes, class_of_key, offsets,
            histograms, sums, squares, weights,
        )  # fmt: skip
    return StreetFeatures(street, histograms, sums, squares, weights, n_runouts)


def river_strengths(
    *, progress: StepCallback | None = None, boards: NDArray[np.int64] | None = None
) -> RiverStrengths:
    """The river strength numerator of every canonical river hand (123,156,254).

    Args:
        progress: called between chunks with (boards done, boards in all).
        boards: only these canonical 5-card board indices (tests).
    """
    indexer = street_indexer(3)
    reps, counts = board_weights(5)
    chosen = np.arange(len(reps)) if boards is None else np.asarray(boards, dtype=np.int64)
    numerators = np.full(indexer.size, NOT_COMPUTED, dtype=np.uint16)
    value_weights = np.zeros(STRENGTH_SCALE + 1, dtype=np.int64)
    rounds, n_ranks, sizes, class_of_key, offsets = indexer.kernel_tables()
    tables = _equity_tables()
    keys = _card_keys()
    for start, stop in _chunks(len(chosen), progress, per_chunk=2048):
        part = chosen[start:stop]
        per_board = _river_kernel(
            reps[part], keys, tables, rounds, n_ranks, sizes, class_of_key, offsets, numerators
        )
        value_weights += counts[part] @ per_board
    return RiverStrengths(numerators, value_weights)


def preflop_distributions(flop: StreetFeatures, mass: int = 1000) -> StreetFeatures:
    """The 169 preflop classes' distributions, summed from the flop's, weighted by deals.

    Each flop class's runouts are equally likely given its (hole, flop), and its weight
    counts its deals, so the weighted sum over the flops is the distribution over all
    five-card runouts. Classes stand for different numbers of deals (6 for a pair, 4
    suited, 12 offsuit), so each row is rescaled to ``mass`` (its cumulative sums rounded):
    ``n_runouts`` of the result is ``mass``, and its EHS and EHS² are exact to 1e-6.
    """
    flop_indexer = street_indexer(1)
    reps = flop_indexer.unindex(np.arange(flop_indexer.size))
    pre = street_indexer(0).index(reps[:, :2])
    weights = flop.weights
    n_bins = flop.histograms.shape[1]
    totals = np.bincount(pre, weights, minlength=169) * flop.n_runouts
    cumulative = np.zeros(169, dtype=np.float64)
    histograms = np.zeros((169, n_bins), dtype=np.int64)
    previous = np.zeros(169, dtype=np.int64)
    for column in range(n_bins):
        cumulative += np.bincount(pre, weights * flop.histograms[:, column], minlength=169)
        rounded = np.rint(cumulative / totals * mass).astype(np.int64)
        histograms[:, column] = rounded - previous
        previous = rounded
    sums = np.bincount(pre, weights * flop.strength_sum, minlength=169)
    squares = np.bincount(pre, weights * flop.strength_square_sum, minlength=169)
    return StreetFeatures(
        0,
        histograms,
        np.rint(sums / totals * mass).astype(np.int64),
        np.rint(squares / totals * mass).astype(np.int64),
        np.bincount(pre, weights, minlength=169).astype(np.int64),
        mass,
    )


def _chunks(
    total: int, progress: StepCallback | None, per_chunk: int | None = None
) -> Iterator[tuple[int, int]]:
    """Split ``total`` boards into about 50 chunks; report progress after each."""
    size = per_chunk or max(1, -(-total // 50))
    for start in range(0, total, size):
        stop = min(total, start + size)
        yield start, stop
        if progress is not None:
            progress(stop, total)


# -- compiled loops ---------------------------------------------------------------------------


@numba.njit(cache=True, nogil=True, inline="always")
def _pair_index(a: int, b: int) -> int:
    """Index 0..1325 of the card pair a < b."""
    return b * (b - 1) // 2 + a


@numba.njit(cache=True, nogil=True)
def _river_numerators(
    board: NDArray[np.int64],
    keys: NDArray[np.int64],
    tables: EquityTables,
    first: NDArray[np.int64],
    second: NDArray[np.int64],
    numerators: NDArray[np.int64],
    values: NDArray[np.int64],
    order: NDArray[np.int64],
    starts: NDArray[np.int64],
    below_card: NDArray[np.int64],
    group_card: NDArray[np.int64],
) -> int:
    """Strength numerator of every hole pair on a 5-card board; returns the pair count.

    Fills ``first[i], second[i], numerators[i]`` for the pairs of cards off the board; the
    other arrays are scratch space (``starts`` of 7,463 entries, the card arrays of 52).
    """
    rank_key = 0
    suit_bits = 0
    suit_counts = 0
    used = 0
    for k in range(board.shape[0]):
        card = board[k]
        rank_key += keys[card, 0]
        suit_bits |= keys[card, 1]
        suit_counts += keys[card, 2]
        used |= 1 << card
    n = 0
    for b in range(52):
        if (used >> b) & 1:
            continue
        for a in range(b):
            if (used >> a) & 1:
                continue
            values[n] = _value7(
                rank_key + keys[a, 0] + keys[b, 0],
                suit_bits | keys[a, 1] | keys[b, 1],
                suit_counts + keys[a, 2] + keys[b, 2],
                tables,
            )
            first[n] = a
            second[n] = b
            n += 1
    # counting sort by value
    starts[:] = 0
    for i in range(n):
        starts[values[i]] += 1
    total = 0
    for v in range(starts.shape[0]):
        count = starts[v]
        starts[v] = total
        total += count
    for i in range(n):
        order[starts[values[i]]] = i
        starts[values[i]] += 1
    below_card[:] = 0
    group_card[:] = 0
    below = 0
    start = 0
    while start < n:
        value = values[order[start]]
        end = start
        while end < n and values[order[end]] == value:
            i = order[end]
            group_card[first[i]] += 1
            group_card[second[i]] += 1
            end += 1
        size = end - start
        for k in range(start, end):
            i = order[k]
            a = first[i]
            b = second[i]
            wins = below - below_card[a] - below_card[b]
            ties = size - group_card[a] - group_card[b] + 1
            numerators[i] = 2 * wins + ties
        for k in range(start, end):
            i = order[k]
            below_card[first[i]] += 1
            below_card[second[i]] += 1
            group_card[first[i]] = 0
            group_card[second[i]] = 0
        below += size
        start = end
    return n


@numba.njit(cache=True, nogil=True, parallel=True)
def _distributions_kernel(
    reps: NDArray[np.int64],
    board_counts: NDArray[np.int64],
    n_bins: int,
    keys: NDArray[np.int64],
    tables: EquityTables,
    rounds: NDArray[np.int64],
    n_ranks: int,
    sizes: NDArray[np.int64],
    class_of_key: NDArray[np.int64],
    offsets: NDArray[np.int64],
    histograms: NDArray[np.integer],
    sums: NDArray[np.int64],
    squares: NDArray[np.int64],
    weights: NDArray[np.int64],
) -> None:
    """Accumulate the runout histograms of every hole pair on each board, write by index."""
    n_board = reps.shape[1]
    for r in numba.prange(reps.shape[0]):
        hist = np.zeros((_N_PAIRS, n_bins), dtype=np.int64)
        strength = np.zeros(_N_PAIRS, dtype=np.int64)
        square = np.zeros(_N_PAIRS, dtype=np.int64)
        first = np.empty(1081, dtype=np.int64)
        second = np.empty(1081, dtype=np.int64)
        numerators = np.empty(1081, dtype=np.int64)
        values = np.empty(1081, dtype=np.int64)
        order = np.empty(1081, dtype=np.int64)
        starts = np.empty(_N_VALUES, dtype=np.int64)
        below_card = np.empty(52, dtype=np.int64)
        group_card = np.empty(52, dtype=np.int64)
        board = np.empty(5, dtype=np.int64)
        used = 0
        for k in range(n_board):
            board[k] = reps[r, k]
            used |= 1 << reps[r, k]
        for t in range(52):
            if (used >> t) & 1:
                continue
            for u in range(t + 1, 52 if n_board == 3 else t + 2):
                if n_board == 3 and (used >> u) & 1:
                    continue
                board[n_board] = t
                if n_board == 3:
                    board[4] = u
                n = _river_numerators(
                    board, keys, tables, first, second, numerators, values, order, starts,
                    below_card, group_card,
                )  # fmt: skip
                for i in range(n):
                    p = _pair_index(first[i], second[i])
                    x = numerators[i]
                    hist[p, x * n_bins // (STRENGTH_SCALE + 1)] += 1
                    strength[p] += x
                    square[p] += x * x
        hand = np.empty(2 + n_board, dtype=np.int64)
        for k in range(n_board):
            hand[2 + k] = reps[r, k]
        for b in range(52):
            if (used >> b) & 1:
                continue
            for a in range(b):
                if (used >> a) & 1:
                    continue
                hand[0] = a
                hand[1] = b
                index = index_hand(hand, rounds, n_ranks, sizes, class_of_key, offsets)
                p = _pair_index(a, b)
                for j in range(n_bins):
                    histograms[index, j] = hist[p, j]
                sums[index] = strength[p]
                squares[index] = square[p]
                weights[index] += board_counts[r]


@numba.njit(cache=True, nogil=True, parallel=True)
def _river_kernel(
    reps: NDArray[np.int64],
    keys: NDArray[np.int64],
    tables: EquityTables,
    rounds: NDArray[np.int64],
    n_ranks: int,
    sizes: NDArray[np.int64],
    class_of_key: NDArray[np.int64],
    offsets: NDArray[np.int64],
    out: NDArray[np.uint16],
) -> NDArray[np.int64]:
    """Write the strength numerator of every hole pair on each 5-card board, by index.

    Returns ``[boards, 1981]`` how many hole pairs of each board have each numerator.
    """
    per_board = np.zeros((reps.shape[0], STRENGTH_SCALE + 1), dtype=np.int64)
    for r in numba.prange(reps.shape[0]):
        first = np.empty(1081, dtype=np.int64)
        second = np.empty(1081, dtype=np.int64)
        numerators = np.empty(1081, dtype=np.int64)
        values = np.empty(1081, dtype=np.int64)
        order = np.empty(1081, dtype=np.int64)
        starts = np.empty(_N_VALUES, dtype=np.int64)
        below_card = np.empty(52, dtype=np.int64)
        group_card = np.empty(52, dtype=np.int64)
        board = reps[r].copy()
        n = _river_numerators(
            board, keys, tables, first, second, numerators, values, order, starts,
            below_card, group_card,
        )  # fmt: skip
        hand = np.empty(7, dtype=np.int64)
        for k in range(5):
            hand[2 + k] = board[k]
        for i in range(n):
            hand[0] = first[i]
            hand[1] = second[i]
            index = index_hand(hand, rounds, n_ranks, sizes, class_of_key, offsets)
            out[index] = numerators[i]
            per_board[r, numerators[i]] += 1
    return per_board
