"""The spot view's API: the 13x13 grids of a solved spot, small river solves, bad input refused."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from pokerlab.subgame.range_table import CLASS_ORDER, action_colours, range_frequencies
from pokerlab.subgame.result import SpotSolution, grid_cell
from tests.web.views_data import build_strategies, client

if TYPE_CHECKING:
    from starlette.testclient import TestClient


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_strategies(tmp_path_factory.mktemp("spots"))


@pytest.fixture(scope="module")
def api(folder: Path) -> Iterator[TestClient]:
    with client(folder, None) as test_client:
        yield test_client


def _same(a: float | None, b: float) -> bool:
    return (a is None and not math.isfinite(b)) or (a is not None and a == pytest.approx(b))


def test_the_page_is_served(api: TestClient) -> None:
    assert "/spot.js" in api.get("/spot").text
    assert "function drawGrid" in api.get("/spot.js").text


def test_only_spot_files_are_listed(api: TestClient) -> None:
    assert api.get("/api/spot/files").json()["files"] == [
        {"file": "sub/spot.npz", "format": "pokerlab-spot"}]


def test_the_root_grid_is_the_librarys(api: TestClient, folder: Path) -> None:
    view = api.get("/api/spot/node", params={"file": "sub/spot.npz", "node": ""}).json()
    solution = SpotSolution.load(folder / "sub" / "spot.npz")
    report = solution.node("")
    assert view["acting"] == 0
    assert [a["name"] for a in view["actions"]] == list(report.actions)
    assert view["children"] == list(report.children)
    assert view["labels"][0][0] == "AA"
    assert view["labels"][0][1] == "AKs"
    for a, action in enumerate(view["actions"]):
        expected, _ = report.grid(report.strategy[a])
        for r in range(13):
            for c in range(13):
                assert _same(action["grid"][r][c], expected[r][c])
    ev, weight = report.grid(report.ev)
    equity, _ = report.grid(report.equity)
    row, column = grid_cell("AhAs")
    assert view["weight"][row][column] == pytest.approx(weight[row][column])
    assert view["ev"][row][column] == pytest.approx(ev[row][column])
    assert view["equity"][row][column] == pytest.approx(equity[row][column])
    assert view["exploitability"] == pytest.approx(solution.exploitability)
    assert view["spot_ev"] == pytest.approx(list(solution.ev))
    assert sum(view["spot_ev"]) == pytest.approx(solution.spot.pot)
    frequencies = [action["grid"][row][column] for action in view["actions"]]
    assert sum(frequencies) == pytest.approx(1.0)


def test_a_child_node_and_the_other_players_hands(api: TestClient) -> None:
    child = api.get("/api/spot/node", params={"file": "sub/spot.npz", "node": "x"}).json()
    assert child["key"] == "x"
    assert child["acting"] == 1
    assert child["player"] == 1
    assert {h["hand"][:1] for h in child["hands"]} <= {"Q", "J", "A"}
    oop = api.get("/api/spot/node",
                  params={"file": "sub/spot.npz", "node": "x", "player": 0}).json()
    assert oop["player"] == 0
    assert all(action["grid"] is None for action in oop["actions"])


@pytest.mark.parametrize(
    ("params", "status", "needle"),
    [
        ({"file": "sub/spot.npz", "node": "zz"}, 400, "no node 'zz'"),
        ({"file": "sub/spot.npz", "player": 2}, 400, "player must be an integer from 0 to 1"),
        ({"file": "kuhn.npz"}, 400, "pokerlab-strategy file, not a pokerlab-spot"),
        ({"file": "../x.npz"}, 403, "outside the --strategies folder"),
        ({"file": "sub/spot.npz", "node": "x" * 401}, 400, "over 400 characters"),
        ({"solved": "nope"}, 404, "no spot solved here"),
        ({}, 400, "needs file="),
    ],
)
def test_bad_nodes_are_refused(api: TestClient, params: dict[str, object], status: int,
                               needle: str) -> None:
    answer = api.get("/api/spot/node", params=params)
    assert answer.status_code == status
    assert needle in answer.json()["error"]


def test_a_river_spot_solved_here_can_be_browsed(api: TestClient) -> None:
    body = {"board": "Td9d6hQc2s", "oop": "AA, KK", "ip": "QQ, JJ", "pot": 100, "stack": 100,
            "bets": "100%", "iterations": 100}
    answer = api.post("/api/spot/solve", json=body)
    assert answer.status_code == 200
    root = answer.json()
    assert root["iterations"] == 100
    assert root["exploitability"] >= 0
    assert sum(root["spot_ev"]) == pytest.approx(100.0)
    assert sum(root["spot_ev_percent_of_pot"]) == pytest.approx(100.0)
    assert "share of the pot" in root["ev_convention"]
    child = api.get("/api/spot/node", params={"solved": root["solved"], "node": "b100"}).json()
    assert child["acting"] == 1
    assert [a["name"] for a in child["actions"]] == ["fold", "call"]


@pytest.mark.parametrize(
    ("body", "status", "needle"),
    [
        ({"board": "Td9d6h", "oop": "AA", "ip": "KK"}, 400, "river spots only"),
        ({"board": "Td9d6hQcZz", "oop": "AA", "ip": "KK"}, 400, "Zz"),
        ({"board": "Td9d6hQc2s", "oop": "nonsense", "ip": "KK"}, 400, "nonsense"),
        ({"board": "Td9d6hQc2s", "oop": "AA", "ip": "KK", "pot": 0}, 400, "pot must be"),
        ({"board": "Td9d6hQc2s", "oop": "AA", "ip": "KK", "iterations": 10**6}, 400,
         "iterations must be an integer from 1 to 2000"),
        ({"board": "Td9d6hQc2s", "oop": "AA", "ip": "KK",
          "bets": "10%,20%,30%,40%,50%,60%,70%,80%,90%"}, 413, "too large to solve here"),
        ({"board": 5, "oop": "AA", "ip": "KK"}, 400, "board must be a string"),
        ({"oop": "AA", "ip": "KK"}, 400, "board must be a string"),
    ],
)
def test_bad_spots_are_refused(api: TestClient, body: dict[str, object], status: int,
                               needle: str) -> None:
    answer = api.post("/api/spot/solve", json=body)
    assert answer.status_code == status
    assert needle in answer.json()["error"]


def test_each_bet_size_has_its_own_colour_as_in_the_png(api: TestClient) -> None:
    body = {"board": "Td9d6hQc2s", "oop": "AA, KK, 87s", "ip": "QQ, JJ", "pot": 100,
            "stack": 200, "bets": "50%,100%", "iterations": 50}
    root = api.post("/api/spot/solve", json=body).json()
    names = [a["name"] for a in root["actions"]]
    assert names == ["check", "bet 50", "bet 100"]
    colours = [a["colour"] for a in root["actions"]]
    assert len(set(colours)) == 3
    assert colours == list(action_colours(names))  # what `spot show --png` draws with
    # The page draws with the server's colour, not one per action's first word.
    script = api.get("/spot.js").text
    assert "a.colour" in script
    assert "colourOf" not in script
    assert sum(a["frequency"] for a in root["actions"]) == pytest.approx(1.0)


def test_hands_come_sorted_by_class_with_range_weights(api: TestClient, folder: Path) -> None:
    view = api.get("/api/spot/node", params={"file": "sub/spot.npz", "node": ""}).json()
    classes = [h["class"] for h in view["hands"]]
    assert classes == sorted(classes, key=CLASS_ORDER.index)
    assert classes[0] == "AA"
    assert all(h["weight"] > 0 for h in view["hands"])
    report = SpotSolution.load(folder / "sub" / "spot.npz").node("")
    frequencies = range_frequencies(report)
    assert [a["frequency"] for a in view["actions"]] == pytest.approx(list(frequencies))
