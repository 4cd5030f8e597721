"""The spot page's study tools end to end in Debian's chromium (Playwright).

A server serves an empty --strategies folder; each test works the page like a user (clicks
the range grids, types a range, locks a node and solves again, saves and reopens) and checks
what the page shows against the API and the files the library reads.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from pokerlab.cards import parse_range
from pokerlab.subgame.result import SpotSolution
from pokerlab.web.app import create_app
from tests.web.live import api_get, opened_page, served

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # A folder of its own inside a fresh one: its parent holds nothing another test wrote
    # (the security tests put an outside.npz beside their own folder).
    strategies = tmp_path_factory.mktemp("study") / "strategies"
    strategies.mkdir()
    return strategies


@pytest.fixture(scope="module")
def base_url(folder: Path) -> Iterator[str]:
    with served(create_app(folder, None)) as url:
        yield url


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    with opened_page(browser, height=1000) as opened:
        yield opened


_api = api_get


def _synced(page: Page, who: str) -> None:
    page.wait_for_function(
        f"document.getElementById('{who}-grid').dataset.synced === "
        f"document.getElementById('{who}').value")


def _weight(page: Page, who: str, hand: str) -> float:
    return float(page.get_attribute(f"#{who}-grid td[data-hand='{hand}']", "data-weight") or "nan")


def _solve(page: Page, base_url: str, oop: str, ip: str) -> None:
    page.goto(f"{base_url}/spot")
    page.fill("#oop", oop)
    page.fill("#ip", ip)
    page.fill("#stack", "200")
    page.fill("#bets", "50%,100%")
    page.fill("#spot-iterations", "60")
    page.click("#solve")
    page.wait_for_function("document.body.dataset.node === 'root'")


def test_the_range_editor_and_the_text_follow_each_other(base_url: str, page: Page,
                                                          tmp_path: Path) -> None:
    page.goto(f"{base_url}/spot")
    _synced(page, "oop")
    _synced(page, "ip")
    assert page.locator("#oop-grid td").count() == 169
    assert page.locator("#ip-grid td").count() == 169
    default = page.input_value("#oop")
    grid = parse_range(default).grid()
    assert _weight(page, "oop", "AKo") == grid[1, 0] == 1.0
    assert _weight(page, "oop", "72o") == 0.0
    # Typing a range redraws its grid.
    page.fill("#oop", "AA, KK")
    _synced(page, "oop")
    assert _weight(page, "oop", "AA") == 1.0
    assert _weight(page, "oop", "AKo") == 0.0
    # Each click on AKs moves it to the next weight and rewrites the text.
    texts = []
    for _ in range(4):
        before = page.input_value("#oop")
        page.click("#oop-grid td[data-hand='AKs']")
        page.wait_for_function(f"document.getElementById('oop').value !== {json.dumps(before)}")
        _synced(page, "oop")
        texts.append(page.input_value("#oop"))
    assert texts == ["KK+, AKs", "KK+, AKs:0.5", "KK+, AKs:0.25", "KK+"]
    page.click("#oop-grid td[data-hand='AKs']")
    page.wait_for_function("document.getElementById('oop').value === 'KK+, AKs'")
    _synced(page, "oop")
    assert _weight(page, "oop", "AKs") == 1.0
    # Quick clicks on several classes are applied one after the other, none lost.
    for hand in ("QQ", "JJ", "T9s", "QQ"):
        page.click(f"#ip-grid td[data-hand='{hand}']")
    expected = parse_range("QQ, JJ, TT, AQ, KJs")  # the page's default IP range
    weights = {"QQ": 0.25, "JJ": 0.5, "T9s": 1.0}
    queen = parse_range("QQ").combos[0]
    for _ in range(200):  # the last click (QQ again) may land after T9s shows: wait for it
        shown = parse_range(page.input_value("#ip"))
        if shown.weight_of(queen) == weights["QQ"]:
            break
        page.wait_for_timeout(50)
    _synced(page, "ip")
    shown = parse_range(page.input_value("#ip"))
    for hand, weight in weights.items():
        for combo in parse_range(hand).combos:
            assert shown.weight_of(combo) == weight, hand
    assert shown.weight_of(parse_range("TT").combos[0]) == expected.weight_of(
        parse_range("TT").combos[0])
    # A bad text is named under the grid, and the grid waits for a good one.
    page.fill("#ip", "QQ, nonsense")
    page.wait_for_function("document.getElementById('ip-note').className === 'error'")
    assert "nonsense" in (page.text_content("#ip-note") or "")
    # The edited ranges are the ones solved.
    page.fill("#ip", "QQ, JJ:0.5")
    _synced(page, "ip")
    page.fill("#spot-iterations", "30")
    page.click("#solve")
    page.wait_for_function("document.body.dataset.node === 'root'")
    assert "river spot" in (page.text_content("#title") or "")
    page.screenshot(path=str(tmp_path / "spot-editor.png"), full_page=True)


def test_lock_a_node_and_solve_again(base_url: str, page: Page, tmp_path: Path) -> None:
    _solve(page, base_url, "AA, KK, 87s", "QQ, JJ")
    free = _api(base_url, "/api/spot/node", solved=page.evaluate("document.body.dataset.solved"),
                node="x")
    page.click("button.child[data-key='x']")
    page.wait_for_function("document.body.dataset.node === 'x'")
    assert page.is_visible("#lock-box")
    assert "IP" in (page.text_content("#lock-who") or "")
    inputs = page.locator("#lock-inputs input")
    assert inputs.count() == 3
    shown = [float(inputs.nth(k).input_value()) for k in range(3)]
    assert sum(shown) == pytest.approx(100.0)
    assert shown[0] == pytest.approx(100 * free["actions"][0]["frequency"], abs=0.1)
    before = page.evaluate("document.body.dataset.solved")
    for k, value in enumerate(("30", "20", "50")):
        inputs.nth(k).fill(value)
    page.click("#lock-solve")
    page.wait_for_function(f"document.body.dataset.solved !== {json.dumps(before)}")
    assert page.evaluate("document.body.dataset.node") == "x"
    legend = page.text_content("#grid-legend") or ""
    assert "check 30.0%" in legend
    assert "bet 50 20.0%" in legend
    assert "bet 100 50.0%" in legend
    lock = "x:check=0.3,bet 50=0.2,bet 100=0.5"
    assert f"Locked here: {lock}" in (page.text_content("#summary") or "")
    assert page.text_content("#locks") == lock
    solved = page.evaluate("document.body.dataset.solved")
    locked = _api(base_url, "/api/spot/node", solved=solved, node="x")
    for hand in locked["hands"]:
        assert hand["strategy"] == pytest.approx([0.3, 0.2, 0.5])
    # A second lock elsewhere keeps the first; frequencies that do not add up are refused.
    page.click("#path button")
    page.wait_for_function("document.body.dataset.node === 'root'")
    page.locator("#lock-inputs input").nth(0).fill("50")
    page.locator("#lock-inputs input").nth(1).fill("10")
    page.locator("#lock-inputs input").nth(2).fill("10")
    page.click("#lock-solve")
    page.wait_for_function("document.getElementById('message').textContent.length > 0")
    assert "add up to 0.7" in (page.text_content("#message") or "")
    page.locator("#lock-inputs input").nth(2).fill("40")
    page.click("#lock-solve")
    page.wait_for_function("document.getElementById('locks').textContent.includes(':check=0.5')")
    assert "x:check=0.3" in (page.text_content("#locks") or "")
    assert "check 50.0%" in (page.text_content("#grid-legend") or "")
    page.screenshot(path=str(tmp_path / "spot-locked.png"), full_page=True)
    # Without locks again: the free solution's frequencies at x.
    page.click("#unlock")
    page.wait_for_function("document.getElementById('locks').textContent === 'none'")
    again = page.evaluate("document.body.dataset.solved")
    unlocked = _api(base_url, "/api/spot/node", solved=again, node="x")
    assert [a["frequency"] for a in unlocked["actions"]] == pytest.approx(
        [a["frequency"] for a in free["actions"]], abs=1e-9)


def test_lock_some_hands_picked_on_the_grid(base_url: str, page: Page, tmp_path: Path) -> None:
    _solve(page, base_url, "AA, KK, 87s", "QQ, JJ")
    page.click("button.child[data-key='x']")
    page.wait_for_function("document.body.dataset.node === 'x'")
    assert page.input_value("#lock-hands") == ""
    assert page.text_content("#lock-what") == "its whole range"
    # Clicks on the grid's classes add them to the hands locked and take them out again;
    # a class the player does not hold is not taken.
    page.click("#grid td[data-hand='QQ']")
    page.click("#grid td[data-hand='JJ']")
    page.click("#grid td[data-hand='AA']")
    assert page.input_value("#lock-hands") == "QQ,JJ"
    page.click("#grid td[data-hand='JJ']")
    assert page.input_value("#lock-hands") == "QQ"
    assert page.text_content("#lock-what") == "the hands QQ"
    before = page.evaluate("document.body.dataset.solved")
    for k, value in enumerate(("0", "0", "100")):
        page.locator("#lock-inputs input").nth(k).fill(value)
    page.click("#lock-solve")
    page.wait_for_function(f"document.body.dataset.solved !== {json.dumps(before)}")
    assert page.text_content("#locks") == "x@QQ:check=0.0,bet 50=0.0,bet 100=1.0"
    assert page.input_value("#lock-hands") == "QQ"  # kept on the same node
    # A lock of other hands at the same node keeps the first; both hold, each on its hands.
    page.fill("#lock-hands", "JJ")
    for k, value in enumerate(("100", "0", "0")):
        page.locator("#lock-inputs input").nth(k).fill(value)
    page.click("#lock-solve")
    page.wait_for_function("document.getElementById('locks').textContent.includes('x@JJ')")
    assert page.text_content("#locks") == ("x@QQ:check=0.0,bet 50=0.0,bet 100=1.0; "
                                           "x@JJ:check=1.0,bet 50=0.0,bet 100=0.0")
    solved = page.evaluate("document.body.dataset.solved")
    locked = _api(base_url, "/api/spot/node", solved=solved, node="x")
    classes = {hand["class"] for hand in locked["hands"]}
    assert classes == {"QQ", "JJ"}
    for hand in locked["hands"]:
        expected = [0.0, 0.0, 1.0] if hand["class"] == "QQ" else [1.0, 0.0, 0.0]
        assert hand["strategy"] == pytest.approx(expected), hand["hand"]
    page.screenshot(path=str(tmp_path / "spot-hands-locked.png"), full_page=True)
    # The whole range's lock replaces every lock of the node; another node starts empty.
    page.fill("#lock-hands", "")
    for k, value in enumerate(("50", "0", "50")):
        page.locator("#lock-inputs input").nth(k).fill(value)
    page.click("#lock-solve")
    page.wait_for_function("document.getElementById('locks').textContent === "
                           "'x:check=0.5,bet 50=0.0,bet 100=0.5'")
    page.click("#path button")
    page.wait_for_function("document.body.dataset.node === 'root'")
    assert page.input_value("#lock-hands") == ""
    # Hands the player does not hold at the node are refused by the server, by name.
    page.fill("#lock-hands", "72o")
    page.click("#lock-solve")
    page.wait_for_function("document.getElementById('message').textContent.length > 0")
    assert "72o" in (page.text_content("#message") or "")


def test_save_then_reopen(base_url: str, page: Page, folder: Path) -> None:
    _solve(page, base_url, "AA, KK, 87s", "QQ, JJ")
    page.click("button.child[data-key='b100']")
    page.wait_for_function("document.body.dataset.node === 'b100'")
    page.locator("#lock-inputs input").nth(0).fill("0")
    page.locator("#lock-inputs input").nth(1).fill("100")
    before = page.evaluate("document.body.dataset.solved")
    page.click("#lock-solve")
    page.wait_for_function(f"document.body.dataset.solved !== {json.dumps(before)}")
    assert page.is_visible("#save-box")
    page.fill("#save-name", "../outside")
    page.click("#save")
    page.wait_for_function("document.getElementById('message').textContent.length > 0")
    assert "is not allowed" in (page.text_content("#message") or "")
    assert not (folder.parent / "outside.npz").exists()
    page.fill("#save-name", "my-river")
    page.click("#save")
    page.wait_for_function("document.getElementById('save-note').textContent.includes('saved')")
    assert (folder / "my-river.npz").is_file()
    assert SpotSolution.load(folder / "my-river.npz").locks[0].node == "b100"
    assert page.input_value("#file") == "my-river.npz"
    # Saving again under that name is refused unless overwrite is ticked.
    page.click("#save")
    page.wait_for_function("document.getElementById('message').textContent.includes('exists')")
    page.check("#save-overwrite")
    page.click("#save")
    page.wait_for_function("document.getElementById('save-note').textContent.includes('saved')")
    assert page.text_content("#message") == ""
    # Reopened from the list, in a fresh page: the same node, the lock with it.
    page.goto(f"{base_url}/spot")
    page.wait_for_function("Number(document.body.dataset.files) > 0")
    page.select_option("#file", "my-river.npz")
    page.click("#open")
    page.wait_for_function("document.body.dataset.node === 'root'")
    assert not page.is_visible("#save-box")  # a file is saved already
    page.click("button.child[data-key='b100']")
    page.wait_for_function("document.body.dataset.node === 'b100'")
    legend = page.text_content("#grid-legend") or ""
    assert "fold 0.0%" in legend
    assert "call 100.0%" in legend
    assert "Locked here: b100:" in (page.text_content("#summary") or "")
    view = _api(base_url, "/api/spot/node", file="my-river.npz", node="b100")
    assert view["locks"] == ["b100:fold=0.0,call=1.0"]
    # A reopened file small enough to solve here can be locked again from the page.
    assert page.is_visible("#lock-box")
    page.locator("#lock-inputs input").nth(0).fill("100")
    page.locator("#lock-inputs input").nth(1).fill("0")
    page.click("#lock-solve")
    page.wait_for_function("document.body.dataset.solved !== ''")
    assert "fold 100.0%" in (page.text_content("#grid-legend") or "")
    assert page.text_content("#locks") == "b100:fold=1.0,call=0.0"
    assert page.is_visible("#save-box")  # the new solution is the page's, to save
