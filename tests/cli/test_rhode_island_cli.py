"""`pokerlab solve rhode_island`: the public-tree solver from the command line; `games info`."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from pokerlab.cli import main
from pokerlab.solvers import run_console
from pokerlab.subgame.rhode_island import load_rhode_island
from tests.interrupts import InterruptAfter

GAME = "rhode_island(ranks=3, suits=2, raises=0)"


def test_solve_reports_value_bounds_exploitability_and_memory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "ri.npz"
    code = main(["solve", GAME, "--target", "0.01", "--check-every", "10",
                 "--out", str(out), "--json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["algorithm"] == "public-tree"
    assert data["exploitability"] <= 0.01
    low, high = data["value_bounds"]
    assert low <= data["value"] <= high
    assert high - low == pytest.approx(2 * data["exploitability"])
    assert data["public_nodes"] == 1305
    assert data["peak_memory_bytes"] >= data["memory_bytes"] > 0
    built, solver = load_rhode_island(out)
    assert str(built.game.spec) == data["game"]
    assert solver.iterations == data["iterations"]
    assert solver.evaluate().values[0] == pytest.approx(data["value"], abs=1e-12)


def test_interrupted_and_resumed_run_equals_uninterrupted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    args = ["solve", GAME, "--iterations", "40", "--check-every", "10", "--json"]
    whole = tmp_path / "whole.npz"
    assert main([*args, "--out", str(whole)]) == 0
    part = tmp_path / "part.npz"
    monkeypatch.setattr(run_console, "StopSignals", lambda: InterruptAfter(1))
    assert main([*args, "--out", str(part)]) == 130
    checkpoint = tmp_path / "part.checkpoint.npz"
    assert checkpoint.exists()
    monkeypatch.undo()
    assert main([*args, "--out", str(part), "--resume"]) == 0
    assert not checkpoint.exists()
    _, first = load_rhode_island(whole)
    _, second = load_rhode_island(part)
    for a, b in zip(first.average_arrays(), second.average_arrays(), strict=True):
        assert np.array_equal(a, b)


def test_other_algorithms_still_solve_a_small_deck_compiled(
    capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solve", GAME, "--algorithm", "cfr+", "--iterations", "5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["algorithm"] == "cfr+"


def test_bad_requests_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", GAME, "--seed", "3", "--iterations", "5"]) == 1
    assert "deterministic" in capsys.readouterr().err
    assert main(["solve", GAME]) == 1
    assert "stopping rule" in capsys.readouterr().err
    assert main(["solve", "rhode_island", "--algorithm", "cfr", "--iterations", "5"]) == 1
    assert "14,242,107,257 histories" in capsys.readouterr().err


def test_games_info_counts_the_full_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "info", "rhode_island", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["histories"] == 14_242_107_257
    assert data["public_nodes"] == 713_961
    assert data["compiled"] is False
