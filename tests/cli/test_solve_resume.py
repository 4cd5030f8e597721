"""`pokerlab solve`: Ctrl-C writes a checkpoint, --resume ends where an uninterrupted run ends."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import numpy as np
import pytest

from pokerlab.cli import main
from pokerlab.cli import solve as solve_cli
from pokerlab.strategy import Strategy


class _InterruptAfter:
    """Stands in for the SIGINT flag: 'pressed' after a number of checks."""

    def __init__(self, checks: int) -> None:
        self._checks = checks

    @property
    def requested(self) -> bool:
        self._checks -= 1
        return self._checks < 0

    def __enter__(self) -> _InterruptAfter:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


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
    monkeypatch.setattr(solve_cli, "_Interrupt", lambda: _InterruptAfter(2))
    assert main([*args, "--out", str(part), "--json"]) == 130
    checkpoint = tmp_path / "part.checkpoint.npz"
    assert checkpoint.exists()
    assert not part.exists()
    monkeypatch.undo()

    assert main([*args, "--out", str(part), "--resume", str(checkpoint), "--json"]) == 0
    resumed = Strategy.load(part)
    uninterrupted = Strategy.load(whole)
    assert resumed.metadata["iterations"] == 60
    assert np.array_equal(resumed.probs, uninterrupted.probs)


def test_interrupt_flag_catches_sigint_without_raising() -> None:
    with solve_cli._Interrupt() as interrupt:
        os.kill(os.getpid(), signal.SIGINT)
        assert interrupt.requested
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_resume_with_another_algorithm_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(solve_cli, "_Interrupt", lambda: _InterruptAfter(0))
    out = tmp_path / "s.npz"
    assert main(["solve", "kuhn", "--algorithm", "cfr+", "--iterations", "20",
                 "--check-every", "5", "--out", str(out)]) == 130
    monkeypatch.undo()
    capsys.readouterr()
    code = main(["solve", "kuhn", "--algorithm", "cfr", "--iterations", "20",
                 "--out", str(out), "--resume", str(tmp_path / "s.checkpoint.npz")])
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
    monkeypatch.setattr(solve_cli, "_Interrupt", lambda: _InterruptAfter(0))
    assert main([*args, "--out", str(out), "--json"]) == 130
    monkeypatch.undo()
    checkpoint = tmp_path / "s.checkpoint.npz"
    assert main([*args, "--out", str(out), "--resume", str(checkpoint), "--json"]) == 0
    assert out.exists()
    assert not checkpoint.exists()
