"""The Starlette app behind ``pokerlab serve``: tables against the bots, over JSON and WebSocket.

Routes (every body is a small JSON object, read up to :data:`MAX_BODY` bytes):

- ``GET /``: the page (plain HTML and JS, no build step; it lays out what the API says);
- ``GET /api/agents``: the built-in agents (from the registry, so new bots appear on their
  own), which of them play each game, and the strategy files under ``--strategies``;
- ``POST /api/hand``: one hand between two built-in agents (bot against bot);
- ``POST /api/tables``: a new table (Hold'em 2 to 9 seats, or Kuhn / Leduc heads-up) with
  the person in one seat; answers ``{token, view}``;
- ``GET /api/tables/{token}``: the table as its person may see it;
- ``POST /api/tables/{token}/act``: the person's move; answers the view once the bots
  have played up to the person's next decision (or the end of the hand);
- ``POST /api/tables/{token}/deal``: the next hand;
- ``POST /api/tables/{token}/options``: ``{show_strategy: bool}``;
- ``POST /api/tables/{token}/close``: end the session (the hand in play stops); the view
  then reveals the deal seed, which every view committed to from the start
  (``deal_commitment``, SHA-256: :func:`pokerlab.play.deals.seed_commitment`), so the
  person can check that the deals were fixed in advance and replay them;
- ``WS /ws/tables/{token}``: the view, sent again after every change (live updates).

A token is the table's only key: 32 random URL-safe characters, never listed anywhere.
Requests that a browser marks as coming from another site's page (``Origin``) are refused.
Bad requests get a 4xx with a message naming what was wrong and what is allowed; a refused
request changes nothing. Other pages (the explorer, the arena, the spot view) join through
``create_app(extra_routes=...)``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from importlib.resources import files
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from pokerlab.agents.registry import (
    SOLVER_PREFIX,
    agent_names,
    check_builtin,
    expand_name,
    plays_blueprint,
)
from pokerlab.agents.resolve import build_agent
from pokerlab.errors import FileFormatError, PokerlabError
from pokerlab.games.base import Game
from pokerlab.games.holdem_session import HoldemSession
from pokerlab.games.registry import load
from pokerlab.play.dealer import DealStream, connect, deal_hand
from pokerlab.play.deals import derive_seed, fresh_seed
from pokerlab.web import arena_view, explorer, hands_download, spot_view
from pokerlab.web._security import (
    MAX_BUSY,
    BusyError,
    BusyGate,
    OriginGuard,
    in_daemon_thread,
)
from pokerlab.web.holdem_table import HoldemTable
from pokerlab.web.small_table import SmallGameTable
from pokerlab.web.tables import Table, TableRegistry, WebRequestError

MAX_SEED = 2**31 - 1
"""The largest seed ``/api/hand`` accepts (a demonstration hand, every card shown)."""
MAX_BODY = 4096
"""The largest request body the API reads, in bytes (its requests are a few small fields)."""
GAMES = ("kuhn", "leduc", "holdem")
SMALL_GAMES = ("kuhn", "leduc")
MAX_SPEC = 120
"""The longest game spec string a table accepts (``leduc(stack=50, raise_cap=None)``)."""
MAX_TABLE_HISTORIES = 1_000_000
"""The largest Kuhn or Leduc variant a table serves (``kuhn(cards=300)`` has 807,601)."""
MAX_UNCAPPED_STACK = 100
"""The deepest stack of an uncapped Leduc table (``leduc(stack=100, raise_cap=None)``)."""
MAX_STACK = 100_000
"""The largest Hold'em starting stack a table accepts, in chips."""
MAX_LISTED = 200
"""The most strategy files ``/api/agents`` lists."""
ACT_WAIT = 30.0
"""Seconds an action request waits for the bots before answering the view as it is."""
BOT_TIME_LIMIT = 5.0
"""Seconds a bot may think per decision before the dealer plays its default action."""

AgentFactory = Callable[[Game, int], object]
"""``(game, seed) -> agent``: extra agents a test or an embedding program adds by name."""


