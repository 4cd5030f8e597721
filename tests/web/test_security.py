"""Every request is checked: bad ones get a clear 4xx, never a 500, and change nothing."""

from __future__ import annotations

import re
import secrets
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from pokerlab.web.holdem_table import HoldemTable
from pokerlab.web.small_table import SmallGameTable
from tests.web.conftest import open_table, passive_move
from tests.web.live import without_random_text

CARD = re.compile(r"[2-9TJQKA][cdhs]")


def _table(client: TestClient, token: str) -> object:
    return client.app.state.web.tables.get(token)  # type: ignore[attr-defined]


def _refused(answer: object, status: int, needle: str) -> None:
    assert answer.status_code == status, answer.text  # type: ignore[attr-defined]
    assert needle in answer.json()["error"]  # type: ignore[attr-defined]


@pytest.fixture
def holdem(client: TestClient) -> tuple[str, dict[str, object]]:
    """A 3-seat Hold'em table waiting for the person's first move."""
    token, view = open_table(client, game="holdem", seats=3, opponents="always-call", seed=11)
    assert view["your_turn"]
    return token, view


@pytest.mark.parametrize(
    ("move", "needle"),
    [
        ({"move": "shove-everything"}, "is not a move"),
        ({"move": ["call"]}, "is not a move"),
        ({"move": 1}, "is not a move"),
        ({}, "is not a move"),
        ({"move": "raise"}, "needs an integer amount"),
        ({"move": "raise", "amount": "50"}, "needs an integer amount"),
        ({"move": "raise", "amount": 50.0}, "needs an integer amount"),
        ({"move": "raise", "amount": True}, "needs an integer amount"),
        ({"move": "raise", "amount": 3}, "outside the legal range 4 to 200"),
        ({"move": "raise", "amount": 201}, "outside the legal range 4 to 200"),
        ({"move": "raise", "amount": 10**40}, "outside the legal range"),
        ({"move": "raise", "amount": -5}, "outside the legal range"),
        ({"move": "call", "version": 1}, "old view"),
    ],
)
def test_a_forged_or_out_of_range_move_is_refused_and_changes_nothing(
    client: TestClient, holdem: tuple[str, dict[str, object]], move: dict[str, object],
    needle: str,
) -> None:
    token, view = holdem
    answer = client.post(f"/api/tables/{token}/act", json=move)
    assert answer.status_code in (400, 409)
    assert needle in answer.json()["error"]
    assert client.get(f"/api/tables/{token}").json() == view


def test_fold_when_checking_is_free_is_refused(client: TestClient) -> None:
    token, view = open_table(client, game="holdem", seats=2, opponents="always-call", seed=3)
    # Call until a decision where checking is free.
    for _ in range(10):
        if view["legal"] and not view["legal"]["fold"]:
            break
        view = client.post(f"/api/tables/{token}/act", json={"move": "call"}).json()
    assert view["legal"]
    assert not view["legal"]["fold"]
    _refused(client.post(f"/api/tables/{token}/act", json={"move": "fold"}), 400,
             "fold is not legal here")
    assert client.get(f"/api/tables/{token}").json() == view


def test_an_out_of_turn_move_is_refused(client: TestClient) -> None:
    token, view = open_table(client, game="kuhn", opponent="always-call", seed=2)
    for _ in range(5):
        if not view["your_turn"]:
            break
        view = client.post(f"/api/tables/{token}/act", json=passive_move(view)).json()
    assert view["hand_over"]
    _refused(client.post(f"/api/tables/{token}/act", json={"move": "check"}), 409,
             "not your turn")
    assert client.get(f"/api/tables/{token}").json() == view


def test_dealing_during_a_hand_is_refused(
    client: TestClient, holdem: tuple[str, dict[str, object]]
) -> None:
    token, view = holdem
    _refused(client.post(f"/api/tables/{token}/deal"), 409, "a hand is in play")
    assert client.get(f"/api/tables/{token}").json() == view


