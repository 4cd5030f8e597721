"""``pokerlab solve rhode_island``: Rhode Island Hold'em by the range solver on its public tree.

The game (14.2 billion histories) does not compile, so ``pokerlab solve`` sends it here:
its size and the solver's memory are printed before anything large is allocated; the
public tree with suit isomorphism (:mod:`pokerlab.subgame.rhode_island`) is built;
Discounted CFR runs with a progress bar until a stopping rule holds, the exploitability
measured exactly (best responses by vectors over cards) every ``--check-every``
iterations. Ctrl-C (or SIGTERM) saves a checkpoint and prints the command that resumes
it; a long run also saves that checkpoint every 15 minutes, so a killed process loses
little. The summary gives the game value for P1 (with the exact bounds the two best
responses give), the exploitability, the time and the memory (the solver's arrays and
the process's peak). ``--out`` saves the solver's state (a range checkpoint: resumable,
and the average strategy for :class:`~pokerlab.subgame.rhode_island.RhodeIslandStrategy`).
"""

from __future__ import annotations

import resource
import shlex
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import typer

from pokerlab.cli._common import console, err_console, path_text, print_json
from pokerlab.cli._progress import format_bytes
from pokerlab.errors import SolverError

if TYPE_CHECKING:
    from pokerlab.games.rhode_island import RhodeIslandGame
    from pokerlab.subgame.range_solver import RangeSolver
    from pokerlab.subgame.rhode_island import RhodeIslandPublic

ALGORITHM = "public-tree"
"""The algorithm name ``pokerlab solve`` takes for games solved on their public tree."""

CHECKPOINT_SECONDS = 900.0
"""A running solve saves its checkpoint this often (seconds of wall time)."""


def peak_memory_bytes() -> int:
    """The peak resident memory of this process so far, in bytes (Linux: ru_maxrss in KiB)."""
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) * 1024


def solve_rhode_island(
    game: RhodeIslandGame,
    game_text: str,
    *,
    algorithm: str,
    out: Path | None,
    iterations: int | None,
    target_exploitability: float | None,
    seconds: float | None,
    check_every: int | None,
    resume: bool,
    checkpoint: Path | None,
    json: bool,
) -> None:
    """Solve a Rhode Island game on its public tree; print the summary; save to ``out``.

    Raises:
        SolverError: another algorithm than ``public-tree``, no stopping rule, or a
            checkpoint of another game.
    """
    from pokerlab.solvers.base import check_stopping_rules
    from pokerlab.solvers.run_console import Budget, run_to_budget
    from pokerlab.subgame.checkpoint import load_range_checkpoint, save_range_checkpoint
    from pokerlab.subgame.range_solver import RangeSolver
    from pokerlab.subgame.rhode_island import public_size, rhode_island_public_game

    if algorithm != ALGORITHM:
        raise SolverError(f"solve_rhode_island runs --algorithm {ALGORITHM}; got {algorithm}")
    if iterations is None and target_exploitability is None and seconds is None:
        raise SolverError(f"{ALGORITHM} needs a stopping rule: --iterations, "
                          "--target or --seconds")
    every = check_stopping_rules(iterations, target_exploitability, seconds, check_every)
    if check_every is None:
        every = max(1, min(every, 50))
    saved_at = checkpoint or (Path(f"solve-{ALGORITHM}.checkpoint.npz") if out is None
                              else out.with_name(out.stem + ".checkpoint.npz"))
    if resume and not saved_at.exists():
        raise SolverError(f"--resume: there is no checkpoint {saved_at} to resume; run "
                          "without --resume (or name it with --checkpoint)")
    size = public_size(game)
    err_console.print(f"{game.describe()}\n{game.size.describe()}\n{size.describe()}",
                      soft_wrap=True, markup=False, highlight=False)
    start = time.perf_counter()
    built = rhode_island_public_game(game)
    build_seconds = time.perf_counter() - start
    solver = (load_range_checkpoint(saved_at, game=built.public) if resume
              else RangeSolver(built.public))
    saved = False

    def save() -> None:
        nonlocal saved
        save_range_checkpoint(solver, saved_at)
        saved = True

    finished = run_to_budget(
        solver, Budget(iterations, seconds, target_exploitability),
        description=f"{ALGORITHM} on {solver.game.description}", check_every=every,
        save=save, save_every=CHECKPOINT_SECONDS, quiet=json,
    )
    if not finished:
        command = f"pokerlab solve {shlex.quote(game_text)} --algorithm {ALGORITHM}"
        for flag, value in (("--out", out), ("--iterations", iterations),
                            ("--target", target_exploitability),
                            ("--seconds", seconds), ("--check-every", check_every),
                            ("--checkpoint", checkpoint)):
            if value is not None:
                command += f" {flag} {shlex.quote(str(value))}"
        err_console.print(f"interrupted after {solver.iterations:,} iterations; checkpoint "
                          f"saved to {saved_at}", soft_wrap=True, markup=False,
                          highlight=False)
        err_console.print(f"resume with: {command} --resume",
                          soft_wrap=True, markup=False, highlight=False)
        raise typer.Exit(130)
    if saved or resume:
        saved_at.unlink(missing_ok=True)  # it belonged to this run, which is finished
    _report(built, solver, out=out, json=json, build_seconds=build_seconds)


