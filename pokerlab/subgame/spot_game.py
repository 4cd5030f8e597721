"""A Hold'em spot as a pokerlab :class:`~pokerlab.games.Game`, for small spots.

The game deals a pair of hands (one from each range, sharing no card, with probability
proportional to the product of their weights), then walks the spot's public tree: the
players' actions, the chance cards (uniform among those neither hand nor the board
holds), and the fold and showdown payoffs. Everything pokerlab does with a game then
works on a spot: ``tree.compile``, the sequence-form LP, exact best response and
exploitability, matches. The range solver does not need it; it is the independent check
of the range solver's results (and a policy's home for matches) on spots small enough to
enumerate: hand pairs times public nodes.

The spec is ``spot(board=..., oop=..., ip=..., pot=..., stack=..., bets=..., raises=...,
donks=..., add_all_in_threshold=..., force_all_in_threshold=..., merging_threshold=...,
raise_cap=...)`` (``allin_threshold``, the older name of ``add_all_in_threshold``, still
loads); it loads by name once :mod:`pokerlab.subgame` is
imported. The game's tree has no isomorphic sharing (every card is dealt).

Infoset keys are the player's hand, ``|``, and the public history key of the node
(``"AsKs|x-b100"``); action ids are the positions of the actions at the node (0 for the
first), and :meth:`SpotState.action_name` names them (``"check"``, ``"bet 100"``...).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from pokerlab._types import CHANCE, TERMINAL, Action, FloatArray, Player
from pokerlab.cards import cards_str
from pokerlab.errors import SpecError
from pokerlab.games.base import Game, State
from pokerlab.games.registry import register_loader
from pokerlab.games.spec import GameSpec
from pokerlab.strategy import Strategy
from pokerlab.subgame.public_tree import CHANCE_NODE, DECISION, FOLD_NODE, PublicGame
from pokerlab.subgame.spot import BuiltSpot, Spot
from pokerlab.tree import compile

GAME_NAME = "spot"


class SpotGame(Game):
    """A spot as a game: the deal of a hand pair, then the spot's public tree."""

    def __init__(self, spot: Spot) -> None:
        plain = Spot.from_dict({**spot.to_dict(), "isomorphism": False})
        params = plain.to_dict()
        params.pop("isomorphism")
        self.spec = GameSpec.make(GAME_NAME, params)
        self.n_players = 2
        self.spot = plain

    @cached_property
    def built(self) -> BuiltSpot:
        """The spot's public game (built on first use)."""
        return self.spot.build()

    @property
    def public(self) -> PublicGame:
        """The public game."""
        return self.built.public

    @cached_property
    def pairs(self) -> tuple[tuple[int, int, float], ...]:
        """``(OOP hand, IP hand, probability)`` of every deal."""
        hands = self.public.hands
        out = []
        for i, first in enumerate(hands[0].cards):
            for j, second in enumerate(hands[1].cards):
                if not set(first.tolist()) & set(second.tolist()):
                    out.append((i, j, float(hands[0].weights[i] * hands[1].weights[j])))
        total = sum(w for _, _, w in out)
        return tuple((i, j, w / total) for i, j, w in out)

    @property
    def max_actions(self) -> int:
        """The most actions at a decision node."""
        return self.public.tree.max_actions

    def action_name(self, action: Action) -> str:
        """``"action k"``: names depend on the node (see :meth:`SpotState.action_name`)."""
        return f"action {action}"

    def initial_state(self) -> SpotState:
        """Before the deal of the two hands."""
        return SpotState(self, -1, -1, -1, ())

    def count_histories(self) -> int:
        """An upper bound: one deal node, and the public tree for every hand pair."""
        return 1 + len(self.pairs) * self.public.tree.n_nodes

    def describe(self) -> str:
        """One line: the spot."""
        return self.spot.describe()


