"""``pokerlab equity HAND HAND ... [--board CARDS]``: all-in equity of hands or ranges."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from pokerlab.cards import equity
from pokerlab.cli._common import console, plural, print_json


def equity_command(
    hands: Annotated[
        list[str],
        typer.Argument(
            help="Two or more hands ('AsKs') or ranges ('QQ+,AKs,KQo:0.5'), one per player."
        ),
    ],
    board: Annotated[str, typer.Option("--board", help="Known board cards, e.g. 2c7dTh.")] = "",
    dead: Annotated[str, typer.Option("--dead", help="Cards known to be out of the deck.")] = "",
    samples: Annotated[
        int, typer.Option("--samples", help="Monte Carlo draws when enumeration is too large.")
    ] = 200_000,
    exact_threshold: Annotated[
        int,
        typer.Option("--exact-threshold", help="Enumerate when at most this many evaluations."),
    ] = 20_000_000,
    seed: Annotated[int, typer.Option("--seed", min=0, help="Seed of the Monte Carlo draws.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Print each player's equity (win + tie share), exact when cheap, else Monte Carlo."""
    result = equity(
        hands, board=board, dead=dead, samples=samples, exact_threshold=exact_threshold, rng=seed
    )
    if as_json:
        print_json(
            {
                "hands": hands,
                "board": board,
                "exact": result.exact,
                "method": result.method,
                "samples": result.samples,
                "equity": result.equity,
                "win": result.win,
                "tie": result.tie,
                "lose": result.lose,
                "ci95": result.ci95,
            }
        )
        return
    how = "exact, all runouts" if result.exact else f"Monte Carlo, seed {seed}"
    showdowns = plural(result.samples, "showdown")
    table = Table(title=f"Equity on board '{board or '-'}' ({how}, {showdowns})")
    for column in ("player", "hand", "equity", "win", "tie", "±95%"):
        table.add_column(column)
    for i, hand in enumerate(hands):
        table.add_row(
            f"P{i + 1}",
            hand,
            f"{result.equity[i]:.4%}",
            f"{result.win[i]:.4%}",
            f"{result.tie[i]:.4%}",
            "exact" if result.exact else f"{result.ci95[i]:.4%}",
        )
    console.print(table)


def register(app: typer.Typer) -> None:
    """Add the ``equity`` command."""
    app.command("equity")(equity_command)