def _error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _json_body(request: Request) -> dict[str, object]:
    """The request's JSON object, at most :data:`MAX_BODY` bytes.

    (A request from another site's page never gets here: :class:`OriginGuard` refuses it.)

    Raises:
        WebRequestError: 413 for a larger body, 400 for a body that is not a JSON object.
    """
    declared = request.headers.get("content-length") or "0"
    if not declared.isdigit() or int(declared) > MAX_BODY:
        raise WebRequestError(413, f"the body is over {MAX_BODY} bytes")
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise WebRequestError(413, f"the body is over {MAX_BODY} bytes")
    try:
        body = json.loads(bytes(raw) or b"{}")
    except (ValueError, RecursionError):  # RecursionError: JSON nested too deep
        raise WebRequestError(400, "the body must be JSON (an object of named fields)") from None
    if not isinstance(body, dict):
        raise WebRequestError(400, "the body must be a JSON object of named fields")
    return body


def _seed(body: Mapping[str, object], default: int) -> int:
    """The seed of ``/api/hand``'s demonstration hand (between two bots, every card shown)."""
    seed = body.get("seed", default)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise WebRequestError(400, f"seed must be an integer from 0 to {MAX_SEED}, got {seed!r}")
    return seed


def _no_client_seed(body: Mapping[str, object]) -> None:
    """Refuse a table whose client names its seed: a table's cards are the server's secret.

    Raises:
        WebRequestError: 400 when the body has a ``seed``.
    """
    if "seed" in body:
        raise WebRequestError(400, "seed is not accepted: a table's cards come from a secret "
                              "seed of the server, so that no page can know them in advance")


def _int_field(body: Mapping[str, object], name: str, default: int, low: int, high: int) -> int:
    value = body.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise WebRequestError(400, f"{name} must be an integer from {low} to {high}, "
                              f"got {value!r}")
    return value


class BotHold(contextlib.ExitStack):
    """What building bots holds until it is done: at most one busy slot (``has_slot``)."""

    has_slot = False


