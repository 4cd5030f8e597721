"""The arena view's API: the library's leaderboard, cumulative winnings, replays; read-only."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from pokerlab.arena import ArenaStore, leaderboard
from pokerlab.web import arena_view
from tests.web.views_data import ENTRANTS, build_arena, client

if TYPE_CHECKING:
    from starlette.testclient import TestClient

HANDS = 10


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_arena(tmp_path_factory.mktemp("arena") / "arena.db", hands=HANDS)


@pytest.fixture(scope="module")
def api(db: Path) -> Iterator[TestClient]:
    with client(None, db) as test_client:
        yield test_client


def _digest(path: Path) -> str:
    """The database's bytes and its write-ahead log's (if any), hashed."""
    wal = path.with_name(path.name + "-wal")
    data = path.read_bytes() + (wal.read_bytes() if wal.exists() else b"")
    return hashlib.sha256(data).hexdigest()


def test_the_page_is_served(api: TestClient) -> None:
    page = api.get("/arena")
    assert page.status_code == 200
    assert "/arena.js" in page.text
    assert "function loadHand" in api.get("/arena.js").text


def test_runs_are_listed(api: TestClient) -> None:
    runs = api.get("/api/arena/runs").json()["runs"]
    assert runs == [{"run": 1, "game": "kuhn", "players": 2, "hands": HANDS, "finished": True}]


def test_the_leaderboard_is_the_librarys(api: TestClient, db: Path) -> None:
    board = api.get("/api/arena/leaderboard").json()
    expected = leaderboard(db).to_dict()
    assert board["standings"] == expected["standings"]
    assert sorted(s["name"] for s in board["standings"]) == sorted(ENTRANTS)
    for standing in board["standings"]:
        assert standing["low"] < standing["mean"] < standing["high"]
    assert len(board["matches"]) == 3
    assert board["matches"][0]["names"] == ["random", "always-call"]
    assert api.get("/api/arena/leaderboard", params={"run": 1}).json() == board


def test_a_match_chart_ends_at_each_agents_total(api: TestClient, db: Path) -> None:
    data = api.get("/api/arena/match", params={"match": 1}).json()
    with ArenaStore(db, readonly=True) as store:
        match = store.matches(1)[1]
        rows = store.agent_returns(match.id)
    assert data["hands_stored"] == len(rows) == 2 * HANDS
    assert data["hands"][-1] == len(rows)
    for position, series in enumerate(data["cumulative"]):
        assert series[-1] == pytest.approx(sum(values[position] for _, values in rows))
        assert len(series) == len(data["hands"])
    assert sum(series[-1] for series in data["cumulative"]) == pytest.approx(0.0)


def test_a_hand_replays_step_by_step(api: TestClient, db: Path) -> None:
    data = api.get("/api/arena/hand", params={"match": 2, "hand": 5}).json()
    with ArenaStore(db, readonly=True) as store:
        record = store.hands(store.matches(1)[2].id)[5]
    steps = data["steps"]
    assert len(steps) == len(record.history) + 1
    assert steps[0]["actor"] == "start"
    assert [s["actor"] for s in steps[1:3]] == ["chance", "chance"]
    assert steps[1]["move"].startswith("deal ")
    assert data["returns"] == list(record.returns)
    assert data["seats"] == [["always-call", "always-raise"][a] for a in record.seats]
    assert steps[-1]["cards"][0]
    assert steps[-1]["cards"][1]
    assert steps[-1]["pot"] == pytest.approx(sum(steps[-1]["put_in"]))
    for step in steps[3:]:
        assert step["seat"] in (0, 1)
        assert step["actor"] == data["seats"][step["seat"]]


@pytest.mark.parametrize(
    ("params", "status", "needle"),
    [
        ({"run": 7}, 404, "has no run 7"),
        ({"run": "x"}, 400, "run must be an integer"),
        ({"run": 0}, 400, "run must be an integer from 1"),
    ],
)
def test_bad_runs_are_refused(api: TestClient, params: dict[str, object], status: int,
                              needle: str) -> None:
    answer = api.get("/api/arena/leaderboard", params=params)
    assert answer.status_code == status
    assert needle in answer.json()["error"]


@pytest.mark.parametrize(
    ("url", "params", "status", "needle"),
    [
        ("/api/arena/match", {}, 400, "needs match="),
        ("/api/arena/match", {"match": 3}, 404, "has no match 3"),
        ("/api/arena/match", {"match": "1e3"}, 400, "match must be an integer"),
        ("/api/arena/hand", {"match": 0}, 400, "needs hand="),
        ("/api/arena/hand", {"match": 0, "hand": 2 * HANDS}, 404, "hand must be from 0 to 19"),
        ("/api/arena/hand", {"match": 0, "hand": -1}, 400, "hand must be an integer from 0"),
        ("/api/arena/hand", {"match": 9, "hand": 0}, 404, "has no match 9"),
    ],
)
def test_bad_matches_and_hands_are_refused(api: TestClient, url: str, params: dict[str, object],
                                           status: int, needle: str) -> None:
    answer = api.get(url, params=params)
    assert answer.status_code == status
    assert needle in answer.json()["error"]


def test_the_database_is_only_read(db: Path) -> None:
    before = _digest(db)
    with client(None, db) as test_client:
        for url in ("/api/arena/runs", "/api/arena/leaderboard", "/api/arena/match?match=0",
                    "/api/arena/hand?match=0&hand=0"):
            assert test_client.get(url).status_code == 200
    assert _digest(db) == before


def test_without_a_database_the_api_answers_404() -> None:
    with client(None, None) as test_client:
        answer = test_client.get("/api/arena/runs")
    assert answer.status_code == 404
    assert "without --db" in answer.json()["error"]


def test_a_database_that_is_not_an_arena_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE t (x)")
    connection.close()
    with client(None, other) as test_client:
        answer = test_client.get("/api/arena/leaderboard")
    assert answer.status_code == 400
    assert "not a pokerlab arena database" in answer.json()["error"]


def test_every_request_opens_the_store_read_only(db: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[bool] = []

    def spy(path: Path, **options: bool) -> ArenaStore:
        opened.append(options.get("readonly", False))
        return ArenaStore(path, **options)

    monkeypatch.setattr(arena_view, "ArenaStore", spy)
    with client(None, db) as test_client:
        for url in ("/api/arena/runs", "/api/arena/leaderboard", "/api/arena/match?match=0",
                    "/api/arena/hand?match=0&hand=0"):
            assert test_client.get(url).status_code == 200
    assert opened == [True] * 4


def test_one_hand_is_read_like_every_hand(db: Path) -> None:
    with ArenaStore(db, readonly=True) as store:
        match = store.matches(1)[0]
        every = store.hands(match.id)
        assert [store.hand(match.id, record.hand) for record in every] == every
        assert store.hand(match.id, len(every)) is None
