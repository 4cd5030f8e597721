"""A Hold'em table's session as PHH: ``GET /api/tables/{token}/hands.phhs``.

Every hand the person has finished at the table, in the order played, as a ``.phhs`` file
(:mod:`pokerlab.interop.phh`): pokerkit reads it, and ``pokerlab hands import`` makes
pokerlab records of it again. Only once the session has ended (the table closed, or over):
the records hold every seat's hole cards, the bots' folded ones included, which the person
must not see while hands remain. Each hand has its own game (the stacks carried over from the
hand before), the table's seat names as PHH's ``players``. Kuhn and Leduc tables are refused:
PHH has no variant for them.
"""

from __future__ import annotations

from pathlib import Path

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from pokerlab.errors import PokerlabError
from pokerlab.interop.phh import dumps_phhs
from pokerlab.interop.phh_sources import session_batch
from pokerlab.web._guard import error_response
from pokerlab.web.holdem_table import HoldemTable
from pokerlab.web.tables import WebRequestError


async def download(request: Request) -> Response:
    """The session's hands as a ``.phhs`` attachment (4xx JSON error otherwise)."""
    web = request.app.state.web
    try:
        table = web.tables.get(str(request.path_params["token"]))
    except WebRequestError as refused:
        return error_response(str(refused), refused.status)
    if not isinstance(table, HoldemTable):
        return error_response("PHH has no variant for Kuhn or Leduc: only Hold'em tables "
                              "download their hands", 400)
    if not table.ended:
        return error_response("the hands download once the session has ended (they hold the "
                              "bots' folded cards): POST /api/tables/TOKEN/close first", 409)
    hands = list(table.session_hands)
    if not hands:
        return error_response("no hand is finished at this table yet", 409)
    try:
        batch = session_batch(hands, table.names, event="pokerlab web table")
        text = await run_in_threadpool(lambda: dumps_phhs(batch.hands()))
    except PokerlabError as error:
        return error_response(str(error), 400)
    return Response(text, media_type="application/toml", headers={
        "Content-Disposition": 'attachment; filename="session.phhs"'})


def routes(strategies: Path | None, db: Path | None) -> list[BaseRoute]:
    """The download's route (``strategies`` and ``db`` are not used here)."""
    return [Route("/api/tables/{token}/hands.phhs", download)]


__all__ = ["download", "routes"]
