"""Run the benchmarks and print one table.

``python -m benchmarks [topic ...] [--quick] [--markdown]``: ``--quick`` uses fewer
repetitions and skips the slowest rows; ``--markdown`` prints the rows as a markdown table
(the form docs/benchmarks.md records) instead of a rich table.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path

from rich.console import Console
from rich.table import Table

from benchmarks._harness import Row


def _topics() -> list[str]:
    folder = Path(__file__).parent
    return sorted(
        m.name.removeprefix("bench_")
        for m in pkgutil.iter_modules([str(folder)])
        if m.name.startswith("bench_")
    )


OPTIONS = ("--quick", "--markdown")


def main(argv: list[str]) -> int:
    if "--help" in argv or "-h" in argv:
        print(__doc__.strip())
        print(f"topics: {', '.join(_topics())}")
        return 0
    unknown_options = [a for a in argv if a.startswith("-") and a not in OPTIONS]
    if unknown_options:
        print(
            f"unknown option(s) {unknown_options}; allowed: {', '.join(OPTIONS)}, --help",
            file=sys.stderr,
        )
        return 2
    quick = "--quick" in argv
    markdown = "--markdown" in argv
    wanted = [a for a in argv if not a.startswith("-")] or _topics()
    unknown = sorted(set(wanted) - set(_topics()))
    if unknown:
        print(f"unknown benchmark topic(s) {unknown}; known: {_topics()}", file=sys.stderr)
        return 2
    console = Console(width=200)
    table = Table(title="pokerlab benchmarks (ratio > 1: pokerlab is faster)")
    for column in ("benchmark", "pokerlab", "peer", "peer value", "ratio", "target", "note"):
        table.add_column(column)
    lines = [
        "| benchmark | pokerlab | peer | peer value | ratio | target | note |",
        "|---|---|---|---|---|---|---|",
    ]
    for topic in wanted:
        module = importlib.import_module(f"benchmarks.bench_{topic}")
        rows: list[Row] = module.run(quick=quick)
        for row in rows:
            ratio = row.ratio
            lines.append(
                f"| {row.name} | {row.ours:.4g} {row.unit} | {row.peer_name} | "
                + ("" if row.peer is None else f"{row.peer:.4g} {row.unit}")
                + f" | {'' if ratio is None else f'{ratio:.1f}x'} | {row.target} | {row.note} |"
            )
            table.add_row(
                row.name,
                f"{row.ours:.4g} {row.unit}",
                row.peer_name,
                "" if row.peer is None else f"{row.peer:.4g} {row.unit}",
                "" if ratio is None else f"{ratio:.1f}x",
                row.target,
                row.note,
            )
    if markdown:
        print("\n".join(lines))
    else:
        console.print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
