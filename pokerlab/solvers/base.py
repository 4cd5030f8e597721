"""The Solver interface every equilibrium solver shares.

``solver = CFRPlus(game)``; ``solver.run(iterations=1000)`` (cumulative, returns
``self``); ``solver.average_strategy()`` and ``solver.current_strategy()`` (copies);
``solver.iterations``; ``solver.history`` (``(iteration, seconds, exploitability)`` rows);
``solver.save_checkpoint(path)`` and ``Solver.load_checkpoint(path)`` resume exactly.

Hyper-parameters are keyword-only, stored as given and validated in ``__init__`` (the
scikit-learn contract, adapted: we validate early because there is no ``set_params``).
"""

from __future__ import annotations

import math
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Self

from pokerlab._types import FloatArray
from pokerlab.errors import SolverError
from pokerlab.games.base import Game
from pokerlab.strategy import Strategy


@dataclass(frozen=True)
class HistoryRow:
    """One measurement during a run.

    Attributes:
        iteration: iterations done when measured.
        seconds: solving time so far (measurement time excluded), in seconds.
        exploitability: of the average strategy, in chips per hand (NashConv / players).
    """

    iteration: int
    seconds: float
    exploitability: float


@dataclass(frozen=True)
class Progress:
    """What a ``run`` callback receives after each check."""

    iteration: int
    seconds: float
    exploitability: float | None
    target_iterations: int | None


Callback = Callable[[Progress], None]


_TIME_SLICE = 0.1
"""With a time budget, iterations run in batches of about this many seconds."""


