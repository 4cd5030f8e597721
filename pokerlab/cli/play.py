"""``pokerlab play``: play poker in the terminal against the built-in AIs.

``pokerlab play holdem --players 4 --opponents easy --stack 200`` deals a session of
Texas Hold'em (stacks carry over, the button moves, busted seats leave) with you in seat 0;
``pokerlab play kuhn`` and ``pokerlab play leduc --opponent random|STRATEGY.npz`` play
heads-up hands, you alternating seats. Moves are read one line at a time from stdin, so
a session can be driven through a pipe; ``q`` quits.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, TextIO

import typer

from pokerlab.agents.human import HumanAgent, HumanQuitError
from pokerlab.cards import cards_pretty, describe
from pokerlab.cli._common import (
    SecretSeedOption,
    TrustEntrantsOption,
    UnsafeInProcessOption,
)
from pokerlab.errors import SpecError
from pokerlab.games import Game, load
from pokerlab.games.holdem import STREET_NAMES, HoldemState
from pokerlab.games.holdem_session import HandSetup, HoldemSession
from pokerlab.play.dealer import (
    ActionTaken,
    AgentConnection,
    ChanceDealt,
    DealerEvent,
    DealStream,
    HandEnded,
    InProcessConnection,
    connect,
    deal_hand,
)
from pokerlab.play.deals import derive_seed, fresh_seed
from pokerlab.play.records import FaultEvent
from pokerlab.play.session import play_session_hand

HandsOption = Annotated[
    int | None, typer.Option("--hands", min=1, help="Stop after this many hands.")
]

DEFAULT_OPPONENT = "solver"
"""``play kuhn`` and ``play leduc`` face the strongest solver bot unless told otherwise."""


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


EASY_AI_NOTE = (
    "The Easy AI's odds: four rows are the tutorial slides' (pairs of 2s and of aces, hand "
    "strengths 12 and 13); every other row is pokerlab's own (docs/easy_ai.md)."
)
"""Said whenever the Easy AI is seated: only four of its odds rows come from the slides."""


def _out() -> TextIO:
    return sys.stdout


def _session_seed(seed: int | None) -> int:
    """The session's deal seed: ``--seed``, else a fresh secret one (shown when it ends)."""
    return fresh_seed() if seed is None else seed


def _bot_seed(deal_seed: int, seat: int) -> int:
    """Seat ``seat``'s AI generator: keyed by the deal seed, so it tells nothing of the cards."""
    return derive_seed(deal_seed, "bot", seat, bits=64)


def _say_seed(deal_seed: int, out: TextIO) -> None:
    print(f"Deal seed {deal_seed} (replay these deals with --seed {deal_seed}).", file=out)


