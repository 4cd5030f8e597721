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
