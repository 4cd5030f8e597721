"""Hostile peers of the ACPC dealer and client: nothing they send stops the other side.

Each attack is a real socket peer. On the dealer's side: connections that stay silent,
squat on a seat, flood it, announce garbage, or answer with megabyte lines, huge
integers and invalid UTF-8; the match must start, finish every hand, and record the
misbehaviour as the seat's faults. On the client's side: a dealer that sends 40 MB
without a newline, random bytes or invalid lines; the client must report, drop the line
and answer the next good state. The readers are fuzzed directly too (hypothesis): any
bytes give lines, a fault or a clean error, never another exception.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerlab.errors import PokerlabError, ProtocolError
from pokerlab.games.holdem import CALL, holdem
from pokerlab.games.observation import Observation
from pokerlab.play.acpc_matchstate import VERSION_LINE
from pokerlab.play.acpc_seat import MAX_LINE_BYTES, AcpcSeat, LineBuffer, TimeLimits
from pokerlab.play.dealer import AgentFault
from pokerlab.protocols.acpc_client import AcpcPlayer, run_client
from pokerlab.protocols.acpc_dealer import (
    DEFAULT_HELLO_SECONDS,
    DEFAULT_START_SECONDS,
    MAX_WAITING,
    accept_seats,
    open_seats,
    run_acpc_match,
)

LIMIT = holdem(betting="limit", blinds=(5, 10), stack=1000)
NO_LIMIT = holdem(stack=200, blinds=(1, 2))


class Caller:
    def act(self, observation: Observation) -> int:
        return CALL


def _client(game: object, port: int) -> threading.Thread:
    thread = threading.Thread(
        target=run_client, args=(game, "127.0.0.1", port, Caller()), daemon=True
    )
    thread.start()
    return thread


def _silent(port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port))


def _play(game, seats, hands: int = 6):  # type: ignore[no-untyped-def]
    try:
        return run_acpc_match(game, seats, hands=hands, seed=1)
    finally:
        for seat in seats:
            seat.close()


# --- the dealer before the match -------------------------------------------------------


def test_a_silent_connection_on_a_seat_is_dropped_and_the_real_client_plays() -> None:
    servers = open_seats(2, 0)
    ports = [s.getsockname()[1] for s in servers]
    squatter = _silent(ports[0])  # first on seat 0, says nothing
    reports: list[str] = []
    threads = [_client(LIMIT, port) for port in ports]
    try:
        seats = accept_seats(servers, ["a", "b"], TimeLimits(per_action=5.0),
                             hello_timeout=0.5, start_timeout=20, report=reports.append)
        result = _play(LIMIT, seats)
    finally:
        squatter.close()
    assert result.hands == 6
    assert result.faults == ()
    assert any("lost the seat" in r or "said nothing" in r for r in reports), reports
    for thread in threads:
        thread.join(10)


def test_a_silent_connection_alone_delays_the_seat_no_longer_than_the_hello_timeout() -> None:
    servers = open_seats(1, 0)
    port = servers[0].getsockname()[1]
    squatter = _silent(port)
    reports: list[str] = []
    later = threading.Timer(1.0, lambda: _client(LIMIT, port))
    later.start()  # the real client comes after the squatter was dropped
    try:
        seats = accept_seats(servers, ["a"], TimeLimits(), hello_timeout=0.3,
                             start_timeout=20, report=reports.append)
    finally:
        squatter.close()
        later.join()
    assert len(seats) == 1
    assert any("said nothing within 0.3 s; dropped, the seat listens again" in r
               for r in reports), reports
    seats[0].close()


@pytest.mark.parametrize(
    "hello",
    [b"VERSION:1.0.0\r\n", b"\xff\xfe\x00garbage\n", b"V" * (MAX_LINE_BYTES + 100),
     b"GET / HTTP/1.1\r\n"],
    ids=["old version", "garbage", "no newline, too long", "http"],
)
def test_a_bad_hello_is_dropped_and_the_seat_listens_again(hello: bytes) -> None:
    servers = open_seats(1, 0)
    port = servers[0].getsockname()[1]
    bad = _silent(port)
    bad.sendall(hello)
    reports: list[str] = []
    later = threading.Timer(0.5, lambda: _client(LIMIT, port))
    later.start()
    try:
        seats = accept_seats(servers, ["a"], TimeLimits(), hello_timeout=2, start_timeout=20,
                             report=reports.append)
    finally:
        bad.close()
        later.join()
    assert len(seats) == 1
    assert reports
    assert all("\n" not in r for r in reports)
    seats[0].close()


def test_a_flood_of_silent_connections_cannot_keep_the_client_out() -> None:
    servers = open_seats(1, 0)
    port = servers[0].getsockname()[1]
    flood: list[socket.socket] = []

    def flooder() -> None:
        for _ in range(3 * MAX_WAITING):
            with contextlib.suppress(OSError):
                flood.append(socket.create_connection(("127.0.0.1", port), timeout=5))

    threads = [threading.Thread(target=flooder, daemon=True)]
    threads[0].start()
    reports: list[str] = []
    later = threading.Timer(0.5, lambda: threads.append(_client(LIMIT, port)))
    later.start()
    try:
        seats = accept_seats(servers, ["a"], TimeLimits(), hello_timeout=30, start_timeout=20,
                             report=reports.append)
    finally:
        later.join()
        threads[0].join(30)
        for sock in flood:
            sock.close()
    assert len(seats) == 1
    assert any("made room for a newer one" in r for r in reports)
    seats[0].close()


def test_no_client_is_a_one_line_error_naming_the_empty_seat_and_closes_the_ports() -> None:
    servers = open_seats(2, 0)
    ports = [s.getsockname()[1] for s in servers]
    squatter = _silent(ports[1])
    thread = _client(LIMIT, ports[0])
    try:
        with pytest.raises(PokerlabError, match=rf"on b \(port {ports[1]}; 1 connections "
                           r"dropped\); start the clients sooner") as error:
            accept_seats(servers, ["a", "b"], TimeLimits(), hello_timeout=0.2, start_timeout=1)
    finally:
        squatter.close()
    assert "\n" not in str(error.value)
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", ports[1]), timeout=1).close()
    thread.join(10)  # the accepted client was closed too: it returns


def test_the_cli_documents_its_start_defaults(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from pokerlab.cli import main

    monkeypatch.setenv("COLUMNS", "200")
    assert main(["acpc", "dealer", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert f"(default {DEFAULT_START_SECONDS:g})" in text
    assert f"(default {DEFAULT_HELLO_SECONDS:g})" in text


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf"])
def test_timeouts_that_are_not_positive_are_refused(value: str) -> None:
    from pokerlab.cli import main

    assert main(["acpc", "dealer", "leduc.limit.2p", "a", "b", "--hello-timeout", value]) == 1


# --- the dealer during the match -------------------------------------------------------


def _hostile(reply: Callable[[str], bytes]) -> Callable[[int], None]:
    """A client that answers every state it reads with ``reply(state)``."""

    def run(port: int) -> None:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port)) as sock:
            sock.sendall(VERSION_LINE.encode() + b"\r\n")
            for line in sock.makefile("rb"):
                sock.sendall(reply(line.strip().decode("ascii", "replace")))

    return run


HOSTILE_ANSWERS: dict[str, Callable[[str], bytes]] = {
    "megabyte line": lambda state: b"x" * 1024**2 + b"\n",
    "megabyte answer": lambda state: state.encode() + b":r" + b"9" * 1024**2 + b"\n",
    "huge integer": lambda state: state.encode() + b":r" + b"9" * 5000 + b"\n",
    "negative raise": lambda state: state.encode() + b":r-5\n",
    "invalid utf-8": lambda state: state.encode() + b":\xff\xfe\xc3\x28\n",
    "nested": lambda state: state.encode() + b":" + b"[" * 3000 + b"\n",
    "nan": lambda state: state.encode() + b":rnan\n",
    "no newline ever": lambda state: b"c" * 70000,
}


@pytest.mark.parametrize("reply", list(HOSTILE_ANSWERS.values()), ids=list(HOSTILE_ANSWERS))
def test_hostile_answers_are_faults_and_the_match_finishes(
    reply: Callable[[str], bytes],
) -> None:
    servers = open_seats(2, 0)
    ports = [s.getsockname()[1] for s in servers]
    hostile = threading.Thread(target=_hostile(reply), args=(ports[0],), daemon=True)
    hostile.start()
    honest = _client(NO_LIMIT, ports[1])
    seats = accept_seats(servers, ["hostile", "honest"], TimeLimits(per_action=0.2))
    result = _play(NO_LIMIT, seats, hands=4)
    assert result.hands == 4
    assert result.faults
    assert {f.agent for f in result.faults} == {0}
    assert {f.kind for f in result.faults} <= {"protocol", "illegal", "timeout"}
    assert all(len(f.detail) < 400 for f in result.faults)
    assert result.chips[0] == -result.chips[1]
    honest.join(10)
    hostile.join(10)


def _table_seat() -> tuple[AcpcSeat, socket.socket]:
    """A seat at a table whose state is the first decision of a no-limit hand."""
    ours, theirs = socket.socketpair()
    seat = AcpcSeat(ours, "s", TimeLimits(per_action=0.2))

    class Table:
        state = NO_LIMIT.initial_state()
        while state.player < 0:
            state = state.child(state.chance_outcomes()[0][0])

    seat.table = Table()  # type: ignore[assignment]
    seat.sent = "MATCHSTATE:0:0::AsKd|"
    return seat, theirs


@settings(max_examples=120, deadline=None)
@given(
    lines=st.lists(
        st.one_of(
            st.binary(max_size=200),
            st.builds(lambda b: b"MATCHSTATE:0:0::AsKd|:" + b, st.binary(max_size=60)),
            st.sampled_from([b"MATCHSTATE:0:0::AsKd|:r" + b"9" * 4500,
                             b"MATCHSTATE:0:0::AsKd|:r1e9", b"MATCHSTATE:0:0::AsKd|:c" * 50,
                             b"\x00" * 9000, b"MATCHSTATE:0:0::AsKd|:f"]),
        ),
        max_size=6,
    )
)
def test_the_seats_reader_turns_any_bytes_into_an_action_or_a_fault(lines: list[bytes]) -> None:
    seat, theirs = _table_seat()
    try:
        theirs.sendall(b"".join(line.replace(b"\n", b" ") + b"\n" for line in lines)
                       + b"MATCHSTATE:0:0::AsKd|:c\n")
        for _ in range(len(lines) + 1):
            try:
                action = seat.act_unobserved()
            except AgentFault as fault:
                kind = fault.kind
                assert kind in {"protocol", "illegal", "timeout"}
            else:
                assert action in seat.table.state.legal_actions()  # type: ignore[union-attr]
                break
        for kind, detail in seat.take_faults():
            assert kind == "protocol"
            assert len(detail) < 400
    finally:
        seat.close()
        theirs.close()


# --- the client ------------------------------------------------------------------------


def _fake_dealer(send: bytes) -> tuple[int, threading.Thread, list[bytes]]:
    """A dealer that sends ``send`` then a real match state, and keeps what comes back."""
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    got: list[bytes] = []

    def run() -> None:
        with server, server.accept()[0] as sock:
            sock.settimeout(60)
            got.append(sock.recv(100))  # the version line
            with contextlib.suppress(OSError):
                sock.sendall(send + b"\nMATCHSTATE:1:0::|9hQd\r\n")
                reply = b""
                while not reply.endswith(b"\n"):
                    piece = sock.recv(4096)
                    if not piece:
                        break
                    reply += piece
                got.append(reply)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return port, thread, got


@pytest.mark.parametrize(
    "send",
    [b"M" * (40 * 1024**2), bytes(range(256)) * 4000, b"MATCHSTATE:0:0:r" + b"9" * 5000,
     b"MATCHSTATE:\xff\xfe:0::|", b"\r\n" * 100_000],
    ids=["40 MB without newline", "random bytes", "huge integer", "invalid utf-8",
         "blank lines"],
)
def test_a_hostile_dealer_line_is_reported_and_the_next_state_answered(send: bytes) -> None:
    port, dealer, got = _fake_dealer(send)
    reports: list[str] = []
    start = time.monotonic()
    run_client(LIMIT, "127.0.0.1", port, Caller(), report=reports.append)
    seconds = time.monotonic() - start
    dealer.join(30)
    assert got[1] == b"MATCHSTATE:1:0::|9hQd:c\r\n"
    assert seconds < 30  # linear: was 35 s for 40 MB (quadratic buffering)
    assert all("\n" not in r for r in reports)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.binary(max_size=300), max_size=8))
def test_the_clients_player_turns_any_line_into_an_answer_or_a_protocol_error(
    lines: list[bytes],
) -> None:
    player = AcpcPlayer(NO_LIMIT, Caller())
    for raw in [*lines, b"MATCHSTATE:0:0::AsKd|"]:
        line = raw.decode("ascii", errors="replace")
        try:
            reply = player.answer(line)
        except ProtocolError:
            continue
        assert reply is None or reply.startswith(line)


# --- the line reader shared by both ----------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(
    data=st.lists(
        st.one_of(st.binary(max_size=50), st.sampled_from([b"\n", b"\r\n", b"x" * 300])),
        max_size=40,
    ),
    cuts=st.lists(st.integers(1, 400), max_size=20),
)
def test_line_buffer_gives_the_same_lines_whatever_the_chunks(
    data: list[bytes], cuts: list[int]
) -> None:
    stream = b"".join(data)

    def lines_of(chunks: list[bytes]) -> list[str]:
        buffer, out = LineBuffer(limit=256), []
        for chunk in chunks:
            buffer.feed(chunk)
            while True:
                try:
                    line = buffer.pop()
                except ProtocolError:
                    out.append("<too long>")
                    continue
                if line is None:
                    break
                assert len(line) <= 256
                out.append(line)
        return out

    whole = lines_of([stream])
    chunks, at = [], 0
    for cut in cuts:
        chunks.append(stream[at : at + cut])
        at += cut
    chunks.append(stream[at:])
    assert lines_of(chunks) == whole
    *ended, tail = stream.split(b"\n")
    expected = [
        "<too long>" if len(line) > 256 else line.rstrip(b"\r").decode("ascii", "replace")
        for line in ended
    ] + (["<too long>"] if len(tail) > 256 else [])
    assert whole == expected


def test_line_buffer_memory_stays_bounded_on_a_line_without_end() -> None:
    buffer = LineBuffer()
    faults = 0
    for _ in range(600):  # 38 MB in 64 KiB chunks
        buffer.feed(b"x" * 65536)
        try:
            assert buffer.pop() is None
        except ProtocolError:
            faults += 1
        assert len(buffer._data) <= MAX_LINE_BYTES + 65536
    buffer.feed(b"tail of the long line\nMATCHSTATE:0:0::|\n")
    assert buffer.pop() == "MATCHSTATE:0:0::|"
    assert faults == 1
