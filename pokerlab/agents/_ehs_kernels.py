"""Compiled sums behind weighted hand strength and potential (numba, cached on disk).

One call values every hand of a board against an opponent's weighted range at once, with
card removal, in ``O(next cards x hands x log hands)``, never hand against hand:

- *now*: the hands sorted by value; running totals of weight, overall and per card, give
  for each hand the weight of the compatible opposing hands below it and level with it
  (the hand itself, holding both of its cards, is taken out of the per-card totals twice
  and added back once);
- *later* (each next card): the same running totals over the hands' values with that card
  give the weight below and level after it;
- *positive potential*: the opposing hands at or above ours now and below us after the
  card, and those strictly above now and at or below after (Billings' BA + BT/2 + TA/2 is
  half their sum): Fenwick trees over the ranks of the later values, filled in descending
  order of the present values, answer both for every hand; one tree holds every hand and
  one per card the hands holding it, so the whole tree less our two cards' trees counts
  the compatible hands only (a hand sharing both cards is ours, never counted: the counts
  are strict on one side).

A few rows (:data:`DIRECT_ROWS` or fewer, the bot's own hand) are summed directly against
every opposing hand and next card instead, which is cheaper than sorting for one hand.

Hands are rows of the caller's arrays; a later value of -1 marks a hand holding that next
card (it neither plays nor counts as an opponent for that card).
"""

from __future__ import annotations

from typing import cast

import numpy as np
from numpy.typing import NDArray

from pokerlab._numba import numba

Floats = NDArray[np.float64]
Ints = NDArray[np.int64]

N_SUMS = 5
"""Columns of :func:`strength_sums`' result."""
TOTAL, BELOW, LEVEL, LATER, PPOT_SUM = range(N_SUMS)
DIRECT_ROWS = 16
"""Up to this many rows are valued directly, hand against hand; more, by sorting."""

# The deck's last two places as numpy integers: a plain constant passed to a kernel gets it
# compiled once per value (tests/test_kernel_literals.py).
_CARD_49: int = cast(int, np.int64(49))
_CARD_48: int = cast(int, np.int64(48))


@numba.njit(cache=True, nogil=True)
def _bit_add(tree: Floats, value: int, weight: float) -> None:
    i = value
    while i < tree.shape[0]:
        tree[i] += weight
        i += i & -i


@numba.njit(cache=True, nogil=True)
def _bit_prefix(tree: Floats, value: int) -> float:
    """Total weight at values 1..value."""
    total = 0.0
    i = value
    while i > 0:
        total += tree[i]
        i -= i & -i
    return total


@numba.njit(cache=True, nogil=True)
def _below_and_level(cards: Ints, values: Ints, weights: Floats, order: Ints,
                     out_below: Floats, out_level: Floats) -> None:
    """Per hand in ``order`` (ascending values, -1 skipped): compatible weight below, level."""
    below = 0.0
    below_card = np.zeros(52)
    group_card = np.zeros(52)
    n = order.shape[0]
    start = 0
    while start < n:
        value = values[order[start]]
        end = start
        group = 0.0
        while end < n and values[order[end]] == value:
            h = order[end]
            group += weights[h]
            group_card[cards[h, 0]] += weights[h]
            group_card[cards[h, 1]] += weights[h]
            end += 1
        if value >= 0:
            for k in range(start, end):
                h = order[k]
                a, b = cards[h, 0], cards[h, 1]
                out_below[h] = below - below_card[a] - below_card[b]
                out_level[h] = group - group_card[a] - group_card[b] + weights[h]
        for k in range(start, end):
            h = order[k]
            below += weights[h]
            below_card[cards[h, 0]] += weights[h]
            below_card[cards[h, 1]] += weights[h]
            group_card[cards[h, 0]] = 0.0
            group_card[cards[h, 1]] = 0.0
        start = end


