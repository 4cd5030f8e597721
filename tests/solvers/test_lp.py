"""The sequence-form LP solver: values, equilibria, the Solver interface, refusals."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pokerlab.errors import GameTooLargeError, SolverError
from pokerlab.eval import best_response, expected_value, exploitability
from pokerlab.games import kuhn, leduc, load
from pokerlab.solvers import SOLVERS, SequenceFormLP, Solver, solve_sequence_form
from pokerlab.solvers.normal_form import solve_zero_sum
from pokerlab.solvers.normal_form_kuhn import induced_normal_form, kuhn_normal_form
from pokerlab.solvers.sequence_form import estimate_lp_bytes
from pokerlab.strategy import Strategy
from pokerlab.tree import compile

KUHN_VALUE = -1 / 18  # the tutorial, section 3.2: 17/18 - 1
LEDUC_VALUE = -0.0856064  # verified by OpenSpiel (postflop-solver's tests: -0.0856)


def test_kuhn_value_and_exploitability() -> None:
    game = kuhn()
    solver = SequenceFormLP(game).run()
    assert solver.value == pytest.approx(KUHN_VALUE, abs=1e-9)
    strategy = solver.average_strategy()
    assert exploitability(game, strategy) < 1e-9
    p1, p2 = expected_value(game, strategy)
    assert p1 == pytest.approx(KUHN_VALUE, abs=1e-9)
    assert p2 == pytest.approx(-KUHN_VALUE, abs=1e-9)


def test_kuhn_equilibrium_has_the_analytical_form() -> None:
    strategy = SequenceFormLP(kuhn()).run().average_strategy()

    def bet(key: str) -> float:
        return strategy.probabilities(key)[1]

    y = bet("A|")
    assert bet("K|") == pytest.approx(0.0, abs=1e-9)
    assert bet("Q|") == pytest.approx(y / 3, abs=1e-9)
    assert bet("K|pb") == pytest.approx((y + 1) / 3, abs=1e-9)
    assert bet("Q|pb") == pytest.approx(0.0, abs=1e-9)
    assert bet("K|b") == pytest.approx(1 / 3, abs=1e-9)
    assert bet("Q|p") == pytest.approx(1 / 3, abs=1e-9)
    assert bet("A|b") == pytest.approx(1.0, abs=1e-9)
    assert bet("A|p") == pytest.approx(1.0, abs=1e-9)


def test_leduc_value_and_exploitability() -> None:
    game = leduc()
    solution = solve_sequence_form(game)
    assert solution.value == pytest.approx(LEDUC_VALUE, abs=1e-6)
    assert exploitability(game, solution.strategy) < 1e-9
    assert expected_value(game, solution.strategy)[0] == pytest.approx(solution.value, abs=1e-9)


def test_plans_satisfy_the_constraints_and_the_value() -> None:
    solution = solve_sequence_form(kuhn(cards=5))
    form = solution.form
    np.testing.assert_allclose(form.E @ solution.x, form.e, atol=1e-9)
    np.testing.assert_allclose(form.F @ solution.y, form.f, atol=1e-9)
    assert float(solution.x @ (form.A @ solution.y)) == pytest.approx(solution.value, abs=1e-9)
    assert solution.p[0] == pytest.approx(solution.value, abs=1e-9)
    # P1's best response to y is worth exactly the value: y is optimal.
    br = best_response(kuhn(cards=5), solution.strategy, 0)
    assert br.value == pytest.approx(solution.value, abs=1e-9)


def test_rps_value_is_zero() -> None:
    game = load("rps")
    solver = SequenceFormLP(game).run()
    assert solver.value == pytest.approx(0.0, abs=1e-9)
    strategy = solver.average_strategy()
    np.testing.assert_allclose(strategy.probs, 1 / 3, atol=1e-9)


def test_solver_interface() -> None:
    game = kuhn()
    solver = SequenceFormLP(game)
    assert solver.algorithm == "lp"
    assert solver.iterations == 0
    assert solver.history == []
    np.testing.assert_array_equal(solver.average_strategy().probs, Strategy.uniform(game).probs)
    with pytest.raises(SolverError, match="run"):
        _ = solver.value
    seen = []
    assert solver.run(callback=seen.append) is solver
    assert solver.iterations == 1
    assert len(solver.history) == 1
    assert solver.history[0].iteration == 1
    assert solver.history[0].exploitability < 1e-9
    assert len(seen) == 1
    average, current = solver.average_strategy(), solver.current_strategy()
    np.testing.assert_array_equal(average.probs, current.probs)
    assert average.metadata["algorithm"] == "lp"
    assert average.metadata["value"] == pytest.approx(KUHN_VALUE)
    # Solving again changes nothing.
    solver.run()
    assert solver.iterations == 1
    assert len(solver.history) == 1
    assert solver.hyperparameters() == {"memory_limit": solver.memory_limit}


@pytest.mark.parametrize(
    "kwargs",
    [{"iterations": 1000}, {"target_exploitability": 1e-3}, {"seconds": 5.0},
     {"check_every": 10}, {"iterations": 1, "seconds": 1.0}],
)
def test_stopping_rules_are_refused_not_ignored(kwargs: dict[str, object]) -> None:
    solver = SequenceFormLP(kuhn())
    with pytest.raises(SolverError, match="takes no stopping rule") as error:
        solver.run(**kwargs)  # type: ignore[arg-type]
    for name in kwargs:
        assert f"{name}=" in str(error.value)
    assert solver.iterations == 0  # nothing was solved
    assert not SequenceFormLP.iterative


def test_registered_as_lp() -> None:
    assert SOLVERS["lp"] is SequenceFormLP


@pytest.mark.parametrize("spec", ["kuhn(players=3)", "leduc(players=3)"])
def test_three_players_refused(spec: str) -> None:
    with pytest.raises(SolverError, match="two-player zero-sum"):
        SequenceFormLP(load(spec))


@pytest.mark.parametrize("spec", ["battle_of_sexes", "dominance"])
def test_general_sum_refused(spec: str) -> None:
    with pytest.raises(SolverError, match="general-sum"):
        SequenceFormLP(load(spec))


def test_memory_limit() -> None:
    game = leduc()
    with pytest.raises(GameTooLargeError, match="MB") as info:
        SequenceFormLP(game, memory_limit=100_000).run()
    assert info.value.found == estimate_lp_bytes(compile(game))
    with pytest.raises(SolverError, match="memory_limit"):
        SequenceFormLP(game, memory_limit=0)


def test_kuhn_normal_form_value() -> None:
    matrix, rows, cols = kuhn_normal_form(kuhn())
    assert matrix.shape == (64, 64)
    assert len(set(rows)) == 64
    assert len(set(cols)) == 64
    assert rows[0] == "A - bet, Apb - bet, K - bet, Kpb - bet, Q - bet, Qpb - bet"
    assert rows[1] == "A - bet, Apb - bet, K - bet, Kpb - bet, Q - bet, Qpb - pass"
    # Entries are exact expectations over the 6 deals: multiples of 1/6.
    np.testing.assert_allclose(matrix * 6, np.round(matrix * 6), atol=1e-12)
    assert solve_zero_sum(matrix).value == pytest.approx(KUHN_VALUE, abs=1e-9)


def test_normal_form_rows_are_pure_strategies_played() -> None:
    game = kuhn()
    form = induced_normal_form(game)
    # Playing pure row i against pure column j gives matrix[i, j]; check one pair by eval.
    tree = compile(game)
    probs = np.zeros((tree.n_infosets, tree.max_actions))
    i, j = 5, 42
    for player, plan in ((0, form.row_plans[i]), (1, form.col_plans[j])):
        for infoset in tree.infosets_of(player):
            start = int(tree.seq_offset[infoset])
            parent = plan[tree.infoset_parent_seq[infoset]]
            chosen = plan[start : start + 2]
            probs[infoset] = chosen if parent > 0 else [1.0, 0.0]
    value = expected_value(game, Strategy.from_array(game, probs))[0]
    assert form.A[i, j] == pytest.approx(value, abs=1e-12)


def test_normal_form_refuses_large_games() -> None:
    with pytest.raises(SolverError, match="pure strategies"):
        induced_normal_form(leduc())
    with pytest.raises(SolverError, match="3-card Kuhn"):
        kuhn_normal_form(kuhn(cards=4))


def test_checkpoint_round_trip(tmp_path: Path) -> None:
    game = kuhn()
    solver = SequenceFormLP(game).run()
    path = solver.save_checkpoint(tmp_path / "lp.npz")
    restored = Solver.load_checkpoint(path)
    assert isinstance(restored, SequenceFormLP)
    assert restored.value == solver.value
    assert restored.iterations == 1
    assert restored.history == solver.history
    expected = solver.average_strategy().probs
    np.testing.assert_array_equal(restored.average_strategy().probs, expected)
    unsolved = Solver.load_checkpoint(SequenceFormLP(game).save_checkpoint(tmp_path / "new.npz"))
    assert unsolved.iterations == 0
    assert unsolved.run().value == pytest.approx(KUHN_VALUE, abs=1e-9)  # type: ignore[attr-defined]
