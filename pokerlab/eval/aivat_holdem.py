"""AIVAT on Texas Hold'em (2 to 6 seats): equity values, chance and action terms.

Hold'em is far too big for the exact history values of :mod:`pokerlab.eval.aivat`, but AIVAT
is unbiased for *any* value function ``V`` as long as each term's expectation is computed
exactly for that ``V``: only the variance depends on it. Here, for seat ``p`` at a history
``h`` (every card known: AIVAT runs after the hand, with every hand shown by the record)::

    V_p(h) = S_p(h) * pot(h) - committed_p(h)        (h not terminal)
    V_p(h) = the chips seat p won                      (h terminal)

with ``S_p`` seat ``p``'s all-in share of the pot (win 1, ties split; 0 once folded) against
the hands still in, on the board dealt so far:

- on a board of 1 to 5 cards, exact (every runout);
- before the flop, heads-up: the 169 x 169 class-pair table of
  :mod:`pokerlab.eval.preflop_equity` (a fixed function of the two hands' classes);
  with 3 to 6 seats: a fixed sample of :data:`PREFLOP_SAMPLES` runouts (the same for every
  hand, so ``V`` is a function of the cards).

Chance terms ``V(h a) - sum_b P(b) V(h b)``, heads-up:

- the hole cards, as one chance event (all four cards): ``pot * (T(deal) - mean T)``, the
  mean over all 1,624,350 deals computed exactly from the table (it is 1/2);
- the flop, as one chance event (three cards): ``pot * (E_flop - E_preflop)``, where the
  mean of exact flop equity over the 17,296 flops is exact preflop equity (every 5-card
  runout: :func:`preflop_equity_exact`, the card layer's enumeration, about 65 ms a deal);
- the turn and the river: ``pot * (E(h a) - E(h))`` (exact equity is a martingale when
  the next card is uniform over the undealt ones).

With ``early_chance=False`` the hole cards and the first two flop cards get no term and the
third flop card gets ``pot * (E(3 cards) - E(2 cards))`` (15,180 runouts; no exact preflop
equity needed). With 3 to 6 seats the chance terms are the third flop card, the turn and
the river, each expectation taken by enumerating every next card (so side pots, folds and
all-in runouts need no special case), or, with ``early_chance``, the whole flop as one
event (``pot * (S_flop - S_preflop)`` with the exact preflop shares of the hands still in,
:func:`preflop_shares_exact`; no runout ends the hand before the turn, so no side pot
enters) with the turn and the river enumerated; the hole cards get no term.

Action terms ``V(h a) - sum_b sigma(b | I) V(h b)`` at every decision of a seat whose policy
``sigma`` is known (an agent exposing ``policy``: easy, ehs, always-call, ...).

The corrected result ``u - sum(terms)`` has the mean of ``u``; the terms remove the luck of
the cards and the known seats' own randomization.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from functools import lru_cache

import numpy as np

from pokerlab._types import CHANCE, FloatArray, IntArray
from pokerlab.cards.equity import equity
from pokerlab.cards.evaluator import evaluate_batch
from pokerlab.errors import PokerlabError
from pokerlab.eval.match_result import MatchResult
from pokerlab.eval.preflop_equity import class_pair_equity, class_pair_mean, hand_class_id
from pokerlab.eval.sampling import deal_units
from pokerlab.eval.statistics import ControlVariateEstimate, control_variate_estimate
from pokerlab.games.base import Game
from pokerlab.games.holdem import HoldemGame
from pokerlab.games.holdem_state import HoldemState
from pokerlab.play.dealer import agent_name
from pokerlab.play.records import HandRecord
from pokerlab.strategy import Policy

PREFLOP_SAMPLES = 2000
"""Runouts of the fixed preflop sample with 3 to 6 seats (the same for every hand)."""

MAX_SEATS = 6
"""The most seats Hold'em AIVAT values (exact n-way equity stays cheap up to 6 hands)."""


