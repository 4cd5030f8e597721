"""A bounded load check: several simulated players at once, each a whole session of hands.

The full figure (50 players x 20 hands) is ``python -m benchmarks web``; this runs fewer.
"""

from __future__ import annotations

import pytest

from benchmarks.bench_web import table_players

pytestmark = pytest.mark.slow


@pytest.mark.timeout(240)
def test_concurrent_players_finish_their_hands_without_an_error() -> None:
    clients, hands = 8, 3
    load, wall = table_players(clients, hands, seats=3, limit=180.0)
    assert load.errors == []
    assert load.hands == clients * hands
    assert len(load.latencies) >= clients * hands  # at least one action per hand
    assert load.pushed >= clients  # every player's WebSocket received views
    assert load.tables >= clients
    assert wall < 180.0
