"""The CLI's one progress bar: a line per long stage off a terminal, nothing for short ones."""

from __future__ import annotations

import time

import pytest

import pokerlab._progress as _progress
from pokerlab.cli._progress import StageProgress


def test_a_long_stage_says_what_it_does_and_how_long_it_took(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(_progress, "QUIET_SECONDS", 0.05)
    with StageProgress() as bar:
        task = bar.add_task("building card tables", total=10)
        time.sleep(0.3)
        bar.update(task, completed=10)
    err = capsys.readouterr().err
    lines = err.splitlines()
    assert lines[0] == "building card tables..."
    assert lines[1].startswith("building card tables: done in ")
    assert "" not in lines  # no blank line left by a bar that cannot redraw here


def test_a_short_stage_and_a_json_run_print_nothing(
    capsys: pytest.CaptureFixture[str]
) -> None:
    with StageProgress() as bar:
        bar.add_task("quick", total=1)
    with StageProgress(disable=True) as bar:
        bar.add_task("json", total=1)
        time.sleep(0.01)
    assert capsys.readouterr().err == ""
