"""``pokerlab play``: play poker in the terminal against the built-in AIs.

``pokerlab play holdem --players 4 --opponents easy --stack 200`` deals a session of
Texas Hold'em (stacks carry over, the button moves, busted seats leave) with you in seat 0;
``pokerlab play kuhn`` and ``pokerlab play leduc --opponent random|STRATEGY.npz`` play
heads-up hands, you alternating seats. Moves are read one line at a time from stdin, so
a session can be driven through a pipe; ``q`` quits.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Annotated, TextIO

import numpy as np
import typer

from pokerlab._types import CHANCE, TERMINAL, Action
from pokerlab.agents.base import HandResult, call_observe, call_reset
from pokerlab.agents.easy import EasyAI
from pokerlab.agents.human import HumanAgent, HumanQuitError
from pokerlab.cards import cards_pretty, describe
from pokerlab.errors import SpecError
from pokerlab.games import Game, State, load
from pokerlab.games.holdem import STREET_NAMES, HoldemState
from pokerlab.games.holdem_session import HandSetup, HoldemSession
from pokerlab.games.observation import Observation

SeedOption = Annotated[
    int | None, typer.Option("--seed", min=0, help="Seed of the deal and the AIs.")
]
HandsOption = Annotated[
    int | None, typer.Option("--hands", min=1, help="Stop after this many hands.")
]


def register(app: typer.Typer) -> None:
    """Add the ``play`` command group to ``app``."""
    group = typer.Typer(
        name="play",
        help="Play poker in the terminal against the AIs (Hold'em, Kuhn, Leduc).",
        no_args_is_help=True,
    )
    group.command("holdem")(holdem_command)
    group.command("kuhn")(kuhn_command)
    group.command("leduc")(leduc_command)
    app.add_typer(group, name="play")


class RandomAgent:
    """Plays a uniformly random legal action (seeded)."""

    def __init__(self, rng: np.random.Generator | int | None = None) -> None:
        self.rng = np.random.default_rng(rng)

    def act(self, observation: Observation) -> Action:
        """A legal action, uniformly."""
        legal = observation.legal_actions
        return legal[int(self.rng.integers(len(legal)))]


def _out() -> TextIO:
    return sys.stdout


def holdem_command(
    players: Annotated[int, typer.Option("--players", help="Seats at the table, 2..9.")] = 4,
    opponents: Annotated[
        str, typer.Option("--opponents", help="The AIs: easy or random.")
    ] = "easy",
    stack: Annotated[int, typer.Option("--stack", help="Each seat's starting chips.")] = 200,
    betting: Annotated[str, typer.Option("--betting", help="nolimit or limit.")] = "nolimit",
    blinds: Annotated[str, typer.Option("--blinds", help="Small/big blind, e.g. 1/2.")] = "1/2",
    hands: HandsOption = None,
    seed: SeedOption = None,
) -> None:
    """Play a session of Texas Hold'em against AIs (you are seat 0)."""
    if opponents not in ("easy", "random"):
        raise SpecError(f"--opponents must be easy or random; got {opponents!r}")
    try:
        small, big = (int(x) for x in blinds.replace(",", "/").split("/"))
    except ValueError:
        raise SpecError(f"--blinds must look like 1/2; got {blinds!r}") from None
    out = _out()
    session = HoldemSession(players, betting=betting, blinds=(small, big), stack=stack, rng=seed)
    seeds = np.random.SeedSequence(seed).spawn(players)
    ais = {
        seat: EasyAI(np.random.default_rng(seeds[seat]))
        if opponents == "easy"
        else RandomAgent(np.random.default_rng(seeds[seat]))
        for seat in range(1, players)
    }
    label = "Easy AI" if opponents == "easy" else "Random"
    human = HumanAgent(output=out)
    print(
        f"Texas Hold'em, {betting}, blinds {small}/{big}, {players} seats of {stack} chips. "
        f"You are seat 0; seats 1-{players - 1} are {label}s. Type q to quit.",
        file=out,
    )
    try:
        while not session.is_over and session.stacks[0] > 0:
            if hands is not None and session.hands_played >= hands:
                break
            _play_holdem_hand(session, human, ais, label, out)
    except HumanQuitError as exc:
        print(f"\nStopped: {exc}.", file=out)
    print(
        f"\nAfter {session.hands_played} hands: "
        + ", ".join(
            f"{'you' if seat == 0 else f'seat {seat}'} {chips}"
            for seat, chips in enumerate(session.stacks)
        ),
        file=out,
    )


