"""Game and State: the rules interface every game implements and every algorithm reads.

The interface is close to OpenSpiel's, with immutable states: ``state.child(action)``
returns a new state. A state is either a chance node (``player == CHANCE``), a decision
node of player ``0..n_players-1``, or terminal (``player == TERMINAL``).
"""

from __future__ import annotations

import operator
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Sequence
from functools import cached_property

from pokerlab._types import CHANCE, TERMINAL, Action, Player
from pokerlab.errors import IllegalActionError, PokerlabError
from pokerlab.games.observation import Observation
from pokerlab.games.spec import GameSpec


class Game(ABC):
    """The rules of one game, built from a :class:`GameSpec`.

    Two games are equal when their specs are equal.
    """

    spec: GameSpec
    n_players: int

    @abstractmethod
    def initial_state(self) -> State:
        """Return the state before anything has happened (usually a chance node)."""

    @property
    @abstractmethod
    def max_actions(self) -> int:
        """The number of distinct player action ids (actions are ``0..max_actions-1``)."""

    @abstractmethod
    def action_name(self, action: Action) -> str:
        """Return the name of player action ``action`` (``"pass"``, ``"raise"``...)."""

    @property
    def is_zero_sum(self) -> bool:
        """True when the returns of every terminal state sum to zero."""
        return True

    def describe(self) -> str:
        """One line of rules, for ``pokerlab games list``."""
        return str(self.spec)

    @cached_property
    def spec_text(self) -> str:
        """``str(self.spec)``, kept (every observation carries it)."""
        return str(self.spec)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.spec == other.spec

    def __hash__(self) -> int:
        return hash(self.spec)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec}>"


def count_subtree(
    root: State,
    key: Callable[[State], Hashable],
    children: Callable[[State], Sequence[tuple[State, int]]],
) -> int:
    """The number of histories under ``root`` (itself included), without recursion.

    Subtrees whose roots share a ``key`` have the same size and are counted once, so
    games whose betting repeats (Kuhn with many players, deep-stacked Leduc) are counted
    in time proportional to their distinct betting situations, not to their histories.
    ``children(state)`` lists ``(child, multiplicity)``: a chance node may give one
    representative child standing for several outcomes of the same size.
    """
    sizes: dict[Hashable, int] = {}
    stack: list[tuple[State, bool]] = [(root, False)]
    while stack:
        state, expanded = stack.pop()
        name = key(state)
        if name in sizes:
            continue
        below = [] if state.player == TERMINAL else list(children(state))
        if expanded or not below:
            sizes[name] = 1 + sum(count * sizes[key(child)] for child, count in below)
            continue
        stack.append((state, True))
        stack.extend((child, False) for child, _ in below if key(child) not in sizes)
    return sizes[key(root)]


