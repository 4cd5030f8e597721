"""The range solver on Kuhn and Leduc agrees with the compiled-tree evaluators and the LP."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pokerlab.errors import SolverError
from pokerlab.eval import expected_value, exploitability
from pokerlab.games import Game, kuhn, leduc, load
from pokerlab.solvers import solve_sequence_form
from pokerlab.strategy import Strategy
from pokerlab.subgame import (
    PublicTreeCFR,
    RangeSolver,
    evaluate_profile,
    from_strategy,
    public_exploitability,
    public_game,
    uniform_arrays,
)
from pokerlab.tree import compile

GAMES = [
    kuhn(),
    kuhn(cards=7),
    load("kuhn(ante=2, bet=1)"),
    load("kuhn(ante=1, bet=3, cards=5)"),
    leduc(),
    leduc(ranks=4),
    leduc(stack=9, raise_cap=None),
    leduc(pair_counts=False),
    load("leduc(ante=2, bets=(1, 3), raise_cap=3)"),
]


def _random_strategy(game: Game, seed: int) -> Strategy:
    tree = compile(game)
    rng = np.random.default_rng(seed)
    probs = rng.random((tree.n_infosets, tree.max_actions)) ** 3 * tree.legal_mask
    return Strategy.from_array(game, probs, normalize=True)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: str(g.spec))
def test_exploitability_and_values_agree_with_the_compiled_tree(game: Game) -> None:
    classic = public_game(game)
    for seed in range(3):
        strategy = _random_strategy(game, seed)
        ours = evaluate_profile(classic.public, from_strategy(classic, strategy))
        assert ours.exploitability == pytest.approx(exploitability(game, strategy), abs=1e-9)
        values = expected_value(game, strategy)
        assert ours.values[0] == pytest.approx(values[0], abs=1e-9)
        assert ours.values[1] == pytest.approx(values[1], abs=1e-9)
    uniform = Strategy.uniform(game)
    assert public_exploitability(classic, uniform) == pytest.approx(
        exploitability(game, uniform), abs=1e-9
    )


def test_uniform_kuhn_matches_the_known_values() -> None:
    classic = public_game(kuhn())
    result = evaluate_profile(classic.public, uniform_arrays(classic.public))
    assert result.exploitability == pytest.approx(11 / 24, abs=1e-12)  # NashConv 11/12
    assert result.values[0] == pytest.approx(1 / 8, abs=1e-12)


@pytest.mark.parametrize("game", [kuhn(), kuhn(cards=6), leduc(), leduc(stack=9, raise_cap=None)],
                         ids=lambda g: str(g.spec))
def test_the_lp_equilibrium_is_unexploitable_and_its_value_is_the_lp_value(game: Game) -> None:
    solution = solve_sequence_form(game)
    classic = public_game(game)
    result = evaluate_profile(classic.public, from_strategy(classic, solution.strategy))
    assert result.exploitability == pytest.approx(0.0, abs=1e-9)
    assert result.values[0] == pytest.approx(solution.value, abs=1e-9)


@pytest.mark.parametrize("variant", ["dcfr", "cfr+", "cfr"])
@pytest.mark.parametrize("game", [kuhn(), kuhn(cards=10), leduc()], ids=lambda g: str(g.spec))
def test_the_solver_converges_around_the_lp_value(game: Game, variant: str) -> None:
    solver = PublicTreeCFR(game, variant=variant).run(iterations=400, check_every=100)
    average = solver.average_strategy()
    # The run's own measurements are exact: the compiled-tree evaluator agrees.
    assert solver.history[-1].exploitability == pytest.approx(
        exploitability(game, average), abs=1e-9
    )
    assert solver.history[-1].exploitability < (5e-3 if variant != "cfr" else 3e-2)
    result = evaluate_profile(solver.classic.public, from_strategy(solver.classic, average))
    low, high = result.value_bounds
    value = solve_sequence_form(game).value
    assert low - 1e-12 <= value <= high + 1e-12
    assert high - low == pytest.approx(2 * result.exploitability, abs=1e-12)


def test_dcfr_gets_within_1e_6_of_the_lp_value_on_kuhn_with_6_cards() -> None:
    game = kuhn(cards=6)
    solver = RangeSolver(public_game(game).public).run(
        target_exploitability=5e-7, iterations=40_000, check_every=500
    )
    result = solver.evaluate()
    low, high = result.value_bounds
    assert high - low <= 2e-6, (solver.iterations, result.exploitability)
    assert abs(0.5 * (low + high) - solve_sequence_form(game).value) <= 1e-6


def test_checkpoints_resume_exactly(tmp_path: Path) -> None:
    game = leduc()
    straight = PublicTreeCFR(game).run(iterations=60, check_every=30)
    first = PublicTreeCFR(game).run(iterations=30, check_every=30)
    path = first.save_checkpoint(tmp_path / "leduc.npz")
    resumed = PublicTreeCFR.load_checkpoint(path, game=game)
    assert isinstance(resumed, PublicTreeCFR)
    assert resumed.iterations == 30
    resumed.run(iterations=30, check_every=30)
    np.testing.assert_array_equal(
        resumed.average_strategy().probs, straight.average_strategy().probs
    )
    assert resumed.history[-1].exploitability == straight.history[-1].exploitability


def test_bad_input_is_a_clear_error() -> None:
    with pytest.raises(SolverError, match="two-player"):
        public_game(kuhn(players=3))
    with pytest.raises(SolverError, match="no public tree"):
        public_game(load("rps"))
    with pytest.raises(SolverError, match="unknown variant 'cfr-'"):
        PublicTreeCFR(kuhn(), variant="cfr-")
    with pytest.raises(SolverError, match="alpha must be"):
        RangeSolver(public_game(kuhn()).public, alpha=-1.0)
