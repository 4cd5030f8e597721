"""The spot view: a solved Hold'em spot as a 13x13 range grid, with EV and equity per hand.

Routes (JSON except the page):

- ``GET /spot``: the page (``static/spot.html``);
- ``GET /api/spot/files``: the solved spots (``pokerlab spot solve --out``) inside
  ``--strategies``;
- ``GET /api/spot/node?file=REL&node=KEY[&player=P]``: one node of a solved spot file;
- ``POST /api/spot/solve`` ``{board, oop, ip, pot, stack, bets, iterations}``: solve a small
  river spot in a worker thread; answers its root node and an ``id``;
- ``GET /api/spot/node?solved=ID&node=KEY[&player=P]``: a node of a spot solved here;
- ``POST /api/spot/range`` ``{text[, hand, weight]}``: the range editor: the 13x13 grid of
  a range's text, or (with ``hand`` and ``weight``) the range with every combo of that
  class set to that weight, written back as text (:meth:`HandRange.to_text`);
- ``POST /api/spot/lock`` ``{solved | file, locks, node[, iterations]}``: solve a spot
  solved here (or a spot file small enough to solve here) again with node locks (the text
  ``pokerlab spot solve --lock`` reads); answers the node ``node`` of the new solution and
  its ``id``;
- ``POST /api/spot/save`` ``{solved, name[, overwrite]}``: save a spot solved here into
  ``--strategies`` as ``NAME.npz`` (reopened from the file list).

A node's answer is :meth:`pokerlab.subgame.result.SpotSolution.node`: each hand's strategy,
weight, EV and equity (the hands sorted by class), the 13x13 grid of each
(:meth:`NodeReport.grid`, the combos' weighted means), each action's colour (one per bet
size, as the PNG of ``spot show --png``) and its frequency over the range; EV is a share of
the pot in chips (:data:`pokerlab.subgame.result.EV_CONVENTION`), as in the CLI. The page
only colours the cells.
"""

from __future__ import annotations

import math
import os
import re
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

from pokerlab.cards import GRID_LABELS, HandRange, parse_range
from pokerlab.cards.ranges import check_ranges_meet
from pokerlab.errors import PokerlabError
from pokerlab.subgame.node_lock import NodeLock, parse_lock, resolve_locks
from pokerlab.subgame.range_solver import RangeSolver
from pokerlab.subgame.range_table import action_colours, class_of, combo_order, range_frequencies
from pokerlab.subgame.result import EV_CONVENTION, NodeReport, SpotSolution
from pokerlab.subgame.result import FORMAT as SPOT_FORMAT
from pokerlab.subgame.spot import Spot
from pokerlab.web._guard import (
    MAX_LISTED,
    MAX_PATH,
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
MAX_RANGE_TEXT = 1800
"""The longest range text accepted, in characters (every class at its own weight fits)."""
MAX_LOCKS = 4
"""A spot solved from the page takes at most this many node locks."""
MAX_LOCK_TEXT = 200
"""The longest lock text accepted, in characters."""
SAVE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}", re.ASCII)
"""A name to save a spot under: a plain file name (no folder, not hidden), ``.npz`` added."""
CLASSES = frozenset(label for row in GRID_LABELS for label in row)


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
        child = report.children[a]
        entry: dict[str, Any] = {"name": name, "child": child,
                                 "token": child[len(report.key):].lstrip("-/"),
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
        "locks": [str(lock) for lock in solution.locks_at(report.key)],
        "spot_locks": [str(lock) for lock in solution.locks],
    }


