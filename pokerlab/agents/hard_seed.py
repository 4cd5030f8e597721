"""The seed's Hard AI: online regret matching per hand-strength class, from the tutorial's slides.

The slides ("Our Hard AI") keep, for each hand-strength class, a strategy table and a
regret table over the four moves (fold, raise, check, call), initialised to 1/4 and 0.
At each decision the AI draws a move from its class's strategy table. Once the
opponents have answered that move (the *window*: their actions until its next decision,
the end of the betting round or the end of the hand), it estimates the utility of every
move as the net change in its *win likelihood* had it played that move and everything
else stayed the same, adds the positive regrets ``max(0, u(move) - u(taken))`` to the
class's regret table and renormalises the strategy table to the positive regrets
(uniform while they are all zero). The tables live across hands: ``reset`` starts a hand,
not a new bot.

The win likelihood starts each hand at ``1 / players``, is carried from round to round,
and moves with each opponent action, our own move, the round and our hand strength; the
rules and their numbers (the slides' and ours where the slides stop short) are in
:func:`likelihood_after` and docs/hard_ai.md. Utilities are in points: 100 x the change
in likelihood (the slides' examples read 50, 20, 100, 30).

Hand-strength classes: the category 0..8 (high card .. straight flush) of the best hand
of the hole cards and the board; preflop, the two hole cards alone (0 high card, 1 a
pocket pair), as the slides' example files A-Q preflop under "High Card".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from pokerlab._types import Action, FloatArray
from pokerlab.cards import category_of, evaluate_value, parse_cards, rank_of
from pokerlab.errors import SpecError
from pokerlab.games.base import Game
from pokerlab.games.holdem import CALL, FOLD, RAISE
from pokerlab.games.observation import HandResult, Observation
from pokerlab.play.dealer import reseed
from pokerlab.strategy import FunctionPolicy
from pokerlab.strategy.regrets import regret_matching_strategy

MOVES = ("fold", "raise", "check", "call")
"""The slides' four moves, in the order of their tables."""

FOLD_MOVE, RAISE_MOVE, CHECK_MOVE, CALL_MOVE = range(4)
N_CLASSES = 9
"""Hand-strength classes: the categories high card (0) .. straight flush (8)."""

RAISED_THEN_RAISED = 0.10
"""Slides: we raised and an opponent raised after: the likelihood falls by 10%."""
CALLED_THEN_RAISED = 0.07
"""Slides: we called and an opponent raised after: the likelihood falls by 7%."""
CHECKED_THEN_RAISED = 0.04
"""Ours: we checked and an opponent bet after (a weaker sign than a re-raise)."""
STRONG_FACING_RAISE = 0.08
"""Slides' code: an opponent raise costs a hand of strength in (4, 8] 0.08."""
WEAK_FACING_RAISE = 0.45
"""Slides' code: an opponent raise costs a weaker hand ``0.45 / strength``."""
REPEATED_RAISE = 0.05
"""Ours: each further opponent raise in the same window costs another 0.05."""
CHECK_GAIN = 0.01
"""Ours: an opponent check adds 0.01 per round number (1 preflop .. 4 river)."""
CALL_SWING = 0.01
"""Ours: an opponent call adds (strong hand) or takes (weak hand) 0.01 per round number."""
OWN_RAISE = 0.05
"""Ours: raising a strong hand adds 0.05 (value, folds), raising a weak one takes 0.05."""
POINTS = 100.0
"""Utilities are 100 x the change of likelihood."""


def strength_class(hole: Sequence[int], board: Sequence[int]) -> int:
    """The hand-strength class 0..8: the category of the best hand of hole + board.

    Preflop (no board) it is 1 for a pocket pair, else 0 (high card).
    """
    if not board:
        return int(rank_of(hole[0]) == rank_of(hole[1]))
    return int(category_of(evaluate_value((*hole, *board))))


