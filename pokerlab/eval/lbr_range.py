"""The opponent's range for local best response: Bayes over hole-card pairs, and equity.

A *range* is a weight for each of the 1,326 hole-card pairs (:data:`PAIRS`). Cards seen
zero the pairs holding them; after each opponent action ``a`` every pair's weight is
multiplied by the opponent policy's probability of ``a`` with that pair. The policy is
asked through the :class:`~pokerlab.strategy.Policy` contract, with the observation's
private cards swapped for each pair; two optional, faster answers are used when the
policy offers them: ``action_probabilities_batch(observations)`` (all pairs in one call)
and ``pair_probabilities(observation, pairs) -> [pairs, legal]`` (a blueprint: card ids in
one array, no observation built per pair).

Equity against a range is scored per pair (:func:`pair_scores`), so that LBR can value a
raise against the part of the range that continues without sampling runouts again.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from pokerlab._types import Action
from pokerlab.cards import cards_str
from pokerlab.errors import SpecError
from pokerlab.games.holdem import HoldemState
from pokerlab.games.holdem_pots import hand_value_array
from pokerlab.games.observation import Observation

PAIRS: NDArray[np.int64] = np.array(list(itertools.combinations(range(52), 2)), dtype=np.int64)
"""The 1,326 hole-card pairs ``(low card, high card)``, the range's index."""
HAS_CARD = np.zeros((52, len(PAIRS)), dtype=bool)
"""``HAS_CARD[card, pair]``: whether ``pair`` holds ``card``."""
HAS_CARD[PAIRS[:, 0], np.arange(len(PAIRS))] = True
HAS_CARD[PAIRS[:, 1], np.arange(len(PAIRS))] = True
_PAIR_TEXT = tuple(cards_str((int(b), int(a))) for a, b in PAIRS)  # high card first, as dealt


class PolicyLike(Protocol):
    """What LBR needs of the opponent: ``action_probabilities(observation)`` (a Policy)."""

    def action_probabilities(self, observation: Observation) -> Mapping[Action, float]:
        """``{action: probability}`` over the legal actions."""
        ...


def deck_range(deck: Sequence[int]) -> NDArray[np.float64]:
    """The uniform range of a deck: 1 for every pair of two of its cards, 0 elsewhere."""
    outside = np.setdiff1d(np.arange(52), np.asarray(deck, dtype=np.int64))
    held = np.asarray(HAS_CARD[outside].any(axis=0), dtype=bool)
    return np.where(held, 0.0, 1.0)


def without_cards(
    weights: NDArray[np.float64], cards: Sequence[int] | NDArray[np.int64]
) -> NDArray[np.float64]:
    """``weights`` with every pair holding one of ``cards`` set to 0."""
    if not len(cards):
        return weights
    return weights * ~HAS_CARD[np.asarray(cards, dtype=np.int64)].any(axis=0)


def opponent_probabilities(
    policy: PolicyLike, state: HoldemState, weights: NDArray[np.float64]
) -> tuple[tuple[Action, ...], NDArray[np.float64]]:
    """The policy's probabilities of each legal action for every live pair: ``[1326, n]``.

    Rows of pairs with weight 0 are 0. The player to act at ``state`` is the opponent;
    its own (stand-in) cards are replaced by each pair in turn.

    Raises:
        SpecError: if the observation's infoset key does not start with its private cards.
    """
    seat = state.to_act
    base = state.observation(seat)
    own = base.private_cards
    legal = base.legal_actions
    column = {a: i for i, a in enumerate(legal)}
    rest = base.infoset_key[len(own):]
    if not base.infoset_key.startswith(own):
        raise SpecError(f"cannot swap the cards of the infoset key {base.infoset_key!r}")
    table = np.zeros((len(PAIRS), len(legal)))
    live = np.flatnonzero(weights > 0)
    pair_probabilities = getattr(policy, "pair_probabilities", None)
    if pair_probabilities is not None:
        table[live] = pair_probabilities(base, PAIRS[live])
        return legal, table
    observations = [
        Observation(
            base.game, seat, _PAIR_TEXT[i] + rest, legal, base.action_names,
            base.public_history, _PAIR_TEXT[i], base.board, base.committed, base.stacks,
        )
        for i in live
    ]  # fmt: skip
    batch = getattr(policy, "action_probabilities_batch", None)
    answers = batch(observations) if batch is not None else map(
        policy.action_probabilities, observations
    )
    for index, answer in zip(live, answers, strict=True):
        for action, p in answer.items():
            if p:  # no-limit: most of the ~200 legal raises get 0
                table[index, column[action]] = p
    return legal, table