def test_a_small_game_move_must_be_a_legal_name(client: TestClient) -> None:
    token, view = open_table(client, game="leduc", opponent="random", seed=4)
    assert view["your_turn"]
    _refused(client.post(f"/api/tables/{token}/act", json={"move": "fold"}), 400,
             "legal: check, bet")
    assert client.get(f"/api/tables/{token}").json() == view


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ({"game": "chess"}, "allowed: kuhn, leduc, holdem"),
        ({"game": 7}, "game must be"),
        ({"game": "leduc(" + "1" * 200 + ")"}, "at most 120"),
        ({"game": "leduc(stack=__import__('os'))"}, "not a literal"),
        ({"game": "kuhn(players=3)", "opponent": "random"}, "heads-up"),
        ({"game": "kuhn(cards=1000)", "opponent": "random"}, "serves variants up to"),
        ({"game": "leduc(stack=5000, raise_cap=None)", "opponent": "random"}, "stacks up to"),
        ({"game": "kuhn", "opponent": "nobody"}, "cannot sit at this table"),
        ({"game": "kuhn", "opponent": "easy"}, "cannot sit at this table"),
        ({"game": "kuhn", "opponent": None}, "cannot sit at this table"),
        ({"game": "holdem", "seats": 10}, "seats must be an integer from 2 to 9"),
        ({"game": "holdem", "seats": "3"}, "seats must be"),
        ({"game": "holdem", "seats": 3, "user_seat": 3}, "user_seat must be"),
        ({"game": "holdem", "opponents": ["rule-based"]}, "cannot sit at this table"),
        ({"game": "holdem", "seats": 3, "opponents": ["easy"] * 3}, "a list of 2"),
        ({"game": "holdem", "opponents": [{"x": 1}]}, "cannot sit at this table"),
        ({"game": "holdem", "stack": 0}, "stack must be"),
        ({"game": "holdem", "stack": 10**9}, "stack must be"),
        ({"game": "holdem", "blinds": [1]}, "blinds must be"),
        ({"game": "holdem", "blinds": [2, 1]}, "blind"),
        ({"game": "holdem", "blinds": [-1, 2]}, "blind"),
        ({"game": "holdem", "betting": "potlimit"}, "betting must be"),
        # A page never chooses a table's cards (issue 23): any seed is refused.
        ({"game": "holdem", "seed": -1}, "seed is not accepted"),
        ({"game": "holdem", "seed": 4}, "seed is not accepted"),
        ({"game": "kuhn", "opponent": "random", "seed": 0}, "seed is not accepted"),
        ({"game": "leduc", "opponent": "random", "seed": None}, "seed is not accepted"),
    ],
)
def test_a_bad_table_request_gets_a_clear_400(
    client: TestClient, body: dict[str, object], needle: str
) -> None:
    before = len(client.app.state.web.tables)  # type: ignore[attr-defined]
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == 400, answer.text
    assert needle in answer.json()["error"]
    assert len(client.app.state.web.tables) == before  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "content", [b"{not json", b"[1, 2]", b"[" * 5000 + b"]" * 5000, b"\xff\xfe", b'"text"'],
)
def test_a_body_that_is_not_a_json_object_is_refused(
    client: TestClient, holdem: tuple[str, dict[str, object]], content: bytes
) -> None:
    token, view = holdem
    answer = client.post(f"/api/tables/{token}/act", content=content)
    assert answer.status_code in (400, 413)
    assert "error" in answer.json()
    assert client.get(f"/api/tables/{token}").json() == view


@pytest.mark.parametrize("route", ["/api/tables", "/api/hand", "act", "deal", "options"])
def test_an_oversized_body_is_refused_on_every_route(
    client: TestClient, holdem: tuple[str, dict[str, object]], route: str
) -> None:
    token, view = holdem
    path = route if route.startswith("/") else f"/api/tables/{token}/{route}"
    big = b'{"move": "call", "pad": "' + b"x" * 10_000 + b'"}'
    _refused(client.post(path, content=big), 413, "over 4096 bytes")

    def chunks() -> object:  # no content-length: the limit holds on the stream too
        yield b'{"move": "call", "pad": "'
        for _ in range(10):
            yield b"x" * 1000
        yield b'"}'

    _refused(client.post(path, content=chunks()), 413, "over 4096 bytes")
    assert client.get(f"/api/tables/{token}").json() == view


# -- strategy files ------------------------------------------------------------------------