def is_strong(strength: int, street: int) -> bool:
    """Ours: a pair preflop, two pair or better after the flop."""
    return strength >= (1 if street == 0 else 2)


def raise_cost(strength: int) -> float:
    """What an opponent raise costs our likelihood for our hand strength (the slides' code).

    Strength in (4, 8]: 0.08; strength 1..4: ``0.45 / strength``; a high card (0, where the
    slides' formula would divide by zero) counts as 1: 0.45.
    """
    if 4 < strength <= 8:
        return STRONG_FACING_RAISE
    return WEAK_FACING_RAISE / max(strength, 1)


def _shift(likelihood: float, delta: float) -> float:
    """Apply ``delta``, keeping the likelihood in [0, 1] (the slides' code guards below 0)."""
    return min(max(likelihood + delta, 0.0), 1.0)


@dataclass(frozen=True)
class OpponentEvent:
    """One opponent action, as the likelihood rules read it.

    Attributes:
        kind: ``"fold"``, ``"check"``, ``"call"`` or ``"raise"`` (bets and all-ins too).
        opponents_in: opponents still in the hand just before the action.
    """

    kind: str
    opponents_in: int


def event_kind(name: str) -> str:
    """Read a public action name (``"raise to 6"``, ``"bet 2"``, ``"check"``) as a kind."""
    first = name.split(" ", 1)[0]
    if first in ("fold", "check", "call"):
        return first
    return "raise"


def apply_event(
    likelihood: float, event: OpponentEvent, move: int | None, strength: int, street: int,
    raises_before: int,
) -> float:
    """The likelihood after one opponent action that followed our ``move`` (None: no move).

    The rules (docs/hard_ai.md): a fold always raises it, by ``(1 - L) / opponents_in``
    (heads-up a fold wins); a raise lowers it by the cost of our own move before it (raise
    10%, call 7%, check 4%), by :func:`raise_cost` of our strength and, for each earlier
    raise in the window, by 0.05; a check raises it by 0.01 per round number; a call moves
    it by 0.01 per round number, up for a strong hand and down for a weak one.
    """
    rounds = street + 1
    if event.kind == "fold":
        return _shift(likelihood, (1.0 - likelihood) / max(event.opponents_in, 1))
    if event.kind == "check":
        return _shift(likelihood, CHECK_GAIN * rounds)
    if event.kind == "call":
        sign = 1.0 if is_strong(strength, street) else -1.0
        return _shift(likelihood, sign * CALL_SWING * rounds)
    after = {RAISE_MOVE: RAISED_THEN_RAISED, CALL_MOVE: CALLED_THEN_RAISED,
             CHECK_MOVE: CHECKED_THEN_RAISED}.get(move if move is not None else -1, 0.0)
    likelihood = _shift(likelihood, -after)
    likelihood = _shift(likelihood, -raise_cost(strength))
    return _shift(likelihood, -REPEATED_RAISE * raises_before)


def likelihood_after(
    likelihood: float, move: int, events: Sequence[OpponentEvent], strength: int, street: int
) -> float:
    """Our win likelihood after playing ``move`` and then seeing ``events`` (the window).

    Folding ends our hand: its likelihood is not tracked (its utility is the slides'
    baseline 0). A raise first moves the likelihood by ±0.05 (strong or weak hand).
    """
    if move == RAISE_MOVE:
        likelihood = _shift(likelihood, OWN_RAISE if is_strong(strength, street) else -OWN_RAISE)
    raises = 0
    for event in events:
        likelihood = apply_event(likelihood, event, move, strength, street, raises)
        raises += event.kind == "raise"
    return likelihood


def move_utilities(
    likelihood: float, events: Sequence[OpponentEvent], strength: int, street: int
) -> FloatArray:
    """The utility (points) of each move (fold, raise, check, call) over one window."""
    utilities = np.zeros(len(MOVES))
    for move in (RAISE_MOVE, CHECK_MOVE, CALL_MOVE):
        after = likelihood_after(likelihood, move, events, strength, street)
        utilities[move] = POINTS * (after - likelihood)
    return utilities


