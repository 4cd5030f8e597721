"""``pokerlab serve`` as a user starts it: prints the address, serves the page, stops on Ctrl-C."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from benchmarks.bench_web import free_port

pytestmark = pytest.mark.slow


@pytest.mark.timeout(120)
def test_serve_prints_its_address_and_serves_only_loopback_names(strategies_dir: Path) -> None:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "pokerlab.cli", "serve", "--port", str(port),
         "--strategies", str(strategies_dir)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                page = httpx.get(f"http://127.0.0.1:{port}/", timeout=2)
                break
            except httpx.TransportError:
                assert process.poll() is None, process.stderr.read()  # type: ignore[union-attr]
                assert time.monotonic() < deadline, "pokerlab serve did not answer in 60 s"
                time.sleep(0.2)
        assert page.status_code == 200
        assert "/api/tables" in page.text
        agents = httpx.get(f"http://127.0.0.1:{port}/api/agents", timeout=5).json()
        assert "leduc20.npz" in agents["strategies"]
        rebound = httpx.get(f"http://127.0.0.1:{port}/", headers={"host": "evil.example"},
                            timeout=5)
        assert rebound.status_code == 400
    finally:
        process.send_signal(signal.SIGINT)
        out, _ = process.communicate(timeout=30)
    assert f"http://127.0.0.1:{port}/" in out


def test_prepare_hard_prepares_the_default_tables_before_serving(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # serve --prepare-hard trains the Hard AI's blueprint of each default heads-up table
    # (the page's 200 chips, blinds 1/2) before the server starts, and skips a prepared one.
    import uvicorn

    from pokerlab.agents import hard
    from pokerlab.cli import main

    monkeypatch.setenv("POKERLAB_CACHE", str(tmp_path))
    trained: list[str] = []
    order: list[str] = []

    def train(game: object, *args: object, **kwargs: object) -> None:
        trained.append(str(game.spec))  # type: ignore[attr-defined]
        order.append("train")

    monkeypatch.setattr(hard, "train_default_blueprint", train)
    monkeypatch.setattr(hard, "default_blueprint_ready",
                        lambda game, *a, **k: "betting='limit'" in str(game.spec))
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: order.append("serve"))
    assert main(["serve", "--prepare-hard", "--port", "8765"]) == 0
    assert order == ["train", "serve"]
    assert len(trained) == 1
    assert trained[0] == "holdem(stack=(200, 200))"  # no-limit, blinds 1/2 (the defaults)
    assert "betting='limit'" not in trained[0]
