"""Node locking: the lock grammar and its errors, locks resolved on a spot's tree, the
range solver solving against locked nodes (checked against the exact best response of the
compiled spot game), exploitability of the locked game, checkpoints and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from pokerlab.cli import main
from pokerlab.errors import SolverError, SpecError
from pokerlab.eval import best_response
from pokerlab.solvers import run_console
from pokerlab.subgame import RangeSolver, evaluate_profile
from pokerlab.subgame.checkpoint import load_range_checkpoint
from pokerlab.subgame.node_lock import NodeLock, parse_lock, read_locks, resolve_locks
from pokerlab.subgame.result import SpotSolution
from pokerlab.subgame.spot import Spot
from pokerlab.subgame.spot_game import SpotGame, spot_game, spot_strategy
from tests.interrupts import InterruptAfter

SMALL = {"board": "Td9d6hQc2s", "oop": "AA, JJ, T9s, 87s, K8s", "ip": "KK, QQ, A9s, J8s, A2s",
         "pot": 100, "stack": 150, "bets": "100%", "raises": "a"}
"""The smallest river spot of tests/subgame/test_spot.py: OOP 23 combos, IP 19, 15 nodes."""

IP_CALLS = ("x:check=1", "b100:call=1", "x-b100-r150:call=1")
"""Every IP node of SMALL: IP checks behind and calls every bet (a calling station)."""


@pytest.fixture(scope="module")
def small() -> Spot:
    return Spot(**SMALL)  # type: ignore[arg-type]


# -- the grammar ------------------------------------------------------------------------------
def test_a_lock_reads_node_hands_and_frequencies_and_writes_them_back() -> None:
    lock = parse_lock(" x-b100 @ QQ+, AKs : call = 0.7 , fold=30% ")
    assert lock == NodeLock("x-b100", (("call", 0.7), ("fold", 0.3)), "QQ+,AKs")
    assert parse_lock(str(lock)) == lock
    assert parse_lock("x-b100:call=1") == NodeLock("x-b100", (("call", 1.0),))
    assert parse_lock(":Bet  100=1").node == ""  # the root; names keep one space, lower case
    assert parse_lock(":Bet  100=1").frequencies == (("bet 100", 1.0),)
    # Frequencies within 1e-6 of 1 are divided by their sum: the lock is a distribution.
    thirds = parse_lock("x:check=0.3333333,b100=0.6666666").frequencies
    assert sum(p for _, p in thirds) == pytest.approx(1.0, abs=1e-15)


@pytest.mark.parametrize(("text", "says"), [
    ("x-b100", "no ':' before the actions"),
    ("x-b100:", "is not ACTION=FREQUENCY"),
    ("x-b100:call", "is not ACTION=FREQUENCY"),
    ("x-b100:call=0.5", "add up to 0.5"),
    ("x-b100:fold=-0.5,call=1.5", "cannot read the frequency '-0.5'"),
    ("x-b100:call=150%", "outside [0, 1]"),
    ("x-b100:call=lots", "cannot read the frequency 'lots' of 'call'"),
    ("x-b100:call=0.5,call=0.5", "action 'call' is given twice"),
    ("x-b100@:call=1", "no hands after '@'"),
    ("x-b100@AKs:0.5:call=1", "take no weights"),
    ("x-b100@AKx:call=1", "cannot read the hands 'AKx'"),
    ("x b100:call=1", "is not a node key"),
])
def test_bad_lock_syntax_is_one_clear_error(text: str, says: str) -> None:
    with pytest.raises(SpecError) as info:
        parse_lock(text)
    assert f"lock {text!r}" in str(info.value)
    assert says in str(info.value)


def test_a_locks_file_skips_comments_and_names_the_bad_line(tmp_path: Path) -> None:
    good = tmp_path / "locks.txt"
    good.write_text("# IP is a calling station\nx:check=1\n\n  b100:call=1  # always\n")
    assert read_locks(good) == (parse_lock("x:check=1"), parse_lock("b100:call=1"))
    bad = tmp_path / "bad.txt"
    bad.write_text("x:check=1\nb100:call=0.5\n")
    with pytest.raises(SpecError, match=r"bad.txt:2: lock 'b100:call=0.5'.*add up to 0.5"):
        read_locks(bad)
    with pytest.raises(SpecError, match="cannot read the locks file"):
        read_locks(tmp_path / "missing.txt")


# -- locks on a spot's tree ---------------------------------------------------------------------
def test_locks_resolve_to_rows_and_hands_later_locks_win(small: Spot) -> None:
    game = small.build().public
    tree = game.tree
    table = resolve_locks(game, ["b100:call=1", "b100@KsKh:c=0.25,f=75%", "x-b100:fold=1"])
    b100, xb100 = tree.keys.index("b100"), tree.keys.index("x-b100")
    assert table.nodes == (b100, b100, xb100)
    assert table.players == (1, 1, 0)
    locked = table.locked_hands(b100)  # [fold, call, all-in] x IP's hands
    kings = game.hands[1].names.index("KsKh")
    assert locked[:, kings].tolist() == [0.75, 0.25, 0.0]
    others = np.delete(locked, kings, axis=1)
    assert (others == np.array([[0.0], [1.0], [0.0]])).all()
    assert table.locked_hands(tree.keys.index("x")).shape == (0, 0)
    # Written into a strategy array: exactly the locked rows and hands, nothing else.
    strategy = np.full((tree.n_rows[1], game.n_hands[1]), 0.5)
    table.apply(1, strategy)
    row = tree.row(b100)
    assert strategy[row : row + 3, kings].tolist() == [0.75, 0.25, 0.0]
    assert (strategy[:row] == 0.5).all()
    assert (strategy[row + 3 :] == 0.5).all()


@pytest.mark.parametrize(("text", "says"), [
    ("x-b75:call=1", "the spot has no node 'x-b75'; the nodes after 'x' are 'x-x', 'x-b100'"),
    ("x-b100-c:call=1", "'x-b100-c' is a showdown node; a lock goes on a decision node"),
    ("x-b100:raise=1", "'x-b100' has no action 'raise'; its actions are fold (f), call (c), "
                       "all-in 150 (r150)"),
    (":call=1", "the root has no action 'call'; its actions are check (x), bet 100 (b100)"),
    ("x-b100:c=0.5,call=0.5", "'call' names the action 'call' a second time"),
    ("b100@AKs:call=1", "IP (acting at 'b100') holds no combo of 'AKs' on this board"),
])
def test_a_lock_that_does_not_fit_the_spot_names_what_is_allowed(small: Spot, text: str,
                                                                  says: str) -> None:
    with pytest.raises(SpecError) as info:
        resolve_locks(small.build().public, [text])
    assert says in str(info.value)


# -- solving against locks ------------------------------------------------------------------
def _solve(spot: Spot, locks: tuple[str, ...], target: float) -> tuple[RangeSolver, SpotGame]:
    game = spot_game(spot)
    solver = RangeSolver(game.public, locks=locks).run(target_exploitability=target,
                                                        iterations=2_000, check_every=20)
    return solver, game


def test_oop_plays_the_exact_best_response_to_a_locked_calling_station(small: Spot) -> None:
    target = 1e-4 * small.pot
    solver, game = _solve(small, IP_CALLS, target)
    probs = solver.average_arrays()
    tree = game.public.tree
    # The locked nodes report the lock exactly, for every hand.
    for key, action in (("x", 0), ("b100", 1), ("x-b100-r150", 1)):
        row, count = tree.row(tree.keys.index(key)), len(tree.children(tree.keys.index(key)))
        expected = np.zeros((count, game.public.n_hands[1]))
        expected[action] = 1.0
        assert (probs[1][row : row + count] == expected).all()
    # OOP's value equals its best response to IP's strategy, computed independently by the
    # exact evaluator over the compiled spot game (every deal, no public-tree pass).
    result = solver.evaluate()
    independent = best_response(game, spot_strategy(game, probs), 0).value
    assert solver.last_exploitability <= target
    assert 0.0 <= independent - result.values[0] <= 2 * target + 1e-9
    assert result.best_response_values[0] == pytest.approx(independent, abs=1e-9)
    # IP is locked everywhere: in the locked game it cannot gain by deviating.
    assert result.best_response_values[1] == pytest.approx(result.values[1], abs=1e-9)
    # Against a calling station OOP gains on the unlocked solution's value.
    free = RangeSolver(game.public).run(target_exploitability=target, check_every=20)
    assert result.values[0] > free.evaluate().values[0] + 1.0


def test_a_lock_at_one_node_leaves_the_rest_to_solve(small: Spot) -> None:
    target = 1e-4 * small.pot
    solver, game = _solve(small, ("b100:call=1",), target)
    probs = solver.average_arrays()
    tree = game.public.tree
    row = tree.row(tree.keys.index("b100"))
    assert (probs[1][row : row + 3] == np.array([[0.0], [1.0], [0.0]])).all()
    # IP still solves where it is free (some hands mix checks and bets at 'x')...
    x = tree.row(tree.keys.index("x"))
    assert ((probs[1][x] > 0.01) & (probs[1][x] < 0.99)).any()
    # ...and OOP's value is its exact best response to IP's locked-and-solved strategy.
    result = solver.evaluate()
    independent = best_response(game, spot_strategy(game, probs), 0).value
    assert 0.0 <= independent - result.values[0] <= 2 * target + 1e-9
    # The locked game's exploitability: IP's best response plays the lock at 'b100', so
    # it gains less than an unrestricted best response (which folds its weak hands there).
    unrestricted = evaluate_profile(game.public, probs)
    assert result.best_response_values[1] <= unrestricted.best_response_values[1] + 1e-12
    assert unrestricted.exploitability > result.exploitability


def test_a_combo_lock_binds_that_combo_only(small: Spot) -> None:
    target = 1e-3 * small.pot
    solver, game = _solve(small, ("x@KsKh:check=0.3,b100=0.7",), target)
    probs = solver.average_arrays()[1]
    hands = game.public.hands[1]
    x = game.public.tree.row(game.public.tree.keys.index("x"))
    kings = hands.names.index("KsKh")
    assert probs[x : x + 2, kings].tolist() == [0.3, 0.7]
    assert solver.current_arrays()[1][x : x + 2, kings].tolist() == [0.3, 0.7]
    free = [h for h in range(hands.n_hands) if h != kings]
    assert np.abs(probs[x + 1, free] - 0.7).min() > 1e-3  # each other combo solves freely
    assert solver.last_exploitability <= target


def test_a_checkpoint_keeps_its_locks_and_refuses_others(small: Spot, tmp_path: Path) -> None:
    public = small.build().public
    locks = ("b100:call=1", "x@KsKh:check=1")
    straight = RangeSolver(public, locks=locks).run(iterations=30, check_every=10)
    first = RangeSolver(public, locks=locks).run(iterations=20, check_every=10)
    path = first.save_checkpoint(tmp_path / "locked.npz")
    resumed = RangeSolver.load_checkpoint(path, game=public, locks=[parse_lock(t) for t in locks])
    resumed.run(iterations=10, check_every=10)
    for a, b in zip(straight.state().values(), resumed.state().values(), strict=True):
        assert np.array_equal(a, b)
    # Rebuilt from the file alone, the solver has the file's locks.
    assert load_range_checkpoint(path).locks.texts == ["b100:call=1.0", "x@KsKh:check=1.0"]
    with pytest.raises(SolverError, match=r"was solved with the locks 'b100:call=1.0', "
                       r"'x@KsKh:check=1.0'; this run has \(none\): resume with the same"):
        RangeSolver.load_checkpoint(path, game=public, locks=())
    with pytest.raises(SolverError, match=r"this run has 'b100:fold=1.0'"):
        RangeSolver.load_checkpoint(path, game=public, locks=["b100:fold=1"])


# -- the command line -------------------------------------------------------------------------
CLI = ["spot", "solve", "--board", "Td9d6hQc2s", "--oop", "AA, JJ, T9s, 87s, K8s", "--ip",
       "KK, QQ, A9s, J8s, A2s", "--pot", "100", "--stack", "150", "--bets", "100%",
       "--raises", "a"]
"""SMALL on the command line."""


def test_solve_with_locks_then_show_the_locked_node(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    locks = tmp_path / "ip.txt"
    locks.write_text("# IP calls every bet\nb100:call=1\nx-b100-r150:call=1  # the shove too\n")
    out = tmp_path / "locked.npz"
    assert main([*CLI, "--target", "0.1%", "--locks", str(locks), "--lock", "x:check=1",
                 "--out", str(out), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["locks"] == ["b100:call=1.0", "x-b100-r150:call=1.0", "x:check=1.0"]
    solution = SpotSolution.load(out)
    assert [str(lock) for lock in solution.locks] == result["locks"]
    assert (solution.node("b100").strategy == np.array([[0.0], [1.0], [0.0]])).all()
    assert main(["spot", "show", str(out), "--node", "b100"]) == 0
    text = capsys.readouterr().out
    assert "locked (whole range): call 100%" in text
    assert "2 locks at other nodes: 'x-b100-r150:call=1.0', 'x:check=1.0'" in text
    assert main(["spot", "show", str(out), "--node", "x-b100", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["locks"] == []
    assert len(shown["spot_locks"]) == 3


@pytest.mark.parametrize(("lock", "message"), [
    ("x-b100:raise=1", "'x-b100' has no action 'raise'; its actions are fold (f), call (c), "
                       "all-in 150 (r150)"),
    ("x-b75:call=1", "the spot has no node 'x-b75'"),
    ("b100@AKs:call=1", "holds no combo of 'AKs'"),
    ("b100:call=0.6", "add up to 0.6"),
])
def test_a_bad_lock_is_one_line_and_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           lock: str, message: str) -> None:
    code = main([*CLI, "--iterations", "10", "--lock", lock, "--out", str(tmp_path / "x.npz")])
    lines = capsys.readouterr().err.splitlines()  # the spot and its size, then the error
    assert code == 1
    assert lines[-1].startswith("error: lock ")
    assert message in lines[-1]
    assert sum(line.startswith("error") for line in lines) == 1


def test_a_locked_solve_resumes_only_with_its_locks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args = [*CLI, "--iterations", "40", "--check-every", "10", "--json", "--lock",
            "b100:call=1", "--out", str(tmp_path / "part.npz")]
    monkeypatch.setattr(run_console, "StopSignals", lambda: InterruptAfter(2))
    assert main(args) == 130
    assert "--lock b100:call=1 --resume" in capsys.readouterr().err
    monkeypatch.undo()
    other = [*args[: args.index("--lock")], "--lock", "b100:fold=1", *args[-2:], "--resume"]
    assert main(other) == 1
    err = capsys.readouterr().err
    assert "was solved with the locks 'b100:call=1.0'; this run has 'b100:fold=1.0'" in err
    assert main([*args, "--resume"]) == 0
    assert json.loads(capsys.readouterr().out)["iterations"] == 40


def test_a_lock_below_a_dealt_card_binds_that_card_s_node_only() -> None:
    spot = Spot(board="Td9d6hQc", oop="AA, T9s", ip="KK, 87s", pot=60, stack=120, bets="100%",
                raises="")
    built = spot.build()
    solver = RangeSolver(built.public, locks=["x-x/2s/x:b60=1"]).run(iterations=60,
                                                                      check_every=60)
    solution = SpotSolution.from_solver(solver, built)
    locked = solution.node("x-x/2s/x")  # IP after checks on the turn and on the 2s
    assert locked.actions == ("check", "bet 60")
    assert (locked.strategy == np.array([[0.0], [1.0]])).all()
    assert [str(lock) for lock in solution.locks_at("x-x/2s/x")] == ["x-x/2s/x:b60=1.0"]
    assert solution.locks_at("x-x/2c/x") == ()
    assert (solution.node("x-x/2c/x").strategy[0] > 0.5).any()  # the same node on 2c: free
    with pytest.raises(SpecError, match=r"no node 'x-x/Zz/x'.*'x-x/2c/', .*\(48 in all\)"):
        resolve_locks(built.public, ["x-x/Zz/x:b60=1"])
