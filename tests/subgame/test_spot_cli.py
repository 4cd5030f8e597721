"""`pokerlab spot solve / show`, checkpoints that resume exactly, the solution's reports."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from pokerlab.cards import equity
from pokerlab.cli import main
from pokerlab.eval import exploitability
from pokerlab.solvers import run_console
from pokerlab.strategy import tabulate
from pokerlab.subgame import RangeSolver, Spot
from pokerlab.subgame.checkpoint import load_range_checkpoint, save_range_checkpoint
from pokerlab.subgame.result import SpotSolution, grid_cell
from tests.interrupts import InterruptAfter

ARGS = ["spot", "solve", "--board", "Td9d6hQc2s", "--oop", "AA, JJ, T9s, 87s:0.5, K8s",
        "--ip", "KK, QQ, A9s, J8s, A2s:0.25", "--pot", "100", "--stack", "150",
        "--bets", "50%, 100%", "--raises", "a"]


def test_solve_then_show(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "river.npz"
    assert main([*ARGS, "--target", "0.5%", "--out", str(out), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["percent_of_pot"] <= 0.5
    assert result["ev"]["oop"] + result["ev"]["ip"] == pytest.approx(100.0, abs=1e-9)
    solution = SpotSolution.load(out)
    assert solution.iterations == result["iterations"]

    png = tmp_path / "grid.png"
    assert main(["spot", "show", str(out), "--node", "x", "--png", str(png)]) == 0
    text = capsys.readouterr().out
    assert "node 'x': decision, IP to act" in text
    assert "13x13 grid" in text
    assert png.read_bytes()[:4] == b"\x89PNG"
    assert png.stat().st_mode & 0o777 == 0o644 & ~_umask()  # the one atomic writer's mode
    assert [p.name for p in tmp_path.iterdir() if ".tmp" in p.name] == []

    assert main(["spot", "show", str(out), "--node", "b50", "--json"]) == 0
    node = json.loads(capsys.readouterr().out)
    assert node["actions"] == ["fold", "call", "all-in 150"]
    for hand in node["hands"]:
        assert sum(hand["strategy"]) == pytest.approx(1.0)


def test_an_interrupted_solve_resumes_to_the_same_solution(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = tmp_path / "whole.npz"
    args = [*ARGS, "--iterations", "60", "--check-every", "10", "--json"]
    assert main([*args, "--out", str(whole)]) == 0
    part = tmp_path / "part.npz"
    monkeypatch.setattr(run_console, "StopSignals", lambda: InterruptAfter(2))
    assert main([*args, "--out", str(part)]) == 130
    checkpoint = tmp_path / "part.checkpoint.npz"
    assert checkpoint.exists()
    assert not part.exists()
    monkeypatch.undo()
    assert main([*args, "--out", str(part), "--resume"]) == 0
    assert not checkpoint.exists()
    resumed, uninterrupted = SpotSolution.load(part), SpotSolution.load(whole)
    assert resumed.iterations == uninterrupted.iterations == 60
    for p in (0, 1):
        assert np.array_equal(resumed.strategies[p], uninterrupted.strategies[p])


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"--board": "Td9dTd6hQc"}, "Td"),
        ({"--oop": "AsKs", "--board": "AsKd7c"}, "no hand left"),
        ({"--bets": "50%,big"}, "cannot read bet size 'big'"),
        ({"--stack": "0"}, "stack must be a whole number of chips, at least 1"),
        ({"--target": "half"}, "--target 'half'"),
    ],
)
def test_bad_input_is_one_line_and_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: dict[str, str], message: str
) -> None:
    args = list(ARGS)
    for flag, value in change.items():
        if flag in args:
            args[args.index(flag) + 1] = value
        else:
            args += [flag, value]
    code = main([*args, "--iterations", "10", "--out", str(tmp_path / "x.npz")])
    err = capsys.readouterr().err
    assert code == 1
    assert message in err
    assert err.startswith("error: ")
    assert err.count("\n") == 1


def test_a_stopping_rule_is_required(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*ARGS, "--out", str(tmp_path / "x.npz")]) == 1
    assert "stopping rule" in capsys.readouterr().err


def test_range_checkpoints_resume_bit_for_bit(tmp_path: Path) -> None:
    spot = Spot(board="Td9d6hQc", oop="AA, T9s", ip="KK, 87s", pot=60, stack=60, bets="100%",
                raises="")
    public = spot.build().public
    straight = RangeSolver(public).run(iterations=30, check_every=10)
    first = RangeSolver(public).run(iterations=20, check_every=10)
    path = save_range_checkpoint(first, tmp_path / "turn.npz")
    resumed = load_range_checkpoint(path)  # rebuilds the spot from the file
    assert resumed.iterations == 20
    assert len(resumed.history) == 2
    resumed.run(iterations=10, check_every=10)
    for a, b in zip(resumed.average_arrays(), straight.average_arrays(), strict=True):
        assert np.array_equal(a, b)
    assert resumed.history[-1].exploitability == straight.history[-1].exploitability


def _solution(iterations: int = 200) -> SpotSolution:
    spot = Spot(board="Td9d6hQc2s", oop="AA, JJ, T9s, 87s, K8s", ip="KK, QQ, A9s, J8s, A2s",
                pot=100, stack=150, bets="50%, 100%", raises="a")
    built = spot.build()
    return SpotSolution.from_solver(RangeSolver(built.public).run(iterations=iterations),
                                    built)


def test_the_policy_view_plays_the_solution_exactly() -> None:
    solution = _solution()
    game = solution.game
    strategy = tabulate(solution.policy(), game)
    assert exploitability(game, strategy) == pytest.approx(solution.exploitability, abs=1e-9)


def test_ev_and_equity_of_the_root() -> None:
    solution = _solution()
    spot = solution.spot
    report = solution.node("")
    # EV: the weighted mean over OOP's hands and compatible IP hands is OOP's value plus
    # OOP's half of the pot.
    public = solution.built.public
    mass = solution._compatible_mass(0, public.hands[1].weights)
    mean = float((report.weights * mass * report.ev).sum()) / public.normalizer
    assert mean == pytest.approx(solution.values[0] + spot.pot / 2, abs=1e-9)
    # Equity at the root against IP's whole (unweighted) range: the equity calculator's.
    h = report.hands.index("AhAc") if "AhAc" in report.hands else 0
    expected = equity([report.hands[h], "KK, QQ, A9s, J8s, A2s"], board=spot.board)
    assert report.equity[h] == pytest.approx(expected.equity[0], abs=1e-9)


def test_grid_classes() -> None:
    assert grid_cell("AsKs") == (0, 1)
    assert grid_cell("AsKd") == (1, 0)
    assert grid_cell("2c2d") == (12, 12)


def test_the_policy_view_follows_isomorphic_cards() -> None:
    # Clubs and hearts are interchangeable on this turn: the solved tree deals rivers of
    # one suit only, the game every card; the policy maps one onto the other.
    spot = Spot(board="AsKd7s2d", oop="AA, T9s", ip="KK, 98s", pot=60, stack=60, bets="100%",
                raises="")
    built = spot.build()
    assert built.public.tree.isomorphic.shape[0] > 0
    solution = SpotSolution.from_solver(RangeSolver(built.public).run(iterations=30), built)
    strategy = tabulate(solution.policy(), solution.game)
    assert exploitability(solution.game, strategy) == pytest.approx(solution.exploitability,
                                                                    abs=1e-9)


def test_the_rust_solver_s_tree_options_reach_the_spot(tmp_path: Path) -> None:
    turn = ["spot", "solve", "--board", "Td9d6hQc", "--oop", "AA, T9s", "--ip", "KK, 87s",
            "--pot", "60", "--stack", "120", "--bets", "50%, 100%", "--raises", "2.5x",
            "--iterations", "2", "--check-every", "2"]
    options = ["--donks", "", "--add-all-in-threshold", "1.5", "--force-all-in-threshold",
               "0.2", "--merging-threshold", "0.1"]
    assert main([*turn, *options, "--out", str(tmp_path / "options.npz")]) == 0
    assert main([*turn, "--out", str(tmp_path / "plain.npz")]) == 0
    with_options = SpotSolution.load(tmp_path / "options.npz").built
    plain = SpotSolution.load(tmp_path / "plain.npz").built
    spot = with_options.spot
    assert (spot.donks, spot.add_all_in_threshold, spot.force_all_in_threshold,
            spot.merging_threshold) == ("", 1.5, 0.2, 0.1)
    assert with_options.public.tree.n_nodes != plain.public.tree.n_nodes
    assert with_options.public.tree.n_nodes == Spot(
        board="Td9d6hQc", oop="AA, T9s", ip="KK, 87s", pot=60, stack=120, bets="50%, 100%",
        raises="2.5x", donks="", add_all_in_threshold=1.5, force_all_in_threshold=0.2,
        merging_threshold=0.1).build().public.tree.n_nodes


def _umask() -> int:
    import os

    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_threads_give_the_same_solution(capsys: pytest.CaptureFixture[str]) -> None:
    turn = ["spot", "solve", "--board", "Td9d6hQc", "--oop", "22+,A2s+,K9s+,QTs+,ATo+",
            "--ip", "random", "--pot", "60", "--stack", "200", "--bets", "75%",
            "--raises", "a", "--iterations", "4", "--check-every", "2", "--json"]
    results = []
    for threads in ("1", "2"):
        assert main([*turn, "--threads", threads]) == 0
        results.append(json.loads(capsys.readouterr().out))
    for name in ("ev", "exploitability", "iterations"):
        assert results[0][name] == results[1][name]
    assert main([*turn, "--threads", "0"]) != 0  # refused: at least one thread
