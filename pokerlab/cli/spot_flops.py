"""``pokerlab spot report --flops SET ...``: one spot shape solved over many flops.

The library does the work (:mod:`pokerlab.studies.flop_report`, flop sets in
:mod:`pokerlab.studies.flop_sets`); this command checks the options, shows the largest
flop's size and the memory of the solves running at once before anything is built,
draws a progress bar over the flops, and prints the weighted averages by texture. Ctrl-C
or SIGTERM stops within a moment; the same command then goes on from the flops done.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from pokerlab.cli import _spot_options as option
from pokerlab.cli._common import check_output_path, console, err_console, path_text, print_json
from pokerlab.errors import PokerlabError, SolverError, SpecError


def report_command(
    flops: Annotated[str, typer.Option(
        "--flops", help="'all' (the 1,755 different flops), a count ('25': a standard subset "
        "weighted by frequency), a file of flops (one a line, optional weight), or flops "
        "written out ('AsKd2c,Td9d6h').")],
    oop: option.OopOption,
    ip: option.IpOption,
    pot: option.PotOption,
    stack: option.StackOption,
    out: Annotated[Path, typer.Option(
        "--out", "-o", help="The report's folder: report.json (resumable), flops.csv, "
        "textures.csv, textures.png.")],
    bets: option.BetsOption = "50%,100%",
    raises: option.RaisesOption = "2.5x",
    donks: option.DonksOption = None,
    add_all_in_threshold: option.AddAllInOption = 0.0,
    force_all_in_threshold: option.ForceAllInOption = 0.0,
    merging_threshold: option.MergingOption = 0.0,
    raise_cap: option.RaiseCapOption = None,
    isomorphism: option.IsomorphismOption = True,
    target: option.TargetOption = None,
    iterations: option.IterationsOption = None,
    seconds: option.SecondsOption = None,
    check_every: option.CheckEveryOption = 10,
    variant: option.VariantOption = "dcfr",
    memory_limit: option.MemoryLimitOption = 8000,
    threads: option.ThreadsOption = None,
    workers: Annotated[int | None, typer.Option(
        "--workers", min=1, help="Flops solved at once: processes here (default: every "
        "core) or Ray workers (default: the cluster's CPUs).")] = None,
    backend: Annotated[str, typer.Option(
        "--backend", help="Where flops are solved: local (this machine's processes) or ray."
    )] = "local",
    address: Annotated[str | None, typer.Option(
        "--address", help="With --backend ray: the cluster, auto or HOST:PORT (default: "
        "start Ray here).")] = None,
    by: Annotated[str, typer.Option(
        "--by", help="The printed table's groups: suits, pairing, high, connected or all."
    )] = "suits",
    json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Solve one spot shape on many flops; write a table, CSV and charts by texture.

    Each flop is solved to the stopping rule (--target, --iterations or --seconds: per
    flop) and keeps its EVs, equities, OOP's root frequencies and IP's after a check.
    Averages weight each flop by the dealt flops it stands for. Running the same
    command again goes on from the flops done (Ctrl-C and SIGTERM stop at once).
    """
    from pokerlab.solvers.run_console import StopSignals, format_bytes
    from pokerlab.studies import flop_report
    from pokerlab.studies.flop_sets import flop_set
    from pokerlab.subgame.storage import ITEMSIZES
    from pokerlab.subgame.units import usable_cores

    if by not in flop_report.GROUPS:
        raise SpecError(f"--by must be one of {', '.join(flop_report.GROUPS)}; got {by!r}")
    if backend not in ("local", "ray"):
        raise PokerlabError(f"--backend must be local or ray; got {backend!r}")
    if backend == "local" and address is not None:
        raise PokerlabError("--address goes with --backend ray; add it, or drop --address")
    if target is None and iterations is None and seconds is None:
        raise SolverError("spot report needs a stopping rule for each flop: --target (e.g. "
                          "0.5%), --iterations or --seconds")
    check_output_path(out, folder=True)
    shape = {"oop": oop, "ip": ip, "pot": pot, "stack": stack, "bets": bets, "raises": raises,
             "donks": donks, "add_all_in_threshold": add_all_in_threshold,
             "force_all_in_threshold": force_all_in_threshold,
             "merging_threshold": merging_threshold, "raise_cap": raise_cap,
             "isomorphism": isomorphism}
    percent = None if target is None else 100 * option.parse_target(target, pot) / pot
    plan = flop_report.ReportPlan(shape, target=percent, iterations=iterations,
                                  seconds=seconds, check_every=check_every, variant=variant,
                                  memory_limit=memory_limit * 10**6)
    chosen = flop_set(flops)
    size = flop_report.estimate(plan, chosen)
    precision = size.precision(plan.memory_limit)
    if precision is None:
        least = format_bytes(size.bytes_in(ITEMSIZES["compressed"]))
        raise SolverError(f"the largest flop of the set needs about {least} even compressed "
                          f"to 16 bits, over --memory-limit {memory_limit} MB: "
                          "narrow the ranges or the bet sizes, or raise --memory-limit")
    at_once = workers or (usable_cores() if backend == "local" else 1)
    at_once = min(at_once, len(chosen))
    peak = size.peak_in(ITEMSIZES[precision])
    free = flop_report.available_memory()
    if backend == "local" and free is not None and at_once * peak > free:
        raise SolverError(f"{at_once} solves at once need about {format_bytes(at_once * peak)};"
                          f" this machine has {format_bytes(free)} available: ask for fewer "
                          f"--workers (at most {max(1, free // peak)})")
    err_console.print(f"{len(chosen):,} flops, weight {sum(f.weight for f in chosen):,.0f}; "
                      f"the largest: {size.describe()}\n"
                      + (f"{at_once} at once on this machine: about "
                         f"{format_bytes(at_once * peak)}" if backend == "local"
                         else "on Ray workers, one CPU each"),
                      soft_wrap=True, markup=False, highlight=False)
    with StopSignals() as signals, _bar(json, len(chosen)) as tick:
        run = flop_report.run_report(plan, chosen, out, workers=at_once if backend == "local"
                                     else workers, threads=threads, backend=backend,
                                     address=address,
                                     stop=lambda: signals.requested, progress=tick)
    written = flop_report.write_outputs(run.data, out, title=_title(plan))
    if not run.finished:
        done = len(run.data["rows"])
        err_console.print(f"interrupted: {done:,} of {len(chosen):,} flops done, kept in "
                          f"{out / flop_report.RESULTS}\ngo on with the same command: "
                          f"{_command()}", soft_wrap=True, markup=False,
                          highlight=False)
        raise typer.Exit(130)
    _print(run.data, by, written, json)


