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
from pokerlab.solvers.base import Progress, Solver


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
        seed: seed of the sampling solvers.
        progress: called with the algorithm's name and each :class:`Progress`.

    Raises:
        SolverError: an unknown algorithm name (the message lists the known ones).
    """
    from pokerlab.solvers import SOLVERS

    unknown = [a for a in algorithms if a not in SOLVERS]
    if unknown:
        raise SolverError(f"unknown algorithm {unknown[0]!r}; known: {', '.join(sorted(SOLVERS))}")
    if iterations < 1:
        raise SolverError(f"iterations must be >= 1; got {iterations}")
    step = check_every or max(1, iterations // 30)
    curves = []
    for name in algorithms:
        warm_up(SOLVERS[name])
        solver = _make(SOLVERS[name], game, seed)
        callback = None if progress is None else (lambda p, n=name: progress(n, p))
        solver.run(iterations=iterations, check_every=step, callback=callback)
        rows = solver.history
        curves.append(
            ConvergenceCurve(
                algorithm=name,
                iterations=np.array([r.iteration for r in rows], dtype=np.int64),
                seconds=np.array([r.seconds for r in rows]),
                exploitability=np.array([r.exploitability for r in rows]),
            )
        )
    return curves


def warm_up(factory: type[Solver]) -> None:
    """Compile a solver's kernels (and the exploitability pass's) on 3-card Kuhn.

    numba compiles on first use (or loads its disk cache); doing that on a tiny game first
    keeps the one-off cost out of the solving time that is then measured.
    """
    _make(factory, load("kuhn"), 0).run(iterations=2, check_every=1)


def _make(factory: type[Solver], game: Game, seed: int) -> Solver:
    try:
        return factory(game, seed=seed)  # type: ignore[call-arg]
    except TypeError:
        return factory(game)
