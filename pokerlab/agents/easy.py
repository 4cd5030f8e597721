"""The Easy AI: a Hold'em player that is easy to beat, from the AI Poker Tutorial's slides.

It judges its hand in one number and then plays a random move whose odds depend only on
that number:

1. Strength. Preflop: the sum of the two hole cards' values, 2..14 (ace high), so 4
   (a pair of 2s) to 28 (a pair of aces). After the flop: the category of the best five
   cards of hole + board, 0 (high card) to 8 (straight flush), by
   :func:`pokerlab.cards.category_of`.
2. Move distribution. Each strength has cumulative thresholds over the moves (check,
   fold, call, raise) out of 100 (tables :data:`PREFLOP_THRESHOLDS` and
   :data:`POSTFLOP_THRESHOLDS`, documented in docs/easy_ai.md).
3. Decision. Draw ``r`` uniformly in 0..100 inclusive (101 values: the slides' 35.6% for
   ``0 <= r <= 35`` is 36/101) and play the first move whose threshold is ``>= r``.

The slides give four rows: ``[35, 58, 85, 100]`` for a pair of 2s, ``[14, 19, 69, 100]``
for a pair of aces, ``[31, 46, 82, 100]`` for strength 12 and ``[30, 45, 81, 100]`` for 13.
We read "pair of 2s" and "pair of aces" as the preflop strengths 4 and 28 (the sums of
those pocket pairs): read so, the four rows order themselves (4, 12, 13, 28) with fold
odds falling and raise odds rising, which the slides' intent ("decisions loosely based on
the strength of the hand") asks for; a single postflop "pair" category could not hold
two different rows. The other preflop rows interpolate linearly between those four and
round; the postflop rows are ours, in the same spirit (see docs/easy_ai.md).

Moves become legal actions: a fold when a check is free is a check; a check when facing a
bet is a call; a raise is the smallest legal raise (no-limit: the minimum raise-to; limit:
the fixed raise), or a call when raising is not allowed.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from pokerlab._types import Action
from pokerlab.cards import category_of, evaluate_value, parse_cards, rank_of
from pokerlab.errors import SpecError
from pokerlab.games.base import Game
from pokerlab.games.holdem import CALL, FOLD, RAISE
from pokerlab.games.observation import Observation
from pokerlab.play.dealer import reseed
from pokerlab.strategy import FunctionPolicy

MOVES = ("check", "fold", "call", "raise")
"""The slides' four moves, in the order of the thresholds."""

CHECK_MOVE, FOLD_MOVE, CALL_MOVE, RAISE_MOVE = range(4)

PREFLOP_THRESHOLDS: dict[int, tuple[int, int, int, int]] = {
    4: (35, 58, 85, 100),  # a pair of 2s (slides)
    5: (35, 57, 85, 100),
    6: (34, 55, 84, 100),
    7: (34, 54, 84, 100),
    8: (33, 52, 84, 100),
    9: (33, 51, 83, 100),
    10: (32, 49, 83, 100),
    11: (32, 48, 82, 100),
    12: (31, 46, 82, 100),  # slides
    13: (30, 45, 81, 100),  # slides
    14: (29, 43, 80, 100),
    15: (28, 42, 79, 100),
    16: (27, 40, 79, 100),
    17: (26, 38, 78, 100),
    18: (25, 36, 77, 100),
    19: (24, 35, 76, 100),
    20: (23, 33, 75, 100),
    21: (21, 31, 75, 100),
    22: (20, 29, 74, 100),
    23: (19, 28, 73, 100),
    24: (18, 26, 72, 100),
    25: (17, 24, 71, 100),
    26: (16, 22, 71, 100),
    27: (15, 21, 70, 100),
    28: (14, 19, 69, 100),  # a pair of aces (slides)
}
"""Cumulative (check, fold, call, raise) thresholds by preflop strength 4..28."""

POSTFLOP_THRESHOLDS: tuple[tuple[int, int, int, int], ...] = (
    (30, 52, 85, 100),  # 0 high card
    (27, 42, 80, 100),  # 1 pair
    (23, 33, 74, 100),  # 2 two pair
    (20, 27, 68, 100),  # 3 three of a kind
    (17, 22, 62, 100),  # 4 straight
    (15, 19, 58, 100),  # 5 flush
    (11, 14, 52, 100),  # 6 full house
    (7, 9, 44, 100),  # 7 four of a kind
    (3, 4, 35, 100),  # 8 straight flush
)
"""Cumulative (check, fold, call, raise) thresholds by postflop category 0..8."""


def preflop_strength(hole: Sequence[int]) -> int:
    """The sum of the two hole cards' values, 2..14 each (4..28)."""
    return sum(rank_of(card) + 2 for card in hole)


