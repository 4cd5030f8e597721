"""``pokerlab solve GAME --algorithm NAME --out FILE``: solve a game and save the strategy.

The algorithm names are the keys of :data:`pokerlab.solvers.SOLVERS` (``lp`` for the exact
sequence-form LP; iterative solvers add theirs). Stopping rules are passed to the solver's
``run`` when given (the LP ignores them). The saved file records the game, the algorithm,
the iterations, the exploitability and, for the LP, the game value.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from pokerlab.cli._common import console, load_game, print_json
from pokerlab.errors import SolverError
from pokerlab.solvers import SOLVERS
from pokerlab.solvers.base import Solver

GameArgument = Annotated[
    str, typer.Argument(help="A game: 'kuhn', 'leduc', 'leduc(stack=50, raise_cap=None)'.")
]
AlgorithmOption = Annotated[
    str, typer.Option("--algorithm", "-a", help="The solver (see pokerlab.solvers.SOLVERS).")
]
OutOption = Annotated[Path, typer.Option("--out", "-o", help="Where to save the strategy (.npz).")]
IterationsOption = Annotated[
    int | None, typer.Option("--iterations", help="Iterations to run (iterative solvers).")
]
TargetOption = Annotated[
    float | None,
    typer.Option("--target-exploitability", help="Stop at this exploitability (chips per hand)."),
]
SecondsOption = Annotated[float | None, typer.Option("--seconds", help="Stop after this long.")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print the result as JSON on stdout.")]


def register(app: typer.Typer) -> None:
    """Add the ``solve`` command to ``app``."""
    app.command("solve")(solve_command)


def make_solver(algorithm: str, game_text: str) -> Solver:
    """Build the solver named ``algorithm`` for the game ``game_text``.

    Raises:
        SolverError: if no solver has that name (the message lists the known ones).
    """
    factory = SOLVERS.get(algorithm)
    if factory is None:
        known = ", ".join(sorted(SOLVERS))
        raise SolverError(f"unknown algorithm {algorithm!r}; known: {known}")
    return factory(load_game(game_text))


def solve_command(
    game: GameArgument,
    out: OutOption,
    algorithm: AlgorithmOption = "lp",
    iterations: IterationsOption = None,
    target_exploitability: TargetOption = None,
    seconds: SecondsOption = None,
    json: JsonOption = False,
) -> None:
    """Solve GAME with --algorithm and save the average strategy to --out."""
    solver = make_solver(algorithm, game)
    rules: dict[str, Any] = {}
    if iterations is not None:
        rules["iterations"] = iterations
    if target_exploitability is not None:
        rules["target_exploitability"] = target_exploitability
    if seconds is not None:
        rules["seconds"] = seconds
    solver.run(**rules)
    exploitability = solver.history[-1].exploitability if solver.history else None
    value = getattr(solver, "value", None)
    strategy = solver.average_strategy().with_metadata(
        algorithm=algorithm,
        iterations=solver.iterations,
        seconds=solver.seconds,
        hyperparameters=solver.hyperparameters(),
        **({} if exploitability is None else {"exploitability": exploitability}),
        **({} if value is None else {"value": value}),
    )
    path = strategy.save(out)
    data: dict[str, Any] = {
        "game": str(solver.game.spec),
        "algorithm": algorithm,
        "iterations": solver.iterations,
        "seconds": solver.seconds,
        "exploitability": exploitability,
        "value": value,
        "out": str(path),
    }
    if json:
        print_json(data)
        return
    console.print(f"solved {solver.game.spec} with {algorithm} in {solver.seconds:.3f} s")
    console.print(f"iterations: {solver.iterations}")
    if value is not None:
        console.print(f"game value (P1): {value:.10f} chips per hand")
    if exploitability is not None:
        console.print(f"exploitability: {exploitability:.3e} chips per hand")
    console.print(f"saved to {path}")
