"""``pokerlab lp GAME [--show-matrices] [--json]``: the exact equilibrium by the sequence-form LP.

Prints the game value (P1's, chips per hand), the exploitability of the LP strategy, and the
equilibrium as a table. ``--show-matrices`` also prints ``E``, ``F``, ``e``, ``f`` and ``A``:
for 3-card Kuhn in the tutorial's order, with ``A`` scaled by 6 so that its entries are the
tutorial's integers, plus the realization plans ``x`` and ``y`` (the MATLAB program's
output); for other small games in the compiled order.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Annotated, Any

import typer

from pokerlab.cli._common import GameArgument, JsonOption, console, load_game, plural, print_json

if TYPE_CHECKING:  # the solvers load scipy: imported when the command runs, not for --help
    from rich.table import Table

    from pokerlab._types import FloatArray
    from pokerlab.games.base import Game
    from pokerlab.solvers.sequence_form import SequenceFormMatrices
    from pokerlab.strategy import Strategy, StrategyRow

MAX_PRINTED_INFOSETS = 400
"""The equilibrium table is printed only for games with at most this many infosets."""

MatricesOption = Annotated[
    bool,
    typer.Option(
        "--show-matrices",
        help="Also print E, F, e, f and A (3-card Kuhn: the tutorial's order, A scaled by 6).",
    ),
]


def register(app: typer.Typer) -> None:
    """Add the ``lp`` command to ``app``."""
    app.command("lp")(lp_command)


def lp_command(
    game: GameArgument, show_matrices: MatricesOption = False, json: JsonOption = False
) -> None:
    """Solve GAME (two-player, zero-sum) exactly by the sequence-form LP.

    Prints the game value, the exploitability and the equilibrium.
    """
    from pokerlab.solvers.lp import SequenceFormLP
    from pokerlab.strategy import strategy_json

    the_game = load_game(game)
    solver = SequenceFormLP(the_game).run()
    solution = solver.solution
    strategy = solver.average_strategy()
    exploitability = solver.history[-1].exploitability
    matrices, scale = _matrices(the_game) if show_matrices else (None, 1.0)
    if json:
        data: dict[str, Any] = {
            "game": str(the_game.spec),
            "algorithm": "lp",
            "value": solution.value,
            "value_fraction": _fraction(solution.value),
            "exploitability": exploitability,
            "seconds": solution.seconds,
            "sequences": list(solution.form.n_sequences),
            "strategy": strategy_json(strategy)["infosets"],
        }
        if matrices is not None:
            data["matrices"] = _matrices_json(matrices, scale, solution.x, solution.y, solution.p)
        print_json(data)
        return
    if matrices is not None:
        _print_matrices(matrices, scale, solution.x, solution.y, solution.p)
    fraction = _fraction(solution.value)
    shown = f" (= {fraction})" if fraction else ""
    console.print(f"game: {the_game.spec}")
    console.print(
        f"sequences: {solution.form.n_sequences[0]:,} (P1) x {solution.form.n_sequences[1]:,} (P2)"
    )
    console.print(f"game value (P1): {solution.value:.10f}{shown} chips per hand")
    console.print(f"game value (P2): {-solution.value:.10f} chips per hand")
    console.print(f"exploitability: {exploitability:.3e} chips per hand")
    console.print(f"solved in {solution.seconds:.3f} s (HiGHS {solution.solve_seconds:.3f} s)")
    _print_strategy(strategy)


def _fraction(value: float) -> str | None:
    """``"-1/18"`` when ``value`` is that simple fraction to 1e-9, else None."""
    fraction = Fraction(value).limit_denominator(1000)
    if abs(float(fraction) - value) > 1e-9:
        return None
    return str(fraction)


def _matrices(game: Game) -> tuple[SequenceFormMatrices, float]:
    from pokerlab.solvers.sequence_form import dense_matrices, tutorial_matrices

    spec = game.spec
    if spec.name == "kuhn" and game.n_players == 2 and spec.get("cards") == 3:
        return tutorial_matrices(game), 6.0
    return dense_matrices(game), 1.0


def _matrices_json(
    m: SequenceFormMatrices, scale: float, x: FloatArray, y: FloatArray, p: FloatArray
) -> dict[str, Any]:
    return {
        "A_scale": scale,
        "E": m.E,
        "F": m.F,
        "e": m.e,
        "f": m.f,
        "A_scaled": m.A * scale,
        "x_labels": list(m.x_labels),
        "y_labels": list(m.y_labels),
        "e_rows": list(m.e_rows),
        "f_rows": list(m.f_rows),
        "x": x[m.x_ids],
        "y": y[m.y_ids],
        "p": p[m.e_ids],
    }


def _cell(value: float) -> str:
    if abs(value) < 1e-12:
        return "0"
    if abs(value - round(value)) < 1e-9:
        return str(round(value))
    return f"{value:.4f}"


def _grid(title: str, rows: tuple[str, ...], cols: tuple[str, ...], values: FloatArray) -> str:
    """A labelled matrix as aligned plain text (no wrapping, for side-by-side comparison)."""
    cells = [[_cell(float(v)) for v in row] for row in values]
    width = max([len(c) for c in cols] + [len(c) for row in cells for c in row])
    head = max(len(r) for r in rows)
    lines = [title, " " * head + " " + " ".join(c.rjust(width) for c in cols)]
    for name, row in zip(rows, cells, strict=True):
        lines.append(name.ljust(head) + " " + " ".join(c.rjust(width) for c in row))
    return "\n".join(lines)


def _print_matrices(
    m: SequenceFormMatrices, scale: float, x: FloatArray, y: FloatArray, p: FloatArray
) -> None:
    scaled = "" if scale == 1.0 else f" x {scale:g} (chance-weighted chips x {scale:g})"
    order = "the tutorial's order" if scale != 1.0 else "the compiled order"
    blocks = [
        f"Sequence form in {order}: E x = e, F y = f, P1 wins x^T A y",
        _grid("E (P1 constraints)", m.e_rows, m.x_labels, m.E),
        _grid("e", m.e_rows, ("e",), m.e[:, None]),
        _grid("F (P2 constraints)", m.f_rows, m.y_labels, m.F),
        _grid("f", m.f_rows, ("f",), m.f[:, None]),
        _grid(f"A (P1 payoff){scaled}", m.x_labels, m.y_labels, m.A * scale),
        _grid("x (P1 realization plan)", m.x_labels, ("x",), x[m.x_ids][:, None]),
        _grid("y (P2 realization plan)", m.y_labels, ("y",), y[m.y_ids][:, None]),
        _grid("p (P1's best-response value per row of E; p[0] = game value)", m.e_rows, ("p",),
              p[m.e_ids][:, None]),
    ]
    if scale != 1.0:
        blocks.insert(
            1,
            f"A is printed multiplied by {scale:g}: every deal has probability 1/{scale:g}, so the "
            "entries are the tutorial's integers",
        )
    typer.echo("\n\n".join(blocks) + "\n")


def _print_strategy(strategy: Strategy) -> None:
    from pokerlab.strategy import strategy_rows

    tree = strategy.tree
    if tree.n_infosets > MAX_PRINTED_INFOSETS:
        console.print(
            f"({plural(tree.n_infosets, 'infoset')}: save with `pokerlab solve GAME --algorithm "
            "lp --out FILE` and browse with `pokerlab show FILE --prefix ...`)"
        )
        return
    console.print(strategy_table(strategy, strategy_rows(strategy), title="Equilibrium (LP)"))


def strategy_table(strategy: Strategy, rows: list[StrategyRow], *, title: str) -> Table:
    """The rows as a rich table: one column per action name, as the tutorial's Kuhn tables."""
    from rich.table import Table

    names: list[str] = []
    for row in rows:
        for name, _ in row.actions:
            if name not in names:
                names.append(name)
    table = Table(title=f"{title}: {strategy.game.spec}")
    table.add_column("infoset", style="bold")
    # Fixed widths ("player" and "0.0000" fit): rich measures no cell of these columns,
    # which halves the time of a table of thousands of rows (6,888 for the 50-chip Leduc).
    table.add_column("player", width=len("player"), no_wrap=True)
    for name in names:
        table.add_column(name, justify="right", width=max(len(name), len("0.0000")),
                         no_wrap=True)
    for row in rows:
        probs = dict(row.actions)
        table.add_row(
            row.key,
            f"P{row.player + 1}",
            *(f"{probs[n]:.4f}" if n in probs else "" for n in names),
        )
    return table

