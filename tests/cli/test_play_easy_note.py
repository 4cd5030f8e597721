"""The Easy AI's rows beyond the slides' four are pokerlab's own: the play screen says so."""

from __future__ import annotations

import io
import sys

import pytest

from pokerlab.cli import main


def test_the_play_screen_labels_the_easy_ai(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    assert main(["play", "holdem", "--players", "2", "--seed", "2"]) == 0  # easy by default
    out = capsys.readouterr().out
    assert "four rows are the tutorial slides'" in out
    assert "every other row is pokerlab's own (docs/easy_ai.md)" in out
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    assert main(["play", "holdem", "--players", "2", "--seed", "2", "--opponents", "random"]) == 0
    assert "slides'" not in capsys.readouterr().out
