"""The table: one hand at a time, stepped by discrete actions; the engine of both environments.

:class:`PokerTable` needs neither PettingZoo nor Gymnasium: it deals, applies the discrete
actions of :mod:`.actions`, encodes observations with :mod:`.encoding` and renders text.
Cards come from a ``numpy.random.Generator`` only: each hand deals from a shuffled deck,
each chance node the next card. Every game an environment plays deals uniformly from the
cards not yet dealt, so this is the distribution of ``chance_outcomes()``. The decks of
:data:`DECKS_AT_ONCE` hands are shuffled by one generator call (``rng.permuted``, a row per
hand), which costs less than a tenth of shuffling each alone; :meth:`PokerTable.deal`
given a generator other than the last one's (a reseeded environment) starts a new batch,
so a seed always gives the same hands.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from pokerlab._types import CHANCE, TERMINAL, Action, Player
from pokerlab.envs.actions import ActionMap, action_map
from pokerlab.envs.encoding import ObservationEncoder, observation_encoder
from pokerlab.errors import PokerlabError
from pokerlab.games import Game, HoldemGame, State, load
from pokerlab.games.bet_sizes import BetMenu

DECKS_AT_ONCE = 256
"""Hands whose decks one generator call shuffles."""
MASKS_KEPT = 4096
"""Distinct masks a table keeps (no-limit masks vary with the stacks; Kuhn has two)."""
STATES_KEPT = 100_000
"""Kuhn and Leduc states a table keeps by history (standard Leduc has 9,457 histories)."""


def game_of(game: Game | str) -> Game:
    """``game`` itself, or the game a spec string names (``"leduc(stack=50, raise_cap=None)"``).

    Raises:
        SpecError: a spec string that does not name a game.
    """
    return load(game) if isinstance(game, str) else game


class PokerTable:
    """Plays hands of one game: deal, step by discrete action, observe, settle.

    Args:
        game: the game (or its spec string).
        bet_sizes: no-limit Hold'em only: the bet menu (see :mod:`.actions`).
        force_all_in_threshold: no-limit Hold'em only: the menu's force-all-in threshold.
        history_length: Hold'em only: action slots per round in the observation.
        track_public: keep each seat's public history as the hand goes (needed to build
            :class:`~pokerlab.games.Observation` objects for agents; costs a little per step).

    Raises:
        SpecError: a game the environments do not play, or a bad option.
    """

    def __init__(
        self,
        game: Game | str,
        *,
        bet_sizes: str | BetMenu | None = None,
        force_all_in_threshold: float | None = None,
        history_length: int | None = None,
        track_public: bool = False,
    ) -> None:
        self.game = game_of(game)
        self.encoder: ObservationEncoder = observation_encoder(
            self.game, history_length=history_length
        )
        self.actions: ActionMap = action_map(
            self.game, bet_sizes=bet_sizes, force_all_in_threshold=force_all_in_threshold
        )
        self.n_players = self.game.n_players
        self.track_public = track_public
        self.public_history: list[tuple[Player, str]] = []
        self._initial: State = self.game.initial_state()  # states are immutable: kept
        self.state: State = self._initial
        if self.state.player != CHANCE:  # every game the encoders know starts with the deal
            raise PokerlabError(f"{self.game.spec} starts with a decision, not a deal")
        self._deck = np.array(self.state.legal_actions())
        self._decks = np.empty((0, len(self._deck)), dtype=self._deck.dtype)
        self._decks_used = 0
        self._decks_rng: np.random.Generator | None = None
        self._cards: list[Action] = []
        self._masks: dict[tuple[Action | None, ...], NDArray[np.int8]] = {}
        self._no_mask = np.zeros(self.actions.n_actions, dtype=np.int8)
        self._next_card = 0
        self._slots_state: State | None = None
        self._slots: tuple[Action | None, ...] = ()
        # Kuhn and Leduc build a state object per action, and their hands repeat: the
        # states met are kept by history (a dictionary look-up is cheaper than building
        # one). Hold'em keeps its betting nodes itself, and its deals hardly repeat.
        self._states: dict[tuple[Action, ...], State] | None = (
            None if isinstance(self.game, HoldemGame) else {}
        )
        self._history: tuple[Action, ...] = ()
        self.hands = 0

    # -- the hand -----------------------------------------------------------------------------

    def deal(self, rng: np.random.Generator) -> None:
        """Start a new hand with a deck shuffled by ``rng``; deal up to the first decision."""
        if rng is not self._decks_rng or self._decks_used == len(self._decks):
            self.restart_decks(rng)
        self._cards = self._decks[self._decks_used].tolist()
        self._decks_used += 1
        self._next_card = 0
        self.public_history = []
        self.state = self._initial
        self._history = ()
        self._slots_state = None
        self.hands += 1
        self._advance()

    def restart_decks(self, rng: np.random.Generator) -> None:
        """Shuffle the next :data:`DECKS_AT_ONCE` decks with ``rng`` (call after reseeding)."""
        self._decks = rng.permuted(np.tile(self._deck, (DECKS_AT_ONCE, 1)), axis=1)
        self._decks_used = 0
        self._decks_rng = rng

    def _advance(self) -> None:
        track = self.track_public
        while self.state.player == CHANCE:
            card = self._cards[self._next_card]
            self._next_card += 1
            state = self.state
            child = self._child(card)  # an undealt card: legal
            if track:
                event = state.public_event(card, child)
                if event is not None:
                    self.public_history.append(event)
            self.state = child

    def _child(self, action: Action, child: State | None = None) -> State:
        """The state after legal ``action`` (``child`` when known), kept where it pays."""
        states = self._states
        if states is None:
            return self.state._apply(action) if child is None else child
        key = self._history + (action,)  # noqa: RUF005 - faster than unpacking
        self._history = key
        known = states.get(key)
        if known is not None:
            return known
        if child is None:
            child = self.state._apply(action)
        if len(states) < STATES_KEPT:
            states[key] = child
        return child

    @property
    def player(self) -> Player:
        """The player to act, or TERMINAL once the hand is over."""
        return self.state.player

    @property
    def is_over(self) -> bool:
        """True when the hand is over."""
        return self.state.player == TERMINAL

    def slots(self) -> tuple[Action | None, ...]:
        """The game action of each discrete index now (None where masked)."""
        if self._slots_state is not self.state:
            self._slots = self.actions.slots(self.state)
            self._slots_state = self.state
        return self._slots

    def mask(self, player: Player) -> NDArray[np.int8]:
        """1 for each legal index of ``player`` now; all 0 unless ``player`` is to act."""
        if player != self.state.player:
            return self._no_mask.copy()
        slots = self.slots()
        mask = self._masks.get(slots)
        if mask is None:
            mask = np.array([a is not None for a in slots], dtype=np.int8)
            if len(self._masks) < MASKS_KEPT:
                self._masks[slots] = mask
        return mask.copy()

    def observation(self, player: Player) -> NDArray[np.float32]:
        """The observation vector of ``player`` now (see :mod:`.encoding`)."""
        return self.encoder.encode(self.state, player)

    def step(self, index: object) -> Action:
        """Play discrete action ``index`` for the player to act; deal on to the next decision.

        Returns:
            The game action played.

        Raises:
            IllegalActionError: ``index`` is masked or not an index (lists the legal ones),
                or the hand is over.
        """
        state = self.state
        if state.player < 0:
            raise PokerlabError("the hand is over; deal a new one (reset) before stepping")
        slots = self.slots()
        if type(index) is int and 0 <= index < len(slots):  # the common case, unchecked
            action = slots[index]
            if action is None:
                action = self.actions.game_action(state, index)  # raises, naming the legal
        else:
            action = self.actions.game_action(state, index)
        self._apply(action)
        return action

    def play(self, action: Action) -> None:
        """Play game action ``action`` (checked) for the player to act; deal on.

        Raises:
            IllegalActionError: if ``action`` is not legal (lists the legal ones).
        """
        state = self.state
        if state.player < 0:
            raise PokerlabError("the hand is over; deal a new one (reset) before playing")
        self._apply(action, state.child(action))  # child() checks it, naming the legal ones

    def _apply(self, action: Action, child: State | None = None) -> None:
        """Play ``action`` (legal) and deal on; ``child`` is the state it leads to, if known."""
        state = self.state
        child = self._child(action, child)
        if self.track_public:
            event = state.public_event(action, child)
            if event is not None:
                self.public_history.append(event)
        self.state = child
        if child.player == CHANCE:
            self._advance()

    def returns(self) -> tuple[float, ...]:
        """Chips won by each player in the finished hand.

        Raises:
            PokerlabError: if the hand is not over.
        """
        return self.state.returns()

    # -- rendering ------------------------------------------------------------------------------

    def render(self, names: tuple[str, ...] | None = None) -> str:
        """The table as text: the board, each seat's cards and chips, the betting so far.

        Every seat's cards are shown (a spectator's view, for debugging and watching
        self-play); what each player may see is its observation.
        """
        state = self.state
        n = self.n_players
        names = names or tuple(f"player_{p}" for p in range(n))
        history = state.public_history()
        folded = {p for p, event in history if event == "fold"}
        committed = state.contributions()
        stacks = state.stacks()
        lines = [f"{self.game.spec}, hand {self.hands}"]
        board = state.board_cards()
        if board or self.encoder.block("board").size:
            lines.append(f"board: {board or '-'}")
        width = max(len(name) for name in names)
        for p in range(n):
            line = f"{names[p]:<{width}}  {state.private_cards(p) or '-':<8} in {committed[p]:g}"
            if stacks is not None:
                line += f", behind {stacks[p]:g}"
            if p in folded:
                line += ", folded"
            if p == state.player:
                legal = ", ".join(
                    f"{i}={state.action_name(a)}" for i, a in enumerate(self.slots())
                    if a is not None
                )
                line += f"   <- to act: {legal}"
            lines.append(line)
        events = " ".join(
            (f"[{name}]" if p < 0 else f"{names[p]}:{name.replace(' ', '_')}")
            for p, name in history
        )
        lines.append(f"betting: {events or '-'}")
        if state.player == TERMINAL:
            returns = state.returns()
            lines.append("returns: " + ", ".join(
                f"{names[p]} {returns[p]:+g}" for p in range(n)
            ))
        return "\n".join(lines)


__all__ = ["PokerTable", "game_of"]
