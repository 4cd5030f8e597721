"""``study hard-strength`` says that its defaults take hours (issue 26 item 6)."""

from __future__ import annotations

import pytest

from pokerlab.cli import main


def test_the_help_says_the_defaults_take_hours(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["study", "hard-strength", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "take hours" in out
    assert "--match-hands 500" in out