@pytest.fixture
def outside(strategies_dir: Path) -> Iterator[Path]:
    """A valid strategy file just outside the --strategies folder, and a link to it inside."""
    target = strategies_dir.parent / "outside.npz"
    target.write_bytes((strategies_dir / "leduc20.npz").read_bytes())
    link = strategies_dir / "link.npz"
    link.symlink_to(target)
    yield target
    link.unlink()


@pytest.mark.parametrize(
    ("strategy", "status", "needle"),
    [
        ("../outside.npz", 403, "outside the --strategies folder"),
        ("link.npz", 403, "outside the --strategies folder"),
        ("ABSOLUTE", 403, "outside the --strategies folder"),
        ("/etc/passwd", 403, "outside the --strategies folder"),
        ("missing.npz", 404, "does not exist"),
        ("", 400, "file name under --strategies"),
        (5, 400, "file name under --strategies"),
        ("a\x00b.npz", 400, "file name under --strategies"),
        ("kuhn50.npz", 400, "strategy 'kuhn50.npz'"),
    ],
)
def test_a_strategy_outside_the_folder_or_not_fitting_is_refused(
    client: TestClient, outside: Path, strategy: object, status: int, needle: str
) -> None:
    if strategy == "ABSOLUTE":
        strategy = str(outside)
    before = len(client.app.state.web.tables)  # type: ignore[attr-defined]
    answer = client.post("/api/tables", json={"game": "leduc", "strategy": strategy})
    _refused(answer, status, needle)
    assert len(client.app.state.web.tables) == before  # type: ignore[attr-defined]


def test_a_damaged_strategy_file_is_a_400(client: TestClient, strategies_dir: Path) -> None:
    (strategies_dir / "broken.npz").write_bytes(b"PK\x03\x04 this is not a zip file")
    try:
        answer = client.post("/api/tables", json={"game": "leduc", "strategy": "broken.npz"})
    finally:
        (strategies_dir / "broken.npz").unlink()
    assert answer.status_code == 400, answer.text


def test_without_strategies_no_file_is_opened() -> None:
    from pokerlab.web.app import create_app

    with TestClient(create_app()) as bare:
        _refused(bare.post("/api/tables", json={"game": "leduc", "strategy": "leduc20.npz"}),
                 403, "without --strategies")


# -- one session, one table ----------------------------------------------------------------


def test_another_token_cannot_see_or_act(
    client: TestClient, holdem: tuple[str, dict[str, object]]
) -> None:
    token, view = holdem
    other, _ = open_table(client, game="holdem", seats=2, opponents="easy", seed=1)
    assert other != token
    assert len(token) >= 32
    guess = secrets.token_urlsafe(24)
    for path in (f"/api/tables/{guess}",):
        _refused(client.get(path), 404, "no table has this token")
    for action in ("act", "deal", "options"):
        _refused(client.post(f"/api/tables/{guess}/{action}", json={"move": "call"}), 404,
                 "no table has this token")
    with pytest.raises(WebSocketDisconnect), \
            client.websocket_connect(f"/ws/tables/{guess}") as socket:
        socket.receive_json()
    assert client.get("/api/tables").status_code == 405  # no listing of tables
    assert client.get(f"/api/tables/{token}").json() == view


def _collect(client: TestClient, token: str, into: list[str]) -> threading.Thread:
    def run() -> None:
        try:
            with client.websocket_connect(f"/ws/tables/{token}") as socket:
                while True:
                    into.append(socket.receive_text())
        except WebSocketDisconnect:
            pass

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_traffic_never_carries_a_bot_s_hidden_cards(client: TestClient, seed: int) -> None:
    client.app.state.web.deal_seed = seed  # type: ignore[attr-defined]  # the server's option
    answer = client.post("/api/tables", json={"game": "holdem", "seats": 4,
                                               "opponents": "easy"})
    token = answer.json()["token"]
    view = answer.json()["view"]
    messages: list[str] = [answer.text]
    pushed: list[str] = []
    collector = _collect(client, token, pushed)
    for _ in range(40):
        if not view["your_turn"]:
            break
        reply = client.post(f"/api/tables/{token}/act", json={"move": "call"})
        messages.append(reply.text)
        messages.append(client.get(f"/api/tables/{token}").text)
        view = reply.json()
    assert view["hand_over"]
    table = _table(client, token)
    assert isinstance(table, HoldemTable)
    state = table._state
    assert state is not None
    assert table._setup is not None
    table.close()
    collector.join(timeout=10)
    assert pushed  # the WebSocket's messages are inspected too
    messages += pushed
    player_of_you = table._setup.player_of(0)
    bot_cards = {
        card
        for player in range(state.game.n_players) if player != player_of_you
        for card in CARD.findall(state.private_cards(player))
    }
    assert len(bot_cards) == 6
    shown = {c for line in view["history"] if " shows " in line
             for c in CARD.findall(line.split(" shows ")[1].split(" (")[0])}
    for text in messages:
        text = without_random_text(text, token)
        if '"hand_over":false' in text.replace(" ", ""):
            assert not (set(CARD.findall(text)) & bot_cards), text
        else:  # at the end only the cards shown down appear
            assert set(CARD.findall(text)) & bot_cards <= shown


