"""Load on ``pokerlab serve``: concurrent clients on loopback.

Three rows:

1. bot against bot: 50 clients (10 with ``--quick``) each ask ``POST /api/hand`` for 20
   Hold'em hands (random against always-call); the p95 request latency.
2. people at tables (the issue's figure): 50 simulated players (10 with ``--quick``), each
   with a Hold'em table against the Easy AI and a WebSocket open on it, play 20 hands each
   through ``POST /api/tables/{token}/act`` (calling, with a raise now and then); the p95
   latency of an action request as the client sees it, which answers once the bots have
   played up to the player's next decision.
3. the same players' actions as the server times them (its ``Server-Timing`` header): the
   p95 of the server's own part, without the clients' share of the cores.

Every request must answer 200; a player who busts opens a new table. The server runs in
its own process (``uvicorn --factory``), as in use, warmed up by one hand first (the Easy
AI's first decision in a process loads its tables, ~0.5 s).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import httpx
import numpy as np
import uvicorn

from benchmarks._harness import Row
from pokerlab.web.app import create_app

HANDS = 20


# -- bot against bot ------------------------------------------------------------------------


async def _client(url: str, index: int, latencies: list[float]) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=60) as client:
        for hand in range(HANDS):
            seed = index * HANDS + hand
            body = {"game": "holdem", "a": "random", "b": "always-call", "seed": seed}
            start = time.perf_counter()
            answer = await client.post("/api/hand", json=body)
            latencies.append(time.perf_counter() - start)
            if answer.status_code != 200 or abs(sum(answer.json()["returns"])) > 1e-9:
                raise RuntimeError(f"client {index} hand {hand}: {answer.status_code}")


async def _load(url: str, clients: int) -> list[float]:
    latencies: list[float] = []
    await asyncio.gather(*(_client(url, i, latencies) for i in range(clients)))
    return latencies


def free_port() -> int:
    """A TCP port free on loopback now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def bot_hands(clients: int) -> Row:
    """Serve in a thread and measure ``clients x 20`` bot-against-bot hands."""
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    try:
        start = time.perf_counter()
        latencies = asyncio.run(_load(f"http://127.0.0.1:{port}", clients))
        wall = time.perf_counter() - start
    finally:
        server.should_exit = True
        thread.join(timeout=10)
    p95 = float(np.percentile(latencies, 95))
    return Row(
        name=f"serve: {clients} clients x {HANDS} Hold'em hands, p95 request latency",
        unit="s", ours=p95, target="no error",
        note=f"{len(latencies)} hands, 0 errors, median {np.median(latencies):.3g} s, "
        f"wall {wall:.2f} s",
    )


# -- people at tables -----------------------------------------------------------------------


@dataclass
class TableLoad:
    """What the simulated players measured."""

    latencies: list[float] = field(default_factory=list)  # seconds per action request
    server: list[float] = field(default_factory=list)  # the server's part (Server-Timing), s
    hands: int = 0
    tables: int = 0
    pushed: int = 0  # WebSocket messages received
    errors: list[str] = field(default_factory=list)


@contextlib.contextmanager
def serve_process(port: int) -> Iterator[str]:
    """``pokerlab.web.app:create_app`` under uvicorn in a child process; yields its URL."""
    process = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "--factory", "pokerlab.web.app:create_app",
         "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"],
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
                break
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the server did not start in 60 s")
            time.sleep(0.1)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


async def _listen(url: str, token: str, load: TableLoad) -> None:
    from websockets.asyncio.client import connect

    ws_url = url.replace("http://", "ws://") + f"/ws/tables/{token}"
    with contextlib.suppress(Exception):
        async with connect(ws_url) as socket_:
            async for _ in socket_:
                load.pushed += 1


