"""Files pokerlab writes are ordinary files: the mode a user's umask gives, not 0600.

Every writer goes through one atomic writer (`pokerlab.strategy.io.write_file_atomic`:
a temporary file, then a rename); mkstemp's temporary files are 0600, which a plain rename
would keep (a figure or results file the user's group could not read).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from pokerlab.games import kuhn
from pokerlab.strategy import Strategy


@pytest.fixture
def umask_022() -> object:
    previous = os.umask(0o022)
    yield
    os.umask(previous)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.usefixtures("umask_022")
def test_strategy_figure_and_results_files_are_0644(tmp_path: Path) -> None:
    from pokerlab.studies._figures import pyplot, save_figure
    from pokerlab.studies.hard_strength import write_results

    Strategy.uniform(kuhn()).save(tmp_path / "kuhn.npz")
    figure = pyplot().figure()
    save_figure(figure, tmp_path / "plot.png")
    write_results(tmp_path / "results.json", {"cells": {}})
    for name in ("kuhn.npz", "plot.png", "results.json"):
        assert _mode(tmp_path / name) == 0o644, name
    assert (tmp_path / "plot.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kuhn.npz", "plot.png", "results.json"]
