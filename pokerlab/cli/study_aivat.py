"""``pokerlab study aivat``: AIVAT (chance and action terms) in matches, Kuhn and Leduc.

The equilibrium bot against always-call, random and CFR+10: plain estimate, chance-only
control variate, AIVAT with the bot's own policy known, AIVAT with both known; variance
reductions and the exact bias of each estimator. See :mod:`pokerlab.studies.aivat_study`.
"""

from __future__ import annotations

import math
from typing import Annotated

import typer
from rich.table import Table

from pokerlab.cli._common import JsonOption, console, print_json
from pokerlab.cli._progress import StageProgress


def aivat_command(
    hands: Annotated[
        int, typer.Option("--hands", min=2, help="Hands per seat of each match.")
    ] = 5000,
    seed: Annotated[int, typer.Option("--seed", min=0, help="The matches' seed.")] = 0,
    json: JsonOption = False,
) -> None:
    """AIVAT in matches: unbiasedness (exact) and variance reduction, Kuhn and Leduc."""
    from pokerlab.studies.aivat_study import OPPONENTS, aivat_study

    with StageProgress(transient=True) as bar:
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


def aivat_holdem_command(
    hands: Annotated[
        int, typer.Option("--hands", min=2, help="Hands per seat of the match.")
    ] = 20_000,
    seed: Annotated[int, typer.Option("--seed", min=0, help="The match's seed.")] = 0,
    opponent: Annotated[
        str, typer.Option("--opponent", help="The Easy AI's opponent (a Hold'em built-in).")
    ] = "always-call",
    players: Annotated[
        int, typer.Option("--players", min=2, max=6, help="Seats (Easy AI and copies of the "
                          "opponent).")
    ] = 2,
    json: JsonOption = False,
) -> None:
    """AIVAT on limit Hold'em (2 to 6 seats): Easy AI's mean, corrected; the mean correction."""
    from pokerlab.studies.aivat_holdem_study import holdem_aivat_study

    with StageProgress(transient=True) as bar:
        task = bar.add_task("Hold'em hands", total=players * hands)
        result = holdem_aivat_study(
            hands=hands, seed=seed, opponent=opponent, players=players,
            progress=lambda done, total: bar.update(task, completed=done),
        )
    if json:
        print_json(result.to_dict())
        return
    seats = "heads-up" if players == 2 else f"{players}-seat"
    table = Table(title=f"Easy AI vs {opponent}, {seats} limit Hold'em, {result.hands:,} hands "
                  "(mbb/hand, 95% intervals)")
    for column in ("estimate", "mean", "interval", "x var"):
        table.add_column(column, justify="left" if column == "estimate" else "right")
    rows = (
        ("plain", result.plain, 1.0),
        ("chance terms, board from the 3rd flop card", result.chance_board,
         result.chance_board_reduction),
        ("chance terms, hole cards + flop + turn + river" if players == 2
         else "chance terms, whole flop + turn + river", result.chance,
         result.chance_reduction),
        ("AIVAT, board chance terms + known actions", result.aivat_board,
         result.aivat_board_reduction),
        ("AIVAT, all chance terms + known actions", result.aivat, result.aivat_reduction),
        ("mean correction (0 expected)", result.correction, math.nan),
    )
    for label, e, factor in rows:
        table.add_row(label, f"{e.mean:+.1f}", f"[{e.low:+.1f}, {e.high:+.1f}]",
                      "-" if math.isnan(factor) else f"{factor:.2f}")
    console.print(table)
    console.print(f"action terms for: {', '.join(result.known) or 'none'}")


def add_command(group: typer.Typer) -> None:
    """Add ``aivat`` and ``aivat-holdem`` to the ``study`` command group."""
    group.command("aivat")(aivat_command)
    group.command("aivat-holdem")(aivat_holdem_command)
