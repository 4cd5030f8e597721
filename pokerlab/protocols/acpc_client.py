"""An ACPC client: connects to a dealer and plays a pokerlab agent through match states.

The client announces ``VERSION:2.0.0``, then for every match state it reads it follows the
Hold'em state its seat may know (:class:`~pokerlab.play.acpc_matchstate.MatchStateTracker`,
which replays only what is new in each message), and when that seat is to act asks the
agent for an action on the seat's :class:`~pokerlab.games.Observation` and answers
``<match state>:<action>``.

The agent is reached through a transport (:class:`~pokerlab.play.dealer.AgentConnection`),
as the library dealer reaches it, and gets the same calls: ``reset`` and ``seed`` when a
hand starts, ``observe`` after every state it does not act in and with the hand's result,
``act`` when it must act. :func:`client_agent` builds it from a command line's
``--agent``: a built-in agent's name, a policy file (``.npz``, ``.bp``, ``.pt``; on the
Kuhn and Leduc gamedefs, also one of pokerlab's ``kuhn`` and ``leduc``:
:mod:`pokerlab.protocols.acpc_native`) or an entrant's Python file, which runs in a
sandboxed process of its own (:class:`~pokerlab.play.sandbox.SandboxedAgent`), never
imported by the client.

An agent that fails (an exception, a timeout, an illegal answer) does not stop the
client: it answers the seat's default action (check, else fold) and records the fault.
"""

from __future__ import annotations

import contextlib
import socket
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING

import numpy as np

from pokerlab._types import TERMINAL
from pokerlab.errors import PokerlabError
from pokerlab.games.holdem_state import HoldemGame
from pokerlab.play.acpc_matchstate import (
    VERSION_LINE,
    MatchStateTracker,
    action_token,
)
from pokerlab.play.acpc_seat import CLIENT_SPIN_US, LineBuffer, check_spin_us
from pokerlab.play.dealer import (
    AgentConnection,
    AgentFault,
    connect,
    default_action,
    hand_results,
    mix64,
)

if TYPE_CHECKING:
    from pokerlab.play.sandbox import SandboxLimits


def client_agent(
    text: str,
    game: HoldemGame,
    *,
    seed: int | None = None,
    limits: SandboxLimits | None = None,
) -> AgentConnection:
    """The transport to the agent a ``--agent`` option names (the one resolver).

    ``text`` is a built-in agent's name (``always-call``, ``random``...), a policy file
    (``.npz``, ``.bp``, ``.pt``) of ``game``, or an entrant's ``.py`` file defining
    ``Agent``, which runs in a sandboxed process (checked here, so that a file that does
    not load is an error now, not a silent seat).

    Raises:
        PokerlabError: an unknown name, a missing file, a strategy of another game, or an
            entrant that does not load (the message says why).
    """
    from pokerlab.agents.resolve import resolve_agent
    from pokerlab.play.names import printable
    from pokerlab.protocols.acpc_native import native_agent

    try:
        native = native_agent(text, game, seed=seed)
        if native is not None:  # a kuhn or leduc policy on ACPC's kuhn or leduc gamedef
            return connect(native)
        entrant = resolve_agent(text, game, seed=seed, limits=limits)
    except PokerlabError as error:
        raise PokerlabError(f"--agent {printable(text)}: {error}") from None
    if entrant.factory is None:
        raise PokerlabError(f"--agent {printable(text)}: the entrant does not load "
                             f"({entrant.error})")
    connection = connect(entrant.factory(game))
    start = getattr(connection, "start", None)
    if callable(start):  # a sandboxed entrant: its process runs from now on
        try:
            start()
        except AgentFault as fault:
            connection.close()
            raise PokerlabError(
                f"--agent {printable(text)}: the entrant does not load "
                f"({fault.kind}: {fault.detail})"
            ) from None
    return connection


