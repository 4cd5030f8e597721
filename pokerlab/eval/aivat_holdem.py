"""AIVAT on heads-up Texas Hold'em: an all-in-equity value function, chance and action terms.

Hold'em is far too big for the exact history values of :mod:`pokerlab.eval.aivat`, but AIVAT
is unbiased for *any* value function ``V``: only the variance depends on it. Here, for seat
``p`` at a history ``h`` (every card known: AIVAT runs after the hand, with both hands shown
by the record)::

    V_p(h) = E_p(h) * pot(h) - committed_p(h)        (h not terminal)
    V_p(h) = the chips seat p won                      (h terminal)

with ``E_p`` the all-in equity of ``p``'s hole cards against the opponent's on the board
dealt so far (ties count half).

- Chance terms ``V(h a) - sum_b P(b) V(h b)``: with ``E`` exact, ``sum_b P(b) E(h b) = E(h)``
  (equity is a martingale when the next card is uniform over the undealt ones), so the term
  is ``pot * (E(h a) - E(h))``: exactly mean zero. It is applied where exact equity is cheap:
  at the third flop card (15,180 runouts), the turn (990) and the river (44). Earlier board
  cards and the hole cards get no term (leaving out a term keeps the estimate unbiased: each
  term has mean zero on its own).
- Action terms ``V(h a) - sum_b sigma(b | I) V(h b)`` at every decision of a seat whose
  policy ``sigma`` is known (an agent exposing ``policy``: easy, ehs, always-call, ...).
  Before the flop ``E`` is a fixed-sample estimate (2,000 runouts, the same ones for every
  hand): any ``V`` keeps action terms unbiased, so it need not be exact there.

The corrected result ``u - sum(terms)`` has the mean of ``u``; the terms remove the luck of
the board and the known seats' own randomization.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from functools import lru_cache

import numpy as np

from pokerlab._types import CHANCE, FloatArray, IntArray
from pokerlab.cards.evaluator import evaluate_batch
from pokerlab.errors import PokerlabError
from pokerlab.eval.dealer import agent_name
from pokerlab.eval.records import HandRecord, MatchResult
from pokerlab.eval.sampling import deal_units
from pokerlab.eval.statistics import ControlVariateEstimate, control_variate_estimate
from pokerlab.games.base import Game
from pokerlab.games.holdem import HoldemGame
from pokerlab.games.holdem_state import HoldemState
from pokerlab.strategy import Policy

PREFLOP_SAMPLES = 2000
"""Runouts of the fixed preflop sample (the same for every hand, so ``V`` is a function)."""

FIRST_CHANCE_BOARD = 2
"""Chance terms apply to board cards dealt onto a board of at least this many cards.

At least 1: on an empty board ``E`` is an estimate, and a term ``E(h a) - E(h)`` is only
mean-zero when ``E(h)`` is exact. 1 would add the second flop card at 178,365 runouts a
hand; 2 (15,180 runouts) keeps a 20,000-deal match to minutes on two cores."""


@lru_cache(maxsize=8)
def _combinations(n: int, k: int) -> IntArray:
    """``[C(n, k), k]`` every k-subset of ``range(n)`` as index rows (cached)."""
    if k == 0:
        return np.zeros((1, 0), dtype=np.int64)
    flat = np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(n), k)),
                       dtype=np.int64)
    return flat.reshape(-1, k)


@lru_cache(maxsize=1)
def _preflop_sample() -> IntArray:
    """``[PREFLOP_SAMPLES, 5]`` fixed runouts, as indices into the 48 undealt cards."""
    rng = np.random.default_rng(0xA1BA7)
    return np.argsort(rng.random((PREFLOP_SAMPLES, 48)), axis=1)[:, :5]


def _showdown_share(first: tuple[int, ...], second: tuple[int, ...], board: tuple[int, ...],
                    runouts: IntArray) -> float:
    """Seat 0's mean share (win 1, tie 1/2) over ``runouts`` (card ids completing the board)."""
    n = runouts.shape[0]
    common = np.concatenate([np.broadcast_to(np.array(board, dtype=np.int64), (n, len(board))),
                             runouts], axis=1)
    mine = evaluate_batch(np.concatenate([np.broadcast_to(np.array(first), (n, 2)), common], 1))
    theirs = evaluate_batch(
        np.concatenate([np.broadcast_to(np.array(second), (n, 2)), common], 1)
    )
    return float(np.mean((mine > theirs) + 0.5 * (mine == theirs)))


