"""The full-width CFR family: the Solver contract, validation, and convergence."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.errors import SolverError
from pokerlab.eval import expected_values_array, exploitability, exploitability_array
from pokerlab.games import kuhn, leduc
from pokerlab.solvers import CFR, SOLVERS, CFRPlus, DiscountedCFR, LinearCFR
from pokerlab.solvers.cfr import _FullWidthCFR
from pokerlab.solvers.lp import solve_sequence_form
from pokerlab.strategy import Strategy
from pokerlab.tree import compile

CLASSES: list[type[_FullWidthCFR]] = [CFR, CFRPlus, LinearCFR, DiscountedCFR]

LEDUC_P1_VALUE = -0.0856064
"""P1's value of standard Leduc poker in chips per hand (the sequence-form LP gives
-0.08560642; OpenSpiel and postflop-solver report -0.0856)."""


@pytest.mark.parametrize("cls", CLASSES)
@pytest.mark.parametrize("alternating", [True, False])
def test_contract(cls: type[_FullWidthCFR], alternating: bool) -> None:
    game = kuhn()
    solver = cls(game, alternating=alternating)
    uniform = Strategy.uniform(game).probs
    assert solver.iterations == 0
    np.testing.assert_array_equal(solver.current_strategy().probs, uniform)
    np.testing.assert_array_equal(solver.average_strategy().probs, uniform)
    assert solver.run(iterations=5) is solver
    assert solver.iterations == 5
    assert [row.iteration for row in solver.history] == [1, 2, 3, 4, 5]
    average = solver.average_strategy()
    before = average.probs.copy()
    average.probs.setflags(write=True)
    average.probs[:] = 0.0
    np.testing.assert_array_equal(solver.average_strategy().probs, before)
    current = solver.current_strategy()
    current.probs.setflags(write=True)
    current.probs[:] = 0.0
    assert solver.current_strategy().probs.sum() == pytest.approx(compile(game).n_infosets)
    assert average.metadata["algorithm"] == cls.algorithm
    assert average.metadata["iterations"] == 5
    assert average.metadata["hyperparameters"] == solver.hyperparameters()
    assert solver.hyperparameters()["alternating"] is alternating
    assert SOLVERS[cls.algorithm] is cls


@pytest.mark.parametrize("cls", CLASSES)
def test_run_is_cumulative_and_deterministic(cls: type[_FullWidthCFR]) -> None:
    once = cls(leduc()).run(iterations=30, check_every=30)
    twice = cls(leduc()).run(iterations=10, check_every=10).run(iterations=20, check_every=20)
    assert twice.iterations == 30
    np.testing.assert_array_equal(once.average_strategy().probs, twice.average_strategy().probs)
    np.testing.assert_array_equal(once.current_strategy().probs, twice.current_strategy().probs)


def test_measurement_matches_the_strategy_exploitability() -> None:
    game = kuhn()
    solver = CFRPlus(game).run(iterations=20, check_every=20)
    assert solver.history[-1].exploitability == pytest.approx(
        exploitability(game, solver.average_strategy()), abs=1e-12
    )


def test_dcfr_hyperparameters_are_stored_verbatim() -> None:
    solver = DiscountedCFR(kuhn(), alpha=2, beta=-1.0, gamma=0.5, alternating=False)
    assert solver.hyperparameters() == {
        "alpha": 2, "beta": -1.0, "gamma": 0.5, "alternating": False
    }
    assert DiscountedCFR(kuhn()).hyperparameters() == {
        "alpha": 1.5, "beta": 0.0, "gamma": 2.0, "alternating": True
    }


@pytest.mark.parametrize(
    "kwargs",
    [
        {"alpha": -0.5},
        {"gamma": -1.0},
        {"alpha": float("nan")},
        {"beta": float("inf")},
        {"gamma": "2"},
        {"alpha": True},
        {"alternating": 1},
        {"alternating": "yes"},
    ],
)
def test_bad_hyperparameters(kwargs: dict[str, object]) -> None:
    with pytest.raises(SolverError):
        DiscountedCFR(kuhn(), **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("cls", CLASSES)
def test_bad_run_arguments(cls: type[_FullWidthCFR]) -> None:
    solver = cls(kuhn())
    with pytest.raises(SolverError, match="iterations"):
        solver.run(iterations=0)
    with pytest.raises(SolverError):
        solver.run()
    with pytest.raises(SolverError):
        cls(kuhn(), alternating=None)  # type: ignore[arg-type]


@pytest.mark.parametrize("cls", CLASSES)
@pytest.mark.parametrize("alternating", [True, False])
def test_kuhn_converges(cls: type[_FullWidthCFR], alternating: bool) -> None:
    solver = cls(kuhn(), alternating=alternating).run(iterations=1000, check_every=1000)
    assert solver.history[-1].exploitability < 1e-2


def test_kuhn_cfr_plus_below_1e3() -> None:
    solver = CFRPlus(kuhn()).run(iterations=1000, check_every=1000)
    assert solver.history[-1].exploitability < 1e-3
    # Kuhn's value for P1 is -1/18.
    values = expected_values_array(compile(kuhn()), solver.average_strategy().probs)
    assert values[0] == pytest.approx(-1 / 18, abs=1e-3)


@pytest.mark.slow
def test_leduc_cfr_plus_reaches_1e3_and_the_lp_value() -> None:
    game = leduc()
    solver = CFRPlus(game).run(iterations=2000, target_exploitability=1e-3, check_every=10)
    assert solver.history[-1].exploitability <= 1e-3
    assert solver.iterations < 2000
    # Keep going: the value of the average strategy approaches the game value.
    solver.run(iterations=2000, check_every=2000)
    tree = compile(game)
    probs = solver.average_strategy().probs
    assert exploitability_array(tree, probs) < 1e-4
    assert expected_values_array(tree, probs)[0] == pytest.approx(LEDUC_P1_VALUE, abs=1e-4)
    lp_value = solve_sequence_form(game).value
    assert lp_value == pytest.approx(LEDUC_P1_VALUE, abs=1e-7)
    assert expected_values_array(tree, probs)[0] == pytest.approx(lp_value, abs=1e-4)


def test_three_player_kuhn_converges() -> None:
    solver = CFRPlus(kuhn(players=3)).run(iterations=1000, check_every=100)
    values = [row.exploitability for row in solver.history]
    assert values[-1] < 1e-3
    assert values[-1] < values[0] / 10


@pytest.mark.parametrize("cls", CLASSES)
def test_three_player_kuhn_every_variant(cls: type[_FullWidthCFR]) -> None:
    solver = cls(kuhn(players=3)).run(iterations=1000, check_every=1000)
    assert solver.history[-1].exploitability < 1e-2


def test_alternating_differs_from_simultaneous() -> None:
    a = CFRPlus(kuhn()).run(iterations=3, check_every=3)
    b = CFRPlus(kuhn(), alternating=False).run(iterations=3, check_every=3)
    assert not np.array_equal(a.average_strategy().probs, b.average_strategy().probs)


def test_rows_sum_to_one() -> None:
    game = leduc()
    solver = DiscountedCFR(game).run(iterations=50, check_every=50)
    mask = compile(game).legal_mask
    for strategy in (solver.average_strategy(), solver.current_strategy()):
        np.testing.assert_allclose(strategy.probs.sum(axis=1), 1.0, atol=1e-12)
        assert not (strategy.probs[~mask] != 0).any()
