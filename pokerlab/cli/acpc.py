"""``pokerlab acpc dealer|client``: play Hold'em over the ACPC match-state protocol (2.0).

GAMEDEF is an ACPC game definition file, the name of a standard one (``kuhn.limit.2p``,
``leduc.limit.2p``, ``holdem.limit.2p.reverse_blinds``...) or a pokerlab Hold'em spec
(``holdem(betting="limit")``): :func:`~pokerlab.protocols.acpc_gamedef.load_acpc_game`.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated

import typer

from pokerlab.cli._common import TrustEntrantsOption, console, err_console
from pokerlab.errors import PokerlabError

_GAMEDEF_HELP = (
    "A GAMEDEF file, a standard gamedef (kuhn.limit.2p, leduc.limit.2p, "
    "holdem.limit.2p.reverse_blinds, holdem.nolimit.2p.reverse_blinds, holdem.limit.3p) "
    "or a Hold'em spec, e.g. holdem(betting='limit')."
)

_SPIN_HELP = (
    "Microseconds to poll for {waits} before sleeping (0: sleep at once; default "
    "{default}). Polling spends CPU to save the wake-up; see docs/acpc.md."
)


def _holdem(text: str) -> object:
    from pokerlab.protocols.acpc_gamedef import load_acpc_game

    return load_acpc_game(text)


def dealer_command(
    gamedef: Annotated[str, typer.Argument(metavar="GAMEDEF", help=_GAMEDEF_HELP)],
    names: Annotated[list[str], typer.Argument(help="One name per seat.")],
    hands: Annotated[int, typer.Option("--hands", help="Hands to deal.")] = 1000,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed", min=0,
            help="The deal seed, for reproducible research. Default: a fresh secret seed "
            "from the operating system, printed and logged once the match is over. A seed "
            "that is known lets every client that knows it predict the cards.",
        ),
    ] = None,
    port_base: Annotated[
        int, typer.Option("--port-base", help="Seat i listens on PORT+i (0: any free ports).")
    ] = 18791,
    log: Annotated[Path | None, typer.Option("--log", help="The ACPC log file.")] = None,
    action_limit: Annotated[
        float, typer.Option("--action-limit", help="Seconds per action.")
    ] = 10.0,
    hand_limit: Annotated[
        float | None, typer.Option("--hand-limit", help="Seconds per hand.")
    ] = None,
    match_limit: Annotated[
        float | None, typer.Option("--match-limit", help="Seconds per match.")
    ] = None,
    spin_us: Annotated[
        float,
        typer.Option(
            "--spin-us",
            help=_SPIN_HELP.format(waits="a client's answer", default="200, while it pays"),
        ),
    ] = 200.0,
    start_timeout: Annotated[
        float,
        typer.Option(
            "--start-timeout",
            help="Seconds to wait for a client announcing VERSION:2.0.0 on every seat before "
            "giving up (default 60).",
        ),
    ] = 60.0,
    hello_timeout: Annotated[
        float,
        typer.Option(
            "--hello-timeout",
            help="Seconds a new connection has to send its VERSION line; one silent past it "
            "is dropped and the seat listens again (default 5).",
        ),
    ] = 5.0,
) -> None:
    """Deal a match to ACPC clients on 127.0.0.1 and print chips and mbb/hand."""
    from pokerlab.games.holdem_state import HoldemGame
    from pokerlab.play.acpc_seat import TimeLimits, check_spin_us
    from pokerlab.protocols.acpc_dealer import (
        accept_seats,
        check_seat_names,
        check_seconds,
        open_seats,
        run_acpc_match,
    )
    from pokerlab.protocols.acpc_log import score_line

    check_spin_us(spin_us)  # before the ports are opened and printed
    check_seconds(start_timeout, "--start-timeout")
    check_seconds(hello_timeout, "--hello-timeout")
    holdem = _holdem(gamedef)
    assert isinstance(holdem, HoldemGame)
    if len(names) != holdem.n_players:
        raise PokerlabError(f"{gamedef} has {holdem.n_players} seats; got {len(names)} names")
    check_seat_names(names)  # before they are printed
    limits = TimeLimits(action_limit, hand_limit, match_limit)  # checked before the ports
    servers = open_seats(len(names), port_base)
    ports = " ".join(str(s.getsockname()[1]) for s in servers)
    console.print(ports)  # as ACPC's dealer does: the ports, in seat order, on one line
    for server, name in zip(servers, names, strict=True):  # stdout stays ACPC's: one line
        err_console.print(
            f"{name} connects with: pokerlab acpc client {shlex.quote(gamedef)} 127.0.0.1 "
            f"{server.getsockname()[1]} --agent AGENT", markup=False, highlight=False,
            soft_wrap=True)
    seats = accept_seats(
        servers, names, limits, spin_us=spin_us,
        start_timeout=start_timeout, hello_timeout=hello_timeout,
        report=lambda text: err_console.print(text, markup=False, highlight=False),
    )  # fmt: skip
    try:
        result = run_acpc_match(
            holdem, seats, hands=hands, seed=seed, log_path=log, game_name=gamedef
        )
    finally:
        for seat in seats:
            seat.close()
    # Standard output is the reference dealer's, two lines (a harness such as its
    # play_match.pl reads the second as the result): the ports, then the SCORE: line.
    console.print(score_line(result.chips, result.names), markup=False, highlight=False)
    for name, chips, estimate in zip(result.names, result.chips, result.mbb_per_hand, strict=True):
        err_console.print(
            f"{name}: {chips:+g} chips, {estimate.mean:+.1f} mbb/hand "
            f"[{estimate.low:+.1f}, {estimate.high:+.1f}]"
        )
    if result.faults:
        err_console.print(f"{len(result.faults)} faults (see the log)")
    err_console.print(f"deal seed {result.seed} (replay with --seed {result.seed})")


def client_command(
    gamedef: Annotated[str, typer.Argument(metavar="GAMEDEF", help=_GAMEDEF_HELP)],
    host: Annotated[str, typer.Argument(help="The dealer's host.")],
    port: Annotated[int, typer.Argument(help="The seat's port.")],
    agent: Annotated[
        str,
        typer.Option(
            "--agent",
            help="A built-in agent's name, a policy file (.npz, .bp, .pt; on kuhn.limit.2p "
            "and leduc.limit.2p also one of `pokerlab solve kuhn` or `solve leduc`) or an "
            "entrant .py file (run in a sandboxed process).",
        ),
    ] = "always-call",
    seed: Annotated[int, typer.Option("--seed", help="Seeds the agent, hand by hand.")] = 0,
    spin_us: Annotated[
        float,
        typer.Option(
            "--spin-us", help=_SPIN_HELP.format(waits="the dealer's next state", default="0")
        ),
    ] = 0.0,
    trust: TrustEntrantsOption = False,
) -> None:
    """Play an agent against an ACPC dealer at HOST PORT until the dealer closes.

    Exits 1 when the agent failed on more than half of its decisions (each answered by
    the default action, as the protocol requires): a broken agent is not a played match.
    """
    from pokerlab.games.holdem_state import HoldemGame
    from pokerlab.play.acpc_seat import check_spin_us
    from pokerlab.play.sandbox import SandboxLimits
    from pokerlab.protocols.acpc_client import AcpcPlayer, client_agent, run_client

    check_spin_us(spin_us)  # before an entrant's process is started
    holdem = _holdem(gamedef)
    assert isinstance(holdem, HoldemGame)
    connection = client_agent(agent, holdem, seed=seed, limits=SandboxLimits(trusted=trust))
    player = AcpcPlayer(holdem, connection, seed=seed)
    hands = run_client(
        holdem,
        host,
        port,
        player,
        seed=seed,
        report=lambda text: err_console.print(text, markup=False),
        spin_us=spin_us,
    )
    err_console.print(f"played {hands} hands")
    failed = {hand for hand, _, _ in player.faults}
    if player.decisions and len(player.faults) * 2 > player.decisions:
        raise PokerlabError(
            f"the agent {agent} failed on {len(player.faults):,} of its {player.decisions:,} "
            f"decisions ({len(failed):,} hands), each answered by the default action (check, "
            "else fold): it did not play; its faults are listed above"
        )


def register(app: typer.Typer) -> None:
    """Add the ``acpc`` command group (``dealer``, ``client``) to ``app``."""
    acpc_app = typer.Typer(
        name="acpc",
        help="Play Hold'em over the ACPC protocol: a dealer on loopback, a client.",
        no_args_is_help=True,
    )
    acpc_app.command("dealer")(dealer_command)
    acpc_app.command("client")(client_command)
    app.add_typer(acpc_app, name="acpc")
