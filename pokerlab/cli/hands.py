"""``pokerlab hands export|import|aivat``: hand histories in PHH, the format pokerkit reads.

``pokerlab hands export --db RUN.db --format phh --out DIR`` writes every hand of an arena
run (the latest, or ``--run ID``), one ``.phhs`` file per match (``--per-hand``: a folder
of ``.phh`` files per match); ``--acpc-log LOG --game GAMEDEF`` does the same for a log of
the ACPC dealer. Matches write theirs with ``pokerlab match ... --hands-out DIR``; a web
table's session downloads from ``/api/tables/<token>/hands.phhs``.
``pokerlab hands import FILES`` reads PHH files (or folders of them) into pokerlab records
and prints each player's chips per hand; ``pokerlab hands aivat FILES --known NAME=AGENT``
adds AIVAT's estimate, with the policy each named player truly played (docs/interop.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn
from rich.table import Table

from pokerlab.cli._common import (
    JsonOption,
    check_output_path,
    console,
    err_console,
    path_text,
    plural,
    print_json,
)
from pokerlab.cli._progress import StageProgress
from pokerlab.errors import PokerlabError

FORMATS = ("phh",)
"""The formats ``hands export`` writes."""

FilesArgument = Annotated[
    list[Path],
    typer.Argument(metavar="FILES...", help="PHH files (.phh, .phhs) or folders of them."),
]


def register(app: typer.Typer) -> None:
    """Add the ``hands`` command group to ``app``."""
    group = typer.Typer(
        name="hands",
        help="Hand histories: export arena runs and ACPC logs to PHH, import PHH, AIVAT.",
        no_args_is_help=True,
    )
    group.command("export")(export_command)
    group.command("import")(import_command)
    group.command("aivat")(aivat_command)
    app.add_typer(group, name="hands")


def _bar(json: bool = False) -> StageProgress:
    """A progress bar on a terminal's stderr (a line per stage elsewhere; none with --json)."""
    return StageProgress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                         transient=True, disable=json)


def export_command(
    out: Annotated[Path, typer.Option("--out", help="The folder to write the files into.")],
    db: Annotated[
        Path | None, typer.Option("--db", help="An arena database (pokerlab arena run).")
    ] = None,
    run: Annotated[
        int | None, typer.Option("--run", help="With --db: the run (default: the latest).")
    ] = None,
    acpc_log: Annotated[
        Path | None, typer.Option("--acpc-log", help="A log of the ACPC dealer (STATE: lines).")
    ] = None,
    game: Annotated[
        str | None,
        typer.Option("--game", metavar="GAMEDEF", help="With --acpc-log: the log's game, an "
                     "ACPC gamedef file or name, or a Hold'em spec."),
    ] = None,
    fmt: Annotated[str, typer.Option("--format", help="The format: phh.")] = "phh",
    per_hand: Annotated[
        bool, typer.Option("--per-hand", help="One .phh file per hand (a folder per match) "
                           "instead of one .phhs file per match.")
    ] = False,
) -> None:
    """Write the hands of an arena run or an ACPC log as PHH files, one file per match.

    Every file is written whole (atomically); the files are read by pokerkit
    (HandHistory.load_all) and by pokerlab hands import.
    """
    from pokerlab.interop.phh_sources import acpc_log_batch, arena_batches, write_batches

    if fmt not in FORMATS:
        raise PokerlabError(f"--format {fmt} is not a format hands export writes; allowed: "
                            f"{', '.join(FORMATS)}")
    if (db is None) == (acpc_log is None):
        raise PokerlabError("give one source: --db RUN.db (an arena run) or --acpc-log LOG "
                            "--game GAMEDEF (a log of the ACPC dealer)")
    if db is not None and game is not None:
        raise PokerlabError("--game goes with --acpc-log (an arena database names its game)")
    if acpc_log is not None and run is not None:
        raise PokerlabError("--run goes with --db")
    check_output_path(out, folder=True)
    if db is not None:
        batches = arena_batches(db, run)
    else:
        if game is None:
            raise PokerlabError("--acpc-log needs --game GAMEDEF: an ACPC log does not name "
                                "its game")
        from pokerlab.protocols.acpc_gamedef import load_acpc_game

        batches = [acpc_log_batch(acpc_log, load_acpc_game(game))]  # type: ignore[arg-type]
    total = sum(b.count for b in batches)
    with _bar() as bar:
        task = bar.add_task("writing PHH", total=total)
        files = write_batches(batches, out, per_hand=per_hand,
                              progress=lambda done: bar.update(task, completed=done))
    err_console.print(f"wrote {plural(total, 'hand')} in {plural(len(files), 'file')} under "
                      f"{path_text(out)}")


