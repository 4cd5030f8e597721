"""Run a :class:`~pokerlab.solvers.run_loop.RunLoop` for a person: budgets, a bar, Ctrl-C.

The one helper behind every long run a command starts: ``pokerlab solve``, ``pokerlab
spot solve``, ``pokerlab blueprint train`` (on this machine and by rounds on Ray) and the
Hard AI's first training of its default blueprint. :func:`run_to_budget`

- counts the :class:`Budget` over the *whole* run: ``iterations`` and ``seconds`` include
  the iterations and the wall-clock time of the earlier runs a checkpoint resumed, so a
  resumed run stops where the uninterrupted one would have;
- draws one progress bar on stderr (iterations, exploitability in chips or in % of the
  pot, values, infosets, memory, rate), updated after every slice of the run loop; off a
  terminal, a line when a long run starts and one when it ends
  (:class:`pokerlab._progress.StageProgress`);
- turns Ctrl-C and SIGTERM into the run loop's interrupt, which acts within a slice
  (about 0.1 s); the caller's ``save`` then writes the checkpoint;
- saves every ``save_every`` seconds as well, if asked (blueprints);
- says so when numba compiles kernels (the first run on a machine; they are cached for
  the next), time the run loop never counts as solving.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    ProgressColumn,
    TaskID,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
)
from rich.progress import Progress as Bar

from pokerlab._progress import StageProgress
from pokerlab.errors import SolverError
from pokerlab.solvers.run_loop import Progress, RunLoop

ValueFunction = Callable[[], "float | tuple[float, ...] | None"]
"""Returns P1's value, or each seat's, of the current average strategy; None if unknown."""


@dataclass(frozen=True)
class Budget:
    """When a run stops, counted over the whole run (the runs it resumed included).

    Attributes:
        iterations: iterations in all.
        seconds: wall-clock seconds in all (checks included, compilation excluded).
        target: the exploitability (chips per hand) at which it stops.
    """

    iterations: int | None = None
    seconds: float | None = None
    target: float | None = None

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None and self.target is None:
            raise SolverError("a run needs a budget: iterations, seconds or a target")
        if self.iterations is not None and (
            isinstance(self.iterations, bool) or self.iterations < 1
        ):
            raise SolverError(f"iterations must be an integer >= 1; got {self.iterations!r}")
        if self.seconds is not None and not self.seconds > 0:
            raise SolverError(f"seconds must be > 0; got {self.seconds!r}")
        if self.target is not None and not self.target > 0:
            raise SolverError(f"the target must be > 0 (chips per hand); got {self.target!r}")

    def describe(self) -> str:
        """The budget in words: ``"to 1,000 iterations, 60 s, or 0.001 chips"``."""
        parts = []
        if self.iterations is not None:
            parts.append(f"{self.iterations:,} iterations")
        if self.seconds is not None:
            parts.append(f"{self.seconds:g} s")
        if self.target is not None:
            parts.append(f"exploitability {self.target:g}")
        return "until " + " or ".join(parts)

    def spent(self, loop: RunLoop) -> bool:
        """Whether ``loop`` has already reached this budget."""
        if self.iterations is not None and loop.iterations >= self.iterations:
            return True
        if self.seconds is not None and loop.wall_seconds >= self.seconds:
            return True
        last = loop.history[-1].exploitability if loop.history else None
        return self.target is not None and last is not None and last <= self.target

    def left(self, loop: RunLoop) -> tuple[int | None, float | None]:
        """``(iterations, seconds)`` still to run (None: no such limit)."""
        iterations = None if self.iterations is None else self.iterations - loop.iterations
        seconds = None if self.seconds is None else self.seconds - loop.wall_seconds
        return iterations, seconds


class StopSignals:
    """Turns Ctrl-C and SIGTERM into a flag while active (the previous handlers come back).

    Only in the main thread (elsewhere signals cannot be caught, and the flag stays False).
    """

    _SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __init__(self) -> None:
        self.requested = False
        self._previous: dict[int, Any] = {}

    def __enter__(self) -> StopSignals:
        if threading.current_thread() is threading.main_thread():
            for number in self._SIGNALS:
                self._previous[number] = signal.signal(number, self._handle)
        return self

    def _handle(self, signum: int, frame: object) -> None:
        self.requested = True

    def __exit__(self, *exc: object) -> None:
        for number, handler in self._previous.items():
            signal.signal(number, handler)
        self._previous.clear()


def format_bytes(size: int | None) -> str:
    """``1234567`` -> ``"1.2 MB"``; None -> ``"-"``."""
    if size is None:
        return "-"
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{size} B"


def format_values(value: float | tuple[float, ...] | None) -> str:
    """P1's value (``+0.05556``), every seat's (``+0.1/-0.1``), or ``"-"``."""
    if value is None:
        return "-"
    if isinstance(value, tuple):
        return "/".join(f"{v:+.5f}" for v in value)
    return f"{value:+.5f}"


def format_exploitability(progress: Progress) -> str:
    """Chips per hand (``1.234e-03``), or a share of the pot where the run has one."""
    percent = progress.percent_of_pot
    if percent is not None:
        return f"{percent:.3f}% of the pot"
    return "-" if progress.exploitability is None else f"{progress.exploitability:.3e}"


class ProgressBar:
    """One bar on stderr for a run: updated after every slice and every check."""

    def __init__(self, bar: Bar, task: TaskID, loop: RunLoop, total: int | None,
                 value: ValueFunction | None) -> None:
        self._bar = bar
        self._task = task
        self._loop = loop
        self._total = total
        self._value = value

    def _rate(self) -> str:
        seconds = self._loop.seconds
        return f"{self._loop.iterations / seconds:,.0f} it/s" if seconds > 0 else ""

    def tick(self) -> None:
        """After a slice: iterations and rate."""
        self._bar.update(self._task, completed=self._loop.iterations, rate=self._rate())

    def __call__(self, progress: Progress) -> None:
        """After a check: the measurements too (the run loop's ``callback``)."""
        shown = format_values(None if self._value is None else self._value())
        infosets = "-" if progress.infosets is None else f"{progress.infosets:,}"
        workers = f"{len(progress.worker_pids)} workers" if progress.worker_pids else ""
        self._bar.update(
            self._task, completed=progress.iteration, total=self._total,
            exploitability=format_exploitability(progress), value=shown, infosets=infosets,
            memory=format_bytes(progress.memory_bytes), rate=self._rate(), workers=workers,
        )


@contextmanager
def progress_bar(
    description: str,
    loop: RunLoop,
    *,
    total: int | None,
    value: ValueFunction | None = None,
    measured: bool = True,
    console: Console | None = None,
    disable: bool = False,
) -> Iterator[ProgressBar]:
    """A context with the bar of ``loop``'s run; yields its updater.

    Args:
        description: the bar's label.
        loop: the run loop it follows.
        total: the iteration count the run ends at, if known.
        value: returns P1's value, or every seat's, of the average strategy (shown at
            each check).
        measured: whether the exploitability is shown (otherwise its column is left out).
        console: where to draw (default: stderr).
        disable: draw nothing (for ``--json`` runs and quiet callers).
    """
    columns: list[ProgressColumn | str] = [
        TextColumn("{task.description}", style="bold", markup=False), BarColumn()]
    columns += [MofNCompleteColumn(), TaskProgressColumn()] if total is not None else [
        TextColumn("{task.completed:,.0f} it")]
    if measured:
        columns.append(TextColumn("exploitability {task.fields[exploitability]}"))
        if value is not None:
            columns.append(TextColumn("value {task.fields[value]}"))
    columns += [
        TextColumn("infosets {task.fields[infosets]}"),
        TextColumn("{task.fields[memory]}"),
        TextColumn("{task.fields[rate]}"),
        TextColumn("{task.fields[workers]}"),
        TimeElapsedColumn(),
    ]
    with StageProgress(*columns, console=console, disable=disable) as bar:
        task = bar.add_task(
            description, total=total, completed=loop.iterations, exploitability="-",
            value="-", infosets=_count(loop.infosets_touched()),
            memory=format_bytes(loop.memory_bytes()), rate="", workers="",
        )
        yield ProgressBar(bar, task, loop, total, value)


def _count(value: int | None) -> str:
    return "-" if value is None else f"{value:,}"


@contextmanager
def compile_notice(say: Callable[[str], None]) -> Iterator[None]:
    """Say once when numba starts compiling a kernel (not when it loads a cached one)."""
    try:
        from numba.core import event
    except ImportError:  # pragma: no cover (numba is a core dependency)
        yield
        return
    said: list[bool] = []

    class _Listener(event.Listener):
        def on_start(self, _event: object) -> None:
            if not said:
                said.append(True)
                say("compiling numba kernels (once on this machine: they are cached for the "
                    "next runs, and never counted as solving time)")

        def on_end(self, _event: object) -> None:
            return None

    with event.install_listener("numba:compile", _Listener()):
        yield


def run_to_budget(
    loop: RunLoop,
    budget: Budget,
    *,
    description: str,
    check_every: int | None = None,
    save: Callable[[], object] | None = None,
    save_every: float | None = None,
    value: ValueFunction | None = None,
    measure: bool | None = None,
    quiet: bool = False,
    console: Console | None = None,
    catch_signals: bool = True,
) -> bool:
    """Run ``loop`` until ``budget`` is spent; False if interrupted (``save`` was called).

    Args:
        loop: the solver or trainer, fresh or resumed from a checkpoint.
        budget: counted over the whole run (:class:`Budget`).
        description: the progress bar's label.
        check_every: iterations between checks (default: the loop's own).
        save: writes the checkpoint (called on an interrupt and every ``save_every``).
        save_every: seconds between saves (None: only on an interrupt).
        value: the values shown at each check, if any.
        measure: whether checks measure the exploitability (default: the loop's own).
        quiet: draw no bar and say nothing (``--json``).
        console: where to draw (default: stderr).
        catch_signals: turn Ctrl-C and SIGTERM into the loop's interrupt (False: the
            caller handles them).

    Returns:
        True when the budget is spent (or was already), False when interrupted.

    Raises:
        SolverError: a target where the exploitability cannot be measured.
    """
    if budget.target is not None and not loop.can_measure:
        raise SolverError(
            f"a target needs the exploitability, which cannot be measured on {loop._what()} "
            "(too big to compile); stop by iterations or seconds"
        )
    if budget.spent(loop):
        return True
    iterations, seconds = budget.left(loop)
    out = console or Console(stderr=True, markup=False, emoji=False)
    measured = (loop.measures_by_default if measure is None else measure) or (
        budget.target is not None)
    signals = StopSignals() if catch_signals else None
    last_save = time.monotonic()

    def say(text: str) -> None:
        if not quiet:
            out.print(text, soft_wrap=True, markup=False, highlight=False)

    with (
        signals if signals is not None else nullcontext(),
        progress_bar(description, loop, total=budget.iterations, value=value,
                     measured=measured and loop.can_measure, console=out,
                     disable=quiet) as bar,
        compile_notice(say),
    ):

        def poll() -> bool:
            nonlocal last_save
            bar.tick()
            if signals is not None and signals.requested:
                return True
            if save is not None and save_every is not None and (
                time.monotonic() - last_save >= save_every
            ):
                save()
                last_save = time.monotonic()
            return False

        if not out.is_terminal:  # no live bar there: one line says what runs
            say(f"{description}: running ({budget.describe()}; Ctrl-C or SIGTERM saves a "
                "checkpoint)")
        loop.run(iterations, target_exploitability=budget.target, seconds=seconds,
                 check_every=check_every, callback=bar, interrupt=poll, measure=measure)
        bar.tick()
    if loop.interrupted:
        if save is not None:
            save()
        return False
    return True


__all__ = [
    "Budget",
    "ProgressBar",
    "StopSignals",
    "ValueFunction",
    "compile_notice",
    "format_bytes",
    "format_exploitability",
    "format_values",
    "progress_bar",
    "run_to_budget",
]
