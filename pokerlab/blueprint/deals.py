"""Deals for the blueprint trainer: buckets and showdown strengths of whole batches.

The trainer's kernels never look at a card. Before a batch of iterations, a :class:`Dealer`
samples one deal per iteration (every player's hole cards and the whole board), asks the
card abstraction for every player's bucket at every street (one vectorized call) and ranks
every player's final hand (the batch evaluator). The kernels then read two integer arrays:
``buckets[deal, player, street]`` and ``strength[deal, player]`` (higher wins; equal splits).

Leduc: one private card, one board card; a pair with the board beats any unpaired card.
Hold'em (any ``ranks``, ``suits``, ``hole``, ``board``): the engine's own ranking, the
batch evaluator for five to seven cards and the small-hand classes below five (the same
values as :func:`pokerlab.games.holdem_pots.hand_values`, looked up by rank).

A batch is a few compiled passes (the first cards of each shuffled deck, bucket codes, hand
values), not a sort of every deck: dealing is a small share of an iteration even on games
as small as Leduc, where the traversal itself takes about a microsecond.

A Dealer also maps a real game state back to the abstract game: :meth:`Dealer.replay` walks
a history's betting down the betting tree, :meth:`Dealer.seen_cards` gives what a player sees.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from pokerlab._numba import njit
from pokerlab._types import Action
from pokerlab.abstraction.card_abstraction import CardAbstraction
from pokerlab.abstraction.lossless_cards import LosslessCards, lossless_for
from pokerlab.blueprint.betting_tree import (
    RAISE,
    BettingRules,
    BettingTree,
    rules_from_holdem,
    rules_from_leduc,
)
from pokerlab.cards.evaluator import evaluate_batch
from pokerlab.errors import SpecError
from pokerlab.games.base import Game, State


class Dealer(Protocol):
    """Samples deals and maps real states to the abstract game (see the module docstring)."""

    @property
    def cards(self) -> CardAbstraction:
        """The card abstraction the buckets come from."""
        ...

    def deal(
        self, rng: np.random.Generator, count: int
    ) -> tuple[NDArray[np.int32], NDArray[np.int64]]:
        """``count`` deals: buckets ``[count, players, streets]``, strengths ``[count, players]``.

        Strengths are compared among the players still in; higher wins, equal splits.
        """
        ...

    def seen_cards(self, state: State, player: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """``player``'s hole cards and the board padded to the full board with unseen cards."""
        ...

    def replay(self, tree: BettingTree, actions: Sequence[Action]) -> tuple[int, State]:
        """The betting-tree node and the game state after ``actions`` (cards and bets)."""
        ...


def default_rules(game: Game) -> BettingRules:
    """The betting rules of ``game`` itself: Leduc, or limit Hold'em.

    Raises:
        SpecError: for another game, or no-limit Hold'em (which needs a bet menu).
    """
    from pokerlab.games.holdem_state import HoldemGame
    from pokerlab.games.leduc import LeducGame

    if isinstance(game, LeducGame):
        return rules_from_leduc(game)
    if isinstance(game, HoldemGame):
        return rules_from_holdem(game)
    raise SpecError(f"the blueprint trainer plays leduc and holdem games; got {game.spec}")


def _replay(game: Game, tree: BettingTree, actions: Sequence[Action]) -> tuple[int, State]:
    state = game.initial_state()
    node = 0
    for action in actions:
        p = state.player
        child = state.child(action)
        if p >= 0:
            node = _tree_child(tree, node, p, action, child)
        state = child
    return node, state


def _tree_child(tree: BettingTree, node: int, p: int, action: Action, child: State) -> int:
    """The betting-tree child of ``node`` for the engine's ``action`` of player ``p``."""
    n = int(tree.n_actions[node])
    kinds = tree.action_kind[node, :n]
    kind = min(int(action), RAISE)
    if kind < RAISE:
        slots = np.flatnonzero(kinds == kind)
    else:
        put_in = round(child.contributions()[p])
        slots = np.flatnonzero((kinds == RAISE) & (tree.raise_to[node, :n] == put_in))
    if slots.size != 1:
        raise SpecError(
            f"action {action} has no single match in the betting tree at node {node}; "
            "off-menu bets need translating first (pokerlab.blueprint.nolimit)"
        )
    return int(tree.children[node, int(slots[0])])