def _read(files: list[Path], json: bool) -> Any:
    from pokerlab.interop.phh_sources import assign_agents, phh_paths, read_phh_paths

    count = len(phh_paths(files))
    with _bar(json) as bar:
        task = bar.add_task("reading PHH", total=count)
        read = read_phh_paths(files, progress=lambda done, _: bar.update(task, completed=done))
    return assign_agents(read), count


def _games(imported: Any) -> list[str]:
    return sorted({str(h.game.spec) for h in imported.hands})


def import_command(files: FilesArgument, json: JsonOption = False) -> None:
    """Read PHH files into pokerlab records; print each player's chips per hand.

    Every hand is replayed by pokerlab's rules (limit or no-limit Texas Hold'em, 2 to 9
    seats): an illegal action, unknown cards or a hand that stops early is refused with
    the file, the hand and the action at fault.
    """
    from pokerlab.interop.phh_analysis import player_results

    imported, count = _read(files, json)
    results = player_results(imported)
    games = _games(imported)
    if json:
        print_json({"files": count, "hands": len(imported.hands), "games": games,
                    "players": [r.to_dict() for r in results]})
        return
    title = (f"{plural(len(imported.hands), 'hand')} from {plural(count, 'file')} "
             f"({games[0] if len(games) == 1 else plural(len(games), 'game')}): chips per hand, "
             "95% intervals")
    table = Table(title=title)
    for column in ("player", "hands", "chips", "per hand"):
        table.add_column(column, justify="left" if column == "player" else "right")
    for r in results:
        e = r.per_hand
        table.add_row(r.name, f"{r.hands:,}", f"{r.chips:+,.0f}",
                      f"{e.mean:+.3f} ± {(e.high - e.low) / 2:.3f}")
    console.print(table)


def aivat_command(
    files: FilesArgument,
    known: Annotated[
        list[str] | None,
        typer.Option("--known", metavar="NAME=AGENT", help="A player whose policy is known: "
                     "its name in the hands and the policy it played (a built-in such as "
                     "easy, or a policy file). Repeatable."),
    ] = None,
    json: JsonOption = False,
) -> None:
    """AIVAT on PHH hands: each player's chips per hand, plain and corrected.

    Chance terms always; action terms for the players named with --known, whose policy
    must be the one they truly played (docs/aivat.md). Texas Hold'em, 2 to 6 seats.
    """
    from pokerlab.interop.phh_analysis import aivat_results

    policies: dict[str, str] = {}
    for item in known or []:
        name, sep, agent = item.partition("=")
        if not sep or not name or not agent:
            raise PokerlabError(f"--known takes NAME=AGENT; got {item!r}")
        policies[name] = agent
    imported, count = _read(files, json)
    with _bar(json) as bar:
        task = bar.add_task("AIVAT", total=len(imported.hands))
        results = aivat_results(imported, policies,
                                progress=lambda done: bar.update(task, completed=done))
    if json:
        print_json({"files": count, "hands": len(imported.hands), "games": _games(imported),
                    "players": [r.to_dict() for r in results]})
        return
    table = Table(title=f"AIVAT on {plural(len(imported.hands), 'hand')}: chips per hand, 95% "
                  "intervals")
    for column in ("player", "hands", "plain", "AIVAT", "x var", "policy"):
        table.add_column(column, justify="left" if column == "player" else "right")
    for r in results:
        plain = r.per_hand
        assert r.aivat is not None
        corrected = r.aivat.estimate
        table.add_row(
            r.name, f"{r.hands:,}",
            f"{plain.mean:+.3f} ± {(plain.high - plain.low) / 2:.3f}",
            f"{corrected.mean:+.3f} ± {(corrected.high - corrected.low) / 2:.3f}",
            f"{r.aivat.variance_reduction:.2f}",
            "known" if r.policy_known else "unknown",
        )
    console.print(table)