def check_stopping_rules(
    iterations: int | None,
    target_exploitability: float | None,
    seconds: float | None,
    check_every: int | None,
) -> int:
    """Validate ``run()``'s stopping rules and return the resolved ``check_every``.

    Raises:
        SolverError: if no stopping rule is given, or one is out of range.
    """
    if iterations is None and target_exploitability is None and seconds is None:
        raise SolverError(
            "run() needs a stopping rule: iterations=, target_exploitability= or seconds="
        )
    if iterations is not None and (
        isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1
    ):
        raise SolverError(f"iterations must be an integer >= 1; got {iterations!r}")
    if target_exploitability is not None and not target_exploitability > 0:
        raise SolverError(
            f"target_exploitability must be > 0 (chips per hand); got {target_exploitability!r}"
        )
    if seconds is not None and not seconds > 0:
        raise SolverError(f"seconds must be > 0; got {seconds!r}")
    if check_every is None:
        check_every = max(1, iterations // 10) if iterations else 10
    if isinstance(check_every, bool) or not isinstance(check_every, int) or check_every < 1:
        raise SolverError(f"check_every must be an integer >= 1; got {check_every!r}")
    return check_every


class Solver(ABC):
    """Base class of the solvers: the run loop, the stopping rules, the history.

    Subclasses implement :meth:`_iterate` (one iteration), :meth:`average_strategy`,
    :meth:`current_strategy`, and the checkpoint state (:meth:`_state` / :meth:`_restore`).
    """

    algorithm: ClassVar[str] = "solver"

    def __init__(self, game: Game) -> None:
        self.game = game
        self.iterations = 0
        self.history: list[HistoryRow] = []
        self._seconds = 0.0

    # -- to implement -------------------------------------------------------------------
    @abstractmethod
    def _iterate(self) -> None:
        """Do one iteration (``self.iterations`` is advanced by the caller)."""

    def _advance(self, count: int) -> None:
        """Do ``count`` iterations and count them in :attr:`iterations`.

        Solvers that batch iterations in compiled code override it.
        """
        for _ in range(count):
            self._iterate()
            self.iterations += 1

    @abstractmethod
    def average_strategy(self) -> Strategy:
        """The average strategy so far (a copy): the one that converges to equilibrium."""

    @abstractmethod
    def current_strategy(self) -> Strategy:
        """The strategy the next iteration will play (a copy)."""

    def hyperparameters(self) -> dict[str, Any]:
        """The hyper-parameters as given, JSON-ready (recorded in files)."""
        return {}

    def _measure(self) -> float:
        """The exploitability of the average strategy (chips per hand)."""
        from pokerlab.eval import exploitability

        return exploitability(self.game, self.average_strategy())

    # -- the loop -----------------------------------------------------------------------
    def run(
        self,
        *,
        iterations: int | None = None,
        target_exploitability: float | None = None,
        seconds: float | None = None,
        check_every: int | None = None,
        callback: Callback | None = None,
    ) -> Self:
        """Iterate until one of the stopping rules holds; cumulative over calls.

        Args:
            iterations: how many more iterations to run.
            target_exploitability: stop once the average strategy's exploitability (chips
                per hand) is at most this; measured every ``check_every`` iterations.
            seconds: stop after about this much more solving time.
            check_every: iterations between measurements (default: 10% of ``iterations``,
                or 10); each measurement is appended to :attr:`history`.
            callback: called with a :class:`Progress` after every measurement.

        Returns:
            ``self``, for chaining.

        Raises:
            SolverError: if no stopping rule is given, or one is out of range.
        """
        check_every = check_stopping_rules(iterations, target_exploitability, seconds, check_every)
        start_iterations = self.iterations
        spent_at_start = self._seconds
        target_iterations = None if iterations is None else start_iterations + iterations
        per_iteration = math.inf  # seconds, measured on the last batch
        while True:
            done_count = self.iterations - start_iterations
            if iterations is not None and done_count >= iterations:
                break
            spent = self._seconds - spent_at_start
            if seconds is not None and spent >= seconds:
                break
            # Run up to the next measurement in one batch (one compiled call for the
            # sampling solvers); with a time budget, in slices of about _TIME_SLICE.
            batch = check_every - self.iterations % check_every
            if iterations is not None:
                batch = min(batch, iterations - done_count)
            if seconds is not None:
                budget = min(seconds - spent, _TIME_SLICE)
                batch = min(batch, max(1, int(budget / per_iteration)))
            tick = time.perf_counter()
            self._advance(batch)
            elapsed = time.perf_counter() - tick
            self._seconds += elapsed
            per_iteration = max(elapsed, 1e-9) / batch
            done = target_iterations is not None and self.iterations >= target_iterations
            if self.iterations % check_every == 0 or done:
                value = self._measure()
                self.history.append(HistoryRow(self.iterations, self._seconds, value))
                if callback is not None:
                    callback(Progress(self.iterations, self._seconds, value, target_iterations))
                if target_exploitability is not None and value <= target_exploitability:
                    break
        return self

    @property
    def seconds(self) -> float:
        """Total solving time so far, measurements excluded, in seconds."""
        return self._seconds

    # -- checkpoints ----------------------------------------------------------------------
    def _state(self) -> dict[str, Any]:
        """Arrays and values that, restored, make the next iteration identical."""
        raise SolverError(f"{type(self).__name__} does not support checkpoints")

    def _restore(self, state: dict[str, Any]) -> None:
        raise SolverError(f"{type(self).__name__} does not support checkpoints")

    def save_checkpoint(self, path: str | Path) -> Path:
        """Write everything needed to resume exactly, atomically."""
        from pokerlab.solvers.checkpoint import save_checkpoint

        return save_checkpoint(self, path)

    @classmethod
    def load_checkpoint(cls, path: str | Path, *, game: Game | None = None) -> Solver:
        """Rebuild a solver from a checkpoint; the next iteration is the one it would have run."""
        from pokerlab.solvers.checkpoint import load_checkpoint

        solver = load_checkpoint(path, game=game)
        if cls is not Solver and not isinstance(solver, cls):
            raise SolverError(
                f"{str(path)!r} is a checkpoint of {type(solver).__name__}, not {cls.__name__}"
            )
        return solver


class RegretSolver(Solver):
    """A solver that keeps regrets and strategy sums as ``[n_infosets, max_actions]`` arrays.

    The CFR family and Monte Carlo CFR share this: the average strategy is the normalised
    strategy sums (:meth:`average_probs`), wrapped in a :class:`Strategy` that records
    what made it.
    """

    @abstractmethod
    def average_probs(self) -> FloatArray:
        """The average strategy as a new ``[n_infosets, max_actions]`` array."""

    def _metadata(self, kind: str) -> dict[str, Any]:
        return {
            "algorithm": self.algorithm,
            "strategy": kind,
            "iterations": self.iterations,
            "hyperparameters": self.hyperparameters(),
        }

    def average_strategy(self) -> Strategy:
        """The average strategy so far (a copy): the one that converges to equilibrium."""
        return Strategy(self.game, self.average_probs(), self._metadata("average"))
