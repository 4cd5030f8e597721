"""The spot view: a solved Hold'em spot as a 13x13 range grid, with EV and equity per hand.

Routes (JSON except the page):

- ``GET /spot``: the page (``static/spot.html``);
- ``GET /api/spot/files``: the solved spots (``pokerlab spot solve --out``) inside
  ``--strategies``;
- ``GET /api/spot/node?file=REL&node=KEY[&player=P]``: one node of a solved spot file;
- ``POST /api/spot/solve`` ``{board, oop, ip, pot, stack, bets, iterations}``: solve a small
  river spot in a worker thread; answers its root node and an ``id``;
- ``GET /api/spot/node?solved=ID&node=KEY[&player=P]``: a node of a spot solved here.

A node's answer is :meth:`pokerlab.subgame.result.SpotSolution.node`: each hand's strategy,
weight, EV and equity (the hands sorted by class), the 13x13 grid of each
(:meth:`NodeReport.grid`, the combos' weighted means), each action's colour (one per bet
size, as the PNG of ``spot show --png``) and its frequency over the range; EV is a share of
the pot in chips (:data:`pokerlab.subgame.result.EV_CONVENTION`), as in the CLI. The page
only colours the cells.
"""

from __future__ import annotations

import math
import threading
import uuid
from collections import OrderedDict
from pathlib import Path
from typing import Any

import numpy as np
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from pokerlab.cards import GRID_LABELS
from pokerlab.cards.ranges import check_ranges_meet
from pokerlab.errors import PokerlabError
from pokerlab.subgame.range_solver import RangeSolver
from pokerlab.subgame.range_table import action_colours, class_of, combo_order, range_frequencies
from pokerlab.subgame.result import EV_CONVENTION, NodeReport, SpotSolution
from pokerlab.subgame.result import FORMAT as SPOT_FORMAT
from pokerlab.subgame.spot import Spot
from pokerlab.web._guard import (
    RequestError,
    body_int,
    body_text,
    file_inside,
    guarded,
    int_param,
    listed_files,
    read_json_object,
    relative_message,
    static_page,
    static_script,
)
from pokerlab.web._security import BusyGate, in_daemon_thread

MAX_SOLVE_NODES = 40
"""A spot solved from the page has at most this many public nodes."""
MAX_SOLVE_ITERATIONS = 2000
MAX_KEPT = 4
"""Spots solved here that are kept in memory (the oldest is forgotten)."""
SOLVE_MEMORY = 256 * 1024**2
"""The largest solver allocation a spot solved from the page may need, in bytes."""
OPEN_MEMORY = 2 * 1024**3
"""The largest allocation a spot file's tree may need to be opened, in bytes."""


def _number(x: float) -> float | None:
    return float(x) if math.isfinite(x) else None


def _grid(report: NodeReport, values: np.ndarray | None) -> list[list[float | None]]:
    mean, _ = report.grid(values)
    return [[_number(x) for x in row] for row in mean]


def node_view(solution: SpotSolution, key: str, player: int | None) -> dict[str, Any]:
    """One node of a solved spot as the page shows it (JSON-ready).

    Raises:
        PokerlabError: an unknown node key or a player other than 0 and 1.
    """
    report = solution.node(key, player=player)
    _, weight = report.grid()
    actions: list[dict[str, Any]] = []
    colours = action_colours(report.actions)
    frequencies = range_frequencies(report)
    for a, name in enumerate(report.actions):
        entry: dict[str, Any] = {"name": name, "child": report.children[a],
                                 "colour": colours[a], "grid": None, "frequency": None}
        if report.strategy.shape[0] == len(report.actions):
            entry["grid"] = _grid(report, report.strategy[a])
            entry["frequency"] = float(frequencies[a])
        actions.append(entry)
    hands = []
    for h in combo_order(report):
        name = report.hands[h]
        hands.append({
            "hand": name,
            "class": class_of(name),
            "weight": _number(report.weights[h]),
            "ev": _number(report.ev[h]),
            "equity": _number(report.equity[h]),
            "strategy": [_number(x) for x in report.strategy[:, h]],
        })
    ev = solution.ev
    pot = solution.spot.pot
    return {
        "spot": solution.spot.describe(),
        "key": report.key,
        "kind": report.kind,
        "player": report.player,
        "acting": report.acting,
        "board": report.board,
        "pot": report.pot,
        "children": list(report.children),
        "actions": actions,
        "labels": [list(row) for row in GRID_LABELS],
        "weight": [[float(x) for x in row] for row in weight],
        "ev": _grid(report, report.ev),
        "equity": _grid(report, report.equity),
        "hands": hands,
        "exploitability": solution.exploitability,
        "percent_of_pot": solution.percent_of_pot,
        "spot_ev": [float(v) for v in ev],
        "spot_ev_percent_of_pot": [100 * float(v) / pot for v in ev],
        "start_pot": pot,
        "ev_convention": EV_CONVENTION,
        "iterations": solution.iterations,
    }


