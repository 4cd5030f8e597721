"""ACPC dealer throughput: heads-up limit hands per second over loopback (target >= 1,000).

The dealer (:func:`pokerlab.protocols.acpc_dealer.run_acpc_match`) runs in this process
and two always-call clients connect to it over loopback: either two ``pokerlab acpc
client`` processes (Python, the agent behind :class:`~pokerlab.protocols.acpc_client.AcpcPlayer`)
or two C clients (tests/protocols/clients/always_call.c, compiled with ``cc``: the
simplest client, so the figure is the dealer's own). The peer figure is the same match
played in process (:func:`pokerlab.eval.matches.iter_hands`, the same agents). Every
figure is taken after a warm-up match (imports, compiled kernels). Besides hands per
second, each loopback figure has a row for the dealer's CPU time per hand (the dealer's
own cost, which a loaded machine changes less than the wall figure), and every note says
the load average over the run: the wall figure depends on how soon the clients are
scheduled, four round trips per hand and seat.
"""

from __future__ import annotations

import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks._harness import Row
from pokerlab.agents.registry import make_agent
from pokerlab.eval.matches import iter_hands
from pokerlab.protocols.acpc_client import AcpcPlayer
from pokerlab.protocols.acpc_dealer import (
    AcpcTable,
    TimeLimits,
    accept_seats,
    open_seats,
    run_acpc_match,
)
from pokerlab.protocols.acpc_gamedef import load_acpc_game

GAMEDEF = "holdem.limit.2p.reverse_blinds"
C_CLIENT = Path(__file__).parents[1] / "tests" / "protocols" / "clients" / "always_call.c"


def _loopback(hands: int, client: list[str]) -> tuple[float, float]:
    """Hands per second over loopback, and the dealer's CPU milliseconds per hand."""
    game = load_acpc_game(GAMEDEF)
    servers = open_seats(2, 0)
    clients = [
        subprocess.Popen([*client, "127.0.0.1", str(s.getsockname()[1])],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for s in servers
    ]  # fmt: skip
    seats = accept_seats(servers, ["a", "b"], TimeLimits(per_action=5.0))
    try:
        run_acpc_match(game, seats, hands=20, seed=0)  # warm-up: the first hands compile
        start, cpu = time.perf_counter(), time.process_time()
        run_acpc_match(game, seats, hands=hands, seed=1)
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
        return hands / wall, cpu * 1000 / hands
    finally:
        for seat in seats:
            seat.close()
        for process in clients:
            process.wait(30)


def _client_cpu(hands: int) -> tuple[float, int]:
    """CPU microseconds the pokerlab client spends per match state (always-call agent).

    The match states one seat is sent over ``hands`` hands are collected in process (an
    :class:`AcpcTable` with a recording seat), then answered by an
    :class:`AcpcPlayer` (no socket): the client's own cost, best of three passes.
    """

    class Recorder:
        def __init__(self, name: str) -> None:
            self.name = name
            self.hand_seconds = 0.0
            self.table: AcpcTable | None = None
            self.lines: list[str] = []

        def deliver(self, text: str) -> None:
            self.lines.append(text)

    game = load_acpc_game(GAMEDEF)
    seats = [Recorder("a"), Recorder("b")]
    table = AcpcTable({0: seats[0], 1: seats[1]})
    agents = [make_agent("always-call", game), make_agent("always-call", game)]
    for _ in iter_hands(game, agents, hands=hands, seats="rotate", duplicate=False, seed=1,
                        listeners=[table]):  # fmt: skip
        pass
    lines = seats[0].lines
    best = math.inf
    for _ in range(3):
        player = AcpcPlayer(game, make_agent("always-call", game))
        cpu = time.process_time()
        for line in lines:
            player.answer(line)
        best = min(best, time.process_time() - cpu)
    return best * 1e6 / len(lines), len(lines)


def _python_client() -> list[str]:
    return [sys.executable, "-m", "pokerlab.cli", "acpc", "client", GAMEDEF]


def _in_process(hands: int) -> tuple[float, float]:
    """Hands per second in process, and CPU milliseconds per hand."""
    game = load_acpc_game(GAMEDEF)
    agents = [make_agent("always-call", game), make_agent("always-call", game)]
    for _ in iter_hands(game, agents, hands=20, seats="rotate", duplicate=False, seed=0):
        pass
    start, cpu = time.perf_counter(), time.process_time()
    for _ in iter_hands(game, agents, hands=hands, seats="rotate", duplicate=False, seed=1):
        pass
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    return hands / wall, cpu * 1000 / hands


def _load() -> str:
    """The 1-minute load average now, for the notes."""
    return f"{os.getloadavg()[0]:.1f}"


def _cpu_row(clients: str, cpu: float, local_cpu: float, hands: int, load: str) -> Row:
    return Row(
        name=f"ACPC dealer: CPU ms per HU limit hand, two {clients}",
        unit="ms/hand",
        ours=cpu,
        peer_name="in-process match",
        peer=local_cpu,
        higher_is_better=False,
        note=f"{hands} hands; dealer process CPU time (sends included); load {load}",
    )


def run(quick: bool) -> list[Row]:
    hands = 1000 if quick else 5000
    before = _load()
    local, local_cpu = _in_process(hands)
    ours, cpu = _loopback(hands, _python_client())
    load = f"{before} to {_load()}"
    rows = [
        Row(
            name="ACPC dealer: HU limit hands/s, two pokerlab client processes",
            unit="hands/s",
            ours=ours,
            peer_name="in-process match",
            peer=local,
            higher_is_better=True,
            target=">= 1000 hands/s",
            note=f"{hands} hands, always-call agents, loopback TCP; dealer CPU "
            f"{cpu:.2f} ms/hand (in process {local_cpu:.2f}); load {load}",
        ),
        _cpu_row("pokerlab client processes", cpu, local_cpu, hands, load),
    ]
    before = _load()
    per_message, messages = _client_cpu(min(hands, 2000))
    rows.append(
        Row(
            name="ACPC client: CPU us per match state (AcpcPlayer, always-call)",
            unit="us/message",
            ours=per_message,
            note=f"{messages} states of one seat, no socket, best of 3; load {before} to "
            f"{_load()}",
        )
    )
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is not None:
        with tempfile.TemporaryDirectory() as folder:
            binary = str(Path(folder) / "always_call")
            subprocess.run([compiler, "-O2", "-o", binary, str(C_CLIENT)], check=True)
            before = _load()
            ours, cpu = _loopback(hands, [binary])
            load = f"{before} to {_load()}"
            rows.append(
                Row(
                    name="ACPC dealer: HU limit hands/s, two C client processes",
                    unit="hands/s",
                    ours=ours,
                    peer_name="in-process match",
                    peer=local,
                    higher_is_better=True,
                    target=">= 1000 hands/s",
                    note=f"{hands} hands, always-call C clients; dealer CPU {cpu:.2f} "
                    f"ms/hand (in process {local_cpu:.2f}); load {load}",
                )
            )
            rows.append(_cpu_row("C client processes", cpu, local_cpu, hands, load))
    return rows