@lru_cache(maxsize=65536)
def holdem_equity(first: tuple[int, ...], second: tuple[int, ...], board: tuple[int, ...]) -> float:
    """Seat 0's all-in equity with hole cards ``first`` against ``second`` on ``board``.

    Exact (every runout) on a board of 1 to 5 cards; on an empty board, the fixed
    :data:`PREFLOP_SAMPLES`-runout estimate (deterministic: the same cards give the same value).

    Raises:
        PokerlabError: for hands that are not two cards each or cards used twice.
    """
    used = (*first, *second, *board)
    if len(first) != 2 or len(second) != 2 or len(board) > 5 or len(set(used)) != len(used):
        raise PokerlabError(
            f"equity needs two distinct hole cards per seat and up to 5 board cards, no card "
            f"twice; got {first}, {second}, board {board}"
        )
    deck = np.array([c for c in range(52) if c not in used], dtype=np.int64)
    if not board:
        return _showdown_share(first, second, board, deck[_preflop_sample()])
    return _showdown_share(first, second, board, deck[_combinations(len(deck), 5 - len(board))])


def check_holdem_aivat(game: Game) -> HoldemGame:
    """The game as heads-up Texas Hold'em, or a clear error (AIVAT's equity values need it).

    Raises:
        PokerlabError: for any other game.
    """
    params = dict(game.spec.params)
    texas = all(params.get(key, default) == default for key, default in
                (("ranks", 13), ("suits", 4), ("hole", 2), ("board", "3,1,1")))
    if not isinstance(game, HoldemGame) or game.n_players != 2 or not texas:
        raise PokerlabError(
            f"Hold'em AIVAT needs heads-up Texas Hold'em (52 cards, 2 hole cards, board 3,1,1); "
            f"got {game.spec}"
        )
    return game


def _value(state: HoldemState) -> FloatArray:
    """``[2]`` the value function ``V`` of the module docstring at ``state``."""
    if state.is_terminal:
        return np.asarray(state.returns(), dtype=np.float64)
    hole = state.hole
    committed = np.asarray(state.contributions(), dtype=np.float64)
    pot = float(committed.sum())
    if len(hole) < 4:
        return pot / 2 - committed
    e0 = holdem_equity(tuple(hole[0::2]), tuple(hole[1::2]), tuple(state.board))
    return np.array([e0 * pot, (1.0 - e0) * pot]) - committed


def holdem_hand_corrections(
    game: Game,
    history: Sequence[int],
    policies: Sequence[Policy | None],
    *,
    chance: bool = True,
    actions: bool = True,
) -> FloatArray:
    """``[2]`` the sum of AIVAT's terms for each seat over one played hand.

    Args:
        game: heads-up Texas Hold'em.
        history: the hand's actions, chance outcomes included (``HandRecord.history``).
        policies: per seat, the policy that seat played, or None where unknown.
        chance: include the board-card terms.
        actions: include the known seats' action terms.

    Raises:
        PokerlabError: for another game, a policy count that is not one per seat, or a
            recorded action that the seat's claimed policy never plays (then the policy is
            not the one played, and the estimate would be biased).
    """
    holdem = check_holdem_aivat(game)
    if len(policies) != 2:
        raise PokerlabError(f"policies needs one entry per seat (2); got {len(policies)}")
    total = np.zeros(2)
    state = holdem.initial_state()
    for action in history:
        if state.is_terminal:
            raise PokerlabError(f"the history {tuple(history)} goes on after the hand ended")
        child = state.child(action)
        if state.player == CHANCE:
            if chance and len(state.hole) == 4 and len(state.board) >= FIRST_CHANCE_BOARD:
                total += _value(child) - _value(state)
        elif actions and policies[state.player] is not None:
            policy = policies[state.player]
            assert policy is not None
            probs = policy.action_probabilities(state.observation(state.player))
            if probs.get(action, 0.0) <= 0.0:
                raise PokerlabError(
                    f"seat {state.player} played {game.action_name(action)!r}, which its "
                    f"claimed policy never plays here ({state.infoset_key(state.player)!r}); "
                    "give only the policy the seat truly played"
                )
            expected = sum(
                (p * (_value(child) if b == action else _value(state.child(b)))
                 for b, p in probs.items() if p > 0.0),
                start=np.zeros(2),
            )
            total += _value(child) - expected
        state = child
    return total


