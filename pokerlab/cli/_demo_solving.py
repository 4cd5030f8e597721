"""The solving part of ``pokerlab demo``: Leduc by CFR+ with a progress bar, then a plot."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from rich.table import Table

from pokerlab.cli._common import console, path_text, plural
from pokerlab.cli._progress import solver_progress
from pokerlab.cli.plot import write_convergence_plot
from pokerlab.eval import expected_value, exploitability
from pokerlab.games import leduc
from pokerlab.solvers import CFRPlus
from pokerlab.strategy import strategy_rows
from pokerlab.studies.convergence import ConvergenceCurve, warm_up

TARGET = 1e-3


def run(folder: Path) -> None:
    """Solve standard Leduc to exploitability 1e-3, show what came out, plot into ``folder``."""
    game = leduc()
    console.rule("Solving Leduc poker with CFR+")
    warm_up(CFRPlus)  # numba's one-off compilation is not solving time
    solver = CFRPlus(game)
    with solver_progress(
        "CFR+ on leduc",
        total=None,
        target=TARGET,
        value=lambda: expected_value(game, solver.average_strategy())[0],
    ) as callback:
        solver.run(target_exploitability=TARGET, check_every=10, callback=callback)
    average = solver.average_strategy()
    value = expected_value(game, average)[0]
    final = exploitability(game, average)
    console.print(
        f"CFR+ reached exploitability {final:.2e} chips per hand after "
        f"{plural(solver.iterations, 'iteration')} in {solver.seconds:.3f} s of solving."
    )
    console.print(
        f"Game value for P1: {value:+.5f} chips per hand; P2 advantage: {-value:+.5f} "
        "(the LP's exact value is -0.08561)."
    )
    table = Table(title="Leduc average strategy: the first rows (pokerlab show prints them all)")
    table.add_column("infoset")
    table.add_column("player")
    table.add_column("actions")
    for row in strategy_rows(average)[:8]:
        actions = ", ".join(f"{name} {prob:.3f}" for name, prob in row.actions)
        table.add_row(row.key, f"P{row.player + 1}", actions)
    console.print(table)
    curve = ConvergenceCurve(
        "cfr+",
        np.array([r.iteration for r in solver.history]),
        np.array([r.seconds for r in solver.history]),
        np.array([r.exploitability for r in solver.history]),
    )
    path = write_convergence_plot(
        [curve], "leduc: CFR+ exploitability of the average strategy", folder / "convergence.png"
    )
    console.print(f"Convergence plot: {path_text(path)}")