@contextmanager
def _bar(quiet: bool, total: int) -> Iterator[Callable[[int, int], object]]:
    """A progress bar over the flops; yields the ``progress(done, total)`` callback."""
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn

    from pokerlab.cli._progress import StageProgress

    with StageProgress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                       TimeRemainingColumn(), disable=quiet) as progress:
        task = progress.add_task("flops", total=total)
        yield lambda done, _total: progress.update(task, completed=done)


def _title(plan: Any) -> str:
    spot = plan.spot
    return (f"OOP {spot['oop']} vs IP {spot['ip']}, pot {spot['pot']}, stack {spot['stack']}, "
            f"bets {spot['bets']}: OOP's root strategy by flop texture")


def _command() -> str:
    """The command as it was typed (running it again goes on with the report)."""
    return shlex.join(["pokerlab", *sys.argv[1:]])


def _print(data: dict[str, Any], by: str, written: list[Path], json: bool) -> None:
    from pokerlab.studies.flop_report import aggregate, solved_rows

    rows = solved_rows(data)
    errors = {flop: row["error"] for flop, row in data["rows"].items() if "error" in row}
    if json:
        print_json({"plan": data["plan"], "flops": len(data["flops"]), "solved": len(rows),
                    "errors": errors,
                    "groups": {name: aggregate(data, name) for name in ("all", by)}
                    if rows else {},
                    "rows": rows, "files": [str(path) for path in written]})
        return
    if not rows:
        console.print("no flop could be solved:")
    else:
        console.print(_table(aggregate(data, "all") + (aggregate(data, by) if by != "all"
                                                         else []), by))
    for flop, error in sorted(errors.items()):
        console.print(f"{flop}: not solved: {error}", soft_wrap=True, markup=False,
                      highlight=False)
    console.print("written: " + ", ".join(path_text(path) for path in written), soft_wrap=True)


def _table(groups: list[dict[str, Any]], by: str) -> Table:
    """The weighted averages: EV and equity (% of the pot), then each action's frequency."""
    oop = list(groups[0]["oop"])
    ip = list(groups[0]["ip_vs_check"])
    table = Table(title=f"weighted averages over the flops, by {by}")
    for header in (by, "flops", "share", "EV OOP", "equity OOP", "expl."):
        table.add_column(header, justify="left" if header == by else "right")
    for name in oop:
        table.add_column(f"OOP {name}", justify="right")
    for name in ip:
        table.add_column(f"IP vs x: {name}", justify="right")
    total = groups[0]["weight"]
    for group in groups:
        table.add_row(group["group"], str(group["flops"]), f"{100 * group['weight'] / total:.1f}%",
                      f"{group['ev_oop_percent']:.1f}%", f"{group['equity_oop']:.1f}%",
                      f"{group['exploitability_percent']:.2f}%",
                      *(f"{100 * group['oop'][a]:.1f}%" for a in oop),
                      *(f"{100 * group['ip_vs_check'][a]:.1f}%" for a in ip))
    return table