@dataclass(frozen=True, slots=True)
class SpotState(State):
    """A node of the public tree with both hands dealt (``node == -1`` before the deal)."""

    owner: SpotGame
    node: int
    hand0: int
    hand1: int
    actions: tuple[Action, ...]

    @property
    def game(self) -> SpotGame:
        """The game."""
        return self.owner

    @property
    def player(self) -> Player:
        """The player to act, CHANCE at a deal, TERMINAL at a fold or showdown."""
        if self.node < 0:
            return CHANCE
        kind = self.owner.public.tree.kind(self.node)
        if kind == DECISION:
            return self.owner.public.tree.player(self.node)
        return CHANCE if kind == CHANCE_NODE else TERMINAL

    @property
    def history(self) -> tuple[Action, ...]:
        """The deal, then the actions and cards."""
        return self.actions

    def _dealt(self) -> set[int]:
        hands = self.owner.public.hands
        return set(hands[0].cards[self.hand0].tolist()) | set(hands[1].cards[self.hand1].tolist())

    def legal_actions(self) -> tuple[Action, ...]:
        """Deal ids before the deal; action positions; the cards not held at a chance node."""
        if self.node < 0:
            return tuple(range(len(self.owner.pairs)))
        tree = self.owner.public.tree
        kind = tree.kind(self.node)
        children = tree.children(self.node)
        if kind == DECISION:
            return tuple(range(len(children)))
        if kind == CHANCE_NODE:
            held = self._dealt()
            return tuple(k for k, child in enumerate(children)
                         if int(tree.nodes[child, 5]) not in held)
        return ()

    def chance_outcomes(self) -> tuple[tuple[Action, float], ...]:
        """The deals by weight; the next card uniformly among those not held."""
        if self.node < 0:
            return tuple((k, w) for k, (_, _, w) in enumerate(self.owner.pairs))
        if self.player != CHANCE:
            return ()
        legal = self.legal_actions()
        return tuple((k, 1.0 / len(legal)) for k in legal)

    def _apply(self, action: Action) -> SpotState:
        if self.node < 0:
            first, second, _ = self.owner.pairs[action]
            return SpotState(self.owner, 0, first, second, (action,))
        child = self.owner.public.tree.children(self.node)[action]
        return SpotState(self.owner, child, self.hand0, self.hand1, (*self.actions, action))

    def infoset_key(self, player: Player | None = None) -> str:
        """The player's hand and the public history: ``"AsKs|x-b100"``."""
        if player is None:
            player = self.player
        hand = self.private_cards(player) or "?"
        return f"{hand}|{self.owner.public.tree.keys[max(self.node, 0)]}"

    def action_name(self, action: Action) -> str:
        """The action's name here (``"check"``, ``"bet 100"``, ``"7c"``)."""
        if self.node < 0:
            first, second, _ = self.owner.pairs[action]
            names = self.owner.public.hands
            return f"deal {names[0].names[first]} / {names[1].names[second]}"
        tree = self.owner.public.tree
        children = tree.children(self.node)
        if not 0 <= action < len(children):
            raise SpecError(f"this node has actions 0..{len(children) - 1}; got {action}")
        return tree.labels[children[action]]

    def private_cards(self, player: Player) -> str:
        """The player's hand (empty before the deal)."""
        if self.node < 0 or player not in (0, 1):
            return ""
        hand = self.hand0 if player == 0 else self.hand1
        return self.owner.public.hands[player].names[hand]

    def board_cards(self) -> str:
        """The board at this node."""
        return cards_str(self.owner.built.board_of(max(self.node, 0)))

    def contributions(self) -> tuple[float, ...]:
        """Chips each player has put in, half the starting pot included."""
        return self.owner.public.tree.chips(max(self.node, 0))

    def _terminal_returns(self) -> tuple[float, ...]:
        tree = self.owner.public.tree
        chips = tree.chips(self.node)
        if tree.kind(self.node) == FOLD_NODE:
            folder = tree.player(self.node)
            stake = chips[folder]
            return (-stake, stake) if folder == 0 else (stake, -stake)
        board = int(tree.nodes[self.node, 4])
        mine = int(self.owner.public.strength[0][board, self.hand0])
        theirs = int(self.owner.public.strength[1][board, self.hand1])
        if mine == theirs:
            return (0.0, 0.0)
        return (chips[0], -chips[0]) if mine > theirs else (-chips[0], chips[0])

    def __str__(self) -> str:
        return f"spot[{self.private_cards(0)} {self.private_cards(1)} | {self.infoset_key(0)}]"


def spot_game(spot: Spot) -> SpotGame:
    """The spot as a pokerlab game (see the module docstring).

    Example:
        >>> from pokerlab.subgame import Spot
        >>> game = spot_game(Spot(board="Td9d6hQc2s", oop="AA", ip="KK", pot=100, stack=100,
        ...                       bets="100%", raises=""))
        >>> str(game.spec).startswith("spot(board='Td9d6hQc2s'")
        True
    """
    return SpotGame(spot)


def spot_strategy(game: SpotGame, strategies: tuple[FloatArray, FloatArray],
                  metadata: dict[str, Any] | None = None) -> Strategy:
    """The range solver's arrays ``(probs0, probs1)`` as a Strategy of the spot game.

    The arrays are ``[rows, hands]`` over ``game.public`` (the tree without isomorphic
    sharing); the game must compile.
    """
    tree = compile(game)
    public_tree = game.public.tree
    node_of_key = game.built.node_of_key
    names = [{name: h for h, name in enumerate(hands.names)} for hands in game.public.hands]
    probs = np.zeros((tree.n_infosets, tree.max_actions))
    for i, key in enumerate(tree.infoset_keys):
        hand_name, _, node_key = key.partition("|")
        node = node_of_key[node_key]
        p = public_tree.player(node)
        row = public_tree.row(node)
        count = len(public_tree.children(node))
        probs[i, :count] = strategies[p][row : row + count, names[p][hand_name]]
    return Strategy.from_array(game, probs, normalize=True, metadata=metadata)


def _load(params: Mapping[str, object]) -> Game:
    try:
        return SpotGame(Spot.from_dict(dict(params)))
    except TypeError as exc:
        raise SpecError(f"cannot build a spot from {dict(params)!r}: {exc}") from None


register_loader(GAME_NAME, _load)


__all__ = ["GAME_NAME", "SpotGame", "SpotState", "spot_game", "spot_strategy"]
