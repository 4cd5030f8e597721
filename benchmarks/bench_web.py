"""Load on ``pokerlab serve``: concurrent clients on loopback, each dealing hands over the API.

50 clients (10 with ``--quick``) each ask for 20 Hold'em hands (random against always-call);
the row is the p95 request latency, every request having to answer 200 with a zero-sum hand.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time

import httpx
import numpy as np
import uvicorn

from benchmarks._harness import Row
from pokerlab.web.app import create_app

HANDS = 20


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


def run(quick: bool = False) -> list[Row]:
    """Serve on a free loopback port in a thread and measure ``clients x 20`` hands."""
    clients = 10 if quick else 50
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
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
    return [Row(
        name=f"serve: {clients} clients x {HANDS} Hold'em hands, p95 request latency",
        unit="s", ours=p95, target="no error",
        note=f"{len(latencies)} hands, 0 errors, median {np.median(latencies):.3g} s, "
        f"wall {wall:.2f} s",
    )]
