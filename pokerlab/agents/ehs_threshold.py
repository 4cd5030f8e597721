"""Loki-1's fixed thresholds on effective hand strength (Billings et al., 1998): ``ehs-threshold``.

The deterministic rule bot that came before the probability triples of the 1999 bot
(:mod:`.ehs_bot`, ``ehs``). It judges a hand against one *random* opposing hand (no
opponent model) by ``EHS = HS_n (1 - NPOT) + (1 - HS_n) PPOT`` (the 1998 form, see
:mod:`.ehs_strength`): ``HS`` is the chance to be best now against one random hand, ties
half, and ``HS_n = HS ** n`` against ``n`` opponents; PPOT and NPOT look one card ahead on
the flop and the turn and are 0 on the river. Preflop, ``HS`` is the all-in equity against
one random hand (:func:`~pokerlab.agents.ehs_strength.preflop_strength`), potentials 0.
Loki played preflop from income-rate tables we do not reproduce: our preflop thresholds are
0.65 (raise) and 0.45 (call) on ``HS_n``.

Betting (Loki's thresholds): ``EHS >= 0.85`` bets or raises; ``EHS >= 0.5`` bets when no
one has, else calls; otherwise it calls when ``PPOT`` beats the pot odds (a draw), else
checks or folds. The raise size is :func:`pokerlab.agents.hard_seed.move_to_action`'s
(no-limit: half the pot over the bet faced).
"""

from __future__ import annotations

from pokerlab._types import Action
from pokerlab.agents.ehs_strength import HandPotential, hand_potential, preflop_strength
from pokerlab.agents.hard_seed import RAISE_MOVE, move_to_action
from pokerlab.cards import parse_cards
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
    ehs = potential.ehs(opponents, negative_potential=True)
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


def check_texas(game: Game, who: str) -> None:
    """Refuse a game that is not Texas Hold'em (52 cards, 2 hole cards, board 3, 1, 1).

    Raises:
        SpecError: naming ``who`` and the game.
    """
    rules = getattr(game, "rules", None)
    if (game.spec.name != "holdem" or rules is None or rules.deck_size != 52
            or rules.hole_size != 2 or tuple(rules.board_sizes) != (0, 3, 4, 5)):
        raise SpecError(f"the {who} plays holdem only, with 52 cards, 2 hole cards and a "
                        f"3, 1, 1 board (any players, limit or no-limit); it cannot play "
                        f"{game.spec}")


class EHSThresholdBot:
    """Loki-1-style rule bot: bet, call or fold by fixed EHS thresholds (deterministic).

    Args:
        game: the Hold'em game, when known: the bot then exposes its ``policy``.

    Raises:
        SpecError: if ``game`` is not Texas Hold'em.
    """

    name = "ehs-threshold"

    def __init__(self, game: Game | None = None) -> None:
        if game is not None:
            self.check_game(game)
        self.policy: FunctionPolicy | None = (
            None if game is None else FunctionPolicy(game, self.probabilities, name=self.name)
        )

    def check_game(self, game: Game) -> None:
        """Refuse a game that is not Texas Hold'em.

        Raises:
            SpecError: for other games.
        """
        check_texas(game, "EHS threshold bot")

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
            raise SpecError(f"the EHS threshold bot plays holdem only; got {observation.game}")
        return decide(observation)


__all__ = [
    "BET_THRESHOLD",
    "CALL_THRESHOLD",
    "PREFLOP_BET_THRESHOLD",
    "PREFLOP_CALL_THRESHOLD",
    "EHSThresholdBot",
    "check_texas",
    "decide",
    "opponents_in",
]