async def _player(url: str, index: int, hands: int, seats: int, load: TableLoad) -> None:
    rng = np.random.default_rng(index)
    async with httpx.AsyncClient(base_url=url, timeout=120) as client:

        async def post(path: str, body: dict[str, object]) -> dict[str, object]:
            answer = await client.post(path, json=body)
            if answer.status_code != 200:
                raise RuntimeError(f"player {index} {path}: {answer.status_code} {answer.text}")
            timing = answer.headers.get("server-timing", "")
            if timing.startswith("act;dur="):
                load.server.append(float(timing.split("=", 1)[1]) / 1000)
            data: dict[str, object] = answer.json()
            return data

        async def new_table() -> tuple[str, dict[str, object], asyncio.Task[None]]:
            # No seed: a table's cards are the server's secret (a request naming one is refused).
            data = await post("/api/tables", {"game": "holdem", "seats": seats,
                                              "opponents": "easy"})
            load.tables += 1
            token = str(data["token"])
            listener = asyncio.create_task(_listen(url, token, load))
            view = data["view"]
            assert isinstance(view, dict)
            return token, view, listener

        token, view, listener = await new_table()
        played = 0
        try:
            for _ in range(hands * 60):
                if view["your_turn"]:
                    legal = view["legal"]
                    assert isinstance(legal, dict)
                    move: dict[str, object] = {"move": "call"}
                    if legal["raise"] is not None and rng.random() < 0.15:
                        bounds = legal["raise"]
                        assert isinstance(bounds, dict)
                        move = {"move": "raise", "amount": bounds["min"]}
                    start = time.perf_counter()
                    view = await post(f"/api/tables/{token}/act", move)
                    load.latencies.append(time.perf_counter() - start)
                elif view["hand_over"] and not view["hand_running"]:
                    played += 1
                    load.hands += 1
                    if played >= hands:
                        break
                    if view["can_deal"]:
                        view = await post(f"/api/tables/{token}/deal", {})
                    else:  # busted: a new table
                        listener.cancel()
                        token, view, listener = await new_table()
                else:  # the bots are still playing: look again shortly
                    await asyncio.sleep(0.02)
                    answer = await client.get(f"/api/tables/{token}")
                    view = answer.json()
            else:
                raise RuntimeError(f"player {index} did not finish {hands} hands")
        finally:
            listener.cancel()


async def _players(url: str, clients: int, hands: int, seats: int, limit: float) -> TableLoad:
    load = TableLoad()

    async def guarded(index: int) -> None:
        try:
            await _player(url, index, hands, seats, load)
        except Exception as exc:
            load.errors.append(f"{type(exc).__name__}: {exc}")

    await asyncio.wait_for(asyncio.gather(*(guarded(i) for i in range(clients))), limit)
    return load


def table_players(clients: int, hands: int, *, seats: int = 2, limit: float = 600.0
                  ) -> tuple[TableLoad, float]:
    """Serve in a child process; ``clients`` players each play ``hands`` hands.

    Returns:
        What was measured, and the wall time in seconds.

    Raises:
        TimeoutError: past ``limit`` seconds.
    """
    with serve_process(free_port()) as url:
        # Warm-up, not measured: the Easy AI's first decision in a process loads its tables.
        asyncio.run(_players(url, 1, 1, seats, limit))
        start = time.perf_counter()
        load = asyncio.run(_players(url, clients, hands, seats, limit))
        return load, time.perf_counter() - start


def run(quick: bool = False) -> list[Row]:
    """Both loads: bot-against-bot hands, and simulated people at tables."""
    clients = 10 if quick else 50
    rows = [bot_hands(clients)]
    load, wall = table_players(clients, HANDS)
    p95 = float(np.percentile(load.latencies, 95)) if load.latencies else float("nan")
    rows.append(Row(
        name=f"serve: {clients} players at Hold'em tables (vs Easy AI, WebSocket open) x "
        f"{HANDS} hands, p95 action latency",
        unit="s", ours=p95, target="no error",
        note=f"{load.hands} hands, {len(load.latencies)} actions, {len(load.errors)} errors, "
        f"median {np.median(load.latencies):.3g} s, max {max(load.latencies):.3g} s, "
        f"{load.pushed} WebSocket messages, {load.tables} tables, wall {wall:.1f} s"
        + (f"; first error: {load.errors[0]}" if load.errors else ""),
    ))
    server = load.server or [float("nan")]
    rows.append(Row(
        name=f"serve: the same {clients} players, the server's own p95 action time "
        "(Server-Timing)",
        unit="s", ours=float(np.percentile(server, 95)), target="no error",
        note=f"{len(load.server)} actions timed by the server (the move's check, the bots' "
        f"play, the view), median {np.median(server):.3g} s, max {max(server):.3g} s; the "
        "row above adds the clients' own share of the cores",
    ))
    return rows