class SpotView:
    """The spot view's routes and the spots solved from the page."""

    def __init__(self, strategies: Path | None) -> None:
        self.strategies = strategies
        self.lock = threading.Lock()
        self.solved: OrderedDict[str, SpotSolution] = OrderedDict()
        self.opened: OrderedDict[tuple[str, float], SpotSolution] = OrderedDict()

    def routes(self) -> list[BaseRoute]:
        """The routes of the page and its API."""
        return [
            Route("/spot", self.page),
            Route("/spot.js", self.script),
            Route("/api/spot/files", guarded(self.files)),
            Route("/api/spot/node", guarded(self.node)),
            Route("/api/spot/solve", guarded(self.solve), methods=["POST"]),
        ]

    async def page(self, request: Request) -> Response:
        """The spot page."""
        return static_page("spot.html")

    async def script(self, request: Request) -> Response:
        """The spot page's script."""
        return static_script("spot.js")

    async def files(self, request: Request) -> Response:
        """The solved spot files inside ``--strategies``."""
        found = await run_in_threadpool(listed_files, self.strategies, (SPOT_FORMAT,))
        return JSONResponse({"files": found})

    async def node(self, request: Request) -> Response:
        """A node of a spot file or of a spot solved here."""
        params = request.query_params
        key = params.get("node", "")
        if len(key) > 400:
            raise RequestError("node is over 400 characters")
        player = None
        if params.get("player", "") != "":
            player = int_param(params, "player", low=0, high=1)
        solved = params.get("solved")
        if solved is not None:
            with self.lock:
                solution = self.solved.get(solved)
            if solution is None:
                raise RequestError(f"no spot solved here has id {solved[:40]!r} (the last "
                                 f"{MAX_KEPT} are kept)", 404)
            return JSONResponse(await run_in_threadpool(node_view, solution, key, player))
        relative = params.get("file")
        target = file_inside(self.strategies, relative)
        view = await run_in_threadpool(self._file_node, target, str(relative), key, player)
        return JSONResponse(view)

    def _file_node(self, target: Path, relative: str, key: str, player: int | None
                   ) -> dict[str, Any]:
        cache_key = (str(target), target.stat().st_mtime)
        with self.lock:
            solution = self.opened.get(cache_key)
        if solution is None:
            try:
                solution = SpotSolution.load(target, memory_limit=OPEN_MEMORY)
            except PokerlabError as error:
                raise RequestError(relative_message(str(error), target, relative)) from None
            with self.lock:
                self.opened[cache_key] = solution
                while len(self.opened) > MAX_KEPT:
                    self.opened.popitem(last=False)
        view = node_view(solution, key, player)
        view["file"] = relative
        return view

    async def solve(self, request: Request) -> Response:
        """Solve a small river spot; answer its root node and the id to browse it by."""
        body = await read_json_object(request)
        board = body_text(body, "board", max_length=20)
        oop = body_text(body, "oop", max_length=400)
        ip = body_text(body, "ip", max_length=400)
        pot = body_int(body, "pot", low=1, high=10_000, default=100)
        stack = body_int(body, "stack", low=1, high=100_000, default=100)
        bets = body_text(body, "bets", max_length=40, default="100%")
        iterations = body_int(body, "iterations", low=1, high=MAX_SOLVE_ITERATIONS, default=200)
        spot = Spot(board=board, oop=oop, ip=ip, pot=pot, stack=stack, bets=bets, raises="",
                    raise_cap=1)
        if spot.street != 2:
            raise RequestError(f"the page solves river spots only (5 board cards); got "
                             f"{len(spot.board_cards)} cards; solve others with "
                             "`pokerlab spot solve`")
        check_ranges_meet(oop, ip, spot.board_cards)  # else no deal exists to solve
        size = spot.size()
        if size.n_nodes > MAX_SOLVE_NODES or size.bytes > SOLVE_MEMORY:
            raise RequestError(f"the spot is too large to solve here ({size.describe()}); at most "
                             f"{MAX_SOLVE_NODES} nodes", 413)
        busy = request.app.state.busy
        assert isinstance(busy, BusyGate)
        with busy.slot("a spot solve"):  # the busy check: 429 when it is full
            solution = await in_daemon_thread(lambda: _solve(spot, iterations))
        solved_id = uuid.uuid4().hex
        with self.lock:
            self.solved[solved_id] = solution
            while len(self.solved) > MAX_KEPT:
                self.solved.popitem(last=False)
        view = await run_in_threadpool(node_view, solution, "", None)
        view["solved"] = solved_id
        return JSONResponse(view)


def _solve(spot: Spot, iterations: int) -> SpotSolution:
    built = spot.build(memory_limit=SOLVE_MEMORY)
    solver = RangeSolver(built.public, memory_limit=SOLVE_MEMORY)
    solver.run(iterations=iterations, check_every=iterations)
    return SpotSolution.from_solver(solver, built)


def routes(strategies: Path | None, db: Path | None) -> list[BaseRoute]:
    """The spot view's routes (``db`` is not used here)."""
    return SpotView(strategies).routes()