@numba.njit(cache=True, nogil=True)
def _rows_directly(cards: Ints, now: Ints, later: Ints, weights: Floats, rows: Ints,
                   out: Floats) -> None:
    """The look-ahead sums of a few rows, each against every opposing hand (no sorting)."""
    n = now.shape[0]
    m = later.shape[0]
    for h in rows:
        a, b = cards[h, 0], cards[h, 1]
        later_sum = 0.0
        ppot_sum = 0.0
        for o in range(n):
            if weights[o] == 0.0:
                continue
            c0, c1 = cards[o, 0], cards[o, 1]
            if c0 in (a, b) or c1 in (a, b):
                continue
            above_now = now[o] > now[h]
            level_now = now[o] == now[h]
            for j in range(m):
                ours = later[j, h]
                theirs = later[j, o]
                if ours < 0 or theirs < 0:
                    continue
                if theirs < ours:
                    later_sum += weights[o]
                    if above_now or level_now:
                        ppot_sum += 0.5 * weights[o]
                    if above_now:
                        ppot_sum += 0.5 * weights[o]
                elif theirs == ours:
                    later_sum += 0.5 * weights[o]
                    if above_now:
                        ppot_sum += 0.5 * weights[o]
        out[h, LATER] = later_sum
        out[h, PPOT_SUM] = ppot_sum


@numba.njit(cache=True, nogil=True)
def _compatible_prefix(trees: Floats, rank: int, first: int, second: int) -> float:
    """Weight at ranks 1..rank of the hands holding neither ``first`` nor ``second``."""
    return (_bit_prefix(trees[52], rank) - _bit_prefix(trees[first], rank)
            - _bit_prefix(trees[second], rank))


@numba.njit(cache=True, nogil=True)
def strength_sums(cards: Ints, now: Ints, later: Ints, weights: Floats, rows: Ints) -> Floats:
    """Weighted sums of every hand's strength now and after each next card.

    Args:
        cards: ``[n, 2]`` the hands' cards (none on the board).
        now: ``[n]`` their values on the board.
        later: ``[m, n]`` their values with each next card, -1 for a hand holding it.
        weights: ``[n]`` the opponent's weight of each hand.
        rows: the hands whose look-ahead sums are wanted (the costly part): a few are
            valued directly against every opposing hand, many by sorting.

    Returns:
        ``[n, 5]``: per hand, the compatible opposing weight in all (``TOTAL``), below it
        now (``BELOW``), level now (``LEVEL``); for ``rows``, summed over the next cards,
        the weight below it plus half the weight level after the card (``LATER``), and
        Billings' positive potential count BA + BT/2 + TA/2 (``PPOT_SUM``).
    """
    n = now.shape[0]
    m = later.shape[0]
    out = np.zeros((n, N_SUMS))
    total = weights.sum()
    card_total = np.zeros(52)
    for h in range(n):
        card_total[cards[h, 0]] += weights[h]
        card_total[cards[h, 1]] += weights[h]
    for h in range(n):
        out[h, TOTAL] = total - card_total[cards[h, 0]] - card_total[cards[h, 1]] + weights[h]
    order_now = np.argsort(now, kind="mergesort")
    below = np.zeros(n)
    level = np.zeros(n)
    _below_and_level(cards, now, weights, order_now, below, level)
    out[:, BELOW] = below
    out[:, LEVEL] = level
    if rows.shape[0] <= DIRECT_ROWS:
        _rows_directly(cards, now, later, weights, rows, out)
        return out
    wanted = np.zeros(n, dtype=np.bool_)
    for h in rows:
        wanted[h] = True
    # Fenwick trees over the later values' ranks: all hands (row 52) and those holding
    # each card (rows 0..51); all minus our two cards' trees is the compatible weight.
    trees = np.zeros((53, n + 1))
    rank = np.zeros(n, dtype=np.int64)
    live = np.zeros(n)
    for j in range(m):
        values = later[j]
        for h in range(n):
            live[h] = weights[h] if values[h] >= 0 else 0.0
        order = np.argsort(values, kind="mergesort")
        _below_and_level(cards, values, live, order, below, level)
        for h in range(n):
            if values[h] >= 0 and wanted[h]:
                out[h, LATER] += below[h] + 0.5 * level[h]
        top = 0
        previous = -1
        for k in range(n):
            h = order[k]
            if values[h] < 0:
                continue
            if values[h] != previous:
                top += 1
                previous = values[h]
            rank[h] = top
        trees[:, :top + 1] = 0.0
        # Descending present values, one group of equal values at a time: first the
        # hands strictly above us now, then those at or above.
        end = n
        while end > 0:
            start = end - 1
            while start > 0 and now[order_now[start - 1]] == now[order_now[end - 1]]:
                start -= 1
            for k in range(start, end):
                h = order_now[k]
                if wanted[h] and values[h] >= 0:  # above now, at or below later
                    out[h, PPOT_SUM] += 0.5 * _compatible_prefix(
                        trees, rank[h], cards[h, 0], cards[h, 1])
            for k in range(start, end):
                h = order_now[k]
                if values[h] >= 0 and live[h] != 0.0:
                    _bit_add(trees[52], rank[h], live[h])
                    _bit_add(trees[cards[h, 0]], rank[h], live[h])
                    _bit_add(trees[cards[h, 1]], rank[h], live[h])
            for k in range(start, end):
                h = order_now[k]
                if wanted[h] and values[h] >= 0:  # at or above now, below later
                    out[h, PPOT_SUM] += 0.5 * _compatible_prefix(
                        trees, rank[h] - 1, cards[h, 0], cards[h, 1])
            end = start
    return out


