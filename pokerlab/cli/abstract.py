"""``pokerlab abstract GAME --cards uniform:10 [--out FILE]``: solve an abstraction, lift it.

Builds the abstract game (card buckets, and for two-player Leduc an optional raise cap),
solves it with ``--algorithm``, and lifts the result: a strategy of the real game GAME in
which every card plays its bucket's row. Prints the abstract game's value, the lifted
strategy's exact exploitability and value in GAME, and the size reduction; saves the lifted
strategy only when ``--out`` is given. ``--cards optimized:B`` first searches B buckets
(:func:`pokerlab.abstraction.optimize_buckets`).

For Texas Hold'em (``'holdem(betting="limit")' --cards 169,50,50,50``) there is nothing to
solve here: it builds (or loads from the cache) the card abstraction's bucket tables per
street (:mod:`pokerlab.abstraction.holdem_cards`) and reports their sizes, the time and the
memory it took; ``--out`` also saves the tables. Ctrl-C keeps the finished streets, and the
same command resumes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pokerlab.cli._common import (
    CacheDirOption,
    JsonOption,
    check_output_path,
    console,
    err_console,
    load_game,
    path_text,
    plural,
    print_json,
)
from pokerlab.errors import SpecError

GameArgument = Annotated[
    str, typer.Argument(
        help="The real game: 'kuhn(cards=100)', 'leduc(stack=50, raise_cap=None)', 'holdem'."
    )
]
CardsOption = Annotated[
    str | None,
    typer.Option(
        "--cards",
        help="Card buckets: identity, uniform:B, percentile:B, optimized:B, boundaries:0,5,17,..."
        " (default identity); Hold'em: buckets per street (default 169,50,50,50).",
    ),
]
BoardOption = Annotated[
    str | None, typer.Option("--board", help="Leduc board buckets (default: as --cards).")
]
RaiseCapOption = Annotated[
    int | None,
    typer.Option("--raise-cap", help="Betting abstraction: bets + raises per round (Leduc)."),
]
AlgorithmOption = Annotated[
    str, typer.Option("--algorithm", "-a", help="The abstract game's solver (lp, cfr+, ...).")
]
IterationsOption = Annotated[
    int | None, typer.Option("--iterations", help="Iterations of an iterative solver.")
]
TargetOption = Annotated[
    float | None,
    typer.Option("--target", help="Stop once the abstract strategy is this close (chips)."),
]
OldTargetOption = Annotated[
    float | None,
    typer.Option("--target-exploitability", hidden=True, help="The old name of --target."),
]
SearchOption = Annotated[
    int, typer.Option("--search-evaluations", help="Budget of optimized:B (solved bucketings).")
]
OutOption = Annotated[
    Path | None,
    typer.Option(
        "--out", "-o", help="Save the lifted strategy (Hold'em: the tables) to this file (.npz)."
    ),
]
SeedOption = Annotated[
    int | None,
    typer.Option("--seed", min=0, help="Seed of sampling solvers (Hold'em: of the clustering)."),
]


def register(app: typer.Typer) -> None:
    """Add the ``abstract`` command to ``app``."""
    app.command("abstract")(abstract_command)


def abstract_command(
    game: GameArgument,
    out: OutOption = None,
    cards: CardsOption = None,
    board: BoardOption = None,
    raise_cap: RaiseCapOption = None,
    algorithm: AlgorithmOption = "cfr+",
    iterations: IterationsOption = None,
    target_exploitability: TargetOption = None,
    search_evaluations: SearchOption = 150,
    seed: SeedOption = None,
    json: JsonOption = False,
    cache_dir: CacheDirOption = None,
    old_target: OldTargetOption = None,
) -> None:
    """Solve an abstraction of GAME and lift its strategy back to GAME.

    Prints the abstract and the lifted strategy's values and exploitability; with --out,
    also saves the lifted strategy (a strategy of GAME, every card playing its bucket).
    For Hold'em, builds the card abstraction's bucket tables (--cards 169,50,50,50).
    """
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        TextColumn,
        TimeElapsedColumn,
    )
    from rich.table import Table

    from pokerlab.abstraction import (
        BucketEvaluator,
        abstract_game,
        optimize_buckets,
        solve_abstraction,
    )
    from pokerlab.abstraction.abstract_game import item_names
    from pokerlab.cli._progress import StageProgress, solver_progress

    real = load_game(game)
    if out is not None:
        check_output_path(out)
    if real.spec.name == "holdem":
        from pokerlab.cli._holdem_abstract import abstract_holdem

        abstract_holdem(real, cards, seed=seed or 0, out=out, cache_dir=cache_dir, json=json)
        return
    cards = cards or "identity"
    name, _, argument = cards.strip().partition(":")
    buckets: object = cards
    optimized = name.strip().lower() == "optimized"
    # Check everything the user typed before drawing any progress bar.
    if optimized:
        try:
            count = int(argument)
        except ValueError:
            raise SpecError(
                f"--cards {cards!r}: optimized needs a number of buckets, e.g. optimized:10"
            ) from None
        n_items = len(item_names(real))
        if not 1 <= count <= n_items:
            raise SpecError(
                f"--cards {cards!r}: the number of buckets must be between 1 and the number "
                f"of cards ({n_items}); got {count}"
            )
        abstract_game(real, "identity", board=board, raise_cap=raise_cap)
    else:
        abstract_game(real, cards, board=board, raise_cap=raise_cap)
    if optimized:
        with StageProgress(
            TextColumn("{task.description}", style="bold", markup=False),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("best exploitability {task.fields[best]}"),
            TimeElapsedColumn(),
            disable=json,
        ) as bar:
            task = bar.add_task("searching buckets", total=search_evaluations, best="-")
            found = optimize_buckets(
                real,
                count,
                evaluator=BucketEvaluator(real, board=board, raise_cap=raise_cap),
                max_evaluations=search_evaluations,
                progress=lambda n, best: bar.update(task, completed=n, best=f"{best:.3e}"),
            )
        buckets = found.bucketing
        if not json:
            err_console.print(
                f"optimized buckets: {found.bucketing.to_text()} "
                f"({plural(found.evaluations, 'evaluation')}, started from {found.start})",
                style="dim",
            )
    if target_exploitability is None:
        target_exploitability = old_target
    iterative = algorithm != "lp"
    if iterative and iterations is None and target_exploitability is None:
        iterations = 1000
    with solver_progress(
        f"{algorithm} on the abstract game",
        total=iterations if iterative else None,
        target=target_exploitability,
        disable=json or not iterative,
    ) as callback:
        result = solve_abstraction(
            real,
            buckets,  # type: ignore[arg-type]
            board=board,
            raise_cap=raise_cap,
            algorithm=algorithm,
            iterations=iterations,
            target_exploitability=target_exploitability,
            seed=seed,
            callback=callback,
        )
    path = None if out is None else result.lifted.save(out)
    data = {**result.to_dict(), "out": None if path is None else str(path)}
    if json:
        print_json(data)
        return
    table = Table(title=f"{result.abstract.describe()}")
    table.add_column("")
    table.add_column("value", justify="right")
    reduction = result.n_infosets_full / max(result.n_infosets_abstract, 1)
    for label, value in (
        ("infosets (real -> abstract)",
         f"{result.n_infosets_full:,} -> {result.n_infosets_abstract:,} ({reduction:.1f}x fewer)"),
        ("histories solved (collapsed)", f"{result.n_histories_solved:,}"),
        ("abstract game value (P1, chips/hand)", f"{result.abstract_value:+.6f}"),
        ("abstract exploitability (chips/hand)", f"{result.abstract_exploitability:.3e}"),
        ("lifted value in the real game (P1)", f"{result.lifted_value:+.6f}"),
        ("lifted exploitability in the real game", f"{result.lifted_exploitability:.6g}"),
        ("algorithm", f"{result.algorithm}, {plural(result.iterations, 'iteration')}"),
    ):
        table.add_row(label, value)
    console.print(table)
    if path is None:
        console.print("not saved (give --out FILE to save the lifted strategy)")
    else:
        console.print(f"saved the lifted strategy to {path_text(path)}")
