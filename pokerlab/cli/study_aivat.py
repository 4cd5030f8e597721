"""``pokerlab study aivat``: AIVAT (chance and action terms) in matches, Kuhn and Leduc.

The equilibrium bot against always-call, random and CFR+10: plain estimate, chance-only
control variate, AIVAT with the bot's own policy known, AIVAT with both known; variance
reductions and the exact bias of each estimator. See :mod:`pokerlab.studies.aivat_study`.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.progress import Progress
from rich.table import Table

from pokerlab.cli._common import console, err_console, print_json


def aivat_command(
    hands: Annotated[
        int, typer.Option("--hands", min=2, help="Hands per seat of each match.")
    ] = 5000,
    seed: Annotated[int, typer.Option("--seed", min=0, help="The matches' seed.")] = 0,
    json: Annotated[
        bool, typer.Option("--json", help="Print the result as JSON on stdout.")
    ] = False,
) -> None:
    """AIVAT in matches: unbiasedness (exact) and variance reduction, Kuhn and Leduc."""
    from pokerlab.studies.aivat_study import OPPONENTS, aivat_study

    with Progress(console=err_console, transient=True) as bar:
        task = bar.add_task("AIVAT matches", total=2 * len(OPPONENTS))
        rows = aivat_study(
            hands=hands,
            seed=seed,
            progress=lambda line: bar.update(task, description=line, advance=1),
        )
    if json:
        print_json([r.to_dict() for r in rows])
        return
    table = Table(title="Equilibrium bot's chips per hand: estimates and variance reductions")
    for column in (
        "game",
        "opponent",
        "exact",
        "plain (se)",
        "chance-only (x var)",
        "AIVAT, bot known (se, x var)",
        "AIVAT, both known",
        "exact bias",
    ):
        table.add_column(column, justify="left" if column in ("game", "opponent") else "right")
    for r in rows:
        table.add_row(
            r.game,
            r.opponent,
            f"{r.exact:+.4f}",
            f"{r.plain_mean:+.4f} ({r.plain_se:.4f})",
            f"{r.chance_mean:+.4f} (x{r.chance_reduction:.2f})",
            f"{r.aivat_mean:+.4f} ({r.aivat_se:.4f}, x{r.aivat_reduction:.2f})",
            f"{r.full_mean:+.4f}",
            f"{max(abs(r.bias_known_bot), abs(r.bias_both)):.1e}",
        )
    console.print(table)


def add_command(group: typer.Typer) -> None:
    """Add ``aivat`` to the ``study`` command group."""
    group.command("aivat")(aivat_command)
