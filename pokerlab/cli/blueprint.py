"""``pokerlab blueprint train GAME --out FILE.bp``: train a Hold'em blueprint by ES-MCCFR.

Runs through the one console runner (:func:`pokerlab.solvers.run_console.run_to_budget`):
``--iterations`` and ``--seconds`` (wall-clock) count from the blueprint's start, so a
resumed run ends where an uninterrupted one would; ``--target`` stops at an exploitability
where the game compiles; a checkpoint is saved every ``--checkpoint-every`` seconds and on
Ctrl-C or SIGTERM (within a batch of deals: the blueprint file itself, which holds all a
resumed run needs); a progress bar shows iterations/s, table rows and memory.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from pokerlab.cli._common import (
    GameArgument,
    check_output_path,
    console,
    err_console,
    load_game,
    path_text,
    print_json,
)
from pokerlab.cli._progress import format_bytes
from pokerlab.errors import FileFormatError, SolverError, SpecError

if TYPE_CHECKING:
    from pokerlab.blueprint.betting_tree import BettingRules, TreeSize


def register(app: typer.Typer) -> None:
    """Add the ``blueprint`` command group to ``app``."""
    group = typer.Typer(
        name="blueprint",
        help="Train Hold'em blueprints (ES-MCCFR on an abstraction) and describe them.",
        no_args_is_help=True,
    )
    group.command("train")(train_command)
    group.command("info")(info_command)
    app.add_typer(group, name="blueprint")




def train_command(
    game_text: GameArgument,
    out: Annotated[Path, typer.Option("--out", help="The blueprint file (.bp) to write.")],
    buckets: Annotated[
        str, typer.Option("--buckets", help="'lossless' (small games) or counts like "
                          "'169,50,50,50' (Texas Hold'em, cached bucket tables).")
    ] = "lossless",
    bins: Annotated[
        int, typer.Option("--bins", min=2, help="Clustered buckets: equity histogram bins.")
    ] = 50,
    sample: Annotated[
        int, typer.Option("--sample", min=100, help="Clustered buckets: hands sampled to "
                          "cluster the flop and turn.")
    ] = 200_000,
    bet_menu: Annotated[
        str | None, typer.Option("--bets", help="No-limit: the bet and raise sizes the tree "
                                 "offers, one list for every street ('50%,100%,a') or one per "
                                 "street ('2.5x,a/33%,75%,a/75%,a/a'): pot percentages, raise "
                                 "multiples of the bet faced ('2.5x'), 'a' all-in.")
    ] = None,
    iterations: Annotated[
        int | None, typer.Option("--iterations", min=1, help="Stop at this many iterations.")
    ] = None,
    seconds: Annotated[
        float | None, typer.Option("--seconds", min=0.0, help="Stop after this many "
                                   "wall-clock seconds in all.")
    ] = None,
    target: Annotated[
        float | None, typer.Option("--target", min=0.0, help="Stop at this exploitability "
                                   "(chips per hand; games that compile, e.g. Leduc).")
    ] = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="Continue the blueprint in --out.")
    ] = False,
    seed: Annotated[int, typer.Option("--seed", min=0, help="Seed of the deals.")] = 0,
    threads: Annotated[
        int, typer.Option("--threads", min=1, help="Kernel threads (1: deterministic).")
    ] = 1,
    prune_after: Annotated[
        int, typer.Option("--prune-after", min=0, help="Iterations before pruning starts.")
    ] = 0,
    prune_threshold: Annotated[
        float, typer.Option("--prune-threshold", min=0.0, help="Prune actions with regret "
                            "below -THRESHOLD x the sum of weights (0: off).")
    ] = 0.0,
    checkpoint_every: Annotated[
        float, typer.Option("--checkpoint-every", min=1.0, help="Seconds between saves.")
    ] = 300.0,
    chunk: Annotated[
        int | None, typer.Option("--chunk", min=1, help="Iterations per kernel call (one "
                                 "batch of deals; the same seed and chunk give the same "
                                 "tables). Default 4096, or the file's when resuming.")
    ] = None,
    storage: Annotated[
        str | None, typer.Option("--storage", help="The tables' number type: float64, or "
                                 "float32 for half the memory (large abstractions). Default "
                                 "float64, or the file's when resuming.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON summary.")] = False,
    backend: Annotated[
        str, typer.Option("--backend", help="Where it trains: local (this process) or ray "
                          "(Ray workers, rounds of sampled iterations; docs/scaling.md).")
    ] = "local",
    address: Annotated[
        str | None, typer.Option("--address", help="With --backend ray: the cluster, auto or "
                                 "HOST:PORT (default: Ray on this machine).")
    ] = None,
    workers: Annotated[
        int | None, typer.Option("--workers", min=1, help="With --backend ray: workers "
                                 "(default: the cluster's CPUs).")
    ] = None,
    batch: Annotated[
        int, typer.Option("--batch", min=1, help="With --backend ray: iterations per worker "
                          "per round; --iterations counts all workers' iterations.")
    ] = 1000,
) -> None:
    """Train a blueprint of GAME (Hold'em or Leduc) by ES-MCCFR; save it (and on Ctrl-C) to --out.

    Linear weighting, optional negative-regret pruning, --threads kernel threads.
    --iterations and --seconds (wall-clock) count from the blueprint's start; Ctrl-C or
    SIGTERM saves --out and prints the command that resumes it (--resume).
    """
    from pokerlab.blueprint.betting_tree import check_tree
    from pokerlab.blueprint.cards import cards_from_spec, check_clustered_game, parse_buckets
    from pokerlab.blueprint.mccfr import (
        DEFAULT_BATCH,
        BlueprintTrainer,
        check_storage,
        check_tables,
    )
    from pokerlab.blueprint.nolimit import rules_for
    from pokerlab.blueprint.store import load_blueprint, read_header, save_blueprint
    from pokerlab.cli._blueprint_ray import check_backend, train_on_ray
    from pokerlab.solvers.run_console import Budget, run_to_budget

    check_output_path(out)
    if iterations is None and seconds is None and target is None:
        raise SolverError("blueprint train needs a budget: --iterations, --seconds or --target")
    game = load_game(game_text)
    cards_spec = parse_buckets(buckets)
    if cards_spec["kind"] == "holdem":
        # every canonical board of every street (boards=None): a build on fewer boards is
        # card-blind elsewhere and is offered to tests only (pokerlab.blueprint.cards)
        cards_spec.update(n_bins=bins, sample=sample, boards=None)
    if storage is not None:
        check_storage(storage)
    if check_backend(backend, address, workers, threads):
        if storage not in (None, "float64"):
            raise SpecError("--storage float32 goes with --backend local (Ray's rounds keep "
                            "float64 tables)")
        if not train_on_ray(game, game_text, out, cards_spec, bet_menu, iterations=iterations,
                            seconds=seconds, target=target, resume=resume, seed=seed,
                            prune_after=prune_after, prune_threshold=prune_threshold,
                            checkpoint_every=checkpoint_every, address=address,
                            workers=workers, batch=batch, as_json=as_json):
            raise typer.Exit(130)
        return
    if resume:
        if not out.exists():
            raise FileFormatError(f"--resume: {out} does not exist; train without --resume")
        stored = read_header(out).get("storage", "float64")
        if storage is not None and storage != stored:
            raise SpecError(f"{out} holds {stored} tables; resume without --storage "
                            f"(or with --storage {stored})")
        trainer, header = load_blueprint(out, game=game, threads=threads, batch=chunk)
        if header["cards"].get("boards") is not None:
            raise SpecError(
                f"{out} was trained on the test-only tables of {header['cards']['boards']} "
                "boards a street (card-blind on every other board); train a new blueprint "
                "on the full tables instead of resuming it"
            )
        if header["cards"]["kind"] != cards_spec["kind"] or (
            cards_spec["kind"] == "holdem"
            and header["cards"] != cards_spec
        ):
            raise SpecError(
                f"{out} was trained with buckets {header['cards']}; resume with the same "
                "--buckets"
            )
        cards_spec, bet_menu = header["cards"], header["bet_menu"]
    else:
        if out.exists():
            raise FileFormatError(
                f"{out} exists; pass --resume to go on training it, or choose another --out"
            )
        rules = rules_for(game, bet_menu)
        size = _show_tree_size(rules, as_json)
        check_tree(size)  # refused before minutes of card tables
        if cards_spec["kind"] == "holdem":
            check_clustered_game(game)
            tables = check_tables(size, cards_spec["bucket_counts"], storage=storage or "float64")
            if not as_json:
                err_console.print(f"tables: {format_bytes(tables)} of {storage or 'float64'} "
                                  "(regrets and strategy sums), allocated after the card tables",
                                  soft_wrap=True, markup=False, highlight=False)
        cards = cards_from_spec(game, cards_spec)
        trainer = BlueprintTrainer(
            game, cards, rules, seed=seed, prune_after=prune_after,
            prune_threshold=prune_threshold, threads=threads, batch=chunk or DEFAULT_BATCH,
            storage=storage or "float64",
        )  # fmt: skip

    def save() -> None:
        save_blueprint(trainer, out, cards=cards_spec, bet_menu=bet_menu)

    finished = run_to_budget(trainer, Budget(iterations, seconds, target),
                             description="blueprint", save=save, save_every=checkpoint_every,
                             quiet=as_json, console=err_console)
    save()
    summary = {
        "game": str(game.spec), "out": str(out), "iterations": trainer.iterations,
        "seconds": round(trainer.seconds, 3), "rows": trainer.n_rows,
        "memory_bytes": trainer.nbytes, "storage": trainer.storage,
        "buckets": list(trainer.cards.bucket_counts),
        "iterations_per_second": round(trainer.iterations / max(trainer.seconds, 1e-9), 1),
        "wall_seconds": round(trainer.wall_seconds, 3),
        "compile_seconds": round(trainer.compile_seconds, 3),
        "exploitability": trainer.history[-1].exploitability if trainer.history else None,
        "finished": finished,
    }  # fmt: skip
    if as_json:
        print_json(summary)
    else:
        console.print(
            f"{trainer.iterations:,} iterations in {trainer.seconds:.1f} s "
            f"({summary['iterations_per_second']:,} it/s), {trainer.n_rows:,} rows, "
            f"{format_bytes(trainer.nbytes)}; saved {path_text(out)}"
        )
    if not finished:
        err_console.print(
            f"interrupted; resume with: pokerlab blueprint train '{game_text}' --out "
            f"{path_text(out)} --buckets {buckets} --resume"
            + (f" --bins {bins} --sample {sample}" if cards_spec["kind"] == "holdem" else "")
            + (f" --iterations {iterations}" if iterations else "")
            + (f" --seconds {seconds}" if seconds is not None else "")
            + (f" --target {target}" if target is not None else "")
            + (f" --chunk {chunk}" if chunk is not None else "")
        )
        raise typer.Exit(130)


def info_command(
    path: Annotated[Path, typer.Argument(help="A blueprint file (.bp).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the header as JSON.")] = False,
) -> None:
    """Print a blueprint file's header: game, buckets, bet menu, iterations, seed."""
    from pokerlab.blueprint.store import read_header

    header = read_header(path)
    header.pop("rng", None)
    if as_json:
        print_json(header)
        return
    for key in ("spec", "cards_name", "bucket_counts", "bet_menu", "iterations", "seconds",
                "seed", "prune_after", "prune_threshold", "rows", "pokerlab_version"):
        console.print(f"{key}: {header.get(key)}", highlight=False)
    console.print(f"storage: {header.get('storage', 'float64')}", highlight=False)
    by_street = _menu_by_street(header)
    if by_street is not None:
        console.print(f"bet_menu_by_street: {by_street}", highlight=False)


def _menu_by_street(header: dict[str, Any]) -> str | None:
    """The header's no-limit menu street by street (None: limit, or unreadable rules)."""
    from pokerlab.blueprint.nolimit import menu_text
    from pokerlab.blueprint.store import rules_from_header

    try:
        return menu_text(rules_from_header(header))
    except (KeyError, TypeError, SpecError):
        return None


def _show_tree_size(rules: BettingRules, as_json: bool) -> TreeSize:
    """Count the betting tree and say its size before anything is allocated.

    Counting is a stage of the progress bar (minutes for six players and a few sizes); the
    count is returned, so the command refuses a tree or tables past the memory limit
    before it builds the card tables.
    """
    from rich.progress import SpinnerColumn, TextColumn

    from pokerlab.blueprint.betting_tree import tree_size
    from pokerlab.cli._progress import StageProgress

    with StageProgress(SpinnerColumn(), TextColumn("{task.description}"), transient=True,
                       disable=as_json) as bar:
        bar.add_task("counting the betting tree", total=None)
        size = tree_size(rules)
    if not as_json:
        err_console.print(
            f"betting tree: {size.n_nodes:,} nodes, {size.n_decisions:,} decisions "
            f"({format_bytes(size.bytes)})", soft_wrap=True, markup=False, highlight=False)
    return size
