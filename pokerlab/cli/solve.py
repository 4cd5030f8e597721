"""``pokerlab solve GAME --algorithm NAME [--out FILE]``: solve a game, print and save the result.

The algorithm names are the keys of :data:`pokerlab.solvers.SOLVERS`. Stopping rules are
passed to the solver, which honours or refuses them (the LP, exact in one step, takes
none). The summary gives the iterations, the exploitability where it can be measured,
each seat's value, and, for games too big to compile (Hold'em), the infosets met and the
memory. With ``--out`` the average strategy is saved (a strategy file where the game
compiles, an infoset table otherwise), recording the game, the algorithm, the iterations,
the exploitability and the values.

The solvers (numba kernels, scipy) are imported when the command runs, not when it is
declared, so that ``pokerlab --help`` stays fast.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from pokerlab.cli._common import (
    GameArgument,
    check_output_path,
    console,
    err_console,
    load_game,
    print_json,
)
from pokerlab.cli._progress import format_bytes
from pokerlab.errors import SolverError

if TYPE_CHECKING:
    from pokerlab.solvers.base import Solver
    from pokerlab.strategy import InfosetTable, Strategy

AlgorithmOption = Annotated[
    str | None,
    typer.Option(
        "--algorithm",
        "-a",
        help="The solver (listed above; default lp, or public-tree for rhode_island).",
    ),
]
OutOption = Annotated[
    Path | None,
    typer.Option(
        "--out", "-o", help="Save the strategy to this .npz file (deep-cfr: or its network, .pt)."
    ),
]
IterationsOption = Annotated[
    int | None, typer.Option("--iterations", help="Stop at this many iterations in all.")
]
TargetOption = Annotated[
    float | None,
    typer.Option("--target", help="Stop at this exploitability (chips per hand)."),
]
OldTargetOption = Annotated[
    float | None,
    typer.Option("--target-exploitability", hidden=True, help="The old name of --target."),
]
SecondsOption = Annotated[
    float | None, typer.Option("--seconds", help="Stop after this much solving time in all.")
]
CheckEveryOption = Annotated[
    int | None, typer.Option("--check-every", help="Iterations between checks.")
]
SeedOption = Annotated[int | None, typer.Option("--seed", help="Seed of a sampling solver.")]
ResumeOption = Annotated[
    bool, typer.Option("--resume", help="Continue the interrupted run of --out from its "
                       "checkpoint.")
]
CheckpointOption = Annotated[
    Path | None,
    typer.Option("--checkpoint", help="The checkpoint file (default: beside --out, "
                 "OUT.checkpoint.npz, or solve-ALGORITHM.checkpoint.npz here)."),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print the result as JSON.")]


def register(app: typer.Typer) -> None:
    """Add the ``solve`` command to ``app``."""
    app.command("solve")(solve_command)


def make_solver(algorithm: str, game_text: str, *, seed: int | None = None) -> Solver:
    """Build the solver named ``algorithm`` for the game ``game_text``.

    Raises:
        SolverError: an unknown algorithm (the message lists the known ones), or a seed
            for a deterministic solver.
    """
    from pokerlab.solvers import make_solver as build

    if seed is not None and seed < 0:
        raise SolverError(f"--seed must be an integer >= 0; got {seed}")
    return build(algorithm, load_game(game_text), seed=seed)




def _values(solver: Solver) -> tuple[float, ...] | None:
    """Each seat's value of the average strategy (chips per hand), where it can be computed."""
    if not solver.can_measure:
        return None
    from pokerlab.eval import expected_value
    from pokerlab.strategy import tabulate

    return expected_value(solver.game, tabulate(solver.average_strategy(), solver.game))


