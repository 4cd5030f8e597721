"""The dealer's choice to poll for an answer before it sleeps (`Spin`): timed, not guessed."""

from __future__ import annotations

import math
import os
import socket
import time

import pytest

from pokerlab.errors import PokerlabError
from pokerlab.play import acpc_seat
from pokerlab.play.acpc_seat import Spin, TimeLimits
from pokerlab.play.dealer import AgentFault

BLOCK, BLOCKS, KEPT = acpc_seat._BLOCK_WAITS, acpc_seat._TRIAL_BLOCKS, acpc_seat._KEPT_WAITS
TRIAL = 2 * BLOCKS * BLOCK


class Clock:
    """A monotonic clock the test advances."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(acpc_seat.time, "monotonic", fake.monotonic)
    monkeypatch.setattr(acpc_seat, "_cpus", lambda: 2)
    return fake


def _play(spin: Spin, clock: Clock, waits: int, polled: float, slept: float) -> list[bool]:
    """Whether each of ``waits`` waits polled; a wait and the work after it take
    ``polled`` or ``slept`` seconds."""
    ways = []
    for _ in range(waits):
        ways.append(spin.polling)
        clock.now += polled if spin.polling else slept
        spin.record()
    return ways


def test_both_ways_are_timed_in_alternate_blocks_then_the_faster_is_kept(clock: Clock) -> None:
    spin = Spin(200e-6)
    # The first wait only starts the clock; then blocks alternate, polling first.
    ways = _play(spin, clock, 1 + TRIAL + KEPT, polled=100e-6, slept=130e-6)
    trial = ways[1 : 1 + TRIAL]
    assert ways[0] is True
    assert trial == [(b % 2 == 0) for b in range(2 * BLOCKS) for _ in range(BLOCK)]
    assert all(ways[1 + TRIAL :])  # polling was faster: kept
    # Then both are timed again; this time sleeping is faster, and kept.
    ways = _play(spin, clock, TRIAL + KEPT, polled=150e-6, slept=130e-6)
    assert ways[:TRIAL] == trial
    assert not any(ways[TRIAL:])


def test_a_machine_where_polling_slows_the_match_keeps_sleeping(clock: Clock) -> None:
    spin = Spin(200e-6)
    ways = _play(spin, clock, 1 + TRIAL + KEPT, polled=400e-6, slept=120e-6)
    assert ways[1 : 1 + TRIAL].count(True) == BLOCKS * BLOCK  # half the trial polls
    assert ways[1 + TRIAL :].count(True) == 0


@pytest.mark.parametrize("seconds", [0.0, 200e-6])
def test_no_spin_or_a_single_cpu_never_polls(
    clock: Clock, monkeypatch: pytest.MonkeyPatch, seconds: float
) -> None:
    monkeypatch.setattr(acpc_seat, "_cpus", lambda: 1 if seconds else 2)
    spin = Spin(seconds)
    assert spin.seconds == 0.0
    assert not any(_play(spin, clock, 2 * (TRIAL + KEPT), polled=1e-6, slept=1e-3))


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="Linux affinity calls")
def test_a_process_pinned_to_one_cpu_does_not_poll() -> None:
    before = os.sched_getaffinity(0)
    try:
        os.sched_setaffinity(0, {min(before)})
        assert Spin(200e-6).polling is False
    finally:
        os.sched_setaffinity(0, before)
    assert Spin(200e-6).polling is (len(before) > 1)


def test_the_dealer_command_polls_as_the_library_does_by_default() -> None:
    import inspect

    from pokerlab.cli.acpc import client_command, dealer_command

    default = inspect.signature(dealer_command).parameters["spin_us"].default
    assert default == acpc_seat.DEALER_SPIN_US > 0
    assert inspect.signature(client_command).parameters["spin_us"].default == 0.0


@pytest.mark.parametrize("seconds", [math.inf, math.nan, -1e-6, 2.0])
def test_a_spin_outside_0_to_a_second_is_refused(seconds: float) -> None:
    with pytest.raises(PokerlabError, match="allowed: 0"):
        Spin(seconds)


@pytest.mark.parametrize("limit", [0.0, -1.0, math.inf, math.nan, 1e10])
def test_a_time_limit_that_is_not_a_positive_number_of_seconds_is_refused(limit: float) -> None:
    for field in ("per_action", "per_hand", "per_match"):
        with pytest.raises(PokerlabError, match="allowed: a positive number of seconds"):
            TimeLimits(**{field: limit})
    assert TimeLimits(per_action=None).per_action is None


def _pair(spin: Spin) -> tuple[acpc_seat._LineSocket, socket.socket]:
    ours, theirs = socket.socketpair()
    return acpc_seat._LineSocket(ours, spin=spin), theirs


def test_a_polling_read_still_times_out_at_its_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(acpc_seat, "_cpus", lambda: 2)
    spin = Spin(1.0)  # a second of polling: longer than the deadline, which must win
    lines, theirs = _pair(spin)
    try:
        start = time.monotonic()
        with pytest.raises(AgentFault, match="time limit"):
            lines.read_line(start + 0.05)
        assert time.monotonic() - start < 0.5
        assert spin.polling
        theirs.sendall(b"late answer\r\n")
        assert lines.read_line(time.monotonic() - 1.0) == "late answer"  # there, past it
    finally:
        lines.close()
        theirs.close()


def test_every_read_that_waited_is_counted_once_and_no_other(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(acpc_seat, "_cpus", lambda: 2)
    spin = Spin(200e-6)
    counted: list[int] = []
    monkeypatch.setattr(spin, "record", lambda: counted.append(1))
    lines, theirs = _pair(spin)
    try:
        theirs.sendall(b"one\r\ntwo\r\n")
        assert lines.read_line(None) == "one"  # waited for the bytes
        assert lines.read_line(None) == "two"  # already read: no wait
        assert len(counted) == 1
        with pytest.raises(AgentFault):
            lines.read_line(time.monotonic() + 0.01)  # a timeout ends a wait too
        assert len(counted) == 2
    finally:
        lines.close()
        theirs.close()


class _Endless:
    """A client faster than any reader: more bytes at every read, never a line's end."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.reads = 0

    def recv(self, size: int, *flags: int) -> bytes:
        self.reads += 1
        if self.reads > 100_000:
            raise RuntimeError("read for ever")
        return b"x" * 4096

    def __getattr__(self, name: str) -> object:
        return getattr(self.sock, name)


