"""``pokerlab play``: a scripted player at a pseudo-terminal, and sessions through a pipe."""

from __future__ import annotations

import io
import os
import select
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from pokerlab.cli import main

ROOT = Path(__file__).resolve().parents[2]


def _drive_pty(args: list[str], answers: list[str], *, limit: float = 60.0) -> str:
    """Run the CLI on a pseudo-terminal; answer each move prompt with the next answer."""
    leader, follower = os.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "pokerlab.cli", *args],
        stdin=follower, stdout=follower, stderr=follower, cwd=ROOT, close_fds=True,
        env={**os.environ, "PYTHONIOENCODING": "utf-8", "COLUMNS": "120"},
    )
    os.close(follower)
    output = b""
    prompts = 0
    deadline = time.monotonic() + limit
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([leader], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(leader, 65536)
                except OSError:  # the child closed the terminal
                    break
                if not chunk:
                    break
                output += chunk
                while output.count(b"Your move (") > prompts:
                    answer = answers[prompts] if prompts < len(answers) else "c"
                    os.write(leader, (answer + "\n").encode())
                    prompts += 1
            elif process.poll() is not None:
                break
        else:
            raise AssertionError(f"the game did not finish in {limit} s:\n{output.decode()}")
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=10)
        os.close(leader)
    return output.decode("utf-8", errors="replace").replace("\r\n", "\n")


@pytest.mark.slow
def test_holdem_in_a_pseudo_terminal() -> None:
    text = _drive_pty(
        ["play", "holdem", "--players", "3", "--stack", "100", "--seed", "4", "--hands", "3"],
        ["xyz", "r 1", "r 10"],
    )
    assert "You are seat 0" in text
    assert "'xyz' is not a move; moves: f = fold, c = call 2" in text  # asked again
    assert "raise to 1 is not allowed: from 4 to 100" in text
    assert "Your cards: 4♠ 5♥" in text  # hole cards with suit symbols (seed 4's deal)
    assert "r X = raise to X (min 4, max 100)" in text
    assert "--- flop:" in text
    assert "Showdown:" in text
    assert "Pot of" in text
    assert "Result:" in text
    assert "=== Hand 3" in text
    assert "After 3 hands:" in text


def test_holdem_through_a_pipe(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("f\n" * 3 + "c\n" * 200))
    rc = main(["play", "holdem", "--players", "4", "--seed", "1", "--hands", "4",
               "--betting", "limit", "--opponents", "random"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "=== Hand 4" in out
    assert "After 4 hands:" in out
    assert "Randoms" in out


def test_holdem_quit_and_end_of_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    assert main(["play", "holdem", "--players", "2", "--seed", "2"]) == 0
    assert "Stopped: you quit." in capsys.readouterr().out
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["play", "holdem", "--players", "2", "--seed", "2"]) == 0
    assert "Stopped: the input ended." in capsys.readouterr().out


def test_bad_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "holdem", "--opponents", "hardest"]) == 1
    err = capsys.readouterr().err
    assert "--opponents: agent 'hardest': unknown built-in agent 'hardest'; known: random" in err
    assert "an entrant file (.py defining Agent)" in err
    # 7 seats: no default blueprint (3 to 6 seats have one: trained on first use)
    assert main(["play", "holdem", "--players", "7", "--opponents", "hard"]) == 1
    assert "no-limit with 3 to 6 players" in capsys.readouterr().err
    assert main(["play", "holdem", "--players", "12"]) == 1
    assert "players=2..9" in capsys.readouterr().err
    assert main(["play", "leduc", "--opponent", "missing.npz"]) == 1
    assert "does not exist" in capsys.readouterr().err


