"""Start-up time of the ``pokerlab`` command (no peer).

Each figure is the best wall time of a fresh ``python -m pokerlab.cli ...`` process, so it
includes the interpreter's own start (given in the note, measured in the same run), with
the process's CPU time (user + system, best of the same runs: what a busy machine's wall
time cannot show). The top-level group imports a command module only when its command runs,
so ``--help`` and ``games list`` load neither numba, scipy nor matplotlib.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import time

from benchmarks._harness import Row

COMMANDS: tuple[tuple[str, ...], ...] = (("--help",), ("games", "list"))


def _process(args: tuple[str, ...], repeat: int) -> tuple[float, float]:
    """Best wall and best CPU seconds of ``python ARGS`` over ``repeat`` fresh processes."""
    walls, cpus = [], []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, *args],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return min(walls), min(cpus)


def run(quick: bool) -> list[Row]:
    repeat = 3 if quick else 10
    interpreter, _ = _process(("-c", "pass"), repeat)
    rows = []
    for argv in COMMANDS:
        wall, cpu = _process(("-m", "pokerlab.cli", *argv), repeat)
        rows.append(
            Row(
                name=f"startup: pokerlab {' '.join(argv)}",
                unit="s",
                ours=wall,
                target="< 1 s",
                note=f"fresh process, best of {repeat}; CPU {cpu:.3f} s; "
                f"python -c pass {interpreter:.3f} s",
            )
        )
    return rows
