"""Whatever an ACPC entrant (an executable, a remote client) answers, it is a fault, never a crash.

:class:`pokerlab.play.acpc_seat.AcpcSeat` reads a client's answer line by line: each line
is bounded (:data:`~pokerlab.play.acpc_seat.MAX_LINE_BYTES`) and decoded leniently, and
anything but the answer to the state last sent is a recorded ``protocol`` fault, an
action that is not legal an ``illegal`` one. Random bytes and adversarial lines (huge
integers, invalid UTF-8, NaN, megabyte lines without a newline, NUL bytes...) each give an
action or an ``AgentFault``, never another exception.
"""

from __future__ import annotations

import contextlib
import random
import socket
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerlab.errors import ProtocolError
from pokerlab.games.holdem import holdem
from pokerlab.games.holdem_state import HoldemState
from pokerlab.play.acpc_matchstate import format_matchstate, matchstate_from_state
from pokerlab.play.acpc_seat import AcpcSeat, LineBuffer, TimeLimits
from pokerlab.play.dealer import AgentFault

GAMES = {"limit": holdem(betting="limit", blinds=(5, 10), stack=1000),
         "no-limit": holdem(stack=200, blinds=(1, 2))}


def _decision(game_name: str) -> tuple[HoldemState, str]:
    """A state where position 0 acts, and its match state as the seat sent it."""
    state = GAMES[game_name].initial_state()
    rng = random.Random(5)
    while state.is_chance:
        outcomes = state.chance_outcomes()
        state = state.child(rng.choice(outcomes)[0])
    position = state.player
    return state, format_matchstate(matchstate_from_state(state, position, 7))


class _Table:
    """What a seat reads the state to answer from (the dealer's listener, in play)."""

    def __init__(self, state: HoldemState) -> None:
        self.state = state


def _seat(game_name: str, name: str, seconds: float
          ) -> tuple[HoldemState, str, AcpcSeat, socket.socket]:
    """A seat that has sent its decision state: ``(state, sent, seat, the client's end)``."""
    state, sent = _decision(game_name)
    ours, theirs = socket.socketpair()
    seat = AcpcSeat(ours, name, TimeLimits(per_action=seconds))
    seat.table = _Table(state)  # type: ignore[assignment]
    seat.deliver(sent)
    return state, sent, seat, theirs


def _answer(game_name: str, data: bytes, seconds: float = 0.2) -> object:
    """The seat's action for ``data`` sent by the client, or the AgentFault it raised."""
    _, sent, seat, theirs = _seat(game_name, "hostile", seconds)

    def write() -> None:
        # OSError: the seat stopped reading (a line too long), which is its answer
        with contextlib.suppress(OSError):
            theirs.sendall(data.replace(b"{STATE}", sent.encode()))

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    try:
        return seat.act_unobserved()
    except AgentFault as fault:
        return fault
    finally:
        seat.close()
        theirs.close()
        writer.join(5)


ADVERSARIAL = {
    "huge-raise": b"{STATE}:r" + b"9" * 4000 + b"\r\n",
    "huge-raise-past-int-limit": b"{STATE}:r" + b"9" * 7000 + b"\r\n",  # > 4,300 digits
    "huge-line": b"{STATE}:" + b"c" * 8_000_000 + b"\r\n",
    "megabyte-no-newline": b"x" * 1_000_000,
    "invalid-utf8": b"{STATE}:\xff\xfe\xc3\x28\r\n",
    "nul": b"\x00" * 3000 + b"\n",
    "nan-raise": b"{STATE}:rNaN\r\n",
    "negative-raise": b"{STATE}:r-5\r\n",
    "float-raise": b"{STATE}:r1e999\r\n",
    "empty-lines": b"\r\n" * 10_000,
    "many-colons": b"{STATE}" + b":" * 3000 + b"c\r\n",
    "other-state": b"MATCHSTATE:0:99999999999999999999999:cc:AhKh|:c\r\n",
    "bare-state": b"{STATE}\r\n",
    "unicode": "{STATE}:\u0441\r\n".encode(),
    "silence": b"",
}
"""What a hostile client sends in place of its answer (``{STATE}``: the state it was sent)."""


@pytest.mark.parametrize("game_name", sorted(GAMES))
@pytest.mark.parametrize("name", sorted(ADVERSARIAL))
def test_an_adversarial_answer_is_a_fault(game_name: str, name: str) -> None:
    outcome = _answer(game_name, ADVERSARIAL[name])
    assert isinstance(outcome, AgentFault)
    assert outcome.kind in ("protocol", "illegal", "timeout", "crash")
    assert len(outcome.detail) <= 400  # a line is quoted cut, never whole


