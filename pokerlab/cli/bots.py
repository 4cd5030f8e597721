"""``pokerlab bots``: the built-in agents (``list``), and what they need built (``prepare``)."""

from __future__ import annotations

import time
from typing import Annotated

import typer
from rich.table import Table

from pokerlab.cli._common import (
    CacheDirOption,
    JsonOption,
    console,
    err_console,
    load_game,
    path_text,
    print_json,
)

bots_app = typer.Typer(help="The built-in agents (bots): list them, prepare them.",
                       no_args_is_help=True)

@bots_app.command("list")
def list_bots(json: JsonOption = False) -> None:
    """Show every built-in agent: its name, what it is and which games it plays.

    Any of these names is accepted wherever an agent is (`match`, `play`, `arena run
    --builtins`, `lbr`, `acpc client --agent`, the web tables), beside policy files
    (.npz, .bp, .pt), entrant files (.py) and ACPC executables.
    """
    from pokerlab.agents.registry import describe_agents

    rows = describe_agents()
    if json:
        print_json([{"name": n, "summary": s, "plays": p} for n, s, p in rows])
        return
    table = Table(title="built-in agents")
    for column in ("name", "what it is", "plays"):
        table.add_column(column)
    for row in rows:
        table.add_row(*row)
    console.print(table)


@bots_app.command("prepare")
def prepare(
    name: Annotated[str, typer.Argument(
        help="The bot: hard, hard-search or hard-offmenu (one blueprint).")],
    game: Annotated[str, typer.Option(
        "--game", help="The Hold'em game it will play (default: heads-up no-limit, 100 big "
        "blinds; a web table's game is shown on its page).")] = "holdem",
    cache_dir: CacheDirOption = None,
    json: JsonOption = False,
) -> None:
    """Build what a bot needs before it plays, ahead of time: the Hard AI's blueprint.

    The Hard AI (and hard-search, which searches on top of the same blueprint, and
    hard-offmenu, which bets it off its menu) plays its
    game's default blueprint; without this command its first use builds the card tables
    (Texas Hold'em: about 90 s and 2.5 GB once) and trains the blueprint (minutes, once),
    inside whatever started it. Says what it will build and what that costs, then shows
    each stage; Ctrl-C keeps the training done so far and the next run resumes it.
    """
    from pokerlab.agents.hard import (
        check_trainable,
        default_blueprint_path,
        default_blueprint_ready,
        preparation_plan,
        train_default_blueprint,
    )
    from pokerlab.agents.registry import BLUEPRINT_BOTS, plays_blueprint
    from pokerlab.errors import SpecError

    if not plays_blueprint(name):
        raise SpecError(f"nothing to prepare for {name!r}: only {', '.join(BLUEPRINT_BOTS)} need "
                        "a blueprint built; every other built-in agent is ready")
    the_game = load_game(game)
    path = default_blueprint_path(the_game, cache_dir)
    started = time.perf_counter()
    ready = default_blueprint_ready(the_game, cache_dir)
    if not ready:
        check_trainable(the_game)  # before the plan: a game it cannot train is refused now
        if not json:
            err_console.print(f"preparing {name} for {the_game.spec}:", markup=False)
            for line in preparation_plan(the_game, cache_dir):
                err_console.print(f"  - {line}", markup=False, highlight=False)
        try:
            train_default_blueprint(the_game, cache_dir, show_progress=not json,
                                    announce=False)
        except KeyboardInterrupt:
            err_console.print("interrupted: the training done so far is kept; run the same "
                              "command again to resume")
            raise typer.Exit(130) from None
    seconds = time.perf_counter() - started
    if json:
        print_json({"bot": name, "game": str(the_game.spec), "blueprint": str(path),
                    "built": not ready, "seconds": round(seconds, 3)})
        return
    if ready:
        console.print(f"{name} is ready for {the_game.spec}: {path_text(path)}")
    else:
        console.print(f"{name} is ready for {the_game.spec} (prepared in {seconds:.1f} s): "
                      f"{path_text(path)}")


def register(app: typer.Typer) -> None:
    """Add ``pokerlab bots`` to ``app``."""
    app.add_typer(bots_app, name="bots")
