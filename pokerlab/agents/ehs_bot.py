"""The 1999 Alberta bot (``ehs``): probability triples from EHS against modelled ranges.

The tutorial's history (seed 000, section 2): "A basic rule-based system was developed in
1999 in the University of Alberta Computer Poker Research Group (CPRG), which took an
effective hand-strength as input and outputted a (fold, call, raise) probability triple,
using a form of basic opponent modelling." That is Loki-2 (Billings, Peña, Schaeffer and
Szafron, "Using probabilistic knowledge and simulation to play poker", AAAI-99), without
its simulations. At each decision the bot:

1. follows the hand: every opponent action since its last look re-weights that opponent's
   weight table (:mod:`.opponent_model`: generic or specific modelling);
2. measures its hand against each opponent still in: after the flop ``EHS = HS + (1 - HS)
   PPOT`` against his weighted range with card removal (:mod:`.ehs_strength`), preflop the
   all-in equity against it; against several, the product of the EHS (for uniform tables
   without potential, Loki's ``HS_n = HS ** n``) and the smallest PPOT;
3. maps EHS to a probability triple (:mod:`.ehs_triple`) and samples it: fold, check or
   call, bet or raise (no-limit: half the pot over the bet faced, as the other Hold'em
   bots size it).

The specific model learns from each hand's result (the dealer's ``observe`` hook), so the
bot adapts over a match; ``reset`` starts a hand, not a new bot. ``ehs-threshold``
(:mod:`.ehs_threshold`) is the deterministic 1998 bot it grew from.
"""

from __future__ import annotations

import functools

import numpy as np

from pokerlab._types import Action
from pokerlab.agents.ehs_strength import (
    combo_of,
    hand_potential,
    preflop_equity,
    preflop_strength,
)
from pokerlab.agents.ehs_threshold import check_texas
from pokerlab.agents.ehs_triple import (
    CALL_ACTION,
    FOLD_ACTION,
    RAISE_ACTION,
    drawing_chance,
    probability_triple,
)
from pokerlab.agents.hard_seed import RAISE_MOVE, move_to_action
from pokerlab.agents.opponent_model import (
    HandModel,
    OpponentModel,
    result_observation,
    situation_of,
    stand_in_cards,
)
from pokerlab.cards import parse_cards
from pokerlab.errors import SpecError
from pokerlab.games import load
from pokerlab.games.base import Game
from pokerlab.games.holdem import CALL, FOLD
from pokerlab.games.holdem_state import HoldemGame
from pokerlab.games.observation import HandResult, Observation
from pokerlab.play.dealer import reseed
from pokerlab.strategy import FunctionPolicy


@functools.lru_cache(maxsize=8)
def _game_of(spec: str) -> HoldemGame:
    game = load(spec)
    if not isinstance(game, HoldemGame):
        raise SpecError(f"the EHS bot plays holdem only; got {spec}")
    check_texas(game, "EHS bot")
    return game