class State(ABC):
    """One history of a game: who moves, what is legal, and what each player knows."""

    __slots__ = ()

    @property
    @abstractmethod
    def game(self) -> Game:
        """The game this state belongs to."""

    @property
    @abstractmethod
    def player(self) -> Player:
        """The player to move: ``0..n-1``, ``CHANCE`` or ``TERMINAL``."""

    @property
    @abstractmethod
    def history(self) -> tuple[Action, ...]:
        """Every action taken so far, chance outcomes included."""

    @abstractmethod
    def legal_actions(self) -> tuple[Action, ...]:
        """The legal actions (chance outcomes at a chance node), in increasing order."""

    @abstractmethod
    def _apply(self, action: Action) -> State:
        """Return the child after ``action``, which the caller has checked is legal."""

    @abstractmethod
    def chance_outcomes(self) -> tuple[tuple[Action, float], ...]:
        """The ``(outcome, probability)`` pairs of a chance node; probabilities sum to 1."""

    @abstractmethod
    def infoset_key(self, player: Player | None = None) -> str:
        """What ``player`` (default: the player to move) knows here, as a readable string."""

    @abstractmethod
    def _terminal_returns(self) -> tuple[float, ...]:
        """The chips won by each player at a terminal state."""

    @abstractmethod
    def action_name(self, action: Action) -> str:
        """The name of ``action`` in this context (``"check"`` or ``"fold"`` for a pass)."""

    @property
    def is_terminal(self) -> bool:
        """True when the hand is over."""
        return self.player == TERMINAL

    @property
    def is_chance(self) -> bool:
        """True when chance (the dealer) moves next."""
        return self.player == CHANCE

    def is_legal(self, action: Action) -> bool:
        """True when ``action`` may be taken here."""
        return action in self.legal_actions()

    def child(self, action: Action) -> State:
        """Return the state after ``action``.

        Raises:
            IllegalActionError: if ``action`` is not legal here; the message lists the legal ones.
        """
        legal = self.legal_actions()
        try:
            is_int = operator.index(action) == action  # ints and numpy ints, not 2.0 or "2"
        except TypeError:
            is_int = False
        if not is_int or action not in legal:
            if self.is_terminal:
                raise IllegalActionError(f"no action is legal: the hand is over ({self})")
            names = ", ".join(f"{self.action_name(a)} ({a})" for a in legal)
            shown = self.action_name(action) if self._nameable(action) else str(action)
            raise IllegalActionError(f"{shown!r} is not legal here; legal: {names}")
        return self._apply(action)

    def _nameable(self, action: Action) -> bool:
        # Negative ids would be named by Python's negative indexing ("-1" as the last card).
        if not isinstance(action, int) or action < 0:
            return False
        try:
            self.action_name(action)
        except (PokerlabError, IndexError, KeyError, ValueError, TypeError):
            return False
        return True

    def children(self) -> list[tuple[Action, State]]:
        """Every legal action with the state it leads to."""
        return [(a, self._apply(a)) for a in self.legal_actions()]

    def returns(self) -> tuple[float, ...]:
        """The chips each player wins (negative: loses) in this finished hand.

        Raises:
            PokerlabError: if the hand is not over.
        """
        if not self.is_terminal:
            raise PokerlabError("returns() needs a finished hand; this state is not terminal")
        return self._terminal_returns()

    def public_event(self, action: Action, child: State) -> tuple[Player, str] | None:
        """The public event of taking ``action`` here, which led to ``child``, if any.

        ``(player, name)`` for a player's action; ``(-1, name)`` for a public chance event
        (a board card: ``"board Q"``); None for a private one (a card dealt to a player).
        The default treats every player action as public and every chance event as
        private; games with public chance events override it. The dealer builds each
        seat's public history from these events as the hand goes, in O(1) per event.
        """
        if self.player >= 0:
            return (self.player, self.action_name(action))
        return None

    def public_history(self) -> tuple[tuple[Player, str], ...]:
        """Public events so far as ``(player, name)``; -1 for public chance events.

        Rebuilt by replaying the history with :meth:`public_event` (O(length)); the dealer
        keeps it as it goes instead.
        """
        events: list[tuple[Player, str]] = []
        state: State = self.game.initial_state()
        for action in self.history:
            child = state._apply(action)
            event = state.public_event(action, child)
            if event is not None:
                events.append(event)
            state = child
        return tuple(events)

    def private_cards(self, player: Player) -> str:
        """``player``'s own cards, readable (empty in games without cards)."""
        return ""

    def board_cards(self) -> str:
        """The public cards, readable (empty in games without a board)."""
        return ""

    def contributions(self) -> tuple[float, ...]:
        """Chips each player has put in so far (zeros in games without chips)."""
        return (0.0,) * self.game.n_players

    def stacks(self) -> tuple[float, ...] | None:
        """Chips each player has left behind, or None when stacks are unlimited."""
        return None

    def observation(
        self,
        player: Player | None = None,
        *,
        public_history: tuple[tuple[Player, str], ...] | None = None,
    ) -> Observation:
        """What ``player`` (default: the player to move) sees here.

        ``public_history`` is this state's :meth:`public_history` when the caller keeps it
        already (the dealer does), which saves replaying the hand.
        """
        if player is None:
            player = self.player
        acting = player == self.player and player >= 0
        legal = self.legal_actions() if acting else ()
        return Observation(
            game=self.game.spec_text,
            seat=player,
            infoset_key=self.infoset_key(player),
            legal_actions=legal,
            action_names=tuple(self.action_name(a) for a in legal),
            public_history=self.public_history() if public_history is None else public_history,
            private_cards=self.private_cards(player),
            board=self.board_cards(),
            committed=self.contributions(),
            stacks=self.stacks(),
        )

    def apply_sequence(self, actions: Sequence[Action]) -> State:
        """Return the state after taking ``actions`` one after the other, each checked."""
        state: State = self
        for action in actions:
            state = state.child(action)
        return state
