"""The range solver on several threads: the units split, and the same numbers on any count."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.errors import SolverError
from pokerlab.games import leduc
from pokerlab.subgame import leduc_public_game
from pokerlab.subgame.public_tree import CHANCE_NODE, COL_KIND, COL_PARENT
from pokerlab.subgame.range_solver import RangeSolver, profile_exploitability
from pokerlab.subgame.safe_search import opponent_values
from pokerlab.subgame.spot import Spot
from pokerlab.subgame.units import (
    MIN_THREADED_WORK,
    resolve_threads,
    run_groups,
    tree_units,
    work_arrays,
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


def test_threaded_passes_call_the_kernels_the_serial_passes_compiled(turn_game) -> None:  # type: ignore[no-untyped-def]
    # The serial pass hands the unit kernels its read-only list of every unit; the groups
    # of a threaded pass are read-only too, or each kernel compiled twice (43 s against 30
    # s for a first solve on one thread then two, 38 s against 27 the other way round).
    from pokerlab.subgame import _kernels as kernels

    groups = tree_units(turn_game.tree).groups(2, max(turn_game.n_hands))
    assert all(not group.flags.writeable for group in groups)
    for threads in (1, 2):
        solver = RangeSolver(turn_game, threads=threads)
        solver.run(iterations=2, check_every=2)
    for kernel in (kernels.cfr_units, kernels.evaluate_units):
        assert kernel.signatures
        assert all(not signature[0].mutable for signature in kernel.signatures), kernel


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


# -- the compact layout ---------------------------------------------------------------------
def test_the_compact_layout_gives_rows_to_the_top_and_the_roots_only(turn_game) -> None:  # type: ignore[no-untyped-def]
    tree = turn_game.tree
    units = tree_units(tree)
    slot = units.slot
    own = np.flatnonzero(slot >= 0)
    roots = units.nodes[units.offsets[:-1]]
    assert np.array_equal(own, np.sort(np.concatenate([units.top, roots])))
    assert np.array_equal(np.sort(slot[own]), np.arange(units.n_static))  # one row each
    assert slot[0] == 0  # the root reads row 0 in every layout
    for u in range(units.n_units):  # a unit's other nodes: scratch rows 0..span-1, distinct
        inner = units.nodes[units.offsets[u] + 1 : units.offsets[u + 1]]
        rows = -1 - slot[inner]
        assert len(set(rows.tolist())) == len(rows)
        assert rows.min(initial=0) >= 0
        assert rows.max(initial=-1) < units.span
    assert units.n_static + units.span == tree.work_rows(1) < tree.n_nodes / 5
    solver = RangeSolver(turn_game, threads=2)
    assert solver._work.cfv.shape[0] == tree.work_rows(2)


def test_compact_and_full_layouts_give_the_same_values(turn_game) -> None:  # type: ignore[no-untyped-def]
    from pokerlab.subgame.range_solver import root_values

    profile = RangeSolver(turn_game, threads=1).run(iterations=4, check_every=4).average_arrays()
    units = tree_units(turn_game.tree)
    own = np.flatnonzero(units.slot >= 0)
    for threads in (1, 2):
        for best_response in (False, True):
            full = work_arrays(turn_game)
            compact = work_arrays(turn_game, areas=2)
            root_values(turn_game, 1, profile, best_response, full, threads=threads)
            root_values(turn_game, 1, profile, best_response, compact, threads=threads)
            assert np.array_equal(full.cfv[own], compact.cfv[units.slot[own]])
            assert np.array_equal(full.cfreach[full.source[own]],
                                  compact.cfreach[compact.source[own]])


@pytest.mark.parametrize("precision", ["float64", "float32", "compressed"])
def test_the_checks_read_the_average_from_the_sums_exactly(turn_game, precision) -> None:  # type: ignore[no-untyped-def]
    locks = ["x:check=0.25,b45=0.75"]
    solver = RangeSolver(turn_game, precision=precision, locks=locks, threads=2)
    solver.run(iterations=5, check_every=5)
    measured = solver.history[-1].exploitability
    average = solver.average_arrays()  # normalized, the locks written in
    assert measured == solver.exploitability(average)  # in the solver's work arrays
    assert profile_exploitability(turn_game, average, locks=solver.locks) == \
        profile_exploitability(turn_game, solver._sums, locks=solver.locks, threads=1,
                               normalized=True)


def test_a_finished_solver_holds_the_average_in_its_regrets(turn_game, tmp_path) -> None:  # type: ignore[no-untyped-def]
    solver = RangeSolver(turn_game, threads=1).run(iterations=4, check_every=4)
    average = solver.average_arrays()
    exploitability = solver.exploitability()
    regrets = solver._regrets
    finished = solver.finish()
    assert finished[0] is regrets[0]  # no third pair of strategy-sized arrays
    assert finished[1] is regrets[1]
    for p in (0, 1):
        assert np.array_equal(finished[p], average[p])
    assert solver.finish() is finished
    assert solver.exploitability() == exploitability
    state = RangeSolver(turn_game, threads=1).state()
    for attempt in (lambda: solver.run(iterations=1), lambda: solver.state(),
                    lambda: solver.save_checkpoint(tmp_path / "c.npz"),
                    solver.current_arrays,
                    lambda: solver.restore(state, iterations=0, seconds=0.0, history=[])):
        with pytest.raises(SolverError, match="this solver is finished"):
            attempt()


def test_a_finished_solution_equals_the_one_that_keeps_solving() -> None:
    from pokerlab.subgame.result import SpotSolution

    built = TURN.build()
    solutions = []
    for finish in (False, True):
        solver = RangeSolver(built.public, threads=1).run(iterations=4, check_every=4)
        solutions.append(SpotSolution.from_solver(solver, built, finish=finish))
    kept, finished = solutions
    assert kept.exploitability == finished.exploitability
    for p in (0, 1):
        assert np.array_equal(kept.strategies[p], finished.strategies[p])
    for key in ("", "x", "x-b45"):  # the compact passes at the top, then the full ones
        one, other = kept.node(key), finished.node(key)
        assert np.array_equal(one.ev, other.ev, equal_nan=True)
        assert np.array_equal(one.weights, other.weights)


def test_compact_work_arrays_are_refused_where_every_node_is_read(turn_game) -> None:  # type: ignore[no-untyped-def]
    from pokerlab.subgame.range_solver import root_values, uniform_arrays

    profile = uniform_arrays(turn_game)
    with pytest.raises(SolverError, match="full layout"):
        opponent_values(turn_game, profile, 1, work=work_arrays(turn_game, areas=1))
    with pytest.raises(SolverError, match="for the opponent only"):
        root_values(turn_game, 0, profile, False, work_arrays(turn_game), normalized=True)
