"""``pokerlab serve``: the browser table on a local web server."""

from __future__ import annotations

import typer


def serve(
    host: str = typer.Option("127.0.0.1", help="Address to listen on (local only by default)."),
    port: int = typer.Option(8000, min=1, max=65535, help="TCP port to listen on."),
) -> None:
    """Serve the browser table: deal hands between the built-in agents.

    Open http://HOST:PORT/ in a browser. Stop with Ctrl-C.
    """
    import uvicorn  # imported here: `pokerlab --help` must not load the web stack

    from pokerlab.web.app import create_app

    uvicorn.run(create_app(), host=host, port=port, log_level="warning")


def register(app: typer.Typer) -> None:
    """Add the ``serve`` command."""
    app.command("serve")(serve)
