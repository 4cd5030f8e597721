"""The Starlette app behind ``pokerlab serve``: a JSON API over the dealer and the agents.

This first step deals whole hands between two built-in agents (named through the agent
registry, so new bots appear on their own) and shows them on a plain HTML page; the live
human seat of issue 14 is not built yet.
"""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse
from starlette.routing import Route

from pokerlab.agents.registry import agent_names, make_agent
from pokerlab.errors import PokerlabError
from pokerlab.eval.dealer import DealStream, connect, deal_hand
from pokerlab.games.registry import load
from pokerlab.web import arena_view, explorer, spot_view

MAX_SEED = 2**31 - 1
MAX_BODY = 4096
"""The largest request body the API reads, in bytes (its requests are a few small fields)."""
GAMES = ("kuhn", "leduc", "holdem")


def _error(message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=400)


async def index(request: Request) -> HTMLResponse:
    """The table page (plain HTML and JS shipped as package data)."""
    page = files("pokerlab.web").joinpath("static/index.html").read_text(encoding="utf-8")
    return HTMLResponse(page)


async def agents(request: Request) -> JSONResponse:
    """The built-in agents' names and the games the page offers."""
    return JSONResponse({"agents": list(agent_names()), "games": list(GAMES)})


async def hand(request: Request) -> JSONResponse:
    """Deal one hand of ``game`` between agents ``a`` (seat 0) and ``b`` (seat 1)."""
    if int(request.headers.get("content-length") or 0) > MAX_BODY:
        return JSONResponse({"error": f"the body is over {MAX_BODY} bytes"}, status_code=413)
    raw = await request.body()
    if len(raw) > MAX_BODY:
        return JSONResponse({"error": f"the body is over {MAX_BODY} bytes"}, status_code=413)
    try:
        body = json.loads(raw)
    except ValueError:
        return _error("the body must be JSON: {game, a, b, seed}")
    if not isinstance(body, dict):
        return _error("the body must be a JSON object: {game, a, b, seed}")
    game_name, a, b, seed = body.get("game"), body.get("a"), body.get("b"), body.get("seed", 0)
    if game_name not in GAMES:
        return _error(f"game {game_name!r} is not served; allowed: {', '.join(GAMES)}")
    names = agent_names()
    for seat, name in (("a", a), ("b", b)):
        if name not in names:
            return _error(f"agent {seat}={name!r} is unknown; allowed: {', '.join(names)}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        return _error(f"seed must be an integer from 0 to {MAX_SEED}, got {seed!r}")
    try:
        # In a worker thread: a slow agent must not hold up the other clients' requests.
        result = await run_in_threadpool(_deal, str(game_name), str(a), str(b), seed)
    except PokerlabError as error:
        return _error(str(error))
    return JSONResponse(result)


def _deal(game_name: str, a: str, b: str, seed: int) -> dict[str, object]:
    """One hand of ``game_name``, ``a`` in seat 0 and ``b`` in seat 1, as the API answers it."""
    game = load(game_name)
    seats = [connect(make_agent(name, game, seed=seed + i)) for i, name in enumerate((a, b))]
    record, state = deal_hand(game, seats, chance=DealStream(seed, 0))
    return {
        "game": game_name,
        "returns": list(record.returns),
        "history": [str(action) for action in record.history],
        "final": str(state),
    }


def create_app(strategies: Path | None = None, db: Path | None = None) -> Starlette:
    """A fresh app (one per server, or per test); ``strategies`` and ``db`` feed the views."""
    views = [view.routes(strategies, db) for view in (explorer, arena_view, spot_view)]
    return Starlette(routes=[
        Route("/", index),
        Route("/api/agents", agents),
        Route("/api/hand", hand, methods=["POST"]),
        *(route for routes in views for route in routes),
    ])