def _seat_policy(game: Game, item: Policy | object | None) -> Policy | None:
    """A policy, or an agent exposing one; None stays None."""
    if item is None or isinstance(item, Policy):
        return item
    policy = getattr(item, "policy", None)
    if not isinstance(policy, Policy):
        raise PokerlabError(
            f"{agent_name(item)} exposes no policy on {game.spec}; give its policy or None"
        )
    return policy


def holdem_aivat_corrections(
    game: Game,
    hands: Sequence[HandRecord],
    policies: Sequence[Policy | object | None],
    *,
    chance: bool = True,
    actions: bool = True,
    progress: Callable[[int], None] | None = None,
) -> FloatArray:
    """``[hands, n_agents]`` each hand's summed terms, by agent (``record.seats`` maps seats).

    ``policies`` is per agent (match order): a policy, an agent exposing ``policy``, or None.
    ``progress`` is called with the number of hands done, every 100 hands and at the end.
    """
    known = [_seat_policy(game, p) for p in policies]
    out = np.zeros((len(hands), len(known)))
    for i, record in enumerate(hands):
        seat_policies = [known[agent] for agent in record.seats]
        terms = holdem_hand_corrections(game, record.history, seat_policies, chance=chance,
                                        actions=actions)
        for seat, agent in enumerate(record.seats):
            out[i, agent] = terms[seat]
        if progress is not None and ((i + 1) % 100 == 0 or i + 1 == len(hands)):
            progress(i + 1)
    return out


def holdem_aivat_estimates(
    game: Game,
    result: MatchResult,
    policies: Sequence[Policy | object | None],
    *,
    chance: bool = True,
    actions: bool = True,
    coefficient: float | None = 1.0,
) -> tuple[ControlVariateEstimate, ...]:
    """Each agent's AIVAT estimate of chips per hand in a heads-up Hold'em match.

    Args:
        game: the match's game (heads-up Texas Hold'em).
        result: the match (:func:`pokerlab.eval.play_match`).
        policies: per agent, its policy, the agent itself when it exposes ``policy``, or
            None where unknown (a wrong policy biases the estimate).
        chance: include board-card terms.
        actions: include the known agents' action terms.
        coefficient: 1.0 (plain AIVAT, exactly unbiased) or None to estimate the best one.

    Raises:
        PokerlabError: another game, a match of another game, or a policy count that is not
            one per agent.
    """
    check_holdem_aivat(game)
    if result.game != str(game.spec):
        raise PokerlabError(f"the match was played on {result.game}, not {game.spec}")
    if len(policies) != len(result.agent_names):
        raise PokerlabError(
            f"policies needs one entry per agent ({len(result.agent_names)}); got {len(policies)}"
        )
    corrections = holdem_aivat_corrections(game, result.hands, policies, chance=chance,
                                           actions=actions)
    values = np.asarray(result.agent_returns, dtype=np.float64)
    if result.duplicate:
        deals = np.array([r.deal for r in result.hands], dtype=np.int64)
        values, corrections = deal_units(values, deals), deal_units(corrections, deals)
    return tuple(
        control_variate_estimate(values[:, k], corrections[:, k], coefficient=coefficient)
        for k in range(len(policies))
    )


__all__ = [
    "FIRST_CHANCE_BOARD",
    "PREFLOP_SAMPLES",
    "check_holdem_aivat",
    "holdem_aivat_corrections",
    "holdem_aivat_estimates",
    "holdem_equity",
    "holdem_hand_corrections",
]
