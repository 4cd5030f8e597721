"""``pokerlab study three-player``: NashConv over iterations and head-to-head results, 3 players.

CFR, CFR+ and external-sampling MCCFR on 3-player Kuhn and 3-player Leduc: exact NashConv
of the average strategy at checkpoints, then exact head-to-head values among the final
strategies. See :mod:`pokerlab.studies.three_player`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.status import Status
from rich.table import Table

from pokerlab.cli._common import JsonOption, check_output_path, console, err_console, print_json


def three_player_command(
    games: Annotated[
        str, typer.Option("--games", help="Comma-separated: kuhn, leduc (3 players each).")
    ] = "kuhn,leduc",
    scale: Annotated[
        float,
        typer.Option("--scale", min=0.001, help="Multiply every solver's default iterations."),
    ] = 1.0,
    seed: Annotated[int, typer.Option("--seed", min=0, help="ES-MCCFR's seed.")] = 0,
    out: Annotated[
        Path | None, typer.Option("--out", help="Write the NashConv figure here.")
    ] = None,
    json: JsonOption = False,
) -> None:
    """NashConv of CFR, CFR+ and ES-MCCFR on 3-player Kuhn and Leduc; head-to-head results."""
    from pokerlab.errors import PokerlabError
    from pokerlab.games import load
    from pokerlab.studies.three_player import (
        DEFAULT_ITERATIONS,
        nash_conv_figure,
        three_player_study,
    )

    names = [g.strip() for g in games.split(",") if g.strip()]
    unknown = [g for g in names if g not in DEFAULT_ITERATIONS]
    if unknown or not names:
        raise PokerlabError(f"--games takes kuhn and/or leduc; got {games!r}")
    if out is not None:
        check_output_path(out)
    results = []
    for name in names:
        iterations = {a: max(1, round(n * scale)) for a, n in DEFAULT_ITERATIONS[name].items()}
        with err_console.status(f"{name} (3 players): compiling and solving") as status:

            def report(line: str, status: Status = status) -> None:
                status.update(line)

            results.append(
                three_player_study(load(name, players=3), iterations, seed=seed, progress=report)
            )
    figure = nash_conv_figure(results, str(out)) if out is not None else None
    if json:
        print_json({"results": [r.to_dict() for r in results], "figure": figure})
        return
    for r in results:
        table = Table(title=f"{r.game}: NashConv of the average strategy (chips per hand)")
        table.add_column("algorithm")
        table.add_column("iterations", justify="right")
        table.add_column("NashConv", justify="right")
        table.add_column("seconds", justify="right")
        for c in r.curves:
            table.add_row(
                c.algorithm, str(c.iterations[-1]), f"{c.nash_conv[-1]:.5f}", f"{c.seconds[-1]:.1f}"
            )
        console.print(table)
        h2h = Table(title=f"{r.game}: row alone vs two copies of column (chips per hand)")
        h2h.add_column("")
        for n in r.names:
            h2h.add_column(n, justify="right")
        for n, row in zip(r.names, r.one_vs_two, strict=True):
            h2h.add_row(
                n, *(f"{v:+.4f}" if a != n else "" for a, v in zip(r.names, row, strict=True))
            )
        console.print(h2h)
        if r.together:
            console.print(
                "together (6 seatings): "
                + ", ".join(f"{n} {v:+.4f}" for n, v in r.together.items())
            )
    if figure is not None:
        console.print(f"wrote {figure}")


def add_command(group: typer.Typer) -> None:
    """Add ``three-player`` to the ``study`` command group."""
    group.command("three-player")(three_player_command)
