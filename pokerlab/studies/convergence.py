"""Convergence curves: exploitability against iterations and seconds, per algorithm.

The data behind ``pokerlab plot convergence``: each solver is run with measurements every
few iterations (measurement time excluded from the seconds, see :class:`Solver`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from pokerlab._types import FloatArray, IntArray
from pokerlab.errors import SolverError
from pokerlab.games.base import Game
from pokerlab.games.registry import load
from pokerlab.solvers.base import SOLVERS, Progress, Solver, make_solver


@dataclass(frozen=True)
class ConvergenceCurve:
    """One algorithm's run.

    Attributes:
        algorithm: the solver's name (a key of ``pokerlab.solvers.SOLVERS``).
        iterations: iterations done at each measurement.
        seconds: solving time at each measurement, in seconds.
        exploitability: of the average strategy at each measurement, chips per hand.
    """

    algorithm: str
    iterations: IntArray
    seconds: FloatArray
    exploitability: FloatArray


def convergence_curves(
    game: Game,
    algorithms: Sequence[str],
    *,
    iterations: int,
    check_every: int | None = None,
    seed: int = 0,
    progress: Callable[[str, Progress], None] | None = None,
) -> list[ConvergenceCurve]:
    """Run each algorithm for ``iterations`` iterations and record its exploitability.

    Args:
        game: the game to solve.
        algorithms: names from ``pokerlab.solvers.SOLVERS`` (``"cfr+"``, ``"es-mccfr"``...).
        iterations: iterations per algorithm (sampling solvers count sampled iterations).
        check_every: iterations between measurements (default: about 30 per run).
        seed: seed of the sampling solvers (the deterministic ones take none).
        progress: called with the algorithm's name and each :class:`Progress`.

    Raises:
        SolverError: an unknown algorithm name (the message lists the known ones), a
            solver that solves in one step, or a game too big to measure.
    """
    unknown = [a for a in algorithms if a not in SOLVERS]
    if unknown:
        raise SolverError(f"unknown algorithm {unknown[0]!r}; known: {', '.join(SOLVERS)}")
    single = [a for a in algorithms if not SOLVERS[a].iterative]
    if single:
        raise SolverError(
            f"{single[0]} solves in one step, so it has no convergence curve; the iterative "
            f"solvers are {', '.join(a for a, cls in SOLVERS.items() if cls.iterative)}"
        )
    if iterations < 1:
        raise SolverError(f"iterations must be >= 1; got {iterations}")
    step = check_every or max(1, iterations // 30)
    curves = []
    for name in algorithms:
        warm_up(name)
        solver = _make(name, game, seed)
        callback = None if progress is None else (lambda p, n=name: progress(n, p))
        solver.run(iterations=iterations, check_every=step, callback=callback)
        rows = solver.history
        if any(r.exploitability is None for r in rows):
            raise SolverError(
                f"{game.spec} is too big to measure the exploitability; convergence curves "
                "need a game that compiles"
            )
        curves.append(
            ConvergenceCurve(
                algorithm=name,
                iterations=np.array([r.iteration for r in rows], dtype=np.int64),
                seconds=np.array([r.seconds for r in rows]),
                exploitability=np.array([r.exploitability for r in rows]),
            )
        )
    return curves


def warm_up(solver: str | type[Solver]) -> None:
    """Compile a solver's kernels (and the exploitability pass's) on 3-card Kuhn.

    numba compiles on first use (or loads its disk cache); doing that on a tiny game first
    keeps the one-off cost out of the solving time that is then measured. A solver that
    does not take Kuhn (regret matching: matrix games) has no kernels to warm.

    Args:
        solver: an algorithm name of :data:`~pokerlab.solvers.SOLVERS`, or its class.
    """
    name = solver if isinstance(solver, str) else solver.algorithm
    try:
        warm = _make(name, load("kuhn"), 0)
    except SolverError:
        return
    warm.run(iterations=2, check_every=1)


def _make(algorithm: str, game: Game, seed: int) -> Solver:
    """The solver, seeded if it samples."""
    sampling = SOLVERS[algorithm].sampling
    return make_solver(algorithm, game, seed=seed if sampling else None)