def test_a_leduc_bot_s_card_stays_hidden_until_the_showdown(client: TestClient) -> None:
    token, view = open_table(client, game="leduc", strategy="leduc20.npz", seed=5)
    view = client.post(f"/api/tables/{token}/options", json={"show_strategy": True}).json()
    table = _table(client, token)
    assert isinstance(table, SmallGameTable)
    for _ in range(10):
        if not view["your_turn"]:
            break
        assert view["bot_cards"] == ["??"]
        assert view["strategy"]["bot_decisions"] == []
        text = client.get(f"/api/tables/{token}").text
        for decision in table._bot_decisions:
            assert f"\"infoset\":\"{decision.infoset_key}\"" not in text
        view = client.post(f"/api/tables/{token}/act", json=passive_move(view)).json()
    assert view["hand_over"]


def test_a_page_of_another_site_cannot_drive_a_table(
    client: TestClient, holdem: tuple[str, dict[str, object]]
) -> None:
    token, view = holdem
    evil = {"origin": "http://evil.example"}
    _refused(client.post(f"/api/tables/{token}/act", json={"move": "call"}, headers=evil),
             403, "another site")
    before = len(client.app.state.web.tables)  # type: ignore[attr-defined]
    _refused(client.post("/api/tables", json={"game": "kuhn", "opponent": "random"},
                         headers=evil), 403, "another site")
    assert len(client.app.state.web.tables) == before  # type: ignore[attr-defined]
    with pytest.raises(WebSocketDisconnect), \
            client.websocket_connect(f"/ws/tables/{token}", headers=evil) as socket:
        socket.receive_json()
    same = {"origin": "http://testserver"}
    assert client.get(f"/api/tables/{token}", headers=same).json() == view
    assert client.post(f"/api/tables/{token}/act", json={"move": "call"},
                       headers=same).status_code == 200


def test_the_number_of_open_tables_is_bounded(strategies_dir: Path) -> None:
    from pokerlab.web.app import create_app

    with TestClient(create_app(max_tables=2)) as small:
        for seed in range(2):
            open_table(small, game="kuhn", opponent="random", seed=seed)
        _refused(small.post("/api/tables", json={"game": "kuhn", "opponent": "random"}), 503,
                 "2 open tables")


# -- other sites' pages: every state-changing request, whatever its content type ----------

EVIL_HEADERS = [
    {"origin": "http://evil.example"},
    {"origin": "null"},  # a sandboxed frame or a local file
    {"origin": "http://testserver.evil.example"},
    {"origin": "http://testserver:8081"},  # another port of this host: another origin
    {"sec-fetch-site": "cross-site"},  # a browser that leaves Origin out
    {"origin": "http://testserver", "sec-fetch-site": "same-site"},
]
SIMPLE_BODIES = [
    ("text/plain", b'{"game": "kuhn", "algorithm": "cfr+", "iterations": 100}'),
    ("application/x-www-form-urlencoded", b"game=kuhn"),
    ("multipart/form-data; boundary=x", b"--x\r\n\r\nkuhn\r\n--x--\r\n"),
]


def _state_changing_routes(client: TestClient) -> list[tuple[str, str]]:
    """Every route of the app with a method that may change something, paths filled in."""
    found = []
    for route in client.app.routes:  # type: ignore[attr-defined]
        for method in sorted(getattr(route, "methods", None) or ()):
            if method not in ("GET", "HEAD", "OPTIONS"):
                path = route.path.replace("{token}", "t" * 32).replace("{job}", "j" * 32)
                found.append((method, path))
    return found


