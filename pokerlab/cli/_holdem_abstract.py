"""``pokerlab abstract 'holdem(...)' --cards 169,50,50,50``: build or load the bucket tables.

Kept apart from :mod:`pokerlab.cli.abstract` (which solves Kuhn and Leduc abstractions) so
that command stays about solving; this one only builds tables and reports their cost.
"""

from __future__ import annotations

import time
from pathlib import Path

import typer

from pokerlab.cli._common import console, err_console, path_text, print_json
from pokerlab.cli._progress import StageProgress, format_bytes
from pokerlab.errors import SpecError
from pokerlab.games import Game

_PHASES = (
    "flop features",
    "flop clusters",
    "preflop clusters",
    "turn features",
    "turn clusters",
    "river strengths",
)


def parse_counts(cards: str | None) -> tuple[int, ...]:
    """``"169,50,50,50"`` -> ``(169, 50, 50, 50)``; None -> the default counts.

    Raises:
        SpecError: unless it is four whole numbers separated by commas, in range.
    """
    from pokerlab.abstraction.holdem_cards import DEFAULT_COUNTS, check_bucket_counts

    if cards is None:
        return DEFAULT_COUNTS
    try:
        counts = tuple(int(part) for part in cards.split(","))
    except ValueError:
        raise SpecError(
            f"--cards {cards!r}: Hold'em takes buckets per street, preflop,flop,turn,river "
            f"(e.g. 169,50,50,50)"
        ) from None
    return check_bucket_counts(counts)


def abstract_holdem(
    game: Game,
    cards: str | None,
    *,
    seed: int,
    out: Path | None,
    cache_dir: Path | None,
    json: bool,
) -> None:
    """Build (or load from the cache) the Hold'em bucket tables and report sizes, time, memory."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.table import Table

    from pokerlab.abstraction.holdem_cards import STREET_NAMES, cache_path, load_or_build
    from pokerlab.abstraction.holdem_iso import street_indexer

    counts = parse_counts(cards)
    path = cache_path(counts, seed, cache_dir=cache_dir)
    start = time.perf_counter()
    with StageProgress(
        TextColumn("{task.description}", style="bold", markup=False),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        disable=json,
    ) as bar:
        tasks: dict[str, object] = {}

        def progress(phase: str, done: int, total: int) -> None:
            if phase not in tasks:
                tasks[phase] = bar.add_task(phase, total=total)
            bar.update(tasks[phase], completed=done, total=total)  # type: ignore[arg-type]

        try:
            abstraction, path, built = load_or_build(
                counts, seed, cache_dir=cache_dir, progress=progress
            )
        except KeyboardInterrupt:
            partial = path.with_suffix(".partial")
            err_console.print(
                f"interrupted: finished streets are kept in {path_text(partial)}; "
                "run the same command again to resume"
            )
            raise typer.Exit(130) from None
    seconds = time.perf_counter() - start
    if out is not None:
        abstraction.save(out)
    report = abstraction.report
    classes = [street_indexer(s).size for s in range(4)]
    data = {
        "game": str(game.spec),
        "abstraction": abstraction.name,
        "bucket_counts": list(abstraction.bucket_counts),
        "canonical_hands": classes,
        "table_bytes": abstraction.nbytes,
        "built": built,
        "seconds": round(seconds, 3),
        "build_seconds": None if report is None else round(sum(report.seconds.values()), 3),
        "phase_seconds": {}
        if report is None
        else {k: round(v, 3) for k, v in report.seconds.items()},
        "peak_memory_bytes": _peak_memory(),
        "build_peak_memory_bytes": None if report is None else report.peak_memory,
        "emd": {} if report is None else report.emd,
        "resumed_streets": [] if report is None else list(report.resumed),
        "seed": seed,
        "cache_file": str(path),
        "cache_file_bytes": path.stat().st_size if path.exists() else None,
        "out": None if out is None else str(out),
    }
    if json:
        print_json(data)
        return
    table = Table(title=f"{abstraction.name} card abstraction of {game.spec}")
    table.add_column("street")
    table.add_column("canonical hands", justify="right")
    table.add_column("buckets", justify="right")
    table.add_column("mean EMD to center", justify="right")
    for street, name in enumerate(STREET_NAMES):
        emd = None if report is None else report.emd.get(name)
        table.add_row(
            name,
            f"{classes[street]:,}",
            f"{abstraction.bucket_counts[street]:,}",
            "-" if emd is None else f"{emd:.4f}",
        )
    console.print(table)
    how = "built" if built else "loaded from the cache"
    console.print(
        f"{how} in {seconds:.1f} s; tables {format_bytes(abstraction.nbytes)} in memory, "
        f"peak memory {format_bytes(_peak_memory())}"
    )
    if report is not None and not built:
        console.print(
            f"the build took {sum(report.seconds.values()):.1f} s, peak memory "
            f"{format_bytes(report.peak_memory)}"
        )
    console.print(f"cache file {path_text(path)}")
    if out is not None:
        console.print(f"saved the tables to {path_text(out)}")


def _peak_memory() -> int:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


__all__ = ["abstract_holdem", "parse_counts"]