def _play_holdem_hand(
    session: HoldemSession,
    human: HumanAgent,
    ais: Mapping[int, object],
    label: str,
    out: TextIO,
) -> None:
    setup = session.start_hand()
    names = {
        player: "You" if seat == 0 else f"Seat {seat} ({label})"
        for player, seat in enumerate(setup.seats)
    }
    human.seat_names = names
    print(f"\n=== Hand {setup.number}: button seat {setup.button} ===", file=out)
    for agent in [human, *ais.values()]:
        call_reset(agent)
    state: State = session.deal(setup.game.initial_state())
    assert isinstance(state, HoldemState)
    shown_board = 0
    while state.player != TERMINAL:
        shown_board = _show_board(state, shown_board, out)
        player = state.player
        seat = setup.seats[player]
        agent = human if seat == 0 else ais[seat]
        action = agent.act(state.observation())  # type: ignore[attr-defined]
        if seat != 0:
            print(f"  {names[player]}: {state.action_name(action)}", file=out)
        state = session.deal(state.child(action))
        assert isinstance(state, HoldemState)
    _show_board(state, shown_board, out)
    session.finish_hand(setup, state)
    print(_holdem_summary(setup, state, names), file=out)
    showdown = state.settle().showdown
    shown = tuple(state.private_cards(p) if p in showdown else "" for p in range(len(setup.seats)))
    for player, seat in enumerate(setup.seats):
        agent = human if seat == 0 else ais[seat]
        call_observe(
            agent,
            HandResult(
                player,
                state.returns(),
                state.public_history(),
                shown,
            ),
        )


def _show_board(state: HoldemState, shown: int, out: TextIO) -> int:
    """Announce board cards dealt since ``shown``; return how many are shown now."""
    size = len(state.board)
    for street, count in ((1, 3), (2, 4), (3, 5)):
        if shown < count <= size:
            print(f"--- {STREET_NAMES[street]}: {cards_pretty(state.board[:count])} ---", file=out)
    return max(shown, size)


def _holdem_summary(setup: HandSetup, state: HoldemState, names: dict[int, str]) -> str:
    settlement = state.settle()
    lines = []
    if settlement.showdown:
        lines.append("Showdown:")
        for player in settlement.showdown:
            value = settlement.hand_values[player]
            lines.append(
                f"  {names[player]:<20} {cards_pretty(state.hole_cards(player))}   "
                f"{describe(value)}"
            )
    for index, pot in enumerate(settlement.pots):
        what = "Pot" if len(settlement.pots) == 1 else "Main pot" if index == 0 else "Side pot"
        winners = ", ".join(
            f"{names[w]} +{share}" for w, share in zip(pot.winners, pot.shares, strict=True)
        )
        lines.append(f"{what} of {pot.amount}: {winners}")
    changes = ", ".join(f"{names[p]} {r:+d}" for p, r in enumerate(settlement.returns) if r)
    lines.append(f"Result: {changes or 'no chips moved'}")
    del setup
    return "\n".join(lines)


OpponentOption = Annotated[
    str,
    typer.Option(
        "--opponent",
        help="A built-in agent (random, always-call, always-raise, rule-based, exploitative, "
        "solver, cfr+N), a strategy .npz file, or an entrant's agent .py file.",
    ),
]


