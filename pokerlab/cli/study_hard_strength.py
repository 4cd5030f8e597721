"""``pokerlab study hard-strength SNAPSHOT.bp...``: the Hard AI against the fixed bots, and LBR.

Duplicate matches of each blueprint snapshot against random, always-call, always-raise,
easy and hard-seed, LBR against every snapshot and every opponent, results in a JSON file
(resumable: finished cells are skipped) and a plot against training time. See
:mod:`pokerlab.studies.hard_strength`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

from pokerlab.cli._common import console, err_console, load_game
from pokerlab.cli._progress import StageProgress
from pokerlab.errors import SpecError

LONG_MATCH_HANDS = 10_000
"""From this many hands per seat, the study warns that it takes hours."""


def _counts(text: str) -> dict[str, int]:
    """``"hulhe-300=1000,hulhe-1800=10000"`` as ``{label: hands}``."""
    counts: dict[str, int] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        label, _, value = part.partition("=")
        if not value.isdigit():
            raise SpecError(f"--match-hands-for wants LABEL=HANDS pairs, e.g. 'hulhe-300=1000'; "
                            f"got {part!r}")
        counts[label.strip()] = int(value)
    return counts


def hard_strength_command(
    snapshots: Annotated[
        list[Path], typer.Argument(metavar="SNAPSHOT.bp...",
                                   help="Blueprint snapshots of one game, earliest first.")
    ],
    game_text: Annotated[
        str, typer.Option("--game", help="The heads-up Hold'em game of the snapshots.")
    ] = 'holdem(betting="limit")',
    out: Annotated[
        Path, typer.Option("--out", help="The JSON results file (resumed when it exists).")
    ] = Path("hard_strength.json"),
    match_hands: Annotated[
        int, typer.Option("--match-hands", min=0, help="Hands per seat of each match.")
    ] = 10_000,
    match_hands_for: Annotated[
        str, typer.Option("--match-hands-for",
                          help="Per-snapshot hands per seat, e.g. 'hulhe-300=1000'.")
    ] = "",
    lbr_hands: Annotated[
        int, typer.Option("--lbr-hands", min=0, help="LBR hands against each snapshot.")
    ] = 1000,
    opponent_lbr_hands: Annotated[
        int, typer.Option("--opponent-lbr-hands", min=0,
                          help="LBR hands against each opponent.")
    ] = 1000,
    opponents: Annotated[
        str, typer.Option("--opponents", help="Comma-separated built-in opponents.")
    ] = "random,always-call,always-raise,easy,hard-seed",
    aivat: Annotated[
        str, typer.Option("--aivat", help="Opponents whose matches get AIVAT ('all', 'none' "
                          "or names).")
    ] = "all",
    only: Annotated[
        str, typer.Option("--only", help="Run only cells whose key starts with this "
                          "(e.g. 'lbr/agent', 'match/hulhe-1800').")
    ] = "",
    lbr_first: Annotated[bool, typer.Option("--lbr-first", help="LBR cells first.")] = False,
    lbr_sizes: Annotated[
        str, typer.Option("--lbr-bets", help="LBR raise sizes (no-limit bet menu).")
    ] = "100%,a",
    search: Annotated[
        str, typer.Option("--search", help="Add the searching Hard AI over the last snapshot "
                          "(a hard-search name, e.g. hard-search@500ms or hard-search+200): "
                          "its matches, head to head with its blueprint, LBR against it.")
    ] = "",
    seed: Annotated[int, typer.Option("--seed", min=0, help="Matches' and LBR's seed.")] = 0,
    plot: Annotated[
        Path | None, typer.Option("--plot", help="Draw LBR and win rate vs training (png).")
    ] = None,
    merge: Annotated[
        list[Path] | None, typer.Option("--merge", help="Other results files (e.g. of "
                                        "parallel runs) merged into --out first.")
    ] = None,
    markdown: Annotated[
        bool, typer.Option("--markdown", help="Print the results as markdown tables.")
    ] = False,
) -> None:
    """The Hard AI's strength: matches against the fixed bots and LBR, per snapshot.

    The defaults (10,000 hands per seat of each match, 1,000 LBR hands each) take hours
    per snapshot; --match-hands 500 --lbr-hands 200 --opponent-lbr-hands 200 gives a first
    look in minutes. --out keeps every finished cell: a rerun resumes.
    """
    from pokerlab.studies.hard_strength import (
        Plan,
        Snapshot,
        load_results,
        markdown_tables,
        merge_results,
        run_study,
        write_results,
    )
    from pokerlab.studies.hard_strength import plot as draw

    game = load_game(game_text)
    if snapshots and match_hands >= LONG_MATCH_HANDS:
        err_console.print(f"{match_hands:,} hands per seat of each match: this takes hours "
                          "(--match-hands 500 --lbr-hands 200 for a first look; a rerun "
                          f"resumes from {out})", soft_wrap=True, markup=False, highlight=False)
    if merge:
        write_results(out, merge_results([load_results(p) for p in (out, *merge)]))
    snaps = [Snapshot.from_file(path) for path in snapshots]
    names = [n.strip() for n in opponents.split(",") if n.strip()]
    chosen = {"all": set(names), "none": set()}.get(aivat, {n.strip() for n in aivat.split(",")})
    if search:
        from pokerlab.studies.search_strength import search_settings

        search_settings(search)  # refused before any cell
    plan = Plan(_counts(match_hands_for), match_hands, lbr_hands, opponent_lbr_hands,
                frozenset(chosen), search)
    with StageProgress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        transient=True,
    ) as bar:  # fmt: skip
        task = bar.add_task("hard-strength cells", total=None)

        def progress(key: str, done: int, total: int) -> None:
            bar.update(task, description=key, completed=done, total=total)

        data = run_study(
            game, snaps, out, plan, opponents=names, seed=seed, lbr_sizes=lbr_sizes,
            lbr_first=lbr_first, only=(lambda key: key.startswith(only)) if only else None,
            progress=progress, log=lambda line: err_console.print(line),
        )  # fmt: skip
    if plot is not None:
        draw(data, plot, title=game_text)
        err_console.print(f"plot written to {plot}")
    if markdown:
        console.print(markdown_tables(data), markup=False)
    else:
        console.print(f"results in {out} ({len(data['cells'])} cells)")


def add_command(group: typer.Typer) -> None:
    """Add ``hard-strength`` to the ``study`` group."""
    group.command("hard-strength")(hard_strength_command)
