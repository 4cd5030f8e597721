"""The app under uvicorn on loopback: what only a real server shows (sockets closing)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator

import httpx
import pytest
import uvicorn
from starlette.applications import Starlette

from benchmarks.bench_web import free_port
from pokerlab.web.app import create_app


@pytest.fixture
def served() -> Iterator[tuple[Starlette, str]]:
    app = create_app()
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start in 20 s"
        time.sleep(0.02)
    yield app, f"127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


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
