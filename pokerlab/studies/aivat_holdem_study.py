"""AIVAT on limit Hold'em: unbiasedness shown empirically, variance reduction measured.

The Easy AI plays a duplicate match against an opponent (always-call by default; one copy
in each other seat) on limit Texas Hold'em with 2 to 6 seats (heads-up by default); each
hand is corrected by the terms of :mod:`pokerlab.eval.aivat_holdem` (value function:
all-in equity times the pot). Recorded, for the Easy AI's result in milli big blinds per
hand (deals are the units):

- the plain estimate and its 95% interval;
- chance terms only: all of them (the flop as one event, the turn, the river, and
  heads-up the hole cards as one event), and, beside them, the board terms from the third
  flop card on only (the earlier method, which needs no exact preflop equity);
- chance terms and the action terms of every agent whose policy is exposed (easy's;
  always-call's are 0: it never randomizes), with either set of chance terms;
- the mean of the summed terms with its interval: AIVAT is unbiased exactly when this
  mean is 0 in expectation, so the interval should hold 0 (the empirical check; the exact
  zero-mean property of each term is tested by enumeration in the tests).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from pokerlab.agents import EasyAI, make_agent
from pokerlab.errors import PokerlabError
from pokerlab.eval.aivat import known_policy
from pokerlab.eval.aivat_holdem import MAX_SEATS, holdem_hand_corrections
from pokerlab.eval.matches import iter_hands
from pokerlab.eval.sampling import deal_units
from pokerlab.eval.statistics import Estimate, control_variate_estimate, mean_estimate
from pokerlab.games import holdem


@dataclass(frozen=True)
class HoldemAivatResult:
    """The Easy AI's result against ``opponent``, in mbb/hand, each with its 95% interval.

    Attributes:
        opponent: the opponents' built-in name (one copy per other seat).
        players: seats at the table (2 to 6).
        hands: hands played (each deal in every seat).
        plain: the plain estimate.
        chance: corrected by every chance term; ``chance_reduction`` its variance factor.
        chance_board: by the board terms from the third flop card on only (no hole-card
            nor whole-flop term); ``chance_board_reduction``.
        aivat: corrected by every chance term and the known agents' action terms;
            ``aivat_reduction``.
        aivat_board: the same with the board terms only; ``aivat_board_reduction``.
        correction: the mean of the summed terms (0 in expectation: the unbiasedness check).
        known: the agents whose action terms were used.
    """

    opponent: str
    players: int
    hands: int
    plain: Estimate
    chance: Estimate
    chance_reduction: float
    aivat: Estimate
    aivat_reduction: float
    chance_board: Estimate
    chance_board_reduction: float
    aivat_board: Estimate
    aivat_board_reduction: float
    correction: Estimate
    known: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return asdict(self)


def holdem_aivat_study(
    *,
    hands: int = 20_000,
    seed: int = 0,
    opponent: str = "always-call",
    players: int = 2,
    progress: Callable[[int, int], None] | None = None,
) -> HoldemAivatResult:
    """Play Easy AI against ``opponent`` for ``hands`` hands per seat and measure AIVAT.

    Args:
        hands: hands per seat (the match plays ``players`` times as many).
        seed: the match's seed.
        opponent: a built-in agent that plays Hold'em (in every seat but Easy AI's).
        players: seats at the table, 2 to 6 (limit Texas Hold'em).
        progress: called with ``(hands done, hands in all)`` every 100 hands.

    Raises:
        PokerlabError: for ``players`` outside 2..6.
    """
    if not 2 <= players <= MAX_SEATS:
        raise PokerlabError(f"players must be 2 to {MAX_SEATS}; got {players}")
    game = holdem(players=players, betting="limit")
    agents = [EasyAI(game, seed=seed)] + [
        make_agent(opponent, game, seed=seed + k) for k in range(1, players)
    ]
    known = [known_policy(game, a) for a in agents]
    policies = [getattr(a, "policy", None) if k is not None else None
                for a, k in zip(agents, known, strict=True)]
    total = players * hands
    values = np.zeros(total)
    chance_terms = np.zeros(total)
    board_terms = np.zeros(total)
    action_terms = np.zeros(total)
    deals = np.zeros(total, dtype=np.int64)
    for i, record in enumerate(iter_hands(game, agents, hands=total, seed=seed)):
        easy_seat = record.seats.index(0)
        values[i] = record.returns[easy_seat]
        deals[i] = record.deal
        no_policy: list[Any] = [None] * players
        chance_terms[i] = holdem_hand_corrections(game, record.history, no_policy)[easy_seat]
        board_terms[i] = holdem_hand_corrections(
            game, record.history, no_policy, early_chance=False
        )[easy_seat]
        seat_policies = [policies[agent] for agent in record.seats]
        action_terms[i] = holdem_hand_corrections(
            game, record.history, seat_policies, chance=False
        )[easy_seat]
        if progress is not None and ((i + 1) % 100 == 0 or i + 1 == total):
            progress(i + 1, total)
    scale = 1000.0 / game.big_blind
    x = deal_units(values, deals) * scale
    c = deal_units(chance_terms, deals) * scale
    a = deal_units(action_terms, deals) * scale
    b = deal_units(board_terms, deals) * scale
    chance = control_variate_estimate(x, c, coefficient=1.0)
    full = control_variate_estimate(x, c + a, coefficient=1.0)
    board = control_variate_estimate(x, b, coefficient=1.0)
    board_full = control_variate_estimate(x, b + a, coefficient=1.0)
    return HoldemAivatResult(
        opponent=opponent,
        players=players,
        hands=total,
        plain=mean_estimate(x),
        chance=chance.estimate,
        chance_reduction=chance.variance_reduction,
        aivat=full.estimate,
        aivat_reduction=full.variance_reduction,
        chance_board=board.estimate,
        chance_board_reduction=board.variance_reduction,
        aivat_board=board_full.estimate,
        aivat_board_reduction=board_full.variance_reduction,
        correction=mean_estimate(c + a),
        known=tuple(getattr(ag, "name", "?") for ag, k in zip(agents, known, strict=True)
                    if k is not None),
    )


__all__ = ["HoldemAivatResult", "holdem_aivat_study"]