class SpotView:
    """The spot view's routes and the spots solved from the page."""

    def __init__(self, strategies: Path | None) -> None:
        self.strategies = strategies
        self.lock = threading.Lock()
        self.save_lock = threading.Lock()
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
            Route("/api/spot/range", guarded(self.range_grid), methods=["POST"]),
            Route("/api/spot/lock", guarded(self.lock_solve), methods=["POST"]),
            Route("/api/spot/save", guarded(self.save), methods=["POST"]),
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
            solution = self._solved(solved)
            view = await run_in_threadpool(node_view, solution, key, player)
            view["lockable"] = True
            return JSONResponse(view)
        relative = params.get("file")
        target = file_inside(self.strategies, relative)
        view = await run_in_threadpool(self._file_node, target, str(relative), key, player)
        return JSONResponse(view)

    def _solved(self, solved: str) -> SpotSolution:
        """The spot solved here with id ``solved``.

        Raises:
            RequestError: 404 when no kept spot has that id.
        """
        with self.lock:
            solution = self.solved.get(solved)
        if solution is None:
            raise RequestError(f"no spot solved here has id {solved[:40]!r} (the last "
                               f"{MAX_KEPT} are kept)", 404)
        return solution

    def _keep(self, solution: SpotSolution) -> str:
        """Keep ``solution`` (the oldest kept is forgotten beyond :data:`MAX_KEPT`); its id."""
        solved_id = uuid.uuid4().hex
        with self.lock:
            self.solved[solved_id] = solution
            while len(self.solved) > MAX_KEPT:
                self.solved.popitem(last=False)
        return solved_id

    def _file_node(self, target: Path, relative: str, key: str, player: int | None
                   ) -> dict[str, Any]:
        solution = self._open(target, relative)
        view = node_view(solution, key, player)
        view["file"] = relative
        view["lockable"] = small_enough(solution.spot) is None
        return view

    def _open(self, target: Path, relative: str) -> SpotSolution:
        """The spot file ``target`` (kept while it is unchanged; the last few are kept)."""
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
        return solution

    async def solve(self, request: Request) -> Response:
        """Solve a small river spot; answer its root node and the id to browse it by."""
        body = await read_json_object(request)
        board = body_text(body, "board", max_length=20)
        oop = body_text(body, "oop", max_length=MAX_RANGE_TEXT)
        ip = body_text(body, "ip", max_length=MAX_RANGE_TEXT)
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
        refused = small_enough(spot)
        if refused is not None:
            raise refused
        busy = request.app.state.busy
        assert isinstance(busy, BusyGate)
        with busy.slot("a spot solve"):  # the busy check: 429 when it is full
            solution = await in_daemon_thread(lambda: _solve(spot, iterations))
        view = await run_in_threadpool(node_view, solution, "", None)
        view["solved"] = self._keep(solution)
        view["lockable"] = True
        return JSONResponse(view)

    async def range_grid(self, request: Request) -> Response:
        """The range editor: a range's 13x13 grid, or the range with one class reweighted."""
        body = await read_json_object(request)
        text = body_text(body, "text", max_length=MAX_RANGE_TEXT, default="")
        hand = body.get("hand")
        if hand is None:
            return JSONResponse(await run_in_threadpool(range_view, text, None, 0.0))
        if not isinstance(hand, str) or hand not in CLASSES:
            raise RequestError(f"hand must be a hand class of the 13x13 grid (AA, AKs, AKo, "
                               f"..., 22); got {hand!r}"[:200])
        weight = body.get("weight")
        if isinstance(weight, int) and not isinstance(weight, bool):
            weight = float(weight) if abs(weight) <= 1 else math.inf  # no float() overflow
        if not isinstance(weight, float) or not math.isfinite(weight) or not 0 <= weight <= 1:
            raise RequestError(f"weight must be a number from 0 to 1 (0 removes the class); "
                               f"got {weight!r}"[:200])
        return JSONResponse(await run_in_threadpool(range_view, text, hand, float(weight)))

    async def lock_solve(self, request: Request) -> Response:
        """Solve a spot solved here (or a small spot file) again with node locks.

        Answers the node ``node`` of the new solution, kept like a spot solved here. The
        spot is solved as the page solves (the default variant, the solution's iteration
        count unless ``iterations`` is given).
        """
        body = await read_json_object(request)
        if body.get("file") is not None:  # a spot file reopened: small enough to solve here
            relative = body_text(body, "file", max_length=MAX_PATH)
            target = file_inside(self.strategies, relative)
            solution = await run_in_threadpool(self._open, target, relative)
            refused = small_enough(solution.spot)
            if refused is not None:
                raise refused
        else:
            solution = self._solved(body_text(body, "solved", max_length=64))
        locks = _read_locks(body.get("locks"))
        key = body_text(body, "node", max_length=400, default="")
        iterations = body_int(body, "iterations", low=1, high=MAX_SOLVE_ITERATIONS,
                              default=min(max(solution.iterations, 1), MAX_SOLVE_ITERATIONS))
        # Checked against the spot's tree before a slot is taken: a lock that does not fit
        # (node, actions, hands) is a 400 naming what is allowed there.
        await run_in_threadpool(resolve_locks, solution.built.public, locks)
        await run_in_threadpool(solution.canonical_key, key)  # an unknown node: 400 first
        spot = solution.spot
        busy = request.app.state.busy
        assert isinstance(busy, BusyGate)
        with busy.slot("a spot solve"):
            locked = await in_daemon_thread(lambda: _solve(spot, iterations, locks))
        view = await run_in_threadpool(node_view, locked, key, None)
        view["solved"] = self._keep(locked)
        view["lockable"] = True
        return JSONResponse(view)

    async def save(self, request: Request) -> Response:
        """Save a spot solved here into ``--strategies`` as ``NAME.npz``."""
        if self.strategies is None:
            raise RequestError("the server was started without --strategies DIR, so there is "
                               "no folder to save into; start it with `pokerlab serve "
                               "--strategies DIR`", 409)
        body = await read_json_object(request)
        solution = self._solved(body_text(body, "solved", max_length=64))
        file_name = save_name(body_text(body, "name", max_length=80))
        overwrite = body.get("overwrite", False)
        if not isinstance(overwrite, bool):
            raise RequestError(f"overwrite must be true or false; got {overwrite!r}"[:200])
        folder = self.strategies.resolve()
        target = folder / file_name
        await run_in_threadpool(self._save, solution, folder, target, overwrite)
        return JSONResponse({"file": file_name, "saved": True})

    def _save(self, solution: SpotSolution, folder: Path, target: Path, overwrite: bool
              ) -> None:
        with self.save_lock:  # the check and the write are one step for this server
            if target.is_symlink() or (target.exists() and not target.is_file()):
                raise RequestError(f"{target.name!r} in the --strategies folder is not a "
                                   "plain file; choose another name", 409)
            if target.exists() and not overwrite:
                raise RequestError(f"{target.name!r} already exists in the --strategies "
                                   "folder; choose another name or ask to overwrite it", 409)
            if not target.exists() and sum(1 for _ in folder.glob("*.npz")) >= MAX_LISTED:
                raise RequestError(f"the --strategies folder already holds {MAX_LISTED} .npz "
                                   "files; remove some or overwrite one", 409)
            try:
                if overwrite:
                    solution.save(target)  # atomic: a temporary file renamed over the name
                else:
                    _save_new(solution, folder, target)
            except OSError as exc:  # a full disk, a folder made read-only
                raise RequestError(f"cannot save into the --strategies folder "
                                   f"({exc.strerror or type(exc).__name__})", 507) from None