def test_every_state_changing_route_is_listed(client: TestClient) -> None:
    routes = _state_changing_routes(client)
    for expected in [("POST", "/api/explorer/solve"), ("POST", "/api/spot/solve"),
                     ("POST", "/api/hand"), ("POST", "/api/tables"),
                     ("DELETE", "/api/explorer/jobs/" + "j" * 32)]:
        assert expected in routes


@pytest.mark.parametrize("headers", EVIL_HEADERS, ids=lambda h: ",".join(h.values()))
@pytest.mark.parametrize(("content_type", "content"), SIMPLE_BODIES,
                         ids=[c for c, _ in SIMPLE_BODIES])
def test_a_page_of_another_site_changes_nothing_whatever_the_content_type(
    client: TestClient, headers: dict[str, str], content_type: str, content: bytes
) -> None:
    state = client.app.state  # type: ignore[attr-defined]
    tables = len(state.web.tables)
    for method, path in _state_changing_routes(client):
        answer = client.request(method, path, content=content,
                                headers={**headers, "content-type": content_type})
        assert answer.status_code == 403, (method, path, answer.text)
        assert "another site" in answer.json()["error"]
    assert state.busy.running == 0  # no solve was started
    assert len(state.web.tables) == tables


def test_the_same_site_s_page_still_solves(client: TestClient) -> None:
    same = {"origin": "http://testserver", "sec-fetch-site": "same-origin"}
    answer = client.post("/api/explorer/solve", headers=same,
                         json={"game": "kuhn", "algorithm": "cfr+", "iterations": 50})
    assert answer.status_code == 202, answer.text
    curl = client.post("/api/explorer/solve",
                       json={"game": "kuhn", "algorithm": "cfr+", "iterations": 50})
    assert curl.status_code == 202  # no Origin: a program, not another site's page


def test_a_websocket_from_a_page_without_an_origin_it_may_have_is_closed(
    client: TestClient, holdem: tuple[str, dict[str, object]]
) -> None:
    token, _ = holdem
    for headers in EVIL_HEADERS:
        with pytest.raises(WebSocketDisconnect), \
                client.websocket_connect(f"/ws/tables/{token}", headers=headers) as socket:
            socket.receive_json()


# -- DNS rebinding: the Host allow-list holds on every loopback ---------------------------


@pytest.mark.parametrize(
    ("host", "good", "bad"),
    [
        ("::1", ["[::1]:8000", "[::1]", "localhost:8000"],
         ["evil.example:8000", "evil.example", "127.0.0.1.evil.example", "[::2]:8000"]),
        ("127.0.0.1", ["127.0.0.1:8000", "localhost"], ["evil.example:8000", "[::1]:8000"]),
        ("localhost", ["localhost:8000", "[::1]:8000", "127.0.0.1:8000"], ["evil.example"]),
    ],
)
def test_a_rebound_name_cannot_reach_a_loopback_server(
    host: str, good: list[str], bad: list[str]
) -> None:
    from pokerlab.cli.serve import allowed_hosts
    from pokerlab.web.app import create_app

    names = allowed_hosts(host)
    assert names is not None
    with TestClient(create_app(allowed_hosts=names)) as loopback:
        for name in good:
            assert loopback.get("/api/agents", headers={"host": name}).status_code == 200, name
        for name in bad:
            answer = loopback.post("/api/tables", headers={"host": name},
                                   json={"game": "kuhn", "opponent": "random"})
            assert answer.status_code == 400, name
            assert len(loopback.app.state.web.tables) == 0  # type: ignore[attr-defined]


# -- busy work: nothing trains inside a request, every solve passes the busy check ---------


