"""The run loop as a person meets it: Ctrl-C latency, seconds budgets, first and second runs.

No peer: each row times a ``pokerlab`` command in a fresh process (the way a user runs it)
and compares with what it promises.

- ``Ctrl-C`` on CFR+ on ``leduc(stack=50, raise_cap=None)`` (256,477 histories): seconds
  from SIGINT to the process's exit, the checkpoint written (the run loop polls between
  slices of about 0.1 s). The process is sent SIGINT once it says it runs.
- ``--seconds`` budgets: wall-clock time of the solving part of ``pokerlab solve
  ... --seconds S`` (the ``wall_seconds`` it reports) against ``S``; Deep CFR included.
- First and second runs of the README's ``pokerlab spot solve`` and ``pokerlab equity``,
  on an empty numba cache (``NUMBA_CACHE_DIR`` a fresh folder: a new machine) and again
  with the cache it left: the process's wall time and the solve time it reports.

``SCRIPT_PYTHON`` and ``SCRIPT_PATH`` (environment) run another checkout's pokerlab, for
an A/B against the code before a change.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from benchmarks._harness import Row

ROOT = Path(__file__).resolve().parents[1]
SPOT = ["spot", "solve", "--board", "Td9d6hQc2s", "--oop", "66+,A8s+,AJo+", "--ip",
        "QQ-22,AQs-A2s,ATo+", "--pot", "200", "--stack", "900", "--bets", "50%,100%",
        "--raises", "2.5x", "--target", "0.5%"]
EQUITY = ["equity", "AsKs", "QdQh", "--board", "2c7dTh"]


def _env(cache: str | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.environ.get("SCRIPT_PATH", str(ROOT))
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = cache
    return env


def _command(args: list[str]) -> list[str]:
    return [os.environ.get("SCRIPT_PYTHON", sys.executable), "-m", "pokerlab.cli", *args]


def _load() -> str:
    return f"load {os.getloadavg()[0]:.1f}"


def ctrl_c_latency(folder: Path, *, wait: float = 90.0) -> tuple[float, str]:
    """Seconds from SIGINT to exit of CFR+ on the 50-chip Leduc; and what was saved."""
    out = folder / "leduc50.npz"
    process = subprocess.Popen(
        _command(["solve", "leduc(stack=50, raise_cap=None)", "--algorithm", "cfr+",
                  "--iterations", "20000", "--out", str(out)]),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(), cwd=folder,
    )
    assert process.stderr is not None
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(process.stderr or []), daemon=True)
    reader.start()
    began = time.monotonic()
    # until it says it runs (a pokerlab without that line: the whole wait, to build its
    # tree and start), then well into the iterations
    while not any("running (" in line for line in lines) and time.monotonic() - began < wait:
        time.sleep(0.1)
    time.sleep(3.0)
    pressed = time.monotonic()
    process.send_signal(signal.SIGINT)
    process.wait(timeout=900)
    took = time.monotonic() - pressed
    saved = (folder / "leduc50.checkpoint.npz").exists()
    return took, f"exit {process.returncode}, checkpoint {'saved' if saved else 'missing'}"


def seconds_budget(algorithm: str, game: str, seconds: float, folder: Path) -> dict[str, float]:
    """The JSON summary's clocks of ``solve GAME --algorithm A --seconds S``, and the wall."""
    began = time.monotonic()
    done = subprocess.run(
        _command(["solve", game, "--algorithm", algorithm, "--seconds", str(seconds),
                  "--json", "--out", str(folder / f"{algorithm}.npz")]),
        capture_output=True, text=True, env=_env(), cwd=folder, check=True,
    )
    data = json.loads(done.stdout)
    data["process"] = time.monotonic() - began
    return data


def first_and_second(args: list[str], folder: Path) -> list[tuple[float, str]]:
    """Process wall time and stdout's first line, on an empty numba cache then a warm one."""
    cache = tempfile.mkdtemp(prefix="numba-cache-", dir=folder)
    runs = []
    for _ in range(2):
        began = time.monotonic()
        done = subprocess.run(_command(args), capture_output=True, text=True,
                              env=_env(cache), cwd=folder, check=True)
        first = done.stdout.strip().splitlines()[0] if done.stdout.strip() else ""
        runs.append((time.monotonic() - began, first))
    return runs


def run(quick: bool) -> list[Row]:
    """The rows (see the module docstring)."""
    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        took, saved = ctrl_c_latency(folder)
        rows.append(Row("Ctrl-C to exit, solve CFR+ leduc(stack=50, raise_cap=None)", "s",
                        took, target="< 1 s + saving", note=f"{saved}; {_load()}"))
        budgets = [("cfr+", "leduc", 5.0)]
        if not quick:
            budgets.append(("deep-cfr", "leduc", 20.0))
        for algorithm, game, seconds in budgets:
            data = seconds_budget(algorithm, game, seconds, folder)
            wall = data.get("wall_seconds", data["seconds"])
            rows.append(Row(f"solve {algorithm} {game} --seconds {seconds:g}: wall seconds",
                            "s", wall, target=f"{seconds:g} s within 10%",
                            note=f"solving {data['seconds']:.2f} s, process "
                                 f"{data['process']:.1f} s; {_load()}"))
        for label, args in (("spot solve (README)", SPOT), ("equity (README)", EQUITY)):
            for which, (took, first) in zip(("first", "second"),
                                            first_and_second(args, folder), strict=True):
                rows.append(Row(f"{label}, {which} run (empty numba cache first)", "s", took,
                                note=f"{first[:70]}; {_load()}"))
    return rows
