"""A 1999-style rule bot for Hold'em driven by effective hand strength (Billings et al.).

Loki (Billings, Papp, Schaeffer and Szafron, 1998-1999) judged a hand by its *effective
hand strength* ``EHS = HS_n * (1 - NPOT) + (1 - HS_n) * PPOT``:

- ``HS``: the chance that the hand is best now against one random opposing hand (ties
  count half), enumerated over every opposing pair of the unseen cards; against ``n``
  opponents ``HS_n = HS ** n``;
- ``PPOT`` (positive potential): among the deals where we are behind (ties half), the
  chance that the next board card puts us ahead; ``NPOT`` (negative potential): among the
  deals where we are ahead (ties half), the chance that it puts us behind. Both are
  enumerated over every opposing pair and every next card (Billings' one-card lookahead,
  on the flop and on the turn); on the river there is no card to come: both are 0.

Preflop, ``HS`` is the hand's equity against one random hand to the river, estimated
from :data:`PREFLOP_SAMPLES` deals drawn with a generator seeded by the hole cards (the
same hand always gets the same figure), and the potentials are 0. Loki played preflop
from income-rate tables we do not reproduce: our preflop thresholds are 0.65 (raise) and
0.45 (call) on ``HS_n``.

Betting (Loki's thresholds): ``EHS >= 0.85`` bets or raises; ``EHS >= 0.5`` bets when no
one has, else calls; otherwise it calls when ``PPOT`` beats the pot odds (a draw), else
checks or folds. The raise size is :func:`pokerlab.agents.hard_seed.move_to_action`'s
(no-limit: half the pot over the bet faced).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from pokerlab._types import Action
from pokerlab.agents.hard_seed import RAISE_MOVE, move_to_action
from pokerlab.cards import evaluate_batch, parse_cards
from pokerlab.errors import SpecError
from pokerlab.games.base import Game
from pokerlab.games.holdem import CALL, FOLD
from pokerlab.games.observation import Observation
from pokerlab.strategy import FunctionPolicy

BET_THRESHOLD = 0.85
"""Loki's "make 2": bet or raise at or above this EHS."""
CALL_THRESHOLD = 0.5
"""Loki's "make 1": bet when unopened, call a bet, at or above this EHS."""
PREFLOP_BET_THRESHOLD = 0.65
"""Ours, preflop: raise at or above this HS_n (heads-up: 88+, AK, AQs...)."""
PREFLOP_CALL_THRESHOLD = 0.45
"""Ours, preflop: call at or above this HS_n (heads-up, about the better 70% of hands)."""
PREFLOP_SAMPLES = 2000
"""Deals sampled for the preflop equity of a hand."""


@dataclass(frozen=True)
class HandPotential:
    """A hand's strength now and its potentials for the next card.

    Attributes:
        hs: the chance of being best now against one random hand (ties half).
        ppot: the chance of moving from behind (or tied) to ahead with the next card.
        npot: the chance of moving from ahead (or tied) to behind with the next card.
    """

    hs: float
    ppot: float
    npot: float

    def ehs(self, opponents: int = 1) -> float:
        """EHS against ``opponents`` opponents: ``HS_n (1 - NPOT) + (1 - HS_n) PPOT``."""
        hs_n = self.hs ** max(opponents, 1)
        return hs_n * (1.0 - self.npot) + (1.0 - hs_n) * self.ppot


