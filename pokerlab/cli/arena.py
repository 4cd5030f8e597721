"""``pokerlab arena``: run a round-robin tournament and print its leaderboard.

``pokerlab arena run GAME --agents DIR --builtins solver,random --hands 1000 --db arena.db``
plays every pair of entrants (the ``*.py`` files of DIR defining class ``Agent``, plus the
built-ins) in duplicate matches of ``hands`` hands per seat, storing every hand in the
SQLite database; ``--resume`` continues the latest run of the database after a crash.
``pokerlab arena leaderboard --db arena.db`` prints the standings and the head-to-head
matrix (``--json`` for machines).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from pokerlab.arena import (
    Entrant,
    Leaderboard,
    TournamentProgress,
    builtin_entrants,
    file_entrants,
    leaderboard,
    run_tournament,
)
from pokerlab.cli._common import console, err_console, load_game, print_json

DbOption = Annotated[Path, typer.Option("--db", help="The SQLite database of the arena.")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print the result as JSON on stdout.")]


def register(app: typer.Typer) -> None:
    """Add the ``arena`` command group to ``app``."""
    group = typer.Typer(
        name="arena",
        help="Round-robin tournaments stored in SQLite, and their leaderboard.",
        no_args_is_help=True,
    )
    group.command("run")(run_command)
    group.command("leaderboard")(leaderboard_command)
    app.add_typer(group, name="arena")


def run_command(
    game: Annotated[str, typer.Argument(help="The game, e.g. 'leduc(stack=50, raise_cap=None)'.")],
    agents: Annotated[
        Path | None, typer.Option("--agents", help="A folder of agent files (class Agent).")
    ] = None,
    builtins: Annotated[
        str,
        typer.Option(
            "--builtins",
            help="Comma-separated built-ins: random, always-call, always-raise, rule-based, "
            "easy, exploitative, solver (CFR+ 10,000 it.), solvers (all five), cfr+N.",
        ),
    ] = "",
    hands: Annotated[int, typer.Option("--hands", min=1, help="Hands per seat per table.")] = 1000,
    db: DbOption = Path("arena.db"),
    resume: Annotated[
        bool, typer.Option("--resume", help="Continue the latest run of the database.")
    ] = False,
    seed: Annotated[int, typer.Option("--seed", min=0, help="The run's seed.")] = 0,
    time_limit: Annotated[
        float,
        typer.Option(
            "--time-limit",
            min=0.001,
            help="Seconds allowed per decision; a slower agent gets the default action.",
        ),
    ] = 10.0,
    batch: Annotated[
        int | None,
        typer.Option("--batch", help="Hands per transaction, whole deals (default about 100)."),
    ] = None,
    cache_dir: Annotated[
        Path | None, typer.Option("--cache-dir", help="Solver bot cache (default $POKERLAB_CACHE).")
    ] = None,
    json: JsonOption = False,
) -> None:
    """Play every table of agents, seats rotated over shared deals, and store every hand."""
    the_game = load_game(game)
    entrants: list[Entrant] = []
    if agents is not None:
        from pokerlab.arena.sandbox import SandboxLimits

        entrants += file_entrants(agents, the_game,
                                  limits=SandboxLimits(decision_seconds=time_limit))
    for name in (n.strip() for n in builtins.split(",")):
        if name:
            entrants += builtin_entrants(name, game=the_game, cache_dir=cache_dir)
    for entrant in entrants:
        if entrant.error is not None:
            err_console.print(f"[red]left out[/red] {entrant.source}: {entrant.error}")
    with Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
        TimeRemainingColumn(), console=err_console, transient=True,
    ) as bar:
        task = bar.add_task("arena", total=None)

        def report(p: TournamentProgress) -> None:
            bar.update(
                task,
                description=f"match {p.match_index + 1}/{p.n_matches} {' vs '.join(p.names)}",
                completed=p.hands_done,
                total=p.hands_total,
            )

        result = run_tournament(
            the_game, entrants, db=db, hands=hands, seed=seed, resume=resume, batch_size=batch,
            time_limit=time_limit, progress=report,
        )
    board = leaderboard(db, run_id=result.run_id)
    if json:
        print_json({"run": result.run_id, "hands_played": result.hands_played,
                    "leaderboard": board.to_dict()})
        return
    err_console.print(
        f"run {result.run_id}: {result.matches} matches, {result.hands_played} hands played "
        f"now, stored in {result.db}"
    )
    _print_board(board)


def leaderboard_command(
    db: DbOption = Path("arena.db"),
    run: Annotated[int | None, typer.Option("--run", help="The run (default: the latest).")] = None,
    json: JsonOption = False,
) -> None:
    """Print the standings (shared places when not significantly different) and head to head."""
    board = leaderboard(db, run_id=run)
    if json:
        print_json(board.to_dict())
        return
    _print_board(board)


def _print_board(board: Leaderboard) -> None:
    title = f"run {board.run_id}: {board.game}" + ("" if board.complete else " (incomplete)")
    if board.empty:
        console.print(f"{title}: no hand has been played yet")
        return
    table = Table(title=title, caption="ranked by the mean of each agent's results at its "
                  "tables")
    for column in ("place", "agent", board.unit, f"{board.confidence:.0%} interval",
                   "matches", "hands", "faults"):
        table.add_column(column, justify="left" if column == "agent" else "right")
    digits = 1 if board.unit == "mbb/hand" else 4
    for s in board.standings:
        e = s.estimate
        interval = "-" if not e.n else f"[{e.low:+.{digits}f}, {e.high:+.{digits}f}]"
        mean = "-" if not e.n else f"{e.mean:+.{digits}f}"
        table.add_row(str(s.place), s.name, mean, interval, str(s.matches), str(s.hands),
                      str(s.faults))
    console.print(table)
    heads_up = bool(board.tables) and len(board.tables[0].names) == 2
    if heads_up:
        h2h = Table(title=f"head to head (row's {board.unit} against column)")
        h2h.add_column("")
        for name in board.names:
            h2h.add_column(name, justify="right")
        for i, name in enumerate(board.names):
            cells = []
            for j in range(len(board.names)):
                mean, se = board.head_to_head[i, j], board.head_to_head_error[i, j]
                cells.append("" if math.isnan(mean) else f"{mean:+.3f} ±{1.96 * se:.3f}")
            h2h.add_row(name, *cells)
        console.print(h2h)
    else:
        tables = Table(title=f"tables ({board.unit} of each agent)")
        tables.add_column("match", justify="right")
        tables.add_column("agents and results")
        tables.add_column("hands", justify="right")
        for t in board.tables:
            results = ", ".join(
                f"{name} {'-' if math.isnan(mean) else f'{mean:+.{digits}f}'}"
                for name, mean in zip(t.names, t.means, strict=True)
            )
            tables.add_row(str(t.match_index + 1), results, str(t.hands))
        console.print(tables)
    for name, source, error in board.failed:
        console.print(f"[red]not loaded[/red] {name} ({source}): {error}", soft_wrap=True)
