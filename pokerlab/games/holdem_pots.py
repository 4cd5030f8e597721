"""Hold'em pots and settlement: who wins which chips when a hand ends.

Uncalled chips have already gone back to the bettor at the end of each round (the state
does that). At showdown the pots are built from the chips each player put in (antes form
part of the main pot); hands that cannot win any pot are dead (as pokerkit's hand
killing), pots with the same players left in merge, each pot goes to its best hand(s) by
:func:`pokerlab.cards.evaluate_batch`, and a split pot's odd chips all go to the first
winner left of the button (the lowest player index), as in pokerkit.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from pokerlab._types import Player
from pokerlab.cards import evaluate_batch
from pokerlab.games.holdem_rules import HoldemRules


@dataclass(frozen=True)
class Pot:
    """One pot of a finished hand and where it went.

    Attributes:
        amount: chips in the pot.
        eligible: the players who could win it (still in, hand alive), lowest index first.
        winners: the players it went to.
        shares: chips each winner got, aligned with ``winners`` (odd chips to the first).
    """

    amount: int
    eligible: tuple[Player, ...]
    winners: tuple[Player, ...]
    shares: tuple[int, ...]


@dataclass(frozen=True)
class Settlement:
    """How a finished hand was settled.

    Attributes:
        pots: the main pot first, then the side pots (one pot when the hand was won by a fold).
        final_stacks: each player's chips after the hand.
        returns: chips won (negative: lost) by each player.
        showdown: the players whose hands were compared (empty when everyone folded to one).
        hand_values: each player's hand value at showdown, higher is better (0 if not shown).
    """

    pots: tuple[Pot, ...]
    final_stacks: tuple[int, ...]
    returns: tuple[int, ...]
    showdown: tuple[Player, ...]
    hand_values: tuple[int, ...]


def settle(
    rules: HoldemRules,
    *,
    hole_cards: Sequence[Sequence[int]],
    board: Sequence[int],
    committed: Sequence[int],
    behind: Sequence[int],
    folded: Sequence[bool],
) -> Settlement:
    """Settle a finished hand: the pots, who won them, and the final stacks.

    Args:
        rules: the game's numbers (antes and starting stacks).
        hole_cards: each player's hole cards.
        board: the board cards.
        committed: chips each player put in the hand, ante included.
        behind: chips each player has left.
        folded: whether each player folded.
    """
    n = rules.n_players
    live = [i for i in range(n) if not folded[i]]
    values: tuple[int, ...] = (0,) * n
    if len(live) > 1:
        hands = np.array([(*hole_cards[i], *board) for i in live], dtype=np.uint8)
        value_list = [0] * n
        for i, value in zip(live, hand_values(hands), strict=True):
            value_list[i] = value
        values = tuple(value_list)
    return settle_values(rules, values=values, committed=committed, behind=behind, folded=folded)


def settle_values(
    rules: HoldemRules,
    *,
    values: Sequence[int],
    committed: Sequence[int],
    behind: Sequence[int],
    folded: Sequence[bool],
) -> Settlement:
    """Settle a finished hand whose showdown hands are worth ``values``.

    What :func:`settle` does once the hands are valued; only the order of the values of
    the players still in matters (the engine settles by their ranks and keeps the result).

    Args:
        rules: the game's numbers (antes and starting stacks).
        values: each player's hand value, higher is better (ignored for folded players and
            when one player is left).
        committed: chips each player put in the hand, ante included.
        behind: chips each player has left.
        folded: whether each player folded.
    """
    n = rules.n_players
    final = list(behind)
    live = [i for i in range(n) if not folded[i]]
    if len(live) == 1:
        winner = live[0]
        total = sum(committed)
        final[winner] += total
        pots: tuple[Pot, ...] = (Pot(total, (winner,), (winner,), (total,)),)
        shown = (0,) * n
        showdown: tuple[Player, ...] = ()
    else:
        shown = tuple(values)
        contributions = [c - a for c, a in zip(committed, rules.antes_paid, strict=True)]
        antes = sum(rules.antes_paid)
        # A hand that cannot win any pot is dead (pokerkit kills it before pushing).
        layers = build_pots(contributions, antes, live)
        bests = [max((values[j] for j in eligible), default=0) for _, eligible in layers]
        alive = [
            i
            for i in live
            if any(
                i in eligible and values[i] >= best
                for (_, eligible), best in zip(layers, bests, strict=True)
            )
        ]
        if len(alive) < len(live):
            layers = build_pots(contributions, antes, alive)
        pot_list = []
        for amount, eligible in layers:
            if not eligible:  # pragma: no cover - chips nobody may win; pokerkit burns them
                pot_list.append(Pot(amount, (), (), ()))
                continue
            best = max(values[i] for i in eligible)
            winners = tuple(i for i in eligible if values[i] == best)
            share, odd = divmod(amount, len(winners))
            shares = tuple(share + (odd if k == 0 else 0) for k in range(len(winners)))
            for w, s in zip(winners, shares, strict=True):
                final[w] += s
            pot_list.append(Pot(amount, eligible, winners, shares))
        pots = tuple(pot_list)
        showdown = tuple(live)
    returns = tuple(f - s for f, s in zip(final, rules.starting_stacks, strict=True))
    return Settlement(pots, tuple(final), returns, showdown, shown)


def hand_values(hands: np.ndarray) -> list[int]:
    """Each hand's value, higher is better, by the ACPC's ranking (see holdem_rules).

    Five to seven cards: :func:`pokerlab.cards.evaluate_batch` (1..7462). Fewer: no straight
    or flush can be made, so the value is the class (high card, pair, two pair, trips,
    quads) then the ranks of the groups, larger groups first, ranks descending.
    """
    if hands.shape[1] >= 5:
        return [int(v) for v in evaluate_batch(hands).tolist()]
    values = []
    for row in hands.tolist():
        counts: dict[int, int] = {}
        for card in row:
            counts[card // 4] = counts.get(card // 4, 0) + 1
        groups = sorted(((c, r) for r, c in counts.items()), reverse=True)
        shape = tuple(c for c, _ in groups)
        kind = _SMALL_CLASSES[shape[:2] if shape[0] == 2 else shape[:1]]
        value = kind
        for _, rank in groups:
            value = value * 13 + rank
        value *= 13 ** (4 - len(groups))
        values.append(value + 1)
    return values


def hand_value_array(hands: np.ndarray) -> NDArray[np.int64]:
    """:func:`hand_values` as an int64 array (many hands: no Python int per hand)."""
    if hands.shape[1] >= 5:
        return np.asarray(evaluate_batch(hands), dtype=np.int64)
    return np.asarray(hand_values(hands), dtype=np.int64)


class ShowdownTables:
    """Pure-Python look-ups that value one 5-to-7-card hand in about a microsecond.

    The engine values the few hands of one showdown at a time, where a call into the
    batch evaluator costs more than the work. Built once (about 0.1 s) from
    :func:`pokerlab.cards.evaluate_batch`, so the values are the same:

    - ``rank_keys[card]``: ``1 << 3 * rank``; summed over a hand, its ranks as counts in
      3-bit fields, a key of ``plain`` (the value of every hand without a flush);
    - ``suit_keys[card]``: ``1 << 4 * suit``; summed, the suit counts in 4-bit fields:
      adding 3 to each sets its top bit exactly when five or more cards share the suit;
    - ``flush[mask]``: the value of the best flush in a 13-bit mask of one suit's ranks.
      With at most seven cards a flush leaves two other cards: no full house or four of a
      kind can beat it, so a flush hand's value is its flush's.
    """

    __slots__ = ("flush", "plain", "rank_keys", "suit_keys")

    def __init__(self) -> None:
        self.rank_keys = [1 << 3 * (card >> 2) for card in range(52)]
        self.suit_keys = [1 << 4 * (card & 3) for card in range(52)]
        plain: dict[int, int] = {}
        for size in (5, 6, 7):
            ranks = np.array(
                list(itertools.combinations_with_replacement(range(13), size)), dtype=np.int64
            )
            ranks = ranks[(ranks[:, 4:] != ranks[:, : size - 4]).all(axis=1)]  # no 5 of a rank
            # Suits in turn: equal ranks get distinct suits, no suit gets three cards.
            hands = ranks * 4 + np.arange(size) % 4
            keys = (np.int64(1) << (3 * ranks)).sum(axis=1)
            values = evaluate_batch(hands.astype(np.uint8)).tolist()
            plain.update(zip(keys.tolist(), values, strict=True))
        self.plain = plain
        flush = [-1] * (1 << 13)  # -1: never met (more than 7 cards, or fewer than 5)
        for size in (5, 6, 7):
            ranks = np.array(list(itertools.combinations(range(13), size)), dtype=np.int64)
            masks = (np.int64(1) << ranks).sum(axis=1)
            values = evaluate_batch((ranks * 4).astype(np.uint8)).tolist()
            for mask, value in zip(masks.tolist(), values, strict=True):
                flush[mask] = value
        self.flush = flush

    def value(self, cards: Sequence[int]) -> int:
        """The value of 5 to 7 distinct cards, as :func:`hand_values` gives it."""
        rank_keys, suit_keys = self.rank_keys, self.suit_keys
        suits = 0
        ranks = 0
        for card in cards:
            suits += suit_keys[card]
            ranks += rank_keys[card]
        flush_bits = (suits + 0x3333) & 0x8888
        if not flush_bits:
            return self.plain[ranks]
        suit = (flush_bits.bit_length() - 4) >> 2
        mask = 0
        for card in cards:
            if card & 3 == suit:
                mask |= 1 << (card >> 2)
        return self.flush[mask]


@functools.cache
def showdown_tables() -> ShowdownTables:
    """The :class:`ShowdownTables`, built on first use."""
    return ShowdownTables()


_SMALL_CLASSES = {(1,): 0, (2,): 1, (2, 1): 1, (2, 2): 2, (3,): 3, (4,): 7}
"""Hand classes of fewer than five cards, in the order of the five-card ones."""


def build_pots(
    contributions: Sequence[int], antes: int, eligible_players: Sequence[Player]
) -> list[tuple[int, tuple[Player, ...]]]:
    """Pokerkit's pots: layers of contributions, antes in the first, equal layers merged.

    Returns:
        ``(amount, eligible players)`` per pot, the main pot first.
    """
    eligible_set = set(eligible_players)
    n = len(contributions)
    pots: list[tuple[int, tuple[Player, ...]]] = []
    amount = antes
    previous = 0
    for level in sorted(set(contributions)):
        amount += sum(level - previous for c in contributions if c >= level)
        eligible = tuple(i for i in range(n) if contributions[i] >= level and i in eligible_set)
        while pots and pots[-1][1] == eligible:
            amount += pots.pop()[0]
        if amount:
            pots.append((amount, eligible))
        amount = 0
        previous = level
    return pots


__all__ = [
    "Pot",
    "Settlement",
    "ShowdownTables",
    "build_pots",
    "hand_value_array",
    "hand_values",
    "settle",
    "settle_values",
    "showdown_tables",
]
