"""The range solver on several threads: the units split, and the same numbers on any count."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.errors import SolverError
from pokerlab.games import leduc
from pokerlab.subgame import leduc_public_game
from pokerlab.subgame.public_tree import CHANCE_NODE, COL_KIND, COL_PARENT
from pokerlab.subgame.range_solver import RangeSolver, profile_exploitability, work_arrays
from pokerlab.subgame.safe_search import opponent_values
from pokerlab.subgame.spot import Spot
from pokerlab.subgame.units import (
    MIN_THREADED_WORK,
    resolve_threads,
    run_groups,
    tree_units,
)

TURN = Spot(board="Td9d6hQc", oop="22+,A2s+,K9s+,QTs+,JTs,ATo+,KJo+", ip="random", pot=60,
            stack=200, bets="75%", raises="a")


@pytest.fixture(scope="module")
def turn_game():  # type: ignore[no-untyped-def]
    return TURN.build().public


def test_units_split_every_node_once(turn_game) -> None:  # type: ignore[no-untyped-def]
    tree = turn_game.tree
    units = tree_units(tree)
    assert units.n_units > 40  # one per river card below each turn line ending in a deal
    seen = np.concatenate([units.top, units.nodes])
    assert np.array_equal(np.sort(seen), np.arange(tree.n_nodes))
    kinds, parents = tree.nodes[:, COL_KIND], tree.nodes[:, COL_PARENT]
    top = set(units.top.tolist())
    for u in range(units.n_units):
        nodes = units.nodes[units.offsets[u] : units.offsets[u + 1]]
        assert np.all(np.diff(nodes) > 0)  # parents before children
        root = int(nodes[0])
        assert int(parents[root]) in top
        assert kinds[parents[root]] == CHANCE_NODE
        assert set(parents[nodes[1:]].tolist()) <= set(nodes.tolist())  # closed below
    assert tree_units(tree) is units  # worked out once per tree


def test_groups_balance_and_small_games_stay_on_one_thread(turn_game) -> None:  # type: ignore[no-untyped-def]
    units = tree_units(turn_game.tree)
    width = max(turn_game.n_hands)
    assert int(np.diff(units.offsets).sum()) * width >= MIN_THREADED_WORK
    groups = units.groups(2, width)
    assert len(groups) == 2
    assert np.array_equal(np.sort(np.concatenate(groups)), units.everything)
    loads = [int(np.diff(units.offsets)[g].sum()) for g in groups]
    assert max(loads) <= 1.1 * min(loads)
    small = leduc_public_game(leduc())
    assert len(tree_units(small.tree).groups(8, max(small.n_hands))) == 1


def test_any_thread_count_gives_the_same_numbers(turn_game) -> None:  # type: ignore[no-untyped-def]
    solvers = {}
    for threads in (1, 2, 3):
        solver = RangeSolver(turn_game, threads=threads)
        solver.run(iterations=6, check_every=3)
        solvers[threads] = solver
    one = solvers[1]
    for threads in (2, 3):
        other = solvers[threads]
        for name, array in one.state().items():
            assert np.array_equal(array, other.state()[name]), (threads, name)
        assert [row.exploitability for row in one.history] == \
            [row.exploitability for row in other.history]
    profile = one.average_arrays()
    assert profile_exploitability(turn_game, profile, threads=1) == \
        profile_exploitability(turn_game, profile, threads=2)
    assert np.array_equal(opponent_values(turn_game, profile, 1, threads=1),
                          opponent_values(turn_game, profile, 1, threads=2))
    assert one.exploitability() > 0  # a real game, not an empty pass


def test_threads_are_checked() -> None:
    assert resolve_threads(None) >= 1
    assert resolve_threads(3) == 3
    for bad in (0, -1, 1.5, True, "2"):
        with pytest.raises(SolverError, match="threads must be a whole number"):
            resolve_threads(bad)  # type: ignore[arg-type]


def test_an_error_on_another_thread_is_raised_after_every_group_ends() -> None:
    finished = []

    def work(units: np.ndarray, g: int) -> None:
        if g == 1:
            raise ValueError("group 1 failed")
        finished.append(g)

    groups = [np.array([0]), np.array([1]), np.array([2])]
    with pytest.raises(ValueError, match="group 1 failed"):
        run_groups(work, groups)
    assert sorted(finished) == [0, 2]


def test_work_arrays_are_shared_by_the_threads_of_one_pass(turn_game) -> None:  # type: ignore[no-untyped-def]
    # the evaluation entry point allocates each extra thread's scratch; the caller's
    # work arrays come back filled exactly as on one thread
    from pokerlab.subgame.range_solver import root_values, uniform_arrays

    profile = uniform_arrays(turn_game)
    filled = []
    for threads in (1, 2):
        work = work_arrays(turn_game)
        root_values(turn_game, 0, profile, True, work, threads=threads)
        filled.append(work[2].copy())
    assert np.array_equal(filled[0], filled[1])


def test_an_interrupt_waits_for_the_other_threads() -> None:
    import time

    finished = []

    def work(units: np.ndarray, g: int) -> None:
        if g == 0:
            raise KeyboardInterrupt  # Ctrl-C on the calling thread
        time.sleep(0.3)
        finished.append(g)

    with pytest.raises(KeyboardInterrupt):
        run_groups(work, [np.array([0]), np.array([1])])
    assert finished == [1]  # no thread still writes to the solver's arrays afterwards