def move_to_action(move: int, observation: Observation) -> Action:
    """A move as a legal action of Hold'em.

    A fold when checking is free is a check; a check facing a bet is a call; a raise is
    the fixed raise (limit) or a raise of half the pot over the bet faced (no-limit), at
    least the smallest legal raise and at most all-in; a raise that is not allowed is a call.
    """
    legal = observation.legal_actions
    if move == FOLD_MOVE and FOLD in legal:
        return FOLD
    if move == RAISE_MOVE:
        raises = [a for a in legal if a >= RAISE]
        if raises:
            if len(raises) == 1:
                return raises[0]
            target = RAISE + int(bet_faced(observation) + observation.pot / 2)
            return min(max(target, min(raises)), max(raises))
    return CALL


def bet_faced(observation: Observation) -> int:
    """The bet to match on this street, in the street's chips (no-limit's "raise to X" unit).

    Preflop it is the largest commitment (blinds included); later, the last ``bet X`` or
    ``raise to X`` since the street's cards, or 0.
    """
    history = observation.public_history
    if not observation.board:
        return int(max(observation.committed))
    for player, name in reversed(history):
        if player < 0:
            return 0
        amount = name.rsplit(" ", 1)[-1]
        if name.startswith(("bet ", "raise to ")) and amount.isdigit():
            return int(amount)
    return 0


def taken_move(action: Action, observation: Observation) -> int:
    """The move an action stands for: a free call is a check."""
    if action == FOLD:
        return FOLD_MOVE
    if action >= RAISE:
        return RAISE_MOVE
    return CALL_MOVE if FOLD in observation.legal_actions else CHECK_MOVE


@dataclass
class _Pending:
    """A decision waiting for its window to close."""

    strength: int
    street: int
    move: int
    likelihood: float
    events: list[OpponentEvent]