class WebApp:
    """The app's shared parts: the tables, the strategies folder, the extra agents.

    ``deal_seed``: the seed of every table opened from now on, for tests only (None, the
    default: each table draws a fresh secret one). No request can set it.
    """

    def __init__(
        self,
        *,
        strategies: Path | None,
        extra_agents: Mapping[str, AgentFactory],
        bot_time_limit: float,
        max_tables: int,
        busy: BusyGate,
        deal_seed: int | None = None,
    ) -> None:
        self.strategies = strategies.resolve() if strategies is not None else None
        self.extra_agents = dict(extra_agents)
        self.bot_time_limit = bot_time_limit
        self.tables = TableRegistry(max_tables=max_tables)
        self.busy = busy
        self.deal_seed = deal_seed
        self._playable: dict[str, list[str]] = {}

    def table_seed(self, body: Mapping[str, object]) -> int:
        """A new table's seed: the server's secret (or the test's ``deal_seed``), never the page's.

        Raises:
            WebRequestError: 400 when the request names a seed.
        """
        _no_client_seed(body)
        return fresh_seed() if self.deal_seed is None else self.deal_seed

    # -- agents ------------------------------------------------------------------------------

    def names(self) -> list[str]:
        """Every agent a table may seat: the registry's singles, then the extra ones."""
        singles = [n for n in agent_names() if expand_name(n) == [n]]
        return singles + [n for n in self.extra_agents if n not in singles]

    def playable(self, game: Game) -> list[str]:
        """The agents that can play ``game`` (checked once per spec)."""
        key = str(game.spec)
        if key not in self._playable:
            names = []
            for name in self.names():
                if name in self.extra_agents:
                    names.append(name)
                    continue
                try:
                    check_builtin(name, game)
                except PokerlabError:
                    continue
                names.append(name)
            if len(self._playable) >= 256:  # many variants asked for: start over, stay small
                self._playable.clear()
            self._playable[key] = names
        return self._playable[key]

    def make_bot(
        self, name: object, game: Game, seed: int, hold: BotHold | None = None
    ) -> object:
        """A fresh bot ``name`` for ``game``.

        A bot that would train is refused until it is prepared (:func:`check_prepared`);
        one that solves on first use takes a slot of the busy check, kept in ``hold``
        (without ``hold``, it is refused as busy work).

        Raises:
            WebRequestError: 400 for a name that is not an agent or cannot play ``game``;
                409 for a bot not prepared (naming the command that prepares it).
            BusyError: the bot would solve and the server is busy (429).
        """
        allowed = self.playable(game)
        if not isinstance(name, str) or name not in allowed:
            raise WebRequestError(400, f"agent {name!r} cannot sit at this table; allowed for "
                                  f"{game.spec}: {', '.join(allowed)}")
        if name in self.extra_agents:
            return self.extra_agents[name](game, seed)
        self.hold_for(name, game, hold)
        try:
            return build_agent(name, game, seed=seed)
        except PokerlabError as exc:
            raise WebRequestError(400, str(exc)) from None

    def hold_for(self, name: str, game: Game, hold: BotHold | None) -> None:
        """Refuse ``name`` if it would train; take a busy slot into ``hold`` if it would solve.

        Raises:
            WebRequestError: 409 for a bot not prepared (the command that prepares it).
            BusyError: the bot would solve and every slot is taken (429).
        """
        check_prepared(name, game)
        if would_solve(name, game) and (hold is None or not hold.has_slot):
            if hold is None:
                raise BusyError(f"{name} solves {game.spec} on first use; open a table with "
                                "it first")
            hold.enter_context(self.busy.slot(f"{name} on {game.spec}"))
            hold.has_slot = True

    # -- strategy files ----------------------------------------------------------------------

    def strategy_files(self) -> list[str]:
        """The ``.npz`` files under ``--strategies``, relative to it (hidden folders skipped).

        At most :data:`MAX_LISTED` are listed; any file inside the folder may still be opened.
        """
        if self.strategies is None or not self.strategies.is_dir():
            return []
        found: list[str] = []
        for path in self.strategies.rglob("*.npz"):
            relative = path.relative_to(self.strategies)
            if any(part.startswith(".") for part in relative.parts) or not path.is_file():
                continue
            found.append(str(relative))
            if len(found) >= MAX_LISTED:
                break
        return sorted(found)

    def strategy_path(self, name: object) -> Path:
        """The strategy file ``name``, which must lie inside ``--strategies``.

        Raises:
            WebRequestError: 403 for a path outside the folder (or no folder), 404 for a
                missing file, 400 for a name that is not a ``.npz`` path.
        """
        if self.strategies is None:
            raise WebRequestError(403, "the server was started without --strategies DIR, so "
                                  "no strategy file can be opened")
        if not isinstance(name, str) or not name or len(name) > 255 or "\x00" in name:
            raise WebRequestError(400, f"strategy must be a file name under --strategies; "
                                  f"got {name!r}")
        path = (self.strategies / name).resolve()
        if not path.is_relative_to(self.strategies):
            raise WebRequestError(403, f"strategy {name!r} is outside the --strategies folder; "
                                  "allowed: " + (", ".join(self.strategy_files()) or "none"))
        if path.suffix != ".npz":
            raise WebRequestError(400, f"strategy {name!r} is not a .npz strategy file")
        if not path.is_file():
            raise WebRequestError(404, f"strategy {name!r} does not exist; allowed: "
                                  + (", ".join(self.strategy_files()) or "none"))
        return path

    # -- tables ------------------------------------------------------------------------------

    def open_table(self, body: Mapping[str, object]) -> Table:
        """Build the table a ``POST /api/tables`` body asks for (runs in a worker thread).

        A bot that solves on first use holds a busy slot while the table is built.

        Raises:
            WebRequestError: 400 naming the bad field and what is allowed; 409 for a bot
                not prepared.
            BusyError: a bot would solve and the server is busy (429).
        """
        with BotHold() as hold:
            return self._open_table(body, hold)

    def _open_table(self, body: Mapping[str, object], hold: BotHold) -> Table:
        game_text = body.get("game")
        if not isinstance(game_text, str) or len(game_text) > MAX_SPEC:
            raise WebRequestError(400, f"game must be a game name or spec (at most {MAX_SPEC} "
                                  f"characters); allowed: {', '.join(GAMES)}")
        name = game_text.split("(")[0].strip()
        if name == "holdem":
            return self._holdem_table(body, hold)
        if name not in SMALL_GAMES:
            raise WebRequestError(400, f"game {game_text!r} is not served at a table; allowed: "
                                  f"{', '.join(GAMES)} (Kuhn and Leduc with any parameters)")
        try:
            game = load(game_text)
        except PokerlabError as exc:
            raise WebRequestError(400, f"game {game_text!r}: {exc}") from None
        if game.n_players != 2:
            raise WebRequestError(400, f"the {name} table is heads-up: players must be 2")
        _check_table_size(game)
        seed = self.table_seed(body)
        bot_seed = derive_seed(seed, "bot", 1, bits=64)  # keyed: tells nothing of the cards
        strategy, opponent = body.get("strategy"), body.get("opponent")
        if strategy is not None:
            path = self.strategy_path(strategy)
            try:
                bot: object = build_agent(str(path), game, seed=bot_seed)
            except PokerlabError as exc:
                raise WebRequestError(400, f"strategy {strategy!r}: {exc}") from None
            label = Path(str(strategy)).stem
        else:
            bot = self.make_bot(opponent, game, bot_seed, hold)
            label = str(opponent)
        return self.tables.open(lambda token: SmallGameTable(
            token=token, game=game, bot=bot, bot_name=label, seed=seed,
            bot_time_limit=self.bot_time_limit))

    def _holdem_table(self, body: Mapping[str, object], hold: BotHold) -> Table:
        seats = _int_field(body, "seats", 2, 2, 9)
        user_seat = _int_field(body, "user_seat", 0, 0, seats - 1)
        stack = _int_field(body, "stack", 200, 1, MAX_STACK)
        blinds = body.get("blinds", [1, 2])
        if (not isinstance(blinds, list) or len(blinds) != 2
                or not all(isinstance(b, int) and not isinstance(b, bool) for b in blinds)):
            raise WebRequestError(400, f"blinds must be [small, big] integers; got {blinds!r}")
        betting = body.get("betting", "nolimit")
        if betting not in ("nolimit", "limit"):
            raise WebRequestError(400, f"betting must be nolimit or limit; got {betting!r}")
        seed = self.table_seed(body)
        try:
            session = HoldemSession(seats, betting=str(betting), blinds=(blinds[0], blinds[1]),
                                    stack=stack)
            game = session.start_hand().game
        except PokerlabError as exc:
            raise WebRequestError(400, str(exc)) from None
        opponents = body.get("opponents", ["easy"])
        if isinstance(opponents, str):
            opponents = [opponents] * (seats - 1)
        if not isinstance(opponents, list) or len(opponents) not in (1, seats - 1):
            raise WebRequestError(400, f"opponents must be one agent name or a list of "
                                  f"{seats - 1} (one per other seat); got {opponents!r}")
        if len(opponents) == 1:
            opponents = opponents * (seats - 1)
        bots: list[object | None] = []
        names: list[str] = []
        others = iter(opponents)
        for seat in range(seats):
            if seat == user_seat:
                bots.append(None)
                names.append("You")
                continue
            name = next(others)
            bots.append(self.make_bot(name, game, derive_seed(seed, "bot", seat, bits=64), hold))
            names.append(f"{name} (seat {seat})")
        return self.tables.open(lambda token: HoldemTable(
            token=token, user_seat=user_seat, bots=bots, bot_names=names, session=session,
            seed=seed, bot_time_limit=self.bot_time_limit))


