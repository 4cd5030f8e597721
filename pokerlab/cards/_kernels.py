"""Compiled loops of the evaluator and of exact equity (numba, cached on disk).

Imported on first use only, so ``import pokerlab.cards`` does not pay for numba. The
lookup tables come from :mod:`pokerlab.cards.evaluator` as arguments (numba would freeze
global arrays into the compiled code). A hand is accumulated into three ints, each a sum
over its cards (cards are distinct, so the bit fields never carry):

- ``rank_key``: 3 bits per rank (bits ``3r .. 3r+2``) counting the cards of rank r;
- ``suit_bits``: 16 bits per suit (bit ``16s + r``) marking the ranks held in suit s;
- ``suit_counts``: 4 bits per suit counting its cards; adding 3 to every field sets the
  field's top bit exactly when the suit has five or more cards (a flush).
"""

from __future__ import annotations

import numba
import numpy as np
from numpy.typing import NDArray

_RANK_MASK = 0x1FFF
_PLUS_THREE = 0x3333
_TOP_BITS = 0x8888


@numba.njit(cache=True, nogil=True)
def evaluate_rows(
    cards: NDArray[np.uint8],
    nonflush: NDArray[np.int16],
    flush: NDArray[np.int16],
    colex_step: NDArray[np.int32],
    offsets: NDArray[np.int64],
) -> NDArray[np.int32]:
    """Value of each row of `cards` ``[n, k]``; -1 for a row that repeats a card."""
    n_rows, n_cards = cards.shape
    offset = offsets[n_cards]
    values = np.empty(n_rows, dtype=np.int32)
    for row in range(n_rows):
        rank_key = 0
        suit_bits = 0
        suit_counts = 0
        seen = 0
        repeated = 0
        for column in range(n_cards):
            card = int(cards[row, column])
            bit = 1 << card
            repeated |= seen & bit
            seen |= bit
            rank = card >> 2
            suit = card & 3
            rank_key += 1 << (3 * rank)
            suit_bits |= 1 << (16 * suit + rank)
            suit_counts += 1 << (4 * suit)
        if repeated:
            values[row] = -1
            continue
        # The lookups are written out here and below: a shared helper measured 2x slower.
        flush_bits = (suit_counts + _PLUS_THREE) & _TOP_BITS
        if flush_bits:
            suit = 0
            while not (flush_bits >> (4 * suit + 3)) & 1:
                suit += 1
            values[row] = flush[(suit_bits >> (16 * suit)) & _RANK_MASK]
            continue
        index = offset
        position = 0
        for rank in range(13):
            count = (rank_key >> (3 * rank)) & 7
            index += colex_step[(rank * 8 + position) * 5 + count]
            position += count
        values[row] = nonflush[index]
    return values


@numba.njit(cache=True, nogil=True)
def enumerate_showdowns(
    holes: NDArray[np.int64],
    board: NDArray[np.int64],
    excluded: int,
    nonflush: NDArray[np.int16],
    flush: NDArray[np.int16],
    colex_step: NDArray[np.int32],
    offset: int,
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64], int]:
    """Enumerate every runout of `board` for every deal of hole cards in `holes`.

    Args:
        holes: ``[n_deals, n_players, 2]`` hole cards of each deal (no card shared).
        board: the known board cards (0, 3, 4 or 5).
        excluded: bit mask of cards never dealt to the board (the board and dead cards).
        nonflush: the evaluator's rank-multiset table.
        flush: the evaluator's flush table.
        colex_step: the evaluator's colex index steps.
        offset: start of the 7-card block of `nonflush`.

    Returns:
        wins ``[n_players]`` (showdowns won alone), ties ``[n_players]`` (showdowns shared),
        shares ``[n_players]`` (sum of 1 / number of winners over shared showdowns), and the
        number of showdowns.
    """
    n_deals, n_players, _ = holes.shape
    n_runout = 5 - board.shape[0]
    wins = np.zeros(n_players, dtype=np.float64)
    ties = np.zeros(n_players, dtype=np.float64)
    shares = np.zeros(n_players, dtype=np.float64)
    values = np.zeros(n_players, dtype=np.int64)
    hole_keys = np.zeros(n_players, dtype=np.int64)
    hole_suits = np.zeros(n_players, dtype=np.int64)
    hole_counts = np.zeros(n_players, dtype=np.int64)
    remaining = np.zeros(52, dtype=np.int64)
    chosen = np.zeros(5, dtype=np.int64)
    base_key = 0
    base_suits = 0
    base_counts = 0
    for position in range(board.shape[0]):
        card = int(board[position])
        base_key += 1 << (3 * (card >> 2))
        base_suits |= 1 << (16 * (card & 3) + (card >> 2))
        base_counts += 1 << (4 * (card & 3))
    total = 0
    for deal in range(n_deals):
        used = excluded
        for player in range(n_players):
            key = 0
            suits = 0
            counts = 0
            for slot in range(2):
                card = int(holes[deal, player, slot])
                used |= 1 << card
                key += 1 << (3 * (card >> 2))
                suits |= 1 << (16 * (card & 3) + (card >> 2))
                counts += 1 << (4 * (card & 3))
            hole_keys[player] = key
            hole_suits[player] = suits
            hole_counts[player] = counts
        n_remaining = 0
        for card in range(52):
            if not (used >> card) & 1:
                remaining[n_remaining] = card
                n_remaining += 1
        for slot in range(n_runout):
            chosen[slot] = slot
        while True:
            key = base_key
            suits = base_suits
            counts = base_counts
            for slot in range(n_runout):
                card = int(remaining[chosen[slot]])
                key += 1 << (3 * (card >> 2))
                suits |= 1 << (16 * (card & 3) + (card >> 2))
                counts += 1 << (4 * (card & 3))
            best = 0
            n_best = 0
            for player in range(n_players):
                rank_key = key + int(hole_keys[player])
                suit_bits = suits | int(hole_suits[player])
                flush_bits = (counts + int(hole_counts[player]) + _PLUS_THREE) & _TOP_BITS
                if flush_bits:
                    suit = 0
                    while not (flush_bits >> (4 * suit + 3)) & 1:
                        suit += 1
                    value = int(flush[(suit_bits >> (16 * suit)) & _RANK_MASK])
                else:
                    index = offset
                    position = 0
                    for rank in range(13):
                        count = (rank_key >> (3 * rank)) & 7
                        index += colex_step[(rank * 8 + position) * 5 + count]
                        position += count
                    value = int(nonflush[index])
                values[player] = value
                if value > best:
                    best = value
                    n_best = 1
                elif value == best:
                    n_best += 1
            for player in range(n_players):
                if values[player] == best:
                    if n_best == 1:
                        wins[player] += 1.0
                    else:
                        ties[player] += 1.0
                        shares[player] += 1.0 / n_best
            total += 1
            # Next combination of n_runout positions out of n_remaining (lexicographic).
            slot = n_runout - 1
            while slot >= 0 and chosen[slot] == n_remaining - n_runout + slot:
                slot -= 1
            if slot < 0:
                break
            chosen[slot] += 1
            for later in range(slot + 1, n_runout):
                chosen[later] = chosen[later - 1] + 1
    return wins, ties, shares, total
