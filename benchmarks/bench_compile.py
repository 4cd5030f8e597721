"""Compile times of the challenge games (no peer: OpenSpiel has no compile step).

Each game is compiled from a cold cache (``pokerlab.tree.clear_cache()`` first), so the
figure is what a first ``pokerlab games info`` or a first solve pays.
"""

from __future__ import annotations

import time

from benchmarks._harness import Row
from pokerlab.games import Game, kuhn, leduc
from pokerlab.tree import clear_cache, compile


def _cold_compile(game: Game, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        clear_cache()
        start = time.perf_counter()
        compile(game)
        best = min(best, time.perf_counter() - start)
    clear_cache()
    return best


def run(quick: bool) -> list[Row]:
    cases: list[tuple[Game, str, int]] = [
        (leduc(stack=50, raise_cap=None), "< 2 s", 1 if quick else 3),
        (kuhn(cards=100), "< 2 s", 1 if quick else 3),
    ]
    if not quick:
        cases.append((kuhn(cards=1000), "< 60 s", 1))
    rows = []
    for game, target, repeat in cases:
        seconds = _cold_compile(game, repeat)
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