def holdem_command(
    players: Annotated[int, typer.Option("--players", help="Seats at the table, 2..9.")] = 4,
    opponents: Annotated[
        str,
        typer.Option(
            "--opponents", "--opponent",
            help="The AIs: a built-in agent (easy, hard-seed, hard (heads-up), ehs, "
            "ehs-threshold, random, always-call, always-raise), a blueprint or strategy file "
            "(.bp, .npz), or an entrant's agent .py file (each seat plays it from a sandboxed "
            "process of its own).",
        ),
    ] = "easy",
    stack: Annotated[int, typer.Option("--stack", help="Each seat's starting chips.")] = 200,
    betting: Annotated[str, typer.Option("--betting", help="nolimit or limit.")] = "nolimit",
    blinds: Annotated[str, typer.Option("--blinds", help="Small/big blind, e.g. 1/2.")] = "1/2",
    hands: HandsOption = None,
    seed: SecretSeedOption = None,
    in_process: UnsafeInProcessOption = False,
    trust: TrustEntrantsOption = False,
) -> None:
    """Play a session of Texas Hold'em against AIs (you are seat 0)."""
    try:
        small, big = (int(x) for x in blinds.replace(",", "/").split("/"))
    except ValueError:
        raise SpecError(f"--blinds must look like 1/2; got {blinds!r}") from None
    out = _out()
    session = HoldemSession(players, betting=betting, blinds=(small, big), stack=stack)
    first = session.start_hand().game
    deal_seed = _session_seed(seed)
    human = HumanAgent(output=out)
    bots: list[AgentConnection] = []
    try:
        for seat in range(1, players):
            bots.append(connect(opponent_factory(
                opponents, first, _bot_seed(deal_seed, seat), in_process=in_process,
                trust=trust, option="--opponents")()))
    except BaseException:
        for bot in bots:
            bot.close()
        raise
    labels = {"easy": "Easy AI", "hard-seed": "seed Hard AI", "hard": "Hard AI", "ehs": "EHS bot",
              "ehs-threshold": "EHS threshold bot", "random": "Random"}
    label = labels.get(opponents, Path(opponents).name)
    if players == 2:
        others = f"seat 1 is {label}"
    elif opponents in labels:
        others = f"seats 1-{players - 1} are {label}s"
    else:  # a file: "seats 1-3 play bot.py"
        others = f"seats 1-{players - 1} play {label}"
    print(
        f"Texas Hold'em, {betting}, blinds {small}/{big}, {players} seats of {stack} chips. "
        f"You are seat 0; {others}. Type q to quit.",
        file=out,
    )
    if opponents == "easy":
        print(EASY_AI_NOTE, file=out)
    connections: list[AgentConnection] = [InProcessConnection(human), *bots]
    try:
        while not session.is_over and session.stacks[0] > 0:
            if hands is not None and session.hands_played >= hands:
                break
            setup = session.start_hand()
            names = {
                player: "You" if seat == 0 else f"Seat {seat} ({label})"
                for player, seat in enumerate(setup.seats)
            }
            human.seat_names = names
            print(f"\n=== Hand {setup.number}: button seat {setup.button} ===", file=out)
            renderer = HoldemRenderer(setup, names, out)
            play_session_hand(session, connections, seed=deal_seed, listeners=[renderer])
    except HumanQuitError as exc:
        print(f"\nStopped: {exc}.", file=out)
    finally:
        for bot in bots:
            bot.close()
    print(
        f"\nAfter {_count(session.hands_played, 'hand')}: "
        + ", ".join(
            f"{'you' if seat == 0 else f'seat {seat}'} {chips}"
            for seat, chips in enumerate(session.stacks)
        ),
        file=out,
    )
    _say_seed(deal_seed, out)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


class HoldemRenderer:
    """Renders the dealer's events of one hand for the person in seat 0."""

    def __init__(self, setup: HandSetup, names: dict[int, str], out: TextIO) -> None:
        self.setup = setup
        self.names = names
        self.out = out
        self.shown_board = 0

    def __call__(self, event: DealerEvent) -> None:
        """Show AI actions, new board cards, faults and the hand's summary."""
        if isinstance(event, ChanceDealt):
            assert isinstance(event.state, HoldemState)
            self.shown_board = _show_board(event.state, self.shown_board, self.out)
        elif isinstance(event, ActionTaken):
            if self.setup.seats[event.seat] != 0:
                print(f"  {self.names[event.seat]}: {event.name}", file=self.out)
        elif isinstance(event, FaultEvent):
            print(f"  ({self.names[event.seat]} {event.kind}: {event.detail})", file=self.out)
        elif isinstance(event, HandEnded):
            assert isinstance(event.state, HoldemState)
            print(_holdem_summary(self.setup, event.state, self.names), file=self.out)


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
        help="A built-in agent (solver: CFR+ after 10,000 iterations, the default; random, "
        "always-call, always-raise, rule-based, exploitative, cfr+N), a policy file (.npz, .bp, "
        ".pt), or an entrant's agent .py file (played from a sandboxed process).",
    ),
]


def opponent_factory(
    opponent: str, game: Game, seed: int | None, *, in_process: bool = False,
    trust: bool = False, option: str = "--opponent",
) -> Callable[[], object]:
    """How to build the AI named by ``option`` (``--opponent``) for ``game`` (the one resolver).

    Raises:
        SpecError: a text that names nothing, a group name, or an entrant that does not
            load (an entrant file plays sandboxed unless ``in_process``).
    """
    from pokerlab.agents.resolve import resolve_agent

    try:
        entrant = resolve_agent(opponent, game, seed=seed, in_process=in_process, trust=trust)
    except SpecError as error:
        raise SpecError(f"{option}: {error}") from None
    if entrant.factory is None:
        raise SpecError(f"{option} {opponent}: {entrant.error}")
    return lambda: entrant.build(game)