class EHSBot:
    """The 1999 Alberta bot: EHS against modelled ranges, a probability triple, sampled.

    Args:
        game: the Hold'em game, when known: the bot then exposes its ``policy``.
        seed: its randomness (a generator, a seed, or None); matches reseed it per hand.
        modelling: ``"specific"`` (default), ``"generic"`` or ``"none"``
            (:mod:`.opponent_model`).

    Raises:
        SpecError: if ``game`` is not Texas Hold'em, or for an unknown modelling.

    Example:
        >>> from pokerlab.games import holdem
        >>> game = holdem(betting="limit")
        >>> bot = EHSBot(game, seed=1)
        >>> state = game.initial_state().apply_sequence([2, 51, 3, 50])  # seat 1: As Ah
        >>> [round(p, 2) for p in bot.triple(state.observation())]
        [0.0, 0.0, 1.0]
    """

    name = "ehs"

    def __init__(self, game: Game | None = None, *, seed: np.random.Generator | int | None = None,
                 modelling: str = "specific") -> None:
        if game is not None:
            self.check_game(game)
        self.model = OpponentModel(modelling)
        self.learns = modelling == "specific"
        """True when its policy changes over a match (the specific model learns): AIVAT
        then treats it as unknown."""
        self.rng = np.random.default_rng(seed)
        self.policy: FunctionPolicy | None = (
            None if game is None else FunctionPolicy(game, self.probabilities, name=self.name)
        )
        self._game = game
        self._hand: HandModel | None = None
        self.last_ehs: float | None = None
        """The EHS of the last decision (for displays and tests)."""

    def check_game(self, game: Game) -> None:
        """Refuse a game that is not Texas Hold'em.

        Raises:
            SpecError: for other games.
        """
        check_texas(game, "EHS bot")

    def seed(self, value: int) -> None:
        """Restart the generator from ``value`` (called by matches before each hand)."""
        self.rng = reseed(self.rng, value)

    def reset(self) -> None:
        """Start a hand: the weight tables start again; the action counts stay."""
        self._hand = None

    def observe(self, update: Observation | HandResult) -> None:
        """At the end of a hand, count the opponents' actions (the specific model's data)."""
        if isinstance(update, HandResult):
            self._learn(update)

    def hand(self, observation: Observation) -> HandModel:
        """The hand as followed up to ``observation`` (weight tables re-weighted).

        Raises:
            SpecError: if the observation is not of Texas Hold'em.
        """
        if not observation.game.startswith("holdem"):
            raise SpecError(f"the EHS bot plays holdem only; got {observation.game}")
        if self._hand is None or not self._hand.extends(observation):
            self._hand = HandModel(_game_of(observation.game), observation.seat,
                                   observation.private_cards, self.model)
        self._hand.follow(observation)
        return self._hand

    def triple(self, observation: Observation) -> tuple[float, float, float]:
        """The (fold, call, raise) probabilities of this decision (before legality)."""
        hand = self.hand(observation)
        state = hand.state
        assert state is not None
        hole = parse_cards(observation.private_cards)
        board = tuple(state.board)
        opponents = [p for p in range(hand.game.n_players)
                     if p != hand.seat and not state.folded[p]]
        ehs = 1.0
        ppots = []
        for player in opponents:
            if board:
                potential = hand_potential(hole, board, hand.weights[player])
                ehs *= potential.ehs()
                ppots.append(potential.ppot)
            elif np.all(hand.weights[player] == 1.0):  # nothing learnt: a random hand
                ehs *= preflop_strength((hole[0], hole[1]))
            else:
                ehs *= preflop_equity(hole, hand.weights[player])
        situation = situation_of(state, hand.seat)
        draw = drawing_chance(situation.street, ehs, min(ppots, default=0.0))
        self.last_ehs = ehs
        f, c, r = probability_triple(ehs, draw, situation).tolist()
        return f, c, r

    def probabilities(self, observation: Observation) -> dict[Action, float]:
        """The triple on the legal actions: a free fold is a check, a barred raise a call."""
        triple = self.triple(observation)
        legal = observation.legal_actions
        probs = dict.fromkeys(legal, 0.0)
        raise_action = move_to_action(RAISE_MOVE, observation)
        fold = triple[FOLD_ACTION] if FOLD in legal else 0.0
        probs[raise_action] += triple[RAISE_ACTION]
        probs[CALL] += triple[CALL_ACTION] + triple[FOLD_ACTION] - fold
        if fold:
            probs[FOLD] += fold
        return probs

    def act(self, observation: Observation) -> Action:
        """Sample the probabilities.

        Raises:
            SpecError: if the observation is not of Texas Hold'em.
        """
        probs = self.probabilities(observation)
        draw = self.rng.random()
        running = 0.0
        chosen = observation.legal_actions[0]
        for action in observation.legal_actions:
            if probs[action] <= 0.0:
                continue
            chosen = action
            running += probs[action]
            if draw < running:
                break
        return chosen

    def _learn(self, result: HandResult) -> None:
        hand = self._hand
        if hand is not None:
            game = hand.game
        elif self._game is not None:
            game = _game_of(str(self._game.spec))
        else:
            return  # never told the game: nothing to replay the hand with
        history = result.public_history
        if hand is None or hand.seat != result.seat or history[:len(hand.history)] != hand.history:
            board = "".join(name.split(" ", 1)[1] for p, name in history if p < 0)
            hand = HandModel(game, result.seat, stand_in_cards(board, 2), self.model)
        # Showdowns are scored only in hands the bot played to the end (heads-up: every
        # showdown), whose boards it has mostly valued already.
        shown: set[int] = set()
        if self.model.modelling == "specific" and result.showdown[result.seat]:
            shown = {seat for seat, cards in enumerate(result.showdown)
                     if cards and seat != result.seat}
        hand.follow(result_observation(game, result, hand.private_cards), reweight=shown)
        for offset, situation, kind in hand.actions:
            self.model.record(offset, situation, kind)
        for player, offset, done in hand.scored:
            cards = parse_cards(result.showdown[player]) if player in shown else ()
            if done.likelihood is not None and len(cards) == 2:
                self.model.score_showdown(offset, float(done.likelihood[combo_of(cards)]),
                                          done.marginal)
        self._hand = None


__all__ = ["EHSBot"]
