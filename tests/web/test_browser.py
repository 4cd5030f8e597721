"""End to end in Debian's chromium (Playwright): whole hands played by clicking the page."""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.applications import Starlette

from pokerlab.web.app import create_app
from tests.web.live import served as serving
from tests.web.live import without_random_text

CHROMIUM = Path("/usr/bin/chromium")
CARD = re.compile(r"[2-9TJQKA][cdhs]")
pytestmark = pytest.mark.slow
KEEP = os.environ.get("POKERLAB_KEEP_SCREENSHOTS")
"""A folder to copy the screenshots to (the README's come from here), if set."""


@pytest.fixture(scope="module")
def served(strategies_dir: Path) -> Iterator[tuple[str, Starlette]]:
    app = create_app(strategies=strategies_dir)
    with serving(app) as url:
        yield url, app


class Traffic:
    """What the page received: the API's answers and the WebSocket's frames."""

    def __init__(self) -> None:
        self.responses: list[object] = []
        self.frames: list[str] = []

    def texts(self) -> list[str]:
        bodies = [r.text() for r in self.responses  # type: ignore[attr-defined]
                  if "/api/tables" in r.url]  # type: ignore[attr-defined]
        return bodies + self.frames


@pytest.fixture
def traffic() -> Traffic:
    return Traffic()


@pytest.fixture
def page(served: tuple[str, Starlette], traffic: Traffic) -> Iterator[object]:
    assert CHROMIUM.exists(), "the browser tests need /usr/bin/chromium: apt-get install chromium"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=str(CHROMIUM), headless=True)
        try:
            tab = browser.new_page(viewport={"width": 1100, "height": 800})
            tab.set_default_timeout(20_000)
            tab.on("response", lambda response: traffic.responses.append(response))
            tab.on("websocket", lambda socket: socket.on(
                "framereceived", lambda payload: traffic.frames.append(str(payload))))
            tab.goto(served[0])
            tab.wait_for_function("document.body.dataset.ready === '1'")
            yield tab
        finally:
            browser.close()


def _shoot(page: object, path: Path) -> None:
    page.screenshot(path=str(path), full_page=True)  # type: ignore[attr-defined]
    if KEEP:
        shutil.copy(path, Path(KEEP) / path.name)


def _click_and_wait(page: object, selector: str) -> None:
    """Click and wait for the next view (its version goes up)."""
    version = int(page.evaluate("document.body.dataset.version"))  # type: ignore[attr-defined]
    page.click(selector)  # type: ignore[attr-defined]
    page.wait_for_function(  # type: ignore[attr-defined]
        f"Number(document.body.dataset.version) > {version}")


def _wait_for_turn_or_end(page: object) -> str:
    page.wait_for_function(  # type: ignore[attr-defined]
        "document.body.dataset.yourTurn === 'true' || document.body.dataset.handOver === 'true'")
    return "end" if page.evaluate(  # type: ignore[attr-defined]
        "document.body.dataset.handOver") == "true" else "turn"


def test_a_whole_holdem_hand_against_easy_ai(
    page: object, tmp_path: Path, served: tuple[str, Starlette], traffic: Traffic
) -> None:
    page.select_option("#game", "holdem")  # type: ignore[attr-defined]
    page.select_option("#seats", "2")  # type: ignore[attr-defined]
    page.select_option("#opp-1", "easy")  # type: ignore[attr-defined]
    page.click("#start")  # type: ignore[attr-defined]
    page.wait_for_selector("#seat-1")  # type: ignore[attr-defined]
    assert page.locator("#seat-0 .card:not(.back)").count() == 2  # type: ignore[attr-defined]
    assert page.locator("#seat-1 .card.back").count() == 2  # type: ignore[attr-defined]
    _shoot(page, tmp_path / "web-holdem.png")
    raised = False
    for _ in range(30):
        if _wait_for_turn_or_end(page) == "end":
            break
        if not raised and page.is_visible("#raise"):  # type: ignore[attr-defined]
            page.click(".preset")  # type: ignore[attr-defined]
            _click_and_wait(page, "#raise")
            raised = True
        else:
            _click_and_wait(page, "#call")
    assert page.evaluate("document.body.dataset.handOver") == "true"  # type: ignore[attr-defined]
    assert raised
    history = page.text_content("#history") or ""  # type: ignore[attr-defined]
    assert "You: raise to" in history or "You: bet" in history
    assert "pot of" in history
    assert "after 1 hand" in (page.text_content("#result") or "")  # type: ignore[attr-defined]
    # "Next hand" comes with the version after the hand's end (the table's thread has ended).
    page.wait_for_selector("#deal", state="visible")  # type: ignore[attr-defined]
    _shoot(page, tmp_path / "web-holdem-end.png")
    assert (tmp_path / "web-holdem-end.png").stat().st_size > 10_000
    # The page's traffic never carried the bot's hole cards before the hand was over.
    texts = traffic.texts()
    token = json.loads(texts[0])["token"]
    table = served[1].state.web.tables.get(token)
    assert table._setup is not None
    bot_player = table._setup.player_of(1)
    bot_cards = set(CARD.findall(table._state.private_cards(bot_player)))
    assert len(bot_cards) == 2
    assert traffic.frames, "the page's WebSocket received views"
    for text in texts:
        text = without_random_text(text, token)
        if '"hand_over":false' in text:
            assert not set(CARD.findall(text)) & bot_cards, text


def test_a_whole_leduc_hand_with_the_strategy_shown(page: object, tmp_path: Path) -> None:
    page.select_option("#game", "leduc")  # type: ignore[attr-defined]
    page.select_option("#opponent", "file:leduc20.npz")  # type: ignore[attr-defined]
    page.click("#start")  # type: ignore[attr-defined]
    page.wait_for_selector("#seat-bot")  # type: ignore[attr-defined]
    _click_and_wait(page, "#strategy-toggle")
    caption = page.text_content("#strategy caption") or ""  # type: ignore[attr-defined]
    assert "your infoset" in caption
    cells = page.locator("#strategy td").all_text_contents()  # type: ignore[attr-defined]
    percents = [float(c.rstrip("%")) for c in cells if c.endswith("%")]
    assert sum(percents) == pytest.approx(100.0, abs=0.3)
    _shoot(page, tmp_path / "web-leduc.png")
    for _ in range(20):
        if _wait_for_turn_or_end(page) == "end":
            break
        names = page.locator(".move").all_text_contents()  # type: ignore[attr-defined]
        choice = next((n for n in ("check", "call") if n in names), names[0])
        _click_and_wait(page, f".move:text-is('{choice}')")
    assert page.evaluate("document.body.dataset.handOver") == "true"  # type: ignore[attr-defined]
    assert "You " in (page.text_content("#history") or "")  # type: ignore[attr-defined]
    assert "after 1 hand" in (page.text_content("#result") or "")  # type: ignore[attr-defined]
