"""The strategy explorer: open a strategy file or solve a small game, then browse it.

Routes (all answers JSON except the page and the event stream):

- ``GET /explorer``: the page (``static/explorer.html``, plain JS, no build step);
- ``GET /api/explorer/files``: the strategy files inside ``--strategies``;
- ``GET /api/explorer/strategy?file=REL[&prefix=K|]``: a file's view (below); a path
  outside ``--strategies`` is refused with 403;
- ``POST /api/explorer/solve`` ``{game, algorithm, iterations[, cards]}``: start solving a
  small game in a worker thread; answers ``{job}``;
- ``GET /api/explorer/jobs/{job}/events``: server-sent events, ``progress`` (iteration,
  exploitability, seconds) after each check, then ``done`` with the view (or ``failed``);
- ``DELETE /api/explorer/jobs/{job}``: stop a running solve.

A view holds what the library computes, nothing re-derived in the page: the exploitability
(:func:`pokerlab.eval.exploitability`), each seat's value (:func:`pokerlab.eval.expected_value`),
the rows of :func:`pokerlab.strategy.strategy_rows`, the infoset tree (each infoset's parent
is the owner's previous infoset, from the compiled tree's sequences), and for Kuhn the
tutorial's table (situations by card, the probability of putting money in), for Leduc the
card-by-betting grid.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Route

from pokerlab.errors import PokerlabError
from pokerlab.eval import expected_value, exploitability
from pokerlab.games import load
from pokerlab.solvers import make_solver
from pokerlab.solvers.base import Progress
from pokerlab.strategy import Strategy, strategy_rows
from pokerlab.strategy.action_names import infoset_action_names
from pokerlab.strategy.strategy import FORMAT as STRATEGY_FORMAT
from pokerlab.web._guard import (
    RequestError,
    body_choice,
    body_int,
    file_inside,
    guarded,
    listed_files,
    read_json_object,
    relative_message,
    static_page,
    static_script,
)
from pokerlab.web._security import WORK_THREAD, BusyGate

MAX_ROWS = 3000
"""A view lists at most this many infosets (narrow it with ``prefix=``)."""
SOLVE_GAMES = ("kuhn", "leduc")
"""The games the page can solve (small enough for a few seconds of CFR)."""
SOLVE_ALGORITHMS = ("cfr+", "cfr", "lcfr", "dcfr")
MAX_ITERATIONS = {"kuhn": 100_000, "leduc": 5_000}
"""The most iterations a solve from the page may ask for, per game."""
KUHN_CARDS = (3, 13)
"""The card counts of Kuhn the page can solve."""
MAX_KEPT = 16
"""Finished solves kept (their views are what the event stream sends)."""
STREAM_SECONDS = 600.0
"""An event stream ends after this long even if its solve has not."""
CHECKS_PER_SOLVE = 50


def strategy_view(strategy: Strategy, *, prefix: str = "") -> dict[str, Any]:
    """Everything the explorer shows of ``strategy``, JSON-ready.

    Args:
        strategy: the strategy (its game compiles: it was saved from the compiled tree).
        prefix: only infosets whose key starts with this (the values are of the whole game).
    """
    game = strategy.game
    tree = strategy.tree
    rows = strategy_rows(strategy, prefix=prefix)
    truncated = len(rows) > MAX_ROWS
    rows = rows[:MAX_ROWS]
    shown = {row.key for row in rows}
    # The owner's sequence that leads to each infoset names its parent infoset and the action.
    owner_of_sequence: dict[tuple[int, int], tuple[int, int]] = {}
    for i in range(tree.n_infosets):
        for slot in range(int(tree.infoset_n_actions[i])):
            owner_of_sequence[(int(tree.infoset_player[i]), int(tree.seq_offset[i]) + slot)] = (
                i, slot)
    tree_nodes = []
    names = infoset_action_names(tree)  # the edge into a node is named as play names it
    for i, key in enumerate(tree.infoset_keys):
        if key not in shown:
            continue
        player = int(tree.infoset_player[i])
        parent = owner_of_sequence.get((player, int(tree.infoset_parent_seq[i])))
        parent_key = via = None
        if parent is not None:
            parent_key = tree.infoset_keys[parent[0]]
            via = names[parent[0]][parent[1]]
        tree_nodes.append({"key": key, "player": player + 1, "parent": parent_key, "via": via})
    card_rank: dict[str, int] = {}
    for key in tree.infoset_keys:
        card_rank.setdefault(key.partition("|")[0], len(card_rank))
    metadata = {k: v for k, v in dict(strategy.metadata).items()
                if isinstance(v, str | int | float | bool) or v is None}
    view: dict[str, Any] = {
        "game": str(game.spec),
        "family": game.spec.name,
        "players": game.n_players,
        "infosets": tree.n_infosets,
        "metadata": metadata,
        "exploitability": float(exploitability(game, strategy)),
        "values": [float(v) for v in expected_value(game, strategy)],
        "prefix": prefix,
        "truncated": truncated,
        "rows": [
            {"key": row.key, "player": row.player + 1,
             "actions": [[name, prob] for name, prob in row.actions]}
            for row in rows
        ],
        "tree": tree_nodes,
        "kuhn_table": (kuhn_table(rows, card_rank, game.n_players)
                       if game.spec.name == "kuhn" else None),
        "leduc_grid": leduc_grid(rows, card_rank) if game.spec.name == "leduc" else None,
    }
    return view


def kuhn_table(rows: list[Any], card_rank: dict[str, int], players: int = 2) -> dict[str, Any]:
    """The tutorial's Kuhn table: one line per situation, one column per card.

    Each cell is the probability of putting a chip in (bet, or call facing a bet) with that
    card in that situation, as the tutorial writes ``Bet Q: x``, ``Call K: 1/3``.
    """
    cards: list[str] = []
    lines: dict[str, dict[str, Any]] = {}
    for row in rows:
        card, _, history = row.key.partition("|")
        if card not in cards:
            cards.append(card)
        facing_bet = "b" in history
        action = "call" if facing_bet else "bet"  # the row's names: fold/call or check/bet
        line = lines.setdefault(history, {
            "history": history,
            "player": row.player + 1,
            "action": action,
            "situation": _kuhn_situation(row.player, history, players),
            "cells": {},
        })
        line["cells"][card] = dict(row.actions).get(action)
    ordered = sorted(lines.values(), key=lambda line: (len(line["history"]), line["history"]))
    cards.sort(key=lambda card: card_rank.get(card, len(card_rank)))
    return {"cards": cards, "lines": ordered}


def _kuhn_situation(player: int, history: str, players: int) -> str:
    words = {"p": "checks", "b": "bets"}
    if not history:
        return f"P{player + 1} opens"
    said = ", ".join(
        f"P{k % players + 1} {words.get(c, c)}" for k, c in enumerate(history)
    )
    return f"P{player + 1} after {said}"


def leduc_grid(rows: list[Any], card_rank: dict[str, int]) -> dict[str, Any]:
    """The card-by-betting grid of Leduc, one per betting round.

    Rows are the private card (and the board card in the second round), columns the
    betting so far, cells each action's probability.
    """
    rounds: list[dict[str, Any]] = [
        {"round": 1, "rows": [], "columns": [], "cells": {}},
        {"round": 2, "rows": [], "columns": [], "cells": {}},
    ]
    for row in rows:
        parts = row.key.split("|")
        if len(parts) >= 4:
            grid, label, column = rounds[1], f"{parts[0]} on {parts[1]}", "/".join(parts[2:])
        else:
            grid, label, column = rounds[0], parts[0], "|".join(parts[1:])
        if label not in grid["rows"]:
            grid["rows"].append(label)
        if column not in grid["columns"]:
            grid["columns"].append(column)
        grid["cells"][f"{label}#{column}"] = {
            "key": row.key, "player": row.player + 1, "actions": [list(a) for a in row.actions]}
    def rank(label: str) -> tuple[int, ...]:
        return tuple(card_rank.get(card, len(card_rank)) for card in label.split(" on "))

    for grid in rounds:
        grid["columns"].sort(key=lambda c: (len(c), c))
        grid["rows"].sort(key=rank)
    return {"rounds": rounds}


# -- solving from the page ------------------------------------------------------------------


class _StoppedError(Exception):
    """Raised in the solver's callback to stop a solve the page cancelled."""


