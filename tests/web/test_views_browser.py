"""End to end in Debian's chromium (Playwright): the explorer, the arena and the spot pages.

One server serves a --strategies folder and an arena database built here with pokerlab's
solvers and arena; each test clicks through a page like a user, checks what it shows against
the API (the library's numbers), and saves a screenshot in the test's folder.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from pokerlab.web.app import create_app
from tests.web.live import api_get, opened_page, served
from tests.web.views_data import build_arena, build_strategies

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("views")
    folder = build_strategies(root / "strategies")
    db = build_arena(root / "arena.db", hands=10)
    with served(create_app(folder, db)) as url:
        yield url


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    with opened_page(browser) as opened:
        yield opened


_api = api_get


def _canvas_is_drawn(page: Page, selector: str) -> bool:
    return bool(page.evaluate(
        """(selector) => {
            const c = document.querySelector(selector);
            const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
            for (let i = 3; i < data.length; i += 4) if (data[i] > 0) return true;
            return false;
        }""",
        selector,
    ))


def test_open_a_kuhn_strategy_in_the_explorer(base_url: str, page: Page, tmp_path: Path) -> None:
    view = _api(base_url, "/api/explorer/strategy", file="kuhn.npz")
    page.goto(f"{base_url}/explorer")
    page.wait_for_function("document.body.dataset.filesLoaded === 'yes'")
    page.select_option("#file", "kuhn.npz")
    page.click("#open")
    page.wait_for_function("document.body.dataset.rendered === 'kuhn'")
    assert page.text_content("#exploitability") == f"{view['exploitability']:.6f}"
    values = page.text_content("#values") or ""
    assert f"P2 {view['values'][1]:.5f}" in values
    table = page.locator("#kuhn-table tr")
    assert table.count() == 5
    line = next(x for x in view["kuhn_table"]["lines"] if x["history"] == "b")
    row = page.locator("#kuhn-table tr", has_text="P2 after P1 bets")
    assert row.locator("td").nth(3).text_content() == f"{line['cells']['K']:.3f}"
    page.click("#tree details[data-key='K|'] > summary")
    assert page.locator("#tree details[data-key='K|'] [data-key='K|pb']").is_visible()
    page.fill("#prefix", "A|")
    assert page.locator("#table tr").count() == 1 + 4
    header = page.locator("#table tr").first.locator("th").all_text_contents()
    assert header == ["infoset", "player", "check", "bet", "fold", "call"]  # as play names them
    page.screenshot(path=str(tmp_path / "explorer-kuhn.png"), full_page=True)


def test_a_leduc_strategy_shows_the_card_by_betting_grid(base_url: str, page: Page,
                                                         tmp_path: Path) -> None:
    page.goto(f"{base_url}/explorer")
    page.wait_for_function("document.body.dataset.filesLoaded === 'yes'")
    page.select_option("#file", "leduc.npz")
    page.click("#open")
    page.wait_for_function("document.body.dataset.rendered === 'leduc'")
    grids = page.locator("#leduc-grid table")
    assert grids.count() == 2
    assert grids.nth(0).locator("tr").count() == 1 + 3
    assert grids.nth(1).locator("tr").count() == 1 + 9
    assert page.locator("#leduc-grid .bar").count() > 30
    page.locator("#leduc-grid").screenshot(path=str(tmp_path / "explorer-leduc.png"))


def test_solve_kuhn_from_the_page_with_live_progress(base_url: str, page: Page,
                                                     tmp_path: Path) -> None:
    page.goto(f"{base_url}/explorer")
    page.select_option("#game", "kuhn")
    page.fill("#iterations", "400")
    page.click("#solve")
    page.wait_for_function("document.body.dataset.rendered === 'kuhn'")
    assert "iteration 400 of 400" in (page.text_content("#progress-text") or "")
    assert _canvas_is_drawn(page, "#chart")
    assert float(page.text_content("#exploitability") or "1") < 0.01
    page.screenshot(path=str(tmp_path / "explorer-solve.png"), full_page=True)


def test_a_refused_file_shows_the_servers_message(base_url: str, page: Page) -> None:
    page.goto(f"{base_url}/explorer")
    page.wait_for_function("document.body.dataset.filesLoaded === 'yes'")
    page.evaluate("""() => {
        const option = document.createElement('option');
        option.value = '../../etc/passwd'; option.textContent = 'forged';
        document.getElementById('file').append(option);
    }""")
    page.select_option("#file", "../../etc/passwd")
    page.click("#open")
    page.wait_for_function("document.getElementById('message').textContent.length > 0")
    assert "outside the --strategies folder" in (page.text_content("#message") or "")


def test_the_leaderboard_of_an_arena_run(base_url: str, page: Page, tmp_path: Path) -> None:
    board = _api(base_url, "/api/arena/leaderboard")
    page.goto(f"{base_url}/arena")
    page.wait_for_function("document.body.dataset.board === 'yes'")
    page.wait_for_function("document.body.dataset.chart === '0'")
    rows = page.locator("#leaderboard tr.standing")
    assert rows.count() == 3
    for k, standing in enumerate(board["standings"]):
        cells = rows.nth(k).locator("td")
        assert cells.nth(1).text_content() == standing["name"]
        assert cells.nth(3).text_content() == f"[{standing['low']:.4f}, {standing['high']:.4f}]"
    assert _canvas_is_drawn(page, "#chart")
    page.click("button.chart-button[data-match='2']")
    page.wait_for_function("document.body.dataset.chart === '2'")
    assert "always-call vs always-raise" in (page.text_content("#chart-title") or "")
    page.screenshot(path=str(tmp_path / "arena-leaderboard.png"), full_page=True)


def test_replay_a_stored_hand(base_url: str, page: Page, tmp_path: Path) -> None:
    hand = _api(base_url, "/api/arena/hand", match=1, hand=4)
    page.goto(f"{base_url}/arena")
    page.wait_for_function("document.body.dataset.board === 'yes'")
    page.fill("#replay-match", "1")
    page.fill("#replay-hand", "4")
    page.click("#load-hand")
    page.wait_for_function("document.body.dataset.step === '0'")
    assert page.locator("#steps li").count() == len(hand["steps"])
    assert page.is_disabled("#prev")
    for k in range(1, len(hand["steps"])):
        page.click("#next")
        page.wait_for_function(f"document.body.dataset.step === '{k}'")
        step = hand["steps"][k]
        assert (page.text_content("#step-move") or "").endswith(f"{step['actor']} – {step['move']}")
    assert page.is_disabled("#next")
    won = page.locator("#replay-state table tr").nth(1).locator("td").nth(3).text_content()
    assert won == f"{hand['returns'][0]:.1f}"
    page.screenshot(path=str(tmp_path / "arena-replay.png"), full_page=True)


def test_a_solved_spot_as_a_range_grid(base_url: str, page: Page, tmp_path: Path) -> None:
    page.goto(f"{base_url}/spot")
    page.wait_for_function("document.getElementById('file').options.length > 0")
    page.click("#open")
    page.wait_for_function("document.body.dataset.node === 'root'")
    assert page.locator("#grid td").count() == 169
    coloured = page.locator("#grid td:not(.empty)")
    assert coloured.count() > 0
    assert "linear-gradient" in (coloured.first.get_attribute("style") or "")
    page.click("button.child[data-key='x']")
    page.wait_for_function("document.body.dataset.node === 'x'")
    node = _api(base_url, "/api/spot/node", file="sub/spot.npz", node="x")
    page.select_option("#mode", "equity")
    cell = page.locator("#grid td[data-hand='QQ']")
    assert "gradient" not in (cell.get_attribute("style") or "")
    assert "rgb(" in (cell.get_attribute("style") or "")
    row, column = next((r, c) for r, labels in enumerate(node["labels"])
                       for c, label in enumerate(labels) if label == "QQ")
    assert f"equity {node['equity'][row][column]:.3f}" in (cell.get_attribute("title") or "")
    page.screenshot(path=str(tmp_path / "spot-grid.png"), full_page=True)


def test_each_bet_size_is_coloured_apart(base_url: str, page: Page, tmp_path: Path) -> None:
    page.goto(f"{base_url}/spot")
    page.fill("#oop", "AA, KK, 87s")
    page.fill("#ip", "QQ, JJ")
    page.fill("#stack", "200")
    page.fill("#bets", "50%,100%")
    page.fill("#spot-iterations", "50")
    page.click("#solve")
    page.wait_for_function("document.body.dataset.node === 'root'")
    swatches = page.locator("#grid-legend .swatch")
    assert swatches.count() == 3
    colours = [swatches.nth(k).evaluate("(node) => getComputedStyle(node).backgroundColor")
               for k in range(3)]
    assert len(set(colours)) == 3  # check, bet 50 and bet 100
    legend = page.text_content("#grid-legend") or ""
    assert "bet 50" in legend
    assert "bet 100" in legend
    styles = " ".join(page.locator("#grid td:not(.empty)").nth(k).get_attribute("style") or ""
                      for k in range(page.locator("#grid td:not(.empty)").count()))
    assert sum(colour in styles for colour in colours) >= 2
    assert "EV (share of the pot of 100): OOP" in (page.text_content("#summary") or "")
    page.screenshot(path=str(tmp_path / "spot-sizes.png"), full_page=True)


def test_a_click_on_the_chart_replays_that_hand(base_url: str, page: Page) -> None:
    page.goto(f"{base_url}/arena")
    page.wait_for_function("document.body.dataset.chart === '0'")
    box = page.locator("#chart").bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] - 11, box["y"] + box["height"] / 2)
    page.wait_for_function("document.body.dataset.step === '0'")
    hands = _api(base_url, "/api/arena/match", match=0)["hands_stored"]
    assert page.input_value("#replay-hand") == str(hands - 1)
    assert f"match 0, hand {hands - 1}:" in (page.text_content("#step-note") or "")


def test_solve_a_river_spot_from_the_page(base_url: str, page: Page) -> None:
    page.goto(f"{base_url}/spot")
    page.fill("#oop", "AA, KK")
    page.fill("#ip", "QQ, JJ")
    page.fill("#spot-iterations", "50")
    page.click("#solve")
    page.wait_for_function("document.body.dataset.node === 'root'")
    assert "after 50 iterations" in (page.text_content("#summary") or "")
    assert page.locator("#grid td:not(.empty)").count() == 2
    page.click("button.child[data-key='b100']")
    page.wait_for_function("document.body.dataset.node === 'b100'")
    # IP holds QQ (3 combos: the Qc is on the board) and JJ (6), all still in its range.
    assert page.locator("#hands tr").count() == 1 + 9
    page.fill("#board", "Td9d6h")
    page.click("#solve")
    page.wait_for_function("document.getElementById('message').textContent.length > 0")
    assert "river spots only" in (page.text_content("#message") or "")
