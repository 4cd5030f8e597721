"""``pokerlab arena run --exec NAME=PATH``: ACPC programs as arena entrants from the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pokerlab.cli import main
from pokerlab.protocols.acpc_gamedef import load_acpc_game

SHELL_CLIENT = Path(__file__).parent / "clients" / "always_call.sh"
LIMIT = load_acpc_game("holdem.limit.2p.reverse_blinds").spec


@pytest.mark.slow
def test_arena_run_plays_an_executable_entrant(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "arena.db"
    rc = main(["arena", "run", str(LIMIT), "--exec", f"shell-caller={SHELL_CLIENT}",
               "--builtins", "always-call", "--hands", "10", "--db", str(db),
               "--time-limit", "5", "--json"])
    assert rc == 0
    data = json.loads(capsys.readouterr().out)
    assert data["hands_played"] == 20
    standings = {s["name"]: s for s in data["leaderboard"]["standings"]}
    assert set(standings) == {"shell-caller", "always-call"}
    # The shell program calls as the built-in does: over rotated shared deals two callers
    # break exactly even, and nothing was a fault (a default fold would show in both).
    assert standings["shell-caller"]["faults"] == 0
    assert standings["shell-caller"]["mean"] == pytest.approx(0.0, abs=1e-9)
    assert data["leaderboard"]["failed"] == []


def test_arena_run_exec_reports_a_program_that_does_not_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rc = main(["arena", "run", str(LIMIT), "--exec", f"ghost={tmp_path / 'missing'}",
               "--builtins", "always-call,random", "--hands", "2", "--db",
               str(tmp_path / "arena.db")])
    captured = capsys.readouterr()
    assert rc == 0
    assert "left out" in captured.err
    assert "missing" in captured.err


@pytest.mark.parametrize("item", ["=x", "name="])
def test_arena_run_exec_refuses_a_malformed_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], item: str
) -> None:
    rc = main(["arena", "run", str(LIMIT), "--exec", item, "--builtins", "always-call",
               "--db", str(tmp_path / "arena.db")])
    assert rc != 0
    assert "--exec takes NAME=PATH" in capsys.readouterr().err


def test_arena_run_exec_refuses_a_game_that_is_not_holdem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rc = main(["arena", "run", "kuhn", "--exec", str(SHELL_CLIENT), "--builtins",
               "always-call", "--db", str(tmp_path / "arena.db")])
    assert rc != 0
    assert "Hold'em games only" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["dealer", "client"])
def test_acpc_commands_refuse_a_negative_spin_before_touching_the_network(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    where = ["a", "b", "--port-base", "0"] if command == "dealer" else ["127.0.0.1", "9"]
    rc = main(["acpc", command, "kuhn.limit.2p", *where, "--spin-us", "-5"])
    captured = capsys.readouterr()
    assert rc != 0
    assert "allowed: 0" in captured.err
    assert captured.out.strip() == ""  # the dealer printed no ports


@pytest.mark.parametrize("limit", ["-1", "nan", "inf", "1e10"])
def test_the_dealer_refuses_a_time_limit_out_of_range_before_touching_the_network(
    capsys: pytest.CaptureFixture[str], limit: str
) -> None:
    rc = main(["acpc", "dealer", "kuhn.limit.2p", "a", "b", "--port-base", "0",
               "--action-limit", limit])  # fmt: skip
    captured = capsys.readouterr()
    assert rc != 0
    assert "allowed: a positive number of seconds" in captured.err
    assert captured.out.strip() == ""  # the dealer printed no ports
