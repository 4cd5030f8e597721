"""Rhode Island Hold'em (Shi and Littman 2000; solved by Gilpin and Sandholm 2005-2007).

Rules, as Gilpin and Sandholm state them: each of the two players antes 5 chips and is
dealt one private card from a 52-card deck; a betting round; a public card (the flop); a
betting round; a second public card (the turn); a last betting round; then the best
three-card hand (the private card and the two public cards) wins the pot, equal hands
split it. Betting is limit: bets and raises of 10 chips in the first round and 20 in the
second and third, at most 3 raises after the opening bet in each round (so 4 bets), and
player 0 (P1) acts first in every round. Three-card hands rank straight flush, three of a
kind, straight, flush, pair, high card (:mod:`pokerlab.cards.three_card`).

Parameters make the same game smaller (for tests and study): ``ranks`` (the top ranks of
2..A), ``suits`` (the first suits of c, d, h, s), ``raises`` (raises after the opening
bet), ``ante`` and ``bets``. Cards keep their 52-card ids (``rank * 4 + suit``), so the
three-card ranking applies unchanged: a straight needs three consecutive ranks of the
deck, the ace playing low in A-2-3.

Actions are Leduc's (OpenSpiel's): ``0`` fold, ``1`` call (check when nothing is owed),
``2`` raise (bet when nothing is owed). Fold is legal only facing a bet. Chance actions
are card ids: P1's card, P2's card, the flop, the turn.

Infoset keys name the cards with their suits (flushes make suits matter) and each round's
betting in ``f``/``c``/``r`` letters: ``"Ks|rc"`` (P1's K of spades, round 1 raise-call),
``"Ks|7h|rc|cr"`` on the flop, ``"Ks|7h2c|rc|cr|"`` on the turn.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

from pokerlab._types import CHANCE, TERMINAL, Action, Player
from pokerlab.cards.card import RANKS, SUITS, card_str
from pokerlab.cards.three_card import three_card_value
from pokerlab.errors import SpecError
from pokerlab.games.base import Game, State
from pokerlab.games.registry import load
from pokerlab.games.spec import GameSpec

FOLD: Action = 0
CALL: Action = 1
RAISE: Action = 2
ROUNDS = 3
"""Betting rounds: before the flop, after the flop, after the turn."""
_LETTERS = "fcr"
_BOARD_EVENTS = ("flop", "turn")


class RhodeIslandGame(Game):
    """Rhode Island Hold'em; build it with :func:`rhode_island` or ``load("rhode_island")``."""

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec
        p = spec.as_kwargs()
        self.n_players = 2
        self.ante = _positive_int(p["ante"], "ante")
        bets = p["bets"]
        sizes = [b for b in bets if isinstance(b, int) and not isinstance(b, bool) and b > 0] \
            if isinstance(bets, tuple) else []
        if not isinstance(bets, tuple) or len(bets) != ROUNDS or len(sizes) != ROUNDS:
            raise SpecError(f"rhode_island bets must be three positive integers (one per round); "
                            f"got {bets!r}")
        self.bet_sizes: tuple[int, int, int] = (sizes[0], sizes[1], sizes[2])
        raises = p["raises"]
        if not isinstance(raises, int) or isinstance(raises, bool) or raises < 0:
            raise SpecError(f"rhode_island raises (after the opening bet, per round) must be an "
                            f"integer >= 0; got {raises!r}")
        self.raises = raises
        self.ranks = _positive_int(p["ranks"], "ranks")
        self.suits = _positive_int(p["suits"], "suits")
        if self.ranks > len(RANKS) or self.suits > len(SUITS):
            raise SpecError(f"rhode_island has at most 13 ranks and 4 suits; got "
                            f"ranks={self.ranks}, suits={self.suits}")
        if self.ranks * self.suits < 4:
            raise SpecError(f"rhode_island deals 4 cards: ranks x suits must be at least 4; got "
                            f"{self.ranks} x {self.suits}")
        low = len(RANKS) - self.ranks
        self.deck: tuple[int, ...] = tuple(
            rank * 4 + suit for rank in range(low, len(RANKS)) for suit in range(self.suits)
        )

    @property
    def max_bets(self) -> int:
        """Bets allowed per round: the opening bet and the raises."""
        return self.raises + 1

    @property
    def max_actions(self) -> int:
        """Three actions: fold, call, raise."""
        return 3

    def action_name(self, action: Action) -> str:
        """``"fold"``, ``"call"`` or ``"raise"``."""
        return ("fold", "call", "raise")[action]

    def initial_state(self) -> RhodeIslandState:
        """The state before the deal."""
        return RhodeIslandState(self, (), (), ("",), (self.ante, self.ante), 0, -1, CHANCE)

    def card_name(self, card: int) -> str:
        """A card's name, ``"Ks"``."""
        return card_str(card)

    def count_histories(self) -> int:
        """The number of histories (chance, decision and terminal nodes), counted exactly.

        What :func:`pokerlab.tree.compile` would enumerate: it refuses the full game with
        this count before walking anything.
        """
        return self.size.histories

    @cached_property
    def size(self) -> RhodeIslandSize:
        """The game's size in every convention (:class:`RhodeIslandSize`), counted exactly."""
        return _count(self)

    def describe(self) -> str:
        """One line of rules."""
        deck = ("52 cards" if len(self.deck) == 52
                else f"{self.ranks} ranks x {self.suits} suits")
        bets = "/".join(str(b) for b in self.bet_sizes)
        return (f"2-player Rhode Island Hold'em, {deck}, ante {self.ante}, limit bets {bets}, "
                f"{self.raises} raises per round, three-card ranking")


