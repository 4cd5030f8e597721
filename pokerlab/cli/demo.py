"""``pokerlab demo [--out DIR]``: a short tour of what pokerlab does, grown with each capability.

The tour prints its tables on stdout and writes its plots into one folder, which it names
at the start and at the end: ``--out DIR``, or else a fresh folder in the system's
temporary directory (never, silently, the current one).
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Annotated

import typer

from pokerlab.cli._common import check_output_path, console, path_text

OutOption = Annotated[
    Path | None,
    typer.Option(
        "--out", "-o", help="The folder for the plots (default: a fresh temporary folder)."
    ),
]


def register(app: typer.Typer) -> None:
    """Add the ``demo`` command."""
    app.command("demo")(demo)


def demo(out: OutOption = None) -> None:
    """Show the games, then the tutorial's results, solved on the spot.

    The plots go to --out DIR (created if missing), or to a fresh temporary folder; either
    way the folder is printed.
    """
    from pokerlab.cli import _demo_solving

    folder = plot_folder(out)
    console.rule("pokerlab demo")
    console.print(f"Plots go to {path_text(folder)}")
    _games_section()
    _normal_form_section()
    _demo_solving.run(folder)
    console.print(f"The demo's plots are in {path_text(folder)}")


def plot_folder(out: Path | None) -> Path:
    """The folder the demo writes into: ``out`` (created if missing) or a fresh one.

    Raises:
        FileFormatError: if ``out``, or a folder above it, is a file.
    """
    if out is None:
        return Path(tempfile.mkdtemp(prefix="pokerlab-demo-"))
    check_output_path(out, folder=True)
    out.mkdir(parents=True, exist_ok=True)
    return out


def _games_section() -> None:
    from rich.table import Table

    from pokerlab.games import load
    from pokerlab.tree import compile

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
    from rich.panel import Panel
    from rich.text import Text

    from pokerlab.games import MatrixGame, load
    from pokerlab.solvers.normal_form import (
        eliminate_dominated,
        mixed_equilibrium_2x2,
        solve_zero_sum,
    )
    from pokerlab.solvers.regret_matching import RegretMatching

    dominance = load("dominance")
    assert isinstance(dominance, MatrixGame)
    reduced = eliminate_dominated(dominance)
    removed = "; ".join(
        f"P{s.player + 1} drops {s.action_name} (dominated by {s.dominated_by_name})"
        for s in reduced.steps
    )
    row, col = reduced.row_ids[0], reduced.col_ids[0]
    payoff = (dominance.A[row, col], dominance.B[row, col])
    lines = [
        f"[b]Dominance[/b] (the tutorial's 3x3 game): {removed}; what is left: "
        f"({reduced.row_names[0]}, {reduced.col_names[0]}) with payoffs "
        f"({payoff[0]:g}, {payoff[1]:g}).",
    ]
    bos = mixed_equilibrium_2x2(load("battle_of_sexes"))
    lines.append(
        f"[b]Battle of the sexes[/b] by indifference: P1 plays Tennis {bos.p:.3g}, P2 plays "
        f"Tennis {bos.q:.3g}; each earns {bos.row_payoff:.3g}."
    )
    rps_solution = solve_zero_sum(load("rps"))
    strategy = ", ".join(f"{p:.4f}" for p in rps_solution.row_strategy)
    lines.append(
        f"[b]Rock-Paper-Scissors[/b] by LP: play ({strategy}); the game's value is "
        f"{abs(rps_solution.value):.4f}."
    )
    learner = RegretMatching(load("rps"), opponent=(0.4, 0.3, 0.3)).run(iterations=10_000)
    average = learner.average_vectors()
    lines.append(
        "[b]Regret matching[/b] against a fixed (0.4, 0.3, 0.3): average strategy "
        f"{[round(float(p), 3) for p in average[1]]} (always Paper, as the tutorial says)"
    )
    # A panel wraps its prose inside its border (the console's soft wrap would crop it).
    console.print(Panel(Text.from_markup("\n".join(lines)), title="Normal-form game theory"),
                  soft_wrap=False)