def _save_new(solution: SpotSolution, folder: Path, target: Path) -> None:
    """Write ``target`` only if no file has that name, even one made meanwhile.

    The solution is written under a hidden temporary name, then hard-linked to ``target``
    (a link fails when the name exists: no check-then-write window), then unlinked.

    Raises:
        RequestError: 409 when ``target`` exists.
    """
    temporary = folder / f".saving-{uuid.uuid4().hex}.npz"
    try:
        solution.save(temporary)
        try:
            os.link(temporary, target)
        except FileExistsError:
            raise RequestError(f"{target.name!r} already exists in the --strategies folder; "
                               "choose another name or ask to overwrite it", 409) from None
    finally:
        temporary.unlink(missing_ok=True)


def small_enough(spot: Spot) -> RequestError | None:
    """Why ``spot`` is not solved from the page (None: it is): not a river, or too large."""
    if spot.street != 2:
        return RequestError(f"the page solves river spots only (5 board cards); this spot "
                            f"has {len(spot.board_cards)}; solve it with `pokerlab spot "
                            "solve`")
    size = spot.size()
    if size.n_nodes > MAX_SOLVE_NODES or size.bytes > SOLVE_MEMORY:
        return RequestError(f"the spot is too large to solve here ({size.describe()}); at "
                            f"most {MAX_SOLVE_NODES} nodes", 413)
    return None