def postflop_strength(hole: Sequence[int], board: Sequence[int]) -> int:
    """The category 0..8 (high card .. straight flush) of the best five of hole + board."""
    return int(category_of(evaluate_value((*hole, *board))))


def thresholds_for(hole: Sequence[int], board: Sequence[int]) -> tuple[int, int, int, int]:
    """The threshold row of a hand: preflop by card sum, postflop by category."""
    if not board:
        return PREFLOP_THRESHOLDS[preflop_strength(hole)]
    return POSTFLOP_THRESHOLDS[postflop_strength(hole, board)]


def pick_move(thresholds: Sequence[int], draw: int) -> int:
    """The first move (0 check, 1 fold, 2 call, 3 raise) whose threshold is ``>= draw``.

    Raises:
        ValueError: if ``draw`` is outside 0..100.
    """
    if not 0 <= draw <= 100:
        raise ValueError(f"the draw must be in 0..100; got {draw}")
    for move, threshold in enumerate(thresholds):
        if draw <= threshold:
            return move
    raise ValueError(f"thresholds {tuple(thresholds)} must end with 100")


def move_to_action(move: int, legal: Sequence[Action]) -> Action:
    """Map a move onto Hold'em's legal actions (see the module docstring)."""
    facing = FOLD in legal
    if move == FOLD_MOVE and facing:
        return FOLD
    if move == RAISE_MOVE:
        raises = [a for a in legal if a >= RAISE]
        if raises:
            return min(raises)
    return CALL  # check, call, a free "fold", or a raise that is not allowed


class EasyAI:
    """The Easy AI of the tutorial's slides, for Hold'em (limit or no-limit, any seat).

    Args:
        game: the Hold'em game, when known: the AI then exposes its ``policy`` (the
            probabilities its draw gives each legal action), for evaluators.
        seed: its randomness (a generator, a seed, or None); matches reseed it per hand.

    Raises:
        SpecError: if ``game`` is not a Hold'em game.
    """

    name = "easy"

    def __init__(
        self, game: Game | None = None, *, seed: np.random.Generator | int | None = None
    ) -> None:
        if game is not None and game.spec.name != "holdem":
            raise SpecError(f"EasyAI plays holdem only; got {game.spec}")
        self.rng = np.random.default_rng(seed)
        self.policy: FunctionPolicy | None = (
            None if game is None else FunctionPolicy(game, self.probabilities, name="easy")
        )
        self.last_strength: int | None = None
        self.last_move: str | None = None

    def seed(self, value: int) -> None:
        """Restart the generator from ``value`` (called by matches before each hand)."""
        self.rng = reseed(self.rng, value)

    def check_game(self, game: Game) -> None:
        """Refuse, before a match, a game that is not Hold'em.

        Raises:
            SpecError: for games other than Hold'em.
        """
        if game.spec.name != "holdem":
            raise SpecError(f"EasyAI plays holdem only; it cannot play {game.spec}")

    def probabilities(self, observation: Observation) -> dict[Action, float]:
        """The probability of each legal action: the share of the 101 draws that pick it."""
        hole = parse_cards(observation.private_cards)
        row = thresholds_for(hole, parse_cards(observation.board))
        probs = dict.fromkeys(observation.legal_actions, 0.0)
        previous = -1
        for move, threshold in enumerate(row):
            action = move_to_action(move, observation.legal_actions)
            probs[action] += (threshold - previous) / 101
            previous = threshold
        return probs

    def draw(self) -> int:
        """One draw ``r`` uniformly in 0..100 inclusive."""
        return int(self.rng.integers(0, 101))

    def act(self, observation: Observation) -> Action:
        """Choose a move by the strength of the hand, then the matching legal action.

        Raises:
            SpecError: if the observation is not of a Hold'em game.
        """
        if not observation.game.startswith("holdem"):
            raise SpecError(f"EasyAI plays holdem only; got {observation.game}")
        hole = parse_cards(observation.private_cards)
        board = parse_cards(observation.board)
        if board:
            self.last_strength = postflop_strength(hole, board)
            row = POSTFLOP_THRESHOLDS[self.last_strength]
        else:
            self.last_strength = preflop_strength(hole)
            row = PREFLOP_THRESHOLDS[self.last_strength]
        move = pick_move(row, self.draw())
        self.last_move = MOVES[move]
        return move_to_action(move, observation.legal_actions)


__all__ = [
    "MOVES",
    "POSTFLOP_THRESHOLDS",
    "PREFLOP_THRESHOLDS",
    "EasyAI",
    "move_to_action",
    "pick_move",
    "postflop_strength",
    "preflop_strength",
    "thresholds_for",
]
