"""ACPC seats: an agent reached over a socket that speaks the ACPC match-state protocol.

:class:`AcpcSeat` is a transport of the dealer (an
:class:`~pokerlab.play.dealer.AgentConnection`) over one socket: a client program
connected to the ACPC dealer, or an executable entrant's pipe. :class:`AcpcTable` is the
dealer listener that sends every seat its match state whenever a seat must act or the
hand ends, and writes the ``STATE:`` lines of the ACPC log. A client that disconnects,
sends garbage, an illegal action, answers out of turn or stays silent past its time limit
never stops the match: the seat's default action is played and the fault recorded.
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import select
import socket
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from pokerlab._types import CHANCE, TERMINAL, Action
from pokerlab.errors import IllegalActionError, PokerlabError, ProtocolError
from pokerlab.games.holdem_rules import CALL, FOLD
from pokerlab.games.holdem_state import HoldemState
from pokerlab.games.observation import HandResult, Observation
from pokerlab.play.acpc_matchstate import (
    PREFIX,
    acpc_card_texts,
    format_chips,
    format_matchstate,
    parse_response,
    token_action,
)
from pokerlab.play.dealer import (
    ActionTaken,
    AgentFault,
    ChanceDealt,
    DealerEvent,
    HandEnded,
    HandStarted,
)
from pokerlab.play.records import FaultEvent

MAX_LINE_BYTES = 8192
"""The longest line read from a client or a dealer, in bytes (twice the longest match state
the protocol's parser accepts); a longer line is dropped whole and is a protocol fault."""
_COMPACT_BYTES = 65536
_SEND_SECONDS = 5.0
"""How long a send waits for a client that does not read (its buffer full)."""
_RECORDED_LINES = 3
"""Lines that are not answers recorded one by one per decision (the rest are counted)."""
_TOKEN = re.compile(r"f|c|k|r(?:[0-9]{1,9})?")
DEALER_SPIN_US = 200.0
"""Microseconds the dealer polls for a client's answer before sleeping (the dealer's
``--spin-us``), where polling is found to pay (:class:`Spin`): on an idle 2-core machine,
1,100 against 860 heads-up limit hands/s with two pokerlab clients (docs/benchmarks.md)."""
CLIENT_SPIN_US = 0.0
"""Microseconds a client polls for the dealer's next state before sleeping (the client's
``--spin-us``): none by default, for with two clients and the dealer polling, three
processes would poll on two cores."""
_MAX_SPIN_US = 1_000_000.0
"""The longest spin allowed (a second)."""
MAX_LIMIT_SECONDS = 7 * 24 * 3600.0
"""The longest time limit a seat takes (a week: past it, none is meant; ``poll`` takes at
most about 24 days)."""
_LATE_READS = 4
"""Reads of a socket past the deadline that may still look for the answer (a client that
keeps writing without ending a line must not hold the seat)."""
_TRIMMED = 16
""":class:`Spin` leaves out each way's longest 1/16 of the waits it timed (a slow answer,
a timeout or a hiccup of the machine must not decide which way is faster)."""
_BLOCK_WAITS = 16
"""Waits in a block of one way (polling or sleeping) while :class:`Spin` times both."""
_TRIAL_BLOCKS = 8
"""Blocks of each way, alternated, that :class:`Spin` times before it chooses."""
_KEPT_WAITS = 2048
"""Waits :class:`Spin` keeps its choice for before it times both ways again."""


@dataclass(frozen=True)
class TimeLimits:
    """Seconds a client may think: per action, per hand and over the match (None: no limit).

    Raises:
        PokerlabError: a limit that is not a positive number of seconds of at most
            :data:`MAX_LIMIT_SECONDS` (None is no limit).
    """

    per_action: float | None = 10.0
    per_hand: float | None = None
    per_match: float | None = None

    def __post_init__(self) -> None:
        for name in ("per_action", "per_hand", "per_match"):
            value = getattr(self, name)
            if value is not None and not 0 < value <= MAX_LIMIT_SECONDS:  # NaN too
                raise PokerlabError(
                    f"the time limit {name.replace('_', ' ')} is {value!r}; allowed: a "
                    f"positive number of seconds up to {MAX_LIMIT_SECONDS:,.0f} (a week), or "
                    "no limit"
                )


class LineBuffer:
    """Bytes in, lines out: each line at most ``limit`` bytes, each byte scanned once.

    A line longer than ``limit`` is dropped whole (up to its newline, however long) and
    reported once, by :meth:`pop` raising ``ProtocolError``; what follows it is read as
    usual. Memory stays under ``limit`` plus one chunk, and time is linear in the bytes
    fed, whatever their lines: no quadratic rescans of a growing buffer.
    """

    def __init__(self, limit: int = MAX_LINE_BYTES) -> None:
        self.limit = limit
        self._data = bytearray()
        self._start = 0  # where the next line begins
        self._scanned = 0  # bytes before this hold no newline after _start
        self._dropping = False  # inside a line too long, dropped up to its newline

    def feed(self, chunk: bytes) -> None:
        """Append bytes read from the peer."""
        if self._start >= _COMPACT_BYTES or (self._start and self._start == len(self._data)):
            del self._data[: self._start]
            self._scanned -= self._start
            self._start = 0
        self._data += chunk

    def pop(self) -> str | None:
        """The next whole line (without its line end; bytes not ASCII replaced), or None.

        Raises:
            ProtocolError: a line longer than ``limit`` bytes was dropped.
        """
        while True:
            end = self._data.find(b"\n", self._scanned)
            if end < 0:
                self._scanned = len(self._data)
                if len(self._data) - self._start > self.limit:
                    self._data.clear()
                    self._start = self._scanned = 0
                    if not self._dropping:
                        self._dropping = True
                        raise ProtocolError(
                            f"a line longer than {self.limit} bytes (dropped up to its end)"
                        )
                return None
            line = self._data[self._start : end]
            self._start = self._scanned = end + 1
            if self._dropping:
                self._dropping = False
                continue
            if len(line) > self.limit:
                raise ProtocolError(f"a line of {len(line)} bytes; at most {self.limit} are read")
            return bytes(line).rstrip(b"\r").decode("ascii", errors="replace")

    def pop_all(self) -> tuple[list[str], list[ProtocolError]]:
        """Every whole line :meth:`pop` would give now, and the errors it would raise.

        The usual batch (no line too long, none being dropped) is split and decoded at once
        instead of line by line; anything else goes through :meth:`pop`, so the lines, the
        errors and what stays buffered are the same either way.
        """
        data, start = self._data, self._start
        last = data.rfind(b"\n", start)
        if not self._dropping and last >= 0:
            # ASCII decoding maps each byte to one character: lengths and line ends stay.
            lines = bytes(data[start:last]).decode("ascii", errors="replace").split("\n")
            if max(map(len, lines)) <= self.limit and len(data) - last - 1 <= self.limit:
                self._start = last + 1
                self._scanned = len(data)  # no newline after the last one
                return [line.rstrip("\r") for line in lines], []
        found: list[str] = []
        errors: list[ProtocolError] = []
        while True:
            try:
                line = self.pop()
            except ProtocolError as error:
                errors.append(error)
                continue
            if line is None:
                return found, errors
            found.append(line)


class Spin:
    """Whether the dealer polls for an answer before it sleeps: both ways timed, the faster kept.

    Polling for up to ``seconds`` saves the wake-up of a sleeping process when the client
    answers within it and a core is idle to poll on (on a virtual machine a halted core
    wakes slowly); on a busy machine the polling takes the core the client or the dealer
    itself needs, and the match slows (heads-up limit, two pokerlab clients, two cores
    beside other busy processes: 780-880 hands/s polling against 1,080-1,280 sleeping).
    Which holds is not known in advance, so the dealer's seats share one ``Spin``, which
    alternates blocks of :data:`_BLOCK_WAITS` waits polling and sleeping
    (:data:`_TRIAL_BLOCKS` of each), adds up the wall time of each way's blocks (the
    waits and the dealer's work between them: the match's own pace; each way's longest
    1/:data:`_TRIMMED` left out, so that a few slow answers or timeouts do not decide),
    keeps the faster way for :data:`_KEPT_WAITS` waits, then times both again. A process
    allowed a single CPU never polls (the client it waits for needs that CPU).
    """

    def __init__(self, seconds: float) -> None:
        check_spin_us(seconds * 1e6)
        self.seconds = seconds if seconds > 0 and _cpus() > 1 else 0.0
        self.polling = self.seconds > 0
        """Whether the next wait polls before it sleeps."""
        self._left = _BLOCK_WAITS  # waits left in this block (or in the kept choice)
        self._block = 0  # blocks timed in this trial (2 * _TRIAL_BLOCKS: keeping a choice)
        self._times: tuple[list[float], list[float]] = ([], [])  # this trial's: slept, polled
        self._last = -1.0  # when the last wait ended (-1: none has)

    def record(self) -> None:
        """Count one wait for an answer, at its end (or its fault's)."""
        if self.seconds <= 0:
            return
        now = time.monotonic()
        if self._last < 0:
            self._last = now
            return
        if self._block < 2 * _TRIAL_BLOCKS:  # timing: each wait and the work after it
            self._times[self.polling].append(now - self._last)
        self._last = now
        self._left -= 1
        if self._left > 0:
            return
        if self._block < 2 * _TRIAL_BLOCKS:
            self._block += 1
            if self._block < 2 * _TRIAL_BLOCKS:
                self.polling, self._left = not self.polling, _BLOCK_WAITS
            else:
                slept, polled = (_trimmed_sum(times) for times in self._times)
                self.polling, self._left = polled < slept, _KEPT_WAITS
        else:
            self._block, self._times = 0, ([], [])
            self.polling, self._left = True, _BLOCK_WAITS


def _trimmed_sum(times: list[float]) -> float:
    """The sum of ``times`` less its longest 1/:data:`_TRIMMED`."""
    return sum(sorted(times)[: len(times) - len(times) // _TRIMMED])


def _cpus() -> int:
    """The CPUs this process may run on (its affinity, where the system tells it)."""
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity is not None else os.cpu_count() or 1


class _LineSocket:
    """Lines in and out of a connected socket, with deadlines; never raises past ``AgentFault``.

    The socket is non-blocking: a send is one system call; a read with no line buffered
    waits in ``poll`` and then reads (an answer is read right after the state it answers
    is sent, before the client can have written it: a ``recv`` first would find nothing).
    With a :class:`Spin` that polls, a read first retries ``recv`` for up to its seconds
    before it sleeps in ``poll`` (an answer that comes within it costs no wake-up; the
    CPU is spent); every wait is timed for the ``Spin``. Lines are bounded
    (:class:`LineBuffer`): a longer one is a ``protocol`` fault.
    """

    def __init__(
        self, sock: socket.socket, spin: Spin | None = None, received: LineBuffer | None = None
    ) -> None:
        self.sock = sock
        self.spin = Spin(0.0) if spin is None else spin
        self._waited = False  # whether the last read had to wait
        self.lines = LineBuffer() if received is None else received
        self.closed = False
        sock.setblocking(False)
        self._poll = select.poll()
        self._poll.register(sock, select.POLLIN)

    def send(self, text: str) -> None:
        if self.closed:
            raise AgentFault("crash", "the client disconnected")
        data = memoryview(text.encode("ascii") + b"\r\n")
        try:
            while data:
                try:
                    data = data[self.sock.send(data) :]
                except BlockingIOError:
                    # a client that does not read fills its buffer: wait a little, no more
                    ready = select.select([], [self.sock], [], _SEND_SECONDS)[1]
                    if not ready:
                        self.closed = True  # a line half sent: nothing more can follow it
                        raise AgentFault(
                            "timeout", "the client does not read what it is sent"
                        ) from None
        except OSError as error:
            self.closed = True
            raise AgentFault("crash", f"the client disconnected ({error})") from error

    def read_line(self, deadline: float | None, *, buffered_only: bool = False) -> str:
        """The next line, waiting for it until ``deadline``.

        ``buffered_only``: a line already read from the socket, else a timeout (the
        caller is past its deadline and has read lines that were not its answer: a client
        that keeps writing must not hold the seat).
        """
        self._waited = False
        try:
            return self._read_line(deadline, buffered_only, self.spin.polling, self.spin.seconds)
        finally:
            if self._waited:  # a timeout ends a wait too
                self.spin.record()

    def _read_line(
        self, deadline: float | None, buffered_only: bool, polling: bool, seconds: float
    ) -> str:
        started = 0.0  # when this read started to wait (0: it has not)
        late = 0  # reads past the deadline
        while True:
            try:
                line = self.lines.pop()
            except ProtocolError as error:
                raise AgentFault("protocol", str(error)) from None
            if line is not None:
                return line
            if self.closed:
                raise AgentFault("crash", "the client disconnected")
            if buffered_only:
                raise AgentFault("timeout", "no answer within the time limit, only lines "
                                 "that were not answers")
            now = time.monotonic()
            if not started:
                started = now
                self._waited = True
            if deadline is not None and now >= deadline:
                late += 1
                if late > _LATE_READS:  # what was written in time is read: no more
                    raise AgentFault("timeout", "no answer within the time limit")
            if not polling or now - started >= seconds or late:
                # Sleep until the client writes (a read now would nearly always find
                # nothing). Past the deadline, an answer already there is still taken.
                left = None if deadline is None else deadline - now
                wait = -1 if left is None else 0 if left <= 0 else math.ceil(left * 1000)
                if not self._poll.poll(wait):
                    raise AgentFault("timeout", "no answer within the time limit")
            try:
                chunk = self.sock.recv(65536)
            except BlockingIOError:
                continue  # polling (or a wake-up with nothing to read)
            except OSError as error:
                self.closed = True
                raise AgentFault("crash", f"the client disconnected ({error})") from error
            if not chunk:
                self.closed = True
                raise AgentFault("crash", "the client disconnected")
            self.lines.feed(chunk)

    def close(self) -> None:
        self.closed = True
        with contextlib.suppress(OSError):
            self.sock.close()


class MatchStateSink(Protocol):
    """What a table sends match states to: an :class:`AcpcSeat`, or a transport holding one."""

    name: str
    hand_seconds: float
    table: AcpcTable | None

    def deliver(self, text: str) -> None:
        """Pass on one match state (a seat may queue it until it must answer)."""
        ...


class AcpcTable:
    """The dealer listener: follows the hand, sends match states, writes the ACPC log lines.

    The betting text, the board text and each position's head and hole cards are kept as
    the hand goes (an action appends one token), so a match state costs one string
    format, not a replay of the hand.

    Args:
        seats: the ACPC seat of each agent (by the agent's index in the match); agents
            reached otherwise (in process, sandboxed) are left out or given as None.
        log: receives the ``STATE:`` and ``#`` fault lines.
    """

    def __init__(
        self,
        seats: Sequence[MatchStateSink | None] | Mapping[int, MatchStateSink],
        log: Callable[[str], None] | None = None,
    ) -> None:
        pairs = seats.items() if isinstance(seats, Mapping) else enumerate(seats)
        self.seats: dict[int, MatchStateSink] = {i: seat for i, seat in pairs if seat is not None}
        self.state: HoldemState | None = None
        self.hand = 0
        self.seating: tuple[int, ...] = ()
        self.log = log
        self._round = 0  # betting rounds opened before the current one
        self._betting = ""  # the hand's betting so far, rounds joined by "/"
        self._boards = ""  # "/<cards>" per round after the first that has opened
        self._hole: list[str] | None = None  # each position's hole cards, once all are dealt
        self._views: list[tuple[int, str, MatchStateSink, str]] = []
        """Per position with a seat here: the position, its ``MATCHSTATE:<position>:<hand>:``
        head, its seat and its own hole cards (the others' hidden), built once a hand."""
        self._orders: dict[int, list[tuple[int, str, MatchStateSink, str]]] = {}
        """The views with the position to act first, by that position (built once a hand)."""
        for seat in self.seats.values():
            seat.table = self

    def __call__(self, event: DealerEvent) -> None:
        """Receive one dealer event."""
        if isinstance(event, ActionTaken):
            state = event.state
            assert isinstance(state, HoldemState)
            action = event.action
            if action == FOLD:
                self._betting += "f"
            elif action == CALL:
                self._betting += "c"
            elif state.game.no_limit:
                self._betting += f"r{state.committed[event.seat]}"
            else:
                self._betting += "r"
            self._changed(state)
        elif isinstance(event, ChanceDealt):
            state = event.state
            assert isinstance(state, HoldemState)
            if state.player == CHANCE:
                # More cards before anyone acts (hole cards, a board being dealt, an all-in
                # run-out): nothing is sent; the rounds this deal opens are written with the
                # last card (the loop below opens every round the board has reached).
                self.state = state
                return
            sizes = state.game.rules.board_sizes
            while self._round + 1 < len(sizes) and len(state.board) >= sizes[self._round + 1]:
                self._round += 1
                r = self._round
                self._betting += "/"
                texts = acpc_card_texts(state.game.rules.n_suits)
                self._boards += "/" + "".join(
                    texts[c] for c in state.board[sizes[r - 1] : sizes[r]]
                )
            self._changed(state)
        elif isinstance(event, HandStarted):
            self.hand, self.seating = event.hand, event.seats
            self._round = 0
            self._betting = ""
            self._boards = ""
            self._hole = None
            self._views = []
            self._orders = {}
            for connection in self.seats.values():
                connection.hand_seconds = 0.0
        elif isinstance(event, HandEnded):
            # The hand's end goes now, not with the next hand's first state: a client's work
            # on it (a showdown, the agent's result) is not charged to its next action.
            for seat in self.seats.values():
                flush = getattr(seat, "flush", None)
                if flush is not None:
                    flush()
            if self.log is None:
                return
            state = event.state
            assert isinstance(state, HoldemState)
            record = event.record
            returns = "|".join(format_chips(r) for r in record.returns)
            names = "|".join(self._name(a) for a in self.seating)
            body = self._body(state, show=range(state.game.n_players))
            self.log(f"STATE:{self.hand}:{body}:{returns}:{names}")
        elif isinstance(event, FaultEvent) and self.log is not None:
            self.log(f"# hand {event.hand} seat {event.seat} {event.kind}: {event.detail}")

    def _name(self, agent: int) -> str:
        seat = self.seats.get(agent)
        return seat.name if seat is not None else f"agent{agent}"

    def _holes(self, state: HoldemState) -> list[str]:
        """Each position's hole cards as text (read once a hand, when all are dealt)."""
        if self._hole is None or len(self._hole) < state.game.n_players:
            texts = acpc_card_texts(state.game.rules.n_suits)
            self._hole = [
                "".join(texts[c] for c in state.hole_cards(p))
                for p in range(state.game.n_players)
            ]
            self._views, self._orders = [], {}
            for position, agent in enumerate(self.seating):
                seat = self.seats.get(agent)
                if seat is not None:
                    own = "|".join(h if p == position else "" for p, h in enumerate(self._hole))
                    self._views.append((position, f"{PREFIX}:{position}:{self.hand}:", seat, own))
        return self._hole

    def _body(self, state: HoldemState, show: Sequence[int] | range) -> str:
        """``<betting>:<cards>`` with the hole cards of the positions in ``show``."""
        holes = self._holes(state)
        hole = "|".join(holes[p] if p in show else "" for p in range(len(holes)))
        return f"{self._betting}:{hole}{self._boards}"

    def _changed(self, state: HoldemState) -> None:
        self.state = state
        player = state.player
        if player < 0 and player != TERMINAL:
            return
        self._holes(state)
        betting, boards = self._betting, self._boards
        if player == TERMINAL and not any(state.folded):
            everyone = self._body(state, show=range(state.game.n_players))
            for _, head, seat, _ in self._views:
                seat.deliver(f"{head}{everyone}")
            return
        # The seat to act first: its client starts thinking before the others wake up.
        views = self._views
        if player > 0:
            views = self._orders.get(player) or self._orders.setdefault(
                player, sorted(views, key=lambda view: view[0] != player)
            )
        for _, head, seat, own in views:
            seat.deliver(f"{head}{betting}:{own}{boards}")


class AcpcSeat:
    """One entrant reached over a socket: a transport for the library dealer.

    ``received``: bytes already read from the socket (after the version line), if any.
    ``spin``: whether a wait for the client's answer polls before it sleeps (None: never).
    """

    wants_updates = False

    def __init__(
        self,
        sock: socket.socket,
        name: str,
        limits: TimeLimits,
        *,
        spin: Spin | None = None,
        received: LineBuffer | None = None,
    ) -> None:
        self.name = name
        self.limits = limits
        self.lines = _LineSocket(sock, spin=spin, received=received)
        self.table: AcpcTable | None = None
        self.sent = ""
        self.hand_seconds = 0.0
        self.match_seconds = 0.0
        self._faults: list[tuple[str, str]] = []
        self._pending: list[str] = []

    def deliver(self, text: str) -> None:
        """Queue a match state (once); it is sent, with the others queued, by :meth:`flush`.

        States the seat need not answer wait for the next one it must answer (or the end of
        the hand): one system call per decision instead of one per state, which on
        loopback is most of the dealer's time (each send wakes the client).
        """
        if text == self.sent:
            return
        self.sent = text
        if not self.lines.closed:
            self._pending.append(text)

    def flush(self) -> None:
        """Send the queued match states in one write; a dead client's are dropped."""
        if not self._pending:
            return
        text = "\r\n".join(self._pending)
        self._pending.clear()
        if not self.lines.closed:
            try:
                self.lines.send(text)
            except AgentFault as fault:
                self._faults.append((fault.kind, fault.detail))

    def reset(self) -> None:
        """Nothing: ACPC has no hook before a hand."""

    def seed(self, value: int) -> None:
        """Nothing: ACPC clients draw their own randomness."""

    def observe(self, update: Observation | HandResult) -> None:
        """Nothing: the table sends every state."""

    def act(self, observation: Observation) -> object:
        """Read this seat's answer to the state last sent; return its action id."""
        return self.act_unobserved()

    def act_unobserved(self) -> object:
        """:meth:`act` without an observation (the client knows the hand from the table)."""
        table = self.table
        if table is None or table.state is None:
            raise AgentFault("protocol", "the seat is not at a table")
        state = table.state
        self.flush()  # the state to answer, after those it has not been sent yet
        limits = self.limits  # the least of the limits set (min over them, in this order)
        budget = limits.per_action
        if limits.per_hand is not None:
            left = limits.per_hand - self.hand_seconds
            budget = left if budget is None else min(budget, left)
        if limits.per_match is not None:
            left = limits.per_match - self.match_seconds
            budget = left if budget is None else min(budget, left)
        if budget is not None and budget <= 0:
            raise AgentFault("timeout", "the client has used up its time for the hand or match")
        start = time.monotonic()
        try:
            return self._answer(state, None if budget is None else start + budget)
        finally:
            spent = time.monotonic() - start
            self.hand_seconds += spent
            self.match_seconds += spent

    def _answer(self, state: HoldemState, deadline: float | None) -> Action:
        ignored = 0  # lines that were not the answer: the first few are recorded, then counted
        late = False  # past the deadline after a line that was not the answer
        try:
            while True:
                line = self.lines.read_line(deadline, buffered_only=late)
                sent = self.sent
                if line.startswith(sent) and line[len(sent) : len(sent) + 1] == ":":
                    token = line[len(sent) + 1 :]  # the usual answer: no need to parse it all
                    if _TOKEN.fullmatch(token):
                        try:
                            return token_action(state, token)
                        except (ProtocolError, IllegalActionError) as error:
                            raise AgentFault("illegal", f"{token!r}: {error}") from error
                try:
                    message, token = parse_response(line)
                except ProtocolError as error:
                    fault = ("protocol", f"garbage {line[:80]!r}: {error}")
                else:
                    if format_matchstate(message) == self.sent:
                        try:
                            return token_action(state, token)
                        except (ProtocolError, IllegalActionError) as error:
                            raise AgentFault("illegal", f"{token!r}: {error}") from error
                    fault = ("protocol", f"answer out of turn or stale: {line[:80]!r}")
                ignored += 1
                if ignored <= _RECORDED_LINES:
                    self._faults.append(fault)
                if deadline is not None and not late and time.monotonic() > deadline:
                    late = True  # what is read already may still hold the answer; no more
        finally:
            if ignored > _RECORDED_LINES:
                self._faults.append(
                    ("protocol", f"{ignored - _RECORDED_LINES} more lines that were not answers")
                )

    def take_faults(self) -> list[tuple[str, str]]:
        """Faults found outside a call (a failed send, garbage read while waiting)."""
        faults, self._faults = self._faults, []
        return faults

    def close(self) -> None:
        """Send what is queued (the last hand's end), then close the socket."""
        self.flush()
        self.lines.close()


def check_spin_us(spin_us: float) -> float:
    """``spin_us`` if it is a number of microseconds from 0 to 1,000,000.

    Raises:
        PokerlabError: otherwise (says what is allowed).
    """
    if not 0.0 <= spin_us <= _MAX_SPIN_US:  # False for NaN too
        raise PokerlabError(
            f"spin of {spin_us!r} us; allowed: 0 (sleep at once) to {_MAX_SPIN_US:,.0f} us"
        )
    return spin_us



__all__ = [
    "CLIENT_SPIN_US",
    "DEALER_SPIN_US",
    "MAX_LINE_BYTES",
    "AcpcSeat",
    "AcpcTable",
    "LineBuffer",
    "MatchStateSink",
    "Spin",
    "TimeLimits",
    "check_spin_us",
]