@pytest.fixture
def empty_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty bot cache: no blueprint, no solved strategy, no card tables."""
    monkeypatch.setenv("POKERLAB_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_the_hard_ai_is_never_trained_inside_a_request(
    client: TestClient, empty_cache: Path
) -> None:
    for bot in ("hard", "hard-search", "hard-offmenu"):  # all three play its blueprint
        answer = client.post("/api/hand", json={"game": "holdem", "a": bot, "b": "random"})
        assert answer.status_code == 409, answer.text
        assert "pokerlab bots prepare hard --game" in answer.json()["error"]
    for opponents in ("hard", ["easy", "hard"]):
        body = {"game": "holdem", "seats": 3 if isinstance(opponents, list) else 2,
                "opponents": opponents}
        assert client.post("/api/tables", json=body).status_code in (400, 409)
    assert not empty_cache.exists() or not list(empty_cache.rglob("*.bp"))
    assert client.app.state.busy.running == 0  # type: ignore[attr-defined]


def test_a_damaged_hard_ai_blueprint_is_refused_with_the_command_not_read(
    client: TestClient, empty_cache: Path
) -> None:
    from pokerlab.agents.hard import default_blueprint_path
    from pokerlab.games.holdem_session import HoldemSession

    game = HoldemSession(2, blinds=(1, 2), stack=200).start_hand().game
    path = default_blueprint_path(game)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"pokerlab-blueprint 1\n{\"cards\": [[[[[[\n")
    answer = client.post("/api/tables", json={"game": "holdem", "seats": 2,
                                              "opponents": "hard"})
    assert answer.status_code == 409, answer.text
    error = answer.json()["error"]
    assert "does not read" in error
    assert "pokerlab bots prepare hard --game" in error
    assert "\n" not in error
    assert "Traceback" not in error
    # A readable blueprint of another game there (HardAI would train over it): refused too.
    from pokerlab.blueprint.mccfr import BlueprintTrainer
    from pokerlab.blueprint.store import save_blueprint
    from pokerlab.games import load

    other = load('holdem(betting="limit", ranks=3, suits=2, hole=1, board="1", '
                 'seat_blinds=(1, 1), raises="2,4", caps="2,2", first="0,0", stack=100)')
    save_blueprint(BlueprintTrainer(other, seed=0), path, cards={"kind": "lossless"})
    answer = client.post("/api/tables", json={"game": "holdem", "seats": 2,
                                              "opponents": "hard"})
    assert answer.status_code == 409, answer.text
    assert "is a blueprint for holdem(" in answer.json()["error"]
    assert client.app.state.busy.running == 0  # type: ignore[attr-defined]


def test_a_bot_that_solves_on_first_use_passes_the_busy_check(
    client: TestClient, empty_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    busy = client.app.state.busy  # type: ignore[attr-defined]
    monkeypatch.setattr(busy, "limit", 0)
    for path, body in [
        ("/api/hand", {"game": "kuhn", "a": "cfr+100", "b": "random"}),
        ("/api/hand", {"game": "kuhn", "a": "random", "b": "solver"}),
        ("/api/tables", {"game": "kuhn", "opponent": "cfr+100"}),
        ("/api/explorer/solve", {"game": "kuhn"}),
        ("/api/spot/solve", {"board": "AsKd7h2c3d", "oop": "AA", "ip": "KK"}),
    ]:
        _refused(client.post(path, json=body), 429, "the server is busy")
    assert not list(empty_cache.rglob("*.npz"))  # nothing was solved
    monkeypatch.setattr(busy, "limit", 1)
    assert client.post("/api/hand", json={"game": "kuhn", "a": "cfr+100",
                                          "b": "random"}).status_code == 200
    assert list(empty_cache.rglob("*cfrplus-100.npz"))
    assert busy.running == 0  # the slot was given back
    monkeypatch.setattr(busy, "limit", 0)  # solved once: cached, no solve, no slot needed
    assert client.post("/api/hand", json={"game": "kuhn", "a": "cfr+100",
                                          "b": "random"}).status_code == 200


def test_a_busy_slot_is_given_back_when_the_request_fails(
    client: TestClient, empty_cache: Path
) -> None:
    busy = client.app.state.busy  # type: ignore[attr-defined]
    answer = client.post("/api/tables", json={"game": "kuhn", "opponent": "cfr+100",
                                              "strategy": "missing.npz"})
    assert answer.status_code == 404
    answer = client.post("/api/spot/solve", json={"board": "AsKd7h2c", "oop": "AA", "ip": "KK"})
    assert answer.status_code == 400
    assert busy.running == 0