def solve_command(
    game: GameArgument,
    out: OutOption = None,
    algorithm: AlgorithmOption = None,
    iterations: IterationsOption = None,
    target: TargetOption = None,
    seconds: SecondsOption = None,
    check_every: CheckEveryOption = None,
    seed: SeedOption = None,
    resume: ResumeOption = False,
    checkpoint: CheckpointOption = None,
    json: JsonOption = False,
    target_exploitability: OldTargetOption = None,
) -> None:
    """Solve GAME with --algorithm; print the summary; save it to --out.

    Iterative solvers need a stopping rule and show a progress bar;
    --iterations and --seconds (wall-clock) count from the start of the run,
    resumed runs included. Ctrl-C saves a checkpoint within a second (beside
    --out, or solve-ALGORITHM.checkpoint.npz here) and prints the command that
    resumes it (--resume), which ends where an uninterrupted run would have.
    Games too big to compile (Hold'em) are solved by the Monte Carlo solvers
    walking their states, without measuring exploitability.

    \b
    Algorithms: cfr, cfr+, lcfr, dcfr (the CFR family); lp (exact, HiGHS);
    cs-mccfr, es-mccfr, os-mccfr (Monte Carlo CFR);
    deep-cfr (Deep CFR, needs pokerlab[deep]; --out X.pt saves its network);
    regret-matching (matrix games); public-tree (Rhode Island Hold'em: the
    range solver on its public tree, the default for rhode_island);
    q-learning (tabular self-play Q-learning, not an equilibrium solver).
    """
    from pokerlab.games import RhodeIslandGame
    from pokerlab.solvers import SOLVERS
    from pokerlab.solvers.base import Solver, check_stopping_rules
    from pokerlab.solvers.run_console import Budget, run_to_budget

    if target is None:
        target = target_exploitability
    the_game = load_game(game)
    if isinstance(the_game, RhodeIslandGame) and algorithm in (None, "public-tree"):
        from pokerlab.cli.solve_public import ALGORITHM, solve_rhode_island

        if out is not None:
            check_output_path(out)
        if seed is not None:
            raise SolverError(f"{ALGORITHM} is deterministic and takes no --seed")
        solve_rhode_island(
            the_game, game, algorithm=algorithm or ALGORITHM, out=out, iterations=iterations,
            target_exploitability=target, seconds=seconds,
            check_every=check_every, resume=resume, checkpoint=checkpoint, json=json,
        )
        return
    algorithm = algorithm or "lp"

    if out is not None:
        check_output_path(out)
    saved_at = checkpoint or (
        Path(f"solve-{algorithm}.checkpoint.npz")
        if out is None
        else out.with_name(out.stem + ".checkpoint.npz")
    )
    if resume:
        if not saved_at.exists():
            raise SolverError(f"--resume: there is no checkpoint {saved_at} to resume; run "
                              "without --resume (or name it with --checkpoint)")
        solver = Solver.load_checkpoint(saved_at, game=load_game(game))
        if SOLVERS.get(algorithm) is not type(solver):
            raise SolverError(
                f"{saved_at} is a checkpoint of {type(solver).__name__}, not of --algorithm "
                f"{algorithm}; resume with the algorithm that wrote it"
            )
    else:
        solver = make_solver(algorithm, game, seed=seed)
    _check_out_suffix(solver, out)
    if not solver.iterative:
        solver.run(
            iterations=iterations,
            target_exploitability=target,
            seconds=seconds,
            check_every=check_every,
        )
    else:
        if iterations is None and target is None and seconds is None:
            raise SolverError(
                f"{algorithm} needs a stopping rule: --iterations, --target or --seconds"
            )
        check_stopping_rules(iterations, target, seconds, check_every)
        if target is not None and not solver.can_measure:
            raise SolverError(
                f"--target needs the exploitability, which cannot be measured "
                f"on {solver.game.spec} (too big to compile); stop by --iterations or --seconds"
            )
        step = check_every or (max(1, iterations // 20) if iterations else 10)
        finished = run_to_budget(
            solver,
            Budget(iterations, seconds, target),
            description=f"{solver.algorithm} on {solver.game.spec}",
            check_every=step,
            save=lambda: solver.save_checkpoint(saved_at),
            value=lambda: _values(solver),
            quiet=json,
        )
        if not finished:
            _print_resume(game, algorithm, out, checkpoint, solver.iterations, saved_at, {
                "--iterations": iterations,
                "--target": target,
                "--seconds": seconds,
                "--check-every": check_every,
                "--seed": seed,
            })
            raise typer.Exit(130)
        if resume:
            saved_at.unlink(missing_ok=True)  # the run it belonged to is finished
    _report(solver, algorithm, out, json=json)


def _check_out_suffix(solver: Solver, out: Path | None) -> None:
    """Refuse ``--out X.pt`` for a solver without a network policy (before solving)."""
    from pokerlab.solvers.deep_cfr import DeepCFR

    if out is not None and out.suffix == ".pt" and not isinstance(solver, DeepCFR):
        raise SolverError(
            f"--out {out}: a .pt file holds a network policy, which only deep-cfr makes; "
            f"give {solver.algorithm} a .npz file name"
        )


def _print_resume(
    game: str,
    algorithm: str,
    out: Path | None,
    named: Path | None,
    done: int,
    checkpoint: Path,
    flags: dict[str, object],
) -> None:
    command = f"pokerlab solve {shlex.quote(game)} --algorithm {algorithm}"
    if out is not None:
        command += f" --out {shlex.quote(str(out))}"
    for flag, value in flags.items():
        if value is not None:
            command += f" {flag} {value}"
    if named is not None:
        command += f" --checkpoint {shlex.quote(str(named))}"
    command += " --resume"
    # Paths must not be wrapped mid-path: printed as they are, one line each.
    err_console.print(
        f"interrupted after {done:,} iterations; checkpoint saved to {checkpoint}",
        soft_wrap=True,
        markup=False,
        highlight=False,
    )
    err_console.print(f"resume with: {command}", soft_wrap=True, markup=False, highlight=False)


def _chips(value: float) -> str:
    """Chips per hand with 10 decimals; a value that rounds to zero is printed as 0."""
    text = f"{value:.10f}"
    return "0" if float(text) == 0.0 else text


def _report(solver: Solver, algorithm: str, out: Path | None, *, json: bool) -> None:
    """Print the summary (or JSON), and save the strategy when --out was given."""
    exploitability = solver.history[-1].exploitability if solver.history else None
    values = _values(solver)
    n_players = solver.game.n_players
    metadata: dict[str, Any] = {
        "algorithm": algorithm,
        "iterations": solver.iterations,
        "seconds": solver.seconds,
        "wall_seconds": solver.wall_seconds,
        "hyperparameters": solver.hyperparameters(),
    }
    if exploitability is not None:
        metadata["exploitability"] = exploitability
    if values is not None:
        metadata["value"] = values[0]
        metadata["values"] = list(values)
    path: Path | None = None
    if out is not None and out.suffix == ".pt":
        from pokerlab.solvers.deep_cfr import DeepCFR

        assert isinstance(solver, DeepCFR)  # checked by _check_out_suffix
        network = solver.policy()
        network.metadata.update(metadata)
        path = network.save(out)
    elif out is not None:
        strategy: Strategy | InfosetTable = solver.average_strategy().with_metadata(**metadata)
        path = strategy.save(out)
    data: dict[str, Any] = {
        "game": str(solver.game.spec),
        "algorithm": algorithm,
        "iterations": solver.iterations,
        "seconds": solver.seconds,
        "exploitability": exploitability,
        "value": None if values is None else values[0],
        "values": None if values is None else list(values),
        "p2_advantage": None if values is None or n_players != 2 else 0.0 - values[0],
        "infosets": solver.infosets_touched(),
        "memory_bytes": solver.memory_bytes(),
        "wall_seconds": solver.wall_seconds,
        "compile_seconds": solver.compile_seconds,
        "out": None if path is None else str(path),
    }
    if json:
        print_json(data)
        return

    def line(text: str) -> None:
        console.print(text, soft_wrap=True, markup=False, highlight=False)

    line(f"solved {solver.game.spec} with {algorithm} in {solver.seconds:.3f} s")
    if solver.compile_seconds >= 0.05:
        line(f"compiled kernels in {solver.compile_seconds:.1f} s first (not solving time; "
             "cached for the next runs)")
    line(f"iterations: {solver.iterations:,}")
    if values is not None:
        if n_players == 2:
            line(
                f"game value (P1): {_chips(values[0])} chips per hand; P2 advantage "
                f"{_chips(-values[0])}"
            )
        else:
            seats = ", ".join(f"P{p + 1} {_chips(v)}" for p, v in enumerate(values))
            line(f"values per seat (chips per hand): {seats}")
    if exploitability is not None:
        line(f"exploitability: {exploitability:.3e} chips per hand")
    elif not solver.can_measure:
        line("exploitability: not measured (the game is too big to compile)")
    infosets = solver.infosets_touched()
    if infosets is not None:
        line(f"infosets: {infosets:,}; memory {format_bytes(solver.memory_bytes())}")
    if path is not None:
        line(f"saved to {path}")
    else:
        line("not saved (give --out FILE to save the strategy)")
