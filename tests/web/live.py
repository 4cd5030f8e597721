"""A real server and a real browser for the end-to-end web tests (one of each, shared).

``served(app)`` runs an app under uvicorn on a free loopback port in a thread and yields
its base URL; ``chromium()`` launches Debian's chromium through Playwright (its own
browser download cannot be fetched here); ``opened_page(browser)`` is a page that fails
the test if the page raised; ``api_get`` reads a JSON API the way the page does.
"""

from __future__ import annotations

import contextlib
import json
import re
import socket
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import uvicorn

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

CHROMIUM = Path("/usr/bin/chromium")
TIMEOUT_MS = 30_000


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def served(app: Any, *, start_seconds: float = 20.0) -> Iterator[str]:
    """Serve ``app`` on 127.0.0.1 in a thread; yield ``http://127.0.0.1:PORT``."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + start_seconds
    while not server.started:
        assert time.monotonic() < deadline, f"the server did not start in {start_seconds:g} s"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@contextlib.contextmanager
def chromium() -> Iterator[Browser]:
    """Debian's chromium, headless, driven by Playwright."""
    assert CHROMIUM.exists(), "the browser tests need /usr/bin/chromium: apt-get install chromium"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=str(CHROMIUM), headless=True)
        try:
            yield launched
        finally:
            launched.close()


@contextlib.contextmanager
def opened_page(browser: Browser, *, width: int = 1100, height: int = 900) -> Iterator[Page]:
    """A new page; the test fails if the page raised a script error."""
    page = browser.new_page(viewport={"width": width, "height": height})
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    page.close()
    assert not errors, f"the page raised: {errors}"


def api_get(base_url: str, path: str, **params: object) -> Any:
    """``GET path?params`` as JSON."""
    query = urllib.parse.urlencode(params)
    with urllib.request.urlopen(f"{base_url}{path}?{query}", timeout=30) as answer:
        return json.loads(answer.read())


_COMMITMENT = re.compile(r'"deal_commitment"\s*:\s*"[0-9a-f]*"')


def without_random_text(text: str, token: str) -> str:
    """A view's text without the random strings that can spell a card (``4d``, ``6c``):
    the table's token and the deal commitment's hex digest."""
    return _COMMITMENT.sub("", text.replace(token, ""))