def kuhn_command(
    opponent: OpponentOption = DEFAULT_OPPONENT,
    game_spec: Annotated[str, typer.Option("--game", help="The Kuhn variant.")] = "kuhn",
    hands: HandsOption = None,
    seed: SecretSeedOption = None,
    in_process: UnsafeInProcessOption = False,
    trust: TrustEntrantsOption = False,
) -> None:
    """Play Kuhn poker against an AI (you alternate seats)."""
    game = load(game_spec)
    deal_seed = _session_seed(seed)
    _play_small_game(game, opponent_factory(opponent, game, _bot_seed(deal_seed, 1),
                                            in_process=in_process, trust=trust),
                     hands, deal_seed)


def leduc_command(
    opponent: OpponentOption = DEFAULT_OPPONENT,
    game_spec: Annotated[str, typer.Option("--game", help="The Leduc variant.")] = "leduc",
    hands: HandsOption = None,
    seed: SecretSeedOption = None,
    in_process: UnsafeInProcessOption = False,
    trust: TrustEntrantsOption = False,
) -> None:
    """Play Leduc poker against an AI: a built-in agent, a saved strategy, or an entrant.

    An entrant file plays from a sandboxed process of its own (docs/entrants.md).
    """
    game = load(game_spec)
    deal_seed = _session_seed(seed)
    _play_small_game(game, opponent_factory(opponent, game, _bot_seed(deal_seed, 1),
                                            in_process=in_process, trust=trust),
                     hands, deal_seed)


class SmallGameRenderer:
    """Renders the dealer's events of a Kuhn or Leduc hand for the person at the table."""

    def __init__(self, you: int, out: TextIO) -> None:
        self.you = you
        self.out = out

    def __call__(self, event: DealerEvent) -> None:
        """Show the AI's actions, its faults, and the cards and result at the end."""
        if isinstance(event, ActionTaken) and event.seat != self.you:
            print(f"  AI: {event.name}", file=self.out)
        elif isinstance(event, FaultEvent) and event.seat != self.you:
            print(f"  (the AI's {event.kind}: {event.detail})", file=self.out)
        elif isinstance(event, HandEnded):
            state = event.state
            cards = " ".join(
                f"{'you' if p == self.you else 'AI'} {state.private_cards(p)}"
                for p in range(state.game.n_players)
            )
            board = f", board {state.board_cards()}" if state.board_cards() else ""
            won = _won(event.record.returns[self.you])
            print(f"Cards: {cards}{board}. You {won}.", file=self.out)


def _play_small_game(
    game: Game, make_opponent: Callable[[], object], hands: int | None, deal_seed: int
) -> None:
    if game.n_players != 2:
        raise SpecError(f"play kuhn/leduc seats you against one AI; {game.spec} has "
                        f"{game.n_players} players")
    out = _out()
    opponent = connect(make_opponent())
    human = HumanAgent(output=out, seat_names={})
    you_connection = InProcessConnection(_Quiet(human))
    total = 0.0
    played = 0
    print(f"{game.describe()}. You alternate seats with the AI. Type q to quit.", file=out)
    try:
        while hands is None or played < hands:
            you = played % game.n_players
            human.seat_names = {p: "You" if p == you else "AI" for p in range(game.n_players)}
            print(f"\n=== Hand {played + 1}: you are P{you + 1} ===", file=out)
            seats = [you_connection, opponent] if you == 0 else [opponent, you_connection]
            record, _ = deal_hand(
                game, seats, chance=DealStream(deal_seed, played), hand=played, deal=played,
                agents=(0, 1) if you == 0 else (1, 0),
                listeners=[SmallGameRenderer(you, out)],
            )
            total += record.returns[you]
            played += 1
    except HumanQuitError as exc:
        print(f"\nStopped: {exc}.", file=out)
    finally:
        opponent.close()
    print(f"\nAfter {_count(played, 'hand')} you are {total:+g} chips.", file=out)
    _say_seed(deal_seed, out)


class _Quiet:
    """The person at a Kuhn or Leduc table: the renderer says the result, not the agent."""

    def __init__(self, human: HumanAgent) -> None:
        self.human = human
        self.name = "you"

    def act(self, observation: object) -> object:
        return self.human.act(observation)  # type: ignore[arg-type]


def _won(amount: float) -> str:
    if amount > 0:
        return f"won {amount:g}"
    if amount < 0:
        return f"lost {-amount:g}"
    return "broke even"
