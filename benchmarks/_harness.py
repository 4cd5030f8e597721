"""Shared helpers for the side-by-side benchmarks.

Each ``benchmarks/bench_<topic>.py`` defines ``run(quick: bool) -> list[Row]``: it times
pokerlab and the peer in the same process, in the same run, and returns one row per
comparison. ``python -m benchmarks [topic ...] [--quick]`` runs them and prints the table
that docs/benchmarks.md records.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Row:
    """One comparison: what was measured, our figure, the peer's, and their ratio."""

    name: str
    unit: str
    ours: float
    peer_name: str = ""
    peer: float | None = None
    higher_is_better: bool = False
    target: str = ""
    note: str = ""

    @property
    def ratio(self) -> float | None:
        """How many times better pokerlab is than the peer (>1 means pokerlab wins)."""
        if self.peer is None or self.ours == 0 or self.peer == 0:
            return None
        return self.ours / self.peer if self.higher_is_better else self.peer / self.ours


def best_time(fn: Callable[[], object], *, repeat: int = 5, min_seconds: float = 0.0) -> float:
    """Return the best wall time in seconds of ``fn()`` over ``repeat`` calls.

    Keeps calling until both ``repeat`` calls and ``min_seconds`` of total time are reached.
    """
    best = float("inf")
    total = 0.0
    calls = 0
    while calls < repeat or total < min_seconds:
        start = time.perf_counter()
        fn()
        elapsed = time.perf_counter() - start
        best = min(best, elapsed)
        total += elapsed
        calls += 1
    return best
