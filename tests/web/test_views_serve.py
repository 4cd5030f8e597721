"""`serve --db/--strategies`, the replay of hands of every game, and no request ever a 500."""

from __future__ import annotations

import string
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import typer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from pokerlab.agents.registry import make_agent
from pokerlab.errors import PokerlabError
from pokerlab.games import load
from pokerlab.play.dealer import DealStream, connect, deal_hand
from pokerlab.web.arena_view import replay
from tests.web.views_data import build_arena, build_strategies, client

if TYPE_CHECKING:
    from starlette.testclient import TestClient


def _serve_app() -> typer.Typer:
    from pokerlab.cli import serve

    app = typer.Typer(add_completion=False)
    serve.register(app)
    app.command("unused")(lambda: None)  # two commands: `serve` stays a subcommand
    return app


def test_serve_passes_db_and_strategies_to_the_app(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import uvicorn

    served: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: served.append(app))
    db = build_arena(tmp_path / "arena.db", hands=2)
    folder = tmp_path / "strategies"
    folder.mkdir()
    result = CliRunner().invoke(_serve_app(), ["serve", "--db", str(db), "--strategies",
                                               str(folder)])
    assert result.exit_code == 0, result.output
    from starlette.testclient import TestClient

    # serve on loopback accepts only loopback Host names (see allowed_hosts in cli/serve.py)
    with TestClient(served[0], base_url="http://127.0.0.1:8000") as test_client:
        assert test_client.get("/api/arena/runs").json()["runs"][0]["game"] == "kuhn"
        assert test_client.get("/api/explorer/files").json() == {"files": []}


@pytest.mark.parametrize(
    ("arguments", "needle"),
    [
        (["--db", "missing.db"], "does not exist"),
        (["--strategies", "missing-folder"], "does not exist"),
    ],
)
def test_serve_refuses_missing_paths(arguments: list[str], needle: str,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    monkeypatch.setattr(uvicorn, "run", lambda app, **options: pytest.fail("served"))
    result = CliRunner().invoke(_serve_app(), ["serve", *arguments], env={"COLUMNS": "300"})
    assert result.exit_code == 2
    assert needle in result.output


def test_serve_refuses_a_file_as_the_strategies_folder(tmp_path: Path) -> None:
    file = tmp_path / "file.npz"
    file.write_bytes(b"x")
    result = CliRunner().invoke(_serve_app(), ["serve", "--strategies", str(file)],
                                env={"COLUMNS": "300"})
    assert result.exit_code == 2
    assert "is a file" in result.output


@pytest.mark.parametrize("game_text", ["kuhn", "leduc", "leduc(stack=6)",
                                       "holdem", "kuhn(players=3)"])
def test_a_replay_ends_in_the_dealers_final_state(game_text: str) -> None:
    game = load(game_text)
    names = ["random", "always-call", "always-raise"][: game.n_players]
    for deal in range(3):
        seats = [connect(make_agent(name, game, seed=deal)) for name in names]
        record, final = deal_hand(game, seats, chance=DealStream(11, deal))
        shown = replay(game_text, record.history, names, list(record.returns))
        assert shown["final"] == str(final)
        assert len(shown["steps"]) == len(record.history) + 1
        last = shown["steps"][-1]
        assert last["put_in"] == pytest.approx(list(final.contributions()))
        actors = [s["actor"] for s in shown["steps"][1:]]
        assert set(actors) <= {"chance", *names}


def test_a_corrupted_history_is_refused() -> None:
    with pytest.raises(PokerlabError, match="not legal"):
        replay("kuhn", [0, 1, 5], ["a", "b"], [0.0, 0.0])
    with pytest.raises(PokerlabError, match="after its end"):
        replay("kuhn", [0, 1, 0, 0, 0], ["a", "b"], [0.0, 0.0])


# -- no request is ever a server error ------------------------------------------------------

GET_PATHS = ("/api/explorer/strategy", "/api/explorer/files", "/api/arena/leaderboard",
             "/api/arena/match", "/api/arena/hand", "/api/arena/runs", "/api/spot/node",
             "/api/spot/files", "/api/explorer/jobs/x/events")
NAMES = ("file", "prefix", "run", "match", "hand", "node", "player", "solved")
VALUES = st.one_of(
    st.sampled_from(["kuhn.npz", "leduc.npz", "sub/spot.npz", "..", "/", "0", "1", "-1", "x",
                     "99999999999999", "b100", "x-b100", "../kuhn.npz", "%00", ""]),
    st.text(alphabet=string.printable, max_size=30),
)


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    root = tmp_path_factory.mktemp("fuzz")
    folder = build_strategies(root / "strategies")
    db = build_arena(root / "arena.db", hands=2)
    with client(folder, db) as test_client:
        yield test_client


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(GET_PATHS), params=st.dictionaries(st.sampled_from(NAMES), VALUES,
                                                                 max_size=4))
def test_no_query_is_a_server_error(fuzzed: TestClient, path: str,
                                    params: dict[str, str]) -> None:
    answer = fuzzed.get(path, params=params)
    assert answer.status_code < 500, (path, params, answer.text[:200])
    if answer.status_code >= 400:
        assert answer.json()["error"]


BODY_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-10**9, 10**9),
                        # no NaN or infinity: the test client cannot send them as JSON
                        st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=20),
                        st.sampled_from(["kuhn", "leduc", "cfr+", "Td9d6hQc2s", "AA", "KK"]),
                        st.lists(st.integers(), max_size=3))


@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.dictionaries(st.sampled_from(["game", "algorithm", "iterations", "cards", "board",
                                             "oop", "ip", "pot", "stack", "bets"]),
                            BODY_VALUES, max_size=6))
def test_no_body_is_a_server_error(fuzzed: TestClient, body: dict[str, object]) -> None:
    for path in ("/api/explorer/solve", "/api/spot/solve"):
        answer = fuzzed.post(path, json=body)
        assert answer.status_code < 500, (path, body, answer.text[:200])
        if answer.status_code == 202:  # a solve started: stop it
            fuzzed.delete(f"/api/explorer/jobs/{answer.json()['job']}")


def test_serve_help_says_public_warns_and_what_db_shows() -> None:
    result = CliRunner().invoke(_serve_app(), ["serve", "--help"], env={"COLUMNS": "300"})
    assert result.exit_code == 0, result.output
    rows = {}  # option -> its help row (COLUMNS=300: one row each)
    for line in result.output.splitlines():
        words = line.strip("│ ").split()
        if words and words[0].startswith("--"):
            rows[words[0]] = " ".join(words)
    assert "a warning is printed" in rows["--public"]
    db = rows["--db"]
    for needle in ("read-only", "/arena", "leaderboards", "replay"):
        assert needle in db, db


def test_serve_public_prints_the_warning_the_help_promises(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    import uvicorn

    monkeypatch.setattr(uvicorn, "run", lambda app, **options: None)
    result = CliRunner().invoke(_serve_app(), ["serve", "--host", "0.0.0.0", "--public"])
    assert result.exit_code == 0, result.output
    assert "warning: serving on 0.0.0.0" in result.output
