"""The showdown tables of a public game's boards, compiled (see :func:`showdown_tables`).

:func:`pokerlab.subgame.public_tree.make_public_game` derives, for each board a tree names
and each player, the tables the showdown kernels read. A Hold'em turn subgame names 49
boards of about a thousand hands each, and the searching Hard AI builds one at every turn
decision: worked out board by board in numpy, the tables took about 25 ms a player there,
a tenth of a one-second decision. Counting sorts over the cards, in one compiled loop,
make the same tables in a few milliseconds.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from pokerlab._numba import numba


@numba.njit(cache=True, nogil=True)
def _lower_bound(values: NDArray[np.int64], start: int, stop: int, wanted: int) -> int:
    """How many of ``values[start:stop]`` (ascending) are below ``wanted``."""
    low, high = start, stop
    while low < high:
        middle = (low + high) // 2
        if values[middle] < wanted:
            low = middle + 1
        else:
            high = middle
    return low - start


@numba.njit(cache=True, nogil=True)
def showdown_tables(cards: NDArray[np.int64], other_cards: NDArray[np.int64],
                    strength: NDArray[np.int64], other_strength: NDArray[np.int64],
                    n_cards: int, order: NDArray[np.uint16], n_valid: NDArray[np.int64],
                    entries: NDArray[np.uint16], offsets: NDArray[np.int64],
                    cuts: NDArray[np.uint16]) -> None:
    """Fill one player's showdown tables on every board (the output arrays start at 0).

    On board ``b``, the player's valid hands (strength >= 0) ranked by increasing
    strength, ties by hand index:

    - ``order[b, :n_valid[b]]``: the ranked hands;
    - ``entries[b]`` / ``offsets[b]``: the ranked hands grouped by card (a hand under
      each of its cards), by rank within a card; card ``k``'s hands are
      ``entries[b, offsets[b, k]:offsets[b, k + 1]]``;
    - ``cuts[b, rank]``: against the other player's ranked hands, how many are weaker (0)
      and how many not stronger (1); then for each of the hand's two cards (columns 2/3,
      4/5, 6/7), in the other's hands sorted by (card, rank), the index of the first one
      holding that card at rank ``cuts[0]``, at rank ``cuts[1]``, and past them all, each
      plus the card (a padding slot per card); where the hand has no such card, the
      spare index (the other's entries plus ``n_cards``).
    """
    n_boards, n_hands = strength.shape
    n_other = other_strength.shape[1]
    counts = np.zeros(n_cards, dtype=np.int64)
    fill = np.zeros(n_cards, dtype=np.int64)
    key_offsets = np.zeros(n_cards + 1, dtype=np.int64)
    key_ranks = np.zeros(2 * n_other, dtype=np.int64)
    other_values = np.zeros(n_other, dtype=np.int64)
    for b in range(n_boards):
        ranked = np.argsort(strength[b], kind="mergesort")  # stable: invalid (< 0) first
        count = 0
        for h in range(n_hands):
            if strength[b, h] >= 0:
                count += 1
        start = n_hands - count
        n_valid[b] = count
        # the ranked hands grouped by card: a counting sort, ranks ascending within a card
        counts[:] = 0
        for rank in range(count):
            hand = ranked[start + rank]
            order[b, rank] = hand
            for column in range(2):
                card = cards[hand, column]
                if card >= 0:
                    counts[card] += 1
        offsets[b, 0] = 0
        for card in range(n_cards):
            offsets[b, card + 1] = offsets[b, card] + counts[card]
            fill[card] = offsets[b, card]
        for rank in range(count):
            hand = ranked[start + rank]
            for column in range(2):
                card = cards[hand, column]
                if card >= 0:
                    entries[b, fill[card]] = hand
                    fill[card] += 1
        # the other player's ranked hands, and their ranks grouped by card
        other_ranked = np.argsort(other_strength[b], kind="mergesort")
        other_count = 0
        for h in range(n_other):
            if other_strength[b, h] >= 0:
                other_count += 1
        other_start = n_other - other_count
        counts[:] = 0
        for rank in range(other_count):
            hand = other_ranked[other_start + rank]
            other_values[rank] = other_strength[b, hand]
            for column in range(2):
                card = other_cards[hand, column]
                if card >= 0:
                    counts[card] += 1
        key_offsets[0] = 0
        for card in range(n_cards):
            key_offsets[card + 1] = key_offsets[card] + counts[card]
            fill[card] = key_offsets[card]
        for rank in range(other_count):
            hand = other_ranked[other_start + rank]
            for column in range(2):
                card = other_cards[hand, column]
                if card >= 0:
                    key_ranks[fill[card]] = rank
                    fill[card] += 1
        spare = key_offsets[n_cards] + n_cards
        # the cuts: the two counts move up with the hand's strength
        low = 0
        high = 0
        for rank in range(count):
            hand = ranked[start + rank]
            value = strength[b, hand]
            while low < other_count and other_values[low] < value:
                low += 1
            if high < low:
                high = low
            while high < other_count and other_values[high] <= value:
                high += 1
            cuts[b, rank, 0] = low
            cuts[b, rank, 1] = high
            for column in range(2):
                card = cards[hand, column]
                if card < 0:
                    cuts[b, rank, 2 + column] = spare
                    cuts[b, rank, 4 + column] = spare
                    cuts[b, rank, 6 + column] = spare
                    continue
                first, last = key_offsets[card], key_offsets[card + 1]
                cuts[b, rank, 2 + column] = first + _lower_bound(key_ranks, first, last,
                                                                 low) + card
                cuts[b, rank, 4 + column] = first + _lower_bound(key_ranks, first, last,
                                                                 high) + card
                cuts[b, rank, 6 + column] = last + card
