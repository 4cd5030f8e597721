"""An ACPC dealer: seats reached over loopback sockets, hands played by pokerlab's dealer.

Each seat listens on ``port_base + i`` (127.0.0.1); a client connects, sends
``VERSION:2.0.0`` and then answers the match states the dealer sends it. The hands are
played by :func:`~pokerlab.eval.matches.iter_hands` (the library dealer); each client is
reached through a :class:`~pokerlab.play.acpc_seat.AcpcSeat` (a socket transport) and fed
by an :class:`~pokerlab.play.acpc_seat.AcpcTable` (the listener that sends match states
and writes the ACPC log). Entrant ``i`` sits in seat ``(i + hand) % n`` (seats rotate
every hand, as ACPC's dealer does).

Before the match, every port is watched at once (:func:`accept_seats`): a connection that
stays silent past the hello timeout (:data:`DEFAULT_HELLO_SECONDS`), announces another
version or closes is dropped and its seat listens again, until the start deadline
(:data:`DEFAULT_START_SECONDS`). During the match, a client that disconnects, sends
garbage or lines too long (:data:`~pokerlab.play.acpc_seat.MAX_LINE_BYTES`), an illegal
action, answers out of turn or stays silent past its time limit never stops the match:
the dealer plays the seat's default action (check, else fold) and records the fault.

The cards come from a secret seed (:func:`~pokerlab.play.deals.fresh_seed`) unless one is
given: no client can compute them from the hand numbers it sees. The seed is written at
the end of the log and returned with the result, once the match is over, so the match
can be replayed and audited.
"""

from __future__ import annotations

import math
import selectors
import socket
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pokerlab.errors import PokerlabError, ProtocolError
from pokerlab.eval.matches import iter_hands
from pokerlab.eval.statistics import Estimate, mean_estimate
from pokerlab.games.holdem_state import HoldemGame
from pokerlab.play.acpc_matchstate import (
    VERSION_LINE,
)
from pokerlab.play.acpc_seat import (
    DEALER_SPIN_US,
    AcpcSeat,
    AcpcTable,
    LineBuffer,
    Spin,
    TimeLimits,
    check_spin_us,
)
from pokerlab.play.deals import check_seed, fresh_seed
from pokerlab.play.names import check_name
from pokerlab.play.records import FaultEvent, HandRecord
from pokerlab.protocols.acpc_log import AcpcLogWriter, log_header, score_line


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
        server.listen(MAX_WAITING)
        listeners.append(server)
    return listeners


DEFAULT_START_SECONDS = 60.0
"""Seconds the dealer waits for every seat to be taken by a client that announced its
version (``--start-timeout``); past it, the dealer stops and names the empty seats."""
DEFAULT_HELLO_SECONDS = 5.0
"""Seconds a new connection has to send its ``VERSION:2.0.0`` line (``--hello-timeout``);
a connection silent past it is dropped and its seat listens again."""
MAX_WAITING = 8
"""Connections that may wait to announce their version on one seat at once; more are
dropped as they come (so no one can exhaust the dealer's file descriptors)."""


@dataclass(eq=False)
class _Waiting:
    """A connection that has not announced its version yet."""

    sock: socket.socket
    seat: int
    deadline: float
    received: LineBuffer


def check_seconds(value: float, option: str) -> float:
    """``value`` if it is a positive, finite number of seconds.

    Raises:
        PokerlabError: otherwise, naming ``option``.
    """
    if not 0 < value < math.inf:  # False for NaN too
        raise PokerlabError(f"{option} must be a positive number of seconds; got {value!r}")
    return value


def check_seat_names(names: Sequence[str]) -> None:
    """Refuse a seat's name that is not printable text or holds ``|`` or ``:``.

    The names are printed and written in the log's ``STATE`` and ``SCORE`` lines, where
    ``|`` and ``:`` separate fields.

    Raises:
        SpecError: naming the seat and what a name may hold.
    """
    for seat, name in enumerate(names):
        check_name(name, f"seat {seat + 1}'s name {name!r}", forbidden="|:")