class AcpcPlayer:
    """Turns match-state lines into answers for one agent (no socket: testable on transcripts).

    Args:
        game: the game the dealer plays.
        agent: an agent, or a transport to one (see :func:`client_agent`).
        seed: mixed with each hand's number into the value of the agent's ``seed`` hook.
    """

    def __init__(self, game: HoldemGame, agent: object, *, seed: int = 0) -> None:
        self.game = game
        self.connection = connect(agent)
        self.seed = seed
        self.faults: list[tuple[int, str, str]] = []
        """``(hand, kind, detail)`` of every failure of the agent (answered by default)."""
        self.hands = 0
        """Hands seen."""
        self.decisions = 0
        """States the seat was asked to act in (each answered, by default where it failed)."""
        self._tracker = MatchStateTracker(game)
        self._hand: int | None = None
        self._ended = False
        take = getattr(self.connection, "take_faults", None)
        self._take_faults: Callable[[], list[tuple[str, str]]] | None = (
            take if callable(take) else None
        )

    def _call(self, hook: Callable[..., object], *args: object) -> object:
        try:
            return hook(*args)
        except AgentFault as fault:
            self.faults.append((self._hand or 0, fault.kind, fault.detail))
            return None

    def answer(self, line: str) -> str | None:
        """The reply to one dealer line, or None when the seat is not to act.

        Raises:
            ProtocolError: if the line is not a match state of this game.
        """
        line = line.rstrip("\r\n")
        connection = self.connection
        # The hand's exact result (showdown cards) matters only to an agent that observes.
        exact = connection.wants_updates
        position, hand, state = self._tracker.follow(line, exact_showdown=exact)
        if hand != self._hand:
            self._hand = hand
            self._ended = False
            self.hands += 1
            self._call(connection.reset)
            self._call(connection.seed, mix64(self.seed, hand))
        if state.player == TERMINAL:
            if not self._ended and exact:
                self._ended = True
                public = self._tracker.public_history
                self._call(connection.observe, hand_results(state, public)[position])
            return None
        if state.player != position:
            if exact:
                view = state.observation(position, public_history=self._tracker.public_history)
                self._call(connection.observe, view)
            return None
        observation = state.observation(position, public_history=self._tracker.public_history)
        self.decisions += 1
        answer = self._call(connection.act, observation)
        take = self._take_faults
        if take is not None:
            for kind, detail in take():
                self.faults.append((hand, kind, detail))
        legal = observation.legal_actions
        if isinstance(answer, np.integer):
            answer = int(answer)
        if isinstance(answer, bool) or not isinstance(answer, int) or answer not in legal:
            if answer is not None:
                self.faults.append((hand, "illegal", f"answered {answer!r}; legal: {legal}"))
            answer = default_action(state)
        return f"{line}:{action_token(state, answer)}"  # the protocol: the state as sent

    def play(self, lines: Iterable[str]) -> Iterator[str]:
        """Every reply to a run of dealer lines (a transcript, or a socket's lines)."""
        for line in lines:
            if not line.strip() or line.startswith("#"):
                continue
            reply = self.answer(line)
            if reply is not None:
                yield reply

    def close(self) -> None:
        """Release the agent's transport (an entrant's process)."""
        with contextlib.suppress(Exception):
            self.connection.close()


def run_client(
    game: HoldemGame,
    host: str,
    port: int,
    agent: object,
    *,
    seed: int = 0,
    report: Callable[[str], None] | None = None,
    spin_us: float = CLIENT_SPIN_US,
) -> int:
    """Connect to the dealer at ``host:port`` and play until it closes; return hands seen.

    ``agent`` may be an :class:`AcpcPlayer` already (its ``faults`` and ``decisions`` are
    then the caller's to read afterwards).

    Lines the client cannot read and the agent's faults are passed to ``report`` (default:
    standard error) and the play goes on: the dealer decides what a silent seat does.
    ``spin_us``: microseconds the client polls for the dealer's next state before it
    sleeps (a state that comes within it costs no wake-up; the CPU is spent).

    Raises:
        PokerlabError: if the dealer cannot be reached.
    """
    check_spin_us(spin_us)
    player = agent if isinstance(agent, AcpcPlayer) else AcpcPlayer(game, agent, seed=seed)
    say = report or (lambda text: print(text, file=sys.stderr))
    try:
        sock = socket.create_connection((host, port), timeout=30.0)
    except OSError as error:
        player.close()
        raise PokerlabError(f"cannot connect to the dealer at {host}:{port} ({error})") from error
    sock.settimeout(None)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        with sock:
            sock.sendall(VERSION_LINE.encode("ascii") + b"\r\n")
            _serve(sock, player, say, spin_us / 1e6)
    except OSError:
        pass  # the dealer closed the connection: the match is over for us
    finally:
        player.close()
    return player.hands