def _positive_int(value: object, name: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise SpecError(f"rhode_island {name} must be a positive integer; got {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class RhodeIslandState(State):
    """A Rhode Island history: the cards dealt, each round's betting, the chips in."""

    rhode: RhodeIslandGame
    hole: tuple[int, ...]  # card per player, dealt so far
    board: tuple[int, ...]  # flop, turn, as dealt
    rounds: tuple[str, ...]  # f/c/r letters of each round begun (the last is the current)
    committed: tuple[int, int]  # chips each player has put in, ante included
    n_bets: int  # bets + raises this round
    folded: Player  # the player who folded, or -1
    to_act: Player  # 0, 1, CHANCE or TERMINAL

    @property
    def game(self) -> RhodeIslandGame:
        """The game."""
        return self.rhode

    @property
    def player(self) -> Player:
        """The player to act, CHANCE while dealing, TERMINAL at the end."""
        return self.to_act

    @property
    def round(self) -> int:
        """The betting round under way or just finished: 0, 1 or 2."""
        return len(self.rounds) - 1

    @property
    def history(self) -> tuple[Action, ...]:
        """Private cards, round-1 betting, flop, round-2 betting, turn, round-3 betting."""
        out: list[Action] = list(self.hole)
        for r, letters in enumerate(self.rounds):
            if r > 0:
                out.append(self.board[r - 1])
            out.extend(_LETTERS.index(letter) for letter in letters)
        if len(self.board) > len(self.rounds) - 1:  # a board card dealt, its round not begun
            out.append(self.board[-1])
        return tuple(out)

    def legal_actions(self) -> tuple[Action, ...]:
        """Undealt cards at chance; fold (only facing a bet), call, raise (under the cap)."""
        player = self.to_act
        if player == CHANCE:
            dealt = (*self.hole, *self.board)
            return tuple(c for c in self.rhode.deck if c not in dealt)
        if player == TERMINAL:
            return ()
        facing = self.committed[1 - player] > self.committed[player]
        actions: tuple[Action, ...] = (FOLD, CALL) if facing else (CALL,)
        if self.n_bets < self.rhode.max_bets:
            actions += (RAISE,)
        return actions

    def chance_outcomes(self) -> tuple[tuple[Action, float], ...]:
        """Each undealt card, uniformly."""
        if self.to_act != CHANCE:
            return ()
        cards = self.legal_actions()
        return tuple((c, 1.0 / len(cards)) for c in cards)

    def _apply(self, action: Action) -> RhodeIslandState:
        game = self.rhode
        if self.to_act == CHANCE:
            if len(self.hole) < 2:
                hole = (*self.hole, action)
                return RhodeIslandState(game, hole, (), self.rounds, self.committed, 0, -1,
                                        0 if len(hole) == 2 else CHANCE)
            return RhodeIslandState(game, self.hole, (*self.board, action), (*self.rounds, ""),
                                    self.committed, 0, -1, 0)
        player = self.to_act
        letters = self.rounds[-1] + _LETTERS[action]
        rounds = (*self.rounds[:-1], letters)
        committed = self.committed
        n_bets = self.n_bets
        if action == FOLD:
            return RhodeIslandState(game, self.hole, self.board, rounds, committed, n_bets,
                                    player, TERMINAL)
        if action == RAISE:
            stake = committed[1 - player] + game.bet_sizes[self.round]
            committed = (stake, committed[1]) if player == 0 else (committed[0], stake)
            return RhodeIslandState(game, self.hole, self.board, rounds, committed, n_bets + 1,
                                    -1, 1 - player)
        # A call (or check): it ends the round after a bet, or when both have checked.
        stake = committed[1 - player]
        committed = (stake, committed[1]) if player == 0 else (committed[0], stake)
        if n_bets == 0 and len(letters) < 2:
            return RhodeIslandState(game, self.hole, self.board, rounds, committed, 0, -1,
                                    1 - player)
        after = TERMINAL if self.round == ROUNDS - 1 else CHANCE
        return RhodeIslandState(game, self.hole, self.board, rounds, committed, n_bets, -1,
                                after)

    def infoset_key(self, player: Player | None = None) -> str:
        """The player's card, the board, and each round's betting (see the module)."""
        if player is None:
            player = self.to_act
        card = card_str(self.hole[player]) if 0 <= player < len(self.hole) else "?"
        parts = [card]
        if self.board:
            parts.append("".join(card_str(c) for c in self.board))
        parts.extend(self.rounds)
        return "|".join(parts)

    def action_name(self, action: Action) -> str:
        """``check``/``bet`` when nothing is owed, ``fold``/``call``/``raise`` otherwise."""
        if self.to_act == CHANCE:
            return f"deal {card_str(action)}"
        owed = self.to_act >= 0 and self.committed[1 - self.to_act] > self.committed[self.to_act]
        if action == FOLD:
            return "fold"
        if action == CALL:
            return "call" if owed else "check"
        if action == RAISE:
            return "raise" if owed else "bet"
        raise SpecError(f"rhode_island has actions 0 (fold), 1 (call), 2 (raise); got {action}")

    def public_event(self, action: Action, child: State) -> tuple[Player, str] | None:
        """Players' actions, and the board cards (``"flop 7h"``); private cards are hidden."""
        if self.to_act >= 0:
            return (self.to_act, self.action_name(action))
        if len(self.hole) == 2:
            return (-1, f"{_BOARD_EVENTS[len(self.board)]} {card_str(action)}")
        return None

    def private_cards(self, player: Player) -> str:
        """The player's card (``"Ks"``)."""
        return card_str(self.hole[player]) if 0 <= player < len(self.hole) else ""

    def board_cards(self) -> str:
        """The public cards dealt (``"7h 2c"``)."""
        return " ".join(card_str(c) for c in self.board)

    def contributions(self) -> tuple[float, ...]:
        """Chips each player has put in, ante included."""
        return (float(self.committed[0]), float(self.committed[1]))

    def hand_value(self, player: Player) -> int:
        """The player's three-card value (1..741) once the turn is out."""
        return three_card_value((self.hole[player], *self.board))

    def _terminal_returns(self) -> tuple[float, ...]:
        first, second = self.committed
        if self.folded == 0:
            return (-float(first), float(first))
        if self.folded == 1:
            return (float(second), -float(second))
        mine, theirs = self.hand_value(0), self.hand_value(1)
        if mine == theirs:
            return (0.0, 0.0)
        return (float(second), -float(second)) if mine > theirs else (-float(first), float(first))

    def __str__(self) -> str:
        cards = " ".join(card_str(c) for c in self.hole)
        board = " ".join(card_str(c) for c in self.board) or "-"
        return f"rhode_island[{cards} | {board} | {'/'.join(self.rounds)}]"


def rhode_island(
    *,
    ante: int = 5,
    bets: tuple[int, int, int] = (10, 20, 20),
    raises: int = 3,
    ranks: int = 13,
    suits: int = 4,
) -> RhodeIslandGame:
    """Return Rhode Island Hold'em (the defaults are Gilpin and Sandholm's game).

    Example:
        >>> game = rhode_island()
        >>> state = game.initial_state().child(51).child(47)   # P1: As, P2: Ks
        >>> state.legal_actions(), state.infoset_key(), state.contributions()
        ((1, 2), 'As|', (5.0, 5.0))
    """
    game = load("rhode_island", ante=ante, bets=tuple(bets), raises=raises, ranks=ranks,
                suits=suits)
    assert isinstance(game, RhodeIslandGame)
    return game


@dataclass(frozen=True)
class RhodeIslandSize:
    """How big a Rhode Island game is, counted exactly (Python integers).

    The betting never depends on the cards, so one deal's betting tree is walked and each
    of its nodes multiplied by the ways its cards could have fallen (ordered deals: P1's
    card, P2's card, the flop, the turn).

    Attributes:
        histories: every node of the game tree: chance, decision and terminal (what
            :func:`pokerlab.tree.compile` would enumerate).
        decision_points: the histories where a player acts (the "game states" of
            Johanson 2013 and Bowling et al. 2015).
        terminals: the histories where the hand is over (a fold or a showdown).
        infosets: per player, the decision points as that player sees them (own card,
            board, betting).
        betting_decisions: per round, the decision points of the betting tree (cards aside).
    """

    histories: int
    decision_points: int
    terminals: int
    infosets: tuple[int, int]
    betting_decisions: tuple[int, int, int]

    def describe(self) -> str:
        """The counts in one line."""
        return (f"{self.histories:,} histories ({self.decision_points:,} decision points, "
                f"{self.terminals:,} terminals); infosets {self.infosets[0]:,} (P1) + "
                f"{self.infosets[1]:,} (P2)")


def _count(game: RhodeIslandGame) -> RhodeIslandSize:
    """Walk one deal's betting tree (stand-in cards) and weigh each node by its deals."""
    n = len(game.deck)

    def ordered(k: int) -> int:  # ordered deals of k cards from the deck
        return math.perm(n, k)

    histories = 1 + n  # the deal of P1's card and of P2's card
    decisions = terminals = 0
    infosets = [0, 0]
    betting = [0, 0, 0]
    start = game.initial_state()._apply(game.deck[0])._apply(game.deck[1])
    stack: list[RhodeIslandState] = [start]
    while stack:
        state = stack.pop()
        k = len(state.board)
        histories += ordered(2 + k)
        if state.to_act == TERMINAL:
            terminals += ordered(2 + k)
        elif state.to_act == CHANCE:
            stack.append(state._apply(game.deck[2 + k]))
        else:
            decisions += ordered(2 + k)
            infosets[state.to_act] += ordered(1 + k)
            betting[k] += 1
            stack.extend(state._apply(a) for a in state.legal_actions())
    return RhodeIslandSize(histories, decisions, terminals, (infosets[0], infosets[1]),
                           (betting[0], betting[1], betting[2]))

__all__ = [
    "CALL",
    "FOLD",
    "RAISE",
    "ROUNDS",
    "RhodeIslandGame",
    "RhodeIslandSize",
    "RhodeIslandState",
    "rhode_island",
]
