"""The CLI's face of the one console runner (:mod:`pokerlab.solvers.run_console`).

Long runs (``solve``, ``spot solve``, ``blueprint train``, the Hard AI's training) go
through :func:`pokerlab.solvers.run_console.run_to_budget`, re-exported here with its
:class:`~pokerlab.solvers.run_console.Budget`. :func:`solver_progress` is the bar alone,
for commands that drive a run themselves (``abstract``, the demo), fed by the same
:class:`~pokerlab.solvers.run_loop.Progress` reports. The solvers (numba kernels, scipy)
are imported only when a command runs.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TaskID,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
)

from pokerlab.cli._common import err_console

if TYPE_CHECKING:  # the solvers load numba and scipy: only when a command runs
    from pokerlab.solvers.run_loop import Progress as SolverProgress

class StageProgress(Progress):
    """The CLI's one progress bar: live on a terminal, a line per long stage elsewhere.

    A rich ``Progress`` on stderr. Off a terminal (a pipe, a log file, CI) a live bar
    cannot redraw, and rich would leave blank lines; there a task that is still running
    after :data:`QUIET_SECONDS` says ``"<description>..."``, and ``"<description>: done in
    12.3 s"`` when the bar stops, so a long stage is never silent and a short one adds no
    noise. ``disable`` (``--json``) draws and says nothing.
    """

    def __init__(self, *columns: str | ProgressColumn, disable: bool = False,
                 transient: bool = False, **options: Any) -> None:
        self._lines = not disable and not err_console.is_terminal
        self._stages: list[_Stage] = []
        super().__init__(*columns, console=err_console, transient=transient,
                         disable=disable or self._lines, **options)

    def add_task(self, description: str, start: bool = True, total: float | None = 100.0,
                 completed: int = 0, visible: bool = True, **fields: Any) -> TaskID:
        """Add a task (as rich does); off a terminal, its stage is announced if long."""
        task = super().add_task(description, start=start, total=total, completed=completed,
                                visible=visible, **fields)
        if self._lines:
            self._stages.append(_Stage(description))
        return task

    def stop(self) -> None:
        """Stop the bar; off a terminal, say how long each announced stage took."""
        super().stop()
        for stage in self._stages:
            stage.finish()
        self._stages.clear()


QUIET_SECONDS = 2.0
"""Off a terminal, a stage that ends sooner than this prints nothing."""


class _Stage:
    """One announced stage: a timer says its name once it has run ``QUIET_SECONDS``."""

    def __init__(self, description: str) -> None:
        self.description = description
        self.start = time.perf_counter()
        self.said = threading.Event()
        self.timer = threading.Timer(QUIET_SECONDS, self._announce)
        self.timer.daemon = True
        self.timer.start()

    def _announce(self) -> None:
        self.said.set()
        _say(f"{self.description}...")

    def finish(self) -> None:
        self.timer.cancel()
        if self.said.is_set():
            _say(f"{self.description}: done in {time.perf_counter() - self.start:.1f} s")


def _say(text: str) -> None:
    err_console.print(text, soft_wrap=True, markup=False, highlight=False)


ValueFunction = Callable[[], "float | tuple[float, ...] | None"]
"""Returns P1's value, or each seat's, of the current average strategy; None if unknown."""


def format_bytes(size: int | None) -> str:
    """``1234567`` -> ``"1.2 MB"``; None -> ``"-"`` (the console runner's, imported late)."""
    from pokerlab.solvers.run_console import format_bytes as formatted

    return formatted(size)


class SolverProgressBar:
    """Turns a solver's ``Progress`` callbacks into a progress bar on stderr."""

    def __init__(
        self,
        bar: Progress,
        task: TaskID,
        *,
        target: float | None,
        value: ValueFunction | None = None,
    ) -> None:
        self._bar = bar
        self._task = task
        self._target = target
        self._value = value

    def __call__(self, progress: SolverProgress) -> None:
        """Update the bar (the solver's ``callback``)."""
        rate = progress.iteration / progress.seconds if progress.seconds > 0 else 0.0
        from pokerlab.solvers.run_console import format_exploitability, format_values

        exploitability = format_exploitability(progress)
        shown = format_values(None if self._value is None else self._value())
        infosets = "-" if progress.infosets is None else f"{progress.infosets:,}"
        self._bar.update(
            self._task,
            completed=progress.iteration,
            total=progress.target_iterations,
            exploitability=exploitability,
            value=shown,
            infosets=infosets,
            memory=format_bytes(progress.memory_bytes),
            rate=f"{rate:,.0f} it/s",
        )


@contextmanager
def solver_progress(
    description: str,
    *,
    total: int | None,
    target: float | None,
    value: ValueFunction | None = None,
    measured: bool = True,
    disable: bool = False,
) -> Iterator[SolverProgressBar]:
    """A context with a progress bar; yields the callback to give the solver.

    Args:
        description: the bar's label.
        total: iterations the run will reach, if known.
        target: the exploitability it stops at, if any.
        value: returns P1's value, or every seat's, of the current average strategy (shown
            at each check), or None where it cannot be computed.
        measured: whether the exploitability is measured (otherwise its column is left out).
        disable: draw nothing (for ``--json`` runs).
    """
    columns = [
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TaskProgressColumn(),
    ]
    if measured:
        columns += [
            TextColumn("exploitability {task.fields[exploitability]}"),
            TextColumn("value {task.fields[value]}"),
        ]
    columns += [
        TextColumn("infosets {task.fields[infosets]}"),
        TextColumn("{task.fields[memory]}"),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
    ]
    with StageProgress(*columns, disable=disable) as bar:
        task = bar.add_task(
            description, total=total, exploitability="-", value="-", infosets="-", memory="-",
            rate="",
        )
        yield SolverProgressBar(bar, task, target=target, value=value)