def _serve(
    sock: socket.socket, player: AcpcPlayer, say: Callable[[str], None], spin: float
) -> None:
    session = _Session(sock, player, say)
    while True:
        chunk = _receive(sock, spin)
        if not chunk:
            return
        session.handle(chunk)


class _Session:
    """The client's side of one connection: bytes from the dealer in, answers sent back."""

    def __init__(self, sock: socket.socket, player: AcpcPlayer, say: Callable[[str], None]):
        self.sock = sock
        self.player = player
        self.say = say
        self.buffer = LineBuffer()
        self.reported = 0

    def handle(self, chunk: bytes) -> None:
        """Read the lines ``chunk`` completes, answer those the seat must act in."""
        buffer, player, say = self.buffer, self.player, self.say
        buffer.feed(chunk)
        found, errors = buffer.pop_all()
        for error in errors:
            say(f"unreadable line from the dealer ({error}); not answered")
        lines = [line for line in found if line and not line.startswith("#")]
        if not player.connection.wants_updates and len(lines) > 1:
            lines = latest_states(lines)
        replies = []
        for line in lines:
            try:
                reply = player.answer(line)
            except PokerlabError as error:
                say(f"unreadable line from the dealer ({error}); not answered")
                continue
            if reply is not None:
                replies.append(reply)
        faults = player.faults
        if len(faults) > self.reported:
            for hand, kind, detail in faults[self.reported :]:
                say(f"hand {hand}: the agent's {kind} fault ({detail}); answered the default "
                    "action")
            self.reported = len(faults)
        if replies:
            self.sock.sendall("".join(r + "\r\n" for r in replies).encode("ascii"))


def _receive(sock: socket.socket, spin: float) -> bytes:
    """The next bytes from the dealer: polled for up to ``spin`` seconds, then waited for."""
    if spin > 0:
        until = time.monotonic() + spin
        while True:
            try:
                return sock.recv(65536, socket.MSG_DONTWAIT)
            except BlockingIOError:
                if time.monotonic() >= until:
                    break
    return sock.recv(65536)


def latest_states(lines: list[str]) -> list[str]:
    """``lines`` less each match state followed by a later one of the same position and hand.

    A dealer sends a seat the states it need not answer together with the one it must (or
    the hand's end): for an agent that does not observe every action, only the last state
    of a hand in a batch matters (an earlier one cannot be waiting for an answer: the dealer
    sends nothing more of a hand before the seat to act has answered), so the client
    follows one state per batch and hand instead of each. Lines that are not match states
    are kept.
    """
    kept: list[str] = []
    previous = ""
    for line in lines:
        head = line[: _head_end(line)]
        if head and head == previous:
            kept[-1] = line
        else:
            kept.append(line)
        previous = head
    return kept


def _head_end(line: str) -> int:
    """The length of ``MATCHSTATE:<position>:<hand>:`` at the start of ``line`` (0: none)."""
    if not line.startswith("MATCHSTATE:"):
        return 0
    position_end = line.find(":", 11)
    hand_end = line.find(":", position_end + 1) if position_end > 0 else -1
    return hand_end + 1 if hand_end > 0 else 0


__all__ = ["AcpcPlayer", "client_agent", "latest_states", "run_client"]