@lru_cache(maxsize=8)
def _combinations(n: int, k: int) -> IntArray:
    """``[C(n, k), k]`` every k-subset of ``range(n)`` as index rows (cached)."""
    if k == 0:
        return np.zeros((1, 0), dtype=np.int64)
    flat = np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(n), k)),
                       dtype=np.int64)
    return flat.reshape(-1, k)


@lru_cache(maxsize=8)
def _preflop_sample(n_deck: int) -> IntArray:
    """``[PREFLOP_SAMPLES, 5]`` fixed runouts, as indices into the ``n_deck`` undealt cards."""
    rng = np.random.default_rng(0xA1BA7)
    return np.argsort(rng.random((PREFLOP_SAMPLES, n_deck)), axis=1)[:, :5]


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


@lru_cache(maxsize=4096)
def preflop_equity_exact(first: tuple[int, ...], second: tuple[int, ...]) -> float:
    """Seat 0's exact all-in equity before the flop (all 1,712,304 runouts; about 65 ms).

    It is the exact mean over the 17,296 flops of the exact flop equity, which makes the
    whole-flop chance term mean zero. Cached (the same deal is played in both seats).
    """
    result = equity([list(first), list(second)])
    assert result.exact
    return float(result.equity[0])


@lru_cache(maxsize=1024)
def preflop_shares_exact(
    hands: tuple[tuple[int, ...], ...], dead: tuple[int, ...] = ()
) -> FloatArray:
    """Each hand's exact share of the pot before the flop, 2 to 6 hands, ``dead`` cards out.

    Every runout, by the card layer's enumeration (0.1 to 0.5 s for 3 to 6 hands on two
    loaded cores). The exact mean over the flops of the exact flop shares, which makes the
    whole-flop chance term mean zero with 3 to 6 seats. Cached.
    """
    result = equity([list(hand) for hand in hands], dead=list(dead))
    assert result.exact
    out = np.array(result.equity, dtype=np.float64)
    out.setflags(write=False)
    return out


@lru_cache(maxsize=65536)
def holdem_equity(first: tuple[int, ...], second: tuple[int, ...], board: tuple[int, ...]) -> float:
    """Seat 0's exact all-in equity with hole cards ``first`` against ``second`` on ``board``.

    Every runout of the board (0 to 5 cards; an empty board by the card layer's exact
    enumeration, :func:`preflop_equity_exact`).

    Raises:
        PokerlabError: for hands that are not two cards each or cards used twice.
    """
    used = (*first, *second, *board)
    if len(first) != 2 or len(second) != 2 or len(board) > 5 or len(set(used)) != len(used):
        raise PokerlabError(
            f"equity needs two distinct hole cards per seat and up to 5 board cards, no card "
            f"twice; got {first}, {second}, board {board}"
        )
    if not board:
        return preflop_equity_exact(first, second)
    deck = np.array([c for c in range(52) if c not in used], dtype=np.int64)
    return _showdown_share(first, second, board, deck[_combinations(len(deck), 5 - len(board))])


def _shares(hands: Sequence[tuple[int, ...]], board: tuple[int, ...],
            dead: tuple[int, ...] = ()) -> FloatArray:
    """``[len(hands)]`` each hand's mean share of the pot (ties split) over every runout.

    Exact on a board of 1 to 5 cards; on an empty board, the fixed preflop sample. ``dead``
    cards (folded hands) are in no runout.
    """
    used = [c for hand in hands for c in hand] + list(board) + list(dead)
    deck = np.array([c for c in range(52) if c not in used], dtype=np.int64)
    if board:
        runouts = deck[_combinations(len(deck), 5 - len(board))]
    else:
        runouts = deck[_preflop_sample(len(deck))]
    n = runouts.shape[0]
    common = np.concatenate(
        [np.broadcast_to(np.array(board, dtype=np.int64), (n, len(board))), runouts], axis=1
    )
    values = np.stack([
        evaluate_batch(np.concatenate([np.broadcast_to(np.array(hand), (n, 2)), common], 1))
        for hand in hands
    ], axis=1)
    winners = values == values.max(axis=1, keepdims=True)
    shares: FloatArray = (winners / winners.sum(axis=1, keepdims=True)).mean(axis=0)
    return shares