def accept_seats(
    listeners: Sequence[socket.socket],
    names: Sequence[str],
    limits: TimeLimits,
    *,
    start_timeout: float = DEFAULT_START_SECONDS,
    hello_timeout: float = DEFAULT_HELLO_SECONDS,
    spin_us: float = DEALER_SPIN_US,
    report: Callable[[str], None] | None = None,
) -> list[AcpcSeat]:
    """Give each seat to the first client on its port that announces ``VERSION:2.x``.

    Every port is watched at once. A connection that says nothing within
    ``hello_timeout`` seconds, announces another version, sends a line too long or
    closes is dropped (and told to ``report``), and its seat goes on listening, until
    ``start_timeout`` seconds after the call: so a silent or hostile connection delays
    no seat for longer than ``hello_timeout`` and stops nothing. At most
    :data:`MAX_WAITING` connections wait on one seat at once (a newer one drops the
    oldest).

    ``spin_us``: microseconds a seat waiting for its client's answer polls the socket
    before it sleeps, where polling is found to pay (:class:`~pokerlab.play.acpc_seat.Spin`).

    Raises:
        PokerlabError: if a seat has no client within ``start_timeout`` seconds (naming
            the empty seats), or a timeout is not a positive number.
    """
    check_spin_us(spin_us)
    spin = Spin(spin_us / 1e6)  # shared by the seats: the dealer is the one polling
    check_seat_names(names)
    check_seconds(start_timeout, "the start timeout")
    check_seconds(hello_timeout, "the hello timeout")
    say = report or (lambda text: None)
    seats: dict[int, AcpcSeat] = {}
    waiting: list[_Waiting] = []
    dropped = [0] * len(names)
    selector = selectors.DefaultSelector()
    ports = [server.getsockname()[1] for server in listeners]

    def drop(entry: _Waiting, why: str) -> None:
        selector.unregister(entry.sock)
        entry.sock.close()
        waiting.remove(entry)
        dropped[entry.seat] += 1
        then = "" if entry.seat in seats else ", the seat listens again"
        say(f"{names[entry.seat]} (port {ports[entry.seat]}): a connection {why}; "
            f"dropped{then}")

    try:
        for index, server in enumerate(listeners):
            server.setblocking(False)
            selector.register(server, selectors.EVENT_READ, index)
        start_deadline = time.monotonic() + start_timeout
        while len(seats) < len(names):
            now = time.monotonic()
            for entry in [e for e in waiting if e.deadline <= now]:
                drop(entry, f"said nothing within {hello_timeout:g} s")
            if now >= start_deadline:
                break
            wake = min([start_deadline, *(e.deadline for e in waiting)])
            for key, _ in selector.select(max(0.0, wake - now)):
                if (key.data in seats) if isinstance(key.data, int) else (
                    key.data not in waiting
                ):
                    continue  # taken or dropped by an earlier event of this round
                if isinstance(key.data, int):
                    server = listeners[key.data]
                    _accept(server, key.data, waiting, selector, hello_timeout, drop, say,
                            f"{names[key.data]} (port {ports[key.data]})")
                    continue
                entry = key.data
                line = _hello(entry, drop)
                if line is None:
                    continue
                if not line.startswith("VERSION:2."):
                    drop(entry, f"announced {line[:40]!r}, not {VERSION_LINE}")
                    continue
                selector.unregister(entry.sock)
                waiting.remove(entry)
                listener = listeners[entry.seat]
                selector.unregister(listener)
                listener.close()
                entry.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                seats[entry.seat] = AcpcSeat(entry.sock, names[entry.seat], limits,
                                             spin=spin, received=entry.received)
                for other in [e for e in waiting if e.seat == entry.seat]:
                    drop(other, "lost the seat to one that announced its version first")
        if len(seats) < len(names):
            empty = [
                f"{names[i]} (port {ports[i]}"
                + (f"; {dropped[i]} connections dropped)" if dropped[i] else ")")
                for i in range(len(names)) if i not in seats
            ]
            raise PokerlabError(
                f"no client announced {VERSION_LINE} within {start_timeout:g} s on "
                f"{', '.join(empty)}; start the clients sooner or give a longer "
                "--start-timeout"
            )
        return [seats[i] for i in range(len(names))]
    except BaseException:
        for seat in seats.values():
            seat.close()
        raise
    finally:
        for entry in waiting:
            entry.sock.close()
        for server in listeners:
            server.close()
        selector.close()