class _Ready:
    def poll(self, timeout: int) -> list[tuple[int, int]]:
        return [(0, 1)]


def test_a_client_writing_without_end_does_not_hold_the_seat_past_its_deadline() -> None:
    lines, theirs = _pair(Spin(0.0))
    real = lines.sock
    endless = _Endless(real)
    lines.sock, lines._poll = endless, _Ready()  # type: ignore[assignment]
    try:
        with pytest.raises(AgentFault, match="longer than"):  # told once
            lines.read_line(time.monotonic() + 5.0)
        start = time.monotonic()
        with pytest.raises(AgentFault, match="time limit"):
            lines.read_line(start + 0.05)  # then the line is dropped as it comes, until then
        assert time.monotonic() - start < 0.3
        assert endless.reads < 100_000
    finally:
        real.close()
        theirs.close()


def test_a_few_slow_waits_do_not_decide_the_way(clock: Clock) -> None:
    spin = Spin(200e-6)
    ways = []
    clock.now += 1.0
    spin.record()  # the first wait starts the clock
    for wait in range(TRIAL + 1):
        ways.append(spin.polling)
        slow = spin.polling and wait % 97 == 3  # a few timeouts, all while polling
        clock.now += 1.0 if slow else 100e-6 if spin.polling else 130e-6
        spin.record()
    assert ways[:TRIAL].count(True) == BLOCKS * BLOCK
    assert ways[TRIAL] is True  # polling is still the faster way
