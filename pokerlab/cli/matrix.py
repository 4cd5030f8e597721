"""``pokerlab matrix``: solve normal-form games and run regret matching on them.

``pokerlab matrix solve GAME`` prints the payoff table, the iterated elimination of
dominated strategies, the pure equilibria, the fully mixed equilibrium of a 2x2 game and,
for a zero-sum game, its value and optimal strategies. ``pokerlab matrix regret-matching
GAME`` runs regret matching (self-play, or against ``--opponent``) and prints the final
average and current strategies. GAME is a preset (``rps``, ``dominance``,
``battle_of_sexes``), a ``matrix(...)`` spec, or a ``.csv`` / ``.json`` file.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Annotated, Any

import numpy as np
import typer
from rich.table import Table

from pokerlab._types import FloatArray
from pokerlab.cli._common import JsonOption, console, load_game, plural, print_json
from pokerlab.errors import SolverError, StrategyError
from pokerlab.games.matrix import MatrixGame

if TYPE_CHECKING:  # the solvers load scipy: imported when a command runs, not for --help
    from pokerlab.solvers.normal_form import EliminationResult, MixedEquilibrium, ZeroSumSolution

GameArgument = Annotated[
    str,
    typer.Argument(
        help="A preset (rps, dominance, battle_of_sexes), a matrix(...) spec, or a .csv/.json file."
    ),
]


def register(app: typer.Typer) -> None:
    """Add the ``matrix`` command group to ``app``."""
    group = typer.Typer(
        name="matrix",
        help="Normal-form games: dominance, equilibria, zero-sum LP, regret matching.",
        no_args_is_help=True,
    )
    group.command("solve")(solve_command)
    group.command("regret-matching")(regret_matching_command)
    app.add_typer(group, name="matrix")


def _matrix_game(text: str) -> MatrixGame:
    game = load_game(text)
    if not isinstance(game, MatrixGame):
        raise SolverError(
            f"{text!r} is not a matrix game; matrix commands take a preset (rps, dominance, "
            "battle_of_sexes), a matrix(...) spec, or a .csv/.json file"
        )
    return game


# --------------------------------------------------------------------------------------
# solve


def solve_command(game: GameArgument, json: JsonOption = False) -> None:
    """Eliminate dominated strategies, find pure and mixed equilibria, solve zero-sum games."""
    from pokerlab.solvers.normal_form import (
        eliminate_dominated,
        mixed_equilibrium_2x2,
        pure_nash_equilibria,
        solve_zero_sum,
    )

    matrix = _matrix_game(game)
    elimination = eliminate_dominated(matrix)
    pure = pure_nash_equilibria(matrix)
    mixed: MixedEquilibrium | None = None
    mixed_note: str | None = None
    if matrix.shape == (2, 2):
        try:
            mixed = mixed_equilibrium_2x2(matrix)
        except SolverError as exc:
            mixed_note = str(exc)
    zero_sum = solve_zero_sum(matrix) if matrix.is_zero_sum else None
    if json:
        print_json(_solve_json(matrix, elimination, pure, mixed, mixed_note, zero_sum))
        return
    _print_payoffs(matrix)
    _print_elimination(elimination)
    _print_pure(matrix, pure)
    if matrix.shape == (2, 2):
        _print_mixed(matrix, mixed, mixed_note)
    if zero_sum is not None:
        _print_zero_sum(matrix, zero_sum)


def _solve_json(
    matrix: MatrixGame,
    elimination: EliminationResult,
    pure: list[tuple[int, int]],
    mixed: MixedEquilibrium | None,
    mixed_note: str | None,
    zero_sum: ZeroSumSolution | None,
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "game": str(matrix.spec),
        "rows": list(matrix.row_names),
        "cols": list(matrix.col_names),
        "A": matrix.A,
        "B": matrix.B,
        "is_zero_sum": matrix.is_zero_sum,
        "elimination": {
            "row_ids": list(elimination.row_ids),
            "col_ids": list(elimination.col_ids),
            "rows": list(elimination.row_names),
            "cols": list(elimination.col_names),
            "steps": [
                {
                    "round": step.round,
                    "player": step.player,
                    "action_id": step.action_id,
                    "action": step.action_name,
                    "dominated_by_id": step.dominated_by_id,
                    "dominated_by": step.dominated_by_name,
                    "strict": step.is_strict,
                }
                for step in elimination.steps
            ],
        },
        "pure_equilibria": [
            {
                "row_id": row,
                "col_id": col,
                "row": matrix.row_names[row],
                "col": matrix.col_names[col],
                "payoffs": [float(matrix.A[row, col]), float(matrix.B[row, col])],
            }
            for row, col in pure
        ],
        "mixed_equilibrium": None,
        "zero_sum": None,
    }
    if mixed is not None:
        data["mixed_equilibrium"] = {
            "p": mixed.p,
            "q": mixed.q,
            "row_strategy": mixed.row_strategy,
            "col_strategy": mixed.col_strategy,
            "payoffs": [mixed.row_payoff, mixed.col_payoff],
            "outcome_probabilities": mixed.outcome_probabilities,
        }
    elif mixed_note is not None:
        data["mixed_equilibrium_note"] = mixed_note
    if zero_sum is not None:
        data["zero_sum"] = {
            "value": zero_sum.value,
            "row_strategy": zero_sum.row_strategy,
            "col_strategy": zero_sum.col_strategy,
        }
    return data


def _number(value: float) -> str:
    text = f"{0.0 if abs(value) < 1e-12 else value:.6g}"
    return "0" if text == "-0" else text


def _print_payoffs(matrix: MatrixGame) -> None:
    table = Table(title=f"{matrix.describe()}  (P1 payoff, P2 payoff)")
    table.add_column("P1 \\ P2", style="bold")
    for name in matrix.col_names:
        table.add_column(name, justify="center")
    for i, name in enumerate(matrix.row_names):
        cells = [
            f"{_number(matrix.A[i, j])}, {_number(matrix.B[i, j])}" for j in range(matrix.shape[1])
        ]
        table.add_row(name, *cells)
    console.print(table)


def _print_elimination(elimination: EliminationResult) -> None:
    if not elimination.steps:
        console.print("Dominance: no strictly dominated pure strategy.")
    else:
        table = Table(title="Iterated elimination of strictly dominated strategies")
        for column in ("round", "player", "removes", "dominated by"):
            table.add_column(column)
        for step in elimination.steps:
            table.add_row(
                str(step.round),
                f"P{step.player + 1}",
                step.action_name,
                step.dominated_by_name,
            )
        console.print(table)
    console.print(
        f"Remaining: P1 {{{', '.join(elimination.row_names)}}}, "
        f"P2 {{{', '.join(elimination.col_names)}}}"
    )


def _print_pure(matrix: MatrixGame, pure: list[tuple[int, int]]) -> None:
    if not pure:
        console.print("Pure Nash equilibria: none.")
        return
    table = Table(title="Pure Nash equilibria")
    for column in ("P1", "P2", "payoffs (P1, P2)"):
        table.add_column(column)
    for row, col in pure:
        table.add_row(
            matrix.row_names[row],
            matrix.col_names[col],
            f"{_number(matrix.A[row, col])}, {_number(matrix.B[row, col])}",
        )
    console.print(table)


def _print_mixed(matrix: MatrixGame, mixed: MixedEquilibrium | None, note: str | None) -> None:
    if mixed is None:
        console.print(f"Mixed equilibrium (2x2): none; {note}")
        return
    table = Table(title="Fully mixed equilibrium (indifference principle)")
    for column in ("player", "strategy", "expected payoff"):
        table.add_column(column)
    for player, names, strategy, payoff in (
        (1, matrix.row_names, mixed.row_strategy, mixed.row_payoff),
        (2, matrix.col_names, mixed.col_strategy, mixed.col_payoff),
    ):
        mix = ", ".join(f"{name} {_number(p)}" for name, p in zip(names, strategy, strict=True))
        table.add_row(f"P{player}", mix, _number(payoff))
    console.print(table)


def _print_zero_sum(matrix: MatrixGame, solution: ZeroSumSolution) -> None:
    console.print(f"Zero-sum game value (P1 per game): {_number(solution.value)}")
    _print_strategies(
        matrix, (solution.row_strategy, solution.col_strategy), title="Optimal (minimax) strategies"
    )


def _print_strategies(
    matrix: MatrixGame,
    strategies: tuple[FloatArray, FloatArray],
    *,
    title: str,
    fixed_player: int | None = None,
) -> None:
    labels = [
        f"P{player + 1}" + (" (fixed)" if player == fixed_player else "") for player in (0, 1)
    ]
    if matrix.row_names == matrix.col_names:
        table = Table(title=title)
        table.add_column("player")
        for name in matrix.row_names:
            table.add_column(name, justify="right")
        for label, strategy in zip(labels, strategies, strict=True):
            table.add_row(label, *(f"{p:.4f}" for p in strategy))
        console.print(table)
        return
    for label, names, strategy in zip(
        labels, (matrix.row_names, matrix.col_names), strategies, strict=True
    ):
        table = Table(title=f"{title}: {label}")
        for name in names:
            table.add_column(name, justify="right")
        table.add_row(*(f"{p:.4f}" for p in strategy))
        console.print(table)


# --------------------------------------------------------------------------------------
# regret-matching


def parse_strategy(text: str) -> FloatArray:
    """Parse ``"0.4,0.3,0.3"`` (fractions such as ``1/3`` allowed) into probabilities.

    Raises:
        StrategyError: if a part is not a number.
    """
    try:
        return np.array([float(Fraction(part.strip())) for part in text.split(",")])
    except (ValueError, ZeroDivisionError):
        raise StrategyError(
            f"--opponent must be probabilities separated by commas, like 0.4,0.3,0.3 or "
            f"1/3,1/3,1/3; got {text!r}"
        ) from None


def regret_matching_command(
    game: GameArgument,
    iterations: Annotated[
        int, typer.Option("--iterations", "-n", help="Iterations to run.", min=1)
    ] = 10_000,
    opponent: Annotated[
        str | None,
        typer.Option(
            "--opponent",
            help="A fixed strategy for the fixed player, e.g. 0.4,0.3,0.3 (default: self-play).",
        ),
    ] = None,
    fixed_player: Annotated[
        int,
        typer.Option(
            "--fixed-player",
            help="Who plays --opponent: 0 (P1, so P2 learns; the tutorial's setting) or 1.",
        ),
    ] = 0,
    sampled: Annotated[
        bool,
        typer.Option(
            "--sampled", help="Update regrets against sampled actions instead of mixed strategies."
        ),
    ] = False,
    seed: Annotated[
        int | None, typer.Option("--seed", min=0, help="Random seed (--sampled).")
    ] = None,
    json: JsonOption = False,
) -> None:
    """Run regret matching and print the final average and current strategies."""
    from pokerlab.solvers.regret_matching import RegretMatching

    matrix = _matrix_game(game)
    fixed = None if opponent is None else parse_strategy(opponent)
    solver = RegretMatching(
        matrix, opponent=fixed, fixed_player=fixed_player, sampled=sampled, seed=seed
    ).run(iterations=iterations)
    average, current = solver.average_vectors(), solver.current_vectors()
    if json:
        print_json(
            {
                "game": str(matrix.spec),
                "iterations": solver.iterations,
                "opponent": None if fixed is None else fixed,
                "fixed_player": None if fixed is None else fixed_player,
                "sampled": sampled,
                "seed": seed,
                "rows": list(matrix.row_names),
                "cols": list(matrix.col_names),
                "average_strategy": list(average),
                "current_strategy": list(current),
            }
        )
        return
    mode = "self-play" if fixed is None else f"P{fixed_player + 1} fixed"
    console.print(
        f"Regret matching on {matrix.describe()}: {mode}, "
        f"{plural(solver.iterations, 'iteration')}"
        + (", sampled" if sampled else "")
    )
    fixed_id = None if fixed is None else fixed_player
    _print_strategies(matrix, average, title="Average strategy", fixed_player=fixed_id)
    _print_strategies(matrix, current, title="Current strategy", fixed_player=fixed_id)