def test_kuhn(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("x\n" + "c\n" * 50))
    assert main(["play", "kuhn", "--hands", "4", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "'x' is not a legal move; legal: check, bet" in out or "legal: fold, call" in out
    assert "After 4 hands you are" in out


def test_leduc_against_a_strategy_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from pokerlab.games import leduc
    from pokerlab.strategy import Strategy

    path = Strategy.uniform(leduc()).save(tmp_path / "uniform.npz")
    monkeypatch.setattr(sys, "stdin", io.StringIO("r\n" + "c\n" * 60))
    assert main(["play", "leduc", "--opponent", str(path), "--hands", "3", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "After 3 hands you are" in out
    assert "board" in out


def test_leduc_against_a_builtin_and_an_entrant_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from pokerlab.cli import main

    monkeypatch.setenv("POKERLAB_CACHE", str(tmp_path / "bots"))
    entrant = tmp_path / "caller.py"
    entrant.write_text(
        "class Agent:\n"
        "    def act(self, observation):\n"
        "        return 1\n"
    )
    for opponent in ("rule-based", "cfr+1", str(entrant)):
        monkeypatch.setattr("sys.stdin", io.StringIO("c\nc\nc\nc\nc\nc\n"))
        assert main(["play", "leduc", "--opponent", opponent, "--hands", "1", "--seed", "2"]) == 0
        assert "After 1 hand you are" in capsys.readouterr().out


def test_holdem_against_entrant_files_one_sandbox_a_seat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from pokerlab.cli import main

    entrant = tmp_path / "caller.py"
    entrant.write_text(
        "from pokerlab.games.holdem import CALL\n"
        "class Agent:\n"
        "    def act(self, observation):\n"
        "        return CALL\n"
    )
    monkeypatch.setattr("sys.stdin", io.StringIO("c\n" * 40))
    assert main(["play", "holdem", "--players", "3", "--opponents", str(entrant), "--hands",
                 "2", "--seed", "4", "--betting", "limit"]) == 0
    out = capsys.readouterr().out
    assert "seats 1-2 play caller.py" in out
    assert "After 2 hands:" in out
    from pokerlab.play.records import FAULT_KINDS

    # a fault would read "(Seat 1 (caller.py) <kind>: ...)": both sandboxes always answered
    assert not [kind for kind in FAULT_KINDS if f"(caller.py) {kind}:" in out]


def test_unknown_opponent_lists_what_is_allowed(capsys: pytest.CaptureFixture[str]) -> None:
    from pokerlab.cli import main

    assert main(["play", "kuhn", "--opponent", "nope"]) == 1
    err = capsys.readouterr().err
    assert "rule-based" in err
    assert ".py" in err


def test_the_exploitative_opponent_learns_from_every_hand(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from pokerlab.agents import ExploitativeAgent
    from pokerlab.agents import resolve as play

    built: list[ExploitativeAgent] = []
    real = play.make_agent

    def spy(name: str, game: object, **options: object) -> object:
        agent = real(name, game, **options)  # type: ignore[arg-type]
        built.append(agent)  # type: ignore[arg-type]
        return agent

    monkeypatch.setattr(play, "make_agent", spy)
    monkeypatch.setattr(sys, "stdin", io.StringIO("c\n" * 40))
    assert main(["play", "kuhn", "--opponent", "exploitative", "--hands", "6", "--seed", "1"]) == 0
    assert "After 6 hands you are" in capsys.readouterr().out
    (agent,) = built
    assert agent.hands_observed == 6  # observe() reached it after every hand
    prior = ExploitativeAgent(agent.game).model_probs()
    assert not np.allclose(agent.model_probs(), prior)  # and the model moved


def test_play_kuhn_defaults_to_the_strongest_solver_bot(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from pokerlab.agents import resolve as play

    names: list[str] = []
    real = play.make_agent
    monkeypatch.setattr(play, "make_agent", lambda name, game, **o: names.append(name)
                        or real(name, game, **o))
    monkeypatch.setattr(sys, "stdin", io.StringIO("c\n" * 10))
    assert main(["play", "kuhn", "--hands", "1", "--seed", "0"]) == 0
    assert names == ["cfr+10000"]  # `solver`: the strongest solver bot


def test_play_leduc_defaults_to_the_strongest_solver_bot(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from pokerlab.agents import resolve as play

    names: list[str] = []
    real = play.make_agent

    def spy(name: str, game: object, **options: object) -> object:
        names.append(name)
        # the solver bot solves Leduc (CFR+ 10,000) when not cached: a quick stand-in plays
        return real("always-call", game, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(play, "make_agent", spy)
    monkeypatch.setattr(sys, "stdin", io.StringIO("c\n" * 10))
    assert main(["play", "leduc", "--hands", "1", "--seed", "0"]) == 0
    assert "After 1 hand you are" in capsys.readouterr().out
    assert names == ["cfr+10000"]  # `solver`: the strongest solver bot
