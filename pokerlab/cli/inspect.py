"""``pokerlab exploit``, ``pokerlab value`` and ``pokerlab show``: look at saved strategies.

- ``exploit FILE``: the exploitability (chips per hand, NashConv / players) and what a
  best response to the strategy wins in each seat;
- ``value FILE [FILE2]``: the exact expected value of each seat when FILE plays every seat,
  or FILE plays P1 and FILE2 plays P2;
- ``show FILE``: the strategy as a table like the tutorial's Kuhn tables (or JSON / CSV);
  ``--by-card`` prints a 2-player Kuhn strategy as the Kuhn CFR repository's per-card
  matrices (P1: check, bet, fold, call; P2: check_check, bet_check, bet_fold, bet_call).
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pokerlab.cli._common import JsonOption, check_input_file, console, print_json
from pokerlab.errors import GameTooLargeError, SpecError

if TYPE_CHECKING:  # the evaluators load numba: imported when a command runs, not for --help
    from pokerlab.agents.policy_files import PolicyFile
    from pokerlab.strategy import Strategy

FileArgument = Annotated[Path, typer.Argument(
    help="A strategy file written by `pokerlab solve` (or any policy file: .npz, .bp, .pt).")]


def register(app: typer.Typer) -> None:
    """Add the ``exploit``, ``value`` and ``show`` commands to ``app``."""
    app.command("exploit")(exploit_command)
    app.command("value")(value_command)
    app.command("show")(show_command)


# --------------------------------------------------------------------------------------
# exploit


def exploit_command(file: FileArgument, json: JsonOption = False) -> None:
    """Print FILE's exploitability and each seat's best-response value.

    FILE is any file a command saves a strategy to. A game too big to compile has no
    exact exploitability: one line says so and names the command that measures it.
    """
    from pokerlab.cli._policy_view import as_strategy, range_evaluation, read_file, too_large
    from pokerlab.eval import best_response, exploitability

    found = read_file(file)
    game = found.policy.game
    if found.kind == "range":  # Rhode Island: exact on its public tree, whatever its size
        value, responses = range_evaluation(found)
    else:
        try:
            strategy = as_strategy(found, "exploitability")
        except GameTooLargeError as error:
            raise too_large(found, error) from None
        value = exploitability(game, strategy)
        responses = [best_response(game, strategy, player).value
                     for player in range(game.n_players)]
    if json:
        print_json(
            {
                "game": str(game.spec),
                "file": str(file),
                "exploitability": value,
                "nash_conv": value * game.n_players,
                "best_response_values": responses,
            }
        )
        return
    console.print(f"game: {game.spec}")
    console.print(f"exploitability: {value:.6g} chips per hand (NashConv / {game.n_players})")
    for player, response in enumerate(responses):
        console.print(
            f"best response as P{player + 1} wins {response:.6g} chips per hand "
            "against the others' strategy"
        )


# --------------------------------------------------------------------------------------
# value


def value_command(
    file: FileArgument,
    file2: Annotated[
        Path | None, typer.Argument(help="P2's strategy file (default: FILE plays both seats).")
    ] = None,
    json: JsonOption = False,
) -> None:
    """Print the exact value of each seat: FILE in every seat, or FILE as P1 and FILE2 as P2."""
    from pokerlab.eval import expected_value
    from pokerlab.strategy import Strategy

    check_input_file(file)
    if file2 is not None:
        check_input_file(file2)
    first = Strategy.load(file)
    game = first.game
    if file2 is None:
        values = expected_value(game, first)
    else:
        second = Strategy.load(file2, game=game)
        values = expected_value(game, [first, second])
    advantage = (values[1] - values[0]) / 2 if len(values) == 2 else None
    if json:
        print_json(
            {
                "game": str(game.spec),
                "files": [str(file), str(file2 if file2 is not None else file)],
                "values": list(values),
                "p2_advantage": advantage,
            }
        )
        return
    console.print(f"game: {game.spec}")
    for player, value in enumerate(values):
        console.print(f"P{player + 1} value: {value:.10f} chips per hand")
    if advantage is not None:
        console.print(f"P2 advantage: {advantage:.10f} chips per hand ((P2 - P1) / 2)")


# --------------------------------------------------------------------------------------
# show


def show_command(
    file: FileArgument,
    prefix: Annotated[
        str, typer.Option("--prefix", help="Only infosets whose key starts with this, e.g. 'K|'.")
    ] = "",
    player: Annotated[
        int | None, typer.Option("--player", help="Only this player's infosets (1 or 2...).")
    ] = None,
    json: JsonOption = False,
    as_csv: Annotated[bool, typer.Option("--csv", help="Print CSV rows.")] = False,
    by_card: Annotated[
        bool,
        typer.Option(
            "--by-card",
            help="2-player Kuhn: one row per card, P1 [check, bet, fold, call] and P2 "
            "[check_check, bet_check, bet_fold, bet_call] (the Kuhn CFR repository's layout).",
        ),
    ] = False,
) -> None:
    """Print FILE's strategy as a table (or --json / --csv), optionally filtered.

    FILE is any file a command saves a strategy to: strategies and checkpoints, infoset
    tables (their rows), blueprints and networks (by infoset where the game compiles,
    else what the file holds).
    """
    from pokerlab.cli._policy_view import as_strategy, describe, read_file
    from pokerlab.cli.lp import strategy_table
    from pokerlab.strategy import InfosetTable, strategy_csv, strategy_json, strategy_rows

    found = read_file(file)
    if json and as_csv:
        raise SpecError("choose one of --json and --csv")
    try:
        strategy = None if found.kind == "range" else as_strategy(found, "a table by infoset")
    except GameTooLargeError:
        strategy = None
    if strategy is None:
        if isinstance(found.policy, InfosetTable) or found.kind == "range":
            _show_rows(found, prefix=prefix, player=player, json=json, as_csv=as_csv)
            return
        if json or as_csv:
            raise SpecError(f"{file}: {found.policy.game.spec} is too big to list by "
                            "infoset; --json and --csv list strategies and tables only")
        for text in describe(found):
            console.print(text, highlight=False, markup=False, soft_wrap=True)
        return
    game = strategy.game
    if json and as_csv:
        raise SpecError("choose one of --json and --csv")
    if player is not None and not 1 <= player <= game.n_players:
        raise SpecError(f"--player must be between 1 and {game.n_players}; got {player}")
    if by_card:
        if prefix:
            raise SpecError("--by-card shows every card; it takes no --prefix (use --player)")
        _show_by_card(strategy, player=player, json=json, as_csv=as_csv)
        return
    seat = None if player is None else player - 1
    if json:
        print_json(strategy_json(strategy, prefix=prefix, player=seat))
    elif as_csv:
        typer.echo(strategy_csv(strategy, prefix=prefix, player=seat), nl=False)
    else:
        rows = strategy_rows(strategy, prefix=prefix, player=seat)
        if not rows:
            console.print(f"no infoset matches prefix {prefix!r}")
            return
        console.print(strategy_table(strategy, rows, title="Strategy"))


def _show_rows(found: PolicyFile, *, prefix: str, player: int | None, json: bool,
               as_csv: bool) -> None:
    """Print the rows an infoset table or a Rhode Island checkpoint holds, by key."""
    from pokerlab.cli._policy_view import MAX_ROWS, print_rows, range_rows, table_rows
    from pokerlab.strategy import InfosetTable

    if player is not None:
        raise SpecError("these rows are listed by infoset key; filter them with --prefix "
                        "instead of --player")
    policy = found.policy
    game = policy.game
    if isinstance(policy, InfosetTable):
        rows, total = table_rows(policy, prefix), None
        title = f"Infoset table ({len(policy):,} infosets met): {game.spec}"
    else:
        rows, total = range_rows(found, prefix, limit=None if json or as_csv else MAX_ROWS)
        title = f"Range solver's average strategy (boards up to suit isomorphism): {game.spec}"
    if json:
        print_json({"game": str(game.spec), "metadata": dict(getattr(policy, "metadata", {})),
                    "infosets": {key: {"actions": dict(actions)} for key, actions in rows}})
    elif as_csv:
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(["infoset", "action", "probability"])
        for key, actions in rows:
            for name, prob in actions:
                writer.writerow([key, name, f"{prob:.10g}"])
        typer.echo(out.getvalue(), nl=False)
    else:
        print_rows(title, rows, prefix=prefix, total=total)


def _show_by_card(strategy: Strategy, *, player: int | None, json: bool, as_csv: bool) -> None:
    """Print the per-card matrices of a 2-player Kuhn strategy (table, JSON or CSV)."""
    from rich.table import Table

    from pokerlab.strategy.kuhn_tables import P1_COLUMNS, P2_COLUMNS, kuhn_card_matrix

    matrix = kuhn_card_matrix(strategy)
    seats = [(1, P1_COLUMNS, matrix.p1), (2, P2_COLUMNS, matrix.p2)]
    if player is not None:
        seats = [seats[player - 1]]
    if json:
        print_json(
            {
                "game": str(strategy.game.spec),
                "cards": list(matrix.cards),
                **{
                    f"P{seat}": {
                        "columns": list(columns),
                        "rows": {card: list(map(float, values[r]))
                                 for r, card in enumerate(matrix.cards)},
                    }
                    for seat, columns, values in seats
                },
            }
        )
        return
    if as_csv:
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(["player", "card", "column", "probability"])
        for seat, columns, values in seats:
            for r, card in enumerate(matrix.cards):
                for column, value in zip(columns, values[r], strict=True):
                    writer.writerow([seat, card, column, f"{value:.10g}"])
        typer.echo(out.getvalue(), nl=False)
        return
    for seat, columns, values in seats:
        table = Table(title=f"P{seat}'s strategy by card ({strategy.game.spec}), lowest card first")
        table.add_column("card")
        for column in columns:
            table.add_column(column, justify="right")
        for r, card in enumerate(matrix.cards):
            table.add_row(card, *(f"{v:.4f}" for v in values[r]))
        console.print(table)