def opponent_factory(opponent: str, game: Game, seed: int | None) -> Callable[[], object]:
    """How to build the AI named by ``--opponent`` for ``game``.

    Raises:
        SpecError: if ``opponent`` is neither a built-in name nor an existing file.
    """
    from pokerlab.agents import StrategyAgent, load_agent
    from pokerlab.arena.tournament import builtin_entrants, builtin_names

    path = Path(opponent)
    if opponent.endswith(".npz"):
        if not path.is_file():
            raise SpecError(f"--opponent {opponent}: the strategy file does not exist")
        return lambda: StrategyAgent.from_file(path, game, rng=seed)
    if opponent.endswith(".py"):
        if not path.is_file():
            raise SpecError(f"--opponent {opponent}: the agent file does not exist")
        return lambda: load_agent(path, game)
    if opponent in ("solvers",) or (
        opponent not in builtin_names()
        and not (opponent.startswith("cfr+") and opponent[4:].isdigit())
    ):
        names = ", ".join(n for n in builtin_names() if n != "solvers")
        raise SpecError(
            f"--opponent {opponent!r} is not known; use one of {names}, cfr+N, a strategy "
            ".npz file or an agent .py file"
        )
    (entrant,) = builtin_entrants(opponent)
    factory = entrant.factory
    assert factory is not None  # built-in entrants always load

    def build() -> object:
        agent = factory(game)
        hook = getattr(agent, "seed", None)
        if callable(hook) and seed is not None:
            hook(seed)
        return agent

    return build


def kuhn_command(
    opponent: OpponentOption = "random",
    game_spec: Annotated[str, typer.Option("--game", help="The Kuhn variant.")] = "kuhn",
    hands: HandsOption = None,
    seed: SeedOption = None,
) -> None:
    """Play Kuhn poker against an AI (you alternate seats)."""
    game = load(game_spec)
    _play_small_game(game, opponent_factory(opponent, game, seed), hands, seed)


def leduc_command(
    opponent: OpponentOption = "random",
    game_spec: Annotated[str, typer.Option("--game", help="The Leduc variant.")] = "leduc",
    hands: HandsOption = None,
    seed: SeedOption = None,
) -> None:
    """Play Leduc poker against an AI: a built-in agent, a saved strategy, or an entrant."""
    game = load(game_spec)
    _play_small_game(game, opponent_factory(opponent, game, seed), hands, seed)


def _play_small_game(
    game: Game, make_opponent: Callable[[], object], hands: int | None, seed: int | None
) -> None:
    out = _out()
    rng = np.random.default_rng(seed)
    opponent = make_opponent()
    human = HumanAgent(output=out, seat_names={})
    total = 0.0
    played = 0
    print(f"{game.describe()}. You alternate seats with the AI. Type q to quit.", file=out)
    try:
        while hands is None or played < hands:
            you = played % game.n_players
            human.seat_names = {p: "You" if p == you else "AI" for p in range(game.n_players)}
            print(f"\n=== Hand {played + 1}: you are P{you + 1} ===", file=out)
            state = game.initial_state()
            while not state.is_terminal:
                if state.player == CHANCE:
                    outcomes = state.chance_outcomes()
                    pick = rng.choice(len(outcomes), p=[p for _, p in outcomes])
                    state = state.child(outcomes[int(pick)][0])
                    continue
                agent = human if state.player == you else opponent
                action = agent.act(state.observation())  # type: ignore[attr-defined]
                if state.player != you:
                    print(f"  AI: {state.action_name(action)}", file=out)
                state = state.child(action)
            returns = state.returns()
            cards = " ".join(
                f"{'you' if p == you else 'AI'} {state.private_cards(p)}"
                for p in range(game.n_players)
            )
            board = f", board {state.board_cards()}" if state.board_cards() else ""
            print(f"Cards: {cards}{board}. You {_won(returns[you])}.", file=out)
            total += returns[you]
            played += 1
    except HumanQuitError as exc:
        print(f"\nStopped: {exc}.", file=out)
    print(f"\nAfter {played} hands you are {total:+g} chips.", file=out)


def _won(amount: float) -> str:
    if amount > 0:
        return f"won {amount:g}"
    if amount < 0:
        return f"lost {-amount:g}"
    return "broke even"
