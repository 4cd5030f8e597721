"""The Q-learning study: Q-learning beside CFR, exploitability measured exactly (issue 29)."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.errors import PokerlabError, SolverError
from pokerlab.eval import exploitability
from pokerlab.games import kuhn, leduc
from pokerlab.solvers import QLearning
from pokerlab.studies.q_learning_study import (
    pure_profile_floor,
    q_learning_figure,
    run_cfr,
    run_q_learning,
)


def test_no_pure_profile_of_kuhn_is_less_than_a_sixth_exploitable() -> None:
    assert pure_profile_floor(kuhn()) == pytest.approx(1 / 6, abs=1e-12)
    with pytest.raises(SolverError, match="pure strategies"):
        pure_profile_floor(leduc())


def test_greedy_q_learning_never_beats_the_floor() -> None:
    # Once every infoset is met and Q has no ties, the greedy policy is pure: >= 1/6.
    game = kuhn()
    solver = QLearning(game, seed=0)
    pure = 0
    for _ in range(30):
        solver.run(iterations=100, check_every=100)
        greedy = solver.greedy_strategy()
        rows = [greedy.probabilities(key) for key in solver.q_values()]
        if len(rows) == 12 and all(max(r.values()) == 1.0 for r in rows):
            pure += 1
            assert exploitability(game, greedy) >= 1 / 6 - 1e-12
    assert pure >= 25


def test_run_q_learning_measures_every_checkpoint() -> None:
    curve = run_q_learning(kuhn(), 1000, seeds=(0, 1))
    assert curve.greedy.shape == curve.average.shape == (2, curve.hands.shape[0])
    assert curve.hands[-1] == 1000
    assert np.all(curve.states[:, -1] > 1000 * 4)
    assert curve.churn.dtype.kind == "i"
    assert np.all(curve.average >= 0)
    assert curve.average[:, -1].max() < curve.average[:, 0].min()


def test_cfr_beside_it() -> None:
    curve = run_cfr(kuhn(), 100)
    assert curve.iterations[-1] == 100
    assert curve.states[-1] == 100 * 2 * 58
    assert curve.average[-1] < 0.01 < curve.average[0]


def test_run_q_learning_needs_a_seed() -> None:
    with pytest.raises(PokerlabError, match="seed"):
        run_q_learning(kuhn(), 10, seeds=())


@pytest.mark.slow
def test_the_figure_is_written(tmp_path) -> None:  # type: ignore[no-untyped-def]
    game = kuhn()
    path = q_learning_figure(game, run_q_learning(game, 50, seeds=(0,)), run_cfr(game, 10),
                             str(tmp_path / "q.png"), floor=1 / 6)
    assert path.endswith("q.png")
    assert (tmp_path / "q.png").stat().st_size > 1000
