"""``pokerlab bots list``: the built-in agents, what each is and which games it plays."""

from __future__ import annotations

import typer
from rich.table import Table

from pokerlab.cli._common import JsonOption, console, print_json

bots_app = typer.Typer(help="The built-in agents (bots): list them.", no_args_is_help=True)


@bots_app.command("list")
def list_bots(json: JsonOption = False) -> None:
    """Show every built-in agent: its name, what it is and which games it plays.

    Any of these names is accepted wherever an agent is (`match`, `play`, `arena run
    --builtins`, `lbr`, `acpc client --agent`, the web tables), beside policy files
    (.npz, .bp, .pt), entrant files (.py) and ACPC executables.
    """
    from pokerlab.agents.registry import describe_agents

    rows = describe_agents()
    if json:
        print_json([{"name": n, "summary": s, "plays": p} for n, s, p in rows])
        return
    table = Table(title="built-in agents")
    for column in ("name", "what it is", "plays"):
        table.add_column(column)
    for row in rows:
        table.add_row(*row)
    console.print(table)


def register(app: typer.Typer) -> None:
    """Add ``pokerlab bots`` to ``app``."""
    app.add_typer(bots_app, name="bots")
