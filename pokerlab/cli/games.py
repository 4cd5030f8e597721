"""``pokerlab games list`` and ``pokerlab games info GAME``."""

from __future__ import annotations

import time

import typer
from rich.table import Table

from pokerlab.cli._common import GameArgument, console, load_game, print_json
from pokerlab.errors import GameTooLargeError
from pokerlab.games import Game, HoldemGame, RhodeIslandGame, registered
from pokerlab.tree import DEFAULT_MEMORY_LIMIT, compile

games_app = typer.Typer(help="List the games and show their sizes.", no_args_is_help=True)


@games_app.command("list")
def list_games(as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """Show every game with its parameters and defaults."""
    entries = registered()
    if as_json:
        print_json(
            [
                {
                    "name": e.name,
                    "summary": e.summary,
                    "parameters": [
                        {"name": p.name, "default": p.default_text, "help": p.help}
                        for p in e.parameters
                    ],
                }
                for e in entries
            ]
        )
        return
    table = Table(title="pokerlab games")
    table.add_column("game")
    table.add_column("what it is")
    table.add_column("parameters (default)")
    for e in entries:
        params = "\n".join(f"{p.name}={p.default_text}: {p.help}" for p in e.parameters)
        table.add_row(e.name, e.summary, params or "-")
    console.print(table)


@games_app.command("info")
def info(
    game: GameArgument,
    memory_limit_mb: float = typer.Option(
        DEFAULT_MEMORY_LIMIT / 1e6, "--memory-limit-mb", help="Refuse trees larger than this."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Compile GAME and print its size: histories, terminals, infosets, sequences, memory.

    Hold'em does not compile: its size is counted instead, exactly where the betting tree
    can be walked, else as labeled lower bounds.
    """
    the_game = load_game(game)
    start = time.perf_counter()
    try:
        tree = compile(the_game, memory_limit=int(memory_limit_mb * 1e6))
    except GameTooLargeError as exc:
        if isinstance(the_game, RhodeIslandGame):
            _rhode_island_info(the_game, as_json=as_json)
            return
        if not isinstance(the_game, HoldemGame):
            raise
        refusal = (
            f"over the memory limit of {exc.limit / 1e6:,.0f} MB (pokerlab.tree.compile "
            "refuses it); use a sampling solver (Monte Carlo CFR) or an abstraction"
        )
        _holdem_info(the_game, refusal, as_json=as_json)
        return
    seconds = time.perf_counter() - start
    per_player = [
        {
            "player": p + 1,
            "infosets": int((tree.infoset_player == p).sum()),
            "sequences": tree.n_sequences[p],
        }
        for p in range(tree.n_players)
    ]
    data = {
        "game": str(the_game.spec),
        "rules": the_game.describe(),
        "players": tree.n_players,
        "histories": tree.n_histories,
        "terminals": tree.n_terminals,
        "decision_nodes": int((tree.player >= 0).sum()),
        "chance_nodes": int((tree.player == -1).sum()),
        "infosets": tree.n_infosets,
        "depth": tree.depth,
        "per_player": per_player,
        "memory_bytes": tree.nbytes,
        "compile_seconds": seconds,
    }
    if as_json:
        print_json(data)
        return
    table = Table(title=f"{the_game.spec}: {the_game.describe()}", show_header=False)
    table.add_column("what")
    table.add_column("count", justify="right")
    for label, key in (
        ("histories", "histories"),
        ("terminal histories", "terminals"),
        ("decision nodes", "decision_nodes"),
        ("chance nodes", "chance_nodes"),
        ("infosets (all players)", "infosets"),
        ("depth", "depth"),
    ):
        table.add_row(label, f"{data[key]:,}")
    for row in per_player:
        table.add_row(
            f"P{row['player']}: infosets / sequences", f"{row['infosets']:,} / {row['sequences']:,}"
        )
    table.add_row("memory of the compiled tree", f"{tree.nbytes / 1e6:,.2f} MB")
    table.add_row("compile time", f"{seconds:.2f} s")
    console.print(table)


def _count(value: int, exact: bool) -> str:
    """``316,206,031,959,190,026 (3.162e+17)``; ``at least ...`` for a lower bound."""
    text = f"{value:,}" if value < 10**6 else f"{value:,} ({value:.3e})"
    return text if exact else f"at least {text}"


def _holdem_info(game: Game, refusal: str, *, as_json: bool) -> None:
    """Print the counted size of a Hold'em game that does not compile."""
    assert isinstance(game, HoldemGame)
    size = game.size()
    data = {
        "game": str(game.spec),
        "rules": game.describe(),
        "players": game.n_players,
        "compiled": False,
        "why_not": refusal,
        "exact": size.exact,
        "method": size.method,
        "histories": size.histories,
        "infoset_keys": size.engine_infosets,
        "game_states": size.game_states,
        "infosets": size.infosets,
        "betting_decisions": list(size.betting_decisions),
    }
    if as_json:
        print_json(data)
        return
    exact = size.exact
    table = Table(title=f"{game.spec}: {game.describe()}", show_header=False)
    table.add_column("what")
    table.add_column("count", justify="right")
    table.add_row("counted", "exactly" if exact else size.method)
    table.add_row(
        "histories (this engine: chance, decision and terminal nodes; cards dealt one at "
        "a time, in order)",
        _count(size.histories, exact),
    )
    table.add_row(
        "infoset keys (this engine: own cards and board in dealt order)",
        _count(size.engine_infosets, exact),
    )
    table.add_row(
        "game states (Johanson 2013, Bowling et al. 2015: decision points; each "
        "player's hole cards and the flop as unordered sets)",
        _count(size.game_states, exact),
    )
    table.add_row(
        "infosets (the same convention: a decision point as its player sees it)",
        _count(size.infosets, exact),
    )
    table.add_row(
        "betting decisions per street (cards aside)",
        " / ".join(f"{n:,}" for n in size.betting_decisions),
    )
    console.print(table)
    console.print(f"not compiled: {refusal}", soft_wrap=True)


def _rhode_island_info(game: RhodeIslandGame, *, as_json: bool) -> None:
    """Print the exact size of a Rhode Island game too big to compile, and its public tree."""
    from pokerlab.subgame.rhode_island import public_size

    size = game.size
    public = public_size(game)
    data = {
        "game": str(game.spec),
        "rules": game.describe(),
        "players": 2,
        "compiled": False,
        "histories": size.histories,
        "decision_points": size.decision_points,
        "terminals": size.terminals,
        "infosets": list(size.infosets),
        "betting_decisions": list(size.betting_decisions),
        "public_nodes": public.n_nodes,
        "public_rows": list(public.n_rows),
        "abstract_infosets": list(public.abstract_infosets),
        "solver_memory_bytes": public.bytes,
    }
    if as_json:
        print_json(data)
        return
    table = Table(title=f"{game.spec}: {game.describe()}", show_header=False)
    table.add_column("what")
    table.add_column("count", justify="right")
    table.add_row("histories (chance, decision and terminal nodes)", _count(size.histories, True))
    table.add_row("decision points (game states)", _count(size.decision_points, True))
    table.add_row("terminal histories", _count(size.terminals, True))
    table.add_row("infosets P1 / P2", f"{size.infosets[0]:,} / {size.infosets[1]:,}")
    table.add_row("betting decisions per round (cards aside)",
                  " / ".join(f"{n:,}" for n in size.betting_decisions))
    table.add_row("public tree with suit isomorphism: nodes", f"{public.n_nodes:,}")
    table.add_row("abstract infosets P1 / P2 (node x card)",
                  f"{public.abstract_infosets[0]:,} / {public.abstract_infosets[1]:,}")
    table.add_row("range solver memory (float64)", f"{public.bytes / 1e6:,.0f} MB")
    console.print(table)
    console.print(f"not compiled (too many histories); solve it with: pokerlab solve "
                  f"'{game.spec}' --algorithm public-tree --target 1e-3",
                  soft_wrap=True, markup=False, highlight=False)


def register(app: typer.Typer) -> None:
    """Add the ``games`` commands."""
    app.add_typer(games_app, name="games")