def _accept(
    server: socket.socket,
    index: int,
    waiting: list[_Waiting],
    selector: selectors.BaseSelector,
    hello_timeout: float,
    drop: Callable[[_Waiting, str], None],
    say: Callable[[str], None],
    label: str,
) -> None:
    """Take every connection waiting on ``server`` (seat ``index``, named ``label``).

    Past :data:`MAX_WAITING` waiting on the seat, the oldest is dropped: a flood of
    silent connections cannot keep a real client (which speaks at once) out.
    """
    while True:
        try:
            sock, _ = server.accept()
        except (BlockingIOError, InterruptedError):
            return
        except OSError as error:  # out of descriptors, aborted: the seat keeps listening
            say(f"{label}: cannot accept a connection ({error})")
            return
        mine = [e for e in waiting if e.seat == index]
        if len(mine) >= MAX_WAITING:
            drop(mine[0], f"made room for a newer one ({MAX_WAITING} wait at most)")
        sock.setblocking(False)
        entry = _Waiting(sock, index, time.monotonic() + hello_timeout, LineBuffer())
        waiting.append(entry)
        selector.register(sock, selectors.EVENT_READ, entry)


def _hello(entry: _Waiting, drop: Callable[[_Waiting, str], None]) -> str | None:
    """The version line of a waiting connection, once whole; None meanwhile or if dropped."""
    try:
        chunk = entry.sock.recv(4096)
    except (BlockingIOError, InterruptedError):
        return None
    except OSError as error:
        drop(entry, f"failed ({error})")
        return None
    if not chunk:
        drop(entry, "closed before announcing its version")
        return None
    entry.received.feed(chunk)
    try:
        line = entry.received.pop()
    except ProtocolError as error:
        drop(entry, f"sent {error}")
        return None
    return line


def run_acpc_match(
    game: HoldemGame,
    seats: Sequence[AcpcSeat],
    *,
    hands: int,
    seed: int | None = None,
    log_path: Path | None = None,
    on_hand: Callable[[HandRecord], None] | None = None,
    game_name: str | None = None,
) -> AcpcResult:
    """Play ``hands`` hands between connected seats and return each entrant's result.

    The log is the reference dealer's (:mod:`pokerlab.protocols.acpc_log`): the header
    (match name: the log's file name without its suffix; ``game_name``, default the game's
    spec; hands; seed; the first seat's time limits), a ``STATE:`` line per hand (and
    ``#`` lines for faults), ``# seed N`` and, once every hand is played, the ``SCORE:``
    line. It is written beside ``log_path`` and moved into place at the end, even when
    interrupted; the header and ``# seed N`` (the deal seed) are written only then, once
    the match is over.

    Args:
        game: the Hold'em game.
        seats: the connected seats, in entrant order.
        hands: hands to deal.
        seed: the deal seed; None (the default) draws a fresh secret one. A seed that is
            known lets every client that knows it predict the cards.
        log_path: the ACPC log file, or None.
        on_hand: called with each hand's record.
        game_name: the game as the log's header names it (the GAMEDEF given).
    """
    seed = fresh_seed() if seed is None else check_seed(seed)
    n = game.n_players
    if len(seats) != n:
        raise PokerlabError(f"{game.spec} has {n} seats; got {len(seats)} entrants")
    if hands < 1:
        raise PokerlabError(f"hands must be >= 1; got {hands}")
    writer = None if log_path is None else AcpcLogWriter(log_path)
    table = AcpcTable(seats, writer)
    records: list[HandRecord] = []
    last: list[str] = []
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
        by_agent = np.array([r.agent_returns() for r in records], dtype=np.float64)
        last.append(score_line(by_agent.sum(axis=0).tolist(), [s.name for s in seats]))
    finally:
        for seat in seats:
            seat.flush()  # the last hand's end: the clients see every state of the match
        if writer is not None and log_path is not None:
            match = log_path.name.removesuffix(".log")
            revealed = (f"# seed {seed} (the deal seed, secret until now: --seed {seed} "
                        f"replays the {len(records)} hands dealt)")
            writer.close(
                log_header(match, game_name or str(game.spec), hands, seed, seats[0].limits),
                [revealed, *last],
            )
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
    "DEFAULT_HELLO_SECONDS",
    "DEFAULT_START_SECONDS",
    "MAX_WAITING",
    "AcpcResult",
    "accept_seats",
    "check_seat_names",
    "check_seconds",
    "open_seats",
    "run_acpc_match",
]