@dataclass
class SolveJob:
    """A solve started from the page, run in its own thread."""

    id: str
    game: str
    algorithm: str
    iterations: int
    progress: list[dict[str, float | int | None]] = field(default_factory=list)
    view: dict[str, Any] | None = None
    error: str | None = None
    done: threading.Event = field(default_factory=threading.Event)
    stop: threading.Event = field(default_factory=threading.Event)
    give_back: Callable[[], None] = field(default=lambda: None)
    """Gives the busy slot the solve holds back (called when it ends)."""

    def run(self) -> None:
        """Solve, recording a progress row at every check, then build the view."""
        try:
            game = load(self.game)
            solver = make_solver(self.algorithm, game)
            every = max(1, self.iterations // CHECKS_PER_SOLVE)

            def record(progress: Progress) -> None:
                self.progress.append({"iteration": progress.iteration,
                                      "exploitability": progress.exploitability,
                                      "seconds": progress.seconds})
                if self.stop.is_set():
                    raise _StoppedError

            with contextlib.suppress(_StoppedError):
                solver.run(iterations=self.iterations, check_every=every, callback=record)
            strategy = solver.average_strategy()
            assert isinstance(strategy, Strategy)  # full-width CFR on a compiled game
            self.view = strategy_view(strategy)
            self.view["stopped"] = self.stop.is_set()
        except PokerlabError as error:
            self.error = str(error)
        except Exception as error:  # a bug must still end the stream, with its name
            self.error = f"the solve failed: {type(error).__name__}: {error}"
        finally:
            self.give_back()
            self.done.set()


class Explorer:
    """The explorer's routes and state (its solves), for one app."""

    def __init__(self, strategies: Path | None) -> None:
        self.strategies = strategies
        self.jobs: OrderedDict[str, SolveJob] = OrderedDict()
        self.lock = threading.Lock()
        self.views: OrderedDict[tuple[str, float, str], dict[str, Any]] = OrderedDict()

    def routes(self) -> list[BaseRoute]:
        """The routes of the page and its API."""
        return [
            Route("/explorer", self.page),
            Route("/explorer.js", self.script),
            # The helpers every view page loads are served here, once.
            Route("/views.js", _shared("views.js")),
            Route("/views.css", _shared("views.css")),
            Route("/api/explorer/files", guarded(self.files)),
            Route("/api/explorer/strategy", guarded(self.strategy)),
            Route("/api/explorer/solve", guarded(self.solve), methods=["POST"]),
            Route("/api/explorer/jobs/{job}/events", guarded(self.events)),
            Route("/api/explorer/jobs/{job}", guarded(self.cancel), methods=["DELETE"]),
        ]

    async def page(self, request: Request) -> Response:
        """The explorer page."""
        return static_page("explorer.html")

    async def script(self, request: Request) -> Response:
        """The explorer page's script."""
        return static_script("explorer.js")

    async def files(self, request: Request) -> Response:
        """The strategy files inside ``--strategies``."""
        found = await run_in_threadpool(listed_files, self.strategies, (STRATEGY_FORMAT,))
        return JSONResponse({"files": found})

    async def strategy(self, request: Request) -> Response:
        """The view of one strategy file."""
        relative = request.query_params.get("file")
        target = file_inside(self.strategies, relative)
        prefix = request.query_params.get("prefix", "")
        if len(prefix) > 200:
            raise RequestError("prefix is over 200 characters")
        view = await run_in_threadpool(self._open, target, str(relative), prefix)
        return JSONResponse(view)

    def _open(self, target: Path, relative: str, prefix: str) -> dict[str, Any]:
        cache_key = (str(target), target.stat().st_mtime, prefix)
        with self.lock:
            if cache_key in self.views:
                return self.views[cache_key]
        try:
            strategy = Strategy.load(target)
        except PokerlabError as error:
            raise RequestError(relative_message(str(error), target, relative)) from None
        view = strategy_view(strategy, prefix=prefix)
        view["file"] = relative
        with self.lock:
            self.views[cache_key] = view
            while len(self.views) > 8:
                self.views.popitem(last=False)
        return view

    async def solve(self, request: Request) -> Response:
        """Start solving a small game; answer the job's id."""
        body = await read_json_object(request)
        family = body_choice(body, "game", SOLVE_GAMES)
        algorithm = body_choice(body, "algorithm", SOLVE_ALGORITHMS, default="cfr+")
        iterations = body_int(body, "iterations", low=1, high=MAX_ITERATIONS[family],
                              default=min(1000, MAX_ITERATIONS[family]))
        game = family
        if family == "kuhn" and "cards" in body:
            cards = body_int(body, "cards", low=KUHN_CARDS[0], high=KUHN_CARDS[1], default=3)
            game = f"kuhn(cards={cards})"
        elif "cards" in body:
            raise RequestError("cards= is only for kuhn")
        busy = request.app.state.busy
        assert isinstance(busy, BusyGate)
        give_back = busy.take(f"a solve of {game}")  # the busy check: 429 when it is full
        with self.lock:
            job = SolveJob(uuid.uuid4().hex, game, algorithm, iterations, give_back=give_back)
            self.jobs[job.id] = job
            while len(self.jobs) > MAX_KEPT:
                oldest = next(iter(self.jobs))
                if not self.jobs[oldest].done.is_set():
                    break
                del self.jobs[oldest]
        threading.Thread(target=job.run, name=f"{WORK_THREAD}-explorer-{job.id[:8]}",
                         daemon=True).start()
        return JSONResponse({"job": job.id, "game": game, "algorithm": algorithm,
                             "iterations": iterations}, status_code=202)

    def _job(self, request: Request) -> SolveJob:
        job_id = str(request.path_params["job"])
        with self.lock:
            job = self.jobs.get(job_id)
        if job is None:
            raise RequestError(f"no solve {job_id[:40]!r} (finished solves are kept for a while, "
                             "then forgotten)", 404)
        return job

    async def events(self, request: Request) -> Response:
        """The solve's progress as server-sent events, then its view."""
        job = self._job(request)
        return StreamingResponse(_stream(job), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store"})

    async def cancel(self, request: Request) -> Response:
        """Stop a running solve (its view is of the iterations done)."""
        job = self._job(request)
        job.stop.set()
        return JSONResponse({"job": job.id, "stopping": not job.done.is_set()})


def _shared(name: str) -> Callable[[Request], Awaitable[Response]]:
    async def serve(request: Request) -> Response:
        return static_script(name)

    return serve


async def _stream(job: SolveJob) -> AsyncIterator[str]:
    sent = 0
    deadline = time.monotonic() + STREAM_SECONDS
    while True:
        finished = job.done.is_set()
        while sent < len(job.progress):
            yield f"event: progress\ndata: {json.dumps(job.progress[sent])}\n\n"
            sent += 1
        if finished:
            if job.error is not None:
                yield f"event: failed\ndata: {json.dumps({'error': job.error})}\n\n"
            else:
                yield f"event: done\ndata: {json.dumps(job.view)}\n\n"
            return
        if time.monotonic() > deadline:
            yield f"event: failed\ndata: {json.dumps({'error': 'the stream timed out'})}\n\n"
            return
        await asyncio.sleep(0.1)


def routes(strategies: Path | None, db: Path | None) -> list[BaseRoute]:
    """The explorer's routes (``db`` is not used here; every view takes the same two)."""
    return Explorer(strategies).routes()