def check_prepared(name: str, game: Game) -> None:
    """Refuse a bot that would train inside the request: the Hard AI before its blueprint.

    Training takes many minutes; a request must never do it (nor start several). The Hard
    AI needs its default blueprint for ``game`` and the card tables that blueprint was
    trained with; either missing (or a blueprint that does not read) is refused with the
    command that prepares it, once.

    Raises:
        WebRequestError: 409 naming the command to run.
    """
    if not plays_blueprint(name):
        return  # hard-search (any budget) and hard-offmenu play the same blueprint
    from pokerlab.agents.hard import default_blueprint_path, missing_tables, prepare_command
    from pokerlab.blueprint.store import read_header

    try:
        path = default_blueprint_path(game)
        command = prepare_command(game)
    except PokerlabError as exc:  # no default recipe for this game
        raise WebRequestError(400, str(exc)) from None
    if not path.exists():
        raise WebRequestError(
            409, f"the Hard AI has no blueprint for {game.spec} yet (training it takes many "
            f"minutes, once): run {command} and start the table again")
    try:
        header = read_header(path)
        if header["spec"] != str(game.spec):  # HardAI would train it again
            raise FileFormatError(f"{path} is a blueprint for {header['spec']}")
    except FileFormatError as exc:
        raise WebRequestError(
            409, f"the Hard AI's blueprint for {game.spec} does not read ({exc}): run "
            f"{command} to train it again and start the table again") from None
    if missing_tables(header["cards"]) is not None:  # the tables this blueprint reads
        raise WebRequestError(
            409, f"the Hard AI's card tables for {game.spec} are not built (it takes many "
            f"minutes, once): run {command} and start the table again")


