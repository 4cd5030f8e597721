"""The tutorial's simple all-in game (push/fold), solved by CFR+ and measured exactly.

Section 3 explains equilibrium with "a simple all-in game where one player must either
fold or bet all his chips and the second player must either call or fold". Here: a deck
of ``cards`` ranks, one distinct card each (the higher wins a showdown); P1 posts the small
blind 0.5, P2 the big blind 1, each has ``stack`` chips in all. P1 folds (losing 0.5) or
pushes; P2 then folds (losing 1) or calls, and the showdown wins or loses ``stack``.

Each card is an infoset with two actions, so CFR+ runs on vectors: ``push[i]`` is P1's
push probability with card i, ``call[j]`` P2's call probability with card j. The
exploitability of the average is exact (best responses card by card).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pokerlab.errors import PokerlabError
from pokerlab.strategy.regrets import regret_matching_strategy

SMALL_BLIND = 0.5
BIG_BLIND = 1.0


@dataclass(frozen=True)
class PushFoldSolution:
    """The averaged CFR+ strategies, P1's value and the profile's exploitability (chips)."""

    cards: int
    stack: float
    push: np.ndarray
    call: np.ndarray
    value: float
    exploitability: float


def _showdown(cards: int) -> np.ndarray:
    """``[i, j]``: +1 if P1's card i beats P2's j, -1 if it loses, 0 on the diagonal."""
    ranks = np.arange(cards)
    signs: np.ndarray = np.sign(ranks[:, None] - ranks[None, :]).astype(np.float64)
    return signs


def _action_values(
    push: np.ndarray, call: np.ndarray, stack: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per card, each action's value summed over the opponent's cards (P1 and P2 views)."""
    n = len(push)
    win = _showdown(n)
    other = 1.0 - np.eye(n)  # the opponent holds any other card
    p1_push = other @ (1.0 - call) * BIG_BLIND + (win * stack) @ call
    p1_fold = np.full(n, -SMALL_BLIND * (n - 1))
    p2_call = (-win.T * stack) @ push  # P2 with card j against P1's pushing cards i
    p2_fold = -BIG_BLIND * (other @ push)
    return p1_push, p1_fold, p2_call, p2_fold


def value_and_exploitability(
    push: np.ndarray, call: np.ndarray, stack: float
) -> tuple[float, float]:
    """P1's expected value and the profile's exploitability, both exact, in chips a hand."""
    n = len(push)
    pairs = n * (n - 1)
    p1_push, p1_fold, p2_call, p2_fold = _action_values(push, call, stack)
    value = float(push @ p1_push + (1 - push) @ p1_fold) / pairs
    # P2's action values count only the hands P1 pushes; P1's folds give P2 the small
    # blind whatever P2 would do, so they are added once here.
    p2_base = SMALL_BLIND * float((1 - push) @ (np.ones(n) * (n - 1)))
    br1 = float(np.maximum(p1_push, p1_fold).sum()) / pairs
    br2 = (float(np.maximum(p2_call, p2_fold).sum()) + p2_base) / pairs
    return value, 0.5 * (br1 + br2)


def solve_push_fold(
    cards: int = 13, stack: float = 10.0, iterations: int = 2000
) -> PushFoldSolution:
    """Solve the push/fold game by CFR+ (regrets floored at 0, alternating, linear average)."""
    if cards < 2:
        raise PokerlabError(f"cards must be at least 2 (one each); got {cards}")
    if not stack > BIG_BLIND:
        raise PokerlabError(f"stack must exceed the big blind {BIG_BLIND}; got {stack}")
    if iterations < 1:
        raise PokerlabError(f"iterations must be at least 1; got {iterations}")
    regrets = np.zeros((2, cards, 2))  # [player, card, (fold, push|call)]
    sums = np.zeros((2, cards))
    weights = 0.0

    def current(player: int) -> np.ndarray:
        """P(push or call) of each card: regret matching on (fold, push|call)."""
        return regret_matching_strategy(regrets[player], check=False)[:, 1]

    for t in range(1, iterations + 1):
        push, call = current(0), current(1)
        p1_push, p1_fold, _, _ = _action_values(push, call, stack)
        mean = push * p1_push + (1 - push) * p1_fold
        regrets[0, :, 0] = np.maximum(regrets[0, :, 0] + p1_fold - mean, 0.0)
        regrets[0, :, 1] = np.maximum(regrets[0, :, 1] + p1_push - mean, 0.0)
        push_now = current(0)
        _, _, p2_call, p2_fold = _action_values(push_now, call, stack)
        mean = call * p2_call + (1 - call) * p2_fold
        regrets[1, :, 0] = np.maximum(regrets[1, :, 0] + p2_fold - mean, 0.0)
        regrets[1, :, 1] = np.maximum(regrets[1, :, 1] + p2_call - mean, 0.0)
        # P1's reach of its infoset is 1, P2's (facing a push) is its own call probability
        sums[0] += t * push
        sums[1] += t * call
        weights += t
    push, call = sums[0] / weights, sums[1] / weights
    value, exploit = value_and_exploitability(push, call, stack)
    return PushFoldSolution(cards, stack, push, call, value, exploit)
