"""Start-up time of the ``pokerlab`` command (no peer).

Each figure is the best wall time of a fresh ``python -m pokerlab.cli ...`` process, so it
includes the interpreter's own start (given in the note, measured in the same run), with
the process's CPU time (user + system, best of the same runs: what a busy machine's wall
time cannot show). The top-level group imports a command module only when its command runs,
so ``--help`` and ``games list`` load neither numba, scipy nor matplotlib.

The processes may write bytecode whatever ``PYTHONDONTWRITEBYTECODE`` says (these machines
set it): an installed package has its ``.pyc`` files, and without them every run compiles
pokerlab's modules from source again (about 0.35 s of the river spot's command).
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time

from benchmarks._harness import Row

RIVER = ("spot", "solve", "--board", "Td9d6hQc2s", "--oop", "66+,A8s+,AJo+",
         "--ip", "QQ-22,AQs-A2s,ATo+", "--pot", "200", "--stack", "900", "--bets", "50%,100%",
         "--raises", "2.5x", "--target", "0.5%")
"""The README's river spot, whole command (issue 27 item 3: at most 1.5 s on 2 cores)."""

COMMANDS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("--help",), "< 1 s"),
    (("games", "list"), "< 1 s"),
    (("play", "kuhn", "--help"), "< 1 s"),  # names every built-in, loads none of them
    (("match", "kuhn", "random", "always-call", "--hands", "10"), ""),
    (RIVER, "<= 1.5 s"),
)


def _process(args: tuple[str, ...], repeat: int) -> tuple[float, float]:
    """Best wall and best CPU seconds of ``python ARGS`` over ``repeat`` fresh processes."""
    walls, cpus = [], []
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, *args],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return min(walls), min(cpus)


def run(quick: bool) -> list[Row]:
    repeat = 3 if quick else 10
    interpreter, _ = _process(("-c", "pass"), repeat)
    rows = []
    for argv, target in COMMANDS:
        wall, cpu = _process(("-m", "pokerlab.cli", *argv), repeat)
        shown = "spot solve (the README's river spot)" if argv == RIVER else " ".join(argv)
        rows.append(
            Row(
                name=f"startup: pokerlab {shown}",
                unit="s",
                ours=wall,
                target=target,
                note=f"fresh process, best of {repeat}; CPU {cpu:.3f} s; "
                f"python -c pass {interpreter:.3f} s",
            )
        )
    return rows
