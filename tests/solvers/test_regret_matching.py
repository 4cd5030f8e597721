"""Tests of pokerlab.solvers.regret_matching."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from pokerlab.errors import SolverError, StrategyError
from pokerlab.games import load
from pokerlab.solvers import (
    RegretMatching,
    RegretMatchingHistory,
    action_regrets,
    regret_matching_strategy,
)

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
    for strategy in (*solver.current_strategy(), *solver.average_strategy()):
        assert strategy == pytest.approx([1 / 3] * 3)
    solver.run(iterations=5)
    average = solver.average_strategy()
    average[0][:] = 0.0
    assert solver.average_strategy()[0].sum() == pytest.approx(1.0)
    current = solver.current_strategy()
    current[1][:] = 7.0
    assert solver.current_strategy()[1].sum() == pytest.approx(1.0)


def test_run_returns_self_and_is_cumulative() -> None:
    solver = RegretMatching(load("rps"), opponent=(0.4, 0.3, 0.3))
    assert solver.run(iterations=10) is solver
    solver.run(iterations=15)
    assert solver.iterations == 25
    history = solver.history()
    assert isinstance(history, RegretMatchingHistory)
    assert history.iterations.tolist() == list(range(1, 26))
    assert history.current_strategies[1].shape == (25, 3)
    assert history.average_strategies[0].shape == (25, 3)


@pytest.mark.parametrize("sampled", [False, True])
def test_split_runs_equal_one_run_bit_for_bit(sampled: bool) -> None:
    game = load("rps")
    whole = RegretMatching(game, sampled=sampled, rng=11).run(iterations=600)
    split = RegretMatching(game, sampled=sampled, rng=11).run(iterations=250).run(iterations=350)
    for a, b in zip(whole.average_strategy(), split.average_strategy(), strict=True):
        assert np.array_equal(a, b)
    for a, b in zip(whole.regrets(), split.regrets(), strict=True):
        assert np.array_equal(a, b)
    h1, h2 = whole.history(), split.history()
    for player in (0, 1):
        assert np.array_equal(h1.current_strategies[player], h2.current_strategies[player])
        assert np.array_equal(h1.average_strategies[player], h2.average_strategies[player])


def test_same_seed_same_result_other_seed_differs() -> None:
    game = load("rps")
    first = RegretMatching(game, sampled=True, rng=5).run(iterations=300).average_strategy()
    again = RegretMatching(game, sampled=True, rng=5).run(iterations=300).average_strategy()
    other = RegretMatching(game, sampled=True, rng=6).run(iterations=300).average_strategy()
    assert np.array_equal(first[0], again[0])
    assert not np.array_equal(first[0], other[0])
    generator = np.random.default_rng(5)
    from_generator = RegretMatching(game, sampled=True, rng=generator).run(iterations=300)
    assert np.array_equal(from_generator.average_strategy()[0], first[0])


def test_hyperparameters_are_stored_as_given() -> None:
    opponent = (0.4, 0.3, 0.3)
    solver = RegretMatching(load("rps"), opponent=opponent, fixed_player=0, sampled=True, rng=3)
    assert solver.opponent is opponent
    assert (solver.fixed_player, solver.sampled, solver.rng) == (0, True, 3)
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
        solver.history()


# ---------------------------------------------------------------------------------------
# RegretMatching: convergence


def test_rps_self_play_average_is_uniform() -> None:
    solver = RegretMatching(load("rps")).run(iterations=10_000)
    for strategy in solver.average_strategy():
        assert np.abs(strategy - 1 / 3).max() < 0.01


def test_rps_sampled_self_play_cycles_while_average_converges() -> None:
    solver = RegretMatching(load("rps"), sampled=True, rng=1).run(iterations=10_000)
    for strategy in solver.average_strategy():
        assert np.abs(strategy - 1 / 3).max() < 0.02
    history = solver.history()
    late = history.current_strategies[0][-2000:]
    assert late.max(axis=0).min() > 0.5  # the current strategy still swings widely
    assert np.abs(history.average_strategies[0][-1] - 1 / 3).max() < 0.02


def test_learner_against_fixed_p1_converges_to_paper() -> None:
    solver = RegretMatching(load("rps"), opponent=(0.4, 0.3, 0.3)).run(iterations=10_000)
    average, current = solver.average_strategy(), solver.current_strategy()
    assert average[1][1] > 0.95
    assert current[1].tolist() == [0.0, 1.0, 0.0]
    assert average[0] == pytest.approx([0.4, 0.3, 0.3])
    assert solver.regrets()[0].tolist() == [0.0, 0.0, 0.0]


def test_learner_against_fixed_p2() -> None:
    # P1 learns against P2's fixed (0.4, 0.3, 0.3): Paper again (the game is symmetric).
    solver = RegretMatching(load("rps"), opponent=(0.4, 0.3, 0.3), fixed_player=1)
    solver.run(iterations=2000)
    assert solver.current_strategy()[0].tolist() == [0.0, 1.0, 0.0]
    assert solver.current_strategy()[1] == pytest.approx([0.4, 0.3, 0.3])


def test_sampled_learner_against_fixed_p1_converges_to_paper() -> None:
    solver = RegretMatching(load("rps"), opponent=(0.4, 0.3, 0.3), sampled=True, rng=2)
    solver.run(iterations=10_000)
    assert solver.average_strategy()[1][1] > 0.9
    assert solver.current_strategy()[1].tolist() == [0.0, 1.0, 0.0]


def test_dominance_game_self_play_finds_the_dominant_cell() -> None:
    solver = RegretMatching(load("dominance")).run(iterations=2000)
    row, col = solver.average_strategy()
    assert row[0] > 0.99
    assert col[0] > 0.99