def pair_scores(
    hole: tuple[int, int],
    board: tuple[int, ...],
    weights: NDArray[np.float64],
    rng: np.random.Generator,
    rollouts: int,
    *,
    deck: Sequence[int] = tuple(range(52)),
    board_size: int = 5,
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """``(score, count)`` per pair: ``hole``'s showdown points against it, and runouts counted.

    A runout is the board completed to ``board_size`` cards: every one of them when there
    are at most ``rollouts``, else ``rollouts`` sampled ones. Against each live pair that
    holds no card of a runout, ``hole`` scores 1 (wins), 1/2 (ties) or 0. The equity against
    any range ``w`` over these pairs is then ``w @ score / w @ count``
    (:func:`equity_of`): the same runouts value every sub-range.
    """
    known = np.array([*hole, *board], dtype=np.int64)
    missing = board_size - len(board)
    rest = np.setdiff1d(np.asarray(deck, dtype=np.int64), known)
    live = without_cards(weights, known)
    score = np.zeros(len(PAIRS))
    count = np.zeros(len(PAIRS))
    index = np.flatnonzero(live > 0)
    if not len(index):
        return score, count
    boards = np.array(board, dtype=np.int64).reshape(1, len(board))
    if missing and math.comb(len(rest), missing) <= rollouts:  # every runout, exactly
        drawn = np.array(list(itertools.combinations(rest.tolist(), missing)), dtype=np.int64)
        boards = np.concatenate([np.repeat(boards, len(drawn), axis=0), drawn], axis=1)
    elif missing:  # each runout: ``missing`` distinct cards of the deck, uniformly
        drawn = rest[np.argsort(rng.random((rollouts, len(rest))), axis=1)[:, :missing]]
        boards = np.concatenate([np.repeat(boards, rollouts, axis=0), drawn], axis=1)
    # Every runout at once: LBR's value on each, then the value of each live pair that
    # holds no card of that runout (one evaluator call for all of them).
    mine = hand_value_array(np.concatenate([np.broadcast_to(hole, (len(boards), 2)), boards],
                                           axis=1))
    clear = ~HAS_CARD[boards[:, len(board):]][:, :, index].any(axis=1)  # [runouts, pairs]
    run, pair = np.nonzero(clear)
    theirs = hand_value_array(np.concatenate([PAIRS[index[pair]], boards[run]], axis=1))
    points = (mine[run] > theirs) + 0.5 * (mine[run] == theirs)
    np.add.at(score, index[pair], points)
    np.add.at(count, index[pair], 1.0)
    return score, count


def equity_of(
    weights: NDArray[np.float64], scores: tuple[NDArray[np.float64], NDArray[np.float64]]
) -> float:
    """The equity against the range ``weights`` from :func:`pair_scores` (1/2 if empty)."""
    score, count = scores
    mass = float(weights @ count)
    return float(weights @ score) / mass if mass > 0 else 0.5


def win_probability(
    hole: tuple[int, int],
    board: tuple[int, ...],
    weights: NDArray[np.float64],
    rng: np.random.Generator,
    rollouts: int,
) -> float:
    """Equity of ``hole`` against the range ``weights`` in Texas Hold'em (52 cards).

    Exact with 5 board cards (and whenever every runout fits in ``rollouts``), sampled
    before; ties count half. Pairs that collide with a runout are left out of that runout.
    """
    return equity_of(weights, pair_scores(hole, board, weights, rng, rollouts))


__all__ = [
    "HAS_CARD",
    "PAIRS",
    "PolicyLike",
    "deck_range",
    "equity_of",
    "opponent_probabilities",
    "pair_scores",
    "win_probability",
    "without_cards",
]