def _compare(ours: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    """0 ahead, 1 tied, 2 behind."""
    return np.where(ours > theirs, 0, np.where(ours == theirs, 1, 2))


def hand_potential(hole: Sequence[int], board: Sequence[int]) -> HandPotential:
    """HS, PPOT and NPOT of ``hole`` on a flop, turn or river ``board``, by full enumeration.

    Raises:
        SpecError: for a board of other than 3, 4 or 5 cards, or repeated cards.
    """
    if len(board) not in (3, 4, 5) or len(hole) != 2:
        raise SpecError(f"hand_potential needs 2 hole cards and a 3..5-card board; got "
                        f"{len(hole)} and {len(board)}")
    known = [*hole, *board]
    if len(set(known)) != len(known):
        raise SpecError(f"repeated cards in {known}")
    deck = np.array([c for c in range(52) if c not in known], dtype=np.int64)
    pairs = np.array(list(combinations(range(len(deck)), 2)), dtype=np.int64)
    opp = deck[pairs]  # [k, 2]
    board_row = np.array(board, dtype=np.int64)
    ours_now = int(evaluate_batch(np.array([known]))[0])
    theirs_now = evaluate_batch(np.hstack([opp, np.tile(board_row, (len(opp), 1))]))
    now = _compare(np.full(len(opp), ours_now), theirs_now)
    hs = float(np.mean(np.where(now == 0, 1.0, np.where(now == 1, 0.5, 0.0))))
    if len(board) == 5:
        return HandPotential(hs, 0.0, 0.0)
    # Every (opposing pair, next card) with distinct cards.
    n = len(deck)
    card_index = np.arange(n)
    valid = (card_index[None, :] != pairs[:, :1]) & (card_index[None, :] != pairs[:, 1:])
    rows, cols = np.nonzero(valid)
    nxt = deck[cols]
    ours_next = evaluate_batch(np.hstack([np.tile(np.array(known), (n, 1)), deck[:, None]]))
    theirs_next = evaluate_batch(
        np.hstack([opp[rows], np.tile(board_row, (len(rows), 1)), nxt[:, None]]))
    later = _compare(ours_next[cols], theirs_next)
    before = now[rows]
    counts = np.zeros((3, 3))
    np.add.at(counts, (before, later), 1.0)
    totals = counts.sum(axis=1)  # deals by where we stand now (weights: next cards)
    ahead, tied, behind = 0, 1, 2
    ppot_den = totals[behind] + totals[tied] / 2
    npot_den = totals[ahead] + totals[tied] / 2
    ppot = (counts[behind, ahead] + counts[behind, tied] / 2 + counts[tied, ahead] / 2)
    npot = (counts[ahead, behind] + counts[tied, behind] / 2 + counts[ahead, tied] / 2)
    return HandPotential(hs, float(ppot / ppot_den) if ppot_den else 0.0,
                         float(npot / npot_den) if npot_den else 0.0)


@functools.lru_cache(maxsize=2048)
def preflop_strength(hole: tuple[int, int]) -> float:
    """Equity of ``hole`` against one random hand to the river (ties half), sampled."""
    first, second = sorted(hole)
    rng = np.random.default_rng(first * 52 + second)
    deck = np.array([c for c in range(52) if c not in hole], dtype=np.int64)
    draws = np.argsort(rng.random((PREFLOP_SAMPLES, len(deck))), axis=1)[:, :7]
    cards = deck[draws]  # 2 opposing cards, then 5 board cards
    board = cards[:, 2:]
    ours = evaluate_batch(np.hstack([np.tile(np.array([first, second]), (PREFLOP_SAMPLES, 1)),
                                     board]))
    theirs = evaluate_batch(cards)
    return float(np.mean(np.where(ours > theirs, 1.0, np.where(ours == theirs, 0.5, 0.0))))


def opponents_in(observation: Observation) -> int:
    """Opponents who have not folded."""
    folded = {player for player, name in observation.public_history if name == "fold"}
    return len(set(range(len(observation.committed))) - folded - {observation.seat})


def decide(observation: Observation) -> Action:
    """The rule bot's action for an observation (see the module docstring)."""
    hole = parse_cards(observation.private_cards)
    board = parse_cards(observation.board)
    opponents = opponents_in(observation)
    if board:
        potential = hand_potential(hole, board)
    else:
        potential = HandPotential(preflop_strength((hole[0], hole[1])), 0.0, 0.0)
    ehs = potential.ehs(opponents)
    bet, call = ((BET_THRESHOLD, CALL_THRESHOLD) if board
                 else (PREFLOP_BET_THRESHOLD, PREFLOP_CALL_THRESHOLD))
    legal = observation.legal_actions
    facing = FOLD in legal
    if ehs >= bet:
        return move_to_action(RAISE_MOVE, observation)
    if ehs >= call:
        return CALL if facing else move_to_action(RAISE_MOVE, observation)
    if facing:
        owed = max(observation.committed) - observation.committed[observation.seat]
        pot_odds = owed / (observation.pot + owed)
        return CALL if potential.ppot >= pot_odds else FOLD
    return CALL


class EHSBot:
    """Loki-style rule bot: bet, call or fold by effective hand strength (deterministic).

    Args:
        game: the Hold'em game, when known: the bot then exposes its ``policy``.

    Raises:
        SpecError: if ``game`` is not a Hold'em game.
    """

    name = "ehs"

    def __init__(self, game: Game | None = None) -> None:
        if game is not None:
            self.check_game(game)
        self.policy: FunctionPolicy | None = (
            None if game is None else FunctionPolicy(game, self.probabilities, name="ehs")
        )

    def check_game(self, game: Game) -> None:
        """Refuse a game that is not Hold'em.

        Raises:
            SpecError: for games other than Hold'em.
        """
        if game.spec.name != "holdem":
            raise SpecError(f"the EHS bot plays holdem only; it cannot play {game.spec}")

    def probabilities(self, observation: Observation) -> dict[Action, float]:
        """Probability 1 on the rule's action."""
        probs = dict.fromkeys(observation.legal_actions, 0.0)
        probs[decide(observation)] = 1.0
        return probs

    def act(self, observation: Observation) -> Action:
        """The rule's action.

        Raises:
            SpecError: if the observation is not of a Hold'em game.
        """
        if not observation.game.startswith("holdem"):
            raise SpecError(f"the EHS bot plays holdem only; got {observation.game}")
        return decide(observation)


__all__ = [
    "BET_THRESHOLD",
    "CALL_THRESHOLD",
    "PREFLOP_BET_THRESHOLD",
    "PREFLOP_CALL_THRESHOLD",
    "EHSBot",
    "HandPotential",
    "decide",
    "hand_potential",
    "preflop_strength",
]
