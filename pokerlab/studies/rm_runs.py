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
from pokerlab.solvers import RegretMatching

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
    game = load("rps")
    times = np.zeros(runs, dtype=np.int64)
    for k in range(runs):
        solver = RegretMatching(game, opponent=OPPONENT, sampled=True, seed=seed + k)
        solver.run(iterations=iterations)
        paper = solver.trajectory().current_strategies[1][:, PAPER]
        hits = np.nonzero(paper >= threshold)[0]
        times[k] = hits[0] + 1 if len(hits) else 0
    return times
