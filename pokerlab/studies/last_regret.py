"""The Kuhn CFR repository's two variants: cumulative regret matching vs last-iteration regrets.

The tutorial's companion repository ships ``main.py`` (the next strategy matches the
total regret over all iterations: CFR) and ``kuhn.py`` (the next strategy matches only
the previous iteration's regrets; the answer is the average over iterations), and says
the second gives "almost accurate results". This module runs both on any two-player game
with the same full-width, simultaneous-update CFR and measures each average strategy's
exploitability exactly, so "almost" gets a number.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import numpy as np

from pokerlab.errors import PokerlabError
from pokerlab.eval import exploitability
from pokerlab.games import Game
from pokerlab.games.base import State
from pokerlab.strategy import Strategy
from pokerlab.strategy.regrets import regret_matching_strategy

VARIANTS = ("cumulative", "last-iteration")


@dataclass(frozen=True)
class RegretRun:
    """The average strategy's exploitability after each of the checkpoints."""

    variant: str
    checkpoints: tuple[int, ...]
    exploitability: tuple[float, ...]
    average: Strategy


def run_variant(game: Game, variant: str, checkpoints: tuple[int, ...]) -> RegretRun:
    """Run CFR with the variant's regret memory; measure the average at each checkpoint."""
    if variant not in VARIANTS:
        raise PokerlabError(f"unknown variant {variant!r}; choose one of {', '.join(VARIANTS)}")
    if game.n_players != 2:
        raise PokerlabError(f"this comparison is for two-player games; got {game.n_players}")
    if (
        not checkpoints
        or any(c < 1 for c in checkpoints)
        or list(checkpoints) != sorted(checkpoints)
    ):
        raise PokerlabError(
            f"checkpoints must be increasing iteration counts >= 1; got {checkpoints}"
        )
    regrets: dict[str, np.ndarray] = {}
    sums: dict[str, np.ndarray] = {}
    root = game.initial_state()
    measured: list[float] = []
    average = Strategy.uniform(game)
    for t in range(1, checkpoints[-1] + 1):
        step: dict[str, np.ndarray] = defaultdict(lambda: np.zeros(0))
        strategy = {key: regret_matching_strategy(r) for key, r in regrets.items()}
        _traverse(root, (1.0, 1.0), 1.0, strategy, step, sums)
        for key, r in step.items():
            if variant == "cumulative":
                regrets[key] = regrets.get(key, np.zeros(len(r))) + r
            else:
                regrets[key] = r
        if t in checkpoints:
            average = Strategy.from_dict(
                game, {k: (s / s.sum()).tolist() for k, s in sums.items()}, default="error"
            )
            measured.append(exploitability(game, average))
    return RegretRun(variant, tuple(checkpoints), tuple(measured), average)


def _traverse(
    state: State,
    reach: tuple[float, float],
    chance: float,
    strategy: dict[str, np.ndarray],
    step: dict[str, np.ndarray],
    sums: dict[str, np.ndarray],
) -> np.ndarray:
    """Both players' expected returns below the state; accumulates regrets and reach sums."""
    if state.is_terminal:
        return np.asarray(state.returns(), dtype=np.float64)
    if state.is_chance:
        return sum(
            (p * _traverse(state.child(a), reach, chance * p, strategy, step, sums)
             for a, p in state.chance_outcomes()),
            np.zeros(2),
        )  # fmt: skip
    player = state.player
    key = state.infoset_key()
    actions = state.legal_actions()
    probs = strategy.get(key, np.full(len(actions), 1.0 / len(actions)))
    values = np.empty((len(actions), 2))
    for i, action in enumerate(actions):
        child_reach = (
            (reach[0] * probs[i], reach[1]) if player == 0 else (reach[0], reach[1] * probs[i])
        )
        values[i] = _traverse(state.child(action), child_reach, chance, strategy, step, sums)
    node_value = probs @ values
    counterfactual = chance * reach[1 - player]
    regret = counterfactual * (values[:, player] - node_value[player])
    step[key] = regret if step[key].size == 0 else step[key] + regret
    sums[key] = sums.get(key, np.zeros(len(actions))) + reach[player] * probs
    return np.asarray(node_value, dtype=np.float64)
