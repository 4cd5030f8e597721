"""``pokerlab lbr AGENT [--game G] --hands N``: local best response against a Hold'em agent.

AGENT is a built-in agent name (``easy``, ``call``, ``random``...) whose ``policy`` LBR can
query, or a strategy/table file for the game. The result is LBR's winnings in mbb/hand with a
95% interval (duplicate deals: each deal from both seats).
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn

from pokerlab.cli._common import console, load_game, print_json
from pokerlab.cli._progress import StageProgress
from pokerlab.errors import PokerlabError


def _policy(agent: str, game: object) -> object:
    """The policy of a built-in agent name or a policy file (the one resolver)."""
    from pokerlab.agents.resolve import resolve_policy
    from pokerlab.games import Game

    assert isinstance(game, Game)
    return resolve_policy(agent, game)


def lbr_command(
    agent: Annotated[
        str, typer.Argument(help="A built-in agent name, a strategy file or a blueprint (.bp).")
    ],
    game_text: Annotated[
        str, typer.Option("--game", help="A heads-up Hold'em game.")
    ] = 'holdem(betting="limit")',
    hands: Annotated[
        int, typer.Option("--hands", min=2, help="Hands to play (even: each deal twice).")
    ] = 20_000,
    seed: Annotated[int, typer.Option("--seed", min=0, help="Seed of the cards and LBR.")] = 0,
    sizes: Annotated[
        str, typer.Option("--bets", help="No-limit raise sizes (a bet menu: '100%,a').")
    ] = "100%,a",
    rollouts: Annotated[
        int, typer.Option("--rollouts", min=1, help="Sampled runouts per equity pre-river.")
    ] = 48,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Play local best response against AGENT; print its winnings in mbb/hand."""
    from pokerlab.blueprint.lbr import check_hands, run_lbr
    from pokerlab.games.holdem import HoldemGame

    game = load_game(game_text)
    if not isinstance(game, HoldemGame) or game.n_players != 2:
        raise PokerlabError(f"lbr plays heads-up Hold'em; got {game_text!r}")
    check_hands(hands)
    policy = _policy(agent, game)
    with StageProgress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
        transient=True,
    ) as bar:  # fmt: skip
        task = bar.add_task("LBR hands", total=hands)
        result = run_lbr(
            game, policy, hands, seed=seed, sizes=sizes, rollouts=rollouts,  # type: ignore[arg-type]
            progress=lambda done: bar.update(task, completed=done),
        )
    if as_json:
        print_json({
            "agent": agent, "game": game_text, "hands": result.hands, "seed": seed,
            "mbb_per_hand": result.mbb_per_hand, "ci95": result.ci95,
            "seat_mbb": list(result.seat_mbb),
        })  # fmt: skip
        return
    console.print(
        f"LBR vs {agent} on {game_text}: {result.mbb_per_hand:.0f} ± {result.ci95:.0f} mbb/hand "
        f"over {result.hands} hands (as P1 {result.seat_mbb[0]:.0f}, as P2 "
        f"{result.seat_mbb[1]:.0f})"
    )


def register(app: typer.Typer) -> None:
    """Add the ``lbr`` command."""
    app.command("lbr")(lbr_command)
