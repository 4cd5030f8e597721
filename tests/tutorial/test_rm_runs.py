"""Section 3: regret matching against (0.4, 0.3, 0.3) over many sampled runs, fast and slow."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pokerlab.cli import main
from pokerlab.errors import PokerlabError
from pokerlab.games import load
from pokerlab.solvers import RegretMatching
from pokerlab.studies.rm_runs import OPPONENT, learning_times, paper_trajectories


def test_every_run_learns_paper_some_fast_some_slow() -> None:
    times = learning_times(100, 1000, seed=0)
    assert (times > 0).all()  # every run reaches always-Paper within 1000 plays
    # measured (200 runs): fastest 2 plays, median 17.5, slowest 853
    assert times.min() <= 5
    assert times.max() > 20 * times.min()
    assert np.median(times) < times.max()


def test_the_docs_200_runs_fastest_median_slowest() -> None:
    # docs/tutorial.md section 3: over 200 runs of 1000 plays (seed 0), 2, 17.5 and 853
    times = learning_times(200, 1000, seed=0)
    assert (times > 0).all()
    assert (times.min(), float(np.median(times)), times.max()) == (2, 17.5, 853)


@pytest.mark.slow
def test_the_tutorials_10000_runs() -> None:
    # docs/tutorial.md section 3: 9,947 of 10,000 runs learn within 1000 plays;
    # among them fastest 2, median 12, slowest 986
    times = learning_times(10_000, 1000, seed=0)
    learned = times[times > 0]
    assert learned.size == 9947
    assert (learned.min(), float(np.median(learned)), learned.max()) == (2, 12.0, 986)


def test_vectorized_runs_equal_the_solver_play_by_play() -> None:
    paths = paper_trajectories(4, 300, seed=5)
    for k in range(4):
        solver = RegretMatching(load("rps"), opponent=OPPONENT, sampled=True, seed=5 + k)
        solver.run(iterations=300)
        np.testing.assert_array_equal(solver.trajectory().current_strategies[1][:, 1], paths[k])


def test_rm_runs_command_reports_learning_times(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["study", "rm-runs", "--runs", "200", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["fastest"], data["median"], data["slowest"], data["never"]) == (2, 17.5, 853, 0)


def test_runs_replay_by_seed() -> None:
    together = learning_times(5, 300, seed=7)
    alone = learning_times(1, 300, seed=9)
    assert together[2] == alone[0]


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(PokerlabError, match="at least 1"):
        learning_times(0, 10)
    with pytest.raises(PokerlabError, match="threshold"):
        learning_times(1, 10, threshold=1.5)