@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_a_good_answer_after_garbage_is_read_and_the_garbage_recorded(game_name: str) -> None:
    state, sent, seat, theirs = _seat(game_name, "s", 2.0)
    theirs.sendall(b"\xff garbage\r\n" + sent.encode() + b":c\r\n")
    try:
        assert seat.act_unobserved() in state.legal_actions()
        assert [kind for kind, _ in seat.take_faults()] == ["protocol"]
    finally:
        seat.close()
        theirs.close()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.binary(max_size=6000), with_state=st.booleans(), newline=st.booleans())
def test_random_bytes_are_an_action_or_a_fault(data: bytes, with_state: bool,
                                               newline: bool) -> None:
    message = (b"{STATE}:" if with_state else b"") + data + (b"\r\n" if newline else b"")
    outcome = _answer("no-limit", message, seconds=0.05)
    if not isinstance(outcome, AgentFault):
        state, _ = _decision("no-limit")
        assert outcome in state.legal_actions()


def _pop_each(buffer: LineBuffer) -> tuple[list[str], list[str]]:
    """The lines and error messages of :meth:`LineBuffer.pop` called until it gives None."""
    lines: list[str] = []
    errors: list[str] = []
    while True:
        try:
            line = buffer.pop()
        except ProtocolError as error:
            errors.append(str(error))
            continue
        if line is None:
            return lines, errors
        lines.append(line)


@settings(max_examples=300, deadline=None)
@given(
    pieces=st.lists(
        st.tuples(
            st.sampled_from([b"", b"\n", b"\r\n", b"\r", b"ab", b"MATCHSTATE:0:1:cc:", b"\xff",
                             b"x" * 15, b"y" * 16, b"z" * 17, b"w" * 40, b"\n\n"]),
            st.booleans(),  # a chunk ends after this piece
        ),
        max_size=40,
    )
)
def test_pop_all_gives_the_lines_and_errors_of_pop_one_by_one(
    pieces: list[tuple[bytes, bool]],
) -> None:
    # The client reads each chunk's lines at once (pop_all's split fast path); the lines,
    # the errors (lines too long, dropped) and what stays buffered must be pop's.
    fast, slow = LineBuffer(limit=16), LineBuffer(limit=16)
    chunk = b""
    for piece, ends in [*pieces, (b"", True)]:
        chunk += piece
        if not ends:
            continue
        fast.feed(chunk)
        slow.feed(chunk)
        chunk = b""
        lines, errors = fast.pop_all()
        assert (lines, [str(e) for e in errors]) == _pop_each(slow)


@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_a_client_that_never_stops_writing_garbage_times_out(game_name: str) -> None:
    # A review's attack: a client process writing lines that are not its answer, without
    # pause. Each line was read and counted and the next one read, past the deadline, for
    # ever: one client held the match. Past the deadline only what is read already is
    # looked at. (The flood comes from another process: a thread here is too slow.)
    import subprocess
    import sys

    _, _, seat, theirs = _seat(game_name, "flood", 0.2)
    flooder = subprocess.Popen(
        [sys.executable, "-c",
         "import socket, sys\n"
         "s = socket.socket(fileno=int(sys.argv[1]))\n"
         "data = b'garbage\\n' * 4096\n"
         "try:\n"
         "    while True:\n"
         "        s.sendall(data)\n"
         "except OSError:\n"
         "    pass\n", str(theirs.fileno())],
        pass_fds=[theirs.fileno()],
    )  # fmt: skip
    theirs.close()
    outcome: list[object] = []

    def answer() -> None:
        try:
            outcome.append(seat.act_unobserved())
        except AgentFault as fault:
            outcome.append(fault)

    reader = threading.Thread(target=answer, daemon=True)
    reader.start()
    reader.join(30)
    try:
        assert not reader.is_alive(), "the seat still reads the flood after 30 s"
        assert isinstance(outcome[0], AgentFault)
        assert outcome[0].kind == "timeout"
        kinds = [kind for kind, _ in seat.take_faults()]
        assert set(kinds) == {"protocol"}  # the garbage recorded, its count bounded
        assert 1 <= len(kinds) <= 10
    finally:
        flooder.kill()
        flooder.wait(10)
        seat.close()
        reader.join(10)
