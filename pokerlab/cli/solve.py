"""``pokerlab solve GAME --algorithm NAME --out FILE``: solve a game and save the strategy.

The algorithm names are the keys of :data:`pokerlab.solvers.SOLVERS` (``lp`` for the exact
sequence-form LP; iterative solvers add theirs). Stopping rules are passed to the solver's
``run`` when given (the LP ignores them). The saved file records the game, the algorithm,
the iterations, the exploitability and, for the LP, the game value.
"""

from __future__ import annotations

import inspect
import shlex
import signal
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer

from pokerlab.cli._common import check_output_path, console, err_console, load_game, print_json
from pokerlab.cli._progress import solver_progress
from pokerlab.errors import SolverError
from pokerlab.eval import expected_value
from pokerlab.solvers import SOLVERS
from pokerlab.solvers.base import Solver, check_stopping_rules

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
CheckEveryOption = Annotated[
    int | None, typer.Option("--check-every", help="Iterations between exploitability checks.")
]
SeedOption = Annotated[int | None, typer.Option("--seed", min=0, help="Seed of sampling solvers.")]
ResumeOption = Annotated[
    Path | None, typer.Option("--resume", help="A checkpoint written by an interrupted run.")
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print the result as JSON on stdout.")]


def register(app: typer.Typer) -> None:
    """Add the ``solve`` command to ``app``."""
    app.command("solve")(solve_command)


def make_solver(algorithm: str, game_text: str, *, seed: int | None = None) -> Solver:
    """Build the solver named ``algorithm`` for the game ``game_text``.

    Sampling solvers get ``seed``; deterministic ones ignore it.

    Raises:
        SolverError: if no solver has that name (the message lists the known ones).
    """
    factory = SOLVERS.get(algorithm)
    if factory is None:
        known = ", ".join(sorted(SOLVERS))
        raise SolverError(f"unknown algorithm {algorithm!r}; known: {known}")
    game = load_game(game_text)
    if seed is not None and "seed" in inspect.signature(factory).parameters:
        return factory(game, seed=seed)  # type: ignore[call-arg]
    return factory(game)


class _Interrupt:
    """Turns Ctrl-C into a flag checked between chunks of iterations (never mid-iteration)."""

    def __init__(self) -> None:
        self.requested = False
        self._previous: Any = None

    def __enter__(self) -> _Interrupt:
        self._previous = signal.signal(signal.SIGINT, self._handle)
        return self

    def _handle(self, signum: int, frame: object) -> None:
        self.requested = True

    def __exit__(self, *exc: object) -> None:
        signal.signal(signal.SIGINT, self._previous)


def _run_with_checkpoints(
    solver: Solver,
    *,
    iterations: int | None,
    target_exploitability: float | None,
    seconds: float | None,
    check_every: int,
    checkpoint: Path,
    quiet: bool,
) -> bool:
    """Run in chunks of ``check_every`` iterations; return False if interrupted (checkpointed).

    ``iterations`` counts from the solver's start, so a resumed run stops where the
    uninterrupted one would have.
    """
    remaining_seconds = seconds
    with (
        _Interrupt() as interrupt,
        solver_progress(
            f"{solver.algorithm} on {solver.game.spec}",
            total=iterations,
            target=target_exploitability,
            value=lambda: expected_value(solver.game, solver.average_strategy())[0],
            disable=quiet,
        ) as bar,
    ):
        while True:
            if iterations is not None and solver.iterations >= iterations:
                return True
            if (
                target_exploitability is not None
                and solver.history
                and (solver.history[-1].exploitability <= target_exploitability)
            ):
                return True
            if remaining_seconds is not None and remaining_seconds <= 0:
                return True
            step = check_every
            if iterations is not None:
                step = min(step, iterations - solver.iterations)
            before = solver.seconds
            solver.run(
                iterations=step,
                check_every=step,
                callback=lambda p: bar(replace(p, target_iterations=iterations)),
            )
            if remaining_seconds is not None:
                remaining_seconds -= solver.seconds - before
            if interrupt.requested:
                solver.save_checkpoint(checkpoint)
                return False


def solve_command(
    game: GameArgument,
    out: OutOption,
    algorithm: AlgorithmOption = "lp",
    iterations: IterationsOption = None,
    target_exploitability: TargetOption = None,
    seconds: SecondsOption = None,
    check_every: CheckEveryOption = None,
    seed: SeedOption = None,
    resume: ResumeOption = None,
    json: JsonOption = False,
) -> None:
    """Solve GAME with --algorithm and save the average strategy to --out.

    Iterative solvers show a progress bar; Ctrl-C saves a checkpoint beside --out and
    prints the command that resumes it (``--resume``), which ends exactly where an
    uninterrupted run would have. --iterations counts from the start of the run.
    """
    check_output_path(out)
    if resume is not None:
        solver = Solver.load_checkpoint(resume, game=load_game(game))
        if solver.algorithm != algorithm and SOLVERS.get(algorithm) is not type(solver):
            raise SolverError(
                f"{resume} is a checkpoint of {type(solver).__name__}, not of --algorithm "
                f"{algorithm}; resume with the algorithm that wrote it"
            )
    else:
        solver = make_solver(algorithm, game, seed=seed)
    if algorithm == "lp" or solver.algorithm == "lp":
        solver.run()
    else:
        if iterations is None and target_exploitability is None and seconds is None:
            raise SolverError(
                f"{algorithm} needs a stopping rule: --iterations, --target-exploitability "
                "or --seconds"
            )
        check_stopping_rules(iterations, target_exploitability, seconds, check_every)
        checkpoint = out.with_name(out.stem + ".checkpoint.npz")
        step = check_every or (max(1, iterations // 20) if iterations else 10)
        finished = _run_with_checkpoints(
            solver,
            iterations=iterations,
            target_exploitability=target_exploitability,
            seconds=seconds,
            check_every=step,
            checkpoint=checkpoint,
            quiet=json,
        )
        if not finished:
            command = f"pokerlab solve {shlex.quote(game)} --algorithm {algorithm} --out {out}"
            for flag, value in (
                ("--iterations", iterations),
                ("--target-exploitability", target_exploitability),
                ("--check-every", check_every),
                ("--seed", seed),
            ):
                if value is not None:
                    command += f" {flag} {value}"
            err_console.print(
                f"interrupted after {solver.iterations:,} iterations; checkpoint saved to "
                f"{checkpoint}\nresume with: {command} --resume {checkpoint}",
                soft_wrap=True,
            )
            raise typer.Exit(130)
        if resume is not None and resume.resolve() == checkpoint.resolve():
            checkpoint.unlink(missing_ok=True)  # the run it belonged to is finished
    exploitability = solver.history[-1].exploitability if solver.history else None
    value = getattr(solver, "value", None)
    if value is None and algorithm != "lp":
        value = expected_value(solver.game, solver.average_strategy())[0]
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
        "p2_advantage": None if value is None else -value,
        "out": str(path),
    }
    if json:
        print_json(data)
        return
    console.print(f"solved {solver.game.spec} with {algorithm} in {solver.seconds:.3f} s")
    console.print(f"iterations: {solver.iterations:,}")
    if value is not None:
        console.print(f"game value (P1): {value:.10f} chips per hand; P2 advantage {-value:.10f}")
    if exploitability is not None:
        console.print(f"exploitability: {exploitability:.3e} chips per hand")
    console.print(f"saved to {path}")