def would_solve(name: str, game: Game) -> bool:
    """Whether building ``name`` for ``game`` solves it (a solver bot not yet cached)."""
    from pokerlab.agents.solver_bots import cache_path

    try:
        names = expand_name(name)
    except PokerlabError:
        return False
    for one in names:
        digits = one[len(SOLVER_PREFIX):]
        solver = one.startswith(SOLVER_PREFIX) and digits.isdigit() and int(digits) > 0
        if solver and not cache_path(game, int(digits)).exists():
            return True
    return False


def _check_table_size(game: Game) -> None:
    """Refuse a variant too big to serve (its bots and strategy files compile the game).

    Raises:
        WebRequestError: 400 above :data:`MAX_TABLE_HISTORIES` histories, or for an
            uncapped Leduc deeper than :data:`MAX_UNCAPPED_STACK` chips (too slow even to
            count).
    """
    params = dict(game.spec.params)
    stack = params.get("stack")
    if (game.spec.name == "leduc" and params.get("raise_cap", 0) is None
            and isinstance(stack, int) and stack > MAX_UNCAPPED_STACK):
        raise WebRequestError(400, f"{game.spec}: an uncapped Leduc table allows stacks up to "
                              f"{MAX_UNCAPPED_STACK}; play deeper ones with `pokerlab play`")
    count = getattr(game, "count_histories", None)  # Kuhn and Leduc count without a walk
    histories = int(count()) if callable(count) else 0
    if histories > MAX_TABLE_HISTORIES:
        raise WebRequestError(400, f"{game.spec} has {histories:,} histories; the web table "
                              f"serves variants up to {MAX_TABLE_HISTORIES:,}; play bigger "
                              "ones with `pokerlab play`")


def _web(request: Request | WebSocket) -> WebApp:
    web = request.app.state.web
    assert isinstance(web, WebApp)
    return web


async def index(request: Request) -> HTMLResponse:
    """The table page (plain HTML and JS shipped as package data)."""
    page = files("pokerlab.web").joinpath("static/index.html").read_text(encoding="utf-8")
    return HTMLResponse(page)


async def agents(request: Request) -> JSONResponse:
    """The agents, which of them play each game, and the strategy files offered."""
    web = _web(request)
    playable = {name: web.playable(load(name)) for name in SMALL_GAMES}
    playable["holdem"] = web.playable(load("holdem"))
    return JSONResponse({
        "agents": list(agent_names()),
        "games": list(GAMES),
        "playable": playable,
        "strategies": web.strategy_files(),
    })


async def hand(request: Request) -> JSONResponse:
    """Deal one hand of ``game`` between agents ``a`` (seat 0) and ``b`` (seat 1)."""
    body = await _json_body(request)
    game_name, a, b = body.get("game"), body.get("a"), body.get("b")
    if game_name not in GAMES:
        return _error(f"game {game_name!r} is not served; allowed: {', '.join(GAMES)}")
    names = agent_names()
    for seat, name in (("a", a), ("b", b)):
        if name not in names:
            return _error(f"agent {seat}={name!r} is unknown; allowed: {', '.join(names)}")
    seed = _seed(body, default=0)
    # In a worker thread: a slow agent must not hold up the other clients' requests; a
    # daemon one: a server told to stop does not wait for a bot that solves.
    web = _web(request)
    result = await in_daemon_thread(lambda: _deal(web, str(game_name), str(a), str(b), seed))
    return JSONResponse(result)