def save_name(name: str) -> str:
    """The file name a spot is saved under: ``name`` checked, with ``.npz`` added.

    Raises:
        RequestError: a name with a folder, a hidden (dot) name, or other characters.
    """
    stem = name[:-4] if name.lower().endswith(".npz") else name
    if not SAVE_NAME.fullmatch(stem):
        raise RequestError(f"name {name[:80]!r} is not allowed; a name is 1 to 64 letters, "
                           "digits, '_', '-' or '.', beginning with a letter or digit (no "
                           "folder, no hidden file); .npz is added")
    return f"{stem}.npz"


def range_view(text: str, hand: str | None, weight: float) -> dict[str, Any]:
    """A range's text (as :meth:`HandRange.to_text` writes it) and its 13x13 grid.

    With ``hand`` (a class such as ``AKs``), every combo of that class gets ``weight``
    first (0 removes the class). An empty text is the empty range.

    Raises:
        PokerlabError: text that is not a range (the message names the item).
    """
    held = parse_range(text) if text.strip() else None
    if hand is not None:
        weights = dict(zip(held.combos, held.weights, strict=True)) if held else {}
        for combo in parse_range(hand).combos:
            if weight > 0:
                weights[combo] = weight
            else:
                weights.pop(combo, None)
        held = (HandRange(combos=tuple(weights), weights=tuple(weights.values()))
                if weights else None)
    grid = held.grid() if held else np.zeros((13, 13))
    return {
        "text": held.to_text() if held else "",
        "labels": [list(row) for row in GRID_LABELS],
        "grid": [[float(x) for x in row] for row in grid],
        "combos": len(held) if held else 0,
        "total_weight": held.total_weight if held else 0.0,
    }


def _read_locks(value: object) -> tuple[NodeLock, ...]:
    """The ``locks`` of a request body: a list of at most :data:`MAX_LOCKS` lock texts.

    Raises:
        RequestError: not a list of strings, too many, or one too long.
        SpecError: a lock that cannot be read (the message names it and the syntax).
    """
    if value is None:
        value = []
    if not isinstance(value, list):
        raise RequestError("locks must be a list of lock texts such as ['x-b100:call=1']")
    if len(value) > MAX_LOCKS:
        raise RequestError(f"at most {MAX_LOCKS} locks; got {len(value)}")
    for text in value:
        if not isinstance(text, str):
            raise RequestError(f"a lock is text such as 'x-b100:call=1'; got {text!r}"[:200])
        if len(text) > MAX_LOCK_TEXT:
            raise RequestError(f"a lock is over {MAX_LOCK_TEXT} characters")
    return tuple(parse_lock(text) for text in value)


def _solve(spot: Spot, iterations: int, locks: tuple[NodeLock, ...] = ()) -> SpotSolution:
    built = spot.build(memory_limit=SOLVE_MEMORY)
    solver = RangeSolver(built.public, memory_limit=SOLVE_MEMORY, locks=locks)
    solver.run(iterations=iterations, check_every=iterations)
    return SpotSolution.from_solver(solver, built, finish=True)


def routes(strategies: Path | None, db: Path | None) -> list[BaseRoute]:
    """The spot view's routes (``db`` is not used here)."""
    return SpotView(strategies).routes()