def _report(built: RhodeIslandPublic, solver: RangeSolver, *, out: Path | None, json: bool,
            build_seconds: float) -> None:
    from pokerlab.subgame.checkpoint import save_range_checkpoint
    from pokerlab.subgame.rhode_island import symmetric_arrays

    game = built.game
    # The average strategy made exactly suit-symmetric (it is, up to rounding): the tree's
    # values are then the full game's, exactly.
    evaluation = solver.evaluate(symmetric_arrays(built, solver.average_arrays()))
    low, high = evaluation.value_bounds
    path = None if out is None else save_range_checkpoint(solver, out)
    tree = solver.game.tree
    data: dict[str, Any] = {
        "game": str(game.spec),
        "algorithm": ALGORITHM,
        "variant": solver.variant,
        "iterations": solver.iterations,
        "seconds": solver.seconds,
        "build_seconds": build_seconds,
        "exploitability": evaluation.exploitability,
        "last_check": solver.last_exploitability if solver.history else None,
        "value": evaluation.values[0],
        "values": list(evaluation.values),
        "value_bounds": [low, high],
        "p2_advantage": -evaluation.values[0],
        "public_nodes": tree.n_nodes,
        "rows": list(tree.n_rows),
        "memory_bytes": solver.game.memory_bytes(np.dtype(solver.dtype).itemsize),
        "peak_memory_bytes": peak_memory_bytes(),
        "out": None if path is None else str(path),
    }
    if json:
        print_json(data)
        return

    def line(text: str) -> None:
        console.print(text, soft_wrap=True, markup=False, highlight=False)

    line(f"solved {game.spec} with {ALGORITHM} ({solver.variant}) in {solver.seconds:.1f} s "
         f"(tree built in {build_seconds:.1f} s)")
    line(f"iterations: {solver.iterations:,}")
    line(f"game value (P1): {evaluation.values[0]:+.6f} chips per hand (exactly between "
         f"{low:+.6f} and {high:+.6f}); P2 advantage {-evaluation.values[0]:+.6f}")
    line(f"exploitability: {evaluation.exploitability:.3e} chips per hand (exact best "
         "responses to the average strategy, made exactly suit-symmetric)")
    line(f"public tree: {tree.n_nodes:,} nodes; solver arrays "
         f"{format_bytes(data['memory_bytes'])}, process peak "
         f"{format_bytes(data['peak_memory_bytes'])}")
    if path is not None:
        console.print(f"saved to {path_text(path)}")
    else:
        line("not saved (give --out FILE to save the solver's state)")


__all__ = ["ALGORITHM", "peak_memory_bytes", "solve_rhode_island"]
