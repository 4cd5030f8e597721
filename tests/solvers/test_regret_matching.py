"""Tests of pokerlab.solvers.regret_matching."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from pokerlab.errors import SolverError, StrategyError
from pokerlab.eval import exploitability
from pokerlab.games import load
from pokerlab.solvers import (
    SOLVERS,
    RegretMatching,
    RegretMatchingHistory,
    Solver,
    action_regrets,
    regret_matching_strategy,
    strategy_vectors,
)
from pokerlab.strategy import Strategy

# ---------------------------------------------------------------------------------------
# regret_matching_strategy and action_regrets


def test_strategy_of_regrets() -> None:
    assert regret_matching_strategy([0.0, 1.0, 2.0]) == pytest.approx([0, 1 / 3, 2 / 3])
    assert regret_matching_strategy([-5.0, 2.0, 2.0]) == pytest.approx([0, 0.5, 0.5])
    assert regret_matching_strategy([0.0, 0.0]) == pytest.approx([0.5, 0.5])


def test_strategy_of_regrets_rows() -> None:
    regrets = np.array([[1.0, 3.0, 2.0], [-1.0, -1.0, 0.0]])
    expected = np.array([[1 / 6, 1 / 2, 1 / 3], [1 / 3, 1 / 3, 1 / 3]])
    assert regret_matching_strategy(regrets) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("regrets", "match"),
    [([], "at least one action"), (1.0, "at least one action"), ([np.inf, 0.0], "finite")],
)
def test_strategy_of_bad_regrets(regrets: object, match: str) -> None:
    with pytest.raises(SolverError, match=match):
        regret_matching_strategy(regrets)  # type: ignore[arg-type]


@settings(max_examples=100, deadline=None)
@given(
    st.tuples(st.integers(1, 6), st.integers(1, 6)).flatmap(
        lambda shape: arrays(np.float64, shape, elements=st.floats(-1e6, 1e6, allow_nan=False))
    )
)
def test_strategy_rows_are_probability_vectors(regrets: np.ndarray) -> None:
    strategy = regret_matching_strategy(regrets)
    assert strategy.shape == regrets.shape
    assert np.all(strategy >= 0.0)
    assert strategy.sum(axis=1) == pytest.approx(np.ones(regrets.shape[0]), abs=1e-12)
    # Only actions with positive regret are played, when there is one.
    has_positive = (regrets > 0).any(axis=1)
    assert np.all(strategy[has_positive][regrets[has_positive] <= 0] == 0.0)


def test_action_regrets_pure_and_mixed() -> None:
    assert action_regrets([-1.0, 0.0, 1.0], played=0).tolist() == [0.0, 1.0, 2.0]
    assert action_regrets([1.0, 3.0], played=(0.5, 0.5)).tolist() == [-1.0, 1.0]
    with pytest.raises(SolverError, match=r"out of range; allowed: 0\.\.2"):
        action_regrets([1.0, 2.0, 3.0], played=3)
    with pytest.raises(StrategyError, match="sum to 1"):
        action_regrets([1.0, 2.0], played=(0.5, 0.2))


# ---------------------------------------------------------------------------------------
# RegretMatching: the solver contract


def test_iteration_zero_is_uniform_and_copies_are_returned() -> None:
    solver = RegretMatching(load("rps"))
    assert solver.iterations == 0
    for strategy in (*solver.current_vectors(), *solver.average_vectors()):
        assert strategy == pytest.approx([1 / 3] * 3)
    solver.run(iterations=5)
    average = solver.average_vectors()
    average[0][:] = 0.0
    assert solver.average_vectors()[0].sum() == pytest.approx(1.0)
    current = solver.current_vectors()
    current[1][:] = 7.0
    assert solver.current_vectors()[1].sum() == pytest.approx(1.0)


def test_run_returns_self_and_is_cumulative() -> None:
    solver = RegretMatching(load("rps"), opponent=(0.4, 0.3, 0.3))
    assert solver.run(iterations=10) is solver
    solver.run(iterations=15)
    assert solver.iterations == 25
    history = solver.trajectory()
    assert isinstance(history, RegretMatchingHistory)
    assert history.iterations.tolist() == list(range(1, 26))
    assert history.current_strategies[1].shape == (25, 3)
    assert history.average_strategies[0].shape == (25, 3)


@pytest.mark.parametrize("sampled", [False, True])
def test_split_runs_equal_one_run_bit_for_bit(sampled: bool) -> None:
    game = load("rps")
    whole = RegretMatching(game, sampled=sampled, seed=11).run(iterations=600)
    split = RegretMatching(game, sampled=sampled, seed=11).run(iterations=250).run(iterations=350)
    for a, b in zip(whole.average_vectors(), split.average_vectors(), strict=True):
        assert np.array_equal(a, b)
    for a, b in zip(whole.regrets(), split.regrets(), strict=True):
        assert np.array_equal(a, b)
    h1, h2 = whole.trajectory(), split.trajectory()
    for player in (0, 1):
        assert np.array_equal(h1.current_strategies[player], h2.current_strategies[player])
        assert np.array_equal(h1.average_strategies[player], h2.average_strategies[player])


def test_same_seed_same_result_other_seed_differs() -> None:
    game = load("rps")
    first = RegretMatching(game, sampled=True, seed=5).run(iterations=300).average_vectors()
    again = RegretMatching(game, sampled=True, seed=5).run(iterations=300).average_vectors()
    other = RegretMatching(game, sampled=True, seed=6).run(iterations=300).average_vectors()
    assert np.array_equal(first[0], again[0])
    assert not np.array_equal(first[0], other[0])
    generator = np.random.default_rng(5)
    from_generator = RegretMatching(game, sampled=True, seed=generator).run(iterations=300)
    assert np.array_equal(from_generator.average_vectors()[0], first[0])


def test_hyperparameters_are_stored_as_given() -> None:
    opponent = (0.4, 0.3, 0.3)
    solver = RegretMatching(load("rps"), opponent=opponent, fixed_player=0, sampled=True, seed=3)
    assert solver.opponent is opponent
    assert (solver.fixed_player, solver.sampled, solver.seed) == (0, True, 3)
    assert "opponent=(0.4, 0.3, 0.3)" in repr(solver)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"opponent": (0.5, 0.5)}, StrategyError, "3 probabilities"),
        ({"opponent": (0.5, 0.6, -0.1)}, StrategyError, ">= 0"),
        ({"opponent": (1.0, 0.0, 0.0), "fixed_player": 2}, SolverError, "fixed_player"),
        ({"sampled": 1}, SolverError, "sampled must be True or False"),
    ],
)
def test_bad_hyperparameters(kwargs: dict[str, object], error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        RegretMatching(load("rps"), **kwargs)  # type: ignore[arg-type]


def test_bad_game_and_iterations() -> None:
    with pytest.raises(SolverError, match="needs a MatrixGame"):
        RegretMatching(load("kuhn"))  # type: ignore[arg-type]
    solver = RegretMatching(load("rps"))
    for bad in (0, -1, 2.5, True):
        with pytest.raises(SolverError, match="integer >= 1"):
            solver.run(iterations=bad)  # type: ignore[arg-type]


def test_history_can_be_turned_off() -> None:
    solver = RegretMatching(load("rps"), record_history=False).run(iterations=3)
    with pytest.raises(SolverError, match="record_history=True"):
        solver.trajectory()
    assert [row.iteration for row in solver.history] == [1, 2, 3]  # measured all the same


def test_is_a_solver_whose_strategies_are_policies() -> None:
    game = load("rps")
    assert SOLVERS["regret-matching"] is RegretMatching
    solver = RegretMatching(game, opponent=(0.4, 0.3, 0.3)).run(iterations=200, check_every=50)
    assert isinstance(solver, Solver)
    average = solver.average_strategy()
    assert isinstance(average, Strategy)
    assert average.metadata["algorithm"] == "regret-matching"
    for vector, again in zip(strategy_vectors(average), solver.average_vectors(), strict=True):
        np.testing.assert_array_equal(vector, again)
    assert average.probabilities("P2")[1] == pytest.approx(solver.average_vectors()[1][1])
    assert [row.iteration for row in solver.history] == [50, 100, 150, 200]
    assert solver.history[-1].exploitability == pytest.approx(exploitability(game, average))


def test_run_honours_seconds_and_target() -> None:
    solver = RegretMatching(load("rps"), sampled=True, seed=0).run(seconds=0.05, check_every=10**6)
    assert solver.iterations > 0
    assert solver.history[-1].iteration == solver.iterations  # a timed run checks where it stops
    target = RegretMatching(load("rps"), sampled=True, seed=0)
    target.run(target_exploitability=0.05, check_every=100)
    last = target.history[-1].exploitability
    assert last is not None
    assert last <= 0.05


@pytest.mark.parametrize("sampled", [False, True])
def test_checkpoint_resumes_bit_for_bit(sampled: bool, tmp_path: Path) -> None:
    game = load("rps")
    whole = RegretMatching(game, sampled=sampled, seed=4).run(iterations=300, check_every=100)
    first = RegretMatching(game, sampled=sampled, seed=4).run(iterations=100, check_every=100)
    resumed = Solver.load_checkpoint(first.save_checkpoint(tmp_path / "rm.npz"))
    assert isinstance(resumed, RegretMatching)
    assert resumed.hyperparameters() == first.hyperparameters()
    resumed.run(iterations=200, check_every=100)
    for a, b in zip(resumed.average_vectors(), whole.average_vectors(), strict=True):
        np.testing.assert_array_equal(a, b)
    for a, b in zip(resumed.regrets(), whole.regrets(), strict=True):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(
        resumed.trajectory().average_strategies[0], whole.trajectory().average_strategies[0]
    )
    assert resumed.history == [
        type(row)(row.iteration, r.seconds, row.exploitability)
        for row, r in zip(whole.history, resumed.history, strict=True)
    ]


def test_bad_seed_is_refused() -> None:
    for bad in (1.5, "one", True, -3):
        with pytest.raises(SolverError, match="seed"):
            RegretMatching(load("rps"), sampled=True, seed=bad)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------
# RegretMatching: convergence


def test_rps_self_play_average_is_uniform() -> None:
    solver = RegretMatching(load("rps")).run(iterations=10_000)
    for strategy in solver.average_vectors():
        assert np.abs(strategy - 1 / 3).max() < 0.01


def test_rps_sampled_self_play_cycles_while_average_converges() -> None:
    solver = RegretMatching(load("rps"), sampled=True, seed=1).run(iterations=10_000)
    for strategy in solver.average_vectors():
        assert np.abs(strategy - 1 / 3).max() < 0.02
    history = solver.trajectory()
    late = history.current_strategies[0][-2000:]
    assert late.max(axis=0).min() > 0.5  # the current strategy still swings widely
    assert np.abs(history.average_strategies[0][-1] - 1 / 3).max() < 0.02


def test_learner_against_fixed_p1_converges_to_paper() -> None:
    solver = RegretMatching(load("rps"), opponent=(0.4, 0.3, 0.3)).run(iterations=10_000)
    average, current = solver.average_vectors(), solver.current_vectors()
    assert average[1][1] > 0.95
    assert current[1].tolist() == [0.0, 1.0, 0.0]
    assert average[0] == pytest.approx([0.4, 0.3, 0.3])
    assert solver.regrets()[0].tolist() == [0.0, 0.0, 0.0]


def test_learner_against_fixed_p2() -> None:
    # P1 learns against P2's fixed (0.4, 0.3, 0.3): Paper again (the game is symmetric).
    solver = RegretMatching(load("rps"), opponent=(0.4, 0.3, 0.3), fixed_player=1)
    solver.run(iterations=2000)
    assert solver.current_vectors()[0].tolist() == [0.0, 1.0, 0.0]
    assert solver.current_vectors()[1] == pytest.approx([0.4, 0.3, 0.3])


def test_sampled_learner_against_fixed_p1_converges_to_paper() -> None:
    solver = RegretMatching(load("rps"), opponent=(0.4, 0.3, 0.3), sampled=True, seed=2)
    solver.run(iterations=10_000)
    assert solver.average_vectors()[1][1] > 0.9
    assert solver.current_vectors()[1].tolist() == [0.0, 1.0, 0.0]


def test_dominance_game_self_play_finds_the_dominant_cell() -> None:
    solver = RegretMatching(load("dominance")).run(iterations=2000)
    row, col = solver.average_vectors()
    assert row[0] > 0.99
    assert col[0] > 0.99
