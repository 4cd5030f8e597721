"""``pokerlab study push-fold``: the tutorial's simple all-in game, solved (section 3).

P1 pushes or folds, P2 calls or folds, one card each from a deck of ranks; the table
shows each card's push and call probability. See :mod:`pokerlab.studies.push_fold`.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from pokerlab.cli._common import JsonOption, console, print_json


def push_fold_command(
    cards: Annotated[int, typer.Option("--cards", min=2, help="Ranks in the deck.")] = 13,
    stack: Annotated[
        float, typer.Option("--stack", min=1.0, help="Each player's chips (blinds 0.5/1).")
    ] = 10.0,
    iterations: Annotated[int, typer.Option("--iterations", min=1, help="CFR+ iterations.")] = 2000,
    json: JsonOption = False,
) -> None:
    """Solve the push/fold all-in game by CFR+ and show each card's strategy."""
    from pokerlab.studies.push_fold import solve_push_fold

    solved = solve_push_fold(cards, stack, iterations)
    if json:
        print_json({
            "cards": cards, "stack": stack, "iterations": iterations, "value": solved.value,
            "exploitability": solved.exploitability,
            "push": solved.push.tolist(), "call": solved.call.tolist(),
        })  # fmt: skip
        return
    table = Table(title=f"Push/fold, {cards} ranks, stack {stack:g}: P1 value {solved.value:+.4f}")
    for column in ("card (0 lowest)", "P1 push", "P2 call"):
        table.add_column(column, justify="right")
    for card in range(cards):
        table.add_row(str(card), f"{solved.push[card]:.3f}", f"{solved.call[card]:.3f}")
    console.print(table)
    console.print(f"exploitability {solved.exploitability:.2e} chips a hand")


def add_command(group: typer.Typer) -> None:
    """Add ``push-fold`` to the ``study`` command group."""
    group.command("push-fold")(push_fold_command)