@lru_cache(maxsize=65536)
def _cached_shares(hands: tuple[tuple[int, ...], ...], board: tuple[int, ...],
                   dead: tuple[int, ...]) -> FloatArray:
    """:func:`_shares`, cached (a hand's values are asked several times)."""
    out = _shares(hands, board, dead)
    out.setflags(write=False)
    return out


def check_holdem_aivat(game: Game) -> HoldemGame:
    """The game as Texas Hold'em with 2 to 6 seats, or a clear error (AIVAT's values need it).

    Raises:
        PokerlabError: for any other game.
    """
    params = dict(game.spec.params)
    texas = all(params.get(key, default) == default for key, default in
                (("ranks", 13), ("suits", 4), ("hole", 2), ("board", "3,1,1")))
    if not isinstance(game, HoldemGame) or not 2 <= game.n_players <= MAX_SEATS or not texas:
        raise PokerlabError(
            f"Hold'em AIVAT needs Texas Hold'em with 2 to {MAX_SEATS} seats (52 cards, 2 hole "
            f"cards, board 3,1,1); got {game.spec}"
        )
    return game


def _value(state: HoldemState) -> FloatArray:
    """``[n]`` the value function ``V`` of the module docstring at ``state``."""
    if state.is_terminal:
        return np.asarray(state.returns(), dtype=np.float64)
    n = state.game.n_players
    hole = state.hole
    committed = np.asarray(state.committed, dtype=np.float64)
    pot = float(committed.sum())
    folded = state.folded
    live = [p for p in range(n) if not folded[p]]
    if len(hole) < 2 * n:
        share = np.zeros(n)
        share[live] = 1.0 / len(live)
        return share * pot - committed
    board = tuple(state.board)
    if n == 2:
        first, second = tuple(hole[0::2]), tuple(hole[1::2])
        if board:
            e0 = holdem_equity(first, second, board)
        else:
            e0 = float(class_pair_equity()[hand_class_id(*first), hand_class_id(*second)])
        return np.array([e0 * pot, (1.0 - e0) * pot]) - committed
    share = np.zeros(n)
    dead = tuple(c for p in range(n) if folded[p] for c in hole[p::n])
    share[live] = _cached_shares(tuple(tuple(hole[p::n]) for p in live), board, dead)
    return share * pot - committed


@lru_cache(maxsize=1)
def _table_mean() -> float:
    """The class-pair table's exact mean over every deal (computed once per process)."""
    return class_pair_mean(class_pair_equity())


def _expected_next(state: HoldemState) -> FloatArray:
    """``[n]`` ``sum_b P(b) V(h b)`` over every next card ``b`` of the chance node ``state``."""
    total = np.zeros(state.game.n_players)
    for card, probability in state.chance_outcomes():
        total += probability * _value(state.child(card))
    return total


