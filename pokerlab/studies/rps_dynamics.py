"""Regret matching, regret matching+ and CFR+ on Rock-Paper-Scissors from a non-uniform start.

The tutorial's CFR chapter uses RPS to show why the average strategy, not the current one,
converges, and why CFR+ helps. From a uniform start self-play never moves (every regret
is 0), so the dynamics start from given strategies: the first iteration's strategies are
the start, as if the regrets had been primed with them.

- ``rm``: cumulative regrets, the current strategy their positive part, uniform average.
- ``rm+``: regrets floored at 0 after every update (regret matching+), uniform average.
- ``cfr+``: regret matching+ with alternating updates (P2 answers P1's new strategy) and
  the average weighted by iteration (linear averaging), as CFR+ runs on one decision.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pokerlab.errors import PokerlabError
from pokerlab.games import rps
from pokerlab.strategy.regrets import regret_matching_strategy

VARIANTS = ("rm", "rm+", "cfr+")


@dataclass(frozen=True)
class Dynamics:
    """One run's trajectory: per iteration, both players' current and average strategies.

    Arrays are ``[iterations, 2, 3]`` (iteration, player, Rock/Paper/Scissors); the
    exploitability of the average profile is ``[iterations]`` in chips per game.
    """

    variant: str
    current: np.ndarray
    average: np.ndarray
    exploitability: np.ndarray


def run_dynamics(
    variant: str,
    iterations: int,
    start: tuple[tuple[float, float, float], tuple[float, float, float]] = (
        (0.6, 0.3, 0.1),
        (0.2, 0.2, 0.6),
    ),
) -> Dynamics:
    """Run one variant in self-play on RPS for the given iterations from the start strategies."""
    if variant not in VARIANTS:
        raise PokerlabError(f"unknown variant {variant!r}; choose one of {', '.join(VARIANTS)}")
    if iterations < 1:
        raise PokerlabError(f"iterations must be at least 1; got {iterations}")
    primed = np.asarray(start, dtype=np.float64)
    if primed.shape != (2, 3) or (primed < 0).any() or not np.allclose(primed.sum(axis=1), 1):
        raise PokerlabError(f"start must be two probability vectors over R, P, S; got {start!r}")
    A = np.asarray(rps().A, dtype=np.float64)  # P1's payoffs; P2's are -A.T
    payoffs = (A, -A.T)
    regrets = primed.copy()
    sums = np.zeros((2, 3))
    weights = 0.0
    current = np.empty((iterations, 2, 3))
    average = np.empty((iterations, 2, 3))
    exploit = np.empty(iterations)
    plus = variant != "rm"
    alternating = variant == "cfr+"
    for t in range(iterations):
        strategies = [regret_matching_strategy(regrets[0]), regret_matching_strategy(regrets[1])]
        current[t] = strategies
        for player in (0, 1):
            opponent = strategies[1 - player]
            values = payoffs[player] @ opponent
            regrets[player] += values - strategies[player] @ values
            if plus:
                np.maximum(regrets[player], 0.0, out=regrets[player])
            if alternating and player == 0:
                # P2 answers P1's updated strategy
                strategies[0] = regret_matching_strategy(regrets[0])
        weight = float(t + 1) if alternating else 1.0
        sums += weight * current[t]
        weights += weight
        average[t] = sums / weights
        row, col = average[t]
        exploit[t] = 0.5 * (float(np.max(A @ col)) + float(np.max(-A.T @ row)))
    return Dynamics(variant, current, average, exploit)


def dynamics_figure(runs: list[Dynamics], path: str) -> str:
    """Plot each run's current strategy (P1), its average, and the average's exploitability.

    One row per variant: the current strategy cycles under regret matching and settles
    under regret matching+ and CFR+; the right-hand panel puts the exploitabilities side by side.
    """
    from pokerlab.studies._figures import pyplot, save_figure

    if not runs:
        raise PokerlabError("dynamics_figure needs at least one run")
    plt = pyplot()
    figure, axes = plt.subplots(len(runs), 2, figsize=(12, 3.2 * len(runs)), squeeze=False)
    names = ("Rock", "Paper", "Scissors")
    colours = ("tab:red", "tab:blue", "tab:green")
    for row, run in zip(axes, runs, strict=True):
        steps = np.arange(1, len(run.exploitability) + 1)
        for k in range(3):
            row[0].plot(steps, run.current[:, 0, k], color=colours[k], linewidth=0.8,
                        label=f"current {names[k]}")
            row[0].plot(steps, run.average[:, 0, k], color=colours[k], linewidth=1.6,
                        linestyle="--", label=f"average {names[k]}")
        row[0].set_title(f"{run.variant}: P1's strategy")
        row[0].set_xlabel("iteration")
        row[0].set_ylim(-0.02, 1.02)
        row[0].legend(fontsize=7, ncol=2)
        for other in runs:
            row[1].loglog(np.arange(1, len(other.exploitability) + 1),
                          np.maximum(other.exploitability, 1e-12),
                          linewidth=2.0 if other is run else 0.8, label=other.variant)
        row[1].set_title("exploitability of the average profile")
        row[1].set_xlabel("iteration")
        row[1].legend(fontsize=8)
        row[1].grid(True, which="both", alpha=0.3)
    figure.tight_layout()
    return str(save_figure(figure, path))