def _deal(web: WebApp, game_name: str, a: str, b: str, seed: int) -> dict[str, object]:
    """One hand of ``game_name``, ``a`` in seat 0 and ``b`` in seat 1, as the API answers it.

    Raises:
        WebRequestError: 409 for a bot not prepared (:func:`check_prepared`).
        BusyError: a bot would solve and the server is busy (429).
    """
    game = load(game_name)
    with BotHold() as hold:  # a bot that solves on first use holds a busy slot meanwhile
        for name in (a, b):
            web.hold_for(name, game, hold)
        seats = [connect(build_agent(name, game, seed=seed + i)) for i, name in enumerate((a, b))]
    record, state = deal_hand(game, seats, chance=DealStream(seed, 0))
    return {
        "game": game_name,
        "returns": list(record.returns),
        "history": [str(action) for action in record.history],
        "final": str(state),
    }


async def open_table(request: Request) -> JSONResponse:
    """Open a table and deal its first hand; answer its token and view."""
    body = await _json_body(request)
    web = _web(request)
    table = await in_daemon_thread(lambda: web.open_table(body))
    version = table.deal()
    await table.settle(version, ACT_WAIT)
    return JSONResponse({"token": table.token, "view": table.view()})


async def table_view(request: Request) -> JSONResponse:
    """The table of the token, as its person may see it."""
    table = _web(request).tables.get(str(request.path_params["token"]))
    return JSONResponse(table.view())


async def table_act(request: Request) -> JSONResponse:
    """The person's move; answer the view at the person's next decision or the hand's end.

    The ``Server-Timing`` header says how long the server took, from the move's check to
    the answer (the bots' play included), in milliseconds: the load benchmark reads it.
    """
    table = _web(request).tables.get(str(request.path_params["token"]))
    body = await _json_body(request)
    start = time.perf_counter()
    version = table.submit(body)
    await table.settle(version, ACT_WAIT)
    view = table.view()
    elapsed = 1000 * (time.perf_counter() - start)
    return JSONResponse(view, headers={"Server-Timing": f"act;dur={elapsed:.2f}"})


async def table_deal(request: Request) -> JSONResponse:
    """Deal the table's next hand."""
    table = _web(request).tables.get(str(request.path_params["token"]))
    await _json_body(request)
    version = table.deal()
    await table.settle(version, ACT_WAIT)
    return JSONResponse(table.view())


async def table_close(request: Request) -> JSONResponse:
    """End the table's session; answer the view, which reveals the deal seed."""
    table = _web(request).tables.get(str(request.path_params["token"]))
    await _json_body(request)
    table.close()
    deadline = time.monotonic() + ACT_WAIT  # the hand cut off ends first: then the seed shows
    while table.hand_running and time.monotonic() < deadline:
        await table.changed(table.version, deadline - time.monotonic())
    return JSONResponse(table.view())


async def table_options(request: Request) -> JSONResponse:
    """Set the table's display options: ``{show_strategy: bool}``."""
    table = _web(request).tables.get(str(request.path_params["token"]))
    body = await _json_body(request)
    show = body.get("show_strategy")
    if not isinstance(show, bool):
        raise WebRequestError(400, f"show_strategy must be true or false; got {show!r}")
    table.set_show_strategy(show)
    return JSONResponse(table.view())


