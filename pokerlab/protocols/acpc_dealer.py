"""An ACPC dealer: seats reached over loopback sockets, hands played by pokerlab's dealer.

Each seat listens on ``port_base + i`` (127.0.0.1); a client connects, sends
``VERSION:2.0.0`` and then answers the match states the dealer sends it. The hands are
played by :func:`~pokerlab.eval.matches.iter_hands` (the library dealer); each client is
reached through a :class:`~pokerlab.play.acpc_seat.AcpcSeat` (a socket transport) and fed
by an :class:`~pokerlab.play.acpc_seat.AcpcTable` (the listener that sends match states
and writes the ACPC log). Entrant ``i`` sits in seat ``(i + hand) % n`` (seats rotate
every hand, as ACPC's dealer does).

A client that disconnects, sends garbage, an illegal action, answers out of turn or stays
silent past its time limit never stops the match: the dealer plays the seat's default
action (check, else fold) and records the fault.

The cards come from a secret seed (:func:`~pokerlab.play.deals.fresh_seed`) unless one is
given: no client can compute them from the hand numbers it sees. The seed is written at
the end of the log and returned with the result, once the match is over, so the match
can be replayed and audited.
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pokerlab.errors import PokerlabError
from pokerlab.eval.matches import iter_hands
from pokerlab.eval.statistics import Estimate, mean_estimate
from pokerlab.games.holdem_state import HoldemGame
from pokerlab.play.acpc_matchstate import (
    VERSION_LINE,
)
from pokerlab.play.acpc_seat import (
    DEFAULT_SPIN_US,
    AcpcSeat,
    AcpcTable,
    TimeLimits,
    check_spin_us,
)
from pokerlab.play.dealer import (
    AgentFault,
)
from pokerlab.play.deals import check_seed, fresh_seed
from pokerlab.play.records import FaultEvent, HandRecord


@dataclass(frozen=True)
class AcpcResult:
    """What a dealt match gave each entrant: chips in total and mbb per hand (95% interval).

    ``seed`` is the match's deal seed, revealed once the match is over (replay with it).
    """

    names: tuple[str, ...]
    hands: int
    chips: tuple[float, ...]
    mbb_per_hand: tuple[Estimate, ...]
    faults: tuple[FaultEvent, ...]
    records: tuple[HandRecord, ...]
    seed: int = 0


def open_seats(n: int, port_base: int) -> list[socket.socket]:
    """Listening loopback sockets on ``port_base + i`` (``port_base`` 0: any free ports).

    Raises:
        PokerlabError: if a port cannot be opened (in use, not allowed).
    """
    listeners: list[socket.socket] = []
    for i in range(n):
        server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        port = 0 if port_base == 0 else port_base + i
        try:
            server.bind(("127.0.0.1", port))
        except OSError as error:
            for other in listeners:
                other.close()
            server.close()
            raise PokerlabError(f"cannot listen on 127.0.0.1:{port} ({error})") from error
        server.listen(1)
        listeners.append(server)
    return listeners


def accept_seats(
    listeners: Sequence[socket.socket],
    names: Sequence[str],
    limits: TimeLimits,
    *,
    connect_timeout: float = 30.0,
    spin_us: float = DEFAULT_SPIN_US,
) -> list[AcpcSeat]:
    """Accept one client per listener and read its ``VERSION:2.0.0`` line.

    ``spin_us``: microseconds a seat waiting for its client's answer polls the socket
    before it sleeps (see :data:`DEFAULT_SPIN_US`).

    Raises:
        PokerlabError: if a client does not connect within ``connect_timeout`` seconds or
            does not announce version 2.0.
    """
    check_spin_us(spin_us)
    seats = []
    for server, name in zip(listeners, names, strict=True):
        server.settimeout(connect_timeout)
        try:
            sock, _ = server.accept()
        except TimeoutError as error:
            raise PokerlabError(
                f"{name} did not connect to port {server.getsockname()[1]} within "
                f"{connect_timeout:g} s"
            ) from error
        finally:
            server.close()
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        seat = AcpcSeat(sock, name, limits, spin_us=spin_us)
        try:
            version = seat.lines.read_line(time.monotonic() + connect_timeout)
        except AgentFault as fault:
            raise PokerlabError(f"{name} sent no version line: {fault.detail}") from fault
        if not version.startswith("VERSION:2."):
            raise PokerlabError(f"{name} announced {version[:40]!r}; allowed: {VERSION_LINE}")
        seats.append(seat)
    return seats


def run_acpc_match(
    game: HoldemGame,
    seats: Sequence[AcpcSeat],
    *,
    hands: int,
    seed: int | None = None,
    log_path: Path | None = None,
    on_hand: Callable[[HandRecord], None] | None = None,
) -> AcpcResult:
    """Play ``hands`` hands between connected seats and return each entrant's result.

    The log (ACPC ``STATE:`` lines and ``#`` fault lines) is written to a temporary file
    beside ``log_path`` and moved into place at the end, even when interrupted; its last
    line, ``# seed N``, gives the deal seed once the match is over.

    Args:
        game: the Hold'em game.
        seats: the connected seats, in entrant order.
        hands: hands to deal.
        seed: the deal seed; None (the default) draws a fresh secret one. A seed that is
            known lets every client that knows it predict the cards.
        log_path: the ACPC log file, or None.
        on_hand: called with each hand's record.
    """
    seed = fresh_seed() if seed is None else check_seed(seed)
    n = game.n_players
    if len(seats) != n:
        raise PokerlabError(f"{game.spec} has {n} seats; got {len(seats)} entrants")
    if hands < 1:
        raise PokerlabError(f"hands must be >= 1; got {hands}")
    tmp = None if log_path is None else log_path.with_name(log_path.name + ".tmp")
    handle = None if tmp is None else tmp.open("w", encoding="ascii")

    def log(line: str) -> None:
        if handle is not None:
            handle.write(line + "\n")

    table = AcpcTable(seats, log)
    records: list[HandRecord] = []
    try:
        for record in iter_hands(
            game,
            list(seats),
            hands=hands,
            seats="rotate",
            duplicate=False,
            seed=seed,
            listeners=[table],
        ):
            records.append(record)
            if on_hand is not None:
                on_hand(record)
    finally:
        for seat in seats:
            seat.flush()  # the last hand's end: the clients see every state of the match
        if handle is not None and tmp is not None and log_path is not None:
            log(f"# seed {seed} (the deal seed, secret until now: --seed {seed} replays "
                f"the {len(records)} hands dealt)")
            handle.close()
            os.replace(tmp, log_path)
    by_agent = np.array([r.agent_returns() for r in records], dtype=np.float64)
    big_blind = game.rules.big_blind
    return AcpcResult(
        names=tuple(s.name for s in seats),
        hands=len(records),
        chips=tuple(float(x) for x in by_agent.sum(axis=0)),
        mbb_per_hand=tuple(mean_estimate(by_agent[:, k] * 1000.0 / big_blind) for k in range(n)),
        faults=tuple(e for r in records for e in r.events),
        records=tuple(records),
        seed=seed,
    )


__all__ = [
    "AcpcResult",
    "accept_seats",
    "open_seats",
    "run_acpc_match",
]
