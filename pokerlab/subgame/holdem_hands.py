"""Hold'em hands for the range solver: weighted ranges, showdown strengths, suit swaps.

- :func:`weighted_combos` reads a range with weights, ``"66+, A8s+, KQo:0.5, AsKs:0.25"``
  (:func:`pokerlab.cards.parse_range`'s notation);
- :func:`holdem_hands` keeps the combos that do not touch the board, as a
  :class:`~pokerlab.subgame.public_tree.HandSpace`;
- :func:`board_strengths` evaluates every hand on every full board (7-card values from
  :func:`pokerlab.cards.evaluate_batch`, higher is better);
- suit isomorphism: two suits are interchangeable on a board when the board has the same
  ranks in both, and the ranges are unchanged by swapping them; :func:`suit_swaps` gives
  each hand's image under each of the six suit transpositions, and :func:`representative`
  the card a dealt card can borrow its subtree from.
"""

from __future__ import annotations

import numpy as np

from pokerlab._types import IntArray
from pokerlab.cards import Combo, combo_str, evaluate_batch, parse_range
from pokerlab.errors import CardError
from pokerlab.subgame.public_tree import HandSpace

TRANSPOSITIONS = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))
"""The six suit transpositions, by id (suits 0..3 are c, d, h, s)."""


def weighted_combos(text: str) -> dict[Combo, float]:
    """The combos of a weighted range and their weights (0 < weight <= 1).

    The notation is :func:`pokerlab.cards.parse_range`'s (``"QQ+, AKs:0.5"``; a combo named
    twice takes its later weight; weight 0 removes it).

    Raises:
        CardError: an item or a weight that cannot be read, or a range with no combo.

    Example:
        >>> combos = weighted_combos("QQ+, AKs:0.5")
        >>> len(combos), sorted(set(combos.values()))
        (22, [0.5, 1.0])
    """
    hand_range = parse_range(text)
    return dict(zip(hand_range.combos, hand_range.weights, strict=True))


def holdem_hands(text: str, board: tuple[int, ...], *, who: str) -> HandSpace:
    """The hands of a weighted range that do not touch ``board``, best card first.

    Raises:
        CardError: if the range cannot be read, or no hand is left once the board is out.
    """
    combos = weighted_combos(text)
    dead = set(board)
    kept = sorted((combo, w) for combo, w in combos.items()
                  if combo[0] not in dead and combo[1] not in dead)
    if not kept:
        raise CardError(f"the {who} range {text!r} has no hand left on this board (every "
                        "combo uses a board card); widen the range")
    cards = np.array([[max(c), min(c)] for c, _ in kept], dtype=np.int64).reshape(-1, 2)
    weights = np.array([w for _, w in kept], dtype=np.float64)
    names = tuple(combo_str((max(c), min(c))) for c, _ in kept)
    for array in (cards, weights):
        array.setflags(write=False)
    return HandSpace(cards, weights, names)


def board_strengths(hands: HandSpace, boards: list[tuple[int, ...]]) -> IntArray:
    """``[B, H]`` each hand's 7-card value on each 5-card board.

    -1 on boards of fewer cards, and where the hand holds a board card.
    """
    table = np.full((len(boards), hands.n_hands), -1, dtype=np.int64)
    full = [b for b, board in enumerate(boards) if len(board) == 5]
    if not full or hands.n_hands == 0:
        return table
    full_boards = np.array([boards[b] for b in full], dtype=np.int64)  # [F, 5]
    n_full = full_boards.shape[0]
    rows = np.empty((n_full, hands.n_hands, 7), dtype=np.int64)
    rows[:, :, :2] = hands.cards[None, :, :]
    rows[:, :, 2:] = full_boards[:, None, :]
    clash = (hands.cards[None, :, 0, None] == full_boards[:, None, :]).any(axis=2) | (
        hands.cards[None, :, 1, None] == full_boards[:, None, :]
    ).any(axis=2)
    flat = rows.reshape(-1, 7)
    flat_clash = clash.ravel()
    values = np.full(flat.shape[0], -1, dtype=np.int64)
    if (~flat_clash).any():
        values[~flat_clash] = evaluate_batch(flat[~flat_clash])
    table[full] = values.reshape(n_full, hands.n_hands)
    return table


def swap_card(card: int, transposition: int) -> int:
    """The card after swapping the two suits of ``TRANSPOSITIONS[transposition]``."""
    first, second = TRANSPOSITIONS[transposition]
    suit = card % 4
    if suit == first:
        suit = second
    elif suit == second:
        suit = first
    return card - card % 4 + suit


def suit_swaps(hands: HandSpace) -> tuple[IntArray, tuple[bool, ...]]:
    """Each hand's index after each suit transposition, and whether the range is unchanged.

    Returns:
        ``(table [6, H], symmetric)``: ``table[k, h]`` is the index of hand ``h`` with the
        suits of transposition ``k`` swapped (``h`` itself where that hand is missing), and
        ``symmetric[k]`` is True when every image exists with the same weight.
    """
    index = {(int(a), int(b)): h for h, (a, b) in enumerate(hands.cards)}
    table = np.empty((len(TRANSPOSITIONS), hands.n_hands), dtype=np.int64)
    symmetric = []
    for k in range(len(TRANSPOSITIONS)):
        ok = True
        for h, (a, b) in enumerate(hands.cards):
            x, y = swap_card(int(a), k), swap_card(int(b), k)
            image = index.get((max(x, y), min(x, y)))
            if image is None or hands.weights[image] != hands.weights[h]:
                ok = False
                image = h
            table[k, h] = image
        symmetric.append(ok)
    table.setflags(write=False)
    return table, tuple(symmetric)


def interchangeable_suits(board: tuple[int, ...]) -> list[tuple[int, int]]:
    """The suit pairs (lower first) that hold the same ranks on ``board``."""
    ranks = [frozenset(card // 4 for card in board if card % 4 == suit) for suit in range(4)]
    return [(a, b) for a, b in TRANSPOSITIONS if ranks[a] == ranks[b]]


def representative(card: int, board: tuple[int, ...], allowed: tuple[bool, ...]) -> tuple[int, int]:
    """``(representative card, transposition id)`` for dealing ``card`` on ``board``.

    The representative is the card of the same rank in the lowest suit interchangeable with
    ``card``'s suit under an ``allowed`` transposition (one under which the ranges are
    unchanged); a card that is its own representative gets transposition -1.
    """
    suit = card % 4
    for k, (a, b) in enumerate(TRANSPOSITIONS):
        if b == suit and allowed[k] and (a, b) in interchangeable_suits(board):
            return card - suit + a, k
    return card, -1


__all__ = [
    "TRANSPOSITIONS",
    "board_strengths",
    "holdem_hands",
    "interchangeable_suits",
    "representative",
    "suit_swaps",
    "swap_card",
    "weighted_combos",
]
