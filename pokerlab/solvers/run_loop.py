"""The one run loop of every long computation: budgets, time slices, checks, interrupts.

Every iterative computation in pokerlab (the solvers of :data:`~pokerlab.solvers.SOLVERS`,
the range solver of :mod:`pokerlab.subgame`, blueprint training on one machine or by
rounds on Ray) is a :class:`RunLoop`: it implements :meth:`RunLoop._advance` (do ``count``
iterations) and, where it can, :meth:`RunLoop._measure` (the exploitability of its
average strategy), and inherits :meth:`RunLoop.run`, which

1. runs iterations in *slices* of about :data:`SLICE_SECONDS`, sized from the measured
   time of an iteration (never by a fixed count), so that an interrupt (the ``interrupt``
   poll, which the console runner ties to Ctrl-C and SIGTERM) acts within a slice, and a
   ``seconds`` budget is met to within half an iteration (a loop whose units are long,
   :attr:`RunLoop.finishes_past_seconds`, stops after the unit that reaches it instead);
2. every ``check_every`` iterations *checks*: measures the exploitability (where it can
   and is asked to), appends a :class:`HistoryRow` to ``history`` and calls ``callback``
   with a :class:`Progress`;
3. stops at the first stopping rule that holds: ``iterations`` more iterations,
   ``seconds`` more wall-clock seconds (checks included: the budget is the time the call
   takes), the ``target_exploitability``, or the interrupt. A run stopped by time checks
   once more where it stops; an interrupted one does not (it stops at once, and its
   caller saves a checkpoint).

A loop whose iterations come in indivisible units (a blueprint's batches of deals, a
Ray round) says so with :meth:`RunLoop._quantum`: slices then end only at multiples of
the unit (counted from iteration 0), or where the ``iterations`` budget ends, so that an
interrupted and resumed run makes the very calls an uninterrupted one makes.

Three clocks, all cumulative over calls and saved in checkpoints (but the last):
``seconds`` is the solving time (checks excluded: what history rows, rates and
"solved in" report), ``wall_seconds`` the time spent in ``run`` (checks included: what
a ``seconds`` budget counts) and ``compile_seconds`` the time numba spent compiling, or
loading from its on-disk cache, the kernels a run called first (excluded from both
others: compilation is not solving, and happens once per machine).
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

import numpy as np

from pokerlab.errors import FileFormatError, SolverError

SLICE_SECONDS = 0.1
"""Iterations run in slices of about this many seconds (an interrupt waits one slice)."""


@dataclass(frozen=True)
class HistoryRow:
    """One check during a run.

    Attributes:
        iteration: iterations done when checked.
        seconds: solving time so far (checks excluded), in seconds.
        exploitability: of the average strategy, in chips per hand (NashConv / players);
            None where it is not measured (a game too big, or a run that does not measure).
    """

    iteration: int
    seconds: float
    exploitability: float | None


@dataclass(frozen=True)
class Progress:
    """What a ``run`` callback receives after each check: the one progress report.

    Attributes:
        iteration: iterations done (for Ray rounds: sampled iterations, the budget's unit).
        seconds: solving time so far, in seconds (checks and compilation excluded).
        exploitability: of the average strategy (chips per hand), or None where it is not
            measured.
        target_iterations: the iteration count the run stops at, if it has one.
        infosets: infosets (or table rows) the solver holds regrets for, or None.
        memory_bytes: memory of the solver's tables, in bytes, or None.
        pot: chips in the pot at the root of a range solver's spot (so the exploitability
            reads as a share of the pot), else None.
        worker_pids: process ids of the live workers of a run by rounds on Ray (empty
            elsewhere).
    """

    iteration: int
    seconds: float
    exploitability: float | None
    target_iterations: int | None
    infosets: int | None = None
    memory_bytes: int | None = None
    pot: float | None = None
    worker_pids: tuple[int, ...] = ()

    @property
    def percent_of_pot(self) -> float | None:
        """The exploitability in percent of the starting pot, where both are known."""
        if self.exploitability is None or not self.pot:
            return None
        return 100.0 * self.exploitability / self.pot


Callback = Callable[[Progress], None]
"""Called with a :class:`Progress` after every check."""

Interrupt = Callable[[], bool]
"""Polled after every slice; True stops the run there (the state is consistent)."""


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
        isinstance(iterations, bool)
        or not isinstance(iterations, int | np.integer)
        or iterations < 1
    ):
        raise SolverError(f"iterations must be an integer >= 1; got {iterations!r}")
    if target_exploitability is not None and not target_exploitability > 0:
        raise SolverError(
            f"target_exploitability must be > 0 (chips per hand); got {target_exploitability!r}"
        )
    if seconds is not None and not seconds > 0:
        raise SolverError(f"seconds must be > 0; got {seconds!r}")
    if check_every is None:
        check_every = max(1, int(iterations) // 10) if iterations else 10
    if isinstance(check_every, bool) or not isinstance(check_every, int) or check_every < 1:
        raise SolverError(f"check_every must be an integer >= 1; got {check_every!r}")
    return check_every


# -- compilation time ------------------------------------------------------------------------
@dataclass
class CompileClock:
    """Seconds numba holds its compiler lock (compiling, or loading cached kernels).

    Installed as a numba event listener for as long as :meth:`watching` is active; costs
    nothing on calls of kernels already compiled (no event fires then).
    """

    seconds: float = 0.0
    _depth: int = field(default=0, repr=False)
    _began: float = field(default=0.0, repr=False)

    @contextmanager
    def watching(self) -> Iterator[CompileClock]:
        """Count the compiler's time while the block runs (numba's own events)."""
        try:
            from numba.core import event
        except ImportError:  # pragma: no cover (numba is a core dependency)
            yield self
            return
        clock = self

        class _Listener(event.Listener):
            def on_start(self, _event: object) -> None:
                if clock._depth == 0:
                    clock._began = time.perf_counter()
                clock._depth += 1

            def on_end(self, _event: object) -> None:
                clock._depth -= 1
                if clock._depth == 0:
                    clock.seconds += time.perf_counter() - clock._began

        with event.install_listener("numba:compiler_lock", _Listener()):
            yield self

    def now(self) -> float:
        """Compile seconds so far, the compilation under way included."""
        if self._depth > 0:
            return self.seconds + time.perf_counter() - self._began
        return self.seconds


# -- the loop ------------------------------------------------------------------------------
class RunLoop(ABC):
    """Base class of every iterative computation: the run loop, its clocks and history.

    Subclasses implement :meth:`_advance`; they override :meth:`_measure` and
    :attr:`can_measure` where they can measure their exploitability, and
    :meth:`infosets_touched`, :meth:`memory_bytes`, :meth:`_quantum` and
    :meth:`_progress_fields` where they have something to say.
    """

    measures_by_default: ClassVar[bool] = True
    """Whether a check measures the exploitability unless ``run(measure=False)``; False
    for loops whose measurement is costly beside an iteration (blueprints), which then
    measure only when asked (``measure=True``) or given a target."""

    finishes_past_seconds: ClassVar[bool] = False
    """Whether a ``seconds`` budget stops after the unit that reaches it (True: a run
    stopped by time has spent its budget, so resuming it with the same budget does
    nothing) rather than at the unit that ends nearest it (False)."""

    def __init__(self) -> None:
        self.iterations = 0
        self.history: list[HistoryRow] = []
        self._seconds = 0.0
        self._wall_seconds = 0.0
        self._compile = CompileClock()
        self.interrupted = False
        """Whether the last :meth:`run` stopped because its ``interrupt`` poll said so."""

    # -- to implement -------------------------------------------------------------------
    @abstractmethod
    def _advance(self, count: int) -> None:
        """Do ``count`` iterations and count them in :attr:`iterations`."""

    def _measure(self) -> float | None:
        """The exploitability of the average strategy (chips per hand), None if unmeasurable."""
        return None

    @property
    def can_measure(self) -> bool:
        """Whether the exploitability can be measured."""
        return False

    def infosets_touched(self) -> int | None:
        """How many infosets the solver holds regrets (or a strategy) for, if it knows."""
        return None

    def memory_bytes(self) -> int | None:
        """Memory of the solver's tables, in bytes, if it knows."""
        return None

    def _quantum(self) -> int:
        """Iterations come in units of this many (slices end at its multiples); 1 by default."""
        return 1

    def _progress_fields(self) -> dict[str, Any]:
        """Extra :class:`Progress` fields (``pot``, ``worker_pids``) this loop reports."""
        return {}

    def _default_check_every(self, iterations: int | None) -> int | None:
        """``check_every`` when none is given (None: :func:`check_stopping_rules`' rule)."""
        return None

    # -- clocks -------------------------------------------------------------------------
    @property
    def seconds(self) -> float:
        """Solving time so far (checks and compilation excluded), in seconds."""
        return self._seconds

    @property
    def wall_seconds(self) -> float:
        """Time spent in :meth:`run` so far, checks included, compilation excluded."""
        return self._wall_seconds

    @property
    def compile_seconds(self) -> float:
        """Time numba spent compiling (or loading cached) kernels during this object's runs."""
        return self._compile.seconds

    # -- the loop -----------------------------------------------------------------------
    def run(
        self,
        iterations: int | None = None,
        *,
        target_exploitability: float | None = None,
        seconds: float | None = None,
        check_every: int | None = None,
        callback: Callback | None = None,
        interrupt: Interrupt | None = None,
        measure: bool | None = None,
    ) -> Self:
        """Iterate until one of the stopping rules holds; cumulative over calls.

        Args:
            iterations: how many more iterations to run.
            target_exploitability: stop once the average strategy's exploitability (chips
                per hand) is at most this; measured at every check.
            seconds: stop after about this many more wall-clock seconds (checks included,
                compilation excluded); met to within half an iteration.
            check_every: iterations between checks (default: 10% of ``iterations``, or
                10); each check measures the exploitability where it can, appends a row
                to :attr:`history` and calls ``callback``.
            callback: called with a :class:`Progress` after every check.
            interrupt: polled after every slice (about :data:`SLICE_SECONDS`); when it
                returns True the run stops there, without a last check, and
                :attr:`interrupted` is set (save a checkpoint then).
            measure: whether checks measure the exploitability (default: the class's
                :attr:`measures_by_default`; a target always measures).

        Returns:
            ``self``, for chaining.

        Raises:
            SolverError: if no stopping rule is given, one is out of range, or a target
                exploitability is asked for where it cannot be measured.
        """
        if check_every is None:
            check_every = self._default_check_every(iterations)
        check_every = check_stopping_rules(iterations, target_exploitability, seconds,
                                           check_every)
        measuring = self.measures_by_default if measure is None else bool(measure)
        if target_exploitability is not None:
            if not self.can_measure:
                raise SolverError(
                    "target_exploitability= needs the exploitability, which cannot be "
                    f"measured on {self._what()}; stop by iterations= or seconds="
                )
            measuring = True
        self.interrupted = False
        with self._compile.watching():
            self._loop(iterations, target_exploitability, seconds, check_every, callback,
                       interrupt, measuring)
        return self

    def _what(self) -> str:
        """What the loop solves, for messages."""
        game = getattr(self, "game", None)
        spec = getattr(game, "spec", None)
        return str(spec if spec is not None else getattr(game, "description", game))

    def _loop(
        self,
        iterations: int | None,
        target: float | None,
        seconds: float | None,
        check_every: int,
        callback: Callback | None,
        interrupt: Interrupt | None,
        measuring: bool,
    ) -> None:
        quantum = max(1, int(self._quantum()))
        stop_at = None if iterations is None else self.iterations + int(iterations)
        began, compiled_before, wall_before = (
            time.perf_counter(), self._compile.now(), self._wall_seconds
        )

        def sync_wall() -> float:
            """Update the wall clock; return this call's wall time so far."""
            spent = time.perf_counter() - began - (self._compile.now() - compiled_before)
            self._wall_seconds = wall_before + spent
            return spent

        per_iteration: float | None = None  # seconds, measured on the last slice
        check_cost = 0.0  # seconds, the last check's
        next_check = (self.iterations // check_every + 1) * check_every
        by_time = False
        while True:
            if stop_at is not None and self.iterations >= stop_at:
                break
            if interrupt is not None and interrupt():
                self.interrupted = True
                break
            left = None if seconds is None else seconds - sync_wall()
            if left is not None:
                unit = 0.0 if per_iteration is None else per_iteration * quantum
                near = not self.finishes_past_seconds and left - check_cost < 0.5 * unit
                if left <= 0 or near:
                    by_time = True
                    break
            end = self._slice_end(quantum, stop_at, next_check, per_iteration,
                                  None if left is None else left - check_cost)
            before = self.iterations
            tick, compiled = time.perf_counter(), self._compile.now()
            self._advance(end - before)
            elapsed = time.perf_counter() - tick - (self._compile.now() - compiled)
            self._seconds += elapsed
            per_iteration = max(elapsed, 1e-9) / max(1, self.iterations - before)
            sync_wall()
            done = stop_at is not None and self.iterations >= stop_at
            if self.iterations >= next_check or done:
                next_check = (self.iterations // check_every + 1) * check_every
                tick, compiled = time.perf_counter(), self._compile.now()
                value = self._check(stop_at, callback, measuring)
                check_cost = time.perf_counter() - tick - (self._compile.now() - compiled)
                sync_wall()
                if target is not None and value is not None and value <= target:
                    break
        if by_time and (not self.history or self.history[-1].iteration != self.iterations):
            self._check(stop_at, callback, measuring)
        sync_wall()

    def _slice_end(
        self,
        quantum: int,
        stop_at: int | None,
        next_check: int,
        per_iteration: float | None,
        seconds_left: float | None,
    ) -> int:
        """The iteration count the next slice ends at (one unit at least)."""
        start = self.iterations
        if per_iteration is None:
            want = 1
        else:
            want = max(1, int(SLICE_SECONDS / per_iteration))
            if seconds_left is not None:
                want = min(want, max(1, int(seconds_left / per_iteration)))
        end = min(start + want, next_check)
        if quantum > 1:
            end = -(-end // quantum) * quantum  # up to the unit's boundary
        if stop_at is not None:
            end = min(end, stop_at)
        return max(end, start + 1)

    def _check(self, target_iterations: int | None, callback: Callback | None,
               measuring: bool = True) -> float | None:
        """Measure, record a history row, and call back; return the exploitability."""
        value = self._measure() if measuring and self.can_measure else None
        self.history.append(HistoryRow(self.iterations, self._seconds, value))
        if callback is not None:
            callback(
                Progress(
                    self.iterations,
                    self._seconds,
                    value,
                    target_iterations,
                    infosets=self.infosets_touched(),
                    memory_bytes=self.memory_bytes(),
                    **self._progress_fields(),
                )
            )
        return value

    # -- checkpoints: the clock's part ----------------------------------------------------
    def clock_header(self) -> dict[str, Any]:
        """What every checkpoint records of the run: iterations, clocks and history."""
        return {
            "iterations": self.iterations,
            "seconds": self._seconds,
            "wall_seconds": self._wall_seconds,
            "history": [[r.iteration, r.seconds, r.exploitability] for r in self.history],
        }

    def restore_clock(self, header: dict[str, Any], where: str) -> None:
        """Put back what :meth:`clock_header` recorded (a file's ``where`` for messages).

        Files written before ``wall_seconds`` existed count their solving time as wall time.

        Raises:
            FileFormatError: if a field is missing or damaged.
        """
        try:
            iterations = int(header["iterations"])
            seconds = float(header.get("seconds", 0.0))
            wall = float(header.get("wall_seconds", seconds))
            history = [
                HistoryRow(int(i), float(s), None if e is None else float(e))
                for i, s, e in header.get("history", [])
            ]
        except (KeyError, TypeError, ValueError) as exc:
            raise FileFormatError(f"{where} has a corrupted header: {exc!r}") from None
        self.iterations = iterations
        self._seconds = seconds
        self._wall_seconds = wall
        self.history = history


__all__ = [
    "SLICE_SECONDS",
    "Callback",
    "CompileClock",
    "HistoryRow",
    "Interrupt",
    "Progress",
    "RunLoop",
    "check_stopping_rules",
]