class LeducDealer:
    """Deals of a Leduc game (2 or 3 players), lossless rank buckets by default."""

    def __init__(self, game: Game, cards: CardAbstraction | None = None) -> None:
        self.game = game
        self._cards: CardAbstraction = lossless_for(game) if cards is None else cards

    @property
    def cards(self) -> CardAbstraction:
        """The card abstraction."""
        return self._cards

    def deal(
        self, rng: np.random.Generator, count: int
    ) -> tuple[NDArray[np.int32], NDArray[np.int64]]:
        """See :class:`Dealer`."""
        game = self.game
        n = int(game.n_players)
        deals = shuffled_prefix(rng, count, int(game.n_cards), n + 1)  # type: ignore[attr-defined]
        buckets = self._cards.buckets(deals[:, :n, None], deals[:, n:])
        ranks = deals // 2
        paired = ranks[:, :n] == ranks[:, n:]
        if not bool(game.pair_counts):  # type: ignore[attr-defined]
            paired[:] = False
        strength = np.where(paired, 1000 + ranks[:, :n], ranks[:, :n]).astype(np.int64)
        return buckets, strength

    def seen_cards(self, state: State, player: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """See :class:`Dealer`."""
        private = state.private  # type: ignore[attr-defined]
        board = int(state.board)  # type: ignore[attr-defined]
        if board < 0:
            board = next(c for c in range(int(self.game.n_cards)) if c not in private)  # type: ignore[attr-defined]
        return (int(private[player]),), (board,)

    def replay(self, tree: BettingTree, actions: Sequence[Action]) -> tuple[int, State]:
        """See :class:`Dealer`."""
        return _replay(self.game, tree, actions)


@njit(cache=True)
def _first_in_order(draws, needed):  # type: ignore[no-untyped-def]
    """Each row's ``needed`` column indices of the smallest draws, smallest first.

    ``np.argsort(draws, axis=1)[:, :needed]`` without sorting whole rows (ties, which
    uniform float64 draws practically never make, go to the lower index): a deal is the
    deck shuffled by its row of uniform draws, and only its first cards are dealt.
    """
    count, size = draws.shape
    order = np.empty((count, needed), dtype=np.int64)
    kept = np.empty(needed)
    for d in range(count):
        filled = 0
        for j in range(size):
            v = draws[d, j]
            if filled == needed and v >= kept[needed - 1]:
                continue
            k = filled if filled < needed else needed - 1  # full: the last one drops out
            while k > 0 and kept[k - 1] > v:
                kept[k] = kept[k - 1]
                order[d, k] = order[d, k - 1]
                k -= 1
            kept[k] = v
            order[d, k] = j
            if filled < needed:
                filled += 1
    return order


def shuffled_prefix(
    rng: np.random.Generator, count: int, size: int, needed: int
) -> NDArray[np.int64]:
    """``count`` deals of ``needed`` positions of a deck of ``size``: ``[count, needed]``.

    The same deals, draw for draw, as ``np.argsort(rng.random((count, size)), axis=1)``
    cut to ``needed`` columns (the trainer's seeds keep their deals).
    """
    return np.asarray(_first_in_order(rng.random((count, size)), needed))


@njit(cache=True)
def _small_values(hole, board):  # type: ignore[no-untyped-def]
    """Values ``[deals, players]`` of hands of 1 to 4 cards, as ``holdem_pots.hand_values``.

    A player's hand is their ``hole[deal, player]`` cards and the deal's ``board`` cards.
    Indexed element by element: a row view in the loop would cost atomic reference counts.
    """
    out = np.zeros((hole.shape[0], hole.shape[1]), dtype=np.int64)
    counts = np.zeros(13, dtype=np.int64)
    for d in range(hole.shape[0]):
        for p in range(hole.shape[1]):
            for r in range(13):
                counts[r] = 0
            for k in range(hole.shape[2]):
                counts[hole[d, p, k] // 4] += 1
            for k in range(board.shape[1]):
                counts[board[d, k] // 4] += 1
            top, second, groups = 0, 0, 0
            for r in range(13):
                if counts[r] > top:
                    second = top
                    top = counts[r]
                elif counts[r] > second:
                    second = counts[r]
                if counts[r] > 0:
                    groups += 1
            if top == 1:
                kind = 0
            elif top == 2:
                kind = 2 if second == 2 else 1
            elif top == 3:
                kind = 3
            else:
                kind = 7
            value = kind
            for size in range(4, 0, -1):  # groups: larger first, then higher rank first
                for r in range(12, -1, -1):
                    if counts[r] == size:
                        value = value * 13 + r
            for _ in range(4 - groups):
                value *= 13
            out[d, p] = value + 1
    return out


@njit(cache=True)
def _values_by_ranks(hole, board, table):  # type: ignore[no-untyped-def]
    """Values ``[deals, players]`` looked up by the ranks of each hand's cards.

    ``table[sum(rank_k * 13 ** k)]`` holds the value of every rank tuple (see
    :func:`small_value_table`); the hand is its ``hole[deal, player]`` and ``board[deal]``.
    """
    out = np.empty((hole.shape[0], hole.shape[1]), dtype=np.int64)
    for d in range(hole.shape[0]):
        shared = 0
        scale = 1
        for k in range(board.shape[1]):
            shared += (board[d, k] // 4) * scale
            scale *= 13
        for p in range(hole.shape[1]):
            index = shared
            place = scale
            for k in range(hole.shape[2]):
                index += (hole[d, p, k] // 4) * place
                place *= 13
            out[d, p] = table[index]
    return out


def small_value_table(size: int) -> NDArray[np.int64]:
    """The value of every hand of ``size`` (1 to 4) cards by its ranks, ``[13 ** size]``.

    Entry ``sum(rank_k * 13 ** k)`` is the value (higher wins) of cards of those ranks in
    that order, the order never mattering: a lookup for dealing thousands of hands a batch.
    """
    ranks = np.indices((13,) * size).reshape(size, -1)[::-1].T  # row i: digits of i, base 13
    hands = np.ascontiguousarray(ranks * 4, dtype=np.int64)[:, None, :]
    return np.asarray(_small_values(hands, np.zeros((hands.shape[0], 0), dtype=np.int64)))[:, 0]


def hand_strengths(hands: NDArray[np.int64]) -> NDArray[np.int64]:
    """Each hand's showdown value (higher wins), ``[n, k]`` card ids, k = 1..7 (the engine's)."""
    if hands.shape[1] >= 5:
        return evaluate_batch(hands.astype(np.uint8)).astype(np.int64)
    hole = np.ascontiguousarray(hands, dtype=np.int64)[:, None, :]
    return np.asarray(_small_values(hole, np.zeros((hole.shape[0], 0), dtype=np.int64)))[:, 0]


def lossless_holdem(game: Game) -> LosslessCards:
    """The lossless abstraction of a small Hold'em game.

    One class per card of its deck; when a hand holds fewer than five cards (no straight or
    flush can be made) suits never matter and the class is the rank.
    """
    rules = game.rules  # type: ignore[attr-defined]
    sizes = rules.board_sizes
    suits_matter = rules.hole_size + sizes[-1] >= 5  # below five cards: no flush, no straight
    lowest = min(rules.deck) // 4
    card_class = [0] * 52
    for index, card in enumerate(rules.deck):
        card_class[card] = index if suits_matter else card // 4 - lowest
    return LosslessCards(
        card_class=tuple(card_class),
        hole_size=rules.hole_size,
        board_cards=tuple(b - a for a, b in zip((0, *sizes[:-1]), sizes, strict=True)),
    )


class HoldemDealer:
    """Deals of a Hold'em game (any deck, hole and board sizes, 2 to 9 players)."""

    def __init__(self, game: Game, cards: CardAbstraction | None = None) -> None:
        self.game = game
        rules = game.rules  # type: ignore[attr-defined]
        self.deck = np.array(rules.deck, dtype=np.int64)
        self.n_players = int(rules.n_players)
        self.hole_size = int(rules.hole_size)
        self.board_size = int(rules.board_sizes[-1])
        self._cards: CardAbstraction = lossless_holdem(game) if cards is None else cards
        size = self.hole_size + self.board_size
        self._value_table = small_value_table(size) if size < 5 else None
        visible = tuple(int(v) for v in self._cards.board_visible)
        if visible != tuple(rules.board_sizes):
            raise SpecError(
                f"the card abstraction {self._cards.name!r} sees {visible} board cards by "
                f"street; {game.spec} shows {tuple(rules.board_sizes)}"
            )

    @property
    def cards(self) -> CardAbstraction:
        """The card abstraction."""
        return self._cards

    def deal(
        self, rng: np.random.Generator, count: int
    ) -> tuple[NDArray[np.int32], NDArray[np.int64]]:
        """See :class:`Dealer`."""
        n, hole_size = self.n_players, self.hole_size
        needed = n * hole_size + self.board_size
        cards = self.deck[shuffled_prefix(rng, count, self.deck.size, needed)]
        # contiguous copies: the compiled passes below are several times faster on them
        hole = np.ascontiguousarray(cards[:, : n * hole_size]).reshape(count, n, hole_size)
        board = np.ascontiguousarray(cards[:, n * hole_size :])
        buckets = self._cards.buckets(hole, board)
        if self._value_table is not None:
            return buckets, np.asarray(_values_by_ranks(hole, board, self._value_table))
        hands = np.concatenate(
            (hole, np.broadcast_to(board[:, None, :], (count, n, self.board_size))), axis=2
        ).reshape(count * n, hole_size + self.board_size)
        strength = hand_strengths(hands).reshape(count, n)
        return buckets, strength

    def seen_cards(self, state: State, player: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """See :class:`Dealer`."""
        hole = tuple(int(c) for c in state.hole_cards(player))  # type: ignore[attr-defined]
        return hole, self.pad_board(hole, [int(c) for c in state.board])  # type: ignore[attr-defined]

    def pad_board(self, hole: Sequence[int], board: Sequence[int]) -> tuple[int, ...]:
        """``board`` filled up to the full board with the lowest cards nobody here holds.

        The buckets of the streets the padding reaches are never read; it only makes the
        arrays the card abstraction takes whole.
        """
        padded = list(board)
        used = set(hole) | set(board)
        for card in self.deck.tolist():
            if len(padded) >= self.board_size:
                break
            if card not in used:
                padded.append(card)
        return tuple(padded)

    def replay(self, tree: BettingTree, actions: Sequence[Action]) -> tuple[int, State]:
        """See :class:`Dealer`."""
        return _replay(self.game, tree, actions)


def dealer_for(game: Game, cards: CardAbstraction | None = None) -> Dealer:
    """The dealer of ``game`` (Leduc or Hold'em), with lossless cards when ``cards`` is None.

    Raises:
        SpecError: for another game, or a card abstraction that does not fit the game.
    """
    from pokerlab.games.holdem_state import HoldemGame
    from pokerlab.games.leduc import LeducGame

    if isinstance(game, LeducGame):
        return LeducDealer(game, cards)
    if isinstance(game, HoldemGame):
        return HoldemDealer(game, cards)
    raise SpecError(f"the blueprint trainer plays leduc and holdem games; got {game.spec}")


__all__ = [
    "Dealer",
    "HoldemDealer",
    "LeducDealer",
    "dealer_for",
    "default_rules",
    "hand_strengths",
    "lossless_holdem",
    "shuffled_prefix",
    "small_value_table",
]
