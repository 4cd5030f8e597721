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
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks._harness import Row
from pokerlab.agents.registry import make_agent
from pokerlab.eval.matches import iter_hands
from pokerlab.games.holdem_state import HoldemGame
from pokerlab.play.acpc_seat import DEALER_SPIN_US, AcpcTable, TimeLimits
from pokerlab.play.containment import one_core as pinned
from pokerlab.protocols.acpc_client import AcpcPlayer
from pokerlab.protocols.acpc_dealer import accept_seats, open_seats, run_acpc_match
from pokerlab.protocols.acpc_gamedef import load_acpc_game

GAMEDEF = "holdem.limit.2p.reverse_blinds"
C_CLIENT = Path(__file__).parents[1] / "tests" / "protocols" / "clients" / "always_call.c"


def _process_cpu(pid: int) -> float | None:
    """CPU seconds (user + system) process ``pid`` has used, from /proc (None elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _loopback(
    hands: int, client: list[str], spin_us: float = 0.0, *, one_core: bool = False
) -> tuple[float, float, float | None]:
    """Hands per second over loopback, and the dealer's and the clients' CPU ms per hand.

    ``spin_us`` is the dealer's ``--spin-us`` (the clients' own options are in ``client``;
    the pokerlab clients' default is not to poll).
    ``one_core``: the dealer and the clients run on one core
    (:func:`pokerlab.play.containment.one_core`, as a match with entrants does; the
    clients inherit it), as ``taskset -c`` would put them. The clients' CPU is read from
    /proc (None where there is none).
    """
    game = load_acpc_game(GAMEDEF)
    servers = open_seats(2, 0)
    with pinned(one_core):
        clients = [
            subprocess.Popen([*client, "127.0.0.1", str(s.getsockname()[1])],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for s in servers
        ]  # fmt: skip
        return _play(game, servers, clients, hands, spin_us)


def _play(
    game: HoldemGame,
    servers: list[socket.socket],
    clients: list[subprocess.Popen[bytes]],
    hands: int,
    spin_us: float,
) -> tuple[float, float, float | None]:
    """Accept the clients, play the warm-up and the timed match; close the seats."""
    seats = accept_seats(servers, ["a", "b"], TimeLimits(per_action=5.0), spin_us=spin_us)
    try:
        run_acpc_match(game, seats, hands=20, seed=0)  # warm-up: the first hands compile
        before = [_process_cpu(p.pid) for p in clients]
        start, cpu = time.perf_counter(), time.process_time()
        run_acpc_match(game, seats, hands=hands, seed=1)
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
        after = [_process_cpu(p.pid) for p in clients]
        spent = [
            b - a for a, b in zip(before, after, strict=True) if a is not None and b is not None
        ]
        client_cpu = sum(spent) * 1000 / hands if len(spent) == len(clients) else None
        return hands / wall, cpu * 1000 / hands, client_cpu
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


def _match_rows(
    clients: str, result: tuple[float, float, float | None], local: tuple[float, float],
    hands: int, load: str,
) -> list[Row]:  # fmt: skip
    """The hands/s row and the CPU row of one loopback configuration."""
    rate, cpu, client_cpu = result
    theirs = "" if client_cpu is None else f", the two clients {client_cpu:.2f}"
    return [
        Row(
            name=f"ACPC dealer: HU limit hands/s, {clients}",
            unit="hands/s",
            ours=rate,
            peer_name="in-process match",
            peer=local[0],
            higher_is_better=True,
            target=">= 1000 hands/s",
            note=f"{hands} hands, always-call, loopback TCP; CPU ms/hand: dealer {cpu:.2f}"
            f"{theirs} (in process {local[1]:.2f}); load {load}",
        ),
        Row(
            name=f"ACPC dealer: CPU ms per HU limit hand, {clients}",
            unit="ms/hand",
            ours=cpu,
            peer_name="in-process match",
            peer=local[1],
            higher_is_better=False,
            note=f"{hands} hands; dealer process CPU time (sends included){theirs}; load {load}",
        ),
    ]


def run(quick: bool) -> list[Row]:
    hands = 1000 if quick else 5000
    local = _in_process(hands)
    pin = hasattr(os, "sched_setaffinity")  # Linux
    default = "the dealer's defaults (polls for answers where that is timed faster)"
    configs: list[tuple[str, list[str], float, bool]] = [
        (f"two pokerlab client processes, {default}", _python_client(), DEALER_SPIN_US, False),
        ("two pokerlab client processes, dealer --spin-us 0", _python_client(), 0.0, False),
    ]
    if pin:
        configs.append(
            ("two pokerlab client processes, all on one core", _python_client(), 0.0, True)
        )
    rows: list[Row] = []
    before = _load()
    per_message, messages = _client_cpu(min(hands, 2000))
    client_row = Row(
        name="ACPC client: CPU us per match state (AcpcPlayer, always-call)",
        unit="us/message",
        ours=per_message,
        note=f"{messages} states of one seat, no socket, best of 3; load {before} to {_load()}",
    )
    compiler = shutil.which("cc") or shutil.which("gcc")
    with tempfile.TemporaryDirectory() as folder:
        if compiler is not None:
            binary = str(Path(folder) / "always_call")
            subprocess.run([compiler, "-O2", "-o", binary, str(C_CLIENT)], check=True)
            configs += [
                (f"two C client processes, {default}", [binary], DEALER_SPIN_US, False),
                ("two C client processes, dealer --spin-us 0", [binary], 0.0, False),
            ]
            if pin:
                configs.append(("two C client processes, all on one core", [binary], 0.0, True))
        for clients, command, spin_us, one_core in configs:
            before = _load()
            result = _loopback(hands, command, spin_us, one_core=one_core)
            rows += _match_rows(clients, result, local, hands, f"{before} to {_load()}")
    return [*rows, client_row]
