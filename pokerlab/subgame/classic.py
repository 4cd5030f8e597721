"""Kuhn and Leduc poker as public games, and the range solver as a pokerlab Solver.

The betting of Kuhn and Leduc does not depend on the private cards, so the public tree is
walked once with the game's own states (stand-in private cards, every board card for
Leduc's public deal): the rules, raise caps, stacks and pot sizes are the game's. Each
player's hands are the card ids (Leduc: suits included, so card removal is exact); a
showdown compares :meth:`~pokerlab.games.LeducState.hand_strength` (Kuhn: the card).

Leduc's two suits are interchangeable until the board is dealt, so the board's chance
node keeps one subtree per rank: the other suit's card reuses it through the suit swap
(the isomorphism of :mod:`pokerlab.subgame.public_tree`), which halves the tree.

Infoset keys come from the game's own ``infoset_key`` with the hand put in, so a
(public node, hand) pair maps onto a row of the compiled tree: :func:`to_strategy` turns
the range solver's arrays into a :class:`~pokerlab.strategy.Strategy` (merging the hands
and public nodes that share an infoset, such as Leduc's two suits of a rank, by their
reach-weighted strategy sums) and :func:`from_strategy` goes back, so that exact
evaluators and the vectorized ones can be compared on one profile. The range solver as a
pokerlab :class:`~pokerlab.solvers.Solver` of these games is
:class:`~pokerlab.subgame.public_cfr.PublicTreeCFR`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import numpy as np

from pokerlab._types import CHANCE, TERMINAL, FloatArray, IntArray
from pokerlab.errors import SolverError
from pokerlab.games import Game, KuhnGame, KuhnState, LeducGame, LeducState, State
from pokerlab.strategy import Strategy
from pokerlab.subgame.public_tree import (
    CHANCE_NODE,
    DECISION,
    FOLD_NODE,
    SHOWDOWN,
    HandSpace,
    NodeSpec,
    PublicGame,
    build_public_tree,
    make_public_game,
)
from pokerlab.subgame.range_solver import evaluate_profile
from pokerlab.tree import compile


@dataclass(frozen=True, eq=False)
class ClassicGame:
    """A Kuhn or Leduc game with its public game and the map onto its infosets.

    Attributes:
        game: the pokerlab game.
        public: the public game the range solver runs on.
        flat_index: for each player, ``[rows, hands]``: where each (decision node, action,
            hand) falls in the compiled tree's ``probs`` array, flattened
            (``infoset * max_actions + slot``).
    """

    game: Game
    public: PublicGame
    flat_index: tuple[IntArray, IntArray]


def public_game(game: Game) -> ClassicGame:
    """The public game of a two-player Kuhn or Leduc game (any cards, ranks, stacks, caps).

    Raises:
        SolverError: for another game, or for more than two players.

    Example:
        >>> from pokerlab.games import leduc
        >>> classic = public_game(leduc())
        >>> classic.public.tree.n_nodes, classic.public.n_hands
        (240, (6, 6))
    """
    if game.n_players != 2:
        raise SolverError(f"the range solver plays two-player games; {game.spec} has "
                          f"{game.n_players} players")
    if isinstance(game, KuhnGame):
        return _kuhn(game)
    if isinstance(game, LeducGame):
        return _leduc(game)
    raise SolverError(f"no public tree for {game.spec}; the range solver knows kuhn and leduc "
                      "(and Hold'em spots through pokerlab.subgame.Spot)")


def kuhn_public_game(game: KuhnGame) -> PublicGame:
    """The public game of two-player Kuhn poker with any number of cards."""
    return public_game(game).public


def leduc_public_game(game: LeducGame) -> PublicGame:
    """The public game of two-player Leduc poker (any variant)."""
    return public_game(game).public


# -- building ----------------------------------------------------------------------------
def _walk(state: State, chips: tuple[float, float], key: str, label: str,
          *, boards: int, deal_factor: float, records: list[tuple[NodeSpec, State]],
          board: int = 0, card: int = -1, factor: float = 1.0) -> NodeSpec:
    """The public subtree below ``state``; ``records`` collects (decision node, state)."""
    player = state.player
    spec = NodeSpec(DECISION, chips=chips, board=board, label=label, card=card,
                    chance_factor=factor, key=key)
    if player == TERMINAL:
        folder = _folder(state)
        spec.kind = FOLD_NODE if folder >= 0 else SHOWDOWN
        spec.player = folder
        return spec
    if player == CHANCE:  # Leduc's board: every card, whatever the stand-in hands hold
        assert isinstance(state, LeducState)
        spec.kind = CHANCE_NODE
        # The two suits are interchangeable (nothing before the board tells them apart):
        # the second suit's cards reuse the first suit's subtrees through the suit swap.
        for c in range(0, boards, 2):
            name = state.leduc.card_name(c)
            dealt = _walk(state._apply(c), chips, f"{key}|{name}|", name, boards=boards,
                          deal_factor=deal_factor, records=records, board=c + 1, card=c,
                          factor=deal_factor)
            spec.children.append(dealt)
            spec.isomorphic.append((c + 1, 0, dealt))
        return spec
    spec.player = player
    records.append((spec, state))
    for action in state.legal_actions():
        child = state._apply(action)
        contributions = child.contributions()
        name = state.action_name(action)
        spec.children.append(_walk(child, (contributions[0], contributions[1]),
                                   f"{key}{_LETTERS[name]}", name, boards=boards,
                                   deal_factor=deal_factor, records=records, board=board))
    return spec


_LETTERS = {"check": "k", "bet": "b", "call": "c", "fold": "f", "raise": "r", "pass": "p"}


def _folder(state: State) -> int:
    """The player who folded into a terminal ``state``, or -1 at a showdown."""
    if isinstance(state, KuhnState):
        folded = state.first_bet >= 0 and state.bets[-1] == 0
        return (len(state.bets) - 1) % 2 if folded else -1
    assert isinstance(state, LeducState)
    return state.folded.index(True) if any(state.folded) else -1


def _infoset_rows(
    game: Game, public: PublicGame, records: list[tuple[NodeSpec, State]],
    ids: dict[int, int], with_hand: Any,
) -> tuple[IntArray, IntArray]:
    """For each player, ``[rows, hands]`` flat ``probs`` index of the (node, action, hand)."""
    tree = compile(game)
    out = [np.full((public.tree.n_rows[p], public.n_hands[p]), -1, dtype=np.int64)
           for p in (0, 1)]
    for spec, state in records:
        p = spec.player
        row = public.tree.row(ids[id(spec)])
        for h in range(public.n_hands[p]):
            key = with_hand(state, p, h).infoset_key(p)
            first = tree.infoset_id(key) * tree.max_actions
            out[p][row : row + len(spec.children), h] = first + np.arange(len(spec.children))
    return out[0], out[1]


def _kuhn(game: KuhnGame) -> ClassicGame:
    n = game.cards
    start = game.initial_state()._apply(0)._apply(1)
    assert isinstance(start, KuhnState)
    records: list[tuple[NodeSpec, State]] = []
    ante = float(game.ante)
    root = _walk(start, (ante, ante), "", "", boards=0, deal_factor=1.0, records=records)
    ids: dict[int, int] = {}
    tree = build_public_tree(root, ids)
    cards = np.stack([np.arange(n), np.full(n, -1)], axis=1).astype(np.int64)
    hands = HandSpace(cards, np.ones(n), game.card_names)
    strength = np.arange(n, dtype=np.int64).reshape(1, n)
    public = make_public_game(
        tree, (hands, hands), n, (strength, strength), None, pot=2.0 * ante,
        description=str(game.spec), source={"kind": "game", "game": game.spec.to_dict()},
    )

    def with_hand(state: State, p: int, h: int) -> State:
        assert isinstance(state, KuhnState)
        dealt = list(state.cards)
        dealt[p] = h
        return dataclasses.replace(state, cards=tuple(dealt))

    return ClassicGame(game, public, _infoset_rows(game, public, records, ids, with_hand))


def _leduc(game: LeducGame) -> ClassicGame:
    n = game.n_cards
    start = game.initial_state()._apply(0)._apply(1)
    assert isinstance(start, LeducState)
    records: list[tuple[NodeSpec, State]] = []
    ante = float(game.ante)
    root = _walk(start, (ante, ante), "", "", boards=n, deal_factor=1.0 / (n - 2),
                 records=records)
    ids: dict[int, int] = {}
    tree = build_public_tree(root, ids)
    cards = np.stack([np.arange(n), np.full(n, -1)], axis=1).astype(np.int64)
    hands = HandSpace(cards, np.ones(n), tuple(game.card_name(c) for c in range(n)))
    # Board 0: none yet (never shown down); board b = card b - 1.
    strength = np.full((n + 1, n), -1, dtype=np.int64)
    strength[0] = [c // 2 for c in range(n)]
    for board in range(n):
        for c in range(n):
            if c != board:
                state = dataclasses.replace(start, private=(c, 1 - c % 2), board=board)
                strength[board + 1, c] = state.hand_strength(0)
    suit_swap = (np.arange(n) ^ 1).reshape(1, n)
    public = make_public_game(
        tree, (hands, hands), n, (strength, strength), (suit_swap, suit_swap), pot=2.0 * ante,
        description=str(game.spec), source={"kind": "game", "game": game.spec.to_dict()},
    )

    def with_hand(state: State, p: int, h: int) -> State:
        assert isinstance(state, LeducState)
        private = list(state.private)
        private[p] = h
        return dataclasses.replace(state, private=tuple(private))

    return ClassicGame(game, public, _infoset_rows(game, public, records, ids, with_hand))


# -- strategies ---------------------------------------------------------------------------
def to_strategy(classic: ClassicGame, sums: tuple[FloatArray, FloatArray],
                metadata: dict[str, Any] | None = None) -> Strategy:
    """A :class:`Strategy` from per-(node, hand) strategy sums (or reach-weighted rows).

    The rows of every (node, hand) pair that falls in one infoset are added, then
    normalized (uniform where they sum to 0).
    """
    tree = compile(classic.game)
    probs = merged_probs(classic, sums).reshape(tree.n_infosets, tree.max_actions)
    return Strategy.from_array(classic.game, probs, metadata=metadata)


def merged_probs(classic: ClassicGame, sums: tuple[FloatArray, FloatArray]) -> FloatArray:
    """The flat ``probs`` of the infoset-merged, normalized ``sums``."""
    tree = compile(classic.game)
    size = tree.n_infosets * tree.max_actions
    totals = np.zeros(size)
    for p in (0, 1):
        totals += np.bincount(classic.flat_index[p].ravel(), weights=sums[p].ravel(),
                              minlength=size)
    table = totals.reshape(tree.n_infosets, tree.max_actions)
    row_sums = table.sum(axis=1, keepdims=True)
    mask = tree.legal_mask
    uniform = mask / mask.sum(axis=1, keepdims=True)
    safe = np.where(row_sums > 0, row_sums, 1.0)
    return np.where(row_sums > 0, table / safe, uniform).ravel()


def from_strategy(classic: ClassicGame, strategy: Strategy) -> tuple[FloatArray, FloatArray]:
    """Per-(node, hand) arrays ``[rows, hands]`` of a :class:`Strategy`'s rows."""
    strategy.check_game(classic.game)
    flat = strategy.probs.ravel()
    return flat[classic.flat_index[0]], flat[classic.flat_index[1]]


def public_exploitability(classic: ClassicGame, strategy: Strategy) -> float:
    """The exploitability of ``strategy`` (chips per hand), by the vectorized passes.

    Equal (to rounding) to :func:`pokerlab.eval.exploitability` on the compiled tree.
    """
    return evaluate_profile(classic.public, from_strategy(classic, strategy)).exploitability


__all__ = [
    "ClassicGame",
    "from_strategy",
    "kuhn_public_game",
    "leduc_public_game",
    "merged_probs",
    "public_exploitability",
    "public_game",
    "to_strategy",
]
