"""The arena view: the leaderboard of a run, each match's winnings over time, hand replays.

Routes (JSON except the page); the database given by ``--db`` is opened read-only
(:class:`pokerlab.arena.ArenaStore` with ``readonly=True``) for every request, so a running
tournament can keep writing to it:

- ``GET /arena``: the page (``static/arena.html``);
- ``GET /api/arena/runs``: the runs stored;
- ``GET /api/arena/leaderboard?run=ID``: :func:`pokerlab.arena.leaderboard` of the run
  (default the latest), with its intervals;
- ``GET /api/arena/match?run=ID&match=K``: match ``K`` of the run: its agents and each
  agent's cumulative winnings after every hand (at most :data:`MAX_POINTS` points);
- ``GET /api/arena/hand?run=ID&match=K&hand=H``: hand ``H`` of the match, step by step:
  each chance event and action with the cards, the chips put in and the pot after it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from pokerlab.arena import ArenaStore, leaderboard
from pokerlab.arena.store import MatchRow, RunRow
from pokerlab.errors import PokerlabError
from pokerlab.games import load
from pokerlab.web._guard import RequestError, guarded, int_param, static_page, static_script

MAX_POINTS = 1000
"""A cumulative-winnings series is thinned to at most this many points."""
MAX_ID = 2**31 - 1


class ArenaView:
    """The arena view's routes over one database."""

    def __init__(self, db: Path | None) -> None:
        self.db = db

    def routes(self) -> list[BaseRoute]:
        """The routes of the page and its API."""
        return [
            Route("/arena", self.page),
            Route("/arena.js", self.script),
            Route("/api/arena/runs", guarded(self.runs)),
            Route("/api/arena/leaderboard", guarded(self.leaderboard)),
            Route("/api/arena/match", guarded(self.match)),
            Route("/api/arena/hand", guarded(self.hand)),
        ]

    async def page(self, request: Request) -> Response:
        """The arena page."""
        return static_page("arena.html")

    async def script(self, request: Request) -> Response:
        """The arena page's script."""
        return static_script("arena.js")

    def _store(self) -> ArenaStore:
        if self.db is None:
            raise RequestError("the server was started without --db FILE; there is no arena "
                             "database to show", 404)
        return ArenaStore(self.db, readonly=True)

    async def runs(self, request: Request) -> Response:
        """The runs of the database, oldest first."""
        return JSONResponse(await run_in_threadpool(self._runs))

    def _runs(self) -> dict[str, Any]:
        with self._store() as store:
            return {"runs": [
                {"run": r.id, "game": r.game, "players": r.players, "hands": r.hands,
                 "finished": r.finished is not None}
                for r in store.runs()
            ]}

    async def leaderboard(self, request: Request) -> Response:
        """The leaderboard of a run (default: the latest)."""
        run_id = _run_param(request)
        return JSONResponse(await run_in_threadpool(self._leaderboard, run_id))

    def _leaderboard(self, run_id: int | None) -> dict[str, Any]:
        with self._store() as store:
            run = _run(store, run_id)
            board = leaderboard(store, run_id=run.id).to_dict()
            board["matches"] = [
                {"match": m.match_index, "names": _names(store, run, m), "hands": m.hands}
                for m in store.matches(run.id)
            ]
            return board

    async def match(self, request: Request) -> Response:
        """One match's agents and their cumulative winnings."""
        run_id = _run_param(request)
        index = int_param(request.query_params, "match", low=0, high=MAX_ID)
        return JSONResponse(await run_in_threadpool(self._match, run_id, index))

    def _match(self, run_id: int | None, index: int) -> dict[str, Any]:
        with self._store() as store:
            run = _run(store, run_id)
            match = _match_row(store, run, index)
            rows = store.agent_returns(match.id)
            names = _names(store, run, match)
            step = max(1, -(-len(rows) // MAX_POINTS))
            totals = [0.0] * len(names)
            hands: list[int] = []
            series: list[list[float]] = [[] for _ in names]
            for k, (_, values) in enumerate(rows):
                for position, value in enumerate(values):
                    totals[position] += float(value)
                if (k + 1) % step == 0 or k == len(rows) - 1:
                    hands.append(k + 1)
                    for position, total in enumerate(totals):
                        series[position].append(total)
            return {"run": run.id, "match": index, "names": names, "hands_stored": len(rows),
                    "hands": hands, "cumulative": series, "unit": "chips"}

    async def hand(self, request: Request) -> Response:
        """A stored hand, step by step."""
        run_id = _run_param(request)
        index = int_param(request.query_params, "match", low=0, high=MAX_ID)
        hand = int_param(request.query_params, "hand", low=0, high=MAX_ID)
        return JSONResponse(await run_in_threadpool(self._hand, run_id, index, hand))

    def _hand(self, run_id: int | None, index: int, hand: int) -> dict[str, Any]:
        with self._store() as store:
            run = _run(store, run_id)
            match = _match_row(store, run, index)
            record = store.hand(match.id, hand)
            if record is None:
                stored = store.hands_done(match.id)
                raise RequestError(f"match {index} has {stored} hands stored; hand must be from 0 "
                                   f"to {stored - 1}", 404)
            names = _names(store, run, match)
        return replay(run.game, record.history, [names[a] for a in record.seats],
                      list(record.returns), hand=hand, match=index, deal=record.deal,
                      faults=[{"seat": e.seat, "kind": e.kind, "detail": e.detail}
                              for e in record.events])


def replay(game_text: str, history: Any, seat_names: list[str], returns: list[float],
           **about: Any) -> dict[str, Any]:
    """The steps of a stored hand, replayed on the game's rules (nothing is re-derived here).

    Each step names who moved (a seat, or chance), the move's name as the game says it,
    and the state after it: each seat's cards, the board, the chips each seat has put in.

    Raises:
        PokerlabError: an action of the history that is not legal (a corrupted record).
    """
    game = load(game_text)
    state = game.initial_state()
    players = game.n_players

    def snapshot() -> dict[str, Any]:
        return {
            "cards": [state.private_cards(p) for p in range(players)],
            "board": state.board_cards(),
            "put_in": [float(x) for x in state.contributions()],
            "pot": float(sum(state.contributions())),
        }

    steps = [{"actor": "start", "seat": None, "move": "the hand starts", **snapshot()}]
    for action in history:
        action = int(action)
        if state.is_terminal:
            raise PokerlabError("the stored hand goes on after its end (a corrupted record)")
        if state.is_chance:
            seat, move = None, state.action_name(action)
        else:
            seat = int(state.player)
            if not state.is_legal(action):
                raise PokerlabError(f"the stored action {action} is not legal at step "
                                    f"{len(steps)} (a corrupted record)")
            move = state.action_name(action)
        state = state.child(action)
        steps.append({"actor": "chance" if seat is None else seat_names[seat], "seat": seat,
                      "move": move, **snapshot()})
    return {"game": game_text, "seats": seat_names, "returns": returns,
            "final": str(state), "steps": steps, **about}


def _run_param(request: Request) -> int | None:
    if request.query_params.get("run", "") == "":
        return None
    return int_param(request.query_params, "run", low=1, high=MAX_ID)


def _run(store: ArenaStore, run_id: int | None) -> RunRow:
    try:
        return store.run(run_id)
    except PokerlabError as error:
        raise RequestError(str(error).replace(str(store.path), "the database"), 404) from None


def _match_row(store: ArenaStore, run: RunRow, index: int) -> MatchRow:
    matches = store.matches(run.id)
    for match in matches:
        if match.match_index == index:
            return match
    raise RequestError(f"run {run.id} has no match {index}; its matches are 0 to "
                     f"{len(matches) - 1}", 404)


def _names(store: ArenaStore, run: RunRow, match: MatchRow) -> list[str]:
    by_id = {agent.id: agent.name for agent in store.agents(run.id)}
    return [by_id.get(agent_id, f"agent {agent_id}") for agent_id in match.agents]


def routes(strategies: Path | None, db: Path | None) -> list[BaseRoute]:
    """The arena view's routes (``strategies`` is not used here)."""
    return ArenaView(db).routes()
