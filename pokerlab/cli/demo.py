"""``pokerlab demo``: a short tour of what pokerlab does, grown with each capability."""

from __future__ import annotations

import importlib.util

import typer
from rich.panel import Panel
from rich.table import Table

from pokerlab.cli._common import console
from pokerlab.games import load
from pokerlab.tree import compile


def _games_section() -> None:
    table = Table(title="Games and the sizes of their compiled trees")
    for column in ("game", "rules", "histories", "infosets", "sequences per player"):
        table.add_column(column)
    for spec in (
        "rps",
        "kuhn",
        "kuhn(cards=100)",
        "kuhn(players=3)",
        "leduc",
        "leduc(stack=50, raise_cap=None)",
    ):
        game = load(spec)
        tree = compile(game)
        table.add_row(
            str(game.spec),
            game.describe(),
            f"{tree.n_histories:,}",
            f"{tree.n_infosets:,}",
            " / ".join(f"{n:,}" for n in tree.n_sequences),
        )
    console.print(table)


def _normal_form_section() -> None:
    if importlib.util.find_spec("pokerlab.solvers.normal_form") is None:
        return
    from pokerlab.solvers.normal_form import (
        eliminate_dominated,
        mixed_equilibrium_2x2,
        solve_zero_sum,
    )
    from pokerlab.solvers.regret_matching import RegretMatching

    dominance = load("dominance")
    reduced = eliminate_dominated(dominance)
    lines = [
        "[b]Dominance[/b] (tutorial 3x3): "
        + "; ".join(str(step) for step in reduced.steps)
        + f" -> {reduced}",
    ]
    bos = mixed_equilibrium_2x2(load("battle_of_sexes"))
    lines.append(f"[b]Battle of the sexes[/b]: {bos}")
    rps_solution = solve_zero_sum(load("rps"))
    lines.append(f"[b]Rock-Paper-Scissors[/b] by LP: {rps_solution}")
    learner = RegretMatching(load("rps"), opponent=(0.4, 0.3, 0.3)).run(iterations=10_000)
    average = learner.average_strategy()
    lines.append(
        "[b]Regret matching[/b] against a fixed (0.4, 0.3, 0.3): average strategy "
        f"{[round(float(p), 3) for p in average[1]]} (always Paper, as the tutorial says)"
    )
    console.print(Panel("\n".join(lines), title="Normal-form game theory"))


def demo() -> None:
    """Show the games, then the tutorial's results, solved on the spot."""
    console.rule("pokerlab demo")
    _games_section()
    _normal_form_section()
    for module in ("pokerlab.cli._demo_solving",):
        if importlib.util.find_spec(module) is not None:
            importlib.import_module(module).run()


def register(app: typer.Typer) -> None:
    """Add the ``demo`` command."""
    app.command("demo")(demo)