@numba.njit(cache=True, nogil=True)
def _swap(deck: Ints, where: Ints, i: int, j: int) -> None:
    a, b = deck[i], deck[j]
    deck[i], deck[j] = b, a
    where[b], where[a] = i, j


@numba.njit(cache=True, nogil=True)
def preflop_deals(hero: Ints, combos: Ints, cumulative: Floats,
                  uniforms: Floats) -> tuple[NDArray[np.uint8], NDArray[np.uint8]]:
    """Deals of an opposing hand (by weight) and a board, as two 7-card rows each.

    ``cumulative`` is the running share of the weight of ``combos`` (none holding a card of
    ``hero``), ending at 1. Each deal reads six uniforms in [0, 1) from its row of
    ``uniforms``: the first picks the hand, the others a board of five of the 48 cards left
    (a partial Fisher-Yates shuffle, after the hand's two cards are moved out of reach), so
    every board is equally likely.
    """
    samples = uniforms.shape[0]
    ours = np.empty((samples, 7), dtype=np.uint8)
    theirs = np.empty((samples, 7), dtype=np.uint8)
    deck = np.empty(50, dtype=np.int64)
    where = np.full(52, -1, dtype=np.int64)
    size = 0
    for card in range(52):
        if card != hero[0] and card != hero[1]:
            deck[size] = card
            where[card] = size
            size += 1
    for k in range(samples):
        i = min(np.searchsorted(cumulative, uniforms[k, 0], side="right"), combos.shape[0] - 1)
        _swap(deck, where, where[combos[i, 0]], _CARD_49)
        _swap(deck, where, where[combos[i, 1]], _CARD_48)
        ours[k, 0], ours[k, 1] = hero[0], hero[1]
        theirs[k, 0], theirs[k, 1] = combos[i, 0], combos[i, 1]
        for d in range(5):
            _swap(deck, where, d, d + int(uniforms[k, 1 + d] * (48 - d)))
            ours[k, 2 + d] = deck[d]
            theirs[k, 2 + d] = deck[d]
    return ours, theirs


@numba.njit(cache=True, nogil=True)
def board_rows(cards: Ints, board: Ints, next_cards: Ints) -> tuple[
        NDArray[np.uint8], NDArray[np.uint8], Ints]:
    """The hands to value on a board: each hand now, and with each next card it lacks.

    Returns the rows ``[n, board + 2]`` of every hand with the board, the rows of every
    (next card, hand) pair whose hand does not hold the card, and for each such row its
    flat index ``j * n + h`` in a ``[m, n]`` table.
    """
    n = cards.shape[0]
    k = board.shape[0]
    m = next_cards.shape[0]
    now = np.empty((n, k + 2), dtype=np.uint8)
    for h in range(n):
        now[h, 0], now[h, 1] = cards[h, 0], cards[h, 1]
        for b in range(k):
            now[h, 2 + b] = board[b]
    later = np.empty((m * n, k + 3), dtype=np.uint8)
    index = np.empty(m * n, dtype=np.int64)
    rows = 0
    for j in range(m):
        card = next_cards[j]
        for h in range(n):
            if cards[h, 0] == card or cards[h, 1] == card:
                continue
            later[rows, :k + 2] = now[h]
            later[rows, k + 2] = card
            index[rows] = j * n + h
            rows += 1
    return now, later[:rows], index[:rows]


__all__ = ["BELOW", "DIRECT_ROWS", "LATER", "LEVEL", "N_SUMS", "PPOT_SUM", "TOTAL", "board_rows",
           "preflop_deals", "strength_sums"]
