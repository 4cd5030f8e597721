"""``pokerlab serve`` as a real process under attack: it stops on SIGTERM mid-solve, and a
rebound name cannot reach it on IPv6 loopback."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from benchmarks.bench_web import free_port

pytestmark = pytest.mark.slow


def _serve(host: str, port: int, cache: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "pokerlab.cli", "serve", "--host", host, "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path),
             "POKERLAB_CACHE": str(cache)},
    )


def _wait_up(process: subprocess.Popen[str], url: str, host: str | None = None) -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            headers = {"host": host} if host else {}
            httpx.get(url, timeout=2, headers=headers)
            return
        except httpx.TransportError:
            assert process.poll() is None, process.stderr.read()  # type: ignore[union-attr]
            assert time.monotonic() < deadline, "pokerlab serve did not answer in 60 s"
            time.sleep(0.2)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], str, Path]]:
    port = free_port()
    cache = tmp_path / "cache"
    process = _serve("127.0.0.1", port, cache)
    try:
        _wait_up(process, f"http://127.0.0.1:{port}/api/agents")
        yield process, f"http://127.0.0.1:{port}", cache
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate(timeout=30)


@pytest.mark.timeout(180)
def test_sigterm_stops_the_server_within_seconds_even_mid_solve(
    server: tuple[subprocess.Popen[str], str, Path],
) -> None:
    process, url, cache = server
    # CFR+ 10,000 iterations of 300-card Kuhn (807,601 histories): minutes of solving,
    # started by the table's bot on first use, inside the request.
    answers: list[object] = []

    def ask() -> None:
        try:
            answers.append(httpx.post(f"{url}/api/tables", timeout=300,
                                      json={"game": "kuhn(cards=300)", "opponent": "cfr+10000"}))
        except httpx.HTTPError as error:
            answers.append(error)

    asking = threading.Thread(target=ask, daemon=True)
    asking.start()
    time.sleep(4.0)  # the request is being served: the game compiles, then CFR+ runs
    assert process.poll() is None
    assert not answers  # still in flight: the bot is solving inside the request
    busy = httpx.post(f"{url}/api/explorer/solve", json={"game": "kuhn"}, timeout=10)
    assert busy.status_code == 202  # one slot of two is held by the table's solve
    stopped = time.monotonic()
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=30)
    seconds = time.monotonic() - stopped
    assert seconds < 8, f"took {seconds:.1f} s to stop"  # 2 s of grace, then it ends
    asking.join(30)
    assert answers  # the request ended (refused or cut), it did not hang
    assert not list(cache.rglob("*cfrplus-10000.npz"))  # the solve was still running


def _ipv6_loopback() -> bool:
    if not socket.has_ipv6:
        return False
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as probe:
            probe.bind(("::1", 0))
    except OSError:
        return False
    return True


@pytest.mark.timeout(120)
@pytest.mark.skipif(not _ipv6_loopback(), reason="this machine has no IPv6 loopback")
def test_serve_on_ipv6_loopback_keeps_the_host_allow_list(tmp_path: Path) -> None:
    port = free_port()
    process = _serve("::1", port, tmp_path / "cache")
    url = f"http://[::1]:{port}"
    try:
        _wait_up(process, f"{url}/api/agents")
        assert httpx.get(f"{url}/api/agents", timeout=5).status_code == 200
        for name in (f"evil.example:{port}", "evil.example", f"127.0.0.1.nip.io:{port}"):
            rebound = httpx.post(f"{url}/api/tables", headers={"host": name}, timeout=5,
                                 json={"game": "kuhn", "opponent": "random"})
            assert rebound.status_code == 400, name
        evil = httpx.post(f"{url}/api/explorer/solve", timeout=5,
                          headers={"origin": "http://evil.example", "content-type": "text/plain"},
                          content=b'{"game": "kuhn"}')
        assert evil.status_code == 403
    finally:
        process.send_signal(signal.SIGTERM)
        out, _ = process.communicate(timeout=30)
    assert f"http://[::1]:{port}/" in out
