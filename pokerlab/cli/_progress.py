"""The CLI's face of the one console runner (:mod:`pokerlab.solvers.run_console`).

Long runs (``solve``, ``spot solve``, ``blueprint train``, the Hard AI's training) go
through :func:`pokerlab.solvers.run_console.run_to_budget`, re-exported here with its
:class:`~pokerlab.solvers.run_console.Budget`. :func:`solver_progress` is the bar alone,
for commands that drive a run themselves (``abstract``, the demo), fed by the same
:class:`~pokerlab.solvers.run_loop.Progress` reports. The solvers (numba kernels, scipy)
are imported only when a command runs.
"""

from __future__ import annotations

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

from pokerlab._progress import StageProgress as _StageProgress
from pokerlab.cli._common import err_console

if TYPE_CHECKING:  # the solvers load numba and scipy: only when a command runs
    from pokerlab.solvers.run_loop import Progress as SolverProgress

class StageProgress(_StageProgress):
    """The CLI's one progress bar (:class:`pokerlab._progress.StageProgress`) on its stderr."""

    def __init__(self, *columns: str | ProgressColumn, disable: bool = False,
                 transient: bool = False, **options: Any) -> None:
        super().__init__(*columns, disable=disable, transient=transient,
                         console=err_console, **options)


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
        TextColumn("{task.description}", style="bold", markup=False),
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
