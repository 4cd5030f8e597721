"""The one progress bar of long work: live on a terminal, a line per long stage elsewhere.

Every long stage pokerlab runs for a person (solving, training a blueprint, building card
tables, a study's cells) draws a rich progress bar on stderr. Off a terminal (a pipe, a
log file, CI) a live bar cannot redraw, and rich would print nothing until the end; there
a task still running after :data:`QUIET_SECONDS` says ``"<description>..."`` and
``"<description>: done in 12.3 s"`` when the bar stops, so a long stage is never silent
and a short one adds no noise. A top-level module (it imports nothing of pokerlab), so
that the run loop's console runner and the command line share it.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    ProgressColumn,
    TaskID,
    TaskProgressColumn,
    TextColumn,
    TimeRemainingColumn,
)

QUIET_SECONDS = 2.0
"""Off a terminal, a stage that ends sooner than this prints nothing."""


class StageProgress(Progress):
    """A rich ``Progress`` on stderr that says each long stage off a terminal (see above).

    Args:
        columns: rich's columns.
        disable: draw and say nothing (``--json`` runs, quiet callers).
        transient: remove the bar when done (on a terminal).
        console: where to draw (default: stderr).
        options: passed to rich's ``Progress``.
    """

    def __init__(self, *columns: str | ProgressColumn, disable: bool = False,
                 transient: bool = False, console: Console | None = None,
                 **options: Any) -> None:
        console = console or Console(stderr=True, soft_wrap=True, markup=False, emoji=False)
        columns = tuple(_plain(c) for c in columns) or _default_columns()
        self._lines = not disable and not console.is_terminal
        self._stages: list[_Stage] = []
        self._say_to = console
        super().__init__(*columns, console=console, transient=transient,
                         disable=disable or self._lines, **options)

    def add_task(self, description: str, start: bool = True, total: float | None = 100.0,
                 completed: int = 0, visible: bool = True, **fields: Any) -> TaskID:
        """Add a task (as rich does); off a terminal, its stage is announced if long."""
        task = super().add_task(description, start=start, total=total, completed=completed,
                                visible=visible, **fields)
        if self._lines:
            self._stages.append(_Stage(description, self._say_to))
        return task

    def stop(self) -> None:
        """Stop the bar; off a terminal, say how long each announced stage took."""
        super().stop()
        for stage in self._stages:
            stage.finish()
        self._stages.clear()


def _plain(column: str | ProgressColumn) -> ProgressColumn:
    """``column`` with its text read as plain text, not rich markup.

    Descriptions hold entrants' names, file names and game specs: ``[/]`` in a name made
    rich raise ``MarkupError`` out of a tournament, and ``[bold]alice`` showed as
    ``alice``. A column's style is given by its ``style``, never by markup.
    """
    if isinstance(column, str):
        return TextColumn(column, markup=False)
    if isinstance(column, TextColumn):
        column.markup = False
    return column


def _default_columns() -> tuple[ProgressColumn, ...]:
    """Rich's default columns, the description read as plain text."""
    return (TextColumn("{task.description}", style="progress.description", markup=False),
            BarColumn(), TaskProgressColumn(), TimeRemainingColumn())


class _Stage:
    """One announced stage: a timer says its name once it has run ``QUIET_SECONDS``."""

    def __init__(self, description: str, console: Console) -> None:
        self.description = description
        self.console = console
        self.start = time.perf_counter()
        self.said = threading.Event()
        self.timer = threading.Timer(QUIET_SECONDS, self._announce)
        self.timer.daemon = True
        self.timer.start()

    def _announce(self) -> None:
        self.said.set()
        self._say(f"{self.description}...")

    def finish(self) -> None:
        self.timer.cancel()
        if self.said.is_set():
            self._say(f"{self.description}: done in {time.perf_counter() - self.start:.1f} s")

    def _say(self, text: str) -> None:
        self.console.print(text, soft_wrap=True, markup=False, highlight=False)


__all__ = ["QUIET_SECONDS", "StageProgress"]
