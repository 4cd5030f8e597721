"""``pokerlab study challenge --out DIR [--quick]``: the challenge study and its report.

Computes the equilibrium values and P2 advantages the challenge asks for (3- and 100-card
Kuhn, 10-bucket abstractions, Leduc, the 50-chip variant with and without pairs), the
abstractions' exploitability against the number of buckets, the betting abstraction of
the 50-chip variant and the strategy charts of 100-card Kuhn; writes ``DIR/README.md``
and its PNG plots. See :mod:`pokerlab.studies.challenge`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, TaskID, TextColumn, TimeElapsedColumn

from pokerlab.cli._common import console, print_json
from pokerlab.cli._progress import StageProgress
from pokerlab.errors import FileFormatError


def challenge_command(
    out: Annotated[Path, typer.Option("--out", "-o", help="The report's folder.")] = Path(
        "report"
    ),
    quick: Annotated[
        bool, typer.Option("--quick", help="A quick preview: small search and CFR+ budgets.")
    ] = False,
    json: Annotated[bool, typer.Option("--json", help="Print the numbers as JSON.")] = False,
) -> None:
    """Run the challenge study and write DIR/README.md with its tables and plots."""
    from pokerlab.studies.challenge import run_challenge_study
    from pokerlab.studies.challenge_report import write_report

    if out.exists() and not out.is_dir():
        raise FileFormatError(f"--out {out} is a file; the report needs a folder")
    columns = (
        TextColumn("{task.description}", style="bold", markup=False),
        BarColumn(),
        TextColumn("{task.percentage:>3.0f}%"),
        TimeElapsedColumn(),
    )
    with StageProgress(*columns, disable=json) as bar:
        tasks: dict[str, TaskID] = {}

        def progress(step: str, completed: float, total: float) -> None:
            if step not in tasks:
                tasks[step] = bar.add_task(step, total=100.0)
            bar.update(tasks[step], completed=100.0 * completed / total if total else 100.0)

        study = run_challenge_study(quick=quick, progress=progress)
        readme = write_report(study, out)
    if json:
        print_json({**study.to_dict(), "report": str(readme)})
        return
    console.print(f"wrote {readme} ({study.seconds:.1f} s)")


def add_command(group: typer.Typer) -> None:
    """Add ``challenge`` to the ``study`` command group."""
    group.command("challenge")(challenge_command)
