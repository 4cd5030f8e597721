"""`pokerlab solve`: Ctrl-C writes a checkpoint, --resume ends where an uninterrupted run ends."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import numpy as np
import pytest

from pokerlab.cli import main
from pokerlab.solvers import SOLVERS, run_console
from pokerlab.strategy import InfosetTable, Strategy, load_policy
from tests.interrupts import InterruptAfter


@pytest.mark.parametrize(
    ("algorithm", "extra"), [("cfr+", []), ("dcfr", []), ("es-mccfr", ["--seed", "7"])]
)
def test_interrupted_and_resumed_run_equals_uninterrupted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, algorithm: str, extra: list[str]
) -> None:
    args = ["solve", "kuhn(cards=10)", "--algorithm", algorithm, "--iterations", "60",
            "--check-every", "10", *extra]
    whole = tmp_path / "whole.npz"
    assert main([*args, "--out", str(whole), "--json"]) == 0

    part = tmp_path / "part.npz"
    monkeypatch.setattr(run_console, "StopSignals", lambda: InterruptAfter(2))
    assert main([*args, "--out", str(part), "--json"]) == 130
    checkpoint = tmp_path / "part.checkpoint.npz"
    assert checkpoint.exists()
    assert not part.exists()
    monkeypatch.undo()

    assert main([*args, "--out", str(part), "--resume", "--json"]) == 0
    resumed = Strategy.load(part)
    uninterrupted = Strategy.load(whole)
    assert resumed.metadata["iterations"] == 60
    assert np.array_equal(resumed.probs, uninterrupted.probs)


def test_interrupt_flag_catches_sigint_without_raising() -> None:
    with run_console.StopSignals() as interrupt:
        os.kill(os.getpid(), signal.SIGINT)
        assert interrupt.requested
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_resume_with_another_algorithm_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(run_console, "StopSignals", lambda: InterruptAfter(0))
    out = tmp_path / "s.npz"
    assert main(["solve", "kuhn", "--algorithm", "cfr+", "--iterations", "20",
                 "--check-every", "5", "--out", str(out)]) == 130
    monkeypatch.undo()
    capsys.readouterr()
    code = main(["solve", "kuhn", "--algorithm", "cfr", "--iterations", "20",
                 "--out", str(out), "--resume"])
    assert code == 1
    assert "checkpoint of CFRPlus" in capsys.readouterr().err


def test_iterative_solver_needs_a_stopping_rule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solve", "kuhn", "--algorithm", "cfr+", "--out", str(tmp_path / "x.npz")]) == 1
    assert "stopping rule" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--iterations", "0"], "iterations must be an integer >= 1"),
        (["--iterations", "-5"], "iterations must be an integer >= 1"),
        (["--target-exploitability", "-1"], "target_exploitability must be > 0"),
        (["--seconds", "0"], "seconds must be > 0"),
        (["--iterations", "10", "--check-every", "0"], "check_every must be an integer >= 1"),
    ],
)
def test_out_of_range_stopping_rules_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str], message: str
) -> None:
    out = tmp_path / "x.npz"
    assert main(["solve", "kuhn", "--algorithm", "cfr", *flags, "--out", str(out)]) == 1
    assert message in capsys.readouterr().err
    assert not out.exists()


def test_a_finished_resume_removes_its_checkpoint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    args = ["solve", "kuhn", "--algorithm", "cfr+", "--iterations", "30", "--check-every", "10"]
    out = tmp_path / "s.npz"
    monkeypatch.setattr(run_console, "StopSignals", lambda: InterruptAfter(0))
    assert main([*args, "--out", str(out), "--json"]) == 130
    monkeypatch.undo()
    checkpoint = tmp_path / "s.checkpoint.npz"
    assert main([*args, "--out", str(out), "--resume", "--json"]) == 0
    assert out.exists()
    assert not checkpoint.exists()


# -- games too big to compile -------------------------------------------------------------------
HOLDEM = 'holdem(betting="limit")'


def test_holdem_interrupted_and_resumed_run_writes_the_same_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    args = ["solve", HOLDEM, "--algorithm", "os-mccfr", "--iterations", "40",
            "--check-every", "10", "--seed", "1"]
    whole = tmp_path / "whole.npz"
    assert main([*args, "--out", str(whole), "--json"]) == 0
    part = tmp_path / "part.npz"
    monkeypatch.setattr(run_console, "StopSignals", lambda: InterruptAfter(1))
    assert main([*args, "--out", str(part), "--json"]) == 130
    checkpoint = tmp_path / "part.checkpoint.npz"
    assert checkpoint.exists()
    monkeypatch.undo()
    assert main([*args, "--out", str(part), "--resume", "--json"]) == 0
    resumed, uninterrupted = load_policy(part), load_policy(whole)
    assert isinstance(resumed, InfosetTable)
    assert isinstance(uninterrupted, InfosetTable)
    assert resumed.metadata["iterations"] == 40
    assert resumed.keys == uninterrupted.keys
    assert np.array_equal(resumed.probs, uninterrupted.probs)
    assert "exploitability" not in resumed.metadata


def test_holdem_by_seconds_reports_infosets_and_memory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "hu.npz"
    capsys.readouterr()
    assert main(["solve", HOLDEM, "--algorithm", "es-mccfr", "--seconds", "0.5",
                 "--out", str(out)]) == 0
    captured = capsys.readouterr()
    assert "exploitability: not measured" in captured.out
    assert "infosets:" in captured.out
    # off a terminal the bar draws nothing (a line per long stage instead: 0.5 s is short)
    assert "exploitability" not in captured.err
    assert "\n\n" not in captured.err
    table = load_policy(out)
    assert isinstance(table, InfosetTable)
    assert len(table) > 0
    assert 0 < table.metadata["seconds"] <= table.metadata["wall_seconds"]
    # The budget is met to within half an iteration (the run loop's rule: it stops where
    # the next iteration would end further past it than it is short); numba compilation
    # is not counted, so a loaded machine may end after one or two iterations.
    per_iteration = table.metadata["seconds"] / table.metadata["iterations"]
    assert table.metadata["wall_seconds"] >= 0.5 - 0.5 * per_iteration - 1e-3


def test_holdem_target_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["solve", HOLDEM, "--algorithm", "es-mccfr", "--target-exploitability", "0.1",
                 "--out", str(tmp_path / "x.npz")]) == 1
    assert "cannot be measured" in capsys.readouterr().err


# -- output --------------------------------------------------------------------------------------
def test_without_out_it_prints_and_saves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    assert main(["solve", "kuhn", "--algorithm", "cfr+", "--iterations", "50"]) == 0
    out = capsys.readouterr().out
    assert "game value (P1): -0.05" in out
    assert "not saved" in out
    assert main(["solve", "kuhn", "--algorithm", "lp", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["out"] is None
    assert data["value"] == pytest.approx(-1 / 18)
    assert list(tmp_path.iterdir()) == []


def test_three_players_report_each_seat(capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["solve", "kuhn(players=3)", "--algorithm", "cfr+", "--iterations", "40"]) == 0
    out = capsys.readouterr().out
    assert "values per seat (chips per hand): P1 " in out
    assert "P3 " in out
    assert "advantage" not in out
    assert main(["solve", "kuhn(players=3)", "--algorithm", "cfr+", "--iterations", "40",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["values"]) == 3
    assert sum(data["values"]) == pytest.approx(0.0, abs=1e-12)
    assert data["p2_advantage"] is None


def test_a_zero_value_is_printed_as_0(capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["solve", "rps", "--algorithm", "lp"]) == 0
    out = capsys.readouterr().out
    assert "game value (P1): 0 chips per hand; P2 advantage 0" in out
    assert "-0.0" not in out
    assert main(["solve", "rps", "--algorithm", "regret-matching", "--iterations", "10",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["p2_advantage"] == 0.0


def test_long_paths_are_never_wrapped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    deep = tmp_path / ("a-rather-long-folder-name-" * 8) / ("and-another-one-" * 8)
    out = deep / "strategy.npz"
    monkeypatch.setattr(run_console, "StopSignals", lambda: InterruptAfter(0))
    capsys.readouterr()
    assert main(["solve", "kuhn", "--algorithm", "cfr", "--iterations", "20", "--check-every",
                 "5", "--out", str(out)]) == 130
    err = capsys.readouterr().err
    checkpoint = str(deep / "strategy.checkpoint.npz")
    assert any(checkpoint in line for line in err.splitlines())
    assert any(line.startswith("resume with: ") and f"--out {out}" in line
               and line.endswith("--resume") for line in err.splitlines())
    monkeypatch.undo()
    assert main(["solve", "kuhn", "--algorithm", "cfr", "--iterations", "20",
                 "--out", str(out)]) == 0
    assert f"saved to {out}" in capsys.readouterr().out.splitlines()


# -- arguments ------------------------------------------------------------------------------------
def test_help_is_readable_at_80_columns(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.delenv("TERMINAL_WIDTH", raising=False)
    capsys.readouterr()
    assert main(["solve", "--help"]) == 0
    text = capsys.readouterr().out
    assert "…" not in text
    assert "--target" in text
    assert "--target-exploitability" not in text  # the old name still works, hidden
    assert all(len(line) <= 80 for line in text.splitlines())
    for name in SOLVERS:
        assert name in text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["kuhn", "--algorithm", "lp", "--iterations", "5"], "takes no stopping rule"),
        (["kuhn", "--algorithm", "cfr", "--iterations", "5", "--seed", "1"], "takes no seed"),
        (["kuhn", "--algorithm", "es-mccfr", "--iterations", "5", "--seed", "-1"], ">= 0"),
        (["kuhn", "--algorithm", "regret-matching", "--iterations", "5"], "MatrixGame"),
    ],
)
def test_arguments_a_solver_cannot_honour_are_refused(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    capsys.readouterr()
    assert main(["solve", *argv]) == 1
    err = capsys.readouterr().err
    assert message in err
    assert err.count("\n") == 1


def test_interrupt_flag_catches_sigterm_too() -> None:
    previous = signal.getsignal(signal.SIGTERM)
    with run_console.StopSignals() as interrupt:
        os.kill(os.getpid(), signal.SIGTERM)
        assert interrupt.requested
    assert signal.getsignal(signal.SIGTERM) is previous


@pytest.mark.slow
def test_sigterm_checkpoints_a_real_run(tmp_path: Path) -> None:
    import subprocess
    import sys
    import time

    out = tmp_path / "leduc.npz"
    process = subprocess.Popen(
        [sys.executable, "-m", "pokerlab.cli", "solve", "leduc", "--algorithm", "es-mccfr",
         "--iterations", "100000000", "--check-every", "20000", "--seed", "3", "--out",
         str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    assert process.stderr is not None
    began = time.monotonic()
    lines = []
    while time.monotonic() - began < 120:  # until the run says it runs (imports take long)
        lines.append(process.stderr.readline())
        if "running (" in lines[-1]:
            break
    time.sleep(0.5)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=120)
    err = "".join(lines) + err
    assert process.returncode == 130, err
    checkpoint = tmp_path / "leduc.checkpoint.npz"
    assert checkpoint.exists()
    assert "resume with:" in err
    assert not out.exists()


@pytest.mark.parametrize("where", ["/proc/pokerlab-nowhere/x.npz", "/sys/x.npz"])
def test_an_unwritable_out_is_refused_before_solving(
    where: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solve", "leduc", "--algorithm", "cfr+", "--iterations", "100000",
                 "--out", where]) == 1
    err = capsys.readouterr().err
    assert f"--out {where}: cannot write in" in err
