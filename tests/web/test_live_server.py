"""The app under uvicorn on loopback: what only a real server shows (sockets closing)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import httpx
import pytest
from starlette.applications import Starlette

from pokerlab.web.app import create_app
from tests.web.live import served as serving


@pytest.fixture
def served() -> Iterator[tuple[Starlette, str]]:
    app = create_app()
    with serving(app) as url:
        yield app, url.removeprefix("http://")


def test_a_closed_page_ends_its_websocket_at_once(served: tuple[Starlette, str]) -> None:
    from websockets.asyncio.client import connect

    app, address = served
    answer = httpx.post(f"http://{address}/api/tables", timeout=30,
                        json={"game": "holdem", "seats": 2, "opponents": "easy"})
    token = answer.json()["token"]
    table = app.state.web.tables.get(token)

    async def visit() -> int:
        async with connect(f"ws://{address}/ws/tables/{token}") as socket:
            await socket.recv()
            for _ in range(500):
                if table._waiters:
                    break
                await asyncio.sleep(0.01)
            return len(table._waiters)

    assert asyncio.run(visit()) == 1  # the socket waited for the table's next change
    # The table stays idle (it waits for the person): the server must see the page leave
    # without waiting for a change of the table.
    deadline = time.monotonic() + 5
    while table._waiters and time.monotonic() < deadline:
        time.sleep(0.01)
    assert table._waiters == []
