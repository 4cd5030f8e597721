"""The strategy explorer API: views computed by the library, solves streamed, bad input refused."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from pokerlab.eval import expected_value, exploitability
from pokerlab.strategy import Strategy
from tests.web.views_data import build_strategies, client

if TYPE_CHECKING:
    from starlette.testclient import TestClient


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_strategies(tmp_path_factory.mktemp("strategies"))


@pytest.fixture(scope="module")
def api(folder: Path) -> Iterator[TestClient]:
    with client(folder, None) as test_client:
        yield test_client


def test_the_page_and_its_scripts_are_served(api: TestClient) -> None:
    page = api.get("/explorer")
    assert page.status_code == 200
    assert "/explorer.js" in page.text
    assert "/views.js" in page.text
    for script in ("/explorer.js", "/views.js", "/views.css"):
        answer = api.get(script)
        assert answer.status_code == 200
        assert len(answer.text) > 100


def test_only_strategy_files_are_listed(api: TestClient) -> None:
    files = api.get("/api/explorer/files").json()["files"]
    assert [f["file"] for f in files] == ["kuhn.npz", "leduc.npz"]


def test_a_kuhn_view_holds_the_library_numbers(api: TestClient, folder: Path) -> None:
    view = api.get("/api/explorer/strategy", params={"file": "kuhn.npz"}).json()
    strategy = Strategy.load(folder / "kuhn.npz")
    assert view["game"] == "kuhn"
    assert view["exploitability"] == pytest.approx(exploitability(strategy.game, strategy))
    assert view["values"] == pytest.approx(list(expected_value(strategy.game, strategy)))
    assert view["metadata"]["algorithm"] == "cfr+"
    assert len(view["rows"]) == 12
    names = {row["key"]: [name for name, _ in row["actions"]] for row in view["rows"]}
    assert names["K|"] == ["check", "bet"]  # as play names them
    assert names["K|b"] == ["fold", "call"]
    table = view["kuhn_table"]
    assert table["cards"] == ["Q", "K", "A"]
    lines = {line["history"]: line for line in table["lines"]}
    assert set(lines) == {"", "p", "b", "pb"}
    assert lines["b"]["action"] == "call"
    assert lines["b"]["player"] == 2
    for history, line in lines.items():
        for card in table["cards"]:
            expected = strategy.probabilities(f"{card}|{history}")
            bet = next(p for action, p in expected.items()
                       if strategy.game.action_name(action) == "bet")
            assert line["cells"][card] == pytest.approx(bet)


def test_the_tree_links_each_infoset_to_the_owners_previous_one(api: TestClient) -> None:
    view = api.get("/api/explorer/strategy", params={"file": "kuhn.npz"}).json()
    nodes = {node["key"]: node for node in view["tree"]}
    assert nodes["K|"]["parent"] is None
    assert nodes["K|pb"]["parent"] == "K|"
    assert nodes["K|pb"]["via"] == "check"  # as play names P1's first pass
    assert nodes["K|pb"]["parent"] == "K|"
    assert nodes["A|b"]["parent"] is None
    assert nodes["A|b"]["player"] == 2


def test_a_leduc_view_has_the_card_by_betting_grid(api: TestClient, folder: Path) -> None:
    view = api.get("/api/explorer/strategy", params={"file": "leduc.npz"}).json()
    strategy = Strategy.load(folder / "leduc.npz")
    first, second = view["leduc_grid"]["rounds"]
    assert first["rows"] == ["Q", "K", "A"]
    assert first["columns"][:3] == ["", "c", "r"]
    assert len(second["rows"]) == 9
    assert "K on A" in second["rows"]
    cell = second["cells"]["K on A#cc/"]
    assert cell["key"] == "K|A|cc|"
    probs = strategy.probabilities("K|A|cc|")
    assert dict(cell["actions"]) == pytest.approx({"check": probs[1], "bet": probs[2]})
    assert view["kuhn_table"] is None


def test_a_prefix_narrows_the_rows_not_the_values(api: TestClient) -> None:
    whole = api.get("/api/explorer/strategy", params={"file": "leduc.npz"}).json()
    narrow = api.get("/api/explorer/strategy", params={"file": "leduc.npz", "prefix": "A|K|"})
    data = narrow.json()
    assert data["rows"]
    assert all(row["key"].startswith("A|K|") for row in data["rows"])
    assert len(data["rows"]) < len(whole["rows"])
    assert data["exploitability"] == whole["exploitability"]


@pytest.mark.parametrize(
    ("name", "status", "needle"),
    [
        ("../outside.npz", 403, "outside the --strategies folder"),
        ("/etc/passwd", 403, "outside the --strategies folder"),
        ("sub/../../x.npz", 403, "outside"),
        ("missing.npz", 404, "not a file"),
        ("notes.txt", 400, "not a .npz file"),
        ("broken.npz", 400, "broken.npz"),
        ("sub/spot.npz", 400, "pokerlab-spot file, not a pokerlab-strategy"),
        ("", 400, "needs file="),
        ("x" * 500, 400, "at most 400 characters"),
    ],
)
def test_bad_files_are_refused_clearly(api: TestClient, name: str, status: int,
                                       needle: str) -> None:
    answer = api.get("/api/explorer/strategy", params={"file": name})
    assert answer.status_code == status
    assert needle in answer.json()["error"]


def test_a_link_out_of_the_folder_is_refused(folder: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.npz"
    (folder / "kuhn.npz").replace(outside)
    os.symlink(outside, folder / "kuhn.npz")
    try:
        with client(folder, None) as test_client:
            answer = test_client.get("/api/explorer/strategy", params={"file": "kuhn.npz"})
            listed = [f["file"] for f in test_client.get("/api/explorer/files").json()["files"]]
    finally:
        (folder / "kuhn.npz").unlink()
        outside.replace(folder / "kuhn.npz")
    assert answer.status_code == 403
    assert "kuhn.npz" not in listed


def test_without_a_folder_the_files_answer_404() -> None:
    with client(None, None) as test_client:
        for url in ("/api/explorer/files", "/api/explorer/strategy?file=kuhn.npz"):
            answer = test_client.get(url)
            assert answer.status_code == 404
            assert "without --strategies" in answer.json()["error"]


def _events(api: TestClient, job: str) -> list[tuple[str, dict[str, object]]]:
    events = []
    kind = ""
    with api.stream("GET", f"/api/explorer/jobs/{job}/events") as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        for line in stream.iter_lines():
            if line.startswith("event: "):
                kind = line[len("event: "):]
            elif line.startswith("data: "):
                events.append((kind, json.loads(line[len("data: "):])))
    return events


def test_a_solve_streams_progress_then_the_view(api: TestClient) -> None:
    started = api.post("/api/explorer/solve",
                       json={"game": "kuhn", "algorithm": "cfr+", "iterations": 500})
    assert started.status_code == 202
    events = _events(api, started.json()["job"])
    progress = [data for kind, data in events if kind == "progress"]
    assert [kind for kind, _ in events][-1] == "done"
    iterations = [int(str(p["iteration"])) for p in progress]
    assert iterations == sorted(iterations)
    assert iterations[-1] == 500
    assert len(iterations) == 50
    gaps = [float(str(p["exploitability"])) for p in progress]
    assert gaps[-1] < gaps[0] / 10
    view = events[-1][1]
    assert view["exploitability"] == pytest.approx(gaps[-1])
    assert view["kuhn_table"] is not None
    assert view["stopped"] is False


def test_a_kuhn_variant_can_be_solved(api: TestClient) -> None:
    started = api.post("/api/explorer/solve", json={"game": "kuhn", "cards": 4,
                                                    "iterations": 20})
    assert started.json()["game"] == "kuhn(cards=4)"
    kind, view = _events(api, started.json()["job"])[-1]
    assert kind == "done"
    assert view["game"] == "kuhn(cards=4)"
    assert view["infosets"] == 16


@pytest.mark.parametrize(
    ("body", "status", "needle"),
    [
        ({"game": "holdem"}, 400, "allowed: kuhn, leduc"),
        ({"game": "kuhn", "algorithm": "lp"}, 400, "algorithm 'lp' is not offered"),
        ({"game": "kuhn", "iterations": 0}, 400, "iterations must be an integer from 1"),
        ({"game": "leduc", "iterations": 10**6}, 400, "from 1 to 5000"),
        ({"game": "kuhn", "iterations": True}, 400, "iterations must be"),
        ({"game": "kuhn", "cards": 99}, 400, "cards must be an integer from 3 to 13"),
        ({"game": "leduc", "cards": 4}, 400, "only for kuhn"),
        ([1, 2], 400, "JSON object"),
    ],
)
def test_bad_solves_are_refused(api: TestClient, body: object, status: int, needle: str) -> None:
    answer = api.post("/api/explorer/solve", json=body)
    assert answer.status_code == status
    assert needle in answer.json()["error"]


def test_a_body_that_is_not_json_or_too_big_is_refused(api: TestClient) -> None:
    answer = api.post("/api/explorer/solve", content=b"{nope")
    assert answer.status_code == 400
    assert "JSON object" in answer.json()["error"]
    answer = api.post("/api/explorer/solve", content=b"{" + b" " * 5000 + b"}")
    assert answer.status_code == 413
    assert "over 4096 bytes" in answer.json()["error"]


def test_too_many_solves_at_once_get_429(api: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(api.app.state.busy, "limit", 0)  # type: ignore[attr-defined]
    answer = api.post("/api/explorer/solve", json={"game": "kuhn"})
    assert answer.status_code == 429
    assert "at most 0" in answer.json()["error"]


def test_an_unknown_job_is_404(api: TestClient) -> None:
    assert api.get("/api/explorer/jobs/nope/events").status_code == 404
    answer = api.delete("/api/explorer/jobs/nope")
    assert answer.status_code == 404
    assert "no solve 'nope'" in answer.json()["error"]


def test_a_stopped_solve_ends_early_with_its_view(api: TestClient) -> None:
    started = api.post("/api/explorer/solve", json={"game": "leduc", "iterations": 5000})
    job = started.json()["job"]
    assert api.delete(f"/api/explorer/jobs/{job}").status_code == 200
    events = _events(api, job)
    kind, view = events[-1]
    assert kind == "done"
    done = max(int(str(data["iteration"])) for k, data in events if k == "progress")
    assert view["stopped"] is True
    assert done < 5000
