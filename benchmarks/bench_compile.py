"""Compile times of the challenge games (no peer: OpenSpiel has no compile step).

Each game is compiled from a cold cache (``pokerlab.tree.clear_cache()`` first), so the
figure is what a first ``pokerlab games info`` or a first solve pays.
"""

from __future__ import annotations

import time

from benchmarks._harness import Row
from pokerlab.games import Game, kuhn, leduc
from pokerlab.tree import clear_cache, compile
from pokerlab.tree.compile import DEFAULT_MEMORY_LIMIT

LARGE_LIMIT = 8 << 30
"""The memory limit the large case compiles under: its estimate (about 4.7 GB, measured
peak 2.9 GB) is over the default 4 GiB limit, which would refuse it."""


def _cold_compile(game: Game, repeat: int, memory_limit: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        clear_cache()
        start = time.perf_counter()
        compile(game, memory_limit=memory_limit)
        best = min(best, time.perf_counter() - start)
    clear_cache()
    return best


def run(quick: bool) -> list[Row]:
    cases: list[tuple[Game, str, int, int]] = [
        (leduc(stack=50, raise_cap=None), "< 2 s", 1 if quick else 3, DEFAULT_MEMORY_LIMIT),
        (kuhn(cards=100), "< 2 s", 1 if quick else 3, DEFAULT_MEMORY_LIMIT),
    ]
    if not quick:
        cases.append((kuhn(cards=1000), "< 60 s", 1, LARGE_LIMIT))
    rows = []
    for game, target, repeat, memory_limit in cases:
        seconds = _cold_compile(game, repeat, memory_limit)
        histories = getattr(game, "count_histories", lambda: 0)()
        rows.append(
            Row(
                name=f"compile {game.spec}",
                unit="s",
                ours=seconds,
                peer_name="",
                peer=None,
                target=target,
                note=f"{histories:,} histories, cold cache, best of {repeat}",
            )
        )
    return rows
