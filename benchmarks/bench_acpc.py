"""ACPC dealer throughput: heads-up limit hands per second over loopback (target >= 1,000).

Two ``pokerlab acpc client`` processes (always-call agents) connect to the dealer
(:func:`pokerlab.protocols.acpc_dealer.run_acpc_match`) in this process; the peer figure is
the same match played in process (:func:`pokerlab.eval.matches.iter_hands`, the same agents).
"""

from __future__ import annotations

import subprocess
import sys
import time

from benchmarks._harness import Row
from pokerlab.agents.registry import make_agent
from pokerlab.eval.matches import iter_hands
from pokerlab.games.holdem import holdem
from pokerlab.protocols.acpc_dealer import TimeLimits, accept_seats, open_seats, run_acpc_match

GAME_TEXT = 'holdem(betting="limit")'


def _loopback(hands: int) -> float:
    game = holdem(betting="limit")
    servers = open_seats(2, 0)
    clients = [
        subprocess.Popen(
            [sys.executable, "-m", "pokerlab.cli", "acpc", "client", GAME_TEXT, "127.0.0.1",
             str(s.getsockname()[1]), "--agent", "always-call"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        for s in servers
    ]  # fmt: skip
    seats = accept_seats(servers, ["a", "b"], TimeLimits(per_action=5.0))
    try:
        start = time.perf_counter()
        run_acpc_match(game, seats, hands=hands, seed=1)
        return hands / (time.perf_counter() - start)
    finally:
        for seat in seats:
            seat.close()
        for client in clients:
            client.wait(30)


def _in_process(hands: int) -> float:
    game = holdem(betting="limit")
    agents = [make_agent("always-call", game), make_agent("always-call", game)]
    start = time.perf_counter()
    for _ in iter_hands(game, agents, hands=hands, seats="rotate", duplicate=False, seed=1):
        pass
    return hands / (time.perf_counter() - start)


def run(quick: bool) -> list[Row]:
    hands = 1000 if quick else 5000
    return [
        Row(
            name="ACPC dealer: HU limit hands/s over loopback",
            unit="hands/s",
            ours=_loopback(hands),
            peer_name="in-process match",
            peer=_in_process(hands),
            higher_is_better=True,
            target=">= 1000 hands/s",
            note=f"{hands} hands, two always-call client processes",
        )
    ]
