"""A rich progress bar for solver runs (iterations, exploitability, value, rate)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
)

from pokerlab.cli._common import err_console
from pokerlab.solvers.base import Progress as SolverProgress


class SolverProgressBar:
    """Turns a solver's ``Progress`` callbacks into a progress bar on stderr."""

    def __init__(
        self,
        bar: Progress,
        task: TaskID,
        *,
        target: float | None,
        value: Callable[[], float] | None = None,
    ) -> None:
        self._bar = bar
        self._task = task
        self._target = target
        self._value = value

    def __call__(self, progress: SolverProgress) -> None:
        """Update the bar (the solver's ``callback``)."""
        rate = progress.iteration / progress.seconds if progress.seconds > 0 else 0.0
        exploitability = (
            "-" if progress.exploitability is None else f"{progress.exploitability:.3e}"
        )
        total = progress.target_iterations
        value = "-" if self._value is None else f"{self._value():+.5f}"
        self._bar.update(
            self._task,
            completed=progress.iteration,
            total=total,
            exploitability=exploitability,
            value=value,
            rate=f"{rate:,.0f} it/s",
        )


@contextmanager
def solver_progress(
    description: str,
    *,
    total: int | None,
    target: float | None,
    value: Callable[[], float] | None = None,
    disable: bool = False,
) -> Iterator[SolverProgressBar]:
    """A context with a progress bar; yields the callback to give the solver.

    Args:
        description: the bar's label.
        total: iterations the run will reach, if known.
        target: the exploitability it stops at, if any.
        value: returns P1's game value of the current average strategy (shown at each check).
        disable: draw nothing (for ``--json`` runs).
    """
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TaskProgressColumn(),
        TextColumn("exploitability {task.fields[exploitability]}"),
        TextColumn("value {task.fields[value]}"),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=err_console, transient=False, disable=disable) as bar:
        task = bar.add_task(description, total=total, exploitability="-", value="-", rate="")
        yield SolverProgressBar(bar, task, target=target, value=value)
