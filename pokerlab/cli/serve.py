"""``pokerlab serve``: the browser table on a local web server."""

from __future__ import annotations

import ipaddress
from pathlib import Path
from typing import Annotated

import typer

from pokerlab.errors import PokerlabError

STOP_SECONDS = 2
"""Seconds a stopped server waits for the requests in flight before it closes them."""


def check_host(host: str, *, public: bool) -> str | None:
    """Refuse a non-loopback ``host`` unless ``public``; return the warning to print, if any.

    Raises:
        PokerlabError: ``host`` is not a loopback address and ``--public`` was not given.
    """
    loopback = host == "localhost"
    if not loopback:
        try:
            loopback = ipaddress.ip_address(host).is_loopback
        except ValueError:
            loopback = False
    if loopback:
        return None
    if not public:
        raise PokerlabError(
            f"--host {host} is not a loopback address; the table has no login, so serving "
            "it to the network needs --public"
        )
    return f"warning: serving on {host}: anyone who can reach this address can use the server"


def allowed_hosts(host: str) -> list[str] | None:
    """The ``Host`` names a server on ``host`` accepts: on loopback only its own names.

    So a page whose name was rebound to a loopback address (DNS rebinding) cannot reach
    the tables. An IPv6 address appears in ``Host`` in brackets (``[::1]:8000``); a server
    on ``localhost`` may be reached on either loopback. None (any name) for a public host.

    Example:
        >>> allowed_hosts("127.0.0.1"), allowed_hosts("::1"), allowed_hosts("0.0.0.0")
        (['127.0.0.1', 'localhost'], ['[::1]', 'localhost'], None)
    """
    if check_host(host, public=True) is not None:
        return None
    if host == "localhost":
        return ["127.0.0.1", "[::1]", "localhost"]
    address = ipaddress.ip_address(host)
    own = f"[{address.compressed}]" if address.version == 6 else address.compressed
    default = "[::1]" if address.version == 6 else "127.0.0.1"
    return sorted({default, "localhost", own})


def serve(
    host: str = typer.Option("127.0.0.1", help="Address to listen on (local only by default)."),
    port: int = typer.Option(8000, min=1, max=65535, help="TCP port to listen on."),
    public: bool = typer.Option(
        False, "--public", help="Allow a --host that is not loopback; a warning is printed "
        "(the server has no login: anyone who can reach the address can use it)."),
    db: Annotated[Path | None, typer.Option(
        "--db", exists=True, dir_okay=False,
        help="Arena database (pokerlab arena run --db), opened read-only: the /arena page "
        "shows its runs' leaderboards with intervals, each match's cumulative winnings and "
        "a replay of any stored hand. Without it /arena says no database was given.")] = None,
    strategies: Annotated[Path | None, typer.Option(
        "--strategies", exists=True, file_okay=False,
        help="Folder of strategy and spot files the pages may open.")] = None,
    prepare_hard: Annotated[bool, typer.Option(
        "--prepare-hard",
        help="Before serving, prepare the Hard AI for the default heads-up tables (no-limit "
        "and limit, 200 chips, blinds 1/2): card tables and blueprints, once (minutes; a "
        "request never trains: an unprepared hard table is refused with the command)."),
    ] = False,
) -> None:
    """Serve the browser app: tables against the AIs, strategy explorer, arena, spots.

    Open http://HOST:PORT/ in a browser: Hold'em (2-9 seats), Kuhn and Leduc tables;
    /explorer (strategy files of --strategies, or solve on the page); /arena (the runs of
    --db); /spot (a 13x13 range grid). Stop with Ctrl-C.
    """
    warning = check_host(host, public=public)
    if warning is not None:
        typer.echo(warning, err=True)
    import uvicorn  # imported here: `pokerlab --help` must not load the web stack

    from pokerlab.web.app import create_app

    if prepare_hard:
        prepare_default_tables()
    shown = f"[{host}]" if ":" in host else host
    typer.echo(f"pokerlab serve: http://{shown}:{port}/ (Ctrl-C stops it)")
    app = create_app(strategies=strategies, db=db, allowed_hosts=allowed_hosts(host))
    # Stopped (Ctrl-C, SIGTERM), the server waits this long for requests in flight, then
    # closes them; long work runs in daemon threads, which do not keep the process alive.
    uvicorn.run(app, host=host, port=port, log_level="warning",
                timeout_graceful_shutdown=STOP_SECONDS)
    _exit_if_still_working()


def prepare_default_tables() -> None:
    """Prepare the Hard AI for the web's default heads-up tables (see ``--prepare-hard``)."""
    from pokerlab.agents.hard import default_blueprint_ready, train_default_blueprint
    from pokerlab.games.holdem_session import HoldemSession

    for betting in DEFAULT_TABLES:
        game = HoldemSession(2, betting=betting, blinds=(1, 2), stack=200).start_hand().game
        if default_blueprint_ready(game):
            typer.echo(f"the Hard AI is prepared for {game.spec}", err=True)
            continue
        train_default_blueprint(game)


DEFAULT_TABLES = ("nolimit", "limit")
"""The betting of the heads-up tables ``--prepare-hard`` prepares (the page's defaults)."""


def _exit_if_still_working() -> None:
    """End the process now if a daemon thread still solves for a request that was cut off.

    The interpreter would stop it too, but only after tearing itself down while that thread
    keeps the CPU (3 s measured at load 18 on 2 cores; 8 s with a test beside it). Files it
    was writing are written atomically, so stopping it leaves none half written.
    """
    import os
    import sys
    import threading

    from pokerlab.web._security import WORK_THREAD

    if any(t.name.startswith(WORK_THREAD) and t.is_alive() for t in threading.enumerate()):
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)


def register(app: typer.Typer) -> None:
    """Add the ``serve`` command."""
    app.command("serve")(serve)
