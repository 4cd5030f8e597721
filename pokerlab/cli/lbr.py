"""``pokerlab lbr AGENT [--game G] --hands N``: local best response against a Hold'em agent.

AGENT is a built-in agent name (``easy``, ``call``, ``random``...) whose ``policy`` LBR can
query, a strategy/table file for the game, or a blueprint (``.bp``). The result is LBR's
winnings in mbb/hand with a 95% interval (duplicate deals: each deal from both seats).
``--variant refined`` values each raise against the part of the range that does not fold
(a departure from the paper); ``--actions`` sets the raises per street.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn

from pokerlab.cli._common import console, load_game, print_json
from pokerlab.cli._progress import StageProgress
from pokerlab.errors import PokerlabError

DEFAULT_ACTIONS = {"paper": "100%,a", "refined": "FC/FCPA/FCPA/FCPA"}
"""LBR's raises by variant when ``--actions`` is not given: the paper's smallest menu on
every street, and the refined LBR's calling preflop."""


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
    variant: Annotated[
        str, typer.Option("--variant", help="paper: raises valued against the whole range; "
                          "refined: against the hands that do not fold.")
    ] = "paper",
    actions: Annotated[
        str | None,
        typer.Option("--actions", help="LBR's raises: an action set per street "
                     "('FC/FCPA/FCPA/FCPA': F fold, C call, H half pot, P pot, A all-in) or a "
                     "bet menu ('100%,a'). Default: '100%,a' (paper), 'FC/FCPA/FCPA/FCPA' "
                     "(refined)."),
    ] = None,
    sizes: Annotated[
        str | None, typer.Option("--sizes", "--bets", hidden=True,
                                help="Old names of --actions.")
    ] = None,
    rollouts: Annotated[
        int, typer.Option("--rollouts", min=1, help="Sampled runouts per equity pre-river.")
    ] = 48,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Play local best response against AGENT; print its winnings in mbb/hand."""
    from pokerlab.abstraction.lbr_actions import lbr_raises
    from pokerlab.eval.lbr import VARIANTS, check_hands, run_lbr
    from pokerlab.games.holdem import HoldemGame

    game = load_game(game_text)
    if not isinstance(game, HoldemGame) or game.n_players != 2:
        raise PokerlabError(f"lbr plays heads-up Hold'em; got {game_text!r}")
    if variant not in VARIANTS:
        raise PokerlabError(f"unknown --variant {variant!r}; allowed: {', '.join(VARIANTS)}")
    if actions is not None and sizes is not None:
        raise PokerlabError("give --actions or its old name --sizes, not both")
    chosen = actions or sizes or DEFAULT_ACTIONS[variant]
    check_hands(hands)
    raises = lbr_raises(chosen, game)
    policy = _policy(agent, game)
    with StageProgress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
        transient=True,
    ) as bar:  # fmt: skip
        task = bar.add_task("LBR hands", total=hands)
        result = run_lbr(
            game, policy, hands, seed=seed, raises=raises, variant=variant,  # type: ignore[arg-type]
            rollouts=rollouts, progress=lambda done: bar.update(task, completed=done),
        )
    if as_json:
        print_json({
            "agent": agent, "game": game_text, "variant": variant, "actions": chosen,
            "hands": result.hands, "seed": seed, "rollouts": rollouts,
            "mbb_per_hand": result.mbb_per_hand, "ci95": result.ci95,
            "interval": [result.mbb_per_hand - result.ci95, result.mbb_per_hand + result.ci95],
            "seat_mbb": list(result.seat_mbb), "faults": result.faults,
        })  # fmt: skip
        return
    console.print(
        f"LBR ({variant}, {chosen}) vs {agent} on {game_text}: {result.mbb_per_hand:.0f} ± "
        f"{result.ci95:.0f} mbb/hand over {result.hands} hands (as P1 "
        f"{result.seat_mbb[0]:.0f}, as P2 {result.seat_mbb[1]:.0f})"
    )


def register(app: typer.Typer) -> None:
    """Add the ``lbr`` command."""
    app.command("lbr")(lbr_command)
