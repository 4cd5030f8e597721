"""The range solver on Kuhn and Leduc as a pokerlab :class:`~pokerlab.solvers.Solver`.

:class:`PublicTreeCFR` runs Discounted CFR (or CFR+) on the public tree of a Kuhn or
Leduc game (:mod:`pokerlab.subgame.classic`) and answers as every pokerlab solver does:
``run``, ``average_strategy`` (a :class:`~pokerlab.strategy.Strategy` of the compiled
tree), ``history``, checkpoints. It is not in :data:`pokerlab.solvers.SOLVERS` (that
registry belongs to the solvers layer, left of this one); its checkpoints are range
checkpoints (:mod:`pokerlab.subgame.checkpoint`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from pokerlab.errors import SolverError
from pokerlab.games import Game, GameSpec, load
from pokerlab.solvers.base import Solver
from pokerlab.strategy import Strategy
from pokerlab.subgame.checkpoint import load_range_checkpoint, save_range_checkpoint
from pokerlab.subgame.classic import merged_probs, public_game, to_strategy
from pokerlab.subgame.range_solver import RangeSolver


class PublicTreeCFR(Solver):
    """The range solver on Kuhn or Leduc, as a pokerlab :class:`~pokerlab.solvers.Solver`.

    Discounted CFR (or CFR+) over the public tree with vectors over the private cards; the
    average strategy is a :class:`Strategy` of the compiled tree, and exploitability is
    measured by the vectorized best response on that same (infoset-merged) strategy.

    Args:
        game: a two-player Kuhn or Leduc game.
        variant: ``"dcfr"`` (default), ``"cfr+"`` or ``"cfr"``.
        alpha: DCFR's positive-regret exponent.
        beta: DCFR's negative-regret exponent.
        gamma: DCFR's averaging exponent.

    Example:
        >>> from pokerlab.games import leduc
        >>> solver = PublicTreeCFR(leduc()).run(target_exploitability=1e-2)
        >>> solver.history[-1].exploitability <= 1e-2
        True
    """

    algorithm: ClassVar[str] = "public-tree"

    def __init__(self, game: Game, *, variant: str = "dcfr", alpha: float = 1.5,
                 beta: float = 0.0, gamma: float = 2.0) -> None:
        super().__init__(game)
        self.classic = public_game(game)
        self.range_solver = RangeSolver(self.classic.public, variant=variant, alpha=alpha,
                                        beta=beta, gamma=gamma)

    def hyperparameters(self) -> dict[str, Any]:
        """The hyper-parameters as given, JSON-ready."""
        solver = self.range_solver
        return {"variant": solver.variant, "alpha": solver.alpha, "beta": solver.beta,
                "gamma": solver.gamma}

    def _iterate(self) -> None:
        self._advance(1)

    def _advance(self, count: int) -> None:
        # The iteration count lives here (checkpoints restore it after the arrays).
        self.range_solver.iterations = self.iterations
        self.range_solver._advance(count)
        self.iterations = self.range_solver.iterations

    def _metadata(self, kind: str) -> dict[str, Any]:
        return {"algorithm": self.algorithm, "strategy": kind, "iterations": self.iterations,
                "hyperparameters": self.hyperparameters()}

    def average_strategy(self) -> Strategy:
        """The average strategy (strategy sums merged per infoset, normalized)."""
        return to_strategy(self.classic, self.range_solver._sums, self._metadata("average"))

    def current_strategy(self) -> Strategy:
        """The current strategy (regret matching), averaged over the pairs of an infoset."""
        return to_strategy(self.classic, self.range_solver.current_arrays(),
                           self._metadata("current"))

    def _measure(self) -> float:
        flat = merged_probs(self.classic, self.range_solver._sums)
        index = self.classic.flat_index
        return self.range_solver.exploitability((flat[index[0]], flat[index[1]]))

    def _state(self) -> dict[str, Any]:
        return dict(self.range_solver.state())

    def _restore(self, state: dict[str, Any]) -> None:
        self.range_solver.restore(state, iterations=0, seconds=0.0, history=[])

    def save_checkpoint(self, path: str | Path) -> Path:
        """Write everything needed to resume exactly to ``path``, atomically."""
        self.range_solver.restore_clock(self.clock_header(), "the solver")
        return save_range_checkpoint(self.range_solver, path)

    @classmethod
    def load_checkpoint(cls, path: str | Path, *, game: Game | None = None) -> PublicTreeCFR:
        """Rebuild the solver saved by :meth:`save_checkpoint`.

        Raises:
            FileFormatError: a missing or damaged file, or not a range checkpoint.
            SolverError: if ``game`` is given and the checkpoint is of another game.
        """
        saved = load_range_checkpoint(path)
        spec = saved.game.source.get("game")
        if not isinstance(spec, dict):
            raise SolverError(f"{str(path)!r} is a checkpoint of {saved.game.description}, not "
                              "of a Kuhn or Leduc game")
        file_game = load(GameSpec.from_dict(spec))
        if game is not None and game != file_game:
            raise SolverError(f"{str(path)!r} is a checkpoint of {saved.game.description}, "
                              f"not of {game.spec}")
        solver = cls(file_game, **saved.hyperparameters())
        solver.range_solver.restore(saved.state(), iterations=saved.iterations,
                                    seconds=saved.seconds, history=saved.history,
                                    wall_seconds=saved.wall_seconds)
        solver.restore_clock(saved.clock_header(), repr(str(path)))
        return solver


__all__ = ["PublicTreeCFR"]
