"""End to end in Debian's chromium (Playwright): the page deals a hand and shows it."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn

from pokerlab.web.app import create_app

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start in 20 s"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


def test_the_page_deals_a_kuhn_hand(base_url: str, tmp_path: Path) -> None:
    assert CHROMIUM.exists(), "the browser tests need /usr/bin/chromium: apt-get install chromium"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=str(CHROMIUM), headless=True)
        try:
            page = browser.new_page()
            page.goto(base_url)
            page.wait_for_function("document.getElementById('b').options.length > 0")
            page.select_option("#game", "kuhn")
            page.select_option("#a", "random")
            page.select_option("#b", "always-call")
            page.click("#deal")
            page.wait_for_function("document.getElementById('out').textContent.length > 0")
            text = page.text_content("#out") or ""
            page.screenshot(path=str(tmp_path / "web-kuhn.png"))
        finally:
            browser.close()
    assert text.startswith("History: ")
    returns = [float(x) for x in text.split("Returns: ")[1].split(",")]
    assert sum(returns) == pytest.approx(0.0)
