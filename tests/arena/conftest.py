from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def bot_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One solver-bot cache for the arena tests (CFR+ 10,000 on Leduc is solved once)."""
    return tmp_path_factory.mktemp("bot-cache")