class HardSeedAI:
    """The slides' Hard AI for Hold'em (2 to 9 players, limit or no-limit), learning online.

    Args:
        game: the Hold'em game, when known: the AI then exposes its current ``policy``.
        seed: its randomness (a generator, a seed, or None); matches reseed it per hand.

    Attributes:
        strategy: ``(9, 4)`` strategy tables, one row per class, columns fold/raise/check/call.
        regrets: ``(9, 4)`` cumulative positive regrets, same layout.
        likelihood: the current hand's win likelihood (None before its first observation).
        updates: decisions whose utilities have been measured and learned from.

    Raises:
        SpecError: if ``game`` is not a Hold'em game.
    """

    name = "hard-seed"

    def __init__(
        self, game: Game | None = None, *, seed: np.random.Generator | int | None = None
    ) -> None:
        if game is not None:
            self.check_game(game)
        self.rng = np.random.default_rng(seed)
        self.strategy = np.full((N_CLASSES, len(MOVES)), 1.0 / len(MOVES))
        self.regrets = np.zeros((N_CLASSES, len(MOVES)))
        self.policy: FunctionPolicy | None = (
            None if game is None else FunctionPolicy(game, self.probabilities, name="hard-seed")
        )
        self.likelihood: float | None = None
        self.updates = 0
        self._pending: _Pending | None = None
        self._cursor = 0
        self._street = 0
        self._in_hand: set[int] = set()
        self._seat = -1
        self._strength = 0

    # -- the dealer's hooks -------------------------------------------------------------

    def seed(self, value: int) -> None:
        """Restart the generator from ``value`` (called by matches before each hand)."""
        self.rng = reseed(self.rng, value)

    def check_game(self, game: Game) -> None:
        """Refuse, before a match, a game that is not Hold'em.

        Raises:
            SpecError: for games other than Hold'em.
        """
        if game.spec.name != "holdem":
            raise SpecError(
                f"the Hard AI (hard-seed) plays holdem only; it cannot play {game.spec}")

    def reset(self) -> None:
        """Start a hand (the tables are kept: the AI learns across the hands of a match)."""
        self.likelihood = None
        self._pending = None
        self._cursor = 0
        self._street = 0
        self._in_hand = set()

    def observe(self, update: Observation | HandResult) -> None:
        """Follow the public actions; at the end of the hand close the last window."""
        self._start(update)
        self._follow(update.public_history)
        if isinstance(update, HandResult):
            self._settle()

    def act(self, observation: Observation) -> Action:
        """Close the open window, then draw a move from the class's table and play it.

        Raises:
            SpecError: if the observation is not of a Hold'em game.
        """
        if not observation.game.startswith("holdem"):
            raise SpecError(f"the Hard AI plays holdem only; got {observation.game}")
        self._start(observation)
        self._follow(observation.public_history)
        self._settle()
        strength = self.strength_of(observation)
        move = int(self.rng.choice(len(MOVES), p=self.strategy[strength]))
        action = move_to_action(move, observation)
        assert self.likelihood is not None
        self._pending = _Pending(strength, self._street, taken_move(action, observation),
                                 self.likelihood, [])
        return action

    # -- policy -----------------------------------------------------------------------

    @staticmethod
    def strength_of(observation: Observation) -> int:
        """The hand-strength class of the observer's hand."""
        return strength_class(parse_cards(observation.private_cards),
                              parse_cards(observation.board))

    def probabilities(self, observation: Observation) -> dict[Action, float]:
        """The current probability of each legal action (the class's table, moves mapped)."""
        row = self.strategy[self.strength_of(observation)]
        probs = dict.fromkeys(observation.legal_actions, 0.0)
        for move, p in enumerate(row):
            probs[move_to_action(move, observation)] += float(p)
        return probs

    # -- learning ---------------------------------------------------------------------

    def update(self, strength: int, utilities: FloatArray, taken: int) -> None:
        """Add the positive regrets of one decision and renormalise the class's strategy."""
        self.regrets[strength] += np.maximum(utilities - utilities[taken], 0.0)
        self.strategy[strength] = regret_matching_strategy(self.regrets[strength])
        self.updates += 1

    def _start(self, update: Observation | HandResult) -> None:
        if isinstance(update, Observation) and update.private_cards:
            self._strength = self.strength_of(update)
        if self.likelihood is None:
            players = len(update.returns) if isinstance(update, HandResult) else len(
                update.committed)
            self.likelihood = 1.0 / players
            self._seat = update.seat
            self._in_hand = set(range(players))

    def _follow(self, history: Sequence[tuple[int, str]]) -> None:
        """Read the public events not read yet: windows, streets, the likelihood."""
        assert self.likelihood is not None
        for player, name in history[self._cursor:]:
            if player < 0:
                self._settle()
                self._street += 1
                continue
            kind = event_kind(name)
            if player != self._seat:
                event = OpponentEvent(kind, len(self._in_hand - {self._seat}))
                if self._pending is not None:
                    self._pending.events.append(event)
                else:
                    self.likelihood = apply_event(
                        self.likelihood, event, None, self._strength, self._street, 0)
            if kind == "fold":
                self._in_hand.discard(player)
        self._cursor = len(history)

    def _settle(self) -> None:
        """Close the open window: utilities, regrets, strategy, and the carried likelihood."""
        pending = self._pending
        if pending is None:
            return
        self._pending = None
        utilities = move_utilities(pending.likelihood, pending.events, pending.strength,
                                   pending.street)
        self.update(pending.strength, utilities, pending.move)
        if pending.move != FOLD_MOVE:
            self.likelihood = pending.likelihood + utilities[pending.move] / POINTS


__all__ = [
    "MOVES",
    "HardSeedAI",
    "OpponentEvent",
    "apply_event",
    "bet_faced",
    "event_kind",
    "likelihood_after",
    "move_to_action",
    "move_utilities",
    "raise_cost",
    "strength_class",
]
