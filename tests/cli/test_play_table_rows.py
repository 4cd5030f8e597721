"""Terminal Hold'em: the "You" row lines up with the others; the blinds are labelled SB/BB
(issue 26 item 6)."""

from __future__ import annotations

import io
import sys

import pytest

from pokerlab.cli import main


@pytest.mark.parametrize("players", [2, 3])
def test_rows_align_and_name_the_blinds(players: int, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("c\n" * 20))
    assert main(["play", "holdem", "--players", str(players), "--hands", "1", "--seed", "1",
                 "--opponents", "always-call"]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("  ") and " stack " in line]
    assert rows
    assert len({row.index(" stack ") for row in rows}) == 1  # one column for every seat
    table = rows[:players]
    assert sum("SB" in row for row in table) == 1
    assert sum("BB" in row for row in table) == 1
    assert any(row.lstrip().startswith("You ") for row in table)
