"""LBR's logic on heads-up Leduc, valued exactly: the check that LBR stays below best response.

The same rules as :mod:`pokerlab.eval.lbr` (a Bayes range over the opponent's private
card, equity against it, the fold probability after a raise, the utilities of fold, call and
raise) on a game small enough to enumerate: chance is walked exactly instead of sampled, and
the equity before the board averages over every board card. :func:`leduc_lbr_value` returns
LBR's expected winnings against a policy, to compare with the exact best response
(:func:`pokerlab.eval.best_response`): LBR is one pure strategy, so its value can never exceed
the best response's.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from numpy.typing import NDArray

from pokerlab._types import CHANCE, TERMINAL, Action
from pokerlab.errors import SpecError
from pokerlab.games.leduc import CALL, FOLD, RAISE, LeducGame, LeducState
from pokerlab.strategy.policy import Policy


def _range(policy: Policy, state: LeducState, lbr: int) -> NDArray[np.float64]:
    """The opponent's card weights at ``state``: the deal prior times its policy's actions."""
    game = state.leduc
    opponent = 1 - lbr
    weights = np.zeros(game.n_cards)
    root = game.initial_state()
    for card in range(game.n_cards):
        if card in (state.private[lbr], state.board):
            continue
        weight = 1.0
        replay: LeducState = root
        for action in state.history:
            if replay.player == CHANCE and len(replay.private) == opponent:
                action = card
            if replay.player == opponent:
                probabilities = policy.action_probabilities(replay.observation(opponent))
                weight *= probabilities.get(action, 0.0)
            if replay.player == CHANCE and not replay.is_legal(action):
                weight = 0.0  # the swapped card collides with a later deal
                break
            child = replay.child(action)
            assert isinstance(child, LeducState)
            replay = child
        weights[card] = weight
    return weights


def _win(game: LeducGame, mine: int, theirs: int, board: int) -> float:
    """1, 0.5 or 0: the showdown of ``mine`` against ``theirs`` on ``board``."""
    a, b, c = game.rank(mine), game.rank(theirs), game.rank(board)
    if a == c and b != c:
        return 1.0
    if b == c and a != c:
        return 0.0
    return 1.0 if a > b else 0.5 if a == b else 0.0


def _equity(state: LeducState, lbr: int, weights: NDArray[np.float64]) -> float:
    game = state.leduc
    mine = state.private[lbr]
    total = mass = 0.0
    boards = [state.board] if state.board >= 0 else range(game.n_cards)
    for board in boards:
        for card in np.flatnonzero(weights > 0):
            if board in (mine, int(card)):
                continue
            total += weights[card] * _win(game, mine, int(card), board)
            mass += weights[card]
    return total / mass if mass > 0 else 0.5


def lbr_action(policy: Policy, state: LeducState, lbr: int) -> Action:
    """LBR's action at its own decision ``state`` (the utilities of the Hold'em LBR)."""
    weights = _range(policy, state, lbr)
    wp = _equity(state, lbr, weights)
    pot = float(sum(state.committed))
    asked = float(max(state.committed) - state.committed[lbr])
    legal = state.legal_actions()
    best_action, best = CALL, wp * (pot + asked) - asked
    if FOLD in legal and best < 0:
        best_action, best = FOLD, 0.0
    if RAISE in legal:
        child = state.child(RAISE)
        assert isinstance(child, LeducState)
        c = float(child.committed[lbr] - state.committed[lbr])
        fold = 0.0
        if child.player == 1 - lbr and weights.sum() > 0:
            for card in np.flatnonzero(weights > 0):
                swapped = dataclasses.replace(
                    child, private=tuple(int(card) if p != lbr else x
                                         for p, x in enumerate(child.private)),
                )  # fmt: skip
                probabilities = policy.action_probabilities(swapped.observation(1 - lbr))
                fold += weights[card] * probabilities.get(FOLD, 0.0)
            fold /= weights.sum()
        value = fold * pot + (1 - fold) * (wp * (pot + 2 * c - asked) - c)
        if value > best:
            best_action = RAISE
    return best_action


def leduc_lbr_value(game: LeducGame, policy: Policy, lbr: int) -> float:
    """LBR's exact expected winnings (chips per hand) as player ``lbr`` against ``policy``.

    Raises:
        SpecError: if the game is not heads-up Leduc or ``lbr`` not 0 or 1.
    """
    if not isinstance(game, LeducGame) or game.n_players != 2:
        raise SpecError("leduc_lbr_value needs heads-up Leduc")
    if lbr not in (0, 1):
        raise SpecError(f"lbr must be player 0 or 1; got {lbr!r}")

    def child(state: LeducState, action: Action) -> LeducState:
        after = state.child(action)
        assert isinstance(after, LeducState)
        return after

    def walk(state: LeducState) -> float:
        if state.player == TERMINAL:
            return float(state.returns()[lbr])
        if state.player == lbr:
            return walk(child(state, lbr_action(policy, state, lbr)))
        if state.player == CHANCE:
            branches = list(state.chance_outcomes())
        else:
            branches = list(policy.action_probabilities(state.observation(state.player)).items())
        value = 0.0
        for action, p in branches:
            if p > 0:
                value += p * walk(child(state, action))
        return value

    return walk(game.initial_state())


__all__ = ["lbr_action", "leduc_lbr_value"]
