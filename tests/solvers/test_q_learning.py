"""Tabular Q-learning in self-play through the State API (issue 29)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pokerlab.errors import SolverError
from pokerlab.eval import exploitability, nash_conv
from pokerlab.games import kuhn, leduc, load
from pokerlab.solvers import SOLVERS, QLearning, Solver, make_solver
from pokerlab.strategy import InfosetTable, Strategy


def test_registered_and_built_by_name() -> None:
    assert SOLVERS["q-learning"] is QLearning
    solver = make_solver("q-learning", kuhn(), seed=3, epsilon=0.2)
    assert isinstance(solver, QLearning)
    assert solver.hyperparameters() == {"learning_rate": 0.1, "epsilon": 0.2, "seed": 3}


def test_split_runs_equal_one_run() -> None:
    one = QLearning(leduc(), seed=7).run(iterations=500, check_every=500)
    split = QLearning(leduc(), seed=7).run(iterations=200, check_every=200)
    split.run(iterations=300, check_every=300)
    assert one.q_values() == split.q_values()
    assert one.states_visited == split.states_visited
    np.testing.assert_array_equal(one.average_strategy().probs, split.average_strategy().probs)


def test_same_seed_same_table_other_seed_another() -> None:
    a = QLearning(kuhn(), seed=1).run(iterations=300, check_every=300).q_values()
    b = QLearning(kuhn(), seed=1).run(iterations=300, check_every=300).q_values()
    c = QLearning(kuhn(), seed=2).run(iterations=300, check_every=300).q_values()
    assert a == b
    assert a != c


def test_checkpoint_resumes_exactly(tmp_path: Path) -> None:
    straight = QLearning(kuhn(), seed=5).run(iterations=400, check_every=200)
    first = QLearning(kuhn(), seed=5).run(iterations=200, check_every=200)
    path = first.save_checkpoint(tmp_path / "q.npz")
    resumed = Solver.load_checkpoint(path)
    assert isinstance(resumed, QLearning)
    resumed.run(iterations=200, check_every=200)
    assert resumed.q_values() == straight.q_values()
    assert resumed.states_visited == straight.states_visited
    assert [r.exploitability for r in resumed.history] == [
        r.exploitability for r in straight.history
    ]


def test_q_values_converge_to_action_values_against_uniform_play() -> None:
    # epsilon = 1: both players play uniformly; Q tracks each action's chips, then the
    # greedy continuation. Folding always loses the 1-chip ante; P2's K calling a uniform P1's
    # bet (P1 holds Q or A, each half the time) wins 2 or loses 2: 0 on average; P2's A
    # betting after a check is called half the time: 0.5 * 2 + 0.5 * 1 = 1.5.
    q = QLearning(kuhn(), learning_rate=0.01, epsilon=1.0, seed=0).run(
        iterations=20_000, check_every=20_000
    ).q_values()
    for key in ("K|b", "A|b", "Q|b", "A|pb", "Q|pb", "K|pb"):
        assert q[key][0] == pytest.approx(-1.0, abs=2e-3)
    assert q["A|b"][1] == pytest.approx(2.0, abs=2e-3)
    assert q["Q|b"][1] == pytest.approx(-2.0, abs=2e-3)
    assert q["K|b"][1] == pytest.approx(0.0, abs=0.1)
    assert q["A|p"][1] == pytest.approx(1.5, abs=0.1)


def test_it_finds_a_pure_equilibrium_where_one_exists() -> None:
    # The tutorial's 3x3 dominance example: (Action 1, Action 1) is the pure equilibrium.
    game = load("dominance")
    solver = QLearning(game, seed=0).run(iterations=3000, check_every=3000)
    greedy = solver.greedy_strategy()
    assert greedy.probabilities("P1") == {0: 1.0, 1: 0.0, 2: 0.0}
    assert greedy.probabilities("P2") == {0: 1.0, 1: 0.0, 2: 0.0}
    assert nash_conv(game, greedy) == 0.0


def test_strategies_are_strategies_where_the_game_compiles() -> None:
    solver = QLearning(kuhn(), epsilon=0.2, seed=0).run(iterations=1000, check_every=500)
    assert len(solver.history) == 2
    greedy, current, average = (solver.greedy_strategy(), solver.current_strategy(),
                                solver.average_strategy())
    for table in (greedy, current, average):
        assert isinstance(table, Strategy)
    assert solver.infosets_touched() == 12
    for key in solver.q_values():
        g, c = greedy.probabilities(key), current.probabilities(key)
        best = max(g, key=lambda a: g[a])
        if g[best] == 1.0:
            assert c[best] == pytest.approx(0.8 + 0.1)
    assert solver.history[-1].exploitability == pytest.approx(exploitability(kuhn(), average))
    assert average.metadata["algorithm"] == "q-learning"
    assert average.metadata["strategy"] == "average"


@pytest.mark.slow
def test_on_holdem_it_walks_states_and_keeps_a_table() -> None:
    # Too big to compile: the strategies are tables over the keys met, nothing is measured.
    game = load('holdem(betting="limit")')
    solver = QLearning(game, seed=0).run(iterations=30, check_every=30)
    assert not solver.can_measure
    assert solver.history[-1].exploitability is None
    table = solver.average_strategy()
    assert isinstance(table, InfosetTable)
    assert len(table.keys) == solver.infosets_touched() > 30


@pytest.mark.parametrize(("name", "value"), [("learning_rate", 0.0), ("learning_rate", 1.5),
                                             ("epsilon", -0.1), ("epsilon", True)])
def test_bad_hyperparameters(name: str, value: object) -> None:
    with pytest.raises(SolverError, match=name):
        QLearning(kuhn(), **{name: value})  # type: ignore[arg-type]
