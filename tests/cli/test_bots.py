"""`pokerlab bots list` names every built-in agent; help texts that list them miss none."""

from __future__ import annotations

import json

import pytest

from pokerlab.agents.registry import agent_names, describe_agents
from pokerlab.cli import main

SINGLES = [n for n in agent_names() if not n.startswith("cfr+")]


def test_bots_list_shows_every_builtin(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bots", "list", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["name"] for r in rows] == [n for n, _, _ in describe_agents()]
    assert set(SINGLES) <= {r["name"] for r in rows}
    assert all(r["summary"] and r["plays"] for r in rows)


def test_arena_run_help_names_every_builtin(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "run", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split()).replace("- ", "-")  # wrapped at hyphens
    missing = [n for n in SINGLES if n not in text]
    assert missing == []