async def table_socket(websocket: WebSocket) -> None:
    """Send the table's view now and after every change, until the page goes away.

    (A WebSocket from another site's page is closed before this: :class:`OriginGuard`.)
    """
    try:
        table = _web(websocket).tables.get(str(websocket.path_params["token"]))
    except WebRequestError:
        await websocket.close(code=4404, reason="no table has this token")
        return
    await websocket.accept()
    sent = -1
    # Listen for the page going away while waiting for changes, so that a closed tab
    # does not leave this loop waiting on an idle table. Messages from the page are ignored.
    receiver: asyncio.Future[Any] = asyncio.ensure_future(websocket.receive())
    try:
        while True:
            view = table.view()
            version = view["version"]
            assert isinstance(version, int)
            if version != sent:
                await websocket.send_json(view)
                sent = version
            if table.closed:
                break
            waiter: asyncio.Future[object] = asyncio.ensure_future(table.changed(version, 15.0))
            pending: set[asyncio.Future[object]] = {receiver, waiter}
            await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
            if receiver.done():
                waiter.cancel()
                if receiver.result()["type"] == "websocket.disconnect":
                    return
                receiver = asyncio.ensure_future(websocket.receive())
    except (WebSocketDisconnect, RuntimeError):
        return
    finally:
        receiver.cancel()
    await websocket.close()


async def _refused(request: Request, exc: Exception) -> Response:
    """A refused request: its status (4xx; 429 when busy) and the message, as JSON."""
    status = getattr(exc, "status", 400)
    return _error(str(exc), status if isinstance(status, int) else 400)


@contextlib.asynccontextmanager
async def _lifespan(app: Starlette) -> AsyncIterator[None]:
    """Close every table when the server stops (their threads end)."""
    yield
    web = app.state.web
    assert isinstance(web, WebApp)
    web.tables.close_all()


def create_app(
    strategies: Path | None = None,
    db: Path | None = None,
    *,
    extra_routes: Sequence[BaseRoute] = (),
    extra_agents: Mapping[str, AgentFactory] | None = None,
    bot_time_limit: float = BOT_TIME_LIMIT,
    max_tables: int = 256,
    allowed_hosts: Sequence[str] | None = None,
    max_busy: int = MAX_BUSY,
    deal_seed: int | None = None,
) -> Starlette:
    """A fresh app (one per server, or per test).

    Args:
        strategies: the folder strategy files may be opened from (none: no files).
        db: the arena database, for pages that show it (kept on ``app.state.db``).
        extra_routes: more pages and APIs, after the explorer, arena and spot views.
        extra_agents: more agents by name, ``(game, seed) -> agent`` (tests use it).
        bot_time_limit: seconds a bot may think per decision.
        max_tables: how many tables may be open at once.
        allowed_hosts: the ``Host`` names requests may carry (None: any); a server on
            loopback lists its own, so that a DNS-rebound name cannot reach it.
        max_busy: solves and trainings run at once (the busy check); more get 429.
        deal_seed: every table's deal seed, for tests (None: a fresh secret per table;
            a request never chooses it).

    Every state-changing request and WebSocket from another site's page is refused
    (:class:`~pokerlab.web._security.OriginGuard`), whatever its route or content type.
    """
    busy = BusyGate(max_busy)
    web = WebApp(strategies=strategies, extra_agents=extra_agents or {},
                 bot_time_limit=bot_time_limit, max_tables=max_tables, deal_seed=deal_seed,
                 busy=busy)
    app = Starlette(
        routes=[
            Route("/", index),
            Route("/api/agents", agents),
            Route("/api/hand", hand, methods=["POST"]),
            Route("/api/tables", open_table, methods=["POST"]),
            Route("/api/tables/{token}", table_view),
            Route("/api/tables/{token}/act", table_act, methods=["POST"]),
            Route("/api/tables/{token}/deal", table_deal, methods=["POST"]),
            Route("/api/tables/{token}/options", table_options, methods=["POST"]),
            Route("/api/tables/{token}/close", table_close, methods=["POST"]),
            WebSocketRoute("/ws/tables/{token}", table_socket),
            *(route for view in (explorer, arena_view, spot_view, hands_download)
              for route in view.routes(strategies, db)),
            *extra_routes,
        ],
        middleware=[
            *([] if allowed_hosts is None else [
                Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts))]),
            Middleware(OriginGuard),
        ],
        exception_handlers={PokerlabError: _refused},
        lifespan=_lifespan,
    )
    app.state.web = web
    app.state.busy = busy
    app.state.db = db
    app.state.strategies = strategies
    return app
