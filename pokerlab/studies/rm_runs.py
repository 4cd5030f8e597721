"""Regret matching against a fixed Rock-Paper-Scissors opponent, over many sampled runs.

The tutorial (section 3) shows 10,000 sample runs of regret matching (sampled plays)
against Rock 40%, Paper 30%, Scissors 30%: some runs find "always Paper" at once, others
take long. This module measures, per run, the first iteration at which the learner's
current strategy plays Paper with probability at least ``threshold``: the fast and slow
cases as numbers.
"""

from __future__ import annotations

import numpy as np

from pokerlab.errors import PokerlabError
from pokerlab.games import load
from pokerlab.games.matrix import MatrixGame
from pokerlab.strategy.regrets import regret_matching_strategy

OPPONENT = (0.4, 0.3, 0.3)
PAPER = 1


def learning_times(
    runs: int, iterations: int, *, seed: int = 0, threshold: float = 0.99
) -> np.ndarray:
    """Per run, the first iteration where P2 plays Paper with at least ``threshold``; 0 if never.

    Run ``k`` uses seed ``seed + k``, so any run can be replayed alone.
    """
    if runs < 1 or iterations < 1:
        raise PokerlabError(f"runs and iterations must be at least 1; got {runs}, {iterations}")
    if not 0.0 < threshold <= 1.0:
        raise PokerlabError(f"threshold must be in (0, 1]; got {threshold}")
    paper = paper_trajectories(runs, iterations, seed=seed)
    hits = paper >= threshold
    return np.where(hits.any(axis=1), hits.argmax(axis=1) + 1, 0).astype(np.int64)


def paper_trajectories(runs: int, iterations: int, *, seed: int = 0) -> np.ndarray:
    """``[runs, iterations]``: P2's probability of Paper after each play (run ``k``: ``seed + k``).

    The same runs as :func:`learning_times` (same seeds), whole: the data of the figure.
    """
    if runs < 1 or iterations < 1:
        raise PokerlabError(f"runs and iterations must be at least 1; got {runs}, {iterations}")
    game = load("rps")
    if not isinstance(game, MatrixGame):  # pragma: no cover - rps is a matrix game
        raise PokerlabError("rps must load as a matrix game")
    # P2 (the column player) learns; its payoffs, own action first: [n_cols, n_rows].
    payoffs = np.asarray(game.B, dtype=np.float64).T
    n_actions = payoffs.shape[0]
    opponent = np.asarray(OPPONENT, dtype=np.float64)
    # The uniforms RegretMatching(sampled=True, seed=seed + k) draws: one (P1, P2) pair a play.
    uniforms = np.stack(
        [np.random.default_rng(seed + k).random((iterations, 2)) for k in range(runs)]
    )
    regrets = np.zeros((runs, n_actions))
    paths = np.zeros((runs, iterations))
    opponent_cumulative = np.cumsum(opponent)
    for t in range(iterations):
        strategy = regret_matching_strategy(regrets, check=False)
        paths[:, t] = strategy[:, PAPER]
        fixed_action = _sample(opponent_cumulative[np.newaxis, :], uniforms[:, t, 0])
        own_action = _sample(np.cumsum(strategy, axis=1), uniforms[:, t, 1])
        regrets += payoffs[:, fixed_action].T - payoffs[own_action, fixed_action][:, np.newaxis]
    return paths


def _sample(cumulative: np.ndarray, uniform: np.ndarray) -> np.ndarray:
    """Per run, the action whose cumulative-probability interval holds its uniform.

    The same rule as the solver's sampler (``searchsorted(..., side="right")``), on rows.
    """
    cumulative = np.broadcast_to(cumulative, (uniform.size, cumulative.shape[-1]))
    action = (cumulative <= (uniform * cumulative[:, -1])[:, np.newaxis]).sum(axis=1)
    return np.minimum(action, cumulative.shape[-1] - 1)  # type: ignore[no-any-return]


def runs_figure(paths: np.ndarray, path: str, *, threshold: float = 0.99) -> str:
    """Plot every run's probability of Paper, the fastest and slowest highlighted, to ``path``.

    The tutorial's figure of sampled regret-matching runs against (0.4, 0.3, 0.3): most runs
    lock onto Paper within tens of plays; a few wander for hundreds.
    """
    from pokerlab.studies._figures import pyplot, save_figure

    if paths.ndim != 2 or paths.shape[0] < 1:
        raise PokerlabError(f"paths must be [runs, iterations]; got shape {paths.shape}")
    plt = pyplot()
    hits = paths >= threshold
    times = np.where(hits.any(axis=1), hits.argmax(axis=1) + 1, paths.shape[1] + 1)
    fastest, slowest = int(times.argmin()), int(times.argmax())
    plays = np.arange(1, paths.shape[1] + 1)
    figure, (runs_axis, hist_axis) = plt.subplots(1, 2, figsize=(12, 4.5))
    for row in paths:
        runs_axis.plot(plays, row, color="0.7", linewidth=0.4, alpha=0.5)
    runs_axis.plot(plays, paths.mean(axis=0), color="black", linewidth=1.5, label="mean of runs")
    runs_axis.plot(plays, paths[fastest], color="tab:green", linewidth=1.2,
                   label=f"fastest run (Paper >= {threshold} at play {times[fastest]})")
    runs_axis.plot(plays, paths[slowest], color="tab:red", linewidth=1.2,
                   label=f"slowest run (play {times[slowest]})")
    runs_axis.set_xscale("log")
    runs_axis.set_xlabel("play")
    runs_axis.set_ylabel("P(Paper) of the current strategy")
    runs_axis.legend(fontsize=8)
    runs_axis.grid(True, alpha=0.3)
    hist_axis.hist(times, bins=np.geomspace(1, paths.shape[1] + 1, 30), color="tab:blue")
    hist_axis.set_xscale("log")
    hist_axis.set_xlabel(f"first play with P(Paper) >= {threshold}")
    hist_axis.set_ylabel("runs")
    figure.suptitle(f"Regret matching against (0.4, 0.3, 0.3): {paths.shape[0]} sampled runs")
    figure.tight_layout()
    return str(save_figure(figure, path))
