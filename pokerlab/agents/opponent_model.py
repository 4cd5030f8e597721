"""Loki's opponent model: a weight table per opponent, re-weighted after each of his actions.

Billings, Papp, Schaeffer and Szafron ("Opponent modeling in poker", AAAI-98) and Peña's
thesis (1999) keep, for each opponent, a *weight table*: for each of the 1,326 hands he
may hold, the chance that he would have played as he did holding it. Every hand starts at
1. When he acts, each hand's weight is multiplied by the probability that a player holding
it would have taken that action here, the matching entry of the probability triple
(:mod:`.ehs_triple`), as Loki-2 did; no weight falls below :data:`MIN_WEIGHT` ("to avoid
eliminating legal subcases completely"). The bot then measures its own hand against the
re-weighted table: a raise moves weight toward strong hands and lowers our EHS.

The triple of each of his hands is computed as he would see it: his hand against one random
hand (uniform weights), so the table for a board is computed once (:func:`opponent_view`).

- *Generic* modelling: every opponent is assumed to play like the bot (its triple and
  thresholds).
- *Specific* modelling: per opponent, counts of his folds, calls and raises in each context
  (street, facing a bet or not, bets made this round: 0, 1, 2 or more), gathered over the
  hands played (Loki's betting frequencies). In a context where he raised a share ``q`` of
  the time, a raise is read as a hand in the top ``q`` of his current range (the raise
  threshold is the EHS above which that share of his weight lies), and a call as a hand
  above his folding share; the triple of those fitted thresholds is mixed with the generic
  one, the generic triple counting as :data:`PRIOR_ACTIONS` observations. Against a player
  who always calls, calls soon say nothing.

  Ours, beyond the papers: frequencies cannot tell a player who raises a third of the time
  with his best hands from one who raises a third of the time at random, but his cards,
  when shown down, can. For each of his actions in a hand he shows, ``log p(action | the
  hand shown) - log p(action)`` (the triple's chance against its average over his range)
  adds up to the evidence that his actions follow his cards; the *trust* ``t`` is the
  posterior of that against "his actions ignore his cards" (prior :data:`PRIOR_TRUST`), and
  each re-weighting multiplies by ``t p(action | hand) + (1 - t) p(action)``. Against the
  random agent the trust falls below 1e-6 within 20 hands (weights then barely move);
  against the threshold bot it rises above 0.999.

Opponents are told apart by their seat relative to ours (heads-up: the one opponent).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
from numpy.typing import NDArray

from pokerlab.agents.ehs_strength import (
    preflop_strengths,
    range_strengths,
    uniform_weights,
)
from pokerlab.agents.ehs_triple import (
    CALL_ACTION,
    FOLD_ACTION,
    RAISE_ACTION,
    STREETS,
    Situation,
    Thresholds,
    drawing_chance,
    probability_triple,
)
from pokerlab.cards import card_str, parse_cards
from pokerlab.errors import SpecError
from pokerlab.games.holdem_public import action_of_name
from pokerlab.games.holdem_state import HoldemGame, HoldemState
from pokerlab.games.observation import HandResult, Observation

Floats = NDArray[np.float64]

MIN_WEIGHT = 0.01
"""No weight of a possible hand goes below this (Loki's floor)."""
PRIOR_ACTIONS = 10.0
"""Observations the generic triple counts for in the specific model's mixture."""
PRIOR_TRUST = 0.9
"""Specific modelling: the prior belief that an opponent's actions depend on his cards."""
BET_BUCKETS = 3
"""Contexts by bets made this round: 0, 1, 2 or more."""
MODELLING = ("none", "generic", "specific")
"""``none``: uniform tables, never re-weighted; then generic and specific modelling."""
_NEVER, _ALWAYS = 2.0, -1.0  # thresholds no EHS reaches / every EHS passes


def action_kind(name: str) -> int:
    """The triple's column of a public action name (fold; check or call; bet or raise).

    Raises:
        SpecError: for a name that is none of these.
    """
    word = name.split(" ", 1)[0]
    kinds = {"fold": FOLD_ACTION, "check": CALL_ACTION, "call": CALL_ACTION,
             "bet": RAISE_ACTION, "raise": RAISE_ACTION}
    if word not in kinds:
        raise SpecError(f"unknown action name {name!r}; known: fold, check, call, bet, raise")
    return kinds[word]


def context_of(situation: Situation) -> tuple[int, int, int]:
    """The specific model's context: (street, facing a bet, bets made capped at 2)."""
    return situation.street, int(situation.facing), min(situation.bets, BET_BUCKETS - 1)


@functools.lru_cache(maxsize=16)
def _opponent_view(board: tuple[int, ...]) -> tuple[Floats, Floats, NDArray[np.bool_]]:
    if not board:
        strength = preflop_strengths()
        return strength, strength, np.ones(len(strength), dtype=bool)
    figures = range_strengths(board)
    possible = ~np.isnan(figures.hs)
    ehs = np.where(possible, figures.ehs(), 0.0)
    ppot = np.where(possible, figures.ppot, 0.0)
    street = {3: 1, 4: 2, 5: 3}[len(board)]
    for array in (ehs, ppot):
        array.setflags(write=False)
    return ehs, drawing_chance(street, ehs, ppot), possible


def opponent_view(board: tuple[int, ...]) -> tuple[Floats, Floats, NDArray[np.bool_]]:
    """Each hand's EHS and drawing chance against one random hand, and which are possible.

    ``[1326]`` arrays by combo index (cached per board): preflop the all-in equity,
    after the flop ``HS + (1 - HS) PPOT``; hands sharing a card with the board are not
    possible (their figures are 0).
    """
    return _opponent_view(tuple(sorted(board)))


def weighted_tops(values: Floats, weights: Floats, shares: Sequence[float]) -> list[float]:
    """For each share, the value above which that share of the weight lies.

    ``values`` are held by ``weights``; a share of 0 gives a value above every one, 1 a
    value below every one.
    """
    total = weights.sum()
    order = np.argsort(-values, kind="stable")
    cumulative = np.cumsum(weights[order]) / total if total > 0 else np.zeros(len(order))
    tops = []
    for share in shares:
        if share <= 0.0 or not total > 0:
            tops.append(_NEVER)
        elif share >= 1.0:
            tops.append(_ALWAYS)
        else:
            at = min(int(np.searchsorted(cumulative, share)), len(order) - 1)
            tops.append(float(values[order][at]))
    return tops


class OpponentModel:
    """Action counts per opponent and context, and the triples they imply.

    Args:
        modelling: ``"none"``, ``"generic"`` or ``"specific"`` (module docstring).

    Raises:
        SpecError: for another modelling.
    """

    def __init__(self, modelling: str = "specific") -> None:
        if modelling not in MODELLING:
            raise SpecError(f"modelling is one of {', '.join(MODELLING)}; got {modelling!r}")
        self.modelling = modelling
        self.counts: dict[int, Floats] = {}
        """By seat offset: ``[street, facing, bets, action]`` counts of his actions."""
        self.evidence: dict[int, float] = {}
        """By seat offset: the log-likelihood ratio his showdowns gave (:meth:`trust`)."""

    def record(self, offset: int, situation: Situation, kind: int) -> None:
        """Count one action of the opponent ``offset`` seats after ours."""
        table = self.counts.setdefault(offset, np.zeros((STREETS, 2, BET_BUCKETS, 3)))
        table[(*context_of(situation), kind)] += 1.0

    def frequencies(self, offset: int, situation: Situation) -> tuple[Floats, float]:
        """His action shares in the situation's context, and how many actions they count."""
        table = self.counts.get(offset)
        row = np.zeros(3) if table is None else table[context_of(situation)]
        total = float(row.sum())
        return (row / total if total else row), total

    def triples(self, offset: int, ehs: Floats, draw: Floats, situation: Situation,
                weights: Floats) -> Floats:
        """``[n, 3]``: the chance of each action for each of his hands (module docstring)."""
        generic = probability_triple(ehs, draw, situation)
        if self.modelling != "specific":
            return generic
        shares, total = self.frequencies(offset, situation)
        if not total:
            return generic
        raise_at, call_at = weighted_tops(
            ehs, weights, (float(shares[RAISE_ACTION]), 1.0 - float(shares[FOLD_ACTION])))
        fitted = Thresholds(bet_at=raise_at, call_at=call_at, raise_at=raise_at)
        specific = probability_triple(ehs, draw, situation, fitted, pot_odds=False)
        return (total * specific + PRIOR_ACTIONS * generic) / (total + PRIOR_ACTIONS)

    def trust(self, offset: int) -> float:
        """How far his actions are taken to depend on his cards: 1 unless specific.

        Specific modelling: the posterior of "his actions follow his triples" against
        "his actions ignore his cards", from the showdowns seen (:meth:`score_showdown`),
        starting at :data:`PRIOR_TRUST`.
        """
        if self.modelling != "specific":
            return 1.0
        log_odds = math.log(PRIOR_TRUST / (1.0 - PRIOR_TRUST)) + self.evidence.get(offset, 0.0)
        return 1.0 / (1.0 + math.exp(-min(max(log_odds, -50.0), 50.0)))

    def score_showdown(self, offset: int, likelihood: float, marginal: float) -> None:
        """Weigh one action of a hand he showed: ``log p(action | his hand) - log p(action)``.

        ``likelihood`` is his triples' chance of the action with the hand he showed,
        ``marginal`` the chance of the action over his whole range at the time.
        """
        floor = 1e-3  # one surprising action is strong evidence, not infinite evidence
        surprise = math.log(max(likelihood, floor)) - math.log(max(marginal, floor))
        self.evidence[offset] = self.evidence.get(offset, 0.0) + surprise

    def reweight(self, weights: Floats, offset: int, situation: Situation, kind: int,
                 board: tuple[int, ...]) -> Reweighting:
        """The opponent's weight table after he took action ``kind`` (a new array).

        Each possible hand's weight is multiplied by ``t p(action | hand) + (1 - t)
        p(action)`` (``t``: :meth:`trust`; ``p(action)``: the chance of the action over
        his range), then kept at :data:`MIN_WEIGHT` or more.
        """
        if self.modelling == "none":
            return Reweighting(weights, None, 0.0)
        ehs, draw, possible = opponent_view(board)
        new = np.where(possible, weights, 0.0)
        held = possible & (new > 0)
        column = self.triples(offset, ehs[held], draw[held], situation, new[held])[:, kind]
        marginal = float(np.dot(new[held], column) / new[held].sum())
        trust = self.trust(offset)
        new[held] = np.maximum(new[held] * (trust * column + (1.0 - trust) * marginal),
                               MIN_WEIGHT)
        likelihood = np.zeros(len(weights))
        likelihood[held] = column
        return Reweighting(new, likelihood, marginal)


@dataclass(frozen=True)
class Reweighting:
    """One re-weighting: the new table and what scores it once his cards are shown.

    Attributes:
        weights: the new weight table.
        likelihood: ``[1326]`` his triples' chance of the action with each hand (None
            without a model).
        marginal: the chance of the action over his range before it.
    """

    weights: Floats
    likelihood: Floats | None
    marginal: float


@dataclass
class HandModel:
    """One hand as the bot follows it: the opponents' weight tables, their actions so far.

    Built from observations of one seat in one hand; :meth:`follow` takes in the events
    the last observation added (replayed with stand-in cards for the hidden ones, which
    gives each action's situation exactly).
    """

    game: HoldemGame
    seat: int
    private_cards: str
    model: OpponentModel
    history: tuple[tuple[int, str], ...] = ()
    weights: dict[int, Floats] = field(default_factory=dict)
    actions: list[tuple[int, Situation, int]] = field(default_factory=list)
    """Each opponent action so far: (seat offset, situation, triple column)."""
    scored: list[tuple[int, int, Reweighting]] = field(default_factory=list)
    """Each re-weighting so far: (player, seat offset, what it was), for showdowns."""
    state: HoldemState | None = None
    """The replayed state after :attr:`history`."""

    def __post_init__(self) -> None:
        for seat in range(self.game.n_players):
            if seat != self.seat:
                self.weights[seat] = uniform_weights()

    def extends(self, observation: Observation) -> bool:
        """True when ``observation`` is this hand, seen by the same seat, further on."""
        return (observation.seat == self.seat and observation.private_cards == self.private_cards
                and observation.public_history[:len(self.history)] == self.history)

    def follow(self, observation: Observation, *,
               reweight: Collection[int] | None = None) -> HoldemState:
        """Take in the events ``observation`` adds; the state after them (replayed).

        ``reweight``: the players whose new actions re-weight their tables (None: all).

        Raises:
            SpecError: if the observation's history is not one of this game.
        """
        history = observation.public_history
        base = replace(observation, public_history=self.history)
        state = self.game.public_state(base)
        rules = self.game.rules
        for player, name in history[len(self.history):]:
            if player < 0:
                for card in parse_cards(name.split(" ", 1)[1]):
                    state = state.child(card)
                continue
            if player != self.seat:
                situation = situation_of(state, player)
                kind = action_kind(name)
                offset = (player - self.seat) % self.game.n_players
                self.actions.append((offset, situation, kind))
                if kind != FOLD_ACTION and (reweight is None or player in reweight):
                    done = self.model.reweight(self.weights[player], offset, situation, kind,
                                               tuple(state.board))
                    self.weights[player] = done.weights
                    self.scored.append((player, offset, done))
            state = state.child(action_of_name(rules, name))
        self.history = history
        self.state = state
        return state


def situation_of(state: HoldemState, player: int) -> Situation:
    """The situation of ``player`` about to act in ``state``."""
    return Situation(
        street=state.street,
        bets=state.raise_count + (1 if state.street == 0 else 0),
        owed=float(max(state.bets) - state.bets[player]),
        pot=float(sum(state.committed)),
    )


def result_observation(game: HoldemGame, result: HandResult, private_cards: str) -> Observation:
    """An observation carrying a finished hand's public history, for replaying it.

    ``private_cards`` may be stand-ins when the seat's own cards are not known.
    """
    board = "".join(name.split(" ", 1)[1] for player, name in result.public_history
                    if player < 0)
    return Observation(game=str(game.spec), seat=result.seat, infoset_key="",
                       legal_actions=(), action_names=(), public_history=result.public_history,
                       private_cards=private_cards, board=board, committed=(), stacks=None)


def stand_in_cards(board: str, hole_size: int) -> str:
    """``hole_size`` cards off ``board``, written as cards are (for replays)."""
    used = set(parse_cards(board))
    spare = [card for card in range(52) if card not in used][:hole_size]
    return "".join(card_str(card) for card in spare)


__all__ = [
    "BET_BUCKETS",
    "MIN_WEIGHT",
    "MODELLING",
    "PRIOR_ACTIONS",
    "PRIOR_TRUST",
    "HandModel",
    "OpponentModel",
    "Reweighting",
    "action_kind",
    "context_of",
    "opponent_view",
    "result_observation",
    "situation_of",
    "stand_in_cards",
    "weighted_tops",
]
