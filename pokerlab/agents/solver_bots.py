"""Solver bots: CFR+ strategies after 1, 10, 100, 1,000 and 10,000 iterations.

Bots of graded strength for tournaments and studies. Each strategy is solved on first
use and cached on disk, keyed by the game spec and the iteration count, in the ``bots``
folder of the cache root (:func:`pokerlab._cache.cache_folder`: the ``cache_dir``
argument, else ``$POKERLAB_CACHE``, else ``~/.cache/pokerlab``). Files are written
atomically (a temporary file, then a rename), so concurrent builders never leave a
half-written strategy behind; a damaged or mismatched cache file is rebuilt.
"""

from __future__ import annotations

import contextlib
import hashlib
from pathlib import Path

from pokerlab._cache import cache_folder
from pokerlab.agents.policy_agent import PolicyAgent
from pokerlab.errors import FileFormatError, PokerlabError, StrategyError
from pokerlab.games import Game
from pokerlab.strategy import Strategy, tabulate

SOLVER_BOT_ITERATIONS: tuple[int, ...] = (1, 10, 100, 1_000, 10_000)
"""The iteration counts of the standard solver bots, weakest first."""

ALGORITHM = "cfr+"


def cache_path(game: Game, iterations: int, cache_dir: str | Path | None = None) -> Path:
    """The file holding the CFR+ strategy of ``game`` after ``iterations`` iterations."""
    spec = str(game.spec)
    digest = hashlib.sha256(spec.encode()).hexdigest()[:12]
    readable = "".join(c if c.isalnum() else "_" for c in spec).strip("_")[:40]
    return cache_folder("bots", cache_dir) / f"{readable}-{digest}-cfrplus-{iterations}.npz"


def solver_strategy(
    game: Game, iterations: int, *, cache_dir: str | Path | None = None
) -> Strategy:
    """Return CFR+'s average strategy after ``iterations`` iterations, from cache or solved.

    Raises:
        PokerlabError: if ``iterations`` is not a positive integer, or the game is too
            large to solve exactly.
    """
    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
        raise PokerlabError(f"iterations must be an integer >= 1; got {iterations!r}")
    path = cache_path(game, iterations, cache_dir)
    if path.exists():
        try:
            return Strategy.load(path, game=game)
        except (FileFormatError, StrategyError):
            pass  # damaged or stale: rebuild below
    from pokerlab.solvers import SOLVERS

    solver = SOLVERS[ALGORITHM](game)
    solver.run(iterations=iterations, check_every=iterations)
    strategy = tabulate(solver.average_strategy(), game).with_metadata(
        algorithm=ALGORITHM, iterations=iterations
    )
    with contextlib.suppress(OSError):  # a read-only cache only costs the next run a re-solve
        strategy.save(path)
    return strategy


def solver_bot(
    game: Game,
    iterations: int,
    *,
    cache_dir: str | Path | None = None,
    seed: int | None = None,
) -> PolicyAgent:
    """Return a :class:`PolicyAgent` playing CFR+ after ``iterations`` iterations.

    Example:
        >>> import tempfile
        >>> from pokerlab.games import kuhn
        >>> bot = solver_bot(kuhn(), 10, cache_dir=tempfile.mkdtemp())
        >>> bot.name
        'cfr+10'
    """
    strategy = solver_strategy(game, iterations, cache_dir=cache_dir)
    return PolicyAgent(strategy, seed=seed, name=f"cfr+{iterations}")


def solver_bots(
    game: Game,
    iterations: tuple[int, ...] = SOLVER_BOT_ITERATIONS,
    *,
    cache_dir: str | Path | None = None,
) -> list[PolicyAgent]:
    """Return one solver bot per iteration count, weakest first."""
    return [solver_bot(game, n, cache_dir=cache_dir) for n in iterations]


__all__ = [
    "SOLVER_BOT_ITERATIONS",
    "cache_path",
    "solver_bot",
    "solver_bots",
    "solver_strategy",
]
