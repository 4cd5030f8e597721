"""Suite-wide fixtures: tests never write outside their temporary folders."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _private_bot_cache(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Solver bots cache their strategies under $POKERLAB_CACHE: keep it out of $HOME."""
    folder = tmp_path_factory.getbasetemp() / "pokerlab-cache"
    monkeypatch.setenv("POKERLAB_CACHE", str(folder))
    return folder


@pytest.fixture(autouse=True)
def _keep_the_machines_caches(monkeypatch: pytest.MonkeyPatch) -> None:
    """Duplicate matches with entrants drop the machine's caches between legs by default
    (root); dozens of the suite's would, each slowing every process after it. The suite
    keeps them ($POKERLAB_DROP_CACHES=no, inherited by the commands it starts);
    tests/arena/test_drop_caches.py checks the default and the drop itself."""
    monkeypatch.setenv("POKERLAB_DROP_CACHES", "no")