def _chance_term(state: HoldemState, child: HoldemState, *, early: bool) -> FloatArray | None:
    """The chance term of dealing ``child`` from ``state``, or None where none applies."""
    n = state.game.n_players
    hole, board = state.hole, state.board
    if len(hole) < 2 * n:
        if not (early and n == 2 and len(child.hole) == 4):
            return None
        # The whole deal as one event: the mean of V over every deal, from the table.
        committed = np.asarray(state.committed, dtype=np.float64)
        pot = float(committed.sum())
        mean = _table_mean()
        return _value(child) - (np.array([mean * pot, (1.0 - mean) * pot]) - committed)
    if len(board) < 2:
        return None
    if n > 2:
        if len(board) == 2 and early:
            # The whole flop as one event: the mean of exact flop shares is the exact
            # preflop share of the hands still in (folded hands dead).
            committed = np.asarray(state.committed, dtype=np.float64)
            folded = state.folded
            live = [p for p in range(n) if not folded[p]]
            dead = tuple(c for p in range(n) if folded[p] for c in hole[p::n])
            share = np.zeros(n)
            share[live] = preflop_shares_exact(tuple(tuple(hole[p::n]) for p in live), dead)
            return _value(child) - (share * float(committed.sum()) - committed)
        return _value(child) - _expected_next(state)
    if len(board) == 2 and early:
        # The whole flop as one event: the mean of exact flop equity is exact preflop equity.
        committed = np.asarray(state.committed, dtype=np.float64)
        pot = float(committed.sum())
        e0 = preflop_equity_exact(tuple(hole[0::2]), tuple(hole[1::2]))
        return _value(child) - (np.array([e0 * pot, (1.0 - e0) * pot]) - committed)
    return _value(child) - _value(state)


def holdem_hand_corrections(
    game: Game,
    history: Sequence[int],
    policies: Sequence[Policy | None],
    *,
    chance: bool = True,
    actions: bool = True,
    early_chance: bool = True,
) -> FloatArray:
    """``[n_seats]`` the sum of AIVAT's terms for each seat over one played hand.

    Args:
        game: Texas Hold'em with 2 to 6 seats.
        history: the hand's actions, chance outcomes included (``HandRecord.history``).
        policies: per seat, the policy that seat played, or None where unknown.
        chance: include the chance terms.
        actions: include the known seats' action terms.
        early_chance: the whole-flop term (and heads-up the hole-card term); False: board
            terms from the third flop card on only, as before (no exact preflop equity).

    Raises:
        PokerlabError: for another game, a policy count that is not one per seat, or a
            recorded action that the seat's claimed policy never plays (then the policy is
            not the one played, and the estimate would be biased).
    """
    holdem = check_holdem_aivat(game)
    n = holdem.n_players
    if len(policies) != n:
        raise PokerlabError(f"policies needs one entry per seat ({n}); got {len(policies)}")
    total = np.zeros(n)
    state = holdem.initial_state()
    for action in history:
        if state.is_terminal:
            raise PokerlabError(f"the history {tuple(history)} goes on after the hand ended")
        child = state.child(action)
        if state.player == CHANCE:
            term = _chance_term(state, child, early=early_chance) if chance else None
            if term is not None:
                total += term
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
                start=np.zeros(n),
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
    progress: Callable[[int], None] | None = None,
) -> tuple[ControlVariateEstimate, ...]:
    """Each agent's AIVAT estimate of chips per hand in a Hold'em match (2 to 6 seats).

    Args:
        game: the match's game (Texas Hold'em, 2 to 6 seats).
        result: the match (:func:`pokerlab.eval.play_match`).
        policies: per agent, its policy, the agent itself when it exposes ``policy``, or
            None where unknown (a wrong policy biases the estimate).
        chance: include board-card terms.
        actions: include the known agents' action terms.
        coefficient: 1.0 (plain AIVAT, exactly unbiased) or None to estimate the best one.
        progress: called with the hands done, every 100 hands and at the end.

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
                                           actions=actions, progress=progress)
    values = np.asarray(result.agent_returns, dtype=np.float64)
    if result.duplicate:
        deals = np.array([r.deal for r in result.hands], dtype=np.int64)
        values, corrections = deal_units(values, deals), deal_units(corrections, deals)
    return tuple(
        control_variate_estimate(values[:, k], corrections[:, k], coefficient=coefficient)
        for k in range(len(policies))
    )


__all__ = [
    "MAX_SEATS",
    "PREFLOP_SAMPLES",
    "check_holdem_aivat",
    "holdem_aivat_corrections",
    "holdem_aivat_estimates",
    "holdem_equity",
    "holdem_hand_corrections",
    "preflop_equity_exact",
    "preflop_shares_exact",
]
