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


# The peak as VmHWM: ru_maxrss would carry over through exec the peak of the forked
# parent (a test process of 500 MB); VmHWM is the new program's own.
_PEAK = ("import sys\nfrom pokerlab.cli import main\n"
         "try:\n    code = main()\nexcept SystemExit as stop:\n    code = stop.code\n"
         "peak = [line.split()[1] for line in open('/proc/self/status')\n"
         "        if line.startswith('VmHWM')][0]\n"
         "print(peak, file=sys.stderr)\n"
         "sys.exit(code or 0)\n")


def command_peak(args: list[str], *, timeout: float = 600) -> tuple[str, int]:
    """Run ``pokerlab ARGS`` in a new process: its stdout and its peak memory in bytes.

    The peak is the process's resident high-water mark (Linux ``VmHWM``).

    Raises:
        RuntimeError: if the command fails (with the end of its error output).
    """
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _PEAK, *args], capture_output=True,
                          text=True, timeout=timeout, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"pokerlab {' '.join(args[:2])} failed: {done.stderr[-2000:]}")
    return done.stdout, int(done.stderr.strip().splitlines()[-1]) * 1024

