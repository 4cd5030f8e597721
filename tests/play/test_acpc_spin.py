"""The dealer's choice to poll for an answer before it sleeps (`Spin`): timed, not guessed."""

from __future__ import annotations

import os

import pytest

from pokerlab.play import acpc_seat
from pokerlab.play.acpc_seat import Spin

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
